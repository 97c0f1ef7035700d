//! One line of a trace, taken apart: the ftrace line header
//! (`dd-1294 [001] ...1. 1307.423437: `), perf script's
//! (`dd  1294 [001]  1307.423437: writeback:`), then `bdi NAME: ` and the
//! `key=value` fields, read by name.
//!
//! ```text
//!   dd-1294  (1294) [001] ...1.  1307.423437: bdi_dirty_ratelimit: bdi 254:0: write_bw=479460 ...
//!   └─ task ─┘ └tgid┘ └cpu┘ └flags└ timestamp ┘ └──── event ────┘ └─ bdi ─┘  └─ fields ─┘
//! ```
//!
//! Nothing here fails: a line is an event, a header, another event, or
//! something unreadable, and the caller counts what it skips.

use super::event::{EventKind, Field};
use std::num::IntErrorKind;

/// What one line holds.
#[derive(Clone, Debug, PartialEq)]
pub enum Parsed<'a> {
    /// An empty line.
    Blank,
    /// A header or comment line (`# tracer: nop`, trace-cmd's `cpus=2`);
    /// the CPU count when it states one.
    Header { cpus: Option<u32>, tool: Option<Tool> },
    /// A ring buffer overflowed: `CPU:1 [LOST 1234 EVENTS]` (ftrace),
    /// `CPU:1 [1234 EVENTS DROPPED]` or `CPU:1 [EVENTS DROPPED]`
    /// (trace-cmd report); the number of events, when stated.
    Lost { events: Option<u64> },
    /// One of the three writeback events.
    Event(RawEvent<'a>),
    /// A well-formed line of another event or tracer: its name.
    Other { event: &'a str },
    /// One of the three events with a field missing or unreadable
    /// (truncated, corrupted, or a release that renamed it): where in the
    /// line (its column, from 1) and what.
    Malformed { col: usize, why: String },
    /// A line of a call chain `perf script` prints under an event
    /// recorded with `-g` (`ffffffff8123abcd balance_dirty_pages+0x1ab
    /// ([kernel.kallsyms])`).
    CallChain,
    /// One of the three events stamped by a trace clock that does not
    /// count time in nanoseconds (`counter`, `uptime` in jiffies,
    /// `x86-tsc` in cycles): ftrace and trace-cmd print its raw count,
    /// without a decimal point, which no reader can turn into seconds.
    RawClock {
        /// The count as printed.
        stamp: &'a str,
        /// Its column in the line, from 1.
        col: usize,
    },
    /// No event line at all.
    Unreadable,
}

/// The program that wrote the trace, as far as a line shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// `/sys/kernel/tracing/trace` with its header.
    FtraceFile,
    /// `trace-cmd report` (it starts with `cpus=N`).
    TraceCmd,
    /// `perf script` (events named `writeback:...`).
    Perf,
}

/// A writeback event line before its names are interned.
#[derive(Clone, Debug, PartialEq)]
pub struct RawEvent<'a> {
    /// Which event.
    pub kind: EventKind,
    /// Command name of the task.
    pub comm: &'a str,
    /// Its thread id (the pid of a single-threaded task), when shown.
    pub pid: Option<u32>,
    /// CPU, when shown.
    pub cpu: Option<u32>,
    /// Timestamp \[s\].
    pub time_s: f64,
    /// The bdi's name (its device number, `8:0`), for bdi events.
    pub bdi: Option<&'a str>,
    /// The fields read, by name, with their printed values.
    pub fields: Vec<(Field, i128)>,
    /// perf script names events `writeback:<name>`.
    pub perf: bool,
    /// The fields are named as from 6.15 (`wb_setpoint`, `wb_dirty`).
    pub wb_names: bool,
    /// It names its cgroup by path (`cgroup=/user.slice`), as from 4.3
    /// until the inode number (`cgroup_ino=`) replaced it.
    pub cgroup_path: bool,
    /// That path, spaces and all.
    pub cgroup: Option<&'a str>,
}

