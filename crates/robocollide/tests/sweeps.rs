//! Trajectory sweeps: the guaranteed mode never misses a contact that sampling 100× finer
//! finds (seeded random trajectories in the shipped cell), motion bounds really bound motion,
//! and self-collision follows the pair matrix.

mod common;

use std::path::Path;

use rand::RngExt;
use robocollide::collision::{CellChecker, MotionBound, SweepMode, Trajectory, config_at, sweep};
use robocollide::math::{Point3, Real};
use robocollide::robot::model_file::parse_robot;
use robocollide::robot::{Cell, CellRobot};

fn cell() -> Cell {
    Cell::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/cells/ur5_irb120.toml"))
        .unwrap()
}

/// A configuration biased towards the shared workspace (degrees): the UR5 turned towards the
/// IRB 120 with its shoulder lowered, the IRB 120 leaning towards the UR5; wrists anywhere.
fn random_config(rng: &mut common::TestRng, _cell: &Cell) -> Vec<Real> {
    let ranges: [(Real, Real); 12] = [
        (110.0, 250.0),
        (-100.0, -10.0),
        (0.0, 100.0),
        (-180.0, 180.0),
        (-180.0, 180.0),
        (-180.0, 180.0),
        (-70.0, 70.0),
        (-20.0, 70.0),
        (-80.0, 40.0),
        (-160.0, 160.0),
        (-120.0, 120.0),
        (-180.0, 180.0),
    ];
    ranges
        .iter()
        .map(|&(lo, hi)| rng.random_range(lo..hi).to_radians())
        .collect()
}

fn densify(t: &Trajectory, factor: usize) -> Trajectory {
    let (t0, t1) = (t.times[0], t.times[t.len() - 1]);
    let n = (t.len() - 1) * factor;
    let times: Vec<Real> = (0..=n)
        .map(|i| t0 + (t1 - t0) * i as Real / n as Real)
        .collect();
    let configs = times.iter().map(|&x| config_at(t, x)).collect();
    Trajectory::new(t.columns.clone(), times, configs).unwrap()
}

#[test]
fn guaranteed_sweep_never_misses_what_dense_sampling_finds() {
    let cell = cell();
    let mut rng = common::rng(0x5eeb);
    let (mut contacts, mut caught_between_rows) = (0, 0);
    for _ in 0..40 {
        let rows = rng.random_range(3..6);
        let configs: Vec<Vec<Real>> = (0..rows).map(|_| random_config(&mut rng, &cell)).collect();
        let times: Vec<Real> = (0..rows).map(|i| i as Real).collect();
        let trajectory = Trajectory::new(vec![], times, configs).unwrap();
        let mut checker = CellChecker::new(&cell, false);
        let guaranteed = sweep(
            &mut checker,
            &trajectory,
            SweepMode::Guaranteed { min_interval: 1e-6 },
            |_, _| {},
        )
        .unwrap();
        let rows_only = sweep(&mut checker, &trajectory, SweepMode::Sampled, |_, _| {}).unwrap();
        let dense = sweep(
            &mut checker,
            &densify(&trajectory, 100),
            SweepMode::Sampled,
            |_, _| {},
        )
        .unwrap();
        if let Some((td, _)) = &dense.first_collision {
            contacts += 1;
            let (tg, _) = guaranteed
                .first_collision
                .as_ref()
                .expect("guaranteed sweep missed a contact dense sampling found");
            assert!(
                *tg <= td + 1e-9,
                "guaranteed first contact {tg} after the dense one {td}"
            );
            if rows_only
                .first_collision
                .as_ref()
                .is_none_or(|(tr, _)| tr > td)
            {
                caught_between_rows += 1;
            }
        }
        // Every evaluated point reported clear is truly clear.
        for s in guaranteed.samples.iter().filter(|s| s.distance > 0.0) {
            checker.pose(&config_at(&trajectory, s.t));
            assert!(checker.closest().unwrap().distance > 0.0);
        }
    }
    eprintln!(
        "{contacts} of 40 trajectories collide; {caught_between_rows} first contacts lie between rows"
    );
    assert!(
        contacts >= 10,
        "too few colliding trajectories ({contacts}) to exercise the property"
    );
    assert!(
        caught_between_rows >= 3,
        "too few contacts between rows ({caught_between_rows})"
    );
}

