//! The seed's test machines as named profiles (`assets/machines.ron`).
//!
//! The seed ran its result tables on four boxes, named in every case by
//! its CPU count and memory (`…-8p-4096M-…`). A profile holds what the
//! model needs to know of a box: its disks (sequential rate and seek
//! cost), the host controller its disks share, its USB key, and the NFS
//! link and server its NFS cases wrote to. Each number says where it comes
//! from: fitted to the seed's figures (on the cases of even line number in
//! `assets/seed-table.txt`), taken from another box, or assumed.
//!
//! A profile gives defaults: a scenario's own device fields win over it,
//! and memory and CPUs stay the scenario's.

use serde::{Deserialize, Serialize};

use super::{DeviceKindSpec, ron_error, ron_options};
use crate::error::{Error, Result};
use crate::sim::ControllerConfig;

/// The profiles' source.
const MACHINES: &str = include_str!("../../assets/machines.ron");

/// Where a number of a profile comes from.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
pub enum Source {
    /// Fitted to these figures of the seed.
    Fitted(String),
    /// Read off the seed directly.
    Seed(String),
    /// Not in the seed: an assumption, and why.
    Assumed(String),
}

/// A number of a profile and where it comes from.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Figure {
    /// The value, in the unit its field names.
    pub value: f64,
    /// Where it comes from.
    pub source: Source,
    /// For a fitted number, the short list of plausible values the fit
    /// chooses from (`dirtyviz cases --fit`), in its unit.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<f64>,
}

impl Figure {
    /// True when fitted to the seed's figures.
    pub fn fitted(&self) -> bool {
        matches!(self.source, Source::Fitted(_))
    }
}

/// The NFS link and server a box's NFS cases wrote to.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct NfsProfile {
    /// The network link [MiB/s].
    pub link_mbps: Figure,
    /// Network round trip \[ms\].
    pub rtt_ms: Figure,
    /// The server's disk [MiB/s].
    pub server_mbps: Figure,
    /// The server's disk moving to another file \[ms\].
    pub server_seek_ms: Figure,
    /// Server memory for data not yet on its disk: its dirty limit \[MiB\].
    pub server_cache_mb: Figure,
    /// The server's background threshold: below it the server's disk
    /// writes only for COMMITs \[MiB\].
    pub server_background_mb: Figure,
    /// What a COMMIT costs the server beyond writing its data \[ms\].
    pub server_commit_ms: Figure,
}

/// One test machine.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Machine {
    /// Its name: CPUs and memory as the case names write them (`8p-4096M`).
    pub name: String,
    /// What it is and which cases ran on it.
    pub description: String,
    /// CPUs.
    pub cpus: usize,
    /// Memory \[MiB\].
    pub memory_mb: u64,
    /// HDDs it has for the tests.
    pub disks: u32,
    /// One HDD's sequential write rate [MiB/s].
    #[serde(default)]
    pub disk_mbps: Option<Figure>,
    /// One HDD's average seek \[ms\].
    #[serde(default)]
    pub seek_ms: Option<Figure>,
    /// The host controller its HDDs share: how much longer a transfer takes
    /// for each other disk transferring at the same time [1/disk]; none:
    /// each disk on a bus of its own.
    #[serde(default)]
    pub contention: Option<Figure>,
    /// Its USB key's write rate [MiB/s].
    #[serde(default)]
    pub usb_key_mbps: Option<Figure>,
    /// The NFS link and server of its NFS cases.
    #[serde(default)]
    pub nfs: Option<NfsProfile>,
}

impl Machine {
    /// Every number of the profile, with its name and unit.
    pub fn figures(&self) -> Vec<(&'static str, &Figure)> {
        let mut out: Vec<(&'static str, &Figure)> = [
            ("disk [MiB/s]", &self.disk_mbps),
            ("seek [ms]", &self.seek_ms),
            ("contention [1/disk]", &self.contention),
            ("USB key [MiB/s]", &self.usb_key_mbps),
        ]
        .into_iter()
        .filter_map(|(name, f)| f.as_ref().map(|f| (name, f)))
        .collect();
        if let Some(n) = &self.nfs {
            out.push(("NFS link [MiB/s]", &n.link_mbps));
            out.push(("NFS round trip [ms]", &n.rtt_ms));
            out.push(("NFS server disk [MiB/s]", &n.server_mbps));
            out.push(("NFS server seek [ms]", &n.server_seek_ms));
            out.push(("NFS server cache [MiB]", &n.server_cache_mb));
            out.push(("NFS server background [MiB]", &n.server_background_mb));
            out.push(("NFS server commit [ms]", &n.server_commit_ms));
        }
        out
    }

