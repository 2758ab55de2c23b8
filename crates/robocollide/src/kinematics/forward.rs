//! Forward kinematics and point Jacobians on a [`KinematicTree`] — the one implementation the
//! rest of the library uses.
//!
//! Link frames are computed in the tree's topological order, each from its parent's
//! (`parent · origin · motion` or `parent · motion · origin`, see [`MotionOrder`]). A point `p`
//! fixed on link `k` has, for each moving joint `j` between the root and `k`, the Jacobian
//! contribution `m · (a × (p − o))` (revolute) or `m · a` (prismatic), where `a` is the joint's
//! world axis, `o` a point on it (the frame the motion acts in) and `m` the multiplier of the
//! joint's drive (1, or a mimic's multiplier), added to the column of the joint's variable.

use super::frame::{Frame, JointAxis};
use super::sin_cos::{SIDE_BY_SIDE, sin_cos_side_by_side};
use super::tree::{JointKind, KinematicTree, MotionOrder};
use crate::error::Result;
use crate::math::{Isometry3, Point3, Real, Vector3};

/// What forward kinematics needs of one joint, precomputed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Step {
    pub(super) parent: usize,
    pub(super) child: usize,
    pub(super) origin: Frame,
    /// `true` if the origin has no rotation (only its translation needs applying).
    pub(super) pure_translation: bool,
    /// The origin's rotation when it turns about one coordinate axis (URDF's `rpy` with one
    /// angle, as most arms' joints): applied as two columns mixed instead of a full product.
    pub(super) origin_turn: Option<(JointAxis, (Real, Real))>,
    pub(super) motion: Motion,
    pub(super) order: MotionOrder,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Motion {
    Fixed,
    Revolute(JointAxis, super::tree::Drive),
    Prismatic(Vector3, super::tree::Drive),
}

/// A tree compiled for repeated forward kinematics; [`KinematicTree::forward`] is the
/// convenient entry point.
#[derive(Debug, Clone, PartialEq)]
pub struct ForwardKinematics {
    pub(super) base: Frame,
    pub(super) steps: Vec<Step>,
    /// How many steps run up to the last revolute one (0 without any; kept from `revolute`
    /// for the scalar walk): those after it need no sine.
    pub(super) turning: usize,
    /// The revolute steps' indices, in order (the lane walk's angles are taken from these).
    pub(super) revolute: Vec<usize>,
    pub(super) links: usize,
}

impl ForwardKinematics {
    /// Compiles `tree`.
    pub fn new(tree: &KinematicTree) -> Self {
        let steps = tree
            .joints
            .iter()
            .zip(&tree.drives)
            .map(|(joint, drive)| Step {
                parent: joint.parent,
                child: joint.child,
                origin: Frame::from_isometry(&joint.origin),
                pure_translation: joint.origin.rotation.angle() == 0.0,
                origin_turn: axis_turn(&Frame::from_isometry(&joint.origin).rotation),
                motion: match (joint.kind, drive) {
                    (Some(JointKind::Revolute), Some(d)) => {
                        Motion::Revolute(JointAxis::of(&joint.axis), *d)
                    }
                    (Some(JointKind::Prismatic), Some(d)) => Motion::Prismatic(joint.axis, *d),
                    _ => Motion::Fixed,
                },
                order: joint.order,
            })
            .collect::<Vec<_>>();
        let revolute: Vec<usize> = (0..steps.len())
            .filter(|&i| matches!(steps[i].motion, Motion::Revolute(..)))
            .collect();
        let turning = revolute.last().map_or(0, |&i| i + 1);
        Self {
            base: Frame::from_isometry(&tree.base),
            steps,
            turning,
            revolute,
            links: tree.links.len(),
        }
    }

    /// World frames of every link at `q` into `frames` (resized to the link count). `q` is not
    /// validated: use [`KinematicTree::check_configuration`] on untrusted input.
    pub fn forward_into(&self, q: &[Real], frames: &mut Vec<Frame>) {
        self.forward_prefix_into(q, self.steps.len(), frames, &mut Vec::new());
    }

