//! Screens without a terminal: the dashboard drawn by the same code into
//! an offscreen buffer, written out as text, ANSI or SVG. `dirtyviz
//! snapshot` and the `s` key both come here.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier, Style};

use super::view;
use crate::app::{App, ThemeKind};
use crate::error::Result;
use crate::output::AtomicFile;

/// How a snapshot is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Plain text, one line per row (trailing blanks trimmed).
    #[default]
    Text,
    /// Text with ANSI colour escapes, for a terminal (`less -R`).
    Ansi,
    /// An SVG image: every cell in a monospace font, with its colours.
    Svg,
}

impl Format {
    /// The format to write to `output` (`None`: standard output): the one
    /// asked for, else an SVG image for a file named `.svg`, else text.
    /// Text asked for into a `.svg` file is refused: no viewer would open
    /// it (it was written there silently).
    pub fn for_output(asked: Option<Format>, output: Option<&std::path::Path>) -> crate::error::Result<Format> {
        let extension = output.and_then(|p| p.extension()).map(|e| e.to_string_lossy().to_ascii_lowercase());
        if let Some(image @ ("png" | "svgz" | "jpg" | "jpeg" | "pdf")) = extension.as_deref() {
            return Err(crate::error::Error::invalid(format!(
                "--output {}: a snapshot is text, ANSI or SVG, not {image} (dirtyviz plot --format png draws the charts as PNG)",
                output.map(|p| p.display().to_string()).unwrap_or_default()
            )));
        }
        let svg = extension.as_deref() == Some("svg");
        match (asked, svg) {
            (Some(f @ (Format::Text | Format::Ansi)), true) => Err(crate::error::Error::invalid(format!(
                "--format {}: --output {} names an SVG image; drop --format, or name the file .txt",
                if f == Format::Text { "text" } else { "ansi" },
                output.map(|p| p.display().to_string()).unwrap_or_default()
            ))),
            (Some(f), _) => Ok(f),
            (None, true) => Ok(Format::Svg),
            (None, false) => Ok(Format::Text),
        }
    }
}

/// What `--keys` asked of a dashboard that a snapshot does not do (save a
/// file, suspend, quit), told on stderr once each: `save` says what
/// writes a file instead.
#[derive(Debug, Default)]
pub struct NotDone {
    told: std::collections::HashSet<&'static str>,
}

impl NotDone {
    /// Says what of `requests` and a quit (`quit`) was not done, the
    /// first time each comes.
    pub fn say(&mut self, requests: Vec<crate::app::Request>, quit: bool, save: &'static str) {
        use crate::app::Request;
        let whys = requests.into_iter().map(|r| match r {
            Request::SaveSvg => save,
            Request::Suspend => "does not suspend",
        });
        let quit = quit.then_some("does not quit; the keys after it are pressed too");
        for why in whys.chain(quit) {
            if self.told.insert(why) {
                crate::error::say(format_args!("note: --keys: a snapshot {why}"));
            }
        }
    }
}

/// The screen `app` shows in a `width` x `height` terminal.
pub fn render(app: &App, width: u16, height: u16) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("a test backend always builds");
    terminal
        .draw(|f| {
            view::draw(app, f);
        })
        .expect("drawing into memory does not fail");
    terminal.backend().buffer().clone()
}

/// How far the help, the lesson's text and the task table can scroll on
/// the screen `app` shows in a `width` x `height` terminal, as the
/// terminal loop notes after each frame.
pub fn scroll_room(app: &App, width: u16, height: u16) -> crate::app::ScrollRoom {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("a test backend always builds");
    let mut room = None;
    terminal.draw(|f| room = Some(view::draw(app, f))).expect("drawing into memory does not fail");
    room.expect("drawn")
}

/// `buf` written in `format`; `theme` picks the SVG's background.
pub fn write(buf: &Buffer, format: Format, theme: ThemeKind) -> String {
    match format {
        Format::Text => text(buf),
        Format::Ansi => ansi(buf),
        Format::Svg => svg(buf, theme),
    }
}

