//! Recording a dashboard or lesson session and replaying it.
//!
//! A recording is JSON Lines: a header with everything the session started
//! from (the scenario or lesson, the comparison, the lesson progress), then
//! one line per call into the app ([`Entry`]): each time advance and each
//! key, in order. The simulation is deterministic, so replaying the calls
//! reproduces the session exactly, down to the bytes of its trace. Lines are
//! flushed as they are written, so the recording of a session that crashed
//! is good up to the crash.
//!
//! Where recordings go:
//! - `--record FILE`: when there is no FILE, created and written in place
//!   (a session killed outright leaves its recording there); when there
//!   is one, written like every output: a temporary file beside it,
//!   `.FILE.dirtyviz-PID-N.tmp`, renamed over FILE when the session ends,
//!   also when it crashes. A session that fails to start leaves FILE as it
//!   was (none, or the one there).
//! - by default, each session its own file in the data directory,
//!   `sessions/<start time>-<pid>.jsonl` (the last [`KEEP_SESSIONS`] are
//!   kept, and those of sessions still running), and when it ends (also by a crash) `last-session.jsonl` becomes
//!   a link to it, replaced in one step: two sessions at once never mix,
//!   and a session that fails to start touches neither.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::app::{App, AppOptions, Entry, ThemeKind};
use crate::error::{Error, Result};
use crate::input::{Lines, MAX_RECORDING_BYTES, MAX_RON_BYTES};
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

/// What the keys of a recording mean: raised whenever a key's effect
/// changes, so that a replay can say a recording meant other things. 2: in
/// a lesson, `n` before the step's time is up runs the rest of the step
/// first, and `r` restarts the open step (1: `n` moved on at once, `r`
/// restarted the bare scenario). 3: the dd `+` adds starts at that
/// instant (before: at the next step of time, which a replay of an older
/// recording still does, [`AppOptions::added_dd_waits`]). 4: `c` starts
/// its sides from the world the keys made, and "patch N-1 vs N" is about
/// the level chosen (before: from the scenario's world, patch 10 vs 11);
/// in a lesson, `n` before the step's time is up runs the rest of the step
/// over the next frames, and `N`, `r` and a lesson resumed from the list
/// replay the lesson up to the step over them (before: at once, which a
/// replay of an older recording still does, [`AppOptions::next_at_once`]).
/// 5: in a lesson, `n` after the worlds ran on past a step's end opens the
/// next step at that end, the lesson replayed up to it, and Esc in an
/// answer gives up the question Tab moved to; in a comparison,
/// the memory keys move both sides or neither (before: the next step
/// opened on the worlds as they were, and each side that could halve
/// did, which a replay of an older recording still does,
/// [`AppOptions::keys_before_5`]).
/// 6: with the help open over the lesson list, Esc and 0 close the help
/// (before: the list, the help left open; [`AppOptions::keys_before_6`]).
/// 7: in a lesson, a step opened again has the answers given to it back
/// (`N` then `n`), and `r` gives them up; in a comparison, the ratio keys
/// move both sides or neither, and never to one value where they differ
/// (before: every opening started with none, and a side went on alone once
/// the other was at its end; [`AppOptions::keys_before_7`]).
/// 8: in a lesson, the dd a step adds start at the instant it opens, as
/// `+`'s do (before: at the next step of time;
/// [`AppOptions::keys_before_8`]).
/// 9: a lesson step opened has the answers the progress in the
/// recording's header kept for it, also those of an earlier session
/// (recordings of format 8 carry none, so they replay as before).
pub const KEYS_FORMAT: u32 = 9;

/// The oldest key format a replay follows exactly: keys of older ones
/// meant other things ([`KEYS_FORMAT`]).
pub const KEYS_FORMAT_REPLAYED: u32 = 2;

/// Recordings older than the format number.
fn keys_format_1() -> u32 {
    1
}

/// The first line of a recording.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
pub struct Header {
    /// The version that recorded it.
    pub dirtyviz: String,
    /// What its keys mean ([`KEYS_FORMAT`] when it was recorded).
    #[serde(default = "keys_format_1")]
    pub keys_format: u32,
    /// How the session began.
    pub start: Start,
    /// The lesson progress the session started with (it decides where a
    /// lesson opened from the list starts).
    pub progress: Progress,
    /// The seed every lesson ran with instead of its own (`lesson
    /// --seed`), also one opened from the lesson list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lesson_seed: Option<u64>,
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
        Header {
            dirtyviz: env!("CARGO_PKG_VERSION").to_string(),
            keys_format: KEYS_FORMAT,
            start,
            progress: app.progress().clone(),
            lesson_seed: app.lesson_seed(),
        }
    }

    /// The app as the recorded session started: same worlds, lesson step,
    /// lesson list and progress; side A traced if `trace` is set.
    pub fn app(&self, theme: ThemeKind, trace: bool) -> Result<App> {
        let (added_dd_waits, next_at_once, keys_before_5, keys_before_6, keys_before_7, keys_before_8) = (
            self.keys_format < 3,
            self.keys_format < 4,
            self.keys_format < 5,
            self.keys_format < 6,
            self.keys_format < 7,
            self.keys_format < 8,
        );
        let opts = AppOptions {
            theme,
            trace,
            seed: self.lesson_seed,
            added_dd_waits,
            next_at_once,
            keys_before_5,
            keys_before_6,
            keys_before_7,
            keys_before_8,
            ..AppOptions::default()
        };
        let progress = self.progress.clone();
        let mut app = match &self.start {
            Start::Dashboard { scenario, compare } => {
                let compare = compare.as_deref().map(Compare::parse).transpose()?;
                App::new(scenario.as_ref().clone(), compare, &opts)?
            }
            Start::Lesson { lesson, step, picker } => {
                let mut app = App::for_lesson(lesson.as_ref().clone(), *step, progress.clone(), &opts)?;
                if let Some(selected) = picker {
                    let lessons = Lesson::all_shipped()?;
                    app.open_picker(lessons, *selected).map_err(|e| Error::invalid(format!("the recording's {e}")))?;
                }
                app
            }
        };
        app.set_progress(progress);
        Ok(app)
    }
}

/// Session recordings kept in the data directory's `sessions/`.
pub const KEEP_SESSIONS: usize = 20;

/// Where a recording's lines go.
enum Sink {
    /// `--record FILE` over a file that was there: renamed into place at
    /// the end.
    Output(crate::output::AtomicFile),
    /// `--record FILE` where there was none: written in place from the
    /// start, so that a session killed outright leaves its recording
    /// under FILE.
    New(BufWriter<File>),
    /// The session's own file in `sessions/`, not created before the
    /// first entry (a session that never starts leaves nothing); its
    /// header waits in `pending` until then.
    Session { out: Option<BufWriter<File>>, pending: String, data_dir: PathBuf },
}

/// Writes a recording as the session goes. [`Recorder::finish`] ends it;
/// a recorder dropped without it keeps the recording if the session
/// crashed (a panic) and leaves nothing otherwise (the session never
/// started).
pub struct Recorder {
    sink: Option<Sink>,
    path: PathBuf,
    /// For `--record FILE`: the data directory whose `last-session.jsonl`
    /// becomes a link to FILE when the session ends.
    last_in: Option<PathBuf>,
}

