//! Test doubles for the planners: small [`Validity`] worlds whose answers are known.

use super::Validity;
use crate::math::Real;

/// A 2-D point robot in the unit square with a wall `x ∈ [0.45, 0.55], y < 0.8`.
pub struct Wall;
impl Validity for Wall {
    fn dof(&self) -> usize {
        2
    }
    fn bounds(&self) -> Vec<(Real, Real)> {
        vec![(0.0, 1.0), (0.0, 1.0)]
    }
    fn is_valid(&mut self, q: &[Real]) -> bool {
        !((0.45..=0.55).contains(&q[0]) && q[1] < 0.8)
    }
    fn motion_valid(&mut self, a: &[Real], b: &[Real]) -> bool {
        (0..=200).all(|k| {
            let s = k as Real / 200.0;
            self.is_valid(&[a[0] + (b[0] - a[0]) * s, a[1] + (b[1] - a[1]) * s])
        })
    }
}

/// Everything free except motions from or to `GOAL`: the goal's tree never grows.
pub struct TrappedGoal;
pub const GOAL: [Real; 2] = [0.9, 0.9];
impl Validity for TrappedGoal {
    fn dof(&self) -> usize {
        2
    }
    fn bounds(&self) -> Vec<(Real, Real)> {
        Wall.bounds()
    }
    fn is_valid(&mut self, _: &[Real]) -> bool {
        true
    }
    fn motion_valid(&mut self, a: &[Real], b: &[Real]) -> bool {
        a != GOAL && b != GOAL
    }
}

/// [`Wall`] counting its motion checks and keeping the step the planner tells it.
#[derive(Default)]
pub struct Counted {
    pub motions: usize,
    /// What the planner said its step is.
    pub told_step: Option<Real>,
}
impl Validity for Counted {
    fn dof(&self) -> usize {
        2
    }
    fn bounds(&self) -> Vec<(Real, Real)> {
        Wall.bounds()
    }
    fn is_valid(&mut self, q: &[Real]) -> bool {
        Wall.is_valid(q)
    }
    fn set_planner_step(&mut self, step: Real) {
        self.told_step = Some(step);
    }
    fn motion_valid(&mut self, a: &[Real], b: &[Real]) -> bool {
        self.motions += 1;
        Wall.motion_valid(a, b)
    }
}
