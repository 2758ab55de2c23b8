//! [`MotionBound`]: how far any point of a body can move along a joint-space segment.
//!
//! A point anchored in frame `f` moves, for joint velocities `q̇`, at speed
//! `|Σᵢ Jᵢ q̇ᵢ| ≤ Σᵢ Rᵢ |q̇ᵢ|` (i ≤ f), where `Rᵢ` bounds its distance from joint `i`'s axis for a
//! revolute joint (`Rᵢ = 1` for a prismatic one). With `Lⱼ = |aⱼ| + |dⱼ|` (plus the prismatic
//! stroke) bounding the distance between consecutive frame origins in either DH convention,
//! `Rᵢ = Σⱼ₌ᵢ..f Lⱼ + |p|` for local coordinates `p`. Integrating along the straight segment
//! `q(s) = qa + s (qb − qa)` gives the displacement bound `Σᵢ Rᵢ |qbᵢ − qaᵢ|`, valid for every
//! `s ∈ [0, 1]` (Schwarzer, Saha & Latombe, *Adaptive dynamic collision checking for single
//! and multiple articulated robots in complex environments*, IEEE T-RO 21(3), 2005). A capsule
//! or cylinder point is a convex combination of its anchors, so the body's bound is the
//! largest of its anchors' bounds; a box's points are within its half-diagonal of its
//! anchored centre, which is added to `|p|`.
//!
//! Two bodies of one robot move *relative to each other* only by the joints beyond the lowest
//! frame `m` either is anchored to: joints `1..=m` move both rigidly, which leaves their
//! distance unchanged. So a self-collision pair's clearance drops by at most the two bodies'
//! bounds summed over joints `m + 1 ..` only ([`MotionBound::self_pair`]), often far less
//! than their world bounds (a wrist's bodies hardly move relative to each other when the
//! shoulder swings).

use crate::kinematics::{JointKind, MotionOrder};
use crate::math::Real;
use crate::robot::{Cell, RobotModel};

/// Per-robot, per-body motion bounds of a cell.
#[derive(Debug, Clone)]
pub struct MotionBound {
    robots: Vec<RobotBound>,
}

/// What the bound needs of one joint.
#[derive(Debug, Clone, Copy)]
struct JointTerm {
    /// `|origin translation|`: the static distance between parent and child origins.
    length: Real,
    /// `None` for a fixed joint.
    kind: Option<JointKind>,
    order: MotionOrder,
    /// `v = multiplier · q[variable] + offset` (unused for fixed joints).
    variable: usize,
    multiplier: Real,
    offset: Real,
}

impl JointTerm {
    #[inline]
    fn value(&self, q: &[Real]) -> Real {
        self.multiplier * q[self.variable] + self.offset
    }

    /// Adds this joint's term to a point's bound walking from the tip down: `reach` is the
    /// point's distance bound from the joint's frame origin so far, `total` the bound so far.
    #[inline]
    fn add_term(&self, qa: &[Real], qb: &[Real], reach: &mut Real, total: &mut Real) {
        if self.kind.is_none() {
            *reach += self.length;
            return;
        }
        let (va, vb) = (self.value(qa), self.value(qb));
        let step = (vb - va).abs();
        match (self.kind, self.order) {
            (Some(JointKind::Prismatic), _) => {
                *total += step;
                *reach += self.length + va.abs().max(vb.abs());
            }
            (_, MotionOrder::OriginThenMotion) => {
                *total += step * *reach;
                *reach += self.length;
            }
            (_, MotionOrder::MotionThenOrigin) => {
                *reach += self.length;
                *total += step * *reach;
            }
        }
    }
}

#[derive(Debug, Clone)]
struct RobotBound {
    joints: Vec<JointTerm>,
    /// For each body, its anchors as `(path of joints root → link, |p|)`.
    anchors: Vec<Vec<(Vec<usize>, Real)>>,
    /// Start of each body's entries in a suffix table ([`RobotBound::suffixes`]; one more
    /// entry: the table's length). Body `b` has one entry per position `0..=n` of the path
    /// its anchors share (`n` their common prefix).
    suffix_start: Vec<usize>,
}

