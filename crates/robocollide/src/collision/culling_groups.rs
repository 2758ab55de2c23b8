//! Culling groups: the bodies of a robot that share one bounding sphere fixed in one link, so
//! that a far group certifies all its pairs at once (the contact search, the motion check's
//! blocks).
//!
//! A body belongs to the link that carries it rigidly. Most bodies have all their anchors on
//! one link. A body whose two anchors sit on a link and its parent (a capsule between two
//! consecutive Denavit–Hartenberg frame origins, the usual model of an arm built from a DH
//! table) is rigid too when one of the anchors lies on the axis of the revolute joint between
//! the two links, or when that joint is fixed: a rotation leaves its own axis in place, so such
//! an anchor has the same coordinates in both links' frames at every joint value.
//!
//! With a joint `J` from parent `p` to child `c`, origin `O`, unit axis `a` and rotation
//! `R(v)` about `a`, the child frame is `p · O · R(v)` (URDF, modified DH) or `p · R(v) · O`
//! (standard DH). Write an anchor in the joint's own frame, where the axis passes through the
//! origin along `a`: a parent anchor `x` is `O⁻¹ x` (URDF) or `x` (standard DH); a child anchor
//! `y` is `y` (URDF) or `O y` (standard DH). If its distance `δ` from the axis is zero, the
//! parent anchor's child coordinates are `O⁻¹ x` and the child anchor's parent coordinates are
//! `O y`, in both orders, at every `v`. Rounding leaves `δ` tiny but nonzero; the anchor then
//! circles the axis at radius `δ`, so it stays within `2δ` of those coordinates, and the
//! group's sphere grows by that much. Prismatic joints move points along their axis: a body
//! across one is not rigid on either link.
//!
//! Two groupings are kept. The contact and closest-pair search groups only bodies with all
//! anchors on one link ([`Grouping::for_search`]): for a DH arm, whose capsules cross joints,
//! one block per pair of links (two bodies each) costs more to visit than it culls, and the
//! whole arm is one group (measured: UR5 among 50 boxes, closest pair 0.81 → 1.63 ms per
//! 1000 configurations with link groups). The motion check groups by rigid link
//! ([`Grouping::for_motion`]): there a block certified whole spares both ends' exact
//! distances and the bisection of all its pairs (UR5 around the IRB 120: 5 blocks, all open on
//! every motion, became 88).

use crate::kinematics::{Joint, KinematicTree, MotionOrder};
use crate::math::{Point3, Real};
use crate::robot::{Body, Cell};

/// A set of bodies culled together.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Group {
    pub(super) robot: usize,
    /// The link that carries all its bodies (`None`: never culled, or culled by a sphere
    /// recomputed at every pose).
    pub(super) link: Option<usize>,
    /// Bounding sphere in the link's frame.
    pub(super) center: Point3,
    pub(super) radius: Real,
}

/// Culling groups and each flat body's group.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Grouping {
    pub(super) groups: Vec<Group>,
    pub(super) body_group: Vec<usize>,
}

impl Grouping {
    /// Groups of bodies whose anchors all lie on one link.
    pub(super) fn for_search(cell: &Cell) -> Self {
        culling_groups(cell, false)
    }

    /// Groups of bodies carried rigidly by one link (see the module docs), where they differ
    /// from `search` (the cell's [`Self::for_search`]); `None` where they equal it. They can
    /// differ only by a body anchored on two links: without one, none are made.
    pub(super) fn for_motion(cell: &Cell, search: &Self) -> Option<Self> {
        let across_links = cell
            .robots
            .iter()
            .any(|r| r.model.bodies.iter().any(|b| !on_one_link(b)));
        across_links
            .then(|| culling_groups(cell, true))
            .filter(|motion| motion != search)
    }
}

/// Whether every anchor of `body` lies on one link.
fn on_one_link(body: &Body) -> bool {
    let mut frames = body.anchors().map(|a| a.frame);
    let first = frames.next();
    frames.all(|f| Some(f) == first)
}

/// A body's anchors in the frame of the one link that carries it rigidly.
#[derive(Debug, Clone)]
struct Placement {
    link: usize,
    /// The anchors' coordinates in `link`'s frame.
    points: Vec<Point3>,
    /// How far an anchor may stray from its coordinates in `points` (see the module docs).
    slack: Real,
    /// How far the body reaches beyond its anchors.
    reach: Real,
}

/// An anchor farther than this from a joint's axis, relative to its distance from the joint
/// frame's origin (plus 1 m), is taken as off the axis.
const ON_AXIS: Real = 1e-9;

