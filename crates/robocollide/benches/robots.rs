//! Robot-level speed: one robot–robot check of two 6R arms (standard model) and a
//! one-million-sample sweep on one core and on all cores.
//!
//! Run: `cargo bench -p robocollide --features parallel --bench robots`.
//! Baseline in the same run: the same posed body pairs measured with parry3d-f64's
//! `query::distance` (all 49 pairs, no pruning, no witness points).

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use robocollide::collision::{CellChecker, SweepMode, Trajectory, sweep};
use robocollide::math::{Isometry3, Real, Vector3};
use robocollide::robot::model_file::load_robot;
use robocollide::robot::{Cell, CellRobot, DetailLevel};

#[path = "../tests/common/parry.rs"]
mod parry;

/// Two UR5s (standard model: 4 spheres + 3 capsules each), 0.8 m apart, facing each other.
fn cell() -> Cell {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/robots/ur5.toml");
    let model = load_robot(&path, Some(DetailLevel::Standard)).unwrap();
    let mut second = model.clone();
    second
        .set_base(Isometry3::new(
            Vector3::new(0.8, 0.0, 0.0),
            Vector3::new(0.0, 0.0, std::f64::consts::PI),
        ))
        .unwrap();
    let robots = vec![
        CellRobot {
            label: "R1".into(),
            model,
            home: vec![0.0; 6],
        },
        CellRobot {
            label: "R2".into(),
            model: second,
            home: vec![0.0; 6],
        },
    ];
    Cell {
        name: "two UR5".into(),
        robots,
        threshold: 0.0,
        units: Default::default(),
        trajectory: None,
        allowed: Vec::new(),
    }
}

fn configs(n: usize) -> Vec<Vec<Real>> {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    (0..n)
        .map(|_| (0..12).map(|_| rng.random_range(-3.1..3.1)).collect())
        .collect()
}

fn robot_robot(c: &mut Criterion) {
    let cell = cell();
    let qs = configs(1024);
    let mut group = c.benchmark_group("robot_robot_check");
    group.throughput(Throughput::Elements(qs.len() as u64));
    let mut checker = CellChecker::new(&cell, false);
    group.bench_function("robocollide (FK, 49 pairs, min + witness)", |b| {
        b.iter(|| {
            let mut total = 0.0;
            for q in &qs {
                checker.pose(black_box(q));
                let closest = checker.closest().unwrap();
                total += checker.separation(closest.pair).point_a.x;
            }
            total
        })
    });
    // Baseline: the same posed pairs through parry3d-f64 (distance only).
    let posed = parry::posed_pairs(&mut checker, &qs);
    group.bench_function("parry3d-f64 (49 pairs, distance only, FK excluded)", |b| {
        b.iter(|| parry::sum_of_minima(&posed))
    });
    group.finish();
}

fn sweep_million(c: &mut Criterion) {
    let cell = cell();
    let n = 1_000_000;
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    // A smooth random walk: consecutive samples close together, as a real trajectory.
    let mut q: Vec<Real> = vec![0.0; 12];
    let configs: Vec<Vec<Real>> = (0..n)
        .map(|_| {
            for v in q.iter_mut() {
                *v = (*v + rng.random_range(-0.01..0.01)).clamp(-3.0, 3.0);
            }
            q.clone()
        })
        .collect();
    let trajectory =
        Trajectory::new(vec![], (0..n).map(|i| i as Real * 1e-3).collect(), configs).unwrap();
    let mut group = c.benchmark_group("sweep_1M_samples");
    group.sample_size(10);
    group.throughput(Throughput::Elements(n as u64));
    group.bench_function("one core", |b| {
        b.iter(|| {
            let mut checker = CellChecker::new(&cell, false);
            sweep(&mut checker, &trajectory, SweepMode::Sampled, |_, _| {})
                .unwrap()
                .evaluations
        })
    });
    #[cfg(feature = "parallel")]
    group.bench_function(
        format!("rayon, {} threads", rayon::current_num_threads()),
        |b| {
            b.iter(|| {
                robocollide::collision::sweep_parallel(
                    &cell,
                    false,
                    &trajectory,
                    SweepMode::Sampled,
                    &|_, _| {},
                )
                .unwrap()
                .evaluations
            })
        },
    );
    group.finish();
}

/// The shipped demo cell (UR5 + IRB 120 at the precise level, self pairs, the table): pose and
/// closest pair per configuration, what the Python package's `Cell.check_many` runs per row.
fn demo_cell_closest(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/cells/ur5_irb120.toml");
    let cell = Cell::load(&path).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let qs: Vec<Vec<Real>> = (0..10_000)
        .map(|_| {
            (0..cell.dof())
                .map(|_| rng.random_range(-3.1..3.1))
                .collect()
        })
        .collect();
    let mut group = c.benchmark_group("demo_cell_closest");
    group.throughput(Throughput::Elements(qs.len() as u64));
    let mut checker = CellChecker::new(&cell, true);
    group.bench_function("robocollide (pose + closest, 282 pairs, one core)", |b| {
        b.iter(|| {
            let mut total = 0.0;
            for q in &qs {
                checker.pose(black_box(q));
                total += checker.closest().map_or(0.0, |c| c.distance);
            }
            total
        })
    });
    group.finish();
}

criterion_group!(benches, robot_robot, sweep_million, demo_cell_closest);
criterion_main!(benches);
