//! The data behind the five charts, in display units (MiB, MiB/s, ms,
//! seconds; sizes past 9999 MiB in GiB or TiB), thinned to about two points per column so that drawing stays
//! cheap however many samples, tasks and pauses there are.
//!
//! Charts read a [`Source`]: one world's sampled time series, its pauses
//! binned by time and the kernel it runs. Nothing here reaches into the
//! world's internals, so a source built from other data (a recorded
//! kernel trace) draws the same charts.

use std::collections::VecDeque;

use crate::lesson::check::show;
use crate::pauses::{BIN_NS, Bin, PauseBins};
use crate::run::summary::NOT_KNOWN;
use crate::session::Side;
use crate::sim::config::Legacy;
use crate::sim::metrics::{BdiSample, Sample};
use crate::units::{SizeUnit, mib};

/// A legend entry of a chart: its name, short name, colour and meaning.
/// The charts take their series' names and colours from here and the
/// help page explains them from here, so the two cannot disagree.
pub struct Entry {
    /// The chart, 1-5.
    pub chart: u8,
    /// Legend name.
    pub name: &'static str,
    /// Legend name when space is short.
    pub short: &'static str,
    /// Index into the theme's series colours.
    pub color: usize,
    /// What it is.
    pub meaning: &'static str,
    /// How it is drawn.
    pub draw: Draw,
    /// Index into [`MONO_LINES`] (a scatter's into [`MONO_SCATTER`]):
    /// how it is told apart without colour, different for every line
    /// (and every scatter) of its chart.
    pub mono: usize,
}

impl Entry {
    /// The glyph the chart's legend and the help show for it.
    pub fn glyph(&self, mono: bool) -> &'static str {
        self.draw.legend_glyph(self.mono, mono)
    }
}

macro_rules! entry {
    ($chart:expr, $name:expr, $short:expr, $color:expr, $mono:expr, $meaning:expr) => {
        entry!($chart, $name, $short, $color, $mono, $meaning, Draw::Line)
    };
    ($chart:expr, $name:expr, $short:expr, $color:expr, $mono:expr, $meaning:expr, $draw:expr) => {
        Entry { chart: $chart, name: $name, short: $short, color: $color, meaning: $meaning, draw: $draw, mono: $mono }
    };
}

/// How a line is drawn without colour: a dash pattern (`on` segments
/// drawn, then `off` left out; a segment is about half a column), and
/// past the four patterns a glyph written on the line every few columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MonoLine {
    /// What the legend and the help show.
    pub glyph: &'static str,
    /// Segments drawn in each cycle.
    pub on: usize,
    /// Segments left out in each cycle.
    pub off: usize,
    /// The glyph written on the line, if any.
    pub mark: Option<char>,
}

/// The ways mono lines are drawn: as many as a chart has lines.
pub const MONO_LINES: [MonoLine; 7] = [
    MonoLine { glyph: "━", on: 1, off: 0, mark: None },
    MonoLine { glyph: "╍", on: 2, off: 2, mark: None },
    MonoLine { glyph: "┅", on: 2, off: 4, mark: None },
    MonoLine { glyph: "·", on: 1, off: 3, mark: None },
    MonoLine { glyph: "━○", on: 1, off: 0, mark: Some('○') },
    MonoLine { glyph: "━×", on: 1, off: 0, mark: Some('×') },
    MonoLine { glyph: "━△", on: 1, off: 0, mark: Some('△') },
];

/// Every series of the five charts.
pub const GLOSSARY: &[Entry] = &[
    entry!(1, "dirty", "dirty", 0, 0, "file dirty + writeback + unstable: what the control law calls dirty"),
    entry!(1, "writeback+unstable", "wb", 1, 1, "pages being written, and NFS pages not yet committed"),
    entry!(1, "thresh", "thr", 4, 2, "dirty_thresh, from vm.dirty_ratio or dirty_bytes"),
    entry!(1, "limit", "lim", 6, 3, "global_dirty_limit: follows thresh down slowly"),
    entry!(1, "setpoint", "set", 3, 4, "(freerun + limit) / 2: where the series holds dirty pages"),
    entry!(1, "freerun", "free", 2, 5, "(thresh + bg_thresh) / 2: below it no task is throttled"),
    entry!(1, "bg_thresh", "bg", 7, 6, "background threshold: the flusher writes above it"),
    entry!(2, "bdi_dirty", "dirty", 0, 0, "the bdi's reclaimable + writeback pages"),
    entry!(2, "writeback", "wb", 1, 1, "the bdi's pages being written"),
    entry!(2, "bdi_setpoint", "set", 3, 2, "setpoint × bdi_thresh/thresh; patch 10+: bdi_thresh ≥ (limit−dirty)/8"),
    entry!(2, "bdi_thresh", "thr", 4, 3, "the bdi's share of thresh, from its recent writeouts"),
    entry!(3, "product = pos_ratio", "product", 0, 1, "global × bdi line: scales dirty_ratelimit", Draw::Dashed),
    entry!(3, "global", "global", 2, 0, "cubic: 2 at freerun, 1 at the setpoint, 0 at the limit"),
    entry!(3, "reserve area", "reserve", 6, 2, "patch 10: lifts pos_ratio while bdi_dirty is low"),
    entry!(3, "bdi line", "bdi", 1, 3, "through bdi_setpoint, against the bdi's own dirty pages"),
    entry!(3, "1/4 floor", "1/4", 7, 4, "the bdi line never goes below a quarter"),
    entry!(4, "dirty_ratelimit", "rate", 0, 0, "each task's base rate: what pos_ratio 1 gives"),
    entry!(4, "task_ratelimit", "task", 6, 4, "dirty_ratelimit × pos_ratio: what a task was held to"),
    entry!(4, "balanced", "bal", 3, 5, "balanced_dirty_ratelimit: write_bw/N estimated from rates"),
    entry!(4, "write_bw/N", "bw/N", 7, 1, "what light writers leave of write_bw, per throttled task"),
    entry!(4, "dirtied/N", "dirtied/N", 2, 2, "what each of the N throttled tasks dirtied per second"),
    entry!(4, "avg_write_bw", "avg", 5, 3, "write_bw smoothed: what the control law uses"),
    entry!(4, "write_bw", "bw", 1, 6, "the bdi's estimated write rate"),
    entry!(5, "sleep", "sleep", 0, 0, "throttling sleeps: the shortest and longest per column", Draw::Scatter),
    entry!(5, "throttling call", "call", 4, 1, "whole balance_dirty_pages() calls, IO-full writes too", Draw::Scatter),
    entry!(5, "max_pause", "max", 5, 0, "the longest sleep the kernel allows now"),
];

/// The marks charts draw over their series: the chart, glyph, colour and
/// meaning.
pub const MARKS: &[(u8, char, usize, &str)] = &[
    (3, '◆', 2, "freerun, setpoint and limit on the global line"),
    (3, '◇', 1, "bdi_setpoint on the bdi line"),
    (3, '●', 0, "now, on each line in its colour; the product's is the exact pos_ratio"),
    (5, '▲', 4, "a throttling call still blocked, at how long it has lasted so far"),
];

/// The dotted gridlines charts draw under their series: the chart, the
/// value and its meaning.
pub const GRIDLINES: &[(u8, f64, &str)] =
    &[(3, 1.0, "dotted, at 1: pos_ratio = 1, where a task is held to dirty_ratelimit itself")];

fn spec(chart: u8, name: &str) -> &'static Entry {
    GLOSSARY.iter().find(|e| e.chart == chart && e.name == name).expect("every series is in the glossary")
}

/// The kernel a source runs, and so what its charts may draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kernel {
    /// Patches of the v12 series applied (0: the legacy kernel).
    pub patches: u8,
    /// The kernel under them.
    pub legacy: Legacy,
}

/// Whether a kernel has a quantity, and uses it to throttle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Has {
    /// The kernel does not compute it.
    No,
    /// Computed but not yet used for throttling (patches 2-6).
    Shadow,
    /// Computed and used.
    Used,
}

impl Kernel {
    /// The setpoints and pos_ratio: patch 02 computes them, patch 07
    /// throttles by them. (The freerun ceiling is no part of it: every
    /// kernel here throttles no task below it, Linux 3.1 with the same
    /// `(background_thresh + dirty_thresh) / 2` that patch 02 names.)
    pub fn position(self) -> Has {
        match self.patches {
            0..=1 => Has::No,
            2..=6 => Has::Shadow,
            _ => Has::Used,
        }
    }

