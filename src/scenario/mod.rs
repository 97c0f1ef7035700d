//! Scenarios: worlds described in RON files in human units (MiB, MiB/s,
//! seconds), the built-in presets, and the overrides the command line
//! applies. A scenario converts into the engine's [`WorldConfig`].
//!
//! ```ron
//! Scenario(
//!     name: "default",
//!     memory_mb: 4096,
//!     cpus: 8,
//!     devices: [(name: "sda", kind: Hdd)],
//!     tasks: [Dd(bdi: "sda", n: 1, bs: "4k")],
//! )
//! ```
//!
//! Every field but `devices` may be left out: [`Scenario::default`] and
//! the specs' defaults fill them in. Numbers are checked against their
//! ranges as they are read ([`ranges`]); what depends on several fields
//! (task counts, device names) is checked by [`Scenario::to_world`]
//! before anything is expanded.

pub mod case;
pub mod locate;
pub mod machine;
pub mod presets;
pub mod ranges;

use std::collections::HashSet;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::scenario::locate::FieldPath;
use crate::sim::config::{
    DeviceConfig, DeviceKind, FsKind, Legacy, NS_PER_SEC, NfsConfig, TaskConfig, TaskKind, WorldConfig,
};
use crate::sim::page_writeback::DirtyTunables;

/// A world to simulate, as written in a scenario file.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Scenario {
    /// Short name shown in the status line and the trace header.
    #[serde(deserialize_with = "ranges::name")]
    pub name: String,
    /// One or two sentences on what it shows.
    #[serde(deserialize_with = "ranges::text")]
    pub description: String,
    /// Total memory \[MiB\].
    #[serde(deserialize_with = "ranges::memory_mb")]
    pub memory_mb: u64,
    /// Memory outside the page cache (anonymous, kernel) \[MiB\]; default a tenth.
    #[serde(deserialize_with = "ranges::opt_reserved_mb")]
    pub reserved_mb: Option<u64>,
    /// CPUs.
    #[serde(deserialize_with = "ranges::cpus")]
    pub cpus: usize,
    /// How fast one CPU copies written data into the page cache
    /// \[MiB/s\]: a writer that is not throttled dirties pages this fast,
    /// less each write() call's own cost. Default 1562.5 (2.5 µs a page).
    #[serde(deserialize_with = "ranges::opt_copy_mbps")]
    pub copy_mbps: Option<f64>,
    /// Timer frequency: 100, 250, 300 or 1000.
    #[serde(deserialize_with = "ranges::hz")]
    pub hz: u64,
    /// `vm.dirty_ratio` \[%\].
    #[serde(deserialize_with = "ranges::dirty_ratio")]
    pub dirty_ratio: u64,
    /// `vm.dirty_background_ratio` \[%\].
    #[serde(deserialize_with = "ranges::dirty_background_ratio")]
    pub dirty_background_ratio: u64,
    /// `vm.dirty_bytes` \[bytes\]; wins over the ratio.
    #[serde(deserialize_with = "ranges::opt_dirty_bytes")]
    pub dirty_bytes: Option<u64>,
    /// `vm.dirty_background_bytes` \[bytes\]; wins over the ratio.
    #[serde(deserialize_with = "ranges::opt_background_bytes")]
    pub dirty_background_bytes: Option<u64>,
    /// Fixed floating-proportion period shift (default: the kernel's rule).
    #[serde(deserialize_with = "ranges::opt_period_shift")]
    pub period_shift: Option<i32>,
    /// Patch level: 0 (legacy 3.1) to 11 (the whole series).
    #[serde(deserialize_with = "ranges::patches")]
    pub patches: u8,
    /// The kernel patch level 0 runs: `Linux31` (the default) or
    /// `Linux2638` (only at patch level 0).
    pub legacy: LegacySpec,
    /// Seed of the random generator.
    #[serde(deserialize_with = "ranges::seed")]
    pub seed: u64,
    /// Default length of a headless run \[s\].
    #[serde(deserialize_with = "ranges::duration_s")]
    pub duration_s: f64,
    /// The test machine whose disks, controller, USB key and NFS server the
    /// devices take by default (`dirtyviz machines` lists them).
    #[serde(default)]
    pub machine: Option<String>,
    /// A profile that wins over `machine`: one of them with some fitted
    /// numbers changed, as `dirtyviz cases --fit` tries them. Not in files.
    #[serde(skip)]
    pub profile: Option<Box<machine::Machine>>,
    /// The devices; each is one bdi, a JBOD is several.
    pub devices: Vec<DeviceSpec>,
    /// The tasks.
    pub tasks: Vec<TaskSpec>,
}

/// The CPU time to copy one page into the page cache unless a scenario
/// sets `copy_mbps` \[ns\].
pub const COPY_PAGE_NS: u64 = 2500;

/// The CPU time one write() call costs beyond copying \[ns\].
pub const SYSCALL_NS: u64 = 1500;

/// The CPU time to copy one page at `mbps` \[ns\], at least 1.
pub fn copy_page_ns(mbps: f64) -> u64 {
    (copy_page_time_ns(mbps).round() as u64).max(1)
}

/// The copying speed at `page_ns` a page \[MiB/s\].
pub fn copy_mbps(page_ns: f64) -> f64 {
    copy_page_time_ns(page_ns)
}

/// The time a page takes at `mbps` \[ns\]: [`copy_mbps`] the other way,
/// which is the same division (a page's bytes over the other).
pub fn copy_page_time_ns(mbps: f64) -> f64 {
    crate::sim::kernel::PAGE_SIZE as f64 * 1e9 / (mbps * 1048576.0)
}

impl Default for Scenario {
    /// The defaults of every scenario: 4 GiB, 8 CPUs, HZ 1000, 20:10, the
    /// whole series on 3.1, seed 1, a minute; no devices, no tasks.
    fn default() -> Scenario {
        Scenario {
            name: String::new(),
            description: String::new(),
            memory_mb: 4096,
            reserved_mb: None,
            cpus: 8,
            copy_mbps: None,
            hz: 1000,
            dirty_ratio: 20,
            dirty_background_ratio: 10,
            dirty_bytes: None,
            dirty_background_bytes: None,
            period_shift: None,
            patches: 11,
            legacy: LegacySpec::Linux31,
            seed: 1,
            duration_s: 60.0,
            machine: None,
            profile: None,
            devices: Vec::new(),
            tasks: Vec::new(),
        }
    }
}

/// Kinds of device in a scenario file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
pub enum DeviceKindSpec {
    /// A rotating disk (100 MiB/s, 8 ms seeks).
    #[default]
    Hdd,
    /// A flash disk (400 MiB/s, no seeks).
    Ssd,
    /// A USB flash key (8 MiB/s, jittery).
    UsbKey,
    /// `disks` HDDs striped into one bdi.
    Raid0,
    /// `disks` HDDs, each its own bdi, named `<name>a`, `<name>b`, ...
    Jbod,
    /// An NFS mount over a 1 Gbit/s link to a server with an 80 MiB/s disk
    /// and 128 MiB of write cache.
    Nfs,
}

/// What a kind of device is when a scenario says nothing more: one
/// member disk's figures (a RAID0 multiplies bandwidth and queue by its
/// members and divides the seek among them).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KindDefaults {
    /// The engine's device kind.
    pub kind: DeviceKind,
    /// Sequential bandwidth \[MiB/s\].
    pub bandwidth_mbps: f64,
    /// Average seek \[ms\].
    pub seek_ms: f64,
    /// Relative spread of transfer times.
    pub noise: f64,
    /// Journal commit and cache flush holding up data writes \[ms\].
    pub flush_ms: f64,
    /// Request slots \[requests\]; `None`: unbounded (NFS RPCs).
    pub queue_depth: Option<usize>,
    /// Largest request \[pages\].
    pub max_request_pages: u64,
}

/// One row of the table of kind defaults.
const fn row(
    kind: DeviceKind,
    bandwidth_mbps: f64,
    seek_ms: f64,
    noise: f64,
    flush_ms: f64,
    queue_depth: Option<usize>,
    max_request_pages: u64,
) -> KindDefaults {
    KindDefaults { kind, bandwidth_mbps, seek_ms, noise, flush_ms, queue_depth, max_request_pages }
}

impl DeviceKindSpec {
    /// Rotating disks (one, a JBOD's or a RAID0's): what a machine
    /// profile's disk numbers and controller are for.
    pub const fn is_hdd(self) -> bool {
        matches!(self, DeviceKindSpec::Hdd | DeviceKindSpec::Jbod | DeviceKindSpec::Raid0)
    }

    /// Every kind's defaults, one row each.
    pub const fn defaults(self) -> KindDefaults {
        use DeviceKind as K;
        match self {
            //                              MiB/s  seek  noise flush  queue       request
            DeviceKindSpec::Hdd => row(K::Hdd, 100.0, 8.0, 0.1, 150.0, Some(128), 128),
            DeviceKindSpec::Ssd => row(K::Ssd, 400.0, 0.0, 0.1, 5.0, Some(128), 128),
            DeviceKindSpec::UsbKey => row(K::UsbKey, 8.0, 1.0, 0.3, 100.0, Some(128), 128),
            DeviceKindSpec::Raid0 => row(K::Raid0, 100.0, 8.0, 0.1, 150.0, Some(128), 128),
            DeviceKindSpec::Jbod => row(K::Hdd, 100.0, 8.0, 0.1, 150.0, Some(128), 128),
            DeviceKindSpec::Nfs => row(K::Nfs, 112.0, 0.0, 0.1, 0.0, None, 256),
        }
    }
}

/// The legacy kernel in a scenario file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
pub enum LegacySpec {
    /// Linux 3.1, the series' base.
    #[default]
    Linux31,
    /// Linux 2.6.38, before the max-pause area.
    Linux2638,
}

impl LegacySpec {
    /// The engine's legacy kernel.
    pub fn kernel(self) -> Legacy {
        match self {
            LegacySpec::Linux31 => Legacy::Linux31,
            LegacySpec::Linux2638 => Legacy::Linux2638,
        }
    }
}

