//! The crate's one error type: what went wrong, as one line a user can act
//! on (`path:line:col: what was expected`), and the exit code it maps to.

use std::fmt;
use std::path::{Path, PathBuf};

/// Exit code for bad input: a usage error, an unreadable, invalid or
/// unwritable file, not enough memory for what was asked.
pub const EXIT_BAD_INPUT: u8 = 2;

/// Exit code when the terminal cannot be driven (none there, or it
/// failed): an I/O error, as for a file.
pub const EXIT_TERMINAL: u8 = 2;

/// Exit code of a bug: an internal error, as a panic ends a Rust program.
pub const EXIT_BUG: u8 = 101;

/// Anything that stops dirtyviz from doing what it was asked.
///
/// Every variant but [`Error::Bug`] is about what the user gave or the
/// system dirtyviz runs on (a file, the memory, the terminal, a signal):
/// it is told in one line, with the exit code [`Error::exit_code`] gives,
/// without a backtrace. [`Error::Bug`] is dirtyviz's own fault: it gets
/// color-eyre's report with the crash note ([`crate::crash`]).
#[derive(Debug)]
pub enum Error {
    /// Something the user gave is wrong: an option, a name, the content of
    /// a file (`path:line:col: what was expected`), a world that cannot be
    /// built.
    Invalid(String),
    /// A file could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// What was being done, e.g. "cannot read".
        doing: &'static str,
        /// Why it failed.
        source: std::io::Error,
    },
    /// There is not enough memory for what was asked.
    OutOfMemory {
        /// What needed it, e.g. "10000 tasks".
        what: String,
        /// About how much it needed \[bytes\].
        bytes: u64,
    },
    /// The terminal could not be set up or drawn to.
    Terminal(std::io::Error),
    /// A signal (Ctrl-C) stopped the run; the number is the signal's.
    Interrupted(i32),
    /// The reader of an output pipe went away (`--csv /dev/stdout | head
    /// -1`): the command stops at once and quietly, as a reader that
    /// stops reading asks, exit 0; no other output replaces its file.
    ReaderGone,
    /// dirtyviz broke one of its own invariants: a bug, whatever the input.
    Bug {
        /// What should have held and did not.
        what: String,
        /// Where in dirtyviz's source it was found.
        at: &'static std::panic::Location<'static>,
    },
}

/// Results of anything in dirtyviz.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// Bad input, described by `what`.
    pub fn invalid(what: impl Into<String>) -> Error {
        Error::Invalid(what.into())
    }

    /// A broken internal invariant, described by `what`, found where this
    /// is called.
    #[track_caller]
    pub fn bug(what: impl Into<String>) -> Error {
        Error::Bug { what: what.into(), at: std::panic::Location::caller() }
    }

    /// Whether this error is dirtyviz's own fault, not the user's.
    pub fn is_bug(&self) -> bool {
        matches!(self, Error::Bug { .. })
    }

    /// For `map_err`: an I/O failure on `path` while doing `doing`.
    pub fn io<'a>(path: &'a Path, doing: &'static str) -> impl FnOnce(std::io::Error) -> Error + 'a {
        move |source| Error::Io { path: path.to_path_buf(), doing, source }
    }

    /// The same error with `prefix: ` before its message (an origin, a
    /// step); I/O errors already name their file and stay as they are.
    pub fn context(self, prefix: impl fmt::Display) -> Error {
        match self {
            Error::Invalid(what) => Error::Invalid(format!("{prefix}: {what}")),
            other => other,
        }
    }

    /// The process exit code this error ends dirtyviz with.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Terminal(_) => EXIT_TERMINAL,
            // As a shell reports a process a signal ended.
            Error::Interrupted(signal) => (128 + signal).clamp(0, 255) as u8,
            Error::Bug { .. } => EXIT_BUG,
            Error::ReaderGone => 0,
            _ => EXIT_BAD_INPUT,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Invalid(what) => f.write_str(what),
            Error::Io { path, doing, source } => write!(f, "{}: {doing}: {}", path.display(), io_reason(source)),
            Error::OutOfMemory { what, bytes } => {
                write!(f, "not enough memory for {what} (needs about {} MiB)", bytes.div_ceil(1 << 20))
            }
            Error::Terminal(e) => write!(f, "terminal: {}", io_reason(e)),
            Error::Interrupted(_) => {
                f.write_str("interrupted: no output file was saved, existing files are as they were")
            }
            Error::ReaderGone => f.write_str("an output's reader went away"),
            Error::Bug { what, at } => write!(f, "internal error at {}:{}: {what}", at.file(), at.line()),
        }
    }
}

