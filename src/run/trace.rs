//! The trace file (`--trace`, JSON Lines): a header line, then one line per
//! traced decision, each a [`serde::Serialize`] view of the simulation's
//! [`TraceEvent`] with the bdi named. Lines are serialised into one reused
//! buffer that goes to the file a megabyte at a time.
//!
//! Event lines are flat records of integers and one string, written by
//! [`LineSerializer`]: field names (Rust identifiers, nothing to escape)
//! go out as they are, integers through `itoa`, strings escaped by
//! serde_json. It makes a trace line three times faster than
//! `serde_json::to_writer`, which escapes every field name.
//!
//! Field names are the kernel's and never change (SPEC §2); a reader finds
//! fields by name, so new ones may be added.

use std::path::Path;

use serde::Serialize;

use crate::error::Result;
use crate::output::AtomicFile;
use crate::sim::World;
use crate::sim::trace::{BalanceDirtyPages, BdiDirtyRatelimit, TaskThrottled, TraceEvent};

/// Bytes gathered before they go to the file.
const CHUNK: usize = 1 << 20;

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
    /// The kernel that patch level runs, e.g. "3.2", "3.1 + patches 01-07 of v12".
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

/// `balance_dirty_pages`: one loop iteration past the freerun check.
#[derive(Serialize)]
struct BdpLine<'a> {
    event: &'static str,
    jiffies: u64,
    task: u32,
    bdi: &'a str,
    thresh: u64,
    bg_thresh: u64,
    limit: u64,
    freerun: u64,
    setpoint: u64,
    dirty: u64,
    bdi_thresh: u64,
    bdi_dirty: u64,
    bdi_setpoint: u64,
    write_bw: u64,
    dirty_ratelimit: u64,
    pos_ratio: u64,
    task_ratelimit: u64,
    pages_dirtied: u64,
    nr_dirtied_pause_before: i32,
    nr_dirtied_pause: i32,
    max_pause: i64,
    pause: i64,
    iteration: u32,
}

/// `bdi_dirty_ratelimit`: one rate update.
#[derive(Serialize)]
struct RatelimitLine<'a> {
    event: &'static str,
    jiffies: u64,
    bdi: &'a str,
    thresh: u64,
    bg_thresh: u64,
    limit: u64,
    dirty: u64,
    bdi_thresh: u64,
    bdi_dirty: u64,
    write_bw: u64,
    dirtied: u64,
    elapsed: u64,
    dirty_rate: u64,
    pos_ratio: u64,
    task_ratelimit: u64,
    balanced_dirty_ratelimit: u64,
    prev_balanced_dirty_ratelimit: u64,
    dirty_ratelimit_before: u64,
    dirty_ratelimit: u64,
}

/// `task_throttled`: one throttling call that blocked.
#[derive(Serialize)]
struct ThrottledLine<'a> {
    event: &'static str,
    jiffies: u64,
    task: u32,
    bdi: &'a str,
    duration: u64,
    pages_dirtied: u64,
    pages_written: u64,
}

/// The last line of a trace stopped by `--max-trace-size`.
#[derive(Serialize)]
struct StoppedLine {
    event: &'static str,
    jiffies: u64,
    max_trace_size: u64,
}

fn bdp<'a>(r: &BalanceDirtyPages, bdi: &'a str) -> BdpLine<'a> {
    BdpLine {
        event: "balance_dirty_pages",
        jiffies: r.jiffies,
        task: r.task,
        bdi,
        thresh: r.position.thresh,
        bg_thresh: r.position.bg_thresh,
        limit: r.position.limit,
        freerun: r.freerun,
        setpoint: r.setpoint,
        dirty: r.position.dirty,
        bdi_thresh: r.position.bdi_thresh,
        bdi_dirty: r.position.bdi_dirty,
        bdi_setpoint: r.bdi_setpoint,
        write_bw: r.position.write_bw,
        dirty_ratelimit: r.dirty_ratelimit,
        pos_ratio: r.pos_ratio,
        task_ratelimit: r.task_ratelimit,
        pages_dirtied: r.pages_dirtied,
        nr_dirtied_pause_before: r.nr_dirtied_pause_before,
        nr_dirtied_pause: r.nr_dirtied_pause,
        max_pause: r.max_pause,
        pause: r.pause,
        iteration: r.iteration,
    }
}

fn ratelimit<'a>(r: &BdiDirtyRatelimit, bdi: &'a str) -> RatelimitLine<'a> {
    RatelimitLine {
        event: "bdi_dirty_ratelimit",
        jiffies: r.jiffies,
        bdi,
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
    }
}

