//! The five figures as data: titles, axes, lines, dots and legend notes,
//! built from what [`super::collect`] gathered. Drawing them is
//! [`super::draw`]'s part, so that what a figure says can be tested
//! without reading pictures.

use super::collect::{POS_RATIO, Q, SideData};
use crate::lesson::check::show;
use crate::run::summary::NOT_KNOWN;
use crate::ui::charts::Has;

/// A colour, as red, green, blue.
pub type Rgb = (u8, u8, u8);

/// The Okabe-Ito palette: told apart by colour-blind readers and in print.
pub mod colour {
    use super::Rgb;
    /// Blue.
    pub const BLUE: Rgb = (0, 114, 178);
    /// Sky blue.
    pub const SKY: Rgb = (86, 180, 233);
    /// Bluish green.
    pub const GREEN: Rgb = (0, 158, 115);
    /// Orange.
    pub const ORANGE: Rgb = (230, 159, 0);
    /// Vermillion.
    pub const VERMILLION: Rgb = (213, 94, 0);
    /// Reddish purple.
    pub const PURPLE: Rgb = (204, 121, 167);
    /// Black.
    pub const BLACK: Rgb = (0, 0, 0);
    /// Grey, for guides.
    pub const GREY: Rgb = (150, 150, 150);
    /// The dots of side A and side B.
    pub const SIDES: [Rgb; 2] = [BLUE, VERMILLION];
}

/// How a line is stroked besides its colour, so that in print (where
/// orange, sky blue and purple are one grey) and to a colour-blind reader
/// the lines of a figure still differ: each of them has a dash pattern or
/// a glyph along it no other line of its figure has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Pattern {
    /// Unbroken.
    Solid,
    /// Dashes as long as their gaps and a half.
    Dash,
    /// Long dashes.
    LongDash,
    /// Dots.
    Dot,
    /// Dash, dot.
    DashDot,
}

impl Pattern {
    /// The on and off lengths, repeated \[px at scale 1\]; empty: unbroken.
    pub fn lengths(self) -> &'static [f64] {
        match self {
            Pattern::Solid => &[],
            Pattern::Dash => &[8.0, 4.0],
            Pattern::LongDash => &[18.0, 5.0],
            Pattern::Dot => &[2.0, 3.5],
            Pattern::DashDot => &[10.0, 3.5, 2.0, 3.5],
        }
    }
}

/// A mark drawn along a line at even intervals, for lines past the
/// dash patterns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Glyph {
    /// No mark.
    None,
    /// A triangle, point up.
    Triangle,
    /// A square.
    Square,
    /// A diamond.
    Diamond,
}

/// How a dot is drawn: side A's filled, side B's hollow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A filled disc.
    Disc,
    /// A ring (side B's sleeps and operating points).
    Ring,
    /// An ×.
    Cross,
    /// A + (side B's calls).
    Plus,
    /// A triangle pointing up, left of its point (a call still blocked at
    /// the end: it goes on rising).
    Triangle,
}

/// Points of a line drawn unbroken.
type Run = Vec<(f64, f64)>;

/// A line through points.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// Legend text; empty: not in the legend.
    pub label: String,
    /// Points (x, y).
    pub points: Vec<(f64, f64)>,
    /// Colour.
    pub colour: Rgb,
    /// Stroke width \[px at scale 1\].
    pub width: f64,
    /// Dash pattern.
    pub dash: Pattern,
    /// Glyph along it.
    pub glyph: Glyph,
    /// Drawn hollow, an outline in its colour around a white core (and
    /// its glyphs white inside): side B of a comparison.
    pub hollow: bool,
}

/// Points drawn one by one.
#[derive(Clone, Debug, PartialEq)]
pub struct Dots {
    /// Legend text; empty: not in the legend.
    pub label: String,
    /// Points (x, y).
    pub points: Vec<(f64, f64)>,
    /// Colour.
    pub colour: Rgb,
    /// Radius \[px at scale 1\].
    pub radius: f64,
    /// Shape.
    pub shape: Shape,
}

/// A vertical guide at `x`, named at the top of the plot.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    /// Where \[x units\].
    pub x: f64,
    /// Its name.
    pub text: String,
}

/// A plot above a figure's own, on the same time axis: chart 4's rates of
/// the whole bdi, when one task's would be flattened beside them.
#[derive(Clone, Debug, PartialEq)]
pub struct Panel {
    /// y axis name and unit.
    pub y_desc: String,
    /// y range.
    pub y: [f64; 2],
    /// Lines, back to front.
    pub lines: Vec<Line>,
}

/// The figures' file names without extension, in the order they are
/// drawn (chart 1 to 5).
pub const FILES: [&str; 5] = ["1-global-dirty", "2-bdi-dirty", "3-pos-ratio", "4-rates", "5-pauses"];

