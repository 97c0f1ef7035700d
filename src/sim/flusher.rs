//! Writeback, mirroring fs/fs-writeback.c: the per-bdi flusher thread and
//! the passes over dirty inodes that it (and, in IO-full mode, a throttled
//! task) makes.
//!
//! The flusher is woken by balance_dirty_pages() or every 5 s. It runs
//! kupdate writeback (inodes dirtied more than 30 s ago), then background
//! writeback while over the background threshold (from patch 11 also
//! while the bdi is over its share of it).
//!
//! A writeback pass takes the bdi's dirty inodes round-robin, writing a
//! chunk of about half a second of bandwidth from each; it returns after
//! ~100 ms once it wrote something. An inode being written is off the
//! dirty list, so concurrent writers take different inodes. Pages go from
//! dirty to writeback when submitted; a writer waits in line while the
//! device queue is full. Completions turn writeback pages clean and count
//! toward the bdi's share of the dirty limit.

use super::device::{Request, Submitter};
use super::engine::{Event, PageState, World};
use super::page_writeback as pw;

/// `dirty_writeback_interval`: 5 s \[centisecs\].
const DIRTY_WRITEBACK_CENTISECS: u64 = 500;

/// `dirty_expire_interval`: 30 s \[centisecs\].
const DIRTY_EXPIRE_CENTISECS: u64 = 3000;

/// What a flusher work writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkKind {
    /// Old inodes only.
    Kupdate,
    /// Everything, while over the background threshold.
    Background,
}

/// Where `wb_do_writeback()` is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Stage {
    /// About to check for old data (`wb_check_old_data_flush()`).
    #[default]
    Kupdate,
    /// About to check the background threshold.
    Background,
    /// Done: going to sleep.
    Done,
}

/// A writeback in progress: the `struct wb_writeback_work` and the pass
/// being made, for the flusher or a task writing in the foreground.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Writer {
    /// Who submits the requests.
    pub submitter: Submitter,
    /// Pages still to write \[pages\].
    pub nr_pages: i64,
    /// Only inodes dirtied at or before this (kupdate) \[jiffies\].
    pub older_than: Option<u64>,
    /// The pass in progress.
    pass: Option<Pass>,
}

/// One `__writeback_inodes_wb()` pass.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Pass {
    /// When it started \[jiffies\].
    start: u64,
    /// Pages written plus inodes cleaned.
    wrote: u64,
    /// Inodes it may still take from the dirty list (those queued at its start).
    visits_left: usize,
    /// The inode being written and what is left of its chunk \[pages\].
    current: Option<(u32, u64)>,
}

impl Writer {
    /// A writer with a budget of `nr_pages`.
    pub fn new(submitter: Submitter, nr_pages: i64) -> Self {
        Writer { submitter, nr_pages, older_than: None, pass: None }
    }
}

/// How a writeback pass stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PassEnd {
    /// Waiting for a free request slot.
    Blocked,
    /// Finished, having written this many pages plus inodes cleaned.
    Done(u64),
}

/// A flusher work being executed.
#[derive(Clone, Debug)]
pub struct Work {
    /// Kupdate or background.
    pub kind: WorkKind,
    /// When wb_writeback() started \[jiffies\].
    pub start: u64,
    /// Its writer.
    pub writer: Writer,
}

/// A bdi's flusher thread.
#[derive(Clone, Debug, Default)]
pub struct Flusher {
    /// `BDI_writeback_running`: inside wb_do_writeback().
    pub running: bool,
    /// Progress through wb_do_writeback().
    pub stage: Stage,
    /// The work in progress.
    pub work: Option<Work>,
    /// Waiting for a free request slot.
    pub blocked: bool,
    /// `last_old_flush` \[jiffies\].
    pub last_old_flush: u64,
    /// The pending timer wakeup: when \[ns\] and its sequence number among
    /// the world's events. A wakeup that is cancelled is simply cleared.
    timer: Option<(u64, u64)>,
    /// Pages it submitted \[pages\].
    pub submitted: u64,
}

impl World {
    /// Mirrors `bdi_start_background_writeback()`: wakes the flusher. A
    /// wakeup while it runs is lost, as in the kernel. The flusher is
    /// another thread: it runs once the waker is done, so a throttled task
    /// goes on to update the bandwidth estimates before the flusher's
    /// first pass does.
    pub(super) fn bdi_start_background_writeback(&mut self, bdi: usize) {
        if self.wake_flusher(bdi) {
            self.schedule(self.now, Event::FlusherRun(bdi as u32));
        }
    }

