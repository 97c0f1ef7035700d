//! Device models: a request queue in front of a disk that serves one
//! request at a time.
//!
//! Writers (the flusher, and in IO-full mode the throttled tasks) submit
//! requests of up to `max_request_pages` contiguous pages of one file. The
//! queue holds `queue_depth` requests, the one in service included; a
//! writer that finds it full waits in line for a free slot, like
//! `get_request_wait()`. The elevator serves a request that continues
//! where the head stopped when there is one, else the oldest. A rotating
//! disk pays for every move of the head: the filesystem decides how far
//! apart different files lie and how fragmented concurrent writes are, and
//! a move costs more the longer the run of one file before it.
//!
//! Disks may hang on one host controller, and there they slow each other
//! down: a request's transfer runs at the disk's own rate divided by
//! 1 + `contention` for each other disk transferring when it starts (a
//! RAID0's member disks count as that many). Two disks then write nearly
//! twice what one does, ten far less than ten times, as on the seed's
//! JBOD and RAID0 box (about 116, 105 and 68 MiB/s per disk with 2, 4
//! and 10); and a disk that idles gives the others only a little more
//! speed.

use std::collections::VecDeque;

pub use super::config::FsKind;
use super::config::{ControllerConfig, DeviceConfig, DeviceKind, NS_PER_SEC};
use super::engine::{Event, World};
use super::kernel::PAGE_SIZE;
use super::rng::SimRng;

/// A host controller and the transfers its disks have under way.
#[derive(Clone, Debug)]
pub struct Controller {
    /// Its parameters.
    pub config: ControllerConfig,
    /// Transfers started or planned on its disks: (start, end) \[ns\] and
    /// the disks each keeps busy.
    transfers: Vec<(u64, u64, u32)>,
}

impl Controller {
    /// An idle controller.
    pub fn new(config: ControllerConfig) -> Self {
        Controller { config, transfers: Vec::new() }
    }

    /// Disks transferring at `t` \[ns\].
    pub fn transferring(&self, t: u64) -> u32 {
        self.transfers.iter().filter(|&&(start, end, _)| start <= t && t < end).map(|&(.., disks)| disks).sum()
    }

    /// How much slower than its disks alone a transfer of `disks` disks
    /// starting at `t` runs: 1 + contention for each other disk then
    /// transferring. A disk that is seeking does not count.
    fn slowdown_at(&self, t: u64, disks: u32) -> f64 {
        1.0 + self.config.contention * f64::from(self.transferring(t) + disks.max(1) - 1)
    }

    /// Notes a transfer of `disks` disks from `start` to `end` \[ns\],
    /// forgetting those over by `now`.
    fn occupy(&mut self, now: u64, start: u64, end: u64, disks: u32) {
        self.transfers.retain(|&(_, e, _)| e > now);
        self.transfers.push((start, end, disks));
    }
}

/// Who submitted a request, so that a freed slot can wake the right writer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Submitter {
    /// The bdi's flusher thread.
    Flusher,
    /// A task doing foreground writeback (IO-full mode).
    Task(u32),
}

/// A write request: contiguous pages of one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    /// The file.
    pub inode: u32,
    /// First page within the file \[pages\].
    pub offset: u64,
    /// Length \[pages\].
    pub pages: u64,
    /// Who submitted it.
    pub submitter: Submitter,
    /// Pages scattered over the file (random writes): each is its own seek.
    pub scattered: bool,
    /// Pieces the filesystem split the request into on disk (1: contiguous).
    pub fragments: u32,
    /// When it was queued \[ns\].
    pub queued_at: u64,
}

