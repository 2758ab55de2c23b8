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
//!
//! Upright solids (a box with one axis vertical and the other two level, a cylinder whose axis
//! is vertical: a table, a shelf or a can turned only about the world's z axis, as every
//! MotionBenchMaker obstacle but a few of its `box` family) have their own kinds, which
//! skip the products by the axes' zero entries: the same sums in the same order with only the
//! zero terms left out, so for finite points the same values to the last bit (`x + 0·y` is
//! `x` up to the sign of a zero, which the squares and absolute values drop). On
//! MotionBenchMaker the box's dot products had been 3.7 % of the planner's instructions.
//!
//! Each kind is its own type with the three measures of [`Measure`]; [`Solid`] dispatches
//! once per call, outside the loops over lanes, so each loop is one kind's and vectorises.

use crate::geom::Shape;
use crate::kinematics::{LANES, Lane};
use crate::math::{Point3, Real, Vector3};

/// An obstacle's solid, as the squared point distances measure it.
#[derive(Debug, Clone)]
pub(super) enum Solid {
    Ball(Ball),
    Box(BoxSolid<[Vector3; 3]>),
    UprightBox(BoxSolid<UprightAxes>),
    Cylinder(CylinderSolid<Vector3>),
    UprightCylinder(CylinderSolid<Vertical>),
}

#[derive(Debug, Clone)]
pub(super) struct Ball {
    centre: Vector3,
    radius: Real,
}

/// A box: `axes` its axes (world: rows `[Vector3; 3]`, or [`UprightAxes`]), `half` its
/// half-extents along them.
#[derive(Debug, Clone)]
pub(super) struct BoxSolid<A> {
    centre: Vector3,
    axes: A,
    half: [Real; 3],
}

/// A box's axes with zero entries as [`Solid::upright_rows`] finds them: `level[i]` the `x`,
/// `y` of the two level axes, `vertical` the `z` of the vertical one (the last).
#[derive(Debug, Clone)]
pub(super) struct UprightAxes {
    level: [[Real; 2]; 2],
    vertical: Real,
}

/// A flat-capped cylinder: `axis` unit, from the centre (a [`Vector3`], or [`Vertical`]);
/// `half`: half the length.
#[derive(Debug, Clone)]
pub(super) struct CylinderSolid<A> {
    centre: Vector3,
    axis: A,
    half: Real,
    radius: Real,
}

/// The axis `(0, 0, z)` with its `z` (±1).
#[derive(Debug, Clone)]
pub(super) struct Vertical(Real);

/// What each kind of solid measures of a point `p` (world coordinates).
pub(super) trait Measure {
    /// The squared distance from `p` to the solid (0 inside).
    fn squared_gap(&self, p: [Real; 3]) -> Real;
    /// `p − nearest` for the solid's point nearest `p` (0 inside): its length is the
    /// distance, its direction the distance's gradient.
    fn outside_offset(&self, p: [Real; 3]) -> [Real; 3];
    /// How far from the origin the solid reaches.
    fn extent(&self) -> Real;
}

/// `$body` with `$kind` bound to the solid's own kind, whichever it is.
macro_rules! each_kind {
    ($solid:expr, $kind:ident => $body:expr) => {
        match $solid {
            Solid::Ball($kind) => $body,
            Solid::Box($kind) => $body,
            Solid::UprightBox($kind) => $body,
            Solid::Cylinder($kind) => $body,
            Solid::UprightCylinder($kind) => $body,
        }
    };
}

impl Solid {
    /// The solid of an obstacle's shape, if it is a ball, box or cylinder.
    pub(super) fn of(shape: &Shape) -> Option<Self> {
        Some(match shape {
            Shape::Sphere(s) => Solid::Ball(Ball {
                centre: s.center().coords,
                radius: s.radius(),
            }),
            Shape::Box(b) => {
                let rows: [Vector3; 3] = std::array::from_fn(|i| b.axis(i));
                let half: [Real; 3] = std::array::from_fn(|i| b.half_extents()[i]);
                let centre = b.center().coords;
                match Self::upright_rows(&rows) {
                    Some([i, j, k]) => Solid::UprightBox(BoxSolid {
                        centre,
                        axes: UprightAxes {
                            level: [[rows[i].x, rows[i].y], [rows[j].x, rows[j].y]],
                            vertical: rows[k].z,
                        },
                        half: [half[i], half[j], half[k]],
                    }),
                    None => Solid::Box(BoxSolid {
                        centre,
                        axes: rows,
                        half,
                    }),
                }
            }
            Shape::Cylinder(c) => {
                let centre = (c.axis().a().coords + c.axis().b().coords) * 0.5;
                let (axis, half, radius) = (c.unit_axis(), 0.5 * c.length(), c.radius());
                if axis.x == 0.0 && axis.y == 0.0 {
                    Solid::UprightCylinder(CylinderSolid {
                        centre,
                        axis: Vertical(axis.z),
                        half,
                        radius,
                    })
                } else {
                    Solid::Cylinder(CylinderSolid {
                        centre,
                        axis,
                        half,
                        radius,
                    })
                }
            }
            _ => return None,
        })
    }

