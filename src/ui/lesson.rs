//! Drawing lesson mode: the step's text, checks, questions and readings in
//! a pane beside the charts, and the lesson list over the screen. What is
//! drawn was measured by the model when samples arrived (see
//! [`crate::app::lesson`]); this file only lays it out.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use super::theme::Theme;
use super::view::{hanging, hanging_spans};
use crate::app::lesson::LessonMode;
use crate::app::{App, LessonMsg};
use crate::lesson::check::show_value;
use crate::lesson::runner::Verdict;
use crate::lesson::{Question, SideSpec};
use crate::units::{size, trimmed, with_units};

/// A step's text as lines: paragraphs are separated by blank lines, the
/// line breaks inside a paragraph are spaces, a line starting with `- `
/// starts a list item, and a line starting with `$ ` is a shell command,
/// kept on a line of its own as written.
pub fn paragraphs(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    let flush = |current: &mut String, out: &mut Vec<String>| {
        if !current.is_empty() {
            out.push(std::mem::take(current));
        }
    };
    for raw in text.lines() {
        let line = raw.trim();
        if line.is_empty() {
            flush(&mut current, &mut out);
            if out.last().is_some_and(|l| !l.is_empty()) {
                out.push(String::new());
            }
        } else if let Some(item) = line.strip_prefix("- ") {
            flush(&mut current, &mut out);
            current = format!("• {item}");
        } else if line.starts_with("$ ") {
            flush(&mut current, &mut out);
            out.push(line.to_string());
        } else {
            if !current.is_empty() {
                current.push(' ');
            }
            current.push_str(line);
        }
    }
    flush(&mut current, &mut out);
    while out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
    }
    out
}

/// Rows `lines` take when wrapped at `width` columns.
fn wrapped_rows(lines: &[Line], width: u16) -> u16 {
    let rows = Paragraph::new(lines.to_vec()).wrap(Wrap { trim: false }).line_count(width.max(1));
    u16::try_from(rows).unwrap_or(u16::MAX)
}

/// `v`, measured in `unit`, as the screen shows it: a size \[MiB\] in
/// MiB, GiB or TiB by the rule of [`crate::units::size`], anything else
/// as [`show_value`] writes it.
fn shown(v: f64, unit: &str) -> String {
    if unit == "MiB" && v.is_finite() { size(v) } else { show_value(v, unit) }
}

/// The checks `width` columns wide: a heading, then each with its mark
/// and value, wrapped under its label.
fn check_lines(mode: &LessonMode, elapsed: f64, t: &Theme, width: u16) -> Vec<Line<'static>> {
    let step = mode.step();
    let mut lines = Vec::new();
    if step.checks.is_empty() {
        return lines;
    }
    let common = common_read(mode);
    // The window's length, where the heading names one.
    let window = step.checks.iter().find(|c| Some(c.reads(step.run_s)) == common).map(|c| c.window_s.min(step.run_s));
    // As short as the pane is narrow: at 160x48 it is 60 columns wide.
    let heading = match (mode.judged(), common.as_deref()) {
        (true, Some("whole step")) => format!("checks over the whole step, {:.0}\u{a0}s", step.run_s),
        (true, Some("now") | None) => format!("checks, as judged at the end of the step's {:.0}\u{a0}s", step.run_s),
        (true, Some(over)) => format!("checks over the {over} of the step's {:.0}\u{a0}s", step.run_s),
        (false, Some("now") | None) => "checks (live)".to_string(),
        // A window not yet run says how much has.
        (false, Some(over)) if over != "whole step" && window.is_some_and(|w| mode.elapsed_s() + 1e-9 < w) => {
            format!("checks (live, over the {over}; {}\u{a0}s so far)", trimmed(mode.elapsed_s(), 0))
        }
        (false, Some(over)) => format!("checks (live, over the {over})"),
    };
    lines.extend(hanging("", t.dim, &heading, t.dim, width, 0));
    if mode.changed_by_hand() {
        let changed = if mode.changed_after_end() {
            "your keys changed the step's setup after it ended: its verdicts stand (r restores the step's own)"
        } else {
            "your keys changed the step's setup: these checks judge it as it is now (r restores the step's own)"
        };
        lines.extend(hanging("! ", t.warn.add_modifier(Modifier::BOLD), changed, t.warn, width, 2));
    }
    // A value with its unit, and the bounds, each stay on one row when wrapped.
    let whole = |s: String| s.replace(' ', "\u{a0}");
    for (i, (c, verdict)) in step.checks.iter().zip(mode.verdicts()).enumerate() {
        // A time until something happens reads as the time so far while
        // it has not (lesson 13's B that never reached 90% showed `90 s`).
        let judged = |v| {
            let (value, bounds) = c.judged(v);
            // A read other than the heading's is told with the bounds; an
            // instant, read at the step's end, goes without.
            let reads = c.reads(step.run_s);
            let bounds =
                if common.as_ref() == Some(&reads) || reads == "now" { bounds } else { format!("{reads}; {bounds}") };
            let value = match (mode.check_counting(i), mode.judged()) {
                (false, _) => value,
                (true, false) => format!("not yet, {value} so far"),
                (true, true) => format!("not reached in {value}"),
            };
            format!("{} ({})", whole(value), whole(bounds))
        };
        let (mark, style, tail) = match *verdict {
            Verdict::Pass(v) => ("✓", t.good, judged(v)),
            // Not holding yet: a fail only once judged at the step's end
            // (a class read a red mark mid-step as a wrong answer).
            Verdict::Fail(v) if !mode.judged() && mode.check_counting(i) => ("…", t.dim, judged(v)),
            Verdict::Fail(v) | Verdict::Unjudged(v) if !mode.judged() => ("…", t.dim, format!("now {}", judged(v))),
            Verdict::Unjudged(v) => ("…", t.dim, judged(v)),
            Verdict::Fail(v) => ("✗", t.warn, judged(v)),
            Verdict::Pending => ("…", t.dim, format!("{elapsed:.0} of {:.0}\u{a0}s", c.window_s.min(step.run_s))),
        };
        // Two columns apart from its label, on its row or the next.
        let text =
            [Span::styled(format!("{}\u{a0}", with_units(&c.label)), t.text), Span::styled(format!(" {tail}"), style)];
        lines.extend(hanging_spans(&format!("{mark} "), style.add_modifier(Modifier::BOLD), &text, width, 2));
    }
    lines
}

