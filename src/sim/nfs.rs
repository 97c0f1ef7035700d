//! An NFS mount: WRITE RPCs over a network link, unstable pages, COMMITs,
//! and the server behind them.
//!
//! The flusher (or an IO-full task) submits WRITE RPCs of up to `wsize`
//! pages; the link sends one at a time. When a WRITE completes its pages
//! count as written and move from writeback to unstable: they sit in the
//! server's memory, not yet on its disk. After writing an inode the writer
//! sends a COMMIT once more than half of the inode's pages are unstable
//! (`nfs_commit_unstable_pages()`); the server fsyncs the file: its disk
//! writes what it received of that file before the COMMIT, then its
//! journal commits, and the committed pages turn clean in one burst.
//! COMMITs that reach the server before its disk starts on the last one
//! share that journal commit. An fsync that finds others under way or
//! queued (an nfsd thread each) has its file written interleaved with
//! theirs: a seek (`server_seek_ns`) for every [`FSYNC_RUN`] of data.
//!
//! The server is a Linux box with its own page cache: below its background
//! threshold its disk writes only for COMMITs, above it the disk writes on
//! its own, and past its dirty limit (`server_cache`) a WRITE waits for
//! the disk. So a client that sends a COMMIT late keeps the server's disk
//! idle while it sends, and then waits while the disk catches up.
//!
//! The client's RPC slot table holds [`RPC_SLOTS`] requests: a WRITE is
//! sent (its round trip starts) once the WRITE that many before it was
//! answered, so the round trip mountstats counts grows with the depth of
//! WRITEs in flight, and the rest of a WRITE's wait is its queue time.
//!
//! Linux 3.1 lets NFS writeback pages grow without bound. The seed's NFS
//! patches, as switches: a writeback wait queue that blocks writers above
//! `nfs_congestion_kb` of writeback pages (checked after every WRITE, as
//! the patch checks after every page), and scaling that limit down to 1/8
//! of the dirty threshold.
//!
//! The mount counts what `/proc/self/mountstats` shows for WRITE and
//! COMMIT: operations, bytes, queue time and round trip.

use super::config::{NS_PER_SEC, NfsConfig};
use super::engine::{Event, PageState, World};
use super::kernel::{PAGE_SHIFT, PAGE_SIZE};

/// `NFS_WAIT_PAGES`: the wait queue's wakeup hysteresis, 1 MiB \[pages\].
const NFS_WAIT_PAGES: u64 = 1024 >> (PAGE_SHIFT - 10);

/// The client's RPC slot table (`tcp_slot_table_entries`, 16 by default):
/// WRITEs in flight at once.
pub const RPC_SLOTS: usize = 16;

/// What the server's disk writes of one fsync's file before it turns to
/// another fsync's file when several are under way \[bytes\]: 2 MiB.
pub const FSYNC_RUN: f64 = 2.0 * 1024.0 * 1024.0;

/// Integer square root, as the kernel's `int_sqrt()`.
fn int_sqrt(x: u64) -> u64 {
    let mut r = (x as f64).sqrt() as u64;
    while r * r > x {
        r -= 1;
    }
    while (r + 1) * (r + 1) <= x {
        r += 1;
    }
    r
}

/// Mirrors `nfs_update_congestion_thresh()`: 16 x sqrt(total pages) KiB, at
/// most 256 MiB, and with the scaling patch at most (dirty_thresh + 1 MiB)/8.
pub fn nfs_congestion_kb(total_pages: u64, dirty_thresh: u64, scaled: bool) -> u64 {
    let mut kb = (16 * int_sqrt(total_pages)) << (PAGE_SHIFT - 10);
    kb = kb.min(256 * 1024);
    if scaled {
        let thresh_kb = (dirty_thresh << (PAGE_SHIFT - 10)) + 1024;
        kb = kb.min(thresh_kb / 8);
    }
    kb
}