    /// The order `[level, level, vertical]` of a box's axes `rows` when one of them has zero
    /// `x` and `y` and the other two zero `z` (exactly), else `None`. The order is the rows'
    /// own when the vertical axis is the last (the sums then run in the same order as
    /// [`Solid::Box`]'s).
    fn upright_rows(rows: &[Vector3; 3]) -> Option<[usize; 3]> {
        let vertical = (0..3).find(|&k| rows[k].x == 0.0 && rows[k].y == 0.0)?;
        let [i, j] = match vertical {
            0 => [1, 2],
            1 => [0, 2],
            _ => [0, 1],
        };
        (rows[i].z == 0.0 && rows[j].z == 0.0).then_some([i, j, vertical])
    }

    /// How far from the origin the solid reaches.
    pub(super) fn extent(&self) -> Real {
        each_kind!(self, kind => kind.extent())
    }

    /// The squared distance from `p` to the solid (0 inside).
    #[inline(always)]
    pub(super) fn squared_gap(&self, p: &Point3) -> Real {
        each_kind!(self, kind => kind.squared_gap([p.x, p.y, p.z]))
    }

    /// The squared distance from the point of each lane to the solid (0 inside).
    #[inline(always)]
    pub(super) fn squared_gaps(&self, p: &[Lane; 3]) -> Lane {
        each_kind!(self, kind => squared_gaps(kind, p))
    }

    /// For each lane's point, its offset from the solid's nearest point (`p − nearest`; 0
    /// inside): its length is the distance, its direction the distance's gradient (for the
    /// chord pass, [`lane_chords`](super::lane_chords)).
    #[inline(always)]
    pub(super) fn outside_offsets(&self, p: &[Lane; 3]) -> [Lane; 3] {
        each_kind!(self, kind => outside_offsets(kind, p))
    }
}

/// Lane `l`'s point.
#[inline(always)]
fn lane_point(p: &[Lane; 3], l: usize) -> [Real; 3] {
    [p[0][l], p[1][l], p[2][l]]
}

/// [`Measure::squared_gap`] for each lane's point (one kind's loop, so it vectorises).
#[inline(always)]
fn squared_gaps(kind: &impl Measure, p: &[Lane; 3]) -> Lane {
    std::array::from_fn(|l| kind.squared_gap(lane_point(p, l)))
}

/// [`Measure::outside_offset`] for each lane's point, one lane's three values written across
/// the three arrays.
// (A lane-indexed loop, which vectorises.)
#[allow(clippy::needless_range_loop)]
#[inline(always)]
fn outside_offsets(kind: &impl Measure, p: &[Lane; 3]) -> [Lane; 3] {
    let mut out = [[0.0; LANES]; 3];
    for l in 0..LANES {
        let [x, y, z] = kind.outside_offset(lane_point(p, l));
        out[0][l] = x;
        out[1][l] = y;
        out[2][l] = z;
    }
    out
}

impl Measure for Ball {
    #[inline(always)]
    fn squared_gap(&self, p: [Real; 3]) -> Real {
        let outside = (self.norm_from_centre(p).1 - self.radius).max(0.0);
        outside * outside
    }

    #[inline(always)]
    fn outside_offset(&self, p: [Real; 3]) -> [Real; 3] {
        let (v, norm) = self.norm_from_centre(p);
        let keep = side_share(norm, self.radius);
        v.map(|v| v * keep)
    }

    fn extent(&self) -> Real {
        self.centre.norm() + self.radius
    }
}

impl Ball {
    /// `p − centre` and its length.
    #[inline(always)]
    fn norm_from_centre(&self, p: [Real; 3]) -> ([Real; 3], Real) {
        let v = offset(p, &self.centre);
        (v, length(v))
    }
}

/// Both boxes' measures, through their [`BoxAxes`].
impl<A: BoxAxes> Measure for BoxSolid<A> {
    #[inline(always)]
    fn squared_gap(&self, p: [Real; 3]) -> Real {
        let along = self.axes.along(offset(p, &self.centre));
        let mut out = 0.0;
        for (along, h) in along.iter().zip(&self.half) {
            let outside = (along.abs() - h).max(0.0);
            out += outside * outside;
        }
        out
    }

