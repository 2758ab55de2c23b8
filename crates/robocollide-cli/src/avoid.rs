//! `robocollide avoid`: two robots driven into each other, with and without the
//! collision-avoidance velocity filter (seed 002); distance and speed over time.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::Args;
use robocollide::control::{FilterSettings, SimulationStep, simulate};
use robocollide::robot::Cell;

use crate::check::configuration;
use crate::distance::fmt_num;
use crate::output::option_in_range;

/// Arguments of `robocollide avoid`.
#[derive(Debug, Args)]
#[command(
    after_long_help = "Without CELL, runs the shipped UR5 + IRB 120 cell: the UR5 turns from 90° towards the
IRB 120 and reaches into it, the IRB 120 leans forward; goals interpenetrate.

With CELL, give --goal once per robot with joints (cell units); --start defaults to `home`.
A robot listed in --hold stays still (the other one avoids it).

The filter solves, every period, min ½‖q̇ − q̇_des‖² s.t. for each pair closer than the
influence distance d_i the closing speed nᵀ(J_a − J_b) q̇ ≤ ξ (d − d_s)/(d_i − d_s), with joint
speed and position limits (clarabel). Writes avoid.csv, avoid.json, avoid.png and avoid.svg.

Exit status: 0 when the filtered run keeps d ≥ d_s − 2 mm, 1 otherwise, 2 on bad input."
)]
pub struct AvoidArgs {
    /// Cell file (default: the shipped UR5 + IRB 120 cell and scenario).
    cell: Option<PathBuf>,
    /// Start configuration of the next robot with joints (cell units).
    #[arg(long, value_name = "VALUES", allow_hyphen_values = true)]
    start: Vec<String>,
    /// Goal configuration of the next robot with joints (cell units).
    #[arg(long, value_name = "VALUES", allow_hyphen_values = true)]
    goal: Vec<String>,
    /// Labels of robots held still.
    #[arg(long, value_name = "LABEL")]
    hold: Vec<String>,
    /// Protect only these links (seed 002's protected chains): `LABEL:LINK[,LINK…]`, repeatable;
    /// only pairs involving a protected link are constrained. Default: every pair.
    #[arg(long, value_name = "LABEL:LINKS")]
    protect: Vec<String>,
    /// Simulated time (s).
    #[arg(long, default_value_t = 4.0)]
    duration: f64,
    /// Control period Δt (s).
    #[arg(long, default_value_t = 0.01)]
    dt: f64,
    /// Influence distance d_i (m).
    #[arg(long, default_value_t = 0.15)]
    influence: f64,
    /// Safety distance d_s (m).
    #[arg(long, default_value_t = 0.03)]
    safety: f64,
    /// Approach speed ξ allowed at d_i (m/s).
    #[arg(long, default_value_t = 0.5)]
    xi: f64,
    /// Joint speed limit (rad/s).
    #[arg(long, default_value_t = 1.5)]
    vmax: f64,
    /// Proportional gain of the goal-seeking command (1/s).
    #[arg(long, default_value_t = 2.0)]
    gain: f64,
    /// Include self-collision pairs.
    #[arg(long)]
    self_collision: bool,
    /// Output folder.
    #[arg(long, default_value = "robocollide-avoid")]
    out: PathBuf,
}

fn summary(label: &str, run: &[SimulationStep], safety: f64) -> String {
    let (t, d) = run
        .iter()
        .map(|s| (s.t, s.distance))
        .fold((0.0, f64::INFINITY), |b, x| if x.1 < b.1 { x } else { b });
    let active = run.iter().filter(|s| s.active > 0).count();
    let verdict = if d <= 0.0 {
        "COLLISION"
    } else if d < safety - 0.002 {
        "below the safety distance"
    } else {
        "kept apart"
    };
    format!(
        "  {label:<16} closest {} m at t = {} s ({verdict}); constraints active in {active} of {} periods; goal distance {} → {} rad\n",
        fmt_num((d * 1e4).round() / 1e4),
        fmt_num(t),
        run.len(),
        fmt_num((run[0].remaining * 1e3).round() / 1e3),
        fmt_num((run.last().map_or(0.0, |s| s.remaining) * 1e3).round() / 1e3)
    )
}

/// Most control periods one run simulates (each is stored for the report and plots).
const MAX_PERIODS: f64 = 1e6;

