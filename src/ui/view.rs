//! Drawing the dashboard from a shared borrow of the app.
//!
//! ```text
//! full (>= 140x40)                          compact (>= 80x24)
//! ┌ status ─────────────────────────────┐   ┌ status ─────────────────┐
//! │ 1 global dirty  │ 2 bdi dirty │ par │   │ 1 global    │ 2 bdi     │
//! │─────────────────┼─────────────┤ ams │   │─────────────┼───────────│
//! │ 3 pos_ratio     │ 4 rates     │     │   │ 3 pos_ratio │ 4 rates   │
//! │─────────────────┴───────┬─────┴─────│   │─────────────┴───────────│
//! │ 5 pauses                │ tasks     │   │ 5 pauses                │
//! └ keys ───────────────────┴───────────┘   └ keys ───────────────────┘
//! small (>= 60x18): one chart at a time (1-5 switch); smaller: a notice.
//! compare: A | B columns, each with charts 1, 4 and 5.
//! ```

use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Block, Borders, Cell, Chart, Clear, Dataset, GraphType, Paragraph, Row, Table, Wrap};

use super::charts::{self, ChartData, mib};
use super::theme::Theme;
use crate::app::App;
use crate::session::{Side, level_name};

/// The smallest terminal the dashboard draws in.
pub const MIN_SIZE: (u16, u16) = (60, 18);

/// Chart titles, by number.
const TITLES: [&str; 5] =
    ["1 global dirty pages", "2 bdi dirty pages", "3 pos_ratio control lines", "4 rates", "5 pauses"];

/// Draws the whole screen.
pub fn draw(app: &App, frame: &mut Frame) {
    let area = frame.area();
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        draw_too_small(app, frame, area);
        return;
    }
    let [status, body, hints] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(0), Constraint::Length(1)]).areas(area);
    draw_status(app, frame, status);
    draw_hints(app, frame, hints);
    if app.lesson().is_some() {
        // The lesson pane beside the charts, or above them when narrow.
        if body.width >= 120 {
            let pane = (body.width * 2 / 5).clamp(44, 64);
            let [charts, text] = Layout::horizontal([Constraint::Min(0), Constraint::Length(pane)]).areas(body);
            draw_body(app, frame, charts);
            super::lesson::draw_pane(app, &Theme::new(app.theme()), frame, text);
        } else {
            // Short terminals give the text more room; the charts keep a few rows.
            let pane = if body.height < 30 {
                (body.height * 2 / 3).max(8)
            } else {
                (body.height * 3 / 5).max(body.height.saturating_sub(20))
            };
            let [text, charts] = Layout::vertical([Constraint::Length(pane), Constraint::Min(0)]).areas(body);
            super::lesson::draw_pane(app, &Theme::new(app.theme()), frame, text);
            draw_body(app, frame, charts);
        }
    } else {
        draw_body(app, frame, body);
    }
    if app.picker().is_some() {
        super::lesson::draw_picker(app, &Theme::new(app.theme()), frame, area);
    }
    if app.help_open() {
        draw_help(app, frame, area);
    }
}

/// The charts, laid out for the room `area` gives.
fn draw_body(app: &App, frame: &mut Frame, area: Rect) {
    if app.sides().len() > 1 {
        draw_compare(app, frame, area);
    } else if let Some(n) = app.zoom() {
        draw_chart(app, &app.sides()[0], n, frame, area);
    } else if area.width >= 140 && area.height >= 38 {
        draw_full(app, frame, area);
    } else if area.width >= 80 && area.height >= 22 {
        draw_compact(app, frame, area);
    } else {
        draw_chart(app, &app.sides()[0], 1, frame, area);
    }
}

fn draw_too_small(app: &App, frame: &mut Frame, area: Rect) {
    let t = &Theme::new(app.theme());
    let text = vec![
        Line::styled("terminal too small", t.warn),
        Line::raw(format!("need {}×{}, have {}×{}", MIN_SIZE.0, MIN_SIZE.1, area.width, area.height)),
        Line::styled("q quits", t.dim),
    ];
    frame.render_widget(Paragraph::new(text).alignment(Alignment::Center).wrap(Wrap { trim: true }), area);
}

