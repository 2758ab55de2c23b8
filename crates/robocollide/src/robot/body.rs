//! [`Body`]: one named primitive of a robot, with points anchored to frames.

use crate::geom::{Capsule, Cylinder, OrientedBox, Plane, Shape, Sphere};
use crate::kinematics::Frame;
use crate::math::{Matrix3, Point3, Real, Vector3};

/// A point fixed on link `frame` (its index in the robot's tree; 0 = the root, for a DH
/// chain `i` = DH frame `i`) at local coordinates `at`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Anchor {
    /// Frame index.
    pub frame: usize,
    /// Coordinates in that frame (m).
    pub at: Point3,
}

impl Anchor {
    /// The origin of frame `frame`.
    pub fn origin(frame: usize) -> Self {
        Self {
            frame,
            at: Point3::origin(),
        }
    }

    /// World position given the world frames of the links.
    #[inline]
    pub fn world(&self, frames: &[Frame]) -> Point3 {
        frames[self.frame].apply(&self.at)
    }
}

/// The primitive of a body.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BodyShape {
    /// A ball around one anchored point.
    Sphere {
        /// Centre.
        center: Anchor,
        /// Radius (m).
        radius: Real,
    },
    /// A capsule between two anchored points.
    Capsule {
        /// First axis end.
        a: Anchor,
        /// Second axis end.
        b: Anchor,
        /// Radius (m).
        radius: Real,
    },
    /// A flat-capped cylinder between two anchored points.
    Cylinder {
        /// First cap centre.
        a: Anchor,
        /// Second cap centre.
        b: Anchor,
        /// Radius (m).
        radius: Real,
    },
    /// An oriented box fixed on one link.
    Box {
        /// Centre.
        center: Anchor,
        /// Orientation in the frame of `center`'s link (columns: the box's axes).
        rotation: Matrix3,
        /// Half-extents (m).
        half_extents: Vector3,
    },
    /// A half-space fixed on one link: the solid below the plane through `point` with outward
    /// `normal` (a unit vector in the frame of `point`'s link).
    Plane {
        /// A point of the boundary plane.
        point: Anchor,
        /// Outward unit normal, in the link's frame.
        normal: Vector3,
    },
}

impl BodyShape {
    /// A world shape as a body on link 0 of a robot whose root is the world frame. Points and
    /// segments become zero-radius spheres and capsules.
    pub fn from_world(shape: &Shape) -> Self {
        let at = |p: Point3| Anchor { frame: 0, at: p };
        match shape {
            Shape::Point(p) => BodyShape::Sphere {
                center: at(*p),
                radius: 0.0,
            },
            Shape::Sphere(s) => BodyShape::Sphere {
                center: at(s.center()),
                radius: s.radius(),
            },
            Shape::Segment(s) => BodyShape::Capsule {
                a: at(s.a()),
                b: at(s.b()),
                radius: 0.0,
            },
            Shape::Capsule(c) => BodyShape::Capsule {
                a: at(c.axis().a()),
                b: at(c.axis().b()),
                radius: c.radius(),
            },
            Shape::Cylinder(c) => BodyShape::Cylinder {
                a: at(c.axis().a()),
                b: at(c.axis().b()),
                radius: c.radius(),
            },
            Shape::Box(b) => BodyShape::Box {
                center: at(b.center()),
                rotation: *b.rotation(),
                half_extents: b.half_extents(),
            },
            Shape::Plane(p) => BodyShape::Plane {
                point: at(p.point()),
                normal: p.normal(),
            },
        }
    }
}

/// A named primitive on a link.
#[derive(Debug, Clone, PartialEq)]
pub struct Body {
    /// Element name, e.g. `S2`, `C3` (seed 000 labelling) or a user's name.
    pub name: String,
    /// The link it belongs to (0 = base), for self-collision adjacency.
    pub link: usize,
    /// The primitive.
    pub shape: BodyShape,
}

impl Body {
    /// Kind name used in reports: `sphere`, `capsule`, `cylinder`, `box` or `plane`.
    pub fn kind(&self) -> &'static str {
        match self.shape {
            BodyShape::Sphere { .. } => "sphere",
            BodyShape::Capsule { .. } => "capsule",
            BodyShape::Cylinder { .. } => "cylinder",
            BodyShape::Box { .. } => "box",
            BodyShape::Plane { .. } => "plane",
        }
    }

    /// The anchors of the body (one or two).
    pub fn anchors(&self) -> impl Iterator<Item = &Anchor> {
        let (first, second) = match &self.shape {
            BodyShape::Sphere { center, .. } | BodyShape::Box { center, .. } => (center, None),
            BodyShape::Plane { point, .. } => (point, None),
            BodyShape::Capsule { a, b, .. } | BodyShape::Cylinder { a, b, .. } => (a, Some(b)),
        };
        std::iter::once(first).chain(second)
    }

    /// Radius of the primitive (0 for boxes and half-spaces, which have none).
    pub fn radius(&self) -> Real {
        match self.shape {
            BodyShape::Sphere { radius, .. }
            | BodyShape::Capsule { radius, .. }
            | BodyShape::Cylinder { radius, .. } => radius,
            BodyShape::Box { .. } | BodyShape::Plane { .. } => 0.0,
        }
    }

    /// How far the body reaches beyond its anchors: the radius, a box's half-diagonal, and
    /// infinity for a half-space.
    pub fn reach(&self) -> Real {
        match self.shape {
            BodyShape::Box { half_extents, .. } => half_extents.norm(),
            BodyShape::Plane { .. } => Real::INFINITY,
            _ => self.radius(),
        }
    }

    /// The body in the world, given the world poses of the frames. Shapes were validated when
    /// the model was built; a cylinder whose two anchors coincide at this configuration becomes
    /// a sphere of its radius (a conservative stand-in for a disc of unknown orientation).
    pub fn world_shape(&self, frames: &[Frame]) -> Shape {
        match self.shape {
            BodyShape::Sphere { center, radius } => {
                Shape::Sphere(Sphere::from_finite(center.world(frames), radius))
            }
            BodyShape::Capsule { a, b, radius } => Shape::Capsule(Capsule::from_finite(
                crate::geom::Segment::from_finite(a.world(frames), b.world(frames)),
                radius,
            )),
            BodyShape::Cylinder { a, b, radius } => {
                let (pa, pb) = (a.world(frames), b.world(frames));
                match Cylinder::new(pa, pb, radius) {
                    Ok(c) => Shape::Cylinder(c),
                    Err(_) => Shape::Sphere(Sphere::from_finite(pa, radius)),
                }
            }
            BodyShape::Box {
                center,
                rotation,
                half_extents,
            } => Shape::Box(OrientedBox::from_finite(
                center.world(frames),
                frames[center.frame].rotation * rotation,
                half_extents,
            )),
            BodyShape::Plane { point, normal } => Shape::Plane(Plane::from_finite(
                point.world(frames),
                frames[point.frame].rotation * normal,
            )),
        }
    }
}
