//! [`VelocityFilter`]: the joint velocities closest to the desired ones that keep every close
//! pair of bodies from approaching too fast (seed 002, with the sign and bound of
//! `../shared/SEED-NOTES.md`):
//!
//! `minimise ½ ‖q̇ − q̇_des‖²  subject to, for every pair with d < d_i,`
//! `nᵀ (J_a q̇ − J_b q̇) ≤ ξ (d − d_s) / (d_i − d_s)`,
//! plus `|q̇ⱼ| ≤ v_max` and the position limits over one control period
//! (`(q_min − q)/Δt ≤ q̇ ≤ (q_max − q)/Δt`).
//!
//! `n` is the unit normal from body a to body b and `J_a`, `J_b` the Jacobians of the witness
//! points on the bodies' cores (the capsule axis or sphere centre; for a cylinder the surface
//! witness point), so `nᵀ(v_a − v_b)` is the speed at which the pair closes. `ξ` (m/s) is the
//! approach speed allowed at the influence distance `d_i`; it falls linearly to 0 at the
//! safety distance `d_s` and becomes a separation demand below it (Faverjon & Tournassoud's
//! velocity damper). Robots can be held still (their velocities are 0 and the constraint uses
//! only the others'), a pair on one robot (self-collision) combines both Jacobians in the same
//! columns, and [`VelocityFilter::protect_links`] restricts the constraints to pairs involving
//! protected links (seed 002's protected chains, like NAO's arms against its body).
//!
//! If the QP is infeasible or the solver fails, the result is the safest command available —
//! stop (all velocities 0) — with the status saying why; never NaN.

use super::box_qp::{QpStatus, solve_box_qp};
use crate::collision::{CellChecker, Element};
use crate::error::{Error, Result};
use crate::math::{Point3, Real, Vector3};
use crate::robot::{BodyShape, Cell};

/// One flag per robot of `cell`, from flags for all of them or for all but the trailing
/// robots without joints (set still).
pub(crate) fn expand_moving_flags(cell: &Cell, mut moving: Vec<bool>) -> Result<Vec<bool>> {
    let all = cell.robots.len();
    let jointless_tail = cell
        .robots
        .iter()
        .rev()
        .take_while(|r| r.model.dof() == 0)
        .count();
    if moving.len() < all - jointless_tail || moving.len() > all {
        return Err(Error::LengthMismatch {
            what: "moving flags (one per robot)".into(),
            expected: all,
            got: moving.len(),
        });
    }
    moving.resize(all, false);
    Ok(moving)
}

/// Largest |entry| (m/rad) of a constraint row that counts as zero: no joint moves the pair.
const ZERO_ROW: Real = 1e-12;

/// Parameters of the filter.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct FilterSettings {
    /// Influence distance `d_i` (m): pairs closer than this are constrained.
    pub influence: Real,
    /// Safety distance `d_s` (m), `0 ≤ d_s < d_i`.
    pub safety: Real,
    /// Approach speed `ξ` allowed at `d_i` (m/s).
    pub max_approach: Real,
    /// Control period `Δt` (s), for the position limits.
    pub dt: Real,
    /// Joint speed limit (rad/s or m/s), for every joint.
    pub max_joint_speed: Real,
}

impl FilterSettings {
    fn check(&self) -> Result<()> {
        let bad = |m: String| Err(Error::Parse(m));
        for (name, v) in [
            ("influence", self.influence),
            ("safety", self.safety),
            ("max_approach", self.max_approach),
            ("dt", self.dt),
            ("max_joint_speed", self.max_joint_speed),
        ] {
            if !v.is_finite() || v < 0.0 {
                return bad(format!(
                    "filter setting {name} must be a finite value >= 0, got {v}"
                ));
            }
        }
        if self.influence <= self.safety {
            return bad(format!(
                "the influence distance ({}) must exceed the safety distance ({})",
                self.influence, self.safety
            ));
        }
        if self.dt <= 0.0 {
            return bad(format!("dt must be positive, got {}", self.dt));
        }
        Ok(())
    }
}

/// One constrained pair in a filter step.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ActivePair {
    /// First body.
    pub a: Element,
    /// Second body.
    pub b: Element,
    /// Signed distance (m).
    pub distance: Real,
    /// Allowed closing speed `ξ (d − d_s)/(d_i − d_s)` (m/s).
    pub bound: Real,
    /// Closing speed of the desired velocities (m/s).
    pub desired_speed: Real,
    /// Closing speed of the filtered velocities (m/s).
    pub filtered_speed: Real,
    /// `true` when the bound is reached (the constraint shapes the answer).
    pub active: bool,
}

