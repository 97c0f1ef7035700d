//! Headless runs: advance a world for a duration, stream its trace (JSON
//! Lines) and time series (CSV), then summarise what happened.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::Serialize;

use crate::scenario::Scenario;
use crate::sim::config::Legacy;
use crate::sim::metrics::{Histogram, Sample};
use crate::sim::trace::TraceEvent;
use crate::sim::{NS_PER_SEC, World};

/// Where a headless run writes and how long it runs.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Simulated time to run [ns].
    pub duration_ns: u64,
    /// JSON Lines trace file.
    pub trace: Option<PathBuf>,
    /// CSV time series file.
    pub csv: Option<PathBuf>,
    /// Summary JSON file.
    pub summary_json: Option<PathBuf>,
    /// Check the invariants after every event.
    pub check_invariants: bool,
}

/// A failed run: the message names the file and what went wrong.
#[derive(Debug)]
pub struct RunError(pub String);

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RunError {}

fn create(path: &Path) -> Result<BufWriter<File>, RunError> {
    File::create(path)
        .map(|f| BufWriter::with_capacity(1 << 16, f))
        .map_err(|e| RunError(format!("{}: cannot create: {e}", path.display())))
}

fn io_err(path: &Path) -> impl Fn(std::io::Error) -> RunError + '_ {
    move |e| RunError(format!("{}: write failed: {e}", path.display()))
}

/// `f` applied to every item, the items shared out over the CPUs; the
/// results in the items' order.
pub fn on_every_cpu<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get()).min(items.len().max(1));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut done: Vec<(usize, R)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break mine };
                        mine.push((i, f(item)));
                    }
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect()
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// Runs `scenario` headless and returns its summary.
pub fn run(scenario: &Scenario, opts: &RunOptions) -> Result<Summary, RunError> {
    let mut cfg = scenario.to_world().map_err(|e| RunError(e.0))?;
    cfg.trace = opts.trace.is_some();
    cfg.check_invariants = opts.check_invariants;
    let sample_ns = cfg.sample_ns;
    let started = Instant::now();
    let mut world = World::new(&cfg).map_err(|e| RunError(e.0))?;
    let names: Vec<String> = world.bdis().iter().map(|b| b.name.clone()).collect();

    let mut trace = match &opts.trace {
        Some(path) => {
            let mut w = create(path)?;
            write_trace_header(&mut w, &world, cfg.seed, &scenario.name).map_err(io_err(path))?;
            Some((w, path.as_path()))
        }
        None => None,
    };
    let mut csv = match &opts.csv {
        Some(path) => {
            let mut w = create(path)?;
            write_csv_header(&mut w, &names).map_err(io_err(path))?;
            Some((w, path.as_path()))
        }
        None => None,
    };

    // Advance in one-second steps, streaming what was recorded.
    let mut written_samples = 0;
    let mut t = 0;
    while t < opts.duration_ns {
        t = (t + NS_PER_SEC).min(opts.duration_ns);
        world.step_until(t);
        if let Some((w, path)) = &mut trace {
            for e in world.take_trace() {
                write_event(w, &e, &names).map_err(io_err(path))?;
            }
        }
        if let Some((w, path)) = &mut csv {
            let samples = world.samples();
            for i in written_samples..samples.len() {
                let prev = i.checked_sub(1).map(|p| &samples[p]);
                write_csv_row(w, &samples[i], prev, sample_ns).map_err(io_err(path))?;
            }
            written_samples = samples.len();
        }
    }
    if let Some((w, path)) = &mut trace {
        w.flush().map_err(io_err(path))?;
    }
    if let Some((w, path)) = &mut csv {
        w.flush().map_err(io_err(path))?;
    }
    let wall_s = started.elapsed().as_secs_f64();
    let summary = summarise(scenario, &world, opts.duration_ns, wall_s);
    if let Some(path) = &opts.summary_json {
        let mut w = create(path)?;
        serde_json::to_writer_pretty(&mut w, &summary).map_err(|e| RunError(format!("{}: {e}", path.display())))?;
        writeln!(w).and_then(|_| w.flush()).map_err(io_err(path))?;
    }
    Ok(summary)
}

