//! Finds where a field's value is written in RON text, so that a mistake
//! found after parsing (a task on a bdi no device makes, a device named
//! twice) is told at `path:line:col` of the value, as a mistake found while
//! parsing is.
//!
//! The walk reads just enough RON to step over values: comments, strings
//! (raw ones too), characters, numbers, identifiers and the brackets that
//! nest them. Named structs and variants (`Scenario(...)`, `Dd(...)`) are
//! entered by their fields; a wrapper with one value (`Some(...)`,
//! `Inline(...)`) is looked through.

use std::fmt;

/// One step down into a value: a struct's field or a list's element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seg {
    /// The field of this name.
    Field(&'static str),
    /// The element at this index (from 0).
    Index(usize),
}

/// Where a value is in a scenario: `tasks[1].bdi` is `[Field("tasks"),
/// Index(1), Field("bdi")]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FieldPath(pub Vec<Seg>);

impl FieldPath {
    /// The path to the top-level field `name`.
    pub fn field(name: &'static str) -> FieldPath {
        FieldPath(vec![Seg::Field(name)])
    }

    /// The path to `list[index]`, or to `list[index].field` when given.
    pub fn element(list: &'static str, index: usize, field: Option<&'static str>) -> FieldPath {
        let mut path = vec![Seg::Field(list), Seg::Index(index)];
        path.extend(field.map(Seg::Field));
        FieldPath(path)
    }

    /// This path under `outer` (a lesson's `scenario`).
    pub fn under(&self, outer: &[Seg]) -> FieldPath {
        FieldPath(outer.iter().chain(&self.0).copied().collect())
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, seg) in self.0.iter().enumerate() {
            match seg {
                Seg::Field(name) if i == 0 => f.write_str(name)?,
                Seg::Field(name) => write!(f, ".{name}")?,
                Seg::Index(k) => write!(f, "[{k}]")?,
            }
        }
        Ok(())
    }
}

/// Line and column (1-based, columns in characters) of the value at
/// `path` in `text`. When the text leaves that field out (it takes its
/// default), the place of the nearest value around it that the text
/// writes; `None` when the text is not RON this walk can read.
pub fn locate(text: &str, path: &FieldPath) -> Option<(usize, usize)> {
    let mut w = Walker { text, at: 0 };
    w.blank();
    let (found, _) = w.find(&path.0)?;
    Some(line_col(text, found))
}

/// [`locate`], but `None` when the text leaves the field out.
pub fn written(text: &str, path: &FieldPath) -> Option<(usize, usize)> {
    let mut w = Walker { text, at: 0 };
    w.blank();
    match w.find(&path.0)? {
        (found, true) => Some(line_col(text, found)),
        (_, false) => None,
    }
}

/// Line and column (1-based, columns in characters) just after the value
/// at `path`; `None` when the text leaves it out or it does not end (an
/// unclosed bracket or string).
pub fn written_end(text: &str, path: &FieldPath) -> Option<(usize, usize)> {
    let mut w = Walker { text, at: 0 };
    w.blank();
    let (found, true) = w.find(&path.0)? else { return None };
    w.at = found;
    w.value()?;
    Some(line_col(text, w.at))
}

/// Line and column (1-based, columns in characters) of byte `at` of `text`.
pub fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at.min(text.len())];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (before.matches('\n').count() + 1, before[line_start..].chars().count() + 1)
}

/// `text` from its first word after blanks and comments on.
pub fn after_comments(text: &str) -> &str {
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        if let Some(r) = rest.strip_prefix("//") {
            rest = r.split_once('\n').map_or("", |(_, after)| after);
        } else if let Some(r) = rest.strip_prefix("/*") {
            rest = r.split_once("*/").map_or("", |(_, after)| after);
        } else if rest.starts_with("#!") {
            rest = rest.split_once('\n').map_or("", |(_, after)| after);
        } else {
            return rest;
        }
    }
}

/// A cursor in RON text.
struct Walker<'a> {
    text: &'a str,
    /// Byte offset of the next character.
    at: usize,
}

impl<'a> Walker<'a> {
    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    /// Steps over `c` if it is next.
    fn eat(&mut self, c: char) -> bool {
        let next = self.peek() == Some(c);
        if next {
            self.at += c.len_utf8();
        }
        next
    }

    /// Steps over blanks and comments (`//` to the end of the line,
    /// `/* */` nested).
    fn blank(&mut self) {
        loop {
            let rest = self.rest();
            let trimmed = rest.trim_start();
            self.at += rest.len() - trimmed.len();
            if trimmed.starts_with("//") {
                self.at += trimmed.find('\n').unwrap_or(trimmed.len());
            } else if trimmed.starts_with("/*") {
                self.at += block_comment_len(trimmed.as_bytes());
            } else {
                return;
            }
        }
    }

