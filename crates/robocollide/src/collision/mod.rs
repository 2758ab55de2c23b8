//! Collision checks over posed robots: robot–robot and self-collision at one configuration
//! (with the seed-000 report: minimum distance, pair type, elements such as `R1-S2`, witness
//! points, and every pair closer than a threshold), and along trajectories — sampled, or
//! *guaranteed*: certified free between samples by motion bounds, so no collision can hide
//! between two samples.
//!
//! Conventions: metres and radians; distances signed (≤ 0 is contact). Report structs derive
//! `serde::Serialize`: they are the JSON the CLI prints.

mod box_block_gaps;
mod checker;
mod checker_groups;
mod chord_bound;
mod chord_certificate;
mod contact_hints;
mod core;
mod culling_groups;
mod end_gaps;
mod lane_chords;
mod lane_points;
mod lane_screen;
mod limit_certificate;
mod motion_blocks;
mod motion_bound;
mod motion_check;
mod motion_outcomes;
mod obstacle_grid;
mod pair_bounds;
mod pair_order;
mod pair_search;
mod point_solid;
mod pose;
mod rake;
mod report;
mod solid_distance;
mod start_measure;
mod sweep;
#[cfg(test)]
mod test_cells;
mod trajectory;
mod world_contact;

pub use checker::{CellChecker, Closest};
pub use limit_certificate::self_pairs_apart_within_limits;
pub use motion_bound::MotionBound;
pub use motion_check::{MAX_MOTION_EVALUATIONS, MotionCheck};
pub use motion_outcomes::MotionOutcomes;
pub use pose::CellPose;
pub use rake::{PIECE_STEPS, RAKE_SPACING, RAKE_SPACING_PER_STEP};
pub use report::{AllowedLinkPair, CheckReport, Element, PairReport, RobotSummary};
#[cfg(feature = "parallel")]
pub use sweep::sweep_parallel;
pub use sweep::{Sample, SweepMode, SweepReport, config_at, sweep};
pub use trajectory::Trajectory;
