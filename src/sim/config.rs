//! What a simulated world is made of, in the engine's units (pages,
//! pages/s, nanoseconds). Scenario files describe the same things in human
//! units and are converted into these at the edge.

use super::page_writeback::DirtyTunables;

/// Nanoseconds per second.
pub const NS_PER_SEC: u64 = 1_000_000_000;

/// Filesystems: how they lay files out shapes the cost of writing many
/// files at once (see [`super::device::FsKind::model`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FsKind {
    /// XFS: delayed allocation, files kept apart.
    #[default]
    Xfs,
    /// ext4: delayed allocation, files close together.
    Ext4,
    /// ext3: allocation at write() time, interleaving concurrent files; a journal.
    Ext3,
    /// btrfs: copy-on-write allocation where the head is; dirties in batches.
    Btrfs,
    /// An NFS mount: the server's filesystem is out of view.
    Nfs,
}

impl FsKind {
    /// Lower-case name, as in the seed's case names.
    pub fn name(self) -> &'static str {
        match self {
            FsKind::Xfs => "xfs",
            FsKind::Ext4 => "ext4",
            FsKind::Ext3 => "ext3",
            FsKind::Btrfs => "btrfs",
            FsKind::Nfs => "nfs",
        }
    }
}

/// The kinds of device a bdi can model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceKind {
    /// A rotating disk: sequential bandwidth plus a seek whenever the head
    /// moves to another file or region.
    Hdd,
    /// A flash disk: high bandwidth, no seek cost.
    Ssd,
    /// A slow USB flash key with jittery completions.
    UsbKey,
    /// N disks striped into one bdi: N times the bandwidth.
    Raid0,
    /// An NFS mount: a network link to a server; see [`NfsConfig`].
    Nfs,
}

impl DeviceKind {
    /// Lower-case name used in summaries and scenario files.
    pub fn name(self) -> &'static str {
        match self {
            DeviceKind::Hdd => "hdd",
            DeviceKind::Ssd => "ssd",
            DeviceKind::UsbKey => "ukey",
            DeviceKind::Raid0 => "raid0",
            DeviceKind::Nfs => "nfs",
        }
    }
}

/// One bdi and the device behind it.
#[derive(Clone, Debug, PartialEq)]
pub struct DeviceConfig {
    /// bdi name, as in /sys/class/bdi (e.g. `sda`).
    pub name: String,
    /// Device model.
    pub kind: DeviceKind,
    /// Sequential write bandwidth \[bytes/s\].
    pub bandwidth: f64,
    /// Average cost of moving the head to another file or region \[ns\].
    pub seek_ns: f64,
    /// Request slots in the queue (`nr_requests`) \[requests\].
    pub queue_depth: usize,
    /// Largest request \[pages\].
    pub max_request_pages: u64,
    /// Relative spread of each request's transfer time (0.1 = ±10%).
    pub noise: f64,
    /// How long a journal commit holds up data writes: the journal write
    /// and the flush of the drive's write cache \[ns\]; 0 for none.
    pub flush_ns: f64,
    /// The filesystem on it.
    pub fs: FsKind,
    /// The server side, for an NFS mount (`bandwidth` is then the link's).
    pub nfs: Option<NfsConfig>,
    /// Share of the recent writeouts this bdi starts with (the world has
    /// been running before time 0); shares are normalised over the bdis.
    pub initial_share: f64,
    /// The host controller it hangs on, an index into
    /// [`WorldConfig::controllers`]; `None`: a bus of its own.
    pub controller: Option<usize>,
    /// The disks behind the bdi, which all transfer at once: a RAID0's
    /// members, else 1 \[disks\].
    pub disks: u32,
}

impl DeviceConfig {
    /// A 100 MiB/s disk with an 8 ms seek and a 128-request queue.
    pub fn hdd(name: &str) -> Self {
        DeviceConfig {
            name: name.to_string(),
            kind: DeviceKind::Hdd,
            bandwidth: 100.0 * 1048576.0,
            seek_ns: 8.0e6,
            queue_depth: 128,
            max_request_pages: 128,
            noise: 0.1,
            flush_ns: 150e6,
            fs: FsKind::Xfs,
            nfs: None,
            initial_share: 1.0,
            controller: None,
            disks: 1,
        }
    }
}

