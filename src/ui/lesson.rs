//! Lesson mode: the step's text and checks in a pane beside the charts,
//! stepping forward and back, hints, questions answered with a number,
//! and the lesson list.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use super::app::App;
use super::keys::{LessonMsg, Msg};
use super::theme::ThemeKind;
use crate::error::{Error, Result};
use crate::lesson::progress::Progress;
use crate::lesson::runner::{Answer, LessonRun, Verdict};
use crate::lesson::{Lesson, SideSpec, Step};

/// A lesson being followed in the dashboard.
pub struct LessonMode {
    /// The lesson and its open step.
    pub run: LessonRun,
    /// The hint is shown.
    pub hint: bool,
    /// Lines the step's text is scrolled by.
    pub scroll: u16,
    /// The answer being typed, while typing.
    pub input: Option<String>,
    /// The question `a` answers next (index into the step's questions).
    pub question: usize,
    /// The answers given to the open step's questions.
    pub answers: Vec<Option<Judged>>,
    /// The checks' verdicts at the end of the step's `run_s`, where
    /// `dirtyviz check` judges them; until then they are live.
    pub frozen: Option<Vec<Verdict>>,
}

/// An answer and how it compared with the simulation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Judged {
    /// What the student typed.
    pub given: f64,
    /// The simulation's value and the verdict; `None`: nothing to measure yet.
    pub answer: Option<Answer>,
}

/// The lesson list.
pub struct Picker {
    /// The shipped lessons, in teaching order.
    pub lessons: Vec<Lesson>,
    /// The highlighted one.
    pub selected: usize,
}

impl LessonMode {
    fn new(run: LessonRun) -> LessonMode {
        let questions = run.lesson.steps[run.step].questions.len();
        LessonMode {
            run,
            hint: false,
            scroll: 0,
            input: None,
            question: 0,
            answers: vec![None; questions],
            frozen: None,
        }
    }

    /// Where each check of the open step stands.
    pub fn verdicts(&self, session: &crate::session::Session) -> Vec<Verdict> {
        match &self.frozen {
            Some(v) => v.clone(),
            None => self.step().checks.iter().map(|c| self.run.verdict(session, c)).collect(),
        }
    }

    /// The open step.
    pub fn step(&self) -> &Step {
        &self.run.lesson.steps[self.run.step]
    }
}

impl App {
    /// An app following `lesson`, opened at step `step` (0-based).
    pub fn for_lesson(lesson: Lesson, step: usize, theme: ThemeKind) -> Result<App> {
        App::for_lesson_traced(lesson, step, theme, false)
    }

    /// [`App::for_lesson`], keeping side A's trace events when `trace` is set.
    pub fn for_lesson_traced(lesson: Lesson, step: usize, theme: ThemeKind, trace: bool) -> Result<App> {
        let (run, session, view) = LessonRun::seek_traced(lesson, step, trace)?;
        let mut app = App::with_session(session, theme);
        app.install(run, view);
        app.progress = Progress::load();
        Ok(app)
    }

    /// An app with the lesson list open, over the lesson to resume: the
    /// first one not finished.
    pub fn lesson_picker(theme: ThemeKind, trace: bool) -> Result<App> {
        let progress = Progress::load();
        let lessons = Lesson::all_shipped()?;
        let selected = lessons.iter().position(|l| !progress.lessons.get(&l.id).is_some_and(|p| p.done)).unwrap_or(0);
        let lesson = lessons.get(selected).cloned().ok_or_else(|| Error::invalid("no lessons are shipped"))?;
        let step = progress.resume_step(&lesson);
        let mut app = App::for_lesson_traced(lesson, step, theme, trace)?;
        app.paused = true;
        app.picker = Some(Picker { lessons, selected });
        Ok(app)
    }

    fn install(&mut self, run: LessonRun, view: crate::lesson::runner::ViewRequest) {
        self.bdi = run.bdi.min(self.session.world().bdis().len() - 1);
        self.zoom = view.zoom.filter(|&z| z > 0);
        self.paused = view.pause;
        self.lesson = Some(LessonMode::new(run));
    }

