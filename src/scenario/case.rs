//! The seed's test-case names as scenarios.
//!
//! ```text
//! [PREFIX/]FS-WORKLOAD-BS-CPUSp-MEMM-DIRTY:BG-KERNEL
//! thresh=100M/xfs-10dd-4k-8p-4096M-100M:10-X
//! JBOD-10HDD-thresh=2G/ext4-100dd-1M-24p-16384M-2048M:10-X
//! 3G-UKEY-HDD/xfs-10dd-4k-8p-4096M-20:10-X
//! NFS-thresh=10M/nfs-2dd-1M-32p-32768M-10M:10-X
//! RAID0-10HDD-16G/xfs-1000dd-1M-24p-16384M-20:10-X
//! thresh=1G/X-100dd-4k-8p-4096M-1024M:10-3.1.0-rc8-ioless6a+
//! ```
//!
//! The prefix picks the devices: none of the below is one HDD, `UKEY` a USB
//! key (`UKEY-HDD`: a key and a disk), `JBOD-nHDD` n disks as n bdis,
//! `RAID0-nHDD` n disks striped into one, `JBOD-MMAP-RANDWRITE-4K` fio's mmap
//! random writes on a JBOD, `NFS` an NFS mount. Its other tokens
//! (`thresh=1G`, `thresh=1024M-1000M`, `3G`, `bs=1k`) are labels: the fields
//! after the slash carry the values, and a `thresh=` label must agree with
//! DIRTY (and BG) as in every name of the seed's tables. WORKLOAD is `Ndd` (N dd per bdi) or
//! fio's `fio_mmap_randwrite_4k`. DIRTY:BG are ratios (`20:10`) or sizes
//! with an M or G suffix (`1024M:10`, `400M:300M`). FS `X` (the filesystem
//! column of the seed's comparison table) means xfs. KERNEL is `X` (the
//! patch level asked for, the whole series by default) or one of the
//! kernels of the seed's tables ([`KERNELS`]).
//!
//! CPUSp-MEMM names the test machine: a case runs on its profile
//! ([`super::machine`]) when the seed has one with that CPU count and
//! memory; an NFS case on another box writes to the seed's NFS server.

use super::{DdSpec, DeviceKindSpec, DeviceSpec, FsSpec, MmapRandomSpec, Scenario, TaskSpec, machine, parse_size};
use crate::error::Error;

const EXAMPLE: &str = "thresh=1G/xfs-10dd-4k-8p-4096M-1024M:10-X";

/// The kernels of the seed's tables a case name may end with, and what
/// each runs: patch level, then the NFS wait queue (with the congestion
/// limit scaled to the dirty threshold, the two NFS patches posted together).
pub const KERNELS: &[(&str, u8, bool)] = &[
    ("3.1.0-rc4-vanilla+", 0, false),
    ("3.1.0-rc8-vanilla+", 0, false),
    ("3.1.0-rc8-ioless6+", 11, false),
    ("3.1.0-rc8-ioless6a+", 11, false),
    ("3.1.0-rc4-wo-underrun+", 10, false),
    ("3.1.0-rc4-bgthresh3+", 11, false),
    ("3.1.0-rc8-nfs-wq+", 11, true),
];

/// The fields of a case name, as written.
struct Fields<'a> {
    prefix: &'a str,
    fs: &'a str,
    workload: &'a str,
    bs: &'a str,
    cpus: &'a str,
    memory: &'a str,
    limits: &'a str,
    kernel: &'a str,
}

/// What the prefix asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Devices {
    /// One HDD.
    Disk,
    /// A USB key, with or without an HDD beside it.
    Key { with_disk: bool },
    /// n HDDs, each its own bdi.
    Jbod(u32),
    /// n HDDs striped into one bdi.
    Raid0(u32),
    /// fio's mmap random writes on a JBOD.
    JbodMmap,
    /// An NFS mount.
    Nfs,
}

impl Devices {
    /// How many bdis they are.
    fn bdis(self) -> u32 {
        match self {
            Devices::Jbod(n) => n,
            Devices::JbodMmap => 10,
            Devices::Key { with_disk: true } => 2,
            _ => 1,
        }
    }
}

/// What the workload field asks for.
enum Workload {
    /// N dd per bdi.
    Dd(u32),
    /// fio's mmap random writes.
    MmapRandom,
}

