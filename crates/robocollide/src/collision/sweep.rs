//! Checks along a trajectory: distance over time, collision intervals and the first collision.
//!
//! - [`SweepMode::Sampled`] checks the given samples only: a collision that begins and ends
//!   between two samples is missed.
//! - [`SweepMode::Guaranteed`] cannot miss one. On each segment between samples (a straight line
//!   in joint space) it compares every pair's distance at the start with the two bodies' motion
//!   bounds over the segment ([`MotionBound`]); if every pair's clearance exceeds the sum, the
//!   whole segment is free. Otherwise it bisects, in time order, down to `min_interval` or to
//!   the resolution of the floating-point times, whichever is coarser, and within a bounded
//!   number of evaluations per segment ([`MAX_EVALUATIONS_PER_SEGMENT`]). What is left is one of
//!   two things, never confused: a *contact onset* (the stretch ends at an evaluated
//!   configuration in contact; the contact interval then starts at the stretch's start) or an
//!   *uncertified stretch* ([`SweepReport::uncertified`]): neither proved free nor seen in
//!   contact at this resolution. It is never reported as a contact between named bodies, and
//!   never as free ([`SweepReport::certified_free`] is `false`).

use super::checker::CellChecker;
use super::motion_bound::MotionBound;
use super::report::PairReport;
use super::trajectory::Trajectory;
use crate::error::Result;
use crate::math::Real;

/// Most configurations the guaranteed sweep evaluates between two trajectory rows; stretches
/// not settled by then are reported as uncertified (bounded work on any input).
pub const MAX_EVALUATIONS_PER_SEGMENT: usize = 4096;
/// Most bisection steps when locating the end of a contact interval.
const MAX_EXIT_STEPS: usize = 64;

/// How to sweep.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SweepMode {
    /// Check the samples only.
    Sampled,
    /// Certify every segment between samples, bisecting down to `min_interval` seconds.
    Guaranteed {
        /// Shortest interval bisection may create (s).
        min_interval: Real,
    },
}

/// One evaluated configuration.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Sample {
    /// Time (s).
    pub t: Real,
    /// Minimum signed distance over all checked pairs (m).
    pub distance: Real,
    /// Index of the closest pair in [`CellChecker::pairs`].
    pub pair: usize,
    /// `true` for a trajectory sample, `false` for a point added by bisection.
    pub given: bool,
}

/// The result of a sweep.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SweepReport {
    /// Every evaluated configuration, in time order.
    pub samples: Vec<Sample>,
    /// Time intervals in contact `[start, end]` (by the evaluated points; in guaranteed mode
    /// `start` is within `min_interval` of the true first contact).
    pub collision_intervals: Vec<(Real, Real)>,
    /// The first contact: time and the pair in contact.
    pub first_collision: Option<(Real, PairReport)>,
    /// The smallest distance among the *evaluated* configurations (rows and bisection
    /// points), with its time and pair. Segments certified free are not searched for their
    /// minimum (their clearance is only bounded), so the true minimum along the trajectory
    /// may lie between evaluated points.
    pub closest: Option<(Real, PairReport)>,
    /// Number of configurations evaluated.
    pub evaluations: usize,
    /// Stretches `[t0, t1]` (merged when adjacent) that could be neither certified free nor
    /// seen in contact at the sweep's resolution (`min_interval`, the float spacing of the
    /// times, or the evaluation budget). Not contacts: nothing is known to touch there.
    pub uncertified: Vec<(Real, Real)>,
    /// The robots and the level of detail each was checked at.
    pub robots: Vec<super::report::RobotSummary>,
}

impl SweepReport {
    /// `true` when the whole trajectory is proved free: no contact and no uncertified stretch.
    pub fn certified_free(&self) -> bool {
        self.first_collision.is_none() && self.uncertified.is_empty()
    }
}

