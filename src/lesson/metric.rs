//! The quantities lesson checks and questions measure on a running
//! session, over a trailing window of simulated time.

use serde::{Deserialize, Serialize};

use crate::session::Session;
use crate::sim::metrics::Histogram;
use crate::sim::{NS_PER_SEC, TaskKind};
use crate::units::{mean, median, mib};

/// A measurable quantity. Unless a name says otherwise it is taken over
/// the check's window, on the check's bdi (default: the first). Pause
/// metrics measure nothing when the pause log no longer reaches back over
/// the whole window.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
pub enum Metric {
    /// Mean global dirty pages (file dirty + writeback + unstable) \[MiB\].
    DirtyMb,
    /// Mean global dirty pages as a percentage of dirtyable memory \[%\].
    DirtyPct,
    /// Mean dirty pages over mean setpoint \[ratio\].
    DirtyToSetpoint,
    /// Most global dirty pages in the window \[MiB\].
    DirtyMaxMb,
    /// Fewest global dirty pages in the window \[MiB\].
    DirtyMinMb,
    /// Standard deviation of global dirty pages: how much they swing \[MiB\].
    DirtySwingMb,
    /// Furthest dirty pages ran past the limit (negative: stayed below) \[MiB\].
    OverLimitMb,
    /// Furthest past the limit, as a fraction of the threshold \[ratio\].
    OverLimitToThresh,
    /// Mean pages under writeback (NR_WRITEBACK) \[MiB\].
    WritebackMb,
    /// Most pages under writeback \[MiB\].
    WritebackMaxMb,
    /// Mean pages dirty and not yet under writeback (NR_FILE_DIRTY) \[MiB\].
    FileDirtyMb,
    /// Mean NFS unstable pages \[MiB\].
    UnstableMb,
    /// Mean bdi dirty pages \[MiB\].
    BdiDirtyMb,
    /// Fewest bdi dirty pages in the window \[MiB\].
    BdiDirtyMinMb,
    /// Mean bdi dirty pages over mean bdi setpoint \[ratio\].
    BdiDirtyToSetpoint,
    /// Mean bdi_thresh over thresh: the bdi's share of the limit \[ratio\].
    BdiThreshShare,
    /// Median estimated write bandwidth (avg_write_bandwidth) \[MiB/s\].
    WriteBwMbps,
    /// Pages written per second \[MiB/s\].
    WrittenMbps,
    /// Pages dirtied per second \[MiB/s\].
    DirtiedMbps,
    /// Highest dirty rate over one sample interval (100 ms) since the step
    /// began \[MiB/s\].
    PeakDirtiedMbps,
    /// Pages dirtied over pages written \[ratio\].
    DirtiedToWritten,
    /// Pages dirtied per second on every bdi together (NR_DIRTIED) \[MiB/s\].
    GlobalDirtiedMbps,
    /// Median dirty_ratelimit \[MiB/s\].
    DirtyRatelimitMbps,
    /// Median dirty_ratelimit over median write_bw / N \[ratio\].
    RatelimitToTarget,
    /// Standard deviation of dirty_ratelimit over its mean: how much it
    /// wanders \[ratio\].
    RatelimitSwing,
    /// Standard deviation of balanced_dirty_ratelimit over its mean \[ratio\].
    BalancedSwing,
    /// Median balanced_dirty_ratelimit over median write_bw / N \[ratio\].
    BalancedToTarget,
    /// Median balanced_dirty_ratelimit \[MiB/s\].
    BalancedRatelimitMbps,
    /// Median of write_bw/N, the rate each of the N throttled tasks should
    /// get ([`crate::sim::metrics::BdiSample::target`]) \[MiB/s\].
    TargetMbps,
    /// Median pos_ratio, over the samples where the kernel computes one
    /// (above the freerun ceiling) \[ratio, 1.0 = balanced\].
    PosRatio,
    /// Median max_pause \[ms\].
    MaxPauseMs,
    /// Median of the throttling sleeps \[ms\].
    PauseP50Ms,
    /// 99th percentile of the throttling sleeps \[ms\].
    PauseP99Ms,
    /// Longest throttling sleep \[ms\].
    PauseMaxMs,
    /// Throttling sleeps per second by the tasks on the bdi \[1/s\].
    SleepsPerS,
    /// Median time in one throttling call, IO included \[ms\].
    ThrottledP50Ms,
    /// 99th percentile of time in one throttling call, IO included \[ms\].
    ThrottledP99Ms,
    /// Longest time in one throttling call, IO included, a call still
    /// blocked counted with its length so far \[ms\].
    ThrottledMaxMs,
    /// Largest over smallest dirty rate of the dd on the bdi, each since the
    /// step began or since it started if later (dd younger than 1 s are
    /// left out) \[ratio\].
    TaskRateSpread,
    /// Write rate the pipeline tasks achieved since the step began \[MiB/s\].
    PipelineMbps,
    /// Share of the step the pipelines' network stood still \[%\].
    NetStallPct,
    /// Seconds from the step's start until bdi_thresh first reached 90% of
    /// thresh (the step's time so far if it never did) \[s\].
    Thresh90S,
    /// Live tasks on the bdi \[tasks\].
    Tasks,
    /// Pages the tasks on the bdi wrote back themselves, per second since
    /// the step began (IO-full throttling) \[MiB/s\].
    ForegroundMbps,
    /// Median `nr_dirtied_pause` of the live tasks on the bdi now \[pages\].
    NrDirtiedPause,
    /// `ratelimit_pages` now \[pages\].
    RatelimitPages,
    /// Mean background threshold \[MiB\].
    BgThreshMb,
    /// Mean freerun ceiling, (thresh + bg_thresh) / 2 \[MiB\].
    FreerunMb,
    /// Mean global setpoint \[MiB\].
    SetpointMb,
    /// Mean global limit \[MiB\].
    LimitMb,
    /// Mean dirty threshold \[MiB\].
    ThreshMb,
    /// Mean bdi_thresh \[MiB\].
    BdiThreshMb,
    /// Mean bdi setpoint \[MiB\].
    BdiSetpointMb,
}