    /// The smoothed global dirty limit (global_dirty_limit, followed by
    /// `hard_dirty_limit()`): Linux 3.1 introduced it; 2.6.38 has only
    /// thresh.
    pub fn smoothed_limit(self) -> bool {
        self.legacy.has_31(self.patches)
    }

    /// The bdi's write bandwidth estimate, write_bw and avg_write_bw:
    /// Linux 3.1 brought it with the smoothed limit; 2.6.38 has none.
    pub fn bandwidth(self) -> bool {
        self.smoothed_limit()
    }

    /// Each task's `nr_dirtied_pause`, the pages it dirties between two
    /// balance_dirty_pages() calls: patch 06 brought it (before, a task
    /// is checked every ratelimit_pages).
    pub fn nr_dirtied_pause(self) -> bool {
        self.patches >= 6
    }

    /// dirty_ratelimit, its balanced estimate and task_ratelimit: patch 04
    /// computes them, patch 07 throttles by them.
    pub fn ratelimit(self) -> Has {
        match self.patches {
            0..=3 => Has::No,
            4..=6 => Has::Shadow,
            _ => Has::Used,
        }
    }
}

/// The note a chart shows for quantities its kernel lacks or does not use.
pub fn kernel_notice(has: Has, what: &str) -> Option<String> {
    match has {
        Has::No => Some(format!("{what}: not used by this kernel")),
        Has::Shadow => Some(format!("{what}: computed, used from patch 07 on")),
        Has::Used => None,
    }
}

/// [`kernel_notice`] in fewer words, for a narrow chart: `no setpoint in
/// this kernel`, `setpoint: computed, not used` (`from patch 07 on`
/// alone read as if this kernel had none).
pub fn kernel_notice_short(has: Has, what: &str) -> Option<String> {
    match has {
        Has::No => Some(format!("no {what} in this kernel")),
        Has::Shadow => Some(format!("{what}: computed, not used")),
        Has::Used => None,
    }
}

impl ChartData {
    /// Notes what the kernel lacks or does not use of `what`, as `has`
    /// says ([`kernel_notice`], [`kernel_notice_short`]).
    fn note_kernel(&mut self, has: Has, what: &str) {
        self.notice = kernel_notice(has, what);
        self.short_notice = self.notice.clone().zip(kernel_notice_short(has, what));
    }

    /// The notice to show in a chart `width` columns wide inside: the
    /// short one where it takes one row and the notice more, or where
    /// the notice would take more than two (in a comparison at 60x18 the
    /// off-the-top bdi_setpoint's took 6 of chart 2's 13 rows).
    pub fn notice_for(&self, width: usize) -> Option<&str> {
        let long = self.notice.as_deref()?;
        let rows = |note: &str| note.chars().count().div_ceil(width.max(1));
        match &self.short_notice {
            Some((of, short)) if of == long && rows(long) > 1 && (rows(short) == 1 || rows(long) > 2) => Some(short),
            _ => Some(long),
        }
    }
}

/// What the charts read.
pub struct Source<'a> {
    /// The sampled time series, oldest first.
    pub samples: &'a VecDeque<Sample>,
    /// Throttling pauses binned by time.
    pub pauses: &'a PauseBins,
    /// Timer frequency, to turn jiffies into time.
    pub hz: u64,
    /// The kernel it runs.
    pub kernel: Kernel,
    /// Per bdi, how long the longest throttling call still in progress
    /// has lasted so far \[jiffies\] (0: none; empty: not known).
    pub in_call: Vec<u64>,
    /// The shortest time axis \[s\]: a second while a run grows, a
    /// shorter trace's whole length.
    pub least_span_s: f64,
}

impl<'a> Source<'a> {
    /// The source of one side of a session.
    pub fn of(side: &'a Side) -> Source<'a> {
        let w = &side.world;
        Source {
            samples: w.samples(),
            pauses: &side.pauses,
            hz: w.hz(),
            kernel: Kernel { patches: w.patches(), legacy: w.legacy() },
            in_call: crate::session::calls_in_progress(w),
            least_span_s: 1.0,
        }
    }

    fn ms(&self, jiffies: u64) -> f64 {
        jiffies as f64 * 1000.0 / self.hz as f64
    }
}

/// How a series is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Draw {
    /// A line through the points.
    Line,
    /// A dashed line (drawn over another it may coincide with).
    Dashed,
    /// Separate points.
    Scatter,
}

impl Draw {
    /// The glyph a legend shows for a series drawn this way (in colour;
    /// mono lines tell themselves apart by dash patterns instead).
    pub fn glyph(self) -> &'static str {
        match self {
            Draw::Line => "━",
            Draw::Dashed => "╍",
            Draw::Scatter => "•",
        }
    }

    /// The glyph a legend shows for a series drawn this way whose mono
    /// look is `slot`: in `mono`, that of [`MONO_LINES`]`[slot]` for a
    /// line, of [`MONO_SCATTER`]`[slot]` for a scatter.
    pub fn legend_glyph(self, slot: usize, mono: bool) -> &'static str {
        match self {
            Draw::Line | Draw::Dashed if mono => MONO_LINES[slot % MONO_LINES.len()].glyph,
            Draw::Scatter if mono => MONO_SCATTER[slot % MONO_SCATTER.len()],
            _ => self.glyph(),
        }
    }
}

/// How scatter series are told apart without colour: the first by its
/// dots, the next by this glyph written in every cell it has a point in
/// (chart 5's sleeps and calls were the same dots in mono).
pub const MONO_SCATTER: [&str; 2] = ["•", "×"];

/// One named series of (x, y) points.
#[derive(Clone, Debug)]
pub struct Series {
    /// Legend label.
    pub name: &'static str,
    /// Legend label when space is short.
    pub short: &'static str,
    /// Points.
    pub points: Vec<(f64, f64)>,
    /// Index into the theme's series colours.
    pub color: usize,
    /// How it is drawn.
    pub draw: Draw,
    /// Index into [`MONO_LINES`] (a scatter's into [`MONO_SCATTER`]):
    /// how it is drawn without colour.
    pub mono: usize,
    /// Its last value is written at its right end (threshold lines).
    pub end_label: bool,
    /// Computed but not used by the kernel: drawn greyed.
    pub shadow: bool,
    /// Drawn against the chart's second x axis (chart 3's bdi line).
    pub second_x: bool,
}

impl Series {
    /// Series `name` of chart `chart`, as the glossary names and colours it.
    fn of(chart: u8, name: &str, points: Vec<(f64, f64)>) -> Series {
        let e = spec(chart, name);
        Series {
            name: e.name,
            short: e.short,
            points,
            color: e.color,
            draw: e.draw,
            mono: e.mono,
            end_label: false,
            shadow: false,
            second_x: false,
        }
    }

    fn labelled(mut self) -> Series {
        self.end_label = true;
        self
    }

    fn shadowed(mut self, has: Has) -> Series {
        self.shadow = has == Has::Shadow;
        self
    }
}

/// A point marked on a chart with a glyph (an operating point, or a
/// threshold on a curve).
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    /// Where.
    pub at: (f64, f64),
    /// The glyph.
    pub glyph: char,
    /// Index into the theme's series colours.
    pub color: usize,
    /// Against the second x axis.
    pub second_x: bool,
}

/// A chart's second x axis: its range and name.
#[derive(Clone, Debug, PartialEq)]
pub struct SecondAxis {
    /// Range.
    pub x: [f64; 2],
    /// Name shown before its labels.
    pub name: String,
    /// Index into the theme's series colours.
    pub color: usize,
}

/// How a short chart gives its plot rows: a legend in one line on its
/// frame, x labels on its axis line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fitted {
    /// The legend in one line, where it has names for two.
    pub one_line_legend: bool,
    /// The x labels on the axis line, not in a row under it.
    pub labels_on_axis: bool,
    /// Columns kept for the y labels left of the plot and the line values
    /// right of it, at least: its neighbours' (0: its own).
    pub margins: [u16; 2],
}

