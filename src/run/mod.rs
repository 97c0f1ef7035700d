//! Headless runs: advance a world for a duration, stream its trace
//! ([`trace`], JSON Lines) and time series ([`csv`]), then summarise what
//! happened ([`summary`]). Every output is written through
//! [`crate::output::AtomicFile`]: it appears when the run succeeds and a
//! failed run leaves what was there.

pub mod compare;
pub mod csv;
pub mod digits;
pub mod progress;
pub mod summary;
pub mod trace;

use std::collections::VecDeque;
use std::path::PathBuf;
use std::time::Instant;

pub use compare::{Compared, Labels};
pub use summary::{
    BdiSummary, Digest, GlobalSummary, KernelHas, PauseSummary, Summary, TaskSummary, ThrottleSummary, summarise,
};

use crate::error::{Error, Result};
use crate::output::AtomicFile;
use crate::scenario::Scenario;
use crate::session::{Compare, level_name};
use crate::sim::config::WorldConfig;
use crate::sim::metrics::{RATE_SPAN_NS, Sample};
use crate::sim::trace::TraceEvent;
use crate::sim::{NS_PER_SEC, World};

/// A trace that would grow past this is announced before it is written \[bytes\].
pub const ANNOUNCE_TRACE_BYTES: u64 = 1 << 30;

/// A run writes its trace for a tenth of its time, at least
/// [`TRACE_SAMPLE_MIN_NS`] (but half the run at most) and at most
/// [`TRACE_SAMPLE_MAX_NS`], before telling how big it will be. The first
/// seconds of a run trace more than the rest, while the writers start and
/// the rate limits settle: two to three times as much as later in
/// hdd-100dd and jbod-10hdd; hdd-1000dd settles after 30 s \[ns\].
const TRACE_SAMPLE_MIN_NS: u64 = 10 * NS_PER_SEC;

/// See [`TRACE_SAMPLE_MIN_NS`] \[ns\].
const TRACE_SAMPLE_MAX_NS: u64 = 60 * NS_PER_SEC;

/// How far a run advances its worlds between two looks at what they
/// recorded: the trace events of 50 ms of a thousand dd fit in the CPU's
/// cache \[ns\].
const STEP_NS: u64 = NS_PER_SEC / 20;

/// Where one world's trace and time series go.
#[derive(Clone, Debug, Default)]
pub struct SideFiles {
    /// JSON Lines trace file.
    pub trace: Option<PathBuf>,
    /// CSV time series file.
    pub csv: Option<PathBuf>,
}

/// Where a headless run writes and how long it runs.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Simulated time to run \[ns\].
    pub duration_ns: u64,
    /// Side A's files (the only side's when not comparing), then side B's.
    pub files: [SideFiles; 2],
    /// Stop each trace before it grows past this \[bytes\].
    pub max_trace_bytes: Option<u64>,
    /// Summary JSON file.
    pub summary_json: Option<PathBuf>,
    /// Check the invariants after every event.
    pub check_invariants: bool,
    /// Tell the simulated time on stderr while a long run lasts (on a terminal).
    pub progress: bool,
    /// Announce a trace estimated to pass this \[bytes\]; `None`:
    /// [`ANNOUNCE_TRACE_BYTES`].
    pub announce_trace_bytes: Option<u64>,
    /// Spans of the run's clock its means leave out, each from (not
    /// included) to (included): a kernel trace's silences, for `view
    /// --fit` to compare like with like \[s\].
    pub left_out_s: Vec<(f64, f64)>,
}

/// Follows one world's time series as it is made: each sample, once it
/// can no longer change, goes to the CSV file (if any) and into the
/// summary's [`Digest`], so that a run keeps only a few samples however
/// long it lasts.
pub struct Follower {
    csv: Option<csv::CsvFile>,
    digest: Digest,
    /// Samples taken so far, counted from the world's first.
    taken: u64,
    /// The samples taken in the last [`RATE_SPAN_NS`] and the latest one
    /// before that, oldest first: the next row's rates are over the time
    /// since the latest of them at least that much earlier (0 where none
    /// is, as in the first row).
    recent: VecDeque<Sample>,
}

impl Follower {
    /// Follows a world, writing its rows to `csv` if given.
    pub fn new(csv: Option<csv::CsvFile>) -> Follower {
        Follower { csv, digest: Digest::default(), taken: 0, recent: VecDeque::new() }
    }

    /// Leaves the samples in `spans` out of the means (see
    /// [`RunOptions::left_out_s`]).
    pub fn leaving_out(mut self, spans: &[(f64, f64)]) -> Follower {
        self.digest.left_out = spans.to_vec();
        self
    }

