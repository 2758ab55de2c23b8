//! Seed 003's case study end to end (224 steps × 20 segment pairs: kinematics, segments,
//! infinite and finite cylinder tests, capsules), beside its infinite-cylinder stage alone.
//! Run: `cargo bench -p robocollide --bench mechanism`.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use robocollide::geom::Line;
use robocollide::mechanism::{AxisLengths, FourCStudy, radius, segment_pairs, segments};

fn case_study(c: &mut Criterion) {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/mechanisms/seed003_case_study.toml"),
    )
    .unwrap();
    let study = FourCStudy::parse(&text, "case study").unwrap();
    let mut group = c.benchmark_group("fourc_case_study");
    group.sample_size(20);
    group.bench_function(
        "whole study (exact cylinders + capsules, every pair)",
        |b| b.iter(|| black_box(&study).run().unwrap().infinite_hits),
    );
    group.bench_function("baseline: kinematics + infinite-cylinder stage only", |b| {
        b.iter(|| {
            let configs = study.configurations().unwrap();
            let lengths = AxisLengths::over(&configs);
            let mut hits = 0;
            for cfg in &configs {
                let seg = segments(&study.mechanism, cfg, &lengths);
                for (i, j) in segment_pairs() {
                    let (l1, l2) = (
                        Line::through(seg[i - 1].0, seg[i - 1].1).unwrap(),
                        Line::through(seg[j - 1].0, seg[j - 1].1).unwrap(),
                    );
                    let d = l1.common_normal(&l2).distance.abs();
                    if d <= radius(i, 20.0, 5.0) + radius(j, 20.0, 5.0) {
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