/// What most of the step's checks read ([`Check::reads`]): the checks'
/// heading names it (a class took a check's 10 s mean for the value
/// chart 2 shows at the step's end), and a check that reads something
/// else names its own.
fn common_read(mode: &LessonMode) -> Option<String> {
    let step = mode.step();
    let reads: Vec<(String, f64)> = step.checks.iter().map(|c| (c.reads(step.run_s), c.span_s(step.run_s))).collect();
    let count = |r: &String| reads.iter().filter(|(x, _)| x == r).count();
    // The one read most often; of those that tie, the longest (lesson 00's
    // last step read `last 1 s` twice and `last 10 s` twice, and the
    // heading named the first, 1 s, for all four).
    let most = reads.iter().map(|(r, _)| count(r)).max()?;
    reads.iter().filter(|(r, _)| count(r) == most).max_by(|a, b| a.1.total_cmp(&b.1)).map(|(r, _)| r.clone())
}

/// The questions `width` columns wide, each with what the student typed
/// or was told, wrapped under its text: the heading, then each
/// question's lines.
fn question_lines(mode: &LessonMode, t: &Theme, width: u16) -> (Vec<Line<'static>>, Vec<Vec<Line<'static>>>) {
    let step = mode.step();
    if step.questions.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let heading = vec![Line::styled("questions (a answers)", t.dim)];
    let each = step.questions.iter().enumerate().map(|(i, q)| one_question(mode, i, q, t, width)).collect();
    (heading, each)
}

/// Question `i` of the open step, `width` columns wide, with what the
/// student typed or was told.
fn one_question(mode: &LessonMode, i: usize, q: &Question, t: &Theme, width: u16) -> Vec<Line<'static>> {
    let (mut lines, answer) = question_parts(mode, i, q, t, width);
    lines.extend(answer);
    lines
}

/// [`one_question`] in at most `rows` rows: what the student typed or
/// was told whole, and the question cut short with an ellipsis to make
/// room for it.
fn question_in(mode: &LessonMode, i: usize, q: &Question, t: &Theme, width: u16, rows: u16) -> Vec<Line<'static>> {
    let (mut ask, answer) = question_parts(mode, i, q, t, width);
    let room = usize::from(rows).saturating_sub(answer.len()).max(1);
    if ask.len() > room {
        ask.truncate(room);
        let last = ask.pop().expect("one row at least");
        ask.push(super::view::cut_line(&last, usize::from(width)));
    }
    ask.extend(answer);
    ask
}

/// Question `i` of the open step `width` columns wide, and under it what
/// the student typed or was told (if anything), one row a line.
fn question_parts(
    mode: &LessonMode,
    i: usize,
    q: &Question,
    t: &Theme,
    width: u16,
) -> (Vec<Line<'static>>, Vec<Line<'static>>) {
    let unit = q.unit();
    let ask = if unit.is_empty() { q.ask.clone() } else { format!("{} [{unit}]", q.ask) };
    let asked = hanging(&format!("{}. ", i + 1), t.accent, &with_units(&ask), t.text, width, 3);
    let mut lines = Vec::new();
    if let Some(text) = mode.typing(i) {
        // Why Enter or a key was refused, where the eyes are; else how to go on.
        let after = match mode.refused() {
            Some(why) => Span::styled(format!(" {why}"), t.warn),
            None => Span::styled(" Enter checks, Esc cancels", t.dim),
        };
        let typed = [Span::styled(format!("{text}▏\u{a0}"), t.accent), after];
        lines.extend(hanging_spans("   your answer: ", t.dim, &typed, width, 5));
    } else if let Some(j) = mode.answer(i) {
        lines.extend(match j.answer {
            Some(a) if !a.reached => {
                let said = format!(
                    "you said {}, but it did not happen in the step's {}: no time is right",
                    show_value(j.given, unit),
                    shown(a.actual, unit)
                );
                hanging("   ✗ ", t.warn.add_modifier(Modifier::BOLD), &with_units(&said), t.text, width, 5)
            }
            Some(a) if a.right && j.after_shown => {
                let said = format!(
                    "you said {}, after the simulation's value was shown: right, not counted",
                    show_value(j.given, unit)
                );
                hanging("   ~ ", t.dim.add_modifier(Modifier::BOLD), &with_units(&said), t.text, width, 5)
            }
            Some(a) => {
                let (mark, style) = if a.right { ("✓", t.good) } else { ("✗", t.warn) };
                // In the unit asked, as the answer was typed; and as the rest
                // of the screen writes it, when that differs.
                let says = match (show_value(a.actual, unit), shown(a.actual, unit)) {
                    (asked, screen) if asked == screen => asked,
                    (asked, screen) => format!("{asked} ({screen})"),
                };
                let (off, within) = percents(a.error, q.tolerance, a.right);
                // Not a percentage of 24 digits for 1e22 typed.
                let off = if a.error >= 10.0 { "over 1000".to_string() } else { off };
                let said = format!(
                    "you said {}, the simulation says {says}: {off}% off (within {within}% counts)",
                    show_value(j.given, unit)
                );
                let said = with_units(&said);
                hanging(&format!("   {mark} "), style.add_modifier(Modifier::BOLD), &said, t.text, width, 5)
            }
            // Kept, and judged at the step's end.
            None => {
                let said = match (mode.answer_wait_s(i), mode.lacking(i)) {
                    (_, Some(why)) => format!("you said {}: nothing to measure: {why}", show_value(j.given, unit)),
                    (Some(s), None) => format!(
                        "you said {}: judged at the step's end, in {} s of simulated time",
                        show_value(j.given, unit),
                        // Not "in 0 s" a jiffy before it.
                        if s < 0.05 { "under 0.1".to_string() } else { trimmed(s, 1) }
                    ),
                    (None, None) => {
                        format!("you said {}: the step measured nothing to judge it by", show_value(j.given, unit))
                    }
                };
                // Never judged where the kernel lacks the quantity: no
                // "pending" mark.
                let mark = if mode.lacking(i).is_some() { "   – " } else { "   … " };
                hanging(mark, t.dim, &with_units(&said), t.dim, width, 5)
            }
        });
    }
    (asked, lines)
}

