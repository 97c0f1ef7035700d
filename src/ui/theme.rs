//! Every style the dashboard uses, in one place.
//!
//! The default palette is Okabe and Ito's, which readers with the common
//! colour-vision deficiencies can still tell apart; a light variant keeps
//! the same hues darker for light terminal backgrounds. With `NO_COLOR`
//! set, nothing is coloured and series differ by marker and label only.

use ratatui::style::{Color, Modifier, Style};

pub use crate::app::ThemeKind;

/// The dashboard's styles.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Theme {
    /// Which palette this is.
    pub kind: ThemeKind,
    /// Chart frames and panel borders.
    pub border: Style,
    /// Chart and panel titles.
    pub title: Style,
    /// Axis labels and dim text.
    pub dim: Style,
    /// Plain text.
    pub text: Style,
    /// Highlighted values (the live operating point, key names).
    pub accent: Style,
    /// The status line.
    pub status: Style,
    /// Warnings (paused, too small).
    pub warn: Style,
    /// Something that holds (a passing check).
    pub good: Style,
    /// Series colours, in the order charts use them.
    pub series: [Style; 8],
}

const OKABE_ITO: [(u8, u8, u8); 8] = [
    (0xE6, 0x9F, 0x00), // orange
    (0x56, 0xB4, 0xE9), // sky blue
    (0x00, 0x9E, 0x73), // bluish green
    (0xF0, 0xE4, 0x42), // yellow
    (0x00, 0x72, 0xB2), // blue
    (0xD5, 0x5E, 0x00), // vermillion
    (0xCC, 0x79, 0xA7), // reddish purple
    (0xBB, 0xBB, 0xBB), // grey
];

/// Each of [`OKABE_ITO`] where fewer colours are shown: the xterm-256
/// index and the named colour it becomes on a dark background, and on a
/// light one (`--theme light`, whose hues are darker). Chosen, not the
/// nearest: the nearest of the darker hues are three pairs of one colour
/// in 256 colours (orange and vermillion both 94) and three colours in 16,
/// where the charts need their eight told apart. The orange every chart
/// draws its measured line in has a hue no other series has: on a dark
/// background it was yellow (178, and `Yellow` in 16), beside the
/// setpoint's light yellow (221, `LightYellow`), one colour on a
/// projector. Only two series share a hue in 16 colours, lines of chart 4
/// that are not its subject: vermillion and reddish purple (avg_write_bw
/// and task_ratelimit) on a dark background, yellow and vermillion
/// (balanced and avg_write_bw) on a light one.
const REDUCED: [Reduced; 8] = [
    ((214, Color::LightRed), (130, Color::Yellow)),
    ((74, Color::LightCyan), (31, Color::Cyan)),
    ((35, Color::Green), (29, Color::Green)),
    ((221, Color::LightYellow), (136, Color::LightRed)),
    ((25, Color::LightBlue), (24, Color::Blue)),
    ((166, Color::Magenta), (124, Color::Red)),
    ((175, Color::LightMagenta), (132, Color::Magenta)),
    ((250, Color::Gray), (244, Color::DarkGray)),
];

/// The accent (key names, question numbers, the selected bdi) and the
/// warning colour (a failed check, a terminal too small): Okabe and Ito's
/// orange and vermillion to the eye, two units of blue off the series'
/// own, so that where fewer colours are shown they keep theirs, yellow
/// and red, while the series' orange and vermillion take light red and
/// magenta to tell the charts' lines apart ([`REDUCED`]): an accent in
/// light red read as a warning, and a warning in magenta as none.
const ACCENT: (u8, u8, u8) = (0xE6, 0x9F, 0x02);
const WARN: (u8, u8, u8) = (0xD5, 0x5E, 0x02);

/// A colour where fewer are shown: the xterm-256 index and named colour
/// on a dark background, and on a light one.
type Reduced = ((u8, Color), (u8, Color));

/// [`ACCENT`] and [`WARN`] where fewer colours are shown, as [`REDUCED`]
/// gives the series'.
const UI_REDUCED: [((u8, u8, u8), Reduced); 2] =
    [(ACCENT, ((178, Color::Yellow), (130, Color::Yellow))), (WARN, ((166, Color::Red), (124, Color::Red)))];

/// A colour of [`OKABE_ITO`] as the light palette darkens it.
fn darkened((r, g, b): (u8, u8, u8)) -> (u8, u8, u8) {
    let f = |c: u8| (c as u16 * 3 / 5) as u8;
    (f(r), f(g), f(b))
}

