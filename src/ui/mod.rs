//! The live terminal dashboard: keys ([`keys`]), pacing ([`pacing`]),
//! chart data ([`charts`]), drawing ([`view`], [`lesson`]), styles
//! ([`theme`]) and screens without a terminal ([`snapshot`]), over the
//! model in [`crate::app`].
//!
//! The loop, once per iteration: handle signals, read every pending key
//! (a zero-timeout poll, so keys are read however long a frame takes),
//! advance the simulation for at most a fixed slice of wall time, write
//! the recording and trace, redraw when something changed, then wait for
//! a key or the next frame. An idle dashboard at 1x costs little CPU; a
//! world too big for the speed asked for runs at the speed it reaches,
//! which the status line shows, and keys still answer at once.

pub mod charts;
pub mod kernel;
pub mod keys;
pub mod lesson;
pub mod pacing;
pub mod plot;
pub mod snapshot;
pub mod theme;
pub mod view;
pub mod walk;

use std::io::{IsTerminal as _, Write};
use std::time::{Duration, Instant};

use ratatui::crossterm::event::{self, Event};
use ratatui::crossterm::{cursor, execute, terminal};
use signal_hook::consts::signal::{SIGCONT, SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGTSTP};
use signal_hook::iterator::Signals;

use crate::app::{App, Request};

/// Longest wait between two looks at the clock and the keys.
const FRAME: Duration = Duration::from_millis(50);

/// Wall time the simulation may take per frame, at any speed.
const SIM_BUDGET: Duration = Duration::from_millis(30);

/// Where a session's record, trace and progress go as it runs.
#[derive(Default)]
pub struct Outputs {
    /// The recording, if one is kept.
    pub record: Option<crate::record::Recorder>,
    /// Side A's trace, if asked for.
    pub trace: Option<crate::record::TraceWriter>,
    /// Save the lesson progress to the user's data directory when it changes.
    pub save_progress: bool,
    /// The first output that failed; the session goes on without it and
    /// ends with this error.
    failed: Option<crate::error::Error>,
}

impl Outputs {
    /// Writes what the app recorded and traced since the last call, and
    /// the progress if it changed. A file that cannot be written is given
    /// up, with a note on the status line.
    fn drain(&mut self, app: &mut App) {
        if let Some(r) = &mut self.record
            && let Err(e) = r.write(&app.take_record())
        {
            let (started, optional) = (r.started(), r.optional());
            let kept = self.record.take().expect("recording").stop();
            // A crash from here on is not in the recording.
            crate::crash::dashboard_started(None);
            app.set_note(if started {
                format!("recording stopped: {e}; {kept}")
            } else {
                format!("not recorded: {e}")
            });
            app.stop_recording();
            if !optional {
                self.failed.get_or_insert(e);
            }
        }
        if let Some(t) = &mut self.trace {
            let stopped = t.stopped_at().is_some();
            if let Err(e) = t.drain(app) {
                app.set_note(format!("trace stopped: {e}"));
                self.trace = None;
                self.failed.get_or_insert(e);
            } else if !stopped && t.stopped_at().is_some() {
                app.set_note("trace stopped at --max-trace-size");
            }
        }
        self.save_lesson_progress(app);
    }

    /// Saves the lesson progress, if it is kept and changed; a failure is
    /// told on the status line.
    fn save_lesson_progress(&mut self, app: &mut App) {
        if self.save_progress
            && let Some((progress, lessons)) = app.take_progress()
        {
            // Each lesson's entry is saved on its own, into the file as it
            // is now (other sessions' lessons stay); the app keeps its own
            // progress, so that a replay sees what the session saw.
            let mut note = None;
            let mut saved = Vec::new();
            for id in lessons {
                match progress.clone().save_lesson(&id) {
                    Ok(warning) => {
                        note = warning.or(note);
                        saved.push(id);
                    }
                    Err(e) => note = Some(e),
                }
            }
            for id in saved {
                app.answers_saved(&id);
            }
            if let Some(note) = note {
                app.set_note(note);
            }
        }
    }

    /// Completes the outputs once the session is over: the trace and the
    /// recording take their places.
    fn finish(&mut self, app: &mut App) -> crate::error::Result<()> {
        self.drain(app);
        if let Some(mut t) = self.trace.take()
            && let Err(e) = t.finish()
        {
            self.failed.get_or_insert(e);
        }
        if let Some(r) = self.record.take() {
            let optional = r.optional();
            if let Err(e) = r.finish()
                && !optional
            {
                self.failed.get_or_insert(e);
            }
        }
        self.failed.take().map_or(Ok(()), Err)
    }
}

