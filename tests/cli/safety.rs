//! Nothing the user owns is lost or corrupted, whatever the input: each
//! hostile case of issue 11, run through the real executable. Every
//! refusal is one line on stderr with exit 2 (or the documented code),
//! comes within seconds, and leaves the user's files byte for byte as they
//! were.

use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::{dirtyviz, wait_until_it_catches_sigint};

/// A fresh scratch directory for one test, with its own data directory.
fn scratch(name: &str) -> PathBuf {
    let dir = crate::common::tmp(&format!("safety-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("data")).expect("scratch dir");
    dir
}

/// `dirtyviz args` in `dir`, with `dir/data` as XDG_DATA_HOME, no
/// terminal, not yet run.
fn command_in(dir: &Path, args: &[&str]) -> Command {
    let mut cmd = dirtyviz();
    cmd.args(args).current_dir(dir).env("XDG_DATA_HOME", dir.join("data")).stdin(Stdio::null());
    cmd
}

/// `dirtyviz args` in `dir` ([`command_in`]); fails the test if it takes
/// 5 s or more.
fn run_in(dir: &Path, args: &[&str]) -> Output {
    let start = Instant::now();
    let out = command_in(dir, args).output().expect("runs");
    assert!(start.elapsed() < Duration::from_secs(5), "{args:?} took {:?}", start.elapsed());
    out
}

/// Asserts exit `code` and one line on stderr holding every one of `expect`.
fn one_line(out: &Output, code: i32, expect: &[&str]) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(code), "stderr: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    for e in expect {
        assert!(err.contains(e), "{err:?} should hold {e:?}");
    }
    assert!(!err.contains("panicked") && !err.contains('\u{1b}'), "{err}");
    err
}

/// The files of `dir`, each with its size and a hash of its bytes.
fn snapshot(dir: &Path) -> Vec<(String, usize, u64)> {
    use std::hash::{Hash, Hasher};
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("dir")
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| {
            let bytes = std::fs::read(e.path()).expect("read");
            let mut h = std::collections::hash_map::DefaultHasher::new();
            bytes.hash(&mut h);
            (e.file_name().to_string_lossy().into_owned(), bytes.len(), h.finish())
        })
        .collect();
    files.sort();
    files
}

#[test]
fn an_output_that_is_an_input_or_another_output_is_refused() {
    let dir = scratch("clobber");
    let preset = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/scenarios/hdd-10dd.ron");
    std::fs::copy(&preset, dir.join("m.ron")).expect("copy");
    std::os::unix::fs::symlink("m.ron", dir.join("soft.ron")).expect("symlink");
    std::fs::hard_link(dir.join("m.ron"), dir.join("hard.ron")).expect("hard link");
    std::fs::write(dir.join("r.jsonl"), "not even a recording\n").expect("write");
    std::fs::write(dir.join("mine.ron"), "Scenario(devices: [(name: \"sda\", kind: Hdd)])").expect("write");
    let before = snapshot(&dir);
    for flag in ["--trace", "--csv", "--summary-json"] {
        for out in ["m.ron", "soft.ron", "hard.ron", "./m.ron"] {
            let o = run_in(&dir, &["run", "--scenario", "m.ron", "--duration", "1s", flag, out]);
            one_line(&o, 2, &[flag, out, "the same file as the scenario m.ron"]);
        }
    }
    let o = run_in(&dir, &["run", "--scenario", "m.ron", "--duration", "1s", "--trace", "a", "--csv", "./a"]);
    one_line(&o, 2, &["--trace a and --csv ./a are the same file"]);
    let o = run_in(&dir, &["replay", "r.jsonl", "--trace", "r.jsonl"]);
    one_line(&o, 2, &["--trace r.jsonl is the same file as the recording r.jsonl"]);
    let o = run_in(&dir, &["--scenario", "mine.ron", "--record", "mine.ron"]);
    one_line(&o, 2, &["--record mine.ron is the same file as the scenario mine.ron"]);
    assert_eq!(snapshot(&dir), before, "every file as it was, no temporary file left");
}

#[test]
fn a_failed_run_leaves_what_was_there() {
    let dir = scratch("failed");
    std::fs::write(dir.join("keep.jsonl"), "the user's own file\n").expect("write");
    std::fs::write(dir.join("old.jsonl"), "{\"dirtyviz\":\"0.1.0\"}\n").expect("write");
    std::fs::write(dir.join("empty.jsonl"), "").expect("write");
    let before = snapshot(&dir);
    // A file that holds something else is not replaced by a recording (a
    // mistyped name lost a file: a session cannot end without replacing
    // it).
    let o = run_in(&dir, &["--record", "keep.jsonl", "--trace", "keep2.jsonl"]);
    one_line(&o, 2, &["keep.jsonl: holds something other than a dirtyviz recording, which --record would replace"]);
    let o = run_in(&dir, &["lesson", "03", "--record", "keep.jsonl"]);
    one_line(&o, 2, &["keep.jsonl: holds something other than a dirtyviz recording"]);
    // A recording, or an empty file, may be replaced; without a terminal
    // the dashboard cannot start, and the recording asked for stays as it
    // was.
    for kept in ["old.jsonl", "empty.jsonl"] {
        let o = run_in(&dir, &["--record", kept, "--trace", "keep2.jsonl"]);
        one_line(&o, 2, &["terminal"]);
        // Nor does it write a terminal's escapes to a standard output it never took.
        assert_eq!(String::from_utf8_lossy(&o.stdout), "", "nothing on stdout");
    }
    // A run that fails to write (a full device) keeps nothing half-written.
    let o = run_in(&dir, &["run", "--duration", "2s", "--trace", "t.jsonl", "--csv", "/dev/full"]);
    one_line(&o, 2, &["/dev/full: cannot write: No space left on device"]);
    // No output creates a directory.
    for flag in ["--trace", "--csv", "--summary-json"] {
        let o = run_in(&dir, &["run", "--duration", "1s", flag, "missing/x"]);
        one_line(&o, 2, &["the directory missing does not exist"]);
    }
    let o = run_in(&dir, &["--record", "missing/x.jsonl"]);
    one_line(&o, 2, &["the directory missing does not exist"]);
    assert!(!dir.join("missing").exists());
    assert_eq!(snapshot(&dir), before);
    assert_eq!(std::fs::read_dir(dir.join("data")).expect("data").count(), 0, "a failed start touches no data");
}

