//! Per-user lesson progress, kept in the XDG data directory
//! (`$XDG_DATA_HOME/dirtyviz/progress.ron`, by default
//! `~/.local/share/dirtyviz/progress.ron`), so that a student resumes
//! where they left off.
//!
//! Progress is never lost:
//! - a save changes one lesson's entry: under an advisory lock
//!   (`progress.lock` beside the file, `flock`) it reads the file, sets
//!   that entry (of its answers, those of the steps this session answered
//!   or restarted since its last save) and writes the whole back, so two
//!   sessions at once each keep their own lessons and answers;
//! - the file is replaced in one step (a temporary file, synced, renamed
//!   over it), so a full disk or a crash leaves the previous file whole;
//! - a file that does not parse is set aside as `progress.ron.bad-<time>`
//!   (nothing in it is deleted) and the user is told, once.

use std::collections::{BTreeMap, BTreeSet};
use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// How far a student got in one lesson.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
pub struct LessonProgress {
    /// The step last open (0-based).
    pub step: usize,
    /// Steps the lesson has.
    pub steps: usize,
    /// The last step ran to the end of its time (its checks were judged):
    /// opening it is not finishing it.
    pub done: bool,
    /// The answers given, by step (0-based), one slot per question: a
    /// step opened again, also in a later session, has them back, to be
    /// judged at its end. (Files of earlier builds have none.)
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub answers: BTreeMap<usize, Vec<Option<Given>>>,
    /// The steps whose answers this session gave or forgot: a save takes
    /// theirs and keeps what another session of the lesson saved for the
    /// other steps.
    #[serde(skip)]
    pub answers_changed: BTreeSet<usize>,
}

/// An answer given to a lesson question.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize, Serialize)]
pub struct Given {
    /// The number given, in the question's unit.
    pub value: f64,
    /// It, or an earlier answer to the question, was judged wrong with
    /// the simulation's value beside it: right, it does not count, nor
    /// does a right answer after it.
    #[serde(default)]
    pub after_shown: bool,
}

/// Whether a lesson left as `p` says opens at its first step, with none
/// of its answers: it was finished and left at its last step, or has
/// another number of steps now.
fn starts_over(p: &LessonProgress, lesson: &super::Lesson) -> bool {
    let steps = lesson.steps.len();
    p.steps != steps || (p.done && p.step >= steps.saturating_sub(1))
}

/// Progress in every lesson, by lesson id.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
pub struct Progress {
    /// By lesson id.
    pub lessons: BTreeMap<String, LessonProgress>,
}

/// dirtyviz's data directory, `$XDG_DATA_HOME/dirtyviz` (by default
/// `~/.local/share/dirtyviz`), if one can be found.
pub fn data_dir() -> Option<PathBuf> {
    let base = match std::env::var_os("XDG_DATA_HOME").filter(|v| !v.is_empty()) {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(std::env::var_os("HOME").filter(|v| !v.is_empty())?).join(".local/share"),
    };
    Some(base.join("dirtyviz"))
}

/// The progress file's path, if a data directory can be found.
pub fn path() -> Option<PathBuf> {
    Some(data_dir()?.join("progress.ron"))
}

/// The lock file beside the progress file.
pub fn lock_path(progress: &Path) -> PathBuf {
    progress.with_file_name("progress.lock")
}

/// Largest progress file read \[bytes\].
const MAX_BYTES: u64 = 1 << 20;

/// What reading the progress file found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Loaded {
    /// The progress (empty when there was none to read).
    pub progress: Progress,
    /// What the user must be told: the file was set aside, or cannot be read.
    pub warning: Option<String>,
    /// The same, short enough for a status line.
    pub note: Option<String>,
}

