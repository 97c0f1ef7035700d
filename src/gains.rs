//! `dirtyviz cases --table`: the seed's tables of what one change gained,
//! beside what it gains in the model.
//!
//! Besides its comparison of 3.1 with the whole series (see
//! [`crate::cases`]), the seed measures two changes case by case: patch 11
//! (the per-bdi background threshold) on the 16 GiB JBOD box, in pages
//! written (vmstat `nr_written`), and the NFS writeback wait queue on the
//! NFS cases, in MB/s. Each table names the two kernels it compares; the
//! model runs every case on both (the case's name ending in the kernel's,
//! see [`crate::scenario::case::KERNELS`]) and its gain is set beside the
//! seed's, case by case and over the whole table. Both tables measured
//! equally long runs, so the gain over the table is that of the sums.

use std::fmt::Write as _;

use crate::error::{Error, Result};
use crate::run::{RunOptions, on_every_cpu, run};
use crate::scenario::case;

/// One of the seed's tables of a change's gain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    /// Patch 11, the per-bdi background threshold: level 10 against 11.
    Patch11,
    /// The NFS writeback wait queue: the whole series without and with it.
    NfsWaitQueue,
}

impl Table {
    /// The table's text, as shipped.
    fn text(self) -> &'static str {
        match self {
            Table::Patch11 => include_str!("../assets/seed-patch11.txt"),
            Table::NfsWaitQueue => include_str!("../assets/seed-nfs-wq.txt"),
        }
    }

    /// What the seed's figures count.
    pub fn unit(self) -> &'static str {
        match self {
            Table::Patch11 => "nr_written [pages]",
            Table::NfsWaitQueue => "[MB/s]",
        }
    }

    /// Decimals the seed gives its figures with.
    fn decimals(self) -> usize {
        match self {
            Table::Patch11 => 0,
            Table::NfsWaitQueue => 2,
        }
    }
}

/// One row of such a table: the seed's figures without and with the change.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The test case, its kernel field `X`.
    pub name: &'static str,
    /// Without the change (see [`Table::unit`]).
    pub before: f64,
    /// With the change (see [`Table::unit`]).
    pub after: f64,
}

/// A table's two kernels and its rows.
#[derive(Clone, Debug, PartialEq)]
pub struct Rows {
    /// The kernel without the change, then the one with it.
    pub kernels: [&'static str; 2],
    /// The rows, in the seed's order.
    pub rows: Vec<Row>,
}

/// The rows of `table`.
pub fn rows(table: Table) -> Rows {
    let mut kernels = ["", ""];
    let mut rows = Vec::new();
    for line in table.text().lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let mut f = line.split_whitespace();
        let first = f.next().expect("a line that is not blank has a field");
        if first == "kernels" {
            kernels = [f.next(), f.next()].map(|k| k.expect("the shipped table names two kernels"));
            continue;
        }
        let num =
            |v: Option<&str>| v.and_then(|v| v.parse().ok()).expect("the shipped table holds two figures per row");
        let (before, after) = (num(Some(first)), num(f.next()));
        let name = f.next().expect("the shipped table names every case");
        rows.push(Row { name, before, after });
    }
    Rows { kernels, rows }
}

/// `name` (a seed case whose kernel field is `X`) on `kernel`.
pub fn on_kernel(name: &str, kernel: &str) -> String {
    format!("{}-{kernel}", name.strip_suffix("-X").unwrap_or(name))
}

/// A row and what the model writes on both kernels \[MiB/s\].
#[derive(Clone, Debug)]
pub struct Measured {
    /// The seed's row.
    pub row: Row,
    /// Without the change in the model \[MiB/s\].
    pub before: f64,
    /// With the change in the model \[MiB/s\].
    pub after: f64,
    /// How busy the disks were without and with the change: the mean of
    /// their iostat %util \[%\]; None for NFS mounts.
    pub busy: [Option<f64>; 2],
}

/// One run's figures: MiB/s written over all bdis, and the disks' mean %util.
struct Ran {
    written_mbps: f64,
    busy_pct: Option<f64>,
}

/// `after/before − 1`, or None when `before` is nothing.
fn gain(before: f64, after: f64) -> Option<f64> {
    (before > 0.0).then(|| after / before - 1.0)
}

