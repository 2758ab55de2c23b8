//! Support maps: `support(d)` = a point of the (convex, closed) shape maximising `p · d`.
//!
//! Only the shapes whose pair queries need a general convex method implement this: points,
//! segments and flat-capped cylinders. Balls and capsules are handled as these cores grown by a
//! radius (a Minkowski sum), which keeps their answers exact.

use crate::geom::{Cylinder, Segment};
use crate::math::{Point3, Vector3};

/// A convex shape described by its support function.
pub(crate) trait SupportMap {
    /// A point of the shape maximising `p · d` (any such point when several do).
    fn support(&self, d: &Vector3) -> Point3;
    /// Some point of the shape (used to start searches).
    fn any_point(&self) -> Point3;
    /// The point of the shape nearest to `p` (exact Euclidean projection).
    fn nearest_point(&self, p: &Point3) -> Point3;
}

impl SupportMap for Point3 {
    #[inline]
    fn support(&self, _d: &Vector3) -> Point3 {
        *self
    }
    #[inline]
    fn any_point(&self) -> Point3 {
        *self
    }
    #[inline]
    fn nearest_point(&self, _p: &Point3) -> Point3 {
        *self
    }
}

impl SupportMap for Segment {
    #[inline]
    fn support(&self, d: &Vector3) -> Point3 {
        if self.direction().dot(d) > 0.0 {
            self.b()
        } else {
            self.a()
        }
    }
    #[inline]
    fn any_point(&self) -> Point3 {
        self.at(0.5)
    }
    #[inline]
    fn nearest_point(&self, p: &Point3) -> Point3 {
        self.at(crate::query::closest_parameter(p, self))
    }
}

impl SupportMap for Cylinder {
    #[inline]
    fn support(&self, d: &Vector3) -> Point3 {
        Cylinder::support(self, d)
    }
    #[inline]
    fn any_point(&self) -> Point3 {
        self.axis().at(0.5)
    }
    #[inline]
    fn nearest_point(&self, p: &Point3) -> Point3 {
        self.closest_point(p).0
    }
}