/// A short reason for a status line: "disk full", "read-only", ...
fn short_reason(e: &Error) -> String {
    use std::io::ErrorKind as K;
    match e {
        Error::Io { source, .. } => match source.kind() {
            K::StorageFull => "disk full".into(),
            K::PermissionDenied | K::ReadOnlyFilesystem => "not allowed to write".into(),
            K::IsADirectory => "it is a directory".into(),
            K::NotFound => "no such directory".into(),
            _ => source.kind().to_string(),
        },
        Error::Invalid(what) if what.contains("regular file") => "not a regular file".into(),
        other => other.to_string(),
    }
}

/// The time now as `YYYYMMDD-HHMMSS`.
fn now() -> String {
    crate::output::timestamp(std::time::SystemTime::now())
}

/// Reads the file at `path`: `Ok(None)` when there is none, the parsed
/// progress, or `Err` saying why the text does not parse.
fn read(path: &Path) -> Result<std::result::Result<Option<Progress>, String>> {
    use std::io::Read;
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Ok(None)),
        Err(e) => return Err(Error::io(path, "cannot read")(e)),
    };
    if meta.is_dir() {
        return Err(Error::io(path, "cannot read")(std::io::ErrorKind::IsADirectory.into()));
    }
    let file = crate::input::open(path, "progress", MAX_BYTES)?;
    let mut bytes = Vec::new();
    file.take(MAX_BYTES + 1).read_to_end(&mut bytes).map_err(Error::io(path, "cannot read"))?;
    if bytes.len() as u64 > MAX_BYTES {
        return Ok(Err(format!("larger than {MAX_BYTES} bytes")));
    }
    let Ok(text) = String::from_utf8(bytes) else {
        return Ok(Err("not UTF-8 text".into()));
    };
    Ok(match ron::from_str::<Progress>(crate::input::without_bom(&text)) {
        Ok(mut p) => {
            // A number no answer can be (a file edited by hand): JSON,
            // which a recording's header writes the progress in, has none.
            for e in p.lessons.values_mut() {
                for given in e.answers.values_mut().flatten() {
                    *given = given.filter(|g| g.value.is_finite());
                }
            }
            Ok(Some(p))
        }
        Err(e) => Err(format!("{}:{}:{}: {}", path.display(), e.span.start.line, e.span.start.col, e.code)),
    })
}

/// Holds the progress lock while alive.
struct Lock(File);

impl Lock {
    fn take(progress: &Path) -> Result<Lock> {
        let path = lock_path(progress);
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(Error::io(&path, "cannot lock"))?;
        file.lock().map_err(Error::io(&path, "cannot lock"))?;
        Ok(Lock(file))
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        let _ = self.0.unlock();
    }
}

/// Moves a file that does not parse aside as `progress.ron.bad-<time>`
/// (under the lock); returns what to tell the user, in full and short.
fn set_aside(path: &Path, why: &str) -> Result<(String, String)> {
    let name = format!("progress.ron.bad-{}", now());
    let aside = path.with_file_name(&name);
    std::fs::rename(path, &aside).map_err(Error::io(path, "cannot set aside"))?;
    Ok((
        format!("progress unreadable ({why}); the file was kept as {} and progress starts afresh", aside.display()),
        format!("bad progress.ron kept as .bad-{}", &name["progress.ron.bad-".len()..]),
    ))
}

impl Progress {
    /// Reads the progress file. A file that does not parse is set aside
    /// (see the module's doc) and `warning` says so; a file that cannot be
    /// read gives empty progress and a warning.
    pub fn open_at(path: &Path) -> Loaded {
        let warn = |e: Error| Loaded {
            progress: Progress::default(),
            note: Some(format!("progress not read: {}", short_reason(&e))),
            warning: Some(format!("progress not read: {e}")),
        };
        let fine = |p: Option<Progress>| Loaded { progress: p.unwrap_or_default(), warning: None, note: None };
        match read(path) {
            Ok(Ok(p)) => fine(p),
            Ok(Err(_)) => {
                // Look again under the lock: another session may have just replaced it.
                let lock = match Lock::take(path) {
                    Ok(l) => l,
                    Err(e) => return warn(e),
                };
                let outcome = match read(path) {
                    Ok(Ok(p)) => fine(p),
                    Ok(Err(why)) => match set_aside(path, &why) {
                        Ok((warning, note)) => {
                            Loaded { progress: Progress::default(), warning: Some(warning), note: Some(note) }
                        }
                        Err(e) => warn(Error::invalid(format!("unreadable ({why}) and not set aside: {e}"))),
                    },
                    Err(e) => warn(e),
                };
                drop(lock);
                outcome
            }
            Err(e) => warn(e),
        }
    }

