//! The motion check's view of a [`CellChecker`]: its culling groups (a link's bodies, an
//! obstacle; see [`CellPose`](super::CellPose)), their bounding spheres at the posed
//! configuration, and lower bounds between groups, bodies and obstacles. The certificate in
//! [`MotionCheck`](super::MotionCheck) and [`ChordCertificate`](super::chord_certificate)
//! read the pose only through these.

use super::checker::CellChecker;
use crate::geom::Shape;
use crate::math::Real;

impl CellChecker<'_> {
    /// Places the motion check's group spheres at the last posed configuration (else each
    /// is computed when asked for).
    #[inline]
    pub(crate) fn place_motion_groups(&mut self) {
        self.pose.place_motion_groups();
    }

    /// The motion check's culling groups (a link's bodies, see
    /// [`CellPose`](super::CellPose)) of pair `k`'s bodies, the lesser first. The group
    /// methods below all concern these groups.
    pub(crate) fn pair_groups(&self, k: usize) -> (usize, usize) {
        let (a, b) = self.flat_pairs[k];
        let (x, y) = (self.pose.motion_group_of(a), self.pose.motion_group_of(b));
        (x.min(y), x.max(y))
    }

    /// The flat index (into the posed cores) of body `b` of robot `r`.
    #[inline]
    pub(crate) fn flat_body(&self, r: usize, b: usize) -> usize {
        self.pose.flat_body(r, b)
    }

    /// How many bodies the cell has, all robots together (the flat indices' bound).
    pub(crate) fn flat_body_count(&self) -> usize {
        self.pose.body_count()
    }

    /// Each flat body's core's first point (a sphere's centre) at the last posed
    /// configuration, for the bodies `flat`, appended to `out`.
    #[inline]
    pub(crate) fn core_points_into(&self, flat: &[usize], out: &mut Vec<crate::math::Point3>) {
        let cores = self.pose.cores();
        out.extend(flat.iter().map(|&f| cores[f].start));
    }

    /// The distance from `shape` to body `b` of robot `r` at the last posed configuration
    /// (no witnesses, contact rounding included).
    #[inline]
    pub(crate) fn distance_to_body(&self, shape: &Shape, r: usize, b: usize) -> Real {
        let flat = self.pose.flat_body(r, b);
        match self.pose.solid(flat) {
            Some(solid) => crate::query::shape_shape_distance(shape, solid),
            None => crate::query::shape_shape_distance(shape, &self.pose.shape(flat)),
        }
    }

    /// Body `b` of robot `r` at the last posed configuration when it is a box, half-space or
    /// cylinder (`None` for spheres and capsules).
    #[inline]
    pub(crate) fn body_solid(&self, r: usize, b: usize) -> Option<&Shape> {
        self.pose.solid(self.pose.flat_body(r, b))
    }

    /// Motion group `g`'s robot, and its link with the group's bounding sphere there (centre
    /// in the link's frame, radius); `None` for a group without one.
    pub(crate) fn group_link(
        &self,
        g: usize,
    ) -> (usize, Option<(usize, crate::math::Point3, Real)>) {
        self.pose.motion_group_link(g)
    }

    /// Body `b` of robot `r` when `r` has no joints (an obstacle: posed once, when the
    /// checker was built), else `None`.
    pub(crate) fn obstacle_shape(&self, r: usize, b: usize) -> Option<Shape> {
        (self.cell().robots[r].model.dof() == 0).then(|| self.pose.shape(self.pose.flat_body(r, b)))
    }

    /// The culling group of body `b` of robot `r`.
    pub(crate) fn body_group(&self, r: usize, b: usize) -> usize {
        self.pose.motion_group_of(self.pose.flat_body(r, b))
    }

    /// A lower bound on the distance between any body of group `g` and any of group `h` at
    /// the last posed configuration: the gap of their bounding spheres (−∞ for a group
    /// without one).
    #[inline]
    pub(crate) fn group_gap(&self, g: usize, h: usize) -> Real {
        sphere_gap(
            self.pose.motion_group_sphere(g),
            self.pose.motion_group_sphere(h),
        )
    }

    /// Every group's bounding sphere at the last posed configuration, once placed
    /// ([`Self::place_motion_groups`]; panics otherwise).
    #[inline]
    pub(crate) fn placed_group_spheres(&self) -> &[(crate::math::Point3, Real)] {
        self.pose.placed_motion_group_spheres()
    }

    /// The world-aligned box of body `b` of robot `r` when that body is an obstacle's box or
    /// cylinder (fixed for the checker's life: obstacles never move).
    #[inline]
    pub(crate) fn obstacle_box(&self, r: usize, b: usize) -> Option<crate::geom::Aabb> {
        self.pose.fixed_box(self.pose.flat_body(r, b)).copied()
    }

    /// Group `g`'s bounding sphere at the last posed configuration.
    #[inline]
    pub(crate) fn group_sphere(&self, g: usize) -> (crate::math::Point3, Real) {
        self.pose.motion_group_sphere(g)
    }

    /// Where group `g`'s bounding sphere is fixed: `(robot, link, centre in the link's
    /// frame)`; `None` for a group that is never culled.
    pub(crate) fn group_anchor(&self, g: usize) -> Option<(usize, usize, crate::math::Point3)> {
        self.pose.motion_group_anchor(g)
    }

    /// A lower bound on the distance between any body of group `g` and body `b` of robot `r`
    /// at the last posed configuration: the distance from the group's bounding sphere to the
    /// body, exact for a box or cylinder (the gap of the two bounding spheres otherwise; −∞
    /// for a group without a sphere).
    #[inline]
    pub(crate) fn group_body_gap(&self, g: usize, r: usize, b: usize) -> Real {
        let flat = self.pose.flat_body(r, b);
        self.pose
            .motion_group_solid_distance(g, flat)
            .unwrap_or_else(|| {
                sphere_gap(
                    self.pose.motion_group_sphere(g),
                    self.pose.cores()[flat].bounding_sphere(),
                )
            })
    }

    /// A lower bound on the distance between body `b` of robot `r` and any body of group `g`
    /// at the last posed configuration: the gap of the body core's bounding sphere and the
    /// group's (−∞ for a group without one).
    #[inline]
    pub(crate) fn body_group_gap(&self, r: usize, b: usize, g: usize) -> Real {
        let core = &self.pose.cores()[self.pose.flat_body(r, b)];
        sphere_gap(core.bounding_sphere(), self.pose.motion_group_sphere(g))
    }
}

/// The gap between two spheres `(centre, radius)` (−∞ where it is not a number: an infinite
/// sphere stands for "no bound").
#[inline]
pub(super) fn sphere_gap(
    (c, r): (crate::math::Point3, Real),
    (d, s): (crate::math::Point3, Real),
) -> Real {
    let gap = (d - c).norm() - r - s;
    if gap.is_nan() {
        Real::NEG_INFINITY
    } else {
        gap
    }
}
