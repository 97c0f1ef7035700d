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

impl Theme {
    /// The palette of `kind`.
    pub fn new(kind: ThemeKind) -> Self {
        let rgb = |(r, g, b): (u8, u8, u8), darken: bool| {
            let f = |c: u8| if darken { (c as u16 * 3 / 5) as u8 } else { c };
            Style::default().fg(Color::Rgb(f(r), f(g), f(b)))
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
                Theme {
                    kind,
                    border: Style::default().fg(dim),
                    title: Style::default().fg(fg).add_modifier(Modifier::BOLD),
                    dim: Style::default().fg(dim),
                    text: Style::default().fg(fg),
                    accent: series[0].add_modifier(Modifier::BOLD),
                    status: Style::default().fg(fg).add_modifier(Modifier::REVERSED),
                    warn: series[5].add_modifier(Modifier::BOLD),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mono_has_no_colours() {
        let t = Theme::new(ThemeKind::Mono);
        assert!(t.series.iter().all(|s| s.fg.is_none()));
        let d = Theme::new(ThemeKind::Dark);
        let l = Theme::new(ThemeKind::Light);
        assert_ne!(d.series[0], l.series[0]);
    }
}
