//! Tasks that dirty pages, the CPUs they share, and the throttling path
//! they take: the ratelimited entry point after every write (as
//! generic_perform_write() calls it) and balance_dirty_pages() in either
//! generation: IO-full (Linux 3.1 up to patch 06: the task writes back
//! pages itself) or IO-less (patches 07-11: the task sleeps).
//!
//! A CPU runs one task at a time. A running task dirties pages in
//! segments: as many units (one write() call's pages, or the write() calls
//! that fill one page for sub-page block sizes) as it can until its next
//! throttling call, the end of its time slice or the end of its work,
//! whichever comes first. Its dirty pages are accounted when the segment
//! ends. A task that sleeps, waits for the device queue or waits for work
//! leaves its CPU; runnable tasks wait in one FIFO run queue.

use super::config::{Legacy, NS_PER_SEC, TaskConfig, TaskKind};
use super::device::Submitter;
use super::engine::{Event, World};
use super::flusher::{PassEnd, Writer};
use super::kernel::{PAGE_SIZE, do_div};
use super::metrics::TaskStats;
use super::page_writeback::{self as pw, DirtyLimits, PositionInputs, hard_dirty_limit};
use super::proportions::PropLocal;
use super::trace::{BalanceDirtyPages, TaskThrottled, TraceEvent};

/// Longest run on a CPU before a waiting task gets its turn \[ns\].
pub const TIMESLICE_NS: u64 = 3_000_000;

/// Initial `nr_dirtied_pause` of a new task (kernel/fork.c, patch 06).
const INITIAL_NR_DIRTIED_PAUSE: i32 = 128 >> (super::kernel::PAGE_SHIFT - 10);

/// Ratelimit while the bdi's `dirty_exceeded` is set: 32 KiB \[pages\].
const DIRTY_EXCEEDED_RATELIMIT: i64 = 32 >> (super::kernel::PAGE_SHIFT - 10);

/// `TASK_LIMIT_FRACTION`: heavy dirtiers get up to 1/8 less (IO-full).
const TASK_LIMIT_FRACTION: u64 = 8;

/// One CPU.
#[derive(Clone, Debug, Default)]
pub struct Cpu {
    /// The task running on it.
    pub running: Option<u32>,
    /// `bdp_ratelimits`: pages dirtied here since the last forced call.
    pub bdp_ratelimits: i64,
}

/// Where a task is.
#[derive(Clone, Debug, PartialEq)]
pub enum TaskState {
    /// Before its start time.
    NotStarted,
    /// Waiting for a CPU.
    Runnable,
    /// Dirtying pages on a CPU.
    Running(Segment),
    /// Inside balance_dirty_pages(): sleeping or writing back.
    Throttled(Throttle),
    /// Waiting for work: network data, or the next save.
    Idle,
    /// Gone.
    Exited,
}

/// Pages being dirtied on a CPU until the next event of the task.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    /// The CPU.
    pub cpu: usize,
    /// Units dirtied by the end of the segment.
    pub units: u64,
    /// True when the last unit makes the ratelimited entry call
    /// balance_dirty_pages().
    pub calls: bool,
    /// When the task got the CPU \[ns\].
    pub slice_start: u64,
    /// When this segment began \[ns\].
    pub start: u64,
    /// Pages it newly dirties by its end, held in `Vm::planned_pages`
    /// \[pages\].
    pub pages: u64,
}

/// A balance_dirty_pages() call in progress.
#[derive(Clone, Debug, PartialEq)]
pub enum Throttle {
    /// Patches 07-11.
    IoLess(BdpCall),
    /// Linux 3.1 up to patch 06.
    IoFull(IoFullCall),
}

/// The local variables of an IO-less balance_dirty_pages() call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BdpCall {
    /// `start_time` \[jiffies\].
    pub start_time: u64,
    /// `pages_dirtied` \[pages\].
    pub pages_dirtied: u64,
    /// `current->nr_dirtied_pause` at entry \[pages\].
    pub nr_dirtied_pause_before: i32,
    /// `pause` \[jiffies\].
    pub pause: i64,
    /// `max_pause` \[jiffies\].
    pub max_pause: i64,
    /// `dirty_ratelimit` \[pages/s\].
    pub dirty_ratelimit: u64,
    /// `nr_dirty` \[pages\].
    pub nr_dirty: u64,
    /// `nr_reclaimable` \[pages\].
    pub nr_reclaimable: u64,
    /// `dirty_thresh` \[pages\].
    pub dirty_thresh: u64,
    /// `background_thresh` \[pages\].
    pub background_thresh: u64,
    /// `dirty_exceeded` (the local).
    pub dirty_exceeded: bool,
    /// Loop iterations that got past the freerun check.
    pub iterations: u32,
    /// Time slept so far \[jiffies\].
    pub slept: u64,
}

/// The local variables of an IO-full balance_dirty_pages() call.
#[derive(Clone, Debug, PartialEq)]
pub struct IoFullCall {
    /// `start_time` \[jiffies\].
    pub start_time: u64,
    /// `write_chunk`: pages to write back before leaving \[pages\].
    pub write_chunk: u64,
    /// `pages_written` \[pages\].
    pub pages_written: u64,
    /// Next sleep: 1, 2, 4 ... up to HZ/10 \[jiffies\].
    pub pause: u64,
    /// `dirty_exceeded` (the local).
    pub dirty_exceeded: bool,
    /// `clear_dirty_exceeded`.
    pub clear_dirty_exceeded: bool,
    /// `nr_reclaimable` \[pages\].
    pub nr_reclaimable: u64,
    /// `nr_dirty` \[pages\].
    pub nr_dirty: u64,
    /// `background_thresh` \[pages\].
    pub background_thresh: u64,
    /// `dirty_thresh` \[pages\].
    pub dirty_thresh: u64,
    /// `bdi_thresh` \[pages\].
    pub bdi_thresh: u64,
    /// `task_bdi_thresh` \[pages\].
    pub task_bdi_thresh: u64,
    /// `bdi_dirty` \[pages\].
    pub bdi_dirty: u64,
    /// The writeback the task is doing itself, while it waits for the queue.
    pub writer: Option<Writer>,
    /// The call slept or waited for the device.
    pub blocked: bool,
}

