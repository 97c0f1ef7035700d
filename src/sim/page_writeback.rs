//! The dirty throttling control law, ported from mm/page-writeback.c as of
//! Linux 3.1 plus the "IO-less dirty throttling v12" series.
//!
//! Every function here is pure: it takes the values the kernel function
//! reads (thresholds, counters, `bdi->` fields) as arguments and returns
//! what it computes, so that the engine, the trace checker and the charts
//! all use one implementation. Names follow the kernel's; each function
//! says which patch of the series it reflects. Where a patch level
//! changes the computation, the function takes the level (`patches`,
//! 0 = vanilla 3.1, 1..=11 = the series applied up to that patch).
//!
//! Units: pages, pages/s and jiffies, all integers, as in the kernel.

use super::kernel::{PAGE_SHIFT, PAGE_SIZE, clamp_val, div_s64, div_u64, do_div, ilog2, ilog2_ul};

/// Fixed-point shift of `pos_ratio`: 1.0 is `1 << 10`.
pub const RATELIMIT_CALC_SHIFT: u32 = 10;

/// Initial write bandwidth and dirty ratelimit: 100 MB/s \[pages/s\].
pub const INIT_BW: u64 = 100 << (20 - PAGE_SHIFT);

/// `writeback_chunk_size()` divides the dirty limit by this.
pub const DIRTY_SCOPE: u64 = 8;

/// Smallest writeback chunk: 4 MiB \[pages\].
pub const MIN_WRITEBACK_PAGES: u64 = 4096 >> (PAGE_SHIFT - 10);

/// Largest shift the floating proportions accept (`PROP_MAX_SHIFT`).
pub const PROP_MAX_SHIFT: i32 = 3 * 64 / 4;

/// `BANDWIDTH_INTERVAL`: bandwidth is estimated at most this often \[jiffies\].
pub fn bandwidth_interval(hz: u64) -> u64 {
    (hz / 5).max(1)
}

/// `MAX_PAUSE`: the longest sleep in one balance_dirty_pages() loop \[jiffies\].
pub fn max_pause(hz: u64) -> u64 {
    (hz / 5).max(1)
}

/// The four writeback sysctls. A byte setting, when non-zero, wins over
/// its ratio twin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DirtyTunables {
    /// `vm.dirty_ratio` \[% of dirtyable memory\].
    pub dirty_ratio: u64,
    /// `vm.dirty_background_ratio` \[% of dirtyable memory\].
    pub dirty_background_ratio: u64,
    /// `vm.dirty_bytes` \[bytes\], 0 when the ratio applies.
    pub dirty_bytes: u64,
    /// `vm.dirty_background_bytes` \[bytes\], 0 when the ratio applies.
    pub dirty_background_bytes: u64,
}

impl Default for DirtyTunables {
    fn default() -> Self {
        DirtyTunables { dirty_ratio: 20, dirty_background_ratio: 10, dirty_bytes: 0, dirty_background_bytes: 0 }
    }
}

/// The global thresholds from `global_dirty_limits()`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DirtyLimits {
    /// `background_thresh`: the flusher starts above it \[pages\].
    pub background: u64,
    /// `dirty_thresh` \[pages\].
    pub dirty: u64,
}

/// Mirrors `global_dirty_limits()` for a normal (not real-time, not
/// PF_LESS_THROTTLE) task. `dirtyable` is `determine_dirtyable_memory()`.
pub fn global_dirty_limits(t: &DirtyTunables, dirtyable: u64) -> DirtyLimits {
    let dirty = if t.dirty_bytes != 0 {
        t.dirty_bytes.div_ceil(PAGE_SIZE)
    } else {
        t.dirty_ratio.wrapping_mul(dirtyable) / 100
    };
    let mut background = if t.dirty_background_bytes != 0 {
        t.dirty_background_bytes.div_ceil(PAGE_SIZE)
    } else {
        t.dirty_background_ratio.wrapping_mul(dirtyable) / 100
    };
    if background >= dirty {
        background = dirty / 2;
    }
    DirtyLimits { background, dirty }
}

/// Mirrors `calc_period_shift()`: the floating-proportion period follows
/// the dirty threshold, `2 + ilog2(dirty_total - 1)`.
pub fn calc_period_shift(t: &DirtyTunables, dirtyable: u64) -> i32 {
    let dirty_total =
        if t.dirty_bytes != 0 { t.dirty_bytes / PAGE_SIZE } else { t.dirty_ratio.wrapping_mul(dirtyable) / 100 };
    (2 + ilog2(dirty_total.wrapping_sub(1))).min(PROP_MAX_SHIFT)
}

/// Mirrors `writeback_set_ratelimit()` as of patch 06: after this many
/// pages dirtied on one CPU without a balance_dirty_pages() call, the
/// next dirtier is forced into it \[pages\].
pub fn writeback_set_ratelimit(dirty_thresh: u64, cpus: u64) -> u64 {
    (dirty_thresh / (cpus.max(1) * 32)).max(16)
}

/// Mirrors `dirty_freerun_ceiling()` (patch 02): below it tasks run free.
pub fn dirty_freerun_ceiling(thresh: u64, bg_thresh: u64) -> u64 {
    thresh.wrapping_add(bg_thresh) / 2
}