/// A chart's data: its series and axis ranges.
#[derive(Clone, Debug)]
pub struct ChartData {
    /// The series, back to front within each layer `plot::draw_curves`
    /// draws: greyed (`shadow`) lines, then the threshold lines
    /// (`end_label`), then the others, dots (`Scatter`) over them all.
    pub series: Vec<Series>,
    /// Glyphs drawn over the series.
    pub marks: Vec<Mark>,
    /// Legend entries for the marks: glyph, colour, what they mean, and
    /// that in fewer words for a narrow legend.
    pub mark_legend: Vec<(char, usize, &'static str, &'static str)>,
    /// x range.
    pub x: [f64; 2],
    /// Name of the x unit.
    pub x_unit: &'static str,
    /// A second x axis (chart 3's bdi dirty pages).
    pub x2: Option<SecondAxis>,
    /// y range, before it is rounded to ticks.
    pub y: [f64; 2],
    /// Unit of the y axis.
    pub y_unit: &'static str,
    /// The y axis is logarithmic (values are drawn as given and placed by
    /// their logarithm).
    pub log_y: bool,
    /// The y range is kept as it is (not widened to round ticks).
    pub y_fixed: bool,
    /// How much of the top of the y range is margin over the data: the
    /// axis may end on a round tick as low as `y[1] / y_margin` (1: the
    /// whole range is data).
    pub y_margin: f64,
    /// Horizontal gridlines (y values).
    pub gridlines: Vec<f64>,
    /// Live values for the title, most important first.
    pub values: Vec<String>,
    /// The same values in fewer words, for narrow charts.
    pub short_values: Vec<String>,
    /// Shown in full inside the chart: what the kernel lacks or does not use.
    pub notice: Option<String>,
    /// A notice in fewer words, for a chart too narrow for it in one row:
    /// (the notice it shortens, the short one). Used only while `notice`
    /// is that notice.
    pub short_notice: Option<(String, String)>,
    /// Blank rows under the notice and above the legend's inside line, so
    /// that charts side by side plot on the same rows ([`crate::ui::plot::line_up`]).
    pub pad_rows: [u16; 2],
    /// How the chart fits its frame, where that was decided with its
    /// neighbours' ([`crate::ui::plot::line_up`]); `None`: by its own rows.
    pub fitted: Option<Fitted>,
    /// The title's values that name sizes, written again when the chart
    /// changes unit. Whoever replaces the values clears it.
    pub(crate) sized: Option<SizedValues>,
    /// Chart 4 on a linear axis: it says where earlier rates went off its
    /// top, decided again where its range is shared ([`note_rates_off_top`]).
    pub(crate) rates_off_top: bool,
}

/// How a chart's title values are written from their numbers (sizes
/// \[MiB\] and others, such as a percentage) with its sizes in a unit:
/// the values and the short values.
pub(crate) type WriteValues = fn(&[f64], SizeUnit) -> [Vec<String>; 2];

/// A chart title's values that name sizes: their numbers and how to write
/// them, so that they are written again in the chart's unit whenever the
/// chart changes unit.
#[derive(Clone, Debug)]
pub(crate) struct SizedValues {
    /// The numbers the values show (sizes \[MiB\]).
    numbers: Vec<f64>,
    /// How they are written.
    write: WriteValues,
}

impl ChartData {
    /// The chart's size axis (y for charts 1-2, x for chart 3) in the
    /// unit its largest value reads in by [`SizeUnit::of`], so the axis
    /// reads `800 GiB`, not `800000 MiB`: its lines, marks, gridlines,
    /// range, unit and title values. A log axis stays in its unit.
    pub(crate) fn in_larger_unit(&mut self) {
        let Some(now) = self.size_unit() else { return };
        let top = match self.y_size_unit() {
            Some(_) if self.log_y => return,
            Some(_) => self.y[1],
            None => self.x[1],
        };
        self.convert_to_size_unit(SizeUnit::of(top / now.value(1.0)));
    }

    /// The unit of the y axis, if it is a size.
    fn y_size_unit(&self) -> Option<SizeUnit> {
        SizeUnit::named(self.y_unit)
    }

    /// The unit of the chart's size axis (y, else x), if it has one.
    pub(crate) fn size_unit(&self) -> Option<SizeUnit> {
        self.y_size_unit().or_else(|| SizeUnit::named(self.x_unit))
    }

    /// The chart's size axis in `unit`, if that is larger than its own:
    /// every value on it, and the title's values.
    pub(crate) fn convert_to_size_unit(&mut self, unit: SizeUnit) {
        let Some(now) = self.size_unit().filter(|&now| unit > now) else { return };
        let f = unit.value(1.0) / now.value(1.0);
        if self.y_size_unit().is_some() {
            for p in self.series.iter_mut().flat_map(|s| &mut s.points) {
                p.1 *= f;
            }
            for m in &mut self.marks {
                m.at.1 *= f;
            }
            for g in &mut self.gridlines {
                *g *= f;
            }
            self.y = self.y.map(|v| v * f);
            self.y_unit = unit.name();
        } else {
            for p in self.series.iter_mut().flat_map(|s| &mut s.points) {
                p.0 *= f;
            }
            for m in &mut self.marks {
                m.at.0 *= f;
            }
            self.x = self.x.map(|v| v * f);
            if let Some(a) = &mut self.x2 {
                a.x = a.x.map(|v| v * f);
            }
            self.x_unit = unit.name();
        }
        self.write_values();
    }

    /// Sets the title's values from `numbers` (sizes \[MiB\] and others)
    /// by `write`, in the chart's size unit now and whenever it changes.
    pub(crate) fn sized_values(&mut self, numbers: Vec<f64>, write: WriteValues) {
        [self.values, self.short_values] = write(&numbers, self.size_unit().unwrap_or(SizeUnit::MIB));
        self.sized = Some(SizedValues { numbers, write });
    }

    /// The title's sized values written again in the chart's unit, as
    /// many as there are (a trace's chart 1 drops its percentage).
    fn write_values(&mut self) {
        let Some(sized) = &self.sized else { return };
        let [mut values, mut short] = (sized.write)(&sized.numbers, self.size_unit().unwrap_or(SizeUnit::MIB));
        values.truncate(self.values.len());
        short.truncate(self.short_values.len());
        (self.values, self.short_values) = (values, short);
    }

    pub(crate) fn new(series: Vec<Series>, x: [f64; 2], y_unit: &'static str) -> ChartData {
        ChartData {
            series,
            marks: Vec::new(),
            mark_legend: Vec::new(),
            x,
            x_unit: "s",
            x2: None,
            y: [0.0, 1.0],
            y_unit,
            log_y: false,
            y_fixed: false,
            y_margin: 1.0,
            gridlines: Vec::new(),
            values: Vec::new(),
            short_values: Vec::new(),
            notice: None,
            short_notice: None,
            pad_rows: [0, 0],
            fitted: None,
            sized: None,
            rates_off_top: false,
        }
    }

    /// Where the system is now on series `name`: its operating point
    /// (chart 3's `●` in the series' colour), if drawn.
    pub fn now_on(&self, name: &str) -> Option<(f64, f64)> {
        let color = self.series.iter().find(|s| s.name == name)?.color;
        self.marks.iter().find(|m| m.glyph == '●' && m.color == color).map(|m| m.at)
    }

    /// The y range the series need: from 0 (or, on a log axis, the
    /// smallest positive value) to the largest value of the series that
    /// `fits` accepts, with some headroom.
    pub(crate) fn fit_y(&mut self, fits: impl Fn(&Series) -> bool) {
        self.fit_y_from(f64::NEG_INFINITY, fits);
    }

    /// [`ChartData::fit_y`] over the points at or after `from` only.
    fn fit_y_from(&mut self, from: f64, fits: impl Fn(&Series) -> bool) {
        let values = || {
            self.series.iter().filter(|s| fits(s)).flat_map(|s| s.points.iter().filter(|p| p.0 >= from).map(|p| p.1))
        };
        let top = values().fold(0.0, f64::max);
        if self.log_y {
            let low = values().filter(|&v| v > 0.0).fold(f64::INFINITY, f64::min);
            let low = if low.is_finite() { low } else { top.max(1.0) / 100.0 };
            self.y = [low.min(top.max(1e-3)), top.max(low * 10.0)];
        } else {
            self.y = [0.0, if top > 0.0 { top * 1.05 } else { 1.0 }];
            self.y_margin = if top > 0.0 { 1.05 } else { 1.0 };
        }
    }
}