/// How a dashboard session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// The user quit.
    Quit,
    /// A signal ended it (SIGTERM, SIGHUP, SIGINT or SIGQUIT); the process
    /// should exit with 128 + the signal's number.
    Signal(i32),
}

/// Runs the dashboard until the user quits or a signal ends it. The
/// terminal is restored on the way out, on error, on a signal and on
/// panic; a panic then prints its report, which says where to report it
/// and which recording replays the session ([`crate::crash`]). A terminal that cannot be set up ends it before
/// it starts: the outputs are left as they were. Once it ran, the
/// recording and the trace take their places however it ended; the first
/// of them that failed is the session's error.
pub fn run(mut app: App, mut outputs: Outputs) -> crate::error::Result<Exit> {
    use crate::error::Error;
    if outputs.record.is_some() {
        app.start_recording();
    }
    if let Some(note) = locale_note() {
        app.add_note(&note);
    }
    // Opening a lesson counts, once the caller found a terminal
    // ([`need_terminal`]), even if raw mode then cannot be set.
    outputs.save_lesson_progress(&mut app);
    let mut signals = Signals::new([SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGTSTP, SIGCONT]).map_err(Error::Terminal)?;
    let mut terminal = take_terminal().map_err(Error::Terminal)?;
    crate::crash::dashboard_started(outputs.record.as_ref().map(|r| r.path()));
    let watch = HangupWatch::start();
    let result = run_loop(&mut app, &mut terminal, &mut outputs, &mut signals).or_else(ended_by_hangup);
    drop(watch);
    restore_terminal();
    release_terminal(terminal);
    crate::crash::dashboard_ended();
    signals.handle().close();
    let finished = outputs.finish(&mut app);
    // An internal error travels out of the loop inside an I/O error.
    let exit = result.map_err(|e| e.downcast::<Error>().unwrap_or_else(Error::Terminal))?;
    finished?;
    Ok(exit)
}

/// A terminal that hung up answers reads and writes with EIO (ENXIO once
/// its device is gone). The kernel sends SIGHUP with the hang-up, but a
/// draw or a read may fail before the signal arrives: either way the
/// session ends as SIGHUP ends it, its recording kept. Other errors stay
/// errors.
pub(crate) fn ended_by_hangup(e: std::io::Error) -> std::io::Result<Exit> {
    match e.raw_os_error() {
        Some(libc::EIO | libc::ENXIO) => Ok(Exit::Signal(SIGHUP)),
        _ => Err(e),
    }
}

/// Enters raw mode and the alternate screen. Unlike `ratatui::try_init`,
/// it leaves the panic hook alone: [`crate::crash`]'s restores the
/// terminal before its report.
fn take_terminal() -> std::io::Result<ratatui::DefaultTerminal> {
    // Without a terminal nothing is taken, and nothing is to be given back
    // (the escapes that leave the alternate screen would go to a file or
    // pipe standing for stdout). A terminal to read keys from is not
    // enough: with stdout sent to a file the dashboard would draw into
    // the file, unseen, and answer keys on a blank screen.
    need_terminal()?;
    terminal::enable_raw_mode()?;
    let taken = execute!(std::io::stdout(), terminal::EnterAlternateScreen)
        .and_then(|_| ratatui::Terminal::new(ratatui::backend::CrosstermBackend::new(std::io::stdout())));
    if taken.is_err() {
        restore_terminal();
    }
    taken
}

/// Fails, saying why, when standard output is not a terminal the
/// dashboard could draw on: a caller checks it before it writes anything
/// for a session (the lesson progress, a recording).
pub fn need_terminal() -> std::io::Result<()> {
    if !std::io::stdout().is_terminal() {
        return Err(std::io::Error::other(NOT_A_TERMINAL));
    }
    if std::env::var_os("TERM").is_some_and(|t| t == "dumb") {
        return Err(std::io::Error::other(DUMB_TERMINAL));
    }
    // Keys are read from the controlling terminal when standard input is
    // not one (`dirtyviz < /dev/null`): a process without one (setsid,
    // cron) would fail to open it, saying only `No such device or address`.
    #[cfg(unix)]
    if !std::io::stdin().is_terminal() && std::fs::File::open("/dev/tty").is_err() {
        return Err(std::io::Error::other(NO_CONTROLLING_TERMINAL));
    }
    Ok(())
}

