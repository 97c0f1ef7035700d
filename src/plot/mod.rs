//! `dirtyviz plot`: runs a world, or a lesson up to one of its steps,
//! headless through a [`Session`] (as the dashboard and `dirtyviz check`
//! do) and writes the dashboard's five charts as figures for slides and
//! papers, in the spirit of the series author's trace plots:
//!
//! ```text
//!   Source ──> Session (1 or 2 worlds in lockstep) ──advance 1 s──┐
//!                  ^                                              │
//!                  └──────────── collect::Collector <─────────────┘
//!                                 │ thinned lines, pauses, raw means
//!                                 v
//!                        chart::Figure x 5 ──draw──> 1-global-dirty.svg ...
//! ```

mod chart;
mod collect;
mod draw;

use std::path::{Path, PathBuf};

use crate::cli::{PlotArgs, PlotFormat, SimTime};
use crate::error::{Error, Result};
use crate::ktrace::side::KernelSide;
use crate::lesson::Lesson;
use crate::lesson::runner::LessonRun;
use crate::output::{AtomicFile, Named, check_distinct};
use crate::scenario::Scenario;
use crate::session::{Compare, Session, SessionOptions};
use crate::sim::config::NS_PER_SEC;
use crate::units::mib;

/// What to plot.
pub enum Source {
    /// A world, alone or beside its comparison, from time 0.
    World {
        /// The scenario.
        scenario: Box<Scenario>,
        /// The A/B comparison, if any.
        compare: Option<Compare>,
    },
    /// A lesson's step, after running the steps before it.
    Lesson {
        /// A shipped lesson id or a lesson file.
        lesson: String,
        /// The step, from 1.
        step: usize,
        /// The seed to run instead of the lesson's own (`--seed`).
        seed: Option<u64>,
    },
    /// A recorded kernel trace (ftrace, `trace-cmd report`, `perf
    /// script`), whole, on its clock from its first event.
    Trace {
        /// The trace file.
        path: String,
    },
}

/// How to plot.
#[derive(Clone, Debug)]
pub struct PlotOptions {
    /// Directory of the figures.
    pub out: PathBuf,
    /// File format.
    pub format: PlotFormat,
    /// Simulated time to plot; default the scenario's or the step's.
    pub duration: Option<SimTime>,
    /// The bdi of charts 2 to 5, by name or index.
    pub bdi: Option<String>,
}

/// The options `dirtyviz plot` was given.
pub fn options(args: &PlotArgs) -> PlotOptions {
    PlotOptions { out: args.out.clone(), format: args.format, duration: args.duration, bdi: args.bdi.clone() }
}

/// Figure sizes: SVG in CSS pixels (a 16:9 slide), PNG at 1.5 times that.
fn geometry(format: PlotFormat) -> ((u32, u32), f64) {
    match format {
        PlotFormat::Svg => ((1280, 720), 1.0),
        PlotFormat::Png => ((1920, 1080), 1.5),
    }
}

/// Time columns the lines are thinned to: about one per pixel of the plot.
const COLUMNS: usize = 900;

/// A session positioned where the figures start, and what they are of.
struct Start {
    session: Session,
    start_ns: u64,
    duration_ns: u64,
    bdi: usize,
    run: String,
}

fn start(source: Source, opts: &PlotOptions) -> Result<Start> {
    let err = Error::invalid;
    let (session, start_ns, default_ns, bdi, run) = match source {
        Source::World { scenario, compare } => {
            let default_ns = (scenario.duration_s * 1e9) as u64;
            let name = if scenario.name.is_empty() { "scenario".to_string() } else { scenario.name.clone() };
            let run = format!("{name}, seed {}", scenario.seed);
            let session = Session::new(*scenario, compare, SessionOptions::default())?;
            (session, 0, default_ns, 0, run)
        }
        Source::Lesson { lesson, step, seed } => {
            let lesson = Lesson::resolve(&lesson)?.with_seed(seed);
            let steps = lesson.steps.len();
            if step == 0 || step > steps {
                return Err(err(format!("lesson {} has steps 1 to {steps}, not {step}", lesson.id)));
            }
            let (run, session, _) = LessonRun::seek(lesson, step - 1, SessionOptions::default())?;
            let s = &run.lesson.steps[run.step];
            // The seed it ran, the lesson's own or --seed's: a figure
            // says which numbers it shows.
            let text = format!("lesson {} step {step}: {}, seed {}", run.lesson.id, s.title, session.scenario.seed);
            let default_ns = (s.run_s * NS_PER_SEC as f64) as u64;
            (session, run.step_start_ns, default_ns, run.bdi, text)
        }
        Source::Trace { .. } => unreachable!("plot() reads a trace, it does not run one"),
    };
    let bdis = session.world().bdis();
    let bdi = match &opts.bdi {
        None => bdi,
        Some(name) => pick_bdi(name, bdis.len(), |i| [bdis[i].name.clone()], "this world")?,
    };
    let hz = session.world().hz();
    let duration_ns = match opts.duration {
        Some(t) => t.ns_of_a_jiffy_or_more("--duration", hz)?,
        None => default_ns.max(1),
    };
    Ok(Start { session, start_ns, duration_ns, bdi, run })
}

/// The control lines of a source at its end, as the dashboard's chart 3
/// draws them.
fn curves(src: &crate::ui::charts::Source, bdi: usize) -> chart::Curves {
    use crate::ui::charts;
    let p = charts::pos_ratio(src, bdi, COLUMNS as u16 / 2);
    let mut c = chart::Curves { bdi_now: p.now_on("bdi line"), ..chart::Curves::default() };
    if let Some(last) = src.samples.back() {
        c.now = last.bdis.get(bdi).and_then(|b| b.pos_ratio).map(|r| (mib(last.dirty), r as f64 / 1024.0));
        c.marks = [mib(last.freerun), mib(last.setpoint), mib(last.limit)];
    }
    c.curves = p.series.into_iter().map(|s| (s.name.to_string(), s.points)).collect();
    c
}

/// Where the figures go: `opts.out`, which must be a directory or a name
/// in one that exists (it is made, not its parents), and the five files
/// in it, none of them one of `inputs`. Checked before anything runs.
fn figure_paths(opts: &PlotOptions, inputs: &[Option<&str>]) -> Result<Vec<PathBuf>> {
    let out = &opts.out;
    crate::output::name_fits(out)?;
    crate::output::not_standard_output("--out", out, "name the directory the five figures go to")?;
    if out.exists() && !out.is_dir() {
        return Err(Error::invalid(format!("--out {}: not a directory", out.display())));
    }
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let ext = match opts.format {
        PlotFormat::Svg => "svg",
        PlotFormat::Png => "png",
    };
    // `--out fig.png` names a file: the five figures need a directory.
    let named = out.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    if !out.exists()
        && let Some(named) = named.filter(|e| e == "svg" || e == "png")
    {
        return Err(Error::invalid(format!(
            "--out {}: names a file, but --out is the directory the five figures go to ({}.{ext} ...); \
             give a directory{}",
            out.display(),
            chart::FILES[0],
            if named == "png" && ext != "png" { " (and --format png for PNG)" } else { "" }
        )));
    }
    if !out.exists() && parent.exists() && !parent.is_dir() {
        return Err(Error::invalid(format!(
            "--out {}: {} is a file, not a directory",
            out.display(),
            parent.display()
        )));
    }
    if !out.exists() && !parent.is_dir() {
        return Err(Error::invalid(format!(
            "--out {}: the directory {} does not exist (dirtyviz makes --out, not its parents)",
            out.display(),
            parent.display()
        )));
    }
    let paths: Vec<PathBuf> = chart::FILES.iter().map(|f| out.join(format!("{f}.{ext}"))).collect();
    // A directory not there yet holds none of the inputs.
    if out.is_dir() {
        let inputs: Vec<Named> = ["the scenario", "the lesson", "the trace"]
            .into_iter()
            .zip(inputs)
            .filter_map(|(role, p)| Some(Named { role, path: Path::new((*p)?) }))
            .collect();
        let outputs: Vec<Named> = paths.iter().map(|path| Named { role: "the figure", path }).collect();
        check_distinct(&inputs, &outputs)?;
    }
    Ok(paths)
}

