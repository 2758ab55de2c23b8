//! The invariants every pair answer must satisfy, shared by the kernel and batch targets:
//! finite values from finite input, a unit normal, `point_b − point_a = distance · normal`,
//! each witness on its shape's boundary, and the same verdict and distance for (b, a).
//! Tolerances as in `crates/robocollide/tests/witnesses.rs`.

use robocollide::geom::Shape;
use robocollide::query::{Separation, shape_shape};

/// Rounding for the closed forms; 1e-4 of the magnitude for cylinder pairs, whose witnesses
/// come from an iterative direction search: near a rim the small angular error of the
/// direction moves them off the face (found by fuzzing; see `query::separation`).
fn tolerance(a: &Shape, b: &Shape) -> f64 {
    let m = a.magnitude().max(b.magnitude()).max(f64::MIN_POSITIVE);
    if has_cylinder(a, b) { 1e-4 * m } else { 1e-11 * m }
}

fn has_cylinder(a: &Shape, b: &Shape) -> bool {
    matches!(a, Shape::Cylinder(_)) || matches!(b, Shape::Cylinder(_))
}

/// Two half-spaces that are not opposite overlap without bound: −f64::MAX, witnesses on the
/// line where their planes meet (documented in `query::plane_shape`).
fn unbounded(a: &Shape, b: &Shape, s: &Separation) -> bool {
    matches!((a, b), (Shape::Plane(_), Shape::Plane(_))) && s.distance == -f64::MAX
}

/// Checks one pair both ways; panics (a fuzz finding) on any violation.
pub fn check_pair(a: &Shape, b: &Shape) -> Separation {
    let s = shape_shape(a, b);
    let back = shape_shape(b, a);
    let all = |s: &Separation| {
        s.distance.is_finite()
            && s.point_a.iter().chain(s.point_b.iter()).all(|c| c.is_finite())
            && s.normal.iter().all(|c| c.is_finite())
    };
    assert!(all(&s) && all(&back), "non-finite answer: {s:?} / {back:?} for {a:?} {b:?}");
    assert!((s.normal.norm() - 1.0).abs() < 1e-12, "normal not unit: {s:?} for {a:?} {b:?}");
    assert_eq!(s.is_contact(), back.is_contact(), "verdict not symmetric: {s:?} / {back:?} for {a:?} {b:?}");
    let m = a.magnitude().max(b.magnitude()).max(f64::MIN_POSITIVE);
    // Witness checks only where the witnesses themselves are representable without overflow.
    if m < 1e300 && !unbounded(a, b, &s) {
        let tol = tolerance(a, b);
        assert!((s.distance - back.distance).abs() <= tol, "asymmetric: {s:?} / {back:?}");
        // Scaled before the norm, which would overflow above ~1e154.
        let off = (((s.point_b - s.point_a) - s.normal * s.distance) / m).norm() * m;
        assert!(off <= tol, "point_b − point_a ≠ d·n by {off:e}: {s:?} for {a:?} {b:?}");
        // Known limit, not checked here: penetrating cylinder pairs take their witnesses
        // from a conservative depth direction, and for near-parallel, very flat cylinders
        // they were found up to 0.5 % of the magnitude off their boundaries (TESTING.md).
        let known_limit = has_cylinder(a, b) && s.distance < 0.0;
        for (p, shape) in [(s.point_a, a), (s.point_b, b)].into_iter().filter(|_| !known_limit) {
            let on = shape_shape(&Shape::Point(p), shape).distance;
            assert!(
                on.abs() <= tol,
                "witness {on:e} off its boundary ({:e} of the magnitude): {s:?} for {a:?} {b:?}",
                on.abs() / m
            );
        }
    }
    s
}