/// An answer's error and the question's tolerance as percentages, with
/// as few decimals as show the tolerance as it is and, for a wrong
/// answer, its error above it (not `0% off (within 0% counts)`).
fn percents(error: f64, tolerance: f64, right: bool) -> (String, String) {
    let shown = |x: f64, d: usize| format!("{:.d$}", x * 100.0);
    for d in 0..3 {
        let scaled = tolerance * 100.0 * 10f64.powi(d as i32);
        let exact = (scaled - scaled.round()).abs() < 1e-6;
        if exact && (right || shown(error, d) != shown(tolerance, d)) {
            return (shown(error, d), shown(tolerance, d));
        }
    }
    (shown(error, 3), shown(tolerance, 3))
}

/// What the step's readings are headed by on the parameter strip, wide
/// and narrow: measured now, or, once the step is judged, at its end.
pub fn readings_head(mode: &LessonMode) -> [&'static str; 2] {
    if mode.judged() { ["at step end: ", "end: "] } else { ["measured now: ", "now: "] }
}

/// What the step's questions measure, as of the last sample (of the
/// step's end, once judged), named by quantity (not by question: finding
/// the right one is the exercise); `comparing` two worlds, each side's
/// named.
pub fn readings(mode: &LessonMode, comparing: bool) -> Vec<String> {
    let step = mode.step();
    let mut readings: Vec<String> = Vec::new();
    for (i, q) in step.questions.iter().enumerate() {
        let from = crate::lesson::runner::question_window_from_s(step, q);
        // Before its window starts a question reads nothing yet: said when
        // it will (lesson 01's first step showed no reading for 10 s).
        let waiting = q.metric.windowed() && !mode.judged() && from > 0.0 && mode.elapsed_s() < from + 1e-3;
        let v = match mode.reading(i) {
            Some(v) => v,
            None if waiting && mode.lacking(i).is_none() => f64::NAN,
            None => continue,
        };
        let side = match q.side {
            // Beside two worlds, the left one is named as the right is.
            SideSpec::A if comparing => "left: ",
            SideSpec::A => "",
            SideSpec::B => "right: ",
            SideSpec::AOverB => "left/right: ",
            SideSpec::BOverA => "right/left: ",
        };
        let bdi = q.bdi.as_ref().map(|b| format!("{b} ")).unwrap_or_default();
        // The window the answer is judged on (the step's last seconds) as
        // far as it has run; before it starts, when it does.
        let measured = q.window_s.min(mode.elapsed_s() - from).max(0.0);
        let window = if !q.metric.windowed() {
            String::new()
        } else if measured + 1e-9 >= q.window_s || measured < 1e-3 {
            format!(", last {} s", q.window_s)
        } else {
            format!(", last {} s of {}", trimmed(measured, 1), q.window_s)
        };
        // A time until something happens that has not happened yet reads
        // as the time so far: said so (at 40 s a student took the `40 s`
        // for B's time to reach 90%).
        let value = if waiting {
            // On the status line's clock, which runs from the lesson's
            // start (`from 50 s` read beside `t 73.1 s` in a step opened
            // at 60 s).
            let start_s = mode.run().step_start_ns as f64 / crate::sim::NS_PER_SEC as f64;
            format!("– (from {} s)", trimmed(start_s + from, 1))
        } else if q.metric.windowed() && measured < 1e-3 {
            "–".to_string()
        } else if mode.still_counting(i) && mode.judged() {
            format!("not reached in {}", shown(v, q.unit()))
        } else if mode.still_counting(i) {
            format!("not yet, {} so far", shown(v, q.unit()))
        } else {
            shown(v, q.unit())
        };
        let text = format!("{side}{bdi}{}{window}: {value}", q.metric.label());
        if !readings.contains(&text) {
            readings.push(text);
        }
    }
    readings
}

/// The world's own quantities the step's readings give a value of
/// (`setpoint`, not a bdi's, a side's or a ratio), which the parameter
/// strip then leaves out of its parameters rather than say twice. One
/// whose window has not started stays there (lesson 03 showed no
/// threshold for 50 s of 60).
pub fn read_quantities(mode: &LessonMode) -> Vec<&'static str> {
    let step = mode.step();
    (step.questions.iter().enumerate())
        .filter(|(i, q)| q.side == SideSpec::A && q.bdi.is_none() && mode.reading(*i).is_some())
        .map(|(_, q)| q.metric.label())
        .collect()
}

/// What to do next, wrapped to `width`.
fn next_lines(mode: &LessonMode, t: &Theme, width: u16) -> Vec<Line<'static>> {
    let step = mode.step();
    let all_pass = !step.checks.is_empty() && mode.verdicts().iter().all(|v| matches!(v, Verdict::Pass(_)));
    let last = mode.last_step();
    let good = t.good.add_modifier(Modifier::BOLD);
    if all_pass && last {
        hanging("✓ ", good, "lesson complete: L opens the lesson list", t.good, width, 2)
    } else if all_pass {
        hanging("✓ ", good, "every check holds: n opens the next step", t.good, width, 2)
    } else if step.auto_advance && !last {
        hanging("", t.dim, &format!("the next step opens by itself after {:.0}\u{a0}s", step.run_s), t.dim, width, 0)
    } else {
        // The keys that do something here.
        let keys = [
            (LessonMsg::NextStep, "n next"),
            (LessonMsg::PrevStep, "N back"),
            (LessonMsg::Hint, "h hint"),
            (LessonMsg::Lessons, "L lessons"),
        ];
        let keys: Vec<&str> = keys.iter().filter(|(msg, _)| mode.offers(*msg)).map(|(_, k)| *k).collect();
        let keys = keys.join(" · ");
        hanging("", t.dim, &keys.replace(' ', "\u{a0}").replace("\u{a0}·\u{a0}", "\u{a0}· "), t.dim, width, 0)
    }
}

