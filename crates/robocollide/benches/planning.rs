//! RRT-Connect in the shipped UR5 + IRB 120 cell: the UR5 plans between 100 seeded pairs of
//! free configurations whose direct motion is blocked, while the IRB 120 stands leaning
//! forward. Reports the median and p95
//! planning time over the fixed set (printed), and criterion's measurement of one
//! representative problem (the `robocollide plan` scenario).
//!
//! Run: `cargo bench -p robocollide --features planning --bench planning`.

use std::path::Path;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use robocollide::math::Real;
use robocollide::planning::{PlannerSettings, Validity, rrt_connect};
use robocollide::robot::Cell;
use robocollide::validity::CellValidity;

fn deg(v: &[Real]) -> Vec<Real> {
    v.iter().map(|d| d.to_radians()).collect()
}

fn planning(c: &mut Criterion) {
    let cell =
        Cell::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/cells/ur5_irb120.toml"))
            .unwrap();
    let fixed = deg(&[
        0.0, -90.0, 0.0, -90.0, 0.0, 0.0, 0.0, 30.0, 0.0, 0.0, 0.0, 0.0,
    ]);
    let mut validity = CellValidity::new(&cell, 0, fixed.clone(), 0.0, true).unwrap();
    // 100 problems: free start and goal whose direct motion is blocked (so the planner must
    // search), UR5 joints 1–3 spread over its working range.
    let mut rng = ChaCha8Rng::seed_from_u64(100);
    let mut problems = Vec::new();
    while problems.len() < 100 {
        let mut sample = || {
            deg(&[
                rng.random_range(0.0..360.0),
                rng.random_range(-150.0..-30.0),
                rng.random_range(-120.0..120.0),
                -90.0,
                0.0,
                0.0,
            ])
        };
        let (a, b) = (sample(), sample());
        if validity.is_valid(&a) && validity.is_valid(&b) && !validity.motion_valid(&a, &b) {
            problems.push((a, b));
        }
    }
    let mut times = Vec::new();
    let (mut searches, mut lengths) = (Vec::new(), Vec::new());
    let mut failures = 0;
    for (seed, (a, b)) in problems.iter().enumerate() {
        let settings = PlannerSettings {
            seed: seed as u64,
            time_limit: Duration::from_secs(20),
            ..Default::default()
        };
        let began = Instant::now();
        match rrt_connect(&mut validity, a, b, &settings) {
            Ok(plan) => {
                times.push(began.elapsed().as_secs_f64());
                searches.push(plan.search_seconds);
                lengths.push(plan.length);
            }
            Err(_) => failures += 1,
        }
    }
    let median = |values: &mut Vec<f64>| {
        values.sort_by(f64::total_cmp);
        values.get(values.len() / 2).copied().unwrap_or(Real::NAN)
    };
    times.sort_by(f64::total_cmp);
    let pick = |p: f64| times[((times.len() as f64 - 1.0) * p).round() as usize];
    println!(
        "rrt_connect over 100 seeded problems: {} solved, {failures} failed; median {:.2} ms, p95 {:.2} ms, max {:.2} ms",
        times.len(),
        pick(0.5) * 1e3,
        pick(0.95) * 1e3,
        times.last().copied().unwrap_or(0.0) * 1e3
    );
    println!(
        "  of which the search (until the trees meet): median {:.2} ms; path length after shortcutting: median {:.2} rad",
        median(&mut searches) * 1e3,
        median(&mut lengths)
    );
    let (start, goal) = (
        deg(&[90.0, -60.0, 60.0, -90.0, 0.0, 0.0]),
        deg(&[270.0, -60.0, 60.0, -90.0, 0.0, 0.0]),
    );
    let mut group = c.benchmark_group("rrt_connect");
    group.sample_size(10);
    group.bench_function("UR5 around the IRB 120 (plan scenario, seed 1)", |bench| {
        bench.iter(|| {
            rrt_connect(&mut validity, &start, &goal, &PlannerSettings::default())
                .unwrap()
                .length
        })
    });
    group.finish();
}

criterion_group!(benches, planning);
criterion_main!(benches);
