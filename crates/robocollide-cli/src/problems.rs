//! `robocollide plan --problems FILE`: a MotionBenchMaker problem set in VAMP's JSON layout
//! (`../shared/vamp-data/panda_mbm_problems.json`: per family, problems with a start, goals and
//! boxes, cylinders and spheres), each planned with RRT-Connect on the robot given by
//! `--robot URDF` (+ `--srdf`), every returned path certified by the guaranteed sweep; and,
//! with `--vamp-paths`, VAMP's own returned paths (raw and simplified) re-checked by the
//! guaranteed sweep, naming where one passes through an obstacle between VAMP's samples.
//!
//! Two phases ([`certify`]): every problem is planned first, one after another on one thread,
//! each search timed; then every path is certified, on every core the process may use. Run
//! between the searches, each path's sweep (~90 % of a run's work) left the next search to
//! start with its caches full of the sweep's data: on MotionBenchMaker the searches measured
//! 0.92× and the set-ups 0.83× their former times once the sweeps moved after them (session
//! 56, one core), with the same records.
//!
//! Obstacles are the scene's true shapes: boxes as oriented boxes, cylinders as exact
//! flat-capped cylinders (VAMP checks capsules, and cuboids for family `box`; its verdicts are
//! therefore more conservative than the scene). Frame: the robot's base is the world origin;
//! quaternions are x, y, z, w; a cylinder's axis is its local z, `length` its full height.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use robocollide::collision::self_pairs_apart_within_limits;
use robocollide::collision::{CellChecker, MotionOutcomes};
use robocollide::geom::{Cylinder, OrientedBox, Shape, Sphere};
use robocollide::math::{Isometry3, Point3, Vector3};
use robocollide::planning::{PlannerSettings, rrt_connect};
use robocollide::robot::{Cell, CellOptions, CellSource, SceneObjects};
use robocollide::validity::CellValidity;
use serde::{Deserialize, Serialize};

mod certify;
mod summary;
use certify::{PathCheck, PathChecks, VampRecord, certify_paths};
use summary::summarise;

/// What `plan --problems` was given.
pub struct ProblemRun<'a> {
    /// The problem set (VAMP's layout).
    pub problems: &'a Path,
    /// The robot (URDF) and its SRDF.
    pub robot: &'a Path,
    /// SRDF of the robot.
    pub srdf: Option<&'a Path>,
    /// VAMP's recorded paths and times (`vamp_rrtc_paths_panda.json`), to re-check and compare.
    pub vamp_paths: Option<&'a Path>,
    /// Only this family.
    pub family: Option<&'a str>,
    /// At most this many problems per family.
    pub limit: Option<usize>,
    /// Per-problem planning time limit (s).
    pub time_limit: f64,
    /// Largest tree edge (rad).
    pub max_step: f64,
    /// RRT-Connect's iteration limit per problem.
    pub max_iterations: usize,
    /// Random seed.
    pub seed: u64,
    /// Dynamic-domain sampling's radii (`None`: off).
    pub dynamic_domain: Option<robocollide::planning::DynamicDomain>,
    /// Balanced trees.
    pub balance: bool,
    /// The sampler.
    pub sampler: robocollide::planning::Sampler,
    /// Shortcuts between points inside a path's segments.
    pub point_shortcuts: usize,
    /// Where to write the JSON report.
    pub json: Option<&'a Path>,
    /// Skip planning (re-check VAMP's paths only).
    pub no_plan: bool,
}

#[derive(Deserialize)]
struct ProblemFile {
    problems: BTreeMap<String, Vec<Problem>>,
}

#[derive(Deserialize)]
struct Problem {
    index: usize,
    start: Vec<f64>,
    goals: Vec<Vec<f64>>,
    #[serde(default, rename = "box")]
    boxes: Vec<BoxRecord>,
    #[serde(default, rename = "cylinder")]
    cylinders: Vec<CylinderRecord>,
    #[serde(default, rename = "sphere")]
    spheres: Vec<SphereRecord>,
}

#[derive(Deserialize)]
struct BoxRecord {
    name: String,
    position: [f64; 3],
    orientation_quat_xyzw: [f64; 4],
    half_extents: [f64; 3],
}

#[derive(Deserialize)]
struct CylinderRecord {
    name: String,
    position: [f64; 3],
    orientation_quat_xyzw: [f64; 4],
    radius: f64,
    length: f64,
}

