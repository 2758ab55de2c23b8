//! `robocollide demo`: the shipped two-robot cell (a UR5 and an ABB IRB 120 on one table)
//! along a shipped trajectory in which they collide.
//!
//! The cell, models and trajectory are embedded in the binary (the same files as in
//! `data/`), so the demo runs from anywhere. It checks the start configuration, sweeps the
//! trajectory twice — sampled (the rows only) and guaranteed (certified between rows) — and
//! writes a report, the distance-over-time plot and a picture of both robots at the moment of
//! closest approach into an output folder.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use plotters::style::RGBColor;
use robocollide::collision::{CellChecker, SweepMode, Trajectory};
use robocollide::robot::Cell;
use robocollide::robot::model_file::parse_robot;

use crate::check::describe;
use crate::distance::fmt_num;
use crate::sweep::{run_sweep, summary, write_outputs};
use robocollide_plot::{Body3d, Scene3d, picture_3d};

const CELL: &str = include_str!("../../../data/cells/ur5_irb120.toml");
const TRAJECTORY: &str = include_str!("../../../data/cells/ur5_irb120_collide.csv");
const MODELS: [(&str, &str); 2] = [
    (
        "../robots/ur5.toml",
        include_str!("../../../data/robots/ur5.toml"),
    ),
    (
        "../robots/irb120.toml",
        include_str!("../../../data/robots/irb120.toml"),
    ),
];

/// Arguments of `robocollide demo`.
#[derive(Debug, Args)]
pub struct DemoArgs {
    /// Folder for the report, plots, pictures and viewer.
    #[arg(long, default_value = "robocollide-demo")]
    out: PathBuf,
    /// Where to write the interactive viewer (default: viewer.html in the output folder).
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
}

/// The 3-D scene of every robot of `cell` at configuration `q` (all robots concatenated),
/// with `pair`'s bodies highlighted and its witness segment; `checker` splits `q` per robot.
pub fn cell_scene(
    cell: &Cell,
    checker: &CellChecker<'_>,
    q: &[f64],
    pair: Option<&robocollide::collision::PairReport>,
) -> Result<Scene3d> {
    let mut scene = Scene3d::default();
    for (r, robot) in cell.robots.iter().enumerate() {
        let color = if robot.label == robocollide::robot::WORLD_LABEL {
            RGBColor(150, 150, 150)
        } else {
            COLORS[r % COLORS.len()]
        };
        scene
            .legend
            .push((format!("{}: {}", robot.label, robot.model.name), color));
        for (b, shape) in robot
            .model
            .world_shapes(checker.robot_q(q, r))?
            .into_iter()
            .enumerate()
        {
            let label = format!("{}-{}", robot.label, robot.model.bodies[b].name);
            if let Some(p) = pair {
                if p.a.label == label {
                    scene.highlight.insert(0, scene.bodies.len());
                } else if p.b.label == label {
                    scene.highlight.push(scene.bodies.len());
                }
            }
            scene.bodies.push(Body3d {
                shape,
                color,
                label: format!("{label} ({})", robot.model.link_name(b)),
                translucent: robot.model.dof() == 0,
            });
        }
    }
    scene.witness = pair.map(|p| (p.point_a, p.point_b));
    Ok(scene)
}

/// Writes a 3-D picture of every robot of `cell` at configuration `q` (see [`cell_scene`]).
pub fn cell_picture(
    path: &std::path::Path,
    title: &str,
    cell: &Cell,
    checker: &CellChecker<'_>,
    q: &[f64],
    pair: Option<&robocollide::collision::PairReport>,
) -> Result<()> {
    picture_3d(
        path,
        title,
        &cell_scene(cell, checker, q, pair)?,
        (1200, 800),
    )
}

/// Robot colours in pictures.
pub const COLORS: [RGBColor; 4] = [
    RGBColor(31, 119, 180),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
];

/// The shipped cell, from the copies embedded in the binary.
pub fn embedded_cell() -> Result<Cell> {
    Ok(Cell::parse_with(
        CELL,
        "data/cells/ur5_irb120.toml",
        &|request| {
            let path = request.path;
            let text = MODELS
                .iter()
                .find(|(p, _)| *p == path)
                .map(|(_, t)| *t)
                .with_context(|| format!("no embedded model {path}"))
                .map_err(|e| robocollide::Error::Parse(e.to_string()))?;
            parse_robot(text, path, request.level)
        },
        &|scene| {
            Err(robocollide::Error::Parse(format!(
                "the embedded demo cell has no scene file ({scene})"
            )))
        },
    )?)
}