/// An I/O error's reason without the "(os error N)" tail.
pub fn io_reason(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error ") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } | Error::Terminal(source) => Some(source),
            _ => None,
        }
    }
}

impl From<crate::sim::ConfigError> for Error {
    fn from(e: crate::sim::ConfigError) -> Error {
        Error::Invalid(e.0)
    }
}

impl From<String> for Error {
    fn from(what: String) -> Error {
        Error::Invalid(what)
    }
}

impl From<&str> for Error {
    fn from(what: &str) -> Error {
        Error::Invalid(what.to_string())
    }
}

/// Writes `text` and a line feed on stderr, or nothing if stderr cannot
/// take it (a terminal that hung up, a closed pipe): `eprintln!` would
/// panic there, and a panic while reporting one aborts.
pub fn say(text: std::fmt::Arguments) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "{text}");
}

/// A character that takes no room or moves the text around it without
/// being seen: a control character, one of Unicode's default-ignorable
/// code points (zero-width space, the word joiner, the byte-order mark,
/// a soft hyphen, variation selectors, fillers, tags), a line or
/// paragraph separator, or a bidirectional mark, embedding, override or
/// isolate. The zero-width joiner and non-joiner are not: Persian and
/// Indic names are spelt with them.
pub fn unseen(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{ad}'
                | '\u{34f}'
                | '\u{61c}'
                | '\u{115f}'..='\u{1160}'
                | '\u{17b4}'..='\u{17b5}'
                | '\u{180b}'..='\u{180f}'
                | '\u{200b}'
                | '\u{200e}'..='\u{200f}'
                | '\u{2028}'..='\u{202e}'
                | '\u{2060}'..='\u{206f}'
                | '\u{3164}'
                | '\u{fe00}'..='\u{fe0f}'
                | '\u{feff}'
                | '\u{ffa0}'
                | '\u{fff0}'..='\u{fffb}'
                | '\u{1bca0}'..='\u{1bca3}'
                | '\u{1d173}'..='\u{1d17a}'
                | '\u{e0000}'..='\u{e0fff}'
        )
}

/// `text` with control characters (terminal escapes, newlines) and the
/// other [`unseen`] ones shown as escapes, so that a name or path never
/// acts on the terminal it is printed to, nor hides in it.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(unseen) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unseen(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// The most names [`did_you_mean`] offers at once.
const MAX_OFFERED: usize = 3;

/// `; did you mean `NAME`?` for the name of `names` nearest to `given`
/// (by edit distance, case aside), when one is near enough to be a slip:
/// at most a third of its letters apart; up to three (`MAX_OFFERED`) names
/// equally near are all offered (`Sdd`: `Hdd` or `Ssd`), more are no
/// guess (lesson `17`: eight ids one digit away). Empty otherwise.
pub fn did_you_mean<'a>(given: &str, names: impl IntoIterator<Item = &'a str>) -> String {
    let given = given.to_lowercase();
    let near: Vec<(usize, &str)> = names
        .into_iter()
        .map(|name| (edit_distance(&given, &name.to_lowercase()), name))
        .filter(|(d, name)| *d <= (name.chars().count() / 3).max(1))
        .collect();
    let Some(best) = near.iter().map(|(d, _)| *d).min() else { return String::new() };
    let names: Vec<String> = near.iter().filter(|(d, _)| *d == best).map(|(_, name)| format!("`{name}`")).collect();
    if names.len() > MAX_OFFERED {
        return String::new();
    }
    let (last, rest) = names.split_last().expect("one at least");
    let names = if rest.is_empty() { last.clone() } else { format!("{} or {last}", rest.join(", ")) };
    format!("; did you mean {names}?")
}

