//! The dashboard's model, without a terminal: what it shows ([`App`]),
//! what the user can ask of it ([`Msg`]) and the one place it changes
//! ([`App::update`] for messages, [`App::advance_to`] for time).
//!
//! An app holds a [`Session`]: one world, or two in A/B compare mode, built
//! from the same scenario and seed and advanced in lockstep. Every change a
//! key asks for becomes an [`Input`] applied to each
//! world ([`input_for`]). The terminal side (`ui`) reads keys, turns them
//! into messages, paces time and draws from `&App`; a recording
//! ([`crate::record`]) keeps the calls into the app and replays them.

mod input;
pub mod lesson;
mod msg;
mod screen;

pub use input::input_for;
pub use msg::{LessonMsg, Mode, Msg};
pub use screen::{LOG_SCALE_NOTE, Screen, TaskRoom};

/// How far the help, a lesson step's text and the task table can scroll
/// in a terminal \[rows\].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScrollRoom {
    /// The help.
    pub help: u16,
    /// Rows a page of the help scrolls by: the rows it shows, less one.
    pub help_page: u16,
    /// The open lesson step's text.
    pub text: u16,
    /// Rows a page of the step's text scrolls by: the rows it shows, less
    /// one.
    pub text_page: u16,
    /// The row of the step's text its hint starts on, when shown.
    pub hint_row: Option<u16>,
    /// The task table: until its last page fills it, and by how much a
    /// page; `None` when it is not on the screen.
    pub tasks: Option<TaskRoom>,
}

use crate::error::{Error, Result};
use crate::lesson::Lesson;
use crate::lesson::progress::Progress;
use crate::scenario::Scenario;
use crate::session::{Compare, Session, SessionOptions, Side, TraceBatch, level_name};
use crate::sim::config::{Legacy, NS_PER_SEC, TaskConfig, WorldConfig};
use crate::sim::engine::MAX_TASKS;
use crate::sim::page_writeback::DirtyTunables;
use crate::sim::{Input, TaskKind, World};
use crate::units::size;
use lesson::{LessonMode, Picker};

/// Speeds in 1-2-5 steps; the last means as fast as possible.
pub const SPEEDS: &[f64] =
    &[0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0, f64::INFINITY];

/// Where 1× stands in [`SPEEDS`].
pub(crate) fn one_x() -> usize {
    SPEEDS.iter().position(|&s| s == 1.0).expect("1x is a speed")
}

/// The index into [`SPEEDS`] after `]` (`faster`) or `[` from `i`, and,
/// at either end, where the key changes nothing, what it says.
pub fn step_speed(i: usize, faster: bool) -> (usize, Option<&'static str>) {
    match (faster, i) {
        (true, i) if i + 1 >= SPEEDS.len() => (SPEEDS.len() - 1, Some(FASTEST)),
        (true, i) => (i + 1, None),
        (false, 0) => (0, Some(SLOWEST)),
        (false, i) => (i - 1, None),
    }
}

/// Puts what a speed key said, `said` (see [`step_speed`]), on the status
/// line `note`; when it said nothing (the speed moved), takes down a note
/// an end of the range left there, which would now be wrong.
pub fn note_speed(note: &mut String, said: Option<&'static str>) {
    const ENDS: [&str; 2] = [SLOWEST, FASTEST];
    match said {
        Some(said) => *note = said.into(),
        None if ENDS.contains(&note.as_str()) => note.clear(),
        None => {}
    }
}

/// The end of the note that the background ratio at or over dirty_ratio
/// halves thresh for bg_thresh (the kernel's rule).
const HALVED: &str = ": bg_thresh = thresh/2";

/// The end of the note of a dd refused at the task limit, left out where
/// the status line is short (at 60 columns it left out the time).
const EXITED_COUNT: &str = ", exited ones included";

/// How a patch-level note begins: it names the level, which the status
/// line then does not name again.
pub const PATCH_NOTE: &str = "patch level: ";

const FASTEST: &str = "already as fast as possible";
const SLOWEST: &str = "0.1× is the slowest";

/// The bdi after `b` or `B` (`next` false) from `i` of `n`, going round.
pub fn step_bdi(i: usize, n: usize, next: bool) -> usize {
    if next { (i + 1) % n } else { (i + n - 1) % n }
}

/// The comparison `c` makes after `now`, for a user at patch level
/// `level` of kernel `legacy`, with dirty ratio `ratio` (0 for a byte
/// setting), and what the status line adds when that level cannot be the
/// one compared: legacy 3.1, then 2.6.38, against the user's level if it
/// is IO-less (else patch 11); patch N-1 against the user's N (patch 01
/// against legacy 3.1 below level 1); the user's dirty ratio against half
/// of it (20 from 1); then off.
pub fn next_compare(now: Option<Compare>, level: u8, legacy: Legacy, ratio: u64) -> (Option<Compare>, Option<String>) {
    let mine = if level == 0 { format!("legacy {}", legacy.version()) } else { format!("patch {level:02}") };
    let ioless = |c: fn(u8) -> Compare| match level {
        7.. => (Some(c(level)), None),
        _ => (Some(c(11)), Some(format!("your {mine} is IO-full: the IO-less side is patch 11"))),
    };
    match now {
        None => ioless(Compare::Legacy),
        Some(Compare::Legacy(_)) => ioless(Compare::Linux2638),
        Some(Compare::Linux2638(_)) if level >= 1 => (Some(Compare::Patch(level)), None),
        Some(Compare::Linux2638(_)) => {
            (Some(Compare::Patch(1)), Some(format!("your {mine} has no level below it: patch 01 against legacy 3.1")))
        }
        Some(Compare::Patch(_)) => (Some(Compare::DirtyRatio(if ratio > 1 { ratio / 2 } else { 20 })), None),
        Some(Compare::DirtyRatio(_) | Compare::Alternative) => (None, None),
    }
}

/// Time windows of the charts \[s\]; `None` shows the whole run.
pub const WINDOWS: &[Option<u64>] = &[Some(30), Some(60), Some(300), None];

/// Which palette the screen uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ThemeKind {
    /// Colour-blind-safe colours for dark backgrounds.
    #[default]
    Dark,
    /// The same hues, darker, for light backgrounds.
    Light,
    /// No colours (also chosen by the NO_COLOR environment variable).
    Mono,
}

/// How chart points are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Marker {
    /// Braille dots: 2x4 points per cell.
    #[default]
    Braille,
    /// One dot per cell.
    Dot,
    /// One block per cell.
    Block,
}

/// How an app is built: what it shows and what it keeps.
#[derive(Clone, Debug, Default)]
pub struct AppOptions {
    /// The palette.
    pub theme: ThemeKind,
    /// The chart markers.
    pub marker: Marker,
    /// Keep side A's trace events for [`App::take_trace`].
    pub trace: bool,
    /// Show developer figures (frame draw time) on the status line.
    pub debug: bool,
    /// Run every lesson opened (also from the lesson list) with this seed
    /// of the random generator instead of its own (`lesson --seed`).
    pub seed: Option<u64>,
    /// A dd added by `+` starts at the next step of time, not at once, as
    /// in recordings of key format 2 and before.
    pub added_dd_waits: bool,
    /// In a lesson, `n` before the step's time is up runs the rest of the
    /// step at once, not over the next frames, as in recordings of key
    /// format 3 and before (a replay of one ends the step at the instant
    /// it was recorded to).
    pub next_at_once: bool,
    /// In a lesson, `n` after the worlds ran on past a step's end opens
    /// the next step on them; in a comparison, a memory key moves each
    /// side that can move: as in recordings of key format 4 and before.
    pub keys_before_5: bool,
    /// With the help open over the lesson list, Esc closes the list, the
    /// help left open: as in recordings of key format 5 and before.
    pub keys_before_6: bool,
    /// In a lesson, a step opened again starts with no answers; in a
    /// comparison, a ratio key moves each side that can move (two dirty
    /// ratios compared could become one): as in recordings of key format 6
    /// and before.
    pub keys_before_7: bool,
    /// In a lesson, the dd a step adds start at the next step of time
    /// (a step opened paused counted none of them): as in recordings of
    /// key format 7 and before.
    pub keys_before_8: bool,
}

impl AppOptions {
    fn session(&self) -> SessionOptions {
        SessionOptions { trace: self.trace, step_dd_waits: self.keys_before_8, ..SessionOptions::default() }
    }
}

/// Something only the terminal can do, asked for by a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Request {
    /// Write the screen as an SVG file.
    SaveSvg,
    /// Suspend the process (restore the terminal, stop, redraw on `fg`).
    Suspend,
}

/// One call into the app, as a recording keeps it: replaying the same
/// calls in the same order reproduces the same simulation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
pub enum Entry {
    /// [`App::advance_to`] this simulated time \[ns\].
    Advance(u64),
    /// [`App::update`] with this message, sent at this simulated time \[ns\].
    Key(u64, Msg),
}

