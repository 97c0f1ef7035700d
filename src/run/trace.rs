//! The trace file (`--trace`, JSON Lines): a header line, then one line per
//! traced decision of the simulation's [`TraceEvent`]s, with the bdi
//! named. Millions of lines a minute, so they are written cheaply: each
//! straight into a buffer that keeps its size (a megabyte goes to the file
//! at a time), field names (Rust identifiers, nothing to escape) as
//! constants, integers by [`super::digits`], and each bdi's name escaped
//! once, by serde_json, not once a line. The text is what
//! `serde_json::to_writer` writes for the same record.
//!
//! Field names are the kernel's and never change (SPEC §2); a reader finds
//! fields by name, so new ones may be added.

use std::path::Path;

use serde::Serialize;

use super::digits::{put_i64, put_u64};
use crate::error::Result;
use crate::output::AtomicFile;
use crate::sim::World;
use crate::sim::trace::{BalanceDirtyPages, BdiDirtyRatelimit, TaskThrottled, TraceEvent};

/// Bytes gathered before they go to the file.
const CHUNK: usize = 1 << 17;

/// Room kept under `--max-trace-size` for the line that says the trace stopped.
const STOP_LINE_BYTES: u64 = 128;

/// Smallest `--max-trace-size` \[bytes\].
pub const MIN_MAX_TRACE_BYTES: u64 = 4096;

/// The first line of a trace: what produced it and how to read it.
#[derive(Serialize)]
pub struct Header<'a> {
    /// Always "header".
    pub event: &'static str,
    /// The version that wrote it.
    pub dirtyviz: &'static str,
    /// Jiffies per second.
    pub hz: u64,
    /// Bytes per page.
    pub page_size: u64,
    /// Seed of the random generator.
    pub seed: u64,
    /// The scenario's name.
    pub scenario: &'a str,
    /// Patches of the series applied (0: legacy).
    pub patches: u8,
    /// The kernel that patch level runs, e.g. "3.1 + v12", "3.1 + patches 01-07 of v12".
    pub kernel: String,
    /// The bdis, in the order events number them.
    pub bdis: Vec<&'a str>,
}

impl<'a> Header<'a> {
    /// The header of a trace of `world`.
    pub fn of(world: &'a World, seed: u64, scenario: &'a str) -> Header<'a> {
        Header {
            event: "header",
            dirtyviz: env!("CARGO_PKG_VERSION"),
            hz: world.hz(),
            page_size: crate::sim::kernel::PAGE_SIZE,
            seed,
            scenario,
            patches: world.patches(),
            kernel: crate::session::kernel_name(world.patches(), world.legacy()),
            bdis: world.bdis().iter().map(|b| b.name.as_str()).collect(),
        }
    }
}

/// The last line of a trace stopped by `--max-trace-size`.
#[derive(Serialize)]
struct StoppedLine {
    event: &'static str,
    jiffies: u64,
    max_trace_size: u64,
}

/// The most fields a line has.
const FIELDS: usize = 24;

/// Bytes kept of a field's text: enough for any integer, copied whole.
const TEXT: usize = 24;

/// The text of a field's last value. Most fields of a line repeat the
/// last line's (thresholds, rates, pause lengths): copying the text is
/// cheaper than writing it again.
#[derive(Clone, Copy)]
struct Recent {
    /// The value, as the bits of a `u64`.
    value: u64,
    /// Length of its text \[bytes\].
    len: usize,
    /// Its text, then filler up to [`TEXT`].
    text: [u8; TEXT],
}

impl Default for Recent {
    /// The value 0.
    fn default() -> Recent {
        let mut text = [0; TEXT];
        text[0] = b'0';
        Recent { value: 0, len: 1, text }
    }
}

/// The last values of each field of one kind of line.
type Recents = [Recent; FIELDS];

/// A value of a trace line's field: an integer, or a bdi name already
/// written as a JSON string.
trait Field: Copy {
    /// The value as the bits of a `u64` (one type per field).
    fn bits(self) -> u64;

    /// Writes the value's text at `out[at..]`; returns where it ends.
    fn text(self, out: &mut [u8], at: usize) -> usize;

    /// Writes the value at `out[at..at + TEXT]` (the filler after it is
    /// overwritten by what follows); returns where it ends. `recent` is
    /// this field's last value, which it becomes.
    #[inline(always)]
    fn put(self, recent: &mut Recent, out: &mut [u8], at: usize) -> usize {
        if recent.value != self.bits() {
            recent.value = self.bits();
            recent.len = self.text(&mut recent.text, 0);
        }
        out[at..at + TEXT].copy_from_slice(&recent.text);
        at + recent.len
    }
}

