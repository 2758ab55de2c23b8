//! The lane screen's last pass: the blocks the first-order passes leave open, tested along the
//! chords between lanes walked at evenly spaced points of the whole motion, its ends included
//! ([`lane_chords`](super::super::lane_chords) gives the certificate).
//!
//! The first-order passes certify a pair only where its distance at every lane exceeds its
//! bound's share, so a link passing a few millimetres from an obstacle all along the motion (a
//! hand along a shelf) stays open however often its stretch is refined, and went on to the
//! exact certificate's bisection. Along the chords it needs only its distance to exceed the
//! chords' deviation, `A/(8 (LANES − 1)²)`. On MotionBenchMaker this pass settles six in seven of
//! the motions the first-order passes left open (the search's instructions −4.3 %).
//!
//! Against an obstacle, a link's bounding sphere is tested first; where it is not clear, a
//! pair whose sphere's centre lies `δ` from the bounding centre is skipped, not measured, when
//! the bounding centre's bound along the chords less `δ` clears the pair's room
//! ([`Lanes::world_chords`]: two points `δ` apart at every lane have chords within `δ` of each
//! other). Session 58: search 0.99×.

use super::{LaneScreen, Test, settle};
use crate::collision::chord_bound::chord_deviation;
use crate::collision::chord_certificate::ChordCertificate;
use crate::collision::lane_points::{Lanes, LinkSphere, Verdict, pair_verdict};
use crate::collision::rake::point_on_motion;
use crate::kinematics::LANES;
use crate::math::Real;
use crate::robot::RobotModel;

/// The parameter distance between neighbouring lanes of the chord pass.
const SPACING: Real = 1.0 / (LANES - 1) as Real;

/// Where a slot's sphere finds its curvature bound in the motion check's
/// [`ChordCertificate`] (which holds every sphere's and group's along the current motion).
#[derive(Debug, Clone, Copy)]
pub(super) enum Curvature {
    Ball(usize),
    Group(usize),
    /// Not known there: no chord test clears it.
    Unbounded,
}

/// What the chord pass needs besides the lanes: each slot's curvature source, and its chord
/// deviation along the current motion.
#[derive(Debug, Clone)]
pub(super) struct Chords {
    sources: Vec<Curvature>,
    /// Per slot, how far its centre strays from a chord between neighbouring lanes (current
    /// motion; scratch).
    deviations: Vec<Real>,
}

impl Chords {
    /// The chords of `slots` slots, given `(slot, source)` for each sphere (others unbounded).
    pub(super) fn new(sources: impl Iterator<Item = (usize, Curvature)>, slots: usize) -> Self {
        let mut by_slot = vec![Curvature::Unbounded; slots];
        for (slot, source) in sources {
            by_slot[slot] = source;
        }
        Self {
            sources: by_slot,
            deviations: vec![0.0; slots],
        }
    }

    /// Every slot's deviation, from `chord`'s bounds along the current motion.
    fn set_motion(&mut self, chord: &ChordCertificate) {
        for (deviation, source) in self.deviations.iter_mut().zip(&self.sources) {
            let curvature = match *source {
                Curvature::Ball(slot) => chord.ball_curvature(slot),
                Curvature::Group(g) => chord.group_curvature(g),
                Curvature::Unbounded => Real::INFINITY,
            };
            *deviation = chord_deviation(curvature, SPACING);
        }
    }
}

impl LaneScreen {
    /// The chord pass over the blocks `open` of the motion `qa → qb` (robot configurations),
    /// `chord` set for it: the blocks certified leave `open`; `false` when a pair is in contact
    /// at a lane (a point of the motion: blocked).
    #[inline(always)]
    pub(super) fn chord_pass(
        &mut self,
        model: &RobotModel,
        (qa, qb): (&[Real], &[Real]),
        open: &mut Vec<usize>,
        chord: &ChordCertificate,
    ) -> bool {
        self.chords.set_motion(chord);
        // Lanes at `i/(LANES − 1)`: the walk's midpoints of a stretch half a spacing wider at
        // each end.
        let lanes = &mut self.lanes;
        let (mut start, mut end) = std::mem::take(&mut lanes.ends);
        point_on_motion(&mut start, qa, qb, -0.5 * SPACING);
        point_on_motion(&mut end, qa, qb, 1.0 + 0.5 * SPACING);
        lanes.walk(model, (&start, &end));
        lanes.ends = (start, end);
        let (solids, margin) = (&self.solids, self.margin);
        let deviations = &self.chords.deviations;
        // (No closures here: they would be compiled apart, with baseline instructions.)
        let mut kept = 0;
        for index in 0..open.len() {
            let i = open[index];
            let verdict = match &self.tests[i] {
                Test::Exact => Verdict::Open,
                Test::World { whole, pairs } => {
                    lanes.world_chords(*whole, pairs, solids, (deviations, margin))
                }
                Test::Links { whole, runs, pairs } => {
                    let mut verdict = Verdict::Free;
                    if !spheres_clear(lanes, (&whole.0, &whole.1), deviations, margin) {
                        'runs: for (a, other, run) in runs {
                            if spheres_clear(lanes, (a, other), deviations, margin) {
                                continue;
                            }
                            for (_, a, b) in &pairs[run.clone()] {
                                let (at_lanes, along) = lanes.sphere_chords(a, b);
                                let touch = a.radius + b.radius;
                                verdict = pair_verdict(
                                    verdict,
                                    at_lanes,
                                    along,
                                    touch,
                                    room(a, deviations) + room(b, deviations) + margin,
                                );
                                if matches!(verdict, Verdict::Contact) {
                                    break 'runs;
                                }
                            }
                        }
                    }
                    verdict
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

/// The room `sphere` must keep beyond touching along every chord: its radius and its deviation.
#[inline(always)]
fn room(sphere: &LinkSphere, deviations: &[Real]) -> Real {
    sphere.radius + deviations[sphere.slot]
}

/// Whether two spheres keep apart along every chord, by their rooms and `margin`.
#[inline(always)]
fn spheres_clear(
    lanes: &mut Lanes,
    (a, b): (&LinkSphere, &LinkSphere),
    deviations: &[Real],
    margin: Real,
) -> bool {
    let room = room(a, deviations) + room(b, deviations) + margin;
    lanes.sphere_chords(a, b).1 > room
}
