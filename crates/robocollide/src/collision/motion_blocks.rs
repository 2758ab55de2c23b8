//! The motion check's *blocks*: a cell's pairs grouped by the pair of culling groups (a
//! link's bodies, an obstacle; see [`CellPose`](super::CellPose)) their bodies belong to, so
//! that [`MotionCheck`](super::MotionCheck) certifies a whole block from its groups' bounding
//! spheres before it measures any pair. A self-collision block also records the joints its
//! pairs do not share (only those move its groups relative to each other) and its pairs by
//! their first body ([`Run`]); a link against a lone obstacle records the obstacle, whose exact
//! distance to the link's sphere bounds the block far more tightly than two spheres' gap.

use std::ops::Range;

use super::checker::CellChecker;
use super::motion_bound::MotionBound;
use super::pair_order::ordered_by;
use crate::math::Real;

/// The pairs of one pair of culling groups (a link's bodies against another link's, or
/// against an obstacle): certified together when their groups' bounding spheres are far
/// enough apart at both ends.
#[derive(Debug, Clone)]
pub(super) struct Block {
    pub(super) groups: (usize, usize),
    /// Into `MotionCheck::block_pairs`.
    pub(super) pairs: Range<usize>,
    /// For a self-collision block, what bounds its relative motion.
    pub(super) relative: Option<Relative>,
    /// For a link against one obstacle (a body of a robot without joints): the link's group
    /// and the obstacle as `(robot, body)`, whose exact distance to the link's sphere is a far
    /// tighter bound than two spheres' gap (a shelf's sphere is most of the shelf).
    pub(super) obstacle: Option<(usize, (usize, usize))>,
}

impl Block {
    /// A lower bound on the distance of every pair of the block at the posed configuration,
    /// and whether it is the block's tightest (`true`): the groups' spheres' gap, unless that
    /// is `need` or less for a link against an obstacle: then the link's sphere's distance to
    /// the obstacle itself (a box or cylinder query instead of two spheres' gap). (A link
    /// against an obstacle with a world-aligned box is measured by the motion check from its
    /// flat list instead: that box's gap first.)
    #[inline]
    pub(super) fn gap(&self, checker: &CellChecker<'_>, need: Real) -> (Real, bool) {
        let spheres = checker.group_gap(self.groups.0, self.groups.1);
        match self.obstacle {
            Some(_) if spheres > need => (spheres, false),
            Some((group, (r, b))) => (checker.group_body_gap(group, r, b), true),
            None => (spheres, true),
        }
    }
}

/// The relative motion of a self-collision block's groups: only the joints beyond those all
/// its pairs share move them relative to each other.
#[derive(Debug, Clone)]
pub(super) struct Relative {
    pub(super) robot: usize,
    /// For each group, the suffix-table entries of its bodies in the block's pairs counting
    /// only those joints.
    pub(super) sides: [Vec<usize>; 2],
    /// The block's pairs by their body in the first group (`Run`), for a middle level: a
    /// body far from the second group's sphere certifies all its pairs.
    pub(super) runs: Vec<Run>,
}

/// The pairs of one body `x` of a self-collision block's first group.
#[derive(Debug, Clone)]
pub(super) struct Run {
    /// Into `MotionCheck::block_pairs`.
    pub(super) pairs: Range<usize>,
    pub(super) body: usize,
    /// `x`'s suffix-table entry counting the joints beyond those the block's pairs share.
    pub(super) entry: usize,
}

/// A cell's pairs in blocks.
pub(super) struct MotionBlocks {
    pub(super) blocks: Vec<Block>,
    /// Pair indices in block order (`Block::pairs` ranges into it).
    pub(super) block_pairs: Vec<usize>,
    /// Per culling group, its bodies as `(robot, body)`.
    pub(super) members: Vec<Vec<(usize, usize)>>,
}

impl MotionBlocks {
    /// The blocks of `checker`'s pairs, self-collision blocks' relative motion read from
    /// `bound`.
    pub(super) fn new(checker: &CellChecker<'_>, bound: &MotionBound) -> Self {
        let cell = checker.cell();
        let pairs = checker.pairs();
        // A self pair's body in the lesser group (its first body if both are in one).
        let first_side = |k: usize| {
            let p = &pairs[k];
            let groups = checker.pair_groups(k);
            let in_first = checker.body_group(p.robot_a, p.body_a) == groups.0;
            if p.robot_a != p.robot_b {
                (0, 0)
            } else if in_first {
                (p.body_a, p.body_b)
            } else {
                (p.body_b, p.body_a)
            }
        };
        let order = ordered_by(pairs.len(), |k| {
            let groups = checker.pair_groups(k);
            [groups.0, groups.1, first_side(k).0]
        });
        let mut blocks: Vec<Block> = Vec::new();
        for (position, &k) in order.iter().enumerate() {
            let groups = checker.pair_groups(k);
            match blocks.last_mut() {
                Some(last) if last.groups == groups => last.pairs.end = position + 1,
                _ => blocks.push(Block {
                    groups,
                    pairs: position..position + 1,
                    relative: None,
                    obstacle: None,
                }),
            }
        }
        for block in &mut blocks {
            let p = &pairs[order[block.pairs.start]];
            if p.robot_a != p.robot_b {
                continue;
            }
            let r = p.robot_a;
            let first = order[block.pairs.clone()]
                .iter()
                .map(|&k| bound.shared_joints(r, pairs[k].body_a, pairs[k].body_b))
                .min()
                .unwrap_or(0);
            let size = block.pairs.len();
            let mut sides = [Vec::with_capacity(size), Vec::with_capacity(size)];
            let mut runs: Vec<Run> = Vec::new();
            for position in block.pairs.clone() {
                let (x, y) = first_side(order[position]);
                sides[0].push(bound.suffix_index(r, x, first));
                sides[1].push(bound.suffix_index(r, y, first));
                match runs.last_mut() {
                    Some(run) if run.body == x => run.pairs.end = position + 1,
                    _ => runs.push(Run {
                        pairs: position..position + 1,
                        body: x,
                        entry: bound.suffix_index(r, x, first),
                    }),
                }
            }
            for side in &mut sides {
                side.sort_unstable();
                side.dedup();
            }
            block.relative = Some(Relative {
                robot: r,
                sides,
                runs,
            });
        }
        let mut members = Vec::new();
        for (r, robot) in cell.robots.iter().enumerate() {
            for b in 0..robot.model.bodies.len() {
                let g = checker.body_group(r, b);
                if members.len() <= g {
                    members.resize(g + 1, Vec::new());
                }
                members[g].push((r, b));
            }
        }
        let lone_obstacle = |g: usize| match members[g].as_slice() {
            &[(r, b)] if cell.robots[r].model.dof() == 0 => Some((r, b)),
            _ => None,
        };
        for block in &mut blocks {
            let (g, h) = block.groups;
            block.obstacle = match (lone_obstacle(g), lone_obstacle(h)) {
                (None, Some(o)) => Some((g, o)),
                (Some(o), None) => Some((h, o)),
                _ => None,
            };
        }
        Self {
            blocks,
            block_pairs: order,
            members,
        }
    }
}
