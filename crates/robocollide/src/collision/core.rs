//! [`Core`]: a posed body reduced to what the minimum-distance search needs — its core
//! segment (a point for a sphere), radius and bounding sphere — and the length terms that can
//! be computed once per model. Cylinders, boxes and half-spaces are *general* cores: the
//! search measures them with the full pair query on their posed shape
//! ([`CellPose::shape`](super::CellPose)), and the core keeps only their bounding sphere.

use crate::geom::{Capsule, Segment, Shape, Sphere};
use crate::math::{Point3, Real, Vector3, max_abs};
use crate::query::segment_segment::{Reciprocal, closest_parameters_by};
use crate::robot::{Body, BodyShape, RobotModel};

/// A posed body reduced to what the distance search needs: its core segment (a point has
/// `dd = 0`), radius and bounding sphere. Cylinders, boxes and half-spaces are flagged
/// `general` and use the full query.
#[derive(Debug, Clone, Copy)]
pub(super) struct Core {
    pub(super) start: Point3,
    pub(super) direction: Vector3,
    /// `|direction|²`.
    pub(super) dd: Real,
    /// `1 / dd`, or 0 for a point (so that a projection parameter becomes 0).
    pub(super) inv_dd: Real,
    pub(super) radius: Real,
    /// `|direction| / 2` (bounding-sphere radius of the core).
    pub(super) half_length: Real,
    /// Measured by the full pair query on the posed shape (cylinders, boxes, half-spaces).
    pub(super) general: bool,
    /// Radius of the bounding sphere about the core's midpoint (infinite for a half-space).
    pub(super) bound: Real,
}

/// The length terms of a core segment: `|d|²`, its reciprocal (0 for a point) and `|d|/2`.
#[derive(Debug, Clone, Copy)]
pub(super) struct CoreLength {
    pub(super) dd: Real,
    pub(super) inv_dd: Real,
    pub(super) half_length: Real,
}

impl CoreLength {
    pub(super) fn of(dd: Real) -> Self {
        Self {
            dd,
            inv_dd: if dd > 0.0 { 1.0 / dd } else { 0.0 },
            half_length: 0.5 * dd.sqrt(),
        }
    }
}

/// Relative spread of a body's squared length over sampled configurations below which the
/// length counts as joint-invariant (rounding only).
const INVARIANT_LENGTH: Real = 1e-13;

/// The length terms of `body`'s core if they do not depend on the joints: both anchors on
/// one frame, or a spread within rounding over a few sampled configurations (frame origins of
/// a revolute link are a fixed distance apart).
pub(super) fn invariant_length(model: &RobotModel, body: &Body) -> Option<CoreLength> {
    let (a, b) = match &body.shape {
        BodyShape::Sphere { .. } | BodyShape::Box { .. } | BodyShape::Plane { .. } => {
            return None;
        }
        BodyShape::Capsule { a, b, .. } | BodyShape::Cylinder { a, b, .. } => (a, b),
    };
    if a.frame == b.frame {
        return Some(CoreLength::of((b.at - a.at).norm_squared()));
    }
    let mut frames = Vec::new();
    let samples: Vec<Real> = (0..8)
        .map(|k| {
            let q: Vec<Real> = (0..model.dof())
                .map(|j| 2.5 * (1.7 * k as Real + 0.9 * j as Real + 0.3).sin())
                .collect();
            model.forward_kinematics().forward_into(&q, &mut frames);
            (b.world(&frames) - a.world(&frames)).norm_squared()
        })
        .collect();
    let (low, high) = samples
        .iter()
        .fold((Real::INFINITY, 0.0), |(l, h): (Real, Real), &v| {
            (l.min(v), h.max(v))
        });
    (high - low <= INVARIANT_LENGTH * high).then(|| CoreLength::of(samples[0]))
}

impl Core {
    /// The core of a body whose anchors are at `start` and `end` (equal for a sphere), with
    /// its length terms if they are known in advance.
    #[inline]
    pub(super) fn new(
        start: Point3,
        end: Point3,
        radius: Real,
        cylinder: bool,
        length: Option<CoreLength>,
    ) -> Self {
        let direction = end - start;
        let CoreLength {
            dd,
            inv_dd,
            half_length,
        } = length.unwrap_or_else(|| CoreLength::of(direction.norm_squared()));
        Self {
            start,
            direction,
            dd,
            inv_dd,
            radius,
            half_length,
            general: cylinder,
            // A cylinder's half-length and radius are the legs of its bounding half-diagonal.
            bound: if cylinder {
                half_length.hypot(radius)
            } else {
                half_length + radius
            },
        }
    }

    /// Largest absolute coordinate plus radius (the scale of the contact rounding).
    pub(super) fn magnitude(&self) -> Real {
        max_abs(&self.start.coords).max(max_abs(&(self.start + self.direction).coords))
            + self.radius
    }

    /// The core of a sphere: a point (no square root or division needed).
    #[inline]
    pub(super) fn point(center: Point3, radius: Real) -> Self {
        Self {
            start: center,
            direction: Vector3::zeros(),
            dd: 0.0,
            inv_dd: 0.0,
            radius,
            half_length: 0.0,
            general: false,
            bound: radius,
        }
    }

    /// The core of a box or half-space: its centre (or boundary point), the radius counted in
    /// its magnitude (a box's half-diagonal, 0 for a half-space) and its bounding radius.
    #[inline]
    pub(super) fn solid(center: Point3, radius: Real, bound: Real) -> Self {
        Self {
            general: true,
            bound,
            ..Self::point(center, radius)
        }
    }

    /// Bounding sphere `(centre, radius)`.
    pub(super) fn bounding_sphere(&self) -> (Point3, Real) {
        (self.start + self.direction * 0.5, self.bound)
    }

    /// The world shape of a sphere, capsule or cylinder core (built only when a report needs
    /// it; boxes and half-spaces are kept whole by [`CellPose`](super::CellPose)).
    pub(super) fn shape(&self) -> Shape {
        let end = self.start + self.direction;
        if self.general {
            if let Ok(c) = crate::geom::Cylinder::new(self.start, end, self.radius) {
                return Shape::Cylinder(c);
            }
        } else if self.dd > 0.0 {
            return Shape::Capsule(Capsule::from_finite(
                Segment::from_finite(self.start, end),
                self.radius,
            ));
        }
        Shape::Sphere(Sphere::from_finite(self.start, self.radius))
    }

    /// Squared distance between the cores (radii not subtracted).
    #[inline]
    pub(super) fn core_distance_squared(&self, other: &Core) -> Real {
        let (s, t) = closest_parameters_by(
            &self.start,
            &self.direction,
            Reciprocal(self.inv_dd),
            &other.start,
            &other.direction,
            Reciprocal(other.inv_dd),
        );
        ((other.start + other.direction * t) - (self.start + self.direction * s)).norm_squared()
    }
}
