//! Every key of the dashboard, in one table: what it does (the message it
//! sends) and the help line `?` shows. Turning a key event into a message
//! happens here and nowhere else.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use serde::{Deserialize, Serialize};

use LessonMsg as L;

/// What the user asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
pub enum Msg {
    /// Leave.
    Quit,
    /// Pause or resume the simulation.
    TogglePause,
    /// Advance one sample interval (100 ms) while paused.
    Step,
    /// Speed x2.
    Faster,
    /// Speed /2.
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
    /// Back to all charts, or close the help.
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
    /// A lesson key, or a key of the lesson list.
    Lesson(LessonMsg),
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
    /// Lesson list: move the selection up (true) or down.
    Pick(bool),
    /// Lesson list: open the selected lesson.
    PickOpen,
}

/// What the keys currently drive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The dashboard (with or without a lesson).
    Normal,
    /// Typing an answer to a lesson question.
    Typing,
    /// The lesson list is open.
    Picker,
}

/// One line of the key table.
pub struct Binding {
    /// The keys, as shown in the help.
    pub keys: &'static str,
    /// What they do, as shown in the help.
    pub help: &'static str,
}

/// The key table `?` shows and the README lists.
pub const KEYS: &[Binding] = &[
    Binding { keys: "space", help: "pause / resume" },
    Binding { keys: ".", help: "single step (100 ms) while paused" },
    Binding { keys: "] [", help: "speed x2 / /2 (0.1x .. as fast as possible)" },
    Binding { keys: "+ -", help: "add / remove a dd on the selected bdi" },
    Binding { keys: "b B", help: "select the next / previous bdi" },
    Binding { keys: "D d", help: "dirty_ratio +1 / -1" },
    Binding { keys: "G g", help: "dirty_background_ratio +1 / -1" },
    Binding { keys: "M m", help: "memory x2 / /2" },
    Binding { keys: "P p", help: "patch level up / down (down to legacy 3.1, then 2.6.38)" },
    Binding { keys: "1-5", help: "show one chart full screen (again, 0 or Esc: all)" },
    Binding { keys: "w", help: "chart time window: 30 s, 60 s, 5 min, all" },
    Binding { keys: "c", help: "A/B compare: 3.1 or 2.6.38 vs IO-less, patch N-1 vs N, ratios, off" },
    Binding { keys: "r", help: "restart the scenario" },
    Binding { keys: "t", help: "dark / light palette" },
    Binding { keys: "?", help: "this help" },
    Binding { keys: "q", help: "quit (also Ctrl-C)" },
];

/// The keys a lesson adds, shown below [`KEYS`] in the help.
pub const LESSON_KEYS: &[Binding] = &[
    Binding { keys: "n N", help: "lesson: next step / previous step (replays the lesson up to it)" },
    Binding { keys: "h", help: "lesson: show / hide the hint" },
    Binding { keys: "a", help: "lesson: answer the next question (type a number, Enter; Esc cancels)" },
    Binding { keys: "PgUp PgDn", help: "lesson: scroll the step's text" },
    Binding { keys: "L", help: "the lesson list (↑ ↓ choose, Enter opens, Esc closes)" },
];

/// The message a key press sends in `mode`, if any.
pub fn message(key: KeyEvent, mode: Mode) -> Option<Msg> {
    if key.kind != KeyEventKind::Press {
        return None;
    }
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        return matches!(key.code, KeyCode::Char('c') | KeyCode::Char('d')).then_some(Msg::Quit);
    }
    match mode {
        Mode::Normal => normal(key),
        Mode::Typing => Some(match key.code {
            KeyCode::Char(c @ ('0'..='9' | '.' | '-' | 'e' | 'E')) => Msg::Lesson(L::Input(c)),
            KeyCode::Backspace => Msg::Lesson(L::InputBack),
            KeyCode::Enter => Msg::Lesson(L::InputDone),
            KeyCode::Esc => Msg::Lesson(L::InputCancel),
            _ => return None,
        }),
        Mode::Picker => Some(match key.code {
            KeyCode::Up | KeyCode::Char('k') => Msg::Lesson(L::Pick(true)),
            KeyCode::Down | KeyCode::Char('j') => Msg::Lesson(L::Pick(false)),
            KeyCode::Enter => Msg::Lesson(L::PickOpen),
            KeyCode::Esc | KeyCode::Char('L') => Msg::Back,
            KeyCode::Char('q') => Msg::Quit,
            KeyCode::Char('?') | KeyCode::F(1) => Msg::Help,
            _ => return None,
        }),
    }
}