/// Edit distance with adjacent swaps (optimal string alignment): the
/// insertions, deletions, substitutions and swaps of two neighbouring
/// characters that make `a` into `b`, so `nsf` is one slip from `nfs`.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut before: Vec<usize> = Vec::new();
    let mut last: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut row = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let substituted = last[j - 1] + usize::from(a[i - 1] != b[j - 1]);
            row[j] = substituted.min(last[j] + 1).min(row[j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                row[j] = row[j].min(before[j - 2] + 1);
            }
        }
        before = std::mem::replace(&mut last, row);
    }
    last[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn io_errors_name_the_file_without_the_os_error_number() {
        let e = Error::io(Path::new("t.jsonl"), "cannot write")(std::io::Error::from_raw_os_error(28));
        assert_eq!(e.to_string(), "t.jsonl: cannot write: No space left on device");
        assert_eq!(e.exit_code(), EXIT_BAD_INPUT);
    }

    #[test]
    fn out_of_memory_says_how_much() {
        let e = Error::OutOfMemory { what: "10000 tasks".into(), bytes: 3 << 20 };
        assert_eq!(e.to_string(), "not enough memory for 10000 tasks (needs about 3 MiB)");
    }

    #[test]
    fn only_a_bug_is_reported_as_one_and_it_says_where() {
        let line = line!() + 1;
        let e = Error::bug("a page went missing");
        assert!(e.is_bug());
        assert_eq!(e.to_string(), format!("internal error at src/error.rs:{line}: a page went missing"));
        assert_eq!(e.exit_code(), EXIT_BUG);
        for user in [
            Error::invalid("x"),
            Error::Terminal(std::io::Error::from_raw_os_error(25)),
            Error::Interrupted(2),
            Error::OutOfMemory { what: "x".into(), bytes: 1 },
        ] {
            assert!(!user.is_bug(), "{user}");
        }
    }

    #[test]
    fn near_names_are_suggested() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("hdd-7dd", "hdd-10dd"), 2);
        let presets = ["default", "hdd-10dd", "hdd-100dd", "ssd-10dd"];
        assert_eq!(did_you_mean("hdd-10d", presets), "; did you mean `hdd-10dd`?");
        assert_eq!(did_you_mean("HDD-100DD", presets), "; did you mean `hdd-100dd`?");
        assert_eq!(did_you_mean("defualt", presets), "; did you mean `default`?");
        assert_eq!(edit_distance("defualt", "default"), 1);
        assert_eq!(edit_distance("ab", "ba"), 1);
        assert_eq!(edit_distance("ca", "abc"), 3);
        assert_eq!(did_you_mean("nsf", ["nfs", "ssd"]), "; did you mean `nfs`?");
        assert_eq!(did_you_mean("JOBD", ["JBOD", "RAID0"]), "; did you mean `JBOD`?");
        assert_eq!(did_you_mean("nvme", presets), "");
        assert_eq!(did_you_mean("3", ["03", "04"]), "; did you mean `03`?");
        // Names as near as each other are all offered.
        assert_eq!(did_you_mean("Sdd", ["Hdd", "Ssd", "UsbKey"]), "; did you mean `Hdd` or `Ssd`?");
        // Too many as near are no guess.
        let ids = ["00", "01", "07", "10", "11", "12", "13", "14", "15", "16"];
        assert_eq!(did_you_mean("17", ids), "");
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(printable("sda"), "sda");
        assert_eq!(printable("a\u{1b}]0;x\u{7}b\n"), "a\\u{1b}]0;x\\u{7}b\\n");
        assert_eq!(Error::invalid("x").context("s.ron").to_string(), "s.ron: x");
    }
}
