//! One-line text syntax for shapes, used by the command line:
//!
//! ```text
//! point    X,Y,Z
//! segment  AX,AY,AZ BX,BY,BZ
//! sphere   CX,CY,CZ RADIUS
//! capsule  AX,AY,AZ BX,BY,BZ RADIUS
//! cylinder AX,AY,AZ BX,BY,BZ RADIUS
//! box      CX,CY,CZ HX,HY,HZ [ROLL,PITCH,YAW]   (half-extents; optional URDF rpy, radians)
//! plane    PX,PY,PZ NX,NY,NZ                    (point and outward normal: the solid is below)
//! ```
//!
//! Tokens are separated by whitespace; coordinates within a point by commas (spaces after the
//! commas are not allowed, as they would split the token). Units are metres.

use std::str::FromStr;

use super::{Capsule, Cylinder, OrientedBox, Plane, Segment, Shape, Sphere, check_point};
use crate::error::{Error, Result};
use crate::math::{Point3, Real};

/// The accepted forms, quoted in error messages.
pub(crate) const SHAPE_SYNTAX: &str = "point X,Y,Z | segment AX,AY,AZ BX,BY,BZ | \
sphere CX,CY,CZ R | capsule AX,AY,AZ BX,BY,BZ R | cylinder AX,AY,AZ BX,BY,BZ R | \
box CX,CY,CZ HX,HY,HZ [ROLL,PITCH,YAW] | plane PX,PY,PZ NX,NY,NZ";

fn parse_number(field: &str, token: &str) -> Result<Real> {
    token
        .trim()
        .parse::<Real>()
        .map_err(|_| Error::Parse(format!("{field}: `{token}` is not a number")))
}

fn parse_point(field: &str, token: &str) -> Result<Point3> {
    let parts: Vec<&str> = token.split(',').collect();
    if parts.len() != 3 {
        return Err(Error::Parse(format!(
            "{field}: expected three comma-separated coordinates X,Y,Z, got `{token}`"
        )));
    }
    let mut xyz = [0.0; 3];
    for ((slot, part), axis) in xyz.iter_mut().zip(&parts).zip(["x", "y", "z"]) {
        *slot = parse_number(&format!("{field}.{axis}"), part)?;
    }
    check_point(field, Point3::new(xyz[0], xyz[1], xyz[2]))
}

impl FromStr for Shape {
    type Err = Error;

