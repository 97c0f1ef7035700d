//! The dashboard's screens, drawn into a test backend after a fixed number
//! of deterministic steps, at fixed sizes.

use dirtyviz::app::{App, AppOptions, Msg, ThemeKind};
use dirtyviz::scenario::presets;
use dirtyviz::session::Compare;
use dirtyviz::sim::NS_PER_SEC;
use dirtyviz::ui::{snapshot, view};

/// The screen's text, one line per row.
pub fn screen(app: &App, width: u16, height: u16) -> String {
    snapshot::text(&snapshot::render(app, width, height)).lines().collect::<Vec<_>>().join("\n")
}

pub fn app(preset: &str, compare: Option<Compare>, seconds: u64) -> App {
    let s = presets::get(preset).expect("preset").expect("valid");
    let opts = AppOptions { theme: ThemeKind::Mono, ..AppOptions::default() };
    let mut app = App::new(s, compare, &opts).expect("app");
    app.advance_to(seconds * NS_PER_SEC);
    app
}

/// The labels of the y axes in the columns `cols` of `text`: the numbers
/// before each `┤`, row by row.
fn y_labels(text: &str, cols: std::ops::Range<usize>) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let row: String = l.chars().skip(cols.start).take(cols.len()).collect();
            let (before, _) = row.split_once('┤')?;
            let label = before.rsplit(['│', ' ']).next()?.to_string();
            (!label.is_empty()).then_some(label)
        })
        .collect()
}

#[test]
fn default_at_full_size() {
    insta::assert_snapshot!(screen(&app("default", None, 20), 160, 48));
}

#[test]
fn default_at_100x30() {
    insta::assert_snapshot!(screen(&app("default", None, 20), 100, 30));
}

#[test]
fn too_small_at_40x12() {
    let text = screen(&app("default", None, 1), 40, 12);
    assert!(text.contains("terminal too small") && text.contains("need 60×18"), "{text}");
    insta::assert_snapshot!(text);
    // A chart's number sets no note (the chart shows it): here it is told.
    let mut zoomed = app("default", None, 1);
    zoomed.update(Msg::Zoom(4));
    let text = screen(&zoomed, 40, 12).split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(text.contains("for a larger window: chart 4 full screen"), "{text}");
    zoomed.update(Msg::FocusTasks);
    let text = screen(&zoomed, 40, 12).split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(text.contains("for a larger window: chart 4 full screen, task table focused"), "{text}");
}

#[test]
fn help_lists_every_key_and_every_legend_entry() {
    let mut a = app("default", None, 1);
    a.update(Msg::Help);
    let area = view::help_area(ratatui::layout::Rect::new(0, 0, 160, 48));
    let full = screen(&a, 160, 48);
    // The popup only, so that a change to the charts behind it does not
    // change this snapshot.
    let popup: String = full
        .lines()
        .skip(area.y as usize)
        .take(area.height as usize)
        .map(|l| l.chars().skip(area.x as usize).take(area.width as usize).collect::<String>() + "\n")
        .collect();
    for b in dirtyviz::ui::keys::HELP.iter().flat_map(|s| s.bindings) {
        assert!(popup.contains(b.help), "help shows {:?}", b.help);
    }
    for e in dirtyviz::ui::charts::GLOSSARY {
        assert!(popup.contains(e.name), "help explains {:?}", e.name);
    }
    insta::assert_snapshot!(popup);
}

#[test]
fn compare_legacy_with_io_less() {
    let text = screen(&app("hdd-10dd", Some(Compare::Legacy(11)), 10), 160, 48);
    assert!(text.contains("legacy 3.1 (IO-full)") && text.contains("patch 11 (IO-less)"));
    assert!(text.contains("A legacy 3.1 vs B patch 11"), "both kernels on the status line: {text}");
    insta::assert_snapshot!(text);
}

#[test]
fn compared_sides_share_their_y_axes() {
    // 3.1 has no pos_ratio: chart 3 is compared between patches 10 and 11.
    for (compare, key) in [
        (Compare::Legacy(11), None),
        (Compare::Legacy(11), Some(2)),
        (Compare::Patch(11), Some(3)),
        (Compare::Legacy(11), Some(4)),
        (Compare::Legacy(11), Some(5)),
    ] {
        let mut a = app("hdd-10dd", Some(compare), 20);
        if let Some(n) = key {
            a.update(Msg::Zoom(n));
        }
        let text = screen(&a, 160, 48);
        let (left, right) = (y_labels(&text, 0..80), y_labels(&text, 80..160));
        assert!(left.len() >= 3, "{key:?}: {left:?}\n{text}");
        assert_eq!(left, right, "{key:?}: the two sides' y labels\n{text}");
    }
}

#[test]
fn zoomed_pos_ratio_chart() {
    let mut a = app("default", None, 20);
    a.update(Msg::Zoom(3));
    let text = screen(&a, 100, 30);
    assert!(text.contains("3 pos_ratio") && text.contains("1/4 floor") && text.contains("reserve"), "{text}");
    assert!(text.contains("freerun, setpoint, limit") && text.contains("bdi_setpoint") && text.contains("now"));
    insta::assert_snapshot!(text);
}

/// A chart on `text`, found by `title`: the rows of its plot (the rows
/// with its y axis, above its x axis), each as its text inside the
/// frame, the y axis at column `axis` of it.
struct Plot {
    rows: Vec<String>,
    axis: usize,
}

