//! proptest strategies for shapes of every kind at scales 1e-6 .. 1e6 m (degenerate lengths
//! included), shared by the property tests.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use robocollide::geom::{Capsule, Cylinder, Segment, Shape, Sphere};
use robocollide::math::{Point3, Real, Vector3};

/// A point in a cube of half-size `scale` around `center`.
pub fn point(center: Real, scale: Real) -> impl Strategy<Value = Point3> {
    (-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64)
        .prop_map(move |(x, y, z)| Point3::new(center + x * scale, y * scale, z * scale))
}

/// Any shape of the given scale (degenerate lengths included).
pub fn shape(center: Real, scale: Real) -> impl Strategy<Value = Shape> {
    let zero_length = prop_oneof![4 => Just(false), 1 => Just(true)];
    (
        0..5usize,
        point(center, scale),
        point(center, scale),
        0.0..0.5f64,
        zero_length,
    )
        .prop_map(move |(kind, a, b, r, degenerate)| {
            let b = if degenerate { a } else { b };
            let r = r * scale;
            match kind {
                0 => Shape::Point(a),
                1 => Segment::new(a, b).unwrap().into(),
                2 => Sphere::new(a, r).unwrap().into(),
                3 => Capsule::new(a, b, r).unwrap().into(),
                _ => {
                    // A cylinder needs an axis: a zero-length one is rejected by design.
                    let b = if a == b {
                        a + Vector3::new(0.0, 0.0, scale * 0.5)
                    } else {
                        b
                    };
                    Cylinder::new(a, b, r).unwrap().into()
                }
            }
        })
}

/// A pair of shapes sharing a scale (1e-6 .. 1e6) and placed near each other.
pub fn pair() -> impl Strategy<Value = (Shape, Shape, Real)> {
    (-6..=6i32, prop_oneof![Just(0.0), Just(1.0), Just(1e3)]).prop_flat_map(|(exponent, far)| {
        let scale = 10f64.powi(exponent);
        let center = far * scale * 10.0;
        (shape(center, scale), shape(center, scale), Just(scale))
    })
}

pub fn magnitude(a: &Shape, b: &Shape) -> Real {
    a.magnitude().max(b.magnitude()).max(Real::MIN_POSITIVE)
}

/// A proptest configuration with `cases` cases from a fixed seed (reproducible failures, no
/// persistence files).
pub fn seeded(cases: u32, seed: u64) -> Config {
    Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..Config::default()
    }
}