/// Takes one line apart.
pub fn parse(line: &str) -> Parsed<'_> {
    let s = line.trim();
    if s.is_empty() {
        return Parsed::Blank;
    }
    // The trace file's mark of where a CPU's buffer starts (older events
    // of that CPU were overwritten).
    if s.starts_with("##### CPU ") && s.ends_with(" buffer started ####") {
        return Parsed::Header { cpus: None, tool: Some(Tool::FtraceFile) };
    }
    if s.starts_with('#') {
        let cpus = s.find("#P:").and_then(|i| leading_number(&s[i + 3..]));
        let tool = s.contains("tracer:").then_some(Tool::FtraceFile);
        return Parsed::Header { cpus, tool };
    }
    if let Some(n) = s.strip_prefix("cpus=") {
        return Parsed::Header { cpus: leading_number(n), tool: Some(Tool::TraceCmd) };
    }
    if s.starts_with("version = ") || (s.starts_with("CPU ") && s.ends_with(" is empty")) {
        return Parsed::Header { cpus: None, tool: Some(Tool::TraceCmd) };
    }
    if let Some(lost) = lost(s) {
        return lost;
    }
    // A line with an event's head is an event, whatever it ends with (perf
    // script -F ...,ip,sym,dso puts the frame on the event's own line).
    let Some(head) = header(s) else {
        return if is_call_chain(s) { Parsed::CallChain } else { Parsed::Unreadable };
    };
    let Some(kind) = EventKind::from_name(head.event) else { return Parsed::Other { event: head.event } };
    let stamp_col = || line[..line.len() - line.trim_start().len() + head.stamp_at].chars().count() + 1;
    if !head.stamp.contains('.') {
        return Parsed::RawClock { stamp: head.stamp, col: stamp_col() };
    }
    if head.time_s > MAX_STAMP_S {
        return Parsed::Malformed {
            col: stamp_col(),
            why: format!(
                "{}: timestamp `{}` lies past {} s (2^62 ns, 146 years), later than any clock the kernel stamps with reaches: a stamp corrupted or a clock gone wrong",
                kind.name(),
                head.stamp,
                MAX_STAMP_S.floor()
            ),
        };
    }
    match fields(kind, head.body) {
        Ok(body) => Parsed::Event(RawEvent {
            kind,
            comm: head.comm,
            pid: head.pid,
            cpu: head.cpu,
            time_s: head.time_s,
            bdi: body.bdi,
            fields: body.fields,
            perf: head.event.starts_with("writeback:"),
            wb_names: body.wb_names,
            cgroup_path: body.cgroup_path,
            cgroup: body.cgroup,
        }),
        Err((at, why)) => {
            // `at` lies in `line`: its column, in characters.
            let off = (at as usize).saturating_sub(line.as_ptr() as usize).min(line.len());
            let off = (0..=off).rev().find(|&i| line.is_char_boundary(i)).unwrap_or(0);
            Parsed::Malformed { col: line[..off].chars().count() + 1, why: format!("{}: {why}", kind.name()) }
        }
    }
}

/// The part of a line before the event's own text.
struct Head<'a> {
    comm: &'a str,
    pid: Option<u32>,
    cpu: Option<u32>,
    time_s: f64,
    /// The timestamp as printed, without its colon, and its byte offset.
    stamp: &'a str,
    stamp_at: usize,
    event: &'a str,
    body: &'a str,
}

/// Finds the timestamp (`1307.423437:`), the event name after it and the
/// task and CPU before it.
fn header(s: &str) -> Option<Head<'_>> {
    let tokens = tokens(s);
    let cpu_at = tokens.iter().position(|&(_, t)| is_cpu(t));
    let from = cpu_at.map_or(0, |i| i + 1);
    let ts_at = (from..tokens.len()).find(|&i| timestamp(tokens[i].1).is_some())?;
    let time_s = timestamp(tokens[ts_at].1)?;
    // `perf script -F ...,period,event` prints the sample period between
    // the time and the event (`1305.729780:   1 writeback:...`).
    let event_at = match tokens.get(ts_at + 1) {
        Some((_, t)) if t.bytes().all(|b| b.is_ascii_digit()) => ts_at + 2,
        _ => ts_at + 1,
    };
    let &(event_start, event_tok) = tokens.get(event_at)?;
    let event = event_tok.strip_suffix(':')?;
    let body = &s[event_start + event_tok.len()..];
    let task_end = tokens[cpu_at.unwrap_or(ts_at)].0;
    let (comm, pid) = task(s[..task_end].trim());
    let cpu = cpu_at.and_then(|i| tokens[i].1.trim_matches(['[', ']']).parse().ok());
    let (stamp_at, stamp) = tokens[ts_at];
    let stamp = stamp.strip_suffix(':').unwrap_or(stamp);
    Some(Head { comm, pid, cpu, time_s, stamp, stamp_at, event, body })
}

