//! What the figures show of a run, gathered as the session advances: each
//! quantity thinned to the figure's width (the smallest and largest value
//! of every column, so that no spike is lost), pauses and operating points
//! kept once per drawn position, and the headline numbers from every raw
//! sample and pause.

use std::collections::{BTreeMap, VecDeque};

use crate::ktrace::side::{Coverage, KernelSide, Quantity};
use crate::session::Side;
use crate::sim::config::Legacy;
use crate::sim::metrics::{BdiSample, Histogram, PauseRecord, Sample};
use crate::ui::charts::{Has, Kernel};
use crate::units::mib;

/// What the collector reads of one side of a run: a simulated world as it
/// has advanced, or a recorded kernel trace up to its playhead.
pub struct Feed<'a> {
    /// As the figures label the side ("patch 11 (IO-less)", "kernel").
    pub label: &'a str,
    /// The sampled time series, oldest first.
    pub samples: &'a VecDeque<Sample>,
    /// Samples dropped from the front of `samples` so far.
    pub samples_dropped: u64,
    /// Sleeps and whole throttling calls, in time order.
    pub pause_log: &'a VecDeque<PauseRecord>,
    /// The pause log holds every record from this time on \[ns\].
    pub pause_log_complete_from: u64,
    /// Jiffies per second of the pauses.
    pub hz: u64,
    /// The kernel it runs.
    pub kernel: Kernel,
    /// When each quantity is first known; `None`: all of them always (a
    /// simulation).
    pub coverage: Option<&'a Coverage>,
    /// Per bdi, how long the longest throttling call still in progress
    /// has lasted so far \[jiffies\] (0: none; empty: not known).
    pub in_call: Vec<u64>,
    /// The most dirty pages (dirty + writeback + unstable) of the run,
    /// and the most past the limit, as every dirtying left them
    /// \[pages\] (`None`: a trace, which has only what it prints).
    pub peak: Option<(u64, i64)>,
}

impl<'a> Feed<'a> {
    /// A side of a session.
    pub fn of(side: &'a Side) -> Feed<'a> {
        let w = &side.world;
        Feed {
            label: &side.label,
            samples: w.samples(),
            samples_dropped: w.samples_dropped(),
            pause_log: w.pause_log(),
            pause_log_complete_from: w.pause_log_complete_from(),
            hz: w.hz(),
            kernel: Kernel { patches: w.patches(), legacy: w.legacy() },
            coverage: None,
            in_call: crate::session::calls_in_progress(w),
            peak: Some((w.stats().max_dirty, w.stats().max_over_limit)),
        }
    }

    /// A kernel trace up to its playhead, as its dashboard charts it.
    pub fn of_trace(side: &'a KernelSide, label: &'a str) -> Feed<'a> {
        Feed {
            label,
            samples: side.samples(),
            samples_dropped: 0,
            pause_log: side.pause_log(),
            pause_log_complete_from: 0,
            hz: crate::ui::kernel::TRACE_HZ,
            kernel: crate::ui::kernel::TRACE_KERNEL,
            coverage: Some(side.coverage()),
            in_call: Vec::new(),
            peak: None,
        }
    }

    /// From when `q` of `bdi` is known \[ns\]; `None`: never.
    fn since(&self, q: Q, bdi: usize) -> Option<u64> {
        let Some(cov) = self.coverage else { return Some(0) };
        let known = |k: Quantity| cov.since(k, bdi);
        match q {
            // The target needs both: in a trace N, the tasks held, is
            // Quantity::Tasks (the tasks their ratelimit held back).
            Q::Target => match (known(Quantity::AvgWriteBw), known(Quantity::Tasks)) {
                (Some(a), Some(b)) => Some(a.max(b)),
                _ => None,
            },
            Q::DirtiedPerTask => match (known(Quantity::Dirtied), known(Quantity::Tasks)) {
                (Some(a), Some(b)) => Some(a.max(b)),
                _ => None,
            },
            q => known(q.quantity()),
        }
    }
}

