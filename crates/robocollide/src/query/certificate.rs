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
    let (x, y) = witness_pair(a, b, n, (g.point_a, g.point_b), 0.0);
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

/// The closest points of the two support sets at `n` (a's at `n`, b's at `−n`; with features
/// within `slack` of the support planes counted in, [`SupportMap::support_feature_within`]):
/// exact for points, segments, cap discs and box faces, else alternating projections from
/// `supports`.
fn witness_pair<A: SupportMap, B: SupportMap>(
    a: &A,
    b: &B,
    n: &Vector3,
    supports: (Point3, Point3),
    slack: Real,
) -> (Point3, Point3) {
    match (
        a.support_feature_within(n, slack),
        b.support_feature_within(&-n, slack),
    ) {
        (Some(fa), Some(fb)) => {
            let pair = closest_points(&fa, &fb);
            (pair.point_a, pair.point_b)
        }
        // A point or segment against a cap face: project from the feature onto the face.
        (Some(fa), None) => feature_against_face(&fa, b, &-n, slack),
        (None, Some(fb)) => {
            let (y, x) = feature_against_face(&fb, a, n, slack);
            (x, y)
        }
        (None, None) => match (
            a.support_face_within(n, slack),
            b.support_face_within(&-n, slack),
        ) {
            (Some(fa), Some(fb)) => disc_against_disc(fa, fb, n),
            // A cap disc against a flat face of the other shape (a box's): exact, as below.
            (Some(disc), None) => disc_against_shape(disc, b, n),
            (None, Some(disc)) => {
                let (y, x) = disc_against_shape(disc, a, &-n);
                (x, y)
            }
            (None, None) => {
                let (mut x, mut y) = supports;
                for _ in 0..POLISH_STEPS {
                    x = a.nearest_point(&y);
                    y = b.nearest_point(&x);
                }
                (x, y)
            }
        },
    }
}

/// Witness points along a direction `n` whose gap `g` is the reported (non-positive, or not
/// certified) signed distance: a point `x` where a's support set at `n` meets b's support set
/// at `−n` translated by `−g n` (the translation that brings the two into touching contact),
/// and `x + g n`; `magnitude` scales the slacks below. Both lie on the support planes, and on the support sets themselves whenever
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
    magnitude: Real,
) -> Separation {
    let gap = gap_along(a, b, n);
    let g = gap.distance;
    let shifted = Translated {
        shape: b,
        by: n * -g,
    };
    // `n` is optimal only to within the search's tolerance, and then the exact support sets
    // can be a vertex or rim point far from the contact (a box's long edge or face tilted by
    // 1e-8 rad; found by fuzzing). Support sets within growing slacks of the planes are
    // tried; each pair is at most half its own distance off the shapes, so the closest wins.
    let mut best = (Real::INFINITY, gap.point_a);
    for slack in WITNESS_SLACKS {
        let (xa, xb) = witness_pair(
            a,
            &shifted,
            n,
            (gap.point_a, gap.point_b - n * g),
            slack * magnitude,
        );
        let apart = (xb - xa).norm();
        if apart < best.0 {
            best = (apart, xa + (xb - xa) * 0.5);
        }
        if best.0 <= WITNESS_CLOSE * magnitude {
            break;
        }
    }
    let x = best.1;
    Separation {
        distance: g,
        point_a: x,
        point_b: x + n * g,
        normal: *n,
    }
}

/// Slacks (relative to the magnitude) of the support sets tried for contact witnesses.
const WITNESS_SLACKS: [Real; 4] = [0.0, 1e-9, 1e-7, 1e-5];
/// A witness pair this close (relative to the magnitude) is taken without trying more slack.
const WITNESS_CLOSE: Real = 1e-13;

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
        self.support_feature_within(n, 0.0)
    }
    fn support_feature_within(&self, n: &Vector3, slack: Real) -> Option<crate::geom::Segment> {
        self.shape
            .support_feature_within(n, slack)
            .map(|s| crate::geom::Segment::from_finite(s.a() + self.by, s.b() + self.by))
    }
    fn support_face(&self, n: &Vector3) -> Option<(Point3, Real)> {
        self.support_face_within(n, 0.0)
    }
    fn support_face_within(&self, n: &Vector3, slack: Real) -> Option<(Point3, Real)> {
        self.shape
            .support_face_within(n, slack)
            .map(|(c, r)| (c + self.by, r))
    }
    fn closest_to_segment(&self, s: &crate::geom::Segment) -> Option<(Point3, Point3)> {
        let back = crate::geom::Segment::from_finite(s.a() - self.by, s.b() - self.by);
        self.shape
            .closest_to_segment(&back)
            .map(|(x, y)| (x + self.by, y + self.by))
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

/// Closest points `(on the disc, on the shape)` of a cap disc (centre, radius; in a plane ⟂
/// `n`, facing the shape along `n`) and a shape whose support set at `−n` is a flat face in
/// (or parallel to) that plane. The shape's nearest point `p` to the centre is the face's
/// nearest point to it, and the face (convex) is nearest the disc (a 2-D ball) there: a common
/// point when `p` lies within the radius of the centre in the plane, else the disc's rim point
/// towards `p`. Exact, where alternating projections crawl along a rim (found by fuzzing:
/// witnesses of a cap on a box face 1e-4 of the magnitude off).
fn disc_against_shape<S: SupportMap>(
    (centre, radius): (Point3, Real),
    shape: &S,
    n: &Vector3,
) -> (Point3, Point3) {
    let p = shape.nearest_point(&centre);
    let across = n * n.dot(&(p - centre));
    let in_plane = (p - across) - centre;
    let length = in_plane.norm();
    if length <= radius {
        (p - across, p)
    } else {
        (centre + in_plane * (radius / length), p)
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
    slack: Real,
) -> (crate::math::Point3, crate::math::Point3) {
    if let Some((centre, _)) = shape.support_face_within(n_face, slack) {
        let x = feature.at(closest_parameter(&centre, feature));
        return (x, shape.nearest_point(&x));
    }
    if let Some(pair) = shape.closest_to_segment(feature) {
        return pair;
    }
    let mut x = feature.at(0.5);
    let mut y = shape.nearest_point(&x);
    for _ in 0..POLISH_STEPS {
        x = feature.at(closest_parameter(&y, feature));
        y = shape.nearest_point(&x);
    }
    (x, y)
}
