//! Boxes and half-spaces against independent oracles.
//!
//! - **Exact rational arithmetic** (closed forms): point, sphere, segment and capsule against
//!   axis-aligned boxes by enumerating the active sets of the convex QP
//!   `min |p₀ + t d − x|²` over `t ∈ [0, 1]`, `x ∈ [−h, h]` (a method robocollide does not use),
//!   and box–box for axis-aligned boxes (per-axis gaps).
//! - **Alternating projections** ([`projection_oracle`]) for apart pairs of rotated boxes with
//!   every other solid, and a dense search over directions for the penetration depth (the
//!   signed distance is the largest gap over directions).
//! - **parry3d-f64** as a third opinion on apart distances and on penetration depths.
//!
//! Adversarial families: face-on, edge-on and vertex contact, segments parallel to faces,
//! nested shapes, flat boxes, scales from 1e-6 to 1e6 m and beyond (rescaled kernels).

mod common;

use common::exact::{Q, V, q, sqrt_to_f64};
use common::generators::{P, SCALES, add, norm, point_in_box, scale, sub, uniform, unit};
use common::parry::{parry_distance, to_parry};
use common::projection_oracle::{Solid, certify_apart, distance as oracle_distance, gap};
use num_traits::{Signed, Zero};
use rand::RngExt;
use robocollide::geom::{Capsule, Cylinder, OrientedBox, Plane, Segment, Shape, Sphere};
use robocollide::math::{Point3, Real, Vector3};
use robocollide::query::{Separation, shape_shape};

fn pt(p: P) -> Point3 {
    Point3::new(p[0], p[1], p[2])
}

/// A random box: centre near `origin`, random rotation, half-extents in `[0.05, 1] × size`
/// (one of them 0 — a flat box — one time in eight).
fn random_box(rng: &mut common::TestRng, size: f64, origin: P) -> OrientedBox {
    let c = add(origin, scale(point_in_box(rng, 1.0), size));
    let rpy: [Real; 3] = std::array::from_fn(|_| uniform(rng, -3.2, 3.2));
    let mut h: [Real; 3] = std::array::from_fn(|_| size * uniform(rng, 0.05, 1.0));
    if rng.random_range(0..8) == 0 {
        h[rng.random_range(0..3)] = 0.0;
    }
    OrientedBox::from_rpy(pt(c), rpy, h.into()).unwrap()
}

/// Any other shape near `origin`.
fn random_partner(rng: &mut common::TestRng, size: f64, origin: P) -> Shape {
    let a = add(origin, scale(point_in_box(rng, 1.6), size));
    let b = add(a, scale(unit(rng), size * uniform(rng, 0.05, 1.5)));
    let r = size * uniform(rng, 0.0, 0.5);
    match rng.random_range(0..6) {
        0 => Shape::Point(pt(a)),
        1 => Shape::Segment(Segment::new(pt(a), pt(b)).unwrap()),
        2 => Shape::Sphere(Sphere::new(pt(a), r).unwrap()),
        3 => Shape::Capsule(Capsule::new(pt(a), pt(b), r).unwrap()),
        4 => Shape::Cylinder(Cylinder::new(pt(a), pt(b), r.max(size * 0.01)).unwrap()),
        _ => Shape::Box(random_box(rng, size, origin)),
    }
}

/// `point_b − point_a = distance · normal`, unit normal, each witness on its shape.
fn assert_witnesses(a: &Shape, b: &Shape, r: &Separation, tolerance: Real) {
    let magnitude = a.magnitude().max(b.magnitude());
    assert!((r.normal.norm() - 1.0).abs() < 1e-12, "normal {r:?}");
    assert!(
        ((r.point_b - r.point_a) - r.normal * r.distance).norm() <= 1e-13 * magnitude,
        "witness identity {a:?} {b:?} {r:?}"
    );
    for (shape, p, name) in [(a, r.point_a, "a"), (b, r.point_b, "b")] {
        let solid = Solid::from_shape(shape);
        let off = norm(sub(solid.project(p.coords.into()), p.coords.into()));
        assert!(
            off <= tolerance * magnitude,
            "witness {name} {off:e} off its shape: {a:?} {b:?} {r:?}"
        );
    }
}

