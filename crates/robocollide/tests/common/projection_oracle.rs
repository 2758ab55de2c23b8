//! Independent distance oracle for convex shapes with exact Euclidean projections: dense
//! sampling of both boundaries for a start, then alternating projections (von Neumann /
//! Cheney–Goldstein), which converge to a closest pair of two disjoint closed convex sets.
//! Each iterate is a genuine pair of points, so the value is an upper bound that decreases to
//! the true distance. It knows nothing of robocollide's kernels.

use robocollide::geom::{Capsule, Cylinder, OrientedBox, Shape, Sphere};
use robocollide::query::Separation;

use super::generators::{P, add, dot, norm, scale, sub};

/// A convex solid with an exact projection and boundary samples.
#[derive(Clone, Copy, Debug)]
pub enum Solid {
    /// Centre, radius.
    Ball(P, f64),
    /// Axis a, axis b, radius.
    Capsule(P, P, f64),
    /// Axis a, axis b, radius; flat caps.
    Cylinder(P, P, f64),
    /// Centre, the three unit axes, half-extents.
    Box(P, [P; 3], P),
}

/// `p` in a box's frame.
fn box_local(p: P, c: P, axes: &[P; 3]) -> P {
    let rel = sub(p, c);
    [dot(rel, axes[0]), dot(rel, axes[1]), dot(rel, axes[2])]
}

/// A box-frame point in the world.
fn box_world(l: P, c: P, axes: &[P; 3]) -> P {
    add(
        c,
        add(
            add(scale(axes[0], l[0]), scale(axes[1], l[1])),
            scale(axes[2], l[2]),
        ),
    )
}

fn project_segment(p: P, a: P, b: P) -> P {
    let d = sub(b, a);
    let dd = dot(d, d);
    let t = if dd > 0.0 {
        (dot(sub(p, a), d) / dd).clamp(0.0, 1.0)
    } else {
        0.0
    };
    add(a, scale(d, t))
}

fn any_perpendicular(u: P) -> (P, P) {
    let h = if u[0].abs() < 0.6 {
        [1.0, 0.0, 0.0]
    } else {
        [0.0, 1.0, 0.0]
    };
    let e1 = super::generators::cross(u, h);
    let e1 = scale(e1, 1.0 / norm(e1));
    (e1, super::generators::cross(u, e1))
}

fn axis_unit(a: P, b: P) -> P {
    let d = sub(b, a);
    let n = norm(d);
    if n > 0.0 {
        scale(d, 1.0 / n)
    } else {
        [0.0, 0.0, 1.0]
    }
}

impl Solid {
    /// The point of the solid nearest to `p`.
    pub fn project(&self, p: P) -> P {
        match *self {
            Solid::Ball(c, r) => clamp_ball(p, c, r),
            Solid::Capsule(a, b, r) => clamp_ball(p, project_segment(p, a, b), r),
            Solid::Cylinder(a, b, r) => {
                let u = axis_unit(a, b);
                let len = norm(sub(b, a));
                let rel = sub(p, a);
                let h = dot(rel, u);
                let radial = sub(rel, scale(u, h));
                let rho = norm(radial);
                let radial = if rho > r {
                    scale(radial, r / rho)
                } else {
                    radial
                };
                add(add(a, scale(u, h.clamp(0.0, len))), radial)
            }
            Solid::Box(c, axes, h) => {
                let l = box_local(p, c, &axes);
                box_world(std::array::from_fn(|i| l[i].clamp(-h[i], h[i])), c, &axes)
            }
        }
    }

    /// Points spread over the boundary (and axis) for a starting guess.
    pub fn samples(&self, n: usize) -> Vec<P> {
        let mut out = Vec::new();
        match *self {
            Solid::Box(c, axes, h) => {
                // A grid on each face.
                for axis in 0..3 {
                    for side in [-1.0, 1.0] {
                        for i in 0..=n {
                            for j in 0..=n {
                                let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
                                let mut l = [0.0; 3];
                                l[axis] = side * h[axis];
                                l[u] = h[u] * (2.0 * i as f64 / n as f64 - 1.0);
                                l[v] = h[v] * (2.0 * j as f64 / n as f64 - 1.0);
                                out.push(box_world(l, c, &axes));
                            }
                        }
                    }
                }
            }
            Solid::Ball(c, r) => {
                for i in 0..n * n {
                    let z = 1.0 - 2.0 * (i as f64 + 0.5) / (n * n) as f64;
                    let phi = i as f64 * 2.399963229728653;
                    let s = (1.0 - z * z).sqrt();
                    out.push(add(c, scale([s * phi.cos(), s * phi.sin(), z], r)));
                }
            }
            Solid::Capsule(a, b, r) | Solid::Cylinder(a, b, r) => {
                let u = axis_unit(a, b);
                let (e1, e2) = any_perpendicular(u);
                let d = sub(b, a);
                for i in 0..=n {
                    let base = add(a, scale(d, i as f64 / n as f64));
                    for j in 0..n {
                        let ang = std::f64::consts::TAU * j as f64 / n as f64;
                        let dir = add(scale(e1, ang.cos()), scale(e2, ang.sin()));
                        out.push(add(base, scale(dir, r)));
                    }
                    out.push(base);
                }
                if let Solid::Capsule(..) = self {
                    for end in [a, b] {
                        out.extend(Solid::Ball(end, r).samples(n / 2 + 2));
                    }
                } else {
                    for end in [a, b] {
                        for k in 1..4 {
                            for j in 0..n {
                                let ang = std::f64::consts::TAU * j as f64 / n as f64;
                                let dir = add(scale(e1, ang.cos()), scale(e2, ang.sin()));
                                out.push(add(end, scale(dir, r * k as f64 / 4.0)));
                            }
                        }
                    }
                }
            }
        }
        out
    }
}