/// The result of one filter step.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct FilterResult {
    /// Filtered joint velocities of all robots, concatenated (held robots: 0).
    pub qdot: Vec<Real>,
    /// Solver outcome; for `Infeasible` and `Failed`, `qdot` is the stop command (all 0).
    pub status: QpStatus,
    /// Every pair within the influence distance, with its bound and speeds.
    pub pairs: Vec<ActivePair>,
}

/// The filter for one cell.
#[derive(Debug, Clone)]
pub struct VelocityFilter<'a> {
    checker: CellChecker<'a>,
    settings: FilterSettings,
    moving: Vec<bool>,
    /// Protected links per robot (seed 002's protected chains, e.g. NAO's arms); `None`: every
    /// pair is protected.
    protected: Option<Vec<Vec<bool>>>,
}

impl<'a> VelocityFilter<'a> {
    /// A filter for `cell`; `moving[r]` says whether robot `r` is controlled (else held still);
    /// `include_self` adds self-collision pairs. The flags of robots without joints at the end
    /// of the cell (the world's obstacles, `W`) may be left out: they never move.
    pub fn new(
        cell: &'a Cell,
        include_self: bool,
        moving: Vec<bool>,
        settings: FilterSettings,
    ) -> Result<Self> {
        settings.check()?;
        let moving = expand_moving_flags(cell, moving)?;
        Ok(Self {
            checker: CellChecker::new(cell, include_self),
            settings,
            moving,
            protected: None,
        })
    }

    /// Protects only the named links of robot `robot` (seed 002: a protected chain against the
    /// rest of the body and the other robots): afterwards only pairs with at least one body on
    /// a protected link are constrained. Call once per robot with protected links; errors name
    /// an unknown robot or link.
    pub fn protect_links(&mut self, robot: &str, links: &[&str]) -> Result<()> {
        let cell = self.checker.cell();
        let Some(r) = cell.robots.iter().position(|x| x.label == robot) else {
            return Err(Error::Parse(format!("protect: no robot `{robot}`")));
        };
        let names = &cell.robots[r].model.tree().links();
        let protected = self.protected.get_or_insert_with(|| {
            cell.robots
                .iter()
                .map(|x| vec![false; x.model.tree().links().len()])
                .collect()
        });
        for link in links {
            let Some(l) = names.iter().position(|n| n == link) else {
                return Err(Error::Parse(format!(
                    "protect: robot {robot} has no link `{link}` (links: {})",
                    names.join(", ")
                )));
            };
            protected[r][l] = true;
        }
        Ok(())
    }

    fn is_protected(&self, robot: usize, body: usize) -> bool {
        self.protected
            .as_ref()
            .is_none_or(|p| p[robot][self.checker.cell().robots[robot].model.bodies[body].link])
    }

    /// The settings.
    pub fn settings(&self) -> &FilterSettings {
        &self.settings
    }

