//! Robot, cell and 4C mechanism TOML: any text gives a model or an error, never a panic, a hang
//! or an unbounded allocation; a mechanism that parses can be studied (bounded by MAX_STEPS).
#![no_main]

use libfuzzer_sys::fuzz_target;
use robocollide::mechanism::FourCStudy;
use robocollide::robot::Cell;
use robocollide::robot::model_file::parse_robot;

const UR5: &str = include_str!("../../data/robots/ur5.toml");

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = parse_robot(text, "fuzz.toml", None);
    // Cells with obstacles, attachments and allowed pairs parse or fail by name; a scene
    // file is one more YAML parser (robot::moveit_scene), fed the same text.
    let _ = Cell::parse_with(
        text,
        "fuzz.toml",
        &|request| parse_robot(UR5, "ur5.toml", request.level),
        &|_| robocollide::robot::moveit_scene::parse_scene(text, "fuzz.yaml"),
    );
    if let Ok(study) = FourCStudy::parse(text, "fuzz.toml") {
        if study.configurations().map_or(0, |c| c.len()) <= 2_000 {
            let _ = study.run();
        }
    }
});
