//! Seed 001's batched segment/circle checker: the blog's 12 × 5 fixture with its published
//! answers, and random and near-tangent cases against exact rational arithmetic.

mod common;

use std::path::Path;

use common::exact::{V, point_segment_sq, q};
use rand::RngExt;
use robocollide::planar::{Circle, Segment2, SegmentsCircles};

#[derive(serde::Deserialize)]
struct Fixture {
    segments: Vec<[[f64; 2]; 2]>,
    circle_centers: Vec<[f64; 2]>,
    radius: Vec<f64>,
    expected: Vec<u8>,
}

#[test]
fn blog_fixture_gives_the_published_vector() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../data/fixtures/seed001_segments_circles.toml"),
    )
    .unwrap();
    let f: Fixture = toml::from_str(&text).unwrap();
    let circles: Vec<Circle> = f
        .circle_centers
        .iter()
        .zip(&f.radius)
        .map(|(c, r)| Circle {
            center: *c,
            radius: *r,
        })
        .collect();
    let set = SegmentsCircles::new(&circles).unwrap();
    let segments: Vec<Segment2> = f
        .segments
        .iter()
        .map(|[a, b]| Segment2 { a: *a, b: *b })
        .collect();
    let mut got = Vec::new();
    set.collisions(&segments, &mut got);
    let got: Vec<u8> = got.iter().map(|&b| u8::from(b)).collect();
    assert_eq!(got, f.expected);
    // Segment 10 touches circle 3 exactly.
    let mut clearances = Vec::new();
    set.clearances(&segments, &mut clearances);
    assert_eq!(clearances[9], 0.0);
}

/// Exact: does the segment meet the closed disc?
fn exact_collides(s: &Segment2, c: &Circle) -> bool {
    let d2 = point_segment_sq(
        &V::from([c.center[0], c.center[1], 0.0]),
        &V::from([s.a[0], s.a[1], 0.0]),
        &V::from([s.b[0], s.b[1], 0.0]),
    );
    d2 <= q(c.radius) * q(c.radius)
}

#[test]
fn random_and_near_tangent_cases_match_exact_arithmetic() {
    let mut rng = common::rng(0x2d);
    let mut mismatches_near_tangent = 0;
    for _ in 0..400 {
        let k = rng.random_range(1..16);
        let circles: Vec<Circle> = (0..k)
            .map(|_| Circle {
                center: [rng.random_range(-10.0..10.0), rng.random_range(-10.0..10.0)],
                radius: rng.random_range(0.1..4.0),
            })
            .collect();
        let set = SegmentsCircles::new(&circles).unwrap();
        for _ in 0..10 {
            let s = if rng.random_bool(0.5) {
                Segment2 {
                    a: [rng.random_range(-12.0..12.0), rng.random_range(-12.0..12.0)],
                    b: [rng.random_range(-12.0..12.0), rng.random_range(-12.0..12.0)],
                }
            } else {
                // A segment tangent (up to a tiny offset) to a random circle.
                let c = circles[rng.random_range(0..k)];
                let angle: f64 = rng.random_range(0.0..std::f64::consts::TAU);
                let (n, t) = ([angle.cos(), angle.sin()], [-angle.sin(), angle.cos()]);
                let offset = c.radius * (1.0 + rng.random_range(-1e-9..1e-9));
                let foot = [c.center[0] + n[0] * offset, c.center[1] + n[1] * offset];
                let (l1, l2) = (rng.random_range(-3.0..3.0), rng.random_range(-3.0..3.0));
                Segment2 {
                    a: [foot[0] + t[0] * l1, foot[1] + t[1] * l1],
                    b: [foot[0] + t[0] * l2, foot[1] + t[1] * l2],
                }
            };
            let exact = circles.iter().any(|c| exact_collides(&s, c));
            let got = set.collides(&s);
            // Never a false negative; a false positive only within rounding of touching.
            assert!(got || !exact, "missed a collision: {s:?}");
            if got != exact {
                assert!(
                    set.clearance(&s).abs() < 1e-12,
                    "false positive far from contact: {s:?}"
                );
                mismatches_near_tangent += 1;
            }
        }
    }
    assert!(
        mismatches_near_tangent < 40,
        "{mismatches_near_tangent} near-tangent disagreements"
    );
}
