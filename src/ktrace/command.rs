//! `dirtyviz view FILE` and `dirtyviz live`, headless: read, summarise,
//! write the outputs asked for, print the report.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::cli::{LiveArgs, TraceViewArgs};
use super::live::{self, Ended, Session};
use super::side::KernelSide;
use super::{
    Analysis, Collector, Error, analyse, commit, fit, json_pretty, series, write_file, write_file_until, write_json,
};
use crate::error::say;
use crate::output::{AtomicFile, Named, check_distinct};
use crate::ui::kernel::{self, Feed, Model, TraceApp};
use crate::ui::{Exit, keys, snapshot};

/// Prints to standard output; a reader that went away is not an error.
fn print(text: &str) -> Result<(), Error> {
    crate::output::to_stdout(format!("{}\n", text.trim_end()).as_bytes()).map(|_| ())
}

/// Writes the CSV of an analysis read with its series.
fn write_csv(path: &std::path::Path, a: &Analysis) -> Result<AtomicFile, Error> {
    let Some(s) = &a.series else { return Err(Error::invalid("the series was not kept")) };
    write_file(path, |w| series::write_csv(w, s, &a.decoder.labels(), a.summary.kernel.page_kb))
}

/// The exit code of a dashboard that ended as `exit` did.
fn exit_code(exit: Exit) -> ExitCode {
    match exit {
        Exit::Quit => ExitCode::SUCCESS,
        // As a shell reports a process a signal ended: 128 + its number.
        Exit::Signal(n) => ExitCode::from(128u8.saturating_add(n as u8)),
    }
}

/// Both ends of the dashboard are a terminal.
fn on_a_terminal() -> bool {
    std::io::stdout().is_terminal()
}

