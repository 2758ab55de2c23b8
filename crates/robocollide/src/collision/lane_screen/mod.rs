//! [`LaneScreen`]: the motion check's blocks left open by their bounds at the motion's ends,
//! settled at [`LANES`] points of the motion evaluated side by side, before any of their pairs
//! is measured exactly.
//!
//! Certificate (first order, as [`MotionCheck`](super::MotionCheck)'s): along `qa → qb` no
//! point of a pair's bodies moves relative to the other body further than the pair's motion
//! bound `λ` times the stretch's length in the parameter. The lanes sit at the midpoints
//! `sᵢ = (i + ½)/LANES` of `LANES` equal stretches ([`lane_parameter`](crate::kinematics::lane_parameter)), so every `s` of the
//! motion is within `1/(2·LANES)` of one of them, and a pair whose distance at every lane
//! exceeds `λ/(2·LANES)` is free on the whole motion. A block is certified whole when its
//! link's bounding sphere (a lower bound on every pair's distance) clears the obstacle, or the
//! other link's sphere, by the block's bound over `2·LANES` in every lane; else pair by pair.
//! Against an obstacle, the box of the sphere's centres over the lanes is tried first: beyond
//! that room from the obstacle's world-aligned box along one axis, every lane is clear of the
//! solid inside it, with no distance measured (on MotionBenchMaker, 1.2 % of the planner's
//! instructions saved; the same test pair by pair cost more than it saved). When the link's
//! sphere is not clear, its centre's least distance to the solid over the lanes, `m`, still
//! bounds each pair's: a sphere whose centre is `δ` from that centre is at least `m − δ` from
//! the solid at every lane (a distance to a set changes no faster than the point moves), so a
//! pair with `m − δ` beyond its radius and share is clear, neither placed nor measured (half
//! the pairs of such blocks on MotionBenchMaker).
//! A pair in contact at a lane (distance `≤ 0`) is a contact on the motion: the motion is
//! blocked. A block with a pair neither clear nor in contact is left open. The blocks of the
//! last contacts found are screened first (1.5 % of the instructions; the order changes no
//! verdict), brought forward in one sweep over the open blocks ([`RecentBlocks`]).
//!
//! Refinement: the lanes where a pair of an open block was not clear, from the first to the
//! last, cover a stretch of the motion outside which every such pair was clear at every lane
//! (so free there). When they are at most [`MOST_REFINED_LANES`], that stretch `[s₀, s₁]` is
//! screened again as a motion of its own, `q(s₀) → q(s₁)`, its lanes `(s₁ − s₀)/LANES` apart
//! and its shares `λ·(s₁ − s₀)/(2·LANES)` (the bound is linear in the stretch's length):
//! a block clear there is free on the whole motion. Up to [`REFINEMENTS`] times, each on the
//! stretch the pass before left. (On MotionBenchMaker the refinements settled two in five of
//! the motions whose blocks the first pass left open, saving 2.5 % of the planner's
//! instructions.)
//!
//! Chord pass ([`chord_pass`], second order): the blocks still open are tested once more at
//! lanes walked at `i/(LANES − 1)`, the motion's ends included, along the chords between
//! neighbouring lanes: a pair is free when every chord keeps further from the obstacle (or the
//! other sphere) than the radii plus the chord's deviation `A/(8 (LANES − 1)²)`, bounded
//! without a kernel by the distance's tangents at the chord's ends
//! ([`lane_chords`](super::lane_chords)). A link passing a few millimetres from an obstacle
//! all along the motion, which no first-order pass settles, is settled here. A pair touching at
//! one of these lanes blocks the motion. Then the blocks still open go to the exact
//! certificate.
//!
//! Rounding: the lanes' frames come from [`forward_lanes_into`](crate::kinematics::ForwardKinematics::forward_lanes_into), whose
//! points differ from the exact points of the motion by ~10⁻¹⁵ of the reach (tested below
//! 10⁻¹²; a refined stretch's ends, `qa + s (qb − qa)`, add a rounding of the joint values),
//! and the distances here add a few roundings of the same size. Every "clear" test
//! asks for `margin = 10⁻⁹ · scale` more (`scale` bounds every coordinate involved: the
//! obstacles' extent and the robot's reach), so a pair is certified only when it is clear
//! with that room to spare. A "contact" answer (a distance `≤ 0` at a lane, no margin) may
//! be a false positive by rounding alone (allowed: the planner treats the motion as blocked).
//!
//! Handled: one robot with joints in the cell, sphere bodies on links whose motion groups
//! have a bounding sphere fixed in the link, and obstacles (bodies of robots without joints)
//! that are spheres, boxes or flat-capped cylinders. Every other block is left to the exact
//! certificate. Units: metres.

