//! Capsule–box (and segment–box, point–box as its degenerate cases): exact in every case.
//!
//! **Apart.** In the box's frame the squared distance from `p(t) = p₀ + t d` to the box is
//! `f(t) = Σᵢ max(0, |pᵢ(t)| − hᵢ)²`: convex, and between the (at most six) parameters where
//! the segment crosses a face plane `xᵢ = ±hᵢ` a single quadratic. So `[0, 1]` is cut at those
//! parameters and each piece's quadratic is minimised in closed form; the least value over the
//! pieces is the exact minimum (evaluated directly from the clamped point, not from the
//! quadratic's coefficients).
//!
//! **Touching or overlapping.** The Minkowski difference of a box and a segment is a polytope
//! whose facet normals are the box's three face normals and the three cross products of a box
//! axis with the segment's direction; the penetration depth is the least overlap along those
//! six axes (separating-axis theorem), which is therefore exact. Axes from a cross product
//! shorter than `1e-12` of the segment's length (a segment parallel to a box axis) are
//! dropped: their facets coincide with face normals' ones. Witnesses come from the touching
//! position: the segment moved out by the depth along the normal touches the box, where the
//! closed form above finds the common point exactly.
//!
//! A capsule is its segment grown by the radius, so its signed distance is the segment's minus
//! the radius, in both regimes.

use super::Separation;
use crate::geom::{Capsule, OrientedBox, Segment};
use crate::math::{Real, Vector3, clamp_symmetric};

/// Signed distance from a capsule (a) to a box (b).
pub fn capsule_box(a: &Capsule, b: &OrientedBox) -> Separation {
    let magnitude = (a.axis().magnitude() + a.radius()).max(b.magnitude());
    if super::safe_scale::outside_safe_range(magnitude) {
        return super::safe_scale::rescaled(a, b, magnitude, capsule_box);
    }
    segment_box(a.axis(), b, magnitude)
        .inflated(a.radius(), 0.0)
        .with_contact_rounding(magnitude)
}

/// `capsule_box(a, b).distance` without the witness points and normal when the pair is
/// apart beyond the touching bound (the same arithmetic, so the same value): for distance-only
/// searches.
pub(crate) fn capsule_box_distance(a: &Capsule, b: &OrientedBox) -> Real {
    let magnitude = (a.axis().magnitude() + a.radius()).max(b.magnitude());
    if !super::safe_scale::outside_safe_range(magnitude) {
        let s = a.axis();
        let p0 = b.to_local(&s.a());
        let closest = closest_to_box(&p0, &(b.to_local(&s.b()) - p0), &b.half_extents());
        let core = (closest.on_box - closest.on_segment).norm();
        if core > TOUCHING * magnitude {
            let distance = core - a.radius();
            let rounded = distance > 0.0 && distance <= TOUCHING * magnitude;
            return if rounded { 0.0 } else { distance };
        }
    }
    capsule_box(a, b).distance
}

/// Below this distance (relative to the magnitude) the pair is measured as touching
/// (separating axes). Above it the excess vector is exact in the box's frame (its components
/// along unclamped axes are exactly 0), so its direction is a good normal; 1e-9 here put
/// pairs 1e-10 of a long segment's magnitude apart on the touching path, whose witnesses
/// then left the capsule (found by fuzzing).
const TOUCHING: Real = super::separation::CONTACT_ROUNDING;