/// Index and value of the smallest entry (`(0, ∞)` when empty).
fn smallest(values: &[Real]) -> (usize, Real) {
    values
        .iter()
        .copied()
        .enumerate()
        .fold(
            (0, Real::INFINITY),
            |best, (k, d)| {
                if d < best.1 { (k, d) } else { best }
            },
        )
}

fn interpolate(qa: &[Real], qb: &[Real], s: Real, out: &mut Vec<Real>) {
    out.clear();
    out.extend(qa.iter().zip(qb).map(|(a, b)| a + (b - a) * s));
}

struct Segment<'c, 'a> {
    checker: &'c mut CellChecker<'a>,
    bound: &'c MotionBound,
    min_interval: Real,
    samples: Vec<Sample>,
    /// Stretches left uncertified (times), in time order.
    uncertified: Vec<(Real, Real)>,
    /// Evaluations left for the current segment.
    budget: usize,
    body_bounds: Vec<Vec<Real>>,
    /// Per pair, the motion bound over the current row segment (see `set_limits`).
    limits: Vec<Real>,
}

impl Segment<'_, '_> {
    /// Poses at `q` and returns the closest pair as a sample (not stored), plus every pair's
    /// distance when the segment will be certified (guaranteed mode).
    fn evaluate(&mut self, q: &[Real], t: Real, given: bool) -> (Vec<Real>, Sample) {
        self.checker.pose(q);
        let mut distances = Vec::new();
        if self.min_interval.is_finite() {
            // Far pairs get a lower bound above their motion bound over the whole row
            // segment (enough to certify them on any part of it); the smallest entry is made
            // exact until it is an exact distance, so the sample is the true closest pair.
            let mut exact = Vec::new();
            self.checker
                .pair_distances_within(&self.limits, &mut distances, &mut exact);
            let (mut pair, mut distance) = smallest(&distances);
            while !exact.get(pair).copied().unwrap_or(true) {
                distances[pair] = self.checker.distance(pair);
                exact[pair] = true;
                (pair, distance) = smallest(&distances);
            }
            return (
                distances,
                Sample {
                    t,
                    distance,
                    pair,
                    given,
                },
            );
        }
        let closest = self.checker.closest();
        let (pair, distance) = closest.map_or((0, Real::INFINITY), |c| (c.pair, c.distance));
        (
            distances,
            Sample {
                t,
                distance,
                pair,
                given,
            },
        )
    }

    /// Each pair's motion bound over the stretch `qa → qb` (the sum of its bodies'),
    /// as the limits of [`CellChecker::pair_distances_within`]; `-∞` (every pair exact) for a
    /// row with no segment after it.
    fn set_limits(&mut self, segment: Option<(&[Real], &[Real])>) {
        let pairs = self.checker.pairs().len();
        self.limits.clear();
        let Some((qa, qb)) = segment else {
            self.limits.resize(pairs, Real::NEG_INFINITY);
            return;
        };
        for r in 0..self.body_bounds.len() {
            let (fr, tr) = (self.checker.robot_q(qa, r), self.checker.robot_q(qb, r));
            self.bound.bodies(r, fr, tr, &mut self.body_bounds[r]);
        }
        let bounds = &self.body_bounds;
        self.limits.extend(
            self.checker
                .pairs()
                .iter()
                .map(|p| bounds[p.robot_a][p.body_a] + bounds[p.robot_b][p.body_b]),
        );
    }