/// What the five figures are drawn from.
struct Gathered {
    ctx: chart::Context,
    sides: Vec<collect::SideData>,
    curves: Vec<chart::Curves>,
}

/// What the collector reads of every side of `session`.
fn feeds(session: &Session) -> Vec<collect::Feed<'_>> {
    session.sides.iter().map(collect::Feed::of).collect()
}

/// Runs a world or a lesson step headless and gathers its figures' data.
fn simulate(source: Source, opts: &PlotOptions) -> Result<Gathered> {
    use crate::ui::charts;
    let Start { mut session, start_ns, duration_ns, bdi, run } = start(source, opts)?;
    let end_ns = start_ns + duration_ns;
    let mut collector = collect::Collector::new(&feeds(&session), bdi, start_ns, end_ns, COLUMNS);
    let mut t = start_ns;
    collector.take(&feeds(&session));
    let mut progress = crate::run::progress::Simulated::new(duration_ns, true);
    while t < end_ns {
        crate::interrupt::check()?;
        progress.at(t - start_ns);
        t = (t + NS_PER_SEC).min(end_ns);
        session.advance_to(t);
        collector.take(&feeds(&session));
    }
    Ok(Gathered {
        ctx: chart::Context {
            run: format!("{run}; {} s simulated", crate::units::seconds(duration_ns as f64 / 1e9)),
            bdi: session.world().bdis()[bdi].name.clone(),
            span: [start_ns as f64 / 1e9, end_ns as f64 / 1e9],
        },
        sides: collector.finish(),
        curves: session.sides.iter().map(|side| curves(&charts::Source::of(side), bdi)).collect(),
    })
}

/// The bdi `--bdi name` picks of `n`: the first whose `names` (the first
/// of them is how the error lists it) include `name`, else bdi number
/// `name` from 0; an error naming those of `of` otherwise.
fn pick_bdi<const K: usize>(name: &str, n: usize, names: impl Fn(usize) -> [String; K], of: &str) -> Result<usize> {
    (0..n).find(|&i| names(i).iter().any(|b| b == name)).or_else(|| name.parse().ok().filter(|&i| i < n)).ok_or_else(
        || {
            let listed: Vec<String> = (0..n).map(|i| names(i)[0].clone()).collect();
            let has = match n {
                0 => "no bdi".to_string(),
                1 => format!("{} (or 0)", listed.join(", ")),
                _ => format!("{} (or 0 to {})", listed.join(", "), n - 1),
            };
            Error::invalid(format!("--bdi {name}: no such bdi; {of} has {has}"))
        },
    )
}

/// The bdi `--bdi` names in a trace: as the dashboard labels it (the
/// trace's own name, `8:0`), as the trace names it, or by number from 0.
fn trace_bdi(side: &KernelSide, name: Option<&str>) -> Result<usize> {
    let Some(name) = name else { return Ok(0) };
    let names = |i| [side.bdi_label(i).to_string(), side.bdi_names()[i].to_string(), side.bdi_short(i)];
    pick_bdi(name, side.bdi_names().len(), names, "this trace")
}

/// The shortest span a trace is plotted over (one of a single instant) \[ns\].
const TRACE_MIN_SPAN_NS: u64 = 1_000_000;

/// Reads a kernel trace whole and gathers its figures' data, as its
/// dashboard charts it: the trace's time from its first event, its
/// kernel's control lines at its end.
fn trace(path: &str, opts: &PlotOptions) -> Result<Gathered> {
    use crate::ktrace::side::Quantity;
    let mut side = KernelSide::open(path)?;
    let bdi = trace_bdi(&side, opts.bdi.as_deref())?;
    let label = "kernel".to_string();
    let end_ns = side.end_ns().max(TRACE_MIN_SPAN_NS);
    // Nothing is shown yet: the collector starts at the trace's start.
    let mut collector = collect::Collector::new(&[collect::Feed::of_trace(&side, &label)], bdi, 0, end_ns, COLUMNS);
    // Row by row: the collector takes each with the bdi's last events
    // before it, where its lines start.
    let mut t = 0;
    loop {
        crate::interrupt::check()?;
        side.seek(t);
        collector.take(&[collect::Feed::of_trace(&side, &label)]);
        match side.next_row_ns(t) {
            Some(next) => t = next,
            None => break,
        }
    }
    let absent = side.coverage().missing(&[(Quantity::BdiSetpoint, "bdi_setpoint")], bdi).or_else(|| {
        // The bdi's setpoint printed a while before the end is not the
        // one its control lines had there.
        let end = side.samples().back()?;
        let pass =
            side.last_pass_ns(bdi).filter(|_| !side.coverage().known_at(Quantity::BdiSetpoint, bdi, end.t_ns))?;
        Some(format!("the bdi's last pass was {:.1} s before the end", end.t_ns.saturating_sub(pass) as f64 / 1e9))
    });
    let c = match absent {
        Some(why) => chart::Curves { absent: Some(why), ..chart::Curves::default() },
        None => curves(&crate::ui::kernel::trace_source(&side), bdi),
    };
    let file = Path::new(path).file_name().map_or(path.into(), |f| f.to_string_lossy());
    // As the viewer gives it: `19.996 s`, a short one `49.9 ms`.
    let secs = side.end_ns() as f64 / 1e9;
    let secs = match secs >= 1.0 {
        true => format!("{} s", crate::units::seconds(secs)),
        false => crate::ktrace::summary::duration_text(secs),
    };
    Ok(Gathered {
        ctx: chart::Context {
            run: format!("trace {file}, kernel {}; {secs} from its first event", side.release()),
            bdi: side.bdi_label(bdi).to_string(),
            span: [0.0, end_ns as f64 / 1e9],
        },
        sides: collector.finish(),
        curves: vec![c],
    })
}