    fn open_lesson(&mut self, lesson: Lesson, step: usize) {
        match LessonRun::seek_traced(lesson, step, self.session.config.trace) {
            Ok((run, session, view)) => {
                self.stash_trace();
                self.session = session;
                self.install(run, view);
                self.note_progress();
                self.note.clear();
            }
            Err(e) => self.note = e.to_string(),
        }
    }

    /// Opens step `i` of the lesson: forward on the running world, backward
    /// by replaying the lesson up to it.
    fn open_step(&mut self, i: usize) {
        let Some(mode) = self.lesson.as_mut() else { return };
        let current = mode.run.step;
        if i == current {
            return;
        }
        if i > current {
            match mode.run.open(&mut self.session, i) {
                Ok(view) => {
                    let run = mode.run.clone();
                    self.install(run, view);
                }
                Err(e) => self.note = e.to_string(),
            }
        } else {
            let lesson = mode.run.lesson.clone();
            self.open_lesson(lesson, i);
        }
        self.note_progress();
    }

    /// Records the open step in the progress, and saves it when
    /// `save_progress` is set.
    pub fn note_progress(&mut self) {
        let Some(mode) = &self.lesson else { return };
        let id = mode.run.lesson.id.clone();
        self.progress.reached(&id, mode.run.step, mode.run.lesson.steps.len());
        if self.save_progress {
            match self.progress.save_lesson(&id) {
                Ok(None) => {}
                Ok(Some(warning)) => self.note = warning,
                Err(e) => self.note = e,
            }
        }
    }

    /// Handles a key while the lesson list is open.
    pub(super) fn update_picker(&mut self, msg: Msg) {
        let Some(picker) = self.picker.as_mut() else { return };
        match msg {
            Msg::Lesson(LessonMsg::Pick(up)) => {
                let n = picker.lessons.len();
                picker.selected = if up { (picker.selected + n - 1) % n } else { (picker.selected + 1) % n };
            }
            Msg::Lesson(LessonMsg::PickOpen) => {
                let lesson = picker.lessons[picker.selected].clone();
                self.picker = None;
                let step = self.progress.resume_step(&lesson);
                self.open_lesson(lesson, step);
            }
            Msg::Back => self.picker = None,
            Msg::Quit => self.quit = true,
            Msg::Help => self.help = !self.help,
            _ => {}
        }
    }

    /// Handles a lesson key.
    pub(super) fn update_lesson(&mut self, msg: LessonMsg) {
        if msg == LessonMsg::Lessons {
            match Lesson::all_shipped() {
                Ok(lessons) => {
                    let id = self.lesson.as_ref().map(|m| m.run.lesson.id.clone());
                    let selected = lessons.iter().position(|l| Some(&l.id) == id.as_ref()).unwrap_or(0);
                    self.picker = Some(Picker { lessons, selected });
                }
                Err(e) => self.note = e.to_string(),
            }
            return;
        }
        let Some(mode) = self.lesson.as_mut() else {
            self.note = "no lesson open: L lists them".into();
            return;
        };
        let steps = mode.run.lesson.steps.len();
        match msg {
            LessonMsg::NextStep if mode.run.step + 1 < steps => {
                let i = mode.run.step + 1;
                self.open_step(i);
            }
            LessonMsg::NextStep => self.note = "this is the last step: L opens the lesson list".into(),
            LessonMsg::PrevStep if mode.run.step > 0 => {
                let i = mode.run.step - 1;
                self.open_step(i);
            }
            LessonMsg::PrevStep => self.note = "this is the first step".into(),
            LessonMsg::Hint => {
                mode.hint = !mode.hint;
                if mode.step().hint.is_none() {
                    self.note = "this step has no hint".into();
                }
            }
            LessonMsg::Scroll(up) => {
                mode.scroll = if up { mode.scroll.saturating_sub(3) } else { (mode.scroll + 3).min(200) }
            }
            LessonMsg::Answer => {
                if mode.step().questions.is_empty() {
                    self.note = "this step asks no questions".into();
                } else {
                    mode.input = Some(String::new());
                }
            }
            LessonMsg::Input(c) => {
                if let Some(text) = mode.input.as_mut()
                    && text.len() < 16
                {
                    text.push(c);
                }
            }
            LessonMsg::InputBack => {
                if let Some(text) = mode.input.as_mut() {
                    text.pop();
                }
            }
            LessonMsg::InputCancel => mode.input = None,
            LessonMsg::InputDone => {
                let text = mode.input.take().unwrap_or_default();
                match text.parse::<f64>() {
                    Ok(given) if given.is_finite() => {
                        let q = mode.question.min(mode.step().questions.len() - 1);
                        let question = mode.step().questions[q].clone();
                        let answer = mode.run.answer(&self.session, &question, given);
                        mode.answers[q] = Some(Judged { given, answer });
                        mode.question = (q + 1) % mode.answers.len();
                    }
                    _ => {
                        self.note = format!("`{text}` is not a number");
                        mode.input = Some(text);
                    }
                }
            }
            // Only the lesson list sends these.
            LessonMsg::Lessons | LessonMsg::Pick(_) | LessonMsg::PickOpen => {}
        }
    }

