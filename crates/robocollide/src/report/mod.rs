//! Serde records shared by the command line, the Python bindings and the plots.
//!
//! These are the *file and wire formats*: plain arrays `[x, y, z]` in metres, shapes as
//! externally tagged objects (`{"sphere": {"center": [0, 0, 0], "radius": 0.1}}`). Converting
//! a record to a library type validates it and names the bad field.

mod separation_record;
mod shape_record;

pub use separation_record::SeparationRecord;
pub use shape_record::{PairRecord, ShapeRecord};
