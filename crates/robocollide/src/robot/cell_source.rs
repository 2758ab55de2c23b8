//! Where a cell comes from: its main file (a cell TOML, or a URDF that becomes the one-robot
//! cell `R1`), the options given beside it (an SRDF, a MoveIt scene, cylinders read as
//! capsules), and the text of every file it is built from.
//!
//! [`CellSource::read`] reads the files once; [`CellSource::build`] builds the cell from the
//! texts alone, with no file-system access. A cell can therefore be shipped to another process
//! or machine as its sources (the Python package pickles cells this way) and rebuilt there
//! identically, without the files being present.
//!
//! Paths are kept as the loader resolved them (a model path joined to its cell file's folder),
//! so errors from a rebuilt cell name the same files as the original load.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::cell::{Cell, ModelRequest};
use super::model::RobotModel;
use super::model_file::parse_robot;
use super::obstacles::SceneObjects;
use crate::error::{Error, Result, read_text_file};

/// What may be given beside a cell's main file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CellOptions {
    /// SRDF with a URDF main file's self-collision rules (a cell file names its SRDFs itself).
    pub srdf: Option<PathBuf>,
    /// MoveIt planning scene whose objects join the world as obstacles `W-<id>`.
    pub scene: Option<PathBuf>,
    /// Read a URDF main file's `<cylinder>` geometry as capsules (conservative).
    pub cylinders_as_capsules: bool,
}

/// A cell's main file, options and every file's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CellSource {
    /// The main file, as given.
    pub path: PathBuf,
    /// Options given beside it.
    pub options: CellOptions,
    /// Text of every file read, by resolved path.
    pub files: BTreeMap<PathBuf, String>,
}

impl CellSource {
    /// Reads `path` (and every file it refers to) and builds its cell.
    pub fn read(path: &Path, options: &CellOptions) -> Result<(CellSource, Cell)> {
        let files = RefCell::new(BTreeMap::new());
        let cell = assemble(path, options, &|file: &Path| {
            let text = read_text_file(file)?;
            files.borrow_mut().insert(file.to_owned(), text.clone());
            Ok(text)
        })?;
        let source = CellSource {
            path: path.to_owned(),
            options: options.clone(),
            files: files.into_inner(),
        };
        Ok((source, cell))
    }

    /// Builds the cell from the stored texts only (no file is opened).
    pub fn build(&self) -> Result<Cell> {
        assemble(&self.path, &self.options, &|file: &Path| {
            self.files.get(file).cloned().ok_or_else(|| Error::File {
                file: file.display().to_string(),
                message: "not among the cell's stored sources".into(),
            })
        })
    }
}

/// Builds a cell, obtaining every file's text through `fetch`.
fn assemble(
    path: &Path,
    options: &CellOptions,
    fetch: &dyn Fn(&Path) -> Result<String>,
) -> Result<Cell> {
    let mut cell = if is_urdf_path(path) {
        let text = fetch(path)?;
        let srdf = match &options.srdf {
            Some(p) => Some((fetch(p)?, p.display().to_string())),
            None => None,
        };
        Cell::single(urdf_model(
            &text,
            &path.display().to_string(),
            srdf.as_ref().map(|(t, n)| (t.as_str(), n.as_str())),
            options.cylinders_as_capsules,
        )?)
    } else {
        if options.srdf.is_some() || options.cylinders_as_capsules {
            return Err(Error::Parse(format!(
                "an SRDF (--srdf) and cylinders-as-capsules apply to a URDF model (a .urdf file); {} is a cell file: give `srdf = \"…\"` or `cylinders_as_capsules = true` in its [[robots]] entry instead",
                path.display()
            )));
        }
        let folder = path.parent().unwrap_or(Path::new("."));
        let text = fetch(path)?;
        let mut cell = Cell::parse_with(
            &text,
            &path.display().to_string(),
            &|request| model_for(request, folder, fetch),
            &|scene| scene_for(scene, folder, fetch),
        )?;
        cell.trajectory = cell.trajectory.map(|t| folder.join(t));
        cell
    };
    if let Some(scene) = &options.scene {
        cell.add_world_obstacles(scene_objects(&fetch(scene)?, &scene.display().to_string())?)?;
    }
    Ok(cell)
}

/// The model a cell's `[[robots]]` entry asks for; paths relative to the cell's `folder`.
pub(super) fn model_for(
    request: &ModelRequest,
    folder: &Path,
    fetch: &dyn Fn(&Path) -> Result<String>,
) -> Result<RobotModel> {
    let path = folder.join(request.path);
    let file = path.display().to_string();
    if is_urdf_path(&path) {
        if let Some(level) = request.level {
            return Err(Error::Parse(format!(
                "{}: level `{}` applies to DH model files; a URDF brings its own collision bodies",
                request.path,
                level.name()
            )));
        }
        let srdf = match request.srdf {
            Some(s) => {
                let srdf_path = folder.join(s);
                Some((fetch(&srdf_path)?, srdf_path.display().to_string()))
            }
            None => None,
        };
        return urdf_model(
            &fetch(&path)?,
            &file,
            srdf.as_ref().map(|(t, n)| (t.as_str(), n.as_str())),
            request.cylinders_as_capsules,
        );
    }
    if request.srdf.is_some() || request.cylinders_as_capsules {
        return Err(Error::Parse(format!(
            "{}: `srdf` and `cylinders_as_capsules` apply to URDF models only",
            request.path
        )));
    }
    parse_robot(&fetch(&path)?, &file, request.level)
}

/// The objects of a cell's `scene = "…"`, relative to the cell's `folder`.
pub(super) fn scene_for(
    scene: &str,
    folder: &Path,
    fetch: &dyn Fn(&Path) -> Result<String>,
) -> Result<SceneObjects> {
    let file = folder.join(scene);
    scene_objects(&fetch(&file)?, &file.display().to_string())
}

/// `true` if `path` names a URDF file (extension `.urdf`, any case).
fn is_urdf_path(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("urdf"))
}

#[cfg(feature = "urdf")]
fn urdf_model(
    text: &str,
    file: &str,
    srdf: Option<(&str, &str)>,
    cylinders_as_capsules: bool,
) -> Result<RobotModel> {
    super::urdf::parse_urdf(
        text,
        file,
        srdf,
        &super::urdf::UrdfOptions {
            cylinders_as_capsules,
        },
    )
}

#[cfg(not(feature = "urdf"))]
fn urdf_model(_: &str, file: &str, _: Option<(&str, &str)>, _: bool) -> Result<RobotModel> {
    Err(Error::Parse(format!(
        "{file}: reading URDF needs robocollide's `urdf` feature"
    )))
}

#[cfg(feature = "moveit")]
fn scene_objects(text: &str, file: &str) -> Result<SceneObjects> {
    super::moveit_scene::parse_scene(text, file)
}

#[cfg(not(feature = "moveit"))]
fn scene_objects(_: &str, file: &str) -> Result<SceneObjects> {
    Err(Error::Parse(format!(
        "{file}: reading MoveIt scenes needs robocollide's `moveit` feature"
    )))
}
