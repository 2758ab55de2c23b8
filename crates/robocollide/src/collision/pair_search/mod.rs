//! [`PairSearch`]: the minimum-distance search over a cell's body pairs at one pose.
//!
//! Pairs are stored in *blocks*, one per pair of culling groups (a link's bodies, see
//! [`CellPose`]); inside a block by kind — point–point, point–segment, segment–segment (closed
//! forms on the posed cores), a sphere against an obstacle's box or cylinder (the centre's
//! squared gap to the solid, [`CellPose::fixed_solid_beyond`], before the kernel), then any
//! other pair with a cylinder, box or half-space (full query). A block is skipped
//! whole when its groups' bounding spheres are at least the current best apart, or (a link's
//! bodies against one box or cylinder) when the link's sphere is that far from the solid
//! itself (from an obstacle's world-aligned box first, [`CellPose::fixed_box_bound`], then by
//! the sphere's centre's squared gap to the solid, [`CellPose::fixed_solid_beyond`]); a
//! segment–segment or cylinder pair is skipped when its own bounding spheres are, a body
//! against an obstacle when its bounding sphere is that far from the obstacle's box (its
//! world-aligned box first, then its own box or cylinder by the centre's squared gap,
//! [`CellPose::fixed_solid_beyond`], before any exact kernel). Distances
//! are compared before contact rounding (the caller rounds the winner); the contact search
//! measures a cylinder–box pair only as far as its verdict needs (no depth, and a certified
//! lower bound when apart: `query::shape_shape_contact_distance`). The contact search
//! (stop at the first contact) and the closest-pair search walk the blocks in loops of their
//! own: the first from the block of the last contact (`contact_hints`), the second closest
//! block first. The
//! contact search finds a link's blocks against obstacles with a box from a grid over the
//! workspace ([`NearObstacles`]): only those of the obstacles listed near the link's sphere.

use std::ops::Range;
use std::sync::atomic::Ordering;

use super::contact_hints::{ContactHint, RecentPairs};
use super::core::Core;
use super::obstacle_grid::NearObstacles;
use super::pose::CellPose;
use crate::math::Real;
use crate::query::{shape_shape_contact_distance, shape_shape_distance};

mod build;

/// Independent running minima over the cheap pairs of a block.
const LANES: usize = 4;

/// Blocks whose gaps the closest-pair search keeps on the stack (later ones recompute).
const CACHED_GAPS: usize = 64;

/// The best pair so far: signed distance and index into the checker's pairs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Closest {
    /// Signed distance (m).
    pub distance: Real,
    /// Index into [`CellChecker::pairs`](super::CellChecker::pairs).
    pub pair: usize,
}

/// The kind of a body's core.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CoreKind {
    Point,
    Segment,
    /// A cylinder, box or half-space.
    General,
}

/// `(flat body, member index)` of the bodies of one group in a block.
type Members = Vec<(usize, usize)>;

#[derive(Debug, Clone)]
struct Block {
    /// Bodies of each group that have point–point pairs here: `(flat body, member index)`,
    /// for the per-body prefilter (empty when a group cannot be culled or is too large).
    members: (Members, Members),
    /// With both member lists present: the point–point pair index `k` of member `i` of group
    /// 0 and member `j` of group 1 at `grid[i * 64 + j]`'s position in a dense table
    /// (`usize::MAX`: no pair), so that only near members are visited.
    grid: Vec<(usize, usize, usize)>,
    grid_width: usize,
    point_point: Range<usize>,
    point_segment: Range<usize>,
    segment_segment: Range<usize>,
    sphere_solid: Range<usize>,
    with_general: Range<usize>,
    /// When every pair of the block has one general body on one side (an obstacle against a
    /// link's bodies): the other side's group and that body. The distance from the group's
    /// bounding sphere to the body's box or cylinder bounds every pair's (a shelf's own
    /// bounding sphere is most of the shelf).
    solid_side: Option<(usize, usize)>,
}

