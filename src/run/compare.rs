//! `run --compare`: both sides' summaries, and the report that sets their
//! figures side by side with the difference of each.

use serde::Serialize;

use super::summary::{Summary, num, signed};
use crate::error::printable;

/// Both sides of a comparison: what `--summary-json` holds with `--compare`.
#[derive(Clone, Debug, Serialize)]
pub struct Compared {
    /// The comparison, as `--compare` reads it.
    pub compare: String,
    /// How each side is called.
    pub labels: Labels,
    /// Side A.
    pub a: Summary,
    /// Side B.
    pub b: Summary,
}

/// The two sides' names.
#[derive(Clone, Debug, Serialize)]
pub struct Labels {
    /// Side A, e.g. "legacy 3.1 (IO-full)".
    pub a: String,
    /// Side B, e.g. "patch 11 (IO-less)".
    pub b: String,
}

/// One row of the side-by-side table: its name (with its unit), each
/// side's value, and the decimals it is shown with.
struct Row {
    name: String,
    a: Option<f64>,
    b: Option<f64>,
    decimals: usize,
}

/// Pages written per second by every bdi \[MiB/s\].
fn throughput(s: &Summary) -> f64 {
    s.bdis.iter().map(|b| b.written_mbps).sum()
}

/// Mean dirty pages after settling, above (+) or below (−) the setpoint \[%\].
fn dirty_vs_setpoint(s: &Summary) -> Option<f64> {
    let g = &s.global;
    let sp = s.global.setpoint_mb.filter(|&sp| sp > 0.0)?;
    g.dirty_mean_mb.map(|m| 100.0 * (m - sp) / sp)
}

/// The columns the report keeps to.
const REPORT_WIDTH: usize = 80;

/// Longest time a task spent in one throttling call, a call still
/// blocked at the end included \[ms\]; none when no call blocked.
fn longest_call(s: &Summary) -> Option<f64> {
    let t = &s.throttled_ms;
    (t.calls.count > 0 || t.in_progress > 0).then(|| t.calls.max.unwrap_or(0.0).max(t.in_progress_max_ms))
}

impl Compared {
    /// The figures of both sides, one row each, with the difference B − A.
    fn rows(&self) -> Vec<Row> {
        let row = |name: &str, f: &dyn Fn(&Summary) -> Option<f64>, decimals| Row {
            name: name.to_string(),
            a: f(&self.a),
            b: f(&self.b),
            decimals,
        };
        let mut rows = vec![
            row("throughput [MiB/s]", &|s| Some(throughput(s)), 1),
            row("dirty mean [MiB]", &|s| s.global.dirty_mean_mb, 1),
            row("setpoint [MiB]", &|s| s.global.setpoint_mb, 1),
            row("dirty vs setpoint [%]", &dirty_vs_setpoint, 1),
            row("dirty max [MiB]", &|s| Some(s.global.dirty_max_mb), 1),
            row("limit [MiB]", &|s| s.global.limit_mb, 1),
            row("pauses [count]", &|s| Some(s.pauses_ms.count as f64), 0),
            row("pause p50 [ms]", &|s| s.pauses_ms.p50, 0),
            row("pause p99 [ms]", &|s| s.pauses_ms.p99, 0),
            row("pause max [ms]", &|s| s.pauses_ms.max, 0),
            row("calls blocked [count]", &|s| Some(s.throttled_ms.calls.count as f64), 0),
            row("longest call [ms]", &longest_call, 0),
            row("foreground writeback [MiB]", &|s| Some(s.throttled_ms.foreground_written_mb), 1),
        ];
        rows.extend(self.ratelimit_rows());
        rows
    }

