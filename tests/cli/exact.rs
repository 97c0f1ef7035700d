//! The control law is the kernel's, bit for bit: every
//! `balance_dirty_pages` and `bdi_dirty_ratelimit` event the real binary
//! traces is recomputed from its logged inputs by the seed's C code
//! (tests/c/recompute.c) and must give the logged outputs.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::common::{dirtyviz, tmp};

/// Compiles the C checker once per test process.
fn checker() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| {
            let out = tmp("recompute");
            let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c/recompute.c");
            let status = Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".into()))
                .args(["-O2", "-std=gnu11", "-Wall", "-o"])
                .arg(&out)
                .arg(&src)
                .status()
                .expect("a C compiler (cc) is needed to recompute the trace with the kernel's code");
            assert!(status.success(), "compiling {} failed", src.display());
            out
        })
        .clone()
}

fn field(e: &Value, name: &str) -> i64 {
    e[name].as_i64().unwrap_or_else(|| panic!("field {name} in {e}"))
}

/// Runs a preset with a trace, feeds the trace to the C checker and
/// returns (balance_dirty_pages events, bdi_dirty_ratelimit events).
pub fn check_preset(scenario: &str, duration: &str, extra: &[&str]) -> (u64, u64) {
    let trace = tmp(&format!("exact-{}.jsonl", scenario.replace('/', "_")));
    let status = dirtyviz()
        .args(["run", "-q", "--scenario", scenario, "--duration", duration, "--trace"])
        .arg(&trace)
        .args(extra)
        .status()
        .expect("runs");
    assert!(status.success());
    let text = std::fs::read_to_string(&trace).expect("trace written");
    let mut input = String::new();
    let bdp = [
        "thresh",
        "bg_thresh",
        "limit",
        "freerun",
        "setpoint",
        "dirty",
        "bdi_thresh",
        "bdi_dirty",
        "bdi_setpoint",
        "write_bw",
        "dirty_ratelimit",
        "pos_ratio",
        "task_ratelimit",
        "pages_dirtied",
        "nr_dirtied_pause_before",
        "nr_dirtied_pause",
        "max_pause",
        "pause",
    ];
    let rl = [
        "thresh",
        "bg_thresh",
        "limit",
        "dirty",
        "bdi_thresh",
        "bdi_dirty",
        "write_bw",
        "dirtied",
        "elapsed",
        "dirty_rate",
        "pos_ratio",
        "task_ratelimit",
        "balanced_dirty_ratelimit",
        "prev_balanced_dirty_ratelimit",
        "dirty_ratelimit_before",
        "dirty_ratelimit",
    ];
    for line in text.lines() {
        let e: Value = serde_json::from_str(line).expect("each line is JSON");
        let fields: &[&str] = match e["event"].as_str().expect("event name") {
            "header" => {
                input.push_str(&format!("H {} {}\n", field(&e, "hz"), field(&e, "patches")));
                continue;
            }
            "balance_dirty_pages" => {
                input.push('B');
                &bdp
            }
            "bdi_dirty_ratelimit" => {
                input.push('R');
                &rl
            }
            _ => continue,
        };
        for f in fields {
            input.push_str(&format!(" {}", field(&e, f)));
        }
        input.push('\n');
    }
    std::fs::remove_file(&trace).ok();
    let mut child = Command::new(checker()).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("checker runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let feeder = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("checker ends");
    feeder.join().expect("feeder").expect("fed");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{scenario}: the kernel's code disagrees with the trace:\n{report}");
    let last = report.lines().last().expect("summary line");
    let n: Vec<u64> = last.split_whitespace().filter_map(|w| w.parse().ok()).collect();
    (n[0], n[1])
}

#[test]
fn default_and_hdd_10dd_are_exact() {
    for scenario in ["default", "hdd-10dd"] {
        let (b, r) = check_preset(scenario, "30s", &[]);
        assert!(b > 1000 && r > 100, "{scenario}: only {b} and {r} events");
    }
}

#[test]
fn many_tasks_and_many_disks_are_exact() {
    for (scenario, duration) in
        [("hdd-100dd", "20s"), ("ssd-10dd", "20s"), ("jbod-10hdd", "15s"), ("raid0-10hdd", "15s")]
    {
        let (b, r) = check_preset(scenario, duration, &[]);
        assert!(b > 1000 && r > 50, "{scenario}: only {b} and {r} events");
    }
}

#[test]
fn a_thousand_tasks_are_exact() {
    let (b, r) = check_preset("hdd-1000dd", "8s", &[]);
    assert!(b > 10_000 && r > 20, "only {b} and {r} events");
}

#[test]
fn other_hz_and_thresholds_are_exact() {
    for extra in [["--hz", "100"], ["--hz", "300"], ["--dirty-bytes", "20M"]] {
        let (b, r) = check_preset("hdd-10dd", "20s", &extra);
        assert!(b > 100 && r > 10, "{extra:?}: only {b} and {r} events");
    }
}
