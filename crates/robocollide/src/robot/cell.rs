//! Cells: several robots placed in one world, loaded from a TOML file. A robot is either a
//! model file (kinematic) or a list of bodies given directly in the world (a static scene, as
//! in seed 004's Table 3).
//!
//! ```toml
//! name = "two-arm cell"
//! units = { length = "m", angle = "deg" }   # units of this file (bases, homes, trajectories)
//! threshold = 0.05                          # report every pair closer than this
//! trajectory = "collide.csv"                # optional default trajectory (relative path)
//!
//! [[robots]]
//! label = "R1"                              # report label (R1-S2, R2-C3, …)
//! model = "../robots/ur5.toml"              # relative to this file
//! level = "standard"                        # optional override of the model's level
//! # or a URDF (joint values in the cell's units; URDF itself is m and rad):
//! # model = "../robots/panda/panda_spherized.urdf"
//! # srdf = "../robots/panda/panda.srdf"      # optional self-collision rules
//! # cylinders_as_capsules = true             # optional, URDF cylinders read as capsules
//! base = { xyz = [0, 0, 0], rpy = [0, 0, 0] }
//! home = [0, -90, 90, 0, 90, 0]
//!
//! [[robots]]                                # a static robot given by bodies (world frame)
//! label = "R2"
//! name = "fixture"
//! [[robots.bodies]]
//! name = "post"
//! capsule = { a = [1, 0, 0], b = [1, 0, 1], radius = 0.1 }
//! ```

use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use super::body::BodyShape;
use super::detail::DetailLevel;
use super::model::RobotModel;
use super::model_file::{BodyRecord, PoseRecord};
use super::obstacles::{
    AllowedPair, AllowedRecord, ObstacleRecord, SceneObjects, WorldObstacle, WorldRecords,
    place_obstacles,
};
use super::self_pairs::SelfPairs;
use super::units::Units;
use crate::error::{Error, Result};
use crate::error::{line_of, read_text_file};
use crate::kinematics::KinematicTree;
use crate::math::Real;

/// What a cell asks of its model loader for one `[[robots]]` entry.
#[derive(Debug, Clone, Copy)]
pub struct ModelRequest<'a> {
    /// `model = "…"` as written (relative to the cell file).
    pub path: &'a str,
    /// `level = "…"`, if given.
    pub level: Option<DetailLevel>,
    /// `srdf = "…"` as written, if given (URDF models).
    pub srdf: Option<&'a str>,
    /// `cylinders_as_capsules = true` (URDF models).
    pub cylinders_as_capsules: bool,
}

/// A robot placed in a cell.
#[derive(Debug, Clone, PartialEq)]
pub struct CellRobot {
    /// Report label, e.g. `R1`.
    pub label: String,
    /// The model, with its base placed in the cell.
    pub model: RobotModel,
    /// Home configuration (radians / metres), zeros if not given.
    pub home: Vec<Real>,
}

