//! Dual numbers `a + ε b` (`ε² = 0`) and dual vectors, as used for line geometry (seed 003,
//! eqs. 3–6; Fischer, *Dual-Number Methods in Kinematics, Statics and Dynamics*, 1999).
//!
//! A function extends to dual numbers by `f(a + ε b) = f(a) + ε b f′(a)`; e.g. the dual angle
//! between two lines `θ̂ = θ + ε d` has `cos θ̂ = cos θ − ε d sin θ`.

use std::ops::{Add, Mul, Neg, Sub};

use crate::math::{Real, Vector3};

/// A dual number `re + ε du`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Dual {
    /// Real part.
    pub re: Real,
    /// Dual part.
    pub du: Real,
}

impl Dual {
    /// `re + ε du`.
    pub const fn new(re: Real, du: Real) -> Self {
        Self { re, du }
    }
    /// `sin(a + ε b) = sin a + ε b cos a`.
    pub fn sin(self) -> Self {
        let (s, c) = self.re.sin_cos();
        Self::new(s, self.du * c)
    }
    /// `cos(a + ε b) = cos a − ε b sin a`.
    pub fn cos(self) -> Self {
        let (s, c) = self.re.sin_cos();
        Self::new(c, -self.du * s)
    }
}

impl Add for Dual {
    type Output = Dual;
    fn add(self, o: Dual) -> Dual {
        Dual::new(self.re + o.re, self.du + o.du)
    }
}
impl Sub for Dual {
    type Output = Dual;
    fn sub(self, o: Dual) -> Dual {
        Dual::new(self.re - o.re, self.du - o.du)
    }
}
impl Mul for Dual {
    type Output = Dual;
    /// `(a + ε b)(c + ε d) = ac + ε (ad + bc)`.
    fn mul(self, o: Dual) -> Dual {
        Dual::new(self.re * o.re, self.re * o.du + self.du * o.re)
    }
}
impl Neg for Dual {
    type Output = Dual;
    fn neg(self) -> Dual {
        Dual::new(-self.re, -self.du)
    }
}

/// A dual vector `re + ε du`; a unit line is `direction + ε moment` (seed 003 eq. 3).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DualVector {
    /// Real part.
    pub re: Vector3,
    /// Dual part.
    pub du: Vector3,
}

impl DualVector {
    /// `re + ε du`.
    pub const fn new(re: Vector3, du: Vector3) -> Self {
        Self { re, du }
    }
    /// Seed 003 eq. 5: `(a + ε a⁰)·(b + ε b⁰) = a·b + ε (a·b⁰ + b·a⁰)`.
    pub fn dot(&self, o: &DualVector) -> Dual {
        Dual::new(self.re.dot(&o.re), self.re.dot(&o.du) + o.re.dot(&self.du))
    }
    /// Seed 003 eq. 6: `(a + ε a⁰)×(b + ε b⁰) = a×b + ε (a×b⁰ + a⁰×b)`.
    pub fn cross(&self, o: &DualVector) -> DualVector {
        DualVector::new(
            self.re.cross(&o.re),
            self.re.cross(&o.du) + self.du.cross(&o.re),
        )
    }
    /// Product with a dual scalar: `(s + ε t)(v + ε w) = s v + ε (s w + t v)`.
    pub fn scale(&self, k: Dual) -> DualVector {
        DualVector::new(self.re * k.re, self.du * k.re + self.re * k.du)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dual_arithmetic_and_functions() {
        let (x, y) = (Dual::new(0.7, 2.0), Dual::new(-1.5, 0.25));
        assert_eq!(x * y, Dual::new(0.7 * -1.5, 0.7 * 0.25 + 2.0 * -1.5));
        assert_eq!(x + y - y, x);
        // sin² + cos² = 1 holds for dual numbers (dual part 0).
        let one = x.sin() * x.sin() + x.cos() * x.cos();
        assert!((one.re - 1.0).abs() < 1e-15 && one.du.abs() < 1e-15);
        // f(a + ε b) = f(a) + ε b f'(a), checked by finite differences.
        let h = 1e-7;
        assert!(((x.re + h).sin() - (x.re - h).sin()) / (2.0 * h) * x.du - x.sin().du < 1e-7);
    }
}