fn throttled<'a>(r: &TaskThrottled, bdi: &'a str) -> ThrottledLine<'a> {
    ThrottledLine {
        event: "task_throttled",
        jiffies: r.jiffies,
        task: r.task,
        bdi,
        duration: r.duration,
        pages_dirtied: r.pages_dirtied,
        pages_written: r.pages_written,
    }
}

/// Writes a trace file: [`TraceFile::header`] first, then events.
pub struct TraceFile {
    out: AtomicFile,
    /// Serialised lines not yet handed to the file.
    buf: Vec<u8>,
    /// Bytes handed to the file so far.
    written: u64,
    /// `--max-trace-size` \[bytes\].
    cap: Option<u64>,
    /// The trace reached its cap at this jiffy and takes no more events.
    stopped_at: Option<u64>,
}

impl TraceFile {
    /// Starts a trace at `path`, stopping before it grows past `cap` bytes.
    pub fn create(path: &Path, cap: Option<u64>) -> Result<TraceFile> {
        Ok(TraceFile {
            out: AtomicFile::create(path)?,
            buf: Vec::with_capacity(CHUNK + 4096),
            written: 0,
            cap,
            stopped_at: None,
        })
    }

    /// The path as the user gave it.
    pub fn path(&self) -> &Path {
        self.out.path()
    }

    /// Bytes of trace so far.
    pub fn bytes(&self) -> u64 {
        self.written + self.buf.len() as u64
    }

    /// The jiffy at which `--max-trace-size` stopped the trace, if it did.
    pub fn stopped_at(&self) -> Option<u64> {
        self.stopped_at
    }

    /// Writes the first line.
    pub fn header(&mut self, header: &Header) -> Result<()> {
        serde_json::to_writer(&mut self.buf, header).expect("a header is plain data");
        self.buf.push(b'\n');
        Ok(())
    }

    /// Writes `events`, their bdis named from `bdis`.
    pub fn events(&mut self, events: &[TraceEvent], bdis: &[String]) -> Result<()> {
        let name = |i: u32| bdis.get(i as usize).map_or("?", String::as_str);
        for e in events {
            if self.stopped_at.is_some() {
                break;
            }
            match e {
                TraceEvent::BalanceDirtyPages(r) => self.line(&bdp(r, name(r.bdi)), r.jiffies)?,
                TraceEvent::BdiDirtyRatelimit(r) => self.line(&ratelimit(r, name(r.bdi)), r.jiffies)?,
                TraceEvent::TaskThrottled(r) => self.line(&throttled(r, name(r.bdi)), r.jiffies)?,
            }
        }
        Ok(())
    }

    /// Serialises one line into the buffer; past the cap, ends the trace
    /// with a line saying so instead.
    fn line(&mut self, value: &impl Serialize, jiffies: u64) -> Result<()> {
        let start = self.buf.len();
        value.serialize(LineSerializer(&mut self.buf)).expect("trace lines are flat records of numbers and strings");
        self.buf.push(b'\n');
        if let Some(cap) = self.cap
            && self.bytes() + STOP_LINE_BYTES > cap
        {
            self.buf.truncate(start);
            let stop = StoppedLine { event: "trace_stopped", jiffies, max_trace_size: cap };
            serde_json::to_writer(&mut self.buf, &stop).expect("numbers");
            self.buf.push(b'\n');
            self.stopped_at = Some(jiffies);
        }
        if self.buf.len() >= CHUNK {
            self.drain()?;
        }
        Ok(())
    }

    fn drain(&mut self) -> Result<()> {
        self.out.put(&self.buf)?;
        self.written += self.buf.len() as u64;
        self.buf.clear();
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

/// Serialises a flat record (a struct of integers and strings) as one
/// JSON object into a buffer; anything else is an error.
pub struct LineSerializer<'a>(pub &'a mut Vec<u8>);

/// The fields of a record being serialised.
pub struct LineFields<'a> {
    buf: &'a mut Vec<u8>,
    first: bool,
}

/// What a record's field cannot be.
fn not_flat<T>() -> std::result::Result<T, serde_json::Error> {
    Err(serde::ser::Error::custom("a trace line holds only integers and strings"))
}

macro_rules! integers {
    ($($method:ident: $t:ty),*) => {$(
        fn $method(self, v: $t) -> std::result::Result<(), serde_json::Error> {
            self.0.extend_from_slice(itoa::Buffer::new().format(v).as_bytes());
            Ok(())
        }
    )*};
}

macro_rules! refused {
    ($($method:ident($($arg:ty),*)),*) => {$(
        fn $method(self, $(_: $arg),*) -> std::result::Result<(), serde_json::Error> {
            not_flat()
        }
    )*};
}

