//! Throttling pauses binned by time: for each bdi and each 100 ms of
//! simulated time, how many sleeps and whole throttling calls there were
//! and the shortest and longest of each. The bins are filled once, as
//! pauses happen, so a chart of a thousand tasks' pauses costs what a
//! chart of one task's costs, and the longest pause in a window is exact.

use std::collections::VecDeque;

use crate::sim::metrics::PauseRecord;

/// Width of a bin \[ns\].
pub const BIN_NS: u64 = 100_000_000;

/// Bins kept per bdi: two hours.
const RETENTION: usize = 72_000;

/// The time the bins keep \[ns\].
pub const RETENTION_NS: u64 = RETENTION as u64 * BIN_NS;

/// The pauses of one bdi in one bin \[jiffies\].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bin {
    /// Throttling sleeps.
    pub sleeps: u32,
    /// Shortest sleep \[jiffies\].
    pub sleep_min: u32,
    /// Longest sleep \[jiffies\].
    pub sleep_max: u32,
    /// Throttling calls that blocked (one sleep or more).
    pub calls: u32,
    /// Shortest call \[jiffies\].
    pub call_min: u32,
    /// Longest call \[jiffies\].
    pub call_max: u32,
}

impl Bin {
    fn add(&mut self, pause: u32, call: bool) {
        let (n, min, max) = if call {
            (&mut self.calls, &mut self.call_min, &mut self.call_max)
        } else {
            (&mut self.sleeps, &mut self.sleep_min, &mut self.sleep_max)
        };
        *min = if *n == 0 { pause } else { (*min).min(pause) };
        *max = (*max).max(pause);
        *n += 1;
    }

    /// Adds every pause of `other`.
    pub fn merge(&mut self, other: &Bin) {
        let merge = |n: &mut u32, min: &mut u32, max: &mut u32, on: u32, omin: u32, omax: u32| {
            if on > 0 {
                *min = if *n == 0 { omin } else { (*min).min(omin) };
                *max = (*max).max(omax);
                *n += on;
            }
        };
        merge(
            &mut self.sleeps,
            &mut self.sleep_min,
            &mut self.sleep_max,
            other.sleeps,
            other.sleep_min,
            other.sleep_max,
        );
        merge(&mut self.calls, &mut self.call_min, &mut self.call_max, other.calls, other.call_min, other.call_max);
    }
}

/// Every bdi's pauses, binned by time.
#[derive(Clone, Debug)]
pub struct PauseBins {
    /// Bins kept per bdi, the newest.
    keep: usize,
    /// Bin number (time / [`BIN_NS`]) of the first bin kept.
    first: u64,
    /// Per bdi, the bins from `first` on.
    bins: Vec<VecDeque<Bin>>,
    /// Time of the newest record taken in \[ns\], and how many records at
    /// that time were taken.
    seen: Option<(u64, usize)>,
}

impl PauseBins {
    /// Empty bins for `bdis` bdis.
    pub fn new(bdis: usize) -> PauseBins {
        PauseBins::keeping(bdis, RETENTION)
    }

    /// Empty bins for `bdis` bdis that keep the last `keep` bins of each
    /// (as much of the run as a dashboard's world keeps samples of, so
    /// that chart 5 covers what charts 1 to 4 do).
    pub fn keeping(bdis: usize, keep: usize) -> PauseBins {
        PauseBins { keep: keep.max(1), first: 0, bins: vec![VecDeque::new(); bdis], seen: None }
    }

    /// Takes in the records of `log` not taken yet. The log is a world's
    /// pause log: in time order, appended to at the back and trimmed at
    /// the front.
    pub fn take(&mut self, log: &VecDeque<PauseRecord>) {
        let start = match self.seen {
            None => 0,
            Some((t, n)) => {
                let at = log.partition_point(|r| r.t_ns < t);
                let same = log.range(at..).take_while(|r| r.t_ns == t).count();
                at + n.min(same)
            }
        };
        for r in log.range(start..) {
            self.add(r);
        }
        if let Some(last) = log.back() {
            let at = log.partition_point(|r| r.t_ns < last.t_ns);
            self.seen = Some((last.t_ns, log.len() - at));
        }
    }

    fn add(&mut self, r: &PauseRecord) {
        let Some(per_bdi) = self.bins.get(r.bdi as usize) else { return };
        let n = r.t_ns / BIN_NS;
        if per_bdi.is_empty() && self.bins.iter().all(VecDeque::is_empty) {
            self.first = n;
        }
        if n < self.first {
            return;
        }
        // The bins older than the window that ends with this one go
        // first, so a silence of days (a trace's clock jumping) never
        // makes room for more than the window.
        let oldest = (n + 1).saturating_sub(self.keep as u64).max(self.first);
        if oldest > self.first {
            for b in &mut self.bins {
                let drop = ((oldest - self.first) as usize).min(b.len());
                b.drain(..drop);
            }
            self.first = oldest;
        }
        let i = (n - self.first) as usize;
        for b in &mut self.bins {
            if b.len() <= i {
                b.resize(i + 1, Bin::default());
            }
        }
        self.bins[r.bdi as usize][i].add(r.pause, r.call);
    }

