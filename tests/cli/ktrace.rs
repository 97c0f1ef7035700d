//! `dirtyviz view` and `dirtyviz live` on real kernel traces: the shipped
//! 6.18 trace (checked against an independent reading of the file),
//! captures of this project's own `live` runs, and hand-made traces in the
//! formats of 3.2, 3.3, 4.4, 5.4 and 6.1 (built from each release's
//! TP_printk format strings).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::{dirtyviz, num, sixty_four_kib_pages, tmp, two_cgroups};

fn fixture(name: &str) -> String {
    format!("{}/tests/data/ktrace/{name}", env!("CARGO_MANIFEST_DIR"))
}

const SHIPPED: &str = "linux-6.18-4dd-dirty_bytes-400M.txt";

/// `dirtyviz view FILE --summary-json` → the summary.
fn view(name: &str, extra: &[&str]) -> Value {
    view_file(&fixture(name), extra)
}

/// `dirtyviz view PATH --summary-json` → the summary.
fn view_file(path: &str, extra: &[&str]) -> Value {
    // Tests run in parallel and read the same fixtures: a summary of its own per call.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let name = Path::new(path).file_name().expect("a file").to_string_lossy();
    let out_path = tmp(&format!("ktrace-{name}-{call}.json"));
    let out =
        dirtyviz().args(["view", "-q", path, "--summary-json"]).arg(&out_path).args(extra).output().expect("runs");
    assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stdout.is_empty(), "-q prints nothing");
    serde_json::from_slice(&std::fs::read(&out_path).expect("summary written")).expect("JSON")
}

/// The events of one kind in a trace, as an independent, deliberately
/// naive reading sees them: the text after ` <event>: `, split into
/// `key=value` words.
fn naive_events(text: &str, event: &str) -> Vec<BTreeMap<String, i64>> {
    let marker = format!(" {event}: ");
    text.lines()
        .filter_map(|l| l.split_once(&marker).map(|(_, rest)| rest))
        .map(|rest| {
            rest.split_whitespace()
                .filter_map(|w| w.split_once('='))
                .map(|(k, v)| (k.to_string(), v.parse::<i64>().expect("integer")))
                .collect()
        })
        .collect()
}

/// Median, the mean of the two middle values for an even count.
fn median(mut v: Vec<i64>) -> f64 {
    v.sort_unstable();
    let n = v.len();
    (v[(n - 1) / 2] + v[n / 2]) as f64 / 2.0
}

fn nearest_rank(sorted: &[i64], q: f64) -> i64 {
    let k = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[k - 1]
}

#[test]
fn the_shipped_trace_matches_an_independent_reading_of_it() {
    let s = view(SHIPPED, &[]);
    let text = std::fs::read_to_string(fixture(SHIPPED)).expect("fixture");
    let bdp = naive_events(&text, "balance_dirty_pages");
    let bdr = naive_events(&text, "bdi_dirty_ratelimit");
    let gds = naive_events(&text, "global_dirty_state");
    // The issue's numbers, and the file's.
    assert_eq!((bdp.len(), bdr.len(), gds.len()), (260, 3, 11847));
    assert_eq!(s["events"]["global_dirty_state"], 11847);
    assert_eq!(s["skipped"]["total"], 0);
    assert_eq!(s["bdis"].as_array().expect("bdis").len(), 1);
    let b = &s["bdis"][0];
    assert_eq!(b["bdi"], "254:0");
    assert_eq!(
        (b["events"]["balance_dirty_pages"].clone(), b["events"]["bdi_dirty_ratelimit"].clone()),
        (260.into(), 3.into())
    );

    let mibps = |events: &[BTreeMap<String, i64>], key: &str| median(events.iter().map(|e| e[key]).collect()) / 1024.0;
    let p = &b["balance_dirty_pages"];
    let r = &b["bdi_dirty_ratelimit"];
    let pairs = [
        (&p["dirty_ratelimit_mbps"], mibps(&bdp, "dirty_ratelimit")),
        (&p["task_ratelimit_mbps"], mibps(&bdp, "task_ratelimit")),
        (&r["write_bw_mbps"], mibps(&bdr, "write_bw")),
        (&r["dirty_ratelimit_mbps"], mibps(&bdr, "dirty_ratelimit")),
        (&r["task_ratelimit_mbps"], mibps(&bdr, "task_ratelimit")),
        (&r["balanced_dirty_ratelimit_mbps"], mibps(&bdr, "balanced_dirty_ratelimit")),
    ];
    for (got, want) in pairs {
        assert_eq!(num(got), want);
    }
    // The same medians by hand from the file's values [KB/s / 1024].
    assert_eq!(num(&p["task_ratelimit_mbps"]), 160200.0 / 1024.0);
    assert_eq!(num(&r["write_bw_mbps"]), 493952.0 / 1024.0);
    assert_eq!(num(&r["balanced_dirty_ratelimit_mbps"]), 72704.0 / 1024.0);

    let mut sleeps: Vec<i64> = bdp.iter().map(|e| e["pause"]).filter(|&p| p > 0).collect();
    sleeps.sort_unstable();
    let pause = &p["pause_ms"];
    assert_eq!(pause["sleeps"], sleeps.len());
    assert_eq!(pause["no_sleep"], 260 - sleeps.len());
    for (q, key) in [(0.5, "p50"), (0.9, "p90"), (0.99, "p99")] {
        assert_eq!(pause[key], nearest_rank(&sleeps, q), "{key}");
    }
    assert_eq!((pause["p50"].clone(), pause["max"].clone()), (16.into(), 32.into()));

    for key in ["limit_mb", "setpoint_mb"] {
        let want = if key == "limit_mb" { 400.0 } else { 350.0 };
        for k in ["first", "min", "max"] {
            assert_eq!(num(&p[key][k]), want, "{key}.{k}");
        }
    }
    let tasks: Vec<(String, u64)> = b["tasks"]
        .as_array()
        .expect("tasks")
        .iter()
        .map(|t| (t["task"].as_str().expect("name").to_string(), t["events"].as_u64().expect("count")))
        .collect();
    let want = [("dd-1290", 68), ("dd-1293", 67), ("dd-1294", 60), ("dd-1295", 65)];
    assert_eq!(tasks, want.map(|(t, n)| (t.to_string(), n)));

    let g = &s["global"];
    assert_eq!(
        (g["thresh_pages"].clone(), g["bg_thresh_pages"].clone(), g["limit_pages"].clone()),
        (102400.into(), 51200.into(), 102400.into())
    );
    let k = &s["kernel"];
    assert_eq!((k["cpus"].clone(), k["hz"].clone()), (2.into(), 250.into()));
    assert!(k["generation"].as_str().expect("text").starts_with("6.15 or later"), "{k}");
    assert_eq!(num(&s["span"]["first_s"]), 1305.637996);
    assert_eq!(num(&s["span"]["last_s"]), 1325.634371);
}

