//! The `dirtyviz` binary: parse the command line, dispatch, report errors.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use dirtyviz::app::{App, AppOptions, LessonMsg, Msg};
use dirtyviz::cli::{
    CasesArgs, CasesTable, CheckArgs, Cli, Command, LessonArgs, ReplayArgs, RunArgs, SimTime, SnapshotArgs, ViewArgs,
    WorldArgs,
};
use dirtyviz::error::{EXIT_BAD_INPUT, Error, Result, printable, say};
use dirtyviz::lesson::progress::{self, Progress};
use dirtyviz::lesson::{Lesson, check};
use dirtyviz::output::{Named, check_distinct};
use dirtyviz::run::{RunOptions, SideFiles, run, run_compare};
use dirtyviz::scenario::Scenario;

/// Every allocation goes through the system allocator; one that fails
/// ends dirtyviz with a one-line error instead of an abort.
#[global_allocator]
static ALLOCATOR: dirtyviz::oom::Reporting = dirtyviz::oom::Reporting;

/// Writes to standard output. A reader that went away (`dirtyviz lessons
/// | head`) is not an error: the output just stops. Returns false then.
/// Any other failure to write (a full disk behind `>`) ends dirtyviz with
/// a one-line error and exit code 2.
fn out(text: std::fmt::Arguments) -> bool {
    match dirtyviz::output::to_stdout(format!("{text}\n").as_bytes()) {
        Ok(written) => written,
        Err(e) => std::process::exit(i32::from(dirtyviz::crash::print_error(e))),
    }
}

/// Reports an error: in one line, control characters escaped, when it is
/// the user's; with color-eyre's report and the crash note when it is a bug.
fn fail(e: Error) -> ExitCode {
    ExitCode::from(dirtyviz::crash::print_error(e))
}

/// The command whose help lists the options given: `dirtyviz plot` for
/// `dirtyviz plot -q`, `dirtyviz` when no subcommand is named (its help
/// lists the dashboard's options and the commands).
fn help_command() -> String {
    use clap::CommandFactory as _;
    let cli = Cli::command();
    let named = std::env::args_os()
        .skip(1)
        .filter_map(|a| a.into_string().ok())
        .find_map(|a| cli.find_subcommand(&a).map(|c| c.get_name().to_string()));
    named.map_or_else(|| "dirtyviz".to_string(), |c| format!("dirtyviz {c}"))
}

/// The help or version clap answers with: in colour on a terminal (unless
/// `NO_COLOR` is set), as plain text into a file or a pipe.
fn help_text(e: &clap::Error) -> String {
    use std::io::IsTerminal as _;
    let styled = e.render();
    let colour = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    if colour { styled.ansi().to_string() } else { styled.to_string() }
}

/// What clap's "invalid UTF-8 was detected in one or more arguments"
/// means, naming the first argument that is not UTF-8 (its other bytes
/// escaped) and the option it follows: `error: \`in\xff.txt\` is not
/// UTF-8: …`. Names of files to write may be any bytes; a file to read,
/// named where a preset or lesson id could stand, must have a UTF-8 name.
fn not_utf8(args: impl Iterator<Item = std::ffi::OsString>) -> Option<String> {
    use std::os::unix::ffi::OsStrExt as _;
    let args: Vec<std::ffi::OsString> = args.collect();
    let at = args.iter().position(|a| a.to_str().is_none())?;
    let shown = args[at].as_bytes().escape_ascii().to_string();
    let after = at.checked_sub(1).and_then(|i| args[i].to_str()).filter(|o| o.starts_with('-'));
    let option = after.map(|o| format!(" (after {o})")).unwrap_or_default();
    Some(format!(
        "error: `{shown}`{option} is not UTF-8: files to read and names are taken as UTF-8 text (rename the file, or \
         give a link to it with a UTF-8 name)"
    ))
}

/// What clap's "the subcommand 'run' cannot be used with '--seed <SEED>'"
/// means, when an option is written before the subcommand: where it goes
/// (`error: --seed goes after the subcommand: dirtyviz run --seed 3`) if
/// the subcommand takes it, else that it is the dashboard's.
fn before_the_subcommand(args: impl Iterator<Item = std::ffi::OsString>) -> Option<String> {
    use clap::CommandFactory as _;
    let cli = Cli::command();
    let args: Vec<String> = args.map(|a| a.to_string_lossy().into_owned()).collect();
    // The first word that is no option's value and names a subcommand.
    let mut at = None;
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        if let Some(long) = a.strip_prefix("--") {
            let takes_value = !long.contains('=')
                && cli.get_arguments().any(|o| o.get_long() == Some(long) && o.get_action().takes_values());
            i += if takes_value { 2 } else { 1 };
            continue;
        }
        if cli.find_subcommand(a).is_some() {
            at = Some(i);
            break;
        }
        i += 1;
    }
    let at = at?;
    let sub = cli.find_subcommand(&args[at])?;
    let name = sub.get_name();
    let before = &args[..at];
    let longs: Vec<&str> =
        before.iter().filter_map(|a| a.strip_prefix("--")).map(|a| a.split('=').next().unwrap_or(a)).collect();
    let long = *longs.first()?;
    if let Some(other) = longs.iter().find(|l| !sub.get_arguments().any(|o| o.get_long() == Some(**l))) {
        return Some(format!(
            "error: --{other} is an option of the dashboard (dirtyviz with no command), not of dirtyviz {name}"
        ));
    }
    let moved: Vec<&str> = args[at + 1..].iter().chain(before).map(String::as_str).collect();
    let quoted: Vec<String> =
        moved.iter().map(|a| if a.is_empty() || a.contains(' ') { format!("'{a}'") } else { a.to_string() }).collect();
    Some(format!("error: --{long} goes after the subcommand: dirtyviz {name} {}", quoted.join(" ")))
}

/// The exit code of `result`, its error reported.
fn finish(result: Result<ExitCode>) -> ExitCode {
    result.unwrap_or_else(fail)
}