/// Robots sharing a workspace.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// Cell name.
    pub name: String,
    /// The robots, in file order.
    pub robots: Vec<CellRobot>,
    /// Distance below which pairs are reported (m).
    pub threshold: Real,
    /// Units of the cell file (also used for its trajectories).
    pub units: Units,
    /// Default trajectory, resolved against the cell file's folder.
    pub trajectory: Option<PathBuf>,
    /// Body pairs allowed to touch (never checked): `mounted_on` and `[[allowed]]` entries.
    pub allowed: Vec<AllowedPair>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CellRobotRecord {
    #[serde(default)]
    label: Option<String>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    model: Option<String>,
    #[serde(default)]
    level: Option<DetailLevel>,
    #[serde(default)]
    srdf: Option<String>,
    #[serde(default)]
    cylinders_as_capsules: bool,
    #[serde(default)]
    base: Option<PoseRecord>,
    #[serde(default)]
    home: Option<Vec<Real>>,
    #[serde(default)]
    bodies: Vec<Spanned<BodyRecord>>,
    #[serde(default)]
    mounted_on: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CellRecord {
    name: String,
    #[serde(default)]
    units: Units,
    #[serde(default)]
    threshold: Option<Real>,
    #[serde(default)]
    trajectory: Option<String>,
    #[serde(default)]
    scene: Option<String>,
    robots: Vec<Spanned<CellRobotRecord>>,
    #[serde(default)]
    obstacles: Vec<Spanned<ObstacleRecord>>,
    #[serde(default)]
    allowed: Vec<Spanned<AllowedRecord>>,
}

impl Cell {
    /// The shipped demo cell (a UR5 and an IRB 120 on a table), for unit tests.
    #[cfg(test)]
    pub(crate) fn shipped_demo() -> Cell {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/cells/ur5_irb120.toml");
        Cell::load(&path).expect("the shipped demo cell loads")
    }

    /// Loads a cell (or static scene) file; model paths are relative to its folder.
    pub fn load(path: &Path) -> Result<Cell> {
        let text = read_text_file(path)?;
        Self::parse(
            &text,
            &path.display().to_string(),
            path.parent().unwrap_or(Path::new(".")),
        )
    }

    /// Parses a cell from `text`; `file` names it in errors, `folder` resolves model paths.
    pub fn parse(text: &str, file: &str, folder: &Path) -> Result<Cell> {
        let fetch = |path: &Path| read_text_file(path);
        let mut cell = Self::parse_with(
            text,
            file,
            &|request| super::cell_source::model_for(request, folder, &fetch),
            &|scene| super::cell_source::scene_for(scene, folder, &fetch),
        )?;
        cell.trajectory = cell.trajectory.map(|t| folder.join(t));
        Ok(cell)
    }

    /// Parses a cell, loading each `model = "…"` through `load_model` and `scene = "…"` through
    /// `load_scene` (used to read files embedded in a binary). The trajectory path is returned
    /// as written.
    pub fn parse_with(
        text: &str,
        file: &str,
        load_model: &dyn Fn(&ModelRequest) -> Result<RobotModel>,
        load_scene: &dyn Fn(&str) -> Result<SceneObjects>,
    ) -> Result<Cell> {
        let err = |message: String| Error::File {
            file: file.to_owned(),
            message,
        };
        let record: CellRecord =
            toml::from_str(text).map_err(|e| err(e.to_string().trim_end().to_owned()))?;
        let units = record.units;
        let threshold = record.threshold.unwrap_or(0.0) * units.metres();
        if !(threshold.is_finite() && threshold >= 0.0) {
            return Err(err(format!(
                "threshold must be a finite distance >= 0, got {}",
                record.threshold.unwrap_or(0.0)
            )));
        }
        let mut robots = Vec::new();
        for (i, spanned) in record.robots.iter().enumerate() {
            let r = spanned.get_ref();
            let line = line_of(text, spanned.span().start);
            let here = |m: String| err(format!("line {line}: robots[{i}]: {m}"));
            let label = r.label.clone().unwrap_or_else(|| format!("R{}", i + 1));
            if robots.iter().any(|x: &CellRobot| x.label == label) {
                return Err(here(format!("duplicate label `{label}`")));
            }
            let base = r
                .base
                .unwrap_or_default()
                .to_isometry(&units, "base")
                .map_err(here)?;
            let mut model =
                match (&r.model, r.bodies.is_empty()) {
                    (Some(model), true) => load_model(&ModelRequest {
                        path: model,
                        level: r.level,
                        srdf: r.srdf.as_deref(),
                        cylinders_as_capsules: r.cylinders_as_capsules,
                    })?,
                    (None, false) => {
                        let name = r.name.clone().unwrap_or_else(|| label.clone());
                        let links = vec![name.clone()];
                        let bodies = r
                            .bodies
                            .iter()
                            .map(|b| {
                                b.get_ref().to_body(&units, &links).map_err(|e| {
                                    err(format!("line {}: {e}", line_of(text, b.span().start)))
                                })
                            })
                            .collect::<Result<Vec<_>>>()?;
                        RobotModel::new(
                            name.clone(),
                            KinematicTree::fixed_base(&name),
                            bodies,
                            SelfPairs::default(),
                        )
                        .map_err(|e| here(e.to_string()))?
                    }
                    _ => return Err(here(
                        "give either `model` (a robot file) or `bodies` (a static robot), not both"
                            .into(),
                    )),
                };
            let placed = base * model.tree().base;
            model.set_base(placed).map_err(|e| here(e.to_string()))?;
            let home = match &r.home {
                Some(h) => {
                    let scaled: Vec<Real> = h
                        .iter()
                        .enumerate()
                        .take(model.dof())
                        .map(|(v, x)| x * units.joint_scale(model.tree().variable_kind(v)))
                        .collect();
                    model
                        .tree()
                        .check_configuration(&if h.len() == scaled.len() {
                            scaled.clone()
                        } else {
                            h.clone()
                        })
                        .map_err(|e| here(format!("home: {e}")))?;
                    scaled
                }
                None => vec![0.0; model.dof()],
            };
            robots.push(CellRobot { label, model, home });
        }
        if robots.is_empty() {
            return Err(err("a cell needs at least one robot".into()));
        }
        let scene = match &record.scene {
            Some(path) => load_scene(path)?,
            None => SceneObjects::default(),
        };
        let lines = |spans: &mut dyn Iterator<Item = usize>| -> Vec<usize> {
            spans.map(|start| line_of(text, start)).collect()
        };
        let obstacle_lines = lines(&mut record.obstacles.iter().map(|o| o.span().start));
        let allowed_lines = lines(&mut record.allowed.iter().map(|o| o.span().start));
        let robot_lines = lines(&mut record.robots.iter().map(|o| o.span().start));
        let records = WorldRecords {
            obstacles: obstacle_lines
                .into_iter()
                .zip(record.obstacles.iter().map(|o| o.get_ref()))
                .collect(),
            scene: scene
                .obstacles
                .iter()
                .map(|(name, shape)| WorldObstacle {
                    name: name.clone(),
                    shape: BodyShape::from_world(shape),
                })
                .collect(),
            scene_warnings: scene.warnings,
            mounted_on: robot_lines
                .into_iter()
                .zip(record.robots.iter().map(|r| r.get_ref().mounted_on.clone()))
                .collect(),
            allowed: allowed_lines
                .into_iter()
                .zip(record.allowed.iter().map(|o| o.get_ref()))
                .collect(),
        };
        let allowed = place_obstacles(&mut robots, records, &units)
            .map_err(|(what, message)| err(format!("{what}: {message}")))?;
        Ok(Cell {
            name: record.name,
            robots,
            threshold,
            units,
            trajectory: record.trajectory.map(PathBuf::from),
            allowed,
        })
    }

    /// A cell of one robot, `R1`, at the world origin, in metres and radians; its home is the
    /// model's [`default_home`](RobotModel::default_home).
    pub fn single(model: RobotModel) -> Cell {
        Cell {
            name: model.name.clone(),
            robots: vec![CellRobot {
                label: "R1".into(),
                home: model.default_home(),
                model,
            }],
            threshold: 0.0,
            units: Units::default(),
            trajectory: None,
            allowed: Vec::new(),
        }
    }

    /// Total number of joint values (all robots, in order).
    pub fn dof(&self) -> usize {
        self.robots.iter().map(|r| r.model.dof()).sum()
    }

    /// Per joint value of the whole cell (all robots, in order), the factor from the cell
    /// file's units (e.g. degrees, millimetres) to radians or metres.
    pub fn joint_scales(&self) -> Vec<Real> {
        self.robots
            .iter()
            .flat_map(|r| r.model.tree().variable_kinds())
            .map(|kind| self.units.joint_scale(kind))
            .collect()
    }

    /// A whole-cell configuration given in the cell file's units, in radians and metres;
    /// the error names the expected length.
    pub fn configuration_from_units(&self, q: &[Real]) -> Result<Vec<Real>> {
        let scales = self.joint_scales();
        if q.len() != scales.len() {
            return Err(Error::LengthMismatch {
                what: format!(
                    "joint values of cell `{}` (all robots, in order)",
                    self.name
                ),
                expected: scales.len(),
                got: q.len(),
            });
        }
        Ok(q.iter().zip(&scales).map(|(v, s)| v * s).collect())
    }
}
