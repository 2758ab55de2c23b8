//! Kinematics: kinematic trees (links, joints, mimic), forward kinematics and point Jacobians
//! — each implemented once, here. Denavit–Hartenberg tables ([`SerialChain`]) and URDF files
//! (`robot::urdf`) are two ways to build a tree.
//!
//! Conventions: metres and radians. Standard DH (seed 000 §5.1; Spong):
//! `ᶦ⁻¹Tᵢ = Rz(θᵢ) Tz(dᵢ) Tx(aᵢ) Rx(αᵢ)`, joint `i` moves about/along `z` of frame `i − 1`.
//! Modified DH (Craig, *Introduction to Robotics*, §3.4): `ᶦ⁻¹Tᵢ = Rx(αᵢ₋₁) Tx(aᵢ₋₁) Rz(θᵢ) Tz(dᵢ)`,
//! joint `i` moves about/along `z` of frame `i`. In both, each row of a DH table stores
//! `(a, α, d, θ-offset)` as printed in the source table; for modified DH the row of joint `i`
//! holds `aᵢ₋₁, αᵢ₋₁`. URDF joints follow ROS REP 103 and the URDF XML specification
//! (`child = parent · origin · motion(q)`, `rpy` = fixed-axis roll, pitch, yaw).

mod chain;
mod dh;
mod forward;
mod frame;
mod lanes;
mod sin_cos;
mod tree;

pub use chain::SerialChain;
pub use dh::{DhConvention, DhJoint, JointKind};
pub use forward::ForwardKinematics;
pub use frame::{Frame, JointAxis};
pub use lanes::{LANES, Lane, LaneFrame, lane_parameter};
pub use tree::{Joint, KinematicTree, Mimic, MotionOrder};