/// Largest gap over a dense set of directions, refined by a shrinking pattern search: a lower
/// bound on the signed distance that converges to it (written independently of the kernels).
fn best_gap(a: &Solid, b: &Solid) -> Real {
    let n = 4000;
    let mut best = (Real::NEG_INFINITY, [0.0, 0.0, 1.0]);
    for i in 0..n {
        let z = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
        let phi = i as f64 * 2.399963229728653;
        let s = (1.0 - z * z).sqrt();
        let d = [s * phi.cos(), s * phi.sin(), z];
        let g = gap(a, b, d);
        if g > best.0 {
            best = (g, d);
        }
    }
    let mut step = 0.05;
    while step > 1e-12 {
        let mut improved = false;
        for axis in 0..3 {
            for sign in [-1.0, 1.0] {
                let mut d = best.1;
                d[axis] += sign * step;
                let d = scale(d, 1.0 / norm(d));
                let g = gap(a, b, d);
                if g > best.0 {
                    best = (g, d);
                    improved = true;
                }
            }
        }
        if !improved {
            step *= 0.5;
        }
    }
    best.0
}

// ---- exact rational oracle ------------------------------------------------------------------

/// Exact squared distance from the segment `p₀ p₁` to the axis-aligned box `[c − h, c + h]`,
/// by enumerating which of `t, x₁, x₂, x₃` sit at a bound (3⁴ patterns) and solving for the
/// free ones; the least objective over the feasible candidates is the minimum of the convex QP.
fn exact_segment_aabb_sq(p0: &V, p1: &V, c: &V, h: &V) -> Q {
    let d = p1.sub_pub(p0);
    let rel = p0.sub_pub(c); // box-centred
    let comp = |v: &V, i: usize| v.dot(&unit_vector(i));
    let mut best: Option<Q> = None;
    for pattern in 0..81usize {
        let digit = |k: usize| pattern / 3usize.pow(k as u32) % 3; // 0 low, 1 high, 2 free
        let x_fixed = |i: usize| match digit(i + 1) {
            0 => Some(-comp(h, i)),
            1 => Some(comp(h, i)),
            _ => None,
        };
        let t = match digit(0) {
            0 => Q::zero(),
            1 => Q::from_integer(1.into()),
            _ => {
                // dF/dt = 0 with free x's tracking the segment.
                let (mut num, mut den) = (Q::zero(), Q::zero());
                for i in 0..3 {
                    if let Some(x) = x_fixed(i) {
                        num -= comp(&d, i) * (comp(&rel, i) - x);
                        den += comp(&d, i) * comp(&d, i);
                    }
                }
                if den.is_zero() {
                    continue;
                }
                num / den
            }
        };
        if t < Q::zero() || t > Q::from_integer(1.into()) {
            continue;
        }
        let mut value = Q::zero();
        let mut feasible = true;
        for i in 0..3 {
            let s = comp(&rel, i) + &t * comp(&d, i);
            let x = x_fixed(i).unwrap_or_else(|| s.clone());
            if x.abs() > comp(h, i) {
                feasible = false;
            }
            value += (&s - &x) * (&s - &x);
        }
        if feasible && best.as_ref().is_none_or(|b| value < *b) {
            best = Some(value);
        }
    }
    best.expect("t = 0 with x clamped is always feasible")
}

fn unit_vector(i: usize) -> V {
    let mut e = [0.0; 3];
    e[i] = 1.0;
    V::from(e)
}

#[test]
fn segments_capsules_and_points_match_exact_rationals_on_axis_aligned_boxes() {
    let mut rng = common::rng(1101);
    let mut checked = 0;
    for &(size, offset) in &SCALES {
        for _ in 0..400 {
            let origin = scale(unit(&mut rng), offset);
            let c = add(origin, scale(point_in_box(&mut rng, 0.5), size));
            let h: P = std::array::from_fn(|_| size * uniform(&mut rng, 0.0, 1.0));
            let p0 = add(origin, scale(point_in_box(&mut rng, 2.5), size));
            // Segments parallel to a face or an axis one time in three.
            let mut dir = scale(unit(&mut rng), size * uniform(&mut rng, 0.0, 3.0));
            if rng.random_range(0..3) == 0 {
                dir[rng.random_range(0..3)] = 0.0;
            }
            let p1 = add(p0, dir);
            let r = size * uniform(&mut rng, 0.0, 0.3);
            let boxed = OrientedBox::axis_aligned(pt(c), h.into()).unwrap();
            let capsule = Capsule::new(pt(p0), pt(p1), r).unwrap();
            let ours = shape_shape(&capsule.into(), &boxed.into());
            let exact = exact_segment_aabb_sq(&V::from(p0), &V::from(p1), &V::from(c), &V::from(h));
            if exact.is_zero() {
                assert!(ours.distance <= 0.0, "{capsule:?} {boxed:?} {ours:?}");
                continue;
            }
            let exact = sqrt_to_f64(&exact) - r;
            let magnitude = Shape::from(capsule).magnitude().max(boxed.magnitude());
            assert!(
                (ours.distance - exact).abs() <= 1e-13 * magnitude
                    || (exact <= 1e-13 * magnitude && ours.distance == 0.0),
                "{capsule:?} {boxed:?}: ours {} exact {exact}",
                ours.distance
            );
            checked += 1;
        }
    }
    assert!(checked > 2000, "{checked}");
}

