//! Segment–segment closest points (seed 000 §3.5, Ericson, *Real-Time Collision Detection*
//! §5.1.9), reformulated for robustness.
//!
//! `P(s) = p₀ + s u`, `Q(t) = q₀ + t v`, `s, t ∈ [0, 1]`. The squared distance
//! `F(s, t) = |P(s) − Q(t)|²` is convex, so the box-constrained minimum is found by:
//! 1. `s₀` = the unconstrained line–line optimum, clamped to `[0, 1]`;
//! 2. `t` = the best `t` for that `s`, clamped; if it was clamped, `s` = the best `s` for that
//!    `t`, clamped (each step is a well-conditioned point–line projection).
//!
//! Robustness notes (see `../shared/SEED-NOTES.md`):
//! - `s₀` is computed as `((q₀ − p₀) × v)·n / |n|²` with `n = u × v`, not from the seed's
//!   `(be − cd)/(ac − b²)`: both are ill-conditioned as the axes become parallel, but the
//!   cross-product form's error grows like `1/sin θ` (which the distance tolerates, because `F`
//!   is flat along the valley by exactly `sin θ`), whereas `ac − b²` loses all digits.
//! - Exactly parallel axes (`n = 0`) take `s₀ = 0`; the projections then land on a minimiser
//!   of the line of minima.
//! - The distance is measured between the two witness points, never as `√F(s, t)` from the
//!   polynomial (which cancels catastrophically and can go negative).
//! - A zero-length segment reduces to point–segment.
//! - When the witness points coincide, the normal is `u × v` normalised, else a unit vector
//!   perpendicular to the non-degenerate axis, else `+x`.

use super::Separation;

use crate::geom::Segment;
use crate::math::{
    Point3, Real, Vector3, clamp_unit, orthogonal_unit, perpendicular_part, try_normalize,
};

/// Closest-point parameters and points between two segments.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SegmentPair {
    /// Parameter on segment a, in `[0, 1]`.
    pub s: Real,
    /// Parameter on segment b, in `[0, 1]`.
    pub t: Real,
    /// `a.at(s)`.
    pub point_a: Point3,
    /// `b.at(t)`.
    pub point_b: Point3,
}

/// Closest points between segments `a` and `b`.
#[inline]
pub fn closest_points(a: &Segment, b: &Segment) -> SegmentPair {
    let (u, v) = (a.direction(), b.direction());
    let (s, t) = closest_parameters(&a.a(), &u, u.norm_squared(), &b.a(), &v, v.norm_squared());
    SegmentPair {
        s,
        t,
        point_a: a.at(s),
        point_b: b.at(t),
    }
}

/// The parameters `(s, t)` of [`closest_points`] for segments `p₀ + s u`, `q₀ + t v` whose
/// squared lengths `uu = |u|²`, `vv = |v|²` the caller already has (robot checks precompute
/// them once per pose).
#[inline]
pub(crate) fn closest_parameters(
    p0: &Point3,
    u: &Vector3,
    uu: Real,
    q0: &Point3,
    v: &Vector3,
    vv: Real,
) -> (Real, Real) {
    closest_parameters_by(p0, u, Divide(uu), q0, v, Divide(vv))
}

/// How a parameter is divided by a squared length: exactly ([`Divide`]), or by a precomputed
/// reciprocal ([`Reciprocal`], one ulp less exact and no division on the robot check's path).
pub(crate) trait PerLength: Copy {
    /// The number held: the squared length or its reciprocal (0 for a point either way).
    fn held(self) -> Real;
    /// `x` divided by the squared length.
    fn per(self, x: Real) -> Real;
    #[inline]
    fn is_zero(self) -> bool {
        self.held() == 0.0
    }
}

/// Division by the squared length itself.
#[derive(Clone, Copy)]
pub(crate) struct Divide(pub Real);

/// Multiplication by the reciprocal of the squared length (0 for a point).
#[derive(Clone, Copy)]
pub(crate) struct Reciprocal(pub Real);

impl PerLength for Divide {
    fn held(self) -> Real {
        self.0
    }
    #[inline]
    fn per(self, x: Real) -> Real {
        x / self.0
    }
}

impl PerLength for Reciprocal {
    fn held(self) -> Real {
        self.0
    }
    #[inline]
    fn per(self, x: Real) -> Real {
        x * self.0
    }
}