/// Pair lists sorted for the search; see the module docs.
#[derive(Debug, Clone)]
pub(super) struct PairSearch {
    /// `(a, b, k)`: flat bodies and the pair's index; in `point_segment` the point comes
    /// first.
    point_point: Vec<(usize, usize, usize)>,
    point_segment: Vec<(usize, usize, usize)>,
    segment_segment: Vec<(usize, usize, usize)>,
    /// A sphere against an obstacle's box or cylinder (the sphere first): measured by the
    /// centre's squared gap to the solid before any kernel.
    sphere_solid: Vec<(usize, usize, usize)>,
    with_general: Vec<(usize, usize, usize)>,
    blocks: Vec<Block>,
    /// Each block's pair of groups, apart from the blocks: the cull test that skips most
    /// blocks reads only these (a block is large: a contact search visits ~115 of them).
    block_groups: Vec<(usize, usize)>,
    /// Per block, whether its pairs are a robot's own (self-collision pairs), which the
    /// world contact search leaves out.
    own: Vec<bool>,
    /// The first of the grid's uncovered blocks that are a robot's own (they come last).
    uncovered_own: usize,
    /// The block of the last contact a contact search found, tried first by the next one.
    last_contact: ContactHint,
    /// The pairs of the last contacts found (see [`PairSearch::recent_contact_pairs`]).
    recent_contact_pairs: RecentPairs,
    /// The blocks of a link against an obstacle with a box, found from the link's place.
    near_obstacles: Option<NearObstacles>,
}

