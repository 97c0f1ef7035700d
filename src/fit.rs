//! `dirtyviz cases --fit PROFILE`: the choice of a machine profile's
//! fitted numbers, made again from the seed's table.
//!
//! Each number of a profile marked fitted carries a short list of
//! plausible values (`candidates` in `assets/machines.ron`). The numbers
//! fall in parts that act on different cases: the disks' (rate, seek,
//! contention) on the profile's disk cases, the USB key's rate on its UKEY
//! cases, the NFS server's on its NFS cases. For each part the fit runs
//! every combination of the part's candidates on the profile's cases of
//! the fitted half (even lines of `assets/seed-table.txt`) with each of
//! [`SEEDS`], and scores it by the mean |model/seed − 1| of the MiB/s of
//! both kernels (as `dirtyviz cases` reports it).
//!
//! A combination replaces the profile's numbers only when it scores lower
//! than they do with every one of the seeds, so that the device noise of
//! one seed cannot choose; among such combinations the lowest mean wins.
//! The held-out half is run for the profile's numbers and for the winner,
//! to report how each predicts it; it never takes part in the choice.

use std::fmt::Write as _;

use crate::cases::{On, Row, group, mean_rate_error, measure_on, rows};
use crate::error::{Error, Result};
use crate::run::on_every_cpu;
use crate::run::summary::NOT_KNOWN;
use crate::scenario::case;
use crate::scenario::machine::Machine;

/// The seeds each combination runs with.
pub const SEEDS: [u64; 5] = [1, 2, 3, 4, 5];

/// Numbers of a profile fitted together, named by what they belong to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The HDDs: rate, seek, contention on the controller.
    Disks,
    /// The USB key's rate.
    UsbKey,
    /// The NFS link and server.
    Nfs,
}

impl Part {
    /// The part a number of [`Machine::figures`] belongs to.
    fn of(figure: &str) -> Part {
        if figure.starts_with("NFS") {
            Part::Nfs
        } else if figure.starts_with("USB key") {
            Part::UsbKey
        } else {
            Part::Disks
        }
    }

    /// Whether its numbers can change what the case of `row` writes.
    fn acts_on(self, row: &Row) -> bool {
        match self {
            // Not the USB key alone (`UKEY-thresh=50M`): no disk of the
            // profile writes there.
            Part::Disks => case::parse(row.name).is_ok_and(|s| s.devices.iter().any(|d| d.kind.is_hdd())),
            Part::UsbKey => group(row.name) == "USB key",
            Part::Nfs => group(row.name) == "NFS",
        }
    }

    /// What the report calls it.
    pub fn name(self) -> &'static str {
        match self {
            Part::Disks => "disks",
            Part::UsbKey => "USB key",
            Part::Nfs => "NFS",
        }
    }
}

/// One part of a profile to fit: its fitted numbers, their candidates and
/// the cases they act on.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Which part.
    pub part: Part,
    /// Each fitted number's name, its value in the profile and its candidates.
    pub figures: Vec<(&'static str, f64, Vec<f64>)>,
    /// The profile's cases of the fitted half it acts on.
    pub fitted: Vec<Row>,
    /// Those of the held-out half.
    pub held: Vec<Row>,
}

impl Plan {
    /// Every combination of the candidates, the first number varying slowest.
    pub fn combinations(&self) -> Vec<Vec<f64>> {
        self.figures.iter().fold(vec![Vec::new()], |acc, (_, _, candidates)| {
            acc.iter()
                .flat_map(|head| {
                    candidates.iter().map(move |&v| {
                        let mut c = head.clone();
                        c.push(v);
                        c
                    })
                })
                .collect()
        })
    }

    /// Runs the fit makes for this part: every combination on the fitted
    /// cases and two sets of numbers on the held-out ones, with each seed
    /// and on both kernels.
    pub fn runs(&self) -> usize {
        (self.combinations().len() * self.fitted.len() + 2 * self.held.len()) * SEEDS.len() * 2
    }
}

