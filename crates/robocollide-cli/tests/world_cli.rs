//! The world from the command line: boxes and planes in `distance`, the demo cell's table in
//! `check` and `sweep`, MoveIt scenes with `--scene`, and errors naming bad obstacles.

mod common;

use common::{data, robocollide, text};

fn scene(family: &str) -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!(
            "../robocollide/tests/data/mbm_scenes/{family}_scene0001.yaml"
        ))
        .display()
        .to_string()
}

#[test]
fn distance_takes_boxes_and_planes_in_text_and_json() {
    let o = robocollide(&[
        "distance",
        "--a",
        "box 0,0,0.5 0.5,0.5,0.5",
        "--b",
        "capsule 2,0,0.5 2,0,2 0.5",
        "--json",
    ]);
    let (stdout, stderr) = text(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    let r: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(r["distance"], 1.0);
    let o = robocollide(&[
        "distance",
        "--a",
        "plane 0,0,0 0,0,1",
        "--b",
        "sphere 0,0,0.1 0.3",
    ]);
    assert!(
        text(&o).0.contains("distance -0.2 m (penetrating)"),
        "{:?}",
        text(&o)
    );
    let o = robocollide(&["distance", "--a", "box 0,0,0 1,-1,1", "--b", "point 0,0,0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o)
            .1
            .contains("box.half_extents.y must be >= 0, got -1"),
        "{:?}",
        text(&o)
    );
}

#[test]
fn the_demo_cell_checks_its_table_and_a_brushing_trajectory_is_reported() {
    let cell = data("cells/ur5_irb120.toml");
    let o = robocollide(&["check", &cell, "--json"]);
    let (stdout, stderr) = text(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let labels: Vec<&str> = report["close_pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["b"]["label"].as_str().unwrap())
        .collect();
    assert!(labels.contains(&"W-table"), "{labels:?}");
    let o = robocollide(&["sweep", &cell, &data("cells/ur5_irb120_table.csv")]);
    let (stdout, stderr) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("FIRST CONTACT") && stdout.contains("W-table"),
        "{stdout}"
    );
}

#[test]
fn a_moveit_scene_joins_a_urdf_robot() {
    let (urdf, srdf) = (
        data("robots/panda/panda_spherized.urdf"),
        data("robots/panda/panda.srdf"),
    );
    // VAMP's reference configuration 0: in collision with the cage, clear of the small shelf.
    let q = "--q=0.07015188038349152,1.651039481163025,-2.1116280555725098,-0.0785057321190834,-1.116629719734192,1.567737102508545,1.9446526765823364";
    let o = robocollide(&[
        "check",
        &urdf,
        "--srdf",
        &srdf,
        "--scene",
        &scene("cage"),
        q,
    ]);
    let (stdout, stderr) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(stdout.contains("W-side_frontA"), "{stdout}");
    let o = robocollide(&[
        "check",
        &urdf,
        "--srdf",
        &srdf,
        "--scene",
        &scene("bookshelf_small"),
        q,
    ]);
    assert!(o.status.success(), "{:?}", text(&o));
    let o = robocollide(&["check", &urdf, "--scene", "no-such-scene.yaml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("no-such-scene.yaml"), "{:?}", text(&o));
}

#[test]
fn bad_obstacles_in_a_cell_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let cell = dir.path().join("cell.toml");
    std::fs::write(
        &cell,
        format!(
            "name = \"c\"\n[[robots]]\nmodel = \"{}\"\n[[obstacles]]\nname = \"wall\"\nplane = {{ point = [0, 0, 0], normal = [0, 0, 0] }}\n",
            data("robots/ur5.toml")
        ),
    )
    .unwrap();
    let o = robocollide(&["check", cell.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o)
            .1
            .contains("line 4: obstacles[0] `wall`: plane.normal must be non-zero"),
        "{:?}",
        text(&o)
    );
}
