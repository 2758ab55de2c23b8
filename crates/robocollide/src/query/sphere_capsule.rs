//! Sphere–capsule (seed 000 §3.3): point–segment distance minus both radii.
//!
//! Exact penetration depth: a capsule minus a ball is a segment grown by `r₁ + r₂`, whose
//! boundary is at distance `r₁ + r₂ − d` from any interior point at distance `d` from the
//! segment.

use super::Separation;
use super::point_segment::point_segment_direct;
use crate::geom::{Capsule, Sphere};

/// Signed distance from a sphere (a) to a capsule (b).
#[inline]
pub fn sphere_capsule(a: &Sphere, b: &Capsule) -> Separation {
    let magnitude = (crate::math::max_abs(&a.center().coords) + a.radius())
        .max(b.axis().magnitude() + b.radius());
    if super::safe_scale::outside_safe_range(magnitude) {
        return super::safe_scale::rescaled(a, b, magnitude, sphere_capsule);
    }
    point_segment_direct(&a.center(), b.axis(), magnitude)
        .inflated(a.radius(), b.radius())
        .with_contact_rounding(magnitude)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Point3;

    #[test]
    fn issue_example_and_cases() {
        // The issue's CLI example: capsule 0,0,0 1,0,0 0.1 vs sphere 0.5,0.5,0 0.2.
        let cap = Capsule::new(Point3::origin(), Point3::new(1.0, 0.0, 0.0), 0.1).unwrap();
        let s = Sphere::new(Point3::new(0.5, 0.5, 0.0), 0.2).unwrap();
        let r = sphere_capsule(&s, &cap);
        assert!((r.distance - 0.2).abs() < 1e-15);
        assert!((r.point_a - Point3::new(0.5, 0.3, 0.0)).norm() < 1e-15);
        assert!((r.point_b - Point3::new(0.5, 0.1, 0.0)).norm() < 1e-15);
        // Centre on the axis: depth r_s + r_c, normal perpendicular to the axis.
        let s = Sphere::new(Point3::new(0.3, 0.0, 0.0), 0.2).unwrap();
        let r = sphere_capsule(&s, &cap);
        assert!((r.distance + 0.3).abs() < 1e-15);
        assert!(r.normal.x.abs() < 1e-15);
        // Beyond the cap end.
        let s = Sphere::new(Point3::new(2.0, 0.0, 0.0), 0.5).unwrap();
        assert!((sphere_capsule(&s, &cap).distance - 0.4).abs() < 1e-15);
    }
}
