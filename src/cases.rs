//! `dirtyviz cases`: the seed's result tables beside this model.
//!
//! The seed measured each test case on vanilla 3.1 and on 3.1 with the
//! IO-less series. Disks differ, so absolute rates do not carry over; what
//! the model has to reproduce is how the two kernels compare, case by case:
//! the IO-less rate over the 3.1 rate.

use std::fmt::Write as _;

use crate::error::Result;
use crate::run::{RunOptions, on_every_cpu, run};
use crate::scenario::{LegacySpec, Overrides, case};

/// The seed's throughput for each test case \[MB/s\].
const TABLE: &str = include_str!("../assets/seed-table.txt");

/// One row of the seed's tables.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The test case.
    pub name: &'static str,
    /// Vanilla 3.1 \[MB/s\].
    pub legacy: f64,
    /// 3.1 with the IO-less series \[MB/s\].
    pub ioless: f64,
}

impl Row {
    /// IO-less over 3.1, as the seed measured it.
    pub fn ratio(&self) -> f64 {
        self.ioless / self.legacy
    }
}

/// Every row of the seed's tables, in their order.
pub fn rows() -> Vec<Row> {
    TABLE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut f = l.split_whitespace();
            let mut num = || f.next().and_then(|v| v.parse().ok()).expect("the shipped table holds two rates per row");
            let (legacy, ioless) = (num(), num());
            let name = l.rsplit(' ').next().expect("the shipped table names every case");
            Row { name, legacy, ioless }
        })
        .collect()
}

/// The kind of world a test case runs on, from its name's prefix.
pub fn group(name: &str) -> &'static str {
    if name.contains("UKEY") {
        "USB key"
    } else if name.starts_with("JBOD") {
        "JBOD"
    } else if name.starts_with("RAID0") {
        "RAID0"
    } else if name.starts_with("NFS") {
        "NFS"
    } else {
        "single disk"
    }
}

/// A row and what the model writes on both kernels \[MiB/s\].
#[derive(Clone, Debug)]
pub struct Measured {
    /// The seed's row.
    pub row: Row,
    /// Linux 3.1 in the model \[MiB/s\].
    pub legacy: f64,
    /// The whole series in the model \[MiB/s\].
    pub ioless: f64,
}

impl Measured {
    /// IO-less over 3.1 in the model, unless 3.1 wrote nothing (too short
    /// a run).
    pub fn ratio(&self) -> Option<f64> {
        (self.legacy > 0.0).then(|| self.ioless / self.legacy)
    }

    /// How far the model's ratio is from the seed's.
    pub fn error(&self) -> Option<f64> {
        self.ratio().map(|r| (r - self.row.ratio()).abs())
    }
}

/// Runs every row for `duration_ns` on 3.1 and on the whole series.
pub fn measure(rows: &[Row], duration_ns: u64) -> Result<Vec<Measured>> {
    let runs: Vec<(usize, u8)> = (0..rows.len()).flat_map(|i| [(i, 0), (i, 11)]).collect();
    let rates = on_every_cpu(&runs, |&(i, patches)| -> Result<f64> {
        let mut s = case::parse(rows[i].name)?;
        s.apply(&Overrides { patches: Some(patches), legacy: Some(LegacySpec::Linux31), ..Default::default() });
        let summary = run(&s, &RunOptions { duration_ns, ..Default::default() }, &mut |_| {})?;
        Ok(summary.bdis.iter().map(|b| b.written_mbps).sum())
    });
    let mut rates = rates.into_iter();
    rows.iter()
        .map(|row| {
            let legacy = rates.next().expect("two runs per row")?;
            let ioless = rates.next().expect("two runs per row")?;
            Ok(Measured { row: row.clone(), legacy, ioless })
        })
        .collect()
}

/// Mean error of the ratio over the rows of `measured` that have one, or
/// None when none has.
pub fn mean_error<'a>(measured: impl IntoIterator<Item = &'a Measured>) -> Option<f64> {
    let (sum, n) = measured.into_iter().filter_map(Measured::error).fold((0.0, 0), |(s, n), e| (s + e, n + 1));
    (n > 0).then(|| sum / n as f64)
}

/// The table: each case with the seed's rates and the model's, then the
/// mean error of the ratio, overall and per kind of world.
pub fn report(measured: &[Measured]) -> String {
    let width = measured.iter().map(|m| m.row.name.len()).max().unwrap_or(4).max(4);
    let mut s = String::new();
    let _ = writeln!(s, "{:width$}   seed: 3.1  IO-less  ratio │ model: 3.1  IO-less  ratio", "case");
    for m in measured {
        let ratio = m.ratio().map_or_else(|| "-".to_string(), |r| format!("{r:.2}"));
        let _ = writeln!(
            s,
            "{:width$}   {:9.2} {:8.2} {:6.2} │ {:10.2} {:8.2} {ratio:>6}",
            m.row.name,
            m.row.legacy,
            m.row.ioless,
            m.row.ratio(),
            m.legacy,
            m.ioless,
        );
    }
    let compared = measured.iter().filter(|m| m.ratio().is_some()).count();
    if compared < measured.len() {
        let _ = writeln!(s, "{} cases wrote nothing on 3.1 in this time: give them longer", measured.len() - compared);
    }
    if let Some(all) = mean_error(measured) {
        let _ = write!(s, "IO-less/3.1 ratio, model against seed: mean error {all:.3} over {compared} cases");
        let mut groups: Vec<&str> = measured.iter().map(|m| group(m.row.name)).collect();
        groups.sort_unstable();
        groups.dedup();
        let parts: Vec<String> = groups
            .iter()
            .filter_map(|g| {
                let of: Vec<&Measured> =
                    measured.iter().filter(|m| group(m.row.name) == *g && m.ratio().is_some()).collect();
                mean_error(of.iter().copied()).map(|e| format!("{g} {e:.3} ({})", of.len()))
            })
            .collect();
        let _ = writeln!(s, " ({})", parts.join(", "));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_holds_every_row_of_the_seeds_comparison() {
        let rows = rows();
        assert_eq!(rows.len(), 119);
        let first = &rows[0];
        assert_eq!(first.name, "3G-UKEY-HDD/xfs-10dd-4k-8p-4096M-20:10-X");
        assert_eq!((first.legacy, first.ioless), (54.39, 54.73));
        for r in &rows {
            assert!(case::parse(r.name).is_ok(), "{} is a case name", r.name);
            assert!(r.legacy > 0.0 && r.ioless > 0.0);
        }
        assert_eq!(group("JBOD-10HDD-16G/xfs-1dd-1M-24p-16384M-20:10-X"), "JBOD");
        assert_eq!(group("thresh=1M/xfs-1dd-4k-8p-4096M-1M:10-X"), "single disk");
    }

    #[test]
    fn errors_compare_ratios_not_rates() {
        let row = Row { name: "x", legacy: 50.0, ioless: 55.0 };
        let m = Measured { row: row.clone(), legacy: 100.0, ioless: 100.0 };
        let e = m.error().expect("3.1 wrote");
        assert!((e - 0.1).abs() < 1e-12);
        // A run too short to write anything is left out, and said so.
        let idle = Measured { row, legacy: 0.0, ioless: 0.0 };
        assert_eq!(idle.error(), None);
        assert_eq!(mean_error([&m, &idle, &m]), Some(e));
        let text = report(&[m, idle]);
        assert!(text.contains("mean error 0.100 over 1 cases (single disk 0.100 (1))"), "{text}");
        assert!(text.contains("1 cases wrote nothing on 3.1 in this time"), "{text}");
    }
}
