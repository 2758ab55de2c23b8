//! [`CellChecker`]: poses every robot of a cell and checks all body pairs — robot–robot (every
//! body of one robot against every body of another) and self-collision (each model's
//! [`SelfPairs`](crate::robot::SelfPairs)).
//!
//! The minimum search is distance-only with a bounding-sphere lower bound to skip pairs that
//! cannot beat the current best; witness points are computed only for reported pairs.
//! Posing is [`CellPose`]'s job.

use super::pose::CellPose;
use super::report::{CheckReport, Element, PairReport};
use crate::error::{Error, Result};
use crate::geom::Shape;
use crate::math::Real;
use crate::query::{Separation, shape_shape};
use crate::robot::{BodyShape, Cell};

/// One checked pair: `(robot, body)` against `(robot, body)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BodyPair {
    /// Robot of the first body.
    pub robot_a: usize,
    /// First body.
    pub body_a: usize,
    /// Robot of the second body (equal to `robot_a` for a self pair).
    pub robot_b: usize,
    /// Second body.
    pub body_b: usize,
}

/// The closest pair found by [`CellChecker::closest`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Closest {
    /// Signed distance (m).
    pub distance: Real,
    /// Index into [`CellChecker::pairs`].
    pub pair: usize,
}

/// Pair lists and the posing buffers for checking one cell.
#[derive(Debug, Clone)]
pub struct CellChecker<'a> {
    cell: &'a Cell,
    pose: CellPose,
    /// `pairs` as indices into the flat body arrays.
    flat_pairs: Vec<(usize, usize)>,
    /// The same pairs grouped by kind for the distance search: `(a, b, k)` with `k` the index
    /// into `pairs`; in `point_segment` the point (sphere) comes first.
    point_point: Vec<(usize, usize, usize)>,
    point_segment: Vec<(usize, usize, usize)>,
    segment_segment: Vec<(usize, usize, usize)>,
    with_cylinder: Vec<(usize, usize, usize)>,
    pairs: Vec<BodyPair>,
}

/// Independent running minima over the cheap pairs in [`CellChecker::closest`].
const LANES: usize = 4;

impl<'a> CellChecker<'a> {
    /// A checker for `cell`; `include_self` adds each robot's self-collision pairs.
    pub fn new(cell: &'a Cell, include_self: bool) -> Self {
        let mut pairs = Vec::new();
        let n = cell.robots.len();
        for ra in 0..n {
            for rb in ra + 1..n {
                for ba in 0..cell.robots[ra].model.bodies.len() {
                    for bb in 0..cell.robots[rb].model.bodies.len() {
                        pairs.push(BodyPair {
                            robot_a: ra,
                            body_a: ba,
                            robot_b: rb,
                            body_b: bb,
                        });
                    }
                }
            }
        }
        if include_self {
            for (r, robot) in cell.robots.iter().enumerate() {
                for &(i, j) in &robot.model.self_pairs.pairs {
                    pairs.push(BodyPair {
                        robot_a: r,
                        body_a: i,
                        robot_b: r,
                        body_b: j,
                    });
                }
            }
        }
        let pose = CellPose::new(cell);
        let kind = |r: usize, b: usize| match cell.robots[r].model.bodies[b].shape {
            BodyShape::Sphere { .. } => 0,
            BodyShape::Capsule { .. } => 1,
            BodyShape::Cylinder { .. } => 2,
        };
        let mut groups: (Vec<_>, Vec<_>, Vec<_>, Vec<_>) = Default::default();
        for (k, p) in pairs.iter().enumerate() {
            let (a, b) = (
                pose.flat_body(p.robot_a, p.body_a),
                pose.flat_body(p.robot_b, p.body_b),
            );
            match (kind(p.robot_a, p.body_a), kind(p.robot_b, p.body_b)) {
                (0, 0) => groups.0.push((a, b, k)),
                (0, 1) => groups.1.push((a, b, k)),
                (1, 0) => groups.1.push((b, a, k)),
                (1, 1) => groups.2.push((a, b, k)),
                _ => groups.3.push((a, b, k)),
            }
        }
        Self {
            cell,
            point_point: groups.0,
            point_segment: groups.1,
            segment_segment: groups.2,
            with_cylinder: groups.3,
            flat_pairs: pairs
                .iter()
                .map(|p| {
                    (
                        pose.flat_body(p.robot_a, p.body_a),
                        pose.flat_body(p.robot_b, p.body_b),
                    )
                })
                .collect(),
            pose,
            pairs,
        }
    }

