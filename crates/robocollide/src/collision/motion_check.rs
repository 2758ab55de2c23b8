//! [`MotionCheck`]: is the straight joint-space motion `qa → qb` free of contact? A yes/no
//! answer for planners, given only with a certificate.
//!
//! Certificate (Schwarzer, Saha & Latombe, *Adaptive dynamic collision checking for single and
//! multiple articulated robots in complex environments*, IEEE T-RO 21(3), 2005): along the
//! segment, no point of a body moves further than its [`MotionBound`], which is proportional to
//! the stretch's length in the parameter (`λ·(s₁ − s₀)` for `[s₀, s₁]`). A pair at distances
//! `d₀` at `s₀` and `d₁` at `s₁` therefore keeps `d(s) ≥ max(d₀ − λ(s − s₀), d₁ − λ(s₁ − s))`,
//! which is positive on the whole stretch when `d₀ + d₁ > λ·(s₁ − s₀)`. Both ends are used
//! (the guaranteed sweep, which must also report *where* contact starts, uses one). Pairs
//! certified on a stretch are dropped from its halves; only the rest are measured at the
//! midpoint, so a motion costs two full evaluations plus a few pairs per bisection step.
//!
//! Far pairs are measured by the gap of their cores' bounding spheres when that gap already
//! exceeds their motion bound (a lower bound certifies as well as the distance). Self pairs
//! use the bound of their relative motion ([`MotionBound::self_pair`]).
//!
//! The answer is `false` for a motion in contact at an evaluated point, and for one that
//! cannot be certified before the stretches shrink below `min_step` or the evaluation budget
//! runs out (a planner then treats it as blocked: never a false "free").

use super::checker::CellChecker;
use super::motion_bound::MotionBound;
use crate::math::Real;

/// Most midpoints one motion check evaluates before giving up (answer: not certified).
pub const MAX_MOTION_EVALUATIONS: usize = 4096;

/// Reusable state of the motion check for one cell (no allocation per check once warm).
#[derive(Debug, Clone)]
pub struct MotionCheck {
    bound: MotionBound,
    body_bounds: Vec<Vec<Real>>,
    /// Per pair, its bound over the whole motion.
    pair_bounds: Vec<Real>,
    at_a: Vec<Real>,
    at_b: Vec<Real>,
    exact: Vec<bool>,
    q: Vec<Real>,
    /// Stretches still to certify: `(s₀, s₁, first, end)` into `active`.
    stack: Vec<(Real, Real, usize, usize)>,
    /// `(pair, d₀, d₁)` of the stretches on the stack, in blocks (the top stretch's last).
    active: Vec<(usize, Real, Real)>,
    /// The popped stretch's pairs and their midpoint distances.
    block: Vec<(usize, Real, Real)>,
    mids: Vec<Real>,
}

impl MotionCheck {
    /// A motion check for the cell of `checker`.
    pub fn new(checker: &CellChecker<'_>) -> Self {
        Self {
            bound: MotionBound::new(checker.cell()),
            body_bounds: vec![Vec::new(); checker.cell().robots.len()],
            pair_bounds: Vec::new(),
            at_a: Vec::new(),
            at_b: Vec::new(),
            exact: Vec::new(),
            q: Vec::new(),
            stack: Vec::new(),
            active: Vec::new(),
            block: Vec::new(),
            mids: Vec::new(),
        }
    }

