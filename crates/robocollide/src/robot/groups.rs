//! Joint groups: named sets of a robot's joints and links — MoveIt's planning groups from an
//! SRDF, and seed 002's protected chains (NAO's `LArm`, `RArm`, `Arms`).
//!
//! Membership follows the SRDF specification (<http://wiki.ros.org/srdf>): a `<joint>` brings
//! its child link, a `<link>` the joint it hangs from, a `<chain base tip>` every joint on the
//! path from `base` to `tip` and their child links (not `base` itself), and a `<group>` all
//! members of the named group (which may be defined later in the file; cycles are an error).
//! The group's *variables* are the configuration entries its joints are driven by; a mimic
//! joint counts through its leader only if the leader is a member.

#[cfg(feature = "urdf")]
use crate::error::{Error, Result};
use crate::kinematics::KinematicTree;

/// A named group of a robot's links and joints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JointGroup {
    /// Group name.
    pub name: String,
    /// Member links (indices into the tree's links), ascending.
    pub links: Vec<usize>,
    /// Configuration variables of the member joints (indices into q), ascending.
    pub variables: Vec<usize>,
    /// The groups it names as members (`Arms`: `LArm`, `RArm`), in file order: protecting a
    /// group of parts protects each part as its own chain, so the parts are kept apart too.
    pub parts: Vec<String>,
}

#[cfg(feature = "urdf")]
impl JointGroup {
    /// The SRDF's groups resolved against `tree`. A group naming a joint, link or group the
    /// robot lacks is left out, with a warning naming the file, line and name (a sphere
    /// model's SRDF often keeps groups for links it dropped); using it is then an error.
    pub fn resolve(
        records: &[super::srdf::GroupRecord],
        tree: &KinematicTree,
        file: &str,
        warnings: &mut Vec<String>,
    ) -> Vec<JointGroup> {
        let mut joints_of: Vec<Option<Vec<usize>>> = vec![None; records.len()];
        let mut groups = Vec::new();
        for (k, record) in records.iter().enumerate() {
            match member_joints(records, k, tree, file, &mut joints_of, &mut Vec::new()) {
                Ok(joints) => {
                    let mut group = JointGroup::from_joints(&record.name, tree, joints);
                    group.parts = record
                        .members
                        .iter()
                        .filter_map(|(m, _)| match m {
                            super::srdf::GroupMember::Group(name) => Some(name.clone()),
                            _ => None,
                        })
                        .collect();
                    groups.push(group);
                }
                Err(e) => warnings.push(format!("group skipped: {e}")),
            }
        }
        groups
    }
}

impl JointGroup {
    /// The group of `joints` (indices into the tree's joints): their child links and the
    /// variables that drive them.
    pub fn from_joints(name: &str, tree: &KinematicTree, mut joints: Vec<usize>) -> Self {
        joints.sort_unstable();
        joints.dedup();
        let mut links: Vec<usize> = joints.iter().map(|&j| tree.joints()[j].child).collect();
        links.sort_unstable();
        links.dedup();
        // A mimic joint follows its leader: the leader's own membership decides.
        let mut variables: Vec<usize> = joints
            .iter()
            .filter(|&&j| tree.joints()[j].mimic.is_none())
            .filter_map(|&j| tree.drive(j).map(|(v, _, _)| v))
            .collect();
        variables.sort_unstable();
        variables.dedup();
        Self {
            name: name.to_owned(),
            links,
            variables,
            parts: Vec::new(),
        }
    }
}

/// The joints of group `k`, memoised in `done`; `open` holds the groups being resolved (a
/// group met again while open is a cycle).
#[cfg(feature = "urdf")]
fn member_joints(
    records: &[super::srdf::GroupRecord],
    k: usize,
    tree: &KinematicTree,
    file: &str,
    done: &mut Vec<Option<Vec<usize>>>,
    open: &mut Vec<usize>,
) -> Result<Vec<usize>> {
    use super::srdf::GroupMember;
    if let Some(joints) = &done[k] {
        return Ok(joints.clone());
    }
    let record = &records[k];
    let bad = |line: u32, message: String| Error::File {
        file: file.to_owned(),
        message: format!("line {line}: group `{}`: {message}", record.name),
    };
    if open.contains(&k) {
        return Err(bad(
            record.line,
            "contains itself (a cycle of nested groups)".into(),
        ));
    }
    open.push(k);
    let link = |name: &str, line: u32| {
        tree.link_index(name)
            .ok_or_else(|| bad(line, format!("no link `{name}` in the robot")))
    };
    let mut joints = Vec::new();
    for (member, line) in &record.members {
        match member {
            GroupMember::Joint(name) => joints.push(
                tree.joints()
                    .iter()
                    .position(|j| &j.name == name)
                    .ok_or_else(|| bad(*line, format!("no joint `{name}` in the robot")))?,
            ),
            GroupMember::Link(name) => joints.extend(tree.parent_joint(link(name, *line)?)),
            GroupMember::Chain { base, tip } => {
                let (base_path, tip_path) = (
                    tree.path_to(link(base, *line)?),
                    tree.path_to(link(tip, *line)?),
                );
                if !tip_path.starts_with(&base_path) {
                    return Err(bad(
                        *line,
                        format!("chain: `{base}` is not an ancestor of `{tip}`"),
                    ));
                }
                joints.extend(&tip_path[base_path.len()..]);
            }
            GroupMember::Group(name) => {
                let inner = records
                    .iter()
                    .position(|r| &r.name == name)
                    .ok_or_else(|| bad(*line, format!("no group `{name}` in the SRDF")))?;
                joints.extend(member_joints(records, inner, tree, file, done, open)?);
            }
        }
    }
    open.pop();
    done[k] = Some(joints.clone());
    Ok(joints)
}
