//! [`PairSearch::new`]: a cell's pairs sorted into the search's blocks, by the culling groups
//! of their bodies and, inside a block, by the kinds of their cores (see the parent module's
//! docs), with the grid that finds a link's blocks against obstacles.

use super::{Block, CoreKind, Members, PairSearch};
use crate::collision::contact_hints::{ContactHint, RecentPairs};
use crate::collision::obstacle_grid::NearObstacles;
use crate::collision::pair_order::ordered_by;
use crate::collision::pose::CellPose;

impl PairSearch {
    /// Sorts `pairs` (flat body indices, in pair order) into blocks by the groups of `pose`.
    pub(in crate::collision) fn new(
        pairs: &[(usize, usize)],
        kind: &[CoreKind],
        pose: &CellPose,
    ) -> Self {
        let key = |&(a, b): &(usize, usize)| {
            let (x, y) = (pose.group_of(a), pose.group_of(b));
            (x.min(y), x.max(y))
        };
        let order = ordered_by(pairs.len(), |k| {
            let (x, y) = key(&pairs[k]);
            [x, y, 0]
        });
        let mut search = Self {
            point_point: Vec::new(),
            point_segment: Vec::new(),
            segment_segment: Vec::new(),
            sphere_solid: Vec::new(),
            with_general: Vec::new(),
            blocks: Vec::new(),
            block_groups: Vec::new(),
            own: Vec::new(),
            uncovered_own: 0,
            last_contact: ContactHint::default(),
            recent_contact_pairs: RecentPairs::default(),
            near_obstacles: None,
        };
        let mut start = 0;
        while start < order.len() {
            let groups = key(&pairs[order[start]]);
            let end = start
                + order[start..]
                    .iter()
                    .take_while(|&&k| key(&pairs[k]) == groups)
                    .count();
            let lengths = [
                search.point_point.len(),
                search.point_segment.len(),
                search.segment_segment.len(),
                search.with_general.len(),
                search.sphere_solid.len(),
            ];
            for &k in &order[start..end] {
                let (mut a, mut b) = pairs[k];
                // Point pairs oriented group 0 → group 1, for the prefilter's masks.
                if pose.group_of(a) != groups.0 {
                    (a, b) = (b, a);
                }
                match (kind[a], kind[b]) {
                    (CoreKind::Point, CoreKind::Point) => search.point_point.push((a, b, k)),
                    (CoreKind::Point, CoreKind::Segment) => search.point_segment.push((a, b, k)),
                    (CoreKind::Segment, CoreKind::Point) => search.point_segment.push((b, a, k)),
                    (CoreKind::Segment, CoreKind::Segment) => {
                        search.segment_segment.push((a, b, k))
                    }
                    (CoreKind::Point, CoreKind::General) if pose.fixed_solid(b).is_some() => {
                        search.sphere_solid.push((a, b, k))
                    }
                    (CoreKind::General, CoreKind::Point) if pose.fixed_solid(a).is_some() => {
                        search.sphere_solid.push((b, a, k))
                    }
                    _ => search.with_general.push((a, b, k)),
                }
            }
            let members = |side: usize| -> Members {
                let mut bodies: Vec<usize> = search.point_point[lengths[0]..]
                    .iter()
                    .map(|&(a, b, _)| if side == 0 { a } else { b })
                    .collect();
                bodies.sort_unstable();
                bodies.dedup();
                let group = if side == 0 { groups.0 } else { groups.1 };
                if pose.cullable(group) && bodies.iter().all(|&b| pose.member_of(b) < 64) {
                    bodies.iter().map(|&b| (b, pose.member_of(b))).collect()
                } else {
                    Vec::new()
                }
            };
            let members = (members(0), members(1));
            let (mut grid, mut grid_width) = (Vec::new(), 0);
            if !members.0.is_empty() && !members.1.is_empty() {
                let height = members.0.iter().map(|m| m.1 + 1).max().unwrap_or(0);
                grid_width = members.1.iter().map(|m| m.1 + 1).max().unwrap_or(0);
                grid = vec![(0, 0, usize::MAX); height * grid_width];
                for &(a, b, k) in &search.point_point[lengths[0]..] {
                    grid[pose.member_of(a) * grid_width + pose.member_of(b)] = (a, b, k);
                }
            }
            // Do the block's pairs all share one general body outside group `other`?
            let shared_solid = |other: usize| {
                let mut bodies = order[start..end].iter().map(|&k| {
                    let (a, b) = pairs[k];
                    if pose.group_of(a) == other { b } else { a }
                });
                let first = bodies.next()?;
                (kind[first] == CoreKind::General
                    && pose.group_of(first) != other
                    && bodies.all(|x| x == first))
                .then_some((other, first))
            };
            let solid_side = shared_solid(groups.0).or_else(|| shared_solid(groups.1));
            let (a, b) = pairs[order[start]];
            search.own.push(pose.robot_of(a) == pose.robot_of(b));
            search.block_groups.push(groups);
            search.blocks.push(Block {
                solid_side,
                members,
                grid,
                grid_width,
                point_point: lengths[0]..search.point_point.len(),
                point_segment: lengths[1]..search.point_segment.len(),
                segment_segment: lengths[2]..search.segment_segment.len(),
                sphere_solid: lengths[4]..search.sphere_solid.len(),
                with_general: lengths[3]..search.with_general.len(),
            });
            start = end;
        }
        let links: Vec<_> = search
            .blocks
            .iter()
            .map(|block| {
                let (group, body) = block.solid_side?;
                let aabb = *pose.fixed_box(body)?;
                let radius = pose.group_sphere(group).1;
                (pose.cullable(group) && radius.is_finite()).then_some((group, body, aabb, radius))
            })
            .collect();
        search.near_obstacles = NearObstacles::new(&links);
        if let Some(near) = &mut search.near_obstacles {
            // (A stable sort: the others first, in their order.)
            near.uncovered.sort_by_key(|&i| search.own[i]);
            search.uncovered_own = near.uncovered.partition_point(|&i| !search.own[i]);
        }
        search
    }
}
