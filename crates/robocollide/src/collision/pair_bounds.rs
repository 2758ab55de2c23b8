//! [`PairBounds`]: every checked pair's motion bound along the current motion, read from one
//! suffix table per robot ([`MotionBound`]'s posed tables; see there for the bound and its
//! proof). The planners' motion check ([`MotionCheck`](super::MotionCheck)) sets it once per
//! motion.

use super::motion_bound::MotionBound;
use crate::math::{Real, Vector3};

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
    /// Per robot, whether it has joints. A robot without (a scene's obstacle: dozens of them)
    /// has the same table for every motion, set at the first.
    moving: Vec<bool>,
    /// Reused by [`MotionBound::posed_suffixes`].
    axes: Vec<(Vector3, Vector3)>,
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
            moving: checker
                .cell()
                .robots
                .iter()
                .map(|r| r.model.dof() > 0)
                .collect(),
            axes: Vec::new(),
        }
    }

    /// The tables for the motion `qa → qb` (whole-cell configurations), with `checker` posed
    /// at `qa` or `qb`: lever arms measured there ([`MotionBound::posed_suffixes`]).
    pub(crate) fn set_motion(
        &mut self,
        bound: &MotionBound,
        checker: &super::CellChecker<'_>,
        qa: &[Real],
        qb: &[Real],
    ) {
        for (r, table) in self.tables.iter_mut().enumerate() {
            if !self.moving[r] && !table.is_empty() {
                continue;
            }
            let ends = (checker.robot_q(qa, r), checker.robot_q(qb, r));
            bound.posed_suffixes(r, checker.frames(r), ends, &mut self.axes, table);
        }
    }

    /// Pair `k`'s motion bound along the current motion.
    #[inline(always)]
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
