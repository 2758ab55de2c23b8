//! Levels of detail generated from a DH chain and radii (seed 000 §2.1, Figure 2.1).
//!
//! - **Standard** (seed 000): spheres `S1..S4` at the origins of frames 0–3 (base and joints
//!   1–3) and capsules `C1..C3` between consecutive origins.
//! - **Precise**: the standard bodies, continued over every joint (`S1..Sn+1`, `C1..Cn`), plus a
//!   sphere at the tool point and a capsule from the last origin to it when the tool frame is
//!   offset. Contains the standard model (it includes it body for body).
//! - **Simplified**: three capsules only, `C1..C3` between the same origins, each with radius
//!   `max(r(S_k), r(C_k), r(S_k+1))`, so each contains the standard capsule and both end spheres:
//!   fewer, larger primitives that enclose the standard model.
//!
//! Radii come from two lists, `sphere_radii` (index = frame; one more for the tool) and
//! `capsule_radii` (index = link − 1; one more for the tool capsule); each level uses the prefix
//! it needs.

use super::body::{Anchor, Body, BodyShape};
use crate::error::{Error, Result};
use crate::kinematics::SerialChain;
use crate::math::{Point3, Real};

/// A level of detail.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DetailLevel {
    /// Three enclosing capsules.
    Simplified,
    /// Four spheres and three capsules (seed 000).
    Standard,
    /// Spheres and capsules over every joint and the tool.
    Precise,
}

impl DetailLevel {
    /// The name used in files and reports: `simplified`, `standard` or `precise`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Simplified => "simplified",
            Self::Standard => "standard",
            Self::Precise => "precise",
        }
    }
}

impl std::str::FromStr for DetailLevel {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "simplified" => Ok(Self::Simplified),
            "standard" => Ok(Self::Standard),
            "precise" => Ok(Self::Precise),
            _ => Err(Error::Parse(format!(
                "unknown level of detail `{s}`: expected simplified, standard or precise"
            ))),
        }
    }
}

fn need(list: &str, radii: &[Real], count: usize, level: DetailLevel) -> Result<()> {
    if radii.len() < count {
        return Err(Error::Parse(format!(
            "the {} level needs {count} {list} (got {}); list them in [geometry] {list}",
            level.name(),
            radii.len()
        )));
    }
    Ok(())
}

/// The bodies of `level` for `chain`.
pub fn detail_bodies(
    chain: &SerialChain,
    level: DetailLevel,
    sphere_radii: &[Real],
    capsule_radii: &[Real],
) -> Result<Vec<Body>> {
    let n = chain.dof();
    let linked = |k: usize| Body {
        name: format!("C{k}"),
        link: k,
        shape: BodyShape::Capsule {
            a: Anchor::origin(k - 1),
            b: Anchor::origin(k),
            radius: capsule_radii[k - 1],
        },
    };
    let sphere = |k: usize, radius: Real| Body {
        name: format!("S{}", k + 1),
        link: k,
        shape: BodyShape::Sphere {
            center: Anchor::origin(k),
            radius,
        },
    };
    let mut bodies = Vec::new();
    match level {
        DetailLevel::Standard | DetailLevel::Simplified if n < 3 => {
            return Err(Error::Parse(format!(
                "the {} level needs at least 3 joints, the chain has {n}",
                level.name()
            )));
        }
        DetailLevel::Standard => {
            need("sphere_radii", sphere_radii, 4, level)?;
            need("capsule_radii", capsule_radii, 3, level)?;
            bodies.extend((0..4).map(|k| sphere(k, sphere_radii[k])));
            bodies.extend((1..=3).map(linked));
        }
        DetailLevel::Simplified => {
            need("sphere_radii", sphere_radii, 4, level)?;
            need("capsule_radii", capsule_radii, 3, level)?;
            for k in 1..=3 {
                let radius = sphere_radii[k - 1]
                    .max(capsule_radii[k - 1])
                    .max(sphere_radii[k]);
                bodies.push(Body {
                    shape: BodyShape::Capsule {
                        a: Anchor::origin(k - 1),
                        b: Anchor::origin(k),
                        radius,
                    },
                    ..linked(k)
                });
            }
        }
        DetailLevel::Precise => {
            let tool = chain.tool.translation.vector;
            let has_tool = tool.norm() > 0.0;
            need(
                "sphere_radii",
                sphere_radii,
                n + 1 + usize::from(has_tool),
                level,
            )?;
            need(
                "capsule_radii",
                capsule_radii,
                n + usize::from(has_tool),
                level,
            )?;
            bodies.extend((0..=n).map(|k| sphere(k, sphere_radii[k])));
            bodies.extend((1..=n).map(linked));
            if has_tool {
                let at = Point3::from(tool);
                bodies.push(Body {
                    name: format!("S{}", n + 2),
                    link: n,
                    shape: BodyShape::Sphere {
                        center: Anchor { frame: n, at },
                        radius: sphere_radii[n + 1],
                    },
                });
                bodies.push(Body {
                    name: format!("C{}", n + 1),
                    link: n,
                    shape: BodyShape::Capsule {
                        a: Anchor::origin(n),
                        b: Anchor { frame: n, at },
                        radius: capsule_radii[n],
                    },
                });
            }
        }
    }
    Ok(bodies)
}
