//! Issue 9's bugs, one regression test each, named after the bug (bugs 1 and 2 for the pair
//! kernels are in `witnesses.rs`; the command-line ones in the CLI's `hostile_input.rs`).

use std::path::{Path, PathBuf};

use robocollide::collision::{CellChecker, SweepMode, Trajectory, sweep};
use robocollide::error::read_text_file;
use robocollide::mechanism::FourCStudy;
use robocollide::robot::Cell;

fn data(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../data")
        .join(path)
}

fn cell() -> Cell {
    Cell::load(&data("cells/ur5_irb120.toml")).unwrap()
}

const HEADER: &str = "t,a1,a2,a3,a4,a5,a6,b1,b2,b3,b4,b5,b6\n";

/// Bug 1 (robots): a body radius of 1e308 made `check` report clear; now it is refused.
#[test]
fn regression_huge_robot_radius_is_refused_not_clear() {
    let text = r#"
name = "big"
[[robots]]
name = "ball"
bodies = [ { name = "b", sphere = { center = [0, 0, 0], radius = 1e308 } } ]
"#;
    let e = Cell::parse(text, "big.toml", Path::new("."))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("big.toml") && e.contains("1e308") && e.contains("out of range"),
        "{e}"
    );
    let e = Cell::parse(
        &text
            .replace("radius = 1e308", "radius = 1")
            .replace("[[robots]]", "[[robots]]\nbase = { xyz = [1e200, 0, 0] }"),
        "far.toml",
        Path::new("."),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("base.x") && e.contains("out of range"), "{e}");
}

/// Bug 3: a CSV without a header silently lost its first row (the start was never checked).
#[test]
fn regression_csv_without_header_keeps_its_first_row() {
    let cell = cell();
    let rows = "0,0,0,0,0,0,0,0,0,0,0,0,0\n1,10,0,0,0,0,0,0,0,0,0,0,0\n";
    let plain = Trajectory::parse(rows, "t.csv", &cell).unwrap();
    assert_eq!(plain.len(), 2);
    assert_eq!(plain.times, vec![0.0, 1.0]);
    assert_eq!(plain.columns[0], "t");
    assert_eq!(plain.columns[1], "R1.q1");
    let with_header = Trajectory::parse(&format!("{HEADER}{rows}"), "t.csv", &cell).unwrap();
    assert_eq!(with_header.configs, plain.configs);
    assert_eq!(with_header.columns[1], "a1");
}

/// Bug 4: rows 0.5 µs apart could not be certified before `min_interval`, and the sweep
/// reported FIRST CONTACT between two bodies 0.14 m apart. Now: uncertified, not contact.
#[test]
fn regression_uncertified_stretch_is_not_a_contact() {
    let cell = cell();
    let text = format!("{HEADER}0,0,0,0,0,0,0,0,0,0,0,0,0\n0.0000005,90,0,0,0,0,0,0,0,0,0,0,0\n");
    let trajectory = Trajectory::parse(&text, "fast.csv", &cell).unwrap();
    let mut checker = CellChecker::new(&cell, true);
    let mode = SweepMode::Guaranteed { min_interval: 1e-6 };
    let report = sweep(&mut checker, &trajectory, mode, |_, _| {}).unwrap();
    assert!(
        report.first_collision.is_none(),
        "{:?}",
        report.first_collision
    );
    assert!(report.collision_intervals.is_empty());
    assert_eq!(report.uncertified, vec![(0.0, 0.0000005)]);
    assert!(!report.certified_free());
}

/// Bug 5: the shipped UR5 (seed 000's standard level, joints 1–3 only) missed its own wrist
/// 9.5 cm inside the IRB 120's base. Shipped models now cover the whole arm and say so.
#[test]
fn regression_shipped_ur5_covers_its_wrist() {
    // The robots only: this arm pose also reaches through the table, which is not the bug.
    let mut cell = cell();
    cell.robots
        .retain(|r| r.label != robocollide::robot::WORLD_LABEL);
    cell.allowed.clear();
    let deg = |v: &[f64]| v.iter().map(|x| x.to_radians()).collect::<Vec<_>>();
    let mut q = deg(&[10.6, -175.9, -30.5, 28.8, -172.8, 41.7]);
    q.extend(deg(&[0.0; 6]));
    let mut checker = CellChecker::new(&cell, false);
    let report = checker.check(&q, 0.0).unwrap();
    assert!(report.collision, "{report:?}");
    let closest = report.closest.unwrap();
    assert!(closest.distance < -0.09, "{closest:?}");
    assert_eq!(closest.a.link, "wrist_2");
    assert!(
        report.robots.iter().all(|r| r.level == "precise"),
        "{:?}",
        report.robots
    );
}

/// Bug 6: epoch timestamps (and `min_interval` below the float spacing of t) made the
/// guaranteed sweep bisect for ever. It now stops at the resolution of t, with bounded work.
#[test]
fn regression_sweep_terminates_on_epoch_times() {
    let cell = cell();
    let text = format!(
        "{HEADER}1700000000,0,0,0,0,0,0,0,0,0,0,0,0\n1700000001,180,-60,60,-90,0,0,0,30,0,0,0,0\n1700000002,0,0,0,0,0,0,0,0,0,0,0,0\n"
    );
    let trajectory = Trajectory::parse(&text, "epoch.csv", &cell).unwrap();
    let mut checker = CellChecker::new(&cell, true);
    for min_interval in [1e-6, 1e-300] {
        let mode = SweepMode::Guaranteed { min_interval };
        let report = sweep(&mut checker, &trajectory, mode, |_, _| {}).unwrap();
        assert!(report.first_collision.is_some());
        assert!(
            report.evaluations < 2 * 4096 + 3 + 2 * 64,
            "{}",
            report.evaluations
        );
    }
}

/// Bug 7: a directory, `/dev/zero` or a FIFO given as a file hung or looped; only regular
/// files are read.
#[test]
fn regression_non_regular_files_are_refused() {
    for path in ["/dev/zero", env!("CARGO_MANIFEST_DIR")] {
        let e = read_text_file(Path::new(path)).unwrap_err().to_string();
        assert!(e.contains(path) && e.contains("not a regular file"), "{e}");
    }
    let e = Cell::load(Path::new("/dev/zero")).unwrap_err().to_string();
    assert!(e.contains("not a regular file"), "{e}");
}

/// Bug 8: a 4C link length of 0 printed `-inf` and looped in the plotting code, and
/// `increments = 100000000` ran out of memory. Both are refused with the value named.
#[test]
fn regression_fourc_zero_link_and_huge_increments_are_refused() {
    let text = std::fs::read_to_string(data("mechanisms/seed003_case_study.toml")).unwrap();
    assert!(text.contains("a = 100.0"), "fixture changed");
    let e = FourCStudy::parse(&text.replacen("a = 100.0", "a = 0.0", 1), "m.toml")
        .unwrap_err()
        .to_string();
    assert!(e.contains("link length a = 0 must be > 0"), "{e}");
    let e = FourCStudy::parse(
        &text.replacen("increments = 50", "increments = 100000000", 1),
        "m.toml",
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("at most 100000 are allowed"), "{e}");
}
