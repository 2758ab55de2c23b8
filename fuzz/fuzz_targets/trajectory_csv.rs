//! Trajectory CSV for the shipped two-arm cell: any text gives a trajectory or an error naming
//! the line; a trajectory that parses keeps every numeric row (none dropped) and a short one
//! sweeps (guaranteed mode) without panic or hang.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use robocollide::collision::{CellChecker, SweepMode, Trajectory, sweep};
use robocollide::robot::Cell;
use robocollide::robot::model_file::parse_robot;

const CELL: &str = include_str!("../../data/cells/ur5_irb120.toml");
const UR5: &str = include_str!("../../data/robots/ur5.toml");
const IRB: &str = include_str!("../../data/robots/irb120.toml");

fn cell() -> &'static Cell {
    static CELL_MODEL: OnceLock<Cell> = OnceLock::new();
    CELL_MODEL.get_or_init(|| {
        Cell::parse_with(CELL, "cell", &|path, level| {
            let text = if path.contains("ur5") { UR5 } else { IRB };
            parse_robot(text, path, level)
        })
        .expect("the shipped cell parses")
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let cell = cell();
    let Ok(trajectory) = Trajectory::parse(text, "fuzz.csv", cell) else {
        return;
    };
    let numeric_rows = text
        .lines()
        .filter(|l| !l.trim_start().starts_with('#') && !l.trim().is_empty())
        .filter(|l| l.split(',').all(|f| f.trim().parse::<f64>().is_ok()))
        .count();
    assert_eq!(trajectory.len(), numeric_rows, "rows dropped or invented");
    if trajectory.len() <= 8 {
        let mut checker = CellChecker::new(cell, true);
        let mode = SweepMode::Guaranteed { min_interval: 1e-6 };
        let _ = sweep(&mut checker, &trajectory, mode, |_, _| {});
    }
});