/// Writes the trace's first line: what produced it and how to read it.
pub fn write_trace_header(w: &mut impl Write, world: &World, seed: u64, scenario: &str) -> std::io::Result<()> {
    let header = serde_json::json!({
        "event": "header",
        "dirtyviz": env!("CARGO_PKG_VERSION"),
        "hz": world.hz(),
        "page_size": crate::sim::kernel::PAGE_SIZE,
        "seed": seed,
        "scenario": scenario,
        "patches": world.patches(),
        "kernel": world.legacy().version(),
        "bdis": world.bdis().iter().map(|b| b.name.as_str()).collect::<Vec<_>>(),
    });
    writeln!(w, "{header}")
}

/// Writes one trace event as a JSON line.
pub fn write_event(w: &mut impl Write, e: &TraceEvent, bdis: &[String]) -> std::io::Result<()> {
    let bdi = |i: u32| bdis.get(i as usize).map(String::as_str).unwrap_or("?");
    match e {
        TraceEvent::BalanceDirtyPages(r) => writeln!(
            w,
            "{{\"event\":\"balance_dirty_pages\",\"jiffies\":{},\"task\":{},\"bdi\":\"{}\",\"thresh\":{},\"bg_thresh\":{},\"limit\":{},\"freerun\":{},\"setpoint\":{},\"dirty\":{},\"bdi_thresh\":{},\"bdi_dirty\":{},\"bdi_setpoint\":{},\"write_bw\":{},\"dirty_ratelimit\":{},\"pos_ratio\":{},\"task_ratelimit\":{},\"pages_dirtied\":{},\"nr_dirtied_pause_before\":{},\"nr_dirtied_pause\":{},\"max_pause\":{},\"pause\":{},\"iteration\":{}}}",
            r.jiffies,
            r.task,
            bdi(r.bdi),
            r.thresh,
            r.bg_thresh,
            r.limit,
            r.freerun,
            r.setpoint,
            r.dirty,
            r.bdi_thresh,
            r.bdi_dirty,
            r.bdi_setpoint,
            r.write_bw,
            r.dirty_ratelimit,
            r.pos_ratio,
            r.task_ratelimit,
            r.pages_dirtied,
            r.nr_dirtied_pause_before,
            r.nr_dirtied_pause,
            r.max_pause,
            r.pause,
            r.iteration
        ),
        TraceEvent::BdiDirtyRatelimit(r) => writeln!(
            w,
            "{{\"event\":\"bdi_dirty_ratelimit\",\"jiffies\":{},\"bdi\":\"{}\",\"thresh\":{},\"bg_thresh\":{},\"limit\":{},\"dirty\":{},\"bdi_thresh\":{},\"bdi_dirty\":{},\"write_bw\":{},\"dirtied\":{},\"elapsed\":{},\"dirty_rate\":{},\"pos_ratio\":{},\"task_ratelimit\":{},\"balanced_dirty_ratelimit\":{},\"prev_balanced_dirty_ratelimit\":{},\"dirty_ratelimit_before\":{},\"dirty_ratelimit\":{}}}",
            r.jiffies,
            bdi(r.bdi),
            r.thresh,
            r.bg_thresh,
            r.limit,
            r.dirty,
            r.bdi_thresh,
            r.bdi_dirty,
            r.write_bw,
            r.dirtied,
            r.elapsed,
            r.dirty_rate,
            r.pos_ratio,
            r.task_ratelimit,
            r.balanced_dirty_ratelimit,
            r.prev_balanced_dirty_ratelimit,
            r.dirty_ratelimit_before,
            r.dirty_ratelimit
        ),
        TraceEvent::TaskThrottled(r) => writeln!(
            w,
            "{{\"event\":\"task_throttled\",\"jiffies\":{},\"task\":{},\"bdi\":\"{}\",\"duration\":{},\"pages_dirtied\":{},\"pages_written\":{}}}",
            r.jiffies,
            r.task,
            bdi(r.bdi),
            r.duration,
            r.pages_dirtied,
            r.pages_written
        ),
    }
}

/// Pages as MiB.
pub fn mb(pages: u64) -> f64 {
    pages as f64 / 256.0
}

/// Per-bdi CSV columns after the bdi name, in order.
const BDI_COLUMNS: &[&str] = &[
    "dirty_mb",
    "writeback_mb",
    "thresh_mb",
    "setpoint_mb",
    "write_bw_mbps",
    "avg_write_bw_mbps",
    "dirty_ratelimit_mbps",
    "balanced_ratelimit_mbps",
    "dirtied_mbps",
    "written_mbps",
    "task_ratelimit_mbps",
    "pos_ratio",
    "tasks",
];

