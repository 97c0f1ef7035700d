//! When dirtyviz itself is wrong: a panic, or an internal error
//! ([`Error::Bug`]). Neither is the user's fault, so neither gets the
//! one-line error the user's mistakes get: the terminal is restored
//! first (if the dashboard holds it), then color-eyre's report is printed
//! with the crash note as a section of its own: that this is a bug, where
//! to report it, and what to attach (the dashboard's recording, or the
//! command line and the files it read).
//!
//! [`install`] sets the hooks, once, at the start of `main`; the dashboard
//! tells what to attach with [`dashboard_started`] and [`dashboard_ended`].
//! A panic ends the process with code 101 (Rust's own), an internal error
//! with [`crate::error::EXIT_BUG`], the same.
//!
//! Debug builds read `DIRTYVIZ_TEST_PANIC` and `DIRTYVIZ_TEST_BUG` at
//! [`test_point`]s, to show these paths in tests; release builds never do.

use std::fmt;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use color_eyre::Section;
use color_eyre::config::{HookBuilder, Theme};

use crate::error::{Error, Result, say};

/// What the running command holds that a crash report must name.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Scene {
    /// A headless command: the command line reproduces it.
    Command,
    /// The dashboard, with the recording of its session if one is kept.
    Dashboard { recording: Option<PathBuf> },
}

static SCENE: Mutex<Scene> = Mutex::new(Scene::Command);

fn scene() -> Scene {
    // A poisoned lock still holds the last scene set.
    SCENE.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
}

fn set_scene(scene: Scene) {
    *SCENE.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = scene;
}

/// The dashboard took the terminal; `recording` is the file its session
/// is recorded to, if any. Until [`dashboard_ended`], a crash restores
/// the terminal before its report and names that recording.
pub fn dashboard_started(recording: Option<&Path>) {
    set_scene(Scene::Dashboard { recording: recording.map(Path::to_path_buf) });
    crate::oom::terminal_held(true);
}

/// The dashboard gave the terminal back.
pub fn dashboard_ended() {
    crate::oom::terminal_held(false);
    set_scene(Scene::Command);
}

/// The crash note of the current scene, read when a report is printed.
struct CrashNote;

impl fmt::Display for CrashNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(note(&scene()).trim_end())
    }
}

/// What a crash tells the user: that it is a bug, where to report it, and
/// what reproduces it.
fn note(scene: &Scene) -> String {
    let mut s = String::from(
        "dirtyviz crashed; this is a bug. Please report it on the dirtyviz issue tracker (README.md, \"Reporting a bug\").\n",
    );
    match scene {
        Scene::Dashboard { recording: Some(path) } => {
            let path = crate::error::printable(&path.display().to_string()).into_owned();
            s.push_str(&format!("Attach {path}: `dirtyviz replay {path}` reproduces the session up to the crash.\n"));
        }
        Scene::Dashboard { recording: None } => {
            s.push_str("Say what you did; --record FILE keeps a replayable record of a session.\n")
        }
        Scene::Command => s.push_str(
            "Give the command line you ran and attach the scenario, lesson, recording or trace file it read, \
             if it is your own: the simulation is deterministic, so they reproduce the crash.\n",
        ),
    }
    s
}

/// Installs color-eyre's panic and error-report hooks. A panic restores
/// the terminal first, when the dashboard holds it. Colours only on a
/// terminal, and not with `NO_COLOR` set.
pub fn install() {
    let (panic_hook, eyre_hook) = hooks();
    // Only fails if a hook was installed before: then that one reports.
    let _ = eyre_hook.install();
    std::panic::set_hook(Box::new(move |info| {
        restore_terminal();
        say(format_args!("{}", panic_hook.panic_report(info)));
    }));
}

/// color-eyre's hooks, the crash note their section.
fn hooks() -> (color_eyre::config::PanicHook, color_eyre::config::EyreHook) {
    let colour = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    HookBuilder::blank()
        .add_default_filters()
        .add_frame_filter(Box::new(hide_panic_machinery))
        .theme(if colour { Theme::dark() } else { Theme::new() })
        .panic_section(CrashNote)
        .into_hooks()
}

