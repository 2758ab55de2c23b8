//! Capsule–cylinder (flat caps).
//!
//! A capsule is its axis segment grown by its radius, so the answer is the segment–cylinder
//! signed distance minus the capsule radius (exact for the Minkowski sum, in both the
//! separated and the penetrating case). Segment–cylinder:
//! - if the closest points of the two axes fall strictly inside the cylinder's axis and are
//!   further apart than its radius, the nearest cylinder point is on the lateral surface and
//!   the distance is `d − r` exactly (the capsule around the cylinder's axis touches the
//!   cylinder there, and it contains the cylinder, so this is also a lower bound);
//! - otherwise [`axial_distance`]: the exact cap test and
//!   Newton's ascent on the closed-form gap of [`axial_gap`](super::axial_gap) (a segment is a
//!   cylinder of radius 0), certified, with GJK as the fallback — or, for touching and
//!   overlapping pairs, the conservative maximum-gap estimate.

use super::Separation;
use super::axial_gap::{Axial, AxialPair};
use super::convex_pair::axial_distance;
use super::segment_segment::{closest_points, near_normal, touching_normal};
use crate::geom::{Capsule, Cylinder, Segment};
use crate::math::Real;

/// Signed distance from a capsule (a) to a flat-capped cylinder (b).
pub fn capsule_cylinder(a: &Capsule, b: &Cylinder) -> Separation {
    let magnitude = (a.axis().magnitude() + a.radius()).max(b.axis().magnitude() + b.radius());
    if super::safe_scale::outside_safe_range(magnitude) {
        return super::safe_scale::rescaled(a, b, magnitude, capsule_cylinder);
    }
    segment_cylinder(a.axis(), b, magnitude)
        .inflated(a.radius(), 0.0)
        .with_contact_rounding(magnitude)
}

/// Signed distance from a segment (a) to a cylinder (b), before contact rounding.
pub(crate) fn segment_cylinder(a: &Segment, b: &Cylinder, magnitude: Real) -> Separation {
    let pair = closest_points(a, b.axis());
    let (u, v) = (a.direction(), b.axis().direction());
    let core = Separation::between_points(pair.point_a, pair.point_b, magnitude, |d, noise| {
        near_normal(d, noise, (pair.s, &u), (pair.t, &v))
    });
    let lateral = pair.t > 0.0 && pair.t < 1.0;
    if lateral && core.distance > b.radius() {
        return core.inflated(0.0, b.radius());
    }
    let axis = b.unit_axis();
    let towards = b.axis().at(0.5) - a.at(0.5);
    let radial = towards - axis * towards.dot(&axis);
    let plane = touching_normal(&u, &v);
    // The segment's point nearest the cylinder's axis, if inside the cylinder, proves overlap.
    let overlapping = core.distance <= b.radius() && b.closest_point(&pair.point_a).1;
    let gaps = AxialPair::new(Axial::of_segment(a), Axial::of_cylinder(b));
    axial_distance(
        &gaps,
        (a, b),
        magnitude,
        &core.normal,
        || [core.normal, plane, -plane, axis, -axis, radial, towards],
        overlapping,
    )
}