/// What `/proc/self/mountstats` counts for WRITE and COMMIT.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MountStats {
    /// WRITE RPCs completed.
    pub writes: u64,
    /// Pages they carried \[pages\].
    pub write_pages: u64,
    /// Their time in the client's queue before the link took them \[ns\].
    pub write_queue_ns: u64,
    /// Their time from sending to the server's reply \[ns\].
    pub write_rtt_ns: u64,
    /// COMMITs completed.
    pub commits: u64,
    /// Pages they made stable \[pages\].
    pub commit_pages: u64,
    /// Their time from sending to the server's reply \[ns\].
    pub commit_rtt_ns: u64,
    /// The most pages ever under writeback at once \[pages\].
    pub writeback_max: u64,
}

/// Work on the server's disk for COMMITs: write each file's data they
/// cover, then commit the journal. COMMITs that arrive before it starts
/// join it (a group commit, as fsyncs on one journal share a transaction).
#[derive(Clone, Debug, PartialEq)]
struct CommitJob {
    /// When the disk starts on it \[ns\].
    start: u64,
    /// When the disk is done with it \[ns\].
    end: u64,
    /// The files whose COMMITs it answers, and how much of each the server
    /// had received at the COMMIT: what it puts on disk \[bytes\].
    files: Vec<(u32, f64)>,
}

/// What the server holds of one file.
#[derive(Clone, Copy, Debug, PartialEq)]
struct ServerFile {
    /// The file.
    inode: u32,
    /// Data received so far \[bytes\].
    received: f64,
    /// Data of it on the server's disk \[bytes\].
    flushed: f64,
}

impl ServerFile {
    /// Received and not yet on disk \[bytes\].
    fn unwritten(&self) -> f64 {
        self.received - self.flushed
    }
}

impl CommitJob {
    /// True when it answers a COMMIT of `inode`.
    fn holds(&self, inode: u32) -> bool {
        self.files.iter().any(|f| f.0 == inode)
    }
}

/// Client and server state of one NFS mount.
#[derive(Clone, Debug)]
pub struct NfsMount {
    /// Its parameters.
    pub config: NfsConfig,
    /// `nfs_congestion_kb` in pages \[pages\].
    pub congestion_pages: u64,
    /// Writers must wait (the wait queue patch only).
    pub congested: bool,
    /// The files the server received data of.
    files: Vec<ServerFile>,
    /// When `files` was brought up to date \[ns\].
    server_at: u64,
    /// COMMIT work queued or under way on the server's disk, oldest first.
    jobs: std::collections::VecDeque<CommitJob>,
    /// COMMITs awaiting their reply: file, when sent \[ns\].
    in_flight: Vec<(u32, u64)>,
    /// When the last [`RPC_SLOTS`] WRITEs were answered, oldest first \[ns\].
    answered: std::collections::VecDeque<u64>,
    /// COMMITs sent.
    pub commits: u64,
    /// Pages made stable by COMMITs \[pages\].
    pub committed_pages: u64,
    /// WRITE and COMMIT counters.
    pub stats: MountStats,
}

impl NfsMount {
    /// A mount with an idle server.
    pub fn new(config: NfsConfig, total_pages: u64, dirty_thresh: u64) -> Self {
        let congestion_pages = nfs_congestion_kb(total_pages, dirty_thresh, config.congestion_scaled) >> 2;
        NfsMount {
            config,
            congestion_pages,
            congested: false,
            files: Vec::new(),
            server_at: 0,
            jobs: std::collections::VecDeque::new(),
            in_flight: Vec::new(),
            answered: std::collections::VecDeque::new(),
            commits: 0,
            committed_pages: 0,
            stats: MountStats::default(),
        }
    }

    /// Time the server's disk takes to write `bytes` \[ns\].
    fn disk_ns(&self, bytes: f64) -> u64 {
        (bytes.max(0.0) / self.config.server_bandwidth * NS_PER_SEC as f64) as u64
    }

    /// Lets the server's disk work until `now`: COMMIT jobs that are done
    /// leave their files' data on disk; in between, over its background
    /// threshold, the disk writes on its own (every file alike).
    fn server_advance(&mut self, now: u64) {
        while let Some(job) = self.jobs.front()
            && job.end <= now
        {
            let job = self.jobs.pop_front().expect("checked");
            for (inode, cover) in job.files {
                if let Some(f) = self.files.iter_mut().find(|f| f.inode == inode) {
                    f.flushed = f.flushed.max(cover);
                }
            }
            self.server_at = self.server_at.max(job.end);
        }
        let free_until = match self.jobs.front() {
            Some(job) => job.start.min(now),
            None => now,
        };
        self.write_on_own(free_until);
        self.server_at = self.server_at.max(now);
    }

