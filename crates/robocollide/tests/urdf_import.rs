//! URDF import: a DH robot written as URDF agrees with its DH model, a branched robot with
//! mimic and prismatic joints gets its FK and Jacobians right, and bad files get errors that
//! name the file, the element and the attribute.
#![cfg(feature = "urdf")]

mod common;

use common::{assert_jacobians_match_finite_differences, flat};

use robocollide::collision::CellChecker;
use robocollide::geom::Shape;
use robocollide::math::{Isometry3, Real, Vector3};
use robocollide::robot::urdf::{UrdfOptions, load_urdf, parse_urdf};
use robocollide::robot::{Cell, DetailLevel, model_file::load_robot};
use std::path::{Path, PathBuf};

fn data(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../data")
        .join(path)
}

/// Same shape up to rounding; a capsule may have its ends swapped.
fn same_shape(a: &Shape, b: &Shape) -> bool {
    let (x, y) = (flat(a), flat(b));
    let close = |p: &[Real], q: &[Real]| p.iter().zip(q).all(|(u, v)| (u - v).abs() <= 1e-12);
    x.len() == y.len()
        && (close(&x, &y)
            || (x.len() == 7
                && close(&x[..3], &y[3..6])
                && close(&x[3..6], &y[..3])
                && close(&x[6..], &y[6..])))
}

#[test]
fn the_ur5_as_urdf_poses_and_checks_like_its_dh_model() {
    let dh = load_robot(&data("robots/ur5.toml"), Some(DetailLevel::Precise)).unwrap();
    let urdf = load_urdf(&data("robots/ur5_dh.urdf"), None, &UrdfOptions::default()).unwrap();
    assert_eq!(urdf.dof(), 6);
    assert_eq!(urdf.bodies.len(), dh.bodies.len());
    let flange = urdf.tree().link_index("flange").unwrap();
    for q in dh.sample_configurations(40) {
        let (a, b) = (dh.world_shapes(&q).unwrap(), urdf.world_shapes(&q).unwrap());
        for (body, shape) in dh.bodies.iter().zip(&a) {
            let k = urdf
                .bodies
                .iter()
                .position(|u| u.name == body.name)
                .unwrap();
            assert!(same_shape(shape, &b[k]), "{} at {q:?}", body.name);
        }
        let (fa, fb) = (dh.frames(&q).unwrap()[6], urdf.frames(&q).unwrap()[flange]);
        assert!((fa.rotation - fb.rotation).abs().max() < 1e-12);
        assert!((fa.origin - fb.origin).norm() < 1e-12);
    }
    // In the demo cell, R1 as URDF gives the same robot–robot distances (the table's allowed
    // pairs name the DH model's bodies, so the world is left out).
    let mut cell = Cell::load(&data("cells/ur5_irb120.toml")).unwrap();
    cell.robots
        .retain(|r| r.label != robocollide::robot::WORLD_LABEL);
    cell.allowed.clear();
    let mut with_urdf = cell.clone();
    let mut model = urdf;
    model.set_base(cell.robots[0].model.tree().base).unwrap();
    with_urdf.robots[0].model = model;
    let (mut a, mut b) = (
        CellChecker::new(&cell, false),
        CellChecker::new(&with_urdf, false),
    );
    for k in 0..60 {
        let q: Vec<Real> = (0..12)
            .map(|j| 3.0 * (0.37 * (k * 12 + j) as Real).sin())
            .collect();
        a.pose(&q);
        b.pose(&q);
        let (x, y) = (a.closest().unwrap().distance, b.closest().unwrap().distance);
        assert!((x - y).abs() < 1e-12, "{q:?}: {x} vs {y}");
    }
}

