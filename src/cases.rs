//! `dirtyviz cases`: the seed's result tables beside this model.
//!
//! The seed measured each test case on vanilla 3.1 and on 3.1 with the
//! IO-less series, on four test machines (see [`crate::scenario::machine`]).
//! The model runs each case on its machine's profile, on both kernels, and
//! is judged two ways: how far its rates are from the seed's (the mean of
//! |model/seed − 1| over both kernels) and how far its IO-less/3.1 ratio is
//! from the seed's.
//!
//! The profiles' fitted numbers are fitted on the cases of even line
//! number in `assets/seed-table.txt`; the cases of odd line number are held
//! out, and the errors are reported for each half apart.

use std::fmt::Write as _;

use crate::error::{Error, Result};
use crate::run::summary::NOT_KNOWN;
use crate::run::{RunOptions, on_every_cpu, run};
use crate::scenario::machine::Machine;
use crate::scenario::{LegacySpec, Overrides, case};

/// The seed's throughput for each test case [MiB/s].
const TABLE: &str = include_str!("../assets/seed-table.txt");

/// One row of the seed's tables.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The test case.
    pub name: &'static str,
    /// Line of `assets/seed-table.txt` it is on (from 1).
    pub line: usize,
    /// Vanilla 3.1 [MiB/s].
    pub legacy: f64,
    /// 3.1 with the IO-less series [MiB/s].
    pub ioless: f64,
}

impl Row {
    /// IO-less over 3.1, as the seed measured it.
    pub fn ratio(&self) -> f64 {
        self.ioless / self.legacy
    }

    /// True for the half the machine profiles are fitted on (even lines);
    /// the other half is held out.
    pub fn fitted(&self) -> bool {
        self.line.is_multiple_of(2)
    }
}

/// Every row of the seed's tables, in their order.
pub fn rows() -> Vec<Row> {
    TABLE
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(i, l)| {
            let mut f = l.split_whitespace();
            let mut num = || f.next().and_then(|v| v.parse().ok()).expect("the shipped table holds two rates per row");
            let (legacy, ioless) = (num(), num());
            let name = l.rsplit(' ').next().expect("the shipped table names every case");
            Row { name, line: i + 1, legacy, ioless }
        })
        .collect()
}

/// Whether the case `name` is one `filter` asks for: a part of its name
/// or of its kind's (`usb key`, `single`), in any case; every case when
/// there is no filter.
pub fn chosen(filter: Option<&str>, name: &str) -> bool {
    let Some(filter) = filter.map(|f| f.trim().to_lowercase()) else { return true };
    name.to_lowercase().contains(&filter) || group(name).to_lowercase().contains(&filter)
}

/// What a filter no case of `names` (a table's) matches is told: one
/// line, with examples and kinds from that table and the nearest part of
/// its cases' names, if one is near.
pub fn no_case<'a>(filter: &str, table: &str, names: impl IntoIterator<Item = &'a str> + Clone) -> Error {
    let kinds: Vec<&str> = KINDS.into_iter().filter(|k| names.clone().into_iter().any(|n| group(n) == *k)).collect();
    let mut parts: Vec<&str> =
        names.clone().into_iter().flat_map(|n| n.split(['/', '-'])).chain(kinds.clone()).collect();
    parts.sort_unstable_by_key(|p| p.to_lowercase());
    parts.dedup_by_key(|p| p.to_lowercase());
    let examples: Vec<&str> = ["JBOD", "UKEY", "thresh=1M/", "xfs-10dd"]
        .into_iter()
        .filter(|e| names.clone().into_iter().any(|n| chosen(Some(e), n)))
        .collect();
    let examples = if examples.is_empty() { String::new() } else { format!(", such as {}", examples.join(", ")) };
    Error::invalid(format!(
        "no case of {table} contains `{}` (a part of a case's name{examples}, or a kind: {}){}",
        crate::error::printable(filter),
        kinds.join(", "),
        crate::error::did_you_mean(filter, parts)
    ))
}

/// The kinds of world the seed's cases run on, in the order they are reported.
pub const KINDS: [&str; 5] = ["single disk", "JBOD", "RAID0", "USB key", "NFS"];

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
    /// Simulation events the two runs took: what the row costs to run.
    pub events: u64,
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

    /// |model/seed − 1| of the rate, for 3.1 and for IO-less.
    pub fn rate_errors(&self) -> [f64; 2] {
        [(self.legacy / self.row.legacy - 1.0).abs(), (self.ioless / self.row.ioless - 1.0).abs()]
    }
}

