//! Cells with a world: obstacles (boxes, half-spaces, attached parts), allowed pairs, the
//! shipped demo cell's table, and MotionBenchMaker scenes against VAMP's own verdicts.
#![cfg(all(feature = "urdf", feature = "moveit"))]

mod common;

use std::path::{Path, PathBuf};

use common::numbers;
use rand::RngExt;
use robocollide::collision::{CellChecker, SweepMode, Trajectory, sweep};
use robocollide::geom::{Capsule, OrientedBox, Shape};
use robocollide::kinematics::KinematicTree;
use robocollide::math::Real;
use robocollide::query::shape_shape;
use robocollide::robot::moveit_scene::load_scene;
use robocollide::robot::urdf::{UrdfOptions, load_urdf};
use robocollide::robot::{
    Body, BodyShape, Cell, CellRobot, ModelFormat, RobotModel, SelfPairs, Units, WORLD_LABEL,
};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn demo_cell() -> Cell {
    Cell::load(&root().join("data/cells/ur5_irb120.toml")).unwrap()
}

/// A cell from TOML text with the shipped robots' folder as its folder.
fn cell_from(text: &str) -> robocollide::Result<Cell> {
    Cell::parse(text, "test.toml", &root().join("data/cells"))
}

#[test]
fn the_demo_cell_has_its_table_checked_and_named() {
    let cell = demo_cell();
    let world = cell.robots.last().unwrap();
    assert_eq!(world.label, WORLD_LABEL);
    assert_eq!(world.model.dof(), 0);
    assert_eq!(world.model.bodies[0].name, "table");
    let mut checker = CellChecker::new(&cell, true);
    let q: Vec<Real> = cell.robots.iter().flat_map(|r| r.home.clone()).collect();
    let report = checker.check(&q, 0.05).unwrap();
    assert!(!report.collision, "{report:?}");
    let table_pairs: Vec<_> = report
        .close_pairs
        .iter()
        .filter(|p| p.b.label == "W-table")
        .collect();
    assert!(!table_pairs.is_empty());
    // The bases stand on the table and the shoulder balls turn above it: allowed, never
    // reported; every other body is checked against it.
    let summary = &report.robots[0];
    assert_eq!(
        summary.allowed_with_others,
        ["R1-S1, R1-S2, R1-C1 – W-table (mounted on `table`)"]
    );
    let checked_with_table = checker
        .pairs()
        .iter()
        .filter(|p| p.robot_b == 2 && p.robot_a == 0)
        .count();
    assert_eq!(checked_with_table, cell.robots[0].model.bodies.len() - 3);
}

#[test]
fn robot_world_pairs_match_the_kernels_and_the_culled_search_matches_brute_force() {
    let cell = demo_cell();
    let mut checker = CellChecker::new(&cell, true);
    let table =
        OrientedBox::axis_aligned([0.4, 0.0, -0.025].into(), [0.8, 0.5, 0.025].into()).unwrap();
    let mut rng = common::rng(0x7ab1e);
    let mut distances = Vec::new();
    let (mut contacts, mut compared) = (0, 0);
    for _ in 0..300 {
        let q: Vec<Real> = (0..12).map(|_| rng.random_range(-3.1..3.1)).collect();
        checker.pose(&q);
        checker.pair_distances(&mut distances);
        for (k, p) in checker.pairs().iter().enumerate() {
            if cell.robots[p.robot_b].label == WORLD_LABEL {
                let robot = &cell.robots[p.robot_a];
                let shapes = robot
                    .model
                    .world_shapes(checker.robot_q(&q, p.robot_a))
                    .unwrap();
                let expected = shape_shape(&shapes[p.body_a], &Shape::Box(table)).distance;
                assert!((distances[k] - expected).abs() <= 1e-12, "{q:?} pair {k}");
                compared += 1;
            }
        }
        let brute = distances.iter().copied().fold(Real::INFINITY, Real::min);
        let closest = checker.closest().unwrap();
        assert!((closest.distance - brute).abs() <= 1e-12, "{q:?}");
        assert_eq!(checker.in_contact(), brute <= 0.0, "{q:?}");
        contacts += usize::from(brute <= 0.0);
    }
    assert!(compared > 5000 && contacts > 50, "{compared} {contacts}");
}

