//! Newton's method on the unit sphere for the separating direction, with a certificate.
//!
//! For convex A and B and a unit `n` (from A to B), `gap(n) = −h_A(n) − h_B(−n)` (support
//! functions `h`) is a lower bound on the distance, and the distance is its maximum. Its
//! gradient is `w = s_B(−n) − s_A(n)` (support points) and its Hessian `−J_A(n) − J_B(−n)`
//! (support Jacobians, see [`SupportMap::support_jacobian`]). Restricted to the sphere, the
//! Riemannian gradient is `w − (w·n) n` and the Riemannian Hessian `P(−J_A − J_B − (w·n) I)P`
//! on the tangent plane; Newton's step converges quadratically on rim contacts (where GJK
//! converges only linearly).
//!
//! Ridges (`n · u = 0` for a cylinder axis or segment direction `u`, where the support jumps
//! between the two ends) hold the optima of lateral and edge contacts. A step that would cross
//! a ridge stops on it, and the ridge becomes an active constraint (the step space loses a
//! dimension). Cap contacts (`n = ±u`) are not reached by Newton — callers try them as explicit
//! candidates.
//!
//! Nothing is trusted without a certificate: the answer is accepted only if the gap along the
//! final direction (a lower bound) and the distance between a realised pair of points (an upper
//! bound: closest points of the two support sets) agree to the caller's tolerance.

use super::Separation;
use super::point_segment::closest_parameter;
use super::segment_segment::closest_points;
use super::support_gap::gap_along;
use super::support_map::SupportMap;
use crate::math::{Matrix3, Real, Vector3, orthogonal_unit, try_normalize};

/// Newton iterations before giving up.
const MAX_ITERATIONS: usize = 24;
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
    let (x, y) = match (a.support_feature(n), b.support_feature(&-n)) {
        (Some(fa), Some(fb)) => {
            let pair = closest_points(&fa, &fb);
            (pair.point_a, pair.point_b)
        }
        // A point or segment against a cap face: project from the feature onto the face.
        (Some(fa), None) => feature_against_face(&fa, b),
        (None, Some(fb)) => {
            let (y, x) = feature_against_face(&fb, a);
            (x, y)
        }
        (None, None) => {
            let (mut x, mut y) = (g.point_a, g.point_b);
            for _ in 0..POLISH_STEPS {
                x = a.nearest_point(&y);
                y = b.nearest_point(&x);
            }
            (x, y)
        }
    };
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

/// Closest points between a support segment (or point) `feature` and a shape whose support
/// set is a face, by alternating exact projections started from the feature's midpoint.
fn feature_against_face<S: SupportMap>(
    feature: &crate::geom::Segment,
    shape: &S,
) -> (crate::math::Point3, crate::math::Point3) {
    let mut x = feature.at(0.5);
    let mut y = shape.nearest_point(&x);
    for _ in 0..POLISH_STEPS {
        x = feature.at(closest_parameter(&y, feature));
        y = shape.nearest_point(&x);
    }
    (x, y)
}

/// Supports, their Jacobians and the gap at one direction (reused across Newton steps).
#[derive(Clone, Copy)]
struct Probe {
    n: Vector3,
    w: Vector3,
    jacobian: Matrix3,
    gap: Real,
}

fn probe<A: SupportMap, B: SupportMap>(a: &A, b: &B, n: Vector3) -> Probe {
    let (sa, ja) = a.support_jacobian(&n);
    let (sb, jb) = b.support_jacobian(&-n);
    let w = sb - sa;
    Probe {
        n,
        w,
        jacobian: -ja - jb,
        gap: w.dot(&n),
    }
}

/// Maximises the gap from `start` by constrained Newton steps; returns the final direction.
pub(crate) fn newton_direction<A: SupportMap, B: SupportMap>(
    a: &A,
    b: &B,
    start: &Vector3,
) -> Option<Vector3> {
    let n = try_normalize(start)?;
    let ridges = [a.ridge_axis(), b.ridge_axis()];
    // A start on a ridge (up to rounding) begins with that ridge active.
    let mut active = [0, 1].map(|k| ridges[k].is_some_and(|u| n.dot(&u).abs() <= 1e-12));
    let mut at = probe(a, b, n);
    for _ in 0..MAX_ITERATIONS {
        match newton_step(a, b, &at, &ridges, &mut active) {
            Some((next, false)) => at = next,
            converged => {
                if let Some((next, true)) = converged {
                    at = next;
                }
                // Converged (or stuck) on the current constraints: leave a ridge if that helps
                // (the KKT sign condition), else stop.
                match release_ridge(a, b, &at.n, &ridges, &mut active, at.gap) {
                    Some(m) => at = probe(a, b, m),
                    None => break,
                }
            }
        }
    }
    Some(at.n)
}

