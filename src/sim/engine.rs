//! The world and its event loop.
//!
//! Time is kept in nanoseconds so that CPUs can dirty many pages within
//! one jiffy; the kernel code sees `jiffies = floor(ns * HZ / 1e9)`.
//! Events are processed in time order, ties in the order they were
//! scheduled, so a run depends only on its configuration and seed.

use std::collections::VecDeque;

use super::config::{Legacy, NS_PER_SEC, TaskConfig, TaskKind, WorldConfig};
use super::device::{Controller, Device};
use super::flusher::Flusher;
use super::kernel::PAGE_SIZE;
use super::metrics::{PauseRecord, Sample, Stats, TaskStats};
use super::page_writeback::{
    self as pw, DirtyLimits, DirtyTunables, INIT_BW, PositionInputs, bdi_dirty_limit, calc_period_shift,
    global_dirty_limits, hard_dirty_limit,
};
use super::proportions::{PropGlobal, PropLocal};
use super::queue::EventQueue;
use super::rng::SimRng;
use super::task::{Cpu, Task};
use super::trace::TraceEvent;

/// Largest memory and dirty byte settings: keeps every divisor of the
/// control law within the kernel's 32-bit divisions \[bytes\].
pub const MAX_MEMORY_BYTES: u64 = 4 << 40;

/// Largest number of tasks in one world.
pub const MAX_TASKS: usize = 20_000;

/// Things that happen at a point in time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Event {
    /// A task's start time has come.
    TaskStart(u32),
    /// A task finished the pages it was dirtying on its CPU (generation).
    SegmentEnd(u32, u32),
    /// A task's throttling pause is over (generation).
    TaskWake(u32, u32),
    /// A task's stop time has come.
    TaskStop(u32),
    /// The request in service on a bdi's device completed.
    DeviceDone(u32),
    /// A bdi's flusher timer expired. Never queued: each flusher holds its
    /// one pending timer, merged with the queue's head as time advances.
    FlusherWake(u32),
    /// A woken flusher thread runs (bdi).
    FlusherRun(u32),
    /// An NFS COMMIT of an inode completed (bdi, inode).
    CommitDone(u32, u32),
    /// Record a sample of the time series.
    Sample,
}

/// Global memory-management state: the zone counters and thresholds.
#[derive(Clone, Debug)]
pub struct Vm {
    /// The writeback sysctls.
    pub tunables: DirtyTunables,
    /// Total memory \[pages\].
    pub memory_pages: u64,
    /// Memory outside the page cache \[pages\].
    pub reserved_pages: u64,
    /// `global_dirty_limits()` for the current tunables and memory.
    pub limits: DirtyLimits,
    /// `global_dirty_limit`: the slowly following hard limit \[pages\].
    pub global_dirty_limit: u64,
    /// Last update of `global_dirty_limit` \[jiffies\].
    pub limit_update_time: u64,
    /// `ratelimit_pages`: the per-CPU safeguard \[pages\].
    pub ratelimit_pages: u64,
    /// NR_FILE_DIRTY \[pages\].
    pub nr_file_dirty: u64,
    /// NR_WRITEBACK \[pages\].
    pub nr_writeback: u64,
    /// NR_UNSTABLE_NFS \[pages\].
    pub nr_unstable: u64,
    /// Pages the segments running on CPUs dirty by their end: the room
    /// they hold in memory \[pages\].
    pub planned_pages: u64,
    /// `vm_completions`: writeouts counted for the bdi proportions.
    pub completions: PropGlobal,
    /// `vm_dirties`: dirtied pages counted for the task proportions.
    pub dirties: PropGlobal,
    /// A fixed period shift chosen by the user, if any.
    pub period_shift_override: Option<i32>,
}

impl Vm {
    /// `determine_dirtyable_memory()` \[pages\].
    pub fn dirtyable(&self) -> u64 {
        self.memory_pages.saturating_sub(self.reserved_pages) + 1
    }

    /// File dirty + writeback + unstable: the control law's "dirty" \[pages\].
    pub fn nr_dirty(&self) -> u64 {
        self.nr_file_dirty + self.nr_writeback + self.nr_unstable
    }

    /// `hard_dirty_limit(dirty_thresh)` now \[pages\].
    pub fn limit(&self) -> u64 {
        hard_dirty_limit(self.limits.dirty, self.global_dirty_limit)
    }
}

/// One backing device: its page counters, bandwidth estimates, throttle
/// rate, flusher and device.
#[derive(Clone, Debug)]
pub struct Bdi {
    /// Name, e.g. `sda`.
    pub name: String,
    /// The device model behind it.
    pub device: Device,
    /// BDI_RECLAIMABLE: dirty + unstable \[pages\].
    pub reclaimable: u64,
    /// Part of `reclaimable` that is NFS unstable \[pages\].
    pub unstable: u64,
    /// BDI_WRITEBACK \[pages\].
    pub writeback: u64,
    /// BDI_DIRTIED: pages dirtied since boot \[pages\].
    pub dirtied: u64,
    /// BDI_WRITTEN: pages written since boot \[pages\].
    pub written: u64,
    /// `bw_time_stamp` \[jiffies\].
    pub bw_time_stamp: u64,
    /// `dirtied_stamp` \[pages\].
    pub dirtied_stamp: u64,
    /// `written_stamp` \[pages\].
    pub written_stamp: u64,
    /// `write_bandwidth` \[pages/s\].
    pub write_bandwidth: u64,
    /// `avg_write_bandwidth` \[pages/s\].
    pub avg_write_bandwidth: u64,
    /// `dirty_ratelimit`: the base throttle rate \[pages/s\].
    pub dirty_ratelimit: u64,
    /// `balanced_dirty_ratelimit` \[pages/s\].
    pub balanced_dirty_ratelimit: u64,
    /// The last task_ratelimit a throttled task got on this bdi \[pages/s\].
    pub last_task_ratelimit: u64,
    /// The last pos_ratio computed for this bdi, 1.0 = 1024.
    pub last_pos_ratio: u64,
    /// `completions`: this bdi's writeout proportion.
    pub completions: PropLocal,
    /// `dirty_exceeded`.
    pub dirty_exceeded: bool,
    /// The flusher thread.
    pub flusher: Flusher,
    /// Dirty inodes waiting for writeback, oldest first (`b_dirty`).
    pub dirty_inodes: VecDeque<u32>,
    /// Live tasks writing to this bdi.
    pub nr_tasks: u32,
    /// The NFS client and server state, for an NFS mount.
    pub nfs: Option<super::nfs::NfsMount>,
}

/// Where a page-cache page is, as the counters see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum PageState {
    /// Clean, or not in the cache yet: counted nowhere.
    Clean,
    /// Dirty, not yet submitted (NR_FILE_DIRTY).
    Dirty,
    /// Under writeback (NR_WRITEBACK).
    Writeback,
    /// NFS: written to the server, not yet committed (NR_UNSTABLE_NFS).
    Unstable,
}

/// A file being written.
#[derive(Clone, Debug, Default)]
pub struct Inode {
    /// Its bdi.
    pub bdi: u32,
    /// Dirty pages not yet under writeback \[pages\].
    pub dirty: u64,
    /// Pages under writeback \[pages\].
    pub writeback: u64,
    /// NFS: pages written to the server but not committed \[pages\].
    pub unstable: u64,
    /// NFS: unstable pages an in-flight COMMIT covers \[pages\].
    pub committing: u64,
    /// First dirty page: pages before it were submitted \[pages\].
    pub next_write: u64,
    /// When the inode went from clean to dirty \[jiffies\].
    pub dirtied_when: u64,
    /// On the bdi's dirty list or being written by a pass.
    pub queued: bool,
    /// Written at random offsets (mmap random writes): no two dirty pages
    /// are contiguous.
    pub random: bool,
}

