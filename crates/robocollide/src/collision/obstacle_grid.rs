//! [`ObstacleGrid`]: which obstacles can be near a point, from a grid over the workspace
//! built once per cell, so that a contact search tests a link only against the obstacles
//! near it instead of every obstacle of the scene.
//!
//! The obstacles are the world-aligned boxes ([`Aabb`]) of bodies that never move. Space is
//! cut into cubes of side `h`; each cube lists the obstacles whose box, grown by `reach`,
//! meets the cube. A ball of radius at most `reach` whose centre lies in a cube can then
//! touch only obstacles on that cube's list, and a centre outside every cube is farther than
//! `reach` from every obstacle (the cubes cover every grown box). Each box is grown by a
//! further hundredth of `h` when the lists are made, far beyond the rounding of the centre's
//! cube index, so a centre on a cube's face that rounds into its neighbour still finds every
//! obstacle it should. Sources: the uniform grid of broad-phase collision detection (Ericson,
//! *Real-Time Collision Detection*, 2005, ch. 7).

use std::ops::Range;

use crate::geom::Aabb;
use crate::math::{Point3, Real, Vector3};

/// Most obstacle entries in all the cubes' lists (16 MiB).
const MOST_LISTED: usize = 1 << 22;

/// Most cubes along the grid's longest side.
const MOST_CUBES_PER_SIDE: Real = 32.0;

/// Obstacles by the cube of space they are near; see the module docs.
#[derive(Debug, Clone)]
pub(super) struct ObstacleGrid {
    /// The grid's lowest corner, and the inverse of its cubes' side.
    origin: Point3,
    inverse_side: Real,
    /// Cubes along each axis, and the same counts as reals (for the index test, which a
    /// conversion per axis would slow: an unsigned 64-bit conversion is several instructions
    /// on baseline x86-64).
    cubes: [usize; 3],
    cubes_real: [Real; 3],
    /// Per cube (x fastest), its obstacles: `obstacles[starts[c]..starts[c + 1]]`.
    starts: Vec<u32>,
    obstacles: Vec<u32>,
    /// How far from an obstacle's box a ball's surface may be and still find it listed.
    reach: Real,
}

impl ObstacleGrid {
    /// The grid of `boxes` (obstacle `i` is `boxes[i]`) for balls of radius up to `reach`;
    /// `None` without boxes, or for a `reach` or box that is not finite.
    pub(super) fn new(boxes: &[Aabb], reach: Real) -> Option<Self> {
        if boxes.is_empty() || !(reach.is_finite() && reach >= 0.0) {
            return None;
        }
        let (mut low, mut high) = (
            Vector3::repeat(Real::INFINITY),
            Vector3::repeat(Real::NEG_INFINITY),
        );
        for b in boxes {
            let (lo, hi) = b.corners();
            low = low.inf(&lo.coords);
            high = high.sup(&hi.coords);
        }
        let extent = (high - low).amax() + 2.0 * reach;
        if !extent.is_finite() || boxes.len() > u32::MAX as usize {
            return None;
        }
        let side = (extent / MOST_CUBES_PER_SIDE)
            .max(0.5 * reach)
            .max(Real::MIN_POSITIVE);
        // Every box grown by `reach` and a hundredth of a cube; the cubes cover them all.
        let grown = reach + 0.01 * side;
        let (low, high) = (low.add_scalar(-grown), high.add_scalar(grown));
        let cubes = [0, 1, 2].map(|i| (((high[i] - low[i]) / side).ceil() as usize).max(1));
        let total = cubes[0].checked_mul(cubes[1])?.checked_mul(cubes[2])?;
        // The cubes each grown box meets: index ranges per axis, clamped to the grid.
        let spans = |b: &Aabb| {
            let (lo, hi) = b.corners();
            [0, 1, 2].map(|axis| {
                let first = ((lo[axis] - grown - low[axis]) / side).floor().max(0.0) as usize;
                let last = ((hi[axis] + grown - low[axis]) / side).floor().max(0.0) as usize;
                first.min(cubes[axis] - 1)..last.min(cubes[axis] - 1) + 1
            })
        };
        // At most `MOST_LISTED` entries in all (huge boxes over a fine grid: no grid).
        let listed = boxes.iter().fold(0usize, |sum, b| {
            let [xs, ys, zs] = spans(b);
            let cubes = xs.len().saturating_mul(ys.len()).saturating_mul(zs.len());
            sum.saturating_add(cubes)
        });
        if listed > MOST_LISTED {
            return None;
        }
        // Counted first, then filled: one flat list. (Each cube's count is kept at its end,
        // `starts[cube + 1]`, and the running sums made so that the filling, which advances
        // `starts[cube + 1]` from the cube's start, leaves it at the next cube's start.)
        let mut starts = vec![0u32; total + 1];
        for b in boxes {
            each_row(&spans(b), cubes, |row| {
                for count in &mut starts[row.start + 1..row.end + 1] {
                    *count += 1;
                }
            });
        }
        let mut sum = 0u32;
        for entry in &mut starts {
            let count = *entry;
            *entry = sum;
            sum = sum.checked_add(count)?;
        }
        // (Now `starts[c + 1]` is cube `c`'s start; it ends at the next cube's.)
        let mut obstacles = vec![0u32; sum as usize];
        for (i, b) in boxes.iter().enumerate() {
            each_row(&spans(b), cubes, |row| {
                for next in &mut starts[row.start + 1..row.end + 1] {
                    obstacles[*next as usize] = i as u32;
                    *next += 1;
                }
            });
        }
        Some(Self {
            origin: Point3::from(low),
            inverse_side: 1.0 / side,
            cubes,
            cubes_real: cubes.map(|n| n as Real),
            starts,
            obstacles,
            reach,
        })
    }

