//! The Franka Panda (VAMP's 59 spheres, MoveIt SRDF: 690 self pairs): forward kinematics plus a
//! full self-collision check per configuration, over 1024 random configurations within the
//! joint limits (VAMP's reference set, `tests/data/vamp_panda_reference.json`, 200 of them,
//! cycled).
//!
//! Run: `cargo bench -p robocollide --features urdf --bench panda`.
//! Baseline in the same run: the same posed sphere pairs through parry3d-f64's
//! `query::distance` (all 690 pairs, FK excluded).

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use robocollide::collision::CellChecker;
use robocollide::math::Real;
use robocollide::robot::Cell;
use robocollide::robot::urdf::{UrdfOptions, load_urdf};

#[path = "../tests/common/parry.rs"]
mod parry;

fn panda_cell() -> Cell {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/robots/panda");
    let model = load_urdf(
        &folder.join("panda_spherized.urdf"),
        Some(&folder.join("panda.srdf")),
        &UrdfOptions::default(),
    )
    .unwrap();
    Cell::single(model)
}

fn configurations() -> Vec<Vec<Real>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/vamp_panda_reference.json");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let qs: Vec<Vec<Real>> = json["configs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            c["q"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap())
                .collect()
        })
        .collect();
    (0..1024).map(|k| qs[k % qs.len()].clone()).collect()
}

fn self_check(c: &mut Criterion) {
    let cell = panda_cell();
    let qs = configurations();
    let mut group = c.benchmark_group("panda_self_check");
    group.throughput(Throughput::Elements(qs.len() as u64));
    let mut checker = CellChecker::new(&cell, true);
    group.bench_function("robocollide (FK + closest of 690 pairs)", |b| {
        b.iter(|| {
            let mut total = 0.0;
            for q in &qs {
                checker.pose(black_box(q));
                total += checker.closest().map_or(0.0, |c| c.distance);
            }
            total
        })
    });
    group.bench_function("robocollide (FK + any contact, 690 pairs)", |b| {
        b.iter(|| {
            let mut hits = 0;
            for q in &qs {
                checker.pose(black_box(q));
                hits += usize::from(checker.in_contact());
            }
            hits
        })
    });
    let posed = parry::posed_pairs(&mut checker, &qs);
    group.bench_function("parry3d-f64 (690 pairs, distance only, FK excluded)", |b| {
        b.iter(|| parry::sum_of_minima(&posed))
    });
    group.finish();
}

criterion_group!(benches, self_check);
criterion_main!(benches);
