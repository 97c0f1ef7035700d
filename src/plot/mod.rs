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
        Source::Lesson { lesson, step } => {
            let lesson = Lesson::resolve(&lesson)?;
            let steps = lesson.steps.len();
            if step == 0 || step > steps {
                return Err(err(format!("lesson {} has steps 1 to {steps}, not {step}", lesson.id)));
            }
            let (run, session, _) = LessonRun::seek(lesson, step - 1, SessionOptions::default())?;
            let s = &run.lesson.steps[run.step];
            let text = format!("lesson {} step {step}: {}", run.lesson.id, s.title);
            let default_ns = (s.run_s * NS_PER_SEC as f64) as u64;
            (session, run.step_start_ns, default_ns, run.bdi, text)
        }
    };
    let bdi = match &opts.bdi {
        None => bdi,
        Some(name) => {
            let bdis = session.world().bdis();
            bdis.iter()
                .position(|b| &b.name == name)
                .or_else(|| name.parse().ok().filter(|&i| i < bdis.len()))
                .ok_or_else(|| {
                    let names: Vec<&str> = bdis.iter().map(|b| b.name.as_str()).collect();
                    err(format!("--bdi {name}: no such bdi; this world has {}", names.join(", ")))
                })?
        }
    };
    let hz = session.world().hz();
    let duration_ns = match opts.duration {
        Some(t) => t.ns_of_a_jiffy_or_more("--duration", hz)?,
        None => default_ns.max(1),
    };
    Ok(Start { session, start_ns, duration_ns, bdi, run })
}

/// The control lines of every side at the end of the run, as the
/// dashboard's chart 3 draws them.
fn curves(session: &Session, bdi: usize) -> Vec<chart::Curves> {
    use crate::ui::charts;
    session
        .sides
        .iter()
        .map(|side| {
            let p = charts::pos_ratio(&charts::Source::of(side), bdi, COLUMNS as u16 / 2);
            let mut c = chart::Curves { bdi_now: p.now_on("bdi line"), ..chart::Curves::default() };
            if let Some(last) = side.world.samples().back() {
                c.now = last.bdis.get(bdi).and_then(|b| b.pos_ratio).map(|r| (mib(last.dirty), r as f64 / 1024.0));
                c.marks = [mib(last.freerun), mib(last.setpoint), mib(last.limit)];
            }
            c.curves = p.series.into_iter().map(|s| (s.name.to_string(), s.points)).collect();
            c
        })
        .collect()
}

/// Where the figures go: `opts.out`, which must be a directory or a name
/// in one that exists (it is made, not its parents), and the five files
/// in it, none of them one of `inputs`. Checked before anything runs.
fn figure_paths(opts: &PlotOptions, inputs: &[Option<&str>]) -> Result<Vec<PathBuf>> {
    let out = &opts.out;
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
        let inputs: Vec<Named> = ["the scenario", "the lesson"]
            .into_iter()
            .zip(inputs)
            .filter_map(|(role, p)| Some(Named { role, path: Path::new((*p)?) }))
            .collect();
        let outputs: Vec<Named> = paths.iter().map(|path| Named { role: "the figure", path }).collect();
        check_distinct(&inputs, &outputs)?;
    }
    Ok(paths)
}

