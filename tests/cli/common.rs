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