/// The samples in the time window ending now, thinned to at most
/// `2 * width` (the last sample always kept), and the window's x range,
/// `least_s` long at least.
pub fn window(samples: &VecDeque<Sample>, window_s: Option<u64>, width: u16, least_s: f64) -> (Vec<&Sample>, [f64; 2]) {
    let Some(last) = samples.back() else {
        return (Vec::new(), [0.0, 1.0]);
    };
    let end = last.t_ns as f64 / 1e9;
    let start = match window_s {
        Some(w) => (end - w as f64).max(0.0),
        None => samples.front().map_or(0.0, |s| s.t_ns as f64 / 1e9),
    };
    let first = samples.partition_point(|s| (s.t_ns as f64 / 1e9) < start);
    let n = samples.len() - first;
    let keep = (2 * width as usize).max(2);
    let stride = n.div_ceil(keep).max(1);
    let mut picked: Vec<&Sample> = samples.range(first..).step_by(stride).collect();
    if picked.last().map(|s| s.t_ns) != Some(last.t_ns) {
        picked.push(last);
    }
    let span = match window_s {
        Some(w) => [end - w as f64, end].map(|x| x.max(0.0)),
        None => [start, end],
    };
    let span = if span[1] - span[0] < least_s { [span[0], span[0] + least_s] } else { span };
    (picked, span)
}

/// `f` of each picked sample, against time \[s\]. A value that is not
/// known (a rate before a second of data, a target without tasks) is NaN:
/// the line has a gap there rather than joining the values either side.
fn points(picked: &[&Sample], f: impl Fn(&Sample) -> f64) -> Vec<(f64, f64)> {
    picked
        .iter()
        .map(|s| {
            let v = f(s);
            (s.t_ns as f64 / 1e9, if v.is_finite() { v } else { f64::NAN })
        })
        .collect()
}

fn bdi_of(s: &Sample, bdi: usize) -> &BdiSample {
    &s.bdis[bdi.min(s.bdis.len() - 1)]
}

/// Chart 1: global dirty pages against the thresholds the kernel has.
pub fn global_dirty(src: &Source, window_s: Option<u64>, width: u16) -> ChartData {
    let (p, x) = window(src.samples, window_s, width, src.least_span_s);
    let has = src.kernel.position();
    let mut series = vec![
        Series::of(1, "bg_thresh", points(&p, |s| mib(s.bg_thresh))).labelled(),
        Series::of(1, "freerun", points(&p, |s| mib(s.freerun))).labelled(),
    ];
    if has != Has::No {
        series.push(Series::of(1, "setpoint", points(&p, |s| mib(s.setpoint))).labelled().shadowed(has));
    }
    if src.kernel.smoothed_limit() {
        series.push(Series::of(1, "limit", points(&p, |s| mib(s.limit))).labelled());
    }
    series.push(Series::of(1, "thresh", points(&p, |s| mib(s.thresh))).labelled());
    series.push(Series::of(1, "writeback+unstable", points(&p, |s| mib(s.writeback + s.unstable))));
    series.push(Series::of(1, "dirty", points(&p, |s| mib(s.dirty))));
    let mut data = ChartData::new(series, x, "MiB");
    data.fit_y(|_| true);
    if let Some(s) = p.last() {
        let pct = 100.0 * s.dirty as f64 / s.dirtyable.max(1) as f64;
        data.sized_values(vec![mib(s.dirty), pct], |n, unit| {
            let (dirty, pct) = (unit.size(n[0]), show(n[1]));
            [
                vec![format!("dirty {dirty}"), format!("{pct}% of dirtyable")],
                vec![format!("dirty {dirty}"), format!("{pct}%")],
            ]
        });
    }
    data.note_kernel(has, "setpoint");
    data
}

/// Chart 2: one bdi's dirty pages against its setpoint and threshold.
pub fn bdi_dirty(src: &Source, bdi: usize, window_s: Option<u64>, width: u16) -> ChartData {
    let (p, x) = window(src.samples, window_s, width, src.least_span_s);
    let has = src.kernel.position();
    let mut series = vec![Series::of(2, "bdi_thresh", points(&p, |s| mib(bdi_of(s, bdi).thresh))).labelled()];
    if has != Has::No {
        let setpoint = points(&p, |s| mib(bdi_of(s, bdi).setpoint));
        series.push(Series::of(2, "bdi_setpoint", setpoint).labelled().shadowed(has));
    }
    series.push(Series::of(2, "writeback", points(&p, |s| mib(bdi_of(s, bdi).writeback))));
    series.push(Series::of(2, "bdi_dirty", points(&p, |s| mib(bdi_of(s, bdi).dirty))));
    // From patch 10, bdi_thresh is at least (limit - dirty)/8: over a
    // thresh near 0 (dirty_ratio 0) the bdi's share of it, and its
    // setpoint, pass the limit many times over (setpoint x bdi_thresh):
    // the kernel's arithmetic, which no dirty page can reach, drawn off
    // the top rather than squashing the rest onto the axis.
    let limit_top = p.iter().map(|s| mib(s.limit.max(s.thresh))).fold(0.0, f64::max);
    let mut off_top = None;
    if let Some(s) = series.iter_mut().find(|s| s.name == "bdi_setpoint") {
        // Drawn along the top edge where it passes it; its value, where
        // it does now, in the notice rather than pinned there.
        off_top = s.points.last().map(|&(_, y)| y).filter(|&y| y > limit_top);
        s.end_label &= off_top.is_none();
        s.points.iter_mut().for_each(|(_, y)| *y = y.min(limit_top));
    }
    let mut data = ChartData::new(series, x, "MiB");
    data.fit_y(|_| true);
    if let Some(s) = p.last() {
        let b = bdi_of(s, bdi);
        data.sized_values(vec![mib(b.dirty), mib(b.thresh)], |n, unit| {
            let (dirty, thresh, unit) = (unit.number(n[0]), unit.number(n[1]), unit.name());
            [vec![format!("dirty {dirty} of thresh {thresh} {unit}")], vec![format!("{dirty} of {thresh} {unit}")]]
        });
    }
    data.note_kernel(has, "bdi_setpoint");
    if let Some(top) = off_top.filter(|_| data.notice.is_none()) {
        let value = crate::units::SizeUnit::of_largest([top]).size(top);
        data.notice = Some(format!(
            "bdi_setpoint {value} is off the top: over a thresh near 0, the floor (limit - dirty)/8 \
             makes bdi_thresh/(thresh + 1) more than 1"
        ));
        data.short_notice = data.notice.clone().zip(Some(format!("bdi_setpoint {value} (off the top)")));
    }
    data
}

/// The rate dirty_ratelimit converges to, write_bw/N with N the tasks
/// held in balance_dirty_pages() (see [`BdiSample::target`]) \[pages/s\];
/// `None` without tasks.
fn target(b: &BdiSample) -> Option<f64> {
    b.target()
}

/// Chart 4's y range, from the values its lines draw (NaN where not
/// known). A log axis takes every value; a linear one follows what one
/// task gets now: the balanced estimate's spikes, the disk's bandwidth
/// (N times higher) and what the rates were before the last quarter of
/// the window (at least 5 s) go off the top. Earlier rates far off it
/// ([`OFF_TOP_SAID`]) are said in the notice (where no other is), with
/// the key that draws them: a class saw the hundred dd's rate alone, its
/// fall from 100 MiB/s gone from the chart without a sign.
pub(crate) fn fit_rates_y(data: &mut ChartData) {
    data.rates_off_top = !data.log_y;
    if data.log_y {
        // Only clears a notice from before: a log axis draws them all.
        note_rates_off_top(data);
        data.fit_y(|_| true);
        return;
    }
    let (recent, scaled) = rates_scaled(data);
    data.fit_y_from(recent, scaled);
    data.y[1] *= 1.25;
    note_rates_off_top(data);
}

/// Where chart 4's linear scale is taken from: the time its recent part
/// starts \[s\], and the series that set it (the rates one task gets).
fn rates_scaled(data: &ChartData) -> (f64, impl Fn(&Series) -> bool + use<>) {
    let recent = data.x[1] - ((data.x[1] - data.x[0]) / 4.0).max(5.0);
    let targets = |s: &Series| matches!(s.name, "write_bw/N" | "dirty_ratelimit" | "task_ratelimit");
    // A kernel with none of them (2.6.38) is scaled to its tasks' rates.
    let only_tasks = !data.series.iter().any(targets);
    (recent, move |s: &Series| targets(s) || (only_tasks && s.name == "dirtied/N"))
}

