//! What the world records about itself as it runs: the sampled time
//! series behind the charts and the CSV, and run-wide statistics (pause
//! distributions, how far dirty pages ever ran past the limit).

/// The shortest span a rate between two samples is taken over \[ns\]:
/// half the 100 ms sample interval. A sample taken when a setting
/// changed may lie nanoseconds after another, and a rate over those
/// (843 750 000 MiB/s dirtied over 1 ns) says nothing; such a rate is
/// taken from the latest sample at least this much earlier.
pub const RATE_SPAN_NS: u64 = 50_000_000;

/// Where among `earlier` (samples in time order, all before `t_ns`) a
/// rate ending at `t_ns` starts: the latest sample at least
/// [`RATE_SPAN_NS`] before it; `None` where every one is nearer.
pub fn rate_base<'a>(earlier: impl DoubleEndedIterator<Item = &'a Sample>, t_ns: u64) -> Option<&'a Sample> {
    earlier.rev().find(|p| t_ns.saturating_sub(p.t_ns) >= RATE_SPAN_NS)
}

/// The world at one sample time. Pages and pages/s.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Simulated time \[ns\].
    pub t_ns: u64,
    /// File dirty + writeback + unstable \[pages\].
    pub dirty: u64,
    /// NR_WRITEBACK \[pages\].
    pub writeback: u64,
    /// NR_UNSTABLE_NFS \[pages\].
    pub unstable: u64,
    /// `dirty_thresh` \[pages\].
    pub thresh: u64,
    /// `background_thresh` \[pages\].
    pub bg_thresh: u64,
    /// Freerun ceiling \[pages\].
    pub freerun: u64,
    /// Global setpoint \[pages\].
    pub setpoint: u64,
    /// `hard_dirty_limit(thresh)` \[pages\].
    pub limit: u64,
    /// Dirtyable memory \[pages\].
    pub dirtyable: u64,
    /// Per bdi, in bdi order.
    pub bdis: Vec<BdiSample>,
}

/// One bdi at one sample time (by default: nothing known, all zero).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BdiSample {
    /// Reclaimable + writeback \[pages\].
    pub dirty: u64,
    /// Under writeback \[pages\].
    pub writeback: u64,
    /// NFS unstable \[pages\].
    pub unstable: u64,
    /// `bdi_dirty_limit(thresh)` \[pages\].
    pub thresh: u64,
    /// bdi setpoint \[pages\], as bdi_position_ratio() derives it from its
    /// inputs (also when dirty is at the limit and the kernel returns
    /// before deriving it).
    pub setpoint: u64,
    /// `write_bandwidth` \[pages/s\].
    pub write_bw: u64,
    /// `avg_write_bandwidth` \[pages/s\].
    pub avg_write_bw: u64,
    /// `dirty_ratelimit` \[pages/s\].
    pub dirty_ratelimit: u64,
    /// `balanced_dirty_ratelimit` \[pages/s\].
    pub balanced_ratelimit: u64,
    /// Last task_ratelimit handed to a throttled task \[pages/s\].
    pub task_ratelimit: u64,
    /// The position ratio now, 1.0 = 1024; `None` where the kernel does
    /// not compute one: below patch 02, and at or below the freerun
    /// ceiling (balance_dirty_pages() leaves before it).
    pub pos_ratio: Option<u64>,
    /// BDI_DIRTIED \[pages\].
    pub dirtied: u64,
    /// BDI_WRITTEN \[pages\].
    pub written: u64,
    /// Live tasks writing to it.
    pub tasks: u32,
    /// Of those, the tasks held in balance_dirty_pages() over the sample
    /// interval that ends here: they slept there in it (or were asleep
    /// there at its start) and never waited for work (a light writer for
    /// its next save, a pipeline for the network). Only the IO-less
    /// throttling (patch 07 on) holds tasks to `dirty_ratelimit`; below
    /// it, 0.
    pub held: u32,
    /// How fast the live tasks not held dirty pages: their dirty rates
    /// summed, each smoothed over about the last second (at each sample
    /// the interval's rate moves it by the interval's share of a second)
    /// \[pages/s\].
    pub unheld_dirty_rate: u64,
    /// The longest pause balance_dirty_pages() would impose now \[jiffies\].
    pub max_pause: u64,
}