/// Builds the scenario a seed test-case name describes.
pub fn parse(name: &str) -> crate::error::Result<Scenario> {
    let bad = |what: String| Error::invalid(format!("case `{name}`: {what} (e.g. {EXAMPLE})"));
    let f = split(name).map_err(&bad)?;
    let fs = filesystem(f.fs).map_err(&bad)?;
    let devices = devices(f.prefix).map_err(&bad)?;
    let workload = workload(f.workload).map_err(&bad)?;
    check_consistent(devices, fs, &workload).map_err(&bad)?;
    let cpus = cpus(f.cpus).map_err(&bad)?;
    let memory_mb = memory(f.memory).map_err(&bad)?;
    let bs = block_size(f.bs).map_err(&bad)?;
    let (patches, nfs_wait_queue) = kernel(f.kernel).map_err(&bad)?;

    let mut s = Scenario {
        name: name.to_string(),
        description: format!("The seed's test case {name}."),
        memory_mb,
        cpus,
        patches: patches.unwrap_or(11),
        machine: machine_of(devices, cpus, memory_mb).map(|m| m.name.clone()),
        devices: device_specs(devices, fs, nfs_wait_queue),
        tasks: vec![tasks(&workload, bs, devices.bdis())],
        ..Scenario::default()
    };
    limits(&mut s, f.limits).map_err(&bad)?;
    thresh_label_agrees(f.prefix, &s).map_err(&bad)?;
    Ok(s)
}

/// A `thresh=DIRTY[-BG]` label must say what DIRTY:BG sets (every name of
/// the seed's tables does): a name whose label and field part would run
/// at a threshold its reader does not expect.
fn thresh_label_agrees(prefix: &str, s: &Scenario) -> Result<(), String> {
    let tokens: Vec<&str> = prefix.split('-').collect();
    let Some(i) = tokens.iter().position(|t| t.starts_with("thresh=")) else {
        return Ok(());
    };
    let field = |bytes: Option<u64>, ratio: u64| match bytes {
        Some(b) => crate::units::size(b as f64 / (1u64 << 20) as f64),
        None => format!("the ratio {ratio}"),
    };
    let label = tokens[i].trim_start_matches("thresh=");
    if parse_size(label) != s.dirty_bytes {
        return Err(format!(
            "the prefix's `thresh={label}` disagrees with DIRTY, {}: make them the same",
            field(s.dirty_bytes, s.dirty_ratio)
        ));
    }
    // `thresh=1024M-1000M`: the size after it is the background threshold.
    if let Some(bg) = tokens.get(i + 1).filter(|t| t.ends_with(['K', 'M', 'G', 'k']))
        && parse_size(bg) != s.dirty_background_bytes
    {
        return Err(format!(
            "the prefix's `thresh={label}-{bg}` disagrees with BG, {}: make them the same",
            field(s.dirty_background_bytes, s.dirty_background_ratio)
        ));
    }
    Ok(())
}

/// Splits a name into its fields: the prefix before the slash, then seven
/// fields separated by dashes (the kernel may hold dashes itself).
fn split(name: &str) -> Result<Fields<'_>, String> {
    let (prefix, rest) = name.split_once('/').unwrap_or(("", name));
    let f: Vec<&str> = rest.splitn(7, '-').collect();
    let [fs, workload, bs, cpus, memory, limits, kernel] = f[..] else {
        let what = "seven fields FS-WORKLOAD-BS-CPUSp-MEMM-DIRTY:BG-KERNEL";
        return Err(if prefix.is_empty() {
            format!("expected {what}, after an optional PREFIX/")
        } else {
            format!("expected {what} after `{prefix}/`")
        });
    };
    Ok(Fields { prefix, fs, workload, bs, cpus, memory, limits, kernel })
}

/// The filesystem; `None` for an NFS mount.
fn filesystem(fs: &str) -> Result<Option<FsSpec>, String> {
    match fs {
        "xfs" | "X" => Ok(Some(FsSpec::Xfs)),
        "ext4" => Ok(Some(FsSpec::Ext4)),
        "ext3" => Ok(Some(FsSpec::Ext3)),
        "btrfs" => Ok(Some(FsSpec::Btrfs)),
        "nfs" => Ok(None),
        other => Err(format!("unknown filesystem `{other}`, expected xfs, X, ext4, ext3, btrfs or nfs")),
    }
}

