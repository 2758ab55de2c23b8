//! One velocity-filter step for NAO with both arms protected (`Arms`: every pair between an
//! arm and the rest of the body, and between the arms), seed 002's setting, beside one
//! clarabel solve of the same step's whole QP (every constraint and bound at once) as the
//! baseline, and the posing + pair distances the step needs.
//!
//! Run: `cargo bench -p robocollide --features urdf,control --bench nao`.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use robocollide::control::{ConstraintForm, FilterSettings, VelocityFilter, solve_box_qp_whole};
use robocollide::math::Real;
use robocollide::robot::{CellOptions, CellSource};

fn nao_filter_step(c: &mut Criterion) {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/robots/nao");
    let options = CellOptions {
        srdf: Some(folder.join("nao.srdf")),
        ..CellOptions::default()
    };
    let cell = CellSource::read(&folder.join("nao.urdf"), &options)
        .unwrap()
        .1;
    let model = &cell.robots[0].model;
    let settings = FilterSettings {
        influence: 0.08,
        safety: 0.01,
        max_approach: 0.3,
        dt: 0.01,
        max_joint_speed: 1.5,
        form: ConstraintForm::Damped,
    };
    // Both hands close in front of the chest, arms commanded towards each other and the body.
    let mut q = model
        .named_states
        .iter()
        .find(|(n, _)| n == "stand")
        .unwrap()
        .1
        .clone();
    let set =
        |q: &mut Vec<Real>, name: &str, v: Real| q[model.tree().variable_index(name).unwrap()] = v;
    for (name, v) in [
        ("LShoulderPitch", 0.6),
        ("LShoulderRoll", -0.1),
        ("LElbowYaw", -0.4),
        ("LElbowRoll", -1.2),
        ("RShoulderPitch", 0.6),
        ("RShoulderRoll", 0.1),
        ("RElbowYaw", 0.4),
        ("RElbowRoll", 1.2),
    ] {
        set(&mut q, name, v);
    }
    let desired: Vec<Real> = model
        .tree()
        .variable_names()
        .map(|n| match n {
            "LShoulderRoll" | "RElbowRoll" => -1.0,
            "RShoulderRoll" | "LElbowRoll" => 1.0,
            "LShoulderPitch" | "RShoulderPitch" => -0.5,
            _ => 0.0,
        })
        .collect();
    let mut filter = VelocityFilter::new(&cell, true, vec![true], settings).unwrap();
    filter.protect_chain("R1", "Arms", true).unwrap();
    let result = filter.step(&q, &desired).unwrap();
    let binding = result.pairs.iter().filter(|p| p.active).count();
    let qp = filter.last_qp().clone();
    let mut group = c.benchmark_group("nao_filter_step");
    group.bench_function(
        format!(
            "Arms protected: {} pair constraints ({binding} binding) + {} bounds",
            result.pairs.len(),
            2 * qp.x_hat.len()
        ),
        |b| {
            b.iter(|| {
                filter
                    .step(black_box(&q), black_box(&desired))
                    .unwrap()
                    .qdot[0]
            })
        },
    );
    let ones = vec![1.0; qp.x_hat.len()];
    group.bench_function("baseline: one clarabel solve of the whole QP", |b| {
        b.iter(|| {
            solve_box_qp_whole(&ones, black_box(&qp.x_hat), &qp.rows, &qp.h, &qp.lo, &qp.hi).1
        })
    });
    group.bench_function("posing + constrained pair distances only", |b| {
        b.iter(|| {
            filter.pose(black_box(&q)).unwrap();
            filter.closest_constrained().unwrap().0
        })
    });
    group.finish();
}

criterion_group!(benches, nao_filter_step);
criterion_main!(benches);
