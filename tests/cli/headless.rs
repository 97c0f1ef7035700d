//! Headless runs: `run --compare`, `replay` writing side A's time series
//! and summary, memory that does not grow with a run's length.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::common::{dirtyviz, ok, tmp};

/// A scratch directory of its own for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = tmp(&format!("headless-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A summary without the figures of the machine (wall time, speed).
fn figures(mut v: Value) -> Value {
    let o = v.as_object_mut().expect("a summary is an object");
    assert!(o.remove("wall_s").is_some(), "a summary has wall_s");
    o.remove("real_time_factor");
    v
}

fn json(path: &Path) -> Value {
    serde_json::from_slice(&read(path)).expect("JSON")
}

/// `run --compare legacy` runs 3.1 and IO-less side by side: each side's
/// trace, CSV and summary are what a single run of that side writes, the
/// summary JSON holds both under "a" and "b" with a single run's fields,
/// and the report sets each figure side by side with B − A.
#[test]
fn compare_runs_both_sides_as_their_single_runs() {
    let dir = scratch("compare");
    let p = |name: &str| dir.join(name);
    let traces = format!("{},{}", p("a.jsonl").display(), p("b.jsonl").display());
    let out = dirtyviz()
        .args(["run", "--scenario", "hdd-10dd", "--compare", "legacy", "--duration", "20s"])
        .arg("--csv")
        .arg(p("{side}.csv"))
        .arg("--trace")
        .arg(&traces)
        .arg("--summary-json")
        .arg(p("both.json"))
        .output()
        .expect("runs");
    let report = ok(&out);
    let both = json(&p("both.json"));
    assert_eq!(both["compare"], "legacy=11");
    assert_eq!(both["labels"]["a"], "legacy 3.1 (IO-full)");
    assert_eq!(both["labels"]["b"], "patch 11 (IO-less)");
    for (side, level) in [("a", "legacy"), ("b", "11")] {
        let single = ok(&dirtyviz()
            .args(["run", "-q", "--scenario", "hdd-10dd", "--patches", level, "--duration", "20s"])
            .arg("--csv")
            .arg(p(&format!("single-{side}.csv")))
            .arg("--trace")
            .arg(p(&format!("single-{side}.jsonl")))
            .arg("--summary-json")
            .arg(p(&format!("single-{side}.json")))
            .output()
            .expect("runs"));
        assert!(single.is_empty(), "-q prints nothing");
        let csv = read(&p(&format!("{side}.csv")));
        assert!(csv == read(&p(&format!("single-{side}.csv"))), "side {side}'s CSV is its single run's");
        assert!(csv.iter().filter(|&&b| b == b'\n').count() == 202, "a header and 201 rows, 0 s to 20 s");
        let trace = read(&p(&format!("{side}.jsonl")));
        assert!(trace.len() > 100_000 && trace == read(&p(&format!("single-{side}.jsonl"))), "side {side}'s trace");
        assert_eq!(figures(both[side].clone()), figures(json(&p(&format!("single-{side}.json")))), "side {side}");
    }
    // IO-full sleeps often and briefly; IO-less pauses are longer and fewer.
    let (a, b) = (&both["a"]["pauses_ms"], &both["b"]["pauses_ms"]);
    assert!(a["count"].as_u64() > b["count"].as_u64(), "{a} vs {b}");
    assert!(a["p50"].as_f64() < b["p50"].as_f64(), "{a} vs {b}");
    // The table: each figure of A and B and their difference.
    let row = |name: &str| -> Vec<f64> {
        let line = report.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("no {name} in {report}"));
        line[name.len()..].split_whitespace().map(|v| v.parse().expect("a number")).collect()
    };
    let (sides, header) = (report.lines().nth(1).expect("the sides"), report.lines().nth(2).expect("a header"));
    assert_eq!(sides, "sides    A legacy 3.1 (IO-full)  ·  B patch 11 (IO-less)");
    assert!(header.trim_start().starts_with('A') && header.ends_with("B − A"), "{header}");
    assert!(report.lines().all(|l| l.chars().count() <= 80), "{report}");
    // Against 2.6.38 with a long case name too: its note and its first
    // line are wrapped.
    let out = dirtyviz()
        .args([
            "run",
            "--case",
            "JBOD-10HDD-16G/xfs-100dd-1M-24p-16384M-20:10-X",
            "--compare",
            "2.6.38",
            "--duration",
            "1s",
        ])
        .output()
        .expect("runs");
    let wide = ok(&out);
    assert!(wide.lines().all(|l| l.chars().count() <= 80), "{wide}");
    assert!(
        wide.contains(
            "note A      2.6.38 has no setpoint, smoothed limit, bandwidth estimate or\n            dirty_ratelimit: –"
        ),
        "{wide}"
    );
    for (name, key) in [("pause p50 [ms]", "p50"), ("pause p99 [ms]", "p99"), ("pause max [ms]", "max")] {
        let r = row(name);
        assert_eq!(r, vec![num(a, key), num(b, key), num(b, key) - num(a, key)], "{name}");
    }
    let longest = row("longest call [ms]");
    let calls = |s: &str| num(&both[s]["throttled_ms"], "max");
    assert_eq!(longest, vec![calls("a"), calls("b"), calls("b") - calls("a")]);
    let throughput = row("throughput [MiB/s]");
    let written = |s: &str| num(&both[s]["bdis"][0], "written_mbps");
    assert!((throughput[0] - written("a")).abs() <= 0.05 && (throughput[1] - written("b")).abs() <= 0.05);
    assert!((throughput[2] - (throughput[1] - throughput[0])).abs() <= 0.11, "{throughput:?}");
    // 3.1 has no setpoint: the table shows "–" on its side and says why,
    // and the JSON keeps the shadow value a single run reports.
    let cells = |name: &str| -> Vec<String> {
        let line = report.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("no {name} in {report}"));
        line[name.len()..].split_whitespace().map(str::to_string).collect()
    };
    let vs = cells("dirty vs setpoint [%]");
    let g = |s: &str| &both[s]["global"];
    let pct = |s: &str| 100.0 * (num(g(s), "dirty_mean_mb") - num(g(s), "setpoint_mb")) / num(g(s), "setpoint_mb");
    assert_eq!(vs[0], "–", "{report}");
    assert_eq!(vs[2], "–", "{report}");
    assert!((vs[1].parse::<f64>().expect("a number") - pct("b")).abs() <= 0.05, "{vs:?}");
    assert_eq!(cells("setpoint [MiB]")[0], "–", "{report}");
    assert!(report.contains("note A      3.1 has no setpoint"), "{report}");
    for s in ["speed A", "speed B"] {
        assert!(report.contains(s), "{report}");
    }
}

/// `--compare patches=5` sets patch 04's dirty_ratelimit beside patch
/// 05's: the row a patch that changes only the rate needs, or the table
/// reads the same on both sides. Its cells are the summaries' medians.
#[test]
fn compare_shows_each_bdis_dirty_ratelimit() {
    let dir = scratch("compare-ratelimit");
    let out = dirtyviz()
        .args(["run", "--compare", "patches=5", "--duration", "10s", "--summary-json"])
        .arg(dir.join("s.json"))
        .output()
        .expect("runs");
    let report = ok(&out);
    let both = json(&dir.join("s.json"));
    let name = "dirty_ratelimit sda [MiB/s]";
    let line = report.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("no {name} in {report}"));
    let cells: Vec<f64> = line[name.len()..].split_whitespace().map(|c| c.parse().expect("a number")).collect();
    let rate = |s: &str| num(&both[s]["bdis"][0], "dirty_ratelimit_mbps");
    assert!((cells[0] - rate("a")).abs() <= 0.05 && (cells[1] - rate("b")).abs() <= 0.05, "{line}");
    // Patch 04 copies each 200 ms estimate; patch 05 holds the rate near
    // write_bw (100 MiB/s, one dd).
    assert!(cells[0] < 10.0 && cells[1] > 90.0, "{line}");
    // 3.1 has none: a dash, and the note says so.
    let out = dirtyviz().args(["run", "--compare", "legacy", "--duration", "3s"]).output().expect("runs");
    let report = ok(&out);
    let line = report.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("no {name} in {report}"));
    assert_eq!(line[name.len()..].split_whitespace().next(), Some("–"), "{report}");
    assert!(report.contains("note A      3.1 has no setpoint or dirty_ratelimit: –"), "{report}");
}

