//! [`CellChecker`]: poses every robot of a cell and checks all body pairs — robot–robot (every
//! body of one robot against every body of another), robot–world (the world's obstacles are
//! the bodies of a robot without joints, `W`) and self-collision (each model's
//! [`SelfPairs`](crate::robot::SelfPairs)), minus the pairs the cell allows to touch
//! ([`Cell::allowed`](crate::robot::Cell)).
//!
//! The minimum search is distance-only with a bounding-sphere lower bound to skip pairs that
//! cannot beat the current best; witness points are computed only for reported pairs.
//! Posing is [`CellPose`]'s job.

use super::checker_groups::sphere_gap;
pub use super::pair_search::Closest;
use super::pair_search::{CoreKind, PairSearch};
use super::pose::CellPose;
use super::report::{CheckReport, Element, PairReport};
use crate::error::{Error, Result};
use crate::geom::Shape;
use crate::math::Real;
use crate::query::{Separation, shape_shape};
use crate::robot::{BodyShape, Cell};
use crate::wide::{WideOp, run_wide};

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

/// Pair lists and the posing buffers for checking one cell.
#[derive(Debug, Clone)]
pub struct CellChecker<'a> {
    cell: &'a Cell,
    pub(super) pose: CellPose,
    /// `pairs` as indices into the flat body arrays.
    pub(super) flat_pairs: Vec<(usize, usize)>,
    /// The same pairs sorted for the minimum-distance search.
    pub(super) search: PairSearch,
    pairs: Vec<BodyPair>,
    /// Per pair, whether it is a sphere against a box, half-space or cylinder (see
    /// [`Self::lower_bound_or_distance`]).
    sphere_solid: Vec<bool>,
}