#[test]
fn hostile_files_get_a_one_line_error() {
    let dir = scratch("hostile");
    let fifo = dir.join("fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().expect("mkfifo").success());
    let o = run_in(&dir, &["run", "--scenario", "/dev/zero"]);
    one_line(&o, 2, &["/dev/zero: cannot read scenario: a character device, not a regular file"]);
    let o = run_in(&dir, &["lesson", "/dev/urandom"]);
    one_line(&o, 2, &["/dev/urandom: cannot read lesson: a character device"]);
    let o = run_in(&dir, &["replay", "/dev/zero"]);
    one_line(&o, 2, &["/dev/zero: cannot read recording"]);
    let o = run_in(&dir, &["run", "--scenario", "fifo"]);
    one_line(&o, 2, &["fifo: cannot read scenario: a FIFO, not a regular file"]);
    let o = run_in(&dir, &["check", "fifo"]);
    one_line(&o, 2, &["fifo: cannot read lesson or scenario: a FIFO, not a regular file"]);

    // Too big, without line breaks.
    let big = "Scenario(description: \"".to_string() + &"x".repeat(17 << 20) + "\")";
    std::fs::write(dir.join("big.ron"), big).expect("write");
    let o = run_in(&dir, &["run", "--scenario", "big.ron"]);
    one_line(&o, 2, &["a scenario file may be at most 16 MiB"]);

    // Counts are checked before anything is built.
    let devices: Vec<String> = (0..1000).map(|i| format!("(name: \"d{i}\", kind: Jbod, disks: 26)")).collect();
    let text = format!("Scenario(devices: [{}], tasks: [Dd(bdi: \"*\", n: 10000)])", devices.join(","));
    std::fs::write(dir.join("jbod.ron"), text).expect("write");
    let o = run_in(&dir, &["run", "--scenario", "jbod.ron"]);
    one_line(&o, 2, &["at most 64 bdis, the devices make 26000"]);
    let devices: Vec<String> = (0..100_000).map(|i| format!("(name: \"d{i}\", kind: Hdd)")).collect();
    std::fs::write(dir.join("many.ron"), format!("Scenario(devices: [{}])", devices.join(","))).expect("write");
    let o = run_in(&dir, &["run", "--scenario", "many.ron"]);
    one_line(&o, 2, &["at most 64 bdis, the devices make 100000"]);

    // Values that would run forever.
    std::fs::write(dir.join("long.ron"), "Scenario(\n  duration_s: 1e300,\n  devices: [(name: \"a\", kind: Hdd)],\n)")
        .expect("write");
    let o = run_in(&dir, &["run", "--scenario", "long.ron"]);
    one_line(&o, 2, &["long.ron:2:", "duration_s must be between 0.001 and 1000000 s, got 1e300"]);
    let o = run_in(&dir, &["check", "long.ron"]);
    one_line(&o, 2, &["long.ron:2:", "duration_s must be between 0.001 and 1000000 s, got 1e300"]);
    let lesson = |action: &str| {
        format!(
            "Lesson(id: \"x\", title: \"t\", patch: \"p\", summary: \"s\", scenario: Preset(\"default\"),\n steps: [Step(title: \"a\", text: \"b\", run_s: 1,\n actions: [{action}])])"
        )
    };
    for (action, expect) in [
        ("AddDd(bdi: \"*\", n: 4294967295)", "n must be between 1 and 10000"),
        ("RemoveDd(bdi: \"*\", n: 4294967295)", "n must be between 1 and 10000"),
        ("MemoryMb(0)", "MemoryMb must be between 16 and 4194304 MiB, got 0"),
        ("MemoryMb(18446744073709551615)", "MemoryMb must be between 16"),
        ("DirtyBytesMb(17592186044416)", "DirtyBytesMb must be between 1 and 4194304 MiB"),
    ] {
        std::fs::write(dir.join("l.ron"), lesson(action)).expect("write");
        let o = run_in(&dir, &["check", "l.ron"]);
        one_line(&o, 2, &["l.ron:3:", expect]);
    }
    let header = r#"{"dirtyviz":"0.1.0","start":{"Dashboard":{"scenario":{"devices":[{"name":"sda","kind":"Hdd"}]},"compare":null}},"progress":{"lessons":{}}}"#;
    std::fs::write(dir.join("adv.jsonl"), format!("{header}\n{{\"Advance\":18446744073709551615}}\n")).expect("write");
    let o = run_in(&dir, &["replay", "adv.jsonl"]);
    one_line(&o, 2, &["adv.jsonl:2:12: Advance(18446744073709551615)", "at most 60 s at a time"]);
}

#[test]
fn names_are_data_not_markup() {
    let dir = scratch("names");
    let scenario = r#"Scenario(name: "odd", devices: [(name: "sd\"a,b\\", kind: Hdd), (name: "sdb", kind: Ssd)], tasks: [Dd(n: 2)])"#;
    std::fs::write(dir.join("odd.ron"), scenario).expect("write");
    let o = run_in(&dir, &["run", "--scenario", "odd.ron", "--duration", "2s", "--trace", "t.jsonl", "--csv", "t.csv"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let trace = std::fs::read_to_string(dir.join("t.jsonl")).expect("trace");
    let mut named = 0;
    for line in trace.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        named += usize::from(v["bdi"] == "sd\"a,b\\");
    }
    assert!(named > 100, "{named} events on the oddly named bdi");
    let mut csv = csv::Reader::from_path(dir.join("t.csv")).expect("CSV");
    let header = csv.headers().expect("header").clone();
    assert_eq!(header.len(), 11 + 2 * 13);
    assert_eq!(&header[11], "sd\"a,b\\.dirty_mb");
    let mut rows = 0;
    for row in csv.records() {
        assert_eq!(row.expect("row").len(), header.len());
        rows += 1;
    }
    assert_eq!(rows, 21, "a row every 100 ms from 0 to 2 s");

    std::fs::write(
        dir.join("esc.ron"),
        "Scenario(name: \"x\\u{1b}]0;owned\\u{7}\", devices: [(name: \"a\", kind: Hdd)])",
    )
    .expect("write");
    let o = run_in(&dir, &["run", "--scenario", "esc.ron"]);
    one_line(&o, 2, &["esc.ron:1:", "control character"]);
    let o = run_in(&dir, &["run", "--scenario", "nope\u{1b}[2J"]);
    one_line(&o, 2, &["unknown scenario `nope\\u{1b}[2J`"]);
}

#[test]
fn no_silent_nonsense() {
    let dir = scratch("nonsense");
    let o = run_in(&dir, &["run", "--duration", "0.0000000001s"]);
    one_line(&o, 2, &["--duration must be at least one jiffy (1 ms at HZ 1000)"]);
    let o = run_in(&dir, &["run", "--hz", "100", "--duration", "5ms"]);
    one_line(&o, 2, &["at least one jiffy (10 ms at HZ 100)"]);
    let o = run_in(&dir, &["run", "--duration", "1ms", "--summary-json", "s.json"]);
    assert!(o.status.success());
    let report = String::from_utf8_lossy(&o.stdout);
    assert!(!report.contains("NaN") && !report.contains("inf") && !report.contains("-36028797018963968"), "{report}");
    assert!(report.contains("mean – MiB"), "{report}");
    let s: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("s.json")).expect("summary")).expect("JSON");
    assert!(s["global"]["dirty_mean_mb"].is_null(), "not measurable is null");
    assert_eq!(s["kernel"], "3.1 + v12");
    for bad in ["NaN", "-1", "inf"] {
        let o = run_in(&dir, &["cases", "--max-error", bad]);
        one_line(&o, 2, &["must be a finite number of 0 or more"]);
    }
    std::fs::write(dir.join("bom.ron"), "\u{feff}Scenario(devices: [(name: \"a\", kind: Hdd)])").expect("write");
    let o = run_in(&dir, &["run", "--scenario", "bom.ron", "--duration", "1s"]);
    assert!(o.status.success(), "a byte-order mark is skipped: {}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn the_kernel_is_named_by_patch_level() {
    let dir = scratch("kernel");
    for (level, kernel) in
        [("11", "3.1 + v12"), ("7", "3.1 + patches 01-07 of v12"), ("legacy", "3.1"), ("2.6.38", "2.6.38")]
    {
        let o = run_in(
            &dir,
            &["run", "--duration", "1s", "--patches", level, "--summary-json", "s.json", "--trace", "t.jsonl"],
        );
        assert!(o.status.success());
        assert!(String::from_utf8_lossy(&o.stdout).contains(&format!("(Linux {kernel})")));
        let s: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.join("s.json")).expect("summary")).expect("JSON");
        assert_eq!(s["kernel"], kernel);
        let trace = std::fs::read_to_string(dir.join("t.jsonl")).expect("trace");
        let header: serde_json::Value = serde_json::from_str(trace.lines().next().expect("header")).expect("JSON");
        assert_eq!(header["kernel"], kernel);
    }
}

