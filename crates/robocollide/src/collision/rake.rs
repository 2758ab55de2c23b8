//! Contact searches at the interior points of a long joint-space motion, coarse to fine: the
//! motion check's fast way to turn down a shortcut or a planner's direct try from start to
//! goal, which are mostly blocked inside ([`MotionCheck`](super::MotionCheck)).
//!
//! The points are `qa + (qb − qa)·i/n` for `i = 1 … n − 1`, `n` the number of whole
//! [`RAKE_SPACING`]s in the motion's joint-space length (Euclidean, in the configuration's
//! units) rounded up to a power of two, so the points are less than 1.5 spacings apart. They
//! are visited in the order of VAMP's "rake" (Thomason, Kingston & Kavraki, *Motions in
//! microseconds via vectorized sampling-based planning*, ICRA 2024): the midpoint, then the
//! quarter points, then the eighths, so a contact anywhere is met at the coarsest level that
//! reaches it. A point in contact is a reason to answer "blocked"; points found free prove
//! nothing about the stretches between them, so the certificate is still needed.

use super::checker::CellChecker;
use crate::math::Real;

/// Joint-space length (rad, or m for prismatic joints) per contact search at a long motion's
/// interior points before it is certified: a planner's step of 0.3 rad (MotionBenchMaker) gets
/// none, one of 1 rad its midpoint. Chosen against 0.3, 0.5, 0.7 and 1 (benches/README.md,
/// RRT-Connect, session 19).
pub const RAKE_SPACING: Real = 0.4;

/// Most intervals a long motion's interior points divide it into.
const MAX_RAKE_INTERVALS: usize = 64;

/// Whether a culled contact search at an interior point of `qa → qb` finds contact (at most
/// `MAX_RAKE_INTERVALS − 1` points; none for a motion shorter than twice [`RAKE_SPACING`]).
/// `q` is scratch space. Expects `qb` posed and leaves it posed when it finds no contact.
pub(super) fn rake_finds_contact(
    checker: &mut CellChecker<'_>,
    q: &mut Vec<Real>,
    qa: &[Real],
    qb: &[Real],
) -> bool {
    let length = qa
        .iter()
        .zip(qb)
        .map(|(a, b)| (b - a) * (b - a))
        .sum::<Real>()
        .sqrt();
    // Saturating: a NaN length gives none (the certificate then turns the motion down).
    let spans = (length / RAKE_SPACING).min(MAX_RAKE_INTERVALS as Real) as usize;
    if spans < 2 {
        return false;
    }
    // A power of two, so that each level halves the last one's intervals.
    let intervals = spans.next_power_of_two();
    for i in coarse_to_fine(intervals) {
        let s = i as Real / intervals as Real;
        q.clear();
        q.extend(qa.iter().zip(qb).map(|(a, b)| a + (b - a) * s));
        checker.pose(q);
        if checker.in_contact() {
            return true;
        }
    }
    checker.pose(qb);
    false
}

/// `1 … intervals − 1`, those with the most trailing zeros (the coarsest) first, each level in
/// increasing order.
fn coarse_to_fine(intervals: usize) -> impl Iterator<Item = usize> {
    let levels = usize::BITS - intervals.leading_zeros();
    (0..levels).rev().flat_map(move |level| {
        let stride = 1usize << level;
        (stride..intervals).step_by(2 * stride)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_interior_point_once_coarse_to_fine() {
        let order = |n: usize| coarse_to_fine(n).collect::<Vec<_>>();
        assert_eq!(order(0), Vec::<usize>::new());
        assert_eq!(order(1), Vec::<usize>::new());
        assert_eq!(order(2), vec![1]);
        assert_eq!(order(3), vec![2, 1]);
        assert_eq!(order(5), vec![4, 2, 1, 3]);
        assert_eq!(order(8), vec![4, 2, 6, 1, 3, 5, 7]);
        assert_eq!(order(9), vec![8, 4, 2, 6, 1, 3, 5, 7]);
        for n in 2..=MAX_RAKE_INTERVALS {
            let mut points = order(n);
            points.sort_unstable();
            assert_eq!(points, (1..n).collect::<Vec<_>>(), "{n} intervals");
        }
    }
}
