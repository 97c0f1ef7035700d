//! The `dirtyviz` binary: parse the command line, dispatch, report errors.

use std::process::ExitCode;

use clap::Parser;
use dirtyviz::cli::{CasesArgs, CheckArgs, Cli, Command, LessonArgs, ReplayArgs, RunArgs, ViewArgs, WorldArgs};
use dirtyviz::lesson::progress::Progress;
use dirtyviz::lesson::{Lesson, check};
use dirtyviz::run::{RunOptions, run};
use dirtyviz::scenario::Scenario;

/// Exit code for bad input: a usage error, an unreadable or invalid file.
const EXIT_BAD_INPUT: u8 = 2;

/// Writes to standard output. A reader that went away (`dirtyviz lessons
/// | head`) is not an error: the output just stops. Returns false then.
fn out(text: std::fmt::Arguments) -> bool {
    use std::io::Write;
    writeln!(std::io::stdout().lock(), "{text}").is_ok()
}

/// Reports bad input in one line.
fn bad_input(e: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {e}");
    ExitCode::from(EXIT_BAD_INPUT)
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            // One line: clap's first line, without the usage block.
            let text = e.render().to_string();
            let first = text.lines().next().unwrap_or("error: invalid arguments");
            eprintln!("{first} (see dirtyviz --help)");
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    match cli.command {
        Some(Command::Run(args)) => run_headless(&args),
        Some(Command::Lessons) => list_lessons(),
        Some(Command::Check(args)) => check_files(&args),
        Some(Command::Lesson(args)) => lesson(&args),
        Some(Command::Replay(args)) => replay(&args),
        Some(Command::Cases(args)) => cases(&args),
        Some(Command::Machines) => {
            out(format_args!("{}", dirtyviz::scenario::machine::report().trim_end()));
            ExitCode::SUCCESS
        }
        None => dashboard(&cli.world, &cli.view),
    }
}

/// Builds the scenario the arguments name, with their overrides applied.
fn scenario(args: &WorldArgs) -> Result<Scenario, String> {
    let mut s = match &args.case {
        Some(case) => dirtyviz::scenario::case::parse(case),
        None => Scenario::resolve(args.scenario.as_deref().unwrap_or("default")),
    }
    .map_err(|e| e.0)?;
    s.apply(&args.overrides());
    Ok(s)
}

fn run_headless(args: &RunArgs) -> ExitCode {
    let s = match scenario(&args.world) {
        Ok(s) => s,
        Err(e) => return bad_input(e),
    };
    let opts = RunOptions {
        duration_ns: args.duration.unwrap_or((s.duration_s * 1e9) as u64),
        trace: args.trace.clone(),
        csv: args.csv.clone(),
        summary_json: args.summary_json.clone(),
        check_invariants: args.check_invariants,
    };
    match run(&s, &opts) {
        Ok(summary) => {
            if !args.quiet {
                out(format_args!("{}", summary.report().trim_end()));
            }
            ExitCode::SUCCESS
        }
        Err(e) => bad_input(e),
    }
}

/// Exit code of `dirtyviz check` when something failed.
const EXIT_CHECK_FAILED: u8 = 1;

fn list_lessons() -> ExitCode {
    let progress = Progress::load();
    let lessons = Lesson::shipped();
    let width = lessons.iter().flatten().map(|l| l.title.chars().count()).max().unwrap_or(0);
    for lesson in lessons {
        match lesson {
            Ok(l) => {
                let state = match progress.lessons.get(&l.id) {
                    Some(p) if p.done => "done".to_string(),
                    Some(p) => format!("step {}/{}", p.step + 1, l.steps.len()),
                    None => String::new(),
                };
                if !out(format_args!("{}  {:<width$}  {state:<9}  {}", l.id, l.title, l.patch)) {
                    break;
                }
            }
            Err(e) => eprintln!("{e}"),
        }
    }
    ExitCode::SUCCESS
}

fn check_files(args: &CheckArgs) -> ExitCode {
    let sources = if args.files.is_empty() { check::shipped_sources() } else { check::sources(&args.files) };
    let outcomes = check::check_all(&sources);
    let mut failed = 0;
    for o in &outcomes {
        out(format_args!("{} {}", if o.passed() { "ok  " } else { "FAIL" }, o.summary));
        if args.verbose {
            for c in &o.checks {
                let mark = if c.pass { "✓" } else { "✗" };
                out(format_args!("       {mark} step {} {}: {} ({})", c.step, c.label, check::show(c.value), c.bounds));
            }
        }
        for f in &o.failures {
            eprintln!("{f}");
        }
        failed += usize::from(!o.passed());
    }
    if failed > 0 {
        eprintln!("{failed} of {} failed", outcomes.len());
        return ExitCode::from(EXIT_CHECK_FAILED);
    }
    out(format_args!("all {} passed", outcomes.len()));
    ExitCode::SUCCESS
}

