//! `dirtyviz view FILE`, headless: read, summarise, write the outputs
//! asked for, print the report.

use std::io::Write;

use super::cli::TraceViewArgs;
use super::{Analysis, Error, analyse, fit, series, write_file, write_json};

/// Prints to standard output; a reader that went away is not an error.
fn print(text: &str) {
    let _ = writeln!(std::io::stdout().lock(), "{}", text.trim_end());
}

/// Writes the CSV of an analysis read with its series.
fn write_csv(path: &std::path::Path, a: &Analysis) -> Result<(), Error> {
    let Some(s) = &a.series else { return Err(Error("the series was not kept".into())) };
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
