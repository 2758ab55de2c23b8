//! `robocollide`: command-line front end. Parses arguments, calls the library, prints.
//! No geometry lives here.

mod demo;
mod distance;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

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
    /// Run the demonstration.
    Demo(demo::DemoArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Distance(args) => distance::run(&args),
        Command::Demo(args) => demo::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("robocollide: error: {err:#}");
            ExitCode::from(2)
        }
    }
}
