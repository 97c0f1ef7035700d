//! The running kernel: find (or mount) tracefs, enable the three writeback
//! events, read `trace_pipe`, and on every way out (the end, an error, a
//! signal the caller turns into a stop request, a panic) put each event's
//! enable file, `tracing_on` and `trace_clock` (changed only when its clock
//! does not count nanoseconds) back as they were and unmount what was
//! mounted. Only SIGKILL can leave the events on.

use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Read};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::event::EventKind;
use super::series::RowSpool;
use super::{Collector, Error};
use crate::error::say;
use crate::output::AtomicFile;

/// Where a tracefs is mounted, and whether this program mounted it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tracefs {
    /// The directory holding `trace_pipe` and `events/`.
    pub root: PathBuf,
    /// The mount point to unmount at the end, when this program mounted it.
    pub mounted: Option<PathBuf>,
}

/// The usual mount point.
const DEFAULT_MOUNT: &str = "/sys/kernel/tracing";

fn has_pipe(dir: &Path) -> bool {
    dir.join("trace_pipe").exists()
}

/// One line for a tracefs file that cannot be opened or read: a user who
/// may not read tracefs is told it needs root, and a trace_pipe another
/// reader holds (Linux 6.5 on: one reader of all CPUs at a time) is said
/// to be held.
fn open_error(path: &Path, e: std::io::Error) -> Error {
    let hint = if e.kind() == ErrorKind::PermissionDenied {
        " (dirtyviz live needs root)"
    } else if e.raw_os_error() == Some(libc::EBUSY) {
        ": another reader holds trace_pipe (another dirtyviz live, or cat trace_pipe); stop it first"
    } else {
        ""
    };
    Error::invalid(format!("{}: {e}{hint}", path.display()))
}

/// Finds a mounted tracefs (or debugfs's `tracing/`), else mounts tracefs
/// on /sys/kernel/tracing. `explicit` names one to use as it is.
pub fn find_tracefs(explicit: Option<&Path>) -> Result<Tracefs, Error> {
    if let Some(dir) = explicit {
        // A tracefs the user may not look into is not one that is missing.
        let pipe = dir.join("trace_pipe");
        if let Err(e) = std::fs::metadata(&pipe)
            && e.kind() == ErrorKind::PermissionDenied
        {
            return Err(open_error(&pipe, e));
        }
        if !has_pipe(dir) {
            return Err(Error::invalid(format!("{}: no trace_pipe here: not a tracefs", dir.display())));
        }
        return Ok(Tracefs { root: dir.to_path_buf(), mounted: None });
    }
    if unsafe { libc::geteuid() } != 0 {
        return Err(Error::invalid("dirtyviz live needs root: tracefs is root's (try sudo dirtyviz live ...)"));
    }
    let mounts = std::fs::read_to_string("/proc/self/mounts").unwrap_or_default();
    for line in mounts.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        let (Some(dir), Some(fstype)) = (f.get(1), f.get(2)) else { continue };
        let dir = Path::new(dir);
        let root = match *fstype {
            "tracefs" => dir.to_path_buf(),
            "debugfs" => dir.join("tracing"),
            _ => continue,
        };
        if has_pipe(&root) {
            return Ok(Tracefs { root, mounted: None });
        }
    }
    let target = Path::new(DEFAULT_MOUNT);
    if has_pipe(target) {
        return Ok(Tracefs { root: target.to_path_buf(), mounted: None });
    }
    let known = std::fs::read_to_string("/proc/filesystems").unwrap_or_default();
    if !known.lines().any(|l| l.split_whitespace().last() == Some("tracefs")) {
        return Err(Error::invalid("this kernel has no tracefs (CONFIG_TRACING is off): nothing to trace"));
    }
    if !target.is_dir() {
        return Err(Error::invalid(format!(
            "tracefs is not mounted and {DEFAULT_MOUNT} does not exist to mount it on"
        )));
    }
    let out = Command::new("mount")
        .args(["-t", "tracefs", "nodev", DEFAULT_MOUNT])
        .output()
        .map_err(|e| Error::invalid(format!("cannot run mount: {e}")))?;
    if !out.status.success() || !has_pipe(target) {
        let why = String::from_utf8_lossy(&out.stderr).trim().to_string();
        return Err(Error::invalid(format!("cannot mount tracefs on {DEFAULT_MOUNT}: {why}")));
    }
    Ok(Tracefs { root: target.to_path_buf(), mounted: Some(target.to_path_buf()) })
}

