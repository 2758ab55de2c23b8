//! Infinite lines in Plücker coordinates (seed 003 eqs. 1–6): a unit direction `s` and the
//! moment `m = p × s` for any point `p` on the line, used as the dual vector `s + ε m`.
//!
//! Between two lines, the dual angle `θ̂ = θ + ε d` (twist angle `θ ∈ [0, π]`, distance `d`
//! along the common normal, signed so that `S₁·S₂ = cos θ̂ = cos θ − ε d sin θ` and
//! `S₁ × S₂ = sin θ̂ N̂`) and the common normal's feet are computed from the points of closest
//! approach rather than by dividing the dual parts by `sin θ`, which loses all digits as the
//! lines become parallel. Classification: *parallel* when `|s₁ × s₂| ≤ 1e-12` (then the feet are
//! any pair realising the distance), *identical* when parallel and `d ≤ 1e-12 ×` the scale of
//! the points involved, *intersecting* when `d` is within the same bound, else *skew*.

use super::dual::{Dual, DualVector};
use super::validate::check_point;
use crate::error::{Error, Result};
use crate::math::{Point3, Real, Vector3, orthogonal_unit};

/// Tolerance on `|s₁ × s₂|` (sine of the angle) below which lines are treated as parallel.
pub const PARALLEL_SINE: Real = 1e-12;

/// Sine of the angle above which [`Line::distance_to`] uses the reciprocal product: its
/// rounding error is then at most a few `1e-13 ×` the moments' scale.
const CHEAP_DISTANCE_SINE: Real = 1e-3;

/// A directed infinite line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Line {
    direction: Vector3,
    moment: Vector3,
}

/// How two lines lie.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum LineRelation {
    /// Neither parallel nor meeting.
    Skew,
    /// Meeting in one point.
    Intersecting,
    /// Parallel and distinct.
    Parallel,
    /// The same line (either direction).
    Identical,
}

/// Dual angle and common normal of two lines.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CommonNormal {
    /// Twist angle `θ ∈ [0, π]` between the directions (rad).
    pub theta: Real,
    /// Signed distance `d` along `normal` from the first line to the second (m).
    pub distance: Real,
    /// Foot of the common normal on the first line.
    pub foot_a: Point3,
    /// Foot on the second line.
    pub foot_b: Point3,
    /// Unit direction of the common normal `N̂` (`s₁ × s₂` normalised; for parallel lines
    /// the direction from the first line to the second, or any perpendicular if identical).
    pub normal: Vector3,
    /// Classification.
    pub relation: LineRelation,
}

impl Line {
    /// The line through `p` and `q` (seed 003 eq. 1), directed from `p` to `q`.
    pub fn through(p: Point3, q: Point3) -> Result<Line> {
        let (p, q) = (check_point("line.p", p)?, check_point("line.q", q)?);
        Self::from_point_direction(p, q - p)
    }

    /// The line through `p` along `direction` (seed 003 eq. 2).
    pub fn from_point_direction(p: Point3, direction: Vector3) -> Result<Line> {
        let p = check_point("line.point", p)?;
        let n = direction.norm();
        if !(n.is_finite() && n > 0.0) {
            return Err(Error::Parse(format!(
                "line direction must be finite and non-zero, got {direction:?}"
            )));
        }
        let s = direction / n;
        Ok(Line {
            direction: s,
            moment: p.coords.cross(&s),
        })
    }

    /// Unit direction `s`.
    pub fn direction(&self) -> Vector3 {
        self.direction
    }

    /// Moment `m = p × s`.
    pub fn moment(&self) -> Vector3 {
        self.moment
    }

    /// The line's point closest to the origin, `s × m`.
    pub fn point(&self) -> Point3 {
        Point3::from(self.direction.cross(&self.moment))
    }

    /// The dual vector `s + ε m` (seed 003 eq. 3).
    pub fn dual(&self) -> DualVector {
        DualVector::new(self.direction, self.moment)
    }

    /// Seed 003 eq. 5: `S₁·S₂ = cos θ − ε d sin θ`.
    pub fn dual_dot(&self, other: &Line) -> Dual {
        self.dual().dot(&other.dual())
    }

    /// Seed 003 eq. 6: `S₁ × S₂ = (sin θ + ε d cos θ) N̂`.
    pub fn dual_cross(&self, other: &Line) -> DualVector {
        self.dual().cross(&other.dual())
    }

    /// Unsigned distance to `other`: `|s₁·m₂ + s₂·m₁| / |s₁ × s₂|` (the reciprocal product
    /// over the sine, seed 003 eqs. 5–6) when the lines are clearly not parallel, else the
    /// accurate [`common_normal`](Self::common_normal) (0 for identical lines). Cheaper than
    /// the full common normal: no feet, no angle.
    pub fn distance_to(&self, other: &Line) -> Real {
        let sine = self.direction.cross(&other.direction).norm();
        if sine > CHEAP_DISTANCE_SINE {
            let reciprocal = self.direction.dot(&other.moment) + other.direction.dot(&self.moment);
            return reciprocal.abs() / sine;
        }
        let n = self.common_normal(other);
        if n.relation == LineRelation::Identical {
            0.0
        } else {
            n.distance.abs()
        }
    }