fn main() -> ExitCode {
    dirtyviz::crash::install();
    let mut args = dirtyviz::cli::negative_values_joined(std::env::args_os());
    // `help --help` asks what `help help` tells (clap refused it).
    if args.len() == 3 && args[1] == "help" && (args[2] == "--help" || args[2] == "-h") {
        args[2] = "help".into();
    }
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::{ContextKind, ErrorKind};
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                // Written as every command's output is: a full disk behind
                // `>` is an error, a reader that went away is not.
                return match dirtyviz::output::to_stdout(help_text(&e).as_bytes()) {
                    Ok(_) => ExitCode::SUCCESS,
                    Err(e) => fail(e),
                };
            }
            // One line: clap's first line (with the line it announces, when
            // it ends in a colon), without the usage block; for a name
            // that is not UTF-8, the argument itself (clap names none).
            let text = match e.kind() {
                ErrorKind::InvalidUtf8 => {
                    not_utf8(std::env::args_os().skip(1)).unwrap_or_else(|| e.render().to_string())
                }
                _ => e.render().to_string(),
            };
            let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
            let mut first = lines.next().unwrap_or("error: invalid arguments").to_string();
            if first.ends_with(':')
                && let Some(next) = lines.next()
            {
                first = format!("{first} {next}");
            }
            // What clap offers beside: the other arguments missing, the
            // possible values, a similar one.
            for extra in lines {
                if e.kind() == ErrorKind::MissingRequiredArgument && extra.starts_with(['<', '-']) {
                    first = format!("{first}, {extra}");
                } else if let Some(values) = extra.strip_prefix('[').and_then(|e| e.strip_suffix(']')) {
                    first = format!("{first}; {values}");
                } else if extra.starts_with("tip: a similar") || extra.starts_with("tip: some similar") {
                    first = format!("{first}; {extra}");
                }
            }
            let command = help_command();
            // A trace to view may be the shipped one.
            if e.kind() == ErrorKind::MissingRequiredArgument
                && command == "dirtyviz view"
                && first.contains("<FILE|->")
            {
                first = format!("{first} (a trace file, - for standard input, or --example)");
            }
            if e.kind() == ErrorKind::ArgumentConflict
                && let Some(line) = before_the_subcommand(std::env::args_os().skip(1))
            {
                first = line;
            }
            // A lesson's steps open the comparisons they teach.
            let compare = e.get(ContextKind::InvalidArg).is_some_and(|a| a.to_string().starts_with("--compare"));
            if e.kind() == ErrorKind::UnknownArgument && compare && command == "dirtyviz lesson" {
                first = "error: --compare does not apply to a lesson: its steps open the comparisons they teach \
                         (c compares in the dashboard)"
                    .into();
            }
            // The help that lists the option: the command's own.
            say(format_args!("{} (see {command} --help)", printable(&first)));
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    if let Err(e) = dirtyviz::crash::test_point(site(&cli.command)) {
        return fail(e);
    }
    finish(match cli.command {
        Some(Command::Run(args)) => run_headless(&args),
        Some(Command::Lessons) => list_lessons(),
        Some(Command::Check(args)) => check_files(&args),
        Some(Command::Lesson(args)) => lesson(&args),
        Some(Command::Replay(args)) => replay(&args),
        Some(Command::Cases(args)) => cases(&args),
        Some(Command::Machines) => {
            out(format_args!("{}", dirtyviz::scenario::machine::report(listing_width()).trim_end()));
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::View(mut args)) => {
            // Mono is the plain text --snapshot writes anyway.
            if args.snapshot && args.theme == Some(dirtyviz::app::ThemeKind::Mono) {
                args.theme = None;
            }
            dirtyviz::ktrace::command::view(&args)
        }
        Some(Command::Live(args)) => dirtyviz::ktrace::command::live(&args),
        Some(Command::Plot(args)) => plot(&args),
        Some(Command::Snapshot(args)) => snapshot(&args),
        Some(Command::Completions(args)) => {
            let mut script = Vec::new();
            let _ = dirtyviz::shell::completions(args.shell, &mut script);
            // A reader that went away is not an error: the output just stops.
            dirtyviz::output::to_stdout(&script).map(|_| ExitCode::SUCCESS)
        }
        Some(Command::Man) => {
            let mut page = Vec::new();
            let _ = dirtyviz::shell::man(&mut page);
            dirtyviz::output::to_stdout(&page).map(|_| ExitCode::SUCCESS)
        }
        None => dashboard(&cli.world, cli.compare, &cli.view),
    })
}

/// The command's name, where debug builds may inject a fault for a test
/// ([`dirtyviz::crash::test_point`]).
fn site(command: &Option<Command>) -> &'static str {
    match command {
        Some(Command::Run(_)) => "run",
        Some(Command::Lessons) => "lessons",
        Some(Command::Check(_)) => "check",
        Some(Command::Lesson(_)) => "lesson",
        Some(Command::Replay(_)) => "replay",
        Some(Command::Cases(_)) => "cases",
        Some(Command::View(_)) => "view",
        Some(Command::Live(_)) => "live",
        Some(Command::Plot(_)) => "plot",
        Some(Command::Snapshot(_)) => "snapshot",
        Some(Command::Completions(_)) => "completions",
        Some(Command::Man) => "man",
        Some(Command::Machines) => "machines",
        None => "start",
    }
}

/// `--patches` beside a `--compare` that sets both sides' kernels is a
/// mistake, not a choice to ignore: refused, naming the comparison that
/// takes a patch level.
fn patches_apply(args: &WorldArgs, compare: Option<dirtyviz::session::Compare>) -> Result<()> {
    use dirtyviz::session::Compare;
    let (Some(_), Some(compare)) = (args.patches, compare) else { return Ok(()) };
    let sets = match compare {
        Compare::Legacy(n) => format!("runs 3.1 against patch {n} (another patch N: --compare legacy=N)"),
        Compare::Linux2638(n) => format!("runs 2.6.38 against patch {n} (another patch N: --compare 2.6.38=N)"),
        Compare::Patch(n) => format!("runs patch {} against patch {n}", n - 1),
        Compare::DirtyRatio(_) | Compare::Alternative => return Ok(()),
    };
    Err(Error::invalid(format!("--patches does not apply to --compare {compare}, which {sets}")))
}

/// Builds the scenario the arguments name, with their overrides applied,
/// and the file it came from, if any.
fn scenario(args: &WorldArgs) -> Result<(Scenario, Option<PathBuf>)> {
    let (mut s, file) = match &args.case {
        Some(case) => (dirtyviz::scenario::case::parse(case)?, None),
        None => {
            let name = args.scenario.as_deref().unwrap_or("default");
            let file = dirtyviz::scenario::presets::get(name).is_none().then(|| PathBuf::from(name));
            (Scenario::resolve(name)?, file)
        }
    };
    if let Some(flag) = s.nfs_patch_without_nfs(&args.overrides()) {
        return Err(Error::invalid(format!(
            "--{}: scenario `{}` has no NFS mount (the NFS patches change only NFS mounts)",
            flag.replace('_', "-"),
            s.name
        )));
    }
    s.apply(&args.overrides());
    if args.case.is_some() {
        s.name = case_as_changed(&s.name, args);
    }
    if let Some(dd) = args.dd {
        // The scenario's own check would blame its first task group.
        let bdis: usize = s.devices.iter().map(|d| d.bdi_count()).sum();
        let tasks: u64 = s.tasks.iter().map(|t| t.tasks_among(bdis)).sum();
        let max = dirtyviz::sim::engine::MAX_TASKS;
        if tasks > max as u64 {
            return Err(Error::invalid(format!(
                "--dd {dd}: {tasks} tasks on {}, at most {max}",
                dirtyviz::units::count(bdis as u64, "bdi")
            )));
        }
    }
    Ok((s, file))
}