fn write_csv_header(w: &mut impl Write, bdis: &[String]) -> std::io::Result<()> {
    write!(
        w,
        "time_s,dirty_mb,writeback_mb,unstable_mb,thresh_mb,bg_thresh_mb,freerun_mb,setpoint_mb,limit_mb,dirtyable_mb,dirty_pct"
    )?;
    for b in bdis {
        for c in BDI_COLUMNS {
            write!(w, ",{b}.{c}")?;
        }
    }
    writeln!(w)
}

fn write_csv_row(w: &mut impl Write, s: &Sample, prev: Option<&Sample>, sample_ns: u64) -> std::io::Result<()> {
    write!(
        w,
        "{:.1},{:.3},{:.3},{:.3},{:.3},{:.3},{:.3},{:.3},{:.3},{:.3},{:.3}",
        s.t_ns as f64 / 1e9,
        mb(s.dirty),
        mb(s.writeback),
        mb(s.unstable),
        mb(s.thresh),
        mb(s.bg_thresh),
        mb(s.freerun),
        mb(s.setpoint),
        mb(s.limit),
        mb(s.dirtyable),
        100.0 * s.dirty as f64 / s.dirtyable as f64,
    )?;
    let secs = sample_ns as f64 / 1e9;
    for (i, b) in s.bdis.iter().enumerate() {
        let (dirtied, written) = match prev {
            Some(p) => (b.dirtied - p.bdis[i].dirtied, b.written - p.bdis[i].written),
            None => (0, 0),
        };
        write!(
            w,
            ",{:.3},{:.3},{:.3},{:.3},{:.3},{:.3},{:.3},{:.3},{:.3},{:.3},{:.3},{:.4},{}",
            mb(b.dirty),
            mb(b.writeback),
            mb(b.thresh),
            mb(b.setpoint),
            mb(b.write_bw),
            mb(b.avg_write_bw),
            mb(b.dirty_ratelimit),
            mb(b.balanced_ratelimit),
            mb(dirtied) / secs,
            mb(written) / secs,
            mb(b.task_ratelimit),
            b.pos_ratio as f64 / 1024.0,
            b.tasks,
        )?;
    }
    writeln!(w)
}

/// Global part of the summary, MiB.
#[derive(Clone, Debug, Serialize)]
pub struct GlobalSummary {
    pub thresh_mb: f64,
    pub bg_thresh_mb: f64,
    pub freerun_mb: f64,
    pub setpoint_mb: f64,
    pub limit_mb: f64,
    /// Mean global dirty pages after `settle_s` [MiB].
    pub dirty_mean_mb: f64,
    /// Largest global dirty count of the run [MiB].
    pub dirty_max_mb: f64,
    /// How far dirty ever ran past the limit (negative: never reached it) [MiB].
    pub over_limit_max_mb: f64,
    /// Samples before this time are left out of the means [s].
    pub settle_s: f64,
}

/// One bdi in the summary.
#[derive(Clone, Debug, Serialize)]
pub struct BdiSummary {
    pub name: String,
    pub kind: String,
    pub tasks: u32,
    /// Pages written over the run / duration [MiB/s].
    pub written_mbps: f64,
    /// Median avg_write_bandwidth over the last window [MiB/s].
    pub write_bw_mbps: f64,
    /// Median dirty_ratelimit over the last window [MiB/s].
    pub dirty_ratelimit_mbps: f64,
    /// write_bw / N [MiB/s].
    pub target_ratelimit_mbps: f64,
    /// Mean bdi_thresh after settling [MiB].
    pub thresh_mb: f64,
    /// Mean bdi dirty pages after settling [MiB].
    pub dirty_mean_mb: f64,
    /// Seeks the device made.
    pub seeks: u64,
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
    /// Mean size of a WRITE [MiB].
    pub write_mb: f64,
    /// Mean time a WRITE waited in the client's queue [ms].
    pub write_queue_ms: f64,
    /// Mean time from sending a WRITE to its reply [ms].
    pub write_rtt_ms: f64,
    /// COMMITs completed.
    pub commits: u64,
    /// Mean data a COMMIT made stable [MiB].
    pub commit_mb: f64,
    /// Mean time from sending a COMMIT to its reply [ms].
    pub commit_rtt_ms: f64,
    /// The most data ever under writeback at once [MiB].
    pub writeback_max_mb: f64,
    /// `nfs_congestion_kb` at the end of the run [MiB].
    pub congestion_mb: f64,
}

