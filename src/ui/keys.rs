//! Every key, in one table: the key, the message it sends and the help
//! line `?` shows. [`message`] (the key mapping), the help page and the
//! hint bar are all read from these tables, so they cannot disagree.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use crate::app::{LessonMsg as L, Mode, Msg};

/// A key as the tables name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key {
    /// The key.
    pub code: KeyCode,
    /// Pressed with Ctrl.
    pub ctrl: bool,
}

const fn ch(c: char) -> Key {
    Key { code: KeyCode::Char(c), ctrl: false }
}

const fn ctrl(c: char) -> Key {
    Key { code: KeyCode::Char(c), ctrl: true }
}

const fn code(code: KeyCode) -> Key {
    Key { code, ctrl: false }
}

/// One line of a key table: the keys it binds and what they do.
pub struct Binding {
    /// The keys, as the help shows them.
    pub label: &'static str,
    /// Each key and the message it sends.
    pub keys: &'static [(Key, Msg)],
    /// What they do, as the help shows it.
    pub help: &'static str,
    /// The word the hint bar shows beside the label; empty: not on the bar.
    pub hint: &'static str,
}

/// A table of keys for one mode, with its heading on the help page.
pub struct Section {
    /// Heading on the help page.
    pub title: &'static str,
    /// The bindings, in help order.
    pub bindings: &'static [Binding],
}

macro_rules! bind {
    ($label:expr, [$($key:expr => $msg:expr),+ $(,)?], $help:expr, $hint:expr) => {
        Binding { label: $label, keys: &[$(($key, $msg)),+], help: $help, hint: $hint }
    };
}

/// The dashboard's keys.
pub const DASHBOARD: Section = Section {
    title: "dashboard",
    bindings: &[
        bind!("space", [ch(' ') => Msg::TogglePause], "pause / resume", "pause"),
        bind!(".", [ch('.') => Msg::Step], "single step (100 ms) while paused", ""),
        bind!("] [", [ch(']') => Msg::Faster, ch('>') => Msg::Faster, ch('[') => Msg::Slower, ch('<') => Msg::Slower],
            "speed up / down in 1-2-5 steps (0.1× .. as fast as possible)", "speed"),
        bind!("+ -", [ch('+') => Msg::AddDd, ch('=') => Msg::AddDd, ch('-') => Msg::RemoveDd, ch('_') => Msg::RemoveDd],
            "add / remove a dd on the selected bdi", "dd"),
        bind!("b B", [ch('b') => Msg::NextBdi, code(KeyCode::Tab) => Msg::NextBdi,
            ch('B') => Msg::PrevBdi, code(KeyCode::BackTab) => Msg::PrevBdi],
            "select the next / previous bdi (also Tab, Shift-Tab)", "bdi"),
        bind!("D d", [ch('D') => Msg::DirtyRatio(1), ch('d') => Msg::DirtyRatio(-1)], "dirty_ratio +1 / -1", "ratio"),
        bind!("G g", [ch('G') => Msg::BackgroundRatio(1), ch('g') => Msg::BackgroundRatio(-1)],
            "dirty_background_ratio +1 / -1", "bg"),
        bind!("M m", [ch('M') => Msg::Memory(true), ch('m') => Msg::Memory(false)], "memory ×2 / ÷2", "mem"),
        bind!("P p", [ch('P') => Msg::Patches(true), ch('p') => Msg::Patches(false)],
            "patch level up / down (down to legacy 3.1, then 2.6.38)", "patch"),
        bind!("1-5", [ch('1') => Msg::Zoom(1), ch('2') => Msg::Zoom(2), ch('3') => Msg::Zoom(3),
            ch('4') => Msg::Zoom(4), ch('5') => Msg::Zoom(5)],
            "show one chart full screen (again, 0 or Esc: all)", "zoom"),
        bind!("0 Esc", [ch('0') => Msg::Back, code(KeyCode::Esc) => Msg::Back], "all charts; close the help", ""),
        bind!("w", [ch('w') => Msg::Window], "chart time window: 30 s, 1 min, 5 min, the whole run", "window"),
        bind!("l", [ch('l') => Msg::LogScale], "log / linear y axis on charts 4 and 5", "log"),
        bind!("c", [ch('c') => Msg::Compare],
            "A/B compare: 3.1 or 2.6.38 vs IO-less, patch N-1 vs N, ratios", "compare"),
        bind!("T ↑ ↓", [ch('T') => Msg::FocusTasks, code(KeyCode::Up) => Msg::ScrollTasks(-1),
            code(KeyCode::Down) => Msg::ScrollTasks(1)],
            "task table: ↑ ↓ scroll; T focuses it (PgUp PgDn, Esc leaves)", ""),
        bind!("r", [ch('r') => Msg::Reset], "restart the scenario (in a lesson: the open step)", "restart"),
        bind!("t", [ch('t') => Msg::Theme], "dark / light palette", ""),
        bind!("s", [ch('s') => Msg::Snapshot], "save the screen as dirtyviz-<name>-<time>.svg here", ""),
        bind!("?", [ch('?') => Msg::Help, code(KeyCode::F(1)) => Msg::Help], "this help (also F1)", "help"),
        bind!("q", [ch('q') => Msg::Quit, ctrl('c') => Msg::Quit, ctrl('d') => Msg::Quit], "quit (also Ctrl-C, Ctrl-D)", "quit"),
        bind!("Ctrl-Z", [ctrl('z') => Msg::Suspend], "suspend (fg brings it back)", ""),
    ],
};