fn plot_of(text: &str, title: &str) -> Option<Plot> {
    let lines: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
    let (top, line) = lines.iter().enumerate().find(|(_, l)| l.iter().collect::<String>().contains(title))?;
    let title_at = line.iter().collect::<String>().find(title)?;
    // The frame's corner: the last ┌ before the title.
    let left = line.iter().collect::<String>()[..title_at].chars().count();
    let left = line[..left].iter().rposition(|&c| c == '┌')?;
    let right = left + 1 + line[left + 1..].iter().position(|&c| c == '┐')?;
    let inner = |l: &Vec<char>| l.get(left + 1..right).map(|c| c.iter().collect::<String>()).unwrap_or_default();
    let body: Vec<String> = lines[top + 1..].iter().take_while(|l| l.get(left) == Some(&'│')).map(inner).collect();
    let axis_row = body.iter().position(|l| l.contains('└'))?;
    let axis = body[axis_row].chars().position(|c| c == '└')?;
    let rows = body[..axis_row].iter().filter(|l| matches!(l.chars().nth(axis), Some('┤' | '│'))).cloned().collect();
    Some(Plot { rows, axis })
}

#[test]
fn at_80x24_with_the_task_table_open_the_charts_keep_rows_to_plot_on() {
    // The parameters in one row, a legend in one row on the frame and the
    // x labels on the axis line where rows are short: charts 1 and 2 plot
    // on five rows (two, on the rows 0 and 1000 of their axes, when the
    // parameters took three and the legends two each), and chart 5 plots
    // (it had no room).
    let mut a = app("rsync", None, 10);
    a.update(Msg::FocusTasks);
    let text = screen(&a, 80, 24);
    for title in ["1 global dirty", "2 bdi dirty"] {
        let plot = plot_of(&text, title).unwrap_or_else(|| panic!("{title}: no plot\n{text}"));
        assert!(plot.rows.len() >= 4, "{title}: {} plot rows\n{text}", plot.rows.len());
        let ticks: Vec<String> = plot
            .rows
            .iter()
            .map(|r| r.chars().take(plot.axis).collect::<String>().trim().to_string())
            .filter(|t| !t.is_empty())
            .collect();
        assert_eq!(ticks, ["800", "400", "0"], "{title}: y labels\n{text}");
        // thresh and limit (737 MiB) on the top row, the setpoint (645)
        // on the next: each line's value on its own row.
        // In mono a value follows its line's glyph (`┅737`).
        let value = |r: &String| {
            let last = r.split_whitespace().last().unwrap_or("");
            last.trim_start_matches(|c: char| !c.is_ascii_digit()).to_string()
        };
        assert_eq!(value(&plot.rows[0]), "737", "{title}\n{text}");
        assert_eq!(value(&plot.rows[1]), "645", "{title}\n{text}");
    }
    let five = plot_of(&text, "5 pauses").unwrap_or_else(|| panic!("chart 5: no plot\n{text}"));
    assert!(five.rows.len() >= 2, "chart 5: {} plot rows\n{text}", five.rows.len());
    assert!(!text.contains("no room"), "{text}");
    // Every line the charts draw is named on the screen, and every threshold.
    for name in ["dirty", "wb", "thr", "lim", "set", "free", "bg", "bg_thresh", "thresh 737"] {
        assert!(text.contains(name), "{name}\n{text}");
    }
}

#[test]
fn a_narrow_chart_says_what_its_kernel_lacks_in_one_row() {
    // At 80x24 chart 2 is 36 columns wide: 'bdi_setpoint: not used by
    // this kernel' took two rows, and chart 2 plotted on one row fewer
    // than chart 1 beside it.
    let mut s = presets::get("rsync").expect("preset").expect("valid");
    let l = dirtyviz::cli::patches("legacy").expect("level");
    s.apply(&dirtyviz::scenario::Overrides { patches: Some(l.patches), legacy: Some(l.legacy), ..Default::default() });
    let opts = AppOptions { theme: ThemeKind::Mono, ..AppOptions::default() };
    let mut a = App::new(s, None, &opts).expect("app");
    a.advance_to(10 * NS_PER_SEC);
    a.update(Msg::FocusTasks);
    let text = screen(&a, 80, 24);
    assert!(text.contains("│no bdi_setpoint in this kernel "), "{text}");
    assert!(text.contains("│no dirty_ratelimit in this kernel"), "{text}");
    // Where the whole note fits, it is written whole.
    assert!(text.contains("│setpoint: not used by this kernel "), "{text}");
    let rows = |title: &str| plot_of(&text, title).map(|p| p.rows.len());
    assert_eq!(rows("1 global dirty"), Some(4), "{text}");
    assert_eq!(rows("2 bdi dirty"), Some(4), "{text}");
    let big = screen(&a, 160, 48);
    assert!(big.contains("bdi_setpoint: not used by this kernel"), "{big}");
}

#[test]
fn every_chart_title_and_legend_is_on_screen() {
    let full = [
        "setpoint",
        "freerun",
        "limit",
        "bdi_thresh",
        "dirty_ratelimit",
        "task_ratelimit",
        "balanced",
        "write_bw/N",
        "max_pause",
        "1/4 floor",
    ];
    // Narrow charts fall back to short legend labels.
    let short = ["set", "free", "lim", "thr", "rate", "bw/N", "max", "1/4"];
    for ((w, h), legend) in [((160, 48), &full[..]), ((100, 30), &short[..])] {
        let text = screen(&app("hdd-10dd", None, 15), w, h);
        for needle in view::SHORT_TITLES {
            assert!(text.contains(needle), "{w}x{h}: title {needle} missing\n{text}");
        }
        for needle in legend {
            assert!(text.contains(needle), "{w}x{h}: legend {needle} missing\n{text}");
        }
    }
}

#[test]
fn chart_1_labels_its_axis_and_its_thresholds() {
    let text = screen(&app("default", None, 30), 160, 48);
    let labels = y_labels(&text, 0..70);
    let numbers = labels.iter().filter(|l| l.parse::<f64>().is_ok()).count();
    assert!(numbers >= 3, "at least three numeric y labels: {labels:?}");
    // setpoint 645 MiB and limit 737 MiB at the lines' right ends.
    let s = app("default", None, 30);
    let last = s.world().samples().back().expect("a sample");
    for v in [last.setpoint, last.limit] {
        let mib = format!("{:.0}", v as f64 / 256.0);
        assert!(text.lines().skip(1).take(16).any(|l| l.contains(&format!("{mib}││"))), "{mib}\n{text}");
    }
}

