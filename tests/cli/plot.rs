//! `dirtyviz plot`, `completions` and `man`: the files and text they write,
//! read back as a program would (SVG parsed as XML, the completion script
//! run by bash, the roff checked macro by macro).

use std::path::{Path, PathBuf};

use super::common::{dirtyviz, empty_dir, interrupted, tmp};

const FIGURES: [&str; 5] = ["1-global-dirty", "2-bdi-dirty", "3-pos-ratio", "4-rates", "5-pauses"];

/// Runs `dirtyviz plot` into a fresh directory; returns it and stdout.
fn plot(name: &str, args: &[&str]) -> (PathBuf, String) {
    let dir = tmp(&format!("plot-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dirtyviz().arg("plot").args(args).arg("--out").arg(&dir).output().expect("runs");
    assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
    (dir, String::from_utf8(out.stdout).expect("UTF-8"))
}

/// The text of every `<text>` element of an SVG file, which must be
/// well-formed XML with an `<svg>` root.
fn svg_texts(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{}: not XML: {e}", path.display()));
    assert_eq!(doc.root_element().tag_name().name(), "svg", "{}", path.display());
    doc.descendants().filter(|n| n.has_tag_name("text")).map(|n| n.text().unwrap_or("").trim().to_string()).collect()
}

/// Numbers among the texts: the tick labels.
fn ticks(texts: &[String]) -> Vec<f64> {
    texts.iter().filter_map(|t| t.parse::<f64>().ok()).collect()
}

/// The time axis's tick labels: the numbers centred under their tick
/// (the y axes' are right-aligned beside theirs).
fn x_ticks(path: &Path) -> Vec<f64> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{}: not XML: {e}", path.display()));
    doc.descendants()
        .filter(|n| n.has_tag_name("text") && n.attribute("text-anchor") == Some("middle"))
        .filter_map(|n| n.text()?.trim().parse::<f64>().ok())
        .collect()
}

fn has(texts: &[String], what: &str) -> bool {
    texts.iter().any(|t| t.contains(what))
}

/// A long run's figures are no larger than a short one's: the lines are
/// thinned to the plot's width, the dots to cells of their size, so an
/// hour of ten dd (850 000 sleeps) draws a pauses figure of a few
/// hundred KB at most, about as large as ten minutes'.
#[test]
fn a_long_runs_figures_are_as_small_as_a_short_ones() {
    let size = |dir: &Path, f: &str| std::fs::metadata(dir.join(format!("{f}.svg"))).expect("written").len();
    let (short, _) = plot("ten-minutes", &["--scenario", "hdd-10dd", "--duration", "600s"]);
    let (long, _) = plot("an-hour", &["--scenario", "hdd-10dd", "--duration", "3600s"]);
    for f in FIGURES {
        let (a, b) = (size(&short, f), size(&long, f));
        assert!(b < 300_000, "{f}: {b} bytes");
        assert!(b < a * 3 / 2, "{f}: {b} bytes for an hour, {a} for ten minutes");
    }
    // Still every dot a circle, parsed as XML.
    let texts = svg_texts(&long.join("5-pauses.svg"));
    assert!(has(&texts, "one sleep"), "{texts:?}");
    let svg = std::fs::read_to_string(long.join("5-pauses.svg")).expect("read");
    assert!(svg.matches("<circle").count() > 1000, "the sleeps are drawn");
}

#[test]
fn plot_writes_five_svg_figures_with_ticks_units_and_legends() {
    let (dir, stdout) = plot("hdd", &["--scenario", "hdd-10dd", "--duration", "60s"]);
    for name in FIGURES {
        let texts = svg_texts(&dir.join(format!("{name}.svg")));
        // Tick labels on both axes: at least five numbers on each.
        assert!(ticks(&texts).len() >= 10, "{name}: tick labels {:?}", ticks(&texts));
        let unit = match name {
            "3-pos-ratio" => "dirty pages [MiB]",
            _ => "time [s]",
        };
        assert!(has(&texts, unit), "{name}: x axis names `{unit}`: {texts:?}");
        assert!(has(&texts, "hdd-10dd, seed 1; 60 s simulated"), "{name}: the run in the subtitle");
        assert!(stdout.contains(&format!("{name}.svg")), "{name} reported: {stdout}");
    }
    let y_units = [("1-global-dirty", "[MiB]"), ("2-bdi-dirty", "[MiB]"), ("4-rates", "[MiB/s]"), ("5-pauses", "[ms]")];
    for (name, unit) in y_units {
        assert!(has(&svg_texts(&dir.join(format!("{name}.svg"))), unit), "{name}: y axis in {unit}");
    }
    // The legends name the series the issue asks for.
    let legend = |name: &str| svg_texts(&dir.join(format!("{name}.svg")));
    let global = legend("1-global-dirty");
    for series in ["background_thresh", "freerun", "setpoint", "limit", "dirty_thresh", "dirty (+writeback"] {
        assert!(has(&global, series), "chart 1 names {series}: {global:?}");
    }
    let rates = legend("4-rates");
    for series in
        ["write_bw", "avg_write_bw", "dirty_ratelimit", "balanced_dirty_ratelimit", "task_ratelimit", "N tasks"]
    {
        assert!(has(&rates, series), "chart 4 names {series}: {rates:?}");
    }
    assert!(has(&legend("3-pos-ratio"), "global control line"));
    assert!(has(&legend("5-pauses"), "max_pause"));
    // Only the figures: no temporary file left behind.
    let mut files: Vec<String> =
        std::fs::read_dir(&dir).expect("dir").map(|e| e.expect("entry").file_name().to_string_lossy().into()).collect();
    files.sort();
    assert_eq!(files, FIGURES.map(|f| format!("{f}.svg")));
}

#[test]
fn a_comparison_puts_both_sides_on_one_set_of_axes() {
    let (dir, _) = plot("legacy", &["--scenario", "hdd-10dd", "--duration", "60s", "--compare", "legacy"]);
    for name in FIGURES {
        let texts = svg_texts(&dir.join(format!("{name}.svg")));
        let x_desc = texts.iter().filter(|t| *t == "time [s]" || t.starts_with("dirty pages [MiB]")).count();
        assert_eq!(x_desc, 1, "{name}: one x axis");
        assert!(has(&texts, "legacy 3.1 (IO-full)"), "{name}: side A named");
        assert!(has(&texts, "patch 11 (IO-less)"), "{name}: side B named");
    }
    let global = svg_texts(&dir.join("1-global-dirty.svg"));
    assert!(has(&global, "filled: legacy 3.1 (IO-full)") && has(&global, "hollow: patch 11 (IO-less)"));
    // 3.1 has no setpoint: said, not drawn; its freerun ceiling is drawn.
    let notes = global.join(" ");
    assert!(notes.contains("legacy 3.1 (IO-full): no setpoint (not used by this kernel)"), "{notes}");
    // Both sides' pauses, with their numbers.
    let pauses = svg_texts(&dir.join("5-pauses.svg"));
    assert_eq!(pauses.iter().filter(|t| t.ends_with("one sleep")).count(), 2, "{pauses:?}");
    assert_eq!(pauses.iter().filter(|t| t.contains(" sleeps, p50 ")).count(), 2, "{pauses:?}");
}

#[test]
fn tick_labels_have_the_decimals_of_their_spacing() {
    let (dir, _) = plot("seven-seconds", &["--duration", "7s"]);
    let texts = svg_texts(&dir.join("1-global-dirty.svg"));
    // Every second, labelled as such: it read 0.0 1.0 2.0 ... 7.0.
    for s in ["1", "2", "7"] {
        assert!(texts.iter().any(|t| t == s), "{s} in {texts:?}");
    }
    assert!(!texts.iter().any(|t| t == "1.0" || t == "7.0"), "{texts:?}");
    // pos_ratio's 0.5 steps keep one decimal on every label.
    let pos = svg_texts(&dir.join("3-pos-ratio.svg"));
    assert!(["0.0", "0.5", "1.0", "2.5"].iter().all(|s| pos.iter().any(|t| t == s)), "{pos:?}");
}

#[test]
fn a_run_where_nobody_slept_says_so_instead_of_zero_pauses() {
    let (dir, _) = plot("nobody-slept", &["--duration", "1ms"]);
    let pauses = svg_texts(&dir.join("5-pauses.svg"));
    assert!(has(&pauses, "patch 11 (IO-less): no task slept or was throttled"), "{pauses:?}");
    assert!(!pauses.iter().any(|t| t.contains(" sleeps, p50 ")), "{pauses:?}");
}

#[test]
fn plot_draws_a_lesson_step_and_png_files() {
    let (dir, stdout) = plot("lesson", &["--lesson", "03", "--step", "2", "--duration", "5s", "--format", "png"]);
    assert!(stdout.contains("1-global-dirty.png"), "{stdout}");
    for name in FIGURES {
        let bytes = std::fs::read(dir.join(format!("{name}.png"))).expect("written");
        assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "{name} is a PNG");
        assert!(bytes.len() > 20_000, "{name} has something drawn: {} bytes", bytes.len());
    }
    let (dir, _) = plot("lesson-svg", &["--lesson", "03", "--step", "2", "--duration", "5s"]);
    assert!(has(&svg_texts(&dir.join("1-global-dirty.svg")), "lesson 03 step 2"));
}