fn normal(key: KeyEvent) -> Option<Msg> {
    Some(match key.code {
        KeyCode::Char('q') => Msg::Quit,
        KeyCode::Char(' ') => Msg::TogglePause,
        KeyCode::Char('.') => Msg::Step,
        KeyCode::Char(']') | KeyCode::Char('>') => Msg::Faster,
        KeyCode::Char('[') | KeyCode::Char('<') => Msg::Slower,
        KeyCode::Char('+') | KeyCode::Char('=') => Msg::AddDd,
        KeyCode::Char('-') | KeyCode::Char('_') => Msg::RemoveDd,
        KeyCode::Char('b') | KeyCode::Tab => Msg::NextBdi,
        KeyCode::Char('B') | KeyCode::BackTab => Msg::PrevBdi,
        KeyCode::Char('D') => Msg::DirtyRatio(1),
        KeyCode::Char('d') => Msg::DirtyRatio(-1),
        KeyCode::Char('G') => Msg::BackgroundRatio(1),
        KeyCode::Char('g') => Msg::BackgroundRatio(-1),
        KeyCode::Char('M') => Msg::Memory(true),
        KeyCode::Char('m') => Msg::Memory(false),
        KeyCode::Char('P') => Msg::Patches(true),
        KeyCode::Char('p') => Msg::Patches(false),
        KeyCode::Char(c @ '1'..='5') => Msg::Zoom(c as u8 - b'0'),
        KeyCode::Char('0') | KeyCode::Esc => Msg::Back,
        KeyCode::Char('w') => Msg::Window,
        KeyCode::Char('c') => Msg::Compare,
        KeyCode::Char('r') => Msg::Reset,
        KeyCode::Char('?') | KeyCode::F(1) => Msg::Help,
        KeyCode::Char('t') => Msg::Theme,
        KeyCode::Char('n') => Msg::Lesson(L::NextStep),
        KeyCode::Char('N') => Msg::Lesson(L::PrevStep),
        KeyCode::Char('h') => Msg::Lesson(L::Hint),
        KeyCode::Char('a') => Msg::Lesson(L::Answer),
        KeyCode::PageUp => Msg::Lesson(L::Scroll(true)),
        KeyCode::PageDown => Msg::Lesson(L::Scroll(false)),
        KeyCode::Char('L') => Msg::Lesson(L::Lessons),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(c: char) -> Option<Msg> {
        message(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE), Mode::Normal)
    }

    #[test]
    fn every_key_in_the_table_does_something() {
        for b in KEYS.iter().chain(LESSON_KEYS) {
            for k in b.keys.split(' ') {
                let msg = match k {
                    "space" => press(' '),
                    "1-5" => press('3'),
                    "PgUp" => message(KeyEvent::new(KeyCode::PageUp, KeyModifiers::NONE), Mode::Normal),
                    "PgDn" => message(KeyEvent::new(KeyCode::PageDown, KeyModifiers::NONE), Mode::Normal),
                    _ => press(k.chars().next().expect("a key")),
                };
                assert!(msg.is_some(), "key {k:?} ({}) is bound", b.help);
            }
        }
        assert_eq!(press('D'), Some(Msg::DirtyRatio(1)));
        assert_eq!(press('x'), None);
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(message(ctrl_c, Mode::Normal), Some(Msg::Quit));
        assert_eq!(message(ctrl_c, Mode::Typing), Some(Msg::Quit));
    }

    #[test]
    fn typing_takes_numbers_and_picking_takes_arrows() {
        let key = |c: KeyCode, m: Mode| message(KeyEvent::new(c, KeyModifiers::NONE), m);
        assert_eq!(key(KeyCode::Char('q'), Mode::Typing), None, "q types nothing and does not quit");
        assert_eq!(key(KeyCode::Char('7'), Mode::Typing), Some(Msg::Lesson(L::Input('7'))));
        assert_eq!(key(KeyCode::Enter, Mode::Typing), Some(Msg::Lesson(L::InputDone)));
        assert_eq!(key(KeyCode::Esc, Mode::Typing), Some(Msg::Lesson(L::InputCancel)));
        assert_eq!(key(KeyCode::Down, Mode::Picker), Some(Msg::Lesson(L::Pick(false))));
        assert_eq!(key(KeyCode::Enter, Mode::Picker), Some(Msg::Lesson(L::PickOpen)));
        assert_eq!(key(KeyCode::Char('+'), Mode::Picker), None);
    }
}