/// A paragraph of a step's text (see [`paragraphs`]) wrapped to `width`:
/// a list item goes on under its text, not its bullet; a shell command
/// as [`command_lines`] wraps it.
fn paragraph_lines(p: String, t: &Theme, width: u16) -> Vec<Line<'static>> {
    if p.is_empty() {
        vec![Line::styled(p, t.text)]
    } else if let Some(command) = p.strip_prefix("$ ") {
        command_lines(command, t, width)
    } else if let Some(item) = p.strip_prefix("• ") {
        hanging("• ", t.text, &with_units(item), t.text, width, 2)
    } else {
        hanging("", t.text, &with_units(&p), t.text, width, 0)
    }
}

/// A shell command (the text of a `$ ` line, as written: no units
/// joined) wrapped to `width` between words: each row it goes on from
/// ends in ` \` (as a shell reads it, so that it copies whole), and the
/// rows after the first hang under the command, past the `$ `. A word
/// longer than a row starts one and is broken inside, after a `/`, `_`,
/// `-`, `=` or `,` where there is one, the row ending in `\` right after
/// it and the rest of the word going on at the next row's start: a shell
/// joins the two halves back (they were broken after a separator with
/// ` \` and the rest indented, which a shell reads as two words).
fn command_lines(command: &str, t: &Theme, width: u16) -> Vec<Line<'static>> {
    const GOES_ON: &str = " \\";
    let width = usize::from(width);
    if command.chars().count() + 2 <= width {
        return vec![Line::from(vec![Span::styled("$ ", t.dim), Span::styled(command.to_string(), t.text)])];
    }
    // (lead, text, what the row ends in).
    let mut rows: Vec<(&str, String, &str)> = vec![("$ ", String::new(), "")];
    for word in command.split(' ').filter(|w| !w.is_empty()) {
        let mut word: Vec<char> = word.chars().collect();
        loop {
            let (lead, text, tail) = rows.last_mut().expect("one row at least");
            let used = text.chars().count();
            let room = width.saturating_sub(lead.len() + GOES_ON.len()).max(1);
            if used + usize::from(used > 0) + word.len() <= room {
                if used > 0 {
                    text.push(' ');
                }
                text.extend(word.iter());
                break;
            }
            if used > 0 {
                *tail = GOES_ON;
                rows.push(("  ", String::new(), ""));
                continue;
            }
            // Longer than a row: as much as fits before a `\`, broken
            // after a separator in its second half if there is one.
            let fit = (room + 1).min(word.len() - 1).max(1);
            let cut = word[..fit]
                .iter()
                .rposition(|c| matches!(c, '/' | '_' | '-' | '=' | ','))
                .map(|i| i + 1)
                .filter(|&i| i * 2 > fit)
                .unwrap_or(fit);
            text.extend(word.drain(..cut));
            *tail = "\\";
            rows.push(("", String::new(), ""));
        }
    }
    rows.into_iter()
        .map(|(lead, text, tail)| {
            let mut spans = vec![Span::styled(lead, t.dim), Span::styled(text, t.text)];
            if !tail.is_empty() {
                spans.push(Span::styled(tail, t.dim));
            }
            Line::from(spans)
        })
        .collect()
}

/// What the hint's first line starts with.
const HINT: &str = "hint: ";

/// The step's heading, text and hint, wrapped to `width`.
fn text_lines(mode: &LessonMode, roomy: bool, t: &Theme, width: u16) -> Vec<Line<'static>> {
    let step = mode.step();
    let mut lines = hanging("", t.title, &step.title, t.title.add_modifier(Modifier::BOLD), width, 0);
    // The first step's patch goes under its title, dim, as a subtitle.
    if mode.run().step == 0 {
        lines.extend(hanging("", t.dim, &mode.run().lesson.patch, t.dim, width, 0));
    }
    if roomy {
        lines.push(Line::raw(""));
    }
    lines.extend(paragraphs(&step.text).into_iter().flat_map(|p| paragraph_lines(p, t, width)));
    if let Some(hint) = step.hint.as_deref().filter(|_| mode.hint_shown()) {
        lines.push(Line::raw(""));
        lines.extend(hanging(HINT, t.accent, &with_units(hint), t.text, width, 2));
    }
    lines
}

/// The lesson pane at `area`: its frame, the step's text and where it
/// goes, and below it the checks, questions and what to do next.
///
/// When the checks, questions and what to do next have no room below
/// the text, the checks and what to do next scroll on after the text,
/// and a line saying how the checks stand stays in view, with the
/// questions (and the answer being typed) under it.
struct Pane {
    block: Block<'static>,
    text: Vec<Line<'static>>,
    text_area: Rect,
    bottom: Vec<Line<'static>>,
    bottom_area: Rect,
    /// The row over the bottom saying what scrolled away above it.
    above: Option<Line<'static>>,
    /// Rows the bottom is scrolled by: to the answer being typed, when
    /// the questions have no room.
    bottom_scroll: u16,
    /// Rows the step takes shown whole.
    whole: u16,
}

