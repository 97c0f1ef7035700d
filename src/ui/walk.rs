//! Walking a lesson's screens: every step, at the step's end, drawn as
//! `dirtyviz snapshot --lesson ID --step N` draws it, at each size; what
//! a step's text, hint or questions name (a chart, the task table, the
//! parameter panel) and each question's answer, rounded as the screen
//! rounds it, must be on its screen; at [`TEXT_SIZE`] the step's text,
//! checks and questions must fit without PgDn, also with the hint shown
//! and every question answered. `dirtyviz check --screens` runs it.

use super::snapshot;
use super::view::{PARAMS_TITLE, SHORT_TITLES, TASKS_TITLE};
use crate::app::{App, AppOptions, LessonMsg, Msg, ThemeKind};
use crate::error::{Error, Result};
use crate::lesson::Lesson;
use crate::lesson::check::{show, show_value};
use crate::lesson::progress::Progress;

/// The sizes lesson screens are checked at.
pub const SIZES: &[(u16, u16)] = &[(160, 48), (120, 40)];

/// The size at which a step shows whole, text, checks and questions, with
/// no PgDn to press (smaller screens scroll it, and say so).
pub const TEXT_SIZE: (u16, u16) = (160, 48);

/// What is missing from `lesson`'s screens at `sizes`, one line each
/// (`PLACE: lesson L step N at WxH: ...`, with `place(i)` where step `i`
/// is written: `path:line:col` of its text); empty when nothing is.
pub fn missing(lesson: &Lesson, place: &dyn Fn(usize) -> String, sizes: &[(u16, u16)]) -> Result<Vec<String>> {
    let opts = AppOptions { theme: ThemeKind::Mono, ..AppOptions::default() };
    let mut app = App::for_lesson(lesson.clone(), 0, Progress::default(), &opts)?;
    let mut out = Vec::new();
    for (i, step) in lesson.steps.iter().enumerate() {
        if i > 0 {
            app.update(Msg::Lesson(LessonMsg::NextStep));
            app.finish_catch_up();
        }
        let origin = place(i);
        let Some(mode) = app.lesson() else { return Err(Error::invalid("the lesson closed")) };
        if mode.run().step != i {
            return Err(Error::invalid(format!("step {} did not open", i + 1)));
        }
        let end = mode.run().step_end_ns();
        app.advance_to(end);
        let mode = app.lesson().ok_or_else(|| Error::invalid("the lesson closed"))?;
        let views = step.views();
        let mut wanted: Vec<(String, String)> = Vec::new();
        for (q, question) in step.questions.iter().enumerate() {
            match mode.reading(q) {
                Some(v) => wanted.push((show_value(v, question.unit()), format!("the answer to \"{}\"", question.ask))),
                None => out.push(format!(
                    "{origin}: lesson {} step {}: \"{}\" has nothing to measure at the step's end",
                    lesson.id,
                    i + 1,
                    question.ask
                )),
            }
        }
        for (n, title) in SHORT_TITLES.iter().enumerate() {
            if views.names_chart(n as u8 + 1) {
                // A narrow chart goes by its number alone ("4  rate 11.0 vs …").
                wanted.push((format!("┌ {} ", n + 1), format!("chart {} ({title}), which the step names", n + 1)));
            }
        }
        if views.tasks {
            wanted.push((format!(" {TASKS_TITLE} ("), "the task table, which the step names".into()));
        }
        if views.params {
            // Side by side it is `parameters: left | right`.
            wanted.push((format!(" {PARAMS_TITLE}"), "the parameter panel, which the step names".into()));
        }
        // Whether the step fits at TEXT_SIZE as it opens, to be tried with
        // the hint and verdicts shown too.
        let mut fits = false;
        for &(w, h) in sizes {
            let over = snapshot::scroll_room(&app, w, h).text;
            fits |= (w, h) == TEXT_SIZE && over == 0;
            if (w, h) == TEXT_SIZE && over > 0 {
                out.push(format!(
                    "{origin}: lesson {} step {} at {w}x{h}: the step's text, checks and questions need PgDn \
                     ({over} rows more than the pane shows)",
                    lesson.id,
                    i + 1
                ));
            }
            let screen = snapshot::text(&snapshot::render(&app, w, h));
            for (text, what) in &wanted {
                if !screen.contains(text.as_str()) {
                    out.push(format!(
                        "{origin}: lesson {} step {} at {w}x{h}: {what} ({text:?}) is not on the screen",
                        lesson.id,
                        i + 1
                    ));
                }
            }
        }
        // A class presses h and answers the questions: the hint and each
        // verdict must show at TEXT_SIZE without PgDn too, for an answer
        // far off (1, a first guess) and for the right one. (h on a step
        // without a hint only says so on the status line.)
        if !fits {
            continue;
        }
        let (w, h) = TEXT_SIZE;
        app.update(Msg::Lesson(LessonMsg::Hint));
        let right: Vec<String> = (0..step.questions.len())
            .map(|q| app.lesson().and_then(|m| m.reading(q)).map_or_else(|| "1".into(), show))
            .collect();
        let mut over = snapshot::scroll_room(&app, w, h).text;
        for given in [vec!["1".to_string(); step.questions.len()], right] {
            for answer in &given {
                app.update(Msg::Lesson(LessonMsg::Answer));
                for c in answer.chars() {
                    app.update(Msg::Lesson(LessonMsg::Input(c)));
                }
                app.update(Msg::Lesson(LessonMsg::InputDone));
            }
            over = over.max(snapshot::scroll_room(&app, w, h).text);
        }
        if over > 0 {
            let shown = match (step.hint.is_some(), step.questions.is_empty()) {
                (true, true) => "the hint",
                (true, false) => "the hint and the questions' verdicts",
                (false, _) => "the questions' verdicts",
            };
            out.push(format!(
                "{origin}: lesson {} step {} at {w}x{h}: with {shown} shown, the step needs PgDn \
                 ({over} rows more than the pane shows)",
                lesson.id,
                i + 1
            ));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_named_chart_and_an_answer_are_found_and_a_crowded_step_is_reported() {
        let text = r#"Lesson(id: "w", title: "Walk", patch: "p", summary: "s", scenario: Preset("default"),
            steps: [
                Step(title: "one", text: "Chart 2 and the parameter panel.", run_s: 3,
                     questions: [Question(ask: "What is thresh?", metric: ThreshMb)]),
                Step(title: "two", text: "Charts 1, 2, 3 and 4, and the task table.", run_s: 2,
                     actions: [Compare(Legacy(11))]),
            ])"#;
        let lesson = Lesson::from_ron(text, "w.ron").expect("valid");
        let missing = missing(&lesson, &|_| "w.ron".into(), &[(160, 48)]).expect("walks");
        assert!(missing.iter().all(|m| m.contains("step 2")), "step 1 shows all it names: {missing:?}");
        assert!(!missing.is_empty(), "five panels a side do not fit 48 rows in compare mode");
        assert!(missing[0].starts_with("w.ron: lesson w step 2 at 160x48: "), "{missing:?}");
    }

    #[test]
    fn a_step_whose_text_needs_pgdn_at_160x48_is_reported_and_one_that_fits_is_not() {
        let long = "A sentence of the step's text that takes a row or two of the pane. ".repeat(40);
        let text = format!(
            r#"Lesson(id: "w", title: "Walk", patch: "p", summary: "s", scenario: Preset("default"),
            steps: [
                Step(title: "short", text: "Chart 1.", run_s: 1),
                Step(title: "long", text: "{long}", run_s: 1),
            ])"#
        );
        let lesson = Lesson::from_ron(&text, "w.ron").expect("valid");
        let missing = missing(&lesson, &|_| "w.ron".into(), &[(160, 48), (220, 60)]).expect("walks");
        assert_eq!(missing.len(), 1, "{missing:?}");
        assert!(
            missing[0]
                .starts_with("w.ron: lesson w step 2 at 160x48: the step's text, checks and questions need PgDn ("),
            "{missing:?}"
        );
    }

    #[test]
    fn a_step_that_fits_until_h_is_pressed_or_a_question_answered_is_reported() {
        let lesson = |sentences: usize, hint: &str| {
            let text = "A sentence of the step's text that takes a row or two of the pane. ".repeat(sentences);
            let text = format!(
                r#"Lesson(id: "w", title: "Walk", patch: "p", summary: "s", scenario: Preset("default"),
                steps: [
                    Step(title: "one", text: "{text}", run_s: 1{hint},
                         questions: [Question(ask: "What is thresh?", metric: ThreshMb)]),
                    Step(title: "two", text: "Chart 1.", run_s: 1, hint: "chart 1"),
                ])"#
            );
            Lesson::from_ron(&text, "w.ron").expect("valid")
        };
        let hint = r#", hint: "chart 1 draws it""#;
        // The longest text that fits the pane as the step opens, and has
        // no room left for the hint (3 rows) and the verdict (2).
        let longest = (20..60)
            .take_while(|&n| {
                let walked = missing(&lesson(n, hint), &|_| "w.ron".into(), &[TEXT_SIZE]).expect("walks");
                walked.iter().all(|m| m.contains("with the hint"))
            })
            .last()
            .expect("20 sentences fit");
        let walked = missing(&lesson(longest, hint), &|_| "w.ron".into(), &[TEXT_SIZE]).expect("walks");
        assert_eq!(walked.len(), 1, "{walked:?}");
        assert!(
            walked[0].starts_with(
                "w.ron: lesson w step 1 at 160x48: with the hint and the questions' verdicts shown, the step \
                 needs PgDn ("
            ),
            "{walked:?}"
        );
        // Without a hint, h adds nothing to the pane: only the verdict (2
        // rows) has to find room, and the longest text with no room for it
        // is reported as such.
        let walked: Vec<Vec<String>> = (20..=longest)
            .map(|n| missing(&lesson(n, ""), &|_| "w.ron".into(), &[TEXT_SIZE]).expect("walks"))
            .collect();
        assert!(walked.iter().flatten().all(|m| !m.contains("hint")), "{walked:?}");
        assert!(
            walked.iter().any(|w| w.len() == 1
                && w[0].starts_with(
                    "w.ron: lesson w step 1 at 160x48: with the questions' verdicts shown, the step needs PgDn ("
                )),
            "a text that fits, but not with its verdict: {walked:?}"
        );
        // Those without room for the verdict are fewer than those without
        // room for the hint and the verdict.
        let hinted = (20..=longest)
            .filter(|&n| !missing(&lesson(n, hint), &|_| "w.ron".into(), &[TEXT_SIZE]).expect("walks").is_empty())
            .count();
        assert!(walked.iter().filter(|w| !w.is_empty()).count() < hinted, "{walked:?}");
        // Text short enough for both is not reported.
        let walked = missing(&lesson(longest - 6, hint), &|_| "w.ron".into(), &[TEXT_SIZE]).expect("walks");
        assert!(walked.is_empty(), "{walked:?}");
    }
}
