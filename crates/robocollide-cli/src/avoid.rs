//! `robocollide avoid`: robots (or one robot's limbs) driven into each other, with and without
//! the collision-avoidance velocity filter (seed 002); distance and speed over time, and
//! pictures of the closest moment.
//!
//! Scenarios: without CELL, the shipped UR5 + IRB 120 cell; `--scenario nao`, seed 002's use
//! case (NAO bumps his chest with his left arm, `LArm` protected); with CELL (a cell file or a
//! URDF with `--srdf`), the given start and goal.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::{Args, ValueEnum};
use robocollide::collision::CellChecker;
use robocollide::control::{ConstraintForm, FilterSettings, Protect, SimulationStep, simulate};
use robocollide::robot::{Cell, CellOptions, CellSource};

use crate::check::configuration;
use crate::distance::fmt_num;
use crate::model_input::{ModelOptions, load_cell};
use crate::output::option_in_range;

/// Arguments of `robocollide avoid`.
#[derive(Debug, Args)]
#[command(
    after_long_help = "Without CELL, runs the shipped UR5 + IRB 120 cell: the UR5 turns from 90° towards the
IRB 120 and reaches into it, the IRB 120 leans forward; goals interpenetrate.

--scenario nao runs seed 002's use case on the shipped NAO (data/robots/nao/): from `stand`,
the left arm is commanded through the chest with LArm protected against the rest of the body.
Add --limp LArm for the seed's stiffness rule (the arm is pushed; the other joints avoid).

With CELL (a cell file, or a URDF with --srdf), give --goal once per robot with joints (cell
units, named values or an SRDF state: `stand,LShoulderPitch=0.9`); --start defaults to `home`.
A robot listed in --hold stays still (the other one avoids it).

--protect takes a group of the robot's SRDF (`LArm`, or `R1:LArm` in a cell of several
robots): only pairs with a body on the chain are constrained (never two of the same chain),
and the QP runs over the chain's joints; the robot's other joints move as commanded. Or links:
`R1:forearm,upper_arm`.

The filter solves, every period, min ½‖q̇ − q̇_des‖² s.t. for each pair closer than the
influence distance d_i the closing speed nᵀ(J_a − J_b) q̇ ≤ ξ (d − d_s)/(d_i − d_s) (--form
damped), or seed 002's Δt · nᵀ(J_a − J_b) q̇ ≤ d − d_s (--form literal; d_s = 0 is the seed's
form), with joint speed and position limits (clarabel). Writes avoid.csv, avoid.json,
avoid.png, avoid.svg, and closest_filtered.png and closest_unfiltered.png (the robots at the
closest moment of each run).

Exit status: 0 when the filtered run keeps d ≥ d_s − 2 mm, 1 otherwise, 2 on bad input."
)]
pub struct AvoidArgs {
    /// Cell file, or a URDF robot (default: the shipped UR5 + IRB 120 cell and scenario).
    cell: Option<PathBuf>,
    #[command(flatten)]
    model: ModelOptions,
    /// A shipped scenario instead of CELL.
    #[arg(long, value_enum, conflicts_with = "cell")]
    scenario: Option<Scenario>,
    /// Start configuration of the next robot with joints (cell units).
    #[arg(long, value_name = "VALUES", allow_hyphen_values = true)]
    start: Vec<String>,
    /// Goal configuration of the next robot with joints (cell units).
    #[arg(long, value_name = "VALUES", allow_hyphen_values = true)]
    goal: Vec<String>,
    /// Labels of robots held still.
    #[arg(long, value_name = "LABEL")]
    hold: Vec<String>,
    /// Protect a chain (an SRDF group, `LArm` or `R1:LArm`) or links (`R1:forearm,upper_arm`),
    /// repeatable. Default: every pair is constrained and every joint optimised.
    #[arg(long, value_name = "CHAIN|LABEL:LINKS")]
    protect: Vec<String>,
    /// Protected chains without stiffness (moved from outside): they move as commanded and the
    /// robot's stiff joints avoid instead (seed 002).
    #[arg(long, value_name = "CHAIN")]
    limp: Vec<String>,
    /// Constraint form.
    #[arg(long, value_enum, default_value_t = Form::Damped)]
    form: Form,
    /// Simulated time (s) [default: 4; nao: 3].
    #[arg(long)]
    duration: Option<f64>,
    /// Control period Δt (s).
    #[arg(long, default_value_t = 0.01)]
    dt: f64,
    /// Influence distance d_i (m) [default: 0.15; nao: 0.08].
    #[arg(long)]
    influence: Option<f64>,
    /// Safety distance d_s (m) [default: 0.03; nao: 0.01].
    #[arg(long)]
    safety: Option<f64>,
    /// Approach speed ξ allowed at d_i (m/s) [default: 0.5; nao: 0.3].
    #[arg(long)]
    xi: Option<f64>,
    /// Joint speed limit (rad/s).
    #[arg(long, default_value_t = 1.5)]
    vmax: f64,
    /// Proportional gain of the goal-seeking command (1/s).
    #[arg(long, default_value_t = 2.0)]
    gain: f64,
    /// Include self-collision pairs (always on for --scenario nao).
    #[arg(long)]
    self_collision: bool,
    /// Output folder.
    #[arg(long, default_value = "robocollide-avoid")]
    out: PathBuf,
    /// Write the interactive 3-D viewer (one self-contained HTML file) of the filtered run.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
}

