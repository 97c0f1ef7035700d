//! A session: one world, or two side by side (A/B compare), built from one
//! scenario and seed and advanced in lockstep. The dashboard, the lesson
//! runner and `dirtyviz check` all drive worlds through a session, so the
//! same keys or lesson actions give the same numbers everywhere.

use crate::error::{Error, Result};
use crate::pauses::PauseBins;
use crate::scenario::Scenario;
use crate::sim::config::{DeviceKind, Legacy, NS_PER_SEC, WorldConfig};
use crate::sim::metrics::Sample;
use crate::sim::page_writeback::DirtyTunables;
use crate::sim::trace::TraceEvent;
use crate::sim::{Input, World};

/// How much simulated time a session runs between two looks for a
/// Ctrl-C \[ns\].
pub const INTERRUPT_SLICE_NS: u64 = NS_PER_SEC / 10;

/// Recent pauses each world keeps for the lesson checks: about a minute
/// of a thousand dd (24 bytes each).
pub const PAUSE_LOG: usize = 1_000_000;

/// What a session keeps besides its worlds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SessionOptions {
    /// Recent pauses each world keeps \[records\].
    pub pause_log: usize,
    /// Side A records trace events for [`Session::take_trace`], across
    /// rebuilds.
    pub trace: bool,
    /// A lesson step's dd start at the next step of time, not at the
    /// instant it opens: as in recordings of key format 7 and before
    /// ([`crate::app::AppOptions::keys_before_8`]).
    pub step_dd_waits: bool,
}

impl Default for SessionOptions {
    fn default() -> Self {
        SessionOptions { pause_log: PAUSE_LOG, trace: false, step_dd_waits: false }
    }
}

/// What the two sides of an A/B comparison differ in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compare {
    /// Legacy (3.1, IO-full) on the left, the series up to this patch on the right.
    Legacy(u8),
    /// Linux 2.6.38 on the left, the series up to patch N on the right.
    Linux2638(u8),
    /// The series up to patch N-1 on the left, up to N on the right.
    Patch(u8),
    /// The scenario's dirty_ratio on the left, this one on the right.
    DirtyRatio(u64),
    /// The scenario on the left, the session's alternative world on the
    /// right (see [`Session::compare_with`]).
    Alternative,
}

impl Compare {
    /// Parses `legacy` (or `legacy=N`), `2.6.38` (or `2.6.38=N`),
    /// `patches=N` or `dirty-ratio=N`.
    pub fn parse(s: &str) -> Result<Compare, String> {
        let bad = || "expected legacy, 2.6.38, patches=N (1-11) or dirty-ratio=N (0-100)".to_string();
        match s {
            "legacy" => return Ok(Compare::Legacy(11)),
            "2.6.38" => return Ok(Compare::Linux2638(11)),
            _ => {}
        }
        let (k, v) = s.split_once('=').ok_or_else(bad)?;
        // A ratio may say its unit, as --dirty-ratio's may (`30%`).
        let v = if k == "dirty-ratio" { v.strip_suffix('%').unwrap_or(v) } else { v };
        let n: u64 = v.parse().map_err(|_| bad())?;
        match k {
            "legacy" if (1..=11).contains(&n) => Ok(Compare::Legacy(n as u8)),
            "2.6.38" if (1..=11).contains(&n) => Ok(Compare::Linux2638(n as u8)),
            "patches" if (1..=11).contains(&n) => Ok(Compare::Patch(n as u8)),
            "dirty-ratio" if n <= 100 => Ok(Compare::DirtyRatio(n)),
            _ => Err(bad()),
        }
    }
}