/// Filesystems in a scenario file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FsSpec {
    /// XFS (the default).
    #[default]
    Xfs,
    /// ext4.
    Ext4,
    /// ext3.
    Ext3,
    /// btrfs.
    Btrfs,
}

impl FsSpec {
    /// The engine's filesystem.
    pub fn kind(self) -> FsKind {
        match self {
            FsSpec::Xfs => FsKind::Xfs,
            FsSpec::Ext4 => FsKind::Ext4,
            FsSpec::Ext3 => FsKind::Ext3,
            FsSpec::Btrfs => FsKind::Btrfs,
        }
    }
}

/// A device in a scenario file. `name` and `kind` must be given; every
/// other field left out takes the kind's default ([`DeviceKindSpec::defaults`]).
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DeviceSpec {
    /// bdi name (a name prefix for a JBOD).
    #[serde(deserialize_with = "ranges::name")]
    pub name: String,
    /// What it is.
    pub kind: DeviceKindSpec,
    /// Member disks of a RAID0 or JBOD (default 2).
    #[serde(default, deserialize_with = "ranges::opt_disks")]
    pub disks: Option<u32>,
    /// Sequential bandwidth of one disk \[MiB/s\].
    #[serde(default, deserialize_with = "ranges::opt_bandwidth_mbps")]
    pub bandwidth_mbps: Option<f64>,
    /// Average seek \[ms\].
    #[serde(default, deserialize_with = "ranges::opt_seek_ms")]
    pub seek_ms: Option<f64>,
    /// Request slots \[requests\].
    #[serde(default, deserialize_with = "ranges::opt_queue_depth")]
    pub queue_depth: Option<usize>,
    /// Relative spread of transfer times (0.1 = ±10%).
    #[serde(default, deserialize_with = "ranges::opt_noise")]
    pub noise: Option<f64>,
    /// Filesystem on it: xfs (default), ext4, ext3 or btrfs.
    #[serde(default)]
    pub fs: Option<FsSpec>,
    /// How long a journal commit holds up data writes (journal write and
    /// drive cache flush) \[ms\]; 0 turns commits off.
    #[serde(default, deserialize_with = "ranges::opt_flush_ms")]
    pub flush_ms: Option<f64>,
    /// NFS: network round trip \[ms\] (default 0.2).
    #[serde(default, deserialize_with = "ranges::opt_rtt_ms")]
    pub rtt_ms: Option<f64>,
    /// NFS: the server's disk \[MiB/s\] (default 80).
    #[serde(default, deserialize_with = "ranges::opt_server_mbps")]
    pub server_mbps: Option<f64>,
    /// NFS: server memory for data not yet on its disk \[MiB\] (default 128).
    #[serde(default, deserialize_with = "ranges::opt_server_cache_mb")]
    pub server_cache_mb: Option<u64>,
    /// NFS: what a COMMIT costs the server once the data is on its disk,
    /// its journal commit and disk cache flush \[ms\] (default 150).
    #[serde(default, deserialize_with = "ranges::opt_server_commit_ms")]
    pub server_commit_ms: Option<f64>,
    /// NFS: the server's disk moving to each file a COMMIT writes \[ms\].
    #[serde(default, deserialize_with = "ranges::opt_server_seek_ms")]
    pub server_seek_ms: Option<f64>,
    /// NFS: the server's background threshold: below it the server's disk
    /// writes only for COMMITs \[MiB\] (default 0: it writes at once).
    #[serde(default, deserialize_with = "ranges::opt_server_background_mb")]
    pub server_background_mb: Option<u64>,
    /// NFS: the writeback wait queue patch.
    #[serde(default)]
    pub wait_queue: Option<bool>,
    /// NFS: scale `nfs_congestion_kb` to the dirty threshold.
    #[serde(default)]
    pub congestion_scaled: Option<bool>,
    /// Share of recent writeouts at time 0, relative to the other devices
    /// (default 1: equal shares, as on a system that has been running).
    #[serde(default, deserialize_with = "ranges::opt_share")]
    pub initial_share: Option<f64>,
}

impl DeviceSpec {
    /// A device of `kind` called `name`, with the kind's defaults.
    pub fn new(name: &str, kind: DeviceKindSpec) -> DeviceSpec {
        DeviceSpec { name: name.to_string(), kind, ..DeviceSpec::default() }
    }

    /// Member disks of a RAID0 or JBOD.
    pub fn disk_count(&self) -> u32 {
        self.disks.unwrap_or(2)
    }

    /// The bdis this device is: one, or one per disk of a JBOD.
    pub fn bdi_count(&self) -> usize {
        if self.kind == DeviceKindSpec::Jbod { self.disk_count() as usize } else { 1 }
    }

    /// A field given that only another kind of device has (`disks` on
    /// an Hdd, `rtt_ms` on an Ssd), which would be silently ignored.
    fn field_of_another_kind(&self) -> Option<&'static str> {
        let striped = matches!(self.kind, DeviceKindSpec::Raid0 | DeviceKindSpec::Jbod);
        if self.disks.is_some() && !striped {
            return Some("disks");
        }
        if self.kind == DeviceKindSpec::Nfs {
            return None;
        }
        [
            ("rtt_ms", self.rtt_ms.is_some()),
            ("server_mbps", self.server_mbps.is_some()),
            ("server_cache_mb", self.server_cache_mb.is_some()),
            ("server_commit_ms", self.server_commit_ms.is_some()),
            ("server_seek_ms", self.server_seek_ms.is_some()),
            ("server_background_mb", self.server_background_mb.is_some()),
            ("wait_queue", self.wait_queue.is_some()),
            ("congestion_scaled", self.congestion_scaled.is_some()),
        ]
        .into_iter()
        .find_map(|(field, given)| given.then_some(field))
    }

    /// The names of the bdis this device is: its own, or for a JBOD its
    /// name and each disk's letter.
    pub fn bdi_names(&self) -> Vec<String> {
        match self.kind {
            DeviceKindSpec::Jbod => {
                (0..self.disk_count()).map(|i| format!("{}{}", self.name, disk_letter(i))).collect()
            }
            _ => vec![self.name.clone()],
        }
    }

    /// The engine's devices for this spec: one, or one per disk of a JBOD.
    /// The machine's profile gives what the spec leaves out, before the
    /// kind's defaults.
    fn configs(&self, box_defaults: &machine::Defaults) -> Result<Vec<DeviceConfig>> {
        let d = self.kind.defaults();
        let disks = self.disk_count();
        let members = if self.kind == DeviceKindSpec::Raid0 { disks } else { 1 };
        let server = box_defaults.nfs;
        let nfs = (d.kind == DeviceKind::Nfs).then(|| NfsConfig {
            rtt_ns: (self.rtt_ms.unwrap_or(server.rtt_ms) * 1e6) as u64,
            server_bandwidth: self.server_mbps.unwrap_or(server.server_mbps) * 1048576.0,
            server_cache: self.server_cache_mb.unwrap_or(server.server_cache_mb) << 20,
            server_background: self.server_background_mb.unwrap_or(server.server_background_mb) << 20,
            server_seek_ns: (self.server_seek_ms.unwrap_or(server.server_seek_ms) * 1e6) as u64,
            server_commit_ns: (self.server_commit_ms.unwrap_or(server.server_commit_ms) * 1e6) as u64,
            wait_queue: self.wait_queue.unwrap_or(false),
            congestion_scaled: self.congestion_scaled.unwrap_or(false),
        });
        let (box_mbps, box_seek_ms) = box_defaults.device(self.kind);
        let one = DeviceConfig {
            name: self.name.clone(),
            kind: d.kind,
            bandwidth: self.bandwidth_mbps.or(box_mbps).unwrap_or(d.bandwidth_mbps) * 1048576.0 * members as f64,
            // A RAID0's member disks seek in parallel.
            seek_ns: self.seek_ms.or(box_seek_ms).unwrap_or(d.seek_ms) * 1e6 / members as f64,
            queue_depth: self.queue_depth.unwrap_or(d.queue_depth.map_or(usize::MAX >> 1, |q| q * members as usize)),
            max_request_pages: d.max_request_pages,
            noise: self.noise.unwrap_or(d.noise),
            flush_ns: self.flush_ms.unwrap_or(d.flush_ms) * 1e6,
            fs: if nfs.is_some() { FsKind::Nfs } else { self.fs.unwrap_or_default().kind() },
            nfs,
            initial_share: self.initial_share.unwrap_or(1.0),
            controller: box_defaults.controller(self.kind),
            disks: members,
        };
        if self.kind != DeviceKindSpec::Jbod {
            return Ok(vec![one]);
        }
        Ok((0..disks)
            .map(|k| DeviceConfig { name: format!("{}{}", self.name, disk_letter(k)), ..one.clone() })
            .collect())
    }
}

/// A group of tasks in a scenario file: `n` per target bdi (`*`: every
/// bdi). A file writes the kind's fields straight in it, `Dd(n: 10)`;
/// every field left out takes the kind's default.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum TaskSpec {
    /// dd processes, each writing its own file.
    Dd(DdSpec),
    /// A copy from the network (rsync).
    Pipeline(PipelineSpec),
    /// A light writer, like an editor saving a file.
    Light(LightSpec),
    /// fio's mmap random writes of 4 KiB over a large file.
    MmapRandom(MmapRandomSpec),
}

/// `n` dd processes per target bdi, each writing its own file.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct DdSpec {
    /// Target bdi name, or `*` (the default) for every bdi.
    pub bdi: String,
    /// How many per bdi (default 1).
    #[serde(deserialize_with = "ranges::tasks_per_bdi")]
    pub n: u32,
    /// Block size, e.g. `4k` (the default), `1M`.
    #[serde(deserialize_with = "ranges::block_size")]
    pub bs: String,
    /// Stop after this many MiB (default: write until stopped).
    #[serde(deserialize_with = "ranges::opt_count_mb")]
    pub count_mb: Option<u64>,
    /// Start time of the first \[s\].
    #[serde(deserialize_with = "ranges::start_s")]
    pub start_s: f64,
    /// The group's tasks start evenly spread over this long, as a
    /// shell loop launching them would \[s\].
    #[serde(deserialize_with = "ranges::spread_s")]
    pub spread_s: f64,
    /// Kill time \[s\].
    #[serde(deserialize_with = "ranges::opt_stop_s")]
    pub stop_s: Option<f64>,
}