    /// Every robot's model, level of detail and self-collision setting, for reports.
    pub fn robot_summaries(&self) -> Vec<super::report::RobotSummary> {
        self.cell
            .robots
            .iter()
            .enumerate()
            .map(|(r, robot)| {
                let model = &robot.model;
                let links = model.tree().links();
                super::report::RobotSummary {
                    label: robot.label.clone(),
                    model: model.name.clone(),
                    level: model.level.map_or("custom".into(), |l| l.name().to_owned()),
                    bodies: model.bodies.len(),
                    self_pairs: self
                        .pairs
                        .iter()
                        .filter(|p| p.robot_a == r && p.robot_b == r)
                        .count(),
                    allowed_link_pairs: model
                        .self_pairs
                        .allowed
                        .iter()
                        .map(|p| super::report::AllowedLinkPair {
                            a: links[p.a].clone(),
                            b: links[p.b].clone(),
                            reason: p.reason.clone(),
                        })
                        .collect(),
                    links_without_bodies: model
                        .links_without_bodies()
                        .into_iter()
                        .map(str::to_owned)
                        .collect(),
                    warnings: model.warnings.clone(),
                }
            })
            .collect()
    }

    /// The cell being checked.
    pub fn cell(&self) -> &'a Cell {
        self.cell
    }

    /// All checked pairs.
    pub fn pairs(&self) -> &[BodyPair] {
        &self.pairs
    }

    /// Total joint count (all robots).
    pub fn dof(&self) -> usize {
        self.pose.dof()
    }

    /// The slice of `q` (all robots concatenated) that belongs to robot `r`.
    pub fn robot_q<'q>(&self, q: &'q [Real], r: usize) -> &'q [Real] {
        self.pose.robot_q(q, r)
    }

    /// Link frames of robot `r` at the last posed configuration (for Jacobians).
    pub fn frames(&self, r: usize) -> &[crate::kinematics::Frame] {
        self.pose.frames(r)
    }

    /// Checks a concatenated configuration: total count, then each robot's values, with the
    /// robot named in the error.
    pub fn validate(&self, q: &[Real]) -> Result<()> {
        if q.len() != self.dof() {
            let per: Vec<String> = self
                .cell
                .robots
                .iter()
                .map(|r| format!("{} has {}", r.label, r.model.dof()))
                .collect();
            return Err(Error::Parse(format!(
                "expected {} joint values ({}), got {}",
                self.dof(),
                per.join(", "),
                q.len()
            )));
        }
        for (r, robot) in self.cell.robots.iter().enumerate() {
            robot
                .model
                .tree()
                .check_configuration(self.robot_q(q, r))
                .map_err(|e| Error::Parse(format!("{}: {e}", robot.label)))?;
        }
        Ok(())
    }

    /// Joint-limit violations, one message per robot and joint.
    pub fn limit_violations(&self, q: &[Real]) -> Vec<String> {
        let mut out = Vec::new();
        for (r, robot) in self.cell.robots.iter().enumerate() {
            let tree = robot.model.tree();
            for (i, v) in self.robot_q(q, r).iter().enumerate() {
                let joint = tree.variable_joint(i);
                if let Some((lo, hi)) = joint.limits {
                    if *v < lo || *v > hi {
                        // In the cell's units, as the user wrote them.
                        let units = &self.cell.units;
                        let kind = tree.variable_kind(i);
                        let scale = units.joint_scale(kind);
                        let unit = units.joint_unit(kind);
                        let show = |x: Real| {
                            let x = x / scale;
                            let r = (x * 1e6).round() / 1e6;
                            if r.abs() < 1e12 {
                                format!("{r}")
                            } else {
                                format!("{x:e}")
                            }
                        };
                        out.push(format!(
                            "{}: joint {}{} = {} {unit} is outside its limits [{}, {}] {unit}",
                            robot.label,
                            i + 1,
                            if joint.name == format!("joint{}", i + 1) {
                                String::new()
                            } else {
                                format!(" ({})", joint.name)
                            },
                            show(*v),
                            show(lo),
                            show(hi)
                        ));
                    }
                }
            }
        }
        out
    }

    /// Poses every body at `q` (not validated: call [`validate`](Self::validate) first on
    /// untrusted input).
    pub fn pose(&mut self, q: &[Real]) {
        self.pose.pose(self.cell, q);
    }

    /// World shape of body `b` of robot `r` at the last posed configuration.
    pub fn shape(&self, r: usize, b: usize) -> Shape {
        self.pose.cores()[self.pose.flat_body(r, b)].shape()
    }

    /// Separation of pair `k` at the last posed configuration.
    pub fn separation(&self, k: usize) -> Separation {
        let (a, b) = self.flat_pairs[k];
        shape_shape(&self.pose.cores()[a].shape(), &self.pose.cores()[b].shape())
    }

    /// `true` if the bodies `a`, `b` cannot be closer than `best`: their bounding spheres are
    /// at least `best` apart (squared comparison).
    #[inline]
    fn cannot_beat(&self, a: usize, b: usize, best: Real) -> bool {
        let ((ca, ra), (cb, rb)) = (
            self.pose.cores()[a].bounding_sphere(),
            self.pose.cores()[b].bounding_sphere(),
        );
        let reach = best + ra + rb;
        reach >= 0.0 && (cb - ca).norm_squared() >= reach * reach
    }

    /// Signed distance of pair `k` at the last posed configuration (no witnesses; same value
    /// as [`separation`](Self::separation), contact rounding included).
    #[inline]
    pub fn distance(&self, k: usize) -> Real {
        let (a, b) = self.flat_pairs[k];
        let (x, y) = (&self.pose.cores()[a], &self.pose.cores()[b]);
        if x.cylinder || y.cylinder {
            return shape_shape(&x.shape(), &y.shape()).distance;
        }
        let d = x.core_distance_squared(y).sqrt() - (x.radius + y.radius);
        if d > 0.0
            && d <= crate::query::separation::CONTACT_ROUNDING * x.magnitude().max(y.magnitude())
        {
            0.0
        } else {
            d
        }
    }

    /// The closest pair at the last posed configuration (distance only); `None` if no pairs.
    ///
    /// Pairs are searched in typed groups — point–point, point–segment, segment–segment
    /// (closed forms on precomputed cores), then any pair with a cylinder (full query, skipped
    /// when bounding spheres cannot beat the best). Distances are compared before contact
    /// rounding; the winner's is rounded.
    pub fn closest(&self) -> Option<Closest> {
        let c = self.pose.cores();
        let mut best = Closest {
            distance: Real::INFINITY,
            pair: usize::MAX,
        };
        // A pair beats the best only if its core distance is below best + radii: compare
        // squares and take the square root only for winners.
        let offer_squared = |best: &mut Closest, core_squared: Real, radii: Real, k: usize| {
            let reach = best.distance + radii;
            if reach > 0.0 && core_squared < reach * reach {
                *best = Closest {
                    distance: core_squared.sqrt() - radii,
                    pair: k,
                };
            }
        };
        // Spheres and sphere–segment pairs are cheap: they go round-robin into independent
        // running minima ("lanes"), so that no single compare-and-select chain serialises the
        // loop; the lanes are merged before the segment pairs.
        let mut lanes = [best; LANES];
        for (i, &(a, b, k)) in self.point_point.iter().enumerate() {
            offer_squared(
                &mut lanes[i % LANES],
                (c[b].start - c[a].start).norm_squared(),
                c[a].radius + c[b].radius,
                k,
            );
        }
        for (i, &(p, s, k)) in self.point_segment.iter().enumerate() {
            let (x, y) = (&c[p], &c[s]);
            let t = ((x.start - y.start).dot(&y.direction) * y.inv_dd).clamp(0.0, 1.0);
            offer_squared(
                &mut lanes[i % LANES],
                (y.start + y.direction * t - x.start).norm_squared(),
                x.radius + y.radius,
                k,
            );
        }
        for lane in lanes {
            if (lane.distance, lane.pair) < (best.distance, best.pair) {
                best = lane;
            }
        }
        for &(a, b, k) in &self.segment_segment {
            let (x, y) = (&c[a], &c[b]);
            let radii = x.radius + y.radius;
            // Skip when even the cores' bounding spheres are too far apart to win.
            let reach = best.distance + radii + x.half_length + y.half_length;
            let centres = (y.start + y.direction * 0.5) - (x.start + x.direction * 0.5);
            if reach <= 0.0 || centres.norm_squared() >= reach * reach {
                continue;
            }
            offer_squared(&mut best, x.core_distance_squared(y), radii, k);
        }
        let offer = |best: &mut Closest, d: Real, k: usize| {
            if d < best.distance {
                *best = Closest {
                    distance: d,
                    pair: k,
                };
            }
        };
        for &(a, b, k) in &self.with_cylinder {
            if !self.cannot_beat(a, b, best.distance) {
                offer(
                    &mut best,
                    shape_shape(&c[a].shape(), &c[b].shape()).distance,
                    k,
                );
            }
        }
        if best.pair == usize::MAX {
            return None;
        }
        // Contact rounding for the winner (as `query` applies it), from its cores.
        let (a, b) = self.flat_pairs[best.pair];
        if best.distance > 0.0 && !(c[a].cylinder || c[b].cylinder) {
            let magnitude = c[a].magnitude().max(c[b].magnitude());
            if best.distance <= crate::query::separation::CONTACT_ROUNDING * magnitude {
                best.distance = 0.0;
            }
        }
        Some(best)
    }

    /// Distances of every pair at the last posed configuration, into `out`.
    pub fn pair_distances(&self, out: &mut Vec<Real>) {
        out.clear();
        out.extend((0..self.pairs.len()).map(|k| self.distance(k)));
    }

    /// The named element of body `b` of robot `r`.
    pub fn element(&self, r: usize, b: usize) -> Element {
        let robot = &self.cell.robots[r];
        let body = &robot.model.bodies[b];
        Element {
            label: format!("{}-{}", robot.label, body.name),
            robot: robot.label.clone(),
            body: body.name.clone(),
            link: robot.model.link_name(b).to_owned(),
            kind: body.kind(),
        }
    }

    /// Full report of pair `k` at the last posed configuration.
    pub fn pair_report(&self, k: usize) -> PairReport {
        let p = self.pairs[k];
        PairReport::new(
            self.element(p.robot_a, p.body_a),
            self.element(p.robot_b, p.body_b),
            &self.separation(k),
        )
    }

    /// Validates, poses and reports: the closest pair and every pair within `threshold`.
    pub fn check(&mut self, q: &[Real], threshold: Real) -> Result<CheckReport> {
        self.validate(q)?;
        self.pose(q);
        let mut close: Vec<PairReport> = Vec::new();
        let mut closest: Option<PairReport> = None;
        for k in 0..self.pairs.len() {
            let report = self.pair_report(k);
            if report.distance <= threshold || report.distance <= 0.0 {
                close.push(report.clone());
            }
            if closest
                .as_ref()
                .is_none_or(|c| report.distance < c.distance)
            {
                closest = Some(report);
            }
        }
        close.sort_by(|a, b| a.distance.total_cmp(&b.distance));
        Ok(CheckReport {
            collision: close.iter().any(|p| p.distance <= 0.0),
            closest,
            close_pairs: close,
            threshold,
            pairs_checked: self.pairs.len(),
            robots: self.robot_summaries(),
        })
    }
}