impl Pane {
    fn new(app: &App, mode: &LessonMode, t: &Theme, area: Rect) -> Pane {
        let run = mode.run();
        let steps = run.lesson.steps.len();
        let step = format!(" step {}/{steps} ", run.step + 1);
        // The title gives way to the step, cut with an ellipsis.
        let room = (area.width as usize).saturating_sub(step.chars().count() + 3);
        let whole = format!("lesson {} · {}", run.lesson.id, run.lesson.title);
        let title = format!(" {} ", super::view::cut_to(&whole, room.saturating_sub(2)));
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(t.accent)
            .title(Span::styled(title, t.title))
            .title_top(Line::styled(step, t.accent).right_aligned());
        let inner = block.inner(area);
        let width = inner.width;
        let checks = check_lines(mode, run.elapsed_s(app.session()), t, width);
        let (heading, questions) = question_lines(mode, t, width);
        let next = next_lines(mode, t, width);
        let mut bottom = checks.clone();
        bottom.extend(heading.iter().cloned());
        bottom.extend(questions.iter().flatten().cloned());
        bottom.extend(next.iter().cloned());
        let next_len = next.len();
        let roomy = inner.height >= 16;
        let spacer = u16::from(roomy);
        let mut text = text_lines(mode, roomy, t, width);
        let bottom_rows = wrapped_rows(&bottom, width);
        let whole = wrapped_rows(&text, width).saturating_add(spacer).saturating_add(bottom_rows);
        // The text keeps at least half the pane (two thirds in a small one).
        let room = if inner.height < 12 { (inner.height / 3).max(2) } else { (inner.height / 2).max(4) };
        let layout = |bottom_rows: u16| {
            let [text_area, _, bottom_area] =
                Layout::vertical([Constraint::Min(0), Constraint::Length(spacer), Constraint::Length(bottom_rows)])
                    .areas(inner);
            (text_area, bottom_area)
        };
        if bottom_rows <= room || whole <= inner.height {
            let (text_area, bottom_area) = layout(bottom_rows);
            return Pane { block, text, text_area, above: None, bottom, bottom_area, bottom_scroll: 0, whole };
        }
        // What to do next scrolls on after the text, if that leaves room
        // enough for the checks and questions.
        text.push(Line::raw(""));
        let fixed = bottom_rows.saturating_sub(wrapped_rows(&next, width));
        if fixed <= room {
            text.extend(next);
            bottom.truncate(bottom.len() - next_len);
            let (text_area, bottom_area) = layout(fixed);
            return Pane { block, text, text_area, above: None, bottom, bottom_area, bottom_scroll: 0, whole };
        }
        // Else the checks scroll on after the text too.
        let checks_from = wrapped_rows(&text, width);
        text.extend(checks);
        let checks_to = wrapped_rows(&text, width);
        text.extend(next);
        // Below them: how the checks stand, then the questions, the text
        // keeping two rows and its "more" mark; one row and its mark when
        // the questions have no room else (at 60x18 a question was cut).
        let has_checks = !mode.step().checks.is_empty();
        let most = inner.height.saturating_sub(2 + spacer);
        // The questions' heading goes when they have no room with it (the
        // hint bar names a too).
        let asked = wrapped_rows(&questions.iter().flatten().cloned().collect::<Vec<_>>(), width);
        let heading =
            if u16::from(has_checks) + wrapped_rows(&heading, width) + asked > most { Vec::new() } else { heading };
        let mut pinned = heading;
        // The question being answered shows whole, with what was typed or
        // told, when they all have no room.
        let answering = mode.answering();
        // What the student typed or was told shows whole, the question
        // over it cut short (and saying so) when they have no room even
        // with the rows above it scrolled away.
        let asked_rows: Vec<u16> = questions.iter().map(|q| wrapped_rows(q, width)).collect();
        let pinned_rows = u16::from(has_checks) + wrapped_rows(&pinned, width) + asked_rows.iter().sum::<u16>();
        let pinned_area_rows = pinned_rows.min(most);
        // Where an earlier question scrolls away above the one being
        // answered, the first row says so (see [`above_cue`]), the rest
        // showing that one whole.
        let first_question = u16::from(has_checks) + wrapped_rows(&pinned, width);
        let rows_to = |i: usize| first_question + asked_rows[..i].iter().sum::<u16>();
        let scroll_in = |i: usize, rows: u16| (rows_to(i) + asked_rows[i].min(rows)).saturating_sub(rows);
        let cue = answering.filter(|&i| scroll_in(i, pinned_area_rows) > first_question && pinned_area_rows > 2);
        let shown_rows = pinned_area_rows - u16::from(cue.is_some());
        let mut questions = questions;
        if let Some(i) = answering.filter(|&i| asked_rows[i] > shown_rows) {
            questions[i] = question_in(mode, i, &mode.step().questions[i], t, width, shown_rows);
        }
        let before: Vec<Line> = questions.iter().take(answering.unwrap_or(0)).flatten().cloned().collect();
        let start = first_question + wrapped_rows(&before, width);
        let end = start + answering.map_or(0, |i| wrapped_rows(&questions[i], width));
        pinned.extend(questions.into_iter().flatten());
        let bottom_scroll = end.saturating_sub(shown_rows).min(start);
        let (text_area, mut bottom_area) = layout(pinned_area_rows);
        let above = cue.map(|_| {
            let hidden = (0..answering.unwrap_or(0)).filter(|&i| rows_to(i) < bottom_scroll).count();
            above_cue(has_checks && bottom_scroll > 0, hidden)
        });
        if above.is_some() {
            bottom_area = Rect { y: bottom_area.y + 1, height: bottom_area.height - 1, ..bottom_area };
        }
        if has_checks {
            let at = Scrolled::new(&text, text_area);
            let scroll = mode.scroll().min(at.most);
            let shown = scroll..scroll.saturating_add(at.area.height);
            let way = if checks_to > shown.end {
                "▼ PgDn"
            } else if checks_from < shown.start {
                "▲ PgUp"
            } else {
                ""
            };
            pinned.insert(0, checks_summary(mode, way, t));
        }
        // The last row shown says so when rows go on below it.
        mark_cut(&mut pinned, bottom_scroll.saturating_add(shown_rows), width);
        let above = above.map(|text| Line::styled(text, t.dim));
        Pane { block, text, text_area, above, bottom: pinned, bottom_area, bottom_scroll, whole }
    }
}

