//! Drawing the dashboard from a shared borrow of the app.
//!
//! ```text
//! full (>= 140x40)                          compact (>= 80x24)
//! ┌ status ─────────────────────────────┐   ┌ status ─────────────────┐
//! │ 1 global dirty  │ 2 bdi dirty │ par │   │ parameters strip        │
//! │─────────────────┼─────────────┤ ame │   │ 1 global    │ 2 bdi     │
//! │ 3 pos_ratio     │ 4 rates     │ ters│   │─────────────┼───────────│
//! │─────────────────┴───────┬─────┴─────│   │ 3 pos_ratio │ 4 rates   │
//! │ 5 pauses                │ tasks     │   │ 5 pauses (when tall)    │
//! └ keys ─────────── ? help q quit ─────┘   └ keys ─── ? help q quit ─┘
//!
//! lesson (>= 120 wide)                      compare: A | B columns
//! ┌ status ─────────────────────────────┐   ┌ status ─────────────────┐
//! │ parameters strip        │ lesson    │   │ A head     │ B head     │
//! │ the charts the step     │ text,     │   │ chart 1    │ chart 1    │
//! │ shows and names, and    │ checks,   │   │ chart 4    │ chart 4    │
//! │ the task table if named │ questions │   │ chart 5    │ chart 5    │
//! └ keys ─────────────────────────────── ┘   └ keys ───────────────────┘
//! small (>= 60x18): one chart at a time (1-5 switch); smaller: a notice.
//! ```
//!
//! A lesson step's text, hint and questions decide what else is on the
//! screen: every chart, the task table and the parameter panel they name
//! (see [`crate::lesson::Views`]). In compare mode both sides of a chart
//! share one y range.

use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Cell, Clear, Paragraph, Row, Table, Wrap};

use super::charts::{self, ChartData, GLOSSARY, Has, MARKS, Source};
use super::plot::{self, Look, Title};
use super::theme::Theme;
use crate::app::{App, Mode};
use crate::lesson::Views;
use crate::lesson::check::show;
use crate::run::summary::NOT_KNOWN;
use crate::session::{Side, bdi_label};
use crate::units::{SizeUnit, breaks_at, mib, size, wrap_words};

/// The smallest terminal the dashboard draws in.
pub const MIN_SIZE: (u16, u16) = (60, 18);

/// The size `s` draws the screen at in a terminal of `width` x `height`,
/// and what its note adds: the terminal's own, or where that is too small
/// for the dashboard, 160x48 (it saved the notice that says so).
pub(crate) fn svg_size(width: u16, height: u16) -> (u16, u16, &'static str) {
    if width < MIN_SIZE.0 || height < MIN_SIZE.1 {
        (160, 48, " (drawn at 160×48: the terminal is too small)")
    } else {
        (width, height, "")
    }
}

/// Chart titles, by number.
pub const TITLES: [&str; 5] =
    ["1 global dirty pages", "2 bdi dirty pages", "3 pos_ratio control lines", "4 rates", "5 pauses"];

/// Chart titles when room is short, by number: every chart shows at
/// least this much of its title where it has room for a value.
pub const SHORT_TITLES: [&str; 5] = ["1 global dirty", "2 bdi dirty", "3 pos_ratio", "4 rates", "5 pauses"];

/// Title of the parameter panel and strip.
pub const PARAMS_TITLE: &str = "parameters";

/// Title of the task table (before its count).
pub const TASKS_TITLE: &str = "tasks";

/// What one frame draws with.
struct Ctx<'a> {
    app: &'a App,
    theme: Theme,
    marker: ratatui::symbols::Marker,
    /// How far the task tables drawn so far can scroll, and by how much
    /// a page \[rows\].
    task_room: std::cell::Cell<Option<crate::app::TaskRoom>>,
}

impl Ctx<'_> {
    fn look(&self) -> Look<'_> {
        let text_folds = self.app.lesson().is_some_and(|m| !m.folded());
        Look { theme: &self.theme, marker: self.marker, text_folds }
    }
}

/// Something a body area holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Panel {
    /// Chart 1-5.
    Chart(u8),
    /// The task table.
    Tasks,
}

/// Draws the whole screen; returns how far its help, lesson text and
/// task table can scroll as drawn, for [`App::set_scroll_room`].
pub fn draw(app: &App, frame: &mut Frame) -> crate::app::ScrollRoom {
    let ctx = Ctx {
        app,
        theme: Theme::new(app.theme()),
        marker: marker(app.marker()),
        task_room: std::cell::Cell::new(None),
    };
    let area = frame.area();
    draw_in(&ctx, frame, area);
    crate::app::ScrollRoom { tasks: ctx.task_room.get(), ..scroll_room(app, area) }
}

fn draw_in(ctx: &Ctx, frame: &mut Frame, area: Rect) {
    let app = ctx.app;
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        // The help is text: it is read at any size.
        draw_too_small(ctx, frame, area);
        if app.help_open() {
            draw_help(ctx, frame, area);
        }
        return;
    }
    let [status, body, hints] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(0), Constraint::Length(1)]).areas(area);
    draw_status(ctx, frame, status);
    let hidden = match app.lesson() {
        Some(mode) => draw_lesson_body(ctx, mode.step().views(), frame, body),
        None => Hidden { charts: draw_body(ctx, frame, body), tasks: false },
    };
    draw_hints(ctx, frame, hints, hidden);
    if app.picker().is_some() {
        super::lesson::draw_picker(app, &ctx.theme, frame, area);
    }
    if app.help_open() {
        draw_help(ctx, frame, area);
    }
}

/// How far the help and the lesson step's text can scroll when `app` is
/// drawn on a screen of `area` (the task table's room is known once it
/// is drawn: see [`draw`]).
pub fn scroll_room(app: &App, area: Rect) -> crate::app::ScrollRoom {
    let help = help_room(super::keys::HELP, area, app.theme());
    let (text, text_page, hint_row) = if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        (0, 1, None)
    } else {
        let [_, body, _] =
            Layout::vertical([Constraint::Length(1), Constraint::Min(0), Constraint::Length(1)]).areas(area);
        super::lesson::text_room(app, &Theme::new(app.theme()), lesson_split(app, body).1)
    };
    crate::app::ScrollRoom { help, help_page: help_page(area), text, text_page, hint_row, tasks: None }
}

/// The ratatui marker for a chart marker.
pub fn marker(m: crate::app::Marker) -> ratatui::symbols::Marker {
    use ratatui::symbols::Marker;
    match m {
        crate::app::Marker::Braille => Marker::Braille,
        crate::app::Marker::Dot => Marker::Dot,
        crate::app::Marker::Block => Marker::Block,
    }
}

/// The keys a screen too small for the dashboard names: `?` and `q` where
/// they help and quit in `sections`, else Ctrl-C.
pub(crate) fn too_small_keys(sections: &[super::keys::Section]) -> String {
    let words: Vec<String> = super::keys::bar_keys(sections)
        .into_iter()
        .map(|(key, what)| if what == "quit" { format!("{key} quits") } else { format!("{key} {what}") })
        .collect();
    if words.is_empty() { "Ctrl-C quits".into() } else { words.join(" · ") }
}

fn draw_too_small(ctx: &Ctx, frame: &mut Frame, area: Rect) {
    // Paused, it says so after what runs.
    let paused = if ctx.app.paused() { " · PAUSED" } else { "" };
    let width = usize::from(area.width).saturating_sub(paused.chars().count());
    let running = format!("{}{paused}", running(ctx.app, width));
    let keys = too_small_keys(super::keys::sections(ctx.app.mode()));
    // The lesson list is drawn at 60×18 and more: open, it says so. An
    // answer being typed shows here too, or it is typed blind.
    let typed = ctx.app.lesson().and_then(|m| {
        let i = m.answering()?;
        let text = m.typing(i)?;
        let after = m.refused().unwrap_or("Enter checks, Esc cancels");
        Some(format!("answer {}: {text}▏ {after}", i + 1))
    });
    let note = match (ctx.app.picker(), typed) {
        (Some(_), _) => format!("the lesson list is open: it needs {}×{} (Esc closes it)", MIN_SIZE.0, MIN_SIZE.1),
        (None, Some(typed)) => typed,
        (None, None) => too_small_note(ctx.app.note(), ctx.app.zoom(), ctx.app.tasks_focused()),
    };
    draw_too_small_of(&ctx.theme, &running, keys, &note, frame, area);
}

/// What a screen too small says the last key did: its note, and what
/// is kept for a larger window that no note says (`1`-`5` and `T` set
/// none: the chart or the table shows it), the chart full screen and
/// the task table focused.
pub(crate) fn too_small_note(note: &str, zoom: Option<u8>, tasks_focused: bool) -> String {
    // Short: at 30x8 three rows hold it and the note.
    let zoomed = zoom.map(|n| format!("chart {n} full screen"));
    let focused = tasks_focused.then(|| "task table focused".to_string());
    let kept: Vec<String> = [zoomed, focused].into_iter().flatten().collect();
    let kept = (!kept.is_empty()).then(|| format!("for a larger window: {}", kept.join(", ")));
    [(!note.is_empty()).then(|| note.to_string()), kept].into_iter().flatten().collect::<Vec<_>>().join(" · ")
}

/// What runs, in one row of at most `width` columns: the lesson, its
/// title (cut first), step and seed (a class checks it runs the
/// teacher's seed at every size), or the scenario.
fn running(app: &App, width: usize) -> String {
    let Some(mode) = app.lesson() else { return cut_to(&format!("scenario {}", app.session().scenario.name), width) };
    let run = mode.run();
    let lesson = format!("lesson {}", run.lesson.id);
    let tail = format!("step {}/{} · seed {}", run.step + 1, run.lesson.steps.len(), app.session().scenario.seed);
    let whole = format!("{lesson} · {} · {tail}", run.lesson.title);
    // The title where at least a word of it fits, else the lesson, step
    // and seed; narrower, the seed first, so it is the last to go.
    let room = width.saturating_sub(lesson.chars().count() + tail.chars().count() + 6);
    let bare = format!("{lesson} · {tail}");
    if whole.chars().count() <= width {
        whole
    } else if room >= 8 {
        format!("{lesson} · {} · {tail}", cut_to(&run.lesson.title, room))
    } else if bare.chars().count() <= width {
        bare
    } else {
        let seed = format!("seed {}", app.session().scenario.seed);
        cut_to(&format!("{seed} · {lesson} · step {}/{}", run.step + 1, run.lesson.steps.len()), width)
    }
}

/// What a screen too small for the dashboard says: that it is, what
/// `running` (already cut to fit) where it has the rows, the size it
/// needs and `keys`; and, where rows are left, the status line's `note`
/// (what the last key did: keys still work here).
pub(crate) fn draw_too_small_of(t: &Theme, running: &str, keys: String, note: &str, frame: &mut Frame, area: Rect) {
    let mut text = vec![Line::styled("terminal too small", t.warn)];
    // Under the notice, before what wraps: a row the notice leaves free,
    // and more than an ellipsis.
    if area.height >= 3 && area.width >= 12 {
        text.push(Line::styled(running.to_string(), t.accent));
    }
    // What the last key did takes the size's row where there is no other
    // (at 20x5 the lesson list opened unseen).
    let roomy = area.height >= 6;
    if roomy || note.is_empty() {
        text.push(Line::raw(format!("need {}×{}, have {}×{}", MIN_SIZE.0, MIN_SIZE.1, area.width, area.height)));
    }
    text.push(Line::styled(keys, t.dim));
    if !note.is_empty() {
        if roomy {
            text.push(Line::raw(""));
        }
        text.push(Line::styled(note.to_string(), t.accent));
    }
    frame.render_widget(Paragraph::new(text).alignment(Alignment::Center).wrap(Wrap { trim: true }), area);
}

// ---- status line and hint bar --------------------------------------------------------

/// The speed as the status line says it: `5×`, `1000× asked, 212× reached`.
fn speed_text(app: &App) -> String {
    let x = |v: f64| if v >= 10.0 || v == v.trunc() { format!("{v:.0}×") } else { format!("{v:.1}×") };
    let asked = if app.speed().is_finite() { x(app.speed()) } else { "max".into() };
    match app.reached_speed() {
        Some(r) => format!("{asked} asked, {} reached", x(r)),
        None => asked,
    }
}

/// Joins `segments` (priority, text) with separators, dropping the least
/// important until the line fits `width`; the last resort cuts the
/// highest-priority one with an ellipsis.
pub(crate) fn fit_segments(segments: &[(u8, String)], width: usize) -> String {
    fitted_line(segments, &kept_segments(segments, width), width)
}

/// The `keep` of `segments` joined with separators, cut with an ellipsis
/// where it still passes `width`.
fn fitted_line(segments: &[(u8, String)], keep: &[usize], width: usize) -> String {
    let text = segments_line(segments, keep);
    if text.chars().count() <= width {
        return text;
    }
    let cut: String = text.chars().take(width.saturating_sub(1)).collect();
    format!("{cut}…")
}

/// The `keep` of `segments` joined with separators.
fn segments_line(segments: &[(u8, String)], keep: &[usize]) -> String {
    format!(" {} ", keep.iter().map(|&i| segments[i].1.as_str()).collect::<Vec<_>>().join(" │ "))
}

