//! Cylinder–box: certified when apart, conservative when overlapping.
//!
//! Apart, the side first: the cylinder lies inside the capsule of the same axis and radius,
//! so the capsule's distance to the box ([`capsule_box`], exact) is a lower bound on the
//! cylinder's; when the capsule's witness lies on the cylinder's side (its normal
//! perpendicular to the axis, so not on a cap's half-ball) the two distances are equal, and
//! the capsule's answer is the cylinder's. The test allows the witness to be off the side by
//! `1e-13` of the pair's magnitude at most: the witness is at most `r·|n·u|` from the
//! cylinder (`u` the unit axis, `n` the normal), so that bounds how much larger the
//! cylinder's distance can be.
//!
//! Otherwise apart: GJK ([`gjk`](super::gjk)) certifies a separating direction; its gap is
//! refined along the ridges of the two support functions (the cylinder's axis and the box's
//! axes) until the two bounds meet, as for cylinder pairs
//! ([`convex_pair`](super::convex_pair)). The reported distance is the certified lower bound.
//!
//! Touching or overlapping (no separating direction certified): the penetration depth of a box
//! and a cylinder has no closed form. Any unit `n` gives a lower bound `g(n)` on the signed
//! distance ([`support_gap`](super::support_gap)), so the reported value is the best gap over
//! the candidate directions — the box's face normals, the cylinder's axis, their cross
//! products, the centre line, 96 directions spread over the sphere — the best four refined by
//! pattern search: never shallower than the truth, so an overlapping pair is never reported
//! apart.
//!
//! A contact test needs neither the depth nor the exact distance of an apart pair
//! (`cylinder_box_contact_distance`): alternating exact projections between the shapes
//! (von Neumann), from the box's point nearest to the cylinder's axis, prove an overlap when
//! they reach a point of the cylinder within half the contact rounding of the box; GJK stops
//! at its first certified gap beyond the contact rounding. On the UR5 with cylinder links
//! among 50 boxes this took the contact test from 30 to 1.8 µs per configuration, and the
//! pair search's capsule lower bound (`collision/solid_distance.rs`) to 0.86 µs
//! (`benches/README.md`).

use super::Separation;
use super::capsule_box::{capsule_box, closest_to_box};
use super::certificate::contact_witnesses;
use super::convex_pair::refined_gjk;
use super::gjk::{gjk_separation, gjk_separation_beyond};
use super::separation::CONTACT_ROUNDING;
use super::support_gap::{fibonacci_direction, gap_along, refine_gap, shape_frame};
use super::support_map::SupportMap;
use crate::geom::{Capsule, Cylinder, OrientedBox};
use crate::math::{Real, Vector3, try_normalize};

/// Directions of the global search for the penetration estimate.
const DIRECTIONS: usize = 96;
/// Best directions refined by pattern search.
const STARTS: usize = 4;

/// How far (relative to the pair's magnitude) the capsule's witness may be from the
/// cylinder's side for the capsule's answer to stand as the cylinder's.
const SIDE_TOLERANCE: Real = 1e-13;

/// Alternating projections [`meet_within`] may take.
const MEETING_STEPS: usize = 64;

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

/// The capsule's answer (same axis and radius) when the pair is apart beyond `apart` and the
/// capsule's witness lies on the cylinder's side (see the module docs); `None` otherwise.
fn side_contact(a: &Cylinder, b: &OrientedBox, magnitude: Real, apart: Real) -> Option<Separation> {
    // (A flat cylinder, a disc, has no side; lengths are finite and non-negative.)
    if a.length() <= 0.0 {
        return None;
    }
    let found = capsule_box(&Capsule::from_finite(*a.axis(), a.radius()), b);
    let off_side = a.radius() * found.normal.dot(&a.unit_axis()).abs();
    (found.distance > apart && off_side <= SIDE_TOLERANCE * magnitude).then_some(found)
}

/// The scale of the pair's coordinates, for tolerances and contact rounding.
#[inline]
fn pair_magnitude(a: &Cylinder, b: &OrientedBox) -> Real {
    (a.axis().magnitude() + a.radius()).max(b.magnitude())
}

