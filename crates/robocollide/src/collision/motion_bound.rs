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

use crate::kinematics::{Frame, JointKind, MotionOrder};
use crate::math::{Point3, Real, Vector3};
use crate::robot::{Cell, RobotModel};

/// Per-robot, per-body motion bounds of a cell.
#[derive(Debug, Clone)]
pub struct MotionBound {
    pub(super) robots: Vec<RobotBound>,
}

/// What the bound needs of one joint.
#[derive(Debug, Clone, Copy)]
pub(super) struct JointTerm {
    /// `|origin translation|`: the static distance between parent and child origins.
    pub(super) length: Real,
    /// `None` for a fixed joint.
    pub(super) kind: Option<JointKind>,
    pub(super) order: MotionOrder,
    /// `v = multiplier · q[variable] + offset` (unused for fixed joints).
    variable: usize,
    multiplier: Real,
    offset: Real,
    /// Unit axis, in the frame it turns or slides in (see [`JointTerm::world_axis`]).
    axis: Vector3,
    parent: usize,
    child: usize,
}

impl JointTerm {
    /// The joint's axis in the world at the posed link `frames`: a point on it and its unit
    /// direction. URDF (`parent · origin · motion`): through the child's origin along the
    /// child's axis (a turn about an axis leaves it in place); DH (`parent · motion ·
    /// origin`): through the parent's origin along the parent's axis.
    #[inline]
    fn world_axis(&self, frames: &[Frame]) -> (Vector3, Vector3) {
        let frame = match self.order {
            MotionOrder::OriginThenMotion => &frames[self.child],
            MotionOrder::MotionThenOrigin => &frames[self.parent],
        };
        (frame.origin, frame.rotation * self.axis)
    }