/// A quantity drawn against time, in display units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Q {
    /// Global dirty + writeback + unstable \[MiB\].
    Dirty,
    /// Global writeback + unstable \[MiB\].
    Writeback,
    /// `background_thresh` \[MiB\].
    BgThresh,
    /// `dirty_freerun_ceiling()` \[MiB\].
    Freerun,
    /// Global setpoint \[MiB\].
    Setpoint,
    /// `hard_dirty_limit()` \[MiB\].
    Limit,
    /// `dirty_thresh` \[MiB\].
    Thresh,
    /// The bdi's reclaimable + writeback \[MiB\].
    BdiDirty,
    /// The bdi's writeback \[MiB\].
    BdiWriteback,
    /// `bdi_setpoint` \[MiB\].
    BdiSetpoint,
    /// `bdi_thresh` \[MiB\].
    BdiThresh,
    /// `write_bandwidth` \[MiB/s\].
    WriteBw,
    /// `avg_write_bandwidth` \[MiB/s\].
    AvgWriteBw,
    /// `dirty_ratelimit` \[MiB/s\].
    DirtyRatelimit,
    /// `balanced_dirty_ratelimit` \[MiB/s\].
    Balanced,
    /// The last `task_ratelimit` \[MiB/s\].
    TaskRatelimit,
    /// `avg_write_bandwidth / N`, what dirty_ratelimit should reach \[MiB/s\].
    Target,
    /// The longest pause balance_dirty_pages() would impose \[ms\].
    MaxPause,
    /// Pages the bdi wrote over the last second, measured from BDI_WRITTEN
    /// rather than estimated \[MiB/s\]; the collector computes it.
    Written,
    /// What each throttled task dirtied over the last second: the bdi's
    /// dirty rate less the tasks' not held, over the N held (the N of the
    /// target; over every task while none is held) \[MiB/s\]; the
    /// collector computes it.
    DirtiedPerTask,
}

impl Q {
    /// Every quantity, in index order.
    pub const ALL: [Q; 20] = [
        Q::Dirty,
        Q::Writeback,
        Q::BgThresh,
        Q::Freerun,
        Q::Setpoint,
        Q::Limit,
        Q::Thresh,
        Q::BdiDirty,
        Q::BdiWriteback,
        Q::BdiSetpoint,
        Q::BdiThresh,
        Q::WriteBw,
        Q::AvgWriteBw,
        Q::DirtyRatelimit,
        Q::Balanced,
        Q::TaskRatelimit,
        Q::Target,
        Q::MaxPause,
        Q::Written,
        Q::DirtiedPerTask,
    ];

    /// Its value in `s` for bdi sample `b`, in display units; NaN for a
    /// quantity of the bdi when the sample has none of it (a trace before
    /// an event names the bdi).
    fn value(self, s: &Sample, b: Option<&BdiSample>, hz: u64) -> f64 {
        let Some(b) = b else { return self.global(s) };
        match self {
            Q::BdiDirty => mib(b.dirty),
            Q::BdiWriteback => mib(b.writeback + b.unstable),
            Q::BdiSetpoint => mib(b.setpoint),
            Q::BdiThresh => mib(b.thresh),
            Q::WriteBw => mib(b.write_bw),
            Q::AvgWriteBw => mib(b.avg_write_bw),
            Q::DirtyRatelimit => mib(b.dirty_ratelimit),
            Q::Balanced => mib(b.balanced_ratelimit),
            Q::TaskRatelimit => b.task_ratelimit_now().map_or(f64::NAN, mib),
            // No task on the bdi, no target: no line, as on the dashboard.
            Q::Target => b.target().map_or(f64::NAN, mib),
            Q::MaxPause => b.max_pause as f64 * 1000.0 / hz as f64,
            Q::Written | Q::DirtiedPerTask => f64::NAN,
            _ => self.global(s),
        }
    }

    /// A global quantity's value in `s` (NaN for a bdi's).
    fn global(self, s: &Sample) -> f64 {
        match self {
            Q::Dirty => mib(s.dirty),
            Q::Writeback => mib(s.writeback + s.unstable),
            Q::BgThresh => mib(s.bg_thresh),
            Q::Freerun => mib(s.freerun),
            Q::Setpoint => mib(s.setpoint),
            Q::Limit => mib(s.limit),
            Q::Thresh => mib(s.thresh),
            _ => f64::NAN,
        }
    }