    /// The Jacobian columns (per robot joint) of the core point nearest `p` on body `b` of
    /// robot `r`, given that robot's frames.
    fn core_jacobian(&self, r: usize, b: usize, p: &Point3) -> Vec<Vector3> {
        let robot = &self.checker.cell().robots[r];
        let frames = self.checker.frames(r);
        let jac = |anchor: &crate::robot::Anchor| {
            let world = anchor.world(frames);
            (
                world,
                robot
                    .model
                    .tree()
                    .point_jacobian(frames, anchor.frame, &world),
            )
        };
        match &robot.model.bodies[b].shape {
            BodyShape::Sphere { center, .. } => jac(center).1,
            // Rigid on one link: the Jacobian of the witness point itself.
            BodyShape::Box { center: on, .. } | BodyShape::Plane { point: on, .. } => {
                robot.model.tree().point_jacobian(frames, on.frame, p)
            }
            BodyShape::Capsule { a, b, .. } | BodyShape::Cylinder { a, b, .. } => {
                let ((pa, ja), (pb, jb)) = (jac(a), jac(b));
                let d = pb - pa;
                let s = if d.norm_squared() > 0.0 {
                    ((p - pa).dot(&d) / d.norm_squared()).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                ja.iter()
                    .zip(&jb)
                    .map(|(x, y)| x * (1.0 - s) + y * s)
                    .collect()
            }
        }
    }

    /// One filter step at configuration `q` for desired velocities `qdot_des` (both for all
    /// robots, concatenated; values of held robots are ignored).
    pub fn step(&mut self, q: &[Real], qdot_des: &[Real]) -> Result<FilterResult> {
        self.checker.validate(q)?;
        if qdot_des.len() != q.len() {
            return Err(Error::LengthMismatch {
                what: "desired velocities (one per joint)".into(),
                expected: q.len(),
                got: qdot_des.len(),
            });
        }
        if let Some((i, v)) = qdot_des.iter().enumerate().find(|(_, v)| !v.is_finite()) {
            return Err(Error::NonFinite {
                field: format!("qdot_des[{i}]"),
                value: *v,
            });
        }
        let cell = self.checker.cell();
        // Variables: the joints of moving robots; column of each (robot, joint).
        let mut column = vec![None; q.len()];
        let mut n = 0;
        let mut offset = 0;
        for (r, robot) in cell.robots.iter().enumerate() {
            for j in 0..robot.model.dof() {
                if self.moving[r] {
                    column[offset + j] = Some(n);
                    n += 1;
                }
            }
            offset += robot.model.dof();
        }
        let offsets: Vec<usize> = cell
            .robots
            .iter()
            .scan(0, |o, r| {
                let start = *o;
                *o += r.model.dof();
                Some(start)
            })
            .collect();
        self.checker.pose(q);
        let s = &self.settings;
        let (mut rows, mut h, mut labels) = (Vec::new(), Vec::new(), Vec::new());
        for k in 0..self.checker.pairs().len() {
            if self.checker.distance(k) >= s.influence {
                continue;
            }
            let p = self.checker.pairs()[k];
            if !self.moving[p.robot_a] && !self.moving[p.robot_b] {
                continue;
            }
            if !self.is_protected(p.robot_a, p.body_a) && !self.is_protected(p.robot_b, p.body_b) {
                continue;
            }
            let sep = self.checker.separation(k);
            let radius = |r: usize, b: usize| match cell.robots[r].model.bodies[b].shape {
                BodyShape::Cylinder { .. } | BodyShape::Box { .. } | BodyShape::Plane { .. } => 0.0,
                _ => cell.robots[r].model.bodies[b].radius(),
            };
            let core_a = sep.point_a - sep.normal * radius(p.robot_a, p.body_a);
            let core_b = sep.point_b + sep.normal * radius(p.robot_b, p.body_b);
            let mut row = vec![0.0; n];
            for (r, body, point, sign) in [
                (p.robot_a, p.body_a, core_a, 1.0),
                (p.robot_b, p.body_b, core_b, -1.0),
            ] {
                if !self.moving[r] {
                    continue;
                }
                for (j, jc) in self.core_jacobian(r, body, &point).iter().enumerate() {
                    if let Some(c) = column[offsets[r] + j] {
                        row[c] += sign * sep.normal.dot(jc);
                    }
                }
            }
            // A pair whose distance no joint can change (a shoulder ball turning above the
            // table it stands on) gives a zero row: nothing to filter, and with the pair inside
            // the safety distance it would make the problem infeasible and stop the robots.
            if row.iter().all(|x| x.abs() <= ZERO_ROW) {
                continue;
            }
            rows.push(row);
            h.push(s.max_approach * (sep.distance - s.safety) / (s.influence - s.safety));
            labels.push((k, sep.distance));
        }
        // Bounds: speed limits and position limits over one period.
        let (mut lo, mut hi, mut x_hat) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
        for (r, robot) in cell.robots.iter().enumerate() {
            for j in 0..robot.model.dof() {
                let joint = robot.model.tree().variable_joint(j);
                let Some(c) = column[offsets[r] + j] else {
                    continue;
                };
                let qj = q[offsets[r] + j];
                let (mut l, mut u) = (-s.max_joint_speed, s.max_joint_speed);
                if let Some((qmin, qmax)) = joint.limits {
                    l = l.max((qmin - qj) / s.dt);
                    u = u.min((qmax - qj) / s.dt);
                }
                lo[c] = l.min(u);
                hi[c] = u;
                x_hat[c] = qdot_des[offsets[r] + j];
            }
        }
        let (solution, status) = solve_box_qp(&vec![1.0; n], &x_hat, &rows, &h, &lo, &hi);
        let x = solution.unwrap_or_else(|| vec![0.0; n]);
        let mut qdot = vec![0.0; q.len()];
        for (i, c) in column.iter().enumerate() {
            if let Some(c) = c {
                qdot[i] = x[*c];
            }
        }
        let pairs = labels
            .iter()
            .zip(rows.iter().zip(&h))
            .map(|(&(k, distance), (row, &bound))| {
                let speed = |v: &[Real]| row.iter().zip(v).map(|(a, b)| a * b).sum::<Real>();
                let p = self.checker.pairs()[k];
                let filtered_speed = speed(&x);
                ActivePair {
                    a: self.checker.element(p.robot_a, p.body_a),
                    b: self.checker.element(p.robot_b, p.body_b),
                    distance,
                    bound,
                    desired_speed: speed(&x_hat),
                    filtered_speed,
                    active: status == QpStatus::Solved
                        && filtered_speed >= bound - 1e-6 * (1.0 + bound.abs()),
                }
            })
            .collect();
        Ok(FilterResult {
            qdot,
            status,
            pairs,
        })
    }
}