/// A cell as a terminal shows it: a no-break space (it keeps a value
/// and its unit on one row when text is wrapped) is a blank.
fn symbol(cell: &ratatui::buffer::Cell) -> &str {
    match cell.symbol() {
        "\u{a0}" => " ",
        s => s,
    }
}

/// The screen's text, one line per row, trailing blanks trimmed.
pub fn text(buf: &Buffer) -> String {
    let area = buf.area;
    let mut out = String::new();
    for y in area.top()..area.bottom() {
        let line: String = (area.left()..area.right()).map(|x| symbol(&buf[(x, y)])).collect();
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Runs of cells of one style in row `y`: (first column, text, style).
fn runs(buf: &Buffer, y: u16) -> Vec<(u16, String, Style)> {
    let area = buf.area;
    let mut runs: Vec<(u16, String, Style)> = Vec::new();
    for x in area.left()..area.right() {
        let cell = &buf[(x, y)];
        let style = cell.style();
        match runs.last_mut() {
            Some((_, text, s)) if *s == style => text.push_str(symbol(cell)),
            _ => runs.push((x, symbol(cell).to_string(), style)),
        }
    }
    runs
}

/// The screen with ANSI colours, one line per row.
pub fn ansi(buf: &Buffer) -> String {
    let mut out = String::new();
    for y in buf.area.top()..buf.area.bottom() {
        for (_, text, style) in runs(buf, y) {
            let mut codes: Vec<String> = Vec::new();
            if style.add_modifier.contains(Modifier::BOLD) {
                codes.push("1".into());
            }
            if style.add_modifier.contains(Modifier::REVERSED) {
                codes.push("7".into());
            }
            if let Some(c) = style.fg.and_then(|c| sgr(c, 30)) {
                codes.push(c);
            }
            if let Some(c) = style.bg.and_then(|c| sgr(c, 40)) {
                codes.push(c);
            }
            if codes.is_empty() {
                out.push_str(&text);
            } else {
                let _ = write!(out, "\x1b[{}m{text}\x1b[0m", codes.join(";"));
            }
        }
        out.push('\n');
    }
    out
}

/// The SGR parameters for `c` as a foreground (`base` 30) or background (40).
fn sgr(c: Color, base: u8) -> Option<String> {
    let named = |n: u8| Some((base + n).to_string());
    match c {
        Color::Reset => None,
        Color::Black => named(0),
        Color::Red => named(1),
        Color::Green => named(2),
        Color::Yellow => named(3),
        Color::Blue => named(4),
        Color::Magenta => named(5),
        Color::Cyan => named(6),
        Color::Gray => named(7),
        Color::DarkGray => Some(format!("{};5;8", base + 8)),
        Color::White => Some(format!("{};5;15", base + 8)),
        Color::Rgb(r, g, b) => Some(format!("{};2;{r};{g};{b}", base + 8)),
        Color::Indexed(i) => Some(format!("{};5;{i}", base + 8)),
        other => {
            let (r, g, b) = rgb(other, (0x80, 0x80, 0x80));
            Some(format!("{};2;{r};{g};{b}", base + 8))
        }
    }
}

/// A colour as RGB; `default` stands for the terminal's own.
fn rgb(c: Color, default: (u8, u8, u8)) -> (u8, u8, u8) {
    match c {
        Color::Reset => default,
        Color::Black => (0, 0, 0),
        Color::Red | Color::LightRed => (0xcd, 0x31, 0x31),
        Color::Green | Color::LightGreen => (0x0d, 0xbc, 0x79),
        Color::Yellow | Color::LightYellow => (0xe5, 0xe5, 0x10),
        Color::Blue | Color::LightBlue => (0x24, 0x72, 0xc8),
        Color::Magenta | Color::LightMagenta => (0xbc, 0x3f, 0xbc),
        Color::Cyan | Color::LightCyan => (0x11, 0xa8, 0xcd),
        Color::Gray => (0xb0, 0xb0, 0xb0),
        Color::DarkGray => (0x66, 0x66, 0x66),
        Color::White => (0xf0, 0xf0, 0xf0),
        Color::Rgb(r, g, b) => (r, g, b),
        Color::Indexed(_) => default,
    }
}

/// The SVG's fonts: monospace ones first, then ones with the Braille
/// patterns the charts are drawn with (no monospace font of macOS or
/// Windows has them, nor DejaVu Sans Mono).
const FONTS: &str = "'DejaVu Sans Mono', 'Menlo', 'Consolas', 'Liberation Mono', 'Noto Sans Mono', \
                     'DejaVu Sans', 'Apple Braille', 'Segoe UI Symbol', 'Noto Sans Symbols 2', monospace";

/// Width and height of one cell in the SVG \[px\].
const CELL: (f64, f64) = (8.4, 17.0);

/// The screen as an SVG image: a background, then per row one `<rect>`
/// per run of a coloured background and one `<text>` per run of equal
/// style, stretched to its cells so that columns line up in any font.
pub fn svg(buf: &Buffer, theme: ThemeKind) -> String {
    let (fg, bg) = if theme == ThemeKind::Light {
        ((0, 0, 0), (0xff, 0xff, 0xff))
    } else {
        ((0xe6, 0xe6, 0xe6), (0x16, 0x18, 0x1d))
    };
    let hex = |(r, g, b): (u8, u8, u8)| format!("#{r:02x}{g:02x}{b:02x}");
    let area = buf.area;
    let (w, h) = (area.width as f64 * CELL.0, area.height as f64 * CELL.1);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.1}\" height=\"{h:.1}\" viewBox=\"0 0 {w:.1} {h:.1}\" \
         font-family=\"{FONTS}\" font-size=\"14\">"
    );
    let _ = writeln!(out, "<rect width=\"100%\" height=\"100%\" fill=\"{}\"/>", hex(bg));
    for y in area.top()..area.bottom() {
        let top = (y - area.top()) as f64 * CELL.1;
        for (x, text, style) in runs(buf, y) {
            let reversed = style.add_modifier.contains(Modifier::REVERSED);
            let (mut f, mut b) = (style.fg.map_or(fg, |c| rgb(c, fg)), style.bg.map(|c| rgb(c, bg)));
            if reversed {
                (f, b) = (b.unwrap_or(bg), Some(f));
            }
            let left = (x - area.left()) as f64 * CELL.0;
            let cells = text.chars().count() as f64;
            if let Some(b) = b.filter(|&b| b != bg) {
                let _ = writeln!(
                    out,
                    "<rect x=\"{left:.1}\" y=\"{top:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{}\"/>",
                    cells * CELL.0,
                    CELL.1,
                    hex(b)
                );
            }
            if text.trim().is_empty() {
                continue;
            }
            let bold = if style.add_modifier.contains(Modifier::BOLD) { " font-weight=\"bold\"" } else { "" };
            // Braille dots (and the marks drawn with them) are in no
            // monospace font: they come from another, at its own width,
            // each put in its cell, where a run stretched to its cells
            // (as some renderers do not) would push the text after them
            // out of place; rows of letters and box lines are stretched.
            let attrs = format!("y=\"{:.1}\" fill=\"{}\"{bold} xml:space=\"preserve\"", top + CELL.1 * 0.78, hex(f));
            if text.chars().all(in_monospace_fonts) {
                let _ = writeln!(
                    out,
                    "<text x=\"{left:.1}\" textLength=\"{:.1}\" lengthAdjust=\"spacingAndGlyphs\" {attrs}>{}</text>",
                    cells * CELL.0,
                    escape(&text)
                );
            } else {
                let _ = write!(out, "<text {attrs}>");
                // One space of each gap is kept, in its cell: copied or
                // searched, `• throttling call` reads apart, not
                // `•throttlingcall`.
                let chars: Vec<char> = text.chars().collect();
                let last = chars.iter().rposition(|&c| c != ' ').unwrap_or(0);
                for (i, &c) in chars.iter().enumerate() {
                    if c == ' ' && (i == 0 || chars[i - 1] == ' ' || i > last) {
                        continue;
                    }
                    let x = left + i as f64 * CELL.0;
                    let _ = write!(out, "<tspan x=\"{x:.1}\">{}</tspan>", escape(&c.to_string()));
                }
                let _ = writeln!(out, "</text>");
            }
        }
    }
    out.push_str("</svg>\n");
    out
}