/// Signed distance from a cylinder (a) to a box (b).
pub fn cylinder_box(a: &Cylinder, b: &OrientedBox) -> Separation {
    let magnitude = pair_magnitude(a, b);
    if super::safe_scale::outside_safe_range(magnitude) {
        return super::safe_scale::rescaled(a, b, magnitude, cylinder_box);
    }
    let apart = CONTACT_ROUNDING * magnitude;
    side_contact(a, b, magnitude, apart).unwrap_or_else(|| by_support_gaps(a, b, magnitude, apart))
}

/// For a contact test: at most 0 exactly when `cylinder_box(a, b).distance` is, and when
/// positive a certified lower bound on the distance. A pair shown to overlap (or to touch
/// within rounding) by [`meet_within`] gives 0 instead of its depth, which costs the
/// direction search; an apart pair GJK separates beyond the contact rounding gives GJK's
/// first gap beyond it, unrefined. (A distance proven at most half the contact rounding is
/// one the full query reports as contact too.)
pub(crate) fn cylinder_box_contact_distance(a: &Cylinder, b: &OrientedBox) -> Real {
    let magnitude = pair_magnitude(a, b);
    if super::safe_scale::outside_safe_range(magnitude) {
        return cylinder_box(a, b).distance;
    }
    let apart = CONTACT_ROUNDING * magnitude;
    if let Some(found) = side_contact(a, b, magnitude, apart) {
        return found.distance;
    }
    if meet_within(a, b, 0.5 * apart) {
        return 0.0;
    }
    match gjk_separation_beyond(a, b, magnitude, apart) {
        Some(g) if g.lower > apart => g.lower,
        _ => by_support_gaps(a, b, magnitude, apart).distance,
    }
}

/// Alternating exact projections (von Neumann's; they converge to a common point of two
/// convex sets that meet) from the box's point nearest to the cylinder's axis: `true` when
/// they reach a point of the cylinder within `tolerance` of its projection on the box, which
/// proves the pair's distance at most `tolerance` (plus the projections' rounding). Gives up,
/// `false`, when a step does not shrink the gap by a tenth (an apart pair, or a slow approach
/// left to the full query).
fn meet_within(a: &Cylinder, b: &OrientedBox, tolerance: Real) -> bool {
    // From the box's point nearest to the axis: the axis's own point when the axis reaches
    // into the box (a point of both shapes), else often inside the cylinder already.
    let p0 = b.to_local(&a.axis().a());
    let nearest = closest_to_box(&p0, &(b.to_local(&a.axis().b()) - p0), &b.half_extents());
    let mut on_box = b.to_world(&nearest.on_box);
    let mut last = Real::INFINITY;
    for _ in 0..MEETING_STEPS {
        let on_cylinder = SupportMap::nearest_point(a, &on_box);
        on_box = SupportMap::nearest_point(b, &on_cylinder);
        let gap = (on_box - on_cylinder).norm();
        if gap <= tolerance {
            return true;
        }
        if gap.is_nan() || gap >= 0.9 * last {
            return false;
        }
        last = gap;
    }
    false
}