    /// What a kernel trace calls it, to tell whether it holds it.
    fn quantity(self) -> Quantity {
        match self {
            Q::Dirty => Quantity::Dirty,
            Q::Writeback => Quantity::Writeback,
            Q::BgThresh => Quantity::BgThresh,
            Q::Freerun => Quantity::Freerun,
            Q::Setpoint => Quantity::Setpoint,
            Q::Limit => Quantity::Limit,
            Q::Thresh => Quantity::Thresh,
            Q::BdiDirty => Quantity::BdiDirty,
            Q::BdiWriteback => Quantity::BdiWriteback,
            Q::BdiSetpoint => Quantity::BdiSetpoint,
            Q::BdiThresh => Quantity::BdiThresh,
            Q::WriteBw => Quantity::WriteBw,
            Q::AvgWriteBw | Q::Target => Quantity::AvgWriteBw,
            Q::DirtyRatelimit => Quantity::DirtyRatelimit,
            Q::Balanced => Quantity::Balanced,
            Q::TaskRatelimit => Quantity::TaskRatelimit,
            Q::MaxPause => Quantity::MaxPause,
            Q::Written => Quantity::Written,
            Q::DirtiedPerTask => Quantity::Dirtied,
        }
    }

    /// The kernel `side` runs computes this quantity (Linux 3.1 and 2.6.38
    /// have no position or rate control; 2.6.38 no bandwidth estimate).
    /// The freerun ceiling is every kernel's: their IO-full loop throttles
    /// no task below the same `(background_thresh + dirty_thresh) / 2`.
    pub fn exists(self, patches: u8, legacy: Legacy) -> bool {
        let kernel = Kernel { patches, legacy };
        match self {
            Q::Setpoint | Q::BdiSetpoint => kernel.position() != Has::No,
            Q::DirtyRatelimit | Q::Balanced | Q::TaskRatelimit => kernel.ratelimit() != Has::No,
            Q::WriteBw | Q::AvgWriteBw | Q::Target => kernel.bandwidth(),
            _ => true,
        }
    }
}

/// The smallest and largest value in each of a fixed number of time
/// columns: drawn in time order, the line keeps every spike.
#[derive(Clone, Debug)]
pub struct Envelope {
    t0: f64,
    col_s: f64,
    cols: Vec<Option<[(f64, f64); 2]>>,
    /// Where each run of known values starts \[s\]: the line is broken
    /// before each but the first.
    starts: Vec<f64>,
    /// The last value added was known.
    open: bool,
}

impl Envelope {
    /// `n` columns over `[t0, t1]` \[s\].
    pub fn new(t0: f64, t1: f64, n: usize) -> Envelope {
        Envelope { t0, col_s: ((t1 - t0) / n as f64).max(1e-9), cols: vec![None; n], starts: Vec::new(), open: false }
    }

    /// The column of time `t` \[s\].
    fn col(&self, t: f64) -> usize {
        (((t - self.t0) / self.col_s).max(0.0) as usize).min(self.cols.len() - 1)
    }

    /// Adds the value `v` at time `t` \[s\], in time order; NaN (not
    /// known then) is left out, and the line broken there.
    pub fn add(&mut self, t: f64, v: f64) {
        if v.is_nan() {
            self.open = false;
            return;
        }
        if !self.open {
            self.starts.push(t);
            self.open = true;
        }
        let i = self.col(t);
        let c = self.cols[i].get_or_insert([(t, v), (t, v)]);
        if v < c[0].1 {
            c[0] = (t, v);
        }
        if v > c[1].1 {
            c[1] = (t, v);
        }
    }

    /// The points to draw, in time order.
    pub fn points(&self) -> Vec<(f64, f64)> {
        let mut out = Vec::new();
        for [lo, hi] in self.cols.iter().flatten() {
            let (a, b) = if lo.0 <= hi.0 { (lo, hi) } else { (hi, lo) };
            out.push(*a);
            if b != a {
                out.push(*b);
            }
        }
        out
    }

    /// The points to draw, in time order, in runs: the line is broken
    /// where its values were not known.
    pub fn runs(&self) -> Vec<Vec<(f64, f64)>> {
        let mut runs: Vec<Vec<(f64, f64)>> = Vec::new();
        let mut next = 0;
        for p in self.points() {
            let mut new_run = runs.is_empty();
            while next < self.starts.len() && self.starts[next] <= p.0 {
                new_run |= next > 0;
                next += 1;
            }
            match runs.last_mut() {
                Some(run) if !new_run => run.push(p),
                _ => runs.push(vec![p]),
            }
        }
        runs
    }
}