    /// The largest radius (plus contact window) a ball may have for [`Self::near`].
    #[inline]
    pub(super) fn reach(&self) -> Real {
        self.reach
    }

    /// Every obstacle a ball about `centre` of radius up to [`Self::reach`] can touch (some
    /// more); `None` for a centre that is not finite (then any obstacle may be near).
    #[inline(always)]
    pub(super) fn near(&self, centre: &Point3) -> Option<&[u32]> {
        let t = (centre - self.origin) * self.inverse_side;
        if !(t.x.is_finite() && t.y.is_finite() && t.z.is_finite()) {
            return None;
        }
        // (`v as u32` truncates, which is the floor for `0 ≤ v < cubes`, a few dozen at most;
        // the baseline x86-64 build has no rounding instruction, so `floor` would be a call,
        // and a conversion to 64-bit unsigned several instructions.)
        // Outside the cubes: farther than `reach` from every box.
        let (Some(x), Some(y), Some(z)) = (
            cube_index(t.x, self.cubes_real[0]),
            cube_index(t.y, self.cubes_real[1]),
            cube_index(t.z, self.cubes_real[2]),
        ) else {
            return Some(&[]);
        };
        let cube = (z * self.cubes[1] + y) * self.cubes[0] + x;
        Some(&self.obstacles[self.starts[cube] as usize..self.starts[cube + 1] as usize])
    }
}

/// Calls `f` with each run of cubes along x (contiguous in the flat index, x fastest) of the
/// cubes whose index ranges along x, y and z are `spans`, in a grid of `cubes` per axis.
fn each_row(spans: &[Range<usize>; 3], cubes: [usize; 3], mut f: impl FnMut(Range<usize>)) {
    let [xs, ys, zs] = spans;
    for z in zs.clone() {
        for y in ys.clone() {
            let row = (z * cubes[1] + y) * cubes[0];
            f(row + xs.start..row + xs.end);
        }
    }
}

/// The cube along one axis holding grid coordinate `v`, if `0 ≤ v < cubes`. (A function,
/// not a closure: a closure is compiled apart from the wide build of a contact query,
/// `crate::wide`.)
#[inline(always)]
fn cube_index(v: Real, cubes: Real) -> Option<usize> {
    (v >= 0.0 && v < cubes).then_some(v as u32 as usize)
}

/// A contact search's link–obstacle blocks (a link's bodies against one obstacle with a
/// world-aligned box) by link and obstacle, with the grid of those obstacles: a link's blocks
/// worth visiting are those of the obstacles listed near its bounding sphere's centre.
#[derive(Debug, Clone)]
pub(super) struct NearObstacles {
    pub(super) grid: ObstacleGrid,
    /// The links' culling groups, in slot order.
    pub(super) groups: Vec<usize>,
    /// Per slot and obstacle, the block (`usize::MAX`: none), at `slot * obstacles + o`.
    table: Vec<usize>,
    obstacles: usize,
    /// Per slot, all its blocks (for a centre the grid cannot place).
    pub(super) blocks_of: Vec<Vec<usize>>,
    /// The blocks that are none of these (visited in turn, after the listed ones).
    pub(super) uncovered: Vec<usize>,
}