impl Recorder {
    /// Records to `path` (`--record FILE`), writing the header: into a
    /// new file created at `path` when there is none (nothing is
    /// overwritten), else into a temporary file beside it that replaces
    /// it when the session ends ([`Recorder::temp_path`]).
    pub fn create(path: &Path, header: &Header) -> Result<Recorder> {
        // A file behind one of this process's descriptors (`3>>rec.jsonl
        // --record /dev/fd/3`) is written as the session runs, as a new
        // file is, so that a session killed outright leaves its entries.
        let sink = match crate::output::open_descriptor(path)? {
            Some(f) => Sink::New(BufWriter::new(f)),
            None => match std::fs::OpenOptions::new().write(true).create_new(true).open(path) {
                Ok(f) => Sink::New(BufWriter::new(f)),
                // A file, link or device there, or a directory missing:
                // as every output, but a file that holds something else is
                // kept (a mistyped name lost a teacher's file: a session
                // cannot end without replacing it).
                Err(_) => {
                    may_replace(path)?;
                    Sink::Output(crate::output::AtomicFile::create(path)?)
                }
            },
        };
        let mut r = Recorder { sink: Some(sink), path: path.to_path_buf(), last_in: None };
        let line = serde_json::to_string(header).expect("a header is plain data");
        r.line(&line)?;
        Ok(r)
    }

    /// Records to a file of its own, `data_dir/sessions/<start>-<pid>.jsonl`,
    /// created (with the directories) when the first entry comes.
    pub fn for_session(data_dir: &Path, header: &Header) -> Recorder {
        let stamp = crate::output::timestamp(std::time::SystemTime::now());
        let path = data_dir.join("sessions").join(format!("{stamp}-{}.jsonl", std::process::id()));
        let pending = serde_json::to_string(header).expect("a header is plain data");
        Recorder {
            sink: Some(Sink::Session { out: None, pending, data_dir: data_dir.to_path_buf() }),
            path,
            last_in: None,
        }
    }

    /// When the session ends, makes `data_dir/last-session.jsonl` a link
    /// to the `--record` FILE too (a copy where links are not possible),
    /// when FILE is a regular file; the recording stands without it when
    /// it cannot be made.
    pub fn link_last_session(mut self, data_dir: &Path) -> Recorder {
        self.last_in = Some(data_dir.to_path_buf());
        self
    }

    /// Appends entries.
    pub fn write(&mut self, entries: &[Entry]) -> Result<()> {
        for e in entries {
            let line = serde_json::to_string(e).expect("an entry is plain data");
            self.line(&line)?;
        }
        Ok(())
    }

    fn line(&mut self, line: &str) -> Result<()> {
        let out: &mut dyn Write = match self.sink.as_mut().expect("recording until finished") {
            Sink::Output(f) => f,
            Sink::New(f) => f,
            Sink::Session { out, pending, .. } => {
                if out.is_none() {
                    *out = Some(start_session_file(&mut self.path, pending)?);
                }
                out.as_mut().expect("created above")
            }
        };
        writeln!(out, "{line}").and_then(|_| out.flush()).map_err(Error::io(&self.path, "cannot write"))
    }

    /// Some of it is written: the session's own file was created (the
    /// other sinks are created with their header).
    pub fn started(&self) -> bool {
        !matches!(self.sink, Some(Sink::Session { out: None, .. }))
    }

    /// Where the recording ends up.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Where the recording is written until the session ends, when that
    /// is not [`Recorder::path`]: the temporary file beside a `--record`
    /// FILE that was there (a session killed outright leaves it there).
    pub fn temp_path(&self) -> Option<&Path> {
        match &self.sink {
            Some(Sink::Output(f)) => f.temp_path(),
            _ => None,
        }
    }

    /// Recording by default (not asked for with `--record`): a session
    /// goes on, and ends well, without it when it cannot be written.
    pub fn optional(&self) -> bool {
        matches!(self.sink, Some(Sink::Session { .. }))
    }

    /// Ends the recording: `--record`'s file replaces FILE; a session's own
    /// file becomes `last-session.jsonl` and the oldest sessions beyond
    /// [`KEEP_SESSIONS`] go.
    pub fn finish(mut self) -> Result<()> {
        self.end()
    }

    /// Gives up a recording that could not be written on, and says what
    /// became of it. A new `--record` FILE and a session's own file keep
    /// the calls written before (a replay notes a last line cut off) and
    /// become `last-session.jsonl`; a FILE that was there stays as it was.
    pub fn stop(mut self) -> String {
        let kept = |path: &Path| format!("the calls before are kept in {}", path.display());
        match self.sink.take() {
            Some(Sink::New(f)) => {
                drop(f);
                self.link_record();
                kept(&self.path)
            }
            Some(Sink::Session { out: Some(f), data_dir, .. }) => {
                drop(f);
                let _ = link_last_session(&data_dir, &self.path);
                kept(&self.path)
            }
            Some(Sink::Output(_)) => format!("{} is kept as it was", self.path.display()),
            Some(Sink::Session { out: None, .. }) | None => "nothing was kept".into(),
        }
    }

    fn end(&mut self) -> Result<()> {
        if matches!(&self.sink, Some(Sink::Session { out: None, .. })) {
            // A session with no entry still leaves its header.
            let Some(Sink::Session { out, pending, .. }) = &mut self.sink else { unreachable!() };
            *out = Some(start_session_file(&mut self.path, pending)?);
        }
        match self.sink.take() {
            None => Ok(()),
            Some(Sink::Output(f)) => {
                f.commit()?;
                self.link_record();
                Ok(())
            }
            Some(Sink::New(mut f)) => {
                f.flush().map_err(Error::io(&self.path, "cannot write"))?;
                self.link_record();
                Ok(())
            }
            Some(Sink::Session { out, data_dir, .. }) => {
                if let Some(mut out) = out {
                    out.flush().map_err(Error::io(&self.path, "cannot write"))?;
                }
                link_last_session(&data_dir, &self.path)?;
                prune_sessions(&data_dir.join("sessions"), KEEP_SESSIONS);
                Ok(())
            }
        }
    }
}

impl Recorder {
    /// Makes `last-session.jsonl` the `--record` FILE, when asked to and
    /// FILE is a regular file (not a device or a pipe).
    fn link_record(&self) {
        let Some(dir) = &self.last_in else { return };
        if std::fs::metadata(&self.path).is_ok_and(|m| m.is_file()) {
            let _ = std::fs::create_dir_all(dir);
            let _ = link_last_session(dir, &self.path);
        }
    }
}

/// Creates a session's file and writes its header; a file whose header
/// cannot be written is removed.
fn start_session_file(path: &mut PathBuf, header: &str) -> Result<BufWriter<File>> {
    let mut file = create_session_file(path)?;
    if let Err(e) = writeln!(file, "{header}").and_then(|_| file.flush()) {
        drop(file);
        let _ = std::fs::remove_file(&*path);
        return Err(Error::io(path, "cannot write")(e));
    }
    Ok(file)
}

