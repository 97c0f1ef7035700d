//! Drawing a [`Figure`] with plotters, on its SVG or bitmap backend: the
//! title and the run's numbers on top, the plot with its axes, ticks and
//! grid, and the legend beside it, where it hides no data.

use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::chart::{Figure, Glyph, Line, Pattern, Rgb, Shape};

/// Width of the legend beside the plot \[px at scale 1\].
const LEGEND_W: f64 = 370.0;

/// The font every figure uses: DejaVu Sans, embedded, so that drawing
/// needs no font installed (and SVG viewers that lack it fall back to
/// their sans-serif of nearly the same metrics).
fn register_fonts() -> Result<(), String> {
    static DONE: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
    DONE.get_or_init(|| {
        for (style, bytes) in [(FontStyle::Normal, dejavu::sans::regular()), (FontStyle::Bold, dejavu::sans::bold())] {
            plotters::style::register_font("sans-serif", style, bytes)
                .map_err(|_| "the embedded font is unreadable".to_string())?;
        }
        Ok(())
    })
    .clone()
}

fn rgb((r, g, b): Rgb) -> RGBColor {
    RGBColor(r, g, b)
}

/// The decimals a tick spacing of `step` needs: 0 for 1, 10 or 50, 1
/// for 0.5, 2 for 0.25 (4 at most).
fn decimals(step: f64) -> usize {
    let exact = |d: usize| {
        let s = step * 10f64.powi(d as i32);
        (s - s.round()).abs() <= 1e-6 * s.abs().max(1.0)
    };
    if step.is_finite() && step > 0.0 { (0..4).find(|&d| exact(d)).unwrap_or(4) } else { 0 }
}

/// The decimals of the tick labels plotters draws on `range` when asked
/// for `n`: those their spacing needs, the same for every label ("0 1 2
/// ... 7" over 7 s, "0.0 0.5 ... 2.5", never "0.0 1.0 2.0").
fn tick_decimals(range: [f64; 2], n: usize, scale: f64) -> usize {
    use plotters::coord::ranged1d::Ranged;
    let points = RangedCoordf64::from(range[0]..range[1]).key_points(n);
    let step = points.windows(2).map(|w| (w[1] - w[0]) * scale).fold(f64::MAX, f64::min);
    decimals(if points.len() > 1 { step } else { (range[1] - range[0]) * scale })
}

/// A tick label with `decimals` decimals (never "-0").
fn tick(v: f64, decimals: usize) -> String {
    let text = format!("{v:.decimals$}");
    if text.trim_start_matches(['-', '0', '.']).is_empty() { format!("{:.decimals$}", 0.0) } else { text }
}

/// Breaks `text` into lines of at most `width` characters.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in crate::units::with_units(text).split(' ') {
        let line = lines.last_mut().expect("one line at least");
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(word.to_string());
        } else {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
    }
    lines
}

/// `text` broken between words into lines that `fits` (a word longer
/// than a line has one of its own), a number never apart from its unit.
fn fit(text: &str, fits: impl Fn(&str) -> bool) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in crate::units::with_units(text).split(' ') {
        match lines.last_mut() {
            Some(line) if fits(&format!("{line} {word}")) => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines.into_iter().map(|l| l.replace('\u{a0}', " ")).collect()
}

/// How dashed lines are drawn: by their dashes, on a bitmap; on SVG, as
/// one polyline each in a stand-in colour that [`Pen::dash`] then gives
/// its own colour and an SVG dash pattern (a dashed line of a long run
/// takes no more bytes than a solid one).
struct Pen {
    /// Pixels per unit of the figure's geometry.
    k: f64,
    /// On SVG, each stand-in colour's colour and dash pattern, by number.
    svg: Option<std::cell::RefCell<Vec<(RGBColor, String)>>>,
}

impl Pen {
    /// The stand-in colour of a dashed line of `colour` and `pattern`, on
    /// SVG: none of the palette's (which has no red of 1).
    fn stand_in(&self, colour: RGBColor, pattern: &[f64]) -> Option<RGBColor> {
        let keys = self.svg.as_ref()?;
        let mut keys = keys.borrow_mut();
        let dash: Vec<String> = pattern.iter().map(|v| crate::units::trimmed(*v, 1)).collect();
        keys.push((colour, dash.join(" ")));
        let n = keys.len() - 1;
        Some(RGBColor(1, (n >> 8) as u8, n as u8))
    }

    /// `svg` with each stand-in colour's lines in their colour, dashed.
    fn dash(&self, svg: String) -> String {
        let Some(keys) = &self.svg else { return svg };
        let hex = |c: RGBColor| format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2);
        let mut svg = svg;
        for (n, (colour, dash)) in keys.borrow().iter().enumerate() {
            let stand_in = hex(RGBColor(1, (n >> 8) as u8, n as u8));
            svg = svg.replace(
                &format!("stroke=\"{stand_in}\""),
                &format!("stroke=\"{}\" stroke-dasharray=\"{dash}\"", hex(*colour)),
            );
        }
        svg
    }
}