/// `plot --lesson --seed N` runs the lesson with seed N, as `lesson
/// --seed N` and `snapshot --lesson --seed N` do, and its figures say
/// which seed they show, the lesson's own without --seed.
#[test]
fn plot_runs_a_lesson_with_the_seed_given_and_says_which() {
    let args = ["--lesson", "11", "--step", "1", "--duration", "3s"];
    let (own, own_out) = plot("lesson-seed-own", &args);
    let (seeded, seeded_out) = plot("lesson-seed-7", &[&args[..], &["--seed", "7"]].concat());
    assert!(has(&svg_texts(&own.join("1-global-dirty.svg")), "lesson 11 step 1: "), "{own_out}");
    // Lesson 11 runs seed 5 of its own.
    assert!(has(&svg_texts(&own.join("1-global-dirty.svg")), ", seed 5; 3 s simulated"), "{own_out}");
    assert!(has(&svg_texts(&seeded.join("1-global-dirty.svg")), ", seed 7; 3 s simulated"), "{seeded_out}");
    // Another seed, other device noise: other numbers.
    assert_ne!(own_out.replace(&*own.to_string_lossy(), ""), seeded_out.replace(&*seeded.to_string_lossy(), ""));
    let pauses = |d: &Path| std::fs::read_to_string(d.join("5-pauses.svg")).expect("written");
    assert_ne!(pauses(&own), pauses(&seeded));
}

