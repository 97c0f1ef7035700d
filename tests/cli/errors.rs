//! Bad input gets one clear line on stderr and exit code 2, never a panic.

use crate::common::{dirtyviz, tmp};

fn fails_cleanly(args: &[&str], expect: &str) -> String {
    // Even with backtraces asked for, a mistake of the user's gets none.
    let out = dirtyviz().args(args).env("RUST_BACKTRACE", "1").output().expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: exit code; stderr: {stderr}");
    assert!(!stderr.to_lowercase().contains("backtrace") && !stderr.contains("this is a bug"), "{args:?}: {stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: one line, got: {stderr}");
    assert!(stderr.contains(expect), "{args:?}: {stderr:?} should mention {expect:?}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?}: nothing on stdout");
    stderr.trim_end().to_string()
}

/// Fails as [`fails_cleanly`] checks, with exactly `line` on stderr.
fn fails_with(args: &[&str], line: &str) {
    assert_eq!(fails_cleanly(args, line), line, "{args:?}");
}

#[test]
fn absurd_values_are_refused() {
    fails_cleanly(&["run", "--memory", "0"], "memory must be at least 16M");
    fails_cleanly(&["run", "--dd", "100000"], "100000");
    fails_cleanly(&["run", "--hz", "7"], "HZ must be 100, 250, 300 or 1000");
    fails_cleanly(&["run", "--duration", "-1s"], "must be positive");
    // Every time option reads a negative time as a time, not as a flag.
    fails_cleanly(&["cases", "--duration", "-1s"], "must be positive");
    fails_cleanly(&["snapshot", "--at", "-1s"], "must be 0 (before anything ran) or later");
    fails_cleanly(&["view", "--example", "--snapshot", "--at", "-2s"], "must be 0 (the trace's first event) or later");
    fails_cleanly(&["run", "--duration", "soon"], "60s");
    fails_cleanly(&["run", "--dirty-ratio", "150"], "percentage");
    fails_cleanly(&["run", "--cpus", "0"], "--cpus");
    fails_cleanly(&["run", "--dirty-ratio", "10", "--dirty-bytes", "1M"], "cannot be used with");
    fails_cleanly(&["run", "--dirty-background-bytes", "0"], "the kernel refuses 0");
    fails_cleanly(&["replay", "-"], "a recording is read from a file, not standard input");
    fails_cleanly(&["run", "--frobnicate"], "--frobnicate");
    fails_cleanly(&["cases", "no-such-case"], "no case of the seed's tables contains `no-such-case`");
    fails_cleanly(&["cases", "--max-error", "NaN"], "must be a finite number of 0 or more");
    fails_cleanly(&["cases", "--max-rate-error=-1"], "must be a finite number of 0 or more");
    fails_cleanly(&["cases", "--table", "patch11", "--max-error", "0.1"], "judge the main table only");
    fails_cleanly(&["cases", "--table", "nfs-wq", "no-such-case"], "no case of this table contains `no-such-case`");
    fails_cleanly(&["cases", "--fit", "no-such-box"], "--fit: unknown profile `no-such-box`, expected one of 8p-4096M");
    fails_cleanly(&["cases", "--fit", "8p-4096M", "--table", "nfs-wq"], "--fit fits on the main table");
    fails_cleanly(&["cases", "--fit", "8p-4096M", "--max-error", "0.1"], "cannot be used with");
    fails_cleanly(&["cases", "--fit", "8p-4096M", "JBOD"], "cannot be used with");
}

/// A file name that is not UTF-8, where the command takes text, is named
/// in the error: clap said only "invalid UTF-8 was detected in one or
/// more arguments".
#[test]
fn a_name_that_is_not_utf8_is_named() {
    use std::os::unix::ffi::OsStrExt as _;
    let name = std::ffi::OsStr::from_bytes(b"in\xff.txt");
    let out = dirtyviz().arg("view").arg(name).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim_end(),
        "error: `in\\xff.txt` is not UTF-8: files to read and names are taken as UTF-8 text (rename the file, or \
         give a link to it with a UTF-8 name) (see dirtyviz view --help)"
    );
    let out = dirtyviz().args(["run", "--scenario"]).arg(name).output().expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with("error: `in\\xff.txt` (after --scenario) is not UTF-8"), "{stderr}");
}

/// A negative number after a space is read as the option's value, and
/// refused by name, as `--hz=-100` is; it used to be taken for a flag
/// (`unexpected argument '-1' found`).
#[test]
fn negative_values_are_refused_as_values() {
    let cases: &[(&[&str], &str)] = &[
        (&["run", "--hz", "-100"], "'--hz <HZ>'"),
        (&["run", "--seed", "-1"], "'--seed <SEED>'"),
        (&["run", "--cpus", "-4"], "'--cpus <CPUS>'"),
        (&["run", "--dd", "-1"], "'--dd <DD>'"),
        (&["run", "--period-shift", "-3"], "'--period-shift <PERIOD_SHIFT>'"),
        (&["run", "--dirty-ratio", "-5"], "'--dirty-ratio <DIRTY_RATIO>'"),
        (&["run", "--dirty-background-ratio", "-5"], "'--dirty-background-ratio <DIRTY_BACKGROUND_RATIO>'"),
        (&["run", "--dirty-bytes", "-1M"], "'--dirty-bytes <SIZE>'"),
        (&["run", "--dirty-background-bytes", "-1M"], "'--dirty-background-bytes <SIZE>'"),
        (&["run", "--memory", "-1G"], "'--memory <SIZE>'"),
        (&["run", "--trace", "t.jsonl", "--max-trace-size", "-1M"], "'--max-trace-size <SIZE>'"),
        (&["check", "--seed", "-2"], "'--seed <SEED>'"),
        (&["snapshot", "--size", "-80x24"], "'--size <WxH>'"),
        (&["snapshot", "--lesson", "03", "--step", "-1"], "'--step <N>'"),
        (&["view", "--example", "--snapshot", "--size", "-80x24"], "'--size <WxH>'"),
    ];
    for (args, option) in cases {
        let line = fails_cleanly(args, option);
        assert!(line.contains("invalid value '-"), "{args:?}: {line}");
    }
    fails_with(&["plot", "--bdi", "-1"], "error: --bdi -1: no such bdi; this world has sda (or 0)");
}

