//! Drawing one chart: a framed plot with labelled ticks on both axes, the
//! value of every threshold line at its right end, marks on the curves,
//! a legend that names each series with its colour and glyph, and a
//! title cut by priority (the values stay, words go).
//!
//! ```text
//! ┌ 1 global dirty pages (sda)  dirty 669 MiB, 18.1% of dirtyable ┐
//! │ 800┤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤ 737   │  <- line values
//! │ 400┤⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒ 369   │
//! │   0┤                                                      │
//! │ MiB└┬──────────────┬──────────────┬──────────────┬─────    │
//! │     0.0           7.5           15.0          22.5  30.0 s │
//! └ ━ dirty ━ wb ━ thresh ━ limit ━ setpoint ━ freerun ━ bg ───┘
//! ```
//!
//! The curves are drawn with ratatui's canvas; axes, labels and marks are
//! written into the buffer at the rows the canvas puts the values on.

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::canvas::{Canvas, Context, Line as Segment, Points};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use super::charts::{ChartData, Draw, Fitted, MONO_LINES, MONO_SCATTER, MonoLine, Series};
use super::theme::Theme;
use crate::lesson::check::show;

/// How charts look: the palette, the marker, and what a chart without room says.
#[derive(Clone, Copy)]
pub struct Look<'a> {
    /// Styles.
    pub theme: &'a Theme,
    /// Chart markers.
    pub marker: Marker,
    /// True while a lesson's text is open beside the charts: `v` folds it,
    /// and a chart without room says so rather than ask for a larger window.
    pub text_folds: bool,
}

impl Look<'_> {
    /// What a chart too small for its plot, and one too small for its
    /// frame, say instead.
    fn no_room(&self) -> (&'static str, &'static str) {
        if self.text_folds { (NO_ROOM_FOLD, NO_ROOM_FOLD_SHORT) } else { (NO_ROOM, NO_ROOM_SHORT) }
    }

    fn mono(&self) -> bool {
        self.theme.kind == crate::app::ThemeKind::Mono
    }

    /// The style of a series.
    fn style(&self, s: &Series) -> Style {
        if s.shadow { self.theme.dim } else { self.series(s.color) }
    }

    fn series(&self, color: usize) -> Style {
        self.theme.series[color % self.theme.series.len()]
    }

    /// The glyph a series' legend entry and line value show: the line's
    /// colour tells series apart, and in mono its [`MonoLine`] does (a
    /// greyed line is not grey there, so it shows that too).
    fn glyph(&self, s: &Series) -> &'static str {
        match s.draw {
            Draw::Line | Draw::Dashed if s.shadow && !self.mono() => "┈",
            _ => s.draw.legend_glyph(s.mono, self.mono()),
        }
    }

    /// How a series' line is drawn in mono, if it is a line and the
    /// palette is mono.
    fn mono_line(&self, s: &Series) -> Option<MonoLine> {
        (self.mono() && s.draw != Draw::Scatter).then(|| MONO_LINES[s.mono % MONO_LINES.len()])
    }

    /// The glyph a scatter series' points are written as, where mono
    /// tells it by one rather than by its dots ([`MONO_SCATTER`]).
    fn scatter_mark(&self, s: &Series) -> Option<&'static str> {
        let slot = s.mono % MONO_SCATTER.len();
        (self.mono() && s.draw == Draw::Scatter && slot > 0).then_some(MONO_SCATTER[slot])
    }
}

/// The units a chart title's values end with.
const UNITS: [&str; 6] = ["MiB", "GiB", "TiB", "MiB/s", "ms", "s"];

/// A chart's title in parts, so that it can be cut by priority.
pub struct Title {
    /// The chart's number and name, e.g. `1 global dirty pages`.
    pub name: String,
    /// The number and a short name, e.g. `1 global dirty`.
    pub short: String,
    /// The bdi it shows, long and short: `sda (HDD)`, `sda` (in the
    /// title: `(sda, HDD)`, `(sda)`).
    pub bdi: Option<(String, String)>,
    /// The bdi is one of several: its name stays before the values do in
    /// full (at 100x30 chart 2 of ukey-hdd said which disk it showed
    /// nowhere but the status line).
    pub one_of_many: bool,
}

/// A bdi's label in parentheses after a chart's name: one that ends in
/// its own parenthesis (`sda (HDD)`, a live trace's `254:0 (vda)`) reads
/// ` (sda, HDD)`, not ` (sda (HDD))`.
fn in_parentheses(label: &str) -> String {
    match label.strip_suffix(')').and_then(|l| l.split_once(" (")) {
        Some((name, inner)) if !inner.contains(['(', ')']) => format!(" ({name}, {inner})"),
        _ => format!(" ({label})"),
    }
}

/// The title that fits `width`: the values stay longest (the first one
/// always), then the chart's number, the bdi, and the name.
fn fit_title(title: &Title, values: &[String], short: &[String], width: usize) -> String {
    let number = title.name.split(' ').next().unwrap_or("").to_string();
    let bdi = |long: bool| title.bdi.as_ref().map(|(l, s)| in_parentheses(if long { l } else { s }));
    // Each head with whether it names the bdi.
    let has = title.bdi.is_some();
    let named = [
        (format!("{}{}", title.name, bdi(true).unwrap_or_default()), has),
        (format!("{}{}", title.name, bdi(false).unwrap_or_default()), has),
        (format!("{}{}", title.short, bdi(false).unwrap_or_default()), has),
        (title.short.clone(), false),
    ];
    let bare = [(format!("{number}{}", bdi(false).unwrap_or_default()), has), (number.clone(), false)];
    // One bdi of several is named before the values are kept whole: a
    // first pass tries only the heads that name it.
    let passes: &[bool] = if has && title.one_of_many { &[true, false] } else { &[false] };
    // The short name stays as long as one value fits beside it; only then
    // does the chart go by its number, one space before the values (two
    // would read as a name left out).
    // Short values may be more than the values they shorten (chart 5's
    // one headline reads 'longest call 168 ms, sleep 4 ms' short): as
    // many as fit are kept.
    for &named_bdi in passes {
        for (heads, gap) in [(&named[..], "  "), (&bare[..], " ")] {
            for n in (1..=values.len().max(short.len()).max(1)).rev() {
                for vals in [values, short] {
                    if vals.is_empty() && !values.is_empty() {
                        continue;
                    }
                    let tail = vals[..n.min(vals.len())].join(", ");
                    for (head, _) in heads.iter().filter(|(_, names)| *names || !named_bdi) {
                        let text = if tail.is_empty() { format!(" {head} ") } else { format!(" {head}{gap}{tail} ") };
                        if text.chars().count() <= width {
                            return text;
                        }
                    }
                }
            }
        }
    }
    let text = format!(" {number} {} ", short.first().or(values.first()).map_or("", String::as_str));
    if text.chars().count() <= width {
        return text;
    }
    // A title ending in a unit keeps it after the last number that fits:
    // `rate 0.910 vs bw/N 0.800 MiB/s` reads `rate 0.910 MiB/s…`, not a
    // bare `rate 0.910 vs bw/N 0.800…`.
    let words: Vec<&str> = text.split_whitespace().collect();
    if let Some((unit, body)) = words.split_last()
        && UNITS.contains(unit)
    {
        for kept in (2..=body.len()).rev() {
            if body[kept - 1].parse::<f64>().is_ok() {
                let text = format!(" {} {unit}… ", body[..kept].join(" "));
                if text.chars().count() <= width {
                    return text;
                }
            }
        }
    }
    // Cut between words (a number cut short would read as another), and
    // marked as cut.
    let chars: Vec<char> = text.chars().collect();
    let mut end = width.saturating_sub(2);
    if chars.get(end).is_some_and(|c| *c != ' ') {
        let head = number.chars().count() + 2;
        end = chars[..end].iter().rposition(|c| *c == ' ').filter(|&i| i >= head).unwrap_or(end);
    }
    let mut cut: String = chars[..end].iter().collect();
    cut.truncate(cut.trim_end().len());
    if width >= 2 {
        cut.push_str("… ");
    }
    cut
}

/// Legend entries: (glyph, name, style), the data's series last to first
/// (the measured ones, then the threshold lines) but those `hidden` (not
/// drawn: off the plot, or without a known value); `short`
/// names for the series, and `short_marks` for the marks.
fn legend_entries<'d>(
    data: &'d ChartData,
    look: &Look,
    hidden: &[bool],
    short: bool,
    short_marks: bool,
) -> Vec<(String, &'d str, Style)> {
    let mut entries: Vec<(String, &str, Style)> = data
        .series
        .iter()
        .enumerate()
        .rev()
        .filter(|(i, _)| !hidden.get(*i).copied().unwrap_or(false))
        .map(|(_, s)| (look.glyph(s).to_string(), if short { s.short } else { s.name }, look.style(s)))
        .collect();
    for (glyph, color, name, short_name) in &data.mark_legend {
        entries.push((glyph.to_string(), if short_marks { short_name } else { name }, look.series(*color)));
    }
    entries
}

/// Splits legend entries into lines of at most `width` columns; a
/// `tight` legend writes each name against its glyph (` ━dirty ━wb`).
fn legend_lines(entries: &[(String, &str, Style)], width: usize, tight: bool) -> Vec<Line<'static>> {
    let mut lines: Vec<Line> = vec![Line::default()];
    let mut used = 0;
    let gap = if tight { "" } else { " " };
    for (glyph, name, style) in entries {
        let w = glyph.chars().count() + name.chars().count() + 1 + gap.len();
        if used + w > width && used > 0 {
            lines.push(Line::default());
            used = 0;
        }
        let line = lines.last_mut().expect("one line at least");
        line.spans.push(Span::styled(format!(" {glyph}"), *style));
        line.spans.push(Span::styled(format!("{gap}{name}"), *style));
        used += w;
    }
    lines
}

/// How a legend may name its entries, roomiest first: (short names for
/// the series, short ones for the marks, names against their glyphs).
const NAMINGS: [(bool, bool, bool); 4] =
    [(false, false, false), (true, false, false), (true, true, false), (true, true, true)];

/// The legend for `width` columns: on the frame's bottom edge alone if it
/// fits, else with one line inside; long names where there is room, then
/// short ones, then short ones against their glyphs ([`NAMINGS`]). What
/// two lines cannot hold is left out, and an ellipsis says so.
fn legend(data: &ChartData, look: &Look, hidden: &[bool], width: usize) -> Vec<Line<'static>> {
    for (short, short_marks, tight) in NAMINGS {
        let lines = legend_lines(&legend_entries(data, look, hidden, short, short_marks), width, tight);
        if lines.len() <= 2 {
            return lines;
        }
    }
    let mut lines = legend_lines(&legend_entries(data, look, hidden, true, true), width.saturating_sub(2), true);
    lines.truncate(2);
    if let Some(last) = lines.last_mut() {
        last.spans.push(Span::styled(" …", look.theme.dim));
    }
    lines
}

/// The legend in one line of `width` columns, for the frame's bottom
/// edge, if it fits: long names, short ones, then short names against
/// their glyphs (` ━dirty ━wb ━thr`). `None` when even that needs two.
fn one_line_legend(data: &ChartData, look: &Look, hidden: &[bool], width: usize) -> Option<Line<'static>> {
    NAMINGS.into_iter().find_map(|(short, short_marks, tight)| {
        let mut lines = legend_lines(&legend_entries(data, look, hidden, short, short_marks), width, tight);
        (lines.len() == 1).then(|| lines.swap_remove(0))
    })
}

/// Plot rows under which a chart gives up its legend's second line, the
/// legend going into one line on the frame where it fits.
const ROOMY_PLOT_ROWS: u16 = 8;

/// Plot rows under which a chart writes its x labels on the axis line
/// (`└0────5────10 s`) rather than in a row under it.
const LABELS_ON_AXIS_UNDER: u16 = 6;

/// How a chart fits its frame: its legend (the first line on the frame's
/// bottom edge, the rest inside) and whether its x labels go on the axis
/// line.
struct Fit {
    legend: Vec<Line<'static>>,
    labels_on_axis: bool,
    /// By series: not drawn, so not in the legend (a line wholly off the
    /// plot, chart 4's write_bw over a hundred tasks' rates, or one with
    /// no value known).
    hidden: Vec<bool>,
}

/// How a chart of `data` fits inside a frame of `inner` (its legend
/// `width` columns wide): a short chart trades the legend's second line
/// for a one-line legend, and then, if it is still short, its x label row
/// for labels on the axis line, so that the plot keeps the rows.
/// Charts lined up with their neighbours ([`line_up`]) fit as decided there.
/// The legend names only the lines drawn: those off the y axis the plot
/// gets are left out, and as that axis depends on the rows the legend
/// leaves, the two are settled together.
fn fit(data: &ChartData, look: &Look, width: usize, inner: Rect) -> Fit {
    let mut hidden = vec![false; data.series.len()];
    let mut fitted = fit_naming(data, look, width, inner, hidden.clone());
    // A legend a name shorter leaves the plot as many rows or more, and
    // the axis rarely moves with them: settled in a round or two.
    for _ in 0..4 {
        let now = not_drawn(data, look, inner, &fitted);
        if now == hidden {
            break;
        }
        hidden = now;
        fitted = fit_naming(data, look, width, inner, hidden.clone());
    }
    fitted
}

impl Fit {
    /// Labels under the axis, every series drawn, no legend.
    #[cfg(test)]
    fn plain(data: &ChartData) -> Fit {
        Fit { legend: Vec::new(), labels_on_axis: false, hidden: vec![false; data.series.len()] }
    }
}

