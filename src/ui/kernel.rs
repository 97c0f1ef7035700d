//! The dashboard on a kernel trace: `dirtyviz view FILE` plays a trace
//! on its own clock, `dirtyviz live` follows the running kernel, and
//! `dirtyviz view FILE --fit` sets the trace (A) beside the simulation of
//! the scenario it implies (B).
//!
//! ```text
//! ┌ status: trace, t on the trace's clock, speed, PLAYING / LIVE ───────┐
//! │ 1 global dirty  │ 2 bdi dirty │ trace      │   compare (--fit):      │
//! │─────────────────┼─────────────┤ thresholds │   A kernel │ B model    │
//! │ 3 pos_ratio     │ 4 rates     │ bdi rates  │   chart 1  │ chart 1    │
//! │─────────────────┴───────┬─────┴────────────│   chart 4  │ chart 4    │
//! │ 5 pauses                │ tasks            │   chart 5  │ chart 5    │
//! └ keys ────────────────────────── ? help q quit ──────────────────────┘
//! ```
//!
//! The charts are the simulation's ([`super::charts`], drawn by
//! [`super::plot`]) fed from [`KernelSide`]: what the trace never prints
//! (a bdi's writeback pages, max_pause, dirtyable memory) is left out, a
//! line is drawn only from when its quantity is known, and a chart whose
//! quantities are missing says which event to enable.

use std::time::{Duration, Instant};

use ratatui::Frame;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{self, Event};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Cell, Paragraph, Row, Table, Wrap};
use signal_hook::consts::signal::{SIGCONT, SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGTSTP};
use signal_hook::iterator::Signals;

use super::charts::{self, ChartData, Kernel, Source};
use super::keys::{self, Section};
use super::plot::{self, Look, Title};
use super::theme::Theme;
use super::view::{self, MIN_SIZE, SHORT_TITLES, TITLES, fit_segments, share_ranges};
use crate::app::{Marker, Mode, Msg, Request, SPEEDS, Screen, TaskRoom, ThemeKind, WINDOWS, window_name};
use crate::error::Error;
use crate::ktrace::side::{KernelSide, LIVE_KEEP_NS, LIVE_KEEP_PASSES, Quantity};
use crate::lesson::check::show;
use crate::run::progress::Loading;
use crate::run::summary::NOT_KNOWN;
use crate::session::{Session, SessionOptions, Side, bdi_label};
use crate::sim::config::Legacy;
use crate::sim::metrics::Sample;
use crate::units::{mib, significant, size};

/// The kernel a trace's charts are drawn for: the whole series in use
/// (every kernel since 3.2 throttles by pos_ratio and dirty_ratelimit).
pub const TRACE_KERNEL: Kernel = Kernel { patches: 11, legacy: Legacy::Linux31 };

/// Pauses in a trace are milliseconds: a 1000 Hz clock.
pub const TRACE_HZ: u64 = 1000;

/// The playhead moves by this much on `.` \[ns\].
const STEP_NS: u64 = 100_000_000;

/// The simulation set beside a trace (`--fit`), advanced to its playhead.
pub struct Model {
    session: Session,
    /// What the fit could not infer from the trace, by name.
    assumed: Vec<String>,
}

impl Model {
    /// The simulation of `scenario`, labelled B; `assumed` names what was
    /// not inferred.
    pub fn new(scenario: crate::scenario::Scenario, assumed: Vec<String>) -> Result<Model, Error> {
        let mut session = Session::new(scenario, None, SessionOptions::default())?;
        let level = crate::session::level_name(session.world().patches(), session.world().legacy());
        session.sides[0].label = format!("B model: the fitted scenario, {level}");
        Ok(Model { session, assumed })
    }

    fn side(&self) -> &Side {
        &self.session.sides[0]
    }

    /// Brings the simulation to `t` \[ns\], restarting it when `t` is behind.
    fn go_to(&mut self, t: u64) {
        if t < self.session.sim_ns {
            // A world runs forward only; going back runs it again.
            let label = self.session.sides[0].label.clone();
            if self.session.build().is_err() {
                return;
            }
            self.session.sides[0].label = label;
        }
        self.session.advance_to(t);
    }
}

/// The trace dashboard's model: the trace, its playhead and what is shown.
pub struct TraceApp {
    side: KernelSide,
    model: Option<Model>,
    paused: bool,
    /// Index into [`SPEEDS`].
    speed: usize,
    bdi: usize,
    screen: Screen,
    /// Index into [`WINDOWS`].
    window: usize,
    quit: bool,
    dirty: bool,
    note: String,
    /// What a key that did nothing is, over the note it covered.
    passing_note: crate::app::PassingNote,
    requests: Vec<Request>,
    /// Playhead time not yet moved by, below a nanosecond \[ns\].
    carry: f64,
}

impl TraceApp {
    /// The dashboard on `side`, with `model` beside it when given: a file
    /// plays from its start, a live trace follows its end.
    pub fn new(side: KernelSide, model: Option<Model>, theme: ThemeKind, marker: Marker) -> TraceApp {
        let mut app = TraceApp {
            side,
            model,
            paused: false,
            speed: SPEEDS.iter().position(|&s| s == 1.0).expect("1x is a speed"),
            bdi: 0,
            screen: Screen::new(theme, marker),
            window: WINDOWS.len() - 1,
            quit: false,
            dirty: true,
            note: String::new(),
            passing_note: Default::default(),
            requests: Vec::new(),
            carry: 0.0,
        };
        if app.side.is_live() {
            app.window = 0;
            app.note = "waiting for writeback events: write to a disk (dd) to see some".into();
        }
        app.seek_to(0);
        app
    }

    /// The trace.
    pub fn side(&self) -> &KernelSide {
        &self.side
    }

    /// What the keys drive now.
    pub fn mode(&self) -> Mode {
        if self.screen.help {
            Mode::Help
        } else if self.screen.tasks_focus {
            Mode::Tasks
        } else {
            Mode::Normal
        }
    }

    /// The user asked to leave.
    pub fn quit_requested(&self) -> bool {
        self.quit
    }

    /// Something changed since the last call.
    pub fn take_dirty(&mut self) -> bool {
        std::mem::take(&mut self.dirty)
    }

    /// Asks for a redraw.
    pub fn mark_dirty(&mut self) {
        self.dirty = true;
    }

    /// What the terminal was asked to do, oldest first.
    pub fn take_requests(&mut self) -> Vec<Request> {
        std::mem::take(&mut self.requests)
    }

    /// The status line's note.
    pub fn set_note(&mut self, note: impl Into<String>) {
        self.note = note.into();
        self.dirty = true;
    }

    /// Applies what `key` asks for; a key that asks nothing says so.
    pub fn press(&mut self, key: ratatui::crossterm::event::KeyEvent) {
        match keys::trace_message(key, self.mode()) {
            Some(msg) => self.update(msg),
            None => {
                if let Some(note) = keys::unbound(key, self.mode(), keys::Board::Trace) {
                    self.set_passing_note(note);
                }
            }
        }
    }

    /// Says on the status line what a key that did nothing is, until the
    /// next key that does something.
    pub fn set_passing_note(&mut self, note: String) {
        self.passing_note.cover(&mut self.note, note);
        self.dirty = true;
    }

    /// The palette.
    pub fn theme(&self) -> ThemeKind {
        self.screen.theme
    }

    /// The charts' window \[s\]; `None`: the whole trace.
    pub fn window_s(&self) -> Option<u64> {
        WINDOWS[self.window]
    }

    /// The bdi charts 2-5 show.
    pub fn bdi(&self) -> usize {
        self.bdi.min(self.side.bdi_names().len().saturating_sub(1))
    }

    /// Play stopped (a live trace: the screen frozen).
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// Moves the playhead to `t` \[ns\] (at most the trace's end), and the
    /// model with it.
    pub fn seek_to(&mut self, t: u64) {
        self.side.seek(t);
        let at = self.side.at_ns();
        // Said of the end only while there.
        if self.note == END_NOTE && at < self.side.end_ns() {
            self.note.clear();
        }
        if let Some(m) = &mut self.model {
            m.go_to(at);
        }
        self.dirty = true;
    }

    /// Lines read from a live trace: shown at once unless frozen.
    pub fn feed<'a>(&mut self, lines: impl IntoIterator<Item = &'a str>) {
        let before = self.side.end_ns();
        self.side.feed(lines);
        if before == 0 && self.side.end_ns() > 0 && self.note.starts_with("waiting") {
            self.note.clear();
        }
        if !self.paused {
            self.seek_to(self.side.end_ns());
        }
    }

    /// Plays `wall` of wall time at the speed asked for.
    pub fn tick(&mut self, wall: Duration) {
        if self.paused || self.side.is_live() {
            return;
        }
        let (at, end) = (self.side.at_ns(), self.side.end_ns());
        if at >= end {
            self.paused = true;
            self.set_note(END_NOTE);
            return;
        }
        let speed = SPEEDS[self.speed];
        let t = if speed.is_finite() {
            self.carry += wall.as_nanos() as f64 * speed;
            let whole = self.carry.floor();
            self.carry -= whole;
            at.saturating_add(whole as u64)
        } else {
            end
        };
        self.seek_to(t.min(end));
    }

    /// Applies what the user asked for.
    pub fn update(&mut self, msg: Msg) {
        self.passing_note.pass(&mut self.note);
        self.dirty = true;
        let bdis = self.side.bdi_names().len().max(1);
        let at = self.side.at_ns();
        if self.screen.apply(msg, || self.side.task_count(), &mut self.note, &mut self.passing_note) {
            return;
        }
        match msg {
            Msg::Quit => self.quit = true,
            Msg::TogglePause => {
                let live = self.side.is_live();
                if self.paused && !live && at >= self.side.end_ns() {
                    self.seek_to(0);
                }
                self.paused = !self.paused;
                if live && !self.paused {
                    self.seek_to(self.side.end_ns());
                }
            }
            Msg::Step => {
                self.paused = true;
                self.seek_to(at + STEP_NS);
            }
            // Said, so that the key is not taken for broken: live has no
            // speed to change.
            Msg::Faster | Msg::Slower if self.side.is_live() => self.note = LIVE_SPEED_NOTE.into(),
            Msg::Faster | Msg::Slower => {
                let note;
                (self.speed, note) = crate::app::step_speed(self.speed, msg == Msg::Faster);
                crate::app::note_speed(&mut self.note, note);
            }
            Msg::NextBdi | Msg::PrevBdi => {
                if bdis == 1 {
                    // Said, so that the key is not taken for broken.
                    self.note = match self.side.bdi_names().is_empty() {
                        true if self.side.is_live() => "no bdi yet: the trace has named none".into(),
                        true => "no bdi: the trace names none".into(),
                        false => format!("{} is the only bdi in the trace", self.side.bdi_label(0)),
                    };
                }
                self.bdi = crate::app::step_bdi(self.bdi(), bdis, msg == Msg::NextBdi);
                if bdis > 1 {
                    // Said where a narrow status line has no room for its
                    // bdi segment beside a note: the charts' titles may
                    // not name it either.
                    self.note = format!("bdi {}", self.side.bdi_label(self.bdi));
                }
            }
            Msg::Window => {
                self.window = (self.window + 1) % WINDOWS.len();
                self.note = match self.window_s() {
                    Some(s) => format!("chart window: {}", window_name(s)),
                    None if self.side.is_live() => {
                        format!(
                            "chart window: all that is kept (the last {} h, or {} passes)",
                            LIVE_KEEP_NS / 3_600_000_000_000,
                            LIVE_KEEP_PASSES
                        )
                    }
                    None => "chart window: the whole trace".into(),
                };
            }
            Msg::Seek(secs) => {
                let t = match secs {
                    i16::MIN => 0,
                    i16::MAX => self.side.end_ns(),
                    _ if secs < 0 => at.saturating_sub(secs.unsigned_abs() as u64 * 1_000_000_000),
                    _ => at.saturating_add(secs as u64 * 1_000_000_000),
                };
                // Seeking a live trace freezes it, until it is at its end again.
                if self.side.is_live() {
                    self.paused = t < self.side.end_ns();
                }
                self.seek_to(t);
                // `Home`, `r` and `End` jump with no other sign than the
                // clock. A saved trace at its end has nothing left to play.
                match secs {
                    i16::MIN => self.note = "back to the trace's start".into(),
                    i16::MAX if !self.side.is_live() => {
                        self.paused = true;
                        self.set_note(END_NOTE);
                    }
                    _ => {}
                }
            }
            Msg::Snapshot => self.requests.push(Request::SaveSvg),
            Msg::Suspend => self.requests.push(Request::Suspend),
            Msg::Reset => self.seek_to(0),
            Msg::AddDd
            | Msg::RemoveDd
            | Msg::DirtyRatio(_)
            | Msg::BackgroundRatio(_)
            | Msg::Memory(_)
            | Msg::Patches(_)
            | Msg::Compare
            | Msg::Lesson(_) => {
                self.note = "a kernel trace is read, not run: that key changes a simulation".into();
            }
            // How things are shown: handled by the screen above.
            Msg::Zoom(_)
            | Msg::Back
            | Msg::Help
            | Msg::ScrollHelp(_)
            | Msg::PageHelp(_)
            | Msg::Theme
            | Msg::LogScale
            | Msg::FocusTasks
            | Msg::ScrollTasks(_)
            | Msg::TasksEnd(_)
            | Msg::PageTasks(_) => {}
        }
    }
}

