//! The spatial 4C mechanism (seed 003 §3, eqs. 15–23): four cylindrical joints, two CC dyads
//! joined by the coupler. Inputs `θ` (rotation) and `d₁` (translation) of the fixed axis; the
//! closed-form solution gives `φ, c₁` (driving), `δ, c₂` (coupler) and `ψ, d₂` (driven).
//!
//! Link parameters (seed 003 Tables 1, 5): twists `α` (driving), `β` (driven), `γ` (fixed),
//! `η` (coupler) and lengths `a, b, g, h` of the same links. Frames (eq. 23):
//! `¹₄T = Z(θ, d₁) X(α, a) Z(φ, c₁)` and `¹₅T = X(γ, g) Z(ψ, d₂) X(β, b) Z(δ, c₂)`, where
//! `Z(θ, z)` rotates by `θ` about and translates by `z` along the local z-axis, `X` likewise
//! for x. The loop closes when `¹₄T · X(η, h) = ¹₅T`.
//!
//! Deviations from the printed paper (see `../shared/SEED-NOTES.md`): every `arctan(B/A)` is
//! `atan2(B, A)` (with `arctan` the quadrant is lost and the loop does not close); with that,
//! eqs. 15–20 close the loop to rounding for both `φ` branches.

use nalgebra::{Translation3, UnitQuaternion};

use crate::error::{Error, Result};
use crate::math::{Isometry3, Real, Vector3};

/// Which of the two assemblies (circuits) of eq. 15: `φ = atan2(B, A) ± acos(C / √(A² + B²))`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Branch {
    /// The `+` sign.
    Plus,
    /// The `−` sign.
    Minus,
}

/// The classification of eq. 21.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum RangeCase {
    /// Neither limit exists: the input link rotates fully.
    FullRotation,
    /// Only `θ₁ = acos C₁` exists: the input rocks across π between ±θ₁.
    RocksAcrossPi,
    /// Only `θ₂ = acos C₂` exists: the input rocks across 0 between ±θ₂.
    RocksAcrossZero,
    /// Both exist: two ranges, `[θ₁, θ₂]` and `[−θ₂, −θ₁]` (ordered), through neither 0 nor π.
    TwoRanges,
}

/// The allowable input range (eq. 21).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct InputRange {
    /// `C₁ = (cos(η − β) − cos α cos γ) / (sin α sin γ)`.
    pub c1: Real,
    /// `C₂ = (cos(η + β) − cos α cos γ) / (sin α sin γ)`.
    pub c2: Real,
    /// Which case.
    pub case: RangeCase,
    /// `θ₁ = acos C₁` if `|C₁| < 1`.
    pub theta1: Option<Real>,
    /// `θ₂ = acos C₂` if `|C₂| < 1`.
    pub theta2: Option<Real>,
}

impl InputRange {
    /// The range in words, with the limits in degrees (e.g. `rocks across 0 within ±78.863°`).
    pub fn describe(&self) -> String {
        let deg = |t: Option<Real>| t.unwrap_or(0.0).to_degrees();
        match self.case {
            RangeCase::FullRotation => "full rotation".into(),
            RangeCase::RocksAcrossPi => {
                format!("rocks across 180° beyond ±{:.3}°", deg(self.theta1))
            }
            RangeCase::RocksAcrossZero => {
                format!("rocks across 0 within ±{:.3}°", deg(self.theta2))
            }
            RangeCase::TwoRanges => format!(
                "two ranges, ±[{:.3}°, {:.3}°]",
                deg(self.theta1).min(deg(self.theta2)),
                deg(self.theta1).max(deg(self.theta2))
            ),
        }
    }

    /// `true` if `θ` lies within the allowable range.
    pub fn contains(&self, theta: Real) -> bool {
        let t = theta.sin().atan2(theta.cos()).abs(); // |θ| wrapped to [0, π]
        match (self.theta1, self.theta2) {
            (None, None) => true,
            (Some(t1), None) => t >= t1,
            (None, Some(t2)) => t <= t2,
            (Some(t1), Some(t2)) => t >= t1.min(t2) && t <= t1.max(t2),
        }
    }
}

/// Joint values of one assembled configuration.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct FourCConfiguration {
    /// Input rotation `θ` (rad).
    pub theta: Real,
    /// Input translation `d₁`.
    pub d1: Real,
    /// Driving-coupler angle `φ` (eq. 15).
    pub phi: Real,
    /// Output angle `ψ` (eq. 16).
    pub psi: Real,
    /// Output coupler angle `δ` (eq. 17).
    pub delta: Real,
    /// Driving translation `c₁` (eq. 18).
    pub c1: Real,
    /// Coupler translation `c₂` (eq. 19).
    pub c2: Real,
    /// Driven translation `d₂` (eq. 20).
    pub d2: Real,
}