mod chord_pass;
mod recent_blocks;

use super::checker::CellChecker;
use super::chord_certificate::ChordCertificate;
use super::lane_points::{Corners, Lanes, LinkSphere, Verdict, clear, least_distance};
use super::motion_blocks::Block;
use super::motion_bound::MotionBound;
use super::pair_bounds::PairBounds;
use super::point_solid::Solid;
use super::rake::point_on_motion;
use crate::kinematics::{JointKind, LANES};
use crate::math::Real;
use crate::robot::{BodyShape, RobotModel};
use crate::wide::{WideOp, run_wide};
use chord_pass::{Chords, Curvature};
use recent_blocks::RecentBlocks;

/// Passes over a stretch of the motion after the first, each over the lanes of the pass
/// before from the first to the last where a block left open had a pair not clear.
const REFINEMENTS: usize = 3;

/// A refinement is made only when those lanes are at most this many (its lanes are then at
/// least 4/3 as dense; wider spans measured no better).
const MOST_REFINED_LANES: usize = 12;

// (The lanes not clear are bits of a `u32`.)
const _: () = assert!(LANES <= 32);

/// How one block is screened.
#[derive(Debug, Clone)]
enum Test {
    /// A link's spheres against obstacles: the link's bounding sphere against the block's
    /// lone obstacle first when it has one, then each pair `(k, sphere, solid, offset)`,
    /// `offset` the distance from the sphere's centre to the bounding sphere's (infinite
    /// where they are not on one link).
    World {
        whole: Option<(LinkSphere, usize)>,
        pairs: Vec<(usize, LinkSphere, usize, Real)>,
    },
    /// Two links of the robot: their bounding spheres; then each run of pairs that share
    /// a first sphere, that sphere against the other link's bounding sphere; then each pair
    /// `(k, sphere, sphere)` of the run.
    Links {
        whole: (LinkSphere, LinkSphere),
        runs: Vec<(LinkSphere, LinkSphere, std::ops::Range<usize>)>,
        pairs: Vec<(usize, LinkSphere, LinkSphere)>,
    },
    /// Left to the exact certificate.
    Exact,
}

/// The lane screen of one cell's motion check (see the module docs).
#[derive(Debug, Clone)]
pub(super) struct LaneScreen {
    robot: usize,
    tests: Vec<Test>,
    solids: Vec<Solid>,
    /// Each solid's world-aligned box, as its lowest and highest corners.
    boxes: Vec<Corners>,
    margin: Real,
    lanes: Lanes,
    /// The blocks of the last contacts found, screened first (a planner's blocked motions
    /// mostly meet an obstacle where the previous ones did).
    recent_contacts: RecentBlocks,
    /// Scratch: the blocks [`LaneScreen::finds_recent_contact`] screens.
    probed: Vec<usize>,
    /// The chord pass's deviations ([`chord_pass`]).
    chords: Chords,
}