/// Why a dashboard does not start in a process without a controlling
/// terminal to read keys from.
pub(crate) const NO_CONTROLLING_TERMINAL: &str = "no terminal to read keys from: standard input is not a terminal \
    and this process has no controlling terminal (started by setsid, cron or a service?); run it in a terminal \
    (`dirtyviz snapshot` draws its screen as text, `dirtyviz run` runs the world headless)";

/// Why a dashboard does not start on a terminal that says it can move
/// no cursor (an editor's shell buffer).
pub(crate) const DUMB_TERMINAL: &str = "TERM=dumb: this terminal cannot move the cursor the dashboard draws \
    with; run it in a terminal emulator (`dirtyviz snapshot` draws its screen as text, `dirtyviz run` runs the \
    world headless)";

/// A note for the status line when the locale names a character set
/// other than UTF-8 (`LANG=C`): the frames, chart dots and legends are
/// UTF-8, and a terminal or tmux following the locale shows them as
/// other characters. An unset locale says nothing of the terminal.
pub fn locale_note() -> Option<String> {
    locale_note_of(|name| std::env::var(name).ok())
}

fn locale_note_of(var: impl Fn(&str) -> Option<String>) -> Option<String> {
    let (name, value) =
        ["LC_ALL", "LC_CTYPE", "LANG"].into_iter().find_map(|n| var(n).filter(|v| !v.is_empty()).map(|v| (n, v)))?;
    let lower = value.to_ascii_lowercase();
    let utf8 = lower.contains("utf-8") || lower.contains("utf8");
    (!utf8).then(|| format!("{name}={value} is not UTF-8: lines and dots may show wrong (try {name}=C.UTF-8)"))
}

/// Why a dashboard does not start when its standard output is a file or
/// a pipe.
pub(crate) const NOT_A_TERMINAL: &str = "standard output is not a terminal: the dashboard draws on one \
    (`dirtyviz snapshot` draws its screen as text, `dirtyviz run` runs the world headless)";

/// Leaves raw mode and the alternate screen, cleared first (tmux, grown
/// while the dashboard ran, kept part of its last frame on the screen it
/// gives back), and shows the cursor. Quietly:
/// a terminal that hung up cannot be restored, and saying so on it would
/// fail too (and `eprintln!` would panic).
pub fn restore_terminal() {
    let _ = terminal::disable_raw_mode();
    let _ = execute!(
        std::io::stdout(),
        terminal::Clear(terminal::ClearType::All),
        terminal::LeaveAlternateScreen,
        cursor::Show
    );
}

/// Lets go of the terminal. ratatui shows the cursor when its terminal is
/// dropped and prints on stderr if it cannot, which panics when stderr is
/// the terminal that hung up; so the cursor is shown here, and a terminal
/// that cannot take it is left undropped.
fn release_terminal(mut terminal: ratatui::DefaultTerminal) {
    if terminal.show_cursor().is_err() {
        std::mem::forget(terminal);
    }
}

/// Takes the terminal back after a suspension.
fn reclaim_terminal(terminal: &mut ratatui::DefaultTerminal) -> std::io::Result<()> {
    terminal::enable_raw_mode()?;
    execute!(std::io::stdout(), terminal::EnterAlternateScreen, cursor::Hide)?;
    terminal.clear()
}

/// Restores the terminal, stops the process as Ctrl-Z would, and takes
/// the terminal back when it continues (`fg`).
fn suspend(terminal: &mut ratatui::DefaultTerminal) -> std::io::Result<()> {
    restore_terminal();
    let _ = std::io::stdout().flush();
    signal_hook::low_level::emulate_default_handler(SIGTSTP)?;
    reclaim_terminal(terminal)
}

/// Most input events handled in one iteration of the loop.
pub(crate) const MAX_EVENTS_PER_FRAME: usize = 4096;

/// Longest the loop handles input in one iteration: a paste of keys that
/// each rebuild the worlds (`r`) is handled over several frames.
const INPUT_BUDGET: Duration = Duration::from_millis(20);

