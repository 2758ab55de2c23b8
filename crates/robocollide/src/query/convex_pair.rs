//! Certified signed distance between two axial bodies (cylinders, segments) once their
//! closed-form lateral test does not apply ([`axial_distance`]).
//!
//! 1. Cap: if a cap direction `±u` has the best gap among the start and the four axis
//!    directions, the closed-form cap test ([`AxialPair::cap_contact`]) may settle it exactly.
//! 2. Newton's ascent on the closed-form gap ([`axial_gap`](super::axial_gap)), fast then
//!    polished, accepted when apart and certified: gap and realised witness distance agree to
//!    `1e-13 ×` magnitude ([`certificate`](super::certificate)).
//! 3. GJK ([`gjk`](super::gjk)): if it certifies a separating direction with a gap above the
//!    rounding bound, the shapes are apart; the distance is that certified gap, refined by a
//!    ridge-aware pattern search ([`refine_gap`]) when its two
//!    bounds disagree by more than `1e-13 ×` magnitude; the value stays a certified lower bound.
//! 4. Otherwise the shapes touch or overlap, and the deepest gap found by
//!    [`AxialPair::deepest`] gives the (non-positive) signed distance.

use super::Separation;
use super::axial_gap::{AxialPair, FAST_STEP, POLISHED_STEP, is_unit};
use super::certificate::{Certified, certify, contact_witnesses};
use super::gjk::gjk_separation;
use super::separation::CONTACT_ROUNDING;
use super::support_gap::{gap_along, refine_gap};
use super::support_map::SupportMap;
use crate::math::{Real, Vector3};

/// Relative disagreement (to magnitude) between the bounds above which GJK's answer is refined.
const REFINE_ABOVE: Real = 1e-13;
/// Largest certified interval (relative to magnitude) the Newton fast path may return.
const NEWTON_CERTIFIED: Real = 1e-13;

/// Signed distance between two axial bodies (cylinders, segments) `a` and `b`, described in
/// closed form by `pair` ([`axial_gap`](super::axial_gap)).
///
/// Apart (or not known to overlap): the exact cap test when a cap direction has the best gap
/// of the unit `start` and the four axis directions, else Newton's ascent on the closed-form
/// gap from the better of the two, accepted only when certified; failing that, GJK with its
/// certified gap refined along the ridges. Touching or overlapping (`overlapping` is a proof
/// of a common point, or no certificate was found): the deepest gap found by
/// [`AxialPair::deepest`] from `candidates`.
pub(crate) fn axial_distance<A: SupportMap, B: SupportMap, C: AsRef<[Vector3]>>(
    pair: &AxialPair,
    (a, b): (&A, &B),
    magnitude: Real,
    start: &Vector3,
    candidates: impl FnOnce() -> C,
    overlapping: bool,
) -> Separation {
    let mut ascended = *start;
    if !overlapping {
        let apart = CONTACT_ROUNDING * magnitude;
        let tolerance = NEWTON_CERTIFIED * magnitude;
        let accept = |c: &Certified| c.lower > apart && c.upper - c.lower <= tolerance;
        let (cap_gap, cap) = pair.best_cap_direction();
        let start_gap = pair.gap(start);
        if cap_gap > start_gap
            && cap_gap > apart
            && let Some(found) = pair.cap_contact(&cap, tolerance)
        {
            return found;
        }
        let first = if cap_gap > start_gap { cap } else { *start };
        let mut from = first;
        for step in [FAST_STEP, POLISHED_STEP] {
            ascended = pair.ascend(&from, step).unwrap_or(from);
            from = ascended;
            let found = pair
                .certify(&ascended)
                .unwrap_or_else(|| certify(a, b, &ascended));
            if accept(&found) {
                return Separation {
                    distance: found.lower,
                    ..found.separation
                };
            }
            if found.lower <= apart {
                break;
            }
        }
        if let Some(g) = gjk_separation(a, b, magnitude).filter(|g| g.lower > apart) {
            let (axes, count) = pair.ridge_axes();
            return refined_gjk(a, b, magnitude, g, &axes[..count]);
        }
    }
    let deepest = pair.deepest(candidates().as_ref());
    let best = if !is_unit(&ascended) || pair.gap(&deepest) >= pair.gap(&ascended) {
        deepest
    } else {
        ascended
    };
    contact_witnesses(a, b, &snap_to_cap(pair, best, magnitude), magnitude)
}

/// Cosine within which a penetration direction is tried on a cap direction `±u`.
const CAP_SNAP_COSINE: Real = 1.0 - 1e-8;

/// How much deeper (relative to the magnitude) a cap direction's value may be than the
/// search's and still be taken: 1e-9, far below what a penetration estimate resolves.
const CAP_SNAP_DEPTH: Real = 1e-9;

/// The cap direction `±u` of a body when `n` lies within ~1.4e-4 rad of it and its gap is
/// at most `CAP_SNAP_DEPTH × magnitude` smaller. Any direction's gap is a lower bound on the
/// signed distance, so the value stays conservative. Near a cone the search converges slowly;
/// off the cone the support set is a single rim point a radius from the cap face's contact,
/// and the witnesses would miss the face (found by fuzzing).
fn snap_to_cap(pair: &AxialPair, n: Vector3, magnitude: Real) -> Vector3 {
    let (axes, count) = pair.ridge_axes();
    let gap = pair.gap(&n) - CAP_SNAP_DEPTH * magnitude;
    axes[..count]
        .iter()
        .flat_map(|u| [*u, -u])
        .find(|u| u.dot(&n) > CAP_SNAP_COSINE && pair.gap(u) >= gap)
        .unwrap_or(n)
}

/// GJK's certified separation, its direction refined along the ridges when its two bounds
/// disagree by more than `REFINE_ABOVE × magnitude`.
pub(crate) fn refined_gjk<A: SupportMap, B: SupportMap>(
    a: &A,
    b: &B,
    magnitude: Real,
    g: super::gjk::GjkSeparation,
    axes: &[Vector3],
) -> Separation {
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
            // Witnesses for the refined direction (GJK's belong to its own): where the two
            // support sets meet once b is moved by the gap along it, so that
            // `point_b − point_a = distance · normal` holds with the certified lower bound.
            best = contact_witnesses(a, b, &refined.normal, magnitude);
        }
    }
    best
}