/// The global counters and thresholds balance_dirty_pages() reads at the
/// top of every iteration, in either generation.
#[derive(Clone, Copy, Debug)]
struct DirtySnapshot {
    /// NR_FILE_DIRTY + NR_UNSTABLE_NFS \[pages\].
    nr_reclaimable: u64,
    /// `nr_reclaimable` + NR_WRITEBACK \[pages\].
    nr_dirty: u64,
    /// `global_dirty_limits()`.
    limits: DirtyLimits,
}

impl DirtySnapshot {
    /// `dirty_freerun_ceiling()`: below it no task is throttled \[pages\].
    fn freerun(&self) -> u64 {
        pw::dirty_freerun_ceiling(self.limits.dirty, self.limits.background)
    }
}

/// A task.
///
/// Laid out in the order written, the fields a wakeup reads first: with
/// thousands of tasks each wakeup fetches its task from memory, and the
/// fewer cache lines it spans the faster the world runs.
#[derive(Clone, Debug)]
#[repr(C, align(64))]
pub struct Task {
    /// Its id: index in the world's task list.
    pub id: u32,
    /// The bdi it writes to.
    pub bdi: u32,
    /// The file it writes.
    pub inode: u32,
    /// Incremented whenever a pending event of the task is cancelled.
    pub(super) generation: u32,
    /// `current->nr_dirtied` \[pages\].
    pub nr_dirtied: i32,
    /// `current->nr_dirtied_pause` \[pages\].
    pub nr_dirtied_pause: i32,
    /// Set when the task was asked to exit at its next chance.
    killed: bool,
    /// Slept in the IO-less balance_dirty_pages() since the last sample,
    /// or was asleep there at it.
    pub(super) slept: bool,
    /// Waited for work (network data, its next save) since the last
    /// sample, or was waiting at it.
    pub(super) waited: bool,
    /// Waiting for work now.
    pub(super) awaiting_work: bool,
    /// The pause of its last sleep \[jiffies\].
    pub last_pause: u64,
    /// `stats.dirtied` at the last sample \[pages\].
    pub(super) dirtied_at_sample: u64,
    /// Its dirty rate, smoothed at each sample over about a second: each
    /// interval's rate moves it by the interval's share of a second
    /// \[pages/s\].
    pub(super) dirty_rate: f64,
    /// Where it is.
    pub state: TaskState,
    /// What it did.
    pub stats: TaskStats,
    /// CPU time per unit \[ns\].
    unit_ns: u64,
    /// Pages each unit dirties (and passes to the ratelimited entry).
    unit_pages: u64,
    /// Units that fill one page: 4096 / bs for sub-page writes, else 1.
    units_per_page: u64,
    /// Bytes each unit writes.
    unit_bytes: u64,
    /// Units written so far.
    unit_pos: u64,
    /// Units left before a dd exits; `None` runs until stopped.
    remaining: Option<u64>,
    /// `tsk->dirties`: its share of recent dirtying (IO-full task limits).
    pub(super) dirties: PropLocal,
    /// What it does.
    pub kind: TaskKind,
    /// Pipeline: bytes waiting in the buffer \[bytes\].
    buffer: f64,
    /// Pipeline: when `buffer` was last brought up to date \[ns\].
    buffer_at: u64,
    /// Light writer: units left in the current save.
    burst_left: u64,
    /// Light writer: when the next save starts \[ns\].
    next_burst: u64,
}

impl Task {
    /// Pages one unit of its work dirties (one write(), at most the
    /// filesystem's batch): its granularity at the ratelimited entry.
    pub fn unit_pages(&self) -> u64 {
        self.unit_pages
    }

    /// A task that has not started yet. `batch_pages` is how many pages the
    /// filesystem dirties per call into the ratelimited entry (btrfs: up to 512).
    pub fn new(id: u32, cfg: &TaskConfig, inode: u32, syscall_ns: u64, copy_page_ns: u64, batch_pages: u64) -> Task {
        let bs = match cfg.kind {
            TaskKind::Dd { bs, .. } | TaskKind::Pipeline { bs, .. } => bs,
            TaskKind::Light { .. } | TaskKind::RandomMmap => PAGE_SIZE,
        };
        let (unit_ns, unit_pages, units_per_page, unit_bytes) = if bs >= PAGE_SIZE {
            let pages = (bs / PAGE_SIZE).clamp(1, batch_pages.max(1));
            let page_ns = copy_page_ns + syscall_ns * PAGE_SIZE / bs;
            (page_ns * pages, pages, 1, PAGE_SIZE * pages)
        } else {
            (syscall_ns + copy_page_ns * bs / PAGE_SIZE, 1, PAGE_SIZE / bs, bs)
        };
        let unit_ns = match cfg.kind {
            // A page fault and a page touch, no copy from user space.
            TaskKind::RandomMmap => syscall_ns,
            _ => unit_ns,
        };
        let remaining = match cfg.kind {
            TaskKind::Dd { total_bytes, .. } => total_bytes.map(|b| b.div_ceil(unit_bytes)),
            _ => None,
        };
        Task {
            id,
            bdi: cfg.bdi as u32,
            inode,
            kind: cfg.kind.clone(),
            state: TaskState::NotStarted,
            generation: 0,
            unit_ns: unit_ns.max(1),
            unit_pages,
            units_per_page,
            unit_bytes,
            unit_pos: 0,
            remaining,
            nr_dirtied: 0,
            nr_dirtied_pause: INITIAL_NR_DIRTIED_PAUSE,
            dirties: PropLocal::default(),
            killed: false,
            slept: false,
            waited: false,
            awaiting_work: false,
            dirtied_at_sample: 0,
            dirty_rate: 0.0,
            last_pause: 0,
            buffer: 0.0,
            buffer_at: 0,
            burst_left: 0,
            next_burst: 0,
            stats: TaskStats::default(),
        }
    }