impl NearObstacles {
    /// From `links`: per block, `Some((link group, obstacle body, its box, the group's
    /// radius))` for a link against an obstacle with a box; `None` if there is none, or a
    /// radius is not finite.
    pub(super) fn new(links: &[Option<(usize, usize, Aabb, Real)>]) -> Option<Self> {
        let (mut groups, mut bodies, mut boxes) = (Vec::new(), Vec::new(), Vec::new());
        let mut reach: Real = 0.0;
        for &(group, body, aabb, radius) in links.iter().flatten() {
            if !groups.contains(&group) {
                groups.push(group);
            }
            if !bodies.contains(&body) {
                bodies.push(body);
                boxes.push(aabb);
            }
            reach = reach.max(radius);
        }
        // The contact window (a relative 1e-12 of the scene's magnitude at most) on top.
        let magnitude = boxes
            .iter()
            .map(|b| crate::math::max_abs(&b.center().coords) + b.half_extents().amax())
            .fold(reach, Real::max);
        let grid = ObstacleGrid::new(&boxes, reach + 1e-9 * magnitude)?;
        let obstacles = bodies.len();
        let mut table = vec![usize::MAX; groups.len() * obstacles];
        let mut blocks_of = vec![Vec::new(); groups.len()];
        let mut uncovered = Vec::new();
        for (i, link) in links.iter().enumerate() {
            if let Some((group, body, _, _)) = link {
                let slot = groups.iter().position(|g| g == group)?;
                let o = bodies.iter().position(|b| b == body)?;
                table[slot * obstacles + o] = i;
                blocks_of[slot].push(i);
            } else {
                uncovered.push(i);
            }
        }
        Some(Self {
            grid,
            groups,
            table,
            obstacles,
            blocks_of,
            uncovered,
        })
    }

    /// The block of the link in `slot` against obstacle `o` (`usize::MAX`: none).
    #[inline]
    pub(super) fn block(&self, slot: usize, o: u32) -> usize {
        self.table[slot * self.obstacles + o as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::{OrientedBox, Shape};
    use crate::math::unit_random;

    fn boxed(center: [Real; 3], half: [Real; 3]) -> Aabb {
        let shape = Shape::Box(
            OrientedBox::new(
                Point3::from(center),
                crate::math::Matrix3::identity(),
                Vector3::from(half),
            )
            .unwrap(),
        );
        Aabb::of(&shape).unwrap()
    }

    /// Every box a ball of radius up to `reach` touches is listed for its centre, wherever
    /// the centre is (cube faces and far outside included), at scales from mm to km.
    #[test]
    fn every_box_within_reach_is_listed() {
        let mut unit = unit_random(5);
        for scale in [1e-3, 1.0, 1e3] {
            let boxes: Vec<Aabb> = (0..20)
                .map(|_| {
                    let c = [0, 1, 2].map(|_| (unit() * 2.0 - 1.0) * scale);
                    let h = [0, 1, 2].map(|_| unit() * 0.3 * scale);
                    boxed(c, h)
                })
                .collect();
            let reach = 0.15 * scale;
            let grid = ObstacleGrid::new(&boxes, reach).unwrap();
            let mut listed_fewer = 0;
            for k in 0..20_000 {
                let mut c = Point3::from([0, 1, 2].map(|_| (unit() * 3.0 - 1.5) * scale));
                if k % 4 == 0 {
                    // On a cube's face.
                    let side = 1.0 / grid.inverse_side;
                    let faces = ((c.x - grid.origin.x) / side).round();
                    c.x = grid.origin.x + faces * side;
                }
                let radius = unit() * reach;
                let near = grid.near(&c).unwrap();
                for (i, b) in boxes.iter().enumerate() {
                    if b.sphere_gap(&c, radius) <= 0.0 {
                        assert!(near.contains(&(i as u32)), "box {i} at {c:?}");
                    }
                }
                listed_fewer += usize::from(near.len() < boxes.len());
            }
            // And it does cull.
            assert!(listed_fewer > 15_000, "{listed_fewer}");
        }
    }

    #[test]
    fn what_cannot_be_gridded_gives_none() {
        let b = boxed([0.0; 3], [1.0; 3]);
        assert!(ObstacleGrid::new(&[], 1.0).is_none());
        assert!(ObstacleGrid::new(&[b], Real::NAN).is_none());
        assert!(ObstacleGrid::new(&[b], Real::INFINITY).is_none());
        let grid = ObstacleGrid::new(&[b], 0.1).unwrap();
        assert!(grid.near(&Point3::new(Real::NAN, 0.0, 0.0)).is_none());
        assert_eq!(grid.near(&Point3::new(1e300, 0.0, 0.0)), Some(&[][..]));
        assert_eq!(grid.near(&Point3::new(0.5, 0.5, 0.5)), Some(&[0][..]));
        // Boxes that would each be listed in every cube, too many of them for the lists.
        let huge = vec![boxed([0.0; 3], [50.0; 3]); 200];
        assert!(ObstacleGrid::new(&huge, 0.1).is_none());
        assert!(ObstacleGrid::new(&huge[..100], 0.1).is_some());
    }
}