    fn from_str(text: &str) -> Result<Shape> {
        let tokens: Vec<&str> = text.split_whitespace().collect();
        let Some((&kind, args)) = tokens.split_first() else {
            return Err(Error::Parse(format!(
                "empty shape; expected one of: {SHAPE_SYNTAX}"
            )));
        };
        let kind = kind.to_ascii_lowercase();
        let expected = match kind.as_str() {
            "point" => 1,
            "segment" | "sphere" | "plane" => 2,
            "box" if args.len() == 2 => 2,
            "capsule" | "cylinder" | "box" => 3,
            _ => {
                return Err(Error::Parse(format!(
                    "unknown shape `{kind}`; expected one of: {SHAPE_SYNTAX}"
                )));
            }
        };
        if args.len() != expected {
            return Err(Error::Parse(format!(
                "{kind} takes {expected} argument(s), got {}: `{text}` (syntax: {SHAPE_SYNTAX})",
                args.len()
            )));
        }
        let k = kind.as_str();
        Ok(match k {
            "point" => Shape::Point(parse_point("point", args[0])?),
            "segment" => Shape::Segment(Segment::new(
                parse_point("segment.a", args[0])?,
                parse_point("segment.b", args[1])?,
            )?),
            "sphere" => Shape::Sphere(Sphere::new(
                parse_point("sphere.center", args[0])?,
                parse_number("sphere.radius", args[1])?,
            )?),
            "capsule" => Shape::Capsule(Capsule::new(
                parse_point("capsule.a", args[0])?,
                parse_point("capsule.b", args[1])?,
                parse_number("capsule.radius", args[2])?,
            )?),
            "box" => {
                let rpy = match args.get(2) {
                    Some(token) => parse_point("box.rpy", token)?,
                    None => Point3::origin(),
                };
                Shape::Box(OrientedBox::from_rpy(
                    parse_point("box.center", args[0])?,
                    [rpy.x, rpy.y, rpy.z],
                    parse_point("box.half_extents", args[1])?.coords,
                )?)
            }
            "plane" => Shape::Plane(Plane::new(
                parse_point("plane.point", args[0])?,
                parse_point("plane.normal", args[1])?.coords,
            )?),
            _ => Shape::Cylinder(Cylinder::new(
                parse_point("cylinder.a", args[0])?,
                parse_point("cylinder.b", args[1])?,
                parse_number("cylinder.radius", args[2])?,
            )?),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_kind() {
        let s: Shape = "capsule 0,0,0 1,0,0 0.1".parse().unwrap();
        assert_eq!(
            s,
            Shape::Capsule(
                Capsule::new(Point3::origin(), Point3::new(1.0, 0.0, 0.0), 0.1).unwrap()
            )
        );
        assert!(matches!(
            "point 1,2,3".parse::<Shape>().unwrap(),
            Shape::Point(_)
        ));
        assert!(matches!(
            "SEGMENT 0,0,0 1,1,1".parse::<Shape>().unwrap(),
            Shape::Segment(_)
        ));
        assert!(matches!(
            "sphere 0.5,0.5,0 0.2".parse::<Shape>().unwrap(),
            Shape::Sphere(_)
        ));
        assert!(matches!(
            "cylinder 0,0,0 0,0,1 0.3".parse::<Shape>().unwrap(),
            Shape::Cylinder(_)
        ));
        let Shape::Box(b) = "box 1,2,3 0.5,0.25,0.125 0,0,1.5707963267948966"
            .parse::<Shape>()
            .unwrap()
        else {
            panic!("not a box")
        };
        assert_eq!(
            b.half_extents(),
            crate::math::Vector3::new(0.5, 0.25, 0.125)
        );
        assert!((b.axis(0) - crate::math::Vector3::y()).norm() < 1e-15);
        assert!(matches!(
            "box 0,0,0 1,1,1".parse::<Shape>().unwrap(),
            Shape::Box(_)
        ));
        assert!(matches!(
            "plane 0,0,0 0,0,1".parse::<Shape>().unwrap(),
            Shape::Plane(_)
        ));
    }

    #[test]
    fn errors_name_the_bad_part() {
        let err = |t: &str| t.parse::<Shape>().unwrap_err().to_string();
        assert!(err("sphere 0,0,0 -1").contains("sphere.radius must be a radius >= 0, got -1"));
        assert!(err("sphere 0,nan,0 1").contains("sphere.center.y must be finite, got NaN"));
        assert!(err("capsule 0,0,0 1,0 0.1").contains("capsule.b: expected three"));
        assert!(err("capsule 0,0,0 1,0,x 0.1").contains("capsule.b.z: `x` is not a number"));
        assert!(err("cone 0,0,0 1").contains("unknown shape `cone`"));
        assert!(err("sphere 0,0,0").contains("sphere takes 2 argument(s), got 1"));
        assert!(err("box 0,0,0 1,-1,1").contains("box.half_extents.y must be >= 0, got -1"));
        assert!(err("box 0,0,0").contains("box takes 3 argument(s), got 1"));
        assert!(err("plane 0,0,0 0,0,0").contains("plane.normal must be non-zero"));
        assert!(err("   ").contains("empty shape"));
        assert!(err("cylinder 0,0,0 0,0,inf 1").contains("cylinder.b.z must be finite, got inf"));
        assert!(
            err("cylinder 1,2,3 1,2,3 1")
                .contains("cylinder: the axis end points coincide at (1, 2, 3)")
        );
    }
}
