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
use crate::query::segment_segment::{Reciprocal, closest_parameters_by};
use crate::query::{Separation, shape_shape};
use crate::robot::Cell;
use crate::robot::{Body, BodyShape};

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
    /// Base placements as (rotation matrix, translation).
    bases: Vec<(Matrix3, Vector3)>,
    /// Distance cores of the posed bodies of all robots, flat (robot `r`'s start at
    /// `first_body[r]`).
    cores: Vec<Core>,
    first_body: Vec<usize>,
    /// `pairs` as indices into the flat arrays.
    flat_pairs: Vec<(usize, usize)>,
    /// The same pairs grouped by kind for the distance search: `(a, b, k)` with `k` the index
    /// into `pairs`; in `point_segment` the point (sphere) comes first.
    point_point: Vec<(usize, usize, usize)>,
    point_segment: Vec<(usize, usize, usize)>,
    segment_segment: Vec<(usize, usize, usize)>,
    with_cylinder: Vec<(usize, usize, usize)>,
    frames_needed: Vec<usize>,
    /// Per body (flat), the core's length terms when they do not depend on the joints (both
    /// anchors on one frame, or frame origins a rigid link apart): no division or square
    /// root per pose.
    fixed_lengths: Vec<Option<CoreLength>>,
    /// Scratch: `((sin θ, cos θ), d)` of the joints being posed.
    angles: Vec<((Real, Real), Real)>,
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
    /// `1 / dd`, or 0 for a point (so that a projection parameter becomes 0).
    inv_dd: Real,
    radius: Real,
    /// `|direction| / 2` (bounding-sphere radius of the core).
    half_length: Real,
    cylinder: bool,
}

/// The length terms of a core segment: `|d|²`, its reciprocal (0 for a point) and `|d|/2`.
#[derive(Debug, Clone, Copy)]
struct CoreLength {
    dd: Real,
    inv_dd: Real,
    half_length: Real,
}

impl CoreLength {
    fn of(dd: Real) -> Self {
        Self {
            dd,
            inv_dd: if dd > 0.0 { 1.0 / dd } else { 0.0 },
            half_length: 0.5 * dd.sqrt(),
        }
    }
}

/// Relative spread of a body's squared length over sampled configurations below which the
/// length counts as joint-invariant (rounding only).
const INVARIANT_LENGTH: Real = 1e-13;

/// The length terms of `body`'s core if they do not depend on the joints: both anchors on
/// one frame, or a spread within rounding over a few sampled configurations (frame origins of
/// a revolute link are a fixed distance apart).
fn invariant_length(chain: &crate::kinematics::SerialChain, body: &Body) -> Option<CoreLength> {
    let (a, b) = match &body.shape {
        BodyShape::Sphere { .. } => return None,
        BodyShape::Capsule { a, b, .. } | BodyShape::Cylinder { a, b, .. } => (a, b),
    };
    if a.frame == b.frame {
        return Some(CoreLength::of((b.at - a.at).norm_squared()));
    }
    let samples: Vec<Real> = (0..8)
        .map(|k| {
            let q: Vec<Real> = (0..chain.dof())
                .map(|j| 2.5 * (1.7 * k as Real + 0.9 * j as Real + 0.3).sin())
                .collect();
            let frames = chain.forward_unchecked(&q).frames;
            (frames[b.frame] * b.at - frames[a.frame] * a.at).norm_squared()
        })
        .collect();
    let (low, high) = samples
        .iter()
        .fold((Real::INFINITY, 0.0), |(l, h): (Real, Real), &v| {
            (l.min(v), h.max(v))
        });
    (high - low <= INVARIANT_LENGTH * high).then(|| CoreLength::of(samples[0]))
}

