//! Half-space against any shape: exact in every case.
//!
//! For a convex shape S and the half-space `{x : n·(x − p) ≤ 0}`, the signed distance is
//! `n · (s − p)` with `s` a support point of S along `−n` (its lowest point): apart, that is the
//! distance of the lowest point to the plane; overlapping, moving S by the depth along `n` is
//! the shortest translation that lifts its lowest point out. The witness on the half-space is
//! `s` projected onto the plane.
//!
//! Two half-spaces: with opposite normals they bound a slab (or a gap) and the distance is the
//! signed width `n_a · (p_b − p_a)`; otherwise they overlap without bound and the distance is
//! reported as `−f64::MAX` (a finite "deeply in contact"; the witnesses are then both a point
//! of the two boundary planes' intersection and do not satisfy the witness identity).

use super::Separation;
use crate::geom::{Plane, Shape};
use crate::math::{Point3, Real, Vector3};

/// Cosine within which two normals count as opposite.
const OPPOSITE: Real = 1.0 - 1e-12;

/// The lowest point of `shape` along `−n` (a support point along `−n`).
fn lowest_point(shape: &Shape, n: &Vector3) -> Point3 {
    let down = -n;
    match shape {
        Shape::Point(p) => *p,
        Shape::Segment(s) => super::support_map::SupportMap::support(s, &down),
        Shape::Sphere(s) => s.center() + down * s.radius(),
        Shape::Capsule(c) => {
            super::support_map::SupportMap::support(c.axis(), &down) + down * c.radius()
        }
        Shape::Cylinder(c) => c.support(&down),
        Shape::Box(b) => b.support(&down),
        Shape::Plane(p) => p.point(),
    }
}

/// Signed distance from a half-space (a) to any shape (b).
pub fn plane_shape(a: &Plane, b: &Shape) -> Separation {
    let n = a.normal();
    if let Shape::Plane(other) = b {
        return plane_plane(a, other);
    }
    let magnitude = a.magnitude().max(b.magnitude());
    if super::safe_scale::outside_safe_range(magnitude) {
        let (scaled_a, scaled_b) = (ScaledPlane(*a), ScaledShape(*b));
        return super::safe_scale::rescaled(&scaled_a, &scaled_b, magnitude, |x, y| {
            plane_shape(&x.0, &y.0)
        });
    }
    let point_b = lowest_point(b, &n);
    let distance = a.height(&point_b);
    Separation {
        distance,
        point_a: point_b - n * distance,
        point_b,
        normal: n,
    }
    .with_contact_rounding(magnitude)
}

fn plane_plane(a: &Plane, b: &Plane) -> Separation {
    let n = a.normal();
    if n.dot(&b.normal()) <= -OPPOSITE {
        // The slab between them, along the mean of a's normal and the reverse of b's, with
        // witnesses where the line along it through the midpoint of their points meets each
        // plane: the same answer, to the bit, with a and b swapped, and each witness on its
        // plane also when the normals are opposite only to 1e-6 rad and the points far apart
        // (both found by fuzzing).
        let mean = crate::math::try_normalize(&(n - b.normal())).unwrap_or(n);
        let middle = a.point() + (b.point() - a.point()) * 0.5;
        let along = |p: &Plane| p.height(&middle) / p.normal().dot(&mean);
        let (to_a, to_b) = (along(a), along(b));
        let magnitude = a.magnitude().max(b.magnitude());
        return Separation {
            distance: to_a - to_b,
            point_a: middle - mean * to_a,
            point_b: middle - mean * to_b,
            normal: mean,
        }
        .with_contact_rounding(magnitude);
    }
    // A common point of the two boundary planes: from a's point, move within a's plane along
    // the direction that changes b's height fastest until that height is 0.
    let m = b.normal();
    let in_a = crate::math::perpendicular_part(&m, &n);
    let step = in_a.norm_squared();
    let x = a.point() - in_a * (b.height(&a.point()) / step);
    // Parallel (or so nearly that the meeting line is beyond the floats, found by fuzzing):
    // with the same orientation one half-space contains the other; a's point stands for both.
    let x = if step > 1e-24 && x.iter().all(|c| c.is_finite()) {
        x
    } else {
        a.point()
    };
    Separation {
        distance: -Real::MAX,
        point_a: x,
        point_b: x,
        normal: n,
    }
}

/// A plane that can be rescaled (for [`super::safe_scale::rescaled`]).
struct ScaledPlane(Plane);
/// A shape that can be rescaled.
struct ScaledShape(Shape);

impl super::safe_scale::Scalable for ScaledPlane {
    fn scaled(&self, factor: Real) -> Self {
        ScaledPlane(Plane::from_finite(
            Point3::from(self.0.point().coords * factor),
            self.0.normal(),
        ))
    }
}

impl super::safe_scale::Scalable for ScaledShape {
    fn scaled(&self, factor: Real) -> Self {
        ScaledShape(super::safe_scale::scaled_shape(&self.0, factor))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::{OrientedBox, Sphere};

    fn floor() -> Plane {
        Plane::new(Point3::origin(), Vector3::z()).unwrap()
    }

    #[test]
    fn lowest_points() {
        let s = Shape::Sphere(Sphere::new(Point3::new(1.0, 2.0, 0.5), 0.75).unwrap());
        let r = plane_shape(&floor(), &s);
        assert_eq!(r.distance, -0.25);
        assert_eq!(r.point_b, Point3::new(1.0, 2.0, -0.25));
        assert_eq!(r.point_a, Point3::new(1.0, 2.0, 0.0));
        let b = OrientedBox::from_rpy(
            Point3::new(0.0, 0.0, 2.0),
            [std::f64::consts::FRAC_PI_4, 0.0, 0.0],
            Vector3::new(1.0, 1.0, 1.0),
        )
        .unwrap();
        let r = plane_shape(&floor(), &Shape::Box(b));
        assert!((r.distance - (2.0 - 2f64.sqrt())).abs() < 1e-15);
    }

    #[test]
    fn two_half_spaces() {
        let ceiling = Plane::new(Point3::new(0.0, 0.0, 3.0), -Vector3::z()).unwrap();
        assert_eq!(plane_shape(&floor(), &Shape::Plane(ceiling)).distance, 3.0);
        let wall = Plane::new(Point3::new(1.0, 0.0, 0.0), Vector3::x()).unwrap();
        let r = plane_shape(&floor(), &Shape::Plane(wall));
        assert_eq!(r.distance, -Real::MAX);
        assert!(floor().height(&r.point_a).abs() < 1e-15 && wall.height(&r.point_a).abs() < 1e-15);
    }
}
