//! Cylinder–cylinder (both flat-capped).
//!
//! - Lateral–lateral: if the closest points of the two axes are interior to both axes and
//!   further apart than `r₁ + r₂`, the answer is `d − r₁ − r₂` exactly (as for capsules, whose
//!   lateral surfaces coincide with the cylinders' there).
//! - Otherwise [`axial_distance`]: the closed-form cap test
//!   and Newton's ascent on the closed-form gap function ([`axial_gap`](super::axial_gap)),
//!   each accepted only with a certificate, GJK as the fallback.
//! - Touching or overlapping (a common point is tried first: the axes' closest points and the
//!   point between them): the deepest gap found by a pose-equivariant global search plus
//!   Newton — a lower bound on the signed distance (it never understates a penetration),
//!   exact when the search reaches the optimal direction's basin.
//!
//! The yes/no verdict is exact up to rounding: "apart" is only reported with a certificate
//! (a separating direction with positive gap); anything else is contact.

use super::Separation;
use super::axial_gap::{Axial, AxialPair};
use super::canonical_order::precedes;
use super::convex_pair::axial_distance;
use super::segment_segment::{closest_points, near_normal, touching_normal};
use crate::geom::Cylinder;

/// Signed distance between two flat-capped cylinders.
///
/// The pair is measured in one canonical order (`canonical_order`)
/// and the answer flipped for the other. When that answer is within `1e-6` of the magnitude
/// of contact (or overlapping), the pair is measured the other way too and the larger value
/// kept: both are lower bounds on the signed distance (a certified gap, or the conservative
/// penetration estimate), so the larger is one too, and a certificate found either way wins
/// over a penetration estimate the other way (a needle under a disc 1e125 times wider than
/// thick was "apart" one way and 7.9e142 deep the other; found by fuzzing, TESTING.md).
pub fn cylinder_cylinder(a: &Cylinder, b: &Cylinder) -> Separation {
    let (first, second, flip) = if precedes(numbers(b), numbers(a)) {
        (b, a, true)
    } else {
        (a, b, false)
    };
    let mut found = ordered_cylinder_cylinder(first, second);
    let magnitude = (a.axis().magnitude() + a.radius()).max(b.axis().magnitude() + b.radius());
    if found.distance <= BOTH_WAYS_BELOW * magnitude {
        let other = ordered_cylinder_cylinder(second, first).flipped();
        if other.distance > found.distance {
            found = other;
        }
    }
    if flip { found.flipped() } else { found }
}

/// Pairs closer than this (relative to the magnitude) are measured both ways.
const BOTH_WAYS_BELOW: crate::math::Real = 1e-6;

/// The cylinder's numbers, for [`canonical_order`](super::canonical_order).
fn numbers(c: &Cylinder) -> [crate::math::Real; 7] {
    let (a, b) = (c.axis().a(), c.axis().b());
    [c.radius(), a.x, a.y, a.z, b.x, b.y, b.z]
}