#[test]
fn a_capped_trace_ends_cleanly() {
    let dir = scratch("capped");
    let o = run_in(
        &dir,
        &[
            "run",
            "--scenario",
            "hdd-100dd",
            "--duration",
            "3s",
            "--trace",
            "t.jsonl",
            "--max-trace-size",
            "64k",
            "--summary-json",
            "s.json",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("stopped at"), "the summary says so");
    let trace = std::fs::read_to_string(dir.join("t.jsonl")).expect("trace");
    assert!(trace.len() <= 64 << 10 && trace.len() > 60 << 10, "{} bytes", trace.len());
    let last: serde_json::Value = serde_json::from_str(trace.lines().last().expect("lines")).expect("JSON");
    assert_eq!(last["event"], "trace_stopped");
    assert!(trace.lines().all(|l| serde_json::from_str::<serde_json::Value>(l).is_ok()));
    let s: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("s.json")).expect("summary")).expect("JSON");
    assert!(s["trace_stopped_s"].as_f64().expect("when") < 3.0);
}

/// A run whose trace would pass 1 GiB says so on stderr first; Ctrl-C
/// then stops it, keeping the file that was there and leaving no
/// temporary file.
#[test]
fn a_huge_trace_is_announced_and_ctrl_c_keeps_what_was_there() {
    use std::io::BufRead;
    let dir = scratch("huge");
    std::fs::write(dir.join("t.jsonl"), "the previous trace\n").expect("write");
    let mut child = dirtyviz()
        .args(["run", "-q", "--scenario", "hdd-10dd", "--duration", "1000000s", "--trace", "t.jsonl"])
        .current_dir(&dir)
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let mut stderr = std::io::BufReader::new(child.stderr.take().expect("stderr"));
    let mut note = String::new();
    stderr.read_line(&mut note).expect("a line");
    assert!(note.starts_with("note: the trace t.jsonl will be about") && note.contains("GiB"), "{note}");
    let pid = child.id().to_string();
    assert!(Command::new("kill").args(["-INT", &pid]).status().expect("kill").success());
    let status = child.wait().expect("ends");
    let mut rest = String::new();
    stderr.read_line(&mut rest).expect("a line");
    assert_eq!(status.code(), Some(130), "{rest}");
    assert!(rest.contains("interrupted"), "{rest}");
    assert_eq!(std::fs::read_to_string(dir.join("t.jsonl")).expect("kept"), "the previous trace\n");
    assert_eq!(snapshot(&dir).len(), 1, "no temporary file left: {:?}", snapshot(&dir));
}

