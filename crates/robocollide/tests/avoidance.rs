//! The velocity filter on the shipped cell: untouched commands when far, kept apart when
//! driven into each other (also with one robot held still), stop when infeasible.
#![cfg(feature = "control")]

use std::path::Path;

use robocollide::control::{FilterSettings, QpStatus, VelocityFilter, simulate};
use robocollide::math::Real;
use robocollide::robot::Cell;

fn cell() -> Cell {
    Cell::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/cells/ur5_irb120.toml"))
        .unwrap()
}

fn deg(v: &[Real]) -> Vec<Real> {
    v.iter().map(|d| d.to_radians()).collect()
}

const SETTINGS: FilterSettings = FilterSettings {
    influence: 0.15,
    safety: 0.03,
    max_approach: 0.5,
    dt: 0.01,
    max_joint_speed: 1.5,
    form: robocollide::control::ConstraintForm::Damped,
};

/// Home poses, and goals where the arms interpenetrate (the demo's deepest contact).
fn start_goal() -> (Vec<Real>, Vec<Real>) {
    (
        deg(&[
            90.0, -90.0, 0.0, -90.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
        ]),
        deg(&[
            180.0, -60.0, 60.0, -90.0, 0.0, 0.0, 0.0, 30.0, 0.0, 0.0, 0.0, 0.0,
        ]),
    )
}

/// The closed loop from `start` to `goal` for 4 s at gain 2, robots moving per `moving`.
fn run(
    cell: &Cell,
    moving: &[bool],
    start: &[Real],
    goal: &[Real],
    filter: bool,
) -> Vec<robocollide::control::SimulationStep> {
    simulate(
        cell,
        false,
        moving,
        &[],
        start,
        goal,
        2.0,
        SETTINGS,
        4.0,
        filter,
    )
    .unwrap()
}

/// The smallest distance along a run.
fn closest(steps: &[robocollide::control::SimulationStep]) -> Real {
    steps
        .iter()
        .map(|s| s.distance)
        .fold(Real::INFINITY, Real::min)
}

#[test]
fn far_apart_the_command_passes_unchanged() {
    let cell = cell();
    let mut filter = VelocityFilter::new(&cell, false, vec![true, true], SETTINGS).unwrap();
    let q = cell
        .robots
        .iter()
        .flat_map(|r| r.home.clone())
        .collect::<Vec<_>>();
    let desired = [
        0.2, -0.1, 0.3, 0.0, 0.1, -0.2, 0.1, 0.05, -0.1, 0.2, 0.0, 0.1,
    ];
    let result = filter.step(&q, &desired).unwrap();
    assert_eq!(result.status, QpStatus::Solved);
    assert!(result.pairs.is_empty());
    for (a, b) in result.qdot.iter().zip(desired) {
        assert!((a - b).abs() < 1e-6, "{:?}", result.qdot);
    }
}

#[test]
fn driven_into_each_other_they_stay_apart_with_the_filter_and_collide_without() {
    let cell = cell();
    let (start, goal) = start_goal();
    let unfiltered = run(&cell, &[true, true], &start, &goal, false);
    let worst = closest(&unfiltered);
    assert!(
        worst < 0.0,
        "the unfiltered run should collide (min {worst})"
    );
    let filtered = run(&cell, &[true, true], &start, &goal, true);
    let worst = closest(&filtered);
    // Discrete time and linearised distances: allow 2 mm below d_s.
    assert!(
        worst >= SETTINGS.safety - 0.002,
        "filtered run came to {worst} m (d_s = {})",
        SETTINGS.safety
    );
    assert!(filtered.iter().all(|s| s.status == QpStatus::Solved));
    // The constraints shaped the motion: the arms came within the influence distance.
    let engaged = filtered.iter().filter(|s| s.active > 0).count();
    assert!(
        engaged > 20 && worst < SETTINGS.influence,
        "engaged in {engaged} periods, closest {worst}"
    );
    // …and the robots still made progress towards their goals.
    assert!(filtered.last().unwrap().remaining < 0.6 * filtered[0].remaining);
}