#[test]
fn a_trajectory_that_brushes_the_table_is_reported() {
    let cell = demo_cell();
    let path = root().join("data/cells/ur5_irb120_table.csv");
    let trajectory = Trajectory::load(&path, &cell).unwrap();
    let mut checker = CellChecker::new(&cell, true);
    // The rows before the last are clear.
    for (t, q) in trajectory.times.iter().zip(&trajectory.configs).take(2) {
        checker.pose(q);
        assert!(!checker.in_contact(), "t = {t}");
    }
    let mode = SweepMode::Guaranteed { min_interval: 1e-6 };
    let report = sweep(&mut checker, &trajectory, mode, |_, _| {}).unwrap();
    let (t, pair) = report.first_collision.expect("the table is brushed");
    assert_eq!(pair.b.label, "W-table", "{pair:?}");
    assert!(t > 1.0 && t < 2.0, "{t}");
}

#[test]
fn obstacles_attached_to_a_link_move_with_it() {
    let text = r#"
name = "held part"
units = { length = "m", angle = "deg" }
[[robots]]
label = "R1"
model = "../robots/ur5.toml"
[[obstacles]]
name = "part"
box = { center = [0, 0, 0.1], half_extents = [0.03, 0.03, 0.05], rpy = [0, 0, 45] }
attach = { robot = "R1", link = "wrist_3" }
touch_links = ["wrist_2"]
[[obstacles]]
name = "floor"
plane = { point = [0, 0, -0.5], normal = [0, 0, 1] }
"#;
    let cell = cell_from(text).unwrap();
    let robot = &cell.robots[0];
    let part = robot.model.bodies.len() - 1;
    assert_eq!(robot.model.bodies[part].name, "part");
    let link = robot.model.bodies[part].link;
    assert_eq!(robot.model.tree().links()[link], "wrist_3");
    // Self pairs: the part against the other links' bodies, not its own or wrist_2's.
    let wrist_2 = robot.model.tree().link_index("wrist_2").unwrap();
    let partners: Vec<usize> = robot
        .model
        .self_pairs
        .pairs
        .iter()
        .filter(|p| p.1 == part)
        .map(|p| p.0)
        .collect();
    assert!(!partners.is_empty());
    for b in &partners {
        let l = robot.model.bodies[*b].link;
        assert!(l != link && l != wrist_2);
    }
    // Posed with the link: centre = frame ∘ (0, 0, 0.1), axes turned 45° about the link's z.
    let mut checker = CellChecker::new(&cell, true);
    let q = [0.3, -1.0, 1.2, -0.4, 0.8, 0.5];
    checker.pose(&q);
    let frames = robot.model.frames(&q).unwrap();
    let Shape::Box(posed) = checker.shape(0, part) else {
        panic!()
    };
    let expected = frames[link].apply(&[0.0, 0.0, 0.1].into());
    assert!((posed.center() - expected).norm() < 1e-12);
    let turned = frames[link].rotation * nalgebra::Vector3::new(1.0, 1.0, 0.0).normalize();
    assert!((posed.axis(0) - turned).norm() < 1e-12);
    // The part is checked against the floor, by name.
    let labels: Vec<String> = checker
        .pairs()
        .iter()
        .map(|p| {
            format!(
                "{} {}",
                checker.element(p.robot_a, p.body_a).label,
                checker.element(p.robot_b, p.body_b).label
            )
        })
        .collect();
    assert!(labels.contains(&"R1-part W-floor".to_owned()), "{labels:?}");
}

