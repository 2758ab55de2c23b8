//! The planners' motion check (`MotionCheck`, two-ended certificate) against the guaranteed
//! sweep and dense sampling: it never calls a motion free that touches anything.
#![cfg(all(feature = "urdf", feature = "moveit"))]

mod common;

use std::path::{Path, PathBuf};

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use robocollide::collision::{CellChecker, MotionCheck, SweepMode, Trajectory, sweep};
use robocollide::robot::{Cell, CellOptions, CellSource};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Random motions of the cell's first robot with joints (others at home), each joint moving
/// by up to `step`: the motion check's "free" must agree with the guaranteed sweep (both ways)
/// and with 400 samples along the motion.
fn agree(cell: &Cell, spread: f64, step: f64, count: usize, seed: u64) -> (usize, usize) {
    agree_tuned(cell, spread, step, count, seed, None)
}

/// [`agree`], the motion check tuned for a planner's step if given (a motion longer than 1.5
/// of them is certified in pieces).
fn agree_tuned(
    cell: &Cell,
    spread: f64,
    step: f64,
    count: usize,
    seed: u64,
    planner_step: Option<f64>,
) -> (usize, usize) {
    let mut checker = CellChecker::new(cell, true);
    let mut motion = MotionCheck::new(&checker);
    if let Some(planner_step) = planner_step {
        motion.set_planner_step(planner_step);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let home: Vec<f64> = cell.robots.iter().flat_map(|r| r.home.clone()).collect();
    let dof = cell.robots[0].model.dof();
    let (mut free, mut blocked) = (0, 0);
    for _ in 0..count {
        let mut qa = home.clone();
        let mut qb = home.clone();
        for j in 0..dof {
            qa[j] = rng.random_range(-spread..spread);
            qb[j] = qa[j] + rng.random_range(-step..step);
        }
        let says_free = motion.free(&mut checker, &qa, &qb, 1e-6);
        let trajectory =
            Trajectory::new(vec![], vec![0.0, 1.0], vec![qa.clone(), qb.clone()]).unwrap();
        let report = sweep(
            &mut checker,
            &trajectory,
            SweepMode::Guaranteed { min_interval: 1e-6 },
            |_, _| {},
        )
        .unwrap();
        if says_free {
            free += 1;
            assert!(
                report.first_collision.is_none(),
                "certified free, but the sweep finds contact: {qa:?} → {qb:?}"
            );
            for i in 0..=400 {
                let s = i as f64 / 400.0;
                let q: Vec<f64> = qa.iter().zip(&qb).map(|(a, b)| a + (b - a) * s).collect();
                checker.pose(&q);
                let d = checker.closest().map_or(f64::INFINITY, |c| c.distance);
                assert!(
                    d > 0.0,
                    "certified free, but in contact at s = {s}: {qa:?} → {qb:?}"
                );
            }
        } else {
            blocked += 1;
        }
        if report.first_collision.is_some() {
            assert!(!says_free);
        }
        // Nor is a motion the sweep certifies turned down (e.g. by a contact search at points
        // off the motion).
        if report.certified_free() {
            assert!(
                says_free,
                "the sweep certifies it, the motion check does not: {qa:?} → {qb:?}"
            );
        }
    }
    (free, blocked)
}

/// The Panda (VAMP's spheres, MoveIt's SRDF) in scene 0001 of MotionBenchMaker family `scene`.
fn panda_in_scene(scene: &str) -> Cell {
    let scenes = root().join("crates/robocollide/tests/data/mbm_scenes");
    panda_with(Some(scenes.join(format!("{scene}_scene0001.yaml"))))
}

/// The Panda (VAMP's spheres, MoveIt's SRDF) in the MoveIt scene at `scene`, or alone.
fn panda_with(scene: Option<PathBuf>) -> Cell {
    let panda = root().join("data/robots/panda");
    let (_, cell) = CellSource::read(
        &panda.join("panda_spherized.urdf"),
        &CellOptions {
            srdf: Some(panda.join("panda.srdf")),
            scene,
            cylinders_as_capsules: false,
        },
    )
    .unwrap();
    cell
}

#[test]
fn the_demo_cell_motions_certified_free_are_free() {
    let cell = Cell::load(&root().join("data/cells/ur5_irb120.toml")).unwrap();
    let (free, blocked) = agree(&cell, 3.1, 0.8, 300, 1);
    // Both answers occur, so the comparison means something.
    assert!(free > 30 && blocked > 30, "free {free}, blocked {blocked}");
}

#[test]
fn the_panda_in_motionbenchmaker_scenes_never_gets_a_false_free() {
    for (k, scene) in common::MBM_FAMILIES.iter().enumerate() {
        let cell = panda_in_scene(scene);
        // Long motions, and a planner's short steps (more of them near obstacles free).
        for (step, seed) in [(0.8, 10), (0.15, 20)] {
            let (free, blocked) = agree(&cell, 2.5, step, 120, seed + k as u64);
            assert!(
                free > 5 && blocked > 5,
                "{scene}, steps of {step}: free {free}, blocked {blocked}"
            );
        }
    }
}

/// Long motions (joints moving up to 1.5 rad, most ~2 rad long or more) with the check tuned
/// for 0.3 rad planner steps, so that they are certified in pieces of at most 0.45 rad: the
/// same agreement with the sweep and the samples, both answers occurring.
#[test]
fn long_motions_certified_in_pieces_agree_with_the_sweep() {
    let (mut free, mut blocked) = (0, 0);
    for (k, scene) in ["table_pick", "bookshelf_small", "cage"].iter().enumerate() {
        let cell = panda_in_scene(scene);
        let (f, b) = agree_tuned(&cell, 2.0, 1.5, 60, 50 + k as u64, Some(0.3));
        free += f;
        blocked += b;
    }
    assert!(free > 5 && blocked > 5, "free {free}, blocked {blocked}");
}

/// The culled contact and closest-pair searches (link spheres against each obstacle's exact
/// box or cylinder, sphere–solid kernels) against every pair's distance, on the Panda in one
/// scene of each MotionBenchMaker family.
#[test]
fn the_culled_search_equals_brute_force_in_motionbenchmaker_scenes() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut distances = Vec::new();
    let (mut contacts, mut free) = (0, 0);
    for scene in common::MBM_FAMILIES {
        let cell = panda_in_scene(scene);
        let mut checker = CellChecker::new(&cell, true);
        let dof = cell.robots[0].model.dof();
        let mut q: Vec<f64> = cell.robots.iter().flat_map(|r| r.home.clone()).collect();
        for _ in 0..150 {
            for v in &mut q[..dof] {
                *v = rng.random_range(-2.5..2.5);
            }
            checker.pose(&q);
            checker.pair_distances(&mut distances);
            let brute = distances.iter().copied().fold(f64::INFINITY, f64::min);
            let closest = checker.closest().unwrap();
            assert!(
                (closest.distance - brute).abs() <= 1e-15,
                "{scene} {q:?}: {} vs {brute}",
                closest.distance
            );
            assert_eq!(checker.in_contact(), brute <= 0.0, "{scene} {q:?}");
            if brute <= 0.0 {
                contacts += 1;
            } else {
                free += 1;
            }
        }
    }
    assert!(contacts > 100 && free > 100, "{contacts} {free}");
}