    /// Starts over on another world, whose bdis are `bdis`: the CSV file
    /// starts again with their header, the digest empty.
    pub fn restart(&mut self, bdis: &[String]) -> Result<()> {
        if let Some(old) = self.csv.take() {
            let path = old.path().to_path_buf();
            drop(old);
            self.csv = Some(csv::CsvFile::create(&path, bdis)?);
        }
        self.digest = self.digest.emptied();
        self.taken = 0;
        self.recent.clear();
        Ok(())
    }

    /// Takes the samples `world` recorded since the last call, up to its
    /// clock: a sample at the clock may still be replaced (a change makes
    /// the world sample at once), so it waits for the clock to move on,
    /// unless `all` (the run is over).
    pub fn take(&mut self, world: &World, all: bool) -> Result<()> {
        let samples = world.samples();
        let dropped = world.samples_dropped();
        debug_assert!(self.taken >= dropped, "samples dropped before they were taken");
        let from = self.taken.saturating_sub(dropped) as usize;
        if from >= samples.len() {
            return Ok(());
        }
        // When a bdi's earliest writer started, as far as known now.
        let first_writer = |bdi: usize| {
            world.tasks().iter().filter(|t| t.bdi as usize == bdi).filter_map(|t| t.stats.started_ns).min()
        };
        let has = summary::KernelHas::of(world.patches(), world.legacy());
        for s in samples.range(from..) {
            if !all && s.t_ns >= world.now_ns() {
                break;
            }
            if let Some(csv) = &mut self.csv {
                // None in the world's first 50 ms: rates of 0, as in its
                // first row (a key 130 µs in read 7692 MiB/s).
                csv.row(s, crate::sim::metrics::rate_base(self.recent.iter(), s.t_ns), has)?;
            }
            self.digest.add(s, first_writer);
            // Samples older than the latest one far enough back to start
            // every later rate go, their room reused.
            let mut spare = None;
            while self.recent.len() >= 2 && s.t_ns.saturating_sub(self.recent[1].t_ns) >= RATE_SPAN_NS {
                spare = self.recent.pop_front();
            }
            match spare {
                Some(mut old) => {
                    old.clone_from(s);
                    self.recent.push_back(old);
                }
                None => self.recent.push_back(s.clone()),
            }
            self.taken += 1;
        }
        Ok(())
    }

    /// What the summary needs of the samples taken.
    pub fn digest(&self) -> &Digest {
        &self.digest
    }

    /// The CSV file, to commit with other outputs.
    pub fn into_output(self) -> Option<AtomicFile> {
        self.csv.map(csv::CsvFile::into_output)
    }
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
    let cfg = scenario.to_world()?;
    let label = level_name(cfg.patches, cfg.legacy);
    let json = |s: &[Summary], _: &[String]| pretty(&s[0]);
    let mut summaries = run_worlds(scenario, vec![(label, cfg)], opts, note, json)?;
    Ok(summaries.remove(0).1)
}

/// Runs both sides of `compare` on `scenario` in lockstep, each side with
/// its files of `opts.files`, and returns their summaries.
pub fn run_compare(
    scenario: &Scenario,
    compare: Compare,
    opts: &RunOptions,
    note: &mut dyn FnMut(String),
) -> Result<Compared> {
    let base = scenario.to_world()?;
    let [a, b] =
        compare.sides(&base)?.ok_or_else(|| Error::invalid("a headless run compares generations or dirty ratios"))?;
    let compared = |s: &[Summary], labels: &[String]| Compared {
        compare: compare.to_string(),
        labels: Labels { a: labels[0].clone(), b: labels[1].clone() },
        a: s[0].clone(),
        b: s[1].clone(),
    };
    let json = |s: &[Summary], labels: &[String]| pretty(&compared(s, labels));
    let summaries = run_worlds(scenario, vec![a, b], opts, note, json)?;
    let labels = [summaries[0].0.clone(), summaries[1].0.clone()];
    let s: Vec<Summary> = summaries.into_iter().map(|(_, s)| s).collect();
    Ok(compared(&s, &labels))
}

/// A summary as `--summary-json` writes it.
fn pretty(value: &impl serde::Serialize) -> Vec<u8> {
    serde_json::to_vec_pretty(value).expect("a summary is numbers and strings")
}

/// One world of a run and where its outputs go.
struct RunSide {
    label: String,
    world: World,
    names: Vec<String>,
    trace: Option<trace::TraceFile>,
    /// The trace events of the last step, in a buffer kept from step to step.
    events: Vec<TraceEvent>,
    follower: Follower,
    /// Wall time spent on this side \[s\].
    wall_s: f64,
    /// The trace's length at the last look at its size (see
    /// [`TraceSize`]) \[bytes\].
    mark_bytes: u64,
    /// The size its last note said it will reach \[bytes\].
    announced: Option<f64>,
}

