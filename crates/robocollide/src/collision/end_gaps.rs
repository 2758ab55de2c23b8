//! [`EndGaps`]: the block gaps a certified motion measured at its end, kept by that end's
//! configuration, so that a motion starting there later reads them instead of measuring.
//!
//! A planner's tree grows from configurations that were the ends of certified motions: every
//! node but the roots, and every step of a connect walk starts where the last one ended. The
//! [`MotionCheck`](super::MotionCheck) measures every block's gap at a motion's end (a lower
//! bound on the distance of each of the block's pairs: the groups' bounding spheres' gap, an
//! obstacle's box's gap to the link's sphere, or that sphere's exact distance to the
//! obstacle), and again, for the blocks left open, at its start. The start's values are the
//! same numbers when the start was an end before: the cell's obstacles never move and a
//! configuration is posed bit for bit the same way, so a gap kept with the configuration's
//! exact bits is the gap measured there now. Each is kept with whether it is the block's
//! tightest measure (`exact`), or a looser lower bound the end did not need to refine.
//!
//! Kept per cell (a [`MotionCheck`](super::MotionCheck) is built for one), at most
//! [`MAX_KEPT_VALUES`] gaps in all: when full, everything kept is dropped and filling starts
//! again (the nodes of a tree that large are found by nearest-neighbour queries over
//! thousands; the recent ones are as likely to be asked for as any).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::math::Real;

/// Most values kept (gaps and configurations' coordinates together): 8 MiB of them.
pub const MAX_KEPT_VALUES: usize = 1 << 20;

/// Configurations room is made for at the first keep: growing from nothing, the storage was
/// copied at every doubling (on MotionBenchMaker 2 % of the planner's instructions, a
/// tree's first nodes being most problems' whole tree).
const FIRST_SLOTS: usize = 64;

/// The block gaps measured at certified motions' ends, by configuration.
#[derive(Debug, Clone, Default)]
pub(super) struct EndGaps {
    /// Slot by the configuration's hash (a hash shared by two configurations keeps the last).
    slots: HashMap<u64, usize, BuildHasherDefault<KeyIsHash>>,
    /// Per slot, the configuration (its exact bits decide a match) and the blocks' gaps and
    /// whether each is exact.
    configurations: Vec<u64>,
    gaps: Vec<Real>,
    exact: Vec<bool>,
}

impl EndGaps {
    /// The slot of the gaps kept for configuration `q` (bit for bit), if any.
    pub(super) fn find(&self, q: &[Real]) -> Option<usize> {
        let slot = *self.slots.get(&hash(q))?;
        let kept = self
            .configurations
            .get(slot * q.len()..(slot + 1) * q.len())?;
        kept.iter()
            .zip(q)
            .all(|(&bits, x)| bits == x.to_bits())
            .then_some(slot)
    }

    /// Block `i`'s gap in `slot` (blocks counted `blocks`), and whether it is exact.
    #[inline]
    pub(super) fn gap(&self, slot: usize, blocks: usize, i: usize) -> (Real, bool) {
        let at = slot * blocks + i;
        (self.gaps[at], self.exact[at])
    }

    /// The gaps in `slot` (blocks counted `blocks`).
    #[inline]
    pub(super) fn gaps(&self, slot: usize, blocks: usize) -> &[Real] {
        &self.gaps[slot * blocks..(slot + 1) * blocks]
    }