/// Runs every row of `rows` for `duration_ns` on the table's two kernels;
/// `ran()` is called after each run.
pub fn measure(rows: &Rows, filter: Option<&str>, duration_ns: u64, ran: &(dyn Fn() + Sync)) -> Result<Vec<Measured>> {
    let chosen: Vec<&Row> = rows.rows.iter().filter(|r| filter.is_none_or(|f| r.name.contains(f))).collect();
    if chosen.is_empty() {
        return Err(Error::invalid(format!("no case of this table contains `{}`", filter.unwrap_or(""))));
    }
    let runs: Vec<(usize, usize)> = (0..chosen.len()).flat_map(|i| [(i, 0), (i, 1)]).collect();
    let ran = on_every_cpu(&runs, |&(i, k)| -> Result<Ran> {
        let s = case::parse(&on_kernel(chosen[i].name, rows.kernels[k]))?;
        let summary = run(&s, &RunOptions { duration_ns, ..Default::default() }, &mut |_| {})?;
        ran();
        let busy: Vec<f64> = summary.bdis.iter().filter_map(|b| b.busy_pct).collect();
        Ok(Ran {
            written_mbps: summary.bdis.iter().map(|b| b.written_mbps).sum(),
            busy_pct: (!busy.is_empty()).then(|| busy.iter().sum::<f64>() / busy.len() as f64),
        })
    });
    let mut ran = ran.into_iter();
    chosen
        .into_iter()
        .map(|row| {
            let before = ran.next().expect("two runs per row")?;
            let after = ran.next().expect("two runs per row")?;
            Ok(Measured {
                row: row.clone(),
                before: before.written_mbps,
                after: after.written_mbps,
                busy: [before.busy_pct, after.busy_pct],
            })
        })
        .collect()
}

/// A gain as a signed percentage, or `-`.
fn percent(g: Option<f64>) -> String {
    g.map_or_else(|| "-".into(), |g| format!("{:+.1}%", 100.0 * g))
}

/// The seed's gain above which a case counts as a large one \[fraction\].
pub const LARGE_GAIN: f64 = 0.5;

