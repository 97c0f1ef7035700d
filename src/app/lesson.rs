//! Lesson mode's model: the open step, its hint and scroll, questions
//! answered with a number, the checks' verdicts (live, then judged at the
//! end of the step), and the lesson list. The readings the pane shows are
//! measured here when samples arrive, never while drawing.

use super::{App, LessonMsg, Msg};
use crate::lesson::progress::Given;
use crate::lesson::runner::{Answer, LessonRun, Verdict, ViewRequest};
use crate::lesson::{Lesson, Step};
use crate::session::Session;

/// What a step measured at the end of its `run_s`, where `dirtyviz
/// check` judges its checks and answers are judged.
#[derive(Clone, Debug)]
struct StepEnd {
    /// The checks' verdicts.
    verdicts: Vec<Verdict>,
    /// What each question measured (`dirtyviz check -v` measures them so).
    readings: Vec<Option<f64>>,
    /// Which of them time something that had not happened.
    counting: Vec<bool>,
    /// Which checks time something that had not happened.
    checks_counting: Vec<bool>,
}

/// A lesson being followed in the dashboard.
pub struct LessonMode {
    /// The lesson and its open step.
    run: LessonRun,
    /// The hint is shown.
    hint: bool,
    /// The hint was just asked for: the text scrolls to it once drawn.
    to_hint: bool,
    /// The pane is folded to one line, leaving the screen to the charts.
    folded: bool,
    /// The pane takes the whole body, the charts hidden (`V`).
    full: bool,
    /// Lines the step's text is scrolled by.
    scroll: u16,
    /// The most lines the step's text can be scrolled by in the terminal
    /// as last drawn (`u16::MAX` until it is drawn).
    scroll_room: u16,
    /// Lines PgUp and PgDn scroll the step's text by: the lines it shows
    /// in the terminal as last drawn, less one (3 until it is drawn).
    scroll_page: u16,
    /// The answer being typed, while typing.
    pub(super) input: Option<String>,
    /// Why the answer being typed was refused (a letter, no number), shown
    /// beside it until the next key.
    refused: Option<String>,
    /// The question `a` answers next (index into the step's questions).
    question: usize,
    /// The answers given to the open step's questions.
    answers: Vec<Option<Judged>>,
    /// The step judged at the end of its `run_s`; until then its
    /// checks and readings are live.
    end: Option<StepEnd>,
    /// The checks' verdicts as of the last sample.
    live: Vec<Verdict>,
    /// What each question measures as of the last sample.
    readings: Vec<Option<f64>>,
    /// Which questions time something that has not happened yet: their
    /// reading is the time so far.
    counting: Vec<bool>,
    /// Which checks time something that has not happened yet.
    checks_counting: Vec<bool>,
    /// Why a question has nothing to measure, where a side's kernel does
    /// not compute its quantity (a setpoint on Linux 3.1).
    lacking: Vec<Option<String>>,
    /// Simulated time the step has run, as of the last sample \[s\].
    elapsed_s: f64,
    /// The step to open once the open one has run to its end: `n` before
    /// its time was up. The rest of the step runs frame by frame, as fast
    /// as a frame's budget allows, so that keys are answered meanwhile.
    /// With the time `n` was pressed \[ns\].
    catch_up: Option<(usize, u64)>,
    /// Going back to a step, restarting it or opening a lesson part-way:
    /// the worlds restarted where the lesson starts and the steps before
    /// the one to open run frame by frame, as the rest of a step does
    /// after `n`; the step opens when the replay reaches its start.
    replay: Option<Replay>,
    /// A key changed the step's worlds (a dd, a ratio, memory, the
    /// patch level, the comparison) from what it opened on, or an
    /// earlier step's keys did: its checks and questions then judge a
    /// setup the step did not write.
    pub(super) changed_by_hand: bool,
    /// Those keys came once the step's checks were judged.
    pub(super) changed_after_end: bool,
    /// The setup the step opened on.
    pub(super) opened: Option<super::Setup>,
    /// It opened on worlds an earlier step's keys changed (and did not
    /// start fresh ones).
    pub(super) carried: bool,
}

/// A replay of the lesson up to a step, under way.
struct Replay {
    /// The step to open at the end (index).
    target: usize,
    /// What the steps replayed so far ask of the view, as
    /// [`LessonRun::seek`] gathers it.
    view: ViewRequest,
    /// The status line's note once the step opens.
    done: String,
    /// The chart the student chose, kept where the step opened does not
    /// zoom one itself (`n` after running on).
    kept_zoom: Option<Option<u8>>,
}

/// An answer and how it compared with the simulation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Judged {
    /// What the student typed.
    pub given: f64,
    /// The simulation's value at the step's end and the verdict; `None`:
    /// the step has not run to its end, or measured nothing.
    pub answer: Option<Answer>,
    /// Given after an earlier answer to the question was judged wrong,
    /// the simulation's value shown beside it (or, restored from the
    /// progress, judged wrong itself in an earlier session): right, it is
    /// not counted.
    pub after_shown: bool,
}

impl Judged {
    /// Right, and not after the value was shown.
    pub fn counts_right(&self) -> bool {
        !self.after_shown && self.answer.is_some_and(|a| a.right)
    }
}

/// The lesson list.
pub struct Picker {
    /// The shipped lessons, in teaching order.
    pub lessons: Vec<Lesson>,
    /// The highlighted one.
    pub selected: usize,
    /// The digits typed so far of a lesson's number.
    pub typed: String,
}

impl LessonMode {
    fn new(run: LessonRun) -> LessonMode {
        let step = &run.lesson.steps[run.step];
        let (checks, questions) = (step.checks.len(), step.questions.len());
        LessonMode {
            run,
            hint: false,
            to_hint: false,
            folded: false,
            full: false,
            scroll: 0,
            scroll_room: u16::MAX,
            scroll_page: 3,
            input: None,
            refused: None,
            question: 0,
            answers: vec![None; questions],
            end: None,
            live: vec![Verdict::Pending; checks],
            readings: vec![None; questions],
            counting: vec![false; questions],
            checks_counting: vec![false; checks],
            lacking: vec![None; questions],
            elapsed_s: 0.0,
            catch_up: None,
            replay: None,
            changed_by_hand: false,
            changed_after_end: false,
            opened: None,
            carried: false,
        }
    }

    /// True when a key changed the step's worlds since it opened.
    pub fn changed_by_hand(&self) -> bool {
        self.changed_by_hand
    }

    /// `msg` does something on the open step: `a` where it asks, `h`
    /// where it has a hint, `n` short of the last step.
    pub fn offers(&self, msg: LessonMsg) -> bool {
        match msg {
            LessonMsg::Answer => !self.step().questions.is_empty(),
            LessonMsg::Hint => self.step().hint.is_some(),
            LessonMsg::NextStep => !self.last_step(),
            _ => true,
        }
    }

    /// True when those keys came after the step's checks were judged.
    pub fn changed_after_end(&self) -> bool {
        self.changed_by_hand && self.changed_after_end
    }

    /// The lesson and where it is.
    pub fn run(&self) -> &LessonRun {
        &self.run
    }

    /// The open step.
    pub fn step(&self) -> &Step {
        &self.run.lesson.steps[self.run.step]
    }

    /// The step is the lesson's last.
    pub fn last_step(&self) -> bool {
        self.run.step + 1 >= self.run.lesson.steps.len()
    }

    /// The hint is shown.
    pub fn hint_shown(&self) -> bool {
        self.hint
    }

    /// The pane is folded to one line.
    pub fn folded(&self) -> bool {
        self.folded
    }

    /// The pane takes the whole body, the charts hidden.
    pub fn full(&self) -> bool {
        self.full
    }

    /// Gives the body back to the charts (Esc, a chart key); true when the
    /// pane had it.
    pub(super) fn leave_full(&mut self) -> bool {
        std::mem::replace(&mut self.full, false)
    }

    /// Lines the step's text is scrolled by.
    pub fn scroll(&self) -> u16 {
        self.scroll
    }

    /// Notes how far the step's text can scroll in the terminal as drawn,
    /// the lines a page of it scrolls by and the row its hint starts on
    /// (when shown): a hint just asked for is scrolled to.
    pub(super) fn set_scroll_room(&mut self, rows: u16, page: u16, hint_row: Option<u16>) {
        self.scroll_room = rows;
        self.scroll_page = page.max(1);
        if let Some(row) = hint_row.filter(|_| self.to_hint) {
            self.scroll = row;
            self.to_hint = false;
        }
        self.scroll = self.scroll.min(rows);
    }

    /// The answer being typed to question `i`, if one is.
    pub fn typing(&self, i: usize) -> Option<&str> {
        self.input.as_deref().filter(|_| self.question.min(self.answers.len().saturating_sub(1)) == i)
    }

    /// Why the answer being typed was refused, until the next key.
    pub fn refused(&self) -> Option<&str> {
        self.refused.as_deref().filter(|_| self.input.is_some())
    }

    /// The question being answered: the one an answer is typed to, else
    /// the one answered last; `None` before the first answer.
    pub fn answering(&self) -> Option<usize> {
        let n = self.answers.len();
        if n == 0 {
            return None;
        }
        if self.input.is_some() {
            return Some(self.question.min(n - 1));
        }
        let last = (self.question + n - 1) % n;
        self.answers[last].is_some().then_some(last)
    }

    /// The answer given to question `i`, if any.
    pub fn answer(&self, i: usize) -> Option<&Judged> {
        self.answers.get(i).and_then(Option::as_ref)
    }

    /// The checks have been judged at the end of the step.
    pub fn judged(&self) -> bool {
        self.end.is_some()
    }

    /// How the step was judged, in a few words, for a step left before
    /// its end was seen (`n` ran the rest of it): `0/2 answers right (1
    /// unanswered), 2/3 checks held` (the answers first: a narrow status
    /// line cuts the rest); `None` before it is judged, or with neither.
    fn judged_in_short(&self) -> Option<String> {
        let end = self.end.as_ref()?;
        let mut said = Vec::new();
        let given: Vec<&Judged> = self.answers.iter().flatten().collect();
        if !given.is_empty() {
            let right = given.iter().filter(|j| j.counts_right()).count();
            let mut answers = format!("{right}/{} answers right", self.answers.len());
            let unanswered = self.answers.len() - given.len();
            let unjudged = given.iter().filter(|j| j.answer.is_none()).count();
            let open: Vec<String> = [(unanswered, "unanswered"), (unjudged, "not judged")]
                .iter()
                .filter(|(n, _)| *n > 0)
                .map(|(n, what)| format!("{n} {what}"))
                .collect();
            if !open.is_empty() {
                answers = format!("{answers} ({})", open.join(", "));
            }
            said.push(answers);
        }
        if !end.verdicts.is_empty() {
            let held = end.verdicts.iter().filter(|v| matches!(v, Verdict::Pass(_))).count();
            said.push(format!("{held}/{} checks held", end.verdicts.len()));
        }
        (!said.is_empty()).then(|| said.join(", "))
    }

    /// Where each check of the open step stands.
    pub fn verdicts(&self) -> &[Verdict] {
        self.end.as_ref().map_or(&self.live, |e| &e.verdicts)
    }

    /// What question `i` measures, if there is something to measure: over
    /// its judged window as far as it has run (none before that window
    /// starts), until the step is judged; then what it measured at the step's end,
    /// which its answers are judged by (a step run on past its end showed
    /// a live value beside a verdict given by another).
    pub fn reading(&self, i: usize) -> Option<f64> {
        self.end.as_ref().map_or(&self.readings, |e| &e.readings).get(i).copied().flatten()
    }

    /// Question `i` times something that had not happened (as of the
    /// reading [`LessonMode::reading`] gives): its reading is the time so
    /// far.
    pub fn still_counting(&self, i: usize) -> bool {
        self.end.as_ref().map_or(&self.counting, |e| &e.counting).get(i).copied().unwrap_or(false)
    }

    /// Check `i` times something that had not happened (as of the verdict
    /// [`LessonMode::verdicts`] gives): its value is the time so far.
    pub fn check_counting(&self, i: usize) -> bool {
        self.end.as_ref().map_or(&self.checks_counting, |e| &e.checks_counting).get(i).copied().unwrap_or(false)
    }

    /// Why question `i` has nothing to measure, where its kernel lacks the
    /// quantity.
    pub fn lacking(&self, i: usize) -> Option<&str> {
        self.lacking.get(i).and_then(Option::as_deref)
    }

    /// Simulated time the open step has run, as of the last sample \[s\]:
    /// the most a reading's window has measured.
    pub fn elapsed_s(&self) -> f64 {
        self.elapsed_s
    }

    /// How long question `i`'s answer must wait to be judged: the
    /// simulated seconds of the step still to run, if any.
    pub fn answer_wait_s(&self, i: usize) -> Option<f64> {
        self.step().questions.get(i)?;
        let needed = self.step().run_s;
        (self.end.is_none() && self.elapsed_s + 1e-9 < needed).then_some(needed - self.elapsed_s)
    }

    /// Judges `given` as the answer to question `q`: against what it
    /// measured at the step's end; `None` until the step has run to it.
    fn judge(&self, q: usize, given: f64) -> Option<Answer> {
        let end = self.end.as_ref()?;
        let actual = end.readings.get(q).copied().flatten()?;
        let reached = !end.counting.get(q).copied().unwrap_or(false);
        Some(Answer::judge(&self.step().questions[q], actual, given, reached))
    }

