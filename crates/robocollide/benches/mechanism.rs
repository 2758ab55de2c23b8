//! Seed 003's case study end to end (224 steps × 20 segment pairs: kinematics, segments,
//! infinite and finite cylinder tests, capsules), beside its infinite-cylinder stage alone and
//! the plot's distance curves (every pair's exact cylinder distance at every step).
//! Run: `cargo bench -p robocollide --bench mechanism`.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use robocollide::mechanism::{AxisLengths, FourCStudy, StepBodies, segment_pairs, segments};

fn case_study(c: &mut Criterion) {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/mechanisms/seed003_case_study.toml"),
    )
    .unwrap();
    let study = FourCStudy::parse(&text, "case study").unwrap();
    let mut group = c.benchmark_group("fourc_case_study");
    group.sample_size(20);
    group.bench_function(
        "whole study (two-stage: infinite cylinders, then exact cylinders + capsules)",
        |b| b.iter(|| black_box(&study).run().unwrap().infinite_hits),
    );
    group.bench_function(
        "distance curves (exact cylinders, every pair, no pruning)",
        |b| b.iter(|| black_box(&study).distance_curves().unwrap().len()),
    );
    group.bench_function("baseline: kinematics + infinite-cylinder stage only", |b| {
        b.iter(|| {
            let configs = study.configurations().unwrap();
            let lengths = AxisLengths::over(&configs);
            let mut hits = 0;
            for cfg in &configs {
                let seg = segments(&study.mechanism, cfg, &lengths);
                let bodies = StepBodies::new(&seg, study.axis_radius, study.normal_radius);
                for (i, j) in segment_pairs() {
                    if bodies.infinite(i, j) <= 0.0 {
                        hits += 1;
                    }
                }
            }
            hits
        })
    });
    group.finish();
}

criterion_group!(benches, case_study);
criterion_main!(benches);