/// Whitespace-separated tokens with their byte offsets.
fn tokens(s: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in s.char_indices() {
        match (c.is_whitespace(), start) {
            (true, Some(b)) => {
                out.push((b, &s[b..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(b) = start {
        out.push((b, &s[b..]));
    }
    out
}

/// A frame of a call chain: an address in hex, then the symbol and, in
/// parentheses, the object it lies in (`7f3a9c2b1e40 [unknown]
/// ([unknown])`).
fn is_call_chain(s: &str) -> bool {
    let Some((addr, rest)) = s.split_once(char::is_whitespace) else { return false };
    !addr.is_empty()
        && addr.bytes().all(|b| b.is_ascii_hexdigit())
        && rest.trim_end().ends_with(')')
        && rest.contains('(')
}

/// `[001]`.
fn is_cpu(t: &str) -> bool {
    t.len() >= 3 && t.starts_with('[') && t.ends_with(']') && t[1..t.len() - 1].bytes().all(|b| b.is_ascii_digit())
}

/// The latest time a trace can stamp in seconds: 2^62 ns, 146 years. The
/// kernel counts a u64 of nanoseconds, but no clock it stamps with comes
/// near (since boot, or since 1970 for `tai`): a later stamp is a
/// corrupted line, and times in nanoseconds can be added without overflow.
const MAX_STAMP_S: f64 = (1u64 << 62) as f64 / 1e9;

/// `1307.423437:` as seconds.
fn timestamp(t: &str) -> Option<f64> {
    let n = t.strip_suffix(':')?;
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit() || b == b'.') || !n.as_bytes()[0].is_ascii_digit() {
        return None;
    }
    // A count without a decimal point is a clock's raw count (see
    // [`Parsed::RawClock`]), which may run far past [`MAX_STAMP_S`]; a
    // stamp in seconds past it is refused by [`parse`], where it shows.
    n.parse().ok().filter(|v: &f64| v.is_finite())
}

/// Splits `kworker/u8:3-21023`, `dd  1294`, `fio 500/501` or
/// `dd-1294  (1294)` into command and pid: the thread's id, as ftrace's
/// `comm-pid` is (perf script's `pid/tid` gives the process, then the
/// thread; the kernel throttles each thread on its own).
fn task(s: &str) -> (&str, Option<u32>) {
    // ftrace's tgid column: `(1294)` or `(-------)`.
    let s = match s.strip_suffix(')').and_then(|x| x.rfind('(').map(|i| (x, i))) {
        Some((x, i)) if x[i + 1..].trim().bytes().all(|b| b.is_ascii_digit() || b == b'-') => x[..i].trim_end(),
        _ => s,
    };
    if let Some(i) = s.rfind('-')
        && let Ok(pid) = s[i + 1..].parse::<u32>()
        && i > 0
    {
        return (&s[..i], Some(pid));
    }
    if let Some(i) = s.rfind(char::is_whitespace) {
        let last = &s[i + 1..];
        let pid = last.rsplit('/').next().and_then(|p| p.parse::<u32>().ok());
        if pid.is_some() {
            return (s[..i].trim_end(), pid);
        }
    }
    (s, None)
}

/// `CPU:1 [LOST 1234 EVENTS]`, `CPU:1 [1234 EVENTS DROPPED]`,
/// `CPU:1 [EVENTS DROPPED]`.
fn lost(s: &str) -> Option<Parsed<'static>> {
    let rest = s.strip_prefix("CPU:")?;
    let (cpu, note) = rest.split_once(' ')?;
    if cpu.is_empty() || !cpu.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let note = note.trim().strip_prefix('[')?.strip_suffix(']')?;
    let count = if let Some(n) = note.strip_prefix("LOST ").and_then(|n| n.strip_suffix(" EVENTS")) {
        n
    } else {
        note.strip_suffix("EVENTS DROPPED")?.trim_end()
    };
    match count {
        "" => Some(Parsed::Lost { events: None }),
        n => n.parse().ok().map(|n| Parsed::Lost { events: Some(n) }),
    }
}

fn leading_number(s: &str) -> Option<u32> {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    s[..end].parse().ok()
}

/// An event's own text, read.
struct Body<'a> {
    bdi: Option<&'a str>,
    fields: Vec<(Field, i128)>,
    /// Named as from 6.15 (`wb_setpoint`, `wb_dirty`).
    wb_names: bool,
    /// `cgroup=<path>` (4.3 on, before `cgroup_ino=`).
    cgroup_path: bool,
    /// The path of `cgroup=`: the words after it up to the next `key=`.
    cgroup: Option<&'a str>,
}

/// The bdi name and the fields of an event's text, or where (the address
/// of the byte) and why it is malformed: no `bdi NAME:` where one
/// belongs, a known field whose value is not a number, a word where a
/// field belongs, or a field every release prints missing.
fn fields(kind: EventKind, body: &str) -> Result<Body<'_>, (*const u8, String)> {
    let body = body.trim_start();
    let end_of = |t: &str| t[t.len()..].as_ptr();
    let (bdi, rest) = if kind.has_bdi() {
        let no_bdi = || (body.as_ptr(), "no `bdi NAME: ` before its fields".to_string());
        let after = body.strip_prefix("bdi ").ok_or_else(no_bdi)?;
        let end = after.find(": ").ok_or_else(no_bdi)?;
        (Some(&after[..end]), &after[end + 2..])
    } else {
        (None, body)
    };
    let mut out = Vec::with_capacity(16);
    // A word without `=` may only continue the text value of a field this
    // reader does not know (a cgroup path, say).
    let mut after_unknown = false;
    let mut wb_names = false;
    let mut cgroup_path = false;
    // Byte offsets in `rest` of the cgroup path, while it is being read.
    let mut path: Option<(usize, usize)> = None;
    let mut in_path = false;
    let at = |t: &str| t.as_ptr() as usize - rest.as_ptr() as usize;
    for token in rest.split_whitespace() {
        match token.split_once('=') {
            Some((key, value)) => match Field::lookup(kind, key) {
                Some(field) => {
                    // A kernel prints 64-bit values, signed or not: past
                    // them a value is no wrap of the kernel's arithmetic
                    // (as `pause=-4294824915` is) but a line spoilt.
                    let v = match value.parse::<i128>() {
                        Ok(v) if (i64::MIN as i128..=u64::MAX as i128).contains(&v) => v,
                        Err(e) if !matches!(e.kind(), IntErrorKind::PosOverflow | IntErrorKind::NegOverflow) => {
                            return Err((value.as_ptr(), format!("`{token}` is not a number")));
                        }
                        _ => {
                            return Err((
                                value.as_ptr(),
                                format!("`{token}` is out of range: past the 64 bits a kernel prints"),
                            ));
                        }
                    };
                    out.push((field, v));
                    wb_names |= key.starts_with("wb_");
                    after_unknown = false;
                    in_path = false;
                }
                None => {
                    in_path = key == "cgroup";
                    if in_path {
                        cgroup_path = true;
                        path = Some((at(value), at(value) + value.len()));
                    }
                    after_unknown = true;
                }
            },
            None if after_unknown => {
                if let (true, Some((_, end))) = (in_path, &mut path) {
                    *end = at(token) + token.len();
                }
            }
            None => return Err((token.as_ptr(), format!("`{token}` where a `name=value` field belongs"))),
        }
    }
    let cgroup = path.map(|(start, end)| &rest[start..end]);
    if let Some(f) = Field::of(kind).find(|&f| f.required(kind) && !out.iter().any(|(g, _)| *g == f)) {
        let names = match f.other_name() {
            Some(other) => format!("`{}=` or `{other}=`", f.name()),
            None => format!("`{}=`", f.name()),
        };
        return Err((end_of(rest.trim_end()), format!("no {names}, which every release prints (cut short?)")));
    }
    Ok(Body { bdi, fields: out, wb_names, cgroup_path, cgroup })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(line: &str) -> RawEvent<'_> {
        match parse(line) {
            Parsed::Event(e) => e,
            other => panic!("{line:?} parsed as {other:?}"),
        }
    }

    fn value(e: &RawEvent, f: Field) -> Option<i128> {
        e.fields.iter().find(|(g, _)| *g == f).map(|&(_, v)| v)
    }

    #[test]
    fn a_6_18_ftrace_line() {
        let e = event(
            "              dd-1294    [001] ...1.  1307.423437: bdi_dirty_ratelimit: bdi 254:0: write_bw=479460 awrite_bw=343308 dirty_rate=983560 dirty_ratelimit=102400 task_ratelimit=208304 balanced_dirty_ratelimit=72704 cgroup_ino=1",
        );
        assert_eq!(
            (e.kind, e.comm, e.pid, e.cpu, e.bdi),
            (EventKind::BdiDirtyRatelimit, "dd", Some(1294), Some(1), Some("254:0"))
        );
        assert_eq!(e.time_s, 1307.423437);
        assert_eq!(value(&e, Field::WriteBw), Some(479460));
        assert_eq!(value(&e, Field::BalancedDirtyRatelimit), Some(72704));
        assert_eq!(value(&e, Field::CgroupIno), Some(1));
        assert!(!e.perf);
    }

    #[test]
    fn task_names_with_dashes_spaces_and_colons() {
        let task = |head: &str| {
            let line = format!(
                "{head} global_dirty_state: dirty=1 writeback=2 bg_thresh=3 thresh=4 limit=5 dirtied=6 written=7"
            );
            let e = event(&line);
            (e.comm.to_string(), e.pid, e.bdi.is_none())
        };
        assert_eq!(task("kworker/u8:3-21023 [000] ..... 1307.673102:"), ("kworker/u8:3".into(), Some(21023), true));
        assert_eq!(task(" Web Content-3321  [003] d..1  12.5:"), ("Web Content".into(), Some(3321), true));
        assert_eq!(task("    dd-1294    (   1294) [001] .....  5.0:"), ("dd".into(), Some(1294), true));
        assert_eq!(task("           <...>-77 [000] 5.0:"), ("<...>".into(), Some(77), true));
    }

    #[test]
    fn perf_script_and_trace_cmd_lines() {
        let e = event(
            "              dd  1294 [001]  1307.423437: writeback:bdi_dirty_ratelimit: bdi 254:0: write_bw=1 awrite_bw=2 dirty_rate=3 dirty_ratelimit=4 task_ratelimit=5 balanced_dirty_ratelimit=6 cgroup_ino=1",
        );
        assert_eq!((e.comm, e.pid, e.cpu, e.perf), ("dd", Some(1294), Some(1), true));
        let e = event(
            "dd 1294/1294 2.000001: writeback:global_dirty_state: dirty=1 writeback=2 bg_thresh=3 thresh=4 limit=5 dirtied=6 written=7",
        );
        assert_eq!((e.comm, e.pid, e.cpu), ("dd", Some(1294), None));
        // perf script's pid/tid: two threads of one process are two tasks.
        let e = event(
            "             fio 500/501 [000] 100.011000: writeback:global_dirty_state: dirty=1 writeback=2 bg_thresh=3 thresh=4 limit=5 dirtied=6 written=7",
        );
        assert_eq!((e.comm, e.pid, e.cpu), ("fio", Some(501), Some(0)));
        assert_eq!(parse("cpus=4"), Parsed::Header { cpus: Some(4), tool: Some(Tool::TraceCmd) });
        let e = event(
            "              dd-3015  [002]   412.123456: balance_dirty_pages:  bdi 8:16: limit=1 setpoint=2 dirty=3 bdi_setpoint=4 bdi_dirty=5 dirty_ratelimit=6 task_ratelimit=7 dirtied=8 dirtied_pause=9 paused=0 pause=12",
        );
        assert_eq!((e.bdi, e.cpu), (Some("8:16"), Some(2)));
        // -F comm,pid,tid,cpu,time,period,event,trace: the period after the time.
        let e = event(
            "              dd   1293 [001] 1305.729780:   1 writeback:global_dirty_state: dirty=1 writeback=2 bg_thresh=3 thresh=4 limit=5 dirtied=6 written=7",
        );
        assert_eq!((e.comm, e.pid, e.time_s, e.perf), ("dd", Some(1293), 1305.72978, true));
        // perf record -g: the call chain under each event.
        assert_eq!(parse("\t    ffffffff8123abcd balance_dirty_pages+0x1ab ([kernel.kallsyms])"), Parsed::CallChain);
        assert_eq!(parse("\t        7f3a9c2b1e40 [unknown] ([unknown])"), Parsed::CallChain);
        assert_eq!(parse("\t               0 [unknown] ([unknown])"), Parsed::CallChain);
        assert_eq!(parse("dead beef"), Parsed::Unreadable);
        // A line with an event's head ending in a frame (-F
        // ...,trace,ip,sym,dso) is that event's, told where it is wrong.
        let framed = "cafe 1293 [001] 1305.729780: writeback:global_dirty_state: dirty=1 writeback=2 bg_thresh=3 thresh=4 limit=5 dirtied=6 written=7 ffffffff8123abcd balance_dirty_pages+0x1ab ([kernel.kallsyms])";
        assert!(matches!(parse(framed), Parsed::Malformed { col: 129, .. }), "{:?}", parse(framed));
    }

    #[test]
    fn counts_of_clocks_not_in_nanoseconds_are_not_read_as_seconds() {
        // trace_clock uptime (jiffies), counter, x86-tsc: `%12llu`, no decimal point.
        let gds = "global_dirty_state: dirty=1 writeback=2 bg_thresh=3 thresh=4 limit=5 dirtied=6 written=7";
        assert_eq!(
            parse(&format!("  dd-1294 [001] ..... 4295293705: {gds}")),
            Parsed::RawClock { stamp: "4295293705", col: 23 }
        );
        assert_eq!(
            parse(&format!("dd 1294 [001] 3786350188400: writeback:{gds}")),
            Parsed::RawClock { stamp: "3786350188400", col: 15 }
        );
        assert_eq!(
            parse("<idle>-0 [001] d.h1. 77: hrtimer_expire_entry: hrtimer=0x1"),
            Parsed::Other { event: "hrtimer_expire_entry" }
        );
        assert!(matches!(parse(&format!("dd-1 [001] 1307.423437123: {gds}")), Parsed::Event(_)), "ns digits");
    }

    #[test]
    fn lost_event_marks_of_ftrace_and_trace_cmd() {
        assert_eq!(parse("CPU:1 [LOST 1234 EVENTS]"), Parsed::Lost { events: Some(1234) });
        assert_eq!(parse("CPU:0 [LOST 7 EVENTS]\r\n"), Parsed::Lost { events: Some(7) });
        assert_eq!(parse("CPU:7 [204600 EVENTS DROPPED]"), Parsed::Lost { events: Some(204600) });
        assert_eq!(parse("CPU:3 [EVENTS DROPPED]"), Parsed::Lost { events: None });
        assert_eq!(
            parse("##### CPU 2 buffer started ####"),
            Parsed::Header { cpus: None, tool: Some(Tool::FtraceFile) }
        );
        assert_eq!(parse("CPU:x [LOST 1 EVENTS]"), Parsed::Unreadable);
    }

    #[test]
    fn headers_state_the_cpu_count() {
        assert_eq!(
            parse("# entries-in-buffer/entries-written: 12110/12110   #P:2"),
            Parsed::Header { cpus: Some(2), tool: None }
        );
        assert_eq!(parse("# tracer: nop"), Parsed::Header { cpus: None, tool: Some(Tool::FtraceFile) });
        assert_eq!(parse("   "), Parsed::Blank);
    }

    #[test]
    fn what_is_skipped_and_why() {
        let bdp = "dd-1 [000] 1.0: balance_dirty_pages: bdi 8:0: limit=1 setpoint=2 dirty=3 bdi_setpoint=4 bdi_dirty=5 dirty_ratelimit=6 task_ratelimit=7 dirtied=8 dirtied_pause=9 paused=0 pause=1";
        assert!(matches!(parse(bdp), Parsed::Event(_)));
        // Truncated in the middle of a field, or before a field every release prints.
        let malformed = |line: &str| match parse(line) {
            Parsed::Malformed { col, why } => format!("{col}: {why}"),
            other => panic!("{line:?} parsed as {other:?}"),
        };
        assert_eq!(
            malformed(&bdp[..bdp.len() - 4]),
            "171: balance_dirty_pages: `pau` where a `name=value` field belongs"
        );
        assert_eq!(
            malformed(&bdp[..bdp.len() - 8]),
            "170: balance_dirty_pages: no `pause=`, which every release prints (cut short?)"
        );
        assert_eq!(malformed(&bdp[..bdp.len() - 1]), "177: balance_dirty_pages: `pause=` is not a number");
        // Past 64 bits (signed or not) no kernel prints it: no wrap but out of range.
        let over = |value: &str| bdp.replacen("dirty=3", &format!("dirty={value}"), 1);
        for value in
            ["99999999999999999999999", "18446744073709551616", "-9223372036854775809", "9".repeat(50).as_str()]
        {
            assert_eq!(
                malformed(&over(value)),
                format!("72: balance_dirty_pages: `dirty={value}` is out of range: past the 64 bits a kernel prints")
            );
        }
        for value in ["18446744073709551615", "-9223372036854775808", "-4294824915"] {
            assert!(matches!(parse(&over(value)), Parsed::Event(_)), "{value}: read, then told wrapped");
        }
        assert_eq!(
            malformed("dd-1 [000] 1.0: balance_dirty_pages: bdi 8:0"),
            "38: balance_dirty_pages: no `bdi NAME: ` before its fields"
        );
        assert_eq!(
            malformed("dd-1 [000] 1.0: balance_dirty_pages: limit=x"),
            "38: balance_dirty_pages: no `bdi NAME: ` before its fields"
        );
        assert_eq!(
            malformed(
                "dd-1 [000] 1.0: global_dirty_state: dirty=1 writeback=2 bg_thresh=3 thresh=4 limit=5 dirtied=6 and"
            ),
            "96: global_dirty_state: `and` where a `name=value` field belongs"
        );
        assert_eq!(
            malformed(&bdp.replace("bdi_setpoint", "xx_setpoint")),
            "177: balance_dirty_pages: no `bdi_setpoint=` or `wb_setpoint=`, which every release prints (cut short?)"
        );
        // Other events and garbage.
        assert_eq!(
            parse("dd-1 [000] 1.0: sched_switch: prev_comm=dd prev_pid=1"),
            Parsed::Other { event: "sched_switch" }
        );
        assert_eq!(
            parse("<idle>-0 [001] d.h1. 9.5: hrtimer_expire_entry: hrtimer=0x1"),
            Parsed::Other { event: "hrtimer_expire_entry" }
        );
        assert_eq!(parse("\u{fffd}\u{fffd}garbage"), Parsed::Unreadable);
        assert_eq!(parse("dd-1 [000] 1.0:"), Parsed::Unreadable);
        // A stamp past 2^62 ns (the kernel's u64 of nanoseconds prints up
        // to 18446744073.709551): refused where it shows, not taken for
        // a line of no event.
        let gds = "global_dirty_state: dirty=1 writeback=2 bg_thresh=3 thresh=4 limit=5 dirtied=6 written=7";
        assert!(matches!(parse(&format!("dd-1 [000] 4611686018.427387: {gds}")), Parsed::Event(_)));
        for stamp in ["4611686018.427389", "18446744073.709551", "99999999999999999999.000000"] {
            assert_eq!(
                parse(&format!("dd-1 [000] {stamp}: {gds}")),
                Parsed::Malformed {
                    col: 12,
                    why: format!(
                        "global_dirty_state: timestamp `{stamp}` lies past 4611686018 s (2^62 ns, 146 years), later than any clock the kernel stamps with reaches: a stamp corrupted or a clock gone wrong"
                    )
                }
            );
        }
        assert_eq!(
            parse("dd-1 [000] 18446744073.709551: sched_switch: prev_pid=1"),
            Parsed::Other { event: "sched_switch" }
        );
    }

    #[test]
    fn unknown_fields_and_text_values_are_ignored() {
        let e = event(
            "dd-1 [000] 1.0: bdi_dirty_ratelimit: bdi 8:0: write_bw=1 awrite_bw=2 dirty_rate=3 dirty_ratelimit=4 task_ratelimit=5 balanced_dirty_ratelimit=6 cgroup=/user.slice/a b future_field=7",
        );
        assert_eq!(e.fields.len(), 6);
        assert_eq!(e.cgroup, Some("/user.slice/a b"), "a path with a space, up to the next field");
        let e = event(
            "dd-1 [000] 1.0: balance_dirty_pages: bdi 8:0: limit=1 cg_dirty_cap=9 setpoint=2 dirty=3 wb_setpoint=4 wb_dirty=5 dirty_ratelimit=6 task_ratelimit=7 dirtied=8 dirtied_pause=9 paused=0 pause=-4294824915 period=4 think=0",
        );
        assert_eq!(value(&e, Field::BdiSetpoint), Some(4));
        assert_eq!(value(&e, Field::Pause), Some(-4294824915));
    }
}