impl NfsSummary {
    fn of(mount: &crate::sim::nfs::NfsMount) -> NfsSummary {
        let m = &mount.stats;
        let per = |total: f64, n: u64| if n > 0 { total / n as f64 } else { 0.0 };
        NfsSummary {
            writes: m.writes,
            write_mb: per(mb(m.write_pages), m.writes),
            write_queue_ms: per(m.write_queue_ns as f64 / 1e6, m.writes),
            write_rtt_ms: per(m.write_rtt_ns as f64 / 1e6, m.writes),
            commits: m.commits,
            commit_mb: per(mb(m.commit_pages), m.commits),
            commit_rtt_ms: per(m.commit_rtt_ns as f64 / 1e6, m.commits),
            writeback_max_mb: mb(m.writeback_max),
            congestion_mb: mb(mount.congestion_pages),
        }
    }
}

/// Pause distribution [ms].
#[derive(Clone, Debug, Serialize)]
pub struct PauseSummary {
    pub count: u64,
    pub p50: f64,
    pub p90: f64,
    pub p99: f64,
    pub max: f64,
}

/// Time in throttling calls that blocked, foreground IO included [ms].
#[derive(Clone, Debug, Serialize)]
pub struct ThrottleSummary {
    pub count: u64,
    pub p50: f64,
    pub p90: f64,
    pub p99: f64,
    pub max: f64,
    /// Pages tasks wrote back themselves (IO-full) [MiB].
    pub foreground_written_mb: f64,
}

/// One task in the summary.
#[derive(Clone, Debug, Serialize)]
pub struct TaskSummary {
    pub id: u32,
    pub kind: String,
    pub bdi: String,
    pub dirtied_mb: f64,
    /// What it achieved while alive [MiB/s].
    pub rate_mbps: f64,
    pub pause_p50_ms: f64,
    pub pause_max_ms: f64,
    pub throttled_max_ms: f64,
}

/// What a run did.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    pub scenario: String,
    pub duration_s: f64,
    pub hz: u64,
    pub patches: u8,
    /// The kernel under the patches: "3.1", or "2.6.38" at patch level 0.
    pub kernel: &'static str,
    pub seed: u64,
    pub wall_s: f64,
    pub real_time_factor: f64,
    /// Length of the window the medians are taken over [s].
    pub window_s: f64,
    pub global: GlobalSummary,
    pub bdis: Vec<BdiSummary>,
    pub pauses_ms: PauseSummary,
    pub throttled_ms: ThrottleSummary,
    pub tasks: Vec<TaskSummary>,
}

/// Time from bdi `i`'s first writer starting until its bdi_thresh first
/// reached 90% of the global threshold [s].
fn thresh_90(world: &World, samples: &std::collections::VecDeque<Sample>, i: usize) -> Option<f64> {
    let start = world.tasks().iter().filter(|t| t.bdi as usize == i).filter_map(|t| t.stats.started_ns).min()?;
    samples
        .iter()
        .find(|s| s.t_ns >= start && s.bdis[i].thresh * 10 >= s.thresh * 9)
        .map(|s| (s.t_ns - start) as f64 / 1e9)
}

fn median(mut xs: Vec<f64>) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn mean(xs: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = xs.fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
    if n == 0 { 0.0 } else { sum / n as f64 }
}

fn pause_summary(h: &Histogram, ms: impl Fn(u64) -> f64) -> PauseSummary {
    PauseSummary {
        count: h.count(),
        p50: ms(h.quantile(0.5)),
        p90: ms(h.quantile(0.9)),
        p99: ms(h.quantile(0.99)),
        max: ms(h.max()),
    }
}