/// Whether `c` is in every monospace font the SVG names, at a cell's
/// width: ASCII, box drawing and block elements.
fn in_monospace_fonts(c: char) -> bool {
    c.is_ascii() || ('\u{2500}'..='\u{259f}').contains(&c)
}

/// `s` with XML's special characters escaped.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// Writes `contents` to `path` as every output is written
/// ([`AtomicFile`]): a reader never sees half a file, and a failed write
/// leaves the old one.
pub fn write_file(path: &Path, contents: &str) -> Result<()> {
    let mut out = AtomicFile::create(path)?;
    out.put(contents.as_bytes())?;
    out.commit()
}

/// The file name the `s` key saves to: `dirtyviz-<scenario>-<t>s.svg`,
/// in a lesson `dirtyviz-lesson<id>-step<n>-<t>s.svg` (every lesson on
/// the default preset saved as `dirtyviz-default-…`), the name made safe
/// for a file name.
pub fn svg_name(app: &App) -> String {
    let what = match app.lesson() {
        Some(m) => format!("lesson{}-step{}", m.run().lesson.id, m.run().step + 1),
        None => app.session().scenario.name.clone(),
    };
    let what: String =
        what.chars().map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') { c } else { '_' }).collect();
    format!("dirtyviz-{what}-{:.1}s.svg", app.sim_ns() as f64 / 1e9)
}

