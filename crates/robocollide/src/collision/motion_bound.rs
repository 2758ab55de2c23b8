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
}

#[derive(Debug, Clone)]
struct RobotBound {
    joints: Vec<JointTerm>,
    /// For each body, its anchors as `(path of joints root → link, |p|)`.
    anchors: Vec<Vec<(Vec<usize>, Real)>>,
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
        Self {
            joints,
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
                let joint = &self.joints[j];
                let (va, vb) = (joint.value(qa), joint.value(qb));
                let step = (vb - va).abs();
                let length = joint.length
                    + if joint.kind == Some(JointKind::Prismatic) {
                        va.abs().max(vb.abs())
                    } else {
                        0.0
                    };
                match (joint.kind, joint.order) {
                    (None, _) => reach += length,
                    (Some(JointKind::Prismatic), _) => {
                        total += step;
                        reach += length;
                    }
                    (Some(JointKind::Revolute), MotionOrder::OriginThenMotion) => {
                        total += step * reach;
                        reach += length;
                    }
                    (Some(JointKind::Revolute), MotionOrder::MotionThenOrigin) => {
                        reach += length;
                        total += step * reach;
                    }
                }
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

    /// Bound on how much the distance between bodies `a` and `b` of robot `r` can change along
    /// `qa → qb`: their displacement relative to the lowest frame either is anchored to.
    pub fn self_pair(&self, r: usize, a: usize, b: usize, qa: &[Real], qb: &[Real]) -> Real {
        self.robots[r].self_pair(a, b, qa, qb)
    }
}
