//! # robocollide
//!
//! Exact, robust collision detection for robots modelled by spheres, capsules and flat-capped
//! cylinders.
//!
//! Modules in data-flow order (each imports only those above it):
//! - [`math`]: `Real = f64`, nalgebra aliases, numeric helpers;
//! - [`error`]: the one [`Error`] type, naming the offending input;
//! - [`geom`]: validated primitives and the [`Shape`](geom::Shape) enum;
//! - [`query`]: pair queries returning signed distances with witness points and normals;
//! - [`kinematics`]: kinematic trees (built from DH tables or URDF), forward kinematics,
//!   point Jacobians;
//! - `planning` (feature `planning`): RRT-Connect over a `Validity` interface;
//! - [`mechanism`]: the spatial 4C mechanism's closed-form kinematics (seed 003);
//! - [`planar`]: 2-D segments against circles, batched (seed 001);
//! - [`robot`]: robot models (bodies anchored to frames, levels of detail, model/cell files);
//! - [`collision`]: robot–robot and self-collision reports, trajectory sweeps (sampled and
//!   guaranteed);
//! - `validity` (feature `planning`): cells and planar scenes as planners' `Validity`;
//! - `control` (feature `control`): the collision-avoidance velocity filter (seed 002);
//! - [`report`]: serde records (file and wire formats) shared by the CLI, Python and plots.
//!
//! Conventions: metres and radians; shapes are closed sets (touching is contact); signed
//! distance `> 0` apart, `<= 0` in contact; normals point from the first shape to the second.
//!
//! ```
//! use robocollide::geom::Shape;
//! use robocollide::query::shape_shape;
//!
//! let a: Shape = "capsule 0,0,0 1,0,0 0.1".parse()?;
//! let b: Shape = "sphere 0.5,0.5,0 0.2".parse()?;
//! let sep = shape_shape(&a, &b);
//! assert!((sep.distance - 0.2).abs() < 1e-12);
//! # Ok::<(), robocollide::Error>(())
//! ```

pub mod collision;
#[cfg(feature = "control")]
pub mod control;
pub mod error;
pub mod geom;
pub mod kinematics;
pub mod math;
pub mod mechanism;
pub mod planar;
#[cfg(feature = "planning")]
pub mod planning;
pub mod query;
pub mod report;
pub mod robot;
#[cfg(feature = "planning")]
pub mod validity;
mod wide;

pub use error::{Error, Result};
