//! The real kernel beside the model: reading the writeback tracepoints a
//! Linux kernel (3.2 and later) writes while it throttles dirtiers, and
//! turning them into the quantities the simulation charts.
//!
//! ```text
//!  trace file, `-`,      ┌────────┐ lines ┌─────────┐ events ┌────────────┐  summary JSON / text
//!  or trace_pipe (live) ─┤ reader ├──────►│ decoder ├───────►│ summarizer ├─► (per bdi: counts, medians,
//!                        └────────┘       │ (line:  │        └────────────┘   limits, pauses, tasks)
//!                                         │ fields  │        ┌────────────┐
//!                                         │ by name)├───────►│   series   ├─► CSV, charts: rows per
//!                                         └─────────┘        └────────────┘   100 ms on the trace clock
//!                                                           fit: scenario ─► headless run ─► side by side
//! ```
//!
//! - [`event`]: the three tracepoints, their fields, names and units by release.
//! - [`line`](mod@line): one line taken apart (ftrace, trace-cmd report, perf script).
//! - [`reader`]: lines to events, counting what is skipped.
//! - [`summary`], [`series`]: what the events add up to.
//! - [`fit`]: the scenario a trace implies, run beside it.
//! - [`side`]: a trace as the dashboard shows it, up to a playhead.
//! - [`live`]: the running kernel's trace_pipe, restoring tracefs on exit.
//! - [`command`], [`cli`]: `dirtyviz view` and `dirtyviz live`.

pub mod cli;
pub mod command;
pub mod event;
pub mod fit;
pub mod line;
pub mod live;
pub mod reader;
pub mod series;
pub mod side;
pub mod stats;
pub mod summary;

use std::fs::File;
use std::io::{BufRead, Write};
use std::path::Path;
use std::sync::Arc;

use reader::{Decoder, read_all};
use series::Series;
use summary::{Summarizer, TraceSummary};

pub use crate::error::Error;
use crate::output::AtomicFile;
use crate::run::progress::{Loading, Reading};

/// A trace read: its summary, the reader's names and counts, and the
/// series when asked for.
#[derive(Debug)]
pub struct Analysis {
    pub summary: TraceSummary,
    pub decoder: Decoder,
    pub series: Option<Series>,
}

/// Consumes events as they are read: the summary always, the series when
/// wanted. Used by `view` on a file and by `live` on trace_pipe.
#[derive(Debug, Default)]
pub struct Collector {
    pub decoder: Decoder,
    summarizer: Summarizer,
    series: Option<Series>,
    /// Lines fed one at a time (live): events handed on as read, a step
    /// back of more than a second a new stretch.
    window: reader::Reorder,
}

impl Collector {
    /// A collector; `series` keeps the rows (for a CSV or charts).
    pub fn new(series: bool) -> Collector {
        Collector { series: series.then(|| Series::new(false)), ..Collector::default() }
    }

    /// A collector for the dashboard: the rows and every pause.
    pub fn for_charts() -> Collector {
        Collector { series: Some(Series::new(true)), ..Collector::default() }
    }

    /// Reads one line.
    pub fn line(&mut self, text: &str) {
        if let Some(e) = self.decoder.line(text) {
            let st = &mut self.decoder.stats;
            let line = st.lines;
            self.window.push(e, st, line);
            while let Some(e) = self.window.pop(&mut self.decoder.stats) {
                self.summarizer.add(&e);
                if let Some(s) = &mut self.series {
                    s.add(&e);
                }
            }
        }
    }

    /// Reads every line of `input`.
    pub fn read(&mut self, input: impl BufRead) -> std::io::Result<()> {
        let Collector { decoder, summarizer, series, .. } = self;
        read_all(input, decoder, |e, _| {
            summarizer.add(e);
            if let Some(s) = series.as_mut() {
                s.add(e);
            }
        })
    }

    /// The rows so far, when kept.
    pub fn series(&self) -> Option<&Series> {
        self.series.as_ref()
    }

    /// The rows so far, to forget the oldest of.
    pub fn series_mut(&mut self) -> Option<&mut Series> {
        self.series.as_mut()
    }

    /// An error naming `source` when nothing read was a writeback event.
    pub fn check(&self, source: &str) -> Result<(), Error> {
        let st = &self.decoder.stats;
        if let Some((line, col, stamp)) = &st.first_raw_clock {
            return Err(Error::invalid(format!(
                "{source}:{line}:{col}: timestamp `{stamp}` is a raw count, not seconds: the trace clock was counter, uptime (jiffies) or x86-tsc; trace again with `echo mono > /sys/kernel/tracing/trace_clock` (or local, global, boot)"
            )));
        }
        if st.total_events() > 0 {
            return Ok(());
        }
        if let Some((line, col, why)) = &st.first_malformed {
            // Every writeback event unusable: say where and why, not
            // that there were none.
            let more = match st.malformed {
                0 | 1 => String::new(),
                n => format!(" (and {} not read)", crate::units::count(n - 1, "more writeback event")),
            };
            return Err(Error::invalid(format!("{source}:{line}:{col}: {why}{more}")));
        }
        let what = if st.lines == 0 {
            "empty".to_string()
        } else if let Some((line, col)) = st.first_nul {
            return Err(Error::invalid(format!(
                "{source}:{line}:{col}: binary data (a NUL byte), not the text of a trace: no writeback event in it"
            )));
        } else {
            st.no_event_why()
        };
        Err(Error::invalid(format!("{source}: {what}")))
    }

