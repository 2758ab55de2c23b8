//! `Cell`: robots (and the world's obstacles) loaded from a cell TOML or a URDF(+SRDF), with
//! checks, batches of checks, forward kinematics, Jacobians, sweeps, planning and the
//! velocity filter.
//!
//! Units: configurations are given and returned in the cell file's units (its `units`, e.g.
//! degrees; radians and metres for a URDF), all robots' joints concatenated in cell order;
//! lengths, points and Jacobians are metres (Jacobians per radian or metre). A cell pickles as
//! the text of every file it was built from (`robocollide::robot::CellSource`), so it rebuilds
//! in another process or machine without the files.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use rayon::prelude::*;
use robocollide::collision::{CellChecker, MotionCheck, SweepMode, Trajectory, sweep};
use robocollide::control::{FilterSettings, VelocityFilter as RustFilter};
use robocollide::planning::{MAX_POINT_SHORTCUTS, PlannerSettings, Sampler, rrt_connect};
use robocollide::robot::{Cell as RustCell, CellOptions, CellSource};
use robocollide::validity::CellValidity;

use crate::convert::{PlanningError, array2, bad, error, numbers, point, rows};
use crate::reports::{CheckReport, SweepReport, to_plain};
use crate::shapes::to_python;

/// A trajectory's times (m,) and configurations (m, dof).
type TimesAndConfigurations<'py> = (Bound<'py, PyArray1<f64>>, Bound<'py, PyArray2<f64>>);

self_cell::self_cell!(
    /// A checker kept with the cell it borrows (building one per call costs more than a
    /// check).
    struct CachedChecker {
        owner: Arc<RustCell>,
        #[covariant]
        dependent: CellChecker,
    }
);

self_cell::self_cell!(
    /// A velocity filter kept with the cell it borrows.
    struct CachedFilter {
        owner: Arc<RustCell>,
        #[covariant]
        dependent: RustFilter,
    }
);

/// Robots and obstacles in one world.
#[pyclass(module = "robocollide", frozen)]
pub struct Cell {
    source: CellSource,
    cell: Arc<RustCell>,
    /// Checkers without and with self pairs, built on first use.
    checkers: [Mutex<Option<CachedChecker>>; 2],
}

impl Cell {
    fn new(source: CellSource, cell: RustCell) -> Self {
        Self {
            source,
            cell: Arc::new(cell),
            checkers: [Mutex::new(None), Mutex::new(None)],
        }
    }

    /// Runs `f` with this cell's checker (self pairs included or not), built on first use.
    fn with_checker<R>(&self, include_self: bool, f: impl FnOnce(&mut CellChecker<'_>) -> R) -> R {
        let mut slot = self.checkers[usize::from(include_self)]
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let cached = slot.get_or_insert_with(|| {
            CachedChecker::new(self.cell.clone(), |cell| {
                CellChecker::new(cell, include_self)
            })
        });
        cached.with_dependent_mut(|_, checker| f(checker))
    }
}

/// Loads a cell file (TOML), or a URDF robot (a one-robot cell `R1`) with an optional SRDF;
/// `scene` adds a MoveIt planning scene's objects as obstacles `W-<id>`.
#[pyfunction]
#[pyo3(signature = (path, srdf=None, scene=None, cylinders_as_capsules=false))]
pub fn load_cell(
    path: PathBuf,
    srdf: Option<PathBuf>,
    scene: Option<PathBuf>,
    cylinders_as_capsules: bool,
) -> PyResult<Cell> {
    let options = CellOptions {
        srdf,
        scene,
        cylinders_as_capsules,
    };
    let (source, cell) = CellSource::read(&path, &options).map_err(error)?;
    Ok(Cell::new(source, cell))
}

/// Rebuilds a pickled cell from its sources.
#[pyfunction]
pub fn _cell_from_sources(
    path: PathBuf,
    srdf: Option<PathBuf>,
    scene: Option<PathBuf>,
    cylinders_as_capsules: bool,
    files: BTreeMap<PathBuf, String>,
) -> PyResult<Cell> {
    let source = CellSource {
        path,
        options: CellOptions {
            srdf,
            scene,
            cylinders_as_capsules,
        },
        files,
    };
    let cell = source.build().map_err(error)?;
    Ok(Cell::new(source, cell))
}

impl Cell {
    /// The library's cell.
    pub fn inner(&self) -> &RustCell {
        &self.cell
    }