impl LaneScreen {
    /// The screen of `blocks` (pairs `block_pairs`, between `group_count` motion groups), or
    /// `None` when the cell is not one the screen handles (see the module docs) or no block
    /// is. `chord` gives the chord pass its spheres' curvature bounds.
    pub(super) fn new(
        checker: &CellChecker<'_>,
        chord: &ChordCertificate,
        blocks: &[Block],
        block_pairs: &[usize],
        group_count: usize,
    ) -> Option<Self> {
        let cell = checker.cell();
        let mut moving = (0..cell.robots.len()).filter(|&r| cell.robots[r].model.dof() > 0);
        let robot = moving.next()?;
        if moving.next().is_some() {
            return None;
        }
        let model = &cell.robots[robot].model;
        let mut scale = model.tree().base.translation.vector.norm();
        for joint in model.tree().joints() {
            scale += joint.origin.translation.vector.norm();
            if joint.kind == Some(JointKind::Prismatic) {
                let (min, max) = joint.limits?;
                scale += min.abs().max(max.abs());
            }
        }
        let mut slots = 0;
        let mut slot = || {
            slots += 1;
            slots - 1
        };
        let spheres: Vec<Option<LinkSphere>> = model
            .bodies
            .iter()
            .map(|body| match &body.shape {
                BodyShape::Sphere { center, radius } => Some(LinkSphere {
                    link: center.frame,
                    centre: center.at,
                    radius: *radius,
                    slot: slot(),
                }),
                _ => None,
            })
            .collect();
        let reach = spheres
            .iter()
            .flatten()
            .map(|s| s.centre.coords.norm() + s.radius)
            .fold(0.0, Real::max);
        scale += reach;
        let groups: Vec<Option<LinkSphere>> = (0..group_count)
            .map(|g| match checker.group_link(g) {
                (r, Some((link, centre, radius))) if r == robot => Some(LinkSphere {
                    link,
                    centre,
                    radius,
                    slot: slot(),
                }),
                _ => None,
            })
            .collect();
        let (mut solids, mut boxes) = (Vec::new(), Vec::new());
        // Each obstacle's solid once, by its flat body index (`usize::MAX`: not yet made).
        let mut solid_of = vec![usize::MAX; checker.flat_body_count()];
        let mut solid = |r: usize, b: usize| -> Option<usize> {
            let flat = checker.flat_body(r, b);
            if solid_of[flat] != usize::MAX {
                return Some(solid_of[flat]);
            }
            let found = Solid::of(&checker.obstacle_shape(r, b)?)?;
            solids.push(found);
            boxes.push(match checker.obstacle_box(r, b) {
                Some(aabb) => {
                    let (low, high) = aabb.corners();
                    [low.into(), high.into()]
                }
                None => [[Real::NEG_INFINITY; 3], [Real::INFINITY; 3]],
            });
            solid_of[flat] = solids.len() - 1;
            Some(solids.len() - 1)
        };
        let pairs = checker.pairs();
        let tests: Vec<Test> = blocks
            .iter()
            .map(|block| {
                let ks = &block_pairs[block.pairs.clone()];
                let test = if block.relative.is_some() {
                    let whole = (groups[block.groups.0]?, groups[block.groups.1]?);
                    // The pairs by their first body (then index, as `ks` is unique), sorted
                    // as small keys before their spheres are gathered.
                    let mut order = all_or_none(ks.iter().map(|&k| {
                        let p = &pairs[k];
                        (p.robot_a == robot && p.robot_b == robot).then_some((p.body_a, k))
                    }))?;
                    order.sort_unstable();
                    let pairs = all_or_none(order.iter().map(|&(body, k)| {
                        let p = &pairs[k];
                        let other = groups[checker.body_group(robot, p.body_b)]?;
                        Some((body, (k, spheres[p.body_a]?, spheres[p.body_b]?), other))
                    }))?;
                    let mut runs: Vec<(LinkSphere, LinkSphere, std::ops::Range<usize>)> =
                        Vec::new();
                    for (i, &(body, (_, a, _), other)) in pairs.iter().enumerate() {
                        match runs.last_mut() {
                            Some((_, _, run)) if pairs[run.start].0 == body => run.end = i + 1,
                            _ => runs.push((a, other, i..i + 1)),
                        }
                    }
                    Test::Links {
                        whole,
                        runs,
                        pairs: pairs.into_iter().map(|(_, pair, _)| pair).collect(),
                    }
                } else {
                    let whole = block
                        .obstacle
                        .and_then(|(g, (r, b))| Some((groups[g]?, solid(r, b)?)));
                    let pairs = all_or_none(ks.iter().map(|&k| {
                        let p = &pairs[k];
                        let ((rs, bs), (ro, bo)) = if p.robot_a == robot {
                            ((p.robot_a, p.body_a), (p.robot_b, p.body_b))
                        } else {
                            ((p.robot_b, p.body_b), (p.robot_a, p.body_a))
                        };
                        (rs == robot && ro != robot).then_some(())?;
                        let (sphere, pair_solid) = (spheres[bs]?, solid(ro, bo)?);
                        let offset = match whole {
                            Some((link, s)) if link.link == sphere.link && s == pair_solid => {
                                (sphere.centre - link.centre).norm()
                            }
                            _ => Real::INFINITY,
                        };
                        Some((k, sphere, pair_solid, offset))
                    }))?;
                    Test::World { whole, pairs }
                };
                Some(test)
            })
            .map(|test: Option<Test>| test.unwrap_or(Test::Exact))
            .collect();
        if tests.iter().all(|t| matches!(t, Test::Exact)) {
            return None;
        }
        scale += solids.iter().map(Solid::extent).fold(0.0, Real::max);
        let sources = spheres.iter().enumerate().filter_map(|(b, sphere)| {
            let ball = chord.ball_slot(checker.flat_body(robot, b));
            sphere.map(|s| (s.slot, ball.map_or(Curvature::Unbounded, Curvature::Ball)))
        });
        let group_sources = groups
            .iter()
            .enumerate()
            .filter_map(|(g, sphere)| sphere.map(|s| (s.slot, Curvature::Group(g))));
        let chords = Chords::new(sources.chain(group_sources), slots);
        Some(Self {
            robot,
            tests,
            solids,
            boxes,
            margin: 1e-9 * scale,
            lanes: Lanes::new(slots),
            recent_contacts: RecentBlocks::new(blocks.len()),
            probed: Vec::new(),
            chords,
        })
    }

