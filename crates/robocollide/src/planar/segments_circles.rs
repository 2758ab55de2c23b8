//! Batched segment–circle checks: `n` segments against `k` circles in one call (seed 001's
//! `ColSegmentsCircles`), answering per segment whether it meets any circle, and its signed
//! clearance (distance from the segment to the nearest circle boundary, ≤ 0 in contact).
//!
//! The circles are stored as structure-of-arrays so that the inner loop over circles is
//! branch-free (clamped projection, squared distances) and the compiler can vectorise it.
//!
//! Rounding: the test is `|p|² ≤ r² + 16 ε (S + C)²`, where `S` and `C` are the largest
//! absolute coordinates of the segment and of the circle (plus radius). The slack exceeds the
//! rounding error of the computed `|p|²`, so a segment that touches a disc is never reported
//! clear; segments within rounding of touching are reported as colliding.

use crate::error::{Error, Result};
use crate::math::Real;

/// A closed disc `{p : |p − c| ≤ r}` in the plane.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Circle {
    /// Centre `(x, y)`.
    pub center: [Real; 2],
    /// Radius (≥ 0).
    pub radius: Real,
}

/// A segment from `a` to `b` in the plane.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Segment2 {
    /// Start point.
    pub a: [Real; 2],
    /// End point.
    pub b: [Real; 2],
}

/// A set of circles prepared for batched queries.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SegmentsCircles {
    cx: Vec<Real>,
    cy: Vec<Real>,
    r: Vec<Real>,
    r2: Vec<Real>,
    /// Largest absolute coordinate of each circle, plus its radius.
    scale: Vec<Real>,
}

/// Relative rounding slack of the squared-distance test (see the module docs).
const SLACK: Real = 16.0 * Real::EPSILON;

impl SegmentsCircles {
    /// Prepares `circles`; errors name a non-finite value or a negative radius by index.
    pub fn new(circles: &[Circle]) -> Result<Self> {
        let mut set = Self::default();
        for (i, c) in circles.iter().enumerate() {
            for (axis, v) in ["x", "y"].iter().zip(c.center) {
                if !v.is_finite() {
                    return Err(Error::NonFinite {
                        field: format!("circles[{i}].center.{axis}"),
                        value: v,
                    });
                }
            }
            let r = crate::geom::check_radius(&format!("circles[{i}].radius"), c.radius)?;
            set.cx.push(c.center[0]);
            set.cy.push(c.center[1]);
            set.r.push(r);
            set.r2.push(r * r);
            set.scale.push(c.center[0].abs().max(c.center[1].abs()) + r);
        }
        Ok(set)
    }

    /// Number of circles.
    pub fn len(&self) -> usize {
        self.r.len()
    }

    /// `true` when there are no circles.
    pub fn is_empty(&self) -> bool {
        self.r.is_empty()
    }

    /// Checks a segment's coordinates (all finite), naming the bad one.
    pub fn check_segment(index: usize, s: &Segment2) -> Result<()> {
        for (name, p) in [("a", s.a), ("b", s.b)] {
            for (axis, v) in ["x", "y"].iter().zip(p) {
                if !v.is_finite() {
                    return Err(Error::NonFinite {
                        field: format!("segments[{index}].{name}.{axis}"),
                        value: v,
                    });
                }
            }
        }
        Ok(())
    }

    /// `true` if segment `s` meets any circle (closed discs: touching counts).
    #[inline]
    pub fn collides(&self, s: &Segment2) -> bool {
        let (ax, ay) = (s.a[0], s.a[1]);
        let (dx, dy) = (s.b[0] - ax, s.b[1] - ay);
        let dd = dx * dx + dy * dy;
        let inv = if dd > 0.0 { 1.0 / dd } else { 0.0 };
        let segment_scale = ax.abs().max(ay.abs()).max(s.b[0].abs()).max(s.b[1].abs());
        // Branch-free within chunks of four circles; stop after the first chunk that hits.
        let n = self.r.len();
        let mut start = 0;
        while start < n {
            let end = (start + 4).min(n);
            let mut hit = false;
            for i in start..end {
                let (ex, ey) = (self.cx[i] - ax, self.cy[i] - ay);
                let t = ((ex * dx + ey * dy) * inv).clamp(0.0, 1.0);
                let (px, py) = (dx * t - ex, dy * t - ey);
                let scale = segment_scale + self.scale[i];
                hit |= px * px + py * py <= self.r2[i] + SLACK * scale * scale;
            }
            if hit {
                return true;
            }
            start = end;
        }
        false
    }

