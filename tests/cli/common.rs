//! Helpers shared by the integration tests.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// The binary under test.
pub fn dirtyviz() -> Command {
    Command::new(env!("CARGO_BIN_EXE_dirtyviz"))
}

/// A path in the tests' scratch directory, unique per name.
pub fn tmp(name: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(name)
}

/// Runs `dirtyviz run` with `args` and returns its summary JSON.
pub fn summary(name: &str, args: &[&str]) -> Value {
    let path = tmp(&format!("{name}.summary.json"));
    let out = dirtyviz().args(["run", "-q", "--summary-json"]).arg(&path).args(args).output().expect("runs");
    assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&std::fs::read(&path).expect("summary written")).expect("summary is JSON")
}

/// A number from a JSON value.
pub fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// The standard output of a run that must succeed (else its stderr is the
/// failure).
pub fn ok(out: &Output) -> String {
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).expect("UTF-8")
}

/// Waits until process `pid` catches SIGINT (its SigCgt mask in
/// /proc), so that a Ctrl-C sent next is its to handle.
pub fn wait_until_it_catches_sigint(pid: u32) {
    for _ in 0..500 {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        let caught = status.lines().find_map(|l| l.strip_prefix("SigCgt:")).map(str::trim).unwrap_or("0");
        // Signal N is bit N - 1; SIGINT is 2.
        if u64::from_str_radix(caught, 16).is_ok_and(|mask| mask & (1 << 1) != 0) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    panic!("process {pid} never caught SIGINT");
}

/// Starts `cmd`, sends it a Ctrl-C once it catches one, and checks that it
/// stops as every long command does: exit 130 and the one line saying
/// nothing was written. Returns what it printed on standard output.
pub fn interrupted(cmd: &mut Command) -> Vec<u8> {
    let child = cmd.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped()).spawn().expect("runs");
    wait_until_it_catches_sigint(child.id());
    let kill = Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill");
    assert!(kill.success());
    let o = child.wait_with_output().expect("ends");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert_eq!(err.trim_end(), "error: interrupted: no output was written, existing files are as they were");
    o.stdout
}

/// The shipped trace with dd-1294's and dd-1295's events moved to a
/// second writeback context of the same bdi (`cgroup_ino=2345`), its
/// controller at half the rates: dirty_ratelimit 51200 KB/s, and the
/// bdi_dirty_ratelimit event's write_bw, task_ratelimit and balanced
/// halved.
pub fn two_cgroups() -> PathBuf {
    let shipped = format!("{}/tests/data/ktrace/linux-6.18-4dd-dirty_bytes-400M.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(shipped).expect("fixture");
    let halved = ["dirty_ratelimit", "write_bw", "task_ratelimit", "balanced_dirty_ratelimit"];
    let moved = |l: &str| {
        let l = l.trim_start();
        (l.starts_with("dd-1294 ") || l.starts_with("dd-1295 ")) && !l.contains("global_dirty_state")
    };
    let mut out = String::new();
    for line in text.lines() {
        if !moved(line) {
            out += line;
        } else {
            let bdp = line.contains(" balance_dirty_pages: ");
            let words: Vec<String> = line
                .split(' ')
                .map(|w| match w.split_once('=') {
                    Some(("cgroup_ino", _)) => "cgroup_ino=2345".to_string(),
                    Some((k, v)) if halved.contains(&k) && !(bdp && k == "task_ratelimit") => {
                        format!("{k}={}", v.parse::<i64>().expect("integer") / 2)
                    }
                    _ => w.to_string(),
                })
                .collect();
            out += &words.join(" ");
        }
        out.push('\n');
    }
    let path = tmp("ktrace-two-cgroups.txt");
    std::fs::write(&path, out).expect("written");
    path
}

/// The shipped trace as a kernel of 64 KiB pages would print it: every
/// page count divided by 16, rates in KB/s and times as they are.
pub fn sixty_four_kib_pages() -> PathBuf {
    let shipped = format!("{}/tests/data/ktrace/linux-6.18-4dd-dirty_bytes-400M.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(shipped).expect("fixture");
    let pages = [
        "dirty",
        "writeback",
        "unstable",
        "bg_thresh",
        "thresh",
        "limit",
        "setpoint",
        "wb_setpoint",
        "wb_dirty",
        "dirtied",
        "dirtied_pause",
        "written",
    ];
    let mut out = String::new();
    for line in text.lines() {
        let bdr = line.contains(" bdi_dirty_ratelimit: ");
        let words: Vec<String> = line
            .split(' ')
            .map(|w| match w.split_once('=') {
                Some((k, v)) if pages.contains(&k) && !bdr => {
                    format!("{k}={}", v.parse::<i64>().expect("integer") / 16)
                }
                _ => w.to_string(),
            })
            .collect();
        out += &words.join(" ");
        out.push('\n');
    }
    let path = tmp("ktrace-64k-pages.txt");
    std::fs::write(&path, out).expect("written");
    path
}