/// Draws `f` on `root`, `pen.k` pixels per unit of the figure's geometry.
fn render<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, f: &Figure, pen: &Pen) -> Result<(), String> {
    let k = pen.k;
    register_fonts()?;
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| format!("drawing {}: {e}", f.file);
    let px = |v: f64| (v * k).round() as i32;
    let font = |size: f64| ("sans-serif", size * k).into_font();
    root.fill(&WHITE).map_err(e)?;

    // Title and the run's numbers, each line broken where it would pass
    // the right edge (a long trace file name, a comparison's labels).
    let room = root.dim_in_pixel().0 as i32 - px(48.0);
    let subtitle_font: TextStyle = font(18.0).into();
    let mut subtitle = Vec::new();
    for line in &f.subtitle {
        let width = |t: &str| root.estimate_text_size(t, &subtitle_font).map_or(0, |s| s.0 as i32);
        subtitle.extend(fit(line, |t| width(t) <= room));
    }
    let header_h = px(64.0 + 23.0 * (subtitle.len() as f64 - 1.0) + 16.0);
    let (header, body) = root.split_vertically(header_h);
    header
        .draw(&Text::new(f.title.clone(), (px(24.0), px(16.0)), ("sans-serif", 30.0 * k, FontStyle::Bold).into_font()))
        .map_err(e)?;
    let grey = RGBColor(70, 70, 70);
    for (i, line) in subtitle.into_iter().enumerate() {
        let y = px(58.0 + 23.0 * i as f64);
        header.draw(&Text::new(line, (px(24.0), y), font(18.0).color(&grey))).map_err(e)?;
    }

    let (w, h) = body.dim_in_pixel();
    let (plot_area, legend) = body.split_horizontally(w as i32 - px(LEGEND_W));
    let plot_area = match &f.upper {
        Some(upper) => {
            // The upper plot takes a third of the height, without x labels:
            // the time axis is the lower one's.
            let (top, bottom) = plot_area.split_vertically(h as i32 * 5 / 14);
            let mut chart = axes(&top, [f.x, upper.y], ("", &upper.y_desc), f.x_scale, false, k).map_err(e)?;
            draw_lines(&mut chart, &upper.lines, pen).map_err(e)?;
            bottom
        }
        None => plot_area,
    };
    let mut chart = axes(&plot_area, [f.x, f.y], (&f.x_desc, &f.y_desc), f.x_scale, f.y_log, k).map_err(e)?;
    let y_span = f.y[1] - f.y[0];

    // Guides, then lines, then dots.
    for (j, m) in f.marks.iter().enumerate() {
        let style = RGBColor(120, 120, 120).stroke_width(px(1.0).max(1) as u32);
        chart.draw_series(DashedLineSeries::new([(m.x, f.y[0]), (m.x, f.y[1])], px(3.0), px(4.0), style)).map_err(e)?;
        let y = f.y[1] - y_span * (0.03 + 0.05 * j as f64);
        // Near the right edge the name goes left of its line.
        let (text, side) = if m.x - f.x[0] > 0.8 * (f.x[1] - f.x[0]) {
            (format!("{} ", m.text), HPos::Right)
        } else {
            (format!(" {}", m.text), HPos::Left)
        };
        let style = font(16.0).color(&RGBColor(90, 90, 90)).pos(Pos::new(side, VPos::Top));
        let label = Text::new(text, (m.x, y), style);
        chart.draw_series(std::iter::once(label)).map_err(e)?;
    }
    draw_lines(&mut chart, &f.lines, pen).map_err(e)?;
    let plot = chart.plotting_area();
    let screen = plot.use_screen_coord();
    for d in &f.dots {
        for p in &d.points {
            dot(&screen, plot.map_coordinate(p), d.shape, rgb(d.colour), d.radius, k).map_err(e)?;
        }
    }
    if let Some(message) = &f.message {
        let at = ((f.x[0] + f.x[1]) / 2.0, (f.y[0] + f.y[1]) / 2.0);
        let style = font(20.0).color(&RGBColor(90, 90, 90)).pos(Pos::new(HPos::Center, VPos::Center));
        chart.draw_series(std::iter::once(Text::new(message.clone(), at, style))).map_err(e)?;
    }
    draw_legend(&legend, f, pen).map_err(e)?;
    Ok(())
}