#[test]
fn plot_refuses_what_it_cannot_do_in_one_line() {
    for args in [
        &["plot", "--lesson", "03", "--step", "99"][..],
        &["plot", "--lesson", "03", "--scenario", "hdd-10dd"],
        &["plot", "--step", "2"],
        &["plot", "--bdi", "nvme9", "--duration", "1s"],
        &["plot", "--format", "gif"],
    ] {
        let out = dirtyviz().args(args).arg("--out").arg(tmp("plot-refused")).output().expect("runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: one line: {err}");
    }
}

#[test]
fn the_bash_completion_script_is_valid_and_completes_subcommands() {
    let script = tmp("dirtyviz.bash");
    let out = dirtyviz().args(["completions", "bash"]).output().expect("runs");
    assert!(out.status.success());
    std::fs::write(&script, &out.stdout).expect("written");
    let check = std::process::Command::new("bash").arg("-n").arg(&script).output().expect("bash runs");
    assert!(check.status.success(), "bash -n: {}", String::from_utf8_lossy(&check.stderr));
    // What bash offers after `dirtyviz pl<TAB>` and `dirtyviz plot --for<TAB>`.
    let complete = |line: &str| {
        let words = line.split(' ').collect::<Vec<_>>();
        let program = format!(
            "source {}; COMP_WORDS=({}); COMP_CWORD={}; COMP_LINE='{line}'; COMP_POINT={}; \
             _dirtyviz dirtyviz '{}' '{}'; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
            script.display(),
            words.join(" "),
            words.len() - 1,
            line.len(),
            words[words.len() - 1],
            words[words.len() - 2],
        );
        let out = std::process::Command::new("bash").arg("-c").arg(program).output().expect("bash runs");
        String::from_utf8_lossy(&out.stdout).split_whitespace().map(str::to_string).collect::<Vec<_>>()
    };
    assert_eq!(complete("dirtyviz pl"), ["plot"]);
    assert!(complete("dirtyviz c").contains(&"completions".to_string()));
    assert_eq!(complete("dirtyviz plot --for"), ["--format"]);
    // A patch level is completed from the levels there are.
    assert_eq!(complete("dirtyviz run --patches 1"), ["1", "10", "11"]);
    assert_eq!(complete("dirtyviz --patches 2"), ["2.6.38", "2"]);
    // Names beside files: the presets, the lessons, the machine profiles.
    assert_eq!(complete("dirtyviz run --scenario hdd-1"), ["hdd-10dd", "hdd-100dd", "hdd-1000dd"]);
    assert_eq!(complete("dirtyviz run --scenario READ"), ["README.md"], "a scenario file");
    assert_eq!(complete("dirtyviz lesson 1"), ["10", "11", "12", "13", "14", "15", "16"]);
    assert_eq!(complete("dirtyviz lesson READ"), ["README.md"], "a lesson file");
    assert_eq!(complete("dirtyviz check READ"), ["README.md"]);
    assert_eq!(complete("dirtyviz lesson --se"), ["--seed"], "no file for an option");
    assert_eq!(complete("dirtyviz plot --lesson 0"), ["00", "01", "02", "03", "04", "05", "06", "07", "08", "09"]);
    assert!(complete("dirtyviz check nfs").contains(&"nfs-10dd".to_string()));
    assert_eq!(complete("dirtyviz cases --fit 8"), ["8p-4096M"]);
    // A number is not a file of the working directory.
    assert_eq!(complete("dirtyviz run --seed READ"), ["READ"]);
    assert_eq!(complete("dirtyviz run --duration C"), ["C"]);
    let fish = dirtyviz().args(["completions", "fish"]).output().expect("runs");
    let fish = String::from_utf8_lossy(&fish.stdout);
    let line = |needle: &str| fish.lines().find(|l| l.contains(needle)).unwrap_or_default().to_string();
    assert!(line("using_subcommand run\" -l scenario").ends_with("-r -F -a \"default hdd-10dd hdd-100dd hdd-1000dd ssd-10dd jbod-10hdd raid0-10hdd ukey-hdd nfs-1dd nfs-10dd switch-disk rsync\""), "{fish}");
    assert!(line("using_subcommand lesson\" -a").contains("\"00 01 02"), "{fish}");
    assert!(line("using_subcommand run\" -l seed").ends_with("-r -f"), "no files for a seed: {fish}");
    for shell in ["zsh", "fish", "powershell", "elvish"] {
        let out = dirtyviz().args(["completions", shell]).output().expect("runs");
        assert!(out.status.success() && String::from_utf8_lossy(&out.stdout).contains("plot"), "{shell}");
    }
}