impl Theme {
    /// The palette of `kind`.
    pub fn new(kind: ThemeKind) -> Self {
        let rgb = |c: (u8, u8, u8), darken: bool| {
            let (r, g, b) = if darken { darkened(c) } else { c };
            Style::default().fg(Color::Rgb(r, g, b))
        };
        match kind {
            ThemeKind::Mono => Theme {
                kind,
                border: Style::default(),
                title: Style::default().add_modifier(Modifier::BOLD),
                dim: Style::default(),
                text: Style::default(),
                accent: Style::default().add_modifier(Modifier::BOLD),
                status: Style::default().add_modifier(Modifier::REVERSED),
                warn: Style::default().add_modifier(Modifier::BOLD),
                good: Style::default(),
                series: [Style::default(); 8],
            },
            ThemeKind::Dark | ThemeKind::Light => {
                let dark = kind == ThemeKind::Light;
                let series = OKABE_ITO.map(|c| rgb(c, dark));
                let (fg, dim) = if dark { (Color::Black, Color::DarkGray) } else { (Color::White, Color::Gray) };
                // Frames a step fainter than the text's grey, which the
                // grey series (the background threshold, the 1/4 floor,
                // write_bw/N) come near: they read as frames where they
                // shared it. Dark grey on a dark background, light grey on
                // a light one.
                let frame = if dark { Color::Gray } else { Color::DarkGray };
                Theme {
                    kind,
                    border: Style::default().fg(frame),
                    title: Style::default().fg(fg).add_modifier(Modifier::BOLD),
                    dim: Style::default().fg(dim),
                    text: Style::default().fg(fg),
                    accent: rgb(ACCENT, dark).add_modifier(Modifier::BOLD),
                    status: Style::default().fg(fg).add_modifier(Modifier::REVERSED),
                    warn: rgb(WARN, dark).add_modifier(Modifier::BOLD),
                    good: series[2],
                    series,
                }
            }
        }
    }
}

/// The palette to use: `NO_COLOR` (set and not empty) makes it mono.
pub fn resolve(kind: ThemeKind) -> ThemeKind {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    if no_color { ThemeKind::Mono } else { kind }
}

/// The palette of a dashboard drawn on this terminal: the one `asked`
/// for, else the default; mono where [`resolve`] says so, or where none
/// was asked for and `TERM` names a terminal without colours (unless
/// `COLORTERM` says it has them).
pub fn on_terminal(asked: Option<ThemeKind>) -> ThemeKind {
    let var = |name| std::env::var(name).ok().filter(|v: &String| !v.is_empty());
    let bare = asked.is_none() && var("COLORTERM").is_none() && colourless(&var("TERM").unwrap_or_default());
    if bare { ThemeKind::Mono } else { resolve(asked.unwrap_or_default()) }
}

/// A `TERM` of a terminal that shows no colours: the DEC VTs and the
/// terminfo names of a monochrome variant (`xterm-mono`, `screen-m`).
fn colourless(term: &str) -> bool {
    matches!(term, "vt52" | "vt100" | "vt102" | "vt220" | "vt320") || term.ends_with("-mono") || term.ends_with("-m")
}

/// How many colours the terminal shows: 24-bit where `COLORTERM` says so
/// (`truecolor`, `24bit`), else xterm's 256 where `TERM` names them, else
/// the 16 named ones. Terminals without 24-bit colour (macOS Terminal,
/// older GNU screen, the Linux console) draw its escapes wrong or not at
/// all, so the palette is brought to the nearest colours they have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depth {
    /// 24-bit colour.
    True,
    /// The xterm 256-colour palette.
    Indexed,
    /// The 16 named colours.
    Named,
}

impl Depth {
    /// What the environment says of this terminal.
    pub fn of_terminal() -> Depth {
        let var = |name| std::env::var(name).ok();
        Depth::from_env(var("COLORTERM").as_deref(), var("TERM").as_deref())
    }

    /// What `COLORTERM` and `TERM` say.
    pub fn from_env(colorterm: Option<&str>, term: Option<&str>) -> Depth {
        let term = term.unwrap_or_default();
        if matches!(colorterm, Some("truecolor" | "24bit")) || term.ends_with("-direct") {
            Depth::True
        } else if term.contains("256") {
            Depth::Indexed
        } else {
            Depth::Named
        }
    }

