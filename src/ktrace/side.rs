//! A kernel trace as the dashboard shows it: its rows become the samples
//! the charts read (pages and pages/s, on the trace's clock counted from
//! its first event), its throttling passes become pauses and task rows,
//! and a playhead says how much of it is shown. A file is read whole and
//! played back (forward, or seeking back); `dirtyviz live` feeds lines as
//! trace_pipe gives them and the playhead follows.
//!
//! ```text
//!  lines ─► Collector ─► Series rows (100 ms) ─► samples ──┐   playhead
//!                      └► balance_dirty_pages ─► passes ───┼─► shown: samples up to it,
//!                                               └► pauses ─┘   pause bins, task states
//! ```
//!
//! A trace holds only what the three tracepoints print. What the charts
//! draw from elsewhere is missing ([`Coverage`] says so, and from when a
//! quantity is known); some is rebuilt exactly from what is printed:
//! freerun from thresh and bg_thresh (or setpoint and limit), bdi_thresh
//! from wb_setpoint = setpoint × wb_thresh / (thresh + 1), each bdi's
//! pages dirtied from its dirty_rate. pos_ratio is task_ratelimit /
//! dirty_ratelimit of the last event: in a row with a pass (the kernel
//! prints one only past freerun, where it computed pos_ratio), and after
//! it while dirty pages are above freerun (below it the kernel does not
//! throttle and prints nothing) or, when the pass was below the global
//! freerun, while it is recent (the task got past its wb's own freerun,
//! BDI_CAP_STRICTLIMIT, or its cgroup's, which the trace does not print).

use std::collections::VecDeque;

use super::event::EventKind;
use super::series::{BIN_S, GlobalRow, PausePoint, Row};
use super::summary::TraceSummary;
use super::{Collector, Error, read_into};
use crate::pauses::PauseBins;
use crate::sim::metrics::{BdiSample, PauseRecord, Sample};

/// A quantity the charts draw that a kernel trace may lack, or know only
/// from some time on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantity {
    /// Global dirty + writeback + unstable.
    Dirty,
    /// NR_WRITEBACK (+ unstable).
    Writeback,
    /// dirty_thresh.
    Thresh,
    /// background_thresh.
    BgThresh,
    /// The global limit.
    Limit,
    /// The global setpoint.
    Setpoint,
    /// The freerun ceiling.
    Freerun,
    /// Dirtyable memory.
    Dirtyable,
    /// A bdi's dirty pages.
    BdiDirty,
    /// A bdi's pages under writeback.
    BdiWriteback,
    /// A bdi's share of thresh.
    BdiThresh,
    /// A bdi's setpoint.
    BdiSetpoint,
    /// write_bandwidth.
    WriteBw,
    /// avg_write_bandwidth.
    AvgWriteBw,
    /// dirty_ratelimit.
    DirtyRatelimit,
    /// balanced_dirty_ratelimit.
    Balanced,
    /// task_ratelimit.
    TaskRatelimit,
    /// Pages dirtied on a bdi (from its dirty rate).
    Dirtied,
    /// Pages written by a bdi.
    Written,
    /// Tasks writing to a bdi.
    Tasks,
    /// The longest pause allowed now.
    MaxPause,
    /// Throttling pauses.
    Pauses,
}

/// Number of [`Quantity`] values.
const QUANTITIES: usize = Quantity::Pauses as usize + 1;

impl Quantity {
    /// The events that print it; empty: no tracepoint does.
    pub fn events(self) -> &'static [EventKind] {
        use EventKind::*;
        use Quantity::*;
        match self {
            Dirty | Limit | Setpoint | Freerun => &[GlobalDirtyState, BalanceDirtyPages],
            Writeback | Thresh | BgThresh => &[GlobalDirtyState],
            BdiDirty | BdiSetpoint | BdiThresh | Tasks | Pauses => &[BalanceDirtyPages],
            WriteBw | AvgWriteBw | Balanced | Dirtied => &[BdiDirtyRatelimit],
            DirtyRatelimit | TaskRatelimit => &[BdiDirtyRatelimit, BalanceDirtyPages],
            Dirtyable | BdiWriteback | Written | MaxPause => &[],
        }
    }
}

/// When each quantity of a source is first known [ns, the source's
/// clock]; `None`: never. A simulation knows everything from the start
/// and has no coverage. A bdi's quantities are known while its events
/// print them, and not once they stop (see [`BdiRow::last_pass_s`]); a
/// global one from when first printed but in a silence of the trace
/// (the global counts are not known there): each is known over spans of
/// samples.
///
/// [`BdiRow::last_pass_s`]: super::series::BdiRow::last_pass_s
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Coverage {
    /// Global quantities, by [`Quantity`].
    global: [Option<u64>; QUANTITIES],
    /// Per bdi quantities, by bdi and [`Quantity`].
    bdis: Vec<[Option<u64>; QUANTITIES]>,
    /// Per bdi and [`Quantity`], the spans of samples it is known in
    /// (first and last sample's time, and the time of the event that
    /// printed it first, in the first sample's row) \[ns\].
    spans: Vec<Vec<Vec<(u64, u64, u64)>>>,
    /// The same of the global quantities, by [`Quantity`].
    global_spans: Vec<Vec<(u64, u64, u64)>>,
}

/// Samples this far apart or closer are next to each other \[ns\].
const NEXT_SAMPLE_NS: u64 = (BIN_S * 1.5e9) as u64;

impl Coverage {
    /// From when `q` (of `bdi`, for a bdi quantity) is known \[ns\]; `None`: never.
    pub fn since(&self, q: Quantity, bdi: usize) -> Option<u64> {
        self.global[q as usize].or_else(|| self.bdis.get(bdi).and_then(|b| b[q as usize]))
    }

    /// `q` (of `bdi`) is known at the sample at `t_ns`: a global quantity
    /// from when it is first known, a bdi's while its events print it.
    pub fn known_at(&self, q: Quantity, bdi: usize, t_ns: u64) -> bool {
        self.last_known(q, bdi, t_ns) == Some(t_ns)
    }

    /// The last sample at or before `t_ns` at which `q` (of `bdi`) is known \[ns\].
    pub fn last_known(&self, q: Quantity, bdi: usize, t_ns: u64) -> Option<u64> {
        let spans = match self.global[q as usize] {
            Some(_) => self.global_spans.get(q as usize)?,
            None => self.spans.get(bdi)?.get(q as usize)?,
        };
        let i = spans.partition_point(|s| s.0 <= t_ns).checked_sub(1)?;
        Some(spans[i].1.min(t_ns))
    }

    /// Where the line of `q` (of `bdi`) drawn from the sample at `t_ns`
    /// starts, when it starts there: the event that first printed it in
    /// the sample's row, up to 100 ms before it \[ns\].
    pub fn starts_at(&self, q: Quantity, bdi: usize, t_ns: u64) -> Option<u64> {
        let spans = match self.global[q as usize] {
            Some(_) => self.global_spans.get(q as usize)?,
            None => self.spans.get(bdi)?.get(q as usize)?,
        };
        let i = spans.partition_point(|s| s.0 < t_ns);
        spans.get(i).filter(|s| s.0 == t_ns).map(|s| s.2.min(t_ns))
    }