/// [`fit`] with the series `hidden` left out of the legend.
fn fit_naming(data: &ChartData, look: &Look, width: usize, inner: Rect, hidden: Vec<bool>) -> Fit {
    let mut legend = legend(data, look, &hidden, width);
    if let Some(fitted) = data.fitted {
        if fitted.one_line_legend
            && legend.len() > 1
            && let Some(line) = one_line_legend(data, look, &hidden, width)
        {
            legend = vec![line];
        }
        return Fit { legend, labels_on_axis: fitted.labels_on_axis, hidden };
    }
    // Its rows under a neighbour's notice are not its to plot on.
    let notice = data.notice_for(inner.width.into()).map_or(0, |n| note_rows(n, inner.width)) + data.pad_rows[0];
    let x_rows: u16 = if data.x2.is_some() { 2 } else { 1 };
    let plot_rows =
        |legend: usize, x_rows: u16| inner.height.saturating_sub(notice + legend.saturating_sub(1) as u16 + x_rows + 1);
    if legend.len() > 1
        && plot_rows(legend.len(), x_rows) < ROOMY_PLOT_ROWS
        && let Some(line) = one_line_legend(data, look, &hidden, width)
    {
        legend = vec![line];
    }
    let labels_on_axis = plot_rows(legend.len(), x_rows) < LABELS_ON_AXIS_UNDER;
    Fit { legend, labels_on_axis, hidden }
}

/// By series: whether it is not drawn on the plot `fitted` leaves in
/// `inner` (see [`drawn_on`]); none where there is no plot.
fn not_drawn(data: &ChartData, look: &Look, inner: Rect, fitted: &Fit) -> Vec<bool> {
    let rows = Inside::of(data, inner, fitted).plot_rows;
    if rows < 2 {
        return vec![false; data.series.len()];
    }
    let y = YAxis::on(data, rows, look.marker);
    data.series.iter().map(|s| !drawn_on(s, &y)).collect()
}

/// Whether some of series `s` is drawn on axis `y`: a point within its
/// range, or a segment between two known values crossing it (the canvas
/// clips lines to the plot and leaves out points off it).
fn drawn_on(s: &Series, y: &YAxis) -> bool {
    let [lo, hi] = y.range;
    let within = |v: f64| (lo..=hi).contains(&y.at(v));
    finite_runs(&s.points).any(|run| match s.draw {
        Draw::Line | Draw::Dashed if run.len() > 1 => run.windows(2).any(|w| {
            let (a, b) = (y.at(w[0].1), y.at(w[1].1));
            a.min(b) <= hi && a.max(b) >= lo
        }),
        _ => run.iter().any(|p| within(p.1)),
    })
}

/// How the inside of a chart's frame is shared out, top to bottom: the
/// notice and the padding under it, the plot and its x labels, the
/// legend's lines past its first and the padding over them.
struct Inside {
    notice_rows: u16,
    /// Rows under the notice (its own and its padding's).
    top_rows: u16,
    /// The legend's lines inside the frame, at its bottom.
    text_rows: u16,
    /// Rows for the plot and its x axis and labels.
    rows_left: u16,
    /// Rows of the plot itself.
    plot_rows: u16,
    /// Room for the plot with its whole legend.
    room: bool,
}

impl Inside {
    /// How `inner` is shared out for `data` fitted as `fitted`.
    fn of(data: &ChartData, inner: Rect, fitted: &Fit) -> Inside {
        let inner_legend = fitted.legend.len().saturating_sub(1) as u16;
        let notice_rows = data.notice_for(inner.width.into()).map_or(0, |n| note_rows(n, inner.width));
        let x_label_rows: u16 = u16::from(data.x2.is_some()) + u16::from(!fitted.labels_on_axis);
        // Padding only where a plot still fits after it: else the chart says
        // it has no room.
        let padded = notice_rows + inner_legend + data.pad_rows.iter().sum::<u16>() + x_label_rows + 2;
        let pad = if padded <= inner.height { data.pad_rows } else { [0, 0] };
        // A plot is drawn with its whole legend or not at all: a line drawn
        // and named nowhere could not be told from the others.
        let legend_rows = inner_legend + pad[1];
        let room = notice_rows + pad[0] + legend_rows + x_label_rows + 1 + 2 <= inner.height;
        let legend_rows = if room { legend_rows } else { 0 };
        let rows_left = inner.height - legend_rows;
        let top_rows = (notice_rows + pad[0]).min(rows_left);
        let rows_left = rows_left - top_rows;
        Inside {
            notice_rows,
            top_rows,
            text_rows: inner_legend.min(legend_rows),
            rows_left,
            plot_rows: rows_left.saturating_sub(x_label_rows + 1),
            room,
        }
    }
}

/// Ticks for a linear axis over `[lo, hi]`: `n` values, evenly spaced by a
/// round step, the first at or below `lo`, the last at or above `hi`.
pub fn linear_ticks(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    let n = n.max(2);
    let hi = if hi > lo { hi } else { lo + 1.0 };
    let mut step = nice((hi - lo) / (n - 1) as f64);
    loop {
        let first = (lo / step).floor() * step;
        if first + step * (n - 1) as f64 >= hi - step * 1e-9 {
            return (0..n).map(|i| first + step * i as f64).collect();
        }
        step = nice(step * 1.01);
    }
}

/// Of the round tick sets with 3 to `most` labelled ticks (fewer if
/// `most` is smaller), the one that wastes the least room above `hi`, the
/// one with more labels on a tie. A set is the multiples of a round step
/// from the one at or below `lo` to the one at or above `hi`, each
/// labelled or, where that leaves three labels, every other one (both
/// ends labelled): a plot four or eight rows high reads `0 400 800` for
/// 737, where three or four ticks a round step apart could only be
/// `0 500 1000`.
#[cfg(test)]
fn best_linear_ticks(lo: f64, hi: f64, most: usize) -> Vec<f64> {
    best_linear_ticks_over(lo, hi, hi, most)
}

/// [`best_linear_ticks`] for a range whose top above `least` is margin:
/// where the sets that cover it all waste more than a quarter of it, a
/// set may end anywhere from `least` up, the one ending nearest `hi`
/// wins. 4773 MiB with its margin (5012) reads `0 2500 5000` on three
/// labels, not `0 5000 10000`; 20 ms with its margin still `0 5 … 25`.
fn best_linear_ticks_over(lo: f64, hi: f64, least: f64, most: usize) -> Vec<f64> {
    let covering = best_linear_ticks_reaching(lo, hi, hi, most);
    let span = (hi - lo).max(1e-12);
    if least >= hi || (covering[covering.len() - 1] - hi) / span <= 0.25 {
        return covering;
    }
    best_linear_ticks_reaching(lo, hi, least, most)
}

/// The tick sets of [`best_linear_ticks`] that reach `least`, the one
/// ending nearest `hi` first.
fn best_linear_ticks_reaching(lo: f64, hi: f64, least: f64, most: usize) -> Vec<f64> {
    let span = (hi - lo).max(1e-12);
    let most = most.max(1);
    let fewest = most.min(3);
    let least = least.clamp(lo, hi);
    let waste = |t: &Vec<f64>| ((t[t.len() - 1] - hi).abs() / span * 20.0).round();
    let mut best: Option<Vec<f64>> = None;
    // Steps from a tenth of the span over `most` up to the whole span.
    let mut step = nice_y(span / (2 * most) as f64 / 10.0);
    while step <= span * 2.0 {
        let first = (lo / step + 1e-9).floor();
        let last = (least / step - 1e-9).ceil().max(first + 1.0);
        let count = (last - first) as usize + 1;
        for stride in [1, 2] {
            // Every other one only where that makes three labels: more
            // read better a round step apart (0 250 500 750 1000 1250 for
            // 1150, not 0 400 800 1200).
            let labels = (count - 1) / stride + 1;
            if !(count - 1).is_multiple_of(stride) || (stride == 2 && labels > 3) {
                continue;
            }
            if !(fewest..=most).contains(&labels) {
                continue;
            }
            let ticks: Vec<f64> = (0..labels).map(|i| (first + (i * stride) as f64) * step).collect();
            let better = best.as_ref().is_none_or(|b| {
                waste(&ticks).total_cmp(&waste(b)).then(b.len().cmp(&ticks.len())) == std::cmp::Ordering::Less
            });
            if better {
                best = Some(ticks);
            }
        }
        step = nice_y(step * 1.01);
    }
    best.unwrap_or_else(|| linear_ticks(lo, hi, most.max(2)))
}

/// The ticks of a linear y axis over `y` whose data reach `least`, on a
/// plot `rows` high that reads best with at most `most` labels (one every
/// other row): a short plot whose round ticks end more than a quarter of
/// the axis above the data takes one label more (at most six, each on a
/// row of its own). Chart 1 six rows high with thresh 2949 MiB
/// read `0 2000 4000`, over a quarter of it empty, where seven rows read
/// `0 1000 2000 3000`; now both read the latter.
fn short_axis_ticks(y: [f64; 2], least: f64, most: usize, rows: u16) -> Vec<f64> {
    let wastes = |t: &[f64]| t[t.len() - 1] - least > (t[t.len() - 1] - t[0]) / 4.0;
    let mut ticks = best_linear_ticks_over(y[0], y[1], least, most);
    let more = most + 1;
    if wastes(&ticks) && more <= usize::from(rows).min(6) {
        let t = best_linear_ticks_over(y[0], y[1], least, more);
        if t[t.len() - 1] < ticks[ticks.len() - 1] {
            ticks = t;
        }
    }
    ticks
}

/// The smallest of 1, 2, 2.5 and 5 times a power of ten at or above `x`.
fn nice(x: f64) -> f64 {
    let p = 10f64.powf(x.max(1e-12).log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0].iter().map(|m| m * p).find(|&v| v >= x * (1.0 - 1e-12)).unwrap_or(10.0 * p)
}

/// [`nice`] for a y axis: 2.5 times a power of ten only where its
/// multiples are whole (25, 250, …): a step of 2.5 would put every other
/// label a digit longer than the rest (`12.5 10 7.5`), and one of 0.025
/// three decimals on every label; the axis reads `0 5 10 15` instead.
fn nice_y(x: f64) -> f64 {
    let step = nice(x);
    let p = 10f64.powf(step.log10().floor());
    if (step / p - 2.5).abs() < 1e-9 && step < 25.0 - 1e-9 { 5.0 * p } else { step }
}

/// Ticks for a logarithmic axis over `[lo, hi]` (both positive): powers of
/// ten, at least three, every other one when there are more than `n`.
pub fn log_ticks(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    let mut a = lo.max(1e-6).log10().floor() as i32;
    let b = (hi.max(lo).log10().ceil() as i32).max(a + 1);
    if b - a < 2 {
        a -= 1;
    }
    let stride = ((b - a) as usize).div_ceil(n.max(3) - 1).max(1) as i32;
    let mut ticks = Vec::new();
    let mut e = a;
    loop {
        ticks.push(10f64.powi(e));
        if e >= b {
            return ticks;
        }
        e += stride;
    }
}

/// A tick value as its label: as few decimals as the step needs to be
/// written exactly (every label of an axis with as many): a step of 2.5
/// reads `7.5 10.0 12.5`, where it read `8 10 12`, 7.5 and 12.5 rounded.
fn tick_label(v: f64, step: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let mut decimals = if step >= 1.0 { 0 } else { (-step.log10().floor()) as usize };
    while decimals < 9 {
        let scaled = step * 10f64.powi(decimals as i32);
        if (scaled - scaled.round()).abs() <= scaled.abs() * 1e-9 {
            break;
        }
        decimals += 1;
    }
    let text = format!("{v:.decimals$}");
    if text.len() > 6 && v.abs() >= 1000.0 { format!("{:.0}k", v / 1000.0) } else { text }
}

/// Maps a value to a canvas row the way the canvas places points.
struct Rows {
    top: f64,
    span: f64,
    dots: f64,
    per_cell: f64,
}

impl Rows {
    fn new(y: [f64; 2], rows: u16, marker: Marker) -> Rows {
        let per_cell = match marker {
            Marker::Braille => 4.0,
            Marker::HalfBlock => 2.0,
            _ => 1.0,
        };
        Rows { top: y[1], span: (y[1] - y[0]).max(1e-12), dots: rows as f64 * per_cell, per_cell }
    }

    /// The rows.
    fn count(&self) -> u16 {
        (self.dots / self.per_cell).round() as u16
    }

    /// The row (0 at the top) value `v` is drawn on.
    fn row(&self, v: f64) -> u16 {
        let dot = ((self.top - v) * (self.dots - 1.0) / self.span).round().clamp(0.0, self.dots - 1.0);
        (dot / self.per_cell).floor() as u16
    }
}

/// Draws `data` as a chart in `area`.
pub fn draw(frame: &mut Frame, area: Rect, data: &ChartData, title: &Title, look: &Look) {
    let t = look.theme;
    if area.width < 4 || area.height == 0 {
        return;
    }
    if area.height < 3 {
        // No room for a frame: the chart is named and says so, a column
        // in from its left as a frame would be.
        let text = Line::from(vec![
            Span::styled(format!("{}: ", title.short), t.title),
            Span::styled(look.no_room().1, t.dim),
        ]);
        let inside = Rect { x: area.x + 1, width: area.width - 1, ..area };
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), inside);
        return;
    }
    let inner_w = area.width.saturating_sub(2) as usize;
    let block = |legend: Option<&Line<'static>>| {
        Block::default()
            .borders(Borders::ALL)
            .border_style(t.border)
            .title(Span::styled(fit_title(title, &data.values, &data.short_values, inner_w.saturating_sub(1)), t.title))
            .title_bottom(legend.cloned().unwrap_or_default())
    };
    let inner = block(None).inner(area);
    let mut fitted = fit(data, look, inner_w.saturating_sub(2), inner);
    if inner.height == 0 || inner.width < 8 {
        frame.render_widget(block(fitted.legend.first()), area);
        return;
    }
    // A legend of two lines reads top to bottom: its first inside, its
    // last on the frame (`━ bdi_thresh` read above the first three); the
    // frame keeps the first where the inside has no row for it.
    let on_frame = |f: &Fit| {
        let inside = f.legend.len() > 1 && Inside::of(data, inner, f).text_rows > 0;
        if inside { f.legend.last().cloned() } else { f.legend.first().cloned() }
    };
    let plotted = draw_inside(frame, inner, data, look, &fitted);
    let unit = (!plotted && !data.y_unit.is_empty()).then(|| format!(" {} ", data.y_unit));
    if let Some(unit) = &unit {
        // No y axis says the unit of the values in the title: the bottom
        // edge does, at its right end, the legend making room for it.
        fitted = fit(data, look, inner_w.saturating_sub(2 + unit.chars().count() + 1), inner);
        frame.render_widget(Clear, inner);
        draw_inside(frame, inner, data, look, &fitted);
    }
    let mut block = block(on_frame(&fitted).as_ref());
    if let Some(unit) = unit {
        block = block.title_bottom(Line::styled(unit, t.dim).right_aligned());
    }
    frame.render_widget(block, area);
}

