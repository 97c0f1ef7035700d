//! `dirtyviz check`: validates lesson and scenario files and runs each
//! lesson headless, verifying that its checks hold at their step.

use std::time::Instant;

use super::runner::{CheckReport, QuestionReport, run_headless};
use super::{Lesson, SHIPPED};
use crate::scenario::locate::after_comments;
use crate::scenario::{Scenario, presets};

/// What a file to check holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `Lesson(...)`.
    Lesson,
    /// `Scenario(...)`.
    Scenario,
}

/// The kind of a RON file, from its first word after comments.
pub fn kind_of(text: &str) -> Option<Kind> {
    let rest = after_comments(text);
    if rest.starts_with("Lesson") {
        Some(Kind::Lesson)
    } else if rest.starts_with("Scenario") || rest.starts_with('(') {
        Some(Kind::Scenario)
    } else {
        None
    }
}

/// One thing to check: where it came from and its text.
#[derive(Clone, Debug)]
pub struct Source {
    /// Shown in messages: the path, or where a shipped file lives in the source.
    pub origin: String,
    /// The RON text, or why it could not be read.
    pub text: Result<String, String>,
    /// A preset: a scenario whatever its first word.
    pub preset: bool,
}

/// Every shipped lesson and preset.
pub fn shipped_sources() -> Vec<Source> {
    let lessons = SHIPPED.iter().map(|(file, text)| Source {
        origin: format!("lessons/{file}"),
        text: Ok(text.to_string()),
        preset: false,
    });
    let scenarios = presets::PRESETS.iter().map(|(name, text)| Source {
        origin: format!("assets/scenarios/{name}.ron"),
        text: Ok(text.to_string()),
        preset: true,
    });
    lessons.chain(scenarios).collect()
}

/// The sources the command line names: files, shipped lesson ids or
/// preset names (a file of that name wins). A bare name that is none of
/// them is told with the ids and presets there are, as `lesson` tells it.
pub fn sources(args: &[String]) -> Vec<Source> {
    args.iter()
        .map(|a| {
            let path = std::path::Path::new(a);
            if !path.exists() {
                if let Some((file, text)) = Lesson::shipped_file(a) {
                    return Source { origin: format!("lessons/{file}"), text: Ok(text.to_string()), preset: false };
                }
                if let Some((name, text)) = presets::PRESETS.iter().find(|(name, _)| name == a) {
                    let origin = format!("assets/scenarios/{name}.ron");
                    return Source { origin, text: Ok(text.to_string()), preset: true };
                }
                // A bare word (no `/`, no `.`) is a name, not a file.
                if !a.contains(['/', '.']) && std::fs::symlink_metadata(path).is_err() {
                    return Source { origin: a.clone(), text: Err(unknown(a)), preset: false };
                }
            }
            let text = crate::input::read_text(path, "lesson or scenario", crate::input::MAX_RON_BYTES)
                .map_err(|e| e.to_string());
            Source { origin: a.clone(), text, preset: false }
        })
        .collect()
}

/// Why `name`, neither a file nor a shipped lesson or preset, cannot be checked.
fn unknown(name: &str) -> String {
    let ids: Vec<&str> = SHIPPED.iter().map(|(f, _)| &f[..2]).collect();
    let presets = presets::names();
    format!(
        "{name}: not a file, a lesson id ({}) or a preset ({}){}",
        ids.join(", "),
        presets.join(", "),
        crate::error::did_you_mean(name, ids.iter().copied().chain(presets.iter().copied()))
    )
}

/// What checking one source found.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The source's origin.
    pub origin: String,
    /// One line: what it is and how it went.
    pub summary: String,
    /// Every check of a lesson, in step order.
    pub checks: Vec<CheckReport>,
    /// Every question of a lesson with its answer, in step order.
    pub questions: Vec<QuestionReport>,
    /// What is wrong, one message each; empty when it passed.
    pub failures: Vec<String>,
}

