//! Sphere–box: exact in every case.
//!
//! In the box's frame the closest point of the solid box to the centre is the centre clamped
//! to `[−h, h]` on each axis. Inside (boundary included), the box is the intersection of three
//! slabs, so the centre leaves it through the nearest face, `h_i − |l_i|` away: the depth is
//! exact. A flat box (`h_i = 0`) is left through its own plane at depth 0.

use super::Separation;
use crate::geom::{OrientedBox, Sphere};
use crate::math::{Point3, Real, Vector3, larger, max_abs};

/// Signed distance from a sphere (a) to a box (b).
#[inline]
pub fn sphere_box(a: &Sphere, b: &OrientedBox) -> Separation {
    let (c, r) = (a.center(), a.radius());
    let (l, h) = (b.to_local(&c), b.half_extents());
    let excess = clamped(&l, &h) - l;
    let squared = excess.norm_squared();
    if squared > NORMAL_SQUARES && squared < LARGE_SQUARES {
        // Outside by a length whose square is a normal number (the common case). No product
        // here can overflow or underflow, whatever the coordinates' magnitude, so the pair is
        // not rescaled. The excess is turned into the world while its length is taken.
        let world = b.direction_to_world(&excess);
        let length = squared.sqrt();
        let normal = world * (1.0 / length);
        let distance = length - r;
        // Contact rounding, the magnitude taken only for a small positive distance (a
        // length below the rounding bound is rare).
        let rounded =
            distance > 0.0 && distance <= super::separation::CONTACT_ROUNDING * magnitude(a, b);
        return Separation {
            distance: if rounded { 0.0 } else { distance },
            point_a: c + normal * r,
            point_b: c + world,
            normal,
        };
    }
    inside_or_extreme(a, b)
}

/// The scale of rounding errors for the pair.
#[inline]
fn magnitude(a: &Sphere, b: &OrientedBox) -> Real {
    larger(max_abs(&a.center().coords) + a.radius(), b.magnitude())
}

/// [`sphere_box`] when the sphere's centre is inside the box, on its boundary, or outside by
/// a length whose square is not a normal number, or when coordinates overflow: rescaled
/// where the magnitude asks for it, else the point–box closed form grown by the radius.
#[cold]
#[inline(never)]
fn inside_or_extreme(a: &Sphere, b: &OrientedBox) -> Separation {
    let magnitude = magnitude(a, b);
    if super::safe_scale::outside_safe_range(magnitude) {
        return super::safe_scale::rescaled(a, b, magnitude, sphere_box);
    }
    let (c, h) = (a.center(), b.half_extents());
    point_box(&c, b, &b.to_local(&c), &h)
        .inflated(a.radius(), 0.0)
        .with_contact_rounding(magnitude)
}

/// Squared lengths above this are normal numbers whose square roots divide safely.
const NORMAL_SQUARES: Real = 1e-280;
/// Squared lengths below this leave room for every product of the fast path.
const LARGE_SQUARES: Real = 1e280;

/// `l` clamped to the box `[−h, h]`.
#[inline]
fn clamped(l: &Vector3, h: &Vector3) -> Vector3 {
    use crate::math::clamp_symmetric;
    Vector3::new(
        clamp_symmetric(l.x, h.x),
        clamp_symmetric(l.y, h.y),
        clamp_symmetric(l.z, h.z),
    )
}

/// `sphere_box(a, b).distance` without the witness points and normal (the same arithmetic for
/// the distance, so the same value): for the checker's distance-only queries (planners).
#[inline(always)]
pub(crate) fn sphere_box_distance(a: &Sphere, b: &OrientedBox) -> Real {
    let (l, h) = (b.to_local(&a.center()), b.half_extents());
    let excess = clamped(&l, &h) - l;
    let squared = excess.norm_squared();
    if !(squared > NORMAL_SQUARES && squared < LARGE_SQUARES) {
        return inside_or_extreme(a, b).distance;
    }
    let magnitude = magnitude(a, b);
    let distance = squared.sqrt() - a.radius();
    if distance > 0.0 && distance <= super::separation::CONTACT_ROUNDING * magnitude {
        0.0
    } else {
        distance
    }
}

/// The outward face normal (box frame) of the face nearest to the local point `l`, and how
/// far inside that face `l` lies (negative outside): the face of least `h_i − |l_i|`.
#[inline]
fn nearest_face(l: &Vector3, h: &Vector3) -> (Vector3, Real) {
    let mut best = (Vector3::zeros(), Real::INFINITY);
    for i in 0..3 {
        let depth = h[i] - l[i].abs();
        if depth < best.1 {
            let mut out = Vector3::zeros();
            out[i] = if l[i] < 0.0 { -1.0 } else { 1.0 };
            best = (out, depth);
        }
    }
    best
}