/// The link that carries `body` rigidly and its anchors there; `None` if there is none, or
/// if its anchors are on two links and `across_joints` is false.
fn placement(tree: &KinematicTree, body: &Body, across_joints: bool) -> Option<Placement> {
    let anchors: Vec<_> = body.anchors().copied().collect();
    let reach = body.reach();
    if on_one_link(body) {
        return Some(Placement {
            link: anchors[0].frame,
            points: anchors.iter().map(|a| a.at).collect(),
            slack: 0.0,
            reach,
        });
    }
    let &[first, second] = anchors.as_slice() else {
        return None;
    };
    if !across_joints {
        return None;
    }
    let joint_into = |child: usize| tree.joints().iter().find(|j| j.child == child);
    // The joint between the anchors' links, and whether the first anchor is on its parent.
    let (joint, parent_first) = match (joint_into(first.frame), joint_into(second.frame)) {
        (Some(j), _) if j.parent == second.frame => (j, false),
        (_, Some(j)) if j.parent == first.frame => (j, true),
        _ => return None,
    };
    let (parent, child) = if parent_first {
        (first, second)
    } else {
        (second, first)
    };
    // The placed coordinates, in the body's anchor order, on the child or the parent link.
    let on_child = joint.origin.inverse_transform_point(&parent.at);
    let on_parent = joint.origin.transform_point(&child.at);
    let ordered = |p: Point3, c: Point3| if parent_first { vec![p, c] } else { vec![c, p] };
    let place = |on_child_link: bool, off: Real| {
        let (link, points) = if on_child_link {
            (joint.child, ordered(on_child, child.at))
        } else {
            (joint.parent, ordered(parent.at, on_parent))
        };
        Some(Placement {
            link,
            points,
            slack: 2.0 * off,
            reach,
        })
    };
    match joint.kind {
        None => place(true, 0.0),
        Some(crate::kinematics::JointKind::Revolute) => {
            let (parent_in_joint, child_in_joint) = match joint.order {
                MotionOrder::OriginThenMotion => (on_child, child.at),
                MotionOrder::MotionThenOrigin => (parent.at, on_parent),
            };
            if let Some(off) = off_axis(joint, &parent_in_joint) {
                place(true, off)
            } else {
                off_axis(joint, &child_in_joint).and_then(|off| place(false, off))
            }
        }
        Some(_) => None,
    }
}

/// The distance of `point` (in `joint`'s own frame) from the joint's axis if it lies on it
/// (within [`ON_AXIS`]).
fn off_axis(joint: &Joint, point: &Point3) -> Option<Real> {
    let along = point.coords.dot(&joint.axis);
    let off = (point.coords - joint.axis * along).norm();
    (off <= ON_AXIS * (1.0 + point.coords.norm())).then_some(off)
}

/// A bounding sphere (centre, radius in the link's frame) of bodies placed on one link.
fn bounding_sphere(members: &[&Placement]) -> (Point3, Real) {
    let points: Vec<Point3> = members.iter().flat_map(|m| m.points.clone()).collect();
    let center = Point3::from(
        points
            .iter()
            .map(|p| p.coords)
            .sum::<crate::math::Vector3>()
            / points.len() as Real,
    );
    // Every body point lies within |anchor − centre| + slack + reach (a capsule or cylinder
    // lies within its end spheres' hull; a cylinder's rim within |end| + r; a box within its
    // half-diagonal of its centre).
    let radius = members
        .iter()
        .flat_map(|m| {
            m.points
                .iter()
                .map(move |p| (p - center).norm() + m.slack + m.reach)
        })
        .fold(0.0, Real::max)
        * (1.0 + 1e-9);
    (center, radius)
}