    /// Pages its next `units` dirty at most: those they begin \[pages\].
    fn pages_in(&self, units: u64) -> u64 {
        let upp = self.units_per_page;
        ((self.unit_pos + units).div_ceil(upp) - self.unit_pos.div_ceil(upp)) * self.unit_pages
    }

    /// Whether it was held in balance_dirty_pages() over the sample
    /// interval that ends now, `dt_ns` long (it slept there and did not
    /// wait for work); updates `dirty_rate` with the interval's and starts
    /// the next.
    pub(super) fn take_interval(&mut self, dt_ns: u64) -> bool {
        let held = self.slept && !self.waited;
        if dt_ns > 0 {
            let pages = (self.stats.dirtied - self.dirtied_at_sample) as f64;
            let secs = dt_ns as f64 / NS_PER_SEC as f64;
            self.dirty_rate += (pages / secs - self.dirty_rate) * secs.min(1.0);
        }
        self.dirtied_at_sample = self.stats.dirtied;
        self.slept = matches!(self.state, TaskState::Throttled(Throttle::IoLess(_)));
        self.waited = self.awaiting_work;
        held
    }

    /// True until the task exits.
    pub fn alive(&self) -> bool {
        !matches!(self.state, TaskState::Exited)
    }

    /// True once the task was asked to exit.
    pub fn is_killed(&self) -> bool {
        self.killed
    }

    /// Pipeline: brings the buffer up to `now`, counting network time lost
    /// to a full buffer.
    fn fill_buffer(&mut self, now: u64) {
        if let TaskKind::Pipeline { net_rate, buffer, .. } = self.kind {
            let dt = now.saturating_sub(self.buffer_at) as f64 / NS_PER_SEC as f64;
            let room = buffer as f64 - self.buffer;
            let arrived = net_rate * dt;
            if arrived > room {
                self.stats.net_stalled_ns += ((arrived - room) / net_rate * NS_PER_SEC as f64) as u64;
            }
            self.buffer += arrived.min(room);
            self.stats.received_bytes += arrived.min(room) as u64;
            self.buffer_at = now;
        }
    }

    /// Units the task can write now without waiting; `None`: no limit.
    fn available(&mut self, now: u64) -> Option<u64> {
        match self.kind {
            TaskKind::Dd { .. } => self.remaining,
            TaskKind::Pipeline { .. } => {
                self.fill_buffer(now);
                Some((self.buffer / self.unit_bytes as f64) as u64)
            }
            TaskKind::Light { .. } => Some(self.burst_left),
            TaskKind::RandomMmap => None,
        }
    }

    /// When a task without work will have some again \[ns\].
    fn work_arrives(&self, now: u64) -> Option<u64> {
        match self.kind {
            TaskKind::Pipeline { net_rate, .. } => {
                let missing = self.unit_bytes as f64 - self.buffer;
                Some(now + (missing.max(0.0) / net_rate * NS_PER_SEC as f64).ceil() as u64 + 1)
            }
            TaskKind::Light { .. } => Some(self.next_burst.max(now)),
            TaskKind::Dd { .. } | TaskKind::RandomMmap => None,
        }
    }
}

impl World {
    // ---- scheduling -----------------------------------------------------------

    pub(super) fn task_start(&mut self, t: u32) {
        let now = self.now;
        let task = &mut self.tasks[t as usize];
        if !matches!(task.state, TaskState::NotStarted) {
            return;
        }
        if task.killed {
            task.state = TaskState::Exited;
            return;
        }
        task.stats.started_ns = Some(now);
        task.buffer_at = now;
        if let TaskKind::Light { burst, period_ns } = task.kind {
            task.burst_left = burst.div_ceil(task.unit_bytes);
            task.next_burst = now + period_ns;
        }
        let bdi = task.bdi as usize;
        self.bdis[bdi].nr_tasks += 1;
        self.make_runnable(t);
    }

    /// Kills a task: it exits the next time it runs or wakes.
    pub(super) fn task_stop(&mut self, t: u32) {
        let task = &mut self.tasks[t as usize];
        task.killed = true;
        match task.state {
            TaskState::NotStarted => task.state = TaskState::Exited,
            TaskState::Runnable => {
                self.runqueue.retain(|&x| x != t);
                self.exit(t);
            }
            TaskState::Idle => self.exit(t),
            _ => {}
        }
    }

    fn exit(&mut self, t: u32) {
        let task = &mut self.tasks[t as usize];
        if matches!(task.state, TaskState::Exited) {
            return;
        }
        let cpu = match task.state {
            TaskState::Running(seg) => Some(seg.cpu),
            _ => None,
        };
        task.state = TaskState::Exited;
        task.generation += 1;
        task.stats.ended_ns = Some(self.now);
        task.fill_buffer(self.now);
        let bdi = task.bdi as usize;
        self.bdis[bdi].nr_tasks -= 1;
        if let Some(cpu) = cpu {
            self.release_cpu(cpu);
        }
    }