impl Compare {
    /// The two sides' labels and worlds this comparison makes of `base`;
    /// `None` for [`Compare::Alternative`], whose right side a session
    /// holds (see [`Session::compare_with`]). Refused when the two would
    /// be one world: a dirty ratio compared with the one `base` has.
    pub fn sides(self, base: &WorldConfig) -> Result<Option<[(String, WorldConfig); 2]>> {
        let t = &base.tunables;
        if let Compare::DirtyRatio(r) = self
            && t.dirty_bytes == 0
            && t.dirty_ratio == r
        {
            return Err(Error::invalid(format!(
                "--compare dirty-ratio={r}: the scenario's dirty_ratio is {r} already, so both sides would be the \
                 same world (compare with another ratio, or change the scenario's with --dirty-ratio)"
            )));
        }
        let base = base.clone();
        Ok(Some(match self {
            c @ (Compare::Legacy(n) | Compare::Linux2638(n)) => {
                let legacy = if matches!(c, Compare::Linux2638(_)) { Legacy::Linux2638 } else { Legacy::Linux31 };
                let ioless = Legacy::Linux31;
                [
                    (level_name(0, legacy), WorldConfig { patches: 0, legacy, ..base.clone() }),
                    (level_name(n, ioless), WorldConfig { patches: n, legacy: ioless, ..base }),
                ]
            }
            Compare::Patch(n) => {
                let legacy = Legacy::Linux31;
                [
                    (level_name(n - 1, legacy), WorldConfig { patches: n - 1, legacy, ..base.clone() }),
                    (level_name(n, legacy), WorldConfig { patches: n, legacy, ..base }),
                ]
            }
            Compare::DirtyRatio(r) => {
                let mut b_cfg = base.clone();
                b_cfg.tunables.dirty_ratio = r;
                b_cfg.tunables.dirty_bytes = 0;
                [(tunables_name(&base.tunables), base), (tunables_name(&b_cfg.tunables), b_cfg)]
            }
            Compare::Alternative => return Ok(None),
        }))
    }
}

impl std::fmt::Display for Compare {
    /// As [`Compare::parse`] reads it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Compare::Legacy(n) => write!(f, "legacy={n}"),
            Compare::Linux2638(n) => write!(f, "2.6.38={n}"),
            Compare::Patch(n) => write!(f, "patches={n}"),
            Compare::DirtyRatio(r) => write!(f, "dirty-ratio={r}"),
            Compare::Alternative => f.write_str("alternative"),
        }
    }
}

/// One world and what it is labelled.
pub struct Side {
    /// Shown above its charts.
    pub label: String,
    /// The simulation.
    pub world: World,
    /// Pages each task had dirtied at the last rate update.
    dirtied_at: Vec<u64>,
    /// Per-task dirty rates over the last second \[pages/s\].
    pub task_rates: Vec<f64>,
    /// What the task table and the parameter panel show of the tasks,
    /// counted when the rates are (so drawing does not scan the tasks).
    pub task_counts: TaskCounts,
    /// The world's pauses, binned by time as they happen.
    pub pauses: PauseBins,
}

/// Counts over a world's tasks, for display.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TaskCounts {
    /// Tasks running now (started, not exited, not asked to exit).
    pub live: usize,
    /// Per bdi, the median `nr_dirtied_pause` of its live tasks \[pages\].
    pub nr_dirtied_pause: Vec<Option<i64>>,
}

impl TaskCounts {
    /// The counts of `w` now.
    pub fn of(w: &World) -> TaskCounts {
        let mut per_bdi: Vec<Vec<f64>> = vec![Vec::new(); w.bdis().len()];
        let mut live = 0;
        for t in w.tasks().iter().filter(|t| t.alive() && !t.is_killed() && t.stats.started_ns.is_some()) {
            live += 1;
            if let Some(v) = per_bdi.get_mut(t.bdi as usize) {
                v.push(t.nr_dirtied_pause as f64);
            }
        }
        let nr_dirtied_pause = per_bdi.into_iter().map(|v| crate::units::median(v).map(|m| m.round() as i64)).collect();
        TaskCounts { live, nr_dirtied_pause }
    }
}

/// Per bdi of `w`, how long the longest throttling call its tasks are
/// still in has lasted so far \[jiffies\]; 0 where none is in one. A call
/// ends in the pause log only when it returns: a task held half a
/// minute is in none until then.
pub fn calls_in_progress(w: &World) -> Vec<u64> {
    use crate::sim::task::{TaskState, Throttle};
    let mut longest = vec![0; w.bdis().len()];
    for t in w.tasks() {
        let start = match &t.state {
            TaskState::Throttled(Throttle::IoLess(c)) => c.start_time,
            TaskState::Throttled(Throttle::IoFull(c)) => c.start_time,
            _ => continue,
        };
        if let Some(l) = longest.get_mut(t.bdi as usize) {
            *l = (*l).max(w.jiffies().saturating_sub(start));
        }
    }
    longest
}

