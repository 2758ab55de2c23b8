//! The world around the robots: a cell file's `[[obstacles]]`, `scene = "…"` (a MoveIt
//! planning scene) and `[[allowed]]` pairs.
//!
//! ```toml
//! [[obstacles]]                      # in the world frame, in the cell's units
//! name = "table"
//! box = { center = [0.5, 0, -0.02], half_extents = [0.8, 0.6, 0.02], rpy = [0, 0, 0] }
//!
//! [[obstacles]]
//! name = "floor"                     # a half-space: the solid below the plane
//! plane = { point = [0, 0, -0.04], normal = [0, 0, 1] }
//!
//! [[obstacles]]                      # attached: moves with a robot's link (a held part, a
//! name = "part"                      # tool); coordinates in that link's frame
//! sphere = { center = [0, 0, 0.1], radius = 0.03 }
//! attach = { robot = "R1", link = "wrist_3" }
//! touch_links = ["wrist_2"]          # links it may touch besides its own (default none)
//!
//! [[allowed]]                        # element pairs that may touch (never checked)
//! a = "R1:base"                      # ROBOT (all its bodies), ROBOT:LINK, or a body label
//! b = "W-fixture"                    # as reports print it (R2-C3, W-table)
//! reason = "bolted together"
//! ```
//!
//! Shapes: `sphere`, `capsule`, `cylinder`, `box` (`rpy` in the cell's angle unit) and, for
//! world obstacles only, `plane` (a half-space cannot move with a link: its motion bound would
//! be unbounded).
//!
//! World obstacles become the bodies of one extra robot without joints, labelled `W` and
//! placed last in the cell, so that every command checks, names and reports them like any
//! other element (`W-table`) and cell configurations are unchanged. Attached obstacles become
//! bodies of their robot on the named link, checked against that robot's other links (not its
//! own link or `touch_links`) and against everything else.
//!
//! A robot mounted on a table must not "collide" with it: `mounted_on = "table"` in its
//! `[[robots]]` entry allows the pairs between the named world obstacle and the robot's bodies
//! that no motion brings into or out of contact with it: in contact in every one of 64
//! configurations sampled over the joint ranges — the base standing on it, a first link turning
//! on it (MoveIt's rule for pairs "always in collision") — or at the same distance in all of
//! them (a shoulder ball turning about the vertical above it, which can never touch it; its
//! constraint would only stall the velocity filter). Every other body stays checked.

use serde::Deserialize;

use super::body::{Anchor, Body, BodyShape};
use super::cell::CellRobot;
use super::model::RobotModel;
use super::model_file::{AxisRecord, BodyRecord, BoxRecord, LinkRef, SphereRecord};
use super::self_pairs::SelfPairs;
use super::units::Units;
use crate::kinematics::KinematicTree;
use crate::math::{Point3, Real, Vector3};

/// The label of the robot that carries the world's obstacles.
pub const WORLD_LABEL: &str = "W";

/// A half-space record: a point of its boundary plane and the outward normal.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PlaneRecord {
    point: [Real; 3],
    normal: [Real; 3],
}

/// Where an obstacle is attached.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AttachRecord {
    robot: String,
    link: String,
}

/// One `[[obstacles]]` entry.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ObstacleRecord {
    name: String,
    #[serde(default)]
    sphere: Option<SphereRecord>,
    #[serde(default)]
    capsule: Option<AxisRecord>,
    #[serde(default)]
    cylinder: Option<AxisRecord>,
    #[serde(default, rename = "box")]
    cuboid: Option<BoxRecord>,
    #[serde(default)]
    plane: Option<PlaneRecord>,
    #[serde(default)]
    attach: Option<AttachRecord>,
    #[serde(default)]
    touch_links: Vec<String>,
}

/// One `[[allowed]]` entry.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AllowedRecord {
    a: String,
    b: String,
    #[serde(default)]
    reason: Option<String>,
}

/// Bodies of the cell (robot index, body index) allowed to touch each other, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct AllowedPair {
    /// One side: `(robot, body)` indices into the cell.
    pub a: Vec<(usize, usize)>,
    /// The other side.
    pub b: Vec<(usize, usize)>,
    /// Why (`mounted on table`, or the file's reason).
    pub reason: String,
}

