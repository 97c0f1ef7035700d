//! What a headless run did: the numbers of `--summary-json` and the report
//! printed at the end. A number that cannot be measured (a mean over no
//! samples, a rate over no time) is `None`: `null` in JSON, `–` in the
//! report, never NaN or a sentinel.

use serde::Serialize;

use crate::session::kernel_name;
use crate::sim::World;
use crate::sim::metrics::{RunHistogram, Sample};
use crate::sim::task::{TaskState, Throttle};
use crate::units::{SizeUnit, mean, median, mib, seconds};

/// Global part of the summary, MiB.
#[derive(Clone, Debug, Serialize)]
pub struct GlobalSummary {
    /// Dirty threshold at the end \[MiB\].
    pub thresh_mb: f64,
    /// Background threshold at the end \[MiB\].
    pub bg_thresh_mb: f64,
    /// Freerun ceiling at the end \[MiB\].
    pub freerun_mb: f64,
    /// Setpoint at the end; null where the run's kernel has none (below
    /// patch 02) \[MiB\].
    pub setpoint_mb: Option<f64>,
    /// Smoothed global dirty limit at the end; null where the run's kernel
    /// has none (2.6.38) \[MiB\].
    pub limit_mb: Option<f64>,
    /// Mean global dirty pages after `settle_s` \[MiB\].
    pub dirty_mean_mb: Option<f64>,
    /// Largest global dirty count of the run \[MiB\].
    pub dirty_max_mb: f64,
    /// How far dirty ever ran past the limit (thresh where the kernel has
    /// no smoothed limit), right after pages were dirtied (negative: never
    /// reached it); with nothing dirtied, how far below it `dirty_max_mb`
    /// stayed \[MiB\].
    pub over_limit_max_mb: f64,
    /// Samples before this time are left out of the means \[s\].
    pub settle_s: f64,
}

/// One bdi in the summary.
#[derive(Clone, Debug, Serialize)]
pub struct BdiSummary {
    /// bdi name.
    pub name: String,
    /// Device kind.
    pub kind: String,
    /// Tasks that wrote to it.
    pub tasks: u32,
    /// Pages written over the run / duration \[MiB/s\].
    pub written_mbps: f64,
    /// Median write_bandwidth over the last window; null where the run's
    /// kernel has no bandwidth estimate (2.6.38) \[MiB/s\].
    pub write_bw_mbps: Option<f64>,
    /// Median avg_write_bandwidth over the last window (the report's
    /// `avg_write_bw`, which write_bw/N divides); null as write_bw
    /// \[MiB/s\].
    pub avg_write_bw_mbps: Option<f64>,
    /// Median dirty_ratelimit over the last window; null where the run's
    /// kernel has none (below patch 04) \[MiB/s\].
    pub dirty_ratelimit_mbps: Option<f64>,
    /// Median over the last window of the rate dirty_ratelimit converges
    /// to, write_bw/N: (avg_write_bandwidth - what the tasks not held in
    /// balance_dirty_pages() dirty) / N, N the tasks held there at each
    /// sample, or all the bdi's tasks while none is held (see
    /// [`crate::sim::metrics::BdiSample::target`]); `None` if none wrote
    /// in it \[MiB/s\].
    pub target_ratelimit_mbps: Option<f64>,
    /// Median bdi_thresh over the last window, the share the bdi holds
    /// at the end: the printed summary's `bdi_thresh` \[MiB\].
    pub thresh_mb: Option<f64>,
    /// Mean bdi_thresh after settling (`settle_s`) \[MiB\].
    pub thresh_mean_mb: Option<f64>,
    /// Mean bdi dirty pages after settling \[MiB\].
    pub dirty_mean_mb: Option<f64>,
    /// Seeks the device made.
    pub seeks: u64,
    /// Share of the run the disk spent seeking or transferring, as
    /// iostat's %util \[%\]; null for an NFS mount.
    pub busy_pct: Option<f64>,
    /// Seconds from this bdi's first writer starting until its bdi_thresh
    /// first reached 90% of thresh (how fast it earned its share); null if never.
    pub thresh_90_s: Option<f64>,
    /// An NFS mount's WRITE and COMMIT counts, as mountstats shows them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nfs: Option<NfsSummary>,
}