impl Metric {
    /// The unit the metric is in, for display.
    pub fn unit(self) -> &'static str {
        use Metric::*;
        match self {
            DirtyMb | DirtyMaxMb | DirtyMinMb | DirtySwingMb | OverLimitMb | WritebackMb | WritebackMaxMb
            | UnstableMb | BdiDirtyMb | BdiDirtyMinMb | FileDirtyMb | BgThreshMb | FreerunMb | SetpointMb | LimitMb
            | ThreshMb | BdiThreshMb | BdiSetpointMb => "MiB",
            WriteBwMbps
            | WrittenMbps
            | DirtiedMbps
            | PeakDirtiedMbps
            | GlobalDirtiedMbps
            | DirtyRatelimitMbps
            | BalancedRatelimitMbps
            | TargetMbps
            | PipelineMbps
            | ForegroundMbps => "MiB/s",
            NrDirtiedPause | RatelimitPages => "pages",
            MaxPauseMs | PauseP50Ms | PauseP99Ms | PauseMaxMs | ThrottledP50Ms | ThrottledP99Ms | ThrottledMaxMs => {
                "ms"
            }
            DirtyPct | NetStallPct => "%",
            Thresh90S => "s",
            SleepsPerS => "/s",
            Tasks => "tasks",
            DirtyToSetpoint | OverLimitToThresh | BdiDirtyToSetpoint | BdiThreshShare | RatelimitToTarget
            | BalancedToTarget | PosRatio | TaskRateSpread | DirtiedToWritten | RatelimitSwing | BalancedSwing => "",
        }
    }
}