/// Runs the subcommand.
pub fn run(args: &AvoidArgs) -> Result<ExitCode> {
    let (cell, start, goal) = match &args.cell {
        None if !(args.start.is_empty() && args.goal.is_empty()) => {
            bail!(
                "--start and --goal need a CELL file (without one, the shipped scenario runs with its own start and goal)"
            );
        }
        None => {
            let cell = crate::demo::embedded_cell()?;
            let deg = |v: &[f64]| v.iter().map(|d| d.to_radians()).collect::<Vec<_>>();
            let start = deg(&[
                90.0, -90.0, 0.0, -90.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
            ]);
            let goal = deg(&[
                180.0, -60.0, 60.0, -90.0, 0.0, 0.0, 0.0, 30.0, 0.0, 0.0, 0.0, 0.0,
            ]);
            (cell, start, goal)
        }
        Some(path) => {
            let cell = Cell::load(path)?;
            if args.goal.is_empty() {
                bail!(
                    "give --goal for each robot with joints (or run without CELL for the shipped scenario)"
                );
            }
            let start = configuration(&cell, &args.start)?;
            let goal = configuration(&cell, &args.goal)?;
            (cell, start, goal)
        }
    };
    // Robots with joints: the others (the world's obstacles) never move anyway.
    let movable = || cell.robots.iter().filter(|r| r.model.dof() > 0);
    for label in &args.hold {
        if !movable().any(|r| &r.label == label) {
            bail!(
                "--hold {label}: no robot with joints has that label (robots: {})",
                movable()
                    .map(|r| r.label.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
    let moving: Vec<bool> = cell
        .robots
        .iter()
        .map(|r| !args.hold.contains(&r.label))
        .collect();
    option_in_range("--duration", args.duration, 1e-6, 3600.0, "s")?;
    option_in_range("--dt", args.dt, 1e-6, 1.0, "s")?;
    option_in_range("--gain", args.gain, 0.0, 1e6, "1/s")?;
    if args.duration / args.dt > MAX_PERIODS {
        bail!(
            "--duration {} s at --dt {} s is {} control periods; at most {MAX_PERIODS} are simulated (raise --dt or shorten --duration)",
            fmt_num(args.duration),
            fmt_num(args.dt),
            fmt_num((args.duration / args.dt).ceil())
        );
    }
    let settings = FilterSettings {
        influence: args.influence,
        safety: args.safety,
        max_approach: args.xi,
        dt: args.dt,
        max_joint_speed: args.vmax,
    };
    let mut protect = Vec::new();
    for spec in &args.protect {
        let Some((label, links)) = spec.split_once(':') else {
            bail!("--protect {spec}: expected LABEL:LINK[,LINK…], e.g. R1:forearm,upper_arm");
        };
        protect.push((
            label.to_owned(),
            links
                .split(',')
                .map(|l| l.trim().to_owned())
                .collect::<Vec<_>>(),
        ));
    }
    let run = |filter: bool| {
        simulate(
            &cell,
            args.self_collision,
            &moving,
            &protect,
            &start,
            &goal,
            args.gain,
            settings,
            args.duration,
            filter,
        )
    };
    let (filtered, unfiltered) = (run(true)?, run(false)?);
    println!(
        "robocollide avoid — {} ({} s, Δt = {} s, d_i = {} m, d_s = {} m, ξ = {} m/s)",
        cell.name, args.duration, args.dt, args.influence, args.safety, args.xi
    );
    print!("{}", summary("without filter", &unfiltered, args.safety));
    print!("{}", summary("with filter", &filtered, args.safety));
    crate::output::create_folder(&args.out)?;
    let mut csv = String::from(
        "t,distance_filtered,speed_filtered,active,status,distance_unfiltered,speed_unfiltered\n",
    );
    for (f, u) in filtered.iter().zip(&unfiltered) {
        csv += &format!(
            "{},{},{},{},{:?},{},{}\n",
            f.t, f.distance, f.speed, f.active, f.status, u.distance, u.speed
        );
    }
    crate::output::write_file(&args.out.join("avoid.csv"), csv)?;
    crate::output::write_file(
        &args.out.join("avoid.json"),
        serde_json::to_string_pretty(
            &serde_json::json!({"cell": cell.name, "settings": settings, "filtered": filtered, "unfiltered": unfiltered}),
        )?,
    )?;
    robocollide_plot::avoid_plot(
        &args.out,
        &format!("{} — velocity filter", cell.name),
        &filtered,
        &unfiltered,
        &settings,
    )?;
    println!(
        "Wrote avoid.csv, avoid.json, avoid.png, avoid.svg to {}",
        args.out.display()
    );
    let kept = filtered.iter().all(|s| s.distance >= args.safety - 0.002);
    Ok(if kept {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
