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
    /// The level of detail its generated bodies come from (`None`: bodies written by hand).
    pub level: Option<super::DetailLevel>,
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
        chain.check_lengths().map_err(|e| bad(e.to_string()))?;
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
                .and_then(|r| crate::geom::check_length(&format!("{field} radius"), r))
                .map_err(|e| bad(e.to_string()))?;
            for anchor in body.anchors() {
                if anchor.frame >= frames {
                    return Err(bad(format!(
                        "{field}: frame {} does not exist",
                        anchor.frame
                    )));
                }
                crate::geom::check_point(&field, anchor.at).map_err(|e| bad(e.to_string()))?;
                for (axis, v) in ["x", "y", "z"].iter().zip(anchor.at.iter()) {
                    crate::geom::check_length(&format!("{field}.{axis}"), *v)
                        .map_err(|e| bad(e.to_string()))?;
                }
            }
        }
        Ok(Self {
            name,
            chain,
            link_names,
            bodies,
            self_pairs,
            level: None,
        })
    }

    /// Sampled configurations spread over the joint ranges (limits, else ±π rad or ±1 m),
    /// deterministic: a Kronecker sequence with irrational steps, first sample at mid-range.
    pub fn sample_configurations(&self, count: usize) -> Vec<Vec<Real>> {
        (0..count)
            .map(|k| {
                self.chain
                    .joints
                    .iter()
                    .enumerate()
                    .map(|(j, joint)| {
                        let (lo, hi) = joint.limits.unwrap_or(match joint.kind {
                            crate::kinematics::JointKind::Revolute => {
                                (-std::f64::consts::PI, std::f64::consts::PI)
                            }
                            crate::kinematics::JointKind::Prismatic => (-1.0, 1.0),
                        });
                        let step = ((j + 2) as Real).sqrt().fract();
                        let frac = (0.5 + k as Real * step).fract();
                        lo + (hi - lo) * frac
                    })
                    .collect()
            })
            .collect()
    }

    /// Leaves out default self pairs in contact in every sampled configuration (see
    /// [`SelfPairs`]); pairs of bodies whose link pair is in `keep_links` stay.
    pub fn drop_structural_self_pairs(&mut self, keep_links: &[(usize, usize)]) {
        let samples: Vec<Vec<Shape>> = self
            .sample_configurations(super::self_pairs::STRUCTURAL_SAMPLES)
            .iter()
            .map(|q| {
                let frames = self.chain.forward_unchecked(q).frames;
                self.bodies.iter().map(|b| b.world_shape(&frames)).collect()
            })
            .collect();
        let keep: Vec<(usize, usize)> = self
            .self_pairs
            .pairs
            .iter()
            .copied()
            .filter(|&(i, j)| {
                let (a, b) = (self.bodies[i].link, self.bodies[j].link);
                keep_links
                    .iter()
                    .any(|&(x, y)| (x == a && y == b) || (x == b && y == a))
            })
            .collect();
        self.self_pairs.drop_structural(&keep, |i, j| {
            samples
                .iter()
                .all(|s| crate::query::shape_shape(&s[i], &s[j]).distance <= 0.0)
        });
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
