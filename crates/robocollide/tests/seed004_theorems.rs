//! Seed 004's theorems (Wu et al., HOL Light / conformal geometric algebra) as executable
//! properties, named after them, cross-checked through the independent conformal model
//! `geom::conformal` (points `P = p + ½‖p‖²e∞ + e₀`, spheres `S = P − ½r²e∞`, `P·Q = −½‖p − q‖²`).
//! Corrections to the seed (SEED-NOTES 004): Theorem 5's minimiser is
//! `s = (p − sc)·(ec − sc)/‖ec − sc‖²`, and `2‖P·Q‖` is the *squared* centre distance.

mod common;

use std::path::Path;

use proptest::prelude::*;
use proptest::test_runner::Config;
use robocollide::collision::CellChecker;
use robocollide::geom::conformal::Conformal;
use robocollide::geom::{Capsule, Shape, Sphere};
use robocollide::math::{Point3, Real};
use robocollide::query::{capsule_capsule, shape_shape, sphere_capsule, sphere_sphere};
use robocollide::robot::Cell;

fn config() -> Config {
    common::strategies::seeded(3000, 0x004_2026)
}

fn point() -> impl Strategy<Value = Point3> {
    (-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64).prop_map(|(x, y, z)| Point3::new(x, y, z))
}

/// The point of segment `sc ec` nearest `p`, by Theorem 5 (corrected parameter) in CGA terms.
fn nearest_on_segment(p: &Point3, sc: &Point3, ec: &Point3) -> Point3 {
    let d = ec - sc;
    let dd = d.norm_squared();
    if dd == 0.0 {
        return *sc;
    }
    let s = ((p - sc).dot(&d) / dd).clamp(0.0, 1.0);
    sc + d * s
}

/// Squared centre-line distance of two segments by the nine cases of Theorems 6–7: the
/// stationary point when inside `[0, 1]²`, else the best endpoint-to-segment distance; every
/// distance measured as `−2 P·Q` in the conformal model.
fn cga_segment_segment_sq(sc1: &Point3, ec1: &Point3, sc2: &Point3, ec2: &Point3) -> Real {
    let cga = |a: &Point3, b: &Point3| Conformal::point(a).squared_distance(&Conformal::point(b));
    let mut best = [
        cga(sc1, &nearest_on_segment(sc1, sc2, ec2)),
        cga(ec1, &nearest_on_segment(ec1, sc2, ec2)),
        cga(sc2, &nearest_on_segment(sc2, sc1, ec1)),
        cga(ec2, &nearest_on_segment(ec2, sc1, ec1)),
    ]
    .into_iter()
    .fold(Real::INFINITY, Real::min);
    let (u, v, w) = (ec1 - sc1, ec2 - sc2, sc1 - sc2);
    let (a, b, c, d, e) = (u.dot(&u), -u.dot(&v), v.dot(&v), u.dot(&w), -v.dot(&w));
    let det = a * c - b * b;
    if det > 1e-12 * a * c {
        let (s1, s2) = ((b * e - c * d) / det, (b * d - a * e) / det);
        if (0.0..=1.0).contains(&s1) && (0.0..=1.0).contains(&s2) {
            best = best.min(cga(&(sc1 + u * s1), &(sc2 + v * s2)));
        }
    }
    best
}

/// Tolerance of the verdict comparisons: the CGA formulas are the plain ones (no robust
/// evaluation), so pairs within rounding of contact are not judged.
const NEAR: Real = 1e-9;