#[test]
fn near_miss_case_names_are_refused_with_the_valid_ones() {
    let kernel = "thresh=1G/xfs-1dd-4k-8p-4096M-1024M:10-3.1.0-rc4-vanila+";
    fails_cleanly(&["run", "--case", kernel], "unknown kernel `3.1.0-rc4-vanila+`, expected X or one of");
    fails_cleanly(&["run", "--case", kernel], "3.1.0-rc4-vanilla+");
    fails_cleanly(&["run", "--case", "JBD-10HDD/xfs-1dd-1M-24p-16384M-20:10-X"], "unknown prefix token `JBD`");
    fails_cleanly(&["run", "--case", "RAID-10HDD/xfs-1dd-1M-24p-16384M-20:10-X"], "RAID0-nHDD");
}

/// A world option a comparison overrides, a comparison of a world with
/// itself, or a `{side}` with no sides, is a mistake told in one line, not
/// a choice silently dropped: the run used patch 11 whatever `--patches`
/// said, and wrote a file called `p-{side}.csv`.
#[test]
fn what_a_comparison_overrides_or_lacks_is_refused() {
    let dir = crate::common::empty_dir("compare-mistakes");
    let csv = dir.join("p-{side}.csv");
    let csv = csv.to_str().expect("utf-8");
    for (args, line) in [
        (
            &["run", "--compare", "legacy", "--patches", "9"][..],
            "error: --patches does not apply to --compare legacy=11, which runs 3.1 against patch 11 (another patch N: --compare legacy=N)",
        ),
        (
            &["plot", "--compare", "2.6.38", "--patches", "legacy"],
            "error: --patches does not apply to --compare 2.6.38=11, which runs 2.6.38 against patch 11 (another patch N: --compare 2.6.38=N)",
        ),
        (
            &["snapshot", "--compare", "patches=5", "--patches", "9"],
            "error: --patches does not apply to --compare patches=5, which runs patch 4 against patch 5",
        ),
        (
            &["snapshot", "--compare", "dirty-ratio=20"],
            "error: --compare dirty-ratio=20: the scenario's dirty_ratio is 20 already, so both sides would be the same world (compare with another ratio, or change the scenario's with --dirty-ratio)",
        ),
        (
            &["run", "--dirty-ratio", "30", "--compare", "dirty-ratio=30", "--csv", csv],
            "error: --compare dirty-ratio=30: the scenario's dirty_ratio is 30 already, so both sides would be the same world (compare with another ratio, or change the scenario's with --dirty-ratio)",
        ),
        (
            &["run", "--duration", "1s", "--csv", csv],
            &format!("error: --csv {csv}: {{side}} stands for a side of --compare, and this run has one"),
        ),
        (
            &["run", "--duration", "1s", "--csv", "a.csv,b.csv"],
            "error: --csv a.csv,b.csv: A,B names a file for each side of --compare, and this run has one \
             (./a.csv,b.csv for a file of that name)",
        ),
    ] {
        fails_with(args, line);
    }
    assert_eq!(std::fs::read_dir(&dir).expect("dir").count(), 0, "no file written");
    // With a dirty ratio compared, the patch level is both sides'.
    let json = crate::common::summary(
        "compare-ratio-p9",
        &["--compare", "dirty-ratio=10", "--patches", "9", "--duration", "1s"],
    );
    assert_eq!((&json["a"]["patches"], &json["b"]["patches"]), (&9.into(), &9.into()), "{json}");
}

#[test]
fn unknown_preset_lists_the_presets() {
    fails_cleanly(&["run", "--scenario", "hdd-7dd"], "unknown scenario `hdd-7dd`");
    fails_cleanly(&["run", "--scenario", "hdd-7dd"], "hdd-1000dd");
}

#[test]
fn a_link_that_leads_nowhere_is_told_as_a_file_given() {
    // Not "not a file and not a preset": the file named, and why it
    // cannot be read.
    let dangling = tmp("dangling.ron");
    let _ = std::fs::remove_file(&dangling);
    std::os::unix::fs::symlink("nowhere/x.ron", &dangling).expect("link");
    let p = dangling.to_str().expect("utf-8 path");
    // The target is named from the link's directory; through a link to
    // the link, the same end.
    let end = dangling.with_file_name("nowhere/x.ron");
    let told = format!("a symbolic link that leads to {}, which does not exist", end.display());
    fails_with(&["run", "--scenario", p], &format!("error: {p}: cannot read scenario: {told}"));
    fails_cleanly(&["lesson", p], &told);
    let chain = tmp("chain.ron");
    let _ = std::fs::remove_file(&chain);
    std::os::unix::fs::symlink(&dangling, &chain).expect("link");
    fails_cleanly(&["run", "--scenario", chain.to_str().expect("utf-8 path")], &told);
    let looped = tmp("looped.ron");
    let _ = std::fs::remove_file(&looped);
    std::os::unix::fs::symlink(&looped, &looped).expect("link");
    let p = looped.to_str().expect("utf-8 path");
    fails_cleanly(&["run", "--scenario", p], &format!("{p}: cannot read: "));
}

#[test]
fn malformed_scenario_files_point_at_the_mistake() {
    let path = tmp("bad.ron");
    std::fs::write(&path, "Scenario(\n    memory_mb: 4096,\n    dirty_rato: 20,\n    devices: [],\n)\n")
        .expect("written");
    let p = path.to_str().expect("utf-8 path");
    // Of a scenario's 19 fields, the near one alone.
    fails_cleanly(
        &["run", "--scenario", p],
        &format!("{p}:3:5: unknown field `dirty_rato`; did you mean `dirty_ratio`?"),
    );
    std::fs::write(&path, "Scenario(\n    memory_mb: 4096,\n    zzz: 20,\n    devices: [],\n)\n").expect("written");
    fails_cleanly(&["run", "--scenario", p], &format!("{p}:3:5: unknown field `zzz`, expected one of `name`, "));

    std::fs::write(&path, "Scenario(devices: [(name: \"sda\", kind: Hdd)], tasks: [Dd(bdi: \"sda\", bs: \"4q\")])")
        .expect("written");
    fails_cleanly(&["run", "--scenario", p], "block size `4q`");

    std::fs::write(&path, "Scenario(devices: [(name: \"sda\", kind: Hdd)]").expect("written");
    fails_cleanly(&["run", "--scenario", p], &format!("{p}:1:"));
}

