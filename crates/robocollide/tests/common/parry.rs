//! parry3d-f64 (0.31, glam types) counterparts of robocollide shapes, for comparisons.
//! parry's cylinder is centred on its local origin along +Y; we pose it on the axis midpoint.

use parry3d_f64::math::{Pose, Rotation, Vector};
use parry3d_f64::shape::{Ball, Capsule, Cuboid, Cylinder, HalfSpace, Segment, SharedShape};
use robocollide::geom::Shape;
use robocollide::math::Point3;

fn v(p: Point3) -> Vector {
    Vector::new(p.x, p.y, p.z)
}

/// The parry shape and pose equivalent to `shape`.
pub fn to_parry(shape: &Shape) -> (Pose, SharedShape) {
    match shape {
        Shape::Point(p) => (
            Pose::from_translation(v(*p)),
            SharedShape::new(Ball::new(0.0)),
        ),
        Shape::Sphere(s) => (
            Pose::from_translation(v(s.center())),
            SharedShape::new(Ball::new(s.radius())),
        ),
        Shape::Segment(s) => (
            Pose::identity(),
            SharedShape::new(Segment::new(v(s.a()), v(s.b()))),
        ),
        Shape::Capsule(c) => (
            Pose::identity(),
            SharedShape::new(Capsule::new(v(c.axis().a()), v(c.axis().b()), c.radius())),
        ),
        Shape::Cylinder(c) => {
            let axis = c.unit_axis();
            let rotation =
                Rotation::from_rotation_arc(Vector::Y, Vector::new(axis.x, axis.y, axis.z));
            let pose = Pose::from_parts(v(c.axis().at(0.5)), rotation);
            (
                pose,
                SharedShape::new(Cylinder::new(c.axis().length() / 2.0, c.radius())),
            )
        }
        Shape::Box(b) => {
            let m = b.rotation();
            let q = nalgebra::UnitQuaternion::from_matrix(m);
            let rotation = Rotation::from_xyzw(q.i, q.j, q.k, q.w);
            let h = b.half_extents();
            (
                Pose::from_parts(v(b.center()), rotation),
                SharedShape::new(Cuboid::new(Vector::new(h.x, h.y, h.z))),
            )
        }
        Shape::Plane(p) => {
            let n = p.normal();
            (
                Pose::from_translation(v(p.point())),
                SharedShape::new(HalfSpace::new(Vector::new(n.x, n.y, n.z))),
            )
        }
    }
}

/// parry's (unsigned) distance between two of our shapes.
pub fn parry_distance(a: &(Pose, SharedShape), b: &(Pose, SharedShape)) -> f64 {
    parry3d_f64::query::distance(&a.0, a.1.as_ref(), &b.0, b.1.as_ref())
        .expect("supported pair")
        .distance
}

/// Two posed parry shapes.
pub type PosedPair = ((Pose, SharedShape), (Pose, SharedShape));

#[allow(dead_code)] // used by the robot benchmarks, not by every file including this one
/// Every checked pair of `checker`, posed at each of `configurations`, as parry shapes: the
/// benchmarks' baseline input (posing is not part of the baseline's time).
pub fn posed_pairs(
    checker: &mut robocollide::collision::CellChecker,
    configurations: &[Vec<f64>],
) -> Vec<Vec<PosedPair>> {
    configurations
        .iter()
        .map(|q| {
            checker.pose(q);
            checker
                .pairs()
                .iter()
                .map(|p| {
                    (
                        to_parry(&checker.shape(p.robot_a, p.body_a)),
                        to_parry(&checker.shape(p.robot_b, p.body_b)),
                    )
                })
                .collect()
        })
        .collect()
}

#[allow(dead_code)]
/// The sum over configurations of parry's smallest pair distance (the baseline's work).
pub fn sum_of_minima(posed: &[Vec<PosedPair>]) -> f64 {
    posed
        .iter()
        .map(|pairs| {
            pairs
                .iter()
                .map(|(x, y)| parry_distance(x, y))
                .fold(f64::INFINITY, f64::min)
        })
        .sum()
}
