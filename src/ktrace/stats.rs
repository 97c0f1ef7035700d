//! Exact order statistics in bounded memory: a value → count map. The
//! traced quantities are integers with few distinct values (rates are
//! multiples of 4 KB/s, pauses whole jiffies), so the map stays small
//! however long the trace.

use std::collections::BTreeMap;

/// A distribution of integer values, exact.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dist {
    counts: BTreeMap<i64, u64>,
    n: u64,
}

impl Dist {
    /// Counts one value.
    pub fn add(&mut self, v: i64) {
        *self.counts.entry(v).or_default() += 1;
        self.n += 1;
    }

    /// Number of values.
    pub fn count(&self) -> u64 {
        self.n
    }

    /// The `k`-th smallest value, from 1.
    fn nth(&self, k: u64) -> Option<i64> {
        let mut seen = 0;
        for (&v, &c) in &self.counts {
            seen += c;
            if seen >= k {
                return Some(v);
            }
        }
        None
    }

    /// The median: the middle value, or the mean of the two middle values
    /// of an even count.
    pub fn median(&self) -> Option<f64> {
        if self.n == 0 {
            return None;
        }
        let lo = self.nth(self.n.div_ceil(2))?;
        let hi = self.nth(self.n / 2 + 1)?;
        Some((lo as f64 + hi as f64) / 2.0)
    }

    /// The nearest-rank quantile: the smallest value with at least `q` of
    /// the values at or below it (q in 0..=1).
    pub fn quantile(&self, q: f64) -> Option<i64> {
        if self.n == 0 {
            return None;
        }
        self.nth(((q * self.n as f64).ceil() as u64).clamp(1, self.n))
    }

    /// The largest value.
    pub fn max(&self) -> Option<i64> {
        self.counts.keys().next_back().copied()
    }

    /// How many values are at least `min`, and their sum.
    pub fn at_least(&self, min: i64) -> (u64, i64) {
        self.counts.range(min..).fold((0, 0), |(n, sum), (&v, &c)| (n + c, sum + v * c as i64))
    }

    /// The most frequent value (the smallest of equals).
    pub fn mode(&self) -> Option<i64> {
        self.counts.iter().max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0))).map(|(&v, _)| v)
    }
}

/// First, smallest and largest value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Extent {
    /// First value seen, smallest, largest.
    pub first: Option<i64>,
    pub min: Option<i64>,
    pub max: Option<i64>,
}

impl Extent {
    /// Notes one value.
    pub fn add(&mut self, v: i64) {
        self.first = self.first.or(Some(v));
        self.min = Some(self.min.map_or(v, |m| m.min(v)));
        self.max = Some(self.max.map_or(v, |m| m.max(v)));
    }
}

/// Greatest common divisor.
pub fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dist(values: &[i64]) -> Dist {
        let mut d = Dist::default();
        values.iter().for_each(|&v| d.add(v));
        d
    }

    #[test]
    fn medians_and_quantiles_by_hand() {
        assert_eq!(dist(&[]).median(), None);
        assert_eq!(dist(&[7]).median(), Some(7.0));
        assert_eq!(dist(&[3, 1, 2]).median(), Some(2.0));
        assert_eq!(dist(&[4, 1, 3, 2]).median(), Some(2.5));
        assert_eq!(dist(&[5, 5, 5, 9]).median(), Some(5.0));
        let d = dist(&(1..=100).collect::<Vec<_>>());
        assert_eq!(
            (d.quantile(0.5), d.quantile(0.9), d.quantile(0.99), d.max()),
            (Some(50), Some(90), Some(99), Some(100))
        );
        assert_eq!(dist(&[16, 16, 20]).quantile(0.5), Some(16));
        assert_eq!(dist(&[2, 9, 9, 2, 3]).mode(), Some(2));
        assert_eq!(dist(&[2, 9, 9, 2, 3]).at_least(3), (3, 21));
    }

    #[test]
    fn extents_keep_the_first_value() {
        let mut e = Extent::default();
        [5, 2, 9].iter().for_each(|&v| e.add(v));
        assert_eq!(e, Extent { first: Some(5), min: Some(2), max: Some(9) });
        assert_eq!(gcd(16, 20), 4);
    }
}
