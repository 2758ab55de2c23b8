//! Distances from a pose's cores and culling spheres to its posed solids (boxes and
//! cylinders) straight through the distance-only kernels: no shapes copied, no witnesses.
//! The pair search, the checker and the motion check use them for the commonest general
//! pairs (a sphere or capsule body against an obstacle box) and for the lower bounds that
//! cull whole blocks (a group's bounding sphere against a solid contains, so bounds from
//! below, every body of the group against it).

use super::pose::CellPose;
use crate::geom::{Capsule, Segment, Shape, Sphere};
use crate::math::{Point3, Real, max_abs};

/// Room [`CellPose::fixed_solid_beyond`] leaves for rounding, relative to the largest
/// coordinate involved: the squared gap and the kernels' distances each carry a few roundings
/// of ~10⁻¹⁶ of it.
const BEYOND_MARGIN: Real = 1e-12;

impl CellPose {
    /// The distance between flat bodies `a` and `b` straight from their posed kernels when
    /// one is a sphere or capsule and the other a box, or a sphere and a cylinder (a
    /// planner's and a cell's commonest general pairs: no shapes copied, no witnesses);
    /// `None` for any other pair.
    #[inline(always)]
    pub(super) fn core_solid_distance(&self, a: usize, b: usize) -> Option<Real> {
        let (a, b) = if self.cores()[a].general {
            (b, a)
        } else {
            (a, b)
        };
        let core = &self.cores()[a];
        if core.general {
            return None;
        }
        if core.dd == 0.0 {
            let ball = Sphere::from_finite(core.start, core.radius);
            return self.sphere_solid_distance(&ball, b);
        }
        let axis = Segment::from_finite(core.start, core.start + core.direction);
        match self.solid(b) {
            Some(Shape::Box(solid)) => Some(crate::query::capsule_box_distance(
                &Capsule::from_finite(axis, core.radius),
                solid,
            )),
            _ => None,
        }
    }

    /// A lower bound on the distance between any body of search group `g` and flat body
    /// `b`: the distance from the group's bounding sphere to `b`'s box or cylinder; `None` for
    /// another shape, `−∞` for a group without a sphere.
    #[inline(always)]
    pub(super) fn group_sphere_solid_distance(&self, g: usize, b: usize) -> Option<Real> {
        self.bounding_sphere_solid_distance(self.group_sphere(g), b)
    }

    /// As [`Self::group_sphere_solid_distance`], for motion group `g`.
    #[inline]
    pub(super) fn motion_group_solid_distance(&self, g: usize, b: usize) -> Option<Real> {
        self.bounding_sphere_solid_distance(self.motion_group_sphere(g), b)
    }

    /// The distance from a group's bounding sphere to flat body `b`'s box or cylinder.
    #[inline(always)]
    fn bounding_sphere_solid_distance(
        &self,
        (center, radius): (Point3, Real),
        b: usize,
    ) -> Option<Real> {
        if !radius.is_finite() {
            return Some(Real::NEG_INFINITY);
        }
        self.sphere_solid_distance(&Sphere::from_finite(center, radius), b)
    }

    /// For the ball about `centre` of `radius` and flat body `b`, an obstacle's box or
    /// cylinder: `Some(true)` when the ball is surely more than `reach` from the solid (its
    /// distance, as the exact kernel would compute it, is above `reach`), `Some(false)` when
    /// it may not be; `None` for another body. From the centre's squared gap to the solid
    /// ([`Solid::squared_gap`](super::point_solid::Solid::squared_gap)): a dot product per
    /// axis, no square root, against `(radius + reach)²` grown by [`BEYOND_MARGIN`] of the
    /// largest coordinate. An infinite radius or reach is never beyond.
    #[inline(always)]
    pub(super) fn fixed_solid_beyond(
        &self,
        b: usize,
        centre: &Point3,
        radius: Real,
        reach: Real,
    ) -> Option<bool> {
        let (squared_gap, margin) = self.fixed_solid_gap(b, centre, radius)?;
        Some(gap_beyond(squared_gap, margin, radius, reach))
    }

    /// For the ball about `centre` of `radius` and flat body `b`, an obstacle's box or
    /// cylinder: the negative distance `√gap − radius` when the ball surely meets the solid
    /// (its centre's squared gap is below `(radius − margin)²`, the margin as in
    /// [`Self::fixed_solid_beyond`], so the exact kernel's distance is negative too); `None`
    /// when it may not, or for another body. A contact search needs no more: its distances
    /// at or below 0 are verdicts, not depths, and the kernel's depth for a centre inside a
    /// box is its dearest case (a planner's contact queries meet it most).
    #[inline(always)]
    pub(super) fn fixed_solid_met(&self, b: usize, centre: &Point3, radius: Real) -> Option<Real> {
        let (squared_gap, margin) = self.fixed_solid_gap(b, centre, radius)?;
        gap_met(squared_gap, margin, radius)
    }