/// Which of `segments` [`fit_segments`] keeps in `width`: the least
/// important (the later of equals) goes first; once the line fits, one
/// left out goes back where it still fits, the most important first (a
/// lesson's short `seed 3`, left out before the kernel's longer name, has
/// room once that is out too).
fn kept_segments(segments: &[(u8, String)], width: usize) -> Vec<usize> {
    kept_segments_of(std::slice::from_ref(&segments.to_vec()), width)
}

/// Which segments [`kept_segments`] keeps of lines that name the same
/// fields in the same order (ranked as the first does), so that every
/// line fits `width`: the same for all of them.
fn kept_segments_of(lines: &[Vec<(u8, String)>], width: usize) -> Vec<usize> {
    let Some(first) = lines.first() else { return Vec::new() };
    let too_long = |keep: &[usize]| lines.iter().any(|l| segments_line(l, keep).chars().count() > width);
    let mut keep: Vec<usize> = (0..first.len()).collect();
    let mut left_out = Vec::new();
    while too_long(&keep) && keep.len() > 1 {
        let (at, _) = keep.iter().enumerate().min_by_key(|&(_, &i)| (first[i].0, usize::MAX - i)).expect("not empty");
        left_out.push(keep.remove(at));
    }
    for i in left_out.into_iter().rev() {
        let at = keep.partition_point(|&k| k < i);
        keep.insert(at, i);
        if too_long(&keep) {
            keep.remove(at);
        }
    }
    keep
}

/// The status line's log-scale segment (charts 4 and 5 on a log y axis),
/// ranked above the bdi, window and scenario: only the time, speed,
/// state, kernel and a note come before it, since nothing else on screen
/// but the decade ticks says so. Its short form is read where the full
/// one would leave another segment out.
const LOG_SCALE: (u8, &str, &str) = (7, "log scale", "log");

/// Adds the log-scale segment to `segments` when `on`, unless `note`
/// (the status line's note) already says so: `l` just pressed, its note
/// reads `charts 4 and 5: log scale`. Its index, for
/// [`fit_segments_shortening`].
pub(crate) fn push_log_scale(segments: &mut Vec<(u8, String)>, on: bool, note: &str) -> Option<usize> {
    (on && note != crate::app::LOG_SCALE_NOTE).then(|| {
        segments.push((LOG_SCALE.0, LOG_SCALE.1.into()));
        segments.len() - 1
    })
}

/// `segments` fitted to `width`, the log-scale one at `i` (see
/// [`push_log_scale`]) in its short form where in full it would leave
/// out another (or itself), and kept wherever it has room once others
/// of its rank are left out: at 60 columns ` t 10.0 s │ 1× │ running │
/// log │ added a dd on sda (HDD)`, where the kernel's name, going after
/// it, made room enough for it.
pub(crate) fn fit_segments_shortening(mut segments: Vec<(u8, String)>, i: Option<usize>, width: usize) -> String {
    let Some(i) = i else { return fit_segments(&segments, width) };
    let long = kept_segments(&segments, width);
    let full = std::mem::replace(&mut segments[i].1, LOG_SCALE.2.to_string());
    if long.contains(&i) && long == kept_segments(&segments, width) {
        segments[i].1 = full;
    }
    let mut keep = kept_segments(&segments, width);
    if !keep.contains(&i) {
        let at = keep.partition_point(|&k| k < i);
        keep.insert(at, i);
        let text = segments_line(&segments, &keep);
        if text.chars().count() <= width {
            return text;
        }
    }
    fit_segments(&segments, width)
}

/// The columns a status line of `width` leaves a note beside the
/// segments `kept` (and their separators); at least 24, the note's own
/// first words.
pub(crate) fn note_room<'a>(width: usize, kept: impl Iterator<Item = &'a String>) -> usize {
    let taken: usize = kept.map(|k| k.chars().count() + 3).sum();
    width.saturating_sub(2 + taken).max(24)
}

/// The rank of `--debug`'s frame time on the status line: asked for, it
/// stays ahead of the kernel, bdi, window and scenario; only the time, a
/// note, the speed and the state (the later of equals going first) come
/// before it.
const DEBUG_RANK: u8 = 8;

/// The rank of the program's name on the status line: the least.
const PROGRAM_RANK: u8 = 2;

/// How long a note outranks everything on the status line, in simulated
/// time \[ns\] (a paused world keeps it fresh).
const NOTE_FRESH_NS: u64 = 20 * 1_000_000_000;

fn draw_status(ctx: &Ctx, frame: &mut Frame, area: Rect) {
    let app = ctx.app;
    let w = app.world();
    let kernels = match app.sides() {
        // Sides that differ in a setting run one kernel, which their
        // labels leave out: it is named after them (a key may change it).
        [a, b] => match crate::session::sides_name(a, b, true) {
            (pair, Some(kernel)) => format!("{pair} │ {kernel}"),
            (pair, None) => pair,
        },
        _ => crate::session::level_name(w.patches(), w.legacy()),
    };
    let window = app.window_label();
    // Where room is short, the window goes before the scenario (the
    // charts' time axes say it; a class is told which scenario to open).
    // Once the whole run has lost its start, a case's long name, cut to
    // the room left, leaves it room too where it still keeps 12 columns:
    // at 160 columns the name took it, and the charts were read as the
    // whole run.
    let window_room = if app.window_cut() { window.chars().count() + 3 } else { 0 };
    let mut segments = vec![
        (PROGRAM_RANK, "dirtyviz".to_string()),
        // Cut below, to the room the segments above it leave. In a lesson,
        // the lesson (the preset it starts from read as if the class were
        // on the dashboard, and stayed `nfs-1dd` once a step set 10 dd).
        // A lesson's number ranks with the bdi and goes after it where
        // both do not fit: the charts' titles name the bdi (at 100x30
        // lesson 01's comparisons named `bdi sda (HDD)` and no lesson).
        match app.lesson() {
            Some(m) => (6, format!("lesson {}", m.run().lesson.id)),
            None => (5, app.session().scenario.name.clone()),
        },
        (9, format!("t {:.1} s", app.sim_ns() as f64 / 1e9)),
        (8, speed_text(app)),
        (7, kernels),
        // Paused, it says so ahead of the speed.
        if app.paused() { (9, "PAUSED".to_string()) } else { (8, "running".to_string()) },
        (4, window),
        (6, format!("bdi {}", bdi_label(w, app.bdi()))),
    ];
    let seed = app.lesson().map(|_| format!("seed {}", app.session().scenario.seed));
    if let Some(seed) = &seed {
        // A class checks it runs the teacher's seed, at any size: it
        // ranks with the time, above the speed, the state and the kernel
        // (whose name, two in a comparison, is longer); only a note comes
        // before it. It follows the time, so that of equals PAUSED goes
        // first (a step done says so, and the paused line is bold).
        segments.insert(3, (9, seed.clone()));
    }
    // A change's note that has stood a while yields to the kernel where
    // both do not fit: at 60 columns a log-scale note of a minute before
    // left out the patch level a class was watching.
    let fresh = app.note_age_ns() < NOTE_FRESH_NS;
    // A note naming the level just set stands for the kernel's segment,
    // which would say it twice and leave out the bdi where room is short;
    // once it has stood a while, the kernel's segment takes its place.
    let patch_note = app.sides().len() == 1 && app.note().starts_with(crate::app::PATCH_NOTE);
    if patch_note && fresh {
        segments.retain(|(rank, _)| *rank != 7);
    }
    // `b`'s note names the bdi already.
    segments.retain(|(_, text)| text != app.note());
    let mut log = push_log_scale(&mut segments, app.log_scale(), app.note());
    let mut debug = app.debug().then(|| {
        let (draw, total) = app.frame_ms();
        segments.push((DEBUG_RANK, format!("frame {draw:.1} ms (+{:.1} out)", (total - draw).max(0.0))));
        (segments.len() - 1, format!("frame {draw:.1} ms"))
    });
    let width = area.width as usize;
    if !app.note().is_empty() && (!patch_note || fresh) {
        // A note (a change just made, a file not saved) is read first,
        // worded shorter where the line is narrow. What a key that did
        // nothing is is cut short instead where it would leave out the
        // time, a lesson's seed or PAUSED; in a lesson any other note is
        // worded shorter, then cut, to leave the time and the seed.
        let time = segments[2].1.clone();
        let note = if app.note_passes() {
            let state = app.paused().then(|| "PAUSED".to_string());
            let room = note_room(width, [Some(time), seed, state].iter().flatten());
            cut_to(app.note(), room)
        } else if let Some(seed) = seed {
            let room = note_room(width, [time, seed].iter());
            cut_to(&app.note_within(room), room)
        } else {
            app.note_within(width.saturating_sub(2))
        };
        segments.push((if fresh { 10 } else { 6 }, note));
    }
    // A case's name (with the options that changed it) runs to 80
    // columns: it takes what the segments ranked above it leave, cut with
    // an ellipsis, rather than go (a short name stays whole).
    let above: usize = segments.iter().filter(|(rank, _)| *rank > 5).map(|(_, t)| t.chars().count() + 3).sum();
    let room = |taken: usize| width.saturating_sub(taken + 2);
    let room = if room(above + window_room) >= 12 { room(above + window_room) } else { room(above).max(12) };
    if let Some((_, name)) = segments.iter_mut().find(|(rank, _)| *rank == 5) {
        *name = cut_to(name, room);
    }
    // The program's name goes first where the line is short of room, and
    // does not come back in a place another left (`dirtyviz` fitted where
    // `lesson 01`, a column longer, did not: the line then named no lesson).
    let all: Vec<usize> = (0..segments.len()).collect();
    if segments_line(&segments, &all).chars().count() > width && segments[0].0 == PROGRAM_RANK {
        remove_segment(&mut segments, 0, &mut log, &mut debug);
    }
    let style = if app.paused() { ctx.theme.status.add_modifier(Modifier::BOLD) } else { ctx.theme.status };
    // Paused where PAUSED has no room, the speed goes too: `1×` alone
    // would read as running (a lesson's step done at 64 columns).
    if app.paused() && !fit_segments_shortening(segments.clone(), log, width).contains("PAUSED") {
        let speed = speed_text(app);
        if let Some(at) = segments.iter().position(|(rank, text)| *rank == 8 && *text == speed) {
            remove_segment(&mut segments, at, &mut log, &mut debug);
        }
    }
    let line = match debug {
        None => fit_segments_shortening(segments, log, width),
        Some((i, short)) => {
            // The frame time in full where that leaves out no more than
            // its short form does.
            let full = segments[i].1.clone();
            let long = fit_segments_shortening(segments.clone(), log, width);
            segments[i].1 = short;
            let brief = fit_segments_shortening(segments, log, width);
            let bars = |l: &str| l.matches('│').count();
            if long.contains(&full) && bars(&long) >= bars(&brief) { long } else { brief }
        }
    };
    frame.render_widget(Paragraph::new(line).style(style), area);
}

/// Removes the status line's segment `at`: the log scale's and frame
/// time's places (`log`, `debug`), after it, move up.
fn remove_segment(
    segments: &mut Vec<(u8, String)>,
    at: usize,
    log: &mut Option<usize>,
    debug: &mut Option<(usize, String)>,
) {
    segments.remove(at);
    let shift = |i: usize| if i > at { i - 1 } else { i };
    *log = log.map(shift);
    if let Some((i, _)) = debug {
        *i = shift(*i);
    }
}

/// A body of `body`'s size shows one chart at a time (1-5 switch).
pub(crate) fn one_chart_at_a_time(body: Rect) -> bool {
    body.width < 80 || body.height < 22
}

/// What a body left out for room that the keys bring back: a chart the
/// step names (or every chart but one), the task table the step names.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Hidden {
    /// Charts: `1`-`5` show them.
    pub charts: bool,
    /// The task table: `T` shows it.
    pub tasks: bool,
}

/// `hints` with the chart keys first when `hidden.charts` (where one
/// chart shows at a time they are the way to the other four), and the
/// task table's first when `hidden.tasks` (at 100x30 a compare step that
/// names the task tables showed charts only).
pub(crate) fn chart_keys_first<'a>(
    hints: impl Iterator<Item = (&'a str, &'a str)>,
    hidden: Hidden,
) -> Vec<(&'a str, &'a str)> {
    let lead = |key: &str| (hidden.tasks && key.starts_with("T ")) || (hidden.charts && key == "1-5");
    let (mut first, rest): (Vec<_>, Vec<_>) = hints.partition(|&(key, _)| lead(key));
    for hint in &mut first {
        hint.1 = if hint.0 == "1-5" { "chart" } else { "table" };
    }
    first.extend(rest);
    first
}

