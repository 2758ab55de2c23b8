//! The Franka Panda from VAMP's URDF and SRDF against VAMP's own answers
//! (`tests/data/vamp_panda_reference.json`: 200 configurations, sphere centres computed by
//! `vamp.panda.fk` in f32, and VAMP's self-collision verdict).
#![cfg(feature = "urdf")]

use common::numbers;
use robocollide::collision::CellChecker;
use robocollide::math::Real;
use robocollide::robot::urdf::{UrdfOptions, load_urdf};
use robocollide::robot::{Cell, CellRobot, RobotModel, Units};
use serde_json::Value;

mod common;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn panda() -> RobotModel {
    let folder = root().join("data/robots/panda");
    load_urdf(
        &folder.join("panda_spherized.urdf"),
        Some(&folder.join("panda.srdf")),
        &UrdfOptions::default(),
    )
    .unwrap()
}

fn cell_of(model: RobotModel) -> Cell {
    Cell {
        name: "panda".into(),
        robots: vec![CellRobot {
            label: "R1".into(),
            home: vec![0.0; model.dof()],
            model,
        }],
        threshold: 0.0,
        units: Units::default(),
        trajectory: None,
        allowed: Vec::new(),
    }
}

fn reference() -> Value {
    common::test_data("vamp_panda_reference.json")
}

#[test]
fn the_panda_loads_with_vamps_spheres_and_self_pairs() {
    let model = panda();
    assert_eq!(model.dof(), 7);
    assert_eq!(model.bodies.len(), 59);
    let names: Vec<&str> = model.tree().variable_names().collect();
    assert_eq!(
        names,
        (1..=7)
            .map(|i| format!("panda_joint{i}"))
            .collect::<Vec<_>>()
    );
    // 11 links carry spheres; 55 link pairs, 34 allowed by the SRDF: 21 remain.
    let mut link_pairs: Vec<(usize, usize)> = model
        .self_pairs
        .pairs
        .iter()
        .map(|&(i, j)| (model.bodies[i].link, model.bodies[j].link))
        .collect();
    link_pairs.sort();
    link_pairs.dedup();
    assert_eq!(link_pairs.len(), 21, "{link_pairs:?}");
    assert!(model.warnings.is_empty(), "{:?}", model.warnings);
}

/// Each link's path of joints runs from the root (its first joint's parent is the root link)
/// to the link (its last joint's child is the link, and that joint is `parent_joint`).
#[test]
fn joint_paths_run_from_the_root_to_each_link() {
    let model = panda();
    let tree = model.tree();
    let root = (0..tree.links().len())
        .find(|&l| tree.parent_link(l).is_none())
        .unwrap();
    for link in 0..tree.links().len() {
        let path = tree.path_to(link);
        assert_eq!(tree.parent_joint(link), path.last().copied(), "link {link}");
        let Some(&first) = path.first() else {
            assert_eq!(link, root);
            continue;
        };
        assert_eq!(tree.joints()[first].parent, root, "link {link}");
        for pair in path.windows(2) {
            assert_eq!(tree.joints()[pair[0]].child, tree.joints()[pair[1]].parent);
        }
        assert_eq!(tree.joints()[*path.last().unwrap()].child, link);
    }
}

#[test]
fn sphere_centres_match_vamp_to_1e_5() {
    let model = panda();
    let reference = reference();
    let mut worst: Real = 0.0;
    for config in reference["configs"].as_array().unwrap() {
        let q = numbers(&config["q"]);
        let shapes = model.world_shapes(&q).unwrap();
        for (shape, expected) in shapes
            .iter()
            .zip(config["spheres_xyzr"].as_array().unwrap())
        {
            let e = numbers(expected);
            let robocollide::geom::Shape::Sphere(s) = shape else {
                panic!("the Panda model is spheres only")
            };
            let c = s.center();
            let error = (c.x - e[0])
                .abs()
                .max((c.y - e[1]).abs())
                .max((c.z - e[2]).abs());
            worst = worst.max(error);
            assert!(
                (s.radius() - e[3]).abs() < 1e-7,
                "radius {} vs {}",
                s.radius(),
                e[3]
            );
        }
    }
    eprintln!("largest sphere-centre coordinate difference from VAMP: {worst:e} m");
    assert!(worst <= 1e-5, "largest coordinate difference {worst}");
}

#[test]
fn self_collision_verdicts_match_vamp_away_from_contact() {
    let cell = cell_of(panda());
    let mut checker = CellChecker::new(&cell, true);
    let reference = reference();
    let (mut agree, mut near) = (0, Vec::new());
    for (k, config) in reference["configs"].as_array().unwrap().iter().enumerate() {
        let q = numbers(&config["q"]);
        checker.pose(&q);
        let distance = checker.closest().map_or(Real::INFINITY, |c| c.distance);
        let vamp_valid = config["valid_self_only"].as_bool().unwrap();
        if distance.abs() <= 1e-4 {
            near.push((k, distance, vamp_valid));
            continue;
        }
        assert_eq!(
            distance > 0.0,
            vamp_valid,
            "configuration {k}: distance {distance}"
        );
        agree += 1;
    }
    // Listed, not hidden: configurations within 1e-4 m of contact (f32 vs f64 may differ).
    eprintln!("within 1e-4 m of contact: {near:?}");
    assert!(
        near.len() <= 2 && agree + near.len() == 200,
        "{agree} of 200 compared"
    );
}

/// The culled search (link spheres, near members, nearest block first) against every pair's
/// distance, on VAMP's configurations and on two Pandas facing each other.
#[test]
fn culled_search_equals_brute_force() {
    let cells = [
        cell_of(panda()),
        Cell::load(&root().join("data/cells/two_pandas.toml")).unwrap(),
    ];
    let reference = reference();
    let mut distances = Vec::new();
    let mut contacts = 0;
    for cell in &cells {
        let mut checker = CellChecker::new(cell, true);
        for (k, config) in reference["configs"].as_array().unwrap().iter().enumerate() {
            let mut q = numbers(&config["q"]);
            if cell.robots.len() == 2 {
                let other = numbers(&reference["configs"][(k * 7 + 3) % 200]["q"]);
                q.extend(other);
            }
            checker.pose(&q);
            checker.pair_distances(&mut distances);
            let brute = distances.iter().copied().fold(Real::INFINITY, Real::min);
            let closest = checker.closest().unwrap();
            assert!(
                (closest.distance - brute).abs() <= 1e-15,
                "{k}: {} vs {brute}",
                closest.distance
            );
            assert_eq!(checker.in_contact(), brute <= 0.0, "configuration {k}");
            contacts += usize::from(brute <= 0.0);
        }
    }
    assert!(contacts > 20, "{contacts}");
}