/// The keys of the dashboard on a kernel trace (`dirtyviz view FILE`,
/// `dirtyviz live`): the trace plays on its own clock.
pub const TRACE: Section = Section {
    title: "kernel trace",
    bindings: &[
        bind!("space", [ch(' ') => Msg::TogglePause], "play / pause (live: freeze the screen / follow)", "play"),
        bind!("← →", [code(KeyCode::Left) => Msg::Seek(-5), code(KeyCode::Right) => Msg::Seek(5)], "seek 5 s back / forward on the trace's clock", "seek"),
        bind!("Home r", [code(KeyCode::Home) => Msg::Seek(i16::MIN), ch('r') => Msg::Seek(i16::MIN)],
            "back to the trace's start", ""),
        bind!("End", [code(KeyCode::End) => Msg::Seek(i16::MAX)], "to the trace's end (live: follow it again)", ""),
        bind!(".", [ch('.') => Msg::Step], "forward 100 ms while paused", ""),
        bind!("] [", [ch(']') => Msg::Faster, ch('>') => Msg::Faster, ch('[') => Msg::Slower, ch('<') => Msg::Slower],
            "play faster / slower in 1-2-5 steps (live plays as it comes)", "speed"),
        bind!("b B", [ch('b') => Msg::NextBdi, code(KeyCode::Tab) => Msg::NextBdi,
            ch('B') => Msg::PrevBdi, code(KeyCode::BackTab) => Msg::PrevBdi],
            "the next / previous bdi, each cgroup of it apart (also Tab, Shift-Tab)", "bdi"),
        bind!("1-5", [ch('1') => Msg::Zoom(1), ch('2') => Msg::Zoom(2), ch('3') => Msg::Zoom(3),
            ch('4') => Msg::Zoom(4), ch('5') => Msg::Zoom(5)],
            "show one chart full screen (again, 0 or Esc: all)", "zoom"),
        bind!("0 Esc", [ch('0') => Msg::Back, code(KeyCode::Esc) => Msg::Back], "all charts; close the help", ""),
        bind!("w", [ch('w') => Msg::Window], "chart time window: 30 s, 1 min, 5 min, the whole trace", "window"),
        bind!("l", [ch('l') => Msg::LogScale], "log / linear y axis on charts 4 and 5", "log"),
        bind!("T ↑ ↓", [ch('T') => Msg::FocusTasks, code(KeyCode::Up) => Msg::ScrollTasks(-1),
            code(KeyCode::Down) => Msg::ScrollTasks(1)],
            "task table: ↑ ↓ scroll; T focuses it (PgUp PgDn, Esc leaves)", "tasks"),
        bind!("t", [ch('t') => Msg::Theme], "dark / light palette", ""),
        bind!("s", [ch('s') => Msg::Snapshot], "save the screen as dirtyviz-trace-<time>.svg here", ""),
        bind!("?", [ch('?') => Msg::Help, code(KeyCode::F(1)) => Msg::Help], "this help (also F1)", "help"),
        bind!("q", [ch('q') => Msg::Quit, ctrl('c') => Msg::Quit, ctrl('d') => Msg::Quit], "quit (also Ctrl-C, Ctrl-D)", "quit"),
        bind!("Ctrl-Z", [ctrl('z') => Msg::Suspend], "suspend (fg brings it back)", ""),
    ],
};

/// The sections the trace dashboard consults in `mode`, first match wins.
pub fn trace_sections(mode: Mode) -> &'static [Section] {
    match mode {
        Mode::Tasks => &[TASKS, TRACE],
        Mode::Help => &[HELP_KEYS],
        _ => &[TRACE],
    }
}

