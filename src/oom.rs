//! Running out of memory as an error, not an abort. Buffers a file or an
//! option sizes are reserved with [`try_reserve`] where they are built, and
//! fail with [`crate::error::Error::OutOfMemory`]. Any other allocation
//! that fails (a world that grows past `ulimit -v` as it runs) goes
//! through [`Reporting`], the binary's global allocator: it restores the
//! terminal, prints one line and exits with code 2.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::collections::TryReserveError;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

thread_local! {
    /// Set while this thread makes an allocation that may fail (a
    /// `try_reserve`): the failure goes back to the caller.
    static FALLIBLE: Cell<bool> = const { Cell::new(false) };
}

/// `v.try_reserve_exact(additional)`, failing with an error (not an exit)
/// also under [`Reporting`].
pub fn try_reserve<T>(v: &mut Vec<T>, additional: usize) -> Result<(), TryReserveError> {
    FALLIBLE.set(true);
    let r = v.try_reserve_exact(additional);
    FALLIBLE.set(false);
    r
}

/// The system allocator, reporting failure in one line.
pub struct Reporting;

/// Set while a failure is being reported (an allocation failing while
/// reporting aborts as usual).
static REPORTING: AtomicBool = AtomicBool::new(false);

/// Set while the dashboard holds the terminal.
static TERMINAL: AtomicBool = AtomicBool::new(false);

/// Notes that the dashboard holds (true) or gave back (false) the
/// terminal, which must be restored before the report.
pub fn terminal_held(held: bool) {
    TERMINAL.store(held, Ordering::Relaxed);
}

/// Whether the dashboard holds the terminal.
pub fn terminal_is_held() -> bool {
    TERMINAL.load(Ordering::Relaxed)
}

/// Returns null to a fallible allocation; otherwise writes the report
/// without allocating and exits.
#[cold]
fn out_of_memory(layout: Layout) -> *mut u8 {
    if FALLIBLE.get() {
        return std::ptr::null_mut();
    }
    if REPORTING.swap(true, Ordering::Relaxed) {
        std::process::abort();
    }
    if TERMINAL.load(Ordering::Relaxed) {
        crate::ui::restore_terminal();
    }
    let mut buf = [0u8; 256];
    let mut cursor = std::io::Cursor::new(&mut buf[..]);
    let _ = writeln!(
        cursor,
        "error: not enough memory (an allocation of {} MiB failed); try fewer tasks, devices or a shorter run",
        layout.size().div_ceil(1 << 20)
    );
    let n = cursor.position() as usize;
    let _ = std::io::stderr().write_all(&buf[..n]);
    std::process::exit(i32::from(crate::error::EXIT_BAD_INPUT));
}

// SAFETY: every call is passed on to the system allocator unchanged; only
// a null result (failure) is handled here, and it never returns.
unsafe impl GlobalAlloc for Reporting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract.
        let p = unsafe { System.alloc(layout) };
        if p.is_null() { out_of_memory(layout) } else { p }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let p = unsafe { System.alloc_zeroed(layout) };
        if p.is_null() { out_of_memory(layout) } else { p }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller upholds `GlobalAlloc::realloc`'s contract.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if p.is_null() { out_of_memory(Layout::from_size_align(new_size, layout.align()).unwrap_or(layout)) } else { p }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_impossible_reservation_is_an_error() {
        let mut v: Vec<u64> = Vec::new();
        assert!(try_reserve(&mut v, usize::MAX / 16).is_err());
        assert!(try_reserve(&mut v, 10).is_ok());
        assert!(!FALLIBLE.get());
    }
}