// ---- the terminal -------------------------------------------------------------------

/// Longest wait between two looks at the clock, the keys and trace_pipe.
const FRAME: Duration = Duration::from_millis(50);

/// Where a live dashboard's lines come from.
pub trait Feed {
    /// The complete lines waiting now (none: nothing new).
    fn lines(&mut self) -> Result<Vec<String>, Error>;
}

/// Runs the trace dashboard until the user quits, a signal ends it or
/// `feed` fails. The terminal is restored on every way out, a panic too
/// ([`crate::crash`]).
pub fn run(app: TraceApp, feed: Option<&mut dyn Feed>) -> Result<super::Exit, Error> {
    run_after(|_, _| Ok(Ok(app)), feed)
}

/// The dashboard on a trace file read on another thread, which sends
/// its side to `made` when done; `loading` tells how far it got. The
/// terminal is taken first, so that keys typed while a large trace loads
/// are read (not echoed onto the screen): a line says how far the read
/// has got, and q or Ctrl-C stop it and end as q ends the dashboard.
/// `make` builds the dashboard on the side read.
pub fn run_loading(
    name: &str,
    loading: &Loading,
    made: std::sync::mpsc::Receiver<Result<KernelSide, Error>>,
    make: impl FnOnce(KernelSide) -> Result<TraceApp, Error>,
) -> Result<super::Exit, Error> {
    let started = |terminal: &mut ratatui::DefaultTerminal, signals: &mut Signals| {
        let ended = load(name, loading, &made, terminal, signals);
        if ended.is_err() || matches!(ended, Ok(Err(_))) {
            loading.cancel();
        }
        match ended? {
            Ok(side) => make(side).map(Ok),
            Err(exit) => Ok(Err(exit)),
        }
    };
    run_after(started, None)
}

/// Shows how far the trace has been read until it is (its side), a
/// key quits or a signal ends it (the exit).
fn load(
    name: &str,
    loading: &Loading,
    made: &std::sync::mpsc::Receiver<Result<KernelSide, Error>>,
    terminal: &mut ratatui::DefaultTerminal,
    signals: &mut Signals,
) -> Result<Result<KernelSide, super::Exit>, Error> {
    let io = Error::Terminal;
    let keyboard = super::Keyboard::open();
    loop {
        for signal in signals.pending() {
            match signal {
                SIGTSTP => super::suspend(terminal).map_err(io)?,
                SIGCONT => super::reclaim_terminal(terminal).map_err(io)?,
                n => return Ok(Err(super::Exit::Signal(n))),
            }
        }
        match made.recv_timeout(Duration::ZERO) {
            Ok(side) => return side.map(Ok),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                return Err(Error::bug("the trace's reader ended without a word"));
            }
        }
        terminal.draw(|f| draw_loading(f, &loading.line(name))).map_err(io)?;
        let _ = keyboard.wake();
        if event::poll(FRAME).map_err(io)?
            && let Event::Key(key) = event::read().map_err(io)?
            && key.kind != event::KeyEventKind::Release
            && keys::trace_message(key, Mode::Normal) == Some(Msg::Quit)
        {
            return Ok(Err(super::Exit::Quit));
        }
    }
}

/// The screen while a trace loads: how far, and how to stop.
fn draw_loading(frame: &mut Frame, line: &str) {
    let area = frame.area();
    let text = vec![Line::from(line.to_string()), Line::from("q quits")];
    let [_, middle, _] =
        Layout::vertical([Constraint::Fill(1), Constraint::Length(2), Constraint::Fill(1)]).areas(area);
    frame.render_widget(Paragraph::new(text).alignment(ratatui::layout::Alignment::Center), middle);
}

/// The dashboard on the app `start` gives once the terminal is taken
/// (or the exit it ends with first).
fn run_after(
    start: impl FnOnce(&mut ratatui::DefaultTerminal, &mut Signals) -> Result<Result<TraceApp, super::Exit>, Error>,
    mut feed: Option<&mut dyn Feed>,
) -> Result<super::Exit, Error> {
    let mut signals = Signals::new([SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGTSTP, SIGCONT]).map_err(Error::Terminal)?;
    let mut terminal = super::take_terminal().map_err(Error::Terminal)?;
    crate::crash::dashboard_started(None);
    let watch = super::HangupWatch::start();
    let result = match start(&mut terminal, &mut signals) {
        Ok(Ok(mut app)) => {
            if let Some(note) = super::locale_note() {
                app.set_note(note);
            }
            run_loop(&mut app, &mut terminal, &mut feed, &mut signals)
        }
        Ok(Err(exit)) => Ok(exit),
        Err(e) => Err(e),
    };
    let result = result.or_else(|e| match e {
        Error::Terminal(e) => super::ended_by_hangup(e).map_err(Error::Terminal),
        e => Err(e),
    });
    drop(watch);
    super::restore_terminal();
    super::release_terminal(terminal);
    crate::crash::dashboard_ended();
    signals.handle().close();
    result
}

fn run_loop(
    app: &mut TraceApp,
    terminal: &mut ratatui::DefaultTerminal,
    feed: &mut Option<&mut dyn Feed>,
    signals: &mut Signals,
) -> Result<super::Exit, Error> {
    let io = Error::Terminal;
    let mut last = Instant::now();
    let depth = super::theme::Depth::of_terminal();
    let keyboard = super::Keyboard::open();
    let mut backlog = super::Backlog::default();
    loop {
        for signal in signals.pending() {
            match signal {
                SIGTSTP => {
                    super::suspend(terminal).map_err(io)?;
                    app.mark_dirty();
                }
                SIGCONT => {
                    super::reclaim_terminal(terminal).map_err(io)?;
                    app.mark_dirty();
                }
                n => return Ok(super::Exit::Signal(n)),
            }
        }
        backlog
            .drain(&keyboard, app, |app, k| keys::waiting(k, app.mode(), keys::Board::Trace), handle_event)
            .map_err(io)?;
        for request in app.take_requests() {
            match request {
                Request::Suspend => {
                    super::suspend(terminal).map_err(io)?;
                    app.mark_dirty();
                }
                Request::SaveSvg => {
                    let size = terminal.size().map_err(io)?;
                    let (width, height, drawn) = view::svg_size(size.width, size.height);
                    let note = match save_svg(app, width, height) {
                        Ok(path) => format!("saved {path}{drawn}"),
                        Err(e) => format!("not saved: {e}"),
                    };
                    app.set_note(note);
                }
            }
        }
        if app.quit_requested() {
            return Ok(super::Exit::Quit);
        }
        if let Some(f) = feed.as_deref_mut() {
            let lines = f.lines()?;
            if !lines.is_empty() {
                app.feed(lines.iter().map(String::as_str));
            }
        }
        let now = Instant::now();
        app.tick(now - last);
        last = now;
        let frame_start = Instant::now();
        if app.take_dirty() {
            let mut tasks = None;
            let area = terminal
                .draw(|f| {
                    tasks = draw(app, f);
                    depth.fit_buffer(f.buffer_mut());
                })
                .map_err(io)?
                .area;
            set_help_room(app, area);
            app.screen.set_task_room(tasks);
        }
        let wait = FRAME.saturating_sub(frame_start.elapsed()).max(Duration::from_millis(1));
        backlog.wait(wait).map_err(io)?;
    }
}

fn handle_event(app: &mut TraceApp, event: Event) {
    match event {
        Event::Key(key) => app.press(key),
        Event::Resize(..) => app.mark_dirty(),
        _ => {}
    }
}

/// Notes how far, and by how much a page, the help scrolls on a screen of
/// `area`.
pub fn set_help_room(app: &mut TraceApp, area: Rect) {
    app.screen.set_help_room(view::help_room(HELP, area, app.screen.theme), view::help_page(area));
}

/// Notes how far the help and the task table scroll on the screen `app`
/// shows in a `width` x `height` terminal, as the terminal loop does
/// after each frame.
pub fn note_scroll_room(app: &mut TraceApp, width: u16, height: u16) {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("a test backend always builds");
    let mut tasks = None;
    terminal.draw(|f| tasks = draw(app, f)).expect("drawing into memory does not fail");
    set_help_room(app, Rect::new(0, 0, width, height));
    app.screen.set_task_room(tasks);
}