    /// Certifies `[s0, s1]` of the segment `qa → qb` (times `ta → tb`) given the pair
    /// distances at `s0`; pushes every point it evaluates, in time order.
    #[allow(clippy::too_many_arguments)]
    fn certify(
        &mut self,
        qa: &[Real],
        qb: &[Real],
        ta: Real,
        tb: Real,
        s0: Real,
        s1: Real,
        at_s0: &[Real],
    ) {
        if at_s0.iter().any(|d| *d <= 0.0) {
            return; // in contact at s0: already reported by that point.
        }
        let (mut from, mut to) = (Vec::new(), Vec::new());
        interpolate(qa, qb, s0, &mut from);
        interpolate(qa, qb, s1, &mut to);
        for r in 0..self.body_bounds.len() {
            let (fr, tr) = (self.checker.robot_q(&from, r), self.checker.robot_q(&to, r));
            self.bound.bodies(r, fr, tr, &mut self.body_bounds[r]);
        }
        let free = self.checker.pairs().iter().zip(at_s0).all(|(p, d)| {
            *d > self.body_bounds[p.robot_a][p.body_a] + self.body_bounds[p.robot_b][p.body_b]
                || (p.robot_a == p.robot_b && {
                    let r = p.robot_a;
                    let (fr, tr) = (self.checker.robot_q(&from, r), self.checker.robot_q(&to, r));
                    *d > self.bound.self_pair(r, p.body_a, p.body_b, fr, tr)
                })
        });
        if free {
            return;
        }
        let mid = 0.5 * (s0 + s1);
        // Exact at the rows, so that stretch ends match the evaluated times.
        let time = |s: Real| if s >= 1.0 { tb } else { ta + (tb - ta) * s };
        let t_mid = time(mid);
        // Stop at the resolution: `min_interval`, the float spacing of the parameter or of
        // the times (epoch timestamps), or the segment's evaluation budget.
        let resolved = (s1 - s0) * (tb - ta) <= self.min_interval
            || mid <= s0
            || mid >= s1
            || t_mid <= time(s0)
            || t_mid >= time(s1)
            || self.budget == 0;
        if resolved {
            self.uncertified.push((time(s0), time(s1)));
            return;
        }
        self.budget -= 1;
        let mut q = Vec::new();
        interpolate(qa, qb, mid, &mut q);
        // The midpoint's distances certify [mid, s1] and its parts: bounds over that stretch
        // are the limits below which pairs are measured exactly.
        self.set_limits(Some((&q, &to)));
        let (at_mid, sample) = self.evaluate(&q, t_mid, false);
        self.certify(qa, qb, ta, tb, s0, mid, at_s0);
        self.samples.push(sample);
        self.certify(qa, qb, ta, tb, mid, s1, &at_mid);
    }
}

/// Evaluates rows `rows` of `trajectory` and, in guaranteed mode, certifies each segment from a
/// row to the next. Returns the evaluated points and the uncertified stretches (time order).
fn sweep_rows(
    checker: &mut CellChecker<'_>,
    trajectory: &Trajectory,
    mode: SweepMode,
    bound: &MotionBound,
    rows: std::ops::Range<usize>,
    progress: &mut dyn FnMut(usize),
) -> Parts {
    let min_interval = match mode {
        SweepMode::Sampled => Real::INFINITY,
        SweepMode::Guaranteed { min_interval } => min_interval,
    };
    let robots = checker.cell().robots.len();
    let mut segment = Segment {
        checker,
        bound,
        min_interval,
        samples: Vec::with_capacity(rows.len()),
        uncertified: Vec::new(),
        budget: 0,
        body_bounds: vec![Vec::new(); robots],
        limits: Vec::new(),
    };
    let n = trajectory.len();
    for k in rows {
        if matches!(mode, SweepMode::Guaranteed { .. }) {
            let next = (k + 1 < n).then(|| {
                (
                    trajectory.configs[k].as_slice(),
                    trajectory.configs[k + 1].as_slice(),
                )
            });
            segment.set_limits(next);
        }
        let (at_k, sample) = segment.evaluate(&trajectory.configs[k], trajectory.times[k], true);
        segment.samples.push(sample);
        if k + 1 < n && matches!(mode, SweepMode::Guaranteed { .. }) {
            let (qa, qb) = (&trajectory.configs[k], &trajectory.configs[k + 1]);
            segment.budget = MAX_EVALUATIONS_PER_SEGMENT;
            segment.certify(
                qa,
                qb,
                trajectory.times[k],
                trajectory.times[k + 1],
                0.0,
                1.0,
                &at_k,
            );
        }
        progress(1);
    }
    (segment.samples, segment.uncertified)
}

