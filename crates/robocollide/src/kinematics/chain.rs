//! [`SerialChain`]: a DH table with a base placement and a tool frame; forward kinematics.

use super::dh::{DhConvention, DhJoint, JointKind};
use crate::error::{Error, Result};
use crate::math::{Isometry3, Real};

/// World poses of every frame of a chain at one configuration: `frames[0]` is the base,
/// `frames[i]` link `i` (1 ≤ i ≤ n), and `tool` the tool frame (`frames[n] · tool`).
#[derive(Debug, Clone, PartialEq)]
pub struct Frames {
    /// Base and link frames in the world.
    pub frames: Vec<Isometry3>,
    /// Tool frame in the world.
    pub tool: Isometry3,
}

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

    /// Checks a configuration: the right number of values, all finite. Limits are checked by
    /// [`check_limits`](Self::check_limits) (callers decide whether a violation is an error).
    pub fn check_configuration(&self, q: &[Real]) -> Result<()> {
        if q.len() != self.dof() {
            return Err(Error::JointCount {
                expected: self.dof(),
                got: q.len(),
            });
        }
        for (i, (v, joint)) in q.iter().zip(&self.joints).enumerate() {
            let field = format!("q[{}] (joint {})", i, i + 1);
            if joint.kind == JointKind::Prismatic {
                crate::geom::check_length(&field, *v)?;
            } else {
                crate::geom::check_scalar(&field, *v)?;
            }
        }
        Ok(())
    }

    /// Checks that every length of the chain (DH `a`, `d`, prismatic limits, base and tool
    /// offsets) is within [`LENGTH_LIMIT`](crate::geom::LENGTH_LIMIT); errors name the joint.
    pub fn check_lengths(&self) -> Result<()> {
        use crate::geom::check_length;
        for (i, j) in self.joints.iter().enumerate() {
            let field = |name: &str| format!("joints[{i}].{name}");
            check_length(&field("a"), j.a)?;
            check_length(&field("d"), j.d)?;
            if let (JointKind::Prismatic, Some((lo, hi))) = (j.kind, j.limits) {
                check_length(&field("limits[0]"), lo)?;
                check_length(&field("limits[1]"), hi)?;
            }
        }
        for (name, pose) in [("base", &self.base), ("tool", &self.tool)] {
            for (axis, v) in ["x", "y", "z"].iter().zip(pose.translation.vector.iter()) {
                check_length(&format!("{name}.{axis}"), *v)?;
            }
        }
        Ok(())
    }

    /// The first joint outside its limits, as an error naming joint, value and limits.
    pub fn check_limits(&self, q: &[Real]) -> Result<()> {
        for (i, (joint, v)) in self.joints.iter().zip(q).enumerate() {
            if let Some((lo, hi)) = joint.limits {
                if *v < lo || *v > hi {
                    return Err(Error::JointLimit {
                        joint: i + 1,
                        value: *v,
                        min: lo,
                        max: hi,
                    });
                }
            }
        }
        Ok(())
    }

    /// World poses of all frames at `q` (validated: count and finiteness).
    pub fn forward(&self, q: &[Real]) -> Result<Frames> {
        self.check_configuration(q)?;
        Ok(self.forward_unchecked(q))
    }

    /// [`forward`](Self::forward) without validation (callers guarantee a valid `q`).
    pub fn forward_unchecked(&self, q: &[Real]) -> Frames {
        let mut frames = Vec::with_capacity(self.dof() + 1);
        let mut pose = self.base;
        frames.push(pose);
        for (joint, &qi) in self.joints.iter().zip(q) {
            pose *= joint.transform(self.convention, qi);
            frames.push(pose);
        }
        Frames {
            tool: pose * self.tool,
            frames,
        }
    }

    /// Writes the frames into `out` (len n + 1) without allocating.
    pub fn forward_into(&self, q: &[Real], out: &mut [Isometry3]) {
        let mut pose = self.base;
        out[0] = pose;
        for (i, (joint, &qi)) in self.joints.iter().zip(q).enumerate() {
            pose *= joint.transform(self.convention, qi);
            out[i + 1] = pose;
        }
    }

    /// `true` if joint `i` (1-based) is revolute.
    pub fn is_revolute(&self, i: usize) -> bool {
        self.joints[i - 1].kind == JointKind::Revolute
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Point3, Vector3};
    use std::f64::consts::FRAC_PI_2;

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
        let f = chain.forward(&[q1, q2]).unwrap();
        let tip = f.frames[2] * Point3::origin();
        let expected = Point3::new(
            0.5 * q1.cos() + 0.3 * (q1 + q2).cos(),
            0.5 * q1.sin() + 0.3 * (q1 + q2).sin(),
            0.0,
        );
        assert!((tip - expected).norm() < 1e-15);
    }

    /// The same planar arm in modified DH: a's shift one row down, tip needs a tool offset.
    #[test]
    fn modified_planar_arm_agrees_with_standard() {
        let modified = SerialChain {
            tool: Isometry3::translation(0.3, 0.0, 0.0),
            ..SerialChain::new(
                DhConvention::Modified,
                vec![
                    DhJoint::revolute(0.0, 0.0, 0.0, 0.0),
                    DhJoint::revolute(0.5, 0.0, 0.0, 0.0),
                ],
            )
        };
        let standard = SerialChain::new(
            DhConvention::Standard,
            vec![
                DhJoint::revolute(0.5, 0.0, 0.0, 0.0),
                DhJoint::revolute(0.3, 0.0, 0.0, 0.0),
            ],
        );
        for q in [[0.0, 0.0], [0.4, -1.2], [2.0, 3.0]] {
            let a = modified.forward(&q).unwrap().tool * Point3::origin();
            let b = standard.forward(&q).unwrap().frames[2] * Point3::origin();
            assert!((a - b).norm() < 1e-15, "{a} vs {b}");
        }
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
        let f = chain.forward(&[0.0, 0.0, 2.0]).unwrap();
        let z2 = f.frames[2].rotation * Vector3::z();
        let tip = f.frames[3] * Point3::origin();
        assert!((tip - (Point3::new(0.0, 0.0, 1.0) + z2 * 2.0)).norm() < 1e-15);
        assert!((z2 - Vector3::new(0.0, 0.0, -1.0)).norm() < 1e-15, "{z2}");
        assert!((tip - Point3::new(0.0, 0.0, -1.0)).norm() < 1e-15);
    }

    #[test]
    fn bad_configurations_are_named() {
        let chain = SerialChain::new(
            DhConvention::Standard,
            vec![DhJoint::revolute(1.0, 0.0, 0.0, 0.0).with_limits(-1.0, 1.0)],
        );
        assert_eq!(
            chain.forward(&[0.0, 1.0]).unwrap_err().to_string(),
            "wrong joint count: expected 1 value(s), got 2"
        );
        assert_eq!(
            chain.forward(&[Real::NAN]).unwrap_err().to_string(),
            "q[0] (joint 1) must be finite, got NaN"
        );
        assert_eq!(
            chain.check_limits(&[1.5]).unwrap_err().to_string(),
            "joint 1 = 1.5 is outside its limits [-1, 1]"
        );
    }
}