/// Signed distance from a segment (a) to a box (b), before contact rounding.
pub(crate) fn segment_box(s: &Segment, b: &OrientedBox, magnitude: Real) -> Separation {
    let p0 = b.to_local(&s.a());
    let d = b.to_local(&s.b()) - p0;
    let h = b.half_extents();
    let closest = closest_to_box(&p0, &d, &h);
    let excess = closest.on_box - closest.on_segment;
    let distance = excess.norm();
    if distance > TOUCHING * magnitude {
        let mut normal = excess * (1.0 / distance);
        if distance <= super::separation::CAREFUL * magnitude {
            // Where the segment crosses a face plane, rounding in its parameter leaves a
            // component along the crossing axis in the excess, of the magnitude's rounding
            // unit: at a distance 2e-12 of the magnitude that tilted the normal 1.7e-5 rad
            // along the axis and put the capsule's grown witness inside it (found by
            // fuzzing). At an interior point the true normal is perpendicular to the axis; at
            // an end it cannot point back along the segment (the end would not be closest),
            // which rounding also did: a huge capsule's end 5e-14 of the magnitude from a box
            // 1e-27 of it, the normal 0.08° back, its grown witness 7e-8 of the magnitude
            // inside the capsule (found by fuzzing). Either way, what is along the axis goes.
            if let Some(u) = crate::math::try_normalize(&d) {
                let along = excess.dot(&u);
                let at_start = !closest.interior && closest.on_segment == p0;
                let axial_is_noise =
                    closest.interior || (at_start && along > 0.0) || (!at_start && along < 0.0);
                if let Some(across) =
                    crate::math::try_normalize(&crate::math::perpendicular_part(&excess, &u))
                        .filter(|_| axial_is_noise)
                {
                    normal = across;
                }
            }
        }
        return Separation {
            distance,
            point_a: b.to_world(&closest.on_segment),
            point_b: b.to_world(&closest.on_box),
            normal: b.direction_to_world(&normal),
        };
    }
    // Touching or overlapping: the least overlap over the six candidate axes.
    let middle = p0 + d * 0.5;
    // Face axes eᵢ: overlap hᵢ + |dᵢ|/2 − |mᵢ|.
    let mut best = (Real::INFINITY, Vector3::zeros(), 1.0);
    for i in 0..3 {
        let overlap = h[i] + 0.5 * d[i].abs() - middle[i].abs();
        if overlap < best.0 {
            // From the segment towards the box (the box's centre is the local origin).
            let mut towards_box = Vector3::zeros();
            towards_box[i] = if middle[i] > 0.0 { -1.0 } else { 1.0 };
            best = (overlap, towards_box, 1.0);
        }
    }
    // Edge × segment axes eᵢ × u, unless nearly parallel (their facets are the faces' then):
    // perpendicular to the segment, so the overlap is (h · |a| − |m · a|) / |a|; normalised
    // only for the winner.
    if let Some(u) = crate::math::try_normalize(&d) {
        for i in 0..3 {
            let (j, k) = ((i + 1) % 3, (i + 2) % 3);
            let mut axis = Vector3::zeros();
            axis[j] = -u[k];
            axis[k] = u[j];
            let length = (u[j] * u[j] + u[k] * u[k]).sqrt();
            if length > 1e-12 {
                let along = middle.dot(&axis);
                let overlap = (h.dot(&axis.abs()) - along.abs()) / length;
                if overlap < best.0 {
                    best = (overlap, if along > 0.0 { -axis } else { axis }, length);
                }
            }
        }
    }
    let best = (best.0, best.1 / best.2);
    if best.0 < 0.0 {
        // Apart by less than the touching bound after all (contact rounding will call it
        // contact): the exact closest points, with the axis as the normal.
        return Separation {
            distance,
            point_a: b.to_world(&closest.on_segment),
            point_b: b.to_world(&closest.on_box),
            normal: b.direction_to_world(&best.1),
        };
    }
    // Witnesses where the two touch once the segment is moved out by the depth (along the
    // normal, away from the box): its closest point to the box there, exactly, and that point
    // moved back; so `point_b − point_a = distance · normal` by construction.
    let (depth, towards_box) = best;
    let moved = p0 - towards_box * depth;
    let touching = closest_to_box(&moved, &d, &h);
    let normal = b.direction_to_world(&towards_box);
    let point_b = b.to_world(&touching.on_box);
    Separation {
        distance: -depth,
        point_a: point_b + normal * depth,
        point_b,
        normal,
    }
}

/// Closest points of a segment `p₀ + t d` (`t ∈ [0, 1]`) and the box `[−h, h]`, in the box's
/// frame.
pub(crate) struct ClosestToBox {
    /// The segment's point.
    pub on_segment: Vector3,
    /// The box's point (the segment's point clamped to the box).
    pub on_box: Vector3,
    /// Whether the segment's point is strictly inside the segment (not an end).
    pub interior: bool,
}