impl Metric {
    /// What the metric measures, in a few words, as the lesson pane's
    /// readings name it after `measured now:` (the window is said apart;
    /// a metric of no window is read at the last sample).
    pub fn label(self) -> &'static str {
        use Metric::*;
        match self {
            DirtyMb => "mean dirty",
            DirtyPct => "mean dirty, % of dirtyable",
            DirtyToSetpoint => "mean dirty / setpoint",
            DirtyMaxMb => "most dirty",
            DirtyMinMb => "fewest dirty",
            DirtySwingMb => "dirty swing (std dev)",
            OverLimitMb => "furthest past the limit",
            OverLimitToThresh => "furthest past the limit / thresh",
            WritebackMb => "mean writeback",
            WritebackMaxMb => "most writeback",
            FileDirtyMb => "mean file dirty",
            UnstableMb => "mean unstable",
            BdiDirtyMb => "mean bdi_dirty",
            BdiDirtyMinMb => "fewest bdi_dirty",
            BdiDirtyToSetpoint => "bdi_dirty / bdi_setpoint",
            BdiThreshShare => "bdi_thresh / thresh",
            WriteBwMbps => "avg_write_bw (median)",
            WrittenMbps => "written",
            DirtiedMbps => "dirtied",
            PeakDirtiedMbps => "peak dirty rate",
            DirtiedToWritten => "dirtied / written",
            GlobalDirtiedMbps => "dirtied, every bdi",
            DirtyRatelimitMbps => "dirty_ratelimit (median)",
            RatelimitToTarget => "dirty_ratelimit / (write_bw/N)",
            RatelimitSwing => "dirty_ratelimit swing",
            BalancedSwing => "balanced swing",
            BalancedToTarget => "balanced / (write_bw/N)",
            BalancedRatelimitMbps => "balanced (median)",
            TargetMbps => "write_bw/N (median)",
            PosRatio => "pos_ratio (median)",
            MaxPauseMs => "max_pause (median)",
            PauseP50Ms => "median sleep",
            PauseP99Ms => "99th pct sleep",
            PauseMaxMs => "longest sleep",
            SleepsPerS => "sleeps per second",
            ThrottledP50Ms => "median throttling call",
            ThrottledP99Ms => "99th pct throttling call",
            ThrottledMaxMs => "longest throttling call",
            TaskRateSpread => "fastest / slowest dd",
            PipelineMbps => "copy rate this step",
            NetStallPct => "link stalled this step",
            Thresh90S => "time to 90% of thresh",
            Tasks => "tasks",
            ForegroundMbps => "written by the tasks this step",
            NrDirtiedPause => "nr_dirtied_pause (median)",
            RatelimitPages => "ratelimit_pages",
            BgThreshMb => "bg_thresh",
            FreerunMb => "freerun",
            SetpointMb => "setpoint",
            LimitMb => "limit",
            ThreshMb => "thresh",
            BdiThreshMb => "bdi_thresh",
            BdiSetpointMb => "bdi_setpoint",
        }
    }

    /// The metric is the time from the step's start until something
    /// happens, the time so far while it has not.
    pub fn counts_until(self) -> bool {
        self == Metric::Thresh90S
    }

    /// The metric reads the window (false: an instant, or the step so far).
    pub fn windowed(self) -> bool {
        use Metric::*;
        !matches!(
            self,
            PeakDirtiedMbps
                | TaskRateSpread
                | PipelineMbps
                | NetStallPct
                | Thresh90S
                | Tasks
                | ForegroundMbps
                | NrDirtiedPause
                | RatelimitPages
        )
    }
}

/// Where a measurement is taken.
#[derive(Clone)]
pub struct Probe<'a> {
    /// The session.
    pub session: &'a Session,
    /// Which side (0 = A).
    pub side: usize,
    /// Which bdi.
    pub bdi: usize,
    /// The window ends now and lasts this long \[ns\].
    pub window_ns: u64,
    /// When the current step began \[ns\].
    pub step_start_ns: u64,
    /// What the tasks had done when the step began.
    pub at_step: &'a StepSnapshot,
}

