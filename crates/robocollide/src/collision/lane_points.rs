//! The lane screen's points ([`LaneScreen`](super::lane_screen::LaneScreen)): a robot's link
//! frames at the [`LANES`] points of a stretch of a motion, the centres of its spheres placed
//! there (once per walk, on first use), and the tests the screen makes on them, every lane at
//! once: a sphere against an obstacle's solid, two spheres against each other, a sphere's
//! lanes against an obstacle's world-aligned box, and the chord pass's bounds between lanes.
//!
//! Conventions: squared distances are compared with squared rooms (`room ≥ 0`), so no square
//! root is taken; a NaN lane is never clear (NaN compares false), so it leaves its block open
//! or, where contact is asked, reads as contact. Units: metres.

use super::lane_chords::least_distances;
use super::point_solid::Solid;
use crate::kinematics::{LANES, Lane, LaneFrame};
use crate::math::{Point3, Real};
use crate::robot::RobotModel;

/// A sphere fixed on a link: the link, its centre in the link's frame, its radius; and its
/// slot in the per-motion cache of placed centres.
#[derive(Debug, Clone, Copy)]
pub(super) struct LinkSphere {
    pub(super) link: usize,
    pub(super) centre: Point3,
    pub(super) radius: Real,
    pub(super) slot: usize,
}

/// The current motion's link frames at the lanes, and the sphere centres placed so far.
#[derive(Debug, Clone)]
pub(super) struct Lanes {
    frames: Vec<LaneFrame>,
    scratch: Vec<(Lane, Lane)>,
    /// By slot, with the stamp of the walk they were placed for.
    placed: Vec<(u64, [Lane; 3])>,
    /// By slot, the box of the centre's lanes (lowest and highest corner; NaN where a lane
    /// is), with the stamp of the walk it was taken for.
    spans: Vec<(u64, Corners)>,
    stamp: u64,
    /// Bit `l` set when some pair of a block left open is not clear at lane `l` (the
    /// current pass).
    pub(super) failed: u32,
    /// The ends of the stretch a refinement poses (scratch).
    pub(super) ends: (Vec<Real>, Vec<Real>),
}

impl Lanes {
    /// Lanes for spheres in `slots` slots.
    pub(super) fn new(slots: usize) -> Self {
        Self {
            frames: Vec::new(),
            scratch: Vec::new(),
            placed: vec![(0, [[0.0; LANES]; 3]); slots],
            spans: vec![(0, [[0.0; 3]; 2]); slots],
            // (Above the slots' 0: nothing is placed before the first walk.)
            stamp: 1,
            failed: 0,
            ends: (Vec::new(), Vec::new()),
        }
    }

    /// Poses the link frames of `model` at the lanes of the motion `qa → qb` (its
    /// configurations).
    #[inline(always)]
    pub(super) fn walk(&mut self, model: &RobotModel, motion: (&[Real], &[Real])) {
        model
            .forward_kinematics()
            .walk_lanes(motion, &mut self.frames, &mut self.scratch);
        // (New frames: every centre and span is placed again, on first use.)
        self.stamp += 1;
    }

    /// Starts a pass over the lanes as walked: no lane has failed yet. (A second pass over
    /// the same walk, the screen's after the contact probe's, reuses the centres placed.)
    pub(super) fn start_pass(&mut self) {
        self.failed = 0;
    }

    /// The verdict on a link's pairs with obstacles; `room(k)` is what pair `k` must clear
    /// beyond touching. `nearest`: a lower bound on the distance from the link's bounding
    /// sphere's centre to each pair's solid at every lane (0 if none is known); a pair whose
    /// sphere's centre is `offset` from that centre is then at least `nearest − offset` from
    /// its solid (a distance to a set changes no faster than the point moves), and when that
    /// clears its radius and room it is clear at every lane, with no lane measured.
    #[inline(always)]
    pub(super) fn world_pairs(
        &mut self,
        pairs: &[(usize, LinkSphere, usize, Real)],
        solids: &[Solid],
        room: impl Fn(usize) -> Real,
        nearest: Real,
    ) -> Verdict {
        let mut verdict = Verdict::Free;
        for &(k, sphere, s, offset) in pairs {
            let needed = sphere.radius + room(k);
            // (NaN or an infinite offset: measured.)
            if nearest - offset > needed {
                continue;
            }
            let gaps = solids[s].squared_gaps(self.centre(&sphere));
            let failed = not_clear(&gaps, needed);
            if failed != 0 {
                if !clear(&gaps, sphere.radius) {
                    return Verdict::Contact;
                }
                self.failed |= failed;
                verdict = Verdict::Open;
            }
        }
        verdict
    }