/// The hint bar: `? help` and `q quit` at the right where they work; the
/// key table's hints for the mode, as many as fit, at the left (the keys
/// to what the body left out, `hidden`, first).
fn draw_hints(ctx: &Ctx, frame: &mut Frame, area: Rect, hidden: Hidden) {
    let sections: &[super::keys::Section] = match ctx.app.mode() {
        Mode::Typing => &[super::keys::TYPING],
        Mode::Help => &[super::keys::HELP_KEYS],
        Mode::Picker => &[super::keys::PICKER],
        Mode::Tasks => &[super::keys::TASKS, super::keys::DASHBOARD],
        Mode::Normal if ctx.app.lesson().is_some() => &[super::keys::LESSON, super::keys::DASHBOARD],
        Mode::Normal => &[super::keys::DASHBOARD],
    };
    let normal = ctx.app.mode() == Mode::Normal;
    // A lesson's keys where they do something on the open step.
    let offered = |msg: &crate::app::Msg| match (msg, ctx.app.lesson()) {
        (crate::app::Msg::Lesson(l), Some(mode)) => mode.offers(*l),
        _ => true,
    };
    let hints = sections
        .iter()
        .flat_map(|s| s.bindings)
        .filter(|b| b.keys.iter().any(|(_, msg)| offered(msg)))
        .map(|b| (b.label, if normal { b.hint } else { b.help }));
    let fixed = super::keys::bar_keys(super::keys::sections(ctx.app.mode()));
    let space = if ctx.app.paused() { "play" } else { "pause" };
    let hidden = if normal { hidden } else { Hidden::default() };
    let hints = space_says(chart_keys_first(hints, hidden), sections, space);
    draw_key_bar(&ctx.theme, frame, area, hints.into_iter(), &fixed);
}

/// `hints` with space's named `word`, what it does now (play or pause),
/// where space plays and pauses in `sections`; as it is elsewhere (in the
/// help it pages).
pub(crate) fn space_says<'a>(
    mut hints: Vec<(&'a str, &'a str)>,
    sections: &[super::keys::Section],
    word: &'a str,
) -> Vec<(&'a str, &'a str)> {
    let bindings = sections.iter().flat_map(|s| s.bindings);
    let space = bindings.filter(|b| b.label == "space").flat_map(|b| b.keys).next();
    if space.is_some_and(|(_, msg)| *msg == crate::app::Msg::TogglePause) {
        for hint in hints.iter_mut().filter(|(key, _)| *key == "space") {
            hint.1 = word;
        }
    }
    hints
}

