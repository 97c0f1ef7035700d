//! The `dirtyviz` binary: parse the command line, dispatch, report errors.

use std::process::ExitCode;

use clap::Parser;
use dirtyviz::app::{App, AppOptions};
use dirtyviz::cli::{
    CasesArgs, CheckArgs, Cli, Command, LessonArgs, ReplayArgs, RunArgs, SnapshotArgs, ViewArgs, WorldArgs,
};
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
            // One line: clap's first line (with the line it announces, when
            // it ends in a colon), without the usage block.
            let text = e.render().to_string();
            let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
            let mut first = lines.next().unwrap_or("error: invalid arguments").to_string();
            if first.ends_with(':')
                && let Some(next) = lines.next()
            {
                first = format!("{first} {next}");
            }
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
        Some(Command::Snapshot(args)) => snapshot(&args),
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
    let mut outcomes = check::check_all(&sources);
    if args.screens {
        let lessons: Vec<(usize, Lesson)> = outcomes
            .iter()
            .zip(&sources)
            .enumerate()
            .filter_map(|(i, (o, s))| {
                let text = s.text.as_ref().ok()?;
                (o.passed() && check::kind_of(text) == Some(check::Kind::Lesson))
                    .then(|| Lesson::from_ron(text, &s.origin).ok().map(|l| (i, l)))
                    .flatten()
            })
            .collect();
        let walked = dirtyviz::run::on_every_cpu(&lessons, |(i, l)| {
            (*i, dirtyviz::ui::walk::missing(l, &sources[*i].origin, dirtyviz::ui::walk::SIZES))
        });
        for (i, result) in walked {
            let o = &mut outcomes[i];
            match result {
                Ok(missing) => o.failures.extend(missing),
                Err(e) => o.failures.push(format!("{}: cannot draw its screens: {e}", o.origin)),
            }
            if o.passed() {
                o.summary.push_str("; every step shows what it names");
            }
        }
    }
    let mut failed = 0;
    for o in &outcomes {
        out(format_args!("{} {}", if o.passed() { "ok  " } else { "FAIL" }, o.summary));
        if args.verbose {
            for c in &o.checks {
                let mark = if c.pass { "✓" } else { "✗" };
                out(format_args!("       {mark} step {} {}: {} ({})", c.step, c.label, check::show(c.value), c.bounds));
            }
            for q in &o.questions {
                let answer = check::show_value(q.value.unwrap_or(f64::NAN), q.unit);
                out(format_args!("       ? step {} \"{}\": {answer}", q.step, q.ask));
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
    let opts = app_options(&args.view);
    let progress = Progress::load();
    let app = match &args.lesson {
        Some(which) => Lesson::resolve(which).map_err(|e| e.0).and_then(|l| {
            let step = progress.resume_step(&l);
            App::for_lesson(l, step, progress, &opts).map_err(|e| e.0)
        }),
        None => Lesson::all_shipped()
            .map_err(|e| e.0)
            .and_then(|lessons| App::lesson_picker(lessons, progress, &opts).map_err(|e| e.0)),
    };
    match app {
        Ok(app) => open_dashboard(app, &args.view, true),
        Err(e) => bad_input(e),
    }
}

/// The app options the view arguments ask for (`NO_COLOR` forces mono).
fn app_options(view: &ViewArgs) -> AppOptions {
    AppOptions {
        theme: dirtyviz::ui::theme::resolve(view.theme),
        marker: view.marker,
        trace: view.trace.is_some(),
        debug: view.debug,
    }
}

/// Runs the dashboard on `app` (built traced when `view.trace` is set)
/// with the view options: recording, trace file; a lesson saves its
/// progress when `save_progress` is set.
fn open_dashboard(app: App, view: &ViewArgs, save_progress: bool) -> ExitCode {
    use dirtyviz::record::{Header, Recorder, TraceWriter};
    let mut outputs = dirtyviz::ui::Outputs { save_progress, ..Default::default() };
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
        Ok(dirtyviz::ui::Exit::Quit) => ExitCode::SUCCESS,
        // As a shell reports a process a signal ended: 128 + its number.
        Ok(dirtyviz::ui::Exit::Signal(n)) => ExitCode::from(128u8.saturating_add(n as u8)),
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
    let measured = match cases::measure(&rows, args.duration) {
        Ok(m) => m,
        Err(e) => return bad_input(e),
    };
    out(format_args!("{}", cases::report(&measured).trim_end()));
    match (args.max_error, cases::mean_error(&measured)) {
        (Some(max), Some(e)) if e > max => {
            eprintln!("mean error {e:.3} exceeds --max-error {max}");
            ExitCode::from(EXIT_CHECK_FAILED)
        }
        (Some(_), None) => {
            eprintln!("no case wrote anything on 3.1 in this time: nothing to compare");
            ExitCode::from(EXIT_CHECK_FAILED)
        }
        _ => ExitCode::SUCCESS,
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
    match App::new(s, view.compare, &app_options(view)) {
        Ok(app) => open_dashboard(app, view, false),
        Err(e) => bad_input(e.0),
    }
}

fn snapshot(args: &SnapshotArgs) -> ExitCode {
    use dirtyviz::ui::{keys, snapshot};
    let opts = AppOptions { theme: args.theme, marker: args.marker, ..AppOptions::default() };
    let presses = match args.keys.as_deref().unwrap_or("").split_whitespace().map(|k| {
        keys::parse_key(k).ok_or_else(|| {
            format!("--keys: unknown key `{k}`: expected single characters, space, esc, enter, tab, up, down, pgup, pgdn")
        })
    }).collect::<Result<Vec<_>, _>>() {
        Ok(p) => p,
        Err(e) => return bad_input(e),
    };
    let built = match &args.lesson {
        Some(which) => {
            if args.world.overrides() != dirtyviz::scenario::Overrides::default() {
                return bad_input("--lesson sets up its own world: world options do not apply to it");
            }
            let step = args.step.map_or(0, |s| s as usize - 1);
            Lesson::resolve(which).map_err(|e| e.0).and_then(|l| {
                if step >= l.steps.len() {
                    return Err(format!("--step {}: lesson {} has {} steps", step + 1, l.id, l.steps.len()));
                }
                App::for_lesson(l, step, Progress::default(), &opts).map_err(|e| e.0)
            })
        }
        None => scenario(&args.world).and_then(|s| App::new(s, args.compare, &opts).map_err(|e| e.0)),
    };
    let mut app = match built {
        Ok(app) => app,
        Err(e) => return bad_input(e),
    };
    for key in presses {
        if let Some(msg) = keys::message(key, app.mode()) {
            app.update(msg);
        }
    }
    let at = match app.lesson() {
        Some(mode) => mode.run().step_start_ns + args.at.unwrap_or(mode.run().step_end_ns() - mode.run().step_start_ns),
        None => args.at.unwrap_or((app.session().scenario.duration_s * 1e9) as u64),
    };
    app.advance_to(at);
    let (width, height) = args.size;
    let text = snapshot::write(&snapshot::render(&app, width, height), args.format, app.theme());
    match &args.output {
        Some(path) => match snapshot::write_file(path, &text) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => bad_input(e),
        },
        None => {
            use std::io::Write;
            let _ = std::io::stdout().lock().write_all(text.as_bytes());
            ExitCode::SUCCESS
        }
    }
}
