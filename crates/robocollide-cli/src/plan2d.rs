//! `robocollide plan2d`: RRT-Connect for a planar two-link arm among circles (seed 001's
//! setting), with a picture of the configuration space (obstacle region, both trees, the path)
//! and of the workspace (circles, the arm along the path).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;
use clap::Args;
use robocollide::planar::{Circle, PlanarArm, SegmentsCircles};
use robocollide::planning::{PlannerSettings, Validity, rrt_connect};
use robocollide::validity::PlanarValidity;

use crate::distance::fmt_num;

/// Arguments of `robocollide plan2d`.
#[derive(Debug, Args)]
#[command(
    after_long_help = "A two-link arm (links 1.0 m and 0.8 m) at the origin moves from q = (−90°, 20°) to
(140°, −30°) among four circles. Motions are certified (clearance vs a motion bound, bisected),
not sampled. Writes plan2d.png and plan2d.json."
)]
pub struct Plan2dArgs {
    /// Random seed.
    #[arg(long, default_value_t = 3)]
    seed: u64,
    /// Output folder.
    #[arg(long, default_value = "robocollide-plan2d")]
    out: PathBuf,
}

/// The demo scene: the arm and its obstacles.
pub fn scene() -> Result<(PlanarArm, Vec<Circle>)> {
    let arm = PlanarArm::new(vec![1.0, 0.8], [0.0, 0.0])?;
    let circles = vec![
        Circle {
            center: [0.9, 1.1],
            radius: 0.3,
        },
        Circle {
            center: [-0.2, 1.45],
            radius: 0.25,
        },
        Circle {
            center: [-1.3, 0.3],
            radius: 0.3,
        },
        Circle {
            center: [1.2, -0.9],
            radius: 0.35,
        },
    ];
    Ok((arm, circles))
}

/// Runs the subcommand.
pub fn run(args: &Plan2dArgs) -> Result<ExitCode> {
    let (arm, circles) = scene()?;
    let mut validity = PlanarValidity {
        arm: arm.clone(),
        circles: SegmentsCircles::new(&circles)?,
    };
    let (start, goal) = (
        [-90f64.to_radians(), 20f64.to_radians()],
        [140f64.to_radians(), -30f64.to_radians()],
    );
    let settings = PlannerSettings {
        max_step: 0.2,
        seed: args.seed,
        time_limit: Duration::from_secs(10),
        record_tree: true,
        ..Default::default()
    };
    println!(
        "robocollide plan2d — two-link arm among {} circles",
        circles.len()
    );
    let plan = match rrt_connect(&mut validity, &start, &goal, &settings) {
        Ok(p) => p,
        Err(e) => {
            println!("NO PATH: {e}");
            return Ok(ExitCode::from(1));
        }
    };
    println!(
        "  planned in {} ms: {} iterations, {} tree nodes; path of {} waypoints, {} rad ({} before shortcutting)",
        fmt_num((plan.seconds * 1e6).round() / 1e3),
        plan.iterations,
        plan.tree_nodes,
        plan.path.len(),
        fmt_num((plan.length * 1e3).round() / 1e3),
        fmt_num((plan.raw_length * 1e3).round() / 1e3)
    );
    let verified = plan
        .path
        .windows(2)
        .all(|w| validity.motion_valid(&w[0], &w[1]));
    println!("  every path segment certified free: {verified}");
    crate::output::create_folder(&args.out)?;
    crate::output::write_file(
        &args.out.join("plan2d.json"),
        serde_json::to_string_pretty(&serde_json::json!({"plan": plan, "verified": verified}))?,
    )?;
    robocollide_plot::plan2d_picture(&args.out.join("plan2d.png"), &mut validity, &circles, &plan)?;
    println!("Wrote plan2d.png and plan2d.json to {}", args.out.display());
    Ok(if verified {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