/// What `/proc/self/mountstats` would show for an NFS mount's WRITEs and
/// COMMITs (the figures the seed's NFS mails compare).
#[derive(Clone, Debug, Serialize)]
pub struct NfsSummary {
    /// WRITE RPCs completed.
    pub writes: u64,
    /// Mean size of a WRITE \[MiB\].
    pub write_mb: f64,
    /// Mean time a WRITE waited in the client's queue \[ms\].
    pub write_queue_ms: f64,
    /// Mean time from sending a WRITE to its reply \[ms\].
    pub write_rtt_ms: f64,
    /// COMMITs completed.
    pub commits: u64,
    /// Mean data a COMMIT made stable \[MiB\].
    pub commit_mb: f64,
    /// Mean time from sending a COMMIT to its reply \[ms\].
    pub commit_rtt_ms: f64,
    /// The most data ever under writeback at once \[MiB\].
    pub writeback_max_mb: f64,
    /// `nfs_congestion_kb` at the end of the run \[MiB\].
    pub congestion_mb: f64,
    /// The series' NFS writeback wait queue is on: writers wait while
    /// more than `congestion_mb` is under writeback.
    pub wait_queue: bool,
    /// The series' patch scaling `nfs_congestion_kb` to (dirty_thresh + 1 MiB)/8 is on.
    pub congestion_scaled: bool,
}

impl NfsSummary {
    fn of(mount: &crate::sim::nfs::NfsMount) -> NfsSummary {
        let m = &mount.stats;
        let per = |total: f64, n: u64| if n > 0 { total / n as f64 } else { 0.0 };
        NfsSummary {
            writes: m.writes,
            write_mb: per(mib(m.write_pages), m.writes),
            write_queue_ms: per(m.write_queue_ns as f64 / 1e6, m.writes),
            write_rtt_ms: per(m.write_rtt_ns as f64 / 1e6, m.writes),
            commits: m.commits,
            commit_mb: per(mib(m.commit_pages), m.commits),
            commit_rtt_ms: per(m.commit_rtt_ns as f64 / 1e6, m.commits),
            writeback_max_mb: mib(m.writeback_max),
            congestion_mb: mib(mount.congestion_pages),
            wait_queue: mount.config.wait_queue,
            congestion_scaled: mount.config.congestion_scaled,
        }
    }
}

/// Pause distribution \[ms\]; its percentiles null when `count` is 0 (a
/// percentile of no pauses is not 0 ms).
#[derive(Clone, Debug, Serialize)]
pub struct PauseSummary {
    /// How many.
    pub count: u64,
    /// Median \[ms\].
    pub p50: Option<f64>,
    /// 90th percentile \[ms\].
    pub p90: Option<f64>,
    /// 99th percentile \[ms\].
    pub p99: Option<f64>,
    /// Longest \[ms\].
    pub max: Option<f64>,
}

/// Time in throttling calls that blocked, foreground IO included \[ms\].
#[derive(Clone, Debug, Serialize)]
pub struct ThrottleSummary {
    /// The calls' distribution \[ms\].
    #[serde(flatten)]
    pub calls: PauseSummary,
    /// Pages tasks wrote back themselves (IO-full) \[MiB\].
    pub foreground_written_mb: f64,
    /// Calls still blocked when the run ended (not in the distribution).
    pub in_progress: u64,
    /// How long the oldest of them had lasted by then \[ms\].
    pub in_progress_max_ms: f64,
}

/// One task in the summary.
#[derive(Clone, Debug, Serialize)]
pub struct TaskSummary {
    /// Task id.
    pub id: u32,
    /// `dd`, `pipeline`, `light` or `mmap`.
    pub kind: String,
    /// The bdi it writes to.
    pub bdi: String,
    /// Pages it dirtied \[MiB\].
    pub dirtied_mb: f64,
    /// What it achieved while alive \[MiB/s\]; `None` if it never ran.
    pub rate_mbps: Option<f64>,
    /// Median pause \[ms\]; null where it never paused.
    pub pause_p50_ms: Option<f64>,
    /// Longest pause \[ms\]; null where it never paused.
    pub pause_max_ms: Option<f64>,
    /// Longest time in one throttling call, the one it was still in at
    /// the end included \[ms\].
    pub throttled_max_ms: f64,
}

/// What a run did.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// The scenario's name.
    pub scenario: String,
    /// The seed's test box whose profile the devices were built from
    /// (`machine` in the scenario, or a case's CPUs and memory); `None`:
    /// the devices' own defaults.
    pub machine: Option<String>,
    /// Simulated time \[s\].
    pub duration_s: f64,
    /// Jiffies per second.
    pub hz: u64,
    /// Patches of the series applied (0: legacy).
    pub patches: u8,
    /// The kernel that patch level runs: "3.1 + v12" (the whole series),
    /// "3.1 + patches 01-N of v12", "3.1" or "2.6.38".
    pub kernel: String,
    /// Seed of the random generator.
    pub seed: u64,
    /// Wall time the run took \[s\].
    pub wall_s: f64,
    /// Simulated seconds per wall second; `None` when too fast to time.
    pub real_time_factor: Option<f64>,
    /// Simulation events processed (printed with the speed, not written).
    #[serde(skip)]
    pub events: u64,
    /// What the run's kernel computes (not written: `patches` and
    /// `kernel` say it).
    #[serde(skip)]
    pub has: KernelHas,
    /// Length of the window the medians are taken over \[s\].
    pub window_s: f64,
    /// Global thresholds and dirty pages.
    pub global: GlobalSummary,
    /// Per bdi.
    pub bdis: Vec<BdiSummary>,
    /// Every throttling sleep.
    pub pauses_ms: PauseSummary,
    /// Every throttling call that blocked.
    pub throttled_ms: ThrottleSummary,
    /// Per task.
    pub tasks: Vec<TaskSummary>,
    /// `--max-trace-size` stopped the trace at this simulated time \[s\].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace_stopped_s: Option<f64>,
}

