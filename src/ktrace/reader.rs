//! The tolerant reader: lines in, events out, with a count of everything
//! it skipped. It keeps no line once read: bdis and tasks are interned,
//! everything else streams to whoever consumes the events.

use std::collections::{BTreeMap, HashMap};
use std::io::BufRead;

use super::event::{BdiId, Event, EventKind, Field, Task, TaskId};
use super::line::{self, Parsed, Tool};

/// What the reader has seen so far.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReadStats {
    /// Lines read.
    pub lines: u64,
    /// Header and comment lines.
    pub header_lines: u64,
    /// Empty lines.
    pub blank_lines: u64,
    /// Lines of the call chains `perf script` prints under events
    /// recorded with `-g`.
    pub call_chain_lines: u64,
    /// Events read, by [`EventKind::index`].
    pub events: [u64; 3],
    /// Lines of other events or tracers, skipped.
    pub other_events: u64,
    /// Of those, lines of other writeback events (writeback_start,
    /// wbc_writepage, …), and the first few of their names (one more
    /// than are named, to tell there are more).
    pub other_writeback: u64,
    pub other_writeback_names: Vec<String>,
    /// Writeback events with a field missing or unreadable, skipped.
    pub malformed: u64,
    /// Lines that are no event at all, skipped.
    pub unreadable: u64,
    /// The first line skipped as another event, as malformed and as
    /// unreadable, by that order.
    pub first_skipped: [Option<u64>; 3],
    /// The first line is the header of a trace dirtyviz's simulation
    /// wrote (`run --trace`), not a kernel's.
    pub model_trace: bool,
    /// The last line that is not blank was skipped as malformed or
    /// unreadable: the trace was cut while being written.
    pub last_line_cut: bool,
    /// The last line held an event but no line end, and was read since
    /// its last value cannot have been cut: its line and that value.
    pub unended_read: Option<(u64, String)>,
    /// The last line held an event but no line end, and was not read
    /// since its last value may have been cut: its line, column and why.
    pub unended_cut: Option<(u64, usize, String)>,
    /// Writeback events stamped by a clock not in nanoseconds, skipped;
    /// the first one's line, column and stamp.
    pub raw_clock: u64,
    pub first_raw_clock: Option<(u64, usize, String)>,
    /// The first malformed event's line, column and what is wrong.
    pub first_malformed: Option<(u64, usize, String)>,
    /// The first NUL byte, which no text trace has: its line and column
    /// (in characters, from 1).
    pub first_nul: Option<(u64, usize)>,
    /// Marks of a ring buffer that overflowed (`CPU:1 [LOST 12 EVENTS]`).
    pub lost_marks: u64,
    /// The events those marks say were lost (a mark without a number adds none).
    pub lost_events: u64,
    /// Values printed wrapped, by field name.
    pub wrapped: BTreeMap<&'static str, u64>,
    /// Fields seen, by event: which release printed the trace.
    pub fields_seen: [Vec<Field>; 3],
    /// balance_dirty_pages printed 6.15's names (`wb_setpoint`, `wb_dirty`).
    pub wb_names: bool,
    /// An event named its cgroup by path (`cgroup=/`), as 4.3 began to.
    pub cgroup_path: bool,
    /// The CPU count a header states (`#P:2`, `cpus=2`).
    pub header_cpus: Option<u32>,
    /// The highest CPU number on an event line.
    pub max_cpu: Option<u32>,
    /// The program that wrote the trace, as far as the lines show.
    pub tool: Option<Tool>,
    /// Events stamped earlier than an event read before them, by at most
    /// [`BACKWARDS_S`] (per-CPU buffers merged): put back in time order
    /// by the reader's window; and the largest such step back \[s\].
    pub reordered: u64,
    pub reordered_max_s: f64,
    /// Events stamped more than [`BACKWARDS_S`] before an event read
    /// before them in their stretch (two traces joined, a stamp
    /// corrupted): each starts a new stretch. The largest step back \[s\]
    /// and its line.
    pub backwards: u64,
    pub largest_backwards: Option<(f64, u64)>,
    /// The stretches of time order, the first [`MAX_STRETCHES`] of them.
    pub stretches: Vec<Stretch>,
    /// First and last event time, on the clock every stretch after the
    /// first is moved onto (see [`Event::time_s`]) \[s\].
    pub first_s: Option<f64>,
    pub last_s: Option<f64>,
}

/// A stretch of a trace in time order: its first and last stamp on the
/// trace's own clock, and what they are moved by to go on after the
/// stretch before \[s\].
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct Stretch {
    pub first_s: f64,
    pub last_s: f64,
    pub offset_s: f64,
}