/// Two signals at once (`timeout` sends one to dirtyviz and one to its
/// process group; a second Ctrl-C) stop the run as one does: the
/// temporary files go, the files that were there stay.
#[test]
fn two_signals_at_once_stop_the_run_as_one_does() {
    let dir = scratch("two-signals");
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGQUIT] {
        std::fs::write(dir.join("o.csv"), "the previous rows\n").expect("write");
        let child = dirtyviz()
            .args(["run", "-q", "--scenario", "hdd-10dd", "--duration", "1000000s", "--csv", "o.csv"])
            .args(["--trace", "o.jsonl"])
            .current_dir(&dir)
            .stderr(Stdio::piped())
            .spawn()
            .expect("runs");
        wait_until_it_catches_sigint(child.id());
        std::thread::sleep(Duration::from_millis(200));
        // The second once the first is handled, while the run stops.
        for pause_us in [0, 500] {
            std::thread::sleep(Duration::from_micros(pause_us));
            // SAFETY: kill() on the child's pid.
            assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, signal) }, 0);
        }
        let o = child.wait_with_output().expect("ends");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("error: interrupted: no output file was saved"), "{signal}: {err}");
        assert_eq!(std::fs::read_to_string(dir.join("o.csv")).expect("kept"), "the previous rows\n");
        assert_eq!(snapshot(&dir).len(), 1, "{signal}: no temporary file left: {:?}", snapshot(&dir));
    }
}

#[test]
fn out_of_memory_is_a_one_line_error() {
    let dir = scratch("oom");
    // A task costs about 1 KiB, so the 20 000 of the largest world allowed
    // need about 20 MiB more than one dd: 30 MB of address space holds one
    // dd but not them.
    let world = |name: &str, disks: u32, n: u32| {
        let text = format!(
            "Scenario(memory_mb: 16384, cpus: 24, devices: [(name: \"sd\", kind: Jbod, disks: {disks})], tasks: [Dd(n: {n})])"
        );
        std::fs::write(dir.join(name), text).expect("write");
    };
    world("small.ron", 1, 1);
    world("big.ron", 20, 1000);
    let bin = env!("CARGO_BIN_EXE_dirtyviz");
    let run = |file: &str| {
        Command::new("sh")
            .args(["-c", &format!("ulimit -v 30000; exec {bin} run -q --scenario {file} --duration 10s")])
            .current_dir(&dir)
            .output()
            .expect("runs")
    };
    let small = run("small.ron");
    assert!(small.status.success(), "one dd fits: {}", String::from_utf8_lossy(&small.stderr));
    one_line(&run("big.ron"), 2, &["not enough memory"]);
}

/// Progress in lessons 00-02 and 05, as a student left it.
const PROGRESS: &str = "(lessons: {\n  \"00\": (step: 3, steps: 4, done: true),\n  \"01\": (step: 4, steps: 5, done: true),\n  \"02\": (step: 1, steps: 4, done: false),\n  \"05\": (step: 2, steps: 4, done: false),\n})\n";

#[test]
fn unreadable_progress_is_set_aside_and_told_once() {
    let dir = scratch("progress-bad");
    let data = dir.join("data/dirtyviz");
    std::fs::create_dir_all(&data).expect("data dir");
    let broken = [PROGRESS.as_bytes()[..PROGRESS.len() - 3].to_vec(), vec![0xff, 0xfe, 0, 1, 2]];
    for bad in broken {
        let _ = std::fs::remove_dir_all(&data);
        std::fs::create_dir_all(&data).expect("data dir");
        std::fs::write(data.join("progress.ron"), &bad).expect("write");
        let o = run_in(&dir, &["lessons"]);
        assert!(o.status.success());
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.starts_with("warning: progress unreadable") && err.contains("progress.ron.bad-"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        let aside: Vec<PathBuf> = std::fs::read_dir(&data)
            .expect("dir")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.to_string_lossy().contains("progress.ron.bad-"))
            .collect();
        assert_eq!(aside.len(), 1);
        assert_eq!(std::fs::read(&aside[0]).expect("kept"), bad, "the set-aside copy is the file as it was");
        let o = run_in(&dir, &["lessons"]);
        assert!(o.stderr.is_empty(), "told once: {}", String::from_utf8_lossy(&o.stderr));
    }
    // A directory in the way: told, and left alone.
    let _ = std::fs::remove_dir_all(&data);
    std::fs::create_dir_all(data.join("progress.ron")).expect("a directory");
    let o = run_in(&dir, &["lessons"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("progress.ron: cannot read: is a directory"));
    assert!(data.join("progress.ron").is_dir());
}

/// Fourteen lessons opened at once, each in its terminal (each saves its
/// step as it opens): every one is kept, and so is what was there before.
#[test]
fn lessons_opened_at_once_keep_each_others_progress() {
    let dir = scratch("progress-race");
    let data = dir.join("data/dirtyviz");
    std::fs::create_dir_all(&data).expect("data dir");
    std::fs::write(data.join("progress.ron"), PROGRESS).expect("write");
    let children: Vec<_> =
        (3..=16).map(|id| dashboard_in_a_terminal(&dir, &format!("lesson {id:02} --no-record"), "")).collect();
    for mut c in children {
        assert!(c.wait().expect("ends").success(), "quit with q");
    }
    let o = run_in(&dir, &["lessons"]);
    let list = String::from_utf8_lossy(&o.stdout);
    for line in list.lines() {
        let id = &line[..2];
        let expect = match id {
            "00" | "01" => "done",
            "02" => "step 2/4",
            "05" => "step 3/",
            _ => "step 1/",
        };
        assert!(line.contains(expect), "lesson {id}: {line}");
    }
}

/// An existing output file the user may not write is refused before any
/// work, as a shell's `>` refuses it, and left as it was (renaming over it
/// needs only its directory). Root may write any file, so as root the
/// refusal is checked as the unprivileged user `nobody` (through
/// `setpriv`), on root's file in a directory anyone may write; where
/// `setpriv` cannot, root replacing the file is checked, as root may.
#[test]
fn a_write_protected_output_is_refused_and_left_as_it_was() {
    use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
    let dir = scratch("protected");
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).expect("chmod dir");
    let prot = dir.join("prot.csv");
    let trace = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/ktrace/linux-6.18-4dd-dirty_bytes-400M.txt");
    let commands: [&[&str]; 5] = [
        &["run", "--duration", "1s", "-q", "--csv", "prot.csv"],
        &["run", "--duration", "1s", "-q", "--summary-json", "prot.csv"],
        &["run", "--duration", "1s", "-q", "--trace", "prot.csv"],
        &["snapshot", "--at", "1s", "-o", "prot.csv"],
        &["view", trace, "--csv", "prot.csv"],
    ];
    // SAFETY: no arguments, no memory.
    let root = unsafe { libc::geteuid() } == 0;
    // setpriv can become nobody (it may be missing, or not allowed to).
    let setpriv = Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "true"])
        .output()
        .is_ok_and(|o| o.status.success());
    for args in commands {
        std::fs::write(&prot, "keep\n").expect("write");
        std::fs::set_permissions(&prot, std::fs::Permissions::from_mode(0o444)).expect("chmod");
        let owner = std::fs::metadata(&prot).expect("meta").uid();
        let mut cmd = if root && setpriv {
            let mut c = Command::new("setpriv");
            c.args(["--reuid=65534", "--regid=65534", "--clear-groups", env!("CARGO_BIN_EXE_dirtyviz")]);
            c
        } else {
            dirtyviz()
        };
        let out = cmd.args(args).current_dir(&dir).env("XDG_DATA_HOME", dir.join("data")).output().expect("runs");
        let meta = std::fs::metadata(&prot).expect("still there");
        if root && !setpriv {
            assert!(out.status.success(), "{args:?}: root may write it: {}", String::from_utf8_lossy(&out.stderr));
            assert_ne!(std::fs::read_to_string(&prot).expect("read"), "keep\n", "{args:?}");
        } else {
            let err = one_line(&out, 2, &[]);
            assert_eq!(err.trim_end(), "error: prot.csv: cannot write: Permission denied", "{args:?}");
            assert_eq!(std::fs::read_to_string(&prot).expect("read"), "keep\n", "{args:?}: left as it was");
            assert_eq!(meta.uid(), owner, "{args:?}: same owner");
        }
        assert_eq!(meta.permissions().mode() & 0o7777, 0o444, "{args:?}: same mode");
        let left: Vec<_> = std::fs::read_dir(&dir).expect("dir").map(|e| e.expect("entry").file_name()).collect();
        assert!(left.iter().all(|n| !n.to_string_lossy().ends_with(".tmp")), "{args:?}: {left:?}");
        let _ = std::fs::remove_file(&prot);
    }
}

