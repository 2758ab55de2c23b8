//! Motion planning on top of the collision checks. Planners see only a [`Validity`]: is this
//! configuration free, is this straight joint-space motion free. [`CellValidity`] answers the
//! motion question with the guaranteed sweep, so every edge a planner accepts is certified
//! collision-free, not merely sampled. Requires the `planning` feature.

mod cell_validity;
mod planar_validity;
mod rrt_connect;
mod validity;

pub use cell_validity::CellValidity;
pub use planar_validity::PlanarValidity;
pub use rrt_connect::{Plan, PlannerSettings, rrt_connect};
pub use validity::Validity;
