//! Ball `{p : |p − c| ≤ r}` (seed 000 §2.2.1). Radius 0 is a point.

use super::validate::{check_point, check_radius};
use crate::error::Result;
use crate::math::{Point3, Real};

/// A closed ball.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sphere {
    center: Point3,
    radius: Real,
}

impl Sphere {
    /// A sphere; errors name a non-finite centre coordinate or a bad radius.
    pub fn new(center: Point3, radius: Real) -> Result<Self> {
        Ok(Self {
            center: check_point("sphere.center", center)?,
            radius: check_radius("sphere.radius", radius)?,
        })
    }

    /// Builds without validation; callers guarantee finite values and `radius >= 0`.
    pub(crate) const fn from_finite(center: Point3, radius: Real) -> Self {
        Self { center, radius }
    }

    /// Centre.
    #[inline]
    pub fn center(&self) -> Point3 {
        self.center
    }

    /// Radius (`>= 0`).
    #[inline]
    pub fn radius(&self) -> Real {
        self.radius
    }

    /// The sphere moved by a rigid motion.
    pub fn transformed(&self, iso: &crate::math::Isometry3) -> Self {
        Self {
            center: iso * self.center,
            radius: self.radius,
        }
    }
}