/// `dirtyviz view FILE|-`: the dashboard on a kernel trace when on a
/// terminal (with `--fit`, beside the model), its screen with
/// `--snapshot`; otherwise, or with `--summary-json` or `--csv`, the
/// summary (with `--fit`, the scenario it implies run beside it).
pub fn view(args: &TraceViewArgs) -> Result<ExitCode, Error> {
    let headless = args.summary_json.is_some() || args.csv.is_some() || args.quiet;
    if args.snapshot && args.theme.is_some() {
        return Err(Error::invalid("--theme: --snapshot writes the screen as plain text, without colours"));
    }
    if args.snapshot || (!headless && on_a_terminal()) {
        return dashboard(args);
    }
    if args.theme.is_some() {
        return Err(theme_without_dashboard());
    }
    let trace = args.file.as_deref().map(|path| Named { role: "the trace", path: path.as_ref() });
    check_outputs(trace, &[("--csv", &args.csv), ("--summary-json", &args.summary_json)])?;
    // Ctrl-C stops the read (a FIFO waiting for its writer too) and
    // writes nothing.
    crate::interrupt::catch();
    // --fit compares means over part of the trace: its rows.
    let rows = args.csv.is_some() || args.fit;
    let a = match &args.file {
        Some(file) => analyse(file, rows)?,
        None => super::analyse_example(rows)?,
    };
    let mut outputs = Vec::new();
    if let Some(path) = &args.csv {
        outputs.push(write_csv(path, &a)?);
    }
    if args.fit {
        let fitted = fit::fit_and_run(&a.summary, a.series.as_ref().unwrap_or(&series::Series::default()))?;
        if let Some(path) = &args.summary_json {
            outputs.push(write_json(path, &fitted)?);
        }
        crate::interrupt::check()?;
        commit(outputs)?;
        if !args.quiet {
            print(&format!("{}{}", a.summary.report(), fitted.report()))?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(path) = &args.summary_json {
        outputs.push(write_json(path, &a.summary)?);
    }
    crate::interrupt::check()?;
    commit(outputs)?;
    if !args.quiet {
        print(&a.summary.report())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `--theme` where no dashboard opens: it would be taken and change nothing.
fn theme_without_dashboard() -> Error {
    Error::invalid(
        "--theme colours the dashboard, which opens on a terminal without --summary-json, --csv, --quiet \
         (or --duration for live); the summary has no colours",
    )
}

/// Refuses, before anything is read, an output that is `input` or
/// another output, or whose directory is missing.
fn check_outputs(input: Option<Named>, outputs: &[(&str, &Option<std::path::PathBuf>)]) -> Result<(), Error> {
    let outputs: Vec<Named> =
        outputs.iter().filter_map(|(role, path)| Some(Named { role, path: path.as_deref()? })).collect();
    check_distinct(&input.into_iter().collect::<Vec<_>>(), &outputs)
}

/// The trace_pipe `live` reads in a tracefs the user named: no output may
/// be it.
fn trace_pipe_named(tracefs: Option<&std::path::Path>) -> Option<std::path::PathBuf> {
    tracefs.map(|dir| dir.join("trace_pipe"))
}

fn named_pipe(path: &std::path::PathBuf) -> Named<'_> {
    Named { role: "the trace pipe", path }
}

/// The trace dashboard of `view`, or its screen as text with `--snapshot`.
fn dashboard(args: &TraceViewArgs) -> Result<ExitCode, Error> {
    let presses = match &args.keys {
        Some(k) => snapshot_keys(k)?,
        None => Vec::new(),
    };
    if let (Some(file), false) = (&args.file, args.snapshot) {
        return loaded_on_the_dashboard(args, file);
    }
    let side = match &args.file {
        Some(file) => KernelSide::open(file)?,
        None => KernelSide::from_text(super::EXAMPLE.0, super::EXAMPLE.1)?,
    };
    // The playhead stops at the end: a later --at would show the end as
    // if it were that time. The end is the last event's; a time in the
    // 100 ms of the last row (to its end on the rows' grid) is its time.
    let row_ns = (super::series::BIN_S * 1e9) as u64;
    if let Some(at) = args.at.filter(|&at| at > side.end_ns().next_multiple_of(row_ns)) {
        return Err(Error::invalid(format!(
            "--at {} s: past the end of the trace, {} s from its first event",
            crate::units::seconds(at as f64 / 1e9),
            crate::units::seconds(side.end_ns() as f64 / 1e9)
        )));
    }
    let mut app = trace_app(args, side)?;
    if !args.snapshot {
        return Ok(exit_code(kernel::run(app, None)?));
    }
    app.update(crate::app::Msg::TogglePause);
    app.seek_to(args.at.unwrap_or(u64::MAX));
    let (width, height) = args.size;
    let mut not_done = snapshot::NotDone::default();
    let save = "saves no file of its own: dirtyviz plot draws a trace's charts as SVG";
    for key in presses {
        // The keys scroll as they would in a terminal of that size.
        kernel::note_scroll_room(&mut app, width, height);
        app.press(key);
        let requests = app.take_requests();
        if !args.quiet {
            not_done.say(requests, app.quit_requested(), save);
        }
    }
    crate::output::to_stdout(snapshot::text(&kernel::render(&app, width, height)).as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

/// The dashboard of `view` on `side`.
fn trace_app(args: &TraceViewArgs, side: KernelSide) -> Result<TraceApp, Error> {
    let model = match args.fit {
        true => {
            let f = fit::scenario(&side.summary())?;
            let assumed = f.not_inferred.iter().map(|a| a.what.clone()).collect();
            Some(Model::new(f.scenario, assumed)?)
        }
        false => None,
    };
    let theme = crate::ui::theme::on_terminal(args.theme);
    Ok(TraceApp::new(side, model, theme, args.marker))
}

/// The dashboard on the trace `file`, read on another thread while the
/// terminal shows how far it got (keys typed meanwhile are not echoed;
/// q and Ctrl-C stop it).
fn loaded_on_the_dashboard(args: &TraceViewArgs, file: &str) -> Result<ExitCode, Error> {
    if file != "-" {
        // A file that is not there is said before the terminal is taken
        // (not opened: a FIFO's writer would see its reader go).
        std::fs::metadata(file).map_err(Error::io(std::path::Path::new(file), "cannot read"))?;
    }
    let loading = Arc::new(crate::run::progress::Loading::default());
    let (tx, rx) = std::sync::mpsc::channel();
    let (path, told) = (file.to_string(), Arc::clone(&loading));
    std::thread::Builder::new()
        .name("trace reader".into())
        .spawn(move || {
            // The dashboard may have ended (q) before the trace is read.
            let _ = tx.send(KernelSide::load(&path, told));
        })
        .map_err(|e| Error::invalid(format!("cannot start reading the trace: {e}")))?;
    let name = std::path::Path::new(file).file_name().map_or(file.into(), |n| n.to_string_lossy());
    let name = if file == "-" { "standard input".into() } else { name };
    Ok(exit_code(kernel::run_loading(&name, &loading, rx, |side| trace_app(args, side))?))
}

/// The keys of `--keys`, as `dirtyviz snapshot` names them; its `@TIME`
/// is `--at` here (a lone `@` is the key).
fn snapshot_keys(text: &str) -> Result<Vec<ratatui::crossterm::event::KeyEvent>, Error> {
    text.split_whitespace()
        .map(|k| {
            if let Some(t) = k.strip_prefix('@').filter(|t| !t.is_empty()) {
                return Err(Error::invalid(format!(
                    "--keys: `{k}`: a trace's playhead is set with --at (e.g. --at {t}), before the keys"
                )));
            }
            keys::parse_key(k)
                .ok_or_else(|| Error::invalid(format!("--keys: unknown key `{k}`: expected {}", keys::KEY_NAMES)))
        })
        .collect()
}

/// The running kernel's trace_pipe as the dashboard reads it.
struct Pipe<'a> {
    session: &'a mut Session,
    lines: live::Lines,
    save: Option<AtomicFile>,
}

/// Lines taken from trace_pipe in one frame at most: a busy kernel's
/// events are read as fast as they come (one read is 64 KiB), and keys
/// are still read every frame.
const FRAME_LINES: usize = 20_000;

impl Feed for Pipe<'_> {
    fn lines(&mut self) -> Result<Vec<String>, Error> {
        let started = Instant::now();
        let mut all = self.lines.read(self.session, self.save.as_mut())?;
        while !all.is_empty() && all.len() < FRAME_LINES && started.elapsed() < Duration::from_millis(20) {
            let more = self.lines.read(self.session, self.save.as_mut())?;
            if more.is_empty() {
                break;
            }
            all.extend(more);
        }
        Ok(all)
    }
}

/// `dirtyviz live`: the running kernel's writeback events, on the
/// dashboard when on a terminal without `--duration`, `--summary-json`
/// or `--csv`; headless otherwise.
pub fn live(args: &LiveArgs) -> Result<ExitCode, Error> {
    let headless = args.duration.is_some() || args.summary_json.is_some() || args.csv.is_some() || args.quiet;
    if !headless && on_a_terminal() {
        return live_dashboard(args);
    }
    if args.theme.is_some() {
        return Err(theme_without_dashboard());
    }
    let stop = Arc::new(AtomicBool::new(false));
    // Which signal came: one while --save waits for a FIFO's reader ends
    // dirtyviz as it ends other commands (exit 130 for SIGINT).
    let signals = Signals::catch(Some(&stop))?;
    check_outputs(
        trace_pipe_named(args.tracefs.as_deref()).as_ref().map(named_pipe),
        &[("--save", &args.save), ("--csv", &args.csv), ("--summary-json", &args.summary_json)],
    )?;
    // The raw lines go straight to the file, which is put in place at the end.
    let mut saved = args.save.as_deref().map(|path| AtomicFile::create_until(path, signals.stopped())).transpose()?;
    // The CSV's rows wait in a file beside it until its header is known.
    let mut spool = match &args.csv {
        Some(path) => Some(series::RowSpool::beside(path).map_err(Error::io(path, "cannot write"))?),
        None => None,
    };
    let fs = live::find_tracefs(args.tracefs.as_deref())?;
    let mut session = Session::start(fs)?;
    let pipe = session.tracefs().root.join("trace_pipe").display().to_string();
    let duration = args.duration.map(Duration::from_nanos);
    if !args.quiet {
        let missing: Vec<&str> = session.missing.iter().map(|k| k.name()).collect();
        say(format_args!(
            "reading {pipe}{}{}; {}",
            if session.tracefs().mounted.is_some() { " (tracefs mounted for this run)" } else { "" },
            if missing.is_empty() { String::new() } else { format!(", this kernel lacks {}", missing.join(", ")) },
            match duration {
                Some(d) => format!("for {} s (Ctrl-C stops sooner)", crate::units::seconds(d.as_secs_f64())),
                None => "Ctrl-C stops".into(),
            }
        ));
    }
    let mut collector = Collector::new(args.csv.is_some());
    let to_spool = spool.as_mut().zip(args.csv.as_deref());
    let started = Instant::now();
    let ended = live::capture(&mut session, &mut collector, saved.as_mut(), to_spool, duration, &stop);
    let problems = session.restore();
    if !problems.is_empty() {
        return Err(Error::invalid(format!("tracefs not restored: {}", problems.join("; "))));
    }
    let ended = ended?;
    let cut_by = signals.take();
    if collector.decoder.stats.total_events() == 0 {
        // A quiet machine: nothing to report and no file written, though
        // nothing the user gave was wrong (exit 1, not 2).
        // As long as it read: the duration asked, or less if stopped (a
        // read of 1 ms took the 0.1 s of one wait for events).
        let read_s = started.elapsed().as_secs_f64();
        let read_s = duration.map_or(read_s, |d| read_s.min(d.as_secs_f64()));
        say(format_args!("error: {}", quiet_machine(&pipe, read_s)));
        // Cut short by a signal, it says so as below: 128 + the signal.
        return Ok(match (ended, duration, cut_by) {
            (Ended::Stopped, Some(_), Some(sig)) => exit_code(Exit::Signal(sig)),
            _ => ExitCode::from(EXIT_NO_EVENT),
        });
    }
    let mut outputs = Vec::new();
    if let Some(mut saved) = saved {
        saved.flush()?;
        outputs.push(saved);
    }
    let mut a = collector.finish(&pipe)?;
    if let (Some(path), Some(spool), Some(rows)) = (&args.csv, &mut spool, &mut a.series) {
        spool.push(&rows.take_rows()).map_err(Error::io(path, "cannot keep its rows beside it"))?;
        let t0 = rows.t0.unwrap_or(0.0);
        let (bdis, page_kb) = (a.decoder.labels(), a.summary.kernel.page_kb);
        let kept = spool.rows().map_err(Error::io(path, "cannot read its rows back"))?;
        outputs
            .push(write_file_until(path, signals.stopped(), |w| series::write_csv_rows(w, t0, kept, &bdis, page_kb))?);
    }
    if let Some(path) = &args.summary_json {
        outputs.push(write_file_until(path, signals.stopped(), |w| json_pretty(w, &a.summary))?);
    }
    commit(outputs)?;
    if !args.quiet {
        if ended == Ended::Stopped {
            say(format_args!("stopped; the writeback events are as they were"));
        }
        print(&a.summary.report())?;
    }
    // A capture of a set length that a signal cut short has its report,
    // and says it was cut short as other commands a signal ends do: 128 +
    // the signal. Without --duration a signal is the way to stop: 0.
    match (ended, duration, cut_by) {
        (Ended::Stopped, Some(_), Some(sig)) => Ok(exit_code(Exit::Signal(sig))),
        _ => Ok(ExitCode::SUCCESS),
    }
}

/// Exit code of a headless `live` that saw no writeback event: it ran as
/// asked, but has nothing to report (a runtime outcome, not a usage error).
pub const EXIT_NO_EVENT: u8 = 1;

/// What a headless `live` says when `pipe` gave no writeback event in
/// `seconds`.
fn quiet_machine(pipe: &str, seconds: f64) -> String {
    format!(
        "no writeback event in {} s on {pipe}: nothing wrote enough to be throttled; write while it reads (e.g. dd if=/dev/zero of=big bs=1M count=4000) or read longer; no file was written",
        if seconds < 0.1 { crate::units::seconds(seconds) } else { crate::units::trimmed(seconds, 1) }
    )
}

/// The signals `live` catches (Ctrl-C, SIGTERM, SIGHUP): how many came,
/// the last, and when, as an output's wait for a FIFO's reader looks for
/// them. As for other commands (see [`crate::interrupt`]), more of them
/// within a second of the first are the same request.
struct Signals {
    /// The last that came.
    last: Arc<AtomicUsize>,
    /// How many came.
    count: Arc<AtomicUsize>,
    /// When the first and the last came, on the monotonic clock \[ns\].
    times: Arc<[std::sync::atomic::AtomicU64; 2]>,
    /// How many had been taken ([`Signals::take`]).
    taken: Arc<AtomicUsize>,
}

impl Signals {
    /// Catches them, setting `stop` too, if given.
    fn catch(stop: Option<&Arc<AtomicBool>>) -> Result<Signals, Error> {
        use std::sync::atomic::AtomicU64;
        let signals = Signals {
            last: Arc::new(AtomicUsize::new(0)),
            count: Arc::new(AtomicUsize::new(0)),
            times: Arc::new([AtomicU64::new(0), AtomicU64::new(0)]),
            taken: Arc::new(AtomicUsize::new(0)),
        };
        for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM, signal_hook::consts::SIGHUP] {
            let (last, count, times) =
                (Arc::clone(&signals.last), Arc::clone(&signals.count), Arc::clone(&signals.times));
            let note = move || {
                let now = crate::interrupt::monotonic_ns();
                let _ = times[0].compare_exchange(0, now, Ordering::SeqCst, Ordering::SeqCst);
                times[1].store(now, Ordering::SeqCst);
                last.store(sig as usize, Ordering::SeqCst);
                count.fetch_add(1, Ordering::SeqCst);
            };
            stop.map_or(Ok(()), |stop| signal_hook::flag::register(sig, Arc::clone(stop)).map(drop))
                // SAFETY: the handler only reads the monotonic clock
                // (clock_gettime) and stores to atomics, which is
                // async-signal-safe.
                .and_then(|()| unsafe { signal_hook::low_level::register(sig, note) }.map(drop))
                .map_err(|e| Error::invalid(format!("cannot catch signals: {e}")))?;
        }
        Ok(signals)
    }

    /// Tells a signal that asks to stop, if one has: one not taken, and,
    /// once one was taken, one more than a second after the first.
    fn stopped(&self) -> crate::output::Stopped {
        let (last, count, times, taken) =
            (Arc::clone(&self.last), Arc::clone(&self.count), Arc::clone(&self.times), Arc::clone(&self.taken));
        Arc::new(move || {
            let taken = taken.load(Ordering::SeqCst);
            let later = times[1].load(Ordering::SeqCst).saturating_sub(times[0].load(Ordering::SeqCst))
                >= crate::interrupt::SAME_REQUEST_NS;
            (count.load(Ordering::SeqCst) > taken && (taken == 0 || later)).then(|| last.load(Ordering::SeqCst) as i32)
        })
    }

    /// Takes one signal, if one came that is not yet taken, and tells the
    /// last that came: the one that stopped the capture lets what it
    /// captured be written (a FIFO's reader waited for); another, more
    /// than a second after the first, stops that.
    fn take(&self) -> Option<i32> {
        let taken = self.taken.load(Ordering::SeqCst);
        (self.count.load(Ordering::SeqCst) > taken).then(|| {
            self.taken.store(taken + 1, Ordering::SeqCst);
            self.last.load(Ordering::SeqCst) as i32
        })
    }
}

/// `dirtyviz live` on the dashboard. The tracefs state is restored
/// however it ends: q, a signal, an error (and a panic, by the session's
/// drop).
fn live_dashboard(args: &LiveArgs) -> Result<ExitCode, Error> {
    check_outputs(trace_pipe_named(args.tracefs.as_deref()).as_ref().map(named_pipe), &[("--save", &args.save)])?;
    // The dashboard reads its signals between frames; a write to a FIFO
    // whose reader stopped reading waits inside one, and looks for them
    // here (q, SIGTERM and SIGHUP did nothing then).
    let signals = Signals::catch(None)?;
    let save = args.save.as_deref().map(|path| AtomicFile::create_until(path, signals.stopped())).transpose()?;
    let fs = live::find_tracefs(args.tracefs.as_deref())?;
    let mut session = Session::start(fs)?;
    let pipe_path = session.tracefs().root.join("trace_pipe").display().to_string();
    let mut app =
        TraceApp::new(KernelSide::live(&pipe_path), None, crate::ui::theme::on_terminal(args.theme), args.marker);
    if !session.missing.is_empty() {
        let missing: Vec<&str> = session.missing.iter().map(|k| k.name()).collect();
        app.set_note(format!("this kernel lacks {}", missing.join(", ")));
    }
    let mut pipe = Pipe { session: &mut session, lines: live::Lines::default(), save };
    let ended = kernel::run(app, Some(&mut pipe));
    let saved = pipe.save.take();
    let problems = session.restore();
    if !problems.is_empty() {
        return Err(Error::invalid(format!("tracefs not restored: {}", problems.join("; "))));
    }
    let exit = ended?;
    if let Some(saved) = saved {
        saved.commit()?;
    }
    Ok(exit_code(exit))
}
