//! Scalar and vector types shared by the whole crate, and small numeric helpers.
//!
//! Conventions: `Real = f64` everywhere in the public API; lengths are metres and angles
//! radians. Points and vectors are nalgebra types, re-exported here so that downstream code
//! names one alias set.

/// The scalar type of every public API.
pub type Real = f64;
/// A point in 3-D space (metres).
pub type Point3 = nalgebra::Point3<Real>;
/// A free vector in 3-D space.
pub type Vector3 = nalgebra::Vector3<Real>;
/// A rigid motion (rotation then translation).
pub type Isometry3 = nalgebra::Isometry3<Real>;
/// A 3×3 matrix.
pub type Matrix3 = nalgebra::Matrix3<Real>;

/// Machine epsilon of [`Real`].
pub const EPSILON: Real = Real::EPSILON;

/// The largest absolute component of `v` by plain comparisons: for finite input the value of
/// nalgebra's `amax`, without its NaN handling (a few instructions less on the hottest paths;
/// validated shapes hold no NaN).
#[inline]
pub fn max_abs(v: &Vector3) -> Real {
    larger(larger(v.x.abs(), v.y.abs()), v.z.abs())
}

/// The larger of `a` and `b` by one comparison (`b` when either is NaN): `f64::max` without
/// its NaN handling. Asked for without a branch (a comparison of loaded values was compiled
/// to one: on MotionBenchMaker 9 % of the planner's mispredicted branches were here).
#[inline]
pub fn larger(a: Real, b: Real) -> Real {
    std::hint::select_unpredictable(a > b, a, b)
}

/// Squared Euclidean distance between two configurations (the sum taken in joint order).
#[inline]
pub(crate) fn squared_distance(a: &[Real], b: &[Real]) -> Real {
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum()
}

/// `x` clamped to `[-h, h]` (`h >= 0`) by two comparisons: `f64::clamp` without its check
/// that the bounds are ordered.
#[inline]
pub fn clamp_symmetric(x: Real, h: Real) -> Real {
    let low = -h;
    let above = if x < low { low } else { x };
    if above > h { h } else { above }
}

/// A deterministic unit vector orthogonal to `v`.
///
/// Used where geometry leaves a normal undetermined (coincident witness points on a segment).
/// For a zero vector the answer is `+x`. The component of `v` with the smallest magnitude is
/// crossed out, which keeps the result well conditioned.
pub fn orthogonal_unit(v: &Vector3) -> Vector3 {
    let abs = v.abs();
    let helper = if abs.x <= abs.y && abs.x <= abs.z {
        Vector3::x()
    } else if abs.y <= abs.z {
        Vector3::y()
    } else {
        Vector3::z()
    };
    try_normalize(&v.cross(&helper)).unwrap_or_else(Vector3::x)
}

/// `v / |v|`, or `None` when `v` is zero or not finite.
///
/// Scaled first by its largest component, so that vectors whose squares would underflow
/// (components below ~1e-154, found by fuzzing: a normal of length 1.0000005) or overflow
/// still give a unit vector to rounding.
pub fn try_normalize(v: &Vector3) -> Option<Vector3> {
    let largest = v.amax();
    if largest > 0.0 && largest.is_finite() {
        let w = v / largest;
        let u = w / w.norm();
        if u.iter().all(|c| c.is_finite()) {
            return Some(u);
        }
    }
    None
}

/// The component of `d` perpendicular to the unit vector `u`, by two Gram–Schmidt passes.
///
/// One pass (`d − u (u·d)`) leaves a residue along `u` of relative size `ε / sin φ` when `d` is
/// nearly parallel to `u` (angle `φ`); normalising that result then points noticeably out of
/// the plane ⟂ `u`. The second pass ("twice is enough", Giraud et al. 2005) removes it.
#[inline]
pub fn perpendicular_part(d: &Vector3, u: &Vector3) -> Vector3 {
    let once = d - u * u.dot(d);
    once - u * u.dot(&once)
}

/// `a b − c d` with one rounding error, by Kahan's algorithm with a fused multiply-add
/// (Jeannerod, Louvet & Muller, *Further analysis of Kahan's algorithm for the accurate
/// computation of 2×2 determinants*, Math. Comp. 82, 2013: error ≤ 2 ulp).
#[inline]
pub fn difference_of_products(a: Real, b: Real, c: Real, d: Real) -> Real {
    let cd = c * d;
    let error = (-c).mul_add(d, cd);
    a.mul_add(b, -cd) + error
}

/// `u × v` with every component accurate to a few ulp of itself (no cancellation loss when
/// `u` and `v` are nearly parallel), using [`difference_of_products`].
#[inline]
pub fn accurate_cross(u: &Vector3, v: &Vector3) -> Vector3 {
    Vector3::new(
        difference_of_products(u.y, v.z, u.z, v.y),
        difference_of_products(u.z, v.x, u.x, v.z),
        difference_of_products(u.x, v.y, u.y, v.x),
    )
}

