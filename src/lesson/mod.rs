//! Lessons: RON files that set up a scenario and walk through one
//! mechanism of the series in steps, each with text, actions applied when
//! it opens, checks on the live simulation and optional questions.
//!
//! ```ron
//! Lesson(
//!     id: "03",
//!     title: "Position control",
//!     patch: "[PATCH 02/11] writeback: dirty position control",
//!     summary: "Why dirty pages settle at the setpoint.",
//!     scenario: Preset("default"),
//!     steps: [
//!         Step(
//!             title: "The global control line",
//!             text: "Watch chart 3 ...",
//!             actions: [Zoom(3)],
//!             run_s: 30,
//!             checks: [Check(label: "mean dirty within 5% of setpoint",
//!                            metric: DirtyToSetpoint, min: 0.95, max: 1.05)],
//!         ),
//!     ],
//! )
//! ```
//!
//! The shipped lessons are compiled in; `dirtyviz check` runs each one
//! headless and verifies its checks hold at their step.

pub mod check;
pub mod metric;
pub mod progress;
pub mod runner;

use serde::{Deserialize, Serialize};

use crate::scenario::{Overrides, Scenario, ScenarioError, case, presets, ron_error, ron_options};
use metric::Metric;

/// A lesson.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    /// Short id, its place in the teaching order ("00".."15").
    pub id: String,
    /// Title.
    pub title: String,
    /// The patch it teaches: its subject line in the seed.
    pub patch: String,
    /// One paragraph: the problem and the mechanism.
    pub summary: String,
    /// The world.
    pub scenario: ScenarioRef,
    /// Patch level to start at (default: the scenario's).
    #[serde(default)]
    pub patches: Option<u8>,
    /// Seed (default: the scenario's).
    #[serde(default)]
    pub seed: Option<u64>,
    /// The steps, in order.
    pub steps: Vec<Step>,
}

/// Where a lesson's world comes from.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
pub enum ScenarioRef {
    /// A built-in preset by name.
    Preset(String),
    /// One of the seed's test-case names.
    Case(String),
    /// A scenario written out in the lesson.
    Inline(Box<Scenario>),
}

/// One step of a lesson.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// Heading.
    pub title: String,
    /// A few short paragraphs (blank lines between), naming the keys to press.
    pub text: String,
    /// Shown on `h`.
    #[serde(default)]
    pub hint: Option<String>,
    /// Applied when the step opens.
    #[serde(default)]
    pub actions: Vec<Action>,
    /// Simulated time the step needs for its checks; `dirtyviz check` runs
    /// it this long [s].
    #[serde(default = "default_run_s")]
    pub run_s: f64,
    /// Move on by itself once `run_s` has passed.
    #[serde(default)]
    pub auto_advance: bool,
    /// What the simulation must show.
    #[serde(default)]
    pub checks: Vec<Check>,
    /// Questions whose answers come from the running simulation.
    #[serde(default)]
    pub questions: Vec<Question>,
}

fn default_run_s() -> f64 {
    20.0
}

/// A change a step makes when it opens.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
pub enum Action {
    /// `vm.dirty_ratio` [%].
    DirtyRatio(u64),
    /// `vm.dirty_background_ratio` [%].
    DirtyBackgroundRatio(u64),
    /// `vm.dirty_bytes` [MiB].
    DirtyBytesMb(u64),
    /// `vm.dirty_background_bytes` [MiB].
    DirtyBackgroundBytesMb(u64),
    /// Memory [MiB].
    MemoryMb(u64),
    /// Patch level, 0 (legacy) to 11.
    Patches(u8),
    /// Start dd tasks on a bdi (`*`: every bdi).
    AddDd {
        /// Target bdi.
        bdi: String,
        /// How many.
        n: u32,
    },
    /// Kill the newest dd tasks on a bdi.
    RemoveDd {
        /// Target bdi.
        bdi: String,
        /// How many.
        n: u32,
    },
    /// Start an A/B comparison (both sides restart at time 0).
    Compare(CompareSpec),
    /// Compare the lesson's world (labelled `a`) with the same world
    /// changed by `changes` (labelled `b`); both restart at time 0.
    CompareWith {
        /// Label of the left side.
        a: String,
        /// Label of the right side.
        b: String,
        /// What differs on the right.
        changes: Overrides,
    },
    /// Change settings that need a fresh world (period shift, CPUs, NFS
    /// patches, dd count) and restart it at time 0.
    Reconfigure(Overrides),
    /// Select the bdi the charts and checks look at.
    SelectBdi(String),
    /// Show one chart full screen (1-5), or all (0).
    Zoom(u8),
    /// Pause the simulation (the student resumes with space).
    Pause,
    /// Restart the scenario at time 0.
    Restart,
}

