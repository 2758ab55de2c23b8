//! Plücker lines against exact arithmetic: the common-normal distance (and the cheap
//! `distance_to`) equals the exact distance of the lines, and seed 003's dual identities
//! (eqs. 5, 6) hold, on seeded random and nearly parallel line pairs.

mod common;

use common::exact::{V, line_line_sq, sqrt_to_f64};
use common::generators::{add, point_in_box, scale, unit};
use rand::RngExt;
use robocollide::geom::{Dual, Line, LineRelation};
use robocollide::math::Vector3;

#[test]
fn common_normal_matches_exact_distance_and_dual_identities() {
    let mut rng = common::rng(0x11e5);
    let mut near_parallel = 0;
    for k in 0..600 {
        let p = point_in_box(&mut rng, 10.0);
        let q = point_in_box(&mut rng, 10.0);
        let u = unit(&mut rng);
        let v = if k % 3 == 0 {
            near_parallel += 1;
            let eps = 10f64.powi(-(rng.random_range(2..=11)));
            let w = add(u, scale(unit(&mut rng), eps));
            scale(w, if rng.random_bool(0.5) { 1.0 } else { -1.0 })
        } else {
            unit(&mut rng)
        };
        let (l1, l2) = (
            Line::from_point_direction(p.into(), Vector3::from(u)).unwrap(),
            Line::from_point_direction(q.into(), Vector3::from(v)).unwrap(),
        );
        let c = l1.common_normal(&l2);
        // Oracle: the exact distance of the lines as stored (direction, moment).
        let v3 = |x: Vector3| V::from([x.x, x.y, x.z]);
        if c.relation == LineRelation::Skew || c.relation == LineRelation::Intersecting {
            let exact = sqrt_to_f64(&line_line_sq(
                &v3(l1.direction()),
                &v3(l1.moment()),
                &v3(l2.direction()),
                &v3(l2.moment()),
            ));
            assert!(
                (c.distance.abs() - exact).abs() <= 1e-12 * 20.0,
                "{:?}: {} vs {exact}",
                c.relation,
                c.distance
            );
            // The cheap distance (reciprocal product, or the common normal when nearly
            // parallel) agrees with the same oracle.
            let cheap = l1.distance_to(&l2);
            assert!(
                (cheap - exact).abs() <= 1e-12 * 20.0,
                "distance_to: {cheap} vs {exact}"
            );
        } else {
            assert_eq!(
                l1.distance_to(&l2),
                if c.relation == LineRelation::Identical {
                    0.0
                } else {
                    c.distance.abs()
                }
            );
        }
        // The feet are on their lines.
        for (foot, line) in [(c.foot_a, &l1), (c.foot_b, &l2)] {
            let off = (foot - line.point())
                - line.direction() * (foot - line.point()).dot(&line.direction());
            assert!(
                off.norm() <= 1e-12 * (1.0 + foot.coords.norm()),
                "foot {foot} off its line by {}",
                off.norm()
            );
        }
        // Eq. 5 and eq. 6, on well-conditioned pairs (for nearly parallel lines the common
        // normal's moment has a lever arm of |w| / sin θ; their distances are tested above).
        let dot = l1.dual_dot(&l2);
        assert!((dot.re - c.theta.cos()).abs() < 1e-12);
        if c.theta.sin() > 1e-3 {
            assert!((dot.du + c.distance * c.theta.sin()).abs() < 1e-9 * (1.0 + c.distance.abs()));
            let n_hat = Line::from_point_direction(c.foot_a, c.normal)
                .unwrap()
                .dual();
            let expected = n_hat.scale(Dual::new(c.theta.sin(), c.distance * c.theta.cos()));
            let cross = l1.dual_cross(&l2);
            assert!(
                (cross.re - expected.re).norm() < 1e-12 && (cross.du - expected.du).norm() < 1e-9
            );
        }
    }
    assert!(near_parallel > 150);
}