    /// Notes `q` known at the sample at `t_ns`, printed first in its row
    /// at `from_ns` (`None`: not in its row).
    fn note(&mut self, q: Quantity, bdi: Option<usize>, t_ns: u64, from_ns: Option<u64>) {
        let (slot, spans) = match bdi {
            None => {
                if self.global_spans.is_empty() {
                    self.global_spans = vec![Vec::new(); QUANTITIES];
                }
                (&mut self.global[q as usize], &mut self.global_spans[q as usize])
            }
            Some(i) => {
                if self.bdis.len() <= i {
                    self.bdis.resize(i + 1, [None; QUANTITIES]);
                    self.spans.resize(i + 1, vec![Vec::new(); QUANTITIES]);
                }
                (&mut self.bdis[i][q as usize], &mut self.spans[i][q as usize])
            }
        };
        match spans.last_mut() {
            // Noted again (a live trace redrawn in its page size).
            Some(last) if t_ns <= last.1 => {}
            Some(last) if t_ns - last.1 <= NEXT_SAMPLE_NS => last.1 = t_ns,
            _ => spans.push((t_ns, t_ns, from_ns.unwrap_or(t_ns))),
        }
        slot.get_or_insert(t_ns);
    }

    /// The events the quantities of `qs` never known (on `bdi`) come
    /// from, and why a trace may lack them: `writeback:bdi_dirty_ratelimit
    /// for write_bw, balanced: not enabled, or no task throttled for 200
    /// ms` (the bdi events fire only while tasks are throttled).
    pub fn missing(&self, qs: &[(Quantity, &str)], bdi: usize) -> Option<String> {
        let mut by_event: Vec<(EventKind, Vec<&str>)> = Vec::new();
        for &(q, name) in qs {
            if self.since(q, bdi).is_some() {
                continue;
            }
            let Some(&event) = q.events().first() else { continue };
            match by_event.iter_mut().find(|(e, _)| *e == event) {
                Some((_, names)) => names.push(name),
                None => by_event.push((event, vec![name])),
            }
        }
        let parts: Vec<String> = by_event
            .into_iter()
            .map(|(e, names)| {
                let why = match e {
                    EventKind::GlobalDirtyState => "not enabled",
                    EventKind::BalanceDirtyPages => "not enabled, or no task throttled",
                    EventKind::BdiDirtyRatelimit => "not enabled, or no task throttled for 200 ms",
                };
                format!("writeback:{} for {}: {why}", e.name(), names.join(", "))
            })
            .collect();
        (!parts.is_empty()).then(|| format!("not in this trace: {}", parts.join("; ")))
    }
}

/// One row of the task table.
#[derive(Clone, Debug, PartialEq)]
pub struct TaskLine {
    /// comm-pid.
    pub name: String,
    /// What kind of writer it is, when known (a simulation's tasks).
    pub kind: Option<&'static str>,
    /// The bdi it last wrote to.
    pub bdi: String,
    /// Pages it dirtied per second over the last second, in 4 KiB pages
    /// whatever the kernel's page size \[pages/s\]; `None` when it had
    /// no throttling pass in that second: a trace sees a task's writes
    /// only through its passes, so a task that wrote unthrottled has no
    /// rate to show.
    pub rate_pages: Option<f64>,
    /// Its last pause \[ms\].
    pub pause_ms: f64,
    /// Its nr_dirtied_pause \[pages\], when printed.
    pub nr_dirtied_pause: Option<i64>,
}

/// A task as of the playhead.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct TaskState {
    /// It has had a pass.
    seen: bool,
    bdi: u16,
    /// Its last pause \[ms\].
    pause_ms: i64,
    /// Its nr_dirtied_pause \[pages\], when printed.
    dirtied_pause: Option<i64>,
}

/// A task counts in a rate over this window \[ns\].
const RATE_WINDOW_NS: u64 = 1_000_000_000;

/// How far back a live trace is kept, as long as its pauses' bins: older
/// rows and pauses are dropped, so a session left running for days holds
/// no more than this \[ns\].
pub const LIVE_KEEP_NS: u64 = crate::pauses::RETENTION_NS;

/// The most balance_dirty_pages passes a live trace keeps (with their
/// sleeps and calls, about 200 bytes each); a busy kernel reaches it
/// before [`LIVE_KEEP_NS`] (500 passes a second: in 10 minutes).
pub const LIVE_KEEP_PASSES: usize = 300_000;

/// A kernel trace, shown up to its playhead.
#[derive(Debug)]
pub struct KernelSide {
    /// Where it comes from: a file name, `-`, or trace_pipe's path.
    pub source: String,
    collector: Collector,
    /// Lines still come (trace_pipe).
    live: bool,
    /// Each bdi as the screen names it.
    labels: Vec<String>,
    /// The trace's pages in the screen's 4 KiB pages: 16 for a kernel of
    /// 64 KiB pages, 1 until the page size is told.
    page_factor: u64,
    /// Every row so far, as samples; a file's first is the trace at its
    /// first event (see `lead`).
    all: Vec<Sample>,
    /// 1 when `all` starts with the trace at its first event, a sample
    /// of no row: a file's playhead at 0 shows what its first events
    /// told, not nothing until the first row, 100 ms later.
    lead: usize,
    rows_done: usize,
    /// The series' passes (held there only) made into sleeps and calls.
    passes_done: usize,
    /// Sleeps and whole calls, in time order; pause in ms (a jiffy of a
    /// 1000 Hz clock).
    records: Vec<PauseRecord>,
    /// Pages each bdi dirtied so far, from its dirty rate \[pages\].
    dirtied: Vec<f64>,
    coverage: Coverage,
    /// The playhead \[ns\].
    at_ns: u64,
    /// What is shown: the samples, pauses and tasks up to the playhead.
    samples: VecDeque<Sample>,
    pause_log: VecDeque<PauseRecord>,
    bins: PauseBins,
    shown_passes: usize,
    tasks: Vec<TaskState>,
    /// A live trace keeps this much of its past \[ns\], and at most this
    /// many passes.
    keep: (u64, usize),
}

impl KernelSide {
    fn new(source: &str, collector: Collector, live: bool) -> KernelSide {
        let mut side = KernelSide {
            source: source.to_string(),
            collector,
            live,
            labels: Vec::new(),
            page_factor: 1,
            all: Vec::new(),
            lead: 0,
            rows_done: 0,
            passes_done: 0,
            records: Vec::new(),
            dirtied: Vec::new(),
            coverage: Coverage::default(),
            at_ns: 0,
            samples: VecDeque::new(),
            pause_log: VecDeque::new(),
            bins: PauseBins::new(0),
            shown_passes: 0,
            tasks: Vec::new(),
            keep: (LIVE_KEEP_NS, LIVE_KEEP_PASSES),
        };
        side.sync();
        side
    }

    /// A trace file (`-`: standard input), read whole; an error when it
    /// holds no writeback event.
    pub fn open(path: &str) -> Result<KernelSide, Error> {
        let mut c = Collector::for_charts();
        read_into(&mut c, path)?;
        KernelSide::finished(path, c)
    }

    /// [`KernelSide::open`], telling how far it got to `loading` (which
    /// can stop it) instead of stderr.
    pub fn load(path: &str, loading: std::sync::Arc<crate::run::progress::Loading>) -> Result<KernelSide, Error> {
        let mut c = Collector::for_charts();
        super::read_told(&mut c, path, Some(loading))?;
        KernelSide::finished(path, c)
    }

    /// A trace held in memory (a shipped one), named `name`.
    pub fn from_text(name: &str, text: &str) -> Result<KernelSide, Error> {
        let mut c = Collector::for_charts();
        c.read(text.as_bytes()).map_err(|e| Error::invalid(format!("{name}: {e}")))?;
        KernelSide::finished(name, c)
    }

    fn finished(name: &str, mut c: Collector) -> Result<KernelSide, Error> {
        c.check(name)?;
        c.close();
        Ok(KernelSide::new(name, c, false))
    }

    /// The running kernel's trace, fed line by line ([`KernelSide::feed`]).
    pub fn live(source: &str) -> KernelSide {
        KernelSide::new(source, Collector::for_charts(), true)
    }

