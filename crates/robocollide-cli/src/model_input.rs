//! What `check`, `sweep` and `plan` accept as their first argument: a cell or scene file
//! (TOML), or a URDF robot (with `--srdf`), which becomes a one-robot cell `R1` in metres and
//! radians; `--scene` adds a MoveIt planning scene's objects to either.

use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::Args;
use robocollide::robot::{Cell, CellOptions, CellSource};

/// Options for a URDF given directly.
#[derive(Debug, Args)]
pub struct ModelOptions {
    /// SRDF with the self-collision rules of a URDF given as the model (default without one:
    /// parent–child links are allowed to touch).
    #[arg(long, value_name = "FILE")]
    pub srdf: Option<PathBuf>,
    /// Read a URDF's <cylinder> geometry as capsules (conservative) instead of exact cylinders.
    #[arg(long)]
    pub cylinders_as_capsules: bool,
    /// A MoveIt planning scene (YAML: world.collision_objects with box, sphere and cylinder
    /// primitives, e.g. MotionBenchMaker's sceneNNNN.yaml) whose objects join the world as
    /// obstacles `W-<id>`.
    #[arg(long, value_name = "FILE")]
    pub scene: Option<PathBuf>,
}

/// Loads a cell file, or a URDF as a one-robot cell, and prints each model's warnings (e.g.
/// skipped mesh geometry) on standard error.
pub fn load_cell(path: &Path, options: &ModelOptions) -> Result<Cell> {
    let cell = read_cell(path, options)?;
    for robot in &cell.robots {
        for warning in &robot.model.warnings {
            eprintln!("robocollide: warning: {}: {warning}", robot.label);
        }
    }
    Ok(cell)
}

fn read_cell(path: &Path, options: &ModelOptions) -> Result<Cell> {
    let options = CellOptions {
        srdf: options.srdf.clone(),
        scene: options.scene.clone(),
        cylinders_as_capsules: options.cylinders_as_capsules,
    };
    Ok(CellSource::read(path, &options)?.1)
}
