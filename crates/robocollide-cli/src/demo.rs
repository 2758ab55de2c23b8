//! `robocollide demo`: a guided tour of the distance queries.
//!
//! Until the robot models land, the demo measures a small gallery of primitive pairs that shows
//! the conventions: signed distance, touching as contact, exact capsule penetration and the
//! difference between a cylinder's flat caps and a capsule's round ones.

use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use robocollide::geom::Shape;
use robocollide::query::shape_shape;

use crate::distance::describe;

/// Arguments of `robocollide demo`.
#[derive(Debug, Args)]
pub struct DemoArgs {}

const GALLERY: [(&str, &str, &str); 5] = [
    (
        "a sphere beside a capsule",
        "capsule 0,0,0 1,0,0 0.1",
        "sphere 0.5,0.5,0 0.2",
    ),
    (
        "two capsules whose axes cross (exact depth r1 + r2)",
        "capsule -1,0,0 1,0,0 0.1",
        "capsule 0,-1,0 0,1,0 0.2",
    ),
    (
        "end caps touching (touching is contact)",
        "capsule 0,0,0 1,0,0 0.25",
        "capsule 1.5,0,0 3,0,0 0.25",
    ),
    (
        "the same axes as flat-capped cylinders: still apart",
        "cylinder 0,0,0 1,0,0 0.5",
        "cylinder 1.2,0,0 2,0,0 0.5",
    ),
    (
        "and as capsules: deep contact",
        "capsule 0,0,0 1,0,0 0.5",
        "capsule 1.2,0,0 2,0,0 0.5",
    ),
];

/// Runs the demo.
pub fn run(_args: &DemoArgs) -> Result<ExitCode> {
    println!("robocollide demo — distances between primitives (metres)\n");
    for (title, a, b) in GALLERY {
        let (sa, sb): (Shape, Shape) = (a.parse()?, b.parse()?);
        let sep = shape_shape(&sa, &sb);
        println!("{title}\n  a = {a}\n  b = {b}");
        print!("{}", describe(&sa, &sb, &sep));
        println!();
    }
    Ok(ExitCode::SUCCESS)
}
