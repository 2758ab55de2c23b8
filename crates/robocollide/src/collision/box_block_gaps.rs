//! [`BoxBlockGaps`]: the cheap gap of every link–obstacle block whose obstacle has a
//! world-aligned box, at a motion's end, many blocks side by side.
//!
//! Most of a cell's blocks are a link against an obstacle's box (on MotionBenchMaker's
//! bookshelves ~230 of them, 21 obstacles for each of the Panda's links), and the
//! [`MotionCheck`](super::MotionCheck) measures each one's lower bound
//! [`Aabb::sphere_gap`] from the link's bounding sphere at the end of every motion it
//! certifies. One block at a time that was ~40 instructions a block, 6 % of the planner's on
//! `bookshelf_thin`. Here the boxes are kept as columns (centre and half-extents per axis,
//! and the two box terms of the rounding allowance), sorted by link, so that one link's
//! sphere is measured against all its boxes by one loop the compiler vectorises (four
//! blocks per AVX2 instruction inside [`run_wide`]).
//!
//! A motion check's blocks are sorted by their groups, so each link's box blocks are
//! consecutive blocks: [`BoxBlockGaps::measure_into`] then writes the gaps straight into the
//! check's per-block array, with no pass that scatters them there after (session 57: search
//! 0.98–0.99×).
//!
//! The values are [`Aabb::sphere_gap`]'s to the last bit: both are the same kernel
//! (`geom::sphere_box_gap`), given here the box terms of its rounding allowance kept per box;
//! a vector instruction rounds each lane as its scalar twin does, and no product is fused into
//! a sum. Tested so.

use std::ops::Range;

use crate::geom::{Aabb, sphere_box_gap};
use crate::math::{Point3, Real, max_abs};
use crate::wide::{WideOp, run_wide};

/// The world-aligned boxes of a cell's link–obstacle blocks, and their gaps at the last
/// measured configuration.
#[derive(Debug, Clone, Default)]
pub(super) struct BoxBlockGaps {
    /// Per link group with box blocks: the group, and its blocks' range in the columns.
    runs: Vec<(usize, Range<usize>)>,
    /// Per column entry: `(block, link group, obstacle as (robot, body))`.
    blocks: Vec<(usize, usize, (usize, usize))>,
    /// The boxes' centres and half-extents, one column per world axis.
    centre: [Vec<Real>; 3],
    half: [Vec<Real>; 3],
    /// The boxes' terms of [`Aabb::sphere_gap`]'s rounding allowance: the largest magnitude
    /// of the centre's coordinates, and of the half-extents.
    centre_scale: Vec<Real>,
    half_scale: Vec<Real>,
    /// Per column entry, its gap at the last [`Self::measure`].
    gaps: Vec<Real>,
    /// Per run, its first block, where every run's entries are consecutive blocks (a link's
    /// blocks are, where blocks are sorted by their groups), for [`Self::measure_into`].
    run_blocks: Option<Vec<usize>>,
}

impl BoxBlockGaps {
    /// The columns for `(block, link group, obstacle, its box)` entries, in any order.
    pub(super) fn new(mut entries: Vec<(usize, usize, (usize, usize), Aabb)>) -> Self {
        // (Stable: one link's blocks keep their order.)
        entries.sort_by_key(|&(_, group, _, _)| group);
        let mut columns = Self::default();
        let n = entries.len();
        columns.blocks.reserve(n);
        for axis in 0..3 {
            columns.centre[axis].reserve(n);
            columns.half[axis].reserve(n);
        }
        columns.centre_scale.reserve(n);
        columns.half_scale.reserve(n);
        for (j, &(block, group, obstacle, aabb)) in entries.iter().enumerate() {
            match columns.runs.last_mut() {
                Some((g, range)) if *g == group => range.end = j + 1,
                _ => columns.runs.push((group, j..j + 1)),
            }
            columns.blocks.push((block, group, obstacle));
            let (centre, half) = (aabb.center(), aabb.half_extents());
            for axis in 0..3 {
                columns.centre[axis].push(centre[axis]);
                columns.half[axis].push(half[axis]);
            }
            columns.centre_scale.push(max_abs(&centre.coords));
            columns.half_scale.push(max_abs(&half));
        }
        columns.gaps = vec![0.0; entries.len()];
        columns.run_blocks = columns
            .runs
            .iter()
            .map(|(_, range)| {
                let first = columns.blocks[range.start].0;
                let consecutive = columns.blocks[range.clone()]
                    .iter()
                    .enumerate()
                    .all(|(t, &(block, _, _))| block == first + t);
                consecutive.then_some(first)
            })
            .collect::<Option<_>>();
        columns
    }

    /// Per column entry, `(block, link group, obstacle)`, in the order of [`Self::gaps`].
    pub(super) fn blocks(&self) -> &[(usize, usize, (usize, usize))] {
        &self.blocks
    }

