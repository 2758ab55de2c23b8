//! Serial-chain kinematics with Denavit–Hartenberg parameters.
//!
//! Conventions: metres and radians. Frame 0 is the robot's base frame (placed in the world by
//! the chain's `base` isometry); frame `i` (1 ≤ i ≤ n) is attached to link `i`. Standard DH
//! (seed 000 §5.1; Spong): `ᶦ⁻¹Tᵢ = Rz(θᵢ) Tz(dᵢ) Tx(aᵢ) Rx(αᵢ)`, joint `i` moves about/along
//! `z` of frame `i − 1`. Modified DH (Craig, *Introduction to Robotics*, §3.4):
//! `ᶦ⁻¹Tᵢ = Rx(αᵢ₋₁) Tx(aᵢ₋₁) Rz(θᵢ) Tz(dᵢ)`, joint `i` moves about/along `z` of frame `i`.
//! In both, each row of a DH table stores `(a, α, d, θ-offset)` as printed in the source table;
//! for modified DH the row of joint `i` holds `aᵢ₋₁, αᵢ₋₁`.

mod chain;
mod dh;
mod jacobian;

pub use chain::{Frames, SerialChain};
pub use dh::{DhConvention, DhJoint, JointKind};
pub use jacobian::point_jacobian;
