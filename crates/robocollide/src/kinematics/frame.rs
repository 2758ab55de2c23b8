//! [`Frame`]: a rigid placement stored as a rotation matrix and an origin, the form forward
//! kinematics composes fastest (applying a matrix to a point costs 9 multiplications, a
//! quaternion 15 or more) and posing needs most.

use crate::math::{Isometry3, Matrix3, Point3, Real, Vector3};
use nalgebra::{Rotation3, Translation3, UnitQuaternion};

/// A rigid placement `p ↦ R p + o` (metres).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frame {
    /// Orientation `R` (orthonormal, determinant 1).
    pub rotation: Matrix3,
    /// Origin `o`.
    pub origin: Vector3,
}

impl Default for Frame {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Frame {
    /// The identity placement.
    pub const IDENTITY: Frame = Frame {
        rotation: Matrix3::new(1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0),
        origin: Vector3::new(0.0, 0.0, 0.0),
    };

    /// The placement of an isometry.
    pub fn from_isometry(iso: &Isometry3) -> Self {
        Self {
            rotation: iso.rotation.to_rotation_matrix().into_inner(),
            origin: iso.translation.vector,
        }
    }

    /// The same placement as an isometry.
    pub fn to_isometry(&self) -> Isometry3 {
        let rotation = Rotation3::from_matrix_unchecked(self.rotation);
        Isometry3::from_parts(
            Translation3::from(self.origin),
            UnitQuaternion::from_rotation_matrix(&rotation),
        )
    }

    /// `self ∘ other`: first `other`, then `self`.
    #[inline(always)]
    pub fn compose(&self, other: &Frame) -> Frame {
        Frame {
            rotation: self.rotation * other.rotation,
            origin: self.rotation * other.origin + self.origin,
        }
    }

    /// The world position of the local point `p`.
    #[inline(always)]
    pub fn apply(&self, p: &Point3) -> Point3 {
        Point3::from(self.rotation * p.coords + self.origin)
    }

    /// `self ∘ Rot(axis, angle)` for a rotation about a local axis through the origin.
    #[inline(always)]
    pub fn rotated(&self, axis: &JointAxis, (s, c): (Real, Real)) -> Frame {
        let r = &self.rotation;
        let rotation = match axis {
            JointAxis::X(sign) => mix_columns(r, 1, 2, s * sign, c),
            JointAxis::Y(sign) => mix_columns(r, 2, 0, s * sign, c),
            JointAxis::Z(sign) => mix_columns(r, 0, 1, s * sign, c),
            JointAxis::General(u) => {
                // Rodrigues: R(u, θ) = c I + s [u]× + (1 − c) u uᵀ.
                let k = u.cross_matrix();
                r * (Matrix3::identity() * c + k * s + u * u.transpose() * (1.0 - c))
            }
        };
        Frame {
            rotation,
            origin: self.origin,
        }
    }

    /// `self ∘ Trans(axis · distance)`.
    #[inline]
    pub fn translated(&self, axis: &Vector3, distance: Real) -> Frame {
        Frame {
            rotation: self.rotation,
            origin: self.origin + self.rotation * (axis * distance),
        }
    }
}

/// `r` post-multiplied by a rotation about a coordinate axis (`(sin, cos)` of the angle),
/// which mixes two columns only: `cᵢ' = c cᵢ + s cⱼ`, `cⱼ' = c cⱼ − s cᵢ`.
#[inline(always)]
fn mix_columns(r: &Matrix3, i: usize, j: usize, s: Real, c: Real) -> Matrix3 {
    let mut out = *r;
    for row in 0..3 {
        let (x, y) = (r[(row, i)], r[(row, j)]);
        out[(row, i)] = c * x + s * y;
        out[(row, j)] = c * y - s * x;
    }
    out
}

/// A unit joint axis, sorted for speed: a coordinate axis (with its sign) or a general one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum JointAxis {
    /// `±x` (the sign as ±1).
    X(Real),
    /// `±y`.
    Y(Real),
    /// `±z`.
    Z(Real),
    /// Any other unit vector.
    General(Vector3),
}

impl JointAxis {
    /// The axis of the unit vector `u`; coordinate axes are recognised exactly.
    pub fn of(u: &Vector3) -> Self {
        let pick = |i: usize| (u[(i + 1) % 3] == 0.0 && u[(i + 2) % 3] == 0.0).then(|| u[i]);
        match (pick(0), pick(1), pick(2)) {
            (Some(s), _, _) => Self::X(s.signum()),
            (_, Some(s), _) => Self::Y(s.signum()),
            (_, _, Some(s)) => Self::Z(s.signum()),
            _ => Self::General(*u),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotated_matches_axis_angle_for_every_axis_kind() {
        let base = Frame::from_isometry(&Isometry3::new(
            Vector3::new(0.3, -0.2, 0.5),
            Vector3::new(0.4, -1.1, 0.7),
        ));
        let axes = [
            Vector3::x(),
            -Vector3::y(),
            Vector3::z(),
            -Vector3::z(),
            Vector3::new(1.0, 2.0, -2.0) / 3.0,
        ];
        for u in axes {
            let angle: Real = 0.83;
            let got = base.rotated(&JointAxis::of(&u), angle.sin_cos());
            let expected = base.to_isometry()
                * UnitQuaternion::from_axis_angle(&nalgebra::Unit::new_normalize(u), angle);
            let e = Frame::from_isometry(&expected);
            assert!((got.rotation - e.rotation).abs().max() < 1e-15, "{u}");
            assert!((got.origin - e.origin).norm() < 1e-15);
        }
    }

    #[test]
    fn compose_and_apply_agree_with_isometries() {
        let a = Isometry3::new(Vector3::new(1.0, 2.0, 3.0), Vector3::new(0.1, 0.2, 0.3));
        let b = Isometry3::new(Vector3::new(-0.5, 0.0, 0.2), Vector3::new(-0.7, 0.4, 0.0));
        let ab = Frame::from_isometry(&a).compose(&Frame::from_isometry(&b));
        let p = Point3::new(0.3, -0.4, 0.9);
        assert!((ab.apply(&p) - (a * b) * p).norm() < 1e-14);
        assert!(
            (ab.to_isometry().to_homogeneous() - (a * b).to_homogeneous())
                .abs()
                .max()
                < 1e-14
        );
    }
}