/// A torso with two arms (a tree), a prismatic lift, and a gripper whose second finger mimics
/// the first (multiplier −1, offset 0.01).
const BRANCHED: &str = r#"<?xml version="1.0"?>
<robot name="two-arm torso">
  <link name="torso"><collision><geometry><sphere radius="0.2"/></geometry></collision></link>
  <link name="lift"/>
  <link name="left_upper"><collision><origin xyz="0 0 0.15"/><geometry><capsule radius="0.05" length="0.3"/></geometry></collision></link>
  <link name="left_fore"><collision><origin xyz="0.1 0 0" rpy="0 1.5707963267948966 0"/><geometry><cylinder radius="0.04" length="0.2"/></geometry></collision></link>
  <link name="right_upper"><collision><origin xyz="0 0 0.15"/><geometry><capsule radius="0.05" length="0.3"/></geometry></collision></link>
  <link name="finger_a"><collision><geometry><sphere radius="0.01"/></geometry></collision></link>
  <link name="finger_b"><collision><geometry><sphere radius="0.01"/></geometry></collision></link>
  <joint name="lift" type="prismatic">
    <parent link="torso"/><child link="lift"/><origin xyz="0 0 0.3"/><axis xyz="0 0 1"/>
    <limit lower="0" upper="0.4" effort="1" velocity="1"/>
  </joint>
  <joint name="left_shoulder" type="revolute">
    <parent link="lift"/><child link="left_upper"/><origin xyz="0 0.25 0" rpy="-1.5707963267948966 0 0"/>
    <axis xyz="1 0 0"/><limit lower="-3" upper="3" effort="1" velocity="1"/>
  </joint>
  <joint name="left_elbow" type="continuous">
    <parent link="left_upper"/><child link="left_fore"/><origin xyz="0 0 0.3" rpy="0.3 0.2 0.1"/>
    <axis xyz="0 0.6 0.8"/>
  </joint>
  <joint name="right_shoulder" type="revolute">
    <parent link="lift"/><child link="right_upper"/><origin xyz="0 -0.25 0" rpy="1.5707963267948966 0 0"/>
    <axis xyz="0 -1 0"/><limit lower="-3" upper="3" effort="1" velocity="1"/>
  </joint>
  <joint name="finger_a" type="prismatic">
    <parent link="left_fore"/><child link="finger_a"/><origin xyz="0.2 0.02 0"/><axis xyz="0 1 0"/>
    <limit lower="0" upper="0.04" effort="1" velocity="1"/>
  </joint>
  <joint name="finger_b" type="prismatic">
    <parent link="left_fore"/><child link="finger_b"/><origin xyz="0.2 -0.02 0"/><axis xyz="0 1 0"/>
    <limit lower="-0.04" upper="0" effort="1" velocity="1"/>
    <mimic joint="finger_a" multiplier="-1" offset="0.01"/>
  </joint>
</robot>"#;

fn branched() -> robocollide::robot::RobotModel {
    parse_urdf(BRANCHED, "branched.urdf", None, &UrdfOptions::default()).unwrap()
}

#[test]
fn a_branched_robot_has_independent_joints_in_file_order() {
    let model = branched();
    let names: Vec<&str> = model.tree().variable_names().collect();
    assert_eq!(
        names,
        [
            "lift",
            "left_shoulder",
            "left_elbow",
            "right_shoulder",
            "finger_a"
        ]
    );
    assert_eq!(model.tree().links()[0], "torso");
    assert_eq!(model.links_without_bodies(), ["lift"]);
    // No SRDF: parent–child links are allowed; the two arms see each other.
    let left = model.tree().link_index("left_fore").unwrap();
    let right = model.tree().link_index("right_upper").unwrap();
    let pair = |l: usize, r: usize| {
        model.self_pairs.pairs.iter().any(|&(i, j)| {
            let (a, b) = (model.bodies[i].link, model.bodies[j].link);
            (a, b) == (l, r) || (a, b) == (r, l)
        })
    };
    assert!(pair(left, right));
    assert!(!pair(model.tree().link_index("left_upper").unwrap(), left));
}

#[test]
fn branched_forward_kinematics_equals_the_robot_built_by_hand() {
    let model = branched();
    let q = [0.2, 0.7, -1.1, 0.4, 0.015];
    let frames = model.tree().forward(&q).unwrap();
    let rpy = |r, p, y| nalgebra::UnitQuaternion::from_euler_angles(r, p, y);
    let axis_angle = |x: Real, y: Real, z: Real, angle: Real| {
        nalgebra::UnitQuaternion::from_axis_angle(
            &nalgebra::Unit::new_normalize(Vector3::new(x, y, z)),
            angle,
        )
    };
    let lift = Isometry3::translation(0.0, 0.0, 0.3 + 0.2);
    let left_upper =
        lift * Isometry3::from_parts(
            Vector3::new(0.0, 0.25, 0.0).into(),
            rpy(-std::f64::consts::FRAC_PI_2, 0.0, 0.0),
        ) * axis_angle(1.0, 0.0, 0.0, 0.7);
    let left_fore = left_upper
        * Isometry3::from_parts(Vector3::new(0.0, 0.0, 0.3).into(), rpy(0.3, 0.2, 0.1))
        * axis_angle(0.0, 0.6, 0.8, -1.1);
    let right_upper =
        lift * Isometry3::from_parts(
            Vector3::new(0.0, -0.25, 0.0).into(),
            rpy(std::f64::consts::FRAC_PI_2, 0.0, 0.0),
        ) * axis_angle(0.0, -1.0, 0.0, 0.4);
    let finger_a = left_fore * Isometry3::translation(0.2, 0.02 + 0.015, 0.0);
    let finger_b = left_fore * Isometry3::translation(0.2, -0.02 + (-0.015 + 0.01), 0.0);
    for (name, expected) in [
        ("lift", lift),
        ("left_upper", left_upper),
        ("left_fore", left_fore),
        ("right_upper", right_upper),
        ("finger_a", finger_a),
        ("finger_b", finger_b),
    ] {
        let got = frames[model.tree().link_index(name).unwrap()];
        let d = (got.to_homogeneous() - expected.to_homogeneous())
            .abs()
            .max();
        assert!(d < 1e-14, "{name}: {d}");
    }
}