    #[inline(always)]
    fn outside_offset(&self, p: [Real; 3]) -> [Real; 3] {
        let along = self.axes.along(offset(p, &self.centre));
        self.axes
            .combine(std::array::from_fn(|i| beyond(along[i], self.half[i])))
    }

    fn extent(&self) -> Real {
        self.centre.norm() + self.half.iter().sum::<Real>()
    }
}

/// A box's three axes, as its measures use them.
pub(super) trait BoxAxes {
    /// How far an offset `v` from the centre reaches along each axis.
    fn along(&self, v: [Real; 3]) -> [Real; 3];
    /// `Σ amounts[i] · axis[i]`, summed in the axes' order.
    fn combine(&self, amounts: [Real; 3]) -> [Real; 3];
}

/// Any three axes (the rows: unit, at right angles).
impl BoxAxes for [Vector3; 3] {
    #[inline(always)]
    fn along(&self, v: [Real; 3]) -> [Real; 3] {
        self.each_ref().map(|row| dot(row, v))
    }

    #[inline(always)]
    fn combine(&self, amounts: [Real; 3]) -> [Real; 3] {
        let mut out = [0.0; 3];
        for (row, amount) in self.iter().zip(amounts) {
            out[0] += row.x * amount;
            out[1] += row.y * amount;
            out[2] += row.z * amount;
        }
        out
    }
}

/// Upright axes: `[Vector3; 3]`'s sums without their zero terms.
impl BoxAxes for UprightAxes {
    #[inline(always)]
    fn along(&self, v: [Real; 3]) -> [Real; 3] {
        let [a, b] = self.level.map(|row| row[0] * v[0] + row[1] * v[1]);
        [a, b, self.vertical * v[2]]
    }

    #[inline(always)]
    fn combine(&self, amounts: [Real; 3]) -> [Real; 3] {
        let (mut x, mut y) = (0.0, 0.0);
        for (row, amount) in self.level.iter().zip(amounts) {
            x += row[0] * amount;
            y += row[1] * amount;
        }
        [x, y, self.vertical * amounts[2]]
    }
}

/// Both cylinders' measures, through their axis's [`CylinderAxis`].
impl<A: CylinderAxis> Measure for CylinderSolid<A> {
    #[inline(always)]
    fn squared_gap(&self, p: [Real; 3]) -> Real {
        let (along, w) = self.axis.split(offset(p, &self.centre));
        cylinder_frame_gap(along, length(w), self.half, self.radius)
    }

    #[inline(always)]
    fn outside_offset(&self, p: [Real; 3]) -> [Real; 3] {
        let (along, w) = self.axis.split(offset(p, &self.centre));
        let (cap, side) = (beyond(along, self.half), side_share(length(w), self.radius));
        self.axis.plus_along(cap, w.map(|w| w * side))
    }

    fn extent(&self) -> Real {
        self.centre.norm() + self.half + self.radius
    }
}

/// A cylinder's axis, as its measures use it.
pub(super) trait CylinderAxis {
    /// An offset `v` from the centre split into how far along the axis it reaches and the
    /// part across the axis.
    fn split(&self, v: [Real; 3]) -> (Real, [Real; 3]);
    /// `along · axis + across`.
    fn plus_along(&self, along: Real, across: [Real; 3]) -> [Real; 3];
}

/// Any unit axis.
impl CylinderAxis for Vector3 {
    #[inline(always)]
    fn split(&self, v: [Real; 3]) -> (Real, [Real; 3]) {
        let along = dot(self, v);
        let w = [
            v[0] - along * self.x,
            v[1] - along * self.y,
            v[2] - along * self.z,
        ];
        (along, w)
    }

    #[inline(always)]
    fn plus_along(&self, along: Real, across: [Real; 3]) -> [Real; 3] {
        [
            self.x * along + across[0],
            self.y * along + across[1],
            self.z * along + across[2],
        ]
    }
}

/// The vertical axis: [`Vector3`]'s sums without their zero terms.
impl CylinderAxis for Vertical {
    #[inline(always)]
    fn split(&self, v: [Real; 3]) -> (Real, [Real; 3]) {
        let along = self.0 * v[2];
        (along, [v[0], v[1], v[2] - along * self.0])
    }

    #[inline(always)]
    fn plus_along(&self, along: Real, across: [Real; 3]) -> [Real; 3] {
        [across[0], across[1], self.0 * along + across[2]]
    }
}

/// `|w|`.
#[inline(always)]
fn length(w: [Real; 3]) -> Real {
    (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]).sqrt()
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

/// How far `along` lies beyond `[−half, half]`, signed (0 within).
#[inline(always)]
fn beyond(along: Real, half: Real) -> Real {
    along - along.clamp(-half, half)
}