    /// Dual angle, common normal and relation to `other`.
    pub fn common_normal(&self, other: &Line) -> CommonNormal {
        let (a, b) = (self.direction, other.direction);
        let (p, q) = (self.point(), other.point());
        // An accurate cross product: for nearly parallel lines the plain one loses all digits
        // of the common normal's direction, and the distance inherits that error times the
        // lever arm |w| / sin θ.
        let n = crate::math::accurate_cross(&a, &b);
        let sine = n.norm();
        let theta = sine.atan2(a.dot(&b));
        let scale = p.coords.amax().max(q.coords.amax()).max(1.0);
        if sine > PARALLEL_SINE {
            // Closest points of the two lines (unclamped; cross-product form, see
            // query::segment_segment for why).
            let w = q - p;
            let nn = sine * sine;
            let s = crate::math::accurate_cross(&w, &b).dot(&n) / nn;
            let t = crate::math::accurate_cross(&w, &a).dot(&n) / nn;
            let (foot_a, foot_b) = (p + a * s, q + b * t);
            let normal = n / sine;
            // The distance from the (well-conditioned) projection of any connecting vector,
            // not from the (ill-conditioned) feet.
            let distance = w.dot(&normal);
            let relation = if distance.abs() <= 1e-12 * scale {
                LineRelation::Intersecting
            } else {
                LineRelation::Skew
            };
            return CommonNormal {
                theta,
                distance,
                foot_a,
                foot_b,
                normal,
                relation,
            };
        }
        // Parallel (or anti-parallel): the offset of q from the first line.
        let offset = (q - p) - a * (q - p).dot(&a);
        let distance = offset.norm();
        let identical = distance <= 1e-12 * scale;
        let normal = if identical {
            orthogonal_unit(&a)
        } else {
            offset / distance
        };
        CommonNormal {
            theta,
            distance,
            foot_a: p,
            foot_b: p + offset,
            normal,
            relation: if identical {
                LineRelation::Identical
            } else {
                LineRelation::Parallel
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(p: [f64; 3], q: [f64; 3]) -> Line {
        Line::through(p.into(), q.into()).unwrap()
    }

    #[test]
    fn moment_does_not_depend_on_the_point() {
        let l1 = line([1.0, 2.0, 3.0], [2.0, 4.0, 5.0]);
        let l2 =
            Line::from_point_direction(Point3::new(3.0, 6.0, 7.0), Vector3::new(2.0, 4.0, 4.0))
                .unwrap();
        assert!((l1.moment() - l2.moment()).norm() < 1e-14);
        assert!(l1.direction().dot(&l1.moment()).abs() < 1e-15);
    }

    #[test]
    fn skew_lines_satisfy_eqs_5_and_6() {
        // The x-axis and the line through (0, 0, 3) along (0, 1, 1): closest at (0, −1.5, 1.5),
        // distance 3/√2 along N̂ = x × (0, 1, 1)/√2 = (0, −1, 1)/√2.
        let l1 = line([0.0, 0.0, 0.0], [1.0, 0.0, 0.0]);
        let l2 = line([0.0, 0.0, 3.0], [0.0, 1.0, 4.0]);
        let c = l1.common_normal(&l2);
        assert_eq!(c.relation, LineRelation::Skew);
        assert!((c.theta - std::f64::consts::FRAC_PI_2).abs() < 1e-15);
        assert!((c.distance - 3.0 / 2f64.sqrt()).abs() < 1e-15);
        assert!(
            (c.foot_a - Point3::origin()).norm() < 1e-15
                && (c.foot_b - Point3::new(0.0, -1.5, 1.5)).norm() < 1e-15
        );
        // Eq. 5: S1·S2 = cos θ − ε d sin θ.
        let dot = l1.dual_dot(&l2);
        assert!(
            (dot.re - c.theta.cos()).abs() < 1e-15
                && (dot.du + c.distance * c.theta.sin()).abs() < 1e-14
        );
        // Eq. 6: S1×S2 = (sin θ + ε d cos θ) N̂ with N̂ the common normal line.
        let n_hat = Line::from_point_direction(c.foot_a, c.normal)
            .unwrap()
            .dual();
        let expected = n_hat.scale(Dual::new(c.theta.sin(), c.distance * c.theta.cos()));
        let cross = l1.dual_cross(&l2);
        assert!((cross.re - expected.re).norm() < 1e-14 && (cross.du - expected.du).norm() < 1e-14);
    }

    #[test]
    fn intersecting_parallel_and_identical() {
        let x = line([0.0, 0.0, 0.0], [1.0, 0.0, 0.0]);
        let c = x.common_normal(&line([2.0, -1.0, 0.0], [2.0, 1.0, 0.0]));
        assert_eq!(c.relation, LineRelation::Intersecting);
        assert!((c.foot_a - Point3::new(2.0, 0.0, 0.0)).norm() < 1e-15);
        let c = x.common_normal(&line([5.0, 0.0, 2.0], [3.0, 0.0, 2.0]));
        assert_eq!(c.relation, LineRelation::Parallel);
        assert!((c.distance - 2.0).abs() < 1e-15 && (c.theta - std::f64::consts::PI).abs() < 1e-15);
        assert!((c.normal - Vector3::z()).norm() < 1e-15);
        let c = x.common_normal(&line([7.0, 0.0, 0.0], [9.0, 0.0, 0.0]));
        assert_eq!(c.relation, LineRelation::Identical);
        assert_eq!(c.distance, 0.0);
    }

    #[test]
    fn bad_lines_are_rejected() {
        assert!(Line::through(Point3::new(1.0, 1.0, 1.0), Point3::new(1.0, 1.0, 1.0)).is_err());
        assert!(
            Line::through(Point3::new(f64::NAN, 1.0, 1.0), Point3::new(1.0, 1.0, 1.0))
                .unwrap_err()
                .to_string()
                .contains("line.p.x must be finite")
        );
    }
}