/// A running simulation.
pub struct World {
    pub(super) hz: u64,
    pub(super) patches: u8,
    pub(super) legacy: Legacy,
    pub(super) now: u64,
    /// Pending events, by time, ties in the order they were scheduled.
    pub(super) queue: EventQueue<Event>,
    /// The earliest pending flusher timer: when \[ns\], its sequence number
    /// and its bdi.
    pub(super) next_timer: Option<(u64, u64, u32)>,
    /// Events processed so far.
    events: u64,
    pub(super) rng: SimRng,
    pub(super) vm: Vm,
    pub(super) bdis: Vec<Bdi>,
    pub(super) controllers: Vec<Controller>,
    pub(super) inodes: Vec<Inode>,
    pub(super) tasks: Vec<Task>,
    pub(super) cpus: Vec<Cpu>,
    pub(super) idle_cpus: Vec<usize>,
    pub(super) runqueue: VecDeque<u32>,
    pub(super) syscall_ns: u64,
    pub(super) copy_page_ns: u64,
    pub(super) trace: Option<Vec<TraceEvent>>,
    pub(super) stats: Stats,
    sample_ns: u64,
    samples: VecDeque<Sample>,
    sample_retention: usize,
    /// Samples dropped from the front so far.
    samples_dropped: u64,
    pub(super) pause_log: VecDeque<PauseRecord>,
    pause_log_cap: usize,
    /// [`WorldConfig::check_invariants`].
    check_every_event: bool,
    /// When the newest record dropped from the pause log was made \[ns\].
    pause_log_trimmed_ns: Option<u64>,
}

/// A change applied to a running world: what the dashboard's keys, lesson
/// actions and replays do. Every input goes through [`World::apply`].
#[derive(Clone, Debug, PartialEq)]
pub enum Input {
    /// `vm.dirty_ratio` \[%\] (clears `vm.dirty_bytes`).
    DirtyRatio(u64),
    /// `vm.dirty_background_ratio` \[%\] (clears `vm.dirty_background_bytes`).
    DirtyBackgroundRatio(u64),
    /// `vm.dirty_bytes` \[bytes\] (clears the ratio).
    DirtyBytes(u64),
    /// `vm.dirty_background_bytes` \[bytes\] (clears the ratio).
    DirtyBackgroundBytes(u64),
    /// Memory and reserved memory \[pages\].
    Memory {
        /// Total \[pages\].
        memory: u64,
        /// Outside the page cache \[pages\].
        reserved: u64,
    },
    /// Patch level, 0 (legacy) to 11.
    Patches(u8),
    /// The kernel patch level 0 runs (2.6.38 also sets level 0).
    Legacy(Legacy),
    /// Starts a task now.
    AddTask(TaskConfig),
    /// Kills the newest live dd on this bdi.
    RemoveDd(usize),
}

/// Why a configuration cannot be simulated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError(pub String);

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}

/// Checks the limits the engine relies on.
pub fn validate(cfg: &WorldConfig) -> Result<(), ConfigError> {
    let err = |s: String| Err(ConfigError(s));
    let memory_bytes = cfg.memory_pages.saturating_mul(PAGE_SIZE);
    if !(16 << 20..=MAX_MEMORY_BYTES).contains(&memory_bytes) {
        return err(format!("memory must be between 16M and 4T, got {} MiB", memory_bytes >> 20));
    }
    if cfg.reserved_pages >= cfg.memory_pages {
        return err("reserved memory must be smaller than memory".into());
    }
    if !matches!(cfg.hz, 100 | 250 | 300 | 1000) {
        return err(format!("HZ must be 100, 250, 300 or 1000, got {}", cfg.hz));
    }
    if cfg.cpus == 0 || cfg.cpus > 4096 {
        return err(format!("cpus must be between 1 and 4096, got {}", cfg.cpus));
    }
    if cfg.patches > 11 {
        return err(format!("patch level must be between 0 (legacy) and 11, got {}", cfg.patches));
    }
    if cfg.legacy == Legacy::Linux2638 && cfg.patches != 0 {
        return err(format!(
            "Linux 2.6.38 runs none of the series' patches (patch level 0), got level {}",
            cfg.patches
        ));
    }
    let t = &cfg.tunables;
    if t.dirty_ratio > 100 || t.dirty_background_ratio > 100 {
        return err("dirty ratios are percentages: 0 to 100".into());
    }
    if t.dirty_bytes != 0 && t.dirty_bytes < PAGE_SIZE {
        return err(format!("dirty_bytes must be at least {PAGE_SIZE} (one page), got {}", t.dirty_bytes));
    }
    if t.dirty_bytes > MAX_MEMORY_BYTES || t.dirty_background_bytes > MAX_MEMORY_BYTES {
        return err("dirty byte settings must not exceed 4T".into());
    }
    if let Some(shift) = cfg.period_shift
        && !(2..=pw::PROP_MAX_SHIFT).contains(&shift)
    {
        return err(format!("period shift must be between 2 and {}, got {shift}", pw::PROP_MAX_SHIFT));
    }
    if cfg.devices.is_empty() {
        return err("a world needs at least one device".into());
    }
    if cfg.devices.len() > 64 {
        return err(format!("at most 64 devices, got {}", cfg.devices.len()));
    }
    for d in &cfg.devices {
        if !(d.bandwidth.is_finite() && d.bandwidth >= 1024.0 && d.bandwidth <= 1e12) {
            return err(format!("device {}: bandwidth must be between 1 KiB/s and 1 TB/s", d.name));
        }
        if !(d.seek_ns.is_finite() && (0.0..=1e9).contains(&d.seek_ns)) {
            return err(format!("device {}: seek time must be between 0 and 1 s", d.name));
        }
        if d.queue_depth == 0 || (d.nfs.is_none() && d.queue_depth > 100_000) || d.max_request_pages == 0 {
            return err(format!("device {}: queue depth and request size must be positive", d.name));
        }
        if !(d.flush_ns.is_finite() && (0.0..=10e9).contains(&d.flush_ns)) {
            return err(format!("device {}: flush time must be between 0 and 10 s", d.name));
        }
        if !(d.noise.is_finite() && (0.0..0.9).contains(&d.noise)) {
            return err(format!("device {}: noise must be between 0 and 0.9", d.name));
        }
        if !(d.initial_share.is_finite() && d.initial_share >= 0.0) {
            return err(format!("device {}: initial share must be 0 or more", d.name));
        }
        if !(1..=1024).contains(&d.disks) {
            return err(format!("device {}: between 1 and 1024 disks behind a bdi", d.name));
        }
        if d.controller.is_some_and(|c| c >= cfg.controllers.len() || d.nfs.is_some()) {
            return err(format!("device {}: no such controller, or an NFS mount on a disk controller", d.name));
        }
    }
    for c in &cfg.controllers {
        if !(c.contention.is_finite() && (0.0..=10.0).contains(&c.contention)) {
            return err(format!("controller {}: contention must be between 0 and 10 per disk", c.name));
        }
    }
    if cfg.tasks.len() > MAX_TASKS {
        return err(format!("at most {MAX_TASKS} tasks, got {}", cfg.tasks.len()));
    }
    for (i, t) in cfg.tasks.iter().enumerate() {
        if t.bdi >= cfg.devices.len() {
            return err(format!("task {i} writes to bdi {} which does not exist", t.bdi));
        }
        match t.kind {
            TaskKind::Dd { bs, .. } | TaskKind::Pipeline { bs, .. } if !block_size_ok(bs) => {
                return err(format!("task {i}: block size must divide 4k or be a multiple of 4k up to 1G, got {bs}"));
            }
            TaskKind::Pipeline { net_rate, buffer, .. }
                if !(1024.0..=1e12).contains(&net_rate) || buffer < PAGE_SIZE =>
            {
                return err(format!("task {i}: a pipeline needs a rate of at least 1 KiB/s and a buffer of a page"));
            }
            TaskKind::Light { burst, period_ns } if burst == 0 || period_ns < 1_000_000 => {
                return err(format!("task {i}: a light writer needs a burst and a period of at least 1 ms"));
            }
            _ => {}
        }
    }
    Ok(())
}

