//! The dashboard's screens, drawn into a test backend after a fixed number
//! of deterministic steps, at fixed sizes.

use dirtyviz::app::{App, AppOptions, Msg, ThemeKind};
use dirtyviz::scenario::presets;
use dirtyviz::session::Compare;
use dirtyviz::sim::NS_PER_SEC;
use dirtyviz::ui::view;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// The screen's text, one line per row.
pub fn screen(app: &App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test backend");
    terminal.draw(|f| view::draw(app, f)).expect("draws");
    let buf = terminal.backend().buffer();
    (0..height)
        .map(|y| (0..width).map(|x| buf[(x, y)].symbol()).collect::<String>().trim_end().to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

pub fn app(preset: &str, compare: Option<Compare>, seconds: u64) -> App {
    let s = presets::get(preset).expect("preset").expect("valid");
    let opts = AppOptions { theme: ThemeKind::Mono, ..AppOptions::default() };
    let mut app = App::new(s, compare, &opts).expect("app");
    app.advance_to(seconds * NS_PER_SEC);
    app
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
}

#[test]
fn help_lists_every_key() {
    let mut a = app("default", None, 1);
    a.update(Msg::Help);
    let text = screen(&a, 160, 48);
    for b in dirtyviz::ui::keys::HELP.iter().flat_map(|s| s.bindings) {
        assert!(text.contains(b.help), "help shows {:?}", b.help);
    }
    insta::assert_snapshot!(text);
}

#[test]
fn compare_legacy_with_io_less() {
    let text = screen(&app("hdd-10dd", Some(Compare::Legacy(11)), 10), 160, 48);
    assert!(text.contains("legacy 3.1 (IO-full)") && text.contains("patch 11 (IO-less)"));
    insta::assert_snapshot!(text);
}

#[test]
fn zoomed_pos_ratio_chart() {
    let mut a = app("default", None, 20);
    a.update(Msg::Zoom(3));
    let text = screen(&a, 100, 30);
    assert!(text.contains("3 pos_ratio control lines") && text.contains("1/4 floor") && text.contains("reserve"));
    insta::assert_snapshot!(text);
}

#[test]
fn every_chart_title_and_legend_is_on_screen() {
    let full =
        ["setpoint", "freerun", "limit", "bdi_thresh", "dirty_ratelimit", "write_bw/N", "max_pause", "1/4 floor"];
    // Narrow charts fall back to short legend labels.
    let short = ["set", "free", "lim", "thr", "rate", "bw/N", "max", "1/4"];
    for ((w, h), legend) in [((160, 48), full), ((100, 30), short)] {
        let text = screen(&app("hdd-10dd", None, 15), w, h);
        for needle in ["1 global dirty pages", "2 bdi dirty pages", "3 pos_ratio", "4 rates", "5 pauses"] {
            assert!(text.contains(needle), "{w}x{h}: title {needle} missing");
        }
        for needle in legend {
            assert!(text.contains(needle), "{w}x{h}: legend {needle} missing");
        }
    }
}

#[test]
fn every_size_from_tiny_to_huge_draws() {
    let mut a = app("jbod-10hdd", None, 3);
    for (w, h) in [(1, 1), (10, 5), (59, 17), (60, 18), (79, 23), (80, 24), (139, 39), (140, 40), (300, 100)] {
        screen(&a, w, h);
        a.update(Msg::Zoom(5));
        screen(&a, w, h);
        a.update(Msg::Zoom(5));
    }
}