/// The slots of [`Means`]: one per quantity of [`Q::ALL`], then pos_ratio.
const SLOTS: usize = Q::ALL.len() + 1;

/// The slot of pos_ratio in [`Means`].
pub const POS_RATIO: usize = Q::ALL.len();

/// Means over the second half of the plotted time, from every sample
/// where their quantity was known (a trace's, while its events print
/// it), and how long it was known there.
#[derive(Clone, Debug, Default)]
pub struct Means {
    /// Global dirty \[MiB\]; NaN where no sample fell in the window (a
    /// run shorter than two samples).
    pub dirty: f64,
    /// Global setpoint \[MiB\]; NaN as `dirty`.
    pub setpoint: f64,
    /// The bdi's dirty pages \[MiB\]; NaN where never known.
    pub bdi_dirty: f64,
    /// bdi_setpoint, where defined \[MiB\].
    pub bdi_setpoint: f64,
    /// pos_ratio (1.0 = the balanced rate) over the samples where the
    /// kernel computes one; `None` where it computed none.
    pub pos_ratio: Option<f64>,
    /// dirty_ratelimit \[MiB/s\]; NaN where never known.
    pub dirty_ratelimit: f64,
    /// The target write_bw/N, N the tasks throttled
    /// ([`crate::sim::metrics::BdiSample::target`]) \[MiB/s\], over the
    /// samples where tasks dirtied the bdi.
    pub target: f64,
    /// Per slot, the sum of the values and how many there were.
    sums: [(f64, u64); SLOTS],
    /// Per slot, how long its value was known in the window \[ns\].
    known_ns: [u64; SLOTS],
    /// How long the window is \[ns\].
    window_ns: u64,
}

impl Means {
    /// Some sample had tasks dirtying the bdi, and so a target.
    pub fn has_target(&self) -> bool {
        self.sums[Q::Target as usize].1 > 0
    }

    /// How long the value of `slot` (a quantity, or [`POS_RATIO`]) was
    /// known over the means' window, and how long that is \[s\].
    pub fn known_s(&self, slot: usize) -> (f64, f64) {
        (self.known_ns[slot] as f64 / 1e9, self.window_ns as f64 / 1e9)
    }

    /// Adds one sample: each slot's value (NaN: not known then) and the
    /// time it covers in the window \[ns\].
    fn add(&mut self, values: &[f64; SLOTS], covers: &[u64; SLOTS]) {
        for (k, &v) in values.iter().enumerate().filter(|(_, v)| !v.is_nan()) {
            self.sums[k].0 += v;
            self.sums[k].1 += 1;
            self.known_ns[k] += covers[k];
        }
    }

    /// The means; NaN where never known (0 for the bdi's setpoint and the
    /// target).
    fn finish(mut self, window_ns: u64) -> Means {
        let mean = |k: usize| {
            let (sum, n) = self.sums[k];
            if n > 0 { sum / n as f64 } else { f64::NAN }
        };
        let or_0 = |v: f64| if v.is_nan() { 0.0 } else { v };
        self.dirty = mean(Q::Dirty as usize);
        self.setpoint = mean(Q::Setpoint as usize);
        self.bdi_dirty = mean(Q::BdiDirty as usize);
        self.bdi_setpoint = or_0(mean(Q::BdiSetpoint as usize));
        self.pos_ratio = Some(mean(POS_RATIO)).filter(|p| !p.is_nan());
        self.dirty_ratelimit = mean(Q::DirtyRatelimit as usize);
        self.target = or_0(mean(Q::Target as usize));
        self.window_ns = window_ns;
        self
    }
}