/// Mirrors `hard_dirty_limit()`: the global limit never lies below `thresh`.
pub fn hard_dirty_limit(thresh: u64, global_dirty_limit: u64) -> u64 {
    thresh.max(global_dirty_limit)
}

/// Mirrors `update_dirty_limit()`: `global_dirty_limit` jumps up to
/// `thresh` at once and follows it down by 1/32 of the gap per update,
/// never below the dirty pages.
pub fn update_dirty_limit(limit: u64, thresh: u64, dirty: u64) -> u64 {
    if limit < thresh {
        return thresh;
    }
    let target = thresh.max(dirty);
    if limit > target { limit - ((limit - target) >> 5) } else { limit }
}

/// Mirrors `bdi_dirty_limit()` with the default `min_ratio` 0 and
/// `max_ratio` 100: the bdi's share of `dirty`, given its writeout
/// fraction `numerator / denominator`.
pub fn bdi_dirty_limit(dirty: u64, numerator: u64, denominator: u64) -> u64 {
    let mut bdi_dirty = dirty.wrapping_mul(100) / 100;
    bdi_dirty = bdi_dirty.wrapping_mul(numerator);
    bdi_dirty = do_div(bdi_dirty, denominator);
    let max = dirty.wrapping_mul(100) / 100;
    bdi_dirty.min(max)
}

/// What `bdi_position_ratio()` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PositionInputs {
    /// `dirty_thresh` \[pages\].
    pub thresh: u64,
    /// `background_thresh` \[pages\].
    pub bg_thresh: u64,
    /// `hard_dirty_limit(thresh)` \[pages\].
    pub limit: u64,
    /// Global dirty + writeback + unstable pages \[pages\].
    pub dirty: u64,
    /// `bdi_dirty_limit()` before the function clamps it \[pages\].
    pub bdi_thresh: u64,
    /// The bdi's reclaimable + writeback pages \[pages\].
    pub bdi_dirty: u64,
    /// `bdi->avg_write_bandwidth` \[pages/s\].
    pub write_bw: u64,
}

/// What `bdi_position_ratio()` computes, with the setpoints it derives on
/// the way (for the trace and the charts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// Scale factor for the dirty ratelimit, 1.0 = 1024.
    pub pos_ratio: u64,
    /// `(freerun + limit) / 2` \[pages\].
    pub setpoint: u64,
    /// The global setpoint scaled to the bdi's share \[pages\]; 0 when the
    /// function returned early at the limit.
    pub bdi_setpoint: u64,
}

/// Mirrors `bdi_position_ratio()` as of patch 02 (`patches` 2..=9) or
/// patch 10 (`patches` >= 10: the bdi reserve area and the minimum
/// `bdi_thresh`).
pub fn bdi_position_ratio(patches: u8, p: &PositionInputs) -> Position {
    let freerun = dirty_freerun_ceiling(p.thresh, p.bg_thresh);
    let limit = p.limit;
    let setpoint = freerun.wrapping_add(limit) / 2;
    let dirty = p.dirty;

    if dirty >= limit {
        return Position { pos_ratio: 0, setpoint, bdi_setpoint: 0 };
    }

    // Global control line: 1 + ((setpoint - dirty) / (limit - setpoint))^3.
    let x = div_s64(
        (setpoint.wrapping_sub(dirty) << RATELIMIT_CALC_SHIFT) as i64,
        limit.wrapping_sub(setpoint).wrapping_add(1),
    );
    let mut pos_ratio: i64 = x;
    pos_ratio = pos_ratio.wrapping_mul(x) >> RATELIMIT_CALC_SHIFT;
    pos_ratio = pos_ratio.wrapping_mul(x) >> RATELIMIT_CALC_SHIFT;
    pos_ratio = pos_ratio.wrapping_add(1 << RATELIMIT_CALC_SHIFT);

    // bdi control line.
    let mut bdi_thresh = p.bdi_thresh;
    if bdi_thresh > p.thresh {
        bdi_thresh = p.thresh;
    }
    if patches >= 10 {
        bdi_thresh = bdi_thresh.max(limit.wrapping_sub(dirty) / 8);
    }
    let x = div_u64(bdi_thresh << 16, p.thresh.wrapping_add(1));
    let bdi_setpoint = setpoint.wrapping_mul(x) >> 16;
    let span = p.thresh.wrapping_sub(bdi_thresh).wrapping_add(p.write_bw.wrapping_mul(8)).wrapping_mul(x) >> 16;
    let x_intercept = bdi_setpoint.wrapping_add(span);

    if p.bdi_dirty < x_intercept.wrapping_sub(span / 4) {
        // long long *= unsigned long: the product is taken as u64.
        let product = (pos_ratio as u64).wrapping_mul(x_intercept.wrapping_sub(p.bdi_dirty));
        pos_ratio = do_div(product, x_intercept.wrapping_sub(bdi_setpoint).wrapping_add(1)) as i64;
    } else {
        pos_ratio /= 4;
    }

    if patches >= 10 {
        // bdi reserve area: keep a minimal pool of dirty pages per bdi.
        let x_intercept = bdi_thresh / 2;
        if p.bdi_dirty < x_intercept {
            if p.bdi_dirty > x_intercept / 8 {
                let product = (pos_ratio as u64).wrapping_mul(x_intercept);
                pos_ratio = do_div(product, p.bdi_dirty) as i64;
            } else {
                pos_ratio = pos_ratio.wrapping_mul(8);
            }
        }
    }

    Position { pos_ratio: pos_ratio as u64, setpoint, bdi_setpoint }
}