    /// The squared gap of `centre` to flat body `b`'s posed box or cylinder, and the room
    /// left for rounding about a ball of `radius` there; `None` for another body.
    #[inline(always)]
    fn fixed_solid_gap(&self, b: usize, centre: &Point3, radius: Real) -> Option<(Real, Real)> {
        let (solid, extent) = self.fixed_solid(b)?;
        let margin = BEYOND_MARGIN * (max_abs(&centre.coords) + radius + extent);
        Some((solid.squared_gap(centre), margin))
    }

    /// For flat bodies `a` and `b` (either way round), a sphere and an obstacle's box or
    /// cylinder, the verdict its centre's squared gap gives alone: `Some(false)` when the
    /// sphere is surely apart ([`Self::fixed_solid_beyond`] with no reach), `Some(true)` when
    /// it surely meets the solid ([`Self::fixed_solid_met`]); `None` when the pair's distance
    /// must be measured. A contact query's recent contacts' pairs are mostly one or the
    /// other: apart when the search goes on, met when the configuration is refused there.
    #[inline(always)]
    pub(super) fn sphere_solid_contact(&self, a: usize, b: usize) -> Option<bool> {
        let cores = self.cores();
        let (sphere, solid) = if cores[a].general { (b, a) } else { (a, b) };
        let core = &cores[sphere];
        if core.general || core.dd != 0.0 {
            return None;
        }
        // (One gap for both verdicts.)
        let (squared_gap, margin) = self.fixed_solid_gap(solid, &core.start, core.radius)?;
        if gap_beyond(squared_gap, margin, core.radius, 0.0) {
            Some(false)
        } else {
            gap_met(squared_gap, margin, core.radius).map(|_| true)
        }
    }

    /// For a cylinder against a box (flat bodies `a` and `b`, either way round): the
    /// distance from the capsule of the same axis and radius to the box, a lower bound on the
    /// pair's signed distance (the capsule contains the cylinder; depth only grows with the
    /// shape) at a capsule–box kernel's cost; `None` for any other pair.
    #[inline]
    pub(super) fn cylinder_box_lower_bound(&self, a: usize, b: usize) -> Option<Real> {
        let (cylinder, solid) = match (self.solid(a)?, self.solid(b)?) {
            (Shape::Cylinder(c), Shape::Box(x)) | (Shape::Box(x), Shape::Cylinder(c)) => (c, x),
            _ => return None,
        };
        let capsule = Capsule::from_finite(*cylinder.axis(), cylinder.radius());
        Some(crate::query::capsule_box_distance(&capsule, solid))
    }

    /// The distance from `sphere` to flat body `b`'s posed box or cylinder, by its kernel
    /// (no witnesses); `None` for another shape.
    #[inline(always)]
    pub(super) fn sphere_solid_distance(&self, sphere: &Sphere, b: usize) -> Option<Real> {
        match self.solid(b) {
            Some(Shape::Box(solid)) => Some(crate::query::sphere_box_distance(sphere, solid)),
            Some(Shape::Cylinder(solid)) => {
                Some(crate::query::sphere_cylinder_distance(sphere, solid))
            }
            _ => None,
        }
    }
}

/// Whether a ball of `radius` whose centre has `squared_gap` to a solid is surely more than
/// `reach` from it: the gap beyond `(radius + reach + margin)²`; never for an infinite
/// radius or reach, nor where anything is NaN.
#[inline(always)]
fn gap_beyond(squared_gap: Real, margin: Real, radius: Real, reach: Real) -> bool {
    let limit = radius + reach;
    let needed = limit + margin;
    (limit > 0.0) & (squared_gap > needed * needed) & needed.is_finite()
}

/// For a ball of `radius` whose centre has `squared_gap` to a solid: `√gap − radius` (< 0)
/// when it surely meets the solid, the gap below `(radius − margin)²`; `None` otherwise, and
/// where anything is NaN.
#[inline(always)]
fn gap_met(squared_gap: Real, margin: Real, radius: Real) -> Option<Real> {
    let inner = radius - margin;
    ((inner > 0.0) & (squared_gap < inner * inner) & inner.is_finite())
        .then(|| squared_gap.sqrt() - radius)
}