/// The screen `app` shows in a `width` x `height` terminal.
pub fn render(app: &TraceApp, width: u16, height: u16) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("a test backend always builds");
    terminal
        .draw(|f| {
            draw(app, f);
        })
        .expect("drawing into memory does not fail");
    terminal.backend().buffer().clone()
}

/// Saves the screen as `dirtyviz-trace-<t>s.svg` in the working
/// directory, never over an existing file; returns the name written.
fn save_svg(app: &TraceApp, width: u16, height: u16) -> Result<String, Error> {
    let name = format!("dirtyviz-trace-{:.1}s.svg", app.side.at_ns() as f64 / 1e9);
    let svg = super::snapshot::svg(&render(app, width, height), app.screen.theme);
    Ok(super::snapshot::write_new(std::path::Path::new(""), &name, &svg)?.display().to_string())
}

// ---- drawing ------------------------------------------------------------------------

struct Ctx<'a> {
    app: &'a TraceApp,
    theme: Theme,
    marker: ratatui::symbols::Marker,
    /// How far the task tables drawn so far can scroll, and by how much
    /// a page \[rows\].
    task_room: std::cell::Cell<Option<TaskRoom>>,
}

impl Ctx<'_> {
    fn look(&self) -> Look<'_> {
        Look { theme: &self.theme, marker: self.marker, text_folds: false }
    }
}

/// Draws the whole screen. Returns how far its task table can scroll as
/// drawn, and by how much a page (`None` when none shows) \[rows\].
pub fn draw(app: &TraceApp, frame: &mut Frame) -> Option<TaskRoom> {
    let ctx = Ctx {
        app,
        theme: Theme::new(app.screen.theme),
        marker: view::marker(app.screen.marker),
        task_room: std::cell::Cell::new(None),
    };
    let area = frame.area();
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        // Where the playhead is first: the keys that move it say nothing
        // else (at 50x15 a seek showed no sign).
        let (time, state) = playhead(app);
        let running = view::cut_to(
            &format!("{time} · {state} · trace {}", short_source(&app.side.source)),
            usize::from(area.width),
        );
        let keys = view::too_small_keys(keys::trace_sections(app.mode()));
        let note = view::too_small_note(&app.note, app.screen.zoom, app.screen.tasks_focus);
        view::draw_too_small_of(&ctx.theme, &running, keys, &note, frame, area);
        // The help is text: it is read at any size.
        if app.screen.help {
            view::draw_help_of(&ctx.theme, HELP, app.screen.help_scroll, &app.note, frame, area);
        }
        return None;
    }
    let [status, body, hints] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(0), Constraint::Length(1)]).areas(area);
    draw_status(&ctx, frame, status);
    let hides_charts = if app.model.is_some() {
        draw_compare(&ctx, frame, body);
        false
    } else {
        draw_body(&ctx, frame, body)
    };
    draw_hints(&ctx, frame, hints, hides_charts);
    if app.screen.help {
        view::draw_help_of(&ctx.theme, HELP, app.screen.help_scroll, &app.note, frame, area);
    }
    ctx.task_room.get()
}

/// Notes how a task table drawn scrolls: the screen keeps the largest
/// room, and the smallest page.
fn note_task_room(ctx: &Ctx, room: TaskRoom) {
    ctx.task_room.set(Some(room.with(ctx.task_room.get())));
}

/// The sections the help explains.
const HELP: &[Section] = &[keys::TRACE, keys::TASKS];

/// Where the playhead is, as the status line says it (`t 12.3 / 20.0
/// s`), and whether it plays (`playing`, `PAUSED`, `END`; live: `LIVE`,
/// `FROZEN`).
fn playhead(app: &TraceApp) -> (String, &'static str) {
    let k = &app.side;
    let state = if k.is_live() {
        if app.paused { "FROZEN" } else { "LIVE" }
    } else if k.at_ns() >= k.end_ns() {
        "END"
    } else if app.paused {
        "PAUSED"
    } else {
        "playing"
    };
    let time = if k.is_live() {
        format!("t {:.1} s", k.at_ns() as f64 / 1e9)
    } else {
        // The time of the sample the numbers are read from (the
        // playhead's, or the last before it), to the millisecond in a
        // trace shorter than a second.
        let shown = k.samples().back().map_or(0, |s| s.t_ns);
        let d = if k.end_ns() < 1_000_000_000 { 3 } else { 1 };
        let end = format!("{:.d$}", secs(k.end_ns()));
        let now = if shown >= k.end_ns() { end.clone() } else { format!("{:.d$}", floor_to(secs(shown), d)) };
        format!("t {now} / {end} s")
    };
    (time, state)
}

fn draw_status(ctx: &Ctx, frame: &mut Frame, area: Rect) {
    let app = ctx.app;
    let k = &app.side;
    let (time, state) = playhead(app);
    let speed = SPEEDS[app.speed];
    let speed = if !speed.is_finite() {
        "max".to_string()
    } else if speed >= 1.0 {
        format!("{speed:.0}×")
    } else {
        format!("{speed:.1}×")
    };
    let window = app.window_s().map_or("window: whole trace".into(), |s| format!("window {}", window_name(s)));
    let mut segments = vec![
        (2, "dirtyviz".to_string()),
        (4, format!("trace {}", short_source(&k.source))),
        (9, time),
        (7, if k.is_live() { "live".to_string() } else { speed }),
        (8, state.to_string()),
        (5, window),
        (6, format!("bdi {}", k.bdi_label(app.bdi()))),
        (3, k.release()),
    ];
    let kept = [Some(segments[2].1.clone()), app.paused.then(|| segments[4].1.clone())];
    // `b`'s note names the bdi already.
    segments.retain(|(_, text)| *text != app.note);
    let log = view::push_log_scale(&mut segments, app.screen.log_scale, &app.note);
    if let Some(c) = k.clock_s() {
        segments.push((1, format!("trace clock {c:.3} s")));
    }
    let skipped = k.stats().skipped();
    if skipped > 0 {
        segments.push((3, format!("{} skipped", crate::units::count(skipped, "line"))));
    }
    let st = k.stats();
    if st.raw_clock > 0 {
        segments.push((
            10,
            format!("{} on a trace_clock not in seconds: use mono", crate::units::count(st.raw_clock, "event")),
        ));
    }
    if st.lost_marks > 0 {
        let n = if st.lost_events > 0 { crate::units::count(st.lost_events, "event") } else { "some events".into() };
        segments.push((3, format!("{n} lost (ring buffer full)")));
    }
    if !app.note.is_empty() {
        // What a key that did nothing is is cut short where it would
        // leave out the time or PAUSED.
        let note = match app.passing_note.shown(&app.note) {
            true => view::cut_to(&app.note, view::note_room(area.width as usize, kept.iter().flatten())),
            false => app.note.clone(),
        };
        segments.push((10, note));
    }
    let style = if app.paused { ctx.theme.status.add_modifier(Modifier::BOLD) } else { ctx.theme.status };
    let line = view::fit_segments_shortening(segments, log, area.width as usize);
    frame.render_widget(Paragraph::new(line).style(style), area);
}

/// What the status line says once play reaches the trace's end, until
/// the playhead leaves it.
const END_NOTE: &str = "end of the trace: space plays it again, ← seeks back";

/// What `]` and `[` say on a live trace.
const LIVE_SPEED_NOTE: &str = "live plays at the kernel's pace: ] [ change the speed of a saved trace (dirtyviz view)";

/// What space does now, as the hint bar names it: play a file paused
/// (or at its end: again), pause it playing; follow a live trace frozen,
/// freeze it following.
fn space_hint(app: &TraceApp) -> &'static str {
    match (app.side.is_live(), app.paused) {
        (false, true) => "play",
        (false, false) => "pause",
        (true, true) => "follow",
        (true, false) => "freeze",
    }
}

/// The file name of a trace's path.
fn short_source(source: &str) -> &str {
    source.rsplit('/').next().unwrap_or(source)
}

/// The hint bar; the chart keys first when `one_chart` shows at a time.
fn draw_hints(ctx: &Ctx, frame: &mut Frame, area: Rect, one_chart: bool) {
    let normal = ctx.app.mode() == Mode::Normal;
    let sections = keys::trace_sections(ctx.app.mode());
    // A live trace has no speed to change: its speed keys are left out.
    let live = ctx.app.side.is_live();
    let hints = sections
        .iter()
        .flat_map(|s| s.bindings)
        .filter(|b| !(live && b.keys.iter().any(|&(_, m)| m == Msg::Faster)))
        .map(|b| (b.label, if normal { b.hint } else { b.help }));
    let hints = view::space_says(
        view::chart_keys_first(hints, view::Hidden { charts: one_chart && normal, tasks: false }),
        sections,
        space_hint(ctx.app),
    );
    view::draw_key_bar(&ctx.theme, frame, area, hints.into_iter(), &keys::bar_keys(sections));
}

/// Something a body area holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Panel {
    Chart(u8),
    Tasks,
}

/// Draws the dashboard's body; says whether charts are left out of it
/// for want of room (not zoomed away).
fn draw_body(ctx: &Ctx, frame: &mut Frame, area: Rect) -> bool {
    let app = ctx.app;
    if let Some(n) = app.screen.zoom {
        let [strip, rest] = strip_split(ctx, area);
        draw_strip(ctx, frame, strip);
        let panels = if app.screen.tasks_focus { vec![Panel::Chart(n), Panel::Tasks] } else { vec![Panel::Chart(n)] };
        draw_panels(ctx, &panels, frame, rest);
        view::one_chart_at_a_time(area)
    } else if area.width >= 140 && area.height >= 38 {
        let [top, bottom] = Layout::vertical([Constraint::Percentage(68), Constraint::Percentage(32)]).areas(area);
        let [charts, info] = Layout::horizontal([Constraint::Min(0), Constraint::Length(36)]).areas(top);
        draw_panels(ctx, &[Panel::Chart(1), Panel::Chart(2), Panel::Chart(3), Panel::Chart(4)], frame, charts);
        draw_info(ctx, frame, info);
        let [c5, tasks] = Layout::horizontal([Constraint::Percentage(62), Constraint::Percentage(38)]).areas(bottom);
        draw_chart(ctx, 5, frame, c5);
        draw_tasks(ctx, frame, tasks);
        false
    } else if !view::one_chart_at_a_time(area) {
        let [strip, rest] = strip_split(ctx, area);
        draw_strip(ctx, frame, strip);
        let mut panels: Vec<Panel> = (1..=4).map(Panel::Chart).collect();
        let all = rest.height >= 24 || app.screen.tasks_focus;
        if all {
            panels.push(Panel::Chart(5));
        }
        if app.screen.tasks_focus {
            panels.push(Panel::Tasks);
        }
        draw_panels(ctx, &panels, frame, rest);
        !all
    } else {
        let panels = if app.screen.tasks_focus { vec![Panel::Tasks] } else { vec![Panel::Chart(1)] };
        draw_panels(ctx, &panels, frame, area);
        true
    }
}