impl Sample {
    /// The memory one sample of a world of `bdis` bdis takes \[bytes\]:
    /// itself and its bdis' samples.
    pub fn bytes(bdis: usize) -> usize {
        std::mem::size_of::<Sample>() + bdis * std::mem::size_of::<BdiSample>()
    }

    /// Where bdi `i` stands on chart 3's product line: the global dirty
    /// pages and pos_ratio \[pages, 1/1024\], where they belong together.
    /// A kernel trace's row holds the pos_ratio of a pass also after
    /// global_dirty_state printed fewer dirty pages than freerun in the
    /// same row; the pass's own count of the bdi's pages then lies above
    /// freerun, over the row's global count: its pos_ratio is of those.
    /// (In a simulated world the global count holds every bdi's pages.)
    pub fn operating_point(&self, i: usize) -> Option<(u64, u64)> {
        let b = self.bdis.get(i)?;
        let pos_ratio = b.pos_ratio?;
        let stale = self.dirty <= self.freerun && b.dirty > self.freerun;
        (!stale).then_some((self.dirty, pos_ratio))
    }
}

impl BdiSample {
    /// The rate `dirty_ratelimit` converges to \[pages/s\]; `None` without
    /// tasks. The balanced ratelimit (patch 04) settles where the bdi's
    /// dirty rate equals its bandwidth; the tasks not held dirty at their
    /// own pace, so the held tasks share what they leave:
    /// (avg_write_bw - unheld_dirty_rate) / held, 0 where the others dirty
    /// faster than the disk writes. Before any task is held (below the
    /// freerun ceiling, or a kernel without the IO-less throttling),
    /// avg_write_bw / tasks.
    pub fn target(&self) -> Option<f64> {
        if self.held > 0 {
            Some(self.avg_write_bw.saturating_sub(self.unheld_dirty_rate) as f64 / f64::from(self.held))
        } else {
            (self.tasks > 0).then(|| self.avg_write_bw as f64 / f64::from(self.tasks))
        }
    }

    /// The last task_ratelimit while the kernel computes one: above the
    /// freerun ceiling (where it computes pos_ratio), for the tasks
    /// writing to the bdi \[pages/s\]. Below it, or with no task, none
    /// is throttled, and the last one handed out is stale (or none was).
    pub fn task_ratelimit_now(&self) -> Option<u64> {
        self.pos_ratio.filter(|_| self.tasks > 0).map(|_| self.task_ratelimit)
    }

    /// What each of the N tasks of [`BdiSample::target`] dirties, from the
    /// bdi's dirty rate `rate` \[pages/s\]: the rate less the tasks' not
    /// held, over the N held; over every task while none is held. `None`
    /// without tasks.
    pub fn dirtied_per_task(&self, rate: f64) -> Option<f64> {
        let (rate, n) = match self.held {
            0 => (rate, self.tasks),
            held => ((rate - self.unheld_dirty_rate as f64).max(0.0), held),
        };
        (n > 0).then(|| rate / f64::from(n))
    }
}

/// One throttling sleep, for display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PauseRecord {
    /// When the sleep began \[ns\].
    pub t_ns: u64,
    /// The task.
    pub task: u32,
    /// Its bdi.
    pub bdi: u16,
    /// The sleep, or for a whole call its duration \[jiffies\].
    pub pause: u32,
    /// True for the time a whole throttling call took, false for one sleep.
    pub call: bool,
    /// For a call: it took longer than its last sleep (it slept more than
    /// once or wrote back pages itself).
    pub multi: bool,
}

/// A distribution of durations in jiffies, exact. Its memory follows the
/// largest value (a counter per jiffy), so it serves bounded sets such as
/// a window of the pause log; run-wide distributions are [`RunHistogram`]s.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Histogram {
    counts: Vec<u64>,
    total: u64,
}

