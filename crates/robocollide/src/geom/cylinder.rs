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

/// Relative margin of [`Cylinder::separates_capsule`].
const CAPSULE_TEST_MARGIN: Real = 1e-12;

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

    /// Whether the capsule about the segment `p q` with `radius` misses the cylinder by one of
    /// two sufficient tests, each with a margin of a relative `1e-12` of the magnitudes
    /// involved (far beyond their rounding): both ends beyond one cap's plane by the radius
    /// (the cylinder lies between the planes), or the segment farther from the axis line than
    /// the two radii (the cylinder lies within its radius of that line). `true` means the
    /// capsule's distance to the cylinder is positive; `false` decides nothing (a capsule past
    /// a rim). NaN gives `false`.
    pub fn separates_capsule(&self, p: &Point3, q: &Point3, radius: Real) -> bool {
        let scale = crate::math::max_abs(&p.coords).max(crate::math::max_abs(&q.coords))
            + radius
            + self.axis.magnitude()
            + self.radius;
        let reach = radius + CAPSULE_TEST_MARGIN * scale;
        let u = self.unit;
        let (wp, wq) = (p - self.axis.a(), q - self.axis.a());
        let (tp, tq) = (wp.dot(&u), wq.dot(&u));
        // (Each comparison is false for NaN.)
        if (tp + reach < 0.0 && tq + reach < 0.0)
            || (tp - reach > self.length && tq - reach > self.length)
        {
            return true;
        }
        // The segment's parts across the axis, against both radii.
        crate::math::segment_clears_origin(wp - u * tp, wq - u * tq, self.radius + reach)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Capsule;
    use crate::math::random_point;
    use crate::query::capsule_cylinder;

    /// The sufficient tests are never wrong: wherever they say the capsule misses the
    /// cylinder, the exact capsule–cylinder distance is positive, at every scale; they decide
    /// most pairs beside a cap or the side; a capsule touching a cap or the side, or with a
    /// NaN end, is never cleared.
    #[test]
    fn a_separated_capsule_misses_the_cylinder() {
        let mut next = crate::math::unit_random(31);
        let (mut cleared, mut missed) = (0, 0);
        for scale in [1e-3, 1.0, 1e3] {
            for _ in 0..3000 {
                let mut point = |spread: Real| random_point(&mut next, spread * scale);
                let (a, b) = (point(1.0), point(1.0));
                let (p, q) = (point(3.0), point(3.0));
                let solid = Cylinder::new(a, b, next() * 0.3 * scale).unwrap();
                let radius = next() * 0.2 * scale;
                let distance = capsule_cylinder(&Capsule::new(p, q, radius).unwrap(), &solid);
                if solid.separates_capsule(&p, &q, radius) {
                    assert!(distance.distance > 0.0, "cleared at {distance:?}");
                    cleared += 1;
                } else if distance.distance > 0.0 {
                    missed += 1;
                }
            }
        }
        assert!(
            cleared > 4000 && missed > 100,
            "{cleared} cleared, {missed} left"
        );
        let can = Cylinder::new(Point3::origin(), Point3::new(0.0, 0.0, 1.0), 0.5).unwrap();
        // Over the top cap, then beside the side: touching, then 1e-9 away.
        let (p, q) = (Point3::new(-1.0, 0.0, 1.2), Point3::new(1.0, 0.0, 1.2));
        assert!(!can.separates_capsule(&p, &q, 0.2));
        assert!(can.separates_capsule(&p, &q, 0.2 - 1e-9));
        let (p, q) = (Point3::new(0.8, -1.0, 0.5), Point3::new(0.8, 1.0, 0.5));
        assert!(!can.separates_capsule(&p, &q, 0.3));
        assert!(can.separates_capsule(&p, &q, 0.3 - 1e-9));
        let nan = Point3::new(Real::NAN, 0.0, 3.0);
        assert!(!can.separates_capsule(&nan, &Point3::new(0.0, 0.0, 3.0), 0.0));
    }
}
