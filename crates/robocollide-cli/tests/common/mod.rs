//! Helpers shared by the CLI tests: run the binary, find shipped data.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output};

/// Runs `robocollide` with `args`.
pub fn robocollide(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_robocollide"))
        .args(args)
        .output()
        .expect("binary runs")
}

/// The path of a shipped data file (`data/…`).
pub fn data(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../data")
        .join(path)
        .display()
        .to_string()
}

/// Standard output and error as text.
pub fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}