fn num(v: &Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or_else(|| panic!("no number {key} in {v}"))
}

/// `copy_mbps` sets how fast a CPU copies writes into the page cache: a
/// dd never throttled dirties a page of 4 KiB writes in 4096 B / 100 MiB/s
/// = 39062.5 ns of copying and 1500 ns of the write() call, 96.30 MiB/s.
/// A speed under 1 MiB/s is refused at its place.
#[test]
fn copy_mbps_sets_a_free_writers_pace() {
    let dir = scratch("copy-mbps");
    let scenario = dir.join("copy.ron");
    let text = |mbps: &str| {
        format!(
            "Scenario(cpus: 2, copy_mbps: {mbps}, dirty_bytes: Some(4000000000), duration_s: 5.0,\n\
             devices: [(name: \"sda\", kind: Ssd, bandwidth_mbps: 1000)], tasks: [Dd(bdi: \"sda\", n: 1)])"
        )
    };
    std::fs::write(&scenario, text("100")).expect("write");
    let s = super::common::summary("copy-mbps", &["--scenario", scenario.to_str().expect("UTF-8")]);
    let rate = s["tasks"][0]["rate_mbps"].as_f64().expect("a rate");
    let free = 4096.0 * 1e9 / (39062.5 + 1500.0) / 1048576.0;
    assert!((rate / free - 1.0).abs() < 0.002, "{rate} against {free}");
    std::fs::write(&scenario, text("0.5")).expect("write");
    let out = dirtyviz().args(["run", "--scenario"]).arg(&scenario).output().expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.ends_with(":1:30: copy_mbps must be between 1 and 100000 MiB/s, got 0.5\n"), "{stderr}");
}

/// The files of `--compare` come in pairs or with a {side}; a pair that
/// names one file twice, or an input, is refused before anything runs.
#[test]
fn compare_files_are_pairs_and_never_inputs() {
    let dir = scratch("compare-files");
    let scenario = dir.join("mine.ron");
    let text = "Scenario(devices: [(name: \"sda\", kind: Hdd)])";
    std::fs::write(&scenario, text).expect("write");
    let run = |args: &[&str]| {
        dirtyviz()
            .current_dir(&dir)
            .args(["run", "--compare", "legacy", "--duration", "1s"])
            .args(args)
            .output()
            .expect("runs")
    };
    for (args, says) in [
        (vec!["--csv", "one.csv"], "--csv one.csv: with --compare it takes two files, A,B, or one name with {side}"),
        (vec!["--trace", "a.jsonl,"], "--trace a.jsonl,: with --compare it takes two files"),
        (vec!["--csv", "x.csv,x.csv"], "--csv (side A) x.csv and --csv (side B) x.csv are the same file"),
        (vec!["--csv", "a.csv,mine.ron"], "--csv (side B) mine.ron is the same file as the scenario mine.ron"),
    ] {
        let mut args = args.clone();
        if says.contains("scenario") {
            args.extend(["--scenario", "mine.ron"]);
        }
        let out = run(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(says), "{err:?} should say {says:?}");
    }
    assert_eq!(std::fs::read_to_string(&scenario).expect("kept"), text);
    let names: Vec<_> = std::fs::read_dir(&dir).expect("dir").map(|e| e.expect("entry").file_name()).collect();
    assert_eq!(names, ["mine.ron"], "nothing written");
}

/// A session's recording, replayed, writes side A's CSV and summary as the
/// session made them, through every restart and change the keys made.
#[test]
fn a_replayed_session_writes_side_a_as_the_session_did() {
    use dirtyviz::app::{App, AppOptions};
    use dirtyviz::record::{Header, Recorder, SeriesWriter};
    use dirtyviz::sim::NS_PER_SEC;
    use dirtyviz::ui::keys;
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    let dir = scratch("replay");
    let p = |name: &str| dir.join(name);
    let scenario = dirtyviz::scenario::presets::get("hdd-10dd").expect("preset").expect("valid");
    let mut app = App::new(scenario, None, &AppOptions::default()).expect("app");
    let mut recorder = Recorder::create(&p("session.jsonl"), &Header::of(&app)).expect("recording");
    let mut live = SeriesWriter::create(Some(&p("live.csv")), Some(&p("live.json")), &app).expect("outputs");
    app.start_recording();
    let first_world = app.session().world_id();
    // Time steps and keys that change the world: more dd, fewer, a patch
    // level down, a restart, compare mode (side A becomes 3.1, restarted).
    let mut step = 0;
    let press = |app: &mut App, c: char| {
        if let Some(msg) = keys::message(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE), app.mode()) {
            app.update(msg);
        }
    };
    for plan in ["....", "+", "...", "-", "..", "p", "...", "r", "....", "c", "...", "+", "..."] {
        for c in plan.chars() {
            if c == '.' {
                step += 1;
                app.advance_to(app.sim_ns() + (700 + 37 * step) * NS_PER_SEC / 1000);
            } else {
                press(&mut app, c);
            }
            recorder.write(&app.take_record()).expect("record");
            live.drain(&app).expect("drain");
        }
    }
    let summary = live.finish(&app).expect("outputs");
    recorder.finish().expect("recording in place");
    assert_ne!(app.session().world_id(), first_world, "r and c restarted the world");
    assert_eq!(app.world().patches(), 0, "c made side A 3.1");
    assert!(summary.duration_s > 5.0, "{}", summary.duration_s);
    let out = dirtyviz()
        .arg("replay")
        .arg(p("session.jsonl"))
        .arg("--csv")
        .arg(p("replayed.csv"))
        .arg("--summary-json")
        .arg(p("replayed.json"))
        .output()
        .expect("runs");
    let said = ok(&out);
    assert!(said.contains("wrote --csv") && said.contains("--summary-json"), "{said}");
    // Both sides' kernels, not side A's as the session's.
    assert!(said.contains("ending at A legacy 3.1 (IO-full) vs B patch 11 (IO-less)"), "{said}");
    let csv = read(&p("live.csv"));
    assert!(csv.len() > 5_000, "{} bytes", csv.len());
    assert!(csv == read(&p("replayed.csv")), "the replay's CSV is the session's");
    assert_eq!(figures(json(&p("replayed.json"))), figures(json(&p("live.json"))));
    // A change shows at once: a row off the 100 ms grid, with its time to the ms.
    let text = String::from_utf8(csv).expect("UTF-8");
    assert!(
        text.lines().skip(1).any(|l| l.split(',').next().is_some_and(|t| t.len() - t.find('.').unwrap_or(0) == 4)),
        "{text}"
    );
}

