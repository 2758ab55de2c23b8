//! Units declared by model, cell and trajectory files: lengths in m or mm, angles in rad or deg.

use serde::Deserialize;

use crate::math::Real;

/// Scale factors from file units to metres and radians.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Units {
    /// `"m"` or `"mm"`.
    pub length: LengthUnit,
    /// `"rad"` or `"deg"`.
    pub angle: AngleUnit,
}

/// Length unit of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
pub enum LengthUnit {
    /// Metres.
    #[default]
    #[serde(rename = "m")]
    Metre,
    /// Millimetres.
    #[serde(rename = "mm")]
    Millimetre,
}

/// Angle unit of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
pub enum AngleUnit {
    /// Radians.
    #[default]
    #[serde(rename = "rad")]
    Radian,
    /// Degrees.
    #[serde(rename = "deg")]
    Degree,
}

impl Default for Units {
    fn default() -> Self {
        Self {
            length: LengthUnit::Metre,
            angle: AngleUnit::Radian,
        }
    }
}

impl Units {
    /// Multiplier from file lengths to metres.
    pub fn metres(&self) -> Real {
        match self.length {
            LengthUnit::Metre => 1.0,
            LengthUnit::Millimetre => 1e-3,
        }
    }

    /// The unit name of a joint value: the angle unit for revolute joints, the length unit
    /// for prismatic ones (`"deg"`, `"rad"`, `"m"`, `"mm"`).
    pub fn joint_unit(&self, kind: crate::kinematics::JointKind) -> &'static str {
        match (kind, self.angle, self.length) {
            (crate::kinematics::JointKind::Revolute, AngleUnit::Degree, _) => "deg",
            (crate::kinematics::JointKind::Revolute, AngleUnit::Radian, _) => "rad",
            (_, _, LengthUnit::Millimetre) => "mm",
            (_, _, LengthUnit::Metre) => "m",
        }
    }

    /// Multiplier from file units to a joint value's (radians for revolute joints, metres for
    /// prismatic ones).
    pub fn joint_scale(&self, kind: crate::kinematics::JointKind) -> Real {
        match kind {
            crate::kinematics::JointKind::Revolute => self.radians(),
            crate::kinematics::JointKind::Prismatic => self.metres(),
        }
    }

    /// Multiplier from file angles to radians.
    pub fn radians(&self) -> Real {
        match self.angle {
            AngleUnit::Radian => 1.0,
            AngleUnit::Degree => std::f64::consts::PI / 180.0,
        }
    }
}
