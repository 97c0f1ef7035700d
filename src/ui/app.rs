//! The dashboard's state and the one place it changes: [`App::update`]
//! for messages and [`App::advance`] for time.
//!
//! An app holds one world, or two in A/B compare mode, built from the same
//! scenario and seed and advanced in lockstep to the same simulated time.
//! Every change a key asks for becomes an [`Input`] applied to each world.

use crate::scenario::Scenario;
use crate::sim::config::{NS_PER_SEC, TaskConfig, TaskKind, WorldConfig};
use crate::sim::kernel::PAGE_SIZE;
use crate::sim::{Input, World};

use super::keys::Msg;
use super::theme::{Theme, ThemeKind};

/// Speeds, each about twice the one before; the last means as fast as possible.
pub const SPEEDS: &[f64] =
    &[0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0, f64::INFINITY];

/// Time windows of the charts [s]; `None` shows the whole run.
pub const WINDOWS: &[Option<u64>] = &[Some(30), Some(60), Some(300), None];

/// What the two sides of an A/B comparison differ in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compare {
    /// Legacy (3.1, IO-full) on the left, the series up to this patch on the right.
    Legacy(u8),
    /// The series up to patch N-1 on the left, up to N on the right.
    Patch(u8),
    /// The scenario's dirty_ratio on the left, this one on the right.
    DirtyRatio(u64),
}

impl Compare {
    /// Parses `legacy`, `patches=N` or `dirty-ratio=N`.
    pub fn parse(s: &str) -> Result<Compare, String> {
        let bad = || "expected legacy, patches=N (1-11) or dirty-ratio=N (1-100)".to_string();
        if s == "legacy" {
            return Ok(Compare::Legacy(11));
        }
        let (k, v) = s.split_once('=').ok_or_else(bad)?;
        let n: u64 = v.parse().map_err(|_| bad())?;
        match k {
            "patches" if (1..=11).contains(&n) => Ok(Compare::Patch(n as u8)),
            "dirty-ratio" if (1..=100).contains(&n) => Ok(Compare::DirtyRatio(n)),
            _ => Err(bad()),
        }
    }
}

/// One world and what it is labelled.
pub struct Side {
    /// Shown above its charts.
    pub label: String,
    /// The simulation.
    pub world: World,
    /// Pages each task had dirtied at the last rate update.
    dirtied_at: Vec<u64>,
    /// Per-task dirty rates over the last second [pages/s].
    pub task_rates: Vec<f64>,
}

/// The dashboard.
pub struct App {
    /// The scenario it runs.
    pub scenario: Scenario,
    /// The world configuration built from it.
    config: WorldConfig,
    /// One side, or two in compare mode.
    pub sides: Vec<Side>,
    /// The comparison shown, if any.
    pub compare: Option<Compare>,
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
    /// Simulated time every side is advanced to [ns].
    pub sim_ns: u64,
    /// Sim time of the last per-task rate update [ns].
    rates_at: u64,
    /// Time the last frame took to draw [ms], shown in the status line.
    pub frame_ms: f64,
    /// Something changed since the last frame.
    pub dirty: bool,
    /// A message for the status line (the last change made).
    pub note: String,
}

/// Why the dashboard cannot start.
#[derive(Debug)]
pub struct AppError(pub String);

impl App {
    /// A paused-off app on `scenario`, optionally comparing.
    pub fn new(scenario: Scenario, compare: Option<Compare>, theme: ThemeKind) -> Result<App, AppError> {
        let mut config = scenario.to_world().map_err(|e| AppError(e.0))?;
        config.sample_retention = 200_000;
        config.pause_log = 20_000;
        let mut app = App {
            scenario,
            config,
            sides: Vec::new(),
            compare,
            paused: false,
            speed: SPEEDS.iter().position(|&s| s == 1.0).expect("1x is a speed"),
            bdi: 0,
            zoom: None,
            help: false,
            window: 1,
            theme: Theme::from_env(theme),
            marker: ratatui::symbols::Marker::Braille,
            quit: false,
            sim_ns: 0,
            rates_at: 0,
            frame_ms: 0.0,
            dirty: true,
            note: String::new(),
        };
        app.build()?;
        Ok(app)
    }