#[test]
fn branched_jacobians_match_finite_differences_on_every_link() {
    assert_jacobians_match_finite_differences(&branched());
    assert_jacobians_match_finite_differences(&vamp_robot("baxter").0);
}

/// VAMP's sphere models of a prismatic-torso mobile manipulator (Fetch) and a two-arm robot
/// (Baxter), with their MoveIt SRDFs (which name links the sphere models lack: warned, ignored).
fn vamp_robot(name: &str) -> (robocollide::robot::RobotModel, usize) {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/vamp_robots");
    let model = load_urdf(
        &folder.join(format!("{name}_spherized.urdf")),
        Some(&folder.join(format!("{name}.srdf"))),
        &UrdfOptions::default(),
    )
    .unwrap();
    let bodies = model.bodies.len();
    (model, bodies)
}

#[test]
fn vamps_fetch_and_baxter_load_as_trees() {
    let (fetch, spheres) = vamp_robot("fetch");
    assert_eq!((fetch.dof(), spheres), (8, 111));
    assert_eq!(
        fetch
            .tree()
            .variable_kind(fetch.tree().variable_index("torso_lift_joint").unwrap()),
        robocollide::kinematics::JointKind::Prismatic
    );
    assert!(fetch.warnings[0].contains("rule(s) name links the robot does not have"));
    let (baxter, spheres) = vamp_robot("baxter");
    assert_eq!((baxter.dof(), spheres), (14, 75));
    // Two arms hang from one torso: a tree, and the arms are checked against each other.
    let left = baxter.tree().link_index("left_lower_forearm").unwrap();
    let right = baxter.tree().link_index("right_lower_forearm").unwrap();
    assert!(baxter.self_pairs.pairs.iter().any(|&(i, j)| {
        let (a, b) = (baxter.bodies[i].link, baxter.bodies[j].link);
        (a, b) == (left, right) || (a, b) == (right, left)
    }));
    let cell = Cell::single(baxter);
    let mut checker = CellChecker::new(&cell, true);
    let q = cell.robots[0].home.clone();
    checker.pose(&q);
    let mut distances = Vec::new();
    checker.pair_distances(&mut distances);
    let brute = distances.iter().copied().fold(Real::INFINITY, Real::min);
    assert!((checker.closest().unwrap().distance - brute).abs() < 1e-15);
}