    /// Like [`forward_into`](Self::forward_into) but stops after the first `joints` joints of
    /// the topological order (frames of later links are left as they were); `scratch` is a
    /// reusable buffer (no allocation once it has grown).
    #[inline(always)]
    pub fn forward_prefix_into(
        &self,
        q: &[Real],
        joints: usize,
        frames: &mut Vec<Frame>,
        scratch: &mut Vec<(Real, Real)>,
    ) {
        if frames.len() != self.links {
            frames.resize(self.links, Frame::IDENTITY);
        }
        let steps = &self.steps[..joints.min(self.steps.len())];
        // Every joint's sine and cosine (or displacement) first, the angles four at a time
        // ([`sin_cos_side_by_side`]) up to the last revolute joint (none for the fixed
        // joints after it, as the Panda's hand and fingers: a third of its calls, and 2 % of
        // MotionBenchMaker's search), then the dependent chain of products.
        scratch.resize(steps.len(), (0.0, 0.0));
        let motions = &mut scratch[..];
        let turning = self.turning.min(steps.len());
        for (m, step) in motions[turning..].iter_mut().zip(&steps[turning..]) {
            *m = match &step.motion {
                Motion::Prismatic(_, d) => (d.multiplier * q[d.variable] + d.offset, 0.0),
                _ => (0.0, 1.0),
            };
        }
        for (ms, steps) in motions[..turning]
            .chunks_mut(SIDE_BY_SIDE)
            .zip(steps[..turning].chunks(SIDE_BY_SIDE))
        {
            let mut angles = [0.0; SIDE_BY_SIDE];
            for (angle, step) in angles.iter_mut().zip(steps) {
                if let Motion::Revolute(_, d) = &step.motion {
                    *angle = d.multiplier * q[d.variable] + d.offset;
                }
            }
            let turns = sin_cos_side_by_side(angles);
            for ((m, step), turn) in ms.iter_mut().zip(steps).zip(turns) {
                *m = match &step.motion {
                    Motion::Fixed => (0.0, 1.0),
                    Motion::Revolute(..) => turn,
                    Motion::Prismatic(_, d) => (d.multiplier * q[d.variable] + d.offset, 0.0),
                };
            }
        }
        frames[0] = self.base;
        for (step, motion) in steps.iter().zip(motions.iter()) {
            frames[step.child] = Self::step(step, &frames[step.parent], *motion);
        }
    }

    /// One link frame from its parent's, given the joint's `(sin, cos)` (revolute) or
    /// `(displacement, _)` (prismatic).
    #[inline(always)]
    fn step(step: &Step, parent: &Frame, motion: (Real, Real)) -> Frame {
        match step.order {
            MotionOrder::OriginThenMotion => Self::moved(step, &Self::placed(step, parent), motion),
            MotionOrder::MotionThenOrigin => Self::placed(step, &Self::moved(step, parent, motion)),
        }
    }

    /// `frame · origin`.
    #[inline(always)]
    fn placed(step: &Step, frame: &Frame) -> Frame {
        if step.pure_translation {
            Frame {
                rotation: frame.rotation,
                origin: frame.rotation * step.origin.origin + frame.origin,
            }
        } else if let Some((axis, turn)) = &step.origin_turn {
            Frame {
                rotation: frame.rotated(axis, *turn).rotation,
                origin: frame.rotation * step.origin.origin + frame.origin,
            }
        } else {
            frame.compose(&step.origin)
        }
    }

    /// `frame · motion`.
    #[inline(always)]
    fn moved(step: &Step, frame: &Frame, motion: (Real, Real)) -> Frame {
        match &step.motion {
            Motion::Fixed => *frame,
            Motion::Revolute(axis, _) => frame.rotated(axis, motion),
            Motion::Prismatic(axis, _) => frame.translated(axis, motion.0),
        }
    }
}

