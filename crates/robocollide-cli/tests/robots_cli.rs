//! `robocollide check`, `sweep` and `demo` end to end, as a user runs them.

mod common;

use common::{data, robocollide, text};

use std::path::PathBuf;

#[test]
fn demo_writes_report_plots_and_picture() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("demo");
    let o = robocollide(&["demo", "--out", out.to_str().unwrap()]);
    let (stdout, stderr) = text(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("the guaranteed sweep finds a contact at t = 2.17"),
        "{stdout}"
    );
    assert!(stdout.contains("FIRST CONTACT at t = 4.5 s"), "{stdout}");
    for file in [
        "report.json",
        "sweep.json",
        "distance.csv",
        "distance.png",
        "distance.svg",
        "closest.png",
        "first_contact.png",
    ] {
        let meta = std::fs::metadata(out.join(file)).unwrap_or_else(|_| panic!("{file} missing"));
        assert!(meta.len() > 1000, "{file} too small");
    }
    let png = std::fs::read(out.join("closest.png")).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    let svg = std::fs::read_to_string(out.join("distance.svg")).unwrap();
    assert!(svg.contains("<svg") && svg.contains("minimum distance"));
}

/// Rendered 3-D pictures: `check --picture` and `show` (three levels side by side) write PNGs
/// whose pixels are not all background.
#[test]
fn check_and_show_render_3d_pictures() {
    let dir = tempfile::tempdir().unwrap();
    let picture = dir.path().join("check.png");
    let o = robocollide(&[
        "check",
        &data("cells/ur5_irb120.toml"),
        "--q",
        "180,-60,60,-90,0,0",
        "--q",
        "0,30,0,0,0,0",
        "--picture",
        picture.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{:?}", text(&o));
    let show = dir.path().join("show.png");
    let o = robocollide(&[
        "show",
        &data("robots/ur5.toml"),
        "--out",
        show.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{:?}", text(&o));
    assert!(text(&o).0.contains("3 panel(s)"));
    for png in [picture, show] {
        let bytes = std::fs::read(&png).unwrap();
        assert_eq!(&bytes[1..4], b"PNG");
        assert!(
            bytes.len() > 20_000,
            "{} is {} bytes",
            png.display(),
            bytes.len()
        );
    }
    let o = robocollide(&["show", &data("robots/ur5.toml"), "--srdf", "x.srdf"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).1.contains("--srdf applies to a URDF model"),
        "{:?}",
        text(&o)
    );
}

#[test]
fn check_seed004_scene_lists_every_contact() {
    let o = robocollide(&["check", &data("scenes/seed004_table3.toml"), "--json"]);
    assert_eq!(o.status.code(), Some(1), "collision → exit 1");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["collision"], true);
    let pairs: Vec<(String, String)> = v["close_pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["a"]["label"].as_str().unwrap().into(),
                p["b"]["label"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert!(pairs.contains(&("R1-f6".into(), "R2-g5".into())));
    assert!(pairs.len() > 1);
    assert_eq!(
        v["close_pairs"][0]["pair_type"]
            .as_str()
            .unwrap()
            .split('-')
            .count(),
        2
    );
}

#[test]
fn check_cell_configurations_and_bad_input() {
    let cell = data("cells/ur5_irb120.toml");
    // Home: clear.
    let o = robocollide(&["check", &cell]);
    assert!(o.status.success(), "{:?}", text(&o));
    // Arms meeting: collision, labelled elements.
    let o = robocollide(&[
        "check",
        &cell,
        "--q",
        "180,-60,60,-90,0,0",
        "--q",
        "0,30,0,0,0,0",
    ]);
    let (stdout, _) = text(&o);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout.contains("COLLISION") && stdout.contains("R1-C3 (forearm)"),
        "{stdout}"
    );
    // Wrong joint count: exit 2, robot and counts named.
    let o = robocollide(&["check", &cell, "--q", "0,0,0"]);
    let (_, stderr) = text(&o);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr.contains("R1: wrong joint count: expected 6 value(s), got 3"),
        "{stderr}"
    );
    // NaN: named.
    let o = robocollide(&["check", &cell, "--q", "0,nan,0,0,0,0"]);
    assert!(
        text(&o).1.contains("must be finite, got NaN"),
        "{:?}",
        text(&o)
    );
    // Outside limits: a warning by default, an error with --strict-limits.
    let args = [
        "check",
        &cell,
        "--q",
        "0,-90,0,-90,0,0",
        "--q",
        "170,0,0,0,0,0",
    ];
    let o = robocollide(&args);
    assert!(
        o.status.success()
            && text(&o)
                .1
                .contains("warning: R2: joint 1 = 170 deg is outside its limits [-165, 165] deg"),
        "{:?}",
        text(&o)
    );
    let mut strict = args.to_vec();
    strict.push("--strict-limits");
    let o = robocollide(&strict);
    assert_eq!(o.status.code(), Some(2));
    // A malformed model: file, line and field named.
    let dir = tempfile::tempdir().unwrap();
    let robot = std::fs::read_to_string(data("robots/ur5.toml"))
        .unwrap()
        .replace("d = 0.10915", "d = \"long\"");
    std::fs::write(dir.path().join("ur5.toml"), robot).unwrap();
    std::fs::write(
        dir.path().join("cell.toml"),
        "name = \"c\"\n[[robots]]\nmodel = \"ur5.toml\"\n",
    )
    .unwrap();
    let o = robocollide(&["check", dir.path().join("cell.toml").to_str().unwrap()]);
    let (_, stderr) = text(&o);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr.contains("ur5.toml")
            && stderr.contains("line 34")
            && stderr.contains("invalid type: string \"long\", expected f64"),
        "{stderr}"
    );
}

#[test]
fn sweep_writes_outputs_and_names_bad_rows() {
    let cell = data("cells/ur5_irb120.toml");
    let dir = tempfile::tempdir().unwrap();
    let out: PathBuf = dir.path().join("sweep");
    let (html, picture) = (dir.path().join("sweep.html"), dir.path().join("first.png"));
    let o = robocollide(&[
        "sweep",
        &cell,
        "--out",
        out.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
        "--picture",
        picture.to_str().unwrap(),
    ]);
    let (stdout, _) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("FIRST CONTACT at t = 2.17"), "{stdout}");
    for file in ["distance.csv", "sweep.json", "distance.png", "distance.svg"] {
        assert!(out.join(file).exists(), "{file}");
    }
    // The viewer holds the moments and the first contact; the picture is a PNG.
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        page.contains("\"contacts\":[[2.17") && page.contains("R1-S7 (wrist_3)"),
        "viewer data"
    );
    assert_eq!(&std::fs::read(&picture).unwrap()[1..4], b"PNG");
    // The same trajectory, rows only: the first contact is found late.
    let o = robocollide(&["sweep", &cell, "--sampled"]);
    assert!(text(&o).0.contains("FIRST CONTACT at t = 4.5 s"));
    // A malformed row.
    let bad = dir.path().join("bad.csv");
    std::fs::write(
        &bad,
        "t,a,b,c,d,e,f,g,h,i,j,k,l\n0,0,0,0,0,0,0,0,0,0,0,0,0\n1,0,0,x,0,0,0,0,0,0,0,0,0\n",
    )
    .unwrap();
    let o = robocollide(&["sweep", &cell, bad.to_str().unwrap()]);
    let (_, stderr) = text(&o);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr.contains("line 3, column 4 (`c`): `x` is not a number"),
        "{stderr}"
    );
    std::fs::write(&bad, "t,a,b\n0,0,0\n").unwrap();
    let o = robocollide(&["sweep", &cell, bad.to_str().unwrap()]);
    assert!(
        text(&o).1.contains("header has 3 columns; expected 13"),
        "{:?}",
        text(&o)
    );
}