/// A mistake that spans fields (a device named twice, a task on a bdi no
/// device makes, a setting of another kind of device) is told at
/// `path:line:col` of the field it is about, also when the file names the
/// scenario; a field left out is told at the one that makes it wrong.
#[test]
fn mistakes_across_fields_are_told_at_the_field() {
    let path = tmp("across.ron");
    let p = path.to_str().expect("utf-8 path");
    let refused = |text: &str, told: &str| {
        std::fs::write(&path, text).expect("written");
        fails_with(&["run", "--scenario", p], &format!("error: {p}:{told}"));
    };
    refused(
        "Scenario(\n    name: \"lab 3\",\n    devices: [\n        (name: \"sdb\", kind: Ssd),\n        (name: \"sd\", kind: Jbod),\n    ],\n)\n",
        "5:16: devices[1]: two devices are named `sdb`",
    );
    refused(
        "Scenario(name: \"lab 3\", devices: [(name: \"sda\", kind: Hdd)], tasks: [Dd(bdi: \"sdb\")])",
        "1:78: tasks[0]: unknown bdi `sdb`, expected `*` or one of `sda`",
    );
    refused(
        "Scenario(\n  devices: [(name: \"a\", kind: Hdd), (name: \"b\", kind: Ssd, server_mbps: 40)],\n)",
        "2:73: devices[1]: `server_mbps` is not a setting of kind Ssd (it would be ignored)",
    );
    refused(
        "Scenario(\n  memory_mb: 100,\n  reserved_mb: 100,\n  devices: [(name: \"a\", kind: Hdd)],\n)",
        "3:16: reserved_mb must be smaller than memory_mb",
    );
    refused(
        "Scenario(\n  devices: [(name: \"a\", kind: Hdd)],\n  legacy: Linux2638,\n)",
        "3:11: `legacy: Linux2638` runs none of the series' patches: add `patches: 0` (got 11)",
    );
    refused(
        "Scenario(\n  devices: [(name: \"a\", kind: Hdd)],\n  tasks: [\n    Dd(),\n    Light(start_s: 5,\n      stop_s: 1),\n  ],\n)",
        "6:15: tasks[1]: stop_s must be after start_s: the tasks would be killed before they start \
         (start_s 5, stop_s 1)",
    );
    refused(
        "Scenario(\n  devices: [(name: \"a\", kind: Jbod, disks: 3)],\n  tasks: [Dd(n: 10000)],\n)",
        "3:17: at most 20000 tasks, the scenario asks for more (tasks[0]: 10000 on each of 3 bdis)",
    );
    refused(
        "Scenario(\n  machine: \"8p-4069M\",\n  devices: [(name: \"a\", kind: Hdd)],\n)",
        "2:12: unknown machine `8p-4069M`, expected one of 8p-4096M, 16p-8192M, 24p-16384M, 32p-32768M; \
         did you mean `8p-4096M`?",
    );
    refused("Scenario(\n  name: \"x\",\n  devices: [],\n)", "3:12: a scenario needs at least one device in `devices`");

    // A scenario written in a lesson is told in the lesson.
    let lesson = tmp("across-lesson.ron");
    let l = lesson.to_str().expect("utf-8 path");
    std::fs::write(
        &lesson,
        "Lesson(id: \"x\", title: \"t\", patch: \"p\", summary: \"s\",\n  scenario: Inline(Scenario(\n    devices: [(name: \"sda\", kind: Hdd)],\n    tasks: [Dd(bdi: \"sdb\")])),\n  steps: [Step(title: \"a\", text: \"b\")])\n",
    )
    .expect("written");
    fails_with(&["lesson", l], &format!("error: {l}:4:21: tasks[0]: unknown bdi `sdb`, expected `*` or one of `sda`"));
}

/// The NFS patches asked of a world without an NFS mount would change
/// nothing: refused, on the command line and in a lesson's changes.
#[test]
fn an_nfs_patch_without_an_nfs_mount_is_refused() {
    for flag in ["--nfs-wait-queue", "--nfs-congestion-scaled"] {
        fails_with(
            &["run", "--scenario", "hdd-10dd", flag],
            &format!("error: {flag}: scenario `hdd-10dd` has no NFS mount (the NFS patches change only NFS mounts)"),
        );
    }
    let lesson = tmp("nfs-without-nfs.ron");
    let l = lesson.to_str().expect("utf-8 path");
    std::fs::write(
        &lesson,
        "Lesson(id: \"x\", title: \"t\", patch: \"p\", summary: \"s\", scenario: Preset(\"hdd-10dd\"),\n  steps: [Step(title: \"a\", text: \"b\", actions: [Reconfigure((nfs_wait_queue: true))])])\n",
    )
    .expect("written");
    fails_with(
        &["check", l],
        &format!("error: {l}:2:49: step 1: `nfs_wait_queue` changes nothing: this world has no NFS mount"),
    );
}

#[test]
fn unwritable_outputs_are_reported() {
    fails_cleanly(&["run", "--duration", "1s", "--csv", "/nonexistent/dir/x.csv"], "/nonexistent/dir/x.csv");
}