/// Saves the screen `app` shows at this size as an SVG in the working
/// directory, never over an existing file; returns the name written.
pub fn save_svg(app: &App, width: u16, height: u16) -> Result<String> {
    save_svg_in(Path::new(""), app, width, height)
}

/// [`save_svg`] in directory `dir` (`""`: the working directory).
pub fn save_svg_in(dir: &Path, app: &App, width: u16, height: u16) -> Result<String> {
    let path = write_new(dir, &svg_name(app), &svg(&render(app, width, height), app.theme()))?;
    Ok(path.display().to_string())
}

/// Writes `contents` to a new file `name` in `dir`, or, when that name
/// is taken, to `name` with `-2`, `-3`, ... before its extension. Each
/// name is claimed by creating it (create_new): a file of that name, one
/// made meanwhile, or a symbolic link, is never written over or through.
/// Returns the path written.
pub fn write_new(dir: &Path, name: &str, contents: &str) -> Result<PathBuf> {
    use std::io::Write as _;
    let (stem, ext) = name.rsplit_once('.').map_or((name, String::new()), |(s, e)| (s, format!(".{e}")));
    for n in 1..=MOST_NUMBERED {
        let path = if n == 1 { dir.join(name) } else { dir.join(format!("{stem}-{n}{ext}")) };
        let mut file = match std::fs::OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => {
                // Said of the directory, first (a status line of 80
                // columns cut it after the file's name): `s` in /proc said
                // `cannot create: No such file or directory` of a bare name.
                let shown = if dir.as_os_str().is_empty() {
                    std::env::current_dir().unwrap_or_else(|_| ".".into())
                } else {
                    dir.into()
                };
                let why = match e.kind() {
                    std::io::ErrorKind::NotFound if !shown.is_dir() => "no such directory".to_string(),
                    std::io::ErrorKind::NotFound => "it takes no new files".to_string(),
                    _ => crate::error::io_reason(&e),
                };
                return Err(crate::error::Error::invalid(format!("{}: {why}", shown.display())));
            }
        };
        if let Err(e) = file.write_all(contents.as_bytes()).and_then(|()| file.sync_all()) {
            // Not left half written: the file is this call's own.
            drop(file);
            let _ = std::fs::remove_file(&path);
            return Err(crate::error::Error::io(&path, "cannot write")(e));
        }
        return Ok(path);
    }
    Err(crate::error::Error::invalid(format!(
        "{}: it and its numbered names up to -{MOST_NUMBERED} exist already",
        dir.join(name).display()
    )))
}

