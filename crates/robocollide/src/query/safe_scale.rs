//! Scale robustness: every pair query answers correctly for *any* finite input, from
//! subnormal coordinates up to `f64::MAX`.
//!
//! The kernels multiply coordinate differences. Directly, squares overflow above about
//! `1e154` (a capsule from `−1e155` to `1e155` had an infinite squared length and reported
//! "apart" for a sphere on its axis), and fourth powers such as `|u × v|²` lose their digits
//! to underflow below about `1e-77`. So when the pair's magnitude lies outside
//! `[SAFE_MIN, SAFE_MAX]` both shapes are multiplied by a power of two `2⁻ᵉ` that brings the
//! magnitude near 1, the query runs there, and the answer is multiplied back by `2ᵉ`. Multiplying by a power of two is exact (short
//! of the subnormal range, where only digits far below the magnitude's rounding unit are
//! lost), so the scaled problem is the same problem; distances whose true value exceeds
//! `f64::MAX` saturate there (still "apart", still finite), and so do witness coordinates that
//! rounding carried beyond it.
//!
//! Inside the safe range the check is one comparison, so the common case pays nothing else.
//! This protects against extreme *magnitudes*; extreme *ratios* within one pair (a segment
//! 1e-126 of the other's length) can still underflow intermediate products, and the kernels
//! handle those where they arise (degenerate branches, normals of close points; found by
//! fuzzing, see TESTING.md).

use super::Separation;
use crate::geom::{Capsule, Cylinder, OrientedBox, Plane, Segment, Shape, Sphere};
use crate::math::{Point3, Real};

/// Largest pair magnitude computed directly: `2¹⁵⁰ ≈ 1.4e45`, so products of up to six
/// lengths (`|u × v|²` is a fourth power) stay finite.
const SAFE_MAX: Real = 1.427_247_692_705_96e45;
/// Smallest non-zero pair magnitude computed directly: `2⁻¹⁵⁰ ≈ 7e-46`, so such products stay
/// normal numbers.
const SAFE_MIN: Real = 7.006_492_321_624_085e-46;

/// Shapes that can be multiplied by a scalar about the origin.
pub(crate) trait Scalable: Sized {
    /// The shape with every coordinate and length multiplied by `factor` (a power of two).
    fn scaled(&self, factor: Real) -> Self;
}

impl Scalable for Point3 {
    fn scaled(&self, factor: Real) -> Self {
        Point3::from(self.coords * factor)
    }
}

impl Scalable for Segment {
    fn scaled(&self, factor: Real) -> Self {
        Segment::from_finite(self.a().scaled(factor), self.b().scaled(factor))
    }
}

impl Scalable for Sphere {
    fn scaled(&self, factor: Real) -> Self {
        Sphere::from_finite(self.center().scaled(factor), self.radius() * factor)
    }
}

impl Scalable for Capsule {
    fn scaled(&self, factor: Real) -> Self {
        Capsule::from_finite(self.axis().scaled(factor), self.radius() * factor)
    }
}

impl Scalable for Cylinder {
    fn scaled(&self, factor: Real) -> Self {
        self.scaled_keeping_direction(factor)
    }
}

impl Scalable for OrientedBox {
    fn scaled(&self, factor: Real) -> Self {
        OrientedBox::from_finite(
            self.center().scaled(factor),
            *self.rotation(),
            self.half_extents() * factor,
        )
    }
}

/// Any shape multiplied by `factor` about the origin (a half-space keeps its normal).
pub(crate) fn scaled_shape(shape: &Shape, factor: Real) -> Shape {
    match shape {
        Shape::Point(p) => Shape::Point(p.scaled(factor)),
        Shape::Segment(s) => Shape::Segment(s.scaled(factor)),
        Shape::Sphere(s) => Shape::Sphere(s.scaled(factor)),
        Shape::Capsule(c) => Shape::Capsule(c.scaled(factor)),
        Shape::Cylinder(c) => Shape::Cylinder(c.scaled(factor)),
        Shape::Box(b) => Shape::Box(b.scaled(factor)),
        Shape::Plane(p) => Shape::Plane(Plane::from_finite(p.point().scaled(factor), p.normal())),
    }
}

/// `true` when a pair of this magnitude must be rescaled before it is computed.
#[inline]
pub(crate) fn outside_safe_range(magnitude: Real) -> bool {
    !(magnitude <= SAFE_MAX && (magnitude >= SAFE_MIN || magnitude == 0.0))
}

/// Runs `query` on `a` and `b` scaled by `2⁻ᵉ` so that `magnitude · 2⁻ᵉ` is about 1, and scales
/// the answer back. Call only when [`outside_safe_range`] says so.
#[cold]
#[inline(never)]
pub(crate) fn rescaled<A: Scalable, B: Scalable>(
    a: &A,
    b: &B,
    magnitude: Real,
    query: impl FnOnce(&A, &B) -> Separation,
) -> Separation {
    // Powers 2^±1000 are normal numbers; magnitudes up to 2^1024 (or down to 2^-1074) scaled
    // by them land well inside the safe range.
    let exponent = if magnitude.is_finite() {
        magnitude.log2().ceil().clamp(-1000.0, 1000.0) as i32
    } else {
        1000
    };
    let down = (2.0 as Real).powi(-exponent);
    let up = (2.0 as Real).powi(exponent);
    let s = query(&a.scaled(down), &b.scaled(down));
    Separation {
        distance: saturated(s.distance * up),
        point_a: s.point_a.scaled(up).map(saturated),
        point_b: s.point_b.scaled(up).map(saturated),
        normal: s.normal,
    }
}

/// `x` within `±f64::MAX`: a distance whose true value exceeds it, or a witness coordinate
/// that rounding in the scaled problem put a unit beyond it (a box centred at `−f64::MAX`
/// has its near face within a rounding unit of it; found by fuzzing), saturates there, off
/// by at most that rounding unit of the magnitude.
fn saturated(x: Real) -> Real {
    x.clamp(-Real::MAX, Real::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_constants_are_the_powers_of_two_they_claim() {
        assert_eq!(SAFE_MAX, (2.0 as Real).powi(150));
        assert_eq!(SAFE_MIN, (2.0 as Real).powi(-150));
        assert!(!outside_safe_range(0.0));
        assert!(!outside_safe_range(1.0));
        assert!(outside_safe_range(1e155));
        assert!(outside_safe_range(1e-200));
        assert!(outside_safe_range(Real::INFINITY));
        assert!(outside_safe_range(Real::NAN));
    }
}