/// What the row over the questions says when `questions` of them (and
/// the checks' line, if `checks`) scrolled away above the one being
/// answered: `… question 1 above`, as the disk list says `… 6 more
/// above`.
fn above_cue(checks: bool, questions: usize) -> String {
    let questions = match questions {
        0 => String::new(),
        1 => "question 1".to_string(),
        n => format!("questions 1-{n}"),
    };
    match (checks, questions.is_empty()) {
        (true, true) => "… checks above".to_string(),
        (true, false) => format!("… checks and {questions} above"),
        (false, _) => format!("… {questions} above"),
    }
}

/// Marks the line of `lines` (wrapped to `width`) on row `end - 1` as
/// cut short (see [`super::view::cut_line`]) when rows follow it.
fn mark_cut(lines: &mut [Line<'static>], end: u16, width: u16) {
    if end == 0 || wrapped_rows(lines, width) <= end {
        return;
    }
    let mut row = 0;
    for line in lines.iter_mut() {
        row += wrapped_rows(std::slice::from_ref(line), width);
        if row >= end {
            *line = super::view::cut_line(line, usize::from(width));
            return;
        }
    }
}

/// How many of the step's checks hold, fail and are not judged yet (the
/// ones that do not hold before the step's end among them: they may yet).
fn standing(mode: &LessonMode) -> (usize, usize, usize) {
    let count = |f: &dyn Fn(&Verdict) -> bool| mode.verdicts().iter().filter(|v| f(v)).count();
    let pass = count(&|v| matches!(v, Verdict::Pass(_)));
    let fail = if mode.judged() { count(&|v| matches!(v, Verdict::Fail(_))) } else { 0 };
    (pass, fail, mode.verdicts().len() - pass - fail)
}

/// How the step's checks stand, on one line: how many hold, fail and
/// are still measured, and `way`, the key that shows them.
fn checks_summary(mode: &LessonMode, way: &str, t: &Theme) -> Line<'static> {
    let (pass, fail, pending) = standing(mode);
    let mut spans = vec![Span::styled(format!("checks {pass}/{} ✓", mode.verdicts().len()), t.good)];
    if fail > 0 {
        spans.push(Span::styled(format!(" · {fail} ✗"), t.warn));
    }
    if pending > 0 {
        spans.push(Span::styled(format!(" · {pending} …"), t.dim));
    }
    if mode.changed_by_hand() {
        spans.push(Span::styled(" · your setup (r: the step's)", t.warn));
    }
    if !way.is_empty() {
        spans.push(Span::styled(format!(" · {way}"), t.accent));
    }
    Line::from(spans)
}

/// The folded pane's one line: the step's title, how its checks stand,
/// and the key that unfolds it.
fn folded_line(mode: &LessonMode, t: &Theme) -> Line<'static> {
    let (pass, fail, pending) = standing(mode);
    let mut spans = vec![Span::styled(mode.step().title.clone(), t.title.add_modifier(Modifier::BOLD))];
    if !mode.step().checks.is_empty() {
        spans.push(Span::styled(format!("  ✓ {pass}"), t.good));
        spans.push(Span::styled(format!("  ✗ {fail}"), t.warn));
        spans.push(Span::styled(format!("  … {pending}"), t.dim));
    }
    if mode.changed_by_hand() {
        spans.push(Span::styled("  · your setup", t.warn));
    }
    spans.push(Span::styled("  · v shows the text", t.accent));
    Line::from(spans)
}

/// Rows the lesson pane takes when folded, borders included.
pub const FOLDED_ROWS: u16 = 3;

/// Draws the lesson pane: the step's text above, its checks, questions
/// and readings below; folded, one line.
pub fn draw_pane(app: &App, t: &Theme, frame: &mut Frame, area: Rect) {
    let Some(mode) = app.lesson() else { return };
    let pane = Pane::new(app, mode, t, area);
    if mode.folded() {
        let inner = pane.block.inner(area);
        frame.render_widget(pane.block, area);
        frame.render_widget(Paragraph::new(folded_line(mode, t)), inner);
        return;
    }
    frame.render_widget(pane.block, area);
    draw_scrolled(pane.text, mode.scroll(), t, frame, pane.text_area);
    let bottom = Paragraph::new(pane.bottom).wrap(Wrap { trim: false }).scroll((pane.bottom_scroll, 0));
    frame.render_widget(bottom, pane.bottom_area);
    if let Some(above) = pane.above {
        frame.render_widget(Paragraph::new(above), Rect { y: pane.bottom_area.y - 1, height: 1, ..pane.bottom_area });
    }
}

/// The rows a lesson pane `width` columns wide needs to show the open
/// step whole, borders included; at most `most`.
pub fn pane_rows(app: &App, t: &Theme, width: u16, most: u16) -> u16 {
    let Some(mode) = app.lesson() else { return most };
    let pane = Pane::new(app, mode, t, Rect::new(0, 0, width, most));
    pane.whole.saturating_add(2).min(most)
}

/// The most rows the open step's text can scroll by in a pane at `area`
/// (until its last line is at the bottom), the rows a page of it
/// scrolls by (the rows it shows, less one) and the row its hint starts
/// on, when shown.
pub fn text_room(app: &App, t: &Theme, area: Rect) -> (u16, u16, Option<u16>) {
    let Some(mode) = app.lesson().filter(|m| !m.folded()) else { return (0, 1, None) };
    let pane = Pane::new(app, mode, t, area);
    let at = Scrolled::new(&pane.text, pane.text_area);
    let hint = pane.text.iter().position(|l| l.spans.first().is_some_and(|s| s.content == HINT));
    let hint_row = hint.map(|i| wrapped_rows(&pane.text[..i], at.area.width));
    (at.most, at.area.height.saturating_sub(1).max(1), hint_row)
}

/// Where scrolled lines go: the rows they show in, the most they scroll
/// by, and the row of the "more" mark when they do not fit.
struct Scrolled {
    area: Rect,
    most: u16,
    more: Option<Rect>,
}

