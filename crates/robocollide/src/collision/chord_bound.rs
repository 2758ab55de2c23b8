//! Second-order motion bounds: how far a point of a body strays from the *chord* joining its
//! positions at the two ends of a stretch of a joint-space segment.
//!
//! [`MotionBound`] bounds a point's *speed* along `q(s) = qa + s (qb − qa)` (first order: the
//! point stays within `λ (s − s₀)` of where it was). Over a short stretch a point moves on
//! nearly a straight line, and that deviation shrinks with the square of the stretch: with
//! `|p''(s)| ≤ A` on `[s₀, s₁]` (`h = s₁ − s₀`), linear interpolation's error bound gives
//! `|p(s) − L(s)| ≤ (s − s₀)(s₁ − s) A / 2 ≤ h² A / 8` for the chord point `L(s)` (the remainder
//! is `p''` weighted by a non-negative kernel of integral `(s − s₀)(s₁ − s)/2`; it holds for
//! vectors as for scalars). So a sphere of radius `r` swept over the stretch stays inside the
//! capsule about its centre's chord with radius `r + h² A / 8`: if that capsule misses an
//! obstacle, the sphere does at every `s` of the stretch. Two spheres of moving bodies: their
//! centres' difference strays from its chord by at most the sum of both bounds, so the
//! segment between the differences at the ends keeps away from the origin by more than the
//! radii and both deviations. (Zhang, Redon, Lee & Manocha, *Continuous collision detection for
//! articulated models using Taylor models and temporal culling*, SIGGRAPH 2007, bound
//! articulated motion by higher-order Taylor models in the same spirit.)
//!
//! The bound `A`: with constant joint rates `v̇ᵢ = Δvᵢ` along the segment and revolute joints
//! along the point's path (root first), `p' = Σᵢ Δvᵢ ωᵢ × (p − oᵢ)` for unit axes `ωᵢ` through
//! points `oᵢ`, and differentiating once more (the axis `ωᵢ` and the point `oᵢ` are carried by
//! the joints before `i`: `ωᵢ' = Σₖ₍ₖ<ᵢ₎ Δvₖ ωₖ × ωᵢ`, `oᵢ' = Σₖ₍ₖ<ᵢ₎ Δvₖ ωₖ × (oᵢ − oₖ)`),
//! `p'' = Σᵢ Δvᵢ (ωᵢ' × (p − oᵢ) + ωᵢ × (p' − oᵢ'))` with
//! `p' − oᵢ' = Σₖ₍ₖ<ᵢ₎ Δvₖ ωₖ × (p − oᵢ) + Σₖ₍ₖ≥ᵢ₎ Δvₖ ωₖ × (p − oₖ)`. With `Dᵢ` bounding
//! `|p − oᵢ|` at every configuration (the static reach of [`MotionBound`]: the point's local
//! distance plus the link lengths between) and `Pᵢ = Σₖ₍ₖ<ᵢ₎ |Δvₖ|`, regrouping the double sum
//! gives `|p''| ≤ Σᵢ |Δvᵢ| Dᵢ (3 Pᵢ + |Δvᵢ|) = A`, valid for every `s ∈ [0, 1]` and so on every
//! stretch. A moving prismatic joint on the path gives no bound here (`∞`: only the
//! first-order certificate applies).

use super::motion_bound::{MotionBound, RobotBound};
use crate::kinematics::{JointKind, MotionOrder};
use crate::math::Real;

impl RobotBound {
    /// The bound `A = α |p| + β` of a point at distance `|p|` from the origin of the frame
    /// that `path` (root → frame) leads to, as `(α, β)`: `Σᵢ |Δvᵢ| (3 Pᵢ + |Δvᵢ|)` times
    /// `Dᵢ = |p| + cᵢ`, split into its two parts; `prefix` is scratch for the running sums
    /// `Pᵢ`. `(∞, ∞)` where a moving prismatic joint is on the path.
    fn path_curvature(
        &self,
        path: &[usize],
        qa: &[Real],
        qb: &[Real],
        prefix: &mut Vec<Real>,
    ) -> (Real, Real) {
        let step = |j: usize| (self.joints[j].value(qb) - self.joints[j].value(qa)).abs();
        prefix.clear();
        let mut before = 0.0;
        for &j in path {
            prefix.push(before);
            if self.joints[j].kind == Some(JointKind::Revolute) {
                before += step(j);
            }
        }
        // `reach` is `cᵢ`: the link lengths between the point's frame and joint i's axis.
        let mut reach = 0.0;
        let (mut alpha, mut beta) = (0.0, 0.0);
        for (position, &j) in path.iter().enumerate().rev() {
            let joint = &self.joints[j];
            match (joint.kind, joint.order) {
                (None, _) => reach += joint.length,
                (Some(JointKind::Prismatic), _) => {
                    if step(j) != 0.0 {
                        return (Real::INFINITY, Real::INFINITY);
                    }
                    reach += joint.length + joint.value(qa).abs();
                }
                (Some(JointKind::Revolute), order) => {
                    // `reach` bounds the distance from a point on the axis (the frame origin
                    // the joint turns about), as in `JointTerm::add_term`.
                    if order == MotionOrder::MotionThenOrigin {
                        reach += joint.length;
                    }
                    let turn = step(j);
                    let weight = turn * (3.0 * prefix[position] + turn);
                    alpha += weight;
                    beta += weight * reach;
                    if order == MotionOrder::OriginThenMotion {
                        reach += joint.length;
                    }
                }
            }
        }
        (alpha, beta)
    }
}