/// A hint bar: `fixed` (`? help`, `q quit` where they work) at the right;
/// at the left, as many of `hints` (key, what it does) as fit, each cut
/// to its first clause. Keys with nothing to say are left out.
pub(super) fn draw_key_bar<'a>(
    t: &Theme,
    frame: &mut Frame,
    area: Rect,
    hints: impl Iterator<Item = (&'a str, &'a str)>,
    fixed: &[(&str, &str)],
) {
    let fixed_w: usize = fixed.iter().map(|(k, w)| k.len() + w.len() + 2).sum::<usize>() + 1;
    let room = (area.width as usize).saturating_sub(fixed_w);
    let (mut spans, mut used) = (Vec::new(), 0);
    for (key, what) in hints {
        if what.is_empty() || fixed.iter().any(|(k, _)| *k == key) {
            continue;
        }
        let what = what.split([',', '(']).next().unwrap_or(what).trim();
        let w = key.chars().count() + what.chars().count() + 2;
        if used + w > room {
            break;
        }
        spans.push(Span::styled(format!(" {key}"), t.accent));
        spans.push(Span::styled(format!(" {what}"), t.dim));
        used += w;
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
    let mut right = Vec::new();
    for &(k, what) in fixed {
        right.push(Span::styled(format!(" {k}"), t.accent));
        right.push(Span::styled(format!(" {what}"), t.dim));
    }
    right.push(Span::raw(" "));
    frame.render_widget(Paragraph::new(Line::from(right).right_aligned()), area);
}

// ---- bodies -------------------------------------------------------------------------

/// Draws the dashboard without a lesson; says whether charts are left out of it
/// for want of room (not only zoomed away), the chart keys then leading
/// the hint bar as the way to them.
fn draw_body(ctx: &Ctx, frame: &mut Frame, area: Rect) -> bool {
    let app = ctx.app;
    if app.sides().len() > 1 {
        draw_compare(ctx, Views::default(), frame, area).charts
    } else if let Some(n) = app.zoom() {
        let most = strip_most(area);
        let [strip, rest] = strip_split(ctx, most, area);
        draw_params_strip(ctx, most, frame, strip);
        let panels: Vec<Panel> =
            if app.tasks_focused() { vec![Panel::Chart(n), Panel::Tasks] } else { vec![Panel::Chart(n)] };
        draw_panels(ctx, &panels, frame, rest);
        // Zoomed where one chart at a time is all there is room for: the
        // chart keys are still the way to the others.
        one_chart_at_a_time(area)
    } else if area.width >= 140 && area.height >= 38 {
        draw_full(ctx, frame, area);
        false
    } else if !one_chart_at_a_time(area) {
        let most = strip_most(area);
        let [strip, rest] = strip_split(ctx, most, area);
        draw_params_strip(ctx, most, frame, strip);
        let mut panels: Vec<Panel> = (1..=4).map(Panel::Chart).collect();
        let all = rest.height >= 24 || app.tasks_focused();
        if all {
            panels.push(Panel::Chart(5));
        }
        if app.tasks_focused() {
            panels.push(Panel::Tasks);
        }
        draw_panels(ctx, &panels, frame, rest);
        !all
    } else {
        let panels = if app.tasks_focused() { vec![Panel::Tasks] } else { vec![Panel::Chart(1)] };
        draw_panels(ctx, &panels, frame, area);
        true
    }
}

/// The most rows of parameters the strip over the charts of a dashboard
/// `body` shows: four in a tall one; in a short one (at 80x24, 100x30)
/// none, the strip being one row without its title
/// ([`draw_params_strip`]), so that the charts keep two rows more.
pub(crate) fn strip_most(body: Rect) -> u16 {
    if body.height >= 34 { 4 } else { 0 }
}

/// Splits off the parameter strip at the top of `area`: its title row and
/// at most `most` rows of parameters (the thresholds come first); with
/// `most` 0, the strip without its title: one row, or in a lesson the rows
/// its readings need ([`bare_strip_lines`]).
fn strip_split(ctx: &Ctx, most: u16, area: Rect) -> [Rect; 2] {
    let rows = if most == 0 {
        bare_strip_lines(ctx, area.width).len() as u16
    } else {
        (params_strip_lines(ctx, area.width).len() as u16).min(most) + 1
    };
    Layout::vertical([Constraint::Length(rows.min(area.height / 3)), Constraint::Min(0)]).areas(area)
}

fn draw_full(ctx: &Ctx, frame: &mut Frame, area: Rect) {
    let [top, bottom] = Layout::vertical([Constraint::Percentage(68), Constraint::Percentage(32)]).areas(area);
    let [charts, params] = Layout::horizontal([Constraint::Min(0), Constraint::Length(36)]).areas(top);
    draw_panels(ctx, &[Panel::Chart(1), Panel::Chart(2), Panel::Chart(3), Panel::Chart(4)], frame, charts);
    draw_params_panel(ctx, frame, params);
    let [c5, tasks] = Layout::horizontal([Constraint::Percentage(62), Constraint::Percentage(38)]).areas(bottom);
    draw_chart(ctx, &ctx.app.sides()[0], 5, None, frame, c5);
    draw_tasks(ctx, &ctx.app.sides()[0], frame, tasks);
}

/// The panels a lesson step shows on one world: the zoomed chart first and
/// big, then every chart the step names, and the task table if named or
/// focused; all five charts when nothing is zoomed.
fn lesson_panels(app: &App, views: Views) -> Vec<Panel> {
    let mut panels: Vec<Panel> = match app.zoom() {
        Some(z) => {
            let mut p = vec![Panel::Chart(z)];
            p.extend(views.named_charts().filter(|&n| n != z).map(Panel::Chart));
            p
        }
        None => (1..=5).map(Panel::Chart).collect(),
    };
    if views.tasks || app.tasks_focused() {
        panels.push(Panel::Tasks);
    }
    panels
}

/// A lesson's body split: the charts' area and the lesson pane's, beside
/// them in a wide terminal, above them in a narrow one.
fn lesson_split(app: &App, body: Rect) -> (Rect, Rect) {
    if app.lesson().is_some_and(|m| m.full()) {
        return (Rect { height: 0, ..body }, body);
    }
    if app.lesson().is_some_and(|m| m.folded()) {
        let rows = super::lesson::FOLDED_ROWS.min(body.height);
        let [pane, charts] = Layout::vertical([Constraint::Length(rows), Constraint::Min(0)]).areas(body);
        return (charts, pane);
    }
    if body.width >= 120 {
        // Three eighths of the width, up to a comfortable line of text
        // (76 columns): at 220 columns the charts keep 144, at 160 100
        // (a step's text of 44 rows at 60 columns took 49 at 56).
        let pane = (body.width * 3 / 8).clamp(40, 76);
        let [charts, pane] = Layout::horizontal([Constraint::Min(0), Constraint::Length(pane)]).areas(body);
        (charts, pane)
    } else {
        // The text takes at most half a short body (the rest of it scrolls,
        // PgUp PgDn), so that the charts keep rows enough to read; in a tall
        // one, the charts keep 20 rows. They also get every row a short step
        // does not fill (plus two, so that judging its checks seldom moves
        // the charts).
        let most = (body.height / 2).max(body.height.saturating_sub(20)).max(8);
        // Measured twice: a pane shorter than 18 rows drops its blank rows.
        let t = Theme::new(app.theme());
        let needs = super::lesson::pane_rows(app, &t, body.width, most);
        let needs = super::lesson::pane_rows(app, &t, body.width, needs.saturating_add(2).min(most));
        let pane = needs.saturating_add(2).clamp(most.min(8), most);
        let [pane, charts] = Layout::vertical([Constraint::Length(pane), Constraint::Min(0)]).areas(body);
        (charts, pane)
    }
}

/// Draws a lesson's body; true when a chart its step names is left out
/// for room (the hint bar then leads with the chart keys: lesson 15 asks
/// of chart 5 where 80x24 shows chart 4 alone).
///
/// The pane goes beside (or above) the charts, with the parameter strip
/// over the charts: in a body short enough that the dashboard's strip is
/// one row ([`strip_most`]), one row (two where the step's readings need
/// them) without its title, so that the charts keep the rows (at 80x24
/// lesson 03's chart 1 plots on six, a row for each threshold's label,
/// where a strip of three rows left it five).
fn draw_lesson_body(ctx: &Ctx, views: Views, frame: &mut Frame, body: Rect) -> Hidden {
    let app = ctx.app;
    let (charts, pane) = lesson_split(app, body);
    super::lesson::draw_pane(app, &ctx.theme, frame, pane);
    if charts.height == 0 {
        // The text on the whole body (`V`): the charts wait, and nothing
        // of them is told left out.
        return Hidden::default();
    }
    let most = if strip_most(body) == 0 { 0 } else { (charts.height / 6).max(2) };
    let [strip, rest] = strip_split(ctx, most, charts);
    draw_params_strip(ctx, most, frame, strip);
    if app.sides().len() > 1 {
        draw_compare(ctx, views, frame, rest)
    } else {
        let mut panels = lesson_panels(app, views);
        // A small area shows the most important panels only.
        let mut room = (rest.height / 8).max(1) as usize * if rest.width >= 100 { 2 } else { 1 };
        // The task table the step names or T focused (where only one
        // panel fits, T's table takes its place: at 60x18 it was left out,
        // the hint bar offering keys to scroll it).
        let tasks = panels.contains(&Panel::Tasks) && (views.tasks || app.tasks_focused());
        // A named task table shares the rows with the step's first chart
        // rather than take its place (at 80x24, folded: 7 rows each).
        if tasks && room == 1 && rest.height >= 14 {
            room = 2;
        }
        if panels.len() > room.max(1) && rest.height < 24 {
            // The zoomed chart leads, then those the step's questions ask
            // of, then the others it names, then those it names in passing.
            let i = |n: u8| usize::from(n) - 1;
            let rank = |p: &Panel| match p {
                Panel::Chart(n) if app.zoom() == Some(*n) => 0,
                Panel::Chart(n) if views.asked[i(*n)] => 1,
                Panel::Chart(n) if views.charts[i(*n)] => 2,
                Panel::Chart(n) if views.names_chart(*n) => 3,
                _ => 4,
            };
            panels.sort_by_key(rank);
            panels.truncate(room.max(1));
            // A chart chosen with its key stays, alone, unless T focused
            // the table (at 80x24 lesson 06's `1` showed the table still);
            // so does one the step names, alone, for a table it names
            // (lesson 02's first step asks of chart 2 and names the table:
            // 80x24 showed the table; `T ↑ ↓ table` then leads the hints).
            // A chart a question asks of keeps the panel; one the text
            // names keeps it unless a question asks of the table.
            let named = |p: &Panel| match p {
                Panel::Chart(n) => views.asked[i(*n)] || (views.charts[i(*n)] && !views.tasks_asked),
                Panel::Tasks => false,
            };
            let chosen =
                !app.tasks_focused() && panels.len() == 1 && (app.zoom_by_key() || panels.first().is_some_and(named));
            if tasks && !chosen && !panels.contains(&Panel::Tasks) {
                *panels.last_mut().expect("one panel") = Panel::Tasks;
            }
        }
        draw_panels(ctx, &panels, frame, rest);
        // A chart the step names left out, or none shown at all (the
        // table took the one panel): the chart keys lead the hint bar.
        let no_chart = !panels.iter().any(|p| matches!(p, Panel::Chart(_)));
        Hidden {
            charts: no_chart || (1..=5).any(|n| views.names_chart(n) && !panels.contains(&Panel::Chart(n))),
            tasks: views.tasks && !panels.contains(&Panel::Tasks),
        }
    }
}

/// Lays `panels` out in `area`: one fills it; two stack (or sit side by
/// side when the area is wide and low); three put the first on top; four
/// make a grid; five and six put the last ones on a bottom row.
fn arrange(n: usize, area: Rect) -> Vec<Rect> {
    let halves = |r: Rect, p: u16| Layout::horizontal([Constraint::Percentage(p), Constraint::Min(0)]).split(r);
    match n {
        0 => Vec::new(),
        1 => vec![area],
        2 if area.width > area.height * 5 => halves(area, 50).to_vec(),
        2 => Layout::vertical([Constraint::Percentage(55), Constraint::Min(0)]).split(area).to_vec(),
        3 => {
            let [top, bottom] = Layout::vertical([Constraint::Percentage(55), Constraint::Min(0)]).areas(area);
            let mut v = vec![top];
            v.extend(halves(bottom, 50).iter());
            v
        }
        4 => {
            let [a, b] = Layout::vertical([Constraint::Percentage(50), Constraint::Min(0)]).areas(area);
            halves(a, 55).iter().chain(halves(b, 55).iter()).copied().collect()
        }
        _ => {
            let [a, b, c] =
                Layout::vertical([Constraint::Ratio(3, 8), Constraint::Ratio(3, 8), Constraint::Ratio(2, 8)])
                    .areas(area);
            let mut v: Vec<Rect> = halves(a, 55).iter().chain(halves(b, 55).iter()).copied().collect();
            if n == 5 {
                v.push(c);
            } else {
                let rest = n - 4;
                let cols = Layout::horizontal(vec![Constraint::Ratio(1, rest as u32); rest]).split(c);
                if rest == 2 {
                    v.extend(halves(c, 62).iter());
                } else {
                    v.extend(cols.iter());
                }
            }
            v
        }
    }
}

/// Draws `panels` of side A in `area`.
fn draw_panels(ctx: &Ctx, panels: &[Panel], frame: &mut Frame, area: Rect) {
    let side = &ctx.app.sides()[0];
    for (panel, r) in panels.iter().zip(arrange(panels.len(), area)) {
        match panel {
            Panel::Chart(n) => draw_chart(ctx, side, *n, None, frame, r),
            Panel::Tasks => draw_tasks(ctx, side, frame, r),
        }
    }
}

// ---- compare ------------------------------------------------------------------------

/// The panels each side shows in compare mode: the task table if T
/// focused it, the zoomed chart (or charts 1, 4 and 5), every chart the
/// lesson names, the task table if named; as many as fit `rows`, in that
/// order of need (at 80x24 one fits: T showed no table there). True with
/// them when a chart wanted is left out for room.
fn compare_panels(app: &App, views: Views, rows: u16) -> (Vec<Panel>, bool) {
    // Those a question asks of first.
    let mut named: Vec<u8> = views.named_charts().collect();
    named.sort_by_key(|&n| !views.asked[usize::from(n) - 1]);
    let mut wanted: Vec<Panel> = Vec::new();
    let mut push = |p: Panel| {
        if !wanted.contains(&p) {
            wanted.push(p);
        }
    };
    if app.tasks_focused() {
        push(Panel::Tasks);
    }
    if let Some(z) = app.zoom() {
        push(Panel::Chart(z));
    }
    named.iter().for_each(|&n| push(Panel::Chart(n)));
    if views.tasks {
        push(Panel::Tasks);
    }
    if app.zoom().is_none() {
        [1, 4, 5].into_iter().for_each(|n| push(Panel::Chart(n)));
    }
    let fit = (rows / 9).max(1) as usize;
    // Zoomed where one panel is all there is room for, the chart keys
    // are still the way to the others.
    let left_out = wanted.iter().skip(fit).any(|p| matches!(p, Panel::Chart(_))) || (app.zoom().is_some() && fit == 1);
    wanted.truncate(fit);
    let zoom = app.zoom().map(Panel::Chart);
    wanted.sort_by_key(|p| match p {
        p if Some(*p) == zoom => 0,
        Panel::Chart(n) => *n,
        Panel::Tasks => 9,
    });
    (wanted, left_out)
}

/// Draws the worlds side by side; true when a chart it would show (one
/// the lesson names, or 1, 4 and 5 unzoomed) is left out for room.
fn draw_compare(ctx: &Ctx, views: Views, frame: &mut Frame, area: Rect) -> Hidden {
    let app = ctx.app;
    let sides = app.sides();
    let cols = Layout::horizontal([Constraint::Percentage(50); 2]).split(area);
    let head_rows = 2;
    let (panels, left_out) = compare_panels(app, views, area.height.saturating_sub(head_rows));
    let hidden = Hidden { charts: left_out, tasks: views.tasks && !panels.contains(&Panel::Tasks) };
    // The heads' sizes in one unit, as the charts under them: the larger
    // either side shows.
    let unit = SizeUnit::of_largest(
        sides.iter().filter_map(|s| s.world.samples().back()).flat_map(|s| [s.thresh, s.setpoint]).map(mib),
    );
    let mut areas: Vec<Vec<Rect>> = Vec::new();
    let mut heads = Vec::new();
    for col in cols.iter().take(sides.len()) {
        let [head, rest] = Layout::vertical([Constraint::Length(head_rows), Constraint::Min(0)]).areas(*col);
        heads.push(head);
        areas
            .push(Layout::vertical(vec![Constraint::Ratio(1, panels.len() as u32); panels.len()]).split(rest).to_vec());
    }
    draw_compare_heads(ctx, sides, unit, frame, &heads);
    for (i, panel) in panels.iter().enumerate() {
        match panel {
            Panel::Tasks => {
                for (side, rects) in sides.iter().zip(&areas) {
                    draw_tasks(ctx, side, frame, rects[i]);
                }
            }
            Panel::Chart(n) => {
                let width = areas[0][i].width;
                let mut data: Vec<ChartData> = sides.iter().map(|s| chart_data(ctx, s, *n, width)).collect();
                share_ranges(&mut data);
                let rects: Vec<Rect> = areas.iter().map(|a| a[i]).collect();
                plot::line_up(&mut data, &ctx.look(), &rects);
                for ((side, rects), d) in sides.iter().zip(&areas).zip(data) {
                    draw_chart(ctx, side, *n, Some(d), frame, rects[i]);
                }
            }
        }
    }
    hidden
}

/// Gives every chart in `data` the same y range (and x ranges), so that
/// the sides of a comparison can be compared by eye.
pub(crate) fn share_ranges(data: &mut [ChartData]) {
    // Sizes in one unit first: the larger either side shows.
    if let Some(unit) = data.iter().filter_map(ChartData::size_unit).max() {
        data.iter_mut().for_each(|d| d.convert_to_size_unit(unit));
    }
    let lo = data.iter().map(|d| d.y[0]).fold(f64::INFINITY, f64::min);
    let hi = data.iter().map(|d| d.y[1]).fold(f64::NEG_INFINITY, f64::max);
    let x_hi = data.iter().map(|d| d.x[1]).fold(f64::NEG_INFINITY, f64::max);
    let x_lo = data.iter().map(|d| d.x[0]).fold(f64::INFINITY, f64::min);
    let x2_hi = data.iter().filter_map(|d| d.x2.as_ref().map(|a| a.x[1])).fold(f64::NEG_INFINITY, f64::max);
    // The margin the side reaching highest left over its data.
    let margin = data.iter().filter(|d| d.y[1] >= hi).map(|d| d.y_margin).fold(f64::INFINITY, f64::min);
    for d in data.iter_mut() {
        d.y = [lo, hi];
        d.y_margin = if margin.is_finite() { margin } else { 1.0 };
        d.x = [x_lo, x_hi];
        if let Some(a) = &mut d.x2 {
            a.x[1] = x2_hi;
        }
        // Earlier rates off a top now shared may be drawn after all.
        charts::note_rates_off_top(d);
    }
}

/// The index of a compare head's longest call among its fields.
const CALL: usize = 1;

/// A side's longest call as its compare head words it, longest first:
/// in full, then in short (`blocked 19710 ms` for one still in progress,
/// `call 227 ms`), each after `bdi`'s name where the world has several,
/// then the short one without it (the status line names the selected
/// bdi).
fn call_forms(longest: Option<charts::LongestCall>, bdi: Option<&str>) -> Vec<String> {
    let ms = |v: f64| format!("{v:.0}");
    let (full, short) = match longest {
        None => ("no call blocked".to_string(), "no call blocked".to_string()),
        Some(l) if l.ongoing => (l.text(ms), format!("blocked {} ms", ms(l.ms))),
        Some(l) => (l.text(ms), format!("call {} ms", ms(l.ms))),
    };
    match bdi {
        Some(b) => vec![format!("{b}: {full}"), format!("{b}: {short}"), short],
        None => vec![full, short],
    }
}

/// A side's head: what it wrote, how long its tasks were held in the
/// charts' window (the longest call's shorter wordings beside), and its
/// thresholds; its sizes in `unit`. Every side names the same fields in
/// the same order (`setpoint –` on a kernel without one, where the other
/// has it: `setpoint` in one head and `thresh` in the other at one place
/// would read as one field).
fn compare_head_items(ctx: &Ctx, side: &Side, unit: SizeUnit, setpoint: bool) -> (Vec<(u8, String)>, Vec<String>) {
    let app = ctx.app;
    let src = Source::of(side);
    let (p, x) = charts::window(src.samples, app.window_s(), 1, src.least_span_s);
    let written = match (p.first(), p.last()) {
        (Some(a), Some(b)) if b.t_ns > a.t_ns => {
            let pages: u64 = a.bdis.iter().zip(&b.bdis).map(|(x, y)| y.written - x.written).sum();
            mib(pages) / ((b.t_ns - a.t_ns) as f64 / 1e9)
        }
        _ => 0.0,
    };
    let bdi = app.bdi().min(side.world.bdis().len() - 1);
    let (_, longest) = charts::longest_pauses(&src, bdi, app.window_s());
    let last = side.world.samples().back();
    // What is written is the whole world's; the longest call is the
    // selected bdi's, named where there are several.
    let name = (side.world.bdis().len() > 1).then(|| side.world.bdis()[bdi].name.as_str());
    let calls = call_forms(longest, name);
    // Not known before the world's first sample, as in the parameters
    // (a comparison opened paused at 0 s said `thresh 0 MiB`).
    let at = |f: fn(&crate::sim::metrics::Sample) -> u64| last.map_or(NOT_KNOWN.into(), |s| unit.size(mib(f(s))));
    let mut items = vec![
        (9, format!("written {written:.1} MiB/s")),
        (8, calls[0].clone()),
        (6, format!("thresh {}", at(|s| s.thresh))),
    ];
    if setpoint {
        let has = src.kernel.position() != Has::No;
        let value = if has { at(|s| s.setpoint) } else { NOT_KNOWN.into() };
        items.push((5, format!("setpoint {value}")));
    }
    items.push((4, format!("ratelimit_pages {}", side.world.vm().ratelimit_pages)));
    items.push((3, format!("over the last {:.0} s", x[1] - x[0])));
    debug_assert!(items[CALL].1 == calls[0]);
    (items, calls)
}

/// The heads of `sides` over `areas`: the fields each keeps are those
/// every head has room for, so that the heads side by side are cut
/// alike (not `no call blocked` in one where the other, its call
/// shorter to say, still shows `thresh`).
fn draw_compare_heads(ctx: &Ctx, sides: &[Side], unit: SizeUnit, frame: &mut Frame, areas: &[Rect]) {
    let setpoint = sides.iter().any(|s| Source::of(s).kernel.position() != Has::No);
    let (mut items, calls): (Vec<_>, Vec<_>) = sides.iter().map(|s| compare_head_items(ctx, s, unit, setpoint)).unzip();
    // A column left blank at the right: the heads side by side stay apart.
    let room = areas.iter().map(|a| usize::from(a.width.saturating_sub(1))).min().unwrap_or(0);
    let mut keep = kept_segments_of(&items, room);
    // The longest call in fewer words where in full it would be left out
    // (a stuck call's `still blocked` lengthens it just when it matters).
    for form in 1..calls.first().map_or(0, Vec::len) {
        if keep.contains(&CALL) {
            break;
        }
        for (line, forms) in items.iter_mut().zip(&calls) {
            line[CALL].1.clone_from(&forms[form]);
        }
        keep = kept_segments_of(&items, room);
    }
    for ((side, items), area) in sides.iter().zip(&items).zip(areas) {
        let line = fitted_line(items, &keep, room);
        let head = cut_head(&format!(" {}", side.label), room);
        let text = vec![Line::styled(head, ctx.theme.title), Line::styled(line, ctx.theme.text)];
        frame.render_widget(Paragraph::new(text), *area);
    }
}

// ---- charts -------------------------------------------------------------------------

/// The data of chart `n` of `side`, for a chart `width` columns wide.
fn chart_data(ctx: &Ctx, side: &Side, n: u8, width: u16) -> ChartData {
    let app = ctx.app;
    let src = Source::of(side);
    let bdi = app.bdi().min(side.world.bdis().len() - 1);
    chart_of(&src, n, bdi, app.window_s(), width, app.log_scale())
}

/// The data of chart `n` (1-5) of `src` on `bdi`, over the window of
/// `window_s` seconds (`None`: all), for a chart `width` columns wide.
pub(crate) fn chart_of(src: &Source, n: u8, bdi: usize, window_s: Option<u64>, width: u16, log: bool) -> ChartData {
    let cols = width.saturating_sub(10);
    let mut data = match n {
        1 => charts::global_dirty(src, window_s, cols),
        2 => charts::bdi_dirty(src, bdi, window_s, cols),
        3 => charts::pos_ratio(src, bdi, cols),
        4 => charts::rates(src, bdi, window_s, cols, log),
        _ => charts::pauses(src, bdi, window_s, cols, log),
    };
    // Sizes past 9999 MiB in GiB or TiB: axis, lines and title alike.
    data.in_larger_unit();
    data
}

/// Draws chart `n` (1-5) of `side` in `area`, from `data` if given.
fn draw_chart(ctx: &Ctx, side: &Side, n: u8, data: Option<ChartData>, frame: &mut Frame, area: Rect) {
    let data = data.unwrap_or_else(|| chart_data(ctx, side, n, area.width));
    let bdi = ctx.app.bdi().min(side.world.bdis().len() - 1);
    let title = Title {
        name: TITLES[n as usize - 1].to_string(),
        short: SHORT_TITLES[n as usize - 1].to_string(),
        bdi: (n > 1).then(|| (bdi_label(&side.world, bdi), side.world.bdis()[bdi].name.clone())),
        one_of_many: side.world.bdis().len() > 1,
    };
    plot::draw(frame, area, &data, &title, &ctx.look());
}

// ---- parameters ---------------------------------------------------------------------

/// Parameters: name and value with its unit, in reading order.
type Params = Vec<(String, String)>;

/// One parameter: name and value with its unit.
fn kv(name: &str, value: String) -> (String, String) {
    (name.to_string(), value)
}

/// `n` tasks in words: `1 task`, `9 tasks`.
fn tasks(n: u32) -> String {
    if n == 1 { "1 task".into() } else { format!("{n} tasks") }
}

/// The world's parameters, in reading order: memory and tunables, the
/// thresholds the kernel has, then the selected bdi's numbers. Side by
/// side, a value the sides differ in reads `left | right` (`–` on a side
/// whose kernel lacks it), as [`PARAMS_BOTH_TITLE`] says.
fn params(ctx: &Ctx) -> (Params, Params) {
    let sides: Vec<(Params, Params)> = (0..ctx.app.sides().len()).map(|i| side_params(ctx, i)).collect();
    match sides.as_slice() {
        [(ga, la), (gb, lb)] => (both_sides(ga, gb), both_sides(la, lb)),
        _ => sides.into_iter().next().expect("a side"),
    }
}

/// The title of the parameter panel and strip side by side.
pub const PARAMS_BOTH_TITLE: &str = "parameters: left | right";

/// The parameter panel's and strip's title, padded.
fn params_title(ctx: &Ctx) -> String {
    format!(" {} ", if ctx.app.sides().len() > 1 { PARAMS_BOTH_TITLE } else { PARAMS_TITLE })
}

/// `a` and `b` as one list: a name of both sides once, with `left |
/// right` where their values differ; a name of one side only where it
/// comes in that side's order, `–` for the other.
fn both_sides(a: &Params, b: &Params) -> Params {
    let mut names: Vec<&str> = a.iter().map(|(k, _)| k.as_str()).collect();
    for (i, (k, _)) in b.iter().enumerate() {
        if !names.contains(&k.as_str()) {
            let after = b[..i].iter().rev().find_map(|(p, _)| names.iter().position(|n| n == p));
            names.insert(after.map_or(0, |at| at + 1), k);
        }
    }
    let value = |p: &Params, k: &str| p.iter().find(|(n, _)| n == k).map_or(NOT_KNOWN.to_string(), |(_, v)| v.clone());
    names
        .into_iter()
        .map(|k| {
            let (va, vb) = (value(a, k), value(b, k));
            // A unit both share is written once, after both.
            let both = match (va.rsplit_once(' '), vb.rsplit_once(' ')) {
                _ if va == vb => va,
                (Some((na, ua)), Some((nb, ub))) if ua == ub => format!("{na} | {nb} {ua}"),
                _ => format!("{va} | {vb}"),
            };
            (k.to_string(), both)
        })
        .collect()
}

/// The parameters of side `i` ([`params`]).
fn side_params(ctx: &Ctx, i: usize) -> (Params, Params) {
    let app = ctx.app;
    let side = &app.sides()[i];
    let w = &side.world;
    let vm = w.vm();
    let tun = vm.tunables;
    let mb = |p: u64| size(mib(p));
    let bytes = |b: u64| size(b as f64 / (1u64 << 20) as f64);
    let s = w.samples().back();
    // The thresholds in one unit, the largest's (5.76 GiB beside 11.5 GiB,
    // as chart 1 reads them, not 5898 MiB), and so the bdi's; side by
    // side, the largest of both sides' (`5.76 GiB | 1.44 GiB`).
    let lasts = || app.sides().iter().filter_map(|side| side.world.samples().back());
    let unit =
        SizeUnit::of_largest(lasts().flat_map(|s| [s.bg_thresh, s.freerun, s.setpoint, s.limit, s.thresh].map(mib)));
    let at = |f: &dyn Fn(&crate::sim::metrics::Sample) -> u64| s.map_or(NOT_KNOWN.into(), |s| unit.size(mib(f(s))));
    let kernel = charts::Kernel { patches: w.patches(), legacy: w.legacy() };
    let mut global = vec![kv("bg_thresh", at(&|s| s.bg_thresh)), kv("freerun", at(&|s| s.freerun))];
    if kernel.position() != Has::No {
        global.push(kv("setpoint", at(&|s| s.setpoint)));
    }
    if kernel.smoothed_limit() {
        global.push(kv("limit", at(&|s| s.limit)));
    }
    global.push(kv("thresh", at(&|s| s.thresh)));
    global.push(kv("dirtyable", mb(vm.dirtyable())));
    global.push(if tun.dirty_bytes > 0 {
        kv("dirty_bytes", bytes(tun.dirty_bytes))
    } else {
        kv("dirty_ratio", format!("{}%", tun.dirty_ratio))
    });
    global.push(if tun.dirty_background_bytes > 0 {
        kv("dirty_background_bytes", bytes(tun.dirty_background_bytes))
    } else {
        kv("dirty_background_ratio", format!("{}%", tun.dirty_background_ratio))
    });
    global.push(kv("memory", size((vm.memory_pages >> 8) as f64)));
    global.push(kv("ratelimit_pages", vm.ratelimit_pages.to_string()));
    global.push(kv("CPUs", app.session().scenario.cpus.to_string()));
    global.push(kv("HZ", w.hz().to_string()));
    global.push(kv("period shift", vm.completions.shift.to_string()));
    global.push(kv("random seed", app.session().scenario.seed.to_string()));
    let bdi = app.bdi().min(w.bdis().len() - 1);
    let b = &w.bdis()[bdi];
    let bs = s.map(|s| &s.bdis[bdi]);
    // The rates as of the last sample, as the charts' titles give them
    // (paused between two samples, the world's own had moved on).
    let rate = |f: fn(&crate::sim::metrics::BdiSample) -> u64| {
        bs.map_or(NOT_KNOWN.into(), |b| format!("{} MiB/s", show(mib(f(b)))))
    };
    let bw = if kernel.bandwidth() { rate(|b| b.avg_write_bw) } else { NOT_KNOWN.into() };
    let mut local = vec![kv("avg_write_bw", bw)];
    if kernel.ratelimit() != Has::No {
        local.push(kv("dirty_ratelimit", rate(|b| b.dirty_ratelimit)));
    }
    let unit =
        SizeUnit::of_largest(lasts().filter_map(|s| s.bdis.get(bdi)).flat_map(|b| [b.thresh, b.setpoint].map(mib)));
    local.push(kv("bdi_thresh", bs.map_or(NOT_KNOWN.into(), |b| unit.size(mib(b.thresh)))));
    if kernel.position() != Has::No {
        local.push(kv("bdi_setpoint", bs.map_or(NOT_KNOWN.into(), |b| unit.size(mib(b.setpoint)))));
    }
    // A dd removed while the world is paused exits at its next event
    // (the status line says so): not counted as one still writing.
    let stopping = w.tasks().iter().filter(|t| t.bdi as usize == bdi && t.alive() && t.is_killed()).count() as u32;
    local.push(kv("tasks", b.nr_tasks.saturating_sub(stopping).to_string()));
    let ms = |j: u64| j as f64 * 1000.0 / w.hz() as f64;
    if let Some(bs) = bs {
        local.push(kv("max_pause", format!("{:.0} ms", ms(bs.max_pause))));
    }
    if let Some(Some(p)) = side.task_counts.nr_dirtied_pause.get(bdi) {
        // A kernel before patch 06 has none: `–`, as the task table says.
        // The tasks' median: rows of the task table may differ.
        let p = if kernel.nr_dirtied_pause() { format!("{p} median") } else { NOT_KNOWN.into() };
        local.push(kv("nr_dirtied_pause", p));
    }
    (global, local)
}

/// Parameters the panel shows and the strip leaves out.
const PANEL_ONLY: &[&str] = &["CPUs", "HZ", "period shift", "random seed"];

/// The parameters a strip shows: [`params`] but for those of the panel
/// only (a lesson's seed is on its status line, at every size) and, in a
/// lesson, the thresholds its step's readings name (`setpoint, last 10
/// s`), which it would say twice.
fn strip_params(ctx: &Ctx) -> (Params, Params) {
    let (mut global, local) = params(ctx);
    let read = ctx.app.lesson().map(super::lesson::read_quantities).unwrap_or_default();
    global.retain(|(k, _)| !PANEL_ONLY.contains(&k.as_str()) && !read.contains(&k.as_str()));
    (global, local)
}

/// The parameter strip: the parameters as wrapped lines of `name value`.
fn params_strip_lines(ctx: &Ctx, width: u16) -> Vec<Line<'static>> {
    let t = &ctx.theme;
    let (global, local) = strip_params(ctx);
    let bdi = bdi_label(ctx.app.world(), ctx.app.bdi());
    let mut lines: Vec<Line> = Vec::new();
    // A lesson step's readings first: what its questions measure.
    if let Some(mode) = ctx.app.lesson() {
        let readings: Vec<Vec<Span<'static>>> = super::lesson::readings(mode, ctx.app.sides().len() > 1)
            .into_iter()
            .map(|r| vec![Span::styled(r, t.text)])
            .collect();
        if !readings.is_empty() {
            let [head, _] = super::lesson::readings_head(mode);
            lines.extend(dotted_lines(t, Span::styled(head, t.accent), readings, width));
        }
    }
    lines.extend(reading_lines(t, String::new(), global, width));
    lines.extend(reading_lines(t, format!("{bdi}: "), local, width));
    lines
}

