//! Seed 001's batched segment/circle checker over the blog's grid (n segments × k circles),
//! beside a per-pair baseline (the 3-D point–segment query called for every pair) in the same
//! run. Run: `cargo bench -p robocollide --bench planar`. The blog reports ≈ 12 µs at
//! n = k = 1 and ≈ 90 µs at n = 10, k = 15 (BQN); the target here is < 1 µs for the latter.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use robocollide::geom::Segment;
use robocollide::math::Point3;
use robocollide::planar::{Circle, Segment2, SegmentsCircles};
use robocollide::query::point_segment;

fn inputs(n: usize, k: usize, max_radius: f64) -> (Vec<Segment2>, Vec<Circle>) {
    // As in the blog: coordinates and radii uniform in [0, 10).
    let mut rng = ChaCha8Rng::seed_from_u64((n * 100 + k) as u64);
    let mut p = || [rng.random_range(0.0..10.0), rng.random_range(0.0..10.0)];
    let segments = (0..n).map(|_| Segment2 { a: p(), b: p() }).collect();
    let mut rng = ChaCha8Rng::seed_from_u64((n * 100 + k + 7) as u64);
    let circles = (0..k)
        .map(|_| Circle {
            center: [rng.random_range(0.0..10.0), rng.random_range(0.0..10.0)],
            radius: rng.random_range(0.0..max_radius),
        })
        .collect();
    (segments, circles)
}

fn grid(c: &mut Criterion) {
    let mut group = c.benchmark_group("segments_circles");
    // The blog's distribution (radii up to 10 m in a 10 m box: nearly every segment hits), then
    // a sparse one (radii below 1 m: most pairs are free, as in planning).
    for (n, k, max_radius) in [(1, 1, 10.0), (5, 8, 10.0), (10, 15, 10.0), (10, 15, 1.0)] {
        let (segments, circles) = inputs(n, k, max_radius);
        let set = SegmentsCircles::new(&circles).unwrap();
        let mut out = Vec::with_capacity(n);
        group.bench_function(format!("batched n={n} k={k} r<{max_radius}"), |b| {
            b.iter(|| {
                set.collisions(black_box(&segments), &mut out);
                out.len()
            })
        });
        let segments3: Vec<Segment> = segments
            .iter()
            .map(|s| {
                Segment::new(
                    Point3::new(s.a[0], s.a[1], 0.0),
                    Point3::new(s.b[0], s.b[1], 0.0),
                )
                .unwrap()
            })
            .collect();
        group.bench_function(
            format!("per-pair 3-D query n={n} k={k} r<{max_radius}"),
            |b| {
                b.iter(|| {
                    segments3
                        .iter()
                        .map(|s| {
                            circles.iter().any(|c| {
                                point_segment(
                                    &Point3::new(c.center[0], c.center[1], 0.0),
                                    black_box(s),
                                )
                                .distance
                                    <= c.radius
                            })
                        })
                        .filter(|&x| x)
                        .count()
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, grid);
criterion_main!(benches);