/// The parts of `profile` that have fitted numbers, in the order of its
/// figures. An error when a fitted number has no candidates or is not
/// among them, or when no case of the seed's table runs on the profile.
pub fn plan(profile: &Machine) -> Result<Vec<Plan>> {
    let mine: Vec<Row> = rows()
        .into_iter()
        .filter(|r| case::parse(r.name).is_ok_and(|s| s.machine.as_deref() == Some(profile.name.as_str())))
        .collect();
    let mut plans: Vec<Plan> = Vec::new();
    for (name, f) in profile.figures() {
        if !f.fitted() {
            continue;
        }
        if !f.candidates.contains(&f.value) {
            return Err(Error::invalid(format!(
                "assets/machines.ron: {} {name}: the value {} is not among its candidates {:?}",
                profile.name, f.value, f.candidates
            )));
        }
        let part = Part::of(name);
        let entry = (name, f.value, f.candidates.clone());
        match plans.iter_mut().find(|p| p.part == part) {
            Some(p) => p.figures.push(entry),
            None => {
                let acting =
                    |fitted: bool| mine.iter().filter(move |r| r.fitted() == fitted && part.acts_on(r)).cloned();
                plans.push(Plan {
                    part,
                    figures: vec![entry],
                    fitted: acting(true).collect(),
                    held: acting(false).collect(),
                });
            }
        }
    }
    if let Some(p) = plans.iter().find(|p| p.fitted.is_empty()) {
        return Err(Error::invalid(format!(
            "no case of the seed's fitted half runs on {}'s {}: nothing to fit",
            profile.name,
            p.part.name()
        )));
    }
    Ok(plans)
}

/// One combination of a part's numbers and how it scored.
#[derive(Clone, Debug, PartialEq)]
pub struct Trial {
    /// The numbers, in the order of [`Plan::figures`].
    pub values: Vec<f64>,
    /// Mean |model/seed − 1| over the fitted cases with each of
    /// [`SEEDS`] it ran with, in their order: all of them unless it scored
    /// higher than the profile's numbers with one (with [`Pruning::Cases`],
    /// or was found unable to score lower partway through a seed, which it
    /// then has no score for).
    pub fitted: Vec<f64>,
}

impl Trial {
    /// The mean over the seeds it ran with.
    pub fn mean(&self) -> f64 {
        self.fitted.iter().sum::<f64>() / self.fitted.len() as f64
    }

    /// True when it ran with every seed and scores lower than `other` with
    /// each.
    pub fn beats(&self, other: &Trial) -> bool {
        self.fitted.len() == SEEDS.len()
            && other.fitted.len() == SEEDS.len()
            && self.fitted.iter().zip(&other.fitted).all(|(a, b)| a < b)
    }
}

/// What the fit of one part found.
#[derive(Clone, Debug)]
pub struct PartFit {
    /// The part, its numbers and cases.
    pub plan: Plan,
    /// Every combination: those that ran with every seed first, lowest
    /// mean first, then the others by how many seeds they lasted.
    pub trials: Vec<Trial>,
    /// The profile's numbers among them.
    pub current: usize,
    /// The winner, if one beats the profile's numbers with every seed.
    pub chosen: Option<usize>,
    /// Mean rate error over the held-out cases and the seeds: the
    /// profile's numbers, then the winner's; NaN without held-out cases.
    /// None when they were not run ([`Pruning::Cases`]).
    pub held: Option<(f64, Option<f64>)>,
}

/// `profile` with the numbers of `plan` set to `values`.
fn with_values(profile: &Machine, plan: &Plan, values: &[f64]) -> Machine {
    plan.figures.iter().zip(values).fold(profile.clone(), |m, ((name, _, _), &v)| m.with(name, v))
}

/// Mean rate error of `rows` on `profile` with `seed`.
fn score(rows: &[Row], profile: &Machine, seed: u64, duration_ns: u64, ran: &(dyn Fn() + Sync)) -> Result<f64> {
    let measured = measure_on(rows, &On { seed, profile: Some(profile) }, duration_ns, ran)?;
    Ok(mean_rate_error(&measured).unwrap_or(0.0))
}