#[test]
fn axis_aligned_box_pairs_match_exact_rationals() {
    let mut rng = common::rng(1102);
    for &(size, offset) in &SCALES {
        for _ in 0..300 {
            let origin = scale(unit(&mut rng), offset);
            let ca = add(origin, scale(point_in_box(&mut rng, 1.0), size));
            let cb = add(origin, scale(point_in_box(&mut rng, 1.5), size));
            let ha: P = std::array::from_fn(|_| size * uniform(&mut rng, 0.0, 1.0));
            let hb: P = std::array::from_fn(|_| size * uniform(&mut rng, 0.0, 1.0));
            let a = OrientedBox::axis_aligned(pt(ca), ha.into()).unwrap();
            let b = OrientedBox::axis_aligned(pt(cb), hb.into()).unwrap();
            let ours = shape_shape(&a.into(), &b.into());
            // Per axis: the gap |Δc| − (ha + hb), exactly.
            let gaps: Vec<Q> = (0..3)
                .map(|i| (q(cb[i]) - q(ca[i])).abs() - q(ha[i]) - q(hb[i]))
                .collect();
            let magnitude = a.magnitude().max(b.magnitude());
            let apart: Q = gaps
                .iter()
                .filter(|g| g.is_positive())
                .fold(Q::zero(), |acc, g| acc + g * g);
            let exact = if apart.is_zero() {
                // Overlapping: least overlap over the three axes (cross axes of parallel edges
                // add nothing for aligned boxes).
                let least = gaps.iter().max().unwrap();
                num_traits::ToPrimitive::to_f64(least).unwrap()
            } else {
                sqrt_to_f64(&apart)
            };
            assert!(
                (ours.distance - exact).abs() <= 1e-13 * magnitude
                    || (exact.abs() <= 1e-13 * magnitude && ours.distance == 0.0),
                "{a:?} {b:?}: ours {} exact {exact}",
                ours.distance
            );
            assert_witnesses(&a.into(), &b.into(), &ours, 1e-13);
        }
    }
}

// ---- rotated boxes: projections and dense directions ----------------------------------------

