//! Ctrl-C (and SIGTERM, SIGHUP) during a headless run or replay: the
//! first one is noted and the run stops at its next step with
//! [`Error::Interrupted`], so its outputs are discarded and the files they
//! would have replaced stay as they were; a second one ends dirtyviz at
//! once, as usual.

use std::sync::atomic::{AtomicI32, Ordering};

use crate::error::{Error, Result};

/// The signal that asked to stop, 0 while none has.
static SIGNAL: AtomicI32 = AtomicI32::new(0);

const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

extern "C" fn note(signal: libc::c_int) {
    SIGNAL.store(signal, Ordering::Relaxed);
    // SAFETY: signal() is async-signal-safe; the default action ends the
    // process on the next such signal.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
    }
}

/// From now on, the first Ctrl-C, SIGTERM or SIGHUP is noted for
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
