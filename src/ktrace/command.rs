//! `dirtyviz view FILE` and `dirtyviz live`, headless: read, summarise,
//! write the outputs asked for, print the report.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::cli::{LiveArgs, TraceViewArgs};
use super::live::{self, Ended, Session};
use super::{Analysis, Collector, Error, analyse, fit, series, write_file, write_json};

/// Prints to standard output; a reader that went away is not an error.
fn print(text: &str) {
    let _ = writeln!(std::io::stdout().lock(), "{}", text.trim_end());
}

/// Writes the CSV of an analysis read with its series.
fn write_csv(path: &std::path::Path, a: &Analysis) -> Result<(), Error> {
    let Some(s) = &a.series else { return Err(Error::invalid("the series was not kept")) };
    write_file(path, |w| series::write_csv(w, s, &a.decoder.bdis))
}

/// `dirtyviz view FILE|-`: the summary of a kernel trace, and with
/// `--fit` the scenario it implies run beside it.
pub fn view(args: &TraceViewArgs) -> Result<(), Error> {
    let a = analyse(&args.file, args.csv.is_some())?;
    if let Some(path) = &args.csv {
        write_csv(path, &a)?;
    }
    if args.fit {
        let fitted = fit::fit_and_run(&a.summary)?;
        if let Some(path) = &args.summary_json {
            write_json(path, &fitted)?;
        }
        if !args.quiet {
            print(&format!("{}{}", a.summary.report(), fitted.report()));
        }
        return Ok(());
    }
    if let Some(path) = &args.summary_json {
        write_json(path, &a.summary)?;
    }
    if !args.quiet {
        print(&a.summary.report());
    }
    Ok(())
}

/// `dirtyviz live`: the running kernel's writeback events, headless.
pub fn live(args: &LiveArgs) -> Result<(), Error> {
    let stop = Arc::new(AtomicBool::new(false));
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM, signal_hook::consts::SIGHUP] {
        signal_hook::flag::register(sig, Arc::clone(&stop))
            .map_err(|e| Error::invalid(format!("cannot catch signals: {e}")))?;
    }
    let fs = live::find_tracefs(args.tracefs.as_deref())?;
    let mut session = Session::start(fs)?;
    let pipe = session.tracefs().root.join("trace_pipe").display().to_string();
    let duration = args.duration.map(Duration::from_nanos);
    if !args.quiet {
        let missing: Vec<&str> = session.missing.iter().map(|k| k.name()).collect();
        eprintln!(
            "reading {pipe}{}{}; {}",
            if session.tracefs().mounted.is_some() { " (tracefs mounted for this run)" } else { "" },
            if missing.is_empty() { String::new() } else { format!(", this kernel lacks {}", missing.join(", ")) },
            match duration {
                Some(d) => format!("{:.1} s", d.as_secs_f64()),
                None => "Ctrl-C stops".into(),
            }
        );
    }
    let mut collector = Collector::new(args.csv.is_some());
    let mut saved = args.save.as_ref().map(|_| Vec::new());
    let ended = live::capture(&mut session, &mut collector, saved.as_mut(), duration, &stop);
    let problems = session.restore();
    if !problems.is_empty() {
        return Err(Error::invalid(format!("tracefs not restored: {}", problems.join("; "))));
    }
    let ended = ended?;
    if let (Some(path), Some(bytes)) = (&args.save, &saved) {
        write_file(path, |w| w.write_all(bytes))?;
    }
    let a = collector.finish(&pipe)?;
    if let Some(path) = &args.csv {
        write_csv(path, &a)?;
    }
    if let Some(path) = &args.summary_json {
        write_json(path, &a.summary)?;
    }
    if !args.quiet {
        if ended == Ended::Stopped {
            eprintln!("stopped; the writeback events are as they were");
        }
        print(&a.summary.report());
    }
    Ok(())
}