    /// A configuration in cell units as radians and metres, validated (finite, right length).
    fn internal(&self, q: &Bound<'_, PyAny>, field: &str) -> PyResult<Vec<f64>> {
        let values = numbers(q, field)?;
        self.cell
            .configuration_from_units(&values)
            .map_err(|e| bad(format!("{field}: {e}")))
    }

    fn to_units(&self, q: &[f64]) -> Vec<f64> {
        q.iter()
            .zip(self.cell.joint_scales())
            .map(|(v, s)| v / s)
            .collect()
    }

    fn robot_index(&self, label: &str) -> PyResult<usize> {
        self.cell
            .robots
            .iter()
            .position(|r| r.label == label)
            .ok_or_else(|| {
                bad(format!(
                    "no robot `{label}` (robots: {})",
                    self.labels().join(", ")
                ))
            })
    }

    fn labels(&self) -> Vec<String> {
        self.cell.robots.iter().map(|r| r.label.clone()).collect()
    }

    /// Rows of an (m, dof) array in radians and metres.
    fn configurations(&self, q: &Bound<'_, PyAny>, field: &str) -> PyResult<Vec<Vec<f64>>> {
        let dof = self.cell.dof();
        let data = rows(q, dof, field)?;
        data.chunks(dof.max(1))
            .take(data.len().checked_div(dof).unwrap_or(0))
            .enumerate()
            .map(|(k, row)| {
                self.cell
                    .configuration_from_units(row)
                    .map_err(|e| bad(format!("{field}[{k}]: {e}")))
            })
            .collect()
    }
}

#[pymethods]
impl Cell {
    /// The cell's name.
    #[getter]
    fn name(&self) -> &str {
        &self.cell.name
    }
    /// Robot labels in cell order (`["R1", "R2", "W"]`; `W` holds the world's obstacles).
    #[getter]
    fn robots(&self) -> Vec<String> {
        self.labels()
    }
    /// Number of joint values of the whole cell.
    #[getter]
    fn dof(&self) -> usize {
        self.cell.dof()
    }
    /// Joint names in configuration order, as `"R1:shoulder_pan_joint"`.
    #[getter]
    fn joint_names(&self) -> Vec<String> {
        self.cell
            .robots
            .iter()
            .flat_map(|r| {
                r.model
                    .tree()
                    .variable_names()
                    .map(|n| format!("{}:{n}", r.label))
                    .collect::<Vec<_>>()
            })
            .collect()
    }
    /// Home configuration (cell units).
    #[getter]
    fn home<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        let q: Vec<f64> = self
            .cell
            .robots
            .iter()
            .flat_map(|r| r.home.clone())
            .collect();
        PyArray1::from_vec(py, self.to_units(&q))
    }
    /// The cell's reporting threshold (m).
    #[getter]
    fn threshold(&self) -> f64 {
        self.cell.threshold
    }
    /// Joint limits (dof, 2) in cell units; ±inf where a joint has none.
    #[getter]
    fn limits<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        let mut data = Vec::new();
        for r in &self.cell.robots {
            let tree = r.model.tree();
            for v in 0..tree.dof() {
                let (lo, hi) = tree
                    .variable_joint(v)
                    .limits
                    .unwrap_or((f64::NEG_INFINITY, f64::INFINITY));
                data.extend([lo, hi]);
            }
        }
        let scales = self.cell.joint_scales();
        for (k, x) in data.iter_mut().enumerate() {
            *x /= scales[k / 2];
        }
        array2(py, data, 2)
    }

    /// Checks one configuration (cell units, all robots' joints in order): robot–robot,
    /// robot–world and (unless `self_collision=False`) self pairs. `threshold` (m, default the
    /// cell's) selects `close_pairs`.
    #[pyo3(signature = (q, threshold=None, self_collision=true))]
    fn check(
        &self,
        py: Python<'_>,
        q: &Bound<'_, PyAny>,
        threshold: Option<f64>,
        self_collision: bool,
    ) -> PyResult<CheckReport> {
        let q = self.internal(q, "q")?;
        let threshold = threshold.unwrap_or(self.cell.threshold);
        if !(threshold.is_finite() && threshold >= 0.0) {
            return Err(bad(format!(
                "threshold must be a finite distance >= 0, got {threshold}"
            )));
        }
        let report = py.detach(|| self.with_checker(self_collision, |c| c.check(&q, threshold)));
        Ok(CheckReport::new(report.map_err(error)?))
    }

    /// Checks every row of an (m, dof) array (cell units) in parallel with the GIL released,
    /// with the fast closest-pair search (no witnesses). Returns a dict of arrays: `distance`
    /// (m,) the smallest signed distance, `collision` (m,) booleans, `pair` (m,) the index of
    /// the closest pair (-1 when no pair is checked) into `pairs`, the list of checked pairs as
    /// label tuples (`pairs[pair[k]]` names the closest bodies of row k).
    #[pyo3(signature = (q, self_collision=true))]
    fn check_many<'py>(
        &self,
        py: Python<'py>,
        q: &Bound<'_, PyAny>,
        self_collision: bool,
    ) -> PyResult<Bound<'py, PyDict>> {
        let dof = self.cell.dof();
        let scales = self.cell.joint_scales();
        let data = rows(q, dof, "q")?;
        let m = data.len().checked_div(dof).unwrap_or(0);
        if let Some(k) = data.iter().position(|v| !v.is_finite()) {
            return Err(bad(format!(
                "q[{}][{}] must be finite, got {}",
                k / dof,
                k % dof,
                data[k]
            )));
        }
        let mut distance = vec![f64::INFINITY; m];
        let mut pair = vec![-1i64; m];
        let labels: Vec<(String, String)> = py.detach(|| {
            self.with_checker(self_collision, |template| {
                let threads = rayon::current_num_threads().max(1);
                let chunk = m.div_ceil(threads).max(256);
                distance
                    .par_chunks_mut(chunk)
                    .zip(pair.par_chunks_mut(chunk))
                    .enumerate()
                    .for_each(|(c, (distance, pair))| {
                        let mut checker = template.clone();
                        let mut q = vec![0.0; dof];
                        for i in 0..distance.len() {
                            let row = &data[(c * chunk + i) * dof..(c * chunk + i + 1) * dof];
                            for ((x, v), s) in q.iter_mut().zip(row).zip(&scales) {
                                *x = v * s;
                            }
                            checker.pose(&q);
                            if let Some(closest) = checker.closest() {
                                distance[i] = closest.distance;
                                pair[i] = closest.pair as i64;
                            }
                        }
                    });
                template
                    .pairs()
                    .iter()
                    .map(|p| {
                        (
                            template.element(p.robot_a, p.body_a).label,
                            template.element(p.robot_b, p.body_b).label,
                        )
                    })
                    .collect()
            })
        });
        let dict = PyDict::new(py);
        dict.set_item(
            "collision",
            PyArray1::from_iter(py, distance.iter().map(|&x| x <= 0.0)),
        )?;
        dict.set_item("distance", PyArray1::from_vec(py, distance))?;
        dict.set_item("pair", PyArray1::from_vec(py, pair))?;
        dict.set_item("pairs", labels)?;
        Ok(dict)
    }

    /// Link frames at `q`: `{robot label: (links, 4, 4) array}` of homogeneous transforms in
    /// the world (metres), links in the order of `link_names(robot)`.
    fn frames<'py>(&self, py: Python<'py>, q: &Bound<'_, PyAny>) -> PyResult<Bound<'py, PyDict>> {
        let q = self.internal(q, "q")?;
        let dict = PyDict::new(py);
        let mut offset = 0;
        for robot in &self.cell.robots {
            let dof = robot.model.dof();
            let frames = robot
                .model
                .frames(&q[offset..offset + dof])
                .map_err(error)?;
            offset += dof;
            let mut data = Vec::with_capacity(frames.len() * 16);
            for f in &frames {
                let m = f.to_isometry().to_homogeneous();
                data.extend((0..4).flat_map(|i| (0..4).map(move |j| m[(i, j)])));
            }
            let array = PyArray1::from_vec(py, data).reshape([frames.len(), 4, 4])?;
            let array: Bound<'py, PyArray3<f64>> = array;
            dict.set_item(&robot.label, array)?;
        }
        Ok(dict)
    }

    /// Link names of robot `robot` (the order of `frames`).
    fn link_names(&self, robot: &str) -> PyResult<Vec<String>> {
        let r = self.robot_index(robot)?;
        Ok(self.cell.robots[r].model.tree().links().to_vec())
    }

    /// Every body's shape in the world at `q`: a list of `(label, link, Shape)`.
    fn shapes<'py>(&self, py: Python<'py>, q: &Bound<'_, PyAny>) -> PyResult<Bound<'py, PyList>> {
        let q = self.internal(q, "q")?;
        let list = PyList::empty(py);
        let mut offset = 0;
        for robot in &self.cell.robots {
            let dof = robot.model.dof();
            let shapes = robot
                .model
                .world_shapes(&q[offset..offset + dof])
                .map_err(error)?;
            offset += dof;
            for (b, shape) in shapes.into_iter().enumerate() {
                let body = &robot.model.bodies[b];
                list.append((
                    format!("{}-{}", robot.label, body.name),
                    robot.model.link_name(b).to_owned(),
                    to_python(py, shape)?,
                ))?;
            }
        }
        Ok(list)
    }

    /// The Jacobian (3, dof of `robot`) of the world point `point` fixed on `link` of robot
    /// `robot`, at the cell configuration `q` (cell units): metres per radian (or per metre).
    fn jacobian<'py>(
        &self,
        py: Python<'py>,
        q: &Bound<'_, PyAny>,
        robot: &str,
        link: &str,
        point_on_link: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let q = self.internal(q, "q")?;
        let r = self.robot_index(robot)?;
        let model = &self.cell.robots[r].model;
        let l = model.tree().link_index(link).ok_or_else(|| {
            bad(format!(
                "{robot}: no link `{link}` (links: {})",
                model.tree().links().join(", ")
            ))
        })?;
        let p = point(point_on_link, "point")?;
        let offset: usize = self.cell.robots[..r].iter().map(|x| x.model.dof()).sum();
        let frames = model
            .frames(&q[offset..offset + model.dof()])
            .map_err(error)?;
        let columns = model.tree().point_jacobian(&frames, l, &p);
        let mut data = vec![0.0; 3 * columns.len()];
        for (j, c) in columns.iter().enumerate() {
            for i in 0..3 {
                data[i * columns.len() + j] = c[i];
            }
        }
        Ok(array2(py, data, columns.len()))
    }

    /// Reads a trajectory CSV in the cell's format (`time, joints…` in cell units; the
    /// header rule and errors as `robocollide sweep`): returns `(times (m,), q (m, dof))` in
    /// cell units. `path=None`: the cell's own `trajectory`.
    #[pyo3(signature = (path=None))]
    fn read_trajectory<'py>(
        &self,
        py: Python<'py>,
        path: Option<PathBuf>,
    ) -> PyResult<TimesAndConfigurations<'py>> {
        let path = path
            .or_else(|| self.cell.trajectory.clone())
            .ok_or_else(|| {
                bad(format!(
                    "cell `{}` names no trajectory: give a path",
                    self.cell.name
                ))
            })?;
        let trajectory = Trajectory::load(&path, &self.cell).map_err(error)?;
        let q: Vec<f64> = trajectory
            .configs
            .iter()
            .flat_map(|q| self.to_units(q))
            .collect();
        Ok((
            PyArray1::from_vec(py, trajectory.times),
            array2(py, q, self.cell.dof()),
        ))
    }

    /// Sweeps a trajectory: `times` (m,) increasing seconds, `q` (m, dof) in cell units.
    /// `guaranteed=True` certifies every stretch between rows (no contact can be missed),
    /// bisecting down to `min_interval` seconds; `False` checks the rows only.
    #[pyo3(signature = (times, q, guaranteed=true, min_interval=1e-6, self_collision=true))]
    fn sweep(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
        times: &Bound<'_, PyAny>,
        q: &Bound<'_, PyAny>,
        guaranteed: bool,
        min_interval: f64,
        self_collision: bool,
    ) -> PyResult<SweepReport> {
        let this = slf.get();
        let times = numbers(times, "times")?;
        let configs = this.configurations(q, "q")?;
        let trajectory = Trajectory::new(vec![], times, configs).map_err(error)?;
        if !(min_interval.is_finite() && min_interval > 0.0) {
            return Err(bad(format!(
                "min_interval must be a positive number of seconds, got {min_interval}"
            )));
        }
        let mode = if guaranteed {
            SweepMode::Guaranteed { min_interval }
        } else {
            SweepMode::Sampled
        };
        let (report, labels) = py.detach(|| {
            let mut checker = CellChecker::new(&this.cell, self_collision);
            let labels = checker
                .pairs()
                .iter()
                .map(|p| {
                    (
                        checker.element(p.robot_a, p.body_a).label,
                        checker.element(p.robot_b, p.body_b).label,
                    )
                })
                .collect();
            (sweep(&mut checker, &trajectory, mode, |_, _| {}), labels)
        });
        Ok(SweepReport {
            report: report.map_err(error)?,
            labels,
            cell: slf.clone().unbind(),
            trajectory,
            self_collision,
        })
    }

    /// Plans a certified path for robot `robot` (default: the first robot with joints) from
    /// `start` to `goal` (that robot's joints, cell units) with RRT-Connect; the other robots
    /// hold `fixed` (a whole-cell configuration, default home). Every motion is certified
    /// contact-free (and at least `clearance` m apart at the evaluated configurations); the
    /// returned path is re-verified by the guaranteed sweep. `max_step` is the largest tree
    /// edge (rad; default 1, as the library's `PlannerSettings`); `sampler` is `"uniform"`
    /// (seeded by `seed`) or `"halton"` (the deterministic Halton sequence, as VAMP
    /// samples); `balance` grows the smaller tree (default) instead of alternating;
    /// `point_shortcuts` (0 to 100 000, default 0) shortcuts between points inside the
    /// path's segments after the waypoint shortcuts, for shorter paths at more checking.
    /// Returns a dict: `path`, `length`, `raw_length`, `iterations`, `tree_nodes`,
    /// `motions_checked`, `certified`, `search_motions` (how the search's motion checks ended:
    /// a dict of counts `blocked_inside`, `blocked_at_end`, `refused`, `certified`, `invalid`;
    /// `None` with a clearance, whose motions the sweep checks), and the times in seconds:
    /// `seconds` (the whole call), `search_seconds` (the search alone, as VAMP times its
    /// planning: no set-up, no shortcutting) and `shortcut_seconds`.
    /// Raises `PlanningError` when no path is found within the limits.
    #[pyo3(signature = (start, goal, robot=None, fixed=None, seed=1, time_limit=10.0, max_step=1.0, clearance=0.0, sampler="uniform", balance=true, point_shortcuts=0))]
    #[allow(clippy::too_many_arguments)]
    fn plan<'py>(
        &self,
        py: Python<'py>,
        start: &Bound<'_, PyAny>,
        goal: &Bound<'_, PyAny>,
        robot: Option<&str>,
        fixed: Option<&Bound<'_, PyAny>>,
        seed: u64,
        time_limit: f64,
        max_step: f64,
        clearance: f64,
        sampler: &str,
        balance: bool,
        point_shortcuts: i64,
    ) -> PyResult<Bound<'py, PyDict>> {
        let point_shortcuts = match usize::try_from(point_shortcuts) {
            Ok(n) if n <= MAX_POINT_SHORTCUTS => n,
            _ => {
                return Err(bad(format!(
                    "point_shortcuts must be between 0 and {MAX_POINT_SHORTCUTS}, got {point_shortcuts}"
                )));
            }
        };
        let sampler = match sampler {
            "uniform" => Sampler::Uniform,
            "halton" => Sampler::Halton,
            other => {
                return Err(bad(format!(
                    "sampler must be \"uniform\" or \"halton\", got {other:?}"
                )));
            }
        };
        let r = match robot {
            Some(label) => self.robot_index(label)?,
            None => self
                .cell
                .robots
                .iter()
                .position(|x| x.model.dof() > 0)
                .ok_or_else(|| bad("the cell has no robot with joints".into()))?,
        };
        let fixed = match fixed {
            Some(f) => self.internal(f, "fixed")?,
            None => self
                .cell
                .robots
                .iter()
                .flat_map(|x| x.home.clone())
                .collect(),
        };
        let offset: usize = self.cell.robots[..r].iter().map(|x| x.model.dof()).sum();
        let dof = self.cell.robots[r].model.dof();
        let scales = self.cell.joint_scales()[offset..offset + dof].to_vec();
        let scaled = |value: &Bound<'_, PyAny>, field: &str| -> PyResult<Vec<f64>> {
            let v = numbers(value, field)?;
            if v.len() != dof {
                return Err(bad(format!(
                    "{field}: robot {} has {dof} joint(s), got {} value(s)",
                    self.cell.robots[r].label,
                    v.len()
                )));
            }
            Ok(v.iter().zip(&scales).map(|(x, s)| x * s).collect())
        };
        let (start, goal) = (scaled(start, "start")?, scaled(goal, "goal")?);
        if !(time_limit.is_finite() && time_limit > 0.0) {
            return Err(bad(format!(
                "time_limit must be positive seconds, got {time_limit}"
            )));
        }
        if !(max_step.is_finite() && max_step > 0.0) {
            return Err(bad(format!(
                "max_step must be a positive step, got {max_step}"
            )));
        }
        let settings = PlannerSettings {
            max_step,
            seed,
            time_limit: Duration::from_secs_f64(time_limit),
            sampler,
            balance,
            point_shortcuts,
            ..Default::default()
        };
        let outcome = py.detach(|| -> robocollide::Result<_> {
            let mut validity = CellValidity::new(&self.cell, r, fixed, clearance, true)?;
            let plan = rrt_connect(&mut validity, &start, &goal, &settings)?;
            let full: Vec<Vec<f64>> = plan.path.iter().map(|q| validity.full(q)).collect();
            let trajectory = Trajectory::at_unit_joint_speed(full.clone())?;
            let mut checker = CellChecker::new(&self.cell, true);
            let report = sweep(
                &mut checker,
                &trajectory,
                SweepMode::Guaranteed { min_interval: 1e-6 },
                |_, _| {},
            )?;
            // Certified: every edge again by a fresh two-ended motion check, and no contact by
            // the guaranteed sweep (which may leave a grazing stretch uncertified at its
            // resolution where the two-ended test certifies it).
            let mut motion = MotionCheck::new(&checker);
            let edges = full
                .windows(2)
                .all(|w| motion.free(&mut checker, &w[0], &w[1], 1e-6));
            Ok((
                plan,
                validity.motions_checked,
                edges && report.first_collision.is_none(),
            ))
        });
        let (plan, motions, certified) = match outcome {
            Ok(x) => x,
            Err(robocollide::Error::Planning(message)) => {
                return Err(PlanningError::new_err(message));
            }
            Err(e) => return Err(error(e)),
        };
        let path: Vec<f64> = plan
            .path
            .iter()
            .flat_map(|q| {
                q.iter()
                    .zip(&scales)
                    .map(|(x, s)| x / s)
                    .collect::<Vec<_>>()
            })
            .collect();
        let dict = PyDict::new(py);
        dict.set_item("path", array2(py, path, dof))?;
        dict.set_item("length", plan.length)?;
        dict.set_item("raw_length", plan.raw_length)?;
        dict.set_item("iterations", plan.iterations)?;
        dict.set_item("tree_nodes", plan.tree_nodes)?;
        dict.set_item("motions_checked", motions)?;
        dict.set_item("seconds", plan.seconds)?;
        dict.set_item("search_seconds", plan.search_seconds)?;
        dict.set_item("shortcut_seconds", plan.shortcut_seconds)?;
        dict.set_item("certified", certified)?;
        let outcomes = match plan.search_motions {
            Some(o) => {
                let counts = PyDict::new(py);
                counts.set_item("blocked_inside", o.blocked_inside)?;
                counts.set_item("blocked_at_end", o.blocked_at_end)?;
                counts.set_item("refused", o.refused)?;
                counts.set_item("certified", o.certified)?;
                counts.set_item("invalid", o.invalid)?;
                Some(counts)
            }
            None => None,
        };
        dict.set_item("search_motions", outcomes)?;
        Ok(dict)
    }

    /// A collision-avoidance velocity filter (seed 002) on this cell; see `VelocityFilter`.
    #[pyo3(signature = (influence=0.15, safety=0.05, max_approach=0.5, dt=0.01, max_joint_speed=2.0, moving=None, protect=None, self_collision=false, chains=None, limp=None, form="damped"))]
    #[allow(clippy::too_many_arguments)]
    fn velocity_filter(
        slf: Py<Self>,
        py: Python<'_>,
        influence: f64,
        safety: f64,
        max_approach: f64,
        dt: f64,
        max_joint_speed: f64,
        moving: Option<Vec<String>>,
        protect: Option<BTreeMap<String, Vec<String>>>,
        self_collision: bool,
        chains: Option<BTreeMap<String, Vec<String>>>,
        limp: Option<BTreeMap<String, Vec<String>>>,
        form: &str,
    ) -> PyResult<VelocityFilter> {
        let form = match form {
            "damped" => robocollide::control::ConstraintForm::Damped,
            "literal" => robocollide::control::ConstraintForm::Literal,
            other => {
                return Err(crate::convert::bad(format!(
                    "form must be \"damped\" or \"literal\", got {other:?}"
                )));
            }
        };
        let settings = FilterSettings {
            influence,
            safety,
            max_approach,
            dt,
            max_joint_speed,
            form,
        };
        let cell = slf.bind(py).get();
        let moving: Vec<bool> = match &moving {
            Some(labels) => {
                for l in labels {
                    cell.robot_index(l)?;
                }
                cell.cell
                    .robots
                    .iter()
                    .map(|r| labels.contains(&r.label))
                    .collect()
            }
            None => vec![true; cell.cell.robots.len()],
        };
        let protect: Vec<(String, Vec<String>)> = protect.unwrap_or_default().into_iter().collect();
        let (chains, limp) = (chains.unwrap_or_default(), limp.unwrap_or_default());
        let filter = CachedFilter::try_new(cell.cell.clone(), |owned| {
            let mut filter = RustFilter::new(owned, self_collision, moving, settings)?;
            for (robot, links) in &protect {
                let links: Vec<&str> = links.iter().map(String::as_str).collect();
                filter.protect_links(robot, &links)?;
            }
            for (robot, groups) in &chains {
                for group in groups {
                    filter.protect_chain(robot, group, true)?;
                }
            }
            for (robot, groups) in &limp {
                for group in groups {
                    filter.set_stiff(robot, group, false)?;
                }
            }
            Ok::<_, robocollide::Error>(filter)
        })
        .map_err(error)?;
        Ok(VelocityFilter {
            cell: slf.clone_ref(py),
            filter: Mutex::new(filter),
        })
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let py = slf.py();
        let s = &slf.get().source;
        let rebuild = py.import("robocollide")?.getattr("_cell_from_sources")?;
        let args = (
            s.path.clone(),
            s.options.srdf.clone(),
            s.options.scene.clone(),
            s.options.cylinders_as_capsules,
            s.files.clone(),
        )
            .into_pyobject(py)?
            .into_any();
        Ok((rebuild, args))
    }

    fn __repr__(&self) -> String {
        format!(
            "Cell({:?}, robots={:?}, dof={})",
            self.cell.name,
            self.labels(),
            self.cell.dof()
        )
    }
}

