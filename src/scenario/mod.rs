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

pub mod case;
pub mod machine;
pub mod presets;

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::sim::config::{
    DeviceConfig, DeviceKind, FsKind, Legacy, NS_PER_SEC, NfsConfig, TaskConfig, TaskKind, WorldConfig,
};
use crate::sim::page_writeback::DirtyTunables;

/// A world to simulate, as written in a scenario file.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Short name shown in the status line and the trace header.
    #[serde(default)]
    pub name: String,
    /// One or two sentences on what it shows.
    #[serde(default)]
    pub description: String,
    /// Total memory [MiB].
    #[serde(default = "defaults::memory_mb")]
    pub memory_mb: u64,
    /// Memory outside the page cache (anonymous, kernel) [MiB]; default a tenth.
    #[serde(default)]
    pub reserved_mb: Option<u64>,
    /// CPUs.
    #[serde(default = "defaults::cpus")]
    pub cpus: usize,
    /// Timer frequency: 100, 250, 300 or 1000.
    #[serde(default = "defaults::hz")]
    pub hz: u64,
    /// `vm.dirty_ratio` [%].
    #[serde(default = "defaults::dirty_ratio")]
    pub dirty_ratio: u64,
    /// `vm.dirty_background_ratio` [%].
    #[serde(default = "defaults::dirty_background_ratio")]
    pub dirty_background_ratio: u64,
    /// `vm.dirty_bytes` [bytes]; wins over the ratio.
    #[serde(default)]
    pub dirty_bytes: Option<u64>,
    /// `vm.dirty_background_bytes` [bytes]; wins over the ratio.
    #[serde(default)]
    pub dirty_background_bytes: Option<u64>,
    /// Fixed floating-proportion period shift (default: the kernel's rule).
    #[serde(default)]
    pub period_shift: Option<i32>,
    /// Patch level: 0 (legacy 3.1) to 11 (the whole series).
    #[serde(default = "defaults::patches")]
    pub patches: u8,
    /// The kernel patch level 0 runs: `Linux31` (the default) or
    /// `Linux2638` (only at patch level 0).
    #[serde(default)]
    pub legacy: LegacySpec,
    /// Seed of the random generator.
    #[serde(default = "defaults::seed")]
    pub seed: u64,
    /// Default length of a headless run [s].
    #[serde(default = "defaults::duration_s")]
    pub duration_s: f64,
    /// The test machine whose disks, controller, USB key and NFS server the
    /// devices take by default (`dirtyviz machines` lists them).
    #[serde(default)]
    pub machine: Option<String>,
    /// The devices; each is one bdi, a JBOD is several.
    pub devices: Vec<DeviceSpec>,
    /// The tasks.
    #[serde(default)]
    pub tasks: Vec<TaskSpec>,
}

mod defaults {
    pub fn memory_mb() -> u64 {
        4096
    }
    pub fn cpus() -> usize {
        8
    }
    pub fn hz() -> u64 {
        1000
    }
    pub fn dirty_ratio() -> u64 {
        20
    }
    pub fn dirty_background_ratio() -> u64 {
        10
    }
    pub fn patches() -> u8 {
        11
    }
    pub fn seed() -> u64 {
        1
    }
    pub fn duration_s() -> f64 {
        60.0
    }
    pub fn n() -> u32 {
        1
    }
    pub fn bs() -> String {
        "4k".to_string()
    }
    pub fn pipeline_bs() -> String {
        "64k".to_string()
    }
    pub fn net_mbps() -> f64 {
        20.0
    }
    pub fn buffer_mb() -> f64 {
        4.0
    }
    pub fn burst_kb() -> u64 {
        64
    }
    pub fn period_s() -> f64 {
        1.0
    }
}