/// `key value · key value · …` after `head`, wrapped at `width`: the
/// readings of a parameter strip.
pub(crate) fn reading_lines(t: &Theme, head: String, items: Vec<(String, String)>, width: u16) -> Vec<Line<'static>> {
    let items = items.into_iter().map(|(k, v)| vec![Span::styled(format!("{k} "), t.dim), Span::styled(v, t.text)]);
    dotted_lines(t, Span::styled(head, t.accent), items.collect(), width)
}

/// `items` after `head`, separated by ` · ` and wrapped at `width` between
/// items: a line ends on an item, never on a separator.
fn dotted_lines(t: &Theme, head: Span<'static>, items: Vec<Vec<Span<'static>>>, width: u16) -> Vec<Line<'static>> {
    let width = usize::from(width);
    let mut lines = Vec::new();
    let mut used = head.width();
    let mut line: Vec<Span> = if used > 0 { vec![head] } else { Vec::new() };
    let mut items_on_line = 0;
    for item in items {
        let w: usize = item.iter().map(Span::width).sum();
        if items_on_line > 0 && used + 3 + w > width {
            lines.push(Line::from(std::mem::take(&mut line)));
            used = 0;
            items_on_line = 0;
        }
        if items_on_line > 0 {
            line.push(Span::styled(" · ", t.dim));
            used += 3;
        }
        line.extend(item);
        used += w;
        items_on_line += 1;
    }
    lines.push(Line::from(line));
    lines
}