#[test]
fn bad_urdf_files_get_errors_naming_file_element_and_attribute() {
    let error = |text: &str| {
        parse_urdf(text, "bad.urdf", None, &UrdfOptions::default())
            .unwrap_err()
            .to_string()
    };
    let replace = |from: &str, to: &str| {
        assert!(BRANCHED.contains(from), "{from}");
        error(&BRANCHED.replacen(from, to, 1))
    };
    let cases: Vec<(String, &str)> = vec![
        (
            error("<robot name=\"x\"><link name=\"a\">\n</robot>"),
            "bad.urdf: line 2: malformed XML",
        ),
        (
            replace(
                r#"<parent link="left_fore"/><child link="finger_b"/>"#,
                r#"<parent link="left_fore"/><child link="left_upper"/>"#,
            ),
            "link `left_upper` has two parents",
        ),
        (
            replace(
                r#"<parent link="lift"/><child link="left_upper"/>"#,
                r#"<parent link="left_fore"/><child link="left_upper"/>"#,
            ),
            "cycle",
        ),
        (
            replace(r#"<parent link="torso"/>"#, r#"<parent link="pelvis"/>"#),
            "line 10: joint `lift`: parent link `pelvis` does not exist",
        ),
        (
            replace(r#"<mimic joint="finger_a""#, r#"<mimic joint="thumb""#),
            "joint `finger_b`: mimic names unknown joint `thumb`",
        ),
        (
            replace(
                r#"<origin xyz="0 0 0.3"/><axis"#,
                r#"<origin xyz="0 nan 0.3"/><axis"#,
            ),
            "joint `lift`: origin xyz must be finite, got NaN",
        ),
        (
            replace(r#"<axis xyz="0 0.6 0.8"/>"#, r#"<axis xyz="0 0 0"/>"#),
            "joint `left_elbow`: axis xyz (0, 0, 0) must be a non-zero finite vector",
        ),
        (
            replace(r#"<sphere radius="0.2"/>"#, r#"<sphere radius="-0.2"/>"#),
            "line 3: link `torso`: collision 0: sphere radius must be a finite number >= 0, got -0.2",
        ),
        (
            replace(r#"<link name="lift"/>"#, r#"<link name="torso"/>"#),
            "line 4: link `torso` is defined twice (first on line 3)",
        ),
        (
            replace(
                r#"<joint name="left_elbow" type="continuous">"#,
                r#"<joint name="left_elbow" type="floating">"#,
            ),
            "joint `left_elbow`: floating joints are not supported",
        ),
        (
            replace(
                r#"<joint name="left_elbow" type="continuous">"#,
                r#"<joint name="left_elbow" type="planar">"#,
            ),
            "joint `left_elbow`: planar joints are not supported",
        ),
        (
            replace(r#"<sphere radius="0.2"/>"#, r#"<box size="1 -1 1"/>"#),
            "link `torso`: collision 0: box size y must be a finite number >= 0, got -1",
        ),
        (
            replace(
                r#"<robot name="two-arm torso">"#,
                "<robot name=\"t\" xmlns:xacro=\"http://www.ros.org/wiki/xacro\">\n<xacro:property name=\"r\" value=\"1\"/>",
            ),
            "line 3: this file still contains xacro macros",
        ),
        (
            replace(
                r#"<limit lower="0" upper="0.4""#,
                r#"<limit lower="0.5" upper="0.4""#,
            ),
            "joint `lift`: limit lower 0.5 / upper 0.4 must be ordered",
        ),
    ];
    for (message, expected) in cases {
        assert!(message.starts_with("bad.urdf: "), "{message}");
        assert!(
            message.contains(expected),
            "expected `{expected}` in: {message}"
        );
    }
}

/// Regression: 200 000 nested elements overflowed the URDF parser's stack (an abort, found by
/// trying hostile files); the nesting is refused before that parser runs.
#[test]
fn regression_deeply_nested_xml_is_an_error_not_a_stack_overflow() {
    let n = 200_000;
    let text = format!(
        "<robot name=\"r\"><link name=\"a\">{}{}</link></robot>",
        "<x>".repeat(n),
        "</x>".repeat(n)
    );
    let e = parse_urdf(&text, "deep.urdf", None, &UrdfOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("deep.urdf: line 1: elements nest more than 64 levels deep"),
        "{e}"
    );
}

#[test]
fn a_robot_without_checkable_geometry_says_so() {
    let text = r#"<robot name="r"><link name="a"><collision><geometry><mesh filename="a.stl"/></geometry></collision></link></robot>"#;
    let model = parse_urdf(text, "m.urdf", None, &UrdfOptions::default()).unwrap();
    assert!(model.bodies.is_empty());
    assert!(
        model
            .warnings
            .iter()
            .any(|w| w.contains("nothing of this robot is protected"))
    );
}

#[test]
fn meshes_are_reported_never_silently_dropped() {
    let text = BRANCHED.replacen(
        r#"<sphere radius="0.2"/>"#,
        r#"<mesh filename="package://torso.stl"/>"#,
        1,
    );
    let model = parse_urdf(&text, "mesh.urdf", None, &UrdfOptions::default()).unwrap();
    assert_eq!(model.warnings.len(), 1);
    assert!(model.warnings[0].contains(
        "link `torso`: mesh collision geometry `package://torso.stl` cannot be checked exactly"
    ));
    assert!(model.links_without_bodies().contains(&"torso"));
    // The option turns cylinders into capsules that contain them.
    let capsules = parse_urdf(
        BRANCHED,
        "b.urdf",
        None,
        &UrdfOptions {
            cylinders_as_capsules: true,
        },
    )
    .unwrap();
    let kinds: Vec<&str> = capsules.bodies.iter().map(|b| b.kind()).collect();
    assert!(
        !kinds.contains(&"cylinder") && branched().bodies.iter().any(|b| b.kind() == "cylinder")
    );
}

#[test]
fn srdf_rules_replace_the_default_rule_and_unknown_links_are_warnings() {
    let srdf = r#"<robot name="t">
  <disable_collisions link1="left_fore" link2="right_upper" reason="Never"/>
  <disable_default_collisions link="torso"/>
  <enable_collisions link1="torso" link2="finger_a"/>
</robot>"#;
    let model = parse_urdf(
        BRANCHED,
        "b.urdf",
        Some((srdf, "b.srdf")),
        &UrdfOptions::default(),
    )
    .unwrap();
    let links = model.tree().links();
    let checked: Vec<(&str, &str)> = model
        .self_pairs
        .pairs
        .iter()
        .map(|&(i, j)| {
            (
                links[model.bodies[i].link].as_str(),
                links[model.bodies[j].link].as_str(),
            )
        })
        .collect();
    assert!(!checked.contains(&("left_fore", "right_upper")));
    assert!(checked.contains(&("torso", "finger_a")));
    assert!(
        !checked
            .iter()
            .any(|p| *p == ("torso", "finger_b") || *p == ("torso", "left_upper"))
    );
    // Adjacent links are checked when the SRDF does not allow them.
    assert!(checked.contains(&("left_upper", "left_fore")));
    // A rule naming an unknown link is skipped with one warning (as MoveIt does): the pair it
    // would have allowed is checked.
    let bad = srdf.replace("right_upper", "right_hand");
    let model = parse_urdf(
        BRANCHED,
        "b.urdf",
        Some((&bad, "b.srdf")),
        &UrdfOptions::default(),
    )
    .unwrap();
    assert_eq!(
        model.warnings,
        [
            "b.srdf: 1 rule(s) name links the robot does not have (right_hand, first on line 2); they are ignored"
        ]
    );
    let index = |name: &str| links.iter().position(|l| l == name).unwrap();
    let (fore, right) = (index("left_fore"), index("right_upper"));
    assert!(model.self_pairs.pairs.iter().any(|&(i, j)| {
        let (a, b) = (model.bodies[i].link, model.bodies[j].link);
        (a, b) == (fore, right) || (a, b) == (right, fore)
    }));
}

/// An unbounded side of a limit (URDF 1.2 omits it; `inf` here) is sampled within ±π, so the
/// structural-pair sampling and a planner's sampling stay finite.
#[test]
fn infinite_limits_are_sampled_within_finite_ranges() {
    let text = BRANCHED.replacen(
        r#"<limit lower="-3" upper="3" effort="1" velocity="1"/>"#,
        r#"<limit lower="-1" upper="inf" effort="1" velocity="1"/>"#,
        1,
    );
    let model = parse_urdf(&text, "inf.urdf", None, &UrdfOptions::default()).unwrap();
    let v = model.tree().variable_index("left_shoulder").unwrap();
    assert_eq!(model.tree().sampling_range(v), (-1.0, std::f64::consts::PI));
    for q in model.sample_configurations(50) {
        assert!(q.iter().all(|x| x.is_finite()), "{q:?}");
    }
}

/// Regression: a 20 000-link URDF took minutes (line numbers computed per element, quadratic
/// name lookups, 2·10⁸ self pairs). Now lines are computed for errors only, lookups are hashed,
/// and more than `MAX_BODIES` bodies is an error naming the count.
#[test]
fn regression_huge_urdf_is_refused_quickly() {
    let n = 20_000;
    let mut text = String::from("<robot name=\"big\">");
    for i in 0..=n {
        text += &format!(
            "<link name=\"l{i}\"><collision><geometry><sphere radius=\"0.01\"/></geometry></collision></link>"
        );
    }
    for i in 0..n {
        text += &format!(
            "<joint name=\"j{i}\" type=\"revolute\"><parent link=\"l{i}\"/><child link=\"l{}\"/><axis xyz=\"0 0 1\"/><limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/></joint>",
            i + 1
        );
    }
    text += "</robot>";
    let e = parse_urdf(&text, "big.urdf", None, &UrdfOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("20001 collision bodies; at most 4096 per robot"),
        "{e}"
    );
}
