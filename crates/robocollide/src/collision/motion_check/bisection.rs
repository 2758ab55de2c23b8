//! The motion check's last stage: the pairs no bound certified over the whole motion, by
//! bisection of the motion's parameter, level by level (see [`MotionCheck`]'s docs).

use super::{MotionCheck, certified};
use crate::collision::checker::CellChecker;
use crate::collision::rake::point_on_motion;
use crate::math::Real;

/// A stretch `[s₀, s₁]` of the motion still to certify: its pairs are `active[first..end]`,
/// and `ends` the snapshots of its ends in the `ChordCertificate`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Stretch {
    s0: Real,
    s1: Real,
    first: usize,
    end: usize,
    ends: (usize, usize),
}

impl MotionCheck {
    /// Certifies the pairs in `active` (their distances at both ends kept there) by
    /// bisection of `qa → qb`; `ends` are the chord snapshots of `qa` and `qb`.
    pub(super) fn bisect(
        &mut self,
        checker: &mut CellChecker<'_>,
        (qa, qb): (&[Real], &[Real]),
        ends: (usize, usize),
        min_step: Real,
    ) -> bool {
        self.level.clear();
        self.level.push(Stretch {
            s0: 0.0,
            s1: 1.0,
            first: 0,
            end: self.active.len(),
            ends,
        });
        // Level by level, coarse to fine (every stretch of one length before any half of
        // them): a motion in contact between its free ends is found at the first level whose
        // midpoints reach the contact, not after the stretches before it are certified.
        while !self.level.is_empty() {
            self.next_level.clear();
            self.next_active.clear();
            for index in 0..self.level.len() {
                let Stretch {
                    s0,
                    s1,
                    first,
                    end,
                    ends,
                } = self.level[index];
                // Pairs the second-order certificate clears over the whole stretch leave it.
                self.block.clear();
                // (Over the whole motion, what the test can do without distances is done.)
                let whole = s0 == 0.0 && s1 == 1.0;
                for &(k, d0, d1) in &self.active[first..end] {
                    if !self
                        .chord
                        .certifies(checker, k, ends, s1 - s0, (d0, d1), whole)
                    {
                        self.block.push((k, d0, d1));
                    }
                }
                if self.block.is_empty() {
                    continue;
                }
                let mid = 0.5 * (s0 + s1);
                if s1 - s0 < 2.0 * min_step || mid <= s0 || mid >= s1 || self.budget == 0 {
                    return false;
                }
                self.budget -= 1;
                point_on_motion(&mut self.q, qa, qb, mid);
                checker.pose(&self.q);
                let at_mid = self.chord.snapshot(checker);
                let half = 0.5 * (s1 - s0);
                self.mids.clear();
                for &(k, _, _) in &self.block {
                    // (Only ≤ 0 matters for a pair in contact: no depth; a lower bound
                    // certifies as well as the distance, if less often.)
                    let dm = checker.contact_distance(k);
                    if dm <= 0.0 {
                        return false;
                    }
                    self.mids.push(dm);
                }
                let left_start = self.next_active.len();
                for (&(k, d0, _), &dm) in self.block.iter().zip(&self.mids) {
                    if !certified(d0, dm, self.pair_bounds[k] * half) {
                        self.next_active.push((k, d0, dm));
                    }
                }
                let right_start = self.next_active.len();
                for (&(k, _, d1), &dm) in self.block.iter().zip(&self.mids) {
                    if !certified(dm, d1, self.pair_bounds[k] * half) {
                        self.next_active.push((k, dm, d1));
                    }
                }
                if right_start > left_start {
                    self.next_level.push(Stretch {
                        s0,
                        s1: mid,
                        first: left_start,
                        end: right_start,
                        ends: (ends.0, at_mid),
                    });
                }
                if self.next_active.len() > right_start {
                    self.next_level.push(Stretch {
                        s0: mid,
                        s1,
                        first: right_start,
                        end: self.next_active.len(),
                        ends: (at_mid, ends.1),
                    });
                }
            }
            std::mem::swap(&mut self.level, &mut self.next_level);
            std::mem::swap(&mut self.active, &mut self.next_active);
        }
        true
    }
}