#[derive(Deserialize)]
struct SphereRecord {
    name: String,
    position: [f64; 3],
    radius: f64,
}

#[derive(Deserialize)]
struct VampFile {
    problems: Vec<VampProblem>,
}

#[derive(Deserialize)]
struct VampProblem {
    family: String,
    index: usize,
    #[serde(default)]
    trials: Vec<VampTrial>,
}

#[derive(Deserialize)]
struct VampTrial {
    solved: bool,
    planning_ns: u64,
    #[serde(default)]
    path: Vec<Vec<f64>>,
    #[serde(default)]
    simplified_path: Vec<Vec<f64>>,
}

/// One problem's record in the report.
#[derive(Serialize)]
struct Record {
    family: String,
    index: usize,
    /// Start and goal collision-free by robocollide's check.
    valid: bool,
    /// Why not, if not.
    invalid_reason: Option<String>,
    solved: bool,
    /// The search, from the direct try from start to goal until the trees meet (VAMP's
    /// `planning_ns` measures the same span: the start and goal checks and the planner's
    /// set-up come before either clock starts; `Plan::search_seconds`).
    planning_ns: Option<u64>,
    /// Shortcutting the found path (VAMP's `simplify_ns` measures its simplification).
    simplify_ns: Option<u64>,
    /// Building the planner's checker for the problem's scene (its obstacles added to the
    /// robot, the pairs sorted into blocks, bounds and screens set up): what a new scene
    /// costs before the search, outside both clocks above.
    setup_ns: Option<u64>,
    iterations: Option<usize>,
    motions_checked: Option<usize>,
    /// How the search's motion checks ended (from the direct try until the trees met): blocked
    /// at an interior point, blocked at the end, refused by the certificate, certified.
    search_motions: Option<MotionOutcomes>,
    /// Every edge of the returned path certified free again by a fresh motion check (the
    /// planner's two-ended certificate), and the guaranteed sweep finds no contact on it.
    certified: bool,
    /// The guaranteed sweep's re-check of the planned path (single-ended: it may leave a
    /// grazing stretch uncertified at its resolution where the two-ended test certifies it).
    sweep: Option<PathCheck>,
    path_length: Option<f64>,
    path: Vec<Vec<f64>>,
    error: Option<String>,
    vamp: Option<VampRecord>,
}

fn rotation(q: [f64; 4], field: &str) -> Result<nalgebra::UnitQuaternion<f64>> {
    let [x, y, z, w] = q;
    let norm = (x * x + y * y + z * z + w * w).sqrt();
    if !(norm.is_finite() && norm > 0.0) {
        bail!("{field}: [{x}, {y}, {z}, {w}] is not a rotation (x, y, z, w)");
    }
    Ok(nalgebra::UnitQuaternion::from_quaternion(
        nalgebra::Quaternion::new(w, x, y, z),
    ))
}

/// The problem's obstacles as named world shapes.
fn obstacles(p: &Problem) -> Result<SceneObjects> {
    let mut scene = SceneObjects::default();
    for b in &p.boxes {
        let r = rotation(b.orientation_quat_xyzw, &format!("box `{}`", b.name))?;
        let shape = OrientedBox::new(
            Point3::from(b.position),
            *r.to_rotation_matrix().matrix(),
            Vector3::from(b.half_extents),
        )
        .with_context(|| format!("box `{}`", b.name))?;
        scene.obstacles.push((b.name.clone(), Shape::Box(shape)));
    }
    for c in &p.cylinders {
        let r = rotation(c.orientation_quat_xyzw, &format!("cylinder `{}`", c.name))?;
        let at = Isometry3::from_parts(Vector3::from(c.position).into(), r);
        let half = Vector3::new(0.0, 0.0, c.length / 2.0);
        let shape = Cylinder::new(at * Point3::from(-half), at * Point3::from(half), c.radius)
            .with_context(|| format!("cylinder `{}`", c.name))?;
        scene
            .obstacles
            .push((c.name.clone(), Shape::Cylinder(shape)));
    }
    for s in &p.spheres {
        let shape = Sphere::new(Point3::from(s.position), s.radius)
            .with_context(|| format!("sphere `{}`", s.name))?;
        scene.obstacles.push((s.name.clone(), Shape::Sphere(shape)));
    }
    Ok(scene)
}