impl PairSearch {
    /// The pairs of the last distinct contacts the caller found, the most recent first
    /// (`usize::MAX` for none yet): a planner's rejected configurations mostly collide where
    /// an earlier one did, so measuring these few pairs first often settles a contact query at
    /// once. Several, not one: on MotionBenchMaker the last contact's pair settles 20 % of a
    /// planner's contact queries, the last eight 49 % (RRT-Connect's two trees, for one, take
    /// turns, each blocked in places of its own).
    pub(super) fn recent_contact_pairs(&self) -> impl Iterator<Item = usize> + '_ {
        self.recent_contact_pairs.iter()
    }

    /// Records pair `k` as the last contact found.
    pub(super) fn remember_contact_pair(&self, k: usize) {
        self.recent_contact_pairs.remember(k);
    }

    /// The pair of smallest distance below `start` (`pair == usize::MAX` if none); with
    /// `stop_at_contact`, returns as soon as a block yields a pair at distance ≤ 0.
    #[inline(always)]
    pub(super) fn search(&self, pose: &CellPose, start: Real, stop_at_contact: bool) -> Closest {
        let mut best = Closest {
            distance: start,
            pair: usize::MAX,
        };
        if stop_at_contact {
            self.contact_search::<false, _>(&mut { pose }, start, &mut best);
        } else {
            self.closest_search(pose, &mut best);
        }
        best
    }

    /// As [`Self::search`] stopping at contact, but over the pairs that are not a robot's own
    /// (self-collision pairs are left out): the planner's motion check searches a motion's
    /// interior points and its end only to refuse it early, and its certificate measures
    /// every pair, self pairs included. On MotionBenchMaker a robot's own blocks were ~20 of
    /// the ~40 blocks such a search visits, and rarely the reason to refuse.
    #[inline(always)]
    pub(super) fn world_contact_search(&self, pose: &CellPose, start: Real) -> Closest {
        let mut best = Closest {
            distance: start,
            pair: usize::MAX,
        };
        self.contact_search::<true, _>(&mut { pose }, start, &mut best);
        best
    }

    /// The world contact search for a pose whose bodies are not placed yet, only its groups'
    /// spheres ([`CellPose::place_groups_alone`]): [`Self::world_contact_search`]'s blocks in
    /// its order, each block that its cull tests leave in play getting its groups' bodies
    /// placed before its pairs are searched. (On MotionBenchMaker a search that looks past the
    /// recent contacts measures ~1.2 blocks, and placing every sphere first was a fifth of its
    /// cost.)
    #[inline(always)]
    pub(super) fn world_contact_search_placing(
        &self,
        mut pose: &mut CellPose,
        start: Real,
    ) -> Closest {
        let mut best = Closest {
            distance: start,
            pair: usize::MAX,
        };
        self.contact_search::<true, _>(&mut pose, start, &mut best);
        best
    }

    /// The contact search: the blocks in turn from the block of the last contact it found (a
    /// planner's rejected configurations mostly collide where the previous one did), each
    /// visited ([`Self::visit`], lowering `best`) until one ends the search. (Called directly,
    /// not through a closure: a closure is compiled apart, with the baseline instructions,
    /// outside [`run_wide`](crate::wide::run_wide)'s AVX2 build.) (The closest-first order is
    /// not for it: its best stays the tiny window until a contact ends it, so that order culls
    /// nothing more, and costs a square root per block.) A tight loop: most blocks fail the cull test.
    /// With `WORLD_ONLY`, a robot's own blocks are left out (see
    /// [`Self::world_contact_search`]). `window`, the search's starting best, decides where
    /// the obstacle grid tells which obstacles are near a link; the pose is held mutably where
    /// the visit places bodies.
    #[inline(always)]
    fn contact_search<const WORLD_ONLY: bool, P: SearchedPose>(
        &self,
        pose: &mut P,
        window: Real,
        best: &mut Closest,
    ) {
        let n = self.blocks.len();
        let first = self.last_contact.0.load(Ordering::Relaxed) % n.max(1);
        let Some(near) = &self.near_obstacles else {
            for i in (first..n).chain(0..first) {
                if !(WORLD_ONLY && self.own[i]) && self.visit(pose, i, best) {
                    return;
                }
            }
            return;
        };
        // The last contact's block, then each link against the obstacles near it (all of
        // them where the grid cannot tell), then the other blocks. The links from the last
        // to the first: a robot's distal links, the likeliest in contact, come last in its
        // groups (on MotionBenchMaker 1.2 % of the planner's instructions).
        if n == 0 || self.visit(pose, first, best) {
            return;
        }
        for (slot, &g) in near.groups.iter().enumerate().rev() {
            let (centre, radius) = pose.view().group_spheres()[g];
            let listed = if radius + window <= near.grid.reach() {
                near.grid.near(&centre)
            } else {
                None
            };
            if let Some(obstacles) = listed {
                for &o in obstacles {
                    let i = near.block(slot, o);
                    if i != usize::MAX && i != first && self.visit(pose, i, best) {
                        return;
                    }
                }
            } else {
                for &i in &near.blocks_of[slot] {
                    if i != first && self.visit(pose, i, best) {
                        return;
                    }
                }
            }
        }
        let uncovered = if WORLD_ONLY {
            &near.uncovered[..self.uncovered_own]
        } else {
            &near.uncovered[..]
        };
        for &i in uncovered {
            if i != first && self.visit(pose, i, best) {
                return;
            }
        }
    }

    /// The contact search's step: block `i` culled by its groups' spheres and its lone
    /// obstacle, else its bodies placed (where the pose is held mutably) and its pairs
    /// searched; `true` on contact.
    #[inline(always)]
    fn visit<P: SearchedPose>(&self, pose: &mut P, i: usize, best: &mut Closest) -> bool {
        let view = pose.view();
        if self.culled(view, i, best.distance) || self.lone_obstacle_far(view, i, best.distance) {
            return false;
        }
        pose.place_block(self.block_groups[i]);
        self.search_block::<true>(pose.view(), &self.blocks[i], self.block_groups[i], best);
        self.contact_ends(i, best)
    }

    /// Whether `best` ends a contact search at block `i` (a pair at distance ≤ 0), the block
    /// then kept to start the next search from.
    #[inline(always)]
    fn contact_ends(&self, i: usize, best: &Closest) -> bool {
        let contact = best.distance <= 0.0;
        if contact {
            self.last_contact.0.store(i, Ordering::Relaxed);
        }
        contact
    }

    /// Whether block `i`'s groups' spheres are `best` or more apart (no pair of it can be
    /// nearer).
    #[inline(always)]
    fn culled(&self, pose: &CellPose, i: usize, best: Real) -> bool {
        let (g, h) = self.block_groups[i];
        let spheres = pose.group_spheres();
        let ((ca, ra), (cb, rb)) = (spheres[g], spheres[h]);
        let reach = best + ra + rb;
        // (One branch for the verdict, not one per test: culled or not is unpredictable.)
        reach.is_finite() & ((reach <= 0.0) | ((cb - ca).norm_squared() >= reach * reach))
    }

    /// The closest-pair search: the block whose group spheres are closest goes first (its
    /// pairs give a small best early, so that most other blocks are culled whole), each
    /// block's gap from that pass kept for its cull test.
    fn closest_search(&self, pose: &CellPose, best: &mut Closest) {
        let gap = |(g, h): (usize, usize)| {
            let ((ca, ra), (cb, rb)) = (pose.group_sphere(g), pose.group_sphere(h));
            (cb - ca).norm() - ra - rb
        };
        let mut gaps = [Real::NEG_INFINITY; CACHED_GAPS];
        let mut first = (Real::INFINITY, 0);
        for (i, &groups) in self.block_groups.iter().enumerate() {
            let g = gap(groups);
            if i < CACHED_GAPS {
                gaps[i] = g;
            }
            if g < first.0 {
                first = (g, i);
            }
        }
        let first = first.1;
        let order = std::iter::once(first).chain((0..self.blocks.len()).filter(|&i| i != first));
        for i in order.take(self.blocks.len()) {
            let far = match gaps.get(i) {
                Some(&g) => g >= best.distance,
                None => gap(self.block_groups[i]) >= best.distance,
            };
            if !far {
                self.search_near_block::<false>(pose, i, best);
            }
        }
    }

    /// Block `i`, whose groups' spheres are nearer than `best`: skipped when the link's sphere
    /// is that far from its lone obstacle, else its pairs searched. `CONTACT`: for a contact
    /// search, which only asks whether some pair is at distance ≤ 0, with
    /// [`shape_shape_contact_distance`] (lower bounds for apart pairs, no depths).
    #[inline(always)]
    fn search_near_block<const CONTACT: bool>(
        &self,
        pose: &CellPose,
        i: usize,
        best: &mut Closest,
    ) {
        if !self.lone_obstacle_far(pose, i, best.distance) {
            self.search_block::<CONTACT>(pose, &self.blocks[i], self.block_groups[i], best);
        }
    }

    /// Whether block `i` is a link against one obstacle whose box or cylinder is `far` or
    /// more from the link's sphere (no pair of it can be nearer).
    #[inline(always)]
    fn lone_obstacle_far(&self, pose: &CellPose, i: usize, far: Real) -> bool {
        let Some((group, body)) = self.blocks[i].solid_side else {
            return false;
        };
        let (centre, radius) = pose.group_sphere(group);
        if matches!(pose.fixed_box_bound(body, &centre, radius), Some(d) if d >= far) {
            return true;
        }
        match pose.fixed_solid_beyond(body, &centre, radius, far) {
            Some(beyond) => beyond,
            None => matches!(pose.group_sphere_solid_distance(group, body), Some(d) if d >= far),
        }
    }

    /// Bit `m` set for each member `m` of `members` whose core can come within `best` of the
    /// other group's bounding sphere `(centre, radius)`; all bits set if `members` is empty.
    fn near_mask(
        c: &[Core],
        members: &[(usize, usize)],
        other: (crate::math::Point3, Real),
        best: Real,
    ) -> u64 {
        if members.is_empty() {
            return u64::MAX;
        }
        let mut mask = 0;
        for &(b, m) in members {
            let reach = best + c[b].radius + other.1;
            // (Without a branch: which members are near is not predictable.)
            let near = (reach > 0.0) & ((c[b].start - other.0).norm_squared() < reach * reach);
            mask |= u64::from(near) << m;
        }
        mask
    }

    #[inline(always)]
    fn search_block<const CONTACT: bool>(
        &self,
        pose: &CellPose,
        block: &Block,
        groups: (usize, usize),
        best: &mut Closest,
    ) {
        let c = pose.cores();
        // Spheres and sphere–segment pairs are cheap: they go round-robin into independent
        // running minima ("lanes"), so that no single compare-and-select chain serialises the
        // loop; the lanes are merged before the segment pairs.
        let mut lanes = [*best; LANES];
        let c_radius = |g: usize| pose.group_sphere(g);
        if block.grid_width > 0 {
            // Only members near the other group's sphere can beat the best.
            let near_a = Self::near_mask(c, &block.members.0, c_radius(groups.1), best.distance);
            let near_b = Self::near_mask(c, &block.members.1, c_radius(groups.0), best.distance);
            let mut i = 0;
            let mut rows = near_a;
            while rows != 0 {
                let row = rows.trailing_zeros() as usize;
                rows &= rows - 1;
                let mut columns = near_b;
                while columns != 0 {
                    let column = columns.trailing_zeros() as usize;
                    columns &= columns - 1;
                    let (a, b, k) = block.grid[row * block.grid_width + column];
                    if k != usize::MAX {
                        offer_squared(
                            &mut lanes[i % LANES],
                            (c[b].start - c[a].start).norm_squared(),
                            c[a].radius + c[b].radius,
                            k,
                        );
                        i += 1;
                    }
                }
            }
        } else {
            for (i, &(a, b, k)) in self.point_point[block.point_point.clone()]
                .iter()
                .enumerate()
            {
                offer_squared(
                    &mut lanes[i % LANES],
                    (c[b].start - c[a].start).norm_squared(),
                    c[a].radius + c[b].radius,
                    k,
                );
            }
        }
        for (i, &(p, s, k)) in self.point_segment[block.point_segment.clone()]
            .iter()
            .enumerate()
        {
            let (x, y) = (&c[p], &c[s]);
            let t = ((x.start - y.start).dot(&y.direction) * y.inv_dd).clamp(0.0, 1.0);
            offer_squared(
                &mut lanes[i % LANES],
                (y.start + y.direction * t - x.start).norm_squared(),
                x.radius + y.radius,
                k,
            );
        }
        for lane in lanes {
            if (lane.distance, lane.pair) < (best.distance, best.pair) {
                *best = lane;
            }
        }
        for &(a, b, k) in &self.segment_segment[block.segment_segment.clone()] {
            let (x, y) = (&c[a], &c[b]);
            let radii = x.radius + y.radius;
            // Skip when even the cores' bounding spheres are too far apart to win.
            let reach = best.distance + radii + x.half_length + y.half_length;
            let centres = (y.start + y.direction * 0.5) - (x.start + x.direction * 0.5);
            if reach <= 0.0 || centres.norm_squared() >= reach * reach {
                continue;
            }
            offer_squared(best, x.core_distance_squared(y), radii, k);
        }
        // A sphere against an obstacle's box or cylinder: its centre's squared gap to the
        // solid first (no square root), the kernel only where that cannot rule the pair out.
        for &(sphere, solid, k) in &self.sphere_solid[block.sphere_solid.clone()] {
            let (centre, radius) = (&c[sphere].start, c[sphere].radius);
            if pose.fixed_solid_beyond(solid, centre, radius, best.distance) == Some(true) {
                continue;
            }
            // (A contact search asks no depth: a centre surely inside the ball's reach of the
            // solid settles it.)
            if CONTACT && let Some(d) = pose.fixed_solid_met(solid, centre, radius) {
                *best = Closest {
                    distance: d,
                    pair: k,
                };
                return;
            }
            let ball = crate::geom::Sphere::from_finite(*centre, radius);
            if let Some(d) = pose.sphere_solid_distance(&ball, solid)
                && d < best.distance
            {
                *best = Closest {
                    distance: d,
                    pair: k,
                };
            }
        }
        for &(a, b, k) in &self.with_general[block.with_general.clone()] {
            let ((ca, ra), (cb, rb)) = (c[a].bounding_sphere(), c[b].bounding_sphere());
            let reach = best.distance + ra + rb;
            if reach < 0.0 || (reach.is_finite() && (cb - ca).norm_squared() >= reach * reach) {
                continue;
            }
            let (swept, solid, (centre, radius)) = if c[a].general {
                (b, a, (cb, rb))
            } else {
                (a, b, (ca, ra))
            };
            // Against an obstacle, its world-aligned box first.
            if pose
                .fixed_box_bound(solid, &centre, radius)
                .is_some_and(|gap| gap >= best.distance)
            {
                continue;
            }
            // A sphere or capsule against an obstacle's box or cylinder: the squared gap of its
            // bounding sphere's centre to the solid; elsewhere a capsule's bounding sphere's
            // distance to the solid. Either bounds the pair's from below, at a fraction of the
            // kernel's cost.
            match pose.fixed_solid_beyond(solid, &centre, radius, best.distance) {
                Some(true) => continue,
                Some(false) => {}
                None if c[swept].dd > 0.0 && !c[swept].general => {
                    let ball = crate::geom::Sphere::from_finite(centre, radius);
                    if pose
                        .sphere_solid_distance(&ball, solid)
                        .is_some_and(|d| d >= best.distance)
                    {
                        continue;
                    }
                }
                None => {}
            }
            // A cylinder against a box: its capsule's distance first (the cylinder–box query
            // is GJK's, or a direction search when they overlap).
            if pose
                .cylinder_box_lower_bound(a, b)
                .is_some_and(|lower| lower >= best.distance)
            {
                continue;
            }
            let d = pose.core_solid_distance(a, b).unwrap_or_else(|| {
                let (x, y) = (pose.shape(a), pose.shape(b));
                if CONTACT {
                    shape_shape_contact_distance(&x, &y)
                } else {
                    shape_shape_distance(&x, &y)
                }
            });
            if d < best.distance {
                *best = Closest {
                    distance: d,
                    pair: k,
                };
            }
        }
    }
}

