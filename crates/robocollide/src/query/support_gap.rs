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
//! candidates, then refine the best by a shrinking pattern search on the unit sphere. The
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
const SEARCH_STEPS: usize = 60;

/// The best gap over `candidates` (zero vectors are skipped), refined by local search.
pub(crate) fn max_gap<A: SupportMap, B: SupportMap>(
    a: &A,
    b: &B,
    candidates: &[Vector3],
) -> Separation {
    let mut best: Option<Separation> = None;
    for c in candidates {
        if let Some(n) = try_normalize(c) {
            let g = gap_along(a, b, &n);
            if best.is_none_or(|bg| g.distance > bg.distance) {
                best = Some(g);
            }
        }
    }
    let mut best = best.unwrap_or_else(|| gap_along(a, b, &Vector3::x()));
    let mut step: Real = 0.5;
    for _ in 0..SEARCH_STEPS {
        let n = best.normal;
        let t1 = orthogonal_unit(&n);
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
        if !improved {
            step *= 0.5;
            if step < 1e-10 {
                break;
            }
        }
    }
    best
}
