//! URDF import: links, joints (revolute, continuous, prismatic, fixed; limits; mimic) and
//! collision geometry, with an optional SRDF for the self-collision rules. Requires the `urdf`
//! feature.
//!
//! - Parsing: `urdf-rs` reads the model; `roxmltree` checks that the XML is well formed first
//!   and finds the line of each `<link>` and `<joint>` for error messages.
//! - Geometry: `<sphere>` becomes a sphere; `<cylinder>` (axis along the collision frame's z,
//!   centred on its origin) becomes our exact flat-capped cylinder, or a capsule with the same
//!   axis segment when [`UrdfOptions::cylinders_as_capsules`] is set (a superset: each cap
//!   grows a hemisphere); `<capsule>` (the common extension: `length` is the straight part)
//!   becomes a capsule; `<box size>` an oriented box (half-extents `size / 2`, oriented by the
//!   collision origin).
//!   `<mesh>` cannot be checked exactly: it is skipped with a warning in
//!   [`RobotModel::warnings`], and the link is listed by
//!   [`RobotModel::links_without_bodies`] — never silently unprotected.
//! - Bodies are named by their `<collision name>`, else `link/k` (the k-th `<collision>` of the
//!   link, from 0), in file order; names must be unique.
//! - Self pairs: with an SRDF, exactly its rules ([`Srdf`]); without one, the default rule of
//!   [`SelfPairs`] (parent–child links allowed, pairs in contact in every sampled configuration
//!   dropped).
//! - Not supported, with an error naming the joint: `floating`, `planar` and `spherical`
//!   joints; files that still contain xacro macros (run `xacro` first).
//!
//! Units: URDF is metres and radians by definition; `rpy` is roll, pitch, yaw about the fixed
//! x, y, z axes (`R = Rz(y) Ry(p) Rx(r)`).

use std::collections::HashMap;
use std::path::Path;

use super::body::{Anchor, Body, BodyShape};
use super::model::RobotModel;
use super::self_pairs::{AllowedLinks, SelfPairs};
use super::srdf::Srdf;
use crate::error::{Error, Result, line_of, read_text_file};
use crate::kinematics::{Joint, JointKind, KinematicTree, Mimic};
use crate::math::{Isometry3, Point3, Real, Vector3};

/// Choices for reading URDF geometry.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct UrdfOptions {
    /// Read `<cylinder>` as a capsule (conservative, faster) instead of an exact cylinder.
    pub cylinders_as_capsules: bool,
}

/// Loads a URDF file, with an SRDF file for the self-collision rules if given.
pub fn load_urdf(path: &Path, srdf: Option<&Path>, options: &UrdfOptions) -> Result<RobotModel> {
    let text = read_text_file(path)?;
    let srdf_text = srdf.map(read_text_file).transpose()?;
    let srdf_name = srdf.map(|p| p.display().to_string());
    parse_urdf(
        &text,
        &path.display().to_string(),
        srdf_text.as_deref().zip(srdf_name.as_deref()),
        options,
    )
}

/// `true` if `path` names a URDF file (extension `.urdf`, any case).
pub fn is_urdf_path(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("urdf"))
}

