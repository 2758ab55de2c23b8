//! Every shape pair against parry3d-f64 0.31 (a different implementation: closed forms for
//! balls/capsules, GJK for cylinders). parry's distance is unsigned (0 for any overlap), so
//! separated pairs are compared by value and overlapping pairs by verdict only.
//!
//! parry is not exact either: its GJK paths (e.g. segment–capsule, every cylinder pair) can be
//! off by far more than rounding (seen: 0.4 % on a segment–capsule pair). For pairs without a
//! cylinder, any disagreement beyond 1e-12 is arbitrated by the exact rational oracle, which
//! must side with us; for pairs with a cylinder, by an independent two-sided certificate
//! (gap along our normal ≤ true distance ≤ distance of our witnesses, checked with the test's
//! own geometry), which must be tighter than 1e-12 × magnitude.

mod common;

use common::exact::{V, segment_segment_sq, sqrt_to_f64};
use common::generators::{point_in_box, uniform, unit};
use common::parry::{parry_distance, to_parry};
use common::projection_oracle::{Solid, certify_apart, distance as oracle_distance};
use rand::RngExt;
use robocollide::geom::{Capsule, Cylinder, Segment, Shape, Sphere};
use robocollide::math::Point3;
use robocollide::query::shape_shape;

const KINDS: [&str; 5] = ["point", "segment", "sphere", "capsule", "cylinder"];

/// Exact signed distance for shapes without cylinders: core segments (points as zero-length
/// segments) minus radii.
fn exact_distance(a: &Shape, b: &Shape) -> f64 {
    let core = |s: &Shape| -> ([f64; 3], [f64; 3], f64) {
        let p = |x: Point3| [x.x, x.y, x.z];
        match s {
            Shape::Point(x) => (p(*x), p(*x), 0.0),
            Shape::Segment(g) => (p(g.a()), p(g.b()), 0.0),
            Shape::Sphere(g) => (p(g.center()), p(g.center()), g.radius()),
            Shape::Capsule(g) => (p(g.axis().a()), p(g.axis().b()), g.radius()),
            Shape::Cylinder(_) | Shape::Box(_) | Shape::Plane(_) => unreachable!(),
        }
    };
    let (a0, a1, ra) = core(a);
    let (b0, b1, rb) = core(b);
    sqrt_to_f64(&segment_segment_sq(
        &V::from(a0),
        &V::from(a1),
        &V::from(b0),
        &V::from(b1),
    )) - ra
        - rb
}

fn random_shape(rng: &mut common::TestRng, kind: &str, size: f64) -> Shape {
    let p = |rng: &mut common::TestRng| Point3::from(point_in_box(rng, size));
    let a = p(rng);
    let d = unit(rng);
    let len = size * uniform(rng, 0.0, 0.8) * if rng.random_bool(0.1) { 0.0 } else { 1.0 };
    let b = Point3::new(a.x + d[0] * len, a.y + d[1] * len, a.z + d[2] * len);
    let r = size * uniform(rng, 0.02, 0.3);
    match kind {
        "point" => Shape::Point(a),
        "segment" => Segment::new(a, b).unwrap().into(),
        "sphere" => Sphere::new(a, r).unwrap().into(),
        "capsule" => Capsule::new(a, b, r).unwrap().into(),
        _ => {
            // parry cannot pose a zero-length cylinder's axis; keep it non-degenerate here.
            let b = if len == 0.0 {
                Point3::new(a.x, a.y, a.z + size * 0.1)
            } else {
                b
            };
            Cylinder::new(a, b, r).unwrap().into()
        }
    }
}

#[test]
fn all_pairs_agree_with_parry() {
    let mut rng = common::rng(0x9a77);
    for ka in KINDS {
        for kb in KINDS {
            let cylinders = ka == "cylinder" || kb == "cylinder";
            let tolerance = 1e-12;
            let mut worst = 0.0f64;
            let (mut apart, mut overlapping, mut arbitrated) = (0, 0, 0);
            for &size in &[1e-3, 1.0, 1e3] {
                for _ in 0..150 {
                    let a = random_shape(&mut rng, ka, size);
                    let b = random_shape(&mut rng, kb, size);
                    let ours = shape_shape(&a, &b);
                    let theirs = parry_distance(&to_parry(&a), &to_parry(&b));
                    let scale = a.magnitude().max(b.magnitude());
                    if theirs > tolerance * scale {
                        apart += 1;
                        let mut err = (ours.distance - theirs).abs() / scale;
                        if err > 1e-12 && !cylinders {
                            let exact = exact_distance(&a, &b);
                            err = (ours.distance - exact).abs() / scale;
                            arbitrated += 1;
                        } else if err > 1e-12 {
                            // Certify our answer independently; parry must then be outside it.
                            let (sa, sb) = (Solid::from_shape(&a), Solid::from_shape(&b));
                            let (lower, witness_distance) = certify_apart(&sa, &sb, &ours);
                            let upper = witness_distance.min(oracle_distance(&sa, &sb));
                            assert!(ours.distance <= lower + 1e-14 * scale, "{a:?} {b:?}");
                            err = (upper - ours.distance) / scale;
                            arbitrated += 1;
                        }
                        worst = worst.max(err);
                        assert!(
                            err <= tolerance,
                            "{ka}–{kb}: ours {} parry {theirs}\n{a:?}\n{b:?}",
                            ours.distance
                        );
                    } else {
                        overlapping += 1;
                        assert!(
                            ours.distance <= tolerance * scale,
                            "{ka}–{kb}: parry says contact, ours {}\n{a:?}\n{b:?}",
                            ours.distance
                        );
                    }
                }
            }
            eprintln!(
                "{ka:8}–{kb:8}: {apart:3} apart (worst difference {worst:.1e} × magnitude; {arbitrated} parry errors settled by the exact oracle), {overlapping:3} in contact"
            );
        }
    }
}
