//! The dashboard's state and the one place it changes: [`App::update`]
//! for messages and [`App::advance`] for time.
//!
//! An app holds a [`Session`]: one world, or two in A/B compare mode, built
//! from the same scenario and seed and advanced in lockstep. Every change a
//! key asks for becomes an [`Input`] applied to each world.

use crate::error::Result;
use crate::scenario::Scenario;
use crate::session::Session;
pub use crate::session::{Compare, Side, level_name};
use crate::sim::config::{Legacy, NS_PER_SEC, TaskConfig};
use crate::sim::kernel::PAGE_SIZE;
use crate::sim::{Input, World};

use super::keys::{Mode, Msg};
use super::lesson::{LessonMode, Picker};
use super::theme::{Theme, ThemeKind};

/// Speeds, each about twice the one before; the last means as fast as possible.
pub const SPEEDS: &[f64] =
    &[0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0, f64::INFINITY];

/// Time windows of the charts [s]; `None` shows the whole run.
pub const WINDOWS: &[Option<u64>] = &[Some(30), Some(60), Some(300), None];

/// The dashboard.
pub struct App {
    /// The worlds it shows.
    pub session: Session,
    /// Simulation stopped.
    pub paused: bool,
    /// Index into [`SPEEDS`].
    pub speed: usize,
    /// The bdi charts 2-5 show and `+`/`-` act on.
    pub bdi: usize,
    /// The chart shown alone, 1-5.
    pub zoom: Option<u8>,
    /// The key help is open.
    pub help: bool,
    /// Index into [`WINDOWS`].
    pub window: usize,
    /// Styles.
    pub theme: Theme,
    /// How chart points are drawn.
    pub marker: ratatui::symbols::Marker,
    /// Set when the user asked to leave.
    pub quit: bool,
    /// Time the last frame took to draw [ms], shown in the status line.
    pub frame_ms: f64,
    /// Something changed since the last frame.
    pub dirty: bool,
    /// A message for the status line (the last change made).
    pub note: String,
    /// The lesson being followed, if any.
    pub lesson: Option<LessonMode>,
    /// The lesson list, when open.
    pub picker: Option<Picker>,
    /// Save lesson progress to the user's data directory.
    pub save_progress: bool,
    /// How far the user got in each lesson.
    pub progress: crate::lesson::progress::Progress,
    /// When recording: every call that changed the app since the last
    /// [`App::take_record`], in order.
    pub record: Option<Vec<Entry>>,
    /// Trace events set aside, with their bdi names.
    trace_stash: Vec<(Vec<String>, Vec<crate::sim::trace::TraceEvent>)>,
}

/// One call into the app, as a recording keeps it: replaying the same
/// calls in the same order reproduces the same simulation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
pub enum Entry {
    /// [`App::advance_to`] this simulated time [ns].
    Advance(u64),
    /// [`App::update`] with this message, sent at this simulated time [ns].
    Key(u64, Msg),
}

impl App {
    /// An app on `scenario`, optionally comparing.
    pub fn new(scenario: Scenario, compare: Option<Compare>, theme: ThemeKind) -> Result<App> {
        App::traced(scenario, compare, theme, false)
    }

    /// [`App::new`], keeping side A's trace events for [`App::take_trace`]
    /// when `trace` is set.
    pub fn traced(scenario: Scenario, compare: Option<Compare>, theme: ThemeKind, trace: bool) -> Result<App> {
        let session = Session::with_trace(scenario, compare, crate::session::PAUSE_LOG, trace)?;
        Ok(App::with_session(session, theme))
    }

    /// An app showing `session`.
    pub fn with_session(session: Session, theme: ThemeKind) -> App {
        App {
            session,
            paused: false,
            speed: SPEEDS.iter().position(|&s| s == 1.0).expect("1x is a speed"),
            bdi: 0,
            zoom: None,
            help: false,
            window: 1,
            theme: Theme::from_env(theme),
            marker: ratatui::symbols::Marker::Braille,
            quit: false,
            frame_ms: 0.0,
            dirty: true,
            note: String::new(),
            lesson: None,
            picker: None,
            save_progress: false,
            progress: Default::default(),
            record: None,
            trace_stash: Vec::new(),
        }
    }

    /// Side A's trace events since the last call, each batch with the
    /// names of its world's bdis (a lesson opened from the list may bring
    /// other disks).
    pub fn take_trace(&mut self) -> Vec<(Vec<String>, Vec<crate::sim::trace::TraceEvent>)> {
        self.stash_trace();
        std::mem::take(&mut self.trace_stash)
    }

    /// Sets aside the session's trace events before it is replaced.
    pub(super) fn stash_trace(&mut self) {
        let events = self.session.take_trace();
        if !events.is_empty() {
            let names = self.world().bdis().iter().map(|b| b.name.clone()).collect();
            self.trace_stash.push((names, events));
        }
    }

