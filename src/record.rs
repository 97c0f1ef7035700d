//! Recording a dashboard or lesson session and replaying it.
//!
//! A recording is JSON Lines: a header with everything the session started
//! from (the scenario or lesson, the comparison, the lesson progress), then
//! one line per call into the app ([`Entry`]): each time advance and each
//! key, in order. The simulation is deterministic, so replaying the calls
//! reproduces the session exactly, down to the bytes of its trace. Lines are
//! flushed as they are written, so the recording of a session that crashed
//! is good up to the crash.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::app::{App, AppOptions, Entry, ThemeKind};
use crate::lesson::Lesson;
use crate::lesson::progress::Progress;
use crate::scenario::Scenario;
use crate::session::{Compare, level_name};
use crate::sim::trace::TraceEvent;

/// How a recorded session began.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
pub enum Start {
    /// The dashboard on a scenario, perhaps comparing.
    Dashboard {
        /// The scenario, with the command line's overrides applied.
        scenario: Box<Scenario>,
        /// `--compare`, as the command line spells it.
        compare: Option<String>,
    },
    /// A lesson at a step, perhaps with the lesson list open.
    Lesson {
        /// The lesson.
        lesson: Box<Lesson>,
        /// The step it opened at (0-based).
        step: usize,
        /// The lesson list was open with this lesson selected.
        picker: Option<usize>,
    },
}

/// The first line of a recording.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
pub struct Header {
    /// The version that recorded it.
    pub dirtyviz: String,
    /// How the session began.
    pub start: Start,
    /// The lesson progress the session started with (it decides where a
    /// lesson opened from the list starts).
    pub progress: Progress,
}

impl Header {
    /// The header of a session about to start on `app`.
    pub fn of(app: &App) -> Header {
        let start = match app.lesson() {
            Some(mode) => Start::Lesson {
                lesson: Box::new(mode.run().lesson.clone()),
                step: mode.run().step,
                picker: app.picker().map(|p| p.selected),
            },
            None => Start::Dashboard {
                scenario: Box::new(app.session().scenario.clone()),
                compare: app.session().compare.map(|c| c.to_string()),
            },
        };
        Header { dirtyviz: env!("CARGO_PKG_VERSION").to_string(), start, progress: app.progress().clone() }
    }

    /// The app as the recorded session started: same worlds, lesson step,
    /// lesson list and progress; side A traced if `trace` is set.
    pub fn app(&self, theme: ThemeKind, trace: bool) -> Result<App, String> {
        let opts = AppOptions { theme, trace, ..AppOptions::default() };
        let progress = self.progress.clone();
        let mut app = match &self.start {
            Start::Dashboard { scenario, compare } => {
                let compare = compare.as_deref().map(Compare::parse).transpose()?;
                App::new(scenario.as_ref().clone(), compare, &opts).map_err(|e| e.0)?
            }
            Start::Lesson { lesson, step, picker } => {
                let mut app =
                    App::for_lesson(lesson.as_ref().clone(), *step, progress.clone(), &opts).map_err(|e| e.0)?;
                if let Some(selected) = picker {
                    let lessons = Lesson::all_shipped().map_err(|e| e.0)?;
                    app.open_picker(lessons, *selected).map_err(|e| format!("the recording's {e}"))?;
                }
                app
            }
        };
        app.set_progress(progress);
        Ok(app)
    }
}

/// Writes a recording as the session goes.
pub struct Recorder {
    out: BufWriter<File>,
    path: PathBuf,
}

impl Recorder {
    /// Creates `path` and writes the header.
    pub fn create(path: &Path, header: &Header) -> Result<Recorder, String> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        let file = File::create(path).map_err(|e| format!("{}: cannot create: {e}", path.display()))?;
        let mut r = Recorder { out: BufWriter::new(file), path: path.to_path_buf() };
        let line = serde_json::to_string(header).map_err(|e| e.to_string())?;
        r.line(&line)?;
        Ok(r)
    }

    /// Appends entries.
    pub fn write(&mut self, entries: &[Entry]) -> Result<(), String> {
        for e in entries {
            let line = serde_json::to_string(e).map_err(|e| e.to_string())?;
            self.line(&line)?;
        }
        Ok(())
    }

    fn line(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.out, "{line}")
            .and_then(|_| self.out.flush())
            .map_err(|e| format!("{}: write failed: {e}", self.path.display()))
    }

    /// Where it writes.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Reads a recording: its header and its entries.
