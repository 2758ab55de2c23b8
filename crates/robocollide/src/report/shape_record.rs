//! [`ShapeRecord`] and [`PairRecord`]: shapes as JSON/TOML records.

use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::geom::{Capsule, Cylinder, OrientedBox, Plane, Segment, Shape, Sphere, check_point};
use crate::math::{Point3, Real, Vector3};

/// A shape as a record. JSON: `{"point": [x, y, z]}`, `{"segment": {"a": [..], "b": [..]}}`,
/// `{"sphere": {"center": [..], "radius": r}}`, `{"capsule": {"a": [..], "b": [..], "radius": r}}`,
/// `{"cylinder": {"a": [..], "b": [..], "radius": r}}`,
/// `{"box": {"center": [..], "half_extents": [..], "rpy": [r, p, y]}}` (`rpy`: URDF's fixed-axis
/// roll–pitch–yaw in radians, optional; or `"rotation": [[..], [..], [..]]`, rows of the matrix
/// whose columns are the box axes), `{"plane": {"point": [..], "normal": [..]}}`.
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
    /// An oriented box.
    Box {
        /// Centre.
        center: [Real; 3],
        /// Half-extents along the box's axes.
        half_extents: [Real; 3],
        /// URDF roll–pitch–yaw (radians); omitted: axis-aligned.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rpy: Option<[Real; 3]>,
        /// Rotation matrix, row by row (alternative to `rpy`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rotation: Option<[[Real; 3]; 3]>,
    },
    /// A half-space: the solid below the plane through `point` with outward `normal`.
    Plane {
        /// A point of the boundary plane.
        point: [Real; 3],
        /// Outward normal (need not be unit).
        normal: [Real; 3],
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
            ShapeRecord::Box {
                center,
                half_extents,
                rpy,
                rotation,
            } => {
                let h = Vector3::from(*half_extents);
                Shape::Box(match (rpy, rotation) {
                    (Some(_), Some(_)) => {
                        return Err(crate::error::Error::Parse(
                            "box: give `rpy` or `rotation`, not both".into(),
                        ));
                    }
                    (_, Some(m)) => OrientedBox::new(
                        p(center),
                        crate::math::Matrix3::from_fn(|i, j| m[i][j]),
                        h,
                    )?,
                    (rpy, None) => OrientedBox::from_rpy(p(center), rpy.unwrap_or([0.0; 3]), h)?,
                })
            }
            ShapeRecord::Plane { point, normal } => {
                Shape::Plane(Plane::new(p(point), p(normal).coords)?)
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
            Shape::Box(x) => {
                let m = x.rotation();
                let rotated = *m != crate::math::Matrix3::identity();
                ShapeRecord::Box {
                    center: a(x.center()),
                    half_extents: x.half_extents().into(),
                    rpy: None,
                    rotation: rotated
                        .then(|| std::array::from_fn(|i| [m[(i, 0)], m[(i, 1)], m[(i, 2)]])),
                }
            }
            Shape::Plane(x) => ShapeRecord::Plane {
                point: a(x.point()),
                normal: x.normal().into(),
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