/// The keys a lesson adds.
pub const LESSON: Section = Section {
    title: "lesson",
    bindings: &[
        bind!("n N", [ch('n') => Msg::Lesson(L::NextStep), ch('N') => Msg::Lesson(L::PrevStep)],
            "next step (this one runs out first) / back (replays to it)", "step"),
        bind!("h", [ch('h') => Msg::Lesson(L::Hint)], "show / hide the hint", "hint"),
        bind!("v", [ch('v') => Msg::Lesson(L::Fold)], "fold the step's text to one line (room for charts)", "text"),
        bind!("V", [ch('V') => Msg::Lesson(L::FullText)],
            "the step's text on the whole screen (again, Esc: charts)", "read"),
        bind!("a", [ch('a') => Msg::Lesson(L::Answer)],
            "answer the next unanswered question (type a number, Enter)", "answer"),
        bind!("PgUp PgDn", [code(KeyCode::PageUp) => Msg::Lesson(L::Scroll(true)),
            code(KeyCode::PageDown) => Msg::Lesson(L::Scroll(false))], "scroll the step's text (no lesson open: page the task table)", ""),
        bind!("L", [ch('L') => Msg::Lesson(L::Lessons)], "the lesson list (↑ ↓ 0-9 choose, Enter opens, Esc closes)",
            "lessons"),
    ],
};

/// The keys while the task table has the focus (the dashboard's keys work too).
pub const TASKS: Section = Section {
    title: "task table (after T)",
    bindings: &[
        bind!("↑ ↓", [code(KeyCode::Up) => Msg::ScrollTasks(-1), code(KeyCode::Down) => Msg::ScrollTasks(1)],
            "scroll one task", ""),
        // The way out before the page keys: a narrow hint bar keeps it.
        bind!("Esc T", [code(KeyCode::Esc) => Msg::Back, ch('T') => Msg::FocusTasks], "leave the table", ""),
        bind!("PgUp PgDn", [code(KeyCode::PageUp) => Msg::PageTasks(false),
            code(KeyCode::PageDown) => Msg::PageTasks(true)], "scroll a page", ""),
        // The table's ends: a thousand tasks took seventy PgDn. (On a
        // trace, Home goes to the trace's start while the table is not
        // focused.)
        bind!("Home End", [code(KeyCode::Home) => Msg::TasksEnd(false),
            code(KeyCode::End) => Msg::TasksEnd(true)], "first and last tasks", ""),
    ],
};

/// The keys while the help is open.
pub const HELP_KEYS: Section = Section {
    title: "help",
    bindings: &[
        bind!("↑ ↓", [code(KeyCode::Up) => Msg::ScrollHelp(-1), code(KeyCode::Down) => Msg::ScrollHelp(1)],
            "scroll a line", ""),
        bind!("PgUp PgDn", [code(KeyCode::PageUp) => Msg::PageHelp(false),
            code(KeyCode::PageDown) => Msg::PageHelp(true)], "scroll a page", ""),
        bind!("space", [ch(' ') => Msg::PageHelp(true)], "a page down", ""),
        // 0 too, as the dashboard's 0 Esc line says.
        bind!("Esc ?", [code(KeyCode::Esc) => Msg::Back, ch('0') => Msg::Back, ch('?') => Msg::Help,
            code(KeyCode::F(1)) => Msg::Help], "close the help", ""),
        bind!("q", [ch('q') => Msg::Quit, ctrl('c') => Msg::Quit, ctrl('d') => Msg::Quit], "quit", ""),
        bind!("Ctrl-Z", [ctrl('z') => Msg::Suspend], "suspend", ""),
    ],
};

/// The keys of the lesson list.
pub const PICKER: Section = Section {
    title: "lesson list",
    bindings: &[
        bind!("↑ ↓", [code(KeyCode::Up) => Msg::Lesson(L::Pick(true)), ch('k') => Msg::Lesson(L::Pick(true)),
            code(KeyCode::Down) => Msg::Lesson(L::Pick(false)), ch('j') => Msg::Lesson(L::Pick(false))],
            "choose a lesson (also k j)", ""),
        bind!("0-9", [ch('0') => Msg::Lesson(L::PickDigit('0')), ch('1') => Msg::Lesson(L::PickDigit('1')),
            ch('2') => Msg::Lesson(L::PickDigit('2')), ch('3') => Msg::Lesson(L::PickDigit('3')),
            ch('4') => Msg::Lesson(L::PickDigit('4')), ch('5') => Msg::Lesson(L::PickDigit('5')),
            ch('6') => Msg::Lesson(L::PickDigit('6')), ch('7') => Msg::Lesson(L::PickDigit('7')),
            ch('8') => Msg::Lesson(L::PickDigit('8')), ch('9') => Msg::Lesson(L::PickDigit('9'))],
            "choose by number (1 4: lesson 14)", ""),
        bind!("Enter", [code(KeyCode::Enter) => Msg::Lesson(L::PickOpen)], "open it", ""),
        bind!("Esc L", [code(KeyCode::Esc) => Msg::Back, ch('L') => Msg::Back], "close the list", ""),
        bind!("q", [ch('q') => Msg::Quit, ctrl('c') => Msg::Quit, ctrl('d') => Msg::Quit], "quit", ""),
        bind!("?", [ch('?') => Msg::Help, code(KeyCode::F(1)) => Msg::Help], "help", ""),
        bind!("Ctrl-Z", [ctrl('z') => Msg::Suspend], "suspend", ""),
    ],
};