impl Default for DdSpec {
    fn default() -> DdSpec {
        DdSpec { bdi: "*".into(), n: 1, bs: "4k".into(), count_mb: None, start_s: 0.0, spread_s: 0.0, stop_s: None }
    }
}

/// A copy from the network (rsync): data arrives at `net_mbps` into a
/// `buffer_mb` buffer and is written out with `bs` writes.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct PipelineSpec {
    /// Target bdi name, or `*` (the default).
    pub bdi: String,
    /// How many per bdi (default 1).
    #[serde(deserialize_with = "ranges::tasks_per_bdi")]
    pub n: u32,
    /// Block size of its writes (default 64k).
    #[serde(deserialize_with = "ranges::block_size")]
    pub bs: String,
    /// Network rate \[MiB/s\] (default 20).
    #[serde(deserialize_with = "ranges::net_mbps")]
    pub net_mbps: f64,
    /// Socket and application buffer \[MiB\] (default 4).
    #[serde(deserialize_with = "ranges::buffer_mb")]
    pub buffer_mb: f64,
    /// Start time \[s\].
    #[serde(deserialize_with = "ranges::start_s")]
    pub start_s: f64,
    /// Kill time \[s\].
    #[serde(deserialize_with = "ranges::opt_stop_s")]
    pub stop_s: Option<f64>,
}

impl Default for PipelineSpec {
    fn default() -> PipelineSpec {
        PipelineSpec {
            bdi: "*".into(),
            n: 1,
            bs: "64k".into(),
            net_mbps: 20.0,
            buffer_mb: 4.0,
            start_s: 0.0,
            stop_s: None,
        }
    }
}

/// A light writer, like an editor saving a file: `burst_kb` every `period_s`.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct LightSpec {
    /// Target bdi name, or `*` (the default).
    pub bdi: String,
    /// How many per bdi (default 1).
    #[serde(deserialize_with = "ranges::tasks_per_bdi")]
    pub n: u32,
    /// Bytes per save \[KiB\] (default 64).
    #[serde(deserialize_with = "ranges::burst_kb")]
    pub burst_kb: u64,
    /// Time between saves \[s\] (default 1).
    #[serde(deserialize_with = "ranges::period_s")]
    pub period_s: f64,
    /// Start time \[s\].
    #[serde(deserialize_with = "ranges::start_s")]
    pub start_s: f64,
    /// Kill time \[s\].
    #[serde(deserialize_with = "ranges::opt_stop_s")]
    pub stop_s: Option<f64>,
}

impl Default for LightSpec {
    fn default() -> LightSpec {
        LightSpec { bdi: "*".into(), n: 1, burst_kb: 64, period_s: 1.0, start_s: 0.0, stop_s: None }
    }
}

/// fio's mmap random writes of 4 KiB over a large file.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct MmapRandomSpec {
    /// Target bdi name, or `*` (the default).
    pub bdi: String,
    /// How many per bdi (default 1).
    #[serde(deserialize_with = "ranges::tasks_per_bdi")]
    pub n: u32,
    /// Start time \[s\].
    #[serde(deserialize_with = "ranges::start_s")]
    pub start_s: f64,
    /// Kill time \[s\].
    #[serde(deserialize_with = "ranges::opt_stop_s")]
    pub stop_s: Option<f64>,
}

impl Default for MmapRandomSpec {
    fn default() -> MmapRandomSpec {
        MmapRandomSpec { bdi: "*".into(), n: 1, start_s: 0.0, stop_s: None }
    }
}

impl<'de> Deserialize<'de> for TaskSpec {
    /// Reads `Dd(...)`, `Pipeline(...)`, ... as struct variants, each body
    /// read by its spec's own (derived) deserializer.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<TaskSpec, D::Error> {
        use serde::de::{EnumAccess, Visitor};

        #[derive(Deserialize)]
        enum Kind {
            Dd,
            Pipeline,
            Light,
            MmapRandom,
        }

        struct Tasks;

        impl<'de> Visitor<'de> for Tasks {
            type Value = TaskSpec;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                write!(f, "a task group: {}", task_kinds())
            }

            fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> std::result::Result<TaskSpec, A::Error> {
                let (kind, body) = data.variant::<Kind>()?;
                let body = VariantBody(body);
                Ok(match kind {
                    Kind::Dd => TaskSpec::Dd(DdSpec::deserialize(body)?),
                    Kind::Pipeline => TaskSpec::Pipeline(PipelineSpec::deserialize(body)?),
                    Kind::Light => TaskSpec::Light(LightSpec::deserialize(body)?),
                    Kind::MmapRandom => TaskSpec::MmapRandom(MmapRandomSpec::deserialize(body)?),
                })
            }
        }

        d.deserialize_enum("TaskSpec", &TASK_KINDS, Tasks)
    }
}

/// The body of a struct variant, read as the struct a spec derives its
/// deserializer for.
struct VariantBody<A>(A);

impl<'de, A: serde::de::VariantAccess<'de>> serde::Deserializer<'de> for VariantBody<A> {
    type Error = A::Error;

    fn deserialize_struct<V: serde::de::Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> std::result::Result<V::Value, A::Error> {
        self.0.struct_variant(fields, visitor)
    }

    fn deserialize_any<V: serde::de::Visitor<'de>>(self, _visitor: V) -> std::result::Result<V::Value, A::Error> {
        Err(serde::de::Error::custom("a task group's fields are `name: value` pairs"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
        unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
    }
}

/// One task group converted for the engine: what each task is and when
/// the group runs.
struct Group {
    kind: TaskKind,
    n: u32,
    start_s: f64,
    spread_s: f64,
    stop_s: Option<f64>,
}

impl TaskSpec {
    /// The group's target bdi.
    pub fn bdi(&self) -> &str {
        match self {
            TaskSpec::Dd(t) => &t.bdi,
            TaskSpec::Pipeline(t) => &t.bdi,
            TaskSpec::Light(t) => &t.bdi,
            TaskSpec::MmapRandom(t) => &t.bdi,
        }
    }

    /// How many tasks per target bdi.
    pub fn count(&self) -> u32 {
        match self {
            TaskSpec::Dd(t) => t.n,
            TaskSpec::Pipeline(t) => t.n,
            TaskSpec::Light(t) => t.n,
            TaskSpec::MmapRandom(t) => t.n,
        }
    }

    /// How many tasks the group starts in a world of `bdis` bdis: its
    /// count on each bdi it aims at (`*`: every one).
    pub fn tasks_among(&self, bdis: usize) -> u64 {
        let targets = if self.bdi() == "*" { bdis as u64 } else { 1 };
        u64::from(self.count()) * targets
    }

    /// How many tasks per target bdi, to change.
    pub fn count_mut(&mut self) -> &mut u32 {
        match self {
            TaskSpec::Dd(t) => &mut t.n,
            TaskSpec::Pipeline(t) => &mut t.n,
            TaskSpec::Light(t) => &mut t.n,
            TaskSpec::MmapRandom(t) => &mut t.n,
        }
    }

    /// The engine's task kind and the group's timing; an error comes
    /// with the field it is about.
    fn group(&self) -> std::result::Result<Group, (&'static str, Error)> {
        let block_size = |bs: &str| ranges::check_block_size(bs).map_err(|e| ("bs", e));
        Ok(match self {
            TaskSpec::Dd(t) => Group {
                kind: TaskKind::Dd { bs: block_size(&t.bs)?, total_bytes: t.count_mb.map(|m| m << 20) },
                n: t.n,
                start_s: t.start_s,
                spread_s: t.spread_s,
                stop_s: t.stop_s,
            },
            TaskSpec::Pipeline(t) => Group {
                kind: TaskKind::Pipeline {
                    bs: block_size(&t.bs)?,
                    net_rate: t.net_mbps * 1048576.0,
                    buffer: (t.buffer_mb * 1048576.0) as u64,
                },
                n: t.n,
                start_s: t.start_s,
                spread_s: 0.0,
                stop_s: t.stop_s,
            },
            TaskSpec::Light(t) => Group {
                kind: TaskKind::Light {
                    burst: t.burst_kb << 10,
                    period_ns: seconds("period_s", t.period_s).map_err(|e| ("period_s", e))?,
                },
                n: t.n,
                start_s: t.start_s,
                spread_s: 0.0,
                stop_s: t.stop_s,
            },
            TaskSpec::MmapRandom(t) => {
                Group { kind: TaskKind::RandomMmap, n: t.n, start_s: t.start_s, spread_s: 0.0, stop_s: t.stop_s }
            }
        })
    }
}

/// Settings the command line can override, and a lesson can change
/// (`Reconfigure((period_shift: 12))`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Overrides {
    /// `vm.dirty_ratio`; zeroes `dirty_bytes`.
    #[serde(deserialize_with = "ranges::opt_dirty_ratio")]
    pub dirty_ratio: Option<u64>,
    /// `vm.dirty_background_ratio`; zeroes `dirty_background_bytes`.
    #[serde(deserialize_with = "ranges::opt_dirty_background_ratio")]
    pub dirty_background_ratio: Option<u64>,
    /// `vm.dirty_bytes`; zeroes the ratio.
    #[serde(deserialize_with = "ranges::opt_dirty_bytes")]
    pub dirty_bytes: Option<u64>,
    /// `vm.dirty_background_bytes`; zeroes the ratio.
    #[serde(deserialize_with = "ranges::opt_background_bytes")]
    pub dirty_background_bytes: Option<u64>,
    /// Memory \[MiB\].
    #[serde(deserialize_with = "ranges::opt_memory_mb")]
    pub memory_mb: Option<u64>,
    /// CPUs.
    #[serde(deserialize_with = "ranges::opt_cpus")]
    pub cpus: Option<usize>,
    /// HZ.
    #[serde(deserialize_with = "ranges::opt_hz")]
    pub hz: Option<u64>,
    /// dd tasks per bdi.
    #[serde(deserialize_with = "ranges::opt_dd")]
    pub dd: Option<u32>,
    /// Period shift.
    #[serde(deserialize_with = "ranges::opt_period_shift")]
    pub period_shift: Option<i32>,
    /// Seed.
    #[serde(deserialize_with = "ranges::opt_seed")]
    pub seed: Option<u64>,
    /// Patch level (above 0 it also selects Linux 3.1).
    #[serde(deserialize_with = "ranges::opt_patches")]
    pub patches: Option<u8>,
    /// The legacy kernel (2.6.38 also selects patch level 0).
    pub legacy: Option<LegacySpec>,
    /// Turn the NFS writeback wait queue patch on or off on every NFS mount.
    pub nfs_wait_queue: Option<bool>,
    /// Turn the NFS congestion scaling patch on or off on every NFS mount.
    pub nfs_congestion_scaled: Option<bool>,
}