    /// Walks the lanes over the motion `qa → qb` (whole-cell configurations) and looks for
    /// contact at them in the blocks of the last contacts the screen found: `true` when a pair
    /// of one is in contact at a lane (the motion is blocked). Nothing is certified; the
    /// lanes stay posed for [`Self::screen`] of the same motion (`walked`). Before the
    /// motion's bounds and its blocks' gaps at the end, which a motion blocked at a lane
    /// needs none of: on MotionBenchMaker a third of the screens end in contact, most often
    /// in the block of a recent one.
    pub(super) fn finds_recent_contact(
        &mut self,
        checker: &CellChecker<'_>,
        motion: (&[Real], &[Real]),
    ) -> bool {
        struct Probing<'a, 'c> {
            screen: &'a mut LaneScreen,
            checker: &'a CellChecker<'c>,
            motion: (&'a [Real], &'a [Real]),
        }
        impl WideOp for Probing<'_, '_> {
            type Output = bool;
            #[inline(always)]
            fn run(self) -> bool {
                let screen = self.screen;
                let (qa, qb) = self.motion;
                let motion = (
                    self.checker.robot_q(qa, screen.robot),
                    self.checker.robot_q(qb, screen.robot),
                );
                let model = &self.checker.cell().robots[screen.robot].model;
                screen.lanes.walk(model, motion);
                let mut probed = std::mem::take(&mut screen.probed);
                probed.clear();
                let blocks = screen.tests.len();
                probed.extend(screen.recent_contacts.iter().filter(|&i| i < blocks));
                let contact = !screen.screen_span::<true>(&mut probed, 0.0, &[], None);
                screen.probed = probed;
                contact
            }
        }
        run_wide(Probing {
            screen: self,
            checker,
            motion,
        })
    }

