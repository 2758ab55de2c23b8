//! Point–segment and segment–segment (hence sphere/capsule) distances against exact rational
//! arithmetic, on thousands of seeded random and adversarial pairs at scales 1e-6 .. 1e6 m.
//! Requirement: |d − d_exact| ≤ 1e-12 × (largest absolute coordinate).

mod common;

use common::exact::{V, point_segment_sq, segment_segment_sq, sqrt_to_f64};
use common::generators::{SCALES, segment_pair};
use robocollide::geom::{Capsule, Segment, Sphere};
use robocollide::math::Point3;
use robocollide::query::{capsule_capsule, point_segment, segment_segment, sphere_capsule};

const TOLERANCE: f64 = 1e-12;

fn magnitude(points: &[[f64; 3]]) -> f64 {
    points
        .iter()
        .flat_map(|p| p.iter())
        .fold(0.0f64, |m, x| m.max(x.abs()))
}

#[test]
fn segment_segment_matches_exact_rationals() {
    let mut rng = common::rng(0x5e65e6);
    let mut worst = 0.0f64;
    let mut count = 0;
    for family in 0..9 {
        for &(size, offset) in &SCALES {
            for _ in 0..60 {
                let (p0, p1, q0, q1) = segment_pair(&mut rng, family, size, offset);
                let exact = sqrt_to_f64(&segment_segment_sq(
                    &V::from(p0),
                    &V::from(p1),
                    &V::from(q0),
                    &V::from(q1),
                ));
                let a = Segment::new(p0.into(), p1.into()).unwrap();
                let b = Segment::new(q0.into(), q1.into()).unwrap();
                let r = segment_segment(&a, &b);
                let scale = magnitude(&[p0, p1, q0, q1]).max(f64::MIN_POSITIVE);
                let err = (r.distance - exact).abs() / scale;
                assert!(
                    err <= TOLERANCE,
                    "family {family} size {size} offset {offset}: got {} exact {exact} (rel err {err:e})\n{p0:?} {p1:?}\n{q0:?} {q1:?}",
                    r.distance
                );
                // Witness points realise the distance and the normal is unit.
                assert!(
                    ((r.point_b - r.point_a).norm() - r.distance).abs()
                        <= 4.0 * f64::EPSILON * scale
                );
                assert!((r.normal.norm() - 1.0).abs() < 1e-12);
                // Symmetric.
                let back = segment_segment(&b, &a);
                assert!((back.distance - r.distance).abs() / scale <= TOLERANCE);
                worst = worst.max(err);
                count += 1;
            }
        }
    }
    eprintln!("segment–segment: {count} pairs, worst error {worst:e} × magnitude");
}

#[test]
fn point_segment_matches_exact_rationals() {
    let mut rng = common::rng(0x9015e6);
    let mut worst = 0.0f64;
    for family in 0..9 {
        for &(size, offset) in &SCALES {
            for _ in 0..40 {
                let (p0, p1, q0, _) = segment_pair(&mut rng, family, size, offset);
                let exact =
                    sqrt_to_f64(&point_segment_sq(&V::from(q0), &V::from(p0), &V::from(p1)));
                let r = point_segment(
                    &Point3::from(q0),
                    &Segment::new(p0.into(), p1.into()).unwrap(),
                );
                let scale = magnitude(&[p0, p1, q0]).max(f64::MIN_POSITIVE);
                let err = (r.distance - exact).abs() / scale;
                assert!(
                    err <= TOLERANCE,
                    "got {} exact {exact}: {p0:?} {p1:?} {q0:?}",
                    r.distance
                );
                worst = worst.max(err);
            }
        }
    }
    eprintln!("point–segment: worst error {worst:e} × magnitude");
}

#[test]
fn capsules_and_spheres_are_core_distance_minus_radii() {
    let mut rng = common::rng(0xca9);
    for family in 0..9 {
        for &(size, offset) in &SCALES {
            for k in 0..20 {
                let (p0, p1, q0, q1) = segment_pair(&mut rng, family, size, offset);
                let core = sqrt_to_f64(&segment_segment_sq(
                    &V::from(p0),
                    &V::from(p1),
                    &V::from(q0),
                    &V::from(q1),
                ));
                // Radii from tiny to several times the core distance: separated and deep cases.
                let (ra, rb) = (size * 0.1 * k as f64, size * 0.05 * (20 - k) as f64);
                let exact = core - ra - rb;
                let a = Capsule::new(p0.into(), p1.into(), ra).unwrap();
                let b = Capsule::new(q0.into(), q1.into(), rb).unwrap();
                let r = capsule_capsule(&a, &b);
                let scale = magnitude(&[p0, p1, q0, q1]) + ra + rb;
                assert!(
                    (r.distance - exact).abs() <= TOLERANCE * scale,
                    "capsule: {} vs {exact}",
                    r.distance
                );
                assert!(
                    exact <= 1e-9 * scale || !r.is_contact(),
                    "apart pair reported in contact"
                );
                assert!(
                    exact >= 0.0 || r.is_contact(),
                    "overlapping pair reported apart"
                );
                let s = Sphere::new(q0.into(), rb).unwrap();
                let exact_s =
                    sqrt_to_f64(&point_segment_sq(&V::from(q0), &V::from(p0), &V::from(p1)))
                        - ra
                        - rb;
                let r = sphere_capsule(&s, &a);
                assert!(
                    (r.distance - exact_s).abs() <= TOLERANCE * scale,
                    "sphere: {} vs {exact_s}",
                    r.distance
                );
            }
        }
    }
}
