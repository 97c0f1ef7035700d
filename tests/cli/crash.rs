//! What is not the user's fault: a panic or an internal error gets
//! color-eyre's report with the crash note, after the terminal is
//! restored. Debug builds inject them with `DIRTYVIZ_TEST_PANIC` and
//! `DIRTYVIZ_TEST_BUG`; release builds ignore both.

use std::io::Read;
use std::os::fd::OwnedFd;
use std::os::unix::process::{CommandExt as _, ExitStatusExt as _};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use crate::common::{dirtyviz, pty, tmp};

/// `dirtyviz run` for a simulated second, a fault injected by `var`.
fn run_with(var: &str) -> Output {
    dirtyviz()
        .args(["run", "-q", "--duration", "1s"])
        .env(var, "run")
        .env("NO_COLOR", "1")
        .env("RUST_BACKTRACE", "1")
        .output()
        .expect("runs")
}

#[cfg(debug_assertions)]
#[test]
fn a_panic_prints_color_eyres_report_with_the_crash_note() {
    let out = run_with("DIRTYVIZ_TEST_PANIC");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(101), "{stderr}");
    // color-eyre's panic report: header, message, location, backtrace.
    assert!(stderr.starts_with("The application panicked (crashed).\n"), "{stderr}");
    assert!(stderr.contains("Message:  DIRTYVIZ_TEST_PANIC=run: a panic injected for a test"), "{stderr}");
    assert!(stderr.contains("Location: src/main.rs:"), "{stderr}");
    // A frame in main, where the panic was injected (named by the line
    // tables the dev and release profiles keep).
    assert!(stderr.contains("BACKTRACE") && stderr.contains("src/main.rs:"), "{stderr}");
    // The frames of the panic machinery and of the hook are hidden.
    assert!(!stderr.contains("rust_begin_unwind") && !stderr.contains("crash::install"), "{stderr}");
    // The crash note, as a section of its own.
    assert!(stderr.contains("this is a bug. Please report it on the dirtyviz issue tracker"), "{stderr}");
    assert!(stderr.contains("Give the command line you ran"), "{stderr}");
    assert!(out.stdout.is_empty());
}

#[cfg(debug_assertions)]
#[test]
fn an_internal_error_prints_color_eyres_report_with_the_crash_note() {
    let out = run_with("DIRTYVIZ_TEST_BUG");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(101), "{stderr}");
    assert!(
        stderr.starts_with("Error: \n   0: internal error at src/main.rs:")
            && stderr.contains("DIRTYVIZ_TEST_BUG=run: an internal error injected for a test"),
        "{stderr}"
    );
    assert!(stderr.contains("this is a bug. Please report it on the dirtyviz issue tracker"), "{stderr}");
    assert!(stderr.contains("BACKTRACE"), "{stderr}");
}

/// With TERM=dumb (an editor's shell buffer) the dashboard drew its
/// escapes all the same: it says why it does not start, and starts
/// nothing.
#[test]
fn a_dumb_terminal_is_told_why_the_dashboard_does_not_start() {
    let (data, _master, mut command) = dashboard_on_pty("dumb-xdg");
    command.env("TERM", "dumb").stderr(Stdio::piped());
    let out = command.output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: terminal: TERM=dumb: this terminal cannot move the cursor the dashboard draws with; run it in a \
         terminal emulator (`dirtyviz snapshot` draws its screen as text, `dirtyviz run` runs the world headless)\n"
    );
    assert!(!data.join("dirtyviz/sessions").exists(), "no session recorded");
}

#[cfg(not(debug_assertions))]
#[test]
fn a_release_build_injects_nothing() {
    for var in ["DIRTYVIZ_TEST_PANIC", "DIRTYVIZ_TEST_BUG"] {
        let out = run_with(var);
        assert!(out.status.success(), "{var}: {}", String::from_utf8_lossy(&out.stderr));
    }
}

/// The dashboard's command on a new 100 x 30 pseudo-terminal (its stdin,
/// stdout and stderr), its data in the emptied scratch directory `name`:
/// that directory, the controlling side and the command.
fn dashboard_on_pty(name: &str) -> (PathBuf, OwnedFd, Command) {
    let data = tmp(name);
    let _ = std::fs::remove_dir_all(&data);
    std::fs::create_dir_all(&data).expect("scratch dir");
    let (master, slave) = pty(100, 30);
    let open = || std::fs::OpenOptions::new().read(true).write(true).open(&slave).expect("terminal side");
    let mut command = dirtyviz();
    command
        .env("XDG_DATA_HOME", &data)
        .env("TERM", "xterm-256color")
        .stdin(Stdio::from(open()))
        .stdout(Stdio::from(open()))
        .stderr(Stdio::from(open()));
    (data, master, command)
}

