//! The seed's test-case names as scenarios.
//!
//! ```text
//! [PREFIX/]FS-WORKLOAD-BS-CPUSp-MEMM-DIRTY:BG-KERNEL
//! thresh=100M/xfs-10dd-4k-8p-4096M-100M:10-X
//! JBOD-10HDD-thresh=2G/ext4-100dd-1M-24p-16384M-2048M:10-X
//! 3G-UKEY-HDD/xfs-10dd-4k-8p-4096M-20:10-X
//! NFS-thresh=10M/nfs-2dd-1M-32p-32768M-10M:10-X
//! RAID0-10HDD-16G/xfs-1000dd-1M-24p-16384M-20:10-X
//! ```
//!
//! The prefix picks the devices: none of the below is one HDD, `UKEY` a USB
//! key (with `-HDD`, a key and a disk), `JBOD-nHDD` n disks as n bdis,
//! `RAID0-nHDD` n disks striped into one, `NFS` an NFS mount. Its other
//! tokens (`thresh=1G`, `3G`, `bs=1k`) are labels: the fields after the
//! slash carry the values. WORKLOAD is `Ndd` (N dd per bdi) or fio's
//! `fio_mmap_randwrite_4k`. DIRTY:BG are ratios (`20:10`) or sizes with an M
//! or G suffix (`1024M:10`, `400M:300M`). FS `X` (the filesystem column of
//! the seed's comparison table) means xfs. KERNEL `X` keeps the patch level;
//! a name with `vanilla` means legacy, one with `nfs-wq` turns on the NFS
//! wait queue.

use super::{DdSpec, DeviceKindSpec, DeviceSpec, FsSpec, MmapRandomSpec, Scenario, TaskSpec, parse_size};
use crate::error::{Error, Result};

const EXAMPLE: &str = "thresh=1G/xfs-10dd-4k-8p-4096M-1024M:10-X";