    /// Reads the user's progress file ([`Progress::open_at`]); no data
    /// directory means no progress.
    pub fn open() -> Loaded {
        match path() {
            Some(p) => Progress::open_at(&p),
            None => Loaded::default(),
        }
    }

    /// Saves lesson `id`'s entry into the file at `path`, keeping every
    /// other lesson's entry there, and takes in what other sessions saved.
    /// Returns a short note when the file had to be set aside first.
    pub fn save_lesson_at(&mut self, path: &Path, id: &str) -> Result<Option<String>> {
        let entry = self.lessons.get(id).cloned();
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(Error::io(dir, "cannot create"))?;
        }
        let _lock = Lock::take(path)?;
        let (mut on_disk, warning) = match read(path)? {
            Ok(p) => (p.unwrap_or_default(), None),
            Err(why) => (Progress::default(), Some(set_aside(path, &why)?.1)),
        };
        if let Some(e) = entry {
            let saved = on_disk.lessons.remove(id).unwrap_or_default();
            let mut answers = saved.answers;
            for &step in &e.answers_changed {
                match e.answers.get(&step) {
                    Some(given) => answers.insert(step, given.clone()),
                    None => answers.remove(&step),
                };
            }
            let done = saved.done || e.done;
            let merged = LessonProgress { done, answers, answers_changed: BTreeSet::new(), ..e };
            on_disk.lessons.insert(id.to_string(), merged);
        }
        let text = ron::ser::to_string_pretty(&on_disk, ron::ser::PrettyConfig::default()).expect("plain data");
        let mut out = crate::output::AtomicFile::create(path)?.durable();
        out.put(text.as_bytes())?;
        out.commit()?;
        *self = on_disk;
        Ok(warning)
    }

    /// [`Progress::save_lesson_at`] on the user's progress file. Errors
    /// are short, for a status line ("progress not saved: disk full").
    pub fn save_lesson(&mut self, id: &str) -> std::result::Result<Option<String>, String> {
        let p = path().ok_or("progress not saved: no data directory (set XDG_DATA_HOME or HOME)")?;
        self.save_lesson_at(&p, id).map_err(|e| format!("progress not saved: {}", short_reason(&e)))
    }

    /// The step to open `lesson` at: where the student left it, or the
    /// first step when it was never opened, has another number of steps
    /// now, or was finished and left at its last step.
    pub fn resume_step(&self, lesson: &super::Lesson) -> usize {
        let last = lesson.steps.len().saturating_sub(1);
        // Earlier builds kept a lesson file of the user's under its
        // id alone: taken where the file has no entry of its own yet.
        let own = self.lessons.get(lesson.progress_id());
        let earlier = || {
            let mine = lesson.progress_id() != lesson.id && super::Lesson::shipped_file(&lesson.id).is_none();
            mine.then(|| self.lessons.get(&lesson.id)).flatten()
        };
        match own.or_else(earlier) {
            Some(p) if !starts_over(p, lesson) => p.step.min(last),
            _ => 0,
        }
    }

    /// The step to open `lesson` at, as [`Progress::resume_step`] finds
    /// it. A lesson finished and left at its last step, or with another
    /// number of steps now, starts over: the answers given to it before
    /// are dropped.
    pub fn start(&mut self, lesson: &super::Lesson) -> usize {
        let step = self.resume_step(lesson);
        if let Some(e) = self.lessons.get_mut(lesson.progress_id())
            && starts_over(e, lesson)
        {
            e.answers_changed.extend(e.answers.keys());
            e.answers.clear();
        }
        step
    }

    /// The answers given to step `step` of lesson `id`, with one slot for
    /// each of its `questions` (none if the step's number of questions
    /// changed since).
    pub fn answers(&self, id: &str, step: usize, questions: usize) -> Option<&[Option<Given>]> {
        let given = self.lessons.get(id)?.answers.get(&step)?;
        (given.len() == questions).then_some(given.as_slice())
    }

    /// Notes that lesson `id`'s answers are saved: the next save takes
    /// only the steps answered or restarted after this one.
    pub fn answers_saved(&mut self, id: &str) {
        if let Some(e) = self.lessons.get_mut(id) {
            e.answers_changed.clear();
        }
    }

    /// Notes the answers given to step `step` of lesson `id`; none
    /// (`[]`) forgets them.
    pub fn answered(&mut self, id: &str, step: usize, given: Vec<Option<Given>>) {
        let e = self.lessons.entry(id.to_string()).or_default();
        e.answers_changed.insert(step);
        if given.iter().all(Option::is_none) {
            e.answers.remove(&step);
        } else {
            e.answers.insert(step, given);
        }
    }

    /// Notes that step `step` of `steps` of lesson `id` is open.
    pub fn reached(&mut self, id: &str, step: usize, steps: usize) {
        let e = self.lessons.entry(id.to_string()).or_default();
        e.step = step;
        e.steps = steps;
    }

    /// Notes that lesson `id`'s last step ran to its end: the lesson is done.
    pub fn finished(&mut self, id: &str, steps: usize) {
        let e = self.lessons.entry(id.to_string()).or_default();
        e.step = steps.saturating_sub(1);
        e.steps = steps;
        e.done = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scratch::Scratch;

    /// A scratch directory and the progress file in it.
    fn scratch(name: &str) -> (Scratch, PathBuf) {
        let dir = Scratch::new(&format!("progress-{name}"));
        let file = dir.join("progress.ron");
        (dir, file)
    }

    #[test]
    fn progress_round_trips_through_ron() {
        let mut p = Progress::default();
        p.reached("03", 1, 4);
        p.reached("04", 3, 4);
        p.finished("05", 4);
        let text = ron::to_string(&p).expect("serialises");
        let back: Progress = ron::from_str(&text).expect("parses");
        assert_eq!(back, p);
        assert!(!back.lessons["03"].done);
        assert!(!back.lessons["04"].done, "the last step opened, not yet run");
        assert_eq!(back.lessons["05"], LessonProgress { step: 3, steps: 4, done: true, ..Default::default() });
    }

    #[test]
    fn a_lesson_file_takes_up_what_earlier_builds_kept_under_its_id() {
        let (_dir, path) = scratch("earlier");
        let (_, text) = crate::lesson::Lesson::shipped_file("03").expect("shipped");
        let file = path.with_file_name("mine.ron");
        std::fs::write(&file, text.replacen("id: \"03\"", "id: \"91\"", 1)).expect("written");
        let mine = crate::lesson::Lesson::load(&file).expect("loads");
        let steps = mine.steps.len();
        let mut p = Progress::default();
        p.reached("91", 2, steps);
        assert_eq!(p.resume_step(&mine), 2, "under its id alone");
        p.reached(mine.progress_id(), 1, steps);
        assert_eq!(p.resume_step(&mine), 1, "its own entry first");
        // A changed copy of a shipped lesson never takes the shipped one's.
        let copy = path.with_file_name("copy.ron");
        std::fs::write(&copy, text.replacen("title: \"", "title: \"Mine: ", 1)).expect("written");
        let copy = crate::lesson::Lesson::load(&copy).expect("loads");
        p.reached("03", 2, copy.steps.len());
        assert_eq!(p.resume_step(&copy), 0);
    }

    /// Answers given are kept in the file, by step; an entry with none
    /// is written as earlier builds wrote it, and their files still read.
    #[test]
    fn answers_are_kept_in_the_file_by_step() {
        let (_dir, path) = scratch("answers");
        let mut p = Progress::default();
        p.reached("07", 2, 6);
        p.save_lesson_at(&path, "07").expect("saved");
        let text = std::fs::read_to_string(&path).expect("read");
        assert!(!text.contains("answers"), "none given, none written:\n{text}");
        let right = Given { value: 128.0, after_shown: false };
        let late = Given { value: 0.25, after_shown: true };
        p.answered("07", 2, vec![Some(right), None, Some(late)]);
        p.save_lesson_at(&path, "07").expect("saved");
        let back = Progress::open_at(&path).progress;
        assert_eq!(back.answers("07", 2, 3), Some(&[Some(right), None, Some(late)][..]));
        assert_eq!(back.answers("07", 2, 2), None, "the step's questions changed since: none");
        assert_eq!(back.answers("07", 1, 3), None);
        let odd = "(lessons: {\"07\": (step: 2, steps: 6, done: false, answers: {1: [Some((value: NaN)), Some((value: inf)), Some((value: 2))]})})";
        std::fs::write(&path, odd).expect("written");
        let odd = Progress::open_at(&path).progress;
        let two = Some(Given { value: 2.0, after_shown: false });
        assert_eq!(odd.answers("07", 1, 3), Some(&[None, None, two][..]), "no number no answer can be");
        assert!(serde_json::from_str::<Progress>(&serde_json::to_string(&odd).expect("JSON")).is_ok(), "a header's");
        let earlier = "(lessons: {\"07\": (step: 2, steps: 6, done: false)})";
        let earlier: Progress = ron::from_str(earlier).expect("an earlier build's file parses");
        assert!(earlier.lessons["07"].answers.is_empty());
        let mut forgot = back;
        forgot.answered("07", 2, vec![None, None, None]);
        assert!(forgot.lessons["07"].answers.is_empty(), "no answer left: the step's slot goes");
    }

    /// Taken up again, a lesson keeps its answers; started over (it was
    /// finished, or has other steps now), it drops them.
    #[test]
    fn a_lesson_started_over_drops_its_answers() {
        let (file, text) = crate::lesson::Lesson::shipped_file("03").expect("shipped");
        let lesson = crate::lesson::Lesson::from_ron(text, file).expect("parses");
        let (id, steps) = (lesson.progress_id().to_string(), lesson.steps.len());
        let given = vec![Some(Given { value: 1.0, after_shown: false })];
        let mut p = Progress::default();
        p.reached(&id, 2, steps);
        p.answered(&id, 1, given.clone());
        assert_eq!(p.start(&lesson), 2);
        assert_eq!(p.lessons[&id].answers.len(), 1, "taken up where it was left: kept");
        p.finished(&id, steps);
        assert_eq!(p.start(&lesson), 0);
        assert!(p.lessons[&id].answers.is_empty(), "finished, started over: dropped");
        // Gone through again: answers given on the way are the new pass's.
        p.reached(&id, 0, steps);
        p.answered(&id, 0, given.clone());
        assert_eq!(p.start(&lesson), 0);
        assert_eq!(p.lessons[&id].answers.len(), 1, "finished before, taken up at step 1: kept");
        p.reached(&id, 2, steps + 1);
        p.answered(&id, 1, given);
        assert_eq!(p.start(&lesson), 0);
        assert!(p.lessons[&id].answers.is_empty(), "another number of steps: dropped");
    }

    /// Two sessions of one lesson each keep the answers of the steps they
    /// answered (or restarted); neither wipes the other's.
    #[test]
    fn two_sessions_of_a_lesson_keep_each_others_answers() {
        let (_dir, path) = scratch("answers-two");
        let given = |v: f64| Some(vec![Some(Given { value: v, after_shown: false })]);
        let on_disk = |step: usize| Progress::open_at(&path).progress.answers("00", step, 1).map(<[_]>::to_vec);
        // Each saves as the app does: a copy, then notes the answers saved.
        let save = |p: &mut Progress| {
            p.clone().save_lesson_at(&path, "00").expect("saved");
            p.answers_saved("00");
        };
        let (mut a, mut b) = (Progress::default(), Progress::default());
        a.reached("00", 0, 4);
        b.reached("00", 0, 4);
        a.answered("00", 0, given(369.0).expect("one"));
        save(&mut a);
        b.reached("00", 2, 4);
        b.answered("00", 2, given(184.0).expect("one"));
        save(&mut b);
        assert_eq!((on_disk(0), on_disk(2)), (given(369.0), given(184.0)));
        assert_eq!(Progress::open_at(&path).progress.lessons["00"].step, 2, "the step is the last save's");
        // A restarts step 2 (`r`), B answers it again, A answers step 0:
        // B's answer stays.
        a.answered("00", 2, Vec::new());
        save(&mut a);
        assert_eq!(on_disk(2), None);
        b.answered("00", 2, given(185.0).expect("one"));
        save(&mut b);
        a.answered("00", 0, given(370.0).expect("one"));
        save(&mut a);
        assert_eq!((on_disk(0), on_disk(2)), (given(370.0), given(185.0)));
    }

    #[test]
    fn a_save_keeps_other_lessons() {
        let (_dir, path) = scratch("merge");
        let mut a = Progress::default();
        let mut b = Progress::default();
        a.reached("07", 4, 6);
        a.save_lesson_at(&path, "07").expect("saved");
        b.reached("03", 1, 4);
        b.save_lesson_at(&path, "03").expect("saved");
        assert_eq!(b.lessons["07"].step, 4, "b took in a's lesson");
        let on_disk = Progress::open_at(&path);
        assert_eq!(on_disk.warning, None);
        assert_eq!((on_disk.progress.lessons["07"].step, on_disk.progress.lessons["03"].step), (4, 1));
    }

    #[test]
    fn a_broken_file_is_set_aside_and_told() {
        let (_dir, path) = scratch("broken");
        let mut p = Progress::default();
        p.reached("00", 3, 4);
        p.reached("02", 1, 4);
        for id in ["00", "02"] {
            p.save_lesson_at(&path, id).expect("saved");
        }
        let text = std::fs::read_to_string(&path).expect("read");
        std::fs::write(&path, &text[..text.len() - 3]).expect("truncate");
        let loaded = Progress::open_at(&path);
        let warning = loaded.warning.expect("told");
        assert!(warning.contains("progress.ron.bad-"), "{warning}");
        assert!(loaded.note.expect("a note").len() <= 60);
        assert!(!path.exists());
        let aside: Vec<_> = std::fs::read_dir(path.parent().expect("dir"))
            .expect("dir")
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().starts_with("progress.ron.bad-"))
            .collect();
        assert_eq!(aside.len(), 1);
        assert_eq!(std::fs::read_to_string(aside[0].path()).expect("kept"), text[..text.len() - 3]);
        assert_eq!(Progress::open_at(&path).warning, None, "told once");
    }

    #[test]
    fn garbage_is_set_aside_too() {
        let (_dir, path) = scratch("garbage");
        std::fs::write(&path, [0xff, 0xfe, 0x00, 0x41]).expect("write");
        let loaded = Progress::open_at(&path);
        assert!(loaded.warning.expect("told").contains("not UTF-8"));
        assert!(!path.exists());
    }

    #[test]
    fn a_directory_in_the_way_is_reported() {
        let (_dir, path) = scratch("dir");
        std::fs::create_dir(&path).expect("dir");
        let loaded = Progress::open_at(&path);
        assert!(loaded.warning.expect("told").contains("is a directory"));
        assert_eq!(loaded.note.as_deref(), Some("progress not read: it is a directory"));
        let mut p = Progress::default();
        p.reached("01", 0, 3);
        let e = p.save_lesson_at(&path, "01").expect_err("cannot save");
        assert!(e.to_string().contains("is a directory"), "{e}");
        assert!(path.is_dir(), "left as it was");
    }
}
