//! A planner's set-up for a new scene: the Franka Panda (VAMP's 59 spheres, MoveIt's SRDF,
//! all 690 of its self pairs; `plan --problems` leaves out the 271 certified apart within the
//! joint limits, so its set-up is smaller) among one MotionBenchMaker scene's obstacles (scene 0001 of each of the seven families,
//! `tests/data/mbm_scenes`), built as `robocollide plan --problems` builds it before every
//! search: the robot's cell cloned, the scene's obstacles added, and a [`CellValidity`] (the
//! contact search's and the motion check's blocks, bounds, obstacle grid and lane screen) made
//! for it.
//!
//! Run: `cargo bench -p robocollide --features urdf,moveit,planning --bench scene_setup`.
//! Baselines in the same run: cloning the cell and adding the obstacles alone (the part that
//! every checker pays, whatever it builds), and one contact query at the start (what one
//! configuration check costs, against which a set-up is paid once per scene). VAMP cannot run
//! from Rust; its own cost per problem outside its search clock (building its scene and its
//! planner's buffers) is measured beside robocollide's `setup_ns` by
//! `benches/vamp_same_run.py` (`benches/README.md`).

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use robocollide::collision::CellChecker;
use robocollide::robot::moveit_scene::load_scene;
use robocollide::robot::{Cell, SceneObjects};
use robocollide::validity::CellValidity;

#[path = "../tests/common/mod.rs"]
mod common;

/// Scene 0001 of each MotionBenchMaker family, as world obstacles.
fn scenes() -> Vec<(&'static str, SceneObjects)> {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/mbm_scenes");
    common::MBM_FAMILIES
        .iter()
        .map(|&family| {
            let path = folder.join(format!("{family}_scene0001.yaml"));
            (family, load_scene(&path).unwrap())
        })
        .collect()
}

fn scene_setup(c: &mut Criterion) {
    let robot = Cell::single(common::spherized_panda());
    let scenes = scenes();
    let start = vec![0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785];
    let mut group = c.benchmark_group("scene_setup");
    for (family, scene) in &scenes {
        group.bench_function(format!("{family}: robocollide planner set-up"), |b| {
            b.iter(|| {
                let mut cell = robot.clone();
                cell.add_world_obstacles(black_box(scene.clone())).unwrap();
                let validity = CellValidity::new(&cell, 0, start.clone(), 0.0, true).unwrap();
                black_box(validity.motions_checked);
            })
        });
        group.bench_function(
            format!("{family}: baseline, cell and obstacles only"),
            |b| {
                b.iter(|| {
                    let mut cell = robot.clone();
                    cell.add_world_obstacles(black_box(scene.clone())).unwrap();
                    black_box(cell.robots.len())
                })
            },
        );
        let mut cell = robot.clone();
        cell.add_world_obstacles(scene.clone()).unwrap();
        let mut checker = CellChecker::new(&cell, true);
        group.bench_function(format!("{family}: baseline, one contact query"), |b| {
            b.iter(|| {
                checker.pose(black_box(&start));
                black_box(checker.in_contact())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, scene_setup);
criterion_main!(benches);
