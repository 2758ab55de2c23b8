//! [`Halton`]: the Halton sequence (Halton, *On the efficiency of certain quasi-random
//! sequences of points in evaluating multi-dimensional integrals*, Numerische Mathematik 2,
//! 1960), a deterministic low-discrepancy sampler, as VAMP's RRT-Connect samples (reset for
//! each problem).
//!
//! Point `n` (`n = 1, 2, …`) has coordinate `k` equal to the radical inverse of `n` in the
//! `k`-th odd prime base (see [`PRIMES`] for why not 2): `n`'s digits in that base mirrored about the radix point. Each
//! coordinate is then scaled from `[0, 1)` to its joint's bounds.
//!
//! The sequence keeps each coordinate's digits of `n` and counts them up with carries, and with
//! them the mirrored number as an integer over a fixed power of the base (a carry adds or takes
//! one digit's weight; see [`Coordinate`]). A point then costs one division per coordinate: no
//! loop over the digits, no integer division (summing the digits had made the sampler 6 % of
//! the planner's instructions on MotionBenchMaker). The fraction is exact and rounded once:
//! the correctly rounded radical inverse of `n`, cut to the digits the fraction holds (33 in
//! base 3, 9 in base 59; the rest would add less than 2⁻⁴⁷, and only after 10¹⁵ points).

use crate::math::Real;

/// The odd primes: one base per joint ([`Halton::new`] refuses more joints). Base 2 is left
/// out: its first digit is the point's parity, so with two trees taking turns every sample
/// of one tree would fall in one half of the first joint's range (on a wall test, start and
/// goal trees each only ever saw samples beyond the wall; on MotionBenchMaker one problem
/// went unsolved). Odd bases cycle through all digits on either parity.
const PRIMES: [u64; 16] = [3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59];

/// Most digits a coordinate's numerator holds (base 3's: `3³³ < 2⁵³ < 3³⁴`).
const MOST_DIGITS: usize = 33;

/// A Halton sequence over joint bounds.
#[derive(Debug, Clone)]
pub(super) struct Halton {
    /// Per joint, its lower bound and its range's width (`high − low`).
    scales: Vec<(Real, Real)>,
    coordinates: Vec<Coordinate>,
}

/// One coordinate of the sequence: the current point's index `n` in its base, and `n`'s digits
/// mirrored about the radix point as the fraction `numerator / base^digits_held`.
///
/// `digits_held` is the most digits with `base^digits_held ≤ 2⁵³`, so numerator and
/// denominator are exact in a [`Real`] and the quotient is rounded once. Digit `i` (least
/// significant first) weighs `base^(digits_held − 1 − i)`; digits beyond `digits_held` weigh
/// nothing (they would add less than `base^−digits_held ≤ 2⁻⁴⁷`, and appear only after
/// `base^digits_held > 10¹⁵` points). The lowest digit, which most steps raise alone, is kept
/// apart from the others, beside its weight and the numerator.
#[derive(Debug, Clone)]
struct Coordinate {
    base: u8,
    /// `n`'s lowest digit (0 for point 0).
    lowest: u8,
    numerator: u64,
    denominator: Real,
    /// `n`'s other digits, least significant first (digit 1 first), no leading zeros.
    higher: Vec<u8>,
    /// `weights[i]`: digit `i`'s weight in the numerator (0 beyond the digits held).
    weights: [u64; MOST_DIGITS],
}

impl Coordinate {
    fn new(base: u64) -> Self {
        let mut held = 0;
        let mut power: u64 = 1;
        while power.checked_mul(base).is_some_and(|p| p <= 1 << 53) {
            power *= base;
            held += 1;
        }
        let mut weights = [0; MOST_DIGITS];
        let mut weight = power;
        for w in weights.iter_mut().take(held) {
            weight /= base;
            *w = weight;
        }
        Self {
            base: base as u8,
            lowest: 0,
            numerator: 0,
            // (Exact: at most 2⁵³.)
            denominator: power as Real,
            higher: Vec::new(),
            weights,
        }
    }

    /// Moves to the next index (adds one with carries) and returns its radical inverse.
    #[inline]
    fn next(&mut self) -> Real {
        // (Most steps only raise the lowest digit: `1 − 1/base` of them.)
        if self.lowest + 1 < self.base {
            self.lowest += 1;
            self.numerator += self.weights[0];
        } else {
            self.carry();
        }
        // (Below 2⁵³, so the signed conversion, one instruction where the unsigned one is a
        // sequence, is exact.)
        (self.numerator as i64) as Real / self.denominator
    }

