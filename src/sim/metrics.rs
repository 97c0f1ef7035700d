//! What the world records about itself as it runs: the sampled time
//! series behind the charts and the CSV, and run-wide statistics (pause
//! distributions, how far dirty pages ever ran past the limit).

/// The world at one sample time. Pages and pages/s.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Simulated time [ns].
    pub t_ns: u64,
    /// File dirty + writeback + unstable [pages].
    pub dirty: u64,
    /// NR_WRITEBACK [pages].
    pub writeback: u64,
    /// NR_UNSTABLE_NFS [pages].
    pub unstable: u64,
    /// `dirty_thresh` [pages].
    pub thresh: u64,
    /// `background_thresh` [pages].
    pub bg_thresh: u64,
    /// Freerun ceiling [pages].
    pub freerun: u64,
    /// Global setpoint [pages].
    pub setpoint: u64,
    /// `hard_dirty_limit(thresh)` [pages].
    pub limit: u64,
    /// Dirtyable memory [pages].
    pub dirtyable: u64,
    /// Per bdi, in bdi order.
    pub bdis: Vec<BdiSample>,
}

/// One bdi at one sample time.
#[derive(Clone, Debug, PartialEq)]
pub struct BdiSample {
    /// Reclaimable + writeback [pages].
    pub dirty: u64,
    /// Under writeback [pages].
    pub writeback: u64,
    /// NFS unstable [pages].
    pub unstable: u64,
    /// `bdi_dirty_limit(thresh)` [pages].
    pub thresh: u64,
    /// bdi setpoint [pages], as bdi_position_ratio() derives it from its
    /// inputs (also when dirty is at the limit and the kernel returns
    /// before deriving it).
    pub setpoint: u64,
    /// `write_bandwidth` [pages/s].
    pub write_bw: u64,
    /// `avg_write_bandwidth` [pages/s].
    pub avg_write_bw: u64,
    /// `dirty_ratelimit` [pages/s].
    pub dirty_ratelimit: u64,
    /// `balanced_dirty_ratelimit` [pages/s].
    pub balanced_ratelimit: u64,
    /// Last task_ratelimit handed to a throttled task [pages/s].
    pub task_ratelimit: u64,
    /// The position ratio now, 1.0 = 1024; `None` where the kernel does
    /// not compute one: below patch 02, and at or below the freerun
    /// ceiling (balance_dirty_pages() leaves before it).
    pub pos_ratio: Option<u64>,
    /// BDI_DIRTIED [pages].
    pub dirtied: u64,
    /// BDI_WRITTEN [pages].
    pub written: u64,
    /// Live tasks writing to it.
    pub tasks: u32,
    /// The longest pause balance_dirty_pages() would impose now [jiffies].
    pub max_pause: u64,
}

/// One throttling sleep, for display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PauseRecord {
    /// When the sleep began [ns].
    pub t_ns: u64,
    /// The task.
    pub task: u32,
    /// Its bdi.
    pub bdi: u16,
    /// The sleep, or for a whole call its duration [jiffies].
    pub pause: u32,
    /// True for the time a whole throttling call took, false for one sleep.
    pub call: bool,
    /// For a call: it took longer than its last sleep (it slept more than
    /// once or wrote back pages itself).
    pub multi: bool,
}

/// A distribution of durations in jiffies, exact.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Histogram {
    counts: Vec<u64>,
    total: u64,
}

impl Histogram {
    /// Counts one value [jiffies].
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

/// One task's record.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TaskStats {
    /// Pages it dirtied [pages].
    pub dirtied: u64,
    /// Every throttling sleep [jiffies].
    pub pauses: Histogram,
    /// Longest time in one throttling call, foreground IO included [jiffies].
    pub throttled_max: u64,
    /// Every throttling call that blocked: its duration [jiffies].
    pub throttled: Histogram,
    /// Pages it wrote back itself (IO-full mode) [pages].
    pub written_fg: u64,
    /// Pipeline: bytes that arrived from the network [bytes].
    pub received_bytes: u64,
    /// Pipeline: time the network stood still behind a full buffer [ns].
    pub net_stalled_ns: u64,
    /// Time in throttling calls altogether [jiffies].
    pub throttled_total: u64,
    /// Times it found every dirtyable page dirty and waited in reclaim.
    pub reclaim_stalls: u64,
    /// When it started running [ns].
    pub started_ns: Option<u64>,
    /// When it exited [ns].
    pub ended_ns: Option<u64>,
}

/// Run-wide statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct Stats {
    /// Every throttling sleep of every task [jiffies].
    pub pauses: Histogram,
    /// Time in each throttling call that blocked, foreground IO included [jiffies].
    pub throttled: Histogram,
    /// Largest global dirty count seen [pages].
    pub max_dirty: u64,
    /// Largest `dirty - limit` seen right after pages were dirtied [pages].
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
            pauses: Histogram::default(),
            throttled: Histogram::default(),
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
}
