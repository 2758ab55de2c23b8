//! Pair queries: exact signed distances with witness points and normals.
//!
//! One pair per file; file name = function name. Every query returns a [`Separation`]
//! (conventions in [`separation`]). Kernels are total: they take validated primitives and
//! never fail, never panic and never return NaN.
//!
//! | pair | method | penetration depth |
//! |---|---|---|
//! | point–segment, segment–segment | closed form (seed 000 §3.2, §3.5; robust variant) | — |
//! | sphere–sphere, sphere–capsule, capsule–capsule | core distance − radii | exact |
//! | sphere–cylinder | closed form | exact |
//! | capsule–cylinder, cylinder–cylinder | lateral and cap closed forms, else certified Newton on the closed-form gap (GJK fallback) | conservative (lower bound on signed distance) |
//! | sphere–box, capsule–box (point, segment) | closed form; segment by convex pieces | exact (separating axes) |
//! | box–box | pruned edge–box closed forms | exact (15 separating axes) |
//! | cylinder–box | certified GJK, refined along ridges | conservative (best gap over directions) |
//! | half-space–any | support point along the normal | exact |
//!
//! Distances within a rounding bound of zero are reported as 0 (contact), never as apart.
//! Same-kind pairs whose arithmetic is not symmetric are measured in a canonical order
//! (`canonical_order`), so that (a, b) and (b, a) agree exactly.

pub(crate) mod axial_gap;
mod box_box;
mod canonical_order;
mod capsule_box;
mod capsule_capsule;
mod capsule_cylinder;
pub(crate) mod certificate;
mod convex_pair;
mod cylinder_box;
mod cylinder_cylinder;
pub(crate) mod gjk;
mod plane_shape;
mod point_segment;
pub(crate) mod safe_scale;
pub(crate) mod segment_segment;
pub mod separation;
mod shape_shape;
mod sphere_box;
mod sphere_capsule;
mod sphere_cylinder;
mod sphere_sphere;
pub(crate) mod support_gap;
pub(crate) mod support_map;

pub use box_box::box_box;
pub use capsule_box::capsule_box;
pub(crate) use capsule_box::capsule_box_distance;
pub use capsule_capsule::capsule_capsule;
pub use capsule_cylinder::capsule_cylinder;
pub use cylinder_box::cylinder_box;
pub use cylinder_cylinder::cylinder_cylinder;
pub use plane_shape::plane_shape;
pub use point_segment::{closest_parameter, point_segment};
pub use segment_segment::{SegmentPair, closest_points, segment_segment};
pub use separation::Separation;
pub use shape_shape::shape_shape;
pub(crate) use shape_shape::{shape_shape_contact_distance, shape_shape_distance};
pub use sphere_box::sphere_box;
pub(crate) use sphere_box::sphere_box_distance;
pub use sphere_capsule::sphere_capsule;
pub use sphere_cylinder::sphere_cylinder;
pub(crate) use sphere_cylinder::sphere_cylinder_distance;
pub use sphere_sphere::sphere_sphere;
