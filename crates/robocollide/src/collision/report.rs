//! Serializable results of a check: named elements, pair reports, check reports.

use serde::Serialize;

use crate::math::Real;
use crate::query::Separation;

/// One body of one robot, named as in seed 000 (`R1-S2`) and by link.
#[derive(Debug, Clone, PartialEq, Serialize)]
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
    pub kind: &'static str,
}

/// The distance between two elements.
#[derive(Debug, Clone, PartialEq, Serialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RobotSummary {
    /// Label in the cell (`R1`).
    pub label: String,
    /// Model name (`UR5`).
    pub model: String,
    /// `simplified`, `standard` or `precise`; `custom` for bodies written by hand.
    pub level: String,
    /// Number of bodies checked.
    pub bodies: usize,
}

impl RobotSummary {
    /// One line for people: `R1 UR5 (precise, 14 bodies)`.
    pub fn line(&self) -> String {
        format!(
            "{} {} ({}, {} bodies)",
            self.label, self.model, self.level, self.bodies
        )
    }

    /// `models: R1 UR5 (precise, 13 bodies), R2 …` for a report's robots.
    pub fn models_line(robots: &[RobotSummary]) -> String {
        let each: Vec<String> = robots.iter().map(RobotSummary::line).collect();
        format!("models: {}", each.join(", "))
    }
}

/// Result of checking one configuration of a cell.
#[derive(Debug, Clone, PartialEq, Serialize)]
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
