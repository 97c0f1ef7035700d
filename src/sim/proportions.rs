//! Floating proportions (lib/proportions.c): each bdi's share of recent
//! page writeouts, which sets its share of the dirty threshold.
//!
//! Every completed page writeback counts one event locally (per bdi) and
//! globally. Time is measured in events: whenever the global count crosses
//! a multiple of half a period (`2^(shift-1)` events), every local count is
//! halved, lazily, the next time it is touched. A bdi's fraction is
//! `local / (period/2 + global mod period/2)`.
//!
//! The per-CPU counters of the kernel are summed exactly here.

/// `struct prop_global` and the shift of `struct prop_descriptor`.
#[derive(Clone, Debug)]
pub struct PropGlobal {
    /// Period shift: a half period is `2^(shift-1)` events.
    pub shift: i32,
    /// Events counted since boot \[events\].
    pub events: u64,
}

/// `struct prop_local_percpu`: one bdi's share.
#[derive(Clone, Debug, Default)]
pub struct PropLocal {
    /// Shift this counter was last normalised with.
    shift: i32,
    /// Global half-period mark at the last normalisation \[events\].
    period: u64,
    /// Local events, halved once per elapsed half period \[events\].
    events: u64,
}

impl PropGlobal {
    /// Mirrors `prop_descriptor_init()`.
    pub fn new(shift: i32) -> Self {
        PropGlobal { shift: shift.clamp(1, super::page_writeback::PROP_MAX_SHIFT), events: 0 }
    }

    /// Mirrors `prop_change_shift()`: rescales the global count so that the
    /// current position within the period is kept.
    pub fn change_shift(&mut self, shift: i32) {
        let shift = shift.clamp(1, super::page_writeback::PROP_MAX_SHIFT);
        let offset = self.shift - shift;
        if offset == 0 {
            return;
        }
        self.events =
            if offset < 0 { self.events.checked_shl((-offset) as u32).unwrap_or(0) } else { self.events >> offset };
        self.shift = shift;
    }

    /// Sets up a system that has been writing for a while: the global
    /// count sits at the start of a half period and each local count holds
    /// `shares[i]` of the last half period, so that bdi `i`'s fraction is
    /// `shares[i]` (shares summing to at most 1).
    pub fn warm_start(&mut self, locals: &mut [&mut PropLocal], shares: &[f64]) {
        let half = self.half_period();
        self.events = 2 * half;
        for (pl, share) in locals.iter_mut().zip(shares) {
            pl.shift = self.shift;
            pl.period = self.events;
            pl.events = (share.clamp(0.0, 1.0) * half as f64) as u64;
        }
    }

    fn half_period(&self) -> u64 {
        1u64 << (self.shift - 1)
    }

    /// Mirrors `prop_norm_percpu()`: catch up with missed half periods.
    fn normalise(&self, pl: &mut PropLocal) {
        let period = self.half_period();
        let global_period = self.events & !(period - 1);
        if pl.period == global_period {
            return;
        }
        // prop_adjust_shift()
        let offset = pl.shift - self.shift;
        if offset != 0 {
            pl.period =
                if offset < 0 { pl.period.checked_shl((-offset) as u32).unwrap_or(0) } else { pl.period >> offset };
            pl.shift = self.shift;
        }
        let missed = global_period.wrapping_sub(pl.period) >> (self.shift - 1);
        pl.events = if missed < 64 { pl.events >> missed } else { 0 };
        pl.period = global_period;
    }

    /// `n` times `__prop_inc_percpu()`: the local and global counts grow by
    /// `n`, halving the local count at each half-period crossing on the way.
    pub fn inc(&mut self, pl: &mut PropLocal, mut n: u64) {
        let period = self.half_period();
        while n > 0 {
            self.normalise(pl);
            let room = period - (self.events & (period - 1));
            let step = n.min(room);
            pl.events += step;
            self.events += step;
            n -= step;
        }
    }

