//! Oriented box `{c + R l : |l_i| ≤ h_i}`: centre `c`, rotation `R` (its columns are the box's
//! axes in the world), half-extents `h ≥ 0`.
//!
//! Named `OrientedBox` in Rust (so that it does not shadow `std::boxed::Box`); the text, JSON,
//! cell and Python syntaxes call it `box`. Flat boxes (a half-extent of 0: a rectangle, a
//! segment or a point) are legal. Orientation is given as a rotation matrix, a unit quaternion
//! or URDF's fixed-axis roll–pitch–yaw (`R = Rz(yaw) Ry(pitch) Rx(roll)`).

use super::validate::{check_point, check_radius, check_scalar};
use crate::error::{Error, Result};
use crate::math::{Matrix3, Point3, Real, Vector3};

/// Relative margin of [`OrientedBox::face_axis_separates_capsule`].
const FACE_AXIS_MARGIN: Real = 1e-12;

/// A closed box with an arbitrary orientation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OrientedBox {
    center: Point3,
    /// Orthonormal, determinant +1: local → world.
    rotation: Matrix3,
    half_extents: Vector3,
    /// [`magnitude`](Self::magnitude), kept (every box query needs it).
    magnitude: Real,
}

/// Largest deviation of `RᵀR` from the identity accepted as a rotation matrix.
const ORTHONORMAL_TOLERANCE: Real = 1e-9;

impl OrientedBox {
    /// A box from its centre, rotation matrix (columns = box axes in the world) and
    /// half-extents; errors name the bad field. The matrix must be a rotation to within 1e-9
    /// (it is then re-orthonormalised).
    pub fn new(center: Point3, rotation: Matrix3, half_extents: Vector3) -> Result<Self> {
        let center = check_point("box.center", center)?;
        // Field names are formatted only for an error (construction is on batch paths).
        if let Some((i, v)) = rotation.iter().enumerate().find(|(_, v)| !v.is_finite()) {
            check_scalar(&format!("box.rotation[{}][{}]", i % 3, i / 3), *v)?;
        }
        let deviation = (rotation.transpose() * rotation - Matrix3::identity()).amax();
        if deviation > ORTHONORMAL_TOLERANCE || rotation.determinant() <= 0.0 {
            return Err(Error::Parse(format!(
                "box.rotation is not a rotation matrix (|RᵀR − I| = {deviation:e}, det = {})",
                rotation.determinant()
            )));
        }
        let half_extents = check_half_extents(half_extents)?;
        Ok(Self::from_finite(
            center,
            orthonormalized(&rotation),
            half_extents,
        ))
    }

    /// An axis-aligned box.
    pub fn axis_aligned(center: Point3, half_extents: Vector3) -> Result<Self> {
        Self::new(center, Matrix3::identity(), half_extents)
    }

    /// A box rotated by URDF's fixed-axis roll–pitch–yaw (radians).
    pub fn from_rpy(center: Point3, rpy: [Real; 3], half_extents: Vector3) -> Result<Self> {
        for (v, name) in rpy
            .iter()
            .zip(["box.rpy.roll", "box.rpy.pitch", "box.rpy.yaw"])
        {
            check_scalar(name, *v)?;
        }
        let rotation = nalgebra::Rotation3::from_euler_angles(rpy[0], rpy[1], rpy[2]);
        Self::new(center, *rotation.matrix(), half_extents)
    }

    /// Builds without validation; callers guarantee a finite centre, a rotation matrix and
    /// finite half-extents `>= 0`.
    pub(crate) fn from_finite(center: Point3, rotation: Matrix3, half_extents: Vector3) -> Self {
        let h = half_extents;
        Self {
            center,
            rotation,
            half_extents,
            magnitude: crate::math::max_abs(&center.coords) + (h.x + h.y + h.z),
        }
    }

    /// Centre.
    #[inline]
    pub fn center(&self) -> Point3 {
        self.center
    }

    /// Rotation (columns are the box's axes in the world frame).
    #[inline]
    pub fn rotation(&self) -> &Matrix3 {
        &self.rotation
    }

    /// Half-extents along the box's own axes (`>= 0`).
    #[inline]
    pub fn half_extents(&self) -> Vector3 {
        self.half_extents
    }

    /// Box axis `i` (0, 1, 2) in the world frame.
    #[inline]
    pub fn axis(&self, i: usize) -> Vector3 {
        self.rotation.column(i).into_owned()
    }

    /// `p` in the box's frame (centre at the origin, axes along x, y, z).
    #[inline]
    pub fn to_local(&self, p: &Point3) -> Vector3 {
        // Written out in scalars (nalgebra's product shuffles SSE lanes; these run on every
        // box query).
        let d = p - self.center;
        let r = &self.rotation;
        Vector3::new(
            r.m11 * d.x + r.m21 * d.y + r.m31 * d.z,
            r.m12 * d.x + r.m22 * d.y + r.m32 * d.z,
            r.m13 * d.x + r.m23 * d.y + r.m33 * d.z,
        )
    }