/// A host controller (bus, HBA) whose disks slow each other down while
/// they transfer at the same time.
#[derive(Clone, Debug, PartialEq)]
pub struct ControllerConfig {
    /// Its name, for display.
    pub name: String,
    /// How much longer a transfer takes for each other disk transferring
    /// when it starts (0.1: 10% longer per disk) \[1/disk\].
    pub contention: f64,
}

/// The server of an NFS mount and the client's NFS switches.
#[derive(Clone, Debug, PartialEq)]
pub struct NfsConfig {
    /// Network round trip \[ns\].
    pub rtt_ns: u64,
    /// The server's disk \[bytes/s\].
    pub server_bandwidth: f64,
    /// Server memory that holds data not yet on its disk (its dirty
    /// limit): past it, WRITEs wait for the server's disk \[bytes\].
    pub server_cache: u64,
    /// The server's background threshold: with less than this not yet on
    /// its disk, the server writes only for a COMMIT \[bytes\].
    pub server_background: u64,
    /// What the server's disk spends moving to each file a COMMIT writes
    /// data of \[ns\].
    pub server_seek_ns: u64,
    /// What a COMMIT costs the server once the data is on its disk: the
    /// fsync's journal commit and the flush of the drive's cache \[ns\].
    /// COMMITs take turns at it, like fsyncs on one journal.
    pub server_commit_ns: u64,
    /// The seed's "nfs: writeback pages wait queue" patch.
    pub wait_queue: bool,
    /// The seed's "nfs: scale writeback threshold proportional to dirty threshold" patch.
    pub congestion_scaled: bool,
}

#[cfg(test)]
impl NfsConfig {
    /// A plain mount for tests: a LAN round trip (0.2 ms), a 100 MB/s
    /// server that writes at once and commits for free, 1 GiB of server
    /// cache, no scaling patch.
    pub(crate) fn plain(wait_queue: bool) -> NfsConfig {
        NfsConfig {
            rtt_ns: 200_000,
            server_bandwidth: 100e6,
            server_cache: 1 << 30,
            server_background: 0,
            server_seek_ns: 0,
            server_commit_ns: 0,
            wait_queue,
            congestion_scaled: false,
        }
    }
}

/// A task that dirties pages.
#[derive(Clone, Debug, PartialEq)]
pub struct TaskConfig {
    /// Index of the bdi it writes to.
    pub bdi: usize,
    /// What it does.
    pub kind: TaskKind,
    /// When it starts \[ns\].
    pub start_ns: u64,
    /// When it is killed, if ever \[ns\].
    pub stop_ns: Option<u64>,
}

impl TaskConfig {
    /// A dd with 4 KiB writes and no end on `bdi`, starting when added to a
    /// running world (the dashboard's `+`, a lesson's AddDd).
    pub fn dd(bdi: usize) -> TaskConfig {
        TaskConfig {
            bdi,
            kind: TaskKind::Dd { bs: super::kernel::PAGE_SIZE, total_bytes: None },
            start_ns: 0,
            stop_ns: None,
        }
    }
}

/// What a task does.
#[derive(Clone, Debug, PartialEq)]
pub enum TaskKind {
    /// `dd if=/dev/zero of=FILE bs=BS [count=N]`: writes one new file as
    /// fast as its CPU allows.
    Dd {
        /// Block size of each write() \[bytes\].
        bs: u64,
        /// Bytes to write before exiting; `None` writes until stopped.
        total_bytes: Option<u64>,
    },
    /// A copy from the network ("rsync"): data arrives at `net_rate` into a
    /// bounded buffer and is written out with `bs` writes; while the task
    /// is throttled the buffer fills, and once full the network stalls.
    Pipeline {
        /// Block size of each write() \[bytes\].
        bs: u64,
        /// Network rate \[bytes/s\].
        net_rate: f64,
        /// Socket and application buffer \[bytes\].
        buffer: u64,
    },
    /// A light writer (an editor saving a file): `burst` bytes every `period_ns`.
    Light {
        /// Bytes per save \[bytes\].
        burst: u64,
        /// Time between saves \[ns\].
        period_ns: u64,
    },
    /// fio's mmap random writes: touches random pages of a large file;
    /// every page fault on a clean page dirties it.
    RandomMmap,
}