/// The parameter strip in one row: as many of the parameters as fit, in
/// reading order (the thresholds first), a run of sizes in one unit
/// naming it once, after its last: `bg_thresh 369 · freerun 553 ·
/// setpoint 645 · limit 737 · thresh 737 MiB` at 80 columns, where the
/// strip of three rows read `… limit 737 MiB` and `thresh 737 MiB` on
/// the next.
pub(crate) fn params_row(t: &Theme, params: &[(String, String)], width: u16) -> Line<'static> {
    for n in (1..=params.len()).rev() {
        let mut lines = reading_lines(t, String::new(), unit_once(&params[..n]), width);
        if lines.len() == 1 || n == 1 {
            return lines.swap_remove(0);
        }
    }
    Line::default()
}

/// `params` with a run of sizes in one unit naming it once, after its
/// last: `bg_thresh 369`, `freerun 553 MiB`.
fn unit_once(params: &[(String, String)]) -> Params {
    let unit = |v: &str| v.rsplit_once(' ').map(|(_, u)| u.to_string());
    params
        .iter()
        .enumerate()
        .map(|(i, (k, v))| {
            let run_goes_on = params.get(i + 1).is_some_and(|(_, w)| unit(v).is_some() && unit(v) == unit(w));
            let v = match v.rsplit_once(' ') {
                Some((number, _)) if run_goes_on => number.to_string(),
                _ => v.clone(),
            };
            (k.clone(), v)
        })
        .collect()
}

/// The parameter strip without its title, over the charts of a short
/// body ([`strip_most`]): one row of parameters ([`params_row`]); in a
/// lesson, the step's readings first, on as many rows as they need
/// (`measured now: setpoint, last 10 s: 645 MiB`, or after `now:` where
/// that is too wide for one of them), then as many of the parameters as
/// fit after them on their last row. A reading wider than a row even
/// so ends in an ellipsis.
fn bare_strip_lines(ctx: &Ctx, width: u16) -> Vec<Line<'static>> {
    let t = &ctx.theme;
    let (global, _) = strip_params(ctx);
    let readings = ctx.app.lesson().map(|m| super::lesson::readings(m, ctx.app.sides().len() > 1)).unwrap_or_default();
    if readings.is_empty() {
        return vec![params_row(t, &global, width)];
    }
    let fits = |lines: &[Line]| lines.iter().all(|l| l.width() <= usize::from(width));
    let judged = ctx.app.lesson().is_some_and(|m| m.judged());
    let lines_with = |head: &str, n: usize| {
        let mut items: Vec<Vec<Span<'static>>> =
            readings.iter().map(|r| vec![Span::styled(r.clone(), t.text)]).collect();
        items.extend(unit_once(&global[..n]).into_iter().enumerate().map(|(i, (k, v))| {
            // After a step's readings of its end, the parameters are
            // today's: said so (a key may have moved them since).
            let now = if i == 0 && judged { "now: " } else { "" };
            vec![Span::styled(format!("{now}{k} "), t.dim), Span::styled(v, t.text)]
        }));
        dotted_lines(t, Span::styled(head.to_string(), t.accent), items, width)
    };
    let [wide, narrow] = ctx.app.lesson().map_or(["", ""], super::lesson::readings_head);
    let head = if fits(&lines_with(wide, 0)) { wide } else { narrow };
    let bare = lines_with(head, 0);
    let rows = bare.len();
    let with_params = (1..=global.len()).rev().map(|n| lines_with(head, n)).find(|l| l.len() == rows && fits(l));
    let lines = with_params.unwrap_or(bare);
    lines
        .iter()
        .map(|l| if l.width() > usize::from(width) { cut_line(l, usize::from(width)) } else { l.clone() })
        .collect()
}

/// The parameter strip: a title row over its lines, or without its title
/// in a short body (`most` 0, see [`strip_split`]) or a strip of one row
/// ([`bare_strip_lines`]; the readings' last row shown ends in an
/// ellipsis where rows of them have no room).
fn draw_params_strip(ctx: &Ctx, most: u16, frame: &mut Frame, area: Rect) {
    if most == 0 || area.height == 1 {
        let mut lines = bare_strip_lines(ctx, area.width);
        let rows = usize::from(area.height);
        if lines.len() > rows && rows > 0 {
            lines.truncate(rows);
            let last = lines.pop().expect("a row");
            lines.push(cut_line(&last, usize::from(area.width)));
        }
        frame.render_widget(Paragraph::new(lines), area);
        return;
    }
    let block = Block::default()
        .borders(Borders::TOP)
        .border_style(ctx.theme.border)
        .title(Span::styled(params_title(ctx), ctx.theme.title));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    frame.render_widget(Paragraph::new(params_strip_lines(ctx, inner.width)), inner);
}

fn draw_params_panel(ctx: &Ctx, frame: &mut Frame, area: Rect) {
    let t = &ctx.theme;
    let (global, local) = params(ctx);
    let key_w = global.iter().chain(&local).map(|(k, _)| k.chars().count()).max().unwrap_or(0) + 1;
    let row = |(k, v): (String, String)| {
        Line::from(vec![Span::styled(format!("{k:<key_w$}"), t.dim), Span::styled(v, t.text)])
    };
    let mut lines: Vec<Line> = global.into_iter().map(row).collect();
    lines.push(Line::raw(""));
    let w = ctx.app.world();
    // A bdi name longer than the panel is cut with an ellipsis, in a bdi's
    // line before its dd and rate.
    let inner = usize::from(area.width.saturating_sub(2));
    lines.push(Line::styled(cut_to(&bdi_label(w, ctx.app.bdi()), inner), t.accent));
    lines.extend(local.into_iter().map(row));
    let bandwidth = charts::Kernel { patches: w.patches(), legacy: w.legacy() }.bandwidth();
    // What the list's numbers are, in the row that sets it apart: an idle
    // disk's `93.6 MiB/s` was taken for traffic (it is the estimate the
    // kernel keeps until the disk writes again).
    let head = if bandwidth { "bdis: tasks, avg_write_bw" } else { "bdis: tasks" };
    lines.push(Line::styled(cut_to(head, inner), t.dim));
    // The bdis the rows left can hold, the selected one among them.
    let room = usize::from(area.height.saturating_sub(2)).saturating_sub(lines.len());
    let shown = list_window(w.bdis().len(), ctx.app.bdi(), room);
    if shown.above > 0 {
        lines.push(Line::styled(format!(" … {} more above", shown.above), t.dim));
    }
    for (i, b) in w.bdis().iter().enumerate().take(shown.rows.end).skip(shown.rows.start) {
        let mark = if i == ctx.app.bdi() { "▶" } else { " " };
        // Its avg_write_bw, where the kernel estimates one (not 2.6.38).
        let rest = match bandwidth {
            // Every task writing to it, dd or not (the rsync copy).
            true => format!(" {}, {:.1} MiB/s", tasks(b.nr_tasks), mib(b.avg_write_bandwidth)),
            false => format!(" {}", tasks(b.nr_tasks)),
        };
        let name = cut_to(&bdi_label(w, i), inner.saturating_sub(1 + rest.chars().count()).max(6));
        lines.push(Line::from(vec![
            Span::styled(format!("{mark}{name}"), if i == ctx.app.bdi() { t.accent } else { t.text }),
            Span::raw(rest),
        ]));
    }
    if shown.below > 0 {
        lines.push(Line::styled(format!(" … {} more below (b B)", shown.below), t.dim));
    }
    let block =
        Block::default().borders(Borders::ALL).border_style(t.border).title(Span::styled(params_title(ctx), t.title));
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

/// The entries of a list a few rows show, and the marks round them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ListWindow {
    /// The entries shown.
    pub rows: std::ops::Range<usize>,
    /// Entries before them a mark above counts (0: no mark).
    pub above: usize,
    /// Entries after them a mark below counts (0: no mark).
    pub below: usize,
}

/// Which of `n` entries a list of `room` rows shows so that entry
/// `selected` is among them: all when they fit, else as many as leave a
/// row for a mark of those above and one for those below, where there
/// are any (the selected one alone, when there is no room for marks).
pub(crate) fn list_window(n: usize, selected: usize, room: usize) -> ListWindow {
    let selected = selected.min(n.saturating_sub(1));
    let rows = if n <= room {
        0..n
    } else if room < 3 {
        selected..(selected + room.min(1)).min(n)
    } else if selected < room - 1 {
        // A mark under the first rows, or over the last, or both round the rest.
        0..room - 1
    } else if selected >= n - (room - 1) {
        n - (room - 1)..n
    } else {
        let start = selected + 3 - room;
        start..start + room - 2
    };
    let marked = n <= room || room >= 3;
    let (above, below) = if marked { (rows.start, n - rows.end) } else { (0, 0) };
    ListWindow { rows, above, below }
}

// ---- tasks --------------------------------------------------------------------------

fn draw_tasks(ctx: &Ctx, side: &Side, frame: &mut Frame, area: Rect) {
    let room = draw_tasks_of(&ctx.theme, side, ctx.app.task_scroll(), ctx.app.tasks_focused(), frame, area);
    ctx.task_room.set(Some(room.with(ctx.task_room.get())));
}

/// The task table of `side`, scrolled by `scroll` rows (no further than
/// its last full page), outlined when `focused`. Returns how far it can
/// scroll (until its last page fills it) and the task rows it shows, a
/// page.
pub(crate) fn draw_tasks_of(
    t: &Theme,
    side: &Side,
    scroll: usize,
    focused: bool,
    frame: &mut Frame,
    area: Rect,
) -> crate::app::TaskRoom {
    let w = &side.world;
    let ms = |j: u64| j as f64 * 1000.0 / w.hz() as f64;
    // Only the rows shown are read: the count was taken with the rates.
    let live = side.task_counts.live;
    let room = area.height.saturating_sub(3) as usize;
    let last_page = live.saturating_sub(room.max(1));
    let first = scroll.min(last_page);
    // The kind goes where the table is narrow, and where every task it
    // lists is of one kind and it would leave nr_dirtied_pause cut
    // (`nr_di…` at 120x40): a column of `dd` on every row says nothing.
    // Below the room its columns want, bdi and MiB/s lose one each.
    let listed = || w.tasks().iter().filter(|t| t.alive() && !t.is_killed() && t.stats.started_ns.is_some());
    let one_kind = listed().next().is_none_or(|a| listed().all(|b| b.kind.name() == a.kind.name()));
    let narrow = area.width < 46 || (one_kind && area.width < 58);
    let tight = u16::from(area.width < if narrow { 48 } else { 58 });
    // A kernel before patch 06 has no nr_dirtied_pause: `–`.
    let has_pause = charts::Kernel { patches: w.patches(), legacy: w.legacy() }.nr_dirtied_pause();
    let mut header = vec!["task"];
    let mut widths = vec![Constraint::Length(5)];
    if !narrow {
        header.push("kind");
        widths.push(Constraint::Length(9));
    }
    header.extend(["bdi", "MiB/s", "pause ms", "nr_dirtied_pause"]);
    widths.extend([
        Constraint::Length(6 - tight),
        Constraint::Length(7 - tight),
        Constraint::Length(8),
        Constraint::Min(6),
    ]);
    // A bdi name longer than its column is cut with an ellipsis.
    let columns = Layout::horizontal(widths.clone()).spacing(1).split(Rect::new(0, 0, area.width.saturating_sub(2), 1));
    let bdi_room = usize::from(columns[header.len() - 4].width);
    let rate_room = usize::from(columns[header.len() - 3].width);
    let mut rows: Vec<Row> = listed()
        .skip(first)
        .take(room)
        .map(|task| {
            // No rate until a second has been measured: `–`, not 0.00.
            let rate = side.task_rates.get(task.id as usize).copied();
            let mut cells = vec![Cell::from(task.id.to_string())];
            if !narrow {
                cells.push(Cell::from(task.kind.name()));
            }
            cells.extend([
                Cell::from(cut_to(&w.bdis()[task.bdi as usize].name, bdi_room)),
                Cell::from(rate.map_or(NOT_KNOWN.into(), |r| decimals_within(crate::units::mib(r), 2, rate_room))),
                Cell::from(format!("{:.0}", ms(task.last_pause))),
                Cell::from(if has_pause { task.nr_dirtied_pause.to_string() } else { NOT_KNOWN.into() }),
            ]);
            Row::new(cells)
        })
        .collect();
    let below = live.saturating_sub(first + room);
    let more = (below > 0 && room > 0).then(|| {
        rows.pop();
        more_below(below + 1, focused)
    });
    let shown = rows.len();
    let counts = [format!("{live} live"), live.to_string()];
    let title = tasks_title(&counts, (first > 0).then_some((first, shown)), area.width.saturating_sub(2).into());
    let header = fit_headers(&header, &widths, area.width.saturating_sub(2));
    let table = Table::new(rows, widths).header(Row::new(header).style(t.dim)).block(
        Block::default()
            .borders(Borders::ALL)
            .border_style(if focused { t.accent } else { t.border })
            .title(Span::styled(title, t.title)),
    );
    frame.render_widget(table, area);
    if let Some(more) = more {
        let inner = Rect { x: area.x + 1, y: area.y + area.height - 2, width: area.width.saturating_sub(2), height: 1 };
        frame.render_widget(Paragraph::new(Line::styled(more, t.dim)), inner);
    }
    crate::app::TaskRoom { last: last_page, page: shown.max(1) }
}