/// The comparisons a lesson can open.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
pub enum CompareSpec {
    /// Legacy (3.1) against the series up to this patch.
    Legacy(u8),
    /// Linux 2.6.38 against the series up to this patch.
    Linux2638(u8),
    /// Patch N-1 against patch N.
    Patch(u8),
    /// The scenario's dirty_ratio against this one.
    DirtyRatio(u64),
    /// Back to one world (restarts it).
    Off,
}

/// Which world a check looks at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
pub enum SideSpec {
    /// The only world, or the left one in compare mode.
    #[default]
    A,
    /// The right world in compare mode.
    B,
    /// Left value over right value.
    AOverB,
    /// Right value over left value.
    BOverA,
}

/// Something the live simulation must show.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Check {
    /// What it says, e.g. "mean dirty within 5% of setpoint over the last 10 s".
    pub label: String,
    /// What is measured.
    pub metric: Metric,
    /// Over the last this long [s].
    #[serde(default = "default_window_s")]
    pub window_s: f64,
    /// The bdi (default: the selected one).
    #[serde(default)]
    pub bdi: Option<String>,
    /// Which world.
    #[serde(default)]
    pub side: SideSpec,
    /// Lowest acceptable value.
    #[serde(default)]
    pub min: Option<f64>,
    /// Highest acceptable value.
    #[serde(default)]
    pub max: Option<f64>,
}

fn default_window_s() -> f64 {
    10.0
}

/// A question the student answers with a number.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Question {
    /// The question.
    pub ask: String,
    /// The quantity that answers it, measured when the student answers.
    pub metric: Metric,
    /// Over the last this long [s].
    #[serde(default = "default_window_s")]
    pub window_s: f64,
    /// The bdi (default: the selected one).
    #[serde(default)]
    pub bdi: Option<String>,
    /// Which world.
    #[serde(default)]
    pub side: SideSpec,
    /// Relative error counted as right (0.1 = within 10%).
    #[serde(default = "default_tolerance")]
    pub tolerance: f64,
}

fn default_tolerance() -> f64 {
    0.1
}

/// A lesson that cannot be used: the message names the file, and where it
/// can, the line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonError(pub String);

impl std::fmt::Display for LessonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The shipped lessons, in teaching order: file name and RON text.
pub const SHIPPED: &[(&str, &str)] = &[
    ("00-writeback.ron", include_str!("../../lessons/00-writeback.ron")),
    ("01-io-full.ron", include_str!("../../lessons/01-io-full.ron")),
    ("02-bdi-dirtied.ron", include_str!("../../lessons/02-bdi-dirtied.ron")),
    ("03-position-control.ron", include_str!("../../lessons/03-position-control.ron")),
    ("04-rate-control.ron", include_str!("../../lessons/04-rate-control.ron")),
    ("05-stabilize.ron", include_str!("../../lessons/05-stabilize.ron")),
    ("06-poll-interval.ron", include_str!("../../lessons/06-poll-interval.ron")),
    ("07-io-less.ron", include_str!("../../lessons/07-io-less.ron")),
    ("08-max-pause.ron", include_str!("../../lessons/08-max-pause.ron")),
    ("09-pause-control.ron", include_str!("../../lessons/09-pause-control.ron")),
    ("10-reserve-area.ron", include_str!("../../lessons/10-reserve-area.ron")),
    ("11-bdi-background.ron", include_str!("../../lessons/11-bdi-background.ron")),
    ("12-nfs.ron", include_str!("../../lessons/12-nfs.ron")),
    ("13-proportions.ron", include_str!("../../lessons/13-proportions.ron")),
    ("14-usb-key.ron", include_str!("../../lessons/14-usb-key.ron")),
    ("15-thousand-dd.ron", include_str!("../../lessons/15-thousand-dd.ron")),
];