/// Mean error of the ratio over the rows of `measured` that have one, or
/// None when none has.
pub fn mean_error<'a>(measured: impl IntoIterator<Item = &'a Measured>) -> Option<f64> {
    let (sum, n) = measured.into_iter().filter_map(Measured::error).fold((0.0, 0), |(s, n), e| (s + e, n + 1));
    (n > 0).then(|| sum / n as f64)
}

/// Mean |model/seed − 1| of the rates over both kernels of every row, or
/// None for no rows.
pub fn mean_rate_error<'a>(measured: impl IntoIterator<Item = &'a Measured>) -> Option<f64> {
    let (sum, n) = measured.into_iter().flat_map(Measured::rate_errors).fold((0.0, 0), |(s, n), e| (s + e, n + 1));
    (n > 0).then(|| sum / n as f64)
}

/// Mean |model/seed − 1| of one kernel's rate (0: 3.1, 1: IO-less), or
/// None for no rows.
pub fn mean_kernel_error<'a>(measured: impl IntoIterator<Item = &'a Measured>, kernel: usize) -> Option<f64> {
    let (sum, n) = measured.into_iter().map(|m| m.rate_errors()[kernel]).fold((0.0, 0), |(s, n), e| (s + e, n + 1));
    (n > 0).then(|| sum / n as f64)
}

/// Which half of the table: the fitted one, the held-out one, or both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Half {
    /// Even lines: the profiles were fitted on them.
    Fitted,
    /// Odd lines: held out.
    HeldOut,
    /// Every row.
    All,
}

impl Half {
    fn holds(self, row: &Row) -> bool {
        match self {
            Half::Fitted => row.fitted(),
            Half::HeldOut => !row.fitted(),
            Half::All => true,
        }
    }
}

/// The rows of one kind (or of every kind, `None`) in one half.
pub fn select<'a>(measured: &'a [Measured], kind: Option<&str>, half: Half) -> Vec<&'a Measured> {
    measured.iter().filter(|m| kind.is_none_or(|k| group(m.row.name) == k) && half.holds(&m.row)).collect()
}

/// Runs every row for `duration_ns` on 3.1 and on the whole series, with
/// seed 1 on the machine profiles as shipped; `ran()` is called after each
/// of the `2 × rows.len()` runs.
pub fn measure(rows: &[Row], duration_ns: u64, ran: &(dyn Fn() + Sync)) -> Result<Vec<Measured>> {
    measure_on(rows, &On { seed: 1, profile: None }, duration_ns, ran)
}

/// What [`measure_on`] runs the rows with.
#[derive(Clone, Copy, Debug)]
pub struct On<'a> {
    /// Seed of the random generator.
    pub seed: u64,
    /// A profile to run on instead of the one each case names
    /// (`dirtyviz cases --fit` tries other numbers with it).
    pub profile: Option<&'a Machine>,
}

/// [`measure`] with another seed, or on another profile.
pub fn measure_on(rows: &[Row], on: &On, duration_ns: u64, ran: &(dyn Fn() + Sync)) -> Result<Vec<Measured>> {
    let runs: Vec<(usize, u8)> = (0..rows.len()).flat_map(|i| [(i, 0), (i, 11)]).collect();
    let rates = on_every_cpu(&runs, |&(i, patches)| -> Result<(f64, u64)> {
        let mut s = case::parse(rows[i].name)?;
        s.seed = on.seed;
        s.profile = on.profile.map(|m| Box::new(m.clone()));
        s.apply(&Overrides { patches: Some(patches), legacy: Some(LegacySpec::Linux31), ..Default::default() });
        let summary = run(&s, &RunOptions { duration_ns, ..Default::default() }, &mut |_| {})?;
        ran();
        Ok((summary.bdis.iter().map(|b| b.written_mbps).sum(), summary.events))
    });
    let mut rates = rates.into_iter();
    rows.iter()
        .map(|row| {
            let (legacy, legacy_events) = rates.next().expect("two runs per row")?;
            let (ioless, ioless_events) = rates.next().expect("two runs per row")?;
            Ok(Measured { row: row.clone(), legacy, ioless, events: legacy_events + ioless_events })
        })
        .collect()
}