impl AllowedPair {
    /// `true` if the pair of `(robot, body)` elements `x`, `y` is allowed by this entry, in
    /// either order.
    pub fn allows(&self, x: (usize, usize), y: (usize, usize)) -> bool {
        (self.a.contains(&x) && self.b.contains(&y)) || (self.a.contains(&y) && self.b.contains(&x))
    }
}

/// Obstacles read from a scene file (world frame), and what the reader had to adjust.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SceneObjects {
    /// Named shapes in the world frame.
    pub obstacles: Vec<(String, crate::geom::Shape)>,
    /// One line per adjustment (e.g. a quaternion normalised).
    pub warnings: Vec<String>,
}

/// A world obstacle ready to become a body of the world robot.
#[derive(Debug, Clone)]
pub(crate) struct WorldObstacle {
    pub name: String,
    pub shape: BodyShape,
}

impl ObstacleRecord {
    /// The obstacle's body on link `link` of a robot whose links are `links`, in metres.
    fn body(&self, units: &Units, links: &[String], link: usize) -> Result<Body, String> {
        if let Some(p) = &self.plane {
            let shapes = [
                self.sphere.is_some(),
                self.capsule.is_some(),
                self.cylinder.is_some(),
                self.cuboid.is_some(),
            ];
            if shapes.iter().any(|s| *s) {
                return Err("give exactly one of sphere, capsule, cylinder, box, plane".into());
            }
            let point = Point3::from(Vector3::from(p.point) * units.metres());
            let plane = crate::geom::Plane::new(point, Vector3::from(p.normal))
                .map_err(|e| e.to_string())?;
            return Ok(Body {
                name: self.name.clone(),
                link,
                shape: BodyShape::Plane {
                    point: Anchor {
                        frame: link,
                        at: plane.point(),
                    },
                    normal: plane.normal(),
                },
            });
        }
        BodyRecord {
            name: self.name.clone(),
            link: Some(LinkRef::Index(link)),
            sphere: self.sphere.clone(),
            capsule: self.capsule.clone(),
            cylinder: self.cylinder.clone(),
            cuboid: self.cuboid.clone(),
        }
        .to_body(units, links)
        .map_err(|e| e.replace(", box", ", box, plane"))
    }
}

