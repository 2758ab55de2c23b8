//! `robocollide distance` end to end, as a user runs it.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn robocollide(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_robocollide"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    if let Some(text) = stdin {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    }
    drop(child.stdin.take());
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn one_pair_readable_and_json() {
    let args = [
        "distance",
        "--a",
        "capsule 0,0,0 1,0,0 0.1",
        "--b",
        "sphere 0.5,0.5,0 0.2",
    ];
    let out = robocollide(&args, None);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(
        text.contains("capsule–sphere: distance 0.2 m (apart)"),
        "{text}"
    );
    assert!(text.contains("witness on a: (0.5, 0.1, 0)"), "{text}");

    let mut json_args = args.to_vec();
    json_args.push("--json");
    let out = robocollide(&json_args, None);
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert!((v["distance"].as_f64().unwrap() - 0.2).abs() < 1e-12);
    assert_eq!(v["normal"], serde_json::json!([0.0, 1.0, 0.0]));
}

#[test]
fn bad_shape_argument_names_the_value_and_fails() {
    let out = robocollide(
        &["distance", "--a", "sphere 0,0,0 -1", "--b", "point 1,1,1"],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("sphere.radius must be a radius >= 0, got -1"),
        "{err}"
    );
    let out = robocollide(&["distance", "--a", "sphere 0,0,0 1"], None);
    assert!(!out.status.success(), "missing --b must fail");
}

#[test]
fn help_documents_the_shape_syntax() {
    let out = robocollide(&["distance", "--help"], None);
    let text = stdout(&out);
    for needle in [
        "cylinder AX,AY,AZ BX,BY,BZ RADIUS",
        "--batch",
        "{\"line\": n, \"error\": \"...\"}",
    ] {
        assert!(text.contains(needle), "help lacks {needle}:\n{text}");
    }
}

const GOOD: &str = r#"{"a": {"capsule": {"a": [0,0,0], "b": [1,0,0], "radius": 0.1}}, "b": {"sphere": {"center": [0.5,0.5,0], "radius": 0.2}}}"#;

#[test]
fn batch_answers_every_line_in_order_and_reports_bad_ones() {
    let input = [
        GOOD,
        r#"{"a": {"point": [0,0,0]}, "b": {"cylinder": {"a": [0,0,1], "b": [0,0,2], "radius": 0.5}}}"#,
        r#"{"a": {"sphere": {"center": [0,0,0], "radius": -1}}, "b": {"point": [1,1,1]}}"#,
        "not json",
        "",
        r#"{"a": {"cone": {}}, "b": {"point": [1,1,1]}}"#,
        r#"{"a": {"cylinder": {"a": [1,1,1], "b": [1,1,1], "radius": 1}}, "b": {"point": [0,0,0]}}"#,
        GOOD,
    ]
    .join("\n");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pairs.jsonl");
    std::fs::write(&path, &input).unwrap();
    for (args, stdin) in [
        (vec!["distance", "--batch", path.to_str().unwrap()], None),
        (vec!["distance", "--batch", "-"], Some(input.as_str())),
    ] {
        let out = robocollide(&args, stdin);
        assert_eq!(out.status.code(), Some(1), "bad lines → exit 1");
        let lines: Vec<serde_json::Value> = stdout(&out)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 8, "one answer per input line");
        assert!((lines[0]["distance"].as_f64().unwrap() - 0.2).abs() < 1e-12);
        assert_eq!(lines[1]["distance"].as_f64().unwrap(), 1.0);
        assert_eq!(lines[2]["line"], 3);
        assert_eq!(
            lines[2]["error"],
            "a.sphere.radius must be a radius >= 0, got -1"
        );
        assert_eq!(lines[3]["line"], 4);
        assert_eq!(lines[4]["line"], 5);
        assert!(
            lines[5]["error"]
                .as_str()
                .unwrap()
                .contains("unknown variant `cone`"),
            "{}",
            lines[5]
        );
        assert!(
            lines[6]["error"]
                .as_str()
                .unwrap()
                .contains("a.cylinder: the axis end points coincide"),
            "{}",
            lines[6]
        );
        assert_eq!(lines[7], lines[0]);
    }
}

#[test]
fn batch_of_good_lines_exits_zero() {
    let out = robocollide(
        &["distance", "--batch", "-"],
        Some(&format!("{GOOD}\n{GOOD}\n")),
    );
    assert!(out.status.success());
    assert_eq!(stdout(&out).lines().count(), 2);
}

#[test]
fn missing_batch_file_is_a_clear_error() {
    let out = robocollide(&["distance", "--batch", "/nonexistent/pairs.jsonl"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("cannot open batch file /nonexistent/pairs.jsonl")
    );
}