/// Runs the demo.
pub fn run(args: &DemoArgs) -> Result<ExitCode> {
    let cell = embedded_cell()?;
    let trajectory = Trajectory::parse(TRAJECTORY, "data/cells/ur5_irb120_collide.csv", &cell)?;
    println!("robocollide demo — {}", cell.name);
    for r in &cell.robots {
        println!(
            "  {}: {} ({} joints, {} bodies)",
            r.label,
            r.model.name,
            r.model.dof(),
            r.model.bodies.len()
        );
    }
    let mut checker = CellChecker::new(&cell, true);
    println!(
        "\nAt the start of the trajectory (t = {} s):",
        fmt_num(trajectory.times[0])
    );
    let start = checker.check(&trajectory.configs[0], cell.threshold)?;
    for line in describe(&cell, &start).lines().skip(1) {
        println!("  {line}");
    }

    let sampled = run_sweep(&mut checker, &trajectory, SweepMode::Sampled, true)?;
    let guaranteed = run_sweep(
        &mut checker,
        &trajectory,
        SweepMode::Guaranteed { min_interval: 1e-6 },
        true,
    )?;
    println!(
        "\nAlong the trajectory ({} rows, {} s):",
        trajectory.len(),
        fmt_num(trajectory.times[trajectory.len() - 1] - trajectory.times[0])
    );
    for line in summary(&sampled, trajectory.len(), SweepMode::Sampled).lines() {
        println!("  {line}");
    }
    for line in summary(
        &guaranteed,
        trajectory.len(),
        SweepMode::Guaranteed { min_interval: 1e-6 },
    )
    .lines()
    {
        println!("  {line}");
    }
    let first =
        |r: &robocollide::collision::SweepReport| r.first_collision.as_ref().map(|(t, _)| *t);
    crate::output::create_folder(&args.out)?;
    let first_contact = guaranteed.first_collision.as_ref().map(|(t, _)| *t);
    crate::viewer::write_viewer(
        &args
            .html
            .clone()
            .unwrap_or_else(|| args.out.join("viewer.html")),
        &cell,
        true,
        &crate::viewer::trajectory_moments(
            &trajectory,
            &first_contact.into_iter().collect::<Vec<_>>(),
        ),
        &guaranteed.collision_intervals,
        (
            &format!("robocollide demo — {}", cell.name),
            "the shipped colliding trajectory; the slider starts at the first contact, between two rows",
        ),
        first_contact,
    )?;
    let mut pictures = vec!["closest.png"];
    if let Some((tg, pair)) = &guaranteed.first_collision {
        let missed = first(&sampled).is_none_or(|ts| *tg < ts);
        if missed {
            println!(
                "  → the guaranteed sweep finds a contact at t = {} s that the rows alone miss",
                fmt_num(*tg)
            );
        }
        // The first contact, between rows where the rows alone miss it.
        let q = robocollide::collision::config_at(&trajectory, *tg);
        let title = format!(
            "first contact, t = {:.4} s{}: {} – {}",
            tg,
            if missed {
                " (between rows: only the guaranteed sweep finds it)"
            } else {
                ""
            },
            pair.a.label,
            pair.b.label
        );
        cell_picture(
            &args.out.join("first_contact.png"),
            &title,
            &cell,
            &checker,
            &q,
            Some(pair),
        )?;
        pictures.push("first_contact.png");
    }

    write_outputs(
        &args.out,
        &mut checker,
        &trajectory,
        &guaranteed,
        &format!("{} — minimum distance along the demo trajectory", cell.name),
        cell.threshold,
        Some((&sampled, "rows only (sampled)")),
    )?;
    crate::output::write_file(
        &args.out.join("report.json"),
        serde_json::to_string_pretty(&serde_json::json!({
            "cell": cell.name,
            "start": start,
            "sampled": sampled,
            "guaranteed": guaranteed,
        }))?,
    )?;
    // The moment of closest approach: the smallest distance among the sweep's points and a
    // dense pass over the whole trajectory.
    let dense = robocollide_plot::display_curve(&mut checker, &trajectory);
    let deepest = guaranteed
        .samples
        .iter()
        .chain(&dense)
        .min_by(|a, b| a.distance.total_cmp(&b.distance))
        .copied();
    if let Some(moment) = deepest {
        let t = &moment.t;
        let q = robocollide::collision::config_at(&trajectory, *t);
        checker.pose(&q);
        let pair = &checker.pair_report(moment.pair);
        println!(
            "\nClosest approach (deepest contact) at t = {} s: {} ({}) and {} ({}), {} m",
            fmt_num(*t),
            pair.a.label,
            pair.a.link,
            pair.b.label,
            pair.b.link,
            fmt_num(pair.distance)
        );
        let title = format!(
            "closest approach, t = {:.3} s: {} – {} at {:.4} m",
            t, pair.a.label, pair.b.label, pair.distance
        );
        cell_picture(
            &args.out.join("closest.png"),
            &title,
            &cell,
            &checker,
            &q,
            Some(pair),
        )?;
    }
    println!(
        "\nWrote to {}/: report.json, sweep.json, distance.csv, distance.png, distance.svg, {}, viewer.html",
        args.out.display(),
        pictures.join(", ")
    );
    Ok(ExitCode::SUCCESS)
}