/// The share of an offset of length `across` (from a ball's centre, or across a cylinder's
/// axis) that lies beyond `radius`: 0 within.
#[inline(always)]
fn side_share(across: Real, radius: Real) -> Real {
    if across > radius {
        1.0 - radius / across
    } else {
        0.0
    }
}

/// The squared distance to a cylinder from a point `along` its axis and `across` it.
#[inline(always)]
fn cylinder_frame_gap(along: Real, across: Real, half: Real, radius: Real) -> Real {
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

    /// Lanes of points about the origin, some inside the solids below, some far.
    fn scattered_points() -> Vec<Point3> {
        (0..LANES)
            .map(|l| {
                let t = l as Real;
                Point3::new((0.9 * t).sin() * 0.9, (1.7 * t).cos() * 0.7, 0.4 - 0.07 * t)
            })
            .collect()
    }

    fn as_lanes(points: &[Point3]) -> [Lane; 3] {
        std::array::from_fn(|i| std::array::from_fn(|l| points[l][i]))
    }

    /// A box turned about the world's z axis (as the problem loaders build it, from a
    /// quaternion) and an upright can are upright solids, a tilted box is not; each upright
    /// one measures the same values to the last bit as the general solid with the same
    /// axes, for one point, for the lanes and for the offsets. With the vertical axis first
    /// or second (the sums reordered) the values agree to rounding.
    #[test]
    fn upright_solids_measure_as_the_general_ones() {
        let yaw = nalgebra::UnitQuaternion::from_euler_angles(0.0, 0.0, -1.1016167633684284);
        let rotation = yaw.to_rotation_matrix().into_inner();
        let centre = Point3::new(0.3, -0.2, 0.1);
        let half = Vector3::new(0.4, 0.25, 0.05);
        let upright = Solid::of(&Shape::Box(
            OrientedBox::new(centre, rotation, half).unwrap(),
        ));
        let Some(upright @ Solid::UprightBox(_)) = upright else {
            panic!("a yawed box is upright: {upright:?}");
        };
        let general = Solid::Box(BoxSolid {
            centre: centre.coords,
            axes: std::array::from_fn(|i| rotation.column(i).into_owned()),
            half: [half.x, half.y, half.z],
        });
        let tilted = nalgebra::Rotation3::from_euler_angles(0.2, 0.0, 0.5).into_inner();
        let box_tilted = Shape::Box(OrientedBox::new(centre, tilted, half).unwrap());
        assert!(matches!(Solid::of(&box_tilted), Some(Solid::Box(_))));
        let can = Cylinder::new(Point3::new(0.1, 0.2, -0.1), Point3::new(0.1, 0.2, 0.5), 0.2);
        let can = Solid::of(&Shape::Cylinder(can.unwrap())).unwrap();
        let Solid::UprightCylinder(upright_can) = &can else {
            panic!("a vertical cylinder is upright: {can:?}");
        };
        let can_general = Solid::Cylinder(CylinderSolid {
            centre: upright_can.centre,
            axis: Vector3::new(0.0, 0.0, upright_can.axis.0),
            half: upright_can.half,
            radius: upright_can.radius,
        });
        let points = scattered_points();
        let lanes = as_lanes(&points);
        for (fast, slow) in [(&upright, &general), (&can, &can_general)] {
            assert_eq!(fast.squared_gaps(&lanes), slow.squared_gaps(&lanes));
            assert_eq!(fast.outside_offsets(&lanes), slow.outside_offsets(&lanes));
            for p in &points {
                assert_eq!(fast.squared_gap(p), slow.squared_gap(p), "{fast:?} at {p}");
            }
            assert_eq!(fast.extent(), slow.extent());
        }
        // The vertical axis first: a box turned a quarter about y, then about z.
        let lying = nalgebra::Rotation3::from_euler_angles(0.0, std::f64::consts::FRAC_PI_2, 0.0);
        let mut lying = (yaw.to_rotation_matrix() * lying).into_inner();
        // (Exact zeros where the quarter turn rounds to ~1e-17.)
        lying
            .iter_mut()
            .filter(|v| v.abs() < 1e-15)
            .for_each(|v| *v = 0.0);
        let shape = Shape::Box(OrientedBox::new(centre, lying, half).unwrap());
        let fast = Solid::of(&shape).unwrap();
        assert!(matches!(fast, Solid::UprightBox(_)), "{fast:?}");
        for p in &points {
            let ball = Shape::Sphere(Sphere::new(*p, 0.0).unwrap());
            let exact = crate::query::shape_shape_distance(&ball, &shape).max(0.0);
            assert!((fast.squared_gap(p).sqrt() - exact).abs() < 1e-12, "at {p}");
        }
    }
}