    /// Puts a task on a CPU or in the run queue, or to sleep until it has
    /// work, or out if it is done.
    fn make_runnable(&mut self, t: u32) {
        let now = self.now;
        let task = &mut self.tasks[t as usize];
        if task.killed || task.remaining == Some(0) {
            self.exit(t);
            return;
        }
        if task.available(now) == Some(0) {
            let at = task.work_arrives(now).expect("tasks with limited work know when more arrives");
            task.state = TaskState::Idle;
            (task.waited, task.awaiting_work) = (true, true);
            let generation = task.generation;
            self.schedule(at, Event::TaskWake(t, generation));
            return;
        }
        match self.idle_cpus.pop() {
            Some(cpu) => {
                if !self.run_on(t, cpu, now) {
                    self.release_cpu(cpu);
                }
            }
            None => {
                self.tasks[t as usize].state = TaskState::Runnable;
                self.runqueue.push_back(t);
            }
        }
    }

    fn release_cpu(&mut self, cpu: usize) {
        self.cpus[cpu].running = None;
        while let Some(next) = self.runqueue.pop_front() {
            let now = self.now;
            if self.tasks[next as usize].available(now) == Some(0) {
                // Its work ran out while it waited (a light writer's save).
                self.make_runnable(next);
                continue;
            }
            if self.run_on(next, cpu, now) {
                return;
            }
        }
        self.idle_cpus.push(cpu);
    }

    /// No clean page to be had: every dirtyable page is dirty, under
    /// writeback or unstable. The page allocator's reclaim waits for
    /// writeback to complete (congestion_wait(), a tenth of a second)
    /// before the task can dirty another page. It leaves its CPU.
    fn reclaim_stall(&mut self, t: u32) {
        let at = self.now + NS_PER_SEC / 10;
        let task = &mut self.tasks[t as usize];
        task.state = TaskState::Idle;
        task.stats.reclaim_stalls += 1;
        let generation = task.generation;
        self.schedule(at, Event::TaskWake(t, generation));
    }

    /// Gives `cpu` to task `t` and plans its next segment: the units until
    /// the ratelimited entry calls balance_dirty_pages(), within the time
    /// slice and the work at hand.
    fn run_on(&mut self, t: u32, cpu: usize, slice_start: u64) -> bool {
        // Clean pages left to dirty: the dirtyable ones not dirty, under
        // writeback or unstable, nor promised to other CPUs' segments.
        let room = self.vm.dirtyable().saturating_sub(self.vm.nr_dirty() + self.vm.planned_pages);
        if room == 0 {
            self.reclaim_stall(t);
            return false;
        }
        self.cpus[cpu].running = Some(t);
        let now = self.now;
        let ratelimit_pages = self.vm.ratelimit_pages as i64;
        let p = self.cpus[cpu].bdp_ratelimits;
        let dirty_exceeded = self.bdis[self.tasks[t as usize].bdi as usize].dirty_exceeded;
        let v12_entry = self.patches >= 6;
        let task = &mut self.tasks[t as usize];
        let nr = task.unit_pages as i64;
        let units_to = |pages: i64| (pages.max(1) as u64).div_ceil(nr as u64);
        let until_call = if v12_entry {
            // balance_dirty_pages_ratelimited_nr() as of patch 06.
            let mut ratelimit = task.nr_dirtied_pause as i64;
            if dirty_exceeded {
                ratelimit = ratelimit.min(DIRTY_EXCEEDED_RATELIMIT);
            }
            units_to(ratelimit - task.nr_dirtied as i64).min(units_to(ratelimit_pages - p))
        } else {
            // Linux 3.1: a per-CPU count against ratelimit_pages (8 pages
            // while dirty_exceeded).
            let ratelimit = if dirty_exceeded { DIRTY_EXCEEDED_RATELIMIT } else { ratelimit_pages };
            units_to(ratelimit - p)
        };
        let slice_left = (slice_start + TIMESLICE_NS).saturating_sub(now) / task.unit_ns;
        // No more units than the clean pages left, one at least: a page
        // is allocated for each, and none is left once they are all dirty.
        let fit = (room / task.unit_pages.max(1)).saturating_mul(task.units_per_page).max(1);
        let units = until_call.min(slice_left.max(1)).min(task.available(now).unwrap_or(u64::MAX)).min(fit);
        let pages = task.pages_in(units);
        let seg = Segment { cpu, units, calls: units == until_call, slice_start, start: now, pages };
        self.vm.planned_pages += pages;
        let duration = units * task.unit_ns;
        let generation = task.generation;
        task.state = TaskState::Running(seg);
        self.schedule_in(duration, Event::SegmentEnd(t, generation));
        true
    }

    pub(super) fn segment_end(&mut self, t: u32, generation: u32) {
        let task = &self.tasks[t as usize];
        if task.generation != generation {
            return;
        }
        let TaskState::Running(seg) = task.state else {
            return;
        };
        let p_before = self.cpus[seg.cpu].bdp_ratelimits;
        self.vm.planned_pages -= seg.pages;
        self.dirty_units(t, seg.cpu, seg.units, seg.calls);
        if seg.calls && !self.tasks[t as usize].killed {
            let blocked = if self.patches >= 6 {
                let pages_dirtied = self.tasks[t as usize].nr_dirtied.max(0) as u64;
                self.balance_dirty_pages(t, pages_dirtied)
            } else {
                // sync_writeback_pages(*p): 1.5 x the pages dirtied here.
                let dirtied = (p_before + (seg.units * self.tasks[t as usize].unit_pages) as i64) as u64;
                let dirtied = dirtied.max(self.vm.ratelimit_pages);
                self.balance_dirty_pages(t, dirtied + dirtied / 2)
            };
            if blocked {
                // Sleeping or waiting for the device: the CPU is free for others.
                self.release_cpu(seg.cpu);
                return;
            }
        }
        self.continue_running(t, seg);
    }