    /// Screens the blocks `open` of the motion `qa → qb` (whole-cell configurations) at the
    /// lanes, `block_bounds` and `bounds` its bounds: the blocks certified leave `open`.
    /// `false` when a pair is in contact at a lane (the motion is blocked). `walked`: the
    /// lanes are posed over this motion already ([`Self::finds_recent_contact`]). Runs
    /// compiled for AVX2 where the processor has it (`simd` feature).
    pub(super) fn screen(
        &mut self,
        checker: &CellChecker<'_>,
        motion: (&[Real], &[Real]),
        walked: bool,
        open: &mut Vec<usize>,
        bounds: (&[Real], &PairBounds),
        chord: (&MotionBound, &mut ChordCertificate),
    ) -> bool {
        struct Screening<'a, 'c> {
            screen: &'a mut LaneScreen,
            checker: &'a CellChecker<'c>,
            motion: (&'a [Real], &'a [Real]),
            walked: bool,
            open: &'a mut Vec<usize>,
            bounds: (&'a [Real], &'a PairBounds),
            chord: (&'a MotionBound, &'a mut ChordCertificate),
        }
        impl WideOp for Screening<'_, '_> {
            type Output = bool;
            #[inline(always)]
            fn run(self) -> bool {
                let screen = self.screen;
                let (checker, motion, walked) = (self.checker, self.motion, self.walked);
                screen.screen_lanes(checker, motion, walked, self.open, self.bounds, self.chord)
            }
        }
        run_wide(Screening {
            screen: self,
            checker,
            motion,
            walked,
            open,
            bounds,
            chord,
        })
    }

    /// [`Self::screen`]'s work: the whole motion, then up to [`REFINEMENTS`] times the
    /// stretch of the lanes where a pair of a block left open was not clear, as a motion of
    /// its own (see the module docs); then the chord pass, which sets `chord`'s curvature
    /// bounds for the motion.
    #[inline(always)]
    fn screen_lanes(
        &mut self,
        checker: &CellChecker<'_>,
        (qa, qb): (&[Real], &[Real]),
        walked: bool,
        open: &mut Vec<usize>,
        (block_bounds, bounds): (&[Real], &PairBounds),
        (bound, chord): (&MotionBound, &mut ChordCertificate),
    ) -> bool {
        let whole = (qa, qb);
        let (qa, qb) = (
            checker.robot_q(qa, self.robot),
            checker.robot_q(qb, self.robot),
        );
        let model = &checker.cell().robots[self.robot].model;
        let motion = (qa, qb);
        let (mut from, mut length) = (0.0, 1.0);
        for level in 0..=REFINEMENTS {
            if level > 0 {
                // The lanes from the first to the last not clear, with their stretches.
                let failed = self.lanes.failed;
                let (first, last) = (failed.trailing_zeros(), 31 - failed.leading_zeros());
                let spanned = (last - first + 1) as usize;
                if failed == 0 || spanned > MOST_REFINED_LANES {
                    break;
                }
                let lane = length / LANES as Real;
                from += lane * first as Real;
                length = lane * spanned as Real;
            }
            let passed = if level == 0 && walked {
                self.screen_span::<false>(open, length, block_bounds, Some(bounds))
            } else {
                self.screen_stretch(model, motion, (from, length), open, block_bounds, bounds)
            };
            if !passed {
                return false;
            }
            if open.is_empty() {
                return true;
            }
        }
        chord.set_motion(bound, checker, whole.0, whole.1);
        self.chord_pass(model, motion, open, chord)
    }

    /// Walks the lanes over the stretch `(from, length)` of the motion (robot configurations)
    /// and screens `open` there (see [`Self::screen_span`]).
    #[inline(always)]
    fn screen_stretch(
        &mut self,
        model: &RobotModel,
        (qa, qb): (&[Real], &[Real]),
        (from, length): (Real, Real),
        open: &mut Vec<usize>,
        block_bounds: &[Real],
        bounds: &PairBounds,
    ) -> bool {
        let lanes = &mut self.lanes;
        // (The whole motion from its own ends; a refined stretch is shorter.)
        if from == 0.0 && length == 1.0 {
            lanes.walk(model, (qa, qb));
        } else {
            let (mut start, mut end) = std::mem::take(&mut lanes.ends);
            point_on_motion(&mut start, qa, qb, from);
            point_on_motion(&mut end, qa, qb, from + length);
            lanes.walk(model, (&start, &end));
            lanes.ends = (start, end);
        }
        self.screen_span::<false>(open, length, block_bounds, Some(bounds))
    }