fn lesson(args: &LessonArgs) -> ExitCode {
    use dirtyviz::ui::app::App;
    let trace = args.view.trace.is_some();
    let app = match &args.lesson {
        Some(which) => Lesson::resolve(which).map_err(|e| e.0).and_then(|l| {
            let step = Progress::load().resume_step(&l);
            App::for_lesson_traced(l, step, args.view.theme, trace).map_err(|e| e.0)
        }),
        None => App::lesson_picker(args.view.theme, trace).map_err(|e| e.0),
    };
    let mut app = match app {
        Ok(app) => app,
        Err(e) => return bad_input(e),
    };
    app.save_progress = true;
    app.note_progress();
    open_dashboard(app, &args.view)
}

/// Runs the dashboard on `app` (built traced when `view.trace` is set)
/// with the view options: marker, recording, trace file.
fn open_dashboard(mut app: dirtyviz::ui::app::App, view: &ViewArgs) -> ExitCode {
    use dirtyviz::record::{Header, Recorder, TraceWriter};
    app.marker = view.marker.marker();
    let mut outputs = dirtyviz::ui::Outputs::default();
    if let Some(path) = &view.trace {
        match TraceWriter::create(path, &app) {
            Ok(w) => outputs.trace = Some(w),
            Err(e) => return bad_input(e),
        }
    }
    let record_path = match &view.record {
        Some(p) => Some(p.clone()),
        None if !view.no_record => dirtyviz::lesson::progress::data_dir().map(|d| d.join("last-session.jsonl")),
        None => None,
    };
    if let Some(path) = record_path {
        match Recorder::create(&path, &Header::of(&app)) {
            Ok(r) => outputs.record = Some(r),
            // Asked for: an error. The default place: go on without.
            Err(e) if view.record.is_some() => return bad_input(e),
            Err(_) => {}
        }
    }
    match dirtyviz::ui::run(app, outputs) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: terminal: {e}");
            ExitCode::FAILURE
        }
    }
}

fn cases(args: &CasesArgs) -> ExitCode {
    use dirtyviz::cases;
    let rows: Vec<_> =
        cases::rows().into_iter().filter(|r| args.filter.as_deref().is_none_or(|f| r.name.contains(f))).collect();
    if rows.is_empty() {
        return bad_input(format!("no case of the seed's tables contains `{}`", args.filter.as_deref().unwrap_or("")));
    }
    let progress = ProgressLine::on_terminal();
    let measured = cases::measure(&rows, args.duration, &|done, total| progress.show(done, total));
    progress.clear();
    let measured = match measured {
        Ok(m) => m,
        Err(e) => return bad_input(e),
    };
    out(format_args!("{}", cases::report(&measured).trim_end()));
    let bounds = cases::Bounds { ratio: args.max_error, rate: args.max_rate_error, kind: args.max_kind_error };
    let failures = cases::failures(&measured, &bounds);
    for f in &failures {
        eprintln!("{f}");
    }
    if failures.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(EXIT_CHECK_FAILED) }
}

/// A one-line progress indicator on stderr, shown only when stderr is a
/// terminal: runs done out of the total and the time elapsed.
struct ProgressLine {
    started: Option<std::time::Instant>,
}

impl ProgressLine {
    fn on_terminal() -> ProgressLine {
        use std::io::IsTerminal;
        ProgressLine { started: std::io::stderr().is_terminal().then(std::time::Instant::now) }
    }

    fn show(&self, done: usize, total: usize) {
        if let Some(t) = self.started {
            eprint!("\r\x1b[Kcases: {done}/{total} runs, {:.0} s", t.elapsed().as_secs_f64());
        }
    }

    fn clear(&self) {
        if self.started.is_some() {
            eprint!("\r\x1b[K");
        }
    }
}

fn replay(args: &ReplayArgs) -> ExitCode {
    match dirtyviz::record::replay(&args.file, args.trace.as_deref()) {
        Ok(r) => {
            out(format_args!(
                "replayed {} calls ({} keys) of {}: {:.1} simulated s, ending at {}{}",
                r.calls,
                r.keys,
                args.file.display(),
                r.sim_ns as f64 / 1e9,
                r.level,
                args.trace.as_ref().map(|t| format!("; trace in {}", t.display())).unwrap_or_default()
            ));
            ExitCode::SUCCESS
        }
        Err(e) => bad_input(e),
    }
}

fn dashboard(world: &WorldArgs, view: &ViewArgs) -> ExitCode {
    let s = match scenario(world) {
        Ok(s) => s,
        Err(e) => return bad_input(e),
    };
    let app = match dirtyviz::ui::app::App::traced(s, view.compare, view.theme, view.trace.is_some()) {
        Ok(app) => app,
        Err(e) => return bad_input(e.0),
    };
    open_dashboard(app, view)
}