/// Shipped scenarios.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Scenario {
    /// The UR5 reaches into the IRB 120 (the default without CELL).
    Ur5,
    /// Seed 002: NAO bumps his chest with his left arm.
    Nao,
}

/// `--form`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Form {
    /// ξ (d − d_s)/(d_i − d_s).
    Damped,
    /// (d − d_s)/Δt: seed 002's constraint.
    Literal,
}

const NAO_URDF: &str = include_str!("../../../data/robots/nao/nao.urdf");
const NAO_SRDF: &str = include_str!("../../../data/robots/nao/nao.srdf");

/// The shipped NAO as a one-robot cell `R1`, built from the embedded files.
pub fn nao_cell() -> Result<Cell> {
    let (urdf, srdf) = (
        PathBuf::from("data/robots/nao/nao.urdf"),
        PathBuf::from("data/robots/nao/nao.srdf"),
    );
    let source = CellSource {
        path: urdf.clone(),
        options: CellOptions {
            srdf: Some(srdf.clone()),
            ..CellOptions::default()
        },
        files: [(urdf, NAO_URDF.to_owned()), (srdf, NAO_SRDF.to_owned())].into(),
    };
    Ok(source.build()?)
}

fn summary(label: &str, run: &[SimulationStep], safety: f64) -> String {
    let closest = closest(run);
    let active = run.iter().filter(|s| s.active > 0).count();
    let verdict = if closest.distance <= 0.0 {
        "COLLISION"
    } else if closest.distance < safety - 0.002 {
        "below the safety distance"
    } else {
        "kept apart"
    };
    format!(
        "  {label:<16} closest {} m at t = {} s, {} ({verdict}); constraints active in {active} of {} periods; goal distance {} → {} rad\n",
        fmt_num((closest.distance * 1e4).round() / 1e4),
        fmt_num(closest.t),
        closest.pair,
        run.len(),
        fmt_num((run[0].remaining * 1e3).round() / 1e3),
        fmt_num((run.last().map_or(0.0, |s| s.remaining) * 1e3).round() / 1e3)
    )
}

/// The period of smallest distance.
fn closest(run: &[SimulationStep]) -> &SimulationStep {
    run.iter()
        .min_by(|a, b| a.distance.total_cmp(&b.distance))
        .expect("a simulation has at least one period")
}

/// Most control periods one run simulates (each is stored for the report and plots).
const MAX_PERIODS: f64 = 1e6;