/// A session left to run, replayed, writes what `run` writes for the same
/// time: the CSV byte for byte, the summary but for the machine's speed.
#[test]
fn a_replayed_session_without_keys_writes_what_run_writes() {
    use dirtyviz::app::{App, AppOptions};
    use dirtyviz::record::{Header, Recorder};
    use dirtyviz::sim::NS_PER_SEC;

    let dir = scratch("replay-run");
    let p = |name: &str| dir.join(name);
    let scenario = dirtyviz::scenario::presets::get("ukey-hdd").expect("preset").expect("valid");
    let mut app = App::new(scenario, None, &AppOptions::default()).expect("app");
    let mut recorder = Recorder::create(&p("session.jsonl"), &Header::of(&app)).expect("recording");
    app.start_recording();
    // Uneven steps, as frames come, to 25 s.
    let mut t = 0;
    for i in 0.. {
        t = (t + (33 + i % 50) * NS_PER_SEC / 1000).min(25 * NS_PER_SEC);
        app.advance_to(t);
        recorder.write(&app.take_record()).expect("record");
        if t == 25 * NS_PER_SEC {
            break;
        }
    }
    recorder.finish().expect("recording in place");
    ok(&dirtyviz()
        .arg("replay")
        .arg(p("session.jsonl"))
        .args(
            ["--csv", "--summary-json"]
                .iter()
                .zip(["replayed.csv", "replayed.json"])
                .flat_map(|(o, f)| [o.to_string(), p(f).display().to_string()]),
        )
        .output()
        .expect("runs"));
    ok(&dirtyviz()
        .args(["run", "-q", "--scenario", "ukey-hdd", "--duration", "25s", "--csv"])
        .arg(p("run.csv"))
        .arg("--summary-json")
        .arg(p("run.json"))
        .output()
        .expect("runs"));
    let csv = read(&p("run.csv"));
    assert_eq!(csv.iter().filter(|&&b| b == b'\n').count(), 252, "a header and 251 rows, 0 s to 25 s");
    assert!(csv == read(&p("replayed.csv")), "the replay's CSV is run's");
    assert_eq!(figures(json(&p("replayed.json"))), figures(json(&p("run.json"))));
    // A trace the cap stopped is said to have stopped, at run's time (the
    // replay said nothing of it).
    let stopped = |out: std::process::Output| {
        let text = ok(&out);
        text.lines().find(|l| l.contains("stopped at")).map(|l| l.split_whitespace().rev().nth(3).map(String::from))
    };
    let capped = ["--trace", "t.jsonl", "--max-trace-size", "64k"];
    let replayed = stopped(
        dirtyviz().current_dir(&dir).arg("replay").arg(p("session.jsonl")).args(capped).output().expect("runs"),
    );
    let run = stopped(
        dirtyviz()
            .current_dir(&dir)
            .args(["run", "--scenario", "ukey-hdd", "--duration", "25s"])
            .args(capped)
            .output()
            .expect("runs"),
    );
    assert!(replayed.is_some(), "the replay says the trace stopped");
    assert_eq!(replayed, run, "at run's time");
}

/// Peak resident memory of a finished child [KiB], from the kernel's
/// accounting.
#[expect(clippy::zombie_processes, reason = "reaped by wait4, which also gives its peak memory")]
fn peak_rss_kib(mut cmd: std::process::Command) -> u64 {
    let child = cmd.stdout(std::process::Stdio::null()).spawn().expect("runs");
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value to be written over.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child, writing only into locals.
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as libc::pid_t, "waited");
    assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0, "status {status}");
    usage.ru_maxrss as u64
}

/// A run keeps what it samples only until it is written: an hour takes
/// no more memory than a minute (it used to keep every sample, some 2 MB
/// more per simulated 10 minutes of the default world).
#[test]
fn an_hour_takes_the_memory_of_a_minute() {
    let dir = scratch("memory");
    let run = |duration: &str| {
        let mut cmd = dirtyviz();
        cmd.args(["run", "-q", "--duration", duration, "--csv"]).arg(dir.join(format!("{duration}.csv")));
        peak_rss_kib(cmd)
    };
    let (minute, hour) = (run("60s"), run("3600s"));
    assert!(hour < minute + 1024, "{minute} KiB for a minute, {hour} KiB for an hour");
    let rows = std::fs::read_to_string(dir.join("3600s.csv")).expect("csv").lines().count();
    assert_eq!(rows, 36_002, "a header and a row per 100 ms, 0 s to 3600 s");
}

/// `check` draws its progress line only on a terminal: a pipe or a log
/// gets its report and nothing else.
#[test]
fn check_tells_no_progress_to_a_pipe() {
    let out = dirtyviz().args(["check", "00"]).output().expect("runs");
    let said = ok(&out);
    assert!(said.starts_with("ok   ") && said.contains("all 1 passed"), "{said}");
    assert_eq!(String::from_utf8_lossy(&out.stderr), "", "nothing on stderr");
}

/// The report gives a run's length, and the time its means and medians
/// start at, as they are: a run of 1.5 s is not "2 s", and a run of 5 s
/// averages after 2.5 s, not "after 2 s"; the comparison's report too.
#[test]
fn the_report_shows_fractions_of_a_second() {
    let report = ok(&dirtyviz().args(["run", "--duration", "1500ms"]).output().expect("runs"));
    assert!(
        report.starts_with("scenario default ") && report.lines().next().unwrap().ends_with("HZ 1000  1.5 s simulated"),
        "{report}"
    );
    assert!(report.contains(" after 0.75 s ") && report.contains("(medians of last 0.75 s)"), "{report}");
    assert!(report.contains("simulated 1.5 s in "), "{report}");
    let report = ok(&dirtyviz().args(["run", "--duration", "5s"]).output().expect("runs"));
    assert!(report.contains(" after 2.5 s ") && report.contains("(medians of last 2.5 s)"), "{report}");
    assert!(report.lines().next().unwrap().ends_with("  5 s simulated"), "{report}");
    let report = ok(&dirtyviz().args(["run", "--duration", "2.5ms"]).output().expect("runs"));
    assert!(report.lines().next().unwrap().ends_with("  0.0025 s simulated"), "{report}");
    let report = ok(&dirtyviz().args(["run", "--compare", "legacy", "--duration", "2500ms"]).output().expect("runs"));
    assert!(report.lines().next().unwrap().ends_with("  2.5 s simulated"), "{report}");
}

/// Linux 3.1 has no setpoint and no dirty_ratelimit: its report shows `–`
/// for them and says why, as the compare report does, rather than a
/// setpoint the kernel never computes and dirty_ratelimit's initial
/// 100 MiB/s; patch 02 brings the setpoint, patch 04 dirty_ratelimit.
#[test]
fn the_report_shows_no_setpoint_or_ratelimit_before_their_patches() {
    let report =
        |level: &str| ok(&dirtyviz().args(["run", "--patches", level, "--duration", "5s"]).output().expect("runs"));
    let legacy = report("legacy");
    assert!(legacy.contains("  setpoint –  limit 737.4"), "{legacy}");
    assert!(legacy.contains("(–% of setpoint)"), "{legacy}");
    assert!(legacy.contains("dirty_ratelimit – vs write_bw/N "), "{legacy}");
    assert!(
        legacy.contains("note        Linux 3.1 has no setpoint (patch 02) and no dirty_ratelimit (patch 04): –"),
        "{legacy}"
    );
    let three = report("3");
    assert!(three.contains("  setpoint 645.2  limit 737.4") && three.contains("dirty_ratelimit – vs"), "{three}");
    assert!(three.contains("has no dirty_ratelimit (patch 04): –") && !three.contains("no setpoint"), "{three}");
    let four = report("4");
    assert!(!four.contains("note  ") && !four.contains("dirty_ratelimit – "), "{four}");
}

