//! Serializable results of a check: named elements, pair reports, check reports.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::math::Real;
use crate::query::Separation;

/// One body of one robot, named as in seed 000 (`R1-S2`) and by link.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Element {
    /// `"{robot}-{body}"`, e.g. `R1-S2`.
    pub label: String,
    /// Robot label in the cell.
    pub robot: String,
    /// Body name.
    pub body: String,
    /// Link the body belongs to.
    pub link: String,
    /// `sphere`, `capsule` or `cylinder`.
    pub kind: Cow<'static, str>,
}

/// The distance between two elements.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairReport {
    /// Signed distance (m): `<= 0` is contact.
    pub distance: Real,
    /// e.g. `sphere-capsule` (first element's kind first).
    pub pair_type: String,
    /// First element.
    pub a: Element,
    /// Second element.
    pub b: Element,
    /// Witness point on `a` (world, m).
    pub point_a: [Real; 3],
    /// Witness point on `b`.
    pub point_b: [Real; 3],
    /// Unit normal from `a` to `b`.
    pub normal: [Real; 3],
}

impl PairReport {
    /// A report from a separation between two elements.
    pub fn new(a: Element, b: Element, s: &Separation) -> Self {
        Self {
            distance: s.distance,
            pair_type: format!("{}-{}", a.kind, b.kind),
            a,
            b,
            point_a: s.point_a.coords.into(),
            point_b: s.point_b.coords.into(),
            normal: s.normal.into(),
        }
    }
}

/// Which model a robot of the cell is, and at which level of detail it is checked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RobotSummary {
    /// Label in the cell (`R1`).
    pub label: String,
    /// Model name (`UR5`).
    pub model: String,
    /// `simplified`, `standard` or `precise`; `urdf` for a URDF's collision bodies, `custom`
    /// for bodies written by hand.
    pub level: String,
    /// Number of bodies checked.
    pub bodies: usize,
    /// Body pairs of this robot checked for self-collision (0 when self pairs are off).
    pub self_pairs: usize,
    /// Link pairs allowed to touch (never checked), with the reason (`adjacent`, the SRDF's).
    pub allowed_link_pairs: Vec<AllowedLinkPair>,
    /// Links with no collision body.
    pub links_without_bodies: Vec<String>,
    /// What the model reader could not represent exactly (e.g. skipped mesh geometry).
    pub warnings: Vec<String>,
    /// Pairs of this robot's bodies with other elements that the cell allows to touch
    /// (`mounted_on`, `[[allowed]]`): `R1-C1 – W-table (mounted on \`table\`)`.
    pub allowed_with_others: Vec<String>,
}

/// Two links allowed to touch, by name, and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AllowedLinkPair {
    /// First link.
    pub a: String,
    /// Second link.
    pub b: String,
    /// Why the pair is not checked.
    pub reason: String,
}

impl RobotSummary {
    /// One line for people: `R1 UR5 (precise, 14 bodies)`.
    pub fn line(&self) -> String {
        format!(
            "{} {} ({}, {} bodies)",
            self.label, self.model, self.level, self.bodies
        )
    }

    /// One line on the robot's self-collision setting and warnings, for people, if there is
    /// anything to say: `R1 self pairs: 1 234 body pairs checked, 34 link pairs allowed
    /// (Adjacent 8, Never 26); links without bodies: panda_link8`.
    pub fn self_line(&self) -> Option<String> {
        if self.self_pairs == 0
            && self.allowed_link_pairs.is_empty()
            && self.warnings.is_empty()
            && self.allowed_with_others.is_empty()
        {
            return None;
        }
        let mut reasons: Vec<(String, usize)> = Vec::new();
        for pair in &self.allowed_link_pairs {
            match reasons.iter_mut().find(|(r, _)| *r == pair.reason) {
                Some((_, n)) => *n += 1,
                None => reasons.push((pair.reason.clone(), 1)),
            }
        }
        let reasons: Vec<String> = reasons.iter().map(|(r, n)| format!("{r} {n}")).collect();
        let mut line = format!(
            "{} self pairs: {} body pairs checked, {} link pairs allowed",
            self.label,
            self.self_pairs,
            self.allowed_link_pairs.len(),
        );
        if !reasons.is_empty() {
            line += &format!(" ({})", reasons.join(", "));
        }
        if !self.links_without_bodies.is_empty() {
            line += &format!(
                "; links without bodies: {}",
                self.links_without_bodies.join(", ")
            );
        }
        if !self.allowed_with_others.is_empty() {
            line += &format!("; allowed: {}", self.allowed_with_others.join("; "));
        }
        for warning in &self.warnings {
            line += &format!("\n  warning: {warning}");
        }
        Some(line)
    }

    /// `models: R1 UR5 (precise, 13 bodies), R2 …` for a report's robots.
    pub fn models_line(robots: &[RobotSummary]) -> String {
        let each: Vec<String> = robots.iter().map(RobotSummary::line).collect();
        format!("models: {}", each.join(", "))
    }
}

/// Result of checking one configuration of a cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckReport {
    /// `true` if any checked pair is in contact.
    pub collision: bool,
    /// The closest pair overall (robot–robot and self), if any pair was checked.
    pub closest: Option<PairReport>,
    /// Every pair with distance `<= threshold`, closest first (all contacts included).
    pub close_pairs: Vec<PairReport>,
    /// The threshold used (m).
    pub threshold: Real,
    /// Number of body pairs checked.
    pub pairs_checked: usize,
    /// The robots and the level of detail each was checked at.
    pub robots: Vec<RobotSummary>,
}