impl ReadStats {
    /// The time the events cover between `from` and `to` (on the moved
    /// clock of [`Event::time_s`]), less the gaps put between stretches \[s\].
    pub fn covered(&self, from: f64, to: f64) -> f64 {
        let mut s = (to - from).max(0.0);
        for w in self.stretches.windows(2) {
            let (a, b) = (w[0].last_s + w[0].offset_s, w[1].first_s + w[1].offset_s);
            if a >= from && b <= to {
                s -= b - a;
            }
        }
        s.max(0.0)
    }
}

impl ReadStats {
    /// Lines skipped: other events, malformed events, unreadable lines,
    /// events stamped by a clock not in nanoseconds.
    pub fn skipped(&self) -> u64 {
        self.other_events + self.malformed + self.unreadable + self.raw_clock
    }

    /// Writeback events read.
    pub fn total_events(&self) -> u64 {
        self.events.iter().sum()
    }

    /// True when some event of `kind` printed `field`.
    pub fn saw(&self, kind: EventKind, field: Field) -> bool {
        self.fields_seen[kind.index()].contains(&field)
    }

    /// The CPU count: the header's, else one more than the highest CPU seen.
    pub fn cpus(&self) -> Option<u32> {
        self.header_cpus.or(self.max_cpu.map(|c| c + 1))
    }

    /// A name for the program that wrote the trace.
    pub fn tool_name(&self) -> &'static str {
        match self.tool {
            Some(Tool::TraceCmd) => "trace-cmd report",
            Some(Tool::Perf) => "perf script",
            Some(Tool::FtraceFile) => "ftrace (trace file)",
            None => "ftrace (trace_pipe)",
        }
    }
}

/// Other writeback events named by [`ReadStats::other_writeback_names`].
const NAMED: usize = 3;

/// True for a tracepoint of the writeback subsystem
/// (include/trace/events/writeback.h) other than the three read here:
/// perf names them `writeback:<name>`, ftrace by their name alone.
fn is_writeback_event(event: &str) -> bool {
    event.contains("writeback")
        || event.starts_with("wbc_")
        || matches!(event, "inode_switch_wbs" | "inode_foreign_history" | "track_foreign_dirty" | "flush_foreign")
}

impl ReadStats {
    /// Why a trace that held none of the three events holds nothing to
    /// read, after `source: ` (its lines, none empty).
    pub fn no_event_why(&self) -> String {
        if self.model_trace {
            return "a trace of dirtyviz's own simulation (`run --trace`), not a kernel's: this reads a kernel's writeback events, as ftrace, trace-cmd report or perf script print them".into();
        }
        if self.other_writeback == 0 {
            return format!(
                "no writeback event in {} (enable writeback:balance_dirty_pages, bdi_dirty_ratelimit and global_dirty_state)",
                crate::units::count(self.lines, "line")
            );
        }
        let names = &self.other_writeback_names;
        let more = if names.len() > NAMED { ", …" } else { "" };
        format!(
            "{} ({}{more}) but none of the throttling ones dirtyviz reads: enable writeback:balance_dirty_pages, bdi_dirty_ratelimit and global_dirty_state",
            crate::units::count(self.other_writeback, "writeback event"),
            names[..names.len().min(NAMED)].join(", ")
        )
    }
}

/// The reader's window: an event at most this much earlier than one
/// read before it is put back in time order (per-CPU buffers merged a
/// little out of order); one earlier by more starts a new stretch (traces
/// joined, a stamp corrupted) \[s\].
pub const BACKWARDS_S: f64 = 1.0;
/// The time put at least between a stretch and the next on the moved
/// clock \[s\]: ten empty rows, so that no line joins them.
pub const STRETCH_GAP_S: f64 = 1.0;
/// Stretches listed (each one more joins the last listed).
pub const MAX_STRETCHES: usize = 10_000;
/// Events the window holds at most, however dense the trace.
const MAX_HELD: usize = 1 << 16;

/// Puts events back in time order: holds those of the last
/// [`BACKWARDS_S`] of trace time, sorted by stamp (events of the same
/// stamp in the order read), and hands on the older ones. A step back of
/// more than the window starts a new stretch, moved to go on
/// [`STRETCH_GAP_S`] or up to a window more after the one before. Without `hold` (a live
/// trace_pipe) events are handed on as read, stretches all the same.
#[derive(Debug, Default)]
pub struct Reorder {
    hold: bool,
    held: std::collections::VecDeque<Event>,
    /// The latest stamp of this stretch \[s\].
    latest: Option<f64>,
    stretch: u32,
    offset_s: f64,
}

impl Reorder {
    /// A window; `hold`: events are held to be sorted.
    pub fn new(hold: bool) -> Reorder {
        Reorder { hold, ..Reorder::default() }
    }

