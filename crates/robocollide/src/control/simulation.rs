//! Closed-loop simulation of robots driven towards goal configurations, with or without the
//! velocity filter: each period, a saturated proportional command `q̇_des = K (q_goal − q)`
//! (clipped to the joint speed limit) is filtered (or not), then integrated with explicit Euler
//! (`q ← q + q̇ Δt`). Used by `robocollide avoid` and the tests.

use super::box_qp::QpStatus;
use super::velocity_filter::{FilterSettings, VelocityFilter};
use crate::collision::CellChecker;
use crate::error::Result;
use crate::math::Real;
use crate::robot::Cell;

/// One simulated period.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct SimulationStep {
    /// Time (s).
    pub t: Real,
    /// Minimum distance over all checked pairs (m).
    pub distance: Real,
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
/// `protect` lists protected chains as `(robot label, link names)` (see
/// [`VelocityFilter::protect_links`]); empty: every pair is protected.
#[allow(clippy::too_many_arguments)]
pub fn simulate(
    cell: &Cell,
    include_self: bool,
    moving: &[bool],
    protect: &[(String, Vec<String>)],
    start: &[Real],
    goal: &[Real],
    gain: Real,
    settings: FilterSettings,
    duration: Real,
    filter: bool,
) -> Result<Vec<SimulationStep>> {
    let moving = super::velocity_filter::expand_moving_flags(cell, moving.to_vec())?;
    let mut velocity_filter = VelocityFilter::new(cell, include_self, moving.clone(), settings)?;
    for (robot, links) in protect {
        velocity_filter
            .protect_links(robot, &links.iter().map(String::as_str).collect::<Vec<_>>())?;
    }
    let mut checker = CellChecker::new(cell, include_self);
    checker.validate(start)?;
    checker.validate(goal)?;
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
        checker.pose(&q);
        let distance = checker.closest().map_or(Real::INFINITY, |c| c.distance);
        out.push(SimulationStep {
            t: k as Real * settings.dt,
            distance,
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