/// Runs at least this long leave out their first [`SETTLE_S`] from the
/// means; shorter ones their first half \[s\].
const LONG_RUN_S: f64 = 20.0;

/// What a long run leaves out of its means, and the window its medians
/// are taken over \[s\].
const SETTLE_S: f64 = 10.0;

/// Sums over the samples of a long run's settled part.
#[derive(Clone, Debug, Default)]
struct Sums {
    /// Samples summed.
    n: usize,
    /// Global dirty pages \[MiB\].
    dirty: f64,
    /// Per bdi: bdi_thresh \[MiB\].
    bdi_thresh: Vec<f64>,
    /// Per bdi: dirty pages \[MiB\].
    bdi_dirty: Vec<f64>,
}

/// What the summary needs of a world's time series, gathered sample by
/// sample as the run makes them, in memory that does not grow with the
/// run: the samples of the first `LONG_RUN_S` (20 s; a shorter run leaves out
/// its first half, known only at its end), running sums from `SETTLE_S` (10 s)
/// on (summed in the order the means over every sample summed them, so
/// the figures are the same to the bit), the last `SETTLE_S` and a bit
/// for the medians, and when each bdi's threshold first reached 90% of
/// the global one.
#[derive(Clone, Debug, Default)]
pub struct Digest {
    /// The samples before [`LONG_RUN_S`].
    early: Vec<Sample>,
    /// Sums over the samples at or after [`SETTLE_S`].
    settled: Sums,
    /// The latest samples, back to [`SETTLE_S`] + 1 s before the newest.
    recent: std::collections::VecDeque<Sample>,
    /// Per bdi: time from its first writer starting until its bdi_thresh
    /// first reached 90% of thresh \[ns\]; `None` while it has not.
    thresh_90: Vec<Option<u64>>,
    /// Spans whose samples the means leave out, each from (not included)
    /// to (included) \[s\].
    pub(crate) left_out: Vec<(f64, f64)>,
}

/// Seconds of a sample's time, as every filter on it compares them.
fn secs(s: &Sample) -> f64 {
    s.t_ns as f64 / 1e9
}

impl Digest {
    /// Takes in the next sample. `first_writer` gives, for a bdi, when the
    /// earliest of its tasks that have started started \[ns\] (a task that
    /// starts later cannot be earlier than this sample); it is asked only
    /// while the bdi's threshold is past 90% and the time not found.
    pub fn add(&mut self, s: &Sample, mut first_writer: impl FnMut(usize) -> Option<u64>) {
        let bdis = s.bdis.len();
        if self.thresh_90.len() != bdis {
            self.thresh_90 = vec![None; bdis];
            self.settled.bdi_thresh = vec![0.0; bdis];
            self.settled.bdi_dirty = vec![0.0; bdis];
        }
        for (i, (found, b)) in self.thresh_90.iter_mut().zip(&s.bdis).enumerate() {
            if found.is_none()
                && b.thresh * 10 >= s.thresh * 9
                && let Some(start) = first_writer(i).filter(|&start| s.t_ns >= start)
            {
                *found = Some(s.t_ns - start);
            }
        }
        if secs(s) < LONG_RUN_S {
            self.early.push(s.clone());
        }
        if secs(s) >= SETTLE_S && self.counted(s) {
            let sums = &mut self.settled;
            sums.n += 1;
            sums.dirty += mib(s.dirty);
            for (i, b) in s.bdis.iter().enumerate() {
                sums.bdi_thresh[i] += mib(b.thresh);
                sums.bdi_dirty[i] += mib(b.dirty);
            }
        }
        let keep_from = s.t_ns.saturating_sub((SETTLE_S as u64 + 1) * 1_000_000_000);
        while self.recent.front().is_some_and(|old| old.t_ns < keep_from) {
            self.recent.pop_front();
        }
        self.recent.push_back(s.clone());
    }

