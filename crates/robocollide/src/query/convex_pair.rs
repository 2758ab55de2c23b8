//! Certified signed distance between two convex shapes with support maps (used by the
//! cylinder queries once their closed-form fast paths do not apply).
//!
//! 1. GJK ([`gjk`](super::gjk)): if it certifies a separating direction with a gap above the
//!    rounding bound, the shapes are apart; the distance is that certified gap.
//! 2. If the certified gap and the distance between the witness points disagree by more than
//!    `1e-13 ×` magnitude (GJK stalls on curved features and on ridges of the gap function),
//!    the direction is refined by a ridge-aware pattern search
//!    ([`refine_gap`](super::support_gap::refine_gap)); the value stays a certified lower bound.
//! 3. Otherwise the shapes touch or overlap, and the conservative maximum-gap estimate over
//!    `candidates` gives the (non-positive) signed distance.

use super::Separation;
use super::gjk::gjk_separation;
use super::separation::CONTACT_ROUNDING;
use super::support_gap::{gap_along, max_gap, refine_gap};
use super::support_map::SupportMap;
use crate::math::{Real, Vector3};

/// Relative disagreement (to magnitude) between the bounds above which GJK's answer is refined.
const REFINE_ABOVE: Real = 1e-13;

/// Signed distance from `a` to `b`; `axes` are the unit axes of any cylinders involved (the
/// ridges of the gap function), `candidates` the directions tried when they overlap.
pub(crate) fn certified_distance<A: SupportMap, B: SupportMap>(
    a: &A,
    b: &B,
    magnitude: Real,
    candidates: &[Vector3],
    axes: &[Vector3],
) -> Separation {
    let Some(g) =
        gjk_separation(a, b, magnitude).filter(|g| g.lower > CONTACT_ROUNDING * magnitude)
    else {
        return max_gap(a, b, candidates, axes);
    };
    let mut best = Separation {
        distance: g.lower,
        point_a: g.point_a,
        point_b: g.point_b,
        normal: g.normal,
    };
    if g.upper - g.lower > REFINE_ABOVE * magnitude {
        let start = gap_along(a, b, &g.normal);
        let initial_step = ((g.upper - g.lower) / g.upper).sqrt().clamp(1e-7, 0.1);
        let refined = refine_gap(a, b, start, initial_step, 1e-12, axes);
        if refined.distance > best.distance {
            best.distance = refined.distance;
            best.normal = refined.normal;
        }
    }
    best
}