/// Chart 4's notice of earlier rates off its top, against the top it has
/// now (its own, or the one shared with the chart beside it); none on a
/// log axis, which draws them.
pub(crate) fn note_rates_off_top(data: &mut ChartData) {
    if data.notice.as_deref().is_some_and(|n| n.starts_with(EARLIER_OFF_TOP)) {
        (data.notice, data.short_notice) = (None, None);
    }
    if !data.rates_off_top {
        return;
    }
    let (recent, scaled) = rates_scaled(data);
    let earlier = data.series.iter().filter(|s| scaled(s)).flat_map(|s| &s.points).filter(|p| p.0 < recent);
    let top = earlier.map(|p| p.1).filter(|v| v.is_finite()).fold(0.0, f64::max);
    if top > OFF_TOP_SAID * data.y[1] && data.notice.is_none() {
        let top = show(top);
        data.notice = Some(format!("{EARLIER_OFF_TOP} {top} MiB/s are off the top: l draws a log axis"));
        data.short_notice = data.notice.clone().zip(Some(format!("earlier up to {top} MiB/s: off the top (l: log)")));
    }
}

/// How chart 4's notice of earlier rates off its top begins.
const EARLIER_OFF_TOP: &str = "earlier ratelimits up to";
/// Chart 4 says earlier rates are off its top where they reached this
/// many times its top: a hundred dd's fall from 100 MiB/s, not one dd's
/// first estimate of its disk, a moment over the rate it settles to.
const OFF_TOP_SAID: f64 = 2.0;

/// Chart 4: one bdi's rates. Its scale follows what one task gets (the
/// target write_bw/N, N the tasks throttled, dirty_ratelimit, task_ratelimit and each task's
/// dirty rate), so that a hundred tasks' rates are not flattened by the
/// disk's bandwidth; write_bw is drawn when it fits, and named in the
/// title (2.6.38, which estimates no bandwidth, has its tasks' rates
/// alone). `log` draws the y axis logarithmic, where everything fits.
pub fn rates(src: &Source, bdi: usize, window_s: Option<u64>, width: u16, log: bool) -> ChartData {
    let (p, x) = window(src.samples, window_s, width, src.least_span_s);
    let all = src.samples;
    let has = src.kernel.ratelimit();
    // Each throttled task's dirty rate over the second before each point.
    let per_task = |s: &Sample| {
        let i = all.partition_point(|a| a.t_ns + crate::sim::NS_PER_SEC < s.t_ns);
        let a = &all[i.min(all.len() - 1)];
        let dt = s.t_ns.saturating_sub(a.t_ns) as f64 / 1e9;
        let b = bdi_of(s, bdi);
        let rate = (b.dirtied - bdi_of(a, bdi).dirtied) as f64 / dt;
        b.dirtied_per_task(rate).filter(|_| dt > 0.0).map_or(f64::NAN, mib)
    };
    // 2.6.38 estimates no bandwidth: its tasks' rates alone.
    let bandwidth = src.kernel.bandwidth();
    let mut series = Vec::new();
    if bandwidth {
        series.push(Series::of(4, "write_bw", points(&p, |s| mib(bdi_of(s, bdi).write_bw))));
        series.push(Series::of(4, "avg_write_bw", points(&p, |s| mib(bdi_of(s, bdi).avg_write_bw))));
    }
    series.push(Series::of(4, "dirtied/N", points(&p, per_task)));
    if bandwidth {
        let each = |s: &Sample| target(bdi_of(s, bdi)).map_or(f64::NAN, mib);
        series.push(Series::of(4, "write_bw/N", points(&p, each)).labelled());
    }
    if has != Has::No {
        series.push(Series::of(4, "balanced", points(&p, |s| mib(bdi_of(s, bdi).balanced_ratelimit))).shadowed(has));
        series.push(
            Series::of(4, "task_ratelimit", points(&p, |s| bdi_of(s, bdi).task_ratelimit_now().map_or(f64::NAN, mib)))
                .shadowed(has),
        );
        series
            .push(Series::of(4, "dirty_ratelimit", points(&p, |s| mib(bdi_of(s, bdi).dirty_ratelimit))).shadowed(has));
    }
    let mut data = ChartData::new(series, x, "MiB/s");
    data.log_y = log;
    data.note_kernel(has, if bandwidth { "dirty_ratelimit" } else { "write_bw, dirty_ratelimit" });
    fit_rates_y(&mut data);
    if let Some(s) = p.last() {
        let b = bdi_of(s, bdi);
        // The bandwidth the target divides, named as the panel names it.
        let bw = format!("avg_write_bw {} MiB/s", show(mib(b.avg_write_bw)));
        let rate = show(mib(b.dirty_ratelimit));
        // Not known (N is not in a trace until a task is throttled): `–`,
        // as the summaries write it, and the unit goes with the rate.
        (data.values, data.short_values) = match (has, target(b).map(|t| show(mib(t)))) {
            _ if !bandwidth => {
                let each = Some(per_task(s)).filter(|v| v.is_finite());
                let each: Vec<String> = each.map(|v| format!("dirtied/N {} MiB/s", show(v))).into_iter().collect();
                (each.clone(), each)
            }
            (Has::No, Some(t)) => (vec![format!("write_bw/N {t} MiB/s"), bw], vec![format!("bw/N {t} MiB/s")]),
            (Has::No, None) => (vec![format!("write_bw/N {NOT_KNOWN}"), bw], vec![format!("bw/N {NOT_KNOWN}")]),
            (_, Some(t)) => (
                vec![format!("dirty_ratelimit {rate} vs write_bw/N {t} MiB/s"), bw],
                vec![format!("rate {rate} vs bw/N {t} MiB/s")],
            ),
            (_, None) => (
                vec![format!("dirty_ratelimit {rate} MiB/s vs write_bw/N {NOT_KNOWN}"), bw],
                vec![format!("rate {rate} MiB/s vs bw/N {NOT_KNOWN}")],
            ),
        };
    }
    data
}

/// Chart 5: throttling pauses of the bdi's tasks (each sleep, and whole
/// calls), and the bdi's max_pause. The pauses come from bins filled as
/// they happened: the headline is the exact maximum over the window,
/// whatever the width, and drawing costs the same however many tasks
/// there are. A call of one sleep is a call.
pub fn pauses(src: &Source, bdi: usize, window_s: Option<u64>, width: u16, log: bool) -> ChartData {
    let (p, x) = window(src.samples, window_s, width, src.least_span_s);
    let ms = |j: u32| src.ms(u64::from(j));
    let max_pause = Series::of(5, "max_pause", points(&p, |s| src.ms(bdi_of(s, bdi).max_pause))).labelled();
    let (from, to) = ((x[0] * 1e9) as u64, src.samples.back().map_or(0, |s| s.t_ns));
    let all: Vec<(u64, &Bin)> = src.pauses.range(bdi, from, to).collect();
    let per_group = all.len().div_ceil((2 * width as usize).max(1)).max(1);
    let (mut sleeps, mut calls) = (Vec::new(), Vec::new());
    let mut total = Bin::default();
    for chunk in all.chunks(per_group) {
        let mut g = Bin::default();
        for (_, b) in chunk {
            g.merge(b);
        }
        total.merge(&g);
        // Drawn amid the part of its bins the axis shows: a bin runs
        // past now, and past the end of a trace shorter than it.
        let lo = (chunk[0].0 as f64 / 1e9).max(x[0]);
        let hi = ((chunk[chunk.len() - 1].0 + BIN_NS) as f64 / 1e9).min(x[1]).max(lo);
        let t = (lo + hi) / 2.0;
        if g.sleeps > 0 {
            sleeps.extend([(t, ms(g.sleep_min)), (t, ms(g.sleep_max))]);
        }
        if g.calls > 0 {
            calls.extend([(t, ms(g.call_min)), (t, ms(g.call_max))]);
        }
    }
    let series = vec![max_pause, Series::of(5, "throttling call", calls), Series::of(5, "sleep", sleeps)];
    let mut data = ChartData::new(series, x, "ms");
    data.log_y = log;
    data.fit_y(|_| true);
    if !log {
        data.y[1] = data.y[1].max(10.0);
    }
    let sleep = (total.sleeps > 0).then(|| show(ms(total.sleep_max)));
    // A call still in progress is said to be (3.1 holds a dd on a USB
    // key half a minute in one), not left out until it returns, and
    // drawn now at its length so far, the axis reaching it.
    let longest = longest_call(src, bdi, &total);
    if let Some(c) = longest.filter(|c| c.ongoing) {
        data.marks.push(Mark { at: (x[1], c.ms), glyph: '▲', color: 4, second_x: false });
        data.mark_legend = vec![('▲', 4, "call still blocked", "blocked")];
        data.y[1] = data.y[1].max(c.ms * 1.05);
    }
    let call = longest.map(|c| (c.text(show), c.short(show)));
    // What did not happen is said as the run's report says it, not
    // measured as 0 ms.
    (data.values, data.short_values) = match (sleep, call) {
        (Some(sleep), Some((call, short))) => {
            (vec![format!("longest sleep {sleep} ms, {call}")], vec![short, format!("sleep {sleep} ms")])
        }
        (Some(sleep), None) => (
            vec![format!("longest sleep {sleep} ms, no call blocked")],
            vec![format!("longest sleep {sleep} ms"), "no call blocked".into()],
        ),
        (None, Some((call, short))) => (vec![format!("no task slept, {call}")], vec![short, "no sleep".into()]),
        (None, None) => (vec![NO_SLEEP.into()], vec![NO_SLEEP.into()]),
    };
    data
}

