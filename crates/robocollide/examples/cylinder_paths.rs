//! Where cylinder–cylinder time goes on the benchmark's inputs (diagnostic, not a test).
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use robocollide::geom::Cylinder;
use robocollide::math::{Point3, Vector3};
use robocollide::query::{closest_points, cylinder_cylinder};
use std::time::Instant;

fn main() {
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let mut p = || {
        Point3::new(
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
        )
    };
    let mut cyls = Vec::new();
    for _ in 0..2048 {
        let a = p();
        let d = Vector3::new(p().x, p().y, p().z).normalize() * 0.5;
        cyls.push(Cylinder::new(a, a + d, 0.2).unwrap());
    }
    let mut buckets: [(u32, f64); 3] = [(0, 0.0); 3];
    for pair in cyls.chunks(2) {
        let (a, b) = (&pair[0], &pair[1]);
        let t = Instant::now();
        let mut r = cylinder_cylinder(a, b);
        for _ in 0..20 {
            r = cylinder_cylinder(a, b);
        }
        let dt = t.elapsed().as_secs_f64() / 21.0;
        let c = closest_points(a.axis(), b.axis());
        let lateral = c.s > 0.0
            && c.s < 1.0
            && c.t > 0.0
            && c.t < 1.0
            && (c.point_b - c.point_a).norm() > a.radius() + b.radius();
        let k = if lateral {
            0
        } else if r.distance > 0.0 {
            1
        } else {
            2
        };
        buckets[k].0 += 1;
        buckets[k].1 += dt;
    }
    for (name, (n, t)) in ["lateral fast path", "GJK (apart)", "contact/penetration"]
        .iter()
        .zip(buckets)
    {
        println!(
            "{name:22} {n:5} pairs, mean {:8.0} ns",
            t / n.max(1) as f64 * 1e9
        );
    }
}
