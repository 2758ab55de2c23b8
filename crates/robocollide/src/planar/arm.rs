//! [`PlanarArm`]: a serial arm of revolute joints in the plane, its links as segments.
//!
//! Joint `i` sits at the end of link `i − 1` (joint 1 at `base`); angles accumulate, so link
//! `i` points along `q₁ + … + qᵢ` (radians, counter-clockwise from +x).

use super::segments_circles::Segment2;
use crate::error::{Error, Result};
use crate::math::Real;

/// A planar serial arm.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanarArm {
    lengths: Vec<Real>,
    base: [Real; 2],
}

impl PlanarArm {
    /// An arm with the given link lengths (finite, ≥ 0) at `base`.
    pub fn new(lengths: Vec<Real>, base: [Real; 2]) -> Result<Self> {
        for (i, l) in lengths.iter().enumerate() {
            crate::geom::check_radius(&format!("lengths[{i}]"), *l)?;
        }
        for (axis, v) in ["x", "y"].iter().zip(base) {
            if !v.is_finite() {
                return Err(Error::NonFinite {
                    field: format!("base.{axis}"),
                    value: v,
                });
            }
        }
        Ok(Self { lengths, base })
    }

    /// Number of joints (= links).
    pub fn dof(&self) -> usize {
        self.lengths.len()
    }

    /// Link lengths.
    pub fn lengths(&self) -> &[Real] {
        &self.lengths
    }

    /// The links at configuration `q`, base to tip.
    pub fn links(&self, q: &[Real]) -> Vec<Segment2> {
        let mut angle = 0.0;
        let mut at = self.base;
        self.lengths
            .iter()
            .zip(q)
            .map(|(l, qi)| {
                angle += qi;
                let (s, c) = angle.sin_cos();
                let next = [at[0] + l * c, at[1] + l * s];
                let link = Segment2 { a: at, b: next };
                at = next;
                link
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forward_kinematics_by_hand() {
        let arm = PlanarArm::new(vec![1.0, 0.5], [0.0, 0.0]).unwrap();
        let links = arm.links(&[std::f64::consts::FRAC_PI_2, -std::f64::consts::FRAC_PI_2]);
        assert!((links[0].b[0]).abs() < 1e-15 && (links[0].b[1] - 1.0).abs() < 1e-15);
        assert!((links[1].b[0] - 0.5).abs() < 1e-15 && (links[1].b[1] - 1.0).abs() < 1e-15);
        assert!(
            PlanarArm::new(vec![1.0, -0.5], [0.0, 0.0])
                .unwrap_err()
                .to_string()
                .contains("lengths[1]")
        );
    }
}