impl Histogram {
    /// Counts one value \[jiffies\].
    pub fn add(&mut self, value: u64) {
        let i = value as usize;
        if i >= self.counts.len() {
            self.counts.resize(i + 1, 0);
        }
        self.counts[i] += 1;
        self.total += 1;
    }

    /// Number of values.
    pub fn count(&self) -> u64 {
        self.total
    }

    /// The smallest value with at least `q` of the values at or below it
    /// (q in 0..=1); 0 when empty.
    pub fn quantile(&self, q: f64) -> u64 {
        if self.total == 0 {
            return 0;
        }
        let want = ((q * self.total as f64).ceil() as u64).clamp(1, self.total);
        let mut seen = 0;
        for (v, &c) in self.counts.iter().enumerate() {
            seen += c;
            if seen >= want {
                return v as u64;
            }
        }
        self.max()
    }

    /// Largest value; 0 when empty.
    pub fn max(&self) -> u64 {
        self.counts.iter().rposition(|&c| c > 0).unwrap_or(0) as u64
    }

    /// Adds every value of `other`.
    pub fn merge(&mut self, other: &Histogram) {
        if other.counts.len() > self.counts.len() {
            self.counts.resize(other.counts.len(), 0);
        }
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            *a += b;
        }
        self.total += other.total;
    }
}

/// A counter of a [`LogHistogram`]'s bucket: `u32` for one task's record
/// (it saturates), `u64` run-wide.
pub trait Count: Copy + Default + std::fmt::Debug + Eq {
    /// The count with `n` more.
    fn plus(self, n: u32) -> Self;
    /// The count.
    fn get(self) -> u64;
}

impl Count for u32 {
    fn plus(self, n: u32) -> u32 {
        self.saturating_add(n)
    }

    fn get(self) -> u64 {
        u64::from(self)
    }
}

impl Count for u64 {
    fn plus(self, n: u32) -> u64 {
        self.saturating_add(u64::from(n))
    }

    fn get(self) -> u64 {
        self
    }
}

/// A distribution of durations in jiffies in bounded memory: values below
/// 2^`BITS` jiffies ([`LogHistogram::EXACT`]) are counted one by one;
/// larger ones in buckets 2^(1-`BITS`) of their size, so a quantile that
/// falls there reads the lowest value of its bucket, at most 2^(1-`BITS`)
/// below the true one. The largest value is kept exactly, and so are the
/// quantiles that fall on it. The buckets grow
/// only up to the largest value seen, and never past 2^(`BITS`-1) per
/// power of two.
///
/// One task's record uses 8 bits and `u32` counters (the default): exact
/// below 256 jiffies, within 1/128 (0.8%) above. Throttling sleeps never
/// exceed `MAX_PAUSE` (HZ/5, 200 jiffies at HZ 1000), so their quantiles
/// are exact, in a few hundred counters. The run-wide distributions
/// ([`RunHistogram`]) keep 13 bits and `u64` counters: exact below 8192
/// jiffies (8.2 s at HZ 1000), within 1/4096 (0.025%) above.
///
/// A task's sleeps mostly repeat one length (its share of the bandwidth
/// changes slowly), so a run of equal values is counted in the struct
/// itself and reaches the buckets, out of the cache, only when it ends.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[repr(C)] // the run, updated at every value, first
pub struct LogHistogram<C: Count = u32, const BITS: u32 = 8> {
    /// The latest value \[jiffies\] and how many times in a row it came; not
    /// yet in `counts`.
    run: (u64, u32),
    /// Number of values.
    total: u64,
    /// Largest value \[jiffies\].
    max: u64,
    /// How many values equal to `max` are in `counts`: quantiles among
    /// them read `max` exactly.
    at_max: u64,
    /// Values counted per bucket, up to the largest bucket of a run that ended.
    counts: Vec<C>,
}

/// One task's distribution of sleeps \[jiffies\]: exact below 256 jiffies,
/// within 1/128 above (see [`LogHistogram`]).
pub type TaskHistogram = LogHistogram<u32, 8>;

/// A run-wide distribution of durations \[jiffies\]: exact below 8192
/// jiffies, within 1/4096 above (see [`LogHistogram`]).
pub type RunHistogram = LogHistogram<u64, 13>;