    /// Per column entry, its gap at the last [`Self::measure`].
    pub(super) fn gaps(&self) -> &[Real] {
        &self.gaps
    }

    /// Every entry's [`Aabb::sphere_gap`] from its link group's sphere in `spheres` (centre,
    /// radius per group, as `CellChecker::placed_group_spheres` gives them).
    pub(super) fn measure(&mut self, spheres: &[(Point3, Real)]) {
        run_wide(Measure(self, spheres));
    }

    /// The same gaps written straight into `by_block` at their blocks' places (a motion
    /// check's gaps per block), where every run's entries are consecutive blocks: `false`,
    /// with nothing written, where one is not.
    pub(super) fn measure_into(&self, spheres: &[(Point3, Real)], by_block: &mut [Real]) -> bool {
        let Some(firsts) = &self.run_blocks else {
            return false;
        };
        run_wide(MeasureInto(self, firsts, spheres, by_block));
        true
    }

    /// [`Self::measure`]'s work, inlined into the function [`run_wide`] picks.
    #[inline(always)]
    fn measure_here(&mut self, spheres: &[(Point3, Real)]) {
        let mut gaps = std::mem::take(&mut self.gaps);
        for (group, range) in &self.runs {
            self.run_gaps(spheres[*group], range, &mut gaps[range.clone()]);
        }
        self.gaps = gaps;
    }

    /// [`Self::measure_into`]'s work, inlined into the function [`run_wide`] picks.
    #[inline(always)]
    fn measure_into_here(
        &self,
        firsts: &[usize],
        spheres: &[(Point3, Real)],
        by_block: &mut [Real],
    ) {
        for ((group, range), &first) in self.runs.iter().zip(firsts) {
            let out = &mut by_block[first..first + range.len()];
            self.run_gaps(spheres[*group], range, out);
        }
    }

    /// One run's gaps from its link's sphere `(centre, radius)` into `gaps` (its length).
    #[inline(always)]
    fn run_gaps(&self, (centre, radius): (Point3, Real), range: &Range<usize>, gaps: &mut [Real]) {
        let [cx, cy, cz] = &self.centre;
        let [hx, hy, hz] = &self.half;
        let sphere_scale = max_abs(&centre.coords) + radius;
        let n = range.len();
        let (cx, cy, cz) = (run(cx, range), run(cy, range), run(cz, range));
        let (hx, hy, hz) = (run(hx, range), run(hy, range), run(hz, range));
        let centre_scale = run(&self.centre_scale, range);
        let half_scale = run(&self.half_scale, range);
        let gaps = &mut gaps[..n];
        for j in 0..n {
            let axes = [
                (centre.x, cx[j], hx[j]),
                (centre.y, cy[j], hy[j]),
                (centre.z, cz[j], hz[j]),
            ];
            let scales = [sphere_scale, centre_scale[j], half_scale[j]];
            gaps[j] = sphere_box_gap(axes, radius, scales);
        }
    }
}

/// A run's stretch of a column (its length known to the loop, so no bound is checked per
/// entry).
#[inline(always)]
fn run<'c>(column: &'c [Real], range: &Range<usize>) -> &'c [Real] {
    &column[range.clone()]
}

/// [`BoxBlockGaps::measure_into`], as [`run_wide`] runs it.
struct MeasureInto<'g, 's, 'o>(
    &'g BoxBlockGaps,
    &'g [usize],
    &'s [(Point3, Real)],
    &'o mut [Real],
);

impl WideOp for MeasureInto<'_, '_, '_> {
    type Output = ();

    #[inline(always)]
    fn run(self) {
        self.0.measure_into_here(self.1, self.2, self.3)
    }
}

/// [`BoxBlockGaps::measure`], as [`run_wide`] runs it.
struct Measure<'g, 's>(&'g mut BoxBlockGaps, &'s [(Point3, Real)]);

impl WideOp for Measure<'_, '_> {
    type Output = ();