#[test]
fn bad_obstacles_and_allowed_pairs_are_named() {
    let robot = "[[robots]]\nlabel = \"R1\"\nmodel = \"../robots/ur5.toml\"\n";
    let cases = [
        (
            "[[obstacles]]\nname = \"t\"\nbox = { center = [0, 0, 0], half_extents = [1, -1, 1] }\n",
            "test.toml: line 5: obstacles[0] `t`: body `t`: box.half_extents.y must be >= 0, got -1",
        ),
        (
            "[[obstacles]]\nname = \"t\"\nbox = { center = [0, 0, 0], half_extents = [1, nan, 1] }\n",
            "box.half_extents.y must be finite, got NaN",
        ),
        (
            "[[obstacles]]\nname = \"f\"\nplane = { point = [0, 0, 0], normal = [0, 0, 0] }\n",
            "obstacles[0] `f`: plane.normal must be non-zero, got (0, 0, 0)",
        ),
        (
            "[[obstacles]]\nname = \"p\"\nsphere = { center = [0, 0, 0], radius = 1 }\nattach = { robot = \"R9\", link = \"x\" }\n",
            "obstacles[0] `p`: attach: unknown robot `R9`",
        ),
        (
            "[[obstacles]]\nname = \"p\"\nsphere = { center = [0, 0, 0], radius = 1 }\nattach = { robot = \"R1\", link = \"hand\" }\n",
            "robot `R1` has no link `hand`",
        ),
        (
            "[[obstacles]]\nname = \"f\"\nplane = { point = [0, 0, 0], normal = [0, 0, 1] }\nattach = { robot = \"R1\", link = \"base\" }\n",
            "a plane (half-space) can only be a world obstacle",
        ),
        (
            "[[obstacles]]\nname = \"c\"\ncone = { a = [0, 0, 0] }\n",
            "unknown field `cone`",
        ),
        (
            "[[obstacles]]\nname = \"t\"\nsphere = { center = [0, 0, 0], radius = 1 }\n[[obstacles]]\nname = \"t\"\nsphere = { center = [1, 0, 0], radius = 1 }\n",
            "obstacle `t`: the name is used twice",
        ),
        (
            "[[obstacles]]\nname = \"t\"\nsphere = { center = [0, 0, 0], radius = 1 }\nbox = { center = [0, 0, 0], half_extents = [1, 1, 1] }\n",
            "give exactly one of sphere, capsule, cylinder, box, plane",
        ),
        (
            "[[obstacles]]\nname = \"t\"\nsphere = { center = [0, 0, 0], radius = 1 }\n[[allowed]]\na = \"R1:elbow\"\nb = \"W-t\"\n",
            "line 8: allowed[0]: a: robot `R1` has no link `elbow`",
        ),
        (
            "[[obstacles]]\nname = \"t\"\nsphere = { center = [0, 0, 0], radius = 1 }\n[[allowed]]\na = \"R1\"\nb = \"W-table\"\n",
            "allowed[0]: b: `W-table` names no robot",
        ),
    ];
    for (extra, expected) in cases {
        let text = format!("name = \"c\"\n{robot}{extra}");
        let err = cell_from(&text).unwrap_err().to_string();
        assert!(
            err.contains(expected),
            "{extra}\n→ {err}\nexpected {expected}"
        );
    }
    let mounted = format!("name = \"c\"\n{robot}mounted_on = \"bench\"\n");
    assert!(
        cell_from(&mounted)
            .unwrap_err()
            .to_string()
            .contains("line 2: robots[0]: mounted_on: no world obstacle is named `bench`")
    );
    let clash = "name = \"c\"\n[[robots]]\nlabel = \"W\"\nmodel = \"../robots/ur5.toml\"\n[[obstacles]]\nname = \"t\"\nsphere = { center = [0, 0, 0], radius = 1 }\n";
    assert!(
        cell_from(clash)
            .unwrap_err()
            .to_string()
            .contains("the label `W` is reserved")
    );
}