/// Runs `source` (or reads it, a trace) and writes the five figures into
/// `opts.out`; `inputs` are the scenario, lesson and trace files it
/// reads, never written over. Returns what was written, one line per
/// figure. Ctrl-C stops it ([`Error::Interrupted`]) with every file as it
/// was.
pub fn plot(source: Source, opts: &PlotOptions, inputs: &[Option<&str>]) -> Result<String> {
    let paths = figure_paths(opts, inputs)?;
    crate::interrupt::catch();
    let Gathered { ctx, sides, curves } = match source {
        Source::Trace { path } => trace(&path, opts)?,
        source => simulate(source, opts)?,
    };
    let figures = [
        chart::global_dirty(&ctx, &sides),
        chart::bdi_dirty(&ctx, &sides),
        chart::pos_ratio(&ctx, &sides, &curves),
        chart::rates(&ctx, &sides),
        chart::pauses(&ctx, &sides),
    ];
    crate::interrupt::check()?;
    let made = !opts.out.is_dir();
    if made {
        let parent = opts.out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        std::fs::create_dir(&opts.out).map_err(|e| {
            crate::output::cannot_create_in(&opts.out, parent, "--out makes one directory, not its parents", false, e)
        })?;
    }
    let written = write_figures(figures, paths, opts);
    if written.is_err() && made {
        // A directory made for figures that were not written is not left
        // behind (it is still empty: nothing was renamed into it).
        let _ = std::fs::remove_dir(&opts.out);
    }
    written
}

