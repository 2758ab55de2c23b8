//! A 6R arm (the shipped UR5 at its precise level, 13 bodies) in a world of 50 boxes: posing,
//! every robot–world pair, and the closest pair with its witnesses, per configuration, over 256
//! random configurations (seeded). The boxes (0.05–0.25 m half-extents, random orientations)
//! are spread over a 3 m × 3 m × 1.5 m cell around the arm; some configurations touch them.
//!
//! The same arm with its capsules turned into flat-capped cylinders (as a URDF's `<cylinder>`
//! is imported), against the same boxes: cylinder–box pairs, whose depth has no closed form.
//!
//! Run: `cargo bench -p robocollide --bench world`.
//! Baseline in the same run: the same posed pairs through parry3d-f64's `query::distance`
//! (posing excluded, no witnesses).

use std::fmt::Write;
use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use robocollide::collision::CellChecker;
use robocollide::math::Real;
use robocollide::robot::{BodyShape, Cell};

#[path = "../tests/common/parry.rs"]
mod parry;

/// The UR5 (precise) and 50 boxes, as a cell file.
fn world_cell() -> Cell {
    let mut rng = ChaCha8Rng::seed_from_u64(50);
    let mut text = String::from(
        "name = \"UR5 among 50 boxes\"\n[[robots]]\nlabel = \"R1\"\nmodel = \"ur5.toml\"\nlevel = \"precise\"\n",
    );
    for k in 0..50 {
        let c = [
            rng.random_range(-1.5..1.5),
            rng.random_range(-1.5..1.5),
            rng.random_range(0.0..1.5),
        ];
        let h = [0; 3].map(|_| rng.random_range(0.05..0.25));
        let rpy = [0; 3].map(|_| rng.random_range(-3.1..3.1));
        writeln!(
            text,
            "[[obstacles]]\nname = \"box{k}\"\nbox = {{ center = {c:?}, half_extents = {h:?}, rpy = {rpy:?} }}"
        )
        .unwrap();
    }
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/robots");
    Cell::parse(&text, "world.toml", &folder).unwrap()
}

/// [`world_cell`] with the arm's capsules as cylinders of the same axes and radii.
fn cylinder_world_cell() -> Cell {
    let mut cell = world_cell();
    for body in &mut cell.robots[0].model.bodies {
        if let BodyShape::Capsule { a, b, radius } = body.shape {
            body.shape = BodyShape::Cylinder { a, b, radius };
        }
    }
    cell
}

/// The arm of `cell` at 256 seeded configurations, in criterion group `name`: the closest
/// pair with its witnesses, any contact, and parry's distances of the same posed pairs.
fn bench_cell(c: &mut Criterion, name: &str, cell: &Cell) {
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let qs: Vec<Vec<Real>> = (0..256)
        .map(|_| (0..6).map(|_| rng.random_range(-3.1..3.1)).collect())
        .collect();
    let mut checker = CellChecker::new(cell, false);
    let pairs = checker.pairs().len();
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(qs.len() as u64));
    group.bench_function(
        format!("robocollide (pose + closest of {pairs} pairs + witnesses)"),
        |b| {
            b.iter(|| {
                let mut total = 0.0;
                for q in &qs {
                    checker.pose(black_box(q));
                    if let Some(closest) = checker.closest() {
                        total += checker.separation(closest.pair).point_a.x;
                    }
                }
                total
            })
        },
    );
    group.bench_function(
        format!("robocollide (pose + any contact, {pairs} pairs)"),
        |b| {
            b.iter(|| {
                let mut hits = 0;
                for q in &qs {
                    checker.pose(black_box(q));
                    hits += usize::from(checker.in_contact());
                }
                hits
            })
        },
    );
    let posed = parry::posed_pairs(&mut checker, &qs);
    group.bench_function(
        format!("parry3d-f64 ({pairs} pairs, distance only, posing excluded)"),
        |b| b.iter(|| parry::sum_of_minima(&posed)),
    );
    group.finish();
}

fn world_check(c: &mut Criterion) {
    bench_cell(c, "ur5_50_boxes", &world_cell());
    bench_cell(c, "ur5_cylinders_50_boxes", &cylinder_world_cell());
}

criterion_group!(benches, world_check);
criterion_main!(benches);
