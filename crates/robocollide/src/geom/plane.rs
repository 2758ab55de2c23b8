//! Half-space `{x : n · (x − p) ≤ 0}` bounded by the plane through `p` with *outward* unit
//! normal `n`: a floor is `point = (0, 0, 0), normal = (0, 0, 1)` — the solid lies below.
//!
//! Unbounded, so it has no magnitude of its own beyond its point and never fits a bounding
//! sphere; the pair queries handle it by its support value (the signed distance of any convex
//! shape to a half-space is `n · (s − p)` with `s` the shape's support point along `−n`, exact
//! for apart and penetrating shapes alike).

use super::validate::check_point;
use crate::error::{Error, Result};
use crate::math::{Point3, Real, Vector3};

/// A closed half-space.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Plane {
    point: Point3,
    normal: Vector3,
}

impl Plane {
    /// The half-space below the plane through `point` with outward `normal` (normalised
    /// here); a zero or non-finite normal is an error naming the field.
    pub fn new(point: Point3, normal: Vector3) -> Result<Self> {
        let point = check_point("plane.point", point)?;
        let given = check_point("plane.normal", Point3::from(normal))?.coords;
        let normal = crate::math::try_normalize(&given).ok_or_else(|| {
            Error::Parse(format!(
                "plane.normal must be non-zero, got ({}, {}, {})",
                given.x, given.y, given.z
            ))
        })?;
        Ok(Self { point, normal })
    }

    /// Builds without validation: finite point, unit normal.
    pub(crate) const fn from_finite(point: Point3, normal: Vector3) -> Self {
        Self { point, normal }
    }

    /// A point on the boundary plane.
    #[inline]
    pub fn point(&self) -> Point3 {
        self.point
    }

    /// Outward unit normal.
    #[inline]
    pub fn normal(&self) -> Vector3 {
        self.normal
    }

    /// Signed distance of `p` to the boundary plane (positive outside).
    #[inline]
    pub fn height(&self, p: &Point3) -> Real {
        self.normal.dot(&(p - self.point))
    }

    /// The half-space moved by a rigid motion.
    pub fn transformed(&self, iso: &crate::math::Isometry3) -> Self {
        Self {
            point: iso * self.point,
            normal: iso.rotation * self.normal,
        }
    }

    /// Largest absolute coordinate of its point.
    pub fn magnitude(&self) -> Real {
        crate::math::max_abs(&self.point.coords)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_is_normalised_and_checked() {
        let p = Plane::new(Point3::origin(), Vector3::new(0.0, 0.0, 2.0)).unwrap();
        assert_eq!(p.normal(), Vector3::z());
        assert_eq!(p.height(&Point3::new(5.0, 1.0, -0.25)), -0.25);
        let e = Plane::new(Point3::origin(), Vector3::zeros()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "plane.normal must be non-zero, got (0, 0, 0)"
        );
        let e = Plane::new(Point3::new(0.0, Real::NAN, 0.0), Vector3::z()).unwrap_err();
        assert_eq!(e.to_string(), "plane.point.y must be finite, got NaN");
    }
}
