//! Box–box: exact in every case.
//!
//! **Separating axes** (Gottschalk, Lin & Manocha, *OBBTree*, SIGGRAPH 1996): the two boxes
//! are disjoint iff one of fifteen axes — the six face normals and the nine cross products of
//! an edge of each — separates their projections. Overlapping, the least overlap along those
//! axes is the exact penetration depth (they are the facet normals of the Minkowski
//! difference of two boxes); cross products of parallel edges (shorter than 1e-12) are dropped,
//! their facets coinciding with face normals' ones.
//!
//! **Apart**, alternating projection first ([`relative::projected_apart`]): b's point nearest
//! a's centre, a's point nearest that, and so on, with two skew edges' closest points in
//! closed form, reaches the closest pair of most boxes in a round or two; the gap along those
//! points' direction meeting their distance certifies it. The pairs it does not settle go to
//! the separating axes. There, the best separating axis is often the closest direction (face against vertex,
//! edge or face; edge against edge): its gap is then realised by the closest points of the
//! two support features along it, which proves it is the distance; or those points' own
//! direction is (vertex or edge against vertex or edge), and the gap along it meets their
//! distance. Both tests run first in a's frame ([`relative`], where they cost a few products;
//! most random pairs end there), then with the general support features ([`box_certify`]),
//! following the witnesses up to four times. Otherwise GJK
//! ([`gjk`](super::gjk)) usually terminates with its certified lower bound
//! (the gap along its direction) and upper bound (the distance of its witnesses) equal to
//! within `1e-14 ×` the magnitude: that is the distance. Otherwise the closest points of two
//! convex polyhedra are realised by an edge of one and the other solid (vertex–face,
//! edge–edge and edge–face contacts all contain an edge of one box), so the distance is the least of the 24 edge–box distances, each exact
//! ([`closest_to_box`]). Most edges are pruned soundly with the best separating axis `L` and
//! its gap `s`: the closest point of A lies within `d − s` of A's support plane along `L`
//! (B lies beyond the plane at `s`), so an edge wholly deeper than the current best `d`
//! allows cannot hold it; likewise for B. Edges are tried nearest the plane first.

use super::Separation;
use super::canonical_order::precedes;
use super::capsule_box::closest_to_box;
use super::certificate::Certified;
use super::gjk::gjk_separation;
use super::segment_segment::closest_points;
use crate::geom::OrientedBox;
use crate::geom::Segment;
use crate::math::{Point3, Real, Vector3};
use relative::Relative;

mod relative;

/// Directions tried from the best axis by following the witnesses of the previous one.
const WALKS: usize = 4;

/// Smallest distance (relative to the magnitude) at which the edge–box closest points are
/// used: their points are exact in the solid box's frame and off by rounding (~1e-16 of the
/// magnitude) in the world, so they serve down to a few rounding units. (1e-9 here sent pairs
/// 1e-10 apart to the separating-axis answer, whose witness on b was off b by up to the
/// distance; found by fuzzing.)
const EDGES_EXACT_ABOVE: Real = 16.0 * super::separation::CONTACT_ROUNDING;

/// Touching features whose closest points are farther apart than this (relative to the
/// magnitude) do not meet; overlaps within it of the least are the same depth to rounding.
const MEET: Real = 16.0 * super::separation::CONTACT_ROUNDING;

/// Largest difference (relative to the magnitude) between GJK's bounds for its answer to be
/// taken as exact.
const GJK_EXACT: Real = 2e-14;

/// Signed distance from box a to box b, measured in a canonical order
/// (`canonical_order`) and flipped for the other.
pub fn box_box(a: &OrientedBox, b: &OrientedBox) -> Separation {
    // Chosen by selection rather than by two calls: the order of random pairs is a coin toss
    // that a branch would mispredict half the time.
    // The first number (the centres' x) nearly always decides: the arrays only on a tie.
    let swap = match b.center().x.total_cmp(&a.center().x) {
        std::cmp::Ordering::Less => true,
        std::cmp::Ordering::Greater => false,
        std::cmp::Ordering::Equal => precedes(numbers(b), numbers(a)),
    };
    let (first, second) = if swap { (b, a) } else { (a, b) };
    let s = ordered_box_box(first, second);
    if swap { s.flipped() } else { s }
}

