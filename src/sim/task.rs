//! Tasks that dirty pages, the CPUs they share, and the throttling path
//! they take: `balance_dirty_pages_ratelimited_nr()` after every page
//! (as generic_perform_write() calls it) and `balance_dirty_pages()`.
//!
//! A CPU runs one task at a time. A running task dirties pages in
//! segments: as many units (pages, or write() calls for sub-page block
//! sizes) as it can until its next throttling call, the end of its time
//! slice or the end of its count, whichever comes first. Its dirty pages
//! are accounted when the segment ends. A task that sleeps in
//! balance_dirty_pages() leaves its CPU; runnable tasks wait in one FIFO
//! run queue for a free CPU.

use super::config::{TaskConfig, TaskKind};
use super::engine::{Event, World};
use super::kernel::PAGE_SIZE;
use super::metrics::TaskStats;
use super::page_writeback::{self as pw, PositionInputs, hard_dirty_limit};
use super::trace::{BalanceDirtyPages, TaskThrottled, TraceEvent};

/// Longest run on a CPU before a waiting task gets its turn [ns].
pub const TIMESLICE_NS: u64 = 3_000_000;

/// Initial `nr_dirtied_pause` of a new task (kernel/fork.c, patch 06).
const INITIAL_NR_DIRTIED_PAUSE: i32 = 128 >> (super::kernel::PAGE_SHIFT - 10);

/// Ratelimit while the bdi's `dirty_exceeded` is set: 32 KiB [pages].
const DIRTY_EXCEEDED_RATELIMIT: i64 = 32 >> (super::kernel::PAGE_SHIFT - 10);

/// One CPU.
#[derive(Clone, Debug, Default)]
pub struct Cpu {
    /// The task running on it.
    pub running: Option<u32>,
    /// `bdp_ratelimits`: units dirtied here since the last forced call.
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
    /// Sleeping in balance_dirty_pages().
    Throttled(BdpCall),
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
    /// When the task got the CPU [ns].
    pub slice_start: u64,
    /// When this segment began [ns].
    pub start: u64,
}

/// The local variables of a balance_dirty_pages() call in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BdpCall {
    /// `start_time` [jiffies].
    pub start_time: u64,
    /// `pages_dirtied` [pages].
    pub pages_dirtied: u64,
    /// `current->nr_dirtied_pause` at entry [pages].
    pub nr_dirtied_pause_before: i32,
    /// `pause` [jiffies].
    pub pause: i64,
    /// `max_pause` [jiffies].
    pub max_pause: i64,
    /// `dirty_ratelimit` [pages/s].
    pub dirty_ratelimit: u64,
    /// `nr_dirty` [pages].
    pub nr_dirty: u64,
    /// `nr_reclaimable` [pages].
    pub nr_reclaimable: u64,
    /// `dirty_thresh` [pages].
    pub dirty_thresh: u64,
    /// `background_thresh` [pages].
    pub background_thresh: u64,
    /// `dirty_exceeded` (the local).
    pub dirty_exceeded: bool,
    /// Loop iterations that got past the freerun check.
    pub iterations: u32,
    /// Time slept so far [jiffies].
    pub slept: u64,
}

/// A task.
#[derive(Clone, Debug)]
pub struct Task {
    /// Its id: index in the world's task list.
    pub id: u32,
    /// The bdi it writes to.
    pub bdi: u32,
    /// The file it writes.
    pub inode: u32,
    /// Where it is.
    pub state: TaskState,
    /// Incremented whenever a pending event of the task is cancelled.
    pub(super) generation: u32,
    /// CPU time per unit [ns].
    unit_ns: u64,
    /// Units per page: 4096 / bs for sub-page writes, else 1.
    units_per_page: u64,
    /// Units written so far.
    unit_pos: u64,
    /// Units left before the task exits; `None` runs until stopped.
    remaining: Option<u64>,
    /// `current->nr_dirtied` [units].
    pub nr_dirtied: i32,
    /// `current->nr_dirtied_pause` [units].
    pub nr_dirtied_pause: i32,
    /// Set when the task was asked to exit at its next chance.
    killed: bool,
    /// The pause of its last sleep [jiffies].
    pub last_pause: u64,
    /// What it did.
    pub stats: TaskStats,
}