impl Core {
    /// The core of a body whose anchors are at `start` and `end` (equal for a sphere), with
    /// its length terms if they are known in advance.
    #[inline]
    fn new(
        start: Point3,
        end: Point3,
        radius: Real,
        cylinder: bool,
        length: Option<CoreLength>,
    ) -> Self {
        let direction = end - start;
        let CoreLength {
            dd,
            inv_dd,
            half_length,
        } = length.unwrap_or_else(|| CoreLength::of(direction.norm_squared()));
        Self {
            start,
            direction,
            dd,
            inv_dd,
            radius,
            half_length,
            cylinder,
        }
    }

    /// Largest absolute coordinate plus radius (the scale of the contact rounding).
    fn magnitude(&self) -> Real {
        self.start
            .coords
            .amax()
            .max((self.start + self.direction).coords.amax())
            + self.radius
    }

    /// The core of a sphere: a point (no square root or division needed).
    #[inline]
    fn point(center: Point3, radius: Real) -> Self {
        Self {
            start: center,
            direction: Vector3::zeros(),
            dd: 0.0,
            inv_dd: 0.0,
            radius,
            half_length: 0.0,
            cylinder: false,
        }
    }

    /// Bounding sphere `(centre, radius)`; a cylinder's half-length and radius are the legs of
    /// its bounding half-diagonal.
    fn bounding_sphere(&self) -> (Point3, Real) {
        let half = self.half_length;
        let bound = if self.cylinder {
            half.hypot(self.radius)
        } else {
            half + self.radius
        };
        (self.start + self.direction * 0.5, bound)
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

    /// Squared distance between the cores (radii not subtracted).
    #[inline]
    fn core_distance_squared(&self, other: &Core) -> Real {
        let (s, t) = closest_parameters_by(
            &self.start,
            &self.direction,
            Reciprocal(self.inv_dd),
            &other.start,
            &other.direction,
            Reciprocal(other.inv_dd),
        );
        ((other.start + other.direction * t) - (self.start + self.direction * s)).norm_squared()
    }
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
        let mut offsets = vec![0];
        for r in &cell.robots {
            offsets.push(offsets.last().copied().unwrap_or(0) + r.model.dof());
        }
        let mut first_body = vec![0];
        for r in &cell.robots {
            first_body.push(first_body.last().copied().unwrap_or(0) + r.model.bodies.len());
        }
        let kind = |r: usize, b: usize| match cell.robots[r].model.bodies[b].shape {
            BodyShape::Sphere { .. } => 0,
            BodyShape::Capsule { .. } => 1,
            BodyShape::Cylinder { .. } => 2,
        };
        let mut groups: (Vec<_>, Vec<_>, Vec<_>, Vec<_>) = Default::default();
        for (k, p) in pairs.iter().enumerate() {
            let (a, b) = (
                first_body[p.robot_a] + p.body_a,
                first_body[p.robot_b] + p.body_b,
            );
            match (kind(p.robot_a, p.body_a), kind(p.robot_b, p.body_b)) {
                (0, 0) => groups.0.push((a, b, k)),
                (0, 1) => groups.1.push((a, b, k)),
                (1, 0) => groups.1.push((b, a, k)),
                (1, 1) => groups.2.push((a, b, k)),
                _ => groups.3.push((a, b, k)),
            }
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
            bases: cell
                .robots
                .iter()
                .map(|r| {
                    (
                        r.model
                            .chain
                            .base
                            .rotation
                            .to_rotation_matrix()
                            .into_inner(),
                        r.model.chain.base.translation.vector,
                    )
                })
                .collect(),
            point_point: groups.0,
            point_segment: groups.1,
            segment_segment: groups.2,
            with_cylinder: groups.3,
            flat_pairs: pairs
                .iter()
                .map(|p| {
                    (
                        first_body[p.robot_a] + p.body_a,
                        first_body[p.robot_b] + p.body_b,
                    )
                })
                .collect(),
            fixed_lengths: cell
                .robots
                .iter()
                .flat_map(|r| {
                    r.model
                        .bodies
                        .iter()
                        .map(|b| invariant_length(&r.model.chain, b))
                })
                .collect(),
            first_body,
            frames_needed,
            angles: Vec::new(),
            pairs,
            offsets,
        }
    }

