//! A canonical order for the two shapes of a same-kind pair, so that a kernel measures (a, b)
//! and (b, a) by the same arithmetic and the two answers agree exactly (one is the other
//! flipped).
//!
//! Kernels whose steps are not mirror images of each other round differently each way, and
//! near a threshold (contact rounding, a certificate's acceptance) the two roundings can fall
//! on either side: boxes 1.4e-14 of their magnitude apart were "apart" one way and "touching"
//! the other, and cylinder discs 1e-12 apart "apart" and "overlapping" (found by fuzzing,
//! TESTING.md). Both answers were within rounding of the truth; only their disagreement was
//! wrong.

use crate::math::Real;

/// Whether the shape described by `x` comes before the one described by `y`: their numbers
/// compared in turn by `total_cmp` (the first difference decides; equal shapes do not
/// precede each other).
#[inline]
pub(crate) fn precedes<const N: usize>(x: [Real; N], y: [Real; N]) -> bool {
    x.iter()
        .zip(y.iter())
        .map(|(p, q)| p.total_cmp(q))
        .find(|o| o.is_ne())
        .is_some_and(std::cmp::Ordering::is_lt)
}