/// One or two worlds in lockstep.
pub struct Session {
    /// The scenario it runs.
    pub scenario: Scenario,
    /// The world configuration built from it.
    pub config: WorldConfig,
    /// One side, or two in compare mode.
    pub sides: Vec<Side>,
    /// The comparison, if any.
    pub compare: Option<Compare>,
    /// Simulated time every side is advanced to \[ns\].
    pub sim_ns: u64,
    /// Sim time of the last per-task rate update \[ns\].
    rates_at: u64,
    /// For [`Compare::Alternative`]: the labels of the two sides and the
    /// right side's world.
    alternative: Option<(String, String, WorldConfig)>,
    /// Trace events of side A not yet taken, of worlds since replaced by
    /// a rebuild or changed in place.
    pending_trace: Vec<TraceBatch>,
    /// Side A's world as traced: which world it is
    /// ([`TraceBatch::world`]) and its trace header line, when traced.
    trace_world: (u64, String),
    /// [`SessionOptions::step_dd_waits`].
    step_dd_waits: bool,
}

/// Trace events of side A, all from one world as one trace header
/// describes it.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceBatch {
    /// The world that made them: a number no other world of the process
    /// has (a restart is another world, even of the same settings).
    pub world: u64,
    /// The trace header line of the world (`{"event":"header",..}`, no
    /// newline) as it was when the events were made: a change in place
    /// (the patch level) gives another.
    pub header: String,
    /// The names of the world's bdis, which the events number.
    pub bdis: Vec<String>,
    /// The events.
    pub events: Vec<TraceEvent>,
}

/// The most memory a dashboard's world gives its chart history \[bytes\].
const HISTORY_BYTES: usize = 128 << 20;

/// The most samples a dashboard's world keeps: 200 000, 5.5 hours at
/// 100 ms.
const MOST_SAMPLES: usize = 200_000;

/// The samples a dashboard's world of `bdis` bdis keeps, dropping the
/// older half when it has that many: [`MOST_SAMPLES`], or fewer where its
/// samples are big, so that its history stays within [`HISTORY_BYTES`]
/// (a world of 64 SSDs kept 1.7 GiB, two of them in compare mode 3.5).
fn sample_retention(bdis: usize) -> usize {
    let mut kept = (HISTORY_BYTES / Sample::bytes(bdis)).min(MOST_SAMPLES);
    while history_bytes(bdis, kept) > HISTORY_BYTES {
        kept -= kept.div_ceil(32);
    }
    kept
}

/// The memory `kept` samples of `bdis` bdis hold \[bytes\]: each
/// sample's bdis are an allocation of their own, with the allocator's
/// 16 bytes beside it, and the queue of samples grows by doubling,
/// holding its old room and its new while it does. Counted as
/// [`Sample::bytes`] alone, ten disks kept 184 MiB a world, not 128.
fn history_bytes(bdis: usize, kept: usize) -> usize {
    use crate::sim::metrics::BdiSample;
    let own = (bdis * std::mem::size_of::<BdiSample>()).next_multiple_of(16) + 16;
    let room = kept.next_power_of_two() * std::mem::size_of::<Sample>();
    kept * own + room + room / 2
}

/// Worlds built so far in the process, for [`TraceBatch::world`].
static WORLDS_BUILT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

impl Session {
    /// A session on `scenario`, comparing if `compare` says so.
    pub fn new(scenario: Scenario, compare: Option<Compare>, opts: SessionOptions) -> Result<Session> {
        let mut config = scenario.to_world()?;
        config.sample_retention = sample_retention(config.devices.len());
        config.pause_log = opts.pause_log;
        config.trace = opts.trace;
        let mut session = Session {
            scenario,
            config,
            sides: Vec::new(),
            compare,
            sim_ns: 0,
            rates_at: 0,
            alternative: None,
            pending_trace: Vec::new(),
            trace_world: (0, String::new()),
            step_dd_waits: opts.step_dd_waits,
        };
        session.build()?;
        Ok(session)
    }

    /// What this session keeps besides its worlds.
    pub fn options(&self) -> SessionOptions {
        SessionOptions { pause_log: self.config.pause_log, trace: self.config.trace, step_dd_waits: self.step_dd_waits }
    }

    /// The trace events of side A since the last call, a batch for each
    /// world they came from (worlds since replaced by a rebuild included)
    /// and each state of it a trace header tells apart, in order.
    pub fn take_trace(&mut self) -> Vec<TraceBatch> {
        self.set_aside_trace();
        std::mem::take(&mut self.pending_trace)
    }