/// One trace and what its summary must say: (file, tool, generation,
/// events by kind, CPUs, wrapped values by field).
type FormatCase = (&'static str, &'static str, &'static str, [u64; 3], u64, &'static [(&'static str, u64)]);

#[test]
fn every_release_format_is_read() {
    let cases: &[FormatCase] = &[
        ("linux-3.2-format.txt", "ftrace (trace file)", "3.2 ", [6, 3, 4], 4, &[]),
        (
            "linux-3.3-trace-cmd-wrapped.txt",
            "trace-cmd report",
            "3.3 to 4.2",
            [5, 1, 2],
            2,
            &[("pause", 1), ("think", 1)],
        ),
        ("linux-4.4-perf-cgroup.txt", "perf script", "4.3 to 5.7", [2, 1, 1], 4, &[]),
        ("linux-5.4-trace_pipe-two-bdis.txt", "ftrace (trace_pipe)", "4.x to 5.7", [2, 2, 1], 2, &[]),
        ("linux-6.1-with-noise.txt", "ftrace (trace file)", "5.8 to 6.14", [2, 0, 2], 8, &[]),
        (SHIPPED, "ftrace (trace file)", "6.15 or later", [260, 3, 11847], 2, &[]),
        // No header, and only CPU 0 in the CPU column of these 0.4 s.
        ("perf-6.18-loop-strict_limit-0.4s.txt", "perf script", "6.15 or later", [16, 1, 187], 1, &[]),
    ];
    for &(file, tool, generation, events, cpus, wrapped) in cases {
        let s = view(file, &[]);
        assert_eq!(s["format"], tool, "{file}");
        let g = s["kernel"]["generation"].as_str().expect("text");
        assert!(g.starts_with(generation), "{file}: {g}");
        let e = &s["events"];
        assert_eq!(
            [&e["balance_dirty_pages"], &e["bdi_dirty_ratelimit"], &e["global_dirty_state"]],
            events.map(Value::from).each_ref(),
            "{file}"
        );
        assert_eq!(s["kernel"]["cpus"], cpus, "{file}");
        let w: Vec<(String, u64)> =
            s["wrapped"].as_object().expect("map").iter().map(|(k, v)| (k.clone(), v.as_u64().expect("n"))).collect();
        assert_eq!(w, wrapped.iter().map(|&(k, n)| (k.to_string(), n)).collect::<Vec<_>>(), "{file}");
    }
}

#[test]
fn the_3_2_format_by_hand() {
    let s = view("linux-3.2-format.txt", &[]);
    let b = &s["bdis"][0];
    assert_eq!(b["bdi"], "8:16");
    let p = &b["balance_dirty_pages"];
    // task_ratelimit 24000 25000 26000 26000 27000 28000 KB/s.
    assert_eq!(num(&p["task_ratelimit_mbps"]), 26000.0 / 1024.0);
    assert_eq!(num(&p["dirty_ratelimit_mbps"]), 25.0);
    // Pauses 12 0 20 -4 8 16: four sleeps 8 12 16 20.
    let q = &p["pause_ms"];
    assert_eq!(
        [&q["sleeps"], &q["no_sleep"], &q["p50"], &q["p90"], &q["max"]],
        [4, 2, 12, 20, 20].map(Value::from).each_ref()
    );
    let r = &b["bdi_dirty_ratelimit"];
    assert_eq!(num(&r["write_bw_mbps"]), 100.0, "102400 KB/s");
    assert_eq!(num(&r["balanced_dirty_ratelimit_mbps"]), 25000.0 / 1024.0);
    assert_eq!(s["global"]["thresh_pages"], 25600);
    assert!(!s["kernel"]["fields"]["balance_dirty_pages"].as_array().expect("names").contains(&"period".into()));
}

#[test]
fn wrapped_values_are_flagged_and_left_out() {
    let s = view("linux-3.3-trace-cmd-wrapped.txt", &[]);
    let q = &s["bdis"][0]["balance_dirty_pages"]["pause_ms"];
    // Pauses 4, (wrapped), 8, 0, 12.
    assert_eq!([&q["sleeps"], &q["no_sleep"], &q["p50"], &q["max"]], [3, 1, 8, 12].map(Value::from).each_ref());
    assert_eq!(s["skipped"]["total"], 0, "a wrapped value does not drop its event");
}

#[test]
fn the_mean_dirty_count_is_over_the_time_its_readable_counts_cover() {
    // 4 s of global_dirty_state, 100 ms apart: 25600 + 0 pages (100 MiB)
    // throughout, but printed wrapped (a counter gone below 0) for the
    // first 2 s. The readable half means 100 MiB, not 100 × 2 s / 4 s.
    let mut text = String::new();
    for i in 0..41 {
        let dirty = if i < 20 { "18446744073709551615".to_string() } else { "25600".to_string() };
        text += &format!(
            "  dd-7 [000] ..... {:.6}: global_dirty_state: dirty={dirty} writeback=0 bg_thresh=25600 thresh=51200 limit=51200 dirtied=0 written=0\n",
            10.0 + f64::from(i) * 0.1
        );
    }
    let path = tmp("ktrace-wrapped-first-half.txt");
    std::fs::write(&path, text).expect("written");
    let s = view_file(path.to_str().expect("UTF-8"), &[]);
    let dirty = &s["global"]["dirty_mb"];
    assert_eq!([num(&dirty["median"]), num(&dirty["max"])], [100.0; 2], "{dirty}");
    assert!((num(&dirty["mean"]) - 100.0).abs() < 1e-6, "{dirty}");
    assert_eq!([num(&dirty["mean_from_s"]), num(&dirty["mean_to_s"])], [2.0, 4.0], "{dirty}");
    // Wrapped throughout: no mean either.
    let all = std::fs::read_to_string(&path).expect("read").replace("dirty=25600", "dirty=18446744073709551615");
    std::fs::write(&path, all).expect("written");
    let s = view_file(path.to_str().expect("UTF-8"), &[]);
    assert_eq!(
        s["global"]["dirty_mb"],
        serde_json::json!({"median": null, "mean": null, "mean_from_s": null, "mean_to_s": null, "mean_silent_s": 0.0, "mean_time_s": 0.0, "mean_unheld_s": 0.0, "max": null,
            "from_global_dirty_state": 0, "from_balance_dirty_pages": 0})
    );
}

#[test]
fn the_summary_says_what_it_counts_of_each_task() {
    let out = dirtyviz().args(["view", &fixture(SHIPPED)]).output().expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    // 260 balance_dirty_pages, of 4 dd; bdi_dirty_ratelimit not counted.
    assert!(
        text.contains("  tasks     dd-1290 68, dd-1293 67, dd-1294 60, dd-1295 65 (balance_dirty_pages passes each)\n"),
        "{text}"
    );
}

#[test]
fn bdis_by_device_number_and_tasks_by_comm_pid() {
    let s = view("linux-5.4-trace_pipe-two-bdis.txt", &[]);
    let bdis: Vec<&str> =
        s["bdis"].as_array().expect("bdis").iter().map(|b| b["bdi"].as_str().expect("name")).collect();
    assert_eq!(bdis, ["8:0", "8:16"]);
    assert_eq!(s["bdis"][1]["tasks"][0]["task"], "dd-778");
    let kworker =
        s["tasks"].as_array().expect("tasks").iter().find(|t| t["task"] == "kworker/u16:2-301").expect("kworker");
    assert_eq!(kworker["bdi_dirty_ratelimit"], 2);
    let s = view("live-6.18-two-loop-bdis-0.3s.txt", &[]);
    let per_bdi: Vec<(String, u64)> = s["bdis"]
        .as_array()
        .expect("bdis")
        .iter()
        .map(|b| (b["bdi"].as_str().expect("name").into(), b["events"]["balance_dirty_pages"].as_u64().expect("n")))
        .collect();
    assert_eq!(per_bdi, [("7:1".to_string(), 73), ("7:0".to_string(), 16)]);
    assert_eq!(s["bdis"][0]["tasks"].as_array().expect("tasks").len(), 2);
}

#[test]
fn each_writeback_context_of_a_bdi_is_summarised_on_its_own() {
    let path = two_cgroups().display().to_string();
    let s = view_file(&path, &[]);
    let text = std::fs::read_to_string(fixture(SHIPPED)).expect("fixture");
    let bdis = s["bdis"].as_array().expect("bdis");
    assert_eq!(bdis.len(), 2, "{s}");
    let (a, b) = (&bdis[0], &bdis[1]);
    assert_eq!((&a["bdi"], &a["cgroup"]), (&"254:0".into(), &"cgroup_ino 1".into()));
    assert_eq!((&b["bdi"], &b["cgroup"]), (&"254:0".into(), &"cgroup_ino 2345".into()));
    let count = |w: &Value, k: &str| w["events"][k].as_u64().expect("count");
    assert_eq!((count(a, "balance_dirty_pages"), count(a, "bdi_dirty_ratelimit")), (68 + 67, 2));
    assert_eq!((count(b, "balance_dirty_pages"), count(b, "bdi_dirty_ratelimit")), (60 + 65, 1));
    let tasks = |w: &Value| -> Vec<String> {
        w["tasks"].as_array().expect("tasks").iter().map(|t| t["task"].as_str().expect("name").into()).collect()
    };
    assert_eq!(
        (tasks(a), tasks(b)),
        (vec!["dd-1290".into(), "dd-1293".into()], vec!["dd-1294".into(), "dd-1295".into()])
    );

    // Each context's medians from its own tasks' lines of the original.
    let of = |comms: &[&str], event: &str, key: &str| -> Vec<i64> {
        let lines: Vec<&str> = text.lines().filter(|l| comms.iter().any(|c| l.trim_start().starts_with(c))).collect();
        naive_events(&lines.join("\n"), event).iter().map(|e| e[key]).collect()
    };
    let first = ["dd-1290 ", "dd-1293 "];
    let second = ["dd-1294 ", "dd-1295 "];
    let (pa, pb) = (&a["balance_dirty_pages"], &b["balance_dirty_pages"]);
    assert_eq!(num(&pa["dirty_ratelimit_mbps"]), 100.0);
    assert_eq!(num(&pb["dirty_ratelimit_mbps"]), 50.0);
    let bdp_task = |comms: &[&str]| median(of(comms, "balance_dirty_pages", "task_ratelimit")) / 1024.0;
    assert_eq!(num(&pa["task_ratelimit_mbps"]), bdp_task(&first));
    assert_eq!(num(&pb["task_ratelimit_mbps"]), bdp_task(&second));
    assert_ne!(bdp_task(&first), bdp_task(&second), "the two contexts' values differ");
    let (ra, rb) = (&a["bdi_dirty_ratelimit"], &b["bdi_dirty_ratelimit"]);
    // dd-1290's two events; dd-1294's one, halved [KB/s / 1024].
    assert_eq!(num(&ra["write_bw_mbps"]), (493952.0 + 527728.0) / 2.0 / 1024.0);
    assert_eq!(num(&ra["balanced_dirty_ratelimit_mbps"]), (42864.0 + 95100.0) / 2.0 / 1024.0);
    assert_eq!(num(&ra["dirty_ratelimit_mbps"]), 100.0);
    assert_eq!(num(&rb["write_bw_mbps"]), 239730.0 / 1024.0);
    assert_eq!(num(&rb["balanced_dirty_ratelimit_mbps"]), 36352.0 / 1024.0);
    assert_eq!(num(&rb["task_ratelimit_mbps"]), 104152.0 / 1024.0);
    assert_eq!(num(&rb["dirty_ratelimit_mbps"]), 50.0);

    // The text names each context by its cgroup.
    let out = dirtyviz().args(["view", &path]).output().expect("runs");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.contains("bdi 254:0 cgroup_ino 1 135 balance_dirty_pages, 2 bdi_dirty_ratelimit"), "{report}");
    assert!(report.contains("bdi 254:0 cgroup_ino 2345 125 balance_dirty_pages, 1 bdi_dirty_ratelimit"), "{report}");
    assert!(report.contains("throttle  dirty_ratelimit 50.0 "), "{report}");

    // The CSV has a column set per context, each its own controller.
    let csv = tmp("ktrace-two-cgroups.csv");
    let out = dirtyviz().args(["view", "-q", &path, "--csv"]).arg(&csv).output().expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&csv).expect("csv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    let col = |name: &str| header.iter().position(|c| *c == name).unwrap_or_else(|| panic!("{name} in {header:?}"));
    let (ca, cb) = (col("254:0 cgroup_ino 1.dirty_ratelimit_mbps"), col("254:0 cgroup_ino 2345.dirty_ratelimit_mbps"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert!(rows.iter().any(|r| !r[cb].is_empty()));
    assert!(rows.iter().all(|r| r[ca].is_empty() || r[ca] == "100.000"), "no 50 MiB/s in the first context");
    assert!(rows.iter().all(|r| r[cb].is_empty() || r[cb] == "50.000"), "no 100 MiB/s in the second");
}

/// Every number of `v` under a key naming MiB, by its path.
fn mib_figures(v: &Value, path: &str, in_mib: bool, out: &mut BTreeMap<String, f64>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                mib_figures(x, &format!("{path}.{k}"), in_mib || k.ends_with("_mb") || k.ends_with("_mbps"), out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                mib_figures(x, &format!("{path}[{i}]"), in_mib, out);
            }
        }
        Value::Number(n) if in_mib => {
            out.insert(path.to_string(), n.as_f64().expect("number"));
        }
        _ => {}
    }
}

#[test]
fn a_kernel_of_64_kib_pages_gives_the_same_mib_as_of_4_kib() {
    let path = sixty_four_kib_pages().display().to_string();
    let big = view_file(&path, &[]);
    let small = view(SHIPPED, &[]);
    assert_eq!((small["kernel"]["page_kb"].clone(), big["kernel"]["page_kb"].clone()), (4.into(), 64.into()));
    let (mut a, mut b) = (BTreeMap::new(), BTreeMap::new());
    mib_figures(&small, "", false, &mut a);
    mib_figures(&big, "", false, &mut b);
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    assert!(a.len() > 30, "{a:?}");
    // Page counts cut to a 16th lose less than one 64 KiB page each. The
    // rate dirtied under freerun counts the windows whose readings were
    // under it, and a count cut to a 16th may be where the whole was
    // not: within 0.2% (632.68 MiB/s against 632.10).
    for (k, want) in &a {
        let off = if k.ends_with("dirtied_free_mbps") { want * 0.002 } else { 1.0 / 16.0 };
        assert!((b[k] - want).abs() < off, "{k}: {} vs {want}", b[k]);
    }
    assert_eq!(num(&big["global"]["thresh_mb"]["first"]), 400.0);
    assert_eq!(num(&big["global"]["thresh_pages"]), 102400.0 / 16.0, "pages stay the kernel's");
    assert_eq!(num(&big["bdis"][0]["balance_dirty_pages"]["dirty_ratelimit_mbps"]), 100.0, "KB/s are not scaled");
    let out = dirtyviz().args(["view", &path]).output().expect("runs");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.contains("pages       64 KiB, not 4 ("), "{report}");
    assert!(
        report.contains("thresholds  bg 200.0  freerun 300.0  setpoint 350.0  limit 400.0  thresh 400.0 MiB"),
        "{report}"
    );

    // The CSV's MiB columns likewise.
    let csv = |trace: &str, name: &str| {
        let out_path = tmp(name);
        let out = dirtyviz().args(["view", "-q", trace, "--csv"]).arg(&out_path).output().expect("runs");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        std::fs::read_to_string(&out_path).expect("csv")
    };
    let (small, big) = (csv(&fixture(SHIPPED), "ktrace-4k.csv"), csv(&path, "ktrace-64k.csv"));
    let header: Vec<&str> = small.lines().next().expect("header").split(',').collect();
    assert_eq!(big.lines().next(), small.lines().next());
    let mut compared = 0;
    for (x, y) in small.lines().zip(big.lines()).skip(1) {
        for ((col, p), q) in header.iter().zip(x.split(',')).zip(y.split(',')) {
            if (col.ends_with("_mb") || col.ends_with("_mbps")) && !p.is_empty() {
                let (p, q): (f64, f64) = (p.parse().expect("number"), q.parse().expect("number"));
                // NR_DIRTIED and NR_WRITTEN cut to a 16th lose up to a
                // 64 KiB page at each end of a row's ~100 ms: 1.25 MiB/s.
                // dirty_mb adds dirty, writeback and unstable: three pages.
                let tol = if col.starts_with("dirtied") || col.starts_with("written") { 1.25 } else { 3.0 / 16.0 };
                assert!((p - q).abs() < tol + 0.002, "{col}: {q} vs {p}");
                compared += 1;
            }
        }
    }
    assert!(compared > 2000, "{compared}");
}

#[test]
fn one_cgroup_per_bdi_names_no_cgroup() {
    let s = view(SHIPPED, &[]);
    assert!(s["bdis"][0].get("cgroup").is_none(), "{}", s["bdis"][0]);
    let s = view("linux-4.4-perf-cgroup.txt", &[]);
    let names: Vec<(&str, &str)> = s["bdis"]
        .as_array()
        .expect("bdis")
        .iter()
        .map(|b| (b["bdi"].as_str().expect("name"), b["cgroup"].as_str().expect("cgroup")))
        .collect();
    assert_eq!(names, [("253:0", "cgroup /"), ("253:0", "cgroup /user.slice/user-1000.slice/session-2.scope")]);
}

#[test]
fn other_events_garbage_and_truncated_lines_are_counted_not_fatal() {
    let s = view("linux-6.1-with-noise.txt", &[]);
    let k = &s["skipped"];
    assert_eq!(
        [&k["total"], &k["other_events"], &k["malformed"], &k["unreadable"]],
        [7, 2, 3, 2].map(Value::from).each_ref()
    );
    // Where to look: the sched_switch, the line cut at `pau`, the binary noise.
    // The last line is noise with its line end: unreadable, not cut short.
    assert_eq!(
        [&k["first_other_event_line"], &k["first_malformed_line"], &k["first_unreadable_line"]],
        [13, 17, 20].map(Value::from).each_ref()
    );
    assert_eq!(k["last_line_cut"], false);
    assert_eq!(s["lines"], 24);
}

#[test]
fn events_the_ring_buffer_lost_are_counted_not_skipped() {
    // A trace read while the ring buffer overflowed: ftrace marks the gap
    // `CPU:N [LOST n EVENTS]`, trace-cmd report `CPU:N [n EVENTS DROPPED]`.
    let gds = "dd-900 [003] 50.000100: global_dirty_state: dirty=30000 writeback=100 bg_thresh=25000 thresh=50000 limit=50000 dirtied=100 written=50";
    let path = tmp("ktrace-lost.txt");
    std::fs::write(&path, format!("{gds}\nCPU:3 [LOST 1500 EVENTS]\n{gds}\nCPU:1 [26 EVENTS DROPPED]\n{gds}\n"))
        .expect("written");
    let out = dirtyviz().args(["view", path.to_str().expect("utf-8")]).output().expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("0 skipped"), "{text}");
    assert!(text.contains("lost        1526 events in 2 marks of an overflowed ring buffer"), "{text}");
}

#[test]
fn a_live_capture_reads_back_as_it_was_summarised() {
    // Saved by `dirtyviz live --save` on Linux 6.18, a dd throttled by a
    // loop device's strict_limit, stopped with SIGTERM after 3 s.
    let s = view("live-6.18-loop-strict_limit-sigterm.txt", &[]);
    let e = &s["events"];
    assert_eq!(
        [&e["balance_dirty_pages"], &e["bdi_dirty_ratelimit"], &e["global_dirty_state"]],
        [43, 4, 432].map(Value::from).each_ref()
    );
    assert_eq!(s["bdis"][0]["bdi"], "7:0");
    assert_eq!(s["format"], "ftrace (trace_pipe)");
}

#[test]
fn standard_input_is_read_with_a_dash() {
    let file = std::fs::File::open(fixture("linux-3.2-format.txt")).expect("fixture");
    let out = dirtyviz().args(["view", "-"]).stdin(file).output().expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("trace -: ftrace (trace file), kernel 3.2"), "{text}");
    assert!(text.contains("6 balance_dirty_pages, 3 bdi_dirty_ratelimit, 4 global_dirty_state"), "{text}");
}

fn fails_cleanly(args: &[&str], stdin: &[u8], expect: &str) {
    use std::io::Write;
    let mut child = dirtyviz()
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    child.stdin.take().expect("stdin").write_all(stdin).expect("fed");
    let out = child.wait_with_output().expect("ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: one line: {stderr}");
    assert!(stderr.contains(expect), "{args:?}: {stderr:?} should say {expect:?}");
    assert!(out.stdout.is_empty());
}

#[test]
fn a_trace_whose_every_writeback_event_is_unreadable_says_where_and_why() {
    // A release that renamed a field every one before printed: not
    // 'no writeback event', but the first such line and what it lacks.
    let gds = "global_dirty_state: dirty=1 writeback=2 bg_thresh=3 dirty_thresh=4 limit=5 dirtied=6 written=7";
    let text = format!("# tracer: nop\n  dd-7 [000] ..... 5.000000: {gds}\n  dd-7 [000] ..... 5.100000: {gds}\n");
    fails_cleanly(
        &["view", "-"],
        text.as_bytes(),
        "-:2:124: global_dirty_state: no `thresh=`, which every release prints (cut short?) (and 1 more writeback event not read)",
    );
}

#[test]
fn a_last_line_cut_within_a_number_is_not_read_and_crlf_lines_are() {
    // The 5.4 capture stopped in its last line's `pause=40`, at `pause=4`:
    // every field is there, one number wrong; the missing line end tells.
    let text = std::fs::read_to_string(fixture("linux-5.4-trace_pipe-two-bdis.txt")).expect("fixture");
    let at = text.find(" pause=40 ").expect("a pause of 40 ms") + " pause=4".len();
    let whole = format!("{}\n", &text[..text[..at].rfind('\n').expect("a line before")]);
    let cut = &text[..at];
    let path = tmp("ktrace-cut-in-a-number.txt");
    std::fs::write(&path, cut).expect("written");
    let out = dirtyviz().args(["view", path.to_str().expect("UTF-8")]).output().expect("runs");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let line = report.lines().find(|l| l.starts_with("malformed ")).unwrap_or_else(|| panic!("{report}"));
    let n = cut.lines().count();
    let col = cut.lines().last().expect("a last line").chars().count() - "pause=4".len() + 1;
    assert_eq!(
        line,
        format!(
            "malformed   {}:{n}:{col}: balance_dirty_pages: the last line has no line end and may be cut within `pause=4`: not read (if it is whole, end it with a line feed)",
            path.display()
        )
    );
    assert!(report.contains("; the last line has no line end and may be cut short: not read\n"), "{report}");
    let s = view_file(path.to_str().expect("UTF-8"), &[]);
    let w = view_file(
        &{
            let p = tmp("ktrace-cut-before.txt");
            std::fs::write(&p, &whole).expect("written");
            p.to_string_lossy().into_owned()
        },
        &[],
    );
    assert_eq!(s["pause_ms"], w["pause_ms"], "no pause of 4 ms read");
    assert_eq!(s["skipped"]["first_malformed_col"], Value::from(col));
    // The same trace with CRLF line ends reads as with LF.
    let crlf = tmp("ktrace-crlf.txt");
    std::fs::write(&crlf, text.replace('\n', "\r\n")).expect("written");
    let c = view_file(crlf.to_str().expect("UTF-8"), &[]);
    let lf = view("linux-5.4-trace_pipe-two-bdis.txt", &[]);
    for key in ["events", "skipped", "bdis", "global", "pause_ms", "kernel"] {
        assert_eq!(c[key], lf[key], "{key}");
    }
}