/// One figure.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// File name without extension.
    pub file: &'static str,
    /// Title.
    pub title: String,
    /// Lines under the title: the run, then each side's headline numbers.
    pub subtitle: Vec<String>,
    /// x axis name and unit.
    pub x_desc: String,
    /// What an x value is multiplied by in its tick label: 1000 for a
    /// time axis under a second long, labelled in ms; else 1.
    pub x_scale: f64,
    /// y axis name and unit.
    pub y_desc: String,
    /// x range.
    pub x: [f64; 2],
    /// y range; with `y_log`, of the values' base-10 logarithms.
    pub y: [f64; 2],
    /// The y axis is logarithmic: every y value (of the lines, the dots
    /// and the range) is the base-10 logarithm of what it shows, and the
    /// axis is labelled at each power of ten.
    pub y_log: bool,
    /// Lines, back to front.
    pub lines: Vec<Line>,
    /// A plot above this one, sharing its x axis; its lines come first in
    /// the legend.
    pub upper: Option<Panel>,
    /// Dots, drawn over the lines.
    pub dots: Vec<Dots>,
    /// Vertical guides.
    pub marks: Vec<Mark>,
    /// The sides' labels, for the filled/hollow key (empty with one side).
    pub sides: Vec<String>,
    /// Notes under the legend (what a kernel does not have, what is clipped).
    pub notes: Vec<String>,
    /// Said in the middle of the plot when there is nothing to draw.
    pub message: Option<String>,
}

/// About how large the plot of a figure of `size` pixels at scale `k` is,
/// at scale 1: the figure less the legend, the axes' labels and the title.
pub fn plot_size(size: (u32, u32), k: f64) -> (f64, f64) {
    ((f64::from(size.0) / k - 450.0).max(100.0), (f64::from(size.1) / k - 220.0).max(100.0))
}

/// What every figure says about the run.
#[derive(Clone, Debug)]
pub struct Context {
    /// The run: scenario or lesson step, seed.
    pub run: String,
    /// The bdi of charts 2 to 5.
    pub bdi: String,
    /// Plotted time \[s\]: start and end.
    pub span: [f64; 2],
}

impl Context {
    /// The second half of the plotted time, which the means cover: "30 s".
    fn half(&self) -> String {
        let s = (self.span[1] - self.span[0]) / 2.0;
        let decimals = if s >= 10.0 {
            0
        } else if s >= 1.0 {
            1
        } else {
            3
        };
        format!("{} s", crate::units::trimmed(s, decimals))
    }
}

/// A trace's value of `slot` (a quantity, or [`POS_RATIO`]) was known
/// over less than nine tenths of the means' window: its events printed it
/// over only part of it (a bdi's, only while a task is throttled on it).
/// A simulation's always is.
fn partial(s: &SideData, slot: usize) -> Option<f64> {
    let (known, window) = s.means.known_s(slot);
    (s.trace && known < 0.9 * window).then_some(known)
}

/// Over what a mean of `slot` is taken: `over the last 10 s`, or, for a
/// trace's value printed over only part of that, `over the 0.41 s of the
/// last 10 s where it was printed`; a trace's, of what it read every
/// 100 ms (`view`'s summary holds each reading until the next instead).
fn over(ctx: &Context, s: &SideData, slot: usize) -> String {
    let over = match partial(s, slot) {
        Some(known) => format!("over the {} of the last {} where it was printed", part_s(known), ctx.half()),
        None => format!("over the last {}", ctx.half()),
    };
    match every_row(s) {
        Some(every) => format!("{over} ({every})"),
        None => over,
    }
}

/// `read every 100 ms`, said of a trace's mean: it is of the rows
/// ([`crate::ktrace::series::BIN_S`]), not of every reading.
fn every_row(s: &SideData) -> Option<String> {
    s.trace.then(|| format!("read every {} ms", crate::ktrace::series::BIN_S * 1000.0))
}

/// A part of the means' window, to two figures: `0.41 s`, `0.02 s`, `3.5 s`.
fn part_s(s: f64) -> String {
    let two: f64 = crate::units::significant(s, 2).parse().unwrap_or(s);
    format!("{} s", crate::units::trimmed(two, 6))
}

/// A quantity's legend name, colour, stroke width, dash and glyph: no
/// two quantities of a figure share both dash and glyph.
fn style(q: Q) -> (&'static str, Rgb, f64, Pattern, Glyph) {
    use Pattern as D;
    use colour::*;
    let g = Glyph::None;
    match q {
        Q::Dirty => ("dirty (+writeback+unstable)", BLUE, 2.5, D::Solid, g),
        Q::Writeback => ("writeback+unstable", SKY, 1.5, D::Dot, g),
        Q::BgThresh => ("background_thresh", GREEN, 1.5, D::DashDot, g),
        Q::Freerun => ("freerun = (thresh+bg_thresh)/2", ORANGE, 1.5, D::Dash, g),
        Q::Setpoint => ("setpoint = (freerun+limit)/2", BLACK, 1.5, D::LongDash, g),
        Q::Limit => ("limit", VERMILLION, 1.5, D::Solid, Glyph::Triangle),
        Q::Thresh => ("dirty_thresh", PURPLE, 1.5, D::Solid, Glyph::Square),
        Q::BdiDirty => ("bdi_dirty", BLUE, 2.5, D::Solid, g),
        Q::BdiWriteback => ("bdi writeback+unstable", SKY, 1.5, D::Dot, g),
        Q::BdiSetpoint => ("bdi_setpoint", BLACK, 1.5, D::LongDash, g),
        Q::BdiThresh => ("bdi_thresh", PURPLE, 1.5, D::Solid, Glyph::Square),
        Q::WriteBw => ("write_bw", SKY, 1.5, D::Dot, g),
        Q::AvgWriteBw => ("avg_write_bw", BLUE, 2.0, D::Dash, g),
        Q::DirtyRatelimit => ("dirty_ratelimit", BLACK, 2.5, D::Solid, g),
        Q::Balanced => ("balanced_dirty_ratelimit", ORANGE, 1.0, D::DashDot, g),
        Q::TaskRatelimit => ("task_ratelimit", VERMILLION, 1.0, D::Solid, Glyph::Triangle),
        Q::Target => ("target: write_bw / N tasks throttled", GREEN, 1.5, D::LongDash, g),
        Q::MaxPause => ("max_pause", BLACK, 2.0, D::Solid, g),
        Q::Written => ("written (measured over 1 s)", GREY, 1.5, D::Solid, Glyph::Square),
        Q::DirtiedPerTask => ("dirtied/N: each throttled task's rate (over 1 s)", PURPLE, 1.5, D::Dot, Glyph::Diamond),
    }
}

