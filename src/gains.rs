//! `dirtyviz cases --table`: the seed's tables of what one change gained,
//! beside what it gains in the model.
//!
//! Besides its comparison of 3.1 with the whole series (see
//! [`crate::cases`]), the seed measures two changes case by case: patch 11
//! (the per-bdi background threshold) on the 16 GiB JBOD box, in pages
//! written (vmstat `nr_written`), and the NFS writeback wait queue on the
//! NFS cases, in MiB/s (the seed's "MB/s"). Each table names the two kernels it compares; the
//! model runs every case on both (the case's name ending in the kernel's,
//! see [`crate::scenario::case::KERNELS`]) and its gain is set beside the
//! seed's, case by case and over the whole table. Both tables measured
//! equally long runs, so the gain over the table is that of the sums.
//!
//! For the NFS cases the seed also gives the client's mountstats (WRITE
//! and COMMIT counts, bytes and times) on the 1G and 100M thresholds; the
//! NFS table sets the model's beside them, per WRITE and per COMMIT.

use std::fmt::Write as _;

use crate::error::Result;
use crate::run::summary::{NOT_KNOWN, NfsSummary};
use crate::run::{RunOptions, on_every_cpu, run};
use crate::scenario::case;
use crate::units::mean;

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
            // The seed's "MB/s", which are MiB/s as in its main table: its
            // mountstats sizes are bytes over 2^20 (see the tests).
            Table::NfsWaitQueue => "[MiB/s]",
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
    /// The model's mountstats without and with the change, on NFS.
    pub mountstats: [Option<Mountstats>; 2],
}

/// One run's figures: MiB/s written over all bdis, and the disks' mean %util.
struct Ran {
    written_mbps: f64,
    busy_pct: Option<f64>,
    mountstats: Option<Mountstats>,
}

/// The figures of mountstats the seed's NFS mails compare, per operation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mountstats {
    /// Mean data a WRITE carried \[MiB\].
    pub write_mb: f64,
    /// Mean time a WRITE waited in the client's queue \[ms\].
    pub write_queue_ms: f64,
    /// Mean round trip of a WRITE \[ms\].
    pub write_rtt_ms: f64,
    /// Data a COMMIT made stable: the seed's script divides the bytes
    /// WRITEs sent by the COMMITs (the same over a whole run) \[MiB\].
    pub commit_mb: f64,
    /// Mean round trip of a COMMIT \[ms\].
    pub commit_rtt_ms: f64,
}

impl Mountstats {
    /// From mountstats' fields of WRITE and COMMIT (operations,
    /// transmissions, major timeouts, bytes sent, bytes received, then
    /// cumulative queue, round trip and execution times \[ms\]). Sizes are
    /// the bytes WRITEs sent, as the seed's script divides them.
    fn of_fields(write: &[f64; 8], commit: &[f64; 8]) -> Mountstats {
        let per = |total: f64, n: f64| if n > 0.0 { total / n } else { 0.0 };
        let mib = |bytes: f64| bytes / (1u64 << 20) as f64;
        Mountstats {
            write_mb: mib(per(write[3], write[0])),
            write_queue_ms: per(write[5], write[0]),
            write_rtt_ms: per(write[6], write[0]),
            commit_mb: mib(per(write[3], commit[0])),
            commit_rtt_ms: per(commit[6], commit[0]),
        }
    }

    /// The model's, from a run's summary of its NFS mount.
    fn of_summary(n: &NfsSummary) -> Mountstats {
        Mountstats {
            write_mb: n.write_mb,
            write_queue_ms: n.write_queue_ms,
            write_rtt_ms: n.write_rtt_ms,
            commit_mb: n.commit_mb,
            commit_rtt_ms: n.commit_rtt_ms,
        }
    }
}

/// The seed's mountstats: the test case (its kernel field `X`), the
/// kernel, and its figures.
pub fn seed_mountstats() -> Vec<(&'static str, &'static str, Mountstats)> {
    let text = include_str!("../assets/seed-nfs-mountstats.txt");
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let fields = |at: usize, op: &str| -> [f64; 8] {
            assert_eq!(f.get(at).copied(), Some(op), "the shipped mountstats name {op} where expected");
            std::array::from_fn(|i| f[at + 1 + i].parse().expect("the shipped mountstats hold numbers"))
        };
        out.push((f[0], f[1], Mountstats::of_fields(&fields(2, "WRITE"), &fields(11, "COMMIT"))));
    }
    out
}

/// `after/before − 1`, or None when `before` is nothing.
fn gain(before: f64, after: f64) -> Option<f64> {
    (before > 0.0).then(|| after / before - 1.0)
}