    /// Which side A world is running ([`TraceBatch::world`]) and its
    /// trace header line, when side A is traced.
    pub fn trace_world(&self) -> (u64, &str) {
        (self.trace_world.0, &self.trace_world.1)
    }

    /// Which worlds run: a number of this process that no other build,
    /// of this session or another (a lesson opened again), has had. A
    /// change means every side restarted at time 0.
    pub fn world_id(&self) -> u64 {
        self.trace_world.0
    }

    /// Sets aside side A's trace events so far as made by the world as
    /// [`Session::trace_world`] describes it.
    fn set_aside_trace(&mut self) {
        let Some(side) = self.sides.first_mut() else { return };
        let events = side.world.take_trace();
        if events.is_empty() {
            return;
        }
        let bdis = side.world.bdis().iter().map(|b| b.name.clone()).collect();
        let (world, header) = self.trace_world.clone();
        self.pending_trace.push(TraceBatch { world, header, bdis, events });
    }

    /// Notes side A's world as it now is, for the trace; `new`: another
    /// world.
    fn note_trace_world(&mut self, new: bool) {
        // Numbered also untraced: a session's time series follows it
        // (`Session::world_id`).
        if new {
            self.trace_world.0 = WORLDS_BUILT.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        }
        if !self.config.trace {
            return;
        }
        let header = crate::run::trace::Header::of(self.world(), self.scenario.seed, &self.scenario.name);
        self.trace_world.1 = serde_json::to_string(&header).expect("a header is plain data");
    }

    /// (Re)builds the worlds at time 0 for the current comparison.
    pub fn build(&mut self) -> Result<()> {
        let base = self.config.clone();
        let trace = base.trace;
        let mut sides = Vec::new();
        let mut make = |label: String, mut cfg: WorldConfig| -> Result<()> {
            // Only side A is traced.
            cfg.trace = trace && sides.is_empty();
            let world = World::new(&cfg)?;
            // Chart 5 covers as much of the run as charts 1 to 4.
            let pauses = match cfg.sample_retention {
                0 => PauseBins::new(world.bdis().len()),
                kept => PauseBins::keeping(world.bdis().len(), kept),
            };
            let task_counts = TaskCounts::of(&world);
            sides.push(Side { label, world, dirtied_at: Vec::new(), task_rates: Vec::new(), task_counts, pauses });
            Ok(())
        };
        match self.compare {
            None => make(level_name(base.patches, base.legacy), base)?,
            Some(Compare::Alternative) => {
                let (a, b, b_cfg) =
                    self.alternative.clone().ok_or_else(|| Error::invalid("no alternative world to compare"))?;
                make(a, base)?;
                make(b, b_cfg)?;
            }
            Some(c) => {
                for (label, cfg) in c.sides(&base)?.into_iter().flatten() {
                    make(label, cfg)?;
                }
            }
        }
        self.set_aside_trace();
        self.sides = sides;
        self.sim_ns = 0;
        self.rates_at = 0;
        self.note_trace_world(true);
        Ok(())
    }

    /// Switches the comparison (restarting both worlds at time 0).
    pub fn set_compare(&mut self, compare: Option<Compare>) -> Result<()> {
        let old = self.compare;
        self.compare = compare;
        if let Err(e) = self.build() {
            self.compare = old;
            self.build()?;
            return Err(e);
        }
        Ok(())
    }

    /// The world `scenario` describes, keeping what this session keeps
    /// (samples, pauses, trace).
    fn world_config(&self, scenario: &Scenario) -> Result<WorldConfig> {
        let mut cfg = scenario.to_world()?;
        cfg.sample_retention = sample_retention(cfg.devices.len());
        cfg.pause_log = self.config.pause_log;
        cfg.trace = self.config.trace;
        Ok(cfg)
    }

    /// Compares the scenario (labelled `a`) with `other` (labelled `b`),
    /// both restarting at time 0.
    pub fn compare_with(&mut self, a: &str, b: &str, other: &Scenario) -> Result<()> {
        let cfg = self.world_config(other)?;
        // Changes that are the world's own settings compare a world with
        // itself: the lesson meant something else.
        if cfg == self.config {
            return Err(Error::invalid(format!(
                "CompareWith(a: \"{a}\", b: \"{b}\"): its changes are the world's own settings, so both sides \
                 would be the same world; name what differs on the right"
            )));
        }
        self.alternative = Some((a.to_string(), b.to_string(), cfg));
        self.set_compare(Some(Compare::Alternative))
    }