/// A quantity's name in a sentence.
fn short(q: Q) -> &'static str {
    match q {
        Q::Freerun => "freerun",
        Q::Setpoint => "setpoint",
        Q::BdiSetpoint => "bdi_setpoint",
        Q::Target => "rate target",
        Q::Thresh => "dirty_thresh",
        q => style(q).0,
    }
}

impl Figure {
    fn new(file: &'static str, title: String, ctx: &Context, sides: &[SideData]) -> Figure {
        // Under a second, seconds would be labelled 0.00 0.05 0.10 ...
        let short = ctx.span[1] - ctx.span[0] < 1.0;
        Figure {
            file,
            title,
            subtitle: vec![ctx.run.clone()],
            x_desc: if short { "time [ms]" } else { "time [s]" }.into(),
            x_scale: if short { 1000.0 } else { 1.0 },
            y_desc: String::new(),
            x: ctx.span,
            y: [0.0, 1.0],
            y_log: false,
            lines: Vec::new(),
            upper: None,
            dots: Vec::new(),
            marks: Vec::new(),
            sides: if sides.len() > 1 { sides.iter().map(|s| s.label.clone()).collect() } else { Vec::new() },
            notes: Vec::new(),
            message: None,
        }
    }

    /// Adds each side's line of every quantity in `qs`: side B hollow, a
    /// line the same on both sides once, and a note naming what a side's
    /// kernel does not have.
    fn time_lines(&mut self, sides: &[SideData], qs: &[Q]) {
        for (i, side) in sides.iter().enumerate() {
            let mut missing = Vec::new();
            // This side's lines so far: the first of each and its runs.
            let mut drawn: Vec<(usize, Vec<Run>)> = Vec::new();
            for &q in qs {
                let (name, colour, width, dash, glyph) = style(q);
                if !side.has(q) {
                    missing.push(short(q));
                    continue;
                }
                let runs = side.runs(q);
                if i > 0 && sides[0].has(q) && sides[0].runs(q) == runs {
                    continue;
                }
                let drawn_by_a = i > 0 && sides[0].has(q);
                let label = if drawn_by_a { String::new() } else { name.to_string() };
                // Two quantities that coincide (limit and dirty_thresh, in a
                // steady world) are one line with both names.
                if let Some(&(j, _)) = drawn.iter().find(|(_, r)| *r == runs) {
                    let same = &mut self.lines[j];
                    if !label.is_empty() {
                        same.label =
                            if same.label.is_empty() { label } else { format!("{} = {}", same.label, short(q)) };
                    }
                    continue;
                }
                drawn.push((self.lines.len(), runs.clone()));
                // Broken where it was not known (a trace's bdi between
                // passes): each run a line, the first named.
                let runs = if runs.is_empty() { vec![Vec::new()] } else { runs };
                for (n, points) in runs.into_iter().enumerate() {
                    let label = if n == 0 { label.clone() } else { String::new() };
                    self.lines.push(Line { label, points, colour, width, dash, glyph, hollow: i == 1 });
                }
            }
            if !missing.is_empty() {
                let why = if side.trace { "not in this trace" } else { "not used by this kernel" };
                self.notes.push(format!("{}: no {} ({why})", side.label, missing.join(", ")));
            }
        }
    }

    /// Keeps one dot per cell of the plot (of `size` pixels at scale
    /// `k`) as wide and high as the dot: dots closer than that overlap
    /// into one blot, drawn the same by one of them. However long the run,
    /// a figure holds at most as many dots as the plot has cells, and a
    /// dot alone in its cell (a spike) is kept.
    pub fn thin_dots(&mut self, size: (u32, u32), k: f64) {
        let (x, y) = (self.x, self.y);
        for d in &mut self.dots {
            let cell = (2.0 * d.radius).max(1.0);
            let (w, h) = plot_size(size, k);
            let (w, h) = (w / cell, h / cell);
            let mut seen = std::collections::HashSet::new();
            d.points.retain(|&(px, py)| {
                let cell = (((px - x[0]) / (x[1] - x[0]) * w) as i64, ((py - y[0]) / (y[1] - y[0]) * h) as i64);
                seen.insert(cell)
            });
        }
    }

    /// Draws the sizes on axis `axis` (0: x, 1: y) in the unit its top
    /// is shown in on the screen ([`crate::units::SizeUnit::of`]: GiB past
    /// 9999 MiB, TiB past 9999 GiB), or in KiB where it stays under 0.1
    /// MiB (a 4 TiB world's axis read `2000000` into its name; a 16 MiB
    /// one's `0.002`): its range, lines, dots and guides, and the unit in
    /// its name.
    fn in_size_unit(&mut self, axis: usize) {
        let top = [self.x[1], self.y[1]][axis];
        let AxisUnit { per_mib: k, name: unit } = AxisUnit::of(top);
        let (desc, range) = if axis == 0 { (&mut self.x_desc, &mut self.x) } else { (&mut self.y_desc, &mut self.y) };
        *desc = desc.replacen("[MiB]", &format!("[{unit}]"), 1);
        *range = range.map(|v| v * k);
        let points = self.lines.iter_mut().map(|l| &mut l.points).chain(self.dots.iter_mut().map(|d| &mut d.points));
        for p in points.flatten() {
            if axis == 0 { p.0 *= k } else { p.1 *= k }
        }
        if axis == 0 {
            self.marks.iter_mut().for_each(|m| m.x *= k);
        }
    }

