//! `dirtyviz snapshot`: the dashboard's screens without a terminal, run as
//! a user runs it.

use super::common::{chart_corner, dirtyviz, empty_dir, interrupted, ok, plot_rows, side_by_side_ticks, tmp};

fn snapshot(args: &[&str]) -> String {
    let out = dirtyviz().arg("snapshot").args(args).output().expect("runs");
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("utf-8")
}

/// The text of an SVG's `<text>` elements, row by row (rows by `y`).
fn svg_rows(svg: &str) -> Vec<String> {
    let mut rows: Vec<(f64, String)> = Vec::new();
    for part in svg.split("<text ").skip(1) {
        let y: f64 = part.split("y=\"").nth(1).and_then(|r| r.split('"').next()).expect("y").parse().expect("number");
        let body = part.split_once('>').expect("opening tag").1.split("</text>").next().expect("closed");
        // Characters placed one by one are in `<tspan>`s of their own.
        let body: String = body
            .split('<')
            .enumerate()
            .map(|(i, s)| if i == 0 { s } else { s.split_once('>').map_or("", |t| t.1) })
            .collect();
        let text = body
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&apos;", "'")
            .replace("&amp;", "&");
        match rows.last_mut() {
            Some((ly, line)) if (*ly - y).abs() < 0.01 => line.push_str(&text),
            _ => rows.push((y, text)),
        }
    }
    rows.into_iter().map(|(_, l)| l).collect()
}

#[test]
fn the_dashboard_as_text_and_as_an_svg_holding_the_same_characters() {
    let text = snapshot(&["--scenario", "default", "--at", "30s", "--size", "160x48"]);
    assert_eq!(text.lines().count(), 48);
    assert!(text.starts_with(" dirtyviz │ default │ t 30.0 s"), "{text}");
    assert!(text.contains("1 global dirty pages") && text.contains("5 pauses"), "{text}");
    let svg = snapshot(&["--scenario", "default", "--at", "30s", "--size", "160x48", "--format", "svg"]);
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\"") && svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("<text").count(), svg.matches("</text>").count(), "every element closed");
    // Blanks are not drawn: compare the characters that are.
    let ink = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    let from_svg: String = svg_rows(&svg).iter().map(|r| ink(r)).collect();
    assert_eq!(from_svg, ink(&text), "the SVG holds the same characters");
    let ansi = snapshot(&["--scenario", "default", "--at", "5s", "--size", "80x24", "--format", "ansi"]);
    assert!(ansi.contains("\x1b[") && ansi.lines().count() == 24);
}

#[test]
fn chart_5s_longest_pauses_are_the_traces_at_every_width() {
    let trace = tmp("pauses.jsonl");
    let out = dirtyviz()
        .args(["run", "-q", "--scenario", "hdd-100dd", "--duration", "60s", "--trace"])
        .arg(&trace)
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let (mut sleep, mut call) = (0u64, 0u64);
    for line in std::fs::read_to_string(&trace).expect("trace").lines() {
        let e: serde_json::Value = serde_json::from_str(line).expect("JSON");
        match e["event"].as_str() {
            Some("balance_dirty_pages") => sleep = sleep.max(e["pause"].as_u64().expect("pause")),
            Some("task_throttled") => call = call.max(e["duration"].as_u64().expect("duration")),
            _ => {}
        }
    }
    // HZ 1000: a jiffy is a millisecond.
    let want = format!("longest sleep {sleep} ms, longest call {call} ms");
    for w in ["120x40", "160x48", "220x60"] {
        let text = snapshot(&["--scenario", "hdd-100dd", "--at", "60s", "--size", w]);
        assert!(text.contains(&want), "{w}: {want}\n{text}");
    }
}

#[test]
fn a_lesson_step_at_its_end_and_keys_pressed_at_the_start() {
    let text = snapshot(&["--lesson", "03", "--step", "4", "--size", "120x40"]);
    assert!(text.contains("step 4/5") && text.contains("Move the setpoint"), "{text}");
    assert!(text.contains("at step end: thresh, last 10 s: 369 MiB"), "{text}");
    let text = snapshot(&["--scenario", "hdd-10dd", "--at", "5s", "--keys", "c 4 space", "--size", "160x48"]);
    assert!(text.contains("A legacy 3.1 vs B patch 11") && text.contains("PAUSED"), "{text}");
    assert_eq!(text.matches("4 rates").count(), 2, "chart 4 on both sides\n{text}");
}

/// A step that pauses the world as it opens (lesson 04 step 2 adds nine dd
/// and pauses; lesson 00 step 1 pauses) is drawn at its end, where its
/// checks are judged, as --at's help says: it was drawn at its start
/// (`t 30.0 s` for step 2, which runs 30 to 35 s; lesson 00 at `t 0.0 s`).
/// Keys that pause or step the world still leave it there (`.`: 0.1 s).
#[test]
fn a_step_that_pauses_as_it_opens_is_drawn_at_its_end() {
    let status = |args: &[&str]| {
        snapshot(&[args, &["--size", "100x30", "--theme", "mono"][..]].concat())
            .lines()
            .next()
            .map(String::from)
            .expect("status")
    };
    let s = status(&["--lesson", "04", "--step", "2"]);
    assert!(s.starts_with(" t 35.0 s │") && s.contains("step done"), "{s}");
    let s = status(&["--lesson", "00", "--step", "1"]);
    assert!(s.starts_with(" t 30.0 s │") && s.contains("step done"), "{s}");
    let s = status(&["--lesson", "00", "--step", "1", "--keys", "."]);
    assert!(s.contains("│ t 0.1 s │") && s.contains("PAUSED"), "{s}");
}

/// T in a lesson where one panel fits shows the task table in its place:
/// at 60x18 and 80x24 the hint bar offered `↑ ↓ scroll one task` for a
/// table left out, chart 1 still drawn.
#[test]
fn t_in_a_small_lesson_shows_the_task_table() {
    for size in ["60x18", "80x24"] {
        let text = snapshot(&["--lesson", "03", "--at", "5s", "--keys", "T", "--size", size, "--theme", "mono"]);
        assert!(text.contains("┌ tasks (1 live)") && text.contains("nr_dirtied_pause"), "{size}\n{text}");
        assert!(text.contains("Esc T leave the table"), "{size}\n{text}");
    }
}

/// PgDn pressed at a step's start scrolls the step's text as far as the
/// key would on the screen the snapshot shows, the step's end, whose
/// judged checks take more rows than the live ones at its start: lesson
/// 15 step 4 at 100x30 stopped 5 rows short, "checks 5/5 ✓ · ▼ PgDn"
/// where the key pressed at the end shows the five checks.
#[test]
fn pgdn_at_the_start_scrolls_as_far_as_on_the_screen_shown() {
    for (lesson, step, size, end) in [("15", "4", "100x30", "20s"), ("15", "2", "100x30", "30s")] {
        let at_start = snapshot(&["--lesson", lesson, "--step", step, "--size", size, "--keys", "PgDn"]);
        let at_end = &format!("@{end} pgdn");
        let pressed_at_end = snapshot(&["--lesson", lesson, "--step", step, "--size", size, "--keys", at_end]);
        assert_eq!(at_start, pressed_at_end, "lesson {lesson} step {step}");
        assert!(at_start.contains("checks over the "), "{at_start}");
    }
}

/// `@TIME` in `--keys` runs the world on before the keys after it. An
/// answer is judged at the step's end whenever it was typed (15 s in, the
/// median pause so far would still be the step's start; 20 s in it read
/// 28 ms, at the end 29), its verdict whole at 60x18; before the end it
/// is kept, and says when it will be judged.
#[test]
fn keys_after_a_time_are_pressed_then() {
    for keys in ["a 2 9 enter", "@15s a 2 9 enter", "@20s a 2 9 enter"] {
        let text = snapshot(&["--lesson", "07", "--size", "60x18", "--at", "25s", "--keys", keys]);
        assert!(text.contains("judged at the step's end, in 5 s"), "{keys}: {text}");
        let judged = snapshot(&["--lesson", "07", "--size", "60x18", "--keys", keys]);
        assert!(judged.contains("you said 29 ms, the simulation says 29 ms: 0% off"), "{keys}: {judged}");
    }
    let later = snapshot(&["--lesson", "07", "--size", "60x18", "--keys", "@20s a 2 4 enter"]);
    assert!(later.contains("you said 24 ms, the simulation says 29 ms: 17% off"), "{later}");
    assert!(later.contains("(within 15% counts)"), "{later}");
    // The time goes on to --at afterwards: the step's end by default.
    assert!(later.contains("t 30.0 s"), "{later}");
    // A snapshot is drawn at --at, paused or not.
    let world = snapshot(&["--keys", "@5s space", "--at", "9s", "--size", "100x30"]);
    assert!(world.contains("t 9.0 s") && world.contains("PAUSED"), "{world}");
}

/// In the first second the task table counts the dd that started, as the
/// panel does, and shows no rate yet (it read `tasks (0 live)` over a dd
/// row dirtying `0.00` MiB/s while chart 1 climbed at 950 MiB/s).
#[test]
fn the_first_second_counts_its_tasks_and_shows_no_rate_yet() {
    let text = snapshot(&["--at", "0.5s", "--size", "160x48"]);
    assert!(text.contains("tasks (1 live)"), "{text}");
    let row = text.lines().find(|l| l.contains("0     dd        sda")).expect("the dd's row");
    assert!(row.contains("sda    –"), "{row}");
    let later = snapshot(&["--at", "1.5s", "--size", "160x48"]);
    assert!(!later.lines().any(|l| l.contains("0     dd        sda    –")), "{later}");
}

/// A comparison opened paused before the world ran knows no threshold
/// yet, as the parameters say (its heads said `thresh 0 MiB` on both
/// sides, also of two dirty ratios).
#[test]
fn a_comparison_before_the_first_sample_knows_no_threshold() {
    for keys in ["space c", "space c c c c"] {
        let text = snapshot(&["--keys", keys, "--size", "160x48"]);
        let head = text.lines().nth(2).expect("the heads");
        assert_eq!(head.matches("thresh – │ setpoint –").count(), 2, "{keys}: {head}");
    }
    let text = snapshot(&["--keys", "space c .", "--size", "160x48"]);
    let head = text.lines().nth(2).expect("the heads");
    assert_eq!(head.matches("thresh 737 MiB").count(), 2, "known after a step: {head}");
}

