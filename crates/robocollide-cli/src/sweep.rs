//! `robocollide sweep`: a trajectory through a cell — distance over time, contacts, plots.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use robocollide::collision::{CellChecker, SweepMode, SweepReport, Trajectory, sweep};

use crate::check::pair_line;
use crate::distance::fmt_num;
use robocollide_plot::{DistancePlot, distance_plot};

/// Arguments of `robocollide sweep`.
#[derive(Debug, Args)]
#[command(
    after_long_help = "Trajectory CSV: a header row, then `t, <robot 1 joints>, <robot 2 joints>, ...`
per row (time in s, strictly increasing; angles in the cell's angle unit). The motion between
rows is a straight line in joint space.

By default the sweep is guaranteed: every segment between rows is certified free with motion
bounds, or bisected until a contact is found — a collision between samples cannot be missed.
--sampled checks the rows only.

An uncertified stretch (neither proved free nor seen in contact at --min-interval, the
float resolution of the times, or the evaluation budget of 4096 per row pair) is reported as
such, never as a contact and never as free.

Exit status: 0 certified free, 1 contact, 2 bad input, 3 no contact found but some stretch
could not be certified.

Example:
  robocollide sweep data/cells/ur5_irb120.toml data/cells/ur5_irb120_collide.csv --out sweep-out"
)]
pub struct SweepArgs {
    /// Cell file (TOML), or a URDF robot (a one-robot cell `R1`, radians and metres).
    cell: PathBuf,
    #[command(flatten)]
    model: crate::model_input::ModelOptions,
    /// Trajectory CSV (default: the cell's `trajectory`).
    trajectory: Option<PathBuf>,
    /// Check the given samples only (may miss collisions between them).
    #[arg(long)]
    sampled: bool,
    /// Shortest interval the guaranteed sweep bisects to (s).
    #[arg(long, default_value_t = 1e-6)]
    min_interval: f64,
    /// Skip self-collision pairs.
    #[arg(long)]
    no_self: bool,
    /// Write distance.csv, sweep.json, distance.png and distance.svg into this folder.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Print the JSON report instead of the summary.
    #[arg(long)]
    json: bool,
    /// Write the interactive 3-D viewer (one self-contained HTML file): the trajectory with a
    /// time slider, the distance plot and the closest pair at each moment.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Write a rendered 3-D picture (PNG) of the first contact (or, without contact, the
    /// closest approach), the pair highlighted.
    #[arg(long, value_name = "FILE")]
    picture: Option<PathBuf>,
}

/// The trajectory file used: the one given, else the cell's.
fn path_of(given: &Option<PathBuf>, cell: &robocollide::robot::Cell) -> PathBuf {
    given
        .clone()
        .or_else(|| cell.trajectory.clone())
        .unwrap_or_default()
}

/// A path's file name for titles.
fn path_name(path: &std::path::Path) -> String {
    path.file_name()
        .and_then(|f| f.to_str())
        .unwrap_or("trajectory")
        .to_owned()
}

/// Rows above which a sweep runs on all cores.
const PARALLEL_ROWS: usize = 10_000;

/// Runs a sweep (on all cores for long trajectories) with a progress line on a terminal.
pub fn run_sweep(
    checker: &mut CellChecker<'_>,
    trajectory: &Trajectory,
    mode: SweepMode,
    include_self: bool,
) -> Result<SweepReport> {
    let tty = std::io::stderr().is_terminal();
    let last = std::sync::atomic::AtomicUsize::new(usize::MAX);
    let show = |done: usize, total: usize| {
        let percent = done * 100 / total.max(1);
        if tty
            && total > 1000
            && last.swap(percent, std::sync::atomic::Ordering::Relaxed) != percent
        {
            eprint!("\rsweeping: {percent:3}% ({done}/{total} rows)");
        }
    };
    let report = if trajectory.len() >= PARALLEL_ROWS {
        robocollide::collision::sweep_parallel(
            checker.cell(),
            include_self,
            trajectory,
            mode,
            &show,
        )?
    } else {
        sweep(checker, trajectory, mode, show)?
    };
    if tty && trajectory.len() > 1000 {
        eprintln!();
    }
    Ok(report)
}

/// The readable summary.
pub fn summary(report: &SweepReport, samples: usize, mode: SweepMode) -> String {
    let mut out = format!(
        "{}\n",
        robocollide::collision::RobotSummary::models_line(&report.robots)
    );
    out += &match mode {
        SweepMode::Sampled => format!("sampled sweep: {samples} samples checked\n"),
        SweepMode::Guaranteed { min_interval } => format!(
            "guaranteed sweep: {samples} samples, {} configurations evaluated; every segment certified free or bisected to {} s\n",
            report.evaluations,
            fmt_num(min_interval),
        ),
    };
    for (t0, t1) in &report.uncertified {
        out += &format!(
            "COULD NOT CERTIFY t = {} .. {} s at this resolution: neither proved free nor seen in contact (try a smaller --min-interval, or rows further apart)\n",
            fmt_num(*t0),
            fmt_num(*t1)
        );
    }
    match &report.first_collision {
        Some((t, p)) => {
            let pair = format!(
                "{} ({}) with {} ({}), {}",
                p.a.label, p.a.link, p.b.label, p.b.link, p.pair_type
            );
            out += &format!("FIRST CONTACT at t = {} s: {pair}\n", fmt_num(*t));
            for (a, b) in &report.collision_intervals {
                out += &format!(
                    "  in contact from t = {} s to {} s\n",
                    fmt_num(*a),
                    fmt_num(*b)
                );
            }
        }
        None if report.uncertified.is_empty() => out += "no contact along the trajectory\n",
        None => out += "no contact found, but the trajectory is NOT certified free (see above)\n",
    }
    if let Some((t, p)) = &report.closest {
        out += &format!(
            "smallest distance among evaluated configurations, at t = {} s:\n{}\n",
            fmt_num(*t),
            pair_line(p)
        );
    }
    out
}