#[test]
fn rotated_boxes_against_every_shape_match_independent_oracles() {
    let mut rng = common::rng(1103);
    let (mut apart, mut overlapping) = (0, 0);
    for &(size, offset) in &SCALES {
        for _ in 0..300 {
            let origin = scale(unit(&mut rng), offset);
            let boxed = Shape::Box(random_box(&mut rng, size, origin));
            let other = random_partner(&mut rng, size, origin);
            for (a, b) in [(boxed, other), (other, boxed)] {
                let ours = shape_shape(&a, &b);
                let magnitude = a.magnitude().max(b.magnitude());
                let (sa, sb) = (Solid::from_shape(&a), Solid::from_shape(&b));
                let cylinder = matches!(a, Shape::Cylinder(_)) || matches!(b, Shape::Cylinder(_));
                let oracle = oracle_distance(&sa, &sb);
                assert_witnesses(&a, &b, &ours, if cylinder { 1e-6 } else { 1e-12 });
                if oracle > 1e-9 * magnitude {
                    // Apart: our value lies in the independent certificate's interval and
                    // matches the projections.
                    let (lower, upper) = if cylinder {
                        // Witnesses are within 1e-6 of their shapes (checked above).
                        (
                            gap(&sa, &sb, ours.normal.into()),
                            (ours.point_b - ours.point_a).norm(),
                        )
                    } else {
                        certify_apart(&sa, &sb, &ours)
                    };
                    assert!(ours.distance > 0.0, "{a:?} {b:?} {ours:?} oracle {oracle}");
                    assert!(
                        (ours.distance - oracle).abs() <= 1e-9 * magnitude
                            && ours.distance <= upper + 1e-12 * magnitude
                            && lower <= ours.distance + 1e-12 * magnitude,
                        "{a:?} {b:?} {ours:?} oracle {oracle} [{lower}, {upper}]"
                    );
                    apart += 1;
                } else if oracle == 0.0 {
                    // A common point found: contact, with the depth as the best gap.
                    assert!(ours.distance <= 0.0, "{a:?} {b:?} {ours:?}");
                    let best = best_gap(&sa, &sb);
                    let along = gap(&sa, &sb, ours.normal.into());
                    assert!(
                        (along - ours.distance).abs() <= 1e-9 * magnitude,
                        "our normal does not realise our depth: {a:?} {b:?} {ours:?} {along}"
                    );
                    // Realised along our normal (so a lower bound on the signed distance: never
                    // shallower than the truth) and no worse than the dense search — exact
                    // kernels to rounding, the conservative cylinder–box to 1e-6.
                    let slack = if cylinder { 1e-6 } else { 1e-9 };
                    assert!(
                        ours.distance >= best - slack * magnitude,
                        "depth {a:?} {b:?} {ours:?} best gap {best}"
                    );
                    overlapping += 1;
                }
            }
        }
    }
    assert!(
        apart > 1000 && overlapping > 400,
        "{apart} apart, {overlapping} overlapping"
    );
}

#[test]
fn parry_agrees_on_box_pairs() {
    let mut rng = common::rng(1104);
    let mut checked = 0;
    for _ in 0..600 {
        let a = Shape::Box(random_box(&mut rng, 1.0, [0.0; 3]));
        let b = random_partner(&mut rng, 1.0, [0.0; 3]);
        let ours = shape_shape(&a, &b);
        let (pa, pb) = (to_parry(&a), to_parry(&b));
        if ours.distance > 1e-6 {
            let theirs = parry_distance(&pa, &pb);
            // parry's GJK stops at ~1e-6 relative on curved shapes (cylinders); ours agree
            // with the projection oracle and the exact rationals there (tests above).
            // The same holds for its capsule and ball pairs against boxes (4e-7 seen).
            let curved = matches!(b, Shape::Cylinder(_) | Shape::Capsule(_) | Shape::Sphere(_));
            let tolerance = if curved { 1e-5 } else { 1e-9 };
            assert!(
                (ours.distance - theirs).abs() <= tolerance * (1.0 + theirs),
                "{a:?} {b:?}: ours {} parry {theirs}",
                ours.distance
            );
            checked += 1;
        } else if ours.distance < -1e-6 && !matches!(b, Shape::Cylinder(_)) {
            let contact =
                parry3d_f64::query::contact(&pa.0, pa.1.as_ref(), &pb.0, pb.1.as_ref(), 0.0)
                    .unwrap()
                    .expect("parry sees the contact");
            assert!(
                (ours.distance - contact.dist).abs() <= 1e-6,
                "{a:?} {b:?}: ours {} parry {}",
                ours.distance,
                contact.dist
            );
            checked += 1;
        }
    }
    assert!(checked > 400, "{checked}");
}

// ---- adversarial cases ---------------------------------------------------------------------

fn unit_cube() -> OrientedBox {
    OrientedBox::axis_aligned(Point3::origin(), Vector3::new(1.0, 1.0, 1.0)).unwrap()
}