/// True for a label token of the prefix: a size (`3G`, `4K`), `thresh=SIZE`
/// or `bs=SIZE`.
fn is_label(token: &str) -> bool {
    let size = |s: &str| s.ends_with(['K', 'M', 'G', 'k']) && parse_size(s).is_some();
    size(token) || token.strip_prefix("thresh=").is_some_and(size) || token.strip_prefix("bs=").is_some_and(size)
}

/// The devices the prefix names; at most one device token, every other
/// token a label.
fn devices(prefix: &str) -> Result<Devices, String> {
    let expected = "expected JBOD-nHDD, RAID0-nHDD, JBOD-MMAP-RANDWRITE-4K, NFS, UKEY, UKEY-HDD, \
                    thresh=SIZE, bs=SIZE or a size such as 3G";
    let tokens: Vec<&str> = if prefix.is_empty() { Vec::new() } else { prefix.split('-').collect() };
    let disks = |t: Option<&&str>| {
        t.and_then(|t| t.strip_suffix("HDD"))
            .and_then(|n| n.parse::<u32>().ok())
            .filter(|n| (1..=26).contains(n))
            .ok_or_else(|| "JBOD and RAID0 take a disk count from 1 to 26, like JBOD-10HDD".to_string())
    };
    let mut found = None;
    let mut i = 0;
    while i < tokens.len() {
        let (device, used) = match tokens[i] {
            "JBOD" if tokens[i + 1..].starts_with(&["MMAP", "RANDWRITE", "4K"]) => (Devices::JbodMmap, 4),
            "JBOD" => (Devices::Jbod(disks(tokens.get(i + 1))?), 2),
            "RAID0" => (Devices::Raid0(disks(tokens.get(i + 1))?), 2),
            "NFS" => (Devices::Nfs, 1),
            "UKEY" if tokens.get(i + 1) == Some(&"HDD") => (Devices::Key { with_disk: true }, 2),
            "UKEY" => (Devices::Key { with_disk: false }, 1),
            t if is_label(t) => {
                i += 1;
                continue;
            }
            t if t == prefix => return Err(format!("unknown prefix `{t}`: {expected}")),
            t => return Err(format!("unknown prefix token `{t}` in `{prefix}`: {expected}")),
        };
        if found.is_some() {
            return Err(format!("the prefix `{prefix}` names two kinds of device: {expected}"));
        }
        found = Some(device);
        i += used;
    }
    Ok(found.unwrap_or(Devices::Disk))
}

/// The workload field.
fn workload(w: &str) -> Result<Workload, String> {
    if w == "fio_mmap_randwrite_4k" {
        return Ok(Workload::MmapRandom);
    }
    w.strip_suffix("dd")
        .and_then(|n| n.parse().ok())
        .filter(|&n| (1..=super::MAX_DD_PER_BDI).contains(&n))
        .map(Workload::Dd)
        .ok_or_else(|| format!("unknown workload `{w}`, expected Ndd (1 to 10000) or fio_mmap_randwrite_4k"))
}

/// An NFS prefix goes with the nfs filesystem, fio's workload with its prefix.
fn check_consistent(devices: Devices, fs: Option<FsSpec>, workload: &Workload) -> Result<(), String> {
    if (devices == Devices::Nfs) != fs.is_none() {
        return Err("the NFS prefix and the nfs filesystem go together (NFS-thresh=10M/nfs-…)".into());
    }
    if (devices == Devices::JbodMmap) != matches!(workload, Workload::MmapRandom) {
        return Err("fio_mmap_randwrite_4k and the JBOD-MMAP-RANDWRITE-4K prefix go together".into());
    }
    Ok(())
}

fn cpus(c: &str) -> Result<usize, String> {
    c.strip_suffix('p')
        .and_then(|c| c.parse().ok())
        .filter(|&c| (1..=4096).contains(&c))
        .ok_or_else(|| format!("`{c}` is not a CPU count like 8p"))
}

fn memory(m: &str) -> Result<u64, String> {
    m.strip_suffix('M').and_then(|m| m.parse().ok()).ok_or_else(|| format!("`{m}` is not a memory size like 4096M"))
}