/// What chart 5 says when no task slept in its window, as the run's
/// report does.
pub const NO_SLEEP: &str = "no task slept";

/// The longest throttling call chart 5 and a compare head report.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LongestCall {
    /// How long it lasted, or has lasted so far \[ms\].
    pub ms: f64,
    /// It has not returned yet.
    pub ongoing: bool,
}

impl LongestCall {
    /// `longest call 168 ms`, or `longest call 25000 ms, still blocked`;
    /// its milliseconds written by `ms`.
    pub fn text(&self, ms: impl Fn(f64) -> String) -> String {
        let still = if self.ongoing { ", still blocked" } else { "" };
        format!("longest call {} ms{still}", ms(self.ms))
    }

    /// What a narrow title says of it: `longest call 168 ms`, or `call
    /// 25000 ms, still blocked` (the words that say it is not over kept).
    pub fn short(&self, ms: impl Fn(f64) -> String) -> String {
        match self.ongoing {
            true => format!("call {} ms, still blocked", ms(self.ms)),
            false => self.text(ms),
        }
    }
}

/// The longest throttling call of `bdi` whose end is in `total` (the
/// window's bins), or the longest one still in progress where that has
/// lasted longer.
fn longest_call(src: &Source, bdi: usize, total: &Bin) -> Option<LongestCall> {
    let ended = (total.calls > 0).then(|| src.ms(u64::from(total.call_max)));
    let ongoing = src.in_call.get(bdi).copied().filter(|&j| j > 0).map(|j| src.ms(j));
    match (ended, ongoing) {
        (e, Some(o)) if o > e.unwrap_or(0.0) => Some(LongestCall { ms: o, ongoing: true }),
        (e, _) => e.map(|ms| LongestCall { ms, ongoing: false }),
    }
}

/// The longest sleep \[ms\] and the longest throttling call of `bdi` in
/// the window chart 5 shows (with one still in progress); `None` where
/// there was none.
pub fn longest_pauses(src: &Source, bdi: usize, window_s: Option<u64>) -> (Option<f64>, Option<LongestCall>) {
    let (_, x) = window(src.samples, window_s, 1, src.least_span_s);
    let to = src.samples.back().map_or(0, |s| s.t_ns);
    let total = src.pauses.total(bdi, (x[0] * 1e9) as u64, to);
    let sleep = (total.sleeps > 0).then(|| src.ms(u64::from(total.sleep_max)));
    (sleep, longest_call(src, bdi, &total))
}

/// The two control lines of bdi_position_ratio(), in floating point, for
/// drawing; from a sample's thresholds and one bdi's numbers \[pages\].
struct ControlLines {
    freerun: f64,
    setpoint: f64,
    limit: f64,
    /// bdi_thresh as the function clamps it.
    bdi_thresh: f64,
    bdi_setpoint: f64,
    span: f64,
    /// Patch 10's reserve area applies.
    reserve: bool,
}

impl ControlLines {
    fn new(s: &Sample, b: &BdiSample, reserve: bool) -> ControlLines {
        let (thresh, freerun, limit) = (s.thresh as f64, s.freerun as f64, s.limit as f64);
        let setpoint = (freerun + limit) / 2.0;
        let mut bdi_thresh = (b.thresh as f64).min(thresh);
        if reserve {
            bdi_thresh = bdi_thresh.max((limit - s.dirty as f64).max(0.0) / 8.0);
        }
        let share = bdi_thresh / (thresh + 1.0);
        let span = (thresh - bdi_thresh + 8.0 * b.avg_write_bw as f64) * share;
        ControlLines { freerun, setpoint, limit, bdi_thresh, bdi_setpoint: setpoint * share, span, reserve }
    }

    /// The global cubic: 2 at freerun, 1 at the setpoint, 0 at the limit.
    fn global(&self, x: f64) -> f64 {
        let (setpoint, limit) = (self.setpoint, self.limit);
        if x >= limit { 0.0 } else { (1.0 + ((setpoint - x) / (limit - setpoint + 1.0)).powi(3)).max(0.0) }
    }

    /// Where the bdi line crosses 0 if it went on \[pages\].
    fn x_intercept(&self) -> f64 {
        self.bdi_setpoint + self.span
    }

    /// The bdi line at the bdi's dirty pages `x`, with its 1/4 floor and
    /// the reserve area.
    fn bdi(&self, x: f64) -> f64 {
        let xi = self.x_intercept();
        let mut f = if x < xi - self.span / 4.0 { (xi - x) / (xi - self.bdi_setpoint + 1.0) } else { 0.25 };
        let bt = self.bdi_thresh;
        if self.reserve && x < bt / 2.0 {
            f *= if x > bt / 16.0 { (bt / 2.0) / x } else { 8.0 };
        }
        f
    }
}

/// Chart 3's pos_ratio where none is known above freerun: no task was
/// throttled on the bdi.
const NONE_THROTTLED: f64 = f64::NEG_INFINITY;

/// The clause of chart 3's title that gives the bdi's setpoint (a trace
/// leaves it out until a pass prints it, see [`without_bdi_setpoint`]).
const BDI_SETPOINT: &str = ", bdi_setpoint ";

/// Chart 3's title values without the bdi's setpoint: `freerun 15,
/// setpoint 17.5, limit 20 MiB`.
pub(crate) fn without_bdi_setpoint(values: &mut [String]) {
    for v in values {
        if let Some(at) = v.find(BDI_SETPOINT) {
            let unit = v.rsplit(' ').next().unwrap_or_default().to_string();
            v.truncate(at);
            v.push(' ');
            v.push_str(&unit);
        }
    }
}