    /// Every number of the profile, as [`Machine::figures`] names them,
    /// to change (`dirtyviz cases --fit` tries other values).
    pub fn figures_mut(&mut self) -> Vec<(&'static str, &mut Figure)> {
        let mut out: Vec<(&'static str, &mut Figure)> = [
            ("disk [MiB/s]", self.disk_mbps.as_mut()),
            ("seek [ms]", self.seek_ms.as_mut()),
            ("contention [1/disk]", self.contention.as_mut()),
            ("USB key [MiB/s]", self.usb_key_mbps.as_mut()),
        ]
        .into_iter()
        .filter_map(|(name, f)| f.map(|f| (name, f)))
        .collect();
        if let Some(n) = &mut self.nfs {
            out.push(("NFS link [MiB/s]", &mut n.link_mbps));
            out.push(("NFS round trip [ms]", &mut n.rtt_ms));
            out.push(("NFS server disk [MiB/s]", &mut n.server_mbps));
            out.push(("NFS server seek [ms]", &mut n.server_seek_ms));
            out.push(("NFS server cache [MiB]", &mut n.server_cache_mb));
            out.push(("NFS server background [MiB]", &mut n.server_background_mb));
            out.push(("NFS server commit [ms]", &mut n.server_commit_ms));
        }
        out
    }

    /// The profile with the number called `name` (as [`Machine::figures`]
    /// names it) set to `value`.
    ///
    /// # Panics
    /// If the profile has no number of that name.
    pub fn with(&self, name: &str, value: f64) -> Machine {
        let mut m = self.clone();
        let (_, f) = m
            .figures_mut()
            .into_iter()
            .find(|(n, _)| *n == name)
            .unwrap_or_else(|| panic!("{} has no number called {name}", self.name));
        f.value = value;
        m
    }

    /// How many of its numbers are fitted to the seed.
    pub fn fitted(&self) -> usize {
        self.figures().iter().filter(|(_, f)| f.fitted()).count()
    }
}

/// Every profile, in the order of `assets/machines.ron`.
pub fn all() -> &'static [Machine] {
    static ALL: std::sync::OnceLock<Vec<Machine>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        ron_options()
            .from_str(MACHINES)
            .unwrap_or_else(|e| panic!("{}", ron_error("assets/machines.ron", MACHINES, &e)))
    })
}

/// The profile called `name`, or an error naming the valid ones.
pub fn get(name: &str) -> Result<&'static Machine> {
    all().iter().find(|m| m.name == name).ok_or_else(|| {
        let names: Vec<&str> = all().iter().map(|m| m.name.as_str()).collect();
        Error::invalid(format!(
            "unknown machine `{}`, expected one of {}{}",
            crate::error::printable(name),
            names.join(", "),
            crate::error::did_you_mean(name, names.iter().copied())
        ))
    })
}

/// A box's name as its profile would have it: `8p-4096M`.
pub fn box_name(cpus: usize, memory_mb: u64) -> String {
    format!("{cpus}p-{memory_mb}M")
}

/// The box a case name's CPUs and memory name, if the seed has one.
pub fn for_case(cpus: usize, memory_mb: u64) -> Option<&'static Machine> {
    all().iter().find(|m| m.cpus == cpus && m.memory_mb == memory_mb)
}

/// The NFS link and server a scenario's NFS mounts get by default.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NfsDefaults {
    /// Network round trip \[ms\].
    pub rtt_ms: f64,
    /// The server's disk [MiB/s].
    pub server_mbps: f64,
    /// The server's disk moving to another file \[ms\].
    pub server_seek_ms: f64,
    /// Server memory for data not yet on its disk \[MiB\].
    pub server_cache_mb: u64,
    /// The server's background threshold \[MiB\].
    pub server_background_mb: u64,
    /// What a COMMIT costs the server beyond writing its data \[ms\].
    pub server_commit_ms: f64,
}

