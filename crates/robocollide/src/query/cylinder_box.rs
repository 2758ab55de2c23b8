//! Cylinder–box: certified when apart, conservative when overlapping.
//!
//! Apart: GJK ([`gjk`](super::gjk)) certifies a separating direction; its gap is refined along
//! the ridges of the two support functions (the cylinder's axis and the box's axes) until the
//! two bounds meet, as for cylinder pairs ([`convex_pair`](super::convex_pair)). The reported
//! distance is the certified lower bound.
//!
//! Touching or overlapping (no separating direction certified): the penetration depth of a box
//! and a cylinder has no closed form. Any unit `n` gives a lower bound `g(n)` on the signed
//! distance ([`support_gap`](super::support_gap)), so the reported value is the best gap over
//! the candidate directions — the box's face normals, the cylinder's axis, their cross
//! products, the centre line, 96 directions spread over the sphere — the best four refined by
//! pattern search: never shallower than the truth, so an overlapping pair is never reported
//! apart.

use super::Separation;
use super::certificate::contact_witnesses;
use super::convex_pair::refined_gjk;
use super::gjk::gjk_separation;
use super::separation::CONTACT_ROUNDING;
use super::support_gap::{fibonacci_direction, gap_along, refine_gap, shape_frame};
use super::support_map::SupportMap;
use crate::geom::{Cylinder, OrientedBox};
use crate::math::{Real, Vector3, try_normalize};

/// Directions of the global search for the penetration estimate.
const DIRECTIONS: usize = 96;
/// Best directions refined by pattern search.
const STARTS: usize = 4;

/// Alternating projections allowed to polish GJK's answer.
const POLISH_STEPS: usize = 64;

/// GJK's certified answer improved by alternating exact projections from its witnesses (they
/// converge to a closest pair; the gap along each pair's direction is another certified lower
/// bound, kept when larger), returned with witnesses that realise the reported gap along its
/// normal (`point_b − point_a = distance · normal`).
fn polished(a: &Cylinder, b: &OrientedBox, found: Separation, magnitude: Real) -> Separation {
    let mut best = found;
    let mut y = found.point_b;
    let mut improved = false;
    for _ in 0..POLISH_STEPS {
        let x = SupportMap::nearest_point(a, &y);
        y = SupportMap::nearest_point(b, &x);
        let span = (y - x).norm();
        if let Some(n) = try_normalize(&(y - x)) {
            let g = gap_along(a, b, &n);
            if g.distance > best.distance {
                best = g;
                improved = true;
            }
        }
        if span - best.distance <= 1e-13 * magnitude {
            break;
        }
    }
    let identity = ((best.point_b - best.point_a) - best.normal * best.distance).norm();
    if improved || identity > 1e-13 * magnitude {
        contact_witnesses(a, b, &best.normal, magnitude)
    } else {
        best
    }
}

/// Signed distance from a cylinder (a) to a box (b).
pub fn cylinder_box(a: &Cylinder, b: &OrientedBox) -> Separation {
    let magnitude = (a.axis().magnitude() + a.radius()).max(b.magnitude());
    if super::safe_scale::outside_safe_range(magnitude) {
        return super::safe_scale::rescaled(a, b, magnitude, cylinder_box);
    }
    let u = a.unit_axis();
    let axes = [u, b.axis(0), b.axis(1), b.axis(2)];
    let apart = CONTACT_ROUNDING * magnitude;
    if let Some(g) = gjk_separation(a, b, magnitude).filter(|g| g.lower > apart) {
        let found = refined_gjk(a, b, magnitude, g, &axes);
        return polished(a, b, found, magnitude).with_contact_rounding(magnitude);
    }
    let mut candidates = vec![b.center() - a.axis().at(0.5)];
    for e in &axes[1..] {
        candidates.extend([*e, u.cross(e)]);
    }
    candidates.push(u);
    // Plus a Fibonacci sphere in a frame of the shapes' own axes (pose-equivariant).
    let frame = shape_frame(&axes, &candidates);
    candidates.extend((0..DIRECTIONS).map(|i| frame * fibonacci_direction(i, DIRECTIONS)));
    let mut starts: Vec<Separation> = candidates
        .iter()
        .filter_map(try_normalize)
        .flat_map(|n| [n, -n])
        .map(|n| gap_along(a, b, &n))
        .collect();
    starts.sort_unstable_by(|x, y| y.distance.total_cmp(&x.distance));
    let refined = starts
        .into_iter()
        .take(STARTS)
        .map(|start| refine_gap(a, b, start, 0.05, 1e-10, &axes))
        .max_by(|x, y| x.distance.total_cmp(&y.distance))
        .unwrap_or_else(|| gap_along(a, b, &Vector3::x()));
    contact_witnesses(a, b, &refined.normal, magnitude).with_contact_rounding(magnitude)
}
