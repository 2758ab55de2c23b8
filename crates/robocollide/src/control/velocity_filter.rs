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
//! only the others'), and a pair on one robot (self-collision) combines both Jacobians in the
//! same columns. Protected links and seed 002's protected chains (what is constrained, what is
//! optimised, the stiffness rule) are described in [`super::protection`].
//!
//! **Constraint forms.** [`ConstraintForm::Damped`] is the bound above.
//! [`ConstraintForm::Literal`] is seed 002's own: the distance covered in one control period
//! must not exceed the distance, `Δt · nᵀ(J_a − J_b) q̇ ≤ D − d_s`, with `n` from body a towards
//! body b so that `nᵀ(J_a − J_b) q̇` is the *approach* speed (the seed leaves the sign implicit
//! and writes a strict `<`; SEED-NOTES 002). `d_s = 0` is the seed verbatim; a positive `d_s`
//! keeps a margin. Both are first-order predictions: after an Euler step along a curved motion
//! the pair can end slightly closer than predicted.
//!
//! If the QP is infeasible or the solver fails, the result is the safest command available —
//! the optimised joints stop (given joints keep their commanded motion, which the filter does
//! not control) — with the status saying why; never NaN.

use super::box_qp::{QpStatus, solve_box_qp};
use super::protection::{JointRole, Protections};
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
    /// Which bound limits the closing speed.
    pub form: ConstraintForm,
}

/// The bound on a constrained pair's closing speed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ConstraintForm {
    /// `ξ (d − d_s)/(d_i − d_s)`: the velocity damper (the default).
    #[default]
    Damped,
    /// `(d − d_s)/Δt`: seed 002's constraint, `Δt · nᵀJq̇ ≤ D` for `d_s = 0`.
    Literal,
}

impl FilterSettings {
    /// The largest closing speed allowed for a pair at distance `d`.
    pub fn bound(&self, d: Real) -> Real {
        match self.form {
            ConstraintForm::Damped => {
                self.max_approach * (d - self.safety) / (self.influence - self.safety)
            }
            ConstraintForm::Literal => (d - self.safety) / self.dt,
        }
    }
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
    /// Solver outcome; for `Infeasible` and `Failed`, `qdot` is the stop command (optimised
    /// joints 0, given joints as commanded).
    pub status: QpStatus,
    /// Every pair within the influence distance, with its bound and speeds.
    pub pairs: Vec<ActivePair>,
}

/// One step's QP: `minimise ½‖x − x̂‖²  subject to  rows · x ≤ h,  lo ≤ x ≤ hi`, over the
/// optimised joints (in configuration order).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FilterQp {
    /// Desired velocities of the optimised joints.
    pub x_hat: Vec<Real>,
    /// One row per constrained pair: its closing speed per optimised joint velocity.
    pub rows: Vec<Vec<Real>>,
    /// The pairs' allowed closing speeds, less the given joints' closing speed.
    pub h: Vec<Real>,
    /// Lower bounds (speed and position limits).
    pub lo: Vec<Real>,
    /// Upper bounds.
    pub hi: Vec<Real>,
}

