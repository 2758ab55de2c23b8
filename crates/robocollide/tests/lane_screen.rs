//! The motion check's lane screen (`collision::lane_screen`) where its first-order bound is
//! tight: a sphere swinging on a circle about one revolute joint, whose displacement over a
//! stretch of the motion is the bound itself (up to the chord's sagitta). A contact placed
//! exactly between two lanes must never be certified: the lanes on either side see a gap
//! just under their share of the bound (`λ/(2·LANES)`), so a screen that inflated its tests
//! by half that share would call the motion free. The Panda's motions (tests/motion_check.rs)
//! cannot show this: there the bounds' slack hides such an error.

use std::path::PathBuf;

use robocollide::collision::{CellChecker, MotionBound, MotionCheck, SweepMode, Trajectory, sweep};
use robocollide::robot::Cell;

/// Radius of the circle the sphere's centre moves on, and the sphere's radius (m).
const ARM: f64 = 0.5;
const TIP: f64 = 0.0005;
/// The motions' length (rad): the planner's step on MotionBenchMaker.
const TURN: f64 = 1.0;
/// Lanes of the screen.
const LANES: f64 = robocollide::kinematics::LANES as f64;

/// A one-joint arm whose tip sphere swings on a circle of radius `ARM` in the plane z = 0,
/// and a ball of radius `ball` centred at `centre`.
fn swing_with_ball(test: &str, centre: [f64; 3], ball: f64) -> Cell {
    let [x, y, z] = centre;
    swing_with(
        test,
        &format!("sphere = {{ center = [{x}, {y}, {z}], radius = {ball} }}"),
    )
}

