//! Certificates for a candidate separating direction.
//!
//! For convex A and B and a unit `n` (from A to B), the gap `g(n) = −h_A(n) − h_B(−n)` (support
//! functions `h`) is a lower bound on their distance, and the distance between any point of A
//! and any point of B is an upper bound. [`certify`] pairs the two: the gap along `n` and the
//! closest points of the two *support sets* at `n` (points, segments, or cap discs reached by
//! exact alternating projections). When `n` is optimal the two bounds meet, so a small interval
//! certifies both the distance and the witness points.

use super::Separation;
use super::point_segment::closest_parameter;
use super::segment_segment::closest_points;
use super::support_gap::gap_along;
use super::support_map::SupportMap;
use crate::math::{Point3, Real, Vector3};

/// Alternating projections used to realise a witness pair for a direction.
const POLISH_STEPS: usize = 3;

/// A direction's certified interval: `lower` (gap along `normal`) ≤ distance ≤ `upper`
/// (distance between `point_a` and `point_b`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Certified {
    pub lower: Real,
    pub upper: Real,
    pub separation: Separation,
}

/// Gap along `n` and a realised witness pair: the closest points between the two support
/// sets when both are points or segments, else supports polished by alternating projections.
pub(crate) fn certify<A: SupportMap, B: SupportMap>(a: &A, b: &B, n: &Vector3) -> Certified {
    let g = gap_along(a, b, n);
    let (x, y) = witness_pair(a, b, n, (g.point_a, g.point_b));
    let upper = (y - x).norm();
    Certified {
        lower: g.distance,
        upper,
        separation: Separation {
            distance: g.distance,
            point_a: x,
            point_b: y,
            normal: *n,
        },
    }
}

/// The closest points of the two support sets at `n` (a's at `n`, b's at `−n`): exact for
/// points, segments and cap discs, else alternating projections from `supports`.
fn witness_pair<A: SupportMap, B: SupportMap>(
    a: &A,
    b: &B,
    n: &Vector3,
    supports: (Point3, Point3),
) -> (Point3, Point3) {
    match (a.support_feature(n), b.support_feature(&-n)) {
        (Some(fa), Some(fb)) => {
            let pair = closest_points(&fa, &fb);
            (pair.point_a, pair.point_b)
        }
        // A point or segment against a cap face: project from the feature onto the face.
        (Some(fa), None) => feature_against_face(&fa, b, &-n),
        (None, Some(fb)) => {
            let (y, x) = feature_against_face(&fb, a, n);
            (x, y)
        }
        (None, None) if let (Some(fa), Some(fb)) = (a.support_face(n), b.support_face(&-n)) => {
            disc_against_disc(fa, fb, n)
        }
        (None, None) => {
            let (mut x, mut y) = supports;
            for _ in 0..POLISH_STEPS {
                x = a.nearest_point(&y);
                y = b.nearest_point(&x);
            }
            (x, y)
        }
    }
}

/// Witness points along a direction `n` whose gap `g` is the reported (non-positive, or not
/// certified) signed distance: a point `x` where a's support set at `n` meets b's support set
/// at `−n` translated by `−g n` (the translation that brings the two into touching contact),
/// and `x + g n`. Both lie on the support planes, and on the support sets themselves whenever
/// their projections along `n` overlap (exactly so at the optimal direction); otherwise the
/// midpoint of the nearest pair is used, off the sets by half their gap. The identity
/// `point_b − point_a = distance · normal` holds by construction.
///
/// Plain support points would not do: when a support set is a segment or a disc (a segment
/// parallel to a cylinder's side, two caps face to face), the support map returns an arbitrary
/// end or rim point, and the two witnesses then need not face each other along `n`.
pub(crate) fn contact_witnesses<A: SupportMap, B: SupportMap>(
    a: &A,
    b: &B,
    n: &Vector3,
) -> Separation {
    let gap = gap_along(a, b, n);
    let g = gap.distance;
    let shifted = Translated {
        shape: b,
        by: n * -g,
    };
    let (xa, xb) = witness_pair(a, &shifted, n, (gap.point_a, gap.point_b - n * g));
    let x = xa + (xb - xa) * 0.5;
    Separation {
        distance: g,
        point_a: x,
        point_b: x + n * g,
        normal: *n,
    }
}

/// A shape translated by `by`.
struct Translated<'s, S> {
    shape: &'s S,
    by: Vector3,
}

impl<S: SupportMap> SupportMap for Translated<'_, S> {
    fn support(&self, d: &Vector3) -> Point3 {
        self.shape.support(d) + self.by
    }
    fn any_point(&self) -> Point3 {
        self.shape.any_point() + self.by
    }
    fn nearest_point(&self, p: &Point3) -> Point3 {
        self.shape.nearest_point(&(p - self.by)) + self.by
    }
    fn support_feature(&self, n: &Vector3) -> Option<crate::geom::Segment> {
        self.shape
            .support_feature(n)
            .map(|s| crate::geom::Segment::from_finite(s.a() + self.by, s.b() + self.by))
    }
    fn support_face(&self, n: &Vector3) -> Option<(Point3, Real)> {
        self.shape.support_face(n).map(|(c, r)| (c + self.by, r))
    }
}

/// Closest points of two discs in planes ⟂ `n` (centre, radius each): in closed form along
/// the line between their centres (projected into one plane). Alternating projections
/// converge only sublinearly when the discs touch at their rims.
fn disc_against_disc(
    (c1, r1): (Point3, Real),
    (c2, r2): (Point3, Real),
    n: &Vector3,
) -> (Point3, Point3) {
    let across = n * n.dot(&(c2 - c1)); // from a's plane to b's
    let d = (c2 - across) - c1;
    let Some(u) = crate::math::try_normalize(&d) else {
        return (c1, c1 + across);
    };
    let length = d.norm();
    let (lo, hi) = ((length - r2).max(0.0), r1.min(length));
    if lo <= hi {
        // Overlapping in projection: a common point on the centre line.
        let x = c1 + u * (0.5 * (lo + hi));
        (x, x + across)
    } else {
        (c1 + u * r1, c2 - u * r2)
    }
}

/// Closest points between a support segment (or point) `feature` and a shape whose support
/// set at `n_face` is a face. When the face is a disc with a known centre the feature (which
/// is parallel to the disc's plane) is nearest where it is nearest the centre: exact, also
/// when the two touch at the rim, where alternating projections crawl. Otherwise alternating
/// exact projections started from the feature's midpoint.
fn feature_against_face<S: SupportMap>(
    feature: &crate::geom::Segment,
    shape: &S,
    n_face: &Vector3,
) -> (crate::math::Point3, crate::math::Point3) {
    if let Some((centre, _)) = shape.support_face(n_face) {
        let x = feature.at(closest_parameter(&centre, feature));
        return (x, shape.nearest_point(&x));
    }
    let mut x = feature.at(0.5);
    let mut y = shape.nearest_point(&x);
    for _ in 0..POLISH_STEPS {
        x = feature.at(closest_parameter(&y, feature));
        y = shape.nearest_point(&x);
    }
    (x, y)
}
