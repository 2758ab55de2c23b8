//! [`Body`]: one named primitive of a robot, with points anchored to frames.

use crate::geom::{Capsule, Cylinder, Shape, Sphere};
use crate::kinematics::Frame;
use crate::math::{Point3, Real};

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
    /// Kind name used in reports: `sphere`, `capsule` or `cylinder`.
    pub fn kind(&self) -> &'static str {
        match self.shape {
            BodyShape::Sphere { .. } => "sphere",
            BodyShape::Capsule { .. } => "capsule",
            BodyShape::Cylinder { .. } => "cylinder",
        }
    }

    /// The anchors of the body (one or two).
    pub fn anchors(&self) -> impl Iterator<Item = &Anchor> {
        let (first, second) = match &self.shape {
            BodyShape::Sphere { center, .. } => (center, None),
            BodyShape::Capsule { a, b, .. } | BodyShape::Cylinder { a, b, .. } => (a, Some(b)),
        };
        std::iter::once(first).chain(second)
    }

    /// Radius of the primitive.
    pub fn radius(&self) -> Real {
        match self.shape {
            BodyShape::Sphere { radius, .. }
            | BodyShape::Capsule { radius, .. }
            | BodyShape::Cylinder { radius, .. } => radius,
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
        }
    }
}