/// What a cell file says about the world, with the file line of each entry.
pub(crate) struct WorldRecords<'a> {
    pub obstacles: Vec<(usize, &'a ObstacleRecord)>,
    pub scene: Vec<WorldObstacle>,
    pub scene_warnings: Vec<String>,
    /// Per robot: the line of its entry and the obstacle it is mounted on.
    pub mounted_on: Vec<(usize, Option<String>)>,
    pub allowed: Vec<(usize, &'a AllowedRecord)>,
}

/// Adds the obstacles, the world robot and the allowed pairs to `robots`. Errors are
/// `(what, message)` with `what` naming the line and entry (`line 9: obstacles[2] \`part\``).
pub(crate) fn place_obstacles(
    robots: &mut Vec<CellRobot>,
    records: WorldRecords,
    units: &Units,
) -> Result<Vec<AllowedPair>, (String, String)> {
    let WorldRecords {
        obstacles,
        scene,
        scene_warnings,
        mounted_on,
        allowed,
    } = records;
    let mut world = Vec::new();
    let world_links = vec!["world".to_owned()];
    for (i, (line, o)) in obstacles.iter().enumerate() {
        let what = format!("line {line}: obstacles[{i}] `{}`", o.name);
        let fail = |m: String| (what.clone(), m);
        match &o.attach {
            None => {
                if !o.touch_links.is_empty() {
                    return Err(fail("`touch_links` applies to attached obstacles".into()));
                }
                world.push(o.body(units, &world_links, 0).map_err(fail)?);
            }
            Some(attach) => {
                if o.plane.is_some() {
                    return Err(fail(
                        "a plane (half-space) can only be a world obstacle, not attached".into(),
                    ));
                }
                let robot = robots
                    .iter_mut()
                    .find(|r| r.label == attach.robot)
                    .ok_or_else(|| fail(format!("attach: unknown robot `{}`", attach.robot)))?;
                attach_body(robot, o, units).map_err(fail)?;
            }
        }
    }
    world.extend(scene.into_iter().map(|o| Body {
        name: o.name,
        link: 0,
        shape: o.shape,
    }));
    let mut names = std::collections::HashSet::new();
    for body in &world {
        if !names.insert(body.name.clone()) {
            return Err((
                format!("obstacle `{}`", body.name),
                "the name is used twice".into(),
            ));
        }
    }
    if !world.is_empty() {
        if robots.iter().any(|r| r.label == WORLD_LABEL) {
            return Err((
                "robots".into(),
                format!("the label `{WORLD_LABEL}` is reserved for the world's obstacles"),
            ));
        }
        let mut model = RobotModel::new(
            "world".into(),
            KinematicTree::fixed_base("world"),
            world,
            SelfPairs::default(),
        )
        .map_err(|e| ("obstacles".to_owned(), e.to_string()))?;
        model.format = super::ModelFormat::Obstacles;
        model.warnings = scene_warnings;
        robots.push(CellRobot {
            label: WORLD_LABEL.into(),
            model,
            home: Vec::new(),
        });
    }
    let mut pairs = Vec::new();
    for (r, (line, on)) in mounted_on.iter().enumerate() {
        let Some(name) = on else { continue };
        let what = format!("line {line}: robots[{r}]: mounted_on");
        let obstacle = robots
            .iter()
            .position(|x| x.label == WORLD_LABEL)
            .and_then(|w| {
                robots[w]
                    .model
                    .bodies
                    .iter()
                    .position(|b| &b.name == name)
                    .map(|b| (w, b))
            })
            .ok_or_else(|| (what.clone(), format!("no world obstacle is named `{name}`")))?;
        let fixed = always_touching(&robots[r].model, &robots[obstacle.0].model, obstacle.1);
        pairs.push(AllowedPair {
            a: fixed.into_iter().map(|b| (r, b)).collect(),
            b: vec![obstacle],
            reason: format!("mounted on `{name}`"),
        });
    }
    for (i, (line, entry)) in allowed.iter().enumerate() {
        let what = format!("line {line}: allowed[{i}]");
        let a = select(robots, &entry.a).map_err(|m| (what.clone(), format!("a: {m}")))?;
        let b = select(robots, &entry.b).map_err(|m| (what.clone(), format!("b: {m}")))?;
        pairs.push(AllowedPair {
            a,
            b,
            reason: entry
                .reason
                .clone()
                .unwrap_or_else(|| "allowed by the cell file".into()),
        });
    }
    Ok(pairs)
}

/// Configurations sampled for the `mounted_on` rule (as for self pairs in contact by
/// construction).
const MOUNT_SAMPLES: usize = super::self_pairs::STRUCTURAL_SAMPLES;

/// Relative spread of a body's distance to the mount over the samples below which the
/// distance counts as fixed (rounding only).
const FIXED_DISTANCE: Real = 1e-9;

/// Bodies of `model` that no motion brings into or out of contact with body `obstacle` of
/// the (jointless) `world`: in contact in every one of [`MOUNT_SAMPLES`] configurations spread
/// over the joint ranges (the base standing on the table, a first link turning on it —
/// MoveIt's "always in collision"), or at the same distance in all of them (a shoulder ball
/// turning about the vertical axis above the table — it can never touch it).
fn always_touching(model: &RobotModel, world: &RobotModel, obstacle: usize) -> Vec<usize> {
    let Ok(shapes) = world.world_shapes(&[]) else {
        return Vec::new();
    };
    let target = shapes[obstacle];
    let mut range = vec![(Real::INFINITY, Real::NEG_INFINITY); model.bodies.len()];
    for q in model.sample_configurations(MOUNT_SAMPLES) {
        let Ok(posed) = model.world_shapes(&q) else {
            return Vec::new();
        };
        for ((low, high), shape) in range.iter_mut().zip(&posed) {
            let d = crate::query::shape_shape(shape, &target).distance;
            (*low, *high) = (low.min(d), high.max(d));
        }
    }
    (0..model.bodies.len())
        .filter(|&b| {
            let (low, high) = range[b];
            high <= 0.0 || high - low <= FIXED_DISTANCE * (1.0 + high.abs())
        })
        .collect()
}

impl super::Cell {
    /// Adds world obstacles (named shapes in the world frame, e.g. a MoveIt scene's) to the
    /// cell's world robot `W`, creating it if the cell has none; `warnings` are kept with it
    /// for reports. Names must be new.
    pub fn add_world_obstacles(&mut self, scene: SceneObjects) -> crate::Result<()> {
        let existing = self.robots.iter().position(|r| r.label == WORLD_LABEL);
        let (mut bodies, mut warnings) = match existing {
            Some(w) if self.robots[w].model.dof() == 0 => (
                self.robots[w].model.bodies.clone(),
                self.robots[w].model.warnings.clone(),
            ),
            Some(_) => {
                return Err(crate::Error::Parse(format!(
                    "the label `{WORLD_LABEL}` is reserved for the world's obstacles"
                )));
            }
            None => (Vec::new(), Vec::new()),
        };
        for (name, shape) in scene.obstacles {
            if bodies.iter().any(|b| b.name == name) {
                return Err(crate::Error::Parse(format!(
                    "obstacle `{name}`: the name is used twice"
                )));
            }
            bodies.push(Body {
                name,
                link: 0,
                shape: BodyShape::from_world(&shape),
            });
        }
        warnings.extend(scene.warnings);
        let mut model = RobotModel::new(
            "world".into(),
            KinematicTree::fixed_base("world"),
            bodies,
            SelfPairs::default(),
        )?;
        model.format = super::ModelFormat::Obstacles;
        model.warnings = warnings;
        let robot = CellRobot {
            label: WORLD_LABEL.into(),
            model,
            home: Vec::new(),
        };
        match existing {
            Some(w) => self.robots[w] = robot,
            None => self.robots.push(robot),
        }
        Ok(())
    }
}

/// Adds an attached obstacle to `robot` and its self pairs with the robot's bodies on other
/// links than its own and its `touch_links`.
fn attach_body(robot: &mut CellRobot, o: &ObstacleRecord, units: &Units) -> Result<(), String> {
    let Some(attach) = &o.attach else {
        return Ok(());
    };
    let model = &mut robot.model;
    let tree = model.tree();
    let link_of = |name: &str| {
        tree.link_index(name).ok_or_else(|| {
            format!(
                "robot `{}` has no link `{name}` (links: {})",
                robot.label,
                tree.links().join(", ")
            )
        })
    };
    let link = link_of(&attach.link)?;
    let mut touching = vec![link];
    for name in &o.touch_links {
        touching.push(link_of(name)?);
    }
    let body = o.body(units, tree.links(), link)?;
    if model.bodies.iter().any(|b| b.name == body.name) {
        return Err(format!(
            "robot `{}` already has a body named `{}`",
            robot.label, body.name
        ));
    }
    super::model::check_body_count(model.bodies.len() + 1)?;
    let index = model.bodies.len();
    let pairs: Vec<(usize, usize)> = (0..index)
        .filter(|&j| !touching.contains(&model.bodies[j].link))
        .map(|j| (j, index))
        .collect();
    model.bodies.push(body);
    model.self_pairs.pairs.extend(pairs);
    Ok(())
}

/// The `(robot, body)` elements an `[[allowed]]` side names: `ROBOT`, `ROBOT:LINK` or a body
/// label `ROBOT-BODY`.
fn select(robots: &[CellRobot], text: &str) -> Result<Vec<(usize, usize)>, String> {
    let all = |r: usize, keep: &dyn Fn(&Body) -> bool| -> Vec<(usize, usize)> {
        (0..robots[r].model.bodies.len())
            .filter(|&b| keep(&robots[r].model.bodies[b]))
            .map(|b| (r, b))
            .collect()
    };
    if let Some(r) = robots.iter().position(|x| x.label == text) {
        return Ok(all(r, &|_| true));
    }
    if let Some((label, link)) = text.split_once(':') {
        let r = robots
            .iter()
            .position(|x| x.label == label)
            .ok_or_else(|| format!("unknown robot `{label}` in `{text}`"))?;
        let tree = robots[r].model.tree();
        let l = tree
            .link_index(link)
            .ok_or_else(|| format!("robot `{label}` has no link `{link}`"))?;
        return Ok(all(r, &|b| b.link == l));
    }
    for (r, robot) in robots.iter().enumerate() {
        if let Some(body) = text.strip_prefix(&format!("{}-", robot.label))
            && let Some(b) = robot.model.bodies.iter().position(|x| x.name == body)
        {
            return Ok(vec![(r, b)]);
        }
    }
    Err(format!(
        "`{text}` names no robot (`R1`), link (`R1:base`) or body (`R1-C3`, `W-table`)"
    ))
}