impl Task {
    /// A task that has not started yet.
    pub fn new(id: u32, cfg: &TaskConfig, inode: u32, syscall_ns: u64, copy_page_ns: u64) -> Task {
        let TaskKind::Dd { bs, total_bytes } = cfg.kind;
        let (unit_ns, units_per_page, unit_bytes) = if bs >= PAGE_SIZE {
            (copy_page_ns + syscall_ns * PAGE_SIZE / bs, 1, PAGE_SIZE)
        } else {
            (syscall_ns + copy_page_ns * bs / PAGE_SIZE, PAGE_SIZE / bs, bs)
        };
        Task {
            id,
            bdi: cfg.bdi as u32,
            inode,
            state: TaskState::NotStarted,
            generation: 0,
            unit_ns: unit_ns.max(1),
            units_per_page,
            unit_pos: 0,
            remaining: total_bytes.map(|b| b.div_ceil(unit_bytes)),
            nr_dirtied: 0,
            nr_dirtied_pause: INITIAL_NR_DIRTIED_PAUSE,
            killed: false,
            last_pause: 0,
            stats: TaskStats::default(),
        }
    }

    /// True until the task exits.
    pub fn alive(&self) -> bool {
        self.state != TaskState::Exited
    }
}

impl World {
    // ---- scheduling -----------------------------------------------------------

    pub(super) fn task_start(&mut self, t: u32) {
        let task = &mut self.tasks[t as usize];
        if task.state != TaskState::NotStarted {
            return;
        }
        if task.killed {
            task.state = TaskState::Exited;
            return;
        }
        task.stats.started_ns = Some(self.now);
        let bdi = task.bdi as usize;
        self.bdis[bdi].nr_tasks += 1;
        self.make_runnable(t);
    }

    /// Kills a task: it exits the next time it runs (IO-less pauses are
    /// short, so that is soon).
    pub(super) fn task_stop(&mut self, t: u32) {
        let task = &mut self.tasks[t as usize];
        task.killed = true;
        match task.state {
            TaskState::NotStarted => task.state = TaskState::Exited,
            TaskState::Runnable => {
                self.runqueue.retain(|&x| x != t);
                self.exit(t);
            }
            _ => {}
        }
    }

    fn exit(&mut self, t: u32) {
        let task = &mut self.tasks[t as usize];
        if task.state == TaskState::Exited {
            return;
        }
        let cpu = match task.state {
            TaskState::Running(seg) => Some(seg.cpu),
            _ => None,
        };
        task.state = TaskState::Exited;
        task.generation += 1;
        task.stats.ended_ns = Some(self.now);
        let bdi = task.bdi as usize;
        self.bdis[bdi].nr_tasks -= 1;
        if let Some(cpu) = cpu {
            self.release_cpu(cpu);
        }
    }

    fn make_runnable(&mut self, t: u32) {
        let task = &self.tasks[t as usize];
        if task.killed || task.remaining == Some(0) {
            self.exit(t);
            return;
        }
        match self.idle_cpus.pop() {
            Some(cpu) => self.run_on(t, cpu, self.now),
            None => {
                self.tasks[t as usize].state = TaskState::Runnable;
                self.runqueue.push_back(t);
            }
        }
    }

    fn release_cpu(&mut self, cpu: usize) {
        self.cpus[cpu].running = None;
        match self.runqueue.pop_front() {
            Some(next) => self.run_on(next, cpu, self.now),
            None => self.idle_cpus.push(cpu),
        }
    }