    /// The server's own writeback from `server_at` to `until` \[ns\]: the
    /// data over its background threshold, at its disk's rate, taken from
    /// every file in proportion.
    fn write_on_own(&mut self, until: u64) {
        if until <= self.server_at {
            return;
        }
        let dt = (until - self.server_at) as f64 / NS_PER_SEC as f64;
        self.server_at = until;
        let backlog: f64 = self.files.iter().map(ServerFile::unwritten).sum();
        let over = backlog - self.config.server_background as f64;
        if over > 0.0 {
            let share = over.min(self.config.server_bandwidth * dt) / backlog;
            for f in &mut self.files {
                f.flushed += f.unwritten() * share;
            }
        }
    }

    /// Bytes received but not yet on the server's disk \[bytes\].
    pub fn server_backlog(&mut self, now: u64) -> f64 {
        self.server_advance(now);
        self.files.iter().map(ServerFile::unwritten).sum()
    }

    /// Time the server's disk takes to write `bytes` of one file for an
    /// fsync \[ns\]: alone, at its rate; with other fsyncs under way or
    /// queued, a seek for every [`FSYNC_RUN`] as it turns between files.
    fn fsync_ns(&self, bytes: f64, alone: bool) -> u64 {
        let seeks = if alone { 0.0 } else { bytes / FSYNC_RUN * self.config.server_seek_ns as f64 };
        self.disk_ns(bytes) + seeks as u64
    }

    /// How long the server takes to accept a WRITE of `bytes` to `inode`
    /// on top of its link transfer \[ns\]: until a COMMIT of the same file
    /// is answered (the fsync holds the file), and while the server is past
    /// its dirty limit, the time its disk needs to make room.
    pub fn server_delay(&mut self, now: u64, bytes: f64, inode: u32) -> u64 {
        let over = self.server_backlog(now) + bytes - self.config.server_cache as f64;
        let room = if over <= 0.0 { 0 } else { self.disk_ns(over) };
        let locked = self.jobs.iter().filter(|j| j.holds(inode)).map(|j| j.end.saturating_sub(now)).max();
        room.max(locked.unwrap_or(0))
    }

    /// Notes a WRITE of `inode` the server received \[bytes\].
    pub fn received(&mut self, now: u64, bytes: f64, inode: u32) {
        self.server_advance(now);
        match self.files.iter_mut().find(|f| f.inode == inode) {
            Some(f) => f.received += bytes,
            None => self.files.push(ServerFile { inode, received: bytes, flushed: 0.0 }),
        }
    }

    /// Notes a WRITE answered at `now` that was queued at `queued_at`:
    /// returns when it was sent, once a slot of the client's RPC slot table
    /// was free \[ns\] (at most `link_at`, when the link took it).
    fn write_sent_at(&mut self, now: u64, queued_at: u64, link_at: u64) -> u64 {
        let slot_free = if self.answered.len() == RPC_SLOTS { self.answered.pop_front().unwrap_or(0) } else { 0 };
        self.answered.push_back(now);
        queued_at.max(slot_free).min(link_at)
    }

    /// A COMMIT of `inode` sent now: the server fsyncs the file, writing
    /// what it received of it before the COMMIT, then commits its journal.
    /// It joins the job of a COMMIT that the disk has not started on yet,
    /// or queues a new job after the last. Returns when the reply is
    /// expected \[ns\]; a later COMMIT joining the same job may delay it
    /// (see [`NfsMount::commit_reply_at`]).
    pub fn commit_done_at(&mut self, now: u64, inode: u32) -> u64 {
        self.server_advance(now);
        self.in_flight.push((inode, now));
        let arrive = now + self.config.rtt_ns / 2;
        let reply = self.config.rtt_ns - self.config.rtt_ns / 2;
        let file = self.files.iter().find(|f| f.inode == inode);
        let (bytes, cover) = file.map_or((0.0, 0.0), |f| (f.unwritten(), f.received));
        let alone = self.jobs.is_empty();
        let write = self.fsync_ns(bytes, alone);
        if let Some(job) = self.jobs.back_mut()
            && job.start > arrive
        {
            job.end += write;
            job.files.push((inode, cover));
            return job.end + reply;
        }
        let start = match self.jobs.back() {
            Some(last) => arrive.max(last.end),
            None => arrive,
        };
        let end = start + write + self.config.server_commit_ns;
        self.jobs.push_back(CommitJob { start, end, files: vec![(inode, cover)] });
        end + reply
    }