    /// The verdict on sphere pairs between two links (`room` as above).
    #[inline(always)]
    pub(super) fn link_pairs(
        &mut self,
        pairs: &[(usize, LinkSphere, LinkSphere)],
        room: impl Fn(usize) -> Real,
    ) -> Verdict {
        let mut verdict = Verdict::Free;
        for &(k, a, b) in pairs {
            let gaps = self.squared_distances(&a, &b);
            let touch = a.radius + b.radius;
            let failed = not_clear(&gaps, touch + room(k));
            if failed != 0 {
                if !clear(&gaps, touch) {
                    return Verdict::Contact;
                }
                self.failed |= failed;
                verdict = Verdict::Open;
            }
        }
        verdict
    }

    /// Whether every lane's centre of `sphere` is further than `room` from the box `(low,
    /// high)` along one world axis (so from the solid inside it); `false` where a lane is
    /// NaN.
    #[inline(always)]
    pub(super) fn apart(&mut self, sphere: &LinkSphere, [low, high]: &Corners, room: Real) -> bool {
        self.place(sphere);
        let (stamp, span) = &mut self.spans[sphere.slot];
        if *stamp != self.stamp {
            *span = lanes_span(&self.placed[sphere.slot].1);
            *stamp = self.stamp;
        }
        let [lowest, highest] = span;
        (0..3).fold(false, |apart, a| {
            apart | (lowest[a] - room > high[a]) | (highest[a] + room < low[a])
        })
    }

    /// The world centre of `sphere` in every lane (placed once per walk).
    #[inline(always)]
    pub(super) fn centre(&mut self, sphere: &LinkSphere) -> &[Lane; 3] {
        self.place(sphere);
        &self.placed[sphere.slot].1
    }

    /// Places `sphere`'s centre in every lane unless it is placed for this motion.
    #[inline(always)]
    fn place(&mut self, sphere: &LinkSphere) {
        let (stamp, centre) = &mut self.placed[sphere.slot];
        if *stamp != self.stamp {
            self.frames[sphere.link].apply_into(&sphere.centre, centre);
            *stamp = self.stamp;
        }
    }

    /// The chord pass's measures of `sphere` against `solid`: the least distance of its
    /// centre at a lane, and the least lower bound along the chords between lanes (see
    /// [`least_distances`]).
    #[inline(always)]
    pub(super) fn solid_chords(&mut self, sphere: &LinkSphere, solid: &Solid) -> (Real, Real) {
        let points = self.centre(sphere);
        least_distances(points, &solid.outside_offsets(points))
    }