    /// An identifier (`Scenario`, `memory_mb`, `r#type`), stepped over.
    fn ident(&mut self) -> Option<&'a str> {
        let start = self.at;
        let raw = self.rest().starts_with("r#");
        let skip = if raw { 2 } else { 0 };
        let len =
            self.rest()[skip..].find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(self.rest().len() - skip);
        let first = self.rest()[skip..].chars().next()?;
        if len == 0 || first.is_ascii_digit() {
            return None;
        }
        self.at += skip + len;
        Some(&self.text[start + skip..self.at])
    }

    /// Steps over a string, raw string, byte string or character.
    fn quoted(&mut self) -> Option<()> {
        let rest = self.rest();
        let body = rest.strip_prefix('b').unwrap_or(rest);
        let prefix = rest.len() - body.len();
        if let Some(raw) = body.strip_prefix('r') {
            let hashes = raw.len() - raw.trim_start_matches('#').len();
            let open = prefix + 1 + hashes;
            if !self.rest()[open..].starts_with('"') {
                return None;
            }
            let close = format!("\"{}", "#".repeat(hashes));
            let end = self.rest()[open + 1..].find(&close)?;
            self.at += open + 1 + end + close.len();
            return Some(());
        }
        let quote = body.chars().next().filter(|&c| c == '"' || c == '\'')?;
        let mut chars = body.char_indices().skip(1);
        while let Some((i, c)) = chars.next() {
            if c == '\\' {
                chars.next();
            } else if c == quote {
                self.at += prefix + i + 1;
                return Some(());
            }
        }
        None
    }

    /// Steps over one value.
    fn value(&mut self) -> Option<()> {
        self.blank();
        match self.peek()? {
            '"' | '\'' => self.quoted(),
            'b' | 'r' if self.quoted_ahead() => self.quoted(),
            '(' | '[' | '{' => self.group(),
            c if c.is_alphabetic() || c == '_' => {
                self.ident()?;
                self.blank();
                if self.peek() == Some('(') { self.group() } else { Some(()) }
            }
            _ => {
                // A number: digits, signs, dots, exponents, `0x`, `_`, suffixes.
                let len = self
                    .rest()
                    .find(|c: char| !(c.is_alphanumeric() || matches!(c, '.' | '+' | '-' | '_')))
                    .unwrap_or(self.rest().len());
                (len > 0).then(|| self.at += len)
            }
        }
    }

    /// True when a string prefix (`b"`, `r"`, `r#"`, `br"`) is next.
    fn quoted_ahead(&self) -> bool {
        let rest = self.rest();
        let body = rest.strip_prefix('b').unwrap_or(rest);
        let body = body.strip_prefix('r').map_or(body, |r| r.trim_start_matches('#'));
        body.len() < rest.len() && body.starts_with(['"', '\''])
    }

    /// Steps over a bracketed group and what it holds.
    fn group(&mut self) -> Option<()> {
        let close = match self.peek()? {
            '(' => ')',
            '[' => ']',
            '{' => '}',
            _ => return None,
        };
        self.at += 1;
        loop {
            self.blank();
            if self.eat(close) {
                return Some(());
            }
            match self.peek()? {
                ',' | ':' => self.at += 1,
                _ => self.value()?,
            }
        }
    }

    /// Byte offset of the value at `path` from here (the start of a
    /// value) and true, or of the nearest value around it the text writes
    /// and false.
    fn find(&mut self, path: &[Seg]) -> Option<(usize, bool)> {
        let start = self.at;
        let Some(first) = path.first() else { return Some((start, true)) };
        // A struct's or variant's name before its body.
        let named = self.peek().is_some_and(|c| c.is_alphabetic() || c == '_');
        if named {
            self.ident()?;
            self.blank();
        }
        let found = match (first, self.peek()) {
            (Seg::Field(name), Some('(')) => {
                self.at += 1;
                self.blank();
                if self.field_next() {
                    self.field(name, &path[1..])
                } else if named && self.peek().is_some_and(|c| c != ')') {
                    // A wrapper of one value: `Some(...)`, `Inline(...)`.
                    self.find(path)
                } else {
                    None
                }
            }
            (Seg::Index(k), Some('[')) => {
                self.at += 1;
                self.element(*k, &path[1..])
            }
            _ => None,
        };
        Some(found.unwrap_or((start, false)))
    }

    /// True when a `name:` is next.
    fn field_next(&self) -> bool {
        let mut probe = Walker { text: self.text, at: self.at };
        probe.ident().is_some() && {
            probe.blank();
            probe.peek() == Some(':')
        }
    }

    /// Inside a struct's body: the place of field `name`'s value, or of
    /// what `rest` names inside it.
    fn field(&mut self, name: &str, rest: &[Seg]) -> Option<(usize, bool)> {
        loop {
            self.blank();
            let key = self.ident()?.trim_start_matches("r#").to_string();
            self.blank();
            if !self.eat(':') {
                return None;
            }
            self.blank();
            if key == name {
                return self.find(rest);
            }
            self.value()?;
            self.blank();
            if !self.eat(',') {
                return None;
            }
        }
    }

    /// Inside a list: the place of element `k`, or of what `rest` names
    /// inside it.
    fn element(&mut self, k: usize, rest: &[Seg]) -> Option<(usize, bool)> {
        for _ in 0..k {
            self.blank();
            if self.peek() == Some(']') {
                return None;
            }
            self.value()?;
            self.blank();
            if !self.eat(',') {
                return None;
            }
        }
        self.blank();
        if self.peek() == Some(']') {
            return None;
        }
        self.find(rest)
    }
}