/// `v` with at most `most` decimals, fewer where it would not fit in
/// `room` columns (`1560.2` in six, `12346` in five): a column cuts a
/// number without an ellipsis.
fn decimals_within(v: f64, most: usize, room: usize) -> String {
    (0..=most)
        .rev()
        .map(|d| format!("{v:.d$}"))
        .find(|s| s.chars().count() <= room)
        .unwrap_or_else(|| format!("{v:.0}"))
}

/// The last row of a task table with `n` more tasks below it, saying
/// how to scroll to them: PgDn once the table has the keys (`focused`),
/// T first when it has not.
pub(crate) fn more_below(n: usize, focused: bool) -> String {
    match focused {
        true => format!("… {n} more (↓, PgDn)"),
        false => format!("… {n} more (↓, or T then PgDn)"),
    }
}

/// The title of a task table in at most `room` columns, a space either
/// side: `tasks (COUNT, rows 11–20)` (`row 11` alone) with the first of `counts` (its
/// wordings, longest first) that fits, the rows shown when the table is
/// scrolled (`rows`: the first, 0-based, and how many). Where none fits
/// the count goes, then the word `tasks`, then `rows`: the row range is
/// kept whole or not at all, never cut mid-number.
pub(crate) fn tasks_title(counts: &[String], rows: Option<(usize, usize)>, room: usize) -> String {
    // Counted from 1, not the id of the first task (which counts from 0
    // and has gaps).
    let range = rows.map(|(first, shown)| match shown {
        0 | 1 => format!("{}", first + 1),
        _ => format!("{}–{}", first + 1, first + shown),
    });
    let word = if rows.is_some_and(|(_, shown)| shown > 1) { "rows" } else { "row" };
    let mut forms: Vec<String> = counts
        .iter()
        .map(|c| match &range {
            Some(r) => format!("{TASKS_TITLE} ({c}, {word} {r})"),
            None => format!("{TASKS_TITLE} ({c})"),
        })
        .collect();
    match &range {
        Some(r) => forms.extend([format!("{TASKS_TITLE} ({word} {r})"), format!("{word} {r}"), r.clone()]),
        None => forms.push(TASKS_TITLE.to_string()),
    }
    forms.into_iter().map(|f| format!(" {f} ")).find(|f| f.chars().count() <= room).unwrap_or_default()
}

/// `text` in at most `room` columns: whole if it fits, else cut short
/// with an ellipsis saying so, between words where that keeps at least
/// half the room (a word cut short reads as another word).
pub(crate) fn cut_to(text: &str, room: usize) -> String {
    cut_with(text, room, |chars, keep| {
        if chars[keep].is_whitespace() {
            keep
        } else {
            chars[..keep].iter().rposition(|c| c.is_whitespace()).filter(|&i| i >= keep / 2).unwrap_or(keep)
        }
    })
}

/// `text` in at most `room` columns: whole if it fits, else its first
/// `end(chars, room - 1)` characters and an ellipsis (a trailing comma or
/// dot dropped).
fn cut_with(text: &str, room: usize, end: impl Fn(&[char], usize) -> usize) -> String {
    if text.chars().count() <= room {
        return text.to_string();
    }
    if room == 0 {
        return String::new();
    }
    let chars: Vec<char> = text.chars().collect();
    let cut: String = chars[..end(&chars, room - 1)].iter().collect();
    format!("{}…", cut.trim_end().trim_end_matches([',', '·']).trim_end())
}

/// A compare head `text` in at most `room` columns: whole if it fits,
/// else cut at the last word's end that leaves room for an ellipsis,
/// a file name's parts being words (`linux-6.18-4dd-dirty_bytes-…`, not
/// `linux-6.18-4dd-dirty_bytes-40`).
pub(crate) fn cut_head(text: &str, room: usize) -> String {
    cut_with(text, room, |chars, keep| {
        (1..=keep)
            .rev()
            .find(|&i| chars[i].is_whitespace() || "-_./,".contains(chars[i - 1]))
            .filter(|&i| !chars[..i].iter().all(|c| c.is_whitespace()))
            .unwrap_or(keep)
    })
}

/// `line` marked as cut short: ending in an ellipsis within `width`
/// columns, its last words giving way to it (as [`cut_to`] cuts them),
/// each part keeping its style.
pub(crate) fn cut_line(line: &Line<'static>, width: usize) -> Line<'static> {
    let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
    let whole = text.trim_end();
    let keep = if whole.chars().count() < width {
        whole.chars().count()
    } else {
        // Longer than the room, so that it is cut.
        cut_to(&format!("{whole}  "), width.max(1)).chars().count() - 1
    };
    let mut spans = Vec::new();
    let mut left = keep;
    let mut last = line.style;
    for s in &line.spans {
        if left == 0 {
            break;
        }
        let part: String = s.content.chars().take(left).collect();
        left -= part.chars().count();
        last = s.style;
        spans.push(Span::styled(part, s.style));
    }
    spans.push(Span::styled("…", last));
    Line::from(spans).style(line.style)
}

/// A table's column headings for columns `widths` laid out in `width`
/// as the table lays them out (one column apart): a heading longer than
/// its column is cut and ends in an ellipsis.
pub(crate) fn fit_headers(headers: &[&str], widths: &[Constraint], width: u16) -> Vec<String> {
    let columns = Layout::horizontal(widths.to_vec()).spacing(1).split(Rect::new(0, 0, width, 1));
    headers.iter().zip(columns.iter()).map(|(h, c)| cut_to(h, usize::from(c.width))).collect()
}

// ---- help ---------------------------------------------------------------------------

/// What the help covers on a screen of `area`, blank where the help
/// itself is not drawn: the rows between the status line and the key bar
/// on a screen 48 rows high or more, the whole screen on a lower one
/// (every row is the help's). Nothing of the charts shows beside it.
pub fn help_backdrop(area: Rect) -> Rect {
    if area.height >= 48 { Rect { y: area.y + 1, height: area.height - 2, ..area } } else { area }
}

/// Where the help is drawn over a screen of `area`: its
/// [`help_backdrop`]'s rows, at most 158 columns of them, centred.
pub fn help_area(area: Rect) -> Rect {
    let back = help_backdrop(area);
    let width = back.width.min(158);
    Rect { x: back.x + (back.width - width) / 2, width, ..back }
}

/// `text` in `style` after `head` (in `head_style`), wrapped to `width`
/// with its later lines hanging under its first word. Where a wide head
/// leaves too little room, the text goes under it, indented `indent`.
pub(crate) fn hanging(
    head: &str,
    head_style: Style,
    text: &str,
    style: Style,
    width: u16,
    indent: usize,
) -> Vec<Line<'static>> {
    hanging_spans(head, head_style, &[Span::styled(text.to_string(), style)], width, indent)
}

/// [`hanging`] for text in several styles: `spans` run on as one text
/// (words break only at blanks, as [`wrap_words`] breaks them) and each
/// keeps its style where it lands.
pub(crate) fn hanging_spans(
    head: &str,
    head_style: Style,
    spans: &[Span],
    width: u16,
    indent: usize,
) -> Vec<Line<'static>> {
    let width = usize::from(width);
    let head_w = head.chars().count();
    let beside = head_w <= 6 || width >= head_w + 24;
    let (mut lines, hang) = if beside {
        (Vec::new(), head_w)
    } else {
        (vec![Line::styled(head.trim_end().to_string(), head_style)], indent)
    };
    let text: String = spans.iter().map(|s| s.content.as_ref()).collect();
    // The style of each character the wrapped lines keep, in order: the
    // blanks between words are the only characters they add.
    let mut styles =
        spans.iter().flat_map(|s| s.content.chars().filter(|c| !breaks_at(*c)).map(move |_| s.style)).peekable();
    for (i, part) in wrap_words(&text, width.saturating_sub(hang).max(8)).into_iter().enumerate() {
        let lead =
            if beside && i == 0 { Span::styled(head.to_string(), head_style) } else { Span::raw(" ".repeat(hang)) };
        let mut line = vec![lead];
        let mut run: Option<(String, Style)> = None;
        for c in part.chars() {
            let style = if c == ' ' {
                run.as_ref().map(|(_, s)| *s).or_else(|| styles.peek().copied()).unwrap_or_default()
            } else {
                styles.next().unwrap_or_default()
            };
            match &mut run {
                Some((text, s)) if *s == style => text.push(c),
                _ => line.extend(run.replace((c.to_string(), style)).map(|(t, s)| Span::styled(t, s))),
            }
        }
        line.extend(run.map(|(t, s)| Span::styled(t, s)));
        lines.push(Line::from(line));
    }
    lines
}

/// The help's lines for columns `key_w` and `legend_w` wide: every key,
/// then every legend entry of every chart with its colour and meaning;
/// a line too long for its column goes on under its text.
fn help_lines(
    t: &Theme,
    sections: &[super::keys::Section],
    key_w: u16,
    legend_w: u16,
) -> (Vec<Line<'static>>, Vec<Line<'static>>) {
    let heading =
        |text: &str, style: Style, lead: usize, width: u16| hanging(&" ".repeat(lead), style, text, style, width, 0);
    let mut keys: Vec<Line> = Vec::new();
    for section in sections {
        keys.extend(heading(section.title, t.title, 1, key_w));
        for b in section.bindings {
            keys.extend(hanging(&format!("  {:<10}", b.label), t.accent, b.help, Style::default(), key_w, 4));
        }
    }
    let mut legend: Vec<Line> = heading("chart legends", t.title, 1, legend_w);
    // The glyphs each chart's legend shows: in mono, its lines' patterns.
    let mono = t.kind == crate::app::ThemeKind::Mono;
    let glyph_w = GLOSSARY.iter().map(|e| e.glyph(mono).chars().count()).max().unwrap_or(1);
    for (n, title) in TITLES.iter().enumerate() {
        legend.extend(heading(title, t.accent, 2, legend_w));
        for e in GLOSSARY.iter().filter(|e| e.chart as usize == n + 1) {
            let name = if e.short == e.name { e.name.to_string() } else { format!("{} ({})", e.name, e.short) };
            let text = format!("{name}: {}", e.meaning);
            let head = format!("   {:<glyph_w$} ", e.glyph(mono));
            legend.extend(hanging(&head, t.series[e.color % t.series.len()], &text, t.text, legend_w, 5));
        }
        for (_, glyph, color, what) in MARKS.iter().filter(|m| usize::from(m.0) == n + 1) {
            let head = format!("   {glyph:<glyph_w$} ");
            legend.extend(hanging(&head, t.series[*color % t.series.len()], what, t.text, legend_w, 5));
        }
        for (_, _, what) in charts::GRIDLINES.iter().filter(|g| usize::from(g.0) == n + 1) {
            let head = format!("   {:<glyph_w$} ", "…");
            legend.extend(hanging(&head, t.dim, what, t.text, legend_w, 5));
        }
    }
    // Mono greys nothing: its charts' notices say what is not yet used.
    if !mono {
        legend.extend(hanging(
            "   ┈ ",
            t.dim,
            "greyed: computed by this patch level, not yet used",
            t.dim,
            legend_w,
            5,
        ));
    }
    (keys, legend)
}

fn draw_help(ctx: &Ctx, frame: &mut Frame, area: Rect) {
    draw_help_of(&ctx.theme, super::keys::HELP, ctx.app.help_scroll(), ctx.app.note(), frame, area);
}

/// The help's frame, `width` columns wide: its titles in words that fit
/// whole, and at the bottom right `mark`, where the help goes on (see
/// [`super::lesson::scroll_mark`]), the keys' title giving way to it;
/// `said`, a key's note on doing nothing in the help, in the keys' place.
fn help_block(t: &Theme, width: u16, mark: &str, said: &str) -> Block<'static> {
    let room = |taken: usize| usize::from(width.saturating_sub(2)).saturating_sub(taken);
    let fit = |texts: &[&'static str], taken: usize| {
        texts.iter().copied().find(|s| s.chars().count() <= room(taken)).unwrap_or("")
    };
    let mark = if mark.is_empty() { String::new() } else { format!(" {mark} ") };
    let mark = if mark.chars().count() <= room(0) { mark } else { String::new() };
    let keys = [" Esc or ? closes · ↑ ↓ PgUp PgDn scroll ", " Esc closes · ↑ ↓ PgDn ", " Esc closes ", " Esc "];
    let said = format!(" {said} ");
    let bottom = if said.len() > 2 && said.chars().count() <= room(mark.chars().count() + 1) {
        Line::styled(said, t.warn)
    } else {
        Line::styled(fit(&keys, mark.chars().count() + 1), t.dim)
    };
    Block::default()
        .borders(Borders::ALL)
        .border_style(t.accent)
        .title(Span::styled(fit(&[" help: keys and legends ", " help "], 0), t.title))
        .title_bottom(bottom)
        .title_bottom(Line::styled(mark, t.accent).right_aligned())
        .style(Style::default())
}

