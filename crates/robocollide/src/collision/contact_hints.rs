//! Hints a contact search keeps between queries: the block of the last contact and the pairs
//! of the most recent ones (a planner's rejected configurations mostly collide where the
//! previous ones did). Shared through `&self` with relaxed atomics: they only order the
//! search, never change a verdict.

use std::sync::atomic::{AtomicUsize, Ordering};

/// Pairs of recent contacts a contact query measures before searching (see
/// [`PairSearch::recent_contact_pairs`](super::pair_search::PairSearch::recent_contact_pairs)).
const RECENT_CONTACTS: usize = 8;

/// A block or pair index shared by searches through `&self` (relaxed: only the order in
/// which blocks and pairs are tried depends on it, never a verdict).
#[derive(Debug, Default)]
pub(super) struct ContactHint(pub(super) AtomicUsize);

impl Clone for ContactHint {
    fn clone(&self) -> Self {
        Self(AtomicUsize::new(self.0.load(Ordering::Relaxed)))
    }
}

/// Up to [`RECENT_CONTACTS`] distinct pair indices, the most recently remembered first
/// (`usize::MAX` in unused places), shared through `&self` like [`ContactHint`].
#[derive(Debug, Clone)]
pub(super) struct RecentPairs([ContactHint; RECENT_CONTACTS]);

impl Default for RecentPairs {
    fn default() -> Self {
        Self(std::array::from_fn(|_| {
            ContactHint(AtomicUsize::new(usize::MAX))
        }))
    }
}

impl RecentPairs {
    pub(super) fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().map(|hint| hint.0.load(Ordering::Relaxed))
    }

    /// Puts `k` first; the pairs before its old place (all of them if it had none) move down
    /// one, so the least recent drops out.
    pub(super) fn remember(&self, k: usize) {
        let mut carried = k;
        for hint in &self.0 {
            carried = hint.0.swap(carried, Ordering::Relaxed);
            if carried == k {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recent_pairs_keep_the_latest_distinct_pairs_first() {
        let recent = RecentPairs::default();
        assert!(recent.iter().all(|k| k == usize::MAX));
        recent.remember(3);
        assert_eq!(recent.iter().next(), Some(3));
        assert_eq!(recent.iter().filter(|&k| k != usize::MAX).count(), 1);
        for k in 0..RECENT_CONTACTS + 4 {
            recent.remember(k);
        }
        let newest_first: Vec<usize> = (4..RECENT_CONTACTS + 4).rev().collect();
        assert_eq!(recent.iter().collect::<Vec<_>>(), newest_first);
        // A pair already held moves to the front; the others keep their order.
        let middle = newest_first[RECENT_CONTACTS / 2];
        recent.remember(middle);
        let mut expected = vec![middle];
        expected.extend(newest_first.iter().copied().filter(|&k| k != middle));
        assert_eq!(recent.iter().collect::<Vec<_>>(), expected);
        // The front pair again changes nothing.
        recent.remember(middle);
        assert_eq!(recent.iter().collect::<Vec<_>>(), expected);
    }
}