impl Field for u64 {
    fn bits(self) -> u64 {
        self
    }

    fn text(self, out: &mut [u8], at: usize) -> usize {
        put_u64(out, at, self)
    }
}

impl Field for u32 {
    fn bits(self) -> u64 {
        u64::from(self)
    }

    fn text(self, out: &mut [u8], at: usize) -> usize {
        put_u64(out, at, u64::from(self))
    }
}

impl Field for i64 {
    fn bits(self) -> u64 {
        self as u64
    }

    fn text(self, out: &mut [u8], at: usize) -> usize {
        put_i64(out, at, self)
    }
}

impl Field for i32 {
    fn bits(self) -> u64 {
        i64::from(self) as u64
    }

    fn text(self, out: &mut [u8], at: usize) -> usize {
        put_i64(out, at, i64::from(self))
    }
}

/// A name as a JSON string, quotes included.
#[derive(Clone, Copy)]
struct Quoted<'a>(&'a [u8]);

impl Field for Quoted<'_> {
    fn bits(self) -> u64 {
        0
    }

    fn text(self, out: &mut [u8], at: usize) -> usize {
        put_bytes(out, at, self.0)
    }

    #[inline(always)]
    fn put(self, _: &mut Recent, out: &mut [u8], at: usize) -> usize {
        put_bytes(out, at, self.0)
    }
}

/// Writes `bytes` at `out[at..]`; returns where they end.
#[inline(always)]
fn put_bytes(out: &mut [u8], at: usize, bytes: &[u8]) -> usize {
    out[at..at + bytes.len()].copy_from_slice(bytes);
    at + bytes.len()
}

/// Writes one trace line, `{"event":"NAME","field":value,...}` and a line
/// feed, at `$out[$at..]` and gives where it ends; `$recent` holds the
/// fields' last values, in order. Field names are Rust identifiers
/// (nothing to escape), written with their `,"` and `":` as one constant
/// each.
macro_rules! line {
    ($out:expr, $at:expr, $recent:expr, $event:literal, $first:ident: $value:expr $(, $field:ident: $v:expr)* $(,)?) => {{
        let out: &mut [u8] = $out;
        let mut recent = $recent.iter_mut();
        let mut slot = || recent.next().expect("a line has at most FIELDS fields");
        let at = put_bytes(out, $at, concat!("{\"event\":\"", $event, "\",\"", stringify!($first), "\":").as_bytes());
        let at = Field::put($value, slot(), out, at);
        $(
            let at = put_bytes(out, at, concat!(",\"", stringify!($field), "\":").as_bytes());
            let at = Field::put($v, slot(), out, at);
        )*
        put_bytes(out, at, b"}\n")
    }};
}

/// Room for the longest line but its bdi name: the names of its fields
/// and [`FIELDS`] values of [`TEXT`] bytes \[bytes\].
const MAX_LINE_BYTES: usize = 512 + FIELDS * TEXT;

/// `balance_dirty_pages`: one loop iteration past the freerun check.
fn bdp(out: &mut [u8], at: usize, recent: &mut Recents, r: &BalanceDirtyPages, bdi: Quoted) -> usize {
    let p = &r.position;
    line!(out, at, recent, "balance_dirty_pages",
        jiffies: r.jiffies,
        task: r.task,
        bdi: bdi,
        thresh: p.thresh,
        bg_thresh: p.bg_thresh,
        limit: p.limit,
        freerun: r.freerun,
        setpoint: r.setpoint,
        dirty: p.dirty,
        bdi_thresh: p.bdi_thresh,
        bdi_dirty: p.bdi_dirty,
        bdi_setpoint: r.bdi_setpoint,
        write_bw: p.write_bw,
        dirty_ratelimit: r.dirty_ratelimit,
        pos_ratio: r.pos_ratio,
        task_ratelimit: r.task_ratelimit,
        pages_dirtied: r.pages_dirtied,
        nr_dirtied_pause_before: r.nr_dirtied_pause_before,
        nr_dirtied_pause: r.nr_dirtied_pause,
        max_pause: r.max_pause,
        pause: r.pause,
        iteration: r.iteration,
    )
}