    /// Takes the checks' verdicts and the questions' readings at the
    /// step's end as final and judges the answers given before it.
    fn judge_at_end(&mut self) {
        self.end = Some(StepEnd {
            verdicts: self.live.clone(),
            readings: self.readings.clone(),
            counting: self.counting.clone(),
            checks_counting: self.checks_counting.clone(),
        });
        for q in 0..self.answers.len() {
            if let Some(j) = self.answers[q].filter(|j| j.answer.is_none()) {
                let answer = self.judge(q, j.given);
                self.answers[q] = Some(Judged { answer, ..j });
            }
        }
    }

    /// Measures the checks and questions again on `session`.
    fn refresh(&mut self, session: &Session) {
        let step = &self.run.lesson.steps[self.run.step];
        if self.end.is_none() {
            self.live = step.checks.iter().map(|c| self.run.verdict(session, c)).collect();
            self.checks_counting =
                step.checks.iter().map(|c| c.metric.counts_until() && !self.run.check_happened(session, c)).collect();
        }
        self.readings = step.questions.iter().map(|q| self.run.measure_question(session, q)).collect();
        self.counting =
            step.questions.iter().map(|q| q.metric.counts_until() && !self.run.question_happened(session, q)).collect();
        self.lacking = (step.questions.iter().zip(&self.readings))
            .map(|(q, r)| r.is_none().then(|| self.run.lacks(session, q.metric, q.side)).flatten())
            .collect();
        self.elapsed_s = self.run.elapsed_s(session);
    }
}

/// The most characters an answer takes.
const MAX_INPUT: usize = 24;

/// The number an answer typed as `text` to a question shown in `unit`
/// says: a number ([`parse_number`]), a fraction of two (`1/4`), or a
/// percentage (`21%`: 21 where the unit is `%`, 0.21 for a ratio, whose
/// unit is empty or `×`; refused for any other unit); else why it says none, for
/// the status line. A `/` or `%` left out of the answer made `1/4` 14.
///
/// The question's unit may follow the number (`128 pages`, `20ms`); any
/// other letters refuse the answer whole: a field that dropped what it
/// did not take judged `2^7` as 27 and `220m` as 220.
pub(crate) fn parse_answer(text: &str, unit: &str) -> Result<f64, String> {
    let (t, scale) = without_unit(text.trim(), unit);
    let v = parse_bare(text, t, unit)? * scale;
    // `1e308T` in MiB passes as a number and overflows as a size.
    if !v.is_finite() {
        return Err(format!("`{text}` is too large"));
    }
    Ok(v)
}

/// The number `t`, `text` without its unit, says (see [`parse_answer`]).
fn parse_bare(text: &str, t: &str, unit: &str) -> Result<f64, String> {
    if t.contains(|c: char| !"0123456789.,-+eE/% ".contains(c)) {
        return Err(if unit.is_empty() || unit == "×" {
            format!("`{text}` is not a number")
        } else {
            format!("`{text}`: a number alone, or followed by its unit, {unit}")
        });
    }
    if let Some(number) = t.strip_suffix('%') {
        let v = parse_number(number).map_err(|_| format!("`{text}`: a number before the %"))?;
        return match unit {
            "%" => Ok(v),
            // A ratio, of a world's quantities or of two sides'.
            "" | "×" => Ok(v / 100.0),
            _ => Err(format!("`{text}`: this answer is in {unit}, not a percentage")),
        };
    }
    if let Some((over, under)) = t.split_once('/') {
        let both = parse_number(over).and_then(|a| parse_number(under).map(|b| (a, b)));
        return match both {
            Ok((_, 0.0)) => Err(format!("`{text}`: a fraction over 0")),
            Ok((a, b)) if (a / b).is_finite() => Ok(a / b),
            Ok(_) => Err(format!("`{text}` is too large: not a finite number")),
            Err(_) => Err(format!("`{text}`: a fraction is a number over a number, as 1/4")),
        };
    }
    parse_number(t)
}

/// `text` without the unit after its number, if it ends in `unit` (case
/// aside; `page` for `pages`, `x` for `×`; sizes and rates in their
/// other binary units, as the readings line writes large sizes; times in
/// s or µs too), and what that unit is in `unit`.
fn without_unit<'a>(text: &'a str, unit: &str) -> (&'a str, f64) {
    let words: &[(&str, f64)] = match unit {
        "%" => &[],
        // A ratio (of two sides, as the pane writes it: `1.3×`).
        "" | "×" => &[("×", 1.0), ("x", 1.0)],
        "pages" => &[("pages", 1.0), ("page", 1.0)],
        "tasks" => &[("tasks", 1.0), ("task", 1.0)],
        // K, M, G, T and KB, MB, GB, TB are binary, as on the command line.
        "MiB/s" => &[
            ("KiB/s", 1.0 / 1024.0),
            ("MiB/s", 1.0),
            ("GiB/s", 1024.0),
            ("KB/s", 1.0 / 1024.0),
            ("MB/s", 1.0),
            ("GB/s", 1024.0),
        ],
        "ms" => &[("ms", 1.0), ("us", 0.001), ("µs", 0.001), ("s", 1000.0)],
        "MiB" => &[
            ("KiB", 1.0 / 1024.0),
            ("MiB", 1.0),
            ("GiB", 1024.0),
            ("TiB", 1024.0 * 1024.0),
            ("KB", 1.0 / 1024.0),
            ("MB", 1.0),
            ("GB", 1024.0),
            ("TB", 1024.0 * 1024.0),
            ("K", 1.0 / 1024.0),
            ("M", 1.0),
            ("G", 1024.0),
            ("T", 1024.0 * 1024.0),
        ],
        _ => &[(unit, 1.0)],
    };
    for &(w, scale) in words {
        let n = text.len().saturating_sub(w.len());
        if n > 0 && text.is_char_boundary(n) && text[n..].eq_ignore_ascii_case(w) {
            return (text[..n].trim_end(), scale);
        }
    }
    (text, 1.0)
}

/// The number `text` says: a finite number, with a decimal comma read as
/// a point (`64,2` is 64.2, not 642); else why it says none.
fn parse_number(text: &str) -> Result<f64, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err("type a number first, then Enter (Esc cancels)".into());
    }
    let t = match t.matches(',').count() {
        0 => t.to_string(),
        1 if !t.contains('.') => {
            // `755,000`: 755 thousand, or 755 with a decimal comma? Three
            // digits after a comma with a whole part that is not 0 could be
            // either (lesson 06 writes "755,000 pages"): asked, not guessed.
            let (whole, rest) = t.split_once(',').expect("one comma");
            let fraction = rest.split(['e', 'E']).next().unwrap_or(rest);
            let digits = whole.trim_start_matches('-');
            if fraction.len() == 3
                && fraction.bytes().all(|b| b.is_ascii_digit())
                && !digits.is_empty()
                && digits.bytes().all(|b| b.is_ascii_digit())
                && digits.trim_start_matches('0').len() == digits.len()
            {
                return Err(format!(
                    "`{text}`: a thousands separator or a decimal comma? type {whole}{fraction} or {whole}.{fraction}"
                ));
            }
            t.replace(',', ".")
        }
        _ => return Err(format!("`{text}`: one decimal point, . or , (no thousands separator)")),
    };
    match t.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        Ok(_) => Err(format!("`{text}` is too large: not a finite number")),
        Err(_) => Err(format!("`{text}` is not a number")),
    }
}

/// The status line's note when a step is done and waits for the student.
const STEP_DONE: &str = "step done: n next step, space runs on";

/// What `V` says while the step's text has the whole body.
const FULL_TEXT: &str = "step text on the whole screen: V or Esc shows the charts";

/// What `V` or Esc says when they give the body back to the charts.
const CHARTS_SHOWN: &str = "charts shown";
/// The note when the last step is done: there is no next step.
const LESSON_DONE: &str = "lesson done: L lessons, space runs on";
/// The status line's note while the worlds run on past a step's end.
const RUNNING_ON: &str = "running on past the step's end: n opens the next step at that end, space pauses";
/// The same, where `n` opens the next step on the worlds as they are
/// (the keys changed them, or a recording of key format 4 replays).
const RUNNING_ON_NOW: &str = "running on past the step's end: n opens the next step now, space pauses";
/// The same, past the last step's end.
const RUNNING_ON_LAST: &str = "running on past the lesson's end: L lessons, space pauses";
/// The notes of a step that is done, paused or run on past its end.
const DONE_NOTES: [&str; 5] = [STEP_DONE, LESSON_DONE, RUNNING_ON, RUNNING_ON_NOW, RUNNING_ON_LAST];

impl App {
    pub(super) fn install(&mut self, run: LessonRun, view: ViewRequest) {
        self.bdi = run.bdi.min(self.session.world().bdis().len() - 1);
        // A step that says nothing about the charts keeps the view the
        // last one chose, as going back to it (replaying) does.
        if let Some(z) = view.zoom {
            self.screen.zoom = (z > 0).then_some(z);
            self.screen.zoom_by_key = false;
        }
        self.paused = view.pause;
        self.screen.task_scroll = 0;
        let mut mode = LessonMode::new(run);
        mode.refresh(&self.session);
        mode.opened = Some(self.setup());
        self.lesson = Some(mode);
    }

    /// The answers given to the step just opened, back (to be judged at
    /// its end), where it was opened before, in this session or an earlier
    /// one (the progress keeps them): not on the steps a replay passes
    /// through, which it never judges.
    pub(super) fn restore_answers(&mut self) {
        let Some(mode) = self.lesson.as_mut().filter(|_| !self.keys_before_7) else { return };
        let (id, step, questions) = (mode.run.lesson.progress_id(), mode.run.step, mode.answers.len());
        let Some(given) = self.progress.answers(id, step, questions) else { return };
        for (slot, given) in mode.answers.iter_mut().zip(given) {
            *slot = given.map(|g| Judged { given: g.value, answer: None, after_shown: g.after_shown });
        }
    }

    /// Opens step `step` of `lesson`: the worlds restart where the lesson
    /// starts and the steps before it are replayed over the next frames
    /// (`lesson_advance`; [`App::finish_catch_up`] runs them at once).
    /// `done`: the status line's note once it opens.
    fn open_lesson(&mut self, lesson: Lesson, step: usize, done: String) {
        let opts = self.session.options();
        match LessonRun::seek(lesson, 0, opts) {
            Ok((run, session, view)) => {
                self.stash_trace();
                self.session = session;
                // The lesson starts on every chart: a later step's zoom
                // (going back, restarting) is not the replayed steps'.
                self.screen.zoom = None;
                self.screen.zoom_by_key = false;
                let target = step.min(run.lesson.steps.len() - 1);
                self.install(run, view);
                self.note = done.clone();
                if target == 0 {
                    self.restore_answers();
                    self.note_progress();
                    return;
                }
                if let Some(mode) = self.lesson.as_mut() {
                    mode.replay = Some(Replay { target, view, done, kept_zoom: None });
                }
                self.paused = false;
                self.replay_note();
            }
            Err(e) => self.note = e.to_string(),
        }
    }

    /// Says how far the replay up to the step to open has got.
    fn replay_note(&mut self) {
        let Some((mode, replay)) = self.lesson.as_ref().and_then(|m| Some((m, m.replay.as_ref()?))) else { return };
        let steps = &mode.run.lesson.steps;
        let run_ns = |j: usize| (steps[j].run_s * crate::sim::NS_PER_SEC as f64) as u64;
        let before: u64 = (0..mode.run.step).map(run_ns).sum();
        let done = before + self.session.sim_ns.saturating_sub(mode.run.step_start_ns).min(run_ns(mode.run.step));
        let total: u64 = (0..replay.target).map(run_ns).sum();
        let s = |ns: u64| ns as f64 / crate::sim::NS_PER_SEC as f64;
        let note = format!(
            "replaying the lesson up to step {}: {:.1} of {:.1} s (q quits)",
            replay.target + 1,
            s(done),
            s(total)
        );
        self.passing_note.under(&mut self.note, note);
        self.dirty = true;
    }

    /// The replay reached the end of a step: opens the next, and when that
    /// is the step to open, installs it as [`LessonRun::seek`] would.
    fn replay_next_step(&mut self) {
        let Some(mode) = self.lesson.as_mut() else { return };
        let Some(mut replay) = mode.replay.take() else { return };
        let mut run = mode.run.clone();
        let j = run.step + 1;
        match run.open(&mut self.session, j) {
            Ok(v) => {
                replay.view = ViewRequest { zoom: v.zoom.or(replay.view.zoom), pause: v.pause };
                if j >= replay.target {
                    self.install(run, replay.view);
                    self.restore_answers();
                    if let (Some(zoom), None) = (replay.kept_zoom, v.zoom) {
                        (self.screen.zoom, self.screen.zoom_by_key) = (zoom, true);
                    }
                    self.note_progress();
                    self.note = replay.done;
                } else {
                    self.install(run, v);
                    self.paused = false;
                    if let Some(mode) = self.lesson.as_mut() {
                        mode.replay = Some(replay);
                    }
                    self.replay_note();
                }
            }
            Err(e) => self.note = e.to_string(),
        }
    }

    /// The step open, or being replayed up to.
    fn shown_step(&self) -> Option<usize> {
        self.lesson.as_ref().map(|m| m.replay.as_ref().map_or(m.run.step, |r| r.target))
    }