impl RobotBound {
    fn new(model: &RobotModel) -> Self {
        let tree = model.tree();
        let joints = tree
            .joints()
            .iter()
            .enumerate()
            .map(|(index, j)| {
                let drive = tree.drive(index);
                let (variable, multiplier, offset) = drive.unwrap_or((0, 0.0, 0.0));
                JointTerm {
                    length: j.origin.translation.vector.norm(),
                    kind: j.kind.filter(|_| drive.is_some()),
                    order: j.order,
                    variable,
                    multiplier,
                    offset,
                }
            })
            .collect();
        let mut bound = Self {
            joints,
            suffix_start: Vec::new(),
            anchors: model
                .bodies
                .iter()
                .map(|b| {
                    // A box's points lie within its half-diagonal of its centre. (Half-spaces
                    // exist only on the world, which never moves: they add nothing.)
                    let extent = match b.shape {
                        crate::robot::BodyShape::Box { half_extents, .. } => half_extents.norm(),
                        _ => 0.0,
                    };
                    b.anchors()
                        .map(|a| (tree.path_to(a.frame), a.at.coords.norm() + extent))
                        .collect()
                })
                .collect(),
        };
        let mut start = 0;
        for b in 0..bound.anchors.len() {
            bound.suffix_start.push(start);
            start += bound.common_prefix(&[b]) + 1;
        }
        bound.suffix_start.push(start);
        bound
    }

    /// For every body `b` and path position `p` it shares, its bound counting only the joints
    /// at positions `p..` (so `body(b, p, …)`), into `out` at `suffix_start[b] + p`: each
    /// anchor's path walked once from the tip down, its running sums recorded on the way.
    fn suffixes(&self, qa: &[Real], qb: &[Real], out: &mut Vec<Real>) {
        out.clear();
        out.resize(self.suffix_start[self.anchors.len()], 0.0);
        for (body, anchors) in self.anchors.iter().enumerate() {
            let (start, end) = (self.suffix_start[body], self.suffix_start[body + 1]);
            let shared = end - start - 1;
            for (path, local) in anchors {
                let mut reach = *local;
                let mut total = 0.0;
                for (position, &j) in path.iter().enumerate().rev() {
                    self.joints[j].add_term(qa, qb, &mut reach, &mut total);
                    if position <= shared {
                        let slot = &mut out[start + position];
                        *slot = slot.max(total);
                    }
                }
            }
        }
    }

    /// Joints shared by every anchor path of the given bodies (a common prefix): they move
    /// all those anchors rigidly together.
    fn common_prefix(&self, bodies: &[usize]) -> usize {
        let mut paths = bodies
            .iter()
            .flat_map(|&b| self.anchors[b].iter().map(|(path, _)| path.as_slice()));
        let Some(first) = paths.next() else { return 0 };
        paths.fold(first.len(), |n, p| {
            n.min(first.iter().zip(p).take_while(|(x, y)| x == y).count())
        })
    }

    /// Relative displacement bound of bodies `a` and `b` of this robot along `qa → qb`.
    fn self_pair(&self, a: usize, b: usize, qa: &[Real], qb: &[Real]) -> Real {
        let first = self.common_prefix(&[a, b]);
        self.body(a, first, qa, qb) + self.body(b, first, qa, qb)
    }

    /// Bounds for the segment `qa → qb`, one per body, into `out`.
    fn bodies(&self, qa: &[Real], qb: &[Real], out: &mut Vec<Real>) {
        out.clear();
        out.extend((0..self.anchors.len()).map(|b| self.body(b, 0, qa, qb)));
    }

    /// Bound of `body` counting only the joints at path positions `first..`.
    fn body(&self, body: usize, first: usize, qa: &[Real], qb: &[Real]) -> Real {
        let mut worst: Real = 0.0;
        for (path, local) in &self.anchors[body] {
            // Σ over moving joints of |Δvⱼ| Rⱼ, with Rⱼ the reach from joint j's axis to the
            // point, accumulated from the tip down.
            let mut reach = *local;
            let mut total = 0.0;
            for &j in path.iter().skip(first).rev() {
                self.joints[j].add_term(qa, qb, &mut reach, &mut total);
            }
            worst = worst.max(total);
        }
        worst
    }
}

impl MotionBound {
    /// Precomputes the bounds' static parts for every robot of `cell`.
    pub fn new(cell: &Cell) -> Self {
        Self {
            robots: cell
                .robots
                .iter()
                .map(|r| RobotBound::new(&r.model))
                .collect(),
        }
    }

    /// Displacement bounds of every body of robot `r` along `qa → qb` (that robot's joints).
    pub fn bodies(&self, r: usize, qa: &[Real], qb: &[Real], out: &mut Vec<Real>) {
        self.robots[r].bodies(qa, qb, out);
    }

    /// Robot `r`'s suffix table along `qa → qb` into `out`: see [`Self::suffix_index`].
    pub(crate) fn suffixes(&self, r: usize, qa: &[Real], qb: &[Real], out: &mut Vec<Real>) {
        self.robots[r].suffixes(qa, qb, out);
    }

    /// Where a suffix table holds body `b`'s bound counting only the joints at its path
    /// positions `first..` (`first` at most the number of joints its anchors share; 0 gives
    /// its whole bound, as [`Self::bodies`]).
    pub(crate) fn suffix_index(&self, r: usize, b: usize, first: usize) -> usize {
        let start = &self.robots[r].suffix_start;
        debug_assert!(start[b] + first < start[b + 1]);
        start[b] + first
    }