    /// `colour` as this terminal can show it.
    pub fn fit(self, colour: Color) -> Color {
        let Color::Rgb(r, g, b) = colour else { return colour };
        if self == Depth::True {
            return colour;
        }
        let mut reduced = OKABE_ITO.iter().copied().zip(REDUCED).chain(UI_REDUCED);
        let series = reduced.find_map(|(c, (on_dark, on_light))| {
            if c == (r, g, b) { Some(on_dark) } else { (darkened(c) == (r, g, b)).then_some(on_light) }
        });
        match (self, series) {
            (Depth::True, _) => colour,
            (Depth::Indexed, Some((index, _))) => Color::Indexed(index),
            (Depth::Named, Some((_, named))) => named,
            (Depth::Indexed, None) => Color::Indexed(nearest_indexed(r, g, b)),
            (Depth::Named, None) => nearest_named(r, g, b),
        }
    }

    /// Brings every cell of `buf` to the colours this terminal shows.
    pub fn fit_buffer(self, buf: &mut ratatui::buffer::Buffer) {
        if self == Depth::True {
            return;
        }
        for cell in &mut buf.content {
            cell.fg = self.fit(cell.fg);
            cell.bg = self.fit(cell.bg);
        }
    }
}

/// Squared distance between two colours.
fn distance((r, g, b): (u8, u8, u8), (x, y, z): (u8, u8, u8)) -> u32 {
    let d = |a: u8, b: u8| (a as i32 - b as i32).pow(2) as u32;
    d(r, x) + d(g, y) + d(b, z)
}

/// The nearest of xterm's 256 colours: its 6x6x6 cube (16-231) or its
/// grey ramp (232-255).
fn nearest_indexed(r: u8, g: u8, b: u8) -> u8 {
    const LEVELS: [u8; 6] = [0, 95, 135, 175, 215, 255];
    let level = |c: u8| (0..6).min_by_key(|&i| (LEVELS[i] as i32 - c as i32).abs()).unwrap_or(0);
    let (i, j, k) = (level(r), level(g), level(b));
    let cube = (LEVELS[i], LEVELS[j], LEVELS[k]);
    let grey_step = ((r as u32 + g as u32 + b as u32) / 3).saturating_sub(3) / 10;
    let grey_step = grey_step.min(23) as u8;
    let grey = 8 + 10 * grey_step;
    if distance((r, g, b), (grey, grey, grey)) < distance((r, g, b), cube) {
        232 + grey_step
    } else {
        16 + 36 * i as u8 + 6 * j as u8 + k as u8
    }
}