    /// Replaces the scenario (e.g. with changed settings) and restarts
    /// every side at time 0.
    pub fn reconfigure(&mut self, scenario: Scenario) -> Result<()> {
        let config = self.world_config(&scenario)?;
        let old = (std::mem::replace(&mut self.scenario, scenario), std::mem::replace(&mut self.config, config));
        if let Err(e) = self.build() {
            (self.scenario, self.config) = old;
            self.build()?;
            return Err(e);
        }
        Ok(())
    }

    /// The first world (side A).
    pub fn world(&self) -> &World {
        &self.sides[0].world
    }

    /// Applies the input `f` gives for each side, and samples at once so
    /// that the change shows.
    pub fn apply(&mut self, f: impl Fn(&World) -> Option<Input>) {
        self.apply_sides(|_, w| f(w));
    }

    /// [`Session::apply`] with each side's index (0: A) given to `f`.
    pub fn apply_sides(&mut self, f: impl Fn(usize, &World) -> Option<Input>) {
        // The events so far were made by the world before the change.
        self.set_aside_trace();
        for (i, side) in self.sides.iter_mut().enumerate() {
            if let Some(input) = f(i, &side.world) {
                side.world.apply(input);
                side.world.sample_now();
                side.task_counts = TaskCounts::of(&side.world);
            }
        }
        self.relabel();
        self.note_trace_world(false);
    }

    /// Runs what is due at this instant and not yet run, on every side:
    /// a task just added starts (as it would at the next step of time),
    /// and this instant's sample counts it.
    pub fn start_due(&mut self) {
        for side in &mut self.sides {
            side.world.step_until(side.world.now_ns());
            side.world.sample_now();
            side.task_counts = TaskCounts::of(&side.world);
        }
    }

    fn relabel(&mut self) {
        if matches!(self.compare, Some(Compare::Alternative)) {
            return;
        }
        if matches!(self.compare, Some(Compare::DirtyRatio(_))) {
            for side in &mut self.sides {
                side.label = tunables_name(&side.world.vm().tunables);
            }
        } else {
            for side in &mut self.sides {
                side.label = level_name(side.world.patches(), side.world.legacy());
            }
        }
    }

    /// Advances every side to `t` and refreshes the per-task rates.
    /// Returns true when a new sample was recorded.
    ///
    /// The worlds run in slices of [`INTERRUPT_SLICE_NS`], which process
    /// the same events as one run to `t`: once a Ctrl-C was noted
    /// ([`crate::interrupt`]) they stop short of `t`, and the command that
    /// caught it gives up at its next [`crate::interrupt::check`].
    pub fn advance_to(&mut self, t: u64) -> bool {
        let count = |s: &Session| s.sides[0].world.samples().len() as u64 + s.sides[0].world.samples_dropped();
        let before = count(self);
        // The task rates are over the last second, as when the world runs
        // frame by frame: a run of many seconds in one go takes them a
        // second before its end.
        if t > self.sim_ns.saturating_add(NS_PER_SEC) {
            self.run_sides_to(t - NS_PER_SEC);
        }
        self.run_sides_to(t);
        count(self) != before
    }

    /// Runs every side to `t` (in Ctrl-C slices) and refreshes the task
    /// rates once a second has passed since they were last taken.
    fn run_sides_to(&mut self, t: u64) {
        for side in &mut self.sides {
            while side.world.now_ns().saturating_add(INTERRUPT_SLICE_NS) < t && crate::interrupt::check().is_ok() {
                side.world.step_until(side.world.now_ns() + INTERRUPT_SLICE_NS);
                // Binned as they come: a long stretch run at once (a
                // snapshot at 600 s, max speed) let the pause log drop
                // the oldest before chart 5 saw them.
                side.pauses.take(side.world.pause_log());
            }
            if crate::interrupt::check().is_ok() {
                side.world.step_until(t);
            }
            side.pauses.take(side.world.pause_log());
        }
        self.sim_ns = self.sim_ns.max(t);
        if self.sim_ns >= self.rates_at + NS_PER_SEC {
            let secs = (self.sim_ns - self.rates_at) as f64 / NS_PER_SEC as f64;
            for side in &mut self.sides {
                let tasks = side.world.tasks();
                side.dirtied_at.resize(tasks.len(), 0);
                side.task_rates = tasks
                    .iter()
                    .zip(&side.dirtied_at)
                    .map(|(t, &before)| (t.stats.dirtied - before) as f64 / secs)
                    .collect();
                for (d, task) in side.dirtied_at.iter_mut().zip(tasks) {
                    *d = task.stats.dirtied;
                }
            }
            self.rates_at = self.sim_ns;
        }
        // Counted at every advance, not only with the rates: tasks start
        // and exit between two (a step while paused ended two removed
        // dd), beside the rows drawn from the world.
        for side in &mut self.sides {
            side.task_counts = TaskCounts::of(&side.world);
        }
    }
}