    /// The chord pass's verdict on a link's pairs with obstacles (`lane_screen`'s chord pass):
    /// its bounding sphere `whole` against the block's lone obstacle first, then each pair;
    /// each sphere must keep its radius, its chord deviation (`deviations`, by slot) and
    /// `margin` from its solid along every chord. A pair whose sphere's centre is `offset`
    /// from the bounding sphere's (on one link, against the same solid) is at least the
    /// bounding centre's bound along the chords less `offset` from the solid there (the
    /// chords of two points a fixed `offset` apart at every lane stay within `offset` of each
    /// other), so where that clears its room it is free, with no measure: on
    /// MotionBenchMaker, most pairs of the blocks the bounding sphere leaves open here.
    #[inline(always)]
    pub(super) fn world_chords(
        &mut self,
        whole: Option<(LinkSphere, usize)>,
        pairs: &[(usize, LinkSphere, usize, Real)],
        solids: &[Solid],
        (deviations, margin): (&[Real], Real),
    ) -> Verdict {
        let room = |sphere: &LinkSphere| sphere.radius + deviations[sphere.slot] + margin;
        // The bounding centre's least bound along the chords (NaN: none known).
        let nearest = match whole {
            Some((link, s)) => {
                let along = self.solid_chords(&link, &solids[s]).1;
                if along > room(&link) {
                    return Verdict::Free;
                }
                along
            }
            None => Real::NAN,
        };
        let mut verdict = Verdict::Free;
        for &(_, sphere, s, offset) in pairs {
            let room = room(&sphere);
            // (False for NaN, and for an infinite offset: not on the bounding sphere's link.)
            if nearest - offset > room {
                continue;
            }
            let (at_lanes, along) = self.solid_chords(&sphere, &solids[s]);
            verdict = pair_verdict(verdict, at_lanes, along, sphere.radius, room);
            if matches!(verdict, Verdict::Contact) {
                break;
            }
        }
        verdict
    }

    /// The same for two spheres' centres (their difference against the origin).
    #[inline(always)]
    pub(super) fn sphere_chords(&mut self, a: &LinkSphere, b: &LinkSphere) -> (Real, Real) {
        self.place(a);
        self.place(b);
        let (a, b) = (&self.placed[a.slot].1, &self.placed[b.slot].1);
        let apart: [Lane; 3] = std::array::from_fn(|i| std::array::from_fn(|l| a[i][l] - b[i][l]));
        least_distances(&apart, &apart)
    }

    /// The squared distances of two spheres' centres in every lane.
    #[inline(always)]
    pub(super) fn squared_distances(&mut self, a: &LinkSphere, b: &LinkSphere) -> Lane {
        self.place(a);
        self.place(b);
        squared_distances(&self.placed[a.slot].1, &self.placed[b.slot].1)
    }
}

/// A block's or pair's outcome at the lanes.
pub(super) enum Verdict {
    Free,
    Open,
    Contact,
}

/// A block's verdict so far, after one more pair whose least distance at the lanes is
/// `at_lanes` and along the chords `along`: contact when it touches at a lane (`touch`, NaN
/// included), open unless it keeps `room` along every chord.
#[inline(always)]
pub(super) fn pair_verdict(
    so_far: Verdict,
    at_lanes: Real,
    along: Real,
    touch: Real,
    room: Real,
) -> Verdict {
    match (at_lanes > touch, along > room) {
        (false, _) => Verdict::Contact,
        (true, true) => so_far,
        (true, false) => Verdict::Open,
    }
}

/// Whether every lane's squared distance exceeds `room²` (`room ≥ 0`): [`not_clear`] is 0,
/// by a cheaper test (the whole-block tests' hot path; a NaN lane is not clear in both).
#[inline(always)]
pub(super) fn clear(squared: &Lane, room: Real) -> bool {
    let limit = room * room;
    squared.iter().fold(true, |all, &d| all & (d > limit))
}

/// The least of the lanes' squared distances, as a distance; 0 where a lane is NaN (a
/// distance that proves nothing): [`Lanes::world_pairs`]'s `nearest`.
#[inline(always)]
pub(super) fn least_distance(squared: &Lane) -> Real {
    let (least, nan) = squared
        .iter()
        .fold((Real::INFINITY, false), |(least, nan), &d| {
            (if d < least { d } else { least }, nan | d.is_nan())
        });
    if nan { 0.0 } else { least.sqrt() }
}

/// Bit `l` set for each lane `l` whose squared distance does not exceed `room²`.
#[inline(always)]
fn not_clear(squared: &Lane, room: Real) -> u32 {
    let limit = room * room;
    // (A NaN lane is not clear.)
    let bit = |(l, &d): (usize, &Real)| u32::from((d <= limit) | d.is_nan()) << l;
    squared
        .iter()
        .enumerate()
        .fold(0, |bits, lane| bits | bit(lane))
}