    /// Means over the samples at or after `settle_s`: global dirty pages,
    /// then per bdi its threshold and dirty pages \[MiB\].
    fn settled_means(&self, settle_s: f64, bdis: usize) -> (Option<f64>, Vec<Option<f64>>, Vec<Option<f64>>) {
        if settle_s >= SETTLE_S {
            let sums = &self.settled;
            let of = |sum: f64| (sums.n > 0).then(|| sum / sums.n as f64);
            let per_bdi = |v: &Vec<f64>| (0..bdis).map(|i| of(v.get(i).copied().unwrap_or(0.0))).collect();
            return (of(sums.dirty), per_bdi(&sums.bdi_thresh), per_bdi(&sums.bdi_dirty));
        }
        let settled: Vec<&Sample> = self.early.iter().filter(|s| secs(s) >= settle_s && self.counted(s)).collect();
        (
            mean(settled.iter().map(|s| mib(s.dirty))),
            (0..bdis).map(|i| mean(settled.iter().map(|s| mib(s.bdis[i].thresh)))).collect(),
            (0..bdis).map(|i| mean(settled.iter().map(|s| mib(s.bdis[i].dirty)))).collect(),
        )
    }

    /// An empty digest that leaves out the same spans.
    pub(crate) fn emptied(&self) -> Digest {
        Digest { left_out: self.left_out.clone(), ..Digest::default() }
    }

    /// True when the means take `s`: it lies in no left-out span. A hair
    /// of slack: a sample at 6.1 s is at 6.1 s on a trace's clock too.
    fn counted(&self, s: &Sample) -> bool {
        let t = secs(s);
        !self.left_out.iter().any(|&(from, to)| t > from + 1e-6 && t <= to + 1e-6)
    }

    /// The samples at or after `from_s`, which must be within the last
    /// [`SETTLE_S`] of the run.
    fn window(&self, from_s: f64) -> impl Iterator<Item = &Sample> {
        self.recent.iter().filter(move |s| secs(s) >= from_s)
    }
}

fn pause_summary(h: &RunHistogram, ms: impl Fn(u64) -> f64) -> PauseSummary {
    let some = |v: u64| (h.count() > 0).then(|| ms(v));
    PauseSummary {
        count: h.count(),
        p50: some(h.quantile(0.5)),
        p90: some(h.quantile(0.9)),
        p99: some(h.quantile(0.99)),
        max: some(h.max()),
    }
}

/// Summarises a finished run from the world at its end and the digest
/// of its samples.
pub fn summarise(
    scenario: &crate::scenario::Scenario,
    world: &World,
    digest: &Digest,
    duration_ns: u64,
    wall_s: f64,
) -> Summary {
    let duration_s = duration_ns as f64 / 1e9;
    let settle_s = if duration_s >= LONG_RUN_S { SETTLE_S } else { duration_s / 2.0 };
    let window_s = settle_s;
    let (dirty_mean, thresh_means, dirty_means) = digest.settled_means(settle_s, world.bdis().len());
    let window: Vec<&Sample> = digest.window(duration_s - window_s).collect();
    let stats = world.stats();
    let vm = world.vm();
    let l = vm.limits;
    let freerun = crate::sim::page_writeback::dirty_freerun_ceiling(l.dirty, l.background);
    let limit = vm.limit();
    let has = KernelHas::of(world.patches(), world.legacy());
    let global = GlobalSummary {
        thresh_mb: mib(l.dirty),
        bg_thresh_mb: mib(l.background),
        freerun_mb: mib(freerun),
        setpoint_mb: has.setpoint.then(|| mib((freerun + limit) / 2)),
        limit_mb: has.smoothed_limit.then(|| mib(limit)),
        dirty_mean_mb: dirty_mean,
        dirty_max_mb: mib(stats.max_dirty),
        // With nothing dirtied no sample was taken: dirty stayed at its
        // most (`dirty_max_mb`) that far below the limit.
        over_limit_max_mb: if stats.max_over_limit == i64::MIN {
            mib(stats.max_dirty) - mib(limit)
        } else {
            mib(stats.max_over_limit)
        },
        settle_s,
    };
    let bdis = world
        .bdis()
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let tasks = world.tasks().iter().filter(|t| t.bdi as usize == i).count() as u32;
            let estimate = |f: fn(&crate::sim::metrics::BdiSample) -> u64| {
                median(window.iter().map(|s| mib(f(&s.bdis[i]))).collect()).filter(|_| has.bandwidth)
            };
            BdiSummary {
                name: b.name.clone(),
                kind: b.device.config.kind.name().to_string(),
                tasks,
                written_mbps: mib(b.written) / duration_s,
                write_bw_mbps: estimate(|b| b.write_bw),
                avg_write_bw_mbps: estimate(|b| b.avg_write_bw),
                dirty_ratelimit_mbps: median(window.iter().map(|s| mib(s.bdis[i].dirty_ratelimit)).collect())
                    .filter(|_| has.dirty_ratelimit),
                target_ratelimit_mbps: median(window.iter().filter_map(|s| s.bdis[i].target()).map(mib).collect())
                    .filter(|_| has.bandwidth),
                thresh_mb: median(window.iter().map(|s| mib(s.bdis[i].thresh)).collect()),
                thresh_mean_mb: thresh_means[i],
                dirty_mean_mb: dirty_means[i],
                seeks: b.device.seeks,
                busy_pct: (b.nfs.is_none() && world.now_ns() > 0)
                    .then(|| 100.0 * b.device.busy_ns_at(world.now_ns()) as f64 / world.now_ns() as f64),
                thresh_90_s: digest.thresh_90.get(i).copied().flatten().map(|ns| ns as f64 / 1e9),
                nfs: b.nfs.as_ref().map(NfsSummary::of),
            }
        })
        .collect();
    let ms = |j: u64| stats.ms(j);
    // Jiffies each task had spent in the throttling call it was still in.
    let in_call = |t: &crate::sim::task::Task| match &t.state {
        TaskState::Throttled(Throttle::IoLess(c)) => Some(world.jiffies().saturating_sub(c.start_time)),
        TaskState::Throttled(Throttle::IoFull(c)) => Some(world.jiffies().saturating_sub(c.start_time)),
        _ => None,
    };
    let in_progress: Vec<u64> = world.tasks().iter().filter_map(in_call).collect();
    let tasks = world
        .tasks()
        .iter()
        .map(|t| {
            let st = &t.stats;
            let alive_ns = st.started_ns.map_or(0, |s| st.ended_ns.unwrap_or(duration_ns).saturating_sub(s));
            TaskSummary {
                id: t.id,
                kind: t.kind.name().into(),
                bdi: world.bdis()[t.bdi as usize].name.clone(),
                dirtied_mb: mib(st.dirtied),
                rate_mbps: (alive_ns > 0).then(|| mib(st.dirtied) / (alive_ns as f64 / 1e9)),
                pause_p50_ms: (st.pauses.count() > 0).then(|| ms(st.pauses.quantile(0.5))),
                pause_max_ms: (st.pauses.count() > 0).then(|| ms(st.pauses.max())),
                throttled_max_ms: ms(st.throttled_max.max(in_call(t).unwrap_or(0))),
            }
        })
        .collect();
    Summary {
        scenario: scenario.name.clone(),
        machine: scenario.machine.clone(),
        duration_s,
        hz: world.hz(),
        patches: world.patches(),
        kernel: kernel_name(world.patches(), world.legacy()),
        seed: scenario.seed,
        wall_s,
        real_time_factor: (wall_s > 0.0).then(|| duration_s / wall_s),
        events: world.events(),
        has,
        window_s,
        global,
        bdis,
        pauses_ms: pause_summary(&stats.pauses, ms),
        throttled_ms: ThrottleSummary {
            calls: pause_summary(&stats.throttled, ms),
            foreground_written_mb: mib(world.tasks().iter().map(|t| t.stats.written_fg).sum::<u64>()),
            in_progress: in_progress.len() as u64,
            in_progress_max_ms: ms(in_progress.iter().copied().max().unwrap_or(0)),
        },
        tasks,
        trace_stopped_s: None,
    }
}