#[test]
fn contact_at_an_end_and_bad_input_are_not_free() {
    let cell = Cell::load(&root().join("data/cells/ur5_irb120.toml")).unwrap();
    let mut checker = CellChecker::new(&cell, true);
    let mut motion = MotionCheck::new(&checker);
    let home: Vec<f64> = cell.robots.iter().flat_map(|r| r.home.clone()).collect();
    // A motion of zero length at a free configuration is free.
    assert!(motion.free(&mut checker, &home, &home, 1e-6));
    let mut nan = home.clone();
    nan[2] = f64::NAN;
    assert!(!motion.free(&mut checker, &home, &nan, 1e-6));
    assert!(!motion.free(&mut checker, &home, &home[..5], 1e-6));
    // Each counted by how it ended.
    let outcomes = motion.outcomes();
    assert_eq!(
        (outcomes.certified, outcomes.invalid),
        (1, 2),
        "{outcomes:?}"
    );
    assert_eq!(outcomes.total(), 3);
}

/// The case a certificate can get wrong: both ends free, contact only in between (a link
/// through a shelf's board, an arm through itself). In one scene of each MotionBenchMaker
/// family, random motions with free ends (joints moving up to 0.8 rad, and up to 0.2, a
/// planner's step; every other draw turns one joint only) are drawn until 25 (short: 10,
/// they are rarer) are found that the guaranteed sweep finds in contact; the motion check
/// must call every one of them blocked.
#[test]
fn contact_only_between_free_ends_is_never_free() {
    for (k, scene) in common::MBM_FAMILIES.iter().enumerate() {
        for (step, wanted) in [(0.8, 25), (0.2, 10)] {
            contact_only_inside(
                &panda_in_scene(scene),
                scene,
                step,
                wanted,
                30 + k as u64,
                false,
            );
        }
    }
}