impl Scrolled {
    fn new(lines: &[Line], area: Rect) -> Scrolled {
        let rows = wrapped_rows(lines, area.width);
        let (area, more) = if rows > area.height && area.height > 1 {
            let [text, more] = Layout::vertical([Constraint::Min(0), Constraint::Length(1)]).areas(area);
            (text, Some(more))
        } else {
            (area, None)
        };
        Scrolled { area, most: rows.saturating_sub(area.height), more }
    }
}

/// Draws `lines` in `area` (wrapped again only where a line is wider than
/// the area: a list item's text in a narrow pane), scrolled by `scroll` rows (no further
/// than their end), with a "more" mark when they do not fit.
fn draw_scrolled(lines: Vec<Line>, scroll: u16, t: &Theme, frame: &mut Frame, area: Rect) {
    let at = Scrolled::new(&lines, area);
    let scroll = scroll.min(at.most);
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }).scroll((scroll, 0)), at.area);
    if let Some(more) = at.more {
        let text = scroll_mark(scroll, at.most);
        frame.render_widget(Paragraph::new(Line::styled(text, t.accent).right_aligned()), more);
    }
}

/// Where scrolled text goes on from a scroll of `scroll` rows out of
/// `most`: below (`▼ more: PgDn`), above (`▲ PgUp`), both, or nowhere
/// (empty).
pub(super) fn scroll_mark(scroll: u16, most: u16) -> &'static str {
    match (scroll > 0, scroll < most) {
        (false, true) => "▼ more: PgDn",
        (true, true) => "▲ PgUp · ▼ PgDn",
        (true, false) => "▲ PgUp",
        (false, false) => "",
    }
}

/// The lesson list's keys in `width` columns, naming what Esc goes back
/// to: from `dirtyviz lesson` that is the lesson to resume, opened by it
/// (`Esc close` read as backing out, and lesson 00 opened). Where that
/// does not fit, shorter wordings drop whole items, Esc's target first
/// (it was cut mid-word at 60 columns: `Esc back to the dashboar`).
fn picker_keys(app: &App, width: u16) -> String {
    let back = app.lesson().map_or_else(|| "the dashboard".to_string(), |m| format!("lesson {}", m.run().lesson.id));
    let forms = [
        format!(" ↑ ↓ or 0-9 choose · Enter open · Esc back to {back} · q quit "),
        " ↑ ↓ or 0-9 choose · Enter open · Esc back · q quit ".to_string(),
        " ↑ ↓ 0-9 choose · Enter open · Esc back · q quit ".to_string(),
        " ↑ ↓ Enter Esc q ".to_string(),
    ];
    let fits = |f: &&String| f.chars().count() <= usize::from(width);
    forms.iter().find(fits).cloned().unwrap_or_default()
}

/// The lesson list's width where the screen leaves room around it.
const PICKER_WIDTH: u16 = 96;