/// Input read from the terminal and not yet handled: keys that wait
/// behind slow ones (each `c` rebuilding the worlds of 20 000 tasks).
#[derive(Default)]
pub(crate) struct Backlog(std::collections::VecDeque<Event>);

impl Backlog {
    /// Reads every input event that is waiting, without waiting for more,
    /// and what the terminal still holds where crossterm's reader has not
    /// read it ([`Keyboard::wake`]); then handles them, oldest first, for
    /// at most [`INPUT_BUDGET`]. Both are bounded, so that a terminal that
    /// hung up (always "ready") or a long paste cannot keep the loop from
    /// its signals and from its next frame. A key that quits left waiting
    /// is not kept waiting (200 `c` pressed in a burst kept `q` waiting
    /// 11 s): what is before it is dropped and it is handled, where it
    /// quits whatever comes before it (Ctrl-C), or quits in the mode
    /// `app` is in and no key before it may change that mode (after `a`,
    /// `q` is a letter of the answer). `judge` tells ([`keys::waiting`]).
    pub(crate) fn drain<A>(
        &mut self,
        keyboard: &Keyboard,
        app: &mut A,
        judge: impl Fn(&A, event::KeyEvent) -> keys::Waiting,
        handle: impl Fn(&mut A, Event),
    ) -> std::io::Result<()> {
        let start = Instant::now();
        while self.0.len() < MAX_EVENTS_PER_FRAME {
            // An event waiting, or one the woken reader now finds.
            let waiting = event::poll(Duration::ZERO)? || (keyboard.wake() && event::poll(Duration::ZERO)?);
            if !waiting {
                break;
            }
            self.0.push_back(event::read()?);
        }
        while let Some(e) = self.0.pop_front() {
            handle(app, e);
            if start.elapsed() >= INPUT_BUDGET {
                break;
            }
        }
        let mut mode_may_change = false;
        let quit = self.0.iter().position(|e| {
            let Event::Key(k) = e else { return false };
            if k.kind == event::KeyEventKind::Release {
                return false;
            }
            match judge(app, *k) {
                keys::Waiting::QuitsAnywhere => true,
                keys::Waiting::Quits => !mode_may_change,
                keys::Waiting::ChangesMode => {
                    mode_may_change = true;
                    false
                }
                keys::Waiting::Other => false,
            }
        });
        if let Some(e) = quit.and_then(|i| self.0.remove(i)) {
            self.0.clear();
            handle(app, e);
        }
        Ok(())
    }

    /// Waits at most `wait` for an event, kept for the next
    /// [`Backlog::drain`]: after the events already waiting.
    pub(crate) fn wait(&mut self, wait: Duration) -> std::io::Result<()> {
        if event::poll(wait)? {
            self.0.push_back(event::read()?);
        }
        Ok(())
    }
}

/// The terminal keys come from, to find input crossterm has not read.
///
/// crossterm reads the terminal in chunks of 1 KiB when epoll (edge
/// triggered) says it has input, and returns once a chunk gave an event:
/// what a paste of a few KiB left in the terminal waits for the next
/// edge, which only new input makes, and the keys typed after the paste
/// wait behind it (after 5000 pasted characters `q` did nothing for a
/// minute). Setting the terminal's attributes again, unchanged, wakes its
/// readers (the line discipline's set_termios does), which is that edge.
pub(crate) struct Keyboard {
    tty: Option<std::fs::File>,
}

impl Keyboard {
    /// The terminal crossterm reads: standard input where it is one, else
    /// the controlling terminal; `None` (nothing to wake) where neither
    /// can be had.
    pub(crate) fn open() -> Keyboard {
        let stdin = std::io::stdin();
        let tty = if stdin.is_terminal() {
            use std::os::fd::AsFd;
            stdin.as_fd().try_clone_to_owned().ok().map(std::fs::File::from)
        } else {
            std::fs::OpenOptions::new().read(true).write(true).open("/dev/tty").ok()
        };
        Keyboard { tty }
    }

    /// Bytes the terminal holds that no one has read.
    fn unread(&self) -> usize {
        use std::os::fd::AsRawFd;
        let Some(tty) = &self.tty else { return 0 };
        let mut unread: libc::c_int = 0;
        // SAFETY: FIONREAD writes one int, into `unread`.
        let done = unsafe { libc::ioctl(tty.as_raw_fd(), libc::FIONREAD, &mut unread) };
        if done == 0 { usize::try_from(unread).unwrap_or(0) } else { 0 }
    }