#[test]
fn touching_face_edge_and_vertex_are_contact() {
    let cube = unit_cube();
    let q = std::f64::consts::FRAC_PI_4;
    for (other, what) in [
        // Face on face, offset.
        (
            OrientedBox::axis_aligned(Point3::new(2.0, 0.3, -0.4), Vector3::new(1.0, 1.0, 1.0)),
            "face-face",
        ),
        // Edge on face: turned 45° about y, its lower edge on the top face.
        (
            OrientedBox::from_rpy(
                Point3::new(0.2, 0.0, 1.0 + 2f64.sqrt()),
                [0.0, q, 0.0],
                Vector3::new(1.0, 1.0, 1.0),
            ),
            "edge-face",
        ),
    ] {
        let other = other.unwrap();
        let r = shape_shape(&cube.into(), &other.into());
        assert!(r.distance.abs() <= 1e-15, "{what}: {r:?}");
        assert!(r.distance <= 0.0 || r.distance < 1e-15, "{what}");
    }
    // Vertex on vertex along the diagonal.
    let s = 1.0 + 1e-12;
    let corner = OrientedBox::axis_aligned(Point3::new(2.0, 2.0, 2.0), Vector3::new(1.0, 1.0, 1.0));
    assert_eq!(
        shape_shape(&cube.into(), &corner.unwrap().into()).distance,
        0.0
    );
    let near =
        OrientedBox::axis_aligned(Point3::new(2.0 * s, 2.0, 2.0), Vector3::new(1.0, 1.0, 1.0));
    assert!(shape_shape(&cube.into(), &near.unwrap().into()).distance > 0.0);
    // A point on an edge, a sphere touching a vertex.
    assert_eq!(
        shape_shape(&Point3::new(1.0, 1.0, 0.3).into(), &cube.into()).distance,
        0.0
    );
    let ball = Sphere::new(Point3::new(2.0, 2.0, 2.0), 3f64.sqrt()).unwrap();
    assert!(shape_shape(&ball.into(), &cube.into()).distance.abs() < 1e-15);
}

#[test]
fn segments_parallel_to_faces_and_nested_shapes() {
    let cube = unit_cube();
    // Parallel to the top face, 0.5 above, longer than the face.
    let s = Segment::new(Point3::new(-5.0, 0.2, 1.5), Point3::new(5.0, 0.2, 1.5)).unwrap();
    let r = shape_shape(&s.into(), &cube.into());
    assert_eq!(r.distance, 0.5);
    assert!(r.point_a.x.abs() <= 1.0, "{r:?}");
    // Lying in the top face: contact at depth 0.
    let s = Segment::new(Point3::new(-5.0, 0.2, 1.0), Point3::new(5.0, 0.2, 1.0)).unwrap();
    assert_eq!(shape_shape(&s.into(), &cube.into()).distance, 0.0);
    // Nested: a small box deep inside leaves through the nearest face of the big one.
    let inner = OrientedBox::from_rpy(
        Point3::new(0.5, 0.0, 0.0),
        [0.3, 0.2, 0.1],
        Vector3::new(0.1, 0.1, 0.1),
    )
    .unwrap();
    let r = shape_shape(&inner.into(), &cube.into());
    let reach = (0..3).map(|i| 0.1 * inner.axis(i).x.abs()).sum::<f64>();
    assert!((r.distance + (0.5 + reach)).abs() < 1e-14, "{r:?}");
    // A sphere containing the box: depth = distance to move it clear.
    let ball = Sphere::new(Point3::new(0.0, 0.0, 0.1), 5.0).unwrap();
    let r = shape_shape(&ball.into(), &cube.into());
    assert!((r.distance + (5.0 + 0.9)).abs() < 1e-14, "{r:?}");
}

#[test]
fn extreme_scales_are_rescaled_not_overflowed() {
    for k in [1e-200, 1e-150, 1e150, 1e200, 1e300] {
        let a = OrientedBox::axis_aligned(Point3::origin(), Vector3::new(k, k, k)).unwrap();
        let b = OrientedBox::from_rpy(
            Point3::new(3.0 * k, 0.0, 0.0),
            [0.0, 0.0, 0.5],
            Vector3::new(k, k, k),
        )
        .unwrap();
        let r = shape_shape(&a.into(), &b.into());
        assert!(r.distance > 0.0 && r.distance.is_finite(), "{k}: {r:?}");
        let c = Capsule::new(
            Point3::new(-3.0 * k, 0.0, 0.5 * k),
            Point3::new(3.0 * k, 0.0, 0.5 * k),
            0.1 * k,
        )
        .unwrap();
        let r = shape_shape(&c.into(), &a.into());
        assert!((r.distance / k + 0.6).abs() < 1e-12, "{k}: {r:?}");
        let floor = Plane::new(Point3::new(0.0, 0.0, -k), Vector3::z()).unwrap();
        let r = shape_shape(&floor.into(), &a.into());
        assert!(r.distance.abs() <= 1e-15 * k, "{k}: {r:?}");
    }
}