/// Lays out `panels` as the simulation's dashboard does: a grid of four,
/// a fifth below.
fn draw_panels(ctx: &Ctx, panels: &[Panel], frame: &mut Frame, area: Rect) {
    let rects: Vec<Rect> = match panels.len() {
        0 => Vec::new(),
        1 => vec![area],
        2 => Layout::vertical([Constraint::Percentage(60), Constraint::Min(0)]).split(area).to_vec(),
        n => {
            let rows_of_two = (n.min(4)).div_ceil(2);
            let mut rows = vec![Constraint::Ratio(1, rows_of_two as u32); rows_of_two];
            if n > 4 {
                rows = vec![Constraint::Ratio(3, 8), Constraint::Ratio(3, 8), Constraint::Ratio(2, 8)];
            }
            let bands = Layout::vertical(rows).split(area);
            let mut v = Vec::new();
            for (i, band) in bands.iter().enumerate() {
                let left = n - 2 * i;
                if i < rows_of_two && left >= 2 {
                    let halves = Layout::horizontal([Constraint::Percentage(55), Constraint::Min(0)]).split(*band);
                    v.extend(halves.iter());
                } else if i >= rows_of_two && n > 5 {
                    let halves = Layout::horizontal([Constraint::Percentage(62), Constraint::Min(0)]).split(*band);
                    v.extend(halves.iter());
                } else {
                    v.push(*band);
                }
            }
            v
        }
    };
    for (panel, r) in panels.iter().zip(rects) {
        match panel {
            Panel::Chart(n) => draw_chart(ctx, *n, frame, r),
            Panel::Tasks => draw_tasks(ctx, frame, r),
        }
    }
}

/// The source the charts read from a trace.
pub fn trace_source(side: &KernelSide) -> Source<'_> {
    Source {
        samples: side.samples(),
        pauses: side.pauses(),
        hz: TRACE_HZ,
        kernel: TRACE_KERNEL,
        in_call: Vec::new(),
        least_span_s: side.least_span_s(),
    }
}

/// What each chart draws that a trace may lack, with the names a notice
/// gives them.
const CHART_QUANTITIES: [&[(Quantity, &str)]; 5] = [
    &[
        (Quantity::Dirty, "dirty"),
        (Quantity::Writeback, "writeback"),
        (Quantity::BgThresh, "bg_thresh"),
        (Quantity::Thresh, "thresh"),
        (Quantity::Setpoint, "setpoint"),
        (Quantity::Limit, "limit"),
    ],
    &[(Quantity::BdiDirty, "bdi_dirty"), (Quantity::BdiSetpoint, "bdi_setpoint")],
    &[(Quantity::BdiDirty, "bdi_dirty"), (Quantity::Setpoint, "setpoint"), (Quantity::TaskRatelimit, "pos_ratio")],
    &[
        (Quantity::WriteBw, "write_bw"),
        (Quantity::AvgWriteBw, "awrite_bw"),
        (Quantity::DirtyRatelimit, "dirty_ratelimit"),
        (Quantity::Balanced, "balanced"),
        (Quantity::TaskRatelimit, "task_ratelimit"),
    ],
    &[(Quantity::Pauses, "pauses")],
];

/// The quantity series `name` of chart `n` draws, when a trace may lack it.
fn quantity_of(n: u8, name: &str) -> Option<Quantity> {
    Some(match (n, name) {
        (1, "dirty") => Quantity::Dirty,
        (1, "writeback+unstable") => Quantity::Writeback,
        (1, "thresh") => Quantity::Thresh,
        (1, "bg_thresh") => Quantity::BgThresh,
        (1, "limit") => Quantity::Limit,
        (1, "setpoint") => Quantity::Setpoint,
        (1, "freerun") => Quantity::Freerun,
        (2, "bdi_dirty") => Quantity::BdiDirty,
        (2, "bdi_setpoint") => Quantity::BdiSetpoint,
        (2, "bdi_thresh") => Quantity::BdiThresh,
        (4, "write_bw") => Quantity::WriteBw,
        (4, "avg_write_bw" | "write_bw/N") => Quantity::AvgWriteBw,
        (4, "dirtied/N") => Quantity::Dirtied,
        (4, "balanced") => Quantity::Balanced,
        (4, "task_ratelimit") => Quantity::TaskRatelimit,
        (4, "dirty_ratelimit") => Quantity::DirtyRatelimit,
        _ => return None,
    })
}

/// Chart `n` of a trace on `bdi`: the simulation's chart, less what no
/// tracepoint prints, each line from when its quantity is known, and a
/// notice naming the events to enable for what is missing.
pub fn trace_chart(side: &KernelSide, n: u8, bdi: usize, window_s: Option<u64>, width: u16, log: bool) -> ChartData {
    if n > 1 && side.bdi_names().is_empty() {
        let mut data = ChartData::new(Vec::new(), [0.0, 1.0], "");
        // A file is read whole: none yet is none at all.
        data.notice = Some(match side.is_live() {
            true => "no bdi yet: a balance_dirty_pages or bdi_dirty_ratelimit event names one".into(),
            false => "no bdi in this trace: no balance_dirty_pages or bdi_dirty_ratelimit event names one \
                      (not enabled, or no task throttled)"
                .into(),
        });
        return data;
    }
    let mut data = view::chart_of(&trace_source(side), n, bdi, window_s, width, log);
    // No tracepoint prints a bdi's writeback pages or max_pause.
    data.series.retain(|s| !matches!((n, s.name), (2, "writeback") | (5, "max_pause")));
    let cov = side.coverage();
    // Each line where its quantity is known: a bdi's ends where the
    // trace stops printing it.
    for s in &mut data.series {
        let Some(q) = quantity_of(n, s.name) else { continue };
        for p in s.points.iter_mut().filter(|p| !cov.known_at(q, bdi, (p.0 * 1e9).round() as u64)) {
            p.1 = f64::NAN;
        }
        // A line starts where the first event in its row printed it, up
        // to 100 ms before the row's sample.
        let mut points = Vec::with_capacity(s.points.len() + 2);
        let mut was = false;
        for &p in &s.points {
            let t_ns = (p.0 * 1e9).round() as u64;
            if !was
                && !p.1.is_nan()
                && let Some(e) = cov.starts_at(q, bdi, t_ns).filter(|&e| e < t_ns)
            {
                points.push((e as f64 / 1e9, p.1));
            }
            was = !p.1.is_nan();
            points.push(p);
        }
        s.points = points;
    }
    // The y range fitted again to the values drawn, not to those just
    // blanked: chart 4 by its own rule, a log axis to every value.
    if n == 4 {
        charts::fit_rates_y(&mut data);
    } else if data.log_y {
        data.fit_y(|_| true);
    }
    let now = side.samples().back().map_or(0, |s| s.t_ns);
    // When `q` was last known, and how long ago the event that printed it
    // was, when it is no longer current: within the stretch of time
    // order shown (traces joined hold nothing across, nor count the gap).
    let stretch = side.stretch_start_ns();
    let stale = |q: Quantity| {
        let stretch = stretch?;
        let then = cov.last_known(q, bdi, now).filter(|&then| then < now && then >= stretch)?;
        let event = match q {
            Quantity::AvgWriteBw => side.last_ratelimit_ns(bdi),
            _ => side.last_pass_ns(bdi),
        };
        event.map(|at| (then, secs(now.saturating_sub(at))))
    };
    if n == 2
        && let Some((then, ago)) = stale(Quantity::BdiDirty)
        && let Some(b) = side.sample_at(then).and_then(|s| s.bdis.get(bdi))
    {
        // The last values the trace gave, and how old they are. A narrow
        // title keeps the age before the values: without the chart's
        // name ('2 320 of 400 MiB, 9.9 s ago') it read as a chart of
        // its own, and without the age as current.
        data.sized_values(vec![mib(b.dirty), mib(b.thresh), ago], |n, unit| {
            let (dirty, thresh, unit, ago) = (unit.number(n[0]), unit.number(n[1]), unit.name(), n[2]);
            [
                vec![format!("dirty {dirty} of thresh {thresh} {unit}, {ago:.1} s ago")],
                vec![format!("{ago:.1} s ago"), format!("{dirty}/{thresh} {unit}")],
            ]
        });
    }
    if n == 2 && stale(Quantity::BdiDirty).is_none() && !cov.known_at(Quantity::BdiDirty, bdi, now) {
        // Not printed yet (the first events, before a throttling pass):
        // no values, not '0 of thresh 0'.
        data.values.clear();
        data.short_values.clear();
    }
    if n == 1 {
        // Dirtyable memory is not in a trace: no percentage of it.
        data.values.truncate(1);
        data.short_values.truncate(1);
    }
    let known_now = |q: Quantity| cov.known_at(q, bdi, now) && !side.samples().is_empty();
    if n == 4
        && !known_now(Quantity::AvgWriteBw)
        && let Some(b) = side.samples().back().and_then(|s| s.bdis.get(bdi))
    {
        // No bandwidth now: the title says only what is known.
        let rate = show(mib(b.dirty_ratelimit));
        match stale(Quantity::AvgWriteBw) {
            Some((then, ago)) => {
                // Printed a while ago: no share of it now, and how old it is.
                let bw = side.sample_at(then).and_then(|s| s.bdis.get(bdi)).map_or(0, |b| b.avg_write_bw);
                let bw = show(mib(bw));
                data.values = vec![format!("rate {rate} MiB/s vs bw/N –, avg_write_bw {bw} MiB/s {ago:.1} s ago")];
                data.short_values = vec![format!("rate {rate} MiB/s vs bw/N –")];
            }
            None => {
                data.values = vec![format!("dirty_ratelimit {rate} MiB/s, avg_write_bw not yet known")];
                data.short_values = vec![format!("rate {rate} MiB/s")];
            }
        }
    }
    if n == 4 && !known_now(Quantity::DirtyRatelimit) && stale(Quantity::DirtyRatelimit).is_none() {
        // Nothing printed a rate yet (a global_dirty_state alone at the
        // trace's start): no values, not `rate 0 MiB/s`.
        data.values.clear();
        data.short_values.clear();
    }
    if n == 5 && cov.since(Quantity::Pauses, bdi).is_none_or(|since| since > now) {
        // No pass yet: no sleep or call to measure, not `longest sleep 0 ms`.
        data.values.clear();
        data.short_values.clear();
    }
    if n == 4
        && !data.values.is_empty()
        && let Some(b) = side.samples().back().and_then(|s| s.bdis.get(bdi)).filter(|b| b.tasks > 0)
    {
        // A trace's N is the tasks their ratelimit held back in the last
        // second (a compiler throttled now and then is not one): said
        // where the title has room (a narrow one keeps its bdi instead;
        // the panel says it always).
        data.values.insert(1, format!("N {} ratelimited", b.tasks));
    }
    // Why the bdi line cannot be drawn now: it was the bdi's setpoint's
    // when last printed, or its slope needs avg_write_bw (the span is
    // thresh − bdi_thresh + 8·avg_write_bw), which no event has printed
    // for a second (built with 0, it stood vertical at bdi_setpoint).
    let no_bdi_line = (n == 3).then(|| match stale(Quantity::BdiSetpoint) {
        Some((_, ago)) => Some(format!("no bdi line: last pass {ago:.1} s ago")),
        None if !known_now(Quantity::BdiSetpoint) => Some("no bdi line: no balance_dirty_pages pass yet".into()),
        None if known_now(Quantity::AvgWriteBw) => None,
        None => Some(match stale(Quantity::AvgWriteBw) {
            Some((_, ago)) => format!("no bdi line: avg_write_bw last printed {ago:.1} s ago"),
            None => "no bdi line: no bdi_dirty_ratelimit has printed avg_write_bw".into(),
        }),
    });
    if let Some(notice) = no_bdi_line.flatten() {
        // Only the global line is current.
        data.series.retain(|s| s.name == "global");
        data.marks.retain(|m| m.color != 1 && !m.second_x);
        data.mark_legend.retain(|l| l.1 != 1);
        data.x2 = None;
        data.notice = Some(notice);
    }
    if n == 3 && !known_now(Quantity::BdiSetpoint) {
        // Not printed now: no value, not `bdi_setpoint 0 MiB`.
        charts::without_bdi_setpoint(&mut data.values);
    }
    if n == 3 && cov.since(Quantity::BdiSetpoint, bdi).is_none() {
        // Nothing to rebuild the lines from.
        data.series.clear();
        data.marks.clear();
    }
    data.notice = cov.missing(CHART_QUANTITIES[n as usize - 1], bdi).or(data.notice);
    if n == 1 && !side.global_dirty_known() {
        // Not read, or no longer held: `–`, not `dirty 0 MiB`.
        data.values = vec![format!("dirty {NOT_KNOWN}")];
        data.short_values = data.values.clone();
    }
    if let Some((from, to)) = side.silence_now().filter(|_| n == 1 || n == 3) {
        // The kernel printed nothing: no count is known, none is 0.
        let span = crate::ktrace::summary::span_text(secs(from), secs(to));
        let (what, short) = match n {
            1 => (format!("dirty {NOT_KNOWN}: no events {span}"), format!("dirty {NOT_KNOWN}")),
            _ => (format!("pos_ratio {NOT_KNOWN}: no events {span}"), format!("pos_ratio {NOT_KNOWN}")),
        };
        data.values = vec![what];
        data.short_values = vec![short];
    }
    data
}

