//! The live terminal dashboard: keys ([`keys`]), chart data ([`charts`]),
//! drawing ([`view`], [`lesson`]) and styles ([`theme`]) over the model
//! in [`crate::app`].
//!
//! The loop: read keys until the next frame is due, turn each into a
//! message, advance the simulation by the wall time that passed (times the
//! speed), and redraw when anything changed. At 1x a frame is drawn when a
//! new 100 ms sample arrives, so an idle dashboard costs little CPU.

pub mod charts;
pub mod keys;
pub mod lesson;
pub mod theme;
pub mod view;

use std::time::{Duration, Instant};

use ratatui::crossterm::event::{self, Event};

use crate::app::App;

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
    /// Save the lesson progress to the user's data directory when it changes.
    pub save_progress: bool,
}

impl Outputs {
    /// Writes what the app recorded and traced since the last call. A file
    /// that cannot be written is given up, with a note on the status line.
    fn drain(&mut self, app: &mut App) {
        if let Some(r) = &mut self.record
            && let Err(e) = r.write(&app.take_record())
        {
            app.set_note(format!("recording stopped: {e}"));
            app.stop_recording();
            self.record = None;
        }
        if let Some(t) = &mut self.trace
            && let Err(e) = t.drain(app)
        {
            app.set_note(format!("trace stopped: {e}"));
            self.trace = None;
        }
        if self.save_progress
            && let Some(p) = app.take_progress()
            && let Err(e) = p.save()
        {
            app.set_note(format!("progress not saved: {e}"));
        }
    }
}

/// Runs the dashboard until the user quits. The terminal is restored on
/// the way out, on error and on panic; a panic also says where to report
/// it and which recording replays the session.
pub fn run(mut app: App, mut outputs: Outputs) -> std::io::Result<()> {
    if outputs.record.is_some() {
        app.start_recording();
    }
    let mut terminal = ratatui::try_init()?;
    let record = outputs.record.as_ref().map(|r| r.path().display().to_string());
    let restore_and_print = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore_and_print(info);
        eprint!("{}", crash_note(record.as_deref()));
    }));
    let result = run_loop(&mut app, &mut terminal, &mut outputs);
    ratatui::restore();
    let _ = std::panic::take_hook();
    outputs.drain(&mut app);
    if let Some(t) = &mut outputs.trace {
        t.finish().map_err(std::io::Error::other)?;
    }
    result
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
    while !app.quit_requested() {
        if app.take_dirty() {
            let start = Instant::now();
            terminal.draw(|f| view::draw(app, f))?;
            app.set_frame_ms(start.elapsed().as_secs_f64() * 1e3);
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
                Event::Resize(..) => app.mark_dirty(),
                _ => {}
            }
            if app.quit_requested() {
                return Ok(());
            }
        }
        let now = Instant::now();
        advance(app, now - last, MAX_SPEED_BUDGET);
        last = now;
        outputs.drain(app);
    }
    Ok(())
}

/// Moves simulated time on by `wall` of real time at the current speed.
/// As fast as possible, it simulates for about `budget` of wall time.
fn advance(app: &mut App, wall: Duration, budget: Duration) {
    if app.paused() {
        return;
    }
    let speed = app.speed();
    let ns = crate::sim::NS_PER_SEC;
    if speed.is_finite() {
        let step = (wall.as_secs_f64() * speed * ns as f64) as u64;
        app.advance_to(app.sim_ns() + step.min(ns * 60));
    } else {
        let start = Instant::now();
        while !app.paused() && start.elapsed() < budget {
            app.advance_to(app.sim_ns() + ns / 10);
        }
    }
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