/// A lesson opened from the dashboard's lesson list (`L`) keeps its
/// progress, as one opened with `dirtyviz lesson` does.
#[test]
fn a_lesson_opened_from_the_dashboard_keeps_its_progress() {
    use std::io::Write as _;
    let (data, master, mut command) = dashboard_on_pty("dashboard-progress");
    let mut child = command.spawn().expect("starts");
    drop(command);
    let mut reader = std::fs::File::from(master.try_clone().expect("dup"));
    // The screen is read (and dropped) so that the dashboard never waits.
    let drain = std::thread::spawn(move || {
        let mut buf = [0u8; 1 << 16];
        while reader.read(&mut buf).is_ok_and(|n| n > 0) {}
    });
    let mut keys = std::fs::File::from(master);
    let pause = || std::thread::sleep(std::time::Duration::from_millis(700));
    // The list, the second lesson (01), its second step, quit.
    for key in ["L", "\x1b[B", "\r", "n", "q"] {
        pause();
        keys.write_all(key.as_bytes()).expect("a key");
    }
    let status = child.wait().expect("exits");
    assert!(status.success());
    drop(keys);
    let _ = drain.join();
    let progress = std::fs::read_to_string(data.join("dirtyviz/progress.ron")).expect("progress saved");
    assert!(progress.contains("\"01\""), "{progress}");
}

/// The dashboard on a pseudo-terminal panics a second into its session:
/// the terminal is given back (alternate screen left, cursor shown)
/// before the report, and the note names the session's recording, which
/// is kept.
#[cfg(debug_assertions)]
#[test]
fn a_dashboard_panic_restores_the_terminal_before_its_report() {
    let (data, master, mut command) = dashboard_on_pty("crash-xdg");
    let mut child = command
        .env("DIRTYVIZ_TEST_PANIC", "dashboard")
        .env("NO_COLOR", "1")
        .env("RUST_BACKTRACE", "0")
        .spawn()
        .expect("starts");
    // Only the child holds the terminal side now: its exit closes it.
    drop(command);
    // A dashboard that does not crash is stopped after a minute.
    let pid = child.id() as libc::pid_t;
    std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_secs(60));
        // SAFETY: a signal to the child; if it has exited and been reaped
        // the test has finished with it.
        unsafe { libc::kill(pid, libc::SIGKILL) };
    });
    // Everything the dashboard wrote, in order, until the terminal side
    // is closed by its exit (EIO).
    let mut screen = Vec::new();
    let mut reader = std::fs::File::from(master.try_clone().expect("dup"));
    let mut buf = [0u8; 1 << 16];
    loop {
        match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => screen.extend_from_slice(&buf[..n]),
            Err(e) if e.raw_os_error() == Some(libc::EIO) => break,
            Err(e) => panic!("reading the terminal: {e}"),
        }
    }
    let status = child.wait().expect("exits");
    let text = String::from_utf8_lossy(&screen);
    assert_eq!(status.code(), Some(101), "{text}");
    let entered = text.find("\x1b[?1049h").expect("the dashboard took the alternate screen");
    let left = text.rfind("\x1b[?1049l").expect("the alternate screen was left");
    let report = text.find("The application panicked (crashed).").expect("color-eyre's report");
    assert!(entered < left && left < report, "restored after the report: {text:?}");
    // Cleared before it is left: tmux, grown while the dashboard ran,
    // showed part of its last frame above the shell prompt otherwise.
    assert!(text[..left].ends_with("\x1b[2J"), "the alternate screen is cleared as it is left: {text:?}");
    assert!(text[left..report].contains("\x1b[?25h"), "the cursor is shown before the report: {text:?}");
    // The terminal side translates "\n" to "\r\n".
    let tail = text[report..].replace("\r\n", "\n");
    assert!(tail.contains("Message:  DIRTYVIZ_TEST_PANIC=dashboard: a panic injected for a test"), "{tail}");
    assert!(tail.contains("this is a bug. Please report it on the dirtyviz issue tracker"), "{tail}");
    let sessions = data.join("dirtyviz/sessions");
    let recording = std::fs::read_dir(&sessions).expect("sessions").next().expect("a recording").expect("entry").path();
    let recording = recording.to_str().expect("utf-8 path");
    assert!(tail.contains(&format!("`dirtyviz replay {recording}` reproduces the session")), "{tail}");
    assert!(tail.contains("Backtrace omitted"), "{tail}");
    // Only the cursor shown once more as the dropped terminal unwinds.
    let report_text = tail.trim_end_matches("\x1b[?25h");
    assert!(!report_text.contains('\x1b'), "nothing else after the report acts on the terminal: {tail:?}");
    // The recording of the crash is kept, and replays.
    assert!(data.join("dirtyviz/last-session.jsonl").exists());
    let replay = dirtyviz().args(["replay", recording]).output().expect("replays");
    assert!(replay.status.success(), "{}", String::from_utf8_lossy(&replay.stderr));
}