    /// Reads lines of a live trace, and brings the samples up to date.
    pub fn feed<'a>(&mut self, lines: impl IntoIterator<Item = &'a str>) {
        for line in lines {
            self.collector.line(line);
        }
        self.sync();
        // Forgotten in batches of a sixteenth, not a little every frame.
        let first = self.all.first().map_or(0, |s| s.t_ns);
        let (keep_ns, keep_passes) = self.keep;
        let mut before = 0;
        if self.end_ns().saturating_sub(first) > keep_ns + keep_ns / 16 {
            before = self.end_ns() - keep_ns;
        }
        let (passes, t0) = passes(&self.collector);
        if passes.len() > keep_passes + keep_passes / 16 {
            before = before.max(pass_ns(t0, &passes[passes.len() - keep_passes]));
        }
        if before > 0 {
            self.forget_before(before);
        }
    }

    /// Drops the rows, pauses and sleeps from before `t` \[ns\], here and
    /// in the series they came from; a playhead before `t` moves to it.
    fn forget_before(&mut self, t: u64) {
        let rows = self.all.partition_point(|s| s.t_ns < t);
        let (passes, t0) = passes(&self.collector);
        let old_passes = passes.partition_point(|p| pass_ns(t0, p) < t);
        if rows == 0 && old_passes == 0 {
            return;
        }
        if let Some(series) = self.collector.series_mut() {
            series.forget(rows, old_passes);
        }
        // What is shown is the front of what is held: both lose the same.
        self.all.drain(..rows);
        self.samples.drain(..rows.min(self.samples.len()));
        self.rows_done -= rows;
        self.passes_done -= old_passes;
        self.shown_passes = self.shown_passes.saturating_sub(old_passes);
        let records = self.records.partition_point(|r| r.t_ns < t);
        self.records.drain(..records);
        self.pause_log.drain(..records.min(self.pause_log.len()));
        if self.at_ns < t {
            self.seek(t);
        }
    }

    /// Lines still come.
    pub fn is_live(&self) -> bool {
        self.live
    }

    /// Converts the rows and passes read since the last call.
    fn sync(&mut self) {
        let Some(series) = self.collector.series() else { return };
        let Some(t0) = series.t0 else { return };
        let bdis = self.collector.decoder.bdis.len();
        if bdis > self.labels.len() {
            // A bdi's second writeback context renames its first.
            let d = &self.collector.decoder;
            self.labels = (0..bdis)
                .map(|i| {
                    let name = if self.live { device_label(&d.bdis[i]) } else { d.bdis[i].clone() };
                    match d.shown_cgroup(i) {
                        Some(cgroup) => format!("{name} {cgroup}"),
                        None => name,
                    }
                })
                .collect();
            self.dirtied.resize(bdis, 0.0);
            self.tasks.resize(self.collector.decoder.tasks.len(), TaskState::default());
            let pad = |s: &mut Sample| s.bdis.resize(bdis, empty_bdi());
            self.all.iter_mut().for_each(pad);
            self.samples.iter_mut().for_each(pad);
            self.bins = PauseBins::new(bdis);
            self.bins.take(&self.pause_log);
        }
        let factor = (self.collector.page_kb().unwrap_or(4) / 4).max(1);
        let rescaled = factor != self.page_factor;
        if rescaled {
            // Told the page size only now (live): every row again in it.
            self.page_factor = factor;
            self.all.clear();
            self.rows_done = 0;
            self.dirtied.iter_mut().for_each(|d| *d = 0.0);
        }
        let ns = |t_s: f64| ((t_s - t0).max(0.0) * 1e9).round() as u64;
        if self.rows_done == 0 && !self.live {
            self.lead = 0;
            if let Some(first) = &series.first {
                // Nothing dirtied before it: its rates count no pages.
                let mut none = vec![0.0; bdis];
                self.all.push(sample_of(first, 0, &|_| 0, bdis, factor, &mut none, &mut self.coverage));
                self.lead = 1;
            }
        }
        // A file ends at its last event, not at the end of the 100 ms
        // its last row closes.
        let end = if self.live { None } else { series.last_event_s().map(ns) };
        for row in &series.rows[self.rows_done..] {
            let before = self.all.last().map_or(0, |s| s.t_ns);
            // Each sample later than the one before (an event at a row's
            // time ends a trace in the row after it).
            let t_ns = end.map_or(ns(row.t_s), |end| ns(row.t_s).min(end).max(before + 1));
            let s = sample_of(row, t_ns, &ns, bdis, factor, &mut self.dirtied, &mut self.coverage);
            self.all.push(s);
        }
        self.rows_done = series.rows.len();
        if rescaled {
            self.samples.clear();
            while let Some(s) = self.all.get(self.samples.len()).filter(|s| s.t_ns <= self.at_ns) {
                self.samples.push_back(s.clone());
            }
        }
        for p in &series.pauses[self.passes_done..] {
            let t_ns = ns(p.t_s);
            self.coverage.note(Quantity::Pauses, Some(p.bdi as usize), t_ns, None);
            if p.pause_ms > 0 {
                let pause = p.pause_ms.min(u32::MAX as i64) as u32;
                let call = (p.paused_ms + p.pause_ms).min(u32::MAX as i64) as u32;
                let rec = |pause, call, multi| PauseRecord { t_ns, task: p.task, bdi: p.bdi, pause, call, multi };
                self.records.push(rec(pause, false, false));
                self.records.push(rec(call, true, p.paused_ms > 0));
            }
        }
        self.passes_done = series.pauses.len();
        let tasks = self.collector.decoder.tasks.len();
        if tasks > self.tasks.len() {
            self.tasks.resize(tasks, TaskState::default());
        }
    }

    /// The last time the trace holds \[ns\].
    pub fn end_ns(&self) -> u64 {
        self.all.last().map_or(0, |s| s.t_ns)
    }

    /// The shortest time axis the charts draw \[s\]: the whole trace
    /// where it lasts less than a second (its rows squeezed into the
    /// left of a second's axis otherwise), a second while lines still
    /// come.
    pub fn least_span_s(&self) -> f64 {
        let whole = self.end_ns().saturating_sub(self.all.first().map_or(0, |s| s.t_ns)) as f64 / 1e9;
        if self.live || whole <= 0.0 { 1.0 } else { whole.min(1.0) }
    }

    /// The time of the first row after `t` \[ns\], if any: where the
    /// trace goes on after a gap without rows.
    pub fn next_row_ns(&self, t: u64) -> Option<u64> {
        let i = self.all.partition_point(|s| s.t_ns <= t);
        self.all.get(i).map(|s| s.t_ns)
    }

    /// Whether the global dirty count is known at the playhead: read
    /// and held (a pass's count holds a second), not before the first.
    pub fn global_dirty_known(&self) -> bool {
        self.row_shown().is_some_and(|r| r.global.dirty.is_some())
    }

    /// The silence (no event for over a minute) the sample at the
    /// playhead lies in: its first and last event's times \[ns\].
    pub fn silence_now(&self) -> Option<(u64, u64)> {
        let now = self.samples.back()?.t_ns;
        let series = self.collector.series()?;
        let t0 = series.t0?;
        let ns = |t_s: f64| ((t_s - t0).max(0.0) * 1e9).round() as u64;
        series.silences.iter().map(|&(a, b)| (ns(a), ns(b))).find(|&(a, b)| a < now && now < b)
    }

    /// The playhead \[ns\].
    pub fn at_ns(&self) -> u64 {
        self.at_ns
    }

    /// Moves the playhead to `t` (at most the end), forward or back.
    pub fn seek(&mut self, t: u64) {
        let t = t.min(self.end_ns());
        if t < self.at_ns {
            self.samples.clear();
            self.pause_log.clear();
            self.bins = PauseBins::new(self.labels.len());
            self.shown_passes = 0;
            self.tasks.iter_mut().for_each(|s| *s = TaskState::default());
        }
        self.at_ns = t;
        while let Some(s) = self.all.get(self.samples.len()).filter(|s| s.t_ns <= t) {
            self.samples.push_back(s.clone());
        }
        let before = self.pause_log.len();
        self.pause_log.extend(self.records[before..].iter().take_while(|r| r.t_ns <= t));
        if self.pause_log.len() > before {
            self.bins.take(&self.pause_log);
        }
        let (passes, t0) = passes(&self.collector);
        while let Some(p) = passes.get(self.shown_passes).filter(|p| pass_ns(t0, p) <= t) {
            if let Some(s) = self.tasks.get_mut(p.task as usize) {
                *s = TaskState {
                    seen: true,
                    bdi: p.bdi,
                    pause_ms: p.pause_ms,
                    dirtied_pause: p.dirtied_pause.or(s.dirtied_pause),
                };
            }
            self.shown_passes += 1;
        }
    }

    /// The samples up to the playhead, oldest first.
    pub fn samples(&self) -> &VecDeque<Sample> {
        &self.samples
    }

    /// The sleeps and calls up to the playhead (pause in ms).
    pub fn pause_log(&self) -> &VecDeque<PauseRecord> {
        &self.pause_log
    }

    /// The pauses up to the playhead, binned by time (pause in ms).
    pub fn pauses(&self) -> &PauseBins {
        &self.bins
    }

    /// When each quantity is first known.
    pub fn coverage(&self) -> &Coverage {
        &self.coverage
    }

    /// The bdis, as the trace names them (device numbers).
    pub fn bdi_names(&self) -> &[String] {
        &self.collector.decoder.bdis
    }

    /// A bdi as the screen names it: `254:0`, live with its device name,
    /// `254:0 (vda)`; followed by its cgroup when the bdi has several
    /// writeback contexts (`254:0 cgroup_ino 1234`).
    pub fn bdi_label(&self, bdi: usize) -> &str {
        self.labels.get(bdi).map_or("-", String::as_str)
    }

    /// A bdi as a narrow place names it: `254:0`, and when the bdi has
    /// several writeback contexts the last part of the cgroup's path or
    /// its inode number: `254:0 session-2.scope`, `254:0 ino 1234`.
    pub fn bdi_short(&self, bdi: usize) -> String {
        let d = &self.collector.decoder;
        let name = d.bdis.get(bdi).map_or("-", String::as_str);
        match d.shown_cgroup(bdi) {
            Some(cgroup) => {
                let short = match cgroup.strip_prefix("cgroup_ino ") {
                    Some(ino) => format!("ino {ino}"),
                    None => {
                        let path = cgroup.trim_start_matches("cgroup ").trim_end_matches('/');
                        path.rsplit('/').next().filter(|p| !p.is_empty()).unwrap_or("/").to_string()
                    }
                };
                format!("{name} {short}")
            }
            None => name.to_string(),
        }
    }

    /// The kernel release its printed fields point to.
    pub fn release(&self) -> String {
        super::summary::generation(&self.collector.decoder)
    }

    /// The summary of everything read so far.
    pub fn summary(&self) -> TraceSummary {
        self.collector.summary(&self.source)
    }

    /// What the reader counted: lines, events, skipped lines.
    pub fn stats(&self) -> &super::reader::ReadStats {
        &self.collector.decoder.stats
    }

    /// The trace's own clock at the playhead \[s\].
    pub fn clock_s(&self) -> Option<f64> {
        // A later stretch of time order (traces joined) is shown moved:
        // its own stamps are what the row's offset takes off; none
        // between two stretches.
        let offset = match self.row_shown() {
            Some(r) => r.offset_s?,
            None => 0.0,
        };
        self.collector.series().and_then(|s| s.t0).map(|t0| t0 + self.at_ns as f64 / 1e9 - offset)
    }

    /// Tasks with a throttling pass up to the playhead.
    pub fn task_count(&self) -> usize {
        self.tasks.iter().filter(|s| s.seen).count()
    }

    /// The task table's rows `first..first + n`: each task seen, first
    /// seen first, with its bdi, its rate over the last second (pages its
    /// throttling calls that slept report dirtied, each call's once, a
    /// task's first traced call left out: its passes all
    /// print the same `dirtied=`), last pause and nr_dirtied_pause.
    pub fn task_lines(&self, first: usize, n: usize) -> Vec<TaskLine> {
        let (recent, from) = self.recent_passes();
        let secs = (self.at_ns - from).max(1) as f64 / 1e9;
        self.tasks
            .iter()
            .enumerate()
            .filter(|(_, s)| s.seen)
            .skip(first)
            .take(n)
            .map(|(id, s)| {
                let mine = || recent.iter().filter(|p| p.task as usize == id);
                let counted = || mine().filter(|p| p.starts_call && p.after_a_call);
                let pages: i64 = counted().map(|p| p.dirtied).sum();
                TaskLine {
                    name: self.collector.decoder.tasks[id].to_string(),
                    kind: None,
                    bdi: self.bdi_short(s.bdi as usize),
                    // None (–) where no call of the task counts yet.
                    rate_pages: counted().next().map(|_| (pages * self.page_factor as i64) as f64 / secs),
                    pause_ms: s.pause_ms as f64,
                    nr_dirtied_pause: s.dirtied_pause,
                }
            })
            .collect()
    }

    /// Pages all tasks dirtied per second over the second up to the
    /// playhead, from global_dirty_state's dirtied counter, in 4 KiB
    /// pages \[pages/s\]; `None` without it.
    pub fn dirtied_all_pages(&self) -> Option<f64> {
        let rows = &self.collector.series()?.rows;
        let end = self.samples.len().saturating_sub(self.lead).min(rows.len());
        let from = self.at_ns.saturating_sub(RATE_WINDOW_NS);
        let first = self.samples.partition_point(|s| s.t_ns <= from).saturating_sub(self.lead).min(end);
        let rates: Vec<f64> = rows[first..end].iter().filter_map(|r| r.global.dirtied_rate).collect();
        (!rates.is_empty()).then(|| rates.iter().sum::<f64>() / rates.len() as f64 * self.page_factor as f64)
    }

    /// Tasks with a throttling pass on `bdi` in the second up to the
    /// playhead, those the task table gives a rate (chart 4's N counts
    /// only those their ratelimit held back); `None` before the first
    /// row.
    pub fn throttled(&self, bdi: usize) -> Option<u32> {
        self.row_shown()?;
        Some(self.throttled_tasks(Some(bdi)) as u32)
    }

    /// Tasks with a throttling pass in the second up to the playhead, on
    /// `bdi` or (`None`) on any: the rows of the task table with a rate.
    pub fn throttled_tasks(&self, bdi: Option<usize>) -> usize {
        let (recent, _) = self.recent_passes();
        let mut tasks: Vec<_> =
            recent.iter().filter(|p| bdi.is_none_or(|b| p.bdi as usize == b)).map(|p| p.task).collect();
        tasks.sort_unstable();
        tasks.dedup();
        tasks.len()
    }

    /// The passes in the window of the task table's rates, the second up
    /// to the playhead, and when it starts \[ns\].
    fn recent_passes(&self) -> (&[PausePoint], u64) {
        let (passes, t0) = passes(&self.collector);
        let shown = &passes[..self.shown_passes];
        let from = self.at_ns.saturating_sub(RATE_WINDOW_NS);
        (&shown[shown.partition_point(|p| pass_ns(t0, p) <= from)..], from)
    }

    /// The row of the sample at the playhead (a file's first sample:
    /// the trace at its first event).
    fn row_shown(&self) -> Option<&Row> {
        let series = self.collector.series()?;
        match self.samples.len().checked_sub(1 + self.lead) {
            Some(i) => series.rows.get(i),
            None if self.samples.is_empty() => None,
            None => series.first.as_ref(),
        }
    }

    /// Where the stretch of time order (traces joined) shown at the
    /// playhead starts \[ns\]: 0 in the first; `None` between two
    /// stretches, where none is.
    pub fn stretch_start_ns(&self) -> Option<u64> {
        let Some(series) = self.collector.series() else { return Some(0) };
        if self.row_shown().is_some_and(|r| r.offset_s.is_none()) {
            return None;
        }
        let t0 = series.t0.unwrap_or(0.0);
        let ns = |t: f64| ((t - t0) * 1e9).round().max(0.0) as u64;
        let starts = &series.stretch_starts;
        let i = starts.partition_point(|&t| ns(t) <= self.at_ns);
        Some(i.checked_sub(1).map_or(0, |i| ns(starts[i])))
    }

    /// When `bdi`'s last balance_dirty_pages event up to the playhead
    /// was \[ns\]; `None` before its first.
    pub fn last_pass_ns(&self, bdi: usize) -> Option<u64> {
        self.last_event_ns(bdi, |b| b.last_pass_s)
    }

    /// When `bdi`'s last bdi_dirty_ratelimit event up to the playhead
    /// was \[ns\]; `None` before its first.
    pub fn last_ratelimit_ns(&self, bdi: usize) -> Option<u64> {
        self.last_event_ns(bdi, |b| b.last_ratelimit_s)
    }

    fn last_event_ns(&self, bdi: usize, at: impl Fn(&super::series::BdiRow) -> Option<f64>) -> Option<u64> {
        let t_s = at(self.row_shown()?.bdis.get(bdi)?)?;
        Some(((t_s - self.collector.series()?.t0?).max(0.0) * 1e9).round() as u64)
    }

    /// The sample at `t_ns` or the last before it, up to the playhead.
    pub fn sample_at(&self, t_ns: u64) -> Option<&Sample> {
        let i = self.samples.partition_point(|s| s.t_ns <= t_ns).checked_sub(1)?;
        self.samples.get(i)
    }

    /// Median nr_dirtied_pause of the tasks last seen on `bdi` \[pages\].
    pub fn nr_dirtied_pause(&self, bdi: usize) -> Option<i64> {
        let v: Vec<f64> = self
            .tasks
            .iter()
            .filter(|s| s.seen && s.bdi as usize == bdi)
            .filter_map(|s| s.dirtied_pause.map(|p| p as f64))
            .collect();
        crate::units::median(v).map(|m| m.round() as i64)
    }
}

