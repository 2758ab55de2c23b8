//! What `check`, `sweep` and `plan` accept as their first argument: a cell or scene file
//! (TOML), or a URDF robot (with `--srdf`), which becomes a one-robot cell `R1` in metres and
//! radians; `--scene` adds a MoveIt planning scene's objects to either.

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use clap::Args;
use robocollide::robot::Cell;
use robocollide::robot::urdf::{UrdfOptions, is_urdf_path, load_urdf};

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
    let mut cell = read_robots(path, options)?;
    if let Some(scene) = &options.scene {
        cell.add_world_obstacles(robocollide::robot::moveit_scene::load_scene(scene)?)?;
    }
    Ok(cell)
}

fn read_robots(path: &Path, options: &ModelOptions) -> Result<Cell> {
    if is_urdf_path(path) {
        let model = load_urdf(
            path,
            options.srdf.as_deref(),
            &UrdfOptions {
                cylinders_as_capsules: options.cylinders_as_capsules,
            },
        )?;
        return Ok(Cell::single(model));
    }
    if options.srdf.is_some() || options.cylinders_as_capsules {
        bail!(
            "--srdf and --cylinders-as-capsules apply to a URDF model (a .urdf file); {} is a cell file: give `srdf = \"…\"` in its [[robots]] entry instead",
            path.display()
        );
    }
    Ok(Cell::load(path)?)
}
