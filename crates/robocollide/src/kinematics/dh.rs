//! One Denavit–Hartenberg joint: its parameters, kind and limits, and its transform.

use crate::math::{Isometry3, Real, Vector3};
use nalgebra::{Translation3, UnitQuaternion};

/// The DH convention of a chain (see the module docs of [`kinematics`](super)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DhConvention {
    /// Standard (distal) DH: `Rz(θ) Tz(d) Tx(a) Rx(α)`.
    Standard,
    /// Modified (proximal, Craig) DH: `Rx(α) Tx(a) Rz(θ) Tz(d)`.
    Modified,
}

/// Revolute (θ varies) or prismatic (d varies).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JointKind {
    /// The joint variable is added to θ (radians).
    Revolute,
    /// The joint variable is added to d (metres).
    Prismatic,
}

/// One row of a DH table. The joint variable `q` is added to `theta` (revolute) or `d`
/// (prismatic); `theta`/`d` therefore hold the constant offsets.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DhJoint {
    /// Link length `a` (m).
    pub a: Real,
    /// Link twist `α` (rad).
    pub alpha: Real,
    /// Link offset `d` (m); for a prismatic joint, the offset added to `q`.
    pub d: Real,
    /// Joint angle `θ` (rad); for a revolute joint, the offset added to `q`.
    pub theta: Real,
    /// Revolute or prismatic.
    pub kind: JointKind,
    /// Inclusive joint limits `(min, max)` in radians or metres, if any.
    pub limits: Option<(Real, Real)>,
}

impl DhJoint {
    /// A revolute joint without limits.
    pub fn revolute(a: Real, alpha: Real, d: Real, theta_offset: Real) -> Self {
        Self {
            a,
            alpha,
            d,
            theta: theta_offset,
            kind: JointKind::Revolute,
            limits: None,
        }
    }

    /// A prismatic joint without limits.
    pub fn prismatic(a: Real, alpha: Real, d_offset: Real, theta: Real) -> Self {
        Self {
            a,
            alpha,
            d: d_offset,
            theta,
            kind: JointKind::Prismatic,
            limits: None,
        }
    }

    /// The same joint with limits.
    pub fn with_limits(mut self, min: Real, max: Real) -> Self {
        self.limits = Some((min, max));
        self
    }

    /// `(θ, d)` at joint value `q`.
    #[inline]
    pub fn theta_d(&self, q: Real) -> (Real, Real) {
        match self.kind {
            JointKind::Revolute => (self.theta + q, self.d),
            JointKind::Prismatic => (self.theta, self.d + q),
        }
    }

    /// The transform as a rotation matrix and translation, given `(sin α, cos α)` (which a
    /// caller evaluating many configurations computes once): one `sin_cos` per call.
    #[inline]
    pub fn matrix_transform(
        &self,
        convention: DhConvention,
        (sa, ca): (Real, Real),
        q: Real,
    ) -> (crate::math::Matrix3, Vector3) {
        let (theta, d) = self.theta_d(q);
        self.matrix_transform_at(convention, (sa, ca), theta.sin_cos(), d)
    }

    /// [`matrix_transform`](Self::matrix_transform) given `(sin θ, cos θ)` and `d` of the
    /// joint value (from [`theta_d`](Self::theta_d)): callers posing many joints can evaluate
    /// all the sines and cosines first, back to back.
    #[inline]
    pub fn matrix_transform_at(
        &self,
        convention: DhConvention,
        (sa, ca): (Real, Real),
        (st, ct): (Real, Real),
        d: Real,
    ) -> (crate::math::Matrix3, Vector3) {
        match convention {
            DhConvention::Standard => (
                crate::math::Matrix3::new(
                    ct,
                    -st * ca,
                    st * sa,
                    st,
                    ct * ca,
                    -ct * sa,
                    0.0,
                    sa,
                    ca,
                ),
                Vector3::new(self.a * ct, self.a * st, d),
            ),
            DhConvention::Modified => (
                crate::math::Matrix3::new(
                    ct,
                    -st,
                    0.0,
                    st * ca,
                    ct * ca,
                    -sa,
                    st * sa,
                    ct * sa,
                    ca,
                ),
                Vector3::new(self.a, -sa * d, ca * d),
            ),
        }
    }