    /// Closes the rows after the last event (the input is over).
    pub fn close(&mut self) {
        if let Some(s) = &mut self.series {
            s.finish();
        }
    }

    /// The page size the throttling passes so far tell \[KiB\].
    pub fn page_kb(&self) -> Option<u64> {
        self.summarizer.page_kb()
    }

    /// The summary of what was read so far.
    pub fn summary(&self, source: &str) -> TraceSummary {
        self.summarizer.finish(source, &self.decoder)
    }

    /// What was read; an error when it holds no writeback event.
    pub fn finish(mut self, source: &str) -> Result<Analysis, Error> {
        self.check(source)?;
        self.close();
        let summary = self.summarizer.finish(source, &self.decoder);
        Ok(Analysis { summary, decoder: self.decoder, series: self.series })
    }
}

/// Most pages a counter of a 32-bit kernel is read to have grown by
/// across its wrap: 2^24 pages (64 GiB of 4 KiB pages) between two
/// readings. A counter going down by more is read as a restart.
pub const MOST_WRAPPED_GROWTH: i64 = 1 << 24;

/// A 32-bit kernel's counters wrap at this.
pub const COUNTER_WRAP: i64 = 1 << 32;

/// How many pages global_dirty_state's running count `dirtied=` or
/// `written=` grew by from `old` to `new`: `None` where it went down
/// (traces joined, a reboot), but where a 32-bit kernel's `unsigned long`
/// passed 2^32 (`old` under 2^32, and `new` what it would be by a growth of
/// at most [`MOST_WRAPPED_GROWTH`]), read as the wrap it is; `wide`: the
/// trace has shown a count of 2^32 or more, so its kernel's do not wrap
/// there.
pub fn counter_growth(old: i64, new: i64, wide: bool) -> Option<i64> {
    if new >= old {
        return Some(new - old);
    }
    let wrapped = COUNTER_WRAP - old + new;
    (!wide && old < COUNTER_WRAP && new >= 0 && wrapped <= MOST_WRAPPED_GROWTH).then_some(wrapped)
}

/// The limit the kernel's control law uses, as `hard_dirty_limit()` takes
/// it: the domain's traced dirty_limit, or thresh when that lies above
/// (dirty_limit follows thresh only while tasks are throttled).
pub fn hard_dirty_limit<T: PartialOrd + Copy>(limit: T, thresh: Option<T>) -> T {
    match thresh {
        Some(t) if t > limit => t,
        _ => limit,
    }
}

/// The global setpoint as the control law takes it, from the one a
/// balance_dirty_pages pass prints with its `limit=`: the tracepoint
/// prints `(dirty_limit + freerun) / 2` of the raw dirty_limit, the
/// control law takes (limit + freerun) / 2 of [`hard_dirty_limit`], so
/// the two differ by half of what `thresh` (the last known) is above
/// dirty_limit. Worked out from `freerun` where the thresholds are known,
/// as global_dirty_state's is; else from the printed setpoint, whose
/// halving may leave it a page under \[pages\].
pub fn control_setpoint(setpoint: u64, limit: u64, thresh: Option<u64>, freerun: Option<u64>) -> u64 {
    let hard = hard_dirty_limit(limit, thresh);
    freerun.map_or((2 * setpoint + hard - limit) / 2, |f| (hard + f) / 2)
}

/// Reads `path` (standard input for `-`) into `c`. Anything but a
/// directory is read: a file, a FIFO (`<(trace-cmd report)`), tracefs'
/// trace_pipe.
pub fn read_into(c: &mut Collector, path: &str) -> Result<(), Error> {
    read_told(c, path, None)
}