/// Parses URDF `text` (`file` names it in errors) with an optional SRDF `(text, file)`.
pub fn parse_urdf(
    text: &str,
    file: &str,
    srdf: Option<(&str, &str)>,
    options: &UrdfOptions,
) -> Result<RobotModel> {
    let err = |message: String| Error::File {
        file: file.to_owned(),
        message,
    };
    let lines = ElementLines::scan(text).map_err(err)?;
    let robot = urdf_rs::read_from_string(text).map_err(|e| err(format!("URDF: {e}")))?;
    let at = |kind: &str, name: &str| {
        lines
            .find(kind, name)
            .map_or_else(String::new, |l| format!("line {l}: "))
    };
    let links: Vec<String> = robot.links.iter().map(|l| l.name.clone()).collect();
    let link_indices: HashMap<&str, usize> = links
        .iter()
        .enumerate()
        .map(|(i, l)| (l.as_str(), i))
        .collect();
    let link_index = |name: &str| link_indices.get(name).copied();
    let joint_names: std::collections::HashSet<&str> =
        robot.joints.iter().map(|j| j.name.as_str()).collect();
    let mut joints = Vec::with_capacity(robot.joints.len());
    for j in &robot.joints {
        let here = |m: String| err(format!("{}joint `{}`: {m}", at("joint", &j.name), j.name));
        let parent = link_index(&j.parent.link)
            .ok_or_else(|| here(format!("parent link `{}` does not exist", j.parent.link)))?;
        let child = link_index(&j.child.link)
            .ok_or_else(|| here(format!("child link `{}` does not exist", j.child.link)))?;
        let origin =
            pose(&j.origin.xyz.0, &j.origin.rpy.0).map_err(|m| here(format!("origin {m}")))?;
        let kind = match j.joint_type {
            urdf_rs::JointType::Revolute | urdf_rs::JointType::Continuous => {
                Some(JointKind::Revolute)
            }
            urdf_rs::JointType::Prismatic => Some(JointKind::Prismatic),
            urdf_rs::JointType::Fixed => None,
            urdf_rs::JointType::Floating => {
                return Err(here(
                    "floating joints are not supported: robocollide models fixed-base robots; \
                     place the robot with a cell's `base` instead"
                        .into(),
                ));
            }
            ref other => {
                return Err(here(format!(
                    "{} joints are not supported (revolute, continuous, prismatic and fixed are)",
                    format!("{other:?}").to_lowercase()
                )));
            }
        };
        let axis = Vector3::from(j.axis.xyz.0);
        if kind.is_some() && !(axis.iter().all(|v| v.is_finite()) && axis.norm() > 0.0) {
            return Err(here(format!(
                "axis xyz ({}, {}, {}) must be a non-zero finite vector",
                axis.x, axis.y, axis.z
            )));
        }
        let limits = match j.joint_type {
            urdf_rs::JointType::Revolute | urdf_rs::JointType::Prismatic => {
                let (lo, hi) = (j.limit.lower, j.limit.upper);
                if lo.is_nan() || hi.is_nan() || lo > hi {
                    return Err(here(format!(
                        "limit lower {lo} / upper {hi} must be ordered numbers"
                    )));
                }
                (lo.is_finite() || hi.is_finite()).then_some((lo, hi))
            }
            _ => None,
        };
        let mimic = j.mimic.as_ref().map(|m| Mimic {
            leader: m.joint.clone(),
            multiplier: m.multiplier.unwrap_or(1.0),
            offset: m.offset.unwrap_or(0.0),
        });
        if let Some(m) = &mimic
            && !joint_names.contains(m.leader.as_str())
        {
            return Err(here(format!("mimic names unknown joint `{}`", m.leader)));
        }
        joints.push(Joint {
            limits,
            mimic,
            ..match kind {
                Some(kind) => Joint::moving(&j.name, kind, parent, child, origin, axis),
                None => Joint::fixed(&j.name, parent, child, origin),
            }
        });
    }
    let tree = KinematicTree::new(file, links.clone(), joints)?;
    let (bodies, mut warnings) = collision_bodies(&robot, &tree, options, &at).map_err(err)?;
    super::model::check_body_count(bodies.len()).map_err(err)?;
    if bodies.is_empty() {
        warnings.push(
            "no link has collision geometry robocollide can check: nothing of this robot is protected"
                .into(),
        );
    }
    let body_links: Vec<usize> = bodies.iter().map(|b| b.link).collect();
    let with_srdf = srdf.is_some();
    let mut states = Vec::new();
    let mut groups = Vec::new();
    let pairs = match srdf {
        Some((srdf_text, srdf_file)) => {
            let rules = Srdf::parse(srdf_text, srdf_file)?;
            states = rules.states.clone();
            groups = super::JointGroup::resolve(&rules.groups, &tree, srdf_file, &mut warnings);
            let allowed = allowed_by_srdf(&rules, &tree, srdf_file, &mut warnings);
            SelfPairs::allowing(&body_links, allowed)
        }
        None => {
            let parents: Vec<Option<usize>> = (0..tree.links().len())
                .map(|l| tree.parent_link(l))
                .collect();
            SelfPairs::from_links(&body_links, &parents, &[], &[])
        }
    };
    let mut model =
        RobotModel::new(robot.name.clone(), tree, bodies, pairs).map_err(|e| match e {
            Error::File { message, .. } => err(message),
            other => err(other.to_string()),
        })?;
    if !with_srdf {
        model.drop_structural_self_pairs(&[]);
    }
    // Named states: the default home with the state's joints set (joints the model does not
    // move, e.g. fingers fixed in a sphere model, are ignored).
    for state in states {
        let mut q = model.default_home();
        for (joint, value) in &state.joints {
            if let Some(v) = model.tree().variable_index(joint) {
                q[v] = *value;
            }
        }
        model.named_states.push((state.name, q));
    }
    model.groups = groups;
    model.warnings = warnings;
    model.format = super::model::ModelFormat::Urdf;
    Ok(model)
}