#[test]
fn the_man_page_is_roff_with_every_subcommand() {
    let out = dirtyviz().arg("man").output().expect("runs");
    assert!(out.status.success());
    let roff = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(roff.starts_with(".ie \\n(.g .ds Aq") || roff.starts_with(".TH"), "{}", &roff[..80]);
    assert!(roff.contains(".TH dirtyviz 1"), "title line");
    for section in
        ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "KEYS", "\"EXIT STATUS\"", "VERSION", "FILES"]
    {
        assert!(roff.contains(&format!(".SH {section}")), "section {section}");
    }
    // The keys the help shows, a leading dot escaped (`.` steps).
    for key in [".B space\npause / resume", ".B \\&.\nsingle step", ".B v\nfold the step's text"] {
        assert!(roff.contains(key), "{key}");
    }
    // 130 is a headless command's SIGINT; Ctrl-C in the dashboard is a key.
    assert!(roff.contains("130 when a headless command is interrupted by SIGINT (Ctrl-C)"), "exit codes");
    assert!(!roff.contains("130 for Ctrl-C"), "exit codes");
    assert!(roff.contains("\\fBCtrl-C\\fR and \\fBCtrl-D\\fR quit the dashboard"), "Ctrl-D quits too");
    // groff reads ASCII: arrows and signs are escapes.
    assert!(roff.is_ascii(), "{:?}", roff.lines().find(|l| !l.is_ascii()));
    assert!(roff.contains("memory \\(mu2 / \\(di2") && roff.contains(".B T \\(ua \\(da"), "escapes");
    let environment = &roff[roff.find(".SH ENVIRONMENT").expect("an ENVIRONMENT section")..];
    for var in ["NO_COLOR", "XDG_DATA_HOME", "HOME", "RUST_BACKTRACE, COLORBT_SHOW_HIDDEN"] {
        assert!(environment.contains(&format!(".TP\n.B {var}\n")), "{var}");
    }
    for sub in [
        "run",
        "lesson",
        "lessons",
        "check",
        "replay",
        "cases",
        "machines",
        "view",
        "live",
        "plot",
        "snapshot",
        "completions",
        "man",
    ] {
        assert!(roff.contains(&format!(".SS \"dirtyviz {sub}\"")), "subcommand {sub}");
    }
    // The files dirtyviz keeps, where a session leaves them.
    for file in ["progress.ron", "progress.lock", "sessions/", "last-session.jsonl"] {
        assert!(roff.contains(&format!(".I $XDG_DATA_HOME/dirtyviz/{file}\n")), "FILES names {file}");
    }
    // Only macros man(7) knows, and requests groff and mandoc both read.
    let known = [
        "TH", "SH", "SS", "TP", "PP", "IP", "LP", "P", "B", "I", "BR", "IR", "RB", "RS", "RE", "br", "sp", "ie", "el",
        "ds", "nh", "ad", "fi", "nf", "in", "ti", "TQ",
    ];
    for line in roff.lines().filter(|l| l.starts_with('.')) {
        let name = line[1..].split([' ', '\\']).next().unwrap_or("");
        assert!(known.contains(&name), "unknown request in `{line}`");
    }
    assert_eq!(roff.matches("\n.RS").count(), roff.matches("\n.RE").count(), "indents balance");
}