fn block_size(bs: &str) -> Result<u64, String> {
    match super::size(bs) {
        Err(super::SizeError::TooLarge) => Err(format!("`{bs}` is too large: at most 1G")),
        size => size.ok().filter(|&b| crate::sim::engine::block_size_ok(b)).ok_or_else(|| {
            format!("`{bs}` is not a block size like 4k or 1M (512, 1k, 2k or a multiple of 4k up to 1G)")
        }),
    }
}

/// The kernel: `X` keeps the patch level (`None`); a kernel of the seed's
/// tables sets it, and maybe the NFS wait queue.
fn kernel(k: &str) -> Result<(Option<u8>, bool), String> {
    if k == "X" {
        return Ok((None, false));
    }
    match KERNELS.iter().find(|(name, _, _)| *name == k) {
        Some(&(_, patches, wait_queue)) => Ok((Some(patches), wait_queue)),
        None => {
            let valid: Vec<&str> = KERNELS.iter().map(|(n, _, _)| *n).collect();
            Err(format!("unknown kernel `{k}`, expected X or one of {}", valid.join(", ")))
        }
    }
}

/// DIRTY:BG into the scenario's thresholds: ratios, or sizes with M or G.
fn limits(s: &mut Scenario, limits: &str) -> Result<(), String> {
    let (dirty, bg) = limits.split_once(':').ok_or_else(|| format!("`{limits}` is not DIRTY:BG like 20:10"))?;
    let value = |v: &str| -> Result<(Option<u64>, Option<u64>), String> {
        if v.ends_with(['M', 'G']) {
            let bytes = match super::size(v) {
                Ok(b) if b > 0 && b <= super::ranges::DIRTY_BYTES.hi => b,
                Ok(0) => return Err(format!("`{v}` is too small: at least one page, 4096 bytes")),
                Err(super::SizeError::Malformed | super::SizeError::PartByte) => {
                    return Err(format!("`{v}` is not a size"));
                }
                Ok(_) | Err(super::SizeError::TooLarge) => return Err(format!("`{v}` is too large: at most 4T")),
            };
            Ok((None, Some(bytes)))
        } else {
            let ratio = v
                .parse::<u64>()
                .ok()
                .filter(|&r| r <= 100)
                .ok_or_else(|| format!("`{v}` is not a ratio (0 to 100 %) or a size (such as 100M)"))?;
            Ok((Some(ratio), None))
        }
    };
    match value(dirty)? {
        (Some(r), _) => s.dirty_ratio = r,
        (_, b) => (s.dirty_ratio, s.dirty_bytes) = (0, b),
    }
    match value(bg)? {
        (Some(r), _) => s.dirty_background_ratio = r,
        (_, b) => (s.dirty_background_ratio, s.dirty_background_bytes) = (0, b),
    }
    Ok(())
}

/// The profile a case runs on: the seed's box with these CPUs and memory.
/// An NFS case on a box whose profile has no NFS server (or that has no
/// profile) still writes to the seed's NFS server: its client's disks
/// play no part.
fn machine_of(devices: Devices, cpus: usize, memory_mb: u64) -> Option<&'static machine::Machine> {
    let found = machine::for_case(cpus, memory_mb);
    if devices != Devices::Nfs {
        return found;
    }
    found.filter(|m| m.nfs.is_some()).or_else(|| machine::all().iter().find(|m| m.nfs.is_some()))
}

/// What a case is told when not every device of it takes a profile's
/// numbers (its box is none of the seed's, or its profile has no numbers
/// for a device of the case), or it takes them from another box's
/// profile: a line for stderr and a few words for a status line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProfileNote {
    /// The line, `note: ...`.
    pub long: String,
    /// At most about 30 columns.
    pub short: String,
}

