//! Seeded random and adversarial inputs, over scales from 1e-6 m to 1e6 m.

use rand::RngExt;

use super::TestRng;

pub type P = [f64; 3];

pub fn uniform(rng: &mut TestRng, lo: f64, hi: f64) -> f64 {
    rng.random_range(lo..hi)
}

pub fn point_in_box(rng: &mut TestRng, half: f64) -> P {
    std::array::from_fn(|_| uniform(rng, -half, half))
}

pub fn unit(rng: &mut TestRng) -> P {
    loop {
        let p = point_in_box(rng, 1.0);
        let n = norm(p);
        if n > 0.1 && n <= 1.0 {
            return [p[0] / n, p[1] / n, p[2] / n];
        }
    }
}

pub fn add(a: P, b: P) -> P {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}
pub fn sub(a: P, b: P) -> P {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
pub fn scale(a: P, k: f64) -> P {
    [a[0] * k, a[1] * k, a[2] * k]
}
pub fn dot(a: P, b: P) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
pub fn cross(a: P, b: P) -> P {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}
pub fn norm(a: P) -> f64 {
    dot(a, a).sqrt()
}

/// The scales and offsets the tests sweep: (size of the shapes, distance of the scene from the
/// origin). Coordinates range from 1e-6 to 1e6.
pub const SCALES: [(f64, f64); 7] = [
    (1e-6, 0.0),
    (1e-3, 0.0),
    (1.0, 0.0),
    (1e3, 0.0),
    (1e6, 0.0),
    (1.0, 1e6),
    (1e-3, 1.0),
];

/// A pair of segments from one of several adversarial families (index `family`), of size
/// `size`, translated by `offset` along a random direction.
pub fn segment_pair(rng: &mut TestRng, family: usize, size: f64, offset: f64) -> (P, P, P, P) {
    let o = scale(unit(rng), offset);
    let at = |p: P| add(o, scale(p, size));
    let p0 = point_in_box(rng, 1.0);
    let u = scale(unit(rng), uniform(rng, 0.2, 2.0));
    let (q0, v) = match family % 9 {
        // Uniform random.
        0 => (
            point_in_box(rng, 1.0),
            scale(unit(rng), uniform(rng, 0.2, 2.0)),
        ),
        // Nearly parallel, perturbed by 1e-3 .. 1e-15 of the length, near each other.
        1 | 2 => {
            let eps = 10f64.powi(-(rng.random_range(3..=15)));
            let v = add(
                scale(u, uniform(rng, -1.5, 1.5)),
                scale(unit(rng), eps * norm(u)),
            );
            (add(p0, scale(point_in_box(rng, 1.0), 0.3)), v)
        }
        // Exactly parallel (scaled copy of u), overlapping or not, maybe anti-parallel.
        3 => {
            let k = [1.0, -1.0, 0.5, -2.0][rng.random_range(0..4)];
            (add(p0, scale(point_in_box(rng, 1.0), 0.5)), scale(u, k))
        }
        // Collinear (same line), overlapping or disjoint.
        4 => {
            let k = [1.0, -1.0, 0.25, -3.0][rng.random_range(0..4)];
            (add(p0, scale(u, uniform(rng, -1.5, 1.5))), scale(u, k))
        }
        // Crossing: both pass (up to rounding) through a common point, at any angle, some tiny.
        5 => {
            let c = add(p0, scale(u, uniform(rng, 0.0, 1.0)));
            let angle = 10f64.powi(-(rng.random_range(0..=12)));
            let w = unit(rng);
            let v = add(scale(u, 1.0), scale(cross(u, w), angle));
            let t = uniform(rng, 0.0, 1.0);
            (sub(c, scale(v, t)), v)
        }
        // Zero-length segments (one or both).
        6 => {
            if rng.random_bool(0.5) {
                (point_in_box(rng, 1.0), [0.0; 3])
            } else {
                return (
                    at(p0),
                    at(p0),
                    at(point_in_box(rng, 1.0)),
                    at(point_in_box(rng, 1.0)),
                );
            }
        }
        // Shared endpoint.
        7 => (add(p0, u), scale(unit(rng), uniform(rng, 0.2, 2.0))),
        // Endpoint near the other's interior (T-junction at a tiny gap).
        _ => {
            let foot = add(p0, scale(u, uniform(rng, 0.1, 0.9)));
            let n = cross(u, unit(rng));
            let n = scale(n, 1.0 / norm(n));
            let gap = 10f64.powi(-(rng.random_range(0..=14)));
            (add(foot, scale(n, gap)), scale(n, uniform(rng, 0.2, 2.0)))
        }
    };
    (at(p0), at(add(p0, u)), at(q0), at(add(q0, v)))
}