    /// (Re)builds the worlds at time 0 for the current comparison.
    fn build(&mut self) -> Result<(), AppError> {
        let base = self.config.clone();
        let mut sides = Vec::new();
        let mut make = |label: String, cfg: WorldConfig| -> Result<(), AppError> {
            let world = World::new(&cfg).map_err(|e| AppError(e.0))?;
            sides.push(Side { label, world, dirtied_at: Vec::new(), task_rates: Vec::new() });
            Ok(())
        };
        match self.compare {
            None => make(level_name(base.patches), base)?,
            Some(Compare::Legacy(n)) => {
                make(level_name(0), WorldConfig { patches: 0, ..base.clone() })?;
                make(level_name(n), WorldConfig { patches: n, ..base })?;
            }
            Some(Compare::Patch(n)) => {
                make(level_name(n - 1), WorldConfig { patches: n - 1, ..base.clone() })?;
                make(level_name(n), WorldConfig { patches: n, ..base })?;
            }
            Some(Compare::DirtyRatio(r)) => {
                let a = base.tunables;
                let label = |t: &crate::sim::page_writeback::DirtyTunables| {
                    if t.dirty_bytes > 0 {
                        format!("dirty_bytes {} MiB", t.dirty_bytes >> 20)
                    } else {
                        format!("dirty_ratio {}", t.dirty_ratio)
                    }
                };
                let mut b_cfg = base.clone();
                b_cfg.tunables.dirty_ratio = r;
                b_cfg.tunables.dirty_bytes = 0;
                make(label(&a), base)?;
                let b = b_cfg.tunables;
                make(label(&b), b_cfg)?;
            }
        }
        self.sides = sides;
        self.sim_ns = 0;
        self.rates_at = 0;
        self.bdi = self.bdi.min(self.sides[0].world.bdis().len() - 1);
        self.dirty = true;
        Ok(())
    }

    /// The world the single-world charts show (side A).
    pub fn world(&self) -> &World {
        &self.sides[0].world
    }

    /// The current speed; infinite means as fast as possible.
    pub fn speed(&self) -> f64 {
        SPEEDS[self.speed]
    }