/// Without a terminal no session starts, and nothing is written for one:
/// the progress is neither saved nor set aside, no recording, no trace.
/// It is an I/O error: exit 2.
#[test]
fn a_session_without_a_terminal_writes_nothing() {
    let dir = scratch("no-terminal");
    let sessions: [&[&str]; 5] =
        [&["lesson"], &["lesson", "07"], &[], &["--trace", "t.jsonl"], &["lesson", "03", "--record", "r.jsonl"]];
    let files = |dir: &Path| -> Vec<String> {
        let mut all = Vec::new();
        let mut walk = vec![dir.to_path_buf()];
        while let Some(d) = walk.pop() {
            for e in std::fs::read_dir(&d).expect("dir") {
                let p = e.expect("entry").path();
                if p.is_dir() {
                    walk.push(p.clone());
                }
                all.push(p.strip_prefix(dir).expect("under").display().to_string());
            }
        }
        all.sort();
        all
    };
    let progress = dir.join("data/dirtyviz/progress.ron");
    for unreadable in [false, true] {
        if unreadable {
            std::fs::create_dir_all(progress.parent().expect("dir")).expect("data dir");
            std::fs::write(&progress, "not RON (").expect("write");
        }
        let before = files(&dir);
        for args in sessions {
            let out = command_in(&dir, args).stdout(Stdio::null()).stderr(Stdio::piped()).output().expect("runs");
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
            assert!(err.starts_with("error: terminal: standard output is not a terminal: "), "{args:?}: {err}");
            assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
            assert_eq!(files(&dir), before, "{args:?} wrote nothing");
        }
        if unreadable {
            assert_eq!(std::fs::read_to_string(&progress).expect("kept"), "not RON (", "left where it was");
        }
    }
}

/// A dashboard in a pseudo-terminal (`script`), fed `keys` slowly, then `q`.
fn dashboard_in_a_terminal(dir: &Path, args: &str, keys: &str) -> std::process::Child {
    use std::io::Write;
    let bin = env!("CARGO_BIN_EXE_dirtyviz");
    let mut child = Command::new("script")
        .args(["-qec", &format!("{bin} {args}"), "/dev/null"])
        .current_dir(dir)
        .env("XDG_DATA_HOME", dir.join("data"))
        .env("TERM", "xterm-256color")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("`script` (util-linux) runs the dashboard in a pseudo-terminal");
    let mut stdin = child.stdin.take().expect("stdin");
    let keys = keys.to_string();
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(800));
        for k in keys.chars().chain(std::iter::once('q')) {
            let _ = stdin.write_all(k.to_string().as_bytes());
            let _ = stdin.flush();
            std::thread::sleep(Duration::from_millis(300));
        }
    });
    child
}

/// Two dashboards at once each record their own session; last-session.jsonl
/// is one of them whole; each replays to the trace it wrote live.
#[test]
fn two_dashboards_at_once_keep_both_recordings() {
    let dir = scratch("sessions");
    let a = dashboard_in_a_terminal(&dir, "--scenario hdd-10dd --trace live-a.jsonl", "++]");
    let b = dashboard_in_a_terminal(&dir, "--scenario ssd-10dd --trace live-b.jsonl", "-D]]");
    for mut c in [a, b] {
        assert!(c.wait().expect("ends").success());
    }
    let sessions = dir.join("data/dirtyviz/sessions");
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(&sessions).expect("sessions").map(|e| e.expect("e").path()).collect();
    files.sort();
    assert_eq!(files.len(), 2, "{files:?}");
    let last = std::fs::read(dir.join("data/dirtyviz/last-session.jsonl")).expect("last session");
    assert!(files.iter().any(|f| std::fs::read(f).expect("session") == last), "last-session.jsonl is a whole session");
    let mut live: Vec<Vec<u8>> =
        ["live-a.jsonl", "live-b.jsonl"].iter().map(|f| std::fs::read(dir.join(f)).expect("live trace")).collect();
    let mut replayed = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let out = dir.join(format!("replayed-{i}.jsonl"));
        let o = run_in(&dir, &["replay", &f.to_string_lossy(), "--trace", &out.to_string_lossy()]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        replayed.push(std::fs::read(&out).expect("replayed trace"));
    }
    live.sort();
    replayed.sort();
    assert!(live == replayed, "each session replays to its own live trace, byte for byte");
}