/// In mono, chart 5's calls are told from its sleeps by a mark (both were
/// the same dots): 3.1's 227 ms calls stand as `×` over its 100 ms
/// sleeps, and a call that is one sleep keeps the sleep's dots.
#[test]
fn mono_tells_calls_from_sleeps() {
    let text = snapshot(&["--patches", "legacy", "--theme", "mono", "--keys", "5", "--at", "30s", "--size", "100x30"]);
    assert!(text.contains("└ • sleep × throttling call ━ max_pause"), "{text}");
    let row_of = |label: &str| text.lines().position(|l| l.starts_with(&format!("│{label}┤"))).expect(label);
    let (top, hundred) = (row_of("250"), row_of("100"));
    // The rows between 250 and 200 ms hold the calls alone.
    assert!(text.lines().skip(top).take(4).any(|l| l.contains('×')), "{text}");
    assert!(text.lines().skip(top).take(hundred - top).all(|l| !l.contains(['⠁', '⠈', '⠐', '⠂'])), "{text}");
    let io_less = snapshot(&["--theme", "mono", "--keys", "5", "--at", "30s", "--size", "100x30"]);
    let marks = io_less.matches('×').count();
    assert!(marks < 10, "one dd's calls are its sleeps, dots: {marks} marks\n{io_less}");
}

/// `h` is offered where the step has a hint (lesson 04's third has none:
/// `h` there said `this step has no hint`).
#[test]
fn the_hint_key_is_offered_where_there_is_a_hint() {
    let shot = |step: &str| snapshot(&["--lesson", "04", "--step", step, "--at", "5s", "--size", "160x48"]);
    assert!(shot("1").contains("h hint"));
    assert!(!shot("3").contains("h hint"), "{}", shot("3"));
}

/// Keys that pause the world leave it where they paused it, as on the
/// dashboard: `.` steps 100 ms, and without --at the snapshot is taken
/// there, not at the scenario's end.
#[test]
fn keys_that_pause_stop_the_world_there() {
    let text = snapshot(&["--scenario", "hdd-10dd", "--keys", "@0.5s space . .", "--size", "100x30"]);
    assert!(text.contains("t 0.7 s") && text.contains("PAUSED"), "{text}");
    let text = snapshot(&["--scenario", "hdd-10dd", "--keys", "@2s space", "--size", "100x30"]);
    assert!(text.contains("t 2.0 s") && text.contains("PAUSED"), "{text}");
    // Resumed, it runs on to the end.
    let text = snapshot(&["--scenario", "hdd-10dd", "--keys", "@2s space . space", "--size", "100x30"]);
    assert!(text.contains("t 60.0 s") && !text.contains("PAUSED"), "{text}");
    // In a lesson, paused halfway through the step.
    let text = snapshot(&["--lesson", "07", "--keys", "@10s space", "--size", "100x30"]);
    assert!(text.contains("t 10.0 s") && text.contains("PAUSED"), "{text}");
}

#[test]
fn the_output_file_is_written_whole_and_bad_input_is_one_line() {
    let path = tmp("shot.svg");
    // A file named .svg is an SVG image without --format too.
    let out = dirtyviz().args(["snapshot", "--at", "2s", "-o"]).arg(&path).output().expect("runs");
    assert!(out.status.success() && out.stdout.is_empty());
    assert!(std::fs::read_to_string(&path).expect("written").trim_end().ends_with("</svg>"));
    let out = dirtyviz().args(["snapshot", "--at", "2s", "--format", "text", "-o"]).arg(&path).output().expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--format text: --output") && err.contains("names an SVG image"), "{err}");
    assert!(std::fs::read_to_string(&path).expect("kept").trim_end().ends_with("</svg>"), "the image stays");
    let dir = path.parent().expect("dir");
    // Other tests write their outputs into the same directory meanwhile:
    // only this file's temporary files count.
    let leftovers = std::fs::read_dir(dir).expect("dir").filter_map(Result::ok);
    assert!(!leftovers.into_iter().any(|e| e.file_name().to_string_lossy().starts_with(".shot.svg")));
    for (args, want) in [
        (&["--keys", "ctrl-q-x"][..], "unknown key `ctrl-q-x`"),
        // The error lists every name --keys takes, as its help does.
        (
            &["--keys", "f13"][..],
            "tab, backtab, up, down, pgup, pgdn, left, right, home, end, backspace, delete, insert, f1-f12, ctrl-<character>",
        ),
        (&["--size", "0x10"][..], "WIDTHxHEIGHT"),
        (&["--lesson", "03", "--dd", "5"][..], "world options do not apply"),
        (&["--lesson", "03", "--step", "9"][..], "lesson 03 has 5 steps"),
        // Past its step's end a lesson shows that end: not under another time.
        (
            &["--lesson", "03", "--step", "1", "--at", "31s"][..],
            "--at 31 s: step 1 of lesson 03 runs 30 s and stops there",
        ),
        (&["--step", "2"][..], "--lesson"),
        (&["--keys", "@soon a"][..], "--keys: invalid time `@soon`: must be a time such as 60s"),
        (&["--keys", "@20s a @10s"][..], "--keys @10s: the world is past that time already"),
        (&["--lesson", "07", "--keys", "@31s"][..], "--keys time 31 s: step 1 of lesson 07 runs 30 s and stops there"),
    ] {
        let out = dirtyviz().arg("snapshot").args(args).output().expect("runs");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want) && err.lines().count() == 1, "{args:?}: {err}");
    }
}

/// The value the parameter panel (the rightmost box) gives `key`.
fn panel_value(text: &str, key: &str) -> Option<String> {
    text.lines().find_map(|l| {
        let cell = l.trim_end_matches('│').rsplit('│').next()?;
        let rest = cell.strip_prefix(key)?.strip_prefix(' ')?;
        Some(rest.trim().to_string())
    })
}

#[test]
fn the_parameter_panel_gives_thresholds_under_a_mib_as_the_charts_do() {
    // 200 KiB (50 pages) and 100 KiB: every threshold under a MiB.
    let args = ["--dirty-bytes", "200K", "--dirty-background-bytes", "100K", "--at", "5s", "--size", "160x48"];
    let text = snapshot(&args);
    for (key, want) in [
        ("thresh", "0.195 MiB"),
        ("limit", "0.195 MiB"),
        ("bg_thresh", "0.098 MiB"),
        ("dirty_bytes", "0.195 MiB"),
        ("dirty_background_bytes", "0.098 MiB"),
    ] {
        assert_eq!(panel_value(&text, key).as_deref(), Some(want), "{key}\n{text}");
    }
    // Chart 1 writes the same value at the threshold line's end.
    assert!(text.contains(" 0.195│"), "{text}");
}

/// The rows inside the help's frame on a screen of `size` (`WxH`).
fn help_rows(text: &str, size: &str) -> Vec<String> {
    let (w, h) = size.split_once('x').expect("WxH");
    let area =
        dirtyviz::ui::view::help_area(ratatui::layout::Rect::new(0, 0, w.parse().expect("w"), h.parse().expect("h")));
    let rows: Vec<&str> = text.lines().collect();
    rows[area.y as usize + 1..(area.y + area.height) as usize - 1]
        .iter()
        .map(|l| l.chars().skip(area.x as usize + 1).take(area.width as usize - 2).collect::<String>())
        .collect()
}

#[test]
fn the_help_paged_past_its_end_shows_its_last_lines() {
    // Below 60x18 the dashboard does not fit, and the help is drawn over
    // the note that says so.
    let keys = std::iter::once("?").chain(std::iter::repeat_n("pgdn", 200)).collect::<Vec<_>>().join(" ");
    for size in ["60x18", "80x24", "120x40", "40x12", "20x6"] {
        let text = snapshot(&["--at", "1s", "--size", size, "--keys", &keys]);
        let rows = help_rows(&text, size);
        // The help's last line ends at the frame's last row: a full page.
        let last = rows.last().expect("a row").trim_end();
        assert!(last.ends_with("not yet used") || last.ends_with("used"), "{size}: {last:?}\n{text}");
        // A full page: no blank but the one between the keys and the legends.
        assert!(rows.iter().filter(|r| r.trim().is_empty()).count() <= 1, "{size}: a full page\n{text}");
    }
    let text = snapshot(&["--at", "1s", "--size", "60x18", "--keys", &keys]);
    assert!(text.contains("greyed: computed by this patch level"), "{text}");
}

#[test]
fn a_chart_with_no_room_to_plot_says_so() {
    // At 60x18 the lesson's text leaves chart 3 two rows.
    let text = snapshot(&["--lesson", "14", "--step", "2", "--size", "60x18"]);
    assert!(text.contains("3 pos_ratio control lines"), "{text}");
    // In a lesson it names the key that makes room: v folds the text.
    assert!(text.contains(dirtyviz::ui::plot::NO_ROOM_FOLD), "{text}");
    let text = snapshot(&["--lesson", "14", "--step", "2", "--size", "120x40"]);
    assert!(!text.contains("no room to plot"), "{text}");
    // The sides of a comparison at the smallest size: four rows each, a
    // frame that says so rather than leaving the rows blank (a chart of
    // two rows, with no room for a frame, says so too: see ui::plot).
    let text = snapshot(&["--lesson", "07", "--step", "2", "--size", "60x18"]);
    assert_eq!(text.matches("│no room to plot: v folds the│").count(), 2, "{text}");
}

#[test]
fn a_chart_note_keeps_the_patch_it_names_in_two_rows() {
    // At 60x18 chart 4 of lesson 07 has two rows for its note: it ended
    // `(before patch` with no mark, the patch's number lost.
    let text = snapshot(&["--lesson", "07", "--size", "60x18"]);
    assert!(text.contains("│dirty_ratelimit: computed,  │"), "{text}");
    assert!(text.contains("│used from patch 07 on       │"), "{text}");
    for size in ["160x48", "100x30"] {
        let text = snapshot(&["--lesson", "07", "--size", size]);
        assert!(text.contains("│dirty_ratelimit: computed, used from patch 07 on"), "{size}: {text}");
    }
    // A note cut short ends in an ellipsis: see ui::plot's note_lines.
}

#[test]
fn the_lesson_list_marks_a_title_it_cuts() {
    let text = snapshot(&["--at", "1s", "--size", "60x18", "--keys", "L"]);
    assert!(text.contains("00  Writes, dirty pages and the flusher… "), "{text}");
    // Its keys drop whole items to fit (they were cut mid-word).
    assert!(text.contains("└ ↑ ↓ or 0-9 choose · Enter open · Esc back · q quit ──"), "{text}");
    let text = snapshot(&["--at", "1s", "--size", "160x48", "--keys", "L"]);
    assert!(text.contains("00  Writes, dirty pages and the flusher threads "), "{text}");
}

