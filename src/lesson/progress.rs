//! Per-user lesson progress, kept in the XDG data directory
//! (`$XDG_DATA_HOME/dirtyviz/progress.ron`, by default
//! `~/.local/share/dirtyviz/progress.ron`), so that a student resumes
//! where they left off.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// How far a student got in one lesson.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
pub struct LessonProgress {
    /// The step last open (0-based).
    pub step: usize,
    /// Steps the lesson has.
    pub steps: usize,
    /// The last step was reached.
    pub done: bool,
}

/// Progress in every lesson, by lesson id.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
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

impl Progress {
    /// Reads the progress file; a missing or unreadable one is empty progress.
    pub fn load() -> Progress {
        path().and_then(|p| std::fs::read_to_string(p).ok()).and_then(|t| ron::from_str(&t).ok()).unwrap_or_default()
    }

    /// Writes the progress file.
    pub fn save(&self) -> Result<(), String> {
        let p = path().ok_or("no data directory (set XDG_DATA_HOME or HOME)")?;
        if let Some(dir) = p.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        let text = ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default()).map_err(|e| e.to_string())?;
        std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))
    }

    /// The step to open `lesson` at: where the student left it, or the
    /// first step when it was finished or never opened.
    pub fn resume_step(&self, lesson: &super::Lesson) -> usize {
        match self.lessons.get(&lesson.id) {
            Some(p) if !p.done && p.steps == lesson.steps.len() => p.step.min(lesson.steps.len() - 1),
            _ => 0,
        }
    }

    /// Notes that step `step` of `steps` of lesson `id` is open.
    pub fn reached(&mut self, id: &str, step: usize, steps: usize) {
        let e = self.lessons.entry(id.to_string()).or_default();
        e.step = step;
        e.steps = steps;
        e.done |= step + 1 >= steps;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_round_trips_through_ron() {
        let mut p = Progress::default();
        p.reached("03", 1, 4);
        p.reached("04", 3, 4);
        let text = ron::to_string(&p).expect("serialises");
        let back: Progress = ron::from_str(&text).expect("parses");
        assert_eq!(back, p);
        assert!(!back.lessons["03"].done);
        assert!(back.lessons["04"].done);
    }
}
