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
        Cell::parse_with(
            CELL,
            "cell",
            &|request| {
                let text = if request.path.contains("ur5") { UR5 } else { IRB };
                parse_robot(text, request.path, request.level)
            },
            &|scene| Err(robocollide::Error::Parse(format!("no scene {scene}"))),
        )
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
    // Only a first record with a non-numeric field may be taken as the header: every other
    // record is a sample (records counted with CSV quoting, as a spreadsheet writes them).
    let mut reader = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .trim(csv::Trim::All)
        .flexible(true)
        .has_headers(false)
        .from_reader(text.as_bytes());
    let records: Vec<csv::StringRecord> = reader.records().filter_map(Result::ok).collect();
    let header = records
        .first()
        .is_some_and(|r| r.iter().any(|f| f.parse::<f64>().is_err()));
    assert_eq!(trajectory.len(), records.len() - usize::from(header), "rows dropped or invented");
    if trajectory.len() <= 8 {
        let mut checker = CellChecker::new(cell, true);
        let mode = SweepMode::Guaranteed { min_interval: 1e-6 };
        let _ = sweep(&mut checker, &trajectory, mode, |_, _| {});
    }
});
