//! Signed distance as a maximum of gaps along directions — the conservative penetration
//! estimate used for cylinders.
//!
//! For convex closed sets A and B and a unit vector `n`, the *gap*
//! `g(n) = min_{y∈B} y·n − max_{x∈A} x·n` is a lower bound on their signed distance, and the
//! signed distance equals `max_{|n|=1} g(n)` (separating-hyperplane duality when apart; the
//! minimum translation distance when overlapping). So any direction gives a *conservative*
//! value — never more separated than the truth — and a positive gap proves separation.
//!
//! Cylinders have no closed-form penetration depth; we evaluate `g` on a few geometric
//! candidates, a coarse global sweep of 96 directions (in a frame built from the shapes, so the
//! result does not depend on their pose) and 48 directions on each *ridge* (the great circle
//! perpendicular to a cylinder axis, where the optima of lateral contacts lie), then refine the
//! best five by the constrained Newton iteration of [`support_newton`](super::support_newton). The
//! result is a lower bound on the signed distance (so an upper bound on the penetration
//! depth), exact whenever a candidate or the search reaches the optimal direction.

use super::Separation;
use super::support_map::SupportMap;
use crate::math::{Real, Vector3, orthogonal_unit, try_normalize};

/// Gap of `a` and `b` along unit `n`, with the support points as witnesses.
#[inline]
pub(crate) fn gap_along<A: SupportMap, B: SupportMap>(a: &A, b: &B, n: &Vector3) -> Separation {
    let point_a = a.support(n);
    let point_b = b.support(&-n);
    Separation {
        distance: (point_b - point_a).dot(n),
        point_a,
        point_b,
        normal: *n,
    }
}

/// Number of refinement steps of the pattern search.
const SEARCH_STEPS: usize = 80;

/// Directions of the coarse global sweep used when shapes overlap (a Fibonacci sphere).
const SWEEP_DIRECTIONS: usize = 96;
/// Directions sampled on each ridge (the great circle perpendicular to a cylinder axis).
const RIDGE_DIRECTIONS: usize = 48;
/// Number of best starting directions refined by local search.
const REFINED_STARTS: usize = 5;

/// A rotation whose columns are built from the shapes' own directions: the first non-zero of
/// `axes` and `candidates`, then the next one independent of it. Equivariant under rigid
/// motions of the pair (falls back to world axes only for degenerate input).
fn shape_frame(axes: &[Vector3], candidates: &[Vector3]) -> crate::math::Matrix3 {
    let mut dirs = axes.iter().chain(candidates).filter_map(try_normalize);
    let e1 = dirs.next().unwrap_or_else(Vector3::x);
    let e2 = dirs
        .find_map(|d| {
            let p = crate::math::perpendicular_part(&d, &e1);
            (p.norm() > 1e-6).then(|| p.normalize())
        })
        .unwrap_or_else(|| orthogonal_unit(&e1));
    crate::math::Matrix3::from_columns(&[e1, e2, e1.cross(&e2)])
}

/// The unit vector number `i` of an `n`-point Fibonacci sphere.
fn fibonacci_direction(i: usize, n: usize) -> Vector3 {
    let z = 1.0 - 2.0 * (i as Real + 0.5) / n as Real;
    let phi = i as Real * 2.399_963_229_728_653; // golden angle
    let s = (1.0 - z * z).sqrt();
    Vector3::new(s * phi.cos(), s * phi.sin(), z)
}

/// The best gap over `candidates` (zero vectors are skipped) and a coarse global sweep of
/// directions; the best few starts are refined by local search. `axes` are the cylinder axes
/// (ridges of the gap function, see [`refine_gap`]).
pub(crate) fn max_gap<A: SupportMap, B: SupportMap>(
    a: &A,
    b: &B,
    candidates: &[Vector3],
    axes: &[Vector3],
) -> Separation {
    let mut starts: [Option<Separation>; REFINED_STARTS] = [None; REFINED_STARTS];
    let mut offer = |g: Separation| {
        // Keep the REFINED_STARTS largest gaps, best first.
        let mut g = g;
        for slot in starts.iter_mut() {
            match slot {
                Some(s) if s.distance >= g.distance => {}
                _ => {
                    let previous = slot.replace(g);
                    match previous {
                        Some(p) => g = p,
                        None => return,
                    }
                }
            }
        }
    };
    for c in candidates {
        if let Some(n) = try_normalize(c) {
            offer(gap_along(a, b, &n));
        }
    }
    // The sweep is expressed in a frame built from the shapes (ridge axes, then the candidate
    // directions), so that moving both shapes rigidly moves the search with them: the result
    // does not depend on the pose.
    let frame = shape_frame(axes, candidates);
    for i in 0..SWEEP_DIRECTIONS {
        offer(gap_along(
            a,
            b,
            &(frame * fibonacci_direction(i, SWEEP_DIRECTIONS)),
        ));
    }
    // Optima of lateral contacts lie on the ridge great circle perpendicular to an axis.
    for u in axes {
        let e1 = try_normalize(&crate::math::perpendicular_part(
            &frame.column(1).into_owned(),
            u,
        ))
        .unwrap_or_else(|| orthogonal_unit(u));
        let e2 = u.cross(&e1);
        for k in 0..RIDGE_DIRECTIONS {
            let angle = std::f64::consts::TAU * k as Real / RIDGE_DIRECTIONS as Real;
            offer(gap_along(a, b, &(e1 * angle.cos() + e2 * angle.sin())));
        }
    }
    // Newton from each start: quadratic convergence to the local maximum of its basin.
    starts
        .into_iter()
        .flatten()
        .map(|s| {
            let n = super::support_newton::newton_direction(a, b, &s.normal).unwrap_or(s.normal);
            let g = gap_along(a, b, &n);
            if g.distance >= s.distance { g } else { s }
        })
        .max_by(|x, y| x.distance.total_cmp(&y.distance))
        .unwrap_or_else(|| gap_along(a, b, &Vector3::x()))
}

/// Pattern search on the unit sphere for a larger gap, from `start` with the given initial
/// and final angular steps (radians).
///
/// The gap of a cylinder has ridges where the direction is perpendicular to its axis (the
/// support jumps between caps) and cones around the axis; an optimum on a ridge is reached by
/// moving *along* it, so the tangent basis is aligned with the axis (from `axes`) closest to
/// perpendicular to the current direction.
pub(crate) fn refine_gap<A: SupportMap, B: SupportMap>(
    a: &A,
    b: &B,
    start: Separation,
    initial_step: Real,
    final_step: Real,
    axes: &[Vector3],
) -> Separation {
    let mut best = start;
    let mut step = initial_step;
    for _ in 0..SEARCH_STEPS {
        let n = best.normal;
        let ridge = axes
            .iter()
            .min_by(|x, y| x.dot(&n).abs().total_cmp(&y.dot(&n).abs()));
        let t1 = ridge
            .and_then(|u| try_normalize(&n.cross(u)))
            .unwrap_or_else(|| orthogonal_unit(&n));
        let t2 = n.cross(&t1);
        let mut improved = false;
        for dir in [t1, -t1, t2, -t2, t1 + t2, t1 - t2, -t1 + t2, -t1 - t2] {
            if let Some(m) = try_normalize(&(n + dir * step)) {
                let g = gap_along(a, b, &m);
                if g.distance > best.distance {
                    best = g;
                    improved = true;
                }
            }
        }
        if improved {
            step *= 1.5;
        } else {
            step *= 0.5;
            if step < final_step {
                break;
            }
        }
    }
    best
}
