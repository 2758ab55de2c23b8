//! Self pairs certified apart at *every* configuration within the joint limits, which a
//! planner (whose configurations never leave the limits) need not check at all.
//!
//! A self pair's distance depends only on the joints beyond those its two bodies share (the
//! shared ones move both rigidly; see [`MotionBound::self_pair`]): for a wrist's bodies two or
//! three joints. Over the box of those joints' limits the pair is certified by adaptive
//! subdivision. At a box's centre `c` the pair's distance is `d(c)`; every configuration `q`
//! of the box is reached from `c` by a straight motion whose joint steps are at most the box's
//! half-widths, along which the distance drops by at most the pair's relative motion bound `λ`
//! (the static bound of [`MotionBound::self_pair`], which grows with each step), so
//! `d(c) > λ` certifies the whole box. Otherwise the box is halved across the joint that
//! contributes most to `λ`. A centre in contact, a joint without finite limits, a moving
//! prismatic joint, more joints than asked for or a spent budget of evaluations leave the
//! pair to be checked as before.
//!
//! Sound for planning because its configurations stay within the limits: samples are drawn
//! within them, starts and goals outside them are rejected, and a straight motion between two
//! configurations within the box stays within it.

use super::checker::CellChecker;
use super::motion_bound::MotionBound;
use crate::kinematics::JointKind;
use crate::math::Real;
use crate::robot::{Cell, RobotModel};

/// A box of the joints a pair depends on: per such variable, its centre and half-width.
struct JointBox {
    centre: Vec<Real>,
    half: Vec<Real>,
}

/// The self pairs of `model` (as in `model.self_pairs.pairs`) certified apart at every
/// configuration within its joint limits, trying those that depend on at most `max_joints`
/// configuration variables with at most `budget` distance evaluations each.
pub fn self_pairs_apart_within_limits(
    model: &RobotModel,
    max_joints: usize,
    budget: usize,
) -> Vec<(usize, usize)> {
    let cell = Cell::single(model.clone());
    let mut checker = CellChecker::new(&cell, true);
    let bound = MotionBound::new(&cell);
    let tree = model.tree();
    // Variables not in a pair's box stay at their ranges' middles (the pair's distance does
    // not depend on them).
    let middle: Vec<Real> = (0..tree.dof())
        .map(|v| {
            let (lo, hi) = tree.sampling_range(v);
            0.5 * (lo + hi)
        })
        .collect();
    let mut apart = Vec::new();
    for k in 0..checker.pairs().len() {
        let p = checker.pairs()[k];
        if p.robot_a != 0 || p.robot_b != 0 {
            continue;
        }
        let Some(variables) = relative_variables(model, &bound, p.body_a, p.body_b) else {
            continue;
        };
        if variables.len() > max_joints {
            continue;
        }
        let limits: Option<Vec<(Real, Real)>> = variables
            .iter()
            .map(|&v| {
                tree.variable_joint(v)
                    .limits
                    .filter(|(lo, hi)| lo.is_finite() && hi.is_finite() && lo <= hi)
            })
            .collect();
        let Some(limits) = limits else { continue };
        let root = JointBox {
            centre: limits.iter().map(|(lo, hi)| 0.5 * (lo + hi)).collect(),
            half: limits.iter().map(|(lo, hi)| 0.5 * (hi - lo)).collect(),
        };
        let pair = (p.body_a, p.body_b);
        let certified = certify_box(
            &mut checker,
            &bound,
            (k, pair),
            (&variables, &middle),
            root,
            budget,
        );
        if certified {
            apart.push(pair);
        }
    }
    apart
}

/// The configuration variables the distance of bodies `a` and `b` depends on: those driving
/// the joints beyond their shared ones on any anchor's path; `None` if one of them drives a
/// prismatic joint there.
fn relative_variables(
    model: &RobotModel,
    bound: &MotionBound,
    a: usize,
    b: usize,
) -> Option<Vec<usize>> {
    let tree = model.tree();
    let shared = bound.shared_joints(0, a, b);
    let mut variables = Vec::new();
    for body in [a, b] {
        for (path, _) in bound.anchors(0, body) {
            for &j in &path[shared.min(path.len())..] {
                let Some((variable, ..)) = tree.drive(j) else {
                    continue;
                };
                match tree.joints()[j].kind {
                    None => continue,
                    Some(JointKind::Prismatic) => return None,
                    Some(JointKind::Revolute) => {}
                }
                if !variables.contains(&variable) {
                    variables.push(variable);
                }
            }
        }
    }
    Some(variables)
}

/// Whether pair `k` (bodies `pair`) is apart everywhere in `root`, a box of `variables`
/// (the others at `middle`), within `budget` evaluations.
fn certify_box(
    checker: &mut CellChecker<'_>,
    bound: &MotionBound,
    (k, (a, b)): (usize, (usize, usize)),
    (variables, middle): (&[usize], &[Real]),
    root: JointBox,
    budget: usize,
) -> bool {
    let mut q = middle.to_vec();
    let mut corner = middle.to_vec();
    let mut stack = vec![root];
    let mut spent = 0;
    while let Some(cell) = stack.pop() {
        if spent == budget {
            return false;
        }
        spent += 1;
        for (i, &v) in variables.iter().enumerate() {
            q[v] = cell.centre[i];
            corner[v] = cell.centre[i] + cell.half[i];
        }
        checker.pose(&q);
        let distance = checker.distance(k);
        if distance <= 0.0 {
            return false;
        }
        let reach = bound.self_pair(0, a, b, &q, &corner);
        // A margin far above rounding (metres).
        if distance > reach * (1.0 + 1e-9) + 1e-9 {
            continue;
        }
        // Halve across the joint contributing most to the bound.
        let widest = (0..variables.len())
            .map(|i| {
                let v = variables[i];
                let saved = corner[v];
                let mut alone = q.clone();
                alone[v] = saved;
                (i, bound.self_pair(0, a, b, &q, &alone))
            })
            .max_by(|x, y| x.1.total_cmp(&y.1))
            .map_or(0, |(i, _)| i);
        let mut halves = [
            JointBox {
                centre: cell.centre.clone(),
                half: cell.half.clone(),
            },
            cell,
        ];
        for (half, sign) in halves.iter_mut().zip([-0.5, 0.5]) {
            half.half[widest] *= 0.5;
            half.centre[widest] += sign * 2.0 * half.half[widest];
        }
        stack.extend(halves);
    }
    true
}
