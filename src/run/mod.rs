//! Headless runs: advance a world for a duration, stream its trace
//! ([`trace`], JSON Lines) and time series ([`csv`]), then summarise what
//! happened ([`summary`]). Every output is written through
//! [`crate::output::AtomicFile`]: it appears when the run succeeds and a
//! failed run leaves what was there.

pub mod csv;
pub mod summary;
pub mod trace;

use std::path::PathBuf;
use std::time::Instant;

pub use summary::{BdiSummary, GlobalSummary, PauseSummary, Summary, TaskSummary, ThrottleSummary, summarise};

use crate::error::{Error, Result};
use crate::output::AtomicFile;
use crate::scenario::Scenario;
use crate::sim::{NS_PER_SEC, World};

/// A trace that would grow past this is announced before it is written \[bytes\].
pub const ANNOUNCE_TRACE_BYTES: u64 = 1 << 30;

/// Where a headless run writes and how long it runs.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Simulated time to run \[ns\].
    pub duration_ns: u64,
    /// JSON Lines trace file.
    pub trace: Option<PathBuf>,
    /// Stop the trace before it grows past this \[bytes\].
    pub max_trace_bytes: Option<u64>,
    /// CSV time series file.
    pub csv: Option<PathBuf>,
    /// Summary JSON file.
    pub summary_json: Option<PathBuf>,
    /// Check the invariants after every event.
    pub check_invariants: bool,
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

/// Runs `scenario` headless and returns its summary. `note` hears what
/// the user should know before the run ends (a trace about to grow past
/// 1 GiB).
pub fn run(scenario: &Scenario, opts: &RunOptions, note: &mut dyn FnMut(String)) -> Result<Summary> {
    let mut cfg = scenario.to_world()?;
    let jiffy_ns = NS_PER_SEC / cfg.hz;
    if opts.duration_ns < jiffy_ns {
        return Err(Error::invalid(format!(
            "the run must last at least one jiffy ({} ms at HZ {}), got {} ms",
            jiffy_ns / 1_000_000,
            cfg.hz,
            opts.duration_ns as f64 / 1e6
        )));
    }
    cfg.trace = opts.trace.is_some();
    cfg.check_invariants = opts.check_invariants;
    let sample_ns = cfg.sample_ns;
    let started = Instant::now();
    let mut world = World::new(&cfg)?;
    let names: Vec<String> = world.bdis().iter().map(|b| b.name.clone()).collect();

    let mut trace = match &opts.trace {
        Some(path) => {
            let mut t = trace::TraceFile::create(path, opts.max_trace_bytes)?;
            t.header(&trace::Header::of(&world, cfg.seed, &scenario.name))?;
            Some(t)
        }
        None => None,
    };
    let mut csv = opts.csv.as_deref().map(|path| csv::CsvFile::create(path, &names, sample_ns)).transpose()?;
    let mut summary_json = opts.summary_json.as_deref().map(AtomicFile::create).transpose()?;

    // Advance in one-second steps, streaming what was recorded.
    let mut written_samples = 0;
    let mut t = 0;
    while t < opts.duration_ns {
        crate::interrupt::check()?;
        t = (t + NS_PER_SEC).min(opts.duration_ns);
        world.step_until(t);
        if let Some(w) = &mut trace {
            w.events(&world.take_trace(), &names)?;
            if t == NS_PER_SEC && opts.duration_ns > NS_PER_SEC {
                announce_trace_size(w, opts, note);
            }
        }
        if let Some(w) = &mut csv {
            let samples = world.samples();
            for i in written_samples..samples.len() {
                w.row(&samples[i], i.checked_sub(1).map(|p| &samples[p]))?;
            }
            written_samples = samples.len();
        }
    }
    let wall_s = started.elapsed().as_secs_f64();
    let mut summary = summarise(scenario, &world, opts.duration_ns, wall_s);
    summary.trace_stopped_s = trace.as_ref().and_then(|w| w.stopped_at()).map(|j| j as f64 / cfg.hz as f64);
    if let Some(w) = &mut summary_json {
        let mut text = serde_json::to_vec_pretty(&summary).expect("a summary is numbers and strings");
        text.push(b'\n');
        w.put(&text)?;
    }
    // Every output is written out before any replaces its file: one that
    // fails leaves all of them as they were.
    let mut outputs: Vec<AtomicFile> = Vec::new();
    outputs.extend(trace.map(trace::TraceFile::into_output).transpose()?);
    outputs.extend(csv.map(csv::CsvFile::into_output));
    outputs.extend(summary_json);
    for o in &mut outputs {
        o.flush()?;
    }
    for o in outputs {
        o.commit()?;
    }
    Ok(summary)
}

/// After the first simulated second: if the trace is on its way past
/// [`ANNOUNCE_TRACE_BYTES`], says how big it will be.
fn announce_trace_size(w: &trace::TraceFile, opts: &RunOptions, note: &mut dyn FnMut(String)) {
    let seconds = opts.duration_ns as f64 / NS_PER_SEC as f64;
    let estimate = w.bytes() as f64 * seconds;
    let capped = opts.max_trace_bytes.is_some_and(|cap| (cap as f64) < estimate);
    if estimate > ANNOUNCE_TRACE_BYTES as f64 && !capped {
        note(format!(
            "note: the trace {} will be about {:.1} GiB ({:.1} MiB per simulated second for {seconds:.0} s); --max-trace-size caps it",
            w.path().display(),
            estimate / (1u64 << 30) as f64,
            w.bytes() as f64 / (1u64 << 20) as f64,
        ));
    }
}