/// Pads the charts of `data`, each drawn in a frame of `area`'s size, so
/// that they plot on the same rows: one with a notice, or a legend of two
/// lines, does not push its plot below its neighbour's; where one
/// writes its x labels on its axis line, all do; and all leave their y
/// labels and line values the columns the widest need, so that their x
/// axes line up column for column.
pub fn line_up(data: &mut [ChartData], look: &Look, areas: &[Rect]) {
    let Some(&area) = areas.first() else { return };
    // Each in its own frame: a side a column narrower may need a second
    // legend line its neighbour does not.
    let inners: Vec<Rect> =
        (0..data.len()).map(|i| Block::default().borders(Borders::ALL).inner(*areas.get(i).unwrap_or(&area))).collect();
    let notices: Vec<u16> = data
        .iter()
        .zip(&inners)
        .map(|(d, inner)| d.notice_for(inner.width.into()).map_or(0, |n| note_rows(n, inner.width)))
        .collect();
    let most_notice = notices.iter().copied().max().unwrap_or(0);
    for (d, n) in data.iter_mut().zip(&notices) {
        d.pad_rows = [most_notice - n, 0];
        d.fitted = None;
    }
    let fits: Vec<Fit> = data
        .iter()
        .zip(&inners)
        .map(|(d, inner)| fit(d, look, usize::from(inner.width).saturating_sub(2), *inner))
        .collect();
    let on_axis = fits.iter().any(|f| f.labels_on_axis);
    let inside = |f: &Fit| f.legend.len().saturating_sub(1) as u16;
    let most_legend = fits.iter().map(inside).max().unwrap_or(0);
    for (d, f) in data.iter_mut().zip(fits) {
        d.pad_rows[1] = most_legend - inside(&f);
        d.fitted = Some(Fitted { one_line_legend: f.legend.len() == 1, labels_on_axis: on_axis, margins: [0, 0] });
    }
    // The widest labels either side of any plot, kept by all, and the
    // narrowest plot: a side whose labels are narrower (`56` beside `200`,
    // no `5.76/5.04` at its end), or whose frame is a column wider, would
    // put its time ticks in other columns.
    let mut margins = [0, 0];
    for (d, inner) in data.iter().zip(&inners) {
        let f = fit(d, look, usize::from(inner.width).saturating_sub(2), *inner);
        let rows = Inside::of(d, *inner, &f).plot_rows;
        if rows >= 2 {
            let m = Margins::of(d, look, rows, inner.width, &f.hidden);
            margins = [margins[0].max(m.label_w), margins[1].max(m.right_w)];
        }
    }
    let narrowest = inners.iter().map(|i| i.width).min().unwrap_or(0);
    for (d, inner) in data.iter_mut().zip(&inners) {
        if let Some(f) = &mut d.fitted {
            f.margins = [margins[0], margins[1] + (inner.width - narrowest)];
        }
    }
}

/// The inside of a chart's frame at `inner`: the legend's lines before
/// its last (which is on the frame) at the bottom, the notice at the top,
/// and the plot with its axes between them, or a note that it has no
/// room. False when there was no room for the plot.
fn draw_inside(frame: &mut Frame, inner: Rect, data: &ChartData, look: &Look, fitted: &Fit) -> bool {
    let t = look.theme;
    let rows = Inside::of(data, inner, fitted);
    // The legend's lines but its last (which is on the frame), at the
    // bottom.
    let inner_legend = fitted.legend.get(..fitted.legend.len().saturating_sub(1)).unwrap_or_default();
    if rows.text_rows > 0 {
        let r = Rect { y: inner.y + inner.height - rows.text_rows, height: rows.text_rows, ..inner };
        frame.render_widget(Paragraph::new(inner_legend.to_vec()), r);
    }
    // The notice, in full, at the top.
    if let Some(notice) = data.notice_for(inner.width.into()) {
        draw_note(frame, notice, t.warn, Rect { height: rows.top_rows.min(rows.notice_rows), ..inner });
    }
    if data.series.is_empty() {
        return true;
    }
    let rest = Rect { y: inner.y + rows.top_rows, height: rows.rows_left, ..inner };
    // One row has one y label: no scale to read the lines against. Beside
    // a lesson's open text two rows are not worth it either: folding the
    // text gives the chart its rows.
    let least_rows = if look.text_folds { 3 } else { 2 };
    if !rows.room
        || rows.plot_rows < least_rows
        || !draw_axes_and_plot(frame.buffer_mut(), rest, rows.plot_rows, data, look, fitted)
    {
        // Said rather than left blank.
        draw_note(frame, look.no_room().0, t.dim, rest);
        return false;
    }
    true
}

/// Rows `note` takes wrapped to `width` columns (see [`note_lines`]).
fn note_rows(note: &str, width: u16) -> u16 {
    u16::try_from(note_lines(note, width, u16::MAX).len()).unwrap_or(u16::MAX)
}

/// `note` in at most `rows` lines `width` columns wide, broken between
/// words; when it has more, its last line shown ends in an ellipsis (a
/// sentence cut short says so).
fn note_lines(note: &str, width: u16, rows: u16) -> Vec<String> {
    let width = usize::from(width);
    let mut lines = crate::units::wrap_words(note, width);
    lines.retain(|l| !l.is_empty());
    let rows = usize::from(rows);
    if lines.len() > rows && rows > 0 {
        // The words that went to the next line do not fit: so it is cut.
        let last = format!("{} {}", lines[rows - 1], lines[rows]);
        lines.truncate(rows - 1);
        lines.push(super::view::cut_to(&last, width));
    }
    lines.truncate(rows);
    lines
}

/// Draws `note` in `style` at `area`, as [`note_lines`] fits it.
fn draw_note(frame: &mut Frame, note: &str, style: Style, area: Rect) {
    let lines: Vec<Line> =
        note_lines(note, area.width, area.height).into_iter().map(|l| Line::styled(l, style)).collect();
    frame.render_widget(Paragraph::new(lines), area);
}

/// What a chart too small for its plot says instead.
pub const NO_ROOM: &str = "no room to plot: a larger window shows this chart";

/// What a chart too small for its frame says after its name.
pub const NO_ROOM_SHORT: &str = "no room, a larger window shows it";

/// [`NO_ROOM`] while a lesson's text is open: folding it makes the room.
pub const NO_ROOM_FOLD: &str = "no room to plot: v folds the lesson text";

/// [`NO_ROOM_SHORT`] while a lesson's text is open.
pub const NO_ROOM_FOLD_SHORT: &str = "no room, v folds the text";

/// Whether tick labels on `rows` stand evenly apart: as many rows between
/// each two, or, where each two have two rows or more between them, one
/// more between some (on eight rows, 0 1 2 fall on rows 7, 4 and 0: no
/// tick set does better); one row apart beside two is not.
fn evenly_apart(rows: &[u16]) -> bool {
    let gaps: Vec<u16> = rows.windows(2).map(|p| p[0].abs_diff(p[1])).collect();
    let (least, most) = (gaps.iter().min().copied().unwrap_or(0), gaps.iter().max().copied().unwrap_or(0));
    least > 0 && (least == most || (least >= 2 && most - least <= 1))
}

/// The y axis a chart is drawn on: its ticks, the range they span (on a
/// log axis, in powers of ten) and the tick step.
struct YAxis {
    ticks: Vec<f64>,
    range: [f64; 2],
    step: f64,
    log: bool,
}

impl YAxis {
    /// The axis for `data` on a plot `rows` high, drawn in braille.
    #[cfg(test)]
    fn new(data: &ChartData, rows: u16) -> YAxis {
        YAxis::on(data, rows, Marker::Braille)
    }

    /// The axis for `data` on a plot `rows` high drawn with `marker`: of
    /// the round tick sets, the first whose labels stand evenly apart
    /// (see [`evenly_apart`]), else the axis' ends alone: on six rows,
    /// 0 1000 2000 3000 fall on rows 5, 3, 2 and 0, and read as a scale
    /// squeezed in its middle; `0 3000` does not.
    fn on(data: &ChartData, rows: u16, marker: Marker) -> YAxis {
        let n = match rows {
            0..=2 => rows as usize,
            r => (r as usize).div_ceil(2).clamp(3, 6),
        };
        let even = |ticks: &[f64], range: [f64; 2]| {
            let at = Rows::new(range, rows, marker);
            evenly_apart(&ticks.iter().map(|&v| at.row(v.clamp(range[0], range[1]))).collect::<Vec<_>>())
        };
        let ends = |ticks: Vec<f64>| vec![ticks[0], ticks[ticks.len() - 1]];
        let (ticks, range, step) = if data.log_y {
            let ticks = log_ticks(data.y[0], data.y[1], n);
            let range = [ticks[0].log10(), ticks[ticks.len() - 1].log10()];
            (ticks, range, 0.0)
        } else if data.y_fixed {
            let fixed = |n: usize| {
                let step = nice_y((data.y[1] - data.y[0]) / (n.max(2) - 1) as f64);
                let first = (data.y[0] / step).ceil() as i64;
                let ticks: Vec<f64> =
                    (first..).map(|i| i as f64 * step).take_while(|&v| v <= data.y[1] + step * 1e-9).collect();
                (ticks, step)
            };
            // A set asked of m labels may hold fewer (0 to 2.4 in three
            // reads `0 2`): from one more than fit, any set that fits.
            let (ticks, step) = (2..=n.max(3) + 1)
                .rev()
                .map(fixed)
                .find(|(t, _)| (2..=n.max(3)).contains(&t.len()) && even(t, data.y))
                .unwrap_or_else(|| fixed(n.max(2)));
            let ticks = if ticks.len() > 2 && !even(&ticks, data.y) { ends(ticks) } else { ticks };
            (ticks, data.y, step)
        } else {
            let least = data.y[0] + (data.y[1] - data.y[0]) / data.y_margin.max(1.0);
            let first = short_axis_ticks(data.y, least, n, rows);
            let top = first[first.len() - 1];
            // Fewer labels, on an axis that ends no higher.
            let fewer = (3..=n).rev().map(|m| best_linear_ticks_over(data.y[0], data.y[1], least, m));
            let ticks = std::iter::once(first.clone())
                .chain(fewer.filter(|t| t[t.len() - 1] <= top))
                .find(|t| even(t, [t[0], t[t.len() - 1]]))
                .unwrap_or_else(|| ends(first));
            let step = if ticks.len() > 1 { ticks[1] - ticks[0] } else { 1.0 };
            let range = [ticks[0], ticks[ticks.len() - 1]];
            (ticks, range, step)
        };
        YAxis { ticks, range, step, log: data.log_y }
    }

    /// A value where the canvas puts it: its logarithm on a log axis.
    fn at(&self, v: f64) -> f64 {
        if self.log { v.max(10f64.powf(self.range[0])).log10() } else { v }
    }

    fn labels(&self) -> Vec<String> {
        self.ticks
            .iter()
            .map(|&v| if self.log { tick_label(v, v.min(1.0)) } else { tick_label(v, self.step) })
            .collect()
    }
}

/// Where a chart's parts go: the plot, its rows, and the x range with the
/// second axis mapped onto it.
struct Geometry<'d> {
    plot: Rect,
    rows: Rows,
    y: YAxis,
    /// The x range drawn: the data's, or on a value axis out to its last
    /// tick (see [`value_x_axis`]).
    x: [f64; 2],
    /// The second x axis' range drawn, if there is one.
    x2: Option<[f64; 2]>,
    data: &'d ChartData,
    /// By series: left out (see [`Fit`]).
    hidden: &'d [bool],
}

impl Geometry<'_> {
    /// The series drawn: all but those [`Fit`] left out.
    fn shown(&self) -> impl Iterator<Item = &Series> {
        self.data.series.iter().zip(self.hidden).filter(|(_, hidden)| !**hidden).map(|(s, _)| s)
    }

    /// `px` on the series' own x axis, on the chart's first.
    fn x_of(&self, px: f64, second: bool) -> f64 {
        let x = self.x;
        match (self.x2, second) {
            (Some(x2), true) => x[0] + (px - x2[0]) * (x[1] - x[0]) / (x2[1] - x2[0]).max(1e-12),
            _ => px,
        }
    }

    /// The screen row of value `v`.
    fn row_of(&self, v: f64) -> u16 {
        self.row_at(self.y.at(v))
    }

    /// The row of `a`, a place on the axis ([`YAxis::at`] of a value).
    fn row_at(&self, a: f64) -> u16 {
        self.plot.y + self.rows.row(a.clamp(self.y.range[0], self.y.range[1]))
    }
}

/// A plot's y axis and what stands either side of it: the y labels (with
/// the unit and the names of two x axes, `label_w` columns) and the
/// line values (`right_w` columns, a blank before them).
struct Margins {
    y: YAxis,
    labels: Vec<String>,
    rows: Rows,
    end_values: Vec<(u16, Vec<(String, Style)>)>,
    label_w: u16,
    right_w: u16,
}