#[test]
fn an_empty_trace_or_one_without_writeback_events_is_one_line_and_exit_2() {
    fails_cleanly(&["view", "-"], b"", "-: empty");
    fails_cleanly(
        &["view", "-"],
        b"# tracer: nop\nsh-1 [000] 1.0: sched_switch: prev_pid=1\n\xff\n",
        "no writeback event in 3 lines",
    );
    fails_cleanly(&["view", "/nonexistent/trace.txt"], b"", "/nonexistent/trace.txt: cannot read");
    fails_cleanly(
        &["view", &fixture("linux-3.2-format.txt"), "--csv", "/nonexistent/dir/x.csv"],
        b"",
        "/nonexistent/dir/x.csv",
    );
}

#[test]
fn the_csv_uses_runs_column_names_on_the_traces_clock() {
    let path = tmp("ktrace-shipped.csv");
    let out = dirtyviz().args(["view", "-q", &fixture(SHIPPED), "--csv"]).arg(&path).output().expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&path).expect("csv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    for col in [
        "time_s",
        "dirty_mb",
        "thresh_mb",
        "bg_thresh_mb",
        "setpoint_mb",
        "limit_mb",
        "254:0.dirty_ratelimit_mbps",
        "254:0.write_bw_mbps",
        "254:0.pos_ratio",
        "254:0.tasks",
    ] {
        assert!(header.contains(&col), "{col} in {header:?}");
    }
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    // 20.0 s of trace, one row per 100 ms.
    assert_eq!(rows.len(), 200);
    let col = |name: &str| header.iter().position(|c| *c == name).expect("column");
    assert!(rows.iter().all(|r| r[col("thresh_mb")] == "400.000" && r[col("limit_mb")] == "400.000"));
    assert_eq!(rows[0][col("trace_time_s")], "1305.737996");
    assert_eq!(rows[199][col("time_s")], "20.0");
}

#[test]
fn fit_builds_a_scenario_with_the_traces_thresholds_and_runs_it_beside_it() {
    let s = view(SHIPPED, &["--fit"]);
    let sc = &s["model"]["scenario"];
    assert_eq!(
        (sc["dirty_bytes"].clone(), sc["dirty_background_bytes"].clone()),
        ((102400u64 * 4096).into(), (51200u64 * 4096).into())
    );
    assert_eq!((sc["cpus"].clone(), sc["hz"].clone(), sc["duration_s"].clone()), (2.into(), 250.into(), 20.0.into()));
    assert_eq!(sc["devices"][0]["name"], "254:0");
    // The disk wrote 892.6 MiB/s while writing, faster than the kernel's
    // estimate (bdi_dirty_ratelimit's write_bw= 493952 KiB/s, median), which
    // counts the time it waited for the dd: the device writes at the rate.
    let g = &s["trace"]["global"];
    assert_eq!(num(&g["written_busy_mbps"]).round(), 893.0);
    assert_eq!(num(&sc["devices"][0]["bandwidth_mbps"]), 892.6);
    let told = |what: &str| {
        let list = s["inferred"].as_array().expect("list");
        list.iter().find(|i| i["what"] == what).unwrap_or_else(|| panic!("{what} in {list:?}"))["from"].to_string()
    };
    assert!(
        told("bdi 254:0 write bandwidth").contains("faster than the median of bdi_dirty_ratelimit's write_bw, 482.4")
    );
    // Its 4 dd dirtied 632.1 MiB/s under freerun on its 2 CPUs: a page of
    // a 4 KiB write took 4096 B / 316.05 MiB/s = 12359.9 ns of a CPU, of
    // which the write() call is 1500 and the copy 10859.9: 359.7 MiB/s.
    // (The model's own copy, 1562.5 MiB/s, dirtied twice as fast as the
    // disk wrote, and sat at the setpoint.)
    assert_eq!((num(&g["dirtied_free_mbps"]) * 10.0).round() / 10.0, 632.1);
    assert_eq!(num(&sc["copy_mbps"]), 359.7);
    assert!(told("copy speed").contains("632.1 MiB/s under freerun (over 15.7 s): 4 writers on 2 of 2 CPUs"));
    // The text says both, and where they came from.
    let out = dirtyviz().args(["view", "--example", "--fit"]).output().expect("runs");
    let text = super::common::ok(&out);
    assert!(text.contains("\nmeasured    copy speed: 359.7 MiB/s a CPU; global_dirty_state's dirtied= grew"), "{text}");
    assert!(text.contains("\nmeasured    bdi 254:0 write bandwidth: 892.6 MiB/s; global_dirty_state's written="));
    // The kernel's dd slept where the model's, as fast, stayed under
    // freerun: the model's pause rows are empty, and the text says why.
    assert!(
        text.contains(
            "\ndiffers     the trace's tasks slept 71 times, the model's never (its pause rows are empty): the trace's \
             dirty count peaked at 342.1 MiB, over its freerun 300.0; the model's dirty count peaked at 203.9 MiB, \
             under its freerun 300.0\n"
        ),
        "{text}"
    );
    assert_eq!(s["differs"].as_array().map(Vec::len), Some(1));
    assert_eq!(sc["tasks"][0]["Dd"]["n"], 4);
    let compared: BTreeMap<String, (Value, Value)> = s["compare"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| (r["quantity"].as_str().expect("name").to_string(), (r["trace"].clone(), r["model"].clone())))
        .collect();
    for (q, pages) in [("thresh", 102400.0), ("bg_thresh", 51200.0), ("limit", 102400.0)] {
        assert_eq!(compared[q], (pages.into(), pages.into()), "{q} in pages");
    }
    assert_eq!(num(&s["model"]["summary"]["global"]["setpoint_mb"]), 350.0);
    assert!(s["trace"]["events"]["balance_dirty_pages"] == 260);
    let assumed: Vec<&str> =
        s["not_inferred"].as_array().expect("list").iter().map(|a| a["what"].as_str().expect("what")).collect();
    for what in ["memory", "device kind", "block size", "task start"] {
        assert!(assumed.contains(&what), "{what} in {assumed:?}");
    }
}

#[test]
fn fit_counts_the_steady_writers_not_a_task_that_dirtied_in_passing() {
    // The shipped trace's four dd, and a compiler throttled twice on the
    // same disk (as a capture on a busy machine has): the model runs 4 dd,
    // where it ran 5, one of them at a dd's pace for the whole trace.
    let text = std::fs::read_to_string(fixture(SHIPPED)).expect("fixture");
    let mut lines = Vec::new();
    let mut added = 0;
    for l in text.lines() {
        lines.push(l.to_string());
        if added < 2 && l.trim_start().starts_with("dd-1293 ") && l.contains(" balance_dirty_pages: ") {
            lines.push(l.replacen("dd-1293 ", "rustc-77", 1));
            added += 1;
        }
    }
    assert_eq!(added, 2);
    let path = tmp("ktrace-passing-task.txt");
    std::fs::write(&path, lines.join("\n") + "\n").expect("trace");
    let s = view_file(&path.display().to_string(), &["--fit"]);
    assert_eq!(s["model"]["scenario"]["tasks"][0]["Dd"]["n"], 4);
    let row: Vec<&Value> =
        s["compare"].as_array().expect("rows").iter().filter(|r| r["quantity"] == "254:0 tasks").collect();
    assert_eq!((row[0]["trace"].clone(), row[0]["model"].clone()), (4.0.into(), 4.0.into()));
    let told = s["inferred"].as_array().expect("list").iter().find(|i| i["what"] == "bdi 254:0 tasks").expect("told");
    assert_eq!(told["value"], "4 dd");
    assert!(told["from"].as_str().expect("text").contains("but for 1 with under a tenth"), "{told}");
}

#[test]
fn fit_sets_a_bdis_writeback_contexts_together_beside_its_one_model_device() {
    let path = two_cgroups().display().to_string();
    let s = view_file(&path, &["--fit"]);
    let rows = s["compare"].as_array().expect("rows");
    let row = |q: &str| -> (Value, Value) {
        let found: Vec<&Value> = rows.iter().filter(|r| r["quantity"] == q).collect();
        assert_eq!(found.len(), 1, "one row named {q}: {rows:?}");
        (found[0]["trace"].clone(), found[0]["model"].clone())
    };
    // Both contexts' write_bw medians summed; the model's one device at it.
    let (trace, model) = row("254:0 write_bw");
    assert_eq!(num(&trace), (493952.0 + 527728.0) / 2.0 / 1024.0 + 239730.0 / 1024.0);
    assert!(num(&model) > 0.0);
    // The device writes faster than that sum: at the rate the disk wrote
    // while writing.
    assert_eq!(num(&s["model"]["scenario"]["devices"][0]["bandwidth_mbps"]), 892.6);
    assert_eq!(row("254:0 tasks"), (4.0.into(), 4.0.into()));
    // Each context's controller on its own, with nothing of the model's.
    assert_eq!(row("254:0 cgroup_ino 1 dirty_ratelimit"), (100.0.into(), Value::Null));
    assert_eq!(row("254:0 cgroup_ino 2345 dirty_ratelimit"), (50.0.into(), Value::Null));
    let assumed = s["not_inferred"].as_array().expect("list");
    assert!(assumed.iter().any(|a| a["what"] == "bdi 254:0 cgroups"), "{assumed:?}");
    // One context per bdi: as before, the model's controller beside it.
    let s = view(SHIPPED, &["--fit"]);
    let one: Vec<&Value> =
        s["compare"].as_array().expect("rows").iter().filter(|r| r["quantity"] == "254:0 dirty_ratelimit").collect();
    assert_eq!(one.len(), 1);
    assert!(one[0]["model"].is_number(), "{one:?}");
}

/// One dd throttled on 8:0 from 1 s to 3 s while 25600 pages/s (100
/// MiB/s) are written, then a trickle till 11 s, and no
/// bdi_dirty_ratelimit event (a fast disk leaves the dd few passes).
fn dd_that_stops() -> PathBuf {
    let mut lines = Vec::new();
    for k in 0..=40u64 {
        let t = 1.0 + k as f64 * 0.05;
        lines.push(format!(
            "dd-1 [000] {t:.6}: global_dirty_state: dirty=4000 writeback=1000 bg_thresh=2560 thresh=5120 \
             limit=5120 dirtied={w} written={w}",
            w = 1000 + k * 1280
        ));
        lines.push(format!(
            "dd-1 [000] {t:.6}: balance_dirty_pages: bdi 8:0: limit=5120 setpoint=4480 dirty=5000 \
             wb_setpoint=4479 wb_dirty=5000 dirty_ratelimit=102400 task_ratelimit=25600 dirtied=128 \
             dirtied_pause=128 paused=0 pause=20 period=20 think=0 cgroup_ino=1"
        ));
    }
    for (t, w) in [(5.0, 1000 + 40 * 1280 + 10), (11.0, 1000 + 40 * 1280 + 20)] {
        lines.push(format!(
            "kworker/u8:1-9 [001] {t:.6}: global_dirty_state: dirty=20 writeback=0 bg_thresh=2560 \
             thresh=5120 limit=5120 dirtied={w} written={w}"
        ));
    }
    let path = tmp("ktrace-no-ratelimit.txt");
    std::fs::write(&path, lines.join("\n") + "\n").expect("trace");
    path
}

/// A bdi throttled below the global freerun ceiling (strict_limit here)
/// has a limit of its own the model does not: the fit says so, for that
/// bdi only; a trace throttled against the global limits says nothing.
#[test]
fn fit_says_when_a_bdi_was_throttled_under_the_global_freerun() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ktrace");
    let own = |file: &str| -> Vec<String> {
        let s = view_file(&data.join(file).display().to_string(), &["--fit"]);
        let assumed = s["not_inferred"].as_array().expect("list").iter();
        assumed.filter_map(|a| a["what"].as_str().filter(|w| w.ends_with(" own limit")).map(str::to_string)).collect()
    };
    assert_eq!(own("live-6.18-loop-strict_limit-sigterm.txt"), ["bdi 7:0 own limit"]);
    assert!(own("linux-6.18-4dd-dirty_bytes-400M.txt").is_empty());
    // Its dd dirtied at that limit's pace under freerun, not at their
    // own: the model copies at its own speed.
    let s = view_file(&data.join("live-6.18-loop-strict_limit-sigterm.txt").display().to_string(), &["--fit"]);
    assert!(s["model"]["scenario"]["copy_mbps"].is_null(), "{}", s["model"]["scenario"]);
    let assumed = s["not_inferred"].as_array().expect("list");
    let copy = assumed.iter().find(|a| a["what"] == "copy speed").expect("told");
    assert_eq!(copy["assumed"], "1562.5 MiB/s a CPU");
    assert!(copy["why"].as_str().expect("why").contains("throttled its tasks under freerun"), "{copy}");
    // Its tasks slept and the model's never did: told, with why.
    let differs = s["differs"].as_array().expect("list");
    assert_eq!(differs.len(), 1);
    let d = differs[0].as_str().expect("text");
    assert!(d.starts_with("the trace's tasks slept 4 times, the model's never (its pause rows are empty):"), "{d}");
    assert!(
        d.ends_with(
            "; bdi 7:0's throttling passes came under the global freerun, past a limit of its own (assumed: `bdi 7:0 \
             own limit`)"
        ),
        "{d}"
    );
    // Where both throttled, nothing differs so.
    let both = view_file(&data.join("linux-6.1-with-noise.txt").display().to_string(), &["--fit"]);
    assert_eq!(both["differs"], serde_json::json!([]));
}

#[test]
fn fit_without_bdi_dirty_ratelimit_takes_the_one_bdis_bandwidth_from_the_written_rate() {
    // The written rate tells the disk's speed, where the fit assumed 400 MiB/s.
    let path = dd_that_stops();
    let s = view_file(&path.display().to_string(), &["--fit"]);
    assert_eq!(num(&s["model"]["scenario"]["devices"][0]["bandwidth_mbps"]), 100.0);
    let told = s["not_inferred"].as_array().expect("list").iter().find(|a| a["what"] == "bdi 8:0 write bandwidth");
    assert_eq!(told.expect("told")["assumed"], "100.0 MiB/s");
    let out = dirtyviz().args(["view", "--fit"]).arg(&path).output().expect("runs");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("bdi 8:0 at 100.0 MiB/s"), "{text}");
    let line = text.lines().find(|l| l.starts_with("assumed     bdi 8:0 write bandwidth")).expect("said");
    assert_eq!(
        line,
        "assumed     bdi 8:0 write bandwidth: 100.0 MiB/s; global_dirty_state's written= grew at it in the 2.0 s \
         of writing (no bdi_dirty_ratelimit event of this bdi)"
    );
}

