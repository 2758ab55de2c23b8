//! Collision avoidance by velocity filtering (seed 002, corrected as in
//! `../shared/SEED-NOTES.md`): the joint velocities closest to the desired ones that keep every
//! close body pair from approaching faster than a damped bound.
//!
//! Conventions: metres, radians, seconds. Distances and normals come from
//! [`CellChecker`](crate::collision::CellChecker) (normal from body a to body b); the closing
//! speed of a pair is `nᵀ(v_a − v_b)`, with `v` the velocity of the pair's witness point on each
//! body's core. Requires the `control` feature (clarabel).

mod box_qp;
mod projection;
mod protection;
mod simulation;
mod velocity_filter;

pub use box_qp::{QpStatus, solve_box_qp, solve_box_qp_whole};
pub use protection::JointRole;
pub use simulation::{Protect, SimulationStep, simulate};
pub use velocity_filter::{
    ActivePair, ConstraintForm, FilterQp, FilterResult, FilterSettings, VelocityFilter,
};