    /// Restarts the open step as going back to it would: the lesson
    /// replayed up to it, every earlier step's actions applied. (Restarting
    /// the scenario alone would drop them: ten dd become one again.)
    pub(super) fn restart_step(&mut self) {
        let (Some(mode), Some(i)) = (self.lesson.as_ref(), self.shown_step()) else { return };
        let lesson = mode.run.lesson.clone();
        // Keys' changes are undone: said so, as the dashboard's `r` does.
        let how = if mode.changed_by_hand() { " with its own setup" } else { "" };
        // Its answers go with it: the step starts again as it first did.
        self.progress.answered(lesson.progress_id(), i, Vec::new());
        self.open_lesson(lesson, i, format!("step {} restarted{how}", i + 1));
    }

    /// Opens step `i` of the lesson: forward on the running world, backward
    /// by replaying the lesson up to it. Going forward before the open
    /// step's `run_s` is over first runs the rest of it (and judges its
    /// checks), so the next step starts where going back to it, or
    /// `dirtyviz check`, starts it.
    fn open_step(&mut self, i: usize) {
        let Some(current) = self.lesson.as_ref().map(|m| m.run.step) else { return };
        if i == current {
            return;
        }
        if DONE_NOTES.contains(&self.note.as_str()) || self.note == FULL_TEXT {
            // It was about the step being left.
            self.note.clear();
        }
        if i > current
            && !self.keys_before_5
            && let Some(mode) = self.lesson.as_ref()
            && !mode.changed_by_hand
            && self.session.sim_ns > mode.run.step_end_ns()
        {
            // The worlds ran on past the step's end (space): the next step
            // opens where everyone else's does, at that end, the lesson
            // replayed up to it. (Keys that changed the worlds carry on
            // instead, as they do in a step opened on time.)
            let ran_on = (self.session.sim_ns - mode.run.step_end_ns()) as f64 / crate::sim::NS_PER_SEC as f64;
            let done = format!("step {} opened at step {}'s end ({ran_on:.1} s run on left out)", i + 1, current + 1);
            let fresh = mode.run.lesson.steps[i].actions.iter().any(|a| a.fresh_worlds().is_some());
            if fresh {
                // The step starts fresh worlds: nothing of the run on is
                // left in them, and nothing needs replaying.
                self.open_step_now(i, None);
                if self.lesson.as_ref().is_some_and(|m| m.run.step == i) {
                    self.note = done;
                }
                return;
            }
            let lesson = mode.run.lesson.clone();
            // A chart the student chose stays, as on a step opened on time.
            let zoom = self.screen.zoom_by_key.then_some(self.screen.zoom);
            self.open_lesson(lesson, i, done);
            if let Some(replay) = self.lesson.as_mut().and_then(|m| m.replay.as_mut()) {
                replay.kept_zoom = zoom;
            }
            return;
        }
        if i > current
            && let Some(end) = self.lesson_step_end()
            && end > self.session.sim_ns
        {
            // The rest of the step runs first, over the next frames
            // (`lesson_advance`); the next step opens at its end.
            let Some(mode) = self.lesson.as_mut() else { return };
            if mode.catch_up.is_none() {
                mode.catch_up = Some((i, self.session.sim_ns));
                self.paused = false;
                self.catch_up_note();
            }
            return;
        }
        self.open_step_now(i, None);
    }