/// Ctrl-C during a long snapshot: one line, exit 130, the file it would
/// have replaced as it was and no temporary file left.
#[test]
fn ctrl_c_stops_a_snapshot_with_one_line_and_leaves_the_file() {
    let dir = empty_dir("snapshot-ctrl-c");
    std::fs::write(dir.join("screen.txt"), "the user's screen\n").expect("written");
    let out = interrupted(
        dirtyviz()
            .args(["snapshot", "--scenario", "hdd-1000dd", "--at", "3600s", "-o", "screen.txt"])
            .current_dir(&dir),
    );
    assert!(out.is_empty());
    assert_eq!(std::fs::read_to_string(dir.join("screen.txt")).expect("kept"), "the user's screen\n");
    assert_eq!(std::fs::read_dir(&dir).expect("dir").count(), 1, "no temporary file left");
}

#[test]
fn pgdn_and_space_page_the_help_by_what_it_shows_less_one_line() {
    let rows = |size: &str, keys: &str| help_rows(&snapshot(&["--at", "1s", "--size", size, "--keys", keys]), size);
    for size in ["80x24", "60x18", "40x12"] {
        let first = rows(size, "?");
        let second = rows(size, "? pgdn");
        assert_eq!(second[0], first[first.len() - 1], "{size}: the last line of a page starts the next");
        assert_eq!(rows(size, "? space"), second, "{size}: space pages as PgDn does");
        assert_eq!(rows(size, "? pgdn pgup"), first, "{size}");
        // Past the end and a page back: the page before the last.
        let end =
            rows(size, &std::iter::once("?").chain(std::iter::repeat_n("pgdn", 40)).collect::<Vec<_>>().join(" "));
        let back = rows(
            size,
            &std::iter::once("?").chain(std::iter::repeat_n("pgdn", 40)).chain(["pgup"]).collect::<Vec<_>>().join(" "),
        );
        assert_eq!(back[back.len() - 1], end[0], "{size}: one page back from the end");
    }
}

#[test]
fn the_helps_long_lines_go_on_under_their_text() {
    for size in ["80x24", "40x12", "20x6"] {
        // Every page, to the end.
        let mut rows: Vec<String> = Vec::new();
        for pages in 0..200 {
            let keys = std::iter::once("?").chain(std::iter::repeat_n("pgdn", pages)).collect::<Vec<_>>().join(" ");
            let page = help_rows(&snapshot(&["--at", "1s", "--size", size, "--keys", &keys]), size);
            if rows.ends_with(&page) {
                break;
            }
            rows.extend(page);
        }
        for row in &rows {
            // A line that goes on starts under its text, never at the frame.
            assert!(row.starts_with(' '), "{size}: {row:?}\n{}", rows.join("\n"));
        }
        if size != "20x6" {
            let text = rows.join("\n");
            assert!(text.contains(" dirty_background_ratio "), "{size}: words kept whole\n{text}");
        }
    }
}

#[test]
fn the_parameter_strip_ends_its_lines_on_a_value_not_a_separator() {
    for args in [
        &["--at", "10s", "--size", "100x40"][..],
        &["--at", "10s", "--size", "90x40"][..],
        &["--lesson", "03", "--step", "1", "--size", "160x48"][..],
        &["--lesson", "03", "--step", "1", "--size", "130x40"][..],
    ] {
        let text = snapshot(args);
        let strip: Vec<&str> = text
            .lines()
            .skip_while(|l| !l.starts_with(" parameters ─"))
            .skip(1)
            .take_while(|l| !l.starts_with('┌'))
            .map(|l| l.split('│').next().unwrap_or(l).trim_end())
            .collect();
        assert!(strip.len() >= 2, "{args:?}: the strip\n{text}");
        for line in strip {
            assert!(!line.ends_with('·'), "{args:?}: {line:?}\n{text}");
        }
    }
}

/// A dd removed still counts toward the most tasks a run makes (its id
/// stays its own): the note said `at most 20000 tasks` beside a table of
/// 19999 live.
#[test]
fn a_dd_refused_at_the_task_limit_says_exited_ones_count() {
    let text =
        snapshot(&["--scenario", "jbod-10hdd", "--dd", "2000", "--at", "1s", "--size", "160x48", "--keys", "- +"]);
    let status = text.lines().next().expect("a status line");
    assert!(status.ends_with("│ no dd added: at most 20000 tasks a run, exited ones included"), "{status}");
}

#[test]
fn b_on_the_only_bdi_says_so() {
    for key in ["b", "B", "tab"] {
        let text = snapshot(&["--at", "2s", "--size", "160x48", "--keys", key]);
        let status = text.lines().next().expect("a status line");
        assert!(status.ends_with("│ sda (HDD) is the only bdi"), "{key}: {status}");
    }
    // With several, the bdi chosen is said once, ahead of the rest where
    // the line is short: at 60 columns the bdi segment had no room.
    for (size, tail) in [("160x48", "│ bdi sdb (HDD)"), ("60x18", "│ bdi sdb (HDD)")] {
        let text = snapshot(&["--scenario", "jbod-10hdd", "--at", "2s", "--size", size, "--keys", "b"]);
        let status = text.lines().next().expect("a status line");
        assert!(status.ends_with(tail) && status.matches("sdb").count() == 1, "{size}: {status}");
    }
}

#[test]
fn line_values_at_the_plots_right_go_down_as_their_values_do() {
    // Short plots: four thresholds on chart 1's four rows at 100x30, two
    // rows for charts 1 and 2 beside the task table at 80x24.
    for (args, charts) in [
        (&["--at", "20s", "--size", "100x30"][..], &["1 global dirty", "2 bdi dirty"][..]),
        (&["--at", "2s", "--size", "80x24", "--keys", "T"][..], &["1 global dirty", "2 bdi dirty"][..]),
        (&["--at", "20s", "--size", "160x48"][..], &["1 global dirty", "2 bdi dirty"][..]),
    ] {
        let text = snapshot(args);
        for chart in charts {
            let values: Vec<f64> = plot_rows(&text, chart)
                .iter()
                .filter_map(|row| {
                    let row: String = row.iter().collect();
                    row.trim_end().rsplit(' ').next()?.parse().ok()
                })
                .collect();
            assert!(values.len() >= 2, "{args:?} {chart}: {values:?}\n{text}");
            assert!(values.windows(2).all(|w| w[0] >= w[1]), "{args:?} {chart}: {values:?}\n{text}");
        }
    }
}

#[test]
fn too_small_names_the_keys_that_still_quit() {
    let text = snapshot(&["--lesson", "03", "--step", "1", "--size", "40x12"]);
    assert!(text.contains("? help · q quits"), "{text}");
    // Typing an answer, q and ? are typed (and do nothing): Ctrl-C quits.
    let text = snapshot(&["--lesson", "03", "--step", "1", "--size", "40x12", "--keys", "a"]);
    assert!(text.contains("Ctrl-C quits") && !text.contains("q quits"), "{text}");
}

#[test]
fn t_says_which_palette_it_chose_or_that_there_is_none_to_choose() {
    let status = |args: &[&str]| {
        let mut all = vec!["--at", "1s", "--size", "200x20"];
        all.extend(args);
        snapshot(&all).lines().next().expect("a status line").to_string()
    };
    assert!(status(&["--keys", "t"]).ends_with("│ palette: light"), "{}", status(&["--keys", "t"]));
    assert!(status(&["--keys", "t t"]).ends_with("│ palette: dark"));
    let mono = status(&["--theme", "mono", "--keys", "t"]);
    assert!(mono.ends_with("no palette to switch to"), "{mono}");
    // A TERM without colours is one cause it names (it named --theme mono
    // and NO_COLOR only).
    assert!(mono.contains("(--theme mono, NO_COLOR, or a TERM such as vt100)"), "{mono}");
}

#[test]
fn arrows_where_no_task_table_is_drawn_say_how_to_show_it() {
    let status = |size: &str, keys: &str| {
        snapshot(&["--at", "2s", "--size", size, "--keys", keys]).lines().next().expect("a status line").to_string()
    };
    // 100x30 draws no task table; 160x48 does, and T shows it anywhere.
    let hidden = status("100x30", "down");
    assert!(hidden.ends_with("the task table is not on the screen: T shows it"), "{hidden}");
    for (size, keys) in [("160x48", "down"), ("100x30", "T down")] {
        let shown = status(size, keys);
        assert!(!shown.contains("not on the screen"), "{size} {keys}: {shown}");
    }
}

#[test]
fn a_narrow_task_table_marks_the_headings_it_cuts() {
    let full = ["task", "kind", "bdi", "MiB/s", "pause", "ms", "nr_dirtied_pause"];
    for (size, keys) in [("80x24", "T"), ("100x30", "T"), ("60x18", "T"), ("160x48", "")] {
        let text = snapshot(&["--at", "2s", "--size", size, "--keys", keys]);
        let header = text
            .lines()
            .skip_while(|l| !l.contains("┌ tasks"))
            .nth(1)
            .unwrap_or_else(|| panic!("{size}: a task table\n{text}"));
        let cells = header.rsplit("││").next().unwrap_or(header).trim_matches('│');
        for word in cells.split_whitespace() {
            assert!(full.contains(&word) || word.ends_with('…'), "{size}: {word:?} in {cells:?}");
        }
    }
}

#[test]
fn chart_3s_legend_names_every_mark_or_says_it_left_some_out() {
    // 42 columns: every series and mark, the marks in fewer words.
    let text = snapshot(&["--at", "20s", "--size", "80x24"]);
    for mark in ["◆ free/set/lim", "◇ bdi_set", "● now"] {
        assert!(text.contains(mark), "{mark}\n{text}");
    }
    // 30 columns: not all of it; the ellipsis says so.
    let text = snapshot(&["--scenario", "hdd-10dd", "--at", "20s", "--size", "60x18", "--keys", "c 3"]);
    // Its last line, on the frame (read after the one inside), ends in it.
    let legend = text.lines().rev().nth(1).expect("the legend's frame line");
    assert!(legend.trim_end().trim_end_matches(['┘', '─']).trim_end().ends_with('…'), "{legend}\n{text}");
}

#[test]
fn speed_keys_at_the_ends_of_the_range_say_so() {
    let status = |keys: &str| {
        snapshot(&["--at", "1s", "--size", "200x20", "--keys", keys]).lines().next().expect("a status line").to_string()
    };
    // From 1×: 0.5, 0.2, 0.1, then no slower.
    assert!(status("[ [ [").contains("│ 0.1× │") && !status("[ [ [").contains("slowest"));
    assert!(status("[ [ [ [").ends_with("│ 0.1× is the slowest"), "{}", status("[ [ [ ["));
    let fastest = std::iter::repeat_n("]", 14).collect::<Vec<_>>().join(" ");
    assert!(status(&fastest).ends_with("│ already as fast as possible"), "{}", status(&fastest));
    // A step back off the end takes the end's note down with it.
    let back = status(&format!("{fastest} ["));
    assert!(back.contains("│ 1000× │") && !back.contains("fast as possible"), "{back}");
}