#[test]
fn old_kernels_draw_no_setpoint_and_say_so_at_80x24() {
    // They throttle no task below the freerun ceiling, (thresh +
    // bg_thresh) / 2, as the series does: that line they draw.
    for level in ["legacy", "2.6.38"] {
        let mut s = presets::get("hdd-10dd").expect("preset").expect("valid");
        let l = dirtyviz::cli::patches(level).expect("level");
        s.apply(&dirtyviz::scenario::Overrides {
            patches: Some(l.patches),
            legacy: Some(l.legacy),
            ..Default::default()
        });
        let opts = AppOptions { theme: ThemeKind::Mono, ..AppOptions::default() };
        let mut a = App::new(s, None, &opts).expect("app");
        a.advance_to(10 * NS_PER_SEC);
        let text = screen(&a, 80, 24);
        assert!(text.contains("not used by this kernel"), "{level}: {text}");
        let big = screen(&a, 160, 48);
        let chart1: String = big.lines().skip(1).take(17).map(|l| l.chars().take(70).collect::<String>()).collect();
        assert!(chart1.contains("setpoint: not used by this kernel"), "{level}: {chart1}");
        assert_eq!(chart1.matches("setpoint").count(), 1, "{level}: setpoint only in the note\n{big}");
        assert!(!chart1.contains("freerun: not used"), "{level}: {chart1}");
        assert!(big.contains("freerun"), "{level}: the freerun line\n{big}");
        // Linux 3.1 brought the smoothed global_dirty_limit: 2.6.38 has
        // no limit to draw or list, only thresh.
        let panel: Vec<&str> = big.lines().filter(|l| l.contains("│limit ") || l.contains("lim")).collect();
        let has_limit = big.contains(" lim") || big.lines().any(|l| l.contains("││limit "));
        assert_eq!(has_limit, level == "legacy", "{level}: {panel:?}\n{big}");
    }
}

#[test]
fn the_status_and_hint_bars_keep_help_quit_and_a_note_from_60_columns() {
    let mut a = app("hdd-10dd", Some(Compare::Legacy(11)), 2);
    a.set_note("progress not saved: Permission denied");
    for w in [60, 80, 100, 120, 160, 200] {
        let text = screen(&a, w, 24);
        let (status, hints) = (text.lines().next().expect("status"), text.lines().last().expect("hints"));
        assert!(hints.contains("? help") && hints.contains("q quit"), "{w}: {hints}");
        assert!(status.contains("progress not saved"), "{w}: {status}");
        assert!(status.chars().count() <= w as usize, "{w}: {status}");
    }
}

#[test]
fn the_status_line_says_log_scale_once_beside_a_note_wherever_it_has_room() {
    let mut a = app("default", None, 10);
    a.update(Msg::LogScale);
    a.set_note("added a dd on sda (HDD)");
    let status = |a: &App, w: u16, h: u16| screen(a, w, h).lines().next().expect("status").to_string();
    // In full where it leaves nothing else out, `log` where it would.
    assert_eq!(
        status(&a, 100, 30),
        " t 10.0 s │ 1× │ patch 11 (IO-less) │ running │ bdi sda (HDD) │ log scale │ added a dd on sda (HDD)"
    );
    assert_eq!(status(&a, 80, 24), " t 10.0 s │ 1× │ patch 11 (IO-less) │ running │ log │ added a dd on sda (HDD)");
    // The kernel's name goes, making room for it: it was left out too.
    assert_eq!(status(&a, 60, 18), " t 10.0 s │ 1× │ running │ log │ added a dd on sda (HDD)");
    // Right after l the note says it: once, not `log │ charts 4 and 5:
    // log scale`.
    a.set_note("charts 4 and 5: log scale");
    assert_eq!(
        status(&a, 100, 30),
        " default │ t 10.0 s │ 1× │ patch 11 (IO-less) │ running │ bdi sda (HDD) │ charts 4 and 5: log scale"
    );
    assert_eq!(status(&a, 60, 18), " t 10.0 s │ 1× │ running │ charts 4 and 5: log scale");
}

#[test]
fn the_task_table_scrolls_and_says_how_many_are_below() {
    let mut a = app("hdd-100dd", None, 3);
    let text = screen(&a, 160, 48);
    assert!(text.contains("more (↓, or T then PgDn)"), "{text}");
    a.update(Msg::FocusTasks);
    a.update(Msg::ScrollTasks(10));
    let text = screen(&a, 160, 48);
    // The rows shown, counted from 1, beside the tasks' ids, which count
    // from 0: 'from 11' stood over task 10.
    assert!(text.contains("tasks (100 live, rows 11–21)"), "{text}");
    // The table has the keys: PgDn pages it now, no T first.
    assert!(text.contains("… 79 more (↓, PgDn)"), "{text}");
    let ids: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.contains("│task "))
        .skip(1)
        .filter_map(|l| l.rsplit("││").next()?.trim_start_matches('│').split_whitespace().next())
        .take_while(|id| id.parse::<u32>().is_ok())
        .collect();
    assert_eq!((ids.first(), ids.last()), (Some(&"10"), Some(&"20")), "{text}");
}

#[test]
fn every_size_from_tiny_to_huge_draws() {
    let mut a = app("jbod-10hdd", None, 3);
    for (w, h) in [(1, 1), (10, 5), (59, 17), (60, 18), (79, 23), (80, 24), (139, 39), (140, 40), (300, 100)] {
        screen(&a, w, h);
        a.update(Msg::Zoom(5));
        screen(&a, w, h);
        a.update(Msg::Zoom(5));
        a.update(Msg::LogScale);
        screen(&a, w, h);
        a.update(Msg::Compare);
        screen(&a, w, h);
        a.update(Msg::Help);
        screen(&a, w, h);
        a.update(Msg::Help);
    }
}

