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
