//! RRT-Connect on the shipped cell: the UR5 swings from one side of the IRB 120 to the other
//! while the IRB 120 leans into the direct route. Every returned path is re-verified with an
//! independent guaranteed sweep over the whole path.
#![cfg(feature = "planning")]

use std::path::Path;
use std::time::Duration;

use robocollide::collision::{CellChecker, SweepMode, Trajectory, sweep};
use robocollide::math::Real;
use robocollide::planning::{PlannerSettings, Validity, rrt_connect};
use robocollide::robot::Cell;
use robocollide::validity::CellValidity;

fn cell() -> Cell {
    Cell::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/cells/ur5_irb120.toml"))
        .unwrap()
}

fn deg(v: &[Real]) -> Vec<Real> {
    v.iter().map(|d| d.to_radians()).collect()
}

/// (start, goal, fixed configuration of both robots).
fn problem() -> (Vec<Real>, Vec<Real>, Vec<Real>) {
    let fixed = deg(&[
        0.0, -90.0, 0.0, -90.0, 0.0, 0.0, 0.0, 30.0, 0.0, 0.0, 0.0, 0.0,
    ]);
    (
        deg(&[90.0, -60.0, 60.0, -90.0, 0.0, 0.0]),
        deg(&[270.0, -60.0, 60.0, -90.0, 0.0, 0.0]),
        fixed,
    )
}

#[test]
fn the_direct_motion_collides() {
    let cell = cell();
    let (start, goal, fixed) = problem();
    let mut validity = CellValidity::new(&cell, 0, fixed, 0.0, true).unwrap();
    assert!(validity.is_valid(&start) && validity.is_valid(&goal));
    assert!(!validity.motion_valid(&start, &goal));
}

#[test]
fn planned_paths_are_collision_free_under_the_guaranteed_sweep() {
    let cell = cell();
    let (start, goal, fixed) = problem();
    for seed in 0..8 {
        let mut validity = CellValidity::new(&cell, 0, fixed.clone(), 0.0, true).unwrap();
        let settings = PlannerSettings {
            seed,
            time_limit: Duration::from_secs(30),
            ..Default::default()
        };
        let motions_before = validity.motions_checked;
        let plan = rrt_connect(&mut validity, &start, &goal, &settings).unwrap();
        assert_eq!(plan.path.first().unwrap(), &start);
        assert_eq!(plan.path.last().unwrap(), &goal);
        // The search's motions by outcome: every tree node but the two roots came from a
        // certified motion; the direct try (blocked here) was refused somewhere; shortcutting
        // checked more motions after the search.
        let outcomes = plan
            .search_motions
            .expect("the cell's validity counts its motions");
        assert!(outcomes.certified >= plan.tree_nodes - 2, "{outcomes:?}");
        assert!(outcomes.blocked_inside + outcomes.blocked_at_end + outcomes.refused >= 1);
        assert_eq!(outcomes.invalid, 0);
        let searched = outcomes.total();
        assert!(searched > 0 && searched <= validity.motions_checked - motions_before);
        // Independent verification: the whole path as one trajectory, guaranteed sweep.
        let configs: Vec<Vec<Real>> = plan.path.iter().map(|q| validity.full(q)).collect();
        let times: Vec<Real> = (0..configs.len()).map(|i| i as Real).collect();
        let trajectory = Trajectory::new(vec![], times, configs).unwrap();
        let mut checker = CellChecker::new(&cell, true);
        let report = sweep(
            &mut checker,
            &trajectory,
            SweepMode::Guaranteed { min_interval: 1e-6 },
            |_, _| {},
        )
        .unwrap();
        assert!(
            report.first_collision.is_none(),
            "seed {seed}: the planned path collides"
        );
    }
}

#[test]
fn impossible_goals_fail_clearly() {
    let cell = cell();
    let (start, _, fixed) = problem();
    let mut validity = CellValidity::new(&cell, 0, fixed, 0.0, true).unwrap();
    // The UR5 reaching into the IRB 120.
    let goal = deg(&[180.0, -60.0, 60.0, -90.0, 0.0, 0.0]);
    let e = rrt_connect(&mut validity, &start, &goal, &PlannerSettings::default()).unwrap_err();
    assert!(
        e.to_string()
            .contains("the goal configuration is in collision"),
        "{e}"
    );
}

/// The rake's spacing follows the planner's step, and only ever changes the work: random
/// motions of the UR5 (0.05–2 rad, many blocked between free ends) get the same verdict with
/// the default spacing, a 0.5 rad step's and a 0.02 rad step's (a contact search every 8 mrad).
#[test]
fn the_planner_step_changes_no_motion_verdict() {
    use rand::{RngExt, SeedableRng};
    use robocollide::collision::{MotionCheck, RAKE_SPACING, RAKE_SPACING_PER_STEP};
    let cell = cell();
    let (_, _, fixed) = problem();
    let mut checker = CellChecker::new(&cell, true);
    let mut default = MotionCheck::new(&checker);
    assert_eq!(default.rake_spacing(), RAKE_SPACING);
    let (mut half, mut fine) = (default.clone(), default.clone());
    half.set_planner_step(0.5);
    fine.set_planner_step(0.02);
    assert_eq!(half.rake_spacing(), RAKE_SPACING_PER_STEP * 0.5);
    for bad in [0.0, -1.0, Real::NAN, Real::INFINITY] {
        let mut check = half.clone();
        check.set_planner_step(bad);
        assert_eq!(check.rake_spacing(), half.rake_spacing(), "{bad}");
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(25);
    let mut verdicts = [0; 2];
    for _ in 0..300 {
        let qa: Vec<Real> = (0..6).map(|_| rng.random_range(-3.1..3.1)).collect();
        let direction: Vec<Real> = (0..6).map(|_| rng.random_range(-1.0..1.0)).collect();
        let norm = direction.iter().map(|d| d * d).sum::<Real>().sqrt();
        let length = rng.random_range(0.05..2.0);
        let qb: Vec<Real> = qa
            .iter()
            .zip(&direction)
            .map(|(a, d)| a + d / norm * length)
            .collect();
        let full = |q: &[Real]| [q, &fixed[6..]].concat();
        let (qa, qb) = (full(&qa), full(&qb));
        let verdict = default.free(&mut checker, &qa, &qb, 1e-6);
        assert_eq!(
            half.free(&mut checker, &qa, &qb, 1e-6),
            verdict,
            "{qa:?} → {qb:?}"
        );
        assert_eq!(
            fine.free(&mut checker, &qa, &qb, 1e-6),
            verdict,
            "{qa:?} → {qb:?}"
        );
        verdicts[usize::from(verdict)] += 1;
    }
    assert!(verdicts[0] > 30 && verdicts[1] > 30, "{verdicts:?}");
}