/// A device and its queue.
#[derive(Clone, Debug)]
pub struct Device {
    /// Its parameters.
    pub config: DeviceConfig,
    /// Requests waiting, oldest first.
    queue: VecDeque<Request>,
    /// The request being written, if any.
    busy: Option<Request>,
    /// Where the head stopped: file and page after the last request.
    head: Option<(u32, u64)>,
    /// Writers waiting for a free request slot, first come first served.
    pub waiters: VecDeque<Submitter>,
    /// When the next journal commit and cache flush is due \[ns\].
    next_flush: u64,
    /// Journal commits and cache flushes so far.
    pub flushes: u64,
    /// Head moves so far.
    pub seeks: u64,
    /// Time spent transferring or seeking, counted in full when each
    /// request starts \[ns\].
    pub busy_ns: u64,
    /// When the request in service ends \[ns\].
    busy_until: u64,
    /// When the request in service started \[ns\].
    pub started_at: u64,
    /// Pages written to the file at the head since the head last moved.
    run_pages: u64,
}

impl Device {
    /// A device with an empty queue.
    pub fn new(config: DeviceConfig) -> Self {
        Device {
            config,
            queue: VecDeque::new(),
            busy: None,
            head: None,
            waiters: VecDeque::new(),
            next_flush: 0,
            flushes: 0,
            seeks: 0,
            busy_ns: 0,
            busy_until: 0,
            started_at: 0,
            run_pages: 0,
        }
    }

    /// Requests queued or in service.
    pub fn in_flight(&self) -> usize {
        self.queue.len() + usize::from(self.busy.is_some())
    }

    /// True when a writer must wait for a free request slot.
    pub fn is_full(&self) -> bool {
        self.in_flight() >= self.config.queue_depth
    }

    /// Pages queued or in service \[pages\].
    pub fn pages_in_flight(&self) -> u64 {
        self.queue.iter().map(|r| r.pages).sum::<u64>() + self.busy.map_or(0, |r| r.pages)
    }

    /// Pages of the request in service \[pages\].
    pub fn busy_pages(&self) -> u64 {
        self.busy.map_or(0, |r| r.pages)
    }

    /// The file of the request in service (0 when idle).
    pub fn busy_inode(&self) -> u32 {
        self.busy.map_or(0, |r| r.inode)
    }

    /// Puts a writer in line for a free slot (once).
    pub fn wait_for_slot(&mut self, who: Submitter) {
        if !self.waiters.contains(&who) {
            self.waiters.push_back(who);
        }
    }

    /// Queues a request at time `now` \[ns\]. When the device was idle it
    /// starts at once and the time its service takes is returned \[ns\].
    /// `bus` is the controller it hangs on, if it shares one.
    pub fn submit(
        &mut self,
        request: Request,
        now: u64,
        rng: &mut SimRng,
        bus: Option<&mut Controller>,
    ) -> Option<u64> {
        if self.busy.is_some() {
            self.queue.push_back(request);
            None
        } else {
            Some(self.start(request, now, rng, bus))
        }
    }

    /// Ends the request in service at `now` and starts the next one.
    /// Returns the finished request and, if another started, its service
    /// time \[ns\].
    pub fn complete(
        &mut self,
        now: u64,
        rng: &mut SimRng,
        bus: Option<&mut Controller>,
    ) -> Option<(Request, Option<u64>)> {
        let done = self.busy.take()?;
        let next = self.next_request().map(|r| self.start(r, now, rng, bus));
        Some((done, next))
    }

    /// The elevator: a request that continues at the head, else the oldest.
    /// An NFS link has none.
    fn next_request(&mut self) -> Option<Request> {
        if self.config.kind == DeviceKind::Nfs {
            // RPCs leave in the order they were queued.
            return self.queue.pop_front();
        }
        if let Some((inode, end)) = self.head
            && let Some(i) = self.queue.iter().position(|r| r.inode == inode && r.offset == end && !r.scattered)
        {
            return self.queue.remove(i);
        }
        self.queue.pop_front()
    }