    /// Marks the flusher awake; false when it was running already.
    fn wake_flusher(&mut self, bdi: usize) -> bool {
        let f = &mut self.bdis[bdi].flusher;
        if f.running {
            return false;
        }
        f.running = true;
        f.stage = Stage::Kupdate;
        self.cancel_flusher_timer(bdi);
        true
    }

    /// The woken flusher gets the CPU.
    pub(super) fn flusher_scheduled(&mut self, bdi: usize) {
        let f = &self.bdis[bdi].flusher;
        if f.running && !f.blocked && f.work.is_none() && f.stage == Stage::Kupdate {
            self.flusher_run(bdi);
        }
    }

    /// The flusher's periodic wakeup.
    pub(super) fn flusher_timer(&mut self, bdi: usize) {
        if self.wake_flusher(bdi) {
            self.flusher_run(bdi);
        }
    }

    /// Arms the flusher's timer for `at` \[ns\], unless it is armed already
    /// (for an earlier time).
    fn arm_flusher_timer(&mut self, bdi: usize, at: u64) {
        if self.bdis[bdi].flusher.timer.is_some() {
            return;
        }
        let seq = self.queue.next_seq();
        self.bdis[bdi].flusher.timer = Some((at, seq));
        if self.next_timer.is_none_or(|(t, s, _)| (at, seq) < (t, s)) {
            self.next_timer = Some((at, seq, bdi as u32));
        }
    }

    /// Disarms the flusher's timer.
    fn cancel_flusher_timer(&mut self, bdi: usize) {
        if self.bdis[bdi].flusher.timer.take().is_some() && self.next_timer.is_some_and(|(_, _, b)| b as usize == bdi) {
            self.find_next_timer();
        }
    }

    /// The earliest flusher timer expired: it is disarmed, the next one
    /// found.
    pub(super) fn flusher_timer_expired(&mut self, bdi: usize) {
        self.bdis[bdi].flusher.timer = None;
        self.find_next_timer();
    }

    /// Finds the earliest armed flusher timer.
    fn find_next_timer(&mut self) {
        self.next_timer = (self.bdis.iter().enumerate())
            .filter_map(|(i, b)| b.flusher.timer.map(|(at, seq)| (at, seq, i as u32)))
            .min();
    }

    /// Mirrors `bdi_wakeup_thread_delayed()`: the first dirty inode of a
    /// clean bdi wakes its sleeping flusher after dirty_writeback_interval.
    pub(super) fn bdi_wakeup_thread_delayed(&mut self, bdi: usize) {
        if self.bdis[bdi].flusher.running {
            return;
        }
        let at = self.now + DIRTY_WRITEBACK_CENTISECS * super::config::NS_PER_SEC / 100;
        self.arm_flusher_timer(bdi, at);
    }

    /// Mirrors `over_bground_thresh()`, with patch 11's per-bdi check.
    fn over_bground_thresh(&mut self, bdi: usize) -> bool {
        let background = self.vm.limits.background;
        if self.vm.nr_file_dirty + self.vm.nr_unstable > background {
            return true;
        }
        self.patches >= 11 && self.bdis[bdi].reclaimable > self.bdi_dirty_limit(bdi, background)
    }

    /// Runs the flusher until it waits for the device queue or sleeps.
    pub(super) fn flusher_run(&mut self, bdi: usize) {
        loop {
            if let Some(mut work) = self.bdis[bdi].flusher.work.take() {
                let blocked = self.wb_writeback(bdi, &mut work);
                if blocked {
                    let f = &mut self.bdis[bdi].flusher;
                    f.work = Some(work);
                    f.blocked = true;
                    return;
                }
                continue;
            }
            let now = self.jiffies();
            let hz = self.hz;
            let interval = DIRTY_WRITEBACK_CENTISECS * hz / 100;
            let f = &mut self.bdis[bdi].flusher;
            match f.stage {
                Stage::Kupdate => {
                    f.stage = Stage::Background;
                    if now >= f.last_old_flush + interval {
                        f.last_old_flush = now;
                        let nr_pages = self.vm.nr_file_dirty + self.vm.nr_unstable;
                        if nr_pages > 0 {
                            self.start_work(bdi, WorkKind::Kupdate, nr_pages as i64);
                        }
                    }
                }
                Stage::Background => {
                    f.stage = Stage::Done;
                    if self.over_bground_thresh(bdi) {
                        self.start_work(bdi, WorkKind::Background, i64::MAX);
                    }
                }
                Stage::Done => {
                    f.running = false;
                    if !self.bdis[bdi].dirty_inodes.is_empty() {
                        let at = self.now + interval * super::config::NS_PER_SEC / hz;
                        self.arm_flusher_timer(bdi, at);
                    }
                    return;
                }
            }
        }
    }