    /// After a segment that did not block: exit, yield or go on.
    fn continue_running(&mut self, t: u32, seg: Segment) {
        let now = self.now;
        let task = &mut self.tasks[t as usize];
        if task.killed || task.remaining == Some(0) {
            self.exit(t);
            return;
        }
        if task.available(now) == Some(0) {
            self.cpus[seg.cpu].running = None;
            self.make_runnable(t);
            self.release_cpu(seg.cpu);
            return;
        }
        let slice_over = now >= seg.slice_start + TIMESLICE_NS;
        if slice_over && !self.runqueue.is_empty() {
            self.tasks[t as usize].state = TaskState::Runnable;
            self.runqueue.push_back(t);
            self.release_cpu(seg.cpu);
        } else {
            let slice_start = if slice_over { now } else { seg.slice_start };
            if !self.run_on(t, seg.cpu, slice_start) {
                self.release_cpu(seg.cpu);
            }
        }
    }

    /// Accounts `units` written by task `t` on `cpu`: the pages they newly
    /// dirty, `current->nr_dirtied` and the CPU's `bdp_ratelimits`, which
    /// the call at the last unit (if `calls`) resets.
    fn dirty_units(&mut self, t: u32, cpu: usize, units: u64, calls: bool) {
        let task = &mut self.tasks[t as usize];
        let pages = task.pages_in(units);
        task.unit_pos += units;
        if let Some(r) = &mut task.remaining {
            *r -= units;
        }
        task.burst_left = task.burst_left.saturating_sub(units);
        if matches!(task.kind, TaskKind::Pipeline { .. }) {
            task.fill_buffer(self.now);
            task.buffer = (task.buffer - (units * task.unit_bytes) as f64).max(0.0);
        }
        let nr = (units * task.unit_pages) as i64;
        task.nr_dirtied = task.nr_dirtied.saturating_add(nr as i32);
        task.stats.dirtied += pages;
        let inode = task.inode;
        let p = &mut self.cpus[cpu].bdp_ratelimits;
        *p = if calls { 0 } else { *p + nr };
        self.account_page_dirtied(t, inode, pages);
    }

    /// Sets `bdi->dirty_exceeded`. Tasks dirtying pages on the bdi look at
    /// the flag at every page, so their current segments are cut short and
    /// planned again under the new ratelimit.
    fn set_dirty_exceeded(&mut self, bdi: usize, exceeded: bool) {
        if self.bdis[bdi].dirty_exceeded == exceeded {
            return;
        }
        self.bdis[bdi].dirty_exceeded = exceeded;
        for cpu in 0..self.cpus.len() {
            let Some(t) = self.cpus[cpu].running else { continue };
            let task = &self.tasks[t as usize];
            let TaskState::Running(seg) = task.state else { continue };
            if task.bdi as usize != bdi {
                continue;
            }
            let done = ((self.now - seg.start) / task.unit_ns).min(seg.units);
            if done == seg.units {
                // Its segment ends at this instant anyway.
                continue;
            }
            self.tasks[t as usize].generation += 1;
            self.vm.planned_pages -= seg.pages;
            self.dirty_units(t, cpu, done, false);
            if !self.run_on(t, cpu, seg.slice_start) {
                self.release_cpu(cpu);
            }
        }
    }

    pub(super) fn task_wake(&mut self, t: u32, generation: u32) {
        let task = &mut self.tasks[t as usize];
        if task.generation != generation {
            return;
        }
        match std::mem::replace(&mut task.state, TaskState::Runnable) {
            TaskState::Idle => {
                task.awaiting_work = false;
                if let TaskKind::Light { burst, period_ns } = task.kind
                    && self.now >= task.next_burst
                {
                    task.burst_left += burst.div_ceil(task.unit_bytes);
                    task.next_burst += period_ns;
                }
                self.make_runnable(t);
            }
            TaskState::Throttled(throttle) => {
                if self.tasks[t as usize].killed {
                    let (start, pages_dirtied, pages_written) = match &throttle {
                        Throttle::IoLess(c) => (c.start_time, c.pages_dirtied, 0),
                        Throttle::IoFull(c) => (c.start_time, c.write_chunk, c.pages_written),
                    };
                    self.finish_throttled(t, start, true, pages_dirtied, pages_written);
                    self.exit(t);
                    return;
                }
                let blocked = match throttle {
                    Throttle::IoLess(call) => self.bdp_after_pause(t, call),
                    Throttle::IoFull(call) => self.iofull_after_pause(t, call),
                };
                if !blocked {
                    self.make_runnable(t);
                }
            }
            other => self.tasks[t as usize].state = other,
        }
    }

    /// The global state an iteration of balance_dirty_pages() starts from.
    fn dirty_snapshot(&self) -> DirtySnapshot {
        let nr_reclaimable = self.vm.nr_file_dirty + self.vm.nr_unstable;
        DirtySnapshot { nr_reclaimable, nr_dirty: nr_reclaimable + self.vm.nr_writeback, limits: self.vm.limits }
    }

