//! Reading the files a user hands dirtyviz (scenarios, lessons,
//! recordings): regular files only, read up to a size cap, so that a FIFO,
//! a device or a huge file is a one-line error instead of a hang or an
//! exhausted memory.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use crate::error::{Error, Result};

/// Largest scenario or lesson file \[bytes\].
pub const MAX_RON_BYTES: u64 = 16 << 20;

/// Largest recording \[bytes\].
pub const MAX_RECORDING_BYTES: u64 = 1 << 30;

/// What a path that is not a regular file is.
fn file_type_name(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

/// Opens `path` (a `what`: "scenario", "lesson", "recording") for
/// reading if it is a regular file of at most `cap` bytes. The type is
/// checked before opening, so that opening a FIFO cannot block.
pub fn open(path: &Path, what: &str, cap: u64) -> Result<File> {
    let meta = std::fs::metadata(path).map_err(|e| match link_end(path) {
        // A link whose file is not there: where it leads, not "no such file".
        Some(end) if e.kind() == std::io::ErrorKind::NotFound => Error::invalid(format!(
            "{}: cannot read {what}: a symbolic link that leads to {}, which does not exist",
            path.display(),
            end.display()
        )),
        _ => Error::io(path, "cannot read")(e),
    })?;
    if !meta.is_file() {
        return Err(Error::invalid(format!(
            "{}: cannot read {what}: {}, not a regular file",
            path.display(),
            file_type_name(&meta)
        )));
    }
    if meta.len() > cap {
        return Err(too_big(path, what, cap));
    }
    File::open(path).map_err(Error::io(path, "cannot read"))
}

/// Where the symbolic links from `path` lead: the first path along them
/// that is not there (each link's target taken from its own directory);
/// `None` when `path` is no link, or its links go round.
fn link_end(path: &Path) -> Option<std::path::PathBuf> {
    let mut at = path.to_path_buf();
    for _ in 0..40 {
        let to = std::fs::read_link(&at).ok()?;
        let next = at.parent().map_or(to.clone(), |dir| dir.join(&to));
        if std::fs::symlink_metadata(&next).is_err() {
            return Some(next);
        }
        at = next;
    }
    None
}

fn too_big(path: &Path, what: &str, cap: u64) -> Error {
    Error::invalid(format!("{}: a {what} file may be at most {} MiB, this one is larger", path.display(), cap >> 20))
}

/// Reads a text file (a scenario or lesson) of at most `cap` bytes,
/// without a leading byte-order mark, its Windows line ends (CRLF) made
/// line feeds: a file saved on Windows reads as its Unix twin, with the
/// same lines and columns, and its strings hold no carriage return.
pub fn read_text(path: &Path, what: &str, cap: u64) -> Result<String> {
    let file = open(path, what, cap)?;
    let mut bytes = Vec::new();
    // The file may have grown since it was measured.
    file.take(cap + 1).read_to_end(&mut bytes).map_err(Error::io(path, "cannot read"))?;
    if bytes.len() as u64 > cap {
        return Err(too_big(path, what, cap));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        let (line, col) = line_col(e.as_bytes(), e.utf8_error().valid_up_to());
        Error::invalid(format!("{}:{line}:{col}: not UTF-8 text", path.display()))
    })?;
    let text = without_bom(&text);
    Ok(if text.contains("\r\n") { text.replace("\r\n", "\n") } else { text.to_string() })
}

/// The 1-based line and column of byte `at` of `bytes`, whose bytes
/// before it are UTF-8: the column counts characters, as RON's
/// `path:line:col` do, after a byte-order mark on the first line.
pub fn line_col(bytes: &[u8], at: usize) -> (usize, usize) {
    let before = String::from_utf8_lossy(&bytes[..at.min(bytes.len())]);
    let before = without_bom(&before);
    crate::scenario::locate::line_col(before, before.len())
}

/// `text` without a leading UTF-8 byte-order mark.
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// Reads lines of at most a given length from a reader of at most a
/// given size: a file without line breaks cannot fill memory.
pub struct Lines<R> {
    reader: BufReader<std::io::Take<R>>,
    buf: Vec<u8>,
    /// Line number of the last line read (1-based).
    pub number: usize,
    /// The last line read had its line end: the file did not end within it.
    pub ended: bool,
    /// The last line read is the file's last, which ends inside a
    /// character: it was read up to the last whole one.
    pub cut_in_char: bool,
}

impl<R: Read> Lines<R> {
    /// Lines of `reader`, which is read up to `cap` bytes.
    pub fn new(reader: R, cap: u64) -> Lines<R> {
        Lines {
            reader: BufReader::with_capacity(1 << 16, reader.take(cap)),
            buf: Vec::new(),
            number: 0,
            ended: false,
            cut_in_char: false,
        }
    }