    /// Starts `request` at `now`: a journal commit if one is due, the head
    /// move, then the transfer. Returns the time it takes \[ns\].
    fn start(&mut self, request: Request, now: u64, rng: &mut SimRng, bus: Option<&mut Controller>) -> u64 {
        let c = &self.config;
        let fs = c.fs.model();
        // A journal commit that came due holds up the data: the journal is
        // written and the drive's write cache flushed first.
        let mut flush = 0.0;
        if fs.commit_interval_ns > 0 && c.flush_ns > 0.0 {
            if self.next_flush == 0 {
                self.next_flush = fs.commit_interval_ns;
            }
            if now >= self.next_flush {
                flush = c.flush_ns * fs.commit_cost * (0.5 + rng.uniform());
                self.flushes += 1;
                self.next_flush = now + fs.commit_interval_ns;
            }
        }
        let bytes = (request.pages * PAGE_SIZE) as f64;
        let spread = 1.0 + c.noise * (2.0 * rng.uniform() - 1.0);
        let mut seek = 0.0;
        if c.seek_ns > 0.0 {
            // Head moves, each priced in average seeks.
            let (count, cost) = if request.scattered {
                // Random pages: the elevator sorts them, each is a short seek.
                (request.pages, request.pages as f64 * 0.5)
            } else {
                let switch = self.head != Some((request.inode, request.offset));
                let extra = request.fragments.saturating_sub(1) as u64;
                let cost = if switch { fs.switch_seeks * switch_reach(self.run_pages) } else { 0.0 }
                    + extra as f64 * fs.fragment_seeks;
                (u64::from(switch && fs.switch_seeks > 0.0) + extra, cost)
            };
            if cost > 0.0 {
                self.seeks += count;
                seek = c.seek_ns * cost * (0.5 + rng.uniform());
            }
        }
        let mut stall = 0.0;
        if c.kind == DeviceKind::UsbKey && rng.uniform() < 0.02 {
            // Flash translation layer housekeeping: an occasional long stall.
            stall = 50.0e6 * rng.uniform();
        }
        // The transfer follows the commit and the head move; on a shared
        // controller the disks transferring at that time slow it down.
        let transfer_at = now + (flush + seek + stall) as u64;
        let rate = c.bandwidth / bus.as_ref().map_or(1.0, |b| b.slowdown_at(transfer_at, c.disks));
        let transfer = bytes / rate * NS_PER_SEC as f64 * spread * fs.transfer_overhead;
        if let Some(b) = bus {
            b.occupy(now, transfer_at, transfer_at + transfer as u64, c.disks);
        }
        let ns = transfer + seek + stall;
        if self.head == Some((request.inode, request.offset)) {
            self.run_pages += request.pages;
        } else {
            self.run_pages = request.pages;
        }
        self.head = Some((request.inode, request.offset + request.pages));
        self.busy = Some(request);
        self.started_at = now;
        let ns = (ns + flush).max(1.0) as u64;
        self.busy_ns += ns;
        self.busy_until = now + ns;
        ns
    }

    /// Time the device spent seeking or transferring up to `now` \[ns\]:
    /// what iostat's %util measures.
    pub fn busy_ns_at(&self, now: u64) -> u64 {
        let ahead = if self.busy.is_some() { self.busy_until.saturating_sub(now) } else { 0 };
        self.busy_ns - ahead
    }
}

impl World {
    /// Queues `request` on `bdi`'s device; when it starts at once, its
    /// completion is scheduled.
    pub(super) fn device_submit(&mut self, bdi: usize, request: Request) {
        let b = &mut self.bdis[bdi];
        let bus = b.device.config.controller.map(|i| &mut self.controllers[i]);
        if let Some(service) = b.device.submit(request, self.now, &mut self.rng, bus) {
            let service = service + self.server_delay(bdi);
            self.schedule_in(service, Event::DeviceDone(bdi as u32));
        }
    }