/// A plot's frame on `area`: axes over `x` and `y` with their ticks,
/// names and grid, the x labels `x_scale` times the value (1000: seconds
/// labelled in ms). An empty `x_desc` leaves the time axis unlabelled (a
/// plot above another). With `y_log`, `y` holds base-10 logarithms: the
/// y axis is labelled at each power of ten (1, 10, 100 ...), its light
/// lines at 2 to 9 times them.
fn axes<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    [x, y]: [[f64; 2]; 2],
    (x_desc, y_desc): (&str, &str),
    x_scale: f64,
    y_log: bool,
    k: f64,
) -> Result<Chart<'a, DB>, DrawingAreaErrorKind<DB::ErrorType>> {
    let px = |v: f64| (v * k).round() as i32;
    let font = |size: f64| ("sans-serif", size * k).into_font();
    let labelled = !x_desc.is_empty();
    let mut chart = ChartBuilder::on(area)
        .margin_left(px(12.0))
        .margin_right(px(12.0))
        .margin_top(px(8.0))
        .margin_bottom(px(if labelled { 12.0 } else { 4.0 }))
        .x_label_area_size(px(if labelled { 62.0 } else { 8.0 }))
        .y_label_area_size(px(88.0))
        .build_cartesian_2d(x[0]..x[1], y[0]..y[1])?;
    // A log axis has a label at each power of ten in its range (the key
    // points of a range of n decades, n + 1 of them at most, are its
    // whole numbers).
    let decades = (y[1].floor() - y[0].ceil()).max(0.0) as usize + 1;
    let (x_n, y_n) = (
        10,
        if y_log {
            decades
        } else if labelled {
            8
        } else {
            4
        },
    );
    let (x_dec, y_dec) = (tick_decimals(x, x_n, x_scale), tick_decimals(y, y_n, 1.0));
    let x_fmt = |v: &f64| if labelled { tick(*v * x_scale, x_dec) } else { String::new() };
    let y_fmt = |v: &f64| match y_log {
        // 0.01, 0.1, 1, 10, 100, 1000
        true => tick(10f64.powf(v.round()), (-v.round()).max(0.0) as usize),
        false => tick(*v, y_dec),
    };
    let light = RGBColor(242, 242, 242).stroke_width(px(1.0).max(1) as u32);
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .x_labels(x_n)
        .y_labels(y_n)
        .max_light_lines(if y_log { 0 } else { 4 })
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .label_style(font(18.0))
        .axis_desc_style(font(20.0))
        .bold_line_style(RGBColor(218, 218, 218).stroke_width(px(1.0).max(1) as u32))
        .light_line_style(light)
        .axis_style(BLACK.stroke_width(px(1.2).max(1) as u32))
        .set_all_tick_mark_size(px(5.0))
        .draw()?;
    if y_log {
        // Light lines at 2, 3 ... 9 times each power of ten.
        let decade = y[0].floor() as i32..=y[1].ceil() as i32;
        let minors = decade.flat_map(|d| (2..=9).map(move |m| (f64::from(m) * 10f64.powi(d)).log10()));
        for v in minors.filter(|v| *v > y[0] && *v < y[1]) {
            chart.draw_series(std::iter::once(PathElement::new([(x[0], v), (x[1], v)], light)))?;
        }
    }
    Ok(chart)
}