/// The keys while typing an answer.
pub const TYPING: Section = Section {
    title: "typing an answer",
    bindings: &[
        // How to finish first: a narrow hint bar keeps them.
        bind!("Enter", [code(KeyCode::Enter) => Msg::Lesson(L::InputDone)], "check the answer", ""),
        bind!("Esc", [code(KeyCode::Esc) => Msg::Lesson(L::InputCancel)], "cancel", ""),
        bind!("Tab ↓ / ⇧Tab ↑", [code(KeyCode::Tab) => Msg::Lesson(L::InputOther(true)),
            code(KeyCode::Down) => Msg::Lesson(L::InputOther(true)),
            code(KeyCode::BackTab) => Msg::Lesson(L::InputOther(false)),
            code(KeyCode::Up) => Msg::Lesson(L::InputOther(false))], "answer the next / previous question", ""),
        bind!("0-9 . - e / %", [ch('0') => Msg::Lesson(L::Input('0')), ch('1') => Msg::Lesson(L::Input('1')),
            ch('2') => Msg::Lesson(L::Input('2')), ch('3') => Msg::Lesson(L::Input('3')),
            ch('4') => Msg::Lesson(L::Input('4')), ch('5') => Msg::Lesson(L::Input('5')),
            ch('6') => Msg::Lesson(L::Input('6')), ch('7') => Msg::Lesson(L::Input('7')),
            ch('8') => Msg::Lesson(L::Input('8')), ch('9') => Msg::Lesson(L::Input('9')),
            ch('.') => Msg::Lesson(L::Input('.')), ch('-') => Msg::Lesson(L::Input('-')),
            ch('e') => Msg::Lesson(L::Input('e')), ch('E') => Msg::Lesson(L::Input('E')),
            ch('/') => Msg::Lesson(L::Input('/')), ch('%') => Msg::Lesson(L::Input('%'))],
            "the number (or a fraction, 1/4; a percentage, 21%), its unit after it if you like", ""),
        bind!("Backspace", [code(KeyCode::Backspace) => Msg::Lesson(L::InputBack)], "delete a character", ""),
        bind!("Ctrl-C", [ctrl('c') => Msg::Quit, ctrl('d') => Msg::Quit], "quit", ""),
    ],
};

/// The tables consulted in `mode`, first match wins.
pub fn sections(mode: Mode) -> &'static [Section] {
    match mode {
        Mode::Normal => &[DASHBOARD, LESSON],
        Mode::Tasks => &[TASKS, DASHBOARD, LESSON],
        Mode::Help => &[HELP_KEYS],
        Mode::Typing => &[TYPING],
        Mode::Picker => &[PICKER],
    }
}

/// The sections the help page explains, in order.
pub const HELP: &[Section] = &[DASHBOARD, LESSON, TASKS];

/// The message a key press sends in `mode`, if any.
pub fn message(key: KeyEvent, mode: Mode) -> Option<Msg> {
    lookup(key, sections(mode)).or_else(|| typed(key, mode))
}

/// Any other character typed into an answer (a letter, a decimal comma,
/// a unit): the field keeps it, and Enter judges the whole text (a field
/// that dropped what it did not take judged `2^7` as 27).
fn typed(key: KeyEvent, mode: Mode) -> Option<Msg> {
    let plain = !key.modifiers.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT | KeyModifiers::SUPER);
    match key.code {
        KeyCode::Char(c) if mode == Mode::Typing && key.kind == KeyEventKind::Press && plain => {
            Some(Msg::Lesson(L::Input(c)))
        }
        _ => None,
    }
}

/// The message a key press sends in the trace dashboard in `mode`, if any.
pub fn trace_message(key: KeyEvent, mode: Mode) -> Option<Msg> {
    lookup(key, trace_sections(mode))
}

/// What a key left waiting behind slow ones would do, judged in the mode
/// the dashboard is in now (the dashboards' backlog of keys).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Waiting {
    /// Quits in every mode (Ctrl-C, Ctrl-D).
    QuitsAnywhere,
    /// Quits in this mode (`q`, but not while typing an answer).
    Quits,
    /// May change the mode, so that the keys after it mean something
    /// else (`a` opens an answer, in which `q` is a letter).
    ChangesMode,
    /// Anything else.
    Other,
}