/// Kinds of device in a scenario file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
pub enum DeviceKindSpec {
    /// A rotating disk (100 MiB/s, 8 ms seeks).
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FsSpec {
    /// XFS (the default).
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

/// A device in a scenario file.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DeviceSpec {
    /// bdi name (a name prefix for a JBOD).
    pub name: String,
    /// What it is.
    pub kind: DeviceKindSpec,
    /// Member disks of a RAID0 or JBOD.
    #[serde(default)]
    pub disks: Option<u32>,
    /// Sequential bandwidth of one disk [MiB/s].
    #[serde(default)]
    pub bandwidth_mbps: Option<f64>,
    /// Average seek [ms].
    #[serde(default)]
    pub seek_ms: Option<f64>,
    /// Request slots [requests].
    #[serde(default)]
    pub queue_depth: Option<usize>,
    /// Relative spread of transfer times (0.1 = ±10%).
    #[serde(default)]
    pub noise: Option<f64>,
    /// Filesystem on it: xfs (default), ext4, ext3 or btrfs.
    #[serde(default)]
    pub fs: Option<FsSpec>,
    /// How long a journal commit holds up data writes (journal write and
    /// drive cache flush) [ms]; 0 turns commits off.
    #[serde(default)]
    pub flush_ms: Option<f64>,
    /// NFS: network round trip [ms].
    #[serde(default)]
    pub rtt_ms: Option<f64>,
    /// NFS: the server's disk [MiB/s].
    #[serde(default)]
    pub server_mbps: Option<f64>,
    /// NFS: server memory for data not yet on its disk [MiB].
    #[serde(default)]
    pub server_cache_mb: Option<u64>,
    /// NFS: what a COMMIT costs the server once the data is on its disk,
    /// its journal commit and disk cache flush [ms] (default 150).
    #[serde(default)]
    pub server_commit_ms: Option<f64>,
    /// NFS: the server's disk moving to each file a COMMIT writes [ms].
    #[serde(default)]
    pub server_seek_ms: Option<f64>,
    /// NFS: the server's background threshold: below it the server's disk
    /// writes only for COMMITs [MiB] (default 0: it writes at once).
    #[serde(default)]
    pub server_background_mb: Option<u64>,
    /// NFS: the writeback wait queue patch.
    #[serde(default)]
    pub wait_queue: Option<bool>,
    /// NFS: scale `nfs_congestion_kb` to the dirty threshold.
    #[serde(default)]
    pub congestion_scaled: Option<bool>,
    /// Share of recent writeouts at time 0, relative to the other devices
    /// (default 1: equal shares, as on a system that has been running).
    #[serde(default)]
    pub initial_share: Option<f64>,
}

/// A group of tasks in a scenario file.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub enum TaskSpec {
    /// `n` dd processes per target bdi, each writing its own file.
    Dd {
        /// Target bdi name, or `*` for every bdi.
        bdi: String,
        /// How many per bdi.
        #[serde(default = "defaults::n")]
        n: u32,
        /// Block size, e.g. `4k`, `1M`.
        #[serde(default = "defaults::bs")]
        bs: String,
        /// Stop after this many MiB (default: write until stopped).
        #[serde(default)]
        count_mb: Option<u64>,
        /// Start time of the first [s].
        #[serde(default)]
        start_s: f64,
        /// The group's tasks start evenly spread over this long, as a
        /// shell loop launching them would [s].
        #[serde(default)]
        spread_s: f64,
        /// Kill time [s].
        #[serde(default)]
        stop_s: Option<f64>,
    },
    /// A copy from the network (rsync): data arrives at `net_mbps` into a
    /// `buffer_mb` buffer and is written out with `bs` writes.
    Pipeline {
        /// Target bdi name, or `*`.
        bdi: String,
        /// How many per bdi.
        #[serde(default = "defaults::n")]
        n: u32,
        /// Block size of its writes.
        #[serde(default = "defaults::pipeline_bs")]
        bs: String,
        /// Network rate [MiB/s].
        #[serde(default = "defaults::net_mbps")]
        net_mbps: f64,
        /// Socket and application buffer [MiB].
        #[serde(default = "defaults::buffer_mb")]
        buffer_mb: f64,
        /// Start time [s].
        #[serde(default)]
        start_s: f64,
        /// Kill time [s].
        #[serde(default)]
        stop_s: Option<f64>,
    },
    /// A light writer, like an editor saving a file: `burst_kb` every `period_s`.
    Light {
        /// Target bdi name, or `*`.
        bdi: String,
        /// How many per bdi.
        #[serde(default = "defaults::n")]
        n: u32,
        /// Bytes per save [KiB].
        #[serde(default = "defaults::burst_kb")]
        burst_kb: u64,
        /// Time between saves [s].
        #[serde(default = "defaults::period_s")]
        period_s: f64,
        /// Start time [s].
        #[serde(default)]
        start_s: f64,
        /// Kill time [s].
        #[serde(default)]
        stop_s: Option<f64>,
    },
    /// fio's mmap random writes of 4 KiB over a large file.
    MmapRandom {
        /// Target bdi name, or `*`.
        bdi: String,
        /// How many per bdi.
        #[serde(default = "defaults::n")]
        n: u32,
        /// Start time [s].
        #[serde(default)]
        start_s: f64,
        /// Kill time [s].
        #[serde(default)]
        stop_s: Option<f64>,
    },
}