/// Newton steps shorter than this (radians) mean convergence: with quadratic convergence the
/// remaining error is far below rounding.
const CONVERGED_STEP: Real = 1e-9;

/// One safeguarded Newton step on the sphere within the active ridges: the new probe and
/// whether the iteration has converged; `None` when no step improves the gap.
fn newton_step<A: SupportMap, B: SupportMap>(
    a: &A,
    b: &B,
    at: &Probe,
    ridges: &[Option<Vector3>; 2],
    active: &mut [bool; 2],
) -> Option<(Probe, bool)> {
    let (n, w) = (at.n, at.w);
    // Tangent basis of the step space: ⟂ n and ⟂ every active ridge axis.
    let mut constraints = [Vector3::zeros(); 2];
    let mut count = 0;
    for (u, on) in ridges.iter().zip(*active) {
        if let (Some(u), true) = (u, on) {
            constraints[count] = *u;
            count += 1;
        }
    }
    let h: Matrix3 = at.jacobian - Matrix3::identity() * w.dot(&n);
    let step = match count {
        0 => {
            let t1 = orthogonal_unit(&n);
            let t2 = n.cross(&t1);
            let (g1, g2) = (w.dot(&t1), w.dot(&t2));
            let (h11, h12, h22) = (t1.dot(&(h * t1)), t1.dot(&(h * t2)), t2.dot(&(h * t2)));
            let det = h11 * h22 - h12 * h12;
            if h11 < 0.0 && det > 0.0 {
                // Newton: solve H δ = −g.
                t1 * (-(h22 * g1 - h12 * g2) / det) + t2 * (-(-h12 * g1 + h11 * g2) / det)
            } else {
                (t1 * g1 + t2 * g2) * 0.1
            }
        }
        1 => {
            let t = try_normalize(&n.cross(&constraints[0]))?;
            let (g1, h11) = (w.dot(&t), t.dot(&(h * t)));
            if h11 < 0.0 {
                t * (-g1 / h11)
            } else {
                t * (g1 * 0.1)
            }
        }
        _ => return None,
    };
    let length = step.norm();
    if length.is_nan() || length <= 1e-16 {
        return None;
    }
    // Stop on the first inactive ridge the step would cross, and activate it.
    let mut fraction: Real = 1.0;
    let mut hit = None;
    for (k, u) in ridges.iter().enumerate() {
        if let (Some(u), false) = (u, active[k]) {
            let (now, next) = (n.dot(u), (n + step).dot(u));
            if now != 0.0 && now * next < 0.0 {
                let f = now / (now - next);
                if f < fraction {
                    fraction = f;
                    hit = Some(k);
                }
            }
        }
    }
    let mut candidate = try_normalize(&(n + step * fraction))?;
    if let Some(k) = hit {
        let u = ridges[k]?;
        candidate = try_normalize(&crate::math::perpendicular_part(&candidate, &u))?;
        active[k] = true;
        // Landing on a ridge activates a constraint: progress even if the gap barely moved.
        return Some((probe(a, b, candidate), false));
    }
    let mut next = probe(a, b, candidate);
    if length < CONVERGED_STEP {
        return (next.gap > at.gap).then_some((next, true));
    }
    let mut shrink = 0;
    while next.gap < at.gap && shrink < 8 {
        candidate = try_normalize(&(n + (candidate - n) * 0.5))?;
        next = probe(a, b, candidate);
        shrink += 1;
    }
    (next.gap > at.gap).then_some((next, false))
}

/// If stepping off an active ridge (to either side) increases the gap, deactivates that ridge
/// and returns the improved direction.
fn release_ridge<A: SupportMap, B: SupportMap>(
    a: &A,
    b: &B,
    n: &Vector3,
    ridges: &[Option<Vector3>; 2],
    active: &mut [bool; 2],
    gap: Real,
) -> Option<Vector3> {
    const PROBE: Real = 1e-7;
    for k in 0..2 {
        if let (true, Some(u)) = (active[k], ridges[k]) {
            for side in [1.0, -1.0] {
                let m = try_normalize(&(n + u * (side * PROBE)))?;
                if gap_along(a, b, &m).distance > gap {
                    active[k] = false;
                    return Some(m);
                }
            }
        }
    }
    None
}
