//! A one-line progress indicator on stderr for long commands: how many of
//! how many are done and the time since the start, redrawn in place as
//! each item ends, and cleared at the end. Shown only when stderr is a
//! terminal: a log or a pipe gets nothing. A headless run tells its
//! simulated seconds the same way ([`Simulated`]), once it has taken long
//! enough to be worth it.

use std::io::{IsTerminal as _, Write as _};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
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

/// A run's simulated time so far against its length, on one line of
/// stderr (a terminal only): nothing for a run over within
/// [`Simulated::QUIET_MS`], then redrawn at most every
/// [`Simulated::EVERY_MS`], and cleared at the end or before a note.
pub struct Simulated {
    /// The run's length \[s\].
    total_s: u64,
    started: Instant,
    /// When the line was last drawn \[ms since the start\], if it was.
    drawn_ms: Option<u128>,
    shown: bool,
}

impl Simulated {
    /// A run this short says nothing \[ms of wall time\].
    pub const QUIET_MS: u128 = 1000;
    /// The line is redrawn at most this often \[ms\].
    pub const EVERY_MS: u128 = 250;

    /// Progress of a run of `total_ns` simulated, drawn if `shown` and
    /// stderr is a terminal.
    pub fn new(total_ns: u64, shown: bool) -> Simulated {
        let total_s = total_ns.div_ceil(crate::sim::NS_PER_SEC);
        Simulated { total_s, started: Instant::now(), drawn_ms: None, shown: shown && std::io::stderr().is_terminal() }
    }

    /// The run has reached `t_ns`.
    pub fn at(&mut self, t_ns: u64) {
        let now = self.started.elapsed().as_millis();
        if self.shown && due(now, self.drawn_ms) {
            self.drawn_ms = Some(now);
            let line = simulated_line(t_ns / crate::sim::NS_PER_SEC, self.total_s, now as f64 / 1e3);
            let _ = write!(std::io::stderr().lock(), "\r{line}\x1b[K");
        }
    }

    /// Clears the line, if drawn, for a note: the next [`Simulated::at`] draws it again.
    pub fn clear(&mut self) {
        if self.drawn_ms.take().is_some() {
            let _ = write!(std::io::stderr().lock(), "\r\x1b[K");
        }
    }
}

impl Drop for Simulated {
    fn drop(&mut self) {
        self.clear();
    }
}

/// How far a file read on another thread has got, for a screen that
/// shows it (the dashboard's, while a trace loads); and a flag that stops
/// the read.
#[derive(Debug)]
pub struct Loading {
    /// Read so far \[bytes\].
    read: AtomicU64,
    /// Its size \[bytes\], `u64::MAX` while not known.
    total: AtomicU64,
    cancelled: AtomicBool,
    started: Instant,
}

impl Default for Loading {
    fn default() -> Loading {
        Loading {
            read: AtomicU64::new(0),
            total: AtomicU64::new(u64::MAX),
            cancelled: AtomicBool::new(false),
            started: Instant::now(),
        }
    }
}

impl Loading {
    /// The line that tells it: `reading t.txt 142/315 MB  2 s`.
    pub fn line(&self, what: &str) -> String {
        let total = Some(self.total.load(Ordering::Relaxed)).filter(|&t| t != u64::MAX);
        reading_line(what, self.read.load(Ordering::Relaxed), total, self.started.elapsed().as_secs_f64())
    }

    /// Stops the read: its next block fails.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    /// Whether the read is to stop.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }
}

/// A file being read: bytes so far against its size (when known), on one
/// line of stderr (a terminal only), quiet and redrawn as [`Simulated`]
/// is, so a large trace says how far it got before the dashboard opens;
/// or told to a [`Loading`] that a screen shows.
pub struct Reading {
    /// What is read, e.g. the file's name.
    what: String,
    /// Its size, when it is a regular file \[bytes\].
    total: Option<u64>,
    /// Read so far \[bytes\].
    read: u64,
    started: Instant,
    /// When the line was last drawn \[ms since the start\], if it was.
    drawn_ms: Option<u128>,
    shown: bool,
    /// Where the progress goes instead of stderr.
    shared: Option<Arc<Loading>>,
}

impl Reading {
    /// Progress through `what`, of `total` bytes if known, drawn if stderr
    /// is a terminal.
    pub fn new(what: &str, total: Option<u64>) -> Reading {
        Reading::drawn_if(what, total, std::io::stderr().is_terminal())
    }