/// One side of the run, as the figures need it.
#[derive(Clone, Debug)]
pub struct SideData {
    /// As the session labels it ("patch 11 (IO-less)").
    pub label: String,
    /// Its patch level.
    pub patches: u8,
    /// The kernel under the patches.
    pub legacy: Legacy,
    /// Every quantity of [`Q::ALL`], thinned.
    pub lines: Vec<Envelope>,
    /// One throttling sleep per drawn position: (time \[s\], pause \[ms\]).
    pub sleeps: Vec<(f64, f64)>,
    /// Calls that slept more than once or wrote back pages themselves:
    /// (time \[s\], call duration \[ms\]).
    pub calls: Vec<(f64, f64)>,
    /// Operating points (global dirty \[MiB\], pos_ratio), once per drawn position.
    pub operating: Vec<(f64, f64)>,
    /// Every sleep of the bdi's tasks \[jiffies\].
    pub sleep_hist: Histogram,
    /// Every call of the bdi's tasks that blocked \[jiffies\].
    pub call_hist: Histogram,
    /// How long the longest call of the bdi's tasks still in progress at
    /// the last read had lasted \[jiffies\] (0: none): not in `call_hist`.
    pub in_call: u64,
    /// The run's most dirty pages and most past the limit, from every
    /// dirtying, not from the samples the lines are drawn from \[MiB\].
    pub peak: Option<(f64, f64)>,
    /// HZ of the world.
    pub hz: u64,
    /// Second-half means.
    pub means: Means,
    /// Pages the bdi wrote in the plotted time's second half \[MiB\], and
    /// over how long \[s\].
    pub written: (f64, f64),
    /// The last sample.
    pub last: Option<Sample>,
    /// Some pauses fell out of the world's log before they were read.
    pub pauses_lost: bool,
    /// From when each quantity of [`Q::ALL`] is known \[ns\]; `None`:
    /// never (a kernel trace without the event that prints it).
    pub since: Vec<Option<u64>>,
    /// A recorded kernel trace, not a simulation.
    pub trace: bool,
    /// Its source records throttling pauses (a trace may not).
    pub pauses_known: bool,
}

impl SideData {
    /// How long the call still in progress at the end has lasted, where
    /// it is longer than every call that returned \[ms\].
    pub fn blocked_ms(&self) -> Option<f64> {
        (self.in_call > self.call_hist.max()).then(|| self.ms(self.in_call))
    }

    /// The thinned points of `q`, its runs one after the other.
    #[cfg(test)]
    pub fn line(&self, q: Q) -> Vec<(f64, f64)> {
        self.runs(q).concat()
    }

    /// The thinned points of `q`, in runs: broken where it was not known.
    pub fn runs(&self, q: Q) -> Vec<Vec<(f64, f64)>> {
        self.lines[q as usize].runs()
    }

    /// The kernel this side ran, or its trace printed the fields of.
    pub fn kernel(&self) -> Kernel {
        Kernel { patches: self.patches, legacy: self.legacy }
    }

    /// This side's kernel computes `q`, and its source holds it.
    pub fn has(&self, q: Q) -> bool {
        q.exists(self.patches, self.legacy) && self.since[q as usize].is_some()
    }

    /// Milliseconds of `jiffies`.
    pub fn ms(&self, jiffies: u64) -> f64 {
        jiffies as f64 * 1000.0 / self.hz as f64
    }
}

/// Where reading a side's world stands.
#[derive(Clone, Debug, Default)]
struct Cursor {
    /// Samples read (counting those the world dropped).
    samples: u64,
    /// Time of the last pause record read \[ns\], and how many records at
    /// that time were read.
    pause_at: Option<(u64, usize)>,
    /// The bdi's BDI_WRITTEN at the first sample \[pages\], and its time \[ns\].
    written_from: Option<(u64, u64)>,
    /// BDI_WRITTEN over the last second.
    recent_written: Recent,
    /// BDI_DIRTIED over the last second.
    recent_dirtied: Recent,
    /// The last sample's time \[ns\], and per slot of [`Means`] whether
    /// its value was known there.
    prev: Option<(u64, [bool; SLOTS])>,
}

/// A counter's readings over the last second, for its rate.
#[derive(Clone, Debug, Default)]
struct Recent(std::collections::VecDeque<(u64, u64)>);

impl Recent {
    /// Adds the reading at `t_ns` (`None`: not known, which forgets the
    /// others) and returns the counter's rate over about the last second
    /// \[per s\]; `None` at its first reading.
    fn rate(&mut self, t_ns: u64, value: Option<u64>) -> Option<f64> {
        let Some(value) = value else {
            self.0.clear();
            return None;
        };
        self.0.push_back((t_ns, value));
        while self.0.len() > 2 && self.0[1].0 + crate::sim::NS_PER_SEC <= t_ns {
            self.0.pop_front();
        }
        let &(then_ns, then) = self.0.front().filter(|r| r.0 < t_ns)?;
        Some(value.saturating_sub(then) as f64 / ((t_ns - then_ns) as f64 / 1e9))
    }
}

