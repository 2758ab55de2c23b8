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
use crate::geom::Shape;
use crate::math::{Isometry3, Point3, Real};
use crate::query::{Separation, shape_shape};
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
    frames: Vec<Vec<Isometry3>>,
    shapes: Vec<Vec<Shape>>,
    bounds: Vec<Vec<(Point3, Real)>>,
    frames_needed: Vec<usize>,
    pairs: Vec<BodyPair>,
    offsets: Vec<usize>,
}

fn bounding_sphere(shape: &Shape) -> (Point3, Real) {
    match shape {
        Shape::Point(p) => (*p, 0.0),
        Shape::Sphere(s) => (s.center(), s.radius()),
        Shape::Segment(s) => (s.at(0.5), 0.5 * s.length()),
        Shape::Capsule(c) => (c.axis().at(0.5), 0.5 * c.axis().length() + c.radius()),
        // Half-length and radius are the legs of the half-diagonal.
        Shape::Cylinder(c) => (c.axis().at(0.5), (0.5 * c.length()).hypot(c.radius())),
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
                .map(|r| vec![Isometry3::identity(); r.model.dof() + 1])
                .collect(),
            shapes: cell
                .robots
                .iter()
                .map(|r| Vec::with_capacity(r.model.bodies.len()))
                .collect(),
            bounds: cell
                .robots
                .iter()
                .map(|r| Vec::with_capacity(r.model.bodies.len()))
                .collect(),
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
        for (r, robot) in self.cell.robots.iter().enumerate() {
            let chain = &robot.model.chain;
            let needed = self.frames_needed[r].min(chain.dof() + 1);
            let qr = &q[self.offsets[r]..self.offsets[r + 1]];
            let frames = &mut self.frames[r];
            let mut pose = chain.base;
            frames[0] = pose;
            for i in 1..needed {
                pose *= chain.joints[i - 1].transform(chain.convention, qr[i - 1]);
                frames[i] = pose;
            }
            let shapes = &mut self.shapes[r];
            shapes.clear();
            shapes.extend(robot.model.bodies.iter().map(|b| b.world_shape(frames)));
            let bounds = &mut self.bounds[r];
            bounds.clear();
            bounds.extend(shapes.iter().map(bounding_sphere));
        }
    }

    /// World shape of body `b` of robot `r` at the last posed configuration.
    pub fn shape(&self, r: usize, b: usize) -> &Shape {
        &self.shapes[r][b]
    }

    /// Separation of pair `k` at the last posed configuration.
    pub fn separation(&self, k: usize) -> Separation {
        let p = self.pairs[k];
        shape_shape(
            &self.shapes[p.robot_a][p.body_a],
            &self.shapes[p.robot_b][p.body_b],
        )
    }

    /// Lower bound on the distance of pair `k` from bounding spheres.
    #[inline]
    fn lower_bound(&self, k: usize) -> Real {
        let p = self.pairs[k];
        let (ca, ra) = self.bounds[p.robot_a][p.body_a];
        let (cb, rb) = self.bounds[p.robot_b][p.body_b];
        (cb - ca).norm() - ra - rb
    }

    /// The closest pair at the last posed configuration (distance only); `None` if no pairs.
    pub fn closest(&self) -> Option<Closest> {
        let mut best: Option<Closest> = None;
        for k in 0..self.pairs.len() {
            if let Some(b) = best {
                if self.lower_bound(k) >= b.distance {
                    continue;
                }
            }
            let d = self.separation(k).distance;
            if best.is_none_or(|b| d < b.distance) {
                best = Some(Closest {
                    distance: d,
                    pair: k,
                });
            }
        }
        best
    }

    /// Distances of every pair at the last posed configuration, into `out`.
    pub fn pair_distances(&self, out: &mut Vec<Real>) {
        out.clear();
        out.extend((0..self.pairs.len()).map(|k| self.separation(k).distance));
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