    fn start_work(&mut self, bdi: usize, kind: WorkKind, nr_pages: i64) {
        let start = self.jiffies();
        let writer = Writer::new(Submitter::Flusher, nr_pages);
        self.bdis[bdi].flusher.work = Some(Work { kind, start, writer });
    }

    /// Mirrors the loop of `wb_writeback()`. Returns true when it waits for
    /// the device queue, false when the work is done.
    fn wb_writeback(&mut self, bdi: usize, work: &mut Work) -> bool {
        loop {
            if work.writer.pass.is_none() {
                if work.writer.nr_pages <= 0 {
                    return false;
                }
                if work.kind == WorkKind::Background && !self.over_bground_thresh(bdi) {
                    return false;
                }
                if work.kind == WorkKind::Kupdate {
                    let expire = DIRTY_EXPIRE_CENTISECS * self.hz / 100;
                    work.writer.older_than = Some(self.jiffies().saturating_sub(expire));
                }
            }
            match self.writeback_pass(bdi, &mut work.writer) {
                PassEnd::Blocked => return true,
                PassEnd::Done(wrote) => {
                    self.wb_update_bandwidth(bdi, work.start);
                    if wrote == 0 {
                        return false;
                    }
                }
            }
        }
    }

    /// True when `inode` may be written by a pass with this age filter.
    fn eligible(&self, inode: u32, older_than: Option<u64>) -> bool {
        older_than.is_none_or(|t| self.inodes[inode as usize].dirtied_when <= t)
    }

    /// Mirrors `__writeback_inodes_wb()` / `writeback_sb_inodes()`: one
    /// pass (started if none is in progress) over the bdi's dirty inodes.
    pub(super) fn writeback_pass(&mut self, bdi: usize, w: &mut Writer) -> PassEnd {
        let now = self.jiffies();
        let mut pass = match w.pass.take() {
            Some(p) => p,
            None => {
                let visits_left =
                    self.bdis[bdi].dirty_inodes.iter().filter(|&&i| self.eligible(i, w.older_than)).count();
                Pass { start: now, wrote: 0, visits_left, current: None }
            }
        };
        loop {
            let (inode, mut chunk_left) = match pass.current {
                Some(c) => c,
                None => {
                    let next = if pass.visits_left == 0 {
                        None
                    } else {
                        let b = &self.bdis[bdi];
                        b.dirty_inodes.iter().position(|&i| self.eligible(i, w.older_than))
                    };
                    let Some(at) = next else {
                        return PassEnd::Done(pass.wrote);
                    };
                    pass.visits_left -= 1;
                    let inode = self.bdis[bdi].dirty_inodes.remove(at).expect("position is in range");
                    let nr_pages = w.nr_pages.max(0) as u64;
                    let chunk = if self.legacy == super::config::Legacy::Linux2638 {
                        // Linux 2.6.38: MAX_WRITEBACK_PAGES (4 MiB) per inode.
                        nr_pages.min(pw::MIN_WRITEBACK_PAGES)
                    } else {
                        // From 3.1 on: half a second of the bdi's bandwidth.
                        pw::writeback_chunk_size(
                            self.bdis[bdi].avg_write_bandwidth,
                            self.vm.global_dirty_limit,
                            nr_pages,
                        )
                    };
                    (inode, chunk)
                }
            };
            // writeback_single_inode(): submit up to the chunk.
            let mut written = 0;
            loop {
                let dirty = self.inodes[inode as usize].dirty;
                if chunk_left == 0 || dirty == 0 {
                    break;
                }
                // A full request queue, or for NFS the writeback wait
                // queue (nfs_wait_congested() after each page: here after
                // each WRITE, whose pages are then all in flight).
                if self.queue_full(bdi) {
                    self.bdis[bdi].device.wait_for_slot(w.submitter);
                    pass.current = Some((inode, chunk_left));
                    pass.wrote += written;
                    w.nr_pages -= written as i64;
                    w.pass = Some(pass);
                    return PassEnd::Blocked;
                }
                let max_request = self.bdis[bdi].device.config.max_request_pages;
                let n = chunk_left.min(dirty).min(max_request);
                self.submit_write(bdi, inode, n, w.submitter);
                chunk_left -= n;
                written += n;
            }
            if self.bdis[bdi].nfs.is_some() {
                // nfs_commit_unstable_pages() counts the pages its COMMIT
                // covers against wbc->nr_to_write, as pages written.
                written += self.nfs_write_inode(bdi, inode).min(chunk_left);
            }
            // Requeue: still dirty inodes go to the tail, clean ones leave.
            let ino = &self.inodes[inode as usize];
            let clean = ino.dirty == 0 && ino.unstable == ino.committing;
            if clean {
                self.inodes[inode as usize].queued = false;
            } else {
                self.bdis[bdi].dirty_inodes.push_back(inode);
            }
            w.nr_pages -= written as i64;
            pass.current = None;
            pass.wrote += written + u64::from(clean);
            if pass.wrote > 0 && (now > pass.start + self.hz / 10 || w.nr_pages <= 0) {
                return PassEnd::Done(pass.wrote);
            }
        }
    }