/// A world without writers says so in the summary, instead of printing
/// percentiles of no sleep as 0 ms.
#[test]
fn a_run_without_writers_says_no_task_slept() {
    let out = dirtyviz().args(["run", "--dd", "0", "--duration", "5s"]).output().expect("runs");
    let report = ok(&out);
    let line = |report: &str, head: &str| {
        let found = report.lines().find(|l| l.starts_with(head));
        found.unwrap_or_else(|| panic!("no {head}: {report}")).to_string()
    };
    assert_eq!(line(&report, "pauses"), "pauses      no task slept");
    assert_eq!(line(&report, "throttled"), "throttled   no call blocked  (foreground writeback 0.0 MiB)");
    let out = dirtyviz().args(["run", "--dd", "0", "--duration", "5s", "--compare", "legacy"]).output().expect("runs");
    let report = ok(&out);
    for figure in ["pause p50 [ms]", "pause p99 [ms]", "pause max [ms]", "longest call [ms]"] {
        let row = line(&report, figure);
        let cells: Vec<&str> = row.split_whitespace().rev().take(3).collect();
        assert_eq!(cells, ["–"; 3], "{figure}: {report}");
    }
    let out = dirtyviz().args(["run", "--dd", "1", "--duration", "5s"]).output().expect("runs");
    let report = ok(&out);
    assert!(report.lines().any(|l| l.starts_with("pauses") && l.contains(" sleeps  p50 ")), "{report}");
    assert!(report.lines().any(|l| l.starts_with("throttled") && l.contains(" calls blocked  p50 ")), "{report}");
}

/// A long run or plot on a terminal tells its simulated seconds on one
/// line of stderr, redrawn in place, and clears it when it stops (here by
/// a Ctrl-C), so that what is printed next starts a clean line; `run -q`
/// prints nothing.
#[test]
fn a_long_run_tells_its_simulated_time_on_a_terminal() {
    use std::io::Read as _;
    let figures = scratch("long-plot");
    let figures = figures.to_str().expect("UTF-8");
    let commands: [(&[&str], bool); 3] = [
        (&["run", "--duration", "1000000s"], true),
        (&["run", "--duration", "1000000s", "-q"], false),
        (&["plot", "--duration", "1000000s", "--out", figures], true),
    ];
    for (args, shown) in commands {
        let (master, terminal) = crate::common::pty(100, 30);
        let stderr = std::fs::OpenOptions::new().write(true).open(&terminal).expect("terminal side");
        let mut cmd = dirtyviz();
        cmd.args(args);
        let child =
            cmd.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::from(stderr)).spawn().expect("runs");
        // Only the child holds the terminal side now: its exit closes it.
        drop(cmd);
        let mut reader = std::fs::File::from(master);
        let mut said = Vec::new();
        let mut buf = [0u8; 4096];
        crate::common::wait_until_it_catches_sigint(child.id());
        // The line comes after a second.
        let wait_until = std::time::Instant::now() + std::time::Duration::from_secs(3);
        let pid = child.id() as libc::pid_t;
        std::thread::spawn(move || {
            std::thread::sleep(wait_until - std::time::Instant::now());
            // SAFETY: a signal to the child, which outlives this thread's sleep.
            unsafe { libc::kill(pid, libc::SIGINT) };
        });
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            said.extend_from_slice(&buf[..n]);
        }
        let o = child.wait_with_output().expect("ends");
        assert_eq!(o.status.code(), Some(130), "{args:?}");
        let said = String::from_utf8_lossy(&said);
        let stopped = "error: interrupted: no output file was saved, existing files are as they were";
        if !shown {
            assert_eq!(said.trim_end(), stopped, "{args:?}: only the error");
            continue;
        }
        assert!(said.starts_with("\rsimulated ") && said.contains("/1000000 s  "), "{args:?}: {said:?}");
        assert!(said.ends_with(&format!("\r\x1b[K{stopped}\r\n")), "{args:?}: cleared before the error: {said:?}");
    }
}

/// A run's report writes sizes past 9999 MiB in GiB (or TiB), as the
/// screen does: a 4 TiB world's thresholds read `bg 369 GiB`, not
/// `bg 377487.4 MiB`; a small world's read in MiB to a tenth, as ever.
/// The JSON keeps its fields in MiB, as their names say.
#[test]
fn a_huge_worlds_report_writes_its_sizes_in_gib() {
    let dir = scratch("huge-report");
    let json_path = dir.join("s.json");
    let out = dirtyviz()
        .args(["run", "--memory", "4T", "--duration", "2s", "--summary-json"])
        .arg(&json_path)
        .output()
        .expect("runs");
    let report = ok(&out);
    let line =
        |head: &str| report.lines().find(|l| l.starts_with(head)).unwrap_or_else(|| panic!("{report}")).to_string();
    assert_eq!(line("thresholds"), "thresholds  bg 369  freerun 553  setpoint 645  limit 737  thresh 737 GiB");
    let dirty = line("dirty ");
    assert!(dirty.ends_with("max 1952.1 MiB (-735 GiB vs limit)"), "{dirty}");
    assert!(line("bdi sda").contains("bdi_thresh 737 GiB"), "{report}");
    assert!(!report.contains("377487"), "{report}");
    let v = json(&json_path);
    let bg = v["global"]["bg_thresh_mb"].as_f64().expect("bg_thresh_mb");
    assert!((bg - 377487.4).abs() < 0.1, "{bg}");
    let out = dirtyviz().args(["run", "--duration", "1s"]).output().expect("runs");
    let report = ok(&out);
    assert!(
        report.contains("thresholds  bg 368.7  freerun 553.0  setpoint 645.2  limit 737.4  thresh 737.4 MiB"),
        "{report}"
    );
}

/// Every number of a run's report has its unit, written once after a run
/// of numbers in the same unit (as `view` writes them): the thresholds,
/// the bdi's rates, the pauses, the tasks' dirty rates.
#[test]
fn every_number_of_the_report_has_its_unit() {
    let report = ok(&dirtyviz().args(["run", "--duration", "1s"]).output().expect("runs"));
    let line =
        |head: &str| report.lines().find(|l| l.starts_with(head)).unwrap_or_else(|| panic!("{report}")).to_string();
    assert_eq!(
        line("thresholds"),
        "thresholds  bg 368.7  freerun 553.0  setpoint 645.2  limit 737.4  thresh 737.4 MiB"
    );
    let bdi = line("bdi sda");
    assert!(bdi.starts_with("bdi sda    hdd       1 task  written"), "one task, not '1 tasks': {bdi}");
    assert!(
        bdi.contains(
            "written 57.5 MiB/s (whole run)  avg_write_bw 99.4  dirty_ratelimit 100.000 vs write_bw/N 99.434 MiB/s (1.01x)  bdi_thresh 737.4 MiB (medians of last 0.5 s)  busy"
        ),
        "{bdi}"
    );
    assert_eq!(line("pauses"), "pauses      49 sleeps  p50 8  p90 9  p99 10  max 10 ms");
    assert!(line("throttled").starts_with("throttled   48 calls blocked  p50 8  p90 9  p99 9  max 9 ms  "), "{report}");
    assert!(line("tasks").contains("dirty rate (whole run) min 640.000  max 640.000 MiB/s (max/min 1.00)"), "{report}");
}

/// With no dd nothing is dirtied, and the report still says how far below
/// the limit dirty stayed: all of it (the limit is known), in the report
/// and in the JSON.
#[test]
fn a_run_that_dirties_nothing_stays_the_whole_limit_below_it() {
    let dir = scratch("no-dd");
    let json_path = dir.join("s.json");
    let out = dirtyviz()
        .args(["run", "--dd", "0", "--duration", "1s", "--summary-json"])
        .arg(&json_path)
        .output()
        .expect("runs");
    let report = ok(&out);
    assert!(report.contains("max 0.0 MiB (-737.4 MiB vs limit)"), "{report}");
    let v = json(&json_path);
    let (over, limit) = (v["global"]["over_limit_max_mb"].as_f64(), v["global"]["limit_mb"].as_f64());
    assert_eq!(over.zip(limit).map(|(o, l)| o + l), Some(0.0), "{}", v["global"]);
}

