//! `robocollide plan`: RRT-Connect for one robot of a cell while the others stand still; the
//! path is re-verified with the guaranteed sweep and written as a trajectory CSV.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Result, bail};
use clap::Args;
use robocollide::collision::{CellChecker, SweepMode, Trajectory};
use robocollide::planning::{
    DynamicDomain, MAX_POINT_SHORTCUTS, PlannerSettings, Sampler, rrt_connect,
};
use robocollide::robot::Cell;
use robocollide::validity::CellValidity;

use crate::check::configuration;
use crate::distance::fmt_num;
use crate::output::option_in_range;
use crate::sweep::{run_sweep, write_outputs};

/// Arguments of `robocollide plan`.
#[derive(Debug, Args)]
#[command(
    after_long_help = "Without CELL, plans in the shipped UR5 + IRB 120 cell: the UR5 swings from 90° to 270°
around the IRB 120, which leans into the direct route.

With CELL, name the moving robot (--robot) and give its --start and --goal (cell units); the
other robots stand at their `home`. Every edge of the tree is certified by the guaranteed sweep
(so is the final path, re-checked as a whole). Writes path.csv (a trajectory for `sweep`,
time = joint-space distance at 1 rad/s), plan.json, distance.csv, distance.png and .svg.

Exit status: 0 planned and verified, 1 no path (the reason is printed), 2 bad input."
)]
pub struct PlanArgs {
    /// Cell file, or a URDF robot (a one-robot cell `R1`); default: the shipped cell and
    /// scenario.
    cell: Option<PathBuf>,
    #[command(flatten)]
    model: crate::model_input::ModelOptions,
    /// Label of the moving robot.
    #[arg(long)]
    robot: Option<String>,
    /// Start configuration of the moving robot (cell units).
    #[arg(long, allow_hyphen_values = true)]
    start: Option<String>,
    /// Goal configuration of the moving robot (cell units).
    #[arg(long, allow_hyphen_values = true)]
    goal: Option<String>,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Time limit (s), at most one day.
    #[arg(long, default_value_t = 30.0)]
    time_limit: f64,
    /// Largest tree edge (rad), in (0, 2π]. Default 1, VAMP's range (with --problems too,
    /// where with dynamic domains it measured fastest on MotionBenchMaker).
    #[arg(long)]
    max_step: Option<f64>,
    /// RRT-Connect's iteration limit, 1 to 10 000 000 (the time limit still applies). Default
    /// 20 000; with --problems 1 000 000, VAMP's setting for MotionBenchMaker.
    #[arg(long)]
    max_iterations: Option<usize>,
    /// Dynamic-domain sampling (Yershova et al. 2005, as VAMP's RRT-Connect): `RADIUS,MIN`
    /// in rad, a node's radius after its first failed extension and the least it shrinks
    /// to; samples farther from their nearest node than its radius are dropped unchecked.
    /// Default `off` for a cell (every sample grown towards); with --problems VAMP's `4,1`,
    /// which with 1 rad steps took 15–30 % off MotionBenchMaker's search times.
    #[arg(long, value_name = "RADIUS,MIN|off")]
    dynamic_domain: Option<String>,
    /// Shortcuts between points inside the path's segments, tried after the waypoint
    /// shortcuts (0 to 100 000; default 0). They cut the corners that waypoint shortcuts
    /// leave; each success costs three certified motions (MotionBenchMaker: 30 made the
    /// median path 8 % shorter for 3.8× the shortcutting time).
    #[arg(long, default_value_t = 0)]
    point_shortcuts: usize,
    /// Let the trees alternate instead of growing the smaller one (balanced trees, as VAMP's
    /// RRT-Connect, are the default: on MotionBenchMaker they halved the mean planning time).
    #[arg(long)]
    no_balance: bool,
    /// Where samples come from: `uniform` (seeded by --seed; the default for a cell) or
    /// `halton` (the deterministic Halton sequence, as VAMP samples; the default with
    /// --problems). --seed drives shortcutting either way.
    #[arg(long, value_enum)]
    sampler: Option<SamplerArg>,
    /// Required clearance at evaluated configurations (m), for every checked pair (self pairs
    /// included). Default 0: paths only avoid contact and may pass closer than the cell's
    /// threshold; the output says so.
    #[arg(long)]
    clearance: Option<f64>,
    /// Output folder.
    #[arg(long, default_value = "robocollide-plan")]
    out: PathBuf,
    /// A problem set in VAMP's MotionBenchMaker layout (e.g. panda_mbm_problems.json): plan
    /// every problem with the robot given by --robot URDF (and --srdf), certify every path,
    /// report per family and overall. The planner leaves out the self pairs certified apart
    /// everywhere within the joint limits (its configurations never leave them); every
    /// returned path is certified with all pairs.
    #[arg(long, value_name = "FILE")]
    problems: Option<PathBuf>,
    /// With --problems: VAMP's recorded paths and times (vamp_rrtc_paths_panda.json), re-checked
    /// by the guaranteed sweep and compared.
    #[arg(long, value_name = "FILE", requires = "problems")]
    vamp_paths: Option<PathBuf>,
    /// With --problems: only this family.
    #[arg(long, requires = "problems")]
    family: Option<String>,
    /// With --problems: at most this many problems per family.
    #[arg(long, requires = "problems")]
    limit: Option<usize>,
    /// With --problems: only re-check VAMP's paths, plan nothing.
    #[arg(long, requires = "vamp_paths")]
    no_plan: bool,
    /// With --problems: write the per-problem report (family, index, valid, solved,
    /// planning_ns, certified, path, VAMP's paths' checks) to FILE.
    #[arg(long, value_name = "FILE", requires = "problems")]
    json: Option<PathBuf>,
    /// Write the interactive 3-D viewer (one self-contained HTML file) of the planned path.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
}