/// Draws the lesson list over the screen.
pub fn draw_picker(app: &App, t: &Theme, frame: &mut Frame, area: Rect) {
    let Some(picker) = app.picker() else { return };
    // Where it would leave under 4 columns either side, it takes the whole
    // width: slivers of the panes beneath read as stray letters.
    let width = if area.width < PICKER_WIDTH + 8 { area.width } else { PICKER_WIDTH };
    let height = (picker.lessons.len() as u16 + 10).min(area.height);
    let r = Rect { x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2, width, height };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(t.accent)
        .title(Span::styled(" lessons ", t.title))
        .title_bottom(Line::styled(picker_keys(app, width.saturating_sub(2)), t.dim));
    let inner = block.inner(r);
    frame.render_widget(Clear, r);
    frame.render_widget(block, r);
    // The selected lesson's patch and summary whole where the list can
    // scroll instead (at 80x24 its summary was cut after three rows),
    // keeping at least 3 lessons in view.
    let l = &picker.lessons[picker.selected];
    let width = usize::from(inner.width);
    let about_rows =
        crate::units::wrap_words(&l.patch, width).len() + crate::units::wrap_words(&l.summary, width).len();
    let room = inner.height.saturating_sub(1).saturating_sub(u16::try_from(about_rows).unwrap_or(u16::MAX));
    let list_rows =
        (picker.lessons.len() as u16).min(inner.height.saturating_sub(3)).min(room.max(3.min(inner.height)));
    let [list, gap, about] =
        Layout::vertical([Constraint::Length(list_rows), Constraint::Length(1), Constraint::Min(0)]).areas(inner);
    // Keep the selection in view when the list does not fit.
    let first = picker.selected.saturating_sub(list_rows.saturating_sub(1) as usize);
    let lines: Vec<Line> = picker
        .lessons
        .iter()
        .enumerate()
        .skip(first)
        .take(list_rows as usize)
        .map(|(i, l)| {
            let state = match app.progress().lessons.get(&l.id) {
                Some(p) if p.done => "✓ done".to_string(),
                Some(p) => format!("at step {}/{}", p.step + 1, l.steps.len()),
                None => String::new(),
            };
            let mark = if i == picker.selected { "▶" } else { " " };
            let style = if i == picker.selected { t.accent.add_modifier(Modifier::BOLD) } else { t.text };
            let title_width = (inner.width as usize).saturating_sub(21).max(8);
            // A title cut short says so.
            let title = super::view::cut_to(&l.title, title_width);
            Line::from(vec![
                Span::styled(format!("{mark} {}  {title:<title_width$}", l.id), style),
                Span::styled(format!(" {state}"), t.dim),
            ])
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), list);
    // Lessons the list has no room for are said to be there.
    let (above, below) = (first, picker.lessons.len().saturating_sub(first + list_rows as usize));
    let more = match (above, below) {
        (0, 0) => String::new(),
        (0, b) => format!("  ↓ {b} more"),
        (a, 0) => format!("  ↑ {a} more"),
        (a, b) => format!("  ↑ {a} more · ↓ {b} more"),
    };
    frame.render_widget(Paragraph::new(Line::styled(more, t.dim)), gap);
    // What the rows hold of the summary, its last row ending in an
    // ellipsis where it goes on (the lesson itself shows it whole).
    let width = usize::from(about.width);
    let mut text: Vec<Line> = crate::units::wrap_words(&l.patch, width)
        .into_iter()
        .map(|r| Line::styled(r, t.dim))
        .chain(crate::units::wrap_words(&l.summary, width).into_iter().map(|r| Line::styled(r, t.text)))
        .collect();
    let rows = usize::from(about.height);
    if text.len() > rows && rows > 0 {
        text.truncate(rows);
        let last = text.pop().expect("a row");
        let cut = super::view::cut_to(&format!("{} …", last.to_string().trim_end()), width);
        text.push(Line::styled(cut, last.style));
    }
    frame.render_widget(Paragraph::new(text), about);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_keeps_paragraphs_and_list_items() {
        let p = paragraphs("  one\n  two\n\n\n- a\n- b\nc\n\n");
        assert_eq!(p, vec!["one two", "", "• a", "• b c"]);
    }

    #[test]
    fn sizes_read_in_mib_then_gib_then_tib_as_on_the_rest_of_the_screen() {
        assert_eq!(shown(645.3, "MiB"), "645 MiB");
        assert_eq!(shown(9999.4, "MiB"), "9999 MiB");
        assert_eq!(shown(11469.0, "MiB"), "11.2 GiB");
        assert_eq!(shown(16.0 * 1024.0 * 1024.0, "MiB"), "16 TiB");
        assert_eq!(shown(f64::NAN, "MiB"), "nothing to measure");
        assert_eq!(shown(90.37, "MiB/s"), "90.4 MiB/s", "a rate is no size");
        assert_eq!(shown(17.46, "%"), "17.5%");
    }

    #[test]
    fn a_long_shell_command_wraps_between_words_under_itself_and_says_it_goes_on() {
        let t = Theme::new(crate::app::ThemeKind::Mono);
        let command = "for i in 1 2 3 4; do dd if=/dev/zero of=DIR/f$i bs=1M count=2000 & done; wait";
        let text = |l: &Line| l.spans.iter().map(|s| s.content.as_ref()).collect::<String>();
        let rows: Vec<String> = command_lines(command, &t, 46).iter().map(text).collect();
        assert_eq!(rows, ["$ for i in 1 2 3 4; do dd if=/dev/zero \\", "  of=DIR/f$i bs=1M count=2000 & done; wait"]);
        assert_eq!(command_lines(command, &t, 82).iter().map(text).collect::<Vec<_>>(), [format!("$ {command}")]);
        for width in 20..90 {
            let rows: Vec<String> = command_lines(command, &t, width).iter().map(text).collect();
            let (last, first) = (rows.len() - 1, &rows[0]);
            assert!(first.starts_with("$ for"), "{width}: {rows:?}");
            for (i, row) in rows.iter().enumerate() {
                assert!(row.chars().count() <= usize::from(width), "{width}: {rows:?}");
                assert!(i == 0 || row.starts_with("  ") && !row.starts_with("   "), "{width}: {rows:?}");
                assert_eq!(row.ends_with(" \\"), i < last, "{width}: {rows:?}");
            }
            // Read as a shell reads it, the same command.
            let joined = rows.join("\n").replace(" \\\n ", "").replace("$ ", "");
            assert_eq!(joined.split_whitespace().collect::<Vec<_>>(), command.split_whitespace().collect::<Vec<_>>());
        }
    }

    #[test]
    fn a_word_longer_than_a_row_is_broken_where_a_shell_joins_it_back() {
        let t = Theme::new(crate::app::ThemeKind::Mono);
        let command = "dd if=/dev/zero of=/srv/scratch/benchmarks/throttling_writeback_experiment_2026_file bs=1M";
        let text = |l: &Line| l.spans.iter().map(|s| s.content.as_ref()).collect::<String>();
        // It was cut after `of=/` with ` \` and went on indented: a shell
        // read `of=/ srv/scratch/…`, two words.
        let rows: Vec<String> = command_lines(command, &t, 44).iter().map(text).collect();
        assert_eq!(
            rows,
            [
                "$ dd if=/dev/zero \\",
                "  of=/srv/scratch/benchmarks/throttling_\\",
                "writeback_experiment_2026_file bs=1M",
            ]
        );
        for width in 12..100 {
            let rows: Vec<String> = command_lines(command, &t, width).iter().map(text).collect();
            assert!(rows.iter().all(|r| r.chars().count() <= usize::from(width)), "{width}: {rows:?}");
            // Read as a shell reads it: a `\` at a row's end joins it to
            // the next; the same words.
            let joined = rows.join("\n").replace("\\\n", "");
            let words: Vec<&str> = joined.strip_prefix("$ ").expect("the prompt").split_whitespace().collect();
            assert_eq!(words, command.split_whitespace().collect::<Vec<_>>(), "{width}: {rows:?}");
        }
    }

    #[test]
    fn shell_commands_keep_a_line_each() {
        let p = paragraphs("  As root:\n  $ cd /sys/kernel/tracing\n  $ cat trace > t.txt\n  then open it.");
        assert_eq!(p, vec!["As root:", "$ cd /sys/kernel/tracing", "$ cat trace > t.txt", "then open it."]);
    }

    #[test]
    fn an_answer_s_error_is_shown_apart_from_the_tolerance_when_wrong() {
        assert_eq!(percents(0.05, 0.1, true), ("5".into(), "10".into()));
        // 645 for 645.3 with a tolerance of 0.1%: right, and said so.
        assert_eq!(percents(0.00046, 0.001, true), ("0.0".into(), "0.1".into()));
        assert_eq!(percents(0.0014, 0.001, false), ("0.14".into(), "0.10".into()));
        assert_eq!(percents(0.1049, 0.1, false), ("10.5".into(), "10.0".into()));
    }
}