    /// Whether one of the box's face normals separates it from the capsule about the segment
    /// `a b` with `radius`: the segment's extent along the normal, grown by the radius, misses
    /// the box's by more than a relative `1e-12` of the magnitudes involved (far beyond the
    /// projections' rounding). The gap along a unit direction bounds the distance from below,
    /// so `true` means the capsule's distance to the box is positive (contact rounding
    /// included); `false` decides nothing (a capsule past an edge or a corner may miss the box
    /// with no face normal between them). NaN gives `false`.
    #[inline]
    pub fn face_axis_separates_capsule(&self, a: &Point3, b: &Point3, radius: Real) -> bool {
        let (la, lb) = (self.to_local(a), self.to_local(b));
        let scale = crate::math::max_abs(&a.coords).max(crate::math::max_abs(&b.coords))
            + radius
            + self.magnitude;
        let reach = radius + FACE_AXIS_MARGIN * scale;
        let h = self.half_extents;
        // Both ends beyond one face (each comparison false for NaN).
        (0..3).any(|k| {
            (la[k] - reach > h[k] && lb[k] - reach > h[k])
                || (la[k] + reach < -h[k] && lb[k] + reach < -h[k])
        })
    }

    /// A point given in the box's frame, in the world.
    #[inline]
    pub fn to_world(&self, local: &Vector3) -> Point3 {
        self.center + self.direction_to_world(local)
    }

    /// A direction given in the box's frame, in the world.
    #[inline]
    pub fn direction_to_world(&self, local: &Vector3) -> Vector3 {
        let (r, l) = (&self.rotation, local);
        Vector3::new(
            r.m11 * l.x + r.m12 * l.y + r.m13 * l.z,
            r.m21 * l.x + r.m22 * l.y + r.m23 * l.z,
            r.m31 * l.x + r.m32 * l.y + r.m33 * l.z,
        )
    }

    /// The box moved by a rigid motion.
    pub fn transformed(&self, iso: &crate::math::Isometry3) -> Self {
        Self::from_finite(
            iso * self.center,
            iso.rotation.to_rotation_matrix().matrix() * self.rotation,
            self.half_extents,
        )
    }

    /// Largest absolute coordinate of the centre plus the sum of the half-extents (a bound on
    /// the half-diagonal that needs no square root): the scale of rounding errors.
    #[inline]
    pub fn magnitude(&self) -> Real {
        self.magnitude
    }

    /// Support point: a vertex maximising `p · d` (on a tie, the `+` side).
    #[inline]
    pub fn support(&self, d: &Vector3) -> Point3 {
        let local = self.rotation.tr_mul(d);
        let h = self.half_extents;
        let pick = |x: Real, hi: Real| if x >= 0.0 { hi } else { -hi };
        self.to_world(&Vector3::new(
            pick(local.x, h.x),
            pick(local.y, h.y),
            pick(local.z, h.z),
        ))
    }

    /// The eight vertices (local sign pattern `(±, ±, ±)`, bit `i` set for `+` on axis `i`).
    pub fn vertices(&self) -> [Point3; 8] {
        std::array::from_fn(|k| self.to_world(&self.corner(k)))
    }

    /// Local coordinates of vertex `k` (bit `i` of `k` set for `+h_i`).
    #[inline]
    pub(crate) fn corner(&self, k: usize) -> Vector3 {
        let h = self.half_extents;
        let sign = |bit: usize| if k >> bit & 1 == 1 { 1.0 } else { -1.0 };
        Vector3::new(sign(0) * h.x, sign(1) * h.y, sign(2) * h.z)
    }

    /// The twelve edges as vertex index pairs into [`vertices`](Self::vertices).
    pub const EDGES: [(usize, usize); 12] = [
        (0, 1),
        (2, 3),
        (4, 5),
        (6, 7),
        (0, 2),
        (1, 3),
        (4, 6),
        (5, 7),
        (0, 4),
        (1, 5),
        (2, 6),
        (3, 7),
    ];

    /// Closest point of the (solid) box to `p`, and whether `p` lies inside it (boundary
    /// included).
    pub fn closest_point(&self, p: &Point3) -> (Point3, bool) {
        let local = self.to_local(p);
        let h = self.half_extents;
        let clamped = Vector3::new(
            local.x.clamp(-h.x, h.x),
            local.y.clamp(-h.y, h.y),
            local.z.clamp(-h.z, h.z),
        );
        (self.to_world(&clamped), clamped == local)
    }
}

/// Half-extents: finite and `>= 0`, each named (`box.half_extents.y`).
fn check_half_extents(h: Vector3) -> Result<Vector3> {
    let mut out = h;
    let fields = [
        "box.half_extents.x",
        "box.half_extents.y",
        "box.half_extents.z",
    ];
    for (i, field) in fields.iter().enumerate() {
        out[i] = check_radius(field, h[i]).map_err(|e| match e {
            Error::NegativeRadius { field, value } => {
                Error::Parse(format!("{field} must be >= 0, got {value}"))
            }
            e => e,
        })?;
    }
    Ok(out)
}