    /// One pass over the lanes as posed, which span a stretch `length` long in the motion's
    /// parameter: the blocks certified on it leave `open`; `false` on contact. With
    /// `CONTACT_ONLY` no bound is read (`block_bounds` and `bounds` may be empty): every
    /// share is 0, so a block that leaves `open` is only free at the lanes, not certified.
    #[inline(always)]
    fn screen_span<const CONTACT_ONLY: bool>(
        &mut self,
        open: &mut Vec<usize>,
        length: Real,
        block_bounds: &[Real],
        bounds: Option<&PairBounds>,
    ) -> bool {
        let lanes = &mut self.lanes;
        lanes.start_pass();
        let (solids, boxes, margin) = (&self.solids, &self.boxes, self.margin);
        let per_bound = 0.5 * length / LANES as Real;
        // The room a block's groups, and a pair, need beyond their radii at every lane.
        let block_room = |i: usize| {
            if CONTACT_ONLY {
                margin
            } else {
                block_bounds[i] * per_bound + margin
            }
        };
        let pair_room = |k: usize| match bounds {
            Some(bounds) if !CONTACT_ONLY => bounds.pair(k) * per_bound + margin,
            _ => margin,
        };
        // The blocks of recent contacts first (the order changes no verdict).
        self.recent_contacts.to_front(open);
        let mut kept = 0;
        for index in 0..open.len() {
            let i = open[index];
            let verdict = match &self.tests[i] {
                Test::Exact => Verdict::Open,
                Test::World { whole, pairs } => {
                    // (Closures here would be compiled apart, with baseline instructions.)
                    // The bounding sphere's centre's least distance to the solid over the
                    // lanes where it is not clear (0: none known).
                    let (whole_clear, nearest) = match *whole {
                        Some((link, s)) => {
                            let room = link.radius + block_room(i);
                            if lanes.apart(&link, &boxes[s], room) {
                                (true, 0.0)
                            } else {
                                let gaps = solids[s].squared_gaps(lanes.centre(&link));
                                if clear(&gaps, room) {
                                    (true, 0.0)
                                } else {
                                    (false, least_distance(&gaps))
                                }
                            }
                        }
                        None => (false, 0.0),
                    };
                    if whole_clear {
                        Verdict::Free
                    } else {
                        lanes.world_pairs(pairs, solids, pair_room, nearest)
                    }
                }
                Test::Links { whole, runs, pairs } => {
                    let block_room = block_room(i);
                    let (a, b) = *whole;
                    if clear(
                        &lanes.squared_distances(&a, &b),
                        a.radius + b.radius + block_room,
                    ) {
                        Verdict::Free
                    } else {
                        let mut verdict = Verdict::Free;
                        for (a, other, run) in runs {
                            let room = a.radius + other.radius + block_room;
                            if clear(&lanes.squared_distances(a, other), room) {
                                continue;
                            }
                            match lanes.link_pairs(&pairs[run.clone()], pair_room) {
                                Verdict::Free => {}
                                Verdict::Open => verdict = Verdict::Open,
                                Verdict::Contact => {
                                    verdict = Verdict::Contact;
                                    break;
                                }
                            }
                        }
                        verdict
                    }
                }
            };
            if !settle(&mut self.recent_contacts, (open, &mut kept), i, verdict) {
                return false;
            }
        }
        open.truncate(kept);
        true
    }
}

/// Applies a pass's verdict on block `i` (`open[index]` for some `index ≥ kept`): `false` on
/// contact (the block remembered among the recent contacts); an open block is kept at
/// `open[kept]`, a free one leaves.
#[inline(always)]
fn settle(
    recent: &mut RecentBlocks,
    (open, kept): (&mut [usize], &mut usize),
    i: usize,
    verdict: Verdict,
) -> bool {
    match verdict {
        Verdict::Contact => {
            recent.remember(i);
            return false;
        }
        Verdict::Free => {}
        Verdict::Open => {
            open[*kept] = i;
            *kept += 1;
        }
    }
    true
}

/// Every item, or `None` if any is `None` (as `collect::<Option<Vec<_>>>`, but the vector
/// made at its full size at once: that collect grows it from nothing).
fn all_or_none<T>(items: impl ExactSizeIterator<Item = Option<T>>) -> Option<Vec<T>> {
    let mut all = Vec::with_capacity(items.len());
    for item in items {
        all.push(item?);
    }
    Some(all)
}