    /// The transform from the previous frame to this joint's frame at joint value `q`.
    pub fn transform(&self, convention: DhConvention, q: Real) -> Isometry3 {
        let (theta, d) = self.theta_d(q);
        let rz = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), theta);
        let rx = UnitQuaternion::from_axis_angle(&Vector3::x_axis(), self.alpha);
        match convention {
            // Rz(θ) Tz(d) Tx(a) Rx(α): translation Rz(θ)(a, 0, 0) + (0, 0, d).
            DhConvention::Standard => {
                let (s, c) = theta.sin_cos();
                Isometry3::from_parts(Translation3::new(self.a * c, self.a * s, d), rz * rx)
            }
            // Rx(α) Tx(a) Rz(θ) Tz(d): translation (a, 0, 0) + Rx(α)(0, 0, d).
            DhConvention::Modified => {
                let (s, c) = self.alpha.sin_cos();
                Isometry3::from_parts(Translation3::new(self.a, -s * d, c * d), rx * rz)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Matrix3;
    use std::f64::consts::FRAC_PI_2;

    /// The seed's 4×4 matrix, entry by entry (seed 000 §5.1).
    fn seed_matrix(a: Real, alpha: Real, d: Real, theta: Real) -> nalgebra::Matrix4<Real> {
        let (st, ct) = theta.sin_cos();
        let (sa, ca) = alpha.sin_cos();
        nalgebra::Matrix4::new(
            ct,
            -st * ca,
            st * sa,
            a * ct, //
            st,
            ct * ca,
            -ct * sa,
            a * st, //
            0.0,
            sa,
            ca,
            d, //
            0.0,
            0.0,
            0.0,
            1.0,
        )
    }

    #[test]
    fn standard_matches_the_seed_matrix() {
        for (a, alpha, d, theta) in [
            (0.3, 0.7, 0.2, -1.1),
            (0.0, FRAC_PI_2, 0.089, 0.4),
            (-0.425, 0.0, 0.0, 2.0),
        ] {
            let j = DhJoint::revolute(a, alpha, d, 0.0);
            let m = j.transform(DhConvention::Standard, theta).to_homogeneous();
            assert!(
                (m - seed_matrix(a, alpha, d, theta)).abs().max() < 1e-15,
                "{m}"
            );
        }
    }

    #[test]
    fn modified_matches_craig() {
        // Craig (3.6): rows [cθ, −sθ, 0, a; sθ cα, cθ cα, −sα, −sα d; sθ sα, cθ sα, cα, cα d].
        let (a, alpha, d, theta) = (0.4318, -FRAC_PI_2, 0.149, 0.3);
        let m = DhJoint::revolute(a, alpha, d, 0.0)
            .transform(DhConvention::Modified, theta)
            .to_homogeneous();
        let (st, ct) = theta.sin_cos();
        let (sa, ca) = alpha.sin_cos();
        let r = Matrix3::new(ct, -st, 0.0, st * ca, ct * ca, -sa, st * sa, ct * sa, ca);
        assert!((m.fixed_view::<3, 3>(0, 0) - r).abs().max() < 1e-15);
        assert!(
            (m[(0, 3)] - a).abs() < 1e-15
                && (m[(1, 3)] + sa * d).abs() < 1e-15
                && (m[(2, 3)] - ca * d).abs() < 1e-15
        );
    }

    #[test]
    fn matrix_transform_equals_isometry() {
        for convention in [DhConvention::Standard, DhConvention::Modified] {
            let j = DhJoint::prismatic(0.3, 0.7, 0.2, -0.4);
            let (r, t) = j.matrix_transform(convention, j.alpha.sin_cos(), 0.6);
            let iso = j.transform(convention, 0.6);
            assert!((iso.rotation.to_rotation_matrix().matrix() - r).abs().max() < 1e-15);
            assert!((iso.translation.vector - t).norm() < 1e-15);
        }
    }

    #[test]
    fn prismatic_adds_to_d() {
        let j = DhJoint::prismatic(0.1, 0.0, 0.5, 0.0);
        let t = j.transform(DhConvention::Standard, 0.25).translation.vector;
        assert!((t - Vector3::new(0.1, 0.0, 0.75)).norm() < 1e-15);
    }
}