/// Every throttling pass `c` read, in time order, and the trace's first
/// time \[s\]: held by its series only.
fn passes(c: &Collector) -> (&[PausePoint], f64) {
    match c.series() {
        Some(s) => (&s.pauses, s.t0.unwrap_or(0.0)),
        None => (&[], 0.0),
    }
}

/// When pass `p` was on the side's clock, from the trace's first time
/// `t0` \[ns\].
fn pass_ns(t0: f64, p: &PausePoint) -> u64 {
    ((p.t_s - t0).max(0.0) * 1e9).round() as u64
}

/// A bdi sample before the bdi is first seen: all unknown.
pub fn empty_bdi() -> BdiSample {
    BdiSample::default()
}

/// A row as a sample at `t_ns`, noting what it knows in `cov` and adding
/// each bdi's pages dirtied over the row to `dirtied`. Page counts are
/// multiplied by `factor` into 4 KiB pages; rates, read from KB/s,
/// already are in them.
/// `row` as the sample at `t_ns`; `ns` turns the trace's times into the
/// samples' clock.
fn sample_of(
    row: &Row,
    t_ns: u64,
    ns: &dyn Fn(f64) -> u64,
    bdis: usize,
    factor: u64,
    dirtied: &mut [f64],
    cov: &mut Coverage,
) -> Sample {
    let g = &row.global;
    // Where in the row the events printing a quantity first are: a line
    // starts there, not at the row's end.
    let first = |times: &[Option<f64>]| times.iter().flatten().copied().reduce(f64::min).map(ns);
    let from_global = first(&[g.first_global_s, g.first_pass_s]);
    let from_gds = first(&[g.first_global_s]);
    let mut known = |q: Quantity, bdi: Option<usize>, v: Option<u64>| {
        if v.is_some() {
            cov.note(
                q,
                bdi,
                t_ns,
                if q == Quantity::Writeback || q == Quantity::BgThresh { from_gds } else { from_global },
            );
        }
        v.unwrap_or(0)
    };
    let scaled = |v: Option<u64>| v.map(|p| p.saturating_mul(factor));
    let g = &GlobalRow {
        dirty: scaled(g.dirty),
        writeback: scaled(g.writeback),
        unstable: scaled(g.unstable),
        thresh: scaled(g.thresh),
        bg_thresh: scaled(g.bg_thresh),
        limit: scaled(g.limit),
        setpoint: scaled(g.setpoint),
        ..g.clone()
    };
    let (limit, setpoint) = (g.limit, g.setpoint);
    let freerun = g.freerun().or_else(|| setpoint.zip(limit).map(|(s, l)| (2 * s).saturating_sub(l)));
    // The bdi lines are drawn against thresh; without global_dirty_state
    // the limit stands for it.
    let thresh = g.thresh.or(limit);
    let mut s = Sample {
        t_ns,
        dirty: known(Quantity::Dirty, None, g.dirty),
        writeback: known(Quantity::Writeback, None, g.writeback),
        unstable: g.unstable.unwrap_or(0),
        thresh: thresh.unwrap_or(0),
        bg_thresh: known(Quantity::BgThresh, None, g.bg_thresh),
        freerun: known(Quantity::Freerun, None, freerun),
        setpoint: known(Quantity::Setpoint, None, setpoint),
        limit: known(Quantity::Limit, None, limit),
        dirtyable: 0,
        bdis: Vec::with_capacity(bdis),
    };
    if g.thresh.is_some() {
        cov.note(Quantity::Thresh, None, t_ns, from_gds);
    }
    let above_freerun = g.dirty.zip(freerun).is_some_and(|(d, f)| d > f);
    // A pass (balance_dirty_pages or bdi_dirty_ratelimit, which the
    // kernel prints on its way to a pause) proves pos_ratio was computed.
    let passed_in_row = |at: Option<f64>| at.is_some_and(|at| at > row.t_s - BIN_S - 1e-6);
    for (i, acc) in dirtied.iter_mut().enumerate().take(bdis) {
        let Some(b) = row.bdis.get(i) else {
            s.bdis.push(empty_bdi());
            continue;
        };
        let (pass, ratelimit) = (first(&[b.first_pass_s]), first(&[b.first_ratelimit_s]));
        let mut known = |q: Quantity, v: Option<u64>| {
            if v.is_some() {
                let from = match q.events() {
                    [EventKind::BalanceDirtyPages] => pass,
                    [EventKind::BdiDirtyRatelimit] => ratelimit,
                    _ => pass.into_iter().chain(ratelimit).min(),
                };
                cov.note(q, Some(i), t_ns, from);
            }
            v.unwrap_or(0)
        };
        let bdi_thresh = scaled(b.setpoint).zip(setpoint).zip(thresh).and_then(|((bs, sp), th)| {
            (sp > 0).then(|| (bs as u128 * (th as u128 + 1) / sp as u128).min(u64::MAX as u128) as u64)
        });
        *acc += b.dirty_rate.unwrap_or(0) as f64 * BIN_S;
        // pos_ratio as last printed holds while the kernel throttles:
        // above the global freerun ceiling, or, when the last pass was at
        // or below it, past the wb's own (strictlimit) or cgroup's
        // freerun, which the trace does not print; and in any row with a
        // pass of the bdi.
        let own_freerun = scaled(b.pass_dirty).zip(freerun).is_some_and(|(d, f)| d <= f);
        let computed =
            above_freerun || own_freerun || passed_in_row(b.last_pass_s) || passed_in_row(b.last_ratelimit_s);
        s.bdis.push(BdiSample {
            dirty: known(Quantity::BdiDirty, scaled(b.dirty)),
            writeback: 0,
            unstable: 0,
            thresh: known(Quantity::BdiThresh, bdi_thresh),
            setpoint: known(Quantity::BdiSetpoint, scaled(b.setpoint)),
            write_bw: known(Quantity::WriteBw, b.write_bw),
            avg_write_bw: known(Quantity::AvgWriteBw, b.avg_write_bw),
            dirty_ratelimit: known(Quantity::DirtyRatelimit, b.dirty_ratelimit),
            balanced_ratelimit: known(Quantity::Balanced, b.balanced_ratelimit),
            task_ratelimit: known(Quantity::TaskRatelimit, b.task_ratelimit),
            pos_ratio: b.pos_ratio.filter(|_| computed).map(|p| (p * 1024.0).round() as u64),
            // A count that only grows, also where the rate is not known
            // (charts take differences of it).
            dirtied: known(Quantity::Dirtied, b.dirty_rate.map(|_| 0)) + acc.round() as u64,
            written: 0,
            // N, as the kernel's dirty_ratelimit counts it: the tasks
            // their ratelimit held back.
            tasks: known(Quantity::Tasks, (b.ratelimited > 0).then_some(b.ratelimited as u64)) as u32,
            // The same tasks are the held ones. How fast the others dirty
            // the trace does not tell (a task below its ratelimit prints
            // no pass, or passes that do not count its pages apart): 0,
            // so the target stays write_bw / N, N the tasks held.
            held: b.ratelimited,
            unheld_dirty_rate: 0,
            max_pause: 0,
        });
    }
    s
}

