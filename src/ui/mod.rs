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

/// Runs the dashboard until the user quits. The terminal is restored on
/// the way out, on error and on panic.
pub fn run(mut app: App) -> std::io::Result<()> {
    let mut terminal = ratatui::try_init()?;
    let result = run_loop(&mut app, &mut terminal);
    ratatui::restore();
    result
}

fn run_loop(app: &mut App, terminal: &mut ratatui::DefaultTerminal) -> std::io::Result<()> {
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
    }
    Ok(())
}