impl<'a> CellChecker<'a> {
    /// A checker for `cell`; `include_self` adds each robot's self-collision pairs.
    pub fn new(cell: &'a Cell, include_self: bool) -> Self {
        let n = cell.robots.len();
        let bodies = |r: usize| cell.robots[r].model.bodies.len();
        let between: usize = (0..n)
            .map(|ra| bodies(ra) * (ra + 1..n).map(bodies).sum::<usize>())
            .sum();
        let own: usize = cell
            .robots
            .iter()
            .map(|r| r.model.self_pairs.pairs.len())
            .sum();
        // (Made at its size: grown from nothing, the ~2 000 pairs of a Panda among a
        // MotionBenchMaker scene were copied eleven times.)
        let mut pairs = Vec::with_capacity(between + if include_self { own } else { 0 });
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
        // Pairs the cell allows to touch (a robot on its table, `[[allowed]]` entries).
        if !cell.allowed.is_empty() {
            pairs.retain(|p| {
                !cell
                    .allowed
                    .iter()
                    .any(|a| a.allows((p.robot_a, p.body_a), (p.robot_b, p.body_b)))
            });
        }
        let pose = CellPose::new(cell);
        let kinds: Vec<CoreKind> = cell
            .robots
            .iter()
            .flat_map(|r| {
                r.model.bodies.iter().map(|b| match b.shape {
                    BodyShape::Sphere { .. } => CoreKind::Point,
                    BodyShape::Capsule { .. } => CoreKind::Segment,
                    BodyShape::Cylinder { .. }
                    | BodyShape::Box { .. }
                    | BodyShape::Plane { .. } => CoreKind::General,
                })
            })
            .collect();
        let flat_pairs: Vec<(usize, usize)> = pairs
            .iter()
            .map(|p| {
                (
                    pose.flat_body(p.robot_a, p.body_a),
                    pose.flat_body(p.robot_b, p.body_b),
                )
            })
            .collect();
        let sphere_solid = flat_pairs
            .iter()
            .map(|&(a, b)| {
                matches!(
                    (kinds[a], kinds[b]),
                    (CoreKind::Point, CoreKind::General) | (CoreKind::General, CoreKind::Point)
                )
            })
            .collect();
        Self {
            cell,
            sphere_solid,
            search: PairSearch::new(&flat_pairs, &kinds, &pose),
            flat_pairs,
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
                    level: match (model.level, model.format) {
                        (Some(level), _) => level.name().to_owned(),
                        (None, crate::robot::ModelFormat::Urdf) => "urdf".into(),
                        (None, crate::robot::ModelFormat::Toml) => "custom".into(),
                        (None, crate::robot::ModelFormat::Obstacles) => "obstacles".into(),
                    },
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
                    allowed_with_others: self
                        .cell
                        .allowed
                        .iter()
                        .filter(|a| a.a.iter().any(|&(x, _)| x == r))
                        .map(|a| {
                            let names = |side: &[(usize, usize)]| {
                                side.iter()
                                    .map(|&(x, b)| self.element(x, b).label)
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            };
                            format!("{} – {} ({})", names(&a.a), names(&a.b), a.reason)
                        })
                        .collect(),
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
        // The usual case first (a planner validates twice per motion check): every value
        // finite and within the length limit is fine for every robot's joints of either kind
        // (as `KinematicTree::check_configuration`'s own first test).
        if q.len() == self.dof() && q.iter().all(|v| v.abs() <= crate::geom::LENGTH_LIMIT) {
            return Ok(());
        }
        if q.len() != self.dof() {
            let per: Vec<String> = self
                .cell
                .robots
                .iter()
                .map(|r| format!("{} has {}", r.label, r.model.dof()))
                .collect();
            return Err(Error::LengthMismatch {
                what: format!("joint values ({})", per.join(", ")),
                expected: self.dof(),
                got: q.len(),
            });
        }
        // Only the robots with joints: an obstacle (a robot without) has no values to check,
        // scenes have dozens, and planners validate twice per motion check.
        for &r in self.pose.moving_robots() {
            let robot = &self.cell.robots[r];
            robot
                .model
                .tree()
                .check_configuration(self.robot_q(q, r))
                .map_err(|e| Error::InRobot {
                    robot: robot.label.clone(),
                    error: Box::new(e),
                })?;
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
                if let Some((lo, hi)) = joint.limits
                    && (*v < lo || *v > hi)
                {
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
        out
    }

    /// Poses every body at `q` (not validated: call [`validate`](Self::validate) first on
    /// untrusted input).
    pub fn pose(&mut self, q: &[Real]) {
        run_wide(PoseAt(self, q, true))
    }

    /// Poses `q`'s frames and group spheres, and the bodies only where the group spheres
    /// need them (`CellPose::pose_groups`): [`Self::pose`] again before reading a body. Not
    /// validated, as [`Self::pose`].
    pub(crate) fn pose_groups(&mut self, q: &[Real]) {
        run_wide(PoseAt(self, q, false))
    }

    /// World shape of body `b` of robot `r` at the last posed configuration.
    pub fn shape(&self, r: usize, b: usize) -> Shape {
        debug_assert!(self.pose.all_placed(), "pose before reading bodies");
        self.pose.shape(self.pose.flat_body(r, b))
    }

    /// Separation of pair `k` at the last posed configuration.
    pub fn separation(&self, k: usize) -> Separation {
        debug_assert!(self.pose.all_placed(), "pose before reading bodies");
        let (a, b) = self.flat_pairs[k];
        shape_shape(&self.pose.shape(a), &self.pose.shape(b))
    }

    /// Signed distance of pair `k` at the last posed configuration (no witnesses; same value
    /// as [`separation`](Self::separation), contact rounding included).
    #[inline]
    pub fn distance(&self, k: usize) -> Real {
        debug_assert!(self.pose.all_placed(), "pose before reading bodies");
        self.pair_distance::<false>(k)
    }

    /// [`Self::distance`] for a contact test: at most 0 exactly when it is, and when positive
    /// a certified lower bound. Only cylinder–box pairs differ (an overlap proven gives 0, not
    /// its depth; an apart pair GJK's first certified gap beyond the contact rounding).
    #[inline(always)]
    pub(crate) fn contact_distance(&self, k: usize) -> Real {
        self.pair_distance::<true>(k)
    }

    /// [`Self::distance`], or with `CONTACT` [`Self::contact_distance`].
    #[inline]
    fn pair_distance<const CONTACT: bool>(&self, k: usize) -> Real {
        let (a, b) = self.flat_pairs[k];
        let (x, y) = (&self.pose.cores()[a], &self.pose.cores()[b]);
        if x.general || y.general {
            // No witnesses needed; a sphere or capsule against a box, or a sphere against a
            // cylinder, goes straight to its kernel.
            if let Some(d) = self.pose.core_solid_distance(a, b) {
                return d;
            }
            let (x, y) = (self.pose.shape(a), self.pose.shape(b));
            return if CONTACT {
                crate::query::shape_shape_contact_distance(&x, &y)
            } else {
                crate::query::shape_shape_distance(&x, &y)
            };
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

    /// The closest pair at the last posed configuration (distance only, contact rounding as
    /// `query` applies it); `None` if there are no pairs. The search is culled by link bounding spheres (see the
    /// `collision::pair_search` module docs).
    pub fn closest(&self) -> Option<Closest> {
        debug_assert!(self.pose.all_placed(), "pose before reading bodies");
        let best = self.search.search(&self.pose, Real::INFINITY, false);
        (best.pair != usize::MAX).then(|| self.rounded(best))
    }

    /// `true` if some pair is in contact at the last posed configuration — the same verdict
    /// as `closest().distance <= 0`, but it stops at the first contact found and never looks
    /// at pairs farther apart than the contact rounding.
    pub fn in_contact(&self) -> bool {
        debug_assert!(self.pose.all_placed(), "pose before reading bodies");
        // The recent contacts' pairs first (a pair's distance, rounding included, is the
        // verdict's rule for one pair).
        let n = self.flat_pairs.len();
        if let Some(k) = self
            .search
            .recent_contact_pairs()
            .find(|&k| k < n && self.contact_distance(k) <= 0.0)
        {
            self.search.remember_contact_pair(k);
            return true;
        }
        self.searched_contact::<false>()
    }

    /// [`Self::in_contact`]'s search over every pair (after the recent contacts' pairs), or
    /// with `WORLD_ONLY` over those that are not a robot's own.
    #[inline(always)]
    pub(super) fn searched_contact<const WORLD_ONLY: bool>(&self) -> bool {
        debug_assert!(self.pose.all_placed(), "pose before reading bodies");
        let window = self.contact_window();
        let best = if WORLD_ONLY {
            self.search.world_contact_search(&self.pose, window)
        } else {
            self.search.search(&self.pose, window, true)
        };
        let contact = best.pair != usize::MAX && self.rounded(best).distance <= 0.0;
        if contact {
            self.search.remember_contact_pair(best.pair);
        }
        contact
    }

    /// The most a contact search's best can be: contact rounding never reaches beyond
    /// `CONTACT_ROUNDING` × the largest coordinate (from the groups' spheres).
    #[inline(always)]
    pub(super) fn contact_window(&self) -> Real {
        2.0 * crate::query::separation::CONTACT_ROUNDING * self.pose.magnitude()
            + Real::MIN_POSITIVE
    }

    /// `best` with contact rounding applied (as `query` does), from its cores.
    pub(super) fn rounded(&self, mut best: Closest) -> Closest {
        let c = self.pose.cores();
        let (a, b) = self.flat_pairs[best.pair];
        if best.distance > 0.0 && !(c[a].general || c[b].general) {
            let magnitude = c[a].magnitude().max(c[b].magnitude());
            if best.distance <= crate::query::separation::CONTACT_ROUNDING * magnitude {
                best.distance = 0.0;
            }
        }
        best
    }

    /// For every pair at the last posed configuration, into `out`: its distance where a cheap
    /// lower bound (the gap between the two cores' bounding spheres) is at most `limits[k]`,
    /// else that lower bound; `exact[k]` says which. Guaranteed sweeps pass each pair's motion
    /// bound as its limit: a lower bound above it certifies the pair as well as the distance
    /// would, and far pairs (a robot's other end, distant obstacles) cost a sphere test.
    pub fn pair_distances_within(
        &self,
        limits: &[Real],
        out: &mut Vec<Real>,
        exact: &mut Vec<bool>,
    ) {
        out.clear();
        exact.clear();
        debug_assert_eq!(limits.len(), self.flat_pairs.len(), "one limit per pair");
        for (k, &limit) in limits.iter().enumerate().take(self.flat_pairs.len()) {
            let (d, is_exact) = self.lower_bound_or_distance(k, limit);
            out.push(d);
            exact.push(is_exact);
        }
    }

    /// Pair `k`'s cores' bounding-sphere gap if it exceeds `limit` (`false`: a lower bound),
    /// else its distance (`true`). A sphere against a box, half-space or cylinder always gets
    /// its distance: its closed form costs little more than the gap, and a solid's bounding
    /// sphere is loose (a shelf's holds the whole shelf), so the gap rarely spares it (on
    /// MotionBenchMaker the test cost 1.7 % of the planner's instructions).
    #[inline]
    fn lower_bound_or_distance(&self, k: usize, limit: Real) -> (Real, bool) {
        if self.sphere_solid[k] {
            return (self.distance(k), true);
        }
        let (a, b) = self.flat_pairs[k];
        let c = self.pose.cores();
        let gap = sphere_gap(c[a].bounding_sphere(), c[b].bounding_sphere());
        if gap > limit {
            (gap, false)
        } else {
            (self.distance(k), true)
        }
    }

    /// Pair `k`'s distance where the gap of its cores' bounding spheres (a lower bound) is at
    /// most `limit`, else that gap: [`pair_distances_within`](Self::pair_distances_within)
    /// for one pair.
    #[inline]
    pub(crate) fn distance_within(&self, k: usize, limit: Real) -> Real {
        self.lower_bound_or_distance(k, limit).0
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
            kind: body.kind().into(),
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
        // Distances first (no witnesses); witnesses and named reports (strings) only for the
        // pairs reported. `distance(k)` equals `separation(k).distance`.
        let mut close: Vec<(usize, Separation)> = Vec::new();
        let mut closest: Option<(usize, Real)> = None;
        for k in 0..self.pairs.len() {
            let d = self.distance(k);
            if d <= threshold || d <= 0.0 {
                close.push((k, self.separation(k)));
            }
            if closest.is_none_or(|c| d < c.1) {
                closest = Some((k, d));
            }
        }
        let closest = closest.map(|(k, _)| (k, self.separation(k)));
        let named = |(k, s): (usize, Separation)| {
            let p = self.pairs[k];
            PairReport::new(
                self.element(p.robot_a, p.body_a),
                self.element(p.robot_b, p.body_b),
                &s,
            )
        };
        let mut close: Vec<PairReport> = close.into_iter().map(named).collect();
        let closest = closest.map(named);
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

/// [`CellChecker::pose`] (with every body) or [`CellChecker::pose_groups`], as [`run_wide`]
/// runs them.
struct PoseAt<'c, 'a, 'q>(&'c mut CellChecker<'a>, &'q [Real], bool);

impl WideOp for PoseAt<'_, '_, '_> {
    type Output = ();

    #[inline(always)]
    fn run(self) {
        if self.2 {
            self.0.pose.pose(self.0.cell, self.1);
        } else {
            self.0.pose.pose_groups(self.0.cell, self.1);
        }
    }
}