impl TaskKind {
    /// Short name used in summaries.
    pub fn name(&self) -> &'static str {
        match self {
            TaskKind::Dd { .. } => "dd",
            TaskKind::Pipeline { .. } => "pipeline",
            TaskKind::Light { .. } => "light",
            TaskKind::RandomMmap => "mmap-randwrite",
        }
    }
}

/// The IO-full balance_dirty_pages() that patch level 0 runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Legacy {
    /// Linux 3.1, the series' base: a call that has slept for 200 ms ends
    /// once the bdi is back in the max-pause area, and `dirty_exceeded`
    /// clears only when no task can exceed its limit.
    #[default]
    Linux31,
    /// Linux 2.6.38, where the talk measured its multi-second pauses: a
    /// call ends only under the task's limit or once its chunk is written
    /// back, and `dirty_exceeded` clears whenever a call ends under its limit.
    Linux2638,
}

impl Legacy {
    /// Whether a kernel of `patches` over this one has what Linux 3.1
    /// brought beside its IO-full loop: the smoothed global dirty limit
    /// and the bdi's write bandwidth estimate (2.6.38 has neither).
    pub fn has_31(self, patches: u8) -> bool {
        patches > 0 || self != Legacy::Linux2638
    }

    /// The kernel version.
    pub fn version(self) -> &'static str {
        match self {
            Legacy::Linux31 => "3.1",
            Legacy::Linux2638 => "2.6.38",
        }
    }
}

/// Everything the engine needs to build a world.
#[derive(Clone, Debug, PartialEq)]
pub struct WorldConfig {
    /// Total memory \[pages\].
    pub memory_pages: u64,
    /// Memory not available to the page cache: anonymous, kernel \[pages\].
    pub reserved_pages: u64,
    /// CPUs shared by the tasks.
    pub cpus: usize,
    /// Timer frequency \[jiffies/s\]: 100, 250, 300 or 1000.
    pub hz: u64,
    /// The writeback sysctls.
    pub tunables: DirtyTunables,
    /// Fixed floating-proportion period shift instead of the kernel's
    /// `calc_period_shift()`.
    pub period_shift: Option<i32>,
    /// Patch level: 0 is vanilla 3.1, 1..=11 applies the series up to
    /// that patch.
    pub patches: u8,
    /// The kernel patch level 0 runs; 2.6.38 only at patch level 0.
    pub legacy: Legacy,
    /// Seed of the one random generator (device noise: bandwidth, seek
    /// and journal-commit times, a USB key's stalls).
    pub seed: u64,
    /// The bdis, in order.
    pub devices: Vec<DeviceConfig>,
    /// Host controllers shared by devices.
    pub controllers: Vec<ControllerConfig>,
    /// The tasks, in order; a task's id is its index.
    pub tasks: Vec<TaskConfig>,
    /// CPU time one write() costs beyond copying \[ns\].
    pub syscall_ns: u64,
    /// CPU time to copy one page into the page cache \[ns\].
    pub copy_page_ns: u64,
    /// Interval of the recorded time series \[ns\]; 0 records none.
    pub sample_ns: u64,
    /// Record trace events.
    pub trace: bool,
    /// Keep at most this many samples, dropping the oldest; 0 keeps all.
    pub sample_retention: usize,
    /// Keep the last this many throttling pauses for display; 0 keeps none.
    pub pause_log: usize,
    /// Check the page counters after every event and the whole state at
    /// every sample, in release builds too (debug builds always check the
    /// counters). Slower; for hunting bugs.
    pub check_invariants: bool,
}

impl WorldConfig {
    /// Dirtyable memory as `determine_dirtyable_memory()` returns it \[pages\].
    pub fn dirtyable(&self) -> u64 {
        self.memory_pages.saturating_sub(self.reserved_pages) + 1
    }
}