impl TaskSpec {
    /// The group's target bdi.
    pub fn bdi(&self) -> &str {
        match self {
            TaskSpec::Dd { bdi, .. }
            | TaskSpec::Pipeline { bdi, .. }
            | TaskSpec::Light { bdi, .. }
            | TaskSpec::MmapRandom { bdi, .. } => bdi,
        }
    }

    /// How many tasks per target bdi.
    pub fn count_mut(&mut self) -> &mut u32 {
        match self {
            TaskSpec::Dd { n, .. }
            | TaskSpec::Pipeline { n, .. }
            | TaskSpec::Light { n, .. }
            | TaskSpec::MmapRandom { n, .. } => n,
        }
    }
}

/// Settings the command line can override, and a lesson can change
/// (`Reconfigure((period_shift: 12))`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Overrides {
    /// `vm.dirty_ratio`; zeroes `dirty_bytes`.
    pub dirty_ratio: Option<u64>,
    /// `vm.dirty_background_ratio`; zeroes `dirty_background_bytes`.
    pub dirty_background_ratio: Option<u64>,
    /// `vm.dirty_bytes`; zeroes the ratio.
    pub dirty_bytes: Option<u64>,
    /// `vm.dirty_background_bytes`; zeroes the ratio.
    pub dirty_background_bytes: Option<u64>,
    /// Memory [MiB].
    pub memory_mb: Option<u64>,
    /// CPUs.
    pub cpus: Option<usize>,
    /// HZ.
    pub hz: Option<u64>,
    /// dd tasks per bdi.
    pub dd: Option<u32>,
    /// Period shift.
    pub period_shift: Option<i32>,
    /// Seed.
    pub seed: Option<u64>,
    /// Patch level (above 0 it also selects Linux 3.1).
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

/// A scenario that could not be read or does not make sense.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError(pub String);

impl std::fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ScenarioError {}

/// RON as dirtyviz reads it: optional fields take plain values (`disks: 10`).
pub fn ron_options() -> ron::Options {
    ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
}

/// Formats a RON error as `origin:line:col: what was wrong`.
pub fn ron_error(origin: &str, e: &ron::error::SpannedError) -> String {
    use ron::error::Error as E;
    let what = match &e.code {
        E::NoSuchStructField { expected, found, .. } => {
            format!("unknown field `{found}`, expected one of {}", quoted_list(expected))
        }
        E::NoSuchEnumVariant { expected, found, .. } => {
            format!("unknown variant `{found}`, expected one of {}", quoted_list(expected))
        }
        E::MissingStructField { field, outer } => {
            format!("missing field `{field}`{}", outer.as_ref().map(|o| format!(" in `{o}`")).unwrap_or_default())
        }
        other => other.to_string(),
    };
    format!("{origin}:{}:{}: {what}", e.span.start.line, e.span.start.col)
}