/// The box's numbers, for [`canonical_order`](super::canonical_order).
fn numbers(b: &OrientedBox) -> [Real; 15] {
    let (c, h, r) = (b.center(), b.half_extents(), b.rotation());
    [
        c.x, c.y, c.z, h.x, h.y, h.z, r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8],
    ]
}

/// [`box_box`] in the order given.
fn ordered_box_box(a: &OrientedBox, b: &OrientedBox) -> Separation {
    let magnitude = a.magnitude().max(b.magnitude());
    if super::safe_scale::outside_safe_range(magnitude) {
        return super::safe_scale::rescaled(a, b, magnitude, ordered_box_box);
    }
    let relative = Relative::new(a, b);
    // Most apart pairs: closest points by alternating projection, certified.
    if let Some(found) = relative::projected_apart(a, b, &relative, magnitude) {
        return found.with_contact_rounding(magnitude);
    }
    let best = relative.best_axis();
    let fast = if best.gap > 0.0 {
        relative::certified_apart(a, &relative, &best, magnitude)
            .map(|found| found.with_contact_rounding(magnitude))
    } else {
        relative::touching(a, &relative, &best, magnitude)
    };
    match fast {
        Some(found) => found,
        None => general_box_box(a, b, &best, magnitude),
    }
}

/// The pairs that b's pose in a's frame does not settle ([`relative`]): walks along the
/// witnesses, GJK, the edge–box distances; overlapping, the search for meeting features.
/// Kept out of line so that the common path stays small.
#[cold]
#[inline(never)]
fn general_box_box(
    a: &OrientedBox,
    b: &OrientedBox,
    best: &relative::BestAxis,
    magnitude: Real,
) -> Separation {
    let (gap, axis) = (best.gap, a.direction_to_world(&best.local));
    if gap > 0.0 {
        // The best separating axis is often the closest direction itself (face against
        // vertex, edge or face; edge against edge): then the support features along it
        // realise its gap, and that certifies the distance.
        let mut c = box_certify(a, b, &axis);
        for _ in 0..WALKS {
            if c.upper - c.lower <= GJK_EXACT * magnitude && c.lower > 1e-9 * magnitude {
                let s = c.separation;
                return centred(s.point_a, s.point_b, c.lower, c.upper)
                    .with_contact_rounding(magnitude);
            }
            let (x, y) = (c.separation.point_a, c.separation.point_b);
            let Some(n) = crate::math::try_normalize(&(y - x)) else {
                break;
            };
            // Most often the witnesses' own direction is the closest one (vertex or edge
            // against vertex or edge): then the gap along it, from the two support points
            // alone, meets their distance, which certifies both.
            let lower = (b.support(&-n) - a.support(&n)).dot(&n);
            if c.upper - lower <= GJK_EXACT * magnitude && lower > 1e-9 * magnitude {
                return centred(x, y, lower, c.upper).with_contact_rounding(magnitude);
            }
            c = box_certify(a, b, &n);
        }
        // GJK terminates on polytopes with its two bounds equal to rounding: then its gap is
        // the exact distance, realised by its witness on a and the point `distance` along the
        // normal (on b to within the bounds' difference).
        if let Some(g) = gjk_separation(a, b, magnitude)
            && g.upper - g.lower <= GJK_EXACT * magnitude
            && g.lower > 1e-9 * magnitude
        {
            return centred(g.point_a, g.point_b, g.lower, g.upper)
                .with_contact_rounding(magnitude);
        }
        if let Some(found) = closest_edges(a, b, gap, &axis, magnitude) {
            return found.with_contact_rounding(magnitude);
        }
    }
    // Apart by less than a few rounding units: the separating axis's certified gap, with the
    // closest points of its support features.
    if gap > 0.0 {
        let c = box_certify(a, b, &axis);
        return Separation {
            distance: c.lower,
            point_a: c.separation.point_a,
            point_b: c.separation.point_a + axis * c.lower,
            normal: axis,
        }
        .with_contact_rounding(magnitude);
    }
    // Touching or overlapping: the least overlap is the exact depth. Witnesses where the two
    // touch once b is moved out by the depth along the normal: the closest points of the
    // support features there, a's kept and b's moved back, so that
    // `point_b − point_a = distance · normal` by construction (the common case in closed
    // form in a's frame, [`relative::touching`]).
    let touch = |axis: &Vector3, gap: Real| {
        let moved =
            OrientedBox::from_finite(b.center() - axis * gap, *b.rotation(), b.half_extents());
        box_certify(a, &moved, axis)
    };
    let mut best = (touch(&axis, gap), axis, gap);
    if best.0.upper > MEET * magnitude {
        // The features along the least-overlap axis do not meet (their closest points are
        // apart: in nearly coincident boxes many axes' overlaps differ by rounding only, and
        // the least picked a pair of features beside each other; found by fuzzing, witnesses
        // 5e-10 of the magnitude off). Some axis within rounding of that depth has features
        // that meet (the Minkowski difference's nearest facet): the one whose do best.
        for (n, axis_gap) in separating_axes(a, b) {
            if axis_gap >= gap - MEET * magnitude && axis_gap <= 0.0 {
                let c = touch(&n, axis_gap);
                if c.upper < best.0.upper {
                    best = (c, n, axis_gap);
                }
            }
        }
    }
    let (touching, axis, gap) = best;
    let point_a = touching.separation.point_a;
    Separation {
        distance: gap,
        point_a,
        point_b: point_a + axis * gap,
        normal: axis,
    }
}

