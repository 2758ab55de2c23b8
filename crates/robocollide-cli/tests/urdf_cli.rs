//! URDF robots from the command line: `check`, `sweep` and `plan` on a URDF given directly or
//! through a cell, named joint values, and errors for bad input.

mod common;

use common::{data, robocollide, text};

fn panda() -> (String, String) {
    (
        data("robots/panda/panda_spherized.urdf"),
        data("robots/panda/panda.srdf"),
    )
}

#[test]
fn check_a_urdf_with_its_srdf_prints_the_usual_report() {
    let (urdf, srdf) = panda();
    let o = robocollide(&[
        "check",
        &urdf,
        "--srdf",
        &srdf,
        "--q",
        "0,-0.785,0,-2.356,0,1.571,0.785",
        "--json",
    ]);
    let (stdout, stderr) = text(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["collision"], false);
    let robot = &report["robots"][0];
    assert_eq!(robot["bodies"], 59);
    assert_eq!(robot["allowed_link_pairs"].as_array().unwrap().len(), 34);
    assert!(robot["self_pairs"].as_u64().unwrap() > 0);
    assert_eq!(report["pairs_checked"], robot["self_pairs"]);
    // The text form says which link pairs the SRDF allows.
    let o = robocollide(&[
        "check",
        &urdf,
        "--srdf",
        &srdf,
        "--q",
        "0,-0.785,0,-2.356,0,1.571,0.785",
    ]);
    assert!(
        text(&o)
            .0
            .contains("34 link pairs allowed (Adjacent 10, Never 23, Default 1)")
    );
}

#[test]
fn named_joint_values_start_from_home() {
    let (urdf, srdf) = panda();
    let o = robocollide(&[
        "check",
        &urdf,
        "--srdf",
        &srdf,
        "--q",
        "panda_joint4=-1.2",
        "--json",
    ]);
    let (stdout, stderr) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{stdout}\n{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["collision"], true);
    let o = robocollide(&["check", &urdf, "--q", "panda_elbow=1"]);
    let (_, stderr) = text(&o);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr.contains("no joint `panda_elbow` (joints, in order: panda_joint1, panda_joint2"),
        "{stderr}"
    );
    let o = robocollide(&["check", &urdf, "--q", "panda_joint1=1,2"]);
    assert!(text(&o).1.contains("give every value as name=value"));
}

#[test]
fn srdf_states_can_be_named() {
    let (urdf, srdf) = panda();
    let o = robocollide(&["check", &urdf, "--srdf", &srdf, "--q", "ready", "--json"]);
    let (stdout, stderr) = text(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    let o = robocollide(&["check", &urdf, "--srdf", &srdf, "--q", "readyy"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains(
        "no named state `readyy` (the SRDF's states: ready, extended, transport, open, close)"
    ));
}

#[test]
fn a_cell_of_urdf_robots_checks_robot_robot_and_self_pairs() {
    let cell = data("cells/two_pandas.toml");
    let o = robocollide(&["check", &cell, "--json"]);
    let (stdout, stderr) = text(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    let o = robocollide(&[
        "check",
        &cell,
        "--q",
        "panda_joint2=60,panda_joint4=-30",
        "--q",
        "panda_joint2=60,panda_joint4=-30",
        "--json",
    ]);
    let (stdout, _) = text(&o);
    assert_eq!(o.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let closest = &report["closest"];
    assert_ne!(closest["a"]["robot"], closest["b"]["robot"], "{closest}");
}

#[test]
fn sweep_and_plan_accept_a_urdf() {
    let (urdf, srdf) = panda();
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("motion.csv");
    std::fs::write(
        &csv,
        "t,j1,j2,j3,j4,j5,j6,j7\n0,0,-0.785,0,-2.356,0,1.571,0.785\n1,0,0,0,-1.2,0,0,0\n",
    )
    .unwrap();
    let out = dir.path().join("sweep");
    let o = robocollide(&[
        "sweep",
        &urdf,
        "--srdf",
        &srdf,
        csv.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let (stdout, stderr) = text(&o);
    assert!(o.status.code() == Some(1), "{stdout}\n{stderr}");
    assert!(stdout.contains("FIRST CONTACT"), "{stdout}");
    let plan_out = dir.path().join("plan");
    let o = robocollide(&[
        "plan",
        &urdf,
        "--srdf",
        &srdf,
        "--robot",
        "R1",
        "--start",
        "0,-0.785,0,-2.356,0,1.571,0.785",
        "--goal",
        "1.5,-0.3,0,-2.0,0,1.8,0.785",
        "--out",
        plan_out.to_str().unwrap(),
    ]);
    let (stdout, stderr) = text(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
}

#[test]
fn urdf_options_on_a_cell_file_and_bad_urdf_are_clear_errors() {
    let o = robocollide(&["check", &data("cells/ur5_irb120.toml"), "--srdf", "x.srdf"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o)
            .1
            .contains("an SRDF (--srdf) and cylinders-as-capsules apply to a URDF model")
    );
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.urdf");
    std::fs::write(
        &bad,
        "<robot name=\"r\">\n  <link name=\"a\"/>\n  <link name=\"a\"/>\n</robot>\n",
    )
    .unwrap();
    let o = robocollide(&["check", bad.to_str().unwrap()]);
    let (_, stderr) = text(&o);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr.contains("bad.urdf: line 3: link `a` is defined twice (first on line 2)"),
        "{stderr}"
    );
}
