//! Geometric primitives as plain, validated data, and line geometry (Plücker lines, dual
//! numbers and vectors — seed 003).
//!
//! Conventions: metres; every primitive is a *closed* set (its boundary belongs to it, so
//! touching shapes are in contact). Constructors reject non-finite coordinates and negative
//! radii with an [`Error`](crate::Error) naming the field; once built, a primitive is known to be
//! finite, which is what lets the `query` kernels be total.
//!
//! Degenerate shapes are legal: a zero-length segment is a point, a zero-length capsule is a
//! sphere, a zero-radius capsule is a segment and a zero-radius cylinder is a segment. A
//! zero-length cylinder is rejected: as a disc its orientation would be undefined. Boxes may be
//! flat (a half-extent of 0). A [`Plane`] is a half-space, the solid below it.

mod aabb;
mod capsule;
pub mod conformal;
mod cylinder;
mod dual;
mod line;
mod oriented_box;
mod plane;
mod segment;
mod shape;
mod shape_syntax;
mod sphere;
mod validate;

pub use aabb::Aabb;
pub(crate) use aabb::sphere_box_gap;
pub use capsule::Capsule;
pub use cylinder::Cylinder;
pub use dual::{Dual, DualVector};
pub use line::{CommonNormal, Line, LineRelation, PARALLEL_SINE};
pub use oriented_box::OrientedBox;
pub use plane::Plane;
pub use segment::Segment;
pub use shape::Shape;
pub use sphere::Sphere;
pub use validate::{LENGTH_LIMIT, check_length, check_point, check_radius, check_scalar};