/// A write size a task may use \[bytes\]: a divisor of the page of at
/// least 512 bytes, or a multiple of the page up to 1 GiB.
pub fn block_size_ok(bs: u64) -> bool {
    (bs >= PAGE_SIZE && bs.is_multiple_of(PAGE_SIZE) && bs <= 1 << 30)
        || ((512..PAGE_SIZE).contains(&bs) && PAGE_SIZE.is_multiple_of(bs))
}

impl World {
    /// Builds a world at time 0.
    pub fn new(cfg: &WorldConfig) -> Result<World, ConfigError> {
        validate(cfg)?;
        let dirtyable = cfg.dirtyable();
        let limits = global_dirty_limits(&cfg.tunables, dirtyable);
        let shift = cfg.period_shift.unwrap_or_else(|| calc_period_shift(&cfg.tunables, dirtyable));
        let mut vm = Vm {
            tunables: cfg.tunables,
            memory_pages: cfg.memory_pages,
            reserved_pages: cfg.reserved_pages,
            limits,
            global_dirty_limit: 0,
            limit_update_time: 0,
            ratelimit_pages: 0,
            nr_file_dirty: 0,
            nr_writeback: 0,
            nr_unstable: 0,
            planned_pages: 0,
            completions: PropGlobal::new(shift),
            dirties: PropGlobal::new(shift),
            period_shift_override: cfg.period_shift,
        };
        let mut bdis: Vec<Bdi> = cfg
            .devices
            .iter()
            .map(|d| Bdi {
                name: d.name.clone(),
                device: Device::new(d.clone()),
                reclaimable: 0,
                unstable: 0,
                writeback: 0,
                dirtied: 0,
                written: 0,
                bw_time_stamp: 0,
                dirtied_stamp: 0,
                written_stamp: 0,
                write_bandwidth: INIT_BW,
                avg_write_bandwidth: INIT_BW,
                dirty_ratelimit: INIT_BW,
                balanced_dirty_ratelimit: INIT_BW,
                last_task_ratelimit: 0,
                last_pos_ratio: 1 << pw::RATELIMIT_CALC_SHIFT,
                completions: PropLocal::default(),
                dirty_exceeded: false,
                flusher: Flusher::default(),
                dirty_inodes: VecDeque::new(),
                nr_tasks: 0,
                nfs: d.nfs.clone().map(|n| super::nfs::NfsMount::new(n, cfg.memory_pages, limits.dirty)),
            })
            .collect();
        let total_share: f64 = cfg.devices.iter().map(|d| d.initial_share).sum();
        let shares: Vec<f64> =
            cfg.devices.iter().map(|d| if total_share > 0.0 { d.initial_share / total_share } else { 0.0 }).collect();
        {
            let mut locals: Vec<&mut PropLocal> = bdis.iter_mut().map(|b| &mut b.completions).collect();
            vm.completions.warm_start(&mut locals, &shares);
            vm.dirties.warm_start(&mut [], &[]);
        }
        let mut world = World {
            hz: cfg.hz,
            patches: cfg.patches,
            legacy: cfg.legacy,
            now: 0,
            queue: EventQueue::default(),
            next_timer: None,
            events: 0,
            rng: SimRng::new(cfg.seed),
            vm,
            bdis,
            controllers: cfg.controllers.iter().cloned().map(Controller::new).collect(),
            inodes: Vec::new(),
            tasks: Vec::new(),
            cpus: vec![Cpu::default(); cfg.cpus],
            idle_cpus: (0..cfg.cpus).rev().collect(),
            runqueue: VecDeque::new(),
            syscall_ns: cfg.syscall_ns,
            copy_page_ns: cfg.copy_page_ns,
            trace: cfg.trace.then(Vec::new),
            stats: Stats::new(cfg.hz),
            sample_ns: cfg.sample_ns,
            samples: VecDeque::new(),
            sample_retention: cfg.sample_retention,
            samples_dropped: 0,
            pause_log: VecDeque::new(),
            pause_log_cap: cfg.pause_log,
            check_every_event: cfg.check_invariants,
            pause_log_trimmed_ns: None,
        };
        world.vm.ratelimit_pages = world.ratelimit_pages();
        for t in &cfg.tasks {
            world.add_task(t.clone());
        }
        if world.sample_ns > 0 {
            // The first sample, as every later one, counts the tasks that
            // start at its instant: it is taken as an event at time 0,
            // after theirs (the row at 0.0 said no task ran).
            world.schedule(0, Event::Sample);
        }
        Ok(world)
    }

    // ---- time -------------------------------------------------------------

    /// Simulated time \[ns\].
    pub fn now_ns(&self) -> u64 {
        self.now
    }

    /// `jiffies` now.
    pub fn jiffies(&self) -> u64 {
        self.jiffies_at(self.now)
    }

    /// HZ of this world.
    pub fn hz(&self) -> u64 {
        self.hz
    }

    /// Patch level.
    pub fn patches(&self) -> u8 {
        self.patches
    }

    /// The kernel patch level 0 runs.
    pub fn legacy(&self) -> Legacy {
        self.legacy
    }

    pub(super) fn jiffies_at(&self, ns: u64) -> u64 {
        ns / NS_PER_SEC * self.hz + ns % NS_PER_SEC * self.hz / NS_PER_SEC
    }

    /// The first instant at which `jiffies` reads `j` \[ns\].
    pub(super) fn ns_at_jiffy(&self, j: u64) -> u64 {
        j / self.hz * NS_PER_SEC + (j % self.hz * NS_PER_SEC).div_ceil(self.hz)
    }

    pub(super) fn schedule(&mut self, at: u64, event: Event) {
        self.queue.push(at, event);
    }

    pub(super) fn schedule_in(&mut self, delay: u64, event: Event) {
        self.schedule(self.now + delay, event);
    }

    // ---- running ------------------------------------------------------------

    /// Processes every event up to and including time `t` \[ns\], then sets
    /// the clock to `t`.
    pub fn step_until(&mut self, t: u64) {
        while self.next_event_ns().is_some_and(|at| at <= t) {
            self.step();
        }
        self.now = self.now.max(t);
    }

    /// Takes the next event: the queue's head or the earliest flusher
    /// timer, whichever was due first (scheduled first, at the same time).
    fn next_event(&mut self) -> Option<(u64, Event)> {
        if let Some((at, seq, bdi)) = self.next_timer
            && self.queue.peek().is_none_or(|head| (at, seq) < head)
        {
            self.flusher_timer_expired(bdi as usize);
            return Some((at, Event::FlusherWake(bdi)));
        }
        self.queue.pop()
    }