#[test]
fn half_spaces_against_every_shape_are_exact() {
    let mut rng = common::rng(1105);
    for &(size, offset) in &SCALES {
        for _ in 0..200 {
            let origin = scale(unit(&mut rng), offset);
            let plane = Plane::new(
                pt(add(origin, scale(point_in_box(&mut rng, 1.0), size))),
                unit(&mut rng).into(),
            )
            .unwrap();
            let other = random_partner(&mut rng, size, origin);
            let r = shape_shape(&plane.into(), &other);
            // Independent: the lowest point of the solid along −n is its support along −n.
            let solid = Solid::from_shape(&other);
            let n: P = plane.normal().into();
            let lowest = -solid.support(scale(n, -1.0));
            let expected =
                lowest - norm(scale(n, 1.0)) * 0.0 - plane.normal().dot(&plane.point().coords);
            let magnitude = other.magnitude().max(plane.magnitude());
            assert!(
                (r.distance - expected).abs() <= 1e-13 * magnitude
                    || (expected.abs() <= 1e-13 * magnitude && r.distance == 0.0),
                "{plane:?} {other:?} {r:?} expected {expected}"
            );
            assert!(((r.point_b - r.point_a) - r.normal * r.distance).norm() <= 1e-13 * magnitude);
            assert!(plane.height(&r.point_a).abs() <= 1e-13 * magnitude);
            let flipped = shape_shape(&other, &plane.into());
            assert_eq!(flipped.distance, r.distance);
        }
    }
}

#[test]
fn symmetric_under_swapping() {
    let mut rng = common::rng(1106);
    for _ in 0..500 {
        let a = Shape::Box(random_box(&mut rng, 1.0, [0.0; 3]));
        let b = random_partner(&mut rng, 1.0, [0.0; 3]);
        let (x, y) = (shape_shape(&a, &b), shape_shape(&b, &a));
        let tolerance = if matches!(b, Shape::Cylinder(_)) {
            1e-7
        } else {
            1e-13
        };
        assert!(
            (x.distance - y.distance).abs() <= tolerance,
            "{a:?} {b:?}: {} vs {}",
            x.distance,
            y.distance
        );
    }
}

/// Found by fuzzing: a flat box (a half-extent of 0) facing a point-like box face-on indexed an
/// empty corner list (the corners' signs on a zero half-extent say nothing).
#[test]
fn fuzz_flat_box_face_against_a_point_box() {
    let flat = OrientedBox::from_rpy(
        Point3::new(-1.618996718674682e89, -7.7e-163, 7.6e-311),
        [9.8e-292, 6.8e-292, 1.3e-291],
        Vector3::new(
            2.8478313555457475e18,
            2.8483943054992686e18,
            2.462078764422541e-23,
        ),
    )
    .unwrap();
    let tiny = OrientedBox::from_rpy(
        Point3::new(-9.8e-292, -9.8e-292, -9.8e-292),
        [9.8e-292; 3],
        Vector3::new(9.8e-292, 9.8e-292, 9.8e-292),
    )
    .unwrap();
    let r = shape_shape(&flat.into(), &tiny.into());
    assert!(r.distance.is_finite() && r.distance > 0.0, "{r:?}");
    let flat = OrientedBox::axis_aligned(Point3::origin(), Vector3::new(1.0, 1.0, 0.0)).unwrap();
    let above =
        OrientedBox::axis_aligned(Point3::new(0.2, 0.1, 2.0), Vector3::new(0.5, 0.5, 0.5)).unwrap();
    assert!((shape_shape(&flat.into(), &above.into()).distance - 1.5).abs() < 1e-15);
}

/// Found by fuzzing: two half-spaces with almost equal normals put the point where their planes
/// meet beyond the floats (infinite witnesses).
#[test]
fn fuzz_nearly_parallel_half_spaces_have_finite_witnesses() {
    let a = Plane::new(
        Point3::new(-1.7e-18, -2e-16, -4e-16),
        Vector3::new(-1.0, -3.203441008668953e-145, -3.2033320917385004e-145),
    )
    .unwrap();
    let b = Plane::new(
        Point3::new(-1.9919728939722872e130, -4e-16, -3.9e-16),
        Vector3::new(-1.0, -3.203333756242958e-145, -5.126837673765006e-144),
    )
    .unwrap();
    let r = shape_shape(&a.into(), &b.into());
    assert_eq!(r.distance, -Real::MAX);
    assert!(
        r.point_a
            .iter()
            .chain(r.point_b.iter())
            .all(|c| c.is_finite()),
        "{r:?}"
    );
}