/// The bodies of every link's `<collision>` elements, and warnings for what was skipped.
fn collision_bodies(
    robot: &urdf_rs::Robot,
    tree: &KinematicTree,
    options: &UrdfOptions,
    at: &dyn Fn(&str, &str) -> String,
) -> std::result::Result<(Vec<Body>, Vec<String>), String> {
    let mut bodies = Vec::new();
    let mut warnings = Vec::new();
    let indices: HashMap<&str, usize> = tree
        .links()
        .iter()
        .enumerate()
        .map(|(i, l)| (l.as_str(), i))
        .collect();
    let mut names = std::collections::HashSet::new();
    for link in &robot.links {
        let index = indices[link.name.as_str()];
        for (k, collision) in link.collision.iter().enumerate() {
            let name = match collision.name.as_deref() {
                Some(name) if !name.trim().is_empty() => name.to_owned(),
                _ => format!("{}/{k}", link.name),
            };
            let here = |m: String| {
                format!(
                    "{}link `{}`: collision {k}: {m}",
                    at("link", &link.name),
                    link.name
                )
            };
            let origin = pose(&collision.origin.xyz.0, &collision.origin.rpy.0)
                .map_err(|m| here(format!("origin {m}")))?;
            let anchor = |z: Real| Anchor {
                frame: index,
                at: origin * Point3::new(0.0, 0.0, z),
            };
            let checked = |what: &str, v: Real, positive: bool| {
                if v.is_finite() && (v > 0.0 || (!positive && v == 0.0)) {
                    Ok(v)
                } else {
                    let need = if positive { "> 0" } else { ">= 0" };
                    Err(here(format!(
                        "{what} must be a finite number {need}, got {v}"
                    )))
                }
            };
            let shape = match &collision.geometry {
                urdf_rs::Geometry::Sphere { radius } => BodyShape::Sphere {
                    center: anchor(0.0),
                    radius: checked("sphere radius", *radius, false)?,
                },
                urdf_rs::Geometry::Cylinder { radius, length } => {
                    let (radius, half) = (
                        checked("cylinder radius", *radius, false)?,
                        checked("cylinder length", *length, true)? / 2.0,
                    );
                    let (a, b) = (anchor(-half), anchor(half));
                    if options.cylinders_as_capsules {
                        BodyShape::Capsule { a, b, radius }
                    } else {
                        BodyShape::Cylinder { a, b, radius }
                    }
                }
                urdf_rs::Geometry::Capsule { radius, length } => {
                    let half = checked("capsule length", *length, false)? / 2.0;
                    BodyShape::Capsule {
                        a: anchor(-half),
                        b: anchor(half),
                        radius: checked("capsule radius", *radius, false)?,
                    }
                }
                urdf_rs::Geometry::Box { size } => {
                    let mut half = crate::math::Vector3::zeros();
                    for (i, axis) in ["x", "y", "z"].iter().enumerate() {
                        half[i] = checked(&format!("box size {axis}"), size.0[i], false)? / 2.0;
                    }
                    BodyShape::Box {
                        center: anchor(0.0),
                        rotation: *origin.rotation.to_rotation_matrix().matrix(),
                        half_extents: half,
                    }
                }
                urdf_rs::Geometry::Mesh { filename, .. } => {
                    warnings.push(format!(
                        "link `{}`: mesh collision geometry `{filename}` cannot be checked exactly and is skipped; approximate it by spheres, capsules, cylinders or boxes",
                        link.name
                    ));
                    continue;
                }
            };
            if !names.insert(name.clone()) {
                return Err(here(format!("body name `{name}` is used twice")));
            }
            bodies.push(Body {
                name,
                link: index,
                shape,
            });
        }
    }
    Ok((bodies, warnings))
}