    /// Makes the y axis logarithmic: every value its base-10 logarithm
    /// (what is at or below 0 goes to the bottom), the range from the
    /// power of ten at or below the smallest value to a little over the
    /// largest.
    fn log_y(&mut self) {
        let values =
            || self.lines.iter().flat_map(|l| &l.points).chain(self.dots.iter().flat_map(|d| &d.points)).map(|p| p.1);
        let least = values().filter(|&v| v > 0.0).fold(f64::MAX, f64::min);
        let most = values().fold(0.0, f64::max);
        if least > most {
            return;
        }
        let bottom = least.log10().floor();
        let top = (most * 1.25).log10().max(bottom + 1.0);
        let log = |v: f64| if v > 0.0 { v.log10().max(bottom) } else { bottom };
        for p in
            self.lines.iter_mut().flat_map(|l| &mut l.points).chain(self.dots.iter_mut().flat_map(|d| &mut d.points))
        {
            p.1 = log(p.1);
        }
        self.y = [bottom, top];
        self.y_log = true;
        self.y_desc = format!("{} (log scale)", self.y_desc);
    }

    /// Fits the y range to the lines and dots, from 0.
    fn fit_y(&mut self) {
        let top = self
            .lines
            .iter()
            .flat_map(|l| &l.points)
            .chain(self.dots.iter().flat_map(|d| &d.points))
            .map(|p| p.1)
            .fold(0.0, f64::max);
        self.y = [0.0, if top > 0.0 { top * 1.08 } else { 1.0 }];
    }
}

/// The unit [`Figure::in_size_unit`] draws an axis in, from its top
/// \[MiB\]: that of [`crate::units::SizeUnit::of`], or KiB under 0.1 MiB.
struct AxisUnit {
    /// Its value of one MiB.
    per_mib: f64,
    name: &'static str,
}

impl AxisUnit {
    fn of(top: f64) -> AxisUnit {
        match crate::units::SizeUnit::of(top) {
            _ if top > 0.0 && top < 0.1 => AxisUnit { per_mib: 1024.0, name: "KiB" },
            u => AxisUnit { per_mib: u.value(1.0), name: u.name() },
        }
    }

    /// `mib` \[MiB\] as a subtitle writes it, in the unit of the axis it
    /// is read against: `669 MiB`, `645 GiB`, `4 KiB`. Each size once
    /// took its own unit: a 64 KiB threshold's line read `dirty 63.7 KiB
    /// …, setpoint 56 KiB; peak 0.184 MiB` over an axis in MiB, and a
    /// 16 MiB world's setpoint `0.004 MiB` over one in KiB.
    fn sized(&self, mib: f64) -> String {
        format!("{} {}", show(mib * self.per_mib), self.name)
    }

    /// A difference \[MiB\] with its sign: `+12.3 MiB`, `-4 KiB`, in the
    /// axis' unit where it reads a tenth of one at least, else in the unit
    /// an axis of its size would take (`+1.3 MiB vs limit` over an axis in
    /// GiB, where it read `+0.001 GiB`, and `+0.000 GiB` under 0.5 MiB).
    fn signed(&self, mib: f64) -> String {
        let v = mib.abs();
        let unit = if v == 0.0 || v * self.per_mib >= 0.1 { self } else { &AxisUnit::of(v) };
        format!("{}{}", if mib < 0.0 { "-" } else { "+" }, unit.sized(v))
    }
}

/// Chart 1: global dirty pages over time against the thresholds.
pub fn global_dirty(ctx: &Context, sides: &[SideData]) -> Figure {
    let mut f = Figure::new(FILES[0], "Global dirty pages against the dirty limits".into(), ctx, sides);
    f.y_desc = "pages [MiB]".into();
    f.time_lines(sides, &[Q::BgThresh, Q::Freerun, Q::Setpoint, Q::Limit, Q::Thresh, Q::Writeback, Q::Dirty]);
    f.fit_y();
    let unit = AxisUnit::of(f.y[1]);
    for s in sides {
        let m = &s.means;
        let setpoint = if s.has(Q::Setpoint) && !m.setpoint.is_nan() {
            format!(", setpoint {}", unit.sized(m.setpoint))
        } else {
            String::new()
        };
        let dirty = match s.has(Q::Dirty) {
            true if m.dirty.is_nan() => format!("dirty: no sample over the last {}", ctx.half()),
            true => format!("dirty {} on average {}", unit.sized(m.dirty), over(ctx, s, Q::Dirty as usize)),
            false => "dirty: not in this trace".to_string(),
        };
        // The lines are drawn from samples 100 ms apart: a spike between
        // two is not on them, and the run's peak, from every dirtying, is
        // told (where the figure starts with the run).
        let peak = match s.peak {
            Some((most, over)) if ctx.span[0] == 0.0 && over > -1.0e12 => {
                // Kernels before the series have no smoothed limit: thresh.
                let against = if s.kernel().smoothed_limit() { "limit" } else { "thresh" };
                format!("; peak {} ({} vs {against})", unit.sized(most), unit.signed(over))
            }
            _ => String::new(),
        };
        f.subtitle.push(format!("{}: {dirty}{setpoint}{peak}", s.label));
    }
    f.in_size_unit(1);
    f
}