    fn drawn_if(what: &str, total: Option<u64>, shown: bool) -> Reading {
        Reading { what: what.to_string(), total, read: 0, started: Instant::now(), drawn_ms: None, shown, shared: None }
    }

    /// Progress through `what`, of `total` bytes if known, told to `loading`.
    pub fn told_to(what: &str, total: Option<u64>, loading: Arc<Loading>) -> Reading {
        loading.total.store(total.unwrap_or(u64::MAX), Ordering::Relaxed);
        let mut r = Reading::drawn_if(what, total, false);
        r.shared = Some(loading);
        r
    }

    /// Whether the read is to stop ([`Loading::cancel`]).
    pub fn is_cancelled(&self) -> bool {
        self.shared.as_ref().is_some_and(|l| l.is_cancelled())
    }

    /// `n` more bytes read.
    pub fn add(&mut self, n: usize) {
        self.read += n as u64;
        if let Some(l) = &self.shared {
            l.read.store(self.read, Ordering::Relaxed);
        }
        if !self.shown {
            return;
        }
        let now = self.started.elapsed().as_millis();
        if due(now, self.drawn_ms) {
            self.drawn_ms = Some(now);
            let line = reading_line(&self.what, self.read, self.total, now as f64 / 1e3);
            let _ = write!(std::io::stderr().lock(), "\r{line}\x1b[K");
        }
    }
}

impl Drop for Reading {
    fn drop(&mut self) {
        if self.drawn_ms.is_some() {
            let _ = write!(std::io::stderr().lock(), "\r\x1b[K");
        }
    }
}

/// The text of a file's line: `reading t.txt 142/315 MB  2 s`, or
/// `reading - 142 MB  2 s` when its size is not known (a pipe).
fn reading_line(what: &str, read: u64, total: Option<u64>, elapsed_s: f64) -> String {
    let mb = |b: u64| b as f64 / 1e6;
    let done = match total {
        Some(t) => format!("{:.0}/{:.0} MB", mb(read), mb(t.max(read))),
        None => format!("{:.0} MB", mb(read)),
    };
    format!("reading {what} {done}  {:.0} s", elapsed_s.floor())
}

/// Whether the line is to be drawn `now_ms` into the run, last drawn at `drawn_ms`.
fn due(now_ms: u128, drawn_ms: Option<u128>) -> bool {
    match drawn_ms {
        None => now_ms >= Simulated::QUIET_MS,
        Some(then) => now_ms >= then + Simulated::EVERY_MS,
    }
}

/// The text of a run's line: `simulated 1431/7200 s  2 s`.
fn simulated_line(done_s: u64, total_s: u64, elapsed_s: f64) -> String {
    format!("simulated {done_s}/{total_s} s  {:.0} s", elapsed_s.floor())
}

/// The text of the line: `checking 3/17  2 s`.
fn line(what: &str, done: usize, total: usize, elapsed_s: f64) -> String {
    format!("{what} {done}/{total}  {:.0} s", elapsed_s.floor())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_being_read_counts_megabytes_of_its_size() {
        assert_eq!(reading_line("t.txt", 142_400_000, Some(315_628_573), 2.5), "reading t.txt 142/316 MB  2 s");
        assert_eq!(reading_line("-", 7_600_000, None, 0.2), "reading - 8 MB  0 s");
        // A file that grew while read: never more read than in all.
        assert_eq!(reading_line("t", 3_000_000, Some(2_000_000), 1.0), "reading t 3/3 MB  1 s");
        let mut r = Reading::drawn_if("t", Some(10), false);
        r.add(4);
        r.add(6);
        assert_eq!((r.read, r.drawn_ms), (10, None), "counted, never drawn off a terminal");
    }

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

    #[test]
    fn a_run_says_nothing_for_a_second_then_four_times_a_second() {
        assert_eq!(simulated_line(1431, 7200, 2.9), "simulated 1431/7200 s  2 s");
        assert!(!due(0, None) && !due(999, None) && due(1000, None));
        assert!(!due(1249, Some(1000)) && due(1250, Some(1000)));
        // After a note cleared it, the line comes back at once.
        assert!(due(1100, None));
        let mut p = Simulated::new(7_200_000_000_000, false);
        p.at(1_000_000_000);
        assert_eq!((p.total_s, p.drawn_ms), (7200, None), "not drawn when not shown");
    }
}
