//! The `dirtyviz` binary: parse the command line, dispatch, report errors.

use std::process::ExitCode;

use clap::Parser;
use dirtyviz::cli::{Cli, Command, RunArgs, ViewArgs, WorldArgs};
use dirtyviz::run::{RunOptions, run};
use dirtyviz::scenario::Scenario;

/// Exit code for bad input: a usage error, an unreadable or invalid file.
const EXIT_BAD_INPUT: u8 = 2;

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
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let opts = RunOptions {
        duration_ns: args.duration.unwrap_or((s.duration_s * 1e9) as u64),
        trace: args.trace.clone(),
        csv: args.csv.clone(),
        summary_json: args.summary_json.clone(),
    };
    match run(&s, &opts) {
        Ok(summary) => {
            if !args.quiet {
                print!("{}", summary.report());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}

fn dashboard(world: &WorldArgs, view: &ViewArgs) -> ExitCode {
    let s = match scenario(world) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let mut app = match dirtyviz::ui::app::App::new(s, view.compare, view.theme) {
        Ok(app) => app,
        Err(e) => {
            eprintln!("error: {}", e.0);
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    app.marker = view.marker.marker();
    match dirtyviz::ui::run(app) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: terminal: {e}");
            ExitCode::FAILURE
        }
    }
}