/// [`closest_parameters`] with the squared lengths' division chosen by the caller.
#[inline]
pub(crate) fn closest_parameters_by<L: PerLength>(
    p0: &Point3,
    u: &Vector3,
    uu: L,
    q0: &Point3,
    v: &Vector3,
    vv: L,
) -> (Real, Real) {
    let qp = q0 - p0;
    if uu.is_zero() {
        let t = if vv.is_zero() {
            0.0
        } else {
            clamp_unit(vv.per((-qp).dot(v)))
        };
        return (0.0, t);
    }
    if vv.is_zero() {
        return (clamp_unit(uu.per(qp.dot(u))), 0.0);
    }
    let n = u.cross(v);
    let nn = n.norm_squared();
    // Parallel, or `|u × v|²` (a fourth power of lengths) below the normal range — as when
    // one segment is 1e-126 of the other's length (found by fuzzing) — : start from the point
    // of a nearest b's start, which is right for parallel segments and, for a negligibly
    // short b, right to within b's length. (Starting from s = 0 reported the far end.)
    let s0 = if nn >= Real::MIN_POSITIVE {
        clamp_unit(qp.cross(v).dot(&n) / nn)
    } else {
        nearest_to_start(&qp, u, uu)
    };
    // Best t for s0: project P(s0) onto b's line.
    let t_raw = vv.per((u * s0 - qp).dot(v));
    if t_raw < 0.0 {
        (clamp_unit(uu.per(qp.dot(u))), 0.0)
    } else if t_raw > 1.0 {
        (clamp_unit(uu.per((qp + v).dot(u))), 1.0)
    } else if t_raw.is_nan() {
        (s0, 0.0)
    } else {
        (s0, t_raw)
    }
}

/// Parameter of the point of `p₀ + s u` nearest `p₀ + qp`; out of line, since it is rare
/// (parallel or underflowing pairs) and its division should not slow the common path.
#[cold]
#[inline(never)]
fn nearest_to_start<L: PerLength>(qp: &Vector3, u: &Vector3, uu: L) -> Real {
    clamp_unit(uu.per(qp.dot(u)))
}

/// The normal between close points of two segments (at parameters `s` on `p₀ + s u`, `t`
/// on `q₀ + t v`, `d = point_b − point_a` small, `rounding` the contact rounding bound of the
/// pair): `d` with its rounding-noise components removed — along an axis where its point is
/// interior (there the true `d` is perpendicular to that axis), and pointing back along an
/// axis at its end (into the body grown around it); within the rounding bound (`|d| ≤
/// rounding`), or when nothing is left, [`touching_normal`], which is perpendicular to both
/// axes and so allowed for ends and interiors alike.
///
/// Only components within `DROP_NOISE × rounding` are removed: a larger one is no rounding
/// noise (the "interior" of an axis shorter than the noise is itself noise), and removing it
/// would break `point_b − point_a = distance · normal` (found by fuzzing: swings of 45° for a
/// segment 1e-310 long; and a backward tilt of 8e-5 rad at an end, left in, put a capsule's
/// grown witness 1.6e-9 of the magnitude inside it).
pub(crate) fn near_normal(
    d: &Vector3,
    rounding: Real,
    (s, u): (Real, &Vector3),
    (t, v): (Real, &Vector3),
) -> Vector3 {
    if d.norm() <= rounding {
        return touching_normal(u, v);
    }
    let interior = |x: Real| x > 0.0 && x < 1.0;
    let limit = DROP_NOISE * rounding;
    let (uu, vv) = (
        try_normalize(u).unwrap_or_else(Vector3::zeros),
        try_normalize(v).unwrap_or_else(Vector3::zeros),
    );
    // At an end the normal may point beyond it (`n · u ≥ 0` at a's end `s = 1`, `≤ 0` at
    // `s = 0`; for b, grown along `−n`, the reverse), never back along the axis.
    let backward_u = if s >= 1.0 { -1.0 } else { 1.0 };
    let backward_v = if t >= 1.0 { 1.0 } else { -1.0 };
    let drop_u = |m: &Vector3| {
        let along = m.dot(&uu);
        along.abs() <= limit && (interior(s) || along * backward_u > 0.0)
    };
    let drop_v = |m: &Vector3| {
        let along = m.dot(&vv);
        along.abs() <= limit && (interior(t) || along * backward_v > 0.0)
    };
    let (du, dv) = (drop_u(d), drop_v(d));
    let normal: Option<Vector3> = match (du, dv) {
        // Both: d's part orthogonal to u and to v's part orthogonal to u (u × v would be ill
        // conditioned for nearly parallel axes, and turned 90° from d; found by fuzzing).
        (true, true) => {
            let m = perpendicular_part(d, &uu);
            let w = perpendicular_part(&vv, &uu);
            // d's component along w is small only when the axes are far from parallel (it is
            // (d·v − (u·v)(d·u)) / sin θ); where it is no noise it stays (found by fuzzing: a
            // normal 89° off the witnesses of segments 1.7e-6 rad from antiparallel).
            let skew = w.norm() > 1e-6;
            match try_normalize(&w).filter(|w| skew && m.dot(w).abs() <= limit) {
                Some(w) => try_normalize(&perpendicular_part(&m, &w)),
                None => try_normalize(&m),
            }
        }
        (true, false) => try_normalize(&perpendicular_part(d, &uu)),
        (false, true) => try_normalize(&perpendicular_part(d, &vv)),
        (false, false) => try_normalize(d),
    };
    // What is left once the noise is removed may itself be noise (d within the bound along
    // both nearly parallel axes, its part across them rounding only: its direction leaned
    // along the axes, found by fuzzing); then the two touch, and the normal is across both.
    match normal {
        Some(n) if du || dv => {
            let kept = n.dot(d);
            if kept > rounding {
                n
            } else {
                touching_normal(u, v)
            }
        }
        Some(n) => n,
        None => touching_normal(u, v),
    }
}

