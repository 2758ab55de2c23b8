//! Issue 9's command-line bugs, one regression test each: every example answers within a
//! second with a correct result or a clear error naming the bad value (exit status 2).

mod common;

use common::{data, robocollide};

/// Runs and returns (exit code, stdout, stderr).
fn run(args: &[&str]) -> (i32, String, String) {
    let o = robocollide(args);
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn regression_huge_capsule_is_not_apart() {
    let (code, out, _) = run(&[
        "distance",
        "--a",
        "capsule 1e155,0,0 -1e155,0,0 0.1",
        "--b",
        "sphere 0,0,0 1",
        "--json",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(
        (v["distance"].as_f64().unwrap() + 1.1).abs() < 1e-12,
        "{out}"
    );
}

#[test]
fn regression_cylinder_side_witnesses() {
    let (_, out, _) = run(&[
        "distance",
        "--a",
        "cylinder 0,0,0 0,0,1 0.5",
        "--b",
        "segment 0.5,-1,0.5 0.5,1,0.5",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    for key in ["point_a", "point_b"] {
        let p: Vec<f64> = serde_json::from_value(v[key].clone()).unwrap();
        assert!(
            (p[0] - 0.5).abs() < 1e-12 && p[1].abs() < 1e-12 && (p[2] - 0.5).abs() < 1e-12,
            "{out}"
        );
    }
}

#[test]
fn regression_batch_of_a_directory_is_one_error() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = run(&["distance", "--batch", dir.path().to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("not a regular file") && err.lines().count() == 1,
        "{err}"
    );
    let (code, _, err) = run(&["distance", "--batch", "/dev/zero"]);
    assert_eq!(code, 2);
    assert!(err.contains("/dev/zero"), "{err}");
    let (code, _, err) = run(&["check", "/dev/zero"]);
    assert_eq!(code, 2);
    assert!(err.contains("not a regular file"), "{err}");
}

#[test]
fn regression_numeric_options_are_range_checked() {
    for (args, needle) in [
        (
            &["plan", "--time-limit", "1e300"][..],
            "--time-limit must be between",
        ),
        (
            &["plan", "--max-step", "0"][..],
            "--max-step must be between",
        ),
        (
            &["plan", "--max-iterations", "0"][..],
            "--max-iterations must be between 1 and 10000000, got 0",
        ),
        (
            &["plan", "--max-iterations", "20000001"][..],
            "--max-iterations must be between 1 and 10000000, got 20000001",
        ),
        (
            &["plan", "--dynamic-domain", "4"][..],
            "--dynamic-domain takes RADIUS,MIN (rad) or off, got \"4\"",
        ),
        (
            &["plan", "--dynamic-domain", "4,nan"][..],
            "--dynamic-domain MIN must be between",
        ),
        (
            &["plan", "--dynamic-domain", "1,2"][..],
            "--dynamic-domain: MIN 2 exceeds RADIUS 1",
        ),
        (
            &["plan", "--dynamic-domain", "x,1"][..],
            "--dynamic-domain: RADIUS \"x\" is not a number",
        ),
        (
            &["plan", "--point-shortcuts", "100001"][..],
            "--point-shortcuts must be between 0 and 100000, got 100001",
        ),
        (
            &["avoid", "--duration", "1e9"][..],
            "--duration must be between",
        ),
        (
            &["avoid", "--duration", "3000", "--dt", "0.0001"][..],
            "control periods",
        ),
        (&["avoid", "--goal", "1,2,3"][..], "need a CELL file"),
    ] {
        let (code, _, err) = run(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(
            err.contains("1e300") || !args.contains(&"1e300"),
            "value not named: {err}"
        );
    }
}

#[test]
fn regression_out_errors_name_the_path() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    let out = file.join("sub");
    let (code, _, err) = run(&["plan2d", "--out", out.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains(out.to_str().unwrap()), "{err}");
}

#[test]
fn regression_messages_use_cell_units_and_no_debug_formatting() {
    let (code, out, err) = run(&[
        "check",
        &data("cells/ur5_irb120.toml"),
        "--q=10.6,-175.9,-30.5,28.8,-172.8,400",
        "--q",
        "0,0,0,0,0,0",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains("joint 6 (wrist_3) = 400 deg is outside its limits [-360, 360] deg"),
        "{err}"
    );
    assert!(
        out.contains("witness points (") && !out.contains("Some("),
        "debug formatting in {out}"
    );
    assert!(out.contains("models: R1 UR5 (precise"), "{out}");
    // Aligned table: every row of the pair table has the type column at the same offset.
    let rows: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.contains("distance [m]"))
        .collect();
    let at = rows[0].find("type").unwrap();
    assert!(rows[1..].iter().all(|r| r[at - 2..at] == *"  "), "{out}");
    // Huge numbers in scientific notation.
    let (_, out, _) = run(&[
        "distance",
        "--a",
        "sphere 1e300,0,0 1",
        "--b",
        "point 0,0,0",
    ]);
    assert!(out.contains("1e300") && out.len() < 400, "{out}");
    let (_, _, err) = run(&["check", &data("cells/ur5_irb120.toml"), "--threshold", "-1"]);
    assert!(!err.contains("Some("), "{err}");
}

#[test]
fn regression_epoch_sweep_returns() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("epoch.csv");
    std::fs::write(
        &csv,
        "t,a1,a2,a3,a4,a5,a6,b1,b2,b3,b4,b5,b6\n1700000000,0,0,0,0,0,0,0,0,0,0,0,0\n1700000001,180,-60,60,-90,0,0,0,30,0,0,0,0\n",
    )
    .unwrap();
    let cell = data("cells/ur5_irb120.toml");
    let (code, out, _) = run(&[
        "sweep",
        &cell,
        csv.to_str().unwrap(),
        "--min-interval",
        "1e-300",
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("FIRST CONTACT"), "{out}");
    assert!(out.contains("1e-300 s"), "{out}");
}
