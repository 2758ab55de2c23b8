//! What the velocity filter constrains and what it optimises: protected links and seed 002's
//! protected chains, and the role of every joint.
//!
//! - Without protections every pair is constrained and every joint of a moving robot is
//!   optimised.
//! - [`Protections::protect_links`]: only pairs with a body on a protected link are
//!   constrained.
//! - [`Protections::protect_chain`] (seed 002, NAO's `LArm`, `RArm`, `Arms`): a named group of a
//!   robot is protected against the rest of the robot and the other robots — pairs with a body
//!   on the chain are constrained, never two bodies of the same chain. The QP runs over the
//!   chains' joints only (the seed minimises over `[LShoulderPitch … LWristYaw]`); the robot's
//!   other joints move as commanded (*given*: their motion enters each constraint as a known
//!   closing speed). The seed's stiffness rule: a chain that is *not stiff* (moved from outside,
//!   e.g. pushed by a person) keeps its given velocities, and the robot's stiff joints are
//!   optimised instead, so the rest of the body gets out of the way.

use crate::error::{Error, Result};
use crate::robot::Cell;

/// How a joint's velocity is decided in a filter step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum JointRole {
    /// A variable of the QP.
    Optimised,
    /// Moves as commanded; its motion enters the constraints as a known closing speed.
    Given,
    /// Does not move (a robot held still).
    Held,
}

/// Which protection a link has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Protection {
    None,
    /// Protected by [`Protections::protect_links`].
    Link,
    /// On protected chain `k`.
    Chain(usize),
}

/// A protected chain: a robot's group and whether it is stiff.
#[derive(Debug, Clone)]
struct ProtectedChain {
    robot: usize,
    name: String,
    variables: Vec<usize>,
    stiff: bool,
}

/// The protections of a cell's links.
#[derive(Debug, Clone, Default)]
pub(crate) struct Protections {
    /// Per robot, per link; `None` until something is protected.
    links: Option<Vec<Vec<Protection>>>,
    chains: Vec<ProtectedChain>,
}

/// The index of the robot labelled `robot`; the error lists the labels.
fn robot_index(cell: &Cell, robot: &str) -> Result<usize> {
    cell.robots
        .iter()
        .position(|x| x.label == robot)
        .ok_or_else(|| {
            Error::Parse(format!(
                "protect: no robot `{robot}` (robots: {})",
                cell.robots
                    .iter()
                    .map(|x| x.label.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })
}

impl Protections {
    fn links_mut(&mut self, cell: &Cell) -> &mut Vec<Vec<Protection>> {
        self.links.get_or_insert_with(|| {
            cell.robots
                .iter()
                .map(|x| vec![Protection::None; x.model.tree().links().len()])
                .collect()
        })
    }

    /// Protects the named links of robot `robot`; errors name an unknown robot or link.
    pub fn protect_links(&mut self, cell: &Cell, robot: &str, links: &[&str]) -> Result<()> {
        let r = robot_index(cell, robot)?;
        let names = cell.robots[r].model.tree().links();
        for link in links {
            let Some(l) = names.iter().position(|n| n == link) else {
                return Err(Error::Parse(format!(
                    "protect: robot {robot} has no link `{link}` (links: {})",
                    names.join(", ")
                )));
            };
            self.links_mut(cell)[r][l] = Protection::Link;
        }
        Ok(())
    }

    /// Protects group `group` of robot `robot`; a group of parts (`Arms`: `LArm`, `RArm`)
    /// protects each part as its own chain, and its other members as one more. Errors name an
    /// unknown robot or group.
    pub fn protect_chain(
        &mut self,
        cell: &Cell,
        robot: &str,
        group: &str,
        stiff: bool,
    ) -> Result<()> {
        let r = robot_index(cell, robot)?;
        let group = cell.robots[r].model.group(group)?;
        let mut links = group.links.clone();
        let mut variables = group.variables.clone();
        for part in &group.parts {
            self.protect_chain(cell, robot, part, stiff)?;
            let part = cell.robots[r].model.group(part)?;
            links.retain(|l| !part.links.contains(l));
            variables.retain(|v| !part.variables.contains(v));
        }
        if links.is_empty() && variables.is_empty() {
            return Ok(());
        }
        let id = self.chains.len();
        for &l in &links {
            self.links_mut(cell)[r][l] = Protection::Chain(id);
        }
        self.chains.push(ProtectedChain {
            robot: r,
            name: group.name.clone(),
            variables,
            stiff,
        });
        Ok(())
    }

    /// Makes the protected chain `group` of robot `robot` (a part of a protected group
    /// included) stiff or not; errors name a chain that is not protected.
    pub fn set_stiff(&mut self, cell: &Cell, robot: &str, group: &str, stiff: bool) -> Result<()> {
        let r = robot_index(cell, robot)?;
        let mut found = false;
        for chain in self
            .chains
            .iter_mut()
            .filter(|c| c.robot == r && c.name == group)
        {
            chain.stiff = stiff;
            found = true;
        }
        if found {
            return Ok(());
        }
        let protected: Vec<&str> = self
            .chains
            .iter()
            .filter(|c| c.robot == r)
            .map(|c| c.name.as_str())
            .collect();
        Err(Error::Parse(format!(
            "{robot}: `{group}` is not a protected chain (protected: {}); protect it (or a group it is part of) first",
            if protected.is_empty() {
                "none".to_owned()
            } else {
                protected.join(", ")
            }
        )))
    }

    /// The role of every configuration entry (all robots concatenated); `moving[r]` says
    /// whether robot `r` moves at all.
    pub fn roles(&self, cell: &Cell, moving: &[bool]) -> Vec<JointRole> {
        let mut roles = Vec::new();
        for (r, robot) in cell.robots.iter().enumerate() {
            let chains: Vec<&ProtectedChain> =
                self.chains.iter().filter(|c| c.robot == r).collect();
            let any_limp = chains.iter().any(|c| !c.stiff);
            let in_chain = |v: usize, stiff: bool| {
                chains
                    .iter()
                    .any(|c| c.stiff == stiff && c.variables.contains(&v))
            };
            for v in 0..robot.model.dof() {
                roles.push(if !moving[r] {
                    JointRole::Held
                } else if chains.is_empty() {
                    JointRole::Optimised
                } else if in_chain(v, false) {
                    // Imposed from outside: moves as commanded.
                    JointRole::Given
                } else if in_chain(v, true) || any_limp {
                    // A stiff chain's joints, or the stiff parts that move for a limp chain.
                    JointRole::Optimised
                } else {
                    JointRole::Given
                });
            }
        }
        roles
    }

    /// Whether the pair of body `a` of robot `ra` and body `b` of robot `rb` is constrained.
    pub fn constrains(
        &self,
        cell: &Cell,
        (ra, a): (usize, usize),
        (rb, b): (usize, usize),
    ) -> bool {
        let Some(links) = &self.links else {
            return true;
        };
        let robots = &cell.robots;
        let (pa, pb) = (
            links[ra][robots[ra].model.bodies[a].link],
            links[rb][robots[rb].model.bodies[b].link],
        );
        match (pa, pb) {
            (Protection::None, Protection::None) => false,
            (Protection::Chain(x), Protection::Chain(y)) => x != y,
            _ => true,
        }
    }
}
