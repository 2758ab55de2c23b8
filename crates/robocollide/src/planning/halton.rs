//! [`Halton`]: the Halton sequence (Halton, *On the efficiency of certain quasi-random
//! sequences of points in evaluating multi-dimensional integrals*, Numerische Mathematik 2,
//! 1960), a deterministic low-discrepancy sampler, as VAMP's RRT-Connect samples (reset for
//! each problem).
//!
//! Point `n` (`n = 1, 2, …`) has coordinate `k` equal to the radical inverse of `n` in the
//! `k`-th odd prime base (see [`PRIMES`] for why not 2): `n`'s digits in that base mirrored about the radix point. Each
//! coordinate is then scaled from `[0, 1)` to its joint's bounds.
//!
//! The sequence keeps each coordinate's digits of `n` and counts them up with carries, so a
//! point costs no integer division (two per digit and coordinate, ~60 slow divisions per
//! Panda sample before); the radical inverse is summed from the kept digits in the same
//! order and with the same products as from `n` itself, so the points are the same bits.

use crate::math::Real;

/// The odd primes: one base per joint ([`Halton::new`] refuses more joints). Base 2 is left
/// out: its first digit is the point's parity, so with two trees taking turns every sample
/// of one tree would fall in one half of the first joint's range (on a wall test, start and
/// goal trees each only ever saw samples beyond the wall; on MotionBenchMaker one problem
/// went unsolved). Odd bases cycle through all digits on either parity.
const PRIMES: [u64; 16] = [3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59];

/// A Halton sequence over joint bounds.
#[derive(Debug, Clone)]
pub(super) struct Halton {
    bounds: Vec<(Real, Real)>,
    /// Per coordinate, the current point's index in its base, least significant digit first
    /// (no leading zeros; empty for point 0).
    digits: Vec<Vec<u8>>,
}

impl Halton {
    /// The sequence over `bounds` (one `(low, high)` per joint), or `None` for more joints than
    /// [`PRIMES`] has bases.
    pub(super) fn new(bounds: Vec<(Real, Real)>) -> Option<Self> {
        (bounds.len() <= PRIMES.len()).then(|| Self {
            digits: vec![Vec::new(); bounds.len()],
            bounds,
        })
    }

    /// The next point, scaled to the bounds.
    pub(super) fn next(&mut self) -> Vec<Real> {
        self.bounds
            .iter()
            .zip(&mut self.digits)
            .zip(PRIMES)
            .map(|((&(low, high), digits), base)| {
                count_up(digits, base as u8);
                low + (high - low) * mirrored(digits, base)
            })
            .collect()
    }
}

/// Adds one to the number whose digits in `base` are `digits` (least significant first).
fn count_up(digits: &mut Vec<u8>, base: u8) {
    for digit in digits.iter_mut() {
        *digit += 1;
        if *digit < base {
            return;
        }
        *digit = 0;
    }
    digits.push(1);
}

/// The digits (least significant first) mirrored about the radix point: the same sum, in the
/// same order, as [`radical_inverse`] of the number they spell.
fn mirrored(digits: &[u8], base: u64) -> Real {
    let (mut value, mut scale) = (0.0, 1.0);
    let inverse = 1.0 / base as Real;
    for &digit in digits {
        scale *= inverse;
        value += Real::from(digit) * scale;
    }
    value
}

/// `n`'s digits in `base` mirrored about the radix point, in `[0, 1)`.
#[cfg(test)]
fn radical_inverse(mut n: u64, base: u64) -> Real {
    let (mut value, mut scale) = (0.0, 1.0);
    let inverse = 1.0 / base as Real;
    while n > 0 {
        scale *= inverse;
        value += (n % base) as Real * scale;
        n /= base;
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn radical_inverses_mirror_the_digits() {
        let base2: Vec<Real> = (1..=6).map(|n| radical_inverse(n, 2)).collect();
        assert_eq!(base2, [0.5, 0.25, 0.75, 0.125, 0.625, 0.375]);
        // 7 = 21 in base 3: 0.12 in base 3 = 1/3 + 2/9.
        assert!((radical_inverse(7, 3) - 5.0 / 9.0).abs() < 1e-15);
        assert_eq!(radical_inverse(0, 5), 0.0);
    }

    /// Every coordinate stays in its bounds, and the first `b^k` points of a base-`b`
    /// coordinate (from point 0, the origin) are the `b^k` multiples of `b^-k`, one in each of as many equal cells (the
    /// low discrepancy planners rely on).
    #[test]
    fn points_fill_their_bounds_evenly() {
        let bounds = vec![(-2.0, 2.0), (0.0, 3.0), (-1.0, -0.5)];
        // Either parity's points cover both halves of every coordinate (two trees taking
        // turns each see the whole space).
        let mut halves = [[false; 2]; 2];
        let mut sequence = Halton::new(vec![(0.0, 1.0)]).unwrap();
        for n in 1..=20 {
            halves[n % 2][usize::from(sequence.next()[0] >= 0.5)] = true;
        }
        assert_eq!(halves, [[true; 2]; 2]);
        let mut halton = Halton::new(bounds.clone()).unwrap();
        for _ in 0..1000 {
            for (x, (low, high)) in halton.next().iter().zip(&bounds) {
                assert!((low..high).contains(&x), "{x} outside [{low}, {high})");
            }
        }
        for (base, cells) in [(2, 64), (3, 81), (5, 125)] {
            let mut hit = vec![false; cells];
            for n in 0..cells as u64 {
                let scaled = radical_inverse(n, base) * cells as Real;
                let cell = scaled.round();
                assert!((scaled - cell).abs() < 1e-9, "base {base}, point {n}");
                hit[cell as usize] = true;
            }
            assert!(hit.iter().all(|&h| h), "base {base}");
        }
        assert!(Halton::new(vec![(0.0, 1.0); 17]).is_none());
    }

    /// The digits counted up give every coordinate bit for bit what the radical inverse of
    /// the point's index gives, past several carries into new digits in every base.
    #[test]
    fn counted_digits_give_the_radical_inverse_exactly() {
        let bounds = vec![(-2.9, 2.9); PRIMES.len()];
        let mut halton = Halton::new(bounds.clone()).unwrap();
        for n in 1..=60_000u64 {
            let point = halton.next();
            for ((x, &(low, high)), base) in point.iter().zip(&bounds).zip(PRIMES) {
                let expected = low + (high - low) * radical_inverse(n, base);
                assert_eq!(x.to_bits(), expected.to_bits(), "point {n}, base {base}");
            }
        }
    }
}