/// Largest number of dd tasks per bdi the command line accepts.
pub const MAX_DD_PER_BDI: u32 = 10_000;

/// Most bdis a world may have (the engine's limit).
pub const MAX_BDIS: usize = 64;

/// RON as dirtyviz reads it: optional fields take plain values (`disks: 10`).
pub fn ron_options() -> ron::Options {
    ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
}

/// Formats a RON error in `text` as `origin:line:col: what was wrong`;
/// a value in quotes is pointed at by its opening quote (RON points
/// after it).
pub fn ron_error(origin: &str, text: &str, e: &ron::error::SpannedError) -> String {
    let (line, col, what) = ron_error_at(text, e);
    format!("{origin}:{line}:{col}: {what}")
}

/// [`ron_error`]'s line, column and message.
pub fn ron_error_at(text: &str, e: &ron::error::SpannedError) -> (usize, usize, String) {
    use ron::error::Error as E;
    // Of a long list, a near name alone (53 metrics in one line helped no
    // one who had misspelt one; nor did a scenario's 19 fields).
    let unknown = |what: &str, found: &str, expected: &[&str]| match crate::error::did_you_mean(
        found,
        expected.iter().copied(),
    ) {
        near if !near.is_empty() && expected.len() > 8 => format!("unknown {what} `{found}`{near}"),
        near => format!("unknown {what} `{found}`, expected one of {}{near}", quoted_list(expected)),
    };
    let what = match &e.code {
        E::NoSuchStructField { expected, found, .. } => unknown("field", found, expected),
        E::NoSuchEnumVariant { expected, found, .. } => unknown("variant", found, expected),
        E::MissingStructField { field, outer } => {
            format!("missing field `{field}`{}", outer.as_ref().map(|o| format!(" in `{o}`")).unwrap_or_default())
        }
        E::Message(ours) => ours.clone(),
        other => {
            // RON's own messages start with a capital; ours do not.
            let text = other.to_string();
            let mut chars = text.chars();
            chars.next().map_or(text.clone(), |c| c.to_lowercase().chain(chars).collect())
        }
    };
    let (line, mut col) = (e.span.start.line, e.span.start.col);
    let row: Vec<char> = text.lines().nth(line.saturating_sub(1)).unwrap_or("").chars().collect();
    let char_at = |col: usize| col.checked_sub(1).and_then(|i| row.get(i)).copied();
    if col > 1 && char_at(col - 1) == Some('"') && matches!(e.code, E::InvalidValueForType { .. }) {
        col -= 1;
    }
    // RON may place a value's error on the blank before it, or a
    // negative number's on its first digit: the value starts at the sign.
    while char_at(col).is_some_and(|c| c == ' ' || c == '\t') && char_at(col + 1).is_some() {
        col += 1;
    }
    if col > 1 && char_at(col - 1) == Some('-') && char_at(col).is_some_and(|c| c.is_ascii_digit()) {
        col -= 1;
    }
    if matches!(e.code, E::TrailingCharacters) {
        // RON says so where the value ends; the user looks for the text.
        let from = offset_of(text, line, col);
        let rest = locate::after_comments(&text[from..]);
        let (line, col) = locate::line_col(text, text.len() - rest.len());
        return (line, col, "text after the end of the file's one value (its last `)`)".into());
    }
    let at_end = text[offset_of(text, e.span.end.line, e.span.end.col)..].trim().is_empty();
    let what = what_ron_leaves_out(text, line, col, at_end, &e.code).unwrap_or(what);
    (line, col, crate::error::printable(&what).into_owned())
}

/// Byte offset of 1-based `line`:`col` (in characters) in `text`.
fn offset_of(text: &str, line: usize, col: usize) -> usize {
    let start = text.split_inclusive('\n').take(line.saturating_sub(1)).map(str::len).sum::<usize>();
    let row = text[start.min(text.len())..].lines().next().unwrap_or("");
    (start + row.char_indices().nth(col.saturating_sub(1)).map_or(row.len(), |(i, _)| i)).min(text.len())
}

/// What RON's own message at `line`:`col` leaves out, where it can be
/// told: the file ending too soon (`at_end`: the error runs to its end),
/// the field whose value is not of its type (`expected a string in
/// quotes for bs`), a number written with a unit.
fn what_ron_leaves_out(text: &str, line: usize, col: usize, at_end: bool, code: &ron::error::Error) -> Option<String> {
    use ron::error::Error as E;
    let (head, tail) = text.split_at(offset_of(text, line, col));
    // Whatever RON expected next, a file that ends before it is cut short
    // (a lesson cut after `title:` was told `expected string`).
    if at_end && !matches!(code, E::Message(_) | E::ExpectedStringEnd) {
        return Some("the file ends too soon: a `(`, `[` or string is not closed".into());
    }
    let kind = match code {
        E::ExpectedString => "a string in quotes",
        E::ExpectedBoolean => "true or false",
        E::ExpectedInteger | E::ExpectedFloat => "a number",
        // An item of a list of kinds written without its kind, as a
        // struct is (`tasks: [(n: 2, ...)]`): RON said `expected identifier`.
        E::ExpectedIdentifier if tail.starts_with('(') => {
            let list = enclosing_list(head)?;
            let kinds = match list {
                "tasks" => format!(" ({}: `Dd(bdi: \"sda\", n: 2)`)", task_kinds()),
                _ => String::new(),
            };
            return Some(format!("expected a name before `(`: each item of `{list}` starts with its kind{kinds}"));
        }
        E::ExpectedIdentifier => "a name without quotes",
        E::ExpectedComma if tail.starts_with(char::is_alphabetic) && head.ends_with(|c: char| c.is_ascii_digit()) => {
            let number = head.rsplit(|c: char| !c.is_ascii_digit() && c != '.').next().unwrap_or("");
            let unit: String = tail.chars().take_while(|c| c.is_alphanumeric()).collect();
            return Some(format!(
                "`{number}{unit}`: write the number alone, {number} (the field's name says its unit)"
            ));
        }
        E::ExpectedStringEnd => return Some("this string is not closed: no `\"` after it".into()),
        _ => return None,
    };
    // The field whose value this is: `name:` just before it.
    let field = head.trim_end().strip_suffix(':')?.trim_end();
    let start = field.char_indices().rev().find(|&(_, c)| !c.is_alphanumeric() && c != '_');
    let name = &field[start.map_or(0, |(i, c)| i + c.len_utf8())..];
    let hint = if kind.starts_with("a string") && name == "bs" { " (a size: \"4k\", \"1M\")" } else { "" };
    (!name.is_empty()).then(|| format!("expected {kind} for `{name}`{hint}"))
}

/// The kinds of a task group, as a scenario file names them.
const TASK_KINDS: [&str; 4] = ["Dd", "Pipeline", "Light", "MmapRandom"];

/// [`TASK_KINDS`] as words: `Dd, Pipeline, Light or MmapRandom`.
fn task_kinds() -> String {
    let (last, rest) = TASK_KINDS.split_last().expect("kinds");
    format!("{} or {last}", rest.join(", "))
}

/// The field whose list `head` ends inside (`tasks` of `tasks: [(n: 2`),
/// if its innermost open bracket is a list's.
fn enclosing_list(head: &str) -> Option<&str> {
    let mut depth = 0usize;
    let at = head.char_indices().rev().find_map(|(i, c)| match c {
        ')' | ']' => {
            depth += 1;
            None
        }
        '(' | '[' if depth > 0 => {
            depth -= 1;
            None
        }
        '(' => Some(None),
        '[' => Some(Some(i)),
        _ => None,
    })??;
    let field = head[..at].trim_end().strip_suffix(':')?.trim_end();
    let start = field
        .char_indices()
        .rev()
        .find(|&(_, c)| !c.is_alphanumeric() && c != '_')
        .map_or(0, |(i, c)| i + c.len_utf8());
    Some(&field[start..]).filter(|name| !name.is_empty())
}

fn quoted_list(items: &[&str]) -> String {
    items.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(", ")
}

/// Why a text is not a size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SizeError {
    /// Not a number of bytes, KiB, MiB, GiB or TiB.
    Malformed,
    /// A size past the largest one a 64-bit count of bytes holds,
    /// 18446744073709551615 bytes (16 EiB less a byte).
    TooLarge,
    /// A number of bytes with a fraction (`5000.5`): a byte is whole.
    PartByte,
}