/// The bdi setpoint `bdi_position_ratio()` derives from `p`, for display:
/// the same arithmetic, also where the kernel returns at the limit before
/// deriving it (there the patch-10 minimum `bdi_thresh` is taken as 0).
pub fn bdi_setpoint(patches: u8, p: &PositionInputs) -> u64 {
    let freerun = dirty_freerun_ceiling(p.thresh, p.bg_thresh);
    let setpoint = freerun.wrapping_add(p.limit) / 2;
    let mut bdi_thresh = p.bdi_thresh.min(p.thresh);
    if patches >= 10 {
        bdi_thresh = bdi_thresh.max(p.limit.saturating_sub(p.dirty) / 8);
    }
    let x = div_u64(bdi_thresh << 16, p.thresh.wrapping_add(1));
    setpoint.wrapping_mul(x) >> 16
}

/// Mirrors `bdi_update_write_bandwidth()`: blends the pages written since
/// the last update into `write_bandwidth` over a `roundup_pow_of_two(3 *
/// HZ)` period; `avg_write_bandwidth` moves 1/8 of the way only on a
/// monotone trend. Returns `(write_bandwidth, avg_write_bandwidth)`.
pub fn bdi_update_write_bandwidth(
    hz: u64,
    elapsed: u64,
    written: u64,
    write_bandwidth: u64,
    avg_write_bandwidth: u64,
) -> (u64, u64) {
    let period = super::kernel::roundup_pow_of_two(3 * hz);
    let old = write_bandwidth;
    let mut avg = avg_write_bandwidth;
    let mut bw = written.wrapping_mul(hz);
    if elapsed > period {
        bw = div_u64(bw, elapsed);
        return (bw, bw);
    }
    bw = bw.wrapping_add(write_bandwidth.wrapping_mul(period - elapsed));
    bw >>= ilog2(period);
    if avg > old && old >= bw {
        avg -= (avg - old) >> 3;
    }
    if avg < old && old <= bw {
        avg += (old - avg) >> 3;
    }
    (bw, avg)
}

/// What `bdi_update_dirty_ratelimit()` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RatelimitInputs {
    /// Thresholds, dirty counts and `avg_write_bandwidth`, as for the
    /// position ratio.
    pub position: PositionInputs,
    /// Pages dirtied on the bdi since the last bandwidth update \[pages\].
    pub dirtied: u64,
    /// Jiffies since the last bandwidth update \[jiffies\].
    pub elapsed: u64,
    /// `bdi->dirty_ratelimit` before the update \[pages/s\].
    pub dirty_ratelimit: u64,
    /// `bdi->balanced_dirty_ratelimit` before the update \[pages/s\].
    pub balanced_dirty_ratelimit: u64,
}

/// What `bdi_update_dirty_ratelimit()` computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RatelimitUpdate {
    /// Pages dirtied per second over `elapsed` \[pages/s\].
    pub dirty_rate: u64,
    /// The position ratio at the update, 1.0 = 1024.
    pub pos_ratio: u64,
    /// `dirty_ratelimit * pos_ratio + 1`: what each task was held to \[pages/s\].
    pub task_ratelimit: u64,
    /// The rate that would match dirtying to writeout \[pages/s\].
    pub balanced_dirty_ratelimit: u64,
    /// The new `bdi->dirty_ratelimit` \[pages/s\].
    pub dirty_ratelimit: u64,
}

/// Mirrors `bdi_update_dirty_ratelimit()` as of patch 04 (`patches` 4:
/// follow `balanced_dirty_ratelimit` directly) or patch 05 (`patches` >=
/// 5: move only when position and rate agree, in small steps).
///
/// Where patch 05 would shift `step` by 64 or more (undefined in C), the
/// later mainline rule applies: the step becomes 0.
pub fn bdi_update_dirty_ratelimit(patches: u8, hz: u64, r: &RatelimitInputs) -> RatelimitUpdate {
    let p = &r.position;
    let write_bw = p.write_bw;
    let mut dirty_ratelimit = r.dirty_ratelimit;

    let dirty_rate = r.dirtied.wrapping_mul(hz) / r.elapsed.max(1);
    let position = bdi_position_ratio(patches, p);
    let pos_ratio = position.pos_ratio;
    let task_ratelimit = (dirty_ratelimit.wrapping_mul(pos_ratio) >> RATELIMIT_CALC_SHIFT).wrapping_add(1);
    let balanced_dirty_ratelimit = div_u64(task_ratelimit.wrapping_mul(write_bw), dirty_rate | 1);

    if patches < 5 {
        return RatelimitUpdate {
            dirty_rate,
            pos_ratio,
            task_ratelimit,
            balanced_dirty_ratelimit,
            dirty_ratelimit: balanced_dirty_ratelimit.max(1),
        };
    }

    let setpoint = position.setpoint;
    let mut step = 0;
    if p.dirty < setpoint {
        let x = r.balanced_dirty_ratelimit.min(balanced_dirty_ratelimit.min(task_ratelimit));
        if dirty_ratelimit < x {
            step = x - dirty_ratelimit;
        }
    } else {
        let x = r.balanced_dirty_ratelimit.max(balanced_dirty_ratelimit.max(task_ratelimit));
        if dirty_ratelimit > x {
            step = dirty_ratelimit - x;
        }
    }

    // Slow down when close to the target: step >>= dirty_ratelimit / (2 step + 1).
    let shift = dirty_ratelimit / step.wrapping_mul(2).wrapping_add(1);
    step = if shift < 64 { step >> shift } else { 0 };
    // Limit the tracking speed to avoid overshooting.
    step = step.wrapping_add(7) / 8;

    if dirty_ratelimit < balanced_dirty_ratelimit {
        dirty_ratelimit = dirty_ratelimit.wrapping_add(step);
    } else {
        dirty_ratelimit = dirty_ratelimit.wrapping_sub(step);
    }

    RatelimitUpdate {
        dirty_rate,
        pos_ratio,
        task_ratelimit,
        balanced_dirty_ratelimit,
        dirty_ratelimit: dirty_ratelimit.max(1),
    }
}

