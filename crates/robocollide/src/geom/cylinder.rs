//! Right circular cylinder with flat end caps:
//! `{p : 0 ≤ (p − a)·û ≤ |b − a|, |(p − a) − ((p − a)·û) û| ≤ r}` with `û = (b − a)/|b − a|`.
//!
//! This is the finite cylinder of seed 003 (Ketchel & Larochelle), *not* a capsule: its ends
//! are discs. A zero-length cylinder would be a disc of undefined orientation, so the
//! constructor rejects it ([`Error::DegenerateAxis`]); give a
//! thin disc a tiny non-zero length. A zero-radius cylinder is legal and is its segment.

use super::segment::Segment;
use super::validate::{check_point, check_radius};
use crate::error::{Error, Result};
use crate::math::{Point3, Real, Vector3};

/// A closed, flat-capped cylinder around the segment `a b`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cylinder {
    axis: Segment,
    radius: Real,
    /// `(b − a)/|b − a|`, cached: support maps are evaluated many times per query.
    unit: Vector3,
    /// `|b − a|`.
    length: Real,
}

impl Cylinder {
    /// A cylinder around the segment `a b`; errors name the bad field. `a == b` is rejected.
    pub fn new(a: Point3, b: Point3, radius: Real) -> Result<Self> {
        let a = check_point("cylinder.a", a)?;
        let b = check_point("cylinder.b", b)?;
        let radius = check_radius("cylinder.radius", radius)?;
        if (b - a).norm_squared() == 0.0 {
            return Err(Error::DegenerateAxis {
                field: "cylinder".into(),
                x: a.x,
                y: a.y,
                z: a.z,
            });
        }
        Ok(Self::from_axis(Segment::from_finite(a, b), radius))
    }

    /// Builds from a validated, non-degenerate axis and a radius `>= 0` (no checks).
    pub(crate) fn from_axis(axis: Segment, radius: Real) -> Self {
        let length = axis.length();
        let unit = crate::math::try_normalize(&axis.direction()).unwrap_or_else(Vector3::z);
        Self {
            axis,
            radius,
            unit,
            length,
        }
    }

    /// The axis segment (cap centre to cap centre).
    #[inline]
    pub fn axis(&self) -> &Segment {
        &self.axis
    }

    /// Radius (`>= 0`).
    #[inline]
    pub fn radius(&self) -> Real {
        self.radius
    }

    /// Unit axis direction `û` (the constructor guarantees a non-zero axis; should the
    /// normalisation underflow for an axis shorter than ~1e-154 m, `+z` is returned).
    #[inline]
    pub fn unit_axis(&self) -> Vector3 {
        self.unit
    }

    /// Axis length `|b − a|`.
    #[inline]
    pub fn length(&self) -> Real {
        self.length
    }

    /// The cylinder with every coordinate and length multiplied by `factor` (a power of two),
    /// its axis direction kept: a disc thinner than the rounding unit of its coordinates loses
    /// its axis to underflow when scaled down, and would be turned (found by fuzzing: a disc
    /// 4e-32 thick and 4e291 wide measured with its axis along z instead of x).
    pub(crate) fn scaled_keeping_direction(&self, factor: Real) -> Self {
        let axis = Segment::from_finite(
            Point3::from(self.axis.a().coords * factor),
            Point3::from(self.axis.b().coords * factor),
        );
        // The length from the scaled axis where its square is a normal number (the original's
        // may have been taken from subnormal squares), else scaled along.
        let length = axis.direction().norm();
        Self {
            axis,
            radius: self.radius * factor,
            unit: self.unit,
            length: if (1e-150..1e150).contains(&length) {
                length
            } else {
                self.length * factor
            },
        }
    }

    /// The cylinder moved by a rigid motion.
    pub fn transformed(&self, iso: &crate::math::Isometry3) -> Self {
        Self::from_axis(self.axis.transformed(iso), self.radius)
    }

    /// Support point: a point of the cylinder maximising `p · d`.
    ///
    /// Picks the cap whose centre is further along `d`, then the rim point in the direction of
    /// `d`'s component perpendicular to the axis (the cap centre when that component is zero).
    /// That component is computed by [`perpendicular_part`](crate::math::perpendicular_part):
    /// when `d` is nearly parallel to the axis a one-pass projection would tilt the rim point
    /// out of the cap plane and make the support value wrong at first order.
    pub fn support(&self, d: &Vector3) -> Point3 {
        let u = self.unit_axis();
        let along = d.dot(&u);
        let cap = if along >= 0.0 {
            self.axis.b()
        } else {
            self.axis.a()
        };
        let radial = crate::math::perpendicular_part(d, &u);
        let n = radial.norm();
        // A radial part at the rounding level of `d` is noise with no direction (normalising it
        // once put the "rim" point on the axis, a radius beyond the cap; found by fuzzing):
        // there the whole cap is the support set, and its centre is returned.
        let noise = 4.0 * crate::math::EPSILON;
        if n * n > noise * noise * d.norm_squared() && self.radius > 0.0 {
            let dir = radial / n;
            if dir.iter().all(|c| c.is_finite()) {
                return cap + dir * self.radius;
            }
        }
        cap
    }

    /// Closest point of the cylinder (solid) to `p`, and whether `p` lies inside it.
    pub fn closest_point(&self, p: &Point3) -> (Point3, bool) {
        let u = self.unit_axis();
        let len = self.length;
        // Measured from the nearer end: from the far end of a long cylinder the radial part
        // would carry a rounding error of the length's order, which can exceed the radius
        // (found by fuzzing: a cylinder 1e190 long and 5e173 thick "contained" a point 6e176
        // beyond its cap).
        let from_a = p - self.axis.a();
        let (base, rel, sign) = if from_a.dot(&u) > 0.5 * len {
            (self.axis.b(), p - self.axis.b(), -1.0)
        } else {
            (self.axis.a(), from_a, 1.0)
        };
        // Height above the base end, towards the other end.
        let h = sign * rel.dot(&u);
        let radial = crate::math::perpendicular_part(&rel, &u);
        let rho = radial.norm();
        let hc = h.clamp(0.0, len);
        let inside = h >= 0.0 && h <= len && rho <= self.radius;
        let radial_c = if rho > self.radius {
            radial * (self.radius / rho)
        } else {
            radial
        };
        (base + u * (sign * hc) + radial_c, inside)
    }
}
