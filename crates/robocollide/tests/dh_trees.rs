//! DH chains as kinematic trees give the same answers as before the tree existed.
//!
//! `tests/data/shipped_robots_before_trees.json` was written by the serial-chain
//! implementation (commit 2176e6d, an example program run once): for every shipped robot at
//! every level of detail, the world shapes of all bodies at 20 sampled configurations and the
//! self-collision pairs; for the demo cell, the closest pair and every pair's distance at 40
//! configurations. The tree implementation must reproduce them to rounding.

use common::{flat, numbers};
use robocollide::collision::CellChecker;
use robocollide::robot::{Cell, DetailLevel, model_file::load_robot};
use serde_json::Value;

mod common;
use std::path::{Path, PathBuf};

fn data(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../data")
        .join(path)
}

fn golden() -> Value {
    common::test_data("shipped_robots_before_trees.json")
}

#[test]
fn every_shipped_robot_poses_as_before() {
    let golden = golden();
    let mut compared = 0;
    for robot in ["ur5", "irb120", "puma560"] {
        for level in [
            DetailLevel::Simplified,
            DetailLevel::Standard,
            DetailLevel::Precise,
        ] {
            let key = format!("{robot}/{}", level.name());
            let model = load_robot(&data(&format!("robots/{robot}.toml")), Some(level)).unwrap();
            let before = &golden[&key];
            let pairs: Vec<(usize, usize)> = before["self_pairs"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| {
                    (
                        p[0].as_u64().unwrap() as usize,
                        p[1].as_u64().unwrap() as usize,
                    )
                })
                .collect();
            assert_eq!(model.self_pairs.pairs, pairs, "{key}: self pairs");
            for row in before["configurations"].as_array().unwrap() {
                let q = numbers(&row["q"]);
                let shapes = model.world_shapes(&q).unwrap();
                for (shape, old) in shapes.iter().zip(row["shapes"].as_array().unwrap()) {
                    let (new, old) = (flat(shape), numbers(old));
                    assert_eq!(new.len(), old.len(), "{key}: shape kind");
                    for (x, y) in new.iter().zip(&old) {
                        assert!((x - y).abs() <= 1e-12, "{key} at {q:?}: {new:?} vs {old:?}");
                    }
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 1000, "{compared}");
}

#[test]
fn the_demo_cell_checks_as_before() {
    let golden = golden();
    // The robots as they were recorded: the table came later (its pairs are checked by
    // tests/world_cells.rs).
    let mut cell = Cell::load(&data("cells/ur5_irb120.toml")).unwrap();
    cell.robots
        .retain(|r| r.label != robocollide::robot::WORLD_LABEL);
    cell.allowed.clear();
    let mut checker = CellChecker::new(&cell, true);
    let mut distances = Vec::new();
    for row in golden["cells/ur5_irb120"].as_array().unwrap() {
        let q = numbers(&row["q"]);
        checker.pose(&q);
        let closest = checker.closest().unwrap();
        let expected = row["closest"].as_f64().unwrap();
        assert!((closest.distance - expected).abs() <= 1e-12, "{q:?}");
        checker.pair_distances(&mut distances);
        // The same pair, or one tied with it to rounding.
        let before = row["pair"].as_u64().unwrap() as usize;
        assert!(
            (distances[closest.pair] - distances[before]).abs() <= 1e-12,
            "{q:?}: pair {} vs {before}",
            closest.pair
        );
        for (d, e) in distances.iter().zip(numbers(&row["distances"])) {
            assert!((d - e).abs() <= 1e-12, "{q:?}: {d} vs {e}");
        }
    }
}