    /// Enters balance_dirty_pages() for task `t`: IO-full up to patch 06
    /// (the argument is `write_chunk`), IO-less from patch 07 (the argument
    /// is `pages_dirtied`). Returns true when the task sleeps or waits for
    /// the device; false when the call ended.
    fn balance_dirty_pages(&mut self, t: u32, pages: u64) -> bool {
        self.stats.bdp_calls += 1;
        let start_time = self.jiffies();
        if self.patches < 7 {
            let call = IoFullCall {
                start_time,
                write_chunk: pages,
                pages_written: 0,
                pause: 1,
                dirty_exceeded: false,
                clear_dirty_exceeded: true,
                nr_reclaimable: 0,
                nr_dirty: 0,
                background_thresh: 0,
                dirty_thresh: 0,
                bdi_thresh: 0,
                task_bdi_thresh: 0,
                bdi_dirty: 0,
                writer: None,
                blocked: false,
            };
            return self.iofull_loop(t, call);
        }
        let call = BdpCall {
            start_time,
            pages_dirtied: pages,
            nr_dirtied_pause_before: self.tasks[t as usize].nr_dirtied_pause,
            pause: 0,
            max_pause: 0,
            dirty_ratelimit: 0,
            nr_dirty: 0,
            nr_reclaimable: 0,
            dirty_thresh: 0,
            background_thresh: 0,
            dirty_exceeded: false,
            iterations: 0,
            slept: 0,
        };
        self.bdp_loop(t, call)
    }

    /// Puts task `t` to sleep for `pause` jiffies in `throttle`.
    fn sleep(&mut self, t: u32, pause: u64, throttle: Throttle) {
        debug_assert!(
            match &throttle {
                Throttle::IoLess(call) => (1..=call.max_pause.max(1) as u64).contains(&pause),
                Throttle::IoFull(_) => (1..=(self.hz / 10).max(1)).contains(&pause),
            },
            "a throttling pause of {pause} jiffies lies within [1, max_pause]"
        );
        let wake = self.ns_at_jiffy(self.jiffies() + pause);
        let task = &mut self.tasks[t as usize];
        task.last_pause = pause;
        task.slept |= matches!(throttle, Throttle::IoLess(_));
        task.stats.pauses.add(pause);
        self.stats.pauses.add(pause);
        let bdi = task.bdi;
        self.log_pause(t, bdi, pause, false, false);
        let task = &mut self.tasks[t as usize];
        let generation = task.generation;
        task.state = TaskState::Throttled(throttle);
        self.schedule(wake, Event::TaskWake(t, generation));
    }

    // ---- IO-less balance_dirty_pages() (patches 07-11) ---------------------------------

    /// The IO-less loop. Returns true when the task sleeps.
    fn bdp_loop(&mut self, t: u32, mut call: BdpCall) -> bool {
        let bdi = self.tasks[t as usize].bdi as usize;
        loop {
            let global = self.dirty_snapshot();
            call.nr_reclaimable = global.nr_reclaimable;
            call.nr_dirty = global.nr_dirty;
            let limits = global.limits;
            call.background_thresh = limits.background;
            call.dirty_thresh = limits.dirty;

            if call.nr_dirty <= global.freerun() {
                break;
            }
            if !self.bdis[bdi].flusher.running {
                self.bdi_start_background_writeback(bdi);
            }

            let bdi_thresh = self.bdi_dirty_limit(bdi, limits.dirty);
            let bdi_dirty = self.bdi_dirty(bdi);
            call.dirty_exceeded = bdi_dirty > bdi_thresh || call.nr_dirty > limits.dirty;
            if call.dirty_exceeded {
                self.set_dirty_exceeded(bdi, true);
            }

            self.bdi_update_bandwidth(
                bdi,
                limits.dirty,
                limits.background,
                call.nr_dirty,
                bdi_thresh,
                bdi_dirty,
                call.start_time,
            );

            let hz = self.hz;
            let b = &self.bdis[bdi];
            call.max_pause = if self.patches >= 8 {
                pw::bdi_max_pause(hz, b.avg_write_bandwidth, b.dirty_ratelimit, bdi_dirty) as i64
            } else {
                pw::max_pause(hz) as i64
            };
            call.dirty_ratelimit = b.dirty_ratelimit;
            let inputs = self.position_inputs(bdi, limits, call.nr_dirty, bdi_thresh, bdi_dirty);
            let pos = pw::bdi_position_ratio(self.patches, &inputs);
            let decision = pw::throttle_pause(
                self.patches,
                hz,
                call.dirty_ratelimit,
                pos.pos_ratio,
                call.pages_dirtied,
                call.max_pause,
            );
            call.pause = decision.pause;
            let b = &mut self.bdis[bdi];
            b.last_pos_ratio = pos.pos_ratio;
            b.last_task_ratelimit = decision.task_ratelimit;

            if self.trace.is_some() {
                self.trace_bdp_iteration(t, &call, inputs, global.freerun(), pos, &decision);
            }
            call.iterations += 1;

            if decision.breaks {
                break;
            }
            if call.pause > 0 {
                let pause = call.pause as u64;
                call.slept += pause;
                self.sleep(t, pause, Throttle::IoLess(call));
                return true;
            }
            // io_schedule_timeout(0) returns at once (patches 07-08).
            call.dirty_thresh = hard_dirty_limit(call.dirty_thresh, self.vm.global_dirty_limit);
            if call.nr_dirty < call.dirty_thresh {
                break;
            }
        }
        self.bdp_finish(t, &call);
        false
    }