#[test]
fn setting_keys_at_the_end_of_their_range_say_so() {
    let status = |keys: String| {
        let text = snapshot(&["--at", "1s", "--size", "220x20", "--keys", &keys]);
        text.lines().next().expect("a status line").to_string()
    };
    let times = |key: &str, n: usize| std::iter::repeat_n(key, n).collect::<Vec<_>>().join(" ");
    for (keys, want) in [
        (times("P", 1), "│ patch level: patch 11 (IO-less), the highest level"),
        (times("p", 13), "│ patch level: legacy 2.6.38 (IO-full), the lowest level"),
        // Under dirty_background_ratio 10, which halves thresh for bg_thresh.
        (times("d", 21), "│ dirty_ratio 0% (the lowest) ≤ dirty_background_ratio 10%: bg_thresh = thresh/2"),
        (times("G", 91), "│ dirty_background_ratio 100% (the highest) ≥ dirty_ratio 20%: bg_thresh = thresh/2"),
        (times("g", 11), "│ dirty_background_ratio 0%, the lowest"),
        (times("m", 9), "│ memory 16 MiB, the least"),
    ] {
        assert!(status(keys.clone()).ends_with(want), "{keys}: {}", status(keys.clone()));
    }
    // A key that changed the setting says only where it is now.
    assert!(status(times("D", 19)).ends_with("│ dirty_ratio 39%"), "{}", status(times("D", 19)));
}

/// The sizes of `text` written as five digits or more of MiB (`754975
/// MiB`, `12345.6 MiB`): what a huge world's sizes read as in MiB.
fn long_mib_numbers(text: &str) -> Vec<String> {
    let words: Vec<&str> = text.split(|c: char| c.is_whitespace() || "│┤└".contains(c)).collect();
    let digits = |w: &str| w.split('.').next().map_or(0, |w| w.chars().filter(char::is_ascii_digit).count());
    words.windows(2).filter(|w| w[1].starts_with("MiB") && digits(w[0]) >= 5).map(|w| w.join(" ")).collect()
}

#[test]
fn a_huge_worlds_sizes_read_in_gib_on_its_axes_in_its_titles_and_in_the_panel() {
    let huge = |size: &str, keys: &str| {
        snapshot(&["--memory", "4T", "--dd", "10", "--at", "30s", "--size", size, "--keys", keys])
    };
    for (size, keys) in [("160x48", ""), ("80x24", ""), ("160x48", "3"), ("160x48", "c")] {
        let text = huge(size, keys);
        assert_eq!(long_mib_numbers(&text), Vec::<String>::new(), "{size} {keys}\n{text}");
    }
    let text = huge("160x48", "");
    // Charts 1 and 2: the title's values in the y axis' unit.
    let one = chart_box(&text, "1 global dirty");
    assert!(one[0].contains("  dirty 227 GiB, 6.15% of dirtyable"), "{}", one.join("\n"));
    assert!(one.iter().any(|r| r.starts_with("│GiB└")), "{}", one.join("\n"));
    let two = chart_box(&text, "2 bdi dirty");
    assert!(two[0].contains("  dirty 227 of thresh 737 GiB"), "{}", two.join("\n"));
    assert!(two.iter().any(|r| r.starts_with("│GiB└")), "{}", two.join("\n"));
    // The threshold lines' values at their right ends, in GiB too.
    assert!(two.iter().any(|r| r.ends_with(" 737│")), "{}", two.join("\n"));
    // The parameter panel.
    for (key, want) in [
        ("thresh", "737 GiB"),
        ("bg_thresh", "369 GiB"),
        ("dirtyable", "3686 GiB"),
        ("memory", "4096 GiB"),
        ("bdi_thresh", "737 GiB"),
    ] {
        assert_eq!(panel_value(&text, key).as_deref(), Some(want), "{key}\n{text}");
    }
    // Chart 3 zoomed: its dirty axis and the sizes in its title in GiB.
    let three = chart_box(&huge("160x48", "3"), "3 pos_ratio");
    assert!(three[0].contains("limit 737, bdi_setpoint 645 GiB"), "{}", three.join("\n"));
    let axis = three.iter().find(|r| r.contains("0 GiB ")).expect("the dirty axis in GiB");
    assert!(axis.trim_end_matches('│').trim_end().ends_with(" 800"), "{}", three.join("\n"));
    // The parameter strip of a narrow screen, with vm.dirty_bytes.
    let text = snapshot(&["--memory", "4T", "--dirty-bytes", "2T", "--at", "5s", "--size", "80x40"]);
    assert!(text.contains("dirty_bytes 2048 GiB") && text.contains("thresh 2048 GiB"), "{text}");
    // The status line of the memory key.
    let text = snapshot(&["--memory", "4T", "--at", "1s", "--size", "220x20", "--keys", "M"]);
    let status = text.lines().next().expect("a status line");
    assert!(status.ends_with("│ memory 4096 GiB, the most"), "{status}");
}

#[test]
fn the_thresholds_read_in_one_unit_in_the_strip_and_the_panel() {
    // 64 GiB: bg_thresh and freerun under 10 GiB, setpoint and limit over;
    // all in GiB, as chart 1 beside them reads them (5898 MiB before).
    let text = snapshot(&["--memory", "64G", "--at", "20s", "--size", "80x40"]);
    assert!(text.contains("bg_thresh 5.76 GiB · freerun 8.64 GiB · setpoint 10.1 GiB · limit 11.5 GiB"), "{text}");
    // In the one-row strip of a short screen, the unit once, after the last.
    let text = snapshot(&["--memory", "64G", "--at", "20s", "--size", "80x24"]);
    let strip = text.lines().nth(1).expect("the strip");
    assert_eq!(strip, "bg_thresh 5.76 · freerun 8.64 · setpoint 10.1 · limit 11.5 · thresh 11.5 GiB", "{text}");
    let text = snapshot(&["--memory", "64G", "--at", "20s", "--size", "160x48"]);
    for (key, want) in [("bg_thresh", "5.76 GiB"), ("freerun", "8.64 GiB"), ("thresh", "11.5 GiB")] {
        assert_eq!(panel_value(&text, key).as_deref(), Some(want), "{key}\n{text}");
    }
    assert_eq!(long_mib_numbers(&text), Vec::<String>::new(), "{text}");
    assert!(!text.contains("5898 MiB") && !text.contains("8847 MiB"), "{text}");
}

#[test]
fn a_compared_chart_in_mib_steps_up_to_its_neighbours_gib_title_and_all() {
    // A: a threshold of 8847 MiB, in MiB on its own; B: 17.3 GiB.
    let args = ["--memory", "48G", "--dirty-ratio", "20", "--compare", "dirty-ratio=40", "--dd", "10"];
    let text = snapshot(&[&args[..], &["--at", "30s", "--size", "160x48"]].concat());
    let grid: Vec<&str> = text.lines().collect();
    let titles = grid.iter().find(|l| l.contains("┌ 1 global dirty")).expect("chart 1 of both sides");
    assert_eq!(titles.matches(" GiB, ").count(), 2, "{titles}");
    assert!(titles.contains("  dirty 7.65 GiB, 17.7% of dirtyable"), "{titles}");
    assert_eq!(text.matches("│GiB└").count(), 2, "{text}");
    // The heads over them too: side by side, in the unit of the charts
    // (8847 MiB above a chart that reads 8.64 GiB did not compare).
    assert!(grid[2].contains("thresh 8.64 GiB") && grid[2].contains("thresh 17.3 GiB"), "{}", grid[2]);
    assert!(!grid[2].contains(" MiB │") && !grid[2].ends_with(" MiB"), "{}", grid[2]);
    // Under 10 GiB, alone: MiB throughout, as ever.
    let text = snapshot(&["--memory", "48G", "--dd", "10", "--at", "30s", "--size", "160x48"]);
    assert!(chart_box(&text, "1 global dirty")[0].contains(" MiB, "), "{text}");
    assert_eq!(panel_value(&text, "thresh").as_deref(), Some("8847 MiB"), "{text}");
    assert_eq!(panel_value(&text, "memory").as_deref(), Some("48 GiB"), "{text}");
}

/// A lesson list with no room for every lesson says how many more there
/// are, above and below; it scrolls so that the chosen lesson's summary
/// shows whole (at 80x24 it was cut after three rows).
#[test]
fn the_lesson_list_says_how_many_lessons_it_has_no_room_for() {
    for size in ["80x24", "60x18"] {
        let text = snapshot(&["--at", "1s", "--size", size, "--keys", "L"]);
        assert!(text.contains("speed."), "the summary's last word: {size}:\n{text}");
    }
    let more = |keys: &str, size: &str| {
        let text = snapshot(&["--at", "1s", "--size", size, "--keys", keys]);
        let row = |l: &str| l.trim_matches(['│', ' ']).to_string();
        text.lines().map(row).find(|l| l.starts_with(['↑', '↓']) && l.ends_with(" more"))
    };
    assert_eq!(more("L", "60x18").as_deref(), Some("↓ 11 more"));
    let down = "L ".to_string() + &"down ".repeat(14);
    assert_eq!(more(&down, "60x18").as_deref(), Some("↑ 10 more · ↓ 2 more"));
    assert_eq!(more("L", "160x48"), None);
}

/// A lesson list that would leave a column or two of the panes beneath
/// at its sides (stray letters beside its frame) takes the whole width.
#[test]
fn the_lesson_list_leaves_no_slivers_beside_it() {
    let list_row = |size: &str| {
        let text = snapshot(&["--lesson", "08", "--size", size, "--keys", "L"]);
        text.lines().find(|l| l.contains("01  IO-full")).map(str::to_string).unwrap_or_else(|| panic!("{text}"))
    };
    assert!(list_row("100x30").starts_with("│  01  IO-full"), "{}", list_row("100x30"));
    // With room beside it, it stays 96 columns wide and centred.
    let wide: Vec<char> = list_row("160x48").chars().collect();
    let left = wide.windows(4).position(|w| w == ['│', ' ', ' ', '0']).expect("its frame");
    assert_eq!((left, wide[left + 95]), (32, '│'), "{}", list_row("160x48"));
}

/// Glyphs the charts' legends and the help draw lines and marks with.
fn is_glyph(token: &str) -> bool {
    !token.is_empty() && token.chars().all(|c| "━╍┅·○×△•◆◇●┈".contains(c))
}

/// The rows of the chart box titled `title`, its frame included.
fn chart_box(screen: &str, title: &str) -> Vec<String> {
    let (grid, top, left) = chart_corner(screen, title);
    let right = (left + 1..grid[top].len()).find(|&c| grid[top][c] == '┐').expect("the box's corner");
    let bottom = (top + 1..grid.len()).find(|&r| grid[r][left] == '└').expect("the box's bottom");
    grid[top..=bottom].iter().map(|row| row[left..=right].iter().collect()).collect()
}