#[test]
fn avoid_keeps_the_robots_apart_and_writes_plots() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("avoid");
    let o = robocollide(&["avoid", "--out", out.to_str().unwrap()]);
    let (stdout, stderr) = text(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("without filter") && stdout.contains("(COLLISION)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("with filter") && stdout.contains("(kept apart)"),
        "{stdout}"
    );
    for file in ["avoid.csv", "avoid.json", "avoid.png", "avoid.svg"] {
        assert!(
            std::fs::metadata(out.join(file)).unwrap().len() > 1000,
            "{file}"
        );
    }
    // A user's cell needs goals; a bad hold label is named.
    let cell = data("cells/ur5_irb120.toml");
    let o = robocollide(&["avoid", &cell]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("give --goal"), "{:?}", text(&o));
    let o = robocollide(&[
        "avoid",
        &cell,
        "--goal",
        "180,-60,60,-90,0,0",
        "--goal",
        "0,30,0,0,0,0",
        "--hold",
        "R9",
    ]);
    assert!(
        text(&o)
            .1
            .contains("--hold R9: no robot with joints has that label (robots: R1, R2)"),
        "{:?}",
        text(&o)
    );
    // One robot held still: the other avoids it.
    let o = robocollide(&[
        "avoid",
        &cell,
        "--start",
        "90,-90,0,-90,0,0",
        "--start",
        "0,30,0,0,0,0",
        "--goal",
        "180,-60,60,-90,0,0",
        "--goal",
        "0,30,0,0,0,0",
        "--hold",
        "R2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{:?}", text(&o));
}

/// Seed 002's use case: NAO bumps his chest with his left arm, with and without the filter.
#[test]
fn avoid_nao_keeps_the_left_arm_off_the_chest() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("nao");
    for form in ["damped", "literal"] {
        let o = robocollide(&[
            "avoid",
            "--scenario",
            "nao",
            "--form",
            form,
            "--out",
            out.to_str().unwrap(),
        ]);
        let (stdout, stderr) = text(&o);
        assert!(o.status.success(), "{stdout}\n{stderr}");
        assert!(stdout.contains("protected chain R1:LArm"), "{stdout}");
        assert!(
            stdout.contains("without filter   closest -0.02")
                && stdout.contains("R1-torso / R1-l_hand (COLLISION)"),
            "{stdout}"
        );
        assert!(
            stdout.contains("with filter      closest 0.01 m") && stdout.contains("(kept apart)"),
            "{stdout}"
        );
    }
    for file in [
        "avoid.json",
        "avoid.png",
        "closest_filtered.png",
        "closest_unfiltered.png",
    ] {
        assert!(
            std::fs::metadata(out.join(file)).unwrap().len() > 1000,
            "{file}"
        );
    }
    // The same from the files, with the stiffness rule: the left arm pushed into the right
    // one, which gets out of the way.
    let (urdf, srdf) = (data("robots/nao/nao.urdf"), data("robots/nao/nao.srdf"));
    let right = "RShoulderPitch=0.5,RShoulderRoll=0.2,RElbowYaw=0.5,RElbowRoll=1.2";
    let o = robocollide(&[
        "avoid",
        &urdf,
        "--srdf",
        &srdf,
        "--self-collision",
        "--protect",
        "Arms",
        "--limp",
        "LArm",
        "--influence",
        "0.08",
        "--safety",
        "0.01",
        "--duration",
        "3",
        "--start",
        &format!("stand,{right}"),
        "--goal",
        &format!(
            "stand,{right},LShoulderPitch=0.5,LShoulderRoll=-0.3,LElbowYaw=-0.5,LElbowRoll=-1.3"
        ),
        "--out",
        out.to_str().unwrap(),
    ]);
    let (stdout, stderr) = text(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("R1:LArm is not stiff"), "{stdout}");
    assert!(
        stdout.contains("R1-l_hand / R1-r_hand (COLLISION)") && stdout.contains("(kept apart)"),
        "{stdout}"
    );
    // Bad chains are named with the groups there are.
    for (args, message) in [
        (
            &["--protect", "Tail"][..],
            "no group `Tail` (groups: Head, LArm, RArm, Arms",
        ),
        (
            &["--protect", "LArm", "--limp", "RArm"][..],
            "`RArm` is not a protected chain (protected: LArm)",
        ),
        (
            &["--protect", "LArm", "--limp", "Nose"][..],
            "--limp Nose: not a group",
        ),
    ] {
        let mut all = vec!["avoid", &urdf, "--srdf", &srdf, "--goal", "stand"];
        all.extend(args);
        let o = robocollide(&all);
        assert_eq!(o.status.code(), Some(2), "{:?}", text(&o));
        assert!(text(&o).1.contains(message), "{message}: {:?}", text(&o));
    }
}

