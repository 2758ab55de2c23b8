//! [`Separation`]: the answer of every pair query.
//!
//! Conventions (shared by all queries):
//! - `distance` is signed: `> 0` apart, `0` touching, `< 0` penetrating (shapes are closed, so
//!   `distance <= 0` is contact).
//! - `normal` is a unit vector from shape a towards shape b.
//! - `point_a` / `point_b` are witness points on the boundaries of a and b with
//!   `point_b − point_a = distance · normal`: when apart they are the closest points; when
//!   penetrating, `point_a` is the point of a deepest inside b along `normal` and `point_b` the
//!   point of b deepest inside a, so translating b by `−distance · normal` brings them together.
//! - Accuracy of the witnesses: to rounding for the closed forms (sphere/capsule family,
//!   sphere–cylinder, lateral cylinder contacts, boxes against points, segments, spheres,
//!   capsules and boxes, half-spaces against anything). Other cylinder pairs take their witnesses
//!   from a direction found iteratively (certified Newton, GJK, or the conservative depth
//!   search): within ~1e-6 of the pair's magnitude of their boundaries on random pairs, but
//!   up to ~1e-4 when the contact is at a rim and the shapes differ in size by many orders
//!   (found by fuzzing). `point_b − point_a = distance · normal` holds on every path but one:
//!   two non-parallel half-spaces overlap without bound, reported as `−f64::MAX` with both
//!   witnesses on the line where their planes meet.
//! - A computed distance within a rounding bound of zero (see [`CONTACT_ROUNDING`]) is reported
//!   as exactly `0`: where floating point cannot decide, the answer is "in contact".

use crate::math::{EPSILON, Point3, Real, Vector3};

/// Relative rounding bound for the contact decision: a distance `0 < d ≤ CONTACT_ROUNDING ·
/// magnitude` (magnitude = largest absolute coordinate or radius of the pair) is reported as 0.
pub const CONTACT_ROUNDING: Real = 64.0 * EPSILON;

/// The normal of [`Separation::between_points`] for close points, out of line.
#[cold]
#[inline(never)]
fn near_normal(
    d: &Vector3,
    rounding: Real,
    near: impl FnOnce(&Vector3, Real) -> Vector3,
) -> Vector3 {
    near(d, rounding)
}

/// Lengths above this have squares well inside the normal range, so `d / |d|` is unit to
/// rounding.
const NORMAL_SQUARES: Real = 1e-140;

/// Below `CAREFUL × magnitude` the direction of `b − a` carries a relative rounding error of
/// `ε · magnitude / |b − a|` or more, enough to tilt a normal measurably along a capsule's
/// axis (found by fuzzing: a witness 1e-11 of the magnitude inside its capsule); the caller
/// is asked for the normal there.
pub(crate) const CAREFUL: Real = 1e-9;

/// Signed distance, witness points and normal between two shapes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Separation {
    /// Signed distance (metres): `> 0` apart, `<= 0` in contact.
    pub distance: Real,
    /// Witness point on shape a.
    pub point_a: Point3,
    /// Witness point on shape b.
    pub point_b: Point3,
    /// Unit normal from a towards b.
    pub normal: Vector3,
}

impl Separation {
    /// The same answer with the roles of a and b exchanged.
    #[inline]
    pub fn flipped(self) -> Self {
        Self {
            distance: self.distance,
            point_a: self.point_b,
            point_b: self.point_a,
            normal: -self.normal,
        }
    }

    /// `true` when the shapes touch or overlap (`distance <= 0`).
    #[inline]
    pub fn is_contact(&self) -> bool {
        self.distance <= 0.0
    }

    /// Grows shape a by `radius_a` and shape b by `radius_b` (Minkowski sum with balls):
    /// the distance drops by their sum and the witness points move along the normal.
    #[inline]
    pub(crate) fn inflated(self, radius_a: Real, radius_b: Real) -> Self {
        Self {
            distance: self.distance - (radius_a + radius_b),
            point_a: self.point_a + self.normal * radius_a,
            point_b: self.point_b - self.normal * radius_b,
            normal: self.normal,
        }
    }

    /// Applies the contact rounding rule for shapes of the given coordinate magnitude.
    #[inline]
    pub(crate) fn with_contact_rounding(mut self, magnitude: Real) -> Self {
        if self.distance > 0.0 && self.distance <= CONTACT_ROUNDING * magnitude {
            self.distance = 0.0;
        }
        self
    }

    /// Separation of two points. When they are within `CAREFUL × magnitude` of each other
    /// the normal comes from `near(b − a, rounding)` instead, `rounding` being the contact
    /// rounding bound of the pair (within it the direction of `b − a` is rounding noise, and
    /// above it partly so; a noisy normal, say along a capsule's axis, would put the grown
    /// witnesses inside the shapes — found by fuzzing). The caller knows the cores and picks a
    /// normal they allow.
    #[inline]
    pub(crate) fn between_points(
        a: Point3,
        b: Point3,
        magnitude: Real,
        near: impl FnOnce(&Vector3, Real) -> Vector3,
    ) -> Self {
        let d = b - a;
        let distance = d.norm();
        let normal = if distance > NORMAL_SQUARES.max(CAREFUL * magnitude) {
            d / distance
        } else {
            near_normal(&d, CONTACT_ROUNDING * magnitude, near)
        };
        Self {
            distance,
            point_a: a,
            point_b: b,
            normal,
        }
    }
}