impl Outcome {
    /// Nothing is wrong.
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

/// What a source holds, read and checked as `dirtyviz run --scenario`
/// or `dirtyviz lesson` loads it.
#[derive(Clone, Debug)]
pub enum Loaded {
    /// A scenario whose world can be built.
    Scenario(Box<Scenario>),
    /// A lesson, its scenario and steps checked.
    Lesson(Box<Lesson>),
}

/// Reads a source as dirtyviz loads a file: the first thing wrong with it
/// is one line, `origin:line:col: ...` (`origin: ...` when unreadable).
pub fn load(source: &Source) -> crate::error::Result<Loaded> {
    let origin = &source.origin;
    let text = source.text.as_ref().map_err(|e| crate::error::Error::invalid(e.clone()))?;
    let text = crate::input::without_bom(text);
    let kind = if source.preset { Some(Kind::Scenario) } else { kind_of(text) };
    if kind.is_none() {
        // What a comment left open hid (the files parsed below say so
        // themselves).
        crate::scenario::locate::refuse_unclosed_comment(text, origin)?;
    }
    match kind {
        None if after_comments(text).is_empty() => Err(crate::error::Error::invalid(format!(
            "{origin}: empty: a lesson file holds one `Lesson(...)`, a scenario file one `Scenario(...)`"
        ))),
        None => {
            let (line, col) = crate::scenario::locate::line_col(text, text.len() - after_comments(text).len());
            Err(crate::error::Error::invalid(format!(
                "{origin}:{line}:{col}: expected a `Lesson(...)` or a `Scenario(...)`"
            )))
        }
        Some(Kind::Scenario) => {
            let mut s = Scenario::from_ron(text, origin)?;
            s.name_after_file(std::path::Path::new(origin));
            s.to_world_in(origin, text)?;
            Ok(Loaded::Scenario(Box::new(s)))
        }
        Some(Kind::Lesson) => Ok(Loaded::Lesson(Box::new(Lesson::from_ron(text, origin)?))),
    }
}

/// Checks one source: loads it ([`load`]) and, for a lesson, runs every
/// step with its own seed, or with `seed` when given, and evaluates its
/// checks. A source that cannot be loaded fails with why.
pub fn check(source: &Source, seed: Option<u64>) -> Outcome {
    match load(source) {
        Ok(loaded) => check_loaded(&source.origin, &loaded, seed),
        Err(e) => Outcome {
            origin: source.origin.clone(),
            summary: format!("{}: cannot be loaded", source.origin),
            checks: Vec::new(),
            questions: Vec::new(),
            failures: vec![e.to_string()],
        },
    }
}

/// Checks what was loaded from `origin`: a scenario passes; a lesson runs
/// every step with its own seed, or with `seed` when given, and evaluates
/// its checks.
pub fn check_loaded(origin: &str, loaded: &Loaded, seed: Option<u64>) -> Outcome {
    let origin = origin.to_string();
    let fail = |summary: String, why: String| Outcome {
        origin: origin.clone(),
        summary,
        checks: Vec::new(),
        questions: Vec::new(),
        failures: vec![why],
    };
    match loaded {
        Loaded::Scenario(s) => Outcome {
            origin: origin.clone(),
            summary: format!("{origin}: scenario `{}` is valid", s.name),
            checks: Vec::new(),
            questions: Vec::new(),
            failures: Vec::new(),
        },
        Loaded::Lesson(lesson) => {
            let lesson = lesson.as_ref().clone().with_seed(seed);
            let start = Instant::now();
            let (checks, questions) = match run_headless(&lesson) {
                Ok(r) => (r.checks, r.questions),
                Err(e) => return fail(format!("{origin}: lesson {} cannot run", lesson.id), format!("{origin}: {e}")),
            };
            let mut failures: Vec<String> = checks
                .iter()
                .filter(|c| !c.pass)
                .map(|c| {
                    format!(
                        "{origin}: lesson {} \"{}\", step {} \"{}\", check \"{}\" ({}, {}): {} not in {}",
                        lesson.id, lesson.title, c.step, c.step_title, c.label, c.metric, c.reads, c.shown, c.bounds
                    )
                })
                .collect();
            let passed = checks.len() - failures.len();
            // A question no answer can be judged against (its kernel does
            // not compute what it asks, or the step gives nothing to read).
            failures.extend(questions.iter().filter(|q| q.value.is_none()).map(|q| {
                let why = q.why.as_ref().map(|why| format!(": {why}")).unwrap_or_default();
                format!(
                    "{origin}: lesson {} \"{}\", step {}, question \"{}\": nothing to measure at the step's end{why}",
                    lesson.id, lesson.title, q.step, q.ask
                )
            }));
            Outcome {
                origin: origin.clone(),
                summary: format!(
                    "{origin}: lesson {} \"{}\": {passed}/{} checks hold over {} step{}{} ({:.1} s)",
                    lesson.id,
                    lesson.title,
                    checks.len(),
                    lesson.steps.len(),
                    if lesson.steps.len() == 1 { "" } else { "s" },
                    seed.map(|s| format!(" with seed {s}")).unwrap_or_default(),
                    start.elapsed().as_secs_f64()
                ),
                checks,
                questions,
                failures,
            }
        }
    }
}

/// A measured value as the screen and `check -v` show it: whole numbers
/// from 100 and wherever the value is one (a count: "0 tasks", not "0.000
/// tasks"), one decimal from 10, two from 1, three below; from a
/// billion on with an exponent (an answer typed `1e300` is not 301 digits).
pub fn show(v: f64) -> String {
    if v.is_nan() {
        "nothing to measure".into()
    } else if v.abs() >= 1e9 && v.is_finite() {
        let e = format!("{v:.3e}");
        let (mantissa, exp) = e.split_once('e').expect("an exponent");
        format!("{}e{exp}", mantissa.trim_end_matches('0').trim_end_matches('.'))
    } else if v == 0.0 {
        "0".into()
    } else if v.abs() >= 99.5 || v.fract() == 0.0 {
        format!("{v:.0}")
    } else if v.abs() >= 9.95 {
        format!("{v:.1}")
    } else if v.abs() >= 0.995 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    }
}