    /// The bins of `bdi` from time `from` up to `to` \[ns\], each with its
    /// start time \[ns\]; bins that only touch the range are left out. A
    /// range that ends inside a bin takes it: a trace ends at its last
    /// event, whose pause lies in the bin it ends in.
    pub fn range(&self, bdi: usize, from: u64, to: u64) -> impl Iterator<Item = (u64, &Bin)> {
        let bins = self.bins.get(bdi);
        let len = bins.map_or(0, VecDeque::len) as u64;
        let lo = (from.div_ceil(BIN_NS)).saturating_sub(self.first).min(len);
        let hi = (to.div_ceil(BIN_NS)).saturating_sub(self.first).min(len).max(lo);
        bins.into_iter()
            .flat_map(move |b| b.range(lo as usize..hi as usize))
            .enumerate()
            .map(move |(i, b)| ((self.first + lo + i as u64) * BIN_NS, b))
    }

    /// Every pause of `bdi` from `from` up to `to` \[ns\], in one bin.
    pub fn total(&self, bdi: usize, from: u64, to: u64) -> Bin {
        let mut all = Bin::default();
        for (_, b) in self.range(bdi, from, to) {
            all.merge(b);
        }
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(t_ms: u64, bdi: u16, pause: u32, call: bool) -> PauseRecord {
        PauseRecord { t_ns: t_ms * 1_000_000, task: 0, bdi, pause, call, multi: false }
    }

    #[test]
    fn records_are_taken_once_even_when_several_share_a_time() {
        let mut log: VecDeque<PauseRecord> = VecDeque::new();
        let mut bins = PauseBins::new(2);
        log.extend([rec(10, 0, 5, false), rec(10, 0, 7, false)]);
        bins.take(&log);
        log.extend([rec(10, 0, 9, false), rec(150, 1, 40, true)]);
        bins.take(&log);
        bins.take(&log);
        let b = bins.total(0, 0, 1_000_000_000);
        assert_eq!((b.sleeps, b.sleep_min, b.sleep_max, b.calls), (3, 5, 9, 0));
        let b = bins.total(1, 0, 1_000_000_000);
        assert_eq!((b.calls, b.call_min, b.call_max), (1, 40, 40));
        // The front of the log is trimmed: nothing is taken twice.
        log.pop_front();
        log.push_back(rec(250, 0, 3, false));
        bins.take(&log);
        assert_eq!(bins.total(0, 0, 1_000_000_000).sleeps, 4);
    }

    /// A range that ends inside a bin takes it: a trace's last event, at
    /// 550 ms, paused 30 ms, and chart 5 at its end said 20 (the bin of
    /// 500-600 ms was left out).
    #[test]
    fn a_range_that_ends_inside_a_bin_takes_it() {
        let mut bins = PauseBins::new(1);
        bins.take(&VecDeque::from([rec(450, 0, 20, false), rec(550, 0, 30, false)]));
        assert_eq!(bins.total(0, 0, 550_000_000).sleep_max, 30);
        assert_eq!(bins.total(0, 0, 500_000_000).sleep_max, 20, "one that only touches it does not");
        // The bins kept start at the first pause: 400-500 and 500-600 ms.
        assert_eq!(bins.range(0, 0, 550_000_000).map(|(t, _)| t).collect::<Vec<_>>(), [400_000_000, 500_000_000]);
    }

    #[test]
    fn a_jump_of_days_keeps_the_window_and_no_more() {
        let mut log: VecDeque<PauseRecord> = VecDeque::new();
        let mut bins = PauseBins::new(2);
        log.push_back(rec(1_000, 0, 5, false));
        bins.take(&log);
        // Ten days later (8.64 million bins on).
        let later = 1_000 + 864_000_000;
        log.push_back(rec(later, 1, 7, false));
        bins.take(&log);
        assert!(bins.bins.iter().all(|b| b.len() == RETENTION), "{:?}", bins.bins.iter().map(VecDeque::len));
        assert!(bins.bins.iter().all(|b| b.capacity() < 2 * RETENTION), "room made for the whole silence");
        assert_eq!(bins.first, later / 100 + 1 - RETENTION as u64);
        let b = bins.total(1, (later - 50) * 1_000_000, (later + 100) * 1_000_000);
        assert_eq!((b.sleeps, b.sleep_max), (1, 7));
        assert_eq!(bins.total(0, 0, u64::MAX).sleeps, 0, "the first pause is out of the window");
    }

    #[test]
    fn a_range_holds_the_whole_bins_inside_it() {
        let mut log: VecDeque<PauseRecord> = VecDeque::new();
        let mut bins = PauseBins::new(1);
        log.extend([rec(50, 0, 1, false), rec(120, 0, 2, false), rec(220, 0, 3, false), rec(330, 0, 4, false)]);
        bins.take(&log);
        let starts: Vec<u64> = bins.range(0, 100_000_000, 300_000_000).map(|(t, _)| t).collect();
        assert_eq!(starts, vec![100_000_000, 200_000_000]);
        assert_eq!(bins.total(0, 100_000_000, 300_000_000).sleep_max, 3);
        assert_eq!(bins.total(0, 0, 400_000_000).sleep_max, 4);
        assert_eq!(bins.total(0, 0, 10_000_000_000).sleeps, 4, "a range past the end stops at the last bin");
        assert_eq!(bins.total(3, 0, 400_000_000), Bin::default(), "no such bdi");
    }
}
