//! A one-line progress indicator on stderr for long commands: how many of
//! how many are done and the time since the start, redrawn in place as
//! each item ends, and cleared at the end. Shown only when stderr is a
//! terminal: a log or a pipe gets nothing.

use std::io::{IsTerminal as _, Write as _};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Progress through `total` items, told from any thread.
pub struct Progress {
    /// What is being done, e.g. "checking".
    what: &'static str,
    /// Items in all.
    total: usize,
    /// Items done.
    done: AtomicUsize,
    started: Instant,
    /// Whether the line is drawn (stderr is a terminal).
    shown: bool,
}

impl Progress {
    /// Progress through `total` items of `what`, drawn if stderr is a terminal.
    pub fn new(what: &'static str, total: usize) -> Progress {
        Progress::drawn_if(what, total, std::io::stderr().is_terminal())
    }

    fn drawn_if(what: &'static str, total: usize, shown: bool) -> Progress {
        let p = Progress { what, total, done: AtomicUsize::new(0), started: Instant::now(), shown };
        p.draw(0);
        p
    }

    /// One more item done.
    pub fn tick(&self) {
        let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        self.draw(done);
    }

    fn draw(&self, done: usize) {
        if self.shown {
            let line = line(self.what, done, self.total, self.started.elapsed().as_secs_f64());
            // Back to the start of the line, the text, the rest cleared.
            let _ = write!(std::io::stderr().lock(), "\r{line}\x1b[K");
        }
    }
}

impl Drop for Progress {
    /// Clears the line, for what is printed next.
    fn drop(&mut self) {
        if self.shown {
            let _ = write!(std::io::stderr().lock(), "\r\x1b[K");
        }
    }
}

/// The text of the line: `checking 3/17  2 s`.
fn line(what: &str, done: usize, total: usize, elapsed_s: f64) -> String {
    format!("{what} {done}/{total}  {:.0} s", elapsed_s.floor())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_counts_items_and_whole_seconds() {
        assert_eq!(line("checking", 0, 17, 0.4), "checking 0/17  0 s");
        assert_eq!(line("checking", 3, 17, 2.99), "checking 3/17  2 s");
        assert_eq!(line("drawing screens", 17, 17, 61.0), "drawing screens 17/17  61 s");
        let p = Progress::drawn_if("checking", 2, false);
        p.tick();
        p.tick();
        assert_eq!(p.done.load(Ordering::Relaxed), 2);
    }
}
