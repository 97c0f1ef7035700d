//! Wall-clock pacing: how much simulated time each frame advances. The
//! model only knows simulated time ([`App::advance_to`]); this is the one
//! place real time comes in.
//!
//! Each frame asks for the wall time since the last one times the speed,
//! and advances towards it in chunks sized from the rate the simulation
//! has been running at, stopping when the frame's wall-time budget is
//! spent. A frame that falls short drops the rest (time is not owed), and
//! the speed actually reached is reported to the status line.

use std::time::{Duration, Instant};

use crate::app::App;
use crate::sim::NS_PER_SEC;

/// Wall time counted for one frame at most: after a suspension or a stall
/// the simulation does not try to catch up.
const MAX_GAP: Duration = Duration::from_millis(250);

/// Smallest chunk of simulated time advanced at once \[ns\].
const MIN_CHUNK_NS: u64 = NS_PER_SEC / 1000;

/// Largest chunk of simulated time advanced at once \[ns\].
const MAX_CHUNK_NS: u64 = 10 * NS_PER_SEC;

/// As fast as possible stands for this much simulated time per frame
/// \[ns\]: more than any budget reaches.
const UNBOUNDED_NS: u64 = 3600 * NS_PER_SEC;

/// A reached speed within this fraction of the asked one counts as kept up.
const KEPT_UP: f64 = 0.9;

/// Paces one app.
pub struct Pacer {
    /// When the last frame was paced.
    last: Instant,
    /// Simulated per wall nanosecond, as last measured.
    rate: f64,
    /// The reached speed, smoothed over recent frames.
    reached: Option<f64>,
}

impl Pacer {
    /// A pacer starting at `now`.
    pub fn new(now: Instant) -> Pacer {
        Pacer { last: now, rate: 1000.0, reached: None }
    }

    /// Advances `app` for the wall time since the last call at its speed,
    /// spending at most `budget` of wall time, and tells it the speed it
    /// reached when that falls short of the one asked for.
    pub fn advance(&mut self, app: &mut App, now: Instant, budget: Duration) {
        let wall = now.saturating_duration_since(self.last).min(MAX_GAP);
        self.last = now;
        if app.paused() || wall.is_zero() {
            self.reached = None;
            app.set_reached_speed(None);
            return;
        }
        // The rest of a lesson step that `n` cut short, or the lesson
        // replayed up to a step (`N`, `r`), runs as fast as the budget
        // allows, a frame's worth at a time, and stops where the step to
        // open opens.
        let catching_up = app.catching_up();
        let asked = if catching_up { f64::INFINITY } else { app.speed() };
        let start = app.sim_ns();
        let want = if asked.is_finite() { (wall.as_secs_f64() * asked * 1e9) as u64 } else { UNBOUNDED_NS };
        let target = start.saturating_add(want);
        let deadline = Instant::now() + budget;
        while !app.paused() && app.sim_ns() < target {
            let Some(left) = deadline.checked_duration_since(Instant::now()).filter(|d| !d.is_zero()) else {
                break;
            };
            let chunk = ((self.rate * left.as_nanos() as f64) as u64).clamp(MIN_CHUNK_NS, MAX_CHUNK_NS);
            let from = app.sim_ns();
            let t = target.min(from + chunk);
            let began = Instant::now();
            app.advance_to(t);
            let took = began.elapsed().as_nanos().max(1) as f64;
            let moved = app.sim_ns().saturating_sub(from);
            if moved == 0 || (catching_up && !app.catching_up()) {
                // A lesson step ended: time waits for the student, or the
                // next step opened and runs at the speed asked.
                break;
            }
            self.rate = 0.5 * self.rate + 0.5 * moved as f64 / took;
        }
        // Over the wall time since the last frame, or this frame's work
        // where that was longer: a frame drawn at once for a key (space
        // resuming) came a few ms after the last, and its full budget's
        // simulated time over those few ms told of 1357x where 350x ran.
        let spent = Instant::now().saturating_duration_since(now).min(MAX_GAP);
        let speed = app.sim_ns().saturating_sub(start) as f64 / 1e9 / wall.max(spent).as_secs_f64();
        let smoothed = self.reached.map_or(speed, |r| 0.7 * r + 0.3 * speed);
        self.reached = Some(smoothed);
        let short = app.sim_ns() < target && !app.paused() && !catching_up;
        app.set_reached_speed((short && (!asked.is_finite() || smoothed < KEPT_UP * asked)).then_some(smoothed));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::{AppOptions, Msg};
    use crate::scenario::presets;

    fn app() -> App {
        App::new(presets::get("default").expect("preset").expect("valid"), None, &AppOptions::default()).expect("app")
    }

    #[test]
    fn a_frame_advances_the_wall_time_times_the_speed() {
        let mut a = app();
        let t0 = Instant::now();
        let mut p = Pacer::new(t0);
        p.advance(&mut a, t0 + Duration::from_millis(100), Duration::from_secs(5));
        assert_eq!(a.sim_ns(), NS_PER_SEC / 10, "1x: 100 ms of wall time is 100 ms simulated");
        assert_eq!(a.reached_speed(), None, "it kept up");
        a.update(Msg::Faster);
        a.update(Msg::Faster);
        p.advance(&mut a, t0 + Duration::from_millis(200), Duration::from_secs(5));
        assert_eq!(a.sim_ns(), NS_PER_SEC / 10 + NS_PER_SEC / 2, "5x");
    }

    #[test]
    fn a_long_gap_is_not_caught_up_and_a_pause_stops_time() {
        let mut a = app();
        let t0 = Instant::now();
        let mut p = Pacer::new(t0);
        p.advance(&mut a, t0 + Duration::from_secs(30), Duration::from_secs(5));
        assert_eq!(a.sim_ns(), MAX_GAP.as_nanos() as u64);
        a.update(Msg::TogglePause);
        p.advance(&mut a, t0 + Duration::from_secs(31), Duration::from_secs(5));
        assert_eq!(a.sim_ns(), MAX_GAP.as_nanos() as u64);
    }

    #[test]
    fn a_frame_soon_after_the_last_tells_the_speed_its_work_reached() {
        let mut a = app();
        (0..20).for_each(|_| a.update(Msg::Faster));
        assert_eq!(a.speed(), f64::INFINITY, "as fast as possible");
        let began = Instant::now();
        let mut p = Pacer::new(began.checked_sub(Duration::from_millis(1)).expect("an instant"));
        p.advance(&mut a, began, Duration::from_millis(40));
        let took = began.elapsed().as_secs_f64();
        let reached = a.reached_speed().expect("short of max");
        let ran = a.sim_ns() as f64 / 1e9 / took;
        // The clock read after the call runs a little past the pacer's: a
        // loose bound, where the frame's few ms told 40 times the speed.
        assert!(reached < 2.0 * ran, "told {reached:.0}x where {ran:.0}x ran");
    }

    #[test]
    fn no_budget_means_no_simulation_and_the_shortfall_is_shown() {
        let mut a = app();
        for _ in 0..9 {
            a.update(Msg::Faster);
        }
        assert_eq!(a.speed(), 1000.0);
        let t0 = Instant::now();
        let mut p = Pacer::new(t0);
        p.advance(&mut a, t0 + Duration::from_millis(50), Duration::ZERO);
        assert_eq!(a.sim_ns(), 0);
        assert_eq!(a.reached_speed(), Some(0.0), "1000x asked, 0x reached");
    }
}