/// [`cylinder_cylinder`] in the order given.
fn ordered_cylinder_cylinder(a: &Cylinder, b: &Cylinder) -> Separation {
    let magnitude = (a.axis().magnitude() + a.radius()).max(b.axis().magnitude() + b.radius());
    if super::safe_scale::outside_safe_range(magnitude) {
        return super::safe_scale::rescaled(a, b, magnitude, ordered_cylinder_cylinder);
    }
    let pair = closest_points(a.axis(), b.axis());
    let (u, v) = (a.axis().direction(), b.axis().direction());
    let core = Separation::between_points(pair.point_a, pair.point_b, magnitude, |d, noise| {
        near_normal(d, noise, (pair.s, &u), (pair.t, &v))
    });
    let lateral = pair.s > 0.0 && pair.s < 1.0 && pair.t > 0.0 && pair.t < 1.0;
    let result = if lateral && core.distance > a.radius() + b.radius() {
        core.inflated(a.radius(), b.radius())
    } else {
        let candidates = || {
            let (ua, ub) = (a.unit_axis(), b.unit_axis());
            let towards = b.axis().at(0.5) - a.axis().at(0.5);
            let plane = touching_normal(&u, &v);
            [
                core.normal,
                plane,
                -plane,
                ua,
                -ua,
                ub,
                -ub,
                towards - ua * towards.dot(&ua),
                towards - ub * towards.dot(&ub),
                towards,
            ]
        };
        // A common point proves overlap: the axes' closest points, the point between them in
        // the middle of the stretch within reach of both lateral surfaces, or the point of
        // either cylinder nearest to the other's axis point.
        let overlapping = core.distance <= a.radius() + b.radius() && {
            let reach =
                0.5 * ((core.distance - b.radius()).max(0.0) + core.distance.min(a.radius()));
            let between = pair.point_a + core.normal * reach;
            let (on_b, a_in_b) = b.closest_point(&pair.point_a);
            let (on_a, b_in_a) = a.closest_point(&pair.point_b);
            a_in_b
                || b_in_a
                || (a.closest_point(&between).1 && b.closest_point(&between).1)
                || a.closest_point(&on_b).1
                || b.closest_point(&on_a).1
        };
        let start = core.normal;
        let gaps = AxialPair::new(Axial::of_cylinder(a), Axial::of_cylinder(b));
        axial_distance(&gaps, (a, b), magnitude, &start, candidates, overlapping)
    };
    result.with_contact_rounding(magnitude)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Point3, Vector3};

    fn cyl(a: [f64; 3], b: [f64; 3], r: f64) -> Cylinder {
        Cylinder::new(a.into(), b.into(), r).unwrap()
    }

    #[test]
    fn stacked_cap_to_cap() {
        let r = cylinder_cylinder(
            &cyl([0.0, 0.0, 0.0], [0.0, 0.0, 1.0], 1.0),
            &cyl([0.3, 0.0, 1.5], [0.3, 0.0, 3.0], 0.5),
        );
        assert!((r.distance - 0.5).abs() < 1e-12, "{r:?}");
        assert!((r.normal - Vector3::z()).norm() < 1e-9);
        // Touching caps: contact.
        let r = cylinder_cylinder(
            &cyl([0.0, 0.0, 0.0], [0.0, 0.0, 1.0], 1.0),
            &cyl([0.3, 0.0, 1.0], [0.3, 0.0, 3.0], 0.5),
        );
        assert!(r.is_contact() && r.distance > -1e-12, "{r:?}");
    }

    #[test]
    fn crossed_side_by_side_is_exact() {
        let r = cylinder_cylinder(
            &cyl([-1.0, 0.0, 0.0], [1.0, 0.0, 0.0], 0.2),
            &cyl([0.0, -1.0, 1.0], [0.0, 1.0, 1.0], 0.3),
        );
        assert!((r.distance - 0.5).abs() < 1e-15);
        assert!((r.point_a - Point3::new(0.0, 0.0, 0.2)).norm() < 1e-15);
    }

    #[test]
    fn rim_to_rim_differs_from_capsules() {
        // Coaxial-offset end to end along x: capsules would touch much earlier than cylinders.
        let a = cyl([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], 0.5);
        let b = cyl([1.2, 0.0, 0.0], [2.0, 0.0, 0.0], 0.5);
        let r = cylinder_cylinder(&a, &b);
        assert!((r.distance - 0.2).abs() < 1e-12, "{r:?}");
        // Rim against rim at a right angle: b lies along z, its bottom rim 0.1 above a's top.
        let b = cyl([0.5, 0.0, 0.6], [0.5, 0.0, 2.0], 0.3);
        let r = cylinder_cylinder(&a, &b);
        assert!((r.distance - 0.1).abs() < 1e-12, "{r:?}");
    }

    #[test]
    fn deep_penetration_is_negative_and_conservative() {
        let a = cyl([0.0, 0.0, 0.0], [0.0, 0.0, 2.0], 1.0);
        let b = cyl([0.0, 0.0, 1.9], [0.0, 0.0, 4.0], 0.5);
        let r = cylinder_cylinder(&a, &b);
        // True depth 0.1 (push b up); the estimate must not be shallower.
        assert!(
            r.distance <= -0.1 + 1e-12 && r.distance > -0.1 - 1e-6,
            "{r:?}"
        );
    }
}