/// Chart 2: the bdi's dirty pages against bdi_setpoint and bdi_thresh.
pub fn bdi_dirty(ctx: &Context, sides: &[SideData]) -> Figure {
    let mut f = Figure::new(FILES[1], format!("Dirty pages of bdi {}", ctx.bdi), ctx, sides);
    f.y_desc = "pages [MiB]".into();
    f.time_lines(sides, &[Q::BdiThresh, Q::BdiSetpoint, Q::BdiWriteback, Q::BdiDirty]);
    f.fit_y();
    let unit = AxisUnit::of(f.y[1]);
    for s in sides {
        let m = &s.means;
        let setpoint = if s.has(Q::BdiSetpoint) {
            format!(", bdi_setpoint {}", unit.sized(m.bdi_setpoint))
        } else {
            String::new()
        };
        let dirty = match s.has(Q::BdiDirty) {
            true if m.bdi_dirty.is_nan() => format!("bdi_dirty: not printed over the last {} (no pass)", ctx.half()),
            true => format!("bdi_dirty {} on average {}", unit.sized(m.bdi_dirty), over(ctx, s, Q::BdiDirty as usize)),
            false => "bdi_dirty: not in this trace".to_string(),
        };
        let setpoint = if m.bdi_dirty.is_nan() { String::new() } else { setpoint };
        f.subtitle.push(format!("{}: {dirty}{setpoint}", s.label));
        if s.trace && s.has(Q::BdiDirty) {
            // balance_dirty_pages() prints them only on its way to a pause.
            f.notes.push(format!(
                "{}: bdi_dirty and bdi_setpoint as printed, up to a second after each pass: the kernel prints them only while it throttles",
                s.label
            ));
        }
    }
    f.in_size_unit(1);
    f
}

/// The control lines of one side at the end of the run, as the dashboard
/// computes them (x in MiB, y in pos_ratio).
#[derive(Clone, Debug, Default)]
pub struct Curves {
    /// Named curves, as the dashboard's chart 3 names them: "global", "bdi
    /// line", "product = pos_ratio", "1/4 floor", "reserve area".
    pub curves: Vec<(String, Vec<(f64, f64)>)>,
    /// The operating point on the product at the end (dirty \[MiB\],
    /// pos_ratio); `None` when the kernel computed no pos_ratio then
    /// (below the freerun ceiling).
    pub now: Option<(f64, f64)>,
    /// The bdi's point on its control line at the end (bdi_dirty \[MiB\], ratio).
    pub bdi_now: Option<(f64, f64)>,
    /// freerun, setpoint and limit at the end \[MiB\].
    pub marks: [f64; 3],
    /// Why there are no curves, when a kernel trace cannot give them.
    pub absent: Option<String>,
}

/// The highest pos_ratio drawn.
const POS_TOP: f64 = 2.5;

