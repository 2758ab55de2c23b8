//! `robocollide plan --problems`: a MotionBenchMaker subset planned and certified, VAMP's
//! recorded paths re-checked (two of them pass through an obstacle between waypoints), the
//! invalid problem reported, bad files named.

mod common;

use common::{data, robocollide, text};
use std::path::Path;

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/vamp")
        .join(name)
        .display()
        .to_string()
}

/// Runs `plan --problems FILE` on the shipped Panda with `extra` arguments.
fn plan_problems(file: &str, extra: &[&str]) -> std::process::Output {
    robocollide(
        &plan_problems_args(file, extra)
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    )
}

/// The arguments of [`plan_problems`].
fn plan_problems_args(file: &str, extra: &[&str]) -> Vec<String> {
    let (urdf, srdf) = (
        data("robots/panda/panda_spherized.urdf"),
        data("robots/panda/panda.srdf"),
    );
    let mut args: Vec<String> = [
        "plan",
        "--problems",
        file,
        "--robot",
        &urdf,
        "--srdf",
        &srdf,
    ]
    .map(String::from)
    .to_vec();
    args.extend(extra.iter().map(|a| a.to_string()));
    args
}

#[test]
fn vamp_paths_through_obstacles_are_found_and_named() {
    let report = std::env::temp_dir().join(format!("mbm-{}.json", std::process::id()));
    let vamp_paths = fixture("vamp_paths_subset.json");
    let report_path = report.display().to_string();
    let out = plan_problems(
        &fixture("mbm_problems_subset.json"),
        &[
            "--vamp-paths",
            &vamp_paths,
            "--no-plan",
            "--json",
            &report_path,
        ],
    );
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(
        stdout.contains("VAMP raw paths re-checked by the guaranteed sweep: 2 of 3 touch"),
        "{stdout}"
    );
    assert!(
        stdout.contains("bookshelf_small #22: enters at segment 9"),
        "{stdout}"
    );
    assert!(stdout.contains("W-shelf_top"), "{stdout}");
    let records: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    std::fs::remove_file(&report).ok();
    let records = records.as_array().unwrap();
    assert_eq!(records.len(), 4);
    let invalid: Vec<_> = records.iter().filter(|r| r["valid"] == false).collect();
    assert_eq!(invalid.len(), 1);
    assert_eq!(invalid[0]["family"], "table_pick");
    assert_eq!(invalid[0]["index"], 41);
    assert!(
        invalid[0]["invalid_reason"]
            .as_str()
            .unwrap()
            .contains("in collision"),
        "{}",
        invalid[0]
    );
    let through = records
        .iter()
        .find(|r| r["family"] == "bookshelf_small" && r["index"] == 50)
        .unwrap();
    let contact = &through["vamp"]["raw"]["contact"];
    assert_eq!(contact["between_samples"], true);
    assert!(contact["pair"]["distance"].as_f64().unwrap() <= 0.0);
}

#[test]
fn problems_are_planned_and_certified() {
    let report = std::env::temp_dir().join(format!("mbm-planned-{}.json", std::process::id()));
    let report_path = report.display().to_string();
    let out = plan_problems(
        &fixture("mbm_problems_subset.json"),
        &[
            "--family",
            "table_pick",
            "--time-limit",
            "20",
            "--json",
            &report_path,
        ],
    );
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(
        stdout.contains("table_pick            2 problems,    1 valid,    1 solved and certified"),
        "{stdout}"
    );
    // The scene's set-up is timed apart from the search, for the valid problem only.
    assert!(
        stdout.contains("robocollide set-up per scene (before the search): 1 scene(s), median "),
        "{stdout}"
    );
    // How the search's motion checks ended: printed as shares, kept per problem.
    assert!(
        stdout.contains("robocollide searches' motion checks: ")
            && stdout.contains("in 1 search(es); "),
        "{stdout}"
    );
    let records: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    std::fs::remove_file(&report).ok();
    let solved = records
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["solved"].as_bool() == Some(true))
        .expect("a solved problem");
    let motions = &solved["search_motions"];
    let count = |kind: &str| {
        motions[kind]
            .as_u64()
            .unwrap_or_else(|| panic!("{kind}: {solved}"))
    };
    let searched: u64 = [
        "invalid",
        "blocked_inside",
        "blocked_at_end",
        "refused",
        "certified",
    ]
    .iter()
    .map(|kind| count(kind))
    .sum();
    assert!(
        count("certified") >= 1 && count("invalid") == 0,
        "{motions}"
    );
    assert!(
        searched <= solved["motions_checked"].as_u64().unwrap(),
        "{solved}"
    );
    let set_up: Vec<bool> = records
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["valid"].as_bool().unwrap() == r["setup_ns"].as_u64().is_some_and(|ns| ns > 0))
        .collect();
    assert_eq!(set_up, [true, true], "{records}");
    assert!(
        stdout.contains(
            "RRT-Connect: max step 1 rad, balanced trees, Halton samples, dynamic domain radius 4 rad, least 1 rad"
        ),
        "{stdout}"
    );
}