/// `x` with three decimals, or [`NOT_KNOWN`] for nothing measured.
fn cell(x: Option<f64>, width: usize) -> String {
    x.map_or_else(|| format!("{NOT_KNOWN:>width$}"), |v| format!("{v:>width$.3}"))
}

/// The table: each case with the seed's rates and the model's, then the
/// errors per kind of world and half of the table.
pub fn report(measured: &[Measured]) -> String {
    let width = measured.iter().map(|m| m.row.name.len()).max().unwrap_or(4).max(4);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:width$}  half  │ seed [MiB/s]: 3.1  IO-less  ratio │ model [MiB/s]: 3.1  IO-less  ratio │ model/seed−1: 3.1  IO-less",
        "case"
    );
    for m in measured {
        let ratio = m.ratio().map_or_else(|| NOT_KNOWN.to_string(), |r| format!("{r:.2}"));
        let [e31, eio] = m.rate_errors();
        // Rounded first: -0.3% is +0%, not -0%.
        let signed = |model: f64, seed: f64| format!("{:+.0}%", (100.0 * (model / seed - 1.0)).round() + 0.0);
        let _ = writeln!(
            s,
            "{:width$}  {:4}  │ {:17.2} {:8.2} {:6.2} │ {:18.2} {:8.2} {ratio:>6} │ {:>17} {:>8}",
            m.row.name,
            if m.row.fitted() { "fit" } else { "held" },
            m.row.legacy,
            m.row.ioless,
            m.row.ratio(),
            m.legacy,
            m.ioless,
            if e31.is_finite() { signed(m.legacy, m.row.legacy) } else { NOT_KNOWN.into() },
            if eio.is_finite() { signed(m.ioless, m.row.ioless) } else { NOT_KNOWN.into() },
        );
    }
    let compared = measured.iter().filter(|m| m.ratio().is_some()).count();
    if compared < measured.len() {
        let silent = measured.len() - compared;
        let (cases, them) = if silent == 1 { ("case", "it") } else { ("cases", "them") };
        let _ = writeln!(s, "{silent} {cases} wrote nothing on 3.1 in this time: give {them} longer");
    }
    let _ = writeln!(
        s,
        "\nmodel against seed: mean |model/seed − 1| of the MiB/s of both kernels (and of each, held out), and mean |Δ| of the IO-less/3.1 ratio"
    );
    let _ = writeln!(
        s,
        "{:12} {:>16} {:>9} {:>9} {:>16} {:>16} {:>16} {:>16}",
        "kind", "rate held-out", "3.1", "IO-less", "rate fitted", "rate all", "ratio held-out", "ratio all"
    );
    let line = |label: &str, kind: Option<&str>| {
        let of = |half| select(measured, kind, half);
        let (held, fit, all) = (of(Half::HeldOut), of(Half::Fitted), of(Half::All));
        let with_n = |e: Option<f64>, n: usize| format!("{} ({n:>3})", cell(e, 9));
        let compared = |rows: &[&Measured]| rows.iter().filter(|m| m.ratio().is_some()).count();
        format!(
            "{label:12} {:>16} {:>9} {:>9} {:>16} {:>16} {:>16} {:>16}\n",
            with_n(mean_rate_error(held.iter().copied()), held.len()),
            cell(mean_kernel_error(held.iter().copied(), 0), 9),
            cell(mean_kernel_error(held.iter().copied(), 1), 9),
            with_n(mean_rate_error(fit.iter().copied()), fit.len()),
            with_n(mean_rate_error(all.iter().copied()), all.len()),
            with_n(mean_error(held.iter().copied()), compared(&held)),
            with_n(mean_error(all.iter().copied()), compared(&all)),
        )
    };
    for kind in KINDS {
        if measured.iter().any(|m| group(m.row.name) == kind) {
            s.push_str(&line(kind, Some(kind)));
        }
    }
    s.push_str(&line("all", None));
    s
}

/// Bounds `dirtyviz cases` checks on the held-out cases, each optional.
#[derive(Clone, Copy, Debug, Default)]
pub struct Bounds {
    /// Mean error of the IO-less/3.1 ratio.
    pub ratio: Option<f64>,
    /// Mean rate error over the held-out cases.
    pub rate: Option<f64>,
    /// Mean rate error over the held-out cases of each kind.
    pub kind: Option<f64>,
}