#[test]
fn plot_never_writes_over_its_input_nor_into_a_file() {
    let dir = empty_dir("plot-input");
    // A scenario file that happens to have a figure's name.
    let input = dir.join("4-rates.svg");
    let scenario = std::fs::read("assets/scenarios/default.ron").expect("shipped scenario");
    std::fs::write(&input, &scenario).expect("written");
    let out = dirtyviz().args(["plot", "--duration", "1s", "--scenario"]).arg(&input).arg("--out").arg(&dir).output();
    let out = out.expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("is the same file as the scenario"), "{err}");
    assert_eq!(std::fs::read(&input).expect("still there"), scenario, "the input is intact");
    assert_eq!(std::fs::read_dir(&dir).expect("dir").count(), 1, "nothing else written");
    let out = dirtyviz().args(["plot", "--duration", "1s", "--out"]).arg(&input).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a directory"));
}

#[test]
fn plot_checks_where_it_writes_before_it_runs_and_ctrl_c_leaves_nothing() {
    let dir = empty_dir("plot-before");
    std::fs::write(dir.join("file"), "the user's file\n").expect("written");
    // A simulated week of a thousand dd: refused at once, not after it.
    let week = ["plot", "--scenario", "hdd-1000dd", "--duration", "604800s", "--out"];
    for (out, expect) in [
        ("file", "--out file: not a directory"),
        ("file/figures", "--out file/figures: file is a file, not a directory"),
        ("missing/figures", "--out missing/figures: the directory missing does not exist"),
        ("-", "--out -: standard output is not an output here"),
        (
            "fig.png",
            "--out fig.png: names a file, but --out is the directory the five figures go to \
             (1-global-dirty.svg ...); give a directory (and --format png for PNG)",
        ),
    ] {
        let started = std::time::Instant::now();
        let o = dirtyviz().args(week).arg(out).current_dir(&dir).output().expect("runs");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.starts_with(&format!("error: {expect}")) && err.lines().count() == 1, "{err}");
        assert!(started.elapsed() < std::time::Duration::from_secs(5), "{out}: {:?}", started.elapsed());
    }
    assert!(!dir.join("missing").exists() && !dir.join("fig.png").exists() && !dir.join("-").exists());

    // Ctrl-C: one line, 130, no directory made, no file written.
    interrupted(dirtyviz().args(week).arg("figures").current_dir(&dir));
    let left: Vec<_> = std::fs::read_dir(&dir).expect("dir").map(|e| e.expect("entry").file_name()).collect();
    assert_eq!(left, ["file"], "nothing made");

    // A figure that is a symbolic link: the file it names is replaced, the link stays.
    std::fs::create_dir(dir.join("figs")).expect("dir");
    std::os::unix::fs::symlink("../mine.svg", dir.join("figs/4-rates.svg")).expect("symlink");
    let o = dirtyviz().args(["plot", "--duration", "1s", "--out", "figs"]).current_dir(&dir).output().expect("runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(std::fs::symlink_metadata(dir.join("figs/4-rates.svg")).expect("link").file_type().is_symlink());
    assert!(std::fs::read_to_string(dir.join("mine.svg")).expect("written through the link").starts_with("<svg"));
}

