//! The live terminal dashboard: the app state ([`app`]), keys ([`keys`]),
//! chart data ([`charts`]), drawing ([`view`]) and styles ([`theme`]).
//!
//! The loop: read keys until the next frame is due, turn each into a
//! message, advance the simulation by the wall time that passed (times the
//! speed), and redraw when anything changed. At 1x a frame is drawn when a
//! new 100 ms sample arrives, so an idle dashboard costs little CPU.

pub mod app;
pub mod charts;
pub mod keys;
pub mod lesson;
pub mod theme;
pub mod view;

use std::time::{Duration, Instant};

use ratatui::crossterm::event::{self, Event};

use app::App;

/// Longest wait between two looks at the clock.
const FRAME: Duration = Duration::from_millis(50);

/// Simulation time budget per frame when running as fast as possible.
const MAX_SPEED_BUDGET: Duration = Duration::from_millis(30);

/// Where a session's record and trace go as it runs.
#[derive(Default)]
pub struct Outputs {
    /// The recording, if one is kept.
    pub record: Option<crate::record::Recorder>,
    /// Side A's trace, if asked for.
    pub trace: Option<crate::record::TraceWriter>,
    /// The first output that failed; the session goes on without it and
    /// ends with this error.
    failed: Option<crate::error::Error>,
}

impl Outputs {
    /// Writes what the app recorded and traced since the last call. A file
    /// that cannot be written is given up, with a note on the status line.
    fn drain(&mut self, app: &mut App) {
        if let Some(r) = &mut self.record
            && let Err(e) = r.write(&app.take_record())
        {
            app.note = "recording stopped: write failed".into();
            app.record = None;
            if !r.optional() {
                self.failed.get_or_insert(e);
            }
            self.record = None;
        }
        if let Some(t) = &mut self.trace {
            let stopped = t.stopped_at().is_some();
            if let Err(e) = t.drain(app) {
                app.note = "trace stopped: write failed".into();
                self.trace = None;
                self.failed.get_or_insert(e);
            } else if !stopped && t.stopped_at().is_some() {
                app.note = "trace stopped at --max-trace-size".into();
            }
        }
    }

    /// Completes the outputs once the session is over: the trace and the
    /// recording take their places.
    fn finish(&mut self, app: &mut App) -> crate::error::Result<()> {
        self.drain(app);
        if let Some(mut t) = self.trace.take()
            && let Err(e) = t.finish()
        {
            self.failed.get_or_insert(e);
        }
        if let Some(r) = self.record.take() {
            let optional = r.optional();
            if let Err(e) = r.finish()
                && !optional
            {
                self.failed.get_or_insert(e);
            }
        }
        self.failed.take().map_or(Ok(()), Err)
    }
}

/// Runs the dashboard until the user quits. The terminal is restored on
/// the way out, on error and on panic; a panic also says where to report
/// it and which recording replays the session. A terminal that cannot be
/// set up ends it before it starts: the outputs are left as they were.
pub fn run(mut app: App, mut outputs: Outputs) -> crate::error::Result<()> {
    use crate::error::Error;
    if outputs.record.is_some() {
        app.record = Some(Vec::new());
    }
    let mut terminal = ratatui::try_init().map_err(Error::Terminal)?;
    crate::oom::terminal_held(true);
    let record = outputs.record.as_ref().map(|r| r.path().display().to_string());
    let restore_and_print = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore_and_print(info);
        eprint!("{}", crash_note(record.as_deref()));
    }));
    let result = run_loop(&mut app, &mut terminal, &mut outputs);
    ratatui::restore();
    crate::oom::terminal_held(false);
    let _ = std::panic::take_hook();
    let finished = outputs.finish(&mut app);
    result.map_err(Error::Terminal)?;
    finished
}

/// What a crash tells the user, after the terminal is restored and the
/// panic message printed: that it is a bug, where to report it, and the
/// recording that replays the session.
pub fn crash_note(record: Option<&str>) -> String {
    let mut s = String::from(
        "dirtyviz crashed; this is a bug. Please report it on the dirtyviz issue tracker (README.md, \"Reporting a bug\").\n",
    );
    match record {
        Some(path) => {
            s.push_str(&format!("Attach {path}: `dirtyviz replay {path}` reproduces the session up to the crash.\n"))
        }
        None => s.push_str("Say what you did; --record FILE keeps a replayable record of a session.\n"),
    }
    s
}

fn run_loop(app: &mut App, terminal: &mut ratatui::DefaultTerminal, outputs: &mut Outputs) -> std::io::Result<()> {
    let mut last = Instant::now();
    while !app.quit {
        if app.dirty {
            let start = Instant::now();
            terminal.draw(|f| view::draw(app, f))?;
            app.frame_ms = start.elapsed().as_secs_f64() * 1e3;
            app.dirty = false;
        }
        let deadline = last + FRAME;
        while let Some(wait) = deadline.checked_duration_since(Instant::now()) {
            if !event::poll(wait)? {
                break;
            }
            match event::read()? {
                Event::Key(key) => {
                    if let Some(msg) = keys::message(key, app.mode()) {
                        app.update(msg);
                    }
                }
                Event::Resize(..) => app.dirty = true,
                _ => {}
            }
            if app.quit {
                return Ok(());
            }
        }
        let now = Instant::now();
        app.advance(now - last, MAX_SPEED_BUDGET);
        last = now;
        outputs.drain(app);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crash_names_the_recording_that_replays_it() {
        let note = crash_note(Some("/home/me/.local/share/dirtyviz/last-session.jsonl"));
        assert!(note.contains("this is a bug") && note.contains("issue tracker"), "{note}");
        assert!(note.contains("dirtyviz replay /home/me/.local/share/dirtyviz/last-session.jsonl"), "{note}");
        assert!(crash_note(None).contains("--record FILE"));
    }
}