proptest! {
    #![proptest_config(config())]

    /// Theorem 1: two points of a closed ball are at most its diameter apart.
    #[test]
    fn theorem_1_points_of_a_ball_are_within_its_diameter(c in point(), r in 0.0..1.0f64, x in point(), y in point()) {
        let ball = Conformal::sphere(&c, r);
        let (px, py) = (c + x.coords * r / 1.8, c + y.coords * r / 1.8);
        let (cx, cy) = (Conformal::point(&px), Conformal::point(&py));
        prop_assert!(cx.inner(&ball) >= -1e-15 && cy.inner(&ball) >= -1e-15);
        prop_assert!(cx.squared_distance(&cy).sqrt() <= 2.0 * r + 1e-12);
    }

    /// Theorem 2: two points of a centre line are at most its length apart.
    #[test]
    fn theorem_2_points_of_a_segment_are_within_its_length(sc in point(), ec in point(), s in 0.0..1.0f64, t in 0.0..1.0f64) {
        let (z1, z2) = (sc + (ec - sc) * s, sc + (ec - sc) * t);
        let d = Conformal::point(&z1).squared_distance(&Conformal::point(&z2)).max(0.0).sqrt();
        prop_assert!(d <= (ec - sc).norm() + 1e-12);
    }

    /// Theorems 3–4: a capsule whose centre line has coinciding ends is the ball at that end.
    #[test]
    fn theorem_4_zero_length_capsule_is_a_ball(c in point(), r in 0.0..0.5f64, other in point(), ro in 0.0..0.5f64) {
        let capsule = Capsule::new(c, c, r).unwrap();
        let ball = Sphere::new(c, r).unwrap();
        let probe = Sphere::new(other, ro).unwrap();
        prop_assert_eq!(sphere_capsule(&probe, &capsule).distance, sphere_sphere(&probe, &ball).distance);
    }

    /// Theorem 5: the ball–capsule distance is the distance to the nearest centre-line point
    /// (at the corrected parameter) minus the radii.
    #[test]
    fn theorem_5_ball_capsule_distance(p in point(), r1 in 0.0..0.5f64, sc in point(), ec in point(), r2 in 0.0..0.5f64) {
        let q = nearest_on_segment(&p, &sc, &ec);
        let cga = Conformal::point(&p).squared_distance(&Conformal::point(&q)).max(0.0).sqrt() - r1 - r2;
        let d = sphere_capsule(&Sphere::new(p, r1).unwrap(), &Capsule::new(sc, ec, r2).unwrap()).distance;
        prop_assert!((d - cga).abs() <= 1e-12, "{} vs {}", d, cga);
    }

    /// Theorems 6–7: the capsule–capsule centre-line distance is the minimum over the nine cases.
    #[test]
    fn theorem_6_7_capsule_capsule_centre_distance(sc1 in point(), ec1 in point(), sc2 in point(), ec2 in point()) {
        let cga = cga_segment_segment_sq(&sc1, &ec1, &sc2, &ec2).max(0.0).sqrt();
        let d = capsule_capsule(&Capsule::new(sc1, ec1, 0.0).unwrap(), &Capsule::new(sc2, ec2, 0.0).unwrap()).distance;
        prop_assert!((d - cga).abs() <= 1e-9, "{} vs {}", d, cga);
    }

    /// Theorem 8: two balls collide iff the squared centre distance `2‖P·Q‖` ≤ (r₁ + r₂)².
    #[test]
    fn theorem_8_ball_ball_collision_iff_centres_within_radii(p in point(), r1 in 0.0..0.8f64, q in point(), r2 in 0.0..0.8f64) {
        let sq = 2.0 * Conformal::point(&p).inner(&Conformal::point(&q)).abs();
        let reach = (r1 + r2) * (r1 + r2);
        prop_assume!((sq - reach).abs() > NEAR);
        let hit = sphere_sphere(&Sphere::new(p, r1).unwrap(), &Sphere::new(q, r2).unwrap()).is_contact();
        prop_assert_eq!(hit, sq <= reach);
        // The same through the dual spheres: they meet iff S₁·S₂ ≥ −r₁r₂.
        let s = Conformal::sphere(&p, r1).inner(&Conformal::sphere(&q, r2));
        prop_assert_eq!(hit, s >= -r1 * r2);
    }

    /// Theorem 9: ball and capsule collide iff the distance from the centre to the centre line
    /// is at most r₁ + r₂.
    #[test]
    fn theorem_9_ball_capsule_collision_iff_within_radii(p in point(), r1 in 0.0..0.6f64, sc in point(), ec in point(), r2 in 0.0..0.6f64) {
        let q = nearest_on_segment(&p, &sc, &ec);
        let sq = Conformal::point(&p).squared_distance(&Conformal::point(&q));
        let reach = (r1 + r2) * (r1 + r2);
        prop_assume!((sq - reach).abs() > NEAR);
        let hit = sphere_capsule(&Sphere::new(p, r1).unwrap(), &Capsule::new(sc, ec, r2).unwrap()).is_contact();
        prop_assert_eq!(hit, sq <= reach);
    }

    /// Theorem 10: two capsules collide iff their centre lines are within r₁ + r₂.
    #[test]
    fn theorem_10_capsule_capsule_collision_iff_within_radii(sc1 in point(), ec1 in point(), r1 in 0.0..0.4f64, sc2 in point(), ec2 in point(), r2 in 0.0..0.4f64) {
        let sq = cga_segment_segment_sq(&sc1, &ec1, &sc2, &ec2);
        let reach = (r1 + r2) * (r1 + r2);
        prop_assume!((sq - reach).abs() > 1e-7);
        let hit = capsule_capsule(&Capsule::new(sc1, ec1, r1).unwrap(), &Capsule::new(sc2, ec2, r2).unwrap()).is_contact();
        prop_assert_eq!(hit, sq <= reach);
    }
}

fn table3() -> Cell {
    Cell::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/scenes/seed004_table3.toml"))
        .unwrap()
}

/// Theorems 11–15: a robot is the union of its components, so two robots collide iff some
/// pair of components does — checked on the Table 3 scene against every component pair.
#[test]
fn theorem_14_robot_collision_iff_some_component_pair_collides() {
    let cell = table3();
    let mut checker = CellChecker::new(&cell, false);
    let q: Vec<Real> = cell.robots.iter().flat_map(|r| r.home.clone()).collect();
    let report = checker.check(&q, 0.0).unwrap();
    let bodies = |r: usize| cell.robots[r].model.bodies.len();
    let mut colliding = Vec::new();
    for a in 0..bodies(0) {
        for b in 0..bodies(1) {
            let (sa, sb): (Shape, Shape) = (checker.shape(0, a), checker.shape(1, b));
            if shape_shape(&sa, &sb).is_contact() {
                colliding.push((checker.element(0, a).label, checker.element(1, b).label));
            }
        }
    }
    assert_eq!(report.collision, !colliding.is_empty());
    // Theorem 16 (Table 3): the robots collide, and the report
    // lists every intersecting pair, not only the first one found.
    assert!(report.collision);
    let mut listed: Vec<(String, String)> = report
        .close_pairs
        .iter()
        .filter(|p| p.distance <= 0.0)
        .map(|p| (p.a.label.clone(), p.b.label.clone()))
        .collect();
    listed.sort();
    colliding.sort();
    assert_eq!(listed, colliding);
    assert!(colliding.len() > 1, "{colliding:?}");
}