/// How a text table or summary writes a value it has not got: an en dash,
/// one column wide (three bytes, so pad it with `format!` widths, which count
/// chars, never with byte lengths).
pub(crate) const NOT_KNOWN: &str = "–";

/// A value with `prec` decimals, or [`NOT_KNOWN`] when it cannot be measured.
pub(crate) fn num(v: Option<f64>, prec: usize) -> String {
    match v {
        // A value too small for `prec` decimals keeps two figures: a rate of
        // 0.00043 MiB/s is not 0.000.
        Some(x) if x != 0.0 && x.abs() < 0.5 * 10f64.powi(-(prec as i32)) => crate::units::significant(x, 2),
        Some(x) if x.is_finite() => format!("{x:.prec$}"),
        _ => NOT_KNOWN.to_string(),
    }
}

/// What a report says of a trace `--max-trace-size` stopped `at` \[s\]
/// (`run`'s, a comparison's each side and `replay`'s).
pub fn trace_stopped(at: f64) -> String {
    format!("stopped at {at:.1} s by --max-trace-size")
}

/// How many times faster than real time: whole above 10, else to two
/// significant digits (a run at half speed is `0.50`, not `0`), or `–`.
pub(crate) fn factor(v: Option<f64>) -> String {
    match v {
        Some(x) if x > 0.0 && x.is_finite() => crate::units::significant(x, 2),
        other => num(other, 0),
    }
}

/// A signed value with `prec` decimals, or [`NOT_KNOWN`].
pub(crate) fn signed(v: Option<f64>, prec: usize) -> String {
    match v {
        Some(x) if x.is_finite() => format!("{x:+.prec$}"),
        _ => NOT_KNOWN.to_string(),
    }
}