/// Writes distance.csv, sweep.json and the plots into `folder`.
pub fn write_outputs(
    folder: &Path,
    checker: &mut CellChecker<'_>,
    trajectory: &Trajectory,
    report: &SweepReport,
    title: &str,
    threshold: f64,
    comparison: Option<(&SweepReport, &str)>,
) -> Result<()> {
    crate::output::create_folder(folder)?;
    let mut csv = String::from("t,distance,a,b,given\n");
    for s in &report.samples {
        let p = checker.pairs()[s.pair];
        let a = checker.element(p.robot_a, p.body_a).label;
        let b = checker.element(p.robot_b, p.body_b).label;
        csv += &format!("{},{},{a},{b},{}\n", s.t, s.distance, s.given);
    }
    crate::output::write_file(&folder.join("distance.csv"), csv)?;
    crate::output::write_file(
        &folder.join("sweep.json"),
        serde_json::to_string_pretty(report)?,
    )?;
    let curve = robocollide_plot::display_curve(checker, trajectory);
    distance_plot(
        folder,
        "distance",
        &DistancePlot {
            title,
            curve: &curve,
            samples: &report.samples,
            threshold,
            intervals: &report.collision_intervals,
            first_collision: report.first_collision.as_ref().map(|(t, _)| *t),
            comparison: comparison.map(|(r, label)| (&r.samples[..], label)),
        },
    )
}

/// Runs the subcommand.
pub fn run(args: &SweepArgs) -> Result<ExitCode> {
    let cell = crate::model_input::load_cell(&args.cell, &args.model)?;
    let path = args
        .trajectory
        .clone()
        .or_else(|| cell.trajectory.clone())
        .context("no trajectory given and the cell names none")?;
    let trajectory = Trajectory::load(&path, &cell)?;
    let mut checker = CellChecker::new(&cell, !args.no_self);
    let warnings: usize = trajectory
        .configs
        .iter()
        .map(|q| checker.limit_violations(q).len())
        .sum();
    if warnings > 0 {
        eprintln!(
            "robocollide: warning: {warnings} joint value(s) outside their limits (first: {})",
            trajectory
                .configs
                .iter()
                .flat_map(|q| checker.limit_violations(q))
                .next()
                .unwrap_or_default()
        );
    }
    if !(args.min_interval > 0.0 && args.min_interval.is_finite()) {
        anyhow::bail!(
            "--min-interval must be a positive number of seconds, got {}",
            args.min_interval
        );
    }
    let mode = if args.sampled {
        SweepMode::Sampled
    } else {
        SweepMode::Guaranteed {
            min_interval: args.min_interval,
        }
    };
    let report = run_sweep(&mut checker, &trajectory, mode, !args.no_self)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", summary(&report, trajectory.len(), mode));
    }
    if let Some(folder) = &args.out {
        write_outputs(
            folder,
            &mut checker,
            &trajectory,
            &report,
            &format!(
                "{} — {}",
                cell.name,
                path.file_name()
                    .and_then(|f| f.to_str())
                    .unwrap_or("trajectory")
            ),
            cell.threshold,
            None,
        )?;
        if !args.json {
            println!(
                "wrote distance.csv, sweep.json, distance.png, distance.svg to {}",
                folder.display()
            );
        }
    }
    let moment = report.first_collision.as_ref().or(report.closest.as_ref());
    if let Some(path) = &args.html {
        crate::viewer::write_viewer(
            path,
            &cell,
            !args.no_self,
            &crate::viewer::trajectory_moments(
                &trajectory,
                &moment.map(|m| m.0).into_iter().collect::<Vec<_>>(),
            ),
            &report.collision_intervals,
            (
                &cell.name,
                &format!(
                    "trajectory {}",
                    path_name(&path_of(&args.trajectory, &cell))
                ),
            ),
            moment.map(|m| m.0),
        )?;
    }
    if let (Some(path), Some((t, pair))) = (&args.picture, moment) {
        let q = robocollide::collision::config_at(&trajectory, *t);
        let what = if report.first_collision.is_some() {
            "first contact"
        } else {
            "closest approach"
        };
        let title = format!(
            "{}: {what} at t = {:.4} s, {} – {} at {} m",
            cell.name,
            t,
            pair.a.label,
            pair.b.label,
            fmt_num(pair.distance)
        );
        crate::demo::cell_picture(path, &title, &cell, &checker, &q, Some(pair))?;
        eprintln!("robocollide: wrote {}", path.display());
    }
    Ok(if report.first_collision.is_some() {
        ExitCode::from(1)
    } else if !report.uncertified.is_empty() {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    })
}
