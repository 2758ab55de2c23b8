//! [`AxialPair::deepest`]: the global search for the direction of largest gap of touching or
//! overlapping bodies (a Fibonacci sweep, the ridge circles, then Newton from the best few).

use super::{AxialPair, FAST_STEP, POLISHED_STEP, is_unit};
use crate::math::{Real, Vector3, orthogonal_unit, perpendicular_part, try_normalize};
use crate::query::support_gap::{fibonacci_direction, shape_frame};
use std::sync::LazyLock;

/// Directions of the coarse global sweep for overlapping pairs (a Fibonacci sphere).
const SWEEP_DIRECTIONS: usize = 64;
/// Directions sampled on each ridge great circle.
const RIDGE_DIRECTIONS: usize = 32;
/// Starts closer than this (cosine of the angle) to a better one are not refined again.
const DISTINCT_STARTS: Real = 0.98;
/// Number of best starting directions refined by Newton.
const REFINED_STARTS: usize = 3;

static SWEEP: LazyLock<[Vector3; SWEEP_DIRECTIONS]> =
    LazyLock::new(|| std::array::from_fn(|i| fibonacci_direction(i, SWEEP_DIRECTIONS)));
static RIDGE: LazyLock<[(Real, Real); RIDGE_DIRECTIONS]> = LazyLock::new(|| {
    std::array::from_fn(|k| {
        (std::f64::consts::TAU * k as Real / RIDGE_DIRECTIONS as Real).sin_cos()
    })
});

impl AxialPair {
    /// The direction of largest gap found for touching or overlapping bodies: `candidates`,
    /// a global sweep in a frame built from the shapes (so the answer moves with them), each
    /// ridge great circle, then Newton from the best few. The gap along it is a conservative
    /// (never shallower than the truth) signed distance.
    #[inline(never)]
    pub(crate) fn deepest(&self, candidates: &[Vector3]) -> Vector3 {
        let mut starts = [(Real::NEG_INFINITY, Vector3::x()); REFINED_STARTS];
        // Keeps the REFINED_STARTS best, best first; `direction` is only built for entrants.
        let mut offer = |g: Real, direction: &dyn Fn() -> Vector3| {
            if g > starts[REFINED_STARTS - 1].0 {
                let mut entry = (g, direction());
                for slot in starts.iter_mut() {
                    if entry.0 > slot.0 {
                        std::mem::swap(slot, &mut entry);
                    }
                }
            }
        };
        let (axes, count) = self.ridge_axes();
        let axes = &axes[..count];
        for c in candidates {
            if let Some(n) = try_normalize(c) {
                offer(self.gap(&n), &|| n);
            }
        }
        // The sweep's directions are `frame · d`: evaluate the gap in frame coordinates.
        let frame = shape_frame(axes, candidates);
        let offset = frame.tr_mul(&self.offset);
        let [a, b] = self.bodies;
        let (ua, ub) = (frame.tr_mul(&a.axis), frame.tr_mul(&b.axis));
        let mut sweep = [0.0; SWEEP_DIRECTIONS];
        for (g, d) in sweep.iter_mut().zip(SWEEP.iter()) {
            let (along_a, along_b) = (ua.dot(d), ub.dot(d));
            *g = offset.dot(d)
                - a.half * along_a.abs()
                - b.half * along_b.abs()
                - a.radius * (1.0 - along_a * along_a).max(0.0).sqrt()
                - b.radius * (1.0 - along_b * along_b).max(0.0).sqrt();
        }
        for (g, d) in sweep.iter().zip(SWEEP.iter()) {
            offer(*g, &|| frame * d);
        }
        // Each ridge great circle `e1 cos φ + e2 sin φ`, likewise in its own coordinates.
        for u in axes {
            // A frame column (nearly) along `u` leaves a perpendicular part of rounding noise,
            // not perpendicular to `u`; `e2 = u × e1` would then not be unit and the circle's
            // directions would be too short (found by fuzzing: norms 0.56..0.98).
            let column = frame.column(1).into_owned();
            let e1 = Some(perpendicular_part(&column, u))
                .filter(|p| p.norm() > 1e-6 * column.norm())
                .and_then(|p| try_normalize(&p))
                .unwrap_or_else(|| orthogonal_unit(u));
            let e2 = u.cross(&e1);
            let offset = (self.offset.dot(&e1), self.offset.dot(&e2));
            let (a1, a2, b1, b2) = (
                a.axis.dot(&e1),
                a.axis.dot(&e2),
                b.axis.dot(&e1),
                b.axis.dot(&e2),
            );
            let mut ridge = [0.0; RIDGE_DIRECTIONS];
            for (g, &(sin, cos)) in ridge.iter_mut().zip(RIDGE.iter()) {
                let (along_a, along_b) = (a1 * cos + a2 * sin, b1 * cos + b2 * sin);
                *g = offset.0 * cos + offset.1 * sin
                    - a.half * along_a.abs()
                    - b.half * along_b.abs()
                    - a.radius * (1.0 - along_a * along_a).max(0.0).sqrt()
                    - b.radius * (1.0 - along_b * along_b).max(0.0).sqrt();
            }
            for (g, &(sin, cos)) in ridge.iter().zip(RIDGE.iter()) {
                offer(*g, &|| e1 * cos + e2 * sin);
            }
        }
        // Newton from each distinct start (fast tolerance), then polish the best.
        let mut best = starts[0];
        for (i, &(g, n)) in starts.iter().enumerate() {
            let distinct = starts[..i].iter().all(|(_, m)| m.dot(&n) < DISTINCT_STARTS);
            if !g.is_finite() || !distinct {
                continue;
            }
            let refined = self.ascend(&n, FAST_STEP).filter(is_unit).unwrap_or(n);
            let refined_gap = self.gap(&refined);
            if refined_gap > best.0 {
                best = (refined_gap, refined);
            }
        }
        let polished = self
            .ascend(&best.1, POLISHED_STEP)
            .filter(is_unit)
            .unwrap_or(best.1);
        if self.gap(&polished) >= best.0 {
            polished
        } else {
            best.1
        }
    }
}
