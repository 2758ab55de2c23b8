//! Spatial mechanisms analysed with line geometry (seed 003, Ketchel & Larochelle).
//!
//! Conventions: angles in radians, lengths in the mechanism's own unit (the case study's
//! "units"). Only the spatial 4C closed-form kinematics is implemented so far; the
//! segment/cylinder collision study of the case study is not (see the issue notes).

mod four_c;

pub use four_c::{Branch, FourC, FourCConfiguration, InputRange, RangeCase};