/// The help's rows in a `width` x `height` screen of `app`: inside its frame.
fn help_rows(app: &App, width: u16, height: u16) -> Vec<String> {
    let area = view::help_area(ratatui::layout::Rect::new(0, 0, width, height));
    screen(app, width, height)
        .lines()
        .skip(area.y as usize + 1)
        .take(area.height.saturating_sub(2) as usize)
        .map(|l| l.chars().skip(area.x as usize + 1).take(area.width as usize - 2).collect())
        .collect()
}

#[test]
fn the_help_scrolls_to_its_last_line_and_back_at_once_at_any_size() {
    // Mono greys nothing, so its help ends on chart 5's last line, its
    // mark: "▲ a throttling call still blocked, at how long it has lasted
    // so far".
    let at_end = |rows: &[String]| {
        let text: Vec<&str> = rows.iter().map(|l| l.trim()).filter(|l| !l.is_empty()).collect();
        text.last().is_some_and(|l| l.ends_with(" so far") || *l == "far")
            && text.iter().any(|l| l.contains("max_pause"))
    };
    let mut a = app("default", None, 1);
    a.update(Msg::Help);
    for (w, h) in [(60, 18), (80, 24), (120, 40)] {
        a.set_scroll_room(view::scroll_room(&a, ratatui::layout::Rect::new(0, 0, w, h)));
        for _ in 0..30 {
            a.update(Msg::ScrollHelp(10));
        }
        let end = help_rows(&a, w, h);
        assert!(at_end(&end), "{w}x{h}: the last line\n{}", end.join("\n"));
        a.update(Msg::ScrollHelp(-1));
        assert_ne!(help_rows(&a, w, h), end, "{w}x{h}: one row back moves the help");
        // In a larger terminal the help scrolled this far still shows its end.
        let larger = help_rows(&a, w + 20, h + 6);
        assert!(at_end(&larger), "{w}x{h} then larger:\n{}", larger.join("\n"));
    }
}

/// The help's bottom border in a `width` x `height` screen of `app`.
fn help_bottom(app: &App, width: u16, height: u16) -> String {
    let area = view::help_area(ratatui::layout::Rect::new(0, 0, width, height));
    let text = screen(app, width, height);
    let row = text.lines().nth((area.y + area.height - 1) as usize).expect("the help's last row");
    row.chars().skip(area.x as usize).take(area.width as usize).collect()
}

#[test]
fn the_help_says_where_it_goes_on() {
    let mut a = app("default", None, 1);
    a.update(Msg::Help);
    for (w, h) in [(60, 18), (80, 24)] {
        a.set_scroll_room(view::scroll_room(&a, ratatui::layout::Rect::new(0, 0, w, h)));
        let top = help_bottom(&a, w, h);
        assert!(top.contains("▼ more: PgDn") && !top.contains('▲') && top.contains("Esc"), "{w}x{h} top: {top}");
        a.update(Msg::ScrollHelp(1));
        let middle = help_bottom(&a, w, h);
        assert!(middle.contains("▲ PgUp · ▼ PgDn"), "{w}x{h} middle: {middle}");
        for _ in 0..30 {
            a.update(Msg::ScrollHelp(10));
        }
        let end = help_bottom(&a, w, h);
        assert!(end.contains("▲ PgUp") && !end.contains('▼'), "{w}x{h} end: {end}");
        for _ in 0..30 {
            a.update(Msg::ScrollHelp(-10));
        }
    }
    // Where it all fits, there is nowhere to go.
    let mut a = app("default", None, 1);
    a.update(Msg::Help);
    a.set_scroll_room(view::scroll_room(&a, ratatui::layout::Rect::new(0, 0, 200, 60)));
    let all = help_bottom(&a, 200, 60);
    assert!(!all.contains('▼') && !all.contains('▲') && all.contains("Esc or ? closes"), "200x60: {all}");
}

#[test]
fn where_charts_are_left_out_the_hint_bar_names_the_chart_keys_first() {
    let a = app("default", None, 2);
    // One chart at a time, or four without the pauses (80x24): the chart
    // keys are the way to the others.
    for (w, h) in [(60, 18), (79, 30), (100, 23), (80, 24)] {
        let text = screen(&a, w, h);
        let hints = text.lines().last().expect("hints");
        assert!(hints.starts_with(" 1-5 chart "), "{w}x{h}: {hints}");
    }
    for (w, h) in [(120, 40), (160, 48)] {
        let text = screen(&a, w, h);
        assert!(text.contains("5 pauses"), "{w}x{h}: all five charts\n{text}");
        assert!(!text.lines().last().expect("hints").contains("1-5 chart"), "{w}x{h}:\n{text}");
    }
}

/// `r` restarts the scenario: the hint bar calls it what the help and the
/// README call it (it said `r reset` beside a help that said "restart").
#[test]
fn the_hint_bar_help_and_readme_all_say_r_restarts() {
    let mut a = app("default", None, 2);
    let text = screen(&a, 160, 48);
    let hints = text.lines().last().expect("hints");
    assert!(hints.contains(" r restart ") && !hints.contains("reset"), "{hints}");
    a.update(Msg::Help);
    let help = screen(&a, 160, 48);
    assert!(help.contains("restart the scenario") && !help.contains("reset"), "{help}");
    let readme =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).expect("README");
    let row = readme.lines().find(|l| l.starts_with("| `r` |")).expect("README has r");
    assert!(row.contains("restart the scenario"), "{row}");
}