/// Chart 3: the pos_ratio control lines at the end of the run with the
/// operating points the run went through.
pub fn pos_ratio(ctx: &Context, sides: &[SideData], curves: &[Curves]) -> Figure {
    use colour::*;
    let mut f = Figure::new(FILES[2], format!("Position control: pos_ratio on bdi {}", ctx.bdi), ctx, sides);
    f.x_desc = "dirty pages [MiB] (global dirty; bdi_dirty for the bdi line)".into();
    f.x_scale = 1.0;
    f.y_desc = "pos_ratio (1.0 = dirty_ratelimit)".into();
    let mut clipped = false;
    for (i, (s, c)) in sides.iter().zip(curves).enumerate() {
        let position = s.kernel().position();
        if position == Has::No {
            f.notes.push(format!("{}: no pos_ratio (not used by this kernel)", s.label));
            f.subtitle.push(format!("{}: no position control (it arrived with patch 02)", s.label));
            continue;
        }
        if let Some(why) = &c.absent {
            f.subtitle.push(format!("{}: no control lines ({why})", s.label));
            continue;
        }
        if position == Has::Shadow {
            f.notes.push(format!("{}: pos_ratio computed, used to throttle only from patch 07", s.label));
        }
        let first = f.marks.is_empty();
        // The reserve area over the bdi line it bends.
        let mut order: Vec<&(String, Vec<(f64, f64)>)> = c.curves.iter().collect();
        order.sort_by_key(|(name, _)| {
            ["1/4 floor", "bdi line", "reserve area", "global", "product = pos_ratio"].iter().position(|n| n == name)
        });
        for (name, points) in order {
            let (colour, width, dash) = match name.as_str() {
                "global" => (ORANGE, 2.0, Pattern::Dash),
                "bdi line" => (GREEN, 2.0, Pattern::LongDash),
                "product = pos_ratio" => (BLUE, 2.5, Pattern::Solid),
                "reserve area" => (PURPLE, 2.0, Pattern::Dot),
                _ => (GREY, 1.0, Pattern::DashDot),
            };
            let label = match name.as_str() {
                "global" => "global control line (cubic)",
                "bdi line" => "bdi control line",
                "product = pos_ratio" => "product: global × bdi",
                "reserve area" => "bdi reserve area (patch 10)",
                _ => "bdi line floor: 1/4",
            };
            let label = if first { label.to_string() } else { String::new() };
            let points = points.clone();
            f.lines.push(Line { label, points, colour, width, dash, glyph: Glyph::None, hollow: i == 1 });
        }
        // The second side's marks where they are not the first's, named
        // with their side.
        for (j, (x, text)) in c.marks.iter().zip(["freerun", "setpoint", "limit"]).enumerate() {
            let shared = curves.first().is_some_and(|c0| (c0.marks[j] - x).abs() <= 0.01 * x.abs());
            if first {
                f.marks.push(Mark { x: *x, text: text.into() });
            } else if !shared {
                f.marks.push(Mark { x: *x, text: format!("{text}, {}", s.label) });
            }
        }
        clipped |= s.operating.iter().chain(c.curves.iter().flat_map(|c| &c.1)).any(|p| p.1 >= POS_TOP);
        let op = s.operating.iter().map(|&(x, y)| (x, y.min(POS_TOP))).collect();
        let who = if sides.len() > 1 { format!("{}: ", s.label) } else { String::new() };
        f.dots.push(Dots {
            label: format!("{who}operating points (0.1 s apart)"),
            points: op,
            colour: [VERMILLION, BLACK][i],
            radius: 1.5,
            shape: [Shape::Disc, Shape::Ring][i],
        });
        if let Some((x, y)) = c.now {
            f.dots.push(Dots {
                label: format!("{who}at the end: pos_ratio {y:.3}"),
                points: vec![(x, y.min(POS_TOP))],
                colour: BLACK,
                radius: 5.0,
                shape: [Shape::Disc, Shape::Cross][i],
            });
        }
        if let Some((x, y)) = c.bdi_now {
            f.dots.push(Dots {
                label: format!("{who}bdi_dirty at the end (bdi line)"),
                points: vec![(x, y.min(POS_TOP))],
                colour: GREEN,
                radius: 5.0,
                shape: [Shape::Disc, Shape::Cross][i],
            });
        }
        let shown =
            |p: Option<f64>| p.map_or(format!("{NOT_KNOWN} (below freerun: not computed)"), |p| format!("{p:.3}"));
        // A trace without a pass in the window printed none.
        let mean = match s.means.pos_ratio {
            None if s.trace => format!("{NOT_KNOWN} (no pass printed one)"),
            p => shown(p),
        };
        f.subtitle.push(format!(
            "{}: pos_ratio {} at the end, {mean} on average {}",
            s.label,
            shown(c.now.map(|n| n.1)),
            over(ctx, s, POS_RATIO)
        ));
    }
    if !f.lines.is_empty() {
        f.notes.push(format!(
            "the lines as they stand at the end ({} s); the operating points as they were",
            crate::units::seconds(ctx.span[1])
        ));
    }
    if clipped {
        f.notes.push(format!("pos_ratio above {POS_TOP} is drawn at {POS_TOP}"));
    }
    if f.lines.is_empty() {
        f.message = Some(match curves.iter().find_map(|c| c.absent.clone()) {
            Some(why) => format!("No control lines: {why}"),
            None => "No position control in this kernel: pos_ratio arrived with patch 02/11".into(),
        });
    }
    // Every side's marks and every point drawn lie inside.
    let points = sides.iter().flat_map(|s| &s.operating).copied();
    let ends = curves.iter().flat_map(|c| c.now.into_iter().chain(c.bdi_now));
    let xs = curves.iter().flat_map(|c| c.marks).chain(points.chain(ends).map(|p| p.0));
    let right = xs.fold(0.0, f64::max) * 1.04;
    f.x = [0.0, if right > 0.0 { right } else { 1.0 }];
    f.y = [0.0, POS_TOP];
    f.in_size_unit(0);
    f
}