    /// Takes `e`, read at `line`, counting its step back in `st`.
    pub fn push(&mut self, mut e: Event, st: &mut ReadStats, line: u64) {
        let t = e.time_s;
        match self.latest {
            None => st.stretches.push(Stretch { first_s: t, last_s: t, offset_s: 0.0 }),
            Some(latest) if t < latest - BACKWARDS_S => {
                st.backwards += 1;
                let step = latest - t;
                if st.largest_backwards.is_none_or(|(s, _)| step > s) {
                    st.largest_backwards = Some((step, line));
                }
                // Its events may lie up to the window before its first.
                self.offset_s += latest + STRETCH_GAP_S + BACKWARDS_S - t;
                self.stretch += 1;
                self.latest = None;
                if st.stretches.len() < MAX_STRETCHES {
                    st.stretches.push(Stretch { first_s: t, last_s: t, offset_s: self.offset_s });
                }
            }
            Some(latest) if t < latest => {
                st.reordered += 1;
                st.reordered_max_s = st.reordered_max_s.max(latest - t);
            }
            Some(_) => {}
        }
        let latest = self.latest.map_or(t, |l| l.max(t));
        self.latest = Some(latest);
        if let Some(s) = st.stretches.last_mut() {
            (s.first_s, s.last_s) = (s.first_s.min(t), s.last_s.max(latest));
        }
        (e.stretch, e.offset_s) = (self.stretch, self.offset_s);
        e.time_s = t + self.offset_s;
        let at = if self.hold { self.held.partition_point(|h| h.time_s <= e.time_s) } else { self.held.len() };
        self.held.insert(at, e);
    }

    /// The next event out of the window, if any.
    pub fn pop(&mut self, st: &mut ReadStats) -> Option<Event> {
        let now = self.latest? + self.offset_s;
        let out =
            !self.hold || self.held.len() > MAX_HELD || self.held.front().is_some_and(|e| e.time_s < now - BACKWARDS_S);
        if out { self.flush(st) } else { None }
    }

    /// The next event held, the input being over.
    pub fn flush(&mut self, st: &mut ReadStats) -> Option<Event> {
        let e = self.held.pop_front()?;
        st.first_s.get_or_insert(e.time_s);
        st.last_s = Some(st.last_s.map_or(e.time_s, |l| l.max(e.time_s)));
        Some(e)
    }
}

/// Turns lines into events, interning bdis and tasks.
#[derive(Debug, Default)]
pub struct Decoder {
    /// Counters.
    pub stats: ReadStats,
    /// bdi names by [`BdiId`]. A [`BdiId`] is a writeback context: with
    /// cgroup writeback (4.3 on) one bdi has one per cgroup writing to it,
    /// each its own limits and rate estimates, and its name comes twice.
    pub bdis: Vec<String>,
    /// The cgroup of each writeback context, by [`BdiId`]: `cgroup /path`
    /// or `cgroup_ino 1234`; `None` before 4.3.
    pub cgroups: Vec<Option<String>>,
    /// Tasks by [`TaskId`].
    pub tasks: Vec<Task>,
    bdi_ids: HashMap<(String, Option<String>), BdiId>,
    /// Writeback contexts by bdi name.
    wbs: HashMap<String, u32>,
    task_ids: HashMap<Task, TaskId>,
}

/// At most this many bdis are told apart; later ones are skipped as
/// malformed (a real machine has tens).
const MAX_BDIS: usize = 4096;

impl Decoder {
    /// A decoder that has seen nothing.
    pub fn new() -> Decoder {
        Decoder::default()
    }

    /// Reads one line; the event it holds, if any.
    pub fn line(&mut self, text: &str) -> Option<Event> {
        self.line_ended(text, true)
    }

