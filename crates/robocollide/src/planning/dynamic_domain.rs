//! [`DynamicDomain`]: dynamic-domain sampling for RRTs (Yershova, Jaillet, Siméon & LaValle,
//! *Dynamic-Domain RRTs: efficient exploration by controlling the sampling domain*, ICRA
//! 2005), with the radii rule of VAMP's RRT-Connect. Off by default: on MotionBenchMaker it
//! slowed the search (`benches/README.md`, session 24).

use crate::error::{Error, Result};
use crate::math::Real;

/// Dynamic-domain RRT's radii (Yershova, Jaillet, Siméon & LaValle, ICRA 2005), as VAMP's
/// RRT-Connect uses them: a node's radius is infinite until an extension from it fails, then
/// `radius`; each later failure shrinks it by the factor `1 − alpha` (never below
/// `min_radius`), each success grows it by `1 + alpha`. Samples beyond the nearest node's
/// radius are dropped (they count as iterations, as in VAMP). Nodes near obstacles, whose
/// extensions towards far samples mostly fail, then grow only towards nearby ones.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DynamicDomain {
    /// A node's radius after its first failed extension (rad).
    pub radius: Real,
    /// The smallest radius (rad).
    pub min_radius: Real,
    /// Relative change of a finite radius per extension, in `[0, 1)`.
    pub alpha: Real,
}

impl DynamicDomain {
    /// VAMP's defaults (its `RRTCSettings`: radius 4, min_radius 1, alpha 1e-4).
    pub const VAMP: Self = Self {
        radius: 4.0,
        min_radius: 1.0,
        alpha: 1e-4,
    };

    pub(super) fn validate(&self) -> Result<()> {
        let Self {
            radius,
            min_radius,
            alpha,
        } = *self;
        if !(min_radius > 0.0 && min_radius <= radius && radius.is_finite()) {
            return Err(Error::Planning(format!(
                "dynamic domain radii must satisfy 0 < min_radius <= radius < inf, got min_radius {min_radius} and radius {radius}"
            )));
        }
        if !(0.0..1.0).contains(&alpha) {
            return Err(Error::Planning(format!(
                "dynamic domain alpha must lie in [0, 1), got {alpha}"
            )));
        }
        Ok(())
    }

    /// The radius of a node an extension failed from, given its radius before.
    pub(super) fn after_failure(&self, radius: Real) -> Real {
        if radius.is_infinite() {
            self.radius
        } else {
            (radius * (1.0 - self.alpha)).max(self.min_radius)
        }
    }
}