#[test]
fn allowed_entries_remove_exactly_their_pairs() {
    let base = "name = \"c\"\n[[robots]]\nlabel = \"R1\"\nmodel = \"../robots/ur5.toml\"\n[[robots]]\nlabel = \"R2\"\nmodel = \"../robots/irb120.toml\"\nbase = { xyz = [0.8, 0, 0] }\n[[obstacles]]\nname = \"post\"\ncapsule = { a = [0.4, 0.5, 0], b = [0.4, 0.5, 1], radius = 0.05 }\n";
    let all = CellChecker::new(&cell_from(base).unwrap(), false)
        .pairs()
        .len();
    for (entry, removed) in [
        ("a = \"R1\"\nb = \"W-post\"\n", 13),
        ("a = \"R1:upper_arm\"\nb = \"R2\"\n", 13 * 2),
        ("a = \"R2-C3\"\nb = \"R1-S4\"\n", 1),
    ] {
        let text = format!("{base}[[allowed]]\n{entry}reason = \"test\"\n");
        let cell = cell_from(&text).unwrap();
        let n = CellChecker::new(&cell, false).pairs().len();
        assert_eq!(all - n, removed, "{entry}");
    }
}

// ---- MotionBenchMaker scenes against VAMP ---------------------------------------------------

use common::MBM_FAMILIES as FAMILIES;

/// The Panda and a scene's obstacles in one cell; `like_vamp` applies VAMP's conversions
/// (cylinders as capsules; as boxes in the `box` family), else the exact cylinders.
fn panda_in_scene(family: &str, like_vamp: bool) -> Cell {
    let folder = root().join("data/robots/panda");
    let panda = load_urdf(
        &folder.join("panda_spherized.urdf"),
        Some(&folder.join("panda.srdf")),
        &UrdfOptions::default(),
    )
    .unwrap();
    let scene = load_scene(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(format!("tests/data/mbm_scenes/{family}_scene0001.yaml")),
    )
    .unwrap();
    assert!(scene.warnings.is_empty(), "{:?}", scene.warnings);
    let bodies = scene
        .obstacles
        .iter()
        .map(|(name, shape)| {
            let shape = match (shape, like_vamp) {
                (Shape::Cylinder(c), true) if family == "box" => {
                    let u = c.unit_axis();
                    let rotation =
                        nalgebra::Rotation3::rotation_between(&nalgebra::Vector3::z(), &u)
                            .unwrap_or_else(nalgebra::Rotation3::identity);
                    Shape::Box(
                        OrientedBox::new(
                            c.axis().at(0.5),
                            *rotation.matrix(),
                            [c.radius(), c.radius(), c.length() / 2.0].into(),
                        )
                        .unwrap(),
                    )
                }
                (Shape::Cylinder(c), true) => {
                    Shape::Capsule(Capsule::new(c.axis().a(), c.axis().b(), c.radius()).unwrap())
                }
                _ => *shape,
            };
            Body {
                name: name.clone(),
                link: 0,
                shape: BodyShape::from_world(&shape),
            }
        })
        .collect();
    let mut world = RobotModel::new(
        "world".into(),
        KinematicTree::fixed_base("world"),
        bodies,
        SelfPairs::default(),
    )
    .unwrap();
    world.format = ModelFormat::Obstacles;
    Cell {
        name: family.into(),
        robots: vec![
            CellRobot {
                label: "R1".into(),
                home: vec![0.0; 7],
                model: panda,
            },
            CellRobot {
                label: WORLD_LABEL.into(),
                home: Vec::new(),
                model: world,
            },
        ],
        threshold: 0.0,
        units: Units::default(),
        trajectory: None,
        allowed: Vec::new(),
    }
}

#[test]
fn motion_bench_maker_scenes_give_vamps_verdicts() {
    let reference = common::test_data("vamp_panda_reference.json");
    let configs = reference["configs"].as_array().unwrap();
    let (mut agree, mut borderline, mut exact_freer) = (0, 0, 0);
    for family in FAMILIES {
        let like_vamp = panda_in_scene(family, true);
        let exact = panda_in_scene(family, false);
        let mut vamp_checker = CellChecker::new(&like_vamp, true);
        let mut exact_checker = CellChecker::new(&exact, true);
        for config in configs {
            let q = numbers(&config["q"]);
            let valid = config["valid_in_scene"][family].as_bool().unwrap();
            vamp_checker.pose(&q);
            let closest = vamp_checker.closest().unwrap();
            if (closest.distance > 0.0) == valid {
                agree += 1;
            } else {
                // VAMP works in f32 (sphere centres within 2.8e-6 m of ours): only a pair
                // within that of contact may decide differently.
                assert!(
                    closest.distance.abs() < 1e-5,
                    "{family} {q:?}: ours {} VAMP valid = {valid}",
                    closest.distance
                );
                borderline += 1;
            }
            // Exact flat-capped cylinders lie inside VAMP's capsules: never more contact.
            exact_checker.pose(&q);
            let exact_contact = exact_checker.in_contact();
            assert!(
                !exact_contact || vamp_checker.in_contact(),
                "{family} {q:?}: contact with exact cylinders but not with capsules"
            );
            exact_freer += usize::from(vamp_checker.in_contact() && !exact_contact);
        }
    }
    assert_eq!(agree + borderline, 7 * configs.len());
    assert!(borderline <= 3, "{borderline} borderline verdicts");
    eprintln!(
        "MBM scenes: {agree} of {} verdicts as VAMP's, {borderline} borderline; exact cylinders free {exact_freer} more",
        7 * configs.len()
    );
}