/// A plot's coordinates: time and value, both real.
type Chart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// Draws `lines` on `chart`, back to front.
fn draw_lines<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    lines: &[Line],
    pen: &Pen,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let plot = chart.plotting_area();
    let screen = plot.use_screen_coord();
    let pixels: Vec<Vec<(i32, i32)>> =
        lines.iter().map(|l| l.points.iter().map(|p| plot.map_coordinate(p)).collect()).collect();
    for (l, points) in lines.iter().zip(&pixels) {
        stroke(&screen, points, &Line { glyph: Glyph::None, ..l.clone() }, pen)?;
    }
    // The glyphs over every line: a threshold's under a noisy dirty line
    // that runs along it still shows.
    for (l, points) in lines.iter().zip(&pixels).filter(|(l, _)| l.glyph != Glyph::None) {
        // Each kind of glyph at its own place along the 90 px spacing:
        // two lines running together show both.
        let offset = match l.glyph {
            Glyph::Triangle => 30.0,
            Glyph::Diamond => 52.0,
            _ => 75.0,
        };
        for at in across(points, offset * pen.k, 90.0 * pen.k) {
            glyph(&screen, at, l.glyph, rgb(l.colour), l.hollow, pen.k)?;
        }
    }
    Ok(())
}

/// The runs of the polyline `points` a dash `pattern` (on, off, on, ...
/// lengths in pixels, measured along it) keeps; the whole line when the
/// pattern is empty.
fn dashes(points: &[(i32, i32)], pattern: &[f64]) -> Vec<Vec<(i32, i32)>> {
    if pattern.is_empty() || pattern.iter().sum::<f64>() <= 0.0 {
        return vec![points.to_vec()];
    }
    let at = |a: (f64, f64), b: (f64, f64), t: f64| (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
    let round = |p: (f64, f64)| (p.0.round() as i32, p.1.round() as i32);
    let (mut runs, mut run) = (Vec::new(), Vec::new());
    // The pattern's part in force and what is left of it.
    let (mut part, mut left) = (0, pattern[0]);
    for w in points.windows(2) {
        let (a, b) = ((f64::from(w[0].0), f64::from(w[0].1)), (f64::from(w[1].0), f64::from(w[1].1)));
        let len = ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt();
        let mut done = 0.0;
        if part % 2 == 0 && run.is_empty() {
            run.push(round(a));
        }
        while len - done > left {
            done += left;
            let p = round(at(a, b, done / len));
            if part % 2 == 0 {
                run.push(p);
                runs.push(std::mem::take(&mut run));
            } else {
                run.push(p);
            }
            part = (part + 1) % pattern.len();
            left = pattern[part];
        }
        left -= len - done;
        if part % 2 == 0 {
            run.push(round(b));
        }
    }
    if run.len() > 1 {
        runs.push(run);
    }
    runs
}

/// Where the polyline `points` (left to right) is every `every` pixels
/// across, the first `offset` pixels from its start: as many glyphs on a
/// line that jumps up and down as on a flat one.
fn across(points: &[(i32, i32)], offset: f64, every: f64) -> Vec<(i32, i32)> {
    let Some(&(x0, _)) = points.first() else { return Vec::new() };
    let mut out = Vec::new();
    let mut next = f64::from(x0) + offset;
    for &p in points {
        if f64::from(p.0) >= next {
            out.push(p);
            while f64::from(p.0) >= next {
                next += every;
            }
        }
    }
    out
}

/// Strokes the polyline `points` (backend pixels) as `l` says: its
/// colour, width and dashes, hollow for side B (not its glyphs).
fn stroke<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    points: &[(i32, i32)],
    l: &Line,
    pen: &Pen,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let k = pen.k;
    let colour = rgb(l.colour);
    // A hollow line is wider: an outline around a white core.
    let width = if l.hollow { (l.width + 3.5) * k } else { l.width * k };
    let width = width.round().max(1.0);
    let pattern: Vec<f64> = l.dash.lengths().iter().map(|v| v * k).collect();
    let core = (width - 2.8 * k).round().max(1.0) as u32;
    match (!pattern.is_empty()).then(|| pen.stand_in(colour, &pattern)).flatten() {
        Some(stand_in) => {
            area.draw(&PathElement::new(points.to_vec(), stand_in.stroke_width(width as u32)))?;
            if l.hollow {
                let white = pen.stand_in(WHITE, &pattern).expect("on SVG");
                area.draw(&PathElement::new(points.to_vec(), white.stroke_width(core)))?;
            }
        }
        _ => {
            let runs = dashes(points, &pattern);
            for run in &runs {
                area.draw(&PathElement::new(run.clone(), colour.stroke_width(width as u32)))?;
            }
            if l.hollow {
                for run in &runs {
                    area.draw(&PathElement::new(run.clone(), WHITE.stroke_width(core)))?;
                }
            }
        }
    }
    Ok(())
}

