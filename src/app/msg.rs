//! What the user can ask of the dashboard: every key press becomes one of
//! these messages (see `ui::keys`), and [`super::App::update`] is the one
//! place they change anything. Messages are serialisable, which is what
//! lets a recording replay a session exactly.

use serde::{Deserialize, Serialize};

/// What the user asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
pub enum Msg {
    /// Leave.
    Quit,
    /// Pause or resume the simulation.
    TogglePause,
    /// Advance one sample interval (100 ms) while paused.
    Step,
    /// The next speed step (1-2-5).
    Faster,
    /// The previous speed step.
    Slower,
    /// Start a dd on the selected bdi.
    AddDd,
    /// Kill the newest dd on the selected bdi.
    RemoveDd,
    /// Select the next bdi.
    NextBdi,
    /// Select the previous bdi.
    PrevBdi,
    /// `vm.dirty_ratio` by this many points.
    DirtyRatio(i8),
    /// `vm.dirty_background_ratio` by this many points.
    BackgroundRatio(i8),
    /// Memory x2 (true) or /2 (false).
    Memory(bool),
    /// Patch level up (true) or down (false), down to legacy.
    Patches(bool),
    /// Show chart n (1-5) alone.
    Zoom(u8),
    /// Back to all charts, or close the help, or leave the task table.
    Back,
    /// Cycle the time window of the charts.
    Window,
    /// Cycle the A/B comparisons.
    Compare,
    /// Restart the scenario from time 0.
    Reset,
    /// Show or hide the key help.
    Help,
    /// Switch between the dark and light palettes.
    Theme,
    /// Logarithmic y axis on charts 4 and 5, or linear again.
    LogScale,
    /// Save the screen as an SVG file.
    Snapshot,
    /// Suspend the program (Ctrl-Z); `fg` brings it back.
    Suspend,
    /// Move the keyboard focus to the task table, or back.
    FocusTasks,
    /// Scroll the task table by this many rows (negative: up).
    ScrollTasks(i16),
    /// Scroll the task table to its last row (true) or its first.
    TasksEnd(bool),
    /// Scroll the task table a page down (true) or up, as many rows as
    /// it shows.
    PageTasks(bool),
    /// Scroll the help by this many rows (negative: up).
    ScrollHelp(i16),
    /// Scroll the help a page down (true) or up, as many rows as it shows
    /// less one.
    PageHelp(bool),
    /// Move a kernel trace's playhead by this many seconds (negative:
    /// back; `i16::MIN`: to its start; `i16::MAX`: to its end, a live
    /// trace's followed again).
    Seek(i16),
    /// A lesson key, or a key of the lesson list.
    Lesson(LessonMsg),
}

impl Msg {
    /// Why no key of any version sends this message, for a recording
    /// edited by hand (`Zoom(99)`); `None` for every message a key may
    /// have sent. Amounts that keys changed over time (a page of the task
    /// table was 10 rows) are any amount: the dashboard clamps them.
    pub fn out_of_range(self) -> Option<&'static str> {
        match self {
            Msg::Zoom(n) if !(1..=5).contains(&n) => Some("the charts are 1 to 5"),
            Msg::DirtyRatio(d) | Msg::BackgroundRatio(d) if d.abs() != 1 => Some("a key moves a ratio by one point"),
            Msg::Lesson(LessonMsg::Input(c)) if c.is_control() => Some("a control character types nothing"),
            Msg::Lesson(LessonMsg::PickDigit(c)) if !c.is_ascii_digit() => Some("a lesson is chosen by its digits"),
            _ => None,
        }
    }
}

/// What the user asked a lesson, or the lesson list, for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
pub enum LessonMsg {
    /// Open the next step.
    NextStep,
    /// Back to the previous step.
    PrevStep,
    /// Show or hide the step's hint.
    Hint,
    /// Fold the lesson pane to one line, or unfold it.
    Fold,
    /// Show the step's text over the whole body, the charts hidden, or
    /// the charts again (a short terminal shows a few rows of text beside
    /// them).
    FullText,
    /// Answer the step's next question.
    Answer,
    /// Scroll the step's text up (true) or down.
    Scroll(bool),
    /// Open the lesson list.
    Lessons,
    /// Typing: a character of the answer.
    Input(char),
    /// Typing: delete the last character.
    InputBack,
    /// Typing: submit the answer.
    InputDone,
    /// Typing: give up on the answer.
    InputCancel,
    /// Typing: answer the next question (true) or the previous one
    /// instead, what was typed kept.
    InputOther(bool),
    /// Lesson list: move the selection up (true) or down.
    Pick(bool),
    /// Lesson list: open the selected lesson.
    PickOpen,
    /// Lesson list: a digit of a lesson's number (`1` `4` selects lesson
    /// 14, `7` lesson 07).
    PickDigit(char),
}

/// What the keys currently drive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The dashboard (with or without a lesson).
    Normal,
    /// The task table has the focus: arrows and pages scroll it.
    Tasks,
    /// The help is open: arrows and pages scroll it.
    Help,
    /// Typing an answer to a lesson question.
    Typing,
    /// The lesson list is open.
    Picker,
}
