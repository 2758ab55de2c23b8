//! Planar (2-D) geometry for planar arms among circular obstacles (seed 001).
//!
//! Conventions: metres; circles are *closed* discs, so a segment touching a circle collides.
//! The seed's "H between A and B iff ⟨CA, CB⟩ ≤ 0" test is not used: it is sufficient but not
//! necessary and misses collisions (see `../shared/SEED-NOTES.md`; the test
//! `blog_counterexample_is_a_collision` shows one). The exact rule is the clamped projection:
//! the segment meets the disc iff the distance from the centre to the segment is ≤ r.

mod arm;
mod segments_circles;

pub use arm::PlanarArm;
pub use segments_circles::{Circle, Segment2, SegmentsCircles};