/// A full disk behind `>` is an error, not a report silently cut short.
#[test]
fn a_full_disk_on_stdout_is_reported() {
    let trace = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/ktrace/linux-6.18-4dd-dirty_bytes-400M.txt");
    let commands: [&[&str]; 13] = [
        &["--help"],
        &["run", "--help"],
        &["-V"],
        &["--version"],
        &["help", "run"],
        &["machines"],
        &["lessons"],
        &["snapshot", "--at", "1s"],
        &["cases", "--duration", "1s", "thresh=1M/xfs-1dd"],
        &["view", trace],
        &["view", trace, "--snapshot"],
        &["completions", "bash"],
        &["man"],
    ];
    for args in commands {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").expect("/dev/full");
        let out = dirtyviz()
            .args(args)
            .env("XDG_DATA_HOME", tmp("full-disk-data"))
            .stdout(full)
            .stderr(std::process::Stdio::piped())
            .output()
            .expect("runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.trim(), "error: standard output: writing: No space left on device", "{args:?}");
    }
}

#[test]
fn help_and_version_succeed() {
    let out = dirtyviz().arg("--help").output().expect("runs");
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("run"));
    let out = dirtyviz().args(["run", "--help"]).output().expect("runs");
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    for flag in ["--scenario", "--duration", "--trace", "--csv", "--summary-json", "--dd", "--period-shift"] {
        assert!(help.contains(flag), "run --help lists {flag}");
    }
    for ask in ["--help", "-h"] {
        let out = dirtyviz().args(["help", ask]).output().expect("runs");
        assert!(out.status.success(), "help {ask}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stdout).contains("Usage: dirtyviz help [COMMAND]"), "help {ask}");
    }
}

/// Every option of `run --help` that takes a value says what it is
/// without it: a default, the scenario's value, or no limit.
#[test]
fn run_help_gives_every_valued_option_its_default() {
    let out = dirtyviz().args(["run", "--help"]).output().expect("runs");
    let help = String::from_utf8_lossy(&out.stdout);
    let mut options = help.split("\n      --").skip(1).peekable();
    assert!(options.peek().is_some(), "{help}");
    for option in options {
        let text = option.split_whitespace().collect::<Vec<_>>().join(" ");
        let flag = text.split(' ').next().unwrap_or_default();
        let takes_a_value = text.split(' ').nth(1).is_some_and(|w| w.starts_with('<'));
        // Outputs, and a case or a comparison, are simply not there without them.
        if takes_a_value && !matches!(flag, "trace" | "csv" | "summary-json" | "case" | "compare") {
            let says = ["default", "Default", "replaces the scenario's"];
            assert!(says.iter().any(|u| text.contains(u)), "--{flag} says no default: {text}");
        }
    }
}

/// A reader that went away (`dirtyviz completions bash | head -0`) ends
/// the output quietly: never a panic, never a report of one.
#[test]
fn a_closed_pipe_on_stdout_is_not_a_crash() {
    let commands: [&[&str]; 8] = [
        &["completions", "bash"],
        &["completions", "zsh"],
        &["man"],
        &["--help"],
        &["lessons"],
        &["machines"],
        &["snapshot", "--at", "1s"],
        &["view", "--example"],
    ];
    for args in commands {
        let (reader, writer) = std::io::pipe().expect("pipe");
        drop(reader);
        let out = dirtyviz()
            .args(args)
            .env("XDG_DATA_HOME", tmp("closed-pipe-data"))
            .stdout(writer)
            .stderr(std::process::Stdio::piped())
            .output()
            .expect("runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_ne!(out.status.code(), Some(101), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked") && !stderr.contains("crashed"), "{args:?}: {stderr}");
    }
}

#[test]
fn a_near_miss_name_gets_the_nearest_one_suggested() {
    fails_cleanly(&["run", "--scenario", "hdd-10d"], "did you mean `hdd-10dd`?");
    fails_cleanly(&["run", "--scenario", "HDD-100DD"], "did you mean `hdd-100dd`?");
    fails_cleanly(&["snapshot", "--lesson", "03x"], "did you mean `03`?");
    fails_cleanly(&["cases", "--fit", "8p-4069M"], "did you mean `8p-4096M`?");
    // clap's own choices: the possible values and its guess stay on the line.
    fails_cleanly(
        &["cases", "--table", "patch"],
        "invalid value 'patch' for '--table <TABLE>'; possible values: main, patch11, nfs-wq; \
         tip: a similar value exists: 'patch11' (see dirtyviz cases --help)",
    );
    fails_cleanly(&["plot", "--format", "gif"], "; possible values: svg, png (see");
    fails_cleanly(&["run", "--scenari", "x"], "; tip: a similar argument exists: '--scenario'");
    // Nothing near: no guess.
    let out = dirtyviz().args(["run", "--scenario", "zzzzzzzz"]).output().expect("runs");
    assert!(!String::from_utf8_lossy(&out.stderr).contains("did you mean"));
}

/// A jiffy at HZ 300 or 250 is not a whole number of milliseconds: a run
/// shorter than one says how long one is, not "3 ms, got 3 ms".
#[test]
fn a_run_shorter_than_a_jiffy_says_how_long_one_is() {
    fails_cleanly(
        &["run", "--hz", "300", "--duration", "3ms"],
        "--duration must be at least one jiffy (3.333 ms at HZ 300), got 3 ms",
    );
    let path = tmp("jiffy.ron");
    std::fs::write(&path, "Scenario(hz: 300, duration_s: 0.003, devices: [(name: \"sda\", kind: Hdd)])")
        .expect("written");
    let p = path.to_str().expect("utf-8 path");
    fails_cleanly(
        &["run", "--scenario", p],
        &format!("{p}:1:31: duration_s must be at least one jiffy (0.003333 s at HZ 300), got 0.003"),
    );
}

/// A size past the largest one a flag or a file takes says how large it
/// may be, in the flag's unit, never "not a size"; an integer past its
/// type in a scenario file is told at the value, with the field's range.
#[test]
fn sizes_and_numbers_past_the_largest_say_the_largest() {
    let trace = tmp("largest.jsonl");
    let t = trace.to_str().expect("utf-8 path");
    let too_large = |flag: &str, value: &str, largest: &str| {
        let args = ["run", "--trace", t, flag, value];
        let line = format!(
            "error: invalid value '{value}' for '{flag} <SIZE>': too large: at most {largest} (see dirtyviz run --help)"
        );
        fails_with(&args, &line);
    };
    too_large("--max-trace-size", "18446744073709551616", "18446744073709551615 bytes");
    too_large("--max-trace-size", "99999999999T", "18446744073709551615 bytes");
    too_large("--memory", "99999999999T", "4T");
    too_large("--memory", "5T", "4T");
    too_large("--dirty-bytes", "99999999999T", "4T");
    too_large("--dirty-background-bytes", "18446744073709551616", "4T");
    fails_with(
        &["run", "--seed", "18446744073709551616"],
        "error: invalid value '18446744073709551616' for '--seed <SEED>': too large: at most 18446744073709551615 \
         (see dirtyviz run --help)",
    );
    // The largest size itself is taken: no limit to speak of.
    let out = dirtyviz()
        .args(["run", "-q", "--duration", "1s", "--trace", t, "--max-trace-size", "18446744073709551615"])
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

    let path = tmp("largest.ron");
    let p = path.to_str().expect("utf-8 path");
    for (field, value, expect) in [
        ("memory_mb", "99999999999999999999", "3:16: memory_mb must be between 16 and 4194304 MiB, got 1e20"),
        ("cpus", "18446744073709551616", "3:11: cpus must be between 1 and 4096, got 1.8446744073709552e19"),
        ("seed", "99999999999999999999", "3:11: seed must be between 0 and 18446744073709551615, got 1e20"),
        ("hz", "99999999999999999999", "3:9: hz must be 100, 250, 300 or 1000, got 1e20"),
        ("memory_mb", "1.5", "3:16: memory_mb must be a whole number, got 1.5"),
    ] {
        std::fs::write(
            &path,
            format!("Scenario(\n    devices: [(name: \"sda\", kind: Hdd)],\n    {field}: {value},\n)\n"),
        )
        .expect("written");
        fails_with(&["run", "--scenario", p], &format!("error: {p}:{expect}"));
    }
    std::fs::write(
        &path,
        "Scenario(\n    devices: [(name: \"sda\", kind: Hdd)],\n    tasks: [Dd(n: 99999999999)],\n)\n",
    )
    .expect("written");
    fails_with(&["run", "--scenario", p], &format!("error: {p}:3:19: n must be between 0 and 10000, got 99999999999"));
    std::fs::write(
        &path,
        "Scenario(\n    devices: [(name: \"sda\", kind: Hdd)],\n    tasks: [Dd(bs: \"99999999999T\")],\n)\n",
    )
    .expect("written");
    fails_with(
        &["run", "--scenario", p],
        &format!("error: {p}:3:21: block size `99999999999T` is too large: at most 1G"),
    );
    fails_with(
        &["run", "--case", "thresh=1M/xfs-1dd-4k-8p-4096M-99999999999G:10-X"],
        "error: case `thresh=1M/xfs-1dd-4k-8p-4096M-99999999999G:10-X`: `99999999999G` is too large: at most 4T \
         (e.g. thresh=1G/xfs-10dd-4k-8p-4096M-1024M:10-X)",
    );
}

