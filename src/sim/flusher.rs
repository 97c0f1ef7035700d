//! The per-bdi flusher thread, mirroring fs/fs-writeback.c: woken by
//! balance_dirty_pages() or every 5 s, it runs kupdate writeback (inodes
//! dirtied more than 30 s ago) and background writeback (while over the
//! background threshold; from patch 11 also the bdi's share of it).
//!
//! A writeback pass takes the dirty inodes round-robin, writing a chunk of
//! about half a second of bandwidth from each; it returns after ~100 ms
//! once it wrote something, updates the bandwidth estimate and starts the
//! next pass. Pages go from dirty to writeback when submitted; submitting
//! blocks while the device queue is full. Completions turn writeback
//! pages clean and count toward the bdi's share of the dirty limit.

use std::collections::VecDeque;

use super::device::{Request, Submitter};
use super::engine::{Event, World};
use super::page_writeback as pw;

/// `dirty_writeback_interval`: 5 s [centisecs].
const DIRTY_WRITEBACK_CENTISECS: u64 = 500;

/// `dirty_expire_interval`: 30 s [centisecs].
const DIRTY_EXPIRE_CENTISECS: u64 = 3000;

/// What a writeback work writes.
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

/// A `struct wb_writeback_work` being executed.
#[derive(Clone, Debug)]
pub struct Work {
    /// Kupdate or background.
    pub kind: WorkKind,
    /// Pages still to write [pages].
    pub nr_pages: i64,
    /// When wb_writeback() started [jiffies].
    pub start: u64,
    /// The pass in progress.
    pass: Option<Pass>,
}

/// One `__writeback_inodes_wb()` pass.
#[derive(Clone, Debug)]
struct Pass {
    /// When it started [jiffies].
    start: u64,
    /// Pages written plus inodes cleaned.
    wrote: u64,
    /// Inodes still to visit (`b_io`).
    inodes: VecDeque<u32>,
    /// The inode being written and what is left of its chunk [pages].
    current: Option<(u32, u64)>,
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
    /// `last_old_flush` [jiffies].
    pub last_old_flush: u64,
    /// Incremented to cancel a pending timer wakeup.
    timer_generation: u32,
    /// Pages it submitted [pages].
    pub submitted: u64,
}

impl World {
    /// Mirrors `bdi_start_background_writeback()`: wakes the flusher. A
    /// wakeup while it runs is lost, as in the kernel.
    pub(super) fn bdi_start_background_writeback(&mut self, bdi: usize) {
        let f = &mut self.bdis[bdi].flusher;
        if f.running {
            return;
        }
        f.running = true;
        f.stage = Stage::Kupdate;
        f.timer_generation += 1;
        self.flusher_run(bdi);
    }

    /// The flusher's periodic wakeup.
    pub(super) fn flusher_timer(&mut self, bdi: usize, generation: u32) {
        let f = &self.bdis[bdi].flusher;
        if f.running || f.timer_generation != generation {
            return;
        }
        self.bdi_start_background_writeback(bdi);
    }

    /// Mirrors `over_bground_thresh()`, with patch 11's per-bdi check.
    fn over_bground_thresh(&mut self, bdi: usize) -> bool {
        let background = self.vm.limits.background;
        if self.vm.nr_file_dirty + self.vm.nr_unstable > background {
            return true;
        }
        self.patches >= 11 && self.bdis[bdi].reclaimable > self.bdi_dirty_limit(bdi, background)
    }