    /// Wakes crossterm's reader where the terminal holds input it has not
    /// read (see [`Keyboard`]); true when it did. (Linux's line discipline
    /// wakes readers on every change of attributes; others may not, and
    /// then this changes nothing.)
    pub(crate) fn wake(&self) -> bool {
        use std::os::fd::AsRawFd;
        let Some(tty) = self.tty.as_ref().filter(|_| self.unread() > 0) else { return false };
        let mut attributes = std::mem::MaybeUninit::<libc::termios>::uninit();
        // SAFETY: tcgetattr fills `attributes` when it returns 0, and only
        // then are they set again, unchanged.
        unsafe {
            libc::tcgetattr(tty.as_raw_fd(), attributes.as_mut_ptr()) == 0
                && libc::tcsetattr(tty.as_raw_fd(), libc::TCSANOW, attributes.as_ptr()) == 0
        }
    }
}

fn run_loop(
    app: &mut App,
    terminal: &mut ratatui::DefaultTerminal,
    outputs: &mut Outputs,
    signals: &mut Signals,
) -> std::io::Result<Exit> {
    let started = Instant::now();
    let mut pacer = pacing::Pacer::new(started);
    let depth = theme::Depth::of_terminal();
    let keyboard = Keyboard::open();
    let mut backlog = Backlog::default();
    loop {
        if started.elapsed() >= Duration::from_secs(1) {
            crate::crash::test_point("dashboard").map_err(std::io::Error::other)?;
        }
        for signal in signals.pending() {
            match signal {
                SIGTSTP => {
                    suspend(terminal)?;
                    app.mark_dirty();
                }
                SIGCONT => {
                    // Continued after a stop we did not see coming (SIGSTOP).
                    reclaim_terminal(terminal)?;
                    app.mark_dirty();
                }
                n => return Ok(Exit::Signal(n)),
            }
        }
        backlog.drain(&keyboard, app, |app, k| keys::waiting(k, app.mode(), keys::Board::Simulation), handle_event)?;
        for request in app.take_requests() {
            match request {
                Request::Suspend => {
                    suspend(terminal)?;
                    app.mark_dirty();
                }
                Request::SaveSvg => {
                    let size = terminal.size()?;
                    let (width, height, drawn) = view::svg_size(size.width, size.height);
                    let note = match snapshot::save_svg(app, width, height) {
                        Ok(path) => format!("saved {path}{drawn}"),
                        Err(e) => format!("not saved: {e}"),
                    };
                    app.set_note(note);
                }
            }
        }
        if app.quit_requested() {
            return Ok(Exit::Quit);
        }
        let advanced = Instant::now();
        pacer.advance(app, advanced, SIM_BUDGET);
        outputs.drain(app);
        let frame_start = Instant::now();
        if app.take_dirty() {
            let mut draw_ms = 0.0;
            let mut room = None;
            terminal.draw(|f| {
                let start = Instant::now();
                room = Some(view::draw(app, f));
                depth.fit_buffer(f.buffer_mut());
                draw_ms = start.elapsed().as_secs_f64() * 1e3;
            })?;
            app.set_frame_ms(draw_ms, frame_start.elapsed().as_secs_f64() * 1e3);
            if let Some(room) = room {
                app.set_scroll_room(room);
            }
        }
        // Wait for a key, or until the next frame is due: a frame from
        // the simulation's start, so that its budget is a share of the
        // frame (counted from the draw, it waited the whole frame after
        // the budget: a third of a core at max speed, not three fifths).
        let wait = FRAME.saturating_sub(advanced.elapsed()).max(Duration::from_millis(1));
        backlog.wait(wait)?;
    }
}

fn handle_event(app: &mut App, event: Event) {
    match event {
        Event::Key(key) => match keys::message(key, app.mode()) {
            Some(msg) => app.update(msg),
            None => {
                if let Some(note) = keys::unbound(key, app.mode(), keys::Board::Simulation) {
                    app.set_passing_note(note);
                }
            }
        },
        Event::Resize(..) => app.mark_dirty(),
        _ => {}
    }
}