/// A size \[MiB\] as the report writes it in `unit`
/// ([`SizeUnit::reported`]); `sign` writes a + before a positive one.
/// `–` when not known.
fn size_in(v: Option<f64>, unit: SizeUnit, sign: bool) -> String {
    match v {
        Some(x) if x.is_finite() && !(sign && unit == SizeUnit::MIB) => {
            let n = unit.reported(x);
            if sign && x >= 0.0 { format!("+{n}") } else { n }
        }
        _ if sign => signed(v, 1),
        _ => num(v, 1),
    }
}

/// A size \[MiB\] in the unit it reads in ([`SizeUnit::of`]), with it:
/// `4880.9 MiB`, `-733 GiB`.
fn size_with_unit(v: Option<f64>, sign: bool) -> String {
    let unit = SizeUnit::of(v.filter(|x| x.is_finite()).unwrap_or(0.0));
    format!("{} {}", size_in(v, unit, sign), unit.name())
}

/// The patch that brings the setpoint (dirty position control).
const POSITION_CONTROL_PATCH: u8 = 2;

/// The patch that brings dirty_ratelimit (dirty rate control).
const RATE_CONTROL_PATCH: u8 = 4;

/// Which of the quantities the series (or Linux 3.1) brought a run's
/// kernel computes: the report writes `–`, the JSON null and the CSV an
/// empty cell for those it does not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KernelHas {
    /// The global and bdi setpoints and pos_ratio (patch 02).
    pub setpoint: bool,
    /// dirty_ratelimit, its balanced estimate and task_ratelimit (patch 04).
    pub dirty_ratelimit: bool,
    /// The smoothed global dirty limit, global_dirty_limit (Linux 3.1;
    /// 2.6.38 has only thresh).
    pub smoothed_limit: bool,
    /// The bdi's write bandwidth estimate, write_bw and avg_write_bw
    /// (Linux 3.1, as the smoothed limit).
    pub bandwidth: bool,
}

impl KernelHas {
    /// What the kernel of patch level `patches` over `legacy` computes.
    pub fn of(patches: u8, legacy: crate::sim::config::Legacy) -> KernelHas {
        KernelHas {
            setpoint: patches >= POSITION_CONTROL_PATCH,
            dirty_ratelimit: patches >= RATE_CONTROL_PATCH,
            smoothed_limit: legacy.has_31(patches),
            bandwidth: legacy.has_31(patches),
        }
    }

    /// What the kernel lacks, in the order the kernel gained them, each
    /// with what brought it: (`setpoint`, `patch 02`).
    pub fn lacking(self) -> Vec<(&'static str, &'static str)> {
        [
            (self.setpoint, "setpoint", "patch 02"),
            (self.smoothed_limit, "smoothed limit", "Linux 3.1"),
            (self.bandwidth, "bandwidth estimate", "Linux 3.1"),
            (self.dirty_ratelimit, "dirty_ratelimit", "patch 04"),
        ]
        .into_iter()
        .filter_map(|(has, what, from)| (!has).then_some((what, from)))
        .collect()
    }
}

impl Summary {
    /// The patch level as `--patches` takes it: `legacy` and `2.6.38`
    /// are both level 0, told apart by their kernel.
    fn patches_arg(&self) -> String {
        match (self.patches, self.kernel.as_str()) {
            (0, "2.6.38") => "2.6.38".into(),
            (0, _) => "legacy".into(),
            (n, _) => n.to_string(),
        }
    }