#[test]
fn the_subtitles_give_dirty_pages_under_a_mib_as_the_dashboard_does() {
    // With a 1 MiB threshold, whole MiB would read "dirty 1 MiB ...,
    // setpoint 1 MiB": the dashboard's parameter panel says 0.875.
    let (_, stdout) = plot("thresh-1m", &["--case", "thresh=1M/xfs-1dd-4k-8p-4096M-1M:10-X", "--duration", "10s"]);
    let line = |what: &str| stdout.lines().find(|l| l.contains(what)).unwrap_or_else(|| panic!("{what}: {stdout}"));
    assert!(line(": dirty 0.").contains(", setpoint 0.875 MiB"), "{stdout}");
    assert!(line(": bdi_dirty 0.").contains(", bdi_setpoint 0.8"), "{stdout}");
}

/// A small real trace: perf script output of one dd on a loop device.
const TRACE: &str = "tests/data/ktrace/perf-6.18-loop-strict_limit-0.4s.txt";

#[test]
fn plot_draws_the_five_figures_of_a_kernel_trace() {
    let (dir, stdout) = plot("trace", &[TRACE]);
    let mut files: Vec<String> =
        std::fs::read_dir(&dir).expect("dir").map(|e| e.expect("entry").file_name().to_string_lossy().into()).collect();
    files.sort();
    assert_eq!(files, FIGURES.map(|f| format!("{f}.svg")), "the five figures, nothing else");
    for name in FIGURES {
        let texts = svg_texts(&dir.join(format!("{name}.svg")));
        assert!(stdout.contains(&format!("{name}.svg")), "{name} reported: {stdout}");
        // The trace and its span, not a scenario and its seed; under a
        // second in ms, as the viewer gives it.
        let run = "trace perf-6.18-loop-strict_limit-0.4s.txt, kernel 6.15 or later (wb_setpoint, wb_dirty); 389.4 ms from its first event";
        assert!(has(&texts, run), "{name}: {texts:?}");
        assert!(!has(&texts, "seed") && !has(&texts, "simulated"), "{name}: {texts:?}");
        assert!(ticks(&texts).len() >= 10, "{name}: tick labels {:?}", ticks(&texts));
        if name != "3-pos-ratio" {
            // Under a second: in ms, where it read 0.00 0.05 0.10 ... s.
            assert!(has(&texts, "time [ms]") && !has(&texts, "time [s]"), "{name}");
            let t = x_ticks(&dir.join(format!("{name}.svg")));
            // The trace ends at its last event, 389 ms.
            assert!((0..=7).all(|i| t.contains(&(f64::from(i) * 50.0))), "{name}: 0 50 100 ... 350 ms: {t:?}");
            assert!(!t.contains(&400.0), "{name}: nothing past the end: {t:?}");
            assert!(!texts.iter().any(|t| t == "0.05" || t == "0.10"), "{name}: {texts:?}");
        }
    }
    let text = |name: &str| svg_texts(&dir.join(format!("{name}.svg")));
    assert!(has(&text("2-bdi-dirty"), "Dirty pages of bdi 7:0"));
    assert!(has(&text("3-pos-ratio"), "global control line"));
    // The trace's own sleeps, as `dirtyviz view` counts them.
    let view = dirtyviz().args(["view", TRACE]).output().expect("runs");
    assert!(String::from_utf8_lossy(&view.stdout).contains("pauses    11 sleeps"));
    assert!(has(&text("5-pauses"), "kernel: 11 sleeps, p50 8 ms, p99 12 ms, max 12 ms"), "{:?}", text("5-pauses"));
    // What no tracepoint prints is named, not drawn as zero.
    assert!(has(&text("5-pauses"), "no max_pause (not in this"));
    assert!(!text("5-pauses").iter().any(|t| t == "max_pause"), "no max_pause in the legend");
    let (png, _) = plot("trace-png", &[TRACE, "--format", "png", "--bdi", "7:0"]);
    let bytes = std::fs::read(png.join("3-pos-ratio.png")).expect("written");
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n") && bytes.len() > 20_000, "{} bytes", bytes.len());
}

