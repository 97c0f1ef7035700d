//! Running a lesson on a session: opening steps (applying their actions),
//! evaluating their checks and questions, and `dirtyviz check`'s headless
//! run of every step.

use super::metric::{Probe, StepSnapshot, measure};
use super::{Action, Check, CompareSpec, Lesson, Question, SideSpec};
use crate::error::{Error, Result};
use crate::session::{Compare, Session, SessionOptions};
use crate::sim::config::{NS_PER_SEC, TaskConfig};
use crate::sim::kernel::PAGE_SIZE;
use crate::sim::{Input, World};

/// Where a check stands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict {
    /// Not enough of the step has run yet.
    Pending,
    /// Holds, with this value.
    Pass(f64),
    /// Does not hold, with this value (NaN: nothing to measure).
    Fail(f64),
    /// An instant before the step's end, where it is judged: its value
    /// now, which may yet change either way (lesson 00's `the dd has
    /// exited` held at 0 s, its dd not yet started).
    Unjudged(f64),
}

/// What a step asks of the view when it opens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ViewRequest {
    /// Show one chart (Some(n)) or all (Some(0)).
    pub zoom: Option<u8>,
    /// Pause the simulation.
    pub pause: bool,
}

/// A lesson in progress on a session.
#[derive(Clone, Debug)]
pub struct LessonRun {
    /// The lesson.
    pub lesson: Lesson,
    /// The open step (index).
    pub step: usize,
    /// When it opened \[ns\].
    pub step_start_ns: u64,
    /// The bdi checks look at unless they name one.
    pub bdi: usize,
    at_step: StepSnapshot,
    /// The session's worlds when the step's clock started
    /// ([`Session::world_id`]).
    world: u64,
}

/// How far an answer was off.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Answer {
    /// The simulation's value.
    pub actual: f64,
    /// Relative error of the answer.
    pub error: f64,
    /// Within the question's tolerance, and what it times happened.
    pub right: bool,
    /// What the question times happened within the step (always, for a
    /// question that times nothing): else `actual` is the step's length.
    pub reached: bool,
}

impl LessonRun {
    /// The lesson's session with step `i` open, reached by running every
    /// step before it for its `run_s` (so going back, or resuming saved
    /// progress, shows what stepping through would have shown).
    /// `opts` says what the session keeps (its trace, its pauses).
    pub fn seek(lesson: Lesson, i: usize, opts: SessionOptions) -> Result<(LessonRun, Session, ViewRequest)> {
        if lesson.steps.is_empty() {
            return Err(Error::invalid(format!("lesson {} has no steps", lesson.id)));
        }
        let scenario = lesson.scenario()?;
        let mut session = Session::new(scenario, None, opts)?;
        let target = i.min(lesson.steps.len() - 1);
        let mut run =
            LessonRun { lesson, step: 0, step_start_ns: 0, bdi: 0, at_step: StepSnapshot::default(), world: 0 };
        let mut view = run.open(&mut session, 0)?;
        for j in 1..=target {
            session.advance_to(run.step_end_ns());
            let v = run.open(&mut session, j)?;
            view = ViewRequest { zoom: v.zoom.or(view.zoom), pause: v.pause };
        }
        Ok((run, session, view))
    }

    /// The worlds were rebuilt since the step's clock started.
    pub fn rebuilt(&self, session: &Session) -> bool {
        session.world_id() != self.world
    }

    /// When the open step's `run_s` is over \[ns\].
    pub fn step_end_ns(&self) -> u64 {
        self.step_start_ns + (self.lesson.steps[self.step].run_s * NS_PER_SEC as f64) as u64
    }

    /// Opens step `i`: applies its actions and starts its clock.
    pub fn open(&mut self, session: &mut Session, i: usize) -> Result<ViewRequest> {
        self.step = i.min(self.lesson.steps.len() - 1);
        let mut view = ViewRequest::default();
        let actions = self.lesson.steps[self.step].actions.clone();
        for a in &actions {
            // Said with the step it belongs to, as a load error is.
            self.act(session, a, &mut view).map_err(|e| e.context(format!("step {}", self.step + 1)))?;
        }
        if !session.options().step_dd_waits && actions.iter().any(|a| matches!(a, Action::AddDd { .. })) {
            // The dd the step added run from its first instant, as one
            // added with `+` does: the task table and chart 4's
            // write_bw/N count them also in a step that opens paused.
            session.start_due();
        }
        self.restart_clock(session);
        Ok(view)
    }