/// The terminal goes away under a running dashboard (its window closed,
/// an ssh connection lost): the kernel sends SIGHUP and every read of the
/// terminal then fails. The dashboard ends within seconds, exit 129, and
/// keeps its recording, instead of reading the dead terminal forever.
#[test]
fn a_dashboard_whose_terminal_hangs_up_ends_and_keeps_its_recording() {
    let (data, master, mut command) = dashboard_on_pty("hangup-xdg");
    // SAFETY: async-signal-safe calls between fork and exec: a session of
    // its own whose controlling terminal is the pseudo-terminal, as a
    // terminal window or sshd gives its shell.
    unsafe {
        command.pre_exec(|| {
            if libc::setsid() < 0 || libc::ioctl(0, libc::TIOCSCTTY, 0) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = command.spawn().expect("starts");
    // Only the child holds the terminal side now.
    drop(command);
    // Take what it draws for a second and a half, then hang up: closing
    // the controlling side makes the kernel send SIGHUP and hang the
    // terminal up, as closing a terminal window does.
    let mut reader = std::fs::File::from(master);
    let drawn = std::thread::spawn(move || {
        let mut buf = [0u8; 1 << 16];
        let start = std::time::Instant::now();
        let mut total = 0;
        while start.elapsed() < std::time::Duration::from_millis(1500) {
            match reader.read(&mut buf) {
                Ok(n) if n > 0 => total += n,
                _ => break,
            }
        }
        total
    });
    assert!(drawn.join().expect("reader") > 0, "the dashboard drew");
    let status = crate::common::ended_soon(&mut child, "its terminal hanging up");
    assert_eq!(status.code(), Some(129), "128 + SIGHUP; ended by signal {:?}", status.signal());
    assert!(data.join("dirtyviz/last-session.jsonl").exists(), "the session's recording is kept");
}

/// SIGHUP to a dashboard whose terminal is still there (`kill -HUP`, a
/// terminal multiplexer closing a pane) ends it as SIGTERM does: at once,
/// exit 129, not after the second the hang-up watch gives a dead terminal.
#[test]
fn sighup_ends_a_dashboard_at_once() {
    let (_data, master, mut command) = dashboard_on_pty("sighup-xdg");
    let mut child = command.spawn().expect("starts");
    drop(command);
    // Drain what it draws, so that it never waits on a full terminal.
    let mut reader = std::fs::File::from(master);
    let (drew, drawn) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 1 << 16];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            let _ = drew.send(());
        }
    });
    drawn.recv_timeout(std::time::Duration::from_secs(30)).expect("the dashboard drew");
    std::thread::sleep(std::time::Duration::from_millis(500));
    let start = std::time::Instant::now();
    // SAFETY: a signal to our own child, which has not been waited for.
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGHUP) }, 0);
    let status = loop {
        if let Some(status) = child.try_wait().expect("waits") {
            break status;
        }
        if start.elapsed() > std::time::Duration::from_secs(10) {
            let _ = child.kill();
            panic!("the dashboard still runs 10 s after SIGHUP");
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    let took = start.elapsed();
    assert_eq!(status.code(), Some(129), "128 + SIGHUP; ended by signal {:?}", status.signal());
    assert!(took < std::time::Duration::from_millis(600), "ended {took:?} after SIGHUP");
}

/// `dirtyviz > file` from a terminal: the keys could be read, but the
/// screen would go to the file. The dashboard says so in one line and
/// does not start (exit 1), writing nothing to the file, where it drew
/// into the file unseen and answered keys on a blank screen.
#[test]
fn a_dashboard_whose_output_is_a_file_says_it_needs_a_terminal() {
    let (data, _master, mut command) = dashboard_on_pty("stdout-file-xdg");
    let out = tmp("stdout-file.txt");
    let _ = std::fs::remove_file(&out);
    // SAFETY: async-signal-safe calls between fork and exec: the
    // pseudo-terminal (stdin) becomes the controlling terminal, as in a
    // terminal window where `dirtyviz > file` is typed.
    unsafe {
        command.pre_exec(|| {
            if libc::setsid() < 0 || libc::ioctl(0, libc::TIOCSCTTY, 0) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    command.stdout(Stdio::from(std::fs::File::create(&out).expect("file"))).stderr(Stdio::piped());
    let mut child = command.spawn().expect("starts");
    drop(command);
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waits") {
            break status;
        }
        if start.elapsed() > std::time::Duration::from_secs(5) {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "the dashboard ran with its screen going to a file ({} bytes)",
                std::fs::metadata(&out).map_or(0, |m| m.len())
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let mut stderr = String::new();
    child.stderr.take().expect("piped").read_to_string(&mut stderr).expect("stderr");
    assert_eq!(status.code(), Some(2), "{stderr}");
    assert_eq!(
        stderr,
        "error: terminal: standard output is not a terminal: the dashboard draws on one \
         (`dirtyviz snapshot` draws its screen as text, `dirtyviz run` runs the world headless)\n"
    );
    assert_eq!(std::fs::read(&out).expect("file").len(), 0, "nothing written to the file");
    assert!(!data.join("dirtyviz/sessions").exists(), "no session recorded");
}
