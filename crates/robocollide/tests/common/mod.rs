//! Shared helpers for the integration tests: seeded generators, independent oracles and the
//! parry3d-f64 bridge. Nothing here calls robocollide's kernels, so the oracles stay independent.
#![allow(dead_code)]

pub mod exact;
pub mod generators;
pub mod parry;
pub mod projection_oracle;
pub mod strategies;

use rand::SeedableRng;
pub use rand_chacha::ChaCha8Rng as TestRng;

/// The spherized Panda (VAMP's spheres) with its SRDF, as shipped in `data/robots/panda/`.
#[cfg(feature = "urdf")]
pub fn spherized_panda() -> robocollide::robot::RobotModel {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/robots/panda");
    robocollide::robot::urdf::load_urdf(
        &folder.join("panda_spherized.urdf"),
        Some(&folder.join("panda.srdf")),
        &robocollide::robot::urdf::UrdfOptions::default(),
    )
    .unwrap()
}

/// MotionBenchMaker's seven problem families (one scene of each in `data/mbm_scenes/`).
pub const MBM_FAMILIES: [&str; 7] = [
    "bookshelf_small",
    "bookshelf_tall",
    "bookshelf_thin",
    "box",
    "cage",
    "table_pick",
    "table_under_pick",
];

/// A reproducible generator for a named test.
pub fn rng(seed: u64) -> TestRng {
    TestRng::seed_from_u64(seed)
}

/// A posed shape as numbers: sphere `[centre, radius]`, capsule or cylinder
/// `[a, b, radius]` (for comparing with recorded answers).
pub fn flat(shape: &robocollide::geom::Shape) -> Vec<f64> {
    use robocollide::geom::Shape;
    match shape {
        Shape::Sphere(s) => {
            let c = s.center();
            vec![c.x, c.y, c.z, s.radius()]
        }
        Shape::Capsule(c) => {
            let (a, b) = (c.axis().a(), c.axis().b());
            vec![a.x, a.y, a.z, b.x, b.y, b.z, c.radius()]
        }
        Shape::Cylinder(c) => {
            let (a, b) = (c.axis().a(), c.axis().b());
            vec![a.x, a.y, a.z, b.x, b.y, b.z, c.radius()]
        }
        _ => vec![],
    }
}

/// A JSON file under `tests/data/`.
pub fn test_data(name: &str) -> serde_json::Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A JSON array of numbers.
pub fn numbers(v: &serde_json::Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

/// Every point Jacobian of `model` (a point fixed on each link, for each variable) against
/// central differences of forward kinematics, at a few sampled configurations.
pub fn assert_jacobians_match_finite_differences(model: &robocollide::robot::RobotModel) {
    use robocollide::kinematics::Frame;
    use robocollide::math::Point3;
    let tree = model.tree();
    let local = Point3::new(0.03, -0.02, 0.05);
    for q in model.sample_configurations(5) {
        let frames: Vec<Frame> = tree
            .forward(&q)
            .unwrap()
            .iter()
            .map(Frame::from_isometry)
            .collect();
        for (link, frame) in frames.iter().enumerate() {
            let p = frame.apply(&local);
            let jacobian = tree.point_jacobian(&frames, link, &p);
            for (v, column) in jacobian.iter().enumerate() {
                let h = 1e-6;
                let (mut qp, mut qm) = (q.clone(), q.clone());
                qp[v] += h;
                qm[v] -= h;
                let fd = (tree.forward(&qp).unwrap()[link] * local
                    - tree.forward(&qm).unwrap()[link] * local)
                    / (2.0 * h);
                assert!(
                    (fd - column).norm() < 1e-8,
                    "{}: link {link} variable {v}: {fd} vs {column}",
                    model.name
                );
            }
        }
    }
}