    #[inline]
    pub(super) fn value(&self, q: &[Real]) -> Real {
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
pub(super) struct RobotBound {
    pub(super) joints: Vec<JointTerm>,
    /// For each body, its anchors as `(path of joints root → link, |p|)`.
    pub(super) anchors: Vec<Vec<(Vec<usize>, Real)>>,
    /// Start of each body's entries in a suffix table (`RobotBound::suffixes`; one more
    /// entry: the table's length). Body `b` has one entry per position `0..=n` of the path
    /// its anchors share (`n` their common prefix).
    suffix_start: Vec<usize>,
    /// One ball per link frame that anchors bodies, about all those anchors (for the posed
    /// bound, [`RobotBound::posed_suffixes`]).
    balls: Vec<FrameBall>,
    /// For each body, the balls of its anchors' links (each once).
    anchor_balls: Vec<Vec<usize>>,
    /// Start of each body's entries in a posed table ([`RobotBound::posed_suffixes`]): its
    /// ball's running sums for a body with one ball (most: a sphere), else a place of its
    /// own after all the balls' sums, where the larger over its balls is written.
    posed_start: Vec<usize>,
    /// The bodies with a place of their own in a posed table (two balls or more, or none).
    merged: Vec<usize>,
    /// The length of every ball's sums, at the start of a posed table.
    sums_len: usize,
    /// A posed table's length: every ball's sums, then the merged bodies' entries.
    posed_len: usize,
}

/// A ball fixed in a link frame that holds every anchor on that frame (grown by a box's
/// half-diagonal), with the joints from the root to the frame.
#[derive(Debug, Clone)]
struct FrameBall {
    frame: usize,
    path: Vec<usize>,
    /// Centre in the frame's coordinates.
    centre: Point3,
    radius: Real,
    /// The largest static distance bound of its anchors from the frame's origin (`|p|`, plus a
    /// box's half-diagonal), as the static bound starts from.
    static_reach: Real,
    /// Start of its running sums in a posed table (one per path position, and one more).
    sums: usize,
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
                    axis: j.axis, // unit (the tree normalises it)
                    parent: j.parent,
                    child: j.child,
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
            balls: Vec::new(),
            anchor_balls: Vec::new(),
            posed_start: Vec::new(),
            merged: Vec::new(),
            sums_len: 0,
            posed_len: 0,
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
        bound.set_balls(model);
        bound
    }

    /// The frame balls: about the midpoint of the anchors' bounding box on each frame.
    fn set_balls(&mut self, model: &RobotModel) {
        let tree = model.tree();
        let mut on_frame: Vec<(usize, Vec<(Point3, Real)>)> = Vec::new();
        for body in &model.bodies {
            let extent = match body.shape {
                crate::robot::BodyShape::Box { half_extents, .. } => half_extents.norm(),
                _ => 0.0,
            };
            let mut balls = Vec::new();
            for anchor in body.anchors() {
                let index = match on_frame.iter().position(|(f, _)| *f == anchor.frame) {
                    Some(i) => i,
                    None => {
                        on_frame.push((anchor.frame, Vec::new()));
                        on_frame.len() - 1
                    }
                };
                on_frame[index].1.push((anchor.at, extent));
                balls.push(index);
            }
            // (Two anchors on one link share its ball: the body then reads it in place.)
            balls.sort_unstable();
            balls.dedup();
            self.anchor_balls.push(balls);
        }
        let mut sums = 0;
        for (frame, points) in on_frame {
            let (low, high) = points.iter().fold(
                (
                    Vector3::repeat(Real::INFINITY),
                    Vector3::repeat(Real::NEG_INFINITY),
                ),
                |(l, h), (p, _)| (l.inf(&p.coords), h.sup(&p.coords)),
            );
            let centre = Point3::from((low + high) * 0.5);
            let radius = points
                .iter()
                .map(|(p, extent)| (p - centre).norm() + extent)
                .fold(0.0, Real::max);
            let static_reach = points
                .iter()
                .map(|(p, extent)| p.coords.norm() + extent)
                .fold(0.0, Real::max);
            let path = tree.path_to(frame);
            let length = path.len() + 1;
            self.balls.push(FrameBall {
                frame,
                path,
                centre,
                radius,
                static_reach,
                sums,
            });
            sums += length;
        }
        // Each body's entries in a posed table: its ball's sums where it has one ball (its
        // anchors' paths are the ball's, so their lengths agree), else a place after them.
        (self.sums_len, self.posed_len) = (sums, sums);
        for (body, balls) in self.anchor_balls.iter().enumerate() {
            let entries = self.suffix_start[body + 1] - self.suffix_start[body];
            match balls.as_slice() {
                &[ball] => {
                    debug_assert_eq!(self.balls[ball].path.len() + 1, entries);
                    self.posed_start.push(self.balls[ball].sums);
                }
                _ => {
                    self.posed_start.push(self.posed_len);
                    self.merged.push(body);
                    self.posed_len += entries;
                }
            }
        }
    }

    /// `RobotBound::suffixes` (the tests' static tables) with lever arms measured at the
    /// posed link `frames` (either end of the motion), far tighter than the static ones (a
    /// median 3.5× on the Panda's bodies along 0.3 rad motions).
    ///
    /// Bound: a point's speed is at most `Σᵢ |v̇ᵢ| ρᵢ(s)` with `ρᵢ(s)` its distance from
    /// revolute joint `i`'s axis (1 for a prismatic joint). Joints before `i` and `i` itself
    /// leave that distance unchanged (they move the point and the axis rigidly, or turn the
    /// point about the axis); joints after `i` move the point relative to the axis by at most
    /// their own displacement bound `Sᵢ₊₁`. So `ρᵢ(s) ≤ ρᵢ(posed) + Sᵢ₊₁` at every `s`, and
    /// from the tip down `Sᵢ = Sᵢ₊₁ + |Δvᵢ| (ρᵢ + Sᵢ₊₁)` bounds the displacement by joints
    /// `i..` (the relative one for a self pair, as in the static bound). Every anchor on a
    /// frame is within the frame's ball, so `ρᵢ` is the ball centre's distance from the axis
    /// plus its radius. The static bound's reach (distance from the joint's origin, valid at
    /// every configuration) also bounds `ρᵢ(s)`, and the lesser of the two is used: over long
    /// motions the posed arms' `Sᵢ₊₁` terms compound and the static reach wins. (The ball's
    /// static reach is its anchors' largest, so an entry can exceed `RobotBound::suffixes`'s
    /// for a body nearer its frame's origin than the frame's other anchors.)
    fn posed_suffixes(
        &self,
        frames: &[Frame],
        qa: &[Real],
        qb: &[Real],
        axes: &mut Vec<(Vector3, Vector3)>,
        out: &mut Vec<Real>,
    ) {
        axes.clear();
        axes.extend(self.joints.iter().map(|j| match j.kind {
            Some(JointKind::Revolute) => j.world_axis(frames),
            _ => (Vector3::zeros(), Vector3::zeros()),
        }));
        // Every slot of the table is written below (each ball's running sums at every
        // position of its path and the one after, then the merged bodies' entries): no
        // zeroing per motion.
        out.resize(self.posed_len, 0.0);
        let table = out;
        for ball in &self.balls {
            let centre = frames[ball.frame].apply(&ball.centre).coords;
            let mut total = 0.0;
            // The static reach (as `JointTerm::add_term`), a bound on the distance from the
            // joint's origin at every configuration: the lever arm is the lesser of the two.
            let mut reach = ball.static_reach;
            table[ball.sums + ball.path.len()] = 0.0;
            for (position, &j) in ball.path.iter().enumerate().rev() {
                let joint = &self.joints[j];
                let step = (joint.value(qb) - joint.value(qa)).abs();
                match (joint.kind, joint.order) {
                    (None, _) => reach += joint.length,
                    (Some(JointKind::Prismatic), _) => {
                        total += step;
                        reach += joint.length + joint.value(qa).abs().max(joint.value(qb).abs());
                    }
                    (Some(JointKind::Revolute), order) => {
                        if order == MotionOrder::MotionThenOrigin {
                            reach += joint.length;
                        }
                        let (origin, axis) = &axes[j];
                        let arm = (centre - origin).cross(axis).norm() + ball.radius;
                        total += step * reach.min(arm + total);
                        if order == MotionOrder::OriginThenMotion {
                            reach += joint.length;
                        }
                    }
                }
                table[ball.sums + position] = total;
            }
        }
        // A body with one ball reads its ball's sums in place; the others get the larger
        // over their anchors' balls (the first ball's sums copied, which covers every entry:
        // a body's entries are the positions its anchors' paths share), or zeros.
        let (sums, places) = table.split_at_mut(self.sums_len);
        for &body in &self.merged {
            let start = self.posed_start[body] - self.sums_len;
            let count = self.suffix_start[body + 1] - self.suffix_start[body];
            let entries = &mut places[start..start + count];
            let Some((&first, others)) = self.anchor_balls[body].split_first() else {
                entries.fill(0.0);
                continue;
            };
            entries.copy_from_slice(&sums[self.balls[first].sums..][..count]);
            for &b in others {
                let ball_sums = &sums[self.balls[b].sums..];
                for (slot, &sum) in entries.iter_mut().zip(ball_sums) {
                    *slot = crate::math::larger(*slot, sum);
                }
            }
        }
    }

    /// For every body `b` and path position `p` it shares, its bound counting only the joints
    /// at positions `p..` (so `body(b, p, …)`), into `out` at `suffix_start[b] + p`: each
    /// anchor's path walked once from the tip down, its running sums recorded on the way.
    /// (The motion check uses the posed tables; these are their static reference in tests.)
    #[cfg(test)]
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

    /// Robot `r`'s suffix table along `qa → qb` into `out`: see [`Self::static_index`].
    #[cfg(test)]
    pub(crate) fn suffixes(&self, r: usize, qa: &[Real], qb: &[Real], out: &mut Vec<Real>) {
        self.robots[r].suffixes(qa, qb, out);
    }

    /// `Self::suffixes` (the tests' static tables) with lever arms measured at robot `r`'s
    /// posed link `frames`, which must be those of `qa` or `qb` (see
    /// [`RobotBound::posed_suffixes`]), laid out as [`Self::suffix_index`] says; `axes` is a
    /// reusable buffer.
    pub(crate) fn posed_suffixes(
        &self,
        r: usize,
        frames: &[Frame],
        (qa, qb): (&[Real], &[Real]),
        axes: &mut Vec<(Vector3, Vector3)>,
        out: &mut Vec<Real>,
    ) {
        self.robots[r].posed_suffixes(frames, qa, qb, axes, out);
    }

    /// Where a posed table ([`Self::posed_suffixes`]) holds body `b`'s bound counting only the
    /// joints at its path positions `first..` (`first` at most the number of joints its
    /// anchors share; 0 gives its whole bound, as [`Self::bodies`]). (Bodies on one link
    /// share their link ball's entries there.)
    pub(crate) fn suffix_index(&self, r: usize, b: usize, first: usize) -> usize {
        let robot = &self.robots[r];
        debug_assert!(first < robot.suffix_start[b + 1] - robot.suffix_start[b]);
        robot.posed_start[b] + first
    }

    /// Where a static table ([`Self::suffixes`]) holds the same entry: one place per body.
    #[cfg(test)]
    pub(crate) fn static_index(&self, r: usize, b: usize, first: usize) -> usize {
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

#[cfg(test)]
mod tests {
    use super::*;

    use crate::collision::test_cells::demo_and_panda_cells;
    use crate::math::unit_random;

    /// The suffix table holds `body(b, p)` for every body and shared position, on the demo
    /// cell's DH arms (capsules anchored on two links) along random motions.
    #[test]
    fn suffix_tables_equal_the_bounds_they_replace() {
        let cell = Cell::shipped_demo();
        let bound = MotionBound::new(&cell);
        let mut unit = unit_random(7);
        let mut next = || unit() * 6.0 - 3.0;
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
                        let got = table[bound.static_index(r, b, first)];
                        assert!((got - want).abs() <= 1e-12 * want.max(1.0), "{got} {want}");
                    }
                    for a in 0..robot.model.bodies.len() {
                        let first = bound.shared_joints(r, a, b);
                        let pair = table[bound.static_index(r, a, first)]
                            + table[bound.static_index(r, b, first)];
                        let want = bound.self_pair(r, a, b, &qa, &qb);
                        assert!((pair - want).abs() <= 1e-12 * want.max(1.0));
                    }
                }
            }
        }
    }

    /// A posed table's layout: a body with one ball (every sphere of the Panda) reads its
    /// ball's running sums in place; a body anchored on two links (the demo cell's capsules)
    /// has its own entries after every ball's sums, no two bodies' overlapping; every body
    /// has as many entries as positions its anchors share, plus one.
    #[test]
    fn posed_tables_share_a_ball_s_sums_and_merge_the_rest_apart() {
        for cell in demo_and_panda_cells() {
            let bound = MotionBound::new(&cell);
            for rb in &bound.robots {
                let mut owned = vec![false; rb.posed_len];
                for (body, balls) in rb.anchor_balls.iter().enumerate() {
                    let count = rb.suffix_start[body + 1] - rb.suffix_start[body];
                    let start = rb.posed_start[body];
                    assert!(start + count <= rb.posed_len);
                    if let &[ball] = balls.as_slice() {
                        assert_eq!(start, rb.balls[ball].sums);
                        assert!(start + count <= rb.sums_len);
                        assert!(!rb.merged.contains(&body));
                    } else {
                        assert!(rb.merged.contains(&body) && start >= rb.sums_len);
                        for slot in &mut owned[start..start + count] {
                            assert!(!*slot, "body {body}: entries overlap");
                            *slot = true;
                        }
                    }
                }
                assert_eq!(
                    owned.iter().filter(|&&o| o).count(),
                    rb.posed_len - rb.sums_len
                );
            }
        }
        let cells = demo_and_panda_cells();
        let merged = |cell: &Cell| {
            MotionBound::new(cell)
                .robots
                .iter()
                .map(|rb| rb.merged.len())
                .sum::<usize>()
        };
        assert!(merged(&cells[0]) > 0, "the demo's capsules span two links");
        #[cfg(feature = "urdf")]
        assert_eq!(
            merged(&cells[1]),
            0,
            "the Panda's spheres each sit on one link"
        );
    }

    /// The posed bound is a speed bound: along random motions, no anchor of any body moves
    /// (relative to the link before the first joint a suffix entry counts) faster than its
    /// entry, checked between 400 consecutive samples, with the lever arms measured at
    /// either end; on DH arms (the demo cell) and on a URDF tree (the Panda).
    #[test]
    fn posed_suffix_tables_bound_every_anchor_s_speed() {
        let cells = demo_and_panda_cells();
        let mut next = unit_random(11);
        let (mut table, mut axes) = (Vec::new(), Vec::new());
        let mut tighter = 0;
        for cell in &cells {
            let bound = MotionBound::new(cell);
            for (r, robot) in cell.robots.iter().enumerate() {
                let model = &robot.model;
                let rb = &bound.robots[r];
                for trial in 0..40 {
                    let qa: Vec<Real> = (0..model.dof()).map(|_| 6.0 * next() - 3.0).collect();
                    let qb: Vec<Real> = qa.iter().map(|a| a + 1.6 * next() - 0.8).collect();
                    let posed = if trial % 2 == 0 { &qa } else { &qb };
                    let frames = model.frames(posed).unwrap();
                    bound.posed_suffixes(r, &frames, (&qa, &qb), &mut axes, &mut table);
                    // Buffers reused across robots and motions (never zeroed) give the
                    // table fresh ones do.
                    let mut fresh = Vec::new();
                    bound.posed_suffixes(r, &frames, (&qa, &qb), &mut Vec::new(), &mut fresh);
                    assert_eq!(table, fresh);
                    let mut static_table = Vec::new();
                    bound.suffixes(r, &qa, &qb, &mut static_table);
                    let samples: Vec<Vec<Frame>> = (0..=400)
                        .map(|i| {
                            let s = i as Real / 400.0;
                            let q: Vec<Real> =
                                qa.iter().zip(&qb).map(|(a, b)| a + (b - a) * s).collect();
                            model.frames(&q).unwrap()
                        })
                        .collect();
                    for (b, body) in model.bodies.iter().enumerate() {
                        let shared = rb.suffix_start[b + 1] - rb.suffix_start[b] - 1;
                        for first in 0..=shared {
                            let entry = table[bound.suffix_index(r, b, first)];
                            let static_entry = static_table[bound.static_index(r, b, first)];
                            if entry < static_entry {
                                tighter += 1;
                            }
                            for anchor in body.anchors() {
                                let path = model.tree().path_to(anchor.frame);
                                // The link the counted joints move relative to.
                                let base =
                                    path.get(first).map(|&j| model.tree().joints()[j].parent);
                                let local = |f: &[Frame]| {
                                    let x = anchor.world(f).coords;
                                    match base {
                                        Some(l) => f[l].rotation.transpose() * (x - f[l].origin),
                                        None => Vector3::zeros(),
                                    }
                                };
                                for w in samples.windows(2) {
                                    let step = (local(&w[1]) - local(&w[0])).norm();
                                    assert!(
                                        step <= entry / 400.0 * (1.0 + 1e-9) + 1e-12,
                                        "body {b}, entry {first}: {step} > {entry}/400"
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(tighter > 100, "{tighter}");
    }
}