    /// Starts the step's clock now (also after the worlds were rebuilt).
    pub fn restart_clock(&mut self, session: &Session) {
        self.step_start_ns = session.sim_ns;
        self.at_step = StepSnapshot::take(session);
        self.world = session.world_id();
    }

    fn bdi_index(session: &Session, name: &str) -> Option<usize> {
        session.world().bdis().iter().position(|b| b.name == name)
    }

    fn targets(session: &Session, name: &str) -> Vec<usize> {
        if name == "*" {
            (0..session.world().bdis().len()).collect()
        } else {
            Self::bdi_index(session, name).into_iter().collect()
        }
    }

    fn act(&mut self, session: &mut Session, action: &Action, view: &mut ViewRequest) -> Result<()> {
        match action {
            Action::DirtyRatio(r) => session.apply(|_| Some(Input::DirtyRatio(*r))),
            Action::DirtyBackgroundRatio(r) => session.apply(|_| Some(Input::DirtyBackgroundRatio(*r))),
            Action::DirtyBytesMb(mb) => session.apply(|_| Some(Input::DirtyBytes(mb << 20))),
            Action::DirtyBackgroundBytesMb(mb) => session.apply(|_| Some(Input::DirtyBackgroundBytes(mb << 20))),
            Action::MemoryMb(mb) => session.apply(|w: &World| {
                let vm = w.vm();
                let memory = (mb << 20) / PAGE_SIZE;
                let reserved = vm.reserved_pages * memory / vm.memory_pages.max(1);
                Some(Input::Memory { memory, reserved })
            }),
            Action::Patches(p) => session.apply(|_| Some(Input::Patches(*p))),
            Action::AddDd { bdi, n } => {
                for b in Self::targets(session, bdi) {
                    for _ in 0..*n {
                        session.apply(|_| Some(Input::AddTask(TaskConfig::dd(b))));
                    }
                }
            }
            Action::RemoveDd { bdi, n } => {
                for b in Self::targets(session, bdi) {
                    for _ in 0..*n {
                        session.apply(|_| Some(Input::RemoveDd(b)));
                    }
                }
            }
            Action::Compare(spec) => {
                let compare = match spec {
                    CompareSpec::Legacy(n) => Some(Compare::Legacy(*n)),
                    CompareSpec::Linux2638(n) => Some(Compare::Linux2638(*n)),
                    CompareSpec::Patch(n) => Some(Compare::Patch(*n)),
                    CompareSpec::DirtyRatio(r) => Some(Compare::DirtyRatio(*r)),
                    CompareSpec::Off => None,
                };
                session.set_compare(compare)?;
            }
            Action::CompareWith { a, b, changes } => {
                let mut other = session.scenario.clone();
                other.apply(changes);
                session.compare_with(a, b, &other)?;
            }
            Action::Reconfigure(changes) => {
                let mut s = session.scenario.clone();
                s.apply(changes);
                session.reconfigure(s)?;
            }
            Action::SelectBdi(name) => {
                self.bdi =
                    Self::bdi_index(session, name).ok_or_else(|| Error::invalid(format!("unknown bdi `{name}`")))?;
            }
            Action::Zoom(z) => view.zoom = Some(*z),
            Action::Pause => view.pause = true,
            Action::Restart => session.build()?,
        }
        Ok(())
    }

    /// Simulated time the open step has run \[s\].
    pub fn elapsed_s(&self, session: &Session) -> f64 {
        session.sim_ns.saturating_sub(self.step_start_ns) as f64 / NS_PER_SEC as f64
    }

    fn probe_value(
        &self,
        session: &Session,
        metric: super::metric::Metric,
        window_s: f64,
        bdi: &Option<String>,
        side: SideSpec,
    ) -> Option<f64> {
        let bdi = self.bdi_named(session, bdi)?;
        let window_ns = ((window_s * NS_PER_SEC as f64) as u64).min(session.sim_ns.saturating_sub(self.step_start_ns));
        let at = |side: usize| {
            measure(
                metric,
                &Probe { session, side, bdi, window_ns, step_start_ns: self.step_start_ns, at_step: &self.at_step },
            )
        };
        match side {
            SideSpec::A => at(0),
            SideSpec::B => at(1),
            SideSpec::AOverB => Some(at(0)? / at(1)?),
            SideSpec::BOverA => Some(at(1)? / at(0)?),
        }
    }