    /// What a step that is done says on the status line: paused at its
    /// end, that it is done; run on past it (space), what `n` does then.
    /// None before its end, and in a replay.
    fn done_note(&self) -> Option<&'static str> {
        let mode = self.lesson.as_ref().filter(|m| m.end.is_some() && m.replay.is_none())?;
        // With the keys' own setup, `n` opens the next step on the worlds
        // as they are (see `open_step`).
        let on_setup = mode.changed_by_hand || self.keys_before_5;
        Some(match (self.paused, mode.last_step(), on_setup) {
            (true, true, _) => LESSON_DONE,
            (true, false, _) => STEP_DONE,
            (false, true, _) => RUNNING_ON_LAST,
            (false, false, true) => RUNNING_ON_NOW,
            (false, false, false) => RUNNING_ON,
        })
    }

    /// The note as `V`'s text gives the body back to the charts: a step
    /// that is done says so again (`V`'s note covered it), else the
    /// charts are back.
    pub(super) fn charts_shown_note(&self) -> &'static str {
        self.done_note().unwrap_or(CHARTS_SHOWN)
    }

    /// Space on a step that is done says the worlds run on past its end;
    /// space again pauses them with the step-done note back.
    pub(super) fn note_running_on(&mut self) {
        if let Some(note) = self.done_note().filter(|_| DONE_NOTES.contains(&self.note.as_str())) {
            self.note = note.into();
        }
    }

    /// Says how far running the rest of the open step has got.
    fn catch_up_note(&mut self) {
        let Some(mode) = self.lesson.as_ref() else { return };
        let s = |ns: u64| ns as f64 / crate::sim::NS_PER_SEC as f64;
        let (start, end) = (mode.run.step_start_ns, mode.run.step_end_ns());
        let note = format!(
            "running the rest of step {} first: {:.1} of {:.1} s (q quits, space pauses)",
            mode.run.step + 1,
            s(self.session.sim_ns.saturating_sub(start)),
            s(end - start)
        );
        self.passing_note.under(&mut self.note, note);
        self.dirty = true;
    }

    /// The step running to its end before the next opens (`n` pressed
    /// before its time was up), or the lesson being replayed up to a step
    /// (`N`, `r`, a lesson opened part-way), if one is.
    pub fn catching_up(&self) -> bool {
        self.lesson.as_ref().is_some_and(|m| m.catch_up.is_some() || m.replay.is_some())
    }

    /// Runs the rest of the open step, or the replay up to the step to
    /// open, at once, where a key asked for it (headless runs, which draw
    /// no frames in between).
    pub fn finish_catch_up(&mut self) {
        while let Some(end) = self.lesson.as_ref().filter(|_| self.catching_up()).map(|m| m.run.step_end_ns()) {
            let before = (self.session.sim_ns, self.session.world_id(), self.lesson.as_ref().map(|m| m.run.step));
            self.advance_to(end);
            let after = (self.session.sim_ns, self.session.world_id(), self.lesson.as_ref().map(|m| m.run.step));
            if after == before && self.catching_up() {
                break;
            }
        }
    }

    /// Opens step `i` now; `skipped`: the seconds of the step before it
    /// that were run first.
    fn open_step_now(&mut self, i: usize, skipped: Option<f64>) {
        let Some(current) = self.lesson.as_ref().map(|m| m.run.step) else { return };
        // The step run to its end was judged out of sight: how, in short.
        let judged = self.lesson.as_ref().and_then(LessonMode::judged_in_short);
        let Some(mode) = self.lesson.as_mut() else { return };
        if i > current {
            // Keys that changed the worlds still change them in the step
            // opened on them: it says so, as the one they were pressed in,
            // unless it starts fresh worlds.
            let fresh = mode.run.lesson.steps[i].actions.iter().any(|a| a.fresh_worlds().is_some());
            let carried = mode.changed_by_hand && !fresh;
            match mode.run.open(&mut self.session, i) {
                Ok(view) => {
                    let run = mode.run.clone();
                    self.install(run, view);
                    self.restore_answers();
                    if let Some(mode) = self.lesson.as_mut() {
                        (mode.carried, mode.changed_by_hand) = (carried, carried);
                    }
                }
                Err(e) => self.note = e.to_string(),
            }
        } else {
            let lesson = mode.run.lesson.clone();
            self.open_lesson(lesson, i, String::new());
        }
        const CARRIES_ON: &str = "your keys' setup carries on (r restores the step's own)";
        let carries = i > current && self.lesson.as_ref().is_some_and(LessonMode::changed_by_hand);
        if let Some(s) = skipped {
            // Told until the next key, as a key's note is: it read on
            // after `[ [ space` as if nothing had happened since. The
            // progress note it replaces is done.
            let mut note = match judged {
                Some(judged) => format!("step {} ran its last {s:.1} s: {judged}", current + 1),
                None => format!("ran the rest of step {} first ({s:.1} s)", current + 1),
            };
            if carries {
                note = format!("{note}; {CARRIES_ON}");
            }
            self.passing_note = Default::default();
            self.note.clear();
            self.passing_note.cover(&mut self.note, note);
        } else if carries {
            self.add_note(CARRIES_ON);
        }
        self.note_progress();
    }

    /// Records the open step in the progress, for [`App::take_progress`].
    pub(super) fn note_progress(&mut self) {
        let (Some(mode), Some(step)) = (&self.lesson, self.shown_step()) else { return };
        let id = &mode.run.lesson.progress_id().to_string();
        self.progress.reached(id, step, mode.run.lesson.steps.len());
        if !self.progress_changed.contains(id) {
            self.progress_changed.push(id.clone());
        }
    }

    /// Handles a key while the lesson list is open.
    pub(super) fn update_picker(&mut self, msg: Msg) {
        let Some(picker) = self.picker.as_mut() else { return };
        let typed = std::mem::take(&mut picker.typed);
        match msg {
            Msg::Lesson(LessonMsg::PickDigit(d)) => {
                // The digits typed so far and this one, or this one alone
                // when no lesson is numbered so (`1` `7`: lesson 07).
                let found = |number: &str| {
                    let id = format!("{number:0>2}");
                    picker.lessons.iter().position(|l| l.id == id).map(|i| (i, number.to_string()))
                };
                match found(&format!("{typed}{d}")).or_else(|| found(&d.to_string())) {
                    Some((i, number)) => {
                        picker.selected = i;
                        picker.typed = number;
                    }
                    None => {
                        let id = |l: Option<&Lesson>| l.map_or("00", |l| l.id.as_str()).to_string();
                        let (first, last) = (id(picker.lessons.first()), id(picker.lessons.last()));
                        self.note = format!("no lesson {d:0>2}: the list runs from {first} to {last}");
                    }
                }
            }
            Msg::Lesson(LessonMsg::Pick(up)) => {
                let n = picker.lessons.len();
                picker.selected = if up { (picker.selected + n - 1) % n } else { (picker.selected + 1) % n };
            }
            Msg::Lesson(LessonMsg::PickOpen) => {
                let lesson = picker.lessons[picker.selected].clone();
                self.picker = None;
                let step = self.progress.start(&lesson);
                // At 1×, as `dirtyviz lesson ID` opens it: a class that
                // opened it so keeps the teacher's pace.
                self.set_speed(super::one_x());
                self.open_lesson(lesson, step, String::new());
            }
            // Esc in the help over the list closes the help.
            Msg::Back if self.screen.help && !self.keys_before_6 => self.screen.help = false,
            Msg::Back => {
                self.picker = None;
                self.note_progress();
            }
            Msg::Quit => self.quit = true,
            Msg::Help => self.screen.help = !self.screen.help,
            Msg::ScrollHelp(rows) => self.screen.scroll_help(rows),
            Msg::PageHelp(down) => self.screen.page_help(down),
            Msg::Suspend => self.requests.push(super::Request::Suspend),
            _ => {}
        }
    }

    /// Handles a lesson key.
    pub(super) fn update_lesson(&mut self, msg: LessonMsg) {
        if msg == LessonMsg::Lessons {
            match Lesson::all_shipped() {
                Ok(lessons) => {
                    let lessons: Vec<Lesson> = lessons.into_iter().map(|l| l.with_seed(self.lesson_seed)).collect();
                    let id = self.lesson.as_ref().map(|m| m.run.lesson.id.clone());
                    let selected = lessons.iter().position(|l| Some(&l.id) == id.as_ref()).unwrap_or(0);
                    self.picker = Some(Picker { lessons, selected, typed: String::new() });
                }
                Err(e) => self.note = e.to_string(),
            }
            return;
        }
        let Some(mode) = self.lesson.as_mut() else {
            match msg {
                // No step text to scroll: PgUp and PgDn page the task table.
                LessonMsg::Scroll(up) => self.update_view(Msg::PageTasks(!up)),
                _ => self.note = "no lesson open: L lists them".into(),
            }
            return;
        };
        let steps = mode.run.lesson.steps.len();
        mode.refused = None;
        if let Some(target) = mode.replay.as_ref().map(|r| r.target) {
            // Replaying up to a step: `n` and `N` are about that step.
            match msg {
                LessonMsg::NextStep if target + 1 < steps => {
                    // The replay runs on to the next step's start, which
                    // opening it from the target's end reaches too.
                    if let Some(r) = mode.replay.as_mut() {
                        r.target += 1;
                        r.done.clear();
                    }
                    self.replay_note();
                    return;
                }
                LessonMsg::PrevStep if target > 0 => {
                    let lesson = mode.run.lesson.clone();
                    self.open_lesson(lesson, target - 1, String::new());
                    return;
                }
                LessonMsg::NextStep | LessonMsg::PrevStep => {
                    self.replay_note();
                    return;
                }
                _ => {}
            }
        }
        if msg == LessonMsg::Answer && (mode.replay.is_some() || mode.catch_up.is_some()) {
            // The step on screen is being left: an answer typed to it
            // would go with it, unseen.
            let note = "a answers once the step opens (it is on its way)".to_string();
            self.passing_note.cover(&mut self.note, note);
            return;
        }
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
            LessonMsg::FullText => {
                mode.full = !mode.full;
                mode.folded = false;
                let full = mode.full;
                self.note = if full { FULL_TEXT } else { self.charts_shown_note() }.into();
            }
            LessonMsg::Fold => {
                mode.full = false;
                mode.folded = !mode.folded;
                self.note = if mode.folded { "step text folded: v shows it" } else { "step text shown" }.into();
            }
            // A step without a hint says so on the status line only: the
            // pane stays as it was.
            LessonMsg::Hint if mode.step().hint.is_none() => self.note = "this step has no hint".into(),
            // The hint goes under the step's text: shown, the text is
            // scrolled to it once drawn, so that it is in sight however
            // short the pane.
            LessonMsg::Hint => {
                mode.hint = !mode.hint;
                mode.to_hint = mode.hint;
                self.note = if mode.hint { "hint shown under the step's text" } else { "hint hidden" }.into();
            }
            LessonMsg::Scroll(up) => {
                mode.scroll = if up {
                    mode.scroll.saturating_sub(mode.scroll_page)
                } else {
                    mode.scroll.saturating_add(mode.scroll_page)
                }
                .min(mode.scroll_room)
            }
            LessonMsg::Answer => {
                // The answer is typed in the pane: `a` unfolds it, and
                // says so where there is nothing to answer.
                let was_folded = std::mem::replace(&mut mode.folded, false);
                if mode.step().questions.is_empty() {
                    // Passing, as a key that does nothing: the next key's
                    // own note (or none) takes its place.
                    let note =
                        format!("this step asks no questions{}", if was_folded { ": step text shown" } else { "" });
                    self.passing_note.cover(&mut self.note, note);
                } else {
                    // The next question not yet answered, from the one
                    // after the last answered (or the one Tab left): `a`
                    // on two answered questions opened the first again
                    // however often.
                    let n = mode.answers.len();
                    if let Some(q) = (0..n).map(|k| (mode.question + k) % n).find(|&q| mode.answers[q].is_none()) {
                        mode.question = q;
                    }
                    mode.input = Some(String::new());
                    // The fold's note is stale now.
                    self.note.clear();
                }
            }
            LessonMsg::Input(c) => {
                if let Some(text) = mode.input.as_mut() {
                    // Said beside the answer too: on the status line they
                    // pass with the next key taken, as a key that did
                    // nothing does.
                    if c.is_control() {
                        // Nothing a number is written with.
                    } else if text.chars().count() >= MAX_INPUT {
                        self.passing_note.cover(&mut self.note, format!("{MAX_INPUT} characters at most"));
                        mode.refused = Some(self.note.clone());
                    } else {
                        text.push(c);
                    }
                }
            }
            LessonMsg::InputBack => {
                if let Some(text) = mode.input.as_mut() {
                    text.pop();
                }
            }
            LessonMsg::InputOther(next) => {
                let n = mode.answers.len();
                if mode.input.is_some() && n > 1 {
                    let q = mode.question.min(n - 1);
                    mode.question = if next { (q + 1) % n } else { (q + n - 1) % n };
                    mode.refused = None;
                } else if mode.input.is_some() {
                    self.passing_note.cover(&mut self.note, "this step asks one question".into());
                }
            }
            LessonMsg::InputCancel => {
                mode.input = None;
                // Where Tab went is given up too: `a` opens the first
                // question not answered, as the help says (a student who
                // had looked at the next question answered it with the
                // first's value).
                if let Some(q) = mode.answers.iter().position(Option::is_none).filter(|_| !self.keys_before_5) {
                    mode.question = q;
                }
                self.note.clear();
            }
            LessonMsg::InputDone => {
                let text = mode.input.take().unwrap_or_default();
                let q = mode.question.min(mode.step().questions.len() - 1);
                match parse_answer(&text, mode.step().questions[q].unit()) {
                    Ok(given) => {
                        // A note on an earlier, mistyped answer is stale now.
                        self.note.clear();
                        let answer = mode.judge(q, given);
                        // The value an earlier answer was judged wrong
                        // against has been on the screen.
                        let after_shown = mode.answers[q]
                            .is_some_and(|j| j.after_shown || j.answer.is_some_and(|a| a.reached && !a.right));
                        mode.answers[q] = Some(Judged { given, answer, after_shown });
                        mode.question = (q + 1) % mode.answers.len();
                        self.keep_answers();
                    }
                    Err(why) => {
                        mode.refused = Some(why.clone());
                        self.passing_note.cover(&mut self.note, why);
                        mode.input = Some(text);
                    }
                }
            }
            // Only the lesson list sends these.
            LessonMsg::Lessons | LessonMsg::Pick(_) | LessonMsg::PickOpen | LessonMsg::PickDigit(_) => {}
        }
    }

    /// Restarts the step's clock when its worlds were rebuilt (restart,
    /// compare) so that its checks measure the new run.
    pub(super) fn sync_lesson_clock(&mut self) {
        if let Some(mode) = self.lesson.as_mut()
            && mode.run.rebuilt(&self.session)
        {
            mode.run.restart_clock(&self.session);
            mode.end = None;
        }
    }

    /// Measures the open step's checks and questions on the worlds as
    /// they are now.
    pub(super) fn refresh_lesson(&mut self) {
        if let Some(mode) = self.lesson.as_mut() {
            mode.refresh(&self.session);
        }
    }

    /// The time up to which the session may run before the open step's
    /// checks must be judged, if they have not been yet.
    fn lesson_step_end(&self) -> Option<u64> {
        self.lesson.as_ref().filter(|m| m.end.is_none()).map(|m| m.run.step_end_ns())
    }

    /// Keeps the open step's answers in the progress, each marked shown
    /// once it was judged wrong (the simulation's value beside it), so
    /// that a right answer after it does not count, also in a later
    /// session. A step with none given leaves what the progress holds.
    fn keep_answers(&mut self) {
        let Some(mode) = self.lesson.as_ref().filter(|m| m.answers.iter().any(Option::is_some)) else { return };
        let shown = |j: &Judged| j.after_shown || j.answer.is_some_and(|a| a.reached && !a.right);
        let given = mode.answers.iter().map(|a| a.map(|j| Given { value: j.given, after_shown: shown(&j) })).collect();
        self.progress.answered(mode.run.lesson.progress_id(), mode.run.step, given);
        self.note_progress();
    }

    /// Judges the open step's checks now, once and for all. The last
    /// step judged is the lesson done (opening it is not).
    fn freeze_checks(&mut self) {
        if let Some(mode) = self.lesson.as_mut() {
            mode.refresh(&self.session);
            mode.judge_at_end();
            let last = mode.last_step();
            self.keep_answers();
            let Some(mode) = self.lesson.as_ref() else { return };
            if last {
                let id = &mode.run.lesson.progress_id().to_string();
                self.progress.finished(id, mode.run.lesson.steps.len());
                if !self.progress_changed.contains(id) {
                    self.progress_changed.push(id.clone());
                }
            }
        }
    }

    /// Runs the lesson's worlds towards `t`, stopping at the end of the open
    /// step to judge its checks. Returns false when time stops there (the
    /// step waits for the student), true when the session may go on to `t`.
    /// A step that auto-advances opens the next one exactly at its end, so
    /// a replay opens it at the same simulated time.
    pub(super) fn lesson_advance(&mut self, t: u64) -> bool {
        if let Some(end) = self.lesson.as_ref().filter(|m| m.replay.is_some()).map(|m| m.run.step_end_ns()) {
            // Replaying the lesson up to a step: no further than the end of
            // the step replayed in one call, as `LessonRun::seek` runs it.
            self.session.advance_to(t.min(end));
            self.dirty = true;
            if self.session.sim_ns < end {
                self.replay_note();
            } else {
                self.replay_next_step();
            }
            return false;
        }
        if let Some(((i, pressed), end)) = self.lesson.as_ref().and_then(|m| Some((m.catch_up?, m.run.step_end_ns()))) {
            // Running the rest of the step before the next opens: no
            // further than its end in one call.
            self.session.advance_to(t.min(end));
            self.dirty = true;
            if self.session.sim_ns < end {
                self.refresh_lesson();
                self.catch_up_note();
                return false;
            }
            self.freeze_checks();
            if let Some(mode) = self.lesson.as_mut() {
                mode.catch_up = None;
            }
            let skipped = end.saturating_sub(pressed) as f64 / crate::sim::NS_PER_SEC as f64;
            self.open_step_now(i, Some(skipped));
            return false;
        }
        while let Some(end) = self.lesson_step_end()
            && end <= t
        {
            self.session.advance_to(end);
            self.freeze_checks();
            self.dirty = true;
            let Some(mode) = &self.lesson else { return true };
            let last = mode.last_step();
            if !mode.step().auto_advance {
                self.paused = true;
                self.note = if last { LESSON_DONE } else { STEP_DONE }.into();
                return false;
            }
            if !last {
                let i = mode.run.step + 1;
                let world = self.session.world_id();
                self.open_step(i);
                if self.session.world_id() != world {
                    // The step restarted the worlds at time 0: `t` belongs
                    // to the old run.
                    return false;
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::{AppOptions, Mode};
    use super::*;
    use crate::lesson::progress::Progress;
    use crate::sim::NS_PER_SEC;

    fn lesson(text: &str) -> Lesson {
        Lesson::from_ron(text, "test.ron").expect("valid lesson")
    }

    fn open(text: &str, step: usize) -> App {
        App::for_lesson(lesson(text), step, Progress::default(), &AppOptions::default()).expect("opens")
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
        let mut app = open(TWO_STEPS, 0);
        app.advance_to(2 * NS_PER_SEC);
        app.update(Msg::Lesson(LessonMsg::NextStep));
        assert_eq!(app.lesson().expect("lesson").run().step, 1);
        assert_eq!(app.zoom(), Some(4));
        // Back to step 1, which zooms nothing: every chart, as it opened.
        app.update(Msg::Lesson(LessonMsg::PrevStep));
        app.finish_catch_up();
        assert_eq!((app.lesson().expect("lesson").run().step, app.zoom()), (0, None));
        app.update(Msg::Lesson(LessonMsg::NextStep));
        app.finish_catch_up();
        assert_eq!(app.zoom(), Some(4));
        app.advance_to(3 * NS_PER_SEC);
        assert_eq!(app.world().tasks().iter().filter(|t| t.alive()).count(), 3);
        app.update(Msg::Lesson(LessonMsg::NextStep));
        assert_eq!(app.lesson().expect("lesson").run().step, 1, "no step after the last");
        app.update(Msg::Lesson(LessonMsg::PrevStep));
        assert_eq!(app.lesson().expect("lesson").run().step, 0);
        assert_eq!(app.sim_ns(), 0, "back replays from the start");
        assert_eq!(app.world().tasks().iter().filter(|t| t.alive() || t.stats.started_ns.is_none()).count(), 1);
        assert_eq!(app.progress().lessons["t"].step, 0, "the progress follows the open step");
    }

    /// A step's dd run from the instant it opens: opened paused (space,
    /// then `n`), its task table counted the one dd of step 1 until the
    /// world ran on.
    #[test]
    fn a_steps_dd_count_from_the_instant_it_opens() {
        let paused = TWO_STEPS.replace("AddDd(bdi: \"sda\", n: 2), Zoom(4)", "AddDd(bdi: \"sda\", n: 2), Pause");
        assert_ne!(paused, TWO_STEPS);
        let mut app = open(&paused, 0);
        app.update(Msg::TogglePause);
        app.update(Msg::Lesson(LessonMsg::NextStep));
        app.finish_catch_up();
        assert_eq!((app.lesson().expect("lesson").run().step, app.sim_ns()), (1, 2 * NS_PER_SEC));
        assert!(app.paused(), "the step pauses");
        assert_eq!(app.sides()[0].task_counts.live, 3, "the task table counts step 2's dd");
        let started = app.world().tasks().iter().filter(|t| t.stats.started_ns == Some(2 * NS_PER_SEC)).count();
        assert_eq!(started, 2, "they started at the step's first instant");
        // A recording of key format 7 replays as it was recorded: they
        // start at the next step of time.
        let old = AppOptions { keys_before_8: true, ..AppOptions::default() };
        let mut app = App::for_lesson(lesson(&paused), 0, Progress::default(), &old).expect("opens");
        app.update(Msg::TogglePause);
        app.update(Msg::Lesson(LessonMsg::NextStep));
        app.finish_catch_up();
        assert_eq!((app.lesson().expect("lesson").run().step, app.sides()[0].task_counts.live), (1, 1));
    }

    /// The step-done note stayed on the status line while the next step
    /// ran, and at the last step offered a next step there was not.
    #[test]
    fn the_step_done_note_goes_with_its_step_and_the_last_offers_the_list() {
        let mut app = open(TWO_STEPS, 0);
        app.advance_to(3 * NS_PER_SEC);
        assert_eq!((app.sim_ns(), app.note()), (2 * NS_PER_SEC, STEP_DONE));
        app.update(Msg::Lesson(LessonMsg::NextStep));
        assert_eq!(app.note(), "");
        app.advance_to(5 * NS_PER_SEC);
        assert_eq!((app.sim_ns(), app.note()), (4 * NS_PER_SEC, LESSON_DONE));
        // Back to step 1: not done yet.
        app.update(Msg::Lesson(LessonMsg::PrevStep));
        assert_eq!(app.note(), "");
    }

    /// Space on a step done ran the worlds on, and `n` then opened the
    /// next step on them, seconds later than everyone else's: it opens at
    /// the step's end, the lesson replayed up to it.
    #[test]
    fn a_step_run_on_past_its_end_opens_the_next_at_that_end() {
        let mut on_time = open(TWO_STEPS, 0);
        on_time.advance_to(3 * NS_PER_SEC);
        on_time.update(Msg::Lesson(LessonMsg::NextStep));
        let mut ran_on = open(TWO_STEPS, 0);
        ran_on.advance_to(3 * NS_PER_SEC);
        assert_eq!((ran_on.sim_ns(), ran_on.note()), (2 * NS_PER_SEC, STEP_DONE));
        ran_on.update(Msg::TogglePause);
        assert_eq!(ran_on.note(), RUNNING_ON);
        ran_on.advance_to(3 * NS_PER_SEC + NS_PER_SEC / 2);
        assert_eq!(ran_on.sim_ns(), 3 * NS_PER_SEC + NS_PER_SEC / 2);
        ran_on.update(Msg::Lesson(LessonMsg::NextStep));
        ran_on.finish_catch_up();
        assert_eq!((ran_on.sim_ns(), ran_on.lesson().expect("lesson").run().step), (2 * NS_PER_SEC, 1));
        assert_eq!(ran_on.note(), "step 2 opened at step 1's end (1.5 s run on left out)");
        assert_eq!(format!("{:?}", ran_on.world().samples()), format!("{:?}", on_time.world().samples()));
        assert_eq!(format!("{:?}", ran_on.world().tasks()), format!("{:?}", on_time.world().tasks()));
        // A chart the student chose stays where the step zooms none.
        let unzoomed = TWO_STEPS.replace(", Zoom(4)]", "]");
        let mut zoomed = open(&unzoomed, 0);
        zoomed.advance_to(3 * NS_PER_SEC);
        zoomed.update(Msg::Zoom(3));
        zoomed.update(Msg::TogglePause);
        zoomed.advance_to(3 * NS_PER_SEC + NS_PER_SEC / 2);
        zoomed.update(Msg::Lesson(LessonMsg::NextStep));
        zoomed.finish_catch_up();
        assert_eq!((zoomed.sim_ns(), zoomed.zoom()), (2 * NS_PER_SEC, Some(3)));
        // A recording of key format 4 replays as it was made: the next
        // step opened on the worlds as they were.
        let opts = AppOptions { keys_before_5: true, ..AppOptions::default() };
        let mut old = App::for_lesson(lesson(TWO_STEPS), 0, Progress::default(), &opts).expect("opens");
        old.advance_to(3 * NS_PER_SEC);
        old.update(Msg::TogglePause);
        assert_eq!(old.note(), RUNNING_ON_NOW);
        old.advance_to(3 * NS_PER_SEC + NS_PER_SEC / 2);
        old.update(Msg::Lesson(LessonMsg::NextStep));
        old.finish_catch_up();
        assert_eq!((old.sim_ns(), old.lesson().expect("lesson").run().step), (3 * NS_PER_SEC + NS_PER_SEC / 2, 1));
        // Paused again, the step-done note is back.
        let mut paused = open(TWO_STEPS, 0);
        paused.advance_to(3 * NS_PER_SEC);
        paused.update(Msg::TogglePause);
        paused.update(Msg::TogglePause);
        assert_eq!(paused.note(), STEP_DONE);
    }

    /// Opening the last step did not finish the lesson: running it to its
    /// end does; a lesson left before that reopens at the step left.
    #[test]
    fn a_lesson_is_done_when_its_last_step_has_run_not_when_it_opens() {
        let mut app = open(TWO_STEPS, 0);
        app.advance_to(2 * NS_PER_SEC);
        app.update(Msg::Lesson(LessonMsg::NextStep));
        assert_eq!(
            app.progress().lessons["t"],
            crate::lesson::progress::LessonProgress { step: 1, steps: 2, done: false, ..Default::default() }
        );
        assert_eq!(app.progress().resume_step(&lesson(TWO_STEPS)), 1, "reopens at the step left");
        app.advance_to(3 * NS_PER_SEC);
        assert!(!app.progress().lessons["t"].done, "half way through the last step");
        app.take_progress();
        app.advance_to(4 * NS_PER_SEC);
        assert!(app.progress().lessons["t"].done, "the last step ran to its end");
        assert!(app.take_progress().is_some_and(|(_, changed)| changed == ["t"]), "to be saved");
        assert_eq!(app.progress().resume_step(&lesson(TWO_STEPS)), 0, "finished: from the start");
        app.update(Msg::Lesson(LessonMsg::PrevStep));
        assert_eq!(app.progress().lessons["t"].step, 0);
        assert!(app.progress().lessons["t"].done, "still done");
        assert_eq!(app.progress().resume_step(&lesson(TWO_STEPS)), 0, "left at step 1");
    }

    /// `n` ran the rest of the step in one go, however long that took
    /// (0.2-0.6 s in lesson 11): it runs over the next advances, no
    /// further than the step's end in one, saying how far it got.
    #[test]
    fn the_rest_of_a_step_runs_over_the_next_advances() {
        let mut app = open(TWO_STEPS, 0);
        app.advance_to(NS_PER_SEC / 2);
        app.update(Msg::TogglePause);
        app.update(Msg::Lesson(LessonMsg::NextStep));
        assert!(app.catching_up() && !app.paused(), "runs even when paused");
        assert_eq!((app.sim_ns(), app.lesson().expect("lesson").run().step), (NS_PER_SEC / 2, 0), "nothing run yet");
        app.advance_to(NS_PER_SEC);
        assert_eq!(app.lesson().expect("lesson").run().step, 0);
        assert_eq!(app.note(), "running the rest of step 1 first: 1.0 of 2.0 s (q quits, space pauses)");
        app.advance_to(5 * NS_PER_SEC);
        assert!(!app.catching_up());
        assert_eq!(
            (app.sim_ns(), app.lesson().expect("lesson").run().step),
            (2 * NS_PER_SEC, 1),
            "stops where step 2 opens"
        );
        assert_eq!(app.note(), "step 1 ran its last 1.5 s: 1/1 checks held");
        app.update(Msg::Slower);
        assert_eq!(app.note(), "", "told until the next key");
    }

    #[test]
    fn stepping_forward_early_runs_the_rest_of_the_step_first() {
        let mut app = open(TWO_STEPS, 0);
        app.advance_to(NS_PER_SEC / 2);
        // An answer judged out of sight, at the end of the step run first:
        // said how, as the checks are (one dd, not 5).
        for m in [LessonMsg::Answer, LessonMsg::Input('5'), LessonMsg::InputDone] {
            app.update(Msg::Lesson(m));
        }
        app.update(Msg::Lesson(LessonMsg::NextStep));
        app.finish_catch_up();
        let mode = app.lesson().expect("lesson");
        assert_eq!(mode.run().step, 1);
        assert_eq!(app.sim_ns(), 2 * NS_PER_SEC, "step one ran its 2 s");
        assert_eq!(mode.run().step_start_ns, 2 * NS_PER_SEC, "step two starts where going back starts it");
        let replayed = open(TWO_STEPS, 1);
        assert_eq!(replayed.lesson().expect("lesson").run().step_start_ns, 2 * NS_PER_SEC);
        assert_eq!(app.world().now_ns(), replayed.world().now_ns());
        assert_eq!(app.note(), "step 1 ran its last 1.5 s: 0/1 answers right, 1/1 checks held");
    }

    #[test]
    fn esc_closes_the_help_over_the_full_text_first_and_a_new_step_shows_the_charts() {
        let mut app = open(TWO_STEPS, 0);
        app.update(Msg::Lesson(LessonMsg::FullText));
        assert!(app.lesson().expect("lesson").full());
        assert_eq!(app.note(), FULL_TEXT);
        app.update(Msg::Help);
        app.update(Msg::Back);
        assert!(!app.screen.help, "Esc closed the help");
        assert!(app.lesson().expect("lesson").full(), "and left the text on the whole screen");
        app.update(Msg::Back);
        assert!(!app.lesson().expect("lesson").full());
        assert_eq!(app.note(), "charts shown");
        app.advance_to(2 * NS_PER_SEC);
        assert_eq!(app.note(), STEP_DONE);
        app.update(Msg::Lesson(LessonMsg::FullText));
        assert_eq!(app.note(), FULL_TEXT);
        // Leaving the text again (V or Esc), the step is still done and
        // says so: V had covered it.
        app.update(Msg::Lesson(LessonMsg::FullText));
        assert_eq!(app.note(), STEP_DONE);
        app.update(Msg::Lesson(LessonMsg::FullText));
        app.update(Msg::Back);
        assert_eq!(app.note(), STEP_DONE);
        // Run on past the end, V and back: what n does then, and space
        // pauses with the step-done note again.
        app.update(Msg::TogglePause);
        assert_eq!(app.note(), RUNNING_ON);
        app.update(Msg::Lesson(LessonMsg::FullText));
        app.update(Msg::Lesson(LessonMsg::FullText));
        assert_eq!(app.note(), RUNNING_ON);
        app.update(Msg::TogglePause);
        assert_eq!(app.note(), STEP_DONE);
        app.update(Msg::Lesson(LessonMsg::FullText));
        app.update(Msg::Lesson(LessonMsg::NextStep));
        assert!(!app.lesson().expect("lesson").full(), "a new step shows its charts");
        assert_ne!(app.note(), FULL_TEXT, "and its note went with it");
    }

    #[test]
    fn v_folds_the_text_and_answering_unfolds_it() {
        let mut app = open(TWO_STEPS, 0);
        app.update(Msg::Lesson(LessonMsg::Fold));
        assert!(app.lesson().expect("lesson").folded());
        assert_eq!(app.note(), "step text folded: v shows it");
        app.update(Msg::Lesson(LessonMsg::Answer));
        assert!(!app.lesson().expect("lesson").folded(), "the answer is typed in the pane");
        assert_eq!(app.note(), "", "the fold's note is gone with the fold");
        app.update(Msg::Lesson(LessonMsg::InputCancel));
        app.update(Msg::Lesson(LessonMsg::Fold));
        app.advance_to(2 * NS_PER_SEC);
        app.update(Msg::Lesson(LessonMsg::NextStep));
        assert!(!app.lesson().expect("lesson").folded(), "a new step shows its text");
    }

    #[test]
    fn the_question_being_answered_is_the_typed_one_then_the_one_answered_last() {
        let mut app = open(TWO_STEPS, 0);
        app.advance_to(NS_PER_SEC);
        assert_eq!(app.lesson().expect("lesson").answering(), None, "nothing answered yet");
        app.update(Msg::Lesson(LessonMsg::Answer));
        assert_eq!(app.lesson().expect("lesson").answering(), Some(0), "typed");
        app.update(Msg::Lesson(LessonMsg::InputCancel));
        assert_eq!(app.lesson().expect("lesson").answering(), None, "cancelled");
        app.update(Msg::Lesson(LessonMsg::Answer));
        app.update(Msg::Lesson(LessonMsg::Input('1')));
        app.update(Msg::Lesson(LessonMsg::InputDone));
        assert_eq!(app.lesson().expect("lesson").answering(), Some(0), "answered");
    }

    /// A student who looked back a step (`N`) and came on again (`n`)
    /// found the answers given gone; they are back, judged again at the
    /// step's end. `r` starts the step over without them.
    #[test]
    fn a_step_opened_again_has_its_answers_back_and_r_gives_them_up() {
        let given = |app: &App| app.lesson().expect("lesson").answer(0).map(|j| (j.given, j.answer.is_some()));
        for keys_before_7 in [false, true] {
            let opts = AppOptions { keys_before_7, ..AppOptions::default() };
            let mut app = App::for_lesson(lesson(TWO_STEPS), 0, Progress::default(), &opts).expect("opens");
            app.advance_to(NS_PER_SEC);
            for m in [LessonMsg::Answer, LessonMsg::Input('1'), LessonMsg::InputDone] {
                app.update(Msg::Lesson(m));
            }
            assert_eq!(given(&app), Some((1.0, false)), "judged at the step's end");
            app.advance_to(2 * NS_PER_SEC);
            assert_eq!(given(&app), Some((1.0, true)));
            app.update(Msg::Lesson(LessonMsg::NextStep));
            app.update(Msg::Lesson(LessonMsg::PrevStep));
            app.finish_catch_up();
            assert_eq!(app.lesson().expect("lesson").run().step, 0);
            if keys_before_7 {
                assert_eq!(given(&app), None, "key format 6 and before: gone");
                continue;
            }
            assert_eq!(given(&app), Some((1.0, false)), "back, to be judged at the step's end");
            app.advance_to(2 * NS_PER_SEC);
            let judged = app.lesson().expect("lesson").answer(0).and_then(|j| j.answer);
            assert!(judged.is_some_and(|a| a.right), "one dd: right");
            // Wrong, then right once the value was shown: not counted,
            // also when the step is opened again.
            for c in ['5', '1'] {
                for m in [LessonMsg::Answer, LessonMsg::Input(c), LessonMsg::InputDone] {
                    app.update(Msg::Lesson(m));
                }
            }
            app.update(Msg::Lesson(LessonMsg::NextStep));
            app.update(Msg::Lesson(LessonMsg::PrevStep));
            app.finish_catch_up();
            app.advance_to(2 * NS_PER_SEC);
            let j = *app.lesson().expect("lesson").answer(0).expect("back");
            assert!(j.answer.is_some_and(|a| a.right) && !j.counts_right(), "{j:?}");
            app.update(Msg::Reset);
            app.finish_catch_up();
            assert_eq!(given(&app), None, "r starts the step over");
        }
    }

    /// A student who quit with a step's question answered finds the
    /// answer there the next day (the progress keeps it), judged at the
    /// step's end; `r` gives it up in the progress too.
    #[test]
    fn answers_given_are_back_in_a_later_session() {
        let mut app =
            App::for_lesson(lesson(TWO_STEPS), 0, Progress::default(), &AppOptions::default()).expect("opens");
        for m in [LessonMsg::Answer, LessonMsg::Input('1'), LessonMsg::InputDone] {
            app.update(Msg::Lesson(m));
        }
        let (saved, changed) = app.take_progress().expect("to be saved");
        assert_eq!(changed, ["t"]);
        let mut next = saved.clone();
        let step = next.start(&lesson(TWO_STEPS));
        assert_eq!(step, 0);
        let mut later = App::for_lesson(lesson(TWO_STEPS), step, next, &AppOptions::default()).expect("opens");
        let given = |app: &App| app.lesson().expect("lesson").answer(0).map(|j| (j.given, j.answer.is_some()));
        assert_eq!(given(&later), Some((1.0, false)), "back, to be judged at the step's end");
        later.advance_to(2 * NS_PER_SEC);
        let judged = later.lesson().expect("lesson").answer(0).and_then(|j| j.answer);
        assert!(judged.is_some_and(|a| a.right), "one dd: right");
        later.update(Msg::Reset);
        later.finish_catch_up();
        assert_eq!(given(&later), None, "r starts the step over");
        assert!(later.progress().lessons["t"].answers.is_empty(), "and the progress forgets them");
        // Judged wrong, the value shown: a right answer the next day does
        // not count.
        for m in [LessonMsg::Answer, LessonMsg::Input('5'), LessonMsg::InputDone] {
            later.update(Msg::Lesson(m));
        }
        later.advance_to(later.sim_ns() + 2 * NS_PER_SEC);
        let mut next = later.progress().clone();
        let step = next.start(&lesson(TWO_STEPS));
        let mut third = App::for_lesson(lesson(TWO_STEPS), step, next, &AppOptions::default()).expect("opens");
        for m in [LessonMsg::Answer, LessonMsg::Input('1'), LessonMsg::InputDone] {
            third.update(Msg::Lesson(m));
        }
        third.advance_to(2 * NS_PER_SEC);
        let j = *third.lesson().expect("lesson").answer(0).expect("given");
        assert!(j.answer.is_some_and(|a| a.right) && !j.counts_right(), "{j:?}");
    }

    /// Forward too: the answer given to step 2, back after `N` and `n`
    /// (the rest of step 1 run first), and not on step 1, which has its
    /// own question.
    #[test]
    fn a_step_opened_forward_again_has_its_answers_back() {
        const QUESTIONS: &str = r#"Lesson(id: "q", title: "Two questions", patch: "p", summary: "s", scenario: Preset("default"),
            steps: [
                Step(title: "one", text: "first", run_s: 2, questions: [Question(ask: "How many dd?", metric: Tasks)]),
                Step(title: "two", text: "more", actions: [AddDd(bdi: "sda", n: 2)], run_s: 2,
                     questions: [Question(ask: "How many dd now?", metric: Tasks)]),
            ])"#;
        let mut app = open(QUESTIONS, 1);
        let given = |app: &App| app.lesson().expect("lesson").answer(0).map(|j| j.given);
        for m in [LessonMsg::Answer, LessonMsg::Input('3'), LessonMsg::InputDone] {
            app.update(Msg::Lesson(m));
        }
        app.update(Msg::Lesson(LessonMsg::PrevStep));
        app.finish_catch_up();
        assert_eq!((app.lesson().expect("lesson").run().step, given(&app)), (0, None), "step 1's own: none given");
        app.update(Msg::Lesson(LessonMsg::NextStep));
        app.finish_catch_up();
        assert_eq!((app.lesson().expect("lesson").run().step, given(&app)), (1, Some(3.0)));
        app.advance_to(app.sim_ns() + 2 * NS_PER_SEC);
        let judged = app.lesson().expect("lesson").answer(0).and_then(|j| j.answer);
        assert!(judged.is_some_and(|a| a.right), "three dd: right");
    }

    /// `h` while paused said the hint was shown, but the text scrolled
    /// to it only after the frame that found its row, and no frame came.
    #[test]
    fn the_text_scrolled_to_a_hint_just_shown_is_drawn_again() {
        let mut app = open(TWO_STEPS, 0);
        app.advance_to(3 * NS_PER_SEC);
        assert!(app.paused());
        app.update(Msg::Lesson(LessonMsg::Hint));
        assert!(app.take_dirty());
        let room =
            |hint_row| crate::app::ScrollRoom { help: 0, help_page: 1, text: 10, text_page: 4, hint_row, tasks: None };
        app.set_scroll_room(room(Some(7)));
        assert_eq!(app.lesson().expect("lesson").scroll(), 7);
        assert!(app.take_dirty(), "drawn again, scrolled");
        app.set_scroll_room(room(Some(7)));
        assert!(!app.take_dirty(), "nothing moved");
    }

    #[test]
    fn pgdn_scrolls_the_text_by_a_page_as_drawn() {
        let mut app = open(TWO_STEPS, 0);
        app.set_scroll_room(crate::app::ScrollRoom {
            help: 0,
            help_page: 1,
            text: 10,
            text_page: 1,
            hint_row: None,
            tasks: None,
        });
        app.update(Msg::Lesson(LessonMsg::Scroll(false)));
        assert_eq!(app.lesson().expect("lesson").scroll(), 1, "two rows shown: one at a time, none skipped");
        app.set_scroll_room(crate::app::ScrollRoom {
            help: 0,
            help_page: 1,
            text: 10,
            text_page: 4,
            hint_row: None,
            tasks: None,
        });
        app.update(Msg::Lesson(LessonMsg::Scroll(false)));
        app.update(Msg::Lesson(LessonMsg::Scroll(false)));
        assert_eq!(app.lesson().expect("lesson").scroll(), 9);
        app.update(Msg::Lesson(LessonMsg::Scroll(false)));
        assert_eq!(app.lesson().expect("lesson").scroll(), 10, "no further than the end");
        app.update(Msg::Lesson(LessonMsg::Scroll(true)));
        assert_eq!(app.lesson().expect("lesson").scroll(), 6);
    }

    #[test]
    fn answers_are_judged_against_the_simulation() {
        let mut app = open(TWO_STEPS, 0);
        app.advance_to(NS_PER_SEC);
        app.update(Msg::Lesson(LessonMsg::Answer));
        assert_eq!(app.mode(), Mode::Typing);
        app.update(Msg::Lesson(LessonMsg::Input('1')));
        app.update(Msg::Lesson(LessonMsg::InputDone));
        // Its window (10 s, or the step's 2 s) not yet run: not judged.
        let j = *app.lesson().expect("lesson").answer(0).expect("answered");
        assert_eq!((j.given, j.answer), (1.0, None));
        app.advance_to(2 * NS_PER_SEC);
        app.update(Msg::Lesson(LessonMsg::Answer));
        app.update(Msg::Lesson(LessonMsg::Input('1')));
        app.update(Msg::Lesson(LessonMsg::InputDone));
        let j = *app.lesson().expect("lesson").answer(0).expect("answered");
        let a = j.answer.expect("measurable");
        assert_eq!((j.given, a.actual, a.right), (1.0, 1.0, true));
        app.update(Msg::Lesson(LessonMsg::Answer));
        app.update(Msg::Lesson(LessonMsg::Input('3')));
        app.update(Msg::Lesson(LessonMsg::InputDone));
        let a = app.lesson().expect("lesson").answer(0).expect("answered").answer.expect("measurable");
        assert!(!a.right && (a.error - 2.0).abs() < 1e-9, "{a:?}");
        assert!(j.counts_right(), "a right answer given again keeps its count");
        // Right once the value was shown beside the wrong one: not counted.
        app.update(Msg::Lesson(LessonMsg::Answer));
        app.update(Msg::Lesson(LessonMsg::Input('1')));
        app.update(Msg::Lesson(LessonMsg::InputDone));
        let j = *app.lesson().expect("lesson").answer(0).expect("answered");
        assert!(j.answer.is_some_and(|a| a.right) && j.after_shown && !j.counts_right(), "{j:?}");
    }

    #[test]
    fn a_opens_the_next_question_not_answered_and_tab_moves_between_them() {
        let two = TWO_STEPS.replace(
            r#"questions: [Question(ask: "How many dd?", metric: Tasks)]"#,
            r#"questions: [Question(ask: "How many dd?", metric: Tasks), Question(ask: "pos_ratio?", metric: PosRatio)]"#,
        );
        let mut app = open(&two, 0);
        app.advance_to(2 * NS_PER_SEC);
        let answer = |app: &mut App, keys: &[LessonMsg]| {
            app.update(Msg::Lesson(LessonMsg::Answer));
            keys.iter().for_each(|&k| app.update(Msg::Lesson(k)));
            app.update(Msg::Lesson(LessonMsg::InputDone));
        };
        let given = |app: &App, q: usize| app.lesson().expect("lesson").answer(q).map(|j| j.given);
        // Tab to the second, then Esc: `a` opens the first again.
        app.update(Msg::Lesson(LessonMsg::Answer));
        app.update(Msg::Lesson(LessonMsg::InputOther(true)));
        app.update(Msg::Lesson(LessonMsg::InputCancel));
        answer(&mut app, &[LessonMsg::Input('1')]);
        assert_eq!((given(&app, 0), given(&app, 1)), (Some(1.0), None), "Esc gave up the Tab");
        // A recording of key format 4 replays as it was made: Esc kept it.
        let opts = AppOptions { keys_before_5: true, ..AppOptions::default() };
        let mut old = App::for_lesson(lesson(&two), 0, Progress::default(), &opts).expect("opens");
        old.advance_to(2 * NS_PER_SEC);
        old.update(Msg::Lesson(LessonMsg::Answer));
        old.update(Msg::Lesson(LessonMsg::InputOther(true)));
        old.update(Msg::Lesson(LessonMsg::InputCancel));
        answer(&mut old, &[LessonMsg::Input('1')]);
        assert_eq!((given(&old, 0), given(&old, 1)), (None, Some(1.0)), "format 4: Esc kept the Tab");
        app = open(&two, 0);
        app.advance_to(2 * NS_PER_SEC);
        // The second question first (Tab), given as a percentage of 1.
        answer(&mut app, &[LessonMsg::InputOther(true), LessonMsg::Input('9'), LessonMsg::Input('%')]);
        assert_eq!((given(&app, 0), given(&app, 1)), (None, Some(0.09)));
        // `a` then opens the first, the one not answered.
        answer(&mut app, &[LessonMsg::Input('1')]);
        assert_eq!(given(&app, 0), Some(1.0));
        // Both answered: `a` opens the one after the last answered, ↑ the
        // one before it, the typed text kept.
        answer(&mut app, &[LessonMsg::Input('1'), LessonMsg::Input('/'), LessonMsg::InputOther(false)]);
        assert_eq!((given(&app, 0), given(&app, 1)), (Some(1.0), Some(0.09)), "1/ is no answer yet");
        app.update(Msg::Lesson(LessonMsg::Input('4')));
        app.update(Msg::Lesson(LessonMsg::InputOther(true)));
        app.update(Msg::Lesson(LessonMsg::InputDone));
        assert_eq!((given(&app, 0), given(&app, 1)), (Some(1.0), Some(0.25)), "1/4 to the second");
    }

    #[test]
    fn a_mistyped_answer_is_noted_until_a_number_is_given_or_typing_stops() {
        let mut app = open(TWO_STEPS, 0);
        app.advance_to(NS_PER_SEC);
        let typed = |app: &mut App, text: &str| {
            text.chars().for_each(|c| app.update(Msg::Lesson(LessonMsg::Input(c))));
            app.update(Msg::Lesson(LessonMsg::InputDone));
        };
        app.update(Msg::Lesson(LessonMsg::Answer));
        typed(&mut app, "2^7");
        let unit = app.lesson().expect("lesson").step().questions[0].unit();
        assert_eq!(app.note(), format!("`2^7`: a number alone, or followed by its unit, {unit}"), "not 27");
        assert_eq!(app.lesson().expect("lesson").typing(0), Some("2^7"), "kept to be corrected");
        (0..3).for_each(|_| app.update(Msg::Lesson(LessonMsg::InputBack)));
        typed(&mut app, "1e999");
        assert_eq!(app.note(), "`1e999` is too large: not a finite number");
        assert_eq!(app.lesson().expect("lesson").typing(0), Some("1e999"), "kept to be corrected");
        (0..5).for_each(|_| app.update(Msg::Lesson(LessonMsg::InputBack)));
        typed(&mut app, "1,5.2");
        assert_eq!(app.note(), "`1,5.2`: one decimal point, . or , (no thousands separator)");
        (0..5).for_each(|_| app.update(Msg::Lesson(LessonMsg::InputBack)));
        typed(&mut app, "1");
        assert_eq!(app.note(), "", "answered");
        // Enter on nothing typed yet: what to do, not an empty quote.
        app.update(Msg::Lesson(LessonMsg::Answer));
        typed(&mut app, "");
        assert_eq!(app.note(), "type a number first, then Enter (Esc cancels)");
        assert!(app.lesson().expect("lesson").typing(0).is_some() || app.lesson().expect("lesson").typing(1).is_some());
        app.update(Msg::Lesson(LessonMsg::InputCancel));
        app.update(Msg::Lesson(LessonMsg::Answer));
        typed(&mut app, "?");
        app.update(Msg::Lesson(LessonMsg::InputCancel));
        assert_eq!(app.note(), "", "given up");
    }

    /// `64,5` was read as 645 (the comma dropped): a decimal comma is a
    /// decimal point.
    #[test]
    fn a_decimal_comma_is_a_decimal_point() {
        assert_eq!(parse_number("64,5"), Ok(64.5));
        assert_eq!(parse_number(" 3 "), Ok(3.0));
        assert_eq!(parse_number("-1,5e2"), Ok(-150.0));
        assert!(parse_number("1,000,000").is_err());
        assert_eq!(
            parse_number("755,000"),
            Err("`755,000`: a thousands separator or a decimal comma? type 755000 or 755.000".into())
        );
        assert!(parse_number("-1,500").is_err(), "ambiguous too");
        assert_eq!(parse_number("0,125"), Ok(0.125), "no thousands before a 0");
        assert_eq!(parse_number("755,5"), Ok(755.5));
        assert_eq!(parse_number("1,2345"), Ok(1.2345));
        assert!(parse_number("-1e400").is_err());
        assert_eq!(parse_answer("1/4", ""), Ok(0.25), "a fraction");
        assert_eq!(parse_answer(" 3/0,5 ", "MiB"), Ok(6.0));
        assert_eq!(parse_answer("1/0", ""), Err("`1/0`: a fraction over 0".into()));
        assert_eq!(parse_answer("1/", ""), Err("`1/`: a fraction is a number over a number, as 1/4".into()));
        assert!(parse_answer("1/2/3", "").is_err());
        assert_eq!(parse_answer("1e300/1e-300", ""), Err("`1e300/1e-300` is too large: not a finite number".into()));
        assert_eq!(parse_answer("95%", "×"), Ok(0.95), "a ratio of two sides");
        assert_eq!(parse_answer("21%", ""), Ok(0.21), "a ratio as a percentage");
        assert_eq!(parse_answer("17,5%", "%"), Ok(17.5));
        assert_eq!(parse_answer("21%", "MiB"), Err("`21%`: this answer is in MiB, not a percentage".into()));
        assert_eq!(parse_answer("%", "%"), Err("`%`: a number before the %".into()));
        assert_eq!(parse_answer("2%1", "%"), Err("`2%1` is not a number".into()));
        // A unit after the number is the question's, or refuses it whole.
        assert_eq!(parse_answer("128 pages", "pages"), Ok(128.0));
        assert_eq!(parse_answer("1 Page", "pages"), Ok(1.0));
        assert_eq!(parse_answer("20ms", "ms"), Ok(20.0));
        assert_eq!(parse_answer("92.5 MiB/s", "MiB/s"), Ok(92.5));
        assert_eq!(parse_answer("1.5 GiB", "MiB"), Ok(1536.0), "as the readings line writes sizes");
        assert_eq!(parse_answer("512 kib", "MiB"), Ok(0.5));
        assert_eq!(parse_answer("220m", "ms"), Err("`220m`: a number alone, or followed by its unit, ms".into()));
        assert_eq!(parse_answer("12 MB", "MiB"), Ok(12.0), "binary, as on the command line");
        assert_eq!((parse_answer("184M", "MiB"), parse_answer("1.5 g", "MiB")), (Ok(184.0), Ok(1536.0)));
        assert_eq!(parse_answer("90 MB/s", "MiB/s"), Ok(90.0));
        assert_eq!(parse_answer("12 Mb", "ms"), Err("`12 Mb`: a number alone, or followed by its unit, ms".into()));
        assert_eq!(parse_answer("2^7", ""), Err("`2^7` is not a number".into()));
        assert_eq!(
            parse_answer("128 pages", "ms"),
            Err("`128 pages`: a number alone, or followed by its unit, ms".into())
        );
        assert_eq!(parse_answer("ms", "ms"), Err("`ms`: a number alone, or followed by its unit, ms".into()));
        assert_eq!(parse_answer("1 task", "tasks"), Ok(1.0), "as the pane writes one");
        assert_eq!(parse_answer("1.3×", "×"), Ok(1.3));
        assert_eq!(parse_answer("1e308T", "MiB"), Err("`1e308T` is too large".into()), "a number, a size past f64");
        assert_eq!(parse_answer("1.3 x", "×"), Ok(1.3));
        assert_eq!(parse_answer("0.2x", ""), Ok(0.2), "a ratio of one world's quantities");
        assert_eq!(parse_answer("0.078 s", "ms"), Ok(78.0));
        assert_eq!(parse_answer("78000 us", "ms"), Ok(78.0));
        assert_eq!(parse_answer("90 MS", "ms"), Ok(90.0), "ms, not s");
        assert_eq!(parse_answer("1 GiB/s", "MiB/s"), Ok(1024.0));
        assert_eq!(
            parse_answer("2 GiB", "MiB/s"),
            Err("`2 GiB`: a number alone, or followed by its unit, MiB/s".into())
        );
        let mut app = open(TWO_STEPS, 0);
        app.advance_to(2 * NS_PER_SEC);
        app.update(Msg::Lesson(LessonMsg::Answer));
        "0,5".chars().for_each(|c| app.update(Msg::Lesson(LessonMsg::Input(c))));
        app.update(Msg::Lesson(LessonMsg::InputDone));
        assert_eq!(app.lesson().expect("lesson").answer(0).expect("answered").given, 0.5);
    }

    #[test]
    fn a_while_the_step_runs_out_says_it_waits_for_the_next() {
        let mut app = open(TWO_STEPS, 0);
        app.advance_to(NS_PER_SEC / 2);
        app.update(Msg::Lesson(LessonMsg::NextStep));
        assert!(app.note().starts_with("running the rest of step 1 first"), "{}", app.note());
        app.update(Msg::Lesson(LessonMsg::Answer));
        assert_eq!(app.note(), "a answers once the step opens (it is on its way)");
        assert_eq!(app.mode(), Mode::Normal, "no answer field for the step being left");
    }

    #[test]
    fn a_with_no_question_says_so_until_the_next_key() {
        let mut app = open(TWO_STEPS, 1);
        app.update(Msg::Lesson(LessonMsg::Answer));
        assert_eq!(app.note(), "this step asks no questions");
        app.update(Msg::Zoom(2));
        assert_eq!(app.note(), "", "it passed with the next key");
    }

    /// An answer given before its window has run was shown as "nothing to
    /// measure yet" and lost; it is kept. It is judged at the step's end,
    /// however fast the world ran there: judged at the first frame after
    /// its window filled, the same answer to lesson 07 counted at 1× (28
    /// ms at 20 s) and not at full speed (29 ms at 30 s).
    #[test]
    fn an_answer_is_judged_at_the_end_of_the_step_whatever_the_frames() {
        // One question on the dd count over the last second of 4 s; a
        // second dd comes at 2 s.
        let lesson = TWO_STEPS
            .replace("run_s: 2, hint", "run_s: 4, hint")
            .replace("metric: Tasks)]", "metric: Tasks, window_s: 1)]");
        let answered = |frames: u64| {
            let mut app = open(&lesson, 0);
            let frame = 4 * NS_PER_SEC / frames;
            let mut t = 0;
            while t < 4 * NS_PER_SEC {
                t += frame;
                app.advance_to(t);
                if t == NS_PER_SEC / 2 || (t < NS_PER_SEC / 2 + frame && t >= NS_PER_SEC / 2) {
                    app.update(Msg::Lesson(LessonMsg::Answer));
                    app.update(Msg::Lesson(LessonMsg::Input('1')));
                    app.update(Msg::Lesson(LessonMsg::InputDone));
                    let mode = app.lesson().expect("lesson");
                    assert_eq!(mode.answer(0).map(|j| (j.given, j.answer)), Some((1.0, None)), "kept");
                    let left = 4.0 - t as f64 / NS_PER_SEC as f64;
                    assert!(mode.answer_wait_s(0).is_some_and(|s| (s - left).abs() < 1e-6), "at {t}");
                }
                if (2 * NS_PER_SEC..2 * NS_PER_SEC + frame).contains(&t) {
                    app.update(Msg::AddDd);
                }
                if t < 4 * NS_PER_SEC {
                    assert_eq!(app.lesson().expect("lesson").answer(0).and_then(|j| j.answer), None, "at {t}");
                }
            }
            let mode = app.lesson().expect("lesson");
            assert_eq!(mode.answer_wait_s(0), None);
            mode.answer(0).and_then(|j| j.answer).expect("judged at the end of the step")
        };
        let by_frames = answered(40);
        assert_eq!((by_frames.actual, by_frames.right), (2.0, false), "two dd over the step's last second");
        assert_eq!(answered(2), by_frames, "two frames of 2 s judge it alike");
        // After the end, an answer is judged at once, by the end's value.
        let mut app = open(&lesson, 0);
        app.advance_to(4 * NS_PER_SEC);
        app.update(Msg::Lesson(LessonMsg::Answer));
        app.update(Msg::Lesson(LessonMsg::Input('1')));
        app.update(Msg::Lesson(LessonMsg::InputDone));
        let a = app.lesson().expect("lesson").answer(0).and_then(|j| j.answer).expect("judged");
        assert_eq!((a.actual, a.right), (1.0, true));
    }

    #[test]
    fn checks_and_readings_are_measured_as_samples_arrive_and_judged_at_the_end_of_the_step() {
        let mut app = open(TWO_STEPS, 0);
        // An instant (the tasks) reads at once, unjudged until the step's
        // end (no dd has started at time 0); a window waits for itself.
        assert_eq!(app.lesson().expect("lesson").verdicts(), &[Verdict::Unjudged(0.0)]);
        let windowed = TWO_STEPS.replacen("metric: Tasks, window_s: 1", "metric: DirtyMb, window_s: 1", 1);
        assert_ne!(windowed, TWO_STEPS);
        assert_eq!(open(&windowed, 0).lesson().expect("lesson").verdicts(), &[Verdict::Pending]);
        app.advance_to(NS_PER_SEC);
        let mode = app.lesson().expect("lesson");
        assert!(!mode.judged(), "live before run_s");
        assert_eq!(mode.verdicts(), &[Verdict::Unjudged(1.0)], "measured when the samples arrived");
        assert_eq!(mode.reading(0), Some(1.0));
        app.advance_to(10 * NS_PER_SEC);
        let frozen = app.lesson().expect("lesson").verdicts().to_vec();
        assert!(app.lesson().expect("lesson").judged());
        assert_eq!(frozen, vec![Verdict::Pass(1.0)]);
        assert_eq!(app.sim_ns(), 2 * NS_PER_SEC, "time stops at the end of the step");
        app.update(Msg::AddDd);
        app.advance_to(12 * NS_PER_SEC);
        let mode = app.lesson().expect("lesson");
        assert_eq!(mode.verdicts(), &frozen[..], "a later change does not undo the verdict");
        assert_eq!(mode.reading(0), Some(1.0), "the readings are the step end's, as the answers are judged by");
        app.update(Msg::Reset);
        assert!(!app.lesson().expect("lesson").judged(), "a restart judges again");
    }

    #[test]
    fn a_restart_restarts_the_open_step_with_the_steps_before_it() {
        let mut app = open(TWO_STEPS, 1);
        let start = app.lesson().expect("lesson").run().step_start_ns;
        assert_eq!(start, 2 * NS_PER_SEC, "opened at step 2 after running step 1");
        app.advance_to(3 * NS_PER_SEC);
        app.update(Msg::RemoveDd);
        app.update(Msg::Reset);
        app.finish_catch_up();
        let mode = app.lesson().expect("lesson");
        assert_eq!((mode.run().step, mode.run().step_start_ns), (1, 2 * NS_PER_SEC));
        assert_eq!(app.sim_ns(), 2 * NS_PER_SEC);
        assert_eq!(app.world().tasks().iter().filter(|t| t.alive()).count(), 3, "step 2's AddDd applied again");
        assert_eq!(app.note(), "step 2 restarted with its own setup");
        app.update(Msg::Reset);
        app.finish_catch_up();
        assert_eq!(app.note(), "step 2 restarted");
    }

    /// Keys pressed once the step was judged leave its verdicts: the pane
    /// says so (it said the checks judged the setup as it is now).
    #[test]
    fn a_setup_changed_after_the_end_leaves_the_verdicts() {
        let mut app = open(TWO_STEPS, 0);
        app.advance_to(2 * NS_PER_SEC);
        assert!(app.lesson().expect("lesson").judged());
        app.update(Msg::AddDd);
        let mode = app.lesson().expect("lesson");
        assert!(mode.changed_by_hand() && mode.changed_after_end());
        assert_eq!(mode.verdicts(), &[Verdict::Pass(1.0)], "judged with one dd");
        let text = crate::ui::snapshot::text(&crate::ui::snapshot::render(&app, 160, 48)).replace('\u{a0}', " ");
        let text = text.lines().map(str::trim_end).collect::<Vec<_>>().join(" ");
        assert!(text.contains("! your keys changed the step's setup after it ended: its"), "{text}");
    }

    /// A key that changed the step's worlds (here `+`) marks the step,
    /// says once how to get its own setup back, and `r` clears the mark;
    /// so does `c`.
    #[test]
    fn a_setup_changed_by_a_key_is_told_until_the_step_restarts() {
        let mut app = open(TWO_STEPS, 0);
        app.advance_to(NS_PER_SEC / 2);
        app.update(Msg::Window);
        assert!(!app.lesson().expect("lesson").changed_by_hand(), "a view key changes no world");
        app.update(Msg::AddDd);
        assert!(app.lesson().expect("lesson").changed_by_hand());
        assert_eq!(app.note(), "added a dd on sda (HDD); r restores the step's own setup");
        let screen =
            |app: &App, w, h| crate::ui::snapshot::text(&crate::ui::snapshot::render(app, w, h)).replace('\u{a0}', " ");
        let big = screen(&app, 160, 48).lines().map(str::trim_end).collect::<Vec<_>>().join(" ");
        assert!(big.contains("! your keys changed the step's setup:"), "{big}");
        let small = screen(&app, 80, 24);
        assert!(small.contains("checks 0/1 ✓ · 1 … · your setup (r: the step's)"), "{small}");
        app.update(Msg::AddDd);
        assert_eq!(app.note(), "added a dd on sda (HDD)", "said once");
        // The next step opens on the changed worlds, and says so too.
        app.update(Msg::Lesson(LessonMsg::NextStep));
        app.finish_catch_up();
        assert_eq!(app.lesson().expect("lesson").run().step, 1);
        assert!(app.lesson().expect("lesson").changed_by_hand(), "step 2 runs on the keys' setup");
        let small = screen(&app, 80, 24).lines().map(str::trim_end).collect::<Vec<_>>().join(" ");
        assert!(small.contains("! your keys changed the step's setup:"), "{small}");
        assert!(app.note().ends_with("; your keys' setup carries on (r restores the step's own)"), "{}", app.note());
        app.update(Msg::Slower);
        assert!(!app.note().contains("carries on"), "told until the next key: {}", app.note());
        app.update(Msg::Reset);
        assert!(!app.lesson().expect("lesson").changed_by_hand());
        // A key undone by its opposite leaves the step's own setup.
        app.update(Msg::AddDd);
        app.update(Msg::RemoveDd);
        assert!(!app.lesson().expect("lesson").changed_by_hand(), "{}", app.note());
        app.update(Msg::Compare);
        assert!(app.lesson().expect("lesson").changed_by_hand());
        assert!(app.note().ends_with("; r restores the step's own setup"), "{}", app.note());
    }

    /// A step that starts fresh worlds leaves the keys' setup behind, and
    /// says nothing of it.
    #[test]
    fn a_step_that_starts_fresh_worlds_carries_no_keys() {
        let fresh = TWO_STEPS
            .replace("actions: [AddDd(bdi: \"sda\", n: 2), Zoom(4)]", "actions: [Restart, AddDd(bdi: \"sda\", n: 2)]");
        let mut app = open(&fresh, 0);
        app.advance_to(NS_PER_SEC / 2);
        app.update(Msg::AddDd);
        assert!(app.lesson().expect("lesson").changed_by_hand());
        app.update(Msg::Lesson(LessonMsg::NextStep));
        app.finish_catch_up();
        assert_eq!(app.lesson().expect("lesson").run().step, 1);
        assert!(!app.lesson().expect("lesson").changed_by_hand(), "{}", app.note());
        assert_eq!(app.world().tasks().iter().filter(|t| t.alive()).count(), 3, "the step's own dd");
    }

    #[test]
    fn a_lesson_opened_from_the_list_runs_at_1x() {
        let scenario = crate::scenario::presets::get("default").expect("preset").expect("valid");
        let mut app = App::new(scenario, None, &AppOptions::default()).expect("app");
        app.update(Msg::Faster);
        app.update(Msg::Faster);
        assert_eq!(app.speed(), 5.0);
        app.update(Msg::Lesson(LessonMsg::Lessons));
        assert_eq!(app.mode(), Mode::Picker);
        app.update(Msg::Lesson(LessonMsg::PickOpen));
        assert!(app.lesson().is_some());
        assert_eq!(app.speed(), 1.0, "as `dirtyviz lesson ID` opens it");
    }

    /// The help opened over the lesson list takes the keys, and Esc closes
    /// it, not the list (it closed the list and left the help open); a
    /// recording of key format 5 replays as it was made.
    #[test]
    fn the_help_over_the_lesson_list_takes_the_keys() {
        for keys_before_6 in [false, true] {
            let opts = AppOptions { keys_before_6, ..AppOptions::default() };
            let mut app = App::lesson_picker(vec![lesson(TWO_STEPS)], Progress::default(), &opts).expect("opens");
            app.update(Msg::Help);
            assert_eq!(app.mode(), Mode::Help);
            app.update(Msg::Back);
            if keys_before_6 {
                assert!(app.picker().is_none() && app.help_open(), "as key format 5 did");
            } else {
                assert!(app.picker().is_some() && !app.help_open());
                assert_eq!(app.mode(), Mode::Picker);
            }
        }
    }

    /// Digits choose a lesson by its number: at 80x24 the list covers the
    /// status line, and `1` `4` did nothing to be seen.
    #[test]
    fn digits_choose_a_lesson_by_its_number() {
        let id = |n: &str| TWO_STEPS.replace("id: \"t\"", &format!("id: \"{n}\""));
        let lessons = ["00", "01", "07", "14"].map(|n| lesson(&id(n))).to_vec();
        let mut app = App::lesson_picker(lessons, Progress::default(), &AppOptions::default()).expect("opens");
        let chosen = |app: &App| app.picker().map(|p| p.lessons[p.selected].id.clone()).expect("list");
        let digit = |app: &mut App, d: char| app.update(Msg::Lesson(LessonMsg::PickDigit(d)));
        digit(&mut app, '1');
        assert_eq!(chosen(&app), "01");
        digit(&mut app, '4');
        assert_eq!(chosen(&app), "14");
        // 147 and 47 are no lesson: 7 alone is.
        digit(&mut app, '7');
        assert_eq!(chosen(&app), "07");
        // Another key starts the number again: 0 7, not 7 0 7.
        app.update(Msg::Lesson(LessonMsg::Pick(true)));
        digit(&mut app, '0');
        digit(&mut app, '7');
        assert_eq!(chosen(&app), "07");
        digit(&mut app, '9');
        assert_eq!(chosen(&app), "07", "no lesson 79 or 09: the choice stays");
        assert_eq!(app.note(), "no lesson 09: the list runs from 00 to 14");
        app.update(Msg::Lesson(LessonMsg::PickOpen));
        assert_eq!(app.lesson().expect("open").run().lesson.id, "07");
    }

    #[test]
    fn the_picker_opens_at_the_lesson_begun_else_the_first_not_done() {
        let lessons = vec![lesson(TWO_STEPS), lesson(&TWO_STEPS.replace("id: \"t\"", "id: \"u\""))];
        let mut progress = Progress::default();
        progress.finished("t", 2);
        let mut app = App::lesson_picker(lessons, progress, &AppOptions::default()).expect("opens");
        assert_eq!(app.picker().expect("list").selected, 1);
        assert_eq!(app.mode(), Mode::Picker);
        app.update(Msg::Lesson(LessonMsg::PickOpen));
        assert_eq!(app.lesson().expect("lesson").run().lesson.id, "u");
        assert!(app.take_progress().is_some_and(|(p, changed)| p.lessons.contains_key("u") && changed == ["u"]));
        // A lesson taken past its first step comes before one only opened
        // (Esc on a fresh list opens the lesson behind it) and one not
        // begun, earlier in the list: Esc goes back to it, at the step left.
        let three = vec![
            lesson(TWO_STEPS),
            lesson(&TWO_STEPS.replace("id: \"t\"", "id: \"u\"")),
            lesson(&TWO_STEPS.replace("id: \"t\"", "id: \"v\"")),
        ];
        let mut progress = Progress::default();
        progress.reached("t", 0, 2);
        progress.reached("v", 1, 2);
        let mut app = App::lesson_picker(three, progress, &AppOptions::default()).expect("opens");
        assert_eq!(app.picker().expect("list").selected, 2);
        app.update(Msg::Back);
        let open = app.lesson().expect("lesson").run();
        assert_eq!((open.lesson.id.as_str(), open.step), ("v", 1));
        // The lesson opened behind a fresh list is recorded only when the
        // list closes onto it.
        let fresh = || App::lesson_picker(vec![lesson(TWO_STEPS)], Progress::default(), &AppOptions::default());
        let mut app = fresh().expect("opens");
        app.update(Msg::Quit);
        assert!(app.take_progress().is_none(), "quit from the list: nothing was opened");
        let mut app = fresh().expect("opens");
        app.update(Msg::Back);
        assert!(app.take_progress().is_some_and(|(p, changed)| p.lessons["t"].step == 0 && changed == ["t"]));
        assert!(app.take_progress().is_none(), "taken once");
    }

    /// TWO_STEPS and a third step that adds a dd on another disk.
    fn three_steps() -> String {
        TWO_STEPS.replace(
            "max: 3)]),\n        ])",
            "max: 3)]),\n            Step(title: \"three\", text: \"last\", actions: [AddDd(bdi: \"sda\", n: 1)], run_s: 3),\n        ])",
        )
    }

    /// Everything a replay must reproduce, to compare two apps by.
    fn state(app: &App) -> String {
        let mode = app.lesson().expect("lesson");
        format!(
            "{} {} {} {:?} {:?} {:?} {} {:?} {:?}",
            app.sim_ns(),
            mode.run().step,
            mode.run().step_start_ns,
            app.zoom(),
            app.paused(),
            app.progress().lessons.get("t").map(|p| p.step),
            app.note(),
            app.world().samples(),
            app.world().tasks()
        )
    }

    /// Advances as frames do: `chunk` at a time while the replay runs.
    fn frames(app: &mut App, chunk: u64) -> usize {
        let mut n = 0;
        while app.catching_up() && n < 1000 {
            app.advance_to(app.sim_ns() + chunk);
            n += 1;
        }
        n
    }

    /// `N` replayed the lesson up to the step in one go (0.6 s with no
    /// frame drawn in lesson 11): the worlds restart where the lesson
    /// starts and the replay runs over the next advances, saying how far
    /// it got, to the very worlds the one-go replay made.
    #[test]
    fn going_back_replays_the_lesson_over_the_next_advances_to_the_same_worlds() {
        let three = three_steps();
        let mut app = open(&three, 2);
        app.advance_to(5 * NS_PER_SEC);
        app.update(Msg::Lesson(LessonMsg::PrevStep));
        assert!(app.catching_up() && !app.paused());
        assert_eq!(
            (app.sim_ns(), app.lesson().expect("lesson").run().step),
            (0, 0),
            "restarted where the lesson starts"
        );
        assert_eq!(app.note(), "replaying the lesson up to step 2: 0.0 of 2.0 s (q quits)");
        assert_eq!(app.progress().lessons["t"].step, 1, "the step being opened");
        app.advance_to(NS_PER_SEC * 7 / 10);
        assert_eq!(app.note(), "replaying the lesson up to step 2: 0.7 of 2.0 s (q quits)");
        app.advance_to(10 * NS_PER_SEC);
        assert!(!app.catching_up(), "no further than the step's start in one advance");
        assert_eq!(state(&app), state(&open(&three, 1)));
        // In chunks that do not fall on the steps' ends, from step 3 to 1.
        let mut app = open(&three, 2);
        app.advance_to(5 * NS_PER_SEC);
        app.update(Msg::Lesson(LessonMsg::PrevStep));
        app.update(Msg::Lesson(LessonMsg::PrevStep));
        assert!(!app.catching_up(), "step 1 opens at once: nothing to replay");
        app.update(Msg::Lesson(LessonMsg::NextStep));
        app.finish_catch_up();
        app.update(Msg::Lesson(LessonMsg::NextStep));
        app.finish_catch_up();
        assert_eq!(app.lesson().expect("lesson").run().step, 2);
        app.update(Msg::Reset);
        assert_eq!(app.note(), "replaying the lesson up to step 3: 0.0 of 4.0 s (q quits)");
        assert!(frames(&mut app, NS_PER_SEC * 3 / 10) > 10);
        assert_eq!(app.note(), "step 3 restarted");
        let mut once = open(&three, 2);
        once.note = "step 3 restarted".into();
        assert_eq!(state(&app), state(&once));
    }

    /// While the lesson replays, `n` and `N` are about the step it
    /// replays up to, and headless runs run the replay at once.
    #[test]
    fn keys_during_a_replay_move_the_step_it_opens() {
        let three = three_steps();
        let mut app = open(&three, 2);
        app.update(Msg::Reset);
        app.advance_to(NS_PER_SEC);
        app.update(Msg::Lesson(LessonMsg::NextStep));
        assert_eq!(app.note(), "replaying the lesson up to step 3: 1.0 of 4.0 s (q quits)", "no step 4");
        app.update(Msg::Lesson(LessonMsg::PrevStep));
        assert_eq!(app.note(), "replaying the lesson up to step 2: 0.0 of 2.0 s (q quits)", "restarted");
        app.advance_to(NS_PER_SEC);
        app.update(Msg::Lesson(LessonMsg::NextStep));
        assert_eq!(app.note(), "replaying the lesson up to step 3: 1.0 of 4.0 s (q quits)", "runs on");
        app.finish_catch_up();
        assert!(!app.catching_up());
        assert_eq!(state(&app), state(&open(&three, 2)));
    }

    /// A session recorded while the lesson replayed over the frames
    /// (`N`, then `r` part-way) replays to the same worlds.
    #[test]
    fn a_recording_made_while_replaying_replays_exactly() {
        let three = three_steps();
        let mut app = open(&three, 2);
        app.start_recording();
        app.advance_to(5 * NS_PER_SEC);
        app.update(Msg::Lesson(LessonMsg::PrevStep));
        for _ in 0..3 {
            app.advance_to(app.sim_ns() + NS_PER_SEC / 4);
        }
        app.update(Msg::Reset);
        frames(&mut app, NS_PER_SEC / 3);
        app.advance_to(app.sim_ns() + NS_PER_SEC / 2);
        let log = app.take_record();
        assert!(log.len() > 10, "{log:?}");
        let mut replayed = open(&three, 2);
        for entry in log {
            replayed.replay(entry);
        }
        assert_eq!(replayed.lesson().expect("lesson").run().step, 1);
        assert_eq!(state(&replayed), state(&app));
        assert_eq!(app.sim_ns(), 2 * NS_PER_SEC + NS_PER_SEC / 2);
    }
}
