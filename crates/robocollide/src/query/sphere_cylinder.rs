//! Sphere–cylinder (flat caps): exact in every case.
//!
//! Outside the cylinder, the closest point of the solid to the centre is found by clamping the
//! axial coordinate to `[0, L]` and the radial one to `[0, r]`. Inside, the boundary is the
//! nearest of the lateral surface (`r − ρ` away, radially) and the two cap planes (`h` and
//! `L − h` away, axially); these distances are exact because the cylinder is the intersection
//! of a slab and an infinite cylinder. A centre on the axis exits radially along a
//! deterministic perpendicular.

use super::Separation;
use crate::geom::{Cylinder, Sphere};
use crate::math::{Point3, Vector3, orthogonal_unit, try_normalize};

/// Signed distance from a sphere (a) to a flat-capped cylinder (b).
pub fn sphere_cylinder(a: &Sphere, b: &Cylinder) -> Separation {
    let magnitude = (crate::math::max_abs(&a.center().coords) + a.radius())
        .max(b.axis().magnitude() + b.radius());
    if super::safe_scale::outside_safe_range(magnitude) {
        return super::safe_scale::rescaled(a, b, magnitude, sphere_cylinder);
    }
    point_cylinder(&a.center(), b)
        .inflated(a.radius(), 0.0)
        .with_contact_rounding(magnitude)
}

/// `sphere_cylinder(a, b).distance` without the witness points and normal when the centre
/// lies outside the cylinder (the same arithmetic, so the same value): for distance-only
/// searches.
pub(crate) fn sphere_cylinder_distance(a: &Sphere, b: &Cylinder) -> crate::math::Real {
    let magnitude = (crate::math::max_abs(&a.center().coords) + a.radius())
        .max(b.axis().magnitude() + b.radius());
    if !super::safe_scale::outside_safe_range(magnitude) {
        let (closest, inside) = b.closest_point(&a.center());
        let gap = (closest - a.center()).norm();
        // A positive finite gap is exactly when `point_cylinder` normalises it.
        if !inside && gap > 0.0 && gap.is_finite() {
            let distance = gap - a.radius();
            let rounded =
                distance > 0.0 && distance <= super::separation::CONTACT_ROUNDING * magnitude;
            return if rounded { 0.0 } else { distance };
        }
    }
    sphere_cylinder(a, b).distance
}

/// Signed distance from a point (a) to a cylinder (b); negative inside.
pub(crate) fn point_cylinder(p: &Point3, cyl: &Cylinder) -> Separation {
    let (closest, inside) = cyl.closest_point(p);
    if !inside {
        let d = closest - p;
        let distance = d.norm();
        if let Some(normal) = try_normalize(&d) {
            return Separation {
                distance,
                point_a: *p,
                point_b: closest,
                normal,
            };
        }
    }
    // Inside (or on the boundary): leave through the nearest face.
    let u = cyl.unit_axis();
    let len = cyl.length();
    let rel = p - cyl.axis().a();
    let h = rel.dot(&u).clamp(0.0, len);
    let radial = crate::math::perpendicular_part(&rel, &u);
    let rho = radial.norm();
    let outward = try_normalize(&radial).unwrap_or_else(|| orthogonal_unit(&u));
    let exits: [(f64, Vector3); 3] = [(cyl.radius() - rho, outward), (h, -u), (len - h, u)];
    let (depth, out) = exits
        .iter()
        .copied()
        .fold(exits[0], |best, e| if e.0 < best.0 { e } else { best });
    let depth = depth.max(0.0);
    // The normal points from a (the point) into b: opposite to the exit direction.
    Separation {
        distance: -depth,
        point_a: *p,
        point_b: p + out * depth,
        normal: -out,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cyl() -> Cylinder {
        Cylinder::new(Point3::new(0.0, 0.0, 0.0), Point3::new(0.0, 0.0, 2.0), 1.0).unwrap()
    }

    #[test]
    fn outside_side_cap_and_rim() {
        let s = |c: [f64; 3], r: f64| Sphere::new(c.into(), r).unwrap();
        let r = sphere_cylinder(&s([3.0, 0.0, 1.0], 0.5), &cyl());
        assert_eq!(r.distance, 1.5);
        assert_eq!(r.point_b, Point3::new(1.0, 0.0, 1.0));
        let r = sphere_cylinder(&s([0.5, 0.0, 4.0], 0.5), &cyl());
        assert_eq!(r.distance, 1.5);
        assert_eq!(r.normal, -Vector3::z());
        // Diagonal from the rim: (1,0,2) to (4,0,6) is 5.
        let r = sphere_cylinder(&s([4.0, 0.0, 6.0], 1.0), &cyl());
        assert!((r.distance - 4.0).abs() < 1e-15);
        // Exactly touching the cap.
        assert_eq!(
            sphere_cylinder(&s([0.0, 0.0, 2.5], 0.5), &cyl()).distance,
            0.0
        );
    }

    #[test]
    fn inside_exits_through_nearest_face() {
        let s = |c: [f64; 3], r: f64| Sphere::new(c.into(), r).unwrap();
        // Near the lateral surface: depth 0.2 + radius.
        let r = sphere_cylinder(&s([0.8, 0.0, 1.0], 0.1), &cyl());
        assert!((r.distance + 0.3).abs() < 1e-15);
        assert_eq!(r.normal, -Vector3::x());
        // Near the top cap.
        let r = sphere_cylinder(&s([0.0, 0.0, 1.9], 0.1), &cyl());
        assert!((r.distance + 0.2).abs() < 1e-15);
        assert_eq!(r.normal, -Vector3::z());
        assert!((r.point_b - Point3::new(0.0, 0.0, 2.0)).norm() < 1e-15);
        // On the axis at mid-height: lateral exit (depth 1) beats the caps (1 each): any is exact.
        let r = sphere_cylinder(&s([0.0, 0.0, 1.0], 0.0), &cyl());
        assert_eq!(r.distance, -1.0);
    }
}