    /// Notes the reply to the COMMIT of `inode` at `now` and `pages` it
    /// made stable.
    fn commit_replied(&mut self, now: u64, inode: u32, pages: u64) {
        if let Some(i) = self.in_flight.iter().position(|&(n, _)| n == inode) {
            let (_, sent) = self.in_flight.swap_remove(i);
            self.stats.commit_rtt_ns += now - sent;
        }
        self.committed_pages += pages;
        self.stats.commits += 1;
        self.stats.commit_pages += pages;
    }

    /// When the reply to the COMMIT of `inode` sent before comes; `None`
    /// when the server has answered by `now`.
    pub fn commit_reply_at(&mut self, now: u64, inode: u32) -> Option<u64> {
        let reply = self.config.rtt_ns - self.config.rtt_ns / 2;
        let job = self.jobs.iter().find(|j| j.holds(inode))?;
        let at = job.end + reply;
        (at > now).then_some(at)
    }

    /// Updates the wait queue state for `writeback` pages under writeback.
    /// Returns true when it just cleared (writers may be woken).
    pub fn update_congestion(&mut self, writeback: u64) -> bool {
        self.stats.writeback_max = self.stats.writeback_max.max(writeback);
        if !self.config.wait_queue {
            return false;
        }
        let limit = self.congestion_pages;
        if writeback > limit {
            self.congested = true;
            false
        } else if self.congested && writeback < limit.saturating_sub((limit / 8).min(NFS_WAIT_PAGES)) {
            self.congested = false;
            true
        } else {
            false
        }
    }
}

impl World {
    /// True when a writer must wait before submitting more to `bdi`.
    pub(super) fn queue_full(&self, bdi: usize) -> bool {
        let b = &self.bdis[bdi];
        match &b.nfs {
            Some(m) => m.congested,
            None => b.device.is_full(),
        }
    }

    /// A WRITE RPC completed: its pages are written and become unstable.
    /// It was queued at `queued_at` and sent at `sent_at` \[ns\].
    pub(super) fn nfs_write_done(&mut self, bdi: usize, inode: u32, pages: u64, queued_at: u64, sent_at: u64) {
        let now = self.now;
        let jiffies = self.jiffies();
        self.move_pages(inode, PageState::Writeback, PageState::Unstable, pages);
        let ino = &mut self.inodes[inode as usize];
        if !ino.queued {
            // The inode is dirty again (I_DIRTY_DATASYNC): it needs a COMMIT.
            ino.queued = true;
            ino.dirtied_when = jiffies;
            self.bdis[bdi].dirty_inodes.push_back(inode);
        }
        let b = &mut self.bdis[bdi];
        self.vm.completions.inc(&mut b.completions, pages);
        let m = b.nfs.as_mut().expect("an NFS bdi");
        m.received(now, (pages * PAGE_SIZE) as f64, inode);
        m.stats.writes += 1;
        m.stats.write_pages += pages;
        let sent_at = m.write_sent_at(now, queued_at, sent_at);
        m.stats.write_queue_ns += sent_at.saturating_sub(queued_at);
        m.stats.write_rtt_ns += now - sent_at;
        if m.update_congestion(b.writeback) {
            // wake_up() of the wait queue: every waiter.
            let waiters: Vec<_> = b.device.waiters.drain(..).collect();
            for w in waiters {
                self.wake_one(bdi, w);
            }
        }
    }