/// Summarises a finished run.
pub fn summarise(scenario: &Scenario, world: &World, duration_ns: u64, wall_s: f64) -> Summary {
    let duration_s = duration_ns as f64 / 1e9;
    let settle_s = if duration_s >= 20.0 { 10.0 } else { duration_s / 2.0 };
    let window_s = if duration_s >= 20.0 { 10.0 } else { duration_s / 2.0 };
    let samples = world.samples();
    let settled: Vec<&Sample> = samples.iter().filter(|s| s.t_ns as f64 / 1e9 >= settle_s).collect();
    let window: Vec<&Sample> = samples.iter().filter(|s| s.t_ns as f64 / 1e9 >= duration_s - window_s).collect();
    let stats = world.stats();
    let vm = world.vm();
    let l = vm.limits;
    let freerun = crate::sim::page_writeback::dirty_freerun_ceiling(l.dirty, l.background);
    let limit = vm.limit();
    let global = GlobalSummary {
        thresh_mb: mb(l.dirty),
        bg_thresh_mb: mb(l.background),
        freerun_mb: mb(freerun),
        setpoint_mb: mb((freerun + limit) / 2),
        limit_mb: mb(limit),
        dirty_mean_mb: mean(settled.iter().map(|s| mb(s.dirty))),
        dirty_max_mb: mb(stats.max_dirty),
        over_limit_max_mb: stats.max_over_limit as f64 / 256.0,
        settle_s,
    };
    let bdis = world
        .bdis()
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let tasks = world.tasks().iter().filter(|t| t.bdi as usize == i).count() as u32;
            let write_bw = median(window.iter().map(|s| mb(s.bdis[i].avg_write_bw)).collect());
            BdiSummary {
                name: b.name.clone(),
                kind: b.device.config.kind.name().to_string(),
                tasks,
                written_mbps: mb(b.written) / duration_s,
                write_bw_mbps: write_bw,
                dirty_ratelimit_mbps: median(window.iter().map(|s| mb(s.bdis[i].dirty_ratelimit)).collect()),
                target_ratelimit_mbps: if tasks > 0 { write_bw / tasks as f64 } else { 0.0 },
                thresh_mb: mean(settled.iter().map(|s| mb(s.bdis[i].thresh))),
                dirty_mean_mb: mean(settled.iter().map(|s| mb(s.bdis[i].dirty))),
                seeks: b.device.seeks,
                thresh_90_s: thresh_90(world, samples, i),
                nfs: b.nfs.as_ref().map(NfsSummary::of),
            }
        })
        .collect();
    let ms = |j: u64| stats.ms(j);
    let tasks = world
        .tasks()
        .iter()
        .map(|t| {
            let st = &t.stats;
            let alive_ns = match st.started_ns {
                Some(s) => st.ended_ns.unwrap_or(duration_ns).saturating_sub(s),
                None => 0,
            };
            TaskSummary {
                id: t.id,
                kind: t.kind.name().into(),
                bdi: world.bdis()[t.bdi as usize].name.clone(),
                dirtied_mb: mb(st.dirtied),
                rate_mbps: if alive_ns > 0 { mb(st.dirtied) / (alive_ns as f64 / 1e9) } else { 0.0 },
                pause_p50_ms: ms(st.pauses.quantile(0.5)),
                pause_max_ms: ms(st.pauses.max()),
                throttled_max_ms: ms(st.throttled_max),
            }
        })
        .collect();
    Summary {
        scenario: scenario.name.clone(),
        duration_s,
        hz: world.hz(),
        patches: world.patches(),
        kernel: world.legacy().version(),
        seed: scenario.seed,
        wall_s,
        real_time_factor: if wall_s > 0.0 { duration_s / wall_s } else { f64::INFINITY },
        window_s,
        global,
        bdis,
        pauses_ms: pause_summary(&stats.pauses, ms),
        throttled_ms: {
            let p = pause_summary(&stats.throttled, ms);
            ThrottleSummary {
                count: p.count,
                p50: p.p50,
                p90: p.p90,
                p99: p.p99,
                max: p.max,
                foreground_written_mb: mb(world.tasks().iter().map(|t| t.stats.written_fg).sum()),
            }
        },
        tasks,
    }
}

