//! An NFS mount: WRITE RPCs over a network link, unstable pages, COMMITs,
//! and the server behind them.
//!
//! The flusher (or an IO-full task) submits WRITE RPCs of up to `wsize`
//! pages; the link sends one at a time. When a WRITE completes its pages
//! count as written and move from writeback to unstable: they sit in the
//! server's memory, not yet on its disk. After writing an inode the writer
//! sends a COMMIT once more than half of the inode's pages are unstable
//! (`nfs_commit_unstable_pages()`); the server answers when its disk has
//! written everything it received before the COMMIT (the journal of an
//! fsync orders all data before it) and its journal has committed, and the
//! committed pages turn clean in one burst. COMMITs that reach the server
//! together share a journal commit.
//!
//! The server is a Linux box with its own page cache: below its background
//! threshold its disk writes only for COMMITs, above it the disk writes on
//! its own, and past its dirty limit (`server_cache`) a WRITE waits for
//! the disk. So a client that sends a COMMIT late keeps the server's disk
//! idle while it sends, and then waits while the disk catches up.
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

/// Work on the server's disk for COMMITs: write what they cover, then
/// commit the journal. COMMITs that arrive before it starts join it (a
/// group commit, as fsyncs on one journal share a transaction).
#[derive(Clone, Debug, PartialEq)]
struct CommitJob {
    /// When the disk starts on it \[ns\].
    start: u64,
    /// Received data on disk before it \[bytes\].
    base: f64,
    /// Received data it puts on disk \[bytes\].
    cover: f64,
    /// Files with data in it: the disk seeks to each.
    files: usize,
    /// When the disk is done with it \[ns\].
    end: u64,
    /// The files whose COMMITs it answers.
    inodes: Vec<u32>,
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
    /// Bytes the server received so far \[bytes\].
    server_received: f64,
    /// Bytes the server has on its disk \[bytes\].
    server_flushed: f64,
    /// When `server_flushed` was brought up to date \[ns\].
    server_at: u64,
    /// COMMIT work queued or under way on the server's disk, oldest first.
    jobs: std::collections::VecDeque<CommitJob>,
    /// COMMITs awaiting their reply: file, when sent \[ns\].
    in_flight: Vec<(u32, u64)>,
    /// Files the server received data of since its disk last wrote them.
    unwritten_files: Vec<u32>,
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
            server_received: 0.0,
            server_flushed: 0.0,
            server_at: 0,
            jobs: std::collections::VecDeque::new(),
            in_flight: Vec::new(),
            unwritten_files: Vec::new(),
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
    /// leave their data on disk; in between, over its background
    /// threshold, the disk writes on its own.
    fn server_advance(&mut self, now: u64) {
        while let Some(job) = self.jobs.front()
            && job.end <= now
        {
            self.server_flushed = self.server_flushed.max(job.cover);
            self.server_at = self.server_at.max(job.end);
            self.jobs.pop_front();
        }
        let free_from = match self.jobs.front() {
            Some(job) => job.start.min(now),
            None => now,
        };
        let dt = free_from.saturating_sub(self.server_at) as f64 / NS_PER_SEC as f64;
        let goal = self.server_received - self.config.server_background as f64;
        if goal > self.server_flushed {
            self.server_flushed = goal.min(self.server_flushed + self.config.server_bandwidth * dt);
        }
        self.server_at = self.server_at.max(now);
    }

    /// Bytes received but not yet on the server's disk \[bytes\].
    pub fn server_backlog(&mut self, now: u64) -> f64 {
        self.server_advance(now);
        self.server_received - self.server_flushed
    }

    /// How long the server takes to accept a WRITE of `bytes` to `inode`
    /// on top of its link transfer \[ns\]: until a COMMIT of the same file
    /// is answered (the fsync holds the file), and while the server is past
    /// its dirty limit, the time its disk needs to make room.
    pub fn server_delay(&mut self, now: u64, bytes: f64, inode: u32) -> u64 {
        let over = self.server_backlog(now) + bytes - self.config.server_cache as f64;
        let room = if over <= 0.0 { 0 } else { self.disk_ns(over) };
        let locked = self.jobs.iter().filter(|j| j.inodes.contains(&inode)).map(|j| j.end.saturating_sub(now)).max();
        room.max(locked.unwrap_or(0))
    }

