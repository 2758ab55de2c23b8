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
        let plan = rrt_connect(&mut validity, &start, &goal, &settings).unwrap();
        assert_eq!(plan.path.first().unwrap(), &start);
        assert_eq!(plan.path.last().unwrap(), &goal);
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
