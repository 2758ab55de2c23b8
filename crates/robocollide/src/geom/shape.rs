//! [`Shape`]: the closed set of primitives the pair queries accept.

use super::{Capsule, Cylinder, OrientedBox, Plane, Segment, Sphere};
use crate::math::{Isometry3, Point3, Real};

/// Any primitive robocollide can measure distances between.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Shape {
    /// A single point.
    Point(Point3),
    /// A line segment.
    Segment(Segment),
    /// A ball.
    Sphere(Sphere),
    /// A swept sphere.
    Capsule(Capsule),
    /// A flat-capped cylinder.
    Cylinder(Cylinder),
    /// An oriented box.
    Box(OrientedBox),
    /// A half-space (the solid below a plane).
    Plane(Plane),
}

impl Shape {
    /// Lower-case kind name as used by the text and JSON syntaxes (`"capsule"`, …).
    pub fn kind(&self) -> &'static str {
        match self {
            Shape::Point(_) => "point",
            Shape::Segment(_) => "segment",
            Shape::Sphere(_) => "sphere",
            Shape::Capsule(_) => "capsule",
            Shape::Cylinder(_) => "cylinder",
            Shape::Box(_) => "box",
            Shape::Plane(_) => "plane",
        }
    }

    /// The shape moved by a rigid motion.
    pub fn transformed(&self, iso: &Isometry3) -> Shape {
        match self {
            Shape::Point(p) => Shape::Point(iso * p),
            Shape::Segment(s) => Shape::Segment(s.transformed(iso)),
            Shape::Sphere(s) => Shape::Sphere(s.transformed(iso)),
            Shape::Capsule(c) => Shape::Capsule(c.transformed(iso)),
            Shape::Cylinder(c) => Shape::Cylinder(c.transformed(iso)),
            Shape::Box(b) => Shape::Box(b.transformed(iso)),
            Shape::Plane(p) => Shape::Plane(p.transformed(iso)),
        }
    }

    /// Largest absolute coordinate plus radius: the scale against which rounding is judged.
    pub fn magnitude(&self) -> Real {
        match self {
            Shape::Point(p) => crate::math::max_abs(&p.coords),
            Shape::Segment(s) => s.magnitude(),
            Shape::Sphere(s) => crate::math::max_abs(&s.center().coords) + s.radius(),
            Shape::Capsule(c) => c.axis().magnitude() + c.radius(),
            Shape::Cylinder(c) => c.axis().magnitude() + c.radius(),
            Shape::Box(b) => b.magnitude(),
            Shape::Plane(p) => p.magnitude(),
        }
    }
}

impl From<Point3> for Shape {
    fn from(p: Point3) -> Self {
        Shape::Point(p)
    }
}
impl From<Segment> for Shape {
    fn from(s: Segment) -> Self {
        Shape::Segment(s)
    }
}
impl From<Sphere> for Shape {
    fn from(s: Sphere) -> Self {
        Shape::Sphere(s)
    }
}
impl From<Capsule> for Shape {
    fn from(c: Capsule) -> Self {
        Shape::Capsule(c)
    }
}
impl From<Cylinder> for Shape {
    fn from(c: Cylinder) -> Self {
        Shape::Cylinder(c)
    }
}
impl From<OrientedBox> for Shape {
    fn from(b: OrientedBox) -> Self {
        Shape::Box(b)
    }
}
impl From<Plane> for Shape {
    fn from(p: Plane) -> Self {
        Shape::Plane(p)
    }
}