/// `bdi_dirty_ratelimit`: one rate update.
fn ratelimit(out: &mut [u8], at: usize, recent: &mut Recents, r: &BdiDirtyRatelimit, bdi: Quoted) -> usize {
    line!(out, at, recent, "bdi_dirty_ratelimit",
        jiffies: r.jiffies,
        bdi: bdi,
        thresh: r.thresh,
        bg_thresh: r.bg_thresh,
        limit: r.limit,
        dirty: r.dirty,
        bdi_thresh: r.bdi_thresh,
        bdi_dirty: r.bdi_dirty,
        write_bw: r.write_bw,
        dirtied: r.dirtied,
        elapsed: r.elapsed,
        dirty_rate: r.dirty_rate,
        pos_ratio: r.pos_ratio,
        task_ratelimit: r.task_ratelimit,
        balanced_dirty_ratelimit: r.balanced_dirty_ratelimit,
        prev_balanced_dirty_ratelimit: r.prev_balanced_dirty_ratelimit,
        dirty_ratelimit_before: r.dirty_ratelimit_before,
        dirty_ratelimit: r.dirty_ratelimit,
    )
}

/// `task_throttled`: one throttling call that blocked.
fn throttled(out: &mut [u8], at: usize, recent: &mut Recents, r: &TaskThrottled, bdi: Quoted) -> usize {
    line!(out, at, recent, "task_throttled",
        jiffies: r.jiffies,
        task: r.task,
        bdi: bdi,
        duration: r.duration,
        pages_dirtied: r.pages_dirtied,
        pages_written: r.pages_written,
    )
}

/// Writes a trace file: [`TraceFile::header`] first, then events.
pub struct TraceFile {
    out: AtomicFile,
    /// Lines not yet handed to the file are `buf[..len]`; the rest is room
    /// for more. It keeps its size: lines are written into it in place.
    buf: Vec<u8>,
    len: usize,
    /// Bytes handed to the file so far.
    written: u64,
    /// `--max-trace-size` \[bytes\].
    cap: Option<u64>,
    /// The trace reached its cap at this jiffy and takes no more events.
    stopped_at: Option<u64>,
    /// The bdi names of the last events, and each as a JSON string.
    names: Vec<String>,
    quoted: Vec<Vec<u8>>,
    /// The last values of the fields of each kind of line.
    recent: Box<[Recents; 3]>,
}

impl TraceFile {
    /// Starts a trace at `path`, stopping before it grows past `cap` bytes.
    pub fn create(path: &Path, cap: Option<u64>) -> Result<TraceFile> {
        Ok(TraceFile {
            out: AtomicFile::create(path)?,
            buf: vec![0; CHUNK + MAX_LINE_BYTES],
            len: 0,
            written: 0,
            cap,
            stopped_at: None,
            names: Vec::new(),
            quoted: Vec::new(),
            recent: Box::new([[Recent::default(); FIELDS]; 3]),
        })
    }

    /// The path as the user gave it.
    pub fn path(&self) -> &Path {
        self.out.path()
    }

    /// Bytes of trace so far.
    pub fn bytes(&self) -> u64 {
        self.written + self.len as u64
    }

    /// The jiffy at which `--max-trace-size` stopped the trace, if it did.
    pub fn stopped_at(&self) -> Option<u64> {
        self.stopped_at
    }

    /// Writes the first line.
    pub fn header(&mut self, header: &Header) -> Result<()> {
        let mut text = serde_json::to_vec(header).expect("a header is plain data");
        text.push(b'\n');
        self.push(&text)
    }

    /// Writes the header line `line` (no newline) of another world, whose
    /// first event is at `jiffies`: nothing once the trace stopped, and
    /// the line saying it stopped instead when the header would take it
    /// past `--max-trace-size`.
    pub fn header_line(&mut self, line: &str, jiffies: u64) -> Result<()> {
        if self.stopped_at.is_some() {
            return Ok(());
        }
        let mut text = Vec::with_capacity(line.len() + 1);
        text.extend_from_slice(line.as_bytes());
        text.push(b'\n');
        if self.len + text.len() > self.buf.len() {
            self.drain()?;
        }
        let start = self.len;
        self.push(&text)?;
        self.check_cap(start, jiffies)
    }

    /// Appends `text` to the lines not yet written.
    fn push(&mut self, text: &[u8]) -> Result<()> {
        if self.len + text.len() > self.buf.len() {
            self.drain()?;
        }
        if text.len() > self.buf.len() {
            self.written += text.len() as u64;
            return self.out.put(text);
        }
        self.buf[self.len..self.len + text.len()].copy_from_slice(text);
        self.len += text.len();
        Ok(())
    }

    /// Writes `events`, their bdis named from `bdis`.
    pub fn events(&mut self, events: &[TraceEvent], bdis: &[String]) -> Result<()> {
        if self.names != bdis {
            self.names = bdis.to_vec();
            self.quoted = bdis.iter().map(|n| serde_json::to_vec(n).expect("a string")).collect();
        }
        let quoted = std::mem::take(&mut self.quoted);
        let result = self.write_events(events, &quoted);
        self.quoted = quoted;
        result
    }

