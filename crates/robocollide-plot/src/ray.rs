//! Exact ray intersections with robocollide's primitives, for the 3-D pictures: the nearest
//! hit of the ray `o + t d` (`t > 0`, `d` unit) with a shape's surface, and the outward normal
//! there. Closed forms only (quadratics and slabs), no meshes.
//!
//! - Sphere: `|o + t d − c|² = r²`.
//! - Capsule: the infinite cylinder around its axis, kept where the foot of the hit lies
//!   between the ends, and the two end spheres.
//! - Cylinder (flat caps): the lateral surface between the caps and the two cap discs.
//! - Box: the slab method in the box's frame (Kay & Kajiya, 1986).
//! - Plane (a half-space): its boundary plane, limited to a disc of radius `reach` around its
//!   point, since an infinite plane would fill the picture.
//! - Segments and points are drawn as capsules and spheres of a visible radius `thin`.

use robocollide::geom::Shape;
use robocollide::math::{Point3, Real, Vector3};

/// A hit: distance along the ray and the unit outward normal.
pub type Hit = (Real, Vector3);

fn nearer(a: Option<Hit>, b: Option<Hit>) -> Option<Hit> {
    match (a, b) {
        (Some(x), Some(y)) => Some(if x.0 <= y.0 { x } else { y }),
        (x, None) => x,
        (None, y) => y,
    }
}

/// Smallest positive root of `t² + 2 b t + c = 0` (with `a = 1`).
fn first_root(b: Real, c: Real) -> Option<Real> {
    let disc = b * b - c;
    if disc < 0.0 {
        return None;
    }
    let s = disc.sqrt();
    let (t0, t1) = (-b - s, -b + s);
    if t0 > 1e-9 {
        Some(t0)
    } else if t1 > 1e-9 {
        Some(t1)
    } else {
        None
    }
}

fn sphere(o: &Point3, d: &Vector3, c: &Point3, r: Real) -> Option<Hit> {
    let oc = o - c;
    let t = first_root(oc.dot(d), oc.norm_squared() - r * r)?;
    let p = o + d * t;
    Some((t, (p - c) / r.max(Real::MIN_POSITIVE)))
}

/// The lateral surface of the infinite cylinder of radius `r` around the line `a + s u`
/// (`u` unit), kept where `0 ≤ s ≤ length`.
fn side(o: &Point3, d: &Vector3, a: &Point3, u: &Vector3, length: Real, r: Real) -> Option<Hit> {
    let oa = o - a;
    let (dp, op) = (d - u * d.dot(u), oa - u * oa.dot(u));
    let k = dp.norm_squared();
    if k < 1e-18 {
        return None;
    }
    let disc_b = op.dot(&dp) / k;
    let disc_c = (op.norm_squared() - r * r) / k;
    let disc = disc_b * disc_b - disc_c;
    if disc < 0.0 {
        return None;
    }
    let s = disc.sqrt();
    for t in [-disc_b - s, -disc_b + s] {
        if t <= 1e-9 {
            continue;
        }
        let p = o + d * t;
        let along = (p - a).dot(u);
        if (0.0..=length).contains(&along) {
            let radial = p - (a + u * along);
            return Some((t, radial / r.max(Real::MIN_POSITIVE)));
        }
    }
    None
}

/// The disc of radius `r` centred at `c` with outward normal `n`.
fn disc(o: &Point3, d: &Vector3, c: &Point3, n: &Vector3, r: Real) -> Option<Hit> {
    let denominator = d.dot(n);
    if denominator.abs() < 1e-12 {
        return None;
    }
    let t = (c - o).dot(n) / denominator;
    (t > 1e-9 && (o + d * t - c).norm_squared() <= r * r).then_some((t, *n))
}

fn capsule(o: &Point3, d: &Vector3, a: &Point3, b: &Point3, r: Real) -> Option<Hit> {
    let axis = b - a;
    let length = axis.norm();
    let ends = nearer(sphere(o, d, a, r), sphere(o, d, b, r));
    if length < 1e-12 {
        return ends;
    }
    nearer(ends, side(o, d, a, &(axis / length), length, r))
}

fn cylinder(o: &Point3, d: &Vector3, a: &Point3, b: &Point3, r: Real) -> Option<Hit> {
    let axis = b - a;
    let length = axis.norm();
    let u = axis / length;
    nearer(
        side(o, d, a, &u, length, r),
        nearer(disc(o, d, a, &-u, r), disc(o, d, b, &u, r)),
    )
}

fn oriented_box(o: &Point3, d: &Vector3, b: &robocollide::geom::OrientedBox) -> Option<Hit> {
    let (lo, ld) = (b.to_local(o), b.rotation().transpose() * d);
    let h = b.half_extents();
    let (mut near, mut far, mut axis) = (Real::NEG_INFINITY, Real::INFINITY, (0, 1.0));
    for i in 0..3 {
        if ld[i].abs() < 1e-15 {
            if lo[i].abs() > h[i] {
                return None;
            }
            continue;
        }
        let (mut t0, mut t1) = ((-h[i] - lo[i]) / ld[i], (h[i] - lo[i]) / ld[i]);
        let mut sign = -1.0;
        if t0 > t1 {
            std::mem::swap(&mut t0, &mut t1);
            sign = 1.0;
        }
        if t0 > near {
            near = t0;
            axis = (i, sign);
        }
        far = far.min(t1);
    }
    if near > far || far <= 1e-9 {
        return None;
    }
    if near <= 1e-9 {
        return None; // the eye inside the box: nothing to shade from here
    }
    let mut n = Vector3::zeros();
    n[axis.0] = axis.1;
    Some((near, b.direction_to_world(&n)))
}