impl Margins {
    /// The margins of a plot of `data` `plot_rows` high in `width`
    /// columns, the series `hidden` left out.
    fn of(data: &ChartData, look: &Look, plot_rows: u16, width: u16, hidden: &[bool]) -> Margins {
        let y = YAxis::on(data, plot_rows, look.marker);
        let labels = y.labels();
        // Wide enough for the ticks, the unit, and the names of two x axes.
        let axis_names = data.x2.as_ref().map_or(0, |a| a.name.chars().count().max(6) + 1);
        let label_w = labels
            .iter()
            .map(|l| l.chars().count())
            .chain([data.y_unit.chars().count(), axis_names])
            .max()
            .unwrap_or(1) as u16;
        // Line values on the right: as wide as the widest.
        let rows = Rows::new(y.range, plot_rows, look.marker);
        let end_values = end_value_rows(end_labels(data, hidden, look), &rows, &y, width);
        let right_w = end_values.iter().map(|(_, parts)| parts_width(parts) as u16 + 1).max().unwrap_or(0);
        Margins { y, labels, rows, end_values, label_w, right_w }
    }
}

/// Axes, curves, marks and line values in `area` (no frame), the plot
/// taking `plot_rows` rows at its top, the first x axis' labels on its
/// line if `fitted` says so, the series it hides left out; false, with nothing drawn, when the plot
/// would be too narrow.
fn draw_axes_and_plot(
    buf: &mut Buffer,
    area: Rect,
    plot_rows: u16,
    data: &ChartData,
    look: &Look,
    fitted: &Fit,
) -> bool {
    let (labels_on_axis, hidden) = (fitted.labels_on_axis, &fitted.hidden[..]);
    let Margins { y, labels, rows, end_values, mut label_w, mut right_w } =
        Margins::of(data, look, plot_rows, area.width, hidden);
    // Beside a neighbour, as wide as its: their x axes line up.
    if let Some(f) = data.fitted {
        label_w = label_w.max(f.margins[0]);
        right_w = right_w.max(f.margins[1]);
    }
    let plot_w = area.width.saturating_sub(label_w + 1 + right_w);
    if plot_w < 4 {
        return false;
    }
    let plot = Rect { x: area.x + label_w + 1, y: area.y, width: plot_w, height: plot_rows };
    // A value axis runs on to its round tick at or past the data's end.
    let w = usize::from(plot_w);
    let most = (w / 12).clamp(1, 6) + 1;
    // A time axis keeps its span and is labelled on its round seconds.
    let axis = |x: [f64; 2]| {
        let x = with_span(x);
        if data.x_unit == "s" {
            (x, time_x_ticks(x, w, most, data.x_unit))
        } else {
            value_x_axis(x, w, most, data.x_unit).map_or((x, None), |(x, t)| (x, Some(t)))
        }
    };
    let (x, x_ticks) = axis(data.x);
    let second = data.x2.as_ref().map(|a| axis(a.x));
    let g = Geometry { plot, rows, y, x, x2: second.as_ref().map(|s| s.0), data, hidden };
    draw_y_axis(buf, &g, &labels, area.x + label_w, look);
    let axis_y = plot.y + plot_rows;
    let first_name = data.x2.as_ref().map(|_| ("global", look.series(2)));
    // Labels on the axis line take the places of its ticks.
    let below = u16::from(!labels_on_axis);
    x_labels(buf, plot, (axis_y, below, !labels_on_axis), (x, x_ticks), data.x_unit, first_name, look);
    if let (Some(a), Some(axis)) = (&data.x2, second) {
        let name = Some((a.name.as_str(), look.series(a.color)));
        x_labels(buf, plot, (axis_y, below + 1, false), axis, data.x_unit, name, look);
    }
    draw_curves(buf, &g, look);
    draw_line_marks(buf, &g, look);
    draw_scatter_marks(buf, &g, look);
    for m in data.marks.iter().filter(|m| m.at.0.is_finite() && m.at.1.is_finite()) {
        let mx = g.x_of(m.at.0, m.second_x);
        let x = g.x;
        if (x[0]..=x[1]).contains(&mx) {
            let col = ((mx - x[0]) / (x[1] - x[0]).max(1e-12) * (plot_w - 1) as f64).round() as u16;
            buf.set_string(plot.x + col, g.row_of(m.at.1), m.glyph.to_string(), look.series(m.color));
        }
    }
    draw_end_values(buf, &g, &end_values, look);
    true
}

/// `x`, or where it has no span to speak of (chart 3 with every
/// threshold 0, its axis from 0 to a rounding error labelled `0 0 0 0 0 0
/// MiB`) one unit from its start: `0 0.2 0.4 0.6 0.8 1.0 MiB`.
fn with_span(x: [f64; 2]) -> [f64; 2] {
    if x[1] - x[0] > 1e-9 * x[0].abs().max(1.0) || !x[0].is_finite() { x } else { [x[0], x[0] + 1.0] }
}

/// The y axis: its line, the tick labels (right-aligned to `label_end`)
/// and the unit in the corner, and the x axis line.
fn draw_y_axis(buf: &mut Buffer, g: &Geometry, labels: &[String], label_end: u16, look: &Look) {
    let t = look.theme;
    let plot = g.plot;
    for r in 0..plot.height {
        buf.set_string(plot.x - 1, plot.y + r, "│", t.dim);
    }
    for (v, label) in g.y.ticks.iter().zip(labels) {
        let r = g.row_of(*v);
        buf.set_string(plot.x - 1 - label.chars().count() as u16, r, label, t.dim);
        buf.set_string(plot.x - 1, r, "┤", t.dim);
    }
    let axis_y = plot.y + plot.height;
    let unit = g.data.y_unit;
    buf.set_string(label_end.saturating_sub(unit.chars().count() as u16), axis_y, unit, t.dim);
    buf.set_string(plot.x - 1, axis_y, "└", t.dim);
    buf.set_string(plot.x, axis_y, "─".repeat(plot.width as usize), t.dim);
}

/// The gridlines, each on a layer of its own, then the series on one
/// layer over them: greyed lines (computed, not used by this kernel)
/// first, the threshold lines (those with a value at their right end)
/// over them, the other lines (the measured ones, chart 3's curves) over
/// those, and dots over everything.
/// Where two lines share a cell, its braille dots are those of both, in
/// the colour of the one drawn last: a measured line that rides on its
/// threshold (dirty at the setpoint, dirty_ratelimit at write_bw/N) keeps
/// its colour, and the threshold shows where the line leaves it, and by
/// its value at the right end. Drawn the other way, dirty_ratelimit
/// converged to write_bw/N left no cell of chart 4 in its colour.
fn draw_curves(buf: &mut Buffer, g: &Geometry, look: &Look) {
    let data = g.data;
    let x = g.x;
    let dim = look.theme.dim.fg.unwrap_or(Color::Reset);
    let canvas = Canvas::default().marker(look.marker).x_bounds(x).y_bounds(g.y.range).paint(|ctx: &mut Context| {
        for grid in &data.gridlines {
            let gy = g.y.at(*grid);
            let n = (g.plot.width as usize * 2).max(2);
            let coords: Vec<(f64, f64)> =
                (0..n).filter(|i| i % 3 == 0).map(|i| (x[0] + (x[1] - x[0]) * i as f64 / n as f64, gy)).collect();
            ctx.draw(&Points { coords: &coords, color: dim });
            ctx.layer();
        }
        // Dots over every line: chart 5's sleeps at the 200 ms cap were
        // hidden under max_pause.
        let layer = |s: &Series| match s.draw {
            Draw::Scatter => 3,
            _ if s.shadow => 0,
            _ if s.end_label => 1,
            _ => 2,
        };
        let indexed = || data.series.iter().enumerate();
        let order = (0..4).flat_map(|l| indexed().filter(move |(_, s)| layer(s) == l));
        for (_, s) in order.filter(|(i, _)| !g.hidden[*i]) {
            let color = look.style(s).fg.unwrap_or(Color::Reset);
            let (on, off) = match (look.mono_line(s), s.draw) {
                (Some(m), _) => (m.on, m.off),
                (None, Draw::Dashed) => (2, 2),
                (None, _) => (1, 0),
            };
            // Segments are counted across gaps, so a dash pattern runs on.
            let mut k = 0;
            for run in finite_runs(&s.points) {
                let pts: Vec<(f64, f64)> = run.iter().map(|&(px, py)| (g.x_of(px, s.second_x), g.y.at(py))).collect();
                match s.draw {
                    // Written as its glyph instead, over the canvas.
                    Draw::Scatter if look.scatter_mark(s).is_some() => {}
                    Draw::Scatter => ctx.draw(&Points { coords: &pts, color }),
                    Draw::Line | Draw::Dashed => {
                        for w in pts.windows(2) {
                            if k % (on + off) < on {
                                ctx.draw(&Segment::new(w[0].0, w[0].1, w[1].0, w[1].1, color));
                            }
                            k += 1;
                        }
                        if pts.len() == 1 {
                            ctx.draw(&Points { coords: &pts, color });
                        }
                    }
                }
            }
        }
    });
    ratatui::widgets::Widget::render(canvas, g.plot, buf);
}

/// The points of mono scatter series told by a glyph
/// ([`Look::scatter_mark`]), each written in its cell, but for cells the
/// dots of another series hold: a call that is one sleep is that sleep's
/// dot (IO-less calls mostly are; marks over them hid every sleep).
fn draw_scatter_marks(buf: &mut Buffer, g: &Geometry, look: &Look) {
    if !look.mono() {
        return;
    }
    let plot = g.plot;
    let (x, y) = (g.x, g.y.range);
    // The cell the canvas puts a point's dot in, where the point is on
    // the plot: its dot rounded to the nearest of the grid's, a braille
    // cell two dots wide (ratatui's `Painter::get_point`).
    let per_col = if look.marker == Marker::Braille { 2.0 } else { 1.0 };
    let dots = f64::from(plot.width) * per_col;
    let cell = |s: &Series, &(px, py): &(f64, f64)| {
        let (cx, cy) = (g.x_of(px, s.second_x), g.y.at(py));
        if !(x[0]..=x[1]).contains(&cx) || !(y[0]..=y[1]).contains(&cy) || x[1] <= x[0] {
            return None;
        }
        let dot = ((cx - x[0]) * (dots - 1.0).max(0.0) / (x[1] - x[0])).round();
        let col = (dot / per_col) as u16;
        Some((plot.x + col.min(plot.width.saturating_sub(1)), g.row_at(cy)))
    };
    let dotted: std::collections::HashSet<(u16, u16)> = g
        .shown()
        .filter(|s| s.draw == Draw::Scatter && look.scatter_mark(s).is_none())
        .flat_map(|s| finite_runs(&s.points).flatten().filter_map(move |p| cell(s, p)))
        .collect();
    for s in g.shown() {
        let Some(mark) = look.scatter_mark(s) else { continue };
        for (cx, cy) in finite_runs(&s.points).flatten().filter_map(|p| cell(s, p)) {
            if !dotted.contains(&(cx, cy)) {
                buf.set_string(cx, cy, mark, look.style(s));
            }
        }
    }
}

/// Columns between two glyphs of a mono line drawn with one.
const MARK_EVERY: u16 = 12;

/// The glyphs mono lines past the dash patterns are told apart by, on
/// the line every [`MARK_EVERY`] columns, each line's at other columns
/// than the others' so that they do not hide each other.
fn draw_line_marks(buf: &mut Buffer, g: &Geometry, look: &Look) {
    let plot = g.plot;
    let x = g.x;
    let col_w = (x[1] - x[0]) / f64::from(plot.width.max(1));
    for s in g.shown() {
        let Some(mark) = look.mono_line(s).and_then(|m| m.mark) else { continue };
        let slot = (s.mono % MONO_LINES.len()) as u16;
        let first = (slot * 4 + 3) % MARK_EVERY;
        for col in (first..plot.width).step_by(usize::from(MARK_EVERY)) {
            let cx = x[0] + (f64::from(col) + 0.5) * col_w;
            // On the axis as drawn (in logs on a log axis).
            let placed = |&(px, py): &(f64, f64)| (g.x_of(px, s.second_x), g.y.at(py));
            // The point nearest the column's middle, if one is in it; else
            // where a segment of the line crosses it (a line of two points,
            // as the 1/4 floor, has its marks along it too), within a run
            // of known values: the line leaves a gap between runs.
            let near = finite_runs(&s.points)
                .flatten()
                .map(placed)
                .min_by(|a, b| (a.0 - cx).abs().total_cmp(&(b.0 - cx).abs()))
                .filter(|p| (p.0 - cx).abs() <= col_w);
            let crossing = || {
                finite_runs(&s.points).find_map(|run| {
                    run.windows(2).find_map(|w| {
                        let ((x0, y0), (x1, y1)) = (placed(&w[0]), placed(&w[1]));
                        let (lo, hi) = (x0.min(x1), x0.max(x1));
                        (lo <= cx && cx <= hi && hi > lo).then(|| (cx, y0 + (y1 - y0) * (cx - x0) / (x1 - x0)))
                    })
                })
            };
            if let Some((px, a)) = near.or_else(crossing)
                && (x[0]..=x[1]).contains(&px)
            {
                buf.set_string(plot.x + col, g.row_at(a), mark.to_string(), look.style(s));
            }
        }
    }
}

/// The runs of a series' points between the values that are not known: a
/// NaN (or an infinity) leaves a gap in the line, where the canvas would
/// put it on the plot's top edge.
pub fn finite_runs(points: &[(f64, f64)]) -> impl Iterator<Item = &[(f64, f64)]> {
    points.split(|p| !(p.0.is_finite() && p.1.is_finite())).filter(|run| !run.is_empty())
}

/// Line values right of the plot, each on its line's row (see
/// [`place_values`]): values sharing a row are written together, the
/// higher first, `645/553`.
fn draw_end_values(buf: &mut Buffer, g: &Geometry, values: &[(u16, Vec<(String, Style)>)], look: &Look) {
    let plot = g.plot;
    for (row, parts) in values {
        let mut x = plot.x + plot.width + 1;
        for (i, (text, style)) in parts.iter().enumerate() {
            if i > 0 {
                buf.set_string(x, plot.y + row, "/", look.theme.dim);
                x += 1;
            }
            buf.set_string(x, plot.y + row, text, *style);
            x += text.chars().count() as u16;
        }
    }
}

