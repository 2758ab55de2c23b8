//! [`RobotModel`]: kinematic tree + bodies + self-collision pairs.

use super::body::Body;
use super::self_pairs::SelfPairs;
use crate::error::{Error, Result};
use crate::geom::Shape;
use crate::kinematics::{ForwardKinematics, Frame, KinematicTree};
use crate::math::{Isometry3, Real};

/// Most collision bodies a robot may have: self pairs grow as the square of the count (4096
/// bodies give up to 8.4 million pairs), so a hostile file cannot exhaust memory or time.
pub const MAX_BODIES: usize = 4096;

/// `Err` naming the count if `bodies` exceeds [`MAX_BODIES`] (readers call it before
/// building the self pairs).
pub fn check_body_count(bodies: usize) -> std::result::Result<(), String> {
    if bodies > MAX_BODIES {
        return Err(format!(
            "{bodies} collision bodies; at most {MAX_BODIES} per robot are supported (self pairs grow as the square of the count)"
        ));
    }
    Ok(())
}

/// The file format a robot model was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ModelFormat {
    /// Our TOML (DH table, generated or written bodies) or bodies given in a cell.
    #[default]
    Toml,
    /// URDF (with or without an SRDF).
    Urdf,
    /// The world's obstacles of a cell (a robot without joints).
    Obstacles,
}

/// A robot: its kinematic tree, bodies on its links and self-collision pairs.
#[derive(Debug, Clone, PartialEq)]
pub struct RobotModel {
    /// Model name (e.g. `UR5`).
    pub name: String,
    tree: KinematicTree,
    forward: ForwardKinematics,
    /// Bodies.
    pub bodies: Vec<Body>,
    /// Body pairs checked for self-collision.
    pub self_pairs: SelfPairs,
    /// The level of detail its generated bodies come from (`None`: bodies written by hand or
    /// read from a URDF).
    pub level: Option<super::DetailLevel>,
    /// The file format the model was read from.
    pub format: ModelFormat,
    /// Named configurations (an SRDF's `group_state`s), as full configurations.
    pub named_states: Vec<(String, Vec<Real>)>,
    /// Named groups of links and joints (an SRDF's `<group>`s: planning groups, protected
    /// chains).
    pub groups: Vec<super::JointGroup>,
    /// What the reader could not model exactly (e.g. URDF mesh geometry skipped), one line
    /// each; reports repeat them.
    pub warnings: Vec<String>,
}

impl RobotModel {
    /// Builds a model and checks it: anchors refer to existing links, radii are finite and
    /// non-negative, anchor coordinates finite and within the length range, names unique.
    pub fn new(
        name: String,
        tree: KinematicTree,
        bodies: Vec<Body>,
        self_pairs: SelfPairs,
    ) -> Result<Self> {
        let links = tree.links().len();
        let bad = |message: String| Error::File {
            file: format!("robot `{name}`"),
            message,
        };
        tree.check_lengths().map_err(|e| bad(e.to_string()))?;
        check_body_count(bodies.len()).map_err(bad)?;
        let mut names = std::collections::HashSet::with_capacity(bodies.len());
        for body in &bodies {
            let field = format!("body `{}`", body.name);
            if !names.insert(body.name.as_str()) {
                return Err(bad(format!("{field}: duplicate body name")));
            }
            if body.link >= links {
                return Err(bad(format!(
                    "{field}: link {} does not exist (the robot has links 0..={})",
                    body.link,
                    links - 1
                )));
            }
            crate::geom::check_radius(&format!("{field} radius"), body.radius())
                .and_then(|r| crate::geom::check_length(&format!("{field} radius"), r))
                .map_err(|e| bad(e.to_string()))?;
            match &body.shape {
                super::BodyShape::Box { half_extents, .. } => {
                    for (axis, v) in ["x", "y", "z"].iter().zip(half_extents.iter()) {
                        let f = format!("{field} box.half_extents.{axis}");
                        crate::geom::check_radius(&f, *v)
                            .and_then(|r| crate::geom::check_length(&f, r))
                            .map_err(|e| bad(e.to_string()))?;
                    }
                }
                super::BodyShape::Plane { normal, .. }
                    if !(normal.iter().all(|c| c.is_finite())
                        && (normal.norm() - 1.0).abs() < 1e-9) =>
                {
                    return Err(bad(format!("{field}: plane normal must be a unit vector")));
                }
                _ => {}
            }
            for anchor in body.anchors() {
                if anchor.frame >= links {
                    return Err(bad(format!(
                        "{field}: link {} does not exist",
                        anchor.frame
                    )));
                }
                crate::geom::check_point(&field, anchor.at).map_err(|e| bad(e.to_string()))?;
                for (axis, v) in ["x", "y", "z"].iter().zip(anchor.at.iter()) {
                    crate::geom::check_length(&format!("{field}.{axis}"), *v)
                        .map_err(|e| bad(e.to_string()))?;
                }
            }
        }
        Ok(Self {
            name,
            forward: ForwardKinematics::new(&tree),
            tree,
            bodies,
            self_pairs,
            level: None,
            format: ModelFormat::Toml,
            named_states: Vec::new(),
            groups: Vec::new(),
            warnings: Vec::new(),
        })
    }

