//! Dispatcher over [`Shape`]: picks the pair query for any two shapes, in either order.
//!
//! Points are spheres of radius 0 and segments capsules of radius 0, so every pair maps to one
//! of the six shape queries; pairs whose query takes the other order are computed mirrored and
//! [`flipped`](Separation::flipped) back, so the normal always points from a to b.

use super::{
    Separation, capsule_capsule, capsule_cylinder, cylinder_cylinder, sphere_capsule,
    sphere_cylinder, sphere_sphere,
};
use crate::geom::{Capsule, Shape, Sphere};

enum Kind<'a> {
    Ball(Sphere),
    Swept(Capsule),
    Cylinder(&'a crate::geom::Cylinder),
}

fn kind(shape: &Shape) -> Kind<'_> {
    match shape {
        Shape::Point(p) => Kind::Ball(Sphere::from_finite(*p, 0.0)),
        Shape::Sphere(s) => Kind::Ball(*s),
        Shape::Segment(s) => Kind::Swept(Capsule::from_finite(*s, 0.0)),
        Shape::Capsule(c) => Kind::Swept(*c),
        Shape::Cylinder(c) => Kind::Cylinder(c),
    }
}

/// Signed distance, witness points and normal (from a to b) between any two shapes.
pub fn shape_shape(a: &Shape, b: &Shape) -> Separation {
    match (kind(a), kind(b)) {
        (Kind::Ball(a), Kind::Ball(b)) => sphere_sphere(&a, &b),
        (Kind::Ball(a), Kind::Swept(b)) => sphere_capsule(&a, &b),
        (Kind::Swept(a), Kind::Ball(b)) => sphere_capsule(&b, &a).flipped(),
        (Kind::Swept(a), Kind::Swept(b)) => capsule_capsule(&a, &b),
        (Kind::Ball(a), Kind::Cylinder(b)) => sphere_cylinder(&a, b),
        (Kind::Cylinder(a), Kind::Ball(b)) => sphere_cylinder(&b, a).flipped(),
        (Kind::Swept(a), Kind::Cylinder(b)) => capsule_cylinder(&a, b),
        (Kind::Cylinder(a), Kind::Swept(b)) => capsule_cylinder(&b, a).flipped(),
        (Kind::Cylinder(a), Kind::Cylinder(b)) => cylinder_cylinder(a, b),
    }
}