/// `254:0 (vda)`: a bdi's device number with the name this machine gives
/// it, when it is a block device here.
fn device_label(bdi: &str) -> String {
    let uevent = std::fs::read_to_string(format!("/sys/dev/block/{bdi}/uevent")).unwrap_or_default();
    match uevent.lines().find_map(|l| l.strip_prefix("DEVNAME=")) {
        Some(dev) if bdi.split(':').all(|p| p.chars().all(|c| c.is_ascii_digit())) => format!("{bdi} ({dev})"),
        _ => bdi.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GDS: &str = "dirty=100 writeback=20 bg_thresh=1000 thresh=2000 limit=2000";

    fn side(text: &str) -> KernelSide {
        KernelSide::from_text("t", text).expect("a trace")
    }

    #[test]
    fn rows_become_samples_and_what_is_missing_is_never_known() {
        let k = side(&format!(
            "a-1 [000] 10.00: global_dirty_state: {GDS} dirtied=0 written=0\n\
             a-1 [000] 10.05: balance_dirty_pages: bdi 8:0: limit=2000 setpoint=1750 dirty=1600 bdi_setpoint=875 bdi_dirty=800 dirty_ratelimit=4096 task_ratelimit=2048 dirtied=32 dirtied_pause=32 paused=4 pause=12\n\
             a-1 [000] 10.31: global_dirty_state: {GDS} dirtied=256 written=128\n"
        ));
        assert_eq!(k.end_ns(), 310_000_000, "the last event");
        assert_eq!(k.least_span_s(), 0.31, "its charts' axis: the whole trace, not a second");
        assert_eq!(KernelSide::live("trace_pipe").least_span_s(), 1.0);
        let cov = k.coverage();
        assert_eq!(cov.since(Quantity::Thresh, 0), Some(0), "the first event");
        assert_eq!(cov.since(Quantity::BdiSetpoint, 0), Some(100_000_000));
        assert_eq!(cov.since(Quantity::WriteBw, 0), None, "no bdi_dirty_ratelimit event");
        assert_eq!(cov.since(Quantity::MaxPause, 0), None);
        let note = cov.missing(&[(Quantity::WriteBw, "write_bw"), (Quantity::Balanced, "balanced")], 0);
        assert_eq!(
            note.as_deref(),
            Some(
                "not in this trace: writeback:bdi_dirty_ratelimit for write_bw, balanced: not enabled, or no task \
                 throttled for 200 ms"
            )
        );
        let s = &k.all[1];
        // freerun (2000 + 1000) / 2; bdi_thresh from bdi_setpoint 875 = 1750 × bdi_thresh / 2001.
        assert_eq!((s.freerun, s.setpoint, s.limit), (1500, 1750, 2000));
        assert_eq!(s.bdis[0].thresh, 875 * 2001 / 1750);
        assert_eq!(s.bdis[0].pos_ratio, Some(512), "task_ratelimit / dirty_ratelimit above freerun");
        assert_eq!((s.bdis[0].dirty_ratelimit, s.bdis[0].task_ratelimit), (1024, 512), "KB/s to pages/s");
    }

    #[test]
    fn a_pass_below_the_global_freerun_has_a_pos_ratio_and_one_above_it_ends_there() {
        // BDI_CAP_STRICTLIMIT: the pass prints global dirty 120, far below
        // freerun 1500; the wb got past its own freerun. pos_ratio 3072 /
        // 4096 is what the kernel computed, in its row and while recent.
        let pass = |dirty: u32| {
            format!(
                "a-1 [000] 10.05: balance_dirty_pages: bdi 8:0: limit=2000 setpoint=1750 dirty={dirty} bdi_setpoint=100 bdi_dirty=110 dirty_ratelimit=4096 task_ratelimit=3072 dirtied=32 dirtied_pause=32 paused=0 pause=12\n"
            )
        };
        let trace = |dirty: u32| {
            side(&format!(
                "a-1 [000] 10.00: global_dirty_state: {GDS} dirtied=0 written=0\n{}                 a-1 [000] 10.31: global_dirty_state: {GDS} dirtied=256 written=128\n",
                pass(dirty)
            ))
        };
        let pos = |k: &KernelSide| k.all.iter().map(|s| (s.t_ns / 10_000_000, s.bdis[0].pos_ratio)).collect::<Vec<_>>();
        assert_eq!(pos(&trace(120)), [(0, None), (10, Some(768)), (20, Some(768)), (30, Some(768)), (31, Some(768))]);
        // A pass above freerun (1600), then global_dirty_state's 120 below
        // it: the kernel throttles no more, in the row of 10.31 s.
        assert_eq!(pos(&trace(1600)), [(0, None), (10, Some(768)), (20, Some(768)), (30, Some(768)), (31, None)]);
    }

    #[test]
    fn a_silence_is_no_count_on_the_dashboard() {
        // 90 s without an event: dirty is not known there (not 0, not the
        // last one held); thresh is.
        let mut k = side(&format!(
            "a-1 [000] 10.00: global_dirty_state: {GDS} dirtied=0 written=0\n\
             a-1 [000] 100.00: global_dirty_state: {GDS} dirtied=0 written=0\n"
        ));
        let cov = k.coverage();
        assert!(cov.known_at(Quantity::Dirty, 0, 100_000_000));
        assert!(!cov.known_at(Quantity::Dirty, 0, 50_000_000_000));
        assert!(cov.known_at(Quantity::Thresh, 0, 50_000_000_000));
        assert!(cov.known_at(Quantity::Dirty, 0, k.end_ns()), "the row of the event after it");
        assert_eq!(k.end_ns(), 90_000_000_001, "its time, after the silence's last row");
        assert_eq!(cov.last_known(Quantity::Dirty, 0, 50_000_000_000), Some(100_000_000));
        k.seek(50_000_000_000);
        assert_eq!(k.silence_now(), Some((0, 90_000_000_000)));
        k.seek(k.end_ns());
        assert_eq!(k.silence_now(), None);
    }

    #[test]
    fn chart_4s_n_is_the_tasks_held_by_their_ratelimit_and_the_panel_counts_all_throttled() {
        let k = side(&format!(
            "a-1 [000] 10.00: global_dirty_state: {GDS} dirtied=0 written=0\n\
             dd-2 [000] 10.01: balance_dirty_pages: bdi 8:0: limit=2000 setpoint=1750 dirty=1600 bdi_setpoint=875 bdi_dirty=800 dirty_ratelimit=4096 task_ratelimit=2048 dirtied=32 dirtied_pause=32 paused=0 pause=12\n\
             cc1-3 [000] 10.02: balance_dirty_pages: bdi 8:0: limit=2000 setpoint=1750 dirty=2100 bdi_setpoint=875 bdi_dirty=800 dirty_ratelimit=4096 task_ratelimit=0 dirtied=9 dirtied_pause=16 paused=0 pause=20\n\
             a-1 [000] 10.31: global_dirty_state: {GDS} dirtied=256 written=128\n"
        ));
        assert_eq!(k.all[1].bdis[0].tasks, 1, "N: dd-2 only");
        let mut k = k;
        assert_eq!(k.throttled(0), None, "nothing shown yet");
        k.seek(k.end_ns());
        assert_eq!(k.throttled(0), Some(2), "dd-2 and cc1-3 in the last second");
    }

    #[test]
    fn the_playhead_shows_what_came_before_it_and_seeks_back() {
        let mut k = side(&format!(
            "a-1 [000] 1.00: global_dirty_state: {GDS} dirtied=0 written=0\n\
             a-1 [000] 1.05: balance_dirty_pages: bdi 8:0: limit=2000 setpoint=1750 dirty=1600 bdi_setpoint=875 bdi_dirty=800 dirty_ratelimit=4096 task_ratelimit=2048 dirtied=64 dirtied_pause=32 paused=4 pause=12\n\
             b-2 [001] 1.25: balance_dirty_pages: bdi 8:0: limit=2000 setpoint=1750 dirty=1600 bdi_setpoint=875 bdi_dirty=800 dirty_ratelimit=4096 task_ratelimit=2048 dirtied=32 dirtied_pause=16 paused=0 pause=0\n\
             a-1 [000] 1.50: global_dirty_state: {GDS} dirtied=0 written=0\n"
        ));
        k.seek(200_000_000);
        assert_eq!(k.samples().len(), 3, "the first event's, then every 100 ms");
        assert_eq!((k.pause_log().len(), k.task_count()), (2, 1), "one sleep and its call; b not yet");
        let call = k.pause_log()[1];
        assert!(call.call && call.multi && call.pause == 16, "{call:?}");
        let lines = k.task_lines(0, 10);
        assert_eq!((lines[0].name.as_str(), lines[0].bdi.as_str()), ("a-1", "8:0"));
        assert_eq!((lines[0].pause_ms, lines[0].nr_dirtied_pause), (12.0, Some(32)));
        // Its first traced call: its 64 pages may be from before the
        // trace, and are not counted (no rate yet).
        assert_eq!(lines[0].rate_pages, None);
        k.seek(10_000_000_000);
        assert_eq!(k.at_ns(), k.end_ns(), "the playhead stops at the end");
        assert_eq!(k.task_count(), 2);
        k.seek(100_000_000);
        assert_eq!((k.samples().len(), k.pause_log().len(), k.task_count()), (2, 2, 1));
        assert_eq!(k.pauses().total(0, 0, 1_000_000_000).sleep_max, 12);
    }

    #[test]
    fn a_calls_dirtied_counts_once_however_many_passes_print_it() {
        // dd-1: one call over the limit (task_ratelimit 0) of four
        // passes, each reprinting dirtied=410, paused 0, 204, 408, 612
        // ms (stamps a hair after start + paused). cp-2: two calls of 100
        // pages each. cc-3: a call whose first pass was lost (paused=300
        // on its first seen): it counts once.
        let bdp = |task: &str, t: &str, tr: u32, dirtied: u32, paused: u32, pause: u32| {
            format!(
                "{task} [000] {t}: balance_dirty_pages: bdi 8:0: limit=2000 setpoint=1750 dirty=2100 \
                 bdi_setpoint=875 bdi_dirty=800 dirty_ratelimit=4096 task_ratelimit={tr} dirtied={dirtied} \
                 dirtied_pause=32 paused={paused} pause={pause}\n"
            )
        };
        let mut text = format!("a-9 [000] 10.000: global_dirty_state: {GDS} dirtied=0 written=0\n");
        // Each task's first traced call counts pages from before the
        // trace too: it is not counted.
        for (task, t) in [("dd-1", "10.050"), ("cp-2", "10.060"), ("cc-3", "10.070")] {
            text += &bdp(task, t, 2048, 999, 0, 4);
        }
        for (t, paused) in [("10.100", 0), ("10.3027", 204), ("10.5061", 408), ("10.7102", 612)] {
            text += &bdp("dd-1", t, 0, 410, paused, 200);
        }
        text += &bdp("cp-2", "10.200", 2048, 100, 0, 12);
        text += &bdp("cp-2", "10.400", 2048, 100, 0, 12);
        text += &bdp("cc-3", "10.600", 0, 50, 300, 200);
        text += &bdp("cc-3", "10.800", 0, 50, 504, 100);
        text += &format!("a-9 [000] 11.300: global_dirty_state: {GDS} dirtied=0 written=0\n");
        let mut k = side(&text);
        k.seek(1_000_000_000);
        let rates: Vec<_> = k.task_lines(0, 10).iter().map(|l| (l.name.clone(), l.rate_pages)).collect();
        // Over the second up to 11.0 s: 410, 200 and 50 pages, not 1640, 200 and 100.
        assert_eq!(rates, [("dd-1".into(), Some(410.0)), ("cp-2".into(), Some(200.0)), ("cc-3".into(), Some(50.0))]);
        // The playhead past the call's first pass: its later passes
        // count nothing (the pages were dirtied before the call).
        k.seek(k.end_ns());
        let dd = &k.task_lines(0, 1)[0];
        assert!(k.at_ns() >= 1_300_000_000, "{}", k.at_ns());
        assert_eq!((dd.name.as_str(), dd.rate_pages), ("dd-1", None), "no call started in the second shown");
    }

    #[test]
    fn a_file_shows_its_first_events_from_its_start_and_ends_at_its_last() {
        let mut k = side(&format!(
            "a-1 [000] 1.000: global_dirty_state: {GDS} dirtied=0 written=0\n\
             a-1 [000] 1.050: balance_dirty_pages: bdi 8:0: limit=2000 setpoint=1750 dirty=1600 bdi_setpoint=875 bdi_dirty=800 dirty_ratelimit=4096 task_ratelimit=2048 dirtied=64 dirtied_pause=32 paused=4 pause=12\n\
             a-1 [000] 1.430: global_dirty_state: dirty=300 writeback=20 bg_thresh=1000 thresh=2000 limit=2000 dirtied=0 written=0\n"
        ));
        // At the first event: what it printed, not nothing until 100 ms.
        for at in [0, 1_000_000, 99_000_000] {
            k.seek(at);
            let s = k.samples().back().expect("a sample at the first event");
            assert_eq!((s.t_ns, s.dirty, s.thresh, s.bg_thresh), (0, 120, 2000, 1000), "at {at} ns");
            assert!(k.coverage().known_at(Quantity::Dirty, 0, 0) && k.coverage().known_at(Quantity::Thresh, 0, 0));
            // The pass at 50 ms counts from then on, as the task table's.
            assert_eq!(k.throttled(0), Some(u32::from(at >= 50_000_000)), "at {at} ns");
        }
        // 149 ms: the row at 100 ms, with the pass at 50 ms.
        k.seek(149_000_000);
        assert_eq!(k.samples().back().map(|s| (s.t_ns, s.dirty)), Some((100_000_000, 1600)));
        assert_eq!((k.throttled(0), k.last_pass_ns(0)), (Some(1), Some(50_000_000)));
        // The end is the last event, 430 ms, not the end of its row's 100 ms.
        assert_eq!(k.end_ns(), 430_000_000);
        k.seek(u64::MAX);
        assert_eq!(k.samples().back().map(|s| (s.t_ns, s.dirty)), Some((430_000_000, 320)));
    }

    #[test]
    fn a_live_trace_grows_and_pads_bdis_seen_late() {
        let mut k = KernelSide::live("trace_pipe");
        assert_eq!(k.end_ns(), 0);
        k.feed([format!("a-1 [000] 5.00: global_dirty_state: {GDS} dirtied=0 written=0").as_str()]);
        k.feed([
            "a-1 [000] 5.30: bdi_dirty_ratelimit: bdi 8:16: write_bw=40960 awrite_bw=40960 dirty_rate=40960 dirty_ratelimit=10240 task_ratelimit=10240 balanced_dirty_ratelimit=10240",
        ]);
        assert_eq!(k.all.len(), 3);
        assert!(k.all.iter().all(|s| s.bdis.len() == 1), "earlier samples padded");
        assert_eq!(k.coverage().since(Quantity::WriteBw, 0), None, "its row is not closed yet");
        k.feed([format!("a-1 [000] 5.45: global_dirty_state: {GDS} dirtied=0 written=0").as_str()]);
        assert_eq!(k.coverage().since(Quantity::WriteBw, 0), Some(400_000_000));
        assert_eq!(k.all[3].bdis[0].avg_write_bw, 10240);
    }

    #[test]
    fn a_live_trace_keeps_only_its_last_two_hours() {
        // Three hours of one task pausing 10 ms every second, fed a
        // minute at a time.
        let mut k = KernelSide::live("trace_pipe");
        let bdp = |t: u64| {
            format!(
                "a-1 [000] {t}.50: balance_dirty_pages: bdi 8:0: limit=2000 setpoint=1750 dirty=1600 bdi_setpoint=875 bdi_dirty=800 dirty_ratelimit=4096 task_ratelimit=2048 dirtied=32 dirtied_pause=32 paused=0 pause=10"
            )
        };
        for minute in 0..180 {
            let lines: Vec<String> = (minute * 60..(minute + 1) * 60)
                .flat_map(|t| [format!("a-1 [000] {t}.00: global_dirty_state: {GDS} dirtied=0 written=0"), bdp(t)])
                .collect();
            k.feed(lines.iter().map(String::as_str));
            // The dashboard follows the end; here it stands still at 0 for
            // 130 minutes, and forgetting (first after 127.5) moves it on.
            if minute >= 130 {
                k.seek(u64::MAX);
            } else if minute == 129 {
                assert!(k.at_ns() > 0 && k.at_ns() == k.all[0].t_ns, "at {}", k.at_ns());
                assert_eq!(k.samples().len(), 1);
            }
        }
        let end = k.end_ns();
        assert!(end > 3 * 3_600_000_000_000 - 2_000_000_000, "{end}");
        let kept = end - k.all[0].t_ns;
        assert!((LIVE_KEEP_NS..=LIVE_KEEP_NS + LIVE_KEEP_NS / 16).contains(&kept), "kept {kept} ns");
        let series = k.collector.series().expect("rows");
        assert_eq!(series.rows.len(), k.all.len(), "the series forgets what the side forgets");
        assert!(series.pauses.len() <= 7650, "{} passes held", series.pauses.len());
        assert_eq!(k.records.len(), 2 * series.pauses.len(), "a sleep and its call per pass");
        // At the end, everything held is shown; going back stops at the
        // oldest held.
        assert_eq!((k.at_ns(), k.samples().len(), k.pause_log().len()), (end, k.all.len(), k.records.len()));
        k.seek(0);
        assert_eq!(k.samples().len(), 0);
        k.seek(u64::MAX);
        assert_eq!((k.samples().len(), k.pause_log().len()), (k.all.len(), k.records.len()));
        let last_hour = k.pauses().total(0, end - 3_600_000_000_000, end);
        assert_eq!((last_hour.sleeps, last_hour.sleep_max), (3600, 10));
    }

    #[test]
    fn a_busy_live_trace_keeps_only_its_last_passes() {
        // 40 passes a second for ten minutes, keeping 1600 passes (40 s).
        let mut k = KernelSide::live("trace_pipe");
        k.keep = (LIVE_KEEP_NS, 1600);
        for t in 0..600 {
            let mut lines = vec![format!("a-1 [000] {t}.000: global_dirty_state: {GDS} dirtied=0 written=0")];
            lines.extend((0..40).map(|i| {
                format!(
                    "a-{i} [001] {t}.{:03}: balance_dirty_pages: bdi 8:0: limit=2000 setpoint=1750 dirty=1600 bdi_setpoint=875 bdi_dirty=800 dirty_ratelimit=4096 task_ratelimit=2048 dirtied=32 dirtied_pause=32 paused=0 pause=5",
                    i * 25 + 1
                )
            }));
            k.feed(lines.iter().map(String::as_str));
            k.seek(u64::MAX);
        }
        let held = k.collector.series().expect("rows").pauses.len();
        assert!((1600..=1700).contains(&held), "{held} passes held");
        let span = k.end_ns() - k.all[0].t_ns;
        assert!((40_000_000_000..=43_000_000_000).contains(&span), "rows of {span} ns held");
        assert_eq!(k.records.len(), 2 * held, "a sleep and its call per pass");
        assert!(k.pause_log().len() > 2 * 1600, "shown up to the playhead: {}", k.pause_log().len());
        assert_eq!(k.task_count(), 40);
    }

    #[test]
    fn a_live_trace_is_redrawn_in_64_kib_pages_once_they_are_told() {
        // HZ 250, task_ratelimit 102400 KB/s = 1600 pages of 64 KiB a
        // second: 32 pages take 20 ms. Twenty passes tell the page size.
        let bdp = |i: u32| {
            format!(
                "a-1 [000] 1.{i:02}: balance_dirty_pages: bdi 8:0: limit=2000 setpoint=1750 dirty=1600 bdi_setpoint=875 bdi_dirty=800 dirty_ratelimit=102400 task_ratelimit=102400 dirtied=32 dirtied_pause=32 paused=0 pause=20 period=20 think=0"
            )
        };
        let mut k = KernelSide::live("trace_pipe");
        k.feed([format!("a-1 [000] 0.95: global_dirty_state: {GDS} dirtied=0 written=0").as_str()]);
        let lines: Vec<String> = (0..19).map(|i| bdp(i * 5)).collect();
        k.feed(lines.iter().map(String::as_str));
        k.seek(u64::MAX);
        let shown = |k: &KernelSide| {
            let s = k.samples().back().expect("a sample");
            (s.limit, s.bdis[0].dirty, s.bdis[0].dirty_ratelimit)
        };
        assert_eq!(shown(&k), (2000, 800, 25600), "19 passes: not told, read as 4 KiB");
        k.feed([bdp(96).as_str(), format!("a-1 [000] 1.99: global_dirty_state: {GDS} dirtied=0 written=0").as_str()]);
        k.seek(u64::MAX);
        assert_eq!(k.collector.page_kb(), Some(64));
        // In 4 KiB pages: 16 times the counts; the KB/s rate as it was.
        assert_eq!(shown(&k), (32000, 12800, 25600));
        assert!(k.all.iter().all(|s| s.limit == 0 || s.limit == 32000), "earlier rows redrawn too");
        assert!(k.samples().iter().all(|s| s.limit == 0 || s.limit == 32000), "and the ones shown");
    }
}
