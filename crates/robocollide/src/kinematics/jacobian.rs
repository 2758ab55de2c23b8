//! Position Jacobian of a point fixed on a link.
//!
//! For a point `p` rigidly attached to frame `k`, column `i ≤ k` of `∂p/∂q` is
//! `zᵢ × (p − oᵢ)` for a revolute joint and `zᵢ` for a prismatic one, where `zᵢ`, `oᵢ` are the
//! joint's axis and a point on it: frame `i − 1`'s z-axis and origin in standard DH, frame `i`'s
//! in modified DH. Columns `i > k` are zero.

use super::chain::{Frames, SerialChain};
use super::dh::{DhConvention, JointKind};
use crate::math::{Point3, Vector3};

/// `∂p/∂q` (3 × n, columns per joint) for the world point `p` attached to frame `frame`,
/// given the chain's frames at the current configuration.
pub fn point_jacobian(
    chain: &SerialChain,
    frames: &Frames,
    frame: usize,
    p: &Point3,
) -> Vec<Vector3> {
    let mut columns = vec![Vector3::zeros(); chain.dof()];
    for (i, joint) in chain.joints.iter().enumerate().take(frame) {
        let axis_frame = match chain.convention {
            DhConvention::Standard => &frames.frames[i],
            DhConvention::Modified => &frames.frames[i + 1],
        };
        let z = axis_frame.rotation * Vector3::z();
        let o = axis_frame.translation.vector;
        columns[i] = match joint.kind {
            JointKind::Revolute => z.cross(&(p.coords - o)),
            JointKind::Prismatic => z,
        };
    }
    columns
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinematics::DhJoint;

    fn chains() -> Vec<SerialChain> {
        let joints = vec![
            DhJoint::revolute(0.1, 1.2, 0.3, 0.2),
            DhJoint::revolute(0.4, -0.5, 0.0, -0.3),
            DhJoint::prismatic(0.05, 0.8, 0.1, 0.4),
            DhJoint::revolute(0.0, 1.4, 0.2, 0.0),
        ];
        let mut a = SerialChain::new(DhConvention::Standard, joints.clone());
        a.base =
            crate::math::Isometry3::new(Vector3::new(0.3, -0.2, 0.1), Vector3::new(0.1, 0.2, 0.3));
        let b = SerialChain::new(DhConvention::Modified, joints);
        vec![a, b]
    }

    #[test]
    fn jacobian_matches_finite_differences() {
        let q = [0.3, -0.7, 0.25, 1.1];
        let local = Point3::new(0.05, -0.1, 0.2);
        for chain in chains() {
            let frames = chain.forward(&q).unwrap();
            for k in 0..=chain.dof() {
                let p = frames.frames[k] * local;
                let jac = point_jacobian(&chain, &frames, k, &p);
                for i in 0..chain.dof() {
                    let h = 1e-6;
                    let mut qp = q;
                    let mut qm = q;
                    qp[i] += h;
                    qm[i] -= h;
                    let pp = chain.forward(&qp).unwrap().frames[k] * local;
                    let pm = chain.forward(&qm).unwrap().frames[k] * local;
                    let fd = (pp - pm) / (2.0 * h);
                    assert!(
                        (fd - jac[i]).norm() < 1e-8,
                        "{:?} frame {k} joint {i}: {fd} vs {}",
                        chain.convention,
                        jac[i]
                    );
                }
            }
        }
    }
}