impl Summary {
    /// The human-readable report printed at the end of a run.
    pub fn report(&self) -> String {
        use std::fmt::Write as _;
        let mut s = String::new();
        let g = &self.global;
        let _ = writeln!(
            s,
            "scenario {}  patches {}{}  seed {}  HZ {}  {:.0} s simulated",
            self.scenario,
            self.patches,
            if self.kernel == Legacy::Linux31.version() { String::new() } else { format!(" (Linux {})", self.kernel) },
            self.seed,
            self.hz,
            self.duration_s
        );
        let _ = writeln!(
            s,
            "thresholds  bg {:.1} MiB  freerun {:.1}  setpoint {:.1}  limit {:.1}  thresh {:.1}",
            g.bg_thresh_mb, g.freerun_mb, g.setpoint_mb, g.limit_mb, g.thresh_mb
        );
        let err = if g.setpoint_mb > 0.0 { 100.0 * (g.dirty_mean_mb - g.setpoint_mb) / g.setpoint_mb } else { 0.0 };
        let _ = writeln!(
            s,
            "dirty       mean {:.1} MiB after {:.0} s ({:+.1}% of setpoint)  max {:.1} MiB ({:+.1} MiB vs limit)",
            g.dirty_mean_mb, g.settle_s, err, g.dirty_max_mb, g.over_limit_max_mb
        );
        for b in &self.bdis {
            let ratio =
                if b.target_ratelimit_mbps > 0.0 { b.dirty_ratelimit_mbps / b.target_ratelimit_mbps } else { 0.0 };
            let _ = writeln!(
                s,
                "bdi {:<6} {:<5} {:>4} tasks  written {:.1} MiB/s  write_bw {:.1}  dirty_ratelimit {:.3} vs write_bw/N {:.3} ({:.2}x, median of last {:.0} s)  bdi_thresh {:.1} MiB",
                b.name,
                b.kind,
                b.tasks,
                b.written_mbps,
                b.write_bw_mbps,
                b.dirty_ratelimit_mbps,
                b.target_ratelimit_mbps,
                ratio,
                self.window_s,
                b.thresh_mb
            );
        }
        for b in &self.bdis {
            if let Some(n) = &b.nfs {
                let _ = writeln!(
                    s,
                    "bdi {:<6} WRITE {} × {:.2} MiB, queue {:.0} ms, rtt {:.0} ms;  COMMIT {} × {:.1} MiB, rtt {:.0} ms",
                    b.name,
                    n.writes,
                    n.write_mb,
                    n.write_queue_ms,
                    n.write_rtt_ms,
                    n.commits,
                    n.commit_mb,
                    n.commit_rtt_ms
                );
            }
        }
        for b in &self.bdis {
            if let Some(t) = b.thresh_90_s
                && self.bdis.len() > 1
            {
                let _ = writeln!(
                    s,
                    "bdi {:<6} bdi_thresh reached 90% of thresh {t:.1} s after its first writer started",
                    b.name
                );
            }
        }
        let p = &self.pauses_ms;
        let _ = writeln!(
            s,
            "pauses      {} sleeps  p50 {:.0} ms  p90 {:.0}  p99 {:.0}  max {:.0}",
            p.count, p.p50, p.p90, p.p99, p.max
        );
        let t = &self.throttled_ms;
        let _ = writeln!(
            s,
            "throttled   {} calls blocked  p50 {:.0} ms  p90 {:.0}  p99 {:.0}  max {:.0}  (foreground writeback {:.1} MiB)",
            t.count, t.p50, t.p90, t.p99, t.max, t.foreground_written_mb
        );
        let mut kinds: Vec<&str> = self.tasks.iter().map(|t| t.kind.as_str()).collect();
        kinds.sort_unstable();
        kinds.dedup();
        for kind in kinds {
            let of_kind = || self.tasks.iter().filter(|t| t.kind == kind);
            let rates: Vec<f64> = of_kind().map(|t| t.rate_mbps).collect();
            let min = rates.iter().copied().fold(f64::INFINITY, f64::min);
            let max = rates.iter().copied().fold(0.0, f64::max);
            let throttled = of_kind().map(|t| t.throttled_max_ms).fold(0.0, f64::max);
            let _ = writeln!(
                s,
                "tasks       {} {kind}  dirty rate min {:.3} MiB/s  max {:.3} (max/min {:.2})  longest throttled {:.0} ms",
                rates.len(),
                min,
                max,
                if min > 0.0 { max / min } else { f64::INFINITY },
                throttled
            );
        }
        let _ = writeln!(
            s,
            "speed       simulated {:.0} s in {:.3} s ({:.0}× real time)",
            self.duration_s, self.wall_s, self.real_time_factor
        );
        s
    }
}