/// Chart 4: the bdi's bandwidth estimates and rate limits. With several
/// tasks what one task gets (the target, its rate limits) is a small
/// fraction of the bdi's bandwidth, flattened at the bottom of a plot
/// that holds both: where over the second half of the run it is under
/// half the bdi's rates, the whole plot goes above, and below it one
/// task's rates zoomed to what they were over that half, where
/// dirty_ratelimit's approach to the target can be read.
pub fn rates(ctx: &Context, sides: &[SideData]) -> Figure {
    let mut f = Figure::new(FILES[3], format!("Rates on bdi {}", ctx.bdi), ctx, sides);
    f.y_desc = "rate [MiB/s]".into();
    let qs = [
        Q::Written,
        Q::Target,
        Q::WriteBw,
        Q::AvgWriteBw,
        Q::DirtiedPerTask,
        Q::Balanced,
        Q::TaskRatelimit,
        Q::DirtyRatelimit,
    ];
    f.time_lines(sides, &qs);
    // balanced_dirty_ratelimit jumps far above the rest while the
    // estimates settle, and the tasks dirty memory far faster than the
    // disk writes until they are throttled: keep them from flattening
    // the rest.
    let (balanced, dirtied) = (style(Q::Balanced).1, style(Q::DirtiedPerTask).1);
    let spiky = |l: &Line| l.colour == balanced || l.colour == dirtied;
    let top = top_of(&f.lines, |l, _| !spiky(l)) * 1.25;
    let top = if top > 0.0 { top } else { top_of(&f.lines, |_, _| true) * 1.25 };
    let top = if top > 0.0 { top } else { 1.0 };
    let mut clipped = Vec::new();
    for l in f.lines.iter_mut().filter(|l| spiky(l)) {
        let name = if l.colour == balanced { "balanced_dirty_ratelimit" } else { "dirtied/N" };
        for p in &mut l.points {
            if p.1 > top && !clipped.contains(&name) {
                clipped.push(name);
            }
            p.1 = p.1.min(top);
        }
    }
    if !clipped.is_empty() {
        let (verb, cut) = if clipped.len() > 1 { ("are", clipped.join(" and ")) } else { ("is", clipped.join("")) };
        f.notes.push(format!("{cut} {verb} cut at the top of the plot"));
    }
    f.y = [0.0, top];
    let one_task = [Q::Target, Q::DirtiedPerTask, Q::Balanced, Q::TaskRatelimit, Q::DirtyRatelimit].map(|q| style(q).1);
    let half = (ctx.span[0] + ctx.span[1]) / 2.0;
    let zoom = top_of(&f.lines, |l, p| one_task.contains(&l.colour) && l.colour != balanced && p.0 >= half) * 1.25;
    let bdi = top_of(&f.lines, |l, p| !one_task.contains(&l.colour) && p.0 >= half);
    if zoom > 0.0 && zoom < bdi / 2.0 {
        let zoomed = f.lines.iter().filter(|l| one_task.contains(&l.colour)).flat_map(|l| under(l, zoom)).collect();
        let all = std::mem::replace(&mut f.lines, zoomed);
        f.upper = Some(Panel { y_desc: std::mem::take(&mut f.y_desc), y: f.y, lines: all });
        f.y_desc = "one task [MiB/s]".into();
        f.y = [0.0, zoom];
        f.notes.push("below: one task's rates, zoomed; what goes past its top is left out".into());
    }
    for s in sides {
        if s.kernel().ratelimit() == Has::Shadow {
            f.notes.push(format!(
                "{}: dirty_ratelimit, balanced and task_ratelimit computed, used to throttle only from patch 07",
                s.label
            ));
        }
        let (mib, secs) = s.written;
        let written = match s.has(Q::Written) {
            true => format!("written {:.1} MiB/s", if secs > 0.0 { mib / secs } else { 0.0 }),
            // global_dirty_state's `written` counts every bdi.
            false => "the bdi's written: not in this trace".to_string(),
        };
        let m = &s.means;
        // A trace's values printed over only part of the window say so.
        let partly: Vec<String> = [(Q::DirtyRatelimit, "dirty_ratelimit's"), (Q::Target, "the target's")]
            .into_iter()
            .filter(|&(q, _)| s.has(q) && (q != Q::Target || m.has_target()))
            .filter_map(|(q, name)| {
                Some(format!("; {name} over the {} of it where it was printed", part_s(partial(s, q as usize)?)))
            })
            .collect();
        if m.dirty_ratelimit.is_nan() && s.has(Q::DirtyRatelimit) {
            f.subtitle.push(format!(
                "{}: {written}; dirty_ratelimit: not printed over the last {}",
                s.label,
                ctx.half()
            ));
            continue;
        }
        let rate = match (s.has(Q::DirtyRatelimit), s.has(Q::Target)) {
            (true, true) if !m.has_target() => {
                format!(
                    "; dirty_ratelimit {} MiB/s; no task dirtying {}, so no target",
                    show(m.dirty_ratelimit),
                    ctx.bdi
                )
            }
            (true, true) => {
                format!(
                    "; dirty_ratelimit {} MiB/s against a target of {} MiB/s",
                    show(m.dirty_ratelimit),
                    show(m.target)
                )
            }
            (true, false) => {
                format!("; dirty_ratelimit {} MiB/s, its target not in this trace", show(m.dirty_ratelimit))
            }
            (false, true) if m.has_target() => format!("; a target of {} MiB/s", show(m.target)),
            (false, _) => String::new(),
        };
        f.subtitle.push(format!(
            "{}: {written}{rate} (means over the last {}{}{})",
            s.label,
            ctx.half(),
            every_row(s).map(|every| format!(", {every}")).unwrap_or_default(),
            partly.concat()
        ));
    }
    f
}

/// The largest y of the points of `lines` that `keep` keeps; 0 for none.
fn top_of(lines: &[Line], keep: impl Fn(&Line, (f64, f64)) -> bool) -> f64 {
    lines
        .iter()
        .flat_map(|l| l.points.iter().map(move |&p| (l, p)))
        .filter(|&(l, p)| keep(l, p))
        .map(|(_, p)| p.1)
        .fold(0.0, f64::max)
}

/// The runs of `line` at or under `top`, unnamed: a line that leaves the
/// plot at its top is broken there, not drawn along it.
fn under(line: &Line, top: f64) -> Vec<Line> {
    let run = |points: &[(f64, f64)]| Line {
        label: String::new(),
        points: points.to_vec(),
        colour: line.colour,
        width: line.width,
        dash: line.dash,
        glyph: line.glyph,
        hollow: line.hollow,
    };
    line.points.split(|p| p.1 > top).filter(|r| !r.is_empty()).map(run).collect()
}