#[test]
fn the_closest_pair_among_many_boxes_matches_every_pair_measured_by_the_full_query() {
    // The UR5's capsules and spheres (robot–world pairs) among 40 boxes of random size (a few flat) and
    // orientation: the culled search (block spheres, the capsule's bounding sphere against the
    // box, the distance-only kernels) must find the least of all pairs' full-query distances.
    let mut rng = common::rng(0xb0c5);
    let mut text = String::from(
        "name = \"UR5 among boxes\"\n[[robots]]\nlabel = \"R1\"\nmodel = \"../robots/ur5.toml\"\nlevel = \"precise\"\n",
    );
    let mut k = 0;
    while k < 40 {
        let c: [Real; 3] = [
            rng.random_range(-1.5..1.5),
            rng.random_range(-1.5..1.5),
            rng.random_range(0.0..1.5),
        ];
        let h = [0; 3].map(|_| {
            if rng.random_range(0.0..1.0) < 0.1 {
                0.0
            } else {
                rng.random_range(0.05..0.25)
            }
        });
        let rpy = [0; 3].map(|_| rng.random_range(-3.1..3.1));
        // None over the base (the arm would touch it at every configuration).
        if c[0].hypot(c[1]) < 0.45 && c[2] < 0.5 {
            continue;
        }
        k += 1;
        text += &format!(
            "[[obstacles]]\nname = \"box{k}\"\nbox = {{ center = {c:?}, half_extents = {h:?}, rpy = {rpy:?} }}\n"
        );
    }
    let cell = cell_from(&text).unwrap();
    let (contacts, apart) = searches_match_full_queries(&cell, 6, 400, &mut rng, |_, _| true);
    assert!(
        contacts > 10 && apart > 100,
        "{contacts} in contact, {apart} apart"
    );
}

/// A three-joint arm of URDF cylinders (exact flat-capped cylinders, the importer's default).
const CYLINDER_ARM: &str = r#"<robot name="cylinder_arm">
  <link name="base"><collision><origin xyz="0 0 0.05"/>
    <geometry><cylinder radius="0.1" length="0.1"/></geometry></collision></link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/>
    <origin xyz="0 0 0.1"/><axis xyz="0 0 1"/>
    <limit lower="-3.1" upper="3.1" effort="1" velocity="1"/></joint>
  <link name="l1"><collision><origin xyz="0 0 0.2"/>
    <geometry><cylinder radius="0.06" length="0.4"/></geometry></collision></link>
  <joint name="j2" type="revolute"><parent link="l1"/><child link="l2"/>
    <origin xyz="0 0 0.4"/><axis xyz="0 1 0"/>
    <limit lower="-3.1" upper="3.1" effort="1" velocity="1"/></joint>
  <link name="l2"><collision><origin xyz="0 0 0.2"/>
    <geometry><cylinder radius="0.05" length="0.4"/></geometry></collision></link>
  <joint name="j3" type="revolute"><parent link="l2"/><child link="l3"/>
    <origin xyz="0 0 0.4"/><axis xyz="0 1 0"/>
    <limit lower="-3.1" upper="3.1" effort="1" velocity="1"/></joint>
  <link name="l3"><collision><origin xyz="0 0 0.15"/>
    <geometry><cylinder radius="0.04" length="0.3"/></geometry></collision></link>
