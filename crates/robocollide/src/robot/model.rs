//! [`RobotModel`]: chain + bodies + self-collision pairs.

use super::body::Body;
use super::self_pairs::SelfPairs;
use crate::error::{Error, Result};
use crate::geom::Shape;
use crate::kinematics::SerialChain;
use crate::math::{Isometry3, Real};

/// A robot: its kinematics, named links, bodies and self-collision pairs.
#[derive(Debug, Clone, PartialEq)]
pub struct RobotModel {
    /// Model name (e.g. `UR5`).
    pub name: String,
    /// Kinematic chain (zero joints for a static body set).
    pub chain: SerialChain,
    /// Link names, index = frame: `link_names[0]` is the base.
    pub link_names: Vec<String>,
    /// Bodies.
    pub bodies: Vec<Body>,
    /// Body pairs checked for self-collision.
    pub self_pairs: SelfPairs,
}

impl RobotModel {
    /// Builds a model and checks it: anchors refer to existing frames, links exist, radii are
    /// finite and non-negative, anchor coordinates finite, names unique.
    pub fn new(
        name: String,
        chain: SerialChain,
        link_names: Vec<String>,
        bodies: Vec<Body>,
        self_pairs: SelfPairs,
    ) -> Result<Self> {
        let frames = chain.dof() + 1;
        let bad = |message: String| Error::File {
            file: format!("robot `{name}`"),
            message,
        };
        if link_names.len() != frames {
            return Err(bad(format!(
                "{} link names for {} frames (base + one per joint)",
                link_names.len(),
                frames
            )));
        }
        for (i, body) in bodies.iter().enumerate() {
            let field = format!("body `{}`", body.name);
            if bodies[..i].iter().any(|b| b.name == body.name) {
                return Err(bad(format!("{field}: duplicate body name")));
            }
            if body.link >= frames {
                return Err(bad(format!(
                    "{field}: link {} does not exist (the robot has links 0..={})",
                    body.link,
                    frames - 1
                )));
            }
            crate::geom::check_radius(&format!("{field} radius"), body.radius())
                .map_err(|e| bad(e.to_string()))?;
            for anchor in body.anchors() {
                if anchor.frame >= frames {
                    return Err(bad(format!(
                        "{field}: frame {} does not exist",
                        anchor.frame
                    )));
                }
                crate::geom::check_point(&field, anchor.at).map_err(|e| bad(e.to_string()))?;
            }
        }
        Ok(Self {
            name,
            chain,
            link_names,
            bodies,
            self_pairs,
        })
    }

    /// Degrees of freedom.
    pub fn dof(&self) -> usize {
        self.chain.dof()
    }

    /// World frames at `q` (validated), as a flat list (base, links…).
    pub fn frames(&self, q: &[Real]) -> Result<Vec<Isometry3>> {
        Ok(self.chain.forward(q)?.frames)
    }

    /// World shapes of all bodies at `q` (validated).
    pub fn world_shapes(&self, q: &[Real]) -> Result<Vec<Shape>> {
        let frames = self.frames(q)?;
        Ok(self.bodies.iter().map(|b| b.world_shape(&frames)).collect())
    }

    /// The link name of a body.
    pub fn link_name(&self, body: usize) -> &str {
        &self.link_names[self.bodies[body].link]
    }
}