    /// Ends the request in service on `bdi`'s device and starts the next,
    /// scheduling its completion. Returns the finished request and when
    /// its service started \[ns\].
    pub(super) fn device_complete(&mut self, bdi: usize) -> Option<(Request, u64)> {
        let b = &mut self.bdis[bdi];
        let started = b.device.started_at;
        let bus = b.device.config.controller.map(|i| &mut self.controllers[i]);
        let (done, next) = b.device.complete(self.now, &mut self.rng, bus)?;
        if let Some(service) = next {
            let service = service + self.server_delay(bdi);
            self.schedule_in(service, Event::DeviceDone(bdi as u32));
        }
        Some((done, started))
    }

    /// The host controllers.
    pub fn controllers(&self) -> &[Controller] {
        &self.controllers
    }
}

/// A file switch after a run this long costs nothing extra \[pages\]: 0.5 MiB.
const SHORT_SWITCH_PAGES: u64 = 128;
/// A file switch after a run this long costs the filesystem's full switch
/// \[pages\]: 6 MiB.
const FULL_SWITCH_PAGES: u64 = 1536;

/// The share of the filesystem's full file switch that leaving a run of
/// `run_pages` costs. Delayed allocation lays out what is written of a
/// file in one go as one piece, so the farther the head has run, the
/// farther the next file's write point: (0.5 MiB + the run) / 6 MiB, at
/// most all of it. The two sizes are fitted to the seed's tables: tiny
/// chunks of many files (thresholds of a few MiB) cost little per switch,
/// 4 MiB chunks cost a fifth of the 1-dd rate with 100 dd.
fn switch_reach(run_pages: u64) -> f64 {
    ((SHORT_SWITCH_PAGES + run_pages) as f64 / FULL_SWITCH_PAGES as f64).min(1.0)
}

/// How a filesystem shapes the cost of writing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FsModel {
    /// Seeks (in average-seek units) to move from one file to another.
    pub switch_seeks: f64,
    /// Seeks per extra on-disk fragment of a request.
    pub fragment_seeks: f64,
    /// Transfer time multiplier for journal and metadata traffic.
    pub transfer_overhead: f64,
    /// With several files dirtied at once, allocation at write() time
    /// interleaves them on disk in windows of this many pages; 0: never.
    pub interleave_pages: u64,
    /// Pages per call into the ratelimited entry for large writes.
    pub dirty_batch_pages: u64,
    /// Time between journal commits (or btrfs transactions) \[ns\]; 0: none.
    pub commit_interval_ns: u64,
    /// A commit's cost relative to the device's flush time (ext3's ordered
    /// data makes its commits heavier).
    pub commit_cost: f64,
}