/// Evaluated points and uncertified stretches of some rows.
type Parts = (Vec<Sample>, Vec<(Real, Real)>);

/// Sweeps `trajectory` through `checker`'s cell. `progress` is called with
/// `(rows done, rows total)`.
pub fn sweep(
    checker: &mut CellChecker<'_>,
    trajectory: &Trajectory,
    mode: SweepMode,
    mut progress: impl FnMut(usize, usize),
) -> Result<SweepReport> {
    for q in &trajectory.configs {
        checker.validate(q)?;
    }
    let bound = MotionBound::new(checker.cell());
    let n = trajectory.len();
    let mut done = 0;
    let (samples, uncertified) = sweep_rows(checker, trajectory, mode, &bound, 0..n, &mut |k| {
        done += k;
        progress(done, n);
    });
    Ok(finish(checker, trajectory, mode, samples, uncertified))
}

/// [`sweep`] on all cores: the rows are split into chunks swept in parallel (rayon), each with
/// its own checker; results are identical to the sequential sweep. `progress` receives
/// `(rows done, rows total)` from whichever thread finishes a chunk.
#[cfg(feature = "parallel")]
pub fn sweep_parallel(
    cell: &crate::robot::Cell,
    include_self: bool,
    trajectory: &Trajectory,
    mode: SweepMode,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<SweepReport> {
    use rayon::prelude::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let mut checker = CellChecker::new(cell, include_self);
    for q in &trajectory.configs {
        checker.validate(q)?;
    }
    let bound = MotionBound::new(cell);
    let n = trajectory.len();
    let chunk = (n / (8 * rayon::current_num_threads().max(1))).clamp(256, 65_536);
    let done = AtomicUsize::new(0);
    let parts: Vec<Parts> = (0..n.div_ceil(chunk))
        .into_par_iter()
        .map(|c| {
            let mut local = CellChecker::new(cell, include_self);
            let rows = c * chunk..((c + 1) * chunk).min(n);
            let count = rows.len();
            let part = sweep_rows(&mut local, trajectory, mode, &bound, rows, &mut |_| {});
            progress(done.fetch_add(count, Ordering::Relaxed) + count, n);
            part
        })
        .collect();
    let (mut samples, mut uncertified) = (Vec::new(), Vec::new());
    for (s, u) in parts {
        samples.extend(s);
        uncertified.extend(u);
    }
    Ok(finish(&mut checker, trajectory, mode, samples, uncertified))
}

/// Contact intervals, exits, first contact and closest point from the evaluated points.
fn finish(
    checker: &mut CellChecker<'_>,
    trajectory: &Trajectory,
    mode: SweepMode,
    mut samples: Vec<Sample>,
    stretches: Vec<(Real, Real)>,
) -> SweepReport {
    if let SweepMode::Guaranteed { min_interval } = mode {
        locate_contact_exits(checker, trajectory, &mut samples, min_interval);
    }
    // Adjacent stretches merge; a merged stretch that ends at an evaluated contact is that
    // contact's onset (the clearance shrinking to zero defeats the motion bound), located to
    // the stretch; the others are uncertified.
    let in_contact_at = |t: Real| {
        let k = samples.partition_point(|s| s.t < t);
        samples
            .get(k)
            .is_some_and(|s| s.t == t && s.distance <= 0.0)
    };
    let mut merged: Vec<(Real, Real)> = Vec::new();
    for (t0, t1) in stretches {
        match merged.last_mut() {
            Some(last) if t0 <= last.1 => last.1 = last.1.max(t1),
            _ => merged.push((t0, t1)),
        }
    }
    let (onsets, uncertified): (Vec<_>, Vec<_>) =
        merged.into_iter().partition(|&(_, t1)| in_contact_at(t1));
    let mut intervals: Vec<(Real, Real)> = Vec::new();
    let mut open: Option<Real> = None;
    for (i, s) in samples.iter().enumerate() {
        match (s.distance <= 0.0, open) {
            (true, None) => {
                let onset = onsets.iter().find(|o| o.1 == s.t).map_or(s.t, |o| o.0);
                open = Some(onset);
            }
            (false, Some(start)) => {
                intervals.push((start, samples[i - 1].t));
                open = None;
            }
            _ => {}
        }
    }
    if let Some(start) = open {
        intervals.push((start, samples.last().map_or(start, |s| s.t)));
    }
    // Conservative motion bounds can mark an onset a few bisection steps early, leaving
    // microscopic gaps; merge intervals closer than 16 × min_interval.
    if let SweepMode::Guaranteed { min_interval } = mode {
        let mut merged: Vec<(Real, Real)> = Vec::new();
        for (a, b) in intervals {
            match merged.last_mut() {
                Some(last) if a - last.1 <= 16.0 * min_interval => last.1 = b,
                _ => merged.push((a, b)),
            }
        }
        intervals = merged;
    }
    // Witness reports for the first contact and the closest approach (re-posed exactly).
    let report_at = |checker: &mut CellChecker<'_>, sample: &Sample| -> (Real, PairReport) {
        let q = config_at(trajectory, sample.t);
        checker.pose(&q);
        (sample.t, checker.pair_report(sample.pair))
    };
    let first = samples.iter().find(|s| s.distance <= 0.0).copied();
    let closest = samples
        .iter()
        .copied()
        .min_by(|a, b| a.distance.total_cmp(&b.distance));
    let first_collision = first.map(|s| report_at(checker, &s));
    let closest = closest.map(|s| report_at(checker, &s));
    SweepReport {
        evaluations: samples.len(),
        samples,
        collision_intervals: intervals,
        first_collision,
        closest,
        uncertified,
        robots: checker.robot_summaries(),
    }
}