/// Parses a size such as `4k`, `1M`, `512`, `2G`, `1.5G` (binary units)
/// \[bytes\], exactly: in whole numbers, a fraction of a byte dropped.
pub fn size(s: &str) -> std::result::Result<u64, SizeError> {
    let s = s.trim();
    let split = s.find(|c: char| !c.is_ascii_digit() && c != '.').unwrap_or(s.len());
    let (num, unit) = s.split_at(split);
    // Binary units in any case: K, KB and KiB are all 2^10.
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kib" | "kb" => 10,
        "m" | "mib" | "mb" => 20,
        "g" | "gib" | "gb" => 30,
        "t" | "tib" | "tb" => 40,
        _ => return Err(SizeError::Malformed),
    };
    let (whole, fraction) = num.split_once('.').unwrap_or((num, ""));
    if (whole.is_empty() && fraction.is_empty()) || fraction.contains('.') {
        return Err(SizeError::Malformed);
    }
    if shift == 0 && fraction.bytes().any(|d| d != b'0') {
        return Err(SizeError::PartByte);
    }
    let mut units: u128 = 0;
    for digit in whole.bytes() {
        units = units * 10 + u128::from(digit - b'0');
        if units > u128::from(u64::MAX) {
            return Err(SizeError::TooLarge);
        }
    }
    // Digits past the 24th change less than a byte of a TiB.
    let (mut numerator, mut denominator) = (0u128, 1u128);
    for digit in fraction.bytes().take(24) {
        numerator = numerator * 10 + u128::from(digit - b'0');
        denominator *= 10;
    }
    let bytes = (units << shift) + (numerator << shift) / denominator;
    u64::try_from(bytes).map_err(|_| SizeError::TooLarge)
}

/// [`size`], without saying why a text is not one.
pub fn parse_size(s: &str) -> Option<u64> {
    size(s).ok()
}

/// Seconds \[s\] as nanoseconds, if within [`ranges::TIME_S`].
fn seconds(what: &str, s: f64) -> Result<u64> {
    ranges::TIME_S.check(what, s)?;
    Ok((s * NS_PER_SEC as f64) as u64)
}

fn disk_letter(i: u32) -> char {
    (b'a' + (i % 26) as u8) as char
}