fn clamp_ball(p: P, c: P, r: f64) -> P {
    let d = sub(p, c);
    let n = norm(d);
    if n > r { add(c, scale(d, r / n)) } else { p }
}

/// Upper bound on the distance between two solids, converged by alternating projections.
/// Returns 0 when a common point is found.
pub fn distance(a: &Solid, b: &Solid) -> f64 {
    let sa = a.samples(24);
    let sb = b.samples(24);
    let mut best = (f64::INFINITY, sa[0], sb[0]);
    for &x in &sa {
        let y = b.project(x);
        let d = norm(sub(x, y));
        if d < best.0 {
            best = (d, x, y);
        }
    }
    for &y in &sb {
        let x = a.project(y);
        let d = norm(sub(x, y));
        if d < best.0 {
            best = (d, x, y);
        }
    }
    let (mut d, _, mut y) = best;
    for _ in 0..400_000 {
        let x = a.project(y);
        let y2 = b.project(x);
        let d2 = norm(sub(x, y2));
        let moved = norm(sub(y2, y));
        y = y2;
        d = d.min(d2);
        if d2 == 0.0 || moved <= 1e-17 * (1.0 + norm(y)) {
            break;
        }
    }
    d
}

impl Solid {
    /// The solid of a robocollide shape (points are balls and segments capsules of radius 0).
    pub fn from_shape(shape: &Shape) -> Solid {
        let p = |x: robocollide::math::Point3| [x.x, x.y, x.z];
        match shape {
            Shape::Point(x) => Solid::Ball(p(*x), 0.0),
            Shape::Segment(s) => Solid::Capsule(p(s.a()), p(s.b()), 0.0),
            Shape::Sphere(s) => Solid::Ball(p(s.center()), s.radius()),
            Shape::Capsule(c) => Solid::Capsule(p(c.axis().a()), p(c.axis().b()), c.radius()),
            Shape::Cylinder(c) => Solid::Cylinder(p(c.axis().a()), p(c.axis().b()), c.radius()),
            Shape::Box(b) => Solid::Box(
                p(b.center()),
                std::array::from_fn(|i| b.axis(i).into()),
                b.half_extents().into(),
            ),
            Shape::Plane(_) => panic!("a half-space is not a bounded solid"),
        }
    }

    /// The robocollide shape of this solid.
    pub fn to_shape(self) -> Shape {
        match self {
            Solid::Ball(c, r) => Sphere::new(c.into(), r).unwrap().into(),
            Solid::Capsule(a, b, r) => Capsule::new(a.into(), b.into(), r).unwrap().into(),
            Solid::Cylinder(a, b, r) => Cylinder::new(a.into(), b.into(), r).unwrap().into(),
            Solid::Box(c, axes, h) => OrientedBox::new(
                c.into(),
                robocollide::math::Matrix3::from_fn(|i, j| axes[j][i]),
                h.into(),
            )
            .unwrap()
            .into(),
        }
    }

    /// Largest absolute coordinate plus radius.
    pub fn magnitude(&self) -> f64 {
        let m = |p: P| p.iter().fold(0.0f64, |acc, x| acc.max(x.abs()));
        match *self {
            Solid::Ball(c, r) => m(c) + r,
            Solid::Capsule(a, b, r) | Solid::Cylinder(a, b, r) => m(a).max(m(b)) + r,
            Solid::Box(c, _, h) => m(c) + norm(h),
        }
    }

    /// Support function `max_{x ∈ solid} x · d / |d|`, written independently of robocollide.
    pub fn support(&self, d: P) -> f64 {
        let d = scale(d, 1.0 / norm(d));
        match *self {
            Solid::Ball(c, r) => dot(c, d) + r,
            Solid::Capsule(a, b, r) => dot(a, d).max(dot(b, d)) + r,
            Solid::Cylinder(a, b, r) => {
                let u = axis_unit(a, b);
                let along = dot(d, u);
                dot(a, d).max(dot(b, d)) + r * norm(sub(d, scale(u, along)))
            }
            Solid::Box(c, axes, h) => {
                dot(c, d) + (0..3).map(|i| h[i] * dot(axes[i], d).abs()).sum::<f64>()
            }
        }
    }
}

/// Gap of `a` and `b` along unit `n` (a lower bound on their signed distance).
pub fn gap(a: &Solid, b: &Solid, n: P) -> f64 {
    -b.support(scale(n, -1.0)) - a.support(n)
}

/// An independent two-sided certificate for a reported *apart* answer: the true distance lies
/// in `[lower, upper]` where `lower` is the gap along the reported normal and `upper` the
/// distance between the reported witnesses, both checked with this module's own geometry
/// (panics if a witness lies outside its shape by more than `1e-14 ×` magnitude).
pub fn certify_apart(a: &Solid, b: &Solid, r: &Separation) -> (f64, f64) {
    let mag = a.magnitude().max(b.magnitude());
    let (pa, pb): (P, P) = (r.point_a.coords.into(), r.point_b.coords.into());
    assert!(
        norm(sub(a.project(pa), pa)) <= 1e-14 * mag,
        "witness a outside its shape: {r:?}"
    );
    assert!(
        norm(sub(b.project(pb), pb)) <= 1e-14 * mag,
        "witness b outside its shape: {r:?}"
    );
    (gap(a, b, r.normal.into()), norm(sub(pb, pa)))
}