/// Line and column (1-based) of the first `needle` in `text`, else 1:1.
fn locate(text: &str, needle: &str) -> (usize, usize) {
    let Some(at) = text.find(needle) else {
        return (1, 1);
    };
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let col = at - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    (line, col)
}

impl Lesson {
    /// Parses and checks a lesson; errors read `origin:line:col: ...`.
    pub fn from_ron(text: &str, origin: &str) -> Result<Lesson, LessonError> {
        let lesson: Lesson = ron_options().from_str(text).map_err(|e| LessonError(ron_error(origin, &e)))?;
        lesson.validate(text, origin)?;
        Ok(lesson)
    }

    /// Reads a lesson file.
    pub fn load(path: &std::path::Path) -> Result<Lesson, LessonError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| LessonError(format!("{}: cannot read lesson: {e}", path.display())))?;
        Lesson::from_ron(&text, &path.display().to_string())
    }

    /// The shipped lesson file called `name`: its id ("03"), its file
    /// name, or its file name without `.ron`.
    pub fn shipped_file(name: &str) -> Option<(&'static str, &'static str)> {
        SHIPPED
            .iter()
            .copied()
            .find(|(file, _)| name == &file[..2] || name == *file || name == file.trim_end_matches(".ron"))
    }

    /// A shipped lesson by id ("03") or file name, or a lesson file by path.
    pub fn resolve(id_or_path: &str) -> Result<Lesson, LessonError> {
        if let Some((file, text)) = Lesson::shipped_file(id_or_path) {
            return Lesson::from_ron(text, &format!("lessons/{file}"));
        }
        let path = std::path::Path::new(id_or_path);
        if path.exists() {
            return Lesson::load(path);
        }
        let ids: Vec<&str> = SHIPPED.iter().map(|(f, _)| &f[..2]).collect();
        Err(LessonError(format!("unknown lesson `{id_or_path}`: not a file and not a lesson id ({})", ids.join(", "))))
    }

    /// Every shipped lesson, parsed.
    pub fn shipped() -> Vec<Result<Lesson, LessonError>> {
        SHIPPED.iter().map(|(file, text)| Lesson::from_ron(text, &format!("lessons/{file}"))).collect()
    }

    /// Every shipped lesson, or the first that does not parse.
    pub fn all_shipped() -> Result<Vec<Lesson>, LessonError> {
        Lesson::shipped().into_iter().collect()
    }

    /// The scenario the lesson runs, with its overrides.
    pub fn scenario(&self) -> Result<Scenario, ScenarioError> {
        let mut s = match &self.scenario {
            ScenarioRef::Preset(name) => presets::get(name).ok_or_else(|| {
                ScenarioError(format!("unknown preset `{name}`, expected one of {}", presets::names().join(", ")))
            })??,
            ScenarioRef::Case(name) => case::parse(name)?,
            ScenarioRef::Inline(s) => (**s).clone(),
        };
        if let Some(p) = self.patches {
            s.patches = p;
        }
        if let Some(seed) = self.seed {
            s.seed = seed;
        }
        if s.name.is_empty() {
            s.name = format!("lesson {}", self.id);
        }
        Ok(s)
    }

    /// Semantic checks; the position is where the offending text first
    /// appears in the file.
    fn validate(&self, text: &str, origin: &str) -> Result<(), LessonError> {
        let at = |needle: &str, what: String| {
            let (l, c) = locate(text, needle);
            Err(LessonError(format!("{origin}:{l}:{c}: {what}")))
        };
        let scenario = match self.scenario() {
            Ok(s) => s,
            Err(e) => {
                let needle = match &self.scenario {
                    ScenarioRef::Preset(n) | ScenarioRef::Case(n) => n.clone(),
                    ScenarioRef::Inline(_) => "Inline".into(),
                };
                return at(&needle, e.0);
            }
        };
        let world = match scenario.to_world() {
            Ok(w) => w,
            Err(e) => return at("scenario", e.0),
        };
        let names: Vec<String> = world.devices.iter().map(|d| d.name.clone()).collect();
        let bdi_ok = |b: &str| b == "*" || names.iter().any(|n| n == b);
        let name_list = || names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ");
        if self.steps.is_empty() {
            return at("steps", "a lesson needs at least one step".into());
        }
        if let Some(p) = self.patches
            && p > 11
        {
            return at("patches", format!("patch level must be 0 to 11, got {p}"));
        }
        for (i, step) in self.steps.iter().enumerate() {
            let n = i + 1;
            if !(step.run_s.is_finite() && step.run_s > 0.0 && step.run_s <= 3600.0) {
                return at(&step.title, format!("step {n}: run_s must be between 0 and 3600 seconds"));
            }
            for a in &step.actions {
                let bad = match a {
                    Action::AddDd { bdi, .. } | Action::RemoveDd { bdi, .. } | Action::SelectBdi(bdi)
                        if !bdi_ok(bdi) =>
                    {
                        Some((
                            bdi.clone(),
                            format!("step {n}: unknown bdi `{bdi}`, expected `*` or one of {}", name_list()),
                        ))
                    }
                    Action::Patches(p) if *p > 11 => {
                        Some(("Patches".into(), format!("step {n}: patch level {p} > 11")))
                    }
                    Action::Zoom(z) if *z > 5 => Some(("Zoom".into(), format!("step {n}: charts are 1 to 5, got {z}"))),
                    Action::Compare(CompareSpec::Patch(p) | CompareSpec::Legacy(p) | CompareSpec::Linux2638(p))
                        if !(1..=11).contains(p) =>
                    {
                        Some(("Compare(".into(), format!("step {n}: the compared patch level must be 1 to 11")))
                    }
                    Action::DirtyRatio(r) | Action::DirtyBackgroundRatio(r) if *r > 100 => {
                        Some(("Ratio".into(), format!("step {n}: ratios are 0 to 100, got {r}")))
                    }
                    _ => None,
                };
                if let Some((needle, what)) = bad {
                    return at(&needle, what);
                }
                if let Action::CompareWith { changes, .. } | Action::Reconfigure(changes) = a {
                    let mut changed = scenario.clone();
                    changed.apply(changes);
                    if let Err(e) = changed.to_world() {
                        let needle = if matches!(a, Action::Reconfigure(_)) { "Reconfigure" } else { "CompareWith" };
                        return at(needle, format!("step {n}: the changed world cannot be built: {}", e.0));
                    }
                }
            }
            let windows = step
                .checks
                .iter()
                .map(|c| (c.window_s, &c.bdi))
                .chain(step.questions.iter().map(|q| (q.window_s, &q.bdi)));
            for (w, bdi) in windows {
                if !(w.is_finite() && w > 0.0) {
                    return at("window_s", format!("step {n}: window_s must be positive"));
                }
                if let Some(b) = bdi
                    && !names.iter().any(|x| x == b)
                {
                    return at(b, format!("step {n}: unknown bdi `{b}`, expected one of {}", name_list()));
                }
            }
            for c in &step.checks {
                if c.min.is_none() && c.max.is_none() {
                    return at(&c.label, format!("step {n}: check `{}` needs min or max", c.label));
                }
                if let (Some(lo), Some(hi)) = (c.min, c.max)
                    && lo > hi
                {
                    return at(&c.label, format!("step {n}: check `{}` has min above max", c.label));
                }
            }
        }
        Ok(())
    }
}