    /// Every robot's model and level of detail, for reports.
    pub fn robot_summaries(&self) -> Vec<super::report::RobotSummary> {
        self.cell
            .robots
            .iter()
            .map(|r| super::report::RobotSummary {
                label: r.label.clone(),
                model: r.model.name.clone(),
                level: r
                    .model
                    .level
                    .map_or("custom".into(), |l| format!("{l:?}").to_lowercase()),
                bodies: r.model.bodies.len(),
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
                        // In the cell's units, as the user wrote them.
                        let units = &self.cell.units;
                        let scale = crate::robot::joint_scale(joint, units);
                        let unit = units.joint_unit(joint.kind);
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
                            "{}: joint {} = {} {unit} is outside its limits [{}, {}] {unit}",
                            robot.label,
                            i + 1,
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
        self.cores.clear();
        for (r, robot) in self.cell.robots.iter().enumerate() {
            let chain = &robot.model.chain;
            let needed = self.frames_needed[r].min(chain.dof() + 1);
            let qr = &q[self.offsets[r]..self.offsets[r + 1]];
            let frames = &mut self.frames[r];
            // Every joint's sine and cosine first (independent calls that can overlap), then
            // the dependent chain of products.
            let angles = &mut self.angles;
            angles.clear();
            angles.extend(
                chain.joints[..needed - 1]
                    .iter()
                    .zip(qr)
                    .map(|(joint, &qi)| {
                        let (theta, d) = joint.theta_d(qi);
                        (theta.sin_cos(), d)
                    }),
            );
            let (mut rot, mut pos) = self.bases[r];
            frames[0] = (rot, pos);
            for i in 1..needed {
                let (sin_cos, d) = angles[i - 1];
                let (jr, jt) = chain.joints[i - 1].matrix_transform_at(
                    chain.convention,
                    self.twists[r][i - 1],
                    sin_cos,
                    d,
                );
                pos += rot * jt;
                rot *= jr;
                frames[i] = (rot, pos);
            }
            let frames = &*frames;
            let world = |anchor: &crate::robot::Anchor| {
                let (fr, ft) = &frames[anchor.frame];
                // Most anchors are frame origins (seed 000): no rotation needed.
                if anchor.at == Point3::origin() {
                    Point3::from(*ft)
                } else {
                    Point3::from(fr * anchor.at.coords + ft)
                }
            };
            let lengths = &self.fixed_lengths[self.first_body[r]..];
            self.cores.extend(
                robot
                    .model
                    .bodies
                    .iter()
                    .zip(lengths)
                    .map(|(body, length)| match &body.shape {
                        BodyShape::Sphere { center, radius } => Core::point(world(center), *radius),
                        BodyShape::Capsule { a, b, radius } => {
                            Core::new(world(a), world(b), *radius, false, *length)
                        }
                        BodyShape::Cylinder { a, b, radius } => {
                            Core::new(world(a), world(b), *radius, true, *length)
                        }
                    }),
            );
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
    /// at least `best` apart (squared comparison).
    #[inline]
    fn cannot_beat(&self, a: usize, b: usize, best: Real) -> bool {
        let ((ca, ra), (cb, rb)) = (
            self.cores[a].bounding_sphere(),
            self.cores[b].bounding_sphere(),
        );
        let reach = best + ra + rb;
        reach >= 0.0 && (cb - ca).norm_squared() >= reach * reach
    }

    /// Signed distance of pair `k` at the last posed configuration (no witnesses; same value
    /// as [`separation`](Self::separation), contact rounding included).
    #[inline]
    pub fn distance(&self, k: usize) -> Real {
        let (a, b) = self.flat_pairs[k];
        let (x, y) = (&self.cores[a], &self.cores[b]);
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
        let c = &self.cores;
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