/// `--debug` asks for the frame time: the status line keeps it beside a
/// note, ahead of the scenario, window, bdi and kernel (it went first
/// after "dirtyviz", gone at 160 columns where a note showed).
#[test]
fn the_frame_time_of_debug_stays_on_the_status_line_beside_a_note() {
    let s = presets::get("hdd-10dd").expect("preset").expect("valid");
    let opts = AppOptions { theme: ThemeKind::Mono, debug: true, ..AppOptions::default() };
    let mut a = App::new(s, Some(Compare::Legacy(11)), &opts).expect("app");
    a.advance_to(2 * NS_PER_SEC);
    a.set_frame_ms(12.25, 13.5);
    a.set_note("progress not saved: Permission denied");
    for w in [80, 100, 120, 160, 250] {
        let text = screen(&a, w, 24);
        let status = text.lines().next().expect("status");
        assert!(status.contains("frame 12.2 ms") && status.contains("progress not saved"), "{w}: {status}");
    }
    // In full where that leaves nothing else out, short where it would.
    let status = |w| screen(&a, w, 24).lines().next().expect("status").to_string();
    assert!(status(250).contains("frame 12.2 ms (+1.2 out)"), "{}", status(250));
    assert!(status(200).contains(" hdd-10dd │ t 2.0 s │") && status(200).contains("(+1.2 out)"), "{}", status(200));
    // At 160 the full form would leave out the window (the program's name,
    // out first, does not come back in its place): the short one.
    assert!(status(160).contains("window 1 min │") && !status(160).contains("(+1.2 out)"), "{}", status(160));
    assert!(status(140).contains(" hdd-10dd │ t 2.0 s │") && !status(140).contains("(+1.2 out)"), "{}", status(140));
}

/// Draws `app` at `width` x `height` as a terminal would, telling it how
/// far things can scroll on that screen; returns the screen's text.
fn drawn(app: &mut App, width: u16, height: u16) -> String {
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(width, height)).expect("backend");
    let mut room = None;
    terminal
        .draw(|f| {
            room = Some(view::draw(app, f));
        })
        .expect("draws");
    app.set_scroll_room(room.expect("drawn"));
    snapshot::text(terminal.backend().buffer())
}

#[test]
fn the_task_table_scrolls_to_its_last_page_and_back_at_once() {
    let mut a = app("hdd-100dd", None, 3);
    a.update(Msg::FocusTasks);
    for (w, h) in [(60, 18), (80, 24), (160, 48)] {
        drawn(&mut a, w, h);
        for _ in 0..150 {
            a.update(Msg::ScrollTasks(1));
        }
        let end = drawn(&mut a, w, h);
        assert!(!end.contains("more (↓"), "{w}x{h}: the last page\n{end}");
        a.update(Msg::ScrollTasks(-1));
        let back = drawn(&mut a, w, h);
        assert_ne!(back, end, "{w}x{h}: one row up moves the table\n{back}");
        for _ in 0..150 {
            a.update(Msg::ScrollTasks(-1));
        }
    }
}

/// Every box of `screen` whose title starts with `title`: its rows, frame
/// included, as text.
fn boxes(screen: &str, title: &str) -> Vec<Vec<String>> {
    let grid: Vec<Vec<char>> = screen.lines().map(|l| l.chars().collect()).collect();
    let mut found = Vec::new();
    for (top, row) in grid.iter().enumerate() {
        let text: String = row.iter().collect();
        for (byte, _) in text.match_indices(&format!("┌ {title}")) {
            let left = text[..byte].chars().count();
            let right = (left + 1..row.len()).find(|&c| row[c] == '┐').expect("the box's corner");
            let rows = grid[top..]
                .iter()
                .take_while(|r| r.get(left) != Some(&'└') || r.get(left + 1).is_none())
                .chain(grid[top..].iter().find(|r| r.get(left) == Some(&'└')))
                .map(|r| r[left..=right.min(r.len() - 1)].iter().collect())
                .collect();
            found.push(rows);
        }
    }
    found
}

/// Chart 4's rates say their unit wherever the chart shows, plotted or
/// not, and the titles that name the bdi keep it.
#[test]
fn chart_4_says_its_unit_and_keeps_the_bdi_in_its_title() {
    use dirtyviz::lesson::Lesson;
    use dirtyviz::lesson::progress::Progress;
    let opts = AppOptions { theme: ThemeKind::Mono, ..AppOptions::default() };
    let lesson = |id: &str, step: usize, seconds: u64| {
        let mut a =
            App::for_lesson(Lesson::resolve(id).expect("shipped"), step, Progress::default(), &opts).expect("opens");
        a.advance_to(seconds * NS_PER_SEC);
        a
    };
    let apps = [
        ("default", app("default", None, 20)),
        ("compare", app("hdd-10dd", Some(Compare::Legacy(11)), 10)),
        ("lesson 04 step 3", lesson("04", 2, 10)),
        ("lesson 07 step 1", lesson("07", 0, 10)),
        // A long legend on the left chart, which has no room to plot.
        ("lesson 04 step 5", lesson("04", 4, 3)),
    ];
    for (name, a) in &apps {
        for (w, h) in [(80, 24), (100, 30), (160, 48)] {
            let text = screen(a, w, h);
            // Chart 4 by its number: where it is narrow, its values stay and its
            // name goes.
            let charts = boxes(&text, "4 ");
            assert!(!charts.is_empty(), "{name} {w}x{h}: chart 4\n{text}");
            for chart in charts {
                let chart = chart.join("\n");
                assert!(chart.contains("MiB/s"), "{name} {w}x{h}: the unit\n{chart}");
                // Where the title has room for the bdi beside its value.
                if w == 160 && matches!(*name, "default" | "lesson 04 step 3") {
                    assert!(chart.lines().next().is_some_and(|t| t.contains("(sda, HDD)")), "{name}: {chart}");
                }
            }
        }
    }
}