/// [`cylinder_box`] from the shapes' support functions: GJK's certified separation, refined
/// and polished, when apart beyond `apart`; else the best gap over the candidate directions.
fn by_support_gaps(a: &Cylinder, b: &OrientedBox, magnitude: Real, apart: Real) -> Separation {
    let u = a.unit_axis();
    let axes = [u, b.axis(0), b.axis(1), b.axis(2)];
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Point3;

    /// Pair `i` of a random sequence: scales 1e-3 … 1e3 by `i`, a cylinder within the cube of
    /// that size, a box of random orientation centred within `spread` of it.
    fn random_pair(
        unit: &mut impl FnMut() -> Real,
        i: i32,
        spread: Real,
    ) -> (Cylinder, OrientedBox) {
        let k = 10f64.powi(i % 7 - 3);
        let mut next = || unit() * 2.0 - 1.0;
        let mut point = |size: Real| Point3::new(size * next(), size * next(), size * next());
        let (p, q, centre) = (point(k), point(k), point(spread * k));
        let a = Cylinder::new(p, q, 0.2 * k * (1.1 + next())).unwrap();
        let rpy = [3.0 * next(), 3.0 * next(), 3.0 * next()];
        let half = Vector3::new(0.3 * k * (1.1 + next()), 0.2 * k * (1.1 + next()), 0.1 * k);
        (a, OrientedBox::from_rpy(centre, rpy, half).unwrap())
    }

    /// The cylinder along z from 0 to 2 of radius 0.5, a unit box centred at `centre`, and
    /// the side answer's threshold and magnitude.
    fn upright_pair(centre: Point3) -> (Cylinder, OrientedBox, Real, Real) {
        let a = Cylinder::new(Point3::origin(), Point3::new(0.0, 0.0, 2.0), 0.5).unwrap();
        let b = OrientedBox::axis_aligned(centre, Vector3::repeat(0.5)).unwrap();
        let m = pair_magnitude(&a, &b);
        (a, b, m, CONTACT_ROUNDING * m)
    }

    #[test]
    fn a_box_beside_the_side_is_measured_by_the_capsule() {
        // A unit box centred at x = 2, beside the side.
        let (a, b, m, apart) = upright_pair(Point3::new(2.0, 0.0, 1.0));
        let found = side_contact(&a, &b, m, apart).expect("beside the side");
        assert_eq!(found.distance, 1.0);
        assert_eq!(found.point_a, Point3::new(0.5, 0.0, found.point_a.z));
        assert!((0.5..=1.5).contains(&found.point_a.z));
        assert_eq!(cylinder_box(&a, &b), found);
    }

    #[test]
    fn a_box_over_the_rim_is_left_to_the_support_gaps() {
        // Above the top and outside the radius: the capsule's nearest point is on its cap's
        // half-ball, nearer than the cylinder's rim, so the capsule's answer is not taken.
        let (a, b, m, apart) = upright_pair(Point3::new(1.5, 0.0, 3.5));
        assert!(side_contact(&a, &b, m, apart).is_none());
        // The rim point (0.5, 0, 2) to the box's edge through (1, 0, 3): √1.25. The capsule
        // comes nearer: its cap's centre (0, 0, 2) is √2 from that edge, less its 0.5.
        let d = cylinder_box(&a, &b).distance;
        assert!((d - 1.25f64.sqrt()).abs() < 1e-12, "{d}");
        let capsule = capsule_box(&Capsule::from_finite(*a.axis(), 0.5), &b).distance;
        assert!(capsule < d - 0.1, "{capsule}");
    }

    #[test]
    fn the_side_answer_agrees_with_the_support_gaps_and_is_often_taken() {
        let mut unit = crate::math::unit_random(29);
        let (mut taken, mut declined) = (0, 0);
        for i in 0..3000 {
            let (a, b) = random_pair(&mut unit, i, 1.0);
            let m = pair_magnitude(&a, &b);
            let apart = CONTACT_ROUNDING * m;
            let Some(fast) = side_contact(&a, &b, m, apart) else {
                declined += 1;
                continue;
            };
            taken += 1;
            let reference = by_support_gaps(&a, &b, m, apart);
            // Both are lower bounds realised by witnesses on (to 1e-13) the shapes: equal to
            // the reference's accuracy.
            assert!(
                (fast.distance - reference.distance).abs() <= 1e-9 * m,
                "{a:?} {b:?}: side {} support gaps {}",
                fast.distance,
                reference.distance
            );
            let gap = (fast.point_b - fast.point_a).norm();
            assert!((gap - fast.distance).abs() <= 1e-12 * m);
        }
        assert!(
            taken > 1000 && declined > 300,
            "{taken} taken, {declined} declined"
        );
    }

    #[test]
    fn the_contact_distance_gives_the_full_querys_verdict_and_a_lower_bound() {
        let mut unit = crate::math::unit_random(31);
        let (mut shortcut, mut apart) = (0, 0);
        for i in 0..2000 {
            // Centres within a box's size, so that many pairs overlap.
            let (a, b) = random_pair(&mut unit, i, 0.6);
            let full = cylinder_box(&a, &b).distance;
            let contact = cylinder_box_contact_distance(&a, &b);
            if full > 0.0 {
                let m = pair_magnitude(&a, &b);
                assert!(
                    contact > 0.0 && contact <= full + 1e-15 * m,
                    "{a:?} {b:?}: {contact} against {full}"
                );
                apart += 1;
            } else {
                assert!(contact <= 0.0, "{a:?} {b:?}: {contact} against {full}");
                shortcut += usize::from(contact == 0.0 && full < 0.0);
            }
        }
        assert!(
            shortcut > 300 && apart > 300,
            "{shortcut} shortcut, {apart} apart"
        );
    }
}