/// The line values `values` (value, text, style; most important first)
/// by row on a plot of `rows`, on `width` columns: [`place_values`],
/// two to a row where that leaves the values' column no wider than a
/// quarter of the chart (`645/553` at 100x30; a sixth left hdd-1000dd's
/// setpoint there without its value, and with dirty drawn over it,
/// without a visible line), else one.
fn end_value_rows(values: Vec<LineValue>, rows: &Rows, y: &YAxis, width: u16) -> Vec<(u16, Vec<(String, Style)>)> {
    let want: Vec<u16> = values.iter().map(|(v, _, _)| rows.row(y.at(*v).clamp(y.range[0], y.range[1]))).collect();
    let by_row = |pair: bool| {
        let placed = place_values(&want, rows.count(), pair);
        let mut out: Vec<(u16, Vec<LineValue>)> = Vec::new();
        for ((v, text, style), row) in values.iter().zip(placed) {
            let Some(row) = row else { continue };
            match out.iter_mut().find(|(r, _)| *r == row) {
                Some((_, parts)) => parts.push((*v, text.clone(), *style)),
                None => out.push((row, vec![(*v, text.clone(), *style)])),
            }
        }
        out.into_iter()
            .map(|(row, mut parts)| {
                parts.sort_by(|a, b| b.0.total_cmp(&a.0));
                (row, parts.into_iter().map(|(_, t, s)| (t, s)).collect::<Vec<_>>())
            })
            .collect::<Vec<_>>()
    };
    let widest = |r: &[(u16, Vec<(String, Style)>)]| r.iter().map(|(_, p)| parts_width(p)).max().unwrap_or(0);
    let single = by_row(false);
    let paired = by_row(true);
    if widest(&paired) <= widest(&single).max(usize::from(width) / 4) { paired } else { single }
}

/// A line value: its value, text and style.
type LineValue = (f64, String, Style);

/// Columns line values written together take: each, and a `/` between.
fn parts_width(parts: &[(String, Style)]) -> usize {
    parts.iter().map(|(t, _)| t.chars().count()).sum::<usize>() + parts.len().saturating_sub(1)
}

/// Rows for line values that want rows `want` (most important first) on a plot `rows` high: each on its line's row and
/// nowhere else (a value on a row its line does not pass through reads as
/// another line's: at 100x30, 553 stood a row under its line, beside
/// none). Where lines share a row the most important keeps it, and with
/// `pair` the next one too (written beside it); the others are left out,
/// `None`.
fn place_values(want: &[u16], rows: u16, pair: bool) -> Vec<Option<u16>> {
    let room = if pair { 2 } else { 1 };
    let mut placed: Vec<Option<u16>> = vec![None; want.len()];
    for (i, &row) in want.iter().enumerate() {
        if row < rows && placed.iter().filter(|p| **p == Some(row)).count() < room {
            placed[i] = Some(row);
        }
    }
    placed
}

/// The values written at the right ends of labelled lines: (value, text,
/// style); lines ending on the same value share one, and a line whose
/// value is not known yet has none (the title says so), nor has a line
/// left out (`hidden`, see [`Fit`]).
fn end_labels(data: &ChartData, hidden: &[bool], look: &Look) -> Vec<LineValue> {
    let mut out: Vec<LineValue> = Vec::new();
    for (s, _) in data.series.iter().zip(hidden).rev().filter(|(_, hidden)| !**hidden) {
        let Some(&(_, v)) = s.points.last().filter(|&&(_, v)| s.end_label && v.is_finite()) else { continue };
        let value = show(v);
        if out.iter().any(|(_, text, _)| text.ends_with(&value)) {
            continue;
        }
        let text = if look.mono() { format!("{}{value}", look.glyph(s)) } else { value };
        out.push((v, text, look.style(s)));
    }
    out
}

/// Writes x tick labels `below` rows under the axis at row `axis_y` (0:
/// on the axis line): `ticks` where the axis has them (see
/// [`value_x_axis`] and [`time_x_ticks`]), else evenly spaced over the
/// plot's width with the unit after the last; and, if `tick`, ticks on
/// the axis; `name` prefixes a second axis.
fn x_labels(
    buf: &mut Buffer,
    plot: Rect,
    (axis_y, below, tick): (u16, u16, bool),
    (x, ticks): ([f64; 2], Option<XTicks>),
    unit: &str,
    name: Option<(&str, Style)>,
    look: &Look,
) {
    let y = axis_y + below;
    let t = look.theme;
    let span = x[1] - x[0];
    let w = plot.width as usize;
    let n = (w / 12).clamp(1, 6) + 1;
    if let Some(ticks) = ticks {
        for (start, text, at) in ticks {
            buf.set_string(plot.x + start as u16, y, &text, t.dim);
            if at > 0 && at < w - 1 && tick {
                buf.set_string(plot.x + at as u16, axis_y, "┬", t.dim);
            }
        }
        if let Some((name, style)) = name {
            let x0 = plot.x.saturating_sub(name.chars().count() as u16 + 1);
            buf.set_string(x0, y, name, style);
        }
        return;
    }
    let step = span / (n - 1) as f64;
    // Tenths where a tick needs them; none where every tick is whole
    // (7170 7175 … 7200 s, not 7170.0 7175.0 …).
    let whole = (0..n).all(|i| format!("{:.1}", x[0] + step * i as f64).ends_with(".0"));
    let label = |v: f64| if whole || step >= 10.0 || span >= 100.0 { format!("{v:.0}") } else { format!("{v:.1}") };
    let mut last_end = 0usize;
    for i in 0..n {
        let v = x[0] + step * i as f64;
        let mut text = label(v);
        if i == n - 1 {
            text = format!("{text} {unit}");
        }
        let len = text.chars().count();
        let at = (i * (w - 1)) / (n - 1);
        let start = if i == 0 {
            0
        } else if i == n - 1 {
            w.saturating_sub(len)
        } else {
            at.saturating_sub(len / 2)
        };
        if i > 0 && start < last_end + 1 {
            continue;
        }
        buf.set_string(plot.x + start as u16, y, &text, t.dim);
        if i > 0 && i < n - 1 && tick {
            buf.set_string(plot.x + at as u16, axis_y, "┬", t.dim);
        }
        last_end = start + len;
    }
    if let Some((name, style)) = name {
        let x0 = plot.x.saturating_sub(name.chars().count() as u16 + 1);
        buf.set_string(x0, y, name, style);
    }
}

/// A value axis' ticks: (column the label starts at, label, column of
/// the tick).
type XTicks = Vec<(usize, String, usize)>;

/// A value axis (not time) over `x`, `w` columns wide: its range, run
/// on to the first multiple of a round step (1, 2 or 5 times a power of
/// ten) at or past `x`'s end, and its ticks, (column the label starts at,
/// label, column of the tick), each where its value is on the axis: the
/// last number ends at the axis' end, over its tick, and the unit follows
/// the first (`0 MiB 100 200 300 400 500` for data to 416 MiB), where
/// it once followed the last and pushed that number left of its place
/// (`800 MiB` ending at 800 put `800` over 737, where chart 3's limit
/// stood). Of
/// the steps whose labels, at most `most` and one more, stay two columns
/// apart, the one running on least past the data, the one with more
/// labels on a tie. Where that leaves two labels, the axis' ends, a step
/// of 2.5 times a power of ten gives a third where one fits: `0 MiB 250
/// 500` for data to 416 MiB on 39 columns, where it read `0 MiB 500`.
/// `None` when no two such ticks fit.
fn value_x_axis(x: [f64; 2], w: usize, most: usize, unit: &str) -> Option<([f64; 2], XTicks)> {
    let best = value_x_axis_on(x, w, most, unit, round_step, 2)?;
    if best.1.len() >= 3 {
        return Some(best);
    }
    value_x_axis_on(x, w, most, unit, nice, 3).or(Some(best))
}

/// [`value_x_axis`] on the steps `next` gives (the round step at or above
/// a value), of those with at least `fewest` ticks.
fn value_x_axis_on(
    x: [f64; 2],
    w: usize,
    most: usize,
    unit: &str,
    next: fn(f64) -> f64,
    fewest: usize,
) -> Option<([f64; 2], XTicks)> {
    let span = x[1] - x[0];
    if span.is_nan() || span <= 0.0 || w < 2 {
        return None;
    }
    let mut best: Option<([f64; 2], XTicks)> = None;
    let mut step = next(span / (most + 1) as f64);
    while step <= span * 2.0 {
        let first = (x[0] / step - 1e-9).ceil() as i64;
        let last = ((x[1] / step - 1e-9).ceil() as i64).max(first + 1);
        let end = last as f64 * step;
        let count = usize::try_from(last - first + 1).unwrap_or(usize::MAX);
        if count <= most + 1 {
            let at = |v: f64| (((v - x[0]) / (end - x[0]) * (w - 1) as f64).round() as usize).min(w - 1);
            // The last number ends where the axis does, over its tick;
            // the unit follows the first.
            let ticks = labelled_ticks(first..=last, step, "", at, |_, len, _| w.checked_sub(len))
                .and_then(|ticks| unit_after_first(ticks, unit));
            let better = |b: &([f64; 2], Vec<_>)| end < b.0[1] - step * 1e-9;
            let ticks = ticks.filter(|t| t.len() >= fewest);
            if let Some(ticks) = ticks.filter(|_| best.as_ref().is_none_or(better)) {
                best = Some(([x[0], end], ticks));
            }
        }
        step = next(step * 1.01);
    }
    best
}

/// `ticks` with `unit` after the first number, where it stays two
/// columns clear of the second label.
fn unit_after_first(mut ticks: XTicks, unit: &str) -> Option<XTicks> {
    if unit.is_empty() {
        return Some(ticks);
    }
    let Some(first) = ticks.first_mut() else { return Some(ticks) };
    first.1 = format!("{} {unit}", first.1);
    let end = first.0 + first.1.chars().count();
    ticks.get(1).is_some_and(|next| end + 2 <= next.0).then_some(ticks)
}

/// Ticks for a time axis over `x`, `w` columns wide, at most `most`, as
/// [`value_x_axis`] places them but within the axis' own span (a time
/// axis is not stretched past now): on multiples of a round step (1, 2 or
/// 5 times a power of ten seconds, or 15 or 30 s), each number over its
/// tick and apart from the next. Of the steps that fit (with three labels
/// or more where some do), the one whose last tick is nearest the axis'
/// end, the one with more labels on a tie:
/// a minute on 23 columns reads `0 30 60 s`, where it read `0 50 s` and a
/// bare stretch of axis after it. The unit follows the last number where
/// that ends at the axis' end (`60 s` under the end of an axis to 60 s);
/// where the last tick falls short of the end, the unit stands alone at
/// the end (`0 2 4   s` for an axis to 4.7 s), so that the axis past the
/// last number is not read as over by then. A run 11.9 s old reads `0 2 4
/// 6 8 10 s`, where evenly spaced labels read `0.0 2.0 4.0 6.0 7.9 9.9
/// 11.9 s`. `None` when no two such ticks fit.
fn time_x_ticks(x: [f64; 2], w: usize, most: usize, unit: &str) -> Option<XTicks> {
    let span = x[1] - x[0];
    if span.is_nan() || span <= 0.0 || w < 2 {
        return None;
    }
    let at = |v: f64| (((v - x[0]) / span * (w - 1) as f64).round() as usize).min(w - 1);
    // The last number with the unit after it, moved left to end where the
    // axis does as long as it still stands over its tick.
    let joined = |centred: usize, len: usize, tick: usize| {
        let start = centred.min(w.checked_sub(len)?);
        (start + len == w && start + len > tick && start <= tick).then_some(start)
    };
    let alone = format!(" {unit}");
    let alone_len = alone.chars().count();
    let mut best: Option<((bool, usize, usize), XTicks)> = None;
    // From the round step that spreads `most` labels over the span, as
    // before; 15 and 30 s come in above it.
    let mut step = round_step(span / (most + 1) as f64);
    while step <= span {
        let first = (x[0] / step - 1e-9).ceil() as i64;
        let mut last = (x[1] / step + 1e-9).floor() as i64;
        // The last tick takes the unit, joined or alone at the end; where
        // it has room for neither, the one before it does.
        let placed = loop {
            if last <= first {
                break None;
            }
            let v = last as f64 * step;
            let number = tick_label(v, step).chars().count();
            let centred = at(v).saturating_sub(number / 2);
            let with_unit = number + 1 + unit.chars().count();
            if let Some(start) = joined(centred, with_unit, at(v)) {
                break Some((last, start, true));
            }
            if centred + number <= w - alone_len {
                break Some((last, centred, false));
            }
            last -= 1;
        };
        let count = usize::try_from(last - first + 1).unwrap_or(0);
        if let Some((last, start, with_unit)) = placed.filter(|_| (2..=most + 1).contains(&count)) {
            let last_start = |_: usize, _: usize, _: usize| Some(start);
            let shown = if with_unit { unit } else { "" };
            if let Some(mut ticks) = labelled_ticks(first..=last, step, shown, at, last_start) {
                let stub = w - 1 - at(last as f64 * step);
                if !with_unit {
                    ticks.push((w - alone_len, alone.clone(), w - 1));
                }
                // Three labels or more, where some step gives them, over
                // two at the ends: `0 2 4   s`, not `0 5 s`, for 5 s on
                // 46 columns.
                let key = (count < 3, stub, usize::MAX - count);
                if best.as_ref().is_none_or(|(k, _)| key < *k) {
                    best = Some((key, ticks));
                }
            }
        }
        step = time_step(step * 1.01);
    }
    best.map(|(_, ticks)| ticks)
}