/// A legend's or help line's (glyph, name) pairs: each glyph and the
/// words after it up to the next glyph (a help line's up to its colon).
fn glyph_names(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for token in text.split_whitespace() {
        if is_glyph(token) {
            out.push((token.to_string(), String::new()));
        } else if let Some((_, name)) = out.last_mut() {
            if !name.is_empty() {
                name.push(' ');
            }
            name.push_str(token);
        }
    }
    for (_, name) in &mut out {
        let end = name.find(':').unwrap_or(name.len());
        name.truncate(end);
        let end = name.find(" (").unwrap_or(name.len());
        name.truncate(end);
    }
    out
}

#[test]
fn mono_tells_every_line_of_a_chart_apart_and_the_help_shows_the_legends_glyphs() {
    let size = "220x60";
    let screen = snapshot(&["--theme", "mono", "--size", size]);
    let help = snapshot(&["--theme", "mono", "--size", size, "--keys", "?"]);
    // The help's legend column, chart by chart.
    let rows = help_rows(&help, size);
    let col = rows.iter().find_map(|r| r.find("chart legends").map(|b| r[..b].chars().count())).expect("legends");
    let mut in_help: Vec<Vec<(String, String)>> = vec![Vec::new(); 5];
    let mut chart = None;
    for row in &rows {
        let text: String = row.chars().skip(col.saturating_sub(1)).collect();
        if let Some(n) = dirtyviz::ui::view::TITLES.iter().position(|t| text.trim() == *t) {
            chart = Some(n);
        } else if let Some(n) = chart
            && text.split_whitespace().next().is_some_and(is_glyph)
        {
            // An entry's first line: its glyph and name (a long one goes
            // on on the next lines, which start with blanks).
            in_help[n].extend(glyph_names(&text).into_iter().take(1));
        }
    }
    for (n, title) in dirtyviz::ui::view::TITLES.iter().enumerate() {
        let rows = chart_box(&screen, &title[..1]);
        // The legend: the frame's bottom edge and the line above it.
        let legend: String = rows[rows.len() - 2..]
            .iter()
            .map(|r| r.trim_matches(|c| "│└┘─".contains(c)).trim_end_matches('─').to_string())
            .collect::<Vec<_>>()
            .join(" ");
        let lines: Vec<(String, String)> =
            glyph_names(&legend).into_iter().filter(|(g, _)| !"•◆◇●".contains(g.as_str())).collect();
        assert!(lines.len() >= 2 || n == 4, "chart {}: {lines:?}\n{screen}", n + 1);
        for (i, (glyph, name)) in lines.iter().enumerate() {
            let same: Vec<&String> = lines[..i].iter().filter(|(g, _)| g == glyph).map(|(_, n)| n).collect();
            assert!(same.is_empty(), "chart {}: {glyph} is both {name} and {same:?}\n{screen}", n + 1);
            let helped = in_help[n].iter().find(|(_, h)| h == name);
            assert_eq!(helped.map(|(g, _)| g), Some(glyph), "chart {}: {name} in the help: {:?}", n + 1, in_help[n]);
        }
    }
}

#[test]
fn patch_keys_in_compare_name_the_level_of_each_side() {
    let status = |args: &[&str]| {
        let mut all = vec!["--scenario", "hdd-10dd", "--at", "1s", "--size", "220x20"];
        all.extend(args);
        snapshot(&all).lines().next().expect("a status line").to_string()
    };
    // Against an old kernel B moves alone, within the series; at its end
    // nothing moves, and the note does not read as if B had.
    let s = status(&["--compare", "2.6.38", "--keys", "P"]);
    let at_top = "│ patch level: B already at the series' highest, patch 11 (IO-less); A stays legacy 2.6.38 (IO-full)";
    assert!(s.ends_with(at_top), "{s}");
    let s = status(&["--compare", "2.6.38", "--keys", "p"]);
    assert!(s.ends_with("│ patch level: A legacy 2.6.38 (IO-full); B patch 10 (IO-less)"), "{s}");
    let s = status(&["--compare", "legacy", "--keys", &["p"; 11].join(" ")]);
    assert!(
        s.ends_with("│ patch level: B already at the series' lowest, patch 01 (IO-full); A stays legacy 3.1 (IO-full)"),
        "{s}"
    );
    // Levels side by side move together, and back with the opposite key;
    // not at all where one side is at its end.
    let s = status(&["--compare", "patches=5", "--keys", "P P p"]);
    assert!(s.ends_with("│ patch level: A patch 05 (IO-full); B patch 06 (IO-full)"), "{s}");
    let s = status(&["--compare", "patches=11", "--keys", "P"]);
    assert!(
        s.ends_with("│ patch level: A patch 10 (IO-less); B patch 11 (IO-less), the highest level: both stay"),
        "{s}"
    );
    // One world: its level alone.
    let s = status(&["--keys", "p"]);
    assert!(s.ends_with("│ patch level: patch 10 (IO-less)"), "{s}");
}

/// The y labels of the chart titled `title` (the numbers left of its
/// axis) and the unit in its corner.
fn y_axis(screen: &str, title: &str) -> (Vec<String>, String) {
    let (grid, top, left) = chart_corner(screen, title);
    let mut labels = Vec::new();
    for row in &grid[top + 1..] {
        let text: String = row[left + 1..].iter().collect();
        if let Some((unit, _)) = text.split_once('└') {
            return (labels, unit.trim().to_string());
        }
        if let Some((label, _)) = text.split_once('┤') {
            labels.push(label.trim().to_string());
        }
    }
    panic!("{title}: no x axis\n{screen}")
}

#[test]
fn sizes_past_four_digits_of_mib_are_drawn_in_gib() {
    // M thirty times: 4 TiB of memory, thresh 737 GiB.
    let keys = vec!["M"; 30].join(" ");
    let big = snapshot(&["--at", "10s", "--keys", &keys]);
    let small = snapshot(&["--at", "10s"]);
    for title in ["1 global dirty", "2 bdi dirty"] {
        let (labels, unit) = y_axis(&big, title);
        assert_eq!(unit, "GiB", "{title}: {labels:?}\n{big}");
        assert!(labels.contains(&"800".to_string()), "{title}: {labels:?}\n{big}");
        let (labels, unit) = y_axis(&small, title);
        assert_eq!(unit, "MiB", "{title}: {labels:?}\n{small}");
        assert!(labels.contains(&"800".to_string()), "{title}: {labels:?}\n{small}");
    }
    // The line values are in the axis's unit: thresh 737 GiB.
    assert!(big.contains(" 737│"), "{big}");
    // Both sides of a comparison in one unit.
    let both = snapshot(&["--at", "10s", "--compare", "patches=10", "--keys", &keys]);
    assert_eq!((both.matches("GiB└").count(), both.matches("MiB└").count()), (2, 0), "{both}");
}

#[test]
fn chart_titles_name_the_bdi_and_its_device_in_one_pair_of_parentheses() {
    for args in [&["--scenario", "hdd-10dd"][..], &["--scenario", "hdd-10dd", "--compare", "2.6.38"][..]] {
        let text = snapshot(args);
        assert!(text.contains("(sda, HDD)"), "{args:?}\n{text}");
        assert!(!text.contains("))") && !text.contains("(sda ("), "{args:?}\n{text}");
    }
}

#[test]
fn no_color_draws_the_snapshot_in_mono_as_on_the_dashboard() {
    let args = ["snapshot", "--at", "1s", "--size", "100x30", "--format", "ansi"];
    let coloured = ok(&dirtyviz().args(args).output().expect("runs"));
    assert!(coloured.contains("\x1b[38;2;"), "the default palette has colours");
    let plain = ok(&dirtyviz().args(args).env("NO_COLOR", "1").output().expect("runs"));
    assert!(!plain.contains("\x1b[38;") && !plain.contains("\x1b[3"), "{plain:?}");
    assert!(plain.contains("\x1b[1m"), "mono keeps bold");
    // An empty NO_COLOR is not set, as the convention says.
    let empty = ok(&dirtyviz().args(args).env("NO_COLOR", "").output().expect("runs"));
    assert_eq!(empty, coloured);
}

/// Time 0 is a moment of the world, before anything ran, as `view --at 0`
/// is a trace's first event: `--at` 0, 0s, 0ms and 0j show it (in a
/// lesson, the step's start), as does `@0s` in --keys; they were refused
/// as "must be positive". A run or plot of no time is still refused.
#[test]
fn a_snapshot_at_0_shows_the_world_before_anything_ran() {
    for at in ["0", "0s", "0ms", "0j"] {
        let text = snapshot(&["--at", at, "--size", "100x30"]);
        assert!(text.starts_with(" dirtyviz │ default │ t 0.0 s"), "--at {at}: {text}");
    }
    let text = snapshot(&["--at", "0", "--keys", "@0s +", "--size", "160x48"]);
    assert!(text.lines().next().expect("status").ends_with("added a dd on sda (HDD)"), "{text}");
    let text = snapshot(&["--lesson", "03", "--at", "0ms", "--size", "160x48"]);
    assert!(text.contains("t 0.0 s"), "{text}");
    for args in [&["run", "--duration", "0"][..], &["plot", "--duration", "0ms"]] {
        let out = dirtyviz().args(args).output().expect("runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("must be positive"), "{args:?}: {err}");
    }
}

/// `c` compares from the world the keys made: the dirty ratio, memory and
/// dd counts carry over to both sides (and back to one world when the
/// comparison ends), and "patch N-1 vs N" is about the level chosen. It
/// rebuilt both sides from the scenario: thresh 737 MiB, 10 dd, patch 10
/// vs 11.
#[test]
fn compare_starts_both_sides_from_the_world_the_keys_made() {
    let keys = "D D D M + + +";
    let status = |text: &str| text.lines().next().expect("status").to_string();
    let text = snapshot(&["--scenario", "hdd-10dd", "--keys", &format!("{keys} c"), "--at", "5s"]);
    assert!(status(&text).contains("A legacy 3.1 vs B patch 11"), "{text}");
    let both = text.lines().find(|l| l.contains("longest call")).expect("the sides' summary row");
    assert_eq!(both.matches("thresh 1696 MiB").count(), 2, "{both}");
    let off = snapshot(&["--scenario", "hdd-10dd", "--keys", &format!("{keys} c c c c c"), "--at", "5s"]);
    assert!(status(&off).ends_with("compare off"), "{off}");
    for kept in [
        "tasks (13 live)",
        "dirty_ratio            23%",
        "memory                 8192 MiB",
        "thresh                 1696 MiB",
    ] {
        assert!(off.contains(kept), "{kept}: {off}");
    }
    let fewer = snapshot(&["--scenario", "hdd-10dd", "--keys", "- - - c c c c c", "--at", "2s"]);
    assert!(fewer.contains("tasks (7 live)"), "{fewer}");
    let text = snapshot(&["--keys", "p p c c c", "--at", "1s"]);
    assert!(status(&text).contains("A patch 08 vs B patch 09"), "{text}");
    // Level 0 has none below it: the status line says what is compared.
    let text = snapshot(&["--keys", &format!("{} c c c", ["p"; 11].join(" ")), "--at", "1s", "--size", "240x48"]);
    assert!(status(&text).ends_with("your legacy 3.1 has no level below it: patch 01 against legacy 3.1"), "{text}");
}

/// `--at` before the time the keys ran the world to is refused, as an
/// earlier `@TIME` in --keys is; it drew the keys' time instead.
#[test]
fn an_at_before_the_keys_time_is_refused() {
    let out = dirtyviz().args(["snapshot", "--keys", "@5s", "--at", "3s"]).output().expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("--at 3s: --keys ran the world to 5 s already"), "{err}");
    let text = snapshot(&["--keys", "@5s", "--at", "5s", "--size", "100x30"]);
    assert!(text.starts_with(" dirtyviz │ default │ t 5.0 s"), "{text}");
}