/// What a key that did nothing is, on the status line over the note it
/// covered (a step done, a change), which the next key that does
/// something puts back, unless another note took its place meanwhile.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PassingNote(Option<(String, String)>);

impl PassingNote {
    /// Puts `note` in `status`, covering what it said (or, where a passing
    /// note still shows, what that one covered).
    pub fn cover(&mut self, status: &mut String, note: String) {
        let covered = match self.0.take() {
            Some((shown, covered)) if shown == *status => covered,
            _ => std::mem::take(status),
        };
        *status = note.clone();
        self.0 = Some((note, covered));
    }

    /// Puts `note` in `status`, or, where a passing note shows, under it:
    /// a progress note kept up to date does not wipe what the last key
    /// said.
    pub fn under(&mut self, status: &mut String, note: String) {
        match self.0.as_mut() {
            Some((shown, covered)) if shown == status => *covered = note,
            _ => *status = note,
        }
    }

    /// Puts back the note covered, where the passing one still shows.
    pub fn pass(&mut self, status: &mut String) {
        if let Some((shown, covered)) = self.0.take()
            && shown == *status
        {
            *status = covered;
        }
    }

    /// `status` is the passing note.
    pub fn shown(&self, status: &str) -> bool {
        self.0.as_ref().is_some_and(|(shown, _)| shown == status)
    }
}

/// The dashboard.
pub struct App {
    /// The worlds it shows.
    session: Session,
    /// Simulation stopped.
    paused: bool,
    /// Index into [`SPEEDS`].
    speed: usize,
    /// The bdi charts 2-5 show and `+`/`-` act on.
    bdi: usize,
    /// How it is shown: zoom, help, palette, scales, task table.
    screen: Screen,
    /// Index into [`WINDOWS`].
    window: usize,
    /// Set when the user asked to leave.
    quit: bool,
    /// Something changed since the last frame.
    dirty: bool,
    /// A message for the status line (the last change made).
    note: String,
    /// The note as first seen, and the simulated time then \[ns\]
    /// ([`App::note_age_ns`]).
    note_seen: std::cell::RefCell<(String, u64)>,
    /// What a key that did nothing is, over the note it covered.
    passing_note: PassingNote,
    /// The lesson being followed, if any.
    lesson: Option<LessonMode>,
    /// The lesson list, when open.
    picker: Option<Picker>,
    /// How far the user got in each lesson.
    progress: Progress,
    /// The lessons whose progress changed since [`App::take_progress`].
    progress_changed: Vec<String>,
    /// When recording: every call that changed the app since the last
    /// [`App::take_record`], in order.
    record: Option<Vec<Entry>>,
    /// Trace events set aside, with their bdi names.
    trace_stash: Vec<TraceBatch>,
    /// What the terminal has been asked to do, oldest first.
    requests: Vec<Request>,
    /// The speed the simulation reaches when it cannot keep up with the
    /// one asked for (set by the pacing loop).
    reached: Option<f64>,
    /// Show developer figures.
    debug: bool,
    /// The seed every lesson opened runs with instead of its own
    /// (`lesson --seed`).
    lesson_seed: Option<u64>,
    /// Time the last frame took to draw, and to draw and write to the
    /// terminal \[ms\] (set by the drawing loop).
    frame_ms: (f64, f64),
    /// A dd added by `+` starts at the next step of time
    /// ([`AppOptions::added_dd_waits`]).
    added_dd_waits: bool,
    /// A dd was added or removed by a key since the scenario last
    /// started: `r` says it takes that back.
    dds_by_hand: bool,
    /// `n` runs the rest of a lesson step at once
    /// ([`AppOptions::next_at_once`]).
    next_at_once: bool,
    /// ([`AppOptions::keys_before_5`]).
    keys_before_5: bool,
    /// ([`AppOptions::keys_before_6`]).
    keys_before_6: bool,
    /// ([`AppOptions::keys_before_7`]).
    keys_before_7: bool,
    /// Simulated time a world stops at \[ns\]: the longest session a
    /// recording replays ([`crate::record::MAX_SESSION_NS`]).
    time_limit: u64,
    /// In a comparison `c` made: the patch level and kernel the user had
    /// chosen, which the comparisons of levels are about.
    level: Option<(u8, Legacy)>,
}

impl App {
    /// An app on `scenario`, optionally comparing.
    pub fn new(scenario: Scenario, compare: Option<Compare>, opts: &AppOptions) -> Result<App> {
        let session = Session::new(scenario, compare, opts.session())?;
        Ok(App::with_session(session, Progress::default(), opts))
    }

    /// The user's lesson progress, for the lessons opened from `L`: the
    /// list opens at the first not done, a lesson where it was left.
    pub fn with_progress(mut self, progress: Progress) -> App {
        self.progress = progress;
        self
    }

    /// An app following `lesson`, opened at step `step` (0-based), with the
    /// user's `progress` (which this app updates; see [`App::take_progress`]);
    /// with `opts.seed`, the lesson runs with that seed instead of its own.
    pub fn for_lesson(lesson: Lesson, step: usize, progress: Progress, opts: &AppOptions) -> Result<App> {
        let lesson = lesson.with_seed(opts.seed);
        let (run, session, view) = crate::lesson::runner::LessonRun::seek(lesson, step, opts.session())?;
        let mut app = App::with_session(session, progress, opts);
        app.install(run, view);
        app.restore_answers();
        app.note_progress();
        Ok(app)
    }

    /// An app with the lesson list of `lessons` open, over the one to
    /// resume: the first one `progress` has taken past its first step and
    /// not finished, else the first begun and not finished, else the first
    /// it does not call finished. (A student who began with lesson 04
    /// found the list over lesson 00, which Esc then opened and recorded
    /// as begun, at its first step.)
    pub fn lesson_picker(lessons: Vec<Lesson>, progress: Progress, opts: &AppOptions) -> Result<App> {
        let state = |l: &Lesson| progress.lessons.get(&l.id);
        let selected = (lessons.iter().position(|l| state(l).is_some_and(|p| !p.done && p.step > 0)))
            .or_else(|| lessons.iter().position(|l| state(l).is_some_and(|p| !p.done)))
            .or_else(|| lessons.iter().position(|l| !state(l).is_some_and(|p| p.done)))
            .unwrap_or(0);
        let lesson = lessons.get(selected).cloned().ok_or_else(|| Error::invalid("no lessons to list"))?;
        // Opened as `dirtyviz lesson ID` opens it: a finished one without
        // its answers.
        let mut started = progress.clone();
        let step = started.start(&lesson);
        let mut app = App::for_lesson(lesson, step, started, opts)?;
        // The lesson behind the list is not opened yet: it is recorded
        // when the list closes onto it, not when another is picked.
        (app.progress, app.progress_changed) = (progress, Vec::new());
        app.open_picker(lessons, selected)?;
        Ok(app)
    }

    /// Opens the lesson list of `lessons` at entry `selected`, pausing.
    /// The lessons run with the app's seed, if it was given one.
    pub fn open_picker(&mut self, lessons: Vec<Lesson>, selected: usize) -> Result<()> {
        if selected >= lessons.len() {
            return Err(Error::invalid(format!("the lesson list has no entry {}", selected + 1)));
        }
        let lessons = lessons.into_iter().map(|l| l.with_seed(self.lesson_seed)).collect();
        self.paused = true;
        self.picker = Some(Picker { lessons, selected, typed: String::new() });
        Ok(())
    }

    fn with_session(session: Session, progress: Progress, opts: &AppOptions) -> App {
        App {
            session,
            paused: false,
            speed: one_x(),
            bdi: 0,
            screen: Screen::new(opts.theme, opts.marker),
            window: 1,
            quit: false,
            dirty: true,
            note: String::new(),
            note_seen: Default::default(),
            passing_note: PassingNote::default(),
            lesson: None,
            picker: None,
            progress,
            progress_changed: Vec::new(),
            record: None,
            trace_stash: Vec::new(),
            requests: Vec::new(),
            reached: None,
            debug: opts.debug,
            lesson_seed: opts.seed,
            frame_ms: (0.0, 0.0),
            time_limit: crate::record::MAX_SESSION_NS,
            added_dd_waits: opts.added_dd_waits,
            dds_by_hand: false,
            next_at_once: opts.next_at_once,
            keys_before_5: opts.keys_before_5,
            keys_before_6: opts.keys_before_6,
            keys_before_7: opts.keys_before_7,
            level: None,
        }
    }

    // ---- what it shows ----------------------------------------------------------

    /// The session: its scenario, comparison and worlds.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The worlds, side A first.
    pub fn sides(&self) -> &[Side] {
        &self.session.sides
    }

    /// The world the single-world views show (side A).
    pub fn world(&self) -> &World {
        self.session.world()
    }

    /// Simulated time \[ns\].
    pub fn sim_ns(&self) -> u64 {
        self.session.sim_ns
    }

    /// The simulation is stopped.
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// The current speed; infinite means as fast as possible.
    pub fn speed(&self) -> f64 {
        SPEEDS[self.speed]
    }

