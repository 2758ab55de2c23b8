//! A cell's sources: read once, rebuilt from the stored texts alone, identical to a cell
//! loaded from disk (what the Python package's pickling relies on).
#![cfg(all(feature = "urdf", feature = "moveit"))]

use std::path::{Path, PathBuf};

use robocollide::robot::{Cell, CellOptions, CellSource};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn a_cell_rebuilt_from_its_sources_equals_the_loaded_one() {
    let path = root().join("data/cells/ur5_irb120.toml");
    let (source, cell) = CellSource::read(&path, &CellOptions::default()).unwrap();
    assert_eq!(cell, Cell::load(&path).unwrap());
    // The cell file and both robot model files.
    assert_eq!(source.files.len(), 3, "{:?}", source.files.keys());
    assert_eq!(source.build().unwrap(), cell);
}

#[test]
fn a_urdf_with_srdf_and_scene_is_rebuilt_without_its_files() {
    let folder = std::env::temp_dir().join(format!("robocollide-sources-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let panda = root().join("data/robots/panda");
    for name in ["panda_spherized.urdf", "panda.srdf"] {
        std::fs::copy(panda.join(name), folder.join(name)).unwrap();
    }
    let scene = root().join("crates/robocollide/tests/data/mbm_scenes/cage_scene0001.yaml");
    std::fs::copy(&scene, folder.join("scene.yaml")).unwrap();
    let options = CellOptions {
        srdf: Some(folder.join("panda.srdf")),
        scene: Some(folder.join("scene.yaml")),
        cylinders_as_capsules: false,
    };
    let (source, cell) = CellSource::read(&folder.join("panda_spherized.urdf"), &options).unwrap();
    assert_eq!(source.files.len(), 3);
    assert!(cell.robots.len() == 2, "the Panda and the scene's world");
    std::fs::remove_dir_all(&folder).unwrap();
    assert_eq!(source.build().unwrap(), cell);
    // What is not stored is named.
    let mut partial = source.clone();
    partial.files.remove(&folder.join("panda.srdf"));
    let message = partial.build().unwrap_err().to_string();
    assert!(message.contains("panda.srdf"), "{message}");
}

#[test]
fn options_that_apply_to_urdf_only_are_refused_for_a_cell_file() {
    let options = CellOptions {
        srdf: Some("x.srdf".into()),
        ..CellOptions::default()
    };
    let message = CellSource::read(&root().join("data/cells/ur5_irb120.toml"), &options)
        .unwrap_err()
        .to_string();
    assert!(message.contains("apply to a URDF model"), "{message}");
}