impl<'a> serde::Serializer for LineSerializer<'a> {
    type Ok = ();
    type Error = serde_json::Error;
    type SerializeSeq = serde::ser::Impossible<(), serde_json::Error>;
    type SerializeTuple = serde::ser::Impossible<(), serde_json::Error>;
    type SerializeTupleStruct = serde::ser::Impossible<(), serde_json::Error>;
    type SerializeTupleVariant = serde::ser::Impossible<(), serde_json::Error>;
    type SerializeMap = serde::ser::Impossible<(), serde_json::Error>;
    type SerializeStruct = LineFields<'a>;
    type SerializeStructVariant = serde::ser::Impossible<(), serde_json::Error>;

    integers!(serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64,
              serialize_u8: u8, serialize_u16: u16, serialize_u32: u32, serialize_u64: u64);
    refused!(
        serialize_bool(bool),
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_char(char),
        serialize_bytes(&[u8]),
        serialize_none(),
        serialize_unit(),
        serialize_unit_struct(&'static str),
        serialize_unit_variant(&'static str, u32, &'static str)
    );

    fn serialize_str(self, v: &str) -> std::result::Result<(), serde_json::Error> {
        serde_json::to_writer(&mut *self.0, v)
    }

    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> std::result::Result<(), serde_json::Error> {
        not_flat()
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> std::result::Result<(), serde_json::Error> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> std::result::Result<(), serde_json::Error> {
        not_flat()
    }

    fn serialize_seq(self, _: Option<usize>) -> std::result::Result<Self::SerializeSeq, serde_json::Error> {
        not_flat()
    }

    fn serialize_tuple(self, _: usize) -> std::result::Result<Self::SerializeTuple, serde_json::Error> {
        not_flat()
    }

    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> std::result::Result<Self::SerializeTupleStruct, serde_json::Error> {
        not_flat()
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> std::result::Result<Self::SerializeTupleVariant, serde_json::Error> {
        not_flat()
    }

    fn serialize_map(self, _: Option<usize>) -> std::result::Result<Self::SerializeMap, serde_json::Error> {
        not_flat()
    }

    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> std::result::Result<Self::SerializeStruct, serde_json::Error> {
        self.0.push(b'{');
        Ok(LineFields { buf: self.0, first: true })
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> std::result::Result<Self::SerializeStructVariant, serde_json::Error> {
        not_flat()
    }
}

impl serde::ser::SerializeStruct for LineFields<'_> {
    type Ok = ();
    type Error = serde_json::Error;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> std::result::Result<(), serde_json::Error> {
        debug_assert!(key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'), "field `{key}` needs escaping");
        if !self.first {
            self.buf.push(b',');
        }
        self.first = false;
        self.buf.push(b'"');
        self.buf.extend_from_slice(key.as_bytes());
        self.buf.extend_from_slice(b"\":");
        value.serialize(LineSerializer(self.buf))
    }

    fn end(self) -> std::result::Result<(), serde_json::Error> {
        self.buf.push(b'}');
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
        let dir = std::env::temp_dir().join(format!("dirtyviz-trace-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
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

    #[test]
    fn lines_are_what_serde_json_writes() {
        let names = ["sd\"a,b\\".to_string()];
        let events = [
            throttle(9),
            TraceEvent::BalanceDirtyPages(BalanceDirtyPages {
                jiffies: 1,
                task: 2,
                bdi: 0,
                position: PositionInputs {
                    thresh: 3,
                    bg_thresh: 4,
                    limit: u64::MAX,
                    dirty: 7,
                    bdi_thresh: 8,
                    bdi_dirty: 9,
                    write_bw: 11,
                },
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
                pause: -1,
                iteration: 0,
            }),
        ];
        for e in &events {
            let mut fast = Vec::new();
            let mut reference = Vec::new();
            match e {
                TraceEvent::BalanceDirtyPages(r) => {
                    bdp(r, &names[0]).serialize(LineSerializer(&mut fast)).expect("flat");
                    serde_json::to_writer(&mut reference, &bdp(r, &names[0])).expect("json");
                }
                TraceEvent::TaskThrottled(r) => {
                    throttled(r, &names[0]).serialize(LineSerializer(&mut fast)).expect("flat");
                    serde_json::to_writer(&mut reference, &throttled(r, &names[0])).expect("json");
                }
                TraceEvent::BdiDirtyRatelimit(_) => unreachable!(),
            }
            assert_eq!(String::from_utf8(fast).expect("utf-8"), String::from_utf8(reference).expect("utf-8"));
        }
        assert!(1.5f64.serialize(LineSerializer(&mut Vec::new())).is_err());
    }

    #[test]
    fn a_capped_trace_ends_with_a_line_saying_so() {
        let dir = std::env::temp_dir().join(format!("dirtyviz-trace-cap-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
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