#[test]
fn the_demo_trajectory_hides_a_contact_between_rows() {
    let cell = cell();
    let trajectory = Trajectory::load(cell.trajectory.as_ref().unwrap(), &cell).unwrap();
    let mut checker = CellChecker::new(&cell, true);
    let rows = sweep(&mut checker, &trajectory, SweepMode::Sampled, |_, _| {}).unwrap();
    let guaranteed = sweep(
        &mut checker,
        &trajectory,
        SweepMode::Guaranteed { min_interval: 1e-6 },
        |_, _| {},
    )
    .unwrap();
    assert!((rows.first_collision.as_ref().unwrap().0 - 4.5).abs() < 1e-12);
    let (t, pair) = guaranteed.first_collision.as_ref().unwrap();
    assert!((2.0..2.5).contains(t), "{t}");
    assert_eq!((pair.a.robot.as_str(), pair.b.robot.as_str()), ("R1", "R2"));
    // The hidden contact lies strictly between the rows at 2.0 s and 2.5 s, both clear.
    let (a, b) = guaranteed.collision_intervals[0];
    assert!(2.0 < a && a < b && b < 2.5, "{a} {b}");
    assert!(!guaranteed.certified_free() && guaranteed.uncertified.is_empty());
}

/// A random straight joint-space motion: from one biased configuration towards another, a
/// random fraction (0.001 to `longest`) of the way.
fn random_motion(rng: &mut common::TestRng, cell: &Cell, longest: Real) -> (Vec<Real>, Vec<Real>) {
    let (qa, qb) = (random_config(rng, cell), random_config(rng, cell));
    let scale: Real = rng.random_range(0.001..longest);
    let qb = qa
        .iter()
        .zip(&qb)
        .map(|(a, b)| a + (b - a) * scale)
        .collect();
    (qa, qb)
}