/// Mirrors `dirty_poll_interval()` (patch 06): pages a task may dirty
/// before it looks at the dirty state again, near-sqrt of the gap to
/// `thresh` \[pages\].
pub fn dirty_poll_interval(dirty: u64, thresh: u64) -> u64 {
    if thresh > dirty { 1 << (ilog2(thresh - dirty) >> 1) } else { 1 }
}

/// Mirrors `bdi_max_pause()` (patch 08): the longest pause for tasks on
/// this bdi, 20 ms for one dirtier, more for many, less when the bdi's
/// dirty pool is small \[jiffies\].
pub fn bdi_max_pause(hz: u64, avg_write_bandwidth: u64, dirty_ratelimit: u64, bdi_dirty: u64) -> u64 {
    let bw = avg_write_bandwidth;
    let hi = ilog2_ul(bw);
    let lo = ilog2_ul(dirty_ratelimit);
    let mut t = hz / 50;
    if hi > lo {
        t = t.wrapping_add(hi.wrapping_sub(lo).wrapping_mul(20 * hz) / 1024);
    }
    if bdi_dirty != 0 {
        t = t.min(bdi_dirty.wrapping_mul(hz) / bw.wrapping_mul(8).wrapping_add(1));
    }
    clamp_val(t, 4, max_pause(hz))
}

/// The pause decision of one balance_dirty_pages() iteration, patches 07-11.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PauseDecision {
    /// `dirty_ratelimit * pos_ratio` (0 when `pos_ratio` is 0) \[pages/s\].
    pub task_ratelimit: u64,
    /// Jiffies to sleep, or the kernel's value when it breaks out \[jiffies\].
    pub pause: i64,
    /// True when the loop breaks without sleeping (patch 09's `pause <= 0`).
    pub breaks: bool,
}

/// Mirrors the pause computation inside balance_dirty_pages() as of
/// patch 07 (`patches` 7), patch 08 (`max_pause` from bdi_max_pause())
/// and patch 09 (`patches` >= 9: a zero pause breaks out with pause 1).
pub fn throttle_pause(
    patches: u8,
    hz: u64,
    dirty_ratelimit: u64,
    pos_ratio: u64,
    pages_dirtied: u64,
    max_pause: i64,
) -> PauseDecision {
    if pos_ratio == 0 {
        return PauseDecision { task_ratelimit: 0, pause: max_pause, breaks: false };
    }
    let task_ratelimit = dirty_ratelimit.wrapping_mul(pos_ratio) >> RATELIMIT_CALC_SHIFT;
    let pause = (hz.wrapping_mul(pages_dirtied) / (task_ratelimit | 1)) as i64;
    if patches >= 9 && pause <= 0 {
        return PauseDecision { task_ratelimit, pause: 1, breaks: true };
    }
    PauseDecision { task_ratelimit, pause: pause.min(max_pause), breaks: false }
}

/// What the end of balance_dirty_pages() reads to set `nr_dirtied_pause`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PauseControlInputs {
    /// The last `pause` of the call; 0 when it never left the freerun area \[jiffies\].
    pub pause: i64,
    /// The last `max_pause` of the call \[jiffies\].
    pub max_pause: i64,
    /// Pages the task dirtied since its last call \[pages\].
    pub pages_dirtied: u64,
    /// `current->nr_dirtied_pause` when the call started \[pages\].
    pub nr_dirtied_pause: i32,
    /// The `dirty_ratelimit` the call read \[pages/s\].
    pub dirty_ratelimit: u64,
    /// Global dirty pages the call last read \[pages\].
    pub nr_dirty: u64,
    /// The call's `dirty_thresh` variable at its end \[pages\].
    pub dirty_thresh: u64,
}