    /// Gives `cpu` to task `t` and plans its next segment.
    fn run_on(&mut self, t: u32, cpu: usize, slice_start: u64) {
        self.cpus[cpu].running = Some(t);
        let ratelimit_pages = self.vm.ratelimit_pages as i64;
        let p = self.cpus[cpu].bdp_ratelimits;
        let task = &self.tasks[t as usize];
        // balance_dirty_pages_ratelimited_nr() as of patch 06, one unit per call.
        let mut ratelimit = task.nr_dirtied_pause as i64;
        if self.bdis[task.bdi as usize].dirty_exceeded {
            ratelimit = ratelimit.min(DIRTY_EXCEEDED_RATELIMIT);
        }
        let until_own = (ratelimit - task.nr_dirtied as i64).max(1) as u64;
        let until_cpu = (ratelimit_pages - p).max(1) as u64;
        let until_call = until_own.min(until_cpu);
        let slice_left = (slice_start + TIMESLICE_NS).saturating_sub(self.now) / task.unit_ns;
        let units = until_call.min(slice_left.max(1)).min(task.remaining.unwrap_or(u64::MAX));
        let seg = Segment { cpu, units, calls: units == until_call, slice_start, start: self.now };
        let duration = units * task.unit_ns;
        let generation = task.generation;
        self.tasks[t as usize].state = TaskState::Running(seg);
        self.schedule_in(duration, Event::SegmentEnd(t, generation));
    }

    pub(super) fn segment_end(&mut self, t: u32, generation: u32) {
        let task = &self.tasks[t as usize];
        if task.generation != generation {
            return;
        }
        let TaskState::Running(seg) = task.state else {
            return;
        };
        self.dirty_units(t, seg.cpu, seg.units, seg.calls);
        if seg.calls && !self.tasks[t as usize].killed {
            let pages_dirtied = self.tasks[t as usize].nr_dirtied.max(0) as u64;
            if self.balance_dirty_pages(t, pages_dirtied) {
                // Sleeping: the CPU is free for others.
                self.release_cpu(seg.cpu);
                return;
            }
        }
        let task = &self.tasks[t as usize];
        if task.killed || task.remaining == Some(0) {
            self.exit(t);
            return;
        }
        let slice_over = self.now >= seg.slice_start + TIMESLICE_NS;
        if slice_over && !self.runqueue.is_empty() {
            self.tasks[t as usize].state = TaskState::Runnable;
            self.runqueue.push_back(t);
            self.release_cpu(seg.cpu);
        } else {
            let slice_start = if slice_over { self.now } else { seg.slice_start };
            self.run_on(t, seg.cpu, slice_start);
        }
    }

