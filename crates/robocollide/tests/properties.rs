//! Properties every pair query must satisfy (seed 004's theorems among them), on seeded
//! proptest inputs over scales 1e-6 .. 1e6 m and every shape kind:
//! symmetry a↔b, invariance under rigid motions, zero-length capsule = sphere, zero-radius
//! cylinder = segment, distance monotone and 1-Lipschitz in the radius, capsule ⊇ cylinder,
//! and well-formed answers (finite, unit normal, witnesses consistent) — never NaN.

mod common;

use common::strategies::{magnitude, pair};
use proptest::prelude::*;
use proptest::test_runner::Config;
use robocollide::geom::{Capsule, Cylinder, Shape, Sphere};
use robocollide::math::{Isometry3, Real, Vector3};
use robocollide::query::{Separation, shape_shape};

fn config() -> Config {
    common::strategies::seeded(2000, 0x5eed_2026)
}

fn has_cylinder(a: &Shape, b: &Shape) -> bool {
    matches!(a, Shape::Cylinder(_)) || matches!(b, Shape::Cylinder(_))
}

/// Tolerance for comparing two answers of the same pair: exact for apart pairs, looser for
/// cylinder penetration values (a conservative search, see `support_gap`).
fn tolerance(a: &Shape, b: &Shape, d: Real) -> Real {
    let m = magnitude(a, b);
    if d <= 0.0 && has_cylinder(a, b) {
        1e-6 * m
    } else {
        1e-12 * m
    }
}

fn well_formed(s: &Separation, m: Real) -> Result<(), TestCaseError> {
    prop_assert!(s.distance.is_finite(), "non-finite distance {s:?}");
    prop_assert!(
        s.point_a
            .iter()
            .chain(s.point_b.iter())
            .all(|c| c.is_finite()),
        "non-finite witness {s:?}"
    );
    prop_assert!(
        (s.normal.norm() - 1.0).abs() < 1e-9,
        "normal not unit {s:?}"
    );
    prop_assert!(
        ((s.point_b - s.point_a).dot(&s.normal) - s.distance).abs() <= 1e-9 * m,
        "witnesses inconsistent {s:?}"
    );
    Ok(())
}

fn with_radius(s: &Shape, r: Real) -> Shape {
    match s {
        Shape::Point(p) => Sphere::new(*p, r).unwrap().into(),
        Shape::Sphere(x) => Sphere::new(x.center(), r).unwrap().into(),
        Shape::Segment(x) => Capsule::from_segment(*x, r).unwrap().into(),
        Shape::Capsule(x) => Capsule::from_segment(*x.axis(), r).unwrap().into(),
        Shape::Cylinder(x) => Cylinder::new(x.axis().a(), x.axis().b(), r).unwrap().into(),
        Shape::Box(_) | Shape::Plane(_) => *s,
    }
}

fn radius(s: &Shape) -> Real {
    match s {
        Shape::Point(_) | Shape::Segment(_) => 0.0,
        Shape::Sphere(x) => x.radius(),
        Shape::Capsule(x) => x.radius(),
        Shape::Cylinder(x) => x.radius(),
        Shape::Box(_) | Shape::Plane(_) => 0.0,
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn answers_are_well_formed_and_symmetric((a, b, _) in pair()) {
        let m = magnitude(&a, &b);
        let ab = shape_shape(&a, &b);
        let ba = shape_shape(&b, &a);
        well_formed(&ab, m)?;
        well_formed(&ba, m)?;
        prop_assert_eq!(ab.is_contact(), ba.is_contact(), "verdict not symmetric: {:?} vs {:?}", ab, ba);
        prop_assert!((ab.distance - ba.distance).abs() <= tolerance(&a, &b, ab.distance), "{:?} vs {:?}", ab, ba);
    }

    #[test]
    fn invariant_under_rigid_motions((a, b, scale) in pair(), axis in (-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64), angle in -3.1..3.1f64, shift in (-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64)) {
        let iso = Isometry3::new(Vector3::new(shift.0, shift.1, shift.2) * scale, Vector3::new(axis.0, axis.1, axis.2).normalize() * angle);
        let (ta, tb) = (a.transformed(&iso), b.transformed(&iso));
        let before = shape_shape(&a, &b);
        let after = shape_shape(&ta, &tb);
        let m = magnitude(&a, &b).max(magnitude(&ta, &tb));
        // Moving the shapes rounds their coordinates: allow that on top of the usual tolerance.
        let tol = tolerance(&a, &b, before.distance).max(1e-12 * m);
        prop_assert!((before.distance - after.distance).abs() <= tol, "{:?} vs {:?}", before, after);
    }

    #[test]
    fn zero_length_capsule_is_a_sphere_and_zero_radius_cylinder_a_segment((a, b, _) in pair()) {
        let m = magnitude(&a, &b);
        if let Shape::Sphere(s) = a {
            let as_capsule: Shape = Capsule::new(s.center(), s.center(), s.radius()).unwrap().into();
            let d1 = shape_shape(&a, &b).distance;
            let d2 = shape_shape(&as_capsule, &b).distance;
            prop_assert!((d1 - d2).abs() <= tolerance(&a, &b, d1), "{} vs {}", d1, d2);
        }
        if let Shape::Segment(s) = a && s.length() > 0.0 {
            let as_cylinder: Shape = Cylinder::new(s.a(), s.b(), 0.0).unwrap().into();
            let d1 = shape_shape(&a, &b).distance;
            let d2 = shape_shape(&as_cylinder, &b).distance;
            // Apart: equal. In contact: both in contact (the cylinder's value is conservative).
            if d1 > 1e-12 * m {
                prop_assert!((d1 - d2).abs() <= 1e-12 * m, "{} vs {}", d1, d2);
            } else {
                prop_assert!(d2 <= 1e-12 * m, "{} vs {}", d1, d2);
            }
        }
    }

    #[test]
    fn distance_is_monotone_and_lipschitz_in_radius((a, b, scale) in pair(), grow in 0.0..0.3f64) {
        let delta = grow * scale;
        let bigger = with_radius(&a, radius(&a) + delta);
        let d = shape_shape(&a, &b).distance;
        let d_big = shape_shape(&bigger, &b).distance;
        let tol = tolerance(&a, &b, d.min(d_big)).max(tolerance(&bigger, &b, d.min(d_big)));
        // Growing a by δ never increases the distance and lowers it by at most δ (exactly δ for
        // the sphere/capsule family).
        prop_assert!(d_big <= d + tol, "grew but moved apart: {} -> {}", d, d_big);
        prop_assert!(d_big >= d - delta - tol, "dropped more than δ = {}: {} -> {}", delta, d, d_big);
        if !has_cylinder(&a, &b) {
            prop_assert!((d - delta - d_big).abs() <= 1e-12 * magnitude(&bigger, &b), "{} - {} != {}", d, delta, d_big);
        }
    }

    #[test]
    fn capsule_contains_the_cylinder_on_its_axis((a, b, _) in pair()) {
        if let Shape::Cylinder(c) = a {
            let capsule: Shape = Capsule::from_segment(*c.axis(), c.radius()).unwrap().into();
            let d_cyl = shape_shape(&a, &b).distance;
            let d_cap = shape_shape(&capsule, &b).distance;
            prop_assert!(d_cap <= d_cyl + 1e-12 * magnitude(&a, &b), "capsule {} above cylinder {}", d_cap, d_cyl);
        }
    }
}