/// The numbers in chart 4's title carry their unit at every width where
/// the title shows a number: the rate compared with write_bw/N is in MiB/s.
#[test]
fn chart_4_title_numbers_carry_their_unit() {
    let apps = [("default", app("default", None, 20)), ("hdd-100dd", app("hdd-100dd", None, 20))];
    for (name, a) in &apps {
        for (w, h) in [(200, 60), (160, 48), (120, 40), (100, 30), (80, 24), (60, 20)] {
            let text = screen(a, w, h);
            for chart in boxes(&text, "4 ") {
                let title = &chart[0];
                if title.contains(" vs ") || title.contains("bw/N") {
                    assert!(title.contains("MiB/s"), "{name} {w}x{h}: {title}");
                }
            }
        }
    }
}

/// Compared charts plot on the same rows, so that a line on one side can
/// be read against the other by eye: a notice on one side only (3.1 has
/// no setpoint) or a legend that takes one more line does not push its
/// plot down.
#[test]
fn compared_sides_plot_on_the_same_rows() {
    let row_labels = |text: &str, cols: std::ops::Range<usize>| -> Vec<Option<String>> {
        text.lines()
            .map(|l| {
                let row: String = l.chars().skip(cols.start).take(cols.len()).collect();
                let (before, _) = row.split_once('┤')?;
                Some(before.rsplit(['│', ' ']).next()?.to_string())
            })
            .collect()
    };
    for compare in [Compare::Legacy(11), Compare::Linux2638(11), Compare::DirtyRatio(10)] {
        let a = app("hdd-10dd", Some(compare), 20);
        for (w, h) in [(160, 48), (120, 40), (100, 30), (80, 24)] {
            let text = screen(&a, w, h);
            let half = usize::from(w) / 2;
            let (left, right) = (row_labels(&text, 0..half), row_labels(&text, half..usize::from(w)));
            assert!(left.iter().flatten().count() >= 3, "{compare:?} {w}x{h}\n{text}");
            assert_eq!(left, right, "{compare:?} {w}x{h}: the y labels row by row\n{text}");
        }
    }
}

/// The help explains each series with the glyph its chart's legend shows:
/// chart 5's pauses are dots and chart 3's product a dashed line, in the
/// help as on the charts.
#[test]
fn the_help_shows_each_series_with_its_legend_glyph() {
    let s = presets::get("default").expect("preset").expect("valid");
    let opts = AppOptions { theme: ThemeKind::Dark, ..AppOptions::default() };
    let mut a = App::new(s, None, &opts).expect("app");
    a.advance_to(20 * NS_PER_SEC);
    let charts = screen(&a, 160, 48);
    a.update(Msg::Help);
    let help = screen(&a, 160, 48);
    for entry in ["• sleep", "• throttling call", "╍ product = pos_ratio", "━ dirty", "━ max_pause"] {
        assert!(charts.contains(entry), "the chart's legend shows {entry:?}\n{charts}");
        assert!(help.contains(entry), "the help shows {entry:?}\n{help}");
    }
}

/// A chart plots with a y scale to read it against (two labels at
/// least), or says it has no room: never one row under a single label,
/// where a line marked 1024 sits beside the tick 2000.
#[test]
fn a_plotted_chart_has_two_y_labels_at_least() {
    use dirtyviz::lesson::Lesson;
    use dirtyviz::lesson::progress::Progress;
    let opts = AppOptions { theme: ThemeKind::Mono, ..AppOptions::default() };
    let lesson = |id: &str| {
        let mut a =
            App::for_lesson(Lesson::resolve(id).expect("shipped"), 0, Progress::default(), &opts).expect("opens");
        a.advance_to(5 * NS_PER_SEC);
        a
    };
    let apps = [("default", app("default", None, 20)), ("lesson 12", lesson("12")), ("lesson 03", lesson("03"))];
    for (name, a) in &apps {
        for (w, h) in [(60, 18), (80, 24), (80, 22), (100, 30), (120, 40), (160, 48)] {
            let text = screen(a, w, h);
            for n in 1..=5 {
                for chart in boxes(&text, &format!("{n} ")) {
                    let ticks = chart.iter().filter(|r| r.contains('┤')).count();
                    assert!(ticks != 1, "{name} {w}x{h}: chart {n} has one y label\n{}", chart.join("\n"));
                }
            }
        }
    }
}

/// With the task table focused, the hint bar says how to leave it at
/// every width from 60 columns.
#[test]
fn the_focused_task_table_hints_the_way_out_from_60_columns() {
    let mut a = app("hdd-10dd", None, 2);
    a.update(Msg::FocusTasks);
    for w in [60, 80, 100, 160] {
        let text = screen(&a, w, 24);
        let hints = text.lines().last().expect("hints");
        assert!(hints.contains("Esc T leave the table"), "{w}: {hints}");
    }
}

/// The help names the chart windows `w` steps through as the status line
/// names each one when it is chosen.
#[test]
fn the_help_names_the_chart_windows_as_the_status_line_does() {
    let help =
        dirtyviz::ui::keys::HELP.iter().flat_map(|s| s.bindings).find(|b| b.label == "w").expect("w in the help").help;
    let mut a = app("default", None, 2);
    for _ in 0..4 {
        a.update(Msg::Window);
        let status = screen(&a, 160, 48).lines().next().expect("status").to_string();
        let window = status.split(" │ ").find_map(|s| s.strip_prefix("window")).expect("the window");
        let window = window.trim_start_matches([':', ' ']);
        assert!(help.contains(window), "{window:?} in {help:?}\n{status}");
    }
}

