//! Conformal geometric algebra (CGA) points and spheres, as seed 004 models them — a small,
//! independent representation used to cross-check the Euclidean kernels.
//!
//! A conformal vector is `x + e₀ w₀ + e∞ w∞` with `x ∈ ℝ³` and the null basis vectors `e₀`
//! (origin) and `e∞` (infinity): `e₀² = e∞² = 0`, `e₀·e∞ = −1`, both orthogonal to `ℝ³`.
//! - point `P = p + ½‖p‖² e∞ + e₀`, so `P·Q = −½‖p − q‖²` (seed 004, Definition 1);
//! - sphere `S = P − ½ r² e∞` (centre `p`, radius `r`), so `X·S = ½ (r² − ‖x − p‖²)`: a point
//!   lies in the closed ball iff `X·S ≥ 0` (Definition 3), and
//!   `S₁·S₂ = ½ (r₁² + r₂² − ‖p₁ − p₂‖²)`.
//!
//! Seed 004 calls `2‖P·Q‖` the centre distance; it is the *squared* distance (SEED-NOTES 004),
//! and Theorems 8–10 compare it with `(r₁ + r₂)²`. Metres; no validation (test support).

use crate::math::{Point3, Real, Vector3};

/// A vector of the conformal model: Euclidean part, `e₀` and `e∞` coefficients.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Conformal {
    /// The `ℝ³` part.
    pub euclidean: Vector3,
    /// Coefficient of `e₀`.
    pub origin: Real,
    /// Coefficient of `e∞`.
    pub infinity: Real,
}

impl Conformal {
    /// The conformal point `p + ½‖p‖² e∞ + e₀`.
    pub fn point(p: &Point3) -> Self {
        Self {
            euclidean: p.coords,
            origin: 1.0,
            infinity: 0.5 * p.coords.norm_squared(),
        }
    }

    /// The dual sphere `P − ½ r² e∞` with centre `p` and radius `r`.
    pub fn sphere(p: &Point3, r: Real) -> Self {
        let mut s = Self::point(p);
        s.infinity -= 0.5 * r * r;
        s
    }

    /// The inner product `a·b = x_a·x_b − w₀(a) w∞(b) − w∞(a) w₀(b)`.
    pub fn inner(&self, other: &Self) -> Real {
        self.euclidean.dot(&other.euclidean)
            - self.origin * other.infinity
            - self.infinity * other.origin
    }

    /// Squared Euclidean distance of two conformal points, `−2 P·Q`.
    pub fn squared_distance(&self, other: &Self) -> Real {
        -2.0 * self.inner(other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_and_spheres_by_hand() {
        let p = Conformal::point(&Point3::new(1.0, 2.0, 2.0));
        let q = Conformal::point(&Point3::new(4.0, 6.0, 2.0));
        assert_eq!(p.inner(&p), 0.0); // points are null vectors
        assert_eq!(p.squared_distance(&q), 25.0);
        let s = Conformal::sphere(&Point3::new(4.0, 6.0, 2.0), 5.0);
        assert_eq!(p.inner(&s), 0.0); // on the sphere
        let inside = Conformal::point(&Point3::new(4.0, 6.0, 3.0));
        assert!(inside.inner(&s) > 0.0);
        let t = Conformal::sphere(&Point3::new(1.0, 2.0, 2.0), 1.0);
        assert_eq!(s.inner(&t), 0.5 * (25.0 + 1.0 - 25.0));
    }
}
