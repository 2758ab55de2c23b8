//! `plan --problems`' second phase: every returned path certified, and VAMP's paths re-checked,
//! after every search has run. The searches run one after another on one thread and are timed
//! alone; the certification (the guaranteed sweep of each path, ~90 % of a run's work, and a
//! fresh motion check of each edge) runs problem by problem on every core the process may use
//! (rayon; under `taskset -c 1` that is one). Each problem's checks use its own checkers, so
//! the records are the same whatever the number of threads.

use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::Result;
use rayon::prelude::*;
use robocollide::collision::{CellChecker, MotionCheck, PairReport, SweepMode, Trajectory, sweep};
use robocollide::robot::Cell;
use serde::Serialize;

use super::{Problem, Record, VampTrial, scene};

/// Where a path first touches something, by the guaranteed sweep.
#[derive(Serialize)]
pub(super) struct PathContact {
    /// Index of the path segment (between waypoints `segment` and `segment + 1`).
    pub(super) segment: usize,
    /// Fraction along that segment.
    pub(super) at: f64,
    /// The pair in contact.
    pub(super) pair: PairReport,
    /// Whether both ends of the segment are collision-free (the contact is only between
    /// samples).
    pub(super) between_samples: bool,
    /// The deepest penetration among the sweep's evaluated configurations (m, negative), with
    /// its segment and fraction.
    pub(super) deepest: Option<(f64, usize, f64)>,
}

/// What the guaranteed sweep says about one path.
#[derive(Serialize)]
pub(super) struct PathCheck {
    /// Proved free (no contact, no uncertified stretch).
    pub(super) certified: bool,
    /// The first contact, if any.
    pub(super) contact: Option<PathContact>,
    /// Stretches left uncertified at the sweep's resolution (segment, fraction from, to).
    pub(super) uncertified: usize,
}

#[derive(Serialize)]
pub(super) struct VampRecord {
    pub(super) solved: bool,
    pub(super) planning_ns: u64,
    pub(super) raw: Option<PathCheck>,
    pub(super) simplified: Option<PathCheck>,
}

/// What [`certify_paths`] checks for one record: in its problem's scene, where that was built,
/// the record's returned path and VAMP's paths for the problem.
pub(super) struct PathChecks<'p> {
    pub(super) problem: &'p Problem,
    pub(super) scene_built: bool,
    pub(super) vamp: Option<&'p VampTrial>,
}

/// Fills in each record's certification: its returned path swept and each edge certified
/// again (`sweep`, `certified`), and VAMP's paths re-checked (`vamp`), in the problem's scene
/// (built again from `full` and the problem's obstacles, not kept from the search: 700 scenes
/// held at once took ~50 MB). A failing check becomes the record's error (the first one
/// kept). `progress` prints a counter on standard error.
pub(super) fn certify_paths(
    records: &mut [Record],
    full: &Cell,
    checks: &[PathChecks<'_>],
    progress: bool,
) {
    let done = AtomicUsize::new(0);
    let total = records.len();
    records
        .par_iter_mut()
        .zip(checks.par_iter())
        .for_each(|(record, check)| {
            if check.scene_built
                && let Err(e) =
                    scene(full, check.problem).and_then(|cell| certify(record, &cell, check.vamp))
            {
                record.error.get_or_insert(format!("{e:#}"));
            }
            let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
            if progress {
                eprint!("\r[certifying {finished}/{total}]   ");
                std::io::stderr().flush().ok();
            }
        });
    if progress {
        eprintln!();
    }
}

/// One record's checks (see [`certify_paths`]).
fn certify(record: &mut Record, cell: &Cell, trial: Option<&VampTrial>) -> Result<()> {
    if record.solved {
        let check = check_path(cell, &record.path)?;
        let mut checker = CellChecker::new(cell, true);
        let mut motion = MotionCheck::new(&checker);
        let edges_free = record
            .path
            .windows(2)
            .all(|w| motion.free(&mut checker, &w[0], &w[1], 1e-6));
        record.certified = edges_free && check.contact.is_none();
        record.sweep = Some(check);
    }
    if let Some(v) = trial {
        let check = |path: &[Vec<f64>]| -> Result<Option<PathCheck>> {
            if path.len() < 2 {
                return Ok(None);
            }
            check_path(cell, path).map(Some)
        };
        record.vamp = Some(VampRecord {
            solved: v.solved,
            planning_ns: v.planning_ns,
            raw: check(&v.path)?,
            simplified: check(&v.simplified_path)?,
        });
    }
    Ok(())
}

/// Sweeps `path` (waypoints, radians) with the guaranteed sweep; time = waypoint index, so a
/// contact's time names its segment directly.
fn check_path(cell: &Cell, path: &[Vec<f64>]) -> Result<PathCheck> {
    let times: Vec<f64> = (0..path.len()).map(|i| i as f64).collect();
    let trajectory = Trajectory::new(vec![], times, path.to_vec())?;
    let mut checker = CellChecker::new(cell, true);
    let report = sweep(
        &mut checker,
        &trajectory,
        SweepMode::Guaranteed { min_interval: 1e-9 },
        |_, _| {},
    )?;
    let certified = report.certified_free();
    let uncertified = report.uncertified.len();
    let deepest = report
        .closest
        .as_ref()
        .filter(|(_, p)| p.distance <= 0.0)
        .map(|(t, p)| {
            let segment = (t.floor() as usize).min(path.len().saturating_sub(2));
            (p.distance, segment, t - segment as f64)
        });
    let contact = report.first_collision.map(|(t, pair)| {
        let segment = (t.floor() as usize).min(path.len().saturating_sub(2));
        let mut clear = |q: &Vec<f64>| {
            checker.pose(q);
            checker.closest().is_none_or(|c| c.distance > 0.0)
        };
        let between_samples = clear(&path[segment]) && clear(&path[segment + 1]);
        PathContact {
            segment,
            at: t - segment as f64,
            pair,
            between_samples,
            deepest,
        }
    });
    Ok(PathCheck {
        certified,
        contact,
        uncertified,
    })
}