    /// Runs the flusher until it blocks on the device queue or sleeps.
    fn flusher_run(&mut self, bdi: usize) {
        loop {
            if self.bdis[bdi].flusher.work.is_some() {
                if self.wb_writeback(bdi) {
                    self.bdis[bdi].flusher.blocked = true;
                    return;
                }
                self.bdis[bdi].flusher.work = None;
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
                    let generation = f.timer_generation;
                    let b = &self.bdis[bdi];
                    if !b.dirty_inodes.is_empty() {
                        let at = self.now + interval * super::config::NS_PER_SEC / hz;
                        self.schedule(at, Event::FlusherWake(bdi as u32, generation));
                    }
                    return;
                }
            }
        }
    }

    fn start_work(&mut self, bdi: usize, kind: WorkKind, nr_pages: i64) {
        let start = self.jiffies();
        self.bdis[bdi].flusher.work = Some(Work { kind, nr_pages, start, pass: None });
    }

    /// Mirrors the loop of `wb_writeback()`. Returns true when it blocks on
    /// the device queue, false when the work is done.
    fn wb_writeback(&mut self, bdi: usize) -> bool {
        loop {
            let now = self.jiffies();
            let work = self.bdis[bdi].flusher.work.as_ref().expect("a work is in progress");
            if work.pass.is_none() {
                let kind = work.kind;
                if work.nr_pages <= 0 {
                    return false;
                }
                if kind == WorkKind::Background && !self.over_bground_thresh(bdi) {
                    return false;
                }
                // queue_io(): the inodes this pass may write.
                let expire = DIRTY_EXPIRE_CENTISECS * self.hz / 100;
                let b = &mut self.bdis[bdi];
                let mut inodes = VecDeque::new();
                match kind {
                    WorkKind::Background => std::mem::swap(&mut inodes, &mut b.dirty_inodes),
                    WorkKind::Kupdate => {
                        let older_than = now.saturating_sub(expire);
                        let inode_table = &self.inodes;
                        let (old, young): (VecDeque<u32>, VecDeque<u32>) =
                            b.dirty_inodes.drain(..).partition(|&i| inode_table[i as usize].dirtied_when <= older_than);
                        inodes = old;
                        b.dirty_inodes = young;
                    }
                }
                let work = b.flusher.work.as_mut().expect("a work is in progress");
                work.pass = Some(Pass { start: now, wrote: 0, inodes, current: None });
            }
            match self.writeback_pass(bdi) {
                PassEnd::Blocked => return true,
                PassEnd::Done(wrote) => {
                    let start = self.bdis[bdi].flusher.work.as_ref().expect("a work is in progress").start;
                    self.bdi_update_bandwidth(bdi, 0, 0, 0, 0, 0, start);
                    if wrote == 0 {
                        return false;
                    }
                }
            }
        }
    }

    /// Mirrors `__writeback_inodes_wb()` / `writeback_sb_inodes()`.
    fn writeback_pass(&mut self, bdi: usize) -> PassEnd {
        loop {
            let now = self.jiffies();
            let hz = self.hz;
            let avg_bw = self.bdis[bdi].avg_write_bandwidth;
            let global_limit = self.vm.global_dirty_limit;
            let b = &mut self.bdis[bdi];
            let work = b.flusher.work.as_mut().expect("a work is in progress");
            let pass = work.pass.as_mut().expect("a pass is in progress");
            let (inode, mut chunk_left) = match pass.current {
                Some(c) => c,
                None => match pass.inodes.pop_front() {
                    Some(i) => (i, pw::writeback_chunk_size(avg_bw, global_limit, work.nr_pages as u64)),
                    None => {
                        let wrote = pass.wrote;
                        work.pass = None;
                        return PassEnd::Done(wrote);
                    }
                },
            };
            // writeback_single_inode(): submit up to the chunk.
            let mut written = 0;
            loop {
                let dirty = self.inodes[inode as usize].dirty;
                if chunk_left == 0 || dirty == 0 {
                    break;
                }
                if self.bdis[bdi].device.is_full() {
                    let pass = self.pass_mut(bdi);
                    pass.current = Some((inode, chunk_left));
                    pass.wrote += written;
                    self.bdis[bdi].flusher.work.as_mut().expect("work").nr_pages -= written as i64;
                    return PassEnd::Blocked;
                }
                let max_request = self.bdis[bdi].device.config.max_request_pages;
                let n = chunk_left.min(dirty).min(max_request);
                self.submit_write(bdi, inode, n, Submitter::Flusher);
                self.bdis[bdi].flusher.submitted += n;
                chunk_left -= n;
                written += n;
            }
            // Requeue: still dirty inodes go to the tail, clean ones leave.
            let clean = self.inodes[inode as usize].dirty == 0;
            let b = &mut self.bdis[bdi];
            if clean {
                self.inodes[inode as usize].queued = false;
            } else {
                b.dirty_inodes.push_back(inode);
            }
            let work = b.flusher.work.as_mut().expect("a work is in progress");
            work.nr_pages -= written as i64;
            let nr_pages = work.nr_pages;
            let pass = work.pass.as_mut().expect("a pass is in progress");
            pass.current = None;
            pass.wrote += written + u64::from(clean);
            if pass.wrote > 0 && (now > pass.start + hz / 10 || nr_pages <= 0) {
                // Unvisited inodes stay first in line for the next pass.
                let rest = std::mem::take(&mut pass.inodes);
                let wrote = pass.wrote;
                work.pass = None;
                for i in rest.into_iter().rev() {
                    b.dirty_inodes.push_front(i);
                }
                return PassEnd::Done(wrote);
            }
        }
    }

    fn pass_mut(&mut self, bdi: usize) -> &mut Pass {
        self.bdis[bdi].flusher.work.as_mut().and_then(|w| w.pass.as_mut()).expect("a pass is in progress")
    }

    /// Moves `pages` dirty pages of `inode` to writeback and queues them
    /// on the device as one request.
    pub(super) fn submit_write(&mut self, bdi: usize, inode: u32, pages: u64, submitter: Submitter) {
        let ino = &mut self.inodes[inode as usize];
        let offset = ino.next_write;
        ino.dirty -= pages;
        ino.writeback += pages;
        ino.next_write += pages;
        self.vm.nr_file_dirty -= pages;
        self.vm.nr_writeback += pages;
        let b = &mut self.bdis[bdi];
        b.reclaimable -= pages;
        b.writeback += pages;
        let request = Request { inode, offset, pages, submitter };
        if let Some(service) = b.device.submit(request, &mut self.rng) {
            self.schedule_in(service, Event::DeviceDone(bdi as u32));
        }
    }

    /// A request completed: its pages are clean and count as written.
    pub(super) fn device_done(&mut self, bdi: usize) {
        let Some((done, next)) = self.bdis[bdi].device.complete(&mut self.rng) else {
            return;
        };
        if let Some(service) = next {
            self.schedule_in(service, Event::DeviceDone(bdi as u32));
        }
        let pages = done.pages;
        self.inodes[done.inode as usize].writeback -= pages;
        self.vm.nr_writeback -= pages;
        let b = &mut self.bdis[bdi];
        b.writeback -= pages;
        b.written += pages;
        self.vm.completions.inc(&mut b.completions, pages);
        if b.flusher.blocked {
            b.flusher.blocked = false;
            self.flusher_run(bdi);
        }
    }
}

/// How a writeback pass stopped.
enum PassEnd {
    /// Waiting for a free request slot.
    Blocked,
    /// Finished, having written this many pages plus inodes cleaned.
    Done(u64),
}
