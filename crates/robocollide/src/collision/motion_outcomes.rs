//! [`MotionOutcomes`]: how a [`MotionCheck`](super::MotionCheck)'s motions ended, counted by the
//! stage that settled each: a planner's statistics (RRT-Connect reports those of its search,
//! `Plan::search_motions`), and the counts a time model of the search is fitted to
//! (`benches/median_decomposition.py`).

use std::ops::Sub;

/// Counts of motion checks by how they ended (see [`MotionCheck::free`](super::MotionCheck::free)).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct MotionOutcomes {
    /// Turned down before any search: an end the checker does not accept
    /// ([`CellChecker::validate`](super::CellChecker::validate): the wrong number of values,
    /// or a value that is not finite or beyond the length limit), or ends of different lengths.
    pub invalid: usize,
    /// Blocked at an interior point the rake's contact searches found in contact.
    pub blocked_inside: usize,
    /// Blocked at the motion's end (its contact search).
    pub blocked_at_end: usize,
    /// Not certified: the certificate met a contact at one of its evaluated points, or ran out
    /// of stretches or evaluations first (a planner treats the motion as blocked either way).
    pub refused: usize,
    /// Certified free of contact.
    pub certified: usize,
}

impl MotionOutcomes {
    /// Counts a motion the certificate settled: certified when `free`, else refused.
    pub(super) fn settled_by_certificate(&mut self, free: bool) {
        if free {
            self.certified += 1;
        } else {
            self.refused += 1;
        }
    }

    /// Every motion counted.
    pub fn total(&self) -> usize {
        self.invalid + self.blocked_inside + self.blocked_at_end + self.refused + self.certified
    }
}

/// The motions counted since `earlier` (counts only grow; a larger `earlier` gives 0).
impl Sub for MotionOutcomes {
    type Output = Self;

    fn sub(self, earlier: Self) -> Self {
        Self {
            invalid: self.invalid.saturating_sub(earlier.invalid),
            blocked_inside: self.blocked_inside.saturating_sub(earlier.blocked_inside),
            blocked_at_end: self.blocked_at_end.saturating_sub(earlier.blocked_at_end),
            refused: self.refused.saturating_sub(earlier.refused),
            certified: self.certified.saturating_sub(earlier.certified),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_since_an_earlier_reading_and_their_total() {
        let mut earlier = MotionOutcomes {
            invalid: 1,
            blocked_inside: 5,
            blocked_at_end: 2,
            refused: 0,
            certified: 3,
        };
        let mut later = earlier;
        later.blocked_inside += 4;
        later.settled_by_certificate(true);
        later.settled_by_certificate(false);
        let since = later - earlier;
        assert_eq!(
            since,
            MotionOutcomes {
                blocked_inside: 4,
                refused: 1,
                certified: 1,
                ..Default::default()
            }
        );
        assert_eq!((since.total(), later.total()), (6, 17));
        // A reading taken later than the one it is taken from gives nothing, not a wrap.
        earlier.certified = 100;
        assert_eq!((later - earlier).certified, 0);
    }
}