    /// Accounts `units` written by task `t` on `cpu`: the pages they newly
    /// dirty (one per page boundary crossed), `current->nr_dirtied` and the
    /// CPU's `bdp_ratelimits`, which the call at the last unit (if `calls`)
    /// resets.
    fn dirty_units(&mut self, t: u32, cpu: usize, units: u64, calls: bool) {
        let task = &mut self.tasks[t as usize];
        let upp = task.units_per_page;
        let pages = (task.unit_pos + units).div_ceil(upp) - task.unit_pos.div_ceil(upp);
        task.unit_pos += units;
        if let Some(r) = &mut task.remaining {
            *r -= units;
        }
        task.nr_dirtied = task.nr_dirtied.saturating_add(units as i32);
        task.stats.dirtied += pages;
        let inode = task.inode;
        let p = &mut self.cpus[cpu].bdp_ratelimits;
        *p = if calls { 0 } else { *p + units as i64 };
        self.account_page_dirtied(inode, pages);
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
            self.dirty_units(t, cpu, done, false);
            self.run_on(t, cpu, seg.slice_start);
        }
    }

    pub(super) fn task_wake(&mut self, t: u32, generation: u32) {
        let task = &mut self.tasks[t as usize];
        if task.generation != generation {
            return;
        }
        let TaskState::Throttled(call) = std::mem::replace(&mut task.state, TaskState::Runnable) else {
            return;
        };
        if task.killed {
            self.finish_throttled(t, &call);
            self.exit(t);
            return;
        }
        if !self.bdp_after_pause(t, call) {
            self.make_runnable(t);
        }
    }

    // ---- balance_dirty_pages() ---------------------------------------------------------

    /// Enters balance_dirty_pages() for task `t`. Returns true when the task
    /// went to sleep (a wake event is scheduled), false when the call ended.
    fn balance_dirty_pages(&mut self, t: u32, pages_dirtied: u64) -> bool {
        self.stats.bdp_calls += 1;
        let call = BdpCall {
            start_time: self.jiffies(),
            pages_dirtied,
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

    /// The IO-less loop (patches 07-11). Returns true when the task sleeps.
    fn bdp_loop(&mut self, t: u32, mut call: BdpCall) -> bool {
        let bdi = self.tasks[t as usize].bdi as usize;
        loop {
            call.nr_reclaimable = self.vm.nr_file_dirty + self.vm.nr_unstable;
            call.nr_dirty = call.nr_reclaimable + self.vm.nr_writeback;
            let limits = self.vm.limits;
            call.background_thresh = limits.background;
            call.dirty_thresh = limits.dirty;

            let freerun = pw::dirty_freerun_ceiling(limits.dirty, limits.background);
            if call.nr_dirty <= freerun {
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
            let inputs = PositionInputs {
                thresh: limits.dirty,
                bg_thresh: limits.background,
                limit: self.vm.limit(),
                dirty: call.nr_dirty,
                bdi_thresh,
                bdi_dirty,
                write_bw: b.avg_write_bandwidth,
            };
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
                // The value the call sets if it ends after this iteration:
                // after a pause `dirty_thresh` becomes the hard limit.
                let thresh_after = if decision.breaks { limits.dirty } else { inputs.limit };
                let nr_dirtied_pause = self.nr_dirtied_pause_after(&call, thresh_after);
                let record = BalanceDirtyPages {
                    jiffies: self.jiffies(),
                    task: t,
                    bdi: bdi as u32,
                    thresh: limits.dirty,
                    bg_thresh: limits.background,
                    limit: inputs.limit,
                    freerun,
                    setpoint: pos.setpoint,
                    dirty: call.nr_dirty,
                    bdi_thresh,
                    bdi_dirty,
                    bdi_setpoint: pos.bdi_setpoint,
                    write_bw: inputs.write_bw,
                    dirty_ratelimit: call.dirty_ratelimit,
                    pos_ratio: pos.pos_ratio,
                    task_ratelimit: decision.task_ratelimit,
                    pages_dirtied: call.pages_dirtied,
                    nr_dirtied_pause_before: call.nr_dirtied_pause_before,
                    nr_dirtied_pause,
                    max_pause: call.max_pause,
                    pause: call.pause,
                    iteration: call.iterations,
                };
                if let Some(trace) = &mut self.trace {
                    trace.push(TraceEvent::BalanceDirtyPages(record));
                }
            }
            call.iterations += 1;

            if decision.breaks {
                break;
            }
            if call.pause > 0 {
                let pause = call.pause as u64;
                let wake = self.ns_at_jiffy(self.jiffies() + pause);
                call.slept += pause;
                let task = &mut self.tasks[t as usize];
                task.last_pause = pause;
                task.stats.pauses.add(pause);
                self.stats.pauses.add(pause);
                let generation = task.generation;
                task.state = TaskState::Throttled(call);
                self.schedule(wake, Event::TaskWake(t, generation));
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

    /// The end of balance_dirty_pages().
    fn bdp_finish(&mut self, t: u32, call: &BdpCall) {
        let bdi = self.tasks[t as usize].bdi as usize;
        if !call.dirty_exceeded {
            self.set_dirty_exceeded(bdi, false);
        }
        let nr_dirtied_pause = self.nr_dirtied_pause_after(call, call.dirty_thresh);
        let task = &mut self.tasks[t as usize];
        task.nr_dirtied = 0;
        task.nr_dirtied_pause = nr_dirtied_pause;
        self.finish_throttled(t, call);
        if self.bdis[bdi].flusher.running {
            return;
        }
        if call.nr_reclaimable > call.background_thresh {
            self.bdi_start_background_writeback(bdi);
        }
    }

    /// Statistics and the `task_throttled` event of a call that slept.
    fn finish_throttled(&mut self, t: u32, call: &BdpCall) {
        if call.slept == 0 {
            return;
        }
        let duration = self.jiffies() - call.start_time;
        let task = &mut self.tasks[t as usize];
        task.stats.throttled_max = task.stats.throttled_max.max(duration);
        task.stats.throttled_total += duration;
        if let Some(trace) = &mut self.trace {
            trace.push(TraceEvent::TaskThrottled(TaskThrottled {
                jiffies: call.start_time,
                task: t,
                bdi: task.bdi,
                duration,
                pages_dirtied: call.pages_dirtied,
                pages_written: 0,
            }));
        }
    }
}