/// Position bins for thinning scatter points, per axis.
const BINS: f64 = 1200.0;

/// Gathers the figures' data from every side of a session over
/// `[start_ns, end_ns]`.
pub struct Collector {
    bdi: usize,
    start_ns: u64,
    end_ns: u64,
    sides: Vec<SideData>,
    cursors: Vec<Cursor>,
    sleep_bins: Vec<BTreeMap<(u32, u32), f64>>,
    call_bins: Vec<BTreeMap<(u32, u32), f64>>,
    op_bins: Vec<BTreeMap<(u32, u32), (f64, f64)>>,
    means: Vec<Means>,
}

impl Collector {
    /// A collector for bdi `bdi` of every side of `feeds`, with `columns`
    /// time columns over `[start_ns, end_ns]`.
    pub fn new(feeds: &[Feed], bdi: usize, start_ns: u64, end_ns: u64, columns: usize) -> Collector {
        let n = feeds.len();
        let (t0, t1) = (start_ns as f64 / 1e9, end_ns as f64 / 1e9);
        let sides = feeds
            .iter()
            .map(|f| SideData {
                label: f.label.to_string(),
                patches: f.kernel.patches,
                legacy: f.kernel.legacy,
                lines: Q::ALL.iter().map(|_| Envelope::new(t0, t1, columns)).collect(),
                sleeps: Vec::new(),
                calls: Vec::new(),
                operating: Vec::new(),
                sleep_hist: Histogram::default(),
                call_hist: Histogram::default(),
                in_call: 0,
                peak: None,
                hz: f.hz,
                means: Means::default(),
                written: (0.0, 0.0),
                last: None,
                pauses_lost: false,
                since: Q::ALL.iter().map(|&q| f.since(q, bdi)).collect(),
                trace: f.coverage.is_some(),
                pauses_known: f.coverage.is_none_or(|c| c.since(Quantity::Pauses, bdi).is_some()),
            })
            .collect();
        // Start at the sample in place when the plotted time begins.
        let cursors = feeds
            .iter()
            .map(|f| {
                let before = f.samples.partition_point(|s| s.t_ns < start_ns) as u64;
                Cursor {
                    samples: f.samples_dropped + before,
                    pause_at: Some((start_ns, f.pause_log.iter().filter(|r| r.t_ns == start_ns).count())),
                    written_from: None,
                    recent_written: Recent::default(),
                    recent_dirtied: Recent::default(),
                    prev: None,
                }
            })
            .collect();
        Collector {
            bdi,
            start_ns,
            end_ns,
            sides,
            cursors,
            sleep_bins: vec![BTreeMap::new(); n],
            call_bins: vec![BTreeMap::new(); n],
            op_bins: vec![BTreeMap::new(); n],
            means: vec![Means::default(); n],
        }
    }

    /// Reads what every side recorded since the last call.
    pub fn take(&mut self, feeds: &[Feed]) {
        for (i, feed) in feeds.iter().enumerate() {
            self.take_samples(i, feed);
            self.take_pauses(i, feed);
            self.sides[i].in_call = feed.in_call.get(self.bdi).copied().unwrap_or(0);
            self.sides[i].peak = feed.peak.map(|(most, over)| (mib(most), over as f64 / 256.0));
        }
    }