    /// Adds one to an index whose lowest digit is `base − 1`: a third of base 3's steps,
    /// fewer in the larger bases, so out of line.
    #[cold]
    fn carry(&mut self) {
        let weight = |i: usize| self.weights.get(i).copied().unwrap_or(0);
        let most = u64::from(self.base - 1);
        self.lowest = 0;
        self.numerator -= most * weight(0);
        for (i, digit) in (1..).zip(self.higher.iter_mut()) {
            if *digit + 1 < self.base {
                *digit += 1;
                self.numerator += weight(i);
                return;
            }
            // (The digit was base − 1.)
            *digit = 0;
            self.numerator -= most * weight(i);
        }
        self.numerator += weight(self.higher.len() + 1);
        self.higher.push(1);
    }
}

impl Halton {
    /// The sequence over `bounds` (one `(low, high)` per joint), or `None` for more joints than
    /// [`PRIMES`] has bases.
    pub(super) fn new(bounds: Vec<(Real, Real)>) -> Option<Self> {
        (bounds.len() <= PRIMES.len()).then(|| Self {
            coordinates: PRIMES[..bounds.len()]
                .iter()
                .map(|&base| Coordinate::new(base))
                .collect(),
            scales: bounds
                .iter()
                .map(|&(low, high)| (low, high - low))
                .collect(),
        })
    }

    /// The next point, scaled to the bounds, into `point` (replacing what it held).
    pub(super) fn next_into(&mut self, point: &mut Vec<Real>) {
        point.resize(self.scales.len(), 0.0);
        for ((x, &(low, width)), coordinate) in point
            .iter_mut()
            .zip(&self.scales)
            .zip(&mut self.coordinates)
        {
            *x = low + width * coordinate.next();
        }
    }

    /// The next point, scaled to the bounds.
    #[cfg(test)]
    fn next(&mut self) -> Vec<Real> {
        let mut point = Vec::new();
        self.next_into(&mut point);
        point
    }
}

/// `n`'s digits in `base` mirrored about the radix point, in `[0, 1)`, summed in floating
/// point (an independent, less exact oracle for the tests).
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
        // The first `b^k` points of a base-`b` coordinate (from point 0, the origin) are the
        // `b^k` multiples of `b^-k`, one in each of as many equal cells.
        for (base, cells) in [(3, 81), (5, 125), (59, 59 * 59)] {
            let mut coordinate = Coordinate::new(base);
            let mut hit = vec![false; cells];
            hit[0] = true;
            for n in 1..cells {
                let scaled = coordinate.next() * cells as Real;
                let cell = scaled.round();
                assert!((scaled - cell).abs() < 1e-9, "base {base}, point {n}");
                hit[cell as usize] = true;
            }
            assert!(hit.iter().all(|&h| h), "base {base}");
        }
        assert!(Halton::new(vec![(0.0, 1.0); 17]).is_none());
    }

    /// Every coordinate is the exact mirrored fraction of the point's index, rounded once (its
    /// numerator built from the index by integer division here, as `base^held` over the digits
    /// held), and within 2⁻⁵⁰ of the radical inverse summed in floating point; past several
    /// carries into new digits in every base.
    #[test]
    fn counted_digits_give_the_radical_inverse_exactly() {
        let mut halton = Halton::new(vec![(0.0, 1.0); PRIMES.len()]).unwrap();
        for n in 1..=60_000u64 {
            let point = halton.next();
            for (&x, base) in point.iter().zip(PRIMES) {
                let held = (1..)
                    .take_while(|&k| base.pow(k) <= 1 << 53)
                    .last()
                    .unwrap();
                let (mut numerator, mut weight, mut rest) = (0u64, base.pow(held), n);
                while rest > 0 {
                    weight /= base;
                    numerator += (rest % base) * weight;
                    rest /= base;
                }
                let exact = numerator as Real / base.pow(held) as Real;
                assert_eq!(x.to_bits(), exact.to_bits(), "point {n}, base {base}");
                let summed = radical_inverse(n, base);
                assert!(
                    (x - summed).abs() <= 1e-15,
                    "point {n}, base {base}: {x} {summed}"
                );
            }
        }
        // Scaled to the bounds.
        let bounds = vec![(-2.9, 2.9), (0.5, 1.5)];
        let mut scaled = Halton::new(bounds).unwrap();
        let mut unit = Halton::new(vec![(0.0, 1.0); 2]).unwrap();
        for _ in 0..100 {
            let (p, u) = (scaled.next(), unit.next());
            assert_eq!(p[0], -2.9 + 5.8 * u[0]);
            assert_eq!(p[1], 0.5 + 1.0 * u[1]);
        }
    }
}