/// Runs `source` and writes the five figures into `opts.out`; `inputs`
/// are the scenario and lesson files the run reads, never written over.
/// Returns what was written, one line per figure. Ctrl-C stops it
/// ([`Error::Interrupted`]) with every file as it was.
pub fn plot(source: Source, opts: &PlotOptions, inputs: &[Option<&str>]) -> Result<String> {
    let paths = figure_paths(opts, inputs)?;
    crate::interrupt::catch();
    let Start { mut session, start_ns, duration_ns, bdi, run } = start(source, opts)?;
    let end_ns = start_ns + duration_ns;
    let mut collector = collect::Collector::new(&session, bdi, start_ns, end_ns, COLUMNS);
    let mut t = start_ns;
    collector.take(&session);
    while t < end_ns {
        crate::interrupt::check()?;
        t = (t + NS_PER_SEC).min(end_ns);
        session.advance_to(t);
        collector.take(&session);
    }
    let sides = collector.finish();
    let ctx = chart::Context {
        run: format!("{run}; {} s simulated", crate::units::seconds(duration_ns as f64 / 1e9)),
        bdi: session.world().bdis()[bdi].name.clone(),
        span: [start_ns as f64 / 1e9, end_ns as f64 / 1e9],
    };
    let figures = [
        chart::global_dirty(&ctx, &sides),
        chart::bdi_dirty(&ctx, &sides),
        chart::pos_ratio(&ctx, &sides, &curves(&session, bdi)),
        chart::rates(&ctx, &sides),
        chart::pauses(&ctx, &sides),
    ];
    crate::interrupt::check()?;
    if !opts.out.is_dir() {
        std::fs::create_dir(&opts.out).map_err(Error::io(&opts.out, "cannot create the directory"))?;
    }
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
        report.push_str(&format!("{}: {}\n", path.display(), f.title));
        for line in f.subtitle.iter().skip(1) {
            report.push_str(&format!("  {line}\n"));
        }
    }
    crate::interrupt::check()?;
    outputs.into_iter().try_for_each(AtomicFile::commit)?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::presets;

    fn run(preset: &str, patches: Option<u8>, compare: Option<Compare>, secs: u64) -> Vec<collect::SideData> {
        let mut s = presets::get(preset).expect("preset").expect("valid");
        if let Some(p) = patches {
            s.patches = p;
        }
        let source = Source::World { scenario: Box::new(s), compare };
        let opts = PlotOptions { out: PathBuf::new(), format: PlotFormat::Svg, duration: None, bdi: None };
        let Start { mut session, .. } = start(source, &opts).expect("starts");
        let end = secs * NS_PER_SEC;
        let mut c = collect::Collector::new(&session, 0, 0, end, 50);
        for t in 1..=secs {
            session.advance_to(t * NS_PER_SEC);
            c.take(&session);
        }
        c.finish()
    }

    #[test]
    fn thinned_lines_keep_the_extremes_and_counts_come_from_every_pause() {
        let mut s = presets::get("hdd-10dd").expect("preset").expect("valid");
        s.duration_s = 10.0;
        let mut session = Session::new(s, None, SessionOptions::default()).expect("session");
        let mut c = collect::Collector::new(&session, 0, 0, 10 * NS_PER_SEC, 20);
        for t in 1..=10 {
            session.advance_to(t * NS_PER_SEC);
            c.take(&session);
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
    fn a_legacy_kernel_draws_no_setpoint_and_no_pos_ratio_and_says_so() {
        let sides = run("hdd-10dd", Some(0), None, 5);
        let ctx = chart::Context { run: "test".into(), bdi: "sda".into(), span: [0.0, 5.0] };
        let global = chart::global_dirty(&ctx, &sides);
        assert!(global.lines.iter().all(|l| !l.label.contains("setpoint") && !l.label.contains("freerun")));
        assert!(global.notes.iter().any(|n| n.contains("no freerun, setpoint (not used by this kernel)")));
        let rates = chart::rates(&ctx, &sides);
        assert!(rates.lines.iter().all(|l| !l.label.contains("ratelimit")), "{:?}", rates.notes);
        assert!(rates.lines.iter().any(|l| l.label.starts_with("written")));
        let pos = chart::pos_ratio(&ctx, &sides, &[chart::Curves::default()]);
        assert!(pos.lines.is_empty() && pos.dots.is_empty());
        assert!(pos.message.as_deref().is_some_and(|m| m.contains("patch 02")));
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

    #[test]
    fn a_comparison_draws_side_b_dashed_and_shared_lines_once() {
        let sides = run("hdd-10dd", None, Some(Compare::Legacy(11)), 5);
        let ctx = chart::Context { run: "test".into(), bdi: "sda".into(), span: [0.0, 5.0] };
        let global = chart::global_dirty(&ctx, &sides);
        let dirty: Vec<_> = global.lines.iter().filter(|l| l.colour == chart::colour::BLUE).collect();
        assert_eq!(dirty.len(), 2, "each side's dirty pages");
        assert!(!dirty[0].dashed && dirty[1].dashed);
        // Both worlds have the same thresholds: drawn once.
        let thresh = global.lines.iter().filter(|l| l.label.contains("dirty_thresh")).count();
        assert_eq!(thresh, 1);
        assert_eq!(global.sides.len(), 2);
    }
}
