//! `robocollide show`: a robot model drawn in 3-D — a DH model file at its three levels of
//! detail side by side (seed 000, Figure 2.1), a URDF with its own bodies.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use robocollide::collision::CellChecker;
use robocollide::robot::{Cell, CellOptions, CellSource, DetailLevel, model_file::load_robot};

use crate::check::configuration;

/// Arguments of `robocollide show`.
#[derive(Debug, Args)]
#[command(after_long_help = "Examples:
  robocollide show data/robots/ur5.toml --q 0,-60,90,-120,-90,0      # three levels, degrees as in the file
  robocollide show data/robots/nao/nao.urdf --srdf data/robots/nao/nao.srdf --q stand")]
pub struct ShowArgs {
    /// Robot model: a DH model file (TOML) or a URDF.
    model: PathBuf,
    /// SRDF of a URDF (its named states can be given to --q).
    #[arg(long, value_name = "FILE")]
    srdf: Option<PathBuf>,
    /// Joint values (in the model file's angle unit; radians for a URDF), named values
    /// (`joint=value`) or an SRDF state; default: the model's home.
    #[arg(long = "q", value_name = "VALUES", allow_hyphen_values = true)]
    q: Option<String>,
    /// Output picture (PNG).
    #[arg(long, default_value = "robocollide-show.png")]
    out: PathBuf,
}

/// Runs the subcommand.
pub fn run(args: &ShowArgs) -> Result<ExitCode> {
    let is_urdf = args
        .model
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("urdf"));
    let cells: Vec<(String, Cell)> = if is_urdf {
        let options = CellOptions {
            srdf: args.srdf.clone(),
            ..CellOptions::default()
        };
        let cell = CellSource::read(&args.model, &options)?.1;
        vec![(format!("{} (URDF bodies)", cell.name), cell)]
    } else {
        if args.srdf.is_some() {
            anyhow::bail!(
                "--srdf applies to a URDF model; {} is a DH model file",
                args.model.display()
            );
        }
        [
            DetailLevel::Simplified,
            DetailLevel::Standard,
            DetailLevel::Precise,
        ]
        .into_iter()
        .map(|level| {
            let model = load_robot(&args.model, Some(level))?;
            let bodies = model.bodies.len();
            Ok((
                format!("{}: {} level ({bodies} bodies)", model.name, level.name()),
                Cell::single(model),
            ))
        })
        .collect::<Result<_>>()?
    };
    let mut panels = Vec::new();
    for (title, cell) in &cells {
        let q = match &args.q {
            Some(values) => configuration(cell, std::slice::from_ref(values))?,
            None => cell.robots[0].home.clone(),
        };
        let mut checker = CellChecker::new(cell, true);
        checker.validate(&q)?;
        let report = checker.check(&q, 0.0)?;
        let pair = report.closest.as_ref().filter(|_| report.collision);
        let scene = crate::demo::cell_scene(cell, &checker, &q, pair)?;
        let title = match pair {
            Some(p) => format!("{title}: self-contact {} – {}", p.a.label, p.b.label),
            None => title.clone(),
        };
        panels.push((title, scene));
    }
    robocollide_plot::panels_3d(&args.out, &panels, (640, 720))?;
    println!("Wrote {} ({} panel(s))", args.out.display(), panels.len());
    Ok(ExitCode::SUCCESS)
}