/// Watches for a hang-up while a dashboard runs. crossterm reads a
/// terminal that hung up over and over (each read returns no bytes and it
/// reads again), so the loop would never get back to its signals. When
/// SIGHUP comes and the loop is still running a second later, every
/// terminal descriptor the dashboard reads from is replaced by an empty
/// non-blocking pipe: crossterm's next read finds nothing, returns, and the
/// loop ends as for any other signal, with the outputs (and `live`'s
/// tracefs state) put back as usual.
pub(crate) struct HangupWatch {
    handle: signal_hook::iterator::Handle,
    /// Dropped when the loop has ended: the watch's wait ends at once
    /// (a SIGHUP that the loop answered then ends the session in a few
    /// ms, not after the watch's second).
    left: Option<std::sync::mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl HangupWatch {
    /// Starts watching; `None` when the signal cannot be watched (the
    /// loop's own SIGHUP handling still applies).
    pub(crate) fn start() -> Option<HangupWatch> {
        use std::sync::mpsc::RecvTimeoutError;
        let mut hangups = Signals::new([SIGHUP]).ok()?;
        let handle = hangups.handle();
        let (left, leaving) = std::sync::mpsc::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("hangup".into())
            .spawn(move || {
                if hangups.forever().next().is_some()
                    && leaving.recv_timeout(Duration::from_secs(1)) == Err(RecvTimeoutError::Timeout)
                {
                    unstick_terminal_reads();
                }
            })
            .ok()?;
        Some(HangupWatch { handle, left: Some(left), thread: Some(thread) })
    }
}

impl Drop for HangupWatch {
    fn drop(&mut self) {
        self.left.take();
        self.handle.close();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Puts the read end of an empty non-blocking pipe in place of every
/// descriptor but stdout and stderr that is a terminal (`/dev/pts/N`,
/// `/dev/tty`). The pipe's write end stays open, so reads say "nothing
/// yet" rather than "end of file".
fn unstick_terminal_reads() {
    let mut pipe = [0; 2];
    // SAFETY: `pipe` has room for the two descriptors pipe2 writes.
    if unsafe { libc::pipe2(pipe.as_mut_ptr(), libc::O_NONBLOCK | libc::O_CLOEXEC) } != 0 {
        return;
    }
    let Ok(entries) = std::fs::read_dir("/proc/self/fd") else { return };
    for entry in entries.flatten() {
        let Some(fd) = entry.file_name().to_str().and_then(|n| n.parse::<i32>().ok()) else { continue };
        if fd == 1 || fd == 2 || fd == pipe[0] || fd == pipe[1] {
            continue;
        }
        let Ok(target) = std::fs::read_link(entry.path()) else { continue };
        let target = target.to_string_lossy();
        if target.starts_with("/dev/pts/") || target.starts_with("/dev/tty") {
            // SAFETY: dup2 onto a descriptor this process has open; the
            // old file is closed by it, as dup2 documents.
            unsafe { libc::dup2(pipe[0], fd) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_terminal_that_hung_up_ends_the_session_as_sighup_does() {
        for errno in [libc::EIO, libc::ENXIO] {
            let e = std::io::Error::from_raw_os_error(errno);
            assert_eq!(ended_by_hangup(e).expect("a hang-up"), Exit::Signal(SIGHUP));
        }
        let other = std::io::Error::from_raw_os_error(libc::ENOSPC);
        assert_eq!(ended_by_hangup(other).expect_err("not a hang-up").raw_os_error(), Some(libc::ENOSPC));
        let internal = std::io::Error::other("a bug");
        assert!(ended_by_hangup(internal).is_err(), "internal errors stay errors");
    }

    #[test]
    fn a_locale_that_is_not_utf8_is_noted() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| pairs.iter().find(|(n, _)| *n == name).map(|(_, v)| v.to_string())
        };
        assert_eq!(
            locale_note_of(env(&[("LANG", "C")])).as_deref(),
            Some("LANG=C is not UTF-8: lines and dots may show wrong (try LANG=C.UTF-8)")
        );
        // LC_ALL rules over LANG; an empty one does not count.
        assert!(locale_note_of(env(&[("LC_ALL", "POSIX"), ("LANG", "en_US.UTF-8")])).is_some());
        assert!(locale_note_of(env(&[("LC_ALL", ""), ("LANG", "en_US.utf8")])).is_none());
        assert!(locale_note_of(env(&[("LC_CTYPE", "C.UTF-8"), ("LANG", "C")])).is_none());
        assert!(locale_note_of(env(&[])).is_none(), "unset: nothing known");
    }
}