/// The fifteen separating axes in the world (unit, from a towards b; cross products of
/// nearly parallel edges left out) with the boxes' gap along each: the plain form of
/// `best_axis` (`relative.rs`), for the rare searches over all of them.
#[cold]
fn separating_axes(a: &OrientedBox, b: &OrientedBox) -> Vec<(Vector3, Real)> {
    let offset = b.center() - a.center();
    let reach = |n: &Vector3| {
        let (ra, rb) = (a.rotation().tr_mul(n), b.rotation().tr_mul(n));
        a.half_extents().dot(&ra.abs()) + b.half_extents().dot(&rb.abs())
    };
    let (ra, rb) = (a.rotation(), b.rotation());
    let mut axes: Vec<Vector3> = (0..3)
        .flat_map(|i| [ra.column(i).into_owned(), rb.column(i).into_owned()])
        .collect();
    for i in 0..3 {
        for j in 0..3 {
            let cross = ra.column(i).cross(&rb.column(j));
            if cross.norm() > 1e-12 {
                axes.extend(crate::math::try_normalize(&cross));
            }
        }
    }
    axes.into_iter()
        .map(|axis| {
            let n = if offset.dot(&axis) < 0.0 { -axis } else { axis };
            (n, offset.dot(&n) - reach(&n))
        })
        .collect()
}

/// A certified distance `lower` reported with the witness pair `x` (on a), `y` (on b),
/// `|y − x| = upper`: along the witnesses' own direction (a certified direction may differ
/// from it by up to √(2 (upper − lower) / d) rad, which far apart moves points off the boxes;
/// found by fuzzing), centred on them, so that each is off its box by at most half the (tiny)
/// difference of the bounds.
fn centred(x: Point3, y: Point3, lower: Real, upper: Real) -> Separation {
    // Normalised by its own length: `upper` (GJK's) can differ from `|y − x|` computed from
    // world points by the cancellation in `y − x` (5.7e-12 for needles 2e-5 of their
    // magnitude apart; found by fuzzing).
    let span = (y - x).norm();
    let normal = (y - x) / if span > 0.0 { span } else { upper };
    let middle = x + (y - x) * 0.5;
    let half = normal * (0.5 * lower);
    Separation {
        distance: lower,
        point_a: middle - half,
        point_b: middle + half,
        normal,
    }
}