/// The help's columns inside its frame at `inner`: the keys of
/// `sections` and every chart's legend side by side where they fit, else
/// one after the other; each with the rows it takes wrapped. A line
/// keeps a blank column before the right border (the legend's lines
/// start with blanks, so the keys' lines may run up to it).
fn help_columns(t: &Theme, sections: &[super::keys::Section], inner: Rect) -> Vec<(Paragraph<'static>, Rect)> {
    let before_border = |w: u16| w.saturating_sub(1);
    if inner.width >= 150 {
        let [left, right] = Layout::horizontal([Constraint::Length(74), Constraint::Min(0)]).areas(inner);
        let (keys, legend) = help_lines(t, sections, left.width, before_border(right.width));
        vec![(Paragraph::new(keys), left), (Paragraph::new(legend), right)]
    } else {
        let w = before_border(inner.width);
        let (mut all, legend) = help_lines(t, sections, w, w);
        all.push(Line::raw(""));
        all.extend(legend);
        vec![(Paragraph::new(all), inner)]
    }
}

/// The most rows the help of `sections` can scroll by on a screen of
/// `area` in palette `kind` (mono's legend glyphs are wider, and it has
/// no greyed lines to explain): until its last line is at the bottom.
pub(crate) fn help_room(sections: &[super::keys::Section], area: Rect, kind: crate::app::ThemeKind) -> u16 {
    let t = Theme::new(kind);
    let r = help_area(area);
    let inner = help_block(&t, r.width, "", "").inner(r);
    help_columns(&t, sections, inner)
        .iter()
        .map(|(p, r)| u16::try_from(p.line_count(r.width.max(1))).unwrap_or(u16::MAX).saturating_sub(r.height))
        .max()
        .unwrap_or(0)
}

/// Rows a page of the help scrolls by on a screen of `area`: the rows it
/// shows, less one kept from the page before.
pub fn help_page(area: Rect) -> u16 {
    let r = help_area(area);
    r.height.saturating_sub(3).max(1)
}

/// The help over `area`: the keys of `sections` and every chart's legend,
/// scrolled by `scroll` rows (no further than its end).
/// `note` is the status line's: one a key pressed in the help left goes
/// on its frame.
pub(crate) fn draw_help_of(
    t: &Theme,
    sections: &[super::keys::Section],
    scroll: u16,
    note: &str,
    frame: &mut Frame,
    area: Rect,
) {
    let r = help_area(area);
    let room = help_room(sections, area, t.kind);
    let scroll = scroll.min(room);
    let said = if note.ends_with(super::keys::IN_HELP) { note } else { "" };
    let block = help_block(t, r.width, super::lesson::scroll_mark(scroll, room), said);
    let inner = block.inner(r);
    frame.render_widget(Clear, help_backdrop(area));
    frame.render_widget(block, r);
    for (para, at) in help_columns(t, sections, inner) {
        frame.render_widget(para.scroll((scroll, 0)), at);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_window_holds_the_selected_entry_and_room_for_its_marks() {
        let rows = |n, sel, room| list_window(n, sel, room).rows;
        assert_eq!(list_window(5, 4, 5), ListWindow { rows: 0..5, above: 0, below: 0 });
        // 10 entries in 5 rows: 4 and a mark below, 4 after a mark above,
        // or 3 between the marks.
        assert_eq!(list_window(10, 0, 5), ListWindow { rows: 0..4, above: 0, below: 6 });
        assert_eq!(rows(10, 3, 5), 0..4);
        assert_eq!(list_window(10, 4, 5), ListWindow { rows: 2..5, above: 2, below: 5 });
        assert_eq!(rows(10, 5, 5), 3..6);
        assert_eq!(list_window(10, 6, 5), ListWindow { rows: 6..10, above: 6, below: 0 });
        assert_eq!(rows(10, 9, 5), 6..10);
        // No room for marks: the selected entry alone.
        assert_eq!(list_window(10, 7, 2), ListWindow { rows: 7..8, above: 0, below: 0 });
        assert_eq!(rows(10, 7, 0), 7..7);
        for n in 1..12 {
            for room in 0..14 {
                for sel in 0..n {
                    let w = list_window(n, sel, room);
                    let used = w.rows.len() + usize::from(w.above > 0) + usize::from(w.below > 0);
                    assert!(used <= room, "{n} {sel} {room}: {w:?}");
                    assert!(room == 0 || w.rows.contains(&sel), "{n} {sel} {room}: {w:?}");
                    assert!(w.above == 0 || w.above == w.rows.start, "{n} {sel} {room}: {w:?}");
                }
            }
        }
    }

    /// Once the line fits, a segment left out goes back where it still
    /// fits: at 80 columns a lesson's `seed 3`, left out before the
    /// kernel's longer name of the same rank, had room once that was out.
    #[test]
    fn a_short_segment_left_out_goes_back_where_it_fits() {
        let seg = |rank: u8, text: &str| (rank, text.to_string());
        let segments = [
            seg(9, "t 3.0 s"),
            seg(8, "1×"),
            seg(7, "A patch 05 vs B patch 06"),
            seg(8, "running"),
            seg(7, "seed 3"),
            seg(10, "ran the rest of step 2 first (18.0 s)"),
        ];
        assert_eq!(
            fit_segments(&segments, 80),
            " t 3.0 s │ 1× │ running │ seed 3 │ ran the rest of step 2 first (18.0 s) "
        );
        // Where it fits whole, the line is whole; where neither fits, both go.
        assert_eq!(fit_segments(&segments, 120).matches('│').count(), 5);
        assert_eq!(fit_segments(&segments, 66), " t 3.0 s │ 1× │ running │ ran the rest of step 2 first (18.0 s) ");
        // The more important goes back first: the bdi, where it or the
        // window fits but not both.
        let segments = [seg(9, "t 3.0 s"), seg(5, "window 1 min"), seg(6, "bdi sda"), seg(7, "patch 06 (IO-full)")];
        assert_eq!(fit_segments(&segments, 25), " t 3.0 s │ bdi sda ");
        assert_eq!(fit_segments(&segments, 34), " t 3.0 s │ patch 06 (IO-full) ");
    }

    #[test]
    fn text_cut_short_ends_between_words_with_an_ellipsis() {
        let title = "Position control: the setpoint and the control lines";
        assert_eq!(cut_to(title, 80), title);
        assert_eq!(cut_to(title, 21), "Position control:…");
        assert_eq!(cut_to(title, 22), "Position control: the…");
        assert_eq!(cut_to(title, 27), "Position control: the…");
        assert_eq!(cut_to("Writes, dirty pages and the flusher threads", 40), "Writes, dirty pages and the flusher…");
        // One long word, or a first word longer than half the room: cut in it.
        assert_eq!(cut_to("nr_dirtied_pause", 8), "nr_dirt…");
        // A rate keeps its whole part: `12346` in five columns, not a
        // cut `12345.`; decimals go first.
        assert_eq!(decimals_within(12345.67, 2, 5), "12346");
        assert_eq!(decimals_within(1560.234, 2, 6), "1560.2");
        assert_eq!(decimals_within(1560.234, 2, 7), "1560.23");
        assert_eq!(decimals_within(123456.7, 2, 6), "123457");
        assert_eq!(decimals_within(8.694, 2, 6), "8.69");
        assert_eq!(cut_to("trace linux-6.18-4dd-dirty_bytes-400M.txt", 20), "trace linux-6.18-4d…");
        assert_eq!(cut_to("anything", 0), "");
        for room in 0..60 {
            assert!(cut_to(title, room).chars().count() <= room, "{room}");
        }
    }

    #[test]
    fn both_sides_values_read_left_then_right_with_a_shared_unit_once() {
        let p = |v: &[(&str, &str)]| v.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect::<Params>();
        let a = p(&[("freerun", "553 MiB"), ("limit", "737 MiB"), ("dirty_ratio", "20%")]);
        let b = p(&[("freerun", "553 MiB"), ("setpoint", "645 MiB"), ("limit", "600 MiB"), ("dirty_ratio", "40%")]);
        assert_eq!(
            both_sides(&a, &b),
            p(&[
                ("freerun", "553 MiB"),
                ("setpoint", "– | 645 MiB"),
                ("limit", "737 | 600 MiB"),
                ("dirty_ratio", "20% | 40%")
            ])
        );
    }

    #[test]
    fn a_line_cut_short_ends_in_an_ellipsis_between_words_in_its_styles() {
        let (a, b) = (Style::default(), Style::default().add_modifier(Modifier::BOLD));
        let line = Line::from(vec![Span::styled("1. ", a), Span::styled("how long is a pause", b)]);
        let text = |l: &Line| l.spans.iter().map(|s| s.content.as_ref()).collect::<String>();
        assert_eq!(text(&cut_line(&line, 40)), "1. how long is a pause…", "room: the mark after it");
        assert_eq!(text(&cut_line(&line, 22)), "1. how long is a…", "no room: a word gives way");
        assert_eq!(text(&cut_line(&line, 21)), "1. how long is a…");
        let cut = cut_line(&line, 16);
        assert_eq!(text(&cut), "1. how long is…");
        assert_eq!(cut.spans.iter().map(|s| s.style).collect::<Vec<_>>(), vec![a, b, b]);
        for width in 1..30 {
            assert!(text(&cut_line(&line, width)).chars().count() <= width.max(1), "{width}");
        }
    }

    #[test]
    fn hanging_text_keeps_each_part_in_its_style_and_no_break_spaces_whole() {
        let (a, b) = (Style::default(), Style::default().add_modifier(Modifier::BOLD));
        let spans = [Span::styled("one two\u{a0}", a), Span::styled(" 3\u{a0}MiB four", b)];
        let lines = hanging_spans("✓ ", a, &spans, 12, 2);
        let rows: Vec<Vec<(String, Style)>> = lines
            .iter()
            .map(|l| l.spans.iter().map(|s| (s.content.replace('\u{a0}', "_"), s.style)).collect())
            .collect();
        assert_eq!(
            rows,
            vec![
                vec![("✓ ".into(), a), ("one two_".into(), a)],
                vec![("  ".into(), Style::default()), ("3_MiB four".into(), b)],
            ]
        );
    }

    #[test]
    fn a_task_tables_title_drops_its_count_before_it_would_cut_its_rows() {
        // At 80x24 hdd-1000dd's table (30 columns, 28 for the title) read
        // `tasks (1000 live, rows 22–2`: the range cut mid-number.
        let counts = ["1000 live".to_string(), "1000".to_string()];
        let at = |rows, room| tasks_title(&counts, rows, room);
        assert_eq!(at(Some((21, 10)), 60), " tasks (1000 live, rows 22–31) ");
        assert_eq!(at(Some((21, 10)), 28), " tasks (1000, rows 22–31) ");
        assert_eq!(at(Some((21, 10)), 24), " tasks (rows 22–31) ");
        assert_eq!(at(Some((21, 10)), 15), " rows 22–31 ");
        assert_eq!(at(Some((21, 10)), 8), " 22–31 ");
        assert_eq!(at(Some((21, 10)), 6), "");
        // One row: its number, not `22–22`.
        assert_eq!(at(Some((21, 1)), 28), " tasks (1000 live, row 22) ");
        assert_eq!(at(None, 28), " tasks (1000 live) ");
        assert_eq!(at(None, 14), " tasks (1000) ");
        assert_eq!(at(None, 10), " tasks ");
        for room in 0..50 {
            for rows in [Some((21, 10)), Some((998, 2)), None] {
                let title = at(rows, room);
                assert!(title.chars().count() <= room, "{room}: {title}");
                let digits = title.trim_end().trim_end_matches(')').rsplit([' ', '–']).next().unwrap_or("");
                if let Some((first, shown)) = rows.filter(|_| !title.is_empty()) {
                    assert_eq!(digits, (first + shown).to_string(), "{room}: the range whole: {title}");
                }
            }
        }
    }

    #[test]
    fn every_help_line_keeps_a_blank_before_the_right_border() {
        // At 160x48 `━ writeback+unstable (wb): pages being written, and
        // NFS pages not yet committed` ran into the border.
        use crate::app::ThemeKind;
        use ratatui::{Terminal, backend::TestBackend};
        let trace = [super::super::keys::TRACE, super::super::keys::TASKS];
        for sections in [super::super::keys::HELP, &trace[..]] {
            for kind in [ThemeKind::Dark, ThemeKind::Mono] {
                for (w, h) in [(160, 48), (200, 60), (120, 40), (80, 24), (60, 18), (40, 12), (30, 10)] {
                    let area = Rect::new(0, 0, w, h);
                    let room = help_room(sections, area, kind);
                    let r = help_area(area);
                    let mut scroll = 0;
                    loop {
                        let mut terminal = Terminal::new(TestBackend::new(w, h)).expect("a test backend");
                        terminal
                            .draw(|f| draw_help_of(&Theme::new(kind), sections, scroll, "", f, area))
                            .expect("draws");
                        let buf = terminal.backend().buffer();
                        for y in r.y + 1..r.y + r.height - 1 {
                            let before = buf[(r.x + r.width - 2, y)].symbol();
                            let row: String = (r.x..r.x + r.width).map(|x| buf[(x, y)].symbol()).collect();
                            assert_eq!(before, " ", "{w}x{h} {kind:?} scrolled {scroll}: {row}");
                        }
                        if scroll >= room {
                            break;
                        }
                        scroll = (scroll + r.height.saturating_sub(2)).min(room);
                    }
                }
            }
        }
    }
}