    /// Signed clearance of segment `s`: `min over circles of (dist(centre, s) − r)`;
    /// `+∞` without circles.
    pub fn clearance(&self, s: &Segment2) -> Real {
        let (ax, ay) = (s.a[0], s.a[1]);
        let (dx, dy) = (s.b[0] - ax, s.b[1] - ay);
        let dd = dx * dx + dy * dy;
        let inv = if dd > 0.0 { 1.0 / dd } else { 0.0 };
        let mut best = Real::INFINITY;
        for i in 0..self.r.len() {
            let (ex, ey) = (self.cx[i] - ax, self.cy[i] - ay);
            let t = ((ex * dx + ey * dy) * inv).clamp(0.0, 1.0);
            let (px, py) = (dx * t - ex, dy * t - ey);
            best = best.min((px * px + py * py).sqrt() - self.r[i]);
        }
        best
    }

    /// One answer per segment, in order: does it meet any circle?
    pub fn collisions(&self, segments: &[Segment2], out: &mut Vec<bool>) {
        out.clear();
        out.extend(segments.iter().map(|s| self.collides(s)));
    }

    /// One signed clearance per segment, in order.
    pub fn clearances(&self, segments: &[Segment2], out: &mut Vec<Real>) {
        out.clear();
        out.extend(segments.iter().map(|s| self.clearance(s)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(a: [Real; 2], b: [Real; 2]) -> Segment2 {
        Segment2 { a, b }
    }

    #[test]
    fn blog_counterexample_is_a_collision() {
        // SEED-NOTES 001: A = (−0.7, 0.8), B = (0.7, 0.8) crosses the unit circle at the
        // origin; the blog's tests (endpoints inside, or |CH| ≤ r with ⟨CA, CB⟩ ≤ 0) say no:
        // |CA|² = |CB|² = 1.13 > 1 and ⟨CA, CB⟩ = −0.49 + 0.64 = 0.15 > 0.
        let set = SegmentsCircles::new(&[Circle {
            center: [0.0, 0.0],
            radius: 1.0,
        }])
        .unwrap();
        let s = seg([-0.7, 0.8], [0.7, 0.8]);
        assert!(set.collides(&s));
        assert!((set.clearance(&s) - (0.8 - 1.0)).abs() < 1e-15);
    }

    #[test]
    fn touching_degenerate_and_empty() {
        let set = SegmentsCircles::new(&[Circle {
            center: [0.0, 0.0],
            radius: 1.0,
        }])
        .unwrap();
        assert!(
            set.collides(&seg([-2.0, 1.0], [2.0, 1.0])),
            "tangent segment touches"
        );
        assert!(!set.collides(&seg([-2.0, 1.0 + 1e-12], [2.0, 1.0 + 1e-12])));
        assert!(set.collides(&seg([0.5, 0.5], [0.5, 0.5])), "point inside");
        assert!(!set.collides(&seg([3.0, 0.0], [3.0, 0.0])));
        let none = SegmentsCircles::new(&[]).unwrap();
        assert!(!none.collides(&seg([0.0, 0.0], [1.0, 0.0])));
        assert_eq!(none.clearance(&seg([0.0, 0.0], [1.0, 0.0])), Real::INFINITY);
    }

    #[test]
    fn bad_input_is_named() {
        let e = SegmentsCircles::new(&[
            Circle {
                center: [0.0, 0.0],
                radius: 1.0,
            },
            Circle {
                center: [0.0, Real::NAN],
                radius: 1.0,
            },
        ])
        .unwrap_err();
        assert_eq!(e.to_string(), "circles[1].center.y must be finite, got NaN");
        let e = SegmentsCircles::new(&[Circle {
            center: [0.0, 0.0],
            radius: -2.0,
        }])
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "circles[0].radius must be a radius >= 0, got -2"
        );
        let e =
            SegmentsCircles::check_segment(3, &seg([0.0, Real::INFINITY], [1.0, 1.0])).unwrap_err();
        assert_eq!(e.to_string(), "segments[3].a.y must be finite, got inf");
    }
}