</robot>
"#;

#[test]
fn cylinder_links_against_boxes_get_the_full_querys_contact_verdict() {
    // The contact search reports a cylinder–box pair it proves to overlap (alternating exact
    // projections) at distance 0 instead of measuring its depth, and an apart one by a
    // certified lower bound: its verdicts must still be those of the full query on every
    // pair, and the closest-pair search must still report the depth.
    let folder = std::env::temp_dir().join(format!("robocollide-cyl-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("cylinder_arm.urdf"), CYLINDER_ARM).unwrap();
    let mut rng = common::rng(0xc71);
    let mut text = String::from(
        "name = \"cylinder arm among boxes\"\n[[robots]]\nlabel = \"R1\"\nmodel = \"cylinder_arm.urdf\"\n",
    );
    let mut k = 0;
    while k < 12 {
        let c = [0; 3].map(|_| rng.random_range(-1.0..1.0));
        let h = [0; 3].map(|_| rng.random_range(0.03..0.2));
        // None at the base (the arm would touch it at every configuration).
        if (c[0] as Real).hypot(c[1]) < 0.45 && c[2] < 0.6 {
            continue;
        }
        k += 1;
        let rpy = [0; 3].map(|_| rng.random_range(-3.1..3.1));
        text += &format!(
            "[[obstacles]]\nname = \"box{k}\"\nbox = {{ center = {c:?}, half_extents = {h:?}, rpy = {rpy:?} }}\n"
        );
    }
    let cell = Cell::parse(&text, "test.toml", &folder).unwrap();
    std::fs::remove_dir_all(&folder).ok();
    let (contacts, apart) = searches_match_full_queries(&cell, 3, 300, &mut rng, |a, b| {
        matches!(
            (a, b),
            (Shape::Cylinder(_), Shape::Box(_)) | (Shape::Box(_), Shape::Cylinder(_))
        )
    });
    assert!(
        contacts > 30 && apart > 30,
        "{contacts} in contact, {apart} apart"
    );
}

/// Poses robot 0 of `cell` (`dof` joints, the rest of the cell the world) at `count` random
/// configurations, and requires the culled closest-pair search to find the least of every
/// pair's full-query distance and the contact search to give its verdict; every pair's shapes
/// must satisfy `expected_kinds`. Returns how many configurations were in contact and apart.
fn searches_match_full_queries(
    cell: &Cell,
    dof: usize,
    count: usize,
    rng: &mut impl RngExt,
    expected_kinds: impl Fn(&Shape, &Shape) -> bool,
) -> (usize, usize) {
    let mut checker = CellChecker::new(cell, false);
    let world = cell
        .robots
        .iter()
        .position(|r| r.label == WORLD_LABEL)
        .unwrap();
    let obstacles = cell.robots[world].model.world_shapes(&[]).unwrap();
    let (mut contacts, mut apart) = (0, 0);
    for _ in 0..count {
        let q: Vec<Real> = (0..dof).map(|_| rng.random_range(-3.1..3.1)).collect();
        checker.pose(&q);
        let arm = cell.robots[0].model.world_shapes(&q).unwrap();
        let brute = checker
            .pairs()
            .iter()
            .map(|p| {
                let shape = |r: usize, b: usize| if r == world { &obstacles[b] } else { &arm[b] };
                let (a, b) = (shape(p.robot_a, p.body_a), shape(p.robot_b, p.body_b));
                assert!(expected_kinds(a, b), "{a:?} {b:?}");
                shape_shape(a, b).distance
            })
            .fold(Real::INFINITY, Real::min);
        let closest = checker.closest().unwrap();
        assert!(
            (closest.distance - brute).abs() <= 1e-12,
            "{q:?}: {closest:?} against {brute}"
        );
        assert_eq!(checker.in_contact(), brute <= 0.0, "{q:?}");
        if brute <= 0.0 {
            contacts += 1;
        } else {
            apart += 1;
        }
    }
    (contacts, apart)
}
