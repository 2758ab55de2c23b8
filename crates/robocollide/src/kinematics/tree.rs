//! [`KinematicTree`]: links joined by joints, as URDF defines them, and the configuration
//! vector of its independent joints.
//!
//! Each joint has a parent link, a child link, a fixed `origin` placement, a unit `axis` and a
//! kind (revolute, prismatic or fixed; a URDF `continuous` joint is a revolute joint without
//! limits). The child link's frame is `parent · origin · motion(v)` (URDF, ROS REP 103), where
//! `motion` rotates about or slides along `axis` by the joint value `v`. Joints built from
//! standard Denavit–Hartenberg rows move first: `parent · motion(v) · origin`
//! ([`MotionOrder::MotionThenOrigin`]); this keeps every link frame equal to the DH frame.
//!
//! Configuration: one value per *independent* moving joint (neither fixed nor mimic), in the
//! order the joints were given ([`KinematicTree::variables`], queryable by name). A mimic joint
//! takes `multiplier · v_leader + offset` (URDF `<mimic>`); a chain of mimics resolves to its
//! first independent leader. Units: metres and radians.
//!
//! Not handled: floating and planar joints (rejected by the readers with an error naming the
//! joint), closed loops (a link with two parents is an error).

use crate::error::{Error, Result};
use crate::math::{Isometry3, Real, Vector3};

pub use super::dh::JointKind;

/// Whether the joint's motion comes after its origin (URDF) or before it (standard DH).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MotionOrder {
    /// `parent · origin · motion(v)` (URDF, modified DH).
    OriginThenMotion,
    /// `parent · motion(v) · origin` (standard DH: the motion is about the parent's z).
    MotionThenOrigin,
}

/// A mimic relation: `v = multiplier · v_leader + offset`.
#[derive(Debug, Clone, PartialEq)]
pub struct Mimic {
    /// The name of the leading joint.
    pub leader: String,
    /// Multiplier (URDF default 1).
    pub multiplier: Real,
    /// Offset (URDF default 0).
    pub offset: Real,
}

/// One joint of a tree.
#[derive(Debug, Clone, PartialEq)]
pub struct Joint {
    /// Unique name.
    pub name: String,
    /// Parent link index.
    pub parent: usize,
    /// Child link index.
    pub child: usize,
    /// Fixed placement (see [`MotionOrder`]).
    pub origin: Isometry3,
    /// `None` for a fixed joint.
    pub kind: Option<JointKind>,
    /// Unit axis in the joint frame (ignored for fixed joints).
    pub axis: Vector3,
    /// Inclusive limits `(min, max)` (rad or m), if any.
    pub limits: Option<(Real, Real)>,
    /// Mimic relation, if any (ignored for fixed joints).
    pub mimic: Option<Mimic>,
    /// Motion before or after the origin.
    pub order: MotionOrder,
}

impl Joint {
    /// A fixed joint.
    pub fn fixed(name: &str, parent: usize, child: usize, origin: Isometry3) -> Self {
        Self {
            name: name.to_owned(),
            parent,
            child,
            origin,
            kind: None,
            axis: Vector3::z(),
            limits: None,
            mimic: None,
            order: MotionOrder::OriginThenMotion,
        }
    }

    /// A moving joint (URDF order), without limits or mimic.
    pub fn moving(
        name: &str,
        kind: JointKind,
        parent: usize,
        child: usize,
        origin: Isometry3,
        axis: Vector3,
    ) -> Self {
        Self {
            kind: Some(kind),
            axis,
            ..Self::fixed(name, parent, child, origin)
        }
    }

    /// The same joint with limits.
    pub fn with_limits(mut self, min: Real, max: Real) -> Self {
        self.limits = Some((min, max));
        self
    }
}

/// Where a joint's value comes from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Drive {
    /// Index into the configuration vector.
    pub variable: usize,
    /// `v = multiplier · q[variable] + offset`.
    pub multiplier: Real,
    /// Offset.
    pub offset: Real,
}

/// A tree of links and joints; see the module docs.
#[derive(Debug, Clone, PartialEq)]
pub struct KinematicTree {
    /// Link names; index 0 is the root.
    pub(crate) links: Vec<String>,
    /// Joints in topological order (a joint's parent link is the root or the child of an
    /// earlier joint).
    pub(crate) joints: Vec<Joint>,
    /// Placement of the root link in the world.
    pub base: Isometry3,
    /// For each link, the joint whose child it is (`None` for the root).
    pub(crate) parent_joint: Vec<Option<usize>>,
    /// Joint index of each configuration variable.
    pub(crate) variables: Vec<usize>,
    /// For each joint, its drive (`None` for fixed joints).
    pub(crate) drives: Vec<Option<Drive>>,
}