fn draw_chart(ctx: &Ctx, n: u8, frame: &mut Frame, area: Rect) {
    let app = ctx.app;
    let bdi = app.bdi();
    let data = trace_chart(&app.side, n, bdi, app.window_s(), area.width, app.screen.log_scale);
    plot::draw(frame, area, &data, &trace_title(&app.side, n, bdi), &ctx.look());
}

fn trace_title(side: &KernelSide, n: u8, bdi: usize) -> Title {
    let label = side.bdi_label(bdi).to_string();
    let name = side.bdi_short(bdi);
    Title {
        name: TITLES[n as usize - 1].to_string(),
        short: SHORT_TITLES[n as usize - 1].to_string(),
        bdi: (n > 1).then_some((label, name)),
        one_of_many: side.bdi_names().len() > 1,
    }
}

/// A size of the last sample (in MiB, GiB or TiB), or `-` while not known.
fn mib_at(side: &KernelSide, q: Quantity, bdi: usize, f: impl Fn(&Sample) -> u64) -> String {
    match side.samples().back() {
        Some(s) if side.coverage().known_at(q, bdi, s.t_ns) => size(mib(f(s))),
        _ => NOT_KNOWN.into(),
    }
}

/// Like [`mib_at`] for a rate, in MiB/s.
fn rate_at(side: &KernelSide, q: Quantity, bdi: usize, f: impl Fn(&Sample) -> u64) -> String {
    match side.samples().back() {
        Some(s) if side.coverage().known_at(q, bdi, s.t_ns) => format!("{} MiB/s", show(mib(f(s)))),
        _ => NOT_KNOWN.into(),
    }
}

/// Seconds of `ns`.
fn secs(ns: u64) -> f64 {
    ns as f64 / 1e9
}

/// `s` rounded down to `decimals`, so that a time never reads later
/// than it is: 0.099 s to one decimal is 0.0, not 0.1.
fn floor_to(s: f64, decimals: usize) -> f64 {
    let f = 10f64.powi(decimals as i32);
    // A hair of slack: 0.3 is not read as 0.29999….
    (s * f + 1e-6).floor() / f
}

/// Named values with their units, in reading order.
type Readings = Vec<(String, String)>;

/// The thresholds and the bdi's numbers at the playhead.
fn readings(app: &TraceApp) -> (Readings, Readings) {
    let k = &app.side;
    let bdi = app.bdi();
    let b = |s: &Sample| s.bdis.get(bdi).cloned().unwrap_or_else(crate::ktrace::side::empty_bdi);
    let global = vec![
        ("dirty".to_string(), mib_at(k, Quantity::Dirty, bdi, |s| s.dirty)),
        ("bg_thresh".into(), mib_at(k, Quantity::BgThresh, bdi, |s| s.bg_thresh)),
        ("freerun".into(), mib_at(k, Quantity::Freerun, bdi, |s| s.freerun)),
        ("setpoint".into(), mib_at(k, Quantity::Setpoint, bdi, |s| s.setpoint)),
        ("limit".into(), mib_at(k, Quantity::Limit, bdi, |s| s.limit)),
        ("thresh".into(), mib_at(k, Quantity::Thresh, bdi, |s| s.thresh)),
    ];
    let mut local = vec![
        ("avg_write_bw".to_string(), rate_at(k, Quantity::AvgWriteBw, bdi, |s| b(s).avg_write_bw)),
        ("dirty_ratelimit".into(), rate_at(k, Quantity::DirtyRatelimit, bdi, |s| b(s).dirty_ratelimit)),
        ("task_ratelimit".into(), rate_at(k, Quantity::TaskRatelimit, bdi, |s| b(s).task_ratelimit)),
        ("bdi_setpoint".into(), mib_at(k, Quantity::BdiSetpoint, bdi, |s| b(s).setpoint)),
        ("bdi_thresh".into(), mib_at(k, Quantity::BdiThresh, bdi, |s| b(s).thresh)),
        // Only a throttled task is seen in a trace: over the last second.
        (THROTTLED_KEY.into(), k.throttled(bdi).map_or(NOT_KNOWN.into(), |n| format!("{n} ({THROTTLED_WINDOW})"))),
        // Of them, chart 4's N: those their ratelimit held back.
        ("ratelimited (N)".into(), k.samples().back().map_or(NOT_KNOWN.into(), |s| b(s).tasks.to_string())),
    ];
    if let Some(p) = k.nr_dirtied_pause(bdi) {
        local.push(("nr_dirtied_pause".into(), p.to_string()));
    }
    // The bdi's values ended with its passes: since when.
    if let Some(s) = k.samples().back()
        && !k.coverage().known_at(Quantity::BdiDirty, bdi, s.t_ns)
        && let Some(pass) = k.last_pass_ns(bdi)
    {
        local.push(("last pass".into(), format!("{:.1} s ago", secs(s.t_ns.saturating_sub(pass)))));
    }
    (global, local)
}

/// The strip's lines: the thresholds, then the bdi's numbers.
fn strip_lines(ctx: &Ctx, width: u16) -> Vec<Line<'static>> {
    let t = &ctx.theme;
    let (global, local) = readings(ctx.app);
    let head = format!("{}: ", ctx.app.side.bdi_label(ctx.app.bdi()));
    let mut lines = view::reading_lines(t, String::new(), global, width);
    lines.extend(view::reading_lines(t, head, local, width));
    lines
}

/// Splits off the strip at the top of `area`: its title and as many rows
/// of readings as the simulation's dashboard gives its parameters
/// ([`view::strip_most`]), or in a short one (at 80x24, 100x30) one row
/// of the thresholds, so that the charts keep two rows more.
fn strip_split(ctx: &Ctx, area: Rect) -> [Rect; 2] {
    let rows = match view::strip_most(area) {
        0 => 1,
        most => (strip_lines(ctx, area.width).len() as u16).min(most) + 1,
    };
    Layout::vertical([Constraint::Length(rows.min(area.height / 3)), Constraint::Min(0)]).areas(area)
}

fn draw_strip(ctx: &Ctx, frame: &mut Frame, area: Rect) {
    if area.height == 1 {
        // The dirty count is in chart 1's title: the thresholds take the
        // row, then as many of the bdi's readings as fit (the status line
        // names the bdi), the throttled tasks first.
        let (mut row, local) = readings(ctx.app);
        row.retain(|(k, _)| k != "dirty");
        // Said in fewer words, `throttled 4 (last 1 s)`, as the
        // thresholds are: at 100x30 it fits beside them.
        let (first, rest): (Readings, Readings) = local.into_iter().partition(|(k, _)| k == THROTTLED_KEY);
        row.extend(first.into_iter().map(|(_, v)| ("throttled".to_string(), v)).chain(rest));
        frame.render_widget(Paragraph::new(view::params_row(&ctx.theme, &row, area.width)), area);
        return;
    }
    let block = Block::default()
        .borders(Borders::TOP)
        .border_style(ctx.theme.border)
        .title(Span::styled(" trace ", ctx.theme.title));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    frame.render_widget(Paragraph::new(strip_lines(ctx, inner.width)), inner);
}

/// The panel beside the charts: the trace, the thresholds, the bdi, the bdis.
fn draw_info(ctx: &Ctx, frame: &mut Frame, area: Rect) {
    let t = &ctx.theme;
    let app = ctx.app;
    let k = &app.side;
    let (global, local) = readings(app);
    let key_w = global.iter().chain(&local).map(|(k, _)| k.chars().count()).max().unwrap_or(0) + 1;
    let row = |(k, v): (String, String)| {
        Line::from(vec![Span::styled(format!("{k:<key_w$}"), t.dim), Span::styled(v, t.text)])
    };
    let st = k.stats();
    // A name too long for the panel keeps its end (the status line has it
    // whole); the other lines wrap, so that no number is cut.
    let room = area.width.saturating_sub(2) as usize;
    let name = keep_end(short_source(&k.source), room);
    let mut lines = vec![
        Line::styled(name, t.accent),
        Line::styled(k.release(), t.text),
        Line::styled(format!("{} lines, {} events, {} skipped", st.lines, st.total_events(), st.skipped()), t.dim),
        Line::raw(""),
    ];
    lines.extend(global.into_iter().map(row));
    lines.push(Line::raw(""));
    lines.push(Line::styled(k.bdi_label(app.bdi()).to_string(), t.accent));
    lines.extend(local.into_iter().map(row));
    lines.push(Line::raw(""));
    for (i, _) in k.bdi_names().iter().enumerate() {
        let mark = if i == app.bdi() { "▶" } else { " " };
        let style = if i == app.bdi() { t.accent } else { t.text };
        lines.push(Line::styled(format!("{mark}{}", k.bdi_label(i)), style));
    }
    let block = Block::default().borders(Borders::ALL).border_style(t.border).title(Span::styled(" trace ", t.title));
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }).block(block), area);
}