    /// The fraction `fraction()` would return, without normalising the
    /// local counter in place (for display).
    pub fn fraction_peek(&self, pl: &PropLocal) -> (u64, u64) {
        let mut copy = pl.clone();
        self.fraction(&mut copy)
    }

    /// Mirrors `prop_fraction_percpu()`: `(numerator, denominator)`.
    pub fn fraction(&self, pl: &mut PropLocal) -> (u64, u64) {
        self.normalise(pl);
        let period_2 = self.half_period();
        (pl.events, period_2 + (self.events & (period_2 - 1)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_writer_owns_everything_after_a_period() {
        let mut g = PropGlobal::new(4); // half period 8
        let mut a = PropLocal::default();
        g.inc(&mut a, 5);
        assert_eq!(g.fraction(&mut a), (5, 8 + 5));
        g.inc(&mut a, 3); // global 8: a new half period starts, a halves lazily
        assert_eq!(g.fraction(&mut a), (4, 8));
        g.inc(&mut a, 100);
        let (n, d) = g.fraction(&mut a);
        assert!(n * 10 >= d * 9, "{n}/{d}");
    }

    #[test]
    fn warm_start_gives_each_bdi_its_share() {
        let mut g = PropGlobal::new(10);
        let (mut a, mut b) = (PropLocal::default(), PropLocal::default());
        g.warm_start(&mut [&mut a, &mut b], &[0.75, 0.25]);
        assert_eq!(g.fraction(&mut a), (384, 512));
        assert_eq!(g.fraction(&mut b), (128, 512));
        // Only b writes from now on: a halves at each half period.
        g.inc(&mut b, 512);
        assert_eq!(g.fraction(&mut a), (192, 512));
    }

    #[test]
    fn batched_increments_equal_single_ones() {
        let mut g1 = PropGlobal::new(5);
        let mut g2 = PropGlobal::new(5);
        let (mut a1, mut b1, mut a2, mut b2) = Default::default();
        for round in 0..50u64 {
            let na = (round * 7) % 23;
            let nb = (round * 5) % 11;
            g1.inc(&mut a1, na);
            for _ in 0..na {
                g2.inc(&mut a2, 1);
            }
            g1.inc(&mut b1, nb);
            for _ in 0..nb {
                g2.inc(&mut b2, 1);
            }
            assert_eq!(g1.fraction(&mut a1), g2.fraction(&mut a2));
            assert_eq!(g1.fraction(&mut b1), g2.fraction(&mut b2));
        }
    }

    #[test]
    fn an_idle_bdi_decays_by_half_each_half_period() {
        let mut g = PropGlobal::new(6); // half period 32
        let (mut a, mut b) = (PropLocal::default(), PropLocal::default());
        g.inc(&mut a, 16);
        g.inc(&mut b, 16); // global 32: a misses one half-period mark
        assert_eq!(g.fraction(&mut a), (8, 32));
        g.inc(&mut b, 64); // global 96: two more
        assert_eq!(g.fraction(&mut a), (2, 32));
        g.inc(&mut b, 32 * 70);
        assert_eq!(g.fraction(&mut a), (0, 32));
    }

    #[test]
    fn changing_the_shift_keeps_the_position_in_the_period() {
        let mut g = PropGlobal::new(10); // half period 512
        let mut a = PropLocal::default();
        g.inc(&mut a, 1000); // a: 512 halved once at 512, + 488 = 744
        assert_eq!(g.fraction(&mut a), (744, 512 + 488));
        g.change_shift(6); // events >> 4
        assert_eq!(g.events, 1000 >> 4);
        // Local counts are not rescaled: until they decay the fraction may
        // exceed 1 (bdi_dirty_limit() caps it at max_ratio).
        assert_eq!(g.fraction(&mut a), (744, 32 + 30));
        let mut b = PropLocal::default();
        g.inc(&mut b, 32 * 12);
        assert_eq!(g.fraction(&mut a), (744 >> 12, 32 + 30));
    }
}