/// The [`ProfileNote`] of the case `name` as its name describes it
/// (options that change its memory or CPUs do not change its profile);
/// `None` when the name does not parse or every device has its box's
/// profile's numbers.
pub fn profile_note(name: &str) -> Option<ProfileNote> {
    let s = parse(name).ok()?;
    let box_name = machine::box_name(s.cpus, s.memory_mb);
    let Some(profile) = machine::for_case(s.cpus, s.memory_mb) else {
        let names: Vec<&str> = machine::all().iter().map(|m| m.name.as_str()).collect();
        let runs = match &s.machine {
            Some(server) => format!("the NFS mount writes to {server}'s NFS server"),
            None => "the case runs on the devices' defaults, not on a fitted profile".into(),
        };
        return Some(ProfileNote {
            long: format!(
                "note: the seed has no test box {box_name} ({}{}): {runs}",
                names.join(", "),
                crate::error::did_you_mean(&box_name, names.iter().copied())
            ),
            short: format!("{box_name}: not a seed box"),
        });
    };
    // Only an NFS case takes another box's profile: its server's.
    if let Some(server) = s.machine.as_deref().filter(|m| *m != profile.name) {
        let long = format!("note: {box_name} has no NFS server in the seed: the NFS mount writes to {server}'s");
        return Some(ProfileNote { long, short: format!("NFS server of {server}") });
    }
    // A device the profile gives no rate is on its kind's defaults.
    let defaults = machine::Defaults::of(Some(profile));
    let lacking = s.devices.iter().find(|d| defaults.device(d.kind).0.is_none())?;
    let what = if lacking.kind == DeviceKindSpec::UsbKey { "USB key" } else { "disks" };
    Some(ProfileNote {
        long: format!(
            "note: profile {box_name} has no numbers for the case's {what} (dirtyviz machines): the defaults stand in"
        ),
        short: format!("{box_name}: {what} on defaults"),
    })
}

/// The scenario's devices for what the prefix asks for.
fn device_specs(devices: Devices, fs: Option<FsSpec>, nfs_wait_queue: bool) -> Vec<DeviceSpec> {
    let disk = |name: &str, kind: DeviceKindSpec| DeviceSpec { fs, ..DeviceSpec::new(name, kind) };
    match devices {
        Devices::Disk => vec![disk("sda", DeviceKindSpec::Hdd)],
        Devices::Key { with_disk } => {
            let key = DeviceSpec { initial_share: Some(0.08), ..disk("sdb", DeviceKindSpec::UsbKey) };
            if with_disk { vec![key, disk("sda", DeviceKindSpec::Hdd)] } else { vec![key] }
        }
        Devices::Jbod(n) => vec![DeviceSpec { disks: Some(n), ..disk("sd", DeviceKindSpec::Jbod) }],
        Devices::JbodMmap => vec![DeviceSpec { disks: Some(10), ..disk("sd", DeviceKindSpec::Jbod) }],
        Devices::Raid0(n) => vec![DeviceSpec { disks: Some(n), ..disk("md0", DeviceKindSpec::Raid0) }],
        Devices::Nfs => {
            let wq = nfs_wait_queue.then_some(true);
            vec![DeviceSpec { wait_queue: wq, congestion_scaled: wq, ..disk("nfs", DeviceKindSpec::Nfs) }]
        }
    }
}

/// How long a shell loop takes to launch `n` dd \[s\]: a fork and exec
/// each, about 1 ms, at most a second. Tasks that
/// start together stay in lock step in a model without a scheduler; this
/// is what sets them apart, as on the seed's boxes.
pub fn dd_spread_s(n: u32) -> f64 {
    (n as f64 * DD_LAUNCH_S).min(1.0)
}

/// The time a shell takes to fork and exec one dd \[s\].
const DD_LAUNCH_S: f64 = 0.001;