    /// Reads one line, `ended` by a line feed. The last line of an input
    /// without one may have been cut while being written, maybe within a
    /// number (`pause=2` of `pause=20`), or be whole in a file saved
    /// without a final line end. Every field of the three events is a
    /// number, so the fields alone cannot tell: such a line is read when
    /// its last value cannot go on (see [`may_be_cut`]), else not, and
    /// [`ReadStats`] says which.
    pub fn line_ended(&mut self, text: &str, ended: bool) -> Option<Event> {
        let st = &mut self.stats;
        st.lines += 1;
        // A file saved by an editor may open with a byte-order mark.
        let text = if st.lines == 1 { crate::input::without_bom(text) } else { text };
        if st.lines == 1 {
            st.model_trace = text.starts_with(r#"{"event":"header","dirtyviz":"#);
        }
        // A NUL byte is binary data, no trace's text: its line is not
        // read, whatever else it holds (the summary says where it is).
        let parsed = match line::parse(text) {
            _ if text.contains('\0') => Parsed::Unreadable,
            Parsed::Event(e) if !ended => match may_be_cut(text) {
                Some((col, token)) => {
                    let why = format!(
                        "{}: the last line has no line end and may be cut within `{token}`: not read (if it is whole, end it with a line feed)",
                        e.kind.name()
                    );
                    st.unended_cut = Some((st.lines, col, why.clone()));
                    Parsed::Malformed { col, why }
                }
                None => {
                    let last = text.split_whitespace().last().unwrap_or_default();
                    st.unended_read = Some((st.lines, last.to_string()));
                    Parsed::Event(e)
                }
            },
            parsed => parsed,
        };
        // A capture stopped while a line was being written leaves it
        // without its line end; a whole line that does not read is only
        // unreadable.
        if parsed != Parsed::Blank {
            st.last_line_cut = !ended && matches!(parsed, Parsed::Malformed { .. } | Parsed::Unreadable);
        }
        let raw = match parsed {
            Parsed::Blank => {
                st.blank_lines += 1;
                return None;
            }
            Parsed::CallChain => {
                st.call_chain_lines += 1;
                return None;
            }
            Parsed::Header { cpus, tool } => {
                st.header_lines += 1;
                st.header_cpus = st.header_cpus.or(cpus);
                st.tool = st.tool.or(tool);
                return None;
            }
            Parsed::Lost { events } => {
                st.lost_marks += 1;
                st.lost_events += events.unwrap_or(0);
                return None;
            }
            Parsed::Other { event } => {
                st.other_events += 1;
                if is_writeback_event(event) {
                    st.other_writeback += 1;
                    let name = event.strip_prefix("writeback:").unwrap_or(event);
                    if st.other_writeback_names.len() <= NAMED && !st.other_writeback_names.iter().any(|n| n == name) {
                        st.other_writeback_names.push(name.to_string());
                    }
                }
                st.first_skipped[0].get_or_insert(st.lines);
                return None;
            }
            Parsed::Malformed { col, why } => {
                st.malformed += 1;
                st.first_skipped[1].get_or_insert(st.lines);
                st.first_malformed.get_or_insert((st.lines, col, why));
                return None;
            }
            Parsed::RawClock { stamp, col } => {
                st.raw_clock += 1;
                st.first_raw_clock.get_or_insert_with(|| (st.lines, col, stamp.to_string()));
                return None;
            }
            Parsed::Unreadable => {
                st.unreadable += 1;
                st.first_skipped[2].get_or_insert(st.lines);
                return None;
            }
            Parsed::Event(raw) => raw,
        };
        let cgroup = match (raw.cgroup, raw.fields.iter().find(|(f, _)| *f == Field::CgroupIno)) {
            (Some(path), _) => Some(format!("cgroup {path}")),
            (None, Some((_, ino))) => Some(format!("cgroup_ino {ino}")),
            (None, None) => None,
        };
        let bdi = match raw.bdi {
            Some(name) => match self.bdi_id(name, cgroup) {
                Some(id) => Some(id),
                None => {
                    let st = &mut self.stats;
                    st.malformed += 1;
                    st.first_skipped[1].get_or_insert(st.lines);
                    let why = format!("{}: a bdi past the first {MAX_BDIS}", raw.kind.name());
                    st.first_malformed.get_or_insert((st.lines, 1, why));
                    return None;
                }
            },
            None => None,
        };
        let task = self.task_id(raw.comm, raw.pid);
        let st = &mut self.stats;
        st.wb_names |= raw.wb_names;
        st.cgroup_path |= raw.cgroup_path;
        if raw.perf && st.tool.is_none() {
            st.tool = Some(Tool::Perf);
        }
        let mut e = Event::new(raw.kind, raw.time_s, task, raw.cpu, bdi);
        let seen = &mut st.fields_seen[raw.kind.index()];
        for &(field, value) in &raw.fields {
            e.set(field, value);
            if !seen.contains(&field) {
                seen.push(field);
            }
        }
        for f in e.wrapped() {
            *st.wrapped.entry(f.name()).or_default() += 1;
        }
        st.events[raw.kind.index()] += 1;
        st.max_cpu = st.max_cpu.max(raw.cpu);
        Some(e)
    }

    fn bdi_id(&mut self, name: &str, cgroup: Option<String>) -> Option<BdiId> {
        let key = (name.to_string(), cgroup);
        if let Some(&id) = self.bdi_ids.get(&key) {
            return Some(id);
        }
        if self.bdis.len() >= MAX_BDIS {
            return None;
        }
        let id = self.bdis.len() as BdiId;
        self.bdis.push(key.0.clone());
        self.cgroups.push(key.1.clone());
        *self.wbs.entry(key.0.clone()).or_default() += 1;
        self.bdi_ids.insert(key, id);
        Some(id)
    }

    /// The cgroup of writeback context `bdi` when its bdi has more than
    /// one (`cgroup /user.slice`, `cgroup_ino 1234`), else `None`.
    pub fn shown_cgroup(&self, bdi: usize) -> Option<&str> {
        let name = self.bdis.get(bdi)?;
        (self.wbs.get(name).copied().unwrap_or(0) > 1).then(|| self.cgroups[bdi].as_deref()).flatten()
    }

    /// Writeback context `bdi` as a summary names it: the bdi, `8:0`,
    /// followed by its cgroup when the bdi has more than one.
    pub fn label(&self, bdi: usize) -> String {
        let name = self.bdis.get(bdi).map_or("-", String::as_str);
        match self.shown_cgroup(bdi) {
            Some(cgroup) => format!("{name} {cgroup}"),
            None => name.to_string(),
        }
    }

    /// Every writeback context's [`label`](Self::label), by [`BdiId`].
    pub fn labels(&self) -> Vec<String> {
        (0..self.bdis.len()).map(|i| self.label(i)).collect()
    }

    fn task_id(&mut self, comm: &str, pid: Option<u32>) -> TaskId {
        let task = Task { comm: comm.to_string(), pid };
        if let Some(&id) = self.task_ids.get(&task) {
            return id;
        }
        let id = self.tasks.len() as TaskId;
        self.tasks.push(task.clone());
        self.task_ids.insert(task, id);
        id
    }
}

/// Where an event line without its line end may have been cut: the
/// column (from 1) and text of its last `key=value`, or `None` when that
/// value cannot go on: blank follows it (a writer stopped after it), or
/// it is `0` (the kernel prints no number with a leading 0).
pub fn may_be_cut(text: &str) -> Option<(usize, &str)> {
    if text.ends_with(char::is_whitespace) {
        return None;
    }
    let token = text.split_whitespace().last()?;
    if token.split_once('=').is_some_and(|(_, v)| v == "0") {
        return None;
    }
    let at = token.as_ptr() as usize - text.as_ptr() as usize;
    Some((text[..at].chars().count() + 1, token))
}

/// The longest line a trace may have \[bytes\]: a kernel's trace lines
/// are a few hundred bytes; a longer one is no trace (a binary file, a
/// device without line breaks) and is not held in memory.
pub const MAX_LINE_BYTES: usize = 64 << 10;

/// Reads every line of `input`, handing each event to `sink` in time
/// order through a [`Reorder`] window (sorted within [`BACKWARDS_S`],
/// each step back of more a new stretch). Bytes that
/// are not UTF-8 are replaced, never fatal; a read error stops it, and so
/// does a line longer than [`MAX_LINE_BYTES`] (an `InvalidData` error
/// naming its line number).
pub fn read_all(
    mut input: impl BufRead,
    decoder: &mut Decoder,
    mut sink: impl FnMut(&Event, &Decoder),
) -> std::io::Result<()> {
    let mut buf = Vec::with_capacity(512);
    let mut window = Reorder::new(true);
    loop {
        buf.clear();
        if std::io::Read::take(&mut input, MAX_LINE_BYTES as u64 + 1).read_until(b'\n', &mut buf)? == 0 {
            break;
        }
        // The line's first NUL byte, its line and column (from 1).
        let line = decoder.stats.lines + 1;
        let chars = |bytes: &[u8]| String::from_utf8_lossy(bytes).chars().count();
        let nul_here = buf.iter().position(|&b| b == 0).map(|at| (line, chars(&buf[..at]) + 1));
        if buf.len() > MAX_LINE_BYTES && buf.last() != Some(&b'\n') {
            // Binary data (a program's file) is said as such, not as the
            // length of a line it ran into: a NUL in that line, or one
            // before it with no event read yet. After events, one NUL
            // byte did not stop the reading: the long line did.
            let before = decoder.stats.first_nul.filter(|_| decoder.stats.total_events() == 0);
            let nul = before.or(nul_here);
            let why = match nul {
                Some((l, c)) => format!("{l}:{c}: binary data (a NUL byte), not the text of a trace"),
                None => format!(
                    "{line}:{}: a line longer than {} KiB: not a kernel trace",
                    chars(&buf[..MAX_LINE_BYTES]) + 1,
                    MAX_LINE_BYTES >> 10
                ),
            };
            return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, why));
        }
        if decoder.stats.lines == 0
            && let Some(what) = binary_trace(&buf)
        {
            return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, format!("1: {what}")));
        }
        if let Some(at) = nul_here {
            decoder.stats.first_nul.get_or_insert(at);
        }
        let text = String::from_utf8_lossy(&buf);
        if let Some(e) = decoder.line_ended(&text, buf.last() == Some(&b'\n')) {
            let line = decoder.stats.lines;
            window.push(e, &mut decoder.stats, line);
            while let Some(e) = window.pop(&mut decoder.stats) {
                sink(&e, decoder);
            }
        }
    }
    while let Some(e) = window.flush(&mut decoder.stats) {
        sink(&e, decoder);
    }
    Ok(())
}