/// Bisects every evaluated transition from contact to clearance down to `min_interval`, so
/// that contact intervals end where contact ends (onsets are located by the certification).
fn locate_contact_exits(
    checker: &mut CellChecker<'_>,
    trajectory: &Trajectory,
    samples: &mut Vec<Sample>,
    min_interval: Real,
) {
    let mut added = Vec::new();
    for w in samples.windows(2) {
        let (mut inside, mut outside) = (w[0], w[1]);
        if !(inside.distance <= 0.0 && outside.distance > 0.0) {
            continue;
        }
        for _ in 0..MAX_EXIT_STEPS {
            let t = 0.5 * (inside.t + outside.t);
            // Stop at `min_interval` or at the float spacing of the times.
            if outside.t - inside.t <= min_interval || t <= inside.t || t >= outside.t {
                break;
            }
            checker.pose(&config_at(trajectory, t));
            let Some(c) = checker.closest() else { break };
            let mid = Sample {
                t,
                distance: c.distance,
                pair: c.pair,
                given: false,
            };
            if mid.distance <= 0.0 {
                inside = mid;
            } else {
                outside = mid;
            }
        }
        added.push(inside);
        added.push(outside);
    }
    samples.extend(added.into_iter().filter(|s| !s.given));
    samples.sort_by(|a, b| a.t.total_cmp(&b.t));
    samples.dedup_by(|a, b| a.t == b.t);
}

/// The configuration at time `t` by linear interpolation between samples.
pub fn config_at(trajectory: &Trajectory, t: Real) -> Vec<Real> {
    let times = &trajectory.times;
    let k = times
        .partition_point(|&x| x <= t)
        .saturating_sub(1)
        .min(times.len() - 1);
    if k + 1 >= times.len() {
        return trajectory.configs[k].clone();
    }
    let s = ((t - times[k]) / (times[k + 1] - times[k])).clamp(0.0, 1.0);
    let mut q = Vec::new();
    interpolate(
        &trajectory.configs[k],
        &trajectory.configs[k + 1],
        s,
        &mut q,
    );
    q
}
