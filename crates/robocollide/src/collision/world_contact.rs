//! [`CellChecker::world_contact_at`]: the planner's quick refusal — is a configuration in
//! contact with the world (or, by a recent contact's pair, with anything)? A yes/no answer
//! that places only the bodies it must look at.
//!
//! Three stages: the link frames, then the recent contacts' pairs with only their two bodies
//! placed (on MotionBenchMaker 43 % of these queries end there), then, where every group of
//! the robots with joints is one link's spheres (`CellPose::place_groups_alone`), the
//! groups' spheres alone and the search over the blocks in its usual order, each block the
//! cull tests leave in play getting its groups' spheres placed just before its pairs are
//! measured (`PairSearch::world_contact_search_placing`). A search that looks past the recent
//! contacts measures ~1.2 blocks, so most of a robot's bodies are never placed. Elsewhere
//! (other body kinds, groups without a link) every body is placed first and the same search
//! runs (`CellChecker::searched_contact`): the same blocks, pairs and answer either way.

use super::checker::CellChecker;
use crate::math::Real;
use crate::wide::{WideOp, run_wide};

impl CellChecker<'_> {
    /// Poses `q` and looks for a contact to refuse a planner's motion on early: the recent
    /// contacts' pairs (any), then every pair that is not a robot's own. `true` only for a
    /// contact; `false` may leave a robot in contact with itself (the motion check's
    /// certificate, which measures every pair, finds that: see
    /// `PairSearch::world_contact_search`). Places bodies only as the answer needs (see the
    /// module docs): after either answer other bodies may be left where an earlier pose put
    /// them, so [`Self::pose`] again before reading any (it places them). Not validated, as
    /// [`Self::pose`].
    pub(crate) fn world_contact_at(&mut self, q: &[Real]) -> bool {
        run_wide(WorldContactAt(self, q))
    }

    /// [`Self::world_contact_at`]'s work, inlined into the function [`run_wide`] picks.
    #[inline(always)]
    fn world_contact_at_here(&mut self, q: &[Real]) -> bool {
        self.pose.pose_frames(self.cell(), q);
        let n = self.flat_pairs.len();
        for k in self.search.recent_contact_pairs() {
            if k >= n {
                continue;
            }
            let (a, b) = self.flat_pairs[k];
            if !(self.pose.place_body(a) && self.pose.place_body(b)) {
                self.pose.place_bodies(self.cell());
            }
            let by_gap = self.pose.sphere_solid_contact(a, b);
            if by_gap.unwrap_or_else(|| self.contact_distance(k) <= 0.0) {
                self.search.remember_contact_pair(k);
                return true;
            }
        }
        if !self.pose.place_groups_alone() {
            self.pose.place_bodies(self.cell());
            return self.searched_contact::<true>();
        }
        let window = self.contact_window();
        let best = self
            .search
            .world_contact_search_placing(&mut self.pose, window);
        let contact = best.pair != usize::MAX && self.rounded(best).distance <= 0.0;
        if contact {
            self.search.remember_contact_pair(best.pair);
        }
        contact
    }
}

/// [`CellChecker::world_contact_at`], as [`run_wide`] runs it.
struct WorldContactAt<'c, 'a, 'q>(&'c mut CellChecker<'a>, &'q [Real]);

impl WideOp for WorldContactAt<'_, '_, '_> {
    type Output = bool;

    #[inline(always)]
    fn run(self) -> bool {
        self.0.world_contact_at_here(self.1)
    }
}
