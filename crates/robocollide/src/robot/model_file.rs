//! Robot model files (TOML) and the body records shared with cell and scene files.
//!
//! ```toml
//! name = "UR5"
//! convention = "standard"                 # or "modified" (Craig)
//! units = { length = "mm", angle = "deg" } # defaults: m, rad
//! links = ["base", "shoulder", "upper_arm", "forearm", "wrist_1", "wrist_2", "wrist_3"]
//!
//! [[joints]]                               # one per joint, in order
//! type = "revolute"                        # or "prismatic"; default revolute
//! a = 0.0
//! alpha = 90.0
//! d = 89.159
//! theta = 0.0                              # offset added to q (revolute)
//! limits = [-360.0, 360.0]                 # optional
//!
//! [tool]                                   # optional: tool frame in the last link frame
//! xyz = [0.0, 0.0, 82.3]
//! rpy = [0.0, 0.0, 0.0]                    # roll, pitch, yaw about fixed x, y, z
//!
//! [geometry]                               # generated bodies (see robot::detail)
//! level = "standard"                       # simplified | standard | precise
//! sphere_radii = [90, 80, 70, 60, 50, 50, 50, 40]
//! capsule_radii = [70, 60, 50, 45, 45, 40, 35]
//!
//! [[bodies]]                               # optional extra bodies, in a link's frame
//! name = "gripper"
//! link = "wrist_3"                         # name or index (0 = base)
//! capsule = { a = [0, 0, 0], b = [0, 0, 120], radius = 40 }   # or sphere / cylinder / box
//! # box = { center = [0, 0, 60], half_extents = [30, 20, 60], rpy = [0, 0, 45] } (rpy optional)
//!
//! [self_collision]                         # adjacent links are never checked by default
//! ignore = [["base", "upper_arm"]]         # link pairs allowed to touch
//! check = [["upper_arm", "forearm"]]       # adjacent link pairs to check anyway
//! ```
//!
//! Errors name the file, the line and the field.

use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use super::body::{Anchor, Body, BodyShape};
use super::detail::{DetailLevel, detail_bodies};
use super::model::RobotModel;
use super::self_pairs::SelfPairs;
use super::units::Units;
use crate::error::{Error, Result, line_of, read_text_file};
use crate::kinematics::{DhConvention, DhJoint, JointKind, SerialChain};
use crate::math::{Isometry3, Point3, Real, Vector3};

/// A pose record: translation and roll-pitch-yaw (fixed axes x, y, z), in the file's units.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PoseRecord {
    /// Translation.
    #[serde(default)]
    pub xyz: [Real; 3],
    /// Roll, pitch, yaw.
    #[serde(default)]
    pub rpy: [Real; 3],
}

impl PoseRecord {
    /// The isometry, with file units converted; errors name the non-finite value.
    pub fn to_isometry(
        &self,
        units: &Units,
        field: &str,
    ) -> std::result::Result<Isometry3, String> {
        for (i, v) in self.xyz.iter().chain(&self.rpy).enumerate() {
            if !v.is_finite() {
                let name = if i < 3 { "xyz" } else { "rpy" };
                return Err(format!("{field}.{name}[{}] must be finite, got {v}", i % 3));
            }
        }
        let t = Vector3::from(self.xyz) * units.metres();
        let [r, p, y] = self.rpy.map(|a| a * units.radians());
        Ok(Isometry3::from_parts(
            t.into(),
            nalgebra::UnitQuaternion::from_euler_angles(r, p, y),
        ))
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "lowercase")]
enum ConventionRecord {
    Standard,
    Modified,
}