    /// dirty_ratelimit on each bdi, where a side's kernel has one: a row
    /// per bdi up to four, their mean beyond (a ten-disk JBOD). None when
    /// neither side has rate control, or the sides' disks differ.
    fn ratelimit_rows(&self) -> Vec<Row> {
        let rate = |s: &Summary, i: usize| s.bdis[i].dirty_ratelimit_mbps;
        let names = |s: &Summary| s.bdis.iter().map(|b| b.name.clone()).collect::<Vec<_>>();
        let n = self.a.bdis.len();
        let rated = |s: &Summary| s.has.dirty_ratelimit;
        if n == 0 || names(&self.a) != names(&self.b) || !(rated(&self.a) || rated(&self.b)) {
            return Vec::new();
        }
        if n <= 4 {
            return (0..n)
                .map(|i| Row {
                    name: format!("dirty_ratelimit {} [MiB/s]", printable(&self.a.bdis[i].name)),
                    a: rate(&self.a, i),
                    b: rate(&self.b, i),
                    decimals: 1,
                })
                .collect();
        }
        let mean = |s: &Summary| {
            let rates: Option<Vec<f64>> = (0..n).map(|i| rate(s, i)).collect();
            rates.map(|r| r.iter().sum::<f64>() / n as f64)
        };
        vec![Row {
            name: format!("dirty_ratelimit, mean of {n} bdis [MiB/s]"),
            a: mean(&self.a),
            b: mean(&self.b),
            decimals: 1,
        }]
    }

    /// The human-readable report: what was compared, then a table of both
    /// sides' figures and their difference, then each side's speed.
    pub fn report(&self) -> String {
        use std::fmt::Write as _;
        let a = &self.a;
        let mut s = String::new();
        // The report keeps to 80 columns: a long case name puts the rest
        // of the first line under it.
        let machine = a.machine.as_ref().map_or(String::new(), |m| format!("  machine {}", printable(m)));
        let head = format!("scenario {}{machine}", printable(&a.scenario));
        let rest = format!(
            "compare {}  seed {}  HZ {}  {} s simulated",
            self.compare,
            a.seed,
            a.hz,
            crate::units::seconds(a.duration_s)
        );
        let gap = if head.chars().count() + 2 + rest.chars().count() <= REPORT_WIDTH { "  " } else { "\n         " };
        let _ = writeln!(s, "{head}{gap}{rest}");
        // The sides named on a line of their own: as column heads they
        // made the table wider than 80 columns.
        let _ = writeln!(s, "sides    A {}  ·  B {}", self.labels.a, self.labels.b);
        let (head_a, head_b) = ("A", "B");
        let rows = self.rows();
        let name_w = rows.iter().map(|r| r.name.chars().count()).max().unwrap_or(0);
        let shown: Vec<[String; 3]> = rows
            .iter()
            .map(|r| {
                let diff = r.a.zip(r.b).map(|(a, b)| b - a);
                [num(r.a, r.decimals), num(r.b, r.decimals), signed(diff, r.decimals)]
            })
            .collect();
        let width = |i: usize, head: usize| shown.iter().map(|c| c[i].chars().count()).max().unwrap_or(0).max(head);
        let (wa, wb, wd) = (width(0, head_a.chars().count()), width(1, head_b.chars().count()), width(2, 5));
        let _ = writeln!(s, "{:name_w$}  {head_a:>wa$}  {head_b:>wb$}  {:>wd$}", "", "B − A");
        for (r, [va, vb, d]) in rows.iter().zip(&shown) {
            let _ = writeln!(s, "{:name_w$}  {va:>wa$}  {vb:>wb$}  {d:>wd$}", r.name);
        }
        let rate_rows = rows.iter().any(|r| r.name.starts_with("dirty_ratelimit"));
        for (side, sum) in [("A", a), ("B", &self.b)] {
            let missing: Vec<&str> = sum
                .has
                .lacking()
                .into_iter()
                .map(|(what, _)| what)
                .filter(|&what| rate_rows || what != "dirty_ratelimit")
                .collect();
            let missing = match missing.as_slice() {
                [] => continue,
                [one] => one.to_string(),
                [init @ .., last] => format!("{} or {last}", init.join(", ")),
            };
            let note = format!("{} has no {missing}: –", printable(&sum.kernel));
            for row in crate::units::hanging_lines(&format!("note {side:<7}"), 12, &note, REPORT_WIDTH) {
                let _ = writeln!(s, "{row}");
            }
        }
        for (side, sum) in [("A", a), ("B", &self.b)] {
            if let Some(at) = sum.trace_stopped_s {
                let _ = writeln!(s, "trace {side}     {}", super::summary::trace_stopped(at));
            }
        }
        for (side, sum) in [("A", a), ("B", &self.b)] {
            let _ = writeln!(
                s,
                "speed {side}     {} events in {} s ({}× real time)",
                sum.events,
                super::summary::wall(sum.wall_s),
                super::summary::factor(sum.real_time_factor)
            );
        }
        s
    }
}