/// Paths are certified after every search, on as many threads as the process may use: the
/// records (verdicts, sweeps, VAMP's re-checked paths, errors) are the same on one thread as
/// on three, all but the times.
#[test]
fn certification_threads_change_no_record() {
    let (problems, vamp_paths) = (
        fixture("mbm_problems_subset.json"),
        fixture("vamp_paths_subset.json"),
    );
    let records = |threads: &str| {
        let report =
            std::env::temp_dir().join(format!("mbm-threads-{threads}-{}.json", std::process::id()));
        let report_path = report.display().to_string();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_robocollide"))
            .env("RAYON_NUM_THREADS", threads)
            .args(plan_problems_args(
                &problems,
                &["--vamp-paths", &vamp_paths, "--json", &report_path],
            ))
            .output()
            .expect("binary runs");
        let (stdout, stderr) = text(&out);
        assert!(out.status.success(), "{stdout}{stderr}");
        let mut records: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
        std::fs::remove_file(&report).ok();
        for record in records.as_array_mut().unwrap() {
            let record = record.as_object_mut().unwrap();
            for time in ["planning_ns", "simplify_ns", "setup_ns"] {
                record.remove(time);
            }
        }
        records
    };
    let one = records("1");
    assert_eq!(one.as_array().unwrap().len(), 4);
    assert!(
        one.as_array()
            .unwrap()
            .iter()
            .any(|r| r["certified"] == true && r["sweep"]["certified"] == true),
        "{one}"
    );
    assert_eq!(one, records("3"));
}

/// The planner's options reach every problem (and the run says which it used).
#[test]
fn planner_options_are_passed_to_every_problem() {
    let out = plan_problems(
        &fixture("mbm_problems_subset.json"),
        &[
            "--family",
            "table_pick",
            "--time-limit",
            "20",
            "--no-balance",
            "--sampler",
            "uniform",
            "--max-step",
            "0.3",
            "--dynamic-domain",
            "2,0.5",
            "--point-shortcuts",
            "30",
        ],
    );
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(
        stdout.contains("RRT-Connect: max step 0.3 rad, alternating trees, uniform (seeded) samples, dynamic domain radius 2 rad, least 0.5 rad"),
        "{stdout}"
    );
    assert!(
        stdout
            .contains("robocollide shortcutting (200 attempts, then 30 between points): 1 solved"),
        "{stdout}"
    );
    assert!(
        stdout.contains("robocollide path length after shortcutting: median "),
        "{stdout}"
    );
    assert!(
        stdout.contains("table_pick            2 problems,    1 valid,    1 solved and certified"),
        "{stdout}"
    );
}

#[test]
fn the_iteration_limit_is_passed_to_every_problem() {
    let report = std::env::temp_dir().join(format!("rc-iterations-{}.json", std::process::id()));
    let report_text = report.to_string_lossy().into_owned();
    let out = plan_problems(
        &fixture("mbm_problems_subset.json"),
        &[
            "--family",
            "bookshelf_small",
            "--max-iterations",
            "1",
            "--json",
            &report_text,
        ],
    );
    let (stdout, stderr) = text(&out);
    // Unsolved is not uncertified: the exit status is 0 (every returned path was certified).
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(
        stdout.contains("bookshelf_small       2 problems,    2 valid,    0 solved and certified"),
        "{stdout}"
    );
    assert!(
        stdout.contains("robocollide search (every motion certified): none solved")
            && !stdout.contains("NaN"),
        "{stdout}"
    );
    let records: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    std::fs::remove_file(&report).ok();
    let records = records.as_array().unwrap();
    assert_eq!(records.len(), 2, "{records:?}");
    for record in records {
        let error = record["error"].as_str().unwrap_or_default();
        assert!(error.contains("no path within 1 iterations"), "{record}");
    }
}

#[test]
fn bad_problem_files_and_arguments_are_named() {
    let out = plan_problems(&data("cells/ur5_irb120.toml"), &[]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("ur5_irb120.toml: not a problem set"),
        "{stderr}"
    );
    let out = robocollide(&["plan", "--problems", &fixture("mbm_problems_subset.json")]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--problems needs --robot URDF"), "{stderr}");
    let out = plan_problems(
        &fixture("mbm_problems_subset.json"),
        &["--family", "kitchen"],
    );
    let (_, stderr) = text(&out);
    assert!(stderr.contains("no family kitchen"), "{stderr}");
}