/// Linux 2.6.38 has no smoothed global_dirty_limit (3.1 brought it): its
/// report lists no limit and measures dirty against thresh; 3.1 lists it.
#[test]
fn the_2_6_38_report_lists_no_smoothed_limit() {
    let report =
        |level: &str| ok(&dirtyviz().args(["run", "--patches", level, "--duration", "2s"]).output().expect("runs"));
    let old = report("2.6.38");
    let line = |r: &str, key: &str| r.lines().find(|l| l.starts_with(key)).map(str::to_owned).unwrap_or_default();
    assert_eq!(
        line(&old, "thresholds"),
        "thresholds  bg 368.7  freerun 553.0  setpoint –  limit –  thresh 737.4 MiB",
        "{old}"
    );
    assert!(line(&old, "dirty ").ends_with(" vs thresh)"), "{old}");
    assert_eq!(
        line(&old, "note"),
        "note        Linux 2.6.38 has no setpoint (patch 02), no smoothed limit (Linux 3.1), no bandwidth estimate (Linux 3.1) and no dirty_ratelimit (patch 04): –"
    );
    // Nor write_bw and avg_write_bw: no number the kernel lacks.
    assert!(line(&old, "bdi ").contains("avg_write_bw –  dirty_ratelimit – vs write_bw/N – MiB/s (–)"), "{old}");
    let v31 = report("legacy");
    assert!(line(&v31, "thresholds").contains("  limit 737.4  thresh 737.4 MiB"), "{v31}");
    assert!(line(&v31, "dirty ").ends_with(" vs limit)"), "{v31}");
}

/// Runs `scenario` for `seconds` writing its trace to `trace`, a trace
/// over 1 MiB announced; returns the notes and, for each, the MiB per
/// simulated second it announced.
fn announced_trace(scenario: &dirtyviz::scenario::Scenario, seconds: u64, trace: &Path) -> Vec<(String, f64)> {
    let opts = dirtyviz::run::RunOptions {
        duration_ns: seconds * dirtyviz::sim::NS_PER_SEC,
        files: [dirtyviz::run::SideFiles { trace: Some(trace.to_path_buf()), csv: None }, Default::default()],
        announce_trace_bytes: Some(1 << 20),
        ..Default::default()
    };
    let mut notes = Vec::new();
    dirtyviz::run::run(scenario, &opts, &mut |n| notes.push(n)).expect("runs");
    notes
        .into_iter()
        .map(|note| {
            let per_second = note
                .split_once(" GiB (")
                .and_then(|(_, rest)| rest.split_once(" MiB per simulated second"))
                .and_then(|(n, _)| n.parse().ok())
                .unwrap_or_else(|| panic!("{note}"));
            (note, per_second)
        })
        .collect()
}

/// The size a run's trace is announced at is the size it reaches: the
/// note, made after a tenth of the run, leaves out the first seconds,
/// which trace more than the rest. It told the first simulated second
/// times the run: hdd-100dd's 120 s trace was announced at 1.9 MiB per
/// simulated second, where it writes 0.72 (and hdd-1000dd's at 10.2, 60 s
/// of it averaging 6.8).
#[test]
fn a_traces_announced_size_is_the_size_it_reaches() {
    let dir = scratch("announce");
    for (preset, seconds) in [("hdd-100dd", 120), ("raid0-10hdd", 120)] {
        let trace = dir.join(format!("{preset}.jsonl"));
        let scenario = dirtyviz::scenario::presets::get(preset).expect("preset").expect("valid");
        let notes = announced_trace(&scenario, seconds, &trace);
        assert_eq!(notes.len(), 1, "{notes:?}");
        let (note, per_second) = &notes[0];
        assert!(note.contains(&format!("for {seconds} s, from its first")), "{note}");
        let written = std::fs::metadata(&trace).expect("trace").len() as f64 / (1 << 20) as f64 / seconds as f64;
        assert!((per_second / written - 1.0).abs() < 0.1, "{preset}: announced {per_second}, wrote {written:.2}");
    }
}

/// A trace stopped at its cap before the run's first tenth is not
/// announced: its length was told as a rate (`--max-trace-size 2G` on a
/// JBOD box that reached it at 310 s of 3600: "about 2.0 GiB (0.6 MiB
/// per simulated second ...); --max-trace-size caps it").
#[test]
fn a_trace_stopped_at_its_cap_is_not_announced() {
    let dir = scratch("announce-capped");
    let trace = dir.join("t.jsonl");
    let scenario = dirtyviz::scenario::presets::get("hdd-100dd").expect("preset").expect("valid");
    let opts = dirtyviz::run::RunOptions {
        duration_ns: 120 * dirtyviz::sim::NS_PER_SEC,
        files: [dirtyviz::run::SideFiles { trace: Some(trace.clone()), csv: None }, Default::default()],
        announce_trace_bytes: Some(1 << 20),
        max_trace_bytes: Some(3 << 20),
        ..Default::default()
    };
    let mut notes = Vec::new();
    let summaries = dirtyviz::run::run(&scenario, &opts, &mut |n| notes.push(n)).expect("runs");
    let stopped = summaries.trace_stopped_s.expect("stopped at its cap");
    assert!(stopped < 12.0, "before the first tenth: {stopped} s");
    assert!(notes.is_empty(), "{notes:?}");
}

/// A run whose trace grows faster after its first tenth says so again:
/// hdd-1000dd's 300 s trace was announced at 1.4 GiB from its first 30 s
/// (the writers were still settling) and reached 2.4 GiB. Here thirty dd
/// join one at 40 s of 160: the first note, from the first 16 s, tells
/// one dd's rate; a later one tells the size the trace reaches.
#[test]
fn a_trace_that_grows_faster_is_announced_again() {
    let dir = scratch("announce-again");
    let trace = dir.join("t.jsonl");
    let text = r#"Scenario(
        name: "ramp",
        memory_mb: 1024,
        cpus: 4,
        devices: [(name: "sda", kind: Hdd)],
        tasks: [Dd(bdi: "sda", n: 1), Dd(bdi: "sda", n: 30, start_s: 40)],
    )"#;
    let scenario = dirtyviz::scenario::Scenario::from_ron(text, "ramp.ron").expect("valid");
    let seconds = 160;
    let notes = announced_trace(&scenario, seconds, &trace);
    let written = std::fs::metadata(&trace).expect("trace").len() as f64 / (1 << 20) as f64 / seconds as f64;
    assert!(notes.len() >= 2, "{notes:?}");
    let (first, first_rate) = &notes[0];
    assert!(first.contains("will be about") && first.contains("from its first 16 s"), "{first}");
    assert!(*first_rate < written / 2.0, "the first note tells one dd's rate: {notes:?}, wrote {written:.2}");
    let (last, last_rate) = notes.last().expect("notes");
    assert!(last.contains("grows faster than said: it will be about"), "{last}");
    assert!((last_rate / written - 1.0).abs() < 0.15, "{notes:?}, wrote {written:.2} MiB per second");
}

/// The last row of a CSV file by column name.
fn last_row(path: &Path) -> std::collections::HashMap<String, String> {
    let text = String::from_utf8(read(path)).expect("UTF-8");
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().expect("a header").split(',').map(str::to_owned).collect();
    let last = lines.last().expect("a row");
    header.into_iter().zip(last.split(',').map(str::to_owned)).collect()
}

