//! Certified signed distance between two convex shapes with support maps (used by the
//! cylinder queries once their closed-form fast paths do not apply).
//!
//! 0. Newton on the separating direction from a first guess, plus the cap directions
//!    ([`support_newton`](super::support_newton)): accepted when apart and certified (gap and
//!    realised witness distance agree to `1e-13 ×` magnitude). This is the fast path.
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
use super::support_newton::{Certified, certify, newton_direction};
use crate::math::{Real, Vector3};

/// Relative disagreement (to magnitude) between the bounds above which GJK's answer is refined.
const REFINE_ABOVE: Real = 1e-13;
/// Largest certified interval (relative to magnitude) the Newton fast path may return.
const NEWTON_CERTIFIED: Real = 1e-13;

/// The fast path: Newton from `start` plus the cap directions `±axes`; returns an answer only
/// when apart and certified to `NEWTON_CERTIFIED × magnitude`.
fn newton_certified<A: SupportMap, B: SupportMap>(
    a: &A,
    b: &B,
    magnitude: Real,
    start: &Vector3,
    axes: &[Vector3],
) -> Option<Separation> {
    let newton = newton_direction(a, b, start)?;
    let mut lower = certify(a, b, &newton);
    let mut upper: Certified = lower;
    let accept = |lower: &Certified, upper: &Certified| {
        lower.lower > CONTACT_ROUNDING * magnitude
            && upper.upper - lower.lower <= NEWTON_CERTIFIED * magnitude
    };
    if accept(&lower, &upper) {
        return Some(Separation {
            distance: lower.lower,
            ..lower.separation
        });
    }
    let mut consider = |c: Certified| {
        if c.lower > lower.lower {
            lower = c;
        }
        if c.upper < upper.upper {
            upper = c;
        }
    };
    for u in axes {
        consider(certify(a, b, u));
        consider(certify(a, b, &-u));
    }
    accept(&lower, &upper).then_some(Separation {
        distance: lower.lower,
        point_a: upper.separation.point_a,
        point_b: upper.separation.point_b,
        normal: lower.separation.normal,
    })
}

/// Signed distance from `a` to `b`; `axes` are the unit axes of any cylinders involved (the
/// ridges of the gap function), `candidates` the directions tried when they overlap, `start`
/// a first guess of the separating direction (e.g. the capsules' normal).
pub(crate) fn certified_distance<A: SupportMap, B: SupportMap>(
    a: &A,
    b: &B,
    magnitude: Real,
    start: &Vector3,
    candidates: &[Vector3],
    axes: &[Vector3],
) -> Separation {
    if let Some(fast) = newton_certified(a, b, magnitude, start, axes) {
        return fast;
    }
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
