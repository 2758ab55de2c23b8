//! `robocollide check`: one configuration of a cell (or a static scene).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::Args;
use robocollide::collision::{CellChecker, CheckReport, PairReport, RobotSummary};
use robocollide::robot::Cell;

use crate::distance::{fmt_num, fmt_point};

/// Arguments of `robocollide check`.
#[derive(Debug, Args)]
#[command(after_long_help = "Exit status: 0 clear, 1 collision, 2 bad input.

Examples:
  robocollide check data/cells/ur5_irb120.toml
  robocollide check data/cells/ur5_irb120.toml --q 0,-90,0,-90,0,0 --q 180,30,20,0,0,0 --json
  robocollide check data/scenes/seed004_table3.toml
  robocollide check data/robots/panda/panda_spherized.urdf --srdf data/robots/panda/panda.srdf \
      --q 0,-0.785,0,-2.356,0,1.571,0.785
  robocollide check data/robots/panda/panda_spherized.urdf --q panda_joint4=-1.2,panda_joint6=1.5")]
pub struct CheckArgs {
    /// Cell or scene file (TOML), or a URDF robot (a one-robot cell `R1`, radians and metres).
    cell: PathBuf,
    /// Joint values of the next robot with joints, comma-separated, in the cell's angle unit;
    /// repeat once per robot in file order. Robots without --q use their `home`. Values may be
    /// named (`panda_joint4=-1.2,panda_joint6=1.5`): unnamed joints keep their home value; or
    /// the name of an SRDF state (`ready`), optionally followed by named values that change it
    /// (`stand,LShoulderPitch=0.9`).
    #[arg(long = "q", value_name = "VALUES", allow_hyphen_values = true)]
    q: Vec<String>,
    #[command(flatten)]
    model: crate::model_input::ModelOptions,
    /// Report every pair closer than this (m); default: the cell's `threshold`.
    #[arg(long)]
    threshold: Option<f64>,
    /// Skip self-collision pairs (robot–robot only).
    #[arg(long)]
    no_self: bool,
    /// Write a rendered 3-D picture (PNG) of the configuration, the colliding or closest pair
    /// highlighted with its witness segment.
    #[arg(long, value_name = "FILE")]
    picture: Option<PathBuf>,
    /// Write the interactive 3-D viewer (one self-contained HTML file) of the configuration.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Treat joint values outside their limits as an error (default: a warning).
    #[arg(long)]
    strict_limits: bool,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// Parses `--q` lists into one concatenated configuration (radians/metres).
pub fn configuration(cell: &Cell, lists: &[String]) -> Result<Vec<f64>> {
    let moving: Vec<usize> = (0..cell.robots.len())
        .filter(|&r| cell.robots[r].model.dof() > 0)
        .collect();
    if lists.len() > moving.len() {
        bail!(
            "{} --q lists given but the cell has {} robot(s) with joints",
            lists.len(),
            moving.len()
        );
    }
    let mut q = Vec::new();
    for (r, robot) in cell.robots.iter().enumerate() {
        match moving
            .iter()
            .position(|&m| m == r)
            .and_then(|i| lists.get(i))
        {
            Some(list) if list.contains('=') => q.extend(named_values(cell, r, list)?),
            Some(name) if name.trim().starts_with(|c: char| c.is_ascii_alphabetic()) => {
                q.extend(named_state(cell, r, name.trim())?);
            }
            Some(list) => {
                let values: Vec<f64> = list
                    .split(',')
                    .enumerate()
                    .map(|(i, v)| {
                        v.trim().parse::<f64>().with_context(|| {
                            format!("{} joint {}: `{v}` is not a number", robot.label, i + 1)
                        })
                    })
                    .collect::<Result<_>>()?;
                if values.len() != robot.model.dof() {
                    bail!(
                        "{}: wrong joint count: expected {} value(s), got {}",
                        robot.label,
                        robot.model.dof(),
                        values.len()
                    );
                }
                q.extend(
                    values
                        .iter()
                        .zip(robot.model.tree().variable_kinds())
                        .map(|(v, kind)| v * cell.units.joint_scale(kind)),
                );
            }
            None => q.extend(&robot.home),
        }
    }
    Ok(q)
}

/// A robot's configuration from `name=value` items (cell units): its home, with the named
/// joints set.
/// The SRDF state `name` of robot `r`; the error lists the states there are.
fn named_state(cell: &Cell, r: usize, name: &str) -> Result<Vec<f64>> {
    let robot = &cell.robots[r];
    let Some((_, state)) = robot.model.named_states.iter().find(|(n, _)| n == name) else {
        let known: Vec<&str> = robot
            .model
            .named_states
            .iter()
            .map(|(n, _)| n.as_str())
            .collect();
        bail!(
            "{}: no named state `{name}` (the SRDF's states: {})",
            robot.label,
            if known.is_empty() {
                "none".to_owned()
            } else {
                known.join(", ")
            }
        );
    };
    Ok(state.clone())
}

/// `name=value` items over the robot's home, or over an SRDF state named first
/// (`stand,LShoulderPitch=0.9`).
fn named_values(cell: &Cell, r: usize, list: &str) -> Result<Vec<f64>> {
    let robot = &cell.robots[r];
    let tree = robot.model.tree();
    let mut items = list.split(',').peekable();
    let mut q = match items.peek() {
        Some(first) if !first.contains('=') && !first.trim().is_empty() => {
            let state = named_state(cell, r, first.trim())?;
            items.next();
            state
        }
        _ => robot.home.clone(),
    };
    for item in items {
        let Some((name, value)) = item.split_once('=') else {
            bail!(
                "{}: `{item}`: give every value as name=value, or none (positional values in joint order)",
                robot.label
            );
        };
        let (name, value) = (name.trim(), value.trim());
        let Some(v) = tree.variable_index(name) else {
            let known: Vec<&str> = tree.variable_names().collect();
            bail!(
                "{}: no joint `{name}` (joints, in order: {})",
                robot.label,
                known.join(", ")
            );
        };
        let number: f64 = value
            .parse()
            .with_context(|| format!("{} joint {name}: `{value}` is not a number", robot.label))?;
        q[v] = number * cell.units.joint_scale(tree.variable_kind(v));
    }
    Ok(q)
}

/// One line describing a pair.
pub fn pair_line(p: &PairReport) -> String {
    format!(
        "{} m  {}  {} ({}) – {} ({})",
        fmt_num(p.distance),
        p.pair_type,
        p.a.label,
        p.a.link,
        p.b.label,
        p.b.link
    )
}

/// A table of pairs whose columns are as wide as their longest entry.
pub fn pair_table(pairs: &[PairReport]) -> String {
    let header = ["distance [m]", "type", "a", "b"];
    let rows: Vec<[String; 4]> = pairs
        .iter()
        .map(|p| {
            [
                fmt_num(p.distance),
                p.pair_type.clone(),
                format!("{} ({})", p.a.label, p.a.link),
                format!("{} ({})", p.b.label, p.b.link),
            ]
        })
        .collect();
    let width = |k: usize| {
        rows.iter()
            .map(|r| r[k].chars().count())
            .chain([header[k].chars().count()])
            .max()
            .unwrap_or(0)
    };
    let w = [width(0), width(1), width(2), width(3)];
    let line = |cells: [&str; 4]| {
        format!(
            "{:>w0$}  {:<w1$}  {:<w2$}  {}\n",
            cells[0],
            cells[1],
            cells[2],
            cells[3],
            w0 = w[0],
            w1 = w[1],
            w2 = w[2]
        )
    };
    let mut out = line(header);
    for r in &rows {
        out += &line([&r[0], &r[1], &r[2], &r[3]]);
    }
    out
}

/// The readable report.
pub fn describe(cell: &Cell, report: &CheckReport) -> String {
    let mut out = format!(
        "{} — {} robot(s), {} pairs checked\n{}\n",
        cell.name,
        cell.robots.len(),
        report.pairs_checked,
        RobotSummary::models_line(&report.robots)
    );
    let contacts = report
        .close_pairs
        .iter()
        .filter(|p| p.distance <= 0.0)
        .count();
    out += &if report.collision {
        format!("COLLISION: {contacts} pair(s) in contact\n")
    } else {
        "clear: no pair in contact\n".to_owned()
    };
    for line in report.robots.iter().filter_map(|r| r.self_line()) {
        out += &line;
        out.push('\n');
    }
    if let Some(c) = &report.closest {
        out += &format!(
            "closest: {} ({}) and {} ({}), {}, distance {} m\n  witness points {} and {}\n",
            c.a.label,
            c.a.link,
            c.b.label,
            c.b.link,
            c.pair_type,
            fmt_num(c.distance),
            fmt_point(&c.point_a),
            fmt_point(&c.point_b)
        );
    }
    out += &format!(
        "pairs within {} m: {}\n",
        fmt_num(report.threshold),
        report.close_pairs.len()
    );
    if !report.close_pairs.is_empty() {
        out += &pair_table(&report.close_pairs);
    }
    out
}

/// Runs the subcommand.
pub fn run(args: &CheckArgs) -> Result<ExitCode> {
    let cell = crate::model_input::load_cell(&args.cell, &args.model)?;
    let q = configuration(&cell, &args.q)?;
    let mut checker = CellChecker::new(&cell, !args.no_self);
    checker.validate(&q)?;
    let violations = checker.limit_violations(&q);
    if !violations.is_empty() {
        if args.strict_limits {
            bail!("{}", violations.join("; "));
        }
        for v in &violations {
            eprintln!("robocollide: warning: {v}");
        }
    }
    let threshold = args.threshold.unwrap_or(cell.threshold);
    if !(threshold.is_finite() && threshold >= 0.0) {
        bail!("--threshold must be a finite distance >= 0, got {threshold}");
    }
    let report = checker.check(&q, threshold)?;
    if let Some(path) = &args.picture {
        let pair = report.closest.as_ref();
        let title = match pair {
            Some(p) if report.collision => format!(
                "{}: COLLISION, {} – {} at {} m",
                cell.name,
                p.a.label,
                p.b.label,
                fmt_num(p.distance)
            ),
            Some(p) => format!(
                "{}: clear, closest {} – {} at {} m",
                cell.name,
                p.a.label,
                p.b.label,
                fmt_num(p.distance)
            ),
            None => format!("{}: no pairs", cell.name),
        };
        crate::demo::cell_picture(path, &title, &cell, &checker, &q, pair)?;
        eprintln!("robocollide: wrote {}", path.display());
    }
    if let Some(path) = &args.html {
        crate::viewer::write_viewer(
            path,
            &cell,
            !args.no_self,
            &[crate::viewer::Moment {
                t: 0.0,
                q: q.clone(),
                pair: None,
            }],
            &[],
            (&cell.name, "one configuration"),
            None,
        )?;
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", describe(&cell, &report));
    }
    Ok(if report.collision {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