/// `Some((axis, (sin, cos)))` when `m` is exactly a rotation about a coordinate axis (ones and
/// zeros where such a rotation has them, the cosines equal and the sines opposite), so that
/// `R · m` is [`Frame::rotated`] by that turn: the same products and sums, without those with
/// a zero or a one.
fn axis_turn(m: &crate::math::Matrix3) -> Option<(JointAxis, (Real, Real))> {
    // For the turn about axis `k`, the other two axes `(i, j)` in cyclic order.
    [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
        .into_iter()
        .find_map(|(k, i, j)| {
            let unit_axis = m[(k, k)] == 1.0
                && m[(k, i)] == 0.0
                && m[(k, j)] == 0.0
                && m[(i, k)] == 0.0
                && m[(j, k)] == 0.0;
            let turn = m[(i, i)] == m[(j, j)] && m[(j, i)] == -m[(i, j)];
            (unit_axis && turn).then(|| {
                let axis = match k {
                    0 => JointAxis::X(1.0),
                    1 => JointAxis::Y(1.0),
                    _ => JointAxis::Z(1.0),
                };
                (axis, (m[(j, i)], m[(i, i)]))
            })
        })
}

impl KinematicTree {
    /// World frames of every link at `q` (validated: count and finiteness), index = link.
    pub fn forward(&self, q: &[Real]) -> Result<Vec<Isometry3>> {
        self.check_configuration(q)?;
        let mut frames = Vec::new();
        ForwardKinematics::new(self).forward_into(q, &mut frames);
        Ok(frames.iter().map(Frame::to_isometry).collect())
    }

    /// `∂p/∂q` (3 × dof, one column per configuration variable) of the world point `p`
    /// fixed on `link`, given the link frames at the current configuration.
    pub fn point_jacobian(&self, frames: &[Frame], link: usize, p: &Point3) -> Vec<Vector3> {
        let mut columns = vec![Vector3::zeros(); self.dof()];
        let mut at = link;
        while let Some(j) = self.parent_joint[at] {
            let joint = &self.joints[j];
            at = joint.parent;
            let (Some(kind), Some(drive)) = (joint.kind, self.drives[j]) else {
                continue;
            };
            // The frame the motion acts in: the child's (URDF) or the parent's (standard DH).
            let acting = match joint.order {
                MotionOrder::OriginThenMotion => &frames[joint.child],
                MotionOrder::MotionThenOrigin => &frames[joint.parent],
            };
            let axis = acting.rotation * joint.axis;
            columns[drive.variable] += drive.multiplier
                * match kind {
                    JointKind::Revolute => axis.cross(&(p.coords - acting.origin)),
                    JointKind::Prismatic => axis,
                };
        }
        columns
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Translation3, UnitQuaternion};

    #[test]
    // The Panda URDF's own angles (not quite π/2 and π/4) among them.
    #[allow(clippy::approx_constant)]
    fn an_origin_turning_about_one_axis_places_as_the_full_product() {
        let parent = Frame::from_isometry(&Isometry3::new(
            Vector3::new(0.3, -0.2, 0.5),
            Vector3::new(0.4, -1.1, 0.7),
        ));
        let mut turns = 0;
        for angle in [
            1.57079632679,
            -1.57079632679,
            0.785398163397,
            -2.9,
            1e-9,
            3.0,
        ] {
            for (roll, pitch, yaw) in [(angle, 0.0, 0.0), (0.0, angle, 0.0), (0.0, 0.0, angle)] {
                let origin = Frame::from_isometry(&Isometry3::from_parts(
                    Translation3::new(0.1, -0.3, 0.2),
                    UnitQuaternion::from_euler_angles(roll, pitch, yaw),
                ));
                let (axis, turn) = axis_turn(&origin.rotation).expect("a one-axis turn");
                turns += 1;
                let full = parent.compose(&origin);
                let mixed = parent.rotated(&axis, turn);
                // The same products and sums less those with a zero or a one: bit for bit.
                let worst = (full.rotation - mixed.rotation).abs().max();
                assert!(worst == 0.0, "rpy ({roll}, {pitch}, {yaw}): {worst}");
            }
        }
        assert_eq!(turns, 18);
        // Two angles, or none, are not one turn (identity aside, which any axis describes).
        let two = UnitQuaternion::from_euler_angles(0.3, 0.2, 0.0);
        assert!(axis_turn(&two.to_rotation_matrix().into_inner()).is_none());
    }

    #[test]
    fn joints_after_the_last_revolute_one_move_as_composed_isometries() {
        use super::super::tree::{Joint, JointKind};
        // A revolute joint, then a fixed one, a prismatic one and a fixed one after the last
        // revolute joint (whose steps get no sine): each frame against the isometries
        // composed by hand, `parent · origin · motion`.
        let origin = |x: Real, y: Real, z: Real, yaw: Real| {
            Isometry3::from_parts(
                Translation3::new(x, y, z),
                UnitQuaternion::from_euler_angles(0.2, -0.1, yaw),
            )
        };
        let origins = [
            origin(0.1, 0.0, 0.3, 0.0),
            origin(0.0, 0.2, 0.0, 0.7),
            origin(0.3, -0.1, 0.1, -1.2),
            origin(0.0, 0.0, 0.1, 0.4),
        ];
        let joints = vec![
            Joint::moving("r", JointKind::Revolute, 0, 1, origins[0], Vector3::z()),
            Joint::fixed("f1", 1, 2, origins[1]),
            Joint::moving("p", JointKind::Prismatic, 2, 3, origins[2], Vector3::x()),
            Joint::fixed("f2", 3, 4, origins[3]),
        ];
        let links = ["base", "a", "b", "c", "d"].map(String::from).to_vec();
        let tree = KinematicTree::new("hand-built", links, joints).expect("a tree");
        let fk = ForwardKinematics::new(&tree);
        assert_eq!(fk.turning, 1);
        let mut frames = Vec::new();
        for q in [[0.0, 0.0], [0.8, -0.3], [-2.5, 0.45]] {
            fk.forward_into(&q, &mut frames);
            let turn = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), q[0]);
            let slide = Translation3::new(q[1], 0.0, 0.0);
            let mut expected = vec![Isometry3::identity()];
            expected.push(
                expected[0] * origins[0] * Isometry3::from_parts(Translation3::identity(), turn),
            );
            expected.push(expected[1] * origins[1]);
            expected.push(
                expected[2] * origins[2] * Isometry3::from_parts(slide, UnitQuaternion::identity()),
            );
            expected.push(expected[3] * origins[3]);
            for (link, (frame, iso)) in frames.iter().zip(&expected).enumerate() {
                let e = Frame::from_isometry(iso);
                let worst = (frame.rotation - e.rotation).abs().max();
                let off = (frame.origin - e.origin).norm();
                assert!(
                    worst < 1e-14 && off < 1e-14,
                    "q {q:?}, link {link}: {worst} {off}"
                );
            }
        }
    }
}