#[derive(Debug, Deserialize, Default, PartialEq)]
#[serde(rename_all = "lowercase")]
enum KindRecord {
    #[default]
    Revolute,
    Prismatic,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct JointRecord {
    #[serde(default)]
    name: Option<String>,
    #[serde(default, rename = "type")]
    kind: KindRecord,
    a: Real,
    alpha: Real,
    d: Real,
    #[serde(default)]
    theta: Real,
    #[serde(default)]
    limits: Option<[Real; 2]>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GeometryRecord {
    #[serde(default = "standard_level")]
    level: DetailLevel,
    #[serde(default)]
    sphere_radii: Vec<Real>,
    #[serde(default)]
    capsule_radii: Vec<Real>,
}

fn standard_level() -> DetailLevel {
    DetailLevel::Standard
}

/// A link given by name or index.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum LinkRef {
    /// Index (0 = base).
    Index(usize),
    /// Name from `links`.
    Name(String),
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SphereRecord {
    center: [Real; 3],
    radius: Real,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AxisRecord {
    a: [Real; 3],
    b: [Real; 3],
    radius: Real,
}

/// A box record: centre, half-extents and optional roll–pitch–yaw, in the file's units.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BoxRecord {
    center: [Real; 3],
    half_extents: [Real; 3],
    #[serde(default)]
    rpy: [Real; 3],
}

impl BoxRecord {
    /// The body shape on frame `link`, lengths scaled to metres and angles to radians;
    /// errors name the field (`box.half_extents.y`).
    pub(crate) fn to_shape(
        &self,
        link: usize,
        units: &Units,
    ) -> std::result::Result<BodyShape, String> {
        let m = units.metres();
        let checked = crate::geom::OrientedBox::from_rpy(
            Point3::from(Vector3::from(self.center) * m),
            self.rpy.map(|a| a * units.radians()),
            Vector3::from(self.half_extents) * m,
        )
        .map_err(|e| e.to_string())?;
        Ok(BodyShape::Box {
            center: Anchor {
                frame: link,
                at: checked.center(),
            },
            rotation: *checked.rotation(),
            half_extents: checked.half_extents(),
        })
    }
}

/// One explicit body: a sphere, capsule, cylinder or box in the frame of `link`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodyRecord {
    pub(crate) name: String,
    #[serde(default)]
    pub(crate) link: Option<LinkRef>,
    #[serde(default)]
    pub(crate) sphere: Option<SphereRecord>,
    #[serde(default)]
    pub(crate) capsule: Option<AxisRecord>,
    #[serde(default)]
    pub(crate) cylinder: Option<AxisRecord>,
    #[serde(default, rename = "box")]
    pub(crate) cuboid: Option<BoxRecord>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct SelfCollisionRecord {
    #[serde(default)]
    ignore: Vec<[Spanned<String>; 2]>,
    #[serde(default)]
    check: Vec<[Spanned<String>; 2]>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RobotRecord {
    name: String,
    #[serde(default)]
    convention: Option<ConventionRecord>,
    #[serde(default)]
    units: Units,
    #[serde(default)]
    links: Option<Vec<String>>,
    #[serde(default)]
    joints: Vec<Spanned<JointRecord>>,
    #[serde(default)]
    tool: Option<PoseRecord>,
    #[serde(default)]
    geometry: Option<GeometryRecord>,
    #[serde(default)]
    bodies: Vec<Spanned<BodyRecord>>,
    #[serde(default)]
    self_collision: SelfCollisionRecord,
}

/// Resolves a link reference against `links`.
fn resolve_link(link: &LinkRef, links: &[String]) -> std::result::Result<usize, String> {
    match link {
        LinkRef::Index(i) if *i < links.len() => Ok(*i),
        LinkRef::Index(i) => Err(format!(
            "link {i} does not exist (links are 0..={})",
            links.len() - 1
        )),
        LinkRef::Name(name) => links
            .iter()
            .position(|l| l == name)
            .ok_or_else(|| format!("unknown link `{name}` (known: {})", links.join(", "))),
    }
}

impl BodyRecord {
    /// The body, with lengths scaled to metres; `links` names the frames.
    pub fn to_body(&self, units: &Units, links: &[String]) -> std::result::Result<Body, String> {
        let link = match &self.link {
            Some(l) => resolve_link(l, links)?,
            None => 0,
        };
        let m = units.metres();
        let at = |p: &[Real; 3]| Anchor {
            frame: link,
            at: Point3::from(Vector3::from(*p) * m),
        };
        let given = [
            self.sphere.is_some(),
            self.capsule.is_some(),
            self.cylinder.is_some(),
            self.cuboid.is_some(),
        ];
        if given.iter().filter(|g| **g).count() != 1 {
            return Err(format!(
                "body `{}`: give exactly one of sphere, capsule, cylinder, box",
                self.name
            ));
        }
        let shape = if let Some(b) = &self.cuboid {
            b.to_shape(link, units)
                .map_err(|e| format!("body `{}`: {e}", self.name))?
        } else if let Some(s) = &self.sphere {
            BodyShape::Sphere {
                center: at(&s.center),
                radius: s.radius * m,
            }
        } else if let Some(c) = &self.capsule {
            BodyShape::Capsule {
                a: at(&c.a),
                b: at(&c.b),
                radius: c.radius * m,
            }
        } else {
            let c = self.cylinder.as_ref().expect("one shape given");
            if c.a == c.b {
                return Err(format!(
                    "body `{}`: cylinder axis end points coincide",
                    self.name
                ));
            }
            BodyShape::Cylinder {
                a: at(&c.a),
                b: at(&c.b),
                radius: c.radius * m,
            }
        };
        Ok(Body {
            name: self.name.clone(),
            link,
            shape,
        })
    }
}

fn check_finite(values: &[(&str, Real)], context: &str) -> std::result::Result<(), String> {
    for (name, v) in values {
        if !v.is_finite() {
            return Err(format!("{context}: {name} must be finite, got {v}"));
        }
    }
    Ok(())
}

/// Parses a robot model from TOML `text`; `file` names it in errors. `level` overrides the
/// file's `[geometry] level`.
pub fn parse_robot(text: &str, file: &str, level: Option<DetailLevel>) -> Result<RobotModel> {
    let err = |message: String| Error::File {
        file: file.to_owned(),
        message,
    };
    let record: RobotRecord =
        toml::from_str(text).map_err(|e| err(e.to_string().trim_end().to_owned()))?;
    let units = record.units;
    let (m, rad) = (units.metres(), units.radians());
    let mut joints = Vec::new();
    for (i, spanned) in record.joints.iter().enumerate() {
        let j = spanned.get_ref();
        let context = format!(
            "line {}: joints[{i}]{}",
            line_of(text, spanned.span().start),
            j.name
                .as_ref()
                .map(|n| format!(" ({n})"))
                .unwrap_or_default()
        );
        check_finite(
            &[
                ("a", j.a),
                ("alpha", j.alpha),
                ("d", j.d),
                ("theta", j.theta),
            ],
            &context,
        )
        .map_err(err)?;
        let variable_scale = if j.kind == KindRecord::Prismatic {
            m
        } else {
            rad
        };
        let mut joint = match j.kind {
            KindRecord::Revolute => DhJoint {
                kind: JointKind::Revolute,
                ..DhJoint::revolute(j.a * m, j.alpha * rad, j.d * m, j.theta * rad)
            },
            KindRecord::Prismatic => {
                DhJoint::prismatic(j.a * m, j.alpha * rad, j.d * m, j.theta * rad)
            }
        };
        if let Some([lo, hi]) = j.limits {
            check_finite(&[("limits[0]", lo), ("limits[1]", hi)], &context).map_err(err)?;
            if lo > hi {
                return Err(err(format!("{context}: limits [{lo}, {hi}] are reversed")));
            }
            joint = joint.with_limits(lo * variable_scale, hi * variable_scale);
        }
        joints.push(joint);
    }
    let convention = match record.convention {
        None | Some(ConventionRecord::Standard) => DhConvention::Standard,
        Some(ConventionRecord::Modified) => DhConvention::Modified,
    };
    let mut chain = SerialChain::new(convention, joints);
    if let Some(tool) = &record.tool {
        chain.tool = tool.to_isometry(&units, "tool").map_err(err)?;
    }
    let (default_links, default_joints) = chain.default_names();
    let links = match record.links {
        Some(l) if l.len() != chain.dof() + 1 => {
            return Err(err(format!(
                "links: {} names given, the robot has {} links (base + one per joint)",
                l.len(),
                chain.dof() + 1
            )));
        }
        Some(l) => l,
        None => default_links,
    };
    let joint_names: Vec<String> = record
        .joints
        .iter()
        .zip(default_joints)
        .map(|(j, default)| j.get_ref().name.clone().unwrap_or(default))
        .collect();
    let mut bodies = Vec::new();
    let mut generated_level = None;
    if let Some(g) = &record.geometry {
        for (name, list) in [
            ("sphere_radii", &g.sphere_radii),
            ("capsule_radii", &g.capsule_radii),
        ] {
            for (i, r) in list.iter().enumerate() {
                if !(r.is_finite() && *r >= 0.0) {
                    return Err(err(format!(
                        "geometry.{name}[{i}] must be a finite radius >= 0, got {r}"
                    )));
                }
            }
        }
        let scaled = |v: &[Real]| v.iter().map(|r| r * m).collect::<Vec<_>>();
        let level = level.unwrap_or(g.level);
        generated_level = Some(level);
        bodies = detail_bodies(
            &chain,
            level,
            &scaled(&g.sphere_radii),
            &scaled(&g.capsule_radii),
        )
        .map_err(|e| err(format!("geometry: {e}")))?;
    }
    for spanned in &record.bodies {
        let body = spanned
            .get_ref()
            .to_body(&units, &links)
            .map_err(|e| err(format!("line {}: {e}", line_of(text, spanned.span().start))))?;
        bodies.push(body);
    }
    let resolve_pairs =
        |pairs: &[[Spanned<String>; 2]], what: &str| -> Result<Vec<(usize, usize)>> {
            pairs
                .iter()
                .map(|[x, y]| {
                    let find = |s: &Spanned<String>| {
                        resolve_link(&LinkRef::Name(s.get_ref().clone()), &links).map_err(|e| {
                            err(format!(
                                "line {}: self_collision.{what}: {e}",
                                line_of(text, s.span().start)
                            ))
                        })
                    };
                    Ok((find(x)?, find(y)?))
                })
                .collect()
        };
    super::model::check_body_count(bodies.len()).map_err(err)?;
    let ignore = resolve_pairs(&record.self_collision.ignore, "ignore")?;
    let check = resolve_pairs(&record.self_collision.check, "check")?;
    let unwrap_file = |e: Error| match e {
        Error::File { message, .. } => err(message),
        other => err(other.to_string()),
    };
    let tree = chain
        .to_tree(file, links, &joint_names)
        .map_err(unwrap_file)?;
    let body_links: Vec<usize> = bodies.iter().map(|b| b.link).collect();
    let parents: Vec<Option<usize>> = (0..tree.links().len())
        .map(|l| tree.parent_link(l))
        .collect();
    let pairs = SelfPairs::from_links(&body_links, &parents, &ignore, &check);
    let mut model = RobotModel::new(record.name, tree, bodies, pairs).map_err(unwrap_file)?;
    model.drop_structural_self_pairs(&check);
    model.level = generated_level;
    Ok(model)
}

/// Loads a robot model file.
pub fn load_robot(path: &Path, level: Option<DetailLevel>) -> Result<RobotModel> {
    let text = read_text_file(path)?;
    parse_robot(&text, &path.display().to_string(), level)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ARM: &str = r#"
name = "test arm"
units = { length = "mm", angle = "deg" }
links = ["base", "l1", "l2", "l3"]

[[joints]]
a = 0
alpha = 90
d = 300
limits = [-170, 170]

[[joints]]
a = 400
alpha = 0
d = 0

[[joints]]
a = 350
alpha = 0
d = 0

[geometry]
sphere_radii = [100, 90, 80, 70]
capsule_radii = [80, 70, 60]

[[bodies]]
name = "tool"
link = "l3"
sphere = { center = [50, 0, 0], radius = 40 }

[self_collision]
ignore = [["base", "l2"]]
"#;

    #[test]
    fn parses_units_geometry_bodies_and_pairs() {
        let robot = parse_robot(ARM, "arm.toml", None).unwrap();
        assert_eq!(robot.dof(), 3);
        let first = &robot.tree().joints()[0];
        let origin = first.origin.to_homogeneous();
        assert!((origin[(2, 3)] - 0.3).abs() < 1e-15, "d = 300 mm");
        assert!((origin[(2, 1)] - 1.0).abs() < 1e-15, "alpha = 90 deg");
        let (lo, hi) = first.limits.unwrap();
        assert!((hi - 170f64.to_radians()).abs() < 1e-15 && lo == -hi);
        let names: Vec<&str> = robot.bodies.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["S1", "S2", "S3", "S4", "C1", "C2", "C3", "tool"]);
        assert_eq!(robot.bodies[7].link, 3);
        // base (link 0) vs link 2 ignored; base vs link 3 still checked.
        let links: Vec<(usize, usize)> = robot
            .self_pairs
            .pairs
            .iter()
            .map(|&(i, j)| (robot.bodies[i].link, robot.bodies[j].link))
            .collect();
        assert!(!links.contains(&(0, 2)) && links.contains(&(0, 3)));
    }

    #[test]
    fn errors_name_file_line_and_field() {
        let e = |text: &str| parse_robot(text, "bad.toml", None).unwrap_err().to_string();
        let msg = e(&ARM.replace("d = 300", "d = nan"));
        assert!(
            msg.starts_with("bad.toml: line 6: joints[0]: d must be finite, got NaN"),
            "{msg}"
        );
        let msg = e(&ARM.replace(
            r#"ignore = [["base", "l2"]]"#,
            r#"ignore = [["base", "elbow"]]"#,
        ));
        assert!(
            msg.contains("line 32: self_collision.ignore: unknown link `elbow`"),
            "{msg}"
        );
        let msg = e(&ARM.replace(
            "capsule_radii = [80, 70, 60]",
            "capsule_radii = [80, -70, 60]",
        ));
        assert!(
            msg.contains("geometry.capsule_radii[1] must be a finite radius >= 0, got -70"),
            "{msg}"
        );
        let msg = e(&ARM.replace(
            "alpha = 0\nd = 0\n\n[[joints]]\na = 350",
            "alpha = 0\n\n[[joints]]\na = 350",
        ));
        assert!(
            msg.contains("missing field `d`") && msg.contains("line"),
            "{msg}"
        );
        let msg = e(&ARM.replace(r#"link = "l3""#, r#"link = 9"#));
        assert!(msg.contains("link 9 does not exist"), "{msg}");
        let msg = e(&ARM.replace("capsule_radii = [80, 70, 60]", "capsule_radii = [80, 70]"));
        assert!(msg.contains("needs 3 capsule_radii"), "{msg}");
    }

    #[test]
    fn levels_nest() {
        for level in [DetailLevel::Simplified, DetailLevel::Precise] {
            let robot = parse_robot(ARM, "arm.toml", Some(level)).unwrap();
            assert!(!robot.bodies.is_empty());
        }
    }
}