#[test]
fn the_parameter_panel_lists_the_selected_bdi_of_many() {
    // Ten disks in a panel with room for five rows of them: the one b
    // selects is listed, and marks count the ones left out.
    let mut a = app("jbod-10hdd", None, 3);
    for _ in 0..7 {
        a.update(Msg::NextBdi);
    }
    let text = screen(&a, 160, 48);
    let panel: Vec<String> = text.lines().map(|l| l.chars().skip(124).collect()).collect();
    let at = |s: &str| panel.iter().position(|l| l.contains(s));
    let (above, selected) = (at("… 6 more above"), at("▶sdh (HDD) 10 tasks"));
    assert!(above.is_some() && selected.is_some() && above < selected, "{text}");
    assert!(at("sdj (HDD)").is_some() && at("more below").is_none(), "{text}");
    a.update(Msg::NextBdi);
    a.update(Msg::NextBdi);
    a.update(Msg::NextBdi);
    let text = screen(&a, 160, 48);
    assert!(text.contains("▶sda (HDD) 10 tasks") && text.contains("… 6 more below (b B)"), "{text}");
}

#[test]
fn time_ticks_that_are_all_whole_seconds_have_no_decimals() {
    // The labels of an x axis, in a row of their own or on the axis line
    // (`ms└7170────7175──…`).
    let x_labels = |row: &str| -> Vec<String> {
        let row = row.trim_matches(|c| c == '│' || c == ' ');
        let row = row.rsplit('└').next().unwrap_or(row);
        row.split(|c: char| c.is_whitespace() || c == '─').filter(|t| !t.is_empty()).map(str::to_string).collect()
    };
    // A 30 s window two hours in: chart 5's seven ticks fall 5 s apart.
    let mut a = app("default", None, 7200);
    for _ in 0..3 {
        a.update(Msg::Window);
    }
    assert_eq!(a.window_s(), Some(30));
    let text = screen(&a, 100, 30);
    let axis = text.lines().find(|l| l.contains("7175") && l.contains("7200 s")).expect("chart 5's time axis");
    let ticks = x_labels(axis);
    assert_eq!(ticks, ["7170", "7175", "7180", "7185", "7190", "7195", "7200", "s"], "{text}");
    // Five seconds in, on round seconds too: they read 0.0 1.7 3.3 5.0 s,
    // and 20 s in 0.0 3.3 6.7 10.0 13.3 16.7 20.0 s.
    let text = screen(&app("default", None, 5), 100, 30);
    let axis = text.lines().rev().find(|l| l.contains(" s ")).expect("chart 5's time axis");
    let ticks = x_labels(axis);
    assert_eq!(ticks, ["0", "1", "2", "3", "4", "5", "s"], "{text}");
    let text = screen(&app("default", None, 20), 100, 30);
    let axis = text.lines().rev().find(|l| l.contains(" s ")).expect("chart 5's time axis");
    let ticks = x_labels(axis);
    assert_eq!(ticks, ["0", "5", "10", "15", "20", "s"], "{text}");
}

#[test]
fn a_compare_of_two_ratios_names_the_kernel_both_run() {
    let mut a = app("default", Some(Compare::DirtyRatio(10)), 2);
    a.update(Msg::Patches(false));
    a.update(Msg::Window);
    let status = screen(&a, 160, 48).lines().next().expect("status").to_string();
    assert!(status.contains("│ A dirty_ratio 20 vs B dirty_ratio 10 │ patch 10 (IO-less) │"), "{status}");
    // Sides on two kernels are named by them, once.
    let status =
        screen(&app("default", Some(Compare::Legacy(11)), 2), 160, 48).lines().next().expect("status").to_string();
    assert!(status.contains("│ A legacy 3.1 vs B patch 11 │ running"), "{status}");
}

/// The cells of task `id`'s row in the task table of `text`.
fn task_row(text: &str, id: &str) -> Vec<String> {
    let is_row = |c: &&str| c.split_whitespace().next() == Some(id) && c.contains(" dd ");
    let cell = text.lines().find_map(|l| l.split('│').find(is_row));
    let cell = cell.unwrap_or_else(|| panic!("no row for task {id}:\n{text}"));
    cell.split_whitespace().map(String::from).collect()
}

#[test]
fn task_rates_are_over_the_last_second_however_far_the_world_ran() {
    // `snapshot --at 20s` runs the world to 20 s in one go; the dashboard
    // in frames. Both show each task's dirty rate over the last second:
    // the one go used to show it over all 20 s (123.43 MiB/s, the first
    // second's free run included, beside a disk writing 94 MiB/s).
    let at_once = screen(&app("default", None, 20), 160, 48);
    let mut framed = app("default", None, 0);
    for i in 1..=200 {
        framed.advance_to(i * NS_PER_SEC / 10);
    }
    let framed = screen(&framed, 160, 48);
    let row = task_row(&at_once, "0");
    assert_eq!(row, task_row(&framed, "0"));
    let rate: f64 = row[3].parse().expect("MiB/s");
    assert!((85.0..105.0).contains(&rate), "{row:?}");
}

#[test]
fn a_background_ratio_at_or_over_dirty_ratio_says_why_bg_thresh_does_not_move() {
    // G from 10 to 21 over dirty_ratio 20: the kernel halves thresh for
    // bg_thresh, which stays 369 MiB; the note said only
    // 'dirty_background_ratio 21', as if the key did nothing.
    let mut a = app("default", None, 1);
    for _ in 0..11 {
        a.update(Msg::BackgroundRatio(1));
    }
    assert_eq!(a.note(), "dirty_background_ratio 21% ≥ dirty_ratio 20%: bg_thresh = thresh/2");
    let text = screen(&a, 160, 48);
    assert!(text.lines().next().unwrap().contains("bg_thresh = thresh/2"), "{text}");
    assert!(text.contains("bg_thresh              369 MiB"), "{text}");
    // d under the background ratio says so too; back under it, it does not.
    a.update(Msg::DirtyRatio(-1));
    assert_eq!(a.note(), "dirty_ratio 19% ≤ dirty_background_ratio 21%: bg_thresh = thresh/2");
    for _ in 0..12 {
        a.update(Msg::BackgroundRatio(-1));
    }
    assert_eq!(a.note(), "dirty_background_ratio 9%");
}