    fn write_events(&mut self, events: &[TraceEvent], quoted: &[Vec<u8>]) -> Result<()> {
        let name = |i: u32| Quoted(quoted.get(i as usize).map_or(b"\"?\"", Vec::as_slice));
        let longest_name = quoted.iter().map(Vec::len).max().unwrap_or(0).max(3);
        if self.buf.len() < CHUNK + MAX_LINE_BYTES + longest_name {
            self.drain()?;
            self.buf.resize(CHUNK + MAX_LINE_BYTES + longest_name, 0);
        }
        for e in events {
            if self.stopped_at.is_some() {
                break;
            }
            let start = self.len;
            let [b, u, t] = &mut *self.recent;
            let (end, jiffies) = match e {
                TraceEvent::BalanceDirtyPages(r) => (bdp(&mut self.buf, start, b, r, name(r.bdi)), r.jiffies),
                TraceEvent::BdiDirtyRatelimit(r) => (ratelimit(&mut self.buf, start, u, r, name(r.bdi)), r.jiffies),
                TraceEvent::TaskThrottled(r) => (throttled(&mut self.buf, start, t, r, name(r.bdi)), r.jiffies),
            };
            self.len = end;
            self.check_cap(start, jiffies)?;
            if self.len >= CHUNK {
                self.drain()?;
            }
        }
        Ok(())
    }

    /// Past the cap, replaces the line that starts at `start` with one
    /// saying the trace stopped.
    fn check_cap(&mut self, start: usize, jiffies: u64) -> Result<()> {
        if let Some(cap) = self.cap
            && self.bytes() + STOP_LINE_BYTES > cap
        {
            self.len = start;
            let stop = StoppedLine { event: "trace_stopped", jiffies, max_trace_size: cap };
            let mut text = serde_json::to_vec(&stop).expect("numbers");
            text.push(b'\n');
            self.push(&text)?;
            self.stopped_at = Some(jiffies);
        }
        Ok(())
    }

    fn drain(&mut self) -> Result<()> {
        self.out.put(&self.buf[..self.len])?;
        self.written += self.len as u64;
        self.len = 0;
        Ok(())
    }

    /// Writes what is buffered (the file is still not in place).
    pub fn flush(&mut self) -> Result<()> {
        self.drain()?;
        self.out.flush()
    }

    /// Completes the trace: it replaces the file at its path.
    pub fn commit(self) -> Result<()> {
        self.into_output()?.commit()
    }

