//! Capsule (swept sphere) `{p : dist(p, L) ≤ r}` for a segment `L` (seed 000 §2.2.2).
//!
//! A zero-length capsule is a sphere and a zero-radius capsule is its segment; both are legal.

use super::segment::Segment;
use super::validate::{check_point, check_radius};
use crate::error::Result;
use crate::math::{Point3, Real};

/// A closed capsule: all points within `radius` of the segment `a b`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Capsule {
    axis: Segment,
    radius: Real,
}

impl Capsule {
    /// A capsule around the segment `a b`; errors name the bad field.
    pub fn new(a: Point3, b: Point3, radius: Real) -> Result<Self> {
        Ok(Self {
            axis: Segment::from_finite(check_point("capsule.a", a)?, check_point("capsule.b", b)?),
            radius: check_radius("capsule.radius", radius)?,
        })
    }

    /// A capsule around an existing (already validated) segment.
    pub fn from_segment(axis: Segment, radius: Real) -> Result<Self> {
        Ok(Self {
            axis,
            radius: check_radius("capsule.radius", radius)?,
        })
    }

    /// Builds without validation; callers guarantee `radius >= 0` and finite.
    pub(crate) const fn from_finite(axis: Segment, radius: Real) -> Self {
        Self { axis, radius }
    }

    /// The core segment.
    #[inline]
    pub fn axis(&self) -> &Segment {
        &self.axis
    }

    /// Radius (`>= 0`).
    #[inline]
    pub fn radius(&self) -> Real {
        self.radius
    }

    /// The capsule moved by a rigid motion.
    pub fn transformed(&self, iso: &crate::math::Isometry3) -> Self {
        Self {
            axis: self.axis.transformed(iso),
            radius: self.radius,
        }
    }
}