/// The gap of the boxes along unit `n` (a lower bound on their distance) and the closest
/// points of their support features along it (vertex, edge or face; an upper bound), each
/// pair in closed form: segment–segment, or a vertex or edge against the solid box whose
/// face it faces ([`closest_to_box`]), or each face's four edges against the other box.
#[inline(always)]
fn box_certify(a: &OrientedBox, b: &OrientedBox, n: &Vector3) -> Certified {
    let (support_a, feature_a) = a.support_with_feature(n, 0.0);
    let (support_b, feature_b) = b.support_with_feature(&-n, 0.0);
    let gap = Separation {
        distance: (support_b - support_a).dot(n),
        point_a: support_a,
        point_b: support_b,
        normal: *n,
    };
    // A feature of one box against the other solid box: (point on the feature, point on box).
    let feature_to_box = |f: &Segment, to: &OrientedBox| {
        let (p0, p1) = (to.to_local(&f.a()), to.to_local(&f.b()));
        let c = closest_to_box(&p0, &(p1 - p0), &to.half_extents());
        (to.to_world(&c.on_segment), to.to_world(&c.on_box))
    };
    let face_edges = |of: &OrientedBox, n: &Vector3| {
        // The face of `of` whose outward normal is closest to `n`: its four edges.
        let local = of.rotation().tr_mul(n);
        let i = local.iamax();
        // Corner `v` has `+h_i` on axis `i` when bit `i` of `v` is set (also for `h_i = 0`,
        // whose coordinate's sign says nothing; found by fuzzing).
        let positive = local[i] >= 0.0;
        let k: Vec<usize> = (0..8).filter(|&v| (v >> i & 1 == 1) == positive).collect();
        let v: Vec<Point3> = k.iter().map(|&v| of.to_world(&of.corner(v))).collect();
        // Corners of the face in bit order: 0-1, 1-3, 3-2, 2-0 form its boundary.
        [(0, 1), (1, 3), (3, 2), (2, 0)].map(|(x, y)| Segment::from_finite(v[x], v[y]))
    };
    let (x, y) = match (feature_a, feature_b) {
        (Some(fa), Some(fb)) => {
            let pair = closest_points(&fa, &fb);
            (pair.point_a, pair.point_b)
        }
        (Some(fa), None) => feature_to_box(&fa, b),
        (None, Some(fb)) => {
            let (y, x) = feature_to_box(&fb, a);
            (x, y)
        }
        // Two faces: the edges of each against the other box (one face may hold the other).
        (None, None) => face_edges(a, n)
            .iter()
            .map(|e| feature_to_box(e, b))
            .chain(face_edges(b, &-n).iter().map(|e| {
                let (y, x) = feature_to_box(e, a);
                (x, y)
            }))
            .min_by(|p, q| {
                (p.1 - p.0)
                    .norm_squared()
                    .total_cmp(&(q.1 - q.0).norm_squared())
            })
            .unwrap_or((gap.point_a, gap.point_b)),
    };
    Certified {
        lower: gap.distance,
        upper: (y - x).norm(),
        separation: Separation {
            distance: gap.distance,
            point_a: x,
            point_b: y,
            normal: *n,
        },
    }
}

