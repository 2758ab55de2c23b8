//! [`CellChecker`]: poses every robot of a cell and checks all body pairs — robot–robot (every
//! body of one robot against every body of another) and self-collision (each model's
//! [`SelfPairs`](crate::robot::SelfPairs)).
//!
//! The minimum search is distance-only with a bounding-sphere lower bound to skip pairs that
//! cannot beat the current best; witness points are computed only for reported pairs.
//! Forward kinematics stops at the last frame any body uses (the standard model needs
//! frames 0–3 only).

use super::report::{CheckReport, Element, PairReport};
use crate::error::{Error, Result};
use crate::geom::{Capsule, Segment, Shape, Sphere};
use crate::math::{Matrix3, Point3, Real, Vector3};
use crate::query::segment_segment::closest_parameters;
use crate::query::{Separation, distance_only, shape_shape};
use crate::robot::BodyShape;
use crate::robot::Cell;

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

/// Reusable buffers and pair lists for checking one cell.
#[derive(Debug, Clone)]
pub struct CellChecker<'a> {
    cell: &'a Cell,
    /// World frames as (rotation matrix, translation): one `sin_cos` per joint to update.
    frames: Vec<Vec<(Matrix3, Vector3)>>,
    /// `(sin α, cos α)` per robot and joint.
    twists: Vec<Vec<(Real, Real)>>,
    /// Distance cores of the posed bodies of all robots, flat (robot `r`'s start at
    /// `first_body[r]`).
    cores: Vec<Core>,
    first_body: Vec<usize>,
    /// `pairs` as indices into the flat arrays.
    flat_pairs: Vec<(usize, usize)>,
    frames_needed: Vec<usize>,
    pairs: Vec<BodyPair>,
    offsets: Vec<usize>,
}

/// A posed body reduced to what the distance search needs: its core segment (a point has
/// `dd = 0`), radius and bounding sphere. Cylinders are flagged and use the full query.
#[derive(Debug, Clone, Copy)]
struct Core {
    start: Point3,
    direction: Vector3,
    /// `|direction|²`.
    dd: Real,
    radius: Real,
    center: Point3,
    bound: Real,
    cylinder: bool,
}

impl Core {
    /// The core of a body whose anchors are at `start` and `end` (equal for a sphere).
    #[inline]
    fn new(start: Point3, end: Point3, radius: Real, cylinder: bool) -> Self {
        let direction = end - start;
        let dd = direction.norm_squared();
        let half = 0.5 * dd.sqrt();
        // A cylinder's half-length and radius are the legs of its bounding half-diagonal.
        let bound = if cylinder {
            half.hypot(radius)
        } else {
            half + radius
        };
        Self {
            start,
            direction,
            dd,
            radius,
            center: start + direction * 0.5,
            bound,
            cylinder,
        }
    }

    /// The world shape (built only when a report needs it).
    fn shape(&self) -> Shape {
        let end = self.start + self.direction;
        if self.cylinder {
            if let Ok(c) = crate::geom::Cylinder::new(self.start, end, self.radius) {
                return Shape::Cylinder(c);
            }
        } else if self.dd > 0.0 {
            return Shape::Capsule(Capsule::from_finite(
                Segment::from_finite(self.start, end),
                self.radius,
            ));
        }
        Shape::Sphere(Sphere::from_finite(self.start, self.radius))
    }