    /// The kinematic tree.
    pub fn tree(&self) -> &KinematicTree {
        &self.tree
    }

    /// The compiled forward kinematics of the tree.
    pub fn forward_kinematics(&self) -> &ForwardKinematics {
        &self.forward
    }

    /// Places the robot's root link at `base` in the world (replacing the previous placement);
    /// errors if the placement is outside the length range.
    pub fn set_base(&mut self, base: Isometry3) -> Result<()> {
        self.tree.base = base;
        self.tree.check_lengths()?;
        self.forward = ForwardKinematics::new(&self.tree);
        Ok(())
    }

    /// Sampled configurations spread over the joint ranges (limits, else ±π rad or ±1 m),
    /// deterministic: a Kronecker sequence with irrational steps, first sample at mid-range.
    pub fn sample_configurations(&self, count: usize) -> Vec<Vec<Real>> {
        (0..count)
            .map(|k| {
                (0..self.dof())
                    .map(|v| {
                        let (lo, hi) = self.tree.sampling_range(v);
                        let step = ((v + 2) as Real).sqrt().fract();
                        let frac = (0.5 + k as Real * step).fract();
                        lo + (hi - lo) * frac
                    })
                    .collect()
            })
            .collect()
    }

    /// The group named `name` (an SRDF `<group>`); the error lists the groups there are.
    pub fn group(&self, name: &str) -> Result<&super::JointGroup> {
        self.groups.iter().find(|g| g.name == name).ok_or_else(|| {
            Error::Parse(format!(
                "robot {} has no group `{name}` (groups: {})",
                self.name,
                if self.groups.is_empty() {
                    "none; groups come from an SRDF's <group> elements".to_owned()
                } else {
                    self.groups
                        .iter()
                        .map(|g| g.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            ))
        })
    }

    /// A configuration to start from when none is given: each joint at 0, or at the middle of
    /// its limits when 0 is outside them (the Panda's elbow, for one).
    pub fn default_home(&self) -> Vec<Real> {
        (0..self.dof())
            .map(|v| match self.tree.variable_joint(v).limits {
                Some((lo, hi)) if !(lo..=hi).contains(&0.0) => {
                    if lo.is_finite() && hi.is_finite() {
                        lo + (hi - lo) / 2.0
                    } else {
                        lo.max(hi.min(0.0))
                    }
                }
                _ => 0.0,
            })
            .collect()
    }

    /// Leaves out default self pairs in contact in every sampled configuration (see
    /// [`SelfPairs`]); pairs of bodies whose link pair is in `keep_links` stay.
    pub fn drop_structural_self_pairs(&mut self, keep_links: &[(usize, usize)]) {
        let mut frames = Vec::new();
        let samples: Vec<Vec<Shape>> = self
            .sample_configurations(super::self_pairs::STRUCTURAL_SAMPLES)
            .iter()
            .map(|q| {
                self.forward.forward_into(q, &mut frames);
                self.bodies.iter().map(|b| b.world_shape(&frames)).collect()
            })
            .collect();
        let keep: Vec<(usize, usize)> = self
            .self_pairs
            .pairs
            .iter()
            .copied()
            .filter(|&(i, j)| {
                let (a, b) = (self.bodies[i].link, self.bodies[j].link);
                keep_links
                    .iter()
                    .any(|&(x, y)| (x == a && y == b) || (x == b && y == a))
            })
            .collect();
        self.self_pairs.drop_structural(&keep, |i, j| {
            samples
                .iter()
                .all(|s| crate::query::shape_shape(&s[i], &s[j]).distance <= 0.0)
        });
    }

    /// Degrees of freedom.
    pub fn dof(&self) -> usize {
        self.tree.dof()
    }

    /// World frames of every link at `q` (validated), index = link.
    pub fn frames(&self, q: &[Real]) -> Result<Vec<Frame>> {
        self.tree.check_configuration(q)?;
        let mut frames = Vec::new();
        self.forward.forward_into(q, &mut frames);
        Ok(frames)
    }

    /// World shapes of all bodies at `q` (validated).
    pub fn world_shapes(&self, q: &[Real]) -> Result<Vec<Shape>> {
        let frames = self.frames(q)?;
        Ok(self.bodies.iter().map(|b| b.world_shape(&frames)).collect())
    }

    /// Names of the links that carry no collision body (nothing protects them).
    pub fn links_without_bodies(&self) -> Vec<&str> {
        self.tree
            .links()
            .iter()
            .enumerate()
            .filter(|(l, _)| !self.bodies.iter().any(|b| b.link == *l))
            .map(|(_, name)| name.as_str())
            .collect()
    }

    /// The link name of a body.
    pub fn link_name(&self, body: usize) -> &str {
        &self.tree.links()[self.bodies[body].link]
    }
}