/// What the --protect and --limp options ask for.
fn protections(cell: &Cell, protect: &[String], limp: &[String]) -> Result<Vec<Protect>> {
    let only_robot = || match cell.robots.iter().filter(|r| r.model.dof() > 0).count() {
        1 => cell
            .robots
            .iter()
            .find(|r| r.model.dof() > 0)
            .map(|r| r.label.clone()),
        _ => None,
    };
    let chain_of = |spec: &str| -> Option<(String, String)> {
        let (robot, name) = match spec.split_once(':') {
            Some((robot, name)) => (robot.to_owned(), name),
            None => (only_robot()?, spec),
        };
        let model = &cell.robots.iter().find(|r| r.label == robot)?.model;
        model.group(name).ok()?;
        Some((robot, name.to_owned()))
    };
    let mut out = Vec::new();
    for spec in protect {
        if let Some((robot, group)) = chain_of(spec) {
            out.push(Protect::Chain {
                robot,
                group,
                stiff: true,
            });
            continue;
        }
        let Some((label, links)) = spec.split_once(':') else {
            // Not a group: say which groups there are.
            let groups = only_robot()
                .and_then(|r| cell.robots.iter().find(|x| x.label == r))
                .map(|r| r.model.group(spec).map(|_| ()));
            match groups {
                Some(Err(e)) => bail!("--protect {spec}: {e}"),
                _ => bail!(
                    "--protect {spec}: expected a chain (an SRDF group: GROUP or LABEL:GROUP) or LABEL:LINK[,LINK…], e.g. R1:forearm,upper_arm"
                ),
            }
        };
        out.push(Protect::Links(
            label.to_owned(),
            links.split(',').map(|l| l.trim().to_owned()).collect(),
        ));
    }
    for spec in limp {
        let Some((robot, group)) = chain_of(spec) else {
            bail!(
                "--limp {spec}: not a group of the robot (give GROUP or LABEL:GROUP, protected with --protect)"
            );
        };
        out.push(Protect::Limp(robot, group));
    }
    Ok(out)
}

/// The scenario's cell, start and goal, and its default protections and settings.
struct Setup {
    cell: Cell,
    start: Vec<f64>,
    goal: Vec<f64>,
    protect: Vec<String>,
    include_self: bool,
    /// Duration, influence, safety, ξ.
    defaults: [f64; 4],
}

fn setup(args: &AvoidArgs) -> Result<Setup> {
    let given = !(args.start.is_empty() && args.goal.is_empty());
    const INDUSTRIAL: [f64; 4] = [4.0, 0.15, 0.03, 0.5];
    Ok(match (&args.cell, args.scenario) {
        (None, scenario) if given => bail!(
            "--start and --goal need a CELL file (the {} scenario has its own start and goal)",
            if scenario == Some(Scenario::Nao) {
                "nao"
            } else {
                "shipped"
            }
        ),
        (None, None | Some(Scenario::Ur5)) => {
            let cell = crate::demo::embedded_cell()?;
            let deg = |v: &[f64]| v.iter().map(|d| d.to_radians()).collect::<Vec<_>>();
            let start = deg(&[
                90.0, -90.0, 0.0, -90.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
            ]);
            let goal = deg(&[
                180.0, -60.0, 60.0, -90.0, 0.0, 0.0, 0.0, 30.0, 0.0, 0.0, 0.0, 0.0,
            ]);
            Setup {
                cell,
                start,
                goal,
                protect: Vec::new(),
                include_self: args.self_collision,
                defaults: INDUSTRIAL,
            }
        }
        (None, Some(Scenario::Nao)) => {
            let cell = nao_cell()?;
            let start = configuration(&cell, &["stand".to_owned()])?;
            // The left hand through the chest (the seed's use case).
            let goal = configuration(
                &cell,
                &[
                    "stand,LShoulderPitch=0.9,LShoulderRoll=-0.3,LElbowYaw=-0.3,LElbowRoll=-1.5"
                        .to_owned(),
                ],
            )?;
            let protect = if args.protect.is_empty() {
                vec!["LArm".to_owned()]
            } else {
                args.protect.clone()
            };
            Setup {
                cell,
                start,
                goal,
                protect,
                include_self: true,
                defaults: [3.0, 0.08, 0.01, 0.3],
            }
        }
        (Some(path), _) => {
            let cell = load_cell(path, &args.model)?;
            if args.goal.is_empty() {
                bail!(
                    "give --goal for each robot with joints (or run without CELL for the shipped scenario)"
                );
            }
            let start = configuration(&cell, &args.start)?;
            let goal = configuration(&cell, &args.goal)?;
            Setup {
                cell,
                start,
                goal,
                protect: args.protect.clone(),
                include_self: args.self_collision,
                defaults: INDUSTRIAL,
            }
        }
    })
}