/// Standard deviation over mean.
fn swing(v: Vec<f64>) -> Option<f64> {
    let m = mean(v.iter().copied())?;
    let var = mean(v.iter().map(|x| (x - m).powi(2)))?;
    (m > 0.0).then(|| var.sqrt() / m)
}

/// Why `metric` has nothing to measure in world `w`, whose kernel does
/// not compute what it reads (2.6.38 estimates no bandwidth, 3.1 keeps no
/// setpoint or dirty_ratelimit): `legacy 3.1 (IO-full) computes no
/// setpoint`.
pub fn lacks(metric: Metric, w: &crate::sim::World) -> Option<String> {
    let what = lacked(metric, w)?;
    Some(format!("{} computes no {what}", crate::session::level_name(w.patches(), w.legacy())))
}

/// What of `metric`'s reading the kernel of world `w` does not compute
/// (`setpoint`, `write_bw`, `dirty_ratelimit`), without words around it:
/// [`measure`] asks it at every sample.
fn lacked(metric: Metric, w: &crate::sim::World) -> Option<&'static str> {
    use Metric::*;
    let has = crate::run::summary::KernelHas::of(w.patches(), w.legacy());
    Some(match metric {
        SetpointMb | BdiSetpointMb | DirtyToSetpoint | BdiDirtyToSetpoint if !has.setpoint => "setpoint",
        PosRatio if !has.setpoint => "pos_ratio",
        WriteBwMbps | TargetMbps | RatelimitToTarget | BalancedToTarget if !has.bandwidth => "write_bw",
        RatelimitToTarget | BalancedToTarget | DirtyRatelimitMbps | RatelimitSwing | BalancedSwing
            if !has.dirty_ratelimit =>
        {
            "dirty_ratelimit"
        }
        _ => return None,
    })
}

/// For a metric that is the time until something happens
/// ([`Metric::counts_until`]): whether it has happened yet (always, for
/// the others).
pub fn happened(metric: Metric, p: &Probe) -> bool {
    let Some(side) = p.session.sides.get(p.side) else { return true };
    let w = &side.world;
    let bdi = p.bdi.min(w.bdis().len() - 1);
    match metric {
        Metric::Thresh90S => w.samples().iter().any(|s| s.t_ns >= p.step_start_ns && reaches_90(s, bdi)),
        _ => true,
    }
}

/// The bdi's threshold is 90% of the global one in sample `s`.
fn reaches_90(s: &crate::sim::metrics::Sample, bdi: usize) -> bool {
    s.bdis[bdi].thresh * 10 >= s.thresh * 9
}