/// Clamp to `[0, 1]`; maps NaN to 0 so that no NaN escapes a projection.
#[inline]
pub fn clamp_unit(x: Real) -> Real {
    if x > 0.0 {
        if x < 1.0 { x } else { 1.0 }
    } else {
        0.0
    }
}

/// Whether the segment from `w0` to `w1` keeps farther than `clearance` from the origin
/// (`false` for NaN): the nearest point's parameter clamped to the segment. (`f64::clamp`,
/// not [`clamp_unit`]: an overflowing projection's NaN parameter must leave the answer
/// `false`, where `clamp_unit` would test the start point alone.)
#[inline]
pub(crate) fn segment_clears_origin(w0: Vector3, w1: Vector3, clearance: Real) -> bool {
    let along = w1 - w0;
    let length2 = along.norm_squared();
    let t = if length2 > 0.0 {
        (-w0.dot(&along) / length2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (w0 + along * t).norm() > clearance
}

/// A point with coordinates drawn from `next` (numbers in `[0, 1)`), each in
/// `[−width/2, width/2)`: for tests.
#[cfg(test)]
pub(crate) fn random_point(next: &mut dyn FnMut() -> Real, width: Real) -> Point3 {
    Point3::new(next() - 0.5, next() - 0.5, next() - 0.5) * width
}

/// A seeded generator of numbers in `[0, 1)` for tests (a 64-bit linear congruential
/// generator: reproducible, no dependency).
#[cfg(test)]
pub(crate) fn unit_random(seed: u64) -> impl FnMut() -> Real {
    let mut state = seed;
    move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 11) as Real / (1u64 << 53) as Real
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orthogonal_unit_is_unit_and_orthogonal() {
        for v in [
            Vector3::new(1.0, 0.0, 0.0),
            Vector3::new(0.0, 0.0, 3.0),
            Vector3::new(1e-300, 2.0, -5.0),
            Vector3::new(1.0, 1.0, 1.0),
        ] {
            let n = orthogonal_unit(&v);
            assert!((n.norm() - 1.0).abs() < 1e-15);
            assert!(n.dot(&v).abs() <= 1e-15 * v.norm());
        }
        assert_eq!(orthogonal_unit(&Vector3::zeros()), Vector3::x());
    }

    #[test]
    fn perpendicular_part_of_nearly_parallel_vector_is_orthogonal() {
        let u = Vector3::new(0.36, -0.48, 0.8);
        let d = u * 3.0 + Vector3::new(1e-9, 2e-9, 0.5e-9);
        let p = perpendicular_part(&d, &u);
        let single = d - u * u.dot(&d);
        assert!(u.dot(&p.normalize()).abs() < 1e-15);
        // A single pass is measurably worse here: this is why the second pass exists.
        assert!(u.dot(&single.normalize()).abs() > u.dot(&p.normalize()).abs());
    }

    #[test]
    fn accurate_cross_keeps_digits_for_nearly_parallel_vectors() {
        use num_rational::BigRational;
        use num_traits::ToPrimitive;
        let q = |x: f64| BigRational::from_float(x).unwrap();
        let u = Vector3::new(0.6, 0.8, 0.3);
        let v = Vector3::new(0.6 + 1e-13, 0.8 - 3e-14, 0.3 + 1e-14);
        let c = accurate_cross(&u, &v);
        let plain = u.cross(&v);
        let exact = |i: usize, j: usize| (q(u[i]) * q(v[j]) - q(u[j]) * q(v[i])).to_f64().unwrap();
        let exact = Vector3::new(exact(1, 2), exact(2, 0), exact(0, 1));
        for k in 0..3 {
            assert!(
                (c[k] - exact[k]).abs() <= 4.0 * f64::EPSILON * exact[k].abs(),
                "{c} vs {exact}"
            );
        }
        // The plain cross product is far off here: this is why the accurate one exists.
        assert!((plain - exact).norm() > 1e3 * (c - exact).norm());
    }

    /// As documented: `b` whenever either is NaN (so a NaN second argument comes back, unlike
    /// `f64::max`), and `b` for equal values.
    #[test]
    fn larger_is_one_comparison_and_gives_b_for_nan() {
        assert_eq!(larger(2.0, 1.0), 2.0);
        assert_eq!(larger(1.0, 2.0), 2.0);
        assert_eq!(larger(Real::NAN, 1.0), 1.0);
        assert!(larger(1.0, Real::NAN).is_nan());
        assert_eq!(larger(-0.0, 0.0).to_bits(), 0.0f64.to_bits());
        assert_eq!(larger(0.0, -0.0).to_bits(), (-0.0f64).to_bits());
    }

    #[test]
    fn clamp_unit_maps_nan_to_zero() {
        assert_eq!(clamp_unit(Real::NAN), 0.0);
        assert_eq!(clamp_unit(-1.0), 0.0);
        assert_eq!(clamp_unit(2.0), 1.0);
        assert_eq!(clamp_unit(0.25), 0.25);
    }
}