/// An open tracing session. Dropping it restores what it changed.
#[derive(Debug)]
pub struct Session {
    fs: Tracefs,
    /// Files changed, what they held before and what is written.
    saved: Vec<(PathBuf, String, &'static str)>,
    pipe: Option<File>,
    /// The events this kernel has, and those it lacks.
    pub enabled: Vec<EventKind>,
    pub missing: Vec<EventKind>,
    /// Reads of old buffer contents thrown away before the events were enabled.
    pub discarded: u64,
    restored: bool,
}

fn enable_file(root: &Path, kind: EventKind) -> PathBuf {
    root.join("events/writeback").join(kind.name()).join("enable")
}

/// The trace clocks that count nanoseconds (kernel/trace/trace.c's
/// `trace_clocks[]` with `in_ns` set); `counter`, `uptime` (jiffies) and
/// `x86-tsc` (cycles) do not.
const NS_CLOCKS: [&str; 7] = ["local", "global", "perf", "mono", "mono_raw", "boot", "tai"];

/// The clock in use, from trace_clock's `local [counter] uptime ...`.
fn selected_clock(text: &str) -> Option<String> {
    text.split_whitespace().find_map(|w| w.strip_prefix('[')?.strip_suffix(']')).map(str::to_string)
}

/// `0`, `1` (or `0*`, `1*` when soft-disabled): the state to write back.
fn state(text: &str) -> String {
    text.trim().trim_end_matches('*').to_string()
}

impl Session {
    /// Enables the events on `fs` and opens its trace_pipe. On error,
    /// whatever was changed is put back before returning.
    pub fn start(fs: Tracefs) -> Result<Session, Error> {
        let mut s = Session {
            fs,
            saved: Vec::new(),
            pipe: None,
            enabled: Vec::new(),
            missing: Vec::new(),
            discarded: 0,
            restored: false,
        };
        let root = s.fs.root.clone();
        let denied = open_error;
        for kind in EventKind::ALL {
            let path = enable_file(&root, kind);
            match std::fs::read_to_string(&path) {
                Ok(text) => {
                    s.saved.push((path, state(&text), "1"));
                    s.enabled.push(kind);
                }
                Err(e) if e.kind() == ErrorKind::NotFound => s.missing.push(kind),
                Err(e) => return Err(denied(&path, e)),
            }
        }
        if s.enabled.is_empty() {
            return Err(Error::invalid(format!(
                "{}: this kernel has none of the writeback tracepoints (Linux 3.2 or later has them)",
                root.join("events/writeback").display()
            )));
        }
        // A clock that does not count nanoseconds prints stamps no reader
        // can turn into seconds: trace on the default one meanwhile. It is
        // set before trace_pipe is opened: the kernel decides at the open
        // whether the pipe prints seconds (from its clock then), so a pipe
        // opened on `counter` printed raw counts all along.
        let clock = root.join("trace_clock");
        if let Some(current) = std::fs::read_to_string(&clock).ok().as_deref().and_then(selected_clock)
            && !NS_CLOCKS.contains(&current.as_str())
        {
            s.saved.push((clock.clone(), current, "local"));
            std::fs::write(&clock, "local").map_err(|e| denied(&clock, e))?;
        }
        let on = root.join("tracing_on");
        if let Ok(text) = std::fs::read_to_string(&on) {
            s.saved.push((on, state(&text), "1"));
        }
        let pipe_path = root.join("trace_pipe");
        let mut pipe = OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&pipe_path)
            .map_err(|e| denied(&pipe_path, e))?;
        // What the buffer holds from before is not the kernel running now
        // (at most 16 MiB of it: events already on may never let it empty).
        let mut buf = vec![0u8; 1 << 16];
        while s.discarded < 256 && matches!(pipe.read(&mut buf), Ok(n) if n > 0) {
            s.discarded += 1;
        }
        // Everything to change is saved: now change it (the clock is).
        for (path, _, new) in s.saved.clone() {
            if path != clock {
                std::fs::write(&path, new).map_err(|e| denied(&path, e))?;
            }
        }
        s.pipe = Some(pipe);
        Ok(s)
    }