    /// The joints bodies `a` and `b` of robot `r` share (the position from which
    /// [`Self::self_pair`] counts).
    pub(crate) fn shared_joints(&self, r: usize, a: usize, b: usize) -> usize {
        self.robots[r].common_prefix(&[a, b])
    }

    /// Bound on how much the distance between bodies `a` and `b` of robot `r` can change along
    /// `qa → qb`: their displacement relative to the lowest frame either is anchored to.
    pub fn self_pair(&self, r: usize, a: usize, b: usize, qa: &[Real], qb: &[Real]) -> Real {
        self.robots[r].self_pair(a, b, qa, qb)
    }
}

/// Every pair's motion bound along one motion, from one suffix table per robot (the motion
/// check's): the sum of
/// its bodies' bounds, counting for a self pair only the joints beyond those the two share
/// (the bound of their relative motion, [`MotionBound::self_pair`], which is never larger).
#[derive(Debug, Clone)]
pub(crate) struct PairBounds {
    /// Per pair, each body's `(robot, entry)` in the suffix tables.
    terms: Vec<[(usize, usize); 2]>,
    /// Per robot, its suffix table for the current motion.
    tables: Vec<Vec<Real>>,
}

impl PairBounds {
    /// The table entries of `checker`'s pairs.
    pub(crate) fn new(bound: &MotionBound, checker: &super::CellChecker<'_>) -> Self {
        let terms = checker
            .pairs()
            .iter()
            .map(|p| {
                let first = if p.robot_a == p.robot_b {
                    bound.shared_joints(p.robot_a, p.body_a, p.body_b)
                } else {
                    0
                };
                [
                    (p.robot_a, bound.suffix_index(p.robot_a, p.body_a, first)),
                    (p.robot_b, bound.suffix_index(p.robot_b, p.body_b, first)),
                ]
            })
            .collect();
        Self {
            terms,
            tables: vec![Vec::new(); checker.cell().robots.len()],
        }
    }

    /// The tables for the motion `qa → qb` (whole-cell configurations).
    pub(crate) fn set_motion(
        &mut self,
        bound: &MotionBound,
        checker: &super::CellChecker<'_>,
        qa: &[Real],
        qb: &[Real],
    ) {
        for (r, table) in self.tables.iter_mut().enumerate() {
            bound.suffixes(r, checker.robot_q(qa, r), checker.robot_q(qb, r), table);
        }
    }

    /// Pair `k`'s motion bound along the current motion.
    #[inline]
    pub(crate) fn pair(&self, k: usize) -> Real {
        let [(ra, ia), (rb, ib)] = self.terms[k];
        self.tables[ra][ia] + self.tables[rb][ib]
    }

    /// Robot `r`'s suffix table for the current motion.
    #[inline]
    pub(crate) fn table(&self, r: usize) -> &[Real] {
        &self.tables[r]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The suffix table holds `body(b, p)` for every body and shared position, on the demo
    /// cell's DH arms (capsules anchored on two links) along random motions.
    #[test]
    fn suffix_tables_equal_the_bounds_they_replace() {
        let cell = Cell::shipped_demo();
        let bound = MotionBound::new(&cell);
        let mut state: u64 = 7;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 11) as Real / (1u64 << 53) as Real) * 6.0 - 3.0
        };
        for (r, robot) in cell.robots.iter().enumerate() {
            let rb = &bound.robots[r];
            let mut table = Vec::new();
            for _ in 0..50 {
                let qa: Vec<Real> = (0..robot.model.dof()).map(|_| next()).collect();
                let qb: Vec<Real> = (0..robot.model.dof()).map(|_| next()).collect();
                bound.suffixes(r, &qa, &qb, &mut table);
                for b in 0..robot.model.bodies.len() {
                    let shared = rb.suffix_start[b + 1] - rb.suffix_start[b] - 1;
                    for first in 0..=shared {
                        let want = rb.body(b, first, &qa, &qb);
                        let got = table[bound.suffix_index(r, b, first)];
                        assert!((got - want).abs() <= 1e-12 * want.max(1.0), "{got} {want}");
                    }
                    for a in 0..robot.model.bodies.len() {
                        let first = bound.shared_joints(r, a, b);
                        let pair = table[bound.suffix_index(r, a, first)]
                            + table[bound.suffix_index(r, b, first)];
                        let want = bound.self_pair(r, a, b, &qa, &qb);
                        assert!((pair - want).abs() <= 1e-12 * want.max(1.0));
                    }
                }
            }
        }
    }
}
