//! The world's pending events, ordered by time, ties in the order they
//! were scheduled.
//!
//! Events cluster at a few instants: a sleeping task wakes at the first
//! nanosecond of a jiffy, so with thousands of tasks hundreds wake at the
//! same instant. The queue keeps each distinct instant once, in a binary
//! heap, with a first-in first-out bucket of the events due then. Adding
//! an event at an instant already pending is a hash lookup and a push;
//! taking the next event pops the front of the earliest bucket. Only a new
//! instant costs a heap operation, over the instants rather than the
//! events.
//!
//! Every event gets a sequence number when it is scheduled; within an
//! instant the bucket holds them in that order, which is the order they
//! come out in. A caller that keeps a timer of its own outside the queue
//! takes a number with [`EventQueue::next_seq`] and compares with
//! [`EventQueue::peek`] to merge the two in the same order.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};

/// The room a free bucket keeps \[events\]: an instant with more events
/// grows its bucket again, a few doublings for thousands.
const KEPT_CAPACITY: usize = 32;

/// A queue of events of type `E`, each due at an instant \[ns\].
#[derive(Clone, Debug)]
pub struct EventQueue<E> {
    /// The distinct pending instants, earliest on top, each with the index
    /// of its bucket.
    instants: BinaryHeap<Reverse<(u64, u32)>>,
    /// The bucket of each pending instant.
    bucket_of: HashMap<u64, u32, BuildHasherDefault<InstantHasher>>,
    /// The instant last pushed to and its bucket, while it is pending:
    /// tasks that wake together mostly sleep until the same instant again.
    last: Option<(u64, u32)>,
    /// Events due at one instant with their sequence numbers, in order.
    buckets: Vec<VecDeque<(u64, E)>>,
    /// Buckets not in use, kept with their capacity.
    free: Vec<u32>,
    /// The last sequence number handed out.
    seq: u64,
    /// Events queued.
    len: usize,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue {
            instants: BinaryHeap::new(),
            bucket_of: HashMap::default(),
            last: None,
            buckets: Vec::new(),
            free: Vec::new(),
            seq: 0,
            len: 0,
        }
    }
}

impl<E> EventQueue<E> {
    /// The next sequence number: events (and outside timers) that fall on
    /// the same instant come out in the order of their numbers.
    pub fn next_seq(&mut self) -> u64 {
        self.seq += 1;
        self.seq
    }

    /// Schedules `event` at instant `at` \[ns\], after everything already
    /// scheduled for that instant.
    pub fn push(&mut self, at: u64, event: E) {
        let seq = self.next_seq();
        let b = match self.last {
            Some((last, b)) if last == at => b,
            _ => self.bucket(at),
        };
        self.last = Some((at, b));
        self.buckets[b as usize].push_back((seq, event));
        self.len += 1;
    }

    /// The bucket of instant `at`, a new one if it is not pending.
    fn bucket(&mut self, at: u64) -> u32 {
        match self.bucket_of.get(&at) {
            Some(&b) => b,
            None => {
                let b = match self.free.pop() {
                    Some(b) => b,
                    None => {
                        self.buckets.push(VecDeque::new());
                        (self.buckets.len() - 1) as u32
                    }
                };
                self.bucket_of.insert(at, b);
                self.instants.push(Reverse((at, b)));
                b
            }
        }
    }

    /// The instant \[ns\] and sequence number of the next event.
    pub fn peek(&self) -> Option<(u64, u64)> {
        let &Reverse((at, b)) = self.instants.peek()?;
        let &(seq, _) = self.buckets[b as usize].front().expect("a pending instant has an event");
        Some((at, seq))
    }

    /// Takes the next event and its instant \[ns\].
    pub fn pop(&mut self) -> Option<(u64, E)> {
        let &Reverse((at, b)) = self.instants.peek()?;
        let bucket = &mut self.buckets[b as usize];
        let (_, event) = bucket.pop_front().expect("a pending instant has an event");
        if bucket.is_empty() {
            // A bucket that once held thousands of wakeups gives most of
            // its room back: free buckets are taken in any order, so each
            // in time grew to the largest instant, and a world of 10 000
            // tasks kept hundreds of MiB of empty room.
            if bucket.capacity() > KEPT_CAPACITY {
                *bucket = VecDeque::new();
            }
            self.instants.pop();
            self.bucket_of.remove(&at);
            self.free.push(b);
            if self.last.is_some_and(|(last, _)| last == at) {
                self.last = None;
            }
        }
        self.len -= 1;
        Some((at, event))
    }

    /// Events queued.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when nothing is queued.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Hashes an instant \[ns\] with one multiply and a fold, so that instants
/// on jiffy boundaries (multiples of a million) still spread over the
/// table's low and high bits.
#[derive(Clone, Copy, Debug, Default)]
pub struct InstantHasher(u64);

impl Hasher for InstantHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_u64(&mut self, n: u64) {
        let h = (self.0 ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = h ^ (h >> 32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_come_out_by_time_then_in_the_order_they_were_scheduled() {
        let mut q = EventQueue::default();
        for (at, e) in [(30, 'a'), (10, 'b'), (30, 'c'), (20, 'd'), (10, 'e'), (30, 'f')] {
            q.push(at, e);
        }
        assert_eq!(q.len(), 6);
        assert_eq!(q.peek(), Some((10, 2)));
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(order, [(10, 'b'), (10, 'e'), (20, 'd'), (30, 'a'), (30, 'c'), (30, 'f')]);
        assert!(q.is_empty() && q.peek().is_none());
    }

    #[test]
    fn an_instant_that_empties_and_comes_back_keeps_the_order() {
        let mut q = EventQueue::default();
        q.push(5, 1);
        q.push(7, 2);
        assert_eq!(q.pop(), Some((5, 1)));
        // 5 is gone; scheduling it again reuses the freed bucket.
        q.push(5, 3);
        q.push(7, 4);
        q.push(5, 5);
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(order, [(5, 3), (5, 5), (7, 2), (7, 4)]);
        assert_eq!(q.buckets.len(), 2, "buckets are reused, not reallocated");
    }

    /// The queue against a sort by (time, sequence), on random pushes and
    /// pops clustered on few instants as a world's are.
    #[test]
    fn matches_a_sort_by_time_and_sequence() {
        let mut q = EventQueue::default();
        let mut reference: Vec<(u64, u64)> = Vec::new();
        let mut x: u64 = 12345;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut now = 0;
        let mut n = 0u64;
        for _ in 0..20_000 {
            if next() % 3 != 0 {
                let at = now + (next() % 8) * 1_000_000 + if next() % 4 == 0 { next() % 1000 } else { 0 };
                n += 1;
                q.push(at, n);
                reference.push((at, n));
            } else if let Some((at, e)) = q.pop() {
                reference.sort_unstable();
                assert_eq!((at, e), reference.remove(0));
                now = at;
            }
        }
        reference.sort_unstable();
        let rest: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(rest, reference);
    }
}