#[test]
fn motion_bounds_bound_every_anchor() {
    let cell = cell();
    let bound = MotionBound::new(&cell);
    let mut rng = common::rng(0xb0b);
    let mut out = Vec::new();
    for _ in 0..200 {
        let (qa, qb) = random_motion(&mut rng, &cell, 1.0);
        let mut offset = 0;
        for (r, CellRobot { model, .. }) in cell.robots.iter().enumerate() {
            let n = model.dof();
            let (ra, rb) = (&qa[offset..offset + n], &qb[offset..offset + n]);
            offset += n;
            bound.bodies(r, ra, rb, &mut out);
            let start = model.frames(ra).unwrap();
            for s in 1..=50 {
                let q: Vec<Real> = ra
                    .iter()
                    .zip(rb)
                    .map(|(a, b)| a + (b - a) * s as Real / 50.0)
                    .collect();
                let frames = model.frames(&q).unwrap();
                for (body, limit) in model.bodies.iter().zip(&out) {
                    for anchor in body.anchors() {
                        let moved: Point3 = anchor.world(&frames);
                        let from: Point3 = anchor.world(&start);
                        assert!(
                            (moved - from).norm() <= limit + 1e-12,
                            "{} moved {} > bound {limit}",
                            body.name,
                            (moved - from).norm()
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn self_collision_follows_the_pair_matrix() {
    // A planar 3R arm folded back on itself: link 3 reaches the base (links 0 and 3, far apart).
    let arm = |extra: &str| {
        let text = format!(
            r#"
name = "folding arm"
links = ["base", "l1", "l2", "l3"]
[[joints]]
a = 1.0
alpha = 0.0
d = 0.0
[[joints]]
a = 1.0
alpha = 0.0
d = 0.0
[[joints]]
a = 1.0
alpha = 0.0
d = 0.0
[geometry]
sphere_radii = [0.1, 0.1, 0.1, 0.1]
capsule_radii = [0.05, 0.05, 0.05]
{extra}
"#
        );
        parse_robot(&text, "arm.toml", None).unwrap()
    };
    let folded = [0.0, 2.2, 2.2];
    let check = |model: robocollide::robot::RobotModel| {
        let cell = Cell {
            name: "one arm".into(),
            robots: vec![CellRobot {
                label: "R1".into(),
                model,
                home: vec![0.0; 3],
            }],
            threshold: 0.0,
            units: Default::default(),
            trajectory: None,
            allowed: Vec::new(),
        };
        let mut checker = CellChecker::new(&cell, true);
        let report = checker.check(&folded, 0.0).unwrap();
        report
            .close_pairs
            .iter()
            .map(|p| (p.a.link.clone(), p.b.link.clone()))
            .collect::<Vec<_>>()
    };
    let default = check(arm(""));
    assert!(
        default.iter().any(|(a, b)| a == "base" && b == "l3"),
        "{default:?}"
    );
    assert!(
        default.iter().all(|(a, b)| !(a == "l1" && b == "l2")),
        "adjacent links must not be checked: {default:?}"
    );
    let ignored = check(arm("[self_collision]\nignore = [[\"l3\", \"base\"]]"));
    assert!(
        ignored.iter().all(|(a, b)| !(a == "base" && b == "l3")),
        "{ignored:?}"
    );
}

#[cfg(feature = "parallel")]
#[test]
fn parallel_sweep_matches_the_sequential_one() {
    let cell = cell();
    let mut rng = common::rng(0x9a7a);
    let rows = 3000;
    let configs: Vec<Vec<Real>> = (0..rows).map(|_| random_config(&mut rng, &cell)).collect();
    let trajectory =
        Trajectory::new(vec![], (0..rows).map(|i| i as Real).collect(), configs).unwrap();
    for mode in [
        SweepMode::Sampled,
        SweepMode::Guaranteed { min_interval: 1e-6 },
    ] {
        let mut checker = CellChecker::new(&cell, true);
        let sequential = sweep(&mut checker, &trajectory, mode, |_, _| {}).unwrap();
        let parallel =
            robocollide::collision::sweep_parallel(&cell, true, &trajectory, mode, &|_, _| {})
                .unwrap();
        assert_eq!(sequential, parallel);
    }
}

/// The relative bound of a self pair (joints beyond the lowest frame either body hangs from)
/// bounds how much the pair's distance changes along a motion: checked on every self pair of
/// both arms, 200 random motions, 50 points each. Fails when the bound starts from the higher
/// of the two bodies' frames instead of the lower (checked by mutation); the bound is loose,
/// so dropping a single joint can go unnoticed.
#[test]
fn self_pair_bounds_bound_the_change_of_distance() {
    let cell = cell();
    let bound = MotionBound::new(&cell);
    let mut checker = CellChecker::new(&cell, true);
    let self_pairs: Vec<(usize, _)> = checker
        .pairs()
        .iter()
        .copied()
        .enumerate()
        .filter(|(_, p)| p.robot_a == p.robot_b)
        .collect();
    assert!(self_pairs.len() > 10, "{}", self_pairs.len());
    let mut rng = common::rng(0x5e1f);
    for _ in 0..200 {
        let (qa, qb) = random_motion(&mut rng, &cell, 0.5);
        checker.pose(&qa);
        let start: Vec<Real> = self_pairs
            .iter()
            .map(|(k, _)| checker.distance(*k))
            .collect();
        for s in 1..=50 {
            let q: Vec<Real> = qa
                .iter()
                .zip(&qb)
                .map(|(a, b)| a + (b - a) * s as Real / 50.0)
                .collect();
            checker.pose(&q);
            for ((k, p), d0) in self_pairs.iter().zip(&start) {
                let r = p.robot_a;
                let (ra, rb) = (checker.robot_q(&qa, r), checker.robot_q(&qb, r));
                let limit = bound.self_pair(r, p.body_a, p.body_b, ra, rb);
                let change = (checker.distance(*k) - d0).abs();
                assert!(
                    change <= limit + 1e-12,
                    "pair {k}: distance changed {change} > bound {limit}"
                );
            }
        }
    }
}