/// Runs `worlds` (label and configuration) side by side for
/// `opts.duration_ns`, each writing the files of `opts.files` at its
/// index; `json` makes the summary JSON of their summaries and labels.
/// Returns each side's label and summary.
fn run_worlds(
    scenario: &Scenario,
    worlds: Vec<(String, WorldConfig)>,
    opts: &RunOptions,
    note: &mut dyn FnMut(String),
    json: impl FnOnce(&[Summary], &[String]) -> Vec<u8>,
) -> Result<Vec<(String, Summary)>> {
    let hz = worlds[0].1.hz;
    crate::units::at_least_one_jiffy("the run must last", opts.duration_ns, hz)?;
    let mut sides = Vec::new();
    for ((label, mut cfg), files) in worlds.into_iter().zip(&opts.files) {
        let started = Instant::now();
        cfg.trace = files.trace.is_some();
        cfg.check_invariants = opts.check_invariants;
        // The samples of one step, and the one held back, are all a run
        // needs to keep: the follower takes them after every step.
        let per_step = STEP_NS.div_ceil(cfg.sample_ns.max(1)) as usize;
        cfg.sample_retention = 4 * (per_step + 2);
        let world = World::new(&cfg)?;
        let names: Vec<String> = world.bdis().iter().map(|b| b.name.clone()).collect();
        let trace = match &files.trace {
            Some(path) => {
                let mut t = trace::TraceFile::create(path, opts.max_trace_bytes)?;
                t.header(&trace::Header::of(&world, cfg.seed, &scenario.name))?;
                Some(t)
            }
            None => None,
        };
        let csv = files.csv.as_deref().map(|path| csv::CsvFile::create(path, &names)).transpose()?;
        let wall_s = started.elapsed().as_secs_f64();
        sides.push(RunSide {
            label,
            world,
            names,
            trace,
            events: Vec::new(),
            follower: Follower::new(csv).leaving_out(&opts.left_out_s),
            wall_s,
            mark_bytes: 0,
            announced: None,
        });
    }
    let mut summary_json = opts.summary_json.as_deref().map(AtomicFile::create).transpose()?;

    // Advance in short steps, every side in turn, streaming what was
    // recorded while it is still in the cache.
    let mut progress = progress::Simulated::new(opts.duration_ns, opts.progress);
    let sample_ns = (opts.duration_ns / 10).clamp(TRACE_SAMPLE_MIN_NS, TRACE_SAMPLE_MAX_NS).min(opts.duration_ns / 2)
        / STEP_NS
        * STEP_NS;
    let half_ns = sample_ns / 2 / STEP_NS * STEP_NS;
    let mut t = 0;
    while t < opts.duration_ns {
        crate::interrupt::check()?;
        progress.at(t);
        t = (t + STEP_NS).min(opts.duration_ns);
        for side in &mut sides {
            let started = Instant::now();
            side.world.step_until(t);
            if let Some(w) = &mut side.trace {
                side.world.swap_trace(&mut side.events);
                w.events(&side.events, &side.names)?;
                if t == half_ns {
                    side.mark_bytes = w.bytes();
                }
                // Looks at the sample's end and at every doubling of it.
                if sample_ns > 0 && t % sample_ns == 0 && (t / sample_ns).is_power_of_two() && opts.duration_ns > t {
                    let size = TraceSize {
                        bytes: w.bytes(),
                        half_bytes: side.mark_bytes,
                        half_ns: if t == sample_ns { half_ns } else { t / 2 },
                        sample_ns: t,
                        duration_ns: opts.duration_ns,
                    };
                    if let Some((said, line)) = trace_size_note(w, &size, side.announced, opts) {
                        progress.clear();
                        note(line);
                        side.announced = Some(said);
                    }
                    side.mark_bytes = w.bytes();
                }
            }
            side.follower.take(&side.world, false)?;
            side.wall_s += started.elapsed().as_secs_f64();
        }
    }
    drop(progress);
    let mut summaries = Vec::new();
    for side in &mut sides {
        side.follower.take(&side.world, true)?;
        let mut summary = summarise(scenario, &side.world, side.follower.digest(), opts.duration_ns, side.wall_s);
        summary.trace_stopped_s = side.trace.as_ref().and_then(|w| w.stopped_at()).map(|j| j as f64 / hz as f64);
        summaries.push(summary);
    }
    let labels: Vec<String> = sides.iter().map(|s| s.label.clone()).collect();
    if let Some(w) = &mut summary_json {
        let mut text = json(&summaries, &labels);
        text.push(b'\n');
        w.put(&text)?;
    }
    // Every output is written out before any replaces its file: one that
    // fails leaves all of them as they were.
    let mut outputs: Vec<AtomicFile> = Vec::new();
    for side in sides {
        outputs.extend(side.trace.map(trace::TraceFile::into_output).transpose()?);
        outputs.extend(side.follower.into_output());
    }
    outputs.extend(summary_json);
    crate::output::commit_all(outputs)?;
    Ok(labels.into_iter().zip(summaries).collect())
}