/// Runs every row of `rows` for `duration_ns` on the table's two kernels;
/// `ran()` is called after each run.
pub fn measure(rows: &Rows, filter: Option<&str>, duration_ns: u64, ran: &(dyn Fn() + Sync)) -> Result<Vec<Measured>> {
    let chosen: Vec<&Row> = rows.rows.iter().filter(|r| crate::cases::chosen(filter, r.name)).collect();
    if chosen.is_empty() {
        return Err(crate::cases::no_case(filter.unwrap_or(""), "this table", rows.rows.iter().map(|r| r.name)));
    }
    let runs: Vec<(usize, usize)> = (0..chosen.len()).flat_map(|i| [(i, 0), (i, 1)]).collect();
    let ran = on_every_cpu(&runs, |&(i, k)| -> Result<Ran> {
        let s = case::parse(&on_kernel(chosen[i].name, rows.kernels[k]))?;
        let summary = run(&s, &RunOptions { duration_ns, ..Default::default() }, &mut |_| {})?;
        ran();
        Ok(Ran {
            written_mbps: summary.bdis.iter().map(|b| b.written_mbps).sum(),
            busy_pct: mean(summary.bdis.iter().filter_map(|b| b.busy_pct)),
            mountstats: summary.bdis.iter().find_map(|b| b.nfs.as_ref()).map(Mountstats::of_summary),
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
                mountstats: [before.mountstats, after.mountstats],
            })
        })
        .collect()
}

/// The seed's mountstats beside the model's, for the rows and kernels of
/// `rows` the seed has them for; empty when it has none.
fn mountstats_report(rows: &Rows, measured: &[Measured]) -> String {
    let seed = seed_mountstats();
    let lines: Vec<(&str, &str, Mountstats, Option<Mountstats>)> = measured
        .iter()
        .flat_map(|m| rows.kernels.iter().zip(m.mountstats).map(move |(k, model)| (m, *k, model)))
        .filter_map(|(m, kernel, model)| {
            let found = seed.iter().find(|(case, k, _)| *case == m.row.name && *k == kernel)?;
            Some((m.row.name, kernel, found.2, model))
        })
        .collect();
    if lines.is_empty() {
        return String::new();
    }
    let width = lines.iter().map(|l| l.0.len()).max().unwrap_or(4).max(4);
    let kw = lines.iter().map(|l| l.1.len()).max().unwrap_or(6).max(6);
    let mut s = String::from(
        "\nmountstats, seed and model: per WRITE its data [MiB], queue and round trip [ms]; per COMMIT the data it made stable [MiB] and its round trip [ms]\n",
    );
    let head = format!("{:>6} {:>8} {:>7} {:>7} {:>7}", "WRITE", "queue", "rtt", "COMMIT", "rtt");
    let _ = writeln!(s, "{:width$}  {:kw$}  │ seed  {head} │ model {head}", "case", "kernel");
    let cells = |m: Option<Mountstats>| match m {
        Some(m) => format!(
            "{:>6.2} {:>8.0} {:>7.0} {:>7.1} {:>7.0}",
            m.write_mb, m.write_queue_ms, m.write_rtt_ms, m.commit_mb, m.commit_rtt_ms
        ),
        None => format!("{NOT_KNOWN:>6} {NOT_KNOWN:>8} {NOT_KNOWN:>7} {NOT_KNOWN:>7} {NOT_KNOWN:>7}"),
    };
    for (case, kernel, seed, model) in lines {
        let _ = writeln!(s, "{case:width$}  {kernel:kw$}  │       {} │       {}", cells(Some(seed)), cells(model));
    }
    s
}