/// The ticks at `ks` times `step`, left to right, at their columns `at`:
/// each label centred on its tick, the last with the unit after it and
/// starting where `last_start` (its centred start, its length with the
/// unit, its tick's column) puts it. `None` when a label comes within two
/// columns of the one before it or the last has no place.
fn labelled_ticks(
    ks: std::ops::RangeInclusive<i64>,
    step: f64,
    unit: &str,
    at: impl Fn(f64) -> usize,
    last_start: impl Fn(usize, usize, usize) -> Option<usize>,
) -> Option<XTicks> {
    let (first, last) = (*ks.start(), *ks.end());
    let mut ticks = Vec::new();
    let mut last_end = 0;
    for k in ks {
        let v = k as f64 * step;
        let number = tick_label(v, step);
        let centred = at(v).saturating_sub(number.chars().count() / 2);
        let (text, start) = if k == last {
            let text = if unit.is_empty() { number } else { format!("{number} {unit}") };
            let start = last_start(centred, text.chars().count(), at(v))?;
            (text, start)
        } else {
            (number, centred)
        };
        if k > first && start < last_end + 2 {
            return None;
        }
        last_end = start + text.chars().count();
        ticks.push((start, text, at(v)));
    }
    Some(ticks)
}

/// The smallest round step of time at or above `x` \[s\]: 1, 2 or 5
/// times a power of ten, or 15 or 30 (half and quarter minutes).
fn time_step(x: f64) -> f64 {
    let step = round_step(x);
    [15.0, 30.0].into_iter().find(|&s| s >= x * (1.0 - 1e-12) && s < step).unwrap_or(step)
}