/// What a trace has written of a run so far, to tell its size from.
struct TraceSize {
    /// Its length now \[bytes\].
    bytes: u64,
    /// Its length at `half_ns` \[bytes\].
    half_bytes: u64,
    /// Halfway through the sample \[ns\].
    half_ns: u64,
    /// The sample: the run's time now \[ns\].
    sample_ns: u64,
    /// The whole run \[ns\].
    duration_ns: u64,
}

impl TraceSize {
    /// Its length at the end of the run \[bytes\]: what it has, and the
    /// rest of the run at the rate of the second half of the sample, the
    /// first half's settling left out.
    fn estimate(&self) -> f64 {
        let rate = (self.bytes - self.half_bytes) as f64 / (self.sample_ns - self.half_ns) as f64;
        self.bytes as f64 + rate * self.duration_ns.saturating_sub(self.sample_ns) as f64
    }
}

/// A trace already announced is announced again when it looks to grow
/// past what was said by more than this share: a run that settles slowly
/// (hdd-1000dd writes its trace faster after 30 s than before).
const ANNOUNCE_AGAIN_SHARE: f64 = 0.25;

/// The note on a trace's size at a look at it: after a tenth of the run
/// (see [`TRACE_SAMPLE_MIN_NS`]) and at twice, four times ... that time.
/// It tells how big the trace will be when that passes
/// [`ANNOUNCE_TRACE_BYTES`] and either nothing was said yet or it passes
/// what was said (`announced`) by more than [`ANNOUNCE_AGAIN_SHARE`].
/// Returns the size it tells \[bytes\] and the note.
fn trace_size_note(
    w: &trace::TraceFile,
    size: &TraceSize,
    announced: Option<f64>,
    opts: &RunOptions,
) -> Option<(f64, String)> {
    let seconds = size.duration_ns as f64 / NS_PER_SEC as f64;
    let estimate = size.estimate();
    // A trace stopped at its cap grows no more: its length is not a rate
    // (a 2 GiB cap reached at 310 s was told as 0.6 MiB a second).
    let capped = w.stopped_at().is_some() || opts.max_trace_bytes.is_some_and(|cap| (cap as f64) < estimate);
    let big = estimate > opts.announce_trace_bytes.unwrap_or(ANNOUNCE_TRACE_BYTES) as f64;
    let grown = announced.is_none_or(|said| estimate > said * (1.0 + ANNOUNCE_AGAIN_SHARE));
    if !big || capped || !grown {
        return None;
    }
    let says = if announced.is_some() { "grows faster than said: it will be" } else { "will be" };
    let line = format!(
        "note: the trace {} {says} about {:.1} GiB ({:.1} MiB per simulated second for {seconds:.0} s, from its first {} s); --max-trace-size caps it",
        w.path().display(),
        estimate / (1u64 << 30) as f64,
        estimate / seconds / (1u64 << 20) as f64,
        crate::units::trimmed(size.sample_ns as f64 / NS_PER_SEC as f64, 1),
    );
    Some((estimate, line))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::presets;

    /// The samples kept for the CSV's rates stay a few, however many are
    /// taken off the grid (each key that changes a setting takes one): one
    /// dropped per sample taken let each such sample stay for good.
    #[test]
    fn the_samples_kept_for_rates_stay_few() {
        let cfg = presets::get("default").expect("preset").expect("valid").to_world().expect("world");
        let mut world = World::new(&cfg).expect("world");
        let mut follower = Follower::new(None);
        for i in 1..=200u64 {
            // A sample 1 µs after every grid sample, as a key there takes.
            world.step_until(i * NS_PER_SEC / 10 + 1_000);
            world.sample_now();
            world.step_until(i * NS_PER_SEC / 10 + 2_000);
            follower.take(&world, false).expect("no CSV to fail");
            assert!(follower.recent.len() <= 3, "{} kept at {i}", follower.recent.len());
        }
        let t: Vec<u64> = follower.recent.iter().map(|s| s.t_ns).collect();
        // The latest at least 50 ms before the next row, and those after it.
        assert!(t.len() >= 2 && t[1] + RATE_SPAN_NS > world.now_ns(), "{t:?}");
    }
}