#[test]
fn a_session_that_fails_to_start_touches_no_recording() {
    let dir = scratch("failed-start");
    let data = dir.join("data/dirtyviz");
    std::fs::create_dir_all(&data).expect("data dir");
    std::fs::write(data.join("last-session.jsonl"), "{\"dirtyviz\": \"the last class\"}\n").expect("write");
    let o = run_in(&dir, &[]);
    one_line(&o, 2, &["terminal"]);
    assert_eq!(
        std::fs::read_to_string(data.join("last-session.jsonl")).expect("kept"),
        "{\"dirtyviz\": \"the last class\"}\n"
    );
    assert!(!data.join("sessions").exists());
    let o = run_in(&dir, &["--trace", "/dev/null", "--record", "data/dirtyviz/last-session.jsonl"]);
    one_line(&o, 2, &["terminal"]);
    assert_eq!(
        std::fs::read_to_string(data.join("last-session.jsonl")).expect("kept"),
        "{\"dirtyviz\": \"the last class\"}\n"
    );
    let o = run_in(&dir, &["--trace", "data/dirtyviz/last-session.jsonl"]);
    one_line(&o, 2, &["is the same file as the last session's recording"]);
}

#[test]
fn a_dashboard_trace_that_cannot_be_written_is_a_trace_error() {
    let dir = scratch("dashboard-full");
    let mut c = dashboard_in_a_terminal(&dir, "--trace /dev/full", "]]");
    assert_eq!(c.wait().expect("ends").code(), Some(2));
}

/// `view` and `live` write their outputs as `run` does: never over their
/// input, one file per output, through a temporary file (a symbolic link
/// is followed and kept, a FIFO written into), all of them or none, and
/// a missing directory refused before anything is read.
#[test]
fn kernel_trace_outputs_are_as_safe_as_runs() {
    let dir = scratch("ktrace-outputs");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ktrace/linux-6.1-with-noise.txt");
    std::fs::copy(&fixture, dir.join("k.txt")).expect("copy");
    std::os::unix::fs::symlink("k.txt", dir.join("soft.txt")).expect("symlink");
    std::fs::write(dir.join("s.json"), "the user's summary\n").expect("write");
    let before = snapshot(&dir);
    for flag in ["--csv", "--summary-json"] {
        for out in ["k.txt", "./k.txt", "soft.txt"] {
            let o = run_in(&dir, &["view", "k.txt", flag, out]);
            one_line(&o, 2, &[flag, out, "is the same file as the trace k.txt"]);
        }
    }
    // The trace on standard input, redirected from the output.
    for flag in ["--csv", "--summary-json"] {
        let o = Command::new(env!("CARGO_BIN_EXE_dirtyviz"))
            .current_dir(&dir)
            .env("XDG_DATA_HOME", dir.join("data"))
            .args(["view", "-", flag, "k.txt"])
            .stdin(std::fs::File::open(dir.join("k.txt")).expect("open"))
            .output()
            .expect("runs");
        one_line(&o, 2, &[flag, "k.txt is the same file as the trace on standard input"]);
    }
    let o = run_in(&dir, &["view", "k.txt", "--csv", "s.json", "--summary-json", "./s.json"]);
    one_line(&o, 2, &["--csv s.json and --summary-json ./s.json are the same file"]);
    let o = run_in(&dir, &["view", "k.txt", "--summary-json", "s.json", "--csv", "/dev/full"]);
    one_line(&o, 2, &["/dev/full: cannot write: No space left on device"]);
    let o = run_in(&dir, &["view", "k.txt", "--csv", "missing/x.csv"]);
    one_line(&o, 2, &["missing/x.csv: the directory missing does not exist"]);
    let o = run_in(&dir, &["live", "--tracefs", "no-tracefs", "--save", "missing/x.txt"]);
    one_line(&o, 2, &["missing/x.txt: the directory missing does not exist"]);
    let o = run_in(&dir, &["live", "--tracefs", "no-tracefs", "--save", "s.json", "--summary-json", "s.json"]);
    one_line(&o, 2, &["--save s.json and --summary-json s.json are the same file"]);
    assert_eq!(snapshot(&dir), before, "every file as it was, no temporary file left");

    std::os::unix::fs::symlink("real.json", dir.join("link.json")).expect("symlink");
    let o = run_in(&dir, &["view", "-q", "k.txt", "--summary-json", "link.json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(std::fs::symlink_metadata(dir.join("link.json")).expect("link").file_type().is_symlink());
    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("real.json")).expect("written through the link")).expect("JSON");
    assert_eq!(summary["source"], "k.txt");
}

/// A lesson or scenario saved with Windows line ends (CRLF) reads as the
/// same file with Unix ones: its paragraphs hold no carriage return.
#[test]
fn crlf_files_read_as_their_lf_twins() {
    let dir = scratch("crlf");
    let lesson = "// A lesson saved on Windows.\nLesson(id: \"x\", title: \"t\", patch: \"p\", summary: \"s\",\n    scenario: Inline(Scenario(description: \"one\n    two\", devices: [(name: \"sda\", kind: Hdd)], tasks: [Dd(n: 1)])),\n    steps: [Step(title: \"a\", text: \"First paragraph.\n\n    Second.\", run_s: 1,\n        checks: [Check(label: \"some dirty\", metric: DirtyMb, window_s: 1, min: 1)])])\n";
    std::fs::write(dir.join("lf.ron"), lesson).expect("write");
    std::fs::write(dir.join("crlf.ron"), lesson.replace('\n', "\r\n")).expect("write");
    let lf = run_in(&dir, &["check", "lf.ron"]);
    let crlf = run_in(&dir, &["check", "crlf.ron"]);
    assert!(lf.status.success(), "{}", String::from_utf8_lossy(&lf.stderr));
    assert!(crlf.status.success(), "{}", String::from_utf8_lossy(&crlf.stderr));
    assert_eq!(
        String::from_utf8_lossy(&crlf.stdout).replace("crlf.ron", "lf.ron"),
        String::from_utf8_lossy(&lf.stdout)
    );
    // An error in a CRLF file is at the same line and column.
    let bad = lesson.replace("run_s: 1", "run_s: 0");
    std::fs::write(dir.join("bad.ron"), bad.replace('\n', "\r\n")).expect("write");
    let o = run_in(&dir, &["check", "bad.ron"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).starts_with("error: bad.ron:7:22: step 1: run_s must be between"),
        "{o:?}"
    );
}