/// What a file of the tracers' own binary formats is, and the command
/// that prints it as the text read here, told from its first bytes.
fn binary_trace(start: &[u8]) -> Option<&'static str> {
    if start.starts_with(b"\x17\x08\x44tracing") {
        Some("trace-cmd's binary trace.dat, not text: read what `trace-cmd report` prints of it")
    } else if start.starts_with(b"PERFILE2") || start.starts_with(b"PERFFILE") {
        Some("perf's binary perf.data, not text: read what `perf script` prints of it")
    } else if start.starts_with(b"\x1f\x8b") {
        Some("gzip-compressed, not text: give what `zcat` prints of it on standard input, as `-`")
    } else if start.starts_with(b"\xfd7zXZ\0") {
        Some("xz-compressed, not text: give what `xzcat` prints of it on standard input, as `-`")
    } else if start.starts_with(b"BZh") && start.get(3).is_some_and(|d| (b'1'..=b'9').contains(d)) {
        Some("bzip2-compressed, not text: give what `bzcat` prints of it on standard input, as `-`")
    } else if start.starts_with(b"\x28\xb5\x2f\xfd") {
        Some("zstd-compressed, not text: give what `zstdcat` prints of it on standard input, as `-`")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BDP_3_2: &str = "dd-3015 [002] 412.1: balance_dirty_pages: bdi 8:16: limit=1 setpoint=2 dirty=3 bdi_setpoint=4 bdi_dirty=5 dirty_ratelimit=6 task_ratelimit=7 dirtied=8 dirtied_pause=9 paused=0 pause=-4294824915";

    #[test]
    fn counts_what_it_reads_and_what_it_skips() {
        let text = format!(
            "# tracer: nop\n#P:4\n\n{BDP_3_2}\n{BDP_3_2}\ncp-9 [001] 413.0: sched_switch: x=1\n\u{1}\u{2}\n{}\n",
            &BDP_3_2[..60]
        );
        let mut d = Decoder::new();
        let mut times = Vec::new();
        read_all(text.as_bytes(), &mut d, |e, _| times.push(e.time_s)).expect("reads");
        let st = &d.stats;
        assert_eq!(st.lines, 8);
        assert_eq!((st.header_lines, st.blank_lines), (2, 1));
        assert_eq!(st.events, [2, 0, 0]);
        assert_eq!((st.other_events, st.malformed, st.unreadable, st.skipped()), (1, 1, 1, 3));
        assert_eq!(st.wrapped.get("pause"), Some(&2));
        assert_eq!(st.cpus(), Some(4));
        assert_eq!(times, [412.1, 412.1]);
        assert_eq!(d.bdis, ["8:16"]);
        assert_eq!(d.tasks, [Task { comm: "dd".into(), pid: Some(3015) }]);
        assert!(st.saw(EventKind::BalanceDirtyPages, Field::BdiSetpoint));
        assert!(!st.saw(EventKind::BalanceDirtyPages, Field::Period));
    }

    #[test]
    fn call_chains_under_perf_events_are_read_not_skipped() {
        let gds = "dd  1294 [001]  2.000001: writeback:global_dirty_state: dirty=1 writeback=2 bg_thresh=3 thresh=4 limit=5 dirtied=6 written=7";
        let chain = "\tffffffff8123abcd balance_dirty_pages+0x1ab ([kernel.kallsyms])\n\t    7f3a9c2b1e40 [unknown] ([unknown])\n";
        let text = format!("{gds}\n{chain}\n{gds}\n{chain}\n");
        let mut d = Decoder::new();
        let mut events = 0;
        read_all(text.as_bytes(), &mut d, |_, _| events += 1).expect("reads");
        let st = &d.stats;
        assert_eq!((events, st.call_chain_lines, st.blank_lines, st.skipped()), (2, 4, 2, 0));
    }

    #[test]
    fn lost_events_are_counted_and_a_cut_last_line_is_noticed() {
        let text = format!(
            "# tracer: nop\n{BDP_3_2}\nCPU:1 [LOST 1234 EVENTS]\n{BDP_3_2}\nCPU:0 [EVENTS DROPPED]\ncp-9 [001] 413.0: sched_switch: x=1\n{}\n\n",
            &BDP_3_2[..60]
        );
        let mut d = Decoder::new();
        read_all(text.as_bytes(), &mut d, |_, _| {}).expect("reads");
        let st = &d.stats;
        assert_eq!((st.lost_marks, st.lost_events), (2, 1234));
        assert_eq!(st.skipped(), 2, "a lost-events mark is not a skipped line");
        assert_eq!(st.first_skipped, [Some(6), Some(7), None]);
        assert!(!st.last_line_cut, "a line with its line end is whole, if unreadable");
        let mut d = Decoder::new();
        read_all(format!("{BDP_3_2}\n{}", &BDP_3_2[..60]).as_bytes(), &mut d, |_, _| {}).expect("reads");
        assert!(d.stats.last_line_cut, "the last line, without its line end, is cut");
        let mut d = Decoder::new();
        read_all(format!("{}\n{BDP_3_2}\n", &BDP_3_2[..60]).as_bytes(), &mut d, |_, _| {}).expect("reads");
        assert!(!d.stats.last_line_cut, "only the last line tells");
    }

    #[test]
    fn an_event_on_a_last_line_without_its_line_end_is_cut_not_read() {
        // `pause=20` cut to `pause=2` as the capture stopped: the fields
        // are all there, one number is wrong. A line end tells.
        let whole = BDP_3_2.replace("pause=-4294824915", "pause=20");
        let mut d = Decoder::new();
        let mut pauses = Vec::new();
        let text = format!("{whole}\n{}", &whole[..whole.len() - 1]);
        read_all(text.as_bytes(), &mut d, |e, _| pauses.push(e.get(Field::Pause))).expect("reads");
        assert_eq!(pauses, [Some(20)]);
        assert_eq!((d.stats.malformed, d.stats.last_line_cut), (1, true));
        let (line, col, why) = d.stats.first_malformed.clone().expect("told");
        assert_eq!(
            (line, col, why.as_str()),
            (
                2,
                whole.len() - "pause=2".len(),
                "balance_dirty_pages: the last line has no line end and may be cut within `pause=2`: not read (if it is whole, end it with a line feed)"
            )
        );
        assert_eq!(d.stats.unended_cut, Some((2, col, why)));
        assert_eq!(d.stats.unended_read, None);
        // With its line end it is read.
        let mut d = Decoder::new();
        read_all(format!("{whole}\n{whole}\n").as_bytes(), &mut d, |_, _| {}).expect("reads");
        assert_eq!((d.stats.events[0], d.stats.malformed, d.stats.last_line_cut), (2, 0, false));
    }

    #[test]
    fn a_last_line_without_its_line_end_whose_last_value_cannot_go_on_is_read() {
        // A file saved without a final line end: the last value is `0`,
        // which no longer number the kernel prints begins with, or a blank
        // follows it. Both are whole and read; the stats say so.
        let zero = BDP_3_2.replace("pause=-4294824915", "pause=0");
        for (last, value) in
            [(zero.clone(), "pause=0"), (format!("{}  ", BDP_3_2.replace("pause=-4294824915", "pause=20")), "pause=20")]
        {
            let mut d = Decoder::new();
            let mut pauses = Vec::new();
            read_all(format!("{zero}\n{last}").as_bytes(), &mut d, |e, _| pauses.push(e.get(Field::Pause)))
                .expect("reads");
            let want = if value == "pause=0" { Some(0) } else { Some(20) };
            assert_eq!(pauses, [Some(0), want], "{last:?}");
            assert_eq!((d.stats.malformed, d.stats.last_line_cut), (0, false));
            assert_eq!(d.stats.unended_read, Some((2, value.to_string())));
            assert_eq!(d.stats.unended_cut, None);
        }
        // Cut in the middle: a field missing, not read whatever the rule.
        let mut d = Decoder::new();
        read_all(format!("{zero}\n{}", &zero[..zero.len() - 12]).as_bytes(), &mut d, |_, _| {}).expect("reads");
        assert_eq!((d.stats.events[0], d.stats.malformed, d.stats.last_line_cut), (1, 1, true));
        assert_eq!(d.stats.unended_read, None);
    }

    #[test]
    fn steps_back_within_a_second_are_sorted_and_larger_ones_start_a_stretch() {
        let at = |t: &str| BDP_3_2.replace("412.1:", &format!("{t}:"));
        // Two CPUs a hair apart are put in order; a second trace appended
        // after the first, its clock lower, goes on a second after it.
        let text = [at("412.1"), at("412.0999"), at("413.0"), at("5.0"), at("5.1"), at("414.0")].join("\n") + "\n";
        let mut d = Decoder::new();
        let mut out = Vec::new();
        read_all(text.as_bytes(), &mut d, |e, _| out.push((e.time_s, e.stretch, e.offset_s))).expect("reads");
        let want = [
            (412.0999, 0, 0.0),
            (412.1, 0, 0.0),
            (413.0, 0, 0.0),
            (415.0, 1, 410.0),
            (415.1, 1, 410.0),
            (824.0, 1, 410.0),
        ];
        assert_eq!(out.len(), want.len());
        for (o, w) in out.iter().zip(want) {
            assert!((o.0 - w.0).abs() < 1e-9 && o.1 == w.1 && (o.2 - w.2).abs() < 1e-9, "{out:?}");
        }
        let st = &d.stats;
        assert_eq!((st.reordered, st.backwards, st.largest_backwards), (1, 1, Some((408.0, 4))));
        assert!((st.reordered_max_s - 0.0001).abs() < 1e-9, "{}", st.reordered_max_s);
        assert_eq!(
            st.stretches,
            [
                Stretch { first_s: 412.0999, last_s: 413.0, offset_s: 0.0 },
                Stretch { first_s: 5.0, last_s: 414.0, offset_s: 410.0 }
            ]
        );
        // 412.0999 to 824: the gap between stretches (413 to 415) left out.
        assert!((st.covered(412.0999, 824.0) - (824.0 - 412.0999 - 2.0)).abs() < 1e-9);
        assert_eq!((st.first_s, st.last_s), (Some(412.0999), Some(824.0)));
    }

    #[test]
    fn reversed_lines_come_out_sorted_each_second_a_stretch_and_the_window_stays_a_second() {
        // Events 1 ms apart over 5 s, in order: the window holds a second of them.
        let mut w = Reorder::new(true);
        let mut st = ReadStats::default();
        let mut most = 0;
        let mut out = Vec::new();
        for i in 0..5000 {
            w.push(Event::new(EventKind::GlobalDirtyState, 100.0 + i as f64 * 1e-3, 0, None, None), &mut st, i + 1);
            most = most.max(w.held.len());
            while let Some(e) = w.pop(&mut st) {
                out.push(e.time_s);
            }
        }
        // A second of them at 1 ms: 1001, or 1002 as the sums round.
        assert!((1001..=1002).contains(&most), "{most}");
        while let Some(e) = w.flush(&mut st) {
            out.push(e.time_s);
        }
        assert_eq!(out.len(), 5000);
        assert!(out.windows(2).all(|p| p[0] < p[1]));
        // Reversed: each step back of a second less a hair is sorted, the
        // next one starts a stretch (every 1.001 s, 5 of them).
        let mut w = Reorder::new(true);
        let mut st = ReadStats::default();
        let mut out = Vec::new();
        for i in (0..5000).rev() {
            w.push(Event::new(EventKind::GlobalDirtyState, 100.0 + i as f64 * 1e-3, 0, None, None), &mut st, 5000 - i);
            while let Some(e) = w.pop(&mut st) {
                out.push(e.time_s);
            }
        }
        while let Some(e) = w.flush(&mut st) {
            out.push(e.time_s);
        }
        let bad: Vec<_> = out.windows(2).enumerate().filter(|(_, p)| p[0] >= p[1]).take(3).collect();
        assert!(bad.is_empty(), "time order on the moved clock: {bad:?}");
        assert_eq!((st.backwards, st.stretches.len(), st.reordered), (4, 5, 4995));
    }

    #[test]
    fn a_byte_order_mark_before_the_first_line_is_not_part_of_it() {
        let mut d = Decoder::new();
        let trace = format!("\u{feff}# tracer: nop\n{BDP_3_2}\n");
        let mut events = 0;
        read_all(trace.as_bytes(), &mut d, |_, _| events += 1).expect("reads");
        assert_eq!((events, d.stats.header_lines, d.stats.skipped()), (1, 1, 0));
    }

    #[test]
    fn bytes_that_are_not_utf8_are_skipped_not_fatal() {
        let mut input = BDP_3_2.as_bytes().to_vec();
        input.extend_from_slice(b"\n\xff\xfe\x00garbage\n");
        input.extend_from_slice(BDP_3_2.as_bytes());
        input.push(b'\n');
        let mut d = Decoder::new();
        let mut n = 0;
        read_all(&input[..], &mut d, |_, _| n += 1).expect("reads");
        assert_eq!((n, d.stats.unreadable), (2, 1));
    }

    #[test]
    fn a_line_too_long_stops_the_reading() {
        let mut input = format!("{BDP_3_2}\n").into_bytes();
        input.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES));
        input.extend_from_slice(b"\n");
        let mut d = Decoder::new();
        read_all(&input[..], &mut d, |_, _| {}).expect("a line of MAX_LINE_BYTES with its line feed is read");
        input.insert(input.len() - 1, b'x');
        let mut d = Decoder::new();
        let e = read_all(&input[..], &mut d, |_, _| {}).expect_err("one byte more");
        assert_eq!(e.to_string(), "2:65537: a line longer than 64 KiB: not a kernel trace");
        // A NUL byte in that line is binary data, and so is one before
        // it with no event read: a program's file has a long line further
        // on. After an event, the long line is what stopped the reading.
        let junk = b"\x7fELF\0\x01\n".to_vec();
        for (text, at, said) in [
            (input.clone(), Some(input.len() - 10), "2:65529: binary data"),
            ([&junk[..], &input[input.len() - MAX_LINE_BYTES - 2..]].concat(), None, "1:5: binary data"),
            (
                [format!("{BDP_3_2}\nx\0y\n").as_bytes(), &input[input.len() - MAX_LINE_BYTES - 2..]].concat(),
                None,
                "3:65537: a line longer than 64 KiB",
            ),
        ] {
            let mut binary = text;
            if let Some(at) = at {
                binary[at] = 0;
            }
            let e = read_all(&binary[..], &mut Decoder::new(), |_, _| {}).expect_err("too long");
            assert!(e.to_string().starts_with(said), "{e}");
        }
    }
}