/// The swinging arm of [`swing_with_ball`] and one obstacle, given by its shape's line of the
/// cell file. The arm's file is written to a folder of the test's own (`test`), so that tests
/// running side by side never read a file another is writing.
fn swing_with(test: &str, obstacle: &str) -> Cell {
    let folder: PathBuf =
        std::env::temp_dir().join(format!("robocollide-lanes-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&folder).expect("a temporary folder");
    let robot = format!(
        "name = \"swing\"\nconvention = \"standard\"\nlinks = [\"base\", \"arm\"]\n\
         [[joints]]\nname = \"swing\"\na = {ARM}\nalpha = 0.0\nd = 0.0\nlimits = [-7.0, 7.0]\n\
         [[bodies]]\nname = \"tip\"\nlink = \"arm\"\n\
         sphere = {{ center = [0.0, 0.0, 0.0], radius = {TIP} }}\n"
    );
    std::fs::write(folder.join("swing.toml"), robot).expect("the robot file");
    let cell = format!(
        "name = \"swing\"\n[[robots]]\nlabel = \"R1\"\nmodel = \"swing.toml\"\n\
         [[obstacles]]\nname = \"obstacle\"\n{obstacle}\n"
    );
    let cell = Cell::parse(&cell, "swing.cell.toml", &folder).expect("the cell");
    // (The model is read while parsing: the folder is no longer needed.)
    let _ = std::fs::remove_dir_all(&folder);
    cell
}

/// The motion that passes angle `at` at parameter `s` (`qa = at − s·TURN·sign`).
fn through(at: f64, s: f64, sign: f64) -> (Vec<f64>, Vec<f64>) {
    (
        vec![at - s * TURN * sign],
        vec![at + (1.0 - s) * TURN * sign],
    )
}

#[test]
fn a_contact_between_two_lanes_is_never_certified() {
    contact_between_two_lanes_is_never_certified(false);
}

/// The same with a small box on the circle, its faces along the world axes: the screen's test
/// by the box of the lanes' centres against the obstacle's world-aligned box is then as tight
/// as it gets (the two boxes are the obstacle's own faces).
#[test]
fn a_contact_with_a_box_between_two_lanes_is_never_certified() {
    contact_between_two_lanes_is_never_certified(true);
}

fn contact_between_two_lanes_is_never_certified(cube: bool) {
    // Lanes on either side of a stretch's end are TURN/(2·LANES) away in angle: their
    // centres `2·ARM·sin(TURN/(4·LANES))` from the contact point. The radii take a tenth of
    // that, so those lanes see a gap of nine tenths of it: under the bound's share
    // `ARM·TURN/(2·LANES)` (which the screen must demand), over 0.8 of it (a screen that
    // demanded 0.8 of the share would certify the motion).
    let chord = 2.0 * ARM * (TURN / (4.0 * LANES)).sin();
    let ball = 0.1 * chord - TIP;
    let share = ARM * TURN / (2.0 * LANES);
    assert!(0.9 * chord < share && 0.9 * chord > 0.85 * share);
    let mut checked = 0;
    for at in [0.3, 1.9, -2.4] {
        let centre = [ARM * f64::cos(at), ARM * f64::sin(at), 0.0];
        let cell = if cube {
            // Inside the ball of the other case: the lanes beside it see at least its gap.
            let [x, y, z] = centre;
            let half = ball / 3f64.sqrt();
            let shape = format!(
                "box = {{ center = [{x}, {y}, {z}], half_extents = [{half}, {half}, {half}] }}"
            );
            swing_with("contact-box", &shape)
        } else {
            swing_with_ball("contact", centre, ball)
        };
        let mut checker = CellChecker::new(&cell, true);
        let mut motion = MotionCheck::new(&checker);
        let mut bounds = Vec::new();
        // Every stretch's end, every lane (a screen whose lanes were shifted by half a
        // stretch would have its stretch ends there), and near both ends of the motion.
        let stretches = (1..16).map(|k| k as f64 / (2.0 * LANES));
        for s in stretches.chain([0.01, 0.99]) {
            for sign in [1.0, -1.0] {
                let (qa, qb) = through(at, s, sign);
                // The library's bound is the swing's arc, nearly exactly.
                MotionBound::new(&cell).bodies(0, &qa, &qb, &mut bounds);
                let arc = ARM * TURN;
                let tight = bounds[0] > (1.0 - 1e-12) * arc && bounds[0] < 1.05 * arc;
                assert!(tight, "{bounds:?}");
                let configs = vec![qa.clone(), qb.clone()];
                let trajectory = Trajectory::new(vec![], vec![0.0, 1.0], configs).unwrap();
                let mode = SweepMode::Guaranteed { min_interval: 1e-6 };
                let swept = sweep(&mut checker, &trajectory, mode, |_, _| {}).unwrap();
                assert!(swept.first_collision.is_some(), "at {at}, s = {s}");
                assert!(
                    !motion.free(&mut checker, &qa, &qb, 1e-4),
                    "at {at}, through s = {s} ({sign}): certified free"
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 102);
}

#[test]
fn clearance_beyond_the_lanes_share_is_certified() {
    // The ball just outside the circle: the tip's path keeps three times the bound's share
    // of the lanes from it, so the motion is free and the check must say so.
    let share = ARM * TURN / (2.0 * LANES);
    let ball = 0.01;
    for at in [0.3, 1.9, -2.4] {
        let out = ARM + TIP + 3.0 * share + ball;
        let cell = swing_with_ball("clear", [out * f64::cos(at), out * f64::sin(at), 0.0], ball);
        let mut checker = CellChecker::new(&cell, true);
        let mut motion = MotionCheck::new(&checker);
        for k in 0..=8 {
            let (qa, qb) = through(at, k as f64 / LANES, 1.0);
            assert!(
                motion.free(&mut checker, &qa, &qb, 1e-4),
                "at {at}, s = {k}/8"
            );
        }
    }
}

#[test]
fn clearance_only_a_refined_pass_sees_is_certified() {
    // The ball just outside the circle at one angle: the lanes nearest it see a gap of a
    // third of their share (not clear), every other lane clear; the refined pass over those
    // lanes' stretches, its lanes and shares at most half as large, sees it clear.
    let share = ARM * TURN / (2.0 * LANES);
    let ball = 0.01;
    for at in [0.3, 1.9, -2.4] {
        let out = ARM + TIP + share / 3.0 + ball;
        let cell = swing_with_ball(
            "refined",
            [out * f64::cos(at), out * f64::sin(at), 0.0],
            ball,
        );
        let mut checker = CellChecker::new(&cell, true);
        let mut motion = MotionCheck::new(&checker);
        for k in 0..=16 {
            for sign in [1.0, -1.0] {
                let (qa, qb) = through(at, k as f64 / (2.0 * LANES) + 0.01, sign);
                assert!(
                    motion.free(&mut checker, &qa, &qb, 1e-4),
                    "at {at}, s = {k}/32 + 0.01 ({sign})"
                );
            }
        }
    }
}

/// The chord pass (lanes at `i/(LANES − 1)`, chords between them): the swinging tip's chords
/// cut inside its circle by their sagitta, which the pass's deviation bound `h² A / 8` equals
/// to second order here. An obstacle outside the circle that reaches the arc by 10 nm midway
/// between two of those lanes is 0.28 mm from the chords: a pass that left the deviation out
/// would certify the motion. Every first-order lane and refined lane sees it under its share,
/// so only the exact stages may settle it, and they must find the contact.
#[test]
fn a_contact_between_two_chord_lanes_is_never_certified() {
    let spacing = 1.0 / (LANES - 1.0);
    let sagitta = ARM * (1.0 - (TURN * spacing / 2.0).cos());
    assert!(sagitta > 2.5e-4, "{sagitta}");
    let overlap = 1e-8;
    let mut checked = 0;
    // A ball at three angles; a cube whose face is tangent to the circle (its faces along the
    // world axes, so at angles 0 and π/2).
    let obstacles = [
        (0.3, false),
        (1.9, false),
        (-2.4, false),
        (0.0, true),
        (std::f64::consts::FRAC_PI_2, true),
    ];
    for (at, cube) in obstacles {
        let (c, s) = (f64::cos(at), f64::sin(at));
        let cell = if cube {
            let half = 0.05;
            let out = ARM + TIP + half - overlap;
            let shape = format!(
                "box = {{ center = [{}, {}, 0.0], half_extents = [{half}, {half}, {half}] }}",
                out * c,
                out * s
            );
            swing_with("chord-box", &shape)
        } else {
            let ball = 0.05;
            let out = ARM + TIP + ball - overlap;
            swing_with_ball("chord-ball", [out * c, out * s, 0.0], ball)
        };
        let mut checker = CellChecker::new(&cell, true);
        let mut motion = MotionCheck::new(&checker);
        for i in 0..(LANES as usize - 1) {
            for sign in [1.0, -1.0] {
                let (qa, qb) = through(at, (i as f64 + 0.5) * spacing, sign);
                assert!(
                    !motion.free(&mut checker, &qa, &qb, 1e-4),
                    "at {at}, between chord lanes {i} and {} ({sign}): certified free",
                    i + 1
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 150);
}

/// A clearance of three sagittas all along the motion (a ball outside the circle, the tip
/// passing it at every stretch and lane position): under every first-order share, refined or
/// not, but clear along the chords; the motion is free and must be certified.
#[test]
fn clearance_along_the_chords_is_certified() {
    let spacing = 1.0 / (LANES - 1.0);
    let sagitta = ARM * (1.0 - (TURN * spacing / 2.0).cos());
    let ball = 0.05;
    for at in [0.3f64, 1.9, -2.4] {
        let out = ARM + TIP + 3.0 * sagitta + ball;
        let cell = swing_with_ball("chord-clear", [out * at.cos(), out * at.sin(), 0.0], ball);
        let mut checker = CellChecker::new(&cell, true);
        let mut motion = MotionCheck::new(&checker);
        for k in 0..=30 {
            for sign in [1.0, -1.0] {
                let (qa, qb) = through(at, k as f64 / 30.0, sign);
                assert!(
                    motion.free(&mut checker, &qa, &qb, 1e-4),
                    "at {at}, s = {k}/30 ({sign})"
                );
            }
        }
    }
}