/// An output named with a trailing slash names a directory: refused
/// before the run, not after it when the file cannot take its place.
#[test]
fn an_output_ending_in_a_slash_is_refused_before_the_run() {
    let dir = scratch("slash");
    std::fs::write(dir.join("keep.csv"), "the user's own file\n").expect("write");
    let before = snapshot(&dir);
    for (flag, out) in [("--csv", "keep.csv/"), ("--trace", "new/"), ("--summary-json", "keep.csv//")] {
        let o = run_in(&dir, &["run", "--duration", "1s", flag, out]);
        one_line(&o, 2, &[&format!("{out}: ends in /, so it names a directory, not a file to write")]);
    }
    let o = run_in(&dir, &["snapshot", "--at", "1s", "-o", "new/"]);
    one_line(&o, 2, &["new/: ends in /"]);
    let o = run_in(&dir, &["view", "--example", "--csv", "keep.csv/"]);
    one_line(&o, 2, &["keep.csv/: ends in /"]);
    assert_eq!(snapshot(&dir), before);
    assert!(!dir.join("new").exists());
}

/// `-` is standard output where a command writes there already
/// (`snapshot -o -`); elsewhere it is refused, not made a file called `-`.
#[test]
fn a_dash_is_standard_output_or_refused() {
    let dir = scratch("dash");
    let o = run_in(&dir, &["snapshot", "--at", "1s", "--size", "80x24", "-o", "-"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let plain = run_in(&dir, &["snapshot", "--at", "1s", "--size", "80x24"]);
    assert_eq!(o.stdout, plain.stdout);
    for (args, flag) in [
        (&["run", "--duration", "1s", "--csv", "-"][..], "--csv"),
        (&["run", "--duration", "1s", "--summary-json", "-"], "--summary-json"),
        (&["view", "--example", "--summary-json", "-"], "--summary-json"),
        (&["--record", "-"], "--record"),
    ] {
        let o = run_in(&dir, args);
        one_line(
            &o,
            2,
            &[&format!("{flag} -: standard output is not an output here; name a file (./- for one called -)")],
        );
    }
    assert_eq!(std::fs::read_dir(&dir).expect("dir").count(), 1, "only the data directory");
}

/// `--csv /dev/stdout` into a pipe writes the CSV down the pipe: the
/// kernel's link to the pipe names no file, and the output is written
/// directly as to any device, not refused with "the directory
/// /proc/self/fd does not exist".
#[test]
fn an_output_to_dev_stdout_goes_down_the_pipe() {
    let out = dirtyviz()
        .args(["run", "-q", "--duration", "1s", "--csv", "/dev/stdout"])
        .stdout(Stdio::piped())
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(text.starts_with("time_s,dirty_mb,"), "{text}");
    assert_eq!(text.lines().count(), 12, "a header and rows at 0.0 .. 1.0 s: {text}");
}

/// `--csv /dev/stdout >> log` appends to the log through the descriptor
/// the shell opened, the summary after it: the log was replaced by a new
/// file, its earlier lines lost and the summary written to the old one.
/// The same through `/dev/fd/1` and `/proc/self/fd/1`.
#[test]
fn an_output_to_dev_stdout_appended_to_a_file_keeps_the_file() {
    let dir = scratch("stdout-append");
    for name in ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"] {
        let log = dir.join("log.txt");
        std::fs::write(&log, "the user's first line\n").expect("written");
        let file = std::fs::OpenOptions::new().append(true).open(&log).expect("opened");
        let out = command_in(&dir, &["run", "--duration", "1s", "--csv", name])
            .stdout(Stdio::from(file))
            .output()
            .expect("runs");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = std::fs::read_to_string(&log).expect("read");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "the user's first line", "{name}: {text}");
        assert!(lines[1].starts_with("time_s,dirty_mb,"), "{name}: {text}");
        assert!(lines[13..].iter().any(|l| l.starts_with("scenario")), "{name}: the summary follows: {text}");
        let names: Vec<_> = std::fs::read_dir(&dir).expect("dir").map(|e| e.expect("entry").file_name()).collect();
        assert_eq!(names.len(), 2, "{name}: the log and the data directory only: {names:?}");
    }
}

