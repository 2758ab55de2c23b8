//! [`ShapeRecord`] and [`PairRecord`]: shapes as JSON/TOML records.

use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::geom::{Capsule, Cylinder, Segment, Shape, Sphere, check_point};
use crate::math::{Point3, Real};

/// A shape as a record. JSON: `{"point": [x, y, z]}`, `{"segment": {"a": [..], "b": [..]}}`,
/// `{"sphere": {"center": [..], "radius": r}}`, `{"capsule": {"a": [..], "b": [..], "radius": r}}`,
/// `{"cylinder": {"a": [..], "b": [..], "radius": r}}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", deny_unknown_fields)]
pub enum ShapeRecord {
    /// A point.
    Point([Real; 3]),
    /// A segment from `a` to `b`.
    Segment {
        /// Start point.
        a: [Real; 3],
        /// End point.
        b: [Real; 3],
    },
    /// A ball.
    Sphere {
        /// Centre.
        center: [Real; 3],
        /// Radius.
        radius: Real,
    },
    /// A capsule around `a b`.
    Capsule {
        /// Axis start.
        a: [Real; 3],
        /// Axis end.
        b: [Real; 3],
        /// Radius.
        radius: Real,
    },
    /// A flat-capped cylinder around `a b`.
    Cylinder {
        /// Axis start (centre of the first cap).
        a: [Real; 3],
        /// Axis end (centre of the second cap).
        b: [Real; 3],
        /// Radius.
        radius: Real,
    },
}

impl ShapeRecord {
    /// Validates the record; errors name the field, e.g. `capsule.radius`.
    pub fn to_shape(&self) -> Result<Shape> {
        let p = |x: &[Real; 3]| Point3::new(x[0], x[1], x[2]);
        Ok(match self {
            ShapeRecord::Point(x) => Shape::Point(check_point("point", p(x))?),
            ShapeRecord::Segment { a, b } => Shape::Segment(Segment::new(p(a), p(b))?),
            ShapeRecord::Sphere { center, radius } => {
                Shape::Sphere(Sphere::new(p(center), *radius)?)
            }
            ShapeRecord::Capsule { a, b, radius } => {
                Shape::Capsule(Capsule::new(p(a), p(b), *radius)?)
            }
            ShapeRecord::Cylinder { a, b, radius } => {
                Shape::Cylinder(Cylinder::new(p(a), p(b), *radius)?)
            }
        })
    }

    /// The record of a shape.
    pub fn from_shape(shape: &Shape) -> Self {
        let a = |p: Point3| [p.x, p.y, p.z];
        match shape {
            Shape::Point(x) => ShapeRecord::Point(a(*x)),
            Shape::Segment(s) => ShapeRecord::Segment {
                a: a(s.a()),
                b: a(s.b()),
            },
            Shape::Sphere(s) => ShapeRecord::Sphere {
                center: a(s.center()),
                radius: s.radius(),
            },
            Shape::Capsule(c) => ShapeRecord::Capsule {
                a: a(c.axis().a()),
                b: a(c.axis().b()),
                radius: c.radius(),
            },
            Shape::Cylinder(c) => ShapeRecord::Cylinder {
                a: a(c.axis().a()),
                b: a(c.axis().b()),
                radius: c.radius(),
            },
        }
    }
}

/// One line of a batch distance query: `{"a": shape, "b": shape}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairRecord {
    /// First shape.
    pub a: ShapeRecord,
    /// Second shape.
    pub b: ShapeRecord,
}

impl PairRecord {
    /// Both shapes, validated; errors are prefixed `a.` or `b.`.
    pub fn to_shapes(&self) -> Result<(Shape, Shape)> {
        let a = self.a.to_shape().map_err(|e| e.within("a"))?;
        let b = self.b.to_shape().map_err(|e| e.within("b"))?;
        Ok((a, b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issue_example_line_parses_and_round_trips() {
        let line = r#"{"a": {"capsule": {"a": [0,0,0], "b": [1,0,0], "radius": 0.1}}, "b": {"sphere": {"center": [0.5,0.5,0], "radius": 0.2}}}"#;
        let rec: PairRecord = serde_json::from_str(line).unwrap();
        let (a, b) = rec.to_shapes().unwrap();
        assert_eq!(ShapeRecord::from_shape(&a), rec.a);
        assert_eq!(ShapeRecord::from_shape(&b), rec.b);
    }

    #[test]
    fn bad_values_are_named() {
        let line = r#"{"a": {"point": [0,0,0]}, "b": {"cylinder": {"a": [0,0,0], "b": [1,0,0], "radius": -2}}}"#;
        let rec: PairRecord = serde_json::from_str(line).unwrap();
        assert_eq!(
            rec.to_shapes().unwrap_err().to_string(),
            "b.cylinder.radius must be a radius >= 0, got -2"
        );
    }
}