    /// Restarts the step's clock when its worlds were rebuilt (restart,
    /// compare) so that its checks measure the new run.
    pub(super) fn sync_lesson_clock(&mut self) {
        if let Some(mode) = self.lesson.as_mut()
            && mode.run.rebuilt(&self.session)
        {
            mode.run.restart_clock(&self.session);
            mode.frozen = None;
        }
    }

    /// The time up to which the session may run before the open step's
    /// checks must be judged, if they have not been yet.
    pub(super) fn lesson_step_end(&self) -> Option<u64> {
        self.lesson.as_ref().filter(|m| m.frozen.is_none()).map(|m| m.run.step_end_ns())
    }

    /// Judges the open step's checks now, once and for all.
    pub(super) fn freeze_checks(&mut self) {
        if let Some(mode) = self.lesson.as_mut() {
            let verdicts = mode.step().checks.iter().map(|c| mode.run.verdict(&self.session, c)).collect();
            mode.frozen = Some(verdicts);
        }
    }

    /// Runs the lesson's worlds towards `t`, stopping at the end of the open
    /// step to judge its checks. Returns false when time stops there (the
    /// step waits for the student), true when the session may go on to `t`.
    /// A step that auto-advances opens the next one exactly at its end, so
    /// a replay opens it at the same simulated time.
    pub(super) fn lesson_advance(&mut self, t: u64) -> bool {
        while let Some(end) = self.lesson_step_end()
            && end <= t
        {
            self.session.advance_to(end);
            self.freeze_checks();
            self.dirty = true;
            let Some(mode) = &self.lesson else { return true };
            let last = mode.run.step + 1 >= mode.run.lesson.steps.len();
            if !mode.step().auto_advance {
                self.paused = true;
                self.note = "step done: n opens the next step, space runs on".into();
                return false;
            }
            if !last {
                let i = mode.run.step + 1;
                let builds = self.session.builds;
                self.open_step(i);
                if self.session.builds != builds {
                    // The step restarted the worlds at time 0: `t` belongs
                    // to the old run.
                    return false;
                }
            }
        }
        true
    }
}

/// A step's text as lines: paragraphs are separated by blank lines, the
/// line breaks inside a paragraph are spaces, and a line starting with
/// `- ` starts a list item.
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

fn unit_of(metric: crate::lesson::metric::Metric, side: SideSpec) -> &'static str {
    match side {
        SideSpec::AOverB | SideSpec::BOverA => "×",
        _ => metric.unit(),
    }
}

fn value_text(v: f64, unit: &str) -> String {
    let v = crate::lesson::check::show(v);
    match unit {
        "" => v,
        "×" | "%" => format!("{v}{unit}"),
        _ => format!("{v} {unit}"),
    }
}