    fn take_samples(&mut self, i: usize, f: &Feed) {
        let dropped = f.samples_dropped;
        let from = self.cursors[i].samples.saturating_sub(dropped) as usize;
        let half_ns = self.start_ns + (self.end_ns - self.start_ns) / 2;
        let since = self.sides[i].since.clone();
        let bdi = self.bdi;
        // A trace's bdi quantity is known while its events print it.
        let current = |q: Q, t_ns: u64| f.coverage.is_none_or(|c| c.known_at(q.quantity(), bdi, t_ns));
        let known = |q: Q, t_ns: u64| since[q as usize].is_some_and(|since| since <= t_ns) && current(q, t_ns);
        let data = &mut self.sides[i];
        for s in f.samples.range(from.min(f.samples.len())..) {
            if s.t_ns < self.start_ns || s.t_ns > self.end_ns {
                continue;
            }
            // A trace's samples hold no bdi before an event names one (and
            // none at all when it has only global_dirty_state): their
            // global quantities are drawn all the same.
            let b = s.bdis.get(self.bdi);
            let t = s.t_ns as f64 / 1e9;
            // A trace's quantity is left out until an event prints it; its
            // tasks are counted in a row only when they pass through
            // balance_dirty_pages in it: no tasks, no target.
            let value = |q: Q| match known(q, s.t_ns) {
                true if q == Q::Target && data.trace && b.is_none_or(|b| b.tasks == 0) => f64::NAN,
                true => q.value(s, b, data.hz),
                false => f64::NAN,
            };
            let mut values = [f64::NAN; SLOTS];
            for q in Q::ALL {
                values[q as usize] = value(q);
            }
            values[POS_RATIO] = b.and_then(|b| b.pos_ratio).map_or(f64::NAN, |p| p as f64 / 1024.0);
            // No task dirtying the bdi, no target to average.
            let mut known_values = values;
            if b.is_none_or(|b| b.tasks == 0) {
                known_values[Q::Target as usize] = f64::NAN;
            }
            // Where a trace's value starts, the first event in the row
            // that printed it: the row's time is up to 100 ms after it.
            let cursor = &mut self.cursors[i];
            let (prev_ns, was) = cursor.prev.unwrap_or((s.t_ns, [false; SLOTS]));
            let printed_at = |k: usize| {
                let q = if k == POS_RATIO { Q::TaskRatelimit } else { Q::ALL[k] };
                let start = f.coverage?.starts_at(q.quantity(), bdi, s.t_ns)?;
                Some(start.max(prev_ns)).filter(|_| !was[k] && !known_values[k].is_nan())
            };
            let mut covers = [0; SLOTS];
            for (k, c) in covers.iter_mut().enumerate() {
                let from = if was[k] { Some(prev_ns) } else { printed_at(k) };
                *c = from.map_or(0, |from| s.t_ns.saturating_sub(from.max(half_ns)));
            }
            for q in Q::ALL {
                // These are computed below, from the samples of a second.
                if matches!(q, Q::Written | Q::DirtiedPerTask) {
                    continue;
                }
                if let Some(e) = printed_at(q as usize).filter(|&e| e < s.t_ns) {
                    data.lines[q as usize].add(e as f64 / 1e9, values[q as usize]);
                }
                data.lines[q as usize].add(t, values[q as usize]);
            }
            cursor.prev = Some((s.t_ns, known_values.map(|v| !v.is_nan())));
            if let Some((dirty, p)) = s.operating_point(self.bdi).filter(|_| s.limit > 0) {
                let pos_ratio = p as f64 / 1024.0;
                let x = (dirty as f64 / s.limit as f64 * BINS / 1.1) as u32;
                let y = (pos_ratio / 2.5 * BINS / 2.0) as u32;
                self.op_bins[i].entry((x, y)).or_insert((mib(dirty), pos_ratio));
            }
            if s.t_ns >= half_ns {
                self.means[i].add(&known_values, &covers);
            }
            data.last = Some(s.clone());
            // The rates over the last second: a line breaks where its
            // counter is not known, and starts again a sample after.
            let counter = |q: Q| b.filter(|_| known(q, s.t_ns));
            let cursor = &mut self.cursors[i];
            let written = counter(Q::Written).map(|b| b.written);
            let rate = cursor.recent_written.rate(s.t_ns, written);
            data.lines[Q::Written as usize].add(t, rate.map_or(f64::NAN, mib));
            let dirtied = counter(Q::DirtiedPerTask).map(|b| b.dirtied);
            let rate = cursor.recent_dirtied.rate(s.t_ns, dirtied);
            let each = rate.zip(b).and_then(|(rate, b)| b.dirtied_per_task(rate));
            data.lines[Q::DirtiedPerTask as usize].add(t, each.map_or(f64::NAN, mib));
            let Some(b) = counter(Q::Written) else { continue };
            // Over the second half, as the means beside it in the title.
            if s.t_ns >= half_ns {
                let from = *cursor.written_from.get_or_insert((b.written, s.t_ns));
                data.written = (mib(b.written - from.0), (s.t_ns - from.1) as f64 / 1e9);
            }
        }
        self.cursors[i].samples = dropped + f.samples.len() as u64;
    }

