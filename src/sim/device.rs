//! Device models: a request queue in front of a disk that serves one
//! request at a time.
//!
//! Writers (the flusher, and in IO-full mode the throttled tasks) submit
//! requests of up to `max_request_pages` contiguous pages of one file. The
//! queue holds `queue_depth` requests, the one in service included; a
//! writer that finds it full blocks until a completion frees a slot, like
//! `get_request_wait()`. A rotating disk pays a seek whenever a request
//! does not continue where the previous one ended.

use std::collections::VecDeque;

use super::config::{DeviceConfig, DeviceKind, NS_PER_SEC};
use super::kernel::PAGE_SIZE;
use super::rng::SimRng;

/// Who submitted a request, so that its completion can wake the right writer.
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
    /// First page within the file [pages].
    pub offset: u64,
    /// Length [pages].
    pub pages: u64,
    /// Who submitted it.
    pub submitter: Submitter,
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
    /// Seeks so far.
    pub seeks: u64,
    /// Time spent transferring or seeking [ns].
    pub busy_ns: u64,
}

impl Device {
    /// A device with an empty queue.
    pub fn new(config: DeviceConfig) -> Self {
        Device { config, queue: VecDeque::new(), busy: None, head: None, seeks: 0, busy_ns: 0 }
    }

    /// Requests queued or in service.
    pub fn in_flight(&self) -> usize {
        self.queue.len() + usize::from(self.busy.is_some())
    }

    /// True when a writer must wait for a free request slot.
    pub fn is_full(&self) -> bool {
        self.in_flight() >= self.config.queue_depth
    }

    /// Pages queued or in service [pages].
    pub fn pages_in_flight(&self) -> u64 {
        self.queue.iter().map(|r| r.pages).sum::<u64>() + self.busy.map_or(0, |r| r.pages)
    }

    /// Queues a request. When the device was idle it starts at once and the
    /// time its service takes is returned [ns].
    pub fn submit(&mut self, request: Request, rng: &mut SimRng) -> Option<u64> {
        if self.busy.is_some() {
            self.queue.push_back(request);
            None
        } else {
            Some(self.start(request, rng))
        }
    }

    /// Ends the request in service and starts the next one. Returns the
    /// finished request and, if another started, its service time [ns].
    pub fn complete(&mut self, rng: &mut SimRng) -> Option<(Request, Option<u64>)> {
        let done = self.busy.take()?;
        let next = self.queue.pop_front().map(|r| self.start(r, rng));
        Some((done, next))
    }

    fn start(&mut self, request: Request, rng: &mut SimRng) -> u64 {
        let c = &self.config;
        let bytes = (request.pages * PAGE_SIZE) as f64;
        let spread = 1.0 + c.noise * (2.0 * rng.uniform() - 1.0);
        let mut ns = bytes / c.bandwidth * NS_PER_SEC as f64 * spread;
        let continues = self.head == Some((request.inode, request.offset));
        if !continues && c.seek_ns > 0.0 {
            self.seeks += 1;
            ns += c.seek_ns * (0.5 + rng.uniform());
        }
        if c.kind == DeviceKind::UsbKey && rng.uniform() < 0.02 {
            // Flash translation layer housekeeping: an occasional long stall.
            ns += 50.0e6 * rng.uniform();
        }
        self.head = Some((request.inode, request.offset + request.pages));
        self.busy = Some(request);
        let ns = ns.max(1.0) as u64;
        self.busy_ns += ns;
        ns
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(inode: u32, offset: u64) -> Request {
        Request { inode, offset, pages: 128, submitter: Submitter::Flusher }
    }

    #[test]
    fn sequential_requests_do_not_seek() {
        let mut rng = SimRng::new(1);
        let mut d = Device::new(DeviceConfig { noise: 0.0, ..DeviceConfig::hdd("sda") });
        let first = d.submit(req(1, 0), &mut rng).expect("idle device starts at once");
        assert_eq!(d.seeks, 1);
        assert!(d.submit(req(1, 128), &mut rng).is_none());
        let (done, next) = d.complete(&mut rng).expect("busy");
        assert_eq!(done, req(1, 0));
        // 512 KiB at 100 MiB/s = 5 ms, no seek.
        assert_eq!(next, Some(5_000_000));
        assert!(first > 5_000_000, "the first request seeks");
        assert_eq!(d.seeks, 1);
    }

    #[test]
    fn switching_files_costs_a_seek_and_the_queue_fills() {
        let mut rng = SimRng::new(1);
        let mut d = Device::new(DeviceConfig { queue_depth: 3, ..DeviceConfig::hdd("sda") });
        d.submit(req(1, 0), &mut rng);
        d.submit(req(2, 0), &mut rng);
        assert!(!d.is_full());
        d.submit(req(1, 128), &mut rng);
        assert!(d.is_full());
        assert_eq!(d.pages_in_flight(), 384);
        let (_, next) = d.complete(&mut rng).expect("busy");
        assert!(next.expect("queued") > 4_000_000 + 5_000_000 * 9 / 10);
        assert_eq!(d.seeks, 2);
    }
}