/// A line's glyph at `at`: filled, or white inside when `hollow`.
fn glyph<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    (x, y): (i32, i32),
    glyph: Glyph,
    colour: RGBColor,
    hollow: bool,
    k: f64,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let r = (4.5 * k).round() as i32;
    let outline: Vec<(i32, i32)> = match glyph {
        Glyph::None => return Ok(()),
        Glyph::Triangle => vec![(x, y - r), (x + r, y + r * 3 / 4), (x - r, y + r * 3 / 4)],
        Glyph::Square => {
            let r = r * 4 / 5;
            vec![(x - r, y - r), (x + r, y - r), (x + r, y + r), (x - r, y + r)]
        }
        Glyph::Diamond => vec![(x, y - r), (x + r, y), (x, y + r), (x - r, y)],
    };
    area.draw(&Polygon::new(outline.clone(), if hollow { WHITE.filled() } else { colour.filled() }))?;
    let mut closed = outline.clone();
    closed.push(outline[0]);
    area.draw(&PathElement::new(closed, colour.stroke_width((1.3 * k).round().max(1.0) as u32)))
}

/// A dot of `shape` at `at` (backend pixels).
fn dot<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    at: (i32, i32),
    shape: Shape,
    colour: RGBColor,
    radius: f64,
    k: f64,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let r = (radius * k).round().max(1.0) as i32;
    let thin = colour.stroke_width((1.2 * k).round().max(1.0) as u32);
    match shape {
        Shape::Disc => area.draw(&Circle::new(at, r, colour.mix(0.8).filled())),
        Shape::Ring => area.draw(&Circle::new(at, r, thin)),
        Shape::Cross => area.draw(&Cross::new(at, r, thin)),
        Shape::Plus => {
            area.draw(&PathElement::new(vec![(at.0 - r, at.1), (at.0 + r, at.1)], thin))?;
            area.draw(&PathElement::new(vec![(at.0, at.1 - r), (at.0, at.1 + r)], thin))
        }
        // Its right corner at the point: drawn at the end of the run, the
        // plot's edge would cut it in half.
        Shape::Triangle => {
            let corners = vec![(at.0 - r, at.1 - r), (at.0, at.1 + r), (at.0 - 2 * r, at.1 + r)];
            area.draw(&Polygon::new(corners, colour.mix(0.8).filled()))
        }
    }
}