/// A gain as a signed percentage, or [`NOT_KNOWN`].
fn percent(g: Option<f64>) -> String {
    g.map_or_else(|| NOT_KNOWN.into(), |g| format!("{:+.1}%", 100.0 * g))
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
    if dec > 0 {
        // The mail's own percentages come from its rates before rounding.
        let _ = writeln!(
            s,
            "gains from the figures as shown (the seed's own, from unrounded rates, differ by a few tenths of a point)"
        );
    }
    // Disks (not NFS mounts) also show how busy they were: iostat's %util.
    let disks = measured.iter().any(|m| m.busy.iter().any(Option::is_some));
    let busy = |b: Option<f64>| b.map_or_else(|| NOT_KNOWN.into(), |b| format!("{b:.0}%"));
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
        let mean_busy = |k: usize| mean(measured.iter().filter_map(|m| m.busy[k]));
        let _ = writeln!(
            s,
            "the model's disks busy on average: {} on {k0}, {} on {k1}",
            busy(mean_busy(0)),
            busy(mean_busy(1))
        );
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
    if table == Table::NfsWaitQueue {
        s.push_str(&mountstats_report(rows, measured));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::case::KERNELS;

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
    fn the_seeds_mountstats_give_its_mails_per_operation_figures() {
        let all = seed_mountstats();
        // 1G: 3.1, the series and the wait queue; 100M: 3.1 and the wait queue.
        assert_eq!(all.len(), 15);
        let of = |case: &str, kernel: &str| {
            all.iter().find(|(c, k, _)| c.starts_with(case) && *k == kernel).map(|e| e.2).expect("in the table")
        };
        let r1 = |x: f64| format!("{x:.1}");
        let r2 = |x: f64| format!("{x:.2}");
        // The mail's own table of the same numbers: nfs_commit_size 453.65
        // and 371.54 MB, nfs_write_size 0.20 MB, nfs_write_queue_time
        // 29155.55 ms, nfs_commit_rtt_time 6382.66 ms.
        assert_eq!(r2(of("NFS-thresh=1G/nfs-1dd", "3.1.0-rc4-vanilla+").commit_mb), "453.65");
        let wq = of("NFS-thresh=1G/nfs-1dd", "3.1.0-rc8-nfs-wq+");
        assert_eq!((r2(wq.commit_mb), r2(wq.commit_rtt_ms)), ("371.54".into(), "6382.66".into()));
        assert_eq!(r2(of("NFS-thresh=100M/nfs-10dd", "3.1.0-rc4-vanilla+").write_mb), "0.20");
        assert_eq!(r2(of("NFS-thresh=1G/nfs-10dd", "3.1.0-rc4-vanilla+").write_queue_ms), "29155.55");
        // Without the wait queue the series queues a WRITE for 33.5 s on
        // 1G with 10 dd, with it 0.2 s.
        assert_eq!(r1(of("NFS-thresh=1G/nfs-10dd", "3.1.0-rc8-ioless6+").write_queue_ms), "33504.9");
        assert_eq!(r1(of("NFS-thresh=1G/nfs-10dd", "3.1.0-rc8-nfs-wq+").write_queue_ms), "215.7");
        // Every case is one of the wait-queue table's.
        let table = rows(Table::NfsWaitQueue);
        for (case, kernel, _) in &all {
            assert!(table.rows.iter().any(|r| r.name == *case), "{case}");
            assert!(KERNELS.iter().any(|(k, _, _)| k == kernel), "{kernel}");
        }
    }

    #[test]
    fn the_nfs_report_sets_the_models_mountstats_beside_the_seeds() {
        let table = rows(Table::NfsWaitQueue);
        let row = table.rows.iter().find(|r| r.name.starts_with("NFS-thresh=1G/nfs-1dd")).expect("row").clone();
        let model = Mountstats {
            write_mb: 1.0,
            write_queue_ms: 12500.0,
            write_rtt_ms: 25.0,
            commit_mb: 512.0,
            commit_rtt_ms: 11600.0,
        };
        let measured = [Measured { row, before: 33.1, after: 31.9, busy: [None; 2], mountstats: [Some(model), None] }];
        let text = report(Table::NfsWaitQueue, &table, &measured);
        let line = |kernel: &str| {
            text.lines()
                .find(|l| l.starts_with("NFS-thresh=1G/nfs-1dd") && l.contains(kernel))
                .expect(kernel)
                .to_string()
        };
        // Seed 104355 WRITEs queued 1677501539 ms in all: 16075 ms each.
        let series = line("ioless6");
        assert!(series.contains("16075") && series.contains("12500") && series.contains("512.0"), "{series}");
        // No model run: five dashes, one column each, under the seed's figures.
        let wq = line("nfs-wq");
        assert!(wq.trim_end().ends_with(NOT_KNOWN), "no model run: {text}");
        assert_eq!(wq.split_whitespace().filter(|w| *w == NOT_KNOWN).count(), 5, "{wq}");
        assert_eq!(wq.chars().count(), series.chars().count(), "{text}");
        assert!(!text.contains("vanilla"), "only the table's two kernels: {text}");
        // The patch 11 table has no mountstats.
        let p = rows(Table::Patch11);
        let none =
            [Measured { row: p.rows[0].clone(), before: 1.0, after: 1.0, busy: [None; 2], mountstats: [None; 2] }];
        assert!(!report(Table::Patch11, &p, &none).contains("mountstats"));
    }

    /// A measured case without mountstats: the seed's `seed` figures and the
    /// model's `model` ones, before and after.
    fn measured(name: &'static str, seed: [f64; 2], model: [f64; 2], busy: [Option<f64>; 2]) -> Measured {
        let row = Row { name, before: seed[0], after: seed[1] };
        Measured { row, before: model[0], after: model[1], busy, mountstats: [None; 2] }
    }

    #[test]
    fn the_report_sums_before_it_divides() {
        let rows = Rows { kernels: ["a", "b"], rows: vec![] };
        let measured = [
            measured("one-X", [100.0, 300.0], [10.0, 12.0], [None; 2]),
            measured("two-X", [100.0, 100.0], [30.0, 30.0], [None; 2]),
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
        let rows = Rows { kernels: ["a", "b"], rows: vec![] };
        let measured = [
            measured("one-X", [100.0, 150.0], [10.0, 12.0], [Some(70.4), Some(99.6)]),
            measured("two-X", [100.0, 100.0], [30.0, 30.0], [Some(90.0), Some(100.0)]),
        ];
        let text = report(Table::Patch11, &rows, &measured);
        assert!(text.lines().any(|l| l.starts_with("one-X") && l.ends_with("│   70%  100%")), "{text}");
        // (70.4 + 90) / 2 and (99.6 + 100) / 2.
        assert!(text.contains("the model's disks busy on average: 80% on a, 100% on b"), "{text}");
    }
}
