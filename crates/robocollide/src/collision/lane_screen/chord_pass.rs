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

use super::{LaneScreen, Test, settle};
use crate::collision::chord_bound::{chord_deviation, curvature_at};
use crate::collision::lane_points::{Lanes, LinkSphere, Verdict};
use crate::collision::motion_bound::MotionBound;
use crate::collision::rake::point_on_motion;
use crate::kinematics::LANES;
use crate::math::Real;
use crate::robot::RobotModel;

/// The parameter distance between neighbouring lanes of the chord pass.
const SPACING: Real = 1.0 / (LANES - 1) as Real;

/// What the chord pass needs besides the lanes: each slot's chord deviation, from its link's
/// path and its centre's distance from the link's origin.
#[derive(Debug, Clone)]
pub(super) struct Chords {
    /// Per slot, its link's path (into `paths`) and its centre's distance from the link's
    /// origin.
    anchors: Vec<(usize, Real)>,
    /// The distinct paths (joints, root → link) of the slots' links.
    paths: Vec<Vec<usize>>,
    /// Per path, its curvature terms along the current motion (scratch).
    terms: Vec<(Real, Real)>,
    /// Per slot, how far its centre strays from a chord between neighbouring lanes (current
    /// motion).
    deviations: Vec<Real>,
    prefix: Vec<Real>,
}

impl Chords {
    /// The deviations' sources for `spheres` of `model` (in `slots` slots).
    pub(super) fn new<'s>(
        model: &RobotModel,
        spheres: impl Iterator<Item = &'s LinkSphere>,
        slots: usize,
    ) -> Self {
        let mut paths: Vec<Vec<usize>> = Vec::new();
        let mut anchors = vec![(0, 0.0); slots];
        for sphere in spheres {
            let path = model.tree().path_to(sphere.link);
            let index = paths.iter().position(|p| *p == path).unwrap_or_else(|| {
                paths.push(path);
                paths.len() - 1
            });
            anchors[sphere.slot] = (index, sphere.centre.coords.norm());
        }
        Self {
            anchors,
            terms: vec![(0.0, 0.0); paths.len()],
            paths,
            deviations: vec![0.0; slots],
            prefix: Vec::new(),
        }
    }

    /// Every slot's deviation along the motion `qa → qb` of robot `robot` (its
    /// configurations).
    fn set_motion(&mut self, bound: &MotionBound, robot: usize, motion: (&[Real], &[Real])) {
        for (terms, path) in self.terms.iter_mut().zip(&self.paths) {
            *terms = bound.path_curvature(robot, path, motion, &mut self.prefix);
        }
        for (deviation, &(path, local)) in self.deviations.iter_mut().zip(&self.anchors) {
            *deviation = chord_deviation(curvature_at(self.terms[path], local), SPACING);
        }
    }
}

impl LaneScreen {
    /// The chord pass over the blocks `open` of the motion `qa → qb` (robot configurations):
    /// the blocks certified leave `open`; `false` when a pair is in contact at a lane (a point
    /// of the motion: blocked).
    #[inline(always)]
    pub(super) fn chord_pass(
        &mut self,
        model: &RobotModel,
        (qa, qb): (&[Real], &[Real]),
        open: &mut Vec<usize>,
        bound: &MotionBound,
    ) -> bool {
        self.chords.set_motion(bound, self.robot, (qa, qb));
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
                    let whole_clear = match *whole {
                        Some((link, s)) => {
                            let room = room(&link, deviations) + margin;
                            lanes.solid_chords(&link, &solids[s]).1 > room
                        }
                        None => false,
                    };
                    if whole_clear {
                        Verdict::Free
                    } else {
                        let mut verdict = Verdict::Free;
                        for &(_, sphere, s) in pairs {
                            let (at_lanes, along) = lanes.solid_chords(&sphere, &solids[s]);
                            verdict = pair_verdict(
                                verdict,
                                at_lanes,
                                along,
                                sphere.radius,
                                room(&sphere, deviations) + margin,
                            );
                            if matches!(verdict, Verdict::Contact) {
                                break;
                            }
                        }
                        verdict
                    }
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

/// A block's verdict so far, after one more pair whose least distance at the lanes is
/// `at_lanes` and along the chords `along`: contact when it touches at a lane (`touch`, NaN
/// included), open unless it keeps `room` along every chord.
#[inline(always)]
fn pair_verdict(so_far: Verdict, at_lanes: Real, along: Real, touch: Real, room: Real) -> Verdict {
    match (at_lanes > touch, along > room) {
        (false, _) => Verdict::Contact,
        (true, true) => so_far,
        (true, false) => Verdict::Open,
    }
}