/// The exact distance of two boxes known to be apart (`gap > 0` along unit `axis`, from a to
/// b), by pruned edge–box queries; `None` if the closest points are within rounding of
/// contact (then the separating-axis answer is used).
fn closest_edges(
    a: &OrientedBox,
    b: &OrientedBox,
    gap: Real,
    axis: &Vector3,
    magnitude: Real,
) -> Option<Separation> {
    // (distance, point on a, point on b, unit normal from a to b)
    let mut best: Option<(Real, Point3, Point3, Vector3)> = None;
    // Edges of `from` (with the support direction towards `to`) against the solid `to`.
    let mut edges_against = |from: &OrientedBox, to: &OrientedBox, towards: &Vector3, swap| {
        let vertices = from.vertices();
        let heights: [Real; 8] = std::array::from_fn(|k| vertices[k].coords.dot(towards));
        let top = heights.iter().copied().fold(Real::NEG_INFINITY, Real::max);
        let mut order: [(Real, usize); 12] = std::array::from_fn(|e| {
            let (i, j) = OrientedBox::EDGES[e];
            (top - heights[i].max(heights[j]), e)
        });
        order.sort_unstable_by(|x, y| x.0.total_cmp(&y.0));
        let local: [Vector3; 8] = std::array::from_fn(|k| to.to_local(&vertices[k]));
        let h = to.half_extents();
        for (depth, e) in order {
            // Sound pruning: this edge is `depth` below the support plane; the pair's closest
            // point of `from` lies within `best − gap` of it.
            if let Some((d, ..)) = best
                && depth > d - gap
            {
                break;
            }
            let (i, j) = OrientedBox::EDGES[e];
            let c = closest_to_box(&local[i], &(local[j] - local[i]), &h);
            let excess = c.on_box - c.on_segment;
            let d = excess.norm();
            if best.is_none_or(|(bd, ..)| d < bd) {
                let (on_from, on_to) = (to.to_world(&c.on_segment), to.to_world(&c.on_box));
                // The direction from the exact local excess (world points far from the origin
                // would round it).
                let towards_to = to.direction_to_world(&excess) / d.max(Real::MIN_POSITIVE);
                best = Some(if swap {
                    (d, on_to, on_from, -towards_to)
                } else {
                    (d, on_from, on_to, towards_to)
                });
            }
        }
    };
    edges_against(a, b, axis, false);
    edges_against(b, a, &-axis, true);
    let (distance, point_a, point_b, normal) = best?;
    if distance <= EDGES_EXACT_ABOVE * magnitude {
        return None;
    }
    Some(Separation {
        distance,
        point_a,
        point_b,
        normal: normal.normalize(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cube(c: [Real; 3], rpy: [Real; 3]) -> OrientedBox {
        OrientedBox::from_rpy(c.into(), rpy, Vector3::new(1.0, 1.0, 1.0)).unwrap()
    }

    #[test]
    fn face_edge_and_vertex_contacts() {
        let a = cube([0.0; 3], [0.0; 3]);
        // Face to face, 1 apart.
        let r = box_box(&a, &cube([3.0, 0.5, 0.0], [0.0; 3]));
        assert_eq!(r.distance, 1.0);
        assert_eq!(r.normal, Vector3::x());
        // b turned 45° about z: its edge faces a's face, √2 − 1 closer.
        let q = std::f64::consts::FRAC_PI_4;
        let r = box_box(&a, &cube([4.0, 0.0, 0.0], [0.0, 0.0, q]));
        assert!((r.distance - (3.0 - 2f64.sqrt())).abs() < 1e-14, "{r:?}");
        // Edge to edge, crossed: a's top edge along y at x = 1, b's bottom edge along x.
        let b = OrientedBox::from_rpy(
            Point3::new(1.0 + 2f64.sqrt() + 0.5, 0.0, 0.0),
            [0.0, 0.0, q],
            Vector3::new(1.0, 1.0, 1.0),
        )
        .unwrap();
        let r = box_box(&a, &b);
        assert!((r.distance - 0.5).abs() < 1e-14, "{r:?}");
        // Overlapping by 0.25 along x.
        let r = box_box(&a, &cube([1.75, 0.3, -0.2], [0.0; 3]));
        assert!((r.distance + 0.25).abs() < 1e-15, "{r:?}");
        assert!((r.normal - Vector3::x()).norm() < 1e-15);
        assert!(((r.point_b - r.point_a) - r.normal * r.distance).norm() < 1e-15);
    }
}
