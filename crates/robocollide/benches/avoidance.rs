//! One velocity-filter step for two 6R robots (the shipped UR5 + IRB 120 cell) in a
//! configuration where the arms are close (several constraints), with robot–robot pairs only
//! (`robocollide avoid`'s default) and with self-collision pairs too, beside the unfiltered
//! bookkeeping (posing and the pair search only) as baseline.
//!
//! Run: `cargo bench -p robocollide --features control --bench avoidance`.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use robocollide::collision::CellChecker;
use robocollide::control::{FilterSettings, VelocityFilter};
use robocollide::math::Real;
use robocollide::robot::Cell;

fn filter_step(c: &mut Criterion) {
    let cell =
        Cell::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/cells/ur5_irb120.toml"))
            .unwrap();
    let settings = FilterSettings {
        influence: 0.15,
        safety: 0.03,
        max_approach: 0.5,
        dt: 0.01,
        max_joint_speed: 1.5,
        form: robocollide::control::ConstraintForm::Damped,
    };
    // Arms 5–10 cm apart (from the avoid scenario), commanded towards each other.
    let q: Vec<Real> = [
        150.0, -55.0, 50.0, -90.0, 0.0, 0.0, 0.0, 25.0, 0.0, 0.0, 0.0, 0.0,
    ]
    .iter()
    .map(|d: &Real| d.to_radians())
    .collect();
    let towards = [1.0, 0.5, 0.8, 0.0, 0.0, 0.0, 0.0, 0.4, 0.0, 0.0, 0.0, 0.0];
    // Every joint driven at the speed limit, alternating signs: more constraints bind.
    let every_joint: Vec<Real> = (0..12)
        .map(|j| if j % 2 == 0 { 1.5 } else { -1.5 })
        .collect();
    let mut group = c.benchmark_group("velocity_filter_step");
    for (include_self, command, desired) in [
        (false, "towards", &towards[..]),
        (true, "towards", &towards[..]),
        (true, "every joint", &every_joint[..]),
    ] {
        let mut filter =
            VelocityFilter::new(&cell, include_self, vec![true, true], settings).unwrap();
        let pairs = filter.step(&q, desired).unwrap().pairs;
        let binding = pairs.iter().filter(|p| p.active).count();
        let scope = if include_self {
            "robot-robot + self pairs"
        } else {
            "robot-robot pairs"
        };
        group.bench_function(
            format!(
                "{scope}, {command}: {} pair constraints ({binding} binding) + 24 bounds",
                pairs.len()
            ),
            |b| b.iter(|| filter.step(black_box(&q), black_box(desired)).unwrap().qdot[0]),
        );
    }
    let mut checker = CellChecker::new(&cell, true);
    group.bench_function("baseline: pose + closest pair only", |b| {
        b.iter(|| {
            checker.pose(black_box(&q));
            checker.closest().unwrap().distance
        })
    });
    group.finish();
}

criterion_group!(benches, filter_step);
criterion_main!(benches);
