//! Closed-loop simulation of robots driven towards goal configurations, with or without the
//! velocity filter: each period, a saturated proportional command `q̇_des = K (q_goal − q)`
//! (clipped to the joint speed limit) is filtered (or not), then integrated with explicit Euler
//! (`q ← q + q̇ Δt`). Used by `robocollide avoid` and the tests.

use super::box_qp::QpStatus;
use super::velocity_filter::{FilterSettings, VelocityFilter};
use crate::error::Result;
use crate::math::Real;
use crate::robot::Cell;

/// What the filter protects (see [`VelocityFilter::protect_links`] and
/// [`VelocityFilter::protect_chain`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Protect {
    /// Links of a robot: `(robot label, link names)`.
    Links(String, Vec<String>),
    /// A named group of a robot (seed 002's chains): robot label, group name, stiff.
    Chain {
        /// Robot label.
        robot: String,
        /// Group name (`LArm`).
        group: String,
        /// `false`: the chain moves as commanded and the robot's stiff joints avoid.
        stiff: bool,
    },
    /// A protected chain (or a part of a protected group) made not stiff: robot label, group.
    Limp(String, String),
}

/// One simulated period.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SimulationStep {
    /// Time (s).
    pub t: Real,
    /// Minimum distance over the pairs the filter constrains (all checked pairs without
    /// protections) (m).
    pub distance: Real,
    /// The closest such pair, `R1-l_hand / R1-torso` (empty without pairs).
    pub pair: String,
    /// Its index among the pairs of `CellChecker::new(cell, include_self)`.
    pub pair_index: Option<usize>,
    /// The configuration (all robots concatenated, radians / metres).
    pub q: Vec<Real>,
    /// Norm of the commanded joint velocities (rad/s).
    pub speed: Real,
    /// Distance from the goal in joint space (rad).
    pub remaining: Real,
    /// Number of constraints at their bound (0 without the filter).
    pub active: usize,
    /// Solver status (always `Solved` without the filter).
    pub status: QpStatus,
}

/// Runs the loop for `duration` seconds from `start` towards `goal` (all robots concatenated);
/// `filter = false` applies the raw command. `moving[r]` holds robot `r` still when false.
/// `protect` lists what the filter protects; empty: every pair.
#[allow(clippy::too_many_arguments)]
pub fn simulate(
    cell: &Cell,
    include_self: bool,
    moving: &[bool],
    protect: &[Protect],
    start: &[Real],
    goal: &[Real],
    gain: Real,
    settings: FilterSettings,
    duration: Real,
    filter: bool,
) -> Result<Vec<SimulationStep>> {
    let moving = super::velocity_filter::expand_moving_flags(cell, moving.to_vec())?;
    let mut velocity_filter = VelocityFilter::new(cell, include_self, moving.clone(), settings)?;
    for p in protect {
        match p {
            Protect::Links(robot, links) => velocity_filter
                .protect_links(robot, &links.iter().map(String::as_str).collect::<Vec<_>>())?,
            Protect::Chain {
                robot,
                group,
                stiff,
            } => velocity_filter.protect_chain(robot, group, *stiff)?,
            Protect::Limp(robot, group) => velocity_filter.set_stiff(robot, group, false)?,
        }
    }
    velocity_filter.pose(goal)?;
    velocity_filter.pose(start)?;
    let steps = (duration / settings.dt).ceil() as usize;
    let mut q = start.to_vec();
    let mut out = Vec::with_capacity(steps + 1);
    let dofs: Vec<usize> = cell.robots.iter().map(|r| r.model.dof()).collect();
    for k in 0..=steps {
        let mut desired: Vec<Real> = q
            .iter()
            .zip(goal)
            .map(|(a, b)| {
                (gain * (b - a)).clamp(-settings.max_joint_speed, settings.max_joint_speed)
            })
            .collect();
        let mut offset = 0;
        for (r, dof) in dofs.iter().enumerate() {
            if !moving[r] {
                desired[offset..offset + dof]
                    .iter_mut()
                    .for_each(|v| *v = 0.0);
            }
            offset += dof;
        }
        let (qdot, active, status) = if filter {
            let result = velocity_filter.step(&q, &desired)?;
            (
                result.qdot,
                result.pairs.iter().filter(|p| p.active).count(),
                result.status,
            )
        } else {
            (desired, 0, QpStatus::Solved)
        };
        velocity_filter.pose(&q)?;
        let closest = velocity_filter.closest_constrained();
        let checker = velocity_filter.checker();
        let pair = closest.map_or_else(String::new, |(_, k)| {
            let p = checker.pairs()[k];
            format!(
                "{} / {}",
                checker.element(p.robot_a, p.body_a).label,
                checker.element(p.robot_b, p.body_b).label
            )
        });
        out.push(SimulationStep {
            t: k as Real * settings.dt,
            distance: closest.map_or(Real::INFINITY, |c| c.0),
            pair,
            pair_index: closest.map(|c| c.1),
            q: q.clone(),
            speed: qdot.iter().map(|v| v * v).sum::<Real>().sqrt(),
            remaining: q
                .iter()
                .zip(goal)
                .map(|(a, b)| (a - b) * (a - b))
                .sum::<Real>()
                .sqrt(),
            active,
            status,
        });
        for (qi, v) in q.iter_mut().zip(&qdot) {
            *qi += v * settings.dt;
        }
    }
    Ok(out)
}