#[test]
fn fit_stops_a_bdis_dd_where_its_throttling_events_end() {
    // The dd's passes end 2 s into the 10 s trace: the model's dd stops
    // there, where it wrote (and slept) for all 10 s, 40 sleeps against
    // hundreds.
    let s = view_file(&dd_that_stops().display().to_string(), &["--fit"]);
    let dd = &s["model"]["scenario"]["tasks"][0]["Dd"];
    // At the tenth of a second after its last pass.
    assert_eq!((dd["n"].clone(), num(&dd["stop_s"])), (1.into(), 2.1));
    let told = s["not_inferred"].as_array().expect("list").iter().find(|a| a["what"] == "bdi 8:0 tasks stop");
    assert_eq!(told.expect("told")["assumed"], "at 2.0 s, the bdi's last event");
    // Throttled to the end: no stop.
    let shipped = view(SHIPPED, &["--fit"]);
    assert!(shipped["model"]["scenario"]["tasks"][0]["Dd"]["stop_s"].is_null(), "{}", shipped["model"]["scenario"]);
}

/// Three rounds of two dd on 8:0, back to back, 4 s each from 1 s: never
/// more than two at once, six tasks in all.
fn dd_in_turns() -> PathBuf {
    let mut lines = Vec::new();
    for k in 0..120u64 {
        let t = 1.0 + k as f64 * 0.1;
        let round = k / 40;
        lines.push(format!(
            "dd-1{round}0 [000] {t:.6}: global_dirty_state: dirty=4000 writeback=1000 bg_thresh=2560 thresh=5120 \
             limit=5120 dirtied={w} written={w}",
            w = 1000 + k * 2560
        ));
        for pid in [format!("1{round}0"), format!("1{round}1")] {
            lines.push(format!(
                "dd-{pid} [000] {t:.6}: balance_dirty_pages: bdi 8:0: limit=5120 setpoint=4480 dirty=5000 \
                 wb_setpoint=4479 wb_dirty=5000 dirty_ratelimit=51200 task_ratelimit=12800 dirtied=128 \
                 dirtied_pause=128 paused=0 pause=40 period=40 think=0 cgroup_ino=1"
            ));
        }
    }
    let path = tmp("ktrace-dd-in-turns.txt");
    std::fs::write(&path, lines.join("\n") + "\n").expect("trace");
    path
}

#[test]
fn fit_runs_each_task_from_its_first_traced_pass_to_its_last() {
    // Six dd, two at a time: the model runs two at a time, each round
    // from its first pass to the tenth of a second after its last, back
    // to back (stopping at its last left the disk 0.1 s idle between
    // rounds), where it ran all six from the start.
    let s = view_file(&dd_in_turns().display().to_string(), &["--fit"]);
    let tasks = s["model"]["scenario"]["tasks"].as_array().expect("groups");
    let groups: Vec<(Value, f64, Value)> =
        tasks.iter().map(|g| (g["Dd"]["n"].clone(), num(&g["Dd"]["start_s"]), g["Dd"]["stop_s"].clone())).collect();
    assert_eq!(
        groups,
        [(2.into(), 0.0, 4.0.into()), (2.into(), 4.0, 8.0.into()), (2.into(), 8.0, Value::Null)],
        "{}",
        s["model"]["scenario"]
    );
    let told = s["not_inferred"].as_array().expect("list").iter().find(|i| i["what"] == "bdi 8:0 tasks in turns");
    assert_eq!(told.expect("told")["assumed"], "6 dd in 3 groups, at most 2 at once");
    let start = s["not_inferred"].as_array().expect("list").iter().find(|a| a["what"] == "task start").expect("said");
    assert!(
        start["assumed"].as_str().expect("text").starts_with("each task from its first throttling event"),
        "{start}"
    );
    // The trace tells each task's window.
    let dd = &s["trace"]["bdis"][0]["tasks"][2];
    assert_eq!((dd["task"].clone(), num(&dd["first_s"]), num(&dd["last_s"])), ("dd-110".into(), 5.0, 8.9));
    // A task seen throughout runs throughout, as before.
    let shipped = view(SHIPPED, &["--fit"]);
    let all = shipped["model"]["scenario"]["tasks"].as_array().expect("groups");
    assert_eq!(all.len(), 1, "{all:?}");
    assert_eq!((all[0]["Dd"]["n"].clone(), num(&all[0]["Dd"]["start_s"])), (4.into(), 0.0));
    let turns =
        shipped["not_inferred"].as_array().expect("list").iter().any(|i| i["what"] == "bdi 254:0 tasks in turns");
    assert!(!turns);
}

#[test]
fn a_nul_byte_in_a_trace_with_events_skips_its_line_and_says_where() {
    // A line of binary data before the trace, and a NUL inside one of its
    // events: both lines unread, the first NUL named at its place.
    let text = std::fs::read_to_string(fixture(SHIPPED)).expect("fixture");
    let event = text.lines().find(|l| l.contains(" balance_dirty_pages: ")).expect("a pass");
    let spoilt = event.replacen(" dirty=", " dirty=\0", 1);
    let path = tmp("ktrace-nul.txt");
    std::fs::write(&path, format!("abc\0def\n{spoilt}\n{text}")).expect("trace");
    let out = dirtyviz().args(["view"]).arg(&path).output().expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.contains("2 unreadable from line 1"), "{report}");
    let said = format!(
        "binary      {}:1:4: a NUL byte (binary data, not a trace's text): its line is not read",
        path.display()
    );
    assert!(report.lines().any(|l| l == said), "{report}");
    let s = view_file(&path.display().to_string(), &[]);
    assert_eq!((s["skipped"]["first_nul_line"].clone(), s["skipped"]["first_nul_col"].clone()), (1.into(), 4.into()));
    assert_eq!(s["events"]["balance_dirty_pages"], 260, "the trace's own events, the spoilt copy not among them");
}

/// A directory shaped like tracefs: enable files, tracing_on, and a plain
/// file for trace_pipe.
fn fake_tracefs(name: &str) -> PathBuf {
    let root = tmp(&format!("tracefs-{name}"));
    let _ = std::fs::remove_dir_all(&root);
    for event in ["balance_dirty_pages", "bdi_dirty_ratelimit", "global_dirty_state"] {
        let dir = root.join("events/writeback").join(event);
        std::fs::create_dir_all(&dir).expect("dir");
        std::fs::write(dir.join("enable"), if event == "global_dirty_state" { "1\n" } else { "0\n" }).expect("enable");
    }
    std::fs::write(root.join("tracing_on"), "0\n").expect("tracing_on");
    std::fs::write(root.join("trace_pipe"), "").expect("pipe");
    root
}

fn enables(root: &Path) -> Vec<String> {
    ["balance_dirty_pages", "bdi_dirty_ratelimit", "global_dirty_state"]
        .iter()
        .map(|e| {
            std::fs::read_to_string(root.join("events/writeback").join(e).join("enable"))
                .expect("enable")
                .trim()
                .to_string()
        })
        .chain([std::fs::read_to_string(root.join("tracing_on")).expect("on").trim().to_string()])
        .collect()
}

/// Waits until `live` has enabled the events and tracing on `root`.
fn until_enabled(root: &Path) {
    let started = Instant::now();
    while enables(root) != ["1", "1", "1", "1"] {
        assert!(started.elapsed() < Duration::from_secs(20), "events never enabled: {:?}", enables(root));
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `dirtyviz live -q` on the fake tracefs at `root` with `args` after
/// it, once it has enabled the events.
/// Writes the shipped trace's lines into the fake tracefs's trace_pipe,
/// as the kernel would print them.
fn feed_shipped(root: &Path) {
    std::fs::write(root.join("trace_pipe"), std::fs::read(fixture(SHIPPED)).expect("fixture")).expect("events");
}

fn live_started(root: &Path, args: &[&std::ffi::OsStr]) -> std::process::Child {
    let child = dirtyviz().args(["live", "-q", "--tracefs"]).arg(root).args(args).spawn().expect("starts");
    until_enabled(root);
    child
}

#[test]
fn live_restores_every_enable_file_after_sigterm() {
    let root = fake_tracefs("sigterm");
    let summary = tmp("ktrace-live-sigterm.json");
    let mut child = live_started(&root, &["--summary-json".as_ref(), summary.as_os_str()]);
    let capture = std::fs::read_to_string(fixture("live-6.18-loop-strict_limit-sigterm.txt")).expect("fixture");
    std::fs::write(root.join("trace_pipe"), &capture).expect("events arrive");
    std::thread::sleep(Duration::from_millis(1500));
    // SAFETY: kill(2) on the child this test started.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGTERM) }, 0);
    let status = child.wait().expect("ends");
    assert!(status.success(), "{status}");
    assert_eq!(enables(&root), ["0", "0", "1", "0"], "as they were before");
    let s: Value = serde_json::from_slice(&std::fs::read(&summary).expect("summary")).expect("JSON");
    assert_eq!(s["events"]["balance_dirty_pages"], 43);
    assert_eq!(s["events"]["global_dirty_state"], 432);
}

#[test]
fn live_cut_short_by_a_signal_before_its_duration_writes_its_report_and_exits_128_plus_the_signal() {
    for (sig, code) in [(libc::SIGINT, 130), (libc::SIGTERM, 143)] {
        let root = fake_tracefs(&format!("cut-{sig}"));
        let summary = tmp(&format!("ktrace-live-cut-{sig}.json"));
        let _ = std::fs::remove_file(&summary);
        let mut child = live_started(
            &root,
            &["--duration".as_ref(), "60s".as_ref(), "--summary-json".as_ref(), summary.as_os_str()],
        );
        feed_shipped(&root);
        std::thread::sleep(Duration::from_millis(1500));
        // SAFETY: kill(2) on the child this test started.
        assert_eq!(unsafe { libc::kill(child.id() as i32, sig) }, 0);
        let status = child.wait().expect("ends");
        assert_eq!(status.code(), Some(code), "{status}");
        let s: Value = serde_json::from_slice(&std::fs::read(&summary).expect("summary")).expect("JSON");
        assert_eq!(s["events"]["balance_dirty_pages"], 260, "the report of what was read");
        assert_eq!(enables(&root), ["0", "0", "1", "0"], "as they were before");
    }
}

/// `--save` into a FIFO whose reader stopped reading: the write waits,
/// and a signal stops it (live catches signals its own way, which the
/// wait did not look at: no signal ended it).
#[test]
fn live_saving_into_a_fifo_nobody_reads_stops_at_a_signal() {
    use std::os::unix::fs::OpenOptionsExt;
    let root = fake_tracefs("save-fifo");
    let fifo = tmp("ktrace-live-save.fifo");
    crate::common::mkfifo(&fifo);
    // A reader that never reads: 2 MB of lines fill the pipe.
    let reader = std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(&fifo).expect("reader");
    let mut child = live_started(&root, &["--duration".as_ref(), "60s".as_ref(), "--save".as_ref(), fifo.as_os_str()]);
    feed_shipped(&root);
    std::thread::sleep(Duration::from_millis(1500));
    assert!(child.try_wait().expect("waits").is_none(), "writing, or waiting to");
    let status = crate::common::signalled(&mut child, libc::SIGTERM, "live --save into a full FIFO");
    drop(reader);
    assert_eq!(status.code(), Some(143), "{status}");
    assert_eq!(enables(&root), ["0", "0", "1", "0"], "as they were before");
}

/// `--csv` into a FIFO: its reader gets the CSV after the Ctrl-C that
/// ends the capture; with no reader, a signal stops the wait for one (it
/// waited, whatever the signals, for a reader that never came).
#[test]
fn live_writing_its_csv_into_a_fifo_waits_for_a_reader_until_a_signal() {
    let root = fake_tracefs("csv-fifo");
    let fifo = tmp("ktrace-live-csv.fifo");
    crate::common::mkfifo(&fifo);
    let mut child = live_started(&root, &["--csv".as_ref(), fifo.as_os_str()]);
    feed_shipped(&root);
    std::thread::sleep(Duration::from_millis(1000));
    let reading = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).expect("read"))
    };
    let status = crate::common::signalled(&mut child, libc::SIGINT, "live --csv into a FIFO read");
    assert!(status.success(), "Ctrl-C is how a capture without --duration ends: {status}");
    assert_eq!(reading.join().expect("reader").lines().count(), 201, "a header and 20 s of rows");
    let root = fake_tracefs("csv-fifo-unread");
    let mut child = live_started(&root, &["--duration".as_ref(), "1s".as_ref(), "--csv".as_ref(), fifo.as_os_str()]);
    feed_shipped(&root);
    std::thread::sleep(Duration::from_millis(2500));
    assert!(child.try_wait().expect("waits").is_none(), "waiting for a reader");
    let status = crate::common::signalled(&mut child, libc::SIGTERM, "live --csv into a FIFO nobody opens");
    assert_eq!(status.code(), Some(143), "{status}");
    assert_eq!(enables(&root), ["0", "0", "1", "0"], "as they were before");
    // Ctrl-C twice: the first ends the capture; a second within a second
    // of it is the same request (as for every command), and one after
    // that ends the wait for a reader, whenever the capture ended.
    let root = fake_tracefs("csv-fifo-twice");
    let mut child = live_started(&root, &["--csv".as_ref(), fifo.as_os_str()]);
    feed_shipped(&root);
    std::thread::sleep(Duration::from_millis(1000));
    // SAFETY: kill(2) on the child this test started.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    std::thread::sleep(Duration::from_millis(200));
    // SAFETY: as above.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    std::thread::sleep(Duration::from_millis(500));
    assert!(child.try_wait().expect("waits").is_none(), "the same request: still waiting for a reader");
    std::thread::sleep(Duration::from_millis(500));
    let status = crate::common::signalled(&mut child, libc::SIGINT, "live --csv, Ctrl-C a second later");
    assert_eq!(status.code(), Some(130), "{status}");
}