/// A measured value with its unit, as the screen and `check -v` show it:
/// `90.4 MiB/s`, `17.5%`, `1.02×`, `0.953`.
pub fn show_value(v: f64, unit: &str) -> String {
    let text = show(v);
    match unit {
        _ if v.is_nan() => text,
        "" => text,
        "×" | "%" => format!("{text}{unit}"),
        "tasks" if text == "1" => "1 task".into(),
        "pages" if text == "1" => "1 page".into(),
        _ => format!("{text} {unit}"),
    }
}

/// Checks every source, on as many threads as there are CPUs, and returns
/// the outcomes in the sources' order.
pub fn check_all(sources: &[Source]) -> Vec<Outcome> {
    crate::run::on_every_cpu(sources, |s| check(s, None))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_written_short_whatever_their_size() {
        let all: Vec<String> = [0.0, 0.0424, 2.34567, 42.42, 377497.0, 1e300, -2.5e12, 1234567890.0].map(show).into();
        assert_eq!(all, ["0", "0.042", "2.35", "42.4", "377497", "1e300", "-2.5e12", "1.235e9"]);
    }

    #[test]
    fn files_are_told_apart_by_their_first_word() {
        assert_eq!(kind_of("// a lesson\n/* x */ Lesson(id: \"x\")"), Some(Kind::Lesson));
        assert_eq!(kind_of("#![enable(implicit_some)]\nScenario(name: \"x\")"), Some(Kind::Scenario));
        assert_eq!(kind_of("(name: \"x\")"), Some(Kind::Scenario));
        assert_eq!(kind_of("[1, 2]"), None);
    }

    /// A question whose kernel does not compute what it asks (3.1 has no
    /// setpoint) can never be judged: the lesson fails.
    #[test]
    fn a_question_with_nothing_to_measure_fails() {
        let text = "Lesson(id: \"x\", title: \"t\", patch: \"p\", summary: \"s\", scenario: Preset(\"hdd-10dd\"), \
                    patches: 0, steps: [Step(title: \"a\", text: \"b\", run_s: 2, questions: [\
                    Question(ask: \"Setpoint?\", metric: SetpointMb), Question(ask: \"Thresh?\", metric: ThreshMb)])])";
        let o = check(&Source { origin: "q.ron".into(), text: Ok(text.into()), preset: false }, None);
        assert!(!o.passed());
        assert_eq!(
            o.failures,
            ["q.ron: lesson x \"t\", step 1, question \"Setpoint?\": nothing to measure at the step's end: \
                 legacy 3.1 (IO-full) computes no setpoint"]
        );
    }

    #[test]
    fn a_broken_file_fails_with_its_place() {
        let s = Source { origin: "x.ron".into(), text: Ok("Scenario(nme: \"x\")".into()), preset: false };
        let o = check(&s, None);
        assert!(!o.passed());
        assert!(o.failures[0].starts_with("x.ron:1:10: unknown field `nme`"), "{:?}", o.failures);
        let s = Source { origin: "y.ron".into(), text: Ok("// the answer\n  42".into()), preset: false };
        assert_eq!(check(&s, None).failures[0], "y.ron:2:3: expected a `Lesson(...)` or a `Scenario(...)`");
        for empty in ["", "\u{feff}\n", "  // nothing yet\n/* */\n"] {
            let s = Source { origin: "e.ron".into(), text: Ok(empty.into()), preset: false };
            assert_eq!(
                check(&s, None).failures[0],
                "e.ron: empty: a lesson file holds one `Lesson(...)`, a scenario file one `Scenario(...)`"
            );
        }
        let s = Source {
            origin: "z.ron".into(),
            text: Err("z.ron: cannot read lesson or scenario: x".into()),
            preset: false,
        };
        assert_eq!(load(&s).expect_err("unreadable").to_string(), "z.ron: cannot read lesson or scenario: x");
    }

    #[test]
    fn a_lesson_whose_check_cannot_hold_fails_naming_step_and_check() {
        let text = "Lesson(id: \"x\", title: \"t\", patch: \"p\", summary: \"s\", scenario: Preset(\"default\"),\n\
                    steps: [Step(title: \"one\", text: \"b\", run_s: 2),\n\
                    Step(title: \"two\", text: \"b\", run_s: 3, checks: [Check(label: \"impossible\", metric: Tasks, window_s: 1, min: 5)])])";
        let s = Source { origin: "l.ron".into(), text: Ok(text.into()), preset: false };
        let o = check(&s, None);
        assert_eq!(o.checks.len(), 1);
        assert_eq!(o.failures.len(), 1);
        assert!(
            o.failures[0].contains("step 2 \"two\", check \"impossible\" (Tasks, now): 1 task not in >= 5"),
            "{:?}",
            o.failures
        );
    }

    #[test]
    fn values_are_rounded_as_the_screen_shows_them() {
        assert_eq!(show_value(90.37, "MiB/s"), "90.4 MiB/s");
        assert_eq!(show_value(368.64, "MiB"), "369 MiB");
        assert_eq!((show_value(1.0, "tasks"), show_value(2.0, "tasks")), ("1 task".into(), "2 tasks".into()));
        assert_eq!(show_value(99.97, "MiB"), "100 MiB");
        assert_eq!(show_value(9.96, "ms"), "10.0 ms");
        assert_eq!(show_value(1.0234, "×"), "1.02×");
        assert_eq!(show_value(17.46, "%"), "17.5%");
        assert_eq!(show_value(0.9531, ""), "0.953");
        assert_eq!(show_value(f64::NAN, "MiB"), "nothing to measure");
        assert_eq!(show_value(0.0, "tasks"), "0 tasks");
        assert_eq!(show_value(3.0, "MiB/s"), "3 MiB/s");
        assert_eq!(show_value(-0.0, "ms"), "0 ms");
    }
}