#[test]
fn plan_finds_a_verified_path_that_sweep_accepts() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("plan");
    let o = robocollide(&["plan", "--out", out.to_str().unwrap()]);
    let (stdout, stderr) = text(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("verification (guaranteed sweep of the whole path): no contact"),
        "{stdout}"
    );
    for file in [
        "path.csv",
        "plan.json",
        "distance.png",
        "distance.svg",
        "path.png",
    ] {
        assert!(out.join(file).exists(), "{file}");
    }
    // The written path is a trajectory the sweep command accepts, and it is free.
    let o = robocollide(&[
        "sweep",
        &data("cells/ur5_irb120.toml"),
        out.join("path.csv").to_str().unwrap(),
    ]);
    assert!(
        o.status.success() && text(&o).0.contains("no contact along the trajectory"),
        "{:?}",
        text(&o)
    );
    // An unreachable goal (outside the joint limits): exit 1 with the reason.
    let o = robocollide(&[
        "plan",
        &data("cells/ur5_irb120.toml"),
        "--robot",
        "R1",
        "--start",
        "90,-60,60,-90,0,0",
        "--goal",
        "400,-60,60,-90,0,0",
        "--out",
        out.to_str().unwrap(),
    ]);
    let (stdout, _) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("NO PATH: planning failed: the goal configuration is in collision or outside the joint limits"), "{stdout}");
    let o = robocollide(&[
        "plan",
        &data("cells/ur5_irb120.toml"),
        "--robot",
        "R7",
        "--start",
        "0,0,0,0,0,0",
        "--goal",
        "0,0,0,0,0,0",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        text(&o).1.contains("--robot R7: no robot with that label"),
        "{:?}",
        text(&o)
    );
}