    /// Keeps `gaps` (one per block, `exact` saying which are exact) for configuration `q`,
    /// over what was kept for it before. (Storage is counted by what it holds, so that a
    /// configuration kept again, or two sharing a hash, never grow it past the limit.)
    pub(super) fn keep(&mut self, q: &[Real], gaps: &[Real], exact: &[bool]) {
        debug_assert_eq!(gaps.len(), exact.len());
        if q.is_empty() {
            return;
        }
        if let Some(slot) = self.find(q) {
            let at = slot * gaps.len()..(slot + 1) * gaps.len();
            if let (Some(kept), Some(flags)) =
                (self.gaps.get_mut(at.clone()), self.exact.get_mut(at))
            {
                kept.copy_from_slice(gaps);
                flags.copy_from_slice(exact);
                return;
            }
        }
        if self.gaps.len() + self.configurations.len() + gaps.len() + q.len() > MAX_KEPT_VALUES {
            self.slots.clear();
            self.configurations.clear();
            self.gaps.clear();
            self.exact.clear();
        }
        if self.gaps.capacity() == 0 {
            let slots = FIRST_SLOTS.min(MAX_KEPT_VALUES / (gaps.len() + q.len()));
            self.configurations.reserve(slots * q.len());
            self.gaps.reserve(slots * gaps.len());
            self.exact.reserve(slots * exact.len());
        }
        let slot = self.configurations.len() / q.len();
        self.configurations.extend(q.iter().map(|x| x.to_bits()));
        self.gaps.extend_from_slice(gaps);
        self.exact.extend_from_slice(exact);
        self.slots.insert(hash(q), slot);
    }
}

/// The map's hasher: its keys are already hashes ([`hash`]), taken as they are (the standard
/// SipHash of a key cost as much as the configuration's own hash, on every motion check).
#[derive(Debug, Clone, Copy, Default)]
struct KeyIsHash(u64);

impl Hasher for KeyIsHash {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `u64` keys are hashed here; anything else is folded in FNV-1a's way.
        for &byte in bytes {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// A hash of `q`'s bits (FNV-1a over the words, then a final mix).
fn hash(q: &[Real]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325_u64;
    for x in q {
        h = (h ^ x.to_bits()).wrapping_mul(0x0000_0100_0000_01b3);
    }
    h ^ (h >> 29)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_only_the_same_bits() {
        let mut kept = EndGaps::default();
        assert_eq!(kept.find(&[0.1, 0.2]), None);
        kept.keep(&[0.1, 0.2], &[1.0, -2.0, 3.0], &[true, false, true]);
        kept.keep(&[0.3, 0.2], &[4.0, 5.0, 6.0], &[false, false, true]);
        let slot = kept.find(&[0.1, 0.2]).unwrap();
        assert_eq!(kept.gap(slot, 3, 1), (-2.0, false));
        let slot = kept.find(&[0.3, 0.2]).unwrap();
        assert_eq!(kept.gap(slot, 3, 0), (4.0, false));
        // One bit off, or −0 for 0, is another configuration.
        assert_eq!(
            kept.find(&[0.1, f64::from_bits(0.2f64.to_bits() + 1)]),
            None
        );
        kept.keep(&[0.0], &[1.0], &[true]);
        assert_eq!(kept.find(&[-0.0]), None);
    }

    #[test]
    fn drops_everything_when_full() {
        let mut kept = EndGaps::default();
        let gaps = vec![1.0; 1023];
        let exact = vec![true; 1023];
        let per = gaps.len() + 1;
        for i in 0..MAX_KEPT_VALUES / per {
            kept.keep(&[i as Real], &gaps, &exact);
        }
        assert!(kept.find(&[0.0]).is_some());
        kept.keep(&[-1.0], &gaps, &exact);
        assert!(kept.find(&[0.0]).is_none());
        assert!(kept.find(&[-1.0]).is_some());
        assert!(kept.gaps.len() <= MAX_KEPT_VALUES);
    }

    /// A configuration kept again replaces what was kept for it: storage does not grow.
    #[test]
    fn keeping_one_configuration_again_replaces_it() {
        let mut kept = EndGaps::default();
        for i in 0..10 * MAX_KEPT_VALUES / 4 {
            kept.keep(&[0.5, 0.25], &[i as Real, 1.0], &[true, false]);
        }
        assert_eq!(kept.gaps.len(), 2);
        let slot = kept.find(&[0.5, 0.25]).unwrap();
        assert_eq!(
            kept.gap(slot, 2, 0).0,
            (10 * MAX_KEPT_VALUES / 4 - 1) as Real
        );
    }
}