#[test]
fn live_refuses_to_write_over_its_own_trace_pipe() {
    let root = fake_tracefs("own-pipe");
    let out = dirtyviz()
        .args(["live", "--duration", "1s", "--tracefs"])
        .arg(&root)
        .arg("--csv")
        .arg(root.join("trace_pipe"))
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("is the same file as the trace pipe"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn live_writes_the_csv_view_writes_keeping_its_rows_out_of_memory() {
    let root = fake_tracefs("csv");
    let dir = tmp("ktrace-live-csv");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let csv = dir.join("live.csv");
    let mut child = live_started(&root, &["--duration".as_ref(), "3s".as_ref(), "--csv".as_ref(), csv.as_os_str()]);
    // The rows wait in a file beside the CSV while the capture runs,
    // unlinked at once: nothing is left there however dirtyviz ends.
    let spooled = || {
        std::fs::read_dir(&dir).expect("dir").filter(|e| e.as_ref().expect("entry").file_name() != "live.csv").count()
    };
    assert_eq!(spooled(), 0);
    let open_spool = std::fs::read_dir(format!("/proc/{}/fd", child.id()))
        .expect("fds")
        .filter_map(|e| std::fs::read_link(e.ok()?.path()).ok())
        .any(|l| {
            l.to_string_lossy().contains(".live.csv.rows.dirtyviz-") && l.to_string_lossy().ends_with("(deleted)")
        });
    assert!(open_spool, "the rows' file is open, unlinked");
    feed_shipped(&root);
    assert!(child.wait().expect("ends").success());
    assert_eq!(spooled(), 0, "nothing is left beside the CSV");
    let viewed = tmp("ktrace-view-for-live.csv");
    let out = dirtyviz().args(["view", "-q", &fixture(SHIPPED), "--csv"]).arg(&viewed).output().expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let (live, view) = (std::fs::read_to_string(&csv).expect("csv"), std::fs::read_to_string(&viewed).expect("csv"));
    assert_eq!(live.lines().count(), 201, "a header and 20 s of rows");
    assert_eq!(live, view, "the same lines make the same CSV");
}

#[test]
fn live_on_a_tracefs_without_the_writeback_events_is_one_line_and_exit_2() {
    let root = tmp("tracefs-empty");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).expect("dir");
    std::fs::write(root.join("trace_pipe"), "").expect("pipe");
    let out = dirtyviz().args(["live", "--duration", "1s", "--tracefs"]).arg(&root).output().expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("none of the writeback tracepoints"), "{stderr}");
}

#[test]
fn a_trace_that_is_no_text_file_is_one_line_and_exit_2() {
    // No line break for ever: refused at the first long line, without
    // filling the memory.
    fails_cleanly(&["view", "/dev/zero"], b"", "/dev/zero:1:1: binary data (a NUL byte), not the text of a trace");
    fails_cleanly(&["view", "-q", "/dev/zero", "--summary-json", "/dev/null"], b"", "binary data (a NUL byte)");
    let long = tmp("ktrace-long-line.txt");
    let mut text = std::fs::read(fixture("linux-3.2-format.txt")).expect("fixture");
    text.extend(std::iter::repeat_n(b'x', 70 << 10));
    std::fs::write(&long, text).expect("written");
    fails_cleanly(&["view", long.to_str().expect("UTF-8")], b"", "a line longer than 64 KiB");
    let dir = env!("CARGO_MANIFEST_DIR");
    fails_cleanly(&["view", dir], b"", &format!("{dir}: cannot read trace: a directory, not a regular file"));
    fails_cleanly(&["view", "/nonexistent/t.txt"], b"", "/nonexistent/t.txt: cannot read: No such file or directory");
    let out = dirtyviz().args(["view", "/nonexistent/t.txt"]).output().expect("runs");
    assert!(!String::from_utf8_lossy(&out.stderr).contains("os error"), "{out:?}");
}

#[test]
fn a_stamp_past_what_the_kernel_can_count_is_a_corrupted_line_not_a_time() {
    // No trace clock of the kernel comes near 2^62 ns (146 years; its u64
    // of nanoseconds ends at 584). A line stamped later (a corrupted digit
    // run) is skipped as malformed, where it shows, not taken as the
    // trace's end 3 × 10^12 years on.
    let gds =
        "global_dirty_state: dirty=25600 writeback=0 bg_thresh=25600 thresh=51200 limit=51200 dirtied=0 written=0";
    let text = format!(
        "dd-1 [000] 1.000000: {gds}\ndd-1 [000] 99999999999999999999.000000: {gds}\ndd-1 [000] 1.500000: {gds}\n"
    );
    let path = tmp("ktrace-stamp-past-u64.txt");
    std::fs::write(&path, &text).expect("written");
    let csv = tmp("ktrace-stamp-past-u64.csv");
    let out = dirtyviz().args(["view", "-q", path.to_str().expect("UTF-8"), "--csv"]).arg(&csv).output().expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rows = std::fs::read_to_string(&csv).expect("written");
    let times: Vec<&str> = rows.lines().skip(1).map(|l| l.split(',').next().expect("time_s")).collect();
    assert_eq!(times, ["0.1", "0.2", "0.3", "0.4", "0.5", "0.6"], "{rows}");
    let s = view_file(path.to_str().expect("UTF-8"), &[]);
    assert_eq!(s["span"]["duration_s"], 0.5);
    assert_eq!(
        [&s["skipped"]["malformed"], &s["skipped"]["first_malformed_line"], &s["skipped"]["first_malformed_col"]],
        [&Value::from(1), &Value::from(2), &Value::from(12)]
    );
    // Nor at the last stamp a u64 of nanoseconds holds: the dashboard's
    // charts add such times.
    let path = tmp("ktrace-stamp-u64-max.txt");
    std::fs::write(&path, text.replace("99999999999999999999.000000", "18446744073.709551")).expect("written");
    let out = dirtyviz().args(["view", path.to_str().expect("UTF-8"), "--snapshot"]).output().expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("t 0.500 / 0.500 s"), "1.0 to 1.5 s: the last event's time");
}

#[test]
fn a_binary_trace_dat_perf_data_or_gzip_says_which_command_prints_it() {
    // What `trace-cmd record` and `perf record` write, given where their
    // text belongs: the first bytes of each format, then binary data with
    // line feeds in it.
    let mut body = Vec::new();
    for i in 0..4000u32 {
        body.extend_from_slice(&i.wrapping_mul(2_654_435_761).to_le_bytes());
    }
    for (name, magic, says) in [
        (
            "trace.dat",
            &b"\x17\x08\x44tracing6\0"[..],
            "trace.dat:1: trace-cmd's binary trace.dat, not text: read what `trace-cmd report` prints of it",
        ),
        (
            "perf.data",
            b"PERFILE2",
            "perf.data:1: perf's binary perf.data, not text: read what `perf script` prints of it",
        ),
        (
            "trace.txt.gz",
            b"\x1f\x8b\x08\x00",
            "trace.txt.gz:1: gzip-compressed, not text: give what `zcat` prints of it on standard input, as `-`",
        ),
        (
            "trace.txt.xz",
            b"\xfd7zXZ\x00",
            "trace.txt.xz:1: xz-compressed, not text: give what `xzcat` prints of it on standard input, as `-`",
        ),
        (
            "trace.txt.bz2",
            b"BZh91AY&SY",
            "trace.txt.bz2:1: bzip2-compressed, not text: give what `bzcat` prints of it on standard input, as `-`",
        ),
        (
            "trace.txt.zst",
            b"\x28\xb5\x2f\xfd",
            "trace.txt.zst:1: zstd-compressed, not text: give what `zstdcat` prints of it on standard input, as `-`",
        ),
    ] {
        let path = tmp(&format!("ktrace-{name}"));
        std::fs::write(&path, [magic, &body].concat()).expect("written");
        let path = path.to_str().expect("UTF-8");
        fails_cleanly(&["view", path], b"", says);
        let what = says.split_once(":1: ").expect("a position").1;
        fails_cleanly(&["view", "-"], &[magic, &body].concat(), &format!("-:1: {what}"));
    }
}

/// On a machine where no task was throttled lately, global_dirty_state's
/// dirty_limit can lie far below thresh (the kernel updates it only past
/// freerun): the control law's limit is then thresh (hard_dirty_limit()),
/// and so is the limit the summary, the setpoint and the time series use.
#[test]
fn a_stale_dirty_limit_below_thresh_gives_way_to_thresh() {
    let gds = |t: &str| {
        format!(
            "kworker-9 [001] {t}: global_dirty_state: dirty=30000 writeback=100 bg_thresh=25000 thresh=50000 limit=8000 dirtied=100 written=50\n"
        )
    };
    let path = tmp("ktrace-stale-limit.txt");
    std::fs::write(&path, [gds("50.0"), gds("50.5"), gds("51.0")].concat()).expect("written");
    let p = path.to_str().expect("utf-8");
    let s = view_file(p, &[]);
    let g = &s["global"];
    assert_eq!(g["limit_mb"]["first"], 8000.0 / 256.0, "the traced value is kept");
    assert_eq!(g["hard_limit_mb"], 50000.0 / 256.0);
    // freerun (50000 + 25000) / 2 = 37500; setpoint (50000 + 37500) / 2.
    assert_eq!(g["freerun_mb"], 37500.0 / 256.0);
    assert_eq!(g["setpoint_mb"], 43750.0 / 256.0);

    let out = dirtyviz().args(["view", p]).output().expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("freerun 146.5  setpoint 170.9  limit 195.3  thresh 195.3 MiB"), "{text}");
    assert!(text.contains("global_dirty_state's dirty_limit 31.2 MiB lies below thresh"), "{text}");

    let csv = tmp("ktrace-stale-limit.csv");
    let out = dirtyviz().args(["view", "-q", p, "--csv"]).arg(&csv).output().expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let table = std::fs::read_to_string(&csv).expect("csv written");
    let head: Vec<&str> = table.lines().next().expect("header").split(',').collect();
    let col = |name: &str| head.iter().position(|h| *h == name).unwrap_or_else(|| panic!("{name}: {head:?}"));
    let rows: Vec<&str> =
        table.lines().skip(1).filter(|r| !r.split(',').nth(col("limit_mb")).unwrap_or("").is_empty()).collect();
    assert!(!rows.is_empty(), "{table}");
    for row in rows {
        let cells: Vec<&str> = row.split(',').collect();
        let mb = |name: &str| cells[col(name)].parse::<f64>().expect("a number");
        // The CSV gives MiB to three decimals.
        assert!((mb("limit_mb") - 50000.0 / 256.0).abs() < 0.001, "{row}");
        assert!((mb("setpoint_mb") - 43750.0 / 256.0).abs() < 0.001, "{row}");
    }
}

/// A machine that writes nothing while `live` reads is no mistake of the
/// user's: one line saying so and how to cause some, exit 1 (it ran, but
/// has nothing to report), no file written, the events put back. It
/// ended with `error: …/trace_pipe: empty`, exit 2.
#[test]
fn live_on_a_quiet_machine_says_no_writeback_event_and_exits_1() {
    let root = fake_tracefs("quiet");
    let dir = tmp("ktrace-live-quiet");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(dir.join("s.json"), "before\n").expect("write");
    let out = dirtyviz()
        .args([
            "live",
            "--duration",
            "1s",
            "--summary-json",
            "s.json",
            "--csv",
            "l.csv",
            "--save",
            "t.txt",
            "--tracefs",
        ])
        .arg(&root)
        .current_dir(&dir)
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let last = stderr.trim_end().lines().last().expect("a line");
    // The time it read, to a tenth: 1.1 s on a loaded machine.
    assert!(last.starts_with("error: no writeback event in 1") && last.contains(" s on "), "{stderr}");
    assert!(last.contains("dd if=/dev/zero"), "{stderr}");
    assert!(!stderr.contains("empty"), "{stderr}");
    assert_eq!(enables(&root), ["0", "0", "1", "0"], "as they were before");
    let left: Vec<_> = std::fs::read_dir(&dir).expect("dir").map(|e| e.expect("entry").file_name()).collect();
    assert_eq!(left, ["s.json"], "no file written or left beside");
    assert_eq!(std::fs::read_to_string(dir.join("s.json")).expect("kept"), "before\n");
}

#[test]
fn fit_compares_the_dirty_means_over_the_models_span_and_sampling() {
    // The model's mean leaves out its first 10 s (of 20) and reads a
    // sample every 100 ms: the trace's is taken the same way, the latest
    // dirty count (global_dirty_state's dirty + writeback + unstable, or a
    // balance_dirty_pages' dirty=) at each 100 ms from 10.0 s to 20.0 s,
    // not the whole trace's time-weighted 150.4 MiB.
    let text = std::fs::read_to_string(fixture(SHIPPED)).expect("shipped trace");
    let mut events: Vec<(f64, Option<i64>)> = Vec::new();
    for (event, dirty) in [("global_dirty_state", None), ("balance_dirty_pages", Some("dirty"))] {
        let marker = format!(" {event}: ");
        for l in text.lines().filter(|l| l.contains(&marker)) {
            let (head, rest) = l.split_once(&marker).expect("marker");
            let t: f64 = head.trim_end_matches(':').rsplit(' ').next().and_then(|s| s.parse().ok()).expect("time");
            let kv: BTreeMap<&str, i64> = rest
                .split_whitespace()
                .filter_map(|w| w.split_once('='))
                .map(|(k, v)| (k, v.parse().expect("n")))
                .collect();
            let d = match dirty {
                None => kv["dirty"] + kv["writeback"] + kv.get("unstable").copied().unwrap_or(0),
                Some(k) => kv[k],
            };
            events.push((t, Some(d)));
        }
    }
    events.sort_by(|a, b| a.0.total_cmp(&b.0));
    let t0 = events[0].0;
    let (mut held, mut i, mut sum, mut n) = (None, 0, 0.0, 0);
    for k in 1..=200 {
        let at = t0 + k as f64 * 0.1;
        while i < events.len() && events[i].0 < at {
            held = events[i].1.or(held);
            i += 1;
        }
        if k >= 100 {
            sum += held.expect("a count") as f64 * 4.0 / 1024.0;
            n += 1;
        }
    }
    let expected = sum / n as f64;
    let s = view(SHIPPED, &["--fit"]);
    let row = s["compare"]
        .as_array()
        .expect("rows")
        .iter()
        .find(|r| r["quantity"].as_str().is_some_and(|q| q.starts_with("dirty, mean")));
    let row = row.expect("the dirty mean's row");
    assert_eq!(row["quantity"], "dirty, mean over 10-20 s, every 100 ms");
    // Its span and sampling as numbers too.
    assert_eq!([num(&row["from_s"]), num(&row["to_s"]), num(&row["every_ms"])], [10.0, 20.0, 100.0]);
    assert_eq!(num(&row["trace_silent_s"]), 0.0);
    assert!((num(&row["trace"]) - expected).abs() < 0.01, "{} against {expected}", row["trace"]);
    assert_eq!(num(&row["model"]), num(&s["model"]["summary"]["global"]["dirty_mean_mb"]));
    // The kernel kept its dd under freerun (300 MiB), and so does the
    // model, its dd copying and its disk writing as fast as the trace's:
    // 197.0 MiB beside 148.5. At the model's own copying speed and the
    // kernel's write_bw estimate it held near its setpoint (350), at 319.3.
    let model = num(&row["model"]);
    assert!((190.0..205.0).contains(&model), "the model's {model}");
    // The trace's own summary keeps its whole-trace mean, and says over
    // what: from its first readable count to its last.
    let dirty = &s["trace"]["global"]["dirty_mb"];
    assert!((num(&dirty["mean"]) - 150.4).abs() < 0.05);
    assert_eq!(num(&dirty["mean_from_s"]), 0.0);
    assert!((num(&dirty["mean_to_s"]) - 19.996).abs() < 0.001, "{dirty}");
    assert_eq!(num(&dirty["mean_silent_s"]), 0.0);
    let g = &s["trace"]["global"];
    assert_eq!(num(&g["rates_from_s"]), 0.0);
    assert!((num(&g["rates_to_s"]) - 19.996).abs() < 0.001, "{g}");
}