/// The workload on every one of `bdis` bdis, its dd launched one after
/// another.
fn tasks(workload: &Workload, bs: u64, bdis: u32) -> TaskSpec {
    match *workload {
        Workload::Dd(n) => {
            TaskSpec::Dd(DdSpec { n, bs: format!("{bs}"), spread_s: dd_spread_s(n * bdis), ..DdSpec::default() })
        }
        Workload::MmapRandom => TaskSpec::MmapRandom(MmapRandomSpec::default()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_disk_with_byte_thresholds() {
        let s = parse("thresh=400M-300M/xfs-10dd-4k-8p-4096M-400M:300M-X").expect("valid");
        assert_eq!((s.memory_mb, s.cpus), (4096, 8));
        assert_eq!((s.dirty_bytes, s.dirty_background_bytes), (Some(400 << 20), Some(300 << 20)));
        assert_eq!(s.devices.len(), 1);
        let w = s.to_world().expect("world");
        assert_eq!(w.tasks.len(), 10);
    }

    #[test]
    fn prefixes_pick_devices() {
        let w = parse("JBOD-10HDD-thresh=2G/ext4-100dd-1M-24p-16384M-2048M:10-X").expect("valid").to_world();
        let w = w.expect("world");
        assert_eq!(w.devices.len(), 10);
        assert_eq!(w.tasks.len(), 1000);
        assert_eq!(w.devices[0].fs, crate::sim::FsKind::Ext4);
        let w = parse("3G-UKEY-HDD/xfs-10dd-4k-8p-4096M-20:10-X").expect("valid").to_world().expect("world");
        assert_eq!(w.devices.len(), 2);
        assert_eq!(w.devices[0].kind, crate::sim::DeviceKind::UsbKey);
        let w = parse("NFS-thresh=10M/nfs-2dd-1M-32p-32768M-10M:10-X").expect("valid").to_world().expect("world");
        assert_eq!(w.devices[0].kind, crate::sim::DeviceKind::Nfs);
        let w = parse("RAID0-10HDD-16G/xfs-1000dd-1M-24p-16384M-20:10-X").expect("valid").to_world().expect("world");
        assert_eq!((w.devices.len(), w.tasks.len()), (1, 1000));
        let w = parse("JBOD-MMAP-RANDWRITE-4K/ext4-fio_mmap_randwrite_4k-4k-16p-8192M-20:10-X").expect("valid");
        assert_eq!(w.to_world().expect("world").tasks.len(), 10);
    }

    #[test]
    fn kernels_of_the_seeds_tables_set_the_patch_level() {
        let s = parse("thresh=1G/X-100dd-4k-8p-4096M-1024M:10-3.1.0-rc8-ioless6a+").expect("valid");
        assert_eq!(s.patches, 11);
        let s = parse("thresh=1G/xfs-1dd-4k-8p-4096M-1024M:10-3.1.0-rc4-vanilla+").expect("valid");
        assert_eq!(s.patches, 0);
        let s = parse("JBOD-10HDD-16G/ext4-10dd-1M-24p-16384M-20:10-3.1.0-rc4-wo-underrun+").expect("valid");
        assert_eq!(s.patches, 10);
        let s = parse("NFS-thresh=1G/nfs-2dd-1M-32p-32768M-1024M:10-3.1.0-rc8-nfs-wq+").expect("valid");
        assert_eq!((s.devices[0].wait_queue, s.devices[0].congestion_scaled), (Some(true), Some(true)));
    }

    #[test]
    fn the_test_machine_comes_from_the_cpus_and_memory() {
        let m = |name: &str| parse(name).expect("valid").machine;
        assert_eq!(m("thresh=1G/xfs-1dd-4k-8p-4096M-1024M:10-X").as_deref(), Some("8p-4096M"));
        assert_eq!(m("JBOD-10HDD-16G/xfs-1dd-1M-24p-16384M-20:10-X").as_deref(), Some("24p-16384M"));
        assert_eq!(m("thresh=1G/xfs-1dd-4k-2p-1024M-1024M:10-X"), None, "no test box of the seed");
        // The talk's NFS box is not one of them, but its server is the seed's.
        assert_eq!(m("NFS/nfs-1dd-1M-8p-3072M-20:10-X").as_deref(), Some("32p-32768M"));
    }

    /// A case is told when its devices do not all take its box's fitted
    /// numbers, by the box its name gives.
    #[test]
    fn a_case_off_the_seeds_profiles_is_told_so() {
        let note = |name: &str| profile_note(name).map(|n| (n.long, n.short));
        assert_eq!(note("3G/xfs-1dd-4k-8p-4096M-20:10-X"), None);
        assert_eq!(note("NFS-thresh=1G/nfs-1dd-1M-32p-32768M-1024M:10-X"), None);
        let (long, short) = note("3G/xfs-1dd-4k-8p-4069M-20:10-X").expect("told");
        assert!(
            long.contains(
                "no test box 8p-4069M (8p-4096M, 16p-8192M, 24p-16384M, 32p-32768M; did you mean `8p-4096M`?)"
            )
        );
        assert!(long.ends_with("the case runs on the devices' defaults, not on a fitted profile"), "{long}");
        assert_eq!(short, "8p-4069M: not a seed box");
        let (long, _) = note("NFS-thresh=1G/nfs-1dd-1M-4p-2048M-1024M:10-X").expect("told");
        assert!(long.ends_with("the NFS mount writes to 32p-32768M's NFS server"), "{long}");
        let (long, short) = note("NFS-thresh=1G/nfs-1dd-1M-8p-4096M-1024M:10-X").expect("told");
        assert_eq!(long, "note: 8p-4096M has no NFS server in the seed: the NFS mount writes to 32p-32768M's");
        assert_eq!(short, "NFS server of 32p-32768M");
        assert_eq!(
            parse("NFS-thresh=1G/nfs-1dd-1M-8p-4096M-1024M:10-X").expect("valid").machine.as_deref(),
            Some("32p-32768M")
        );
        let (_, short) = note("UKEY-thresh=50M/xfs-1dd-4k-32p-32768M-50M:10-X").expect("told");
        assert_eq!(short, "32p-32768M: USB key on defaults");
        assert_eq!(note("UKEY-thresh=50M/xfs-1dd-4k-8p-4096M-50M:10-X"), None);
    }

    #[test]
    fn bad_names_say_what_is_expected() {
        let cases = [
            ("nonsense", "expected seven fields FS-WORKLOAD-BS-CPUSp-MEMM-DIRTY:BG-KERNEL, after an optional PREFIX/"),
            (
                "JBOD-10HDD/xfs-1dd",
                "expected seven fields FS-WORKLOAD-BS-CPUSp-MEMM-DIRTY:BG-KERNEL after `JBOD-10HDD/`",
            ),
            ("x/xfs-1dd-4k-8p-4096M-20:10-X", "unknown prefix `x`: expected JBOD-nHDD"),
            ("thresh=1G/xfs-1dd-4k-8p-4096M-200:10-X", "`200` is not a ratio (0 to 100 %) or a size"),
            ("x/zfs-1dd-4k-8p-4096M-20:10-X", "unknown filesystem `zfs`"),
            ("thresh=1G/xfs-1dd-4k-8q-4096M-20:10-X", "`8q` is not a CPU count"),
            ("thresh=1G/xfs-1dd-4k-8p-4096M-20-X", "`20` is not DIRTY:BG"),
            ("thresh=1G/xfs-1dd-4k-8p-4096M-1024M:10-3.1.0-rc4-vanila+", "unknown kernel `3.1.0-rc4-vanila+`"),
            ("JBD-10HDD/xfs-1dd-1M-24p-16384M-20:10-X", "unknown prefix token `JBD`"),
            ("RAID-10HDD/xfs-1dd-1M-24p-16384M-20:10-X", "unknown prefix token `RAID`"),
            ("JBOD-HDD/xfs-1dd-1M-24p-16384M-20:10-X", "a disk count"),
            ("JBOD-2HDD-NFS/xfs-1dd-1M-24p-16384M-20:10-X", "two kinds of device"),
            ("thresh=1G/nfs-1dd-1M-32p-32768M-1024M:10-X", "go together"),
            ("JBOD-10HDD/ext4-fio_mmap_randwrite_4k-4k-16p-8192M-20:10-X", "go together"),
            ("thresh=1G/xfs-1ddd-4k-8p-4096M-1024M:10-X", "unknown workload"),
            ("thresh=100M/xfs-10dd-4k-8p-4096M-200M:10-X", "`thresh=100M` disagrees with DIRTY, 200 MiB"),
            ("thresh=100M/xfs-10dd-4k-8p-4096M-20:10-X", "`thresh=100M` disagrees with DIRTY, the ratio 20"),
            ("thresh=400M-300M/xfs-10dd-4k-8p-4096M-400M:200M-X", "`thresh=400M-300M` disagrees with BG, 200 MiB"),
        ];
        for (name, what) in cases {
            let e = parse(name).expect_err(name);
            assert!(e.to_string().starts_with(&format!("case `{name}`")), "{e}");
            assert!(e.to_string().contains(what) && e.to_string().contains(EXAMPLE), "{name}: {e}");
        }
        let e = parse("JBD-10HDD/xfs-1dd-1M-24p-16384M-20:10-X").expect_err("bad prefix");
        assert!(
            e.to_string().contains("JBOD-nHDD")
                && e.to_string().contains("RAID0-nHDD")
                && e.to_string().contains("NFS"),
            "{e}"
        );
        let e = parse("thresh=1G/xfs-1dd-4k-8p-4096M-20:10-3.1.0-rc4-vanila+").expect_err("bad kernel");
        assert!(e.to_string().contains("3.1.0-rc4-vanilla+") && e.to_string().contains("3.1.0-rc8-ioless6+"), "{e}");
    }
}
