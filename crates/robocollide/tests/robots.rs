//! Shipped robot, cell and scene files: they load, their kinematics match published poses,
//! the levels of detail nest, and seed 004's scene collides with every intersecting pair listed.

use std::path::{Path, PathBuf};

use robocollide::collision::CellChecker;
use robocollide::geom::Shape;
use robocollide::math::{Point3, Real};
use robocollide::query::shape_shape;
use robocollide::robot::model_file::{load_robot, parse_robot};
use robocollide::robot::{Cell, CellRobot, DetailLevel};

mod common;

fn data(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../data")
        .join(path)
}

#[test]
fn every_shipped_file_loads() {
    for robot in ["ur5", "irb120", "puma560"] {
        for level in [
            DetailLevel::Simplified,
            DetailLevel::Standard,
            DetailLevel::Precise,
        ] {
            let model = load_robot(&data(&format!("robots/{robot}.toml")), Some(level)).unwrap();
            assert_eq!(model.dof(), 6, "{robot}");
            assert!(!model.bodies.is_empty());
        }
    }
    for cell in ["cells/ur5_irb120.toml", "scenes/seed004_table3.toml"] {
        Cell::load(&data(cell)).unwrap();
    }
    let folder = data("cells");
    for entry in std::fs::read_dir(&folder).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "csv") {
            let cell = Cell::load(&data("cells/ur5_irb120.toml")).unwrap();
            robocollide::collision::Trajectory::load(&path, &cell).unwrap();
        }
    }
}

fn flange(robot: &str, q_deg: [Real; 6]) -> Point3 {
    let model = load_robot(&data(&format!("robots/{robot}.toml")), None).unwrap();
    let q: Vec<Real> = q_deg.iter().map(|d| d.to_radians()).collect();
    // The last DH frame (these models have no tool offset).
    model.tree().forward(&q).unwrap()[6] * Point3::origin()
}

#[test]
fn forward_kinematics_matches_published_poses() {
    // UR5 at q = 0: flange at (a2 + a3, −(d4 + d6), d1 − d5).
    let p = flange("ur5", [0.0; 6]);
    assert!(
        (p - Point3::new(-0.81725, -0.19145, -0.005491)).norm() < 1e-12,
        "{p}"
    );
    // IRB 120 at q = 0: flange (tool0) at (374, 0, 630) mm, ABB product specification.
    let p = flange("irb120", [0.0; 6]);
    assert!((p - Point3::new(0.374, 0.0, 0.630)).norm() < 1e-12, "{p}");
    // PUMA 560 at q = 0 (Craig, modified DH): wrist point (a2 + a3, d3, −d4).
    let p = flange("puma560", [0.0; 6]);
    assert!(
        (p - Point3::new(0.45212, 0.14909, -0.43307)).norm() < 1e-12,
        "{p}"
    );
    // UR5 with the shoulder lifted 90°: the arm points straight up (z = d1 − a2 − a3) and
    // wrist 2's offset d5 now points along −x.
    let p = flange("ur5", [0.0, -90.0, 0.0, 0.0, 0.0, 0.0]);
    assert!(
        (p - Point3::new(-0.09465, -0.19145, 0.089159 + 0.81725)).norm() < 1e-12,
        "{p}"
    );
}

/// Points spread over a shape's surface (for enclosure tests).
fn surface_points(shape: &Shape) -> Vec<Point3> {
    let mut out = Vec::new();
    let dirs: Vec<nalgebra::Vector3<Real>> = (0..26)
        .map(|i| {
            let z = 1.0 - 2.0 * (i as Real + 0.5) / 26.0;
            let phi = i as Real * 2.399963229728653;
            let s = (1.0 - z * z).sqrt();
            nalgebra::Vector3::new(s * phi.cos(), s * phi.sin(), z)
        })
        .collect();
    match shape {
        Shape::Sphere(s) => out.extend(dirs.iter().map(|d| s.center() + d * s.radius())),
        Shape::Capsule(c) => {
            for k in 0..=4 {
                let p = c.axis().at(k as Real / 4.0);
                out.extend(dirs.iter().map(|d| p + d * c.radius()));
            }
        }
        _ => {}
    }
    out
}