#[test]
fn every_mean_the_summary_prints_says_its_span() {
    let out = dirtyviz().args(["view", &fixture(SHIPPED), "--fit"]).output().expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let line = |head: &str| text.lines().find(|l| l.starts_with(head)).unwrap_or_else(|| panic!("{head}:\n{text}"));
    assert!(
        line("dirty ").starts_with(
            "dirty       median 164.0 MiB  mean 150.4 over 0-20 s, each count held until the next  max 342.1  "
        ),
        "{text}"
    );
    assert!(line("dirty ").ends_with("dirtied 586.4 MiB/s  written 576.6 MiB/s over 0-20 s"), "{text}");
    assert!(line("dirty, mean over 10-20 s, every 100 ms [MiB]").len() > 50, "{text}");
}

/// The thinned real capture with every event after `from` s (of its
/// clock) moved `by` s later: a silence of the kernel in the middle.
fn silent_capture(name: &str, from: f64, by: f64) -> PathBuf {
    let text = std::fs::read_to_string(fixture("1dd-bs4k-20M-thinned.txt")).expect("capture");
    let mut out = String::new();
    for l in text.lines() {
        let stamp = l.split_whitespace().find(|w| w.ends_with(':') && w[..w.len() - 1].parse::<f64>().is_ok());
        match stamp.map(|w| (w, w[..w.len() - 1].parse::<f64>().expect("a time"))) {
            Some((w, t)) if t > from => out += &l.replacen(w, &format!("{:.6}:", t + by), 1),
            _ => out += l,
        }
        out.push('\n');
    }
    let path = tmp(name);
    std::fs::write(&path, out).expect("written");
    path
}

#[test]
fn a_silence_of_the_kernel_is_no_count_in_the_csv_the_means_and_the_summary() {
    // A real capture (3213.9 to 3226.4 s) with the events after 3220 s
    // moved 83 s on: no event from 6.07 to 89.09 s of its clock.
    let path = silent_capture("ktrace-silence.txt", 3220.0, 83.0);
    let csv = tmp("ktrace-silence.csv");
    let out =
        dirtyviz().args(["view", path.to_str().expect("UTF-8"), "--fit", "--csv"]).arg(&csv).output().expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let line = |head: &str| text.lines().find(|l| l.starts_with(head)).unwrap_or_else(|| panic!("{head}:\n{text}"));
    assert!(line("silence ").starts_with("silence     no events 6.07-89.09 s (83.0 s): "), "{text}");
    assert!(line("dirty ").contains(" over 0-95.47 s, each count held until the next, less 83.0 s of silence "));
    // The CSV: a row every 100 ms throughout, none with a count in the
    // silence; the thresholds hold.
    let rows: Vec<Vec<String>> = std::fs::read_to_string(&csv)
        .expect("csv")
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    let times: Vec<f64> = rows.iter().map(|r| r[0].parse().expect("time")).collect();
    assert!(times.windows(2).all(|w| (w[1] - w[0] - 0.1).abs() < 1e-6), "a row every 100 ms");
    let silent: Vec<&Vec<String>> =
        rows.iter().filter(|r| (6.2..=89.0).contains(&r[0].parse::<f64>().unwrap())).collect();
    assert_eq!(silent.len(), 829);
    assert!(silent.iter().all(|r| r[2].is_empty() && r[3].is_empty() && r[5] == "20.000"), "{:?}", silent[0]);
    assert!(!rows.iter().find(|r| r[0] == "6.1").expect("6.1")[2].is_empty());
    assert!(!rows.iter().find(|r| r[0] == "89.1").expect("89.1")[2].is_empty());
    // --fit's mean is the CSV's over 10-95.5 s, the silence left out.
    let counts: Vec<f64> = rows
        .iter()
        .filter(|r| (10.0..=95.51).contains(&r[0].parse::<f64>().unwrap()) && !r[2].is_empty())
        .map(|r| r[2].parse().expect("MiB"))
        .collect();
    let mean = counts.iter().sum::<f64>() / counts.len() as f64;
    let row = line("dirty, mean over 10-95.5 s, every 100 ms, less 79.0 s of the trace's silence [MiB]");
    let trace: f64 = row.split_whitespace().rev().nth(1).and_then(|v| v.parse().ok()).expect("a mean");
    assert!((trace - mean).abs() < 0.051, "{trace} against the CSV's {mean}");
    // The model's dd rest through the silence, and its mean leaves it out
    // too: it ran straight through (17.4 MiB beside the trace's 8.7), and
    // resting but counting the silence gave 2.9.
    assert!(line("assumed     bdi 254:0 tasks rest: ").contains("from 6.1 to 89.0 s, the trace's silence"), "{text}");
    let model: f64 = row.split_whitespace().next_back().and_then(|v| v.parse().ok()).expect("a mean");
    assert!((model / trace - 1.0).abs() < 0.25, "the model's {model} against the trace's {trace}");
    let s = view_file(path.to_str().expect("UTF-8"), &[]);
    assert_eq!(s["silences"].as_array().map(Vec::len), Some(1));
    assert!(
        (num(&s["silences"][0]["from_s"]) - 6.07).abs() < 0.01 && (num(&s["silences"][0]["to_s"]) - 89.09).abs() < 0.01
    );
    assert_eq!(num(&s["global"]["dirty_mb"]["mean_silent_s"]), num(&s["silences"][0]["duration_s"]));
}

/// At 80x24 the trace viewer's strip was a title and two rows (`dirty
/// 98.0 MiB · bg_thresh 200 MiB · …`, `limit 400 MiB · thresh 400 MiB`):
/// now one row of the thresholds, as on the simulation's dashboard, and
/// charts 1 and 2 plot on the rows it gave back.
#[test]
fn a_short_trace_viewer_keeps_its_strip_to_one_row() {
    let out =
        dirtyviz().args(["view", "--example", "--snapshot", "--at", "12s", "--size", "80x24"]).output().expect("runs");
    let text = super::common::ok(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[1], "bg_thresh 200 · freerun 300 · setpoint 350 · limit 400 · thresh 400 MiB", "{text}");
    assert!(!text.contains(" trace ─"), "{text}");
    // Chart 1's plot rows: between its top border and its x axis.
    let top = lines.iter().position(|l| l.starts_with("┌ 1 ")).expect("chart 1");
    let axis = lines.iter().skip(top).position(|l| l.starts_with("│MiB└")).expect("its axis");
    assert_eq!(axis - 1, 7, "{text}");
    // Taller, the strip has its title and every reading.
    let out =
        dirtyviz().args(["view", "--example", "--snapshot", "--at", "12s", "--size", "120x40"]).output().expect("runs");
    let text = super::common::ok(&out);
    assert!(text.contains(" trace ─") && text.contains("dirty 98.0 MiB · bg_thresh 200 MiB"), "{text}");
}

/// A short trace viewer's one-row strip gives what room the thresholds
/// leave to the bdi's readings, the throttled tasks first: at 100x30 the
/// bdi's numbers were nowhere on screen.
#[test]
fn a_short_trace_viewers_strip_gives_the_room_left_to_the_bdis_readings() {
    let row = |size: &str| {
        let args = ["view", "--example", "--snapshot", "--at", "2s", "--size", size];
        let text = super::common::ok(&dirtyviz().args(args).output().expect("runs"));
        text.lines().nth(1).expect("the strip").trim_end().to_string()
    };
    let thresholds = "bg_thresh 200 · freerun 300 · setpoint 350 · limit 400 · thresh 400 MiB";
    assert_eq!(row("80x24"), thresholds);
    assert_eq!(row("100x30"), format!("{thresholds} · throttled 4 (last 1 s)"));
    assert_eq!(row("130x33"), format!("{thresholds} · throttled 4 (last 1 s) · avg_write_bw 335 MiB/s"));
}

#[test]
fn a_last_line_without_its_line_end_is_read_when_its_last_value_cannot_go_on() {
    // Saved without its final line end, a line whose last value cannot
    // go on (`think=0`) is read, and the summary says so.
    let text = std::fs::read_to_string(fixture("linux-3.3-trace-cmd-wrapped.txt")).expect("fixture");
    let ended = text.rfind(" think=0\n").expect("a think of 0") + " think=0".len();
    let unended = tmp("ktrace-unended-think-0.txt");
    std::fs::write(&unended, &text[..ended]).expect("written");
    let out = dirtyviz().args(["view", unended.to_str().expect("UTF-8")]).output().expect("runs");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(!report.contains("\nmalformed "), "{report}");
    let n = text[..ended].lines().count();
    assert!(
        report.contains("0 malformed, 0 unreadable); the last line has no line end and was read: its `think=0` cannot be cut short\n"),
        "{report}"
    );
    let u = view_file(unended.to_str().expect("UTF-8"), &[]);
    let e = view_file(
        &{
            let p = tmp("ktrace-ended-think-0.txt");
            std::fs::write(&p, format!("{}\n", &text[..ended])).expect("written");
            p.to_string_lossy().into_owned()
        },
        &[],
    );
    assert_eq!((&u["events"], &u["pause_ms"]), (&e["events"], &e["pause_ms"]), "read as if it had its line end");
    assert_eq!(u["skipped"]["unended_read_line"], Value::from(n));
}

#[test]
fn the_dirty_mean_takes_the_readings_the_csv_rows_take() {
    // global_dirty_state for a second (1000 pages), then only
    // balance_dirty_pages for two (its `dirty=` 5000 pages): the 100 ms
    // rows take both, and so does the summary's mean, each count held
    // until the next. Taking global_dirty_state only, it read 3.9 MiB.
    let gds = |t: f64| {
        format!(
            "dd-1 [000] {t:.2}: global_dirty_state: dirty=800 writeback=200 bg_thresh=5000 thresh=10000 limit=10000 dirtied=1 written=1\n"
        )
    };
    let bdp = |t: f64| {
        format!(
            "dd-1 [000] {t:.2}: balance_dirty_pages: bdi 8:0: limit=10000 setpoint=8750 dirty=5000 wb_setpoint=8750 wb_dirty=5000 dirty_ratelimit=102400 task_ratelimit=102400 dirtied=256 dirtied_pause=128 paused=0 pause=4 period=4 think=0 cgroup_ino=1\n"
        )
    };
    let text: String =
        (0..30).map(|k| if k < 10 { gds(100.05 + k as f64 * 0.1) } else { bdp(100.05 + k as f64 * 0.1) }).collect();
    let path = tmp("ktrace-gds-stops.txt");
    std::fs::write(&path, &text).expect("written");
    let path = path.to_string_lossy().into_owned();
    let csv = tmp("ktrace-gds-stops.csv");
    let out = dirtyviz().args(["view", "-q", &path, "--csv"]).arg(&csv).output().expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let csv = std::fs::read_to_string(&csv).expect("CSV written");
    let mut lines = csv.lines();
    let head: Vec<&str> = lines.next().expect("a header").split(',').collect();
    let col = head.iter().position(|h| *h == "dirty_mb").expect("dirty_mb");
    let rows: Vec<f64> = lines.map(|l| l.split(',').nth(col).expect("a cell").parse().expect("a number")).collect();
    assert_eq!(rows.len(), 30);
    // Each row held 0.1 s until the next: the last row holds nothing.
    let rows_mean = rows[..29].iter().sum::<f64>() / 29.0;
    let s = view_file(&path, &[]);
    let d = &s["global"]["dirty_mb"];
    let mean = d["mean"].as_f64().expect("a mean");
    assert!((mean - rows_mean).abs() < 0.01, "summary {mean} vs rows {rows_mean}");
    assert!((mean - (10.0 * 1000.0 + 19.0 * 5000.0) / 29.0 * 4.0 / 1024.0).abs() < 1e-6, "{mean}");
    assert_eq!((&d["from_global_dirty_state"], &d["from_balance_dirty_pages"]), (&Value::from(10), &Value::from(20)));
    let out = dirtyviz().args(["view", &path]).output().expect("runs");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        report.contains("(dirty + writeback + unstable, 10 global_dirty_state and 20 balance_dirty_pages `dirty=`)"),
        "{report}"
    );
}

/// A trace of balance_dirty_pages alone (global_dirty_state not enabled)
/// gets the dirty row its `dirty=` gives, as its CSV rows and chart 1 do;
/// it had no dirty row at all. Without global_dirty_state the thresholds
/// and the dirtied and written counters are not in the trace: the report
/// leaves them out rather than print dashes.
#[test]
fn a_trace_of_balance_dirty_pages_alone_has_its_dirty_row() {
    let bdp = |t: f64, dirty: u64| {
        format!(
            "dd-1 [000] {t:.2}: balance_dirty_pages: bdi 8:0: limit=10000 setpoint=8750 dirty={dirty} wb_setpoint=8750 wb_dirty={dirty} dirty_ratelimit=102400 task_ratelimit=102400 dirtied=256 dirtied_pause=128 paused=0 pause=4 period=4 think=0 cgroup_ino=1\n"
        )
    };
    // 4000 pages for a second, then 6000 for a second.
    let text: String = (0..21).map(|k| bdp(100.0 + k as f64 * 0.1, if k < 10 { 4000 } else { 6000 })).collect();
    let path = tmp("ktrace-bdp-only.txt");
    std::fs::write(&path, &text).expect("written");
    let path = path.to_string_lossy().into_owned();
    let s = view_file(&path, &[]);
    let d = &s["global"]["dirty_mb"];
    assert_eq!(s["global"]["events"], Value::from(0));
    assert_eq!((&d["from_global_dirty_state"], &d["from_balance_dirty_pages"]), (&Value::from(0), &Value::from(21)));
    let mean = d["mean"].as_f64().expect("a mean");
    assert!((mean - 5000.0 * 4.0 / 1024.0).abs() < 1e-6, "{mean}");
    assert_eq!(d["max"].as_f64(), Some(6000.0 * 4.0 / 1024.0));
    let out = dirtyviz().args(["view", &path]).output().expect("runs");
    let report = String::from_utf8_lossy(&out.stdout);
    let row = report.lines().find(|l| l.starts_with("dirty ")).unwrap_or_else(|| panic!("a dirty row: {report}"));
    assert!(
        row.ends_with(
            "max 23.4  (dirty + writeback + unstable, 21 balance_dirty_pages `dirty=` alone: no \
             global_dirty_state, and no pass is printed below freerun)"
        ),
        "{row}"
    );
    assert!(row.contains("mean 19.5 over 0-2 s"), "{row}");
    assert!(!report.contains("thresholds"), "{report}");
}

