//! The one random generator of a world: ChaCha8, seeded from the
//! scenario's seed, so that a run is the same on every machine and with
//! every version of the dependencies.

use rand::rngs::ChaCha8Rng;
use rand::{Rng, SeedableRng};

/// Seeded random source for device noise and jitter.
#[derive(Debug)]
pub struct SimRng(ChaCha8Rng);

impl SimRng {
    /// A generator whose stream depends only on `seed`.
    pub fn new(seed: u64) -> Self {
        SimRng(ChaCha8Rng::seed_from_u64(seed))
    }

    /// Uniform in [0, 1), from the top 53 bits of one output word.
    pub fn uniform(&mut self) -> f64 {
        (self.0.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_other_seed_other_stream() {
        let (mut a, mut b, mut c) = (SimRng::new(7), SimRng::new(7), SimRng::new(8));
        let xs: Vec<f64> = (0..5).map(|_| a.uniform()).collect();
        let ys: Vec<f64> = (0..5).map(|_| b.uniform()).collect();
        let zs: Vec<f64> = (0..5).map(|_| c.uniform()).collect();
        assert_eq!(xs, ys);
        assert_ne!(xs, zs);
        assert!(xs.iter().all(|x| (0.0..1.0).contains(x)));
    }
}