/// A recording whose time steps back is refused at the step, rather
/// than replayed as if time had stood still there.
#[test]
fn a_recording_that_steps_back_in_time_is_refused_at_the_step() {
    let header = r#"{"dirtyviz":"0.1.0","keys_format":2,"start":{"Dashboard":{"scenario":{"devices":[{"name":"sda","kind":"Hdd"}]},"compare":null}},"progress":{"lessons":{}}}"#;
    let path = tmp("backwards.jsonl");
    let p = path.to_str().expect("utf-8 path");
    std::fs::write(&path, format!("{header}\n{{\"Advance\":2500000000}}\n{{\"Advance\": 1000000000}}\n"))
        .expect("written");
    fails_with(
        &["replay", p],
        &format!(
            "error: {p}:3:13: Advance(1000000000) steps back in time, from 2.5 s to 1 s: a recorded session only \
             moves forward"
        ),
    );
    // A step back of nanoseconds is told to the nanosecond (it said `to 0 s`).
    std::fs::write(&path, format!("{header}\n{{\"Advance\":1008967000}}\n{{\"Advance\":5}}\n")).expect("written");
    fails_with(
        &["replay", p],
        &format!(
            "error: {p}:3:12: Advance(5) steps back in time, from 1.008967 s to 0.000000005 s: a recorded session \
             only moves forward"
        ),
    );
    // A time past what 64 bits hold is refused as a time out of range, not
    // as JSON that did not match (`invalid type: floating point`).
    for time in ["99999999999999999999999", "-5", "2.5"] {
        std::fs::write(&path, format!("{header}\n{{\"Advance\":1000000000}}\n{{\"Advance\": {time}}}\n"))
            .expect("written");
        fails_with(
            &["replay", p],
            &format!(
                "error: {p}:3:13: Advance({time}) is not a time of the session: a recording steps a whole number \
                 of ns, at most 60 s at a time, up to 1000000 s"
            ),
        );
    }
    std::fs::write(&path, format!("{header}\n{{\"Key\":[-1,\"AddDd\"]}}\n")).expect("written");
    fails_with(
        &["replay", p],
        &format!(
            "error: {p}:2:8: Key(-1) is not a time of the session: a recording steps a whole number of ns, at most \
             60 s at a time, up to 1000000 s"
        ),
    );
    // A call no key makes: a chart past 5, a ratio moved by 7 points.
    for (call, said) in [
        (r#"{"Zoom":99}"#, "Zoom(99) is not a call any key makes: the charts are 1 to 5"),
        (r#"{"DirtyRatio":7}"#, "DirtyRatio(7) is not a call any key makes: a key moves a ratio by one point"),
    ] {
        std::fs::write(&path, format!("{header}\n{{\"Advance\":1000000000}}\n{{\"Key\":[1000000000,{call}]}}\n"))
            .expect("written");
        fails_with(&["replay", p], &format!("error: {p}:3:8: {said}"));
    }
    // A page of the task table was 10 rows in older recordings: replayed.
    std::fs::write(
        &path,
        format!("{header}\n{{\"Advance\":1000000000}}\n{{\"Key\":[1000000000,{{\"ScrollTasks\":10}}]}}\n"),
    )
    .expect("written");
    let out = dirtyviz().args(["replay", p]).output().expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // Other JSON is told apart: a file that is no recording, a line of
    // other fields than one call.
    std::fs::write(&path, "{\n  \"a\": 1\n}\n").expect("written");
    fails_with(
        &["replay", p],
        &format!(
            "error: {p}:1:1: not a dirtyviz recording: its first line is not the header a recording starts with \
             ({{\"dirtyviz\":\"<version>\",...}}, one JSON object on one line)"
        ),
    );
    // A header cut off, the file truncated (or a line end within it):
    // told so, where it ends, not as some other file.
    std::fs::write(&path, &header[..60]).expect("written");
    fails_with(
        &["replay", p],
        &format!(
            "error: {p}:1:61: the header line is cut off: the file ends (truncated) here, before its JSON object closes"
        ),
    );
    std::fs::write(&path, format!("{}\n{{\"Advance\":1000000000}}\n", &header[..60])).expect("written");
    fails_with(
        &["replay", p],
        &format!("error: {p}:1:61: the header line is cut off: its line ends here, before its JSON object closes"),
    );
    std::fs::write(&path, format!("{header}\n{{\"Advance\":100000000, \"Extra\":1}}\n")).expect("written");
    fails_with(
        &["replay", p],
        &format!(
            "error: {p}:2:1: not a recorded call: a call is an object of one field, `Advance` or `Key`; this line has \
             `Advance`, `Extra`"
        ),
    );
    std::fs::write(&path, format!("{header}\n[]\n")).expect("written");
    fails_with(
        &["replay", p],
        &format!(
            "error: {p}:2:1: not a recorded call: a call is an object of one field, `Advance` or `Key`; this line holds \
             an array"
        ),
    );
    // A key is recorded when it was pressed: one stamped at another time
    // was applied where the session stood, without a word.
    for stamp in ["6000000000", "950000000"] {
        std::fs::write(&path, format!("{header}\n{{\"Advance\":1000000000}}\n{{\"Key\":[{stamp},\"AddDd\"]}}\n"))
            .expect("written");
        let at = if stamp.starts_with('6') { "6" } else { "0.95" };
        fails_with(
            &["replay", p],
            &format!(
                "error: {p}:3:8: a key stamped {at} s, where the session is at 1 s: a key is recorded at the time it \
                 was pressed"
            ),
        );
    }
    std::fs::write(&path, format!("{header}\n{{\"Advance\":1000000000}}\n{{\"Key\":[1000000000,\"AddDd\"]}}\n"))
        .expect("written");
    assert!(dirtyviz().args(["replay", p]).output().expect("runs").status.success(), "stamped when pressed");
    std::fs::write(&path, format!("{header}\n{{\"Advance\":1000000000}}\n{{\"Advance\":2500000000}}\n"))
        .expect("written");
    let out = dirtyviz().args(["replay", p]).output().expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("2.5 simulated s"), "{out:?}");
}

/// `dirtyviz check` on a file it cannot read or load is bad input, as for
/// every other command: exit 2, one line at the file's place, nothing run.
#[test]
fn check_refuses_a_file_it_cannot_read_or_load_in_one_line() {
    let dir = crate::common::empty_dir("check-refuses");
    let path = |name: &str| dir.join(name).to_str().expect("utf-8 path").to_string();
    std::fs::write(dir.join("cut.ron"), "// cut short\nScenario(\n    devices: [(name: \"sda\", kind: Hdd)],\n")
        .expect("written");
    std::fs::write(dir.join("answer.ron"), "// the answer\n  42\n").expect("written");
    std::fs::write(dir.join("latin1.ron"), b"Scenario(name: \"caf\xe9\")").expect("written");
    std::fs::write(dir.join("ok.ron"), "Scenario(devices: [(name: \"sda\", kind: Hdd)])").expect("written");
    std::fs::create_dir_all(dir.join("dir.ron")).expect("dir");
    let missing = path("missing.ron");
    fails_with(&["check", &missing], &format!("error: {missing}: cannot read: No such file or directory"));
    let d = path("dir.ron");
    fails_with(&["check", &d], &format!("error: {d}: cannot read lesson or scenario: a directory, not a regular file"));
    let latin1 = path("latin1.ron");
    fails_with(&["check", &latin1], &format!("error: {latin1}:1:20: not UTF-8 text"));
    let cut = path("cut.ron");
    fails_with(
        &["check", &path("ok.ron"), &cut],
        &format!("error: {cut}:3:41: the file ends too soon: a `(`, `[` or string is not closed"),
    );
    let answer = path("answer.ron");
    fails_with(&["check", &answer], &format!("error: {answer}:2:3: expected a `Lesson(...)` or a `Scenario(...)`"));
    std::fs::write(dir.join("empty.ron"), "").expect("written");
    let empty = path("empty.ron");
    fails_with(
        &["check", &empty],
        &format!("error: {empty}: empty: a lesson file holds one `Lesson(...)`, a scenario file one `Scenario(...)`"),
    );
    // A lesson cut where a value belongs ends too soon too.
    std::fs::write(dir.join("cut-lesson.ron"), "Lesson(\n  id: \"99\",\n  steps: [\n    Step(\n      title:")
        .expect("written");
    let cut_lesson = path("cut-lesson.ron");
    fails_with(
        &["check", &cut_lesson],
        &format!("error: {cut_lesson}:5:12: step 1: the file ends too soon: a `(`, `[` or string is not closed"),
    );
    // Several: a line for each, in the order given, and nothing runs.
    let out = dirtyviz().args(["check", &cut, &path("ok.ron"), &answer, "default"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "error: {cut}:3:41: the file ends too soon: a `(`, `[` or string is not closed\n\
             error: {answer}:2:3: expected a `Lesson(...)` or a `Scenario(...)`\n"
        )
    );
    assert!(out.stdout.is_empty(), "nothing checked: {}", String::from_utf8_lossy(&out.stdout));
}

/// `check` takes what its help says: files, lesson ids, and the presets
/// it checks when given nothing; a bare name that is none of them is
/// told with the ids and presets there are, and the closest one.
#[test]
fn check_names_the_lessons_and_presets_for_an_unknown_name() {
    let out = dirtyviz().args(["check", "hdd-10dd", "04"]).output().expect("runs");
    let said = crate::common::ok(&out);
    assert!(said.contains("ok   assets/scenarios/hdd-10dd.ron: scenario `hdd-10dd` is valid"), "{said}");
    assert!(said.contains("ok   lessons/04-") && said.contains("all 2 passed"), "{said}");
    let line = fails_cleanly(&["check", "033"], "error: 033: not a file, a lesson id (00, 01, 02,");
    assert!(line.contains("or a preset (default, hdd-10dd,") && line.ends_with("did you mean `03`?"), "{line}");
    let line = fails_cleanly(&["check", "hdd10dd"], "error: hdd10dd: not a file, a lesson id");
    assert!(line.ends_with("did you mean `hdd-10dd`?"), "{line}");
}

/// `--duration` and `--at` take jiffies (`250j`) at the world's HZ; a
/// time that is not a whole number of them, or a duration shorter than
/// one, is refused with the HZ in force, whichever command and world.
#[test]
fn times_in_jiffies_are_told_with_the_hz_in_force() {
    fails_with(
        &["run", "--hz", "300", "--duration", "2.5j"],
        "error: --duration must be a whole number of jiffies (a jiffy is 3.333 ms at HZ 300), got 2.5",
    );
    fails_with(
        &["snapshot", "--hz", "250", "--at", "0.5jiffies"],
        "error: --at must be a whole number of jiffies (a jiffy is 4 ms at HZ 250), got 0.5",
    );
    let out = tmp("jiffy-plots");
    fails_with(
        &["plot", "--hz", "100", "--duration", "5ms", "--out", out.to_str().expect("utf-8 path")],
        "error: --duration must be at least one jiffy (10 ms at HZ 100), got 5 ms",
    );
    fails_with(
        &["cases", "--duration", "1.5j", "thresh=1M/xfs-1dd"],
        "error: --duration must be a whole number of jiffies (a jiffy is 1 ms at HZ 1000), got 1.5",
    );
    fails_with(
        &["run", "--hz", "100", "--duration", "200000000j"],
        "error: --duration must be at most 1000000 s, got 200000000 jiffies at HZ 100",
    );
    // Whole jiffies are as long as the world's HZ makes them.
    let json = crate::common::summary("jiffies-hz250", &["--hz", "250", "--duration", "250j"]);
    assert_eq!(crate::common::num(&json["duration_s"]), 1.0, "{json}");
}

/// A snapshot's moment after 0 but before the first jiffy (`--at 5ms` at
/// HZ 100, `--keys @1ms` at HZ 250) is the first jiffy, with a note that
/// says so: the world is there to see, and nothing the kernel does
/// happens between 0 and the first tick.
#[test]
fn a_moment_under_one_jiffy_is_the_first_jiffy_with_a_note() {
    for (args, note) in [
        (
            &["snapshot", "--hz", "100", "--at", "5ms", "--size", "80x24"][..],
            "note: --at 5ms is under one jiffy at HZ 100: the snapshot is at one jiffy, 10 ms",
        ),
        (
            &["snapshot", "--hz", "250", "--keys", "@1ms space", "--size", "80x24"][..],
            "note: --keys @1ms is under one jiffy at HZ 250: the world runs on to one jiffy, 4 ms",
        ),
    ] {
        let out = dirtyviz().args(args).output().expect("runs");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(String::from_utf8_lossy(&out.stderr).trim_end(), note, "{args:?}");
        assert!(String::from_utf8_lossy(&out.stdout).contains("t 0.0 s"), "{args:?}");
    }
    // Paused on the first jiffy, one step goes on from there.
    let out = dirtyviz().args(["snapshot", "--hz", "250", "--keys", "@1ms space .", "--size", "80x24"]).output();
    assert!(String::from_utf8_lossy(&out.expect("runs").stdout).contains("t 0.1 s"));
    // 0 is the world before anything ran, as before.
    let out = dirtyviz().args(["snapshot", "--hz", "100", "--at", "0", "--size", "80x24"]).output().expect("runs");
    assert!(out.status.success() && out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// A mistake in a command's options points to that command's help, which
/// lists them (`dirtyviz --help` lists the dashboard's alone).
#[test]
fn a_mistaken_option_points_to_its_commands_help() {
    fails_with(&["plot", "-q"], "error: unexpected argument '-q' found (see dirtyviz plot --help)");
    fails_with(
        &["cases", "--table", "x"],
        "error: invalid value 'x' for '--table <TABLE>'; possible values: main, patch11, nfs-wq (see dirtyviz cases --help)",
    );
    fails_with(&["--bogus"], "error: unexpected argument '--bogus' found (see dirtyviz --help)");
    fails_cleanly(&["scenarios"], "unrecognized subcommand 'scenarios' (see dirtyviz --help)");
}

/// A lesson sets up its own comparisons: `lesson 03 --compare legacy` is
/// refused in one line (it opened lesson 03 and left --compare unsaid),
/// and neither `lesson --help` nor the completion scripts offer it (they
/// did, as a hidden option).
#[test]
fn a_lesson_refuses_compare() {
    for compare in [&["--compare", "legacy"][..], &["--compare=legacy"]] {
        fails_with(
            &[&["lesson", "03"][..], compare].concat(),
            "error: --compare does not apply to a lesson: its steps open the comparisons they teach \
             (c compares in the dashboard) (see dirtyviz lesson --help)",
        );
    }
    let script = |shell: &str| {
        let out = dirtyviz().args(["completions", shell]).output().expect("runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let bash = script("bash");
    let lesson = bash.lines().skip_while(|l| !l.contains("dirtyviz__subcmd__lesson)")).nth(1).expect("listed");
    assert!(lesson.contains("--marker") && !lesson.contains("--compare"), "{lesson}");
    let fish = script("fish");
    assert!(fish.contains("using_subcommand lesson\" -l marker"), "{fish}");
    assert!(!fish.contains("using_subcommand lesson\" -l compare"), "{fish}");
    let help = dirtyviz().args(["lesson", "--help"]).output().expect("runs");
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("--marker") && !help.contains("--compare"), "{help}");
    let help = dirtyviz().arg("--help").output().expect("runs");
    assert!(String::from_utf8_lossy(&help.stdout).contains("--compare <WHAT>"), "the dashboard keeps it");
}

/// An option written before the subcommand says where it goes, or that
/// the subcommand does not take it (clap said the subcommand "cannot be
/// used with" it).
#[test]
fn an_option_before_the_subcommand_says_where_it_goes() {
    fails_with(
        &["--seed", "3", "run"],
        "error: --seed goes after the subcommand: dirtyviz run --seed 3 (see dirtyviz run --help)",
    );
    fails_with(
        &["--no-record", "lesson", "03"],
        "error: --no-record goes after the subcommand: dirtyviz lesson 03 --no-record (see dirtyviz lesson --help)",
    );
    fails_with(
        &["--marker", "dot", "run"],
        "error: --marker is an option of the dashboard (dirtyviz with no command), not of dirtyviz run (see \
         dirtyviz run --help)",
    );
}

/// `view` without a file names the shipped trace too, and takes mono
/// (no colours) with --snapshot.
#[test]
fn view_names_its_example_and_takes_mono_with_snapshot() {
    fails_with(
        &["view"],
        "error: the following required arguments were not provided: <FILE|-> (a trace file, - for standard input, \
         or --example) (see dirtyviz view --help)",
    );
    let out = dirtyviz().args(["view", "--example", "--snapshot", "--theme", "mono"]).output().expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let plain = dirtyviz().args(["view", "--example", "--snapshot"]).output().expect("runs");
    assert_eq!(out.stdout, plain.stdout, "mono is the plain text");
    fails_cleanly(&["view", "--example", "--snapshot", "--theme", "dark"], "without colours");
    // What --at wants is --snapshot, not a trace.
    fails_with(
        &["view", "--example", "--at", "5s"],
        "error: the following required arguments were not provided: --snapshot (see dirtyviz view --help)",
    );
    // Every argument missing is named.
    fails_with(
        &["view", "--at", "5s"],
        "error: the following required arguments were not provided: --snapshot, <FILE|-> (a trace file, - for \
         standard input, or --example) (see dirtyviz view --help)",
    );
}

/// Every whole-number option says what it wants and its range, never
/// Rust's "invalid digit found in string".
#[test]
fn whole_number_options_name_what_they_want() {
    let cpus = "must be a whole number of CPUs from 1 to 4096";
    fails_cleanly(&["run", "--cpus", ""], cpus);
    fails_cleanly(&["run", "--cpus", "1e4"], cpus);
    fails_cleanly(&["run", "--cpus", "2.5"], cpus);
    fails_cleanly(&["snapshot", "--cpus", "5000"], cpus);
    fails_cleanly(&["run", "--dd", "1k"], "must be a whole number of dd tasks per bdi from 0 to 10000");
    fails_cleanly(&["plot", "--period-shift", ""], "must be a whole number from 2 to 32");
    fails_cleanly(&["run", "--period-shift", "33"], "must be a whole number from 2 to 32");
    for sub in ["snapshot", "plot"] {
        fails_cleanly(&[sub, "--lesson", "03", "--step", "0"], "must be a step's number: 1 (the first), 2, ...");
        fails_cleanly(&[sub, "--lesson", "03", "--step", "x"], "must be a step's number: 1 (the first), 2, ...");
    }
    for args in [&["run", "--cpus", "1e4"][..], &["run", "--dd", "1k"], &["snapshot", "--lesson", "03", "--step", "0"]]
    {
        let out = dirtyviz().args(args).output().expect("runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("invalid digit") && !err.contains("is not in"), "{args:?}: {err}");
    }
}

/// An error caused by an option names it, in the same form everywhere.
#[test]
fn errors_name_the_option_that_caused_them() {
    fails_with(
        &["run", "--duration", "0.0001ms"],
        "error: --duration must be at least one jiffy (1 ms at HZ 1000), got 0.0001 ms",
    );
    fails_with(&["plot", "--lesson", "03", "--step", "9"], "error: --step 9: lesson 03 has 5 steps");
    fails_with(&["snapshot", "--lesson", "03", "--step", "9"], "error: --step 9: lesson 03 has 5 steps");
    fails_with(
        &["run", "--scenario", "jbod-10hdd", "--dd", "2001"],
        "error: --dd 2001: 20010 tasks on 10 bdis, at most 20000",
    );
}

/// The help says what the options do: a ratio and its bytes are refused
/// together, the NFS table is in MiB/s, the held-out half is explained,
/// and the patch series is not called "the seed" beside --seed.
#[test]
fn the_help_says_what_happens() {
    let help = |sub: &str| {
        let out = dirtyviz().args([sub, "--help"]).output().expect("runs");
        String::from_utf8(out.stdout).expect("UTF-8").split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let run = help("run");
    assert!(run.contains("not with --dirty-bytes; replaces the scenario's dirty_bytes"), "{run}");
    assert!(run.contains("not with --dirty-background-bytes; replaces the scenario's dirty_background_bytes"), "{run}");
    assert!(!run.contains("clears"), "{run}");
    fails_cleanly(&["run", "--dirty-ratio", "20", "--dirty-bytes", "100M"], "cannot be used with");
    let cases = help("cases");
    assert!(cases.contains("MiB/s without and with it") && !cases.contains("MB/s"), "{cases}");
    assert!(cases.contains("chosen on the cases of even line number in assets/seed-table.txt"), "{cases}");
    assert!(cases.contains("the other half is held out to test them"), "{cases}");
    let all = help("cases") + &help("machines") + &help("help");
    assert!(!all.contains("the seed's") && !all.contains("in the seed "), "{all}");
    fails_with(
        &["cases", "--fit", "nope"],
        "error: --fit: unknown profile `nope`, expected one of 8p-4096M, 16p-8192M, 24p-16384M, 32p-32768M",
    );
}

/// Sizes are binary in any spelling, and an error lists the suffixes.
#[test]
fn sizes_are_binary_in_any_case() {
    let sizes = "sizes are binary: K, M, G, T (also KiB or KB, any case) = 2^10, 2^20, 2^30, 2^40 bytes";
    fails_cleanly(&["run", "--dirty-bytes", "100x"], sizes);
    fails_cleanly(&["run", "--memory", "1Q"], sizes);
    for spelled in ["100M", "100m", "100MiB", "100mib", "100MB", "100mb"] {
        let summary = crate::common::summary(
            &format!("size-{spelled}"),
            &["--dirty-bytes", spelled, "--duration", "10ms", "--scenario", "ssd-10dd"],
        );
        assert_eq!(crate::common::num(&summary["global"]["thresh_mb"]), 100.0, "{spelled}");
    }
}

/// A file that is not UTF-8, or holds a NUL byte, is told at the line and
/// column (in characters, as every `path:line:col`) of its first bad byte;
/// an empty scenario or lesson says it is empty and what it should hold.
#[test]
fn bad_bytes_are_told_at_their_place_and_an_empty_file_as_empty() {
    let dir = crate::common::empty_dir("bad-bytes");
    let path = |name: &str| dir.join(name).to_str().expect("utf-8 path").to_string();
    std::fs::write(
        dir.join("s7.ron"),
        b"Scenario(\n  name: \"\xc3\xa9\xff\xfe\", devices: [(name: \"sda\", kind: Hdd)])",
    )
    .expect("written");
    let s7 = path("s7.ron");
    fails_with(&["run", "--scenario", &s7], &format!("error: {s7}:2:11: not UTF-8 text"));
    let header = r#"{"dirtyviz":"0.1.0","keys_format":2,"start":{"Dashboard":{"scenario":{"devices":[{"name":"sda","kind":"Hdd"}]},"compare":null}},"progress":{"lessons":{}}}"#;
    std::fs::write(dir.join("r.jsonl"), [header.as_bytes(), b"\n{\"Advance\":\xff}\n"].concat()).expect("written");
    let r = path("r.jsonl");
    fails_with(&["replay", &r], &format!("error: {r}:2:12: not UTF-8 text"));
    std::fs::write(dir.join("nul.txt"), b"# tracer: nop\n  \xc3\xa9t\x00\n").expect("written");
    let nul = path("nul.txt");
    fails_with(
        &["view", &nul, "-q"],
        &format!("error: {nul}:2:5: binary data (a NUL byte), not the text of a trace: no writeback event in it"),
    );
    std::fs::write(dir.join("s3.ron"), "").expect("written");
    let s3 = path("s3.ron");
    fails_with(
        &["run", "--scenario", &s3],
        &format!(
            "error: {s3}: empty: a scenario file holds one `Scenario(...)`, e.g. \
             `Scenario(devices: [(name: \"sda\", kind: Hdd)])`"
        ),
    );
    fails_with(
        &["lesson", &s3],
        &format!("error: {s3}: empty: a lesson file holds one `Lesson(...)`, as the shipped ones in lessons/ do"),
    );
}