    /// Records one iteration of the IO-less loop that got past the freerun
    /// check: what bdi_position_ratio() read and computed, and the pause.
    fn trace_bdp_iteration(
        &mut self,
        t: u32,
        call: &BdpCall,
        position: PositionInputs,
        freerun: u64,
        pos: pw::Position,
        decision: &pw::PauseDecision,
    ) {
        // The value the call sets if it ends after this iteration: after a
        // pause `dirty_thresh` becomes the hard limit.
        let thresh_after = if decision.breaks { position.thresh } else { position.limit };
        let nr_dirtied_pause = self.nr_dirtied_pause_after(call, thresh_after);
        let record = BalanceDirtyPages {
            jiffies: self.jiffies(),
            task: t,
            bdi: self.tasks[t as usize].bdi,
            position,
            freerun,
            setpoint: pos.setpoint,
            bdi_setpoint: pos.bdi_setpoint,
            dirty_ratelimit: call.dirty_ratelimit,
            pos_ratio: pos.pos_ratio,
            task_ratelimit: decision.task_ratelimit,
            pages_dirtied: call.pages_dirtied,
            nr_dirtied_pause_before: call.nr_dirtied_pause_before,
            nr_dirtied_pause,
            max_pause: call.max_pause,
            // Breaking out, the call sleeps not at all.
            pause: if decision.breaks { 0 } else { call.pause },
            iteration: call.iterations,
        };
        if let Some(trace) = &mut self.trace {
            trace.push(TraceEvent::BalanceDirtyPages(record));
        }
    }

    /// Continues a call after its pause. Returns true when it sleeps again.
    fn bdp_after_pause(&mut self, t: u32, mut call: BdpCall) -> bool {
        call.dirty_thresh = hard_dirty_limit(call.dirty_thresh, self.vm.global_dirty_limit);
        if call.nr_dirty < call.dirty_thresh {
            self.bdp_finish(t, &call);
            return false;
        }
        self.bdp_loop(t, call)
    }

    /// `current->nr_dirtied_pause` as the end of the call sets it.
    fn nr_dirtied_pause_after(&self, call: &BdpCall, dirty_thresh: u64) -> i32 {
        pw::next_nr_dirtied_pause(
            self.patches,
            self.hz,
            &pw::PauseControlInputs {
                pause: call.pause,
                max_pause: call.max_pause,
                pages_dirtied: call.pages_dirtied,
                nr_dirtied_pause: call.nr_dirtied_pause_before,
                dirty_ratelimit: call.dirty_ratelimit,
                nr_dirty: call.nr_dirty,
                dirty_thresh,
            },
        )
    }

    /// The end of the IO-less balance_dirty_pages().
    fn bdp_finish(&mut self, t: u32, call: &BdpCall) {
        let bdi = self.tasks[t as usize].bdi as usize;
        if !call.dirty_exceeded {
            self.set_dirty_exceeded(bdi, false);
        }
        let nr_dirtied_pause = self.nr_dirtied_pause_after(call, call.dirty_thresh);
        let task = &mut self.tasks[t as usize];
        task.nr_dirtied = 0;
        task.nr_dirtied_pause = nr_dirtied_pause;
        self.finish_throttled(t, call.start_time, call.slept > 0, call.pages_dirtied, 0);
        if self.bdis[bdi].flusher.running {
            return;
        }
        if call.nr_reclaimable > call.background_thresh {
            self.bdi_start_background_writeback(bdi);
        }
    }

    // ---- IO-full balance_dirty_pages() (Linux 2.6.38, 3.1 up to patch 06) ----------------

    /// Mirrors `task_dirty_limit()`: heavy dirtiers get up to 1/8 less of
    /// the bdi's threshold \[pages\].
    fn task_dirty_limit(&mut self, t: u32, bdi_dirty: u64) -> u64 {
        let (numerator, denominator) = self.vm.dirties.fraction(&mut self.tasks[t as usize].dirties);
        let inv = do_div((bdi_dirty / TASK_LIMIT_FRACTION).wrapping_mul(numerator), denominator);
        bdi_dirty.wrapping_sub(inv).max(bdi_dirty / 2)
    }