/// A case's name says its world (dd count, memory, CPUs, thresholds):
/// where options change that world, the name says so too, so that the
/// summary, the trace's header and the screen do not name a world that
/// did not run (`thresh=100M/xfs-10dd-... with --dd 1`). The kernel and
/// the seed are said beside the name everywhere it shows.
fn case_as_changed(name: &str, args: &WorldArgs) -> String {
    // As the option takes it back: `8G`, `100M`, `1536K`, `5000`.
    let size = |b: u64| match b {
        _ if b > 0 && b.is_multiple_of(1 << 30) => format!("{}G", b >> 30),
        _ if b > 0 && b.is_multiple_of(1 << 20) => format!("{}M", b >> 20),
        _ if b > 0 && b.is_multiple_of(1 << 10) => format!("{}K", b >> 10),
        _ => b.to_string(),
    };
    let changes: Vec<String> = [
        args.dirty_ratio.map(|v| format!("--dirty-ratio {v}")),
        args.dirty_background_ratio.map(|v| format!("--dirty-background-ratio {v}")),
        args.dirty_bytes.map(|v| format!("--dirty-bytes {}", size(v))),
        args.dirty_background_bytes.map(|v| format!("--dirty-background-bytes {}", size(v))),
        args.memory.map(|v| format!("--memory {}", size(v))),
        args.cpus.map(|v| format!("--cpus {v}")),
        args.hz.map(|v| format!("--hz {v}")),
        args.dd.map(|v| format!("--dd {v}")),
        args.period_shift.map(|v| format!("--period-shift {v}")),
        args.nfs_wait_queue.then(|| "--nfs-wait-queue".to_string()),
        args.nfs_congestion_scaled.then(|| "--nfs-congestion-scaled".to_string()),
    ]
    .into_iter()
    .flatten()
    .collect();
    if changes.is_empty() { name.to_string() } else { format!("{name} with {}", changes.join(" ")) }
}

/// What a case whose devices do not all take its box's profile's numbers
/// is told ([`dirtyviz::scenario::case::profile_note`]).
fn no_profile(world: &WorldArgs) -> Option<dirtyviz::scenario::case::ProfileNote> {
    world.case.as_deref().and_then(dirtyviz::scenario::case::profile_note)
}

fn run_headless(args: &RunArgs) -> Result<ExitCode> {
    patches_apply(&args.world, args.compare)?;
    let (s, file) = scenario(&args.world)?;
    if let Some(note) = no_profile(&args.world).filter(|_| !args.quiet) {
        say(format_args!("{}", note.long));
    }
    let inputs: Vec<Named> = file.iter().map(|p| Named { role: "the scenario", path: p }).collect();
    let sides = args.compare.map_or(1, |_| 2);
    let traces = side_files("--trace", args.trace.as_deref(), sides)?;
    let csvs = side_files("--csv", args.csv.as_deref(), sides)?;
    let roles: [[&str; 2]; 2] = if sides == 2 {
        [["--trace (side A)", "--trace (side B)"], ["--csv (side A)", "--csv (side B)"]]
    } else {
        [["--trace"; 2], ["--csv"; 2]]
    };
    let mut outputs: Vec<Named> = Vec::new();
    for (files, roles) in [(&traces, roles[0]), (&csvs, roles[1])] {
        outputs.extend(files.iter().zip(roles).filter_map(|(p, role)| Some(Named { role, path: p.as_deref()? })));
    }
    outputs.extend(args.summary_json.as_deref().map(|path| Named { role: "--summary-json", path }));
    check_distinct(&inputs, &outputs)?;
    dirtyviz::interrupt::catch();
    let [trace_a, trace_b] = traces;
    let [csv_a, csv_b] = csvs;
    let opts = RunOptions {
        duration_ns: match args.duration {
            Some(t) => t.ns_of_a_jiffy_or_more("--duration", s.hz)?,
            None => (s.duration_s * 1e9) as u64,
        },
        files: [SideFiles { trace: trace_a, csv: csv_a }, SideFiles { trace: trace_b, csv: csv_b }],
        max_trace_bytes: args.max_trace_size,
        summary_json: args.summary_json.clone(),
        check_invariants: args.check_invariants,
        progress: !args.quiet,
        announce_trace_bytes: None,
        left_out_s: Vec::new(),
    };
    let mut note = |note: String| say(format_args!("{}", printable(&note)));
    let report = match args.compare {
        Some(compare) => run_compare(&s, compare, &opts, &mut note)?.report(),
        None => run(&s, &opts, &mut note)?.report(),
    };
    if !args.quiet {
        out(format_args!("{}", report.trim_end()));
    }
    Ok(ExitCode::SUCCESS)
}

/// What `--trace` or `--csv` (`option`) names for each of `sides` sides:
/// one file for a single side; for two, `A,B` or a name with `{side}`
/// (made `a` and `b`).
fn side_files(option: &str, path: Option<&std::path::Path>, sides: usize) -> Result<[Option<PathBuf>; 2]> {
    side_files_of(option, path, sides, "this run has one")
}

/// [`side_files`], where a single side is said to be `one` (`this run has
/// one`; a replay's: `a replay writes side A only`).
fn side_files_of(
    option: &str,
    path: Option<&std::path::Path>,
    sides: usize,
    one: &str,
) -> Result<[Option<PathBuf>; 2]> {
    let Some(path) = path else { return Ok([None, None]) };
    if sides == 1 {
        if path.to_str().is_some_and(|text| text.contains("{side}")) {
            return Err(Error::invalid(format!(
                "{option} {}: {{side}} stands for a side of --compare, and {one}",
                printable(&path.display().to_string())
            )));
        }
        // Two files, as --compare takes them, where one side writes one
        // (it wrote a file called `a.csv,b.csv`); `./` names such a file.
        if let Some((a, b)) = path.to_str().and_then(|t| t.split_once(','))
            && !a.is_empty()
            && !b.is_empty()
            && !a.starts_with("./")
        {
            return Err(Error::invalid(format!(
                "{option} {}: A,B names a file for each side of --compare, and {one} \
                 (./{} for a file of that name)",
                printable(&path.display().to_string()),
                printable(&path.display().to_string())
            )));
        }
        return Ok([Some(path.to_path_buf()), None]);
    }
    let text = path.to_str().ok_or_else(|| Error::invalid(format!("{option}: the file name is not UTF-8")))?;
    if text.contains("{side}") {
        return Ok([Some(text.replace("{side}", "a").into()), Some(text.replace("{side}", "b").into())]);
    }
    match text.split_once(',') {
        Some((a, b)) if !a.is_empty() && !b.is_empty() && !b.contains(',') => Ok([Some(a.into()), Some(b.into())]),
        _ => Err(Error::invalid(format!(
            "{option} {}: with --compare it takes two files, A,B, or one name with {{side}} (e.g. run-{{side}}.csv)",
            printable(text)
        ))),
    }
}