#[test]
fn the_halved_bg_thresh_note_fits_a_narrow_status_line() {
    // At 60 columns the note read 'dirty_background_ratio 21 ≥
    // dirty_ratio 20: bg_thresh = th…', cut before its point.
    let mut a = app("default", None, 2);
    for _ in 0..11 {
        a.update(Msg::BackgroundRatio(1));
    }
    let status = |a: &App, width: u16| screen(a, width, 18).lines().next().unwrap().trim_end().to_string();
    assert_eq!(status(&a, 60), " background ratio 21 ≥ dirty_ratio 20: bg_thresh = thresh/2");
    // Where it fits, the sysctl's own name.
    assert!(status(&a, 100).ends_with("│ dirty_background_ratio 21% ≥ dirty_ratio 20%: bg_thresh = thresh/2"));
    a.update(Msg::DirtyRatio(-1));
    assert_eq!(status(&a, 60), " dirty_ratio 19 ≤ background ratio 21: bg_thresh = thresh/2");
}

#[test]
fn a_patch_level_note_keeps_the_bdi_on_the_status_line() {
    // At 2.6.38 the 100-column line dropped 'bdi sda (HDD)' for the
    // kernel's name, which the note then said again.
    let mut a = app("default", None, 5);
    for _ in 0..12 {
        a.update(Msg::Patches(false));
    }
    let line = screen(&a, 100, 30).lines().next().unwrap().to_string();
    assert!(line.contains("│ bdi sda (HDD) │"), "{line}");
    assert!(line.trim_end().ends_with("│ patch level: legacy 2.6.38 (IO-full)"), "{line}");
    assert_eq!(line.matches("2.6.38").count(), 1, "{line}");
}

/// Under 6 rows the notice has no row for a note: what the last key did
/// takes the size's row (the lesson list opened unseen at 20x5).
#[test]
fn a_tiny_screen_says_what_the_last_key_did() {
    let mut a = app("default", None, 1);
    a.update(Msg::Lesson(dirtyviz::app::LessonMsg::Lessons));
    let text = screen(&a, 20, 5);
    assert!(text.contains("the lesson list is") && text.contains("? help · q quits"), "{text}");
    let text = screen(&a, 40, 12);
    assert!(text.contains("need 60×18, have 40×12") && text.contains("the lesson list is open"), "{text}");
}

/// A paste of a few KiB (here 5000 characters, each a key of its own) is
/// read to its end, and a key typed after it is taken: `q` quits. The
/// terminal's reader woke for the first KiB only, and the rest, with
/// every key typed after it, waited for good.
#[test]
fn a_key_typed_after_a_long_paste_is_taken() {
    use std::io::Write;
    use std::time::{Duration, Instant};

    let (master, slave) = crate::common::pty(120, 40);
    let mut child = crate::common::spawn_on_terminal(crate::common::dirtyviz().arg("--no-record"), &slave);
    let shown = crate::common::terminal_output(&master);
    let start = Instant::now();
    while !shown.lock().expect("lock").contains("quit") {
        assert!(start.elapsed() < Duration::from_secs(20), "the dashboard never drew");
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut keys = std::fs::File::from(master.try_clone().expect("dup"));
    keys.write_all(&[b'x'; 5000]).expect("pasted");
    std::thread::sleep(Duration::from_millis(500));
    keys.write_all(b"q").expect("typed");
    let status = crate::common::ended_soon(&mut child, "q after a 5000-character paste");
    assert!(status.success(), "{status}");
}

/// `dirtyviz args` on a 120x40 terminal of its own, once it has drawn:
/// the child, and the terminal's end to type keys into.
fn drawn_on_a_terminal(args: &[&str]) -> (std::process::Child, std::fs::File) {
    use std::time::{Duration, Instant};
    let (master, slave) = crate::common::pty(120, 40);
    let child = crate::common::spawn_on_terminal(crate::common::dirtyviz().args(args), &slave);
    let shown = crate::common::terminal_output(&master);
    let start = Instant::now();
    while !shown.lock().expect("lock").contains("quit") {
        assert!(start.elapsed() < Duration::from_secs(20), "{args:?} never drew");
        std::thread::sleep(Duration::from_millis(20));
    }
    (child, std::fs::File::from(master.try_clone().expect("dup")))
}

/// `q` typed behind a burst of keys that each take long (`c` rebuilds a
/// world of 20 000 tasks) quits at once, not after them: 200 such keys
/// kept it waiting 11 s.
#[test]
fn q_behind_a_burst_of_slow_keys_quits_at_once() {
    use std::io::Write;
    use std::time::{Duration, Instant};

    let (mut child, mut keys) = drawn_on_a_terminal(&["--no-record", "--scenario", "jbod-10hdd", "--dd", "2000"]);
    keys.write_all(&[b'c'; 200]).expect("typed");
    keys.write_all(b"q").expect("typed");
    let typed = Instant::now();
    let status = crate::common::ended_soon(&mut child, "q after 200 c");
    assert!(status.success(), "{status}");
    assert!(typed.elapsed() < Duration::from_secs(3), "q took {:?}", typed.elapsed());
}

/// A `q` typed into an answer behind slow keys is a letter of it: the
/// `a` before it, still waiting, opens the answer (the waiting `q` was
/// taken for a quit, the `a` dropped).
#[test]
fn q_behind_slow_keys_and_an_answer_key_is_typed() {
    use std::io::Write;

    let (mut child, mut keys) = drawn_on_a_terminal(&["lesson", "15", "--no-record"]);
    keys.write_all(&[b'c'; 60]).expect("typed");
    keys.write_all(b"aq").expect("typed");
    std::thread::sleep(std::time::Duration::from_secs(3));
    assert!(child.try_wait().expect("waits").is_none(), "q in the answer quit");
    keys.write_all(&[0x03]).expect("Ctrl-C");
    let status = crate::common::ended_soon(&mut child, "Ctrl-C while typing an answer");
    assert!(status.success(), "{status}");
}