    /// Where `check` stands now.
    pub fn verdict(&self, session: &Session, check: &Check) -> Verdict {
        let step = &self.lesson.steps[self.step];
        let needed = check.window_s.min(step.run_s);
        // A windowed check waits for its window; one that reads no window
        // (an instant, the step so far) stands as soon as it reads a value
        // (lesson 13's `B reaches 90% within 3 s` waited `4 of 10 s` with
        // B there at 1.2 s).
        let early = self.elapsed_s(session) + 1e-9 < needed;
        if early && check.metric.windowed() {
            return Verdict::Pending;
        }
        let instant = check.reads(step.run_s) == "now";
        match self.probe_value(session, check.metric, check.window_s, &check.bdi, check.side) {
            Some(v) if instant && self.elapsed_s(session) + 1e-9 < step.run_s => Verdict::Unjudged(v),
            Some(v) if check.passes(v) => Verdict::Pass(v),
            Some(v) => Verdict::Fail(v),
            None if early => Verdict::Pending,
            None => Verdict::Fail(f64::NAN),
        }
    }

    /// What `question` measures now: the value its answer is judged against.
    /// Why `metric` read on `side` has nothing to measure, where a side's
    /// kernel does not compute it ([`super::metric::lacks`]).
    pub fn lacks(&self, session: &Session, metric: super::Metric, side: SideSpec) -> Option<String> {
        let sides: &[usize] = match side {
            SideSpec::A => &[0],
            SideSpec::B => &[1],
            SideSpec::AOverB | SideSpec::BOverA => &[0, 1],
        };
        sides.iter().filter_map(|&i| session.sides.get(i)).find_map(|s| super::metric::lacks(metric, &s.world))
    }

    /// The bdi a check or question names, else the one the step selected.
    fn bdi_named(&self, session: &Session, bdi: &Option<String>) -> Option<usize> {
        match bdi {
            Some(name) => Self::bdi_index(session, name),
            None => Some(self.bdi),
        }
    }

    /// Whether what `question` times has happened yet
    /// ([`super::metric::happened`]); a ratio of two sides' has.
    pub fn question_happened(&self, session: &Session, question: &Question) -> bool {
        self.happened(session, question.metric, question.side, &question.bdi)
    }

    /// Whether what `check` times has happened yet, as
    /// [`LessonRun::question_happened`].
    pub fn check_happened(&self, session: &Session, check: &Check) -> bool {
        self.happened(session, check.metric, check.side, &check.bdi)
    }

    fn happened(&self, session: &Session, metric: super::Metric, side: SideSpec, bdi: &Option<String>) -> bool {
        let side = match side {
            SideSpec::A => 0,
            SideSpec::B => 1,
            SideSpec::AOverB | SideSpec::BOverA => return true,
        };
        let Some(bdi) = self.bdi_named(session, bdi) else { return true };
        let probe =
            Probe { session, side, bdi, window_ns: 0, step_start_ns: self.step_start_ns, at_step: &self.at_step };
        super::metric::happened(metric, &probe)
    }

    /// What `question` measures so far over the window its answer is
    /// judged on: the step's last `window_s`, from `run_s − window_s` on
    /// (`None` before that). A sliding window read the step's start-up:
    /// lesson 01 read `427 ms` at 8 s for a question of its last 20 s of
    /// 30, whose answer is 227 ms.
    pub fn measure_question(&self, session: &Session, question: &Question) -> Option<f64> {
        let mut window_s = question.window_s;
        if question.metric.windowed() {
            let from = question_window_from_s(&self.lesson.steps[self.step], question);
            window_s = window_s.min(self.elapsed_s(session) - from);
            if window_s <= 0.0 {
                return None;
            }
        }
        self.probe_value(session, question.metric, window_s, &question.bdi, question.side)
    }
}

/// Where in `step` (seconds from its start) the window that `question`'s
/// answer is judged on begins: its last `window_s`.
pub fn question_window_from_s(step: &super::Step, question: &Question) -> f64 {
    (step.run_s - question.window_s).max(0.0)
}

impl Answer {
    /// Judges `given` as an answer to `question` whose simulation measured
    /// `actual`: at the end of the step, as the checks are judged and as
    /// `dirtyviz check -v` prints it, so that an answer's verdict does not
    /// hang on when it was typed or how fast the world ran meanwhile
    /// (lesson 07's pauses read 16 ms 13 s in, 28 ms at 20 s, 29 ms at
    /// the end).
    ///
    /// A time until something happens that did not happen within the
    /// step (`reached` false) has no right answer: its reading is only
    /// the step's length (lesson 13 with B's dd removed judged `90 s`
    /// right for a B that never reached 90%).
    pub fn judge(question: &Question, actual: f64, given: f64, reached: bool) -> Answer {
        let error = if actual == 0.0 { given.abs() } else { ((given - actual) / actual).abs() };
        Answer { actual, error, right: reached && error <= question.tolerance, reached }
    }
}

