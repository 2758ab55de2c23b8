//! Adapters from what robocollide checks to what planners ask ([`crate::planning::Validity`]): a robot
//! of a [`Cell`](crate::robot::Cell) ([`CellValidity`], motions certified by the guaranteed
//! sweep) and seed 001's planar arm among circles ([`PlanarValidity`]). They sit above both
//! `planning` and `collision`, so that planners see only the `Validity` interface. Requires the
//! `planning` feature.

mod cell;
mod planar;

pub use cell::CellValidity;
pub use planar::PlanarValidity;
