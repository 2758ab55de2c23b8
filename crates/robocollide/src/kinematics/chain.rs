//! [`SerialChain`]: a Denavit–Hartenberg table with a base placement and a tool frame — one way
//! to build a [`KinematicTree`] whose link frames are exactly the DH frames.
//!
//! Standard DH: `ᶦ⁻¹Tᵢ = Rz(θ₀ + q) Tz(d) Tx(a) Rx(α) = Rz(q) · [Rz(θ₀) Tz(d) Tx(a) Rx(α)]`, a
//! joint that moves first ([`MotionOrder::MotionThenOrigin`]) about the parent's z. Modified DH:
//! `ᶦ⁻¹Tᵢ = Rx(α) Tx(a) Rz(θ₀ + q) Tz(d) = [Rx(α) Tx(a) Rz(θ₀) Tz(d)] · Rz(q)`, URDF's order. A
//! prismatic joint's `Tz(q)` factors out the same way, since `Tz` commutes with `Rz` and `Tz`.
//! In both, the bracket is the joint's constant origin, [`DhJoint::transform`] at `q = 0`.

use super::dh::{DhConvention, DhJoint};
use super::tree::{Joint, KinematicTree, MotionOrder};
use crate::error::Result;
use crate::math::{Isometry3, Vector3};

/// A serial chain of DH joints.
#[derive(Debug, Clone, PartialEq)]
pub struct SerialChain {
    /// The DH convention of `joints`.
    pub convention: DhConvention,
    /// Joints 1..n.
    pub joints: Vec<DhJoint>,
    /// Placement of frame 0 in the world.
    pub base: Isometry3,
    /// Tool frame relative to frame n.
    pub tool: Isometry3,
}

impl SerialChain {
    /// A chain with identity base and tool.
    pub fn new(convention: DhConvention, joints: Vec<DhJoint>) -> Self {
        Self {
            convention,
            joints,
            base: Isometry3::identity(),
            tool: Isometry3::identity(),
        }
    }

    /// Number of joints.
    pub fn dof(&self) -> usize {
        self.joints.len()
    }

    /// The tree of this chain: link `i` is DH frame `i` (0 = base), joint `i` (1-based) joins
    /// links `i − 1` and `i`; a tool frame other than the identity becomes one more link,
    /// `tool`, on a fixed joint `tool` after link `n`. `links` has `n + 1` names and
    /// `joint_names` `n`; `source` names the model in errors.
    pub fn to_tree(
        &self,
        source: &str,
        links: Vec<String>,
        joint_names: &[String],
    ) -> Result<KinematicTree> {
        let order = match self.convention {
            DhConvention::Standard => MotionOrder::MotionThenOrigin,
            DhConvention::Modified => MotionOrder::OriginThenMotion,
        };
        let mut links = links;
        let mut joints: Vec<Joint> = self
            .joints
            .iter()
            .zip(joint_names)
            .enumerate()
            .map(|(i, (dh, name))| Joint {
                limits: dh.limits,
                order,
                ..Joint::moving(
                    name,
                    dh.kind,
                    i,
                    i + 1,
                    dh.transform(self.convention, 0.0),
                    Vector3::z(),
                )
            })
            .collect();
        if self.tool != Isometry3::identity() {
            joints.push(Joint::fixed("tool", self.dof(), links.len(), self.tool));
            links.push("tool".to_owned());
        }
        let mut tree = KinematicTree::new(source, links, joints)?;
        tree.base = self.base;
        Ok(tree)
    }

    /// Default names: `base`, `link1`…; `joint1`….
    pub fn default_names(&self) -> (Vec<String>, Vec<String>) {
        (
            std::iter::once("base".to_owned())
                .chain((1..=self.dof()).map(|i| format!("link{i}")))
                .collect(),
            (1..=self.dof()).map(|i| format!("joint{i}")).collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Point3, Real};
    use std::f64::consts::FRAC_PI_2;

    fn tree(chain: &SerialChain) -> KinematicTree {
        let (links, joints) = chain.default_names();
        chain.to_tree("test", links, &joints).unwrap()
    }

    /// World frames by multiplying the DH matrices directly (the textbook definition).
    fn by_matrices(chain: &SerialChain, q: &[Real]) -> Vec<Isometry3> {
        let mut frames = vec![chain.base];
        for (joint, &qi) in chain.joints.iter().zip(q) {
            let last = *frames.last().unwrap();
            frames.push(last * joint.transform(chain.convention, qi));
        }
        frames
    }

    /// A planar 2R arm (standard DH): the textbook closed form.
    #[test]
    fn planar_two_link_closed_form() {
        let chain = SerialChain::new(
            DhConvention::Standard,
            vec![
                DhJoint::revolute(0.5, 0.0, 0.0, 0.0),
                DhJoint::revolute(0.3, 0.0, 0.0, 0.0),
            ],
        );
        let (q1, q2) = (0.4, -1.2);
        let f = tree(&chain).forward(&[q1, q2]).unwrap();
        let tip = f[2] * Point3::origin();
        let expected = Point3::new(
            0.5 * q1.cos() + 0.3 * (q1 + q2).cos(),
            0.5 * q1.sin() + 0.3 * (q1 + q2).sin(),
            0.0,
        );
        assert!((tip - expected).norm() < 1e-15);
    }

    /// A spatial RRP chain computed by hand: base rotation, shoulder, prismatic reach.
    #[test]
    fn spatial_chain_by_hand() {
        // Frame 1: up 1 along z0, twisted by Rx(90°), so z1 = −y0. Frame 2: another Rx(90°),
        // so z2 = Rx(180°) z0 = −z0. Joint 3 slides along z2: the tip is (0, 0, 1) + 2 z2.
        let chain = SerialChain::new(
            DhConvention::Standard,
            vec![
                DhJoint::revolute(0.0, FRAC_PI_2, 1.0, 0.0),
                DhJoint::revolute(0.0, FRAC_PI_2, 0.0, 0.0),
                DhJoint::prismatic(0.0, 0.0, 0.0, 0.0),
            ],
        );
        let f = tree(&chain).forward(&[0.0, 0.0, 2.0]).unwrap();
        let tip = f[3] * Point3::origin();
        assert!((tip - Point3::new(0.0, 0.0, -1.0)).norm() < 1e-15, "{tip}");
    }

    /// Both conventions, revolute and prismatic joints, offsets, a base: the tree's frames
    /// equal the products of the DH matrices.
    #[test]
    fn tree_frames_equal_dh_matrix_products() {
        let joints = vec![
            DhJoint::revolute(0.1, 1.2, 0.3, 0.2),
            DhJoint::revolute(0.4, -0.5, 0.0, -0.3),
            DhJoint::prismatic(0.05, 0.8, 0.1, 0.4),
            DhJoint::revolute(0.0, 1.4, 0.2, 0.0),
        ];
        for convention in [DhConvention::Standard, DhConvention::Modified] {
            let mut chain = SerialChain::new(convention, joints.clone());
            chain.base = Isometry3::new(Vector3::new(0.3, -0.2, 0.1), Vector3::new(0.1, 0.2, 0.3));
            let tree = tree(&chain);
            for q in [[0.0; 4], [0.3, -0.7, 0.25, 1.1], [3.0, 2.0, -1.0, -2.5]] {
                let got = tree.forward(&q).unwrap();
                for (g, e) in got.iter().zip(by_matrices(&chain, &q)) {
                    let d = (g.to_homogeneous() - e.to_homogeneous()).abs().max();
                    assert!(d < 1e-14, "{convention:?} {q:?}: {d}");
                }
            }
        }
    }
}