/// One group per link with bodies, for robots whose every body is carried rigidly by one
/// link; otherwise one group for the robot without a fixed sphere. A robot without joints (the
/// world's obstacles, a static scene) gets one group per body: its bodies are spread over the
/// cell, and one sphere around them all would cull nothing. Returns the groups and each flat
/// body's group.
fn culling_groups(cell: &Cell, across_joints: bool) -> Grouping {
    let (mut groups, mut body_group) = (Vec::new(), Vec::new());
    for (r, robot) in cell.robots.iter().enumerate() {
        let tree = robot.model.tree();
        let placements: Option<Vec<Placement>> = robot
            .model
            .bodies
            .iter()
            .map(|b| placement(tree, b, across_joints))
            .collect();
        let Some(placements) = placements else {
            groups.push(Group {
                robot: r,
                link: None,
                center: Point3::origin(),
                radius: Real::INFINITY,
            });
            body_group.extend(std::iter::repeat_n(
                groups.len() - 1,
                robot.model.bodies.len(),
            ));
            continue;
        };
        // A robot without joints: one group per body; else one per link.
        let fixed = robot.model.dof() == 0;
        let key = |i: usize| if fixed { i } else { placements[i].link };
        let mut keys: Vec<usize> = (0..placements.len()).map(key).collect();
        keys.sort_unstable();
        keys.dedup();
        let first = groups.len();
        for &k in &keys {
            let members: Vec<&Placement> = (0..placements.len())
                .filter(|&i| key(i) == k)
                .map(|i| &placements[i])
                .collect();
            let (center, radius) = bounding_sphere(&members);
            groups.push(Group {
                robot: r,
                link: Some(members[0].link),
                center,
                radius,
            });
        }
        body_group.extend(
            (0..placements.len()).map(|i| first + keys.binary_search(&key(i)).unwrap_or(0)),
        );
    }
    Grouping { groups, body_group }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinematics::{ForwardKinematics, Joint, JointKind};
    use crate::math::{Isometry3, Vector3};
    use crate::robot::{Anchor, BodyShape, DetailLevel};
    use nalgebra::{Translation3, UnitQuaternion};

    fn capsule(name: &str, a: Anchor, b: Anchor) -> Body {
        Body {
            name: name.to_owned(),
            link: b.frame,
            shape: BodyShape::Capsule { a, b, radius: 0.05 },
        }
    }

    /// A URDF-order tree: a tilted revolute joint with an offset origin, a prismatic joint
    /// and a fixed one; capsules across each, with a parent anchor on the revolute axis (rigid
    /// on the child), a child anchor on it (rigid on the parent), one off it (not rigid), and
    /// across the prismatic (not rigid) and fixed (rigid) joints.
    fn hand_built() -> (KinematicTree, Vec<Body>, Vec<bool>) {
        let origin = Isometry3::from_parts(
            Translation3::new(0.3, -0.2, 0.5),
            UnitQuaternion::from_euler_angles(0.4, -0.7, 1.1),
        );
        let axis = Vector3::new(1.0, 2.0, -2.0) / 3.0;
        let joints = vec![
            Joint::moving("turn", JointKind::Revolute, 0, 1, origin, axis),
            Joint::moving("slide", JointKind::Prismatic, 1, 2, origin, axis),
            Joint::fixed("weld", 2, 3, origin),
        ];
        let links = ["root", "arm", "slider", "tool"].map(String::from).to_vec();
        let tree = KinematicTree::new("hand-built", links, joints).unwrap();
        let at = |frame: usize, x: Real, y: Real, z: Real| Anchor {
            frame,
            at: Point3::new(x, y, z),
        };
        // Parent coordinates of points on the revolute joint's axis: O (s a).
        let on_axis = |s: Real| Anchor {
            frame: 0,
            at: origin.transform_point(&Point3::from(axis * s)),
        };
        let bodies = vec![
            capsule("parent-on-axis", on_axis(0.4), at(1, 0.2, 0.1, -0.3)),
            capsule(
                "child-on-axis",
                at(1, 0.6 * axis.x, 0.6 * axis.y, 0.6 * axis.z),
                at(0, 0.1, 0.2, 0.3),
            ),
            capsule("off-axis", at(0, 0.5, 0.5, 0.5), at(1, 0.2, 0.1, -0.3)),
            capsule(
                "across-prismatic",
                at(1, 0.0, 0.0, 0.0),
                at(2, 0.1, 0.0, 0.0),
            ),
            capsule("across-fixed", at(2, 0.3, 0.1, 0.0), at(3, 0.0, 0.2, 0.1)),
        ];
        (tree, bodies, vec![true, true, false, false, true])
    }

    /// Every placed body's anchors stay within its slack of their placed coordinates at
    /// random configurations (forward kinematics only): on the shipped DH arms (standard and
    /// modified convention, every level of detail, all of whose capsules cross a joint) and
    /// on a hand-built URDF-order tree; and exactly the rigid bodies get a placement.
    #[test]
    fn placed_anchors_stay_where_they_are_placed() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/robots");
        let mut cases = vec![hand_built()];
        for robot in ["ur5", "irb120", "puma560"] {
            for level in [
                DetailLevel::Simplified,
                DetailLevel::Standard,
                DetailLevel::Precise,
            ] {
                let path = root.join(format!("{robot}.toml"));
                let model = crate::robot::model_file::load_robot(&path, Some(level)).unwrap();
                let rigid = vec![true; model.bodies.len()];
                cases.push((model.tree().clone(), model.bodies.clone(), rigid));
            }
        }
        let mut unit = crate::math::unit_random(11);
        let mut next = || unit() * 8.0 - 4.0;
        let mut across = 0;
        for (tree, bodies, rigid) in &cases {
            let kinematics = ForwardKinematics::new(tree);
            let placements: Vec<Option<Placement>> =
                bodies.iter().map(|b| placement(tree, b, true)).collect();
            for ((body, placed), &rigid) in bodies.iter().zip(&placements).zip(rigid) {
                assert_eq!(placed.is_some(), rigid, "{}", body.name);
                across += usize::from(
                    rigid
                        && body
                            .anchors()
                            .any(|a| a.frame != body.anchors().next().unwrap().frame),
                );
            }
            let mut frames = Vec::new();
            for _ in 0..200 {
                let q: Vec<Real> = (0..tree.dof()).map(|_| next()).collect();
                kinematics.forward_into(&q, &mut frames);
                for (body, placed) in bodies.iter().zip(&placements) {
                    let Some(placed) = placed else { continue };
                    for (anchor, at) in body.anchors().zip(&placed.points) {
                        let stray = (anchor.world(&frames) - frames[placed.link].apply(at)).norm();
                        assert!(
                            stray <= placed.slack + 1e-12,
                            "{} strays {stray} at {q:?}",
                            body.name
                        );
                    }
                }
            }
        }
        assert!(across > 30, "{across} bodies across a joint placed");
    }
}
