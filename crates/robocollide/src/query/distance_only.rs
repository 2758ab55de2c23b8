//! [`distance_only`]: the signed distance of a [`Shape`] pair without witness points or
//! normal — the inner loop of robot checks, which need witnesses only for the pairs they report.
//!
//! Same values as [`shape_shape()`] (same kernels, same contact rounding);
//! the sphere/capsule family skips the normal computation, cylinders use the full query.

use super::segment_segment::closest_points;
use super::shape_shape;
use crate::geom::{Segment, Shape};
use crate::math::Real;

/// Core (point as zero-length segment) and radius of a sphere-family shape.
#[inline]
fn core(shape: &Shape) -> Option<(Segment, Real)> {
    match shape {
        Shape::Point(p) => Some((Segment::from_finite(*p, *p), 0.0)),
        Shape::Sphere(s) => Some((Segment::from_finite(s.center(), s.center()), s.radius())),
        Shape::Segment(s) => Some((*s, 0.0)),
        Shape::Capsule(c) => Some((*c.axis(), c.radius())),
        Shape::Cylinder(_) => None,
    }
}

/// Signed distance between two shapes (no witnesses).
#[inline]
pub fn distance_only(a: &Shape, b: &Shape) -> Real {
    let d = raw_distance(a, b);
    if d > 0.0 && d <= super::separation::CONTACT_ROUNDING * a.magnitude().max(b.magnitude()) {
        0.0
    } else {
        d
    }
}

/// Signed distance *before* the contact rounding (for cylinders, the full query's rounded
/// value). Searches for a minimum use this and round only the winner.
#[inline]
pub(crate) fn raw_distance(a: &Shape, b: &Shape) -> Real {
    match (core(a), core(b)) {
        (Some((sa, ra)), Some((sb, rb))) => {
            let core = if sa.a() == sa.b() && sb.a() == sb.b() {
                (sb.a() - sa.a()).norm()
            } else {
                let pair = closest_points(&sa, &sb);
                (pair.point_b - pair.point_a).norm()
            };
            core - (ra + rb)
        }
        _ => shape_shape(a, b).distance,
    }
}