/// Found by fuzzing: boxes 1e93 apart, certified along a face normal 4.7e-11 rad off the
/// witnesses' direction; witnesses placed along the normal landed 3e82 off the boxes.
#[test]
fn fuzz_far_apart_boxes_keep_their_witnesses_on_them() {
    let a = OrientedBox::new(
        Point3::new(
            -2.84839262389325e18,
            -2.8483943054991857e18,
            -2.84839307050274e18,
        ),
        robocollide::math::Matrix3::new(
            1.0,
            4.673732773346059e-11,
            -2.5166253394940315e-11,
            -4.6737327732555816e-11,
            1.0,
            3.595179056420045e-11,
            2.5166253396620606e-11,
            -3.595179056302425e-11,
            1.0,
        ),
        Vector3::new(
            2.8478313555458473e18,
            43463047874439.52,
            2.8483943054992686e18,
        ),
    )
    .unwrap();
    let b = OrientedBox::axis_aligned(
        Point3::new(
            -1.173587906555227e93,
            -2.7763367069137285e18,
            9537353848.470587,
        ),
        Vector3::new(
            1.112653570824439e16,
            3.1260279766454028e16,
            3.7535420736179905e-64,
        ),
    )
    .unwrap();
    let (a, b) = (Shape::Box(a), Shape::Box(b));
    let r = shape_shape(&a, &b);
    assert_on_their_shapes(&a, &b, &r);
}

/// Found by fuzzing: a capsule 1e154 long, 1.5e144 from a box (1e-10 of the magnitude), was
/// measured as touching; the separating-axis witnesses then left the capsule by 1.7e143.
#[test]
fn fuzz_long_capsule_close_to_a_box_in_relative_terms() {
    let capsule = Capsule::new(
        Point3::new(6.8881681803508e-309, 5.8e-316, -1.5120969547634338e144),
        Point3::new(0.0, 4.18e-312, -6.6776145341646385e153),
        2.21956173400404e-225,
    )
    .unwrap();
    let m = robocollide::math::Matrix3::new(
        -0.8599153183364275,
        -0.4632960662126667,
        0.21424845465540435,
        0.4600122050503474,
        -0.8852994149947967,
        -0.06807141113997812,
        0.22121124857266566,
        0.04002125487461779,
        0.9744043732779443,
    );
    let h = 4.746364294084124e-224;
    let b = OrientedBox::new(
        Point3::new(-h, -h, -h),
        m,
        Vector3::new(h, h, 1.3593067098035547e27),
    )
    .unwrap();
    let (a, b) = (Shape::Capsule(capsule), Shape::Box(b));
    let r = shape_shape(&a, &b);
    assert!(r.distance > 1.5e144, "{r:?}");
    assert_on_their_shapes(&a, &b, &r);
}

/// Each witness within `1e-11 ×` magnitude of its shape (measured by robocollide's own point
/// queries, exact for boxes and capsules).
fn assert_on_their_shapes(a: &Shape, b: &Shape, r: &Separation) {
    let magnitude = a.magnitude().max(b.magnitude());
    for (p, s) in [(r.point_a, a), (r.point_b, b)] {
        let off = shape_shape(&Shape::Point(p), s).distance;
        assert!(off.abs() <= 1e-11 * magnitude, "{off:e} {r:?}");
    }
}

/// Found by fuzzing: a point 1e-3 from a needle-thin box 1.2e6 long took its normal from the
/// nearest face while its witnesses followed the exact excess vector
/// (`point_b − point_a ≠ distance · normal` by 6.5e-4).
#[test]
fn fuzz_point_near_a_needle_box_keeps_the_witness_identity() {
    let m = robocollide::math::Matrix3::new(
        0.9999999999963395,
        -2.382313490600047e-6,
        1.2827898187566979e-6,
        2.382315841371399e-6,
        0.9999999999954832,
        -1.8325475912056778e-6,
        -1.282785453048055e-6,
        1.8325506472094762e-6,
        0.9999999999974981,
    );
    let needle = OrientedBox::new(
        Point3::new(1.2e-321, 0.0, 480.000244140625),
        m,
        Vector3::new(0.0, 3.5e-310, 1228478.7450869083),
    )
    .unwrap();
    let (a, b) = (
        Shape::Point(Point3::new(0.0, 4.65661488537833e-10, 0.0)),
        Shape::Box(needle),
    );
    let r = shape_shape(&a, &b);
    let magnitude = a.magnitude().max(b.magnitude());
    assert!(
        ((r.point_b - r.point_a) - r.normal * r.distance).norm() <= 1e-13 * magnitude,
        "{r:?}"
    );
    assert_on_their_shapes(&a, &b, &r);
}