    /// Mirrors `nfs_commit_unstable_pages()` for non-blocking writeback:
    /// after writing `inode`, send a COMMIT when more than half of its
    /// pages are unstable and none is in flight. Returns the pages the
    /// COMMIT covers, 0 when none is sent \[pages\].
    pub(super) fn nfs_write_inode(&mut self, bdi: usize, inode: u32) -> u64 {
        let ino = &self.inodes[inode as usize];
        let npages = ino.dirty + ino.writeback + ino.unstable;
        if ino.committing > 0 || ino.unstable == 0 || ino.unstable <= npages / 2 {
            return 0;
        }
        let pages = ino.unstable;
        self.inodes[inode as usize].committing = pages;
        let now = self.now;
        let m = self.bdis[bdi].nfs.as_mut().expect("an NFS bdi");
        m.commits += 1;
        let at = m.commit_done_at(now, inode);
        self.schedule(at, Event::CommitDone(bdi as u32, inode));
        pages
    }

    /// A COMMIT completed: the pages it covered are stable, hence clean.
    /// If its group commit grew since, the reply comes later.
    pub(super) fn nfs_commit_done(&mut self, bdi: usize, inode: u32) {
        let now = self.now;
        if let Some(m) = &mut self.bdis[bdi].nfs
            && let Some(at) = m.commit_reply_at(now, inode)
        {
            self.schedule(at, Event::CommitDone(bdi as u32, inode));
            return;
        }
        let pages = std::mem::take(&mut self.inodes[inode as usize].committing);
        self.move_pages(inode, PageState::Unstable, PageState::Clean, pages);
        let b = &mut self.bdis[bdi];
        if let Some(m) = &mut b.nfs {
            m.commit_replied(now, inode, pages);
        }
        let jiffies = self.jiffies();
        let ino = &mut self.inodes[inode as usize];
        if !ino.queued && ino.unstable > 0 {
            // Pages that became unstable during the COMMIT need another.
            ino.queued = true;
            ino.dirtied_when = jiffies;
            self.bdis[bdi].dirty_inodes.push_back(inode);
        }
    }