/// The whole-run window says how much of the run is kept once a world let
/// its oldest samples go (memory stays bounded): at 30000 s the charts
/// start at 20000 s, and the status line said `window: whole run`.
#[test]
fn the_whole_run_window_says_when_the_oldest_samples_are_gone() {
    let text = snapshot(&["--dd", "0", "--keys", "w w", "--at", "30000s"]);
    assert!(text.lines().next().expect("status").contains("│ window: last 10000 s │"), "{text}");
    let text = snapshot(&["--dd", "0", "--keys", "w w", "--at", "300s"]);
    assert!(text.lines().next().expect("status").contains("│ window: whole run │"), "{text}");
    // A case's long name is cut to leave it room, as it is for the note
    // `w` left: the window went, and the charts read as the whole run.
    let case = "JBOD-10HDD-16G/ext4-100dd-1M-24p-16384M-20:10-X";
    let text = snapshot(&["--case", case, "--dd", "0", "--keys", "w w", "--at", "30000s", "--size", "160x48"]);
    let status = text.lines().next().expect("status");
    assert!(status.contains("│ window: last 5777 s │") && status.ends_with("│ chart window: the whole run"), "{text}");
    // Where the window has no room beside 12 columns of the name, the
    // name keeps the room it had.
    let text = snapshot(&["--case", case, "--dd", "0", "--keys", "w w", "--at", "30000s", "--size", "120x30"]);
    assert!(text.starts_with(" JBOD-10HDD-16G/ext4-1… │ t 30000.0 s │"), "{text}");
}

/// The names a chart's legend gives its lines (the frame's bottom edge
/// and the line above it; the x labels there name none), sorted.
fn legend_names(rows: &[String]) -> Vec<String> {
    let legend: String = rows[rows.len() - 2..]
        .iter()
        .map(|r| r.trim_matches(|c| "│└┘─".contains(c)).trim_end_matches('─').to_string())
        .collect::<Vec<_>>()
        .join(" ");
    let mut names: Vec<String> = glyph_names(&legend).into_iter().map(|(_, name)| name).collect();
    names.sort();
    names
}

#[test]
fn a_legend_names_only_the_lines_its_chart_draws() {
    // A hundred tasks: chart 4's scale follows what one gets, and the
    // disk's bandwidth (write_bw, avg_write_bw: 78.2 MiB/s) is far over
    // its top: the title gives it, the legend does not name it as drawn.
    let screen = snapshot(&["--scenario", "hdd-100dd", "--at", "60s", "--keys", "4"]);
    let rows = chart_box(&screen, "4 rates");
    assert!(rows[0].contains("avg_write_bw 78.2 MiB/s"), "{}", rows[0]);
    let (labels, unit) = y_axis(&screen, "4 rates");
    assert_eq!((labels[0].as_str(), unit.as_str()), ("1.5", "MiB/s"), "{screen}");
    let drawn = ["balanced", "dirtied/N", "dirty_ratelimit", "task_ratelimit", "write_bw/N"];
    assert_eq!(legend_names(&rows), drawn, "{screen}");
    // In mono too, where the lines go by their glyphs.
    let mono = snapshot(&["--scenario", "hdd-100dd", "--at", "60s", "--keys", "4", "--theme", "mono"]);
    assert_eq!(legend_names(&chart_box(&mono, "4 rates")), drawn, "{mono}");
    // Linux 3.1 beside the series: ten tasks' 8.7 MiB/s each, the disk's
    // 87 MiB/s over the top.
    let screen = snapshot(&["--scenario", "hdd-10dd", "--compare", "legacy", "--at", "60s"]);
    let rows = chart_box(&screen, "4 rates");
    assert!(rows[0].contains("write_bw/N 8.71 MiB/s, avg_write_bw 87.1 MiB/s"), "{}", rows[0]);
    assert_eq!(legend_names(&rows), ["dirtied/N", "write_bw/N"], "{screen}");
}

#[test]
fn chart_5_says_no_task_slept_where_none_did() {
    let screen = snapshot(&["--dd", "0", "--at", "10s"]);
    let title = &chart_box(&screen, "5 pauses")[0];
    assert!(title.starts_with("┌ 5 pauses (sda, HDD)  no task slept ─"), "{title}");
    // A comparison's heads say it of calls as the run's report does.
    let screen = snapshot(&["--dd", "0", "--at", "10s", "--compare", "legacy"]);
    assert_eq!(screen.matches("no call blocked").count(), 2, "{screen}");
    assert!(!screen.contains(" 0 ms"), "{screen}");
}

#[test]
fn nr_dirtied_pause_is_a_dash_for_a_kernel_before_patch_06() {
    for (patches, has) in [("legacy", false), ("3", false), ("5", false), ("6", true), ("11", true)] {
        let screen = snapshot(&["--scenario", "hdd-10dd", "--patches", patches, "--at", "20s"]);
        let rows = chart_box(&screen, "tasks");
        assert!(rows[1].trim_end_matches(['│', ' ']).ends_with("nr_dirtied_pause"), "{patches}: {}", rows[1]);
        let cells: Vec<&str> =
            rows[2..rows.len() - 1].iter().filter_map(|r| r.trim_matches('│').split_whitespace().last()).collect();
        assert_eq!(cells.len(), 10, "{patches}\n{screen}");
        let panel = panel_value(&screen, "nr_dirtied_pause").expect("in the panel");
        if has {
            assert!(cells.iter().all(|c| c.parse::<u32>().is_ok_and(|n| n > 0)), "{patches}: {cells:?}");
            let median = panel.strip_suffix(" median").unwrap_or_default();
            assert!(median.parse::<u32>().is_ok_and(|n| n > 0), "{patches}: {panel}");
        } else {
            assert!(cells.iter().all(|c| *c == "–"), "{patches}: {cells:?}");
            assert_eq!(panel, "–", "{patches}");
        }
    }
    // A lesson's Linux 3.1 side, in its strip, beside the series'.
    let screen = snapshot(&["--lesson", "01", "--step", "2"]);
    assert!(screen.contains("nr_dirtied_pause – | "), "{screen}");
}

#[test]
fn compared_charts_put_their_time_ticks_in_the_same_columns() {
    // B's thresholds end in `5.76/5.04`, A's in `11.5`: at any width
    // (an odd one gives B a column more) their axes line up.
    for size in ["160x48", "161x48", "81x30"] {
        let args = ["--memory", "64G", "--compare", "dirty-ratio=10", "--at", "120s", "--size", size];
        let screen = snapshot(&args);
        let ticks = side_by_side_ticks(&screen);
        assert!(ticks.len() >= 2, "{size}\n{screen}");
        for (a, b) in ticks {
            assert!(a.len() >= 3, "{size}: {a:?}\n{screen}");
            assert_eq!(a, b, "{size}\n{screen}");
        }
    }
    // Chart 5 beside Linux 3.1's.
    let screen = snapshot(&["--scenario", "hdd-10dd", "--compare", "legacy", "--at", "60s"]);
    for (a, b) in side_by_side_ticks(&screen) {
        assert_eq!(a, b, "{screen}");
    }
}

/// The number of milliseconds before `, still blocked` in `text`: how
/// long the call still in progress has lasted.
fn still_blocked_ms(text: &str) -> Option<u64> {
    let before = &text[..text.find(" ms, still blocked")?];
    before.rsplit(' ').next()?.parse().ok()
}

/// Linux 3.1 holds the USB key's dd in one call from 0.3 s to about 30 s:
/// until the call returns, chart 5 and a compare head say it is still
/// blocked and for how long, not "no call blocked".
#[test]
fn a_call_still_in_progress_is_the_longest_while_it_lasts() {
    let screen = snapshot(&["--scenario", "ukey-hdd", "--patches", "legacy", "--at", "20s", "--size", "160x48"]);
    let title = &chart_box(&screen, "5 pauses")[0];
    assert!(title.contains("longest sleep 100 ms, longest call "), "{title}");
    let ms = still_blocked_ms(title).expect("a call still blocked");
    assert!((19_000..=20_000).contains(&ms), "{title}");
    // It is drawn, at its length so far: the axis reaches it (it stopped
    // at 250 ms, the longest returned call's height).
    let chart = chart_box(&screen, "5 pauses");
    assert!(chart.iter().any(|l| l.contains('▲')), "{}", chart.join("\n"));
    assert!(chart.last().is_some_and(|l| l.contains("▲ call still blocked")), "{}", chart.join("\n"));
    let top: u64 =
        chart[1].trim_start_matches('│').split('┤').next().and_then(|t| t.trim().parse().ok()).expect("ticks");
    assert!(top >= ms, "{}", chart.join("\n"));
    // Lesson 14's step 4 at 25 s, both sides: the head and chart 5 of
    // 3.1 say the call has lasted over 24 s; the series' calls are short.
    let screen = snapshot(&["--lesson", "14", "--step", "4", "--at", "25s", "--size", "160x48", "--keys", "v"]);
    assert!(!screen.contains("no call blocked"), "{screen}");
    let head = screen.lines().find(|l| l.trim_start().starts_with("written ")).expect("the heads");
    let ms = still_blocked_ms(head).expect("A's call still blocked");
    assert!((24_000..=25_000).contains(&ms), "{head}");
    assert_eq!(head.matches("still blocked").count(), 1, "B's calls return: {head}");
    let title = screen.lines().find(|l| l.contains("5 pauses")).expect("chart 5");
    assert_eq!(still_blocked_ms(title), Some(ms), "{title}");
}