/// Chart 3: the global cubic control line over [freerun, limit] against
/// global dirty pages, the bdi control line (with its 1/4 floor and, from
/// patch 10, the reserve area) against the bdi's own dirty pages, their
/// product, pos_ratio = 1, and where the system is on each now. Drawn from
/// the last sample; the product's point is the exact pos_ratio.
pub fn pos_ratio(src: &Source, bdi: usize, width: u16) -> ChartData {
    let has = src.kernel.position();
    let Some(s) = src.samples.back().filter(|_| has != Has::No) else {
        let mut data = ChartData::new(Vec::new(), [0.0, 1.0], "");
        data.x_unit = "MiB";
        data.y = [0.0, 2.0];
        data.note_kernel(has, "pos_ratio");
        return data;
    };
    let b = bdi_of(s, bdi);
    let l = ControlLines::new(s, b, src.kernel.patches >= 10);
    let (dirty, bdi_dirty) = (s.dirty as f64, b.dirty as f64);
    let ratio = if dirty > 0.0 { bdi_dirty / dirty } else { 1.0 };
    let y_top = 2.5;
    // Above the top is drawn at the top; a value not known stays one.
    let clip = |y: f64| if y > y_top { y_top } else { y };
    let n = (2 * width as usize).max(8);
    let xs = |lo: f64, hi: f64| (0..=n).map(move |i| lo + (hi - lo) * i as f64 / n as f64);
    let m = |pages: f64| mib(pages);
    let x_hi = l.limit * 1.04;
    // The bdi line against the bdi's own dirty pages, out past its x
    // intercept (or its share of the limit, if further): its own axis
    // when that is much shorter than the global one.
    let share = l.bdi_thresh / (s.thresh as f64 + 1.0);
    let bx_hi = (l.x_intercept() * 1.15).max(l.limit * share * 1.04).max(bdi_dirty * 1.05).max(1.0);
    let own_axis = bx_hi < 0.9 * x_hi;
    let bx = if own_axis { bx_hi } else { x_hi };
    let shadow = has == Has::Shadow;
    let curve = |lo, hi, f: &dyn Fn(f64) -> f64| xs(lo, hi).map(|x| (m(x), clip(f(x)))).collect::<Vec<_>>();
    let mut series = vec![
        Series { second_x: own_axis, ..Series::of(3, "1/4 floor", vec![(0.0, 0.25), (m(bx), 0.25)]) },
        Series { second_x: own_axis, shadow, ..Series::of(3, "bdi line", curve(0.0, bx, &|x| l.bdi(x))) },
        Series { shadow, ..Series::of(3, "global", curve(l.freerun, x_hi, &|x| l.global(x))) },
        Series {
            shadow,
            ..Series::of(3, "product = pos_ratio", curve(l.freerun, x_hi, &|x| l.global(x) * l.bdi(x * ratio)))
        },
    ];
    if l.reserve {
        let area = curve(0.0, l.bdi_thresh / 2.0, &|x| l.bdi(x));
        series.insert(1, Series { second_x: own_axis, shadow, ..Series::of(3, "reserve area", area) });
    }
    let mut data = ChartData::new(series, [0.0, m(x_hi)], "");
    data.x_unit = "MiB";
    data.y = [0.0, y_top];
    data.y_fixed = true;
    data.gridlines = GRIDLINES.iter().filter(|g| g.0 == 3).map(|g| g.1).collect();
    if own_axis {
        data.x2 = Some(SecondAxis { x: [0.0, m(bx)], name: "bdi".into(), color: 1 });
    }
    let mark = |at, glyph, color, second_x| Mark { at, glyph, color, second_x };
    data.marks = vec![
        mark((m(l.freerun), clip(l.global(l.freerun))), '◆', 2, false),
        mark((m(l.setpoint), 1.0), '◆', 2, false),
        mark((m(l.limit), 0.0), '◆', 2, false),
        mark((m(b.setpoint as f64), clip(l.bdi(b.setpoint as f64))), '◇', 1, own_axis),
        mark((m(bdi_dirty), clip(l.bdi(bdi_dirty))), '●', 1, own_axis),
    ];
    // Below freerun the global line is not drawn (no task is throttled):
    // no point on it either, where the cubic's value, above 2, was drawn
    // at the top with no line under it.
    if dirty >= l.freerun {
        data.marks.insert(4, mark((m(dirty), clip(l.global(dirty))), '●', 2, false));
    }
    data.mark_legend = vec![
        ('◆', 2, "freerun, setpoint, limit", "free/set/lim"),
        ('◇', 1, "bdi_setpoint", "bdi_set"),
        // In the product's colour, as its ●: no ● is drawn in a colour of
        // its own (the legend's yellow was none of them).
        ('●', 0, "now", "now"),
    ];
    debug_assert_eq!(data.mark_legend.len(), MARKS.iter().filter(|m| m.0 == 3).count());
    if let Some((_, p)) = s.operating_point(bdi.min(s.bdis.len() - 1)) {
        data.marks.push(mark((m(dirty), clip(p as f64 / 1024.0)), '●', 0, false));
    }
    // Where the system is now, drawn at the top: the title's pos_ratio 13
    // stood over dots on the 2.5 line with nothing to say so. (Below
    // freerun the title has no pos_ratio, but the bdi line's ● may be up
    // there.)
    let off_top = data.marks.iter().any(|p| p.glyph == '●' && p.at.1 >= y_top);
    // Not known: below freerun nobody is throttled (NaN); above it, no
    // task was on this bdi (a trace: no pass of it printed).
    let unknown = if dirty <= l.freerun { f64::NAN } else { NONE_THROTTLED };
    let pos_ratio = b.pos_ratio.map_or(unknown, |p| p as f64 / 1024.0);
    let sizes = [l.freerun, l.setpoint, l.limit, b.setpoint as f64].map(m);
    data.sized_values([&[pos_ratio][..], &sizes].concat(), |n, unit| {
        let ratio = format!("pos_ratio {}", show(n[0]));
        let (long, short) = match n[0] {
            x if x.is_nan() => (
                format!("pos_ratio {NOT_KNOWN}: below freerun, not computed"),
                format!("pos_ratio {NOT_KNOWN}: below freerun"),
            ),
            NONE_THROTTLED => (
                format!("pos_ratio {NOT_KNOWN}: no task throttled on this bdi"),
                format!("pos_ratio {NOT_KNOWN}: none throttled"),
            ),
            _ => (ratio.clone(), ratio),
        };
        let [freerun, setpoint, limit, bdi_setpoint] = [n[1], n[2], n[3], n[4]].map(|v| unit.number(v));
        let unit = unit.name();
        let lines = format!("freerun {freerun}, setpoint {setpoint}, limit {limit}{BDI_SETPOINT}{bdi_setpoint} {unit}");
        [vec![long, lines], vec![short]]
    });
    data.note_kernel(has, "pos_ratio");
    if off_top && data.notice.is_none() {
        data.notice = Some(format!("a ● above {y_top} is drawn on the top edge"));
        data.short_notice = data.notice.clone().zip(Some(format!("● above {y_top}, at the top")));
    }
    data
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::presets;
    use crate::session::{Session, SessionOptions};

    #[test]
    fn sizes_step_up_a_unit_past_four_digits_and_compared_charts_share_one() {
        let chart = |top: f64| {
            let mut d = ChartData::new(vec![Series::of(1, "dirty", vec![(0.0, 0.0), (1.0, top)])], [0.0, 1.0], "MiB");
            d.fit_y(|_| true);
            d.in_larger_unit();
            d
        };
        for (top, unit, shown) in [(737.0, "MiB", 737.0), (9500.0, "MiB", 9500.0), (12288.0, "GiB", 12.0)] {
            let d = chart(top / 1.05);
            assert_eq!((d.y_unit, d.y[1].round()), (unit, shown), "{top}");
        }
        let d = chart(20.0 * 1024.0 * 1024.0);
        assert_eq!((d.y_unit, d.series[0].points[1].1), ("TiB", 20.0));
        // Side by side: both in the larger unit, on one range, the
        // title's sizes written again in it.
        let mut two = [chart(9000.0), chart(12000.0)];
        let write: WriteValues = |n, unit| [vec![format!("dirty {}", unit.size(n[0])), "more".into()], vec![]];
        two[0].sized_values(vec![9000.0], write);
        two[0].values.truncate(1);
        assert_eq!(two[0].values, ["dirty 9000 MiB"]);
        crate::ui::view::share_ranges(&mut two);
        assert_eq!((two[0].y_unit, two[1].y_unit), ("GiB", "GiB"));
        assert_eq!(two[0].y, two[1].y);
        assert!((two[0].series[0].points[1].1 - 9000.0 / 1024.0).abs() < 1e-9);
        assert_eq!(two[0].values, ["dirty 8.79 GiB"], "as many values as it had");
        // Chart 3's size axis is its x axis.
        let mut three =
            ChartData::new(vec![Series::of(3, "global", vec![(0.0, 2.0), (20480.0, 0.0)])], [0.0, 20480.0], "");
        three.x_unit = "MiB";
        three.marks = vec![Mark { at: (10240.0, 1.0), glyph: '◆', color: 2, second_x: false }];
        three.in_larger_unit();
        assert_eq!((three.x_unit, three.x, three.marks[0].at), ("GiB", [0.0, 20.0], (10.0, 1.0)));
        assert_eq!((three.y_unit, three.series[0].points[1]), ("", (20.0, 0.0)));
    }

    #[test]
    fn every_line_of_a_chart_has_a_mono_line_of_its_own() {
        for chart in 1..=5 {
            for scatter in [false, true] {
                let of_kind = |e: &&Entry| e.chart == chart && (e.draw == Draw::Scatter) == scatter;
                let lines: Vec<&Entry> = GLOSSARY.iter().filter(of_kind).collect();
                let slots = if scatter { MONO_SCATTER.len() } else { MONO_LINES.len() };
                for (i, e) in lines.iter().enumerate() {
                    assert!(e.mono < slots, "{}", e.name);
                    assert!(lines[..i].iter().all(|o| o.mono != e.mono), "chart {chart}: {} shares its look", e.name);
                }
            }
        }
        assert_eq!(Draw::Scatter.legend_glyph(1, true), "×");
        assert_eq!(Draw::Scatter.legend_glyph(1, false), "•", "in colour, dots");
        // A line drawn dashed to show the one under it stays dashed.
        for e in GLOSSARY.iter().filter(|e| e.draw == Draw::Dashed) {
            assert!(MONO_LINES[e.mono].off > 0, "{}", e.name);
        }
    }

    fn session(preset: &str, secs: u64) -> Session {
        let s = presets::get(preset).expect("preset").expect("valid");
        let mut session = Session::new(s, None, SessionOptions::default()).expect("session");
        session.advance_to(secs * crate::sim::NS_PER_SEC);
        session
    }

    #[test]
    fn windows_are_thinned_to_twice_the_width_and_keep_the_last_sample() {
        let session = session("default", 20);
        let w = session.world();
        let (picked, x) = window(w.samples(), None, 50, 1.0);
        assert!(picked.len() <= 101, "{}", picked.len());
        assert_eq!(picked.last().map(|s| s.t_ns), w.samples().back().map(|s| s.t_ns));
        assert_eq!(x, [0.0, 20.0]);
        let (picked, x) = window(w.samples(), Some(5), 50, 1.0);
        assert_eq!(x, [15.0, 20.0]);
        assert!(picked.iter().all(|s| s.t_ns >= 15 * crate::sim::NS_PER_SEC));
    }

    /// switch-disk after its dd moved to sdb: sda, nearly empty, has a
    /// pos_ratio of about 13 on its reserve area, its ● at the top.
    #[test]
    fn a_point_above_the_top_is_said_to_be_drawn_there() {
        let session = session("switch-disk", 34);
        let src = Source::of(&session.sides[0]);
        let d = pos_ratio(&src, 0, 80);
        assert!(d.marks.iter().any(|m| m.glyph == '●' && m.at.1 == 2.5), "{:?}", d.values);
        assert_eq!(d.notice.as_deref(), Some("a ● above 2.5 is drawn on the top edge"));
        assert_eq!(d.notice_for(30), Some("● above 2.5, at the top"));
        let within = pos_ratio(&Source::of(&self::session("default", 20).sides[0]), 0, 80);
        assert_eq!(within.notice, None);
    }

    #[test]
    fn the_operating_points_sit_on_their_curves_and_pos_ratio_is_exact() {
        let session = session("default", 20);
        let src = Source::of(&session.sides[0]);
        let d = pos_ratio(&src, 0, 80);
        let exact = src.samples.back().and_then(|s| s.bdis[0].pos_ratio).expect("above freerun") as f64 / 1024.0;
        assert!(d.values[0].contains(&show(exact)), "{:?}", d.values);
        let product = d.marks.last().expect("the product's point");
        assert!((product.at.1 - exact).abs() < 1e-9);
        assert_eq!(d.gridlines, vec![1.0]);
        assert!(d.x2.is_none(), "one disk owns the whole limit: one dirty axis");
    }

    #[test]
    fn below_freerun_the_global_line_has_no_point() {
        // 0.2 s in, one dd has dirtied far less than freerun (553 MiB).
        let preset = presets::get("default").expect("preset").expect("valid");
        let mut early = Session::new(preset, None, SessionOptions::default()).expect("session");
        early.advance_to(crate::sim::NS_PER_SEC / 5);
        let src = Source::of(&early.sides[0]);
        let d = pos_ratio(&src, 0, 80);
        let s = src.samples.back().expect("a sample");
        assert!(s.dirty < s.freerun, "{} {}", s.dirty, s.freerun);
        assert_eq!(d.now_on("global"), None);
        assert_eq!(d.now_on("bdi line").map(|(x, _)| x), Some(mib(s.bdis[0].dirty as f64)));
        let later = session("default", 20);
        let d = pos_ratio(&Source::of(&later.sides[0]), 0, 80);
        assert!(d.now_on("global").is_some(), "above freerun the point is drawn");
    }

    #[test]
    fn the_pause_headline_is_the_same_at_every_width() {
        let session = session("hdd-100dd", 20);
        let src = Source::of(&session.sides[0]);
        let at = |w| pauses(&src, 0, Some(60), w, false).values;
        assert_eq!(at(40), at(200));
        let (Some(sleep), Some(call)) = longest_pauses(&src, 0, Some(60)) else { panic!("no pause") };
        assert!(call.ms >= sleep && sleep > 0.0 && !call.ongoing, "{sleep} {call:?}");
        assert_eq!(at(40)[0], format!("longest sleep {} ms, longest call {} ms", show(sleep), show(call.ms)));
        let narrow = pauses(&src, 0, Some(60), 40, false).short_values;
        assert_eq!(narrow, vec![format!("longest call {} ms", show(call.ms)), format!("sleep {} ms", show(sleep))]);
    }

    #[test]
    fn legacy_kernels_draw_freerun_but_no_setpoint_pos_ratio_or_dirty_ratelimit() {
        let mut s = presets::get("default").expect("preset").expect("valid");
        s.patches = 0;
        let mut session = Session::new(s, None, SessionOptions::default()).expect("session");
        session.advance_to(5 * crate::sim::NS_PER_SEC);
        let src = Source::of(&session.sides[0]);
        let names = |d: &ChartData| d.series.iter().map(|s| s.name).collect::<Vec<_>>();
        let one = global_dirty(&src, None, 80);
        assert!(!names(&one).contains(&"setpoint") && names(&one).contains(&"freerun"), "{:?}", names(&one));
        assert_eq!(one.notice.as_deref(), Some("setpoint: not used by this kernel"));
        assert!(pos_ratio(&src, 0, 80).series.is_empty());
        assert!(!names(&rates(&src, 0, None, 80, false)).contains(&"dirty_ratelimit"));
    }

    #[test]
    fn chart_4_fits_what_one_task_gets() {
        let session = session("hdd-100dd", 30);
        let src = Source::of(&session.sides[0]);
        let d = rates(&src, 0, Some(30), 80, false);
        let target = d.series.iter().find(|s| s.name == "write_bw/N").and_then(|s| s.points.last()).expect("target").1;
        assert!(target > 0.3 && target < 2.0, "a hundredth of the disk: {target}");
        assert!(d.y[1] < 5.0 * target, "the scale follows the target, not write_bw: {:?}", d.y);
    }

    /// A hundred dd's fall from 100 MiB/s goes off chart 4's linear top:
    /// said, with the key that draws it; not on a log axis, nor where a
    /// top shared with the chart beside it draws it after all.
    #[test]
    fn chart_4_says_where_earlier_rates_went_off_its_top() {
        let fell = vec![(0.0, 100.0), (10.0, 100.0), (20.0, 2.0), (40.0, 2.0)];
        let chart = |log: bool| {
            let mut d = ChartData::new(vec![Series::of(4, "dirty_ratelimit", fell.clone())], [0.0, 40.0], "MiB/s");
            d.log_y = log;
            fit_rates_y(&mut d);
            d
        };
        let d = chart(false);
        assert_eq!(d.y[1], 2.0 * 1.05 * 1.25, "the last quarter's rate");
        assert_eq!(d.notice.as_deref(), Some("earlier ratelimits up to 100 MiB/s are off the top: l draws a log axis"));
        assert_eq!(chart(true).notice, None);
        // Under twice the top: a moment over it, not said.
        let mut d = ChartData::new(vec![Series::of(4, "write_bw/N", vec![(0.0, 5.0), (40.0, 2.0)])], [0.0, 40.0], "");
        fit_rates_y(&mut d);
        assert_eq!(d.notice, None, "{:?}", d.y);
        // Beside a chart reaching 150 MiB/s, the fall is drawn.
        let mut d = chart(false);
        d.y[1] = 150.0;
        note_rates_off_top(&mut d);
        assert_eq!(d.notice, None);
    }
}