pub fn load(path: &Path) -> Result<(Header, Vec<Entry>), String> {
    let file = File::open(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let mut lines = BufReader::new(file).lines().enumerate();
    let at = |n: usize, e: &dyn std::fmt::Display| format!("{}:{}: {e}", path.display(), n + 1);
    let (n, first) = lines.next().ok_or_else(|| format!("{}: empty, not a recording", path.display()))?;
    let first = first.map_err(|e| at(n, &e))?;
    let header: Header = serde_json::from_str(&first).map_err(|e| at(n, &format!("not a recording header: {e}")))?;
    let mut entries = Vec::new();
    for (n, line) in lines {
        let line = line.map_err(|e| at(n, &e))?;
        if line.trim().is_empty() {
            continue;
        }
        entries.push(serde_json::from_str(&line).map_err(|e| at(n, &format!("not a recorded call: {e}")))?);
    }
    Ok((header, entries))
}

/// Writes a session's trace as JSON Lines, in the format of `dirtyviz run
/// --trace`: a header line, then the events.
pub struct TraceWriter {
    out: BufWriter<File>,
    path: PathBuf,
}

impl TraceWriter {
    /// Creates `path` and writes the header for `app`'s side A.
    pub fn create(path: &Path, app: &App) -> Result<TraceWriter, String> {
        let file = File::create(path).map_err(|e| format!("{}: cannot create: {e}", path.display()))?;
        let mut w = TraceWriter { out: BufWriter::with_capacity(1 << 16, file), path: path.to_path_buf() };
        let s = &app.session().scenario;
        crate::run::write_trace_header(&mut w.out, app.world(), s.seed, &s.name).map_err(|e| w.err(e))?;
        Ok(w)
    }

    fn err(&self, e: std::io::Error) -> String {
        format!("{}: write failed: {e}", self.path.display())
    }

    /// Writes what `app` traced since the last call.
    pub fn drain(&mut self, app: &mut App) -> Result<(), String> {
        for (names, events) in app.take_trace() {
            self.write(&events, &names)?;
        }
        Ok(())
    }

    /// Writes events with the bdi names of the world that made them.
    pub fn write(&mut self, events: &[TraceEvent], names: &[String]) -> Result<(), String> {
        for e in events {
            crate::run::write_event(&mut self.out, e, names).map_err(|e| self.err(e))?;
        }
        Ok(())
    }

    /// Flushes the file.
    pub fn finish(&mut self) -> Result<(), String> {
        self.out.flush().map_err(|e| self.err(e))
    }
}

/// What a replay did.
#[derive(Clone, Debug, PartialEq)]
pub struct Replayed {
    /// Calls replayed.
    pub calls: usize,
    /// Of which key presses.
    pub keys: usize,
    /// Simulated time at the end [ns].
    pub sim_ns: u64,
    /// The patch level side A ended at.
    pub level: String,
}

/// Replays the recording at `path` headless, writing the trace of side A
/// to `trace` if given.
pub fn replay(path: &Path, trace: Option<&Path>) -> Result<Replayed, String> {
    let (header, entries) = load(path)?;
    let mut app = header.app(ThemeKind::Mono, trace.is_some())?;
    let mut out = trace.map(|t| TraceWriter::create(t, &app)).transpose()?;
    for e in &entries {
        app.replay(*e);
        if let Some(w) = &mut out {
            w.drain(&mut app)?;
        }
        if app.quit_requested() {
            break;
        }
    }
    if let Some(w) = &mut out {
        w.drain(&mut app)?;
        w.finish()?;
    }
    Ok(Replayed {
        calls: entries.len(),
        keys: entries.iter().filter(|e| matches!(e, Entry::Key(..))).count(),
        sim_ns: app.sim_ns(),
        level: level_name(app.world().patches(), app.world().legacy()),
    })
}