/// The velocity filter of seed 002: each `step(q, qdot_des)` solves
/// min ½‖q̇ − q̇_des‖² subject to, for every pair closer than `influence`, an approach speed
/// of at most `max_approach · (d − safety)/(influence − safety)`, plus joint speed limits.
/// Configurations and velocities in cell units (per second).
#[pyclass(module = "robocollide", frozen)]
pub struct VelocityFilter {
    cell: Py<Cell>,
    filter: Mutex<CachedFilter>,
}

#[pymethods]
impl VelocityFilter {
    /// One control period: returns a dict with `qdot` (filtered velocities, cell units per
    /// second; held robots 0), `status` (`"Solved"`, `"Infeasible"`: stop, `"Failed"`) and
    /// `pairs` (each constrained pair: elements, distance, bound, speeds, active).
    fn step<'py>(
        &self,
        py: Python<'py>,
        q: &Bound<'_, PyAny>,
        qdot_des: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let cell = self.cell.bind(py).get();
        let q = cell.internal(q, "q")?;
        let qdot = cell.internal(qdot_des, "qdot_des")?;
        let result = py
            .detach(|| {
                let mut filter = self
                    .filter
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                filter.with_dependent_mut(|_, f| f.step(&q, &qdot))
            })
            .map_err(error)?;
        let plain = to_plain(py, &result)?;
        plain.set_item("qdot", PyArray1::from_vec(py, cell.to_units(&result.qdot)))?;
        Ok(plain)
    }
}