    /// Processes the next event, if any. Returns false when nothing is
    /// scheduled.
    pub fn step(&mut self) -> bool {
        let Some((at, event)) = self.next_event() else {
            return false;
        };
        debug_assert!(at >= self.now, "time moves forward");
        self.now = at;
        self.events += 1;
        match event {
            Event::TaskStart(t) => self.task_start(t),
            Event::SegmentEnd(t, generation) => self.segment_end(t, generation),
            Event::TaskWake(t, generation) => self.task_wake(t, generation),
            Event::TaskStop(t) => self.task_stop(t),
            Event::DeviceDone(b) => self.device_done(b as usize),
            Event::FlusherWake(b) => self.flusher_timer(b as usize),
            Event::FlusherRun(b) => self.flusher_scheduled(b as usize),
            Event::CommitDone(b, inode) => self.nfs_commit_done(b as usize, inode),
            Event::Sample => {
                // One sample an instant: it replaces one a change made
                // before it (a key pressed at 0, before the first step).
                self.sample_now();
                self.schedule_in(self.sample_ns, Event::Sample);
                if self.check_every_event {
                    self.check_invariants();
                }
            }
        }
        if cfg!(debug_assertions) || self.check_every_event {
            self.check_counters();
        }
        true
    }

    /// Time of the next scheduled event \[ns\].
    pub fn next_event_ns(&self) -> Option<u64> {
        let queued = self.queue.peek().map(|(at, _)| at);
        match (queued, self.next_timer) {
            (Some(q), Some((t, _, _))) => Some(q.min(t)),
            (q, t) => q.or(t.map(|(at, _, _)| at)),
        }
    }

    /// Events processed so far: every task, device, flusher, NFS and
    /// sample event, including those a later change made moot.
    pub fn events(&self) -> u64 {
        self.events
    }

    // ---- tasks ----------------------------------------------------------------

    /// Adds a task (with its own new file); returns its id.
    pub fn add_task(&mut self, cfg: super::config::TaskConfig) -> u32 {
        let id = self.tasks.len() as u32;
        let inode = self.inodes.len() as u32;
        let random = cfg.kind == TaskKind::RandomMmap;
        self.inodes.push(Inode { bdi: cfg.bdi as u32, random, ..Default::default() });
        let start = cfg.start_ns.max(self.now);
        let stop = cfg.stop_ns;
        let batch = self.bdis[cfg.bdi].device.config.fs.model().dirty_batch_pages;
        self.tasks.push(Task::new(id, &cfg, inode, self.syscall_ns, self.copy_page_ns, batch));
        self.schedule(start, Event::TaskStart(id));
        if let Some(stop) = stop {
            self.schedule(stop.max(start), Event::TaskStop(id));
        }
        id
    }

    // ---- tunables ---------------------------------------------------------------

    /// Applies new writeback sysctls, as the sysctl handlers do: the limits
    /// follow; a change of the dirty ratio or bytes also resets the
    /// proportion period and `ratelimit_pages`.
    pub fn set_tunables(&mut self, tunables: DirtyTunables) {
        let old = self.vm.tunables;
        self.vm.tunables = tunables;
        self.refresh_limits();
        if old.dirty_ratio != tunables.dirty_ratio || old.dirty_bytes != tunables.dirty_bytes {
            self.update_completion_period();
        }
    }

    /// Changes the memory size (as hot-plugging would): thresholds follow,
    /// the proportion period does not. Dirty, writeback and unstable pages
    /// are page cache that only writeback can free: memory shrinks no
    /// further than they and the reserved pages fill.
    pub fn set_memory(&mut self, memory_pages: u64, reserved_pages: u64) {
        let reserved_pages = reserved_pages.min(memory_pages.saturating_sub(1));
        let memory_pages = memory_pages.max(self.vm.nr_dirty() + reserved_pages);
        self.vm.memory_pages = memory_pages;
        self.vm.reserved_pages = reserved_pages;
        self.refresh_limits();
    }

    fn refresh_limits(&mut self) {
        self.vm.limits = global_dirty_limits(&self.vm.tunables, self.vm.dirtyable());
    }

    /// Mirrors `update_completion_period()`: the proportion periods follow
    /// the dirty threshold, and from patch 06 so does `ratelimit_pages`.
    fn update_completion_period(&mut self) {
        let shift =
            self.vm.period_shift_override.unwrap_or_else(|| calc_period_shift(&self.vm.tunables, self.vm.dirtyable()));
        self.vm.completions.change_shift(shift);
        self.vm.dirties.change_shift(shift);
        self.vm.ratelimit_pages = self.ratelimit_pages();
        self.nfs_update_congestion_thresh();
    }

    /// `ratelimit_pages`: patch 06 derives it from the dirty threshold
    /// (`writeback_set_ratelimit()`); Linux 3.1 from total memory, at most 4 MiB.
    fn ratelimit_pages(&self) -> u64 {
        let cpus = self.cpus.len() as u64;
        if self.patches >= 6 {
            pw::writeback_set_ratelimit(self.vm.limits.dirty, cpus)
        } else {
            (self.vm.memory_pages / (cpus * 32)).clamp(16, (4096 * 1024) / PAGE_SIZE)
        }
    }

    /// Changes the patch level: calls in progress finish in the generation
    /// they started in; new calls take the new one.
    pub fn set_patches(&mut self, patches: u8) {
        self.patches = patches.min(11);
        if self.patches > 0 {
            self.legacy = Legacy::Linux31;
        }
        self.vm.ratelimit_pages = self.ratelimit_pages();
    }

    /// Changes the kernel that patch level 0 runs; 2.6.38 also goes to
    /// patch level 0.
    pub fn set_legacy(&mut self, legacy: Legacy) {
        if legacy == Legacy::Linux2638 {
            self.set_patches(0);
        }
        self.legacy = legacy;
    }

    // ---- shared kernel pieces ---------------------------------------------------------

    /// Mirrors `bdi_dirty_limit(bdi, dirty)`.
    pub(super) fn bdi_dirty_limit(&mut self, bdi: usize, dirty: u64) -> u64 {
        let (num, den) = self.vm.completions.fraction(&mut self.bdis[bdi].completions);
        bdi_dirty_limit(dirty, num, den)
    }

    /// The bdi's dirty pages as the control law counts them: reclaimable
    /// plus writeback \[pages\].
    pub(super) fn bdi_dirty(&self, bdi: usize) -> u64 {
        let b = &self.bdis[bdi];
        b.reclaimable + b.writeback
    }

    /// Moves `n` pages of `inode` from state `from` to state `to`: the
    /// inode's, its bdi's and the global counters change together. Pages
    /// that leave Clean count as dirtied (BDI_DIRTIED), pages that leave
    /// Writeback as written (BDI_WRITTEN). [`World::check_invariants`]
    /// checks the counters against each other.
    pub(super) fn move_pages(&mut self, inode: u32, from: PageState, to: PageState, n: u64) {
        let ino = &mut self.inodes[inode as usize];
        let b = &mut self.bdis[ino.bdi as usize];
        let vm = &mut self.vm;
        match from {
            PageState::Clean => b.dirtied += n,
            PageState::Dirty => {
                ino.dirty -= n;
                b.reclaimable -= n;
                vm.nr_file_dirty -= n;
            }
            PageState::Writeback => {
                ino.writeback -= n;
                b.writeback -= n;
                b.written += n;
                vm.nr_writeback -= n;
            }
            PageState::Unstable => {
                ino.unstable -= n;
                b.unstable -= n;
                b.reclaimable -= n;
                vm.nr_unstable -= n;
            }
        }
        match to {
            PageState::Clean => {}
            PageState::Dirty => {
                ino.dirty += n;
                b.reclaimable += n;
                vm.nr_file_dirty += n;
            }
            PageState::Writeback => {
                ino.writeback += n;
                b.writeback += n;
                vm.nr_writeback += n;
            }
            PageState::Unstable => {
                ino.unstable += n;
                b.unstable += n;
                b.reclaimable += n;
                vm.nr_unstable += n;
            }
        }
    }

