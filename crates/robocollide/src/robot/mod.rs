//! Robot models: a kinematic tree plus named bodies (spheres, capsules, cylinders) whose
//! points are anchored to its links, and the self-collision pairs.
//!
//! Conventions: metres and radians in memory (files may declare mm and degrees, see
//! [`model_file`]). A body point is anchored to one link (0 = the root; for a DH chain link `i`
//! is DH frame `i`);
//! a capsule may join points on two frames, which is how seed 000 §5.2 models a link between
//! two joint origins (this stays correct for prismatic joints, where no single frame carries
//! both ends). Each body belongs to one link, used for self-collision adjacency.

mod body;
mod cell;
mod cell_source;
mod detail;
mod groups;
mod model;
pub mod model_file;
#[cfg(feature = "moveit")]
pub mod moveit_scene;
mod obstacles;
mod self_pairs;
#[cfg(feature = "urdf")]
pub mod srdf;
mod units;
#[cfg(feature = "urdf")]
pub mod urdf;

pub use body::{Anchor, Body, BodyShape};
pub use cell::{Cell, CellRobot, ModelRequest};
pub use cell_source::{CellOptions, CellSource};
pub use detail::{DetailLevel, detail_bodies};
pub use groups::JointGroup;
pub use model::{ModelFormat, RobotModel};
pub use obstacles::{AllowedPair, SceneObjects, WORLD_LABEL};
pub use self_pairs::{AllowedLinks, SelfPairs};
pub use units::Units;