/// Why `q` is not a valid configuration (contact, or outside the limits), if it is not.
fn invalid(checker: &mut CellChecker<'_>, q: &[f64], what: &str) -> Option<String> {
    if let Err(e) = checker.validate(q) {
        return Some(format!("{what}: {e}"));
    }
    let limits = checker.limit_violations(q);
    if !limits.is_empty() {
        return Some(format!("{what}: {}", limits.join("; ")));
    }
    checker.pose(q);
    let closest = checker.closest()?;
    (closest.distance <= 0.0).then(|| {
        let p = checker.pair_report(closest.pair);
        format!(
            "{what} in collision: {} ({}) – {} ({}), {} m",
            p.a.label, p.a.link, p.b.label, p.b.link, p.distance
        )
    })
}

/// Runs the problem set; returns whether every planned path was certified.
pub fn run(run: &ProblemRun) -> Result<bool> {
    let text = std::fs::read_to_string(run.problems)
        .with_context(|| format!("reading {}", run.problems.display()))?;
    let file: ProblemFile = serde_json::from_str(&text).with_context(|| {
        format!(
            "{}: not a problem set in VAMP's layout",
            run.problems.display()
        )
    })?;
    let vamp: BTreeMap<(String, usize), VampTrial> = match run.vamp_paths {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading {}", path.display()))?;
            let v: VampFile = serde_json::from_str(&text)
                .with_context(|| format!("{}: not VAMP's recorded paths", path.display()))?;
            v.problems
                .into_iter()
                .filter_map(|p| {
                    let t = p.trials.into_iter().next()?;
                    Some(((p.family, p.index), t))
                })
                .collect()
        }
        None => BTreeMap::new(),
    };
    let (_, robot) = CellSource::read(
        run.robot,
        &CellOptions {
            srdf: run.srdf.map(PathBuf::from),
            ..CellOptions::default()
        },
    )?;
    if robot.robots.len() != 1 || robot.dof() == 0 {
        bail!("--robot must be one robot with joints (a URDF)");
    }
    let dof = robot.dof();
    // The planner's own cell: without the self pairs certified apart everywhere within the
    // joint limits, which its configurations never leave. Every returned path is certified
    // with all pairs, and VAMP's paths are re-checked with all pairs.
    let mut planning = robot.clone();
    if !run.no_plan {
        let apart = self_pairs_apart_within_limits(&robot.robots[0].model, 2, 4000);
        let self_pairs = &mut planning.robots[0].model.self_pairs.pairs;
        let checked = self_pairs.len();
        self_pairs.retain(|p| !apart.contains(p));
        println!(
            "self pairs certified apart within the joint limits (not checked while planning): {} of {checked}",
            checked - self_pairs.len()
        );
    }
    if !run.no_plan {
        println!(
            "RRT-Connect: max step {} rad, {} trees, {} samples, dynamic domain {}, at most {} iterations and {} s per problem",
            run.max_step,
            if run.balance {
                "balanced"
            } else {
                "alternating"
            },
            match run.sampler {
                robocollide::planning::Sampler::Uniform => "uniform (seeded)",
                robocollide::planning::Sampler::Halton => "Halton",
            },
            run.dynamic_domain.map_or("off".to_owned(), |d| format!(
                "radius {} rad, least {} rad",
                d.radius, d.min_radius
            )),
            run.max_iterations,
            run.time_limit
        );
    }
    let cells = Cells {
        full: &robot,
        planning: &planning,
    };
    let families: Vec<(&String, &Vec<Problem>)> = file
        .problems
        .iter()
        .filter(|(f, _)| run.family.is_none_or(|x| x == f.as_str()))
        .collect();
    if families.is_empty() {
        bail!(
            "no family {} in {} (families: {})",
            run.family.unwrap_or("?"),
            run.problems.display(),
            file.problems.keys().cloned().collect::<Vec<_>>().join(", ")
        );
    }
    let total: usize = families
        .iter()
        .map(|(_, p)| p.len().min(run.limit.unwrap_or(usize::MAX)))
        .sum();
    let tty = std::io::stderr().is_terminal();
    // Every search first, one after another on this thread; then every path certified, on
    // every core the process may use (the searches' times are not shared with sweeps).
    let (mut records, mut checks) = (Vec::new(), Vec::new());
    for (family, problems) in families {
        for p in problems.iter().take(run.limit.unwrap_or(usize::MAX)) {
            if tty {
                eprint!("\r[{}/{total}] {family} #{}   ", records.len() + 1, p.index);
                std::io::stderr().flush().ok();
            }
            let (record, scene_built) = solve(run, &cells, dof, family, p);
            records.push(record);
            checks.push(PathChecks {
                problem: p,
                scene_built,
                vamp: vamp.get(&(family.clone(), p.index)),
            });
        }
    }
    if tty {
        eprintln!();
    }
    certify_paths(&mut records, cells.full, &checks, tty);
    summarise(
        &records,
        run.vamp_paths.is_some(),
        run.no_plan,
        run.point_shortcuts,
    );
    if let Some(path) = run.json {
        std::fs::write(path, serde_json::to_string_pretty(&records)?)
            .with_context(|| format!("writing {}", path.display()))?;
        println!("report: {}", path.display());
    }
    Ok(records.iter().all(|r| !r.solved || r.certified))
}