/// A pose as the contact search reads it, shared or held mutably: one held mutably gets each
/// searched block's bodies placed just before they are measured
/// ([`PairSearch::world_contact_search_placing`]).
trait SearchedPose {
    fn view(&self) -> &CellPose;
    fn place_block(&mut self, groups: (usize, usize));
}

impl SearchedPose for &CellPose {
    #[inline(always)]
    fn view(&self) -> &CellPose {
        self
    }

    #[inline(always)]
    fn place_block(&mut self, _: (usize, usize)) {}
}

impl SearchedPose for &mut CellPose {
    #[inline(always)]
    fn view(&self) -> &CellPose {
        self
    }

    #[inline(always)]
    fn place_block(&mut self, (g, h): (usize, usize)) {
        self.place_group_bodies(g);
        self.place_group_bodies(h);
    }
}

/// Pair `k`, of core distance squared `core_squared` and radii `radii`, as the new `best` if it
/// beats it. A pair beats the best only if its core distance is below best + radii: squares
/// are compared, and the square root taken only for winners. (A function, not a closure: a
/// closure is compiled apart, with the baseline instructions, outside
/// [`run_wide`](crate::wide::run_wide)'s AVX2 build.)
#[inline(always)]
fn offer_squared(best: &mut Closest, core_squared: Real, radii: Real, k: usize) {
    let reach = best.distance + radii;
    if reach > 0.0 && core_squared < reach * reach {
        *best = Closest {
            distance: core_squared.sqrt() - radii,
            pair: k,
        };
    }
}
