//! URDF and SRDF text: any input gives a robot or an error naming the file, never a panic, a
//! hang or an unbounded allocation; a robot that loads can be posed and checked at its default
//! home. The input is tried as a URDF (alone), and as the SRDF of the shipped Panda.
#![no_main]

use libfuzzer_sys::fuzz_target;
use robocollide::collision::CellChecker;
use robocollide::robot::Cell;
use robocollide::robot::urdf::{UrdfOptions, parse_urdf};

const PANDA: &str = include_str!("../../data/robots/panda/panda_spherized.urdf");

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let options = UrdfOptions::default();
    for model in [
        parse_urdf(text, "fuzz.urdf", None, &options),
        parse_urdf(PANDA, "panda.urdf", Some((text, "fuzz.srdf")), &options),
    ]
    .into_iter()
    .flatten()
    {
        let cell = Cell::single(model);
        let mut checker = CellChecker::new(&cell, true);
        let home = cell.robots[0].home.clone();
        if checker.validate(&home).is_ok() {
            checker.pose(&home);
            let _ = checker.closest();
            let _ = checker.in_contact();
        }
    }
});