/// `text` in at most `room` columns: whole if it fits, else an ellipsis
/// and its end.
fn keep_end(text: &str, room: usize) -> String {
    match text.chars().count() {
        n if n > room && room > 1 => format!("…{}", text.chars().skip(n + 1 - room).collect::<String>()),
        n if n > room => text.chars().skip(n - room).collect(),
        _ => text.to_string(),
    }
}

fn draw_tasks(ctx: &Ctx, frame: &mut Frame, area: Rect) {
    let t = &ctx.theme;
    let app = ctx.app;
    let k = &app.side;
    let count = k.task_count();
    let room = area.height.saturating_sub(3) as usize;
    // What every task dirtied (global_dirty_state) against what the rows'
    // passes report: below freerun the kernel dirties with no event that
    // names a task, and the rows cannot add up to it.
    let all = k.dirtied_all_pages().map(|all| {
        let rows: f64 = k.task_lines(0, count).iter().filter_map(|l| l.rate_pages).sum();
        (mib(all), mib((all - rows).max(0.0)))
    });
    // Its own row under the tasks where the table has three or more; else
    // the table's bottom border.
    let room_all = usize::from(all.is_some() && room > 2);
    let room = room - room_all;
    let last = count.saturating_sub(room.max(1));
    let first = app.screen.task_scroll.min(last);
    let lines = k.task_lines(first, room);
    let rows_bdi_width = lines.iter().map(|l| l.bdi.chars().count()).max().unwrap_or(0) as u16;
    let unknown_rate = lines.iter().any(|l| l.rate_pages.is_none());
    // A bdi of several writeback contexts is named with its cgroup.
    let bdi_width = rows_bdi_width.clamp(7, 20);
    let inner_width = area.width.saturating_sub(2);
    // A table too narrow for every column at its width leaves out the bdi
    // where the trace has one (the charts' titles name it), and
    // gives the numbers what they need, the task its pid at least.
    let narrow = inner_width < 16 + bdi_width + 7 + 8 + 6 + 4;
    // Of the whole trace, not the rows shown: a page of another bdi's
    // tasks would lose its column, and the widths would jump as it scrolls.
    let one_bdi = k.bdi_names().len() <= 1;
    let with_bdi = !(narrow && one_bdi);
    let widths: Vec<Constraint> = if narrow {
        let name = Constraint::Min(6);
        let bdi = with_bdi.then_some(Constraint::Max(bdi_width));
        [Some(name), bdi, Some(Constraint::Length(6)), Some(Constraint::Length(5)), Some(Constraint::Min(5))]
            .into_iter()
            .flatten()
            .collect()
    } else {
        vec![
            Constraint::Length(16),
            Constraint::Length(bdi_width),
            Constraint::Length(7),
            Constraint::Length(8),
            Constraint::Min(6),
        ]
    };
    // A narrow table squeezes the name columns: a name cut shows it.
    let columns = Layout::horizontal(widths.clone()).spacing(1).split(Rect::new(0, 0, inner_width, 1));
    // A task keeps its pid (the end of `comm-pid`), a bdi its major.
    let mut rows: Vec<Row> = lines
        .into_iter()
        .map(|l| {
            let mut cells = vec![Cell::from(keep_end(&l.name, columns[0].width.into()))];
            if with_bdi {
                cells.push(Cell::from(view::cut_to(&l.bdi, columns[1].width.into())));
            }
            cells.extend([
                Cell::from(l.rate_pages.map_or_else(|| NOT_KNOWN.to_string(), |r| format!("{:.2}", mib(r)))),
                Cell::from(format!("{:.0}", l.pause_ms)),
                Cell::from(l.nr_dirtied_pause.map_or(NOT_KNOWN.into(), |p| p.to_string())),
            ]);
            Row::new(cells)
        })
        .collect();
    let below = count.saturating_sub(first + room);
    let more = (below > 0 && room > 0).then(|| {
        rows.pop();
        view::more_below(below + 1, app.screen.tasks_focus)
    });
    let shown = rows.len();
    note_task_room(ctx, TaskRoom { last, page: shown.max(1) });
    let title =
        view::tasks_title(&task_counts(k), (first > 0).then_some((first, shown)), area.width.saturating_sub(2).into());
    let headers: Vec<&str> = ["task", "bdi", "MiB/s", "pause ms", "nr_dirtied_pause"]
        .into_iter()
        .filter(|&h| with_bdi || h != "bdi")
        .collect();
    let header = Row::new(view::fit_headers(&headers, &widths, inner_width)).style(t.dim);
    let mut block = Block::default()
        .borders(Borders::ALL)
        .border_style(if app.screen.tasks_focus { t.accent } else { t.border })
        .title(Span::styled(title, t.title));
    let inner = area.width.saturating_sub(2) as usize;
    if let Some((all, gap)) = all.filter(|_| room_all == 0) {
        // A space either side.
        let text = all_tasks(all, gap, inner.saturating_sub(2));
        block = block.title_bottom(Line::styled(format!(" {text} "), t.dim));
    }
    let table = Table::new(rows, widths).header(header).block(block);
    frame.render_widget(table, area);
    let mut bottom = Rect { x: area.x + 1, y: area.y + area.height - 2, width: inner as u16, height: 1 };
    if let Some((all, gap)) = all.filter(|_| room_all > 0) {
        frame.render_widget(Paragraph::new(Line::styled(all_tasks(all, gap, inner), t.dim)), bottom);
        bottom.y -= 1;
    }
    if let Some(more) = more {
        frame.render_widget(Paragraph::new(Line::styled(more, t.dim)), bottom);
    } else if unknown_rate && shown + 1 < room {
        // A blank row left under the tasks says what a dash means.
        frame.render_widget(Paragraph::new(Line::styled(RATE_NOT_KNOWN, t.dim)), bottom);
    }
}

/// The task table's counts, longest wording first: the tasks it lists
/// (all seen up to the playhead) and those throttled in the last second,
/// the panel's count and the rows with a rate.
fn task_counts(k: &KernelSide) -> [String; 4] {
    let (seen, now) = (k.task_count(), k.throttled_tasks(None));
    [
        format!("{seen} seen, {now} throttled in the {THROTTLED_WINDOW}"),
        format!("{seen} seen, {now} throttled in 1 s"),
        format!("{now} throttled in 1 s"),
        format!("{seen} seen"),
    ]
}

/// The window of the throttled tasks' count, as the panel and the task
/// table name it: that of the rates the table shows.
pub const THROTTLED_WINDOW: &str = "last 1 s";

/// The panel's key of the throttled tasks' count.
const THROTTLED_KEY: &str = "tasks throttled";

/// The task table's line on what all tasks dirtied, `all` MiB/s, and
/// `gap` MiB/s of it in no pass, in at most `width` columns: shorter
/// wording where the table is narrow, the gap left out last.
fn all_tasks(all: f64, gap: f64, width: usize) -> String {
    let forms = [
        format!("all tasks {all:.2} MiB/s, {gap:.2} in no pass (below freerun)"),
        format!("all tasks {all:.2} MiB/s, {gap:.2} in no pass"),
        format!("all {all:.2} MiB/s, {gap:.2} in no pass"),
        format!("all {} MiB/s, {} in no pass", significant(all, 2), significant(gap, 2)),
        format!("all {} MiB/s, {} no pass", significant(all, 2), significant(gap, 2)),
        format!("all {} MiB/s", significant(all, 2)),
    ];
    match forms.iter().find(|f| f.chars().count() <= width) {
        Some(f) => f.clone(),
        None => view::cut_to(&forms[forms.len() - 1], width),
    }
}

/// What a rate shown as `NOT_KNOWN` means.
pub const RATE_NOT_KNOWN: &str = "–: not throttled in the last second, rate not known";

// ---- compare: the trace (A) beside the fitted model (B) ---------------------------------

fn draw_compare(ctx: &Ctx, frame: &mut Frame, area: Rect) {
    let app = ctx.app;
    let Some(model) = &app.model else { return };
    let cols = Layout::horizontal([Constraint::Percentage(50); 2]).split(area);
    let head_rows = 2;
    let rows = area.height.saturating_sub(head_rows);
    let mut panels: Vec<Panel> = match app.screen.zoom {
        Some(z) => vec![Panel::Chart(z)],
        None => vec![Panel::Chart(1), Panel::Chart(4), Panel::Chart(5)],
    };
    if app.screen.tasks_focus {
        panels.insert(0, Panel::Tasks);
    }
    panels.truncate((rows / 9).max(1) as usize);
    let split = |col: Rect| {
        let [head, rest] = Layout::vertical([Constraint::Length(head_rows), Constraint::Min(0)]).areas(col);
        (head, Layout::vertical(vec![Constraint::Ratio(1, panels.len() as u32); panels.len()]).split(rest).to_vec())
    };
    let (a_head, a) = split(cols[0]);
    let (b_head, b) = split(cols[1]);
    draw_trace_head(ctx, frame, a_head);
    draw_model_head(ctx, model, frame, b_head);
    let side = model.side();
    let model_bdi = app.bdi().min(side.world.bdis().len() - 1);
    for (i, panel) in panels.iter().enumerate() {
        match panel {
            Panel::Tasks => {
                draw_tasks(ctx, frame, a[i]);
                let room =
                    view::draw_tasks_of(&ctx.theme, side, app.screen.task_scroll, app.screen.tasks_focus, frame, b[i]);
                note_task_room(ctx, room);
            }
            Panel::Chart(n) => {
                let width = a[i].width;
                let mut data = vec![
                    trace_chart(&app.side, *n, app.bdi(), app.window_s(), width, app.screen.log_scale),
                    // In step with the trace: on its axis, however short.
                    view::chart_of(
                        &Source { least_span_s: app.side.least_span_s(), ..Source::of(side) },
                        *n,
                        model_bdi,
                        app.window_s(),
                        width,
                        app.screen.log_scale,
                    ),
                ];
                if *n != 3 {
                    share_ranges(&mut data);
                }
                plot::line_up(&mut data, &ctx.look(), &[a[i], b[i]]);
                let model_title = Title {
                    name: TITLES[*n as usize - 1].to_string(),
                    short: SHORT_TITLES[*n as usize - 1].to_string(),
                    bdi: (*n > 1)
                        .then(|| (bdi_label(&side.world, model_bdi), side.world.bdis()[model_bdi].name.clone())),
                    one_of_many: side.world.bdis().len() > 1,
                };
                let [da, db] = <[ChartData; 2]>::try_from(data).expect("two sides");
                plot::draw(frame, a[i], &da, &trace_title(&app.side, *n, app.bdi()), &ctx.look());
                plot::draw(frame, b[i], &db, &model_title, &ctx.look());
            }
        }
    }
}

