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

use crate::error::{Error, Result};
use crate::scenario::locate::line_col;
use crate::scenario::{Overrides, Scenario, case, presets, ranges, ron_options};
use metric::Metric;

use crate::units::SizeUnit;

/// A lesson.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    /// Short id, its place in the teaching order ("00".."16").
    #[serde(deserialize_with = "ranges::name")]
    pub id: String,
    /// Title.
    #[serde(deserialize_with = "ranges::name")]
    pub title: String,
    /// The patch it teaches: its subject line in the seed.
    #[serde(deserialize_with = "ranges::name")]
    pub patch: String,
    /// One paragraph: the problem and the mechanism.
    #[serde(deserialize_with = "ranges::text")]
    pub summary: String,
    /// The world.
    pub scenario: ScenarioRef,
    /// Patch level to start at (default: the scenario's).
    #[serde(default, deserialize_with = "ranges::opt_patches")]
    pub patches: Option<u8>,
    /// Seed (default: the scenario's).
    #[serde(default, deserialize_with = "ranges::opt_seed")]
    pub seed: Option<u64>,
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// What the user's progress is kept under, where not the id: a
    /// lesson file of the user's keeps its own, by its path (see
    /// [`Lesson::progress_id`]).
    #[serde(skip)]
    pub progress_key: Option<String>,
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
    #[serde(deserialize_with = "ranges::name")]
    pub title: String,
    /// A few short paragraphs (blank lines between), naming the keys to
    /// press; a line starting with `- ` is a list item, one starting with
    /// `$ ` a shell command shown as written (wrapped between words, a
    /// row it goes on from ending in ` \`). The charts ("chart 3"), the
    /// task table and the parameter panel it names are put on the screen.
    #[serde(deserialize_with = "ranges::text")]
    pub text: String,
    /// Shown on `h`.
    #[serde(default, deserialize_with = "ranges::opt_text")]
    pub hint: Option<String>,
    /// Applied when the step opens.
    #[serde(default)]
    pub actions: Vec<Action>,
    /// Simulated time the step needs for its checks; `dirtyviz check` runs
    /// it this long \[s\].
    #[serde(default = "default_run_s", deserialize_with = "ranges::run_s")]
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
    /// `vm.dirty_ratio` \[%\].
    #[serde(deserialize_with = "ranges::lesson_ratio")]
    DirtyRatio(u64),
    /// `vm.dirty_background_ratio` \[%\].
    #[serde(deserialize_with = "ranges::lesson_ratio")]
    DirtyBackgroundRatio(u64),
    /// `vm.dirty_bytes` \[MiB\].
    #[serde(deserialize_with = "ranges::lesson_dirty_mb")]
    DirtyBytesMb(u64),
    /// `vm.dirty_background_bytes` \[MiB\].
    #[serde(deserialize_with = "ranges::lesson_background_mb")]
    DirtyBackgroundBytesMb(u64),
    /// Memory \[MiB\].
    #[serde(deserialize_with = "ranges::lesson_memory_mb")]
    MemoryMb(u64),
    /// Patch level, 0 (legacy) to 11.
    #[serde(deserialize_with = "ranges::lesson_patches")]
    Patches(u8),
    /// Start dd tasks on a bdi (`*`: every bdi).
    AddDd {
        /// Target bdi.
        bdi: String,
        /// How many per bdi.
        #[serde(deserialize_with = "ranges::tasks_added")]
        n: u32,
    },
    /// Kill the newest dd tasks on a bdi.
    RemoveDd {
        /// Target bdi.
        bdi: String,
        /// How many per bdi.
        #[serde(deserialize_with = "ranges::tasks_added")]
        n: u32,
    },
    /// Start an A/B comparison (both sides restart at time 0).
    Compare(CompareSpec),
    /// Compare the lesson's world (labelled `a`) with the same world
    /// changed by `changes` (labelled `b`); both restart at time 0.
    CompareWith {
        /// Label of the left side.
        #[serde(deserialize_with = "ranges::name")]
        a: String,
        /// Label of the right side.
        #[serde(deserialize_with = "ranges::name")]
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
    #[serde(deserialize_with = "ranges::chart")]
    Zoom(u8),
    /// Pause the simulation (the student resumes with space).
    Pause,
    /// Restart the scenario at time 0.
    Restart,
}

impl Action {
    /// Its name, for an action that changes a setting of the running
    /// worlds (a ratio, memory, the patch level, a dd).
    fn setting(&self) -> Option<&'static str> {
        Some(match self {
            Action::DirtyRatio(_) => "DirtyRatio",
            Action::DirtyBackgroundRatio(_) => "DirtyBackgroundRatio",
            Action::DirtyBytesMb(_) => "DirtyBytesMb",
            Action::DirtyBackgroundBytesMb(_) => "DirtyBackgroundBytesMb",
            Action::MemoryMb(_) => "MemoryMb",
            Action::Patches(_) => "Patches",
            Action::AddDd { .. } => "AddDd",
            Action::RemoveDd { .. } => "RemoveDd",
            _ => return None,
        })
    }

    /// Its name, for an action that starts fresh worlds at time 0 from
    /// the scenario (its own, or as the last `Reconfigure` changed it).
    pub fn fresh_worlds(&self) -> Option<&'static str> {
        Some(match self {
            Action::Compare(_) => "Compare",
            Action::CompareWith { .. } => "CompareWith",
            Action::Reconfigure(_) => "Reconfigure",
            Action::Restart => "Restart",
            _ => return None,
        })
    }
}

/// The comparisons a lesson can open.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
pub enum CompareSpec {
    /// Legacy (3.1) against the series up to this patch.
    #[serde(deserialize_with = "ranges::compared_patches")]
    Legacy(u8),
    /// Linux 2.6.38 against the series up to this patch.
    #[serde(deserialize_with = "ranges::compared_patches")]
    Linux2638(u8),
    /// Patch N-1 against patch N.
    #[serde(deserialize_with = "ranges::compared_patches")]
    Patch(u8),
    /// The scenario's dirty_ratio against this one.
    #[serde(deserialize_with = "ranges::compared_ratio")]
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
    #[serde(deserialize_with = "ranges::name")]
    pub label: String,
    /// What is measured.
    pub metric: Metric,
    /// Over the last this long, up to the end of the step's `run_s`, when
    /// the check is judged \[s\]: by default 10 s or `run_s`, the shorter.
    /// A window only reaches back to the step's start, so one written
    /// longer than `run_s` is refused for a metric that reads a window.
    #[serde(default = "default_window_s", deserialize_with = "ranges::window_s")]
    pub window_s: f64,
    /// The bdi (default: the selected one).
    #[serde(default)]
    pub bdi: Option<String>,
    /// Which world.
    #[serde(default)]
    pub side: SideSpec,
    /// Lowest acceptable value.
    #[serde(default, deserialize_with = "ranges::opt_bound")]
    pub min: Option<f64>,
    /// Highest acceptable value.
    #[serde(default, deserialize_with = "ranges::opt_bound")]
    pub max: Option<f64>,
}

/// A window not written: [`Lesson::from_ron`] makes it 10 s, or the
/// step's `run_s` where that is shorter. A written one is a number.
fn default_window_s() -> f64 {
    f64::NAN
}

/// The window of a check or question that does not write one, where its
/// step runs longer \[s\].
const DEFAULT_WINDOW_S: f64 = 10.0;

/// A question the student answers with a number.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Question {
    /// The question.
    #[serde(deserialize_with = "ranges::text")]
    pub ask: String,
    /// The quantity that answers it, measured when the student answers.
    pub metric: Metric,
    /// Over the last this long as the step ends \[s\]: by default 10 s or
    /// `run_s`, the shorter; one written longer than `run_s` is refused
    /// for a metric that reads a window, as a check's is.
    #[serde(default = "default_window_s", deserialize_with = "ranges::window_s")]
    pub window_s: f64,
    /// The bdi (default: the selected one).
    #[serde(default)]
    pub bdi: Option<String>,
    /// Which world.
    #[serde(default)]
    pub side: SideSpec,
    /// Relative error counted as right (0.1 = within 10%).
    #[serde(default = "default_tolerance", deserialize_with = "ranges::tolerance")]
    pub tolerance: f64,
}

fn default_tolerance() -> f64 {
    0.1
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
    ("16-your-own-machine.ron", include_str!("../../lessons/16-your-own-machine.ron")),
];

/// Line and column (1-based, in characters) of `needle` in `text`: where
/// it is first written as the string value of `field` (`field: "needle"`,
/// or `field: Some("needle")`), else where it first appears as a string,
/// else where it first appears at all; 1:1 when it does not.
fn locate(text: &str, field: &str, needle: &str) -> (usize, usize) {
    find(text, field, needle).map_or((1, 1), |at| line_col(text, at))
}

/// The step (from 1) whose text holds `line`:`col`: the last that starts
/// before it; `None` before the first, after the end of the steps' list
/// (a field of the lesson written after it), or where the text cannot be
/// read.
fn step_at(text: &str, line: usize, col: usize) -> Option<usize> {
    use crate::scenario::locate::{FieldPath, Seg, written, written_end};
    let n = (0..)
        .map_while(|i| written(text, &FieldPath(vec![Seg::Field("steps"), Seg::Index(i)])))
        .take_while(|&start| start <= (line, col))
        .count();
    let past_list = written_end(text, &FieldPath::field("steps")).is_some_and(|end| end <= (line, col));
    (n > 0 && !past_list).then_some(n)
}

