//! [`Solid`]: an obstacle's ball, box or flat-capped cylinder reduced to what the squared
//! distance from a point to it needs, measured for one point or for every lane at once.
//!
//! For these solids the squared distance from a point is a sum of squares of how far the
//! point lies beyond the solid along directions at right angles (a box: its three face pairs,
//! along the box axes; a cylinder: its caps along the axis, and its side across it, measured
//! from the axis; a ball: its surface along the ray from the centre), and 0 inside. A sphere of radius `r`
//! whose centre's squared distance exceeds `(r + δ)²` is more than `δ` from the solid. The
//! values carry the few roundings of a dot product and a square root (~10⁻¹⁵ of the
//! coordinates): callers that certify add their own margin. Units: metres.

use crate::geom::Shape;
use crate::kinematics::{LANES, Lane};
use crate::math::{Point3, Real, Vector3};

/// An obstacle's solid, as the squared point distances measure it.
#[derive(Debug, Clone)]
pub(super) enum Solid {
    Ball {
        centre: Vector3,
        radius: Real,
    },
    /// `rows`: the box's axes (world), `half`: its half-extents along them.
    Box {
        centre: Vector3,
        rows: [Vector3; 3],
        half: [Real; 3],
    },
    /// `axis`: unit, from the centre; `half`: half the length.
    Cylinder {
        centre: Vector3,
        axis: Vector3,
        half: Real,
        radius: Real,
    },
}

impl Solid {
    /// The solid of an obstacle's shape, if it is a ball, box or cylinder.
    pub(super) fn of(shape: &Shape) -> Option<Self> {
        Some(match shape {
            Shape::Sphere(s) => Solid::Ball {
                centre: s.center().coords,
                radius: s.radius(),
            },
            Shape::Box(b) => Solid::Box {
                centre: b.center().coords,
                rows: std::array::from_fn(|i| b.axis(i)),
                half: std::array::from_fn(|i| b.half_extents()[i]),
            },
            Shape::Cylinder(c) => Solid::Cylinder {
                centre: (c.axis().a().coords + c.axis().b().coords) * 0.5,
                axis: c.unit_axis(),
                half: 0.5 * c.length(),
                radius: c.radius(),
            },
            _ => return None,
        })
    }

    /// How far from the origin the solid reaches.
    pub(super) fn extent(&self) -> Real {
        match self {
            Solid::Ball { centre, radius } => centre.norm() + radius,
            Solid::Box { centre, half, .. } => centre.norm() + half.iter().sum::<Real>(),
            Solid::Cylinder {
                centre,
                half,
                radius,
                ..
            } => centre.norm() + half + radius,
        }
    }

    /// The squared distance from `p` to the solid (0 inside).
    #[inline(always)]
    pub(super) fn squared_gap(&self, p: &Point3) -> Real {
        match self {
            Solid::Ball { centre, radius } => ball_gap(centre, *radius, [p.x, p.y, p.z]),
            Solid::Box { centre, rows, half } => box_gap(centre, rows, half, [p.x, p.y, p.z]),
            Solid::Cylinder {
                centre,
                axis,
                half,
                radius,
            } => cylinder_gap(centre, axis, *half, *radius, [p.x, p.y, p.z]),
        }
    }

    /// The squared distance from the point of each lane to the solid (0 inside).
    #[inline(always)]
    pub(super) fn squared_gaps(&self, p: &[Lane; 3]) -> Lane {
        let mut out = [0.0; LANES];
        let at = |l: usize| [p[0][l], p[1][l], p[2][l]];
        // (The match outside the loops, so each loop vectorises.)
        match self {
            Solid::Ball { centre, radius } => {
                for (l, out) in out.iter_mut().enumerate() {
                    *out = ball_gap(centre, *radius, at(l));
                }
            }
            Solid::Box { centre, rows, half } => {
                for (l, out) in out.iter_mut().enumerate() {
                    *out = box_gap(centre, rows, half, at(l));
                }
            }
            Solid::Cylinder {
                centre,
                axis,
                half,
                radius,
            } => {
                for (l, out) in out.iter_mut().enumerate() {
                    *out = cylinder_gap(centre, axis, *half, *radius, at(l));
                }
            }
        }
        out
    }
}

impl Solid {
    /// For each lane's point, its offset from the solid's nearest point (`p − nearest`; 0
    /// inside): its length is the distance, its direction the distance's gradient (for the
    /// chord pass, [`lane_chords`](super::lane_chords)).
    // (Lane-indexed loops that vectorise: one lane's three values are written across the
    // three arrays.)
    #[allow(clippy::needless_range_loop)]
    #[inline(always)]
    pub(super) fn outside_offsets(&self, p: &[Lane; 3]) -> [Lane; 3] {
        let mut out = [[0.0; LANES]; 3];
        let at = |l: usize| [p[0][l], p[1][l], p[2][l]];
        match self {
            Solid::Ball { centre, radius } => {
                for l in 0..LANES {
                    let v = offset(at(l), centre);
                    let norm = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
                    let keep = if norm > *radius {
                        1.0 - radius / norm
                    } else {
                        0.0
                    };
                    for a in 0..3 {
                        out[a][l] = v[a] * keep;
                    }
                }
            }
            Solid::Box { centre, rows, half } => {
                for l in 0..LANES {
                    let v = offset(at(l), centre);
                    let mut o = [0.0; 3];
                    for (row, h) in rows.iter().zip(half) {
                        let along = dot(row, v);
                        let beyond = along - along.clamp(-h, *h);
                        o[0] += row.x * beyond;
                        o[1] += row.y * beyond;
                        o[2] += row.z * beyond;
                    }
                    for a in 0..3 {
                        out[a][l] = o[a];
                    }
                }
            }
            Solid::Cylinder {
                centre,
                axis,
                half,
                radius,
            } => {
                for l in 0..LANES {
                    let (along, w, across) = cylinder_frame(centre, axis, at(l));
                    let cap = along - along.clamp(-half, *half);
                    let side = if across > *radius {
                        1.0 - radius / across
                    } else {
                        0.0
                    };
                    out[0][l] = axis.x * cap + w[0] * side;
                    out[1][l] = axis.y * cap + w[1] * side;
                    out[2][l] = axis.z * cap + w[2] * side;
                }
            }
        }
        out
    }
}