/// The table: each case with the seed's figures and gain and the model's,
/// then the gain over the whole table and over the cases the seed shows
/// gaining most.
pub fn report(table: Table, rows: &Rows, measured: &[Measured]) -> String {
    let width = measured.iter().map(|m| m.row.name.len()).max().unwrap_or(4).max(4);
    let [k0, k1] = rows.kernels;
    let mut s = String::new();
    let _ = writeln!(s, "seed {}: {k0} → {k1}; model [MiB/s]: the same two kernels", table.unit());
    let dec = table.decimals();
    // Disks (not NFS mounts) also show how busy they were: iostat's %util.
    let disks = measured.iter().any(|m| m.busy.iter().any(Option::is_some));
    let busy = |b: Option<f64>| b.map_or_else(|| "-".into(), |b| format!("{b:.0}%"));
    let _ = writeln!(
        s,
        "{:width$}  │ {:>12} {:>12} {:>8} │ {:>9} {:>9} {:>8}{}",
        "case",
        "seed",
        "",
        "gain",
        "model",
        "",
        "gain",
        if disks { format!(" │ {:>11}", "disks busy") } else { String::new() }
    );
    for m in measured {
        let _ = writeln!(
            s,
            "{:width$}  │ {:>12.dec$} {:>12.dec$} {:>8} │ {:>9.2} {:>9.2} {:>8}{}",
            m.row.name,
            m.row.before,
            m.row.after,
            percent(gain(m.row.before, m.row.after)),
            m.before,
            m.after,
            percent(gain(m.before, m.after)),
            if disks { format!(" │ {:>5} {:>5}", busy(m.busy[0]), busy(m.busy[1])) } else { String::new() }
        );
    }
    let sum = |f: &dyn Fn(&Measured) -> f64| measured.iter().map(f).sum::<f64>();
    let seed = gain(sum(&|m| m.row.before), sum(&|m| m.row.after));
    let model = gain(sum(&|m| m.before), sum(&|m| m.after));
    let cases = |n: usize| format!("{n} case{}", if n == 1 { "" } else { "s" });
    let _ = writeln!(s, "\ntotal over {}: seed {}, model {}", cases(measured.len()), percent(seed), percent(model));
    if disks {
        let mean = |k: usize| {
            let b: Vec<f64> = measured.iter().filter_map(|m| m.busy[k]).collect();
            (!b.is_empty()).then(|| b.iter().sum::<f64>() / b.len() as f64)
        };
        let _ = writeln!(s, "the model's disks busy on average: {} on {k0}, {} on {k1}", busy(mean(0)), busy(mean(1)));
    }
    let large: Vec<&Measured> =
        measured.iter().filter(|m| gain(m.row.before, m.row.after).is_some_and(|g| g > LARGE_GAIN)).collect();
    if let Some(least) =
        large.iter().filter_map(|m| gain(m.before, m.after).map(|g| (g, m.row.name))).min_by(|a, b| a.0.total_cmp(&b.0))
    {
        let _ = writeln!(
            s,
            "gaining more than {:.0}% in the seed ({}): the model's least gain {} ({})",
            100.0 * LARGE_GAIN,
            cases(large.len()),
            percent(Some(least.0)),
            least.1
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_hold_the_seeds_rows_and_totals() {
        let p = rows(Table::Patch11);
        assert_eq!(p.kernels, ["3.1.0-rc4-wo-underrun+", "3.1.0-rc4-bgthresh3+"]);
        assert_eq!(p.rows.len(), 27);
        assert_eq!(p.rows[0].before, 125_596_480.0);
        // The seed's JBOD-10HDD-thresh=800M/ext4-100dd: +115.7%.
        let r = p.rows.iter().find(|r| r.name.starts_with("JBOD-10HDD-thresh=800M/ext4-100dd")).expect("row");
        assert_eq!(format!("{:.1}", 100.0 * gain(r.before, r.after).expect("gain")), "115.7");
        let total = |rows: &[Row]| {
            let (b, a) = rows.iter().fold((0.0, 0.0), |(b, a), r| (b + r.before, a + r.after));
            format!("{:.1}", 100.0 * (a / b - 1.0))
        };
        // The issue's +30.1% over the 27 cases, and the mail's +48.4%.
        assert_eq!(total(&p.rows), "30.1");
        let n = rows(Table::NfsWaitQueue);
        assert_eq!(n.kernels, ["3.1.0-rc8-ioless6+", "3.1.0-rc8-nfs-wq+"]);
        assert_eq!(n.rows.len(), 9);
        assert_eq!(total(&n.rows), "48.4");
        let (b, a) = n.rows.iter().fold((0.0, 0.0), |(b, a), r| (b + r.before, a + r.after));
        // The mail's TOTAL row, 238.38 → 353.72, summed the rounded rates.
        assert!((b - 238.38_f64).abs() <= 0.011 && (a - 353.72_f64).abs() <= 0.011, "{b} → {a}");
    }

    #[test]
    fn every_case_of_both_tables_runs_on_both_its_kernels() {
        for table in [Table::Patch11, Table::NfsWaitQueue] {
            let r = rows(table);
            for row in &r.rows {
                for kernel in r.kernels {
                    let name = on_kernel(row.name, kernel);
                    assert!(name.ends_with(kernel) && !name.contains("-X-"), "{name}");
                    case::parse(&name).unwrap_or_else(|e| panic!("{name}: {e}"));
                }
            }
        }
    }

    #[test]
    fn the_report_sums_before_it_divides() {
        let row = |name, before, after| Row { name, before, after };
        let rows = Rows { kernels: ["a", "b"], rows: vec![] };
        let measured = [
            Measured { row: row("one-X", 100.0, 300.0), before: 10.0, after: 12.0, busy: [None, None] },
            Measured { row: row("two-X", 100.0, 100.0), before: 30.0, after: 30.0, busy: [None, None] },
        ];
        let text = report(Table::NfsWaitQueue, &rows, &measured);
        // Seed (100+300)/(100+100) = +100%; model (12+30)/(10+30) = +5%.
        assert!(text.contains("total over 2 cases: seed +100.0%, model +5.0%"), "{text}");
        assert!(
            text.contains("gaining more than 50% in the seed (1 case): the model's least gain +20.0% (one-X)"),
            "{text}"
        );
        assert!(text.lines().any(|l| l.starts_with("two-X") && l.contains("+0.0%")), "{text}");
        assert!(!text.contains("busy"), "NFS mounts have no %util: {text}");
    }

    #[test]
    fn the_report_shows_how_busy_the_disks_were() {
        let row = |name, before, after| Row { name, before, after };
        let rows = Rows { kernels: ["a", "b"], rows: vec![] };
        let measured = [
            Measured { row: row("one-X", 100.0, 150.0), before: 10.0, after: 12.0, busy: [Some(70.4), Some(99.6)] },
            Measured { row: row("two-X", 100.0, 100.0), before: 30.0, after: 30.0, busy: [Some(90.0), Some(100.0)] },
        ];
        let text = report(Table::Patch11, &rows, &measured);
        assert!(text.lines().any(|l| l.starts_with("one-X") && l.ends_with("│   70%  100%")), "{text}");
        // (70.4 + 90) / 2 and (99.6 + 100) / 2.
        assert!(text.contains("the model's disks busy on average: 80% on a, 100% on b"), "{text}");
    }
}