/// Draws `figures` into `paths`, each replacing its file once all are
/// drawn; returns the report, a line per figure.
fn write_figures(figures: [chart::Figure; 5], paths: Vec<PathBuf>, opts: &PlotOptions) -> Result<String> {
    let (size, k) = geometry(opts.format);
    let mut report = String::new();
    // Every figure is drawn before any replaces its file: one that fails
    // leaves all of them as they were.
    let mut outputs = Vec::new();
    for (mut f, path) in figures.into_iter().zip(paths) {
        f.thin_dots(size, k);
        let mut out = AtomicFile::create(&path)?;
        match opts.format {
            PlotFormat::Svg => out.put(draw::svg(&f, size, k).map_err(Error::invalid)?.as_bytes())?,
            PlotFormat::Png => out.put(&draw::png(&f, size, k).map_err(Error::invalid)?)?,
        }
        out.flush()?;
        outputs.push(out);
        report.push_str(&format!("{}: {}\n", crate::error::printable(&path.display().to_string()), f.title));
        for line in f.subtitle.iter().skip(1) {
            report.push_str(&format!("  {line}\n"));
        }
    }
    crate::interrupt::check()?;
    crate::output::commit_all(outputs)?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::presets;
    use crate::scratch::Scratch;

    fn run(preset: &str, patches: Option<u8>, compare: Option<Compare>, secs: u64) -> Vec<collect::SideData> {
        let mut s = presets::get(preset).expect("preset").expect("valid");
        if let Some(p) = patches {
            s.patches = p;
        }
        let source = Source::World { scenario: Box::new(s), compare };
        let opts = PlotOptions { out: PathBuf::new(), format: PlotFormat::Svg, duration: None, bdi: None };
        let Start { mut session, .. } = start(source, &opts).expect("starts");
        let end = secs * NS_PER_SEC;
        let mut c = collect::Collector::new(&feeds(&session), 0, 0, end, 50);
        for t in 1..=secs {
            session.advance_to(t * NS_PER_SEC);
            c.take(&feeds(&session));
        }
        c.finish()
    }

    #[test]
    fn thinned_lines_keep_the_extremes_and_counts_come_from_every_pause() {
        let mut s = presets::get("hdd-10dd").expect("preset").expect("valid");
        s.duration_s = 10.0;
        let mut session = Session::new(s, None, SessionOptions::default()).expect("session");
        let mut c = collect::Collector::new(&feeds(&session), 0, 0, 10 * NS_PER_SEC, 20);
        for t in 1..=10 {
            session.advance_to(t * NS_PER_SEC);
            c.take(&feeds(&session));
        }
        let w = session.world();
        let sides = c.finish();
        let line = sides[0].line(collect::Q::Dirty);
        assert!(line.len() <= 40, "two points per column at most: {}", line.len());
        let raw_max = w.samples().iter().map(|s| mib(s.dirty)).fold(0.0, f64::max);
        assert_eq!(line.iter().map(|p| p.1).fold(0.0, f64::max), raw_max);
        let sleeps = w.pause_log().iter().filter(|r| !r.call && r.t_ns > 0).count() as u64;
        assert!(sleeps > 1000, "{sleeps}");
        assert_eq!(sides[0].sleep_hist.count(), sleeps, "every sleep counted once");
    }

    #[test]
    fn a_legacy_kernel_draws_its_freerun_but_no_setpoint_and_no_pos_ratio_and_says_so() {
        let sides = run("hdd-10dd", Some(0), None, 5);
        let ctx = chart::Context { run: "test".into(), bdi: "sda".into(), span: [0.0, 5.0] };
        let global = chart::global_dirty(&ctx, &sides);
        assert!(global.lines.iter().all(|l| !l.label.contains("setpoint")));
        assert!(global.lines.iter().any(|l| l.label.starts_with("freerun")), "3.1 throttles no task below it");
        assert!(
            global.notes.iter().any(|n| n.ends_with(": no setpoint (not used by this kernel)")),
            "{:?}",
            global.notes
        );
        let rates = chart::rates(&ctx, &sides);
        // Ten tasks: one task's rates zoomed below the whole plot.
        let upper = rates.upper.as_ref().expect("ten tasks: the whole plot above");
        assert!(upper.lines.iter().all(|l| !l.label.contains("ratelimit")), "{:?}", rates.notes);
        for label in ["written", "target", "dirtied/N"] {
            assert!(upper.lines.iter().any(|l| l.label.starts_with(label)), "3.1 draws {label}");
        }
        // As the dashboard's chart 4: 3.1's target is write_bw/N, and each
        // task dirties about that much once the first burst has passed.
        let last = |label: &str| {
            let line = upper.lines.iter().find(|l| l.label.starts_with(label)).expect(label);
            line.points.iter().rev().find(|p| p.1.is_finite()).expect("a value").1
        };
        let (target, each) = (last("target"), last("dirtied/N"));
        assert!((each / target - 1.0).abs() < 0.25, "dirtied/N {each} against the target {target} MiB/s");
        let bdi = chart::bdi_dirty(&ctx, &sides);
        assert!(
            bdi.notes.iter().all(|n| !n.contains("as printed, up to a second after each pass")),
            "a simulation holds nothing: {:?}",
            bdi.notes
        );
        let pos = chart::pos_ratio(&ctx, &sides, &[chart::Curves::default()]);
        assert!(pos.lines.is_empty() && pos.dots.is_empty());
        assert!(pos.message.as_deref().is_some_and(|m| m.contains("patch 02")));
    }

    /// One dd dirties memory at 800 MiB/s until it is throttled: that
    /// start is cut at the top, not made the scale of the rate limits
    /// (task_ratelimit starts near twice the 100 MiB/s dirty_ratelimit).
    #[test]
    fn the_first_seconds_dirty_rate_does_not_flatten_the_rates() {
        let ctx = chart::Context { run: "test".into(), bdi: "sda".into(), span: [0.0, 10.0] };
        let sides = run("default", None, None, 10);
        let rates = chart::rates(&ctx, &sides);
        assert!(rates.upper.is_none(), "one task: one plot");
        assert!(rates.y[1] < 400.0, "the top follows the rate limits: {:?}", rates.y);
        assert!(rates.notes.iter().any(|n| n == "dirtied/N is cut at the top of the plot"), "{:?}", rates.notes);
    }

    #[test]
    fn one_tasks_rates_are_zoomed_under_the_whole_plot_when_the_bdis_flatten_them() {
        let ctx = chart::Context { run: "test".into(), bdi: "sda".into(), span: [0.0, 10.0] };
        let sides = run("hdd-10dd", None, None, 10);
        let rates = chart::rates(&ctx, &sides);
        let upper = rates.upper.as_ref().expect("ten tasks: the whole plot above");
        assert!(
            upper.lines.iter().any(|l| l.label == "write_bw")
                && upper.lines.iter().any(|l| l.label == "dirty_ratelimit")
        );
        assert!(rates.lines.iter().all(|l| l.label.is_empty()), "each named once, above");
        assert!(rates.y[1] < upper.y[1] / 2.0, "{:?} under {:?}", rates.y, upper.y);
        // The lower plot holds what one task got over the second half, and
        // nothing drawn there passes its top.
        let late = |q| sides[0].line(q).iter().filter(|p| p.0 >= 5.0).map(|p| p.1).fold(0.0, f64::max);
        let most = [collect::Q::Target, collect::Q::TaskRatelimit, collect::Q::DirtyRatelimit].map(late);
        assert_eq!(rates.y[1], most.iter().copied().fold(0.0, f64::max) * 1.25, "{most:?}");
        assert!(rates.lines.iter().flat_map(|l| &l.points).all(|p| p.1 <= rates.y[1]));
        // dirty_ratelimit starts at write_bw, far above: it enters the
        // lower plot only once it has come down.
        let first = |l: &&chart::Line| l.colour == chart::colour::BLACK;
        let rate_from = rates.lines.iter().filter(first).flat_map(|l| &l.points).map(|p| p.0).fold(f64::MAX, f64::min);
        assert!(rate_from > 0.5 && rate_from < 10.0, "{rate_from}");
        // One task gets the whole disk: one plot.
        let one = run("default", None, None, 10);
        assert!(chart::rates(&ctx, &one).upper.is_none());
    }

    /// The five figures of `preset` (beside `compare`) over `secs`.
    fn figures(preset: &str, compare: Option<Compare>, secs: f64) -> [chart::Figure; 5] {
        let s = presets::get(preset).expect("preset").expect("valid");
        let source = Source::World { scenario: Box::new(s), compare };
        let duration = Some(SimTime::Seconds(secs));
        let opts = PlotOptions { out: PathBuf::new(), format: PlotFormat::Svg, duration, bdi: None };
        let Gathered { ctx, sides, curves } = simulate(source, &opts).expect("runs");
        [
            chart::global_dirty(&ctx, &sides),
            chart::bdi_dirty(&ctx, &sides),
            chart::pos_ratio(&ctx, &sides, &curves),
            chart::rates(&ctx, &sides),
            chart::pauses(&ctx, &sides),
        ]
    }

    /// A bdi no task dirtied over the second half has no target: chart
    /// 4's subtitle says so, where it read "against a target of 0 MiB/s".
    #[test]
    fn a_bdi_without_tasks_has_no_target_in_the_rates_subtitle() {
        // switch-disk's dd on sda stops at 20 s: none from 30 s to 60 s.
        let idle = &figures("switch-disk", None, 60.0)[3].subtitle[1];
        assert!(idle.contains("dirty_ratelimit 100 MiB/s; no task dirtying sda, so no target ("), "{idle}");
        assert!(!idle.contains("target of"), "{idle}");
        let busy = &figures("default", None, 4.0)[3].subtitle[1];
        assert!(busy.contains(" MiB/s against a target of "), "{busy}");
        assert!(!busy.contains("target of 0 "), "{busy}");
    }

    /// 2.6.38's calls of seconds beside patch 11's sleeps of tens of ms:
    /// on a linear axis to 4 s those sleeps were a line along the floor
    /// (1% of the height). The pause axis is logarithmic then, labelled
    /// at each power of ten, and both sides read; one side, or sides
    /// whose pauses are alike, keep a linear axis.
    #[test]
    fn the_pause_axis_is_logarithmic_where_the_sides_differ_tenfold() {
        let compare = Compare::parse("2.6.38").expect("parses");
        let f = &figures("hdd-10dd", Some(compare), 30.0)[4];
        assert!(f.y_log, "{:?}", f.y);
        assert!(f.y[0] <= 0.0 && f.y[1] > 3.0, "from 1 ms or less to over a second: {:?}", f.y);
        assert!(f.y_desc.ends_with("(log scale)"), "{}", f.y_desc);
        assert!(
            f.notes.iter().any(|n| n.starts_with("pause axis logarithmic: one side's longest throttling call is "))
        );
        let height = |ms: f64| (ms.log10() - f.y[0]) / (f.y[1] - f.y[0]);
        // Patch 11's sleeps, as logarithms, and 2.6.38's longest call.
        let b: Vec<f64> = f.dots[1].points.iter().map(|p| p.1).collect();
        assert!(b.len() > 1000, "{}", b.len());
        let median = {
            let mut b = b.clone();
            b.sort_by(f64::total_cmp);
            10f64.powf(b[b.len() / 2])
        };
        assert!(median > 20.0 && median < 80.0, "{median}");
        assert!(height(median) > 0.4, "patch 11's median sleep at {} of the height", height(median));
        let longest = f.dots[2].points.iter().map(|p| 10f64.powf(p.1)).fold(0.0, f64::max);
        assert!(longest > 1000.0 && height(longest) < 1.0, "{longest}");
        // Labelled at each power of ten.
        let (size, k) = geometry(PlotFormat::Svg);
        let svg = draw::svg(f, size, k).expect("draws");
        // Each text is its own line between its tags.
        let texts: Vec<&str> = svg.lines().map(str::trim).collect();
        for label in ["1", "10", "100", "1000"] {
            assert!(texts.contains(&label), "{label}");
        }
        assert!(!texts.contains(&"500"), "no linear ticks");
        for compare in [None, Some(Compare::Legacy(11))] {
            let f = &figures("hdd-10dd", compare, 5.0)[4];
            assert!(!f.y_log && f.y[0] == 0.0, "{compare:?}: {:?}", f.y);
        }
    }

    /// The lines are drawn from samples 100 ms apart; the run's peak,
    /// from every dirtying, is in chart 1's subtitle, as `run` reports it
    /// (a figure of jbod-10hdd never showed its 35.5 MiB over the limit).
    #[test]
    fn chart_1_tells_the_runs_peak_between_samples() {
        let [global, ..] = figures("default", None, 10.0);
        let line = &global.subtitle[1];
        let peak = line.split("; peak ").nth(1).unwrap_or_else(|| panic!("{line}"));
        assert!(peak.ends_with(" vs limit)"), "{line}");
        let drawn = global.lines.iter().find(|l| l.label.starts_with("dirty")).expect("dirty line");
        let most = drawn.points.iter().map(|p| p.1).fold(0.0, f64::max);
        let told: f64 = peak.split(' ').next().and_then(|v| v.parse().ok()).expect("a number");
        assert!(told >= most - 0.5, "the peak {told} is at least the drawn {most}");
        // 2.6.38 has no smoothed limit: its peak is against thresh, as
        // `run` says it.
        let compare = Compare::parse("2.6.38").expect("parses");
        let [global, ..] = figures("default", Some(compare), 3.0);
        assert!(global.subtitle[1].starts_with("legacy 2.6.38") && global.subtitle[1].ends_with(" vs thresh)"));
        assert!(global.subtitle[2].ends_with(" vs limit)"), "{:?}", global.subtitle);
    }

    /// Patches 04 to 06 compute the rates but throttle by them only from
    /// patch 07: chart 4 says so, as chart 3 does of pos_ratio.
    #[test]
    fn the_rates_of_a_kernel_that_computes_them_unused_carry_a_note() {
        let unused = |compare: &str| {
            let [.., rates, _] = figures("default", Some(Compare::parse(compare).expect("parses")), 3.0);
            rates.notes.into_iter().filter(|n| n.contains("used to throttle only from")).collect::<Vec<_>>()
        };
        // Patch 05 beside patch 06: both.
        let notes = unused("patches=6");
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(notes[1].starts_with("patch 06 (IO-full): dirty_ratelimit, balanced and task_ratelimit computed"));
        // 3.1, which has none, beside patch 11, which throttles by them.
        assert_eq!(unused("legacy"), Vec::<String>::new());
    }

    /// One run whose longest call lasts over ten times its longest sleep
    /// (nfs-10dd: 5 s beside 98 ms) draws its pauses on a log axis too.
    #[test]
    fn one_runs_pause_axis_is_logarithmic_where_its_calls_outlast_its_sleeps_tenfold() {
        let f = &figures("nfs-10dd", None, 20.0)[4];
        assert!(f.y_log, "{:?}", f.y);
        let note = f.notes.iter().find(|n| n.starts_with("pause axis logarithmic: the longest call is "));
        assert!(note.is_some_and(|n| n.ends_with(" times the longest sleep")), "{:?}", f.notes);
    }

    /// A 4 TiB world's sizes are drawn in GiB (its axis labels ran to
    /// seven digits, into the axis's name), a 16 MiB world's in KiB.
    #[test]
    fn sizes_past_9999_mib_are_drawn_in_gib_and_under_a_tenth_in_kib() {
        let figures_of = |text: &str| {
            let s = crate::scenario::Scenario::from_ron(text, "t.ron").expect("valid");
            let source = Source::World { scenario: Box::new(s), compare: None };
            let opts = PlotOptions {
                out: PathBuf::new(),
                format: PlotFormat::Svg,
                duration: Some(SimTime::Seconds(5.0)),
                bdi: None,
            };
            let Gathered { ctx, sides, curves } = simulate(source, &opts).expect("runs");
            (chart::global_dirty(&ctx, &sides), chart::pos_ratio(&ctx, &sides, &curves))
        };
        let huge = "Scenario(memory_mb: 4194304, dirty_ratio: 100, dirty_background_ratio: 50, \
                    devices: [(name: \"sda\", kind: Hdd)], tasks: [Dd(bdi: \"sda\", n: 10)])";
        let (global, pos) = figures_of(huge);
        assert_eq!(global.y_desc, "pages [GiB]");
        assert!(
            global.subtitle[1].contains(" GiB; peak ") && global.subtitle[1].contains(" GiB vs limit)"),
            "{:?}",
            global.subtitle
        );
        assert!(global.y[1] > 3500.0 && global.y[1] < 4500.0, "{:?}", global.y);
        let limit = global.lines.iter().find(|l| l.label.starts_with("limit")).expect("limit line");
        assert!(limit.points.iter().all(|p| p.1 > 3000.0 && p.1 < 4096.0), "in GiB: {:?}", &limit.points[..2]);
        assert!(pos.x_desc.starts_with("dirty pages [GiB]") && pos.x[1] < 4500.0, "{} {:?}", pos.x_desc, pos.x);
        assert!(pos.marks.iter().all(|m| m.x < 4096.0), "{:?}", pos.marks.iter().map(|m| m.x).collect::<Vec<_>>());
        let tiny = "Scenario(memory_mb: 16, dirty_bytes: 8192, \
                    devices: [(name: \"sda\", kind: Hdd)], tasks: [Dd(bdi: \"sda\", n: 1)])";
        let (global, _) = figures_of(tiny);
        assert_eq!(global.y_desc, "pages [KiB]");
        assert!(global.subtitle[1].contains(", setpoint 4 KiB; peak "), "{:?}", global.subtitle);
        assert!(global.y[1] > 8.0 && global.y[1] < 100.0, "{:?}", global.y);
        let (global, _) = figures_of("Scenario(devices: [(name: \"sda\", kind: Hdd)], tasks: [Dd(bdi: \"sda\")])");
        assert_eq!(global.y_desc, "pages [MiB]");
        // Every size of a subtitle in its axis' unit: at a 64 KiB
        // threshold, the line's dirty pages and setpoint read `63.7 KiB`
        // beside `peak 0.184 MiB`, which passes the sampled lines.
        let small = "Scenario(memory_mb: 64, dirty_bytes: 65536, dirty_background_bytes: 32768, \
                     devices: [(name: \"sda\", kind: Hdd)], tasks: [Dd(bdi: \"sda\", n: 2)])";
        let (global, _) = figures_of(small);
        let line = &global.subtitle[1];
        let unit = global.y_desc.strip_prefix("pages [").and_then(|u| u.strip_suffix(']')).expect("a size axis");
        assert_eq!(line.matches(&format!(" {unit}")).count(), 4, "dirty, setpoint, peak and over: {line}");
        for other in ["KiB", "MiB", "GiB"].into_iter().filter(|u| *u != unit) {
            assert!(!line.contains(other), "{unit} axis: {line}");
        }
    }

    /// Printed in grey, or to a colour-blind reader, the lines of a
    /// figure differ by more than colour: each named line has a dash
    /// pattern and glyph no other of its figure has, and side B of a
    /// comparison draws every line the dash and glyph of side A's of its
    /// colour, hollow, and its dots in other shapes.
    #[test]
    fn the_lines_of_a_figure_differ_without_colour_and_side_b_is_hollow() {
        use chart::Shape;
        for compare in [None, Some(Compare::Legacy(11)), Some(Compare::Patch(7))] {
            for f in figures("hdd-10dd", compare, 5.0) {
                let lines: Vec<&chart::Line> = f.upper.iter().flat_map(|p| &p.lines).chain(&f.lines).collect();
                let named: Vec<&&chart::Line> = lines.iter().filter(|l| !l.label.is_empty()).collect();
                let mut looks: Vec<_> = named.iter().map(|l| (l.dash, l.glyph)).collect();
                looks.sort();
                looks.dedup();
                assert_eq!(looks.len(), named.len(), "{}: {compare:?}: {:?}", f.file, named);
                for l in &lines {
                    let twin = named.iter().find(|n| n.colour == l.colour).expect("named by its colour");
                    assert_eq!((l.dash, l.glyph), (twin.dash, twin.glyph), "{}: {}", f.file, twin.label);
                }
                let hollow = lines.iter().filter(|l| l.hollow).count();
                match compare {
                    None => assert_eq!(hollow, 0, "{}", f.file),
                    // Each side's own dirty pages.
                    Some(_) if f.file == "1-global-dirty" => {
                        assert!(hollow > 0 && hollow < lines.len(), "{}: {hollow}", f.file)
                    }
                    Some(_) => {}
                }
            }
        }
        let pauses = &figures("hdd-10dd", Some(Compare::Legacy(11)), 5.0)[4];
        let shapes: Vec<Shape> = pauses.dots.iter().map(|d| d.shape).collect();
        assert_eq!(shapes, [Shape::Disc, Shape::Ring, Shape::Cross, Shape::Plus], "sleeps A, B; calls A, B");
    }

    /// However long the run, the pauses figure holds no more dots than
    /// its plot has cells the size of a dot, and a pause far from the
    /// others is among them.
    #[test]
    fn thinned_dots_are_bounded_by_the_plot_and_keep_a_lone_spike() {
        let (size, k) = geometry(PlotFormat::Svg);
        let (w, h) = chart::plot_size(size, k);
        let mut f = figures("default", None, 1.0)[4].clone();
        f.x = [0.0, 36_000.0];
        f.y = [0.0, 400.0];
        // A million sleeps between 30 and 60 ms over ten hours, one of 300 ms.
        let mut band: Vec<(f64, f64)> =
            (0..1_000_000_i64).map(|i| (i as f64 * 0.036, 30.0 + (i * 7919 % 300) as f64 / 10.0)).collect();
        band.insert(543_210, (19_555.5, 300.0));
        f.dots[0].points = band;
        let r = f.dots[0].radius;
        f.thin_dots(size, k);
        let kept = &f.dots[0].points;
        let cells = (w / (2.0 * r) + 1.0) * (h / (2.0 * r) + 1.0);
        assert!((kept.len() as f64) < cells * (60.0 - 30.0) / 400.0 + 500.0, "{} dots", kept.len());
        assert!(kept.len() > 1000, "the band is still drawn: {}", kept.len());
        assert!(kept.contains(&(19_555.5, 300.0)), "the spike is kept");
        // Drawn, the dots take a few dozen bytes each.
        let svg = draw::svg(&f, size, k).expect("draws");
        assert!(svg.len() < 60 * kept.len() + 60_000, "{} bytes for {} dots", svg.len(), kept.len());
        assert!(svg.contains("<circle cx="), "the dots are there");
    }

    #[test]
    fn a_comparison_draws_side_b_hollow_and_shared_lines_once() {
        let sides = run("hdd-10dd", None, Some(Compare::Legacy(11)), 5);
        let ctx = chart::Context { run: "test".into(), bdi: "sda".into(), span: [0.0, 5.0] };
        let global = chart::global_dirty(&ctx, &sides);
        let dirty: Vec<_> = global.lines.iter().filter(|l| l.colour == chart::colour::BLUE).collect();
        assert_eq!(dirty.len(), 2, "each side's dirty pages");
        assert!(!dirty[0].hollow && dirty[1].hollow);
        // Both worlds have the same thresholds: drawn once.
        let thresh = global.lines.iter().filter(|l| l.label.contains("dirty_thresh")).count();
        assert_eq!(thresh, 1);
        assert_eq!(global.sides.len(), 2);
    }

    #[test]
    fn small_rates_and_short_spans_are_quoted_with_the_digits_they_need() {
        let mut sides = run("default", None, None, 2);
        // A thousand tasks' rates: they read 0.18 against 0.09 MiB/s.
        sides[0].means.dirty_ratelimit = 0.1784;
        sides[0].means.target = 0.0871;
        let ctx = chart::Context { run: "test".into(), bdi: "sda".into(), span: [0.0, 0.3] };
        let rates = chart::rates(&ctx, &sides);
        assert!(
            rates.subtitle[1].contains("dirty_ratelimit 0.178 MiB/s against a target of 0.087 MiB/s"),
            "{:?}",
            rates.subtitle
        );
        // A 0.3 s trace: its half is 0.15 s (it read 0.1 or 0.2 s), the
        // control lines are at 0.3 s (they read 0 s), and its time is in ms.
        assert!(rates.subtitle[1].ends_with("(means over the last 0.15 s)"), "{:?}", rates.subtitle);
        let curves = vec![chart::Curves { marks: [1.0, 2.0, 3.0], ..chart::Curves::default() }];
        let mut curves = curves;
        curves[0].curves.push(("global".into(), vec![(1.0, 2.0), (3.0, 0.0)]));
        let pos = chart::pos_ratio(&ctx, &sides, &curves);
        assert!(
            pos.notes.iter().any(|n| n.starts_with("the lines as they stand at the end (0.3 s)")),
            "{:?}",
            pos.notes
        );
        assert_eq!((pos.x_desc.starts_with("dirty pages [MiB]"), pos.x_scale), (true, 1.0));
        assert_eq!((rates.x_desc.as_str(), rates.x_scale), ("time [ms]", 1000.0));
        let long = chart::Context { span: [30.0, 40.0], ..ctx };
        let global = chart::global_dirty(&long, &sides);
        assert_eq!((global.x_desc.as_str(), global.x_scale), ("time [s]", 1.0));
        assert!(global.subtitle[1].ends_with("over the last 5 s, setpoint 645 MiB"), "{:?}", global.subtitle);
    }

    fn trace_file(name: &str) -> String {
        format!("{}/tests/data/ktrace/{name}", env!("CARGO_MANIFEST_DIR"))
    }

    fn trace_opts(bdi: Option<&str>) -> PlotOptions {
        PlotOptions { out: PathBuf::new(), format: PlotFormat::Svg, duration: None, bdi: bdi.map(String::from) }
    }

    /// The values of `field=` on the trace's lines of `event` (and of bdi
    /// `bdi`, when given), in its own units.
    fn printed(text: &str, event: &str, bdi: Option<&str>, field: &str) -> Vec<f64> {
        let key = format!("{field}=");
        text.lines()
            .filter(|l| l.contains(&format!("{event}:")))
            .filter(|l| bdi.is_none_or(|b| l.contains(&format!("bdi {b}:"))))
            .flat_map(|l| l.split_whitespace().filter_map(|w| w.strip_prefix(key.as_str())?.parse().ok()))
            .collect()
    }

    fn range(v: &[f64]) -> [f64; 2] {
        [v.iter().copied().fold(f64::MAX, f64::min), v.iter().copied().fold(f64::MIN, f64::max)]
    }

    fn line<'f>(f: &'f chart::Figure, label: &str) -> &'f chart::Line {
        f.lines.iter().find(|l| l.label.starts_with(label)).unwrap_or_else(|| panic!("{label} in {:?}", f.lines))
    }

    #[test]
    fn a_trace_draws_its_own_limits_dirty_pages_and_sleeps() {
        let path = trace_file("live-6.18-two-loop-bdis-0.3s.txt");
        let text = std::fs::read_to_string(&path).expect("test trace");
        let g = trace(&path, &trace_opts(Some("7:0"))).expect("reads");
        // What the trace dashboard shows of it, played to its end.
        let mut side = KernelSide::open(&path).expect("reads");
        side.seek(u64::MAX);
        assert_eq!(g.ctx.bdi, "7:0");
        assert_eq!(g.ctx.span, [0.0, side.end_ns() as f64 / 1e9]);
        assert!(g.ctx.span[1] > 0.25 && g.ctx.span[1] <= 0.3, "{:?}", g.ctx.span);
        assert!(g.ctx.run.starts_with("trace live-6.18-two-loop-bdis-0.3s.txt, kernel 6.15"), "{}", g.ctx.run);
        assert!(g.ctx.run.ends_with("s from its first event"), "{}", g.ctx.run);

        let global = chart::global_dirty(&g.ctx, &g.sides);
        let dirty = line(&global, "dirty (+writeback");
        let shown_max = side.samples().iter().map(|s| mib(s.dirty)).fold(0.0, f64::max);
        assert!(shown_max > 250.0, "{shown_max}");
        assert_eq!(dirty.points.iter().map(|p| p.1).fold(0.0, f64::max), shown_max);
        // The limit the trace printed, nothing else.
        let limits = range(&printed(&text, "global_dirty_state", None, "limit")).map(|p| mib(p as u64));
        let limit = line(&global, "limit");
        assert!(!limit.points.is_empty());
        assert!(limit.points.iter().all(|p| p.1 >= limits[0] && p.1 <= limits[1]), "{limits:?}: {limit:?}");
        assert!(global.notes.iter().all(|n| !n.contains("dirty_thresh")), "thresh is printed: {:?}", global.notes);

        let bdi = chart::bdi_dirty(&g.ctx, &g.sides);
        let printed_setpoints = range(&printed(&text, "balance_dirty_pages", Some("7:0"), "wb_setpoint"));
        let setpoints = printed_setpoints.map(|p| mib(p as u64));
        let setpoint = line(&bdi, "bdi_setpoint");
        assert!(!setpoint.points.is_empty());
        assert!(setpoint.points.iter().all(|p| p.1 >= setpoints[0] && p.1 <= setpoints[1]), "{setpoints:?}");
        assert!(
            bdi.notes.iter().any(|n| n == "kernel: no bdi writeback+unstable (not in this trace)"),
            "{:?}",
            bdi.notes
        );
        let held = |f: &chart::Figure| f.notes.iter().any(|n| n.contains("as printed, up to a second after each pass"));
        assert!(held(&bdi), "between throttling passes the lines hold: {:?}", bdi.notes);
        assert!(!held(&global), "global_dirty_state prints the global lines: {:?}", global.notes);

        // Every sleep of 7:0's tasks, none of 7:1's.
        let sleeps = printed(&text, "balance_dirty_pages", Some("7:0"), "pause").iter().filter(|&&p| p > 0.0).count();
        assert_eq!(sleeps, 10);
        assert_eq!(g.sides[0].sleep_hist.count(), sleeps as u64);
        let pauses = chart::pauses(&g.ctx, &g.sides);
        assert!(pauses.subtitle[1].starts_with("kernel: 10 sleeps"), "{:?}", pauses.subtitle);
        assert!(pauses.lines.is_empty() && pauses.notes.iter().any(|n| n.contains("no max_pause (not in this trace)")));

        // The control lines through the trace's limits at its end.
        let pos = chart::pos_ratio(&g.ctx, &g.sides, &g.curves);
        assert!(pos.message.is_none() && pos.lines.iter().any(|l| l.label.starts_with("global control line")));
        let last = side.samples().back().expect("samples");
        let marks: Vec<f64> = pos.marks.iter().map(|m| m.x).collect();
        assert_eq!(marks, vec![mib(last.freerun), mib(last.setpoint), mib(last.limit)]);
        assert!(marks[2] >= limits[0] && marks[2] <= limits[1], "{marks:?}");
    }

    #[test]
    fn a_trace_without_throttling_events_says_what_to_enable_instead_of_drawing_control_lines() {
        let text = std::fs::read_to_string(trace_file("linux-5.4-trace_pipe-two-bdis.txt")).expect("test trace");
        let kept: String =
            text.lines().filter(|l| !l.contains("balance_dirty_pages")).map(|l| format!("{l}\n")).collect();
        let dir = Scratch::new("plot-no-bdp");
        let path = dir.join("trace.txt");
        std::fs::write(&path, kept).expect("written");
        let g = trace(path.to_str().expect("UTF-8"), &trace_opts(None));
        let g = g.expect("reads");
        let pos = chart::pos_ratio(&g.ctx, &g.sides, &g.curves);
        assert!(pos.lines.is_empty() && pos.dots.is_empty() && pos.marks.is_empty(), "{pos:?}");
        let message = pos.message.as_deref().expect("says why");
        assert!(message.contains("writeback:balance_dirty_pages for bdi_setpoint"), "{message}");
        let pauses = chart::pauses(&g.ctx, &g.sides);
        assert!(pauses.subtitle[1].contains("pauses not in this trace"), "{:?}", pauses.subtitle);
        let bdi = chart::bdi_dirty(&g.ctx, &g.sides);
        assert_eq!(bdi.subtitle[1], "kernel: bdi_dirty: not in this trace");
        assert!(bdi.lines.is_empty(), "{:?}", bdi.lines);
        assert!(
            bdi.notes.iter().all(|n| !n.contains("as printed, up to a second after each pass")),
            "nothing held: {:?}",
            bdi.notes
        );
    }

    #[test]
    fn a_traces_bdi_is_named_as_the_trace_names_it_or_by_number() {
        let path = trace_file("linux-5.4-trace_pipe-two-bdis.txt");
        let side = KernelSide::open(&path).expect("reads");
        assert_eq!(trace_bdi(&side, None).expect("first"), 0);
        assert_eq!(side.bdi_label(trace_bdi(&side, Some("8:16")).expect("by name")), "8:16");
        assert_eq!(trace_bdi(&side, Some("1")).expect("by number"), 1);
        let e = trace_bdi(&side, Some("sda")).expect_err("no such bdi").to_string();
        assert!(e.contains("--bdi sda: no such bdi; this trace has 8:0, 8:16 (or 0 to 1)"), "{e}");
    }

    #[test]
    fn a_strict_limit_traces_passes_have_a_pos_ratio_though_below_the_global_freerun() {
        // live-6.18-loop-strict_limit: global dirty 63396-70962 pages, far
        // below freerun (1136055 + 567334) / 2; its last pass, 1998.730515,
        // task_ratelimit=95500 dirty_ratelimit=102400: 0.933. Every pass's
        // pos_ratio lies between 0.93 and 1.
        let path = trace_file("live-6.18-loop-strict_limit-sigterm.txt");
        let text = std::fs::read_to_string(&path).expect("test trace");
        let task = printed(&text, "balance_dirty_pages", None, "task_ratelimit");
        let rate = printed(&text, "balance_dirty_pages", None, "dirty_ratelimit");
        let ratios: Vec<f64> = task.iter().zip(&rate).map(|(t, r)| t / r).collect();
        assert_eq!(ratios.len(), 43);
        let [low, high] = range(&ratios);
        let g = trace(&path, &trace_opts(None)).expect("reads");
        let pos = chart::pos_ratio(&g.ctx, &g.sides, &g.curves);
        let headline = &pos.subtitle[1];
        assert!(headline.starts_with("kernel: pos_ratio 0.933 at the end, "), "{headline}");
        assert!(!headline.contains("freerun"), "{headline}");
        let mean = g.sides[0].means.pos_ratio.expect("a mean");
        assert!(mean >= low - 0.001 && mean <= high + 0.001, "{mean} of {low}-{high}");
        assert!(g.sides[0].operating.len() > 10, "{:?}", g.sides[0].operating);
    }

    #[test]
    fn a_short_traces_printed_rates_are_drawn_and_reported_as_printed() {
        // linux-6.1-with-noise: 50.000100 to 50.050000, 49.9 ms; every
        // pass prints dirty_ratelimit=51200 KB/s (50 MiB/s), the one at
        // 50.03 task_ratelimit=40000: pos_ratio 40000 / 51200 = 0.781;
        // the last global_dirty_state dirty=30100 writeback=100: 118 MiB.
        let g = trace(&trace_file("linux-6.1-with-noise.txt"), &trace_opts(None)).expect("reads");
        assert!(g.ctx.run.ends_with("; 49.9 ms from its first event"), "{}", g.ctx.run);
        let rates = chart::rates(&g.ctx, &g.sides);
        assert!(
            rates.subtitle[1].contains("; dirty_ratelimit 50 MiB/s, its target not in this trace"),
            "{:?}",
            rates.subtitle
        );
        let rate = line(&rates, "dirty_ratelimit");
        assert!(rate.points.len() >= 2 && rate.points.iter().all(|p| p.1 == 50.0), "{rate:?}");
        let task = line(&rates, "task_ratelimit");
        assert!(task.points.len() >= 2 && task.points.iter().all(|p| p.1 == 40000.0 / 1024.0), "{task:?}");
        let pos = chart::pos_ratio(&g.ctx, &g.sides, &g.curves);
        assert!(
            pos.subtitle[1].starts_with("kernel: pos_ratio 0.781 at the end, 0.781 on average"),
            "{:?}",
            pos.subtitle
        );
        let global = chart::global_dirty(&g.ctx, &g.sides);
        assert!(global.subtitle[1].starts_with("kernel: dirty 118 MiB on average"), "{:?}", global.subtitle);
        // A mean of the rows, not of every reading (`view` holds each one
        // until the next), says so.
        assert!(global.subtitle[1].contains(" (read every 100 ms), "), "{:?}", global.subtitle);
        assert!(rates.subtitle[1].contains("(means over the last 0.025 s, read every 100 ms"), "{:?}", rates.subtitle);

        // linux-4.4-perf-cgroup, bdi 1 (session-2.scope): its one pass at
        // 88.100200 (0.1001 s) prints dirty_ratelimit=8192 KB/s (8 MiB/s)
        // and task_ratelimit=8000; the trace ends at 88.200000 (0.1999 s).
        let g = trace(&trace_file("linux-4.4-perf-cgroup.txt"), &trace_opts(Some("1"))).expect("reads");
        let rates = chart::rates(&g.ctx, &g.sides);
        assert!(
            rates.subtitle[1].contains(
                "; dirty_ratelimit 8 MiB/s, its target not in this trace (means over the last 0.1 s, read every 100 ms)"
            ),
            "{:?}",
            rates.subtitle
        );
        let rate = line(&rates, "dirty_ratelimit");
        assert_eq!(rate.points, [(0.1001, 8.0), (0.1999, 8.0)]);
        let task = line(&rates, "task_ratelimit");
        assert_eq!(task.points, [(0.1001, 8000.0 / 1024.0), (0.1999, 8000.0 / 1024.0)]);
    }

    /// The lines of the whole plot of `f` (its upper one, when it has
    /// one) of the colour, dash and glyph of the line labelled `label`:
    /// each run of it.
    fn runs_of(f: &chart::Figure, label: &str) -> Vec<chart::Line> {
        let all: Vec<&chart::Line> = f.upper.as_ref().map_or(&f.lines, |p| &p.lines).iter().collect();
        let named = all.iter().find(|l| l.label.starts_with(label)).unwrap_or_else(|| panic!("{label} in {all:?}"));
        let same = |l: &&&chart::Line| (l.colour, l.dash, l.glyph) == (named.colour, named.dash, named.glyph);
        all.iter().filter(same).map(|l| (*l).clone()).collect()
    }

    #[test]
    fn a_traces_lines_start_at_the_first_event_that_printed_them() {
        // linux-6.18-4dd: the first event 1305.637996; bdi 254:0's first
        // pass 1305.729780 (0.091784 s), sixteen more in the same 100 ms
        // row up to 1305.733548 (0.095552 s), where its lines started.
        let path = trace_file("linux-6.18-4dd-dirty_bytes-400M.txt");
        let g = trace(&path, &trace_opts(None)).expect("reads");
        let bdi = chart::bdi_dirty(&g.ctx, &g.sides);
        for label in ["bdi_dirty", "bdi_setpoint"] {
            let first = runs_of(&bdi, label)[0].points[0];
            assert!((first.0 - 0.091784).abs() < 1e-6, "{label} starts at {first:?}");
        }
        // Its first bdi_dirty_ratelimit, alone in its row: 1307.423437.
        let rates = chart::rates(&g.ctx, &g.sides);
        let first = runs_of(&rates, "write_bw")[0].points[0];
        assert!((first.0 - 1.785441).abs() < 1e-6, "write_bw starts at {first:?}");
    }

    /// The shipped trace's rows from 0.5 s on fell to 69-192 MiB after
    /// passes at 301 MiB: chart 3 drew their pos_ratio (1.98) there, below
    /// freerun (300 MiB), where every pass of the trace printed dirty=
    /// 76812 pages (300.05 MiB) or more.
    #[test]
    fn a_traces_operating_points_lie_where_its_passes_computed_them() {
        let path = trace_file("linux-6.18-4dd-dirty_bytes-400M.txt");
        let g = trace(&path, &trace_opts(None)).expect("reads");
        let op = &g.sides[0].operating;
        assert!(!op.is_empty(), "points above freerun");
        assert!(op.iter().all(|&(x, _)| x > 300.0), "{op:?}");
    }

    #[test]
    fn a_traces_rates_are_broken_where_no_event_printed_them() {
        // linux-6.18-4dd: bdi_dirty_ratelimit at 1307.423437, 1307.646876
        // and 1325.225122 (19.587126 s from the first event, 1305.637996),
        // no pass between 2.12 and 19.587 s; the trace ends at 1325.634371
        // (19.996375 s).
        let path = trace_file("linux-6.18-4dd-dirty_bytes-400M.txt");
        let g = trace(&path, &trace_opts(None)).expect("reads");
        let rates = chart::rates(&g.ctx, &g.sides);
        for label in ["write_bw", "avg_write_bw", "target", "task_ratelimit"] {
            for l in runs_of(&rates, label) {
                for w in l.points.windows(2) {
                    assert!(!(w[0].0 < 5.0 && w[1].0 > 19.0), "{label} drawn across the gap: {w:?}");
                }
            }
        }
        // awrite_bw=507504 KB/s from its event on: 495.61 MiB/s.
        let avg = runs_of(&rates, "avg_write_bw");
        let last = avg.last().expect("a run");
        assert_eq!(last.points[0], (19.587126, 507504.0 / 1024.0), "{last:?}");
        assert!(last.points.iter().all(|p| p.1 == 507504.0 / 1024.0), "{last:?}");
        // dirty_ratelimit=102400 holds: the kernel changes it only where it prints it.
        let rate = runs_of(&rates, "dirty_ratelimit");
        assert_eq!(rate.len(), 1, "{rate:?}");
        // The target is avg_write_bw / N of its one event in the last 10 s:
        // 507504 / 4 KB/s = 124 MiB/s, over the 0.41 s from it to the end.
        assert!(
            rates.subtitle[1].ends_with(
                "dirty_ratelimit 100 MiB/s against a target of 124 MiB/s (means over the last 10 s, read \
                 every 100 ms; the target's over the 0.41 s of it where it was printed)"
            ),
            "{:?}",
            rates.subtitle
        );
        let (known, window) = g.sides[0].means.known_s(collect::Q::Target as usize);
        assert!((known - (19.996375 - 19.587126)).abs() < 1e-6 && (window - 19.996375 / 2.0).abs() < 1e-6);
    }
}
