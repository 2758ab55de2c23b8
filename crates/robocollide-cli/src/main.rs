//! `robocollide`: command-line front end. Parses arguments, calls the library, prints.
//! No geometry lives here.

mod avoid;
mod check;
mod demo;
mod distance;
mod fourc;
mod model_input;
mod output;
mod plan;
mod plan2d;
mod problems;
mod show;
mod sweep;
mod viewer;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// The binary's allocator: mimalloc instead of the system's (glibc's malloc). A new scene's
/// planner is ~1 000 allocations, and glibc's took a quarter of that set-up's time; on
/// MotionBenchMaker `plan --problems` set each scene up in 0.79× the time, and searched in
/// 0.95× (benches/README.md, session 56). The library itself leaves the choice to its users.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Robot collision detection with spheres, capsules and cylinders.
#[derive(Debug, Parser)]
#[command(name = "robocollide", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Signed distance, witness points and normal between two shapes (or a JSON Lines batch).
    Distance(distance::DistanceArgs),
    /// Check one configuration of a cell or a static scene (robot–robot, robot–world and self-collision).
    Check(check::CheckArgs),
    /// Sweep a trajectory through a cell: distance over time, first contact, plots.
    Sweep(sweep::SweepArgs),
    /// Run the demo: two robots on one table, a colliding trajectory, report and pictures.
    Demo(demo::DemoArgs),
    /// Self-collision study of a spatial 4C mechanism (seed 003), or its case study.
    Fourc(fourc::FourCArgs),
    /// Drive robots into each other with and without the collision-avoidance velocity filter.
    Avoid(avoid::AvoidArgs),
    /// Plan a collision-free motion for one robot (RRT-Connect), verified by a guaranteed sweep.
    Plan(plan::PlanArgs),
    /// RRT-Connect for a planar two-link arm among circles, with a picture of trees and path.
    Plan2d(plan2d::Plan2dArgs),
    /// Draw a robot model in 3-D: a DH model at its three levels of detail side by side.
    Show(show::ShowArgs),
}

fn main() -> ExitCode {
    // A reader that goes away (`robocollide … | head`) is not an error: end quietly, as Unix
    // tools do, instead of panicking inside `println!`.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.contains("Broken pipe") {
            std::process::exit(0);
        }
        default_hook(info);
    }));
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Distance(args) => distance::run(&args),
        Command::Check(args) => check::run(&args),
        Command::Sweep(args) => sweep::run(&args),
        Command::Demo(args) => demo::run(&args),
        Command::Fourc(args) => fourc::run(&args),
        Command::Avoid(args) => avoid::run(&args),
        Command::Plan(args) => plan::run(&args),
        Command::Plan2d(args) => plan2d::run(&args),
        Command::Show(args) => show::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("robocollide: error: {err:#}");
            ExitCode::from(2)
        }
    }
}