fn draw_status(app: &App, frame: &mut Frame, area: Rect) {
    let t = &Theme::new(app.theme());
    let w = app.world();
    let speed = if app.speed().is_finite() { format!("{}×", app.speed()) } else { "max".into() };
    let state = if app.paused() { "PAUSED" } else { "running" };
    let bdi = &w.bdis()[app.bdi()].name;
    let mut text = format!(
        " dirtyviz │ {} │ t {:.1} s │ {speed} │ {} │ {state} │ bdi {bdi} │ frame {:.1} ms │ ? help ",
        app.session().scenario.name,
        app.sim_ns() as f64 / 1e9,
        level_name(w.patches(), w.legacy()),
        app.frame_ms().0
    );
    if !app.note().is_empty() {
        text.push_str(&format!("│ {} ", app.note()));
    }
    let style = if app.paused() { t.status.add_modifier(Modifier::BOLD) } else { t.status };
    frame.render_widget(Paragraph::new(text).style(style), area);
}

fn draw_hints(app: &App, frame: &mut Frame, area: Rect) {
    let t = &Theme::new(app.theme());
    let lesson: &[(&str, &str)] =
        if app.lesson().is_some() { &[("n/N", "step"), ("h", "hint"), ("a", "answer"), ("L", "lessons")] } else { &[] };
    let keys = [
        ("space", "pause"),
        ("]/[", "speed"),
        ("+/-", "dd"),
        ("b", "bdi"),
        ("D/d", "ratio"),
        ("G/g", "bg"),
        ("M/m", "mem"),
        ("P/p", "patch"),
        ("1-5", "zoom"),
        ("c", "compare"),
        ("r", "reset"),
        ("?", "help"),
        ("q", "quit"),
    ];
    let mut spans = Vec::new();
    for &(k, what) in lesson.iter().chain(keys.iter()) {
        spans.push(Span::styled(format!(" {k}"), t.accent));
        spans.push(Span::styled(format!(" {what}"), t.dim));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

fn draw_full(app: &App, frame: &mut Frame, area: Rect) {
    let [top, bottom] = Layout::vertical([Constraint::Percentage(68), Constraint::Percentage(32)]).areas(area);
    let [charts, params] = Layout::horizontal([Constraint::Min(0), Constraint::Length(34)]).areas(top);
    let [row1, row2] = Layout::vertical([Constraint::Percentage(50); 2]).areas(charts);
    let [c1, c2] = Layout::horizontal([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(row1);
    let [c3, c4] = Layout::horizontal([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(row2);
    let [c5, tasks] = Layout::horizontal([Constraint::Percentage(62), Constraint::Percentage(38)]).areas(bottom);
    let side = &app.sides()[0];
    for (n, r) in [(1, c1), (2, c2), (3, c3), (4, c4), (5, c5)] {
        draw_chart(app, side, n, frame, r);
    }
    draw_params(app, frame, params);
    draw_tasks(app, side, frame, tasks);
}

fn draw_compact(app: &App, frame: &mut Frame, area: Rect) {
    let [row1, row2, row3] =
        Layout::vertical([Constraint::Ratio(3, 8), Constraint::Ratio(3, 8), Constraint::Ratio(2, 8)]).areas(area);
    let [c1, c2] = Layout::horizontal([Constraint::Percentage(50); 2]).areas(row1);
    let [c3, c4] = Layout::horizontal([Constraint::Percentage(50); 2]).areas(row2);
    let side = &app.sides()[0];
    for (n, r) in [(1, c1), (2, c2), (3, c3), (4, c4), (5, row3)] {
        draw_chart(app, side, n, frame, r);
    }
}

fn draw_compare(app: &App, frame: &mut Frame, area: Rect) {
    let t = &Theme::new(app.theme());
    let cols = Layout::horizontal([Constraint::Percentage(50); 2]).split(area);
    for (side, col) in app.sides().iter().zip(cols.iter()) {
        let [head, rest] = Layout::vertical([Constraint::Length(2), Constraint::Min(0)]).areas(*col);
        let s = side.world.stats();
        let p99 = s.ms(s.throttled.quantile(0.99));
        let max = s.ms(s.throttled.max());
        let written: u64 = side.world.bdis().iter().map(|b| b.written).sum();
        let secs = (app.sim_ns() as f64 / 1e9).max(0.1);
        let head_text = vec![
            Line::styled(format!(" {}", side.label), t.title),
            Line::styled(
                format!(" written {:.1} MiB/s │ throttled p99 {:.0} ms, max {:.0} ms", mib(written) / secs, p99, max),
                t.text,
            ),
        ];
        frame.render_widget(Paragraph::new(head_text), head);
        match app.zoom() {
            Some(n) => draw_chart(app, side, n, frame, rest),
            None => {
                let rows = Layout::vertical([Constraint::Ratio(1, 3); 3]).split(rest);
                for (n, r) in [1, 4, 5].into_iter().zip(rows.iter()) {
                    draw_chart(app, side, n, frame, *r);
                }
            }
        }
    }
}

/// Draws chart `n` (1-5) of `side` in `area`.
fn draw_chart(app: &App, side: &Side, n: u8, frame: &mut Frame, area: Rect) {
    let t = &Theme::new(app.theme());
    let w = &side.world;
    let width = area.width.saturating_sub(8);
    let window = app.window_s();
    let bdi = app.bdi().min(w.bdis().len() - 1);
    let name = &w.bdis()[bdi].name;
    let (data, title) = match n {
        1 => (charts::global_dirty(w, window, width), TITLES[0].to_string()),
        2 => (charts::bdi_dirty(w, bdi, window, width), format!("{} ({name})", TITLES[1])),
        3 => (charts::pos_ratio(w, bdi, width).data, format!("{} ({name})", TITLES[2])),
        4 => (charts::rates(w, bdi, window, width), format!("{} ({name})", TITLES[3])),
        _ => (charts::pauses(w, &side.pauses, bdi, window, width), format!("{} ({name})", TITLES[4])),
    };
    render_chart(t, marker(app.marker()), &data, &title, n == 3, frame, area);
}

/// Draws `data` as a chart with its legend on the frame's bottom edge.
fn render_chart(
    theme: &Theme,
    marker: Marker,
    data: &ChartData,
    title: &str,
    pages_axis: bool,
    frame: &mut Frame,
    area: Rect,
) {
    let markers = [Marker::Braille, Marker::Dot, Marker::Block, Marker::HalfBlock];
    let mono = theme.kind == super::theme::ThemeKind::Mono;
    let datasets: Vec<Dataset> = data
        .series
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let m = if s.scatter {
                Marker::Dot
            } else if mono && marker == Marker::Braille {
                markers[i % markers.len()]
            } else {
                marker
            };
            Dataset::default()
                .marker(m)
                .graph_type(if s.scatter { GraphType::Scatter } else { GraphType::Line })
                .style(theme.series[s.color % theme.series.len()])
                .data(&s.points)
        })
        .collect();
    let full: usize = data.series.iter().map(|s| s.name.len() + 1).sum();
    let short = full + 2 > area.width as usize;
    let mut legend: Vec<Span> = Vec::new();
    for s in data.series.iter().rev() {
        let name = if short { s.short } else { s.name };
        legend.push(Span::styled(format!(" {name}"), theme.series[s.color % theme.series.len()]));
    }
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(Line::from(vec![
            Span::styled(format!(" {title} "), theme.title),
            Span::styled(&data.note, theme.accent),
        ]))
        .title_bottom(Line::from(legend));
    let fmt = |v: f64| if v >= 100.0 { format!("{v:.0}") } else { format!("{v:.1}") };
    let x_label = if pages_axis { "MiB" } else { "s" };
    let chart = Chart::new(datasets)
        .block(block)
        .legend_position(None)
        .x_axis(Axis::default().bounds(data.x).style(theme.dim).labels([
            fmt(data.x[0]),
            x_label.to_string(),
            fmt(data.x[1]),
        ]))
        .y_axis(Axis::default().bounds(data.y).style(theme.dim).labels([
            fmt(data.y[0]),
            data.y_unit.to_string(),
            fmt(data.y[1]),
        ]));
    frame.render_widget(chart, area);
}

fn draw_params(app: &App, frame: &mut Frame, area: Rect) {
    let t = &Theme::new(app.theme());
    let w = app.world();
    let vm = w.vm();
    let tun = vm.tunables;
    let l = vm.limits;
    let freerun = (l.dirty + l.background) / 2;
    let limit = vm.limit();
    let kv = |k: &str, v: String| Line::from(vec![Span::styled(format!("{k:<15}"), t.dim), Span::raw(v)]);
    let ratio = if tun.dirty_bytes > 0 {
        format!("{} MiB (bytes)", tun.dirty_bytes >> 20)
    } else {
        format!("{}%", tun.dirty_ratio)
    };
    let bg = if tun.dirty_background_bytes > 0 {
        format!("{} MiB (bytes)", tun.dirty_background_bytes >> 20)
    } else {
        format!("{}%", tun.dirty_background_ratio)
    };
    let mut lines = vec![
        kv("memory", format!("{} MiB", vm.memory_pages >> 8)),
        kv("dirtyable", format!("{:.0} MiB", mib(vm.dirtyable()))),
        kv("dirty_ratio", ratio),
        kv("background", bg),
        kv("CPUs, HZ", format!("{}, {}", app.session().scenario.cpus, w.hz())),
        kv("seed", app.session().scenario.seed.to_string()),
        Line::raw(""),
        kv("bg_thresh", format!("{:.0} MiB", mib(l.background))),
        kv("freerun", format!("{:.0} MiB", mib(freerun))),
        kv("setpoint", format!("{:.0} MiB", mib((freerun + limit) / 2))),
        kv("limit", format!("{:.0} MiB", mib(limit))),
        kv("thresh", format!("{:.0} MiB", mib(l.dirty))),
        kv("period shift", vm.completions.shift.to_string()),
        kv("ratelimit_pages", vm.ratelimit_pages.to_string()),
        Line::raw(""),
    ];
    for (i, b) in w.bdis().iter().enumerate() {
        let mark = if i == app.bdi() { "▶" } else { " " };
        lines.push(Line::from(vec![
            Span::styled(format!("{mark}{:<6}", b.name), if i == app.bdi() { t.accent } else { t.text }),
            Span::raw(format!(" {:>4} tasks {:>6.1} MiB/s", b.nr_tasks, mib(b.avg_write_bandwidth))),
        ]));
    }
    let block = Block::default().borders(Borders::ALL).border_style(t.border).title(Span::styled(" world ", t.title));
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

fn draw_tasks(app: &App, side: &Side, frame: &mut Frame, area: Rect) {
    let t = &Theme::new(app.theme());
    let w = &side.world;
    let ms = |j: u64| j as f64 * 1000.0 / w.hz() as f64;
    let live: Vec<_> = w.tasks().iter().filter(|t| t.alive() && t.stats.started_ns.is_some()).collect();
    let room = area.height.saturating_sub(3) as usize;
    let mut rows: Vec<Row> = live
        .iter()
        .take(room)
        .map(|t| {
            let rate = side.task_rates.get(t.id as usize).copied().unwrap_or(0.0);
            Row::new(vec![
                Cell::from(t.id.to_string()),
                Cell::from(t.kind.name()),
                Cell::from(w.bdis()[t.bdi as usize].name.clone()),
                Cell::from(format!("{:.2}", rate / 256.0)),
                Cell::from(format!("{:.0}", ms(t.last_pause))),
                Cell::from(t.nr_dirtied_pause.to_string()),
            ])
        })
        .collect();
    if live.len() > room && room > 0 {
        rows.pop();
        rows.push(Row::new(vec![Cell::from(format!("… {} more", live.len() - room + 1))]));
    }
    let header = Row::new(["task", "kind", "bdi", "MiB/s", "pause", "nr_pause"]).style(t.dim);
    let table = Table::new(
        rows,
        [
            Constraint::Length(5),
            Constraint::Length(9),
            Constraint::Length(6),
            Constraint::Length(7),
            Constraint::Length(6),
            Constraint::Length(8),
        ],
    )
    .header(header)
    .block(
        Block::default()
            .borders(Borders::ALL)
            .border_style(t.border)
            .title(Span::styled(format!(" tasks ({} live) ", live.len()), t.title)),
    );
    frame.render_widget(table, area);
}

fn draw_help(app: &App, frame: &mut Frame, area: Rect) {
    let t = &Theme::new(app.theme());
    let mut lines: Vec<Line> = Vec::new();
    for section in super::keys::HELP {
        lines.push(Line::styled(format!(" {}", section.title), t.title));
        for b in section.bindings {
            lines.push(Line::from(vec![Span::styled(format!("  {:<10}", b.label), t.accent), Span::raw(b.help)]));
        }
    }
    lines.push(Line::styled(" Esc or ? closes this help", t.dim));
    let width = 90.min(area.width);
    let height = (lines.len() as u16 + 2).min(area.height);
    let r = Rect { x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2, width, height };
    frame.render_widget(Clear, r);
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::default()
                .borders(Borders::ALL)
                .border_style(t.accent)
                .title(Span::styled(" keys ", t.title))
                .style(Style::default()),
        ),
        r,
    );
}

/// The ratatui marker for a chart marker.
pub fn marker(m: crate::app::Marker) -> Marker {
    match m {
        crate::app::Marker::Braille => Marker::Braille,
        crate::app::Marker::Dot => Marker::Dot,
        crate::app::Marker::Block => Marker::Block,
    }
}