    /// Moves `pages` dirty pages of `inode` to writeback and queues them
    /// on the device as one request.
    pub(super) fn submit_write(&mut self, bdi: usize, inode: u32, pages: u64, submitter: Submitter) {
        let interleave = self.bdis[bdi].device.config.fs.model().interleave_pages;
        let writers = self.bdis[bdi].nr_tasks.max(1) as u64;
        self.move_pages(inode, PageState::Dirty, PageState::Writeback, pages);
        let ino = &mut self.inodes[inode as usize];
        let offset = ino.next_write;
        ino.next_write += pages;
        let scattered = ino.random;
        let fragments = if interleave > 0 && writers > 1 {
            // Blocks were allocated as the tasks dirtied them: each window
            // boundary inside the request is a jump to another place.
            (1 + (offset + pages - 1) / interleave - offset / interleave) as u32
        } else {
            1
        };
        let b = &mut self.bdis[bdi];
        b.flusher.submitted += if submitter == Submitter::Flusher { pages } else { 0 };
        if let Some(m) = &mut b.nfs {
            // nfs_set_page_writeback() -> nfs_set_congested()
            m.update_congestion(b.writeback);
        }
        let request = Request { inode, offset, pages, submitter, scattered, fragments, queued_at: self.now };
        self.device_submit(bdi, request);
    }

    /// NFS: the extra time the server takes to accept the WRITE in service \[ns\].
    pub(super) fn server_delay(&mut self, bdi: usize) -> u64 {
        let now = self.now;
        let b = &mut self.bdis[bdi];
        let bytes = (b.device.busy_pages() * super::kernel::PAGE_SIZE) as f64;
        let inode = b.device.busy_inode();
        match &mut b.nfs {
            Some(m) => m.server_delay(now, bytes, inode),
            None => 0,
        }
    }

    /// A request completed: its pages are clean and count as written; the
    /// first writer waiting for a slot gets it.
    pub(super) fn device_done(&mut self, bdi: usize) {
        let Some((done, sent_at)) = self.device_complete(bdi) else {
            return;
        };
        if self.bdis[bdi].nfs.is_some() {
            self.nfs_write_done(bdi, done.inode, done.pages, done.queued_at, sent_at);
            return;
        }
        let pages = done.pages;
        self.move_pages(done.inode, PageState::Writeback, PageState::Clean, pages);
        self.vm.completions.inc(&mut self.bdis[bdi].completions, pages);
        if !self.queue_full(bdi)
            && let Some(who) = self.bdis[bdi].device.waiters.pop_front()
        {
            // get_request_wait(): the first writer in line gets the slot.
            self.wake_one(bdi, who);
        }
    }

    /// Resumes a writer that waited for the device queue.
    pub(super) fn wake_one(&mut self, bdi: usize, who: Submitter) {
        match who {
            Submitter::Flusher => {
                self.bdis[bdi].flusher.blocked = false;
                self.flusher_run(bdi);
            }
            Submitter::Task(t) => self.foreground_writeback_resume(t),
        }
    }
}