/// Byte offset of `needle` in `text`, found as [`locate`] says.
fn find(text: &str, field: &str, needle: &str) -> Option<usize> {
    let quoted = format!("\"{needle}\"");
    let is_field = |at: usize| {
        let before = text[..at].trim_end();
        let before = before.strip_suffix("Some(").map_or(before, str::trim_end);
        before
            .strip_suffix(':')
            .map(str::trim_end)
            .and_then(|b| b.strip_suffix(field))
            .is_some_and(|b| !field.is_empty() && !b.ends_with(|c: char| c.is_alphanumeric() || c == '_'))
    };
    text.match_indices(&quoted)
        .map(|(i, _)| i)
        .find(|&i| is_field(i))
        .or_else(|| text.find(&quoted))
        .or_else(|| text.find(needle))
}

/// Line and column (1-based, in characters) of the `window_s` written in
/// the file's `k`-th check (from 0, in step order); `None` when that check
/// leaves it at its default.
fn locate_window(text: &str, k: usize) -> Option<(usize, usize)> {
    window_of(text, "Check", k)
}

/// Where the file's `k`-th question writes its `window_s`, if it does.
fn locate_question_window(text: &str, k: usize) -> Option<(usize, usize)> {
    window_of(text, "Question", k)
}

/// Where the `k`-th `item(...)` of `text` (`Check`, `Question`) writes its
/// `window_s` field, if it does: found within that item's parentheses, by
/// the tokens outside strings and comments, so that neither another
/// item's field nor a label's words are taken for it.
fn window_of(text: &str, item: &str, k: usize) -> Option<(usize, usize)> {
    let tokens = ron_tokens(text);
    let start = item_starts(&tokens, item).nth(k)?;
    let mut depth = 0;
    for (j, &(at, t)) in tokens.iter().enumerate().skip(start + 1) {
        match t {
            "(" | "[" => depth += 1,
            ")" | "]" => {
                depth -= 1;
                if depth == 0 {
                    return None;
                }
            }
            "window_s" if depth == 1 && tokens.get(j + 1).is_some_and(|t| t.1 == ":") => {
                return Some(line_col(text, at));
            }
            _ => {}
        }
    }
    None
}

/// Where each `item(` of `tokens` starts, by index.
fn item_starts<'a>(tokens: &'a [(usize, &str)], item: &'a str) -> impl Iterator<Item = usize> + 'a {
    (0..tokens.len()).filter(move |&i| tokens[i].1 == item && tokens.get(i + 1).is_some_and(|t| t.1 == "("))
}

/// How many `item(...)` `text` writes by name.
fn items_named(text: &str, item: &str) -> usize {
    item_starts(&ron_tokens(text), item).count()
}

/// The tokens of RON `text` that matter to [`window_of`], with their byte
/// offsets: names, brackets and colons; strings, comments and numbers are
/// skipped.
fn ron_tokens(text: &str) -> Vec<(usize, &str)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            // Block comments nest in RON.
            b'/' if b.get(i + 1) == Some(&b'*') => i += crate::scenario::locate::block_comment_len(&b[i..]),
            // A raw string, `r"..."` or `r#"..."#`: no escapes in it.
            b'r' if matches!(b.get(i + 1), Some(b'"' | b'#')) => {
                let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
                let open = i + 1 + hashes;
                if b.get(open) != Some(&b'"') {
                    i += 1;
                    continue;
                }
                let close = format!("\"{}", "#".repeat(hashes));
                i = text[open + 1..].find(&close).map_or(b.len(), |e| open + 1 + e + close.len());
            }
            b'(' | b')' | b'[' | b']' | b':' => {
                out.push((i, &text[i..i + 1]));
                i += 1;
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                out.push((start, &text[start..i]));
            }
            _ => i += 1,
        }
    }
    out
}

/// Where step `step` (0-based) of lesson file `text` writes `field`, as
/// messages give a place: `origin:line:col`, or `origin` where it cannot
/// be found.
pub fn step_place(text: &str, origin: &str, step: usize, field: &'static str) -> String {
    let path = crate::scenario::locate::FieldPath::element("steps", step, Some(field));
    match crate::scenario::locate::locate(text, &path) {
        Some((l, c)) => format!("{origin}:{l}:{c}"),
        None => origin.to_string(),
    }
}

impl Lesson {
    /// Parses and checks a lesson; errors read `origin:line:col: ...`.
    pub fn from_ron(text: &str, origin: &str) -> Result<Lesson> {
        let text = crate::input::without_bom(text);
        crate::scenario::locate::refuse_unclosed_comment(text, origin)?;
        if crate::scenario::locate::after_comments(text).is_empty() {
            return Err(Error::invalid(format!(
                "{origin}: empty: a lesson file holds one `Lesson(...)`, as the shipped ones in lessons/ do"
            )));
        }
        let mut lesson: Lesson = ron_options().from_str(text).map_err(|e| {
            let (line, col, what) = crate::scenario::ron_error_at(text, &e);
            // In a step, the step says where too, as the checks made
            // after reading say it.
            let step = step_at(text, line, col).filter(|_| !what.starts_with("step "));
            let step = step.map(|n| format!("step {n}: ")).unwrap_or_default();
            Error::invalid(format!("{origin}:{line}:{col}: {step}{what}"))
        })?;
        lesson.fit_default_windows();
        lesson.validate(text, origin)?;
        Ok(lesson)
    }

    /// Cuts the window of each check and question that does not write
    /// `window_s` to its step's `run_s`: the default window is 10 s or
    /// `run_s`, the shorter (a window written longer than `run_s` is
    /// refused).
    fn fit_default_windows(&mut self) {
        for step in &mut self.steps {
            let default = DEFAULT_WINDOW_S.min(step.run_s);
            for w in step
                .checks
                .iter_mut()
                .map(|c| &mut c.window_s)
                .chain(step.questions.iter_mut().map(|q| &mut q.window_s))
            {
                if w.is_nan() {
                    *w = default;
                }
            }
        }
    }

    /// Reads a lesson file (a regular file of at most 16 MiB).
    pub fn load(path: &std::path::Path) -> Result<Lesson> {
        let text = crate::input::read_text(path, "lesson", crate::input::MAX_RON_BYTES)?;
        let mut lesson = Lesson::from_ron(&text, &path.display().to_string())?;
        // A lesson of the user's keeps its progress under its file: two
        // files with one id (a copy of a shipped lesson, changed, or two
        // lessons a teacher numbered alike) must not overwrite each
        // other's. An unchanged copy of a shipped lesson is that lesson.
        let shipped = SHIPPED.iter().find(|(file, _)| file[..2] == lesson.id);
        if !shipped.is_some_and(|(file, text)| Lesson::from_ron(text, file).ok().as_ref() == Some(&lesson)) {
            let place = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
            lesson.progress_key = Some(format!("{} {}", lesson.id, place.display()));
        }
        Ok(lesson)
    }

    /// What the user's progress in this lesson is kept under: a shipped
    /// lesson's (or an unchanged copy's) id, or for a lesson file of the
    /// user's, the id and the file's path.
    pub fn progress_id(&self) -> &str {
        self.progress_key.as_deref().unwrap_or(&self.id)
    }

    /// The shipped lesson file called `name`: its id ("03", or "3" as a
    /// class is told it), its file name, or its file name without `.ron`.
    pub fn shipped_file(name: &str) -> Option<(&'static str, &'static str)> {
        let number = name.bytes().all(|b| b.is_ascii_digit()).then(|| name.parse::<u32>().ok()).flatten();
        SHIPPED.iter().copied().find(|(file, _)| {
            name == &file[..2]
                || name == *file
                || name == file.trim_end_matches(".ron")
                || number.is_some_and(|n| file[..2].parse() == Ok(n))
        })
    }

    /// A shipped lesson by id ("03") or file name, or a lesson file by path.
    pub fn resolve(id_or_path: &str) -> Result<Lesson> {
        if let Some((file, text)) = Lesson::shipped_file(id_or_path) {
            return Lesson::from_ron(text, &format!("lessons/{file}"));
        }
        let path = std::path::Path::new(id_or_path);
        // A link that leads nowhere is a file given: its reason is told.
        if std::fs::symlink_metadata(path).is_ok() {
            return Lesson::load(path);
        }
        let ids: Vec<&str> = SHIPPED.iter().map(|(f, _)| &f[..2]).collect();
        Err(Error::invalid(format!(
            "unknown lesson `{id_or_path}`: not a file and not a lesson id ({}){}",
            ids.join(", "),
            crate::error::did_you_mean(id_or_path, ids.iter().copied())
        )))
    }

    /// Every shipped lesson, parsed.
    pub fn shipped() -> Vec<Result<Lesson>> {
        SHIPPED.iter().map(|(file, text)| Lesson::from_ron(text, &format!("lessons/{file}"))).collect()
    }

    /// Every shipped lesson, or the first that does not parse.
    pub fn all_shipped() -> Result<Vec<Lesson>> {
        Lesson::shipped().into_iter().collect()
    }

    /// The lesson run with `seed` instead of its own, when given
    /// (`dirtyviz check --seed`).
    pub fn with_seed(self, seed: Option<u64>) -> Lesson {
        Lesson { seed: seed.or(self.seed), ..self }
    }