/// Exit code of `dirtyviz check` when something failed.
const EXIT_CHECK_FAILED: u8 = 1;

/// Reads the user's progress, telling on stderr what had to be set aside.
fn open_progress() -> progress::Loaded {
    let loaded = Progress::open();
    if let Some(w) = &loaded.warning {
        say(format_args!("warning: {}", printable(w)));
    }
    loaded
}

/// The columns a listing is wrapped to: the terminal's, when it prints
/// to one (a pipe or a file gets whole lines).
fn listing_width() -> Option<usize> {
    use std::io::IsTerminal as _;
    std::io::stdout().is_terminal().then(|| ratatui::crossterm::terminal::size().ok()).flatten().map(|(w, _)| w.into())
}

fn list_lessons() -> Result<ExitCode> {
    let progress = open_progress().progress;
    let lessons = Lesson::shipped();
    let width = lessons.iter().flatten().map(|l| l.title.chars().count()).max().unwrap_or(0);
    for lesson in lessons {
        match lesson {
            Ok(l) => {
                let state = match progress.lessons.get(&l.id) {
                    // Said as what it is: a column of `step 2/6` had no heading.
                    Some(p) if p.done => "done".to_string(),
                    Some(p) => format!("at step {}/{}", p.step + 1, l.steps.len()),
                    None => String::new(),
                };
                let line = format!("{}  {:<width$}  {state:<12}  {}", l.id, l.title, l.patch);
                // On a terminal too narrow for it, the patch goes under
                // the title, wrapped.
                let line = match listing_width() {
                    Some(w) if line.chars().count() > w => {
                        let head = format!("{}  {}  {state}", l.id, l.title);
                        std::iter::once(head.trim_end().to_string())
                            .chain(dirtyviz::units::hanging_lines("    ", 4, &l.patch, w))
                            .collect::<Vec<_>>()
                            .join("\n")
                    }
                    _ => line,
                };
                if !out(format_args!("{line}")) {
                    break;
                }
            }
            Err(e) => say(format_args!("{}", printable(&e.to_string()))),
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn check_files(args: &CheckArgs) -> Result<ExitCode> {
    let sources = if args.files.is_empty() { check::shipped_sources() } else { check::sources(&args.files) };
    // A file that cannot be read or loaded is bad input, as for every
    // other command: refused in one line before anything runs, each such
    // file in its own line, the last one the command's error.
    let (mut loaded, mut errors) = (Vec::new(), Vec::new());
    for result in sources.iter().map(check::load) {
        match result {
            Ok(l) => loaded.push(l),
            Err(e) => errors.push(e),
        }
    }
    if let Some(last) = errors.pop() {
        for e in errors {
            dirtyviz::crash::print_error(e);
        }
        return Err(last);
    }
    let jobs: Vec<(&check::Source, check::Loaded)> = sources.iter().zip(loaded).collect();
    dirtyviz::interrupt::catch();
    let progress = dirtyviz::run::progress::Progress::new("checking", sources.len());
    let mut outcomes = dirtyviz::run::on_every_cpu(&jobs, |(s, loaded)| {
        let o = check::check_loaded(&s.origin, loaded, args.seed);
        progress.tick();
        o
    });
    drop(progress);
    dirtyviz::interrupt::check()?;
    if args.screens {
        let lessons: Vec<(usize, Lesson)> = outcomes
            .iter()
            .zip(&jobs)
            .enumerate()
            .filter_map(|(i, (o, (_, loaded)))| match loaded {
                check::Loaded::Lesson(l) if o.passed() => Some((i, l.as_ref().clone().with_seed(args.seed))),
                _ => None,
            })
            .collect();
        let progress = dirtyviz::run::progress::Progress::new("drawing the lessons' screens", lessons.len());
        let walked = dirtyviz::run::on_every_cpu(&lessons, |(i, l)| {
            let source = &sources[*i];
            let place = |step: usize| match source.text.as_deref() {
                Ok(text) => dirtyviz::lesson::step_place(text, &source.origin, step, "text"),
                Err(_) => source.origin.clone(),
            };
            let missing = dirtyviz::ui::walk::missing(l, &place, dirtyviz::ui::walk::SIZES);
            progress.tick();
            (*i, missing)
        });
        drop(progress);
        dirtyviz::interrupt::check()?;
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
        out(format_args!("{} {}", if o.passed() { "ok  " } else { "FAIL" }, printable(&o.summary)));
        if args.verbose {
            for c in &o.checks {
                let mark = if c.pass { "✓" } else { "✗" };
                out(format_args!(
                    "       {mark} step {} {} ({}, {}): {} ({})",
                    c.step, c.label, c.metric, c.reads, c.shown, c.bounds
                ));
            }
            for q in &o.questions {
                let answer = check::show_value(q.value.unwrap_or(f64::NAN), q.unit);
                let answer = if q.reached { answer } else { format!("not reached in {answer}") };
                let why = q.why.as_ref().map(|why| format!(": {why}")).unwrap_or_default();
                out(format_args!("       ? step {} \"{}\" ({}): {answer}{why}", q.step, q.ask, q.metric));
            }
        }
        for f in &o.failures {
            say(format_args!("{}", printable(f)));
        }
        failed += usize::from(!o.passed());
    }
    if failed > 0 {
        say(format_args!("{failed} of {} failed", outcomes.len()));
        return Ok(ExitCode::from(EXIT_CHECK_FAILED));
    }
    out(format_args!("all {} passed", outcomes.len()));
    Ok(ExitCode::SUCCESS)
}

fn lesson(args: &LessonArgs) -> Result<ExitCode> {
    let opts = AppOptions { seed: args.seed, ..app_options(&args.view) };
    let file = args.lesson.as_deref().filter(|w| Lesson::shipped_file(w).is_none()).map(PathBuf::from);
    let chosen = args.lesson.as_deref().map(Lesson::resolve).transpose()?;
    let picker = if chosen.is_none() { Lesson::all_shipped()? } else { Vec::new() };
    // The outputs are refused for their paths first, as the dashboard's
    // are, then without a terminal no session starts: the progress is
    // neither saved nor set aside.
    let input = file.as_deref().map(|path| Named { role: "the lesson", path });
    check_distinct(&input.into_iter().collect::<Vec<_>>(), &view_outputs(&args.view))?;
    args.view.record.as_deref().map(dirtyviz::record::may_replace).transpose()?;
    dirtyviz::ui::need_terminal().map_err(Error::Terminal)?;
    let loaded = open_progress();
    let mut app = match chosen {
        Some(l) => {
            let mut progress = loaded.progress;
            let step = progress.start(&l);
            App::for_lesson(l, step, progress, &opts)?
        }
        None => App::lesson_picker(picker, loaded.progress, &opts)?,
    };
    if let Some(note) = loaded.note {
        app.set_note(note);
    }
    open_dashboard(app, &args.view, file.as_deref().map(|path| Named { role: "the lesson", path }), Progressing::Save)
}

/// The app options the view arguments ask for (`NO_COLOR`, or a
/// terminal without colours, forces mono).
fn app_options(view: &ViewArgs) -> AppOptions {
    AppOptions {
        theme: dirtyviz::ui::theme::on_terminal(view.theme),
        marker: view.marker,
        trace: view.trace.is_some(),
        debug: view.debug,
        seed: None,
        added_dd_waits: false,
        next_at_once: false,
        keys_before_5: false,
        keys_before_6: false,
        keys_before_7: false,
        keys_before_8: false,
    }
}

/// The files a dashboard writes that its command line names.
fn view_outputs(view: &ViewArgs) -> Vec<Named<'_>> {
    let trace = view.trace.as_deref().map(|p| Named { role: "--trace", path: p });
    let record = view.record.as_deref().map(|p| Named { role: "--record", path: p });
    trace.into_iter().chain(record).collect()
}

/// Runs the dashboard on `app` (built traced when `view.trace` is set)
/// with the view options: recording, trace file; the lessons opened save
/// their progress (which `keeping` says where it comes from). `input` is
/// the scenario or lesson file it was built from, which no output may be.
fn open_dashboard(mut app: App, view: &ViewArgs, input: Option<Named>, keeping: Progressing) -> Result<ExitCode> {
    use dirtyviz::record::{Header, Recorder, TraceWriter};
    let data_dir = progress::data_dir();
    let progress_file = progress::path();
    let lock_file = progress_file.as_deref().map(progress::lock_path);
    let last_session = data_dir.as_deref().map(dirtyviz::record::last_session);
    let mut inputs: Vec<Named> = input.into_iter().collect();
    inputs.extend(progress_file.as_deref().map(|p| Named { role: "the progress file", path: p }));
    inputs.extend(lock_file.as_deref().map(|p| Named { role: "the progress lock", path: p }));
    let outputs = view_outputs(view);
    if view.record.is_none() && !view.no_record {
        // The default recording ends up as last-session.jsonl.
        inputs.extend(last_session.as_deref().map(|p| Named { role: "the last session's recording", path: p }));
    } else if let (Some(trace), Some(record), Some(last)) = (&view.trace, &view.record, &last_session)
        && same_place(trace, last)
        && !same_place(record, last)
    {
        // --record's recording becomes last-session.jsonl at the end.
        return Err(Error::invalid(format!(
            "--trace {} is the last session's recording, which this session's becomes: name another file",
            trace.display()
        )));
    }
    check_distinct(&inputs, &outputs)?;
    view.record.as_deref().map(dirtyviz::record::may_replace).transpose()?;
    // Nothing is written (no trace, no recording) for a session that
    // cannot start.
    dirtyviz::ui::need_terminal().map_err(Error::Terminal)?;
    if keeping == Progressing::Load {
        // A lesson opened from `L` keeps its progress, as one `dirtyviz
        // lesson` opens.
        let loaded = open_progress();
        app = app.with_progress(loaded.progress);
        if let Some(note) = loaded.note {
            app.add_note(&note);
        }
    }

    let mut outputs = dirtyviz::ui::Outputs::default();
    outputs.save_progress = true;
    if let Some(path) = &view.trace {
        outputs.trace = Some(TraceWriter::capped(path, &app, view.max_trace_size)?);
    }
    let header = Header::of(&app);
    if let Some(path) = &view.record {
        let mut recorder = Recorder::create(path, &header)?;
        if let Some(dir) = &data_dir {
            // last-session.jsonl is the last session's recording wherever
            // it went.
            recorder = recorder.link_last_session(dir);
        }
        // A session killed outright leaves its recording there: said from
        // the start.
        if let Some(temp) = recorder.temp_path() {
            let name =
                |p: &std::path::Path| printable(&p.file_name().unwrap_or(p.as_os_str()).to_string_lossy()).into_owned();
            // Beside the file named, its name is enough; through a link to
            // another directory, where it is.
            let dir = |p: &std::path::Path| {
                p.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(".".as_ref()).to_path_buf()
            };
            let shown = if dir(temp) == dir(path) {
                name(temp)
            } else {
                printable(&temp.strip_prefix(".").unwrap_or(temp).display().to_string()).into_owned()
            };
            app.add_note(&format!("recording to {shown}: it replaces {} when the session ends", name(path)));
        }
        outputs.record = Some(recorder);
    } else if !view.no_record
        && let Some(dir) = &data_dir
    {
        // The default place: go on without a recording if it cannot be kept.
        outputs.record = Some(Recorder::for_session(dir, &header));
    } else if !view.no_record {
        app.add_note("not recorded: no data directory (set XDG_DATA_HOME or HOME)");
    }
    Ok(match dirtyviz::ui::run(app, outputs)? {
        dirtyviz::ui::Exit::Quit => ExitCode::SUCCESS,
        // As a shell reports a process a signal ended: 128 + its number.
        dirtyviz::ui::Exit::Signal(n) => ExitCode::from(128u8.saturating_add(n as u8)),
    })
}

/// Whether `a` and `b` name the same place (their directories resolved),
/// whether or not a file is there.
fn same_place(a: &std::path::Path, b: &std::path::Path) -> bool {
    let place = |p: &std::path::Path| {
        let dir = p.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
        Some((std::fs::canonicalize(dir).ok()?, p.file_name()?.to_os_string()))
    };
    place(a).is_some_and(|a| Some(a) == place(b))
}

fn cases(args: &CasesArgs) -> Result<ExitCode> {
    use dirtyviz::cases;
    // The seed's cases run at the default HZ.
    let hz = Scenario::default().hz;
    let duration_ns = args.duration.ns_of_a_jiffy_or_more("--duration", hz)?;
    let gains = match args.table {
        CasesTable::Main => None,
        CasesTable::Patch11 => Some(dirtyviz::gains::Table::Patch11),
        CasesTable::NfsWq => Some(dirtyviz::gains::Table::NfsWaitQueue),
    };
    if let Some(profile) = &args.fit {
        if gains.is_some() {
            return Err(Error::invalid("--fit fits on the main table: leave out --table"));
        }
        return fit(profile, duration_ns, args.quick);
    }
    if let Some(table) = gains {
        return gain_table(args, table, duration_ns);
    }
    let filter = args.filter.as_deref();
    let rows: Vec<_> = cases::rows().into_iter().filter(|r| cases::chosen(filter, r.name)).collect();
    if rows.is_empty() {
        let names = cases::rows().into_iter().map(|r| r.name);
        return Err(cases::no_case(filter.unwrap_or(""), "the seed's tables", names));
    }
    dirtyviz::interrupt::catch();
    let progress = dirtyviz::run::progress::Progress::new("cases: runs", 2 * rows.len());
    let measured = cases::measure(&rows, duration_ns, &|| progress.tick());
    drop(progress);
    let measured = measured?;
    out(format_args!("{}", cases::report(&measured).trim_end()));
    let bounds = cases::Bounds { ratio: args.max_error, rate: args.max_rate_error, kind: args.max_kind_error };
    let failures = cases::failures(&measured, &bounds);
    for f in &failures {
        say(format_args!("{f}"));
    }
    Ok(if failures.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(EXIT_CHECK_FAILED) })
}

/// `dirtyviz cases --fit PROFILE`: the profile's fitted numbers chosen
/// again on the fitted half of the seed's table.
fn fit(profile: &str, duration_ns: u64, quick: bool) -> Result<ExitCode> {
    use dirtyviz::fit;
    // The option's value is a PROFILE: the error says so.
    let profile = dirtyviz::scenario::machine::get(profile).map_err(|e| {
        Error::invalid(format!("--fit: {}", e.to_string().replacen("unknown machine", "unknown profile", 1)))
    })?;
    let plans = fit::plan(profile)?;
    dirtyviz::interrupt::catch();
    let progress = dirtyviz::run::progress::Progress::new("fit: runs", plans.iter().map(fit::Plan::runs).sum());
    let pruning = if quick { fit::Pruning::Cases } else { fit::Pruning::Seeds };
    let fits = fit::fit(profile, plans, duration_ns, pruning, &|| progress.tick());
    drop(progress);
    let fits = fits?;
    out(format_args!("{}", fit::report(profile, &fits).trim_end()));
    if fits.iter().any(|f| f.chosen.is_some()) {
        say(format_args!("the fit chooses other numbers for {} than assets/machines.ron holds", profile.name));
        return Ok(ExitCode::from(EXIT_CHECK_FAILED));
    }
    Ok(ExitCode::SUCCESS)
}

/// `dirtyviz cases --table patch11|nfs-wq`: a change's gain in the seed
/// and in the model. The bounds judge the main table only.
fn gain_table(args: &CasesArgs, table: dirtyviz::gains::Table, duration_ns: u64) -> Result<ExitCode> {
    use dirtyviz::gains;
    if args.max_error.is_some() || args.max_rate_error.is_some() || args.max_kind_error.is_some() {
        return Err(Error::invalid("--max-error, --max-rate-error and --max-kind-error judge the main table only"));
    }
    let rows = gains::rows(table);
    dirtyviz::interrupt::catch();
    let chosen = rows.rows.iter().filter(|r| dirtyviz::cases::chosen(args.filter.as_deref(), r.name)).count();
    let progress = dirtyviz::run::progress::Progress::new("cases: runs", 2 * chosen);
    let measured = gains::measure(&rows, args.filter.as_deref(), duration_ns, &|| progress.tick());
    drop(progress);
    out(format_args!("{}", gains::report(table, &rows, &measured?).trim_end()));
    Ok(ExitCode::SUCCESS)
}

fn replay(args: &ReplayArgs) -> Result<ExitCode> {
    if args.file == std::path::Path::new("-") {
        return Err(Error::invalid(
            "replay -: a recording is read from a file, not standard input; name the file (./- for one called -)",
        ));
    }
    let inputs = [Named { role: "the recording", path: &args.file }];
    let outputs: Vec<Named> = [("--trace", &args.trace), ("--csv", &args.csv), ("--summary-json", &args.summary_json)]
        .into_iter()
        .filter_map(|(role, p)| Some(Named { role, path: p.as_deref()? }))
        .collect();
    check_distinct(&inputs, &outputs)?;
    // A replay writes side A alone: `run --compare`'s names for two files
    // are refused as `run` refuses them on one side (they were written
    // as files called `a.csv,b.csv` and `r-{side}.csv`).
    let one = "a replay writes side A only";
    side_files_of("--trace", args.trace.as_deref(), 1, one)?;
    side_files_of("--csv", args.csv.as_deref(), 1, one)?;
    dirtyviz::interrupt::catch();
    let r = dirtyviz::record::replay(
        &args.file,
        dirtyviz::record::ReplayOutputs {
            trace: args.trace.as_deref(),
            max_trace_bytes: args.max_trace_size,
            csv: args.csv.as_deref(),
            summary_json: args.summary_json.as_deref(),
        },
    )?;
    if r.keys_format > dirtyviz::record::KEYS_FORMAT {
        say(format_args!(
            "note: {} was recorded with key format {}, newer than this dirtyviz's {}: a replay that pressed keys whose meaning changed may differ",
            printable(&args.file.display().to_string()),
            r.keys_format,
            dirtyviz::record::KEYS_FORMAT
        ));
    } else if r.keys_format < dirtyviz::record::KEYS_FORMAT_REPLAYED {
        say(format_args!(
            "note: {} was recorded when some keys meant other things (key format {}, now {}: in a lesson, n before a step's time is up and r); a replay that pressed them may differ",
            printable(&args.file.display().to_string()),
            r.keys_format,
            dirtyviz::record::KEYS_FORMAT
        ));
    } else if r.keys_format < 4 {
        say(format_args!(
            "note: {} was recorded when c started both sides from the scenario's world (key format {}, now {}); a replay that pressed c may differ",
            printable(&args.file.display().to_string()),
            r.keys_format,
            dirtyviz::record::KEYS_FORMAT
        ));
    }
    if r.recorded_by != env!("CARGO_PKG_VERSION") {
        say(format_args!(
            "note: {} was recorded by dirtyviz {}, this is {}: where their simulations differ, so does the replay",
            printable(&args.file.display().to_string()),
            printable(&r.recorded_by),
            env!("CARGO_PKG_VERSION")
        ));
    }
    let written: Vec<String> =
        outputs.iter().map(|o| format!("{} {}", o.role, printable(&o.path.display().to_string()))).collect();
    let count = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    out(format_args!(
        "replayed {} ({}) of {}: {:.1} simulated s, ending at {}{}",
        count(r.calls, "call", "calls"),
        count(r.keys, "key", "keys"),
        printable(&args.file.display().to_string()),
        r.sim_ns as f64 / 1e9,
        r.level,
        if written.is_empty() { String::new() } else { format!("; wrote {}", written.join(", ")) }
    ));
    if let Some(at) = r.trace_stopped_s {
        out(format_args!("trace {}", dirtyviz::run::summary::trace_stopped(at)));
    }
    if let Some((line, n)) = r.after_quit {
        say(format_args!(
            "note: {}:{line}: the session quits here; the {} after it {} not replayed",
            printable(&args.file.display().to_string()),
            count(n, "call", "calls"),
            if n == 1 { "was" } else { "were" }
        ));
    }
    if let Some((line, col)) = r.cut {
        say(format_args!(
            "note: {}:{line}:{col}: the file ends here, inside this line (the session was killed while writing it?): \
             replayed the calls before {}",
            printable(&args.file.display().to_string()),
            if r.after_quit.is_some() { "the quit" } else { "it" }
        ));
    }
    Ok(ExitCode::SUCCESS)
}

fn plot(args: &dirtyviz::cli::PlotArgs) -> Result<ExitCode> {
    use dirtyviz::plot::{Source, plot};
    let source = match (&args.trace, &args.lesson) {
        (Some(path), _) => Source::Trace { path: path.clone() },
        (None, Some(lesson)) => {
            let step = step_of(&Lesson::resolve(lesson)?, args.step)?;
            Source::Lesson { lesson: lesson.clone(), step, seed: args.world.seed }
        }
        (None, None) => {
            patches_apply(&args.world, args.compare)?;
            let s = scenario(&args.world)?.0;
            if let Some(note) = no_profile(&args.world) {
                say(format_args!("{}", note.long));
            }
            Source::World { scenario: Box::new(s), compare: args.compare }
        }
    };
    let inputs = [args.world.scenario.as_deref(), args.lesson.as_deref(), args.trace.as_deref()];
    let report = plot(source, &dirtyviz::plot::options(args), &inputs)?;
    out(format_args!("{}", report.trim_end()));
    Ok(ExitCode::SUCCESS)
}

/// The lesson's step `--step` asks for, from 1 (default 1), or an error
/// naming the option and how many steps the lesson has.
fn step_of(lesson: &Lesson, step: Option<u32>) -> Result<usize> {
    let step = step.map_or(1, |s| s as usize);
    if step == 0 || step > lesson.steps.len() {
        return Err(Error::invalid(format!("--step {step}: lesson {} has {} steps", lesson.id, lesson.steps.len())));
    }
    Ok(step)
}

fn dashboard(world: &WorldArgs, compare: Option<dirtyviz::session::Compare>, view: &ViewArgs) -> Result<ExitCode> {
    patches_apply(world, compare)?;
    let (s, file) = scenario(world)?;
    let app = world_app(s, compare, world, &app_options(view))?;
    open_dashboard(app, view, file.as_deref().map(|path| Named { role: "the scenario", path }), Progressing::Load)
}

/// An app on scenario `s` (built from `world`), its status line telling
/// a case on a box the seed has no profile of.
fn world_app(
    s: Scenario,
    compare: Option<dirtyviz::session::Compare>,
    world: &WorldArgs,
    opts: &AppOptions,
) -> Result<App> {
    let mut app = App::new(s, compare, opts)?;
    if let Some(note) = no_profile(world) {
        app.set_note(note.short);
    }
    Ok(app)
}

/// What a dashboard session does with the user's lesson progress.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Progressing {
    /// The app holds it: saves the lessons' entries as they change.
    Save,
    /// Opens it once the session can start, for the lessons opened from
    /// `L`, and saves as [`Progressing::Save`].
    Load,
}