    /// The next line without its line break, or `None` at the end. Errs
    /// when the line is longer than `max` bytes, is not UTF-8, or cannot
    /// be read. A file's last line that ends inside a character (cut as it
    /// was written) is read up to the last whole one, and `cut_in_char`
    /// says so: the reader decides whether a cut line is one.
    pub fn next_line(&mut self, max: usize) -> std::result::Result<Option<&str>, LineError> {
        self.buf.clear();
        self.number += 1;
        let mut limited = (&mut self.reader).take(max as u64 + 1);
        limited.read_until(b'\n', &mut self.buf).map_err(|e| LineError::Io(e.to_string()))?;
        if self.buf.is_empty() {
            return Ok(None);
        }
        self.ended = self.buf.last() == Some(&b'\n');
        if self.ended {
            self.buf.pop();
        } else if self.buf.len() > max {
            return Err(LineError::TooLong { max });
        }
        self.cut_in_char = false;
        match std::str::from_utf8(&self.buf) {
            Ok(line) => Ok(Some(line)),
            Err(e) if !self.ended && e.error_len().is_none() => {
                self.cut_in_char = true;
                Ok(Some(std::str::from_utf8(&self.buf[..e.valid_up_to()]).expect("valid up to there")))
            }
            Err(e) => Err(LineError::NotUtf8 { col: line_col(&self.buf, e.valid_up_to()).1 }),
        }
    }
}

/// Why [`Lines::next_line`] read no line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    /// Longer than `max` bytes.
    TooLong { max: usize },
    /// Not UTF-8 from column `col` on (1-based, in characters).
    NotUtf8 { col: usize },
    /// The reader failed, as the system said.
    Io(String),
}

impl LineError {
    /// The error at line `line` of `path`: `path:line:col: not UTF-8
    /// text` where it has a column, else `path:line: what`.
    pub fn at(&self, path: &Path, line: usize) -> Error {
        let place = match self {
            LineError::NotUtf8 { col } => format!("{}:{line}:{col}:", path.display()),
            LineError::TooLong { .. } | LineError::Io(_) => format!("{}:{line}:", path.display()),
        };
        Error::invalid(format!("{place} {self}"))
    }
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LineError::TooLong { max } => write!(f, "a line longer than {max} bytes"),
            LineError::NotUtf8 { .. } => f.write_str("not UTF-8 text"),
            LineError::Io(why) => f.write_str(why),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scratch::Scratch;

    #[test]
    fn lines_are_bounded() {
        let mut lines = Lines::new(&b"one\ntwo\n0123456789"[..], 1 << 20);
        assert_eq!(lines.next_line(5), Ok(Some("one")));
        assert_eq!(lines.next_line(5), Ok(Some("two")));
        assert_eq!(lines.next_line(5), Err(LineError::TooLong { max: 5 }));
        let mut lines = Lines::new(&b"ok\n\xc3\xa9t\xff\n"[..], 1 << 20);
        assert_eq!(lines.next_line(5), Ok(Some("ok")));
        let e = lines.next_line(5).unwrap_err();
        assert_eq!(e, LineError::NotUtf8 { col: 3 });
        assert_eq!(e.at(Path::new("r.jsonl"), 2).to_string(), "r.jsonl:2:3: not UTF-8 text");
        let e = LineError::TooLong { max: 5 }.at(Path::new("r.jsonl"), 7);
        assert_eq!(e.to_string(), "r.jsonl:7: a line longer than 5 bytes");
        let mut lines = Lines::new(&b"last"[..], 1 << 20);
        assert_eq!(lines.next_line(5), Ok(Some("last")));
        assert_eq!(lines.next_line(5), Ok(None));
    }

    #[test]
    fn a_place_is_a_line_and_a_column_in_characters() {
        assert_eq!(line_col(b"Scenario(name: \"\xff", 16), (1, 17));
        assert_eq!(line_col(b"ab\ncd\xff", 5), (2, 3));
        assert_eq!(line_col(b"\xef\xbb\xbf\xc3\xa9\r\n\xc3\xb1x\xff", 10), (2, 3));
        assert_eq!(line_col(b"\xff", 0), (1, 1));
    }

    #[test]
    fn bytes_that_are_not_utf8_are_refused_at_their_place() {
        let dir = Scratch::new("input-utf8");
        let path = dir.join("s.ron");
        std::fs::write(&path, b"Scenario(\n  name: \"\xff\xfe\")").expect("write");
        let e = read_text(&path, "scenario", MAX_RON_BYTES).unwrap_err();
        assert_eq!(e.to_string(), format!("{}:2:10: not UTF-8 text", path.display()));
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        assert_eq!(without_bom("\u{feff}Scenario()"), "Scenario()");
        assert_eq!(without_bom("Scenario()"), "Scenario()");
    }

    #[test]
    fn windows_line_ends_are_line_feeds() {
        let dir = Scratch::new("input-crlf");
        let path = dir.join("lesson.ron");
        std::fs::write(&path, "\u{feff}a\r\n\"b\r\nc\"\r\nlone\rcr\n").expect("write");
        let text = read_text(&path, "lesson", MAX_RON_BYTES);
        assert_eq!(text.expect("read"), "a\n\"b\nc\"\nlone\rcr\n");
    }

    #[test]
    fn only_regular_files_are_read() {
        let e = read_text(Path::new("/dev/zero"), "scenario", MAX_RON_BYTES).unwrap_err();
        assert_eq!(e.to_string(), "/dev/zero: cannot read scenario: a character device, not a regular file");
        let e = read_text(Path::new("/"), "lesson", MAX_RON_BYTES).unwrap_err();
        assert!(e.to_string().contains("a directory, not a regular file"), "{e}");
    }
}
