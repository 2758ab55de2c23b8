//! Dispatcher over [`Shape`]: picks the pair query for any two shapes, in either order.
//!
//! Points are spheres of radius 0 and segments capsules of radius 0, so every pair maps to one
//! of the shape queries; pairs whose query takes the other order are computed mirrored and
//! [`flipped`](Separation::flipped) back, so the normal always points from a to b.

use super::{
    Separation, box_box, capsule_box, capsule_capsule, capsule_cylinder, cylinder_box,
    cylinder_cylinder, plane_shape, sphere_box, sphere_capsule, sphere_cylinder, sphere_sphere,
};
use crate::geom::{Capsule, OrientedBox, Plane, Shape, Sphere};

enum Kind<'a> {
    Ball(Sphere),
    Swept(Capsule),
    Cylinder(&'a crate::geom::Cylinder),
    Box(&'a OrientedBox),
    HalfSpace(&'a Plane),
}

fn kind(shape: &Shape) -> Kind<'_> {
    match shape {
        Shape::Point(p) => Kind::Ball(Sphere::from_finite(*p, 0.0)),
        Shape::Sphere(s) => Kind::Ball(*s),
        Shape::Segment(s) => Kind::Swept(Capsule::from_finite(*s, 0.0)),
        Shape::Capsule(c) => Kind::Swept(*c),
        Shape::Cylinder(c) => Kind::Cylinder(c),
        Shape::Box(b) => Kind::Box(b),
        Shape::Plane(p) => Kind::HalfSpace(p),
    }
}

/// Signed distance, witness points and normal (from a to b) between any two shapes.
pub fn shape_shape(a: &Shape, b: &Shape) -> Separation {
    match (kind(a), kind(b)) {
        (Kind::HalfSpace(a), _) => plane_shape(a, b),
        (_, Kind::HalfSpace(b)) => plane_shape(b, a).flipped(),
        (Kind::Ball(a), Kind::Ball(b)) => sphere_sphere(&a, &b),
        (Kind::Ball(a), Kind::Swept(b)) => sphere_capsule(&a, &b),
        (Kind::Swept(a), Kind::Ball(b)) => sphere_capsule(&b, &a).flipped(),
        (Kind::Swept(a), Kind::Swept(b)) => capsule_capsule(&a, &b),
        (Kind::Ball(a), Kind::Cylinder(b)) => sphere_cylinder(&a, b),
        (Kind::Cylinder(a), Kind::Ball(b)) => sphere_cylinder(&b, a).flipped(),
        (Kind::Swept(a), Kind::Cylinder(b)) => capsule_cylinder(&a, b),
        (Kind::Cylinder(a), Kind::Swept(b)) => capsule_cylinder(&b, a).flipped(),
        (Kind::Cylinder(a), Kind::Cylinder(b)) => cylinder_cylinder(a, b),
        (Kind::Ball(a), Kind::Box(b)) => sphere_box(&a, b),
        (Kind::Box(a), Kind::Ball(b)) => sphere_box(&b, a).flipped(),
        (Kind::Swept(a), Kind::Box(b)) => capsule_box(&a, b),
        (Kind::Box(a), Kind::Swept(b)) => capsule_box(&b, a).flipped(),
        (Kind::Cylinder(a), Kind::Box(b)) => cylinder_box(a, b),
        (Kind::Box(a), Kind::Cylinder(b)) => cylinder_box(b, a).flipped(),
        (Kind::Box(a), Kind::Box(b)) => box_box(a, b),
    }
}