/// Mirrors how balance_dirty_pages() sets `current->nr_dirtied_pause`:
/// the sqrt rule of patch 06 (`patches` 6..=8) or patch 09's control of
/// the pause time (`patches` >= 9). Returns the new value (an `int`).
pub fn next_nr_dirtied_pause(patches: u8, hz: u64, c: &PauseControlInputs) -> i32 {
    if patches < 9 || c.pause == 0 {
        return dirty_poll_interval(c.nr_dirty, c.dirty_thresh) as i32;
    }
    let pages = c.pages_dirtied;
    let max_pause = c.max_pause;
    let target = || c.dirty_ratelimit.wrapping_mul((max_pause / 2) as u64) / hz;
    if c.pause <= max_pause / 4 && pages >= c.nr_dirtied_pause as i64 as u64 {
        clamp_val(target(), pages + pages / 8, pages.wrapping_mul(4)) as i32
    } else if c.pause >= max_pause {
        (1 | clamp_val(target(), pages / 4, pages - pages / 8)) as i32
    } else {
        c.nr_dirtied_pause
    }
}

/// Mirrors `writeback_chunk_size()` for writeback that is not for sync
/// (since Linux 3.1, "writeback: scale IO chunk size up to half device
/// bandwidth"): about half a second of bandwidth, at most 1/8 of the dirty
/// limit, in 4 MiB multiples, at least 4 MiB \[pages\].
pub fn writeback_chunk_size(avg_write_bandwidth: u64, global_dirty_limit: u64, nr_pages: u64) -> u64 {
    let pages = (avg_write_bandwidth / 2).min(global_dirty_limit / DIRTY_SCOPE).min(nr_pages);
    (pages + MIN_WRITEBACK_PAGES) / MIN_WRITEBACK_PAGES * MIN_WRITEBACK_PAGES
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 4 GiB of memory, 10% reserved: the default scenario's world.
    const DIRTYABLE: u64 = 943_719 + 1;

    #[test]
    fn global_limits_from_ratios_and_bytes() {
        let t = DirtyTunables::default();
        let l = global_dirty_limits(&t, DIRTYABLE);
        assert_eq!(l, DirtyLimits { background: 94_372, dirty: 188_744 });

        // Bytes win over ratios and round up to whole pages.
        let t = DirtyTunables { dirty_bytes: 100 << 20, dirty_background_bytes: 4097, ..Default::default() };
        assert_eq!(global_dirty_limits(&t, DIRTYABLE), DirtyLimits { background: 2, dirty: 25_600 });

        // background >= dirty: background = dirty / 2.
        let t = DirtyTunables { dirty_ratio: 10, dirty_background_ratio: 30, ..Default::default() };
        let l = global_dirty_limits(&t, DIRTYABLE);
        assert_eq!(l.background, l.dirty / 2);
    }

    #[test]
    fn period_shift_follows_the_dirty_threshold() {
        let t = DirtyTunables::default();
        // 188744 - 1 = 188743, ilog2 = 17.
        assert_eq!(calc_period_shift(&t, DIRTYABLE), 19);
        let t = DirtyTunables { dirty_bytes: 1 << 20, ..Default::default() };
        // 256 pages: ilog2(255) = 7.
        assert_eq!(calc_period_shift(&t, DIRTYABLE), 9);
        // A zero threshold wraps to the largest shift allowed.
        let t = DirtyTunables { dirty_ratio: 0, ..Default::default() };
        assert_eq!(calc_period_shift(&t, DIRTYABLE), PROP_MAX_SHIFT);
    }

    #[test]
    fn global_dirty_limit_jumps_up_and_decays_down() {
        assert_eq!(update_dirty_limit(1000, 2000, 0), 2000);
        // (3200 - 1000) >> 5 = 68.
        assert_eq!(update_dirty_limit(3200, 1000, 500), 3132);
        // Never below the dirty pages: target is max(thresh, dirty).
        assert_eq!(update_dirty_limit(3200, 1000, 3000), 3200 - (200 >> 5));
        assert_eq!(update_dirty_limit(1000, 1000, 3000), 1000);
    }

    #[test]
    fn the_display_bdi_setpoint_is_the_kernels_wherever_the_kernel_derives_it() {
        let mut rng = super::super::rng::SimRng::new(1);
        let mut below_n = |n: u64| (rng.uniform() * n as f64) as u64;
        let mut below = 0;
        for _ in 0..20_000 {
            let thresh = 1 + below_n(1 << 20);
            let bg_thresh = below_n(thresh);
            let limit = thresh + below_n(thresh / 4 + 1);
            let p = PositionInputs {
                thresh,
                bg_thresh,
                limit,
                dirty: below_n(limit + limit / 8 + 1),
                bdi_thresh: below_n(thresh + thresh / 8 + 1),
                bdi_dirty: below_n(limit),
                write_bw: below_n(1 << 18),
            };
            for patches in [2, 9, 10, 11] {
                let kernel = bdi_position_ratio(patches, &p);
                if p.dirty < p.limit {
                    assert_eq!(bdi_setpoint(patches, &p), kernel.bdi_setpoint, "{p:?} at patch {patches}");
                    below += 1;
                } else {
                    assert_eq!(kernel.bdi_setpoint, 0, "the kernel returns early");
                    if patches < 10 {
                        // Below patch 10 the bdi setpoint does not depend on dirty.
                        let just_below = bdi_position_ratio(patches, &PositionInputs { dirty: p.limit - 1, ..p });
                        assert_eq!(bdi_setpoint(patches, &p), just_below.bdi_setpoint, "{p:?}");
                    }
                }
            }
        }
        assert!(below > 40_000, "most draws lie below the limit: {below}");
    }

    #[test]
    fn freerun_setpoint_and_ratelimit_pages() {
        assert_eq!(dirty_freerun_ceiling(188_744, 94_372), 141_558);
        assert_eq!(hard_dirty_limit(100, 150), 150);
        assert_eq!(hard_dirty_limit(200, 150), 200);
        assert_eq!(writeback_set_ratelimit(188_744, 8), 737);
        assert_eq!(writeback_set_ratelimit(100, 8), 16);
    }

    #[test]
    fn bdi_share_of_the_limit() {
        assert_eq!(bdi_dirty_limit(188_744, 1, 2), 94_372);
        assert_eq!(bdi_dirty_limit(188_744, 0, 5), 0);
        // A numerator above the denominator is capped at max_ratio 100%.
        assert_eq!(bdi_dirty_limit(1000, 3, 2), 1000);
    }

    fn one_bdi(dirty: u64, bdi_dirty: u64) -> PositionInputs {
        PositionInputs {
            thresh: 188_744,
            bg_thresh: 94_372,
            limit: 188_744,
            dirty,
            bdi_thresh: 188_000,
            bdi_dirty,
            write_bw: 25_600,
        }
    }

    #[test]
    fn position_ratio_at_and_around_the_setpoint() {
        // freerun 141558, limit 188744, setpoint 165151.
        let p = bdi_position_ratio(11, &one_bdi(165_151, 165_151));
        assert_eq!(p.setpoint, 165_151);
        // x = 0, global 1.0; bdi: x = (188000<<16)/188745 = 65277,
        // bdi_setpoint = 165151*65277>>16 = 164498,
        // span = (744 + 204800)*65277>>16 = 204734, x_intercept = 369232,
        // pos = 1024 * (369232-165151) / (204734+1) = 1020.
        assert_eq!(p.bdi_setpoint, 164_498);
        assert_eq!(p.pos_ratio, 1020);

        // Half way to the limit: x = -(11796<<10)/23594 = -511,
        // global = 1024 + (-511*-511>>10)*-511>>10 = 1024 - 128 = 896;
        // bdi: 896 * (369232-176947) / 204735 = 841.
        let p = bdi_position_ratio(11, &one_bdi(176_947, 176_947));
        assert_eq!(p.pos_ratio, 841);

        // Just above freerun: x = (23592<<10)/23594 = 1023, global =
        // 1024 + (1023*1023>>10)*1023>>10 = 1024 + 1021 = 2045 (near 2.0);
        // bdi: 2045 * (369232-141559) / 204735 = 2274.
        let p = bdi_position_ratio(11, &one_bdi(141_559, 141_559));
        assert_eq!(p.pos_ratio, 2274);
    }

    #[test]
    fn position_ratio_edges() {
        // dirty >= limit: 0 at once.
        assert_eq!(bdi_position_ratio(11, &one_bdi(188_744, 10)).pos_ratio, 0);
        assert_eq!(bdi_position_ratio(11, &one_bdi(300_000, 10)).pos_ratio, 0);

        // bdi_thresh > thresh is clamped to thresh: same as bdi_thresh == thresh.
        let mut a = one_bdi(165_151, 165_151);
        a.bdi_thresh = 10_000_000;
        let mut b = a;
        b.bdi_thresh = 188_744;
        assert_eq!(bdi_position_ratio(11, &a), bdi_position_ratio(11, &b));

        // Huge bdi_dirty, beyond x_intercept - span/4: the 1/4 floor.
        let p = bdi_position_ratio(11, &one_bdi(165_151, 10_000_000));
        assert_eq!(p.pos_ratio, 1024 / 4);

        // Tiny bdi_dirty: reserve area multiplies by 8 (patch 10) ...
        // bdi line: 1024 * (369232 - 10) / 204735 = 1846; * 8 = 14768.
        let p = bdi_position_ratio(11, &one_bdi(165_151, 10));
        assert_eq!(p.pos_ratio, 14_768);
        // ... but not before patch 10.
        let p = bdi_position_ratio(9, &one_bdi(165_151, 10));
        assert_eq!(p.pos_ratio, 1846);

        // Inside the reserve area above x_intercept/8: scale by
        // (bdi_thresh/2) / bdi_dirty = 94000 / 50000.
        // bdi line: 1024 * (369232 - 50000) / 204735 = 1596; 1596*94000/50000 = 3000.
        let p = bdi_position_ratio(11, &one_bdi(165_151, 50_000));
        assert_eq!(p.pos_ratio, 3000);
    }

    #[test]
    fn position_ratio_small_bdi_share_rises_to_the_reserve_minimum() {
        // A bdi with almost no share: bdi_thresh = max(100, (limit-dirty)/8).
        let mut p = one_bdi(150_000, 1000);
        p.bdi_thresh = 100;
        let r11 = bdi_position_ratio(11, &p);
        // (188744 - 150000) / 8 = 4843 replaces 100.
        // x = (4843<<16)/188745 = 1681, bdi_setpoint = 165151*1681>>16 = 4236.
        assert_eq!(r11.bdi_setpoint, 4236);
        let r9 = bdi_position_ratio(9, &p);
        // x = (100<<16)/188745 = 34, bdi_setpoint = 165151*34>>16 = 85.
        assert_eq!(r9.bdi_setpoint, 85);
    }

    #[test]
    fn write_bandwidth_estimation() {
        // HZ 1000: period 4096 jiffies. 200 ms writing 5120 pages (100 MB/s
        // is 25600 pages/s) from INIT_BW: bw = (5120*1000 + 25600*3896) >> 12.
        let (bw, avg) = bdi_update_write_bandwidth(1000, 200, 5120, INIT_BW, INIT_BW);
        assert_eq!(bw, (5_120_000 + 25_600 * 3896) >> 12);
        assert_eq!(avg, INIT_BW);

        // Falling trend: avg follows 1/8 of the way down.
        let (bw, avg) = bdi_update_write_bandwidth(1000, 200, 2000, 20_000, 24_000);
        assert_eq!(bw, (2_000_000 + 20_000 * 3896) >> 12);
        assert_eq!(avg, 24_000 - (4000 >> 3));

        // Spike against the trend: avg holds.
        let (_, avg) = bdi_update_write_bandwidth(1000, 200, 20_000, 20_000, 24_000);
        assert_eq!(avg, 24_000);

        // Longer than the period: both take the raw rate.
        assert_eq!(bdi_update_write_bandwidth(1000, 5000, 100_000, 1, 2), (20_000, 20_000));
    }

    fn ratelimit_inputs(dirty: u64, dirtied: u64, dirty_ratelimit: u64, balanced: u64) -> RatelimitInputs {
        RatelimitInputs {
            position: one_bdi(dirty, dirty),
            dirtied,
            elapsed: 200,
            dirty_ratelimit,
            balanced_dirty_ratelimit: balanced,
        }
    }

    #[test]
    fn first_ratelimit_update_from_init_bw() {
        // 1 dd dirtying at 2 x 25600 pages/s at the setpoint.
        let r = ratelimit_inputs(165_151, 10_240, INIT_BW, INIT_BW);
        let u = bdi_update_dirty_ratelimit(11, 1000, &r);
        assert_eq!(u.dirty_rate, 51_200);
        assert_eq!(u.pos_ratio, 1020);
        // 25600 * 1020 >> 10 = 25500, + 1.
        assert_eq!(u.task_ratelimit, 25_501);
        // 25501 * 25600 / 51201 = 12750.
        assert_eq!(u.balanced_dirty_ratelimit, 12_750);
        // dirty >= setpoint: x = max(25600, 12750, 25501) = 25600, no step.
        assert_eq!(u.dirty_ratelimit, INIT_BW);

        // Patch 04 follows the balanced rate at once.
        let u4 = bdi_update_dirty_ratelimit(4, 1000, &r);
        assert_eq!(u4.dirty_ratelimit, 12_750);
    }

    #[test]
    fn stabilized_ratelimit_steps() {
        // Above setpoint, all three estimates below dirty_ratelimit:
        // step = 25600 - max(10000, 12000, task_ratelimit).
        let r = ratelimit_inputs(176_947, 10_240, INIT_BW, 10_000);
        let u = bdi_update_dirty_ratelimit(11, 1000, &r);
        // pos 841: task = 25600*841>>10 + 1 = 21026; balanced = 21026*25600/51201 = 10512.
        assert_eq!(u.task_ratelimit, 21_026);
        assert_eq!(u.balanced_dirty_ratelimit, 10_512);
        // step = 25600 - 21026 = 4574; shift = 25600/9149 = 2; 4574>>2 = 1143;
        // (1143+7)/8 = 143.
        assert_eq!(u.dirty_ratelimit, INIT_BW - 143);

        // Below setpoint with every estimate above: rises by a limited step.
        // pos 1385: task = 1000*1385>>10 + 1 = 1353; balanced =
        // 1353*25600/10001 = 3463; step = min(5000, 3463, 1353) - 1000 = 353,
        // shift 1000/707 = 1 -> 176, (176+7)/8 = 22.
        let r = ratelimit_inputs(150_000, 2_000, 1000, 5000);
        let u = bdi_update_dirty_ratelimit(11, 1000, &r);
        assert_eq!((u.pos_ratio, u.task_ratelimit, u.balanced_dirty_ratelimit), (1385, 1353, 3463));
        assert_eq!(u.dirty_ratelimit, 1022);

        // A tiny step relative to the rate shifts by >= 64: becomes 0.
        let r = ratelimit_inputs(165_151, 5_120, 1 << 40, 1 << 40);
        let u = bdi_update_dirty_ratelimit(11, 1000, &r);
        assert!(u.dirty_ratelimit <= 1 << 40);
    }

    #[test]
    fn ratelimit_never_drops_below_one() {
        let r = ratelimit_inputs(188_000, 1_000_000, 1, 1);
        let u = bdi_update_dirty_ratelimit(11, 1000, &r);
        assert_eq!(u.dirty_ratelimit, 1);
        let u = bdi_update_dirty_ratelimit(4, 1000, &r);
        assert_eq!(u.dirty_ratelimit, 1);
    }

    #[test]
    fn poll_interval_is_near_sqrt_of_the_gap() {
        assert_eq!(dirty_poll_interval(0, 256), 16);
        assert_eq!(dirty_poll_interval(0, 262_144), 512);
        assert_eq!(dirty_poll_interval(100, 100), 1);
        assert_eq!(dirty_poll_interval(200, 100), 1);
        assert_eq!(dirty_poll_interval(99, 100), 1);
    }

    #[test]
    fn max_pause_scales_with_concurrency_and_pool() {
        // 1 dd: hi == lo: 20 ms.
        assert_eq!(bdi_max_pause(1000, 25_600, 25_600, 160_000), 20);
        // 100 dd: hi 14, lo 8: 20 + 6*20000/1024 = 137.
        assert_eq!(bdi_max_pause(1000, 25_600, 256, 160_000), 137);
        // 1000 dd: lo 4: 20 + 10*20000/1024 = 215 -> MAX_PAUSE 200.
        assert_eq!(bdi_max_pause(1000, 25_600, 25, 160_000), 200);
        // A small pool: 1000*1000/(8*25600+1) = 4.
        assert_eq!(bdi_max_pause(1000, 25_600, 256, 1000), 4);
        // No dirty pages: the pool rule is skipped.
        assert_eq!(bdi_max_pause(1000, 25_600, 256, 0), 137);
        // HZ 100: t = 2, clamped up to 4; MAX_PAUSE 20.
        assert_eq!(bdi_max_pause(100, 25_600, 25_600, 160_000), 4);
        assert_eq!(bdi_max_pause(100, 25_600, 1, 160_000), 20);
        // A zero bandwidth reads ilog2(0) as ULONG_MAX, as the C code does.
        assert_eq!(bdi_max_pause(1000, 0, 25_600, 0), 200);
    }

    #[test]
    fn pause_decision() {
        // 32 pages at 25600*1020>>10 = 25500 pages/s: 1000*32/25501 = 1 jiffy.
        let d = throttle_pause(11, 1000, 25_600, 1020, 32, 20);
        assert_eq!(d, PauseDecision { task_ratelimit: 25_500, pause: 1, breaks: false });
        // 1000 pages: 39 jiffies, capped at max_pause 20.
        assert_eq!(throttle_pause(11, 1000, 25_600, 1020, 1000, 20).pause, 20);
        // pos_ratio 0: max_pause.
        assert_eq!(throttle_pause(11, 1000, 25_600, 0, 10, 137).pause, 137);
        // A zero pause breaks out with pause 1 from patch 09 on.
        let d = throttle_pause(11, 1000, 25_600, 1024, 1, 20);
        assert_eq!(d, PauseDecision { task_ratelimit: 25_600, pause: 1, breaks: true });
        assert_eq!(throttle_pause(8, 1000, 25_600, 1024, 1, 20).pause, 0);
    }

    #[test]
    fn nr_dirtied_pause_control() {
        let base = PauseControlInputs {
            pause: 3,
            max_pause: 20,
            pages_dirtied: 100,
            nr_dirtied_pause: 100,
            dirty_ratelimit: 25_600,
            nr_dirty: 160_000,
            dirty_thresh: 188_744,
        };
        // Short pause: grow toward dirty_ratelimit * max_pause/2 = 256,
        // within [112, 400].
        assert_eq!(next_nr_dirtied_pause(11, 1000, &base), 256);
        // Long pause: shrink into [25, 88], odd.
        let long = PauseControlInputs { pause: 20, pages_dirtied: 1000, nr_dirtied_pause: 1000, ..base };
        assert_eq!(next_nr_dirtied_pause(11, 1000, &long), 1 | 256);
        let long = PauseControlInputs { pause: 20, pages_dirtied: 100, ..base };
        assert_eq!(next_nr_dirtied_pause(11, 1000, &long), 1 | 88);
        // In between: unchanged.
        let mid = PauseControlInputs { pause: 10, nr_dirtied_pause: 77, ..base };
        assert_eq!(next_nr_dirtied_pause(11, 1000, &mid), 77);
        // Short pause but fewer pages than asked (forced call): unchanged.
        let forced = PauseControlInputs { pages_dirtied: 50, ..base };
        assert_eq!(next_nr_dirtied_pause(11, 1000, &forced), 100);
        // Freerun: the sqrt rule; 188744-160000 = 28744, ilog2 14 -> 128.
        let free = PauseControlInputs { pause: 0, ..base };
        assert_eq!(next_nr_dirtied_pause(11, 1000, &free), 128);
        // Before patch 09: always the sqrt rule.
        assert_eq!(next_nr_dirtied_pause(8, 1000, &base), 128);
    }

    #[test]
    fn chunk_size_is_half_a_second_in_4mib_multiples() {
        // 25600/2 = 12800 -> 13824 rounded down to 1024 multiples = 13312.
        assert_eq!(writeback_chunk_size(25_600, 188_744, u64::MAX), 13_312);
        // Small limit: 8000/8 = 1000 -> at least 1024.
        assert_eq!(writeback_chunk_size(25_600, 8000, u64::MAX), 1024);
        assert_eq!(writeback_chunk_size(0, 0, u64::MAX), 1024);
    }
}