impl MotionBound {
    /// [`RobotBound::path_curvature`] of robot `r` along `qa → qb` (that robot's joints).
    pub(crate) fn path_curvature(
        &self,
        r: usize,
        path: &[usize],
        (qa, qb): (&[Real], &[Real]),
        prefix: &mut Vec<Real>,
    ) -> (Real, Real) {
        self.robots[r].path_curvature(path, qa, qb, prefix)
    }

    /// Body `b` of robot `r`'s anchors, as `(path root → frame, distance from the frame's
    /// origin)`.
    pub(crate) fn anchors(&self, r: usize, b: usize) -> &[(Vec<usize>, Real)] {
        &self.robots[r].anchors[b]
    }
}

/// `A` of a point at distance `local` from its frame's origin, from its path's
/// `terms = (α, β)` ([`MotionBound::path_curvature`]): `∞` when the path has none.
#[inline]
pub(super) fn curvature_at((alpha, beta): (Real, Real), local: Real) -> Real {
    if alpha.is_finite() && beta.is_finite() {
        alpha * local + beta
    } else {
        Real::INFINITY
    }
}

/// How far a point with second-derivative bound `curvature` strays from its chord over a
/// stretch of length `h` of the segment's parameter: `h² A / 8`.
#[inline]
pub(super) fn chord_deviation(curvature: Real, h: Real) -> Real {
    0.125 * h * h * curvature
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Point3;

    /// On the shipped cell's arms and the Panda (when built with URDF support), every body's
    /// anchor points stay within the chord deviation of their chords over random stretches of
    /// random motions, measured densely (an independent check of the derivation: forward
    /// kinematics only).
    #[test]
    fn anchor_points_stay_within_the_chord_deviation() {
        use super::super::test_cells::demo_and_panda_cells;
        use crate::math::unit_random;
        let cells = demo_and_panda_cells();
        let mut next = unit_random(11);
        let mut worst_ratio: Real = 0.0;
        for cell in &cells {
            let bound = MotionBound::new(cell);
            for (r, robot) in cell.robots.iter().enumerate() {
                let model = &robot.model;
                let at = |q: &[Real], body: usize| -> Vec<Point3> {
                    let frames = model.frames(q).unwrap();
                    model.bodies[body]
                        .anchors()
                        .map(|a| a.world(&frames))
                        .collect()
                };
                let mut prefix = Vec::new();
                for _ in 0..40 {
                    let span = 0.05 + 1.5 * next();
                    let qa: Vec<Real> = (0..model.dof()).map(|_| 6.0 * next() - 3.0).collect();
                    let qb: Vec<Real> =
                        qa.iter().map(|v| v + span * (2.0 * next() - 1.0)).collect();
                    let (s0, s1) = {
                        let (x, y) = (next(), next());
                        (x.min(y), x.max(y))
                    };
                    let q_at = |s: Real| -> Vec<Real> {
                        qa.iter().zip(&qb).map(|(a, b)| a + (b - a) * s).collect()
                    };
                    for body in 0..model.bodies.len() {
                        let curvature = bound
                            .anchors(r, body)
                            .iter()
                            .map(|(path, local)| {
                                let terms = bound.path_curvature(r, path, (&qa, &qb), &mut prefix);
                                curvature_at(terms, *local)
                            })
                            .fold(0.0, Real::max);
                        let limit = chord_deviation(curvature, s1 - s0);
                        let (p0, p1) = (at(&q_at(s0), body), at(&q_at(s1), body));
                        for k in 1..32 {
                            let t = k as Real / 32.0;
                            let p = at(&q_at(s0 + (s1 - s0) * t), body);
                            for ((p, p0), p1) in p.iter().zip(&p0).zip(&p1) {
                                let chord = p0 + (p1 - p0) * t;
                                let off = (p - chord).norm();
                                assert!(
                                    off <= limit * (1.0 + 1e-9) + 1e-12,
                                    "body {body}: {off} from its chord, bound {limit}"
                                );
                                if limit > 1e-9 {
                                    worst_ratio = worst_ratio.max(off / limit);
                                }
                            }
                        }
                    }
                }
            }
        }
        // Not vacuous: the bound is nearly reached somewhere (a lone joint turning a point on a
        // circle meets it as the stretch shrinks).
        assert!(worst_ratio > 0.5, "bound far from tight: {worst_ratio}");
    }
}