    /// The scenario the lesson runs, with its overrides.
    pub fn scenario(&self) -> Result<Scenario> {
        let mut s = match &self.scenario {
            ScenarioRef::Preset(name) => presets::get(name).ok_or_else(|| {
                // A lesson carries its world: one file for a class to share.
                let stem = name.strip_suffix(".ron").unwrap_or(name);
                let file = (name.ends_with(".ron") || name.contains('/')) && presets::get(stem).is_none();
                Error::invalid(format!(
                    "unknown preset `{name}`, expected one of {}{}",
                    presets::names().join(", "),
                    if file {
                        "; a lesson names no scenario file: write the scenario into it, \
                         `scenario: Inline(Scenario(...))`"
                            .to_string()
                    } else {
                        crate::error::did_you_mean(stem, presets::names().iter().copied())
                    }
                ))
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
    fn validate(&self, text: &str, origin: &str) -> Result<()> {
        let at = |(field, needle): (&str, &str), what: String| {
            let (l, c) = locate(text, field, needle);
            Err(Error::invalid(format!("{origin}:{l}:{c}: {what}")))
        };
        let scenario = match self.scenario() {
            Ok(s) => s,
            Err(e) => {
                let needle = match &self.scenario {
                    ScenarioRef::Preset(n) | ScenarioRef::Case(n) => n.clone(),
                    ScenarioRef::Inline(_) => "Inline".into(),
                };
                return at(("", &needle), e.to_string());
            }
        };
        let world = match scenario.world() {
            Ok(w) => w,
            // A scenario written in the lesson is told at its field.
            Err(p) if matches!(self.scenario, ScenarioRef::Inline(_)) => {
                return Err(p.told_in(origin, text, &[crate::scenario::locate::Seg::Field("scenario")]));
            }
            Err(p) => return at(("", "scenario"), p.error.context(scenario.origin()).to_string()),
        };
        let names: Vec<String> = world.devices.iter().map(|d| d.name.clone()).collect();
        let bdi_ok = |b: &str| b == "*" || names.iter().any(|n| n == b);
        let name_list = || names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ");
        // The id names the lesson where it is listed and keys its progress.
        if self.id.trim().is_empty() {
            return at(("id", &self.id), "the lesson's id is empty (the shipped ones are `00` to `16`)".into());
        }
        if self.title.trim().is_empty() {
            return at(("title", &self.title), "the lesson's title is empty".into());
        }
        if self.summary.trim().is_empty() {
            return at(("summary", &self.summary), "the lesson's summary is empty".into());
        }
        if self.steps.is_empty() {
            return at(("", "steps"), "a lesson needs at least one step".into());
        }
        // Numbers were range-checked as they were read (scenario::ranges).
        // A comparison opened by a step stays open until Compare(Off).
        let mut comparing = false;
        // The scenario fresh worlds start from, as `Reconfigure` leaves
        // it, and the dirty ratio an open comparison of ratios sets B to.
        let mut base = scenario.clone();
        let mut ratio_compared: Option<(u64, usize)> = None;
        // The bdi a check without `bdi` reads: the first, until SelectBdi.
        let mut selected = names.first().cloned().unwrap_or_default();
        // Where every check (question) is written `Check(...)`, the k-th
        // of the file is the k-th of the text; `(label: ...)` leaves its
        // name out, and then a window is told at its check's label.
        let count = |f: fn(&Step) -> usize| self.steps.iter().map(f).sum::<usize>();
        let named_checks = items_named(text, "Check") == count(|s| s.checks.len());
        let named_questions = items_named(text, "Question") == count(|s| s.questions.len());
        // The file's checks and questions before this step's, to find
        // theirs in the text.
        let (mut checks_before, mut questions_before) = (0, 0);
        for (i, step) in self.steps.iter().enumerate() {
            let n = i + 1;
            if i > 0 {
                checks_before += self.steps[i - 1].checks.len();
                questions_before += self.steps[i - 1].questions.len();
            }
            if step.title.trim().is_empty() {
                return at(("title", &step.title), format!("step {n}: the title is empty"));
            }
            // Told at the step's own field: another step's may be empty too.
            let field_of_step =
                |field, what: String| Err(Error::invalid(format!("{}: {what}", step_place(text, origin, i, field))));
            if step.text.trim().is_empty() {
                return field_of_step("text", format!("step {n}: the text is empty"));
            }
            if step.hint.as_ref().is_some_and(|h| h.trim().is_empty()) {
                return field_of_step("hint", format!("step {n}: the hint is empty (leave `hint` out for none)"));
            }
            // A setting the step changed before an action that starts
            // fresh worlds from the scenario would be undone by it.
            let mut setting: Option<&str> = None;
            for (j, a) in step.actions.iter().enumerate() {
                // Told at the action itself (its name may be written in
                // an earlier step, or in a text).
                let action = |field: Option<&'static str>, what: String| {
                    use crate::scenario::locate::{FieldPath, Seg};
                    let mut path = vec![Seg::Field("steps"), Seg::Index(i), Seg::Field("actions"), Seg::Index(j)];
                    path.extend(field.map(Seg::Field));
                    let (l, c) = crate::scenario::locate::locate(text, &FieldPath(path)).unwrap_or((1, 1));
                    Err(Error::invalid(format!("{origin}:{l}:{c}: {what}")))
                };
                if let (Some(undone), Some(fresh)) = (setting, a.fresh_worlds()) {
                    return action(
                        None,
                        format!(
                            "step {n}: `{fresh}` starts fresh worlds from the scenario, undoing the `{undone}` \
                             before it: put `{undone}` after it"
                        ),
                    );
                }
                setting = a.setting().or(setting);
                match a {
                    Action::Compare(CompareSpec::Off) => comparing = false,
                    Action::Compare(_) | Action::CompareWith { .. } => comparing = true,
                    _ => {}
                }
                match a {
                    Action::Compare(CompareSpec::DirtyRatio(r)) => ratio_compared = Some((*r, n)),
                    Action::Compare(_) | Action::CompareWith { .. } => ratio_compared = None,
                    Action::SelectBdi(bdi) => selected = bdi.clone(),
                    _ => {}
                }
                match a {
                    Action::AddDd { bdi, .. } | Action::RemoveDd { bdi, .. } if !bdi_ok(bdi) => {
                        let what = format!("step {n}: unknown bdi `{bdi}`, expected `*` or one of {}", name_list());
                        return action(Some("bdi"), what);
                    }
                    // Charts 2 to 5 show one bdi: `*` names none.
                    Action::SelectBdi(bdi) if bdi == "*" || !bdi_ok(bdi) => {
                        let what =
                            format!("step {n}: SelectBdi needs one bdi, one of {}; `{bdi}` is none", name_list());
                        return action(None, what);
                    }
                    _ => {}
                }
                if let Action::CompareWith { changes, .. } = a
                    && *changes == Overrides::default()
                {
                    let what = format!(
                        "step {n}: CompareWith has no changes: both worlds would be the same; name what \
                         differs on the right, e.g. `changes: (dirty_ratio: 40)`"
                    );
                    return action(Some("changes"), what);
                }
                if let Action::Reconfigure(changes) = a {
                    base.apply(changes);
                }
                // A comparison of dirty ratios whose scenario (as a
                // Reconfigure, also one while it is open, leaves it) has the
                // ratio compared: both sides would be one world. So would
                // a ratio or bytes set on both sides while it is open.
                if let Some((r, since)) = ratio_compared {
                    let other = if r == 10 { 20 } else { 10 };
                    let one_world =
                        base.to_world().is_ok_and(|cfg| crate::session::Compare::DirtyRatio(r).sides(&cfg).is_err());
                    let what = match a {
                        Action::Compare(_) if one_world => Some(format!(
                            "step {n}: `Compare(DirtyRatio({r}))` with the scenario's dirty_ratio at {r}: both \
                             sides would be the same world; compare with another ratio, or set the scenario's to \
                             another first (`Reconfigure((dirty_ratio: {other}))`)"
                        )),
                        Action::Reconfigure(_) if one_world => Some(format!(
                            "step {n}: this `Reconfigure` sets the scenario's dirty_ratio to {r}, the ratio the \
                             comparison open since step {since} (`Compare(DirtyRatio({r}))`) gives its right side: \
                             both sides would be the same world; close it first (`Compare(Off)`)"
                        )),
                        Action::DirtyRatio(_) | Action::DirtyBytesMb(_) => Some(format!(
                            "step {n}: `{}` sets both sides alike, and the comparison open since step {since} \
                             compares dirty ratios: both would be the same world; set it on the right alone \
                             with `Compare(DirtyRatio(..))`, or close the comparison first (`Compare(Off)`)",
                            a.setting().unwrap_or("DirtyRatio")
                        )),
                        _ => None,
                    };
                    if let Some(what) = what {
                        return action(None, what);
                    }
                }
                // Changes that are the world's own settings compare it with
                // itself (as the session refuses them).
                if let Action::CompareWith { changes, .. } = a {
                    let mut other = base.clone();
                    other.apply(changes);
                    if let (Ok(left), Ok(right)) = (base.to_world(), other.to_world())
                        && left == right
                    {
                        let what = format!(
                            "step {n}: CompareWith's changes are the world's own settings: both sides would be \
                             the same world; name what differs on the right"
                        );
                        return action(Some("changes"), what);
                    }
                }
                if let Action::CompareWith { changes, .. } | Action::Reconfigure(changes) = a {
                    if let Some(field) = scenario.nfs_patch_without_nfs(changes) {
                        let what = format!("step {n}: `{field}` changes nothing: this world has no NFS mount");
                        return action(None, what);
                    }
                    let mut changed = scenario.clone();
                    changed.apply(changes);
                    if let Err(e) = changed.to_world() {
                        return action(None, format!("step {n}: the changed world cannot be built: {e}"));
                    }
                }
            }
            let bdis = step.checks.iter().map(|c| &c.bdi).chain(step.questions.iter().map(|q| &q.bdi));
            for bdi in bdis {
                if let Some(b) = bdi
                    && !names.iter().any(|x| x == b)
                {
                    return at(("bdi", b), format!("step {n}: unknown bdi `{b}`, expected one of {}", name_list()));
                }
            }
            // A pipeline's metric on a bdi no pipeline writes to reads
            // nothing.
            let piped = |bdi: &str| {
                scenario
                    .tasks
                    .iter()
                    .any(|t| matches!(t, crate::scenario::TaskSpec::Pipeline(p) if p.n > 0 && (p.bdi == "*" || p.bdi == bdi)))
            };
            let metrics = step.checks.iter().map(|c| (c.metric, &c.bdi));
            for (metric, bdi) in metrics.chain(step.questions.iter().map(|q| (q.metric, &q.bdi))) {
                let bdi = bdi.as_deref().unwrap_or(&selected);
                if matches!(metric, Metric::PipelineMbps | Metric::NetStallPct) && !piped(bdi) {
                    let name = format!("{metric:?}");
                    let what = format!(
                        "step {n}: `{name}` measures the pipelines on bdi {bdi} (a copy fed over a network \
                         link), and no task of the scenario is one: add one, e.g. `Pipeline(bdi: \"{bdi}\")`, \
                         or read another bdi (`bdi: ...`)"
                    );
                    return at(("metric", &name), what);
                }
            }
            let texts = [Some(("text", &step.text)), step.hint.as_ref().map(|h| ("hint", h))];
            let asks = step.questions.iter().map(|q| Some(("ask", &q.ask)));
            for (field, said) in texts.into_iter().chain(asks).flatten() {
                if let Some((chart, number)) = Views::unknown_chart(said) {
                    let what = format!("step {n}: `{chart}`: there is no chart {number}, the charts are 1 to 5");
                    return at((field, chart), what);
                }
            }
            let one_world = |side: SideSpec| !comparing && side != SideSpec::A;
            // A window only reaches back to the step's start.
            let too_long = |what: &str, name: &str, window_s: f64, (l, col): (usize, usize)| {
                Error::invalid(format!(
                    "{origin}:{l}:{col}: step {n}: {what} `{name}`: its window_s {window_s} s is longer than the \
                     step's run_s {} s, and a {what} measures its own step only",
                    step.run_s
                ))
            };
            for (j, q) in step.questions.iter().enumerate() {
                if q.ask.trim().is_empty() {
                    return at(("ask", &q.ask), format!("step {n}: a question's ask is empty"));
                }
                if one_world(q.side) {
                    return at(
                        ("ask", &q.ask),
                        format!(
                            "step {n}: question `{}` reads side {:?}, but this step shows one world: open a \
                             comparison first (Compare(...) or CompareWith(...))",
                            q.ask, q.side
                        ),
                    );
                }
                // Answered over its window as the step ends, as a check is
                // judged: a longer one would measure the step's run_s alone.
                if q.metric.windowed() && q.window_s > step.run_s {
                    let place = named_questions.then(|| locate_question_window(text, questions_before + j)).flatten();
                    let place = place.unwrap_or_else(|| locate(text, "ask", &q.ask));
                    return Err(too_long("question", &q.ask, q.window_s, place));
                }
            }
            for (j, c) in step.checks.iter().enumerate() {
                if c.label.trim().is_empty() {
                    return at(("label", &c.label), format!("step {n}: a check's label is empty"));
                }
                if one_world(c.side) {
                    return at(
                        ("label", &c.label),
                        format!(
                            "step {n}: check `{}` reads side {:?}, but this step shows one world: open a \
                             comparison first (Compare(...) or CompareWith(...))",
                            c.label, c.side
                        ),
                    );
                }
                if c.min.is_none() && c.max.is_none() {
                    return at(("label", &c.label), format!("step {n}: check `{}` needs min or max", c.label));
                }
                if let (Some(lo), Some(hi)) = (c.min, c.max)
                    && lo > hi
                {
                    return at(("label", &c.label), format!("step {n}: check `{}` has min above max", c.label));
                }
                // A window is cut at the step's start, and the check is
                // judged when `run_s` is over: a longer one would measure
                // the step's run_s alone, not what it says.
                if c.metric.windowed() && c.window_s > step.run_s {
                    let place = named_checks.then(|| locate_window(text, checks_before + j)).flatten();
                    let place = place.unwrap_or_else(|| locate(text, "label", &c.label));
                    return Err(too_long("check", &c.label, c.window_s, place));
                }
            }
        }
        Ok(())
    }
}

/// What a step's text, hint and questions name on the screen: charts by
/// number, the task table, the parameter panel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Views {
    /// Charts 1-5 (index 0 is chart 1).
    pub charts: [bool; 5],
    /// Charts named in passing, for one value (`chart 3's title`): shown
    /// where there is room after those of [`Views::charts`].
    pub asides: [bool; 5],
    /// Charts a question of the step names, in full or in passing: where
    /// one chart fits, one of these after the one zoomed (lesson 01's
    /// first step asks of chart 5's title, and named chart 1 too: 80x24
    /// showed chart 1).
    pub asked: [bool; 5],
    /// A question of the step names the task table: where one panel fits,
    /// it goes before a chart the step names but asks nothing of (lesson
    /// 02 asks of the key's dd in the table, its text of chart 4).
    pub tasks_asked: bool,
    /// The task table (or its columns).
    pub tasks: bool,
    /// The parameter panel.
    pub params: bool,
}

impl Views {
    /// Reads what `text` names: `chart 2`, `charts 1, 4 and 5`, `the task
    /// table`, `the pause column`, `the parameter panel`.
    pub fn named_in(text: &str) -> Views {
        let lower = text.to_lowercase();
        let mut v = Views {
            tasks: lower.contains("task table") || lower.contains("pause column"),
            params: lower.contains("parameter panel"),
            ..Views::default()
        };
        for (at, _) in lower.match_indices("chart") {
            let rest = lower[at + 5..].strip_prefix('s').unwrap_or(&lower[at + 5..]);
            let mut words = rest.split([' ', ',', '/', '(', ')', ':', '.', ';']).filter(|w| !w.is_empty());
            while let Some(word) = words.next() {
                // `chart 3's title` names chart 3 in passing, for what it
                // draws (it went unseen, and the screens check missed it);
                // `in chart 4's place` and `chart 5's task table` do not.
                let (word, owner) = match word.strip_suffix("'s").or_else(|| word.strip_suffix("’s")) {
                    Some(w) => (w, true),
                    None => (word, false),
                };
                match word.parse::<usize>() {
                    Ok(n @ 1..=5) if owner => {
                        let mut after = words.clone();
                        let away =
                            matches!((after.next(), after.next()), (Some("place"), _) | (Some("task"), Some("table")));
                        v.asides[n - 1] |= !away;
                        break;
                    }
                    Ok(n @ 1..=5) => v.charts[n - 1] = true,
                    _ if word == "and" || word == "or" => {}
                    _ => break,
                }
            }
        }
        v
    }

    /// The first chart `text` names that the dashboard lacks, as written
    /// up to it (`Chart 7`, `charts 2 and 6`), and its number. A list
    /// goes on over `,`, `/`, `and` and `or`; a number of three digits or
    /// more is no chart's (`chart 2, 377 pages`).
    pub fn unknown_chart(text: &str) -> Option<(&str, usize)> {
        let lower = text.to_ascii_lowercase();
        let separator = |c: char| [' ', ',', '/', '(', ')', ':', '.', ';'].contains(&c);
        lower.match_indices("chart").find_map(|(at, _)| {
            let mut i = at + 5 + usize::from(lower[at + 5..].starts_with('s'));
            lower[i..].strip_prefix(' ')?;
            loop {
                // A list goes on over blanks, commas and slashes only.
                let gap = lower[i..].find(|c: char| !separator(c))?;
                if lower[i..i + gap].contains([';', '.', ':', '(', ')']) {
                    return None;
                }
                i += gap;
                let end = i + lower[i..].find(separator).unwrap_or(lower.len() - i);
                let word = &lower[i..end];
                match word.parse::<usize>() {
                    Ok(n) if word.len() <= 2 && !(1..=5).contains(&n) => return Some((&text[at..end], n)),
                    Ok(_) if word.len() <= 2 => {}
                    _ if word == "and" || word == "or" => {}
                    _ => return None,
                }
                i = end;
            }
        })
    }

    /// Both sets.
    pub fn union(self, other: Views) -> Views {
        let either = |a: [bool; 5], b: [bool; 5]| std::array::from_fn(|i| a[i] || b[i]);
        Views {
            charts: either(self.charts, other.charts),
            asides: either(self.asides, other.asides),
            asked: either(self.asked, other.asked),
            tasks_asked: self.tasks_asked || other.tasks_asked,
            tasks: self.tasks || other.tasks,
            params: self.params || other.params,
        }
    }

    /// Whether chart `n` (1-5) is named, in full or in passing.
    pub fn names_chart(&self, n: u8) -> bool {
        let i = usize::from(n) - 1;
        self.charts[i] || self.asides[i]
    }

    /// The charts named (1-5): those named in full, then those named only
    /// in passing, each in number order.
    pub fn named_charts(&self) -> impl Iterator<Item = u8> + '_ {
        let full = |n: &u8| self.charts[usize::from(*n) - 1];
        (1..=5u8).filter(full).chain((1..=5u8).filter(move |n| !full(n) && self.names_chart(*n)))
    }
}

impl Step {
    /// What the step's text, hint and questions name on the screen.
    pub fn views(&self) -> Views {
        let mut v = Views::named_in(&self.text);
        if let Some(h) = &self.hint {
            v = v.union(Views::named_in(h));
        }
        for q in &self.questions {
            let asked = Views::named_in(&q.ask);
            let charts = std::array::from_fn(|i| asked.charts[i] || asked.asides[i]);
            v = v.union(Views { asked: charts, tasks_asked: asked.tasks, ..asked });
        }
        v
    }
}

/// The unit a value measured on `side` is shown in: a ratio of the two
/// sides has none but `×`.
fn unit_on(metric: Metric, side: SideSpec) -> &'static str {
    match side {
        SideSpec::AOverB | SideSpec::BOverA => "×",
        SideSpec::A | SideSpec::B => metric.unit(),
    }
}