/// Hides the frames between the panic and the report: the standard
/// library's panic machinery and the hook itself, whose symbol names
/// (with their crate hashes) color-eyre's default filters do not match.
fn hide_panic_machinery(frames: &mut Vec<&color_eyre::config::Frame>) {
    const MACHINERY: [&str; 5] =
        ["::panicking::", "rust_begin_unwind", "__rust_end_short_backtrace", "PanicHookInfo", "crash::install"];
    frames.retain(|f| f.name.as_deref().is_none_or(|name| !MACHINERY.iter().any(|m| name.contains(m))));
}

/// Gives the terminal back if the dashboard holds it.
fn restore_terminal() {
    if crate::oom::terminal_is_held() {
        crate::oom::terminal_held(false);
        crate::ui::restore_terminal();
    }
}

/// The report of an internal error: the error, the crash note, how to get
/// a backtrace.
pub fn report(e: Error) -> color_eyre::Report {
    color_eyre::Report::new(e).section(CrashNote)
}

/// Prints `e`'s report on stderr: color-eyre's for an internal error
/// (after restoring the terminal), one line for any other. Returns the
/// exit code it ends dirtyviz with.
pub fn print_error(e: Error) -> u8 {
    let code = e.exit_code();
    if matches!(e, Error::ReaderGone) {
        // Nothing to say: the reader asked for no more.
        return code;
    }
    if e.is_bug() {
        restore_terminal();
        say(format_args!("Error: {:?}", report(e)));
    } else {
        say(format_args!("error: {}", crate::error::printable(&e.to_string())));
    }
    code
}

/// Debug builds only: panics if `DIRTYVIZ_TEST_PANIC` is `site`, and
/// fails with an internal error if `DIRTYVIZ_TEST_BUG` is. Sites: each
/// command's name (`start` for the bare `dirtyviz`), before it runs, and
/// `dashboard`, a second into a dashboard session (terminal held).
#[cfg(debug_assertions)]
#[track_caller]
pub fn test_point(site: &str) -> Result<()> {
    if std::env::var_os("DIRTYVIZ_TEST_PANIC").is_some_and(|v| v == site) {
        panic!("DIRTYVIZ_TEST_PANIC={site}: a panic injected for a test");
    }
    if std::env::var_os("DIRTYVIZ_TEST_BUG").is_some_and(|v| v == site) {
        return Err(Error::bug(format!("DIRTYVIZ_TEST_BUG={site}: an internal error injected for a test")));
    }
    Ok(())
}

/// Release builds: nothing.
#[cfg(not(debug_assertions))]
#[inline(always)]
pub fn test_point(_site: &str) -> Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crash_names_what_reproduces_it() {
        let path = PathBuf::from("/home/me/.local/share/dirtyviz/sessions/20261101-101500-42.jsonl");
        let n = note(&Scene::Dashboard { recording: Some(path) });
        assert!(n.contains("this is a bug") && n.contains("issue tracker"), "{n}");
        assert!(n.contains("dirtyviz replay /home/me/.local/share/dirtyviz/sessions/20261101-101500-42.jsonl"), "{n}");
        assert!(note(&Scene::Dashboard { recording: None }).contains("--record FILE"));
        assert!(note(&Scene::Command).contains("command line"));
    }

    #[test]
    fn a_recording_path_cannot_act_on_the_terminal() {
        let n = note(&Scene::Dashboard { recording: Some(PathBuf::from("a\u{1b}[2Jb.jsonl")) });
        assert!(!n.contains('\u{1b}') && n.contains("a\\u{1b}[2Jb.jsonl"), "{n}");
    }

    #[test]
    fn an_internal_error_is_reported_with_the_crash_note() {
        // The error-report hook alone: the panic hook stays the test harness's.
        let _ = hooks().1.install();
        let text = format!("{:?}", report(Error::bug("a counter went negative")));
        assert!(text.contains("a counter went negative") && text.contains("src/crash.rs:"), "{text}");
        assert!(text.contains("this is a bug"), "{text}");
    }
}
