//! Spatial mechanisms analysed with line geometry (seed 003, Ketchel & Larochelle).
//!
//! Conventions: angles in radians, lengths in the mechanism's own unit (the case study's
//! "units"): the spatial 4C closed-form kinematics and its self-collision study.

mod four_c;
mod four_c_file;
mod four_c_study;

pub use four_c::{Branch, FourC, FourCConfiguration, InputRange, RangeCase, x_motion, z_motion};
pub use four_c_file::{Contact, DistanceCurve, FourCStudy, StudyReport, ViaPoint};
pub use four_c_study::{
    AxisLengths, PairTest, StepBodies, pair_tests, radius, segment_pairs, segments,
};