/// What the run's kernel does not compute, the JSON gives as null and the
/// CSV as an empty cell, as the report gives `–`: Linux 3.1 has no
/// setpoint (patch 02) and no dirty_ratelimit (patch 04), where the JSON
/// gave the shadow setpoint 645.2 MiB and dirty_ratelimit's initial
/// 100 MiB/s, and the CSV task_ratelimit 0 (19.4 at patch 03, 100 ×
/// pos_ratio); 2.6.38 also has no smoothed limit.
#[test]
fn the_json_and_csv_leave_out_what_the_kernel_lacks() {
    let dir = scratch("kernel-lacks");
    let run = |level: &str| {
        let (json_path, csv_path) = (dir.join(format!("{level}.json")), dir.join(format!("{level}.csv")));
        let out = dirtyviz()
            .args(["run", "--scenario", "hdd-10dd", "--patches", level, "--duration", "3s", "--summary-json"])
            .arg(&json_path)
            .arg("--csv")
            .arg(&csv_path)
            .output()
            .expect("runs");
        ok(&out);
        (json(&json_path), last_row(&csv_path))
    };
    let cells = |row: &std::collections::HashMap<String, String>, names: &[&str]| {
        names.iter().map(|n| row.get(*n).cloned().unwrap_or_else(|| panic!("no {n}"))).collect::<Vec<_>>()
    };
    let rates = ["sda.dirty_ratelimit_mbps", "sda.balanced_ratelimit_mbps", "sda.task_ratelimit_mbps"];
    let (v, row) = run("legacy");
    assert_eq!(v["global"]["setpoint_mb"], Value::Null, "{}", v["global"]);
    assert_eq!(v["global"]["limit_mb"].as_f64(), Some(737.3984375), "{}", v["global"]);
    assert_eq!(v["bdis"][0]["dirty_ratelimit_mbps"], Value::Null, "{}", v["bdis"][0]);
    assert_eq!(cells(&row, &["setpoint_mb", "sda.setpoint_mb", "sda.pos_ratio"]), ["", "", ""]);
    assert_eq!(cells(&row, &rates), ["", "", ""]);
    assert_eq!(cells(&row, &["limit_mb", "freerun_mb"]), ["737.398", "553.047"]);
    let (v, row) = run("2.6.38");
    assert_eq!((&v["global"]["setpoint_mb"], &v["global"]["limit_mb"]), (&Value::Null, &Value::Null));
    assert_eq!(cells(&row, &["setpoint_mb", "limit_mb", "thresh_mb"]), ["", "", "737.398"]);
    let (v, row) = run("3");
    assert_eq!(v["global"]["setpoint_mb"].as_f64(), Some(645.22265625), "{}", v["global"]);
    assert_eq!(v["bdis"][0]["dirty_ratelimit_mbps"], Value::Null, "{}", v["bdis"][0]);
    assert_eq!(cells(&row, &["setpoint_mb"]), ["645.223"]);
    assert!(!row["sda.setpoint_mb"].is_empty() && !row["sda.pos_ratio"].is_empty(), "{row:?}");
    assert_eq!(cells(&row, &rates), ["", "", ""]);
    let (v, row) = run("4");
    assert!(v["bdis"][0]["dirty_ratelimit_mbps"].as_f64().is_some(), "{}", v["bdis"][0]);
    assert!(cells(&row, &rates).iter().all(|c| c.parse::<f64>().is_ok()), "{row:?}");
    // A comparison's side A is the run's.
    let out = dirtyviz()
        .args(["run", "--scenario", "hdd-10dd", "--compare", "legacy", "--duration", "3s", "--summary-json"])
        .arg(dir.join("both.json"))
        .output()
        .expect("runs");
    ok(&out);
    let both = json(&dir.join("both.json"));
    assert_eq!(both["a"]["global"]["setpoint_mb"], Value::Null);
    assert_eq!(both["a"]["bdis"][0]["dirty_ratelimit_mbps"], Value::Null);
    assert!(
        both["b"]["global"]["setpoint_mb"].as_f64().is_some() && both["b"]["bdis"][0]["dirty_ratelimit_mbps"].is_f64()
    );
}