impl Question {
    /// The unit its answer is shown in.
    pub fn unit(&self) -> &'static str {
        unit_on(self.metric, self.side)
    }
}

impl Check {
    /// How long what it [`Check::reads`] lasts in a step of `run_s`
    /// seconds \[s\]: 0 for an instant, `run_s` for the whole step.
    pub fn span_s(&self, run_s: f64) -> f64 {
        match self.reads(run_s).as_str() {
            "now" => 0.0,
            "whole step" => run_s,
            _ => self.window_s.min(run_s),
        }
    }

    /// What the check reads in a step of `run_s` seconds, as the pane and
    /// `check` say it: `last 10 s`, `whole step` (its window is the
    /// step's, or it counts from the step's start), `now` (an instant).
    pub fn reads(&self, run_s: f64) -> String {
        use Metric::*;
        let window = self.window_s.min(run_s);
        match self.metric {
            Tasks | NrDirtiedPause | RatelimitPages => "now".to_string(),
            m if !m.windowed() || window + 1e-9 >= run_s => "whole step".to_string(),
            _ => format!("last {}\u{a0}s", crate::units::trimmed(window, 1)),
        }
    }

    /// The unit its value is shown in.
    pub fn unit(&self) -> &'static str {
        unit_on(self.metric, self.side)
    }

    /// True when `value` lies within the bounds. A ratio over a side that
    /// measured 0 is infinite: above any `min`, beyond any `max`; 0/0 is
    /// nothing and passes nothing.
    pub fn passes(&self, value: f64) -> bool {
        !value.is_nan() && self.min.is_none_or(|lo| value >= lo) && self.max.is_none_or(|hi| value <= hi)
    }

    /// Its value `v` and its bounds, in one unit: a size in the unit the
    /// largest of them reads in by the rule of [`crate::units::size`]
    /// (`12.5 GiB`, `9.77..14.6 GiB`), else the check's own (`90.4 MiB/s`,
    /// `85..95`; `0.953`, `0.94..1.06`), as the lesson pane and `check -v`
    /// write them.
    pub fn judged(&self, v: f64) -> (String, String) {
        if let Some(words) = self.past_limit(v) {
            return words;
        }
        let unit = SizeUnit::of_largest([Some(v), self.min, self.max].into_iter().flatten());
        if self.unit() != "MiB" || unit == SizeUnit::MIB || !v.is_finite() {
            return (self.shown_apart(v), self.bounds());
        }
        // With their unit: the file gives them in MiB (`>= 97.7` read as
        // the 100000 written there, beside `0.609 GiB`).
        let bounds = match (self.min, self.max) {
            (Some(lo), Some(hi)) => format!("{}..{}", unit.number(lo), unit.size(hi)),
            (Some(lo), None) => format!(">= {}", unit.size(lo)),
            (None, Some(hi)) => format!("<= {}", unit.size(hi)),
            (None, None) => String::new(),
        };
        (unit.size(v), bounds)
    }

    /// `v` with its unit, and where it fails the check but would read as
    /// the bound it misses, with the digits that tell them apart: `84.98
    /// MiB/s not in >= 85`, where it read `85.0 MiB/s`.
    fn shown_apart(&self, v: f64) -> String {
        let (plain, shown) = (check::show(v), check::show_value(v, self.unit()));
        let missed = match (self.min, self.max) {
            (Some(lo), _) if v < lo => lo,
            (_, Some(hi)) if v > hi => hi,
            _ => return shown,
        };
        let reads_as_bound = |text: &str| text.parse::<f64>().is_ok_and(|x| x == missed);
        if !reads_as_bound(&plain) {
            return shown;
        }
        let digits = plain.split_once('.').map_or(0, |(_, d)| d.len());
        match (digits + 1..=9).map(|d| format!("{v:.d$}")).find(|text| !reads_as_bound(text)) {
            Some(text) => shown.replacen(&plain, &text, 1),
            None => shown,
        }
    }

    /// A check of how far the dirty pages went past the limit, in words:
    /// its value and bounds are a signed distance from the limit, which
    /// read as `-49.5 MiB (<= 0)`. Now `peak 49.5 MiB under the limit (may
    /// not pass it)`; a share of thresh as a percentage of it (`peak 1.2%
    /// of thresh over the limit (may pass it by thresh/32)`).
    /// `None` for every other check, and a ratio of the two sides.
    fn past_limit(&self, v: f64) -> Option<(String, String)> {
        let measured = matches!(self.metric, Metric::OverLimitMb | Metric::OverLimitToThresh);
        if !measured || !matches!(self.side, SideSpec::A | SideSpec::B) || !v.is_finite() {
            return None;
        }
        let unit = SizeUnit::of_largest([Some(v), self.min, self.max].into_iter().flatten());
        let amount = |x: f64| match self.metric {
            Metric::OverLimitMb => unit.size(x.abs()),
            // A bound written as a fraction reads as one (`thresh/32`).
            Metric::OverLimitToThresh => match 1.0 / x.abs() {
                n if n.fract() == 0.0 && n <= 1024.0 => format!("thresh/{n:.0}"),
                _ => format!("{}% of thresh", check::show(x.abs() * 100.0)),
            },
            _ => String::new(),
        };
        let off = |x: f64| match x {
            x if x < 0.0 => format!("{} under", amount(x)),
            x if x > 0.0 => format!("{} over", amount(x)),
            _ => "at".to_string(),
        };
        let value = format!("peak {} the limit", off(v));
        let bounds = match (self.min, self.max) {
            (None, Some(0.0)) => "may not pass it".to_string(),
            (None, Some(hi)) if hi > 0.0 => format!("may pass it by {}", amount(hi)),
            (None, Some(hi)) => format!("must stay {} under it", amount(hi)),
            (Some(lo), None) => format!("must reach {} it", off(lo)),
            (Some(lo), Some(hi)) => format!("must be {} to {} it", off(lo), off(hi)),
            (None, None) => String::new(),
        };
        Some((value, bounds))
    }

    /// The bounds, for display: "0.95..1.05", ">= 5", "<= 200".
    pub fn bounds(&self) -> String {
        // As written (`16.5`, `0.94`), or to three decimals at most.
        let f = |v: f64| match format!("{v}") {
            _ if v.abs() >= 100.0 || v == v.trunc() => format!("{v:.0}"),
            written if written.len() <= 5 => written,
            _ => format!("{v:.3}").trim_end_matches('0').to_string(),
        };
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
    use crate::scratch::Scratch;

    #[test]
    fn an_empty_lesson_is_told_empty() {
        let e = Lesson::from_ron("\u{feff}\n  \n", "l.ron").expect_err("empty").to_string();
        assert_eq!(e, "l.ron: empty: a lesson file holds one `Lesson(...)`, as the shipped ones in lessons/ do");
    }

    #[test]
    fn a_mistake_after_the_steps_names_no_step() {
        let text = |summary: &str| {
            format!(
                "Lesson(\n    id: \"17\",\n    patch: \"p\",\n    steps: [\n        Step(title: \"a\", text: \"b\", \
                 run_s: 1, bogus: 2),\n        Step(title: \"a\", text: \"b\", run_s: 1),\n    ],\n    {summary}\n)\n"
            )
        };
        let e = |summary: &str| Lesson::from_ron(&text(summary), "l.ron").expect_err("refused").to_string();
        let bogus = e("summary: \"s\",");
        assert!(bogus.starts_with("l.ron:5:47: step 1: unknown field `bogus`"), "{bogus}");
        let fixed = |summary: &str| text(summary).replace(", bogus: 2", "");
        let e = |summary: &str| Lesson::from_ron(&fixed(summary), "l.ron").expect_err("refused").to_string();
        let misspelt = e("summray: \"s\",");
        assert!(misspelt.starts_with("l.ron:8:5: unknown field `summray`"), "{misspelt}");
        assert_eq!(e("summary: 5,"), "l.ron:8:14: expected a string in quotes for `summary`");
        let missing = e("");
        assert!(missing.starts_with("l.ron:9:1: missing field `"), "{missing}");
    }

    #[test]
    fn a_comment_left_open_is_named_where_it_opens() {
        let e = Lesson::from_ron("/* unclosed\nLesson(id: \"1\")\n", "l.ron").expect_err("refused").to_string();
        assert_eq!(e, "l.ron:1:1: this comment is not closed: no `*/` after it");
        let text = "Lesson(\n  title: \"a /* b\", // c /* d\n  id: /* x /* y */ z */ r#\"1 \"/*\"#, /* open\n)";
        let e = Lesson::from_ron(text, "l.ron").expect_err("refused").to_string();
        assert_eq!(e, "l.ron:3:37: this comment is not closed: no `*/` after it");
        // A `/*` in a raw string or a character is text.
        let e =
            Lesson::from_ron("Lesson(id: r#\"a \"/*\" b\"#, x: '/', y: '\"', /* c */)", "l.ron").expect_err("refused");
        assert!(!e.to_string().contains("comment"), "{e}");
    }

    fn check(metric: Metric, min: Option<f64>, max: Option<f64>) -> Check {
        Check { label: "c".into(), metric, window_s: 10.0, bdi: None, side: SideSpec::A, min, max }
    }

    #[test]
    fn a_chart_the_dashboard_lacks_is_found_as_written() {
        assert_eq!(Views::unknown_chart("Watch chart 2, then Chart 7 and charts 1 and 4."), Some(("Chart 7", 7)));
        assert_eq!(Views::unknown_chart("charts 0 and 1"), Some(("charts 0", 0)));
        assert_eq!(Views::unknown_chart("Look at charts 2 and 6."), Some(("charts 2 and 6", 6)));
        assert_eq!(Views::unknown_chart("charts 1, 2 or 9"), Some(("charts 1, 2 or 9", 9)));
        assert_eq!(Views::unknown_chart("chart 5; every chart): 377,497 pages; a chart"), None);
        assert_eq!(Views::unknown_chart("chart 2, 377 pages, chart 12 and"), Some(("chart 12", 12)));
        assert_eq!(Views::unknown_chart("charts 1, 2 and 4"), None);
        assert_eq!(Views::unknown_chart("chart 1; 0 pages"), None, "a list ends at a semicolon");
    }

    #[test]
    fn a_changed_copy_of_a_shipped_lesson_keeps_its_progress_apart() {
        let dir = Scratch::new("lesson-copy");
        let (file, text) = Lesson::shipped_file("03").expect("shipped");
        let same = dir.join(file);
        std::fs::write(&same, text).expect("written");
        assert_eq!(Lesson::load(&same).expect("loads").progress_id(), "03", "a plain copy is the lesson");
        let changed = dir.join("mine.ron");
        std::fs::write(&changed, text.replacen("title: \"", "title: \"Mine: ", 1)).expect("written");
        let mine = Lesson::load(&changed).expect("loads");
        assert_eq!(mine.id, "03");
        let place = std::fs::canonicalize(&changed).expect("exists");
        assert_eq!(mine.progress_id(), format!("03 {}", place.display()));
        // Two lessons of the user's numbered alike keep theirs apart too.
        let other = dir.join("other.ron");
        std::fs::write(&other, text.replacen("id: \"03\"", "id: \"91\"", 1)).expect("written");
        let again = dir.join("again.ron");
        std::fs::write(&again, text.replacen("id: \"03\"", "id: \"91\"", 1)).expect("written");
        let (other, again) = (Lesson::load(&other).expect("loads"), Lesson::load(&again).expect("loads"));
        assert_eq!(other.id, "91");
        assert_ne!(other.progress_id(), again.progress_id());
        assert!(other.progress_id().starts_with("91 /"), "{}", other.progress_id());
    }

    #[test]
    fn a_check_writes_its_value_and_bounds_in_one_unit() {
        let limit = check(Metric::LimitMb, Some(360.0), Some(400.0));
        assert_eq!(limit.judged(380.4), ("380 MiB".to_string(), "360..400".to_string()));
        // Bounds in another unit than the file's MiB say which.
        assert_eq!(limit.judged(12800.0), ("12.5 GiB".to_string(), "0.352..0.391 GiB".to_string()));
        let big = check(Metric::ThreshMb, Some(10240.0), None);
        assert_eq!(
            big.judged(9000.0),
            ("8.79 GiB".to_string(), ">= 10 GiB".to_string()),
            "the bound steps up the value"
        );
        let ratio = check(Metric::DirtyToSetpoint, Some(0.94), Some(1.06));
        assert_eq!(ratio.judged(1.04), ("1.04".to_string(), "0.94..1.06".to_string()));
        // Bounds read as the lesson writes them, not padded to two
        // decimals beside a value of one (`18.2%` within `16.50..18.50`).
        let pct = check(Metric::DirtyPct, Some(16.5), Some(18.5));
        assert_eq!(pct.judged(18.2), ("18.2%".to_string(), "16.5..18.5".to_string()));
        assert_eq!(check(Metric::DirtyPct, Some(0.125), None).bounds(), ">= 0.125");
        assert_eq!(check(Metric::DirtyPct, None, Some(1.0 / 3.0)).bounds(), "<= 0.333");
    }

    /// A failing value that would read as the bound it misses takes the
    /// digits that tell them apart: seed 52 printed `85.0 MiB/s not in
    /// >= 85` for 84.98.
    #[test]
    fn a_value_missing_its_bound_never_reads_as_the_bound() {
        let bw = check(Metric::WriteBwMbps, Some(85.0), None);
        assert_eq!(bw.judged(84.98).0, "84.98 MiB/s");
        assert_eq!(bw.judged(84.5).0, "84.5 MiB/s", "already apart");
        assert_eq!(bw.judged(85.0).0, "85 MiB/s", "passing: as before");
        let ratio = check(Metric::DirtyToSetpoint, None, Some(1.25));
        assert_eq!(ratio.judged(1.2501).0, "1.2501");
        assert_eq!(ratio.judged(1.3).0, "1.30");
    }

    #[test]
    fn how_far_past_the_limit_reads_as_words_not_a_signed_number() {
        let words = |a: &str, b: &str| (a.to_string(), b.to_string());
        let over = check(Metric::OverLimitMb, None, Some(0.0));
        assert_eq!(over.judged(-49.5), words("peak 49.5 MiB under the limit", "may not pass it"));
        assert_eq!(over.judged(-20480.0), words("peak 20 GiB under the limit", "may not pass it"));
        assert_eq!(over.judged(3.2), words("peak 3.20 MiB over the limit", "may not pass it"));
        assert_eq!(over.judged(0.0), words("peak at the limit", "may not pass it"));
        let slack = check(Metric::OverLimitMb, None, Some(2.0));
        assert_eq!(slack.judged(-1.5), words("peak 1.50 MiB under the limit", "may pass it by 2 MiB"));
        let band = check(Metric::OverLimitMb, Some(-10.0), Some(5.0));
        assert_eq!(band.judged(1.0), words("peak 1 MiB over the limit", "must be 10 MiB under to 5 MiB over it"));
        let share = check(Metric::OverLimitToThresh, None, Some(0.03125));
        assert_eq!(share.judged(-0.012), words("peak 1.20% of thresh under the limit", "may pass it by thresh/32"));
        // A ratio of the two sides keeps its plain number.
        let ratio = Check { side: SideSpec::AOverB, ..share };
        assert_eq!(ratio.judged(0.5), words("0.500×", "<= 0.031"));
    }

    #[test]
    fn every_shipped_lesson_parses() {
        for (i, l) in Lesson::shipped().into_iter().enumerate() {
            let l = l.unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(l.id, SHIPPED[i].0[..2], "id matches the file name");
            assert!(!l.steps.is_empty());
        }
    }

    #[test]
    fn a_shipped_lesson_is_found_by_its_id_with_or_without_the_zero() {
        let file = |name: &str| Lesson::shipped_file(name).map(|(f, _)| f);
        for name in ["03", "3", "003", "03-position-control", "03-position-control.ron"] {
            assert_eq!(file(name), Some("03-position-control.ron"), "{name}");
        }
        assert_eq!(file("12"), Some("12-nfs.ron"));
        for name in ["17", "+3", "3.0", "", "x"] {
            assert_eq!(file(name), None, "{name}");
        }
    }

    #[test]
    fn steps_name_the_views_they_need() {
        let v = Views::named_in("Chart 2 shows it; compare charts 1, 4 and 5 (task table). The parameter panel.");
        assert_eq!(v.charts, [true, true, false, true, true]);
        assert!(v.tasks && v.params);
        let v = Views::named_in("the charts show a chart. Look at chart 3: the pause column");
        assert_eq!(v.charts, [false, false, true, false, false]);
        assert!(v.tasks && !v.params);
        assert_eq!(Views::named_in("chart 7 and chart 0"), Views::default());
        // Lesson 07 pointed at "chart 3's title" on a screen without it.
        let v = Views::named_in("Chart 4 shows it; pos_ratio (chart 3's title)");
        assert_eq!((v.charts, v.asides), ([false, false, false, true, false], [false, false, true, false, false]));
        assert!(v.names_chart(3) && v.names_chart(4) && !v.names_chart(5));
        let v = Views::named_in("charts 1 and 4’s lines");
        assert_eq!((v.charts, v.asides), ([true, false, false, false, false], [false, false, false, true, false]));
        // Not where the chart is said to be away (lesson 08) or for what
        // another view shows (lesson 06).
        assert_eq!(Views::named_in("5 shows it in chart 4's place"), Views::default());
        assert_eq!(Views::named_in("Chart 5's task table").asides, [false; 5]);
        assert_eq!(Views::named_in("chart 4's task line").asides, [false, false, false, true, false]);
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
        assert!(e.to_string().starts_with("lessons/x.ron:12:5: "), "{e}");
        let text = text.replace("            actions: [\n    dirty_rato: 20,\n", "    dirty_rato: 20,\n");
        let e = Lesson::from_ron(&text, "lessons/x.ron").expect_err("bad field");
        assert!(
            e.to_string()
                .starts_with("lessons/x.ron:11:5: step 1: unknown field `dirty_rato`, expected one of `title`"),
            "{e}"
        );
    }

    #[test]
    fn numbers_out_of_range_are_rejected_where_they_are() {
        let lesson = |action: &str| {
            format!(
                "Lesson(id: \"x\", title: \"t\", patch: \"p\", summary: \"s\", scenario: Preset(\"default\"),\n steps: [Step(title: \"a\", text: \"b\",\n actions: [{action}])])"
            )
        };
        for (action, expect) in [
            ("AddDd(bdi: \"*\", n: 4294967295)", "n must be between 1 and 10000, got 4294967295"),
            ("RemoveDd(bdi: \"sda\", n: 0)", "n must be between 1 and 10000, got 0"),
            ("MemoryMb(0)", "MemoryMb must be between 16 and 4194304 MiB, got 0"),
            ("MemoryMb(18446744073709551615)", "MemoryMb must be between 16 and 4194304 MiB"),
            ("DirtyBytesMb(17592186044416)", "DirtyBytesMb must be between 1 and 4194304 MiB"),
            ("Zoom(9)", "the chart must be between 0 and 5, got 9"),
            ("Compare(Patch(0))", "the compared patch level must be between 1 and 11, got 0"),
            ("Compare(DirtyRatio(500))", "the compared dirty ratio must be between 1 and 100 %, got 500"),
            ("Reconfigure((cpus: 0))", "cpus must be between 1 and 4096, got 0"),
        ] {
            let e = Lesson::from_ron(&lesson(action), "l.ron").expect_err(action);
            assert!(e.to_string().starts_with("l.ron:3:"), "{action}: {e}");
            assert!(e.to_string().contains(expect), "{action}: {e}");
        }
        let text = lesson("Pause").replace("steps: [Step(title: \"a\",", "steps: [Step(title: \"a\", run_s: 1e9,");
        let e = Lesson::from_ron(&text, "l.ron").expect_err("run_s");
        assert!(e.to_string().contains("run_s must be between 0.001 and 3600 s, got 1e9"), "{e}");
        let text = lesson("Pause").replace("title: \"t\"", "title: \"t\\u{1b}[2J\"");
        assert!(Lesson::from_ron(&text, "l.ron").expect_err("escape").to_string().contains("control character"));
    }

    #[test]
    fn an_infinite_ratio_passes_a_min_and_fails_a_max() {
        let check = |min: Option<f64>, max: Option<f64>| Check {
            label: "c".into(),
            metric: Metric::WrittenMbps,
            window_s: 10.0,
            bdi: None,
            side: SideSpec::BOverA,
            min,
            max,
        };
        assert!(check(Some(10.0), None).passes(f64::INFINITY));
        assert!(!check(None, Some(1.05)).passes(f64::INFINITY));
        assert!(!check(Some(0.95), Some(1.05)).passes(f64::INFINITY));
        assert!(!check(Some(10.0), None).passes(f64::NAN));
        assert!(check(Some(10.0), None).passes(10.0) && !check(Some(10.0), None).passes(9.99));
    }

    #[test]
    fn the_readmes_example_lesson_is_valid() {
        let readme = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
            .expect("README");
        let section = &readme[readme.find("### Writing a lesson").expect("the section")..];
        let start = section.find("```ron\n").expect("an example") + "```ron\n".len();
        let example = &section[start..start + section[start..].find("```").expect("its end")];
        let lesson = Lesson::from_ron(example, "README.md").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(lesson.steps.len(), 2);
        let text = crate::ui::lesson::paragraphs(&lesson.steps[0].text);
        assert!(text.iter().any(|l| l.starts_with("$ a line starting")), "{text:?}");
    }

    #[test]
    fn the_readme_names_every_metric_with_its_unit() {
        let readme = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
            .expect("README");
        let source = include_str!("metric.rs");
        let body = &source[source.find("pub enum Metric {").expect("the enum")..];
        let body = &body[..body.find("\n}\n").expect("its end")];
        let names: Vec<&str> = body
            .lines()
            .map(str::trim)
            .filter_map(|l| l.strip_suffix(',').filter(|n| n.chars().all(|c| c.is_ascii_alphanumeric())))
            .collect();
        assert!(names.len() > 50, "{names:?}");
        for name in names {
            let metric: Metric = ron::from_str(name).unwrap_or_else(|e| panic!("{name}: {e}"));
            let unit = match metric.unit() {
                "" => "ratio",
                "/s" => "1/s",
                u => u,
            };
            let row = format!("| `{name}` | {unit}");
            assert!(readme.contains(&row), "the README's metric table has no `{row}`");
        }
    }

    #[test]
    fn a_side_read_without_a_comparison_is_refused_where_it_is_written() {
        let lesson = |actions: &str, side: &str| {
            format!(
                "Lesson(id: \"x\", title: \"t\", patch: \"p\", summary: \"s\", scenario: Preset(\"default\"),\n steps: [\n  Step(title: \"a\", text: \"b\", actions: [{actions}]),\n  Step(title: \"c\", text: \"d\",\n   checks: [Check(label: \"e\", metric: PosRatio, side: {side}, max: 1)])])"
            )
        };
        for side in ["B", "AOverB", "BOverA"] {
            let e = Lesson::from_ron(&lesson("Pause", side), "l.ron").expect_err(side);
            assert!(e.to_string().starts_with("l.ron:5:26: step 2: check `e` reads side "), "{side}: {e}");
            assert!(e.to_string().contains("open a comparison first"), "{e}");
        }
        // A comparison opened in an earlier step is still open.
        assert!(Lesson::from_ron(&lesson("Compare(Legacy(11))", "B"), "l.ron").is_ok());
        assert!(Lesson::from_ron(&lesson("Pause", "A"), "l.ron").is_ok());
        let e = Lesson::from_ron(&lesson("Compare(Legacy(11)), Compare(Off)", "BOverA"), "l.ron").expect_err("off");
        assert!(e.to_string().contains("reads side BOverA"), "{e}");
        let q = lesson("Pause", "A").replace(
            "checks: [Check(label: \"e\", metric: PosRatio, side: A, max: 1)]",
            "questions: [Question(ask: \"f?\", metric: PosRatio, side: B)]",
        );
        let e = Lesson::from_ron(&q, "l.ron").expect_err("question");
        assert!(e.to_string().starts_with("l.ron:5:30: step 2: question `f?` reads side B"), "{e}");
        let no_id = lesson("Pause", "A").replace("id: \"x\"", "id: \"\"");
        let e = Lesson::from_ron(&no_id, "l.ron").expect_err("empty id");
        assert_eq!(e.to_string(), "l.ron:1:12: the lesson's id is empty (the shipped ones are `00` to `16`)");
        let no_title = lesson("Pause", "A").replace("title: \"t\"", "title: \" \"");
        let e = Lesson::from_ron(&no_title, "l.ron").expect_err("empty title");
        assert_eq!(e.to_string(), "l.ron:1:24: the lesson's title is empty");
        let empty = lesson("Pause", "A").replace("label: \"e\"", "label: \" \"");
        let e = Lesson::from_ron(&empty, "l.ron").expect_err("empty label");
        assert!(e.to_string().starts_with("l.ron:5:26: step 2: a check's label is empty"), "{e}");
        // Step 2's empty text is told at its own, not at step 1's.
        let both = lesson("Pause", "A").replace("text: \"b\"", "text: \"\"").replace("text: \"d\"", "text: \"\t\"");
        let e = Lesson::from_ron(&both, "l.ron").expect_err("empty text");
        assert_eq!(e.to_string(), "l.ron:3:26: step 1: the text is empty");
        let second = lesson("Pause", "A").replace("text: \"d\"", "text: \" \"");
        let e = Lesson::from_ron(&second, "l.ron").expect_err("empty text");
        assert_eq!(e.to_string(), "l.ron:4:26: step 2: the text is empty");
        let hint = lesson("Pause", "A").replace("text: \"d\",", "text: \"d\", hint: \"\",");
        let e = Lesson::from_ron(&hint, "l.ron").expect_err("empty hint");
        assert_eq!(e.to_string(), "l.ron:4:37: step 2: the hint is empty (leave `hint` out for none)");
        // Both sides of a comparison of dirty ratios would be one world.
        let same = lesson("Compare(DirtyRatio(20))", "B");
        let e = Lesson::from_ron(&same, "l.ron").expect_err("one world");
        assert!(e.to_string().starts_with("l.ron:3:41: step 1: `Compare(DirtyRatio(20))` with the scenario's"), "{e}");
        assert!(e.to_string().ends_with("(`Reconfigure((dirty_ratio: 10))`)"), "{e}");
        let later = |actions: &str| {
            let with = format!("text: \"d\", actions: [{actions}],");
            lesson("Compare(DirtyRatio(10))", "B").replace("text: \"d\",", &with)
        };
        let e = Lesson::from_ron(&later("Reconfigure((dirty_ratio: 10))"), "l.ron").expect_err("one world later");
        let open = "l.ron:4:41: step 2: this `Reconfigure` sets the scenario's dirty_ratio to 10, the ratio the \
                    comparison open since step 1";
        assert!(e.to_string().starts_with(open), "{e}");
        let e = Lesson::from_ron(&later("DirtyRatio(30)"), "l.ron").expect_err("both sides alike");
        assert!(e.to_string().starts_with("l.ron:4:41: step 2: `DirtyRatio` sets both sides alike"), "{e}");
        let closed = later("Compare(Off), DirtyRatio(30)").replace("side: B", "side: A");
        assert!(Lesson::from_ron(&closed, "l.ron").is_ok());
        let moved = lesson("Reconfigure((dirty_ratio: 10)), Compare(DirtyRatio(20))", "B");
        assert!(Lesson::from_ron(&moved, "l.ron").is_ok(), "the scenario's ratio moved first");
        // A pipeline's metric in a world of dd alone.
        let copy = lesson("Pause", "A").replace("metric: PosRatio, side: A, max: 1", "metric: NetStallPct, max: 5");
        let e = Lesson::from_ron(&copy, "l.ron").expect_err("no pipeline");
        assert!(
            e.to_string().starts_with("l.ron:5:39: step 2: `NetStallPct` measures the pipelines on bdi sda"),
            "{e}"
        );
        let rsync = copy.replace("Preset(\"default\")", "Preset(\"rsync\")");
        assert!(Lesson::from_ron(&rsync, "l.ron").is_ok());
        let summary = lesson("Pause", "A").replace("summary: \"s\"", "summary: \"\"");
        let e = Lesson::from_ron(&summary, "l.ron").expect_err("empty summary");
        assert_eq!(e.to_string(), "l.ron:1:50: the lesson's summary is empty");
    }

    #[test]
    fn columns_count_characters_as_the_parsers_errors_do() {
        // "é" and "—" take 2 and 3 bytes: the column after them counts each
        // as one character, as ron's own errors and the scenario's do.
        let lesson = |check: &str| {
            format!(
                "Lesson(id: \"x\", title: \"t\", patch: \"p\", summary: \"s\", scenario: Preset(\"default\"),\n steps: [\n  Step(title: \"é—\", text: \"b\", checks: [{check}])])"
            )
        };
        let head = "  Step(title: \"é—\", text: \"b\", checks: [Check(label: ";
        let e = Lesson::from_ron(&lesson("Check(label: \" \", metric: PosRatio, max: 1)"), "l.ron").expect_err("empty");
        let col = head.chars().count() + 1;
        assert!(e.to_string().starts_with(&format!("l.ron:3:{col}: step 1: a check's label is empty")), "{e}");
        let e = Lesson::from_ron(&lesson("Check(label: \"é\", metric: Froz, max: 1)"), "l.ron").expect_err("metric");
        let col = format!("{head}\"é\", metric: ").chars().count() + 1;
        assert!(e.to_string().starts_with(&format!("l.ron:3:{col}: ")), "{e}");
        assert_eq!(locate("ab\n é \"—\" x: \"z\"", "x", "z"), (2, 11));
        assert_eq!(locate_window("Check(label: \"é\", window_s: 3)", 0), Some((1, 19)));
        // Each item's own field: not a later item's, not a label's words,
        // not one in a comment; an escaped quote ends no string.
        let two = "Check(label: \"a \\\" window_s: 1\", max: 1), // window_s: 2\nCheck(label: \"b\", window_s: 3)";
        assert_eq!(locate_window(two, 0), None);
        assert_eq!(locate_window(two, 1), Some((2, 19)));
        assert_eq!(locate_window(two, 2), None);
        let q = "Question(ask: \"q\", metric: DirtyMb), Check(label: \"c\", window_s: 5), Question(ask: \"r\", window_s: 4)";
        // Raw strings hold no escapes, block comments nest.
        let raw = "Check(label: r\"C:\\dir\\\", window_s: 3), Check(label: r#\"say \"window_s: 9\"\"#, max: 1)";
        assert_eq!(locate_window(raw, 0), Some((1, 26)));
        assert_eq!(locate_window(raw, 1), None);
        let nested = "Check(label: \"x\", /* a /* b */ window_s: 99 */ max: 1)";
        assert_eq!(locate_window(nested, 0), None);
        assert_eq!(items_named("Check(a: 1), (label: \"y\"), Check(b: 2)", "Check"), 2);
        assert_eq!(locate_question_window(q, 0), None);
        assert_eq!(locate_question_window(q, 1), Some((1, 89)));
    }

    #[test]
    fn unknown_names_are_rejected() {
        let base = |scenario: &str, action: &str, metric: &str| {
            format!(
                "Lesson(id: \"x\", title: \"t\", patch: \"p\", summary: \"s\", scenario: {scenario},\n steps: [Step(title: \"a\", text: \"b\", actions: [{action}],\n checks: [Check(label: \"c\", metric: {metric}, max: 1)])])"
            )
        };
        let e = Lesson::from_ron(&base("Preset(\"nope\")", "Pause", "PosRatio"), "l.ron").expect_err("preset");
        assert!(e.to_string().contains("unknown preset `nope`") && e.to_string().contains("hdd-10dd"), "{e}");
        let e = Lesson::from_ron(&base("Preset(\"my.ron\")", "Pause", "PosRatio"), "l.ron").expect_err("a file");
        assert!(e.to_string().ends_with("write the scenario into it, `scenario: Inline(Scenario(...))`"), "{e}");
        let e = Lesson::from_ron(&base("Preset(\"rsync.ron\")", "Pause", "PosRatio"), "l.ron").expect_err("a name");
        assert!(e.to_string().contains("did you mean `rsync`"), "{e}");
        let e = Lesson::from_ron(&base("Preset(\"default\")", "Frobnicate", "PosRatio"), "l.ron").expect_err("action");
        assert!(e.to_string().contains("unknown variant `Frobnicate`") && e.to_string().contains("`AddDd`"), "{e}");
        let e = Lesson::from_ron(&base("Preset(\"default\")", "Pause", "Speed"), "l.ron").expect_err("metric");
        assert!(e.to_string().contains("unknown variant `Speed`") && e.to_string().contains("`PosRatio`"), "{e}");
        // A setting before an action that starts fresh worlds is undone
        // by it; after it, or a view's action before it, is kept.
        for fresh in ["Restart", "Compare(Legacy(11))", "Reconfigure((dd: 2))"] {
            let actions = format!("Zoom(1), DirtyRatio(10), {fresh}");
            let e = Lesson::from_ron(&base("Preset(\"default\")", &actions, "PosRatio"), "l.ron").expect_err(fresh);
            let name = &fresh[..fresh.find('(').unwrap_or(fresh.len())];
            let want = format!(
                "l.ron:2:73: step 1: `{name}` starts fresh worlds from the scenario, undoing the `DirtyRatio` before \
                 it: put `DirtyRatio` after it"
            );
            assert_eq!(e.to_string(), want);
            let actions = format!("Zoom(1), {fresh}, DirtyRatio(10)");
            Lesson::from_ron(&base("Preset(\"default\")", &actions, "PosRatio"), "l.ron").expect(fresh);
        }
        // A comparison with nothing changed shows one world twice.
        let same = "CompareWith(a: \"x\", b: \"y\", changes: ())";
        let e = Lesson::from_ron(&base("Preset(\"default\")", same, "PosRatio"), "l.ron").expect_err("no changes");
        assert_eq!(
            e.to_string(),
            "l.ron:2:85: step 1: CompareWith has no changes: both worlds would be the same; name what differs on \
             the right, e.g. `changes: (dirty_ratio: 40)`"
        );
        let other = same.replace("()", "(dirty_ratio: 40)");
        Lesson::from_ron(&base("Preset(\"default\")", &other, "PosRatio"), "l.ron").expect("a change");
        // Changes that are the world's own settings (the preset's ratio
        // is 20): refused where they are written, as the session would
        // refuse them when the step opens.
        let own = same.replace("()", "(dirty_ratio: 20)");
        let e = Lesson::from_ron(&base("Preset(\"default\")", &own, "PosRatio"), "l.ron").expect_err("one world");
        assert!(
            e.to_string().starts_with("l.ron:2:85: step 1: CompareWith's changes are the world's own settings"),
            "{e}"
        );
        // Told at the action of the step, not where its name is first
        // written (a text, an earlier step).
        let two = "Lesson(id: \"x\", title: \"t\", patch: \"p\", summary: \"s\", scenario: Preset(\"default\"),\n \
                   steps: [Step(title: \"a\", text: \"Restart\", actions: [Restart]),\n \
                   Step(title: \"b\", text: \"c\", actions: [Restart, DirtyRatio(10), Restart])])";
        let e = Lesson::from_ron(two, "l.ron").expect_err("undone");
        assert!(e.to_string().starts_with("l.ron:3:65: step 2: `Restart` starts fresh worlds"), "{e}");
        // A value read out of range names its step as well.
        let e = Lesson::from_ron(&two.replace("Restart, DirtyRatio(10), Restart", "Zoom(9)"), "l.ron").expect_err("9");
        assert_eq!(e.to_string(), "l.ron:3:45: step 2: the chart must be between 0 and 5, got 9");
        let e = Lesson::from_ron(&base("Preset(\"default\")", "AddDd(bdi: \"sdz\", n: 1)", "PosRatio"), "l.ron")
            .expect_err("bdi");
        assert!(
            e.to_string().contains("unknown bdi `sdz`")
                && e.to_string().contains("`sda`")
                && e.to_string().starts_with("l.ron:2:"),
            "{e}"
        );
    }
}