/// The summary's pause quantiles carry their unit once, after the run of
/// them, as `run`'s do (it was `p50 16 ms  p90 28  p99 32  max 32`).
#[test]
fn the_pause_quantiles_end_in_their_unit() {
    let text = super::common::ok(&dirtyviz().args(["view", "--example"]).output().expect("runs"));
    let pauses = text.lines().find(|l| l.trim_start().starts_with("pauses")).unwrap_or_else(|| panic!("{text}"));
    assert_eq!(pauses.trim(), "pauses    71 sleeps  p50 16  p90 28  p99 32  max 32 ms; passes without a sleep: 189");
}

/// The most frequent value, the smallest of equals.
fn mode(values: impl Iterator<Item = i64>) -> i64 {
    let mut counts = BTreeMap::new();
    values.for_each(|v| *counts.entry(v).or_insert(0u64) += 1);
    let most = *counts.values().max().expect("values");
    *counts.iter().find(|&(_, &n)| n == most).expect("one").0
}

/// The thresholds line takes one rule for all five, the most frequent
/// values (it mixed thresh, bg and limit as first printed with freerun
/// and setpoint of the most frequent: `bg 2234.6  freerun 3325.2`, and
/// (4474.6 + 2234.6) / 2 is 3354.6), as the JSON does.
#[test]
fn the_thresholds_line_takes_one_rule_for_all_five() {
    let name = "live-6.18-loop-strict_limit-sigterm.txt";
    let text = std::fs::read_to_string(fixture(name)).expect("fixture");
    let gds = naive_events(&text, "global_dirty_state");
    let of = |key: &str| gds.iter().map(|e| e[key]).collect::<Vec<_>>();
    let (thresh, bg, limit) =
        (mode(of("thresh").into_iter()), mode(of("bg_thresh").into_iter()), mode(of("limit").into_iter()));
    // 1135476, 567045 and 1159064 pages of 4 KiB.
    let freerun = (thresh + bg) / 2;
    let hard = limit.max(thresh);
    let setpoint = (hard + freerun) / 2;
    let mib = |p: i64| p as f64 / 256.0;
    let range = |key: &str| {
        let v = of(key);
        (mib(*v.iter().min().expect("min")), mib(*v.iter().max().expect("max")))
    };
    let ((t0, t1), (l0, l1)) = (range("thresh"), range("limit"));
    let want = format!(
        "thresholds  bg {:.1}  freerun {:.1}  setpoint {:.1}  limit {:.1}  thresh {:.1} MiB (the most frequent of {} global_dirty_state events; thresh {t0:.1} to {t1:.1}, limit {l0:.1} to {l1:.1})",
        mib(bg),
        mib(freerun),
        mib(setpoint),
        mib(hard),
        mib(thresh),
        gds.len()
    );
    assert_eq!(
        want,
        "thresholds  bg 2215.0  freerun 3325.2  setpoint 3926.4  limit 4527.6  thresh 4435.5 MiB (the most frequent of 432 global_dirty_state events; thresh 4428.6 to 4474.6, limit 4521.6 to 4532.6)"
    );
    let report = super::common::ok(&dirtyviz().args(["view", &fixture(name)]).output().expect("runs"));
    let line = report.lines().find(|l| l.starts_with("thresholds")).unwrap_or_else(|| panic!("{report}"));
    assert_eq!(line, want);
    // The JSON's figures are those.
    let g = &view(name, &[])["global"];
    assert_eq!(
        [&g["thresh_pages"], &g["bg_thresh_pages"], &g["limit_pages"]],
        [thresh, bg, limit].map(Value::from).each_ref()
    );
    assert_eq!(
        [num(&g["freerun_mb"]), num(&g["setpoint_mb"]), num(&g["hard_limit_mb"])],
        [mib(freerun), mib(setpoint), mib(hard)]
    );
}

/// A bdi's pause_max_ms in the CSV is its longest sleep in the row, as
/// the summary counts sleeps: empty where no pass slept. It took the
/// passes without a sleep in too, and read -4 in linux-3.2-format.txt.
#[test]
fn the_csv_pause_max_is_of_sleeps_and_empty_without_one() {
    let path = tmp("ktrace-3.2-pauses.csv");
    let out =
        dirtyviz().args(["view", "-q", &fixture("linux-3.2-format.txt"), "--csv"]).arg(&path).output().expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&path).expect("csv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    let (t, pause) = (0, header.iter().position(|&c| c == "8:16.pause_max_ms").expect("the column"));
    let cells: Vec<(String, String)> =
        lines.map(|l| l.split(',').collect::<Vec<_>>()).map(|c| (c[t].to_string(), c[pause].to_string())).collect();
    // Rows of 100 ms from 412.1 s: pauses 12 and 0 (412.11, 412.14),
    // 20 (412.25), -4 (412.31, no sleep), 8 (412.42), 16 (412.55).
    let want = [("0.1", "12"), ("0.2", "20"), ("0.3", ""), ("0.4", "8"), ("0.5", "16"), ("0.6", "")];
    assert_eq!(cells, want.map(|(a, b)| (a.to_string(), b.to_string())));
}

/// A trace of other writeback events only is told so, not "no writeback
/// event" (it said `no writeback event in 3 lines`).
#[test]
fn a_trace_of_other_writeback_events_names_the_ones_missing() {
    let text = "  kworker/u8:2-123 [001] ..... 100.000001: writeback_start: bdi 8:0: sb_dev 0:0 nr_pages=1024 sync_mode=0 kupdate=0 range_cyclic=1 background=1 reason=background cgroup_ino=1\n\
                \x20 kworker/u8:2-123 [001] ..... 100.000201: writeback_written: bdi 8:0: sb_dev 0:0 nr_pages=0 sync_mode=0 kupdate=0 range_cyclic=1 background=1 reason=background cgroup_ino=1\n\
                \x20 kworker/u8:2-123 [001] ..... 100.000202: writeback_pages_written: 1024\n";
    fails_cleanly(
        &["view", "-"],
        text.as_bytes(),
        "-: 3 writeback events (writeback_start, writeback_written, writeback_pages_written) but none of the throttling ones dirtyviz reads: enable writeback:balance_dirty_pages, bdi_dirty_ratelimit and global_dirty_state",
    );
}

/// A stamp past 2^62 ns (the kernel prints up to 18446744073.709551 s)
/// is refused where it shows; it gave `no writeback event in 13 lines`.
#[test]
fn a_timestamp_too_late_to_read_is_refused_where_it_shows() {
    let text = std::fs::read_to_string(fixture("linux-3.2-format.txt")).expect("fixture");
    let late = text.replace("   412.", "   18446744073.");
    // The first event, line 7: `              dd-3015  [002]   ` is 31 characters.
    fails_cleanly(
        &["view", "-"],
        late.as_bytes(),
        "-:7:32: global_dirty_state: timestamp `18446744073.100000` lies past 4611686018 s (2^62 ns, 146 years), later than any clock the kernel stamps with reaches: a stamp corrupted or a clock gone wrong (and 12 more writeback events not read)",
    );
}

/// Cumulative counters that go down (two traces joined) are read as a
/// restart and said; the rates were taken from the first reading to the
/// last (11.7 MiB/s for 50 copies of the 6.18 trace, 586.4 for one).
/// A CPU count not stated by a header is a least.
#[test]
fn counters_that_go_down_restart_and_the_cpus_a_header_states() {
    let one = std::fs::read_to_string(fixture(SHIPPED)).expect("fixture");
    // The trace, then again 100 s later, its counters back where they began.
    let later: String = one
        .lines()
        .map(|l| {
            let stamp =
                l.split_whitespace().find(|t| t.ends_with(':') && t.trim_end_matches(':').parse::<f64>().is_ok());
            match stamp {
                Some(t) if !l.starts_with('#') => {
                    let moved = format!("{:.6}:", t.trim_end_matches(':').parse::<f64>().expect("seconds") + 100.0);
                    format!("{}\n", l.replacen(t, &moved, 1))
                }
                _ => format!("{l}\n"),
            }
        })
        .collect();
    let path = tmp("ktrace-shipped-then-100-s-later.txt");
    std::fs::write(&path, format!("{one}{later}")).expect("written");
    let path = path.to_string_lossy().into_owned();
    // NR_DIRTIED's and NR_WRITTEN's growth over the time it took, by hand.
    let gds = naive_events(&one, "global_dirty_state");
    let stamps: Vec<f64> = one
        .lines()
        .filter(|l| l.contains(" global_dirty_state: "))
        .map(|l| l.split(": global_dirty_state").next().expect("head").rsplit(' ').next().expect("stamp"))
        .map(|t| t.trim_end_matches(':').parse().expect("seconds"))
        .collect();
    let span = stamps[stamps.len() - 1] - stamps[0];
    let grew = |key: &str| (gds[gds.len() - 1][key] - gds[0][key]) as f64 / 256.0 / span;
    let s = view_file(&path, &[]);
    let g = &s["global"];
    assert!((num(&g["dirtied_mbps"]) - grew("dirtied")).abs() < 1e-9, "{g}");
    assert!((num(&g["written_mbps"]) - grew("written")).abs() < 1e-9, "{g}");
    assert!((num(&g["rates_time_s"]) - 2.0 * span).abs() < 1e-6, "{g}");
    assert_eq!(g["counter_drops"], 1);
    let out = dirtyviz().args(["view", &path]).output().expect("runs");
    let report = super::common::ok(&out);
    assert!(report.contains(&format!("dirtied {:.1} MiB/s", grew("dirtied"))), "{report}");
    assert!(report.contains("dirtied 586.4 MiB/s  written 576.6 MiB/s over 40.0 s of readings in 0-120 s"), "{report}");
    assert!(
        report.contains("\ncounters    NR_DIRTIED or NR_WRITTEN went down 1 time (traces joined? a reboot?)"),
        "{report}"
    );
    // The shipped trace has `#P:2`; a trace without a header, CPUs [000] and [001] at least.
    assert!(
        report.starts_with(&format!(
            "trace {path}: ftrace (trace file), kernel 6.15 or later (wb_setpoint, wb_dirty), 2 CPUs,"
        )),
        "{report}"
    );
    let headless: String = one.lines().filter(|l| !l.starts_with('#')).map(|l| format!("{l}\n")).collect();
    std::fs::write(&path, headless).expect("written");
    let report = super::common::ok(&dirtyviz().args(["view", &path]).output().expect("runs"));
    assert!(report.contains(", at least 2 CPUs, HZ 250\n"), "{report}");
}

/// The stamp of an event line, if it is one.
fn stamp_of(line: &str) -> Option<f64> {
    if line.starts_with('#') {
        return None;
    }
    line.split_whitespace().find(|t| t.ends_with(':'))?.trim_end_matches(':').parse().ok()
}

/// `dirtyviz view PATH --csv` → its lines.
fn csv_of(path: &str) -> Vec<String> {
    let name = Path::new(path).file_name().expect("a file").to_string_lossy().into_owned();
    let out_path = tmp(&format!("ktrace-{name}.csv"));
    let out = dirtyviz().args(["view", path, "--csv", &out_path.to_string_lossy()]).output().expect("runs");
    super::common::ok(&out);
    std::fs::read_to_string(&out_path).expect("csv").lines().map(String::from).collect()
}

/// Neighbouring lines a few ms apart swapped (per-CPU buffers merged out
/// of order) are read as the sorted file is: the same summary, rows and
/// CSV, and a note of how many were put back in order.
#[test]
fn events_a_few_ms_out_of_order_are_read_in_time_order() {
    let text = std::fs::read_to_string(fixture(SHIPPED)).expect("fixture");
    let mut lines: Vec<&str> = text.lines().collect();
    let (mut swapped, mut largest) = (0, 0.0f64);
    for i in (20..lines.len() - 1).step_by(50) {
        let (Some(a), Some(b)) = (stamp_of(lines[i]), stamp_of(lines[i + 1])) else { continue };
        lines.swap(i, i + 1);
        if b > a {
            swapped += 1;
            largest = largest.max(b - a);
        }
    }
    assert!(swapped > 200 && largest > 0.02 && largest < 0.05, "{swapped} {largest}");
    let path = tmp("ktrace-jittered.txt");
    std::fs::write(&path, lines.join("\n") + "\n").expect("written");
    let path = path.to_string_lossy().into_owned();
    let (mut got, mut want) = (view_file(&path, &[]), view(SHIPPED, &[]));
    assert_eq!(got["reordered"]["events"], swapped);
    assert!((num(&got["reordered"]["largest_s"]) - largest).abs() < 1e-9, "{}", got["reordered"]);
    assert_eq!((got["backwards"]["events"].as_u64(), got["stretches"].as_array().map(Vec::len)), (Some(0), Some(1)));
    for s in [&mut got, &mut want] {
        s["source"] = Value::Null;
        s["reordered"] = Value::Null;
    }
    assert_eq!(got, want);
    let (csv, sorted) = (csv_of(&path), csv_of(&fixture(SHIPPED)));
    assert_eq!(csv, sorted);
    let out = dirtyviz().args(["view", &path]).output().expect("runs");
    let report = super::common::ok(&out);
    assert!(
        report.contains(&format!(
            "\nreordered   {swapped} events stamped up to {:.1} ms before one printed before it (per-CPU buffers): read in time order\n",
            largest * 1e3
        )),
        "{report}"
    );
    assert!(report.contains("\nspan        1305.637996 to 1325.634371 s (20.0 s)\n"), "{report}");
}

