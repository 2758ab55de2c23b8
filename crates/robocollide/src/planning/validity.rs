//! [`Validity`]: what a planner may ask about configurations.

use crate::collision::MotionOutcomes;
use crate::math::Real;

/// Collision queries for a planner, in the planner's own coordinates (joint values).
pub trait Validity {
    /// Number of coordinates.
    fn dof(&self) -> usize;
    /// Sampling bounds `(min, max)` per coordinate.
    fn bounds(&self) -> Vec<(Real, Real)>;
    /// `true` if the configuration is free (no contact).
    fn is_valid(&mut self, q: &[Real]) -> bool;
    /// `true` if the straight motion from `a` to `b` is free throughout.
    fn motion_valid(&mut self, a: &[Real], b: &[Real]) -> bool;
    /// Told by a planner before its first motion: its motions are at most `step` long (joint
    /// space), so a motion check may tune itself for them. Verdicts must not depend on it.
    /// Default: ignored.
    fn set_planner_step(&mut self, _step: Real) {}
    /// How the motions checked so far ended, where the validity counts them (a planner
    /// reports the difference over its search). Default: `None`.
    fn motion_outcomes(&self) -> Option<MotionOutcomes> {
        None
    }
}