/// For a local point `l` outside the box of half-extents `h`: the unit excess vector (box
/// frame, from the point towards the box) and the distance. The excess (clamped − l) is exact
/// in the box frame (zero along unclamped axes), so its direction is the normal even when it
/// is tiny. `None` inside (boundary included) or when the excess cannot be normalised.
#[inline]
fn outside(l: &Vector3, h: &Vector3) -> Option<(Vector3, Real)> {
    let clamped = clamped(l, h);
    if clamped == *l {
        return None;
    }
    let excess = clamped - l;
    // Tiny lengths are scaled before normalising (`try_normalize`).
    let unit = crate::math::try_normalize(&excess)?;
    Some((unit, unit.dot(&excess)))
}

/// Signed distance from a point `p` (a) to a box (b), negative inside, given `p` in the box's
/// frame (`l`) and its half-extents: the cases the fast path of [`sphere_box`] leaves (inside,
/// on the boundary, or outside by a length whose square is not a normal number).
#[cold]
fn point_box(p: &Point3, b: &OrientedBox, l: &Vector3, h: &Vector3) -> Separation {
    if let Some((unit, distance)) = outside(l, h) {
        // Turned into the world once, the unit excess gives the box's witness and the normal.
        let normal = b.direction_to_world(&unit);
        return Separation {
            distance,
            point_a: *p,
            point_b: p + normal * distance,
            normal,
        };
    }
    let (out, depth) = nearest_face(l, h);
    let depth = depth.max(0.0);
    let world_out = b.direction_to_world(&out);
    Separation {
        distance: -depth,
        point_a: *p,
        point_b: p + world_out * depth,
        normal: -world_out,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit_box() -> OrientedBox {
        OrientedBox::axis_aligned(Point3::origin(), Vector3::new(1.0, 2.0, 3.0)).unwrap()
    }

    #[test]
    fn the_distance_only_query_gives_the_same_value() {
        let mut unit = crate::math::unit_random(7);
        let mut next = || unit() * 2.0 - 1.0;
        for _ in 0..20_000 {
            let b = OrientedBox::from_rpy(
                Point3::new(next(), next(), next()),
                [3.0 * next(), 3.0 * next(), 3.0 * next()],
                Vector3::new(next().abs(), next().abs(), next().abs()),
            )
            .unwrap();
            let s = Sphere::new(
                Point3::new(2.0 * next(), 2.0 * next(), 2.0 * next()),
                next().abs(),
            )
            .unwrap();
            assert_eq!(sphere_box_distance(&s, &b), sphere_box(&s, &b).distance);
        }
    }

    #[test]
    fn outside_face_edge_vertex() {
        let s = |c: [f64; 3], r: f64| Sphere::new(c.into(), r).unwrap();
        let r = sphere_box(&s([3.0, 0.0, 0.0], 0.5), &unit_box());
        assert_eq!((r.distance, r.normal), (1.5, -Vector3::x()));
        assert_eq!(r.point_b, Point3::new(1.0, 0.0, 0.0));
        // Vertex (1, 2, 3) to (4, 6, 3): 5.
        let r = sphere_box(&s([4.0, 6.0, 3.0], 1.0), &unit_box());
        assert_eq!(r.distance, 4.0);
        assert_eq!(r.point_b, Point3::new(1.0, 2.0, 3.0));
        assert_eq!(
            sphere_box(&s([0.0, 2.5, 0.0], 0.5), &unit_box()).distance,
            0.0
        );
    }

    #[test]
    fn inside_exits_through_nearest_face() {
        let s = |c: [f64; 3], r: f64| Sphere::new(c.into(), r).unwrap();
        let r = sphere_box(&s([0.0, 1.5, 0.0], 0.25), &unit_box());
        assert_eq!(r.distance, -0.75);
        assert_eq!(r.normal, -Vector3::y());
        assert_eq!(r.point_b, Point3::new(0.0, 2.0, 0.0));
        assert_eq!(r.point_a, Point3::new(0.0, 1.25, 0.0));
        // A flat box: the centre on it is in contact at depth 0.
        let flat =
            OrientedBox::axis_aligned(Point3::origin(), Vector3::new(1.0, 1.0, 0.0)).unwrap();
        let r = sphere_box(&s([0.5, 0.5, 0.0], 0.0), &flat);
        assert_eq!(r.distance, 0.0);
        assert_eq!(r.normal.z.abs(), 1.0);
    }
}
