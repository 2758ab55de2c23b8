//! Line segment `{a + t (b − a) : t ∈ [0, 1]}`; `a == b` is allowed and is a point.

use super::validate::check_point;
use crate::error::Result;
use crate::math::{Point3, Real, Vector3};

/// A closed line segment between two finite points.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Segment {
    a: Point3,
    b: Point3,
}

impl Segment {
    /// A segment from `a` to `b`; errors name the non-finite coordinate.
    pub fn new(a: Point3, b: Point3) -> Result<Self> {
        Ok(Self {
            a: check_point("segment.a", a)?,
            b: check_point("segment.b", b)?,
        })
    }

    /// Builds without validation; callers guarantee finite points.
    pub(crate) const fn from_finite(a: Point3, b: Point3) -> Self {
        Self { a, b }
    }

    /// Start point (`t = 0`).
    #[inline]
    pub fn a(&self) -> Point3 {
        self.a
    }

    /// End point (`t = 1`).
    #[inline]
    pub fn b(&self) -> Point3 {
        self.b
    }

    /// `b − a`.
    #[inline]
    pub fn direction(&self) -> Vector3 {
        self.b - self.a
    }

    /// Length `|b − a|`.
    pub fn length(&self) -> Real {
        self.direction().norm()
    }

    /// The point at parameter `t` (not clamped).
    #[inline]
    pub fn at(&self, t: Real) -> Point3 {
        self.a + self.direction() * t
    }

    /// The segment moved by a rigid motion.
    pub fn transformed(&self, iso: &crate::math::Isometry3) -> Self {
        Self {
            a: iso * self.a,
            b: iso * self.b,
        }
    }

    /// Largest absolute coordinate of the endpoints (the scale of rounding errors).
    pub fn magnitude(&self) -> Real {
        crate::math::max_abs(&self.a.coords).max(crate::math::max_abs(&self.b.coords))
    }
}