/// How `key`, waiting on `board` while the dashboard is in `mode`, is
/// judged ([`Waiting`]).
pub fn waiting(key: KeyEvent, mode: Mode, board: Board) -> Waiting {
    let message = |m: Mode| match board {
        Board::Simulation => message(key, m),
        Board::Trace => trace_message(key, m),
    };
    const MODES: [Mode; 5] = [Mode::Normal, Mode::Tasks, Mode::Help, Mode::Typing, Mode::Picker];
    if MODES.iter().all(|&m| message(m) == Some(Msg::Quit)) {
        return Waiting::QuitsAnywhere;
    }
    match message(mode) {
        Some(Msg::Quit) => Waiting::Quits,
        // Typing, scrolling and folding keep the mode; any other lesson
        // key may open or close an answer or the lesson list.
        Some(Msg::Lesson(
            L::Input(_)
            | L::InputBack
            | L::InputOther(_)
            | L::Hint
            | L::Fold
            | L::FullText
            | L::Scroll(_)
            | L::Pick(_)
            | L::PickDigit(_),
        )) => Waiting::Other,
        Some(Msg::Back | Msg::Help | Msg::FocusTasks | Msg::Lesson(_)) => Waiting::ChangesMode,
        _ => Waiting::Other,
    }
}

/// Which dashboard a key was pressed on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Board {
    /// The simulation's.
    Simulation,
    /// A kernel trace's (`view`, `live`).
    Trace,
}

/// What a key that does nothing in the help is told by, after its name:
/// on the help's frame, which covers the status line of most terminals.
pub const IN_HELP: &str = " does nothing in the help: Esc or ? closes it";

/// What the status line says of a key that does nothing on `board` in
/// `mode`: on the dashboard (its task table focused or not), that it
/// belongs to the other dashboard, or that it is no key at all; while
/// typing an answer, in the lesson list or the help, what the keys there
/// are. Pressed in class, a key that did nothing without a word left the
/// room guessing whether it was taken (`+` in the help added no dd).
pub fn unbound(key: KeyEvent, mode: Mode, board: Board) -> Option<String> {
    if key.kind != KeyEventKind::Press {
        return None;
    }
    let name = key_name(key)?;
    match mode {
        Mode::Normal | Mode::Tasks => {}
        Mode::Typing if message(key, mode).is_none() => {
            return Some(format!("{name} does nothing while typing an answer: Enter checks it, Esc cancels"));
        }
        Mode::Picker if message(key, mode).is_none() => {
            return Some(format!(
                "{name} does nothing in the lesson list: ↑ ↓ or a number choose, Enter opens, Esc closes"
            ));
        }
        Mode::Help if message(key, mode).is_none() => {
            return Some(format!("{name}{IN_HELP}"));
        }
        Mode::Typing | Mode::Picker | Mode::Help => return None,
    }
    let (other, here) = match board {
        Board::Simulation => (trace_message(key, Mode::Normal), message(key, mode)),
        Board::Trace => (message(key, Mode::Normal), trace_message(key, mode)),
    };
    if here.is_some() {
        return None;
    }
    // A key of the focused task table (Home, End, PgUp, PgDn): T first.
    let in_table = match board {
        Board::Simulation => message(key, Mode::Tasks),
        Board::Trace => trace_message(key, Mode::Tasks),
    };
    if mode == Mode::Normal && in_table.is_some() {
        return Some(format!("{name} scrolls the task table once T focuses it"));
    }
    Some(match (board, other) {
        (Board::Trace, Some(_)) => {
            format!("{name} is a simulation's key: a trace shows what ran (? lists the keys here)")
        }
        (Board::Simulation, Some(_)) => {
            format!("{name} seeks in a kernel's trace (dirtyviz view); here space pauses")
        }
        (_, None) => format!("{name} is not a key here (? lists them)"),
    })
}

/// A key as the help names it; `None` for keys that are not named there
/// (a modifier alone, media keys).
fn key_name(key: KeyEvent) -> Option<String> {
    let name = match key.code {
        KeyCode::Char(' ') => "space".to_string(),
        KeyCode::Char(c) => c.to_string(),
        KeyCode::Enter => "Enter".into(),
        KeyCode::Esc => "Esc".into(),
        KeyCode::Tab => "Tab".into(),
        KeyCode::BackTab => "Shift-Tab".into(),
        KeyCode::Backspace => "Backspace".into(),
        KeyCode::Delete => "Delete".into(),
        KeyCode::Insert => "Insert".into(),
        KeyCode::Left => "←".into(),
        KeyCode::Right => "→".into(),
        KeyCode::Up => "↑".into(),
        KeyCode::Down => "↓".into(),
        KeyCode::Home => "Home".into(),
        KeyCode::End => "End".into(),
        KeyCode::PageUp => "PgUp".into(),
        KeyCode::PageDown => "PgDn".into(),
        KeyCode::F(n) => format!("F{n}"),
        _ => return None,
    };
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let alt = key.modifiers.contains(KeyModifiers::ALT);
    Some(format!("{}{}{name}", if ctrl { "Ctrl-" } else { "" }, if alt { "Alt-" } else { "" }))
}