/// Creates a session's file at `path` (with its directory), or beside it
/// with `-N` added when that name is taken; `path` ends up naming it.
fn create_session_file(path: &mut PathBuf) -> Result<BufWriter<File>> {
    let dir = path.parent().expect("a session file is in sessions/").to_path_buf();
    std::fs::create_dir_all(&dir).map_err(Error::io(&dir, "cannot create"))?;
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    for n in 0..100 {
        let candidate = if n == 0 { path.clone() } else { dir.join(format!("{stem}-{n}.jsonl")) };
        match std::fs::OpenOptions::new().write(true).create_new(true).open(&candidate) {
            Ok(f) => {
                *path = candidate;
                return Ok(BufWriter::new(f));
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(Error::io(&candidate, "cannot create")(e)),
        }
    }
    Err(Error::invalid(format!("{}: too many sessions started in one second", dir.display())))
}

impl Drop for Recorder {
    fn drop(&mut self) {
        if std::thread::panicking() {
            // The recording of a crash is what a bug report needs.
            let _ = self.end();
        }
        // Otherwise the session never started: an `Output` sink discards
        // its temporary file, a session sink created nothing, and the file
        // a `New` sink created goes.
        if let Some(Sink::New(_)) = self.sink.take() {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// The file the last finished session recorded to.
pub fn last_session(data_dir: &Path) -> PathBuf {
    data_dir.join("last-session.jsonl")
}

/// Makes `data_dir/last-session.jsonl` the recording at `session`, in one
/// step: a hard link (or, where links are not possible, a copy) renamed
/// over it.
fn link_last_session(data_dir: &Path, session: &Path) -> Result<()> {
    let last = last_session(data_dir);
    // A link made to a symbolic link is that link (`--record link.jsonl`,
    // pointing at `target.jsonl` beside it, read from the data directory
    // pointed nowhere): to the file it names.
    let session = &std::fs::canonicalize(session).unwrap_or_else(|_| session.to_path_buf());
    let temp = data_dir.join(format!(".last-session.jsonl.dirtyviz-{}.tmp", std::process::id()));
    let _ = std::fs::remove_file(&temp);
    if std::fs::hard_link(session, &temp).is_err()
        && let Err(e) = std::fs::copy(session, &temp)
    {
        // A copy cut short (a full disk) is not left behind.
        let _ = std::fs::remove_file(&temp);
        return Err(Error::io(&last, "cannot write")(e));
    }
    let renamed = std::fs::rename(&temp, &last).map_err(Error::io(&last, "cannot replace"));
    // Gone when renamed; left when the recording is last-session.jsonl
    // itself (a rename between two links of one file does nothing).
    let _ = std::fs::remove_file(&temp);
    renamed
}

/// A session file's name: `YYYYMMDD-HHMMSS-PID[-N].jsonl`.
fn is_session_file(name: &str) -> bool {
    let Some(stem) = name.strip_suffix(".jsonl") else { return false };
    let b = stem.as_bytes();
    b.len() > 16
        && b[..8].iter().all(u8::is_ascii_digit)
        && b[8] == b'-'
        && b[9..15].iter().all(u8::is_ascii_digit)
        && b[15] == b'-'
        && stem[16..].split('-').all(|p| !p.is_empty() && p.bytes().all(|c| c.is_ascii_digit()))
}

/// Removes the oldest session files of `dir` beyond the newest `keep`,
/// but never one whose session is still running: a dashboard left open
/// while twenty others came and went lost its recording, and at its end
/// `last-session.jsonl` named another session.
fn prune_sessions(dir: &Path, keep: usize) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut names: Vec<String> =
        entries.filter_map(|e| e.ok()?.file_name().into_string().ok()).filter(|n| is_session_file(n)).collect();
    names.sort();
    let excess = names.len().saturating_sub(keep);
    for name in names[..excess].iter().filter(|n| !session_running(n)) {
        let _ = std::fs::remove_file(dir.join(name));
    }
}

/// The process a session file is named after (`<time>-<pid>.jsonl`,
/// `<time>-<pid>-N.jsonl`) is running, and began no later than the
/// session did: a number taken since by another process (a daemon after
/// a reboot, every session in containers where dirtyviz is process 1)
/// does not keep the file.
fn session_running(name: &str) -> bool {
    let Some(stem) = name.strip_suffix(".jsonl") else { return false };
    let (Some(stamp), Some(pid)) = (stem.get(..15), stem.get(16..).and_then(|s| s.split('-').next())) else {
        return false;
    };
    match (stamp_seconds(stamp), process_start_seconds(pid)) {
        (Some(session), Some(process)) => process <= session + 1,
        // Where the start cannot be read, a live number keeps the file.
        _ => Path::new("/proc").join(pid).exists(),
    }
}

/// `YYYYMMDD-HHMMSS` (UTC, as [`crate::output::timestamp`] writes it) in
/// seconds since 1970.
fn stamp_seconds(stamp: &str) -> Option<u64> {
    let digits = |r: std::ops::Range<usize>| stamp.get(r)?.parse::<i64>().ok();
    let (y, m, d) = (digits(0..4)?, digits(4..6)?, digits(6..8)?);
    let (hh, mm, ss) = (digits(9..11)?, digits(11..13)?, digits(13..15)?);
    // Days from 1970-01-01 of a civil date (proleptic Gregorian).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    u64::try_from(days * 86_400 + hh * 3600 + mm * 60 + ss).ok()
}

/// When process `pid` began, in seconds since 1970: the boot time of
/// /proc/stat and the start of /proc/PID/stat (in clock ticks since boot).
fn process_start_seconds(pid: &str) -> Option<u64> {
    let stat = std::fs::read_to_string(Path::new("/proc").join(pid).join("stat")).ok()?;
    // After the command's name, in parentheses that it may itself hold,
    // the state is field 3 and the start field 22.
    let ticks: u64 = stat.get(stat.rfind(')')? + 1..)?.split_whitespace().nth(19)?.parse().ok()?;
    let boot: u64 = std::fs::read_to_string("/proc/stat")
        .ok()?
        .lines()
        .find_map(|l| l.strip_prefix("btime "))?
        .trim()
        .parse()
        .ok()?;
    // SAFETY: sysconf reads a constant of the system.
    let hz = u64::try_from(unsafe { libc::sysconf(libc::_SC_CLK_TCK) }).ok().filter(|&h| h > 0)?;
    Some(boot + ticks / hz)
}

/// Longest line of a recording after its header \[bytes\].
const MAX_ENTRY_BYTES: usize = 4096;

/// Longest step in time one recorded `Advance` may make: the dashboard
/// advances at most a minute at a time \[ns\].
pub const MAX_ADVANCE_NS: u64 = 60 * crate::sim::NS_PER_SEC;

/// Longest session a recording may replay, as `--duration` \[ns\].
pub const MAX_SESSION_NS: u64 = 1_000_000 * crate::sim::NS_PER_SEC;

/// A recording being read: its header, then its entries one at a time.
pub struct Reader {
    lines: Lines<File>,
    path: PathBuf,
    /// Column (1-based) where the value of the last entry read begins:
    /// the `5000000000` of `{"Advance":5000000000}`.
    value_col: usize,
    /// Column (1-based) just past the last character of the line last read.
    end_col: usize,
    /// How the session began.
    pub header: Header,
    /// Where the file ends inside a call's line (`line`, the column past
    /// its last character, as a cut header is told): a
    /// session killed outright while its last line was written. The
    /// calls before it are read; that one is not.
    pub cut: Option<(usize, usize)>,
}

/// Refuses `path` as `--record`'s file when it is a regular file (or a
/// link to one) that is neither empty nor a recording: only a recording
/// is replaced by another. Asked before the terminal is taken, and again
/// when the recording starts.
pub fn may_replace(path: &Path) -> Result<()> {
    use std::io::Read;
    // A file behind one of this process's descriptors is appended to,
    // not replaced (`--record /dev/fd/3 3>>notes.txt`).
    if matches!(crate::output::open_descriptor(path), Ok(Some(_))) {
        return Ok(());
    }
    let Ok(meta) = std::fs::metadata(path) else { return Ok(()) };
    if !meta.is_file() || meta.len() == 0 {
        return Ok(());
    }
    // A file that cannot be read cannot be told a recording (a file of
    // mode 200 was replaced, and the recording kept its mode).
    let unread = |e: std::io::Error| {
        Error::invalid(format!(
            "{}: cannot read it to tell whether it is a dirtyviz recording, which --record would replace: {}",
            path.display(),
            crate::error::io_reason(&e)
        ))
    };
    let mut start = Vec::new();
    File::open(path).and_then(|f| f.take(4096).read_to_end(&mut start)).map_err(unread)?;
    let first = String::from_utf8_lossy(&start);
    // As a replay reads it: a byte-order mark first is passed over.
    let first = first.strip_prefix('\u{feff}').unwrap_or(&first);
    if starts_like_a_header(first.lines().next().unwrap_or("")) {
        return Ok(());
    }
    Err(Error::invalid(format!(
        "{}: holds something other than a dirtyviz recording, which --record would replace: name another file, or \
         remove this one first",
        path.display()
    )))
}

/// `line` begins as a recording's header does: `{"dirtyviz":`.
fn starts_like_a_header(line: &str) -> bool {
    let rest = line.trim_start().strip_prefix('{').map(str::trim_start);
    rest.is_some_and(|r| r.starts_with("\"dirtyviz\""))
}

impl Reader {
    /// Opens a recording (a regular file of at most 1 GiB) and reads its header.
    pub fn open(path: &Path) -> Result<Reader> {
        let file = crate::input::open(path, "recording", MAX_RECORDING_BYTES)?;
        let mut lines = Lines::new(file, MAX_RECORDING_BYTES);
        let first = match lines.next_line(MAX_RON_BYTES as usize) {
            Ok(Some(line)) => line,
            Ok(None) => return Err(Error::invalid(format!("{}: empty, not a recording", path.display()))),
            Err(e) => return Err(e.at(path, 1)),
        };
        let first = crate::input::without_bom(first);
        // Another file of JSON (a summary, a trace, a JSON array) says
        // what it is not, not where its first line failed to match.
        let parsed = serde_json::from_str::<serde_json::Value>(first);
        let not_a_recording = || {
            Error::invalid(format!(
                "{}:1:1: not a dirtyviz recording: its first line is not the header a recording starts with \
                 ({{\"dirtyviz\":\"<version>\",...}}, one JSON object on one line)",
                path.display()
            ))
        };
        // A file that ends within `{"dirtyviz"` itself is a header cut
        // short too.
        let end_col = first.chars().count() + 1;
        let header_so_far = starts_like_a_header(first);
        let name_so_far = first.len() > 1 && "{\"dirtyviz\"".starts_with(first.trim());
        if let Err(e) = &parsed
            && e.is_eof()
            && (header_so_far || name_so_far)
        {
            if !header_so_far && lines.ended {
                return Err(not_a_recording());
            }
            let how = if lines.ended { "its line ends" } else { "the file ends (truncated)" };
            return Err(Error::invalid(format!(
                "{}:1:{end_col}: the header line is cut off: {how} here, before its JSON object closes",
                path.display()
            )));
        }
        let named = parsed.is_ok_and(|v| v.get("dirtyviz").is_some());
        if !named {
            return Err(not_a_recording());
        }
        let header: Header = serde_json::from_str(first)
            .map_err(|e| Error::invalid(json_error(&format!("{}:1", path.display()), "not a recording header", &e)))?;
        // A whole header, then bytes that end inside a character: no cut
        // leaves that (a header's line ends before any call is written).
        if lines.cut_in_char {
            return Err(crate::input::LineError::NotUtf8 { col: end_col }.at(path, 1));
        }
        Ok(Reader { lines, path: path.to_path_buf(), value_col: 1, end_col: 1, header, cut: None })
    }

    /// The next recorded call, or `None` at the end.
    pub fn next_entry(&mut self) -> Result<Option<Entry>> {
        loop {
            let (opens, parsed) = match self.lines.next_line(MAX_ENTRY_BYTES) {
                Ok(None) => return Ok(None),
                Ok(Some(line)) if line.trim().is_empty() => {
                    // Bytes that end inside a character after blanks are
                    // no call cut short (one begins with `{`).
                    let col = line.chars().count() + 1;
                    match self.lines.cut_in_char {
                        true => return Err(crate::input::LineError::NotUtf8 { col }.at(&self.path, self.lines.number)),
                        false => continue,
                    }
                }
                Ok(Some(line)) => {
                    self.value_col = value_col(line);
                    self.end_col = line.chars().count() + 1;
                    // Why, where a time is out of range (at the value) or
                    // the line is not one call (at the line).
                    let opens = line.trim_start().starts_with('{');
                    let parsed = serde_json::from_str(line)
                        .map_err(|e| (e, time_out_of_range(line).map(Ok).or_else(|| fields_of_a_call(line).map(Err))));
                    (opens, parsed)
                }
                Err(e) => return Err(e.at(&self.path, self.lines.number)),
            };
            // The file ends inside the line: the last call, cut short as
            // the session was killed (a recording is written a block at a
            // time). Read as far as it goes.
            let cut = matches!(&parsed, Err((e, None)) if e.is_eof()) && !self.lines.ended;
            // Bytes that end inside a character end a call's line only
            // where the call was cut short: one begins with `{`, and is
            // not whole.
            if self.lines.cut_in_char && !(cut && opens) {
                let col = self.end_col;
                return Err(crate::input::LineError::NotUtf8 { col }.at(&self.path, self.lines.number));
            }
            if cut {
                self.cut = Some((self.lines.number, self.end_col));
                return Ok(None);
            }
            let place = || format!("{}:{}", self.path.display(), self.lines.number);
            return parsed.map(Some).map_err(|(e, why)| match why {
                Some(Ok(time)) => self.error_at_value(time),
                Some(Err(shape)) => Error::invalid(format!("{}:1: {shape}", place())),
                None => Error::invalid(json_error(&place(), "not a recorded call", &e)),
            });
        }
    }

    /// An error at the line last read.
    fn error(&self, what: String) -> Error {
        Error::invalid(format!("{}:{}: {what}", self.path.display(), self.lines.number))
    }

    /// An error at the value of the entry last read.
    fn error_at_value(&self, what: String) -> Error {
        Error::invalid(format!("{}:{}:{}: {what}", self.path.display(), self.lines.number, self.value_col))
    }
}

/// Why a recorded call whose time is a number, but not a whole number of
/// ns that 64 bits hold (`{"Advance":1e23}`, `{"Key":[-1,"AddDd"]}`), is
/// refused: in the words of the range a recording's steps are held to.
/// `None` for every other line.
fn time_out_of_range(line: &str) -> Option<String> {
    let call: serde_json::Value = serde_json::from_str(line).ok()?;
    let (name, time) = match call.as_object()?.iter().next()? {
        (name, time) if name == "Advance" => (name, time),
        (name, serde_json::Value::Array(args)) if name == "Key" => (name, args.first()?),
        _ => return None,
    };
    // The number as written: serde_json would write 1e23 as `1e+23`.
    let value = line[value_col(line) - 1..].trim_start_matches(['[', ' ', '\t']);
    let written = value.split([',', ']', '}', ' ', '\t']).next().unwrap_or_default();
    (time.is_number() && time.as_u64().is_none()).then(|| {
        format!(
            "{name}({written}) is not a time of the session: a recording steps a whole number of ns, at most {} s at a \
             time, up to {} s",
            MAX_ADVANCE_NS / crate::sim::NS_PER_SEC,
            MAX_SESSION_NS / crate::sim::NS_PER_SEC
        )
    })
}

/// Column (1-based) where the value of a one-key JSON object begins in
/// `line`: after the first colon and any blanks; 1 when there is none.
fn value_col(line: &str) -> usize {
    line.find(':').map_or(1, |colon| {
        let after = &line[colon + 1..];
        colon + 1 + (after.len() - after.trim_start().len()) + 1
    })
}

/// Why `line`, JSON, is not one recorded call: a call is an object of
/// one field (`{"Advance":...}` or `{"Key":[...]}`).
fn fields_of_a_call(line: &str) -> Option<String> {
    const ONE_FIELD: &str = "not a recorded call: a call is an object of one field, `Advance` or `Key`";
    let fields = match serde_json::from_str(line).ok()? {
        serde_json::Value::Object(fields) => fields,
        // JSON, but no object: serde's "expected value" says nothing.
        other => {
            let kind = match other {
                serde_json::Value::Array(_) => "an array",
                serde_json::Value::Null => "null",
                serde_json::Value::Bool(_) => "a boolean",
                serde_json::Value::Number(_) => "a number",
                serde_json::Value::String(_) => "a string",
                serde_json::Value::Object(_) => unreachable!("matched above"),
            };
            return Some(format!("{ONE_FIELD}; this line holds {kind}"));
        }
    };
    (fields.len() != 1).then(|| {
        let names: Vec<String> = fields.keys().map(|k| format!("`{k}`")).collect();
        format!("{ONE_FIELD}; this line has {}", if names.is_empty() { "none".to_string() } else { names.join(", ") })
    })
}

/// `place:col: what: why` for a JSON line at `place` (`path:line`) that
/// did not parse, the column taken out of serde_json's message to follow
/// the line number (`path:87:7: ...`, not `path:87: ... at line 1 column 7`).
fn json_error(place: &str, what: &str, e: &serde_json::Error) -> String {
    if e.line() == 0 {
        return format!("{place}: {what}: {e}");
    }
    let message = e.to_string();
    let why = message.strip_suffix(&format!(" at line {} column {}", e.line(), e.column())).unwrap_or(&message);
    format!("{place}:{}: {what}: {why}", e.column())
}

/// Reads a whole recording: its header and its entries.
pub fn load(path: &Path) -> Result<(Header, Vec<Entry>)> {
    let mut reader = Reader::open(path)?;
    let mut entries = Vec::new();
    while let Some(e) = reader.next_entry()? {
        entries.push(e);
    }
    Ok((reader.header, entries))
}

/// Writes a session's trace as JSON Lines, in the format of `dirtyviz run
/// --trace`: a header line, then the events. A session may run several
/// worlds one after the other (a restart, `c`, a change of patch level,
/// a lesson step opened): the events of each other world, or of the
/// world at another patch level, follow a header line of their own, so
/// that each header describes the events up to the next. A session of
/// one world writes what `run --trace` writes.
pub struct TraceWriter {
    file: Option<crate::run::trace::TraceFile>,
    /// The world whose header was written last, and that header line.
    last: (u64, String),
}

impl TraceWriter {
    /// Starts a trace at `path` with the header for `app`'s side A.
    pub fn create(path: &Path, app: &App) -> Result<TraceWriter> {
        TraceWriter::capped(path, app, None)
    }

    /// [`TraceWriter::create`], stopping before the trace grows past `cap` bytes.
    pub fn capped(path: &Path, app: &App, cap: Option<u64>) -> Result<TraceWriter> {
        let mut file = crate::run::trace::TraceFile::create(path, cap)?;
        let s = &app.session().scenario;
        let header = crate::run::trace::Header::of(app.world(), s.seed, &s.name);
        file.header(&header)?;
        let line = serde_json::to_string(&header).expect("a header is plain data");
        Ok(TraceWriter { file: Some(file), last: (app.session().trace_world().0, line) })
    }

    /// Writes what `app` traced since the last call.
    pub fn drain(&mut self, app: &mut App) -> Result<()> {
        for batch in app.take_trace() {
            self.batch(&batch)?;
        }
        Ok(())
    }

    /// Writes the events of a batch, after its world's header when that
    /// is not the header the events before it follow.
    pub fn batch(&mut self, batch: &crate::session::TraceBatch) -> Result<()> {
        let Some(f) = &mut self.file else { return Ok(()) };
        let Some(first) = batch.events.first() else { return Ok(()) };
        if (batch.world, batch.header.as_str()) != (self.last.0, self.last.1.as_str()) {
            f.header_line(&batch.header, first.jiffies())?;
            self.last = (batch.world, batch.header.clone());
        }
        f.events(&batch.events, &batch.bdis)
    }

    /// Writes events with the bdi names of the world that made them.
    pub fn write(&mut self, events: &[TraceEvent], names: &[String]) -> Result<()> {
        match &mut self.file {
            Some(f) => f.events(events, names),
            None => Ok(()),
        }
    }

    /// The jiffy at which the cap stopped the trace, if it did.
    pub fn stopped_at(&self) -> Option<u64> {
        self.file.as_ref().and_then(|f| f.stopped_at())
    }

    /// Completes the trace: it replaces the file at its path.
    pub fn finish(&mut self) -> Result<()> {
        match self.file.take() {
            Some(f) => f.commit(),
            None => Ok(()),
        }
    }
}

/// Side A's time series and summary as a session makes them: the CSV rows
/// and the summary `run` writes, of the world side A runs since it was
/// last (re)built (a rebuild restarts both at time 0).
pub struct SeriesWriter {
    follower: crate::run::Follower,
    summary_json: Option<crate::output::AtomicFile>,
    /// [`crate::session::Session::world_id`] when the follower last
    /// started: a rebuild, or a session of its own (`N` in a lesson opens
    /// the lesson again, whose session counts its builds from 0 again).
    world: u64,
    /// When the current world started, for the speed figures.
    started: std::time::Instant,
}

impl SeriesWriter {
    /// Starts the CSV at `csv` and the summary at `summary_json` (either
    /// may be left out) for `app`'s side A.
    pub fn create(csv: Option<&Path>, summary_json: Option<&Path>, app: &App) -> Result<SeriesWriter> {
        let names: Vec<String> = app.world().bdis().iter().map(|b| b.name.clone()).collect();
        let csv = csv.map(|path| crate::run::csv::CsvFile::create(path, &names)).transpose()?;
        Ok(SeriesWriter {
            follower: crate::run::Follower::new(csv),
            summary_json: summary_json.map(crate::output::AtomicFile::create).transpose()?,
            world: app.session().world_id(),
            started: std::time::Instant::now(),
        })
    }

    /// Takes in what side A sampled since the last call; after a rebuild,
    /// starts over on the new world.
    pub fn drain(&mut self, app: &App) -> Result<()> {
        if app.session().world_id() != self.world {
            let names: Vec<String> = app.world().bdis().iter().map(|b| b.name.clone()).collect();
            self.follower.restart(&names)?;
            self.world = app.session().world_id();
            self.started = std::time::Instant::now();
        }
        self.follower.take(app.world(), false)
    }

    /// Takes the last samples, writes the summary of side A's world at
    /// the end of the session and puts every file in place; returns the
    /// summary.
    pub fn finish(mut self, app: &App) -> Result<crate::run::Summary> {
        self.drain(app)?;
        self.follower.take(app.world(), true)?;
        let world = app.world();
        let summary = crate::run::summarise(
            &app.session().scenario,
            world,
            self.follower.digest(),
            world.now_ns(),
            self.started.elapsed().as_secs_f64(),
        );
        let mut outputs: Vec<crate::output::AtomicFile> = self.follower.into_output().into_iter().collect();
        if let Some(mut json) = self.summary_json {
            let mut text = serde_json::to_vec_pretty(&summary).expect("a summary is numbers and strings");
            text.push(b'\n');
            json.put(&text)?;
            outputs.push(json);
        }
        crate::output::commit_all(outputs)?;
        Ok(summary)
    }
}

/// What a replay did.
#[derive(Clone, Debug, PartialEq)]
pub struct Replayed {
    /// Calls replayed.
    pub calls: usize,
    /// Of which key presses.
    pub keys: usize,
    /// Simulated time at the end \[ns\].
    pub sim_ns: u64,
    /// The patch level the session ended at; comparing two, the sides by
    /// their labels, and their kernel (or kernels, a lesson's sides named
    /// for what they show) where the labels do not name them.
    pub level: String,
    /// The version of dirtyviz that recorded the session.
    pub recorded_by: String,
    /// What its keys meant ([`KEYS_FORMAT`]).
    pub keys_format: u32,
    /// When `--max-trace-size` stopped the trace \[s\], if it did.
    pub trace_stopped_s: Option<f64>,
    /// Where its last line was cut off (`line`, `column`), if it was: the
    /// calls before it were replayed ([`Reader::cut`]).
    pub cut: Option<(usize, usize)>,
    /// The line of the key that quit the session and the calls after it,
    /// if any follow: they are not replayed.
    pub after_quit: Option<(usize, usize)>,
}

/// Where a replay writes side A's outputs.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReplayOutputs<'a> {
    /// The trace (JSON Lines).
    pub trace: Option<&'a Path>,
    /// Stop the trace before it grows past this \[bytes\].
    pub max_trace_bytes: Option<u64>,
    /// The time series (CSV), as `run --csv` writes it.
    pub csv: Option<&'a Path>,
    /// The summary (JSON), as `run --summary-json` writes it.
    pub summary_json: Option<&'a Path>,
}

/// Reads the whole recording at `path` before anything is simulated,
/// line by line: a line that is not a recorded call, or a time step past
/// the longest session, is refused at once, not after the simulation ran
/// up to it. The steps from one time to the next depend on what the keys
/// did (a restart goes back to 0), so they are checked as the replay runs.
fn check_lines(path: &Path) -> Result<()> {
    let mut reader = Reader::open(path)?;
    while let Some(e) = reader.next_entry()? {
        if reader.lines.number.is_multiple_of(4096) {
            crate::interrupt::check()?;
        }
        if let Entry::Key(_, msg) = e
            && let Some(why) = msg.out_of_range()
        {
            return Err(reader.error_at_value(format!("{msg:?} is not a call any key makes: {why}")));
        }
        if let Entry::Advance(t) = e
            && t > MAX_SESSION_NS
        {
            return Err(reader.error_at_value(format!(
                "Advance({t}) steps to {} s: a recording steps at most {} s at a time, up to {} s",
                crate::units::exact_seconds(t),
                MAX_ADVANCE_NS / crate::sim::NS_PER_SEC,
                MAX_SESSION_NS / crate::sim::NS_PER_SEC
            )));
        }
    }
    Ok(())
}

/// Replays the recording at `path` headless, writing side A's outputs.
/// Every line is read and checked first (`check_lines`); time steps are
/// checked as they are replayed: an `Advance` may step at most
/// [`MAX_ADVANCE_NS`], a session last at most [`MAX_SESSION_NS`].
pub fn replay(path: &Path, outputs: ReplayOutputs) -> Result<Replayed> {
    check_lines(path)?;
    let mut reader = Reader::open(path)?;
    let mut app = reader
        .header
        .app(ThemeKind::Mono, outputs.trace.is_some())
        .map_err(|e| e.context(format_args!("{}:1: the recorded session", path.display())))?;
    let mut out = outputs.trace.map(|t| TraceWriter::capped(t, &app, outputs.max_trace_bytes)).transpose()?;
    let mut series = (outputs.csv.is_some() || outputs.summary_json.is_some())
        .then(|| SeriesWriter::create(outputs.csv, outputs.summary_json, &app))
        .transpose()?;
    let (mut calls, mut keys, mut after_quit) = (0, 0, None);
    while let Some(e) = reader.next_entry()? {
        crate::interrupt::check()?;
        if let Entry::Advance(t) = e {
            // Keys of older formats may have left the session elsewhere
            // in time than when it was recorded.
            if t < app.sim_ns() && reader.header.keys_format >= KEYS_FORMAT_REPLAYED {
                return Err(reader.error_at_value(format!(
                    "Advance({t}) steps back in time, from {} s to {} s: a recorded session only moves forward",
                    crate::units::exact_seconds(app.sim_ns()),
                    crate::units::exact_seconds(t)
                )));
            }
            let step = t.saturating_sub(app.sim_ns());
            if step > MAX_ADVANCE_NS || t > MAX_SESSION_NS {
                return Err(reader.error_at_value(format!(
                    "Advance({t}) steps {} s, to {} s: a recording steps at most {} s at a time, up to {} s",
                    crate::units::exact_seconds(step),
                    crate::units::exact_seconds(t),
                    MAX_ADVANCE_NS / crate::sim::NS_PER_SEC,
                    MAX_SESSION_NS / crate::sim::NS_PER_SEC
                )));
            }
        }
        // A key is recorded at the time it was pressed, which a replay
        // reaches as the session did: another time is an edited line.
        if let Entry::Key(t, _) = e
            && t != app.sim_ns()
            && reader.header.keys_format >= KEYS_FORMAT_REPLAYED
        {
            return Err(reader.error_at_value(format!(
                "a key stamped {} s, where the session is at {} s: a key is recorded at the time it was pressed",
                crate::units::seconds(t as f64 / 1e9),
                crate::units::seconds(app.sim_ns() as f64 / 1e9)
            )));
        }
        calls += 1;
        keys += usize::from(matches!(e, Entry::Key(..)));
        app.replay(e);
        if app.sim_ns() > MAX_SESSION_NS {
            return Err(reader.error(format!("the session runs past {} s", MAX_SESSION_NS / crate::sim::NS_PER_SEC)));
        }
        if let Some(w) = &mut out {
            w.drain(&mut app)?;
        }
        if let Some(w) = &mut series {
            w.drain(&app)?;
        }
        if app.quit_requested() {
            // What follows a quit is not replayed, but told (and a line
            // cut off after it noted, as anywhere).
            let quit_line = reader.lines.number;
            let mut after = 0;
            while reader.next_entry()?.is_some() {
                after += 1;
                if after % 4096 == 0 {
                    crate::interrupt::check()?;
                }
            }
            after_quit = (after > 0).then_some((quit_line, after));
            break;
        }
    }
    // The last advance may have stopped short on a Ctrl-C.
    crate::interrupt::check()?;
    let mut trace_stopped_s = None;
    if let Some(w) = &mut out {
        w.drain(&mut app)?;
        trace_stopped_s = w.stopped_at().map(|j| j as f64 / app.world().hz() as f64);
        w.finish()?;
    }
    if let Some(w) = series {
        w.finish(&app)?;
    }
    Ok(Replayed {
        calls,
        keys,
        sim_ns: app.sim_ns(),
        // Each side's where it ended comparing two (`A legacy 3.1 (IO-full)
        // vs B patch 11 (IO-less)`: side A alone read as the session's
        // kernel), and the kernel of two dirty ratios.
        level: match app.sides() {
            [a, b] => {
                let level = |s: &crate::session::Side| level_name(s.world.patches(), s.world.legacy());
                match crate::session::sides_name(a, b, false) {
                    (pair, Some(kernel)) => format!("{pair}, on {kernel}"),
                    // A lesson's sides, named for what they show: their kernels too.
                    (pair, None) if a.label != level(a) || b.label != level(b) => {
                        format!("{pair}, on {} and {}", level(a), level(b))
                    }
                    (pair, None) => pair,
                }
            }
            _ => level_name(app.world().patches(), app.world().legacy()),
        },
        recorded_by: reader.header.dirtyviz.clone(),
        keys_format: reader.header.keys_format,
        trace_stopped_s,
        cut: reader.cut,
        after_quit,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scratch::Scratch;

    #[test]
    fn a_header_cut_off_is_told_where_it_ends() {
        assert!(starts_like_a_header(r#"{"dirtyviz":"0.1.0","keys"#));
        assert!(starts_like_a_header(r#" { "dirtyviz""#));
        assert!(!starts_like_a_header(r#"{"a":1"#));
        let dir = scratch("cut-header");
        let path = dir.join("tr.jsonl");
        let line = serde_json::to_string(&header()).expect("JSON");
        std::fs::write(&path, &line[..40]).expect("write");
        let e = Reader::open(&path).err().expect("cut off").to_string();
        let want = format!("{}:1:41: the header line is cut off: the file ends (truncated) here", path.display());
        assert!(e.starts_with(&want), "{e}");
        std::fs::write(&path, format!("{}\n", &line[..40])).expect("write");
        let e = Reader::open(&path).err().expect("cut off").to_string();
        assert!(e.starts_with(&format!("{}:1:41: the header line is cut off: its line ends here", path.display())));
        std::fs::write(&path, format!("{line}\n")).expect("write");
        assert!(Reader::open(&path).is_ok(), "the whole header is read");
    }

    #[test]
    fn session_files_are_told_by_their_names() {
        assert!(is_session_file("20251130-135500-4242.jsonl"));
        assert!(is_session_file("20251130-135500-4242-1.jsonl"));
        assert!(!is_session_file("last-session.jsonl"));
        assert!(!is_session_file("20251130-135500-.jsonl"));
        assert!(!is_session_file("notes.txt"));
    }

    fn header() -> Header {
        let scenario = crate::scenario::presets::get("default").expect("preset").expect("valid");
        Header {
            dirtyviz: "test".into(),
            keys_format: KEYS_FORMAT,
            start: Start::Dashboard { scenario: Box::new(scenario), compare: None },
            progress: Progress::default(),
            lesson_seed: None,
        }
    }

    fn scratch(name: &str) -> Scratch {
        Scratch::new(&format!("record-{name}"))
    }

    #[test]
    fn a_recording_that_is_last_session_itself_leaves_no_temporary_link() {
        let dir = scratch("last-itself");
        let last = last_session(&dir);
        std::fs::write(&last, "a recording\n").expect("write");
        link_last_session(&dir, &last).expect("linked");
        let names: Vec<_> = std::fs::read_dir(&dir).expect("dir").map(|e| e.expect("entry").file_name()).collect();
        assert_eq!(names, ["last-session.jsonl"]);
        assert_eq!(std::fs::read_to_string(&last).expect("kept"), "a recording\n");
    }

    /// A data directory that is a file: the recording never starts, and
    /// its error names the directory and why.
    #[test]
    fn a_session_file_that_cannot_be_made_is_told_with_its_reason() {
        let dir = scratch("unmakeable");
        let file = dir.join("not-a-dir");
        std::fs::write(&file, "").expect("write");
        let mut r = Recorder::for_session(&file, &header());
        assert!(!r.started());
        let e = r.write(&[]).and_then(|()| r.line("{}")).expect_err("not a directory").to_string();
        assert!(!r.started());
        assert_eq!(e, format!("{}/sessions: cannot create: Not a directory", file.display()));
        let mut ok = Recorder::for_session(&dir, &header());
        ok.line("{}").expect("written");
        assert!(ok.started());
    }

    #[test]
    fn a_crashed_session_keeps_its_recording_and_a_session_never_started_leaves_none() {
        let dir = scratch("crash");
        let never = Recorder::for_session(&dir, &header());
        drop(never);
        assert!(!dir.join("sessions").exists(), "a session that never started leaves nothing");
        let crashed = std::panic::catch_unwind(|| {
            let mut r = Recorder::for_session(&dir, &header());
            r.write(&[Entry::Advance(1_000_000_000)]).expect("written");
            panic!("a bug");
        });
        assert!(crashed.is_err());
        let (h, entries) = load(&last_session(&dir)).expect("last-session.jsonl is the crashed session");
        assert_eq!((h, entries), (header(), vec![Entry::Advance(1_000_000_000)]));
        let out = dir.join("class.jsonl");
        std::fs::write(&out, "{\"dirtyviz\": \"yesterday's class\"}\n").expect("write");
        drop(Recorder::create(&out, &header()).expect("recorder"));
        assert_eq!(std::fs::read_to_string(&out).expect("kept"), "{\"dirtyviz\": \"yesterday's class\"}\n");
        let r = Recorder::create(&out, &header()).expect("recorder");
        r.finish().expect("in place");
        assert_eq!(load(&out).expect("a recording").0, header());
    }

    #[test]
    fn a_new_record_file_is_written_in_place_and_an_old_one_only_replaced_at_the_end() {
        let dir = scratch("in-place");
        // No file there: the recording is at its name from the start, so
        // a session killed outright (no drop, no finish) leaves it.
        let new = dir.join("class.jsonl");
        let mut r = Recorder::create(&new, &header()).expect("recorder");
        assert_eq!(r.temp_path(), None);
        r.write(&[Entry::Advance(1_000_000_000)]).expect("written");
        std::mem::forget(r);
        assert_eq!(
            load(&new).expect("the killed session's recording"),
            (header(), vec![Entry::Advance(1_000_000_000)])
        );
        // A session that never started leaves no file it created.
        let never = dir.join("never.jsonl");
        drop(Recorder::create(&never, &header()).expect("recorder"));
        assert!(!never.exists());
        // A file there stays as it was until the session ends; the
        // recording is meanwhile in the temporary file the recorder names.
        std::fs::write(&new, "{\"dirtyviz\": \"yesterday's class\"}\n").expect("write");
        let mut r = Recorder::create(&new, &header()).expect("recorder");
        r.write(&[Entry::Advance(2_000_000_000)]).expect("written");
        let temp = r.temp_path().expect("a temporary file").to_path_buf();
        let name = temp.file_name().expect("name").to_string_lossy().into_owned();
        assert!(name.starts_with(".class.jsonl.dirtyviz-") && name.ends_with(".tmp"), "{name}");
        assert_eq!(temp.parent(), Some(&*dir));
        assert_eq!(load(&temp).expect("the recording so far").1, vec![Entry::Advance(2_000_000_000)]);
        assert_eq!(std::fs::read_to_string(&new).expect("kept"), "{\"dirtyviz\": \"yesterday's class\"}\n");
        r.finish().expect("in place");
        assert_eq!(load(&new).expect("replaced").1, vec![Entry::Advance(2_000_000_000)]);
        assert!(!temp.exists());
        // A file that holds something else is not replaced at all.
        let notes = dir.join("notes.txt");
        std::fs::write(&notes, "the class's notes\n").expect("write");
        let e = Recorder::create(&notes, &header()).err().expect("refused");
        assert!(e.to_string().contains("notes.txt: holds something other than a dirtyviz recording"), "{e}");
        assert_eq!(std::fs::read_to_string(&notes).expect("kept"), "the class's notes\n");
    }

    #[test]
    fn a_recording_given_up_keeps_what_it_wrote_and_a_file_that_was_there_as_it_was() {
        let dir = scratch("stopped");
        let data = dir.join("data");
        // A new FILE keeps the calls written before the failure and
        // becomes the last session.
        let new = dir.join("class.jsonl");
        let mut r = Recorder::create(&new, &header()).expect("recorder").link_last_session(&data);
        r.write(&[Entry::Advance(1_000_000_000)]).expect("written");
        assert_eq!(r.stop(), format!("the calls before are kept in {}", new.display()));
        assert_eq!(load(&new).expect("kept").1, vec![Entry::Advance(1_000_000_000)]);
        assert_eq!(load(&last_session(&data)).expect("linked").1, vec![Entry::Advance(1_000_000_000)]);
        // A FILE that was there stays as it was; the temporary file goes.
        let mut r = Recorder::create(&new, &header()).expect("recorder");
        r.write(&[Entry::Advance(2_000_000_000)]).expect("written");
        let temp = r.temp_path().expect("a temporary file").to_path_buf();
        assert_eq!(r.stop(), format!("{} is kept as it was", new.display()));
        assert_eq!(load(&new).expect("kept").1, vec![Entry::Advance(1_000_000_000)]);
        assert!(!temp.exists());
        // A session's own file stays, and becomes the last session.
        let mut r = Recorder::for_session(&data, &header());
        r.write(&[Entry::Advance(3_000_000_000)]).expect("written");
        let own = r.path().to_path_buf();
        assert!(r.stop().starts_with("the calls before are kept in "));
        assert_eq!(load(&own).expect("kept").1, vec![Entry::Advance(3_000_000_000)]);
        assert_eq!(load(&last_session(&data)).expect("linked").1, vec![Entry::Advance(3_000_000_000)]);
    }

    #[test]
    fn an_entry_s_value_is_found_after_its_key() {
        assert_eq!(value_col(r#"{"Advance":5000000000}"#), 12);
        assert_eq!(value_col(r#"{ "Advance" :  5 }"#), 16);
        assert_eq!(value_col("garbage"), 1);
    }

    #[test]
    fn only_the_newest_sessions_are_kept() {
        let dir = Scratch::new("prune");
        // Process 1 runs, but began after this session (in 2025).
        std::fs::write(dir.join("20250101-000000-1.jsonl"), "x").expect("write");
        // This process's session, begun now: it still runs.
        let now = crate::output::timestamp(std::time::SystemTime::now());
        let running = format!("{now}-{}-1.jsonl", std::process::id());
        std::fs::write(dir.join(&running), "x").expect("write");
        // Newer ones of a process no longer there (Linux stops at 2^22).
        for i in 0..24 {
            std::fs::write(dir.join(format!("29990101-0000{i:02}-99999999.jsonl")), "x").expect("write");
        }
        std::fs::write(dir.join("mine.txt"), "x").expect("write");
        prune_sessions(&dir, 20);
        let mut left: Vec<String> = std::fs::read_dir(&dir)
            .expect("dir")
            .map(|e| e.expect("entry").file_name().into_string().expect("utf-8"))
            .collect();
        left.sort();
        assert_eq!(left.len(), 22, "{left:?}");
        assert_eq!(left[0], running, "kept though among the oldest");
        assert_eq!(left[1], "29990101-000004-99999999.jsonl", "the newest 20 in all are kept");
        assert!(left.contains(&"mine.txt".to_string()));
    }

    #[test]
    fn a_session_stamp_is_read_as_utc_seconds() {
        assert_eq!(stamp_seconds("19700101-000000"), Some(0));
        assert_eq!(stamp_seconds("20000229-235959"), Some(951_868_799));
        assert_eq!(stamp_seconds("20261206-121345"), Some(1_796_559_225));
        assert_eq!(stamp_seconds("2026120-121345x"), None);
        let me = process_start_seconds(&std::process::id().to_string()).expect("this process began");
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).expect("after 1970").as_secs();
        assert!(me <= now && me + 3600 > now, "{me} {now}");
    }

    /// `N` in a lesson opens it again, on a session of its own whose
    /// builds count from 0 again: the CSV went on with the rows of the
    /// world left behind while the summary told of the new one (its mean
    /// above its max).
    #[test]
    fn a_lesson_opened_again_starts_the_series_over() {
        use crate::app::{AppOptions, LessonMsg, Msg};
        let text = r#"Lesson(id: "s", title: "t", patch: "p", summary: "s", scenario: Preset("default"),
            steps: [Step(title: "one", text: "a", run_s: 2), Step(title: "two", text: "b", run_s: 2)])"#;
        let lesson = crate::lesson::Lesson::from_ron(text, "s.ron").expect("a lesson");
        let progress = crate::lesson::progress::Progress::default();
        let mut app = App::for_lesson(lesson, 0, progress, &AppOptions::default()).expect("opens");
        let dir = scratch("series-again");
        let csv = dir.join("s.csv");
        let mut series = SeriesWriter::create(Some(&csv), None, &app).expect("series");
        let go = |app: &mut App, series: &mut SeriesWriter, t: u64| {
            app.advance_to(t);
            series.drain(app).expect("drained");
        };
        go(&mut app, &mut series, 2_000_000_000);
        app.update(Msg::Lesson(LessonMsg::NextStep));
        go(&mut app, &mut series, 3_000_000_000);
        app.update(Msg::Lesson(LessonMsg::PrevStep));
        go(&mut app, &mut series, 1_000_000_000);
        let summary = series.finish(&app).expect("in place");
        assert!((summary.duration_s - 1.0).abs() < 1e-9, "{}", summary.duration_s);
        let rows = std::fs::read_to_string(&csv).expect("written");
        let last = rows.lines().last().expect("rows");
        assert!(last.starts_with("1.0,"), "the world since N, to 1 s: {last}");
    }

    #[test]
    fn a_record_file_becomes_the_last_session_too() {
        let dir = scratch("record-last");
        let data = dir.join("data");
        let mut r = Recorder::for_session(&data, &header());
        r.write(&[Entry::Advance(1_000_000_000)]).expect("written");
        r.finish().expect("in place");
        let class = dir.join("class.jsonl");
        let mut r = Recorder::create(&class, &header()).expect("recorder").link_last_session(&data);
        r.write(&[Entry::Advance(3_000_000_000)]).expect("written");
        r.finish().expect("in place");
        assert_eq!(load(&last_session(&data)).expect("the last session").1, vec![Entry::Advance(3_000_000_000)]);
        // Over a file that was there, too.
        let mut r = Recorder::create(&class, &header()).expect("recorder").link_last_session(&data);
        r.write(&[Entry::Advance(5_000_000_000)]).expect("written");
        r.finish().expect("in place");
        assert_eq!(load(&last_session(&data)).expect("the last session").1, vec![Entry::Advance(5_000_000_000)]);
        // Through a relative symbolic link: the last session is the file
        // it names, not a copy of the link (which would name a file
        // beside last-session.jsonl).
        std::os::unix::fs::symlink("class.jsonl", dir.join("link.jsonl")).expect("symlink");
        let mut r = Recorder::create(&dir.join("link.jsonl"), &header()).expect("recorder").link_last_session(&data);
        r.write(&[Entry::Advance(7_000_000_000)]).expect("written");
        r.finish().expect("in place");
        assert_eq!(load(&last_session(&data)).expect("the last session").1, vec![Entry::Advance(7_000_000_000)]);
    }
}
