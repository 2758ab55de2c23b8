//! Pair-query speed against parry3d-f64 on identical random inputs, in the same run.
//!
//! Run: `cargo bench -p robocollide --bench queries`. Each group measures a batch of 1024
//! pairs (criterion reports the time per batch and the throughput in pairs per second).
//! Inputs: shapes in a 2 m box, radii 0.05–0.3 m, segment lengths up to 1 m (a mix of apart
//! and overlapping pairs, seeded). Every number of each answer is summed ([`whole`]), so that
//! the witness points and normal are computed even where the kernel is inlined.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use robocollide::geom::{Capsule, Cylinder, OrientedBox, Segment, Shape, Sphere};
use robocollide::math::{Point3, Vector3};
use robocollide::query::{
    Separation, box_box, capsule_box, capsule_capsule, cylinder_box, cylinder_cylinder,
    segment_segment, sphere_box, sphere_capsule,
};

#[path = "../tests/common/parry.rs"]
mod parry;

const BATCH: usize = 1024;

fn point(rng: &mut ChaCha8Rng) -> Point3 {
    Point3::new(
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
    )
}

fn axis(rng: &mut ChaCha8Rng) -> (Point3, Point3) {
    let a = point(rng);
    let d = Vector3::new(
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
    );
    (a, a + d.normalize() * rng.random_range(0.1..1.0))
}

fn shapes(kind: &str, rng: &mut ChaCha8Rng) -> Shape {
    let r = rng.random_range(0.05..0.3);
    match kind {
        "segment" => {
            let (a, b) = axis(rng);
            Segment::new(a, b).unwrap().into()
        }
        "sphere" => Sphere::new(point(rng), r).unwrap().into(),
        "capsule" => {
            let (a, b) = axis(rng);
            Capsule::new(a, b, r).unwrap().into()
        }
        "box" => {
            let rpy = [0; 3].map(|_| rng.random_range(-3.2..3.2));
            let half = Vector3::new(
                rng.random_range(0.05..0.4),
                rng.random_range(0.05..0.4),
                rng.random_range(0.05..0.4),
            );
            OrientedBox::from_rpy(point(rng), rpy, half).unwrap().into()
        }
        _ => {
            let (a, b) = axis(rng);
            Cylinder::new(a, b, r).unwrap().into()
        }
    }
}

fn bench_pair(
    c: &mut Criterion,
    name: &str,
    kind_a: &str,
    kind_b: &str,
    ours: fn(&Shape, &Shape) -> f64,
) {
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let pairs: Vec<(Shape, Shape)> = (0..BATCH)
        .map(|_| (shapes(kind_a, &mut rng), shapes(kind_b, &mut rng)))
        .collect();
    let parry_pairs: Vec<_> = pairs
        .iter()
        .map(|(a, b)| (parry::to_parry(a), parry::to_parry(b)))
        .collect();
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(BATCH as u64));
    group.bench_function("robocollide", |bench| {
        bench.iter(|| {
            pairs
                .iter()
                .map(|(a, b)| ours(black_box(a), black_box(b)))
                .sum::<f64>()
        })
    });
    group.bench_function("parry3d-f64", |bench| {
        bench.iter(|| {
            parry_pairs
                .iter()
                .map(|(a, b)| parry::parry_distance(black_box(a), black_box(b)))
                .sum::<f64>()
        })
    });
    group.finish();
}

/// All ten numbers of an answer, summed (the sum depends on each of them).
fn whole(s: &Separation) -> f64 {
    (s.distance + s.normal.sum()) + (s.point_a.coords.sum() + s.point_b.coords.sum())
}

fn segment_pair(a: &Shape, b: &Shape) -> f64 {
    match (a, b) {
        (Shape::Segment(a), Shape::Segment(b)) => whole(&segment_segment(a, b)),
        _ => unreachable!(),
    }
}
fn sphere_capsule_pair(a: &Shape, b: &Shape) -> f64 {
    match (a, b) {
        (Shape::Sphere(a), Shape::Capsule(b)) => whole(&sphere_capsule(a, b)),
        _ => unreachable!(),
    }
}
fn capsule_pair(a: &Shape, b: &Shape) -> f64 {
    match (a, b) {
        (Shape::Capsule(a), Shape::Capsule(b)) => whole(&capsule_capsule(a, b)),
        _ => unreachable!(),
    }
}
fn cylinder_pair(a: &Shape, b: &Shape) -> f64 {
    match (a, b) {
        (Shape::Cylinder(a), Shape::Cylinder(b)) => whole(&cylinder_cylinder(a, b)),
        _ => unreachable!(),
    }
}

fn sphere_box_pair(a: &Shape, b: &Shape) -> f64 {
    match (a, b) {
        (Shape::Sphere(a), Shape::Box(b)) => whole(&sphere_box(a, b)),
        _ => unreachable!(),
    }
}
fn capsule_box_pair(a: &Shape, b: &Shape) -> f64 {
    match (a, b) {
        (Shape::Capsule(a), Shape::Box(b)) => whole(&capsule_box(a, b)),
        _ => unreachable!(),
    }
}
fn box_box_pair(a: &Shape, b: &Shape) -> f64 {
    match (a, b) {
        (Shape::Box(a), Shape::Box(b)) => whole(&box_box(a, b)),
        _ => unreachable!(),
    }
}
fn cylinder_box_pair(a: &Shape, b: &Shape) -> f64 {
    match (a, b) {
        (Shape::Cylinder(a), Shape::Box(b)) => whole(&cylinder_box(a, b)),
        _ => unreachable!(),
    }
}

fn queries(c: &mut Criterion) {
    bench_pair(c, "segment_segment", "segment", "segment", segment_pair);
    bench_pair(
        c,
        "sphere_capsule",
        "sphere",
        "capsule",
        sphere_capsule_pair,
    );
    bench_pair(c, "capsule_capsule", "capsule", "capsule", capsule_pair);
    bench_pair(
        c,
        "cylinder_cylinder",
        "cylinder",
        "cylinder",
        cylinder_pair,
    );
    bench_pair(c, "sphere_box", "sphere", "box", sphere_box_pair);
    bench_pair(c, "capsule_box", "capsule", "box", capsule_box_pair);
    bench_pair(c, "box_box", "box", "box", box_box_pair);
    bench_pair(c, "cylinder_box", "cylinder", "box", cylinder_box_pair);
}

criterion_group!(benches, queries);
criterion_main!(benches);
