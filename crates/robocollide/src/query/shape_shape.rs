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

/// `shape_shape(a, b).distance`, skipping the witness points and normal where a kernel has a
/// distance-only form (sphere–box, capsule–box, sphere–cylinder: the commonest general pairs
/// of robot checks and planners). The same value.
pub(crate) fn shape_shape_distance(a: &Shape, b: &Shape) -> crate::math::Real {
    use super::capsule_box::capsule_box_distance;
    use super::sphere_box_distance;
    match (kind(a), kind(b)) {
        (Kind::Ball(s), Kind::Box(b)) | (Kind::Box(b), Kind::Ball(s)) => sphere_box_distance(&s, b),
        (Kind::Swept(c), Kind::Box(b)) | (Kind::Box(b), Kind::Swept(c)) => {
            capsule_box_distance(&c, b)
        }
        (Kind::Ball(s), Kind::Cylinder(c)) | (Kind::Cylinder(c), Kind::Ball(s)) => {
            super::sphere_cylinder::sphere_cylinder_distance(&s, c)
        }
        _ => shape_shape(a, b).distance,
    }
}

/// [`shape_shape_distance`] for a contact test (is the distance ≤ 0?): at most 0 exactly
/// when it is, and when positive a certified lower bound. Only cylinder–box differs (see
/// [`cylinder_box_contact_distance`](super::cylinder_box::cylinder_box_contact_distance)):
/// its depth has no closed form and costs a direction search, so a pair proven to overlap
/// gives 0, and an apart one GJK's first certified gap beyond the contact rounding.
pub(crate) fn shape_shape_contact_distance(a: &Shape, b: &Shape) -> crate::math::Real {
    match (kind(a), kind(b)) {
        (Kind::Cylinder(c), Kind::Box(b)) | (Kind::Box(b), Kind::Cylinder(c)) => {
            super::cylinder_box::cylinder_box_contact_distance(c, b)
        }
        _ => shape_shape_distance(a, b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Segment;
    use crate::math::{Point3, Vector3};

    #[test]
    fn the_distance_only_dispatch_gives_the_full_querys_value() {
        let mut unit = crate::math::unit_random(11);
        let mut next = || unit() * 2.0 - 1.0;
        let mut point = |k: f64| Point3::new(k * next(), k * next(), k * next());
        for i in 0..20_000 {
            // Scales from 1e-3 to 1e3, touching and overlapping pairs included.
            let k = 10f64.powi(i % 7 - 3);
            let b = OrientedBox::from_rpy(
                point(k),
                [3.0, 2.0, 1.0].map(|x| x * (i as f64 * 0.37).sin()),
                Vector3::new(0.5 * k, 0.2 * k, 0.05 * k),
            )
            .unwrap();
            let (p, q) = (point(k), point(k));
            let r = 0.3 * k * (i as f64 * 0.11).cos().abs();
            let shapes: [Shape; 4] = [
                Sphere::new(p, r).unwrap().into(),
                Capsule::new(p, q, r).unwrap().into(),
                Segment::new(p, q).unwrap().into(),
                Shape::Point(p),
            ];
            // A cylinder in the same place (the centre inside it for some pairs).
            let (c0, c1) = (point(k), point(k));
            let thickness = 0.4 * k * (i as f64 * 0.23).sin().abs();
            let cylinder = crate::geom::Cylinder::new(c0, c1, thickness).unwrap();
            for b in [b.into(), cylinder.into()] {
                for s in &shapes {
                    assert_eq!(shape_shape_distance(s, &b), shape_shape(s, &b).distance);
                    assert_eq!(shape_shape_distance(&b, s), shape_shape(&b, s).distance);
                }
            }
        }
    }
}
