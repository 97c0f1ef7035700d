//! How fast the simulation runs: every preset, every extreme world of
//! tests/data/extreme and two long or crowded variants, each a simulated
//! minute (the default preset also ten minutes), as `dirtyviz run` without
//! output files advances them.
//!
//! ```text
//! cargo bench                  # every world, the median of 3 runs each
//! cargo bench -- dd-10000 nfs  # the worlds whose names contain a word
//! BENCH_RUNS=9 cargo bench     # more runs per world
//! ```
//!
//! Each run is a child process of the bench, so that its peak resident
//! memory is its own. It prints simulated seconds per CPU second, the
//! events the world processed, CPU nanoseconds per event and the peak RSS.
//! CPU time is the thread's own (`/proc/thread-self/schedstat`, user and
//! system), so other load on the machine slows it less than wall time;
//! where /proc is missing the wall time stands in and RSS reads `-`.

use std::process::{Command, ExitCode};
use std::time::Instant;

use dirtyviz::scenario::{Overrides, Scenario};
use dirtyviz::sim::{NS_PER_SEC, World};

/// One world to time: a scenario (preset name or file), its length and an
/// optional dd count per bdi.
struct Bench {
    label: String,
    scenario: String,
    seconds: u64,
    dd: Option<u32>,
}

/// What one run measured.
#[derive(Clone, Copy)]
struct Measured {
    /// CPU time of the simulation \[ns\].
    cpu_ns: u64,
    /// Events the world processed.
    events: u64,
    /// Peak resident memory of the process \[KiB\]; `None` without /proc.
    peak_rss_kib: Option<u64>,
}

fn worlds() -> Vec<Bench> {
    let mut all = Vec::new();
    let world = |label: String, scenario: String, seconds, dd| Bench { label, scenario, seconds, dd };
    for name in dirtyviz::scenario::presets::names() {
        all.push(world(name.to_string(), name.to_string(), 60, None));
    }
    all.push(world("default 600 s".into(), "default".into(), 600, None));
    all.push(world("default --dd 10000".into(), "default".into(), 60, Some(10_000)));
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/extreme");
    let mut files: Vec<_> =
        std::fs::read_dir(&dir).map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect()).unwrap_or_default();
    files.sort();
    for path in files.into_iter().filter(|p| p.extension().is_some_and(|e| e == "ron")) {
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        all.push(world(format!("extreme/{stem}"), path.display().to_string(), 60, None));
    }
    all
}

/// CPU time this thread has used \[ns\], if the system tells.
fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// Peak resident memory of this process \[KiB\], if the system tells.
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Runs one world in this process (the child's side) and prints
/// `cpu_ns events peak_rss_kib`: the CPU time of one run. The kernel brings
/// a thread's CPU time up to date only every few milliseconds, so a world
/// that runs faster than [`MIN_CPU_NS`] is run again until the runs
/// together take that long, and the time is their mean.
fn run_child(scenario: &str, seconds: u64, dd: Option<u32>) -> Result<(), String> {
    let mut s = Scenario::resolve(scenario).map_err(|e| e.to_string())?;
    s.apply(&Overrides { dd, ..Overrides::default() });
    let cfg = s.to_world().map_err(|e| e.to_string())?;
    let (cpu0, wall0) = (thread_cpu_ns(), Instant::now());
    let mut repeats = 0u64;
    let (spent, events) = loop {
        let mut world = World::new(&cfg).map_err(|e| e.0)?;
        // One-second steps, as `dirtyviz run` takes them.
        for t in 1..=seconds {
            world.step_until(t * NS_PER_SEC);
        }
        repeats += 1;
        let spent = match (cpu0, thread_cpu_ns()) {
            (Some(a), Some(b)) => b - a,
            _ => wall0.elapsed().as_nanos() as u64,
        };
        if spent >= MIN_CPU_NS || repeats >= 1000 {
            break (spent, world.events());
        }
    };
    let rss = peak_rss_kib().map_or("-".to_string(), |k| k.to_string());
    println!("{} {events} {rss}", spent / repeats);
    Ok(())
}

/// A world is run again until this much CPU time has passed \[ns\].
const MIN_CPU_NS: u64 = 300_000_000;

/// Runs one world in a child process and reads what it measured.
fn measure(b: &Bench) -> Result<Measured, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find the bench itself: {e}"))?;
    let mut cmd = Command::new(exe);
    cmd.args(["--child", &b.scenario, &b.seconds.to_string()]);
    if let Some(dd) = b.dd {
        cmd.arg(dd.to_string());
    }
    let out = cmd.output().map_err(|e| format!("{}: cannot run: {e}", b.label))?;
    if !out.status.success() {
        return Err(format!("{}: {}", b.label, String::from_utf8_lossy(&out.stderr).trim()));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let fields: Vec<&str> = text.split_whitespace().collect();
    let bad = || format!("{}: unexpected output {text:?}", b.label);
    let [cpu, events, rss] = fields[..] else { return Err(bad()) };
    Ok(Measured {
        cpu_ns: cpu.parse().map_err(|_| bad())?,
        events: events.parse().map_err(|_| bad())?,
        peak_rss_kib: rss.parse().ok(),
    })
}

/// The median of the runs by CPU time (the upper one of an even count).
fn median(mut runs: Vec<Measured>) -> Measured {
    runs.sort_by_key(|m| m.cpu_ns);
    runs[runs.len() / 2]
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "--child") {
        let (Some(scenario), Some(Ok(seconds))) = (args.get(1), args.get(2).map(|s| s.parse())) else {
            eprintln!("usage: --child SCENARIO SECONDS [DD]");
            return ExitCode::from(2);
        };
        let dd = args.get(3).and_then(|d| d.parse().ok());
        return match run_child(scenario, seconds, dd) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("{e}");
                ExitCode::FAILURE
            }
        };
    }
    // `cargo bench` passes --bench; other arguments select worlds by name.
    let filters: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let runs: usize = std::env::var("BENCH_RUNS").ok().and_then(|r| r.parse().ok()).unwrap_or(3).max(1);
    println!("median of {runs} runs; CPU time of the simulation thread");
    println!(
        "{:<24} {:>6} {:>10} {:>8} {:>12} {:>9} {:>9}",
        "world", "sim s", "events", "CPU s", "sim s/CPU s", "ns/event", "peak RSS"
    );
    let mut failed = false;
    for b in worlds().iter().filter(|b| filters.is_empty() || filters.iter().any(|f| b.label.contains(f.as_str()))) {
        let measured: Result<Vec<_>, _> = (0..runs).map(|_| measure(b)).collect();
        match measured {
            Ok(m) => {
                let m = median(m);
                let cpu_s = m.cpu_ns as f64 / 1e9;
                let rss = m.peak_rss_kib.map_or("-".to_string(), |k| format!("{:.1} MB", k as f64 / 1024.0));
                println!(
                    "{:<24} {:>6} {:>10} {:>8.3} {:>12.0} {:>9.0} {:>9}",
                    b.label,
                    b.seconds,
                    m.events,
                    cpu_s,
                    b.seconds as f64 / cpu_s.max(1e-9),
                    m.cpu_ns as f64 / m.events.max(1) as f64,
                    rss
                );
            }
            Err(e) => {
                eprintln!("{e}");
                failed = true;
            }
        }
    }
    if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}