/// Runs the subcommand.
pub fn run(args: &AvoidArgs) -> Result<ExitCode> {
    let Setup {
        cell,
        start,
        goal,
        protect,
        include_self,
        defaults,
    } = setup(args)?;
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
    let duration = args.duration.unwrap_or(defaults[0]);
    option_in_range("--duration", duration, 1e-6, 3600.0, "s")?;
    option_in_range("--dt", args.dt, 1e-6, 1.0, "s")?;
    option_in_range("--gain", args.gain, 0.0, 1e6, "1/s")?;
    if duration / args.dt > MAX_PERIODS {
        bail!(
            "--duration {} s at --dt {} s is {} control periods; at most {MAX_PERIODS} are simulated (raise --dt or shorten --duration)",
            fmt_num(duration),
            fmt_num(args.dt),
            fmt_num((duration / args.dt).ceil())
        );
    }
    let settings = FilterSettings {
        influence: args.influence.unwrap_or(defaults[1]),
        safety: args.safety.unwrap_or(defaults[2]),
        max_approach: args.xi.unwrap_or(defaults[3]),
        dt: args.dt,
        max_joint_speed: args.vmax,
        form: match args.form {
            Form::Damped => ConstraintForm::Damped,
            Form::Literal => ConstraintForm::Literal,
        },
    };
    let protect = protections(&cell, &protect, &args.limp)?;
    let run = |filter: bool| {
        simulate(
            &cell,
            include_self,
            &moving,
            &protect,
            &start,
            &goal,
            args.gain,
            settings,
            duration,
            filter,
        )
    };
    let (filtered, unfiltered) = (run(true)?, run(false)?);
    println!(
        "robocollide avoid — {} ({} s, Δt = {} s, d_i = {} m, d_s = {} m, ξ = {} m/s, {:?} constraints)",
        cell.name,
        fmt_num(duration),
        fmt_num(args.dt),
        fmt_num(settings.influence),
        fmt_num(settings.safety),
        fmt_num(settings.max_approach),
        settings.form
    );
    for p in &protect {
        match p {
            Protect::Chain { robot, group, .. } => println!("  protected chain {robot}:{group}"),
            Protect::Links(robot, links) => {
                println!("  protected links {robot}: {}", links.join(", "))
            }
            Protect::Limp(robot, group) => println!(
                "  {robot}:{group} is not stiff: it moves as commanded, the other joints avoid"
            ),
        }
    }
    print!(
        "{}",
        summary("without filter", &unfiltered, settings.safety)
    );
    print!("{}", summary("with filter", &filtered, settings.safety));
    write_outputs(args, &cell, include_self, settings, &filtered, &unfiltered)?;
    let kept = filtered
        .iter()
        .all(|s| s.distance >= settings.safety - 0.002);
    Ok(if kept {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The CSV, JSON, plots and pictures.
fn write_outputs(
    args: &AvoidArgs,
    cell: &Cell,
    include_self: bool,
    settings: FilterSettings,
    filtered: &[SimulationStep],
    unfiltered: &[SimulationStep],
) -> Result<()> {
    crate::output::create_folder(&args.out)?;
    let mut csv = String::from(
        "t,distance_filtered,speed_filtered,active,status,distance_unfiltered,speed_unfiltered\n",
    );
    for (f, u) in filtered.iter().zip(unfiltered) {
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
        filtered,
        unfiltered,
        &settings,
    )?;
    let checker = CellChecker::new(cell, include_self);
    for (name, run) in [("filtered", filtered), ("unfiltered", unfiltered)] {
        let moment = closest(run);
        let pair = moment.pair_index.map(|k| {
            let mut at = CellChecker::new(cell, include_self);
            at.pose(&moment.q);
            at.pair_report(k)
        });
        let title = format!(
            "{name}: closest at t = {:.2} s, {} at {:.4} m",
            moment.t, moment.pair, moment.distance
        );
        crate::demo::cell_picture(
            &args.out.join(format!("closest_{name}.png")),
            &title,
            cell,
            &checker,
            &moment.q,
            pair.as_ref(),
        )?;
    }
    if let Some(path) = &args.html {
        let moments: Vec<crate::viewer::Moment> = filtered
            .iter()
            .map(|s| crate::viewer::Moment {
                t: s.t,
                q: s.q.clone(),
                pair: s.pair_index,
            })
            .collect();
        crate::viewer::write_viewer(
            path,
            cell,
            include_self,
            &moments,
            &[],
            (
                &format!("{} — with the velocity filter", cell.name),
                "the constrained pair closest at each moment",
            ),
            Some(closest(filtered).t),
        )?;
    }
    println!(
        "Wrote avoid.csv, avoid.json, avoid.png, avoid.svg, closest_filtered.png, closest_unfiltered.png to {}",
        args.out.display()
    );
    Ok(())
}
