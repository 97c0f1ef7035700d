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
    /// The first line holding a NUL byte, which no text trace has.
    pub first_nul_line: Option<u64>,
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
    /// Events stamped more than [`BACKWARDS_S`] before an earlier line's
    /// event (two traces joined, a stamp corrupted), and the first one's line.
    pub backwards: u64,
    pub first_backwards_line: Option<u64>,
    /// First and last event time \[s\].
    pub first_s: Option<f64>,
    pub last_s: Option<f64>,
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

/// An event this much earlier than one before it is out of order, not
/// the small disorder of per-CPU clocks merged \[s\].
pub const BACKWARDS_S: f64 = 1.0;

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
        let parsed = match line::parse(text) {
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
        if parsed != Parsed::Blank {
            st.last_line_cut = matches!(parsed, Parsed::Malformed { .. } | Parsed::Unreadable);
        }
        let raw = match parsed {
            Parsed::Blank => {
                st.blank_lines += 1;
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
        if st.last_s.is_some_and(|last| raw.time_s < last - BACKWARDS_S) {
            st.backwards += 1;
            st.first_backwards_line.get_or_insert(st.lines);
        }
        st.first_s = Some(st.first_s.map_or(raw.time_s, |t| t.min(raw.time_s)));
        st.last_s = Some(st.last_s.map_or(raw.time_s, |t| t.max(raw.time_s)));
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

/// Reads every line of `input`, handing each event to `sink`. Bytes that
/// are not UTF-8 are replaced, never fatal; a read error stops it, and so
/// does a line longer than [`MAX_LINE_BYTES`] (an `InvalidData` error
/// naming its line number).
pub fn read_all(
    mut input: impl BufRead,
    decoder: &mut Decoder,
    mut sink: impl FnMut(&Event, &Decoder),
) -> std::io::Result<()> {
    let mut buf = Vec::with_capacity(512);
    loop {
        buf.clear();
        if std::io::Read::take(&mut input, MAX_LINE_BYTES as u64 + 1).read_until(b'\n', &mut buf)? == 0 {
            return Ok(());
        }
        if buf.len() > MAX_LINE_BYTES && buf.last() != Some(&b'\n') {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!(
                    "{}: a line longer than {} KiB: not a kernel trace",
                    decoder.stats.lines + 1,
                    MAX_LINE_BYTES >> 10
                ),
            ));
        }
        if decoder.stats.lines == 0
            && let Some(what) = binary_trace(&buf)
        {
            return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, format!("1: {what}")));
        }
        if buf.contains(&0) {
            let st = &mut decoder.stats;
            st.first_nul_line.get_or_insert(st.lines + 1);
        }
        let text = String::from_utf8_lossy(&buf);
        if let Some(e) = decoder.line_ended(&text, buf.last() == Some(&b'\n')) {
            sink(&e, decoder);
        }
    }
}

/// What a file of the tracers' own binary formats is, and the command
/// that prints it as the text read here, told from its first bytes.
fn binary_trace(start: &[u8]) -> Option<&'static str> {
    if start.starts_with(b"\x17\x08\x44tracing") {
        Some("trace-cmd's binary trace.dat, not text: read what `trace-cmd report` prints of it")
    } else if start.starts_with(b"PERFILE2") || start.starts_with(b"PERFFILE") {
        Some("perf's binary perf.data, not text: read what `perf script` prints of it")
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
        assert!(st.last_line_cut, "the last line that is not blank is cut");
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
    fn events_that_go_back_in_time_are_counted() {
        let at = |t: &str| BDP_3_2.replace("412.1:", &format!("{t}:"));
        // Two CPUs a hair apart are in order enough; a second trace
        // appended after the first is not.
        let text = [at("412.1"), at("412.0999"), at("413.0"), at("5.0"), at("5.1"), at("414.0")].join("\n");
        let mut d = Decoder::new();
        read_all(text.as_bytes(), &mut d, |_, _| {}).expect("reads");
        assert_eq!((d.stats.backwards, d.stats.first_backwards_line), (2, Some(4)));
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
        assert_eq!(e.to_string(), "2: a line longer than 64 KiB: not a kernel trace");
    }
}
