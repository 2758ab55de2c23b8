//! Motion planning. Planners see only a [`Validity`]: is this configuration free, is this
//! straight joint-space motion free. The adapters from cells and planar scenes live in
//! [`validity`](crate::validity) (a cell's motions are certified by the guaranteed sweep, so
//! every edge a planner accepts is collision-free, not merely sampled). Requires the
//! `planning` feature.

mod dynamic_domain;
mod halton;
mod rrt_connect;
mod shortcut;
#[cfg(test)]
mod test_validities;
mod tree;
mod validity;

pub use dynamic_domain::DynamicDomain;
pub use rrt_connect::{Plan, PlannerSettings, Sampler, rrt_connect};
pub use shortcut::{MAX_POINT_SHORTCUTS, POINT_SHORTCUT_PATIENCE};
pub use validity::Validity;