/// The smallest of 1, 2 and 5 times a power of ten at or above `x`.
fn round_step(x: f64) -> f64 {
    let p = 10f64.powf(x.max(1e-12).log10().floor());
    [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * p).find(|&v| v >= x * (1.0 - 1e-12)).unwrap_or(10.0 * p)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plain line of `points`, in colour 0 and mono pattern 0, without
    /// an end label.
    fn line_series(name: &'static str, points: Vec<(f64, f64)>) -> Series {
        Series {
            name,
            short: name,
            points,
            color: 0,
            draw: Draw::Line,
            mono: 0,
            end_label: false,
            shadow: false,
            second_x: false,
        }
    }

    #[test]
    fn a_note_wraps_between_words_and_says_where_it_is_cut() {
        let note = "dirty_ratelimit: computed, not yet used (before patch 07)";
        assert_eq!(note_lines(note, 28, 3), ["dirty_ratelimit: computed,", "not yet used (before patch", "07)"]);
        assert_eq!(note_lines(note, 28, 2), ["dirty_ratelimit: computed,", "not yet used (before patch…"]);
        assert_eq!(note_lines(note, 28, 1), ["dirty_ratelimit: computed…"]);
        assert_eq!(note_lines(note, 60, 1), [note], "whole where it fits");
        assert_eq!(note_lines(NO_ROOM, 40, 1), ["no room to plot: a larger window shows…"]);
        assert!(note_lines(NO_ROOM, 40, 0).is_empty());
        assert_eq!(note_rows(note, 28), 3);
    }

    #[test]
    fn linear_ticks_are_round_and_cover_the_range() {
        assert_eq!(linear_ticks(0.0, 796.0, 5), vec![0.0, 200.0, 400.0, 600.0, 800.0]);
        assert_eq!(linear_ticks(0.0, 1.3, 3), vec![0.0, 1.0, 2.0]);
        assert_eq!(linear_ticks(0.0, 0.9, 4), vec![0.0, 0.5, 1.0, 1.5]);
        let t = linear_ticks(0.0, 25.0, 6);
        assert_eq!(t.len(), 6);
        assert!(t[5] >= 25.0 && t[0] == 0.0);
    }

    #[test]
    fn a_short_axis_tops_out_near_the_data_on_round_ticks() {
        // Chart 1 four rows high (three labels at most), 737 MiB plus its
        // margin: 0 400 800, where it read 0 500 1000.
        assert_eq!(best_linear_ticks(0.0, 774.0, 3), vec![0.0, 400.0, 800.0]);
        // Seven or eight rows (four labels at most) as tightly: it read
        // 0 500 1000, no step of 200 or 250 fitting in four labels.
        assert_eq!(best_linear_ticks(0.0, 774.0, 4), vec![0.0, 400.0, 800.0]);
        // Room for more labels: a round step each.
        assert_eq!(best_linear_ticks(0.0, 774.0, 6), vec![0.0, 200.0, 400.0, 600.0, 800.0]);
        assert_eq!(best_linear_ticks(0.0, 26.0, 6), vec![0.0, 10.0, 20.0, 30.0]);
        // Every other step is labelled only on a short plot: a tall one
        // reads 0 250 500 … for 1150, not 0 400 800 1200.
        assert_eq!(best_linear_ticks(0.0, 1150.0, 6), vec![0.0, 250.0, 500.0, 750.0, 1000.0, 1250.0]);
        for (hi, most) in [(774.0, 3), (420.0, 3), (0.93, 4), (105.0, 5), (3.3e6, 6), (1.0, 2)] {
            let t = best_linear_ticks(0.0, hi, most);
            assert!(t.len() <= most && t[0] == 0.0 && t[t.len() - 1] >= hi, "{hi} {most}: {t:?}");
            let step = t[1] - t[0];
            let mantissa = step / 10f64.powf(step.log10().floor());
            assert!([1.0, 2.0, 2.5, 4.0, 5.0].iter().any(|m| (m - mantissa).abs() < 1e-9), "{hi}: {t:?}");
        }
    }

    #[test]
    fn an_axis_ends_at_the_first_round_tick_over_the_data_not_its_margin() {
        // A trace's chart 1 five rows high (three labels), thresh 4773 MiB
        // with the 5% margin above it (5012): it read 0 5000 10000, half
        // of it empty; 5000 holds the data.
        let data =
            ChartData { y: [0.0, 4773.0 * 1.05], y_margin: 1.05, ..ChartData::new(Vec::new(), [0.0, 1.0], "MiB") };
        assert_eq!(YAxis::new(&data, 5).ticks, vec![0.0, 2500.0, 5000.0]);
        // Where the data itself passes the round tick, the axis goes on.
        let data = ChartData { y: [0.0, 5020.0 * 1.05], ..data };
        assert!(YAxis::new(&data, 5).ticks.last() >= Some(&5020.0));
        // Without a margin the whole range is covered, as before.
        let data = ChartData { y: [0.0, 5012.0], y_margin: 1.0, ..data };
        assert!(YAxis::new(&data, 5).ticks.last() >= Some(&5012.0));
    }

    #[test]
    fn a_short_axis_takes_a_label_more_rather_than_end_far_above_the_data() {
        // jbod-10hdd's chart 1 at 100x30, six rows: thresh 2949 MiB with
        // its margin. It read 0 2000 4000 (three labels, one every other
        // row); seven rows read 0 1000 2000 3000, and so do six now.
        let data =
            ChartData { y: [0.0, 2949.0 * 1.05], y_margin: 1.05, ..ChartData::new(Vec::new(), [0.0, 1.0], "MiB") };
        for rows in [7, 10, 11] {
            assert_eq!(YAxis::new(&data, rows).ticks, vec![0.0, 1000.0, 2000.0, 3000.0], "{rows} rows");
        }
        // Six rows have no room for 1000 and 2000 evenly apart: the ends.
        assert_eq!(YAxis::new(&data, 6).ticks, vec![0.0, 3000.0]);
        // nfs-1dd's 1024 MiB: 0 1000 2000 on six rows, half of it empty;
        // 0 500 1000 1500 on eight, where they stand evenly apart.
        let data = ChartData { y: [0.0, 1024.0 * 1.05], ..data };
        assert_eq!(YAxis::new(&data, 8).ticks, vec![0.0, 500.0, 1000.0, 1500.0]);
        // Never more labels than rows, and an axis that ends near its data
        // keeps its three: 737 MiB reads 0 400 800.
        assert_eq!(YAxis::new(&data, 3).ticks, vec![0.0, 1000.0, 2000.0]);
        let data = ChartData { y: [0.0, 737.0 * 1.05], ..data };
        assert_eq!(YAxis::new(&data, 6).ticks, vec![0.0, 400.0, 800.0]);
    }

    #[test]
    fn every_y_label_states_its_ticks_exact_value() {
        let labels = |hi: f64, rows: u16| {
            let data = ChartData { y: [0.0, hi], ..ChartData::new(Vec::new(), [0.0, 1.0], "MiB/s") };
            let y = YAxis::new(&data, rows);
            (y.labels(), y.ticks)
        };
        // hdd-10dd's chart 4 at 100x30 (22 rows), rates to 12.3 MiB/s:
        // ticks at 12.5, 7.5 and 2.5 read 12, 8 and 2.
        assert_eq!(labels(12.3, 22).0, ["0", "5", "10", "15"]);
        // ukey-hdd's chart 4 at 160x48: 10, 8 (for 7.5), 5, 2 (2.5), 0.
        assert_eq!(labels(9.6, 11).0, ["0", "2", "4", "6", "8", "10"]);
        // hdd-100dd's 1.25 … 0.25 read 1.2 1.0 0.8 0.5 0.2.
        assert_eq!(labels(1.22, 11).0, ["0", "0.5", "1.0", "1.5"]);
        // hdd-1000dd and lesson 15: 0.1 0.08 0.05 0.03 for 0.1 … 0.025.
        assert_eq!(labels(0.098, 11).0, ["0", "0.02", "0.04", "0.06", "0.08", "0.10"]);
        assert_eq!(labels(0.12, 22).0, ["0", "0.05", "0.10", "0.15"]);
        // Whole steps of 2.5 times a power of ten stay: 0 250 500 … 1250.
        assert_eq!(labels(1150.0, 12).0, ["0", "250", "500", "750", "1000", "1250"]);
        // Whatever the range and rows, each label reads as its tick's value
        // and all of an axis' labels have as many decimals.
        for rows in 2..40 {
            for hi in [0.0123, 0.098, 0.12, 0.93, 1.22, 2.4, 9.6, 12.3, 26.0, 737.0, 1150.0, 4773.0] {
                let (labels, ticks) = labels(hi, rows);
                for (l, t) in labels.iter().zip(&ticks) {
                    let read: f64 = l.parse().expect("a number");
                    assert!((read - t).abs() <= t.abs() * 1e-9, "{hi} on {rows} rows: {l} for {t}");
                }
                let decimals = |l: &String| l.split_once('.').map_or(0, |(_, d)| d.len());
                let shown: Vec<usize> = labels.iter().filter(|l| *l != "0").map(decimals).collect();
                assert!(shown.windows(2).all(|p| p[0] == p[1]), "{hi} on {rows} rows: {labels:?}");
            }
        }
        // A step of 2.5 wherever one is still drawn (an x axis' third
        // label) is written with the decimal it needs.
        assert_eq!(tick_label(12.5, 2.5), "12.5");
        assert_eq!(tick_label(10.0, 2.5), "10.0");
        assert_eq!(tick_label(0.075, 0.025), "0.075");
        assert_eq!(tick_label(0.1, 0.05), "0.10");
        assert_eq!(tick_label(2500.0, 2500.0), "2500");
    }

    #[test]
    fn an_axis_without_span_is_labelled_with_distinct_values() {
        let theme = Theme::new(crate::app::ThemeKind::Mono);
        let look = Look { theme: &theme, marker: Marker::Braille, text_folds: false };
        // Chart 3 with --dirty-ratio 0: every threshold, and the axis, 0 MiB.
        let series = line_series("global", vec![(0.0, 1.0), (0.0, 0.0)]);
        let mut data = ChartData::new(vec![series.clone()], [0.0, 0.0], "");
        data.x_unit = "MiB";
        data.y = [0.0, 2.5];
        data.y_fixed = true;
        let area = Rect::new(0, 0, 60, 8);
        let mut buf = Buffer::empty(area);
        assert!(draw_axes_and_plot(&mut buf, area, 6, &data, &look, &Fit::plain(&data)));
        let row = row_text(&buf, 7);
        let words: Vec<&str> = row.split_whitespace().collect();
        // It read `0 0 0 0 0 0 MiB`.
        assert_eq!(words, ["0", "MiB", "0.2", "0.4", "0.6", "0.8", "1.0"], "{row}");
        // Its line is drawn, at the axis' start.
        assert!(!inked(&buf, 6).iter().all(Vec::is_empty), "the line at 0 is drawn");
        // As where the axis ends a rounding error past 0.
        data.x = [0.0, 1e-14];
        let mut buf = Buffer::empty(area);
        assert!(draw_axes_and_plot(&mut buf, area, 6, &data, &look, &Fit::plain(&data)));
        let row = row_text(&buf, 7);
        assert_eq!(row.split_whitespace().collect::<Vec<_>>(), ["0", "MiB", "0.2", "0.4", "0.6", "0.8", "1.0"]);
    }

    #[test]
    fn y_labels_stand_evenly_apart() {
        let rows_of = |data: &ChartData, rows: u16| {
            let y = YAxis::new(data, rows);
            let at = Rows::new(y.range, rows, Marker::Braille);
            (y.ticks.clone(), y.ticks.iter().map(|&v| at.row(v)).collect::<Vec<_>>())
        };
        let margin = |hi: f64| ChartData {
            y: [0.0, hi * 1.05],
            y_margin: 1.05,
            ..ChartData::new(Vec::new(), [0.0, 1.0], "MiB")
        };
        // hdd-1000dd's chart 1 at 100x30 (six rows): 3000 2000 1000 0 on
        // rows 0, 2, 3 and 5; now 3000 and 0.
        assert_eq!(rows_of(&margin(2949.0), 6), (vec![0.0, 3000.0], vec![5, 0]));
        // Chart 5 four rows high, max_pause 200 ms: 200 100 0 on rows 0,
        // 2 and 3; now 200 and 0.
        assert_eq!(rows_of(&margin(200.0), 4), (vec![0.0, 200.0], vec![3, 0]));
        // The default's chart 1 at 100x30: 800 400 0 on rows 0, 3, 5 stay
        // (no three ticks do better on six rows).
        assert_eq!(rows_of(&margin(737.0), 6), (vec![0.0, 400.0, 800.0], vec![5, 3, 0]));
        // Seven rows hold 0 1000 2000 3000 two rows apart.
        assert_eq!(rows_of(&margin(2949.0), 7), (vec![0.0, 1000.0, 2000.0, 3000.0], vec![6, 4, 2, 0]));
        // A fixed axis too: chart 3's 0 to 2.5.
        let fixed = ChartData { y: [0.0, 2.5], y_fixed: true, ..ChartData::new(Vec::new(), [0.0, 1.0], "") };
        for rows in 2..40 {
            let (ticks, at) = rows_of(&fixed, rows);
            assert!(ticks.len() >= 2 && evenly_apart(&at), "{rows} rows: {ticks:?} on {at:?}");
        }
        for rows in 2..40 {
            for hi in [0.027, 0.098, 1.22, 9.6, 12.3, 200.0, 737.0, 1024.0, 1150.0, 2949.0, 4773.0] {
                let (ticks, at) = rows_of(&margin(hi), rows);
                assert!(evenly_apart(&at), "{hi} on {rows} rows: {ticks:?} on {at:?}");
            }
        }
        assert!(!evenly_apart(&[5, 3, 2, 0]) && !evenly_apart(&[3, 1, 0]) && !evenly_apart(&[2, 2]));
        assert!(evenly_apart(&[7, 4, 0]) && evenly_apart(&[6, 4, 2, 0]) && evenly_apart(&[5, 0]));
    }

    #[test]
    fn a_value_axis_is_labelled_on_round_values_where_they_are() {
        let labels = |x: [f64; 2], w: usize, most: usize| {
            let (range, ticks) = value_x_axis(x, w, most, "MiB").expect("ticks");
            let mut row = vec![' '; w];
            for (start, text, _) in &ticks {
                for (i, c) in text.chars().enumerate() {
                    row[start + i] = c;
                }
            }
            let row = row.into_iter().collect::<String>().trim_end().to_string();
            (row, ticks.iter().map(|t| t.2).collect::<Vec<_>>(), range[1])
        };
        let words = |row: &str| row.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        // Chart 3 at 160x48 (62 columns, six labels at most): the axis
        // runs to 767 MiB, then on to 800; it read 0 153 307 460 614 767
        // MiB, then 0 200 400 600 MiB, ending short of the data.
        let (row, cols, end) = labels([0.0, 767.0], 62, 6);
        assert_eq!(words(&row), ["0", "MiB", "200", "400", "600", "800"]);
        assert_eq!(end, 800.0);
        // Each at its value's column: 600 of 800 is column 46 of 0..61,
        // the last number ending where the axis does, over its tick (with
        // the unit after it, 800 stood over 737, where the limit was).
        assert_eq!(cols, [0, 15, 31, 46, 61]);
        assert!(row.starts_with("0 MiB ") && row.ends_with(" 800") && row.chars().count() == 62, "{row}");
        // Narrower: fewer, still round, never run together.
        let (row, _, end) = labels([0.0, 767.0], 30, 3);
        assert_eq!((words(&row), end), (words("0 MiB 500 1000"), 1000.0));
        let (row, _, end) = labels([0.0, 22.0], 40, 4);
        assert_eq!((words(&row), end), (words("0 MiB 10 20 30"), 30.0));
        let (row, _, end) = labels([0.0, 0.9], 60, 5);
        assert_eq!((words(&row), end), (words("0 MiB 0.2 0.4 0.6 0.8 1.0"), 1.0));
        assert!(value_x_axis([0.0, 0.0], 40, 4, "MiB").is_none());
        // The trace's chart 3 at 100x30, zoomed (94 columns) and not (51):
        // the data end at 416 MiB; it read 0 100 200 300 MiB, 400 having
        // no room for its unit.
        let (row, _, end) = labels([0.0, 416.0], 94, 7);
        assert_eq!((words(&row), end), (words("0 MiB 100 200 300 400 500"), 500.0));
        let (row, cols, _) = labels([0.0, 416.0], 51, 5);
        assert_eq!(row, "0 MiB    100       200       300       400      500");
        assert_eq!(cols, [0, 10, 20, 30, 40, 50]);
        // At 80x24 (39 columns, four labels at most): no step of 1, 2 or
        // 5 hundred fits 100 to 500 after `0 MiB`; it read 0 … 500 MiB,
        // two labels over the whole axis.
        let (row, cols, end) = labels([0.0, 416.0], 39, 4);
        assert_eq!((words(&row), end), (words("0 MiB 250 500"), 500.0));
        assert_eq!(cols, [0, 19, 38]);
        // Where a 1, 2 or 5 step gives three labels, no 2.5 step.
        let (row, _, _) = labels([0.0, 767.0], 30, 3);
        assert_eq!(words(&row), words("0 MiB 500 1000"));
        // Whatever the width, the last tick is at or past the data's end
        // and labels stay apart.
        for w in 8..200 {
            for hi in [0.93, 22.0, 416.0, 767.0, 1150.0, 3.3e6] {
                let most = (w / 12).clamp(1, 6) + 1;
                let Some((range, ticks)) = value_x_axis([0.0, hi], w, most, "MiB") else { continue };
                assert!(range[1] >= hi && range[1] < hi * 2.5, "{w} {hi}: {range:?}");
                assert!(ticks.windows(2).all(|p| p[0].0 + p[0].1.chars().count() + 2 <= p[1].0), "{w} {hi}: {ticks:?}");
                let last = ticks.last().expect("two ticks at least");
                assert_eq!((last.2, last.0 + last.1.chars().count()), (w - 1, w), "{w} {hi}: {ticks:?}");
                // Three labels wherever a middle one fits (`0 MiB 2500k
                // 5000k` needs 27 columns).
                if w >= 27 {
                    assert!(ticks.len() >= 3, "{w} {hi}: {ticks:?}");
                }
            }
        }
    }

    #[test]
    fn a_time_axis_is_labelled_on_round_seconds_within_its_span() {
        let row = |x: [f64; 2], w: usize, most: usize| {
            let ticks = time_x_ticks(x, w, most, "s").expect("ticks");
            let mut row = vec![' '; w];
            for (start, text, _) in &ticks {
                for (i, c) in text.chars().enumerate() {
                    row[start + i] = c;
                }
            }
            (row.into_iter().collect::<String>().trim_end().to_string(), ticks)
        };
        let words = |row: &str| row.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        // The default 11.9 s in, chart 5 at 220x60 (131 columns): evenly
        // spaced labels read 0.0 2.0 4.0 6.0 7.9 9.9 11.9 s.
        let (text, _) = row([0.0, 11.9], 131, 7);
        assert_eq!(words(&text), ["0", "2", "4", "6", "8", "10", "s"]);
        // A lesson's compare 26.9 s in (72 columns): 0.0 5.4 10.8 … 26.9 s.
        let (text, ticks) = row([0.0, 26.9], 72, 7);
        assert_eq!(words(&text), ["0", "5", "10", "15", "20", "25", "s"]);
        // Each stands at its own column: 10 s of 26.9 at column 26 of 0..71.
        assert_eq!(ticks[2].2, 26);
        // A scrolling one-minute window: the round seconds in it, the last
        // at the axis' end written to end there.
        let (text, ticks) = row([140.0, 200.0], 50, 5);
        assert_eq!(words(&text), ["140", "160", "180", "200", "s"]);
        assert!(text.ends_with("200 s") && text.chars().count() == 50, "{text}");
        assert_eq!(ticks.last().map(|t| t.2), Some(49));
        let (text, _) = row([7173.4, 7203.4], 72, 7);
        assert_eq!(words(&text), ["7175", "7180", "7185", "7190", "7195", "7200", "s"]);
        // Tenths where the span is short.
        let (text, _) = row([0.0, 0.9], 60, 5);
        assert_eq!(words(&text), ["0", "0.2", "0.4", "0.6", "0.8", "s"]);
        // The trace's chart 2 at 100x30 (35 columns, its events from
        // 0.1 s): 0.1 2.0 3.9 s, three labels at most.
        let (text, _) = row([0.1, 3.9], 35, 3);
        assert_eq!(words(&text), ["1", "2", "3", "s"]);
        assert!(time_x_ticks([5.0, 5.0], 40, 4, "s").is_none());
        // An axis to 4.7 s at 80x24 (34 columns): the last round tick, 4,
        // is short of the end; it read `4 s` and a bare stretch of axis,
        // the unit now stands alone at the end.
        let (text, ticks) = row([0.0, 4.7], 34, 3);
        assert_eq!(text, "0             2             4    s");
        assert_eq!(ticks.last().map(|t| (t.1.as_str(), t.2)), Some((" s", 33)));
        // Chart 4's minute at 80x24 (23 columns, three labels at most):
        // the last tick at the end, where it read `0 … 50 s`.
        let (text, _) = row([0.0, 60.0], 23, 2);
        assert_eq!(text, "0         30       60 s");
        // Of the steps that fit, the last tick nearest the end.
        let (text, _) = row([0.0, 45.0], 62, 6);
        assert_eq!(words(&text), ["0", "15", "30", "45", "s"]);
        // But three labels rather than the ends alone.
        let (text, _) = row([0.0, 5.0], 46, 4);
        assert_eq!(words(&text), ["0", "2", "4", "s"]);
        // Whatever the width and span: within the span, apart, each number
        // over its tick, the unit after the last.
        for w in 8..200 {
            for x in [[0.0, 0.93], [0.0, 11.9], [0.0, 60.0], [37.2, 97.2], [0.0, 7203.0], [1e5, 1.003e5]] {
                let most = (w / 12).clamp(1, 6) + 1;
                let Some(ticks) = time_x_ticks(x, w, most, "s") else { continue };
                // The unit alone at the end is one entry more.
                let numbers = ticks.iter().filter(|t| t.1 != " s").count();
                assert!(numbers >= 2 && numbers <= most + 1, "{w} {x:?}: {ticks:?}");
                // Numbers two columns apart; the unit alone one (its blank).
                assert!(
                    ticks
                        .windows(2)
                        .all(|p| p[0].0 + p[0].1.chars().count() + usize::from(p[1].1 != " s") * 2 <= p[1].0),
                    "{w} {x:?}: {ticks:?}"
                );
                assert!(
                    ticks.iter().all(|t| t.0 <= t.2 && t.2 < t.0 + t.1.chars().count() && t.2 < w),
                    "{w} {x:?}: {ticks:?}"
                );
                // The last label, with the unit, ends where the axis does.
                let last = ticks.last().expect("two ticks at least");
                assert!(last.1.ends_with(" s") && last.0 + last.1.chars().count() == w, "{w} {x:?}: {ticks:?}");
            }
        }
    }

    #[test]
    fn log_ticks_are_powers_of_ten_at_least_three() {
        assert_eq!(log_ticks(0.5, 90.0, 5), vec![0.1, 1.0, 10.0, 100.0]);
        assert_eq!(log_ticks(2.0, 9.0, 5).len(), 3);
    }

    #[test]
    fn values_not_known_split_a_line_into_runs() {
        let nan = f64::NAN;
        let pts = [(0.0, 1.0), (1.0, nan), (2.0, 3.0), (3.0, 4.0), (4.0, f64::INFINITY), (5.0, nan), (6.0, 2.0)];
        let runs: Vec<&[(f64, f64)]> = finite_runs(&pts).collect();
        assert_eq!(runs, vec![&[(0.0, 1.0)][..], &[(2.0, 3.0), (3.0, 4.0)][..], &[(6.0, 2.0)][..]]);
        assert_eq!(finite_runs(&[(0.0, nan), (1.0, nan)]).count(), 0);
        assert_eq!(finite_runs(&[(nan, 1.0), (1.0, 1.0), (2.0, 1.0)]).count(), 1);
    }

    /// The columns of `buf`'s plot rows (right of the y axis) that hold a
    /// dot of a curve, row by row.
    fn inked(buf: &Buffer, plot_rows: u16) -> Vec<Vec<u16>> {
        (0..plot_rows)
            .map(|y| {
                let axis = (0..buf.area.width).find(|&x| matches!(buf[(x, y)].symbol(), "┤" | "│")).expect("axis");
                (axis + 1..buf.area.width)
                    .filter(|&x| buf[(x, y)].symbol().chars().any(|c| ('\u{2801}'..='\u{28ff}').contains(&c)))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn a_value_not_known_leaves_a_gap_not_a_line_along_an_edge() {
        let theme = Theme::new(crate::app::ThemeKind::Mono);
        let look = Look { theme: &theme, marker: Marker::Braille, text_folds: false };
        // Not known for the first half, then 5 and 6.
        let points: Vec<(f64, f64)> =
            (0..=40).map(|i| (i as f64 / 4.0, if i < 20 { f64::NAN } else { 5.0 + (i % 2) as f64 })).collect();
        let series = line_series("rate", points);
        for log in [false, true] {
            let mut data = ChartData::new(vec![series.clone()], [0.0, 10.0], "MiB/s");
            data.y = if log { [1.0, 100.0] } else { [0.0, 10.0] };
            data.log_y = log;
            let area = Rect::new(0, 0, 50, 12);
            let mut buf = Buffer::empty(area);
            assert!(draw_axes_and_plot(&mut buf, area, 10, &data, &look, &Fit::plain(&data)));
            let rows = inked(&buf, 10);
            let first_col = rows.iter().flatten().min().copied().expect("the known half is drawn");
            let axis = (0..50).find(|&x| buf[(x, 0)].symbol() == "┤").expect("axis");
            let plot_w = 50 - axis - 1;
            // The known half starts at the middle of the plot.
            assert!(first_col >= axis + plot_w / 2 - 1, "log {log}: ink from column {first_col}: {rows:?}");
            assert!(rows[0].is_empty() && rows[9].is_empty(), "log {log}: nothing along an edge: {rows:?}");
        }
    }

    /// Mono writes a call's `×` in the cell the canvas puts its dot in
    /// (rounded to the nearest dot, as ratatui does: truncating put a
    /// quarter of them a column off), but for cells a sleep's dots hold.
    #[test]
    fn mono_call_marks_sit_where_their_dots_would() {
        let scatter = |name: &'static str, mono: usize, points: Vec<(f64, f64)>| Series {
            draw: Draw::Scatter,
            mono,
            ..line_series(name, points)
        };
        let calls: Vec<(f64, f64)> = (0..97).map(|i| (i as f64 * 0.1037, 2.0 + (i % 7) as f64)).collect();
        let cells = |theme: crate::app::ThemeKind, series: Vec<Series>, ink: &dyn Fn(&str) -> bool| {
            let theme = Theme::new(theme);
            let look = Look { theme: &theme, marker: Marker::Braille, text_folds: false };
            let mut data = ChartData::new(series, [0.0, 10.0], "ms");
            data.y = [0.0, 10.0];
            let area = Rect::new(0, 0, 60, 12);
            let mut buf = Buffer::empty(area);
            assert!(draw_axes_and_plot(&mut buf, area, 10, &data, &look, &Fit::plain(&data)));
            let axis = (0..60).find(|&x| buf[(x, 0)].symbol() == "┤").expect("axis");
            let mut at: Vec<(u16, u16)> = (0..10)
                .flat_map(|y| (axis + 1..60).map(move |x| (x, y)))
                .filter(|&(x, y)| ink(buf[(x, y)].symbol()))
                .collect();
            at.sort_unstable();
            at
        };
        let braille = |c: &str| c.chars().any(|c| ('\u{2801}'..='\u{28ff}').contains(&c));
        let dots = cells(crate::app::ThemeKind::Dark, vec![scatter("call", 1, calls.clone())], &braille);
        let marks = cells(crate::app::ThemeKind::Mono, vec![scatter("call", 1, calls.clone())], &|c| c == "×");
        assert!(dots.len() > 40, "{dots:?}");
        assert_eq!(marks, dots, "a mark in each cell its dots are in, and nowhere else");
        // A sleep where the first call is: that cell keeps its dots.
        let sleep = vec![scatter("sleep", 0, vec![calls[0]])];
        let slept = cells(crate::app::ThemeKind::Dark, sleep.clone(), &braille);
        assert_eq!(slept.len(), 1);
        let with_sleep = [sleep, vec![scatter("call", 1, calls.clone())]].concat();
        let marked = cells(crate::app::ThemeKind::Mono, with_sleep, &|c| c == "×");
        assert_eq!(marked, dots.into_iter().filter(|c| *c != slept[0]).collect::<Vec<_>>());
    }

    #[test]
    fn a_chart_two_rows_high_names_itself_and_says_there_is_no_room() {
        let theme = Theme::new(crate::app::ThemeKind::Mono);
        let look = Look { theme: &theme, marker: Marker::Braille, text_folds: false };
        let data = ChartData::new(Vec::new(), [0.0, 10.0], "MiB/s");
        let title = Title { name: "4 rates".into(), short: "4 rates".into(), bdi: None, one_of_many: false };
        let backend = ratatui::backend::TestBackend::new(30, 2);
        let mut terminal = ratatui::Terminal::new(backend).expect("a test backend always builds");
        terminal.draw(|f| draw(f, f.area(), &data, &title, &look)).expect("draws");
        let buf = terminal.backend().buffer();
        let rows: Vec<String> =
            (0..2).map(|y| (0..30).map(|x| buf[(x, y)].symbol()).collect::<String>().trim_end().to_string()).collect();
        // No frame: a column in from the left, wrapped over both rows.
        assert_eq!(rows, [" 4 rates: no room, a larger", " window shows it"]);
    }

    #[test]
    fn a_measured_line_sharing_cells_with_its_threshold_keeps_its_colour() {
        let theme = Theme::new(crate::app::ThemeKind::Dark);
        let look = Look { theme: &theme, marker: Marker::Braille, text_folds: false };
        let flat = |v: f64| (0..=20).map(|i| (i as f64, v)).collect::<Vec<_>>();
        let line = |name, color, v, end_label| Series { color, end_label, ..line_series(name, flat(v)) };
        // Back to front, as the charts list them: the threshold, then the
        // measured line one dot row above it in the same row of cells.
        let data = ChartData {
            y: [0.0, 15.0],
            y_fixed: true,
            ..ChartData::new(vec![line("limit", 6, 12.0, true), line("dirty", 0, 14.0, false)], [0.0, 20.0], "MiB")
        };
        let area = Rect::new(0, 0, 40, 6);
        let mut buf = Buffer::empty(area);
        assert!(draw_axes_and_plot(&mut buf, area, 4, &data, &look, &Fit::plain(&data)));
        let dots = |x: u16| buf[(x, 0)].symbol().chars().next().map_or(0, |c| u32::from(c).wrapping_sub(0x2800));
        let inked: Vec<u16> = (0..40).filter(|&x| dots(x) > 0 && dots(x) < 0x100).collect();
        assert!(inked.len() >= 20, "the lines are drawn on the top row: {inked:?}");
        for x in &inked {
            // Dot rows 1 (the measured line) and 3 (the threshold) of the cell.
            assert!(dots(*x) & 0x12 != 0 && dots(*x) & 0xc0 != 0, "column {x}: both lines' dots: {:x}", dots(*x));
        }
        // dirty_ratelimit converged to write_bw/N left chart 4 with no
        // cell in its colour when the threshold was drawn over it.
        let dirty = theme.series[0].fg.expect("a colour");
        assert!(inked.iter().all(|&x| buf[(x, 0)].fg == dirty), "the measured line's colour shows");
    }

    #[test]
    fn line_values_stay_on_their_lines() {
        // Chart 1 four rows high, 0 to 800: thresh 737 and setpoint 645
        // on the top row, freerun 553 on the next, bg 369 on the third.
        // 645 has no row of its own: it goes, or joins 737.
        let want = [0, 0, 1, 2];
        assert_eq!(place_values(&want, 4, false), vec![Some(0), None, Some(1), Some(2)]);
        assert_eq!(place_values(&want, 4, true), vec![Some(0), Some(0), Some(1), Some(2)]);
        // The default at 100x30, 8 s in: setpoint 645 and freerun 553 on
        // row 1. 553 was written on row 2, where no line is.
        let want = [0, 1, 1, 3];
        assert_eq!(place_values(&want, 6, false), vec![Some(0), Some(1), None, Some(3)]);
        assert_eq!(place_values(&want, 6, true), vec![Some(0), Some(1), Some(1), Some(3)]);
        // Three on a row: two at most, the most important.
        let want = [5, 5, 5];
        assert_eq!(place_values(&want, 20, true), vec![Some(5), Some(5), None]);
        // Each on its own row (737 645 553 369): each on its line.
        let want = [0, 2, 3, 5];
        assert_eq!(place_values(&want, 12, false), vec![Some(0), Some(2), Some(3), Some(5)]);
    }

    /// The text of `buf`'s row `y`.
    fn row_text(buf: &Buffer, y: u16) -> String {
        (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect()
    }

    #[test]
    fn a_line_value_is_written_on_its_lines_row_or_not_at_all() {
        let theme = Theme::new(crate::app::ThemeKind::Dark);
        let look = Look { theme: &theme, marker: Marker::Braille, text_folds: false };
        let flat =
            |name, v: f64| Series { end_label: true, ..line_series(name, (0..=20).map(|i| (i as f64, v)).collect()) };
        // The default's chart 1 at 100x30, 8 s in: six rows from 0 to 800,
        // setpoint 645 and freerun 553 both on the second.
        let series = vec![flat("bg", 369.0), flat("freerun", 553.0), flat("setpoint", 645.0), flat("thresh", 737.0)];
        let data = ChartData { y: [0.0, 800.0], y_fixed: true, ..ChartData::new(series, [0.0, 20.0], "MiB") };
        // Wide: both values on their row.
        let area = Rect::new(0, 0, 50, 8);
        let mut buf = Buffer::empty(area);
        assert!(draw_axes_and_plot(&mut buf, area, 6, &data, &look, &Fit::plain(&data)));
        let rows: Vec<String> = (0..6).map(|y| row_text(&buf, y)).collect();
        assert!(rows[0].trim_end().ends_with(" 737"), "{rows:#?}");
        assert!(rows[1].trim_end().ends_with(" 645/553"), "{rows:#?}");
        assert!(rows[2].trim_end().ends_with('│') || !rows[2].contains("553"), "{rows:#?}");
        assert_eq!(rows.iter().filter(|r| r.contains("553")).count(), 1, "{rows:#?}");
        // 80x24 comparing: the pair takes no more than a quarter.
        let area = Rect::new(0, 0, 36, 8);
        let mut buf = Buffer::empty(area);
        assert!(draw_axes_and_plot(&mut buf, area, 6, &data, &look, &Fit::plain(&data)));
        assert!(row_text(&buf, 1).trim_end().ends_with(" 645/553"), "{}", row_text(&buf, 1));
        // Narrower: 553 has no room beside 645, and goes.
        let area = Rect::new(0, 0, 26, 8);
        let mut buf = Buffer::empty(area);
        assert!(draw_axes_and_plot(&mut buf, area, 6, &data, &look, &Fit::plain(&data)));
        let rows: Vec<String> = (0..6).map(|y| row_text(&buf, y)).collect();
        assert!(rows[1].trim_end().ends_with(" 645"), "{rows:#?}");
        assert!(rows.iter().all(|r| !r.contains("553")), "{rows:#?}");
    }

    #[test]
    fn a_label_with_its_own_parenthesis_is_not_nested_in_another() {
        for (label, want) in [
            ("sda (HDD)", " (sda, HDD)"),
            ("254:0 (vda)", " (254:0, vda)"),
            ("sda", " (sda)"),
            ("254:0 cgroup_ino 1234", " (254:0 cgroup_ino 1234)"),
            ("odd (a (b))", " (odd (a (b)))"),
        ] {
            assert_eq!(in_parentheses(label), want, "{label}");
        }
    }

    #[test]
    fn titles_keep_their_values_and_drop_words() {
        let mut title = Title {
            name: "2 bdi dirty pages".into(),
            short: "2 bdi dirty".into(),
            bdi: Some(("sda (HDD)".into(), "sda".into())),
            one_of_many: false,
        };
        let values = ["bdi_dirty 669 MiB".to_string(), "bdi_thresh 737 MiB".to_string()];
        let values = &values[..];
        assert_eq!(
            fit_title(&title, values, &[], 200),
            " 2 bdi dirty pages (sda, HDD)  bdi_dirty 669 MiB, bdi_thresh 737 MiB "
        );
        assert_eq!(fit_title(&title, values, &[], 59), " 2 bdi dirty (sda)  bdi_dirty 669 MiB, bdi_thresh 737 MiB ");
        assert_eq!(fit_title(&title, values, &[], 54), " 2 bdi dirty  bdi_dirty 669 MiB, bdi_thresh 737 MiB ");
        assert_eq!(fit_title(&title, values, &[], 40), " 2 bdi dirty (sda)  bdi_dirty 669 MiB ");
        assert_eq!(fit_title(&title, values, &[], 24), " 2 bdi_dirty 669 MiB ");
        assert_eq!(fit_title(&title, &values[1..], &[], 30), " 2 (sda) bdi_thresh 737 MiB ");
        let short = ["669 of 737 MiB".to_string()];
        assert_eq!(fit_title(&title, values, &short, 32), " 2 bdi dirty  669 of 737 MiB ");
        // Too narrow for the first value whole: cut, with an ellipsis.
        assert_eq!(fit_title(&title, values, &[], 16), " 2 bdi_dirty… ");
        // A number keeps the unit the title ends with.
        assert_eq!(fit_title(&title, values, &short, 12), " 2 669 MiB… ");
        let rates = ["rate 0.910 vs bw/N 0.800 MiB/s".to_string()];
        assert_eq!(fit_title(&title, &rates, &rates, 34), " 2 rate 0.910 vs bw/N 0.800 MiB/s ");
        assert_eq!(fit_title(&title, &rates, &rates, 33), " 2 rate 0.910 MiB/s… ");
        assert_eq!(fit_title(&title, values, &short, 8), " 2 669… ");
        // One bdi of several keeps its name before the values whole.
        title.one_of_many = true;
        assert_eq!(fit_title(&title, values, &[], 54), " 2 bdi dirty pages (sda, HDD)  bdi_dirty 669 MiB ");
        assert_eq!(fit_title(&title, values, &short, 38), " 2 bdi dirty (sda)  669 of 737 MiB ");
        assert_eq!(fit_title(&title, values, &short, 24), " 2 (sda) 669 of 737 MiB ");
        assert_eq!(fit_title(&title, values, &short, 20), " 2 669 of 737 MiB ");
    }

    /// Chart 5's headline is one value, and its short form two: where the
    /// headline does not fit, the short form keeps the longest sleep
    /// beside the longest call (at 160x48, comparing, the right chart 5
    /// read 'longest call 168 ms' alone while the lesson spoke of sleeps
    /// of 4 ms at most).
    #[test]
    fn a_short_title_keeps_every_short_value_that_fits() {
        let title = Title {
            name: "5 pauses".into(),
            short: "5 pauses".into(),
            bdi: Some(("sda, HDD".into(), "sda".into())),
            one_of_many: false,
        };
        let values = ["longest sleep 4 ms, longest call 168 ms".to_string()];
        let short = ["longest call 168 ms".to_string(), "sleep 4 ms".to_string()];
        assert_eq!(fit_title(&title, &values, &short, 50), " 5 pauses (sda)  longest call 168 ms, sleep 4 ms ");
        assert_eq!(
            fit_title(&title, &values, &short, 62),
            " 5 pauses (sda, HDD)  longest sleep 4 ms, longest call 168 ms "
        );
        assert_eq!(fit_title(&title, &values, &short, 40), " 5 pauses (sda)  longest call 168 ms ");
    }
}