#[test]
fn one_robot_held_still_the_other_avoids_it() {
    let cell = cell();
    let (mut start, mut goal) = start_goal();
    // R2 already leaning forward and held there; only R1 moves.
    start[7] = 30f64.to_radians();
    goal[7] = start[7];
    let filtered = run(&cell, &[true, false], &start, &goal, true);
    let worst = closest(&filtered);
    assert!(worst >= SETTINGS.safety - 0.002, "{worst}");
}

#[test]
fn infeasible_demands_stop_the_robots() {
    let cell = cell();
    // Arms interpenetrating, and no joint speed allowed: separation is required but impossible.
    let (_, goal) = start_goal();
    let settings = FilterSettings {
        max_joint_speed: 0.0,
        ..SETTINGS
    };
    let mut filter = VelocityFilter::new(&cell, false, vec![true, true], settings).unwrap();
    let result = filter.step(&goal, &[0.1; 12]).unwrap();
    assert_eq!(result.status, QpStatus::Infeasible);
    assert!(result.qdot.iter().all(|v| *v == 0.0));
    assert!(!result.pairs.is_empty());
}

#[test]
fn bad_settings_and_inputs_are_named() {
    let cell = cell();
    let e = VelocityFilter::new(
        &cell,
        false,
        vec![true, true],
        FilterSettings {
            safety: 0.2,
            ..SETTINGS
        },
    )
    .unwrap_err();
    assert!(
        e.to_string()
            .contains("influence distance (0.15) must exceed the safety distance (0.2)"),
        "{e}"
    );
    let mut filter = VelocityFilter::new(&cell, false, vec![true, true], SETTINGS).unwrap();
    let (q, _) = start_goal();
    let mut desired = vec![0.0; 12];
    desired[3] = Real::NAN;
    assert_eq!(
        filter.step(&q, &desired).unwrap_err().to_string(),
        "qdot_des[3] must be finite, got NaN"
    );
}

#[test]
fn protected_links_restrict_the_constraints() {
    let cell = cell();
    let (_, goal) = start_goal();
    // Near contact (the goal interpenetrates): many pairs are within the influence distance.
    let mut all = VelocityFilter::new(&cell, false, vec![true, true], SETTINGS).unwrap();
    let every = all.step(&goal, &[0.0; 12]).unwrap().pairs;
    let mut filter = VelocityFilter::new(&cell, false, vec![true, true], SETTINGS).unwrap();
    filter.protect_links("R1", &["forearm"]).unwrap();
    let protected = filter.step(&goal, &[0.0; 12]).unwrap().pairs;
    assert!(!protected.is_empty() && protected.len() < every.len());
    assert!(
        protected
            .iter()
            .all(|p| p.a.link == "forearm" && p.a.robot == "R1"),
        "{protected:?}"
    );
    let e = filter.protect_links("R1", &["elbow_joint"]).unwrap_err();
    assert!(
        e.to_string()
            .contains("robot R1 has no link `elbow_joint` (links: base, shoulder"),
        "{e}"
    );
    assert!(
        filter
            .protect_links("R9", &["x"])
            .unwrap_err()
            .to_string()
            .contains("no robot `R9`")
    );
}

/// A branched-capable robot from URDF: two Pandas driven into each other. The filter's
/// Jacobians come from the kinematic tree; it keeps them apart, without it they collide.
#[cfg(feature = "urdf")]
#[test]
fn two_pandas_from_urdf_are_kept_apart() {
    let cell =
        Cell::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/cells/two_pandas.toml"))
            .unwrap();
    let start = deg(&[0.0, -45.0, 0.0, -135.0, 0.0, 90.0, 45.0].repeat(2));
    let goal = deg(&[0.0, 60.0, 0.0, -30.0, 0.0, 90.0, 45.0].repeat(2));
    let run = |filter: bool| {
        simulate(
            &cell,
            false,
            &[true, true],
            &[],
            &start,
            &goal,
            2.0,
            SETTINGS,
            2.0,
            filter,
        )
        .unwrap()
    };
    assert!(closest(&run(false)) < 0.0);
    let worst = closest(&run(true));
    assert!(worst >= SETTINGS.safety - 0.002, "closest {worst}");
}
