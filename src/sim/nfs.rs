//! An NFS mount: WRITE RPCs over a network link, unstable pages, COMMITs,
//! and the server behind them.
//!
//! The flusher (or an IO-full task) submits WRITE RPCs of up to `wsize`
//! pages; the link sends one at a time. When a WRITE completes its pages
//! count as written and move from writeback to unstable: they sit in the
//! server's memory, not yet on its disk. After writing an inode the writer
//! sends a COMMIT once more than half of the inode's pages are unstable
//! (`nfs_commit_unstable_pages()`); the server answers when its disk has
//! caught up with everything it received and its journal has committed
//! (the fsync behind a COMMIT), and the committed pages turn clean in one
//! burst. COMMITs that reach the server together share a journal commit.
//!
//! Linux 3.1 lets NFS writeback pages grow without bound. The seed's NFS
//! patches, as switches: a writeback wait queue that blocks writers above
//! `nfs_congestion_kb` of writeback pages, and scaling that limit down to
//! 1/8 of the dirty threshold.

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
    /// The server's latest journal commit, started or scheduled \[ns\].
    journal_commit: (u64, u64),
    /// COMMITs sent.
    pub commits: u64,
    /// Pages made stable by COMMITs \[pages\].
    pub committed_pages: u64,
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
            journal_commit: (0, 0),
            commits: 0,
            committed_pages: 0,
        }
    }

    /// Lets the server's disk work until `now`.
    fn server_advance(&mut self, now: u64) {
        let dt = now.saturating_sub(self.server_at) as f64 / NS_PER_SEC as f64;
        let backlog = self.server_received - self.server_flushed;
        self.server_flushed += backlog.min(self.config.server_bandwidth * dt);
        self.server_at = now;
    }

    /// Bytes received but not yet on the server's disk \[bytes\].
    pub fn server_backlog(&mut self, now: u64) -> f64 {
        self.server_advance(now);
        self.server_received - self.server_flushed
    }

    /// How long the server takes to accept a WRITE of `bytes` on top of
    /// its link transfer: nothing while its cache has room, else the time
    /// its disk needs to make room \[ns\].
    pub fn server_delay(&mut self, now: u64, bytes: f64) -> u64 {
        let over = self.server_backlog(now) + bytes - self.config.server_cache as f64;
        if over <= 0.0 { 0 } else { (over / self.config.server_bandwidth * NS_PER_SEC as f64) as u64 }
    }

    /// Notes a WRITE the server received \[bytes\].
    pub fn received(&mut self, now: u64, bytes: f64) {
        self.server_advance(now);
        self.server_received += bytes;
    }

    /// When a COMMIT sent now completes: a round trip plus the time the
    /// server's disk needs for everything received so far, then a journal
    /// commit. Like fsyncs on one journal, a COMMIT joins a commit that has
    /// not started yet, or waits for the running one and starts the next.
    pub fn commit_done_at(&mut self, now: u64) -> u64 {
        let backlog = self.server_backlog(now);
        let on_disk = now + self.config.rtt_ns + (backlog / self.config.server_bandwidth * NS_PER_SEC as f64) as u64;
        let (start, end) = self.journal_commit;
        if on_disk <= start {
            return end;
        }
        let start = on_disk.max(end);
        self.journal_commit = (start, start + self.config.server_commit_ns);
        self.journal_commit.1
    }

    /// Updates the wait queue state for `writeback` pages under writeback.
    /// Returns true when it just cleared (writers may be woken).
    pub fn update_congestion(&mut self, writeback: u64) -> bool {
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
    pub(super) fn nfs_write_done(&mut self, bdi: usize, inode: u32, pages: u64) {
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
        m.received(now, (pages * PAGE_SIZE) as f64);
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
    /// pages are unstable and none is in flight.
    pub(super) fn nfs_write_inode(&mut self, bdi: usize, inode: u32) {
        let ino = &self.inodes[inode as usize];
        let npages = ino.dirty + ino.writeback + ino.unstable;
        if ino.committing > 0 || ino.unstable == 0 || ino.unstable <= npages / 2 {
            return;
        }
        let pages = ino.unstable;
        self.inodes[inode as usize].committing = pages;
        let now = self.now;
        let m = self.bdis[bdi].nfs.as_mut().expect("an NFS bdi");
        m.commits += 1;
        let at = m.commit_done_at(now);
        self.schedule(at, Event::CommitDone(bdi as u32, inode));
    }

    /// A COMMIT completed: the pages it covered are stable, hence clean.
    pub(super) fn nfs_commit_done(&mut self, bdi: usize, inode: u32) {
        let pages = std::mem::take(&mut self.inodes[inode as usize].committing);
        self.move_pages(inode, PageState::Unstable, PageState::Clean, pages);
        let b = &mut self.bdis[bdi];
        if let Some(m) = &mut b.nfs {
            m.committed_pages += pages;
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
        NfsMount::new(
            NfsConfig {
                rtt_ns: 200_000,
                server_bandwidth: 100e6,
                server_cache: 1 << 30,
                server_commit_ns: 0,
                wait_queue,
                congestion_scaled: false,
            },
            1 << 20,
            200_000,
        )
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
    fn commits_share_the_servers_journal_commits() {
        let mut m = mount(false);
        m.config.server_commit_ns = 150_000_000;
        // Nothing to flush: a round trip, then the journal commit.
        assert_eq!(m.commit_done_at(0), 150_200_000);
        // A COMMIT during that journal commit waits and starts the next;
        // one that comes before the next has started joins it.
        assert_eq!(m.commit_done_at(1_000_000), 300_200_000);
        assert_eq!(m.commit_done_at(2_000_000), 300_200_000);
        assert_eq!(m.commit_done_at(400_000_000), 550_200_000);
    }

    #[test]
    fn commits_wait_for_the_server_disk() {
        let mut m = mount(false);
        m.received(0, 100e6);
        // 100 MB backlog at 100 MB/s: a second, plus the round trip.
        assert_eq!(m.commit_done_at(0), 1_000_200_000);
        // Half a second later half of it is on disk.
        assert_eq!(m.commit_done_at(500_000_000), 1_000_200_000);
        // Past the server cache, WRITEs wait for its disk.
        let mut m = mount(false);
        m.received(0, (1u64 << 30) as f64);
        assert_eq!(m.server_delay(0, 100e6), 1_000_000_000);
    }
}
