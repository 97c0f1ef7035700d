//! Ctrl-C (and SIGTERM, SIGHUP, SIGQUIT) during a headless run or replay: the
//! first one is noted and the run stops at its next step with
//! [`Error::Interrupted`], so its outputs are discarded and the files they
//! would have replaced stay as they were. More of them within a second of
//! the first are the same request (`timeout` signals both dirtyviz and its
//! process group; an impatient second Ctrl-C): they are let pass, so that
//! the run still removes its temporary files. One after that ends
//! dirtyviz at once, as usual.

use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};

use crate::error::{Error, Result};

/// The signal that asked to stop, 0 while none has.
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// When it came, on the monotonic clock \[ns\].
static SIGNALLED_NS: AtomicU64 = AtomicU64::new(0);

const SIGNALS: [libc::c_int; 4] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT];

/// How long after the first signal more of them are the same request \[ns\].
const SAME_REQUEST_NS: u64 = 1_000_000_000;

/// The monotonic clock \[ns\] (clock_gettime is async-signal-safe).
fn monotonic_ns() -> u64 {
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
pub fn catch() {
    for s in SIGNALS {
        // SAFETY: `note` only stores to an atomic and calls signal(), both
        // async-signal-safe.
        unsafe {
            libc::signal(s, note as *const () as libc::sighandler_t);
        }
    }
}

/// `Err(Interrupted)` once a signal asked to stop.
pub fn check() -> Result<()> {
    match SIGNAL.load(Ordering::Relaxed) {
        0 => Ok(()),
        signal => Err(Error::Interrupted(signal)),
    }
}