/// `p − centre`.
#[inline(always)]
fn offset(p: [Real; 3], centre: &Vector3) -> [Real; 3] {
    [p[0] - centre.x, p[1] - centre.y, p[2] - centre.z]
}

#[inline(always)]
fn dot(a: &Vector3, v: [Real; 3]) -> Real {
    a.x * v[0] + a.y * v[1] + a.z * v[2]
}

#[inline(always)]
fn ball_gap(centre: &Vector3, radius: Real, p: [Real; 3]) -> Real {
    let v = offset(p, centre);
    let norm = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    let outside = (norm - radius).max(0.0);
    outside * outside
}

#[inline(always)]
fn box_gap(centre: &Vector3, rows: &[Vector3; 3], half: &[Real; 3], p: [Real; 3]) -> Real {
    let v = offset(p, centre);
    let mut out = 0.0;
    for (row, h) in rows.iter().zip(half) {
        let outside = (dot(row, v).abs() - h).max(0.0);
        out += outside * outside;
    }
    out
}

/// `p` relative to a cylinder's axis: how far along it from the centre, the offset across
/// it, and that offset's length.
#[inline(always)]
fn cylinder_frame(centre: &Vector3, axis: &Vector3, p: [Real; 3]) -> (Real, [Real; 3], Real) {
    let v = offset(p, centre);
    let along = dot(axis, v);
    let w = [
        v[0] - along * axis.x,
        v[1] - along * axis.y,
        v[2] - along * axis.z,
    ];
    (along, w, (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]).sqrt())
}

#[inline(always)]
fn cylinder_gap(centre: &Vector3, axis: &Vector3, half: Real, radius: Real, p: [Real; 3]) -> Real {
    let (along, _, across) = cylinder_frame(centre, axis, p);
    let beyond_cap = (along.abs() - half).max(0.0);
    let beyond_side = (across - radius).max(0.0);
    beyond_cap * beyond_cap + beyond_side * beyond_side
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::{Cylinder, OrientedBox, Sphere};
    use crate::math::{Matrix3, Real};

    /// Against the exact kernels (the same squared distances up to rounding), outside and
    /// inside, for one point and for the lanes.
    #[test]
    fn squared_gaps_match_the_exact_distances() {
        let rotation: Matrix3 = nalgebra::Rotation3::from_euler_angles(0.3, -0.7, 1.1).into_inner();
        let shapes = [
            Shape::Sphere(Sphere::new(Point3::new(0.2, -0.1, 0.4), 0.3).unwrap()),
            Shape::Box(
                OrientedBox::new(
                    Point3::new(0.5, 0.2, -0.3),
                    rotation,
                    Vector3::new(0.1, 0.4, 0.2),
                )
                .unwrap(),
            ),
            Shape::Cylinder(
                Cylinder::new(
                    Point3::new(-0.2, 0.1, 0.0),
                    Point3::new(0.3, 0.6, 0.5),
                    0.15,
                )
                .unwrap(),
            ),
        ];
        for shape in &shapes {
            let solid = Solid::of(shape).unwrap();
            let points: Vec<Point3> = (0..LANES)
                .map(|l| {
                    let t = l as Real;
                    Point3::new((0.7 * t).sin(), (1.3 * t).cos() * 0.8, 0.5 - 0.06 * t)
                })
                .collect();
            let lanes: [Lane; 3] = std::array::from_fn(|i| std::array::from_fn(|l| points[l][i]));
            let gaps = solid.squared_gaps(&lanes);
            for (l, p) in points.iter().enumerate() {
                let ball = Shape::Sphere(Sphere::new(*p, 0.0).unwrap());
                let exact = crate::query::shape_shape_distance(&ball, shape).max(0.0);
                let gap = solid.squared_gap(p);
                assert!(
                    (gap.sqrt() - exact).abs() < 1e-12,
                    "{shape:?} at {p}: {gap} vs {exact}"
                );
                assert_eq!(gaps[l], gap, "lane {l} differs from the point's");
            }
            // The offsets: as long as the distance, and pointing from a point of the solid's
            // surface (or the point itself, inside) that is that far away.
            let offsets = solid.outside_offsets(&lanes);
            for (l, p) in points.iter().enumerate() {
                let offset = Vector3::new(offsets[0][l], offsets[1][l], offsets[2][l]);
                let gap = solid.squared_gap(p);
                assert!(
                    (offset.norm() - gap.sqrt()).abs() < 1e-12,
                    "{shape:?} at {p}"
                );
                assert!(solid.squared_gap(&(p - offset)) < 1e-24, "{shape:?} at {p}");
            }
        }
    }
}
