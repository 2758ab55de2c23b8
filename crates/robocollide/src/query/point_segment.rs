//! Point–segment distance (seed 000 §3.2): project onto the segment's line, clamp to `[0, 1]`.
//!
//! Degenerate case: a zero-length segment is a point (`t = 0`). When the point lies on the
//! segment the normal is a deterministic unit vector perpendicular to the segment
//! ([`orthogonal_unit`](crate::math::orthogonal_unit)).

use super::Separation;
use crate::geom::Segment;
use crate::math::{Point3, Real, Vector3, clamp_unit};

/// Parameter `t ∈ [0, 1]` of the point of `segment` closest to `p`.
#[inline]
pub fn closest_parameter(p: &Point3, segment: &Segment) -> Real {
    let d = segment.direction();
    let dd = d.norm_squared();
    if dd > 0.0 {
        clamp_unit((p - segment.a()).dot(&d) / dd)
    } else {
        0.0
    }
}

/// Distance from point `p` (shape a) to `segment` (shape b), with witness points and normal.
///
/// Any finite input: pairs of extreme magnitude are rescaled (`safe_scale`).
#[inline]
pub fn point_segment(p: &Point3, segment: &Segment) -> Separation {
    let magnitude = crate::math::max_abs(&p.coords).max(segment.magnitude());
    if super::safe_scale::outside_safe_range(magnitude) {
        return super::safe_scale::rescaled(p, segment, magnitude, point_segment);
    }
    point_segment_direct(p, segment, magnitude)
}

/// [`point_segment`] for magnitudes inside the safe range.
#[inline]
pub(crate) fn point_segment_direct(p: &Point3, segment: &Segment, magnitude: Real) -> Separation {
    let t = closest_parameter(p, segment);
    let q = segment.at(t);
    Separation::between_points(*p, q, magnitude, |d, noise| {
        let v = segment.direction();
        super::segment_segment::near_normal(d, noise, (0.0, &Vector3::zeros()), (t, &v))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(a: [f64; 3], b: [f64; 3]) -> Segment {
        Segment::new(a.into(), b.into()).unwrap()
    }

    #[test]
    fn point_segment_hand_cases() {
        let s = seg([0.0, 0.0, 0.0], [2.0, 0.0, 0.0]);
        // Perpendicular foot inside.
        let r = point_segment(&Point3::new(1.0, 3.0, 0.0), &s);
        assert_eq!(r.distance, 3.0);
        assert_eq!(r.point_b, Point3::new(1.0, 0.0, 0.0));
        assert_eq!(r.normal, -nalgebra::Vector3::y());
        // Beyond the end: clamps to b.
        let r = point_segment(&Point3::new(5.0, 4.0, 0.0), &s);
        assert_eq!(r.distance, 5.0);
        assert_eq!(r.point_b, Point3::new(2.0, 0.0, 0.0));
        // On the segment: zero distance, unit normal perpendicular to it.
        let r = point_segment(&Point3::new(0.5, 0.0, 0.0), &s);
        assert_eq!(r.distance, 0.0);
        assert!((r.normal.norm() - 1.0).abs() < 1e-15 && r.normal.x == 0.0);
        // Zero-length segment: plain point distance.
        let r = point_segment(
            &Point3::new(0.0, 0.0, 2.0),
            &seg([0.0, 0.0, 0.0], [0.0, 0.0, 0.0]),
        );
        assert_eq!(r.distance, 2.0);
    }
}