/// The filter for one cell.
#[derive(Debug, Clone)]
pub struct VelocityFilter<'a> {
    checker: CellChecker<'a>,
    settings: FilterSettings,
    moving: Vec<bool>,
    protections: Protections,
    /// Role of every configuration entry (all robots, concatenated).
    roles: Vec<JointRole>,
    last_qp: FilterQp,
    /// Every body's named element, built once (formatting them per step cost ~10 % of NAO's).
    elements: Vec<Vec<Element>>,
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
        let protections = Protections::default();
        let checker = CellChecker::new(cell, include_self);
        let elements = cell
            .robots
            .iter()
            .enumerate()
            .map(|(r, robot)| {
                (0..robot.model.bodies.len())
                    .map(|b| checker.element(r, b))
                    .collect()
            })
            .collect();
        Ok(Self {
            checker,
            elements,
            settings,
            roles: protections.roles(cell, &moving),
            moving,
            protections,
            last_qp: FilterQp::default(),
        })
    }

    /// Protects the group `group` of robot `robot` (an SRDF `<group>`, e.g. NAO's `LArm`)
    /// against the rest of the robot and the other robots (seed 002). With `stiff`, the QP
    /// optimises the chain's joints and the robot's other joints move as commanded; without,
    /// the chain moves as commanded (imposed from outside) and the robot's other joints are
    /// optimised instead. Call once per chain; errors name an unknown robot or group.
    pub fn protect_chain(&mut self, robot: &str, group: &str, stiff: bool) -> Result<()> {
        let cell = self.checker.cell();
        self.protections.protect_chain(cell, robot, group, stiff)?;
        self.roles = self.protections.roles(cell, &self.moving);
        Ok(())
    }

    /// Makes protected chain `group` of robot `robot` (or a part of a protected group, like
    /// `LArm` of `Arms`) stiff or not (seed 002's stiffness rule); errors name a chain that is
    /// not protected.
    pub fn set_stiff(&mut self, robot: &str, group: &str, stiff: bool) -> Result<()> {
        let cell = self.checker.cell();
        self.protections.set_stiff(cell, robot, group, stiff)?;
        self.roles = self.protections.roles(cell, &self.moving);
        Ok(())
    }

    /// The role of every configuration entry (all robots, concatenated).
    pub fn roles(&self) -> &[JointRole] {
        &self.roles
    }

    /// The smallest distance over the pairs the filter constrains (at any distance), at the
    /// configuration of the last [`step`](Self::step) or [`pose`](Self::pose), with the pair's
    /// index in the checker; `None` without such pairs.
    pub fn closest_constrained(&self) -> Option<(Real, usize)> {
        let cell = self.checker.cell();
        (0..self.checker.pairs().len())
            .filter(|&k| {
                let p = self.checker.pairs()[k];
                self.protections
                    .constrains(cell, (p.robot_a, p.body_a), (p.robot_b, p.body_b))
            })
            .map(|k| (self.checker.distance(k), k))
            .min_by(|x, y| x.0.total_cmp(&y.0))
    }

    /// Poses the cell at `q` (validated) without filtering.
    pub fn pose(&mut self, q: &[Real]) -> Result<()> {
        self.checker.validate(q)?;
        self.checker.pose(q);
        Ok(())
    }

    /// The checker the filter measures with.
    pub fn checker(&self) -> &CellChecker<'a> {
        &self.checker
    }

    /// Protects only the named links of robot `robot` (seed 002: a protected chain against the
    /// rest of the body and the other robots): afterwards only pairs with at least one body on
    /// a protected link are constrained. Call once per robot with protected links; errors name
    /// an unknown robot or link.
    pub fn protect_links(&mut self, robot: &str, links: &[&str]) -> Result<()> {
        let cell = self.checker.cell();
        self.protections.protect_links(cell, robot, links)
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
        // Variables: the optimised joints; column of each configuration entry.
        let mut column = vec![None; q.len()];
        let mut n = 0;
        for (c, role) in column.iter_mut().zip(&self.roles) {
            if *role == JointRole::Optimised {
                *c = Some(n);
                n += 1;
            }
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
            if !self
                .protections
                .constrains(cell, (p.robot_a, p.body_a), (p.robot_b, p.body_b))
            {
                continue;
            }
            let sep = self.checker.separation(k);
            let radius = |r: usize, b: usize| match cell.robots[r].model.bodies[b].shape {
                BodyShape::Cylinder { .. } | BodyShape::Box { .. } | BodyShape::Plane { .. } => 0.0,
                _ => cell.robots[r].model.bodies[b].radius(),
            };
            let core_a = sep.point_a - sep.normal * radius(p.robot_a, p.body_a);
            let core_b = sep.point_b + sep.normal * radius(p.robot_b, p.body_b);
            // The closing speed per configuration entry; optimised entries form the row, given
            // ones a known closing speed.
            let mut full = vec![0.0; q.len()];
            for (r, body, point, sign) in [
                (p.robot_a, p.body_a, core_a, 1.0),
                (p.robot_b, p.body_b, core_b, -1.0),
            ] {
                if !self.moving[r] {
                    continue;
                }
                for (j, jc) in self.core_jacobian(r, body, &point).iter().enumerate() {
                    full[offsets[r] + j] += sign * sep.normal.dot(jc);
                }
            }
            let mut row = vec![0.0; n];
            let mut given_speed = 0.0;
            for (i, x) in full.iter().enumerate() {
                match (column[i], self.roles[i]) {
                    (Some(c), _) => row[c] = *x,
                    (None, JointRole::Given) => given_speed += x * qdot_des[i],
                    _ => {}
                }
            }
            // A pair whose distance no joint can change (a shoulder ball turning above the
            // table it stands on) gives a zero row: nothing to filter, and with the pair inside
            // the safety distance it would make the problem infeasible and stop the robots.
            if row.iter().all(|x| x.abs() <= ZERO_ROW) {
                continue;
            }
            let bound = s.bound(sep.distance);
            rows.push(row);
            h.push(bound - given_speed);
            labels.push((k, sep.distance, bound, given_speed));
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
            qdot[i] = match (c, self.roles[i]) {
                (Some(c), _) => x[*c],
                (None, JointRole::Given) => qdot_des[i],
                _ => 0.0,
            };
        }
        let pairs = labels
            .iter()
            .zip(&rows)
            .map(|(&(k, distance, bound, given_speed), row)| {
                let speed =
                    |v: &[Real]| given_speed + row.iter().zip(v).map(|(a, b)| a * b).sum::<Real>();
                let p = self.checker.pairs()[k];
                let filtered_speed = speed(&x);
                ActivePair {
                    a: self.elements[p.robot_a][p.body_a].clone(),
                    b: self.elements[p.robot_b][p.body_b].clone(),
                    distance,
                    bound,
                    desired_speed: speed(&x_hat),
                    filtered_speed,
                    active: status == QpStatus::Solved
                        && filtered_speed >= bound - 1e-6 * (1.0 + bound.abs()),
                }
            })
            .collect();
        self.last_qp = FilterQp {
            x_hat,
            rows,
            h,
            lo,
            hi,
        };
        Ok(FilterResult {
            qdot,
            status,
            pairs,
        })
    }

    /// The QP of the last [`step`](Self::step) (over the optimised joints, unit weights), for
    /// inspection and as the problem a reference solver can be given.
    pub fn last_qp(&self) -> &FilterQp {
        &self.last_qp
    }
}