#[test]
fn plot_of_a_trace_draws_the_global_dirty_pages_before_and_without_any_bdi() {
    // Only global_dirty_state enabled: 40 events, 100 ms apart, of 25600
    // dirty + 2560 writeback pages (110 MiB) under a 51200-page (200 MiB)
    // threshold. No event names a bdi.
    let mut lines = String::new();
    for i in 0..40 {
        lines += &format!(
            "  dd-7 [000] ..... {:.6}: global_dirty_state: dirty=25600 writeback=2560 bg_thresh=25600 thresh=51200 limit=51200 dirtied={} written={}\n",
            10.0 + f64::from(i) * 0.1,
            1000 + i * 100,
            900 + i * 100
        );
    }
    let trace = tmp("plot-global-only.txt");
    std::fs::write(&trace, lines).expect("written");
    let (dir, stdout) = plot("global-only", &[trace.to_str().expect("UTF-8")]);
    // setpoint = (limit + freerun) / 2 = (200 + 150) / 2 MiB.
    assert!(
        stdout.contains("kernel: dirty 110 MiB on average over the last 2 s (read every 100 ms), setpoint 175 MiB"),
        "{stdout}"
    );
    let svg = std::fs::read_to_string(dir.join("1-global-dirty.svg")).expect("written");
    let lines = svg.matches("<polyline").filter(|l| !l.contains("stroke=\"#000000\"")).count();
    assert!(lines >= 8, "the thresholds and dirty drawn with their legend, not axes alone: {lines} coloured lines");
}

#[test]
fn plot_of_a_trace_crosses_a_gap_of_years_at_once() {
    // Two stretches of events 4 × 10^9 s (127 years) apart, as a corrupted
    // stamp or two joined traces make: stepping a second at a time through
    // the gap took hours.
    let gds =
        "global_dirty_state: dirty=25600 writeback=0 bg_thresh=25600 thresh=51200 limit=51200 dirtied=0 written=0";
    let mut text = String::new();
    for t in [1.0, 1.5, 2.0, 4_000_000_001.0, 4_000_000_001.5] {
        text += &format!("  dd-7 [000] ..... {t:.6}: {gds}\n");
    }
    let trace = tmp("plot-gap.txt");
    std::fs::write(&trace, text).expect("written");
    let dir = empty_dir("plot-gap");
    let mut child = dirtyviz()
        .arg("plot")
        .arg(&trace)
        .arg("--out")
        .arg(&dir)
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("runs");
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waits") {
            break status;
        }
        if started.elapsed() > std::time::Duration::from_secs(60) {
            child.kill().expect("killed");
            panic!("still plotting after 60 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert!(status.success());
    let texts = svg_texts(&dir.join("1-global-dirty.svg"));
    assert!(has(&texts, "4000000000.5 s from its first event"), "{texts:?}");
}

#[test]
fn plot_of_a_trace_refuses_world_options_and_unreadable_traces_in_one_line() {
    let empty = tmp("plot-not-a-trace.txt");
    std::fs::write(&empty, "no events here\n").expect("written");
    let empty = empty.to_str().expect("UTF-8");
    for (args, says) in [
        (&["plot", TRACE, "--scenario", "default"][..], "cannot be used with"),
        (&["plot", TRACE, "--lesson", "03"], "cannot be used with"),
        (&["plot", TRACE, "--compare", "legacy"], "cannot be used with"),
        (&["plot", TRACE, "--duration", "1s"], "cannot be used with"),
        // The option given is the one named, not the first world option.
        (&["plot", TRACE, "--dirty-ratio", "10"], "cannot be used with '--dirty-ratio <DIRTY_RATIO>'"),
        (&["plot", TRACE, "--seed", "3"], "cannot be used with '--seed <SEED>'"),
        (&["plot", "--lesson", "03", "--patches", "9"], "'--lesson <ID|FILE>' cannot be used with '--patches <LEVEL>'"),
        (&["plot", TRACE, "--bdi", "sdz"], "--bdi sdz: no such bdi; this trace has 7:0"),
        (&["plot", "tests/data/no-such-trace.txt"], "tests/data/no-such-trace.txt: cannot read"),
        (&["plot", empty], "no writeback event in 1 line ("),
    ] {
        let dir = empty_dir("plot-trace-refused");
        let out = dirtyviz().args(args).arg("--out").arg(&dir).output().expect("runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: one line: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert_eq!(std::fs::read_dir(&dir).expect("dir").count(), 0, "{args:?}: nothing written");
    }
    let help = dirtyviz().args(["plot", "--help"]).output().expect("runs");
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("[TRACE]") && help.contains("A recorded kernel trace to plot"), "{help}");
}

#[test]
fn plot_never_writes_over_the_trace_it_reads() {
    let dir = empty_dir("plot-trace-input");
    let input = dir.join("1-global-dirty.svg");
    let trace = std::fs::read(TRACE).expect("test trace");
    std::fs::write(&input, &trace).expect("written");
    let out = dirtyviz().arg("plot").arg(&input).arg("--out").arg(&dir).output().expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("is the same file as the trace"), "{err}");
    assert_eq!(std::fs::read(&input).expect("still there"), trace, "the input is intact");
    assert_eq!(std::fs::read_dir(&dir).expect("dir").count(), 1, "nothing else written");
}