impl KinematicTree {
    /// Builds a tree from link names and joints (any order), checking: unique names, existing
    /// parent and child links, one parent per link, one root, no cycle, finite origins, unit-able
    /// axes, ordered limits, mimic leaders that exist and are not fixed, no mimic cycle.
    /// `source` names the input in errors. The root is the one link that is no joint's child.
    pub fn new(source: &str, links: Vec<String>, joints: Vec<Joint>) -> Result<Self> {
        let bad = |message: String| Error::File {
            file: source.to_owned(),
            message,
        };
        let mut seen = std::collections::HashSet::with_capacity(links.len());
        for name in &links {
            if !seen.insert(name.as_str()) {
                return Err(bad(format!("link `{name}` is defined twice")));
            }
        }
        let mut joint_names = std::collections::HashSet::with_capacity(joints.len());
        let mut parent_joint: Vec<Option<usize>> = vec![None; links.len()];
        for (j, joint) in joints.iter().enumerate() {
            let here = |m: &str| bad(format!("joint `{}`: {m}", joint.name));
            if !joint_names.insert(joint.name.as_str()) {
                return Err(here("the name is used twice"));
            }
            if joint.parent >= links.len() || joint.child >= links.len() {
                return Err(here("parent or child link does not exist"));
            }
            if joint.parent == joint.child {
                return Err(here("a link cannot be its own parent"));
            }
            if let Some(other) = parent_joint[joint.child] {
                return Err(bad(format!(
                    "link `{}` has two parents (joints `{}` and `{}`); kinematic loops are not supported",
                    links[joint.child], joints[other].name, joint.name
                )));
            }
            parent_joint[joint.child] = Some(j);
            check_origin(&joint.origin).map_err(|m| here(&format!("origin {m}")))?;
            if joint.kind.is_some() {
                let norm = joint.axis.norm();
                if !(norm.is_finite() && norm > 0.0) {
                    return Err(here(&format!(
                        "axis ({}, {}, {}) must be a non-zero finite vector",
                        joint.axis.x, joint.axis.y, joint.axis.z
                    )));
                }
            }
            if let Some((lo, hi)) = joint.limits
                && (lo.is_nan() || hi.is_nan() || lo > hi)
            {
                return Err(here(&format!(
                    "limits [{lo}, {hi}] must be ordered numbers"
                )));
            }
        }
        let roots: Vec<usize> = (0..links.len())
            .filter(|&l| parent_joint[l].is_none())
            .collect();
        let root = match roots.as_slice() {
            [root] => *root,
            [] => return Err(bad("the joints form a cycle: no link is the root".into())),
            _ => {
                let names: Vec<&str> = roots.iter().map(|&l| links[l].as_str()).collect();
                return Err(bad(format!(
                    "{} links have no parent joint ({}); a robot has one root link",
                    roots.len(),
                    names.join(", ")
                )));
            }
        };
        // Topological order from the root (breadth first); links not reached lie on a cycle.
        let mut order = Vec::with_capacity(joints.len());
        let mut reached = vec![false; links.len()];
        reached[root] = true;
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); links.len()];
        for (j, joint) in joints.iter().enumerate() {
            children[joint.parent].push(j);
        }
        let mut frontier = vec![root];
        while let Some(link) = frontier.pop() {
            for &j in &children[link] {
                let child = joints[j].child;
                if !reached[child] {
                    reached[child] = true;
                    order.push(j);
                    frontier.push(child);
                }
            }
        }
        if let Some(lost) = (0..links.len()).find(|&l| !reached[l]) {
            return Err(bad(format!(
                "link `{}` is on a cycle of joints, not below the root `{}`",
                links[lost], links[root]
            )));
        }
        // Renumber: root first, then links in joint order; joints in topological order.
        let mut new_index = vec![usize::MAX; links.len()];
        new_index[root] = 0;
        for (k, &j) in order.iter().enumerate() {
            new_index[joints[j].child] = k + 1;
        }
        let mut sorted_links = vec![String::new(); links.len()];
        for (old, name) in links.into_iter().enumerate() {
            sorted_links[new_index[old]] = name;
        }
        // Keep the declared order among independent joints for the configuration vector.
        let declared: Vec<String> = joints.iter().map(|j| j.name.clone()).collect();
        let mut joints_by_index: Vec<Option<Joint>> = joints.into_iter().map(Some).collect();
        let sorted_joints: Vec<Joint> = order
            .iter()
            .filter_map(|&j| joints_by_index[j].take())
            .map(|mut joint| {
                joint.parent = new_index[joint.parent];
                joint.child = new_index[joint.child];
                if joint.kind.is_some() {
                    joint.axis = joint.axis.normalize();
                } else {
                    joint.mimic = None;
                }
                joint
            })
            .collect();
        let mut parent_joint = vec![None; sorted_links.len()];
        for (j, joint) in sorted_joints.iter().enumerate() {
            parent_joint[joint.child] = Some(j);
        }
        let by_name: std::collections::HashMap<&str, usize> = sorted_joints
            .iter()
            .enumerate()
            .map(|(j, joint)| (joint.name.as_str(), j))
            .collect();
        let index_of = |name: &str| by_name.get(name).copied();
        let variables: Vec<usize> = declared
            .iter()
            .filter_map(|name| index_of(name))
            .filter(|&j| sorted_joints[j].kind.is_some() && sorted_joints[j].mimic.is_none())
            .collect();
        let mut drives = vec![None; sorted_joints.len()];
        for (v, &j) in variables.iter().enumerate() {
            drives[j] = Some(Drive {
                variable: v,
                multiplier: 1.0,
                offset: 0.0,
            });
        }
        for (j, joint) in sorted_joints.iter().enumerate() {
            let Some(mimic) = &joint.mimic else { continue };
            let (mut multiplier, mut offset) = (1.0, 0.0);
            let mut current = j;
            let mut steps = 0;
            while let Some(m) = &sorted_joints[current].mimic {
                let here = |msg: String| bad(format!("joint `{}`: mimic {msg}", joint.name));
                for (what, x) in [("multiplier", m.multiplier), ("offset", m.offset)] {
                    if !x.is_finite() {
                        return Err(here(format!("{what} must be finite, got {x}")));
                    }
                }
                let leader = index_of(&m.leader)
                    .ok_or_else(|| here(format!("names unknown joint `{}`", m.leader)))?;
                if sorted_joints[leader].kind.is_none() {
                    return Err(here(format!("leader `{}` is a fixed joint", m.leader)));
                }
                offset += multiplier * m.offset;
                multiplier *= m.multiplier;
                current = leader;
                steps += 1;
                if steps > sorted_joints.len() {
                    return Err(here(format!("forms a cycle through `{}`", mimic.leader)));
                }
            }
            let variable = drives[current].map(|d| d.variable).unwrap_or(usize::MAX);
            drives[j] = Some(Drive {
                variable,
                multiplier,
                offset,
            });
        }
        Ok(Self {
            links: sorted_links,
            joints: sorted_joints,
            base: Isometry3::identity(),
            parent_joint,
            variables,
            drives,
        })
    }

    /// A tree with a root link only (a static body set).
    pub fn fixed_base(root: &str) -> Self {
        Self {
            links: vec![root.to_owned()],
            joints: Vec::new(),
            base: Isometry3::identity(),
            parent_joint: vec![None],
            variables: Vec::new(),
            drives: Vec::new(),
        }
    }

    /// Link names (index 0 is the root; a parent comes before its children).
    pub fn links(&self) -> &[String] {
        &self.links
    }

    /// Joints in topological order.
    pub fn joints(&self) -> &[Joint] {
        &self.joints
    }

    /// Index of the link called `name`.
    pub fn link_index(&self, name: &str) -> Option<usize> {
        self.links.iter().position(|l| l == name)
    }

    /// The parent link of `link` (`None` for the root).
    pub fn parent_link(&self, link: usize) -> Option<usize> {
        self.parent_joint[link].map(|j| self.joints[j].parent)
    }

    /// The joint whose child is `link` (`None` for the root): the last of [`Self::path_to`].
    pub fn parent_joint(&self, link: usize) -> Option<usize> {
        self.parent_joint[link]
    }

    /// Degrees of freedom (length of a configuration vector).
    pub fn dof(&self) -> usize {
        self.variables.len()
    }

    /// The joint behind configuration variable `v`.
    pub fn variable_joint(&self, v: usize) -> &Joint {
        &self.joints[self.variables[v]]
    }

    /// The kind of configuration variable `v`.
    pub fn variable_kind(&self, v: usize) -> JointKind {
        self.variable_joint(v).kind.unwrap_or(JointKind::Revolute)
    }

    /// Kinds of the configuration variables, in configuration order.
    pub fn variable_kinds(&self) -> impl Iterator<Item = JointKind> + '_ {
        (0..self.dof()).map(|v| self.variable_kind(v))
    }

    /// The range to sample variable `v` from: its limits, with a missing or infinite bound
    /// replaced by −π / π (revolute) or −1 / 1 m (prismatic).
    pub fn sampling_range(&self, v: usize) -> (Real, Real) {
        let default = match self.variable_kind(v) {
            JointKind::Revolute => std::f64::consts::PI,
            JointKind::Prismatic => 1.0,
        };
        let (lo, hi) = self.variable_joint(v).limits.unwrap_or((-default, default));
        let lo = if lo.is_finite() {
            lo
        } else {
            (-default).min(hi)
        };
        let hi = if hi.is_finite() { hi } else { default.max(lo) };
        (lo, hi)
    }

    /// Names of the configuration variables, in configuration order.
    pub fn variable_names(&self) -> impl Iterator<Item = &str> {
        self.variables.iter().map(|&j| self.joints[j].name.as_str())
    }

    /// Index of the configuration variable of the joint called `name`.
    pub fn variable_index(&self, name: &str) -> Option<usize> {
        self.variable_names().position(|n| n == name)
    }

    /// Checks a configuration: the right number of values, all finite (prismatic values within
    /// the length range).
    pub fn check_configuration(&self, q: &[Real]) -> Result<()> {
        if q.len() != self.dof() {
            return Err(Error::JointCount {
                expected: self.dof(),
                got: q.len(),
            });
        }
        // The usual case first, without looking up a joint: every value finite and within
        // the length limit is fine for either kind (this runs twice per motion check of a
        // planner).
        if q.iter().all(|v| v.abs() <= crate::geom::LENGTH_LIMIT) {
            return Ok(());
        }
        for (v, &value) in q.iter().enumerate() {
            let kind = self.variable_kind(v);
            // Without building the error's field name unless the value is bad.
            let fine = value.is_finite()
                && (kind == JointKind::Revolute || value.abs() <= crate::geom::LENGTH_LIMIT);
            if fine {
                continue;
            }
            let field = format!("q[{v}] ({})", self.variable_joint(v).name);
            match kind {
                JointKind::Prismatic => crate::geom::check_length(&field, value)?,
                JointKind::Revolute => crate::geom::check_scalar(&field, value)?,
            };
        }
        Ok(())
    }

    /// Checks every length (origins, prismatic limits, base) against
    /// [`LENGTH_LIMIT`](crate::geom::LENGTH_LIMIT); errors name the joint.
    pub fn check_lengths(&self) -> Result<()> {
        use crate::geom::check_length;
        for joint in &self.joints {
            for (axis, v) in ["x", "y", "z"]
                .iter()
                .zip(joint.origin.translation.vector.iter())
            {
                check_length(&format!("joint `{}` origin.{axis}", joint.name), *v)?;
            }
            if let (Some(JointKind::Prismatic), Some((lo, hi))) = (joint.kind, joint.limits) {
                check_length(&format!("joint `{}` lower limit", joint.name), lo)?;
                check_length(&format!("joint `{}` upper limit", joint.name), hi)?;
            }
        }
        for (axis, v) in ["x", "y", "z"]
            .iter()
            .zip(self.base.translation.vector.iter())
        {
            check_length(&format!("base.{axis}"), *v)?;
        }
        Ok(())
    }

    /// The value of every joint at `q` (mimic joints from their leaders; 0 for fixed joints).
    pub fn joint_values(&self, q: &[Real]) -> Vec<Real> {
        self.drives
            .iter()
            .map(|d| d.map_or(0.0, |d| d.multiplier * q[d.variable] + d.offset))
            .collect()
    }

    /// Where joint `joint`'s value comes from: `(variable, multiplier, offset)` with
    /// `v = multiplier · q[variable] + offset`; `None` for a fixed joint.
    pub fn drive(&self, joint: usize) -> Option<(usize, Real, Real)> {
        self.drives[joint].map(|d| (d.variable, d.multiplier, d.offset))
    }

    /// The joints (fixed ones included) between the root and `link`, root first.
    pub fn path_to(&self, link: usize) -> Vec<usize> {
        let up = |mut at: usize| {
            std::iter::from_fn(move || {
                let j = self.parent_joint[at]?;
                at = self.joints[j].parent;
                Some(j)
            })
        };
        // (Counted first: one allocation of the path's size, not zeroed.)
        let mut path = Vec::with_capacity(up(link).count());
        path.extend(up(link));
        path.reverse();
        path
    }
}

/// `Ok` if an origin is finite.
fn check_origin(origin: &Isometry3) -> std::result::Result<(), String> {
    let t = origin.translation.vector;
    let q = origin.rotation.coords;
    if t.iter().chain(q.iter()).all(|v| v.is_finite()) {
        Ok(())
    } else {
        Err(format!(
            "must be finite, got xyz ({}, {}, {})",
            t.x, t.y, t.z
        ))
    }
}