    /// The human-readable report printed at the end of a run. Names are
    /// printed with control characters escaped.
    pub fn report(&self) -> String {
        use std::fmt::Write as _;
        let shown = |s: &str| crate::error::printable(s).into_owned();
        let mut s = String::new();
        let g = &self.global;
        let _ = writeln!(
            s,
            "scenario {}{}  patches {} (Linux {})  seed {}  HZ {}  {} s simulated",
            shown(&self.scenario),
            self.machine.as_ref().map_or(String::new(), |m| format!("  machine {}", shown(m))),
            self.patches_arg(),
            self.kernel,
            self.seed,
            self.hz,
            seconds(self.duration_s)
        );
        // The thresholds side by side in one unit, that of the largest,
        // written once after them (as `view` writes them).
        let unit = SizeUnit::of_largest([g.bg_thresh_mb, g.freerun_mb, g.limit_mb.unwrap_or(0.0), g.thresh_mb]);
        let _ = writeln!(
            s,
            "thresholds  bg {}  freerun {}  setpoint {}  limit {}  thresh {} {}",
            size_in(Some(g.bg_thresh_mb), unit, false),
            size_in(Some(g.freerun_mb), unit, false),
            size_in(g.setpoint_mb, unit, false),
            size_in(g.limit_mb, unit, false),
            size_in(Some(g.thresh_mb), unit, false),
            unit.name()
        );
        let err = g.setpoint_mb.filter(|&sp| sp > 0.0).zip(g.dirty_mean_mb).map(|(sp, m)| 100.0 * (m - sp) / sp);
        let _ = writeln!(
            s,
            "dirty       mean {} after {} s ({}% of setpoint)  max {} ({} vs {})",
            size_with_unit(g.dirty_mean_mb, false),
            seconds(g.settle_s),
            signed(err, 1),
            size_with_unit(Some(g.dirty_max_mb), false),
            size_with_unit(Some(g.over_limit_max_mb), true),
            if g.limit_mb.is_some() { "limit" } else { "thresh" }
        );
        if !self.has.dirty_ratelimit {
            let lacks: Vec<String> =
                self.has.lacking().iter().map(|(what, from)| format!("no {what} ({from})")).collect();
            let (last, rest) = lacks.split_last().expect("dirty_ratelimit is lacking");
            let list = if rest.is_empty() { last.to_string() } else { format!("{} and {last}", rest.join(", ")) };
            let _ = writeln!(s, "note        Linux {} has {list}: –", self.kernel);
        }
        for b in &self.bdis {
            let rate = b.dirty_ratelimit_mbps;
            let ratio = rate.zip(b.target_ratelimit_mbps.filter(|&t| t > 0.0)).map(|(r, t)| r / t);
            let _ = writeln!(
                s,
                "bdi {:<6} {:<5} {:>10}  written {:.1} MiB/s (whole run)  avg_write_bw {}  dirty_ratelimit {} vs write_bw/N {} MiB/s ({})  bdi_thresh {} (medians of last {} s){}",
                shown(&b.name),
                b.kind,
                crate::units::count(u64::from(b.tasks), "task"),
                b.written_mbps,
                num(b.avg_write_bw_mbps, 1),
                num(rate, 3),
                num(b.target_ratelimit_mbps, 3),
                ratio.map_or(NOT_KNOWN.to_string(), |r| format!("{r:.2}x")),
                size_with_unit(b.thresh_mb, false),
                seconds(self.window_s),
                b.busy_pct.map_or_else(String::new, |u| format!("  busy {u:.0}%"))
            );
        }
        for b in &self.bdis {
            if let Some(n) = &b.nfs {
                let _ = writeln!(
                    s,
                    "bdi {:<6} WRITE {} × {:.2} MiB, queue {:.0} ms, rtt {:.0} ms;  COMMIT {} × {:.1} MiB, rtt {:.0} ms",
                    shown(&b.name),
                    n.writes,
                    n.write_mb,
                    n.write_queue_ms,
                    n.write_rtt_ms,
                    n.commits,
                    n.commit_mb,
                    n.commit_rtt_ms
                );
                // The NFS patches on, and the limit they hold writeback to.
                let scaled = if n.congestion_scaled { ", scaled to (dirty_thresh + 1 MiB)/8" } else { "" };
                let limit = format!("nfs_congestion_kb {:.1} MiB{scaled}", n.congestion_mb);
                let on =
                    if n.wait_queue { format!("wait queue above {limit}") } else { format!("no wait queue; {limit}") };
                let _ = writeln!(s, "bdi {:<6} NFS {on}", shown(&b.name));
            }
        }
        for b in &self.bdis {
            if let Some(t) = b.thresh_90_s
                && self.bdis.len() > 1
            {
                let _ = writeln!(
                    s,
                    "bdi {:<6} bdi_thresh reached 90% of thresh {t:.1} s after its first writer started",
                    shown(&b.name)
                );
            }
        }
        let p = &self.pauses_ms;
        if p.count == 0 {
            let _ = writeln!(s, "pauses      no task slept");
        } else {
            let _ = writeln!(
                s,
                "pauses      {}  p50 {}  p90 {}  p99 {}  max {} ms",
                crate::units::count(p.count, "sleep"),
                num(p.p50, 0),
                num(p.p90, 0),
                num(p.p99, 0),
                num(p.max, 0)
            );
        }
        let t = &self.throttled_ms;
        let calls = if t.calls.count == 0 && t.in_progress > 0 {
            // Blocked, but in a call that had not returned by the end.
            "no call returned".to_string()
        } else if t.calls.count == 0 {
            "no call blocked".to_string()
        } else {
            format!(
                "{} blocked  p50 {}  p90 {}  p99 {}  max {} ms",
                crate::units::count(t.calls.count, "call"),
                num(t.calls.p50, 0),
                num(t.calls.p90, 0),
                num(t.calls.p99, 0),
                num(t.calls.max, 0)
            )
        };
        let _ = writeln!(
            s,
            "throttled   {calls}  (foreground writeback {:.1} MiB){}",
            t.foreground_written_mb,
            if t.in_progress_max_ms > t.calls.max.unwrap_or(0.0) {
                format!("; {} still blocked at the end, one for {:.0} ms", t.in_progress, t.in_progress_max_ms)
            } else {
                String::new()
            }
        );
        let mut kinds: Vec<&str> = self.tasks.iter().map(|t| t.kind.as_str()).collect();
        kinds.sort_unstable();
        kinds.dedup();
        for kind in kinds {
            let of_kind = || self.tasks.iter().filter(|t| t.kind == kind);
            let rates: Vec<f64> = of_kind().filter_map(|t| t.rate_mbps).collect();
            let min = rates.iter().copied().reduce(f64::min);
            let max = rates.iter().copied().reduce(f64::max);
            let spread = min.zip(max).filter(|&(lo, _)| lo > 0.0).map(|(lo, hi)| hi / lo);
            let throttled = of_kind().map(|t| t.throttled_max_ms).fold(0.0, f64::max);
            // Tasks that start later than the run lasts have no rate.
            let waiting = of_kind().count() - rates.len();
            let waiting = if waiting > 0 { format!(" ({waiting} not started)") } else { String::new() };
            let _ = writeln!(
                s,
                "tasks       {} {kind}{waiting}  dirty rate (whole run) min {}  max {} MiB/s (max/min {})  longest throttled {:.0} ms",
                of_kind().count(),
                num(min, 3),
                num(max, 3),
                num(spread, 2),
                throttled
            );
        }
        if let Some(at) = self.trace_stopped_s {
            let _ = writeln!(s, "trace       {}", trace_stopped(at));
        }
        let _ = writeln!(
            s,
            "speed       simulated {} s in {} s ({}× real time), {} events, {:.0} ns/event",
            seconds(self.duration_s),
            wall(self.wall_s),
            factor(self.real_time_factor),
            self.events,
            self.wall_s * 1e9 / self.events.max(1) as f64
        );
        s
    }
}