impl<C: Count, const BITS: u32> LogHistogram<C, BITS> {
    /// Values below this are counted exactly \[jiffies\].
    pub const EXACT: u64 = 1 << BITS;

    /// The bucket of `value`: the value itself below `EXACT`, else its
    /// top `BITS` bits and the number of bits dropped.
    fn bucket(value: u64) -> usize {
        if value < Self::EXACT {
            return value as usize;
        }
        let dropped = (64 - value.leading_zeros()) - BITS;
        ((dropped as u64) << (BITS - 1)) as usize + (value >> dropped) as usize
    }

    /// The lowest value of bucket `i`.
    fn lowest(i: usize) -> u64 {
        let half = 1usize << (BITS - 1);
        if i < 2 * half {
            return i as u64;
        }
        let dropped = (i / half - 1) as u32;
        ((i % half + half) as u64) << dropped
    }

    /// Counts one value \[jiffies\].
    pub fn add(&mut self, value: u64) {
        self.total += 1;
        let (last, n) = &mut self.run;
        if *last == value && *n < u32::MAX {
            *n += 1;
            return;
        }
        self.end_run();
        self.run = (value, 1);
        if value > self.max {
            self.max = value;
            self.at_max = 0;
        }
    }

    /// Moves the current run into the buckets.
    fn end_run(&mut self) {
        let (value, n) = std::mem::take(&mut self.run);
        if n == 0 {
            return;
        }
        let i = Self::bucket(value);
        if i >= self.counts.len() {
            // Grow in steps of 16 counters, no further.
            let len = (i + 1).next_multiple_of(16);
            self.counts.reserve_exact(len - self.counts.len());
            self.counts.resize(len, C::default());
        }
        self.counts[i] = self.counts[i].plus(n);
        if value == self.max {
            self.at_max += u64::from(n);
        }
    }

    /// Number of values.
    pub fn count(&self) -> u64 {
        self.total
    }

    /// The smallest value with at least `q` of the values at or below it
    /// (q in 0..=1), to the bucket's precision; 0 when empty.
    pub fn quantile(&self, q: f64) -> u64 {
        if self.total == 0 {
            return 0;
        }
        let want = ((q * self.total as f64).ceil() as u64).clamp(1, self.total);
        let (value, n) = self.run;
        let at_max = self.at_max + if value == self.max { u64::from(n) } else { 0 };
        if want > self.total - at_max {
            return self.max;
        }
        let run_bucket = Self::bucket(value);
        let mut seen = 0;
        for i in 0..self.counts.len().max(run_bucket + 1) {
            seen += self.counts.get(i).map_or(0, |c| c.get());
            if i == run_bucket {
                seen += u64::from(n);
            }
            if seen >= want {
                return Self::lowest(i);
            }
        }
        self.max
    }

    /// Largest value, exact; 0 when empty.
    pub fn max(&self) -> u64 {
        self.max
    }
}

/// One task's record: counters and one compact histogram, so that its
/// size does not grow with the run. Laid out as written, what every sleep
/// updates first (see [`super::task::Task`]).
#[derive(Clone, Debug, Default, PartialEq)]
#[repr(C)]
pub struct TaskStats {
    /// Every throttling sleep \[jiffies\].
    pub pauses: TaskHistogram,
    /// Pages it dirtied \[pages\].
    pub dirtied: u64,
    /// Longest time in one throttling call, foreground IO included \[jiffies\].
    pub throttled_max: u64,
    /// Throttling calls that blocked.
    pub throttled_calls: u64,
    /// Time in throttling calls altogether \[jiffies\].
    pub throttled_total: u64,
    /// Pages it wrote back itself (IO-full mode), as balance_dirty_pages()
    /// counts them: on NFS the pages its COMMITs cover too \[pages\].
    pub written_fg: u64,
    /// Pipeline: bytes that arrived from the network \[bytes\].
    pub received_bytes: u64,
    /// Pipeline: time the network stood still behind a full buffer \[ns\].
    pub net_stalled_ns: u64,
    /// Times it found every dirtyable page dirty and waited in reclaim.
    pub reclaim_stalls: u64,
    /// When it started running \[ns\].
    pub started_ns: Option<u64>,
    /// When it exited \[ns\].
    pub ended_ns: Option<u64>,
}