/// The bounds `measured` passes, as one line each for those it does not.
pub fn failures(measured: &[Measured], bounds: &Bounds) -> Vec<String> {
    let mut out = Vec::new();
    let held = select(measured, None, Half::HeldOut);
    let none_held = "no held-out case among these: nothing to compare";
    if held.is_empty() {
        // Every bound judges the held-out cases: none of them ran.
        if bounds.ratio.is_some() || bounds.rate.is_some() || bounds.kind.is_some() {
            out.push(none_held.into());
        }
        return out;
    }
    if let Some(max) = bounds.ratio {
        match mean_error(held.iter().copied()) {
            Some(e) if e > max => {
                out.push(format!("held-out mean error of the IO-less/3.1 ratio {e:.3} exceeds {max}"))
            }
            None => out.push("no held-out case wrote anything on 3.1 in this time: nothing to compare".into()),
            Some(_) => {}
        }
    }
    if let Some(max) = bounds.rate {
        match mean_rate_error(held.iter().copied()) {
            Some(e) if e > max => out.push(format!("held-out mean rate error {e:.3} exceeds {max}")),
            None => out.push(none_held.into()),
            Some(_) => {}
        }
    }
    if let Some(max) = bounds.kind {
        for kind in KINDS {
            if let Some(e) = mean_rate_error(select(measured, Some(kind), Half::HeldOut))
                && e > max
            {
                out.push(format!("held-out mean rate error of {kind} {e:.3} exceeds {max}"));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A filter is a part of a case's name or of its kind's, in any case;
    /// one that matches nothing is told with the nearest part.
    #[test]
    fn a_filter_takes_any_case_and_kind_names() {
        let names = |f: &str| -> Vec<&str> {
            super::rows().into_iter().filter(|r| super::chosen(Some(f), r.name)).map(|r| r.name).collect()
        };
        assert_eq!(names("ukey"), names("UKEY"));
        assert_eq!(names("usb").len(), 5, "the USB key's kind");
        assert_eq!(names("raid0"), names("RAID0"));
        assert_eq!(names("single disk").len(), 49);
        assert_eq!(super::rows().into_iter().filter(|r| super::chosen(None, r.name)).count(), 119);
        let rows = super::rows();
        let e = super::no_case("thersh=100M", "the seed's tables", rows.iter().map(|r| r.name)).to_string();
        assert!(e.ends_with("did you mean `thresh=100M`?"), "{e}");
    }

    #[test]
    fn the_table_holds_every_row_of_the_seeds_comparison() {
        let rows = rows();
        assert_eq!(rows.len(), 119);
        let first = &rows[0];
        assert_eq!(first.name, "3G-UKEY-HDD/xfs-10dd-4k-8p-4096M-20:10-X");
        assert_eq!((first.legacy, first.ioless), (54.39, 54.73));
        // Three comment lines come first: the first case is on line 4.
        assert_eq!((first.line, first.fitted()), (4, true));
        assert_eq!(rows.iter().filter(|r| r.fitted()).count(), 60);
        for r in &rows {
            assert!(case::parse(r.name).is_ok(), "{} is a case name", r.name);
            assert!(r.legacy > 0.0 && r.ioless > 0.0);
        }
        assert_eq!(group("JBOD-10HDD-16G/xfs-1dd-1M-24p-16384M-20:10-X"), "JBOD");
        assert_eq!(group("thresh=1M/xfs-1dd-4k-8p-4096M-1M:10-X"), "single disk");
    }

    #[test]
    fn errors_compare_rates_and_ratios() {
        let row = |line| Row { name: "x", line, legacy: 50.0, ioless: 55.0 };
        let m = Measured { row: row(5), legacy: 100.0, ioless: 100.0, events: 0 };
        let e = m.error().expect("3.1 wrote");
        assert!((e - 0.1).abs() < 1e-12);
        // 100 against 50 is +100%, 100 against 55 +81.8%.
        let r = mean_rate_error([&m]).expect("one row");
        assert!((r - (1.0 + 45.0 / 55.0) / 2.0).abs() < 1e-12, "{r}");
        // A run too short to write anything is left out of the ratio, and said so.
        let idle = Measured { row: row(6), legacy: 0.0, ioless: 0.0, events: 0 };
        assert_eq!(idle.error(), None);
        assert_eq!(mean_error([&m, &idle, &m]), Some(e));
        let both = [m, idle];
        let text = report(&both);
        assert!(text.contains("\n1 case wrote nothing on 3.1 in this time: give it longer\n"), "{text}");
        assert!(text.contains("single disk"), "{text}");
        // The halves: line 5 is held out, line 6 fitted.
        assert_eq!(select(&both, None, Half::HeldOut).len(), 1);
        assert_eq!(select(&both, Some("single disk"), Half::Fitted)[0].row.line, 6);
        let f = failures(&both, &Bounds { ratio: Some(0.05), rate: Some(0.5), kind: Some(2.0) });
        assert_eq!(f.len(), 2, "{f:?}");
        assert!(f[0].contains("ratio 0.100 exceeds 0.05") && f[1].contains("held-out mean rate error 0.909"), "{f:?}");
        // Only the held-out half counts: line 6 alone has nothing to judge,
        // and that is said once, not as a run that wrote nothing.
        let f = failures(&both[1..], &Bounds { ratio: Some(1.0), ..Bounds::default() });
        assert_eq!(f, ["no held-out case among these: nothing to compare"]);
        let fitted_only = [Measured { row: row(6), legacy: 50.0, ioless: 55.0, events: 0 }];
        let all = Bounds { ratio: Some(1.0), rate: Some(1.0), kind: Some(1.0) };
        assert_eq!(failures(&fitted_only, &all), ["no held-out case among these: nothing to compare"]);
        let kind_only = Bounds { kind: Some(1.0), ..Bounds::default() };
        assert_eq!(failures(&fitted_only, &kind_only), ["no held-out case among these: nothing to compare"]);
        // A held-out case that wrote nothing on 3.1 is another matter.
        let silent = [Measured { row: row(5), legacy: 0.0, ioless: 0.0, events: 0 }];
        let f = failures(&silent, &Bounds { ratio: Some(1.0), ..Bounds::default() });
        assert_eq!(f, ["no held-out case wrote anything on 3.1 in this time: nothing to compare"]);
    }

    /// The chars before each `│` of a line: where its columns start.
    fn bars(line: &str) -> Vec<usize> {
        line.chars().enumerate().filter(|(_, c)| *c == '│').map(|(i, _)| i).collect()
    }

    #[test]
    fn a_value_not_measured_is_an_en_dash_in_its_column() {
        let row = |line| Row { name: "x", line, legacy: 50.0, ioless: 55.0 };
        let both = [
            Measured { row: row(5), legacy: 100.0, ioless: 100.0, events: 0 },
            Measured { row: row(6), legacy: 0.0, ioless: 0.0, events: 0 },
        ];
        let text = report(&both);
        let lines: Vec<&str> = text.lines().collect();
        let idle = lines.iter().find(|l| l.starts_with("x     fit")).expect("the idle case's row");
        // Nothing on 3.1, so no ratio: a dash, as the run summaries write it.
        assert_eq!(idle.split_whitespace().filter(|w| *w == NOT_KNOWN).count(), 1, "{idle}");
        assert!(!idle.split_whitespace().any(|w| w == "-"), "{idle}");
        assert!(idle.contains(&format!("0.00 {NOT_KNOWN:>6} │")), "{idle}");
        // The dash takes one column: the rows line up with the header.
        let measured = lines.iter().find(|l| l.starts_with("x     held")).expect("the measured case's row");
        assert_eq!(bars(idle), bars(lines[0]), "{text}");
        assert_eq!(bars(measured), bars(lines[0]), "{text}");
        assert_eq!(idle.chars().count(), measured.chars().count(), "{text}");
        // The kinds' errors: with no held-out case, its three columns are
        // dashes, right-aligned under their headings.
        let text = report(&both[1..]);
        let kind = text.lines().find(|l| l.starts_with("kind ")).expect("the errors' header");
        let single = text.lines().find(|l| l.starts_with("single disk")).expect("the kind's errors");
        // "3.1" and "IO-less" end where their dashes do.
        let ends = |l: &str, word: &str| l.find(word).map(|b| l[..b].chars().count() + word.chars().count());
        let dash_ends: Vec<Option<usize>> =
            single.match_indices(NOT_KNOWN).map(|(b, _)| Some(single[..b].chars().count() + 1)).collect();
        assert_eq!(dash_ends.len(), 5, "{text}");
        assert_eq!(dash_ends[1..3], [ends(kind, " 3.1"), ends(kind, "IO-less")], "{text}");
        assert_eq!(single.chars().count(), kind.chars().count(), "{text}");
    }
}