    /// Reads what trace_pipe holds now into `buf`; 0 when nothing is waiting.
    pub fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let Some(pipe) = &mut self.pipe else { return Ok(0) };
        match pipe.read(buf) {
            Ok(n) => Ok(n),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::Interrupted) => Ok(0),
            Err(e) => Err(e),
        }
    }

    /// Puts every file back as it was and unmounts what was mounted;
    /// the problems met, if any (each is also tried when others fail).
    pub fn restore(&mut self) -> Vec<String> {
        if self.restored {
            return Vec::new();
        }
        self.restored = true;
        self.pipe = None;
        let mut problems = Vec::new();
        for (path, value, _) in self.saved.iter().rev() {
            if let Err(e) = std::fs::write(path, value) {
                problems.push(format!("{}: cannot restore {value}: {e}", path.display()));
            }
        }
        if let Some(dir) = &self.fs.mounted {
            match Command::new("umount").arg(dir).output() {
                Ok(o) if o.status.success() => {}
                Ok(o) => problems.push(format!(
                    "cannot unmount {}: {}",
                    dir.display(),
                    String::from_utf8_lossy(&o.stderr).trim()
                )),
                Err(e) => problems.push(format!("cannot run umount: {e}")),
            }
        }
        problems
    }

    /// The tracefs in use.
    pub fn tracefs(&self) -> &Tracefs {
        &self.fs
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        for p in self.restore() {
            say(format_args!("warning: {p}"));
        }
    }
}

/// How a live capture ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ended {
    /// The duration ran out.
    Duration,
    /// A stop was asked for (SIGINT, SIGTERM, SIGHUP).
    Stopped,
}

/// How often the lines saved are flushed to their file, so that a
/// session killed (SIGKILL, a crash) leaves them in its temporary file.
const SAVE_FLUSH: Duration = Duration::from_secs(1);

/// Complete lines from a trace_pipe, a read at a time.
#[derive(Debug, Default)]
pub struct Lines {
    buf: Vec<u8>,
    /// The start of a line not yet complete.
    pending: Vec<u8>,
    /// When the saved lines were last flushed.
    flushed: Option<Instant>,
}

impl Lines {
    /// The complete lines `session`'s trace_pipe holds now (none: nothing
    /// new), each raw line also written to `save` as it comes, so a long
    /// session holds none of them in memory.
    pub fn read(&mut self, session: &mut Session, save: Option<&mut AtomicFile>) -> Result<Vec<String>, Error> {
        if self.buf.is_empty() {
            self.buf = vec![0u8; 1 << 16];
        }
        let n = session.read(&mut self.buf).map_err(|e| {
            Error::invalid(format!("{}: read failed: {e}", session.fs.root.join("trace_pipe").display()))
        })?;
        self.pending.extend_from_slice(&self.buf[..n]);
        let complete = self.pending.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let lines: Vec<&[u8]> = self.pending[..complete].split(|&b| b == b'\n').filter(|l| !l.is_empty()).collect();
        if let Some(out) = save {
            for line in &lines {
                out.put(line)?;
                out.put(b"\n")?;
            }
            if self.flushed.is_none_or(|t| t.elapsed() >= SAVE_FLUSH) {
                out.flush()?;
                self.flushed = Some(Instant::now());
            }
        }
        let text = lines.iter().map(|l| String::from_utf8_lossy(l).into_owned()).collect();
        self.pending.drain(..complete);
        Ok(text)
    }
}