/// Run-wide statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct Stats {
    /// Every throttling sleep of every task \[jiffies\]: exact below 8192
    /// jiffies, as sleeps always are.
    pub pauses: RunHistogram,
    /// Time in each throttling call that blocked, foreground IO included
    /// \[jiffies\]: exact below 8192 jiffies, quantiles above it up to 1/4096
    /// low (the longest call exact).
    pub throttled: RunHistogram,
    /// Largest global dirty count seen \[pages\].
    pub max_dirty: u64,
    /// Largest `dirty - limit` seen right after pages were dirtied \[pages\].
    pub max_over_limit: i64,
    /// balance_dirty_pages() calls.
    pub bdp_calls: u64,
    /// HZ, to turn jiffies into time.
    pub hz: u64,
}

impl Stats {
    /// Empty statistics.
    pub fn new(hz: u64) -> Self {
        Stats {
            pauses: RunHistogram::default(),
            throttled: RunHistogram::default(),
            max_dirty: 0,
            max_over_limit: i64::MIN,
            bdp_calls: 0,
            hz,
        }
    }

    /// Notes the dirty count right after dirtying, and how far past the
    /// limit it is (negative: below).
    pub fn note_dirty(&mut self, dirty: u64, over_limit: i64) {
        self.max_dirty = self.max_dirty.max(dirty);
        self.max_over_limit = self.max_over_limit.max(over_limit);
    }