/// A box's lowest and highest corners.
pub(super) type Corners = [[Real; 3]; 2];

/// The lowest and highest coordinates of `points` (per lane), per axis: NaN on an axis where
/// a lane is NaN.
#[inline(always)]
fn lanes_span(points: &[Lane; 3]) -> Corners {
    let mut span = [[0.0; 3]; 2];
    for (a, lanes) in points.iter().enumerate() {
        let (mut low, mut high, mut nan) = (lanes[0], lanes[0], false);
        for &x in lanes {
            low = if x < low { x } else { low };
            high = if x > high { x } else { high };
            nan |= x.is_nan();
        }
        let poison = if nan { Real::NAN } else { 0.0 };
        span[0][a] = low + poison;
        span[1][a] = high + poison;
    }
    span
}

/// Squared distances between two points per lane.
#[inline(always)]
fn squared_distances(a: &[Lane; 3], b: &[Lane; 3]) -> Lane {
    let mut out = [0.0; LANES];
    for (l, out) in out.iter_mut().enumerate() {
        let (x, y, z) = (a[0][l] - b[0][l], a[1][l] - b[1][l], a[2][l] - b[2][l]);
        *out = x * x + y * y + z * z;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::math::Vector3;

    /// A box off the origin, as the screen's only solid.
    fn box_solid() -> [Solid; 1] {
        use crate::geom::{OrientedBox, Shape};
        let shape = OrientedBox::new(
            Point3::new(0.1, -0.2, 0.3),
            crate::math::Matrix3::identity(),
            Vector3::new(0.5, 0.3, 0.2),
        );
        [Solid::of(&Shape::Box(shape.unwrap())).unwrap()]
    }

    /// Random vectors of each coordinate in `(−scale, scale)`, seeded.
    fn random_vectors(seed: u64) -> impl FnMut(Real) -> Vector3 {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        move |scale| {
            Vector3::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            ) * scale
        }
    }

    /// Lanes posed for a link's centre (slot 0) and six spheres about it (slots 1 to 6, radii
    /// up to 0.08, offsets below 0.2·√3) against solid 0, `at` placing an offset from the
    /// centre at every lane; the pairs as the screen's tests list them.
    fn link_lanes(
        at: &impl Fn(Vector3) -> Vec<[Real; 3]>,
        random: &mut impl FnMut(Real) -> Vector3,
    ) -> (Lanes, Vec<(usize, LinkSphere, usize, Real)>) {
        let mut lanes = Lanes::new(7);
        lanes.start_pass();
        lanes.placed[0] = (lanes.stamp, lanes_at(&at(Vector3::zeros())));
        let mut pairs = Vec::new();
        for k in 0..6 {
            let offset = random(0.2);
            lanes.placed[k + 1] = (lanes.stamp, lanes_at(&at(offset)));
            let sphere = LinkSphere {
                link: 0,
                centre: Point3::from(offset),
                radius: 0.08 * (k as Real + 1.0) / 6.0,
                slot: k + 1,
            };
            pairs.push((k, sphere, 0, offset.norm()));
        }
        (lanes, pairs)
    }

    /// A verdict as an index (free, open, contact), for counts and comparisons.
    fn code(verdict: Verdict) -> usize {
        match verdict {
            Verdict::Free => 0,
            Verdict::Open => 1,
            Verdict::Contact => 2,
        }
    }

    fn lanes_at(points: &[[Real; 3]]) -> [Lane; 3] {
        let mut lanes = [[0.0; LANES]; 3];
        for l in 0..LANES {
            let p = points[l % points.len()];
            for a in 0..3 {
                lanes[a][l] = p[a];
            }
        }
        lanes
    }

    /// A pair skipped by `nearest` (its sphere's centre then at least `nearest − offset`
    /// from the solid) leaves the verdict and the lanes not clear as measuring it does:
    /// random links passing a box, each with spheres about its centre, the bound from the
    /// centre's least distance over the lanes.
    #[test]
    fn pairs_skipped_by_the_link_centre_s_distance_change_nothing() {
        let (solids, mut random) = (box_solid(), random_vectors(5));
        let (mut skipped, mut verdicts) = (0, [0; 3]);
        for _ in 0..3000 {
            let (start, step) = (random(1.5), random(0.05));
            let at = |offset: Vector3| -> Vec<[Real; 3]> {
                (0..LANES)
                    .map(|l| (start + step * l as Real + offset).into())
                    .collect()
            };
            let (lanes, pairs) = link_lanes(&at, &mut random);
            let gaps = solids[0].squared_gaps(&lanes.placed[0].1);
            let nearest = gaps.iter().fold(Real::INFINITY, |m, &g| m.min(g)).sqrt();
            let room = |k: usize| 0.03 * (k + 1) as Real;
            let run = |nearest: Real| {
                let mut lanes = lanes.clone();
                lanes.start_pass();
                let verdict = lanes.world_pairs(&pairs, &solids, room, nearest);
                (code(verdict), lanes.failed)
            };
            let (measured, bounded) = (run(0.0), run(nearest));
            assert_eq!(measured, bounded, "start {start}, step {step}");
            verdicts[measured.0] += 1;
            skipped += pairs
                .iter()
                .filter(|&&(k, s, _, offset)| nearest - offset > s.radius + room(k))
                .count();
        }
        // (Every verdict met, and many pairs skipped.)
        assert!(verdicts.iter().all(|&n| n > 50), "{verdicts:?}");
        assert!(skipped > 1000, "{skipped}");
    }

    /// The chord pass's skip: a pair skipped by its link centre's bound along the chords, and
    /// every pair of a block found free pair by pair, keeps its room along every chord
    /// (checked at many points of each); a contact is found as without the skip, and a block
    /// free without the skip is free with it. The link turns as it moves, so its spheres'
    /// offsets turn with it.
    #[test]
    fn pairs_skipped_along_the_chords_keep_their_room() {
        use nalgebra::Rotation3;
        let (solids, mut random) = (box_solid(), random_vectors(9));
        let (mut skipped, mut verdicts) = (0, [0; 3]);
        for _ in 0..3000 {
            let (start, step, bend) = (random(1.0), random(0.06), random(0.004));
            let (turn, spin) = (random(0.1), random(3.0));
            let centre = |l: usize| start + step * l as Real + bend * (l * l) as Real;
            let at = |offset: Vector3| -> Vec<[Real; 3]> {
                (0..LANES)
                    .map(|l| {
                        let rotation = Rotation3::new(spin + turn * l as Real);
                        (centre(l) + rotation * offset).into()
                    })
                    .collect()
            };
            let (lanes, pairs) = link_lanes(&at, &mut random);
            let link = LinkSphere {
                link: 0,
                centre: Point3::origin(),
                // (Holding every sphere: offsets below 0.2·√3, radii at most 0.08.)
                radius: 0.45,
                slot: 0,
            };
            let deviations: Vec<Real> = (0..7).map(|k| 0.02 * k as Real).collect();
            let margin = 1e-9;
            let run = |pairs: &[(usize, LinkSphere, usize, Real)]| {
                let mut lanes = lanes.clone();
                code(lanes.world_chords(Some((link, 0)), pairs, &solids, (&deviations, margin)))
            };
            let unskipped: Vec<_> = pairs
                .iter()
                .map(|&(k, s, solid, _)| (k, s, solid, Real::INFINITY))
                .collect();
            let (with_skip, measured) = (run(&pairs), run(&unskipped));
            assert_eq!(with_skip == 2, measured == 2, "start {start}, step {step}");
            assert!(
                measured != 0 || with_skip == 0,
                "start {start}, step {step}"
            );
            verdicts[with_skip] += 1;
            let along = lanes.clone().solid_chords(&link, &solids[0]).1;
            let whole_clear = along > link.radius + deviations[0] + margin;
            for &(_, sphere, _, offset) in &pairs {
                let room = sphere.radius + deviations[sphere.slot] + margin;
                let skip = along - offset > room;
                skipped += usize::from(skip);
                if !(skip || (with_skip == 0 && !whole_clear)) {
                    continue;
                }
                // A pair skipped, or of a block found free pair by pair: points along every
                // chord of its sphere's centre, sixteen at a time, keep its room.
                let points = &lanes.placed[sphere.slot].1;
                for l in 0..LANES - 1 {
                    let chord: [Lane; 3] = std::array::from_fn(|a| {
                        std::array::from_fn(|i| {
                            let t = i as Real / (LANES - 1) as Real;
                            points[a][l] + t * (points[a][l + 1] - points[a][l])
                        })
                    });
                    assert!(clear(&solids[0].squared_gaps(&chord), room - margin));
                }
            }
        }
        // (Every verdict met, and many pairs skipped.)
        assert!(verdicts.iter().all(|&n| n > 50), "{verdicts:?}");
        assert!(skipped > 1000, "{skipped}");
    }

    #[test]
    fn a_span_holds_every_lane_and_a_nan_lane_poisons_its_axis() {
        let points = [[0.0, 1.0, -2.0], [3.0, -1.0, 5.0], [1.5, 0.5, 0.0]];
        let [low, high] = lanes_span(&lanes_at(&points));
        assert_eq!(low, [0.0, -1.0, -2.0]);
        assert_eq!(high, [3.0, 1.0, 5.0]);
        let mut lanes = lanes_at(&points);
        lanes[1][LANES - 1] = Real::NAN;
        let [low, high] = lanes_span(&lanes);
        assert!(low[1].is_nan() && high[1].is_nan());
        assert_eq!((low[0], high[2]), (0.0, 5.0));
    }

    /// `apart` says so only when every lane's centre is beyond the room from the box along
    /// one axis, so the solid inside the box is clear at every lane.
    #[test]
    fn apart_only_beyond_the_room_along_an_axis() {
        let sphere = LinkSphere {
            link: 0,
            centre: Point3::origin(),
            radius: 0.1,
            slot: 0,
        };
        let unit_box: Corners = [[0.0; 3], [1.0; 3]];
        let apart = |points: &[[Real; 3]], room: Real| {
            let mut lanes = Lanes::new(1);
            lanes.start_pass();
            lanes.placed[0] = (lanes.stamp, lanes_at(points));
            lanes.apart(&sphere, &unit_box, room)
        };
        // Beyond the top face by 0.5 at every lane.
        let above = [[0.5, 0.5, 1.5], [2.0, -3.0, 1.6], [0.0, 0.0, 1.5]];
        assert!(apart(&above, 0.49));
        assert!(!apart(&above, 0.5));
        // One lane inside the box's x–y extent and low enough: not apart on z; nor on x or y,
        // which the lanes straddle.
        let straddling = [[-2.0, 0.5, 1.5], [3.0, 0.5, 1.5], [0.5, 0.5, 1.05]];
        assert!(apart(&straddling, 0.04));
        assert!(!apart(&straddling, 0.06));
        // Beside a corner (apart along x, not z): still apart.
        assert!(apart(&[[1.3, 0.5, 0.5], [1.4, 2.0, 9.0]], 0.29));
        // A NaN lane is never apart.
        let mut with_nan = lanes_at(&above);
        with_nan[2][3] = Real::NAN;
        let mut lanes = Lanes::new(1);
        lanes.start_pass();
        lanes.placed[0] = (lanes.stamp, with_nan);
        assert!(!lanes.apart(&sphere, &unit_box, 0.1));
    }

    #[test]
    fn clear_and_not_clear_agree_nan_included() {
        let mut squared = [4.0; LANES];
        assert!(clear(&squared, 1.9));
        assert_eq!(not_clear(&squared, 1.9), 0);
        squared[5] = 1.0;
        assert!(!clear(&squared, 1.9));
        assert_eq!(not_clear(&squared, 1.9), 1 << 5);
        squared[5] = Real::NAN;
        assert!(!clear(&squared, 0.0));
        assert_eq!(not_clear(&squared, 0.0), 1 << 5);
    }
}
