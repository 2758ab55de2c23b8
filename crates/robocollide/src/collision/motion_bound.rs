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
//! largest of its anchors' bounds.
//!
//! Two bodies of one robot move *relative to each other* only by the joints beyond the lowest
//! frame `m` either is anchored to: joints `1..=m` move both rigidly, which leaves their
//! distance unchanged. So a self-collision pair's clearance drops by at most the two bodies'
//! bounds summed over joints `m + 1 ..` only ([`MotionBound::self_pair`]), often far less
//! than their world bounds (a wrist's bodies hardly move relative to each other when the
//! shoulder swings).

use crate::kinematics::JointKind;
use crate::math::Real;
use crate::robot::{Cell, RobotModel};

/// Per-robot, per-body motion bounds of a cell.
#[derive(Debug, Clone)]
pub struct MotionBound {
    robots: Vec<RobotBound>,
}

#[derive(Debug, Clone)]
struct RobotBound {
    /// For each body, its anchors as `(frame, |p|)`.
    anchors: Vec<Vec<(usize, Real)>>,
    /// `|aⱼ| + |dⱼ|` per joint (static part).
    link: Vec<Real>,
    /// Joint kinds.
    kinds: Vec<JointKind>,
}

impl RobotBound {
    fn new(model: &RobotModel) -> Self {
        Self {
            anchors: model
                .bodies
                .iter()
                .map(|b| b.anchors().map(|a| (a.frame, a.at.coords.norm())).collect())
                .collect(),
            link: model
                .chain
                .joints
                .iter()
                .map(|j| j.a.abs() + j.d.abs())
                .collect(),
            kinds: model.chain.joints.iter().map(|j| j.kind).collect(),
        }
    }

    /// Lowest frame any anchor of `body` is attached to.
    fn lowest_frame(&self, body: usize) -> usize {
        self.anchors[body].iter().map(|a| a.0).min().unwrap_or(0)
    }

    /// Relative displacement bound of bodies `a` and `b` of this robot along `qa → qb`.
    fn self_pair(&self, a: usize, b: usize, qa: &[Real], qb: &[Real]) -> Real {
        let first = self.lowest_frame(a).min(self.lowest_frame(b));
        let mut out = Vec::with_capacity(2);
        self.bodies_from(first, qa, qb, [a, b].into_iter(), &mut out);
        out.iter().sum()
    }

    /// Bounds for the segment `qa → qb`, one per body, into `out`.
    fn bodies(&self, qa: &[Real], qb: &[Real], out: &mut Vec<Real>) {
        self.bodies_from(0, qa, qb, 0..self.anchors.len(), out);
    }

    /// Bounds of `bodies` counting only joints `first..` (0-based), into `out`.
    fn bodies_from(
        &self,
        first: usize,
        qa: &[Real],
        qb: &[Real],
        bodies: impl Iterator<Item = usize>,
        out: &mut Vec<Real>,
    ) {
        // Lⱼ over the segment: a prismatic joint's offset grows by its largest |q|.
        let n = self.link.len();
        let mut length = [0.0; 32];
        let mut steps = [0.0; 32];
        let mut length_vec;
        let mut steps_vec;
        let (length, steps): (&mut [Real], &mut [Real]) = if n <= 32 {
            (&mut length[..n], &mut steps[..n])
        } else {
            length_vec = vec![0.0; n];
            steps_vec = vec![0.0; n];
            (&mut length_vec[..], &mut steps_vec[..])
        };
        for j in 0..n {
            length[j] = self.link[j]
                + if self.kinds[j] == JointKind::Prismatic {
                    qa[j].abs().max(qb[j].abs())
                } else {
                    0.0
                };
            steps[j] = (qb[j] - qa[j]).abs();
        }
        out.clear();
        for body in bodies {
            let mut worst: Real = 0.0;
            for &(frame, local) in &self.anchors[body] {
                // Σᵢ |Δqᵢ| Rᵢ with Rᵢ = Σⱼ₌ᵢ..f Lⱼ + |p|, accumulated from the tip down.
                let mut reach = local;
                let mut total = 0.0;
                for i in (first.min(n)..frame.min(n)).rev() {
                    reach += length[i];
                    total += steps[i]
                        * if self.kinds[i] == JointKind::Revolute {
                            reach
                        } else {
                            1.0
                        };
                }
                worst = worst.max(total);
            }
            out.push(worst);
        }
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