#[test]
fn plan2d_draws_the_trees_and_a_certified_path() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("plan2d");
    let o = robocollide(&["plan2d", "--out", out.to_str().unwrap()]);
    let (stdout, stderr) = text(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("every path segment certified free: true"),
        "{stdout}"
    );
    let png = std::fs::read(out.join("plan2d.png")).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("plan2d.json")).unwrap()).unwrap();
    assert!(json["plan"]["tree"].as_array().unwrap().len() > 10);
}

#[test]
fn fourc_case_study_reproduces_the_paper_and_explains_table_8() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("fourc");
    let o = robocollide(&["fourc", "--case-study", "--out", out.to_str().unwrap()]);
    let (stdout, stderr) = text(&o);
    assert_eq!(o.status.code(), Some(1), "contacts → exit 1\n{stderr}");
    for needle in [
        "C1 = 1.0882, C2 = 0.19315",
        "78.863° ↔ -78.863°",
        "c1             122.344    234.576",
        "infinite cylinders meet in 767",
        "segments 3 and 7",
        "Table 8",
    ] {
        assert!(stdout.contains(needle), "missing {needle}:\n{stdout}");
    }
    assert!(out.join("fourc.png").exists() && out.join("fourc.json").exists());
    // The mechanism at its deepest contact (segments 3 and 7, as the study reports).
    assert!(
        std::fs::metadata(out.join("fourc_contact.png"))
            .unwrap()
            .len()
            > 20_000
    );
    assert!(text(&o).0.contains("fourc_contact.png"), "{:?}", text(&o));
    // A user's file with a via point outside the range: the line and reason are named.
    let bad = dir.path().join("m.toml");
    let mechanism = std::fs::read_to_string(data("mechanisms/seed003_case_study.toml"))
        .unwrap()
        .replace("theta_deg = -27.0", "theta_deg = -85.0");
    std::fs::write(&bad, mechanism).unwrap();
    let o = robocollide(&[
        "fourc",
        bad.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("line 15: via[2]: θ = -85° is outside the input range"),
        "{:?}",
        text(&o)
    );
}
