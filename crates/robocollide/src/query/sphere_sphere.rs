//! Sphere–sphere (seed 000 §3.1): `d = |c₂ − c₁| − (r₁ + r₂)`; exact penetration depth.
//!
//! Coincident centres: any direction is a valid normal; we use `+x`.

use super::Separation;
use crate::geom::Sphere;
use crate::math::Vector3;

/// Signed distance between two spheres.
#[inline]
pub fn sphere_sphere(a: &Sphere, b: &Sphere) -> Separation {
    let magnitude = magnitude(a).max(magnitude(b));
    if super::safe_scale::outside_safe_range(magnitude) {
        return super::safe_scale::rescaled(a, b, magnitude, sphere_sphere);
    }
    Separation::between_points(a.center(), b.center(), magnitude, |d, _| {
        crate::math::try_normalize(d).unwrap_or_else(Vector3::x)
    })
    .inflated(a.radius(), b.radius())
    .with_contact_rounding(magnitude)
}

#[inline]
fn magnitude(s: &Sphere) -> f64 {
    crate::math::max_abs(&s.center().coords) + s.radius()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Point3;

    fn sphere(c: [f64; 3], r: f64) -> Sphere {
        Sphere::new(c.into(), r).unwrap()
    }

    #[test]
    fn apart_touching_penetrating_coincident() {
        let r = sphere_sphere(&sphere([0.0, 0.0, 0.0], 1.0), &sphere([3.0, 0.0, 0.0], 1.0));
        assert_eq!(r.distance, 1.0);
        assert_eq!(r.point_a, Point3::new(1.0, 0.0, 0.0));
        assert_eq!(r.point_b, Point3::new(2.0, 0.0, 0.0));
        let r = sphere_sphere(&sphere([0.0, 0.0, 0.0], 1.0), &sphere([0.0, 2.0, 0.0], 1.0));
        assert_eq!(r.distance, 0.0);
        assert!(r.is_contact());
        let r = sphere_sphere(&sphere([0.0, 0.0, 0.0], 1.0), &sphere([0.0, 0.0, 1.5], 1.0));
        assert_eq!(r.distance, -0.5);
        assert_eq!(r.point_a, Point3::new(0.0, 0.0, 1.0));
        assert_eq!(r.point_b, Point3::new(0.0, 0.0, 0.5));
        let r = sphere_sphere(
            &sphere([1.0, 1.0, 1.0], 0.25),
            &sphere([1.0, 1.0, 1.0], 0.5),
        );
        assert_eq!(r.distance, -0.75);
        assert_eq!(r.normal, Vector3::x());
    }

    #[test]
    fn touching_within_rounding_is_contact() {
        // 0.1 + 0.2 != 0.3 in binary; the pair touches and must be reported as contact.
        let r = sphere_sphere(&sphere([0.0, 0.0, 0.0], 0.1), &sphere([0.3, 0.0, 0.0], 0.2));
        assert!(r.is_contact(), "{r:?}");
    }
}
