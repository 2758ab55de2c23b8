//! [`SeparationRecord`]: a [`Separation`] as a record.

use serde::{Deserialize, Serialize};

use crate::math::Real;
use crate::query::Separation;

/// `{"distance": d, "point_a": [..], "point_b": [..], "normal": [..]}`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SeparationRecord {
    /// Signed distance (m): `> 0` apart, `<= 0` contact.
    pub distance: Real,
    /// Witness point on a.
    pub point_a: [Real; 3],
    /// Witness point on b.
    pub point_b: [Real; 3],
    /// Unit normal from a to b.
    pub normal: [Real; 3],
}

impl From<&Separation> for SeparationRecord {
    fn from(s: &Separation) -> Self {
        Self {
            distance: s.distance,
            point_a: s.point_a.coords.into(),
            point_b: s.point_b.coords.into(),
            normal: s.normal.into(),
        }
    }
}