/// The allowed link pairs of an SRDF, resolved against the tree's links. A rule naming a link
/// the robot does not have is skipped with a warning, as MoveIt does (SRDFs are often shared
/// between a robot's mesh and sphere models); skipping a rule only ever checks more pairs.
fn allowed_by_srdf(
    rules: &Srdf,
    tree: &KinematicTree,
    file: &str,
    warnings: &mut Vec<String>,
) -> Vec<AllowedLinks> {
    let mut unknown: Vec<(String, u32)> = Vec::new();
    let mut skipped = 0;
    let mut link = |name: &str, line: u32| {
        let found = tree.link_index(name);
        if found.is_none() {
            skipped += 1;
            if !unknown.iter().any(|(n, _)| n == name) {
                unknown.push((name.to_owned(), line));
            }
        }
        found
    };
    let mut pair =
        |r: &super::srdf::LinkPairRule| Some((link(&r.link1, r.line)?, link(&r.link2, r.line)?));
    let enabled: Vec<(usize, usize)> = rules.enabled.iter().filter_map(&mut pair).collect();
    let disabled: Vec<(usize, usize, String)> = rules
        .disabled
        .iter()
        .filter_map(|r| {
            pair(r).map(|(a, b)| {
                let reason = if r.reason.is_empty() {
                    "SRDF".into()
                } else {
                    r.reason.clone()
                };
                (a, b, reason)
            })
        })
        .collect();
    let is_enabled = |a: usize, b: usize| {
        enabled
            .iter()
            .any(|&(x, y)| (x, y) == (a, b) || (y, x) == (a, b))
    };
    let mut allowed: Vec<AllowedLinks> = disabled
        .into_iter()
        .map(|(a, b, reason)| AllowedLinks { a, b, reason })
        .collect();
    for (name, line) in &rules.disabled_by_default {
        let Some(a) = link(name, *line) else { continue };
        for b in (0..tree.links().len()).filter(|&b| b != a && !is_enabled(a, b)) {
            allowed.push(AllowedLinks {
                a,
                b,
                reason: "disable_default_collisions".into(),
            });
        }
    }
    allowed.retain(|p| !is_enabled(p.a, p.b));
    if !unknown.is_empty() {
        let names: Vec<String> = unknown
            .iter()
            .take(8)
            .map(|(name, line)| format!("{name}, first on line {line}"))
            .collect();
        let more = unknown.len().saturating_sub(8);
        warnings.push(format!(
            "{file}: {skipped} rule(s) name links the robot does not have ({}{}); they are ignored",
            names.join("; "),
            if more > 0 {
                format!("; and {more} more")
            } else {
                String::new()
            }
        ));
    }
    allowed
}