fn snapshot(args: &SnapshotArgs) -> Result<ExitCode> {
    use dirtyviz::ui::{keys, snapshot};
    // As on the dashboard, NO_COLOR makes it mono (the --theme help says so).
    let theme = dirtyviz::ui::theme::resolve(args.theme);
    let mut opts = AppOptions { theme, marker: args.marker, ..AppOptions::default() };
    let presses = snapshot_presses(args.keys.as_deref().unwrap_or(""))?;
    dirtyviz::interrupt::catch();
    let (mut app, input) = match &args.lesson {
        Some(which) => {
            // The seed alone applies to a lesson, as `lesson --seed` does.
            let world = args.world.overrides();
            if (dirtyviz::scenario::Overrides { seed: None, ..world }) != dirtyviz::scenario::Overrides::default() {
                return Err(Error::invalid(
                    "--lesson sets up its own world: world options do not apply to it (but --seed)",
                ));
            }
            opts.seed = world.seed;
            let l = Lesson::resolve(which)?;
            let step = step_of(&l, args.step)? - 1;
            let file = Lesson::shipped_file(which).is_none().then(|| PathBuf::from(which));
            (App::for_lesson(l, step, Progress::default(), &opts)?, file.map(|f| ("the lesson", f)))
        }
        None => {
            patches_apply(&args.world, args.compare)?;
            let (s, file) = scenario(&args.world)?;
            (world_app(s, args.compare, &args.world, &opts)?, file.map(|f| ("the scenario", f)))
        }
    };
    // `-o -` is standard output, as no -o.
    let output = args.output.as_deref().filter(|path| *path != std::path::Path::new("-"));
    let format = snapshot::Format::for_output(args.format, output)?;
    if let Some(path) = output {
        let inputs: Vec<Named> = input.iter().map(|(role, path)| Named { role, path }).collect();
        check_distinct(&inputs, &[Named { role: "--output", path }])?;
    }
    let (width, height) = args.size;
    // PgUp and PgDn in a lesson scroll its text on the screen shown, as
    // the dashboard's would pressed there: on the step's start, before
    // it ran, they scrolled by its page and room then, which its end
    // (checks judged, taking more rows) does not have.
    let mut text_scrolls = Vec::new();
    // Whether keys paused the world or stepped it: a step that pauses it
    // (its Pause action) does not stop the snapshot at its start.
    let mut keys_held = false;
    let mut not_done = snapshot::NotDone::default();
    for press in presses {
        match press {
            Press::Key(key) => {
                // The keys scroll as they would in a terminal of that size.
                app.set_scroll_room(snapshot::scroll_room(&app, width, height));
                let before = (app.paused(), app.session().sim_ns);
                // What the dashboard would do outside the screen, a
                // snapshot does not: said once (`s` saved nothing and said
                // nothing).
                let save = if output.is_some() {
                    "saves no file of its own: -o writes this screen"
                } else {
                    "saves no file of its own: -o FILE.svg writes the screen"
                };
                match keys::message(key, app.mode()) {
                    Some(msg @ Msg::Lesson(LessonMsg::Scroll(_))) => text_scrolls.push(msg),
                    // Not given to the app, which takes no key after a quit.
                    Some(Msg::Quit) => not_done.say(Vec::new(), true, save),
                    Some(msg) => {
                        app.update(msg);
                        // No frames in between: `n` runs the rest of its step now.
                        app.finish_catch_up();
                        not_done.say(app.take_requests(), false, save);
                    }
                    None => {
                        if let Some(note) = keys::unbound(key, app.mode(), keys::Board::Simulation) {
                            app.set_passing_note(note);
                        }
                    }
                }
                keys_held |= (app.paused(), app.session().sim_ns) != before;
            }
            Press::At(t) => {
                let ns = snapshot_time(&app, Some(t), "--keys time")?;
                if ns < app.session().sim_ns {
                    return Err(Error::invalid(format!(
                        "--keys @{}: the world is past that time already (times in --keys go forward)",
                        seconds_of(t)
                    )));
                }
                app.advance_to(ns);
            }
        }
    }
    // Keys that paused the world leave it where they paused it, as on the
    // dashboard (`.` steps it); an --at said takes it there all the same.
    if args.at.is_some() || !app.paused() || !keys_held {
        let at = snapshot_time(&app, args.at, "--at")?;
        // As the times in --keys, --at goes forward from where the keys left the world.
        if let Some(t) = args.at
            && at < app.session().sim_ns
        {
            return Err(Error::invalid(format!(
                "--at {}: --keys ran the world to {} s already (--at goes forward from the keys, as their @TIMEs do)",
                seconds_of(t),
                dirtyviz::units::seconds(app.session().sim_ns as f64 / 1e9)
            )));
        }
        app.advance_to(at);
    }
    for msg in text_scrolls {
        app.set_scroll_room(snapshot::scroll_room(&app, width, height));
        app.update(msg);
    }
    // What the terminal shows once a frame has been drawn: a hint just
    // asked for scrolled to.
    app.set_scroll_room(snapshot::scroll_room(&app, width, height));
    let text = snapshot::write(&snapshot::render(&app, width, height), format, app.theme());
    dirtyviz::interrupt::check()?;
    match output {
        Some(path) => snapshot::write_file(path, &text)?,
        None => {
            dirtyviz::output::to_stdout(text.as_bytes())?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// What `snapshot --keys` does, in order: press a key, or run the world
/// on to a time (`@30s`).
enum Press {
    Key(ratatui::crossterm::event::KeyEvent),
    At(SimTime),
}

/// The presses of `--keys`: key names, and `@TIME` to run on to TIME
/// first (a lone `@` is the key).
fn snapshot_presses(text: &str) -> Result<Vec<Press>> {
    use dirtyviz::ui::keys;
    text.split_whitespace()
        .map(|k| match k.strip_prefix('@').filter(|t| !t.is_empty()) {
            Some(t) => dirtyviz::cli::sim_moment(t)
                .map(Press::At)
                .map_err(|e| Error::invalid(format!("--keys: invalid time `{k}`: {e}"))),
            None => keys::parse_key(k).map(Press::Key).ok_or_else(|| {
                Error::invalid(format!("--keys: unknown key `{k}`: expected {}, or @TIME (e.g. @30s)", keys::KEY_NAMES))
            }),
        })
        .collect()
}

/// `t` as written in an error: `30 s`, `250 j`.
fn seconds_of(t: SimTime) -> String {
    match t {
        SimTime::Seconds(s) => format!("{}s", dirtyviz::units::seconds(s)),
        SimTime::Jiffies(j) => format!("{j}j"),
    }
}

/// The world's time \[ns\] a snapshot's `at` (named `what` in errors,
/// e.g. `--at`) means: in a lesson, that long into the open step (default: its end);
/// else that simulated time (default: the scenario's duration). A time
/// after 0 but under one jiffy is one jiffy, said in a note.
fn snapshot_time(app: &App, at: Option<SimTime>, what: &str) -> Result<u64> {
    let hz = app.world().hz();
    // 0 is the world before anything ran (in a lesson, the step's start);
    // a later moment before the first tick is the first tick: nothing the
    // kernel does happens in between.
    let at = at
        .map(|t| {
            let ns = t.ns(what, hz)?;
            let jiffy = dirtyviz::units::jiffy_ns(hz);
            if ns == 0 || ns >= jiffy {
                return Ok(ns);
            }
            let ms = dirtyviz::units::trimmed(ns as f64 / 1e6, 6);
            let (said, then) = match what {
                "--keys time" => (format!("--keys @{ms}ms"), "the world runs on to"),
                _ => (format!("{what} {ms}ms"), "the snapshot is at"),
            };
            eprintln!(
                "note: {said} is under one jiffy at HZ {hz}: {then} one jiffy, {} ms",
                dirtyviz::units::trimmed(jiffy as f64 / 1e6, 3)
            );
            Ok::<u64, Error>(jiffy)
        })
        .transpose()?;
    Ok(match app.lesson() {
        Some(mode) => {
            let run = mode.run();
            let step_ns = run.step_end_ns() - run.step_start_ns;
            // The step stops at its end: a later time would show its end
            // under another name.
            if let Some(at) = at.filter(|&at| at > step_ns) {
                return Err(Error::invalid(format!(
                    "{what} {} s: step {} of lesson {} runs {} s and stops there",
                    dirtyviz::units::seconds(at as f64 / 1e9),
                    run.step + 1,
                    run.lesson.id,
                    dirtyviz::units::seconds(step_ns as f64 / 1e9)
                )));
            }
            run.step_start_ns + at.unwrap_or(step_ns)
        }
        None => at.unwrap_or((app.session().scenario.duration_s * 1e9) as u64),
    })
}