/// The legend: a sample and a name for every labelled line and dot, the
/// filled/hollow key of a comparison, and the notes.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    f: &Figure,
    pen: &Pen,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let k = pen.k;
    let px = |v: f64| (v * k).round() as i32;
    let font = |size: f64| ("sans-serif", size * k).into_font();
    let (x0, text_x, chars) = (px(8.0), px(44.0), 33);
    let mut y = px(14.0);
    let line_h = px(21.0);
    let entry = |sample: &dyn Fn(i32) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>>,
                 label: &str,
                 y: &mut i32|
     -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        sample(*y + line_h / 2)?;
        for part in wrap(label, chars) {
            area.draw(&Text::new(part, (text_x, *y + px(2.0)), font(17.0)))?;
            *y += line_h;
        }
        *y += px(4.0);
        Ok(())
    };
    // A line's sample: 30 px of it, its glyph in the middle.
    let segment = |l: &Line| {
        let l = Line { points: Vec::new(), ..l.clone() };
        move |cy: i32| {
            let (a, b) = (x0, x0 + px(30.0));
            stroke(area, &[(a, cy), (b, cy)], &l, pen)?;
            glyph(area, ((a + b) / 2, cy), l.glyph, rgb(l.colour), l.hollow, k)
        }
    };
    let upper = f.upper.iter().flat_map(|p| &p.lines);
    for l in upper.chain(&f.lines).filter(|l| !l.label.is_empty()) {
        entry(&segment(l), &l.label, &mut y)?;
    }
    for d in f.dots.iter().filter(|d| !d.label.is_empty()) {
        let sample = |cy: i32| dot(area, (x0 + px(15.0), cy), d.shape, rgb(d.colour), d.radius.max(3.0), k);
        entry(&sample, &d.label, &mut y)?;
    }
    if !f.sides.is_empty() {
        y += px(8.0);
        for (i, side) in f.sides.iter().enumerate() {
            let what = if i == 0 { "filled" } else { "hollow" };
            let key = Line {
                label: String::new(),
                points: Vec::new(),
                colour: super::chart::colour::BLACK,
                width: 1.5,
                dash: Pattern::Solid,
                glyph: Glyph::None,
                hollow: i == 1,
            };
            entry(&segment(&key), &format!("{what}: {side}"), &mut y)?;
        }
    }
    y += px(8.0);
    for note in &f.notes {
        for part in wrap(note, chars + 6) {
            area.draw(&Text::new(part, (x0, y), font(16.0).color(&RGBColor(90, 90, 90))))?;
            y += px(19.0);
        }
        y += px(4.0);
    }
    Ok(())
}

/// Draws `f` as an SVG document.
pub fn svg(f: &Figure, size: (u32, u32), k: f64) -> Result<String, String> {
    let mut out = String::new();
    let pen = Pen { k, svg: Some(Default::default()) };
    {
        let root = SVGBackend::with_string(&mut out, size).into_drawing_area();
        render(&root, f, &pen)?;
        root.present().map_err(|e| format!("drawing {}: {e}", f.file))?;
    }
    Ok(group_circles(&pen.dash(out)))
}