/// The keys the hint bar always names at its right, `? help` and
/// `q quit`, those of them that do that in `sections`.
pub fn bar_keys(sections: &[Section]) -> Vec<(&'static str, &'static str)> {
    let plain = |c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
    [('?', Msg::Help, ("?", "help")), ('q', Msg::Quit, ("q", "quit"))]
        .into_iter()
        .filter(|&(c, msg, _)| lookup(plain(c), sections) == Some(msg))
        .map(|(_, _, shown)| shown)
        .collect()
}

/// The first binding of `key` in `sections`.
fn lookup(key: KeyEvent, sections: &[Section]) -> Option<Msg> {
    if key.kind != KeyEventKind::Press {
        return None;
    }
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    if key.modifiers.intersects(KeyModifiers::ALT | KeyModifiers::SUPER) {
        return None;
    }
    let wanted = Key { code: key.code, ctrl };
    sections.iter().flat_map(|s| s.bindings).flat_map(|b| b.keys).find(|(k, _)| *k == wanted).map(|&(_, msg)| msg)
}

/// The names [`parse_key`] takes, as errors list them.
pub const KEY_NAMES: &str = "single characters, space, esc, enter, tab, backtab, up, down, pgup, pgdn, left, right, home, end, backspace, delete, insert, f1-f12, ctrl-<character>";

/// A key as `dirtyviz snapshot --keys` names it: one of [`KEY_NAMES`]
/// (`ctrl-C` for any single character C).
pub fn parse_key(name: &str) -> Option<KeyEvent> {
    let plain = |c| KeyEvent::new(c, KeyModifiers::NONE);
    // A name in any case, as the help writes it (PgDn, Esc); a single
    // character as it is (n and N are other keys).
    let lower = name.to_ascii_lowercase();
    let name = if name.chars().count() > 1 { lower.as_str() } else { name };
    let code = match name {
        "space" => KeyCode::Char(' '),
        "esc" => KeyCode::Esc,
        "enter" => KeyCode::Enter,
        "tab" => KeyCode::Tab,
        "backtab" => KeyCode::BackTab,
        "up" => KeyCode::Up,
        "down" => KeyCode::Down,
        "pgup" => KeyCode::PageUp,
        "pgdn" => KeyCode::PageDown,
        "backspace" => KeyCode::Backspace,
        "left" => KeyCode::Left,
        "right" => KeyCode::Right,
        "home" => KeyCode::Home,
        "end" => KeyCode::End,
        "delete" => KeyCode::Delete,
        "insert" => KeyCode::Insert,
        _ => {
            if let Some(c) = name.strip_prefix("ctrl-").and_then(single_char) {
                return Some(KeyEvent::new(KeyCode::Char(c.to_ascii_lowercase()), KeyModifiers::CONTROL));
            }
            match name.strip_prefix('f').map(str::parse::<u8>) {
                Some(Ok(n @ 1..=12)) => KeyCode::F(n),
                _ => KeyCode::Char(single_char(name)?),
            }
        }
    };
    Some(plain(code))
}