/// Measures `metric`; `None` when there is nothing to measure yet.
pub fn measure(metric: Metric, p: &Probe) -> Option<f64> {
    use Metric::*;
    let side = p.session.sides.get(p.side)?;
    let w = &side.world;
    let now = w.now_ns();
    let from = now.saturating_sub(p.window_ns);
    let bdi = p.bdi.min(w.bdis().len() - 1);
    // Samples and pauses are in time order: skip to the window's start.
    let all = w.samples();
    let samples: Vec<_> = all.range(all.partition_point(|s| s.t_ns < from)..).collect();
    let log = w.pause_log();
    let recent = || log.range(log.partition_point(|r| r.t_ns < from)..).filter(|r| r.bdi as usize == bdi);
    let ms = |j: u64| j as f64 * 1000.0 / w.hz() as f64;
    let secs = |a: u64, b: u64| (b.saturating_sub(a)) as f64 / NS_PER_SEC as f64;
    // Pause metrics need the whole window in the pause log: `None` when it
    // no longer reaches back that far.
    let pauses_complete = from >= w.pause_log_complete_from();
    let pauses = |call: bool| {
        pauses_complete.then(|| {
            let mut h = Histogram::default();
            for r in recent().filter(|r| r.call == call) {
                h.add(u64::from(r.pause));
            }
            h
        })
    };
    let quantile_ms = |h: Histogram, q: f64| (h.count() > 0).then(|| ms(h.quantile(q)));
    let rate = |f: &dyn Fn(&crate::sim::metrics::BdiSample) -> u64| {
        let (a, b) = (samples.first()?, samples.last()?);
        let dt = secs(a.t_ns, b.t_ns);
        (dt > 0.0).then(|| mib((f(&b.bdis[bdi]) - f(&a.bdis[bdi])) as f64) / dt)
    };
    let target = |s: &crate::sim::metrics::BdiSample| s.target().unwrap_or(f64::NAN);
    if lacked(metric, w).is_some() {
        return None;
    }
    let tasks_on_bdi = || w.tasks().iter().filter(|t| t.bdi as usize == bdi && t.stats.started_ns.is_some());
    Some(match metric {
        DirtyMb => mib(mean(samples.iter().map(|s| s.dirty as f64))?),
        DirtyPct => mean(samples.iter().map(|s| 100.0 * s.dirty as f64 / s.dirtyable as f64))?,
        DirtyToSetpoint => {
            mean(samples.iter().map(|s| s.dirty as f64))? / mean(samples.iter().map(|s| s.setpoint as f64))?
        }
        DirtyMaxMb => mib(samples.iter().map(|s| s.dirty).max()? as f64),
        DirtySwingMb => {
            let m = mean(samples.iter().map(|s| s.dirty as f64))?;
            mib(mean(samples.iter().map(|s| (s.dirty as f64 - m).powi(2)))?.sqrt())
        }
        OverLimitMb => mib(samples.iter().map(|s| s.dirty as f64 - s.limit as f64).fold(f64::MIN, f64::max)),
        OverLimitToThresh => {
            samples.iter().map(|s| (s.dirty as f64 - s.limit as f64) / s.thresh.max(1) as f64).fold(f64::MIN, f64::max)
        }
        WritebackMb => mib(mean(samples.iter().map(|s| s.writeback as f64))?),
        WritebackMaxMb => mib(samples.iter().map(|s| s.writeback).max()? as f64),
        FileDirtyMb => mib(mean(samples.iter().map(|s| s.dirty.saturating_sub(s.writeback + s.unstable) as f64))?),
        UnstableMb => mib(mean(samples.iter().map(|s| s.unstable as f64))?),
        BdiDirtyMb => mib(mean(samples.iter().map(|s| s.bdis[bdi].dirty as f64))?),
        BdiDirtyToSetpoint => {
            mean(samples.iter().map(|s| s.bdis[bdi].dirty as f64))?
                / mean(samples.iter().map(|s| s.bdis[bdi].setpoint as f64))?.max(1.0)
        }
        BdiThreshShare => mean(samples.iter().map(|s| s.bdis[bdi].thresh as f64 / s.thresh.max(1) as f64))?,
        WriteBwMbps => mib(median(samples.iter().map(|s| s.bdis[bdi].avg_write_bw as f64).collect())?),
        WrittenMbps => rate(&|b| b.written)?,
        DirtiedMbps => rate(&|b| b.dirtied)?,
        PeakDirtiedMbps => {
            // Each rate over 50 ms at least: a sample taken when a key
            // changed a setting, nanoseconds after another, is no peak.
            let since: Vec<_> = w.samples().iter().filter(|s| s.t_ns >= p.step_start_ns).collect();
            (1..since.len())
                .filter_map(|j| {
                    let (a, b) = (crate::sim::metrics::rate_base(since[..j].iter().copied(), since[j].t_ns)?, since[j]);
                    Some(mib((b.bdis[bdi].dirtied - a.bdis[bdi].dirtied) as f64) / secs(a.t_ns, b.t_ns))
                })
                .fold(None, |m: Option<f64>, r| Some(m.map_or(r, |m| m.max(r))))?
        }
        DirtiedToWritten => {
            let (a, b) = (samples.first()?, samples.last()?);
            let written = b.bdis[bdi].written - a.bdis[bdi].written;
            (written > 0).then(|| (b.bdis[bdi].dirtied - a.bdis[bdi].dirtied) as f64 / written as f64)?
        }
        GlobalDirtiedMbps => {
            let (a, b) = (samples.first()?, samples.last()?);
            let dt = secs(a.t_ns, b.t_ns);
            let pages: u64 = a.bdis.iter().zip(&b.bdis).map(|(x, y)| y.dirtied - x.dirtied).sum();
            (dt > 0.0).then(|| mib(pages as f64) / dt)?
        }
        DirtyMinMb => mib(samples.iter().map(|s| s.dirty).min()? as f64),
        BalancedRatelimitMbps => mib(median(samples.iter().map(|s| s.bdis[bdi].balanced_ratelimit as f64).collect())?),
        TargetMbps => mib(median(samples.iter().map(|s| target(&s.bdis[bdi])).filter(|x| x.is_finite()).collect())?),
        DirtyRatelimitMbps => mib(median(samples.iter().map(|s| s.bdis[bdi].dirty_ratelimit as f64).collect())?),
        RatelimitToTarget => {
            median(samples.iter().map(|s| s.bdis[bdi].dirty_ratelimit as f64).collect())?
                / median(samples.iter().map(|s| target(&s.bdis[bdi])).filter(|x| x.is_finite()).collect())?
        }
        BalancedToTarget => {
            median(samples.iter().map(|s| s.bdis[bdi].balanced_ratelimit as f64).collect())?
                / median(samples.iter().map(|s| target(&s.bdis[bdi])).filter(|x| x.is_finite()).collect())?
        }
        PosRatio => median(samples.iter().filter_map(|s| s.bdis[bdi].pos_ratio).map(|p| p as f64 / 1024.0).collect())?,
        MaxPauseMs => ms(median(samples.iter().map(|s| s.bdis[bdi].max_pause as f64).collect())?.round() as u64),
        PauseP50Ms => quantile_ms(pauses(false)?, 0.5)?,
        PauseP99Ms => quantile_ms(pauses(false)?, 0.99)?,
        PauseMaxMs => ms(pauses(false)?.max()),
        SleepsPerS => {
            let sleeps = pauses(false)?.count();
            let dt = secs(from, now);
            (dt > 0.0).then(|| sleeps as f64 / dt)?
        }
        RatelimitSwing => swing(samples.iter().map(|s| s.bdis[bdi].dirty_ratelimit as f64).collect())?,
        BalancedSwing => swing(samples.iter().map(|s| s.bdis[bdi].balanced_ratelimit as f64).collect())?,
        BdiDirtyMinMb => mib(samples.iter().map(|s| s.bdis[bdi].dirty).min()? as f64),
        ThrottledP50Ms => quantile_ms(pauses(true)?, 0.5)?,
        ThrottledP99Ms => quantile_ms(pauses(true)?, 0.99)?,
        ThrottledMaxMs => {
            // A call still blocked counts with its length so far, as chart
            // 5 shows it.
            let blocked = crate::session::calls_in_progress(w).get(bdi).copied().unwrap_or(0);
            ms(pauses(true)?.max().max(blocked))
        }
        TaskRateSpread => {
            // Each dd's rate since the step began, or since it started if
            // later; dd that have run under a second are left out.
            let at = p.at_step.dirtied.get(p.side)?;
            let rates: Vec<f64> = tasks_on_bdi()
                .filter(|t| t.alive() && matches!(t.kind, TaskKind::Dd { .. }))
                .filter_map(|t| {
                    let started = t.stats.started_ns?;
                    let (from, base) = if started <= p.step_start_ns {
                        (p.step_start_ns, at.get(t.id as usize).copied().unwrap_or(0))
                    } else {
                        (started, 0)
                    };
                    let dt = secs(from, now);
                    (dt >= 1.0).then(|| (t.stats.dirtied - base) as f64 / dt)
                })
                .collect();
            let min = rates.iter().copied().fold(f64::INFINITY, f64::min);
            let max = rates.iter().copied().fold(0.0, f64::max);
            (!rates.is_empty() && min > 0.0).then(|| max / min)?
        }
        PipelineMbps => {
            let at = p.at_step.dirtied.get(p.side)?;
            let dt = secs(p.step_start_ns, now);
            let pages: u64 = tasks_on_bdi()
                .filter(|t| matches!(t.kind, TaskKind::Pipeline { .. }))
                .map(|t| t.stats.dirtied - at.get(t.id as usize).copied().unwrap_or(0))
                .sum();
            (dt > 0.0).then(|| mib(pages as f64) / dt)?
        }
        NetStallPct => {
            let at = p.at_step.net.get(p.side)?;
            let dt = now.saturating_sub(p.step_start_ns) as f64;
            let stalled: Vec<f64> = tasks_on_bdi()
                .filter(|t| matches!(t.kind, TaskKind::Pipeline { .. }))
                .map(|t| (t.stats.net_stalled_ns - at.get(t.id as usize).map_or(0, |x| x.1)) as f64 / dt)
                .collect();
            (dt > 0.0 && !stalled.is_empty()).then(|| 100.0 * stalled.iter().sum::<f64>() / stalled.len() as f64)?
        }
        Thresh90S => {
            let reached = w.samples().iter().find(|s| s.t_ns >= p.step_start_ns && reaches_90(s, bdi));
            secs(p.step_start_ns, reached.map_or(now, |s| s.t_ns))
        }
        Tasks => w.bdis()[bdi].nr_tasks as f64,
        ForegroundMbps => {
            let at = p.at_step.written_fg.get(p.side)?;
            let dt = secs(p.step_start_ns, now);
            let pages: u64 =
                tasks_on_bdi().map(|t| t.stats.written_fg - at.get(t.id as usize).copied().unwrap_or(0)).sum();
            (dt > 0.0).then(|| mib(pages as f64) / dt)?
        }
        // Whole pages, as the task table rounds its median.
        NrDirtiedPause => {
            median(tasks_on_bdi().filter(|t| t.alive()).map(|t| t.nr_dirtied_pause as f64).collect())?.round()
        }
        RatelimitPages => w.vm().ratelimit_pages as f64,
        BgThreshMb => mib(mean(samples.iter().map(|s| s.bg_thresh as f64))?),
        FreerunMb => mib(mean(samples.iter().map(|s| s.freerun as f64))?),
        SetpointMb => mib(mean(samples.iter().map(|s| s.setpoint as f64))?),
        LimitMb => mib(mean(samples.iter().map(|s| s.limit as f64))?),
        ThreshMb => mib(mean(samples.iter().map(|s| s.thresh as f64))?),
        BdiThreshMb => mib(mean(samples.iter().map(|s| s.bdis[bdi].thresh as f64))?),
        BdiSetpointMb => mib(mean(samples.iter().map(|s| s.bdis[bdi].setpoint as f64))?),
    })
}

/// What each task had done when a step began, per side: the counters the
/// since-the-step metrics subtract.
#[derive(Clone, Debug, Default)]
pub struct StepSnapshot {
    /// Pages dirtied.
    pub dirtied: Vec<Vec<u64>>,
    /// Network bytes received and stall time (pipelines).
    pub net: Vec<Vec<(u64, u64)>>,
    /// Pages written back by the task itself.
    pub written_fg: Vec<Vec<u64>>,
}

impl StepSnapshot {
    /// The counters now.
    pub fn take(session: &Session) -> StepSnapshot {
        let per_task = |f: &dyn Fn(&crate::sim::task::Task) -> u64| -> Vec<Vec<u64>> {
            session.sides.iter().map(|s| s.world.tasks().iter().map(f).collect()).collect()
        };
        StepSnapshot {
            dirtied: per_task(&|t| t.stats.dirtied),
            written_fg: per_task(&|t| t.stats.written_fg),
            net: session
                .sides
                .iter()
                .map(|s| s.world.tasks().iter().map(|t| (t.stats.received_bytes, t.stats.net_stalled_ns)).collect())
                .collect(),
        }
    }
}