fn draw_trace_head(ctx: &Ctx, frame: &mut Frame, area: Rect) {
    let k = &ctx.app.side;
    let (global, local) = readings(ctx.app);
    let pick = |v: &[(String, String)], name: &str| v.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
    let items = vec![
        (9, format!("thresh {}", pick(&global, "thresh").unwrap_or_default())),
        (8, format!("setpoint {}", pick(&global, "setpoint").unwrap_or_default())),
        (7, format!("avg_write_bw {}", pick(&local, "avg_write_bw").unwrap_or_default())),
        (6, format!("dirty_ratelimit {}", pick(&local, "dirty_ratelimit").unwrap_or_default())),
    ];
    // A column left blank at the right: the heads side by side stay apart.
    let room = usize::from(area.width.saturating_sub(1));
    let (name, release) = (short_source(&k.source), k.release());
    // The release in fewer words (`6.15 or later`, without the events
    // that tell it) before the release goes, and the file's name is cut.
    let brief = release.split_once(" (").map_or(release.as_str(), |(b, _)| b);
    let heads = [format!(" A kernel: {name} ({release})"), format!(" A kernel: {name} ({brief})")];
    let head = heads
        .into_iter()
        .find(|h| h.chars().count() <= room)
        .unwrap_or_else(|| view::cut_head(&format!(" A kernel: {name}"), room));
    let text = vec![Line::styled(head, ctx.theme.title), Line::styled(fit_segments(&items, room), ctx.theme.text)];
    frame.render_widget(Paragraph::new(text), area);
}

fn draw_model_head(ctx: &Ctx, model: &Model, frame: &mut Frame, area: Rect) {
    let side = model.side();
    let s = side.world.samples().back();
    let bdi = ctx.app.bdi().min(side.world.bdis().len() - 1);
    let mb = |f: &dyn Fn(&Sample) -> u64| s.map_or(NOT_KNOWN.into(), |s| size(mib(f(s))));
    let b = &side.world.bdis()[bdi];
    let mut items = vec![
        (9, format!("thresh {}", mb(&|s| s.thresh))),
        (8, format!("setpoint {}", mb(&|s| s.setpoint))),
        (7, format!("avg_write_bw {} MiB/s", show(mib(b.avg_write_bandwidth)))),
        (6, format!("dirty_ratelimit {} MiB/s", show(mib(b.dirty_ratelimit)))),
    ];
    if !model.assumed.is_empty() {
        items.push((3, format!("assumed: {}", model.assumed.join(", "))));
    }
    let room = usize::from(area.width.saturating_sub(1));
    let text = vec![
        Line::styled(view::cut_head(&format!(" {}", side.label), room), ctx.theme.title),
        Line::styled(fit_segments(&items, room), ctx.theme.text),
    ];
    frame.render_widget(Paragraph::new(text), area);
}

#[cfg(test)]
mod tests {
    use super::*;

    const GDS: &str =
        "global_dirty_state: dirty=100 writeback=20 bg_thresh=1000 thresh=2000 limit=2000 dirtied=0 written=0";

    /// A trace of global_dirty_state every 100 ms for `secs` seconds.
    fn trace(secs: u32) -> String {
        (0..=secs * 10).map(|i| format!("a-1 [000] {}.{}: {GDS}\n", 100 + i / 10, i % 10)).collect()
    }

    fn app(text: &str) -> TraceApp {
        let side = KernelSide::from_text("t", text).expect("a trace");
        TraceApp::new(side, None, ThemeKind::Mono, Marker::Braille)
    }

    #[test]
    fn a_log_axis_covers_only_the_values_drawn() {
        // A dd's trace (every 60th global_dirty_state kept) with one
        // bdi_dirty_ratelimit, at 6 s: at 16.745 s dirtied/N is blanked
        // after it, and the log axis was fitted to it anyway, its low end
        // (39.254 MiB/s) below anything drawn (39.258).
        let text = include_str!("../../tests/data/ktrace/1dd-bs4k-20M-thinned.txt");
        let mut side = KernelSide::from_text("t", text).expect("a trace");
        side.seek(16_745_000_000);
        let data = trace_chart(&side, 4, 0, Some(10), 100, true);
        let drawn = data.series.iter().flat_map(|s| s.points.iter().map(|p| p.1)).filter(|v| *v > 0.0);
        let low = drawn.fold(f64::INFINITY, f64::min);
        assert!(low.is_finite(), "something is drawn");
        assert!((data.y[0] - low).abs() < 1e-9, "axis from {} while the lowest value drawn is {low}", data.y[0]);
    }

    #[test]
    fn a_traces_bdi_line_starts_at_the_first_pass_of_its_row() {
        // linux-6.18-4dd: bdi 254:0's first pass 0.091784 s after the
        // first event, sixteen more in its row up to 0.095552 s; the row's
        // sample is at 0.1 s, where the line started.
        let text = include_str!("../../tests/data/ktrace/linux-6.18-4dd-dirty_bytes-400M.txt");
        let mut side = KernelSide::from_text("t", text).expect("a trace");
        side.seek(300_000_000);
        let data = trace_chart(&side, 2, 0, None, 100, false);
        for name in ["bdi_dirty", "bdi_setpoint"] {
            let line = data.series.iter().find(|s| s.name == name).expect("drawn");
            let first = line.points.iter().find(|p| !p.1.is_nan()).expect("a value");
            assert!((first.0 - 0.091784).abs() < 1e-6, "{name}: {first:?}");
        }
    }

    #[test]
    fn play_moves_the_playhead_at_the_speed_asked_and_stops_at_the_end() {
        let mut a = app(&trace(20));
        assert_eq!((a.side().at_ns(), a.paused()), (0, false), "a file plays from its start");
        a.tick(Duration::from_millis(500));
        assert_eq!(a.side().at_ns(), 500_000_000);
        a.update(Msg::Faster);
        a.update(Msg::Faster);
        assert_eq!(SPEEDS[a.speed], 5.0);
        a.tick(Duration::from_secs(1));
        assert_eq!(a.side().at_ns(), 5_500_000_000);
        a.tick(Duration::from_secs(10));
        let end = a.side().end_ns();
        assert!((20_000_000_000..=20_100_000_000).contains(&end), "{end}");
        assert_eq!(a.side().at_ns(), end, "no further than the trace");
        a.tick(Duration::from_millis(50));
        assert!(a.paused(), "paused at the end");
        a.update(Msg::TogglePause);
        assert_eq!((a.side().at_ns(), a.paused()), (0, false), "space at the end plays it again");
        a.update(Msg::AddDd);
        assert!(a.note.contains("read, not run"), "{}", a.note);
    }

    #[test]
    fn a_speed_note_goes_when_the_speed_moves_off_its_end() {
        let mut a = app(&trace(20));
        for _ in 0..SPEEDS.len() {
            a.update(Msg::Faster);
        }
        assert_eq!(a.note, "already as fast as possible");
        a.update(Msg::Slower);
        assert_eq!((SPEEDS[a.speed], a.note.as_str()), (1000.0, ""));
    }

    #[test]
    fn a_live_trace_follows_its_end_unless_frozen() {
        let side = KernelSide::live("trace_pipe");
        let mut a = TraceApp::new(side, None, ThemeKind::Mono, Marker::Braille);
        let lines = trace(2);
        let lines: Vec<&str> = lines.lines().collect();
        a.feed(lines[..11].iter().copied());
        let first = a.side().at_ns();
        assert_eq!(first, a.side().end_ns());
        assert!(first > 0);
        a.update(Msg::TogglePause);
        a.feed(lines[11..].iter().copied());
        assert_eq!(a.side().at_ns(), first, "frozen");
        assert!(a.side().end_ns() > first);
        a.update(Msg::TogglePause);
        assert_eq!(a.side().at_ns(), a.side().end_ns(), "follows again");
        a.update(Msg::Seek(-1));
        assert!(a.paused(), "seeking back freezes a live trace");
    }

    #[test]
    fn live_says_its_speed_keys_do_nothing_and_leaves_them_off_the_hint_bar() {
        let mut a = TraceApp::new(KernelSide::live("trace_pipe"), None, ThemeKind::Mono, Marker::Braille);
        let lines = trace(2);
        a.feed(lines.lines());
        let hint = |a: &mut TraceApp| drawn(a, 200, 48).lines().last().expect("a hint bar").to_string();
        assert!(!hint(&mut a).contains("] ["), "{}", hint(&mut a));
        let speed = a.speed;
        for msg in [Msg::Faster, Msg::Slower] {
            a.note.clear();
            a.update(msg);
            assert_eq!((a.note.as_str(), a.speed), (LIVE_SPEED_NOTE, speed));
        }
        // A file keeps them.
        let mut f = app(&trace(20));
        assert!(hint(&mut f).contains("] [ speed"), "{}", hint(&mut f));
    }

    /// Draws `app` at `width` x `height` as the terminal loop does, noting
    /// how far its help and task table can scroll; returns the screen.
    fn drawn(app: &mut TraceApp, width: u16, height: u16) -> String {
        let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("a test backend");
        let mut tasks = None;
        terminal.draw(|f| tasks = draw(app, f)).expect("draws");
        app.screen.set_task_room(tasks);
        crate::ui::snapshot::text(terminal.backend().buffer())
    }

    #[test]
    fn the_panel_names_the_smoothed_bandwidth_it_shows() {
        // bdi_dirty_ratelimit prints both estimates; the panel shows the
        // smoothed one the control law divides, under its kernel name.
        let bdr = "bdi_dirty_ratelimit: bdi 8:0: write_bw=102400 awrite_bw=51200 dirty_rate=51200 \
                   dirty_ratelimit=25600 task_ratelimit=25600 balanced_dirty_ratelimit=25600";
        let text: String = trace(5)
            .lines()
            .enumerate()
            .map(|(i, l)| format!("{l}\ndd-1000 [000] {}.{}50: {bdr}\n", 100 + i / 10, i % 10))
            .collect();
        let mut a = app(&text);
        a.update(Msg::Seek(3));
        let screen = drawn(&mut a, 160, 48);
        let row = screen.lines().find(|l| l.contains("avg_write_bw ")).unwrap_or_else(|| panic!("{screen}"));
        assert!(row.contains("avg_write_bw    50 MiB/s"), "{row}");
    }