/// Two sides by their labels: `A legacy 3.1 (IO-full) vs B patch 11
/// (IO-less)`, or `short`, as the status line names them, without the
/// notes in brackets; and, where the two run one kernel their labels
/// leave out (two dirty ratios), that kernel, which a key may change.
pub fn sides_name(a: &Side, b: &Side, short: bool) -> (String, Option<String>) {
    let short = |label: &str| if short { label.split(" (").next().unwrap_or(label) } else { label }.to_string();
    let level = |w: &World| level_name(w.patches(), w.legacy());
    let pair = format!("A {} vs B {}", short(&a.label), short(&b.label));
    let one = level(&a.world);
    let kernel = (one == level(&b.world) && a.label != one).then_some(one);
    (pair, kernel)
}

/// How a patch level is called on screen.
pub fn level_name(level: u8, legacy: Legacy) -> String {
    match level {
        0 => format!("legacy {} (IO-full)", legacy.version()),
        1..=6 => format!("patch {level:02} (IO-full)"),
        _ => format!("patch {level:02} (IO-less)"),
    }
}

/// The kernel a patch level runs: "3.1 + v12" for the whole series as
/// posted (written and measured on 3.1; Linux 3.2 merged it with a later
/// fix of the pause, so it is not called 3.2), "3.1 + patches 01-N of v12"
/// in between, "3.1" or "2.6.38" below it.
pub fn kernel_name(level: u8, legacy: Legacy) -> String {
    match level {
        0 => legacy.version().to_string(),
        1 => "3.1 + patch 01 of v12".to_string(),
        2..=10 => format!("3.1 + patches 01-{level:02} of v12"),
        _ => "3.1 + v12".to_string(),
    }
}

/// A device kind as the screen names it.
pub fn device_name(kind: DeviceKind) -> &'static str {
    match kind {
        DeviceKind::Hdd => "HDD",
        DeviceKind::Ssd => "SSD",
        DeviceKind::UsbKey => "USB key",
        DeviceKind::Raid0 => "RAID0",
        DeviceKind::Nfs => "NFS",
    }
}

/// A bdi with its device kind, as the screen names it: `sdb (USB key)`.
pub fn bdi_label(w: &World, bdi: usize) -> String {
    let b = &w.bdis()[bdi.min(w.bdis().len() - 1)];
    format!("{} ({})", b.name, device_name(b.device.config.kind))
}

fn tunables_name(t: &DirtyTunables) -> String {
    if t.dirty_bytes > 0 {
        format!("dirty_bytes {} MiB", t.dirty_bytes >> 20)
    } else {
        format!("dirty_ratio {}", t.dirty_ratio)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_world_of_many_disks_keeps_fewer_samples_within_the_history_budget() {
        assert_eq!(sample_retention(1), MOST_SAMPLES, "5.5 h of one disk");
        for bdis in [1, 2, 10, 64] {
            let kept = sample_retention(bdis);
            assert!(history_bytes(bdis, kept) <= HISTORY_BYTES, "{bdis}: {kept}");
            assert!(kept * Sample::bytes(bdis) <= history_bytes(bdis, kept));
        }
        // At 100 ms: more than 2 h of ten disks, more than 20 min of 64.
        assert!(sample_retention(10) > 72_000 && sample_retention(64) > 12_000);
    }

    #[test]
    fn each_level_names_the_kernel_it_runs() {
        assert_eq!(kernel_name(11, Legacy::Linux31), "3.1 + v12");
        assert_eq!(kernel_name(0, Legacy::Linux31), "3.1");
        assert_eq!(kernel_name(0, Legacy::Linux2638), "2.6.38");
        assert_eq!(kernel_name(1, Legacy::Linux31), "3.1 + patch 01 of v12");
        assert_eq!(kernel_name(7, Legacy::Linux31), "3.1 + patches 01-07 of v12");
    }
}