/// A spatial 4C mechanism.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct FourC {
    /// Twist of the driving link `α` (rad).
    pub alpha: Real,
    /// Twist of the driven link `β` (rad).
    pub beta: Real,
    /// Twist of the fixed link `γ` (rad).
    pub gamma: Real,
    /// Twist of the coupler `η` (rad).
    pub eta: Real,
    /// Length of the driving link `a`.
    pub a: Real,
    /// Length of the driven link `b`.
    pub b: Real,
    /// Length of the fixed link `g`.
    pub g: Real,
    /// Length of the coupler `h`.
    pub h: Real,
}

/// `Z(θ, z)`: rotation `θ` about z, translation `z` along z.
pub fn z_motion(theta: Real, z: Real) -> Isometry3 {
    Isometry3::from_parts(
        Translation3::new(0.0, 0.0, z),
        UnitQuaternion::from_axis_angle(&Vector3::z_axis(), theta),
    )
}

/// `X(θ, x)`: rotation `θ` about x, translation `x` along x.
pub fn x_motion(theta: Real, x: Real) -> Isometry3 {
    Isometry3::from_parts(
        Translation3::new(x, 0.0, 0.0),
        UnitQuaternion::from_axis_angle(&Vector3::x_axis(), theta),
    )
}

impl FourC {
    /// A mechanism; errors for non-finite values or twists whose sine vanishes (eqs. 16–21
    /// divide by `sin α`, `sin β`, `sin γ`, `sin η`). Arguments in the order of Table 5's
    /// dual angles: twists α, β, γ, η, then lengths a, b, g, h.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        alpha: Real,
        beta: Real,
        gamma: Real,
        eta: Real,
        a: Real,
        b: Real,
        g: Real,
        h: Real,
    ) -> Result<Self> {
        for (name, v) in [
            ("alpha", alpha),
            ("beta", beta),
            ("gamma", gamma),
            ("eta", eta),
            ("a", a),
            ("b", b),
            ("g", g),
            ("h", h),
        ] {
            if !v.is_finite() {
                return Err(Error::NonFinite {
                    field: name.into(),
                    value: v,
                });
            }
        }
        for (name, v) in [("a", a), ("b", b), ("g", g), ("h", h)] {
            let v = crate::geom::check_length(name, v)?;
            if v <= 0.0 {
                return Err(Error::Parse(format!(
                    "link length {name} = {v} must be > 0: a zero common normal (intersecting axes) is not a 4C mechanism this analysis covers"
                )));
            }
        }
        for (name, v) in [
            ("alpha", alpha),
            ("beta", beta),
            ("gamma", gamma),
            ("eta", eta),
        ] {
            if v.sin().abs() < 1e-9 {
                return Err(Error::Parse(format!(
                    "twist {name} = {v} rad has zero sine: parallel axes are not a 4C mechanism this analysis covers"
                )));
            }
        }
        Ok(Self {
            alpha,
            beta,
            gamma,
            eta,
            a,
            b,
            g,
            h,
        })
    }

    /// Eq. 21: `C₁`, `C₂` and the allowable range of `θ`.
    pub fn input_range(&self) -> InputRange {
        let (sa, ca) = self.alpha.sin_cos();
        let (sg, cg) = self.gamma.sin_cos();
        let c1 = ((self.eta - self.beta).cos() - ca * cg) / (sa * sg);
        let c2 = ((self.eta + self.beta).cos() - ca * cg) / (sa * sg);
        let exists = |c: Real| (c > -1.0 && c < 1.0).then(|| c.acos());
        let (theta1, theta2) = (exists(c1), exists(c2));
        let case = match (theta1, theta2) {
            (None, None) => RangeCase::FullRotation,
            (Some(_), None) => RangeCase::RocksAcrossPi,
            (None, Some(_)) => RangeCase::RocksAcrossZero,
            (Some(_), Some(_)) => RangeCase::TwoRanges,
        };
        InputRange {
            c1,
            c2,
            case,
            theta1,
            theta2,
        }
    }

    /// Eqs. 15–20 at input `(θ, d₁)` on `branch`; errors when the mechanism cannot be assembled
    /// (`|C| > √(A² + B²)` in eq. 15, i.e. `θ` outside the range) or a division in eqs. 18–20
    /// is singular.
    pub fn solve(&self, theta: Real, d1: Real, branch: Branch) -> Result<FourCConfiguration> {
        let (sa, ca) = self.alpha.sin_cos();
        let (sb, cb) = self.beta.sin_cos();
        let (sg, cg) = self.gamma.sin_cos();
        let (se, ce) = self.eta.sin_cos();
        let (st, ct) = theta.sin_cos();
        let (a, b, g, h) = (self.a, self.b, self.g, self.h);
        // Eq. 15.
        let big_a = se * sg * ca * ct - sa * se * cg;
        let big_b = -se * sg * st;
        let big_c = cb - ce * sa * sg * ct - ca * ce * cg;
        let norm = big_a.hypot(big_b);
        let ratio = big_c / norm;
        if ratio.is_nan() || ratio.abs() > 1.0 {
            return Err(Error::Parse(format!(
                "the mechanism cannot be assembled at θ = {:.6}° (outside its input range)",
                theta.to_degrees()
            )));
        }
        let sign = if branch == Branch::Plus { 1.0 } else { -1.0 };
        let phi = big_b.atan2(big_a) + sign * ratio.acos();
        let (sp, cp) = phi.sin_cos();
        // Eq. 16.
        let a16 = (ce * (ca * sg - cg * ct * sa) - se * cp * (ca * cg * ct + sa * sg)
            + se * cg * sp * st)
            / -sb;
        let b16 = (ce * sa * st + se * ct * sp + se * ca * cp * st) / sb;
        let psi = b16.atan2(a16);
        let (ss, cs) = psi.sin_cos();
        // Eq. 17.
        let a17 = (ca * (cg * sb + cb * sg * cs)
            - sa * ct * (cb * cg * cs - sb * sg)
            - sa * cb * st * ss)
            / se;
        let b17 = (ca * sg * ss + sa * st * cs - sa * cg * ct * ss) / -se;
        let delta = b17.atan2(a17);
        let (sd, cd) = delta.sin_cos();
        // Eqs. 18–20.
        let divide = |num: Real, den: Real, what: &str| -> Result<Real> {
            if den.abs() < 1e-12 {
                return Err(Error::Parse(format!(
                    "{what} is singular at θ = {:.6}° (division by {den:e})",
                    theta.to_degrees()
                )));
            }
            Ok(num / den)
        };
        let c1 = divide(
            d1 * sg * ss + a * ct * cs + a * cg * st * ss + h * cd - b - g * cs,
            se * sd,
            "c1 (eq. 18)",
        )?;
        let c2 = divide(
            h * cp * ct + c1 * sa * st + a * ct - h * ca * sp * st - g - b * cs,
            sb * ss,
            "c2 (eq. 19)",
        )?;
        let d2 = divide(
            h * cp * st - c1 * ct * sa + a * st + h * ca * ct * sp - b * cg * ss
                + c2 * cb * sg
                + c2 * cg * cs * sb,
            -sg,
            "d2 (eq. 20)",
        )?;
        Ok(FourCConfiguration {
            theta,
            d1,
            phi,
            psi,
            delta,
            c1,
            c2,
            d2,
        })
    }

    /// Eq. 23: the frames `¹₄T` (driving chain) and `¹₅T` (driven chain).
    pub fn frames(&self, c: &FourCConfiguration) -> (Isometry3, Isometry3) {
        let t14 = z_motion(c.theta, c.d1) * x_motion(self.alpha, self.a) * z_motion(c.phi, c.c1);
        let t15 = x_motion(self.gamma, self.g)
            * z_motion(c.psi, c.d2)
            * x_motion(self.beta, self.b)
            * z_motion(c.delta, c.c2);
        (t14, t15)
    }

    /// Loop-closure error `‖¹₄T · X(η, h) − ¹₅T‖` (largest entry of the 4×4 difference).
    pub fn closure_error(&self, c: &FourCConfiguration) -> Real {
        let (t14, t15) = self.frames(c);
        ((t14 * x_motion(self.eta, self.h)).to_homogeneous() - t15.to_homogeneous())
            .abs()
            .max()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seed 003's case study, Table 5 with the lengths read in link order (SEED-NOTES 003).
    fn case_study() -> FourC {
        let d = |x: Real| x.to_radians();
        FourC::new(d(65.0), d(35.0), d(45.0), d(30.0), 100.0, 70.0, 90.0, 80.0).unwrap()
    }

    #[test]
    fn eq_21_reproduces_the_case_study_range() {
        let r = case_study().input_range();
        assert_eq!(format!("{:.4}", r.c1), "1.0882");
        assert_eq!(format!("{:.5}", r.c2), "0.19315");
        assert_eq!(r.case, RangeCase::RocksAcrossZero);
        assert_eq!(format!("{:.3}", r.theta2.unwrap().to_degrees()), "78.863");
        assert!(
            r.contains(0.0)
                && r.contains(-1.3)
                && !r.contains(1.4)
                && !r.contains(std::f64::consts::PI)
        );
    }

    #[test]
    fn the_loop_closes_on_both_branches() {
        let m = case_study();
        let range = m.input_range().theta2.unwrap();
        for k in 0..=40 {
            let theta = -range * 0.999 + 2.0 * range * 0.999 * k as Real / 40.0;
            for branch in [Branch::Plus, Branch::Minus] {
                let c = m.solve(theta, 60.0 + k as Real, branch).unwrap();
                let e = m.closure_error(&c);
                assert!(e < 1e-9, "θ = {theta}, {branch:?}: closure error {e}");
            }
        }
    }

    #[test]
    fn outside_the_range_there_is_no_assembly() {
        let e = case_study()
            .solve(85f64.to_radians(), 100.0, Branch::Plus)
            .unwrap_err();
        assert!(
            e.to_string().contains("cannot be assembled at θ = 85"),
            "{e}"
        );
        assert!(
            FourC::new(0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0)
                .unwrap_err()
                .to_string()
                .contains("twist alpha")
        );
    }
}