/// What a profile, or none, gives a scenario's devices by default.
#[derive(Clone, Copy, Debug)]
pub struct Defaults<'a> {
    machine: Option<&'a Machine>,
    /// NFS mounts.
    pub nfs: NfsDefaults,
}

impl<'a> Defaults<'a> {
    /// The defaults of `machine`; without one, a generic box (1 Gbit/s to
    /// an NFS server with an 80 MiB/s disk).
    pub fn of(machine: Option<&'a Machine>) -> Defaults<'a> {
        let generic = NfsDefaults {
            rtt_ms: 0.2,
            server_mbps: 80.0,
            server_seek_ms: 0.0,
            server_cache_mb: 128,
            server_background_mb: 0,
            server_commit_ms: 150.0,
        };
        let nfs = machine.and_then(|m| m.nfs.as_ref()).map_or(generic, |n| NfsDefaults {
            rtt_ms: n.rtt_ms.value,
            server_mbps: n.server_mbps.value,
            server_seek_ms: n.server_seek_ms.value,
            server_cache_mb: n.server_cache_mb.value as u64,
            server_background_mb: n.server_background_mb.value as u64,
            server_commit_ms: n.server_commit_ms.value,
        });
        Defaults { machine, nfs }
    }

    /// Bandwidth [MiB/s] and seek \[ms\] of one device of `kind` (a member
    /// disk for a JBOD or RAID0), where the machine gives them.
    pub fn device(&self, kind: DeviceKindSpec) -> (Option<f64>, Option<f64>) {
        let Some(m) = self.machine else { return (None, None) };
        let value = |f: &Option<Figure>| f.as_ref().map(|f| f.value);
        match kind {
            DeviceKindSpec::Hdd | DeviceKindSpec::Jbod | DeviceKindSpec::Raid0 => {
                (value(&m.disk_mbps), value(&m.seek_ms))
            }
            DeviceKindSpec::UsbKey => (value(&m.usb_key_mbps), None),
            DeviceKindSpec::Nfs => (m.nfs.as_ref().map(|n| n.link_mbps.value), None),
            DeviceKindSpec::Ssd => (None, None),
        }
    }

    /// The controller a device of `kind` hangs on: the machine's, for its HDDs.
    pub fn controller(&self, kind: DeviceKindSpec) -> Option<usize> {
        let shared = self.machine.is_some_and(|m| m.contention.is_some());
        (shared && kind.is_hdd()).then_some(0)
    }

    /// The machine's host controllers.
    pub fn controllers(&self) -> Vec<ControllerConfig> {
        let bus = self.machine.and_then(|m| m.contention.as_ref());
        bus.map(|c| ControllerConfig { name: "bus".into(), contention: c.value }).into_iter().collect()
    }
}

/// `dirtyviz machines`: each profile with its numbers and their sources;
/// its texts wrapped to `width` columns where given (a terminal's).
pub fn report(width: Option<usize>) -> String {
    use std::fmt::Write as _;
    // `text` after `first` (its own width taken from the line), its
    // further lines indented `hang` columns.
    let hanging = |first: &str, hang: usize, text: &str| -> String {
        let rows = match width {
            Some(w) => crate::units::hanging_lines(first, hang, text, w),
            None => vec![format!("{first}{text}")],
        };
        rows.iter().map(|r| format!("{r}\n")).collect()
    };
    // The columns before a figure's source: name, value, kind.
    const SOURCE_AT: usize = 2 + 27 + 1 + 8 + 2 + 7 + 2;
    let mut s = String::new();
    for m in all() {
        // Its devices: the disks, and the USB key and NFS mount it has.
        let mut devices = crate::units::count(m.disks as u64, "disk");
        if m.usb_key_mbps.is_some() {
            devices += " and a USB key";
        }
        if m.nfs.is_some() {
            devices += " and an NFS mount";
        }
        let _ =
            writeln!(s, "{}  ({} CPUs, {} MiB, {devices}; {} fitted numbers)", m.name, m.cpus, m.memory_mb, m.fitted());
        s += &hanging("  ", 2, &m.description);
        for (name, f) in m.figures() {
            let (kind, from) = match &f.source {
                Source::Fitted(w) => ("fitted", w),
                Source::Seed(w) => ("seed", w),
                Source::Assumed(w) => ("assumed", w),
            };
            // As few decimals as the value needs: 3000, 5.5, 0.1.
            let value = crate::units::trimmed(f.value, 2);
            s += &hanging(&format!("  {name:27} {value:>8}  {kind:7}  "), SOURCE_AT, from);
            if name.starts_with("contention") {
                let each = format!(
                    "a transfer takes {}% longer for each other disk on the controller transferring when it starts",
                    crate::units::trimmed(f.value * 100.0, 1)
                );
                s += &hanging(&" ".repeat(SOURCE_AT), SOURCE_AT, &each);
            }
            if !f.candidates.is_empty() {
                let each: Vec<String> = f.candidates.iter().map(|v| v.to_string()).collect();
                s += &hanging(&" ".repeat(SOURCE_AT), SOURCE_AT, &format!("chosen among {}", each.join(", ")));
            }
        }
        s.push('\n');
    }
    s.push_str("`dirtyviz cases --fit PROFILE` chooses the fitted numbers again.\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_shows_as_few_decimals_as_a_value_needs_and_every_device() {
        let r = report(None);
        let row = |name: &str| r.lines().find(|l| l.trim_start().starts_with(name)).map(str::split_whitespace);
        let value = |name: &str, at: usize| row(name).and_then(|mut w| w.nth(at)).expect("a row").to_string();
        assert_eq!(value("NFS server cache [MiB]", 4), "3000");
        assert_eq!(value("NFS round trip [ms]", 4), "0.2");
        assert_eq!(value("USB key [MiB/s]", 3), "5.5");
        assert_eq!(value("contention [1/disk]", 2), "0.1");
        assert!(r.contains("8p-4096M  (8 CPUs, 4096 MiB, 1 disk and a USB key; 3 fitted numbers)"), "{r}");
        assert!(r.contains("32p-32768M  (32 CPUs, 32768 MiB, 1 disk and an NFS mount; 5 fitted numbers)"), "{r}");
        assert!(r.contains("16p-8192M  (16 CPUs, 8192 MiB, 10 disks; 2 fitted numbers)"), "{r}");
        assert!(
            r.contains("a transfer takes 10% longer for each other disk on the controller transferring when it starts"),
            "{r}"
        );
    }

    #[test]
    fn the_shipped_profiles_parse_and_cover_the_seeds_boxes() {
        let names: Vec<&str> = all().iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["8p-4096M", "16p-8192M", "24p-16384M", "32p-32768M"]);
        for m in all() {
            assert_eq!(m.name, format!("{}p-{}M", m.cpus, m.memory_mb), "named as the case names write it");
            assert!(m.disk_mbps.is_some() && m.seek_ms.is_some(), "{}: its disks", m.name);
            assert!(m.fitted() <= 6, "{}: few fitted numbers, got {}", m.name, m.fitted());
        }
        assert_eq!(for_case(24, 16384).map(|m| m.name.as_str()), Some("24p-16384M"));
        assert!(for_case(3, 1000).is_none());
        let e = get("nope").expect_err("unknown");
        assert!(e.to_string().contains("unknown machine `nope`") && e.to_string().contains("32p-32768M"), "{e}");
        assert!(report(None).contains("fitted"));
        // Wrapped to 80 columns, every line fits and no word is lost.
        let (whole, wrapped) = (report(None), report(Some(80)));
        assert!(whole.lines().any(|l| l.chars().count() > 200), "a long line to wrap");
        assert!(wrapped.lines().all(|l| l.chars().count() <= 80), "{wrapped}");
        let words = |t: &str| t.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        assert_eq!(words(&whole), words(&wrapped));
        // figures() and figures_mut() list the same numbers in the same order.
        for m in all() {
            let names: Vec<&str> = m.figures().iter().map(|(n, _)| *n).collect();
            let mut copy = m.clone();
            let names_mut: Vec<&str> = copy.figures_mut().iter().map(|(n, _)| *n).collect();
            assert_eq!(names, names_mut, "{}", m.name);
            for (n, f) in m.figures() {
                assert_eq!(
                    m.with(n, f.value + 1.0).figures().iter().find(|(k, _)| *k == n).map(|(_, g)| g.value),
                    Some(f.value + 1.0)
                );
            }
        }
    }
}