    /// The calls recorded since the last time, oldest first.
    pub fn take_record(&mut self) -> Vec<Entry> {
        self.record.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// Applies a recorded call.
    pub fn replay(&mut self, entry: Entry) {
        match entry {
            Entry::Advance(t) => self.advance_to(t),
            Entry::Key(_, msg) => self.update(msg),
        }
    }

    /// What the keys drive now.
    pub fn mode(&self) -> Mode {
        if self.picker.is_some() {
            Mode::Picker
        } else if self.lesson.as_ref().is_some_and(|l| l.input.is_some()) {
            Mode::Typing
        } else {
            Mode::Normal
        }
    }

    /// The worlds, side A first.
    pub fn sides(&self) -> &[Side] {
        &self.session.sides
    }

    /// Simulated time [ns].
    pub fn sim_ns(&self) -> u64 {
        self.session.sim_ns
    }

    /// The world the single-world charts show (side A).
    pub fn world(&self) -> &World {
        self.session.world()
    }

    /// The current speed; infinite means as fast as possible.
    pub fn speed(&self) -> f64 {
        SPEEDS[self.speed]
    }

    /// Applies a message.
    pub fn update(&mut self, msg: Msg) {
        if let Some(log) = &mut self.record {
            log.push(Entry::Key(self.session.sim_ns, msg));
        }
        self.dirty = true;
        if self.picker.is_some() {
            self.update_picker(msg);
        } else {
            self.update_dashboard(msg);
        }
        self.sync_lesson_clock();
    }

    fn update_dashboard(&mut self, msg: Msg) {
        match msg {
            Msg::Quit => self.quit = true,
            Msg::TogglePause => self.paused = !self.paused,
            Msg::Step => {
                if self.paused {
                    let t = self.session.sim_ns + NS_PER_SEC / 10;
                    self.advance_inner(t);
                } else {
                    self.note = "single step works while paused (space)".into();
                }
            }
            Msg::Faster => self.speed = (self.speed + 1).min(SPEEDS.len() - 1),
            Msg::Slower => self.speed = self.speed.saturating_sub(1),
            Msg::AddDd => {
                let bdi = self.bdi;
                self.apply(|_| Some(Input::AddTask(TaskConfig::dd(bdi))));
                self.note = format!("added a dd on {}", self.bdi_name());
            }
            Msg::RemoveDd => {
                let bdi = self.bdi;
                self.apply(|_| Some(Input::RemoveDd(bdi)));
                self.note = format!("removed a dd from {}", self.bdi_name());
            }
            Msg::NextBdi => self.bdi = (self.bdi + 1) % self.world().bdis().len(),
            Msg::PrevBdi => {
                let n = self.world().bdis().len();
                self.bdi = (self.bdi + n - 1) % n;
            }
            Msg::DirtyRatio(delta) => {
                self.apply(|w| {
                    let t = w.vm().tunables;
                    let now = if t.dirty_bytes > 0 { ratio_of_bytes(w, t.dirty_bytes) } else { t.dirty_ratio };
                    Some(Input::DirtyRatio(now.saturating_add_signed(delta as i64).clamp(1, 100)))
                });
                self.note = format!("dirty_ratio {}", self.world().vm().tunables.dirty_ratio);
            }
            Msg::BackgroundRatio(delta) => {
                self.apply(|w| {
                    let t = w.vm().tunables;
                    let now = if t.dirty_background_bytes > 0 {
                        ratio_of_bytes(w, t.dirty_background_bytes)
                    } else {
                        t.dirty_background_ratio
                    };
                    Some(Input::DirtyBackgroundRatio(now.saturating_add_signed(delta as i64).clamp(0, 100)))
                });
                self.note = format!("dirty_background_ratio {}", self.world().vm().tunables.dirty_background_ratio);
            }
            Msg::Memory(up) => {
                self.apply(|w| {
                    let vm = w.vm();
                    let (m, r) = if up {
                        (vm.memory_pages * 2, vm.reserved_pages * 2)
                    } else {
                        (vm.memory_pages / 2, vm.reserved_pages / 2)
                    };
                    Some(Input::Memory { memory: m, reserved: r })
                });
                self.note = format!("memory {} MiB", self.world().vm().memory_pages >> 8);
            }
            Msg::Patches(up) => {
                // Below patch level 0 (3.1) comes Linux 2.6.38.
                self.apply(|w| match (w.patches(), w.legacy(), up) {
                    (0, Legacy::Linux2638, true) => Some(Input::Legacy(Legacy::Linux31)),
                    (0, Legacy::Linux2638, false) | (11, _, true) => None,
                    (0, Legacy::Linux31, false) => Some(Input::Legacy(Legacy::Linux2638)),
                    (p, _, true) => Some(Input::Patches(p + 1)),
                    (p, _, false) => Some(Input::Patches(p - 1)),
                });
                let w = self.world();
                self.note = format!("patch level: {}", level_name(w.patches(), w.legacy()));
            }
            Msg::Zoom(n) => self.zoom = if self.zoom == Some(n) { None } else { Some(n) },
            Msg::Back => {
                if self.help {
                    self.help = false;
                } else {
                    self.zoom = None;
                }
            }
            Msg::Lesson(m) => self.update_lesson(m),
            Msg::Window => self.window = (self.window + 1) % WINDOWS.len(),
            Msg::Compare => {
                // The IO-less side: the scenario's level if it is IO-less, else all 11.
                let cfg = &self.session.config;
                let level = if cfg.patches >= 7 { cfg.patches } else { 11 };
                let next = match self.session.compare {
                    None => Some(Compare::Legacy(level)),
                    Some(Compare::Legacy(_)) => Some(Compare::Linux2638(level)),
                    Some(Compare::Linux2638(_)) => Some(Compare::Patch(level)),
                    Some(Compare::Patch(_)) => {
                        let r = cfg.tunables.dirty_ratio;
                        Some(Compare::DirtyRatio(if r > 1 { (r / 2).max(1) } else { 20 }))
                    }
                    Some(Compare::DirtyRatio(_) | Compare::Alternative) => None,
                };
                self.set_compare(next);
            }
            Msg::Reset => {
                self.note = match self.session.build() {
                    Err(e) => e.to_string(),
                    Ok(()) => "restarted".into(),
                };
                self.bdi = self.bdi.min(self.world().bdis().len() - 1);
            }
            Msg::Help => self.help = !self.help,
            Msg::Theme => {
                let next = match self.theme.kind {
                    ThemeKind::Dark => ThemeKind::Light,
                    ThemeKind::Light => ThemeKind::Dark,
                    ThemeKind::Mono => ThemeKind::Mono,
                };
                self.theme = Theme::new(next);
            }
        }
    }

    /// Switches the comparison (both worlds restart at time 0).
    pub fn set_compare(&mut self, compare: Option<Compare>) {
        self.dirty = true;
        self.note = match self.session.set_compare(compare) {
            Err(e) => e.to_string(),
            Ok(()) => match compare {
                Some(_) => format!("compare: {} vs {}", self.sides()[0].label, self.sides()[1].label),
                None => "compare off".into(),
            },
        };
        self.bdi = self.bdi.min(self.world().bdis().len() - 1);
    }

    /// Applies the input `f` gives for each side.
    pub fn apply(&mut self, f: impl Fn(&World) -> Option<Input>) {
        self.dirty = true;
        self.session.apply(f);
    }

    fn bdi_name(&self) -> String {
        self.world().bdis()[self.bdi].name.clone()
    }

    /// Moves simulated time on by `wall` of real time at the current speed.
    /// As fast as possible, it simulates for about `budget` of wall time.
    pub fn advance(&mut self, wall: std::time::Duration, budget: std::time::Duration) {
        if self.paused {
            return;
        }
        let speed = self.speed();
        if speed.is_finite() {
            let step = (wall.as_secs_f64() * speed * NS_PER_SEC as f64) as u64;
            self.advance_to(self.session.sim_ns + step.min(NS_PER_SEC * 60));
        } else {
            let start = std::time::Instant::now();
            while !self.paused && start.elapsed() < budget {
                let t = self.session.sim_ns + NS_PER_SEC / 10;
                self.advance_to(t);
            }
        }
    }

    /// Advances every side to `t`. In a lesson, time stops at the end of
    /// the open step (which is judged there) unless the step auto-advances,
    /// in which case the next step opens.
    pub fn advance_to(&mut self, t: u64) {
        if let Some(log) = &mut self.record {
            log.push(Entry::Advance(t));
        }
        self.advance_inner(t);
    }

    fn advance_inner(&mut self, t: u64) {
        if !self.lesson_advance(t) {
            return;
        }
        if self.session.advance_to(t) {
            self.dirty = true;
        }
    }
}

/// The dirty ratio closest to a byte setting, for the ratio keys.
fn ratio_of_bytes(w: &World, bytes: u64) -> u64 {
    (bytes / PAGE_SIZE * 100 / w.vm().dirtyable().max(1)).clamp(1, 100)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::presets;

    fn app() -> App {
        App::new(presets::get("default").expect("preset").expect("valid"), None, ThemeKind::Dark).expect("builds")
    }

    #[test]
    fn keys_change_the_running_world() {
        let mut a = app();
        a.advance_to(2 * NS_PER_SEC);
        a.update(Msg::AddDd);
        assert_eq!(a.world().tasks().iter().filter(|t| t.alive()).count(), 2);
        a.update(Msg::DirtyRatio(-1));
        assert_eq!(a.world().vm().tunables.dirty_ratio, 19);
        a.update(Msg::Patches(false));
        assert_eq!(a.world().patches(), 10);
        a.update(Msg::Memory(true));
        assert_eq!(a.world().vm().memory_pages, 2 << 20);
        a.update(Msg::RemoveDd);
        a.advance_to(3 * NS_PER_SEC);
        assert_eq!(a.world().tasks().iter().filter(|t| t.alive()).count(), 1);
    }

    #[test]
    fn a_second_dd_pulls_dirty_ratelimit_toward_half_the_bandwidth() {
        let mut a = app();
        a.advance_to(20 * NS_PER_SEC);
        let b = &a.world().bdis()[0];
        let (before, bw) = (b.dirty_ratelimit as f64, b.avg_write_bandwidth as f64);
        a.update(Msg::AddDd);
        a.advance_to(25 * NS_PER_SEC);
        let after = a.world().bdis()[0].dirty_ratelimit as f64;
        let target = bw / 2.0;
        assert!((after - target).abs() < 0.75 * (before - target).abs(), "{before} -> {after}, target {target}");
        assert_eq!(a.world().tasks().iter().filter(|t| t.alive()).count(), 2);
    }

    #[test]
    fn threshold_lines_move_at_once_even_when_paused() {
        let mut a = app();
        a.advance_to(5 * NS_PER_SEC);
        a.update(Msg::TogglePause);
        let before = a.world().samples().back().expect("sample").thresh;
        a.update(Msg::DirtyRatio(-5));
        let after = a.world().samples().back().expect("sample").thresh;
        assert!(after < before, "{before} -> {after}");
    }

    #[test]
    fn patch_level_goes_down_to_legacy_then_2_6_38_and_back() {
        let mut a = app();
        for _ in 0..11 {
            a.update(Msg::Patches(false));
        }
        assert_eq!((a.world().patches(), a.world().legacy()), (0, Legacy::Linux31));
        for _ in 0..5 {
            a.update(Msg::Patches(false));
        }
        assert_eq!((a.world().patches(), a.world().legacy()), (0, Legacy::Linux2638));
        assert_eq!(a.note, "patch level: legacy 2.6.38 (IO-full)");
        a.update(Msg::Patches(true));
        assert_eq!((a.world().patches(), a.world().legacy()), (0, Legacy::Linux31));
        for _ in 0..20 {
            a.update(Msg::Patches(true));
        }
        assert_eq!((a.world().patches(), a.world().legacy()), (11, Legacy::Linux31));
    }

    #[test]
    fn compare_cycles_through_its_modes_in_lockstep() {
        let mut a = app();
        a.update(Msg::Compare);
        assert_eq!(a.sides().len(), 2);
        assert_eq!((a.sides()[0].world.patches(), a.sides()[1].world.patches()), (0, 11));
        a.advance_to(NS_PER_SEC);
        assert_eq!(a.sides()[0].world.now_ns(), a.sides()[1].world.now_ns());
        a.update(Msg::Compare);
        assert_eq!(a.sides()[0].world.legacy(), Legacy::Linux2638);
        assert_eq!(a.sides()[0].label, "legacy 2.6.38 (IO-full)");
        assert_eq!((a.sides()[1].world.patches(), a.sides()[1].world.legacy()), (11, Legacy::Linux31));
        a.update(Msg::Compare);
        assert_eq!((a.sides()[0].world.patches(), a.sides()[1].world.patches()), (10, 11));
        a.update(Msg::Compare);
        assert_eq!(a.sides()[1].world.vm().tunables.dirty_ratio, 10);
        a.update(Msg::Compare);
        assert_eq!(a.sides().len(), 1);
        assert!(Compare::parse("patches=0").is_err());
        assert_eq!(Compare::parse("2.6.38"), Ok(Compare::Linux2638(11)));
        assert_eq!(Compare::parse("2.6.38=9"), Ok(Compare::Linux2638(9)));
        assert_eq!(Compare::parse(&Compare::Linux2638(9).to_string()), Ok(Compare::Linux2638(9)));
        assert_eq!(Compare::parse("dirty-ratio=5"), Ok(Compare::DirtyRatio(5)));
    }

    #[test]
    fn speeds_run_from_a_tenth_to_unbounded() {
        let mut a = app();
        for _ in 0..30 {
            a.update(Msg::Slower);
        }
        assert_eq!(a.speed(), 0.1);
        for _ in 0..30 {
            a.update(Msg::Faster);
        }
        assert!(a.speed().is_infinite());
    }
}