    #[inline(always)]
    fn run(self) {
        self.0.measure_here(self.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::{OrientedBox, Shape};
    use crate::math::Vector3;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Written in place, the gaps are [`BoxBlockGaps::measure`]'s, bit for bit, each at its
    /// block (every run consecutive blocks, as a motion check's blocks sorted by groups are,
    /// behind blocks of other kinds); with a run whose blocks are not consecutive nothing is
    /// written and the answer is `false`.
    #[test]
    fn gaps_in_place_are_the_columns_gaps() {
        let mut rng = ChaCha8Rng::seed_from_u64(59);
        let boxed = |rng: &mut ChaCha8Rng| {
            let half = Vector3::from_fn(|_, _| rng.random_range(0.0..1.0));
            let centre = Point3::from(Vector3::from_fn(|_, _| rng.random_range(-2.0..2.0)));
            Aabb::of(&Shape::Box(
                OrientedBox::from_rpy(centre, [0.3, -0.2, 1.1], half).expect("a valid box"),
            ))
            .expect("a bounded shape")
        };
        for round in 0..100 {
            let groups = 1 + round % 5;
            // Blocks 0..3 are of another kind; then each group's blocks in a row.
            let mut entries = Vec::new();
            let mut block = 3;
            for group in 0..groups {
                for _ in 0..rng.random_range(1..9) {
                    entries.push((block, group, (1, block), boxed(&mut rng)));
                    block += 1;
                }
            }
            let spheres: Vec<(Point3, Real)> = (0..groups)
                .map(|_| {
                    let centre = Vector3::from_fn(|_, _| rng.random_range(-2.5..2.5));
                    (Point3::from(centre), rng.random_range(0.0..0.5))
                })
                .collect();
            let mut columns = BoxBlockGaps::new(entries.clone());
            let mut by_block = vec![Real::NAN; block];
            assert!(columns.measure_into(&spheres, &mut by_block));
            columns.measure(&spheres);
            for (&(b, _, _), &gap) in columns.blocks().iter().zip(columns.gaps()) {
                assert_eq!(
                    by_block[b].to_bits(),
                    gap.to_bits(),
                    "round {round}, block {b}"
                );
            }
            assert!(
                by_block[..3].iter().all(|g| g.is_nan()),
                "other blocks untouched"
            );
            // Two of a group's blocks swapped: that run's blocks are not consecutive, so
            // nothing is written in place.
            if let Some(i) = (1..entries.len()).find(|&i| entries[i].1 == entries[i - 1].1) {
                let (a, b) = (entries[i - 1].0, entries[i].0);
                (entries[i - 1].0, entries[i].0) = (b, a);
                let swapped = BoxBlockGaps::new(entries);
                let mut untouched = vec![Real::NAN; block];
                assert!(!swapped.measure_into(&spheres, &mut untouched));
                assert!(untouched.iter().all(|g| g.is_nan()));
            }
        }
    }

    /// Every gap equals [`Aabb::sphere_gap`] bit for bit, for boxes and spheres from 1e-6 to
    /// 1e6 in size and place, touching, overlapping and apart, and runs of every length
    /// around the vector width; a non-finite sphere gives what the scalar gives too.
    #[test]
    fn gaps_are_the_scalar_sphere_gaps_bit_for_bit() {
        let mut rng = ChaCha8Rng::seed_from_u64(53);
        for round in 0..200 {
            let groups = 1 + round % 4;
            let scale = 10f64.powi(rng.random_range(-6..=6));
            let mut entries = Vec::new();
            let mut boxes = Vec::new();
            for block in 0..rng.random_range(0..23) {
                let half = Vector3::from_fn(|_, _| rng.random_range(0.0..1.0) * scale);
                let centre = Vector3::from_fn(|_, _| rng.random_range(-2.0..2.0) * scale);
                let angle: [Real; 3] = std::array::from_fn(|_| rng.random_range(-3.0..3.0));
                let shape = Shape::Box(
                    OrientedBox::from_rpy(Point3::from(centre), angle, half).expect("a valid box"),
                );
                let aabb = Aabb::of(&shape).expect("a bounded shape");
                let group = rng.random_range(0..groups);
                entries.push((block, group, (1, block), aabb));
                boxes.push(aabb);
            }
            let spheres: Vec<(Point3, Real)> = (0..groups)
                .map(|g| {
                    let centre =
                        Point3::from(Vector3::from_fn(|_, _| rng.random_range(-2.5..2.5) * scale));
                    let radius = match (round, g) {
                        (7, 0) => Real::NAN,
                        (11, 0) => Real::INFINITY,
                        _ => rng.random_range(0.0..0.5) * scale,
                    };
                    (centre, radius)
                })
                .collect();
            let mut columns = BoxBlockGaps::new(entries.clone());
            columns.measure(&spheres);
            let mut seen = vec![false; entries.len()];
            for (&(block, group, obstacle), &gap) in columns.blocks().iter().zip(columns.gaps()) {
                assert_eq!(obstacle, (1, block));
                assert_eq!(group, entries[block].1);
                let (centre, radius) = spheres[group];
                let scalar = boxes[block].sphere_gap(&centre, radius);
                if scalar.is_nan() {
                    assert!(gap.is_nan(), "round {round}, block {block}: {gap}");
                } else {
                    assert_eq!(
                        gap.to_bits(),
                        scalar.to_bits(),
                        "round {round}, block {block}"
                    );
                }
                seen[block] = true;
            }
            assert!(seen.iter().all(|&s| s), "every block measured once");
        }
    }
}