/// Multiple of the contact rounding bound up to which a component of `d` counts as rounding
/// noise in [`near_normal`].
const DROP_NOISE: Real = 16.0;

/// The normal to use when the witness points of two segments coincide.
///
/// The axes are normalised before their cross product: the product of a short axis and a
/// long one, once rescaled, can fall among the subnormal numbers and lose most of its digits
/// (found by fuzzing: a normal 6e-5 rad off perpendicular to a capsule's axis).
///
/// For axes within `1e-6` rad of (anti)parallel the cross product is mostly rounding noise
/// (its direction can lean along the axes: 6e-6 rad put a witness inside its capsule, found
/// by fuzzing): a unit vector exactly perpendicular to `u` is used, within `1e-6` of
/// perpendicular to `v`.
pub(crate) fn touching_normal(u: &Vector3, v: &Vector3) -> Vector3 {
    let unit = |w: &Vector3| try_normalize(w).unwrap_or_else(Vector3::zeros);
    let (uu, vv) = (unit(u), unit(v));
    let across = uu.cross(&vv);
    if across.norm() > 1e-6
        && let Some(n) = try_normalize(&across)
    {
        return n;
    }
    if uu != Vector3::zeros() {
        orthogonal_unit(&uu)
    } else {
        orthogonal_unit(&vv)
    }
}

/// Distance between segments `a` and `b`, with witness points and the normal from a to b.
///
/// Any finite input: pairs of extreme magnitude are rescaled (`safe_scale`).
#[inline]
pub fn segment_segment(a: &Segment, b: &Segment) -> Separation {
    let magnitude = a.magnitude().max(b.magnitude());
    if super::safe_scale::outside_safe_range(magnitude) {
        return super::safe_scale::rescaled(a, b, magnitude, segment_segment);
    }
    segment_segment_direct(a, b, magnitude)
}