/// Found by fuzzing: a segment touching a flat box within rounding at 1e18 m took witnesses
/// from alternating projections that stopped 3 % of the magnitude off the segment.
#[test]
fn fuzz_segment_touching_a_flat_box_far_out_has_witnesses_on_both() {
    let m = robocollide::math::Matrix3::new(
        1.0,
        -1.1460483527530623e-305,
        6.171029591747258e-306,
        1.1460483527530623e-305,
        1.0,
        -8.81575655963894e-306,
        -6.171029591747258e-306,
        8.81575655963894e-306,
        1.0,
    );
    let flat = OrientedBox::new(
        Point3::new(
            -589855622955008.0,
            -2.8483943054991857e18,
            -2.84839307050274e18,
        ),
        m,
        Vector3::new(
            2.8483943054991375e18,
            2.8483943054992686e18,
            8.815756559680955e-306,
        ),
    )
    .unwrap();
    let segment = Segment::new(
        Point3::new(
            -2.8483931413104896e18,
            -5.727450673855576e-69,
            -2.8483943054992686e18,
        ),
        Point3::new(
            -6126220081349571.0,
            7.11632508782656e-310,
            -562949953423392.0,
        ),
    )
    .unwrap();
    let (a, b) = (Shape::Box(flat), Shape::Segment(segment));
    let r = shape_shape(&a, &b);
    assert!(r.distance <= 0.0, "{r:?}");
    assert_on_their_shapes(&a, &b, &r);
}

/// Found by fuzzing: two opposite half-spaces a rounding error apart gave "apart" one way and
/// "contact" the other; the slab is now measured along one shared direction.
#[test]
fn fuzz_opposite_half_spaces_agree_both_ways() {
    let mut rng = common::rng(1107);
    for _ in 0..2000 {
        let n = unit(&mut rng);
        let tilt = scale(unit(&mut rng), 1e-13);
        let p = scale(
            point_in_box(&mut rng, 1.0),
            10f64.powi(rng.random_range(-6..=6)),
        );
        let q = add(p, scale(n, uniform(&mut rng, -1e-15, 1e-15)));
        let a = Plane::new(pt(p), n.into()).unwrap();
        let b = Plane::new(pt(q), -Vector3::from(n) + Vector3::from(tilt)).unwrap();
        let (x, y) = (
            shape_shape(&a.into(), &b.into()),
            shape_shape(&b.into(), &a.into()),
        );
        assert_eq!(x.distance, y.distance, "{a:?} {b:?}");
    }
}

/// Found by CI's fuzz pass: half-spaces opposite to within 8e-10 rad, their points 1e191
/// apart sideways: a's witness was off its plane by the slab's tilt times that offset.
#[test]
fn fuzz_nearly_opposite_half_spaces_far_apart_keep_witnesses_on_their_planes() {
    let a = Plane::new(
        Point3::new(
            -1.8484435356952542e-6,
            2.09245407614984e-110,
            -1.6189967186747512e89,
        ),
        Vector3::new(-1.211161816955363e-301, 0.0, -1.0),
    )
    .unwrap();
    let b = Plane::new(
        Point3::new(1.0958803444268509e191, 1.3034964219016732e190, 1.30784e-319),
        Vector3::new(8.268046921161842e-19, 8.15119612023279e-10, 1.0),
    )
    .unwrap();
    let r = shape_shape(&a.into(), &b.into());
    let magnitude = a.magnitude().max(b.magnitude());
    assert!(a.height(&r.point_a).abs() <= 1e-13 * magnitude, "{r:?}");
    assert!(b.height(&r.point_b).abs() <= 1e-13 * magnitude, "{r:?}");
    // Scaled before the norm, which would overflow.
    let off = (((r.point_b - r.point_a) - r.normal * r.distance) / magnitude).norm();
    assert!(off <= 1e-13, "{off:e} {r:?}");
    assert_eq!(shape_shape(&b.into(), &a.into()).distance, r.distance);
}