impl Scenario {
    /// The NFS patch `o` turns on (`nfs_wait_queue`,
    /// `nfs_congestion_scaled`) where this world has no NFS mount, which
    /// it would change nothing of.
    pub fn nfs_patch_without_nfs(&self, o: &Overrides) -> Option<&'static str> {
        let nfs = self.devices.iter().any(|d| d.kind == DeviceKindSpec::Nfs);
        let flags = [("nfs_wait_queue", o.nfs_wait_queue), ("nfs_congestion_scaled", o.nfs_congestion_scaled)];
        flags.into_iter().find(|(_, on)| on.is_some() && !nfs).map(|(flag, _)| flag)
    }

    /// Parses a scenario from RON text; errors read `origin:line:col: ...`.
    pub fn from_ron(text: &str, origin: &str) -> Result<Scenario> {
        locate::refuse_unclosed_comment(crate::input::without_bom(text), origin)?;
        if locate::after_comments(crate::input::without_bom(text)).is_empty() {
            return Err(Error::invalid(format!(
                "{origin}: empty: a scenario file holds one `Scenario(...)`, e.g. \
                 `Scenario(devices: [(name: \"sda\", kind: Hdd)])`"
            )));
        }
        ron_options()
            .from_str(crate::input::without_bom(text))
            .map_err(|e| Error::invalid(ron_error(origin, crate::input::without_bom(text), &e)))
    }

    /// A scenario its file does not name is named after the file.
    pub fn name_after_file(&mut self, path: &Path) {
        if self.name.is_empty() {
            let stem = path.file_stem().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            self.name = crate::error::printable(&stem).into_owned();
        }
    }

    /// Reads a scenario file (a regular file of at most 16 MiB).
    pub fn load(path: &Path) -> Result<Scenario> {
        let text = crate::input::read_text(path, "scenario", crate::input::MAX_RON_BYTES)?;
        let origin = path.display().to_string();
        let mut s = Scenario::from_ron(&text, &origin)?;
        s.name_after_file(path);
        // What holds several fields together (a task's bdi, the counts) is
        // checked here too, so that its error names the file and the field.
        s.to_world_in(&crate::error::printable(&origin), crate::input::without_bom(&text))?;
        Ok(s)
    }

    /// A preset by name, or a scenario file by path.
    pub fn resolve(name_or_path: &str) -> Result<Scenario> {
        if let Some(s) = presets::get(name_or_path) {
            return s;
        }
        let path = Path::new(name_or_path);
        // A link that leads nowhere is a file given: its reason is told.
        if std::fs::symlink_metadata(path).is_ok() {
            return Scenario::load(path);
        }
        Err(Error::invalid(format!(
            "unknown scenario `{name_or_path}`: not a file and not a preset ({}){}",
            presets::names().join(", "),
            crate::error::did_you_mean(name_or_path, presets::names().iter().copied())
        )))
    }

    /// Applies command-line overrides, as sysctl would: a byte setting
    /// zeroes its ratio twin and a ratio zeroes the bytes.
    pub fn apply(&mut self, o: &Overrides) {
        if let Some(v) = o.dirty_ratio {
            self.dirty_ratio = v;
            self.dirty_bytes = None;
        }
        if let Some(v) = o.dirty_bytes {
            self.dirty_bytes = Some(v);
            self.dirty_ratio = 0;
        }
        if let Some(v) = o.dirty_background_ratio {
            self.dirty_background_ratio = v;
            self.dirty_background_bytes = None;
        }
        if let Some(v) = o.dirty_background_bytes {
            self.dirty_background_bytes = Some(v);
            self.dirty_background_ratio = 0;
        }
        if let Some(v) = o.memory_mb {
            self.memory_mb = v;
            self.reserved_mb = None;
        }
        if let Some(v) = o.cpus {
            self.cpus = v;
        }
        if let Some(v) = o.hz {
            self.hz = v;
        }
        if let Some(v) = o.period_shift {
            self.period_shift = Some(v);
        }
        if let Some(v) = o.seed {
            self.seed = v;
        }
        if let Some(v) = o.patches {
            self.patches = v;
            if v > 0 {
                self.legacy = LegacySpec::Linux31;
            }
        }
        if let Some(l) = o.legacy {
            self.legacy = l;
            if l == LegacySpec::Linux2638 {
                self.patches = 0;
            }
        }
        // The NFS patches are the NFS mounts' (a file gives them no other).
        for d in self.devices.iter_mut().filter(|d| d.kind == DeviceKindSpec::Nfs) {
            if let Some(on) = o.nfs_wait_queue {
                d.wait_queue = Some(on);
            }
            if let Some(on) = o.nfs_congestion_scaled {
                d.congestion_scaled = Some(on);
            }
        }
        if let Some(n) = o.dd {
            self.set_dd_per_bdi(n);
        }
    }

    /// Gives every bdi `n` dd (`--dd`): each bdi's dd are those of the
    /// first dd group that targets it, `n` of them; a later group
    /// targeting it gives it none (a `*` group after a named one keeps
    /// its settings for the bdis it comes first for, named one by one),
    /// and a bdi no group targets gets `n` plain dd. A group naming no
    /// bdi of the scenario is kept, to be refused as before.
    fn set_dd_per_bdi(&mut self, n: u32) {
        let names = self.bdi_names();
        let mut covered = vec![false; names.len()];
        let mut tasks = Vec::with_capacity(self.tasks.len());
        for t in std::mem::take(&mut self.tasks) {
            let TaskSpec::Dd(dd) = t else {
                tasks.push(t);
                continue;
            };
            let targets: Vec<usize> = if dd.bdi == "*" {
                (0..names.len()).collect()
            } else {
                match names.iter().position(|b| *b == dd.bdi) {
                    Some(i) => vec![i],
                    None => {
                        tasks.push(TaskSpec::Dd(DdSpec { n, ..dd }));
                        continue;
                    }
                }
            };
            let first: Vec<usize> = targets.iter().copied().filter(|&i| !covered[i]).collect();
            for &i in &first {
                covered[i] = true;
            }
            if first.len() == targets.len() {
                tasks.push(TaskSpec::Dd(DdSpec { n, ..dd }));
            } else {
                tasks.extend(first.iter().map(|&i| TaskSpec::Dd(DdSpec { bdi: names[i].clone(), n, ..dd.clone() })));
            }
        }
        if n > 0 {
            if covered.iter().all(|&c| !c) {
                tasks.push(TaskSpec::Dd(DdSpec { n, ..DdSpec::default() }));
            } else {
                let missing = names.iter().zip(&covered).filter(|&(_, &c)| !c);
                tasks.extend(missing.map(|(b, _)| TaskSpec::Dd(DdSpec { bdi: b.clone(), n, ..DdSpec::default() })));
            }
        }
        self.tasks = tasks;
    }

    /// The bdi names this scenario creates, in order.
    pub fn bdi_names(&self) -> Vec<String> {
        self.devices.iter().flat_map(DeviceSpec::bdi_names).collect()
    }

    /// What messages about this scenario start with.
    pub fn origin(&self) -> std::borrow::Cow<'_, str> {
        if self.name.is_empty() { "scenario".into() } else { crate::error::printable(&self.name) }
    }

    /// Converts into the engine's configuration, checking every value a
    /// user could get wrong. Counts (bdis, tasks) are checked before
    /// anything is expanded.
    pub fn to_world(&self) -> Result<WorldConfig> {
        self.to_world_from(&self.origin())
    }

    /// [`Scenario::to_world`], its errors starting with `origin` (the file
    /// the scenario was read from) rather than the scenario's name.
    pub fn to_world_from(&self, origin: &str) -> Result<WorldConfig> {
        self.world().map_err(|p| p.error.context(origin))
    }

    /// [`Scenario::to_world`] for a scenario read from `text`: an error
    /// reads `origin:line:col: ...`, at the field it is about.
    pub fn to_world_in(&self, origin: &str, text: &str) -> Result<WorldConfig> {
        self.world().map_err(|p| p.told_in(origin, text, &[]))
    }

    /// The engine's configuration, or what is wrong and where.
    pub fn world(&self) -> std::result::Result<WorldConfig, Placed> {
        self.check_settings()?;
        let named = self.machine.as_deref().map(machine::get).transpose().map_err(Placed::at_field("machine"))?;
        let box_defaults = machine::Defaults::of(self.profile.as_deref().or(named));
        let bdis = self.check_counts()?;
        let devices = self.device_configs(bdis, &box_defaults)?;
        let tasks = self.task_configs(&devices)?;
        let pages = |mb: u64| mb << (20 - crate::sim::kernel::PAGE_SHIFT);
        let cfg = WorldConfig {
            memory_pages: pages(self.memory_mb),
            reserved_pages: pages(self.reserved_mb.unwrap_or(self.memory_mb / 10)),
            cpus: self.cpus,
            hz: self.hz,
            tunables: DirtyTunables {
                dirty_ratio: self.dirty_ratio,
                dirty_background_ratio: self.dirty_background_ratio,
                dirty_bytes: self.dirty_bytes.unwrap_or(0),
                dirty_background_bytes: self.dirty_background_bytes.unwrap_or(0),
            },
            period_shift: self.period_shift,
            patches: self.patches,
            legacy: self.legacy.kernel(),
            seed: self.seed,
            devices,
            controllers: box_defaults.controllers(),
            tasks,
            syscall_ns: SYSCALL_NS,
            copy_page_ns: self.copy_mbps.map_or(COPY_PAGE_NS, copy_page_ns),
            sample_ns: NS_PER_SEC / 10,
            trace: false,
            sample_retention: 0,
            pause_log: 0,
            check_invariants: false,
        };
        crate::sim::engine::validate(&cfg).map_err(|e| {
            // The engine's own checks are a tripwire behind the ones here;
            // a device's is told at the device.
            let device = self
                .devices
                .iter()
                .position(|d| d.bdi_names().iter().any(|name| e.0.starts_with(&format!("device {name}:"))));
            let at = device.map_or_else(FieldPath::default, |i| FieldPath::element("devices", i, None));
            Placed { at: vec![at], error: Error::from(e) }
        })?;
        Ok(cfg)
    }

    /// The settings that are one number each, and how they fit together.
    fn check_settings(&self) -> std::result::Result<(), Placed> {
        ranges::MEMORY_MB.check("memory_mb", self.memory_mb).map_err(Placed::at_field("memory_mb"))?;
        if self.reserved_mb.unwrap_or(self.memory_mb / 10) >= self.memory_mb {
            return Err(Placed::new(
                &["reserved_mb", "memory_mb"],
                Error::invalid("reserved_mb must be smaller than memory_mb"),
            ));
        }
        ranges::check_hz(self.hz).map_err(Placed::at_field("hz"))?;
        ranges::DURATION_S.check("duration_s", self.duration_s).map_err(Placed::at_field("duration_s"))?;
        let jiffy_s = 1.0 / self.hz as f64;
        if self.duration_s < jiffy_s {
            return Err(Placed::new(
                &["duration_s", "hz"],
                Error::invalid(format!(
                    "duration_s must be at least one jiffy ({} s at HZ {}), got {}",
                    crate::units::trimmed(jiffy_s, 6),
                    self.hz,
                    self.duration_s
                )),
            ));
        }
        if self.legacy == LegacySpec::Linux2638 && self.patches != 0 {
            return Err(Placed::new(
                &["patches", "legacy"],
                Error::invalid(format!(
                    "`legacy: Linux2638` runs none of the series' patches: add `patches: 0` (got {})",
                    self.patches
                )),
            ));
        }
        Ok(())
    }

    /// Counts the bdis and tasks the scenario asks for, before building
    /// any of them, and checks that no two devices name the same bdi;
    /// returns the bdi count.
    fn check_counts(&self) -> std::result::Result<usize, Placed> {
        if self.devices.is_empty() {
            return Err(Placed::new(&["devices"], Error::invalid("a scenario needs at least one device in `devices`")));
        }
        let mut bdis = 0usize;
        let mut names = HashSet::new();
        for (i, d) in self.devices.iter().enumerate() {
            let at = |field: &'static str| {
                move |e: Error| Placed { at: vec![FieldPath::element("devices", i, Some(field))], error: e }
            };
            ranges::check_name("a device name", &d.name)
                .map_err(|e| e.context(format_args!("devices[{i}]")))
                .map_err(at("name"))?;
            if d.name.is_empty() || d.name == "*" {
                return Err(at("name")(Error::invalid(format!(
                    "devices[{i}]: a device needs a name other than `` and `*`"
                ))));
            }
            if matches!(d.kind, DeviceKindSpec::Raid0 | DeviceKindSpec::Jbod) {
                ranges::DISKS
                    .check("disks", d.disk_count())
                    .map_err(|e| Error::invalid(format!("devices[{i}]: {e}")))
                    .map_err(at("disks"))?;
            }
            if let Some(field) = d.field_of_another_kind() {
                return Err(at(field)(Error::invalid(format!(
                    "devices[{i}]: `{field}` is not a setting of kind {:?} (it would be ignored)",
                    d.kind
                ))));
            }
            // Past the bdi limit the count refuses the scenario anyway.
            if bdis <= MAX_BDIS
                && let Some(name) = d.bdi_names().into_iter().find(|name| !names.insert(name.clone()))
            {
                return Err(at("name")(Error::invalid(format!(
                    "devices[{i}]: two devices are named `{}`",
                    crate::error::printable(&name)
                ))));
            }
            bdis += d.bdi_count();
        }
        if bdis > MAX_BDIS {
            return Err(Placed::new(
                &["devices"],
                Error::invalid(format!("at most {MAX_BDIS} bdis, the devices make {bdis}")),
            ));
        }
        let max_tasks = crate::sim::engine::MAX_TASKS as u64;
        let mut tasks = 0u64;
        for (i, t) in self.tasks.iter().enumerate() {
            let at = |e: Error| Placed { at: vec![FieldPath::element("tasks", i, Some("n"))], error: e };
            let n = t.count();
            ranges::TASKS_PER_BDI.check("n", n).map_err(|e| at(e.context(format_args!("tasks[{i}]"))))?;
            let targets = if t.bdi() == "*" { bdis } else { 1 };
            tasks += t.tasks_among(bdis);
            if tasks > max_tasks {
                return Err(at(Error::invalid(format!(
                    "at most {max_tasks} tasks, the scenario asks for more (tasks[{i}]: {n} on each of {targets} bdis)"
                ))));
            }
        }
        Ok(bdis)
    }

    /// The engine's devices (their names were checked unique by
    /// [`Scenario::check_counts`], which names each bdi as they do).
    fn device_configs(
        &self,
        bdis: usize,
        box_defaults: &machine::Defaults,
    ) -> std::result::Result<Vec<DeviceConfig>, Placed> {
        let mut devices = Vec::new();
        crate::oom::try_reserve(&mut devices, bdis)
            .map_err(|_| Placed::new(&[], out_of_memory(format!("{bdis} bdis"), bdis, 1024)))?;
        for (i, d) in self.devices.iter().enumerate() {
            devices.extend(d.configs(box_defaults).map_err(|e| Placed {
                at: vec![FieldPath::element("devices", i, None)],
                error: e.context(format_args!("devices[{i}]")),
            })?);
        }
        Ok(devices)
    }

    /// The engine's tasks, each group expanded over its target bdis.
    fn task_configs(&self, devices: &[DeviceConfig]) -> std::result::Result<Vec<TaskConfig>, Placed> {
        let total: u64 =
            self.tasks.iter().map(|t| t.count() as u64 * if t.bdi() == "*" { devices.len() as u64 } else { 1 }).sum();
        let mut tasks = Vec::new();
        crate::oom::try_reserve(&mut tasks, total as usize).map_err(|_| {
            Placed::new(&[], out_of_memory(format!("{total} tasks"), total as usize, size_of::<TaskConfig>()))
        })?;
        for (i, t) in self.tasks.iter().enumerate() {
            let at = |field: &'static str| {
                move |e: Error| Placed {
                    at: vec![FieldPath::element("tasks", i, Some(field))],
                    error: e.context(format_args!("tasks[{i}]")),
                }
            };
            let bdi = t.bdi();
            let targets: Vec<usize> = if bdi == "*" {
                (0..devices.len()).collect()
            } else {
                match devices.iter().position(|d| d.name == bdi) {
                    Some(k) => vec![k],
                    None => {
                        let names: Vec<&str> = devices.iter().map(|d| d.name.as_str()).collect();
                        return Err(at("bdi")(Error::invalid(format!(
                            "unknown bdi `{}`, expected `*` or one of {}",
                            crate::error::printable(bdi),
                            quoted_list(&names)
                        ))));
                    }
                }
            };
            let g = t.group().map_err(|(field, e)| at(field)(e))?;
            let start_ns = seconds("start_s", g.start_s).map_err(at("start_s"))?;
            let spread_ns = seconds("spread_s", g.spread_s).map_err(at("spread_s"))?;
            let stop_ns = g.stop_s.map(|s| seconds("stop_s", s)).transpose().map_err(at("stop_s"))?;
            if let Some(stop_s) = g.stop_s.filter(|&stop_s| stop_s <= g.start_s) {
                return Err(at("stop_s")(Error::invalid(format!(
                    "stop_s must be after start_s: the tasks would be killed before they start (start_s {}, stop_s {stop_s})",
                    g.start_s
                ))));
            }
            let count = targets.len() as u64 * g.n as u64;
            for (k, &b) in targets.iter().flat_map(|b| std::iter::repeat_n(b, g.n as usize)).enumerate() {
                tasks.push(TaskConfig {
                    bdi: b,
                    kind: g.kind.clone(),
                    start_ns: start_ns + spread_ns * k as u64 / count.max(1),
                    stop_ns,
                });
            }
        }
        Ok(tasks)
    }
}

/// What is wrong with a scenario, and the fields it is about: the first
/// of them the file writes is where it is told.
#[derive(Debug)]
pub struct Placed {
    /// The fields, the likeliest first.
    pub at: Vec<FieldPath>,
    /// What is wrong.
    pub error: Error,
}