    /// The file with every line handed to it, to commit with other outputs.
    pub fn into_output(mut self) -> Result<AtomicFile> {
        self.drain()?;
        Ok(self.out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scratch::Scratch;
    use crate::sim::page_writeback::PositionInputs;

    fn throttle(jiffies: u64) -> TraceEvent {
        TraceEvent::TaskThrottled(TaskThrottled {
            jiffies,
            task: 3,
            bdi: 0,
            duration: 40,
            pages_dirtied: 32,
            pages_written: 0,
        })
    }

    #[test]
    fn names_are_escaped_and_fields_keep_their_names() {
        let dir = Scratch::new("trace");
        let path = dir.join("t.jsonl");
        let mut t = TraceFile::create(&path, None).expect("create");
        t.events(&[throttle(7)], &["sd\"a,b\\".to_string()]).expect("events");
        t.commit().expect("commit");
        let text = std::fs::read_to_string(&path).expect("read");
        assert_eq!(
            text,
            "{\"event\":\"task_throttled\",\"jiffies\":7,\"task\":3,\"bdi\":\"sd\\\"a,b\\\\\",\"duration\":40,\"pages_dirtied\":32,\"pages_written\":0}\n"
        );
        let v: serde_json::Value = serde_json::from_str(text.trim_end()).expect("JSON");
        assert_eq!(v["bdi"], "sd\"a,b\\");
    }

    /// The text of `events` as a trace writes them, bdi 0 named `name`.
    fn lines(events: &[TraceEvent], name: &str) -> String {
        let dir = Scratch::new("trace-lines");
        let path = dir.join("t.jsonl");
        let mut t = TraceFile::create(&path, None).expect("create");
        t.events(events, &[name.to_string()]).expect("events");
        t.commit().expect("commit");
        std::fs::read_to_string(&path).expect("read")
    }

    #[test]
    fn every_field_is_written_in_order_with_its_value() {
        let position = PositionInputs {
            thresh: 3,
            bg_thresh: 4,
            limit: u64::MAX,
            dirty: 7,
            bdi_thresh: 8,
            bdi_dirty: 9,
            write_bw: 11,
        };
        let bdp = BalanceDirtyPages {
            jiffies: 1,
            task: u32::MAX,
            bdi: 0,
            position,
            freerun: 5,
            setpoint: 6,
            bdi_setpoint: 10,
            dirty_ratelimit: 12,
            pos_ratio: 13,
            task_ratelimit: 14,
            pages_dirtied: 15,
            nr_dirtied_pause_before: -16,
            nr_dirtied_pause: i32::MIN,
            max_pause: i64::MAX,
            pause: i64::MIN,
            iteration: 0,
        };
        let rate = BdiDirtyRatelimit {
            jiffies: 100,
            bdi: 7, // no such bdi: named "?"
            thresh: 1,
            bg_thresh: 2,
            limit: 3,
            dirty: 4,
            bdi_thresh: 5,
            bdi_dirty: 6,
            write_bw: 7,
            dirtied: 8,
            elapsed: 9,
            dirty_rate: 10,
            pos_ratio: 1024,
            task_ratelimit: 12,
            balanced_dirty_ratelimit: 13,
            prev_balanced_dirty_ratelimit: 14,
            dirty_ratelimit_before: 15,
            dirty_ratelimit: 99_999_999_999,
        };
        let text = lines(
            &[TraceEvent::BalanceDirtyPages(bdp), TraceEvent::BdiDirtyRatelimit(rate), throttle(9)],
            "sd\"a\u{1}\\",
        );
        let expected = [
            "{\"event\":\"balance_dirty_pages\",\"jiffies\":1,\"task\":4294967295,\"bdi\":\"sd\\\"a\\u0001\\\\\",\
             \"thresh\":3,\"bg_thresh\":4,\"limit\":18446744073709551615,\"freerun\":5,\"setpoint\":6,\"dirty\":7,\
             \"bdi_thresh\":8,\"bdi_dirty\":9,\"bdi_setpoint\":10,\"write_bw\":11,\"dirty_ratelimit\":12,\
             \"pos_ratio\":13,\"task_ratelimit\":14,\"pages_dirtied\":15,\"nr_dirtied_pause_before\":-16,\
             \"nr_dirtied_pause\":-2147483648,\"max_pause\":9223372036854775807,\"pause\":-9223372036854775808,\
             \"iteration\":0}",
            "{\"event\":\"bdi_dirty_ratelimit\",\"jiffies\":100,\"bdi\":\"?\",\"thresh\":1,\"bg_thresh\":2,\
             \"limit\":3,\"dirty\":4,\"bdi_thresh\":5,\"bdi_dirty\":6,\"write_bw\":7,\"dirtied\":8,\"elapsed\":9,\
             \"dirty_rate\":10,\"pos_ratio\":1024,\"task_ratelimit\":12,\"balanced_dirty_ratelimit\":13,\
             \"prev_balanced_dirty_ratelimit\":14,\"dirty_ratelimit_before\":15,\"dirty_ratelimit\":99999999999}",
            "{\"event\":\"task_throttled\",\"jiffies\":9,\"task\":3,\"bdi\":\"sd\\\"a\\u0001\\\\\",\"duration\":40,\
             \"pages_dirtied\":32,\"pages_written\":0}",
        ];
        assert_eq!(text.lines().collect::<Vec<_>>(), expected);
        for line in text.lines() {
            let v: serde_json::Value = serde_json::from_str(line).expect("every line is JSON");
            assert_eq!(serde_json::to_string(&v).expect("json").len(), line.len(), "nothing but the fields: {line}");
        }
    }

    #[test]
    fn a_capped_trace_ends_with_a_line_saying_so() {
        let dir = Scratch::new("trace-cap");
        let path = dir.join("t.jsonl");
        let mut t = TraceFile::create(&path, Some(MIN_MAX_TRACE_BYTES)).expect("create");
        let events: Vec<TraceEvent> = (0..1000).map(throttle).collect();
        t.events(&events, &["sda".to_string()]).expect("events");
        let stopped = t.stopped_at().expect("stopped");
        t.commit().expect("commit");
        let text = std::fs::read_to_string(&path).expect("read");
        assert!(text.len() as u64 <= MIN_MAX_TRACE_BYTES, "{} bytes", text.len());
        let last: serde_json::Value = serde_json::from_str(text.lines().last().expect("lines")).expect("JSON");
        assert_eq!(last["event"], "trace_stopped");
        assert_eq!(last["jiffies"], stopped);
        for line in text.lines() {
            serde_json::from_str::<serde_json::Value>(line).expect("every line is JSON");
        }
    }
}