/// A run's wall-clock time in seconds: to the millisecond, and to three
/// figures under a second (a 5 s run read `in 0.000 s (10877× real time)`).
pub(crate) fn wall(s: f64) -> String {
    if s >= 1.0 { format!("{s:.3}") } else { crate::units::significant(s, 3) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wall_time_keeps_three_figures_under_a_second() {
        assert_eq!(wall(0.000375), "0.000375");
        assert_eq!(wall(0.281), "0.281");
        assert_eq!(wall(12.3456), "12.346");
    }

    #[test]
    fn what_cannot_be_measured_is_a_dash() {
        assert_eq!(num(None, 1), "–");
        assert_eq!(num(Some(f64::NAN), 1), "–");
        assert_eq!(num(Some(2.25), 1), "2.2");
        assert_eq!(signed(Some(3.0), 1), "+3.0");
        assert_eq!(signed(None, 1), "–");
        assert_eq!(factor(Some(2823.85)), "2824");
        assert_eq!(factor(Some(2.25)), "2.2");
        assert_eq!(factor(Some(0.497)), "0.50");
        assert_eq!(factor(Some(0.0123)), "0.012");
        assert_eq!(factor(None), "–");
    }

    #[test]
    fn the_means_leave_out_the_spans_asked() {
        let sample = |t_ns: u64, dirty: u64| Sample {
            t_ns,
            dirty,
            writeback: 0,
            unstable: 0,
            thresh: 5120,
            bg_thresh: 2560,
            freerun: 3840,
            setpoint: 4480,
            limit: 5120,
            dirtyable: 25600,
            bdis: Vec::new(),
        };
        // 2 MiB a sample, but 10 MiB from 30 to 40 s (not including 30).
        let mut d = Digest { left_out: vec![(30.0, 40.0)], ..Digest::default() };
        for tenth in 0..=500u64 {
            let dirty = if (301..=400).contains(&tenth) { 2560 } else { 512 };
            d.add(&sample(tenth * 100_000_000, dirty), |_| None);
        }
        assert_eq!(d.settled_means(10.0, 0).0, Some(2.0));
        assert_eq!(d.emptied().left_out, [(30.0, 40.0)]);
        // Without the span the 10 MiB count in.
        let mut d = Digest::default();
        for tenth in 0..=500u64 {
            let dirty = if (301..=400).contains(&tenth) { 2560 } else { 512 };
            d.add(&sample(tenth * 100_000_000, dirty), |_| None);
        }
        assert_eq!(d.settled_means(10.0, 0).0, Some((301.0 * 2.0 + 100.0 * 10.0) / 401.0));
    }

    #[test]
    fn a_value_too_small_for_its_decimals_keeps_two_figures() {
        // write_bw/N of 4.3 MiB/s over 10000 dd.
        assert_eq!(num(Some(4.3 / 10000.0), 3), "0.00043");
        assert_eq!(num(Some(0.0004), 3), "0.00040");
        assert_eq!(num(Some(0.0005), 3), "0.001", "rounds to a figure of its own");
        assert_eq!(num(Some(0.098), 3), "0.098");
        assert_eq!(num(Some(0.0), 3), "0.000");
        assert_eq!(num(Some(0.3), 0), "0.30");
        assert_eq!(num(Some(f64::INFINITY), 1), "–");
    }
}