/// The robot alone: with every self pair, and as the planner checks it.
struct Cells<'c> {
    full: &'c Cell,
    planning: &'c Cell,
}

/// Plans one problem; every failure becomes part of its record. Also returns whether the
/// problem's scene was built (the robot with every self pair, and the obstacles:
/// [`scene`]), in which [`certify_paths`] then checks the returned path and VAMP's.
fn solve(
    run: &ProblemRun,
    cells: &Cells<'_>,
    dof: usize,
    family: &str,
    p: &Problem,
) -> (Record, bool) {
    let mut record = Record {
        family: family.to_owned(),
        index: p.index,
        valid: false,
        invalid_reason: None,
        solved: false,
        planning_ns: None,
        simplify_ns: None,
        setup_ns: None,
        iterations: None,
        motions_checked: None,
        search_motions: None,
        certified: false,
        sweep: None,
        path_length: None,
        path: Vec::new(),
        error: None,
        vamp: None,
    };
    let mut scene_built = false;
    let outcome = (|| -> Result<()> {
        let cell = scene(cells.full, p)?;
        let Some(goal) = p.goals.first() else {
            bail!("no goal");
        };
        for (what, q) in [("start", &p.start), ("goal", goal)] {
            if q.len() != dof {
                bail!("{what} has {} values, the robot {dof} joints", q.len());
            }
        }
        record.invalid_reason = {
            let mut checker = CellChecker::new(&cell, true);
            invalid(&mut checker, &p.start, "start").or_else(|| invalid(&mut checker, goal, "goal"))
        };
        record.valid = record.invalid_reason.is_none();
        scene_built = true;
        if !record.valid || run.no_plan {
            return Ok(());
        }
        let setup_began = Instant::now();
        let mut planning = cells.planning.clone();
        planning.add_world_obstacles(obstacles(p)?)?;
        let mut validity = CellValidity::new(&planning, 0, p.start.clone(), 0.0, true)?;
        record.setup_ns = Some(
            setup_began
                .elapsed()
                .as_nanos()
                .try_into()
                .unwrap_or(u64::MAX),
        );
        let settings = PlannerSettings {
            max_step: run.max_step,
            max_iterations: run.max_iterations,
            seed: run.seed,
            time_limit: Duration::from_secs_f64(run.time_limit),
            dynamic_domain: run.dynamic_domain,
            balance: run.balance,
            sampler: run.sampler,
            point_shortcuts: run.point_shortcuts,
            ..Default::default()
        };
        match rrt_connect(&mut validity, &p.start, goal, &settings) {
            Ok(plan) => {
                record.solved = true;
                record.planning_ns = Some((plan.search_seconds * 1e9).round() as u64);
                record.simplify_ns = Some((plan.shortcut_seconds * 1e9).round() as u64);
                record.iterations = Some(plan.iterations);
                record.motions_checked = Some(validity.motions_checked);
                record.search_motions = plan.search_motions;
                record.path_length = Some(plan.length);
                record.path = plan.path;
            }
            Err(e) => record.error = Some(e.to_string()),
        }
        Ok(())
    })();
    if let Err(e) = outcome {
        record.error = Some(format!("{e:#}"));
    }
    (record, scene_built)
}

/// The problem's scene: the robot with every self pair (`full`), and its obstacles.
fn scene(full: &Cell, p: &Problem) -> Result<Cell> {
    let mut cell = full.clone();
    cell.add_world_obstacles(obstacles(p)?)?;
    Ok(cell)
}
