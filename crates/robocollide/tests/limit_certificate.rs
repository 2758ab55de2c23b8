//! Self pairs certified apart within the joint limits
//! (`collision::self_pairs_apart_within_limits`) against dense random sampling within the
//! limits, on the spherized Panda (VAMP's spheres, its SRDF).
#![cfg(feature = "urdf")]

mod common;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use robocollide::collision::{CellChecker, self_pairs_apart_within_limits};
use robocollide::robot::Cell;

#[test]
fn pairs_certified_apart_never_touch_within_the_limits() {
    let model = common::spherized_panda();
    let apart = self_pairs_apart_within_limits(&model, 2, 4000);
    let tree = model.tree();
    let ranges: Vec<(f64, f64)> = (0..model.dof()).map(|v| tree.sampling_range(v)).collect();
    let cell = Cell::single(model.clone());
    let mut checker = CellChecker::new(&cell, true);
    let index: Vec<usize> = apart
        .iter()
        .map(|&(a, b)| {
            checker
                .pairs()
                .iter()
                .position(|p| (p.body_a, p.body_b) == (a, b))
                .unwrap()
        })
        .collect();
    // The wrist's pairs (link 5 against link 7, the hand and the fingers: 324 pairs, two
    // joints each) are the candidates; many are far apart everywhere, some touch.
    assert!(apart.len() > 100, "only {} pairs certified", apart.len());
    assert!(
        apart.len() < 324,
        "{} pairs certified: touching ones too?",
        apart.len()
    );
    // Sampling within the limits, biased to the edges (where the wrist folds), finds none of
    // them in contact; pairs left out do touch (the closest sampled distance is shown).
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut closest = f64::INFINITY;
    for trial in 0..60_000 {
        let q: Vec<f64> = ranges
            .iter()
            .map(|&(lo, hi)| match trial % 3 {
                0 => rng.random_range(lo..=hi),
                1 => lo + (hi - lo) * rng.random_range(0.0..0.05),
                _ => hi - (hi - lo) * rng.random_range(0.0..0.05),
            })
            .collect();
        checker.pose(&q);
        for &k in &index {
            let d = checker.distance(k);
            assert!(d > 0.0, "pair {:?} in contact at {q:?}", checker.pairs()[k]);
            closest = closest.min(d);
        }
    }
    assert!(
        closest < 0.05,
        "closest certified pair sampled at {closest} m"
    );
}