/// The length in bytes of the block comment `bytes` starts with
/// (`/* ... */`, nested as RON nests them); to the end where unclosed.
pub fn block_comment_len(bytes: &[u8]) -> usize {
    block_comment(bytes).0
}

/// [`block_comment_len`], and whether the comment is closed.
fn block_comment(bytes: &[u8]) -> (usize, bool) {
    let (mut depth, mut i) = (0usize, 0);
    while i < bytes.len() {
        if bytes[i..].starts_with(b"/*") {
            depth += 1;
            i += 2;
        } else if bytes[i..].starts_with(b"*/") {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return (i, true);
            }
        } else {
            i += 1;
        }
    }
    (i, false)
}

/// Refuses a text with a block comment that is never closed, at
/// `origin:line:col` of its `/*`.
pub fn refuse_unclosed_comment(text: &str, origin: &str) -> crate::error::Result<()> {
    match unclosed_comment(text) {
        Some((line, col)) => Err(crate::error::Error::invalid(format!(
            "{origin}:{line}:{col}: this comment is not closed: no `*/` after it"
        ))),
        None => Ok(()),
    }
}

/// Line and column of a block comment (`/*`) that is never closed, outside
/// strings and line comments: RON reads the rest of the file as comment,
/// and its own message (the file ends too soon, or is empty) does not say
/// why.
fn unclosed_comment(text: &str) -> Option<(usize, usize)> {
    let mut w = Walker { text, at: 0 };
    while let Some(c) = w.peek() {
        let rest = w.rest();
        if rest.starts_with("//") {
            w.at += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            match block_comment(rest.as_bytes()) {
                (_, false) => return Some(line_col(text, w.at)),
                (len, true) => w.at += len,
            }
        } else if c == '"' || c == '\'' || ((c == 'b' || c == 'r') && w.quoted_ahead()) {
            // A string, raw string or character: a `/*` in it is text. One
            // not closed is RON's to tell.
            w.quoted()?;
        } else {
            w.at += c.len_utf8();
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = r##"// A lab's scenario.
Scenario(
    name: "lab, (3)",
    /* devices: [(name: "no")], */
    devices: [
        (name: "sdb", kind: Ssd),
        (name: r#"sd"#, kind: Jbod, disks: Some(3)),
    ],
    tasks: [Dd(bdi: "sdb", n: 2), Light(bdi: "sdz")],
)
"##;

    fn at(path: &[Seg]) -> Option<(usize, usize)> {
        locate(TEXT, &FieldPath(path.to_vec()))
    }

    #[test]
    fn fields_and_elements_are_found_at_their_values() {
        use Seg::{Field, Index};
        assert_eq!(at(&[Field("name")]), Some((3, 11)));
        assert_eq!(at(&[Field("devices")]), Some((5, 14)));
        assert_eq!(at(&[Field("devices"), Index(1), Field("name")]), Some((7, 16)));
        assert_eq!(at(&[Field("devices"), Index(1), Field("disks")]), Some((7, 44)));
        assert_eq!(at(&[Field("tasks"), Index(1), Field("bdi")]), Some((9, 46)));
        assert_eq!(at(&[Field("tasks"), Index(0), Field("n")]), Some((9, 31)));
    }

    #[test]
    fn a_field_left_out_is_told_at_what_holds_it() {
        use Seg::{Field, Index};
        // `kind` is written, `fs` is not: the device.
        assert_eq!(at(&[Field("devices"), Index(0), Field("fs")]), Some((6, 9)));
        assert_eq!(at(&[Field("tasks"), Index(1), Field("n")]), Some((9, 35)));
        assert_eq!(at(&[Field("devices"), Index(5)]), Some((5, 14)));
        assert_eq!(at(&[Field("hz")]), Some((2, 1)));
        assert_eq!(locate("Scenario(", &FieldPath::field("hz")), Some((1, 1)));
        assert_eq!(written(TEXT, &FieldPath::field("hz")), None);
        assert_eq!(written(TEXT, &FieldPath::element("tasks", 1, Some("bdi"))), Some((9, 46)));
    }

    #[test]
    fn a_wrapper_is_looked_through() {
        let lesson = "Lesson(id: \"x\", scenario: Inline(Scenario(memory_mb: 8,\n  cpus: 0)), steps: [])";
        let path = FieldPath::field("cpus").under(&[Seg::Field("scenario")]);
        assert_eq!(locate(lesson, &path), Some((2, 9)));
        assert_eq!(path.to_string(), "scenario.cpus");
        assert_eq!(FieldPath::element("tasks", 2, Some("bdi")).to_string(), "tasks[2].bdi");
        assert_eq!(line_col("é\nab", 4), (2, 2));
    }
}