/// [`score`] of `rows` on `profile` with `seed`, its cases run one after
/// another in the order of `order` (indices into `rows`), or None once the
/// errors so far reach a mean of `bar` over all of them (the runs left
/// are counted with `ran()`). The score is summed in the rows' order, as
/// [`score`] sums it.
fn score_under(
    rows: &[Row],
    order: &[usize],
    profile: &Machine,
    seed: u64,
    bar: f64,
    duration_ns: u64,
    ran: &(dyn Fn() + Sync),
) -> Result<Option<f64>> {
    let on = On { seed, profile: Some(profile) };
    let n = (2 * rows.len()) as f64;
    let mut measured = Vec::with_capacity(rows.len());
    let mut sum = 0.0;
    for (k, &i) in order.iter().enumerate() {
        let m = measure_on(std::slice::from_ref(&rows[i]), &on, duration_ns, ran)?;
        sum = m.iter().flat_map(|m| m.rate_errors()).fold(sum, |s, e| s + e);
        measured.extend(m.into_iter().map(|m| (i, m)));
        // The last case's verdict is the row-order mean's, below, as
        // [`score`]'s: a sum in another order may round the other way.
        if k + 1 < order.len() && sum / n >= bar {
            (0..(rows.len() - k - 1) * 2).for_each(|_| ran());
            return Ok(None);
        }
    }
    measured.sort_by_key(|(i, _)| *i);
    Ok(Some(mean_rate_error(measured.iter().map(|(_, m)| m)).unwrap_or(0.0)))
}

/// How much of a losing combination's runs [`fit`] skips.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pruning {
    /// The seeds after one it scored no lower than the profile's numbers
    /// with: every combination has a score for each seed it ran, and the
    /// report ranks them.
    Seeds,
    /// Also the rest of a seed's cases, once the errors it has so far
    /// reach the profile's score; the profile's numbers run a seed only
    /// while a combination is left to set beside them, and the held-out
    /// half is not run. The choice is the same, but losers are left
    /// without scores to rank, and the profile's numbers with fewer
    /// seeds (`cases --fit --quick`).
    Cases,
}

/// Fits every part of `profile` with runs of `duration_ns`; `ran()` is
/// called after each run, and for each run found unneeded ([`Plan::runs`]
/// in all).
///
/// A combination runs with the next seed only while it has scored lower
/// than the profile's numbers with every seed so far: the others cannot
/// win, so their remaining runs are skipped. With [`Pruning::Cases`],
/// within a seed the profile's numbers run first, and a combination runs
/// its cases one after another, those the profile's numbers missed most
/// for the simulation events they took first, only while the errors it
/// has so far, over all the cases, stay under the profile's score:
/// errors are never negative, so one that reaches it before its last
/// case cannot score lower (it is left without a score for that seed;
/// the last case's is the mean's, as without pruning); the profile's
/// numbers stop running seeds once no combination
/// is left, and the held-out half is not run. The choice is the same
/// either way.
pub fn fit(
    profile: &Machine,
    plans: Vec<Plan>,
    duration_ns: u64,
    pruning: Pruning,
    ran: &(dyn Fn() + Sync),
) -> Result<Vec<PartFit>> {
    let mut fits = Vec::new();
    for plan in plans {
        let combinations = plan.combinations();
        let now: Vec<f64> = plan.figures.iter().map(|(_, v, _)| *v).collect();
        let mine = combinations.iter().position(|c| *c == now).expect("the profile's numbers are candidates");
        let mut scores: Vec<Vec<f64>> = vec![Vec::new(); combinations.len()];
        let mut alive: Vec<usize> = (0..combinations.len()).filter(|&i| i != mine).collect();
        for &seed in &SEEDS {
            if pruning == Pruning::Cases && alive.is_empty() {
                // Nothing left to set beside the profile's numbers.
                let left = SEEDS.len() - scores[mine].len();
                (0..left * plan.fitted.len() * 2).for_each(|_| ran());
                break;
            }
            let measured = measure_on(&plan.fitted, &On { seed, profile: Some(profile) }, duration_ns, ran)?;
            let bar = mean_rate_error(&measured).unwrap_or(0.0);
            scores[mine].push(bar);
            // The cases the profile's numbers missed most for what they
            // cost to run first: a loser is found out soonest.
            let missed = |i: usize| measured[i].rate_errors().iter().sum::<f64>() / measured[i].events.max(1) as f64;
            let mut order: Vec<usize> = (0..plan.fitted.len()).collect();
            order.sort_by(|&a, &b| missed(b).total_cmp(&missed(a)));
            let scored = on_every_cpu(&alive, |&i| {
                let m = with_values(profile, &plan, &combinations[i]);
                match pruning {
                    Pruning::Seeds => score(&plan.fitted, &m, seed, duration_ns, ran).map(Some),
                    Pruning::Cases => score_under(&plan.fitted, &order, &m, seed, bar, duration_ns, ran),
                }
            });
            let mut kept = Vec::new();
            for (&i, e) in alive.iter().zip(scored) {
                if let Some(e) = e? {
                    scores[i].push(e);
                    if e < bar {
                        kept.push(i);
                    }
                }
            }
            let left = SEEDS.len() - scores[mine].len();
            (0..(alive.len() - kept.len()) * left * plan.fitted.len() * 2).for_each(|_| ran());
            alive = kept;
        }
        let mut trials: Vec<Trial> =
            combinations.into_iter().zip(scores).map(|(values, fitted)| Trial { values, fitted }).collect();
        // Those with every seed first, by their mean; then by how far they got.
        trials.sort_by(|a, b| b.fitted.len().cmp(&a.fitted.len()).then(a.mean().total_cmp(&b.mean())));
        let current = trials.iter().position(|t| t.values == now).expect("the profile's numbers are candidates");
        let chosen = trials.iter().position(|t| t.beats(&trials[current]));
        let held_of = |values: &[f64]| -> Result<f64> {
            if plan.held.is_empty() {
                return Ok(f64::NAN);
            }
            let m = with_values(profile, &plan, values);
            let e = SEEDS.iter().map(|&seed| score(&plan.held, &m, seed, duration_ns, ran)).sum::<Result<f64>>()?;
            Ok(e / SEEDS.len() as f64)
        };
        let held = if pruning == Pruning::Cases {
            (0..2 * plan.held.len() * SEEDS.len() * 2).for_each(|_| ran());
            None
        } else {
            if chosen.is_none() {
                // The winner's held-out runs are not needed.
                (0..plan.held.len() * SEEDS.len() * 2).for_each(|_| ran());
            }
            Some((held_of(&now)?, chosen.map(|c| held_of(&trials[c].values)).transpose()?))
        };
        fits.push(PartFit { plan, trials, current, chosen, held });
    }
    Ok(fits)
}

