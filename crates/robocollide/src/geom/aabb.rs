//! [`Aabb`]: a box aligned with the world axes that holds a shape, for cheap lower bounds on
//! distances (culling before an exact kernel).
//!
//! Extents per world axis `i`: a box with axes `Rⱼ` (columns of its rotation) and half-extents
//! `hⱼ` reaches `Σⱼ |Rᵢⱼ| hⱼ` from its centre; a flat-ended cylinder with unit axis `u`, half
//! length `ℓ/2` and radius `ρ` reaches `|uᵢ| ℓ/2 + ρ √(1 − uᵢ²)` (its end discs' extent); a
//! sphere, segment or capsule its end points' spread plus the radius. A half-space has no
//! bounding box. Every extent is grown by a relative `1e-12` of the shape's magnitude, far
//! beyond the rounding of these few operations, so the box holds the exact shape.

use super::Shape;
use crate::math::{Point3, Real, Vector3, larger, max_abs};

/// Relative growth that covers the rounding of the extents and of [`Aabb::sphere_gap`].
const GROWTH: Real = 1e-12;

/// A box aligned with the world axes: centre and half-extents (non-negative).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Aabb {
    center: Point3,
    half: Vector3,
}

impl Aabb {
    /// A box holding `shape`; `None` for a half-space (unbounded).
    pub fn of(shape: &Shape) -> Option<Self> {
        let (center, half) = match shape {
            Shape::Point(p) => (*p, Vector3::zeros()),
            Shape::Sphere(s) => (s.center(), Vector3::repeat(s.radius())),
            Shape::Segment(s) => spread(s.a(), s.b(), 0.0),
            Shape::Capsule(c) => spread(c.axis().a(), c.axis().b(), c.radius()),
            Shape::Cylinder(c) => {
                let (center, ends) = spread(c.axis().a(), c.axis().b(), 0.0);
                let u = c.unit_axis();
                let rim = u.map(|ui| c.radius() * (1.0 - ui * ui).max(0.0).sqrt());
                (center, ends + rim)
            }
            Shape::Box(b) => (b.center(), b.rotation().abs() * b.half_extents()),
            Shape::Plane(_) => return None,
        };
        let scale = max_abs(&center.coords) + half.amax();
        Some(Self {
            center,
            half: half.add_scalar(GROWTH * scale),
        })
    }

    /// Centre.
    pub fn center(&self) -> Point3 {
        self.center
    }

    /// Half-extents.
    pub fn half_extents(&self) -> Vector3 {
        self.half
    }

    /// The lowest and the highest corner (`centre ∓ half-extents`).
    pub fn corners(&self) -> (Point3, Point3) {
        (self.center - self.half, self.center + self.half)
    }

    /// A lower bound on the distance from the ball (`center`, `radius`) to any point inside
    /// the box: the distance from the centre to the box less the radius, made smaller by a
    /// relative `1e-12` of the magnitudes involved (so rounding never makes it too large).
    /// Never positive when the ball is not finite (never a certificate). Where it is not
    /// positive it bounds nothing: a signed distance into the solid can be deeper than the
    /// `−radius` a centre inside the box gives.
    #[inline]
    pub fn sphere_gap(&self, center: &Point3, radius: Real) -> Real {
        let (c, b, h) = (center, &self.center, &self.half);
        sphere_box_gap(
            [(c.x, b.x, h.x), (c.y, b.y, h.y), (c.z, b.z, h.z)],
            radius,
            [
                max_abs(&center.coords) + radius,
                max_abs(&self.center.coords),
                max_abs(&self.half),
            ],
        )
    }
}

/// [`Aabb::sphere_gap`]'s arithmetic, from per axis `(sphere centre, box centre, half-extent)`
/// and the three magnitudes of its rounding allowance (the sphere's `max |cᵢ| + r`, the box
/// centre's and the half-extents' largest), summed in that order. For callers that keep boxes
/// apart from [`Aabb`] and must give its values to the last bit (the motion check's blocks side
/// by side, `collision/box_block_gaps.rs`).
#[inline(always)]
pub(crate) fn sphere_box_gap(
    axes: [(Real, Real, Real); 3],
    radius: Real,
    scales: [Real; 3],
) -> Real {
    // (`larger(x, 0)` is `x.max(0)`, NaN giving 0 alike, in one comparison.)
    let [x, y, z] = axes.map(|(c, b, h)| larger((c - b).abs() - h, 0.0));
    let [sphere, centre, half] = scales;
    (x * x + y * y + z * z).sqrt() - radius - GROWTH * (sphere + centre + half)
}