fn single_char(s: &str) -> Option<char> {
    let mut chars = s.chars();
    let c = chars.next()?;
    chars.next().is_none().then_some(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(c: char, mode: Mode) -> Option<Msg> {
        message(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE), mode)
    }

    #[test]
    fn a_waiting_quit_key_is_judged_by_what_may_come_before_it() {
        let key = |c: char, m: KeyModifiers| KeyEvent::new(KeyCode::Char(c), m);
        let none = KeyModifiers::NONE;
        for board in [Board::Simulation, Board::Trace] {
            for mode in [Mode::Normal, Mode::Typing, Mode::Picker, Mode::Help, Mode::Tasks] {
                assert_eq!(waiting(key('c', KeyModifiers::CONTROL), mode, board), Waiting::QuitsAnywhere);
                assert_eq!(waiting(key('d', KeyModifiers::CONTROL), mode, board), Waiting::QuitsAnywhere);
            }
            assert_eq!(waiting(key('?', none), Mode::Normal, board), Waiting::ChangesMode);
            assert_eq!(waiting(key('T', none), Mode::Normal, board), Waiting::ChangesMode);
        }
        let sim = Board::Simulation;
        assert_eq!(waiting(key('q', none), Mode::Normal, sim), Waiting::Quits);
        assert_eq!(waiting(key('q', none), Mode::Normal, Board::Trace), Waiting::QuitsAnywhere, "nothing typed there");
        assert_eq!(waiting(key('q', none), Mode::Typing, sim), Waiting::Other, "a letter of the answer");
        assert_eq!(waiting(key('a', none), Mode::Normal, sim), Waiting::ChangesMode, "opens an answer");
        assert_eq!(waiting(key('L', none), Mode::Normal, sim), Waiting::ChangesMode, "opens the lesson list");
        assert_eq!(waiting(key('c', none), Mode::Normal, sim), Waiting::Other);
    }

    #[test]
    fn no_key_means_two_things_in_one_mode() {
        for mode in [Mode::Normal, Mode::Tasks, Mode::Help, Mode::Typing, Mode::Picker] {
            for (i, s) in sections(mode).iter().enumerate() {
                let mut seen: Vec<Key> = Vec::new();
                for (key, msg) in s.bindings.iter().flat_map(|b| b.keys) {
                    assert!(!seen.contains(key), "{mode:?}: {key:?} is bound twice in {}", s.title);
                    seen.push(*key);
                    // The first section that binds a key wins: a later one
                    // binding it again would be dead.
                    let first = sections(mode)[..i].iter().flat_map(|s| s.bindings).flat_map(|b| b.keys);
                    let shadowed = first.clone().any(|(k, _)| k == key);
                    if !shadowed {
                        let event =
                            KeyEvent::new(key.code, if key.ctrl { KeyModifiers::CONTROL } else { KeyModifiers::NONE });
                        assert_eq!(message(event, mode), Some(*msg), "{mode:?}: {key:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn keys_send_what_the_help_says() {
        assert_eq!(press('D', Mode::Normal), Some(Msg::DirtyRatio(1)));
        assert_eq!(press('x', Mode::Normal), None);
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(message(ctrl_c, Mode::Normal), Some(Msg::Quit));
        assert_eq!(message(ctrl_c, Mode::Typing), Some(Msg::Quit));
        let ctrl_z = KeyEvent::new(KeyCode::Char('z'), KeyModifiers::CONTROL);
        assert_eq!(message(ctrl_z, Mode::Normal), Some(Msg::Suspend));
        assert_eq!(press('z', Mode::Normal), None, "z alone does nothing");
        let alt_q = KeyEvent::new(KeyCode::Char('q'), KeyModifiers::ALT);
        assert_eq!(message(alt_q, Mode::Normal), None);
    }

    #[test]
    fn every_key_the_help_says_closes_it_closes_it() {
        for section in [DASHBOARD, TRACE] {
            let line = section.bindings.iter().find(|b| b.help.contains("close the help")).expect("a closing line");
            for (key, _) in line.keys {
                let event = KeyEvent::new(key.code, KeyModifiers::NONE);
                assert_eq!(message(event, Mode::Help), Some(Msg::Back), "{}: {key:?}", section.title);
                assert_eq!(trace_message(event, Mode::Help), Some(Msg::Back), "{}: {key:?}", section.title);
            }
        }
    }

    #[test]
    fn typing_takes_numbers_and_picking_takes_arrows() {
        let key = |c: KeyCode, m: Mode| message(KeyEvent::new(c, KeyModifiers::NONE), m);
        // q does not quit: the answer says it is not part of a number.
        assert_eq!(key(KeyCode::Char('q'), Mode::Typing), Some(Msg::Lesson(L::Input('q'))));
        assert_eq!(key(KeyCode::Char(','), Mode::Typing), Some(Msg::Lesson(L::Input(','))), "a decimal comma");
        assert_eq!(key(KeyCode::Char(','), Mode::Normal), None);
        assert_eq!(key(KeyCode::Char('7'), Mode::Typing), Some(Msg::Lesson(L::Input('7'))));
        assert_eq!(key(KeyCode::Enter, Mode::Typing), Some(Msg::Lesson(L::InputDone)));
        assert_eq!(key(KeyCode::Esc, Mode::Typing), Some(Msg::Lesson(L::InputCancel)));
        assert_eq!(key(KeyCode::Down, Mode::Picker), Some(Msg::Lesson(L::Pick(false))));
        assert_eq!(key(KeyCode::Enter, Mode::Picker), Some(Msg::Lesson(L::PickOpen)));
        assert_eq!(key(KeyCode::Char('+'), Mode::Picker), None);
    }

    #[test]
    fn pages_scroll_the_lesson_text_unless_the_task_table_has_the_focus() {
        let key = |c: KeyCode, m: Mode| message(KeyEvent::new(c, KeyModifiers::NONE), m);
        assert_eq!(key(KeyCode::PageDown, Mode::Normal), Some(Msg::Lesson(L::Scroll(false))));
        assert_eq!(key(KeyCode::PageDown, Mode::Tasks), Some(Msg::PageTasks(true)));
        assert_eq!(key(KeyCode::End, Mode::Tasks), Some(Msg::TasksEnd(true)));
        let end = KeyEvent::new(KeyCode::End, KeyModifiers::NONE);
        let said = unbound(end, Mode::Normal, Board::Simulation);
        assert_eq!(said.as_deref(), Some("End scrolls the task table once T focuses it"));
        // On a trace it seeks to the end, as Home to the start.
        assert_eq!(trace_message(end, Mode::Normal), Some(Msg::Seek(i16::MAX)));
        assert_eq!(trace_message(end, Mode::Tasks), Some(Msg::TasksEnd(true)));
        assert_eq!(key(KeyCode::Char('+'), Mode::Tasks), Some(Msg::AddDd), "the dashboard's keys still work");
        assert_eq!(key(KeyCode::Esc, Mode::Tasks), Some(Msg::Back));
    }

    #[test]
    fn the_bar_names_help_and_quit_only_where_they_work() {
        assert_eq!(bar_keys(sections(Mode::Normal)), vec![("?", "help"), ("q", "quit")]);
        assert_eq!(bar_keys(sections(Mode::Picker)), vec![("?", "help"), ("q", "quit")]);
        assert_eq!(bar_keys(sections(Mode::Typing)), vec![], "q and ? type nothing and do nothing");
        assert_eq!(bar_keys(trace_sections(Mode::Normal)), vec![("?", "help"), ("q", "quit")]);
    }

    #[test]
    fn a_key_that_does_nothing_says_so() {
        let key = |name: &str| parse_key(name).expect("a key");
        let sim = |name: &str| unbound(key(name), Mode::Normal, Board::Simulation);
        let trace = |name: &str| unbound(key(name), Mode::Normal, Board::Trace);
        assert_eq!(sim("+"), None, "bound");
        assert_eq!(trace("left"), None, "bound");
        assert_eq!(sim("left").as_deref(), Some("← seeks in a kernel's trace (dirtyviz view); here space pauses"));
        assert_eq!(
            trace("D").as_deref(),
            Some("D is a simulation's key: a trace shows what ran (? lists the keys here)")
        );
        assert_eq!(sim("6").as_deref(), Some("6 is not a key here (? lists them)"));
        assert_eq!(sim("ctrl-x").as_deref(), Some("Ctrl-x is not a key here (? lists them)"));
        assert_eq!(trace("enter").as_deref(), Some("Enter is not a key here (? lists them)"));
        // Where keys are typed or pick from a list, nothing.
        assert_eq!(
            unbound(key("6"), Mode::Tasks, Board::Simulation).as_deref(),
            Some("6 is not a key here (? lists them)")
        );
        assert_eq!(unbound(key("down"), Mode::Tasks, Board::Trace), None, "scrolls the table");
        assert_eq!(
            unbound(key("+"), Mode::Help, Board::Simulation).as_deref(),
            Some("+ does nothing in the help: Esc or ? closes it")
        );
        assert_eq!(unbound(key("down"), Mode::Help, Board::Simulation), None, "scrolls the help");
        assert_eq!(unbound(key("x"), Mode::Typing, Board::Simulation), None, "typed: the field says");
        // Typing and the lesson list say what their keys are.
        assert_eq!(
            unbound(key("f2"), Mode::Typing, Board::Simulation).as_deref(),
            Some("F2 does nothing while typing an answer: Enter checks it, Esc cancels")
        );
        assert_eq!(
            unbound(key("left"), Mode::Picker, Board::Simulation).as_deref(),
            Some("← does nothing in the lesson list: ↑ ↓ or a number choose, Enter opens, Esc closes")
        );
        assert_eq!(unbound(key("j"), Mode::Picker, Board::Simulation), None, "moves down the list");
    }

    #[test]
    fn key_names_take_the_function_keys_and_nothing_past_f12() {
        assert_eq!(parse_key("F2").map(|k| k.code), Some(KeyCode::F(2)));
        assert_eq!(parse_key("f12").map(|k| k.code), Some(KeyCode::F(12)));
        assert_eq!(parse_key("end").map(|k| k.code), Some(KeyCode::End));
        assert_eq!(parse_key("f13"), None);
        assert_eq!(parse_key("f0"), None);
        assert_eq!(parse_key("f").map(|k| k.code), Some(KeyCode::Char('f')));
    }

    #[test]
    fn snapshot_key_names_parse() {
        assert_eq!(parse_key("space").map(|k| k.code), Some(KeyCode::Char(' ')));
        assert_eq!(parse_key("pgdn").map(|k| k.code), Some(KeyCode::PageDown));
        assert_eq!(parse_key("]").map(|k| k.code), Some(KeyCode::Char(']')));
        assert_eq!(parse_key("ctrl-c").map(|k| k.modifiers), Some(KeyModifiers::CONTROL));
        // Every name the errors list is taken.
        let named =
            KEY_NAMES.split(", ").skip(1).map(|n| n.replace("ctrl-<character>", "ctrl-x").replace("f1-f12", "f7"));
        for n in named {
            assert!(parse_key(&n).is_some(), "{n}");
        }
        assert_eq!(parse_key("xy"), None);
        assert_eq!(parse_key(""), None);
    }
}
