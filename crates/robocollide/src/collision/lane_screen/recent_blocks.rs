//! [`RecentBlocks`]: the blocks of the lane screen's last contacts, screened first in each
//! pass (a planner's blocked motions mostly meet an obstacle where the previous ones did; the
//! order changes no verdict).
//!
//! Each block's place among the recent ones is kept per block, so that a pass brings them to
//! the front of its open blocks in one sweep over those: a search of the open blocks per
//! recent block cost ~8 × 50 comparisons per pass, most of them for a block not open.

use crate::collision::contact_hints::RecentPairs;

/// No place among the recent contacts.
const NOT_RECENT: u8 = u8::MAX;

/// The blocks of the last contacts, most recent first, and each block's place among them.
#[derive(Debug, Clone)]
pub(super) struct RecentBlocks {
    recent: RecentPairs,
    /// Per block, its place in `recent` ([`NOT_RECENT`]: none).
    place: Vec<u8>,
}

impl RecentBlocks {
    /// No recent contacts among `blocks` blocks.
    pub(super) fn new(blocks: usize) -> Self {
        Self {
            recent: RecentPairs::default(),
            place: vec![NOT_RECENT; blocks],
        }
    }

    /// The recent blocks, most recent first (`usize::MAX`: an empty place).
    pub(super) fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.recent.iter()
    }

    /// Block `i` becomes the most recent contact.
    pub(super) fn remember(&mut self, i: usize) {
        for old in self.recent.iter() {
            if let Some(place) = self.place.get_mut(old) {
                *place = NOT_RECENT;
            }
        }
        self.recent.remember(i);
        for (rank, block) in self.recent.iter().enumerate() {
            if let Some(place) = self.place.get_mut(block) {
                *place = rank as u8;
            }
        }
    }

    /// Moves the recent blocks among `open` to its front, most recent first (the others after
    /// them, in any order).
    #[inline(always)]
    pub(super) fn to_front(&self, open: &mut [usize]) {
        let mut front = 0;
        for index in 0..open.len() {
            let i = open[index];
            // (A swap, not a shift: the block it moves back was looked at already.)
            if self.place.get(i).is_some_and(|&p| p != NOT_RECENT) {
                open.swap(front, index);
                front += 1;
            }
        }
        open[..front].sort_unstable_by_key(|&i| self.place[i]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The recent blocks come first, most recent first, then the others; blocks out of range
    /// are never recent.
    #[test]
    fn recent_blocks_come_first_in_recency_order() {
        let mut recent = RecentBlocks::new(20);
        let mut open: Vec<usize> = (0..20).rev().collect();
        recent.to_front(&mut open);
        assert_eq!(open, (0..20).rev().collect::<Vec<_>>());
        for i in [3, 17, 9, 25] {
            recent.remember(i);
        }
        recent.remember(17);
        recent.to_front(&mut open);
        assert_eq!(open[..3], [17, 9, 3]);
        assert_same_blocks(&open, 20);
        // Nine distinct blocks: the first one remembered is no longer recent.
        for i in 0..9 {
            recent.remember(i);
        }
        let mut open: Vec<usize> = (0..20).collect();
        recent.to_front(&mut open);
        assert_eq!(open[..8], [8, 7, 6, 5, 4, 3, 2, 1]);
        assert_same_blocks(&open, 20);
        // Only the open ones among them.
        let mut open = vec![12, 2, 0, 7, 19];
        recent.to_front(&mut open);
        assert_eq!(open[..2], [7, 2]);
        assert_same_blocks(&open, 0);
    }

    /// `open` holds each of its blocks once, and all of `0..n`.
    fn assert_same_blocks(open: &[usize], n: usize) {
        let mut sorted = open.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), open.len());
        assert!((0..n).all(|i| sorted.contains(&i)));
    }
}