    /// Notes a WRITE of `inode` the server received \[bytes\].
    pub fn received(&mut self, now: u64, bytes: f64, inode: u32) {
        self.server_advance(now);
        self.server_received += bytes;
        if !self.unwritten_files.contains(&inode) {
            self.unwritten_files.push(inode);
        }
    }

    /// A COMMIT of `inode` sent now: the server writes everything it
    /// received before it (the journal orders all data before the commit
    /// record), then commits its journal. It joins the job of a COMMIT that
    /// the disk has not started on yet, or queues a new job after the last.
    /// Returns when the reply is expected \[ns\]; a later COMMIT joining the
    /// same job may delay it (see [`NfsMount::commit_reply_at`]).
    pub fn commit_done_at(&mut self, now: u64, inode: u32) -> u64 {
        self.server_advance(now);
        self.in_flight.push((inode, now));
        let arrive = now + self.config.rtt_ns / 2;
        let received = self.server_received;
        let (commit_ns, reply) = (self.config.server_commit_ns, self.config.rtt_ns - self.config.rtt_ns / 2);
        let seek_ns = self.config.server_seek_ns;
        let end_of = |start: u64, base: f64, cover: f64, files: usize, m: &NfsMount| {
            start + m.disk_ns(cover - base) + files as u64 * seek_ns + commit_ns
        };
        let new_files = std::mem::take(&mut self.unwritten_files).len();
        if let Some(job) = self.jobs.back()
            && job.start > arrive
        {
            let (start, base, files) = (job.start, job.base, job.files + new_files);
            let end = end_of(start, base, received, files, self);
            let job = self.jobs.back_mut().expect("checked");
            job.cover = received;
            job.files = files;
            job.end = end;
            job.inodes.push(inode);
            return end + reply;
        }
        let (start, base) = match self.jobs.back() {
            Some(last) => (arrive.max(last.end), last.cover),
            None => (arrive, self.server_flushed),
        };
        let end = end_of(start, base, received, new_files, self);
        self.jobs.push_back(CommitJob { start, base, cover: received, files: new_files, end, inodes: vec![inode] });
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
        let job = self.jobs.iter().find(|j| j.inodes.contains(&inode))?;
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
        // Under its background threshold the server's disk waits for a COMMIT.
        assert_eq!(m.server_backlog(1_000_000_000), 30e6);
        // A COMMIT has it write the 30 MB at 100 MB/s (0.3 s).
        assert_eq!(m.commit_done_at(1_000_000_000, 1), 1_300_200_000);
        // A WRITE to the file being committed waits for the COMMIT.
        assert_eq!(m.server_delay(1_100_000_000, 1e6, 1), 200_100_000);
        assert_eq!(m.server_delay(1_100_000_000, 1e6, 2), 0, "other files go on");
        assert_eq!(m.server_backlog(1_400_000_000), 0.0);
        // Over the threshold it writes on its own, down to the threshold.
        m.received(1_400_000_000, 80e6, 2);
        assert_eq!(m.server_backlog(1_700_000_000), 50e6);
        assert_eq!(m.server_backlog(5_000_000_000), 50e6);
        // Past its dirty limit, WRITEs wait for the disk.
        let mut m = mount(false);
        m.received(0, (1u64 << 30) as f64, 1);
        assert_eq!(m.server_delay(0, 100e6, 2), 1_000_000_000);
    }

    #[test]
    fn a_commit_pays_a_seek_for_each_file_it_writes() {
        let mut m = mount(false);
        m.config.server_seek_ns = 10_000_000;
        for inode in 1..=3 {
            m.received(0, 10e6, inode);
        }
        // 30 MB at 100 MB/s and three files: 0.3 s + 3 x 10 ms.
        assert_eq!(m.commit_done_at(0, 1), 330_200_000);
    }
}