/// Draws the lesson pane: the step's title and text, the hint, the checks
/// and the questions.
pub fn draw_pane(app: &App, frame: &mut Frame, area: Rect) {
    let Some(mode) = &app.lesson else { return };
    let t = &app.theme;
    let run = &mode.run;
    let step = mode.step();
    let steps = run.lesson.steps.len();
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(t.accent)
        .title(Span::styled(format!(" lesson {} · {} ", run.lesson.id, run.lesson.title), t.title))
        .title_top(Line::styled(format!(" step {}/{steps} ", run.step + 1), t.accent).right_aligned());
    let inner = block.inner(area);
    frame.render_widget(block, area);

    // The bottom part: checks, questions, what to do next.
    let mut bottom: Vec<Line> = Vec::new();
    let elapsed = run.elapsed_s(&app.session);
    let mut all_pass = !step.checks.is_empty();
    if !step.checks.is_empty() {
        let heading = if mode.frozen.is_some() {
            format!("checks, as judged at the end of the step's {:.0} s", step.run_s)
        } else {
            "checks (live)".to_string()
        };
        bottom.push(Line::styled(heading, t.dim));
    }
    for (c, verdict) in step.checks.iter().zip(mode.verdicts(&app.session)) {
        let unit = unit_of(c.metric, c.side);
        let (mark, style, tail) = match verdict {
            Verdict::Pass(v) => ("✓", t.good, format!("{} ({})", value_text(v, unit), c.bounds())),
            Verdict::Fail(v) => {
                all_pass = false;
                ("✗", t.warn, format!("{} ({})", value_text(v, unit), c.bounds()))
            }
            Verdict::Pending => {
                all_pass = false;
                let need = c.window_s.min(step.run_s);
                ("…", t.dim, format!("{elapsed:.0} of {need:.0} s"))
            }
        };
        bottom.push(Line::from(vec![
            Span::styled(format!("{mark} "), style.add_modifier(Modifier::BOLD)),
            Span::styled(c.label.clone(), t.text),
            Span::styled(format!("  {tail}"), style),
        ]));
    }
    if !step.questions.is_empty() {
        bottom.push(Line::styled("questions (a answers)", t.dim));
    }
    for (i, q) in step.questions.iter().enumerate() {
        let unit = unit_of(q.metric, q.side);
        let ask = if unit.is_empty() { q.ask.clone() } else { format!("{} [{unit}]", q.ask) };
        bottom.push(Line::from(vec![Span::styled(format!("{}. ", i + 1), t.accent), Span::styled(ask, t.text)]));
        let typing = mode.input.as_ref().filter(|_| mode.question.min(step.questions.len() - 1) == i);
        if let Some(text) = typing {
            bottom.push(Line::from(vec![
                Span::styled("   your answer: ", t.dim),
                Span::styled(format!("{text}▏"), t.accent),
                Span::styled("  Enter checks, Esc cancels", t.dim),
            ]));
        } else if let Some(j) = &mode.answers[i] {
            let line = match j.answer {
                Some(a) => {
                    let (mark, style) = if a.right { ("✓", t.good) } else { ("✗", t.warn) };
                    Line::from(vec![
                        Span::styled(format!("   {mark} "), style.add_modifier(Modifier::BOLD)),
                        Span::styled(
                            format!(
                                "you said {}, the simulation says {}: {:.0}% off (within {:.0}% counts)",
                                crate::lesson::check::show(j.given),
                                value_text(a.actual, unit),
                                a.error * 100.0,
                                q.tolerance * 100.0
                            ),
                            t.text,
                        ),
                    ])
                }
                None => Line::styled("   nothing to measure yet: let it run and answer again", t.dim),
            };
            bottom.push(line);
        }
    }
    let last = run.step + 1 >= steps;
    let next = if all_pass && last {
        Line::styled("✓ lesson complete: L opens the lesson list", t.good)
    } else if all_pass {
        Line::styled("✓ every check holds: n opens the next step", t.good)
    } else if step.auto_advance && !last {
        Line::styled(format!("the next step opens by itself after {:.0} s", step.run_s), t.dim)
    } else {
        Line::styled(if last { "N back · h hint · L lessons" } else { "n next · N back · h hint · L lessons" }, t.dim)
    };
    bottom.push(next);
    // The text keeps at least half the pane (two thirds in a small one);
    // the checks come first below it.
    let room = if inner.height < 12 { (inner.height / 3).max(2) } else { (inner.height / 2).max(4) };
    let bottom_rows = wrapped_rows(&bottom, inner.width).min(room);

    // The top part: the step's heading, text and hint, scrollable.
    let roomy = inner.height >= 16;
    let mut top: Vec<Line> = vec![Line::styled(step.title.clone(), t.title.add_modifier(Modifier::BOLD))];
    if roomy {
        top.push(Line::raw(""));
    }
    if run.step == 0 {
        top.push(Line::styled(run.lesson.patch.clone(), t.dim));
        if roomy {
            top.push(Line::raw(""));
        }
    }
    for p in paragraphs(&step.text) {
        top.push(Line::styled(p, t.text));
    }
    if mode.hint {
        top.push(Line::raw(""));
        let hint = step.hint.clone().unwrap_or_else(|| "this step has no hint".into());
        top.push(Line::from(vec![Span::styled("hint: ", t.accent), Span::styled(hint, t.text)]));
    }
    let gap = u16::from(roomy);
    let [text_area, _, checks_area] =
        Layout::vertical([Constraint::Min(0), Constraint::Length(gap), Constraint::Length(bottom_rows)]).areas(inner);
    let rows = wrapped_rows(&top, text_area.width);
    let (text_area, more) = if rows > text_area.height && text_area.height > 1 {
        let [text, more] = Layout::vertical([Constraint::Min(0), Constraint::Length(1)]).areas(text_area);
        (text, Some(more))
    } else {
        (text_area, None)
    };
    let max_scroll = rows.saturating_sub(text_area.height);
    let scroll = mode.scroll.min(max_scroll);
    frame.render_widget(Paragraph::new(top).wrap(Wrap { trim: true }).scroll((scroll, 0)), text_area);
    if let Some(more) = more {
        let text = match (scroll > 0, scroll < max_scroll) {
            (false, _) => "▼ more: PgDn",
            (true, true) => "▲ PgUp · ▼ PgDn",
            (true, false) => "▲ PgUp",
        };
        frame.render_widget(Paragraph::new(Line::styled(text, t.accent).right_aligned()), more);
    }
    frame.render_widget(Paragraph::new(bottom).wrap(Wrap { trim: false }), checks_area);
}