/// The nearest hit of the ray with `shape`'s surface; `thin` is the drawn radius of segments
/// and points, `reach` the drawn extent of half-spaces.
pub fn intersect(o: &Point3, d: &Vector3, shape: &Shape, thin: Real, reach: Real) -> Option<Hit> {
    match shape {
        Shape::Sphere(s) => sphere(o, d, &s.center(), s.radius()),
        Shape::Point(p) => sphere(o, d, p, thin),
        Shape::Capsule(c) => capsule(o, d, &c.axis().a(), &c.axis().b(), c.radius().max(thin)),
        Shape::Segment(s) => capsule(o, d, &s.a(), &s.b(), thin),
        Shape::Cylinder(c) => cylinder(o, d, &c.axis().a(), &c.axis().b(), c.radius().max(thin)),
        Shape::Box(b) => oriented_box(o, d, b),
        Shape::Plane(p) => disc(o, d, &p.point(), &p.normal(), reach),
    }
}

/// A sphere enclosing what [`intersect`] can hit (for skipping shapes a ray misses); `None`
/// for unbounded shapes.
pub fn bounding_sphere(shape: &Shape, thin: Real) -> Option<(Point3, Real)> {
    let segment = |a: Point3, b: Point3, r: Real| (nalgebra_mid(&a, &b), 0.5 * (b - a).norm() + r);
    match shape {
        Shape::Sphere(s) => Some((s.center(), s.radius())),
        Shape::Point(p) => Some((*p, thin)),
        Shape::Capsule(c) => Some(segment(c.axis().a(), c.axis().b(), c.radius().max(thin))),
        Shape::Segment(s) => Some(segment(s.a(), s.b(), thin)),
        Shape::Cylinder(c) => Some(segment(c.axis().a(), c.axis().b(), c.radius().max(thin))),
        Shape::Box(b) => Some((b.center(), b.half_extents().norm())),
        Shape::Plane(_) => None,
    }
}

/// The axis-aligned bounds of a bounded shape; `None` for half-spaces.
pub fn bounds(shape: &Shape) -> Option<(Vector3, Vector3)> {
    let around = |points: &[Point3], r: Real| {
        let mut lo = Vector3::repeat(Real::INFINITY);
        let mut hi = Vector3::repeat(Real::NEG_INFINITY);
        for p in points {
            lo = lo.inf(&(p.coords - Vector3::repeat(r)));
            hi = hi.sup(&(p.coords + Vector3::repeat(r)));
        }
        (lo, hi)
    };
    match shape {
        Shape::Sphere(s) => Some(around(&[s.center()], s.radius())),
        Shape::Point(p) => Some(around(&[*p], 0.0)),
        Shape::Capsule(c) => Some(around(&[c.axis().a(), c.axis().b()], c.radius())),
        Shape::Segment(s) => Some(around(&[s.a(), s.b()], 0.0)),
        Shape::Cylinder(c) => Some(around(&[c.axis().a(), c.axis().b()], c.radius())),
        Shape::Box(b) => Some(around(&b.vertices(), 0.0)),
        Shape::Plane(_) => None,
    }
}

fn nalgebra_mid(a: &Point3, b: &Point3) -> Point3 {
    Point3::from((a.coords + b.coords) * 0.5)
}

#[cfg(test)]
mod tests {
    use super::*;
    use robocollide::geom::{Capsule, Cylinder, OrientedBox, Sphere};

    fn down() -> (Point3, Vector3) {
        (Point3::new(0.0, 0.0, 10.0), -Vector3::z())
    }

    #[test]
    fn hits_are_on_the_surfaces() {
        let (o, d) = down();
        let s = Shape::Sphere(Sphere::new(Point3::origin(), 1.0).unwrap());
        let (t, n) = intersect(&o, &d, &s, 0.0, 1.0).unwrap();
        assert!((t - 9.0).abs() < 1e-12 && (n - Vector3::z()).norm() < 1e-12);
        // A capsule lying along x, radius 0.5: hit on its side at z = 0.5.
        let c = Shape::Capsule(
            Capsule::new(Point3::new(-1.0, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0), 0.5).unwrap(),
        );
        let (t, n) = intersect(&o, &d, &c, 0.0, 1.0).unwrap();
        assert!((t - 9.5).abs() < 1e-12 && (n - Vector3::z()).norm() < 1e-12);
        // Standing cylinder: the top cap at z = 2.
        let y = Shape::Cylinder(
            Cylinder::new(Point3::origin(), Point3::new(0.0, 0.0, 2.0), 0.5).unwrap(),
        );
        let (t, n) = intersect(&o, &d, &y, 0.0, 1.0).unwrap();
        assert!((t - 8.0).abs() < 1e-12 && n == Vector3::z());
        // A box rotated 90° about z: its top face at z = 3.
        let b = Shape::Box(
            OrientedBox::from_rpy(
                Point3::origin(),
                [0.0, 0.0, 1.57],
                Vector3::new(1.0, 2.0, 3.0),
            )
            .unwrap(),
        );
        let (t, n) = intersect(&o, &d, &b, 0.0, 1.0).unwrap();
        assert!((t - 7.0).abs() < 1e-12 && (n - Vector3::z()).norm() < 1e-12);
        // Missing: a ray beside the sphere.
        assert!(intersect(&Point3::new(2.0, 0.0, 10.0), &d, &s, 0.0, 1.0).is_none());
    }
}