/// [`read_into`], telling its progress to `loading` (not stderr) when
/// given one, and stopping when it is cancelled.
pub fn read_told(c: &mut Collector, path: &str, loading: Option<Arc<Loading>>) -> Result<(), Error> {
    let shown = Path::new(path);
    let progress = |name: &str, size| match &loading {
        Some(l) => Reading::told_to(name, size, Arc::clone(l)),
        None => Reading::new(name, size),
    };
    let result = if path == "-" {
        let counted = Counted { inner: std::io::stdin().lock(), progress: progress("standard input", None) };
        c.read(std::io::BufReader::with_capacity(1 << 16, counted))
    } else {
        if std::fs::metadata(path).is_ok_and(|m| m.is_dir()) {
            return Err(Error::invalid(format!("{path}: cannot read trace: a directory, not a regular file")));
        }
        // Ctrl-C stops the wait for a FIFO's writer.
        let f = crate::interrupt::open(shown, File::options().read(true), Error::io(shown, "cannot read"))?;
        let size = f.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
        let name = shown.file_name().map_or(path.into(), |n| n.to_string_lossy());
        let counted = Counted { inner: f, progress: progress(&name, size) };
        c.read(std::io::BufReader::with_capacity(1 << 16, counted))
    };
    crate::interrupt::check()?;
    result.map_err(|e| match e.kind() {
        // A line too long: `path:line: what`.
        std::io::ErrorKind::InvalidData => Error::invalid(format!("{path}:{e}")),
        _ => Error::io(shown, "cannot read")(e),
    })
}

/// A reader that tells its progress ([`Reading`]) as it goes.
struct Counted<R> {
    inner: R,
    progress: Reading,
}

impl<R: std::io::Read> std::io::Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        // A Ctrl-C stops a read that waits for input too: it ends the
        // wait with EINTR ([`crate::interrupt::catch`]), and the reader
        // that retries it comes back here.
        if self.progress.is_cancelled() || crate::interrupt::check().is_err() {
            return Err(std::io::Error::other("cancelled"));
        }
        let n = self.inner.read(buf)?;
        self.progress.add(n);
        Ok(n)
    }
}

/// The trace shipped with dirtyviz (`dirtyviz view --example`): its name
/// and text. Four dd on a Linux 6.18 VM with vm.dirty_bytes 400 MiB.
pub const EXAMPLE: (&str, &str) = (
    "linux-6.18-4dd-dirty_bytes-400M.txt",
    include_str!("../../tests/data/ktrace/linux-6.18-4dd-dirty_bytes-400M.txt"),
);

/// Reads the shipped trace.
pub fn analyse_example(series: bool) -> Result<Analysis, Error> {
    let mut c = Collector::new(series);
    c.read(EXAMPLE.1.as_bytes()).map_err(|e| Error::invalid(format!("{}: {e}", EXAMPLE.0)))?;
    c.finish(EXAMPLE.0)
}

/// Reads a trace file, or standard input for `-`.
pub fn analyse(path: &str, series: bool) -> Result<Analysis, Error> {
    let mut c = Collector::new(series);
    read_into(&mut c, path)?;
    c.finish(path)
}

/// Writes an output into a temporary file beside `path`
/// ([`AtomicFile`]): it replaces `path` only once committed, so a
/// failure never leaves half a file, and a symbolic link or a device
/// named by `path` is written through, not replaced.
pub fn write_file(
    path: &Path,
    write: impl FnOnce(&mut AtomicFile) -> std::io::Result<()>,
) -> Result<AtomicFile, Error> {
    write_file_until(path, std::sync::Arc::new(crate::interrupt::signal), write)
}

/// [`write_file`], where `stopped` tells the signal that stops a wait
/// for a FIFO's reader (`live` catches its own).
pub fn write_file_until(
    path: &Path,
    stopped: crate::output::Stopped,
    write: impl FnOnce(&mut AtomicFile) -> std::io::Result<()>,
) -> Result<AtomicFile, Error> {
    let mut out = AtomicFile::create_until(path, stopped)?;
    write(&mut out).map_err(|e| out.write_error(e))?;
    out.flush()?;
    Ok(out)
}

/// Writes `value` as pretty JSON into an output for `path` (see
/// [`write_file`]).
pub fn write_json(path: &Path, value: &impl serde::Serialize) -> Result<AtomicFile, Error> {
    write_file(path, |w| json_pretty(w, value))
}

/// `value` as pretty JSON and a newline.
pub fn json_pretty(w: &mut AtomicFile, value: &impl serde::Serialize) -> std::io::Result<()> {
    serde_json::to_writer_pretty(&mut *w, value)?;
    writeln!(w)
}