    /// Applies a message.
    pub fn update(&mut self, msg: Msg) {
        self.dirty = true;
        match msg {
            Msg::Quit => self.quit = true,
            Msg::TogglePause => self.paused = !self.paused,
            Msg::Step => {
                if self.paused {
                    let t = self.sim_ns + NS_PER_SEC / 10;
                    self.advance_to(t);
                } else {
                    self.note = "single step works while paused (space)".into();
                }
            }
            Msg::Faster => self.speed = (self.speed + 1).min(SPEEDS.len() - 1),
            Msg::Slower => self.speed = self.speed.saturating_sub(1),
            Msg::AddDd => {
                let cfg = TaskConfig {
                    bdi: self.bdi,
                    kind: TaskKind::Dd { bs: PAGE_SIZE, total_bytes: None },
                    start_ns: 0,
                    stop_ns: None,
                };
                self.apply(|_| Some(Input::AddTask(cfg.clone())));
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
                self.apply(|w| {
                    let p = w.patches();
                    let next = if up { (p + 1).min(11) } else { p.saturating_sub(1) };
                    (next != p).then_some(Input::Patches(next))
                });
                for side in &mut self.sides {
                    side.label = match self.compare {
                        Some(Compare::DirtyRatio(_)) => side.label.clone(),
                        _ => level_name(side.world.patches()),
                    };
                }
                self.note = format!("patch level: {}", level_name(self.world().patches()));
            }
            Msg::Zoom(n) => self.zoom = if self.zoom == Some(n) { None } else { Some(n) },
            Msg::Back => {
                if self.help {
                    self.help = false;
                } else {
                    self.zoom = None;
                }
            }
            Msg::Window => self.window = (self.window + 1) % WINDOWS.len(),
            Msg::Compare => {
                // The IO-less side: the scenario's level if it is IO-less, else all 11.
                let level = if self.config.patches >= 7 { self.config.patches } else { 11 };
                self.compare = match self.compare {
                    None => Some(Compare::Legacy(level)),
                    Some(Compare::Legacy(_)) => Some(Compare::Patch(level)),
                    Some(Compare::Patch(_)) => {
                        let r = self.config.tunables.dirty_ratio;
                        Some(Compare::DirtyRatio(if r > 1 { (r / 2).max(1) } else { 20 }))
                    }
                    Some(Compare::DirtyRatio(_)) => None,
                };
                if let Err(e) = self.build() {
                    self.note = e.0;
                    self.compare = None;
                    let _ = self.build();
                }
                self.note = match self.compare {
                    Some(_) => format!("compare: {} vs {}", self.sides[0].label, self.sides[1].label),
                    None => "compare off".into(),
                };
            }
            Msg::Reset => {
                if let Err(e) = self.build() {
                    self.note = e.0;
                } else {
                    self.note = "restarted".into();
                }
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

    /// Applies the input `f` gives for each side.
    fn apply(&mut self, f: impl Fn(&World) -> Option<Input>) {
        for side in &mut self.sides {
            if let Some(input) = f(&side.world) {
                side.world.apply(input);
                side.world.sample_now();
            }
        }
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
            self.advance_to(self.sim_ns + step.min(NS_PER_SEC * 60));
        } else {
            let start = std::time::Instant::now();
            while start.elapsed() < budget {
                let t = self.sim_ns + NS_PER_SEC / 10;
                self.advance_to(t);
            }
        }
    }

    /// Advances every side to `t` and refreshes the per-task rates.
    pub fn advance_to(&mut self, t: u64) {
        let samples_before = self.sides[0].world.samples().len() as u64 + self.sides[0].world.samples_dropped();
        for side in &mut self.sides {
            side.world.step_until(t);
        }
        self.sim_ns = t;
        if t >= self.rates_at + NS_PER_SEC {
            let secs = (t - self.rates_at) as f64 / NS_PER_SEC as f64;
            for side in &mut self.sides {
                let tasks = side.world.tasks();
                side.dirtied_at.resize(tasks.len(), 0);
                side.task_rates = tasks
                    .iter()
                    .zip(&side.dirtied_at)
                    .map(|(t, &before)| (t.stats.dirtied - before) as f64 / secs)
                    .collect();
                for (d, task) in side.dirtied_at.iter_mut().zip(tasks) {
                    *d = task.stats.dirtied;
                }
            }
            self.rates_at = t;
        }
        let samples_after = self.sides[0].world.samples().len() as u64 + self.sides[0].world.samples_dropped();
        if samples_after != samples_before {
            self.dirty = true;
        }
    }
}

/// The dirty ratio closest to a byte setting, for the ratio keys.
fn ratio_of_bytes(w: &World, bytes: u64) -> u64 {
    (bytes / PAGE_SIZE * 100 / w.vm().dirtyable().max(1)).clamp(1, 100)
}

/// How a patch level is called on screen.
pub fn level_name(level: u8) -> String {
    match level {
        0 => "legacy 3.1 (IO-full)".into(),
        1..=6 => format!("patch {level:02} (IO-full)"),
        _ => format!("patch {level:02} (IO-less)"),
    }
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
    fn patch_level_goes_down_to_legacy_and_back() {
        let mut a = app();
        for _ in 0..20 {
            a.update(Msg::Patches(false));
        }
        assert_eq!(a.world().patches(), 0);
        for _ in 0..20 {
            a.update(Msg::Patches(true));
        }
        assert_eq!(a.world().patches(), 11);
    }

    #[test]
    fn compare_cycles_through_its_modes_in_lockstep() {
        let mut a = app();
        a.update(Msg::Compare);
        assert_eq!(a.sides.len(), 2);
        assert_eq!((a.sides[0].world.patches(), a.sides[1].world.patches()), (0, 11));
        a.advance_to(NS_PER_SEC);
        assert_eq!(a.sides[0].world.now_ns(), a.sides[1].world.now_ns());
        a.update(Msg::Compare);
        assert_eq!((a.sides[0].world.patches(), a.sides[1].world.patches()), (10, 11));
        a.update(Msg::Compare);
        assert_eq!(a.sides[1].world.vm().tunables.dirty_ratio, 10);
        a.update(Msg::Compare);
        assert_eq!(a.sides.len(), 1);
        assert!(Compare::parse("patches=0").is_err());
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