    /// `true` only when the motion `qa → qb` (whole-cell configurations) is certified free of
    /// contact for every pair of `checker`; `min_step` is the shortest stretch (in the motion's
    /// parameter, `0 < min_step < 1`) bisection may create.
    pub fn free(
        &mut self,
        checker: &mut CellChecker<'_>,
        qa: &[Real],
        qb: &[Real],
        min_step: Real,
    ) -> bool {
        if qa.len() != qb.len() || checker.validate(qa).is_err() || checker.validate(qb).is_err() {
            return false;
        }
        self.set_pair_bounds(checker, qa, qb);
        if !measure_ends(
            checker,
            qa,
            &self.pair_bounds,
            &mut self.at_a,
            &mut self.exact,
        ) || !measure_ends(
            checker,
            qb,
            &self.pair_bounds,
            &mut self.at_b,
            &mut self.exact,
        ) {
            return false;
        }
        self.active.clear();
        self.stack.clear();
        for (k, &limit) in self.pair_bounds.iter().enumerate() {
            let (d0, d1) = (self.at_a[k], self.at_b[k]);
            if !certified(d0, d1, limit) {
                self.active.push((k, d0, d1));
            }
        }
        if self.active.is_empty() {
            return true;
        }
        self.stack.push((0.0, 1.0, 0, self.active.len()));
        let mut budget = MAX_MOTION_EVALUATIONS;
        while let Some((s0, s1, first, end)) = self.stack.pop() {
            let mid = 0.5 * (s0 + s1);
            if s1 - s0 < 2.0 * min_step || mid <= s0 || mid >= s1 || budget == 0 {
                return false;
            }
            budget -= 1;
            self.q.clear();
            self.q
                .extend(qa.iter().zip(qb).map(|(a, b)| a + (b - a) * mid));
            checker.pose(&self.q);
            let half = 0.5 * (s1 - s0);
            // This stretch's block is the last one in `active` (blocks are appended right half
            // first, and the left half is popped first): measure, drop it, append the halves.
            self.mids.clear();
            for &(k, _, _) in &self.active[first..end] {
                let dm = checker.distance(k);
                if dm <= 0.0 {
                    return false;
                }
                self.mids.push(dm);
            }
            self.block.clear();
            self.block.extend_from_slice(&self.active[first..end]);
            self.active.truncate(first);
            for (&(k, _, d1), &dm) in self.block.iter().zip(&self.mids) {
                if !certified(dm, d1, self.pair_bounds[k] * half) {
                    self.active.push((k, dm, d1));
                }
            }
            let left_start = self.active.len();
            for (&(k, d0, _), &dm) in self.block.iter().zip(&self.mids) {
                if !certified(d0, dm, self.pair_bounds[k] * half) {
                    self.active.push((k, d0, dm));
                }
            }
            if left_start > first {
                self.stack.push((mid, s1, first, left_start));
            }
            if self.active.len() > left_start {
                self.stack.push((s0, mid, left_start, self.active.len()));
            }
        }
        true
    }

    /// Each pair's motion bound over the whole motion: the sum of its bodies' (for a self
    /// pair, at most the bound of their relative motion).
    fn set_pair_bounds(&mut self, checker: &CellChecker<'_>, qa: &[Real], qb: &[Real]) {
        for r in 0..self.body_bounds.len() {
            let (fr, tr) = (checker.robot_q(qa, r), checker.robot_q(qb, r));
            self.bound.bodies(r, fr, tr, &mut self.body_bounds[r]);
        }
        self.pair_bounds.clear();
        for p in checker.pairs() {
            let mut limit =
                self.body_bounds[p.robot_a][p.body_a] + self.body_bounds[p.robot_b][p.body_b];
            if p.robot_a == p.robot_b {
                let r = p.robot_a;
                let (fr, tr) = (checker.robot_q(qa, r), checker.robot_q(qb, r));
                limit = limit.min(self.bound.self_pair(r, p.body_a, p.body_b, fr, tr));
            }
            self.pair_bounds.push(limit);
        }
    }
}

/// Whether distances `d0`, `d1` at a stretch's ends certify it against a motion bound
/// (`false` for NaN: a pair stays uncertain unless proved free).
#[inline]
fn certified(d0: Real, d1: Real, bound: Real) -> bool {
    d0 + d1 > bound
}

/// Poses at `q` and measures every pair (exactly where its cheap lower bound is within its
/// motion bound); `false` when a pair is in contact.
fn measure_ends(
    checker: &mut CellChecker<'_>,
    q: &[Real],
    limits: &[Real],
    out: &mut Vec<Real>,
    exact: &mut Vec<bool>,
) -> bool {
    checker.pose(q);
    checker.pair_distances_within(limits, out, exact);
    for (k, d) in out.iter_mut().enumerate() {
        if *d <= 0.0 && !exact[k] {
            *d = checker.distance(k);
        }
        if *d <= 0.0 {
            return false;
        }
    }
    true
}