/// `svg` with each run of circles that differ only in where they are
/// (the dots of one series, one element a line) put in a group that
/// holds their colour and opacity once: a third of the bytes a dot took.
fn group_circles(svg: &str) -> String {
    let mut out = String::with_capacity(svg.len());
    let mut open: Option<&str> = None;
    for line in svg.lines() {
        // `<circle cx=".." cy=".." r=".." opacity=..../>`: where, and how.
        let split = line.strip_prefix("<circle ").and_then(|a| a.strip_suffix("/>")).and_then(|a| {
            let mut quotes = a.match_indices('"').map(|(i, _)| i);
            let end = quotes.nth(5)?;
            Some((&a[..=end], a[end + 1..].trim()))
        });
        match split {
            Some((at, how)) if !how.is_empty() => {
                if open != Some(how) {
                    if open.is_some() {
                        out.push_str("</g>\n");
                    }
                    out.push_str(&format!("<g {how}>\n"));
                    open = Some(how);
                }
                out.push_str(&format!("<circle {at}/>\n"));
            }
            _ => {
                if open.take().is_some() {
                    out.push_str("</g>\n");
                }
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

/// Draws `f` as a PNG image (its bytes, for a file to hold).
pub fn png(f: &Figure, size: (u32, u32), k: f64) -> Result<Vec<u8>, String> {
    let mut rgb = vec![0u8; size.0 as usize * size.1 as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, size).into_drawing_area();
        render(&root, f, &Pen { k, svg: None })?;
        root.present().map_err(|e| format!("drawing {}: {e}", f.file))?;
    }
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, size.0, size.1);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder
        .write_header()
        .and_then(|mut w| w.write_image_data(&rgb))
        .map_err(|e| format!("encoding {}: {e}", f.file))?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tick_labels_have_the_decimals_of_their_spacing_and_all_the_same() {
        let labels = |range: [f64; 2], n: usize, scale: f64| {
            use plotters::coord::ranged1d::Ranged;
            let d = tick_decimals(range, n, scale);
            let points = RangedCoordf64::from(range[0]..range[1]).key_points(n);
            points.iter().map(|v| tick(v * scale, d)).collect::<Vec<_>>().join(" ")
        };
        // A 7 s run is labelled every second: it read 0.0 1.0 2.0 ... 7.0.
        assert_eq!(labels([0.0, 7.0], 10, 1.0), "0 1 2 3 4 5 6 7");
        // Half a second, every 0.1 s: it read 0.00 0.10 ... 0.50.
        assert_eq!(labels([0.0, 0.5], 10, 1.0), "0.0 0.1 0.2 0.3 0.4 0.5");
        // The same in ms, as a run under a second is labelled.
        assert_eq!(labels([0.0, 0.5], 10, 1000.0), "0 100 200 300 400 500");
        // pos_ratio up to 2.5: one decimal on every label.
        assert_eq!(labels([0.0, 2.5], 8, 1.0), "0.0 0.5 1.0 1.5 2.0 2.5");
        assert_eq!(labels([0.0, 774.0], 8, 1.0), "0 100 200 300 400 500 600 700");
        assert_eq!(labels([30.0, 40.0], 10, 1.0), "30 32 34 36 38 40");
        assert_eq!(decimals(0.25), 2);
        assert_eq!(decimals(50.0), 0);
        assert_eq!(tick(-0.0, 1), "0.0");
    }

    /// A threshold's glyphs show over a noisy line drawn after it along
    /// the same value (2.6.38's dirty pages along its limit), and a dashed
    /// line's gaps are white.
    #[test]
    fn glyphs_show_over_the_lines_drawn_after_theirs() {
        use super::super::chart::{Context, Line, Pattern, colour};
        let ctx = Context { run: "test".into(), bdi: "sda".into(), span: [0.0, 10.0] };
        let mut f = super::super::chart::global_dirty(&ctx, &[]);
        let line = |colour, width, dash, glyph, y: f64| Line {
            label: String::new(),
            points: (0..=100).map(|i| (f64::from(i) / 10.0, y)).collect(),
            colour,
            width,
            dash,
            glyph,
            hollow: false,
        };
        f.y = [0.0, 100.0];
        f.lines = vec![
            line(colour::VERMILLION, 1.5, Pattern::Solid, Glyph::Triangle, 50.0),
            line(colour::BLUE, 6.0, Pattern::Solid, Glyph::None, 50.0),
            line(colour::BLACK, 1.0, Pattern::Dash, Glyph::None, 20.0),
        ];
        let (size, k) = ((1280, 720), 1.0);
        let bytes = png(&f, size, k).expect("drawn");
        let mut reader = ::png::Decoder::new(std::io::Cursor::new(bytes)).read_info().expect("a PNG");
        let mut rgb = vec![0; reader.output_buffer_size()];
        reader.next_frame(&mut rgb).expect("decoded");
        let at = |x: usize, y: usize| {
            let i = (y * size.0 as usize + x) * 3;
            (rgb[i], rgb[i + 1], rgb[i + 2])
        };
        // The plot, left of the legend.
        let plot_w = size.0 as usize - LEGEND_W as usize;
        let count = |c: Rgb| {
            (0..size.1 as usize).flat_map(|y| (0..plot_w).map(move |x| (x, y))).filter(|&(x, y)| at(x, y) == c).count()
        };
        assert!(count(colour::VERMILLION) > 100, "{} glyph pixels", count(colour::VERMILLION));
        // Along the dashed line, black and white alternate: the row with
        // the most black runs (the axes are one each).
        let runs = |y: usize| (1..plot_w).filter(|&x| at(x, y) == (0, 0, 0) && at(x - 1, y) != (0, 0, 0)).count();
        let row = (0..size.1 as usize).max_by_key(|&y| runs(y)).expect("rows");
        let black = (0..plot_w).filter(|&x| at(x, row) == (0, 0, 0)).count();
        assert!(black > 300 && runs(row) > 40, "{black} black pixels in {} dashes", runs(row));
    }

    /// Side B's thinnest lines are hollow enough to see in an SVG viewer:
    /// a white core of 2 px or more (a 1 px one blurred into a grey line),
    /// dashed as its outline.
    #[test]
    fn a_hollow_lines_core_is_two_pixels_or_more() {
        use super::super::chart::{Context, Line, Pattern, colour};
        let ctx = Context { run: "test".into(), bdi: "sda".into(), span: [0.0, 10.0] };
        let mut f = super::super::chart::global_dirty(&ctx, &[]);
        f.y = [0.0, 100.0];
        f.lines = vec![Line {
            label: "setpoint".into(),
            points: vec![(0.0, 50.0), (10.0, 50.0)],
            colour: colour::BLACK,
            width: 1.5,
            dash: Pattern::LongDash,
            glyph: Glyph::None,
            hollow: true,
        }];
        let svg = svg(&f, (1280, 720), 1.0).expect("drawn");
        let cores: Vec<&str> =
            svg.lines().filter(|l| l.contains("stroke=\"#FFFFFF\" stroke-dasharray=\"18 5\"")).collect();
        assert_eq!(cores.len(), 2, "the line and its legend sample: {svg}");
        for core in cores {
            let width: u32 =
                core.split("stroke-width=\"").nth(1).and_then(|w| w.split('"').next()?.parse().ok()).expect("a width");
            assert!(width >= 2, "{core}");
        }
    }

    #[test]
    fn a_subtitle_too_wide_for_the_figure_is_broken_between_words() {
        let name = "my-long-experiment-name-on-the-nvme-box-with-4-dd-and-dirty_bytes-400M-take-2.txt";
        let run = format!("trace {name}, kernel 6.15 or later (wb_setpoint, wb_dirty); 20 s from its first event");
        let ctx = super::super::chart::Context { run: run.clone(), bdi: "254:0".into(), span: [0.0, 20.0] };
        let f = super::super::chart::global_dirty(&ctx, &[]);
        for (size, k) in [((1280, 720), 1.0), ((1920, 1080), 1.5)] {
            let svg = svg(&f, size, k).expect("drawn");
            // It ran 70 px past the right edge, cut there.
            let lines: Vec<String> = svg
                .split("<text")
                .skip(1)
                .filter(|t| t.split('>').next().is_some_and(|tag| tag.contains("#464646")))
                .map(|t| t.split_once('>').map_or("", |t| t.1).split("</text>").next().unwrap_or("").trim().to_string())
                .collect();
            let text = |l: &String| l.clone();
            assert_eq!(lines.len(), 2, "{lines:?}");
            assert_eq!(format!("{} {}", text(&lines[0]), text(&lines[1])), run);
            assert!(lines[1].ends_with("event") && lines[0].len() > lines[1].len(), "{lines:?}");
        }
        // Short lines stay whole.
        assert_eq!(fit("a b c", |t| t.len() <= 5), ["a b c"]);
        assert_eq!(fit("aaaaaaa b c", |t| t.len() <= 5), ["aaaaaaa", "b c"]);
        assert_eq!(fit("over 20 s", |t| t.chars().count() <= 7), ["over", "20 s"], "20 and s on one line");
    }

    #[test]
    fn long_labels_wrap_between_words() {
        assert_eq!(wrap("whole call (slept more than once)", 12), ["whole call", "(slept more", "than once)"]);
        // A number keeps its unit on its line.
        let note = wrap("the lines as they stand at the end (4 s); the operating points", 38);
        assert_eq!(note, ["the lines as they stand at the end", "(4\u{a0}s); the operating points"]);
    }
}