    /// `account_page_dirtied()` for `pages` new dirty pages of `inode`,
    /// dirtied by task `task` (`task_dirty_inc()`).
    pub(super) fn account_page_dirtied(&mut self, task: u32, inode: u32, pages: u64) {
        if pages == 0 {
            return;
        }
        self.vm.dirties.inc(&mut self.tasks[task as usize].dirties, pages);
        self.move_pages(inode, PageState::Clean, PageState::Dirty, pages);
        let jiffies = self.jiffies();
        let ino = &mut self.inodes[inode as usize];
        let bdi = ino.bdi as usize;
        if !ino.queued {
            ino.queued = true;
            ino.dirtied_when = jiffies;
            let was_clean = self.bdis[bdi].dirty_inodes.is_empty();
            self.bdis[bdi].dirty_inodes.push_back(inode);
            if was_clean {
                self.bdi_wakeup_thread_delayed(bdi);
            }
        }
        let over = self.vm.nr_dirty() as i64 - self.vm.limit() as i64;
        self.stats.note_dirty(self.vm.nr_dirty(), over);
    }

    /// Mirrors `bdi_update_bandwidth()`, a throttled task's call: nothing
    /// until jiffies has passed `bw_time_stamp + BANDWIDTH_INTERVAL`
    /// (`time_is_after_eq_jiffies()`), a jiffy later than the flusher's
    /// own test lets it (`elapsed < BANDWIDTH_INTERVAL`): dirty_ratelimit
    /// is updated 201 ms apart at the least at HZ 1000, 21 jiffies at 100.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn bdi_update_bandwidth(
        &mut self,
        bdi: usize,
        thresh: u64,
        bg_thresh: u64,
        dirty: u64,
        bdi_thresh: u64,
        bdi_dirty: u64,
        start_time: u64,
    ) {
        let due = self.bdis[bdi].bw_time_stamp.wrapping_add(pw::bandwidth_interval(self.hz));
        if (self.jiffies() as i64).wrapping_sub(due as i64) <= 0 {
            return;
        }
        self.update_bandwidth(bdi, thresh, bg_thresh, dirty, bdi_thresh, bdi_dirty, start_time);
    }

    /// Mirrors `wb_update_bandwidth()`, the flusher's call after each pass:
    /// write bandwidth only.
    pub(super) fn wb_update_bandwidth(&mut self, bdi: usize, start_time: u64) {
        self.update_bandwidth(bdi, 0, 0, 0, 0, 0, start_time);
    }

    /// Mirrors `__bdi_update_bandwidth()`. `thresh == 0` is the flusher's
    /// call: write bandwidth only.
    #[allow(clippy::too_many_arguments)]
    fn update_bandwidth(
        &mut self,
        bdi: usize,
        thresh: u64,
        bg_thresh: u64,
        dirty: u64,
        bdi_thresh: u64,
        bdi_dirty: u64,
        start_time: u64,
    ) {
        let now = self.jiffies();
        let b = &self.bdis[bdi];
        let elapsed = now.wrapping_sub(b.bw_time_stamp);
        if elapsed < pw::bandwidth_interval(self.hz) {
            return;
        }
        let dirtied = b.dirtied;
        let written = b.written;
        let quiet = elapsed > self.hz && (b.bw_time_stamp as i64).wrapping_sub(start_time as i64) < 0;
        if !quiet {
            if thresh != 0 {
                self.global_update_bandwidth(thresh, dirty, now);
                if self.patches >= 4 {
                    self.bdi_update_dirty_ratelimit(
                        bdi, thresh, bg_thresh, dirty, bdi_thresh, bdi_dirty, dirtied, elapsed,
                    );
                }
            }
            let b = &mut self.bdis[bdi];
            let (bw, avg) = pw::bdi_update_write_bandwidth(
                self.hz,
                elapsed,
                written.wrapping_sub(b.written_stamp),
                b.write_bandwidth,
                b.avg_write_bandwidth,
            );
            b.write_bandwidth = bw;
            b.avg_write_bandwidth = avg;
        }
        let b = &mut self.bdis[bdi];
        b.dirtied_stamp = dirtied;
        b.written_stamp = written;
        b.bw_time_stamp = now;
    }

    /// Mirrors `global_update_bandwidth()`.
    fn global_update_bandwidth(&mut self, thresh: u64, dirty: u64, now: u64) {
        let interval = pw::bandwidth_interval(self.hz);
        if (now as i64).wrapping_sub(self.vm.limit_update_time.wrapping_add(interval) as i64) < 0 {
            return;
        }
        self.vm.global_dirty_limit = pw::update_dirty_limit(self.vm.global_dirty_limit, thresh, dirty);
        self.vm.limit_update_time = now;
    }

    /// Mirrors `bdi_update_dirty_ratelimit()`, recording a trace event.
    #[allow(clippy::too_many_arguments)]
    fn bdi_update_dirty_ratelimit(
        &mut self,
        bdi: usize,
        thresh: u64,
        bg_thresh: u64,
        dirty: u64,
        bdi_thresh: u64,
        bdi_dirty: u64,
        dirtied: u64,
        elapsed: u64,
    ) {
        let limit = hard_dirty_limit(thresh, self.vm.global_dirty_limit);
        let b = &self.bdis[bdi];
        let inputs = pw::RatelimitInputs {
            position: PositionInputs {
                thresh,
                bg_thresh,
                limit,
                dirty,
                bdi_thresh,
                bdi_dirty,
                write_bw: b.avg_write_bandwidth,
            },
            dirtied: dirtied.wrapping_sub(b.dirtied_stamp),
            elapsed,
            dirty_ratelimit: b.dirty_ratelimit,
            balanced_dirty_ratelimit: b.balanced_dirty_ratelimit,
        };
        let u = pw::bdi_update_dirty_ratelimit(self.patches, self.hz, &inputs);
        let jiffies = self.jiffies();
        if let Some(trace) = &mut self.trace {
            trace.push(TraceEvent::BdiDirtyRatelimit(super::trace::BdiDirtyRatelimit {
                jiffies,
                bdi: bdi as u32,
                thresh,
                bg_thresh,
                limit,
                dirty,
                bdi_thresh,
                bdi_dirty,
                write_bw: inputs.position.write_bw,
                dirtied: inputs.dirtied,
                elapsed,
                dirty_rate: u.dirty_rate,
                pos_ratio: u.pos_ratio,
                task_ratelimit: u.task_ratelimit,
                balanced_dirty_ratelimit: u.balanced_dirty_ratelimit,
                prev_balanced_dirty_ratelimit: inputs.balanced_dirty_ratelimit,
                dirty_ratelimit_before: inputs.dirty_ratelimit,
                dirty_ratelimit: u.dirty_ratelimit,
            }));
        }
        let b = &mut self.bdis[bdi];
        b.dirty_ratelimit = u.dirty_ratelimit;
        b.balanced_dirty_ratelimit = u.balanced_dirty_ratelimit;
    }

    // ---- observation --------------------------------------------------------------------

    /// Drains the trace events recorded since the last call.
    pub fn take_trace(&mut self) -> Vec<TraceEvent> {
        self.trace.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// Hands over in `buf` the trace events recorded since the last call
    /// (what `buf` held is dropped) and keeps `buf`'s memory to record the
    /// next ones: a caller that passes the same buffer every time stops
    /// allocating once both buffers have grown to a batch.
    pub fn swap_trace(&mut self, buf: &mut Vec<TraceEvent>) {
        buf.clear();
        if let Some(events) = &mut self.trace {
            std::mem::swap(events, buf);
        }
    }

    /// The recorded time series (the oldest may have been dropped).
    pub fn samples(&self) -> &VecDeque<Sample> {
        &self.samples
    }

    /// Samples dropped from the front of [`World::samples`] so far.
    pub fn samples_dropped(&self) -> u64 {
        self.samples_dropped
    }

    /// The most recent throttling pauses, oldest first.
    pub fn pause_log(&self) -> &VecDeque<PauseRecord> {
        &self.pause_log
    }

    /// The log holds every pause from this time on \[ns\]; earlier ones may
    /// have been dropped to keep it within its size.
    pub fn pause_log_complete_from(&self) -> u64 {
        self.pause_log_trimmed_ns.map_or(0, |t| t + 1)
    }

    /// Records a sample now, replacing one already taken at this instant:
    /// off the regular interval, so that a change (a new threshold) shows
    /// at once, and on it.
    pub fn sample_now(&mut self) {
        if self.sample_ns == 0 {
            return;
        }
        let replaced = match self.samples.back() {
            Some(s) if s.t_ns == self.now => self.samples.pop_back(),
            _ => None,
        };
        self.record_sample();
        // Which tasks were held is a measure of the interval the replaced
        // sample closed: taken again at the same instant it read the
        // tasks' state of that instant instead, and each `+` or `-` while
        // paused moved chart 4's write_bw/N.
        if let (Some(old), Some(new)) = (replaced, self.samples.back_mut()) {
            for (n, o) in new.bdis.iter_mut().zip(&old.bdis) {
                (n.held, n.unheld_dirty_rate) = (o.held, o.unheld_dirty_rate);
            }
        }
    }

    /// Notes a throttling sleep, or the length of a whole call (`call`),
    /// for display.
    pub(super) fn log_pause(&mut self, task: u32, bdi: u32, pause: u64, call: bool, multi: bool) {
        if self.pause_log_cap == 0 {
            return;
        }
        if self.pause_log.len() == self.pause_log_cap
            && let Some(old) = self.pause_log.pop_front()
        {
            self.pause_log_trimmed_ns = Some(old.t_ns);
        }
        let record = PauseRecord {
            t_ns: self.now,
            task,
            bdi: bdi as u16,
            pause: pause.min(u32::MAX as u64) as u32,
            call,
            multi,
        };
        self.pause_log.push_back(record);
    }

    /// Applies a change to the running world.
    pub fn apply(&mut self, input: Input) {
        match input {
            Input::DirtyRatio(r) => {
                let t = DirtyTunables { dirty_ratio: r.min(100), dirty_bytes: 0, ..self.vm.tunables };
                self.set_tunables(t);
            }
            Input::DirtyBackgroundRatio(r) => {
                let t =
                    DirtyTunables { dirty_background_ratio: r.min(100), dirty_background_bytes: 0, ..self.vm.tunables };
                self.set_tunables(t);
            }
            Input::DirtyBytes(b) => {
                let b = b.clamp(PAGE_SIZE, MAX_MEMORY_BYTES);
                self.set_tunables(DirtyTunables { dirty_bytes: b, dirty_ratio: 0, ..self.vm.tunables });
            }
            Input::DirtyBackgroundBytes(b) => {
                let b = b.min(MAX_MEMORY_BYTES);
                let t = DirtyTunables { dirty_background_bytes: b, dirty_background_ratio: 0, ..self.vm.tunables };
                self.set_tunables(t);
            }
            Input::Memory { memory, reserved } => {
                let min = (16 << 20) / PAGE_SIZE;
                let max = MAX_MEMORY_BYTES / PAGE_SIZE;
                self.set_memory(memory.clamp(min, max), reserved);
            }
            Input::Patches(p) => self.set_patches(p),
            Input::Legacy(l) => self.set_legacy(l),
            Input::AddTask(cfg) => {
                if self.tasks.len() < MAX_TASKS && cfg.bdi < self.bdis.len() {
                    self.add_task(TaskConfig { start_ns: self.now, ..cfg });
                }
            }
            Input::RemoveDd(bdi) => {
                let victim = self.tasks.iter().rev().find(|t| {
                    t.bdi as usize == bdi && t.alive() && matches!(t.kind, TaskKind::Dd { .. }) && !t.is_killed()
                });
                if let Some(t) = victim.map(|t| t.id) {
                    self.task_stop(t);
                }
            }
        }
    }

    /// Run-wide statistics.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// Global VM state.
    pub fn vm(&self) -> &Vm {
        &self.vm
    }

    /// The bdis.
    pub fn bdis(&self) -> &[Bdi] {
        &self.bdis
    }

    /// Per-task statistics, by task id.
    pub fn task_stats(&self) -> impl Iterator<Item = &TaskStats> {
        self.tasks.iter().map(|t| &t.stats)
    }

    /// The tasks.
    pub fn tasks(&self) -> &[Task] {
        &self.tasks
    }

    /// The control law's view of one bdi right now: its threshold and the
    /// position ratio, as balance_dirty_pages() would compute them. Before
    /// patch 02 there is no position ratio; patch 02's is shown.
    pub fn bdi_position(&self, bdi: usize) -> (u64, pw::Position) {
        let inputs = self.position_now(bdi);
        (inputs.bdi_thresh, pw::bdi_position_ratio(self.patches.max(2), &inputs))
    }

    /// What bdi_position_ratio() would read for `bdi` right now.
    fn position_now(&self, bdi: usize) -> PositionInputs {
        let limits = self.vm.limits;
        let (num, den) = self.vm.completions.fraction_peek(&self.bdis[bdi].completions);
        let bdi_thresh = bdi_dirty_limit(limits.dirty, num, den);
        self.position_inputs(bdi, limits, self.vm.nr_dirty(), bdi_thresh, self.bdi_dirty(bdi))
    }

    /// What bdi_position_ratio() reads for `bdi` now, given the thresholds
    /// and dirty counts the caller took: the hard limit and the bdi's
    /// bandwidth are read here.
    pub(super) fn position_inputs(
        &self,
        bdi: usize,
        limits: DirtyLimits,
        dirty: u64,
        bdi_thresh: u64,
        bdi_dirty: u64,
    ) -> PositionInputs {
        PositionInputs {
            thresh: limits.dirty,
            bg_thresh: limits.background,
            limit: self.vm.limit(),
            dirty,
            bdi_thresh,
            bdi_dirty,
            write_bw: self.bdis[bdi].avg_write_bandwidth,
        }
    }

    fn record_sample(&mut self) {
        let dt_ns = self.samples.back().map_or(0, |s| self.now - s.t_ns);
        let mut held = vec![0u32; self.bdis.len()];
        let mut unheld_rate = vec![0.0f64; self.bdis.len()];
        for task in &mut self.tasks {
            let was_held = task.take_interval(dt_ns);
            let bdi = task.bdi as usize;
            if !task.alive() {
                continue;
            }
            if was_held {
                held[bdi] += 1;
            } else {
                unheld_rate[bdi] += task.dirty_rate;
            }
        }
        let per_bdi = (0..self.bdis.len())
            .map(|i| {
                let inputs = self.position_now(i);
                let pos = pw::bdi_position_ratio(self.patches.max(2), &inputs);
                let computed =
                    self.patches >= 2 && inputs.dirty > pw::dirty_freerun_ceiling(inputs.thresh, inputs.bg_thresh);
                let b = &self.bdis[i];
                super::metrics::BdiSample {
                    dirty: b.reclaimable + b.writeback,
                    writeback: b.writeback,
                    unstable: b.unstable,
                    thresh: inputs.bdi_thresh,
                    setpoint: pw::bdi_setpoint(self.patches.max(2), &inputs),
                    write_bw: b.write_bandwidth,
                    avg_write_bw: b.avg_write_bandwidth,
                    dirty_ratelimit: b.dirty_ratelimit,
                    balanced_ratelimit: b.balanced_dirty_ratelimit,
                    task_ratelimit: b.last_task_ratelimit,
                    pos_ratio: computed.then_some(pos.pos_ratio),
                    dirtied: b.dirtied,
                    written: b.written,
                    tasks: b.nr_tasks,
                    held: held[i],
                    unheld_dirty_rate: unheld_rate[i].round() as u64,
                    max_pause: if self.patches >= 8 {
                        pw::bdi_max_pause(
                            self.hz,
                            b.avg_write_bandwidth,
                            b.dirty_ratelimit,
                            b.reclaimable + b.writeback,
                        )
                    } else if self.patches == 7 {
                        pw::max_pause(self.hz)
                    } else {
                        self.hz / 10
                    },
                }
            })
            .collect();
        let l = self.vm.limits;
        let freerun = pw::dirty_freerun_ceiling(l.dirty, l.background);
        let limit = self.vm.limit();
        if self.sample_retention > 0 && self.samples.len() >= self.sample_retention {
            let drop = self.sample_retention / 2;
            self.samples.drain(..drop);
            self.samples_dropped += drop as u64;
        }
        self.samples.push_back(Sample {
            t_ns: self.now,
            dirty: self.vm.nr_dirty(),
            writeback: self.vm.nr_writeback,
            unstable: self.vm.nr_unstable,
            thresh: l.dirty,
            bg_thresh: l.background,
            freerun,
            setpoint: (freerun + limit) / 2,
            limit,
            dirtyable: self.vm.dirtyable(),
            bdis: per_bdi,
        });
    }

    // ---- invariants ---------------------------------------------------------------------

    /// Checks the world's bookkeeping against its parts, inode by inode;
    /// panics with a description when a page went missing or a counter
    /// disagrees with what it sums.
    pub fn check_invariants(&self) {
        self.check_counters();
        let mut dirty = vec![0u64; self.bdis.len()];
        let mut writeback = vec![0u64; self.bdis.len()];
        let mut unstable = vec![0u64; self.bdis.len()];
        for n in &self.inodes {
            dirty[n.bdi as usize] += n.dirty;
            writeback[n.bdi as usize] += n.writeback;
            unstable[n.bdi as usize] += n.unstable;
            assert!(n.committing <= n.unstable, "a COMMIT covers unstable pages only");
        }
        for (i, b) in self.bdis.iter().enumerate() {
            assert_eq!(b.reclaimable - b.unstable, dirty[i], "bdi {} dirty pages vs its inodes", b.name);
            assert_eq!(b.writeback, writeback[i], "bdi {} writeback pages vs its inodes", b.name);
            assert_eq!(b.unstable, unstable[i], "bdi {} unstable pages vs its inodes", b.name);
            assert_eq!(b.writeback, b.device.pages_in_flight(), "bdi {} writeback vs its device queue", b.name);
        }
    }

    /// The checks cheap enough to run after every event in debug builds:
    /// global counters are the sums of the bdis', every bdi conserves its
    /// pages, rates stay positive.
    pub fn check_counters(&self) {
        let (mut dirty, mut wb, mut unstable) = (0, 0, 0);
        for b in &self.bdis {
            assert!(b.unstable <= b.reclaimable, "bdi {}: unstable pages are reclaimable", b.name);
            assert!(b.dirty_ratelimit >= 1, "bdi {}: dirty_ratelimit >= 1", b.name);
            assert_eq!(
                b.dirtied,
                b.written + (b.reclaimable - b.unstable) + b.writeback,
                "bdi {}: every dirtied page is dirty, under writeback, or written (unstable or clean)",
                b.name
            );
            dirty += b.reclaimable - b.unstable;
            wb += b.writeback;
            unstable += b.unstable;
        }
        assert_eq!(self.vm.nr_file_dirty, dirty, "NR_FILE_DIRTY is the sum of the bdis'");
        assert_eq!(self.vm.nr_writeback, wb, "NR_WRITEBACK is the sum of the bdis'");
        assert_eq!(self.vm.nr_unstable, unstable, "NR_UNSTABLE_NFS is the sum of the bdis'");
        let planned: u64 = self
            .cpus
            .iter()
            .filter_map(|c| c.running)
            .filter_map(|t| match self.tasks[t as usize].state {
                super::task::TaskState::Running(seg) => Some(seg.pages),
                _ => None,
            })
            .sum();
        assert_eq!(self.vm.planned_pages, planned, "the room held is that of the running segments");
    }
}