/// task_ratelimit is the last one handed to a throttled task: where none
/// is (switch-disk's sdb has no dd until 50 s; sda's stops at 20 s and
/// dirty falls below freerun) its cell is empty, as pos_ratio's, where it
/// read 0 and 95.1 MiB/s.
#[test]
fn the_csv_has_a_task_ratelimit_only_where_a_task_is_throttled() {
    let dir = scratch("task-ratelimit");
    let csv = dir.join("s.csv");
    let out =
        dirtyviz().args(["run", "-q", "--scenario", "switch-disk", "--duration", "30s", "--csv"]).arg(&csv).output();
    ok(&out.expect("runs"));
    let text = std::fs::read_to_string(&csv).expect("csv");
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().expect("head").split(',').collect();
    let col = |name: &str| head.iter().position(|h| *h == name).unwrap_or_else(|| panic!("no {name}"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    let at = |t: &str| rows.iter().find(|r| r[0] == t).unwrap_or_else(|| panic!("no row {t}"));
    // sda's dd is throttled at 10 s, not at 29.8 s.
    assert!(at("10.0")[col("sda.task_ratelimit_mbps")].parse::<f64>().is_ok_and(|r| r > 50.0));
    assert_eq!([at("29.8")[col("sda.task_ratelimit_mbps")], at("29.8")[col("sda.pos_ratio")]], ["", ""]);
    // sdb: a pos_ratio above freerun, but no task to throttle.
    assert!(!at("10.0")[col("sdb.pos_ratio")].is_empty());
    assert!(rows.iter().all(|r| r[col("sdb.task_ratelimit_mbps")].is_empty()), "sdb throttled no task");
}

/// A row taken when a key changed a setting, a nanosecond after a sample,
/// has its rates over the 100 ms before that sample, not over the
/// nanosecond (where a page dirtied in it read 843 750 000 MiB/s, and
/// none read 0); the row after it, over the 100 ms since that sample.
#[test]
fn a_row_just_after_another_has_its_rates_over_a_longer_span() {
    let dir = scratch("rate-span");
    let header = r#"{"dirtyviz":"0.1.0","start":{"Dashboard":{"scenario":{"devices":[{"name":"sda","kind":"Hdd"}]},"compare":null}},"progress":{"lessons":{}}}"#;
    let calls = [r#"{"Key":[0,"AddDd"]}"#, r#"{"Advance":2000000001}"#, r#"{"Key":[2000000001,"AddDd"]}"#];
    let rec = dir.join("r.jsonl");
    std::fs::write(&rec, format!("{header}\n{}\n{{\"Advance\":3000000000}}\n", calls.join("\n"))).expect("write");
    let csv = dir.join("r.csv");
    ok(&dirtyviz().arg("replay").arg(&rec).arg("--csv").arg(&csv).output().expect("runs"));
    let text = std::fs::read_to_string(&csv).expect("csv");
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().expect("head").split(',').collect();
    let col = head.iter().position(|h| *h == "sda.dirtied_mbps").expect("dirtied");
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    let rate = |t: &str| -> f64 {
        let row = rows.iter().find(|r| r[0] == t).unwrap_or_else(|| panic!("no row {t}: {text}"));
        row[col].parse().expect("a rate")
    };
    let (before, just, after) = (rate("2.0"), rate("2.000000001"), rate("2.1"));
    assert!(before > 50.0 && before < 500.0, "{before}");
    assert!((just / before - 1.0).abs() < 0.1, "1 ns after 2.0 s: {just}, at 2.0 s: {before}");
    assert!(after > 50.0 && after < 500.0, "{after}");
}

/// A replay writes side A alone: `run --compare`'s names for two files
/// are refused before it replays, as `run` refuses them on one side (they
/// were written as files called `a.csv,b.csv` and `r-{side}.jsonl`).
#[test]
fn replay_refuses_the_names_of_two_sides_files() {
    let dir = scratch("replay-sides");
    let header = r#"{"dirtyviz":"0.1.0","start":{"Dashboard":{"scenario":{"devices":[{"name":"sda","kind":"Hdd"}]},"compare":null}},"progress":{"lessons":{}}}"#;
    let rec = dir.join("r.jsonl");
    std::fs::write(&rec, format!("{header}\n{{\"Advance\":1000000000}}\n")).expect("write");
    for (option, name, says) in [
        ("--csv", "a.csv,b.csv", "A,B names a file for each side of --compare, and a replay writes side A only"),
        ("--trace", "r-{side}.jsonl", "{side} stands for a side of --compare, and a replay writes side A only"),
    ] {
        let out = dirtyviz().current_dir(&dir).arg("replay").arg(&rec).args([option, name]).output().expect("runs");
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.starts_with(&format!("error: {option} {name}: {says}")), "{stderr}");
        assert!(!dir.join(name).exists());
    }
}

/// The NFS patches a run has on are said beside the mountstats, with the
/// limit they hold writeback to (181 MiB; 128 MiB scaled to (dirty_thresh
/// + 1 MiB)/8, Feng Tang's fix of the patch in the seed), and in the JSON.
#[test]
fn the_report_says_which_nfs_patches_are_on() {
    let dir = scratch("nfs-patches");
    for (flags, line, scaled) in [
        (&[][..], "bdi nfs    NFS no wait queue; nfs_congestion_kb 181.0 MiB", false),
        (&["--nfs-wait-queue"][..], "bdi nfs    NFS wait queue above nfs_congestion_kb 181.0 MiB", false),
        (
            &["--nfs-wait-queue", "--nfs-congestion-scaled"][..],
            "bdi nfs    NFS wait queue above nfs_congestion_kb 128.1 MiB, scaled to (dirty_thresh + 1 MiB)/8",
            true,
        ),
    ] {
        let json_path = dir.join(format!("{}.json", flags.len()));
        let out = dirtyviz()
            .args(["run", "--scenario", "nfs-10dd", "--duration", "2s", "--summary-json"])
            .arg(&json_path)
            .args(flags)
            .output()
            .expect("runs");
        let text = ok(&out);
        assert!(text.lines().any(|l| l == line), "{flags:?}: {text}");
        let nfs = &json(&json_path)["bdis"][0]["nfs"];
        assert_eq!(
            (nfs["wait_queue"].as_bool(), nfs["congestion_scaled"].as_bool()),
            (Some(!flags.is_empty()), Some(scaled))
        );
    }
}

/// A task that starts after the run's end is counted apart: switch-disk's
/// sdb dd starts at 50 s (`2 dd` read as two dd at one rate).
#[test]
fn a_task_not_started_is_said_apart() {
    let out = dirtyviz().args(["run", "--scenario", "switch-disk", "--duration", "40s"]).output().expect("runs");
    let text = ok(&out);
    let line = text.lines().find(|l| l.starts_with("tasks ")).expect("a tasks line");
    assert!(
        line.starts_with("tasks       2 dd (1 not started)  dirty rate (whole run) min 153.580  max 153.580"),
        "{line}"
    );
}

/// switch-disk's sda loses its share once its dd stops: the report's
/// bdi_thresh is, as its other figures, the median of the last 10 s
/// (18.3 MiB, falling to 15.6 at the end), where it printed the mean since 10 s
/// (572.5 MiB); the JSON's `thresh_mb` is that figure, as the summary
/// JSON holds the numbers the report shows (the mean is `thresh_mean_mb`).
#[test]
fn the_reports_bdi_thresh_is_the_recent_share() {
    let dir = scratch("switch-disk");
    let out = dirtyviz()
        .args(["run", "--scenario", "switch-disk", "--summary-json"])
        .arg(dir.join("s.json"))
        .arg("--csv")
        .arg(dir.join("s.csv"))
        .output()
        .expect("runs");
    let report = ok(&out);
    let v = json(&dir.join("s.json"));
    let sda = &v["bdis"][0];
    let recent = num(sda, "thresh_mb");
    assert!((num(sda, "thresh_mean_mb") - 572.5).abs() < 0.5, "the mean after settling: {sda}");
    let end = last_row(&dir.join("s.csv"))["sda.thresh_mb"].parse::<f64>().expect("a number");
    // Still falling: the median is the share 5 s before the end.
    assert!(recent >= end && recent < 20.0, "median {recent} MiB, the CSV ends at {end}");
    let line = report.lines().find(|l| l.starts_with("bdi sda ")).unwrap_or_else(|| panic!("{report}"));
    assert!(line.contains(&format!("  bdi_thresh {recent:.1} MiB (medians of last 10 s)  busy")), "{line}");
    let sdb = num(&v["bdis"][1], "thresh_mb");
    assert!(report.contains(&format!("  bdi_thresh {sdb:.1} MiB (medians of last 10 s)")) && sdb > 1400.0, "{report}");
}

/// `--dd N` gives every bdi N dd: multi.ron aims `Dd(bdi: "*", n: 2)` and
/// then a group of its own at sda and at the key, and `--dd 3` set every
/// group's count, giving sda and the key 6 dd each. Now each bdi's dd are
/// N like the first group aimed at it (here `*`'s); the other kinds stay.
#[test]
fn dd_n_gives_every_bdi_n_dd() {
    let dir = scratch("dd-per-bdi");
    let scenario = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/multi.ron");
    let out = dirtyviz()
        .args(["run", "--dd", "3", "--duration", "5s", "--scenario"])
        .arg(&scenario)
        .arg("--summary-json")
        .arg(dir.join("s.json"))
        .output()
        .expect("runs");
    ok(&out);
    let v = json(&dir.join("s.json"));
    let tasks = v["tasks"].as_array().expect("tasks");
    let bdis: Vec<&str> =
        v["bdis"].as_array().expect("bdis").iter().map(|b| b["name"].as_str().expect("a name")).collect();
    assert_eq!(bdis, ["sda", "sdb", "key", "r0", "jba", "jbb", "jbc", "nfs"]);
    let of = |bdi: &str, kind: &str| tasks.iter().filter(|t| t["bdi"] == bdi && t["kind"] == kind).count();
    for b in &bdis {
        assert_eq!(of(b, "dd"), 3, "{b}: {tasks:?}");
    }
    assert_eq!((of("sdb", "light"), of("r0", "pipeline")), (3, 1));
    assert_eq!(tasks.len(), 3 * bdis.len() + 4);
    // Every one of them writes from the start, as `*`'s: sda's own group
    // started at 10 s, the key's stopped after 5 MiB.
    for t in tasks.iter().filter(|t| t["bdi"] == "sda" || t["bdi"] == "key") {
        assert!(t["dirtied_mb"].as_f64().is_some_and(|mb| mb > 0.0), "{t}");
    }
}

/// A percentile of no pauses is not 0 ms: null in the JSON, as the
/// report's `no task slept` says; and 2.6.38, which estimates no
/// bandwidth, reports no write_bw or avg_write_bw, where 3.2 reports
/// both (the report's avg_write_bw is the second).
#[test]
fn the_summary_json_holds_no_number_nothing_measured() {
    let s = super::common::summary("no-pauses", &["--duration", "500ms"]);
    assert_eq!(s["pauses_ms"]["count"], 0, "{s}");
    for p in ["p50", "p90", "p99", "max"] {
        assert!(s["pauses_ms"][p].is_null() && s["throttled_ms"]["calls"][p].is_null(), "{p}: {s}");
    }
    assert!(s["tasks"][0]["pause_max_ms"].is_null(), "{s}");
    let old = super::common::summary("old-bw", &["--patches", "2.6.38", "--duration", "5s"]);
    let b = &old["bdis"][0];
    assert!(b["write_bw_mbps"].is_null() && b["avg_write_bw_mbps"].is_null() && b["target_ratelimit_mbps"].is_null());
    let new = super::common::summary("new-bw", &["--duration", "20s"]);
    let b = &new["bdis"][0];
    let (bw, avg) =
        (b["write_bw_mbps"].as_f64().expect("a number"), b["avg_write_bw_mbps"].as_f64().expect("a number"));
    assert!(bw != avg && (bw / avg - 1.0).abs() < 0.1, "two estimates of one disk: {bw} {avg}");
}

/// Chart 4 on 2.6.38 draws its tasks' rates alone: the kernel has no
/// write_bw, avg_write_bw or rate target to draw.
#[test]
fn chart_4_draws_no_bandwidth_on_2_6_38() {
    let out = dirtyviz()
        .args(["snapshot", "--patches", "2.6.38", "--at", "10s", "--size", "100x30", "--keys", "4", "--theme", "mono"])
        .output()
        .expect("runs");
    let screen = ok(&out);
    assert!(screen.contains("write_bw, dirty_ratelimit: not used by this kernel"), "{screen}");
    assert!(screen.contains(" dirtied/N─") && !screen.contains("avg_write_bw") && !screen.contains("bw/N"), "{screen}");
}

/// `dirtyviz run -q ARGS` with a trace and a summary JSON in a scratch
/// directory of `name`: their paths.
fn run_traced(name: &str, args: &[&str]) -> (PathBuf, PathBuf) {
    let dir = scratch(name);
    let (trace, summary) = (dir.join("t.jsonl"), dir.join("s.json"));
    let out = dirtyviz()
        .args(["run", "-q"])
        .args(args)
        .arg("--trace")
        .arg(&trace)
        .arg("--summary-json")
        .arg(&summary)
        .output()
        .expect("runs");
    ok(&out);
    (trace, summary)
}

/// The trace says a pause where a call sleeps, and only there: a call
/// that breaks out without sleeping (patch 09's `pause <= 0`) shows the
/// 0 the kernel's tracepoint shows, not the 1 it sets afterwards; at HZ
/// 100 ten dd break out so now and then. Every sleep is in the summary.
#[test]
fn the_traces_pauses_are_the_summarys_sleeps() {
    let (trace, summary) = run_traced("pauses", &["--scenario", "hdd-10dd", "--hz", "100", "--duration", "20s"]);
    let text = String::from_utf8(read(&trace)).expect("UTF-8");
    let events: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    let bdp = events.iter().filter(|e| e["event"] == "balance_dirty_pages");
    let (sleeps, breaks) = bdp.fold((0, 0), |(s, b), e| match e["pause"].as_i64().expect("a pause") {
        0 => (s, b + 1),
        p if p > 0 => (s + 1, b),
        p => panic!("pause {p}"),
    });
    assert!(breaks > 0, "ten dd at HZ 100 break out of some calls");
    assert_eq!(sleeps, json(&summary)["pauses_ms"]["count"].as_u64().expect("a count"));
}

/// A case's name says its world: options that change it are named after
/// it, in the summary and the trace's header alike.
#[test]
fn a_case_changed_by_options_says_so_in_its_name() {
    let case = "thresh=100M/xfs-10dd-4k-8p-4096M-100M:10-X";
    let changes = ["--dirty-ratio", "5", "--memory", "8192M", "--dd", "1", "--duration", "1s"];
    let (trace, summary) = run_traced("case-changed", &[&["--case", case][..], &changes].concat());
    let named = format!("{case} with --dirty-ratio 5 --memory 8G --dd 1");
    assert_eq!(json(&summary)["scenario"], named.as_str());
    let header: Value =
        serde_json::from_slice(read(&trace).split(|&b| b == b'\n').next().expect("a header")).expect("JSON");
    assert_eq!(header["scenario"], named.as_str());
    // Options that leave what the name says alone leave the name.
    let out = dirtyviz()
        .args(["run", "-q", "--case", case, "--seed", "3", "--duration", "1s", "--summary-json"])
        .arg(&summary)
        .output()
        .expect("runs");
    ok(&out);
    assert_eq!(json(&summary)["scenario"], case);
}

/// A case names the seed's box it runs on, in the summary and its JSON;
/// a box the seed has none of is told on stderr, with the boxes there are.
#[test]
fn a_case_names_its_box_or_says_the_seed_has_none() {
    let summary = scratch("case-box").join("s.json");
    let run = |case: &str| {
        let out = dirtyviz()
            .args(["run", "--case", case, "--duration", "1s", "--summary-json"])
            .arg(&summary)
            .output()
            .expect("runs");
        ok(&out);
        (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (text, err) = run("3G/xfs-1dd-4k-8p-4096M-20:10-X");
    assert!(text.starts_with("scenario 3G/xfs-1dd-4k-8p-4096M-20:10-X  machine 8p-4096M  patches"), "{text}");
    assert!(!err.contains("no test box"), "{err}");
    assert_eq!(json(&summary)["machine"], "8p-4096M");
    let (text, err) = run("3G/xfs-1dd-4k-8p-4069M-20:10-X");
    assert!(!text.contains("machine"), "{text}");
    assert!(
        err.contains("no test box 8p-4069M (8p-4096M, 16p-8192M") && err.contains("did you mean `8p-4096M`?"),
        "{err}"
    );
    assert_eq!(json(&summary)["machine"], Value::Null);
}

/// A bdi's `tasks` column counts the tasks that start at a row's instant,
/// at 0.0 as at every later row (the first row was taken before the
/// tasks starting at 0 started: 0 there, though a task starting at 2.0
/// counted at 2.0), and not those that stop at it.
#[test]
fn the_first_rows_tasks_count_those_starting_at_0() {
    let dir = scratch("tasks-at-0");
    let scenario = dir.join("s.ron");
    std::fs::write(
        &scenario,
        "Scenario(duration_s: 10, devices: [(name: \"sda\", kind: Hdd), (name: \"ssd\", kind: Ssd)], \
         tasks: [Dd(bdi: \"sda\", n: 3, bs: \"4k\"), Light(bdi: \"ssd\", burst_kb: 64, period_s: 0.5, start_s: 2, stop_s: 8)])",
    )
    .expect("written");
    let out =
        dirtyviz().arg("run").arg("-q").arg("--scenario").arg(&scenario).arg("--csv").arg(dir.join("s.csv")).output();
    ok(&out.expect("runs"));
    let text = String::from_utf8(read(&dir.join("s.csv"))).expect("UTF-8");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).expect(name);
    let (sda, ssd) = (column("sda.tasks"), column("ssd.tasks"));
    let at = |t: &str| {
        let row: Vec<&str> = text.lines().find(|l| l.starts_with(&format!("{t},"))).expect(t).split(',').collect();
        (row[sda].to_string(), row[ssd].to_string())
    };
    assert_eq!(at("0.0"), ("3".into(), "0".into()));
    assert_eq!(at("1.9"), ("3".into(), "0".into()));
    assert_eq!(at("2.0"), ("3".into(), "1".into()));
    assert_eq!(at("7.9"), ("3".into(), "1".into()));
    assert_eq!(at("8.0"), ("3".into(), "0".into()));
}