/// Draws the lesson list over the screen.
pub fn draw_picker(app: &App, frame: &mut Frame, area: Rect) {
    let Some(picker) = &app.picker else { return };
    let t = &app.theme;
    let width = 96.min(area.width);
    let height = (picker.lessons.len() as u16 + 10).min(area.height);
    let r = Rect { x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2, width, height };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(t.accent)
        .title(Span::styled(" lessons ", t.title))
        .title_bottom(Line::styled(" ↑ ↓ choose · Enter open · Esc close · q quit ", t.dim));
    let inner = block.inner(r);
    frame.render_widget(Clear, r);
    frame.render_widget(block, r);
    let list_rows = (picker.lessons.len() as u16).min(inner.height.saturating_sub(3));
    let [list, _, about] =
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
            let state = match app.progress.lessons.get(&l.id) {
                Some(p) if p.done => "✓ done".to_string(),
                Some(p) => format!("step {}/{}", p.step + 1, l.steps.len()),
                None => String::new(),
            };
            let mark = if i == picker.selected { "▶" } else { " " };
            let style = if i == picker.selected { t.accent.add_modifier(Modifier::BOLD) } else { t.text };
            let title_width = (inner.width as usize).saturating_sub(18).max(8);
            let title: String = l.title.chars().take(title_width).collect();
            Line::from(vec![
                Span::styled(format!("{mark} {}  {title:<title_width$}", l.id), style),
                Span::styled(format!(" {state}"), t.dim),
            ])
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), list);
    let l = &picker.lessons[picker.selected];
    let text = vec![Line::styled(l.patch.clone(), t.dim), Line::styled(l.summary.clone(), t.text)];
    frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), about);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::NS_PER_SEC;

    fn lesson(text: &str) -> Lesson {
        Lesson::from_ron(text, "test.ron").expect("valid lesson")
    }

    const TWO_STEPS: &str = r#"Lesson(id: "t", title: "Two steps", patch: "p", summary: "s", scenario: Preset("default"),
        steps: [
            Step(title: "one", text: "first\n\nsecond line", run_s: 2, hint: "look at chart 1",
                 checks: [Check(label: "one dd", metric: Tasks, window_s: 1, min: 1, max: 1)],
                 questions: [Question(ask: "How many dd?", metric: Tasks)]),
            Step(title: "two", text: "more", actions: [AddDd(bdi: "sda", n: 2), Zoom(4)], run_s: 2,
                 checks: [Check(label: "three dd", metric: Tasks, window_s: 1, min: 3, max: 3)]),
        ])"#;

    #[test]
    fn stepping_forward_applies_actions_and_back_replays() {
        let mut app = App::for_lesson(lesson(TWO_STEPS), 0, ThemeKind::Dark).expect("opens");
        app.advance_to(2 * NS_PER_SEC);
        app.update(Msg::Lesson(LessonMsg::NextStep));
        let mode = app.lesson.as_ref().expect("lesson");
        assert_eq!(mode.run.step, 1);
        assert_eq!(app.zoom, Some(4));
        app.advance_to(3 * NS_PER_SEC);
        assert_eq!(app.world().tasks().iter().filter(|t| t.alive()).count(), 3);
        app.update(Msg::Lesson(LessonMsg::NextStep));
        assert_eq!(app.lesson.as_ref().expect("lesson").run.step, 1, "no step after the last");
        app.update(Msg::Lesson(LessonMsg::PrevStep));
        assert_eq!(app.lesson.as_ref().expect("lesson").run.step, 0);
        assert_eq!(app.session.sim_ns, 0, "back replays from the start");
        assert_eq!(app.world().tasks().iter().filter(|t| t.alive() || t.stats.started_ns.is_none()).count(), 1);
    }

    #[test]
    fn answers_are_judged_against_the_simulation() {
        let mut app = App::for_lesson(lesson(TWO_STEPS), 0, ThemeKind::Dark).expect("opens");
        app.advance_to(NS_PER_SEC);
        app.update(Msg::Lesson(LessonMsg::Answer));
        assert_eq!(app.mode(), super::super::keys::Mode::Typing);
        app.update(Msg::Lesson(LessonMsg::Input('1')));
        app.update(Msg::Lesson(LessonMsg::InputDone));
        let j = app.lesson.as_ref().expect("lesson").answers[0].expect("answered");
        let a = j.answer.expect("measurable");
        assert_eq!((j.given, a.actual, a.right), (1.0, 1.0, true));
        app.update(Msg::Lesson(LessonMsg::Answer));
        app.update(Msg::Lesson(LessonMsg::Input('3')));
        app.update(Msg::Lesson(LessonMsg::InputDone));
        let a = app.lesson.as_ref().expect("lesson").answers[0].expect("answered").answer.expect("measurable");
        assert!(!a.right && (a.error - 2.0).abs() < 1e-9, "{a:?}");
    }

    #[test]
    fn checks_are_judged_at_the_end_of_the_step() {
        let mut app = App::for_lesson(lesson(TWO_STEPS), 0, ThemeKind::Dark).expect("opens");
        app.advance_to(NS_PER_SEC);
        assert!(app.lesson.as_ref().expect("lesson").frozen.is_none(), "live before run_s");
        app.advance_to(10 * NS_PER_SEC);
        let frozen = app.lesson.as_ref().expect("lesson").frozen.clone().expect("judged at 2 s");
        assert_eq!(frozen, vec![Verdict::Pass(1.0)]);
        app.update(Msg::AddDd);
        app.advance_to(12 * NS_PER_SEC);
        let mode = app.lesson.as_ref().expect("lesson");
        assert_eq!(mode.verdicts(&app.session), frozen, "a later change does not undo the verdict");
        app.update(Msg::Reset);
        assert!(app.lesson.as_ref().expect("lesson").frozen.is_none(), "a restart judges again");
    }

    #[test]
    fn a_restart_restarts_the_step_clock() {
        let mut app = App::for_lesson(lesson(TWO_STEPS), 1, ThemeKind::Dark).expect("opens");
        let start = app.lesson.as_ref().expect("lesson").run.step_start_ns;
        assert_eq!(start, 2 * NS_PER_SEC, "opened at step 2 after running step 1");
        app.advance_to(3 * NS_PER_SEC);
        app.update(Msg::Reset);
        assert_eq!(app.lesson.as_ref().expect("lesson").run.step_start_ns, 0);
    }

    #[test]
    fn text_keeps_paragraphs_and_list_items() {
        let p = paragraphs("  one\n  two\n\n\n- a\n- b\nc\n\n");
        assert_eq!(p, vec!["one two", "", "• a", "• b c"]);
    }
}