/// The rates figure's `written` is a mean over the second half, as the
/// note beside it says (it was the whole run's: 91.1 where the second
/// half wrote 92.0).
#[test]
fn the_rates_figures_written_is_the_second_halfs() {
    let (dir, _) = plot("written-half", &["--scenario", "ukey-hdd", "--duration", "20s", "--bdi", "sda"]);
    let texts = svg_texts(&dir.join("4-rates.svg"));
    let line = texts.iter().find(|t| t.contains("(means over the last 10 s)")).expect("the means' line");
    let shown: f64 =
        line.split("written ").nth(1).and_then(|r| r.split(' ').next()).expect("written").parse().expect("a number");
    let csv = tmp("written-half.csv");
    let out = dirtyviz()
        .args(["run", "-q", "--scenario", "ukey-hdd", "--duration", "20s", "--csv", csv.to_str().expect("utf-8")])
        .output()
        .expect("runs");
    assert!(out.status.success());
    let text = std::fs::read_to_string(&csv).expect("the CSV");
    let header: Vec<&str> = text.lines().next().expect("a header").split(',').collect();
    assert_eq!(header[0], "time_s");
    let col = header.iter().position(|&c| c == "sda.written_mbps").expect("written");
    let rows: Vec<Vec<f64>> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(|c| c.parse().unwrap_or(f64::NAN)).collect())
        .filter(|r: &Vec<f64>| r[0] > 10.0 + 1e-9)
        .collect();
    let mean = rows.iter().map(|r| r[col]).sum::<f64>() / rows.len() as f64;
    assert!((shown - mean).abs() < 0.15, "{line}: the rows after 10 s write {mean}");
}

/// Lesson 07 step 2 compares patch 06, whose dirty pages run to about
/// 730 MiB, with patch 07, whose limit is 600 MiB: the pos_ratio axis
/// ended at patch 06's limit (626 MiB), piling the points beyond it on
/// the border, and patch 07's setpoint and limit were not marked.
#[test]
fn the_pos_ratio_axis_holds_every_point_and_both_sides_limits() {
    let (dir, _) = plot("pos-ratio-axis", &["--lesson", "07", "--step", "2"]);
    let path = dir.join("3-pos-ratio.svg");
    let top = x_ticks(&path).into_iter().fold(0.0, f64::max);
    assert!(top >= 700.0, "the axis reaches the points: ticks up to {top}");
    let texts = svg_texts(&path);
    assert!(has(&texts, "limit, patch 07 (IO-less)") && has(&texts, "setpoint, patch 07 (IO-less)"), "{texts:?}");
    assert_eq!(texts.iter().filter(|t| t.contains("freerun")).count(), 1, "one freerun, shared: {texts:?}");
}

/// A run too short for a sample in the means' window says so, rather
/// than a mean of 0 MiB against a setpoint of 0.
#[test]
fn a_window_without_a_sample_has_no_mean() {
    let (_, said) = plot("no-sample", &["--duration", "50ms"]);
    // The peak is known all the same: it comes from every dirtying.
    assert!(said.contains("patch 11 (IO-less): dirty: no sample over the last 0.025 s; peak "), "{said}");
    assert!(!said.contains("setpoint 0 MiB"), "{said}");
}