    /// The speed the simulation reached when it could not keep up with
    /// [`App::speed`], if it could not.
    pub fn reached_speed(&self) -> Option<f64> {
        self.reached
    }

    /// The selected bdi (index into side A's bdis).
    pub fn bdi(&self) -> usize {
        self.bdi
    }

    /// The chart shown alone, if one is.
    pub fn zoom(&self) -> Option<u8> {
        self.screen.zoom
    }

    /// The chart shown alone was chosen with its key (not by a lesson).
    pub fn zoom_by_key(&self) -> bool {
        self.screen.zoom_by_key
    }

    /// The key help is open.
    pub fn help_open(&self) -> bool {
        self.screen.help
    }

    /// Rows the help is scrolled by.
    pub fn help_scroll(&self) -> u16 {
        self.screen.help_scroll
    }

    /// The charts' time window \[s\]; `None`: the whole run.
    pub fn window_s(&self) -> Option<u64> {
        WINDOWS[self.window]
    }

    /// What the status line calls the charts' window: `window 1 min`,
    /// `window: whole run`, or, once a world let its oldest samples go
    /// (it keeps a bounded number, so memory stays bounded however long
    /// it runs), `window: last 10000 s`: the part of the run the charts
    /// still have.
    pub fn window_label(&self) -> String {
        match (self.window_s(), self.kept_s()) {
            (Some(s), _) => format!("window {}", window_name(s)),
            (None, Some(kept)) => format!("window: last {}", window_name(kept)),
            (None, None) => "window: whole run".into(),
        }
    }

    /// The whole-run window has lost the run's oldest samples: the charts
    /// start after the run did.
    pub fn window_cut(&self) -> bool {
        self.window_s().is_none() && self.kept_s().is_some()
    }

    /// How much of the run side A's samples still cover \[s\], when it let
    /// the oldest go.
    fn kept_s(&self) -> Option<u64> {
        let w = self.world();
        let first = w.samples().front().filter(|_| w.samples_dropped() > 0)?;
        Some((self.sim_ns().saturating_sub(first.t_ns) as f64 / 1e9).round() as u64)
    }

    /// The palette.
    pub fn theme(&self) -> ThemeKind {
        self.screen.theme
    }

    /// How chart points are drawn.
    pub fn marker(&self) -> Marker {
        self.screen.marker
    }

    /// Charts 4 and 5 use a logarithmic y axis.
    pub fn log_scale(&self) -> bool {
        self.screen.log_scale
    }

    /// The task table has the keyboard focus.
    pub fn tasks_focused(&self) -> bool {
        self.screen.tasks_focus
    }

    /// Rows the task table is scrolled by.
    pub fn task_scroll(&self) -> usize {
        self.screen.task_scroll
    }

    /// The user asked to leave.
    pub fn quit_requested(&self) -> bool {
        self.quit
    }

    /// The status line's message (the last change made), or empty.
    pub fn note(&self) -> &str {
        &self.note
    }

    /// How long the note has been on the status line, in simulated time
    /// \[ns\]: since a key, an advance of the world or a frame first
    /// found it there.
    pub fn note_age_ns(&self) -> u64 {
        let now = self.session.sim_ns;
        let mut seen = self.note_seen.borrow_mut();
        if seen.0 != self.note || seen.1 > now {
            *seen = (self.note.clone(), now);
        }
        now - seen.1
    }

    /// [`App::note`] in `room` columns where a shorter wording says the
    /// same: the note that bg_thresh is thresh/2 (in a lesson, followed
    /// by what `r` restores) names the background ratio without its
    /// sysctl prefix (at 60 columns `background ratio 21 ≥ dirty_ratio
    /// 20: bg_thresh = thresh/2`), then leaves out that the ratio is at
    /// its end, then the ratios' `%`; a dd refused at the task limit
    /// leaves out that exited ones count. Others as they are (cut where
    /// drawn).
    pub fn note_within(&self, room: usize) -> String {
        let fits = |n: &str| n.chars().count() <= room;
        if let Some(short) = self.note.strip_suffix(EXITED_COUNT).filter(|_| !fits(&self.note)) {
            return short.to_string();
        }
        if fits(&self.note) || !self.note.contains(HALVED) {
            return self.note.clone();
        }
        let short = self.note.replace("dirty_background_ratio", "background ratio");
        if fits(&short) {
            return short;
        }
        let shorter = short.replace(" (the lowest)", "").replace(" (the highest)", "");
        if fits(&shorter) {
            return shorter;
        }
        // The ratios' `%` last: the panel beside says it.
        shorter.replace('%', "")
    }

    /// The lesson being followed, if any.
    pub fn lesson(&self) -> Option<&LessonMode> {
        self.lesson.as_ref()
    }

    /// The lesson list, when open.
    pub fn picker(&self) -> Option<&Picker> {
        self.picker.as_ref()
    }

    /// How far the user got in each lesson.
    pub fn progress(&self) -> &Progress {
        &self.progress
    }

    /// The seed lessons run with instead of their own (`lesson --seed`),
    /// if one was given.
    pub fn lesson_seed(&self) -> Option<u64> {
        self.lesson_seed
    }

    /// Developer figures are shown.
    pub fn debug(&self) -> bool {
        self.debug
    }

    /// Time the last frame took to draw, and to draw and write out \[ms\].
    pub fn frame_ms(&self) -> (f64, f64) {
        self.frame_ms
    }

    /// What the keys drive now.
    pub fn mode(&self) -> Mode {
        // The help over the lesson list takes the keys (they moved the
        // list under it, and Esc closed the list, the help left open).
        if self.screen.help {
            Mode::Help
        } else if self.picker.is_some() {
            Mode::Picker
        } else if self.lesson.as_ref().is_some_and(|l| l.input.is_some()) {
            Mode::Typing
        } else if self.screen.tasks_focus {
            Mode::Tasks
        } else {
            Mode::Normal
        }
    }

    // ---- what the terminal side tells it and takes from it --------------------------

    /// Puts `note` on the status line.
    pub fn set_note(&mut self, note: impl Into<String>) {
        self.note = note.into();
        self.dirty = true;
    }

    /// The note says what a key that did nothing is (and passes with the
    /// next key that does something).
    pub fn note_passes(&self) -> bool {
        self.passing_note.shown(&self.note)
    }

    /// Says on the status line what a key that did nothing is, until the
    /// next key that does something.
    pub fn set_passing_note(&mut self, note: String) {
        self.passing_note.cover(&mut self.note, note);
        self.dirty = true;
    }

    /// Adds `note` after the status line's note, if there is one.
    pub fn add_note(&mut self, note: &str) {
        if !self.note.is_empty() {
            self.note.push_str("; ");
        }
        self.note.push_str(note);
        self.dirty = true;
    }

    /// Notes how far the help, the lesson's text and the task table can
    /// scroll in the
    /// terminal as last drawn (see `ui::view::scroll_room`): scrolling
    /// stops at their ends, and a larger terminal pulls them back.
    pub fn set_scroll_room(&mut self, room: ScrollRoom) {
        self.screen.set_help_room(room.help, room.help_page);
        self.screen.set_task_room(room.tasks);
        if let Some(mode) = &mut self.lesson {
            let was = mode.scroll();
            mode.set_scroll_room(room.text, room.text_page, room.hint_row);
            // Scrolled to the hint just shown, or pulled back: drawn
            // again, also while paused (no frame came until the next key,
            // and `h` said the hint was shown where it was not).
            self.dirty |= mode.scroll() != was;
        }
    }

    /// Notes how long the last frame took to draw, and to draw and write
    /// to the terminal \[ms\].
    pub fn set_frame_ms(&mut self, draw: f64, total: f64) {
        self.frame_ms = (draw, total);
    }

    /// Notes the speed the simulation reaches, `None` when it keeps up.
    pub fn set_reached_speed(&mut self, reached: Option<f64>) {
        if self.reached.map(|r| r.round()) != reached.map(|r| r.round()) {
            self.dirty = true;
        }
        self.reached = reached;
    }

    /// Something changed since the last call: the screen must be redrawn.
    pub fn take_dirty(&mut self) -> bool {
        std::mem::take(&mut self.dirty)
    }

    /// Asks for a full redraw.
    pub fn mark_dirty(&mut self) {
        self.dirty = true;
    }

    /// What the terminal was asked to do since the last call.
    pub fn take_requests(&mut self) -> Vec<Request> {
        std::mem::take(&mut self.requests)
    }

    /// Starts keeping every call for [`App::take_record`].
    pub fn start_recording(&mut self) {
        self.record.get_or_insert_with(Vec::new);
    }

    /// Stops keeping calls.
    pub fn stop_recording(&mut self) {
        self.record = None;
    }