    /// Jiffies as milliseconds.
    pub fn ms(&self, jiffies: u64) -> f64 {
        jiffies as f64 * 1000.0 / self.hz as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bdi sample with the target's inputs; rates in MiB/s (256 pages).
    fn bdi(avg_write_mbps: u64, tasks: u32, held: u32, unheld_mbps: u64) -> BdiSample {
        BdiSample {
            write_bw: avg_write_mbps * 256,
            avg_write_bw: avg_write_mbps * 256,
            tasks,
            held,
            unheld_dirty_rate: unheld_mbps * 256,
            ..BdiSample::default()
        }
    }

    #[test]
    fn the_target_shares_what_the_tasks_not_held_leave() {
        let mib = |pages: Option<f64>| pages.map(|p| p / 256.0);
        // 100 MiB/s; three light writers at 5 MiB/s each, not held; two
        // dd held: (100 - 15) / 2.
        assert_eq!(mib(bdi(100, 5, 2, 15).target()), Some(42.5));
        // None held yet: every task's share.
        assert_eq!(mib(bdi(100, 5, 0, 15).target()), Some(20.0));
        // The others dirty faster than the disk writes: nothing left.
        assert_eq!(mib(bdi(100, 5, 2, 120).target()), Some(0.0));
        assert_eq!(bdi(100, 0, 0, 0).target(), None);
    }

    #[test]
    fn histogram_quantiles_are_exact() {
        let mut h = Histogram::default();
        for v in [5, 1, 3, 3, 10] {
            h.add(v);
        }
        assert_eq!(h.count(), 5);
        assert_eq!(h.quantile(0.5), 3);
        assert_eq!(h.quantile(0.0), 1);
        assert_eq!(h.quantile(0.8), 5);
        assert_eq!(h.quantile(0.81), 10);
        assert_eq!(h.max(), 10);
        let mut g = Histogram::default();
        g.add(20);
        g.merge(&h);
        assert_eq!(g.count(), 6);
        assert_eq!(g.max(), 20);
        assert_eq!(Histogram::default().quantile(0.5), 0);
    }

    #[test]
    fn log_histogram_is_exact_below_256_jiffies() {
        let mut h = TaskHistogram::default();
        let mut exact = Histogram::default();
        // Runs of equal values, and values that change at every step.
        for v in (0..600).map(|i| (i * 37) % 255).chain([7; 50]).chain([3, 3, 9, 9, 9, 254, 254]) {
            h.add(v);
            exact.add(v);
            assert_eq!(h.quantile(0.5), exact.quantile(0.5));
        }
        for q in [0.0, 0.1, 0.5, 0.9, 0.99, 1.0] {
            assert_eq!(h.quantile(q), exact.quantile(q), "q {q}");
        }
        assert_eq!((h.count(), h.max()), (657, 254));
        assert!(h.counts.len() <= 256);
    }

    #[test]
    fn run_wide_histograms_are_exact_below_8192_jiffies_and_bounded_above() {
        let mut h = RunHistogram::default();
        let mut exact = Histogram::default();
        for v in (0..20_000u64).map(|i| (i * 7919) % 8192) {
            h.add(v);
            exact.add(v);
        }
        for q in [0.0, 0.01, 0.5, 0.9, 0.99, 1.0] {
            assert_eq!(h.quantile(q), exact.quantile(q), "q {q}");
        }
        // 30 s and an hour at HZ 1000 read at most 1/4096 low; the longest
        // value stays exact, and the counters do not follow it.
        for (v, lowest) in [(8192, 8192), (8193, 8192), (29_999, 29_996), (30_007, 30_004), (3_600_000, 3_599_872)] {
            let low = RunHistogram::lowest(RunHistogram::bucket(v));
            assert_eq!(low, lowest, "{v}");
            assert!(v - low <= v / 4096);
        }
        h.add(3_600_000);
        h.add(3_600_001);
        assert_eq!((h.quantile(1.0), h.max()), (3_600_001, 3_600_001));
        assert_eq!(h.quantile(1.0 - 1.5 / h.count() as f64), 3_599_872, "3 600 000 reads its bucket");
        // Quantiles on the largest value read it exactly, also from a run.
        let mut top = RunHistogram::default();
        for v in [100, 11_427, 11_427, 11_427] {
            top.add(v);
        }
        assert_eq!((top.quantile(0.5), top.quantile(0.75)), (11_427, 11_427));
        top.add(5);
        assert_eq!((top.quantile(0.2), top.quantile(0.4), top.quantile(0.99)), (5, 100, 11_427));
        top.add(11_430);
        assert_eq!((top.quantile(0.99), top.quantile(0.8)), (11_430, 11_426));
        assert!(h.counts.len() < 11 * 4096, "{} counters", h.counts.len());
        // Counters do not saturate at u32.
        let mut big = RunHistogram { run: (7, u32::MAX), total: u64::from(u32::MAX), ..Default::default() };
        for _ in 0..3 {
            big.add(7);
            big.end_run();
        }
        assert_eq!(big.counts[7], u64::from(u32::MAX) + 3);
    }

    #[test]
    fn log_histogram_buckets_are_a_128th_of_their_values() {
        // Bucket boundaries: 256 and 257 share one (2 wide), 510 and 511
        // too; 512..=515 one (4 wide); 1000 reads 1000 (a multiple of 8).
        for (v, lowest) in [(256, 256), (257, 256), (511, 510), (512, 512), (515, 512), (1000, 1000), (1007, 1004)] {
            assert_eq!(TaskHistogram::lowest(TaskHistogram::bucket(v)), lowest, "{v}");
        }
        // Every value reads at most 1/128 low, and buckets are contiguous.
        let mut values: Vec<u64> =
            (0..40).flat_map(|s| [(1u64 << s) + 3, 3 << s, (1 << (s + 1)) - 1]).chain([u64::MAX]).collect();
        values.sort_unstable();
        let mut prev = 0;
        for v in values {
            let low = TaskHistogram::lowest(TaskHistogram::bucket(v));
            assert!(low <= v && v - low <= v / 128, "{v} reads {low}");
            let i = TaskHistogram::bucket(v);
            assert!(i >= prev);
            prev = i;
        }
        let mut h = TaskHistogram::default();
        for v in [300, 300, 300, 5000, 70_000] {
            h.add(v);
        }
        assert_eq!((h.quantile(0.5), h.quantile(0.8), h.quantile(1.0), h.max()), (300, 4992, 70_000, 70_000));
    }
}