    /// Recomputes `nfs_congestion_kb` when the dirty threshold changes.
    pub(super) fn nfs_update_congestion_thresh(&mut self) {
        let (total, thresh) = (self.vm.memory_pages, self.vm.limits.dirty);
        for b in &mut self.bdis {
            if let Some(m) = &mut b.nfs {
                m.congestion_pages = nfs_congestion_kb(total, thresh, m.config.congestion_scaled) >> 2;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn congestion_size_follows_the_kernel_table() {
        // The table in nfs_update_congestion_thresh(): 4 GiB -> 65536 KiB,
        // 16 GiB -> 131072 KiB, capped at 256 MiB.
        assert_eq!(nfs_congestion_kb(1 << 20, u64::MAX >> 16, false), 65536);
        assert_eq!(nfs_congestion_kb(1 << 22, u64::MAX >> 16, false), 131072);
        assert_eq!(nfs_congestion_kb(1 << 30, u64::MAX >> 16, false), 262144);
        // Scaled: a 10 MiB threshold (2560 pages) allows (10240 + 1024) / 8 KiB.
        assert_eq!(nfs_congestion_kb(1 << 23, 2560, true), (10240 + 1024) / 8);
        assert_eq!(int_sqrt(1 << 20), 1024);
        assert_eq!(int_sqrt(99), 9);
    }

    fn mount(wait_queue: bool) -> NfsMount {
        NfsMount::new(NfsConfig::plain(wait_queue), 1 << 20, 200_000)
    }

    #[test]
    fn the_wait_queue_blocks_above_the_limit_and_wakes_below_with_hysteresis() {
        let mut m = mount(true);
        let limit = m.congestion_pages;
        assert_eq!(limit, 16384);
        assert!(!m.update_congestion(limit));
        assert!(!m.congested);
        m.update_congestion(limit + 1);
        assert!(m.congested);
        assert!(!m.update_congestion(limit - 100), "still within the hysteresis");
        assert!(m.update_congestion(limit - NFS_WAIT_PAGES - 1));
        assert!(!m.congested);
        // Without the patch nothing ever blocks.
        let mut m = mount(false);
        m.update_congestion(u64::MAX);
        assert!(!m.congested);
    }

    #[test]
    fn commits_that_arrive_before_the_disk_starts_share_its_work() {
        let mut m = mount(false);
        m.config.server_commit_ns = 150_000_000;
        // Nothing to write: half a round trip there, the journal commit,
        // half a round trip back.
        assert_eq!(m.commit_done_at(0, 1), 150_200_000);
        // A COMMIT while the disk is at it waits and queues the next job;
        // one that arrives before that job starts joins it.
        assert_eq!(m.commit_done_at(1_000_000, 2), 300_200_000);
        assert_eq!(m.commit_done_at(2_000_000, 3), 300_200_000);
        assert_eq!(m.commit_reply_at(200_000_000, 3), Some(300_200_000));
        assert_eq!(m.commit_reply_at(400_000_000, 3), None, "answered");
        assert_eq!(m.commit_done_at(400_000_000, 1), 550_200_000);
    }

    #[test]
    fn the_server_writes_for_commits_and_over_its_background_threshold() {
        let mut m = mount(false);
        m.config.server_background = 50_000_000;
        m.received(0, 30e6, 1);
        m.received(0, 20e6, 3);
        // Under its background threshold the server's disk waits for a COMMIT.
        assert_eq!(m.server_backlog(1_000_000_000), 50e6);
        // A COMMIT has it write the file's 30 MB at 100 MB/s (0.3 s).
        assert_eq!(m.commit_done_at(1_000_000_000, 1), 1_300_200_000);
        // A WRITE to the file being committed waits for the COMMIT.
        assert_eq!(m.server_delay(1_100_000_000, 1e6, 1), 200_100_000);
        assert_eq!(m.server_delay(1_100_000_000, 1e6, 2), 0, "other files go on");
        // The fsync wrote its own file only.
        assert_eq!(m.server_backlog(1_400_000_000), 20e6);
        // Over the threshold it writes on its own, down to the threshold:
        // 0.3 s at 100 MB/s takes 30 MB of the 100 MB, from both files alike.
        m.received(1_400_000_000, 80e6, 2);
        assert_eq!(m.server_backlog(1_700_000_000), 70e6);
        assert_eq!(m.server_backlog(1_900_000_000), 50e6);
        assert_eq!(m.server_backlog(5_000_000_000), 50e6);
        // Past its dirty limit, WRITEs wait for the disk.
        let mut m = mount(false);
        m.received(0, (1u64 << 30) as f64, 1);
        assert_eq!(m.server_delay(0, 100e6, 2), 1_000_000_000);
    }

    #[test]
    fn an_fsync_among_others_pays_a_seek_per_run() {
        let mut m = mount(false);
        // A 2 MiB/s disk, 10 ms a seek, and a server that writes only for COMMITs.
        m.config.server_bandwidth = 2_097_152.0;
        m.config.server_seek_ns = 10_000_000;
        m.config.server_background = 1 << 40;
        m.received(0, 4_194_304.0, 1);
        m.received(0, 4_194_304.0, 2);
        // Alone: 4 MiB in 2 s, no seek.
        assert_eq!(m.commit_done_at(0, 1), 2_000_200_000);
        // Queued behind it: 4 MiB in 2 s and a seek for each 2 MiB run.
        assert_eq!(m.commit_done_at(0, 2), 4_020_200_000);
        // A COMMIT of a file with nothing to write joins the queued job.
        assert_eq!(m.commit_done_at(1_000_000_000, 3), 4_020_200_000);
        // When the first is answered, only the second file is left.
        assert_eq!(m.server_backlog(2_100_000_000), 4_194_304.0);
        assert_eq!(m.server_backlog(4_100_000_000), 0.0);
    }

    #[test]
    fn a_write_is_sent_once_a_slot_of_the_slot_table_is_free() {
        let mut m = mount(false);
        // Sixteen WRITEs queued at 0, the link taking one every 100 ns:
        // each has a slot at once, so its round trip includes the link's wait.
        for i in 1..=16 {
            assert_eq!(m.write_sent_at(i * 100, 0, i * 100 - 100), 0);
        }
        // The 17th goes when the first is answered, the 18th after the second.
        assert_eq!(m.write_sent_at(1_700, 0, 1_600), 100);
        assert_eq!(m.write_sent_at(1_800, 0, 1_700), 200);
        // A WRITE queued after its slot freed is sent when queued.
        assert_eq!(m.write_sent_at(1_900, 1_850, 1_850), 1_850);
    }
}