/// One check's outcome in a headless run.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckReport {
    /// Step number (1-based).
    pub step: usize,
    /// Step title.
    pub step_title: String,
    /// The check's label.
    pub label: String,
    /// What it reads: `last 10 s`, `whole step`, `now` ([`Check::reads`]).
    pub reads: String,
    /// The metric as the file names it, and in a comparison the side it
    /// reads: `DirtyMb`, `DirtyMb of A` (no `side` written), `DirtyMb
    /// A/B`.
    pub metric: String,
    /// Its bounds, for display, in the unit of `shown`.
    pub bounds: String,
    /// The value measured (NaN: nothing to measure).
    pub value: f64,
    /// The value as the lesson pane writes it, with its unit.
    pub shown: String,
    /// It held.
    pub pass: bool,
}

/// A question's answer in a headless run: what the simulation measured at
/// the end of the step.
#[derive(Clone, Debug, PartialEq)]
pub struct QuestionReport {
    /// Step number (1-based).
    pub step: usize,
    /// The question.
    pub ask: String,
    /// Its metric and side, as [`CheckReport::metric`].
    pub metric: String,
    /// The measured answer; `None`: nothing to measure.
    pub value: Option<f64>,
    /// Its unit, as the screen shows it.
    pub unit: &'static str,
    /// Why there is nothing to measure, where the kernel lacks it.
    pub why: Option<String>,
    /// What it times happened within the step (else `value` is the
    /// step's length).
    pub reached: bool,
}

/// What a headless run of a lesson found at the end of each step.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HeadlessReport {
    /// Every check, in step order.
    pub checks: Vec<CheckReport>,
    /// Every question's answer, in step order.
    pub questions: Vec<QuestionReport>,
}

/// A check's or question's metric as its file names it, with the side it
/// reads where a comparison is open (`compared`): one without `side`
/// reads A.
fn metric_read(metric: super::Metric, side: SideSpec, compared: bool) -> String {
    let side = match (compared, side) {
        (false, _) => "",
        (true, SideSpec::A) => " of A",
        (true, SideSpec::B) => " of B",
        (true, SideSpec::AOverB) => " A/B",
        (true, SideSpec::BOverA) => " B/A",
    };
    format!("{metric:?}{side}")
}

/// Runs every step of `lesson` for its `run_s` and evaluates its checks
/// and questions at the end of the step.
pub fn run_headless(lesson: &Lesson) -> Result<HeadlessReport> {
    let (mut run, mut session, _) = LessonRun::seek(lesson.clone(), 0, SessionOptions::default())?;
    let mut reports = Vec::new();
    let mut questions = Vec::new();
    for i in 0..lesson.steps.len() {
        if i > 0 {
            run.open(&mut session, i)?;
        }
        let step = &lesson.steps[i];
        session.advance_to(run.step_end_ns());
        for check in &step.checks {
            let (value, pass) = match run.verdict(&session, check) {
                Verdict::Pass(v) => (v, true),
                Verdict::Fail(v) => (v, false),
                Verdict::Pending => (f64::NAN, false),
                Verdict::Unjudged(v) => (v, check.passes(v)),
            };
            let (shown, bounds) = check.judged(value);
            let shown = if run.check_happened(&session, check) { shown } else { format!("not reached in {shown}") };
            let why = value.is_nan().then(|| run.lacks(&session, check.metric, check.side)).flatten();
            let shown = why.map_or(shown.clone(), |why| format!("{shown}: {why}"));
            reports.push(CheckReport {
                step: i + 1,
                step_title: step.title.clone(),
                label: check.label.clone(),
                reads: check.reads(step.run_s).replace('\u{a0}', " "),
                metric: metric_read(check.metric, check.side, session.sides.len() > 1),
                bounds,
                value,
                shown,
                pass,
            });
        }
        for q in &step.questions {
            let value = run.measure_question(&session, q);
            questions.push(QuestionReport {
                step: i + 1,
                ask: q.ask.clone(),
                metric: metric_read(q.metric, q.side, session.sides.len() > 1),
                value,
                unit: q.unit(),
                why: value.is_none().then(|| run.lacks(&session, q.metric, q.side)).flatten(),
                reached: run.question_happened(&session, q),
            });
        }
    }
    Ok(HeadlessReport { checks: reports, questions })
}