/// With no lesson open PgDn pages the task table (it said "no lesson
/// open" while the table had 89 more rows).
#[test]
fn pgdn_pages_the_task_table_when_no_lesson_is_open() {
    let args = ["--scenario", "hdd-100dd", "--size", "160x48", "--at", "5s"];
    let title = |screen: &str| screen.split("tasks (").nth(1).and_then(|t| t.split(')').next()).map(str::to_string);
    assert_eq!(title(&snapshot(&args)).as_deref(), Some("100 live"));
    let paged = title(&snapshot(&[&args[..], &["--keys", "pgdn"]].concat())).expect("the table");
    assert!(paged.starts_with("100 live, rows 12–"), "{paged}");
    let back = title(&snapshot(&[&args[..], &["--keys", "pgdn pgup"]].concat()));
    assert_eq!(back.as_deref(), Some("100 live"));
}

/// `h` in a short lesson pane scrolls the step's text to the hint, which
/// goes under the text (at 80x24 it was three PgDn down, out of sight).
#[test]
fn a_hint_asked_for_is_scrolled_into_sight() {
    let hint = "hint: The status line shows the simulated time";
    let args = ["--lesson", "03", "--step", "1", "--size", "80x24", "--at", "5s"];
    assert!(!snapshot(&args).contains(hint));
    let screen = snapshot(&[&args[..], &["--keys", "h"]].concat());
    assert!(screen.contains(hint) && screen.contains("▲ PgUp"), "{screen}");
    assert!(screen.lines().next().is_some_and(|l| l.ends_with("hint shown under the step's text")), "{screen}");
    // Hidden again, the text stays where it was, the hint's lines gone.
    let screen = snapshot(&[&args[..], &["--keys", "h h"]].concat());
    assert!(!screen.contains("hint: ") && screen.lines().next().is_some_and(|l| l.ends_with("hint hidden")));
}

/// Where a compare head has no room for `longest call 19710 ms, still
/// blocked`, it says the call in short rather than leave it out for a
/// field both sides share.
#[test]
fn a_narrow_compare_head_keeps_a_stuck_call_in_short() {
    let screen = snapshot(&["--scenario", "ukey-hdd", "--compare", "legacy", "--at", "20s", "--size", "100x30"]);
    let head = screen.lines().find(|l| l.trim_start().starts_with("written ")).expect("the heads");
    let ms: u64 = head.split("blocked ").nth(1).and_then(|r| r.split(' ').next()?.parse().ok()).expect(head);
    assert!((19_000..=20_000).contains(&ms), "{head}");
    assert!(head.contains("│ sdb: call ") && !head.contains("thresh"), "{head}");
    // At 80x24 without the bdi's name, which the status line gives.
    let screen = snapshot(&["--scenario", "ukey-hdd", "--compare", "legacy", "--at", "20s", "--size", "80x24"]);
    let head = screen.lines().find(|l| l.trim_start().starts_with("written ")).expect("the heads");
    assert!(head.contains("│ blocked 19") && head.contains("│ call "), "{head}");
    assert!(screen.lines().next().is_some_and(|l| l.ends_with("│ bdi sdb (USB key)")), "{screen}");
}

/// `plot` says the same of the call 3.1 was still in when the run ended,
/// with the length the run's summary gives it.
#[test]
fn plot_counts_a_call_still_in_progress_at_the_end() {
    let dir = empty_dir("plot-still-blocked");
    let out = dirtyviz()
        .args(["plot", "--scenario", "ukey-hdd", "--duration", "30s", "--bdi", "sdb", "--compare", "legacy", "--out"])
        .arg(&dir)
        .output()
        .expect("runs");
    let text = format!("{}{}", ok(&out), String::from_utf8_lossy(&out.stderr));
    let line = text.lines().find(|l| l.contains("legacy 3.1 (IO-full): ") && l.contains("sleeps")).expect("A's line");
    let ms = line.split("longest call ").nth(1).and_then(|r| r.split(' ').next()).expect("a call");
    let ms: u64 = ms.parse().expect("ms");
    assert!(ms > 29_000 && line.ends_with("ms, still blocked at the end"), "{line}");
    // The figure draws it (the legend's entry wraps).
    let svg = std::fs::read_to_string(dir.join("5-pauses.svg")).expect("figure");
    assert!(svg.contains("still blocked at the end, so far"), "legend");
    assert!(svg.contains("<polygon"), "the call's triangle");
}

/// Compared, both heads name the same fields in the same order, cut
/// alike at any width: `setpoint –` for 3.1, which has none.
#[test]
fn compare_heads_name_the_same_fields_at_every_width() {
    let fields = |half: &str| -> Vec<String> {
        half.split('│').map(|f| f.split_whitespace().next().unwrap_or("").to_string()).collect()
    };
    for (size, cols) in [("160x48", 80), ("80x24", 40)] {
        let screen = snapshot(&["--scenario", "hdd-10dd", "--keys", "c", "--at", "5s", "--size", size]);
        let head: Vec<char> = screen.lines().nth(2).expect("the heads").chars().collect();
        let (a, b): (String, String) = (head[..cols].iter().collect(), head[cols..].iter().collect());
        assert!(a.trim_start().starts_with("written ") && b.trim_start().starts_with("written "), "{size}\n{screen}");
        assert_eq!(fields(&a), fields(&b), "{size}: {a:?} {b:?}");
        if size == "160x48" {
            assert!(a.contains("│ setpoint – ") && b.contains("│ setpoint 645 MiB"), "{a:?} {b:?}");
        }
    }
}

/// On a screen too small for the charts, `L` opened the lesson list
/// unseen (Enter then opened lesson 00); a key that does nothing said
/// nothing there.
#[test]
fn a_screen_too_small_says_what_the_last_key_did() {
    let list = snapshot(&["--size", "50x15", "--keys", "L"]);
    assert!(list.contains("the lesson list is open: it needs 60×18"), "{list}");
    let key = snapshot(&["--size", "50x15", "--keys", "6"]);
    assert!(key.contains("6 is not a key here"), "{key}");
    let paused = snapshot(&["--size", "50x14", "--keys", "@5s space"]);
    assert!(paused.contains("scenario default · PAUSED"), "{paused}");
}

/// A key that did nothing covered the step's own note, and the next key
/// that did something cleared both: `step done: n next step` was gone.
#[test]
fn the_note_a_key_that_did_nothing_covered_comes_back() {
    let status = |keys: &str| {
        let screen = snapshot(&["--lesson", "03", "--step", "1", "--size", "80x24", "--keys", keys]);
        screen.lines().next().expect("a status line").to_string()
    };
    assert!(status("@30s 6").contains("6 is not a key here"), "{}", status("@30s 6"));
    assert!(status("@30s 6 x ]").ends_with("│ step done: n next step, space runs on"), "{}", status("@30s 6 x ]"));
    // So does a key that does nothing while typing, and the answer's
    // refusal at Enter, at 60x18 cut to keep the time, seed and PAUSED;
    // the task table's, once shown.
    let narrow = |keys: &str| {
        let screen = snapshot(&["--lesson", "12", "--step", "1", "--size", "60x18", "--at", "5s", "--keys", keys]);
        screen.lines().next().expect("a status line").to_string()
    };
    assert!(narrow("@5s space a f2").starts_with(" t 5.0 s │ seed 1 │ PAUSED │ F2 does nothing while typing"));
    assert!(!narrow("@5s space a f2 6").contains("F2"), "{}", narrow("@5s space a f2 6"));
    assert!(narrow("@5s space a x enter").contains("│ `x`"), "{}", narrow("@5s space a x enter"));
    assert!(!narrow("@5s space a x enter 6").contains("`x`"), "{}", narrow("@5s space a x enter 6"));
    let table = |keys: &str| snapshot(&["--size", "80x24", "--keys", keys]).lines().next().unwrap_or("").to_string();
    assert!(
        table("@59s down").contains("T shows it") && !table("@59s down T").contains("T shows it"),
        "{}",
        table("@59s down T")
    );
}

/// At dirty_ratio 0 (thresh 0, the limit still decaying from 737 MiB),
/// patch 10's floor (limit - dirty)/8 lifts bdi_thresh over thresh + 1,
/// and the kernel's bdi_setpoint = setpoint x bdi_thresh/(thresh + 1)
/// comes to hundreds of GiB on a 4 GiB box: chart 2 said so on an axis
/// in GiB, its dirty pages flat on the zero line. It keeps its MiB axis,
/// draws that setpoint off the top and names its value.
#[test]
fn a_bdi_setpoint_past_the_limit_is_drawn_off_the_top() {
    let keys = format!("@3s{}", " d".repeat(20));
    let screen = snapshot(&["--keys", &keys, "--at", "10s", "--size", "160x48"]);
    let rows: Vec<&str> = screen.lines().collect();
    let chart2 = |row: &str| row.chars().skip(68).take(56).collect::<String>();
    assert!(chart2(rows[1]).contains("dirty 710 of thresh 0 MiB"), "{screen}");
    assert!(chart2(rows[2]).contains("bdi_setpoint 319 GiB (off the top)"), "{screen}");
    assert!(chart2(rows[3]).starts_with("│800┤"), "an axis in MiB up to the limit: {screen}");
    assert!(screen.contains("bdi_setpoint           319 GiB"), "the panel gives the kernel's value: {screen}");
}

/// The help over a 160x48 screen left a column of the charts' frames on
/// each side (`┌┌ help`, `┐┐`), and strips of them on wider or taller
/// screens: what it does not cover of the body is blank, the status line
/// and key bar showing where the screen has 48 rows or more.
#[test]
fn the_help_leaves_no_sliver_of_the_charts_beside_it() {
    for size in ["160x48", "167x53", "170x40", "170x50", "200x60", "120x58", "100x47", "80x24"] {
        let screen = snapshot(&["--keys", "?", "--size", size]);
        let rows: Vec<&str> = screen.lines().collect();
        let tall = rows.len() >= 48;
        let body = if tall { &rows[1..rows.len() - 1] } else { &rows[..] };
        for row in body.iter().map(|r| r.trim()).filter(|r| !r.is_empty()) {
            let framed = row.starts_with(['┌', '│', '└']) && row.ends_with(['┐', '│', '┘']);
            assert!(framed && !row.contains("┌┌") && !row.contains("┐┐"), "{size}: {row}\n{screen}");
        }
        assert_eq!(body.iter().filter(|r| r.trim_start().starts_with("┌ help: keys and legends")).count(), 1, "{size}");
        if tall {
            assert!(rows[0].starts_with(" dirtyviz │ ") && rows[rows.len() - 1].starts_with(" ↑ ↓ scroll"), "{size}");
        }
    }
}

