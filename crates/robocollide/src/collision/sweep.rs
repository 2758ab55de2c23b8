//! Checks along a trajectory: distance over time, collision intervals and the first collision.
//!
//! - [`SweepMode::Sampled`] checks the given samples only: a collision that begins and ends
//!   between two samples is missed.
//! - [`SweepMode::Guaranteed`] cannot miss one. On each segment between samples (a straight line
//!   in joint space) it compares every pair's distance at the start with the two bodies' motion
//!   bounds over the segment ([`MotionBound`]); if every pair's clearance exceeds the sum, the
//!   whole segment is free. Otherwise it bisects, in time order. An interval shorter than
//!   `min_interval` that still cannot be certified is reported as contact (conservative: a
//!   false positive near contact, never a false negative).

use super::checker::CellChecker;
use super::motion_bound::MotionBound;
use super::report::PairReport;
use super::trajectory::Trajectory;
use crate::error::Result;
use crate::math::Real;

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
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
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
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
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
    /// Intervals of length `min_interval` that could not be certified free and were reported as
    /// contact: contact onsets (each located to within a few `min_interval`) or grazing.
    pub unresolved: usize,
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
    unresolved: usize,
    body_bounds: Vec<Vec<Real>>,
}

impl Segment<'_, '_> {
    /// Poses at `q` and returns the closest pair as a sample (not stored), plus every pair's
    /// distance when the segment will be certified (guaranteed mode).
    fn evaluate(&mut self, q: &[Real], t: Real, given: bool) -> (Vec<Real>, Sample) {
        self.checker.pose(q);
        let mut distances = Vec::new();
        if self.min_interval.is_finite() {
            self.checker.pair_distances(&mut distances);
            let (pair, distance) = smallest(&distances);
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
        });
        if free {
            return;
        }
        let mid = 0.5 * (s0 + s1);
        let t_mid = ta + (tb - ta) * mid;
        if (s1 - s0) * (tb - ta) <= self.min_interval {
            // Cannot certify this tiny interval: conservatively report contact in it.
            self.unresolved += 1;
            let closest = smallest(at_s0);
            self.samples.push(Sample {
                t: t_mid,
                distance: 0.0,
                pair: closest.0,
                given: false,
            });
            return;
        }
        let mut q = Vec::new();
        interpolate(qa, qb, mid, &mut q);
        let (at_mid, sample) = self.evaluate(&q, t_mid, false);
        self.certify(qa, qb, ta, tb, s0, mid, at_s0);
        self.samples.push(sample);
        self.certify(qa, qb, ta, tb, mid, s1, &at_mid);
    }
}

/// Evaluates rows `rows` of `trajectory` and, in guaranteed mode, certifies each segment from a
/// row to the next. Returns the evaluated points (time order) and the unresolved count.
fn sweep_rows(
    checker: &mut CellChecker<'_>,
    trajectory: &Trajectory,
    mode: SweepMode,
    bound: &MotionBound,
    rows: std::ops::Range<usize>,
    progress: &mut dyn FnMut(usize),
) -> (Vec<Sample>, usize) {
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
        unresolved: 0,
        body_bounds: vec![Vec::new(); robots],
    };
    let n = trajectory.len();
    for k in rows {
        let (at_k, sample) = segment.evaluate(&trajectory.configs[k], trajectory.times[k], true);
        segment.samples.push(sample);
        if k + 1 < n && matches!(mode, SweepMode::Guaranteed { .. }) {
            let (qa, qb) = (&trajectory.configs[k], &trajectory.configs[k + 1]);
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
    (segment.samples, segment.unresolved)
}

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
    let (samples, unresolved) = sweep_rows(checker, trajectory, mode, &bound, 0..n, &mut |k| {
        done += k;
        progress(done, n);
    });
    Ok(finish(checker, trajectory, mode, samples, unresolved))
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
    let parts: Vec<(Vec<Sample>, usize)> = (0..n.div_ceil(chunk))
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
    let unresolved = parts.iter().map(|p| p.1).sum();
    let samples = parts.into_iter().flat_map(|p| p.0).collect();
    Ok(finish(&mut checker, trajectory, mode, samples, unresolved))
}

/// Contact intervals, exits, first contact and closest point from the evaluated points.
fn finish(
    checker: &mut CellChecker<'_>,
    trajectory: &Trajectory,
    mode: SweepMode,
    mut samples: Vec<Sample>,
    unresolved: usize,
) -> SweepReport {
    if let SweepMode::Guaranteed { min_interval } = mode {
        locate_contact_exits(checker, trajectory, &mut samples, min_interval);
    }
    let mut intervals: Vec<(Real, Real)> = Vec::new();
    let mut open: Option<Real> = None;
    for (i, s) in samples.iter().enumerate() {
        match (s.distance <= 0.0, open) {
            (true, None) => open = Some(s.t),
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
        let mut report = checker.pair_report(sample.pair);
        // An unresolved interval is reported as contact even if its midpoint is not.
        report.distance = report.distance.min(sample.distance);
        (sample.t, report)
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
        unresolved,
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
        while outside.t - inside.t > min_interval {
            let t = 0.5 * (inside.t + outside.t);
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