/// The same with both ends known to the check first, as a planner's nodes are: each end is
/// first reached by a short certified motion, so the check keeps its block gaps (the start's
/// then lower the bounds the end must meet; the end's contact search is skipped). The motion
/// and its reverse must still be called blocked.
#[test]
fn contact_only_between_certified_ends_is_never_free() {
    for (k, scene) in common::MBM_FAMILIES.iter().enumerate() {
        for (step, wanted) in [(0.8, 20), (0.4, 20), (0.2, 5)] {
            contact_only_inside(
                &panda_in_scene(scene),
                scene,
                step,
                wanted,
                60 + k as u64,
                true,
            );
        }
    }
}

/// The same for the Panda alone, so that every contact is the arm's own: the self pairs'
/// certificate (motion bounds relative to the joints a pair shares, a body far from the
/// other link certifying all its pairs), with free and with known ends.
#[test]
fn self_contact_only_between_free_ends_is_never_free() {
    let cell = panda_with(None);
    for known_ends in [false, true] {
        for (step, wanted) in [(1.2, 10), (0.8, 8)] {
            contact_only_inside(&cell, "the Panda alone", step, wanted, 90, known_ends);
        }
    }
}

/// Checks `wanted` random motions of the Panda in `cell` (named `scene` in messages; joints
/// moving up to `step`; every other draw moves one joint only) with free ends and contact
/// inside; with `known_ends`, only those whose ends are both reached first by a short
/// certified motion ([`reached`]), each then also checked backwards. One joint turning is
/// where the motion bound is nearly tight (a point on a circle), so a certificate that claims
/// a few centimetres too much fails here; with every joint moving the bound's slack hides such
/// errors (a start credit 5 cm too large passed the earlier draws).
fn contact_only_inside(
    cell: &Cell,
    scene: &str,
    step: f64,
    wanted: usize,
    seed: u64,
    known_ends: bool,
) {
    let mut checker = CellChecker::new(cell, true);
    let mut motion = MotionCheck::new(&checker);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let dof = cell.robots[0].model.dof();
    let mut qa: Vec<f64> = cell.robots.iter().flat_map(|r| r.home.clone()).collect();
    let mut qb = qa.clone();
    let mut found = 0;
    for draw in 0..40_000 {
        for j in 0..dof {
            qa[j] = rng.random_range(-2.5..2.5);
            qb[j] = qa[j] + rng.random_range(-step..step);
        }
        if draw % 2 == 1 {
            let moving = rng.random_range(0..dof);
            for j in (0..dof).filter(|&j| j != moving) {
                qb[j] = qa[j];
            }
        }
        let free_at = |checker: &mut CellChecker, q: &[f64]| {
            checker.pose(q);
            !checker.in_contact()
        };
        if !free_at(&mut checker, &qa) || !free_at(&mut checker, &qb) {
            continue;
        }
        let trajectory =
            Trajectory::new(vec![], vec![0.0, 1.0], vec![qa.clone(), qb.clone()]).unwrap();
        let mode = SweepMode::Guaranteed { min_interval: 1e-6 };
        // (Long motions are certified in pieces: pieces of 0.45 rad for 0.3 rad steps.)
        motion.set_planner_step(if step > 0.5 { 0.3 } else { 1.0 });
        let report = sweep(&mut checker, &trajectory, mode, |_, _| {}).unwrap();
        if report.first_collision.is_none() {
            continue;
        }
        if known_ends
            && !(reached(&mut motion, &mut checker, &qa) && reached(&mut motion, &mut checker, &qb))
        {
            continue;
        }
        let before = motion.outcomes();
        assert!(
            !motion.free(&mut checker, &qa, &qb, 1e-6),
            "{scene}, steps of {step}: free, but the sweep finds contact inside: {qa:?} → {qb:?}"
        );
        // Counted once, as blocked (never certified, never invalid).
        let counted = motion.outcomes() - before;
        assert_eq!(counted.total(), 1, "{counted:?}");
        assert_eq!(counted.certified + counted.invalid, 0, "{counted:?}");
        if known_ends {
            assert!(
                !motion.free(&mut checker, &qb, &qa, 1e-6),
                "{scene}, steps of {step}: free backwards, but the sweep finds contact: {qb:?} → {qa:?}"
            );
        }
        found += 1;
        if found == wanted {
            break;
        }
    }
    assert_eq!(
        found, wanted,
        "{scene}, steps of {step}: too few with contact only inside"
    );
}

/// Whether a short motion into `end` (every joint 0.01 rad away) is certified free, after
/// which `motion` keeps `end`'s block gaps.
fn reached(motion: &mut MotionCheck, checker: &mut CellChecker, end: &[f64]) -> bool {
    let near: Vec<f64> = end.iter().map(|x| x + 0.01).collect();
    motion.free(checker, &near, end, 1e-6)
}