/// The exact minimiser of `f(t) = |p(t) − clamp(p(t))|²` over `[0, 1]` by pieces (module
/// docs). `f` is convex, so the pieces are taken in order and the first whose quadratic has
/// its minimiser before the piece's end holds the minimum: at that minimiser, clamped to the
/// piece (an earlier piece would have held it if `f` rose before).
#[inline(always)]
pub(crate) fn closest_to_box(p0: &Vector3, d: &Vector3, h: &Vector3) -> ClosestToBox {
    let mut cuts = [0.0; 7];
    let mut count = 0;
    for i in 0..3 {
        if d[i] != 0.0 {
            // One division per axis; a subnormal dᵢ has no finite inverse and is divided by.
            let inverse = 1.0 / d[i];
            for face in [-h[i], h[i]] {
                let t = if inverse.is_finite() {
                    (face - p0[i]) * inverse
                } else {
                    (face - p0[i]) / d[i]
                };
                if t > 0.0 && t < 1.0 {
                    cuts[count] = t;
                    count += 1;
                }
            }
        }
    }
    cuts[count] = 1.0;
    count += 1;
    // Insertion sort: at most seven numbers, mostly in order already.
    for k in 1..count {
        let mut j = k;
        while j > 0 && cuts[j - 1] > cuts[j] {
            cuts.swap(j - 1, j);
            j -= 1;
        }
    }
    let at = |t: Real| {
        let on_segment = p0 + d * t;
        let interior = t > 0.0 && t < 1.0;
        let on_box = Vector3::new(
            clamp_symmetric(on_segment.x, h.x),
            clamp_symmetric(on_segment.y, h.y),
            clamp_symmetric(on_segment.z, h.z),
        );
        ClosestToBox {
            on_segment,
            on_box,
            interior,
        }
    };
    let mut start = 0.0;
    for &end in &cuts[..count] {
        if end <= start {
            continue;
        }
        // The active faces on this piece, and the piece's quadratic A t² + 2 B t + C.
        let middle = p0 + d * (0.5 * (start + end));
        let (mut a2, mut b1) = (0.0, 0.0);
        for i in 0..3 {
            let face = if middle[i] > h[i] {
                h[i]
            } else if middle[i] < -h[i] {
                -h[i]
            } else {
                continue;
            };
            a2 += d[i] * d[i];
            b1 += d[i] * (p0[i] - face);
        }
        if a2 <= 0.0 {
            // Constant on the piece (no active face moves): a convex function's least value.
            return at(start);
        }
        let t = -b1 / a2;
        // A minimiser within rounding of the piece's end is left to the next piece, which
        // starts there: where one face's term dominates the quadratic, another face's still
        // falling term moves the true minimiser past the end by less than t's rounding, and
        // stopping here left a capsule deep in a huge box with its witness 7e-11 of the
        // magnitude (a radius) off the capsule (found by fuzzing).
        if t < end - 4.0 * Real::EPSILON * end {
            return at(t.clamp(start, end));
        }
        start = end;
    }
    at(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Point3;

    fn p(x: f64, y: f64, z: f64) -> Point3 {
        Point3::new(x, y, z)
    }

    fn cube() -> OrientedBox {
        OrientedBox::axis_aligned(Point3::origin(), Vector3::new(1.0, 1.0, 1.0)).unwrap()
    }

    #[test]
    fn apart_over_an_edge_and_a_face() {
        // A segment crossing above the edge x = 1, z = 1 at height 1 over it, diagonally.
        let s = Segment::new(p(3.0, -1.0, 1.0), p(-1.0, 3.0, 3.0)).unwrap();
        let c = Capsule::new(s.a(), s.b(), 0.0).unwrap();
        let r = capsule_box(&c, &cube());
        // Brute force over t.
        let brute = (0..=200_000)
            .map(|k| {
                let q = s.at(k as f64 / 200_000.0);
                (q.coords - q.coords.map(|x| x.clamp(-1.0, 1.0))).norm()
            })
            .fold(f64::INFINITY, f64::min);
        assert!(r.distance <= brute && brute - r.distance < 1e-9);
        assert!(((r.point_b - r.point_a) - r.normal * r.distance).norm() < 1e-14);
        // Parallel to the top face, 0.5 above it, radius 0.2.
        let c = Capsule::new(p(-3.0, 0.0, 1.5), p(3.0, 0.0, 1.5), 0.2).unwrap();
        let r = capsule_box(&c, &cube());
        assert!((r.distance - 0.3).abs() < 1e-15);
        assert_eq!(r.normal, -Vector3::z());
    }

    #[test]
    fn penetration_is_the_least_overlap() {
        // Through the cube along x, 0.25 below the top face: leaves upward by 0.25.
        let c = Capsule::new(p(-3.0, 0.0, 0.75), p(3.0, 0.0, 0.75), 0.0).unwrap();
        let r = capsule_box(&c, &cube());
        assert!((r.distance + 0.25).abs() < 1e-15, "{r:?}");
        assert!((r.normal + Vector3::z()).norm() < 1e-15);
        // Diagonal through the centre: the edge-cross axis beats the faces.
        let c = Capsule::new(p(-3.0, -3.0, 0.0), p(3.0, 3.0, 0.0), 0.0).unwrap();
        let r = capsule_box(&c, &cube());
        // Leaving along z costs 1; along (1,−1,0)/√2 costs √2; the faces x or y cost
        // 2 (the segment spans them). So 1 along z.
        assert!((r.distance + 1.0).abs() < 1e-15, "{r:?}");
        assert!(((r.point_b - r.point_a) - r.normal * r.distance).norm() < 1e-14);
    }
}