fn quoted_list(items: &[&str]) -> String {
    items.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(", ")
}

/// Parses a size such as `4k`, `1M`, `512`, `2G` (binary units) [bytes].
pub fn parse_size(s: &str) -> Option<u64> {
    let s = s.trim();
    let split = s.find(|c: char| !c.is_ascii_digit() && c != '.').unwrap_or(s.len());
    let (num, unit) = s.split_at(split);
    let value: f64 = num.parse().ok()?;
    let mult = match unit.trim() {
        "" | "b" | "B" => 1u64,
        "k" | "K" | "KiB" | "KB" => 1 << 10,
        "m" | "M" | "MiB" | "MB" => 1 << 20,
        "g" | "G" | "GiB" | "GB" => 1 << 30,
        "t" | "T" | "TiB" | "TB" => 1 << 40,
        _ => return None,
    };
    let bytes = value * mult as f64;
    (0.0..1.8e19).contains(&bytes).then_some(bytes as u64)
}

impl Scenario {
    /// Parses a scenario from RON text; errors read `origin:line:col: ...`.
    pub fn from_ron(text: &str, origin: &str) -> Result<Scenario, ScenarioError> {
        ron_options().from_str(text).map_err(|e| ScenarioError(ron_error(origin, &e)))
    }

    /// Reads a scenario file.
    pub fn load(path: &Path) -> Result<Scenario, ScenarioError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| ScenarioError(format!("{}: cannot read scenario: {e}", path.display())))?;
        let mut s = Scenario::from_ron(&text, &path.display().to_string())?;
        if s.name.is_empty() {
            s.name = path.file_stem().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        }
        Ok(s)
    }

    /// A preset by name, or a scenario file by path.
    pub fn resolve(name_or_path: &str) -> Result<Scenario, ScenarioError> {
        if let Some(s) = presets::get(name_or_path) {
            return s;
        }
        let path = Path::new(name_or_path);
        if path.exists() {
            return Scenario::load(path);
        }
        Err(ScenarioError(format!(
            "unknown scenario `{name_or_path}`: not a file and not a preset ({})",
            presets::names().join(", ")
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
        for d in &mut self.devices {
            if let Some(on) = o.nfs_wait_queue {
                d.wait_queue = Some(on);
            }
            if let Some(on) = o.nfs_congestion_scaled {
                d.congestion_scaled = Some(on);
            }
        }
        if let Some(n) = o.dd {
            let mut any = false;
            for t in &mut self.tasks {
                if let TaskSpec::Dd { n: count, .. } = t {
                    *count = n;
                    any = true;
                }
            }
            if !any && n > 0 {
                self.tasks.push(TaskSpec::Dd {
                    bdi: "*".into(),
                    n,
                    bs: defaults::bs(),
                    count_mb: None,
                    start_s: 0.0,
                    spread_s: 0.0,
                    stop_s: None,
                });
            }
        }
    }

    /// The bdi names this scenario creates, in order.
    pub fn bdi_names(&self) -> Vec<String> {
        let mut names = Vec::new();
        for d in &self.devices {
            match d.kind {
                DeviceKindSpec::Jbod => {
                    for i in 0..d.disks.unwrap_or(2) {
                        names.push(format!("{}{}", d.name, disk_letter(i)));
                    }
                }
                _ => names.push(d.name.clone()),
            }
        }
        names
    }

    /// Converts into the engine's configuration, checking every value a
    /// user could get wrong.
    pub fn to_world(&self) -> Result<WorldConfig, ScenarioError> {
        let err = |s: String| Err(ScenarioError(s));
        let origin = if self.name.is_empty() { "scenario" } else { &self.name };
        if self.memory_mb < 16 || self.memory_mb > 4 << 20 {
            return err(format!("{origin}: memory must be between 16M and 4T, got {} MiB", self.memory_mb));
        }
        let reserved_mb = self.reserved_mb.unwrap_or(self.memory_mb / 10);
        if reserved_mb >= self.memory_mb {
            return err(format!("{origin}: reserved_mb must be smaller than memory_mb"));
        }
        if !(self.duration_s.is_finite() && self.duration_s > 0.0) {
            return err(format!("{origin}: duration_s must be positive"));
        }
        if self.legacy == LegacySpec::Linux2638 && self.patches != 0 {
            return err(format!(
                "{origin}: `legacy: Linux2638` runs none of the series' patches: add `patches: 0` (got {})",
                self.patches
            ));
        }
        let machine = self
            .machine
            .as_deref()
            .map(machine::get)
            .transpose()
            .map_err(|e| ScenarioError(format!("{origin}: {e}")))?;
        let box_defaults = machine::Defaults::of(machine);
        let mut devices = Vec::new();
        for (i, d) in self.devices.iter().enumerate() {
            let disks = d.disks.unwrap_or(2);
            if matches!(d.kind, DeviceKindSpec::Raid0 | DeviceKindSpec::Jbod) && !(1..=26).contains(&disks) {
                return err(format!("{origin}: devices[{i}]: disks must be between 1 and 26, got {disks}"));
            }
            let base = DeviceConfig::hdd(&d.name);
            let (kind, bandwidth_mbps, seek_ms) = match d.kind {
                DeviceKindSpec::Hdd | DeviceKindSpec::Jbod => (DeviceKind::Hdd, 100.0, 8.0),
                DeviceKindSpec::Ssd => (DeviceKind::Ssd, 400.0, 0.0),
                DeviceKindSpec::UsbKey => (DeviceKind::UsbKey, 8.0, 1.0),
                DeviceKindSpec::Raid0 => (DeviceKind::Raid0, 100.0, 8.0),
                DeviceKindSpec::Nfs => (DeviceKind::Nfs, 112.0, 0.0),
            };
            let (box_mbps, box_seek_ms) = box_defaults.device(d.kind);
            let (bandwidth_mbps, seek_ms) = (box_mbps.unwrap_or(bandwidth_mbps), box_seek_ms.unwrap_or(seek_ms));
            let bandwidth_mbps = d.bandwidth_mbps.unwrap_or(bandwidth_mbps);
            let members = if d.kind == DeviceKindSpec::Raid0 { disks } else { 1 };
            let server = box_defaults.nfs;
            let nfs = (kind == DeviceKind::Nfs).then(|| NfsConfig {
                rtt_ns: (d.rtt_ms.unwrap_or(server.rtt_ms) * 1e6) as u64,
                server_bandwidth: d.server_mbps.unwrap_or(server.server_mbps) * 1048576.0,
                server_cache: d.server_cache_mb.unwrap_or(server.server_cache_mb) << 20,
                server_background: d.server_background_mb.unwrap_or(server.server_background_mb) << 20,
                server_seek_ns: (d.server_seek_ms.unwrap_or(server.server_seek_ms) * 1e6) as u64,
                server_commit_ns: (d.server_commit_ms.unwrap_or(server.server_commit_ms) * 1e6) as u64,
                wait_queue: d.wait_queue.unwrap_or(false),
                congestion_scaled: d.congestion_scaled.unwrap_or(false),
            });
            if let Some(n) = &nfs
                && !(n.server_bandwidth >= 1024.0 && n.server_bandwidth.is_finite() && n.rtt_ns <= 10_000_000_000)
            {
                return err(format!("{origin}: devices[{i}]: server_mbps must be positive and rtt_ms at most 10 s"));
            }
            let one = DeviceConfig {
                name: d.name.clone(),
                kind,
                bandwidth: bandwidth_mbps * 1048576.0 * members as f64,
                // A RAID0's member disks seek in parallel.
                seek_ns: d.seek_ms.unwrap_or(seek_ms) * 1e6 / members as f64,
                queue_depth: d.queue_depth.unwrap_or(if nfs.is_some() {
                    usize::MAX >> 1
                } else {
                    base.queue_depth * members as usize
                }),
                max_request_pages: if nfs.is_some() { 256 } else { base.max_request_pages },
                noise: d.noise.unwrap_or(if kind == DeviceKind::UsbKey { 0.3 } else { base.noise }),
                flush_ns: d.flush_ms.map_or(
                    match kind {
                        DeviceKind::Hdd | DeviceKind::Raid0 => base.flush_ns,
                        DeviceKind::Ssd => 5e6,
                        DeviceKind::UsbKey => 100e6,
                        DeviceKind::Nfs => 0.0,
                    },
                    |ms| ms * 1e6,
                ),
                fs: if nfs.is_some() { FsKind::Nfs } else { d.fs.map_or(FsKind::Xfs, FsSpec::kind) },
                nfs,
                initial_share: d.initial_share.unwrap_or(1.0),
                controller: box_defaults.controller(d.kind),
            };
            if d.kind == DeviceKindSpec::Jbod {
                for k in 0..disks {
                    devices.push(DeviceConfig { name: format!("{}{}", d.name, disk_letter(k)), ..one.clone() });
                }
            } else {
                devices.push(one);
            }
        }
        let names: Vec<&str> = devices.iter().map(|d| d.name.as_str()).collect();
        for (i, n) in names.iter().enumerate() {
            if names[..i].contains(n) {
                return err(format!("{origin}: two devices are named `{n}`"));
            }
        }
        let secs = |s: f64, what: &str, i: usize| -> Result<u64, ScenarioError> {
            if s.is_finite() && (0.0..1e6).contains(&s) {
                Ok((s * NS_PER_SEC as f64) as u64)
            } else {
                Err(ScenarioError(format!("{origin}: tasks[{i}]: {what} must be between 0 and 1e6 seconds")))
            }
        };
        let mut tasks = Vec::new();
        for (i, t) in self.tasks.iter().enumerate() {
            let bdi = t.bdi();
            let targets: Vec<usize> = if bdi == "*" {
                (0..names.len()).collect()
            } else {
                match names.iter().position(|x| *x == bdi) {
                    Some(k) => vec![k],
                    None => {
                        return err(format!(
                            "{origin}: tasks[{i}]: unknown bdi `{bdi}`, expected `*` or one of {}",
                            quoted_list(&names)
                        ));
                    }
                }
            };
            let block_size = |bs: &str| {
                parse_size(bs).ok_or_else(|| {
                    ScenarioError(format!("{origin}: tasks[{i}]: block size `{bs}` is not a size like 4k or 1M"))
                })
            };
            let (kind, n, start_s, spread_s, stop_s) = match t {
                TaskSpec::Dd { n, bs, count_mb, start_s, spread_s, stop_s, .. } => (
                    TaskKind::Dd { bs: block_size(bs)?, total_bytes: count_mb.map(|m| m << 20) },
                    *n,
                    *start_s,
                    *spread_s,
                    *stop_s,
                ),
                TaskSpec::Pipeline { n, bs, net_mbps, buffer_mb, start_s, stop_s, .. } => {
                    if !(net_mbps.is_finite() && *net_mbps > 0.0 && buffer_mb.is_finite() && *buffer_mb > 0.0) {
                        return err(format!("{origin}: tasks[{i}]: net_mbps and buffer_mb must be positive"));
                    }
                    let kind = TaskKind::Pipeline {
                        bs: block_size(bs)?,
                        net_rate: net_mbps * 1048576.0,
                        buffer: (buffer_mb * 1048576.0) as u64,
                    };
                    (kind, *n, *start_s, 0.0, *stop_s)
                }
                TaskSpec::Light { n, burst_kb, period_s, start_s, stop_s, .. } => {
                    let period_ns = secs(*period_s, "period_s", i)?;
                    (TaskKind::Light { burst: burst_kb << 10, period_ns }, *n, *start_s, 0.0, *stop_s)
                }
                TaskSpec::MmapRandom { n, start_s, stop_s, .. } => (TaskKind::RandomMmap, *n, *start_s, 0.0, *stop_s),
            };
            if n > crate::scenario::MAX_DD_PER_BDI {
                return err(format!(
                    "{origin}: tasks[{i}]: at most {} tasks per bdi, got {n}",
                    crate::scenario::MAX_DD_PER_BDI
                ));
            }
            let start_ns = secs(start_s, "start_s", i)?;
            let spread_ns = secs(spread_s, "spread_s", i)?;
            let stop_ns = stop_s.map(|s| secs(s, "stop_s", i)).transpose()?;
            let count = targets.len() as u64 * n as u64;
            for (k, &b) in targets.iter().flat_map(|b| std::iter::repeat_n(b, n as usize)).enumerate() {
                tasks.push(TaskConfig {
                    bdi: b,
                    kind: kind.clone(),
                    start_ns: start_ns + spread_ns * k as u64 / count.max(1),
                    stop_ns,
                });
            }
        }
        let pages = |mb: u64| mb << (20 - crate::sim::kernel::PAGE_SHIFT);
        let cfg = WorldConfig {
            memory_pages: pages(self.memory_mb),
            reserved_pages: pages(reserved_mb),
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
            syscall_ns: 1500,
            copy_page_ns: 2500,
            sample_ns: NS_PER_SEC / 10,
            trace: false,
            sample_retention: 0,
            pause_log: 0,
            check_invariants: false,
        };
        crate::sim::engine::validate(&cfg).map_err(|e| ScenarioError(format!("{origin}: {e}")))?;
        Ok(cfg)
    }
}

fn disk_letter(i: u32) -> char {
    (b'a' + (i % 26) as u8) as char
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("4k"), Some(4096));
        assert_eq!(parse_size("1M"), Some(1 << 20));
        assert_eq!(parse_size("512"), Some(512));
        assert_eq!(parse_size("1.5G"), Some(3 << 29));
        assert_eq!(parse_size("4q"), None);
        assert_eq!(parse_size("-1k"), None);
        assert_eq!(parse_size(""), None);
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

    #[test]
    fn unknown_fields_name_the_valid_ones_with_a_position() {
        let text = "Scenario(\n  devices: [],\n  dirty_rato: 20,\n)";
        let e = Scenario::from_ron(text, "s.ron").expect_err("misspelt");
        assert!(e.0.starts_with("s.ron:3:"), "{e}");
        assert!(e.0.contains("unknown field `dirty_rato`"), "{e}");
        assert!(e.0.contains("`dirty_ratio`"), "{e}");
        let e = Scenario::from_ron("Scenario(devices: [(name: \"a\", kind: Floppy)])", "s.ron").expect_err("bad kind");
        assert!(e.0.contains("unknown variant `Floppy`") && e.0.contains("`Hdd`"), "{e}");
        let e = Scenario::from_ron(
            "Scenario(devices: [(name: \"a\", kind: Hdd)], tasks: [Dd(bdi: \"a\", nn: 2)])",
            "s.ron",
        )
        .expect_err("bad task field");
        assert!(e.0.contains("unknown field `nn`"), "{e}");
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
        assert!(e.0.contains("unknown bdi `sdz`") && e.0.contains("`sda`"), "{e}");
        let mut s = presets::get("default").expect("preset").expect("valid");
        s.hz = 7;
        assert!(s.to_world().expect_err("hz").0.contains("HZ must be"));
        let s = Scenario::from_ron(r#"Scenario(legacy: Linux2638, devices: [(name: "sda", kind: Hdd)])"#, "x")
            .expect("parses");
        assert!(s.to_world().expect_err("level 11").0.contains("add `patches: 0`"));
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
}