    /// 60 dd, each throttled once between 1.0 and 1.6 s, and the global
    /// state every 100 ms for 5 s around them.
    fn sixty_dd() -> String {
        let bdp = "balance_dirty_pages: bdi 8:0: limit=2000 setpoint=1750 dirty=1700 wb_setpoint=1750 \
                   wb_dirty=1700 dirty_ratelimit=25600 task_ratelimit=25600 dirtied=32 dirtied_pause=32 \
                   paused=0 pause=4 period=4 think=0 cgroup_ino=1";
        // In time order: after the global_dirty_state at 101.0 s (read
        // in order within a second, a step back of more a new stretch).
        let all = trace(5);
        let (head, tail) =
            all.split_at(all.find(" 101.1: ").map_or(all.len(), |i| all[..i].rfind('\n').map_or(0, |n| n + 1)));
        let mut text = head.to_string();
        for i in 0..60 {
            text += &format!("dd-{} [000] 101.{:02}0: {bdp}\n", 1000 + i, i);
        }
        text + tail
    }

    /// The rows the task table's title says it shows, counted from 1:
    /// the first and the last (`None`: not scrolled).
    fn rows_in_title(screen: &str) -> Option<(usize, usize)> {
        let line = screen.lines().find(|l| l.contains("┌ tasks ("))?;
        let title = &line[line.find("┌ tasks (")?..];
        let title = &title[..title.find(") ")?];
        let range = title.rsplit_once(" row").map(|(_, r)| r.trim_start_matches('s').trim())?;
        let number = |s: &str| s.parse::<usize>().expect("a row");
        Some(match range.split_once('–') {
            Some((a, b)) => (number(a), number(b)),
            None => (number(range), number(range)),
        })
    }

    #[test]
    fn the_task_table_scrolls_to_its_last_page_and_back_at_once() {
        let mut a = app(&sixty_dd());
        a.update(Msg::Seek(3));
        let from = |screen: &str| rows_in_title(screen).map_or(1, |r| r.0);
        for (w, h) in [(140, 40), (160, 48)] {
            drawn(&mut a, w, h);
            for _ in 0..100 {
                a.update(Msg::ScrollTasks(1));
            }
            let last = from(&drawn(&mut a, w, h));
            assert!(last > 1, "at {w}x{h} the table scrolled");
            a.update(Msg::ScrollTasks(-1));
            assert_eq!(from(&drawn(&mut a, w, h)), last - 1, "one ↑ moves the table at {w}x{h}");
            a.update(Msg::ScrollTasks(-100));
        }
    }

    #[test]
    fn the_task_table_says_what_all_tasks_dirtied_and_what_its_rows_miss() {
        // global_dirty_state counts 512 pages (2 MiB) dirtied every 100 ms,
        // 20 MiB/s; one dd's passes report 32 pages every 100 ms, 1.25
        // MiB/s: the rest was dirtied where no event names a task (below
        // freerun), and the table says so instead of adding up to 1.25.
        let bdp = "balance_dirty_pages: bdi 8:0: limit=2000 setpoint=1750 dirty=1700 wb_setpoint=1750 \
                   wb_dirty=1700 dirty_ratelimit=25600 task_ratelimit=25600 dirtied=32 dirtied_pause=32 \
                   paused=0 pause=4 period=4 think=0 cgroup_ino=1";
        let mut text = String::new();
        for i in 0..=30 {
            let (s, ds) = (100 + i / 10, i % 10);
            text += &format!(
                "a-1 [000] {s}.{ds}00: global_dirty_state: dirty=100 writeback=20 bg_thresh=1000 thresh=2000 \
                 limit=2000 dirtied={} written=0\n",
                512 * i
            );
            text += &format!("dd-7 [000] {s}.{ds}50: {bdp}\n");
        }
        let mut a = app(&text);
        a.update(Msg::Seek(3));
        let screen = drawn(&mut a, 160, 48);
        assert!(screen.contains("dd-7"), "{screen}");
        assert!(screen.contains("all tasks 20.00 MiB/s, 18.75 in no pass (below freerun)"), "{screen}");
        // A narrower table says it in fewer words, whole; one too short for
        // a row of its own says it in its bottom border.
        a.update(Msg::FocusTasks);
        for (w, h, said) in [
            (100, 30, "│all 20.00 MiB/s, 18.75 in no pass"),
            (80, 24, "└ all 20 MiB/s, 19 no pass ─"),
            (60, 18, "│all tasks 20.00 MiB/s, 18.75 in no pass (below freerun)   │"),
        ] {
            let screen = drawn(&mut a, w, h);
            assert!(screen.contains(said), "{w}x{h}: {said}\n{screen}");
            assert!(!screen.lines().any(|l| l.contains("all ") && l.contains('…')), "{w}x{h}: cut\n{screen}");
        }
    }

    #[test]
    fn the_all_tasks_line_takes_the_longest_wording_that_fits() {
        let at = |w| all_tasks(237.99, 158.65, w);
        assert_eq!(at(57), "all tasks 237.99 MiB/s, 158.65 in no pass (below freerun)");
        assert_eq!(at(56), "all tasks 237.99 MiB/s, 158.65 in no pass");
        assert_eq!(at(40), "all 237.99 MiB/s, 158.65 in no pass");
        assert_eq!(at(34), "all 238 MiB/s, 159 in no pass");
        assert_eq!(at(28), "all 238 MiB/s, 159 no pass");
        assert_eq!(at(25), "all 238 MiB/s");
        assert_eq!(at(8), "all 238…");
    }

    #[test]
    fn the_all_tasks_line_gives_small_rates_two_figures() {
        // 1dd-idle-tail at its end read 'all 1 MiB/s, 1 in no pass'.
        assert_eq!(all_tasks(1.43, 1.38, 30), "all 1.4 MiB/s, 1.4 in no pass");
        assert_eq!(all_tasks(1.43, 0.352, 28), "all 1.4 MiB/s, 0.35 no pass");
        assert_eq!(all_tasks(12.4, 0.0, 25), "all 12 MiB/s, 0 no pass");
        assert_eq!(all_tasks(9.96, 0.999, 27), "all 10 MiB/s, 1.0 no pass");
    }

    #[test]
    fn a_page_of_the_task_table_is_the_rows_it_shows() {
        // PgDn moved 10 rows whatever the table showed: at 80x24, with one
        // row shown, nine were never seen.
        let mut a = app(&sixty_dd());
        a.update(Msg::Seek(3));
        a.update(Msg::FocusTasks);
        for (w, h) in [(80, 24), (100, 30), (160, 48)] {
            a.update(Msg::ScrollTasks(-100));
            drawn(&mut a, w, h);
            a.update(Msg::ScrollTasks(1));
            let (first, last) = rows_in_title(&drawn(&mut a, w, h)).expect("scrolled");
            assert_eq!(first, 2, "{w}x{h}");
            a.update(Msg::PageTasks(true));
            let (next, _) = rows_in_title(&drawn(&mut a, w, h)).expect("scrolled");
            assert_eq!(next, last + 1, "{w}x{h}: the row after the last shown comes first");
            a.update(Msg::PageTasks(false));
            assert_eq!(rows_in_title(&drawn(&mut a, w, h)).map(|r| r.0), Some(2), "{w}x{h}: PgUp goes back");
        }
        // At 80x24 the table shows one row: a page is one row.
        a.update(Msg::ScrollTasks(-100));
        drawn(&mut a, 80, 24);
        a.update(Msg::PageTasks(true));
        a.update(Msg::PageTasks(true));
        let screen = drawn(&mut a, 80, 24);
        assert_eq!(rows_in_title(&screen), Some((3, 3)), "{screen}");
    }

    #[test]
    fn the_task_tables_title_and_the_panel_count_the_throttled_tasks_of_the_same_second() {
        // At 3.3 s the shipped trace's four dd last had a pass 1.2 s before:
        // the title said `4 throttled` (every task seen) while the panel
        // said 0 (the last second) and every row had no rate.
        let text = include_str!("../../tests/data/ktrace/linux-6.18-4dd-dirty_bytes-400M.txt");
        let mut a = app(text);
        for (at_ms, n) in [(2_000, 4), (3_300, 0)] {
            a.seek_to(at_ms * 1_000_000);
            let screen = drawn(&mut a, 160, 48);
            let title = format!("┌ tasks (4 seen, {n} throttled in the last 1 s) ─");
            assert!(screen.contains(&title), "{at_ms} ms: {title}\n{screen}");
            assert!(screen.contains(&format!("│tasks throttled  {n} (last 1 s) ")), "{at_ms} ms:\n{screen}");
            assert_eq!(a.side().throttled_tasks(None), n, "{at_ms} ms");
            let rated = a.side().task_lines(0, 10).iter().filter(|l| l.rate_pages.is_some()).count();
            assert_eq!(rated, n, "{at_ms} ms: the rows with a rate");
        }
        // Narrower, the count of the last second stays, with its window.
        a.update(Msg::FocusTasks);
        let screen = drawn(&mut a, 80, 24);
        assert!(screen.contains("┌ tasks (0 throttled in 1 s) ┐"), "{screen}");
    }

    #[test]
    fn the_end_of_the_trace_is_said_only_there_and_space_names_what_it_does() {
        let mut a = app(&trace(20));
        let hint = |a: &mut TraceApp| drawn(a, 160, 48).lines().last().expect("a hint bar").to_string();
        assert!(hint(&mut a).starts_with(" space pause "), "{}", hint(&mut a));
        a.tick(Duration::from_secs(30));
        a.tick(Duration::from_millis(50));
        assert_eq!((a.paused(), a.note.as_str()), (true, END_NOTE));
        assert!(hint(&mut a).starts_with(" space play "), "{}", hint(&mut a));
        a.update(Msg::Seek(-5));
        assert_eq!(a.side().at_ns(), a.side().end_ns() - 5_000_000_000);
        assert_eq!(a.note, "", "the playhead left the end");
        a.update(Msg::Seek(-100));
        assert_eq!((a.side().at_ns(), a.note.as_str()), (0, ""));
        assert!(hint(&mut a).starts_with(" space play "), "{}", hint(&mut a));
        a.update(Msg::TogglePause);
        assert!(hint(&mut a).starts_with(" space pause "), "{}", hint(&mut a));
        // Other notes stay where the playhead goes.
        a.update(Msg::Window);
        a.update(Msg::Seek(5));
        assert_eq!(a.note, "chart window: 30 s");
        // Home and r say where they went: the clock alone jumped.
        a.update(Msg::Seek(i16::MIN));
        assert_eq!((a.side().at_ns(), a.note.as_str()), (0, "back to the trace's start"));
        // End, while playing, goes to the end and stops there.
        assert!(!a.paused());
        a.update(Msg::Seek(i16::MAX));
        assert_eq!((a.side().at_ns(), a.paused(), a.note.as_str()), (a.side().end_ns(), true, END_NOTE));
    }
}