/// The rotation nearest to an almost-orthonormal `m` (Gram–Schmidt on its columns, then
/// the third column as the cross product of the first two).
fn orthonormalized(m: &Matrix3) -> Matrix3 {
    let x = m.column(0).normalize();
    let y = crate::math::perpendicular_part(&m.column(1).into_owned(), &x).normalize();
    Matrix3::from_columns(&[x, y, x.cross(&y)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation_names_the_field() {
        let err = |h: [Real; 3]| {
            OrientedBox::axis_aligned(Point3::origin(), h.into())
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            err([1.0, -0.5, 1.0]),
            "box.half_extents.y must be >= 0, got -0.5"
        );
        assert_eq!(
            err([1.0, 1.0, Real::NAN]),
            "box.half_extents.z must be finite, got NaN"
        );
        let e = OrientedBox::from_rpy(
            Point3::origin(),
            [0.0, Real::INFINITY, 0.0],
            [1.0; 3].into(),
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "box.rpy.pitch must be finite, got inf");
        let shear = Matrix3::new(1.0, 0.5, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0);
        assert!(
            OrientedBox::new(Point3::origin(), shear, [1.0; 3].into())
                .unwrap_err()
                .to_string()
                .contains("not a rotation")
        );
        let mirror = Matrix3::from_diagonal(&Vector3::new(1.0, 1.0, -1.0));
        assert!(OrientedBox::new(Point3::origin(), mirror, [1.0; 3].into()).is_err());
        assert!(OrientedBox::axis_aligned(Point3::origin(), Vector3::zeros()).is_ok());
    }

    /// A face normal's verdict is never wrong: wherever it says the capsule misses the box,
    /// the exact capsule–box distance is positive, at every scale; it decides most capsules
    /// beside a face; a capsule touching a face, or whose end is NaN, is never cleared.
    #[test]
    fn a_separating_face_normal_means_the_capsule_misses() {
        use crate::geom::Capsule;
        use crate::math::random_point;
        use crate::query::capsule_box;
        let mut next = crate::math::unit_random(29);
        let (mut cleared, mut missed) = (0, 0);
        for scale in [1e-3, 1.0, 1e3] {
            for _ in 0..4000 {
                let centre = random_point(&mut next, scale);
                let solid = OrientedBox::from_rpy(
                    centre,
                    [next() * 6.0, next() * 6.0, next() * 6.0],
                    Vector3::new(next(), next(), next() * 0.1) * scale,
                )
                .unwrap();
                let (a, b) = (
                    random_point(&mut next, 3.0 * scale),
                    random_point(&mut next, 3.0 * scale),
                );
                let radius = next() * 0.2 * scale;
                let capsule = Capsule::new(a, b, radius).unwrap();
                let distance = capsule_box(&capsule, &solid).distance;
                if solid.face_axis_separates_capsule(&a, &b, radius) {
                    assert!(distance > 0.0, "cleared at {distance} (scale {scale})");
                    cleared += 1;
                } else if distance > 0.0 {
                    missed += 1;
                }
            }
        }
        // Most apart pairs here lie beside a face; the rest are past an edge or a corner.
        assert!(
            cleared > 4000 && missed > 100,
            "{cleared} cleared, {missed} left"
        );
        let flat =
            OrientedBox::axis_aligned(Point3::origin(), Vector3::new(1.0, 1.0, 0.1)).unwrap();
        let (a, b) = (Point3::new(-0.5, 0.0, 0.3), Point3::new(0.5, 0.0, 0.3));
        assert!(!flat.face_axis_separates_capsule(&a, &b, 0.2), "touching");
        assert!(flat.face_axis_separates_capsule(&a, &b, 0.2 - 1e-9));
        let nan = Point3::new(Real::NAN, 0.0, 0.3);
        assert!(!flat.face_axis_separates_capsule(&nan, &b, 0.0));
    }

    #[test]
    fn rpy_follows_urdf() {
        // Yaw of 90°: the box's x axis points along world y.
        let b = OrientedBox::from_rpy(
            Point3::origin(),
            [0.0, 0.0, std::f64::consts::FRAC_PI_2],
            Vector3::new(2.0, 1.0, 0.5),
        )
        .unwrap();
        assert!((b.axis(0) - Vector3::y()).norm() < 1e-15);
        assert!((b.support(&Vector3::y()) - Point3::new(-1.0, 2.0, 0.5)).norm() < 1e-15);
        let (p, inside) = b.closest_point(&Point3::new(0.0, 5.0, 0.0));
        assert!(!inside && (p - Point3::new(0.0, 2.0, 0.0)).norm() < 1e-15);
    }
}