impl FsKind {
    /// The model of this filesystem. Tuned so that the relative trends of
    /// the seed's comparison table hold (1 dd vs 10 and 100 dd): btrfs
    /// allocates at writeback time wherever the disk head is, ext4 and xfs
    /// delay allocation but keep files apart, ext3 allocates at write()
    /// time and pays for a journal.
    pub fn model(self) -> FsModel {
        match self {
            FsKind::Xfs => FsModel {
                switch_seeks: 2.6,
                fragment_seeks: 0.0,
                transfer_overhead: 1.07,
                interleave_pages: 0,
                dirty_batch_pages: 1,
                commit_interval_ns: 5_000_000_000,
                commit_cost: 1.0,
            },
            FsKind::Ext4 => FsModel {
                switch_seeks: 1.8,
                fragment_seeks: 0.0,
                transfer_overhead: 0.97,
                interleave_pages: 0,
                dirty_batch_pages: 1,
                commit_interval_ns: 5_000_000_000,
                commit_cost: 1.0,
            },
            FsKind::Ext3 => FsModel {
                switch_seeks: 1.8,
                fragment_seeks: 0.12,
                transfer_overhead: 1.2,
                interleave_pages: 96,
                dirty_batch_pages: 1,
                commit_interval_ns: 5_000_000_000,
                commit_cost: 2.5,
            },
            FsKind::Btrfs => FsModel {
                switch_seeks: 0.0,
                fragment_seeks: 0.0,
                transfer_overhead: 0.98,
                interleave_pages: 0,
                dirty_batch_pages: 512,
                commit_interval_ns: 30_000_000_000,
                commit_cost: 3.0,
            },
            FsKind::Nfs => FsModel {
                switch_seeks: 0.0,
                fragment_seeks: 0.0,
                transfer_overhead: 1.0,
                interleave_pages: 0,
                dirty_batch_pages: 1,
                commit_interval_ns: 0,
                commit_cost: 0.0,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(inode: u32, offset: u64) -> Request {
        Request {
            inode,
            offset,
            pages: 128,
            submitter: Submitter::Flusher,
            scattered: false,
            fragments: 1,
            queued_at: 0,
        }
    }

    fn disk(fs: FsKind) -> DeviceConfig {
        DeviceConfig { noise: 0.0, fs, flush_ns: 0.0, ..DeviceConfig::hdd("sda") }
    }

    /// 512 KiB at 100 MiB/s: 5 ms, times the filesystem's overhead.
    fn transfer(fs: FsKind) -> u64 {
        (5_000_000.0 * fs.model().transfer_overhead) as u64
    }

    #[test]
    fn sequential_requests_do_not_seek() {
        let mut rng = SimRng::new(1);
        let mut d = Device::new(disk(FsKind::Ext4));
        let first = d.submit(req(1, 0), 0, &mut rng, None).expect("idle device starts at once");
        assert_eq!(d.seeks, 1);
        assert!(d.submit(req(1, 128), 0, &mut rng, None).is_none());
        let (done, next) = d.complete(0, &mut rng, None).expect("busy");
        assert_eq!(done, req(1, 0));
        // 512 KiB at 100 MiB/s = 5 ms, no seek.
        assert_eq!(next, Some(transfer(FsKind::Ext4)));
        assert!(first > transfer(FsKind::Ext4), "the first request seeks");
        assert_eq!(d.seeks, 1);
    }

    #[test]
    fn the_elevator_prefers_the_request_at_the_head() {
        let mut rng = SimRng::new(1);
        let mut d = Device::new(disk(FsKind::Ext4));
        d.submit(req(1, 0), 0, &mut rng, None);
        d.submit(req(2, 0), 0, &mut rng, None);
        d.submit(req(1, 128), 0, &mut rng, None);
        assert_eq!(d.pages_in_flight(), 384);
        let (_, next) = d.complete(0, &mut rng, None).expect("busy");
        assert_eq!(next, Some(transfer(FsKind::Ext4)), "file 1 continues without a seek");
        let (done, _) = d.complete(0, &mut rng, None).expect("busy");
        assert_eq!(done, req(1, 128));
        assert_eq!(d.seeks, 2, "then file 2 costs a seek");
    }

    #[test]
    fn busy_time_counts_service_up_to_now_and_not_idle_time() {
        let mut rng = SimRng::new(1);
        let mut d = Device::new(disk(FsKind::Btrfs));
        let t = d.submit(req(1, 0), 0, &mut rng, None).expect("idle device starts at once");
        // Half way through its only request the disk has been busy half of it.
        assert_eq!(d.busy_ns_at(t / 2), t / 2);
        assert!(d.complete(t, &mut rng, None).expect("busy").1.is_none(), "nothing else queued");
        // Idle from t to 3t: %util over 3t is a third.
        assert_eq!(d.busy_ns_at(3 * t), t);
        let u = d.submit(req(1, 128), 3 * t, &mut rng, None).expect("idle again");
        assert_eq!(d.busy_ns_at(3 * t + u), t + u);
    }

    #[test]
    fn a_full_queue_makes_writers_wait_in_line() {
        let mut rng = SimRng::new(1);
        let mut d = Device::new(DeviceConfig { queue_depth: 2, ..disk(FsKind::Xfs) });
        d.submit(req(1, 0), 0, &mut rng, None);
        d.submit(req(1, 128), 0, &mut rng, None);
        assert!(d.is_full());
        d.wait_for_slot(Submitter::Task(3));
        d.wait_for_slot(Submitter::Flusher);
        d.wait_for_slot(Submitter::Task(3));
        assert_eq!(d.waiters, [Submitter::Task(3), Submitter::Flusher]);
    }

    #[test]
    fn a_due_journal_commit_holds_up_the_next_request() {
        let mut rng = SimRng::new(1);
        let mut d = Device::new(DeviceConfig { flush_ns: 150e6, ..disk(FsKind::Ext4) });
        d.submit(req(1, 0), 0, &mut rng, None);
        d.submit(req(1, 128), 0, &mut rng, None);
        let (_, next) = d.complete(6_000_000_000, &mut rng, None).expect("busy");
        let t = next.expect("started");
        assert!(t > 75_000_000 && t < 230_000_000, "{t}");
        assert_eq!(d.flushes, 1);
    }

    #[test]
    fn disks_on_one_controller_slow_each_other_while_transferring() {
        let mut rng = SimRng::new(1);
        // Two 100 MiB/s disks, each slowing the other by a tenth.
        let mut bus = Controller::new(ControllerConfig { name: "bus".into(), contention: 0.1 });
        let config = DeviceConfig { controller: Some(0), ..disk(FsKind::Btrfs) };
        let (mut a, mut b) = (Device::new(config.clone()), Device::new(config));
        let alone = a.submit(req(1, 0), 0, &mut rng, Some(&mut bus)).expect("idle");
        assert_eq!(alone, transfer(FsKind::Btrfs), "alone it gets its own rate");
        assert_eq!(bus.transferring(1), 1);
        // The second disk starts while the first transfers: 10% slower.
        let shared = b.submit(req(2, 0), 1, &mut rng, Some(&mut bus)).expect("idle");
        assert_eq!(shared, (1.1 * transfer(FsKind::Btrfs) as f64) as u64);
        assert_eq!(bus.transferring(2), 2);
        // Once the first transfer is over, the next one runs alone again.
        assert_eq!(bus.transferring(alone + 1), 1);
        // A RAID0 of four: its members slow each other (three others) and
        // count as four disks to a disk starting beside it.
        let raid = DeviceConfig { disks: 4, bandwidth: 4.0 * 100.0 * 1048576.0, ..disk(FsKind::Btrfs) };
        let mut r = Device::new(DeviceConfig { controller: Some(0), ..raid });
        let mut bus = Controller::new(ControllerConfig { name: "bus".into(), contention: 0.1 });
        let striped = r.submit(Request { pages: 512, ..req(3, 0) }, 0, &mut rng, Some(&mut bus)).expect("idle");
        assert_eq!(striped, (1.3 * transfer(FsKind::Btrfs) as f64) as u64, "512 pages on four disks");
        assert_eq!(bus.transferring(1), 4);
        let mut c = Device::new(DeviceConfig { controller: Some(0), ..disk(FsKind::Btrfs) });
        let beside = c.submit(req(1, 0), 1, &mut rng, Some(&mut bus)).expect("idle");
        assert_eq!(beside, (1.4 * transfer(FsKind::Btrfs) as f64) as u64);
    }

    #[test]
    fn filesystems_price_file_switches_differently() {
        let cost = |fs: FsKind| {
            let mut rng = SimRng::new(1);
            let mut d = Device::new(disk(fs));
            d.submit(req(1, 0), 0, &mut rng, None);
            d.submit(req(2, 0), 0, &mut rng, None);
            d.complete(0, &mut rng, None).expect("busy").1.expect("second request")
        };
        assert_eq!(cost(FsKind::Btrfs), transfer(FsKind::Btrfs), "btrfs writes where the head is");
        assert!(cost(FsKind::Ext4) < cost(FsKind::Xfs), "ext4 keeps files closer than xfs");
        // ext3's journal makes every transfer slower.
        assert!(FsKind::Ext3.model().transfer_overhead > FsKind::Xfs.model().transfer_overhead);
        assert!(FsKind::Ext3.model().interleave_pages > 0, "ext3 interleaves concurrent files");
    }
}
