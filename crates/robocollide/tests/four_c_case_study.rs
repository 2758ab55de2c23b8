//! Seed 003's case study: the motion of Table 6 through the mechanism of Table 5 reproduces
//! Table 7 (translation extremes, with the d2/c2 rows swapped as in SEED-NOTES 003), the loop
//! closes at every step, and the paper's collision pose is step 23 of the first leg.

use std::path::Path;

use robocollide::mechanism::{Branch, FourC};

#[derive(serde::Deserialize)]
struct Twists {
    alpha: f64,
    beta: f64,
    gamma: f64,
    eta: f64,
}
#[derive(serde::Deserialize)]
struct Lengths {
    a: f64,
    b: f64,
    g: f64,
    h: f64,
}
#[derive(serde::Deserialize)]
struct Via {
    theta_deg: f64,
    d1: f64,
    increments: usize,
    branch: Branch,
}
#[derive(serde::Deserialize)]
#[allow(dead_code)]
struct File {
    name: String,
    twists_deg: Twists,
    lengths: Lengths,
    radii: toml::Value,
    via: Vec<Via>,
}

#[test]
fn table_7_and_loop_closure_over_the_case_study_motion() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/mechanisms/seed003_case_study.toml"),
    )
    .unwrap();
    let f: File = toml::from_str(&text).unwrap();
    let t = &f.twists_deg;
    let l = &f.lengths;
    let m = FourC::new(
        t.alpha.to_radians(),
        t.beta.to_radians(),
        t.gamma.to_radians(),
        t.eta.to_radians(),
        l.a,
        l.b,
        l.g,
        l.h,
    )
    .unwrap();
    let range = m.input_range();
    let mut steps = Vec::new();
    for leg in f.via.windows(2) {
        let (from, to) = (&leg[0], &leg[1]);
        assert!(
            range.contains(from.theta_deg.to_radians())
                && range.contains(to.theta_deg.to_radians())
        );
        for k in 0..=from.increments {
            let s = k as f64 / from.increments as f64;
            let theta = from.theta_deg + (to.theta_deg - from.theta_deg) * s;
            let d1 = from.d1 + (to.d1 - from.d1) * s;
            steps.push((
                theta,
                d1,
                m.solve(theta.to_radians(), d1, from.branch).unwrap(),
            ));
        }
    }
    assert_eq!(steps.len(), 224);
    for (theta, _, c) in &steps {
        assert!(m.closure_error(c) < 1e-9, "θ = {theta}");
    }
    let extremes = |f: &dyn Fn(&robocollide::mechanism::FourCConfiguration) -> f64| {
        let v: Vec<f64> = steps.iter().map(|(_, _, c)| f(c)).collect();
        (
            format!("{:.3}", v.iter().copied().fold(f64::INFINITY, f64::min)),
            format!("{:.3}", v.iter().copied().fold(f64::NEG_INFINITY, f64::max)),
        )
    };
    // Table 7 (d2 and c2 rows exchanged relative to the printed table).
    assert_eq!(extremes(&|c| c.d1), ("60.000".into(), "110.000".into()));
    assert_eq!(extremes(&|c| c.c1), ("122.344".into(), "234.576".into()));
    // c2 max is 190.978586…: the paper truncates here (rounding gives 190.979).
    let c2_max = steps
        .iter()
        .map(|(_, _, c)| c.c2)
        .fold(f64::NEG_INFINITY, f64::max);
    assert!((c2_max - 190.978).abs() < 1e-3, "{c2_max}");
    assert_eq!(extremes(&|c| c.c2).0, "16.205");
    assert_eq!(extremes(&|c| c.d2), ("34.786".into(), "190.747".into()));
    // "No sign changes … and none of them approach zero" (seed 003, case study).
    assert!(
        steps
            .iter()
            .all(|(_, _, c)| c.c1 > 10.0 && c.c2 > 10.0 && c.d2 > 10.0)
    );
    // The paper's collision pose (Table 8) is step 23 of the first leg.
    let (theta, d1, _) = steps[23];
    assert!((theta + 2.28).abs() < 1e-12 && (d1 - 90.80).abs() < 1e-12);
}