/// Centre and half-extents of the segment `a b`, each grown by `radius`.
fn spread(a: Point3, b: Point3, radius: Real) -> (Point3, Vector3) {
    let center = Point3::from((a.coords + b.coords) * 0.5);
    (center, (b - a).abs() * 0.5 + Vector3::repeat(radius))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::{Capsule, Cylinder, OrientedBox, Sphere};
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn random_unit(rng: &mut ChaCha8Rng) -> Vector3 {
        loop {
            let v = Vector3::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            );
            if v.norm() > 0.1 {
                return v.normalize();
            }
        }
    }

    /// Points of each shape's surface (a box's corners, a cylinder's rims densely, a capsule's
    /// and a ball's extreme points): every one lies inside its box, and the box touches them
    /// on every face (to 1e-9 of the scale and the rim sampling's error).
    #[test]
    fn holds_every_point_and_is_tight() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for scale in [1e-6, 1.0, 1e6] {
            for _ in 0..200 {
                let c = Point3::from(random_unit(&mut rng) * scale * rng.random_range(0.0..5.0));
                let shapes: Vec<(Shape, Vec<Point3>)> = {
                    let rpy = Vector3::new(
                        rng.random_range(-3.0..3.0),
                        rng.random_range(-3.0..3.0),
                        rng.random_range(-3.0..3.0),
                    );
                    let h = Vector3::new(
                        rng.random_range(0.0..1.0),
                        rng.random_range(0.0..1.0),
                        rng.random_range(0.0..1.0),
                    ) * scale;
                    let b = OrientedBox::from_rpy(c, rpy.into(), h).unwrap();
                    let corners = (0..8)
                        .map(|k| {
                            let s = |bit: usize| if k >> bit & 1 == 1 { 1.0 } else { -1.0 };
                            b.center()
                                + b.rotation() * Vector3::new(s(0) * h.x, s(1) * h.y, s(2) * h.z)
                        })
                        .collect();
                    let axis = random_unit(&mut rng) * scale * rng.random_range(0.01..2.0);
                    let radius = scale * rng.random_range(0.0..1.0);
                    let cyl = Cylinder::new(c, c + axis, radius).unwrap();
                    let u = axis.normalize();
                    let e1 = u.cross(&random_unit(&mut rng)).normalize();
                    let e2 = u.cross(&e1);
                    let rim = (0..720)
                        .flat_map(|k| {
                            let t = k as Real * std::f64::consts::TAU / 720.0;
                            let r = (e1 * t.cos() + e2 * t.sin()) * radius;
                            [c + r, c + axis + r]
                        })
                        .collect();
                    let cap = Capsule::new(c, c + axis, radius).unwrap();
                    let cap_points = (0..6)
                        .flat_map(|i| {
                            let mut e = Vector3::zeros();
                            e[i % 3] = if i < 3 { radius } else { -radius };
                            [c + e, c + axis + e]
                        })
                        .collect();
                    let ball = Sphere::new(c, radius).unwrap();
                    let ball_points = (0..6)
                        .map(|i| {
                            let mut e = Vector3::zeros();
                            e[i % 3] = if i < 3 { radius } else { -radius };
                            c + e
                        })
                        .collect();
                    vec![
                        (b.into(), corners),
                        (cyl.into(), rim),
                        (cap.into(), cap_points),
                        (ball.into(), ball_points),
                    ]
                };
                for (shape, points) in shapes {
                    let aabb = Aabb::of(&shape).unwrap();
                    let (lo, hi) = aabb.corners();
                    for p in &points {
                        for i in 0..3 {
                            assert!(lo[i] <= p[i] && p[i] <= hi[i], "{shape:?}: {p:?}");
                        }
                        // Every surface point is in the box, so the gap to a ball there is
                        // at most 0.
                        assert!(aabb.sphere_gap(p, 0.0) <= 0.0);
                    }
                    // Every face touched: the sampled rim's extent falls short of the true
                    // one by at most 1 − cos(π/720) < 1e-5 of a half-extent.
                    for i in 0..3 {
                        let top = points
                            .iter()
                            .map(|p| p[i])
                            .fold(Real::NEG_INFINITY, Real::max);
                        let bottom = points.iter().map(|p| p[i]).fold(Real::INFINITY, Real::min);
                        let slack = 1e-9 * scale + 2e-5 * aabb.half_extents()[i];
                        assert!(hi[i] - top <= slack, "{shape:?} axis {i}");
                        assert!(bottom - lo[i] <= slack, "{shape:?} axis {i}");
                    }
                }
            }
        }
    }

    /// The gap is a lower bound on the exact distance from a ball to a box (the shape is
    /// inside), within rounding of it when the ball faces the box squarely, and equal for an
    /// axis-aligned box.
    #[test]
    fn sphere_gap_bounds_the_box_distance_from_below() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for scale in [1e-6, 1.0, 1e6] {
            for _ in 0..2000 {
                let h = Vector3::new(
                    rng.random_range(0.0..1.0),
                    rng.random_range(0.0..1.0),
                    rng.random_range(0.0..1.0),
                ) * scale;
                let c = Point3::from(random_unit(&mut rng) * scale);
                let aligned = OrientedBox::axis_aligned(c, h).unwrap();
                let rpy = random_unit(&mut rng) * 3.0;
                let turned = OrientedBox::from_rpy(c, rpy.into(), h).unwrap();
                let p = Point3::from(random_unit(&mut rng) * scale * rng.random_range(0.0..4.0));
                let r = scale * rng.random_range(0.0..0.5);
                let ball = Sphere::new(p, r).unwrap();
                for (b, exact_expected) in [(aligned, true), (turned, false)] {
                    let exact = crate::query::sphere_box(&ball, &b).distance;
                    let gap = Aabb::of(&Shape::Box(b)).unwrap().sphere_gap(&p, r);
                    assert!(gap <= exact.max(-r), "{gap} > {exact}");
                    if exact_expected && exact > 0.0 {
                        assert!(exact - gap <= 1e-9 * scale, "{gap} vs {exact}");
                    }
                }
            }
        }
        let unbounded =
            Aabb::of(&Shape::Sphere(Sphere::new(Point3::origin(), 1.0).unwrap())).unwrap();
        // Never a certificate (`gap > bound` false) for a ball that is not finite.
        let infinite = unbounded.sphere_gap(&Point3::origin(), Real::INFINITY);
        let nan = unbounded.sphere_gap(&Point3::new(Real::NAN, 0.0, 0.0), 0.0);
        assert!(infinite <= 0.0 || infinite.is_nan(), "{infinite}");
        assert!(nan <= 0.0 || nan.is_nan(), "{nan}");
    }
}