    fn take_pauses(&mut self, i: usize, f: &Feed) {
        let log = f.pause_log;
        let cursor = &mut self.cursors[i];
        let (at, seen) = cursor.pause_at.unwrap_or((0, 0));
        if f.pause_log_complete_from > at + 1 {
            self.sides[i].pauses_lost = true;
        }
        let first = log.partition_point(|r| r.t_ns < at);
        let col_s = (self.end_ns - self.start_ns).max(1) as f64 / BINS;
        let mut last = (at, seen);
        for (k, r) in log.range(first..).enumerate() {
            if r.t_ns == at && k < seen {
                continue;
            }
            last = if r.t_ns == last.0 { (last.0, last.1 + 1) } else { (r.t_ns, 1) };
            if r.bdi as usize != self.bdi || r.t_ns < self.start_ns || r.t_ns > self.end_ns {
                continue;
            }
            let col = ((r.t_ns - self.start_ns) as f64 / col_s) as u32;
            let t = r.t_ns as f64 / 1e9;
            let data = &mut self.sides[i];
            if r.call {
                data.call_hist.add(u64::from(r.pause));
                if r.multi {
                    self.call_bins[i].entry((col, r.pause)).or_insert(t);
                }
            } else {
                data.sleep_hist.add(u64::from(r.pause));
                self.sleep_bins[i].entry((col, r.pause)).or_insert(t);
            }
        }
        cursor.pause_at = Some(last);
    }

    /// The data of every side.
    pub fn finish(mut self) -> Vec<SideData> {
        for (i, data) in self.sides.iter_mut().enumerate() {
            let ms = |j: u32| f64::from(j) * 1000.0 / data.hz as f64;
            data.sleeps = self.sleep_bins[i].iter().map(|(&(_, p), &t)| (t, ms(p))).collect();
            data.calls = self.call_bins[i].iter().map(|(&(_, p), &t)| (t, ms(p))).collect();
            data.operating = self.op_bins[i].values().copied().collect();
            let half_ns = self.start_ns + (self.end_ns - self.start_ns) / 2;
            data.means = std::mem::take(&mut self.means[i]).finish(self.end_ns - half_ns);
        }
        self.sides
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_envelope_keeps_each_columns_extremes_in_time_order() {
        let mut e = Envelope::new(0.0, 10.0, 2);
        for (t, v) in [(0.0, 5.0), (1.0, 9.0), (2.0, 1.0), (4.9, 5.0), (5.0, 3.0), (9.0, 3.0)] {
            e.add(t, v);
        }
        assert_eq!(e.points(), vec![(1.0, 9.0), (2.0, 1.0), (5.0, 3.0)]);
    }

    #[test]
    fn an_envelope_is_broken_where_its_values_were_not_known() {
        let mut e = Envelope::new(0.0, 10.0, 10);
        for (t, v) in [(0.5, 1.0), (1.5, 2.0), (2.5, f64::NAN), (8.5, f64::NAN), (9.0, 5.0), (9.5, 6.0)] {
            e.add(t, v);
        }
        assert_eq!(e.runs(), vec![vec![(0.5, 1.0), (1.5, 2.0)], vec![(9.0, 5.0), (9.5, 6.0)]]);
        // A value known again within a column is a run of its own.
        let mut e = Envelope::new(0.0, 10.0, 1);
        for (t, v) in [(1.0, 1.0), (2.0, f64::NAN), (3.0, 9.0)] {
            e.add(t, v);
        }
        assert_eq!(e.runs(), vec![vec![(1.0, 1.0)], vec![(3.0, 9.0)]]);
    }

    #[test]
    fn legacy_kernels_have_no_position_or_rate_control() {
        assert!(!Q::Setpoint.exists(0, Legacy::Linux31));
        assert!(Q::Freerun.exists(0, Legacy::Linux31) && Q::Freerun.exists(0, Legacy::Linux2638));
        assert!(!Q::DirtyRatelimit.exists(3, Legacy::Linux31));
        assert!(Q::DirtyRatelimit.exists(4, Legacy::Linux31));
        assert!(Q::WriteBw.exists(0, Legacy::Linux31));
        assert!(!Q::WriteBw.exists(0, Legacy::Linux2638));
        assert!(Q::Thresh.exists(0, Legacy::Linux2638));
    }
}
