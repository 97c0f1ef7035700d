//! Ctrl-C (and SIGTERM, SIGHUP, SIGQUIT) during a headless run or replay: the
//! first one is noted and the run stops at its next step with
//! [`Error::Interrupted`], so its outputs are discarded and the files they
//! would have replaced stay as they were. More of them within a second of
//! the first are the same request (`timeout` signals both dirtyviz and its
//! process group; an impatient second Ctrl-C): they are let pass, so that
//! the run still removes its temporary files. One after that ends
//! dirtyviz at once, as usual.
//!
//! [`open`] opens a path so that such a signal stops the wait for a FIFO's
//! other end, which the handler (installed to restart what it breaks into)
//! would otherwise let go on for ever.

use std::fs::{File, OpenOptions};
use std::path::Path;
use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};
use std::time::Duration;

use crate::error::{Error, Result};

/// The signal that asked to stop, 0 while none has.
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// When it came, on the monotonic clock \[ns\].
static SIGNALLED_NS: AtomicU64 = AtomicU64::new(0);

const SIGNALS: [libc::c_int; 4] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT];

/// How long after the first signal more of them are the same request \[ns\].
pub(crate) const SAME_REQUEST_NS: u64 = 1_000_000_000;

/// The monotonic clock \[ns\] (clock_gettime is async-signal-safe).
pub(crate) fn monotonic_ns() -> u64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid timespec to write.
    unsafe {
        libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut t);
    }
    t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
}

extern "C" fn note(signal: libc::c_int) {
    let now = monotonic_ns();
    if SIGNAL.compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst).is_ok() {
        SIGNALLED_NS.store(now, Ordering::SeqCst);
        return;
    }
    if now.saturating_sub(SIGNALLED_NS.load(Ordering::SeqCst)) < SAME_REQUEST_NS {
        return;
    }
    // SAFETY: signal() and raise() are async-signal-safe; with the default
    // action back, the signal ends the process as it would have.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
}

/// From now on, the first Ctrl-C, SIGTERM, SIGHUP or SIGQUIT is noted for
/// [`check`] instead of ending dirtyviz.
///
/// The handler is installed without `SA_RESTART`: a read waiting for
/// input (a FIFO or pipe whose writer is quiet) returns `EINTR`, which the
/// standard library's readers retry after the reader's own [`check`], so
/// such a wait stops as `cat FIFO` stops. (open(2) is retried by the
/// standard library whatever the flag: [`open`] handles that wait.)
pub fn catch() {
    for s in SIGNALS {
        // SAFETY: `note` only stores to an atomic and calls signal(),
        // both async-signal-safe; `action` is a valid sigaction, zeroed
        // but for its handler and its empty mask.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = note as *const () as libc::sighandler_t;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(s, &action, std::ptr::null_mut());
        }
    }
}

/// `Err(Interrupted)` once a signal asked to stop.
pub fn check() -> Result<()> {
    signal().map_or(Ok(()), |signal| Err(Error::Interrupted(signal)))
}

/// The signal that asked to stop, if one has.
pub fn signal() -> Option<i32> {
    match SIGNAL.load(Ordering::Relaxed) {
        0 => None,
        signal => Some(signal),
    }
}

/// How often a wait for a FIFO's other end looks for a signal.
const OPEN_POLL: Duration = Duration::from_millis(20);

/// Opens `path` with `options`, its failure told by `failed`. A regular
/// file, a directory or a path not there yet is opened at once, as
/// always. Anything else (a FIFO, a device) may wait in open() for its
/// other end, a writer for reading or a reader for writing, for as long
/// as none comes: it is opened on a helper thread while this one waits for
/// the result or for a signal asking to stop ([`signal`]), as `cat FIFO`
/// stops at Ctrl-C ([`Error::Interrupted`]). The helper left waiting ends
/// with the process. `options` open to read (a wait is for a writer).
pub fn open(path: &Path, options: &OpenOptions, failed: impl FnOnce(std::io::Error) -> Error) -> Result<File> {
    open_until(path, options, false, failed, &signal)
}

/// How long a wait for a FIFO's other end goes before it is told on
/// standard error (a terminal showed nothing while dirtyviz waited).
const TOLD_AFTER: Duration = Duration::from_secs(1);

/// [`open`], the signal that stops the wait told by `stopped` (a command
/// that catches signals its own way); `writing` when `options` open to
/// write: an output, opened before any terminal is taken, whose wait of a
/// second or more for a reader is told on standard error. (A wait to
/// read is told by the reader's own progress: the trace dashboard's
/// loading screen, where standard error would land in the middle of it.)
pub fn open_until(
    path: &Path,
    options: &OpenOptions,
    writing: bool,
    failed: impl FnOnce(std::io::Error) -> Error,
    stopped: &dyn Fn() -> Option<i32>,
) -> Result<File> {
    let check = || stopped().map_or(Ok(()), |signal| Err(Error::Interrupted(signal)));
    if std::fs::metadata(path).map_or(true, |m| m.is_file() || m.is_dir()) {
        return options.open(path).map_err(failed);
    }
    check()?;
    let (tx, rx) = std::sync::mpsc::channel();
    let (owned, options) = (path.to_path_buf(), options.clone());
    let spawned = std::thread::Builder::new().name("open".into()).spawn(move || {
        // The receiver is gone once a signal stopped the wait.
        let _ = tx.send(options.open(&owned));
    });
    if let Err(e) = spawned {
        return Err(failed(e));
    }
    let started = std::time::Instant::now();
    let mut told = false;
    loop {
        match rx.recv_timeout(OPEN_POLL) {
            Ok(opened) => return opened.map_err(failed),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                check()?;
                if writing && !told && started.elapsed() >= TOLD_AFTER {
                    told = true;
                    eprintln!("{}", waiting_note(path));
                }
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                return Err(failed(std::io::Error::other("the thread opening it ended")));
            }
        }
    }
}

/// What a wait for a reader of `path`, opened to write, is told as.
fn waiting_note(path: &Path) -> String {
    format!(
        "{}: waiting for a program to open it for reading (a FIFO waits for its other end; Ctrl-C stops)",
        crate::error::printable(&path.display().to_string())
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scratch::Scratch;

    #[test]
    fn a_regular_file_or_a_fifo_with_a_partner_opens() {
        let dir = Scratch::new("interrupt-open");
        let path = dir.join("f");
        std::fs::write(&path, "x").expect("write");
        let failed = |e: std::io::Error| Error::invalid(e.to_string());
        assert!(open(&path, OpenOptions::new().read(true), failed).is_ok());
        let e = open(&dir.join("missing"), OpenOptions::new().read(true), failed).expect_err("missing");
        assert!(e.to_string().contains("No such file"), "{e}");
        let fifo = dir.join("fifo");
        let c_path = std::ffi::CString::new(fifo.to_str().expect("UTF-8")).expect("no NUL");
        // SAFETY: mkfifo on a NUL-terminated path this test owns.
        assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
        let writer = {
            let fifo = fifo.clone();
            std::thread::spawn(move || OpenOptions::new().write(true).open(fifo).expect("a reader came"))
        };
        let reader = open(&fifo, OpenOptions::new().read(true), failed);
        assert!(reader.is_ok(), "the writer came");
        drop(writer.join().expect("the writer"));
    }

    #[test]
    fn a_long_wait_for_a_reader_says_so() {
        assert_eq!(
            waiting_note(Path::new("out.csv")),
            "out.csv: waiting for a program to open it for reading (a FIFO waits for its other end; Ctrl-C stops)"
        );
    }
}