/// [`segment_segment`] for magnitudes inside the safe range, measured in a canonical order
/// ([`canonical_order`](super::canonical_order)) and flipped for the other, so that (a, b)
/// and (b, a) agree exactly: two segments ~1e-14 of their magnitude apart were "touching" one
/// way and 0.002 apart (at a magnitude of 1.4e11) the other (found by fuzzing).
#[inline]
pub(crate) fn segment_segment_direct(a: &Segment, b: &Segment, magnitude: Real) -> Separation {
    let ends = |s: &Segment| {
        let (p, q) = (s.a(), s.b());
        [p.x, p.y, p.z, q.x, q.y, q.z]
    };
    let swap = super::canonical_order::precedes(ends(b), ends(a));
    let (first, second) = if swap { (b, a) } else { (a, b) };
    let pair = closest_points(first, second);
    let found = Separation::between_points(pair.point_a, pair.point_b, magnitude, |d, noise| {
        near_normal(
            d,
            noise,
            (pair.s, &first.direction()),
            (pair.t, &second.direction()),
        )
    });
    if swap { found.flipped() } else { found }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(a: [f64; 3], b: [f64; 3]) -> Segment {
        Segment::new(a.into(), b.into()).unwrap()
    }

    #[test]
    fn perpendicular_skew() {
        let r = segment_segment(
            &seg([-1.0, 0.0, 0.0], [1.0, 0.0, 0.0]),
            &seg([0.0, -1.0, 2.0], [0.0, 1.0, 2.0]),
        );
        assert_eq!(r.distance, 2.0);
        assert_eq!(r.point_a, Point3::origin());
        assert_eq!(r.point_b, Point3::new(0.0, 0.0, 2.0));
        assert_eq!(r.normal, Vector3::z());
    }

    #[test]
    fn parallel_overlapping_and_disjoint() {
        let a = seg([0.0, 0.0, 0.0], [2.0, 0.0, 0.0]);
        let r = segment_segment(&a, &seg([1.0, 1.0, 0.0], [3.0, 1.0, 0.0]));
        assert_eq!(r.distance, 1.0);
        let r = segment_segment(&a, &seg([5.0, 4.0, 0.0], [9.0, 4.0, 0.0]));
        assert_eq!(r.distance, 5.0); // (2,0,0) to (5,4,0)
        // Anti-parallel collinear, overlapping: distance 0, normal perpendicular to the axis.
        let r = segment_segment(&a, &seg([3.0, 0.0, 0.0], [1.0, 0.0, 0.0]));
        assert_eq!(r.distance, 0.0);
        assert!(r.normal.x.abs() < 1e-15 && (r.normal.norm() - 1.0).abs() < 1e-15);
    }

    #[test]
    fn crossing_segments_touch_with_plane_normal() {
        let r = segment_segment(
            &seg([-1.0, 0.0, 0.0], [1.0, 0.0, 0.0]),
            &seg([0.0, -1.0, 0.0], [0.0, 1.0, 0.0]),
        );
        assert_eq!(r.distance, 0.0);
        assert_eq!(r.normal, Vector3::z());
    }

    #[test]
    fn endpoint_to_interior() {
        // b's endpoint (0.5, 1, 0) is nearest to a's interior.
        let r = segment_segment(
            &seg([0.0, 0.0, 0.0], [1.0, 0.0, 0.0]),
            &seg([0.5, 1.0, 0.0], [0.5, 3.0, 1.0]),
        );
        assert_eq!(r.distance, 1.0);
        assert_eq!(r.point_a, Point3::new(0.5, 0.0, 0.0));
    }

    #[test]
    fn endpoint_to_endpoint() {
        let r = segment_segment(
            &seg([0.0, 0.0, 0.0], [1.0, 0.0, 0.0]),
            &seg([2.0, 1.0, 0.0], [3.0, 5.0, 0.0]),
        );
        assert!((r.distance - 2.0f64.sqrt()).abs() < 1e-15);
    }

    #[test]
    fn zero_length_segments() {
        let p = seg([1.0, 1.0, 1.0], [1.0, 1.0, 1.0]);
        let r = segment_segment(&p, &seg([0.0, 0.0, 0.0], [2.0, 0.0, 0.0]));
        assert!((r.distance - 2.0f64.sqrt()).abs() < 1e-15);
        let r = segment_segment(&seg([0.0, 0.0, 0.0], [2.0, 0.0, 0.0]), &p);
        assert!((r.distance - 2.0f64.sqrt()).abs() < 1e-15);
        let r = segment_segment(&p, &p);
        assert_eq!(r.distance, 0.0);
        assert_eq!(r.normal, Vector3::x());
    }

    #[test]
    fn seed_note_crossing_at_millimetre_scale_has_no_nan() {
        // SEED-NOTES 000: √F(s_c, t_c) gives NaN for crossing segments at ~1000 mm scale.
        let r = segment_segment(
            &seg([-1000.0, 0.0, 0.0], [1000.0, 0.1, 0.0]),
            &seg([0.0, -1000.0, 0.0], [0.1, 1000.0, 0.0]),
        );
        assert!(r.distance == 0.0 || (r.distance > 0.0 && r.distance < 1e-9));
        assert!(r.normal.iter().all(|c| c.is_finite()));
    }
}
