//! Trace events: every throttling decision with all of its inputs, so that
//! anyone can recompute it with the kernel's code. Writing them out (JSON
//! Lines) happens outside the simulation.
//!
//! Units: pages, pages/s, jiffies. `bdi` is an index into the world's bdis
//! and `task` a task id; writers translate the bdi to its name.

use super::page_writeback::PositionInputs;

/// One iteration of the IO-less balance_dirty_pages() loop that got past
/// the freerun check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BalanceDirtyPages {
    /// When the iteration ran \[jiffies\].
    pub jiffies: u64,
    /// The throttled task.
    pub task: u32,
    /// The bdi it writes to.
    pub bdi: u32,
    /// What bdi_position_ratio() read: thresholds, global and bdi dirty
    /// pages (`bdi_thresh` before the function clamps it), `avg_write_bandwidth`.
    pub position: PositionInputs,
    /// `dirty_freerun_ceiling()` \[pages\].
    pub freerun: u64,
    /// Global setpoint \[pages\].
    pub setpoint: u64,
    /// The bdi setpoint bdi_position_ratio() used (0 at the limit) \[pages\].
    pub bdi_setpoint: u64,
    /// `bdi->dirty_ratelimit` read \[pages/s\].
    pub dirty_ratelimit: u64,
    /// 1.0 = 1024.
    pub pos_ratio: u64,
    /// \[pages/s\]
    pub task_ratelimit: u64,
    /// Pages dirtied since the task's last call \[pages\].
    pub pages_dirtied: u64,
    /// `current->nr_dirtied_pause` when the call started \[pages\].
    pub nr_dirtied_pause_before: i32,
    /// The value the call sets when it ends after this iteration \[pages\].
    pub nr_dirtied_pause: i32,
    /// \[jiffies\]
    pub max_pause: i64,
    /// Jiffies the iteration sleeps; 0 when it breaks out without
    /// sleeping (patch 09's `pause <= 0`): the value the kernel's
    /// tracepoint shows there, before it sets `pause = 1` for the end of
    /// the call \[jiffies\].
    pub pause: i64,
    /// 0 for the first iteration of a call, 1 for the second, ...
    pub iteration: u32,
}

/// One bdi_update_dirty_ratelimit().
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BdiDirtyRatelimit {
    /// \[jiffies\]
    pub jiffies: u64,
    /// The bdi.
    pub bdi: u32,
    /// \[pages\]
    pub thresh: u64,
    /// \[pages\]
    pub bg_thresh: u64,
    /// `hard_dirty_limit(thresh)` after global_update_bandwidth() \[pages\].
    pub limit: u64,
    /// \[pages\]
    pub dirty: u64,
    /// \[pages\]
    pub bdi_thresh: u64,
    /// \[pages\]
    pub bdi_dirty: u64,
    /// `avg_write_bandwidth` before this update's bandwidth estimate \[pages/s\].
    pub write_bw: u64,
    /// Pages dirtied on the bdi since the last bandwidth update \[pages\].
    pub dirtied: u64,
    /// \[jiffies\]
    pub elapsed: u64,
    /// \[pages/s\]
    pub dirty_rate: u64,
    /// 1.0 = 1024.
    pub pos_ratio: u64,
    /// \[pages/s\]
    pub task_ratelimit: u64,
    /// \[pages/s\]
    pub balanced_dirty_ratelimit: u64,
    /// `bdi->balanced_dirty_ratelimit` before the update \[pages/s\].
    pub prev_balanced_dirty_ratelimit: u64,
    /// \[pages/s\]
    pub dirty_ratelimit_before: u64,
    /// \[pages/s\]
    pub dirty_ratelimit: u64,
}

/// A throttling call that blocked its task, in every mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TaskThrottled {
    /// When the call started \[jiffies\].
    pub jiffies: u64,
    /// The task.
    pub task: u32,
    /// Its bdi.
    pub bdi: u32,
    /// Time spent in the call, foreground IO included \[jiffies\].
    pub duration: u64,
    /// What the call was given \[pages\]: from patch level 6 on, the
    /// pages dirtied since the task's last call; below it (3.1, 2.6.38
    /// and levels 1 to 5) `write_chunk`, the pages to write back.
    pub pages_dirtied: u64,
    /// Pages the task wrote itself (IO-full mode) \[pages\].
    pub pages_written: u64,
}

/// Any trace event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceEvent {
    /// See [`BalanceDirtyPages`].
    BalanceDirtyPages(BalanceDirtyPages),
    /// See [`BdiDirtyRatelimit`].
    BdiDirtyRatelimit(BdiDirtyRatelimit),
    /// See [`TaskThrottled`].
    TaskThrottled(TaskThrottled),
}

impl TraceEvent {
    /// When it happened \[jiffies\].
    pub fn jiffies(&self) -> u64 {
        match self {
            TraceEvent::BalanceDirtyPages(r) => r.jiffies,
            TraceEvent::BdiDirtyRatelimit(r) => r.jiffies,
            TraceEvent::TaskThrottled(r) => r.jiffies,
        }
    }
}