/// Runs the subcommand.
pub fn run(args: &PlanArgs) -> Result<ExitCode> {
    if let Some(problems) = &args.problems {
        let Some(robot) = &args.robot else {
            bail!("--problems needs --robot URDF (and usually --srdf)");
        };
        if args.cell.is_some() || args.start.is_some() || args.goal.is_some() {
            bail!(
                "--problems takes its starts, goals and scenes from the problem file: give no CELL, --start or --goal"
            );
        }
        let all_certified = crate::problems::run(&crate::problems::ProblemRun {
            problems,
            robot: std::path::Path::new(robot),
            srdf: args.model.srdf.as_deref(),
            vamp_paths: args.vamp_paths.as_deref(),
            family: args.family.as_deref(),
            limit: args.limit,
            time_limit: option_in_range("--time-limit", args.time_limit, 1e-3, 86_400.0, "s")?,
            max_step: option_in_range(
                "--max-step",
                args.max_step.unwrap_or(PROBLEM_SET_STEP),
                1e-9,
                std::f64::consts::TAU,
                "rad",
            )?,
            max_iterations: max_iterations(args.max_iterations, PROBLEM_SET_ITERATIONS)?,
            seed: args.seed,
            dynamic_domain: dynamic_domain(
                args.dynamic_domain.as_deref(),
                Some(DynamicDomain::VAMP),
            )?,
            balance: !args.no_balance,
            sampler: sampler(args.sampler, Sampler::Halton),
            point_shortcuts: point_shortcuts(args.point_shortcuts)?,
            json: args.json.as_deref(),
            no_plan: args.no_plan,
        })?;
        return Ok(if all_certified {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        });
    }
    let cell = match &args.cell {
        None => crate::demo::embedded_cell()?,
        Some(path) => crate::model_input::load_cell(path, &args.model)?,
    };
    let (robot, start_text, goal_text) = match (&args.cell, &args.robot, &args.start, &args.goal) {
        (None, None, None, None) => (
            "R1".to_owned(),
            "90,-60,60,-90,0,0".to_owned(),
            "270,-60,60,-90,0,0".to_owned(),
        ),
        (_, Some(r), Some(s), Some(g)) => (r.clone(), s.clone(), g.clone()),
        _ => bail!(
            "give --robot, --start and --goal (or none of them, without CELL, for the shipped scenario)"
        ),
    };
    let Some(index) = cell.robots.iter().position(|r| r.label == robot) else {
        bail!(
            "--robot {robot}: no robot with that label (robots: {})",
            cell.robots
                .iter()
                .map(|r| r.label.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
    };
    // Other robots at home, the shipped scenario's IRB 120 leaning forward.
    let mut fixed: Vec<f64> = cell.robots.iter().flat_map(|r| r.home.clone()).collect();
    if args.cell.is_none() {
        fixed[7] = 30f64.to_radians();
    }
    // The moving robot's values, parsed and scaled like `--q` for a one-robot cell.
    let alone = Cell {
        robots: vec![cell.robots[index].clone()],
        ..cell.clone()
    };
    let parse = |text: &str| configuration(&alone, &[text.to_owned()]);
    let (start, goal) = (parse(&start_text)?, parse(&goal_text)?);
    let time_limit = option_in_range("--time-limit", args.time_limit, 1e-3, 86_400.0, "s")?;
    let max_step = option_in_range(
        "--max-step",
        args.max_step.unwrap_or(PlannerSettings::default().max_step),
        1e-9,
        std::f64::consts::TAU,
        "rad",
    )?;
    let clearance = option_in_range(
        "--clearance",
        args.clearance.unwrap_or(0.0),
        0.0,
        robocollide::geom::LENGTH_LIMIT,
        "m",
    )?;
    let mut validity = CellValidity::new(&cell, index, fixed.clone(), clearance, true)?;
    let settings = PlannerSettings {
        max_step,
        max_iterations: max_iterations(
            args.max_iterations,
            PlannerSettings::default().max_iterations,
        )?,
        seed: args.seed,
        time_limit: Duration::from_secs_f64(time_limit),
        dynamic_domain: dynamic_domain(args.dynamic_domain.as_deref(), None)?,
        balance: !args.no_balance,
        sampler: sampler(args.sampler, Sampler::Uniform),
        point_shortcuts: point_shortcuts(args.point_shortcuts)?,
        ..Default::default()
    };
    println!(
        "robocollide plan — {}: {} ({}) moves, the others stand still",
        cell.name, robot, cell.robots[index].model.name
    );
    if args.clearance.is_some() {
        println!(
            "  clearance kept at every evaluated configuration: {} m; every motion certified contact-free",
            fmt_num(clearance)
        );
    } else {
        println!(
            "  clearance: none required (the cell's threshold of {} m is NOT kept; pass --clearance to require one); every motion certified contact-free",
            fmt_num(cell.threshold)
        );
    }
    let plan = match rrt_connect(&mut validity, &start, &goal, &settings) {
        Ok(plan) => plan,
        Err(e) => {
            println!("NO PATH: {e}");
            return Ok(ExitCode::from(1));
        }
    };
    println!(
        "  planned in {} ms: {} iterations, {} tree nodes, {} configurations and {} motions checked",
        fmt_num((plan.seconds * 1e6).round() / 1e3),
        plan.iterations,
        plan.tree_nodes,
        validity.configurations_checked,
        validity.motions_checked
    );
    println!(
        "  path: {} waypoints, {} rad after shortcutting ({} rad before)",
        plan.path.len(),
        fmt_num((plan.length * 1e3).round() / 1e3),
        fmt_num((plan.raw_length * 1e3).round() / 1e3)
    );
    // Trajectory at 1 rad/s along the path; re-verify as a whole.
    let configs: Vec<Vec<f64>> = plan.path.iter().map(|q| validity.full(q)).collect();
    let trajectory = Trajectory::at_unit_joint_speed(configs.clone())?;
    let mut checker = CellChecker::new(&cell, true);
    let report = run_sweep(
        &mut checker,
        &trajectory,
        SweepMode::Guaranteed { min_interval: 1e-6 },
        true,
    )?;
    let verified = report.first_collision.is_none();
    println!(
        "  verification (guaranteed sweep of the whole path): {} ({} configurations evaluated)",
        match (verified, report.uncertified.len()) {
            (false, _) => "CONTACT — this is a bug, please report it".to_owned(),
            (true, 0) => "no contact".to_owned(),
            (true, n) => format!(
                "no contact; {n} grazing stretch(es) left uncertified at the sweep's resolution (the planner's two-ended motion check certified them)"
            ),
        },
        report.evaluations
    );
    crate::output::create_folder(&args.out)?;
    // path.csv in the cell's units: a trajectory `robocollide sweep` accepts.
    let scales = cell.joint_scales();
    let mut header = vec!["t".to_owned()];
    for r in &cell.robots {
        header.extend((1..=r.model.dof()).map(|j| format!("{}_{j}", r.label)));
    }
    let mut csv = header.join(",") + "\n";
    for (t, q) in trajectory.times.iter().zip(&configs) {
        let row: Vec<String> = std::iter::once(t.to_string())
            .chain(q.iter().zip(&scales).map(|(v, s)| (v / s).to_string()))
            .collect();
        csv += &(row.join(",") + "\n");
    }
    crate::output::write_file(&args.out.join("path.csv"), csv)?;
    crate::output::write_file(
        &args.out.join("plan.json"),
        serde_json::to_string_pretty(
            &serde_json::json!({"cell": cell.name, "robot": robot, "plan": plan, "verified": verified}),
        )?,
    )?;
    write_outputs(
        &args.out,
        &mut checker,
        &trajectory,
        &report,
        &format!(
            "{} — clearance along the planned path of {robot}",
            cell.name
        ),
        cell.threshold,
        None,
    )?;
    // The path in pictures: start, two poses along it, goal.
    let panels = [0.0, 1.0 / 3.0, 2.0 / 3.0, 1.0]
        .iter()
        .map(|f| {
            let t = trajectory.times[0]
                + f * (trajectory.times[trajectory.len() - 1] - trajectory.times[0]);
            let q = robocollide::collision::config_at(&trajectory, t);
            checker.pose(&q);
            let pair = checker.closest().map(|c| checker.pair_report(c.pair));
            let name = match *f {
                0.0 => "start".to_owned(),
                1.0 => "goal".to_owned(),
                _ => format!("t = {t:.2} s"),
            };
            let title = match &pair {
                Some(p) => format!(
                    "{name}: closest {} – {} {:.3} m",
                    p.a.label, p.b.label, p.distance
                ),
                None => name,
            };
            Ok((
                title,
                crate::demo::cell_scene(&cell, &checker, &q, pair.as_ref())?,
            ))
        })
        .collect::<Result<Vec<_>>>()?;
    robocollide_plot::panels_3d(&args.out.join("path.png"), &panels, (560, 620))?;
    if let Some(path) = &args.html {
        crate::viewer::write_viewer(
            path,
            &cell,
            true,
            &crate::viewer::trajectory_moments(&trajectory, &[]),
            &[],
            (
                &format!("{} — planned path of {robot}", cell.name),
                "RRT-Connect, every motion certified; at 1 rad/s",
            ),
            None,
        )?;
    }
    println!(
        "Wrote path.csv, plan.json, distance.csv, distance.png, distance.svg, path.png to {}",
        args.out.display()
    );
    Ok(if verified {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The iteration limit of a problem set: VAMP's RRT-Connect setting for MotionBenchMaker
/// (`vamp_rrtc_baseline_panda.json`, `settings.max_iterations`), so that a hard problem is not
/// given up sooner than VAMP gives it up; the time limit still bounds each problem.
const PROBLEM_SET_ITERATIONS: usize = 1_000_000;

/// `--max-step`'s default with `--problems` (rad): VAMP's range. With alternating trees,
/// longer steps ended more extensions against obstacles far along them (session 24: 0.3 rad
/// measured best); balanced trees and Halton samples moved that to 0.5 rad, and since the
/// lane screen (session 36) a longer motion's certificate costs less, so with dynamic
/// domains ([`DynamicDomain::VAMP`], `--dynamic-domain`'s default here) 1 rad took 15–30 %
/// off the median search time of all 700 problems and 20–30 % off the mean, against 0.5 rad
/// without them (`benches/README.md`, session 39).
const PROBLEM_SET_STEP: f64 = 1.0;

/// Most iterations `--max-iterations` accepts (a search's trees grow with its iterations; the
/// time limit usually ends a long search first).
const MAX_ITERATIONS: usize = 10_000_000;

/// `--max-iterations`, or `default` without it; an error names a value out of range.
fn max_iterations(given: Option<usize>, default: usize) -> Result<usize> {
    match given {
        None => Ok(default),
        Some(n) if (1..=MAX_ITERATIONS).contains(&n) => Ok(n),
        Some(n) => bail!("--max-iterations must be between 1 and {MAX_ITERATIONS}, got {n}"),
    }
}

/// `--point-shortcuts`, checked; an error names a value out of range.
fn point_shortcuts(n: usize) -> Result<usize> {
    if n > MAX_POINT_SHORTCUTS {
        bail!("--point-shortcuts must be between 0 and {MAX_POINT_SHORTCUTS}, got {n}");
    }
    Ok(n)
}

/// `--dynamic-domain`: `RADIUS,MIN` (rad); `off`: none; absent: `default`.
fn dynamic_domain(
    text: Option<&str>,
    default: Option<DynamicDomain>,
) -> Result<Option<DynamicDomain>> {
    let Some(text) = text else {
        return Ok(default);
    };
    if text.trim() == "off" {
        return Ok(None);
    }
    let values: Vec<&str> = text.split(',').map(str::trim).collect();
    let [radius, min_radius] = values.as_slice() else {
        bail!("--dynamic-domain takes RADIUS,MIN (rad) or off, got {text:?}");
    };
    let number = |name: &str, value: &str| -> Result<f64> {
        let x: f64 = value
            .parse()
            .map_err(|_| anyhow::anyhow!("--dynamic-domain: {name} {value:?} is not a number"))?;
        option_in_range(&format!("--dynamic-domain {name}"), x, 1e-9, 1e6, "rad")
    };
    let (radius, min_radius) = (number("RADIUS", radius)?, number("MIN", min_radius)?);
    if min_radius > radius {
        bail!("--dynamic-domain: MIN {min_radius} exceeds RADIUS {radius}");
    }
    Ok(Some(DynamicDomain {
        radius,
        min_radius,
        ..DynamicDomain::VAMP
    }))
}

/// `--sampler`'s values.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum SamplerArg {
    Uniform,
    Halton,
}

fn sampler(arg: Option<SamplerArg>, default: Sampler) -> Sampler {
    match arg {
        None => default,
        Some(SamplerArg::Uniform) => Sampler::Uniform,
        Some(SamplerArg::Halton) => Sampler::Halton,
    }
}