    /// Distance between the cores (not yet minus radii).
    #[inline]
    fn core_distance(&self, other: &Core) -> Real {
        let (s, t) = closest_parameters(
            &self.start,
            &self.direction,
            self.dd,
            &other.start,
            &other.direction,
            other.dd,
        );
        ((other.start + other.direction * t) - (self.start + self.direction * s)).norm()
    }
}

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
        let mut offsets = vec![0];
        for r in &cell.robots {
            offsets.push(offsets.last().copied().unwrap_or(0) + r.model.dof());
        }
        let mut first_body = vec![0];
        for r in &cell.robots {
            first_body.push(first_body.last().copied().unwrap_or(0) + r.model.bodies.len());
        }
        let frames_needed = cell
            .robots
            .iter()
            .map(|r| {
                r.model
                    .bodies
                    .iter()
                    .flat_map(|b| b.anchors().map(|a| a.frame))
                    .max()
                    .map_or(1, |m| m + 1)
            })
            .collect();
        Self {
            cell,
            frames: cell
                .robots
                .iter()
                .map(|r| vec![(Matrix3::identity(), Vector3::zeros()); r.model.dof() + 1])
                .collect(),
            twists: cell
                .robots
                .iter()
                .map(|r| {
                    r.model
                        .chain
                        .joints
                        .iter()
                        .map(|j| j.alpha.sin_cos())
                        .collect()
                })
                .collect(),
            cores: Vec::with_capacity(first_body[cell.robots.len()]),
            flat_pairs: pairs
                .iter()
                .map(|p| {
                    (
                        first_body[p.robot_a] + p.body_a,
                        first_body[p.robot_b] + p.body_b,
                    )
                })
                .collect(),
            first_body,
            frames_needed,
            pairs,
            offsets,
        }
    }

    /// The cell.
    pub fn cell(&self) -> &'a Cell {
        self.cell
    }

    /// All checked pairs.
    pub fn pairs(&self) -> &[BodyPair] {
        &self.pairs
    }

    /// Total joint count (all robots).
    pub fn dof(&self) -> usize {
        *self.offsets.last().unwrap_or(&0)
    }

    /// The slice of `q` (all robots concatenated) that belongs to robot `r`.
    pub fn robot_q<'q>(&self, q: &'q [Real], r: usize) -> &'q [Real] {
        &q[self.offsets[r]..self.offsets[r + 1]]
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
                .chain
                .check_configuration(self.robot_q(q, r))
                .map_err(|e| Error::Parse(format!("{}: {e}", robot.label)))?;
        }
        Ok(())
    }

    /// Joint-limit violations, one message per robot and joint.
    pub fn limit_violations(&self, q: &[Real]) -> Vec<String> {
        let mut out = Vec::new();
        for (r, robot) in self.cell.robots.iter().enumerate() {
            for (i, (joint, v)) in robot
                .model
                .chain
                .joints
                .iter()
                .zip(self.robot_q(q, r))
                .enumerate()
            {
                if let Some((lo, hi)) = joint.limits {
                    if *v < lo || *v > hi {
                        out.push(format!(
                            "{}: joint {} = {v} is outside its limits [{lo}, {hi}]",
                            robot.label,
                            i + 1
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
        self.cores.clear();
        for (r, robot) in self.cell.robots.iter().enumerate() {
            let chain = &robot.model.chain;
            let needed = self.frames_needed[r].min(chain.dof() + 1);
            let qr = &q[self.offsets[r]..self.offsets[r + 1]];
            let frames = &mut self.frames[r];
            let (mut rot, mut pos) = (
                chain.base.rotation.to_rotation_matrix().into_inner(),
                chain.base.translation.vector,
            );
            frames[0] = (rot, pos);
            for i in 1..needed {
                let (jr, jt) = chain.joints[i - 1].matrix_transform(
                    chain.convention,
                    self.twists[r][i - 1],
                    qr[i - 1],
                );
                pos += rot * jt;
                rot *= jr;
                frames[i] = (rot, pos);
            }
            let frames = &*frames;
            let world = |anchor: &crate::robot::Anchor| {
                let (fr, ft) = &frames[anchor.frame];
                Point3::from(fr * anchor.at.coords + ft)
            };
            self.cores
                .extend(robot.model.bodies.iter().map(|body| match &body.shape {
                    BodyShape::Sphere { center, radius } => {
                        let p = world(center);
                        Core::new(p, p, *radius, false)
                    }
                    BodyShape::Capsule { a, b, radius } => {
                        Core::new(world(a), world(b), *radius, false)
                    }
                    BodyShape::Cylinder { a, b, radius } => {
                        Core::new(world(a), world(b), *radius, true)
                    }
                }));
        }
    }

    /// World shape of body `b` of robot `r` at the last posed configuration.
    pub fn shape(&self, r: usize, b: usize) -> Shape {
        self.cores[self.first_body[r] + b].shape()
    }

    /// Separation of pair `k` at the last posed configuration.
    pub fn separation(&self, k: usize) -> Separation {
        let (a, b) = self.flat_pairs[k];
        shape_shape(&self.cores[a].shape(), &self.cores[b].shape())
    }

    /// `true` if the bodies `a`, `b` cannot be closer than `best`: their bounding spheres are
    /// at least `best` apart (squared comparison, no square root).
    #[inline]
    fn cannot_beat(&self, a: usize, b: usize, best: Real) -> bool {
        let (x, y) = (&self.cores[a], &self.cores[b]);
        let reach = best + x.bound + y.bound;
        reach >= 0.0 && (y.center - x.center).norm_squared() >= reach * reach
    }

    /// Signed distance of pair `k` at the last posed configuration (no witnesses).
    #[inline]
    pub fn distance(&self, k: usize) -> Real {
        let (a, b) = self.flat_pairs[k];
        distance_only(&self.cores[a].shape(), &self.cores[b].shape())
    }

    /// The closest pair at the last posed configuration (distance only); `None` if no pairs.
    ///
    /// Skips every pair whose bounding spheres cannot beat the best so far. Distances are
    /// compared before contact rounding; the winner's is rounded.
    pub fn closest(&self) -> Option<Closest> {
        let mut best = Closest {
            distance: Real::INFINITY,
            pair: usize::MAX,
        };
        for (k, &(a, b)) in self.flat_pairs.iter().enumerate() {
            if self.cannot_beat(a, b, best.distance) {
                continue;
            }
            let (x, y) = (&self.cores[a], &self.cores[b]);
            let d = if x.cylinder || y.cylinder {
                shape_shape(&x.shape(), &y.shape()).distance
            } else {
                x.core_distance(y) - (x.radius + y.radius)
            };
            if d < best.distance {
                best = Closest {
                    distance: d,
                    pair: k,
                };
            }
        }
        (best.pair != usize::MAX).then(|| Closest {
            distance: self.distance(best.pair),
            pair: best.pair,
        })
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
        })
    }
}