/// An isometry from URDF `xyz` and `rpy`; errors name the non-finite part.
fn pose(xyz: &[Real; 3], rpy: &[Real; 3]) -> std::result::Result<Isometry3, String> {
    for (name, values) in [("xyz", xyz), ("rpy", rpy)] {
        if let Some(v) = values.iter().find(|v| !v.is_finite()) {
            return Err(format!("{name} must be finite, got {v}"));
        }
    }
    Ok(Isometry3::from_parts(
        Vector3::from(*xyz).into(),
        nalgebra::UnitQuaternion::from_euler_angles(rpy[0], rpy[1], rpy[2]),
    ))
}

/// Deepest element nesting accepted (a URDF needs about 6: robot, link, collision, geometry,
/// shape; `<gazebo>` extensions a few more).
const MAX_NESTING: usize = 64;

/// Where the top-level `<link>` and `<joint>` elements start, found while checking that the
/// XML is well formed, free of xacro, and has unique names. Offsets are turned into line
/// numbers only for an error message (each conversion scans the text: doing it per element
/// made a 20 000-link file take minutes).
struct ElementLines<'t> {
    text: &'t str,
    offsets: HashMap<(String, String), usize>,
}

impl<'t> ElementLines<'t> {
    fn scan(text: &'t str) -> std::result::Result<Self, String> {
        const XACRO: &str = "http://www.ros.org/wiki/xacro";
        let doc = roxmltree::Document::parse(text)
            .map_err(|e| format!("line {}: malformed XML: {e}", e.pos().row))?;
        let line = |node: &roxmltree::Node| line_of(text, node.range().start);
        let root = doc.root_element();
        if root.tag_name().name() != "robot" {
            return Err(format!(
                "the root element is <{}>, a URDF's is <robot>",
                root.tag_name().name()
            ));
        }
        // The URDF parser recurses per level; refuse absurd nesting before it sees the file.
        // `descendants` is in document order, so a parent's depth is known before its children.
        let mut depths = vec![0usize; doc.descendants().count() + 1];
        for node in root.descendants().filter(roxmltree::Node::is_element) {
            let parent = node.parent().map_or(0, |p| depths[p.id().get_usize()]);
            let depth = parent + 1;
            if depth > MAX_NESTING {
                return Err(format!(
                    "line {}: elements nest more than {MAX_NESTING} levels deep; a URDF needs a handful",
                    line(&node)
                ));
            }
            depths[node.id().get_usize()] = depth;
        }
        for node in root.descendants() {
            let xacro_tag = node.is_element() && node.tag_name().namespace() == Some(XACRO);
            let xacro_text = node.attributes().any(|a| a.value().contains("${"));
            if xacro_tag || xacro_text {
                return Err(format!(
                    "line {}: this file still contains xacro macros; xacro is not supported: \
                     run `xacro FILE.urdf.xacro > FILE.urdf` first",
                    line(&node)
                ));
            }
        }
        let mut offsets = HashMap::new();
        for node in root.children().filter(roxmltree::Node::is_element) {
            let kind = node.tag_name().name();
            if kind != "link" && kind != "joint" {
                continue;
            }
            let Some(name) = node.attribute("name") else {
                return Err(format!(
                    "line {}: <{kind}> needs a `name` attribute",
                    line(&node)
                ));
            };
            let key = (kind.to_owned(), name.to_owned());
            if let Some(first) = offsets.insert(key, node.range().start) {
                return Err(format!(
                    "line {}: {kind} `{name}` is defined twice (first on line {})",
                    line(&node),
                    line_of(text, first)
                ));
            }
        }
        Ok(Self { text, offsets })
    }

    /// The line of the named element, for an error message.
    fn find(&self, kind: &str, name: &str) -> Option<usize> {
        let offset = self.offsets.get(&(kind.to_owned(), name.to_owned()))?;
        Some(line_of(self.text, *offset))
    }
}