    /// The calls recorded since the last time, oldest first.
    pub fn take_record(&mut self) -> Vec<Entry> {
        self.record.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// The progress and the lessons whose entry changed since the last
    /// call, when any did.
    pub fn take_progress(&mut self) -> Option<(&Progress, Vec<String>)> {
        let changed = std::mem::take(&mut self.progress_changed);
        (!changed.is_empty()).then_some((&self.progress, changed))
    }

    /// Notes that lesson `id`'s entry was saved
    /// ([`Progress::answers_saved`]).
    pub fn answers_saved(&mut self, id: &str) {
        self.progress.answers_saved(id);
    }

    /// Replaces the progress (a recording's, as its session began).
    pub fn set_progress(&mut self, progress: Progress) {
        self.progress = progress;
    }

    /// Side A's trace events since the last call, a batch for each world
    /// they came from, with its trace header and the names of its bdis (a
    /// restart, a change of patch level or a lesson opened from the list
    /// each begins another).
    pub fn take_trace(&mut self) -> Vec<TraceBatch> {
        self.stash_trace();
        std::mem::take(&mut self.trace_stash)
    }

    /// Sets aside the session's trace events before it is replaced.
    fn stash_trace(&mut self) {
        self.trace_stash.extend(self.session.take_trace());
    }

    /// Applies a recorded call.
    pub fn replay(&mut self, entry: Entry) {
        match entry {
            Entry::Advance(t) => self.advance_to(t),
            Entry::Key(_, msg) => {
                self.update(msg);
                if self.next_at_once {
                    self.finish_catch_up();
                }
            }
        }
    }

    // ---- the one place it changes ----------------------------------------------------

    /// Applies a message.
    pub fn update(&mut self, msg: Msg) {
        // Keys read in the frame of the quit, after it, are not taken
        // (nor recorded): a replay ends at the quit too.
        if self.quit {
            return;
        }
        self.passing_note.pass(&mut self.note);
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
        self.refresh_lesson();
        self.note_age_ns();
    }

    fn update_dashboard(&mut self, msg: Msg) {
        // The step's text over the whole body gives it back to the charts
        // on Esc (that alone; under the help, Esc closes the help) and on a
        // chart key (which goes on to show its chart).
        match msg {
            Msg::Back if !self.screen.help && self.lesson.as_mut().is_some_and(|m| m.leave_full()) => {
                self.note = self.charts_shown_note().into();
                return;
            }
            Msg::Zoom(_) => {
                if let Some(m) = self.lesson.as_mut() {
                    m.leave_full();
                }
            }
            _ => {}
        }
        match msg {
            Msg::AddDd
            | Msg::RemoveDd
            | Msg::DirtyRatio(_)
            | Msg::BackgroundRatio(_)
            | Msg::Memory(_)
            | Msg::Patches(_) => {
                let bdi = self.bdi;
                let dds = self.running_dds();
                let before = self.settings();
                // Against an old kernel (legacy, 2.6.38) the patch keys
                // move the series' side, B, alone (see `level_input`).
                // Levels compared side by side (patches=N) move together
                // or not at all, so that the opposite key undoes a move
                // (with B at 11, A went up from 3.1 to 01 alone, and P
                // then p left A 3.1 against B 10).
                let inputs: Vec<Option<Input>> =
                    self.sides().iter().enumerate().map(|(i, s)| self.level_input(msg, bdi, i, &s.world)).collect();
                // Memory too: both sides are one machine (in a comparison
                // of two dirty ratios, halving only one side's memory made
                // two machines of them without a word). And two sides'
                // ratios: one at its end held while the other moved on
                // made the two ratios compared one (`A dirty_ratio 0 vs B
                // 0`), as could a side's bytes made a ratio.
                let two = self.sides().len() > 1;
                let together = match msg {
                    Msg::Patches(_) => !self.against_old_kernel(),
                    Msg::Memory(_) => !self.keys_before_5,
                    Msg::DirtyRatio(_) | Msg::BackgroundRatio(_) => two && !self.keys_before_7,
                    _ => false,
                };
                let stuck = together
                    && (inputs.iter().any(Option::is_none)
                        || ratios_met(msg, self.sides(), &inputs)
                        || self.sides().iter().zip(&inputs).any(|(s, input)| !ratio_moves(msg, &s.world, input)));
                if !stuck {
                    self.session.apply_sides(|i, _| inputs[i].clone());
                }
                if msg == Msg::AddDd && !self.added_dd_waits {
                    // The dd runs from this instant: its row and the task
                    // table count it now, also while paused.
                    self.session.start_due();
                }
                self.note = self.change_note(msg, dds, &before);
                // A dd added or removed by hand: `r` takes it back, and says so.
                self.dds_by_hand |= matches!(msg, Msg::AddDd | Msg::RemoveDd) && self.running_dds() != dds;
                if let (Msg::Patches(_), Some(side)) = (msg, self.sides().last())
                    && self.level.is_some()
                {
                    // In a comparison of levels, side B's is the user's.
                    self.level = Some((side.world.patches(), side.world.legacy()));
                }
                self.note_changed_by_hand();
            }
            Msg::Quit => self.quit = true,
            Msg::TogglePause => {
                self.paused = !self.paused;
                self.note_running_on();
            }
            Msg::Step => {
                if self.paused {
                    let t = (self.session.sim_ns + NS_PER_SEC / 10).min(self.time_limit);
                    self.advance_inner(t);
                    self.stop_at_limit();
                } else {
                    // Until the next key, as a key that did nothing: it
                    // stayed on after space had paused.
                    self.passing_note.cover(&mut self.note, "single step works while paused (space)".into());
                }
            }
            Msg::Faster | Msg::Slower => {
                let (i, note) = step_speed(self.speed, msg == Msg::Faster);
                note_speed(&mut self.note, note);
                self.set_speed(i);
            }
            Msg::NextBdi | Msg::PrevBdi => {
                let n = self.world().bdis().len();
                if n == 1 {
                    // Said, so that the key is not taken for broken, until
                    // the next key, as for other keys that do nothing (it
                    // stood after `0` had changed the view).
                    let note = format!("{} is the only bdi", crate::session::bdi_label(self.world(), 0));
                    self.passing_note.cover(&mut self.note, note);
                }
                self.bdi = step_bdi(self.bdi, n, msg == Msg::NextBdi);
                if n > 1 {
                    // As on a trace: a narrow status line may have no
                    // room for its bdi segment beside a note.
                    self.note = format!("bdi {}", crate::session::bdi_label(self.world(), self.bdi));
                }
            }
            Msg::Lesson(m) => self.update_lesson(m),
            Msg::Window => {
                self.window = (self.window + 1) % WINDOWS.len();
                self.note = match (self.window_s(), self.kept_s()) {
                    (Some(s), _) => format!("chart window {}", window_name(s)),
                    // Not how far: that grows while the note stays (the
                    // status line's `window: last …` says it, live).
                    (None, Some(_)) => "chart window: as much of the run as is kept".into(),
                    (None, None) => "chart window: the whole run".into(),
                };
            }
            Msg::Compare => {
                self.cycle_compare();
                self.note_changed_by_hand();
            }
            Msg::Reset if self.lesson.is_some() => self.restart_step(),
            Msg::Reset => {
                // The scenario's own world: `c` started its sides from the
                // world the keys made, which `r` leaves, as it does
                // without `c`.
                let scenario = self.session.scenario.clone();
                // Paused by the time limit, whose note offered `r`: it
                // runs again, as it did before the limit stopped it.
                let at_limit = self.session.sim_ns >= self.time_limit;
                let before = (self.settings(), self.session.compare);
                let dds_by_hand = std::mem::take(&mut self.dds_by_hand);
                self.note = match self.session.reconfigure(scenario) {
                    Err(e) => e.to_string(),
                    Ok(()) => {
                        // Keys' changes are undone: said so (a class saw
                        // its patch level and ratios go back unexplained).
                        let how = if before == (self.settings(), self.session.compare) && !dds_by_hand {
                            "restarted"
                        } else {
                            "restarted with the scenario's own settings"
                        };
                        if at_limit {
                            self.paused = false;
                            format!("{how}, running again")
                        } else {
                            how.into()
                        }
                    }
                };
                self.bdi = self.bdi.min(self.world().bdis().len() - 1);
            }
            _ => self.update_view(msg),
        }
    }

    /// Messages that change only what is shown, not the worlds.
    fn update_view(&mut self, msg: Msg) {
        let live = || self.session.world().tasks().iter().filter(|t| t.alive()).count();
        if self.screen.apply(msg, live, &mut self.note, &mut self.passing_note) {
            return;
        }
        match msg {
            Msg::Snapshot => self.requests.push(Request::SaveSvg),
            // A simulation has no playhead to move.
            Msg::Seek(_) => {}
            Msg::Suspend => self.requests.push(Request::Suspend),
            _ => {}
        }
    }

    pub(super) fn set_speed(&mut self, i: usize) {
        self.speed = i;
        self.reached = None;
    }

    /// The dd tasks of the selected bdi that are running (side A's).
    fn running_dds(&self) -> usize {
        let dd = |t: &&crate::sim::task::Task| matches!(t.kind, TaskKind::Dd { .. });
        let bdi = self.bdi as u32;
        self.world().tasks().iter().filter(dd).filter(|t| t.bdi == bdi && t.alive() && !t.is_killed()).count()
    }

    /// Every side's settings the keys change: tunables, memory and kernel.
    fn settings(&self) -> Vec<Settings> {
        self.sides().iter().map(|s| settings_of(&s.world)).collect()
    }

    /// What the status line says after `msg`: the setting as it is now,
    /// and, when the key changed nothing (the settings as they were,
    /// `before`, are as they are), that it is at its end; `dds` is how
    /// many dd ran on the selected bdi before it.
    fn change_note(&self, msg: Msg, dds: usize, before: &[Settings]) -> String {
        let changed = before != self.settings();
        let w = self.world();
        let t = w.vm().tunables;
        let bdi = crate::session::bdi_label(w, self.bdi);
        let now = self.running_dds();
        let end = |up: bool, low: &str, high: &str| match changed {
            true => String::new(),
            false => format!(", {}", if up { high } else { low }),
        };
        match msg {
            Msg::AddDd if now > dds => format!("added a dd on {bdi}"),
            // The world's tasks keep their ids (the trace's pids) for the
            // run: one that exited still counts.
            Msg::AddDd => format!("no dd added: at most {MAX_TASKS} tasks a run{EXITED_COUNT}"),
            // Paused, it exits at its next event, when the world runs on.
            Msg::RemoveDd if now < dds && self.paused => {
                format!("removed a dd from {bdi}: paused, it exits at its next event")
            }
            Msg::RemoveDd if now < dds => format!("removed a dd from {bdi}"),
            Msg::RemoveDd => format!("no dd to remove on {bdi}"),
            // The kernel halves thresh for bg_thresh when the background
            // ratio is not below dirty_ratio: the note says why bg_thresh
            // did not follow.
            // Two sides set apart (a comparison of two dirty ratios): each
            // side's value, and which stayed at its end.
            Msg::DirtyRatio(d) | Msg::BackgroundRatio(d)
                if matches!(self.sides(), [a, b]
                    if ratio_setting(msg, &a.world.vm().tunables) != ratio_setting(msg, &b.world.vm().tunables)) =>
            {
                let name = if matches!(msg, Msg::DirtyRatio(_)) { "dirty_ratio" } else { "dirty_background_ratio" };
                let each: Vec<String> = self
                    .sides()
                    .iter()
                    .zip(before)
                    .zip(["A", "B"])
                    .map(|((side, was), label)| {
                        let t = side.world.vm().tunables;
                        let (value, bytes) = ratio_setting(msg, &t).expect("a ratio key");
                        let (old, _) = ratio_setting(msg, &was.0).expect("a ratio key");
                        let stays = match (bytes, value == old && (if d > 0 { old >= 100 } else { old == 0 })) {
                            (0, true) => format!(", {}", if d > 0 { "the highest" } else { "the lowest" }),
                            _ => String::new(),
                        };
                        let halved = background_halved(&t, side.world.vm().dirtyable());
                        format!("{label} {value}%{stays}{}", if halved { " (bg_thresh = thresh/2)" } else { "" })
                    })
                    .collect();
                let neither = if changed { "" } else { ": both move or neither, so that they stay apart" };
                format!("{name}: {}{neither}", each.join("; "))
            }
            Msg::DirtyRatio(d) | Msg::BackgroundRatio(d) => {
                // The sides share this ratio; in a comparison of the other
                // one, one side may be halved and not the other: the note
                // speaks of that side and names it.
                let halved: Vec<bool> = self
                    .sides()
                    .iter()
                    .map(|s| background_halved(&s.world.vm().tunables, s.world.vm().dirtyable()))
                    .collect();
                let (halved, t, on) = match halved[..] {
                    [a, b] if a != b => {
                        let i = usize::from(b);
                        (true, self.sides()[i].world.vm().tunables, [" on A", " on B"][i])
                    }
                    _ => (halved[0], t, ""),
                };
                let (name, value, than) = match msg {
                    Msg::DirtyRatio(_) => ("dirty_ratio", t.dirty_ratio, "≤ dirty_background_ratio"),
                    _ => ("dirty_background_ratio", t.dirty_background_ratio, "≥ dirty_ratio"),
                };
                let other_of = |t: &DirtyTunables| match msg {
                    Msg::DirtyRatio(_) => t.dirty_background_ratio,
                    _ => t.dirty_ratio,
                };
                // Halved on both sides, whose other ratios differ: each.
                let others: Vec<_> = self.sides().iter().map(|s| other_of(&s.world.vm().tunables)).collect();
                let other = match others[..] {
                    [a, b] if halved && on.is_empty() && a != b => format!("A {a}%, B {b}%"),
                    _ => format!("{}%", other_of(&t)),
                };
                let end = end(d > 0, "the lowest", "the highest");
                let ratios = t.dirty_bytes == 0 && t.dirty_background_bytes == 0;
                match (halved, ratios) {
                    // 'dirty_ratio 0% (the lowest) ≤ dirty_background_ratio 10%: ...'
                    (true, true) if !end.is_empty() => {
                        format!("{name} {value}% ({}) {than} {other}{on}{HALVED}", &end[2..])
                    }
                    (true, true) => format!("{name} {value}% {than} {other}{on}{HALVED}"),
                    // A byte setting on either side: the thresholds compared.
                    (true, false) => format!("{name} {value}%{end}, not below thresh{on}{HALVED}"),
                    (false, _) => format!("{name} {value}%{end}"),
                }
            }
            Msg::Memory(up) => {
                // Both sides move, or neither: the side that refused says why.
                let refused: Vec<usize> = match changed {
                    true => Vec::new(),
                    false => (0..self.sides().len())
                        .filter(|&i| input_for(msg, self.bdi, &self.sides()[i].world).is_none())
                        .collect(),
                };
                let (who, w) = match refused[..] {
                    [i] if self.sides().len() > 1 => (["A: ", "B: "][i], &self.sides()[i].world),
                    _ => ("", w),
                };
                let vm = w.vm();
                let memory = size((vm.memory_pages >> 8) as f64);
                let least = vm.memory_pages <= input::MIN_MEMORY_BYTES / crate::sim::kernel::PAGE_SIZE;
                match changed || up || least {
                    true => format!("memory {memory}{}", end(up, "the least", "the most")),
                    // Refused: its dirty pages would not fit in half.
                    false => format!(
                        "memory {memory}: {who}half would not hold its {} of dirty, writeback and unstable pages",
                        size(crate::units::mib(vm.nr_dirty()))
                    ),
                }
            }
            // Both sides move, or neither: the note names each, and when
            // neither moved, which was at its end.
            // Against an old kernel, B alone moves: at its end, nothing
            // did (`the series' side moves alone` read as if it had).
            Msg::Patches(up) if !changed && self.against_old_kernel() => {
                let [a, b] = [0, 1].map(|i| {
                    let w = &self.sides()[i].world;
                    level_name(w.patches(), w.legacy())
                });
                let end = if up { "highest" } else { "lowest" };
                format!("{PATCH_NOTE}B already at the series' {end}, {b}; A stays {a}")
            }
            Msg::Patches(up) if self.sides().len() > 1 => {
                let each: Vec<String> = self
                    .sides()
                    .iter()
                    .zip(["A", "B"])
                    .enumerate()
                    .map(|(i, (side, name))| {
                        let w = &side.world;
                        let end = match !changed && self.level_input(msg, self.bdi, i, w).is_none() {
                            true if up => ", the highest level",
                            true => ", the lowest level",
                            false => "",
                        };
                        format!("{name} {}{end}", level_name(w.patches(), w.legacy()))
                    })
                    .collect();
                let stay = match changed {
                    true => "",
                    false => ": both stay",
                };
                format!("{PATCH_NOTE}{}{stay}", each.join("; "))
            }
            Msg::Patches(up) => format!(
                "{PATCH_NOTE}{}{}",
                level_name(w.patches(), w.legacy()),
                end(up, "the lowest level", "the highest level")
            ),
            _ => String::new(),
        }
    }

    /// Two sides shown, an old kernel (legacy, 2.6.38) on the left
    /// against the series on the right.
    fn against_old_kernel(&self) -> bool {
        self.sides().len() > 1 && matches!(self.session.compare, Some(Compare::Legacy(_) | Compare::Linux2638(_)))
    }

    /// The change `msg` asks of side `i`'s world `w`, with `bdi` the
    /// selected bdi: against an old kernel the patch keys move the
    /// series' side alone, between patches 01 and 11; A stays the kernel
    /// it is compared with.
    fn level_input(&self, msg: Msg, bdi: usize, i: usize, w: &World) -> Option<Input> {
        match (self.against_old_kernel() && matches!(msg, Msg::Patches(_)), i, msg, w.patches()) {
            (true, 0, _, _) | (true, _, Msg::Patches(false), 1) => None,
            _ => input_for(msg, bdi, w),
        }
    }

    fn cycle_compare(&mut self) {
        let kept = self.kept_world();
        let (level, legacy) = self.level.unwrap_or((kept.patches, kept.legacy));
        let t = kept.tunables;
        let ratio = if t.dirty_bytes == 0 { t.dirty_ratio } else { 0 };
        let (next, said) = next_compare(self.session.compare, level, legacy, ratio);
        // Every side restarts from the user's world; off again, the one
        // world is theirs, at their level.
        self.session.config = WorldConfig { patches: level, legacy, ..kept };
        self.level = next.map(|_| (level, legacy));
        self.set_compare(next);
        if let Some(said) = said
            && next.is_some()
            && self.session.compare == next
        {
            self.note = format!("{}; {said}", self.note);
        }
    }

    /// The world a comparison `c` makes starts from: the session's, with
    /// what the keys changed in it: side A's tunables and memory, its
    /// patch level (side B's in a comparison of levels, where A's is the
    /// other), the dd removed left out and the dd added, from time 0. A
    /// task the scenario stops itself is kept: it stops again.
    fn kept_world(&self) -> WorldConfig {
        let sides = self.sides();
        let a = &sides[0].world;
        let b = match self.session.compare {
            Some(Compare::Legacy(_) | Compare::Linux2638(_) | Compare::Patch(_)) => &sides[sides.len() - 1].world,
            _ => a,
        };
        let mut cfg = self.session.config.clone();
        let vm = a.vm();
        cfg.tunables = vm.tunables;
        (cfg.memory_pages, cfg.reserved_pages) = (vm.memory_pages, vm.reserved_pages);
        (cfg.patches, cfg.legacy) = (b.patches(), b.legacy());
        let now = a.now_ns();
        let tasks = a.tasks().iter().enumerate().filter_map(|(i, t)| match cfg.tasks.get(i) {
            Some(c) => (!t.is_killed() || c.stop_ns.is_some_and(|s| s <= now)).then(|| c.clone()),
            None => (t.alive() && !t.is_killed()).then(|| TaskConfig {
                bdi: t.bdi as usize,
                kind: t.kind.clone(),
                start_ns: 0,
                stop_ns: None,
            }),
        });
        cfg.tasks = tasks.collect();
        cfg
    }

    /// What the keys can change of the worlds: every side's settings and
    /// dd on each bdi, and the comparison.
    pub(super) fn setup(&self) -> Setup {
        let dd = |t: &&crate::sim::task::Task| matches!(t.kind, TaskKind::Dd { .. }) && t.alive() && !t.is_killed();
        let dds = self.sides().iter().map(|s| {
            let mut per_bdi = vec![0; s.world.bdis().len()];
            for t in s.world.tasks().iter().filter(dd) {
                per_bdi[t.bdi as usize] += 1;
            }
            per_bdi
        });
        (self.settings(), dds.collect(), self.session.compare)
    }

    /// Notes, in a lesson, whether keys changed the step's worlds from
    /// the setup it opened on (or an earlier step's keys did), and says on
    /// the status line (once) how to get the step's own back.
    fn note_changed_by_hand(&mut self) {
        let now = self.setup();
        let Some(mode) = self.lesson.as_mut() else { return };
        let changed = mode.carried || mode.opened.as_ref().is_some_and(|opened| *opened != now);
        if changed && !mode.changed_by_hand {
            self.note.push_str("; r restores the step's own setup");
            // Keys pressed once the checks were judged leave the verdicts
            // as they were.
            mode.changed_after_end = mode.judged();
        }
        mode.changed_by_hand = changed;
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

    /// Advances every side to `t`. In a lesson, time stops at the end of
    /// the open step (which is judged there) unless the step auto-advances,
    /// in which case the next step opens.
    ///
    /// Time stops at the longest session a recording replays
    /// ([`crate::record::MAX_SESSION_NS`]): the world pauses there, with a
    /// note, and a call past it records nothing.
    pub fn advance_to(&mut self, t: u64) {
        // A note set since the last look is as old as now, not as the
        // world's time after this advance.
        self.note_age_ns();
        let t = t.min(self.time_limit);
        if self.session.sim_ns < self.time_limit {
            if let Some(log) = &mut self.record {
                log.push(Entry::Advance(t));
            }
            self.advance_inner(t);
        }
        self.stop_at_limit();
    }

    /// Pauses, saying why, once the worlds reached the time limit.
    fn stop_at_limit(&mut self) {
        if self.session.sim_ns >= self.time_limit {
            self.paused = true;
            self.dirty = true;
            self.note = format!(
                "paused at {} s, the longest a session runs (its recording replays that far): r restarts",
                self.time_limit / NS_PER_SEC
            );
        }
    }

    fn advance_inner(&mut self, t: u64) {
        if self.lesson_advance(t) && self.session.advance_to(t) {
            self.dirty = true;
            self.refresh_lesson();
        }
    }
}

/// What a world's setting keys change: its tunables, memory \[pages\],
/// patch level and the kernel under it.
type Settings = (DirtyTunables, u64, u8, crate::sim::config::Legacy);

/// What the keys can change of the worlds ([`App::setup`]).
pub(super) type Setup = (Vec<Settings>, Vec<Vec<usize>>, Option<Compare>);

fn settings_of(w: &World) -> Settings {
    (w.vm().tunables, w.vm().memory_pages, w.patches(), w.legacy())
}

/// Whether the kernel halves the background threshold of tunables `t`
/// over `dirtyable` pages: global_dirty_limits() does where it is not
/// below the dirty threshold, set in bytes or in ratios.
fn background_halved(t: &DirtyTunables, dirtyable: u64) -> bool {
    let raw = |bytes: u64, ratio: u64| match bytes {
        0 => ratio.wrapping_mul(dirtyable) / 100,
        b => b.div_ceil(crate::sim::kernel::PAGE_SIZE),
    };
    raw(t.dirty_background_bytes, t.dirty_background_ratio) >= raw(t.dirty_bytes, t.dirty_ratio)
}

/// A chart window as the status line names it: `30 s`, `5 min`.
pub fn window_name(s: u64) -> String {
    if s >= 60 && s.is_multiple_of(60) { format!("{} min", s / 60) } else { format!("{s} s") }
}

/// The setting of `t` that ratio key `msg` moves: (ratio \[%\], bytes).
fn ratio_setting(msg: Msg, t: &DirtyTunables) -> Option<(u64, u64)> {
    match msg {
        Msg::DirtyRatio(_) => Some((t.dirty_ratio, t.dirty_bytes)),
        Msg::BackgroundRatio(_) => Some((t.dirty_background_ratio, t.dirty_background_bytes)),
        _ => None,
    }
}

/// The ratio `input` sets \[%\], if it sets one.
fn ratio_set(input: &Option<Input>) -> Option<u64> {
    match input {
        Some(Input::DirtyRatio(r) | Input::DirtyBackgroundRatio(r)) => Some(*r),
        _ => None,
    }
}

/// Whether ratio key `msg`'s `input` changes `w`'s setting: not at 0
/// going down or at 100 going up (a setting in bytes moves: it becomes a
/// ratio). Other keys always do.
fn ratio_moves(msg: Msg, w: &World, input: &Option<Input>) -> bool {
    match (ratio_setting(msg, &w.vm().tunables), ratio_set(input)) {
        (Some((ratio, bytes)), Some(new)) => bytes > 0 || new != ratio,
        _ => true,
    }
}

/// Whether ratio key `msg`'s `inputs` would make two sides that differ
/// in the setting alike.
fn ratios_met(msg: Msg, sides: &[Side], inputs: &[Option<Input>]) -> bool {
    let before: Vec<_> = sides.iter().map(|s| ratio_setting(msg, &s.world.vm().tunables)).collect();
    let after: Vec<_> = inputs.iter().map(ratio_set).collect();
    matches!((&before[..], &after[..]), ([a, b], [Some(x), Some(y)]) if a != b && x == y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::presets;
    use crate::sim::config::Legacy;

    #[test]
    fn a_passing_note_puts_back_what_it_covered_unless_another_came() {
        let (mut p, mut status) = (PassingNote::default(), "step done".to_string());
        p.cover(&mut status, "6 is not a key here".into());
        p.cover(&mut status, "x is not a key here".into());
        assert!(p.shown(&status));
        p.pass(&mut status);
        assert_eq!(status, "step done", "the first note covered, back");
        p.cover(&mut status, "6 is not a key here".into());
        status = "dirty_ratio 21".into();
        p.pass(&mut status);
        assert_eq!(status, "dirty_ratio 21", "a note set meanwhile stays");
        assert!(!p.shown(&status));
        // A progress note goes under a passing one, and shows once it passes.
        p.cover(&mut status, "a answers once the step opens".into());
        p.under(&mut status, "running: 3.0 of 40.0 s".into());
        assert_eq!(status, "a answers once the step opens");
        p.pass(&mut status);
        assert_eq!(status, "running: 3.0 of 40.0 s");
        p.under(&mut status, "running: 3.1 of 40.0 s".into());
        assert_eq!(status, "running: 3.1 of 40.0 s");
    }

    fn app() -> App {
        let opts = AppOptions::default();
        App::new(presets::get("default").expect("preset").expect("valid"), None, &opts).expect("builds")
    }

    #[test]
    fn keys_after_the_quit_are_neither_taken_nor_recorded() {
        // `q` then `+` read in one frame: the session ends as a replay of
        // its recording does, at the quit.
        let mut a = app();
        a.start_recording();
        let tasks = a.world().tasks().len();
        a.update(Msg::Quit);
        a.update(Msg::AddDd);
        assert!(a.quit_requested());
        assert_eq!(a.world().tasks().len(), tasks);
        assert_eq!(a.take_record(), vec![Entry::Key(0, Msg::Quit)]);
    }

    #[test]
    fn esc_with_nothing_to_close_says_so_until_the_next_key() {
        let mut a = app();
        a.update(Msg::Zoom(2));
        a.update(Msg::Back);
        assert_eq!(a.screen.zoom, None);
        assert_eq!(a.note(), "", "it closed the chart: nothing to say");
        a.update(Msg::Back);
        assert_eq!(a.note(), "nothing to close: no chart is shown alone, no help open (1-5 zooms a chart)");
        a.update(Msg::Zoom(3));
        assert_eq!(a.note(), "", "passed with the next key");
    }

    #[test]
    fn keys_change_the_running_world() {
        let mut a = app();
        a.advance_to(2 * NS_PER_SEC);
        a.update(Msg::AddDd);
        assert_eq!(a.world().tasks().iter().filter(|t| t.alive()).count(), 2);
        assert_eq!(a.note(), "added a dd on sda (HDD)");
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
    fn the_note_says_when_a_dd_key_changed_nothing() {
        let mut a = app();
        a.advance_to(NS_PER_SEC);
        a.update(Msg::RemoveDd);
        assert_eq!(a.note(), "removed a dd from sda (HDD)");
        a.update(Msg::RemoveDd);
        assert_eq!(a.note(), "no dd to remove on sda (HDD)");
        a.update(Msg::AddDd);
        assert_eq!(a.note(), "added a dd on sda (HDD)");
        a.update(Msg::RemoveDd);
        assert_eq!(a.note(), "removed a dd from sda (HDD)");
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
        assert_eq!(a.note(), "patch level: legacy 2.6.38 (IO-full), the lowest level");
        a.update(Msg::Patches(true));
        assert_eq!((a.world().patches(), a.world().legacy()), (0, Legacy::Linux31));
        for _ in 0..20 {
            a.update(Msg::Patches(true));
        }
        assert_eq!((a.world().patches(), a.world().legacy()), (11, Legacy::Linux31));
    }

    /// The comparisons of levels are about the level the user chose, and
    /// say so when it cannot be the one compared.
    #[test]
    fn compare_levels_follow_the_level_chosen() {
        let l31 = Legacy::Linux31;
        assert_eq!(next_compare(None, 9, l31, 20), (Some(Compare::Legacy(9)), None));
        assert_eq!(next_compare(Some(Compare::Linux2638(9)), 9, l31, 20), (Some(Compare::Patch(9)), None));
        let (c, said) = next_compare(None, 3, l31, 20);
        assert_eq!(c, Some(Compare::Legacy(11)));
        assert_eq!(said.as_deref(), Some("your patch 03 is IO-full: the IO-less side is patch 11"));
        let (c, said) = next_compare(Some(Compare::Linux2638(11)), 0, Legacy::Linux2638, 20);
        assert_eq!(c, Some(Compare::Patch(1)));
        assert_eq!(said.as_deref(), Some("your legacy 2.6.38 has no level below it: patch 01 against legacy 3.1"));
        assert_eq!(next_compare(Some(Compare::Patch(9)), 9, l31, 23).0, Some(Compare::DirtyRatio(11)));
        assert_eq!(next_compare(Some(Compare::Patch(9)), 9, l31, 0).0, Some(Compare::DirtyRatio(20)));
        assert_eq!(next_compare(Some(Compare::DirtyRatio(11)), 9, l31, 23).0, None);
    }

    /// `c` keeps what the keys changed, on both sides, and gives it back
    /// to the one world when the comparison ends.
    #[test]
    fn compare_keeps_the_world_the_keys_made() {
        let mut a = app();
        a.advance_to(NS_PER_SEC);
        for msg in [Msg::DirtyRatio(3), Msg::BackgroundRatio(-2), Msg::Memory(true), Msg::AddDd, Msg::Patches(false)] {
            a.update(msg);
        }
        let want = (a.world().vm().tunables, a.world().vm().memory_pages, a.running_dds());
        a.update(Msg::Compare);
        assert_eq!(a.sim_ns(), 0);
        for side in a.sides() {
            let w = &side.world;
            assert_eq!((w.vm().tunables, w.vm().memory_pages), (want.0, want.1), "{}", side.label);
            assert_eq!(w.tasks().len(), want.2, "{}", side.label);
        }
        assert_eq!(a.sides()[1].world.patches(), 10);
        for _ in 0..4 {
            a.update(Msg::Compare);
        }
        assert_eq!(a.sides().len(), 1);
        let w = a.world();
        assert_eq!((w.vm().tunables, w.vm().memory_pages, w.patches()), (want.0, want.1, 10));
        // `r` restarts the scenario's own world, as it does without `c`.
        let own = app();
        a.update(Msg::Reset);
        let (w, o) = (a.world(), own.world());
        assert_eq!(
            (w.vm().tunables, w.vm().memory_pages, w.patches()),
            (o.vm().tunables, o.vm().memory_pages, o.patches())
        );
        assert_eq!(w.tasks().len(), o.tasks().len());
    }

    /// Two dirty ratios compared: memory moves on both sides or on
    /// neither (side B, at 80%, held too many dirty pages to halve, and
    /// only A halved); the ratio keys name each side's value.
    #[test]
    fn two_ratios_compared_keep_one_memory_and_name_both_ratios() {
        let opts = AppOptions::default();
        let default = presets::get("default").expect("preset").expect("valid");
        let mut a = App::new(default, Some(Compare::DirtyRatio(80)), &opts).expect("builds");
        a.advance_to(30 * NS_PER_SEC);
        let memory = |a: &App| a.sides().iter().map(|s| s.world.vm().memory_pages).collect::<Vec<_>>();
        let was = memory(&a);
        a.update(Msg::Memory(false));
        assert_eq!(memory(&a), was, "B cannot halve, so neither does");
        assert!(a.note().starts_with("memory 4096 MiB: B: half would not hold its "), "{}", a.note());
        a.update(Msg::Memory(true));
        assert_eq!(memory(&a), was.iter().map(|m| m * 2).collect::<Vec<_>>());
        a.update(Msg::DirtyRatio(1));
        assert_eq!(a.note(), "dirty_ratio: A 21%; B 81%");
        for _ in 0..20 {
            a.update(Msg::DirtyRatio(1));
        }
        // B reached 100% with A at 40%: A does not move on alone.
        assert_eq!(a.note(), "dirty_ratio: A 40%; B 100%, the highest: both move or neither, so that they stay apart");
        // Down to the lowest: the two ratios stay apart, never one world.
        let default = presets::get("default").expect("preset").expect("valid");
        let mut a = App::new(default.clone(), Some(Compare::DirtyRatio(10)), &opts).expect("builds");
        let ratios = |a: &App| a.sides().iter().map(|s| s.world.vm().tunables.dirty_ratio).collect::<Vec<_>>();
        for _ in 0..25 {
            a.update(Msg::DirtyRatio(-1));
        }
        assert_eq!(ratios(&a), [10, 0]);
        assert_eq!(
            a.note(),
            "dirty_ratio: A 10% (bg_thresh = thresh/2); B 0%, the lowest (bg_thresh = thresh/2): both move or \
             neither, so that they stay apart"
        );
        a.update(Msg::DirtyRatio(1));
        assert_eq!(ratios(&a), [11, 1]);
        // A side in bytes whose ratio the key would make the other's.
        let mut bytes = presets::get("default").expect("preset").expect("valid");
        bytes.dirty_bytes = Some(760 << 20);
        let mut a = App::new(bytes, Some(Compare::DirtyRatio(20)), &opts).expect("builds");
        let setting = |a: &App| {
            a.sides().iter().map(|s| ratio_setting(Msg::DirtyRatio(1), &s.world.vm().tunables)).collect::<Vec<_>>()
        };
        let was = setting(&a);
        assert_eq!(was[1], Some((20, 0)));
        a.update(Msg::DirtyRatio(1));
        assert_eq!(setting(&a), was, "A's 760 MiB would be 21% as B's 20% became 21%");
        // In a recording of key format 6, A went on alone.
        let old = AppOptions { keys_before_7: true, ..AppOptions::default() };
        let mut a = App::new(default, Some(Compare::DirtyRatio(10)), &old).expect("builds");
        for _ in 0..25 {
            a.update(Msg::DirtyRatio(-1));
        }
        assert_eq!(ratios(&a), [0, 0]);
        // A side whose background threshold halves says so.
        let default = presets::get("default").expect("preset").expect("valid");
        let mut a = App::new(default, Some(Compare::DirtyRatio(10)), &opts).expect("builds");
        a.update(Msg::DirtyRatio(-1));
        assert_eq!(a.note(), "dirty_ratio: A 19%; B 9% (bg_thresh = thresh/2)");
        // A background ratio both sides share, halved on one side only:
        // the note names that side (it spoke of A's, not halved).
        let default = presets::get("default").expect("preset").expect("valid");
        let mut a = App::new(default, Some(Compare::DirtyRatio(10)), &opts).expect("builds");
        a.update(Msg::BackgroundRatio(1));
        assert_eq!(a.note(), "dirty_background_ratio 11% ≥ dirty_ratio 10% on B: bg_thresh = thresh/2");
        // Halved on both: each side's dirty_ratio.
        for _ in 0..9 {
            a.update(Msg::BackgroundRatio(1));
        }
        assert_eq!(a.note(), "dirty_background_ratio 20% ≥ dirty_ratio A 20%, B 10%: bg_thresh = thresh/2");
        // Memory in a format 4 recording: each side that can halve does.
        let default = presets::get("default").expect("preset").expect("valid");
        let old = AppOptions { keys_before_5: true, ..AppOptions::default() };
        let mut a = App::new(default, Some(Compare::DirtyRatio(80)), &old).expect("builds");
        a.advance_to(30 * NS_PER_SEC);
        let was = memory(&a);
        a.update(Msg::Memory(false));
        assert_eq!(memory(&a), vec![was[0] / 2, was[1]], "format 4: A halved alone");
    }

    /// With dirty_bytes set, a background ratio above it halves too, and
    /// the note says so (it named the ratio, bg_thresh unmoved); the step
    /// key's note while running passes with the next key.
    #[test]
    fn a_background_ratio_over_dirty_bytes_says_it_is_halved() {
        let opts = AppOptions::default();
        let nfs = presets::get("nfs-10dd").expect("preset").expect("valid");
        let mut a = App::new(nfs, None, &opts).expect("builds");
        a.update(Msg::BackgroundRatio(1));
        assert_eq!(a.note(), "dirty_background_ratio 11%, not below thresh: bg_thresh = thresh/2");
        let mut a = app();
        a.update(Msg::Step);
        assert_eq!(a.note(), "single step works while paused (space)");
        a.update(Msg::TogglePause);
        assert_eq!(a.note(), "");
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
        // 0 as --dirty-ratio and the d key take it; 101 as neither does.
        assert_eq!(Compare::parse("dirty-ratio=0"), Ok(Compare::DirtyRatio(0)));
        assert_eq!(Compare::parse("dirty-ratio=30%"), Ok(Compare::DirtyRatio(30)));
        assert!(Compare::parse("patches=5%").is_err());
        assert!(Compare::parse("dirty-ratio=101").is_err());
    }

    #[test]
    fn speeds_step_1_2_5_from_a_tenth_to_unbounded() {
        let mut a = app();
        for _ in 0..30 {
            a.update(Msg::Slower);
        }
        assert_eq!(a.speed(), 0.1);
        let mut seen = vec![a.speed()];
        for _ in 0..30 {
            a.update(Msg::Faster);
            seen.push(a.speed());
        }
        seen.dedup();
        assert_eq!(&seen[..7], &[0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0]);
        assert!(a.speed().is_infinite());
    }

    #[test]
    fn a_speed_note_goes_when_the_speed_moves_off_its_end() {
        let mut a = app();
        for _ in 0..SPEEDS.len() {
            a.update(Msg::Faster);
        }
        assert_eq!(a.note(), "already as fast as possible");
        a.update(Msg::Slower);
        assert_eq!((a.speed(), a.note()), (1000.0, ""));
        for _ in 0..SPEEDS.len() {
            a.update(Msg::Slower);
        }
        assert_eq!(a.note(), "0.1× is the slowest");
        a.update(Msg::Faster);
        assert_eq!((a.speed(), a.note()), (0.2, ""));
        // A note of another change stays up, as before.
        a.update(Msg::AddDd);
        a.update(Msg::Faster);
        assert_eq!(a.note(), "added a dd on sda (HDD)");
    }

    #[test]
    fn terminal_requests_wait_for_the_terminal() {
        let mut a = app();
        a.update(Msg::Snapshot);
        a.update(Msg::Suspend);
        assert_eq!(a.take_requests(), vec![Request::SaveSvg, Request::Suspend]);
        assert!(a.take_requests().is_empty());
    }

    #[test]
    fn time_stops_at_the_longest_session_a_recording_replays() {
        let a = app();
        assert_eq!(a.time_limit, crate::record::MAX_SESSION_NS);
        // The same rule at a limit a test can reach.
        let mut a = app();
        a.time_limit = 10 * NS_PER_SEC;
        a.start_recording();
        a.advance_to(8 * NS_PER_SEC);
        assert!(!a.paused());
        a.advance_to(18 * NS_PER_SEC);
        assert_eq!(a.sim_ns(), 10 * NS_PER_SEC);
        assert!(a.paused());
        assert_eq!(a.note(), "paused at 10 s, the longest a session runs (its recording replays that far): r restarts");
        assert_eq!(a.take_record(), vec![Entry::Advance(8 * NS_PER_SEC), Entry::Advance(10 * NS_PER_SEC)]);
        // Going on asks for time past it: nothing moves, nothing is recorded.
        a.update(Msg::TogglePause);
        a.advance_to(11 * NS_PER_SEC);
        a.update(Msg::Step);
        assert_eq!((a.sim_ns(), a.paused()), (10 * NS_PER_SEC, true));
        assert_eq!(
            a.take_record(),
            vec![Entry::Key(10 * NS_PER_SEC, Msg::TogglePause), Entry::Key(10 * NS_PER_SEC, Msg::Step)]
        );
        // A restart starts the clock again, running (the limit paused it).
        a.update(Msg::Reset);
        assert_eq!((a.paused(), a.note()), (false, "restarted, running again"));
        a.advance_to(NS_PER_SEC);
        assert_eq!((a.sim_ns(), a.paused()), (NS_PER_SEC, false));
    }

    /// `r` says when it takes back what keys changed: a class saw its
    /// patch level, ratios and dd go back under a plain `restarted`.
    #[test]
    fn a_restart_says_it_undid_the_keys() {
        let mut a = app();
        a.advance_to(NS_PER_SEC);
        a.update(Msg::Reset);
        assert_eq!(a.note(), "restarted");
        for keys in [&[Msg::DirtyRatio(1)][..], &[Msg::AddDd], &[Msg::Patches(false)]] {
            a.advance_to(a.sim_ns() + NS_PER_SEC);
            keys.iter().for_each(|&k| a.update(k));
            a.update(Msg::Reset);
            assert_eq!(a.note(), "restarted with the scenario's own settings", "{keys:?}");
            a.advance_to(a.sim_ns() + NS_PER_SEC);
            a.update(Msg::Reset);
            assert_eq!(a.note(), "restarted", "{keys:?} taken back once");
        }
    }

    #[test]
    fn a_dd_added_by_a_key_counts_in_that_instant_s_sample() {
        let last = |a: &App| {
            let s = a.world().samples().back().expect("sample");
            (s.t_ns, s.bdis[0].tasks, a.sides()[0].task_counts.live)
        };
        let mut a = app();
        a.advance_to(2 * NS_PER_SEC + 5_000_000);
        a.update(Msg::TogglePause);
        a.update(Msg::AddDd);
        assert_eq!(last(&a), (2 * NS_PER_SEC + 5_000_000, 2, 2), "the row and the task table count it at once");
        // As recordings of key format 2 replay: the dd starts at the next
        // step of time.
        let opts = AppOptions { added_dd_waits: true, ..AppOptions::default() };
        let mut a = App::new(presets::get("default").expect("preset").expect("valid"), None, &opts).expect("app");
        a.advance_to(2 * NS_PER_SEC + 5_000_000);
        a.update(Msg::AddDd);
        assert_eq!(last(&a), (2 * NS_PER_SEC + 5_000_000, 1, 1));
        a.advance_to(2 * NS_PER_SEC + 6_000_000);
        assert_eq!(a.world().tasks().iter().filter(|t| t.stats.started_ns.is_some()).count(), 2);
    }

    #[test]
    fn the_window_key_names_the_window_it_chose() {
        let mut a = app();
        assert_eq!(a.window_s(), Some(60));
        a.update(Msg::Window);
        assert_eq!((a.window_s(), a.note()), (Some(300), "chart window 5 min"));
        a.update(Msg::Window);
        assert_eq!(a.window_s(), None);
    }
}