/// The highest number [`write_new`] tries after a name.
const MOST_NUMBERED: u32 = 9999;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scratch::Scratch;
    use ratatui::layout::Rect;

    fn buffer() -> Buffer {
        let mut buf = Buffer::empty(Rect::new(0, 0, 6, 2));
        buf.set_string(0, 0, "ab<&", Style::default().fg(Color::Rgb(0xe6, 0x9f, 0x00)));
        buf.set_string(4, 0, "c", Style::default().add_modifier(Modifier::BOLD));
        buf.set_string(0, 1, "⣀⣀", Style::default().bg(Color::Rgb(1, 2, 3)));
        buf
    }

    #[test]
    fn text_is_the_cells_row_by_row() {
        assert_eq!(text(&buffer()), "ab<&c\n⣀⣀\n");
    }

    #[test]
    fn svg_has_one_element_per_run_of_equal_style_and_escapes_its_text() {
        let s = svg(&buffer(), ThemeKind::Dark);
        assert!(s.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""), "{s}");
        assert!(s.contains(">ab&lt;&amp;</text>") && s.contains("fill=\"#e69f00\""), "{s}");
        assert!(s.contains("font-weight=\"bold\" xml:space=\"preserve\">c</text>"), "{s}");
        assert!(
            s.contains("fill=\"#010203\"/>")
                && s.contains("<tspan x=\"0.0\">⣀</tspan><tspan x=\"8.4\">⣀</tspan></text>"),
            "{s}"
        );
        assert_eq!(s.matches("<text").count(), 3, "{s}");
        assert!(s.trim_end().ends_with("</svg>"));
    }

    #[test]
    fn a_row_of_cells_keeps_a_space_between_its_words() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 24, 1));
        buf.set_string(0, 0, " • throttling   call ", Style::default().fg(Color::Rgb(1, 2, 3)));
        let s = svg(&buf, ThemeKind::Dark);
        let line = s.lines().find(|l| l.contains("<tspan")).expect("placed cell by cell");
        let text: String =
            line.split("<tspan").skip(1).filter_map(|t| t.split('>').nth(1)?.split('<').next()).collect();
        assert_eq!(text, "• throttling call");
    }

    #[test]
    fn braille_and_box_characters_are_each_put_in_their_cell_in_a_font_that_has_them() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 12, 1));
        // A chart's row: its border, dots, and a label after them.
        buf.set_string(2, 0, "│⣀⡠⠔737", Style::default().fg(Color::Rgb(1, 2, 3)));
        let s = svg(&buf, ThemeKind::Dark);
        let cells: String = "│⣀⡠⠔737"
            .chars()
            .enumerate()
            .map(|(i, c)| format!("<tspan x=\"{:.1}\">{c}</tspan>", (2 + i) as f64 * CELL.0))
            .collect();
        let row = format!("<text y=\"13.3\" fill=\"#010203\" xml:space=\"preserve\">{cells}</text>");
        assert!(s.contains(&row), "each cell placed, the label right after the dots: {s}");
        assert!(!s.contains("textLength=\"58.8\""), "not stretched as a whole: {s}");
        // Plain text is stretched to its cells, as before.
        let mut plain = Buffer::empty(Rect::new(0, 0, 3, 1));
        plain.set_string(0, 0, "abc", Style::default());
        assert!(svg(&plain, ThemeKind::Dark).contains("<text x=\"0.0\" textLength=\"25.2\""));
        // The monospace fonts lack the Braille patterns: fonts that have
        // them follow, before the generic family.
        let family = s.split("font-family=\"").nth(1).and_then(|f| f.split('"').next()).expect("a font-family");
        assert!(family.starts_with("'DejaVu Sans Mono'") && family.ends_with(", monospace"), "{family}");
        for font in ["'DejaVu Sans'", "'Apple Braille'", "'Segoe UI Symbol'"] {
            assert!(family.contains(font), "{font} in {family}");
        }
    }

    #[test]
    fn ansi_colours_runs_and_resets_them() {
        let a = ansi(&buffer());
        assert!(a.starts_with("\x1b[38;2;230;159;0mab<&\x1b[0m\x1b[1mc\x1b[0m"), "{a:?}");
    }

    #[test]
    fn files_are_replaced_whole() {
        let dir = Scratch::new("snapshot");
        let path = dir.join("s.svg");
        write_file(&path, "one").expect("written");
        write_file(&path, "two").expect("replaced");
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "two");
        let left: Vec<_> = std::fs::read_dir(&dir).expect("dir").collect();
        assert_eq!(left.len(), 1, "no temporary file left");
        assert!(write_file(&dir.join("no/such/dir/x.svg"), "x").is_err());
    }

    #[test]
    fn screenshots_get_new_names_and_go_over_or_through_nothing() {
        let dir = Scratch::new("screenshots");
        let preset = crate::scenario::presets::get("default").expect("preset").expect("valid");
        let app = App::new(preset, None, &crate::app::AppOptions::default()).expect("app");
        let name = svg_name(&app);
        // The name is a dangling symbolic link: writing through it would
        // make a file where the user did not ask for one.
        let target = dir.join("elsewhere.svg");
        std::os::unix::fs::symlink(&target, dir.join(&name)).expect("link");
        // Two screenshots of the same moment (paused): two new files.
        let first = save_svg_in(&dir, &app, 80, 24).expect("saved");
        let second = save_svg_in(&dir, &app, 80, 24).expect("saved again");
        let stem = name.trim_end_matches(".svg");
        assert_eq!(first, dir.join(format!("{stem}-2.svg")).display().to_string());
        assert_eq!(second, dir.join(format!("{stem}-3.svg")).display().to_string());
        for path in [&first, &second] {
            assert!(std::fs::read_to_string(path).expect("read").starts_with("<svg "), "{path}");
        }
        assert!(!target.exists(), "nothing written through the link");
        // A lesson's screens are named after the lesson and its step, not
        // after the preset it starts from.
        let lessons = crate::lesson::Lesson::all_shipped().expect("lessons");
        let lesson = lessons.into_iter().find(|l| l.id == "03").expect("lesson 03");
        let opts = crate::app::AppOptions::default();
        let second = App::for_lesson(lesson, 1, Default::default(), &opts).expect("app");
        assert_eq!(svg_name(&second), "dirtyviz-lesson03-step2-30.0s.svg");
        // Not saved: said of the directory, first, where a status line
        // of 80 columns shows it.
        let e = save_svg_in(&dir.join("gone"), &app, 80, 24).expect_err("no such directory");
        assert_eq!(e.to_string(), format!("{}: no such directory", dir.join("gone").display()));
        let e = save_svg_in(Path::new("/proc"), &app, 80, 24).expect_err("/proc takes no files");
        assert_eq!(e.to_string(), "/proc: it takes no new files");
        assert!(std::fs::symlink_metadata(dir.join(&name)).expect("the link").file_type().is_symlink());
        let n = std::fs::read_dir(&dir).expect("dir").count();
        assert_eq!(n, 3, "the link and two screenshots, no temporary file");
    }
}