/// Chart 5: every throttling pause of the bdi's tasks, and max_pause.
pub fn pauses(ctx: &Context, sides: &[SideData]) -> Figure {
    use colour::*;
    let mut f = Figure::new(FILES[4], format!("Throttling pauses of the tasks on bdi {}", ctx.bdi), ctx, sides);
    f.y_desc = "pause [ms]".into();
    f.time_lines(sides, &[Q::MaxPause]);
    let who = |s: &SideData| if sides.len() > 1 { format!("{}: ", s.label) } else { String::new() };
    for (i, s) in sides.iter().enumerate() {
        f.dots.push(Dots {
            label: format!("{}one sleep", who(s)),
            points: s.sleeps.clone(),
            colour: SIDES[i],
            radius: 1.8,
            shape: [Shape::Disc, Shape::Ring][i],
        });
    }
    // Whole calls over the sleeps: a call of several sleeps or writeback
    // is what the task waited.
    for (i, s) in sides.iter().enumerate().filter(|(_, s)| !s.calls.is_empty()) {
        f.dots.push(Dots {
            label: format!("{}one call, when longer than its last sleep", who(s)),
            points: s.calls.clone(),
            colour: if i == 0 { BLACK } else { PURPLE },
            radius: 3.0,
            shape: [Shape::Cross, Shape::Plus][i],
        });
    }
    // A call still blocked at the end that is the side's longest, at its
    // length so far: the subtitle's longest call is on the plot.
    for (i, s) in sides.iter().enumerate() {
        let (Some(end), Some(blocked)) = (s.last.as_ref().map(|l| l.t_ns as f64 / 1e9), s.blocked_ms()) else {
            continue;
        };
        f.dots.push(Dots {
            label: format!("{}a call still blocked at the end, so far", who(s)),
            points: vec![(end, blocked)],
            colour: if i == 0 { BLACK } else { PURPLE },
            radius: 4.0,
            shape: Shape::Triangle,
        });
    }
    for s in sides {
        let (h, c) = (&s.sleep_hist, &s.call_hist);
        let lost = if s.pauses_lost { " (some pauses were lost: the run is too large)" } else { "" };
        if !s.pauses_known {
            f.subtitle.push(format!("{}: pauses not in this trace (enable writeback:balance_dirty_pages)", s.label));
            continue;
        }
        if h.count() == 0 && c.count() == 0 && s.in_call == 0 {
            f.subtitle.push(format!("{}: no task slept or was throttled{lost}", s.label));
            continue;
        }
        // A call still in progress at the end (3.1 holds a dd on a USB
        // key half a minute in one) is the longest where it is longer.
        let call = match s.blocked_ms() {
            Some(blocked) => format!("{blocked:.0} ms, still blocked at the end"),
            None => format!("{:.0} ms", s.ms(c.max())),
        };
        f.subtitle.push(format!(
            "{}: {}, p50 {:.0} ms, p99 {:.0} ms, max {:.0} ms; longest call {call}{lost}",
            s.label,
            crate::units::count(h.count(), "sleep"),
            s.ms(h.quantile(0.5)),
            s.ms(h.quantile(0.99)),
            s.ms(h.max())
        ));
    }
    f.fit_y();
    // Where one side's longest pauses are more than ten times the
    // other's (2.6.38's seconds-long calls beside the series' tens of
    // ms), a linear axis flattens the shorter side into the floor: the
    // axis is logarithmic then, both sides read.
    let longest =
        |s: &SideData| s.sleeps.iter().chain(&s.calls).map(|p| p.1).fold(s.blocked_ms().unwrap_or(0.0), f64::max);
    // So too where a call of many sleeps (2.6.38's, NFS's) lasts more
    // than ten times the longest sleep: the sleeps lay in the floor.
    let sleep = sides.iter().flat_map(|s| &s.sleeps).map(|p| p.1).fold(0.0, f64::max);
    let call = sides
        .iter()
        .map(|s| s.calls.iter().map(|p| p.1).fold(s.blocked_ms().unwrap_or(0.0), f64::max))
        .fold(0.0, f64::max);
    let sides_longest = match sides {
        [a, b] => Some((longest(a), longest(b))),
        _ => None,
    };
    let note = match sides_longest {
        Some((a, b)) if a > 0.0 && b > 0.0 && a.max(b) > 10.0 * a.min(b) => Some(format!(
            "pause axis logarithmic: one side's longest throttling call is {:.0} times the other's",
            a.max(b) / a.min(b)
        )),
        _ if sleep > 0.0 && call > 10.0 * sleep => {
            Some(format!("pause axis logarithmic: the longest call is {:.0} times the longest sleep", call / sleep))
        }
        _ => None,
    };
    if let Some(note) = note {
        f.log_y();
        f.notes.push(note);
    }
    f
}

#[cfg(test)]
mod tests {
    use super::AxisUnit;

    /// A subtitle's sizes are read against the axis, in its unit; a
    /// difference too small to read in it (`+0.001 GiB`) takes its own.
    #[test]
    fn sizes_take_the_axis_unit_and_small_differences_their_own() {
        let gib = AxisUnit::of(12_288.0);
        assert_eq!(gib.sized(10_547.2), "10.3 GiB");
        assert_eq!(gib.signed(1.32), "+1.32 MiB");
        assert_eq!(gib.signed(-204.8), "-0.200 GiB");
        assert_eq!(gib.signed(0.05), "+51.2 KiB");
        let kib = AxisUnit::of(0.09);
        assert_eq!((kib.sized(0.0625), kib.signed(0.125)), ("64 KiB".to_string(), "+128 KiB".to_string()));
        let mib = AxisUnit::of(737.0);
        assert_eq!(
            (mib.sized(645.0), mib.signed(35.5), mib.signed(0.0)),
            ("645 MiB".into(), "+35.5 MiB".into(), "+0 MiB".into())
        );
    }
}