/// A run into `/dev/stdout >> log` that a signal stops leaves the log as
/// it was: the output is kept aside and written through the descriptor
/// only once complete (the rows written so far went into the log, where
/// the message said no output was saved).
#[test]
fn an_interrupted_run_adds_nothing_through_a_descriptor() {
    let dir = scratch("stdout-interrupted");
    let log = dir.join("log.txt");
    std::fs::write(&log, "the user's first line\n").expect("written");
    let file = std::fs::OpenOptions::new().append(true).open(&log).expect("opened");
    let child =
        command_in(&dir, &["run", "-q", "--scenario", "hdd-1000dd", "--duration", "600s", "--csv", "/dev/stdout"])
            .stdout(Stdio::from(file))
            .stderr(Stdio::piped())
            .spawn()
            .expect("runs");
    wait_until_it_catches_sigint(child.id());
    std::thread::sleep(Duration::from_millis(500));
    assert!(Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill").success());
    let out = child.wait_with_output().expect("ends");
    assert_eq!(out.status.code(), Some(130), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read_to_string(&log).expect("read"), "the user's first line\n");
    assert_eq!(snapshot(&dir).len(), 1, "nothing left beside it: {:?}", snapshot(&dir));
    // Given for reading, it is refused before the run.
    let o = command_in(&dir, &["run", "--duration", "1s", "--csv", "/dev/stdin"])
        .stdin(Stdio::from(std::fs::File::open(&log).expect("opened")))
        .output()
        .expect("runs");
    one_line(&o, 2, &["/dev/stdin: descriptor 0 is open for reading only"]);
    assert_eq!(std::fs::read_to_string(&log).expect("read"), "the user's first line\n");
}

/// A name longer than the file system takes (a name of 256 bytes, a
/// path past 4095) is refused before the run, not when its output is
/// renamed into place after it.
#[test]
fn a_name_too_long_is_refused_before_the_run() {
    let dir = scratch("too-long");
    let long = "a".repeat(256);
    // Past 4095 bytes, though every directory it names is there.
    let deep = format!("{}x.csv", "./".repeat(2100));
    for name in [long.as_str(), deep.as_str()] {
        let o = run_in(&dir, &["run", "--scenario", "hdd-1000dd", "--duration", "1000s", "-q", "--csv", name]);
        one_line(&o, 2, &["the name is too long for the file system (at most 255 bytes a name, 4095 a path)"]);
    }
}

/// A pipe whose reader went away (`--csv /dev/stdout | head -1`) stops
/// the command at once and quietly, as `head` asks: exit 0, no "Broken
/// pipe", and a file output beside it keeps what it held (the run did
/// not end). It ran on: hdd-1000dd for 100 000 s would have taken hours.
#[test]
fn an_output_pipe_whose_reader_left_stops_the_run_quietly() {
    let dir = scratch("reader-left");
    std::fs::write(dir.join("other"), "kept\n").expect("written");
    for output in ["--csv", "--trace", "--summary-json"] {
        let (reader, writer) = std::io::pipe().expect("pipe");
        drop(reader);
        let other = if output == "--csv" { "--trace" } else { "--csv" };
        // The summary is written at the end: that run is short.
        let long = if output == "--summary-json" { "2s" } else { "100000s" };
        let args = ["run", "-q", "--scenario", "hdd-1000dd", "--duration", long, output, "/dev/stdout", other, "other"];
        let started = Instant::now();
        let out = command_in(&dir, &args).stdout(writer).stderr(Stdio::piped()).output().expect("runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!((out.status.code(), err.as_ref()), (Some(0), ""), "{output}");
        assert!(started.elapsed() < Duration::from_secs(20), "{output}: stopped at once");
        assert_eq!(std::fs::read_to_string(dir.join("other")).expect("there"), "kept\n", "{output}");
    }
}

/// A FIFO with no writer (an input) or no reader (an output) keeps open()
/// waiting for its other end, and a writer that writes nothing keeps a
/// read waiting: Ctrl-C or SIGTERM stops that wait as it stops `cat
/// FIFO`, with the exit code and the one line of every interrupted
/// command, and nothing written.
#[test]
fn a_signal_stops_the_wait_for_a_fifos_other_end() {
    let dir = scratch("fifo-wait");
    let fifo = dir.join("f");
    crate::common::mkfifo(&fifo);
    std::fs::create_dir(dir.join("tracefs")).expect("a directory");
    let cases: [(&[&str], libc::c_int); 6] = [
        (&["view", "f", "--csv", "vf.csv", "-q"], libc::SIGINT),
        (&["view", "f", "-q"], libc::SIGTERM),
        (&["plot", "f", "-o", "figures"], libc::SIGINT),
        (&["run", "--duration", "1s", "--csv", "f", "-q"], libc::SIGTERM),
        (&["live", "--tracefs", "tracefs", "--duration", "1s", "--save", "f"], libc::SIGINT),
        (&["view", "f", "-q"], libc::SIGINT),
    ];
    for (i, (args, signal)) in cases.into_iter().enumerate() {
        let mut child = command_in(&dir, args).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().expect("runs");
        // The last: a writer there, silent, so open() returns and the
        // read waits.
        let writer = (i == 5).then(|| std::fs::OpenOptions::new().write(true).open(&fifo).expect("a writer"));
        wait_until_it_catches_sigint(child.id());
        std::thread::sleep(Duration::from_millis(300));
        let status = crate::common::signalled(&mut child, signal, &format!("{args:?}"));
        drop(writer);
        let o = child.wait_with_output().expect("ends");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(status.code(), Some(128 + signal), "{args:?}: {err}");
        assert_eq!(err.trim_end(), "error: interrupted: no output file was saved, existing files are as they were");
        assert!(!dir.join("vf.csv").exists() && !dir.join("figures").exists(), "{args:?}: nothing written");
    }
}

/// An output FIFO whose reader stopped reading keeps a write waiting:
/// one Ctrl-C or SIGTERM stops it (it took a second, the first one's
/// interrupted write being tried again), with the interrupted command's
/// exit code and line.
#[test]
fn a_signal_stops_a_write_to_a_fifo_nobody_reads() {
    let dir = scratch("fifo-full");
    let fifo = dir.join("f");
    crate::common::mkfifo(&fifo);
    for signal in [libc::SIGINT, libc::SIGTERM] {
        // A reader that never reads: the pipe fills and the write waits.
        let reader = std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(&fifo).expect("reader");
        let mut child = command_in(&dir, &["run", "--duration", "3600s", "--trace", "f", "-q"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("runs");
        wait_until_it_catches_sigint(child.id());
        std::thread::sleep(Duration::from_millis(500));
        assert!(child.try_wait().expect("waits").is_none(), "writing, or waiting to");
        let status = crate::common::signalled(&mut child, signal, "a write to a full FIFO");
        drop(reader);
        let o = child.wait_with_output().expect("ends");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(status.code(), Some(128 + signal), "{err}");
        assert_eq!(err.trim_end(), "error: interrupted: no output file was saved, existing files are as they were");
    }
}

/// Off a terminal, an output the dashboard could never write (`--record`
/// or `--trace` naming a directory, a missing directory, `-`) is refused
/// for its path first, for every session, as it is on a terminal.
#[test]
fn a_sessions_output_path_is_refused_before_the_missing_terminal() {
    let dir = scratch("record-path-first");
    std::fs::create_dir(dir.join("adir")).expect("a directory");
    for session in [&[][..], &["lesson", "03"][..]] {
        for (option, path, said) in [
            ("--record", "adir", "adir: is a directory, not a file to write"),
            ("--trace", "adir", "adir: is a directory, not a file to write"),
            ("--record", "nodir/x", "nodir/x: the directory nodir does not exist"),
            ("--record", "-", "--record -: standard output is not an output here"),
        ] {
            let args: Vec<&str> = session.iter().copied().chain([option, path]).collect();
            let o = run_in(&dir, &args);
            one_line(&o, 2, &[said]);
        }
    }
}