/// At 60x20 one chart shows at a time: after `3` zooms to chart 3 the
/// hint bar still leads with `1-5 chart`, the way to the other four (it
/// dropped it for want of room).
#[test]
fn a_chart_zoomed_on_a_small_screen_keeps_the_chart_keys_first() {
    let bar = |size: &str| snapshot(&["--keys", "3", "--size", size]).lines().last().unwrap_or("").to_string();
    assert!(bar("60x20").starts_with(" 1-5 chart space pause"), "{}", bar("60x20"));
    // So in a comparison where one panel is all there is room for.
    let compared = snapshot(&["--compare", "legacy", "--keys", "3", "--size", "100x21"]);
    assert!(compared.lines().last().unwrap_or("").starts_with(" 1-5 chart space pause"), "{compared}");
    assert!(bar("100x30").contains("1-5 zoom"), "{}", bar("100x30"));
}

/// Paused between two samples (ukey-hdd at 4.55 s, its dirty_ratelimit
/// updated at 4.52 s), the parameter panel gave the world's rates now
/// (77.5 MiB/s), chart 4's title the last sample's (79.2): both give the
/// sample's.
#[test]
fn the_panel_and_the_charts_give_the_same_rates_between_samples() {
    let screen = snapshot(&["--scenario", "ukey-hdd", "--at", "4.55s", "--size", "160x48"]);
    let title = screen.lines().find(|l| l.contains("┌ 4 rates")).expect("chart 4");
    let rate = title.split("rate ").nth(1).and_then(|t| t.split(' ').next()).expect("a rate");
    let panel = screen.lines().find(|l| l.contains("dirty_ratelimit ")).expect("the panel's dirty_ratelimit");
    assert!(panel.contains(&format!(" {rate} MiB/s")), "{title}\n{panel}");
    assert_eq!(rate, "79.2");
}

/// Chart 5 over the whole run keeps every pause of it: run to 600 s at
/// once, the pause log had let the oldest go before chart 5 saw them,
/// and its title's longest call (640 ms, in the first seconds) fell to
/// 83 ms while the status line still said `window: whole run`.
#[test]
fn chart_5_over_the_whole_run_keeps_its_first_pauses() {
    let title = |at: &str| {
        let text = snapshot(&["--scenario", "hdd-100dd", "--keys", &format!("w w @{at} space"), "--size", "160x48"]);
        text.lines().find(|l| l.contains("5 pauses")).map(str::to_string).unwrap_or_else(|| panic!("{text}"))
    };
    let early = title("300s");
    let call = early.split("longest call ").nth(1).and_then(|r| r.split(' ').next()).expect("a call").to_string();
    assert!(call.parse::<u32>().is_ok_and(|ms| ms > 200), "{early}");
    assert!(title("600s").contains(&format!("longest call {call} ms")), "{}", title("600s"));
}

/// A time until something happens that has not happened yet is read as
/// the time so far, said so: at 40 s lesson 13's `time to 90% of thresh:
/// 40 s` was taken for the answer.
#[test]
fn a_time_not_reached_yet_reads_as_so_far() {
    let row = |at: &str| {
        let text = snapshot(&["--lesson", "13", "--step", "2", "--at", at, "--size", "160x48"]);
        text.lines()
            .find(|l| l.contains("time to 90% of thresh"))
            .map(str::to_string)
            .unwrap_or_else(|| panic!("{text}"))
    };
    assert!(row("40s").contains("time to 90% of thresh: not yet, 40 s so far"), "{}", row("40s"));
    let end = row("85s");
    assert!(end.contains("time to 90% of thresh: 7") && !end.contains("not yet"), "{end}");
    // Reached at the sample of 77.1 s: said so from that sample on (a
    // comparison with the time so far said `not yet` 50 ms longer).
    let just = row("77149ms");
    assert!(just.contains("time to 90% of thresh: 77.1 s") && !just.contains("not yet"), "{just}");
}

/// A time that never came within the step is not an answer: with B's dd
/// removed in lesson 13's step 2, B never reaches 90%. The reading, the
/// check and the answer say so; `90` was judged right, the step's length.
#[test]
fn a_time_never_reached_has_no_right_answer() {
    let text = snapshot(&["--lesson", "13", "--step", "2", "--keys", "@1s - a 9 0 enter", "--size", "140x60"]);
    assert!(text.contains("time to 90% of thresh: not reached in 90 s"), "{text}");
    assert!(text.contains("not reached in 90 s (70..85)"), "{text}");
    assert!(text.contains("✗ you said 90 s, but it did not happen in the"), "{text}");
    let live = snapshot(&["--lesson", "13", "--step", "2", "--keys", "@1s -", "--at", "40s", "--size", "140x60"]);
    assert!(live.contains("not yet, 40 s so far (70..85)") && !live.contains("now not yet"), "{live}");
}

/// A note that has stood 20 s of simulated time yields to the kernel
/// where the status line has room for one of them: at 60 columns a
/// log-scale note of a minute before left out the patch level.
#[test]
fn an_old_note_yields_to_the_kernel_on_a_narrow_status_line() {
    let status = |keys: &str, at: &str| {
        let screen = snapshot(&["--size", "60x18", "--keys", keys, "--at", at]);
        screen.lines().next().expect("a status line").to_string()
    };
    let old = status("l", "60s");
    assert!(old.contains("patch 11") && !old.contains("log scale"), "{old}");
    let fresh = status("@50s l", "60s");
    assert!(fresh.contains("charts 4 and 5: log scale"), "{fresh}");
    // A note naming the level just set stands for the kernel's segment
    // while fresh; then the segment comes back (neither showed).
    assert!(status("@5s p", "20s").contains("patch level: patch 10"), "{}", status("@5s p", "20s"));
    let later = status("@5s p", "40s");
    assert!(later.contains("│ patch 10 (IO-less) │") && !later.contains("patch level"), "{later}");
}

/// Keys whose work is outside the screen (`s` saves an SVG, `q` quits,
/// Ctrl-Z suspends) do nothing in a snapshot, and say so once on stderr:
/// `s` saved nothing and said nothing.
#[test]
fn keys_a_snapshot_cannot_act_on_are_said_once() {
    let dir = empty_dir("snapshot-s");
    let out = dirtyviz()
        .current_dir(&dir)
        .args(["snapshot", "--keys", "s s q + ctrl-z", "--size", "120x24"])
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let notes: Vec<&str> = stderr.lines().collect();
    assert_eq!(
        notes,
        [
            "note: --keys: a snapshot saves no file of its own: -o FILE.svg writes the screen",
            "note: --keys: a snapshot does not quit; the keys after it are pressed too",
            "note: --keys: a snapshot does not suspend",
        ]
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("added a dd"), "the keys after q were pressed");
    assert_eq!(std::fs::read_dir(&dir).expect("dir").count(), 0, "no file saved");
    // With -o, no advice to give one.
    let out = dirtyviz().current_dir(&dir).args(["snapshot", "--keys", "s", "-o", "w.svg"]).output().expect("runs");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "note: --keys: a snapshot saves no file of its own: -o writes this screen\n"
    );
    assert!(dir.join("w.svg").exists());
    // A trace's snapshot says so too (it said nothing).
    let out = dirtyviz()
        .current_dir(&dir)
        .args(["view", "--example", "--snapshot", "--keys", "s q ctrl-z s"])
        .output()
        .expect("runs");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "note: --keys: a snapshot saves no file of its own: dirtyviz plot draws a trace's charts as SVG\n\
         note: --keys: a snapshot does not quit; the keys after it are pressed too\n\
         note: --keys: a snapshot does not suspend\n"
    );
    assert_eq!(std::fs::read_dir(&dir).expect("dir").count(), 1, "no file saved but w.svg");
    // -q: nothing but errors.
    let out = dirtyviz().args(["view", "--example", "--snapshot", "-q", "--keys", "s q"]).output().expect("runs");
    assert!(out.status.success() && out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// The task table's last heading, nr_dirtied_pause, is whole at 120x40:
/// where every task is a dd, the kind's column gives way to it; a
/// pipeline beside dd keeps it.
#[test]
fn the_task_table_heads_nr_dirtied_pause_whole() {
    let header = |scenario: &str| {
        let text = snapshot(&["--scenario", scenario, "--size", "120x40", "--keys", "T"]);
        text.lines().find(|l| l.contains("││task ")).map(str::to_string).expect("a task table")
    };
    let dd = header("hdd-10dd");
    assert!(dd.contains("pause ms nr_dirtied_pause") && !dd.contains("kind"), "{dd}");
    let mixed = header("rsync");
    assert!(mixed.contains("kind"), "{mixed}");
}

/// A task table already at the end a key scrolls to says so (↑ at its top
/// said nothing); the lesson list names what Esc goes back to.
#[test]
fn keys_at_the_task_tables_ends_and_the_lesson_lists_esc_say_what_they_do() {
    let status = |keys: &str| {
        let text = snapshot(&["--scenario", "hdd-100dd", "--size", "80x24", "--keys", keys]);
        text.lines().next().expect("a status line").to_string()
    };
    for keys in ["@59s T up", "@59s T pgup", "@59s T home"] {
        assert!(status(keys).ends_with("│ the task table shows its first task already"), "{keys}: {}", status(keys));
    }
    assert!(status("@59s T end pgdn").ends_with("│ the task table shows its last task already"));
    assert!(!status("@59s T down").contains("already"), "{}", status("@59s T down"));
    let list = snapshot(&["--size", "100x30", "--keys", "L"]);
    assert!(list.contains("Esc back to the dashboard"), "{list}");
    let list = snapshot(&["--lesson", "03", "--size", "100x30", "--keys", "L"]);
    assert!(list.contains("Esc back to lesson 03"), "{list}");
}

/// Of several bdis, the one a chart shows is named in its title before
/// its values are kept whole (chart 2 of ukey-hdd at 100x30 named it
/// nowhere but the status line); of one, the values come first.
#[test]
fn a_chart_of_one_bdi_of_several_names_it_where_room_is_short() {
    let title = |args: &[&str], chart: &str| {
        let text = snapshot(args);
        let row = text.lines().find(|l| l.contains(&format!("┌ {chart} "))).map(str::to_string);
        row.unwrap_or_else(|| panic!("chart {chart}:\n{text}"))
    };
    let two = title(&["--scenario", "ukey-hdd", "--size", "100x30", "--keys", "b"], "2");
    assert!(two.contains("┌ 2 bdi dirty pages (sda)  601 of 683 MiB"), "{two}");
    let lesson = title(&["--lesson", "14", "--size", "100x30"], "2");
    assert!(lesson.contains("(sdb, USB key)"), "{lesson}");
    let one = title(&["--scenario", "hdd-10dd", "--size", "100x30"], "2");
    assert!(!one.contains("(sda") && one.contains("of thresh"), "{one}");
}