/// The nearest of the 16 named colours, as xterm shows them.
fn nearest_named(r: u8, g: u8, b: u8) -> Color {
    const NAMED: [(Color, (u8, u8, u8)); 16] = [
        (Color::Black, (0, 0, 0)),
        (Color::Red, (205, 0, 0)),
        (Color::Green, (0, 205, 0)),
        (Color::Yellow, (205, 205, 0)),
        (Color::Blue, (0, 0, 238)),
        (Color::Magenta, (205, 0, 205)),
        (Color::Cyan, (0, 205, 205)),
        (Color::Gray, (229, 229, 229)),
        (Color::DarkGray, (127, 127, 127)),
        (Color::LightRed, (255, 0, 0)),
        (Color::LightGreen, (0, 255, 0)),
        (Color::LightYellow, (255, 255, 0)),
        (Color::LightBlue, (92, 92, 255)),
        (Color::LightMagenta, (255, 0, 255)),
        (Color::LightCyan, (0, 255, 255)),
        (Color::White, (255, 255, 255)),
    ];
    NAMED.iter().min_by_key(|(_, rgb)| distance((r, g, b), *rgb)).map_or(Color::Reset, |(c, _)| *c)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The light palette's darker hues came down to three named colours
    /// and six of the 256 (orange and vermillion one, blue and bluish
    /// green one); the dark one's to seven named colours.
    #[test]
    fn every_series_keeps_a_colour_of_its_own_at_every_depth() {
        for kind in [ThemeKind::Dark, ThemeKind::Light] {
            let t = Theme::new(kind);
            for depth in [Depth::True, Depth::Indexed, Depth::Named] {
                let colours: Vec<Color> = t.series.iter().map(|s| depth.fit(s.fg.expect("coloured"))).collect();
                let mut distinct = colours.clone();
                distinct.sort_by_key(|c| format!("{c:?}"));
                distinct.dedup();
                assert_eq!(distinct.len(), 8, "{kind:?} {depth:?}: {colours:?}");
                assert!(!colours.contains(&depth.fit(t.text.fg.expect("text"))), "{kind:?} {depth:?}: text");
            }
        }
    }

    /// The hue of a named colour: its bright and plain forms are one,
    /// and so are the greys.
    fn hue(c: Color) -> u8 {
        match c {
            Color::Black | Color::Gray | Color::DarkGray | Color::White => 0,
            Color::Red | Color::LightRed => 1,
            Color::Green | Color::LightGreen => 2,
            Color::Yellow | Color::LightYellow => 3,
            Color::Blue | Color::LightBlue => 4,
            Color::Magenta | Color::LightMagenta => 5,
            Color::Cyan | Color::LightCyan => 6,
            other => panic!("not a named colour: {other:?}"),
        }
    }

    /// In 16 colours, the measured line's orange is a hue of its own (it
    /// was yellow beside the setpoint's light yellow), and one pair of
    /// the other seven shares one at most.
    #[test]
    fn in_sixteen_colours_the_measured_line_has_a_hue_of_its_own() {
        for kind in [ThemeKind::Dark, ThemeKind::Light] {
            let hues: Vec<u8> =
                Theme::new(kind).series.iter().map(|s| hue(Depth::Named.fit(s.fg.expect("coloured")))).collect();
            assert!(hues[1..].iter().all(|h| *h != hues[0]), "{kind:?}: {hues:?}");
            let mut distinct = hues.clone();
            distinct.sort_unstable();
            distinct.dedup();
            assert!(distinct.len() >= 7, "{kind:?}: {hues:?}");
            // A warning stays red, an accent yellow, as before the series
            // took light red and magenta.
            let t = Theme::new(kind);
            let named = |s: Style| Depth::Named.fit(s.fg.expect("coloured"));
            assert_eq!((named(t.warn), named(t.accent)), (Color::Red, Color::Yellow), "{kind:?}");
            assert_ne!(t.warn.fg.map(|c| Depth::Indexed.fit(c)), t.series[0].fg.map(|c| Depth::Indexed.fit(c)));
        }
    }

    #[test]
    fn colours_come_down_to_what_the_terminal_shows() {
        assert!(colourless("vt100") && colourless("xterm-mono") && colourless("screen-m"));
        assert!(
            !colourless("xterm") && !colourless("xterm-16color") && !colourless("linux") && !colourless("vt100-color")
        );
        assert_eq!(Depth::from_env(Some("truecolor"), Some("xterm-256color")), Depth::True);
        assert_eq!(Depth::from_env(None, Some("xterm-256color")), Depth::Indexed);
        assert_eq!(Depth::from_env(None, Some("screen")), Depth::Named);
        assert_eq!(Depth::from_env(None, Some("linux")), Depth::Named);
        assert_eq!(Depth::from_env(None, None), Depth::Named);
        // Okabe and Ito's orange is 214 (255, 175, 0), where 178 (215,
        // 175, 0), nearer, is a yellow; their grey 250 on the ramp (188);
        // white and black are the cube's corners.
        assert_eq!(Depth::Indexed.fit(Color::Rgb(0xE6, 0x9F, 0x00)), Color::Indexed(214));
        assert_eq!(Depth::Indexed.fit(Color::Rgb(0xBB, 0xBB, 0xBB)), Color::Indexed(250));
        assert_eq!(Depth::Indexed.fit(Color::Rgb(255, 255, 255)), Color::Indexed(231));
        assert_eq!(Depth::Indexed.fit(Color::Rgb(0, 0, 0)), Color::Indexed(16));
        assert_eq!(Depth::Named.fit(Color::Rgb(0xF0, 0xE4, 0x42)), Color::LightYellow);
        assert_eq!(Depth::Named.fit(Color::Rgb(0xD5, 0x5E, 0x00)), Color::Magenta);
        // Named and indexed colours, and the default, stay.
        for c in [Color::White, Color::DarkGray, Color::Indexed(7), Color::Reset] {
            assert_eq!(Depth::Named.fit(c), c);
            assert_eq!(Depth::Indexed.fit(c), c);
        }
        let mut buf = ratatui::buffer::Buffer::empty(ratatui::layout::Rect::new(0, 0, 2, 1));
        buf.set_string(0, 0, "ab", Style::default().fg(Color::Rgb(0, 0, 0)).bg(Color::Rgb(255, 255, 255)));
        Depth::Indexed.fit_buffer(&mut buf);
        assert_eq!((buf.content[1].fg, buf.content[1].bg), (Color::Indexed(16), Color::Indexed(231)));
    }

    #[test]
    fn mono_has_no_colours() {
        let t = Theme::new(ThemeKind::Mono);
        assert!(t.series.iter().all(|s| s.fg.is_none()));
        let d = Theme::new(ThemeKind::Dark);
        let l = Theme::new(ThemeKind::Light);
        assert_ne!(d.series[0], l.series[0]);
    }
}