impl Check {
    /// True when `value` lies within the bounds.
    pub fn passes(&self, value: f64) -> bool {
        value.is_finite() && self.min.is_none_or(|lo| value >= lo) && self.max.is_none_or(|hi| value <= hi)
    }

    /// The bounds, for display: "0.95..1.05", ">= 5", "<= 200".
    pub fn bounds(&self) -> String {
        let f = |v: f64| if v.abs() >= 100.0 || v == v.trunc() { format!("{v:.0}") } else { format!("{v:.2}") };
        match (self.min, self.max) {
            (Some(lo), Some(hi)) => format!("{}..{}", f(lo), f(hi)),
            (Some(lo), None) => format!(">= {}", f(lo)),
            (None, Some(hi)) => format!("<= {}", f(hi)),
            (None, None) => String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_lesson_parses() {
        for (i, l) in Lesson::shipped().into_iter().enumerate() {
            let l = l.unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(l.id, SHIPPED[i].0[..2], "id matches the file name");
            assert!(!l.steps.is_empty());
        }
    }

    #[test]
    fn every_file_in_lessons_is_shipped() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons");
        let mut files: Vec<String> = std::fs::read_dir(dir)
            .expect("lessons/")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .filter(|f| f.ends_with(".ron"))
            .collect();
        files.sort();
        let shipped: Vec<&str> = SHIPPED.iter().map(|(f, _)| *f).collect();
        assert_eq!(files, shipped);
    }

    #[test]
    fn misspelt_fields_are_rejected_with_their_place_and_the_valid_names() {
        let text = "Lesson(\n    id: \"x\",\n    title: \"t\",\n    patch: \"p\",\n    summary: \"s\",\n    scenario: Preset(\"default\"),\n    steps: [\n        Step(\n            title: \"a\",\n            text: \"b\",\n            actions: [\n    dirty_rato: 20,\n        ),\n    ],\n)\n";
        let e = Lesson::from_ron(text, "lessons/x.ron").expect_err("bad");
        assert!(e.0.starts_with("lessons/x.ron:12:5: "), "{e}");
        let text = text.replace("            actions: [\n    dirty_rato: 20,\n", "    dirty_rato: 20,\n");
        let e = Lesson::from_ron(&text, "lessons/x.ron").expect_err("bad field");
        assert!(e.0.starts_with("lessons/x.ron:11:5: unknown field `dirty_rato`, expected one of `title`"), "{e}");
    }

    #[test]
    fn unknown_names_are_rejected() {
        let base = |scenario: &str, action: &str, metric: &str| {
            format!(
                "Lesson(id: \"x\", title: \"t\", patch: \"p\", summary: \"s\", scenario: {scenario},\n steps: [Step(title: \"a\", text: \"b\", actions: [{action}],\n checks: [Check(label: \"c\", metric: {metric}, max: 1)])])"
            )
        };
        let e = Lesson::from_ron(&base("Preset(\"nope\")", "Pause", "PosRatio"), "l.ron").expect_err("preset");
        assert!(e.0.contains("unknown preset `nope`") && e.0.contains("hdd-10dd"), "{e}");
        let e = Lesson::from_ron(&base("Preset(\"default\")", "Frobnicate", "PosRatio"), "l.ron").expect_err("action");
        assert!(e.0.contains("unknown variant `Frobnicate`") && e.0.contains("`AddDd`"), "{e}");
        let e = Lesson::from_ron(&base("Preset(\"default\")", "Pause", "Speed"), "l.ron").expect_err("metric");
        assert!(e.0.contains("unknown variant `Speed`") && e.0.contains("`PosRatio`"), "{e}");
        let e = Lesson::from_ron(&base("Preset(\"default\")", "AddDd(bdi: \"sdz\", n: 1)", "PosRatio"), "l.ron")
            .expect_err("bdi");
        assert!(e.0.contains("unknown bdi `sdz`") && e.0.contains("`sda`") && e.0.starts_with("l.ron:2:"), "{e}");
    }
}