impl Placed {
    /// `error` about the top-level `fields`.
    fn new(fields: &[&'static str], error: Error) -> Placed {
        Placed { at: fields.iter().map(|&f| FieldPath::field(f)).collect(), error }
    }

    /// For `map_err`: an error about the top-level `field`.
    fn at_field(field: &'static str) -> impl Fn(Error) -> Placed {
        move |error| Placed::new(&[field], error)
    }

    /// The error as `origin:line:col: ...`, at the first of its fields
    /// that `text` writes (under `outer`, e.g. a lesson's `scenario`),
    /// else at the value that would hold the first; `origin: ...` when
    /// the text cannot be walked. Errors not about the text (no memory)
    /// stay as they are.
    pub fn told_in(self, origin: &str, text: &str, outer: &[locate::Seg]) -> Error {
        let Error::Invalid(what) = self.error else { return self.error };
        let paths: Vec<FieldPath> = self.at.iter().map(|p| p.under(outer)).collect();
        let place = paths
            .iter()
            .find_map(|p| locate::written(text, p))
            .or_else(|| locate::locate(text, paths.first().unwrap_or(&FieldPath(outer.to_vec()))));
        match place {
            Some((line, col)) => Error::Invalid(format!("{origin}:{line}:{col}: {what}")),
            None => Error::Invalid(format!("{origin}: {what}")),
        }
    }
}

/// Not enough memory for `count` things of about `each` bytes.
fn out_of_memory(what: String, count: usize, each: usize) -> Error {
    Error::OutOfMemory { what, bytes: (count as u64).saturating_mul(each as u64) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_file_is_told_empty_with_what_it_should_hold() {
        for empty in ["", "\n\n", "\u{feff}", "// a scenario, later\n"] {
            let e = Scenario::from_ron(empty, "s.ron").expect_err("empty");
            let e = e.to_string();
            assert!(e.starts_with("s.ron: empty: a scenario file holds one `Scenario(...)`, e.g. `"), "{e}");
            let example = e.split('`').nth(3).expect("an example");
            assert!(Scenario::from_ron(example, "example").is_ok(), "{example}");
        }
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("4k"), Some(4096));
        assert_eq!(parse_size("1M"), Some(1 << 20));
        assert_eq!(parse_size("512"), Some(512));
        assert_eq!(parse_size("1.5G"), Some(3 << 29));
        assert_eq!(parse_size("4q"), None);
        assert_eq!(parse_size("-1k"), None);
        assert_eq!(parse_size(""), None);
        assert_eq!(parse_size(".5k"), Some(512));
        assert_eq!(parse_size("1.2.3"), None);
        assert_eq!(parse_size("."), None);
        assert_eq!(size("0.5"), Err(SizeError::PartByte));
        assert_eq!(size("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(size("18446744073709551616"), Err(SizeError::TooLarge));
        assert_eq!(size("16777215T"), Ok(u64::MAX - (1 << 40) + 1));
        assert_eq!(size("16777216T"), Err(SizeError::TooLarge));
        assert_eq!(size("99999999999T"), Err(SizeError::TooLarge));
        assert_eq!(size("999999999999999999999999999999999999999999"), Err(SizeError::TooLarge));
        assert_eq!(size("1.000000000000000000000000000001T"), Ok(1 << 40));
        assert_eq!(size("4x"), Err(SizeError::Malformed));
        assert_eq!(size("5000.5"), Err(SizeError::PartByte));
        assert_eq!(size("5000.0"), Ok(5000));
        assert_eq!(size("0.5k"), Ok(512), "a fraction of a KiB is bytes");
    }

    #[test]
    fn a_value_of_the_wrong_kind_is_told_at_its_quote_with_its_field() {
        let text = |field: &str| {
            format!("Scenario({field}, devices: [(name: \"sda\", kind: Hdd)], tasks: [Dd(bdi: \"sda\")])")
        };
        let error = |field: &str| Scenario::from_ron(&text(field), "s.ron").expect_err(field).to_string();
        assert_eq!(
            error("memory_mb: \"4096\""),
            "s.ron:1:21: expected a whole number for memory_mb but found the string \"4096\" instead"
        );
        assert_eq!(
            error("dirty_bytes: \"100M\""),
            "s.ron:1:23: expected a whole number of bytes for dirty_bytes but found the string \"100M\" instead"
        );
        assert_eq!(
            error("duration_s: \"9\""),
            "s.ron:1:22: expected a number for duration_s but found the string \"9\" instead"
        );
        let ok = Scenario::from_ron(&text("duration_s: 9"), "s.ron").expect("a whole number is a number");
        assert_eq!(ok.duration_s, 9.0);
    }

    #[test]
    fn minimal_scenario_gets_the_defaults() {
        let s = Scenario::from_ron(r#"Scenario(devices: [(name: "sda", kind: Hdd)], tasks: [Dd(bdi: "sda")])"#, "x")
            .expect("valid");
        let w = s.to_world().expect("valid world");
        assert_eq!(w.memory_pages, 1 << 20);
        assert_eq!(w.reserved_pages, (4096 / 10) << 8);
        assert_eq!(w.cpus, 8);
        assert_eq!(w.tasks.len(), 1);
        assert_eq!(w.tunables, DirtyTunables::default());
    }

    /// Where RON's own message says little, the field, the unit written
    /// after a number and the file ending too soon are told.
    #[test]
    fn a_value_of_the_wrong_kind_is_told_with_its_field() {
        let error = |text: &str| Scenario::from_ron(text, "s.ron").expect_err(text).to_string();
        let disk = "devices: [(name: \"sda\", kind: Hdd)]";
        assert_eq!(
            error(&format!("Scenario({disk}, tasks: [Dd(bs: 65536)])")),
            "s.ron:1:62: expected a string in quotes for `bs` (a size: \"4k\", \"1M\")"
        );
        assert_eq!(
            error(&format!("Scenario(duration_s: 40s, {disk})")),
            "s.ron:1:24: `40s`: write the number alone, 40 (the field's name says its unit)"
        );
        assert_eq!(
            error(&format!("Scenario({disk}, tasks: [Dd(n: 2")),
            "s.ron:1:61: the file ends too soon: a `(`, `[` or string is not closed"
        );
        assert_eq!(error("Scenario(name: \"ab\n"), "s.ron:1:16: this string is not closed: no `\"` after it");
        // A task written as a struct, without its kind; the kinds the
        // hint names are those RON lists for a kind it does not know.
        let hint = error(&format!("Scenario({disk}, tasks: [Dd(n: 1), (n: 2, bdi: \"sda\")])"));
        assert!(hint.starts_with("s.ron:1:65: expected a name before `(`: each item of `tasks` starts"), "{hint}");
        let known = error(&format!("Scenario({disk}, tasks: [Nope(n: 2)])"));
        for kind in TASK_KINDS {
            assert!(hint.contains(kind) && known.contains(&format!("`{kind}`")), "{kind}: {hint} / {known}");
        }
        assert_eq!(
            error(&format!("Scenario({disk})\n\n // x\n   junk\n")),
            "s.ron:4:4: text after the end of the file's one value (its last `)`)"
        );
        assert_eq!(
            error(&format!("Scenario({disk},\n    cpus: -8)")),
            "s.ron:2:11: cpus must be between 1 and 4096, got -8"
        );
        assert_eq!(
            error(&format!("Scenario({disk}, cpus:  \"8\")")),
            "s.ron:1:54: expected a whole number for cpus but found the string \"8\" instead"
        );
        assert_eq!(
            error("Scenario(devices: [(name: \"sda\", kind: Hdd, fs: \"zfs\")])"),
            "s.ron:1:49: expected a name without quotes for `fs`"
        );
    }

    #[test]
    fn unknown_fields_name_the_valid_ones_with_a_position() {
        let text = "Scenario(\n  devices: [],\n  dirty_rato: 20,\n)";
        let e = Scenario::from_ron(text, "s.ron").expect_err("misspelt");
        assert!(e.to_string().starts_with("s.ron:3:"), "{e}");
        assert!(e.to_string().contains("unknown field `dirty_rato`"), "{e}");
        assert!(e.to_string().contains("`dirty_ratio`"), "{e}");
        let e = Scenario::from_ron("Scenario(devices: [(name: \"a\", kind: Floppy)])", "s.ron").expect_err("bad kind");
        assert!(e.to_string().contains("unknown variant `Floppy`") && e.to_string().contains("`Hdd`"), "{e}");
        let e = Scenario::from_ron(
            "Scenario(devices: [(name: \"a\", kind: Hdd)], tasks: [Dd(bdi: \"a\", nn: 2)])",
            "s.ron",
        )
        .expect_err("bad task field");
        assert!(e.to_string().contains("unknown field `nn`"), "{e}");
    }

    #[test]
    fn jbod_expands_and_star_targets_every_bdi() {
        let s = Scenario::from_ron(
            r#"Scenario(devices: [(name: "sd", kind: Jbod, disks: 3)], tasks: [Dd(bdi: "*", n: 2)])"#,
            "x",
        )
        .expect("valid");
        assert_eq!(s.bdi_names(), ["sda", "sdb", "sdc"]);
        let w = s.to_world().expect("valid world");
        assert_eq!(w.devices.len(), 3);
        assert_eq!(w.tasks.len(), 6);
        assert_eq!(w.tasks.iter().filter(|t| t.bdi == 2).count(), 2);
    }

    #[test]
    fn overrides_behave_like_sysctl() {
        let mut s = presets::get("default").expect("preset").expect("valid");
        s.apply(&Overrides { dirty_bytes: Some(100 << 20), dd: Some(10), ..Default::default() });
        assert_eq!((s.dirty_ratio, s.dirty_bytes), (0, Some(100 << 20)));
        assert_eq!(s.to_world().expect("valid").tasks.len(), 10);
        s.apply(&Overrides { dirty_ratio: Some(30), ..Default::default() });
        assert_eq!((s.dirty_ratio, s.dirty_bytes), (30, None));
    }

    #[test]
    fn semantic_errors_say_what_is_wrong() {
        let s = Scenario::from_ron(r#"Scenario(devices: [(name: "sda", kind: Hdd)], tasks: [Dd(bdi: "sdz")])"#, "x")
            .expect("parses");
        let e = s.to_world().expect_err("unknown bdi");
        assert!(e.to_string().contains("unknown bdi `sdz`") && e.to_string().contains("`sda`"), "{e}");
        let mut s = presets::get("default").expect("preset").expect("valid");
        s.hz = 7;
        assert!(s.to_world().expect_err("hz").to_string().contains("hz must be"));
        let s = Scenario::from_ron(r#"Scenario(legacy: Linux2638, devices: [(name: "sda", kind: Hdd)])"#, "x")
            .expect("parses");
        assert!(s.to_world().expect_err("level 11").to_string().contains("add `patches: 0`"));
    }

    #[test]
    fn patch_level_overrides_pick_the_kernel_under_them() {
        let mut s = presets::get("default").expect("preset").expect("valid");
        s.apply(&Overrides { legacy: Some(LegacySpec::Linux2638), ..Default::default() });
        assert_eq!((s.patches, s.legacy), (0, LegacySpec::Linux2638));
        assert_eq!(s.to_world().expect("valid").legacy, Legacy::Linux2638);
        s.apply(&Overrides { patches: Some(7), ..Default::default() });
        assert_eq!((s.patches, s.legacy), (7, LegacySpec::Linux31));
    }

    #[test]
    fn values_out_of_range_point_at_the_value_with_the_range() {
        let e =
            Scenario::from_ron("Scenario(\n  duration_s: 1e300,\n  devices: [(name: \"a\", kind: Hdd)],\n)", "s.ron")
                .expect_err("too long");
        assert!(e.to_string().starts_with("s.ron:2:"), "{e}");
        assert!(e.to_string().contains("duration_s must be between 0.001 and 1000000 s, got 1e300"), "{e}");
        let e =
            Scenario::from_ron("Scenario(devices: [(name: \"a\", kind: Hdd, disks: 0)])", "s.ron").expect_err("disks");
        assert!(e.to_string().contains("disks must be between 1 and 26"), "{e}");
        let e =
            Scenario::from_ron("Scenario(devices: [(name: \"a\", kind: Hdd)], tasks: [Dd(n: 4294967295)])", "s.ron")
                .expect_err("n");
        assert!(e.to_string().contains("n must be between 0 and 10000, got 4294967295"), "{e}");
        let e = Scenario::from_ron("Scenario(name: \"x\\u{1b}]0;t\\u{7}\", devices: [])", "s.ron").expect_err("escape");
        assert!(e.to_string().contains("control character") && !e.to_string().contains('\u{1b}'), "{e}");
    }

    #[test]
    fn a_setting_the_device_does_not_have_is_refused() {
        let world = |devices: &str| {
            Scenario::from_ron(&format!("Scenario(devices: [(name: \"x\", kind: Ssd), {devices}])"), "s.ron")
                .expect("reads")
                .to_world()
        };
        let e = world("(name: \"a\", kind: Hdd, disks: 4)").expect_err("one disk").to_string();
        assert_eq!(e, "scenario: devices[1]: `disks` is not a setting of kind Hdd (it would be ignored)");
        let e = world("(name: \"a\", kind: UsbKey, server_mbps: 40)").expect_err("no server").to_string();
        assert_eq!(e, "scenario: devices[1]: `server_mbps` is not a setting of kind UsbKey (it would be ignored)");
        assert!(world("(name: \"a\", kind: Raid0, disks: 4)").is_ok());
        assert!(world("(name: \"a\", kind: Nfs, rtt_ms: 1, server_mbps: 40)").is_ok());
        let e = world("(name: \"a\", kind: Hdd, wait_queue: true)").expect_err("no NFS").to_string();
        assert_eq!(e, "scenario: devices[1]: `wait_queue` is not a setting of kind Hdd (it would be ignored)");
        // The command line turns the NFS patches on for every NFS mount.
        let mut both =
            Scenario::from_ron("Scenario(devices: [(name: \"x\", kind: Ssd), (name: \"n\", kind: Nfs)])", "s.ron")
                .expect("reads");
        both.apply(&Overrides { nfs_wait_queue: Some(true), ..Overrides::default() });
        assert_eq!(both.devices.iter().map(|d| d.wait_queue).collect::<Vec<_>>(), [None, Some(true)]);
        assert!(both.to_world().is_ok());
    }

    #[test]
    fn a_group_stopped_before_it_starts_is_refused() {
        let text = "Scenario(devices: [(name: \"a\", kind: Hdd)], tasks: [Dd(), Light(start_s: 5, stop_s: 1)])";
        let e = Scenario::from_ron(text, "s.ron").expect("reads").to_world().expect_err("stops first").to_string();
        assert_eq!(
            e,
            "scenario: tasks[1]: stop_s must be after start_s: the tasks would be killed before they start (start_s 5, stop_s 1)"
        );
        let text = "Scenario(devices: [(name: \"a\", kind: Hdd)], tasks: [Dd(start_s: 2, stop_s: 2.5)])";
        assert!(Scenario::from_ron(text, "s.ron").expect("reads").to_world().is_ok());
    }

    #[test]
    fn a_block_size_mistake_points_at_the_block_size() {
        // The third group's tasks are the engine's tasks 50 and 51: the
        // message must point at the file, not at an expanded task.
        let text = "Scenario(\n  devices: [(name: \"a\", kind: Hdd)],\n  tasks: [Dd(n: 50),\n    Pipeline(n: 2, bs: \"3k\")],\n)";
        let e = Scenario::from_ron(text, "s.ron").expect_err("3k").to_string();
        assert!(e.starts_with("s.ron:4:"), "{e}");
        assert!(
            e.ends_with("block size must be 512, 1k, 2k or a multiple of 4k up to 1G, got `3k` (3072 bytes)"),
            "{e}"
        );
        let e = Scenario::from_ron("Scenario(devices: [(name: \"a\", kind: Hdd)], tasks: [Dd(bs: \"0.5\")])", "s.ron")
            .expect_err("half a byte")
            .to_string();
        assert!(e.starts_with("s.ron:1:") && e.contains("got `0.5` (a part of a byte)"), "{e}");
        assert!(crate::scenario::case::parse("thresh=100M/xfs-10dd-3k-8p-4096M-100M:10-X").is_err());
    }

    #[test]
    fn a_task_group_takes_its_kinds_defaults() {
        let s = Scenario::from_ron(
            "\u{feff}Scenario(devices: [(name: \"a\", kind: Ssd)], tasks: [Dd(), Light(n: 2)])",
            "x",
        )
        .expect("a byte-order mark is skipped");
        assert_eq!(s.tasks[0], TaskSpec::Dd(DdSpec::default()));
        assert_eq!(s.tasks[1], TaskSpec::Light(LightSpec { n: 2, ..LightSpec::default() }));
        assert_eq!(s.to_world().expect("world").tasks.len(), 3);
        let json = serde_json::to_string(&s).expect("JSON");
        assert!(json.contains("{\"Dd\":{\"bdi\":\"*\""), "{json}");
        assert_eq!(serde_json::from_str::<Scenario>(&json).expect("back"), s);
        let e = Scenario::from_ron("Scenario(devices: [(name: \"a\", kind: Ssd)], tasks: [Dd(nn: 2)])", "x")
            .expect_err("misspelt");
        assert!(e.to_string().contains("unknown field `nn`, expected one of `bdi`, `n`"), "{e}");
        let e =
            Scenario::from_ron("Scenario(devices: [(name: \"a\", kind: Ssd)], tasks: [Cp()])", "x").expect_err("kind");
        assert!(e.to_string().contains("unknown variant `Cp`"), "{e}");
    }

    #[test]
    fn counts_are_checked_before_anything_is_built() {
        let mut s = Scenario {
            devices: (0..1000)
                .map(|i| DeviceSpec { disks: Some(26), ..DeviceSpec::new(&format!("d{i}"), DeviceKindSpec::Jbod) })
                .collect(),
            tasks: vec![TaskSpec::Dd(DdSpec { n: 10_000, ..DdSpec::default() })],
            ..Scenario::default()
        };
        let start = std::time::Instant::now();
        let e = s.to_world().expect_err("too many bdis");
        assert!(e.to_string().contains("at most 64 bdis, the devices make 26000"), "{e}");
        s.devices.truncate(2);
        let e = s.to_world().expect_err("too many tasks");
        assert!(e.to_string().contains("at most 20000 tasks"), "{e}");
        s.devices = (0..100_000).map(|i| DeviceSpec::new(&format!("d{}", i % 50_000), DeviceKindSpec::Hdd)).collect();
        assert!(s.to_world().expect_err("too many").to_string().contains("at most 64 bdis"));
        assert!(start.elapsed().as_secs_f64() < 1.0, "checked in {:?}", start.elapsed());
        s.devices = vec![DeviceSpec::new("sda", DeviceKindSpec::Hdd), DeviceSpec::new("sda", DeviceKindSpec::Ssd)];
        s.tasks.clear();
        assert!(s.to_world().expect_err("twice").to_string().contains("two devices are named `sda`"));
    }

    #[test]
    fn the_kind_table_gives_each_kind_its_device() {
        let one = |kind| DeviceSpec::new("d", kind).configs(&machine::Defaults::of(None)).expect("valid").remove(0);
        assert_eq!((one(DeviceKindSpec::Hdd).bandwidth, one(DeviceKindSpec::Hdd).seek_ns), (100.0 * 1048576.0, 8e6));
        assert_eq!(one(DeviceKindSpec::Ssd).flush_ns, 5e6);
        assert_eq!(one(DeviceKindSpec::UsbKey).noise, 0.3);
        let raid = one(DeviceKindSpec::Raid0);
        assert_eq!((raid.bandwidth, raid.seek_ns, raid.queue_depth), (200.0 * 1048576.0, 4e6, 256));
        let nfs = one(DeviceKindSpec::Nfs);
        assert_eq!((nfs.fs, nfs.max_request_pages), (FsKind::Nfs, 256));
        assert_eq!(
            DeviceSpec::new("sd", DeviceKindSpec::Jbod).configs(&machine::Defaults::of(None)).expect("valid").len(),
            2
        );
    }
}