/// Builds the scenario a seed test-case name describes.
pub fn parse(name: &str) -> Result<Scenario> {
    let bad = |what: &str| Error::invalid(format!("case `{name}`: {what} (e.g. {EXAMPLE})"));
    let (prefix, rest) = match name.split_once('/') {
        Some((p, r)) => (p, r),
        None => ("", name),
    };
    let fields: Vec<&str> = rest.splitn(7, '-').collect();
    if fields.len() < 7 {
        return Err(bad("expected FS-WORKLOAD-BS-CPUSp-MEMM-DIRTY:BG-KERNEL after the prefix"));
    }
    let (fs, workload, bs, cpus, mem, limits, kernel) =
        (fields[0], fields[1], fields[2], fields[3], fields[4], fields[5], fields[6]);

    let fs = match fs {
        "xfs" | "X" => Some(FsSpec::Xfs),
        "ext4" => Some(FsSpec::Ext4),
        "ext3" => Some(FsSpec::Ext3),
        "btrfs" => Some(FsSpec::Btrfs),
        "nfs" => None,
        other => return Err(bad(&format!("unknown filesystem `{other}`, expected xfs, ext4, ext3, btrfs or nfs"))),
    };
    let cpus: usize = cpus
        .strip_suffix('p')
        .and_then(|c| c.parse().ok())
        .filter(|&c| (1..=4096).contains(&c))
        .ok_or_else(|| bad(&format!("`{cpus}` is not a CPU count like 8p")))?;
    let memory_mb = mem
        .strip_suffix('M')
        .and_then(|m| m.parse::<u64>().ok())
        .ok_or_else(|| bad(&format!("`{mem}` is not a memory size like 4096M")))?;
    let bs_bytes = parse_size(bs).filter(|&b| b >= 512).ok_or_else(|| bad(&format!("`{bs}` is not a block size")))?;

    let mut s = Scenario {
        name: name.to_string(),
        description: format!("The seed's test case {name}."),
        memory_mb,
        cpus,
        ..Scenario::default()
    };

    // DIRTY:BG
    let (dirty, bg) = limits.split_once(':').ok_or_else(|| bad(&format!("`{limits}` is not DIRTY:BG like 20:10")))?;
    let value = |v: &str| -> Result<(Option<u64>, Option<u64>)> {
        if v.ends_with(['M', 'G']) {
            let bytes = parse_size(v).ok_or_else(|| bad(&format!("`{v}` is not a size")))?;
            Ok((None, Some(bytes)))
        } else {
            let ratio =
                v.parse::<u64>().ok().filter(|&r| r <= 100).ok_or_else(|| bad(&format!("`{v}` is not a ratio")))?;
            Ok((Some(ratio), None))
        }
    };
    match value(dirty)? {
        (Some(r), _) => s.dirty_ratio = r,
        (_, b) => {
            s.dirty_ratio = 0;
            s.dirty_bytes = b;
        }
    }
    match value(bg)? {
        (Some(r), _) => s.dirty_background_ratio = r,
        (_, b) => {
            s.dirty_background_ratio = 0;
            s.dirty_background_bytes = b;
        }
    }

    // Devices from the prefix.
    let tokens: Vec<&str> = prefix.split('-').filter(|t| !t.is_empty()).collect();
    let count_hdd = |i: usize| -> Result<u32> {
        tokens
            .get(i + 1)
            .and_then(|t| t.strip_suffix("HDD"))
            .and_then(|n| n.parse().ok())
            .filter(|&n| (1..=26).contains(&n))
            .ok_or_else(|| bad("JBOD and RAID0 take a disk count like JBOD-10HDD"))
    };
    let disk = |name: &str, kind: DeviceKindSpec| DeviceSpec { fs, ..DeviceSpec::new(name, kind) };
    if let Some(i) = tokens.iter().position(|t| *t == "JBOD") {
        let disks = if tokens.get(i + 1) == Some(&"MMAP") { 10 } else { count_hdd(i)? };
        s.devices.push(DeviceSpec { disks: Some(disks), ..disk("sd", DeviceKindSpec::Jbod) });
    } else if let Some(i) = tokens.iter().position(|t| *t == "RAID0") {
        s.devices.push(DeviceSpec { disks: Some(count_hdd(i)?), ..disk("md0", DeviceKindSpec::Raid0) });
    } else if tokens.contains(&"NFS") || fs.is_none() {
        let wait_queue = kernel.contains("nfs-wq").then_some(true);
        let congestion_scaled = kernel.contains("wq4").then_some(true);
        s.devices.push(DeviceSpec { wait_queue, congestion_scaled, ..disk("nfs", DeviceKindSpec::Nfs) });
    } else if tokens.contains(&"UKEY") {
        s.devices.push(DeviceSpec { initial_share: Some(0.08), ..disk("sdb", DeviceKindSpec::UsbKey) });
        if tokens.contains(&"HDD") {
            s.devices.push(disk("sda", DeviceKindSpec::Hdd));
        }
    } else {
        s.devices.push(disk("sda", DeviceKindSpec::Hdd));
    }

    // Tasks.
    if let Some(n) = workload.strip_suffix("dd") {
        let n: u32 = n
            .parse()
            .ok()
            .filter(|&n| (1..=super::MAX_DD_PER_BDI).contains(&n))
            .ok_or_else(|| bad(&format!("`{workload}` is not a dd count like 10dd")))?;
        let spread_s = if n >= 500 { 1.0 } else { 0.0 };
        s.tasks.push(TaskSpec::Dd(DdSpec { n, bs: format!("{bs_bytes}"), spread_s, ..DdSpec::default() }));
    } else if workload.starts_with("fio_mmap_randwrite") {
        s.tasks.push(TaskSpec::MmapRandom(MmapRandomSpec::default()));
    } else {
        return Err(bad(&format!("unknown workload `{workload}`, expected Ndd or fio_mmap_randwrite_4k")));
    }

    if kernel.contains("vanilla") {
        s.patches = 0;
    }
    Ok(s)
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
    fn comparison_table_names_and_kernels() {
        let s = parse("thresh=1G/X-100dd-4k-8p-4096M-1024M:10-3.1.0-rc8-ioless6a+").expect("valid");
        assert_eq!(s.patches, 11);
        let s = parse("thresh=1G/xfs-1dd-4k-8p-4096M-1024M:10-3.1.0-rc4-vanilla+").expect("valid");
        assert_eq!(s.patches, 0);
    }

    #[test]
    fn bad_names_say_what_is_expected() {
        for bad in
            ["nonsense", "x/zfs-1dd-4k-8p-4096M-20:10-X", "x/xfs-1dd-4k-8q-4096M-20:10-X", "x/xfs-1dd-4k-8p-4096M-20-X"]
        {
            let e = parse(bad).expect_err(bad);
            assert!(e.to_string().starts_with(&format!("case `{bad}`")), "{e}");
            assert!(e.to_string().contains(EXAMPLE), "{e}");
        }
    }
}