    /// One iteration of the IO-full loop. Returns true when the task
    /// sleeps or waits for the device queue, false when the call ended.
    fn iofull_loop(&mut self, t: u32, mut call: IoFullCall) -> bool {
        let bdi = self.tasks[t as usize].bdi as usize;
        // One iteration: it ends the call (break), or the task sleeps or
        // waits; iofull_after_pause() runs the next one.
        'iteration: {
            let global = self.dirty_snapshot();
            call.nr_reclaimable = global.nr_reclaimable;
            call.nr_dirty = global.nr_dirty;
            let limits = global.limits;
            call.background_thresh = limits.background;
            call.dirty_thresh = limits.dirty;

            if call.nr_dirty <= global.freerun() {
                break 'iteration;
            }
            call.bdi_thresh = self.bdi_dirty_limit(bdi, limits.dirty);
            let min_task_bdi_thresh = call.bdi_thresh - call.bdi_thresh / TASK_LIMIT_FRACTION;
            call.task_bdi_thresh = self.task_dirty_limit(t, call.bdi_thresh);
            let bdi_reclaimable = self.bdis[bdi].reclaimable;
            call.bdi_dirty = self.bdi_dirty(bdi);

            call.dirty_exceeded = call.bdi_dirty > call.task_bdi_thresh || call.nr_dirty > limits.dirty;
            call.clear_dirty_exceeded = call.bdi_dirty <= min_task_bdi_thresh && call.nr_dirty <= limits.dirty;
            if !call.dirty_exceeded {
                break 'iteration;
            }
            self.set_dirty_exceeded(bdi, true);
            // Linux 2.6.38 estimated no bandwidth; at level 0 the estimate
            // steers nothing and only feeds the charts, so it runs there too.
            self.bdi_update_bandwidth(
                bdi,
                limits.dirty,
                limits.background,
                call.nr_dirty,
                call.bdi_thresh,
                call.bdi_dirty,
                call.start_time,
            );
            if self.patches >= 2 {
                // Shadow values: what the IO-less code would ask for here.
                let inputs = self.position_inputs(bdi, limits, call.nr_dirty, call.bdi_thresh, call.bdi_dirty);
                let pos = pw::bdi_position_ratio(self.patches, &inputs).pos_ratio;
                let b = &mut self.bdis[bdi];
                b.last_pos_ratio = pos;
                b.last_task_ratelimit = b.dirty_ratelimit.wrapping_mul(pos) >> pw::RATELIMIT_CALC_SHIFT;
            }

            if bdi_reclaimable > call.task_bdi_thresh {
                // writeback_inodes_wb(): write back write_chunk pages.
                let mut writer = Writer::new(Submitter::Task(t), call.write_chunk as i64);
                match self.writeback_pass(bdi, &mut writer) {
                    PassEnd::Blocked => {
                        call.writer = Some(writer);
                        call.blocked = true;
                        self.tasks[t as usize].state = TaskState::Throttled(Throttle::IoFull(call));
                        return true;
                    }
                    PassEnd::Done(_) => {
                        call.pages_written += call.write_chunk - writer.nr_pages.max(0) as u64;
                        self.tasks[t as usize].stats.written_fg += call.write_chunk - writer.nr_pages.max(0) as u64;
                    }
                }
                if call.pages_written >= call.write_chunk {
                    break 'iteration;
                }
            }
            call.blocked = true;
            let pause = call.pause;
            self.sleep(t, pause, Throttle::IoFull(call));
            return true;
        }
        self.iofull_finish(t, &call);
        false
    }

    /// A request slot freed up for a task writing in the foreground.
    pub(super) fn foreground_writeback_resume(&mut self, t: u32) {
        let task = &mut self.tasks[t as usize];
        let TaskState::Throttled(Throttle::IoFull(call)) = &mut task.state else {
            return;
        };
        let Some(mut writer) = call.writer.take() else {
            return;
        };
        let mut call = call.clone();
        let bdi = task.bdi as usize;
        match self.writeback_pass(bdi, &mut writer) {
            PassEnd::Blocked => {
                call.writer = Some(writer);
                self.tasks[t as usize].state = TaskState::Throttled(Throttle::IoFull(call));
            }
            PassEnd::Done(_) => {
                let written = call.write_chunk - writer.nr_pages.max(0) as u64;
                call.pages_written += written;
                self.tasks[t as usize].stats.written_fg += written;
                if self.tasks[t as usize].killed {
                    self.finish_throttled(t, call.start_time, true, call.write_chunk, call.pages_written);
                    self.exit(t);
                } else if call.pages_written >= call.write_chunk {
                    self.iofull_finish(t, &call);
                    self.make_runnable(t);
                } else {
                    let pause = call.pause;
                    self.sleep(t, pause, Throttle::IoFull(call));
                }
            }
        }
    }

    /// Continues an IO-full call after its pause. Returns true when the
    /// task sleeps or waits again.
    fn iofull_after_pause(&mut self, t: u32, mut call: IoFullCall) -> bool {
        call.dirty_thresh = hard_dirty_limit(call.dirty_thresh, self.vm.global_dirty_limit);
        // 200 ms is typically more than enough to curb heavy dirtiers
        // (3.1's max-pause area; 2.6.38 sleeps on until under the limit).
        if self.legacy == Legacy::Linux31
            && call.nr_dirty < call.dirty_thresh
            && call.bdi_dirty < call.task_bdi_thresh.wrapping_add(call.bdi_thresh) / 2
            && self.jiffies() > call.start_time + pw::max_pause(self.hz)
        {
            self.iofull_finish(t, &call);
            return false;
        }
        call.pause = (call.pause << 1).min(self.hz / 10);
        self.iofull_loop(t, call)
    }

    /// The end of the IO-full balance_dirty_pages().
    fn iofull_finish(&mut self, t: u32, call: &IoFullCall) {
        let bdi = self.tasks[t as usize].bdi as usize;
        // 3.1 clears the flag only when no task can exceed its limit;
        // 2.6.38 whenever this task's call ends under its own.
        let clear = match self.legacy {
            Legacy::Linux31 => call.clear_dirty_exceeded,
            Legacy::Linux2638 => !call.dirty_exceeded,
        };
        if clear {
            self.set_dirty_exceeded(bdi, false);
        }
        if self.patches >= 6 {
            let task = &mut self.tasks[t as usize];
            task.nr_dirtied = 0;
            task.nr_dirtied_pause = pw::dirty_poll_interval(call.nr_dirty, call.dirty_thresh) as i32;
        }
        self.finish_throttled(t, call.start_time, call.blocked, call.write_chunk, call.pages_written);
        if self.bdis[bdi].flusher.running {
            return;
        }
        if call.nr_reclaimable > call.background_thresh {
            self.bdi_start_background_writeback(bdi);
        }
    }

    /// Statistics and the `task_throttled` event of a call that blocked.
    fn finish_throttled(&mut self, t: u32, start_time: u64, blocked: bool, pages_dirtied: u64, pages_written: u64) {
        if !blocked {
            return;
        }
        let duration = self.jiffies() - start_time;
        let bdi = self.tasks[t as usize].bdi;
        let multi = duration > self.tasks[t as usize].last_pause;
        self.log_pause(t, bdi, duration, true, multi);
        let task = &mut self.tasks[t as usize];
        task.stats.throttled_max = task.stats.throttled_max.max(duration);
        task.stats.throttled_total += duration;
        task.stats.throttled_calls += 1;
        self.stats.throttled.add(duration);
        if let Some(trace) = &mut self.trace {
            trace.push(TraceEvent::TaskThrottled(TaskThrottled {
                jiffies: start_time,
                task: t,
                bdi: task.bdi,
                duration,
                pages_dirtied,
                pages_written,
            }));
        }
    }
}