/// Reads `session`'s trace_pipe into `collector` (and each raw line into
/// `save`) until `duration` passes or `stop` is set. With `spool`, the
/// collector's rows go there as they close, so memory stays the same
/// however long the capture runs; `csv` names the output they are for.
pub fn capture(
    session: &mut Session,
    collector: &mut Collector,
    mut save: Option<&mut AtomicFile>,
    mut spool: Option<(&mut RowSpool, &Path)>,
    duration: Option<Duration>,
    stop: &AtomicBool,
) -> Result<Ended, Error> {
    let started = Instant::now();
    let mut lines = Lines::default();
    loop {
        if stop.load(Ordering::Relaxed) {
            return Ok(Ended::Stopped);
        }
        if duration.is_some_and(|d| started.elapsed() >= d) {
            return Ok(Ended::Duration);
        }
        let read = lines.read(session, save.as_deref_mut())?;
        if read.is_empty() {
            std::thread::sleep(Duration::from_millis(50));
            continue;
        }
        for line in &read {
            collector.line(line);
        }
        if let (Some((spool, csv)), Some(series)) = (spool.as_mut(), collector.series_mut()) {
            spool.push(&series.take_rows()).map_err(Error::io(csv, "cannot keep its rows beside it"))?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scratch::Scratch;

    /// A directory shaped like tracefs, its trace_pipe a plain file.
    fn fake_tracefs(name: &str, pipe: &str, enabled: &str) -> Scratch {
        let root = Scratch::new(&format!("live-{name}"));
        for kind in [EventKind::BalanceDirtyPages, EventKind::GlobalDirtyState] {
            let dir = root.join("events/writeback").join(kind.name());
            std::fs::create_dir_all(&dir).expect("fake event dir");
            std::fs::write(dir.join("enable"), format!("{enabled}\n")).expect("enable file");
        }
        std::fs::write(root.join("tracing_on"), "0\n").expect("tracing_on");
        std::fs::write(root.join("trace_pipe"), pipe).expect("pipe");
        root
    }

    fn read(path: PathBuf) -> String {
        std::fs::read_to_string(path).expect("readable")
    }

    #[test]
    fn enables_reads_and_restores_every_file() {
        let line = "dd-7 [000] 1.5: global_dirty_state: dirty=1 writeback=2 bg_thresh=3 thresh=4 limit=5 dirtied=6 written=7\n";
        let root = fake_tracefs("restore", "old\n", "0");
        let fs = find_tracefs(Some(&root)).expect("a tracefs");
        let mut session = Session::start(fs).expect("starts");
        assert_eq!(session.missing, [EventKind::BdiDirtyRatelimit]);
        assert_eq!(read(enable_file(&root, EventKind::GlobalDirtyState)), "1");
        assert_eq!(read(root.join("tracing_on")), "1");
        assert_eq!(session.discarded, 1, "what the buffer held before is thrown away");
        std::fs::write(root.join("trace_pipe"), format!("old\n{}", line.repeat(3))).expect("new events");
        let mut c = Collector::new(false);
        let saved_path = root.join("saved.txt");
        let mut saved = AtomicFile::create(&saved_path).expect("an output");
        let stop = AtomicBool::new(false);
        let ended = capture(&mut session, &mut c, Some(&mut saved), None, Some(Duration::from_millis(150)), &stop);
        assert!(matches!(ended, Ok(Ended::Duration)), "{ended:?}");
        assert_eq!(c.decoder.stats.events, [0, 0, 3]);
        saved.commit().expect("saved");
        assert_eq!(read(saved_path), line.repeat(3));
        drop(session);
        assert_eq!(read(enable_file(&root, EventKind::GlobalDirtyState)), "0");
        assert_eq!(read(enable_file(&root, EventKind::BalanceDirtyPages)), "0");
        assert_eq!(read(root.join("tracing_on")), "0");
    }

    #[test]
    fn a_stop_request_ends_the_capture_and_enabled_events_stay_enabled() {
        let root = fake_tracefs("stop", "", "1");
        let mut session = Session::start(find_tracefs(Some(&root)).expect("a tracefs")).expect("starts");
        let stop = AtomicBool::new(true);
        let ended = capture(&mut session, &mut Collector::new(false), None, None, None, &stop);
        assert!(matches!(ended, Ok(Ended::Stopped)), "{ended:?}");
        assert!(session.restore().is_empty());
        assert_eq!(read(enable_file(&root, EventKind::BalanceDirtyPages)), "1");
        assert_eq!(read(root.join("tracing_on")), "0");
    }

    #[test]
    fn a_clock_not_in_nanoseconds_is_replaced_for_the_session_and_put_back() {
        let root = fake_tracefs("clock", "", "0");
        std::fs::write(root.join("trace_clock"), "local global [counter] uptime perf mono x86-tsc\n").expect("clock");
        let mut session = Session::start(find_tracefs(Some(&root)).expect("a tracefs")).expect("starts");
        assert_eq!(read(root.join("trace_clock")), "local");
        assert!(session.restore().is_empty());
        assert_eq!(read(root.join("trace_clock")), "counter");
        // A clock in nanoseconds is left alone.
        std::fs::write(root.join("trace_clock"), "local [mono] counter\n").expect("clock");
        let mut session = Session::start(find_tracefs(Some(&root)).expect("a tracefs")).expect("starts");
        assert!(session.restore().is_empty());
        assert_eq!(read(root.join("trace_clock")), "local [mono] counter\n");
    }

    #[test]
    fn a_pipe_that_cannot_be_opened_says_why_in_one_line() {
        let pipe = Path::new("/t/trace_pipe");
        let cases = [
            (std::io::Error::from_raw_os_error(libc::EBUSY), "another reader holds trace_pipe (another dirtyviz live"),
            (
                std::io::Error::from_raw_os_error(libc::EACCES),
                "Permission denied (os error 13) (dirtyviz live needs root)",
            ),
            (std::io::Error::from_raw_os_error(libc::EIO), "/t/trace_pipe: Input/output error (os error 5)"),
        ];
        for (e, said) in cases {
            let text = open_error(pipe, e).to_string();
            assert!(text.starts_with("/t/trace_pipe: ") && text.contains(said) && !text.contains('\n'), "{text}");
        }
    }

    #[test]
    fn saved_lines_reach_their_file_within_a_second() {
        let root = fake_tracefs("flush", "", "0");
        let mut session = Session::start(find_tracefs(Some(&root)).expect("a tracefs")).expect("starts");
        let line = "dd-7 [000] 1.5: global_dirty_state: dirty=1 writeback=2 bg_thresh=3 thresh=4 limit=5 dirtied=6 written=7\n";
        std::fs::write(root.join("trace_pipe"), line).expect("an event");
        let target = root.join("saved.txt");
        let mut saved = AtomicFile::create(&target).expect("an output");
        let mut lines = Lines::default();
        assert_eq!(lines.read(&mut session, Some(&mut saved)).expect("read").len(), 1);
        // Not yet in place, but in the temporary file beside it.
        assert!(!target.exists());
        let temp: Vec<String> = std::fs::read_dir(&*root)
            .expect("dir")
            .filter_map(|e| Some(e.ok()?.path()).filter(|p| !p.ends_with("trace_pipe")))
            .filter_map(|p| std::fs::read_to_string(p).ok())
            .filter(|text| text.contains("global_dirty_state"))
            .collect();
        assert_eq!(temp, [line]);
        drop(saved);
    }

    #[test]
    fn a_directory_without_trace_pipe_is_refused() {
        let e = find_tracefs(Some(Path::new("/"))).expect_err("not a tracefs");
        assert!(e.to_string().contains("no trace_pipe"), "{e}");
    }
}
