//! [`StartMeasure`]: the pairs of a motion's open blocks measured at its start, for the
//! [`MotionCheck`](super::MotionCheck)'s two-ended certificate: each pair's motion bound, and
//! its distance where its cheap lower bound is within that bound; or, where the chord test's
//! distance-free part clears the pair over the whole motion, nothing measured.

use super::checker::CellChecker;
use super::chord_certificate::ChordCertificate;
use super::pair_bounds::PairBounds;
use crate::math::Real;

/// What measuring pairs at the motion's start writes, borrowed apart from the blocks.
pub(super) struct StartMeasure<'m> {
    pub(super) bounds: &'m PairBounds,
    /// The chord test and the snapshots of the motion's ends.
    pub(super) chord: (&'m ChordCertificate, (usize, usize)),
    pub(super) pair_bounds: &'m mut [Real],
    pub(super) at_a: &'m mut [Real],
}

impl StartMeasure<'_> {
    /// Marks pair `k` certified whatever b shows: infinitely far at a, bound 0.
    #[inline]
    pub(super) fn certify(&mut self, k: usize) {
        self.at_a[k] = Real::INFINITY;
        self.pair_bounds[k] = 0.0;
    }

    /// Measures `pairs` at the motion's start (posed): each pair's motion bound, and its
    /// distance where its cheap lower bound is within it; `false` on contact. A pair the
    /// chord test clears without its distances (a face of the obstacle beyond a sphere's
    /// swept chord, two spheres' chords apart) is certified with nothing measured.
    pub(super) fn measure(&mut self, checker: &CellChecker<'_>, pairs: &[usize]) -> bool {
        let (chord, ends) = self.chord;
        for &k in pairs {
            if chord.clears_unmeasured(checker, k, ends) {
                self.certify(k);
                continue;
            }
            let limit = self.bounds.pair(k);
            self.pair_bounds[k] = limit;
            let d = checker.distance_within(k, limit);
            if d <= 0.0 {
                return false;
            }
            self.at_a[k] = d;
        }
        true
    }
}