#[test]
fn simplified_and_precise_levels_enclose_the_standard_model() {
    for robot in ["ur5", "irb120", "puma560"] {
        let path = data(&format!("robots/{robot}.toml"));
        let standard = load_robot(&path, Some(DetailLevel::Standard)).unwrap();
        for level in [DetailLevel::Simplified, DetailLevel::Precise] {
            let other = load_robot(&path, Some(level)).unwrap();
            for seed in 0..20 {
                let q: Vec<Real> = (0..6)
                    .map(|j| ((seed * 7 + j * 3) as Real * 0.77).sin() * 2.5)
                    .collect();
                let outer = other.world_shapes(&q).unwrap();
                for shape in standard.world_shapes(&q).unwrap() {
                    for p in surface_points(&shape) {
                        let inside = outer
                            .iter()
                            .any(|o| shape_shape(&Shape::Point(p), o).distance <= 1e-12);
                        assert!(
                            inside,
                            "{robot} {level:?}: point {p} of the standard model is outside"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn seed004_scene_collides_and_lists_every_intersecting_pair() {
    let cell = Cell::load(&data("scenes/seed004_table3.toml")).unwrap();
    let mut checker = CellChecker::new(&cell, false);
    let report = checker.check(&[], 0.0).unwrap();
    assert!(report.collision);
    let labels: Vec<(String, String)> = report
        .close_pairs
        .iter()
        .map(|p| (p.a.label.clone(), p.b.label.clone()))
        .collect();
    // Theorem 16's pair…
    assert!(
        labels.contains(&("R1-f6".into(), "R2-g5".into())),
        "{labels:?}"
    );
    // …is not the only one: every intersecting pair is listed (oracle: brute force over pairs).
    let mut expected = 0;
    for a in &cell.robots[0].model.world_shapes(&[]).unwrap() {
        for b in &cell.robots[1].model.world_shapes(&[]).unwrap() {
            if shape_shape(a, b).distance <= 0.0 {
                expected += 1;
            }
        }
    }
    assert!(expected > 1);
    assert_eq!(report.close_pairs.len(), expected);
    assert_eq!(report.pairs_checked, 49);
}

/// A revolute–prismatic–revolute arm: the standard model's capsule across the slide changes
/// length with the joint, the others do not.
const SLIDE_ARM: &str = r#"
name = "slide arm"
convention = "standard"
units = { length = "m", angle = "deg" }
links = ["base", "column", "slide", "wrist"]

[[joints]]
a = 0.1
alpha = 90.0
d = 0.3

[[joints]]
type = "prismatic"
a = 0.0
alpha = -90.0
d = 0.2
limits = [0.0, 0.6]

[[joints]]
a = 0.25
alpha = 0.0
d = 0.0

[geometry]
level = "standard"
sphere_radii = [0.08, 0.07, 0.06, 0.05]
capsule_radii = [0.06, 0.05, 0.04]
"#;

#[test]
fn fast_pair_search_agrees_with_the_full_queries() {
    // The checker's cores (cached joint-invariant lengths, reciprocal lengths, independent
    // running minima) against the shapes posed by forward kinematics and the exact queries.
    use rand::RngExt;
    let ur5 = load_robot(&data("robots/ur5.toml"), Some(DetailLevel::Standard)).unwrap();
    let mut slide = parse_robot(SLIDE_ARM, "slide arm", Some(DetailLevel::Standard)).unwrap();
    slide
        .set_base(robocollide::math::Isometry3::translation(0.6, 0.0, 0.0))
        .unwrap();
    let robots = vec![
        CellRobot {
            label: "R1".into(),
            model: ur5,
            home: vec![0.0; 6],
        },
        CellRobot {
            label: "R2".into(),
            model: slide,
            home: vec![0.0; 3],
        },
    ];
    let cell = Cell {
        name: "UR5 and slide arm".into(),
        robots,
        threshold: 0.0,
        units: Default::default(),
        trajectory: None,
        allowed: Vec::new(),
    };
    let mut checker = CellChecker::new(&cell, true);
    let mut rng = common::rng(0x51de);
    let mut contacts = 0;
    for _ in 0..400 {
        let mut q: Vec<Real> = (0..9).map(|_| rng.random_range(-3.1..3.1)).collect();
        q[7] = rng.random_range(0.0..0.6);
        checker.pose(&q);
        let shapes = [
            cell.robots[0].model.world_shapes(&q[..6]).unwrap(),
            cell.robots[1].model.world_shapes(&q[6..]).unwrap(),
        ];
        let mut smallest = Real::INFINITY;
        for (k, p) in checker.pairs().iter().enumerate() {
            let expected =
                shape_shape(&shapes[p.robot_a][p.body_a], &shapes[p.robot_b][p.body_b]).distance;
            let fast = checker.distance(k);
            assert!(
                (fast - expected).abs() <= 1e-12,
                "pair {k}: {fast} vs {expected}"
            );
            smallest = smallest.min(expected);
        }
        let closest = checker.closest().unwrap();
        assert!((closest.distance - smallest).abs() <= 1e-12);
        assert!((checker.distance(closest.pair) - closest.distance).abs() <= 1e-12);
        contacts += usize::from(smallest <= 0.0);
    }
    assert!(contacts > 10 && contacts < 390, "{contacts}");
}

/// Point Jacobians of DH-built trees (standard: UR5; modified: PUMA 560) against finite
/// differences.
#[test]
fn dh_jacobians_match_finite_differences() {
    for robot in ["ur5", "puma560"] {
        let model = load_robot(&data(&format!("robots/{robot}.toml")), None).unwrap();
        common::assert_jacobians_match_finite_differences(&model);
    }
}

/// Trajectory columns named after joints are matched by name, in any order; a header naming
/// only some joints is an error; unnamed headers stay positional.
#[test]
fn trajectory_columns_are_matched_by_joint_name() {
    use robocollide::collision::Trajectory;
    let cell = Cell::load(&data("cells/ur5_irb120.toml")).unwrap();
    let ur5: Vec<String> = cell.robots[0]
        .model
        .tree()
        .variable_names()
        .map(str::to_owned)
        .collect();
    let irb: Vec<String> = (1..=6).map(|j| format!("R2.q{j}")).collect();
    let values: Vec<String> = (1..=12).map(|v| v.to_string()).collect();
    let positional = format!(
        "t,{}\n0,{}\n",
        (1..=12)
            .map(|c| format!("c{c}"))
            .collect::<Vec<_>>()
            .join(","),
        values.join(",")
    );
    let expected = Trajectory::parse(&positional, "p.csv", &cell).unwrap();
    // Names in reverse order, values reversed with them: the same trajectory.
    let mut names: Vec<String> = ur5.iter().cloned().chain(irb.iter().cloned()).collect();
    let mut reversed = values.clone();
    names.reverse();
    reversed.reverse();
    let named = format!("t,{}\n0,{}\n", names.join(","), reversed.join(","));
    let got = Trajectory::parse(&named, "n.csv", &cell).unwrap();
    assert_eq!(got.configs, expected.configs);
    // Naming some joints but not all is refused, naming the missing ones.
    let partial = format!(
        "t,{},{}\n0,{}\n",
        ur5.join(","),
        (1..=6)
            .map(|c| format!("x{c}"))
            .collect::<Vec<_>>()
            .join(","),
        values.join(",")
    );
    let e = Trajectory::parse(&partial, "partial.csv", &cell)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("the header names some joints but not R2.joint1"),
        "{e}"
    );
}