/// Two captures joined, the second's clock lower (`cat b a`): two
/// stretches, each figure over both, none across the step back, and a
/// warning naming it; before, `mean 163.3 over 690.1376-19.9964 s`.
#[test]
fn captures_joined_with_the_clock_going_back_are_read_as_two_stretches() {
    let (a, b) = (fixture("live-6.18-loop-strict_limit-sigterm.txt"), fixture(SHIPPED));
    let joined = [std::fs::read_to_string(&a).expect("a"), std::fs::read_to_string(&b).expect("b")].concat();
    let path = tmp("ktrace-joined-going-back.txt");
    std::fs::write(&path, &joined).expect("written");
    let path = path.to_string_lossy().into_owned();
    let s = view_file(&path, &[]);
    let (sa, sb) = (view_file(&a, &[]), view_file(&b, &[]));
    assert_eq!(
        s["stretches"],
        serde_json::json!([{"first_s": 1995.775565, "last_s": 1998.770543}, {"first_s": 1305.637996, "last_s": 1325.634371}])
    );
    // The first event of the second: line 480 + 12 header lines of the shipped trace.
    assert_eq!((s["backwards"]["events"].as_u64(), s["backwards"]["largest_line"].as_u64()), (Some(1), Some(492)));
    assert!((num(&s["backwards"]["largest_s"]) - (1998.770543 - 1305.637996)).abs() < 1e-6);
    let (da, db) = (num(&sa["span"]["duration_s"]), num(&sb["span"]["duration_s"]));
    assert!((num(&s["span"]["duration_s"]) - (da + db)).abs() < 1e-6, "{}", s["span"]);
    // The mean and the rates: each stretch's, weighted by its time.
    let (g, ga, gb) = (&s["global"], &sa["global"], &sb["global"]);
    let time = |g: &Value, k: &str| num(&g[k]);
    let (ta, tb) = (time(&ga["dirty_mb"], "mean_time_s"), time(&gb["dirty_mb"], "mean_time_s"));
    let mean = (num(&ga["dirty_mb"]["mean"]) * ta + num(&gb["dirty_mb"]["mean"]) * tb) / (ta + tb);
    assert!((num(&g["dirty_mb"]["mean"]) - mean).abs() < 1e-9, "{} vs {mean}", g["dirty_mb"]);
    let (ra, rb) = (time(ga, "rates_time_s"), time(gb, "rates_time_s"));
    for k in ["dirtied_mbps", "written_mbps"] {
        let rate = (num(&ga[k]) * ra + num(&gb[k]) * rb) / (ra + rb);
        assert!((num(&g[k]) - rate).abs() < 1e-9, "{k}: {} vs {rate}", g[k]);
    }
    assert_eq!(g["counter_drops"], 0, "the restart is the stretch's, not a counter's");
    let out = dirtyviz().args(["view", &path]).output().expect("runs");
    let report = super::common::ok(&out);
    assert!(
        report.contains(
            "\nspan        1995.775565 to 1998.770543 s, then 1305.637996 to 1325.634371 s (23.0 s in 2 stretches of time order)\n"
        ),
        "{report}"
    );
    assert!(
        report.contains(&format!(
            "\nbackwards   1 step back in time by more than 1 s, the largest 693.1 s at {path}:492 (traces joined? a stamp corrupted?)"
        )),
        "{report}"
    );
    assert!(report.contains(&format!("mean {:.1} over 23.0 s in 2 stretches", mean)), "{report}");
    // No span reads backwards.
    for w in report.split(" over ").skip(1) {
        if let Some((a, b)) = w.split(" s").next().and_then(|r| r.split_once('-'))
            && let (Ok(a), Ok(b)) = (a.parse::<f64>(), b.parse::<f64>())
        {
            assert!(a <= b, "{a}-{b} in {report}");
        }
    }
    // The CSV: its time only goes on; each row's own stamp lies in its
    // stretch, none between them.
    let csv = csv_of(&path);
    let rows: Vec<Vec<&str>> = csv[1..].iter().map(|l| l.split(',').collect()).collect();
    let times: Vec<f64> = rows.iter().map(|r| r[0].parse().expect("time_s")).collect();
    assert!(times.windows(2).all(|w| w[0] < w[1]));
    let stamps: Vec<Option<f64>> = rows.iter().map(|r| r[1].parse().ok()).collect();
    let in_a = stamps.iter().flatten().filter(|&&t| (1995.77..=1998.88).contains(&t)).count();
    let in_b = stamps.iter().flatten().filter(|&&t| (1305.63..=1325.74).contains(&t)).count();
    assert_eq!(in_a + in_b, stamps.iter().flatten().count(), "{stamps:?}");
    assert!(in_a >= 30 && in_b >= 200 && stamps.iter().any(Option::is_none), "{in_a} {in_b}");
}

/// A trace's lines reversed (`tac`): a second at a time is put back in
/// order, each step back of more a new stretch; the figures are the
/// sorted trace's within a percent, never a span backwards or `mean -`.
#[test]
fn a_trace_read_backwards_gives_the_figures_of_the_sorted_one() {
    let text = std::fs::read_to_string(fixture(SHIPPED)).expect("fixture");
    let mut lines: Vec<&str> = text.lines().collect();
    lines.reverse();
    let path = tmp("ktrace-reversed.txt");
    std::fs::write(&path, lines.join("\n") + "\n").expect("written");
    let path = path.to_string_lossy().into_owned();
    let (s, sorted) = (view_file(&path, &[]), view(SHIPPED, &[]));
    // 20 s of trace in 20 stretches of about a second each.
    assert_eq!((s["backwards"]["events"].as_u64(), s["stretches"].as_array().map(Vec::len)), (Some(19), Some(20)));
    let close = |a: &Value, b: &Value, within: f64| (num(a) - num(b)).abs() <= within * num(b).abs();
    let (g, gs) = (&s["global"], &sorted["global"]);
    assert!(close(&s["span"]["duration_s"], &sorted["span"]["duration_s"], 0.01), "{}", s["span"]);
    assert!(close(&g["dirty_mb"]["mean"], &gs["dirty_mb"]["mean"], 0.01), "{}", g["dirty_mb"]);
    assert!(close(&g["dirtied_mbps"], &gs["dirtied_mbps"], 0.01), "{}", g["dirtied_mbps"]);
    assert!(close(&g["written_mbps"], &gs["written_mbps"], 0.02), "{}", g["written_mbps"]);
    assert_eq!(g["dirty_mb"]["median"], gs["dirty_mb"]["median"]);
    assert_eq!(s["bdis"][0]["balance_dirty_pages"], sorted["bdis"][0]["balance_dirty_pages"]);
}

/// `view -q PATH --csv` → the CSV: its header and rows, as cells.
fn csv_table(path: &str, name: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let csv = tmp(name);
    let out = dirtyviz().args(["view", "-q", path, "--csv"]).arg(&csv).output().expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&csv).expect("CSV written");
    let mut lines = text.lines().map(|l| l.split(',').map(str::to_string).collect::<Vec<_>>());
    let head = lines.next().expect("a header");
    (head, lines.collect())
}

/// perf script's `pid/tid` column names a thread by its process first:
/// two threads of one fio are two tasks, each throttled on its own, as
/// `-F tid` alone gives them (they were one task, fio-500).
#[test]
fn perf_scripts_pid_tid_is_a_task_per_thread() {
    let bdp = |tid: u32, t: f64| {
        format!(
            "             fio 500/{tid} [000] {t:.6}: writeback:balance_dirty_pages: bdi 8:0: limit=102400 setpoint=89600 \
             dirty=80000 wb_setpoint=89599 wb_dirty=80000 dirty_ratelimit=102400 task_ratelimit=180000 dirtied=512 \
             dirtied_pause=512 paused=0 pause=11 period=11 think=0 cgroup_ino=1\n"
        )
    };
    let text: String = (0..20).map(|k| bdp(501 + k % 2, 100.0 + k as f64 * 0.05)).collect();
    let path = tmp("ktrace-perf-pid-tid.txt");
    std::fs::write(&path, &text).expect("written");
    let path = path.to_string_lossy().into_owned();
    let s = view_file(&path, &[]);
    let tasks: Vec<_> = s["bdis"][0]["tasks"].as_array().expect("tasks").iter().map(|t| t["task"].clone()).collect();
    assert_eq!(tasks, ["fio-501", "fio-502"]);
    let (head, rows) = csv_table(&path, "ktrace-perf-pid-tid.csv");
    let col = head.iter().position(|h| h == "8:0.tasks").expect("8:0.tasks");
    assert_eq!(rows[5][col], "2", "{rows:?}");
}

/// A global dirty count read from balance_dirty_pages alone holds a
/// second after its pass, as the bdi's does: no pass is printed below
/// freerun, so holding it on held it high (the CSV's dirty_mb held 301
/// MiB through a gap where the bdi's column was empty). The summary's
/// mean leaves that time out and says so.
#[test]
fn a_global_count_from_passes_alone_ends_a_second_after_the_last_as_the_bdis() {
    let bdp = |t: f64, dirty: u64| {
        format!(
            "dd-1 [000] {t:.2}: balance_dirty_pages: bdi 8:0: limit=10000 setpoint=8750 dirty={dirty} wb_setpoint=8750 \
             wb_dirty={dirty} dirty_ratelimit=102400 task_ratelimit=102400 dirtied=256 dirtied_pause=128 paused=0 \
             pause=4 period=4 think=0 cgroup_ino=1\n"
        )
    };
    // 4000 pages at 100.0 and 100.5 s, nothing for 2.5 s, 6000 at 103.0 s.
    let text = [bdp(100.0, 4000), bdp(100.5, 4000), bdp(103.0, 6000)].concat();
    let path = tmp("ktrace-bdp-gap.txt");
    std::fs::write(&path, &text).expect("written");
    let path = path.to_string_lossy().into_owned();
    let (head, rows) = csv_table(&path, "ktrace-bdp-gap.csv");
    let col = |name: &str| head.iter().position(|h| h == name).unwrap_or_else(|| panic!("{name}"));
    let (global, bdi) = (col("dirty_mb"), col("8:0.dirty_mb"));
    let at = |t: &str| rows.iter().find(|r| r[0] == t).unwrap_or_else(|| panic!("{t}: {rows:?}"));
    assert_eq!((at("1.5")[global].as_str(), at("1.5")[bdi].as_str()), ("15.625", "15.625"), "a second after 100.5");
    assert_eq!((at("1.6")[global].as_str(), at("1.6")[bdi].as_str()), ("", ""), "past it, both empty");
    assert_eq!(at("2.9")[global], "");
    assert_eq!(at("3.1")[global], "23.438");
    let s = view_file(&path, &[]);
    let d = &s["global"]["dirty_mb"];
    // 4000 pages for 1.5 s (0.5 s, then a second), 1.5 s left out.
    assert_eq!((num(&d["mean_time_s"]), num(&d["mean_unheld_s"])), (1.5, 1.5));
    assert_eq!(num(&d["mean"]), 4000.0 * 4.0 / 1024.0);
    let out = dirtyviz().args(["view", &path]).output().expect("runs");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        report.contains(
            "mean 15.6 over 0-3 s, each count held until the next, a pass's for 1.0 s at most (1.5 s left out)"
        ),
        "{report}"
    );
}

/// dirty_limit lagging below thresh: the setpoint balance_dirty_pages
/// prints is of the raw dirty_limit, global_dirty_state's (rebuilt) of
/// the control law's max(thresh, dirty_limit). The CSV flipped between
/// the two (410.2 and 375.8 MiB); now every figure is the control law's.
#[test]
fn the_setpoint_is_the_control_laws_in_the_csv_the_summary_and_the_panel() {
    // thresh 120000, bg 60000: freerun 90000; dirty_limit 102400. The
    // control law's setpoint (120000 + 90000) / 2 = 105000 pages (410.2
    // MiB); printed (102400 + 90000) / 2 = 96200 (375.8 MiB).
    let mut text = String::new();
    for k in 0..20 {
        let t = 100.0 + k as f64 * 0.05;
        text += &format!(
            "dd-100 [000] {t:.3}: global_dirty_state: dirty=95000 writeback=100 bg_thresh=60000 thresh=120000 \
             limit=102400 dirtied={k} written={k}\n"
        );
        text += &format!(
            "dd-100 [000] {:.3}: balance_dirty_pages: bdi 8:0: limit=102400 setpoint=96200 dirty=95100 \
             wb_setpoint=96199 wb_dirty=95100 dirty_ratelimit=102400 task_ratelimit=150000 dirtied=256 \
             dirtied_pause=64 paused=0 pause=4 period=4 think=0 cgroup_ino=1\n",
            t + 0.001
        );
    }
    let path = tmp("ktrace-lagging-limit.txt");
    std::fs::write(&path, &text).expect("written");
    let path = path.to_string_lossy().into_owned();
    let (head, rows) = csv_table(&path, "ktrace-lagging-limit.csv");
    let col = head.iter().position(|h| h == "setpoint_mb").expect("setpoint_mb");
    let setpoints: std::collections::BTreeSet<&str> = rows.iter().map(|r| r[col].as_str()).collect();
    assert_eq!(setpoints, ["410.156"].into());
    let s = view_file(&path, &[]);
    let p = &s["bdis"][0]["balance_dirty_pages"];
    assert_eq!(num(&s["global"]["setpoint_mb"]), 105000.0 / 256.0);
    assert_eq!((num(&p["setpoint_mb"]["min"]), num(&p["setpoint_mb"]["max"])), (105000.0 / 256.0, 105000.0 / 256.0));
    assert_eq!(num(&p["limit_mb"]["first"]), 120000.0 / 256.0);
    let screen = super::common::ok(
        &dirtyviz().args(["view", &path, "--snapshot", "--size", "160x48", "--at", "0.5s"]).output().expect("runs"),
    );
    let row = screen.lines().find(|l| l.contains("│setpoint ")).unwrap_or_else(|| panic!("{screen}"));
    assert!(row.contains(" 410 MiB"), "{row}");
}

/// The summary sets the bdi's median dirty against its setpoint's median
/// over the same passes, not against the first setpoint printed (a real
/// 6.18 capture: `bdi dirty 75.9 vs bdi_setpoint 87.5 MiB (first; 80.5 to
/// 87.5)`, where the setpoint's median was 81.6).
#[test]
fn the_bdis_dirty_is_set_against_the_median_setpoint() {
    // wb_setpoint 87.5 MiB first, then 80.5 four times; wb_dirty 75.9 MiB.
    let bdp = |t: f64, wb_setpoint: u32| {
        format!(
            "dd-1 [000] {t:.2}: balance_dirty_pages: bdi 254:0: limit=25600 setpoint=22400 dirty=20000 \
             wb_setpoint={wb_setpoint} wb_dirty=19430 dirty_ratelimit=102400 task_ratelimit=102400 dirtied=32 \
             dirtied_pause=32 paused=0 pause=4 period=4 think=0 cgroup_ino=1\n"
        )
    };
    let text: String = (0..5).map(|k| bdp(10.0 + k as f64 * 0.1, if k == 0 { 22400 } else { 20608 })).collect();
    let path = tmp("ktrace-moving-bdi-setpoint.txt");
    std::fs::write(&path, &text).expect("written");
    let path = path.to_string_lossy().into_owned();
    let s = view_file(&path, &[]);
    let p = &s["bdis"][0]["balance_dirty_pages"];
    assert_eq!((num(&p["bdi_setpoint_mb_median"]), num(&p["bdi_setpoint_mb"]["first"])), (80.5, 87.5));
    let out = dirtyviz().args(["view", &path]).output().expect("runs");
    let report = String::from_utf8_lossy(&out.stdout);
    let row = report.lines().find(|l| l.starts_with("  throttle")).unwrap_or_else(|| panic!("{report}"));
    // By the names the trace printed them by (6.15's).
    assert!(row.ends_with("wb_dirty 75.9 vs wb_setpoint 80.5 MiB (medians; wb_setpoint 80.5 to 87.5)"), "{row}");
}
