//! Capsule–capsule (seed 000 §3.4): segment–segment distance minus both radii.
//!
//! The penetration depth `r₁ + r₂ − d` is exact: the Minkowski difference of two capsules is a
//! (possibly flat) parallelogram grown by `r₁ + r₂`; when the axes cross (`d = 0`) the
//! parallelogram is planar and the shortest way out is along its plane normal `u × v`, which is
//! the normal [`segment_segment`](super::segment_segment()) reports in that case.

use super::Separation;
use super::segment_segment::segment_segment_direct;
use crate::geom::Capsule;

/// Signed distance between two capsules.
#[inline]
pub fn capsule_capsule(a: &Capsule, b: &Capsule) -> Separation {
    let magnitude = (a.axis().magnitude() + a.radius()).max(b.axis().magnitude() + b.radius());
    if super::safe_scale::outside_safe_range(magnitude) {
        return super::safe_scale::rescaled(a, b, magnitude, capsule_capsule);
    }
    segment_segment_direct(a.axis(), b.axis(), magnitude)
        .inflated(a.radius(), b.radius())
        .with_contact_rounding(magnitude)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Point3, Vector3};

    fn cap(a: [f64; 3], b: [f64; 3], r: f64) -> Capsule {
        Capsule::new(a.into(), b.into(), r).unwrap()
    }

    #[test]
    fn hand_cases() {
        // Parallel, side by side.
        let r = capsule_capsule(
            &cap([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], 0.1),
            &cap([0.0, 1.0, 0.0], [1.0, 1.0, 0.0], 0.2),
        );
        assert!((r.distance - 0.7).abs() < 1e-15);
        // Crossing axes: depth is r1 + r2 along the plane normal.
        let r = capsule_capsule(
            &cap([-1.0, 0.0, 0.0], [1.0, 0.0, 0.0], 0.1),
            &cap([0.0, -1.0, 0.0], [0.0, 1.0, 0.0], 0.2),
        );
        assert!((r.distance + 0.3).abs() < 1e-15);
        assert_eq!(r.normal, Vector3::z());
        assert!((r.point_a - Point3::new(0.0, 0.0, 0.1)).norm() < 1e-15);
        assert!((r.point_b - Point3::new(0.0, 0.0, -0.2)).norm() < 1e-15);
        // End caps touching exactly.
        let r = capsule_capsule(
            &cap([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], 0.25),
            &cap([1.5, 0.0, 0.0], [3.0, 0.0, 0.0], 0.25),
        );
        assert_eq!(r.distance, 0.0);
    }
}