/// Puts every output in its place, once all of them are written.
pub fn commit(outputs: Vec<AtomicFile>) -> Result<(), Error> {
    crate::output::commit_all(outputs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_counter_going_down_is_a_restart_but_a_32_bit_wrap_is_growth() {
        assert_eq!(counter_growth(100, 350, false), Some(250));
        assert_eq!(counter_growth(100, 100, false), Some(0));
        assert_eq!(counter_growth(5_000_000, 1_000, false), None, "a reboot");
        // 2^32 - 100 to 156: 256 pages on a 32-bit kernel.
        assert_eq!(counter_growth((1 << 32) - 100, 156, false), Some(256));
        assert_eq!(counter_growth((1 << 32) - 100, 156, true), None, "a 64-bit kernel's counter, restarted");
        assert_eq!(counter_growth((1 << 32) - 100, 1 << 24, false), None, "more than 64 GiB of 4 KiB pages at once");
        assert_eq!(counter_growth((1 << 32) + 5, 10, false), None, "past 2^32: a 64-bit counter, restarted");
    }

    #[test]
    fn the_control_laws_setpoint_is_worked_out_from_freerun_where_it_is_known() {
        // thresh 2000 above the traced limit 1601, freerun 1500: the
        // tracepoint prints (1601 + 1500) / 2 = 1550; the control law's
        // is (2000 + 1500) / 2 = 1750, a page more than the printed one
        // converts to.
        assert_eq!(control_setpoint(1550, 1601, Some(2000), Some(1500)), 1750);
        assert_eq!(control_setpoint(1550, 1601, Some(2000), None), 1749);
        assert_eq!(control_setpoint(1550, 1601, None, None), 1550, "no thresh: the printed one");
    }
    use crate::scratch::Scratch;

    #[test]
    fn an_empty_input_or_one_without_writeback_events_is_an_error() {
        let c = Collector::new(false);
        assert_eq!(c.finish("x").map(|_| ()).map_err(|e| e.to_string()), Err("x: empty".to_string()));
        let mut c = Collector::new(false);
        c.read("# tracer: nop\nsh-1 [000] 1.0: sched_switch: a=b\n".as_bytes()).expect("reads");
        let e = c.finish("y").expect_err("no events");
        assert!(e.to_string().starts_with("y: no writeback event in 2 lines"), "{e}");
        let mut c = Collector::new(false);
        c.read("sh-1 [000] 1.0: sched_switch: a=b\n".as_bytes()).expect("reads");
        let e = c.finish("z").expect_err("no events");
        assert!(e.to_string().starts_with("z: no writeback event in 1 line ("), "{e}");
        // The model's own trace is told as what it is.
        let mut c = Collector::new(false);
        let model = "{\"event\":\"header\",\"dirtyviz\":\"0.1.0\",\"hz\":1000}\n{\"event\":\"task_throttled\"}\n";
        c.read(model.as_bytes()).expect("reads");
        let e = c.finish("t.jsonl").expect_err("no events");
        assert!(e.to_string().starts_with("t.jsonl: a trace of dirtyviz's own simulation (`run --trace`)"), "{e}");
    }

    #[test]
    fn binary_data_is_told_as_such() {
        let mut c = Collector::new(false);
        c.read(&b"\x7fELF\x02\x01\x01\x00\x00\x00\n\x03\x00>\x00"[..]).expect("reads");
        let e = c.finish("/bin/ls").expect_err("no trace");
        assert_eq!(
            e.to_string(),
            "/bin/ls:1:8: binary data (a NUL byte), not the text of a trace: no writeback event in it"
        );
        let mut c = Collector::new(false);
        c.read("# tracer: nop\n# é\u{0}\n".as_bytes()).expect("reads");
        let e = c.finish("t.txt").expect_err("no trace");
        assert!(e.to_string().starts_with("t.txt:2:4: binary data (a NUL byte)"), "{e}");
    }

    #[test]
    fn a_trace_of_a_clock_not_in_nanoseconds_is_refused_where_it_shows() {
        let gds = "global_dirty_state: dirty=1 writeback=2 bg_thresh=3 thresh=4 limit=5 dirtied=6 written=7";
        let mut c = Collector::new(false);
        c.read(format!("# tracer: nop\n  dd-7 [000] ..... 4295293705: {gds}\n").as_bytes()).expect("reads");
        let e = c.finish("t.txt").expect_err("jiffies are not seconds");
        assert!(e.to_string().starts_with("t.txt:2:20: timestamp `4295293705` is a raw count, not seconds"), "{e}");
    }

    #[test]
    fn files_are_written_whole_or_not_at_all() {
        let dir = Scratch::new("ktrace");
        let path = dir.join("out.json");
        std::fs::write(&path, "old").expect("written");
        let e = write_file(&path, |w| {
            w.write_all(b"half")?;
            Err(std::io::Error::other("disk full"))
        });
        assert!(e.err().expect("fails").to_string().contains("disk full"));
        assert_eq!(std::fs::read_to_string(&path).expect("kept"), "old");
        let out = write_json(&path, &serde_json::json!({"a": 1})).expect("writes");
        assert_eq!(std::fs::read_to_string(&path).expect("not yet"), "old");
        commit(vec![out]).expect("commits");
        assert_eq!(std::fs::read_to_string(&path).expect("new"), "{\n  \"a\": 1\n}\n");
        assert_eq!(std::fs::read_dir(&dir).expect("dir").count(), 1, "no temporary file left");
    }
}
