//! Signed distance as a maximum of gaps along directions — the conservative penetration
//! estimate used for cylinders.
//!
//! For convex closed sets A and B and a unit vector `n`, the *gap*
//! `g(n) = min_{y∈B} y·n − max_{x∈A} x·n` is a lower bound on their signed distance, and the
//! signed distance equals `max_{|n|=1} g(n)` (separating-hyperplane duality when apart; the
//! minimum translation distance when overlapping). So any direction gives a *conservative*
//! value — never more separated than the truth — and a positive gap proves separation.
//!
//! Here: the gap along one direction with its support points ([`gap_along`]), the
//! pose-equivariant frame and Fibonacci directions used by global searches over directions
//! (the penetration estimate of [`axial_gap`](super::axial_gap)), and a ridge-aware pattern
//! search that refines GJK's direction when GJK stalls ([`refine_gap`]).

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

/// A rotation whose columns are built from the shapes' own directions: the first non-zero of
/// `axes` and `candidates`, then the next one independent of it. Equivariant under rigid
/// motions of the pair (falls back to world axes only for degenerate input).
pub(crate) fn shape_frame(axes: &[Vector3], candidates: &[Vector3]) -> crate::math::Matrix3 {
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
pub(crate) fn fibonacci_direction(i: usize, n: usize) -> Vector3 {
    let z = 1.0 - 2.0 * (i as Real + 0.5) / n as Real;
    let phi = i as Real * 2.399_963_229_728_653; // golden angle
    let s = (1.0 - z * z).sqrt();
    Vector3::new(s * phi.cos(), s * phi.sin(), z)
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