/// Pages in `bytes`, rounded up.
pub fn bytes_to_pages(bytes: u64) -> u64 {
    bytes.div_ceil(PAGE_SIZE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::config::{DeviceConfig, TaskConfig};

    /// The first sample is taken after the tasks starting at 0 started,
    /// one sample an instant: a change made at 0 before the first step
    /// (a key pressed at once) took one, which the scheduled sample
    /// replaces rather than follows (two rows at 0.0, the first with no
    /// task).
    #[test]
    fn one_sample_at_time_0_counts_the_tasks_starting_then() {
        for changed in [false, true] {
            let mut world = World::new(&config(3)).expect("a world");
            if changed {
                world.apply(Input::DirtyRatio(19));
                world.sample_now();
            }
            world.step_until(250_000_000);
            let at_0: Vec<u32> = world.samples().iter().filter(|s| s.t_ns == 0).map(|s| s.bdis[0].tasks).collect();
            assert_eq!(at_0, [3], "changed at 0: {changed}");
            let times: Vec<u64> = world.samples().iter().map(|s| s.t_ns).collect();
            assert_eq!(times, [0, 100_000_000, 200_000_000]);
        }
    }

    pub(crate) fn config(tasks: usize) -> WorldConfig {
        WorldConfig {
            memory_pages: 1 << 20,
            reserved_pages: 1 << 17,
            cpus: 8,
            hz: 1000,
            tunables: DirtyTunables::default(),
            period_shift: None,
            patches: 11,
            legacy: Legacy::Linux31,
            seed: 1,
            devices: vec![DeviceConfig::hdd("sda")],
            controllers: Vec::new(),
            tasks: (0..tasks)
                .map(|_| TaskConfig {
                    bdi: 0,
                    kind: TaskKind::Dd { bs: 4096, total_bytes: None },
                    start_ns: 0,
                    stop_ns: None,
                })
                .collect(),
            syscall_ns: 1000,
            copy_page_ns: 1500,
            sample_ns: 100_000_000,
            trace: true,
            sample_retention: 0,
            pause_log: 0,
            check_invariants: false,
        }
    }

    #[test]
    fn jiffies_and_nanoseconds_round_trip() {
        for hz in [100, 250, 300, 1000] {
            let w = World::new(&WorldConfig { hz, ..config(0) }).expect("valid");
            for j in [0, 1, 2, 299, 300, 301, 12345] {
                let ns = w.ns_at_jiffy(j);
                assert_eq!(w.jiffies_at(ns), j, "hz {hz} j {j}");
                if ns > 0 {
                    assert_eq!(w.jiffies_at(ns - 1), j - 1, "hz {hz} j {j}: first instant");
                }
            }
        }
    }

    /// bdi_update_bandwidth() returns while jiffies is at or before
    /// `bw_time_stamp + BANDWIDTH_INTERVAL`: a task's update of
    /// dirty_ratelimit comes a jiffy past the interval at the soonest (it
    /// came on it, 20 jiffies apart at HZ 100).
    #[test]
    fn dirty_ratelimit_waits_past_the_bandwidth_interval() {
        for hz in [100, 250, 1000] {
            let mut w = World::new(&WorldConfig { hz, ..config(10) }).expect("valid");
            w.step_until(20 * NS_PER_SEC);
            let elapsed: Vec<u64> = w
                .take_trace()
                .iter()
                .filter_map(|e| match e {
                    TraceEvent::BdiDirtyRatelimit(r) => Some(r.elapsed),
                    _ => None,
                })
                .collect();
            let interval = pw::bandwidth_interval(hz);
            assert!(elapsed.len() > 50, "hz {hz}: {} updates", elapsed.len());
            assert!(elapsed.iter().all(|&e| e > interval), "hz {hz}: {elapsed:?}");
            assert!(elapsed.contains(&(interval + 1)), "hz {hz}: {elapsed:?}");
        }
    }

    #[test]
    fn idle_world_is_quiet() {
        let mut w = World::new(&config(0)).expect("valid");
        w.step_until(10 * NS_PER_SEC);
        assert_eq!(w.vm.nr_dirty(), 0);
        assert_eq!(w.samples().len(), 101);
    }

    #[test]
    fn one_dd_dirties_writes_and_conserves_pages() {
        let mut w = World::new(&config(1)).expect("valid");
        w.step_until(5 * NS_PER_SEC);
        w.check_invariants();
        let b = &w.bdis[0];
        assert!(b.written > 0, "the flusher wrote pages");
        assert!(b.dirtied > b.written);
        assert!(w.vm.nr_dirty() <= w.vm.limit());
    }

    #[test]
    fn dirty_pages_never_outnumber_the_dirtyable_ones() {
        // 16 MiB, nothing kept back by a threshold (dirty_ratio 100), and
        // 300 dd on 64 CPUs: every CPU's segment would dirty its pages at
        // once past the memory there is; each may dirty at most what is
        // clean and not promised to the others, one page at least.
        let mut c = config(300);
        (c.memory_pages, c.reserved_pages, c.cpus) = (4096, 256, 64);
        c.tunables.dirty_ratio = 100;
        c.tunables.dirty_background_ratio = 99;
        let mut w = World::new(&c).expect("valid");
        let dirtyable = w.vm.dirtyable();
        let mut most = 0;
        for ms in 1..=3000 {
            w.step_until(ms * 1_000_000);
            w.check_counters();
            most = most.max(w.vm.nr_dirty());
            assert!(w.vm.nr_dirty() + w.vm.planned_pages <= dirtyable + 64, "{ms} ms");
        }
        assert!(most > dirtyable - 64, "memory filled: {most} of {dirtyable} pages");
        assert!(w.tasks.iter().map(|t| t.stats.reclaim_stalls).sum::<u64>() > 0, "tasks waited in reclaim");
    }

    #[test]
    fn rejects_worlds_it_cannot_simulate() {
        assert!(World::new(&WorldConfig { hz: 7, ..config(1) }).is_err());
        assert!(World::new(&WorldConfig { memory_pages: 0, ..config(1) }).is_err());
        assert!(World::new(&WorldConfig { cpus: 0, ..config(1) }).is_err());
        let mut c = config(1);
        c.tasks[0].bdi = 3;
        assert!(World::new(&c).is_err());
        let mut c = config(1);
        c.tasks[0].kind = TaskKind::Dd { bs: 3000, total_bytes: None };
        assert!(World::new(&c).is_err());
        assert!(World::new(&WorldConfig { patches: 5, legacy: Legacy::Linux2638, ..config(1) }).is_err());
    }

    /// The longest throttling call \[jiffies\] of 8 dd at patch level 0.
    fn longest_legacy_call(legacy: Legacy) -> (u64, u64) {
        let mut w = World::new(&WorldConfig { patches: 0, legacy, ..config(8) }).expect("valid");
        w.step_until(20 * NS_PER_SEC);
        w.check_invariants();
        let calls = w.tasks.iter().map(|t| t.stats.throttled_calls).sum();
        (w.tasks.iter().map(|t| t.stats.throttled_max).max().expect("tasks"), calls)
    }

    #[test]
    fn linux_3_1_ends_calls_after_200_ms_and_2_6_38_does_not() {
        // 3.1 sleeps 1 + 2 + ... + 64 + 100 = 227 ms, past MAX_PAUSE, and
        // leaves once dirty is back in the max-pause area (at most one more
        // 100 ms nap here: the talk's 0-300 ms).
        let (max31, n31) = longest_legacy_call(Legacy::Linux31);
        assert!(max31 <= 327 && n31 > 1000, "3.1: {n31} calls, longest {max31} ms");
        // 2.6.38 naps on at 100 ms until the task is under its own limit.
        let (max2638, n2638) = longest_legacy_call(Legacy::Linux2638);
        assert!(max2638 >= 427 && n2638 < n31 / 10, "2.6.38: {n2638} calls, longest {max2638} ms");
    }

    #[test]
    fn an_nfs_commit_counts_as_pages_written() {
        // nfs_commit_unstable_pages() takes the pages its COMMIT covers off
        // wbc->nr_to_write: a 3.1 task whose writeback only sends a COMMIT
        // of 300 pages has done its duty of 12.
        let mut c = WorldConfig { patches: 0, ..config(1) };
        c.devices[0].kind = crate::sim::DeviceKind::Nfs;
        c.devices[0].nfs = Some(crate::sim::config::NfsConfig::plain(false));
        let mut w = World::new(&c).expect("valid");
        let inode = w.tasks[0].inode;
        // 300 pages dirtied, then written by an earlier WRITE: unstable.
        w.move_pages(inode, PageState::Clean, PageState::Dirty, 300);
        w.move_pages(inode, PageState::Dirty, PageState::Writeback, 300);
        w.move_pages(inode, PageState::Writeback, PageState::Unstable, 300);
        w.inodes[inode as usize].queued = true;
        w.bdis[0].dirty_inodes.push_back(inode);
        let submitter = crate::sim::device::Submitter::Task(0);
        let mut writer = crate::sim::flusher::Writer::new(submitter, 12);
        let end = w.writeback_pass(0, &mut writer);
        assert_eq!(w.inodes[inode as usize].committing, 300, "one COMMIT of every unstable page");
        assert_eq!(writer.nr_pages, 12 - 300);
        // 300 pages, and the inode left the dirty list clean.
        assert_eq!(end, crate::sim::flusher::PassEnd::Done(301));
    }

    #[test]
    fn legacy_kernel_follows_the_patch_level() {
        let mut w = World::new(&WorldConfig { patches: 0, legacy: Legacy::Linux2638, ..config(1) }).expect("valid");
        w.set_patches(3);
        assert_eq!((w.patches(), w.legacy()), (3, Legacy::Linux31));
        w.set_legacy(Legacy::Linux2638);
        assert_eq!((w.patches(), w.legacy()), (0, Legacy::Linux2638));
    }
}