/// How many of the best combinations the report lists per part.
const SHOWN: usize = 10;

/// The report: per part, the best combinations and the profile's, what
/// the fit keeps or changes, and the held-out error of both.
pub fn report(profile: &Machine, fits: &[PartFit]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "fit of {}: every combination of a part's candidates on the profile's cases of the fitted half\n\
         (even lines of assets/seed-table.txt), seeds {}-{}; score: mean |model/seed − 1| of the MiB/s of both\n\
         kernels. A combination runs with the next seed only while it scores lower than the profile's\n\
         numbers with each seed so far; it wins only by scoring lower with every seed.",
        profile.name,
        SEEDS[0],
        SEEDS[SEEDS.len() - 1]
    );
    if fits.iter().any(|f| f.held.is_none()) {
        let _ = writeln!(
            s,
            "--quick: a combination stops a seed's cases once it cannot score lower, the profile's numbers\n\
             stop once no combination is left (– marks what did not run), and the held-out half is not run."
        );
    }
    for f in fits {
        let p = &f.plan;
        let names: Vec<&str> = p.figures.iter().map(|(n, _, _)| *n).collect();
        let _ = writeln!(
            s,
            "\n{} ({} fitted cases, {} held out; {} combinations): {}",
            p.part.name(),
            p.fitted.len(),
            p.held.len(),
            f.trials.len(),
            names.join(", ")
        );
        let head: Vec<String> = names.iter().map(|n| format!("{n:>w$}", w = n.len().max(8))).collect();
        let seeds: Vec<String> = SEEDS.iter().map(|sd| format!("{:>7}", format!("seed {sd}"))).collect();
        let _ = writeln!(s, "  {} │ {:>7} {} │", head.join(" "), "mean", seeds.join(" "));
        let shown = (0..f.trials.len()).filter(|&i| i < SHOWN || i == f.current);
        for i in shown {
            let t = &f.trials[i];
            let cells: Vec<String> =
                names.iter().zip(&t.values).map(|(n, v)| format!("{v:>w$}", w = n.len().max(8))).collect();
            let per_seed: Vec<String> = (0..SEEDS.len())
                .map(|k| t.fitted.get(k).map_or_else(|| format!("{NOT_KNOWN:>7}"), |e| format!("{e:>7.4}")))
                .collect();
            let mean =
                if t.fitted.len() == SEEDS.len() { format!("{:>7.4}", t.mean()) } else { format!("{NOT_KNOWN:>7}") };
            let mark = if i == f.current {
                "the profile's"
            } else if f.chosen == Some(i) {
                "chosen: better with every seed"
            } else if t.beats(&f.trials[f.current]) {
                "better with every seed"
            } else {
                ""
            };
            let _ = writeln!(s, "  {} │ {mean} {} │ {mark}", cells.join(" "), per_seed.join(" "));
        }
        let better = f.trials.iter().filter(|t| t.beats(&f.trials[f.current])).count();
        let _ = writeln!(
            s,
            "  {better} of {} other combinations score lower than the profile's with every seed",
            f.trials.len() - 1
        );
        let held = |e: Option<f64>| match e {
            Some(e) if !e.is_nan() => format!("{e:.4}"),
            _ => "none (no held-out case)".to_string(),
        };
        match f.chosen {
            None => {
                let _ = writeln!(s, "  kept: no combination scores lower than the profile's with every seed");
            }
            Some(c) => {
                let changes: Vec<String> = p
                    .figures
                    .iter()
                    .zip(&f.trials[c].values)
                    .map(|((n, was, _), v)| if v == was { format!("{n} {v}") } else { format!("{n} {v} (was {was})") })
                    .collect();
                let _ = writeln!(s, "  chosen: {}", changes.join(", "));
            }
        }
        match (f.held, f.chosen) {
            (None, _) => {
                let _ = writeln!(s, "  held-out error: not run (--quick; `dirtyviz cases` reports it)");
            }
            (Some((now, _)), None) => {
                let _ = writeln!(s, "  held-out error (not used to choose): {}", held(Some(now)));
            }
            (Some((now, new)), Some(_)) => {
                let _ = writeln!(
                    s,
                    "  held-out error (not used to choose): the profile's {}, the chosen {}",
                    held(Some(now)),
                    held(new)
                );
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::machine;

    /// The disks' numbers act on every case with a disk, not on the USB
    /// key alone; the key's on both kinds of USB key case.
    #[test]
    fn each_part_acts_on_the_cases_its_devices_write() {
        let row = |name: &'static str| Row { name, line: 2, legacy: 1.0, ioless: 1.0 };
        let (alone, beside) =
            (row("UKEY-thresh=50M/xfs-1dd-4k-8p-4096M-50M:10-X"), row("3G-UKEY-HDD/xfs-1dd-4k-8p-4096M-20:10-X"));
        assert!(!Part::Disks.acts_on(&alone) && Part::Disks.acts_on(&beside));
        assert!(Part::UsbKey.acts_on(&alone) && Part::UsbKey.acts_on(&beside));
        let nfs = row("NFS-thresh=1G/nfs-1dd-1M-32p-32768M-1024M:10-X");
        assert!(!Part::Disks.acts_on(&nfs) && Part::Nfs.acts_on(&nfs));
        assert!(Part::Disks.acts_on(&row("JBOD-10HDD-16G/xfs-1dd-1M-24p-16384M-20:10-X")));
    }

    #[test]
    fn every_fitted_number_of_the_shipped_profiles_has_its_value_among_its_candidates() {
        for m in machine::all() {
            let plans = plan(m).unwrap_or_else(|e| panic!("{}: {e}", m.name));
            let fitted: usize = plans.iter().map(|p| p.figures.len()).sum();
            assert_eq!(fitted, m.fitted(), "{}", m.name);
            for p in &plans {
                assert!(!p.fitted.is_empty() && !p.held.is_empty(), "{} {}", m.name, p.part.name());
            }
        }
    }

    #[test]
    fn parts_group_the_numbers_and_their_cases() {
        let m = machine::get("32p-32768M").expect("shipped");
        let plans = plan(m).expect("valid");
        let parts: Vec<Part> = plans.iter().map(|p| p.part).collect();
        assert_eq!(parts, [Part::Disks, Part::Nfs]);
        // The seed's NFS cases are twelve, half of them fitted.
        let nfs = &plans[1];
        assert_eq!((nfs.fitted.len(), nfs.held.len()), (6, 6));
        assert!(nfs.fitted.iter().all(|r| r.fitted() && group(r.name) == "NFS"));
        assert!(plans[0].fitted.iter().all(|r| group(r.name) == "single disk"));
        // Combinations: every candidate of each number, the first slowest.
        let p = Plan {
            part: Part::Disks,
            figures: vec![("disk [MiB/s]", 1.0, vec![1.0, 2.0]), ("seek [ms]", 5.0, vec![5.0, 6.0, 7.0])],
            fitted: Vec::new(),
            held: Vec::new(),
        };
        let c = p.combinations();
        assert_eq!(c.len(), 6);
        assert_eq!((c[0].clone(), c[1].clone(), c[5].clone()), (vec![1.0, 5.0], vec![1.0, 6.0], vec![2.0, 7.0]));
        let changed = with_values(m, &plans[1], &[61.0, 1.0, 226.0]);
        let server = changed.nfs.as_ref().expect("an NFS server");
        assert_eq!(
            (server.server_mbps.value, server.server_seek_ms.value, server.server_commit_ms.value),
            (61.0, 1.0, 226.0)
        );
        assert_eq!(changed.disk_mbps, m.disk_mbps, "the other parts stay");
    }

    #[test]
    fn the_report_marks_the_profiles_numbers_the_choice_and_the_seeds_not_run() {
        let m = machine::get("32p-32768M").expect("shipped");
        let plan = Plan {
            part: Part::Disks,
            figures: vec![("disk [MiB/s]", 104.0, vec![100.0, 104.0, 108.0])],
            fitted: Vec::new(),
            held: Vec::new(),
        };
        let trial = |v: f64, fitted: &[f64]| Trial { values: vec![v], fitted: fitted.to_vec() };
        let trials = vec![
            trial(108.0, &[0.1, 0.1, 0.1, 0.1, 0.1]),
            trial(104.0, &[0.2, 0.2, 0.2, 0.2, 0.2]),
            trial(100.0, &[0.3]),
        ];
        let fit = PartFit { plan, trials, current: 1, chosen: Some(0), held: Some((0.25, Some(0.5))) };
        let text = report(m, std::slice::from_ref(&fit));
        assert!(text.contains("disks (0 fitted cases, 0 held out; 3 combinations): disk [MiB/s]"), "{text}");
        assert!(text.contains("  chosen: disk [MiB/s] 108 (was 104)"), "{text}");
        assert!(text.contains("the profile's 0.2500, the chosen 0.5000"), "{text}");
        assert!(text.contains("1 of 2 other combinations score lower"), "{text}");
        let pruned = text.lines().find(|l| l.trim_start().starts_with("100 ")).expect("its row");
        let dashes = pruned.split_whitespace().filter(|w| *w == NOT_KNOWN).count();
        assert_eq!(dashes, 5, "no mean, four seeds not run: {pruned}");
        let profiles = text.lines().find(|l| l.trim_start().starts_with("104 ")).expect("its row");
        // A dash takes one column: both `│` of a row stand where the profile's do.
        let bars =
            |l: &str| -> Vec<usize> { l.chars().enumerate().filter(|(_, c)| *c == '│').map(|(i, _)| i).collect() };
        assert_eq!(bars(pruned), bars(profiles), "{text}");
        assert_eq!(bars(pruned).len(), 2, "{pruned}");
        // Kept, and no held-out case to judge by.
        assert!(!text.contains("--quick"), "{text}");
        let kept = PartFit { chosen: None, held: Some((f64::NAN, None)), ..fit.clone() };
        let text = report(m, &[kept]);
        assert!(text.contains("  kept: no combination") && text.contains("none (no held-out case)"), "{text}");
        // --quick: the held-out half was not run, and the report says so.
        let quick = PartFit { chosen: None, held: None, ..fit };
        let text = report(m, &[quick]);
        assert!(text.contains("\n--quick: a combination stops"), "{text}");
        assert!(text.contains("  held-out error: not run (--quick;"), "{text}");
        assert!(!text.contains("not used to choose"), "{text}");
    }

    #[test]
    fn a_combination_wins_only_when_it_is_better_with_every_seed() {
        let t = |fitted: &[f64]| Trial { values: Vec::new(), fitted: fitted.to_vec() };
        let profile = t(&[0.30, 0.30, 0.30, 0.30, 0.30]);
        assert!(t(&[0.29, 0.29, 0.29, 0.29, 0.29]).beats(&profile));
        // A lower mean with one seed worse is noise, not a better fit.
        let noisy = t(&[0.10, 0.10, 0.10, 0.10, 0.31]);
        assert!(noisy.mean() < profile.mean() && !noisy.beats(&profile));
        assert!(!profile.beats(&profile), "ties keep the profile's");
    }
}
