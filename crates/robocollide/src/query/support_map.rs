//! Support maps: `support(d)` = a point of the (convex, closed) shape maximising `p · d`.
//!
//! Only the shapes whose pair queries need a general convex method implement this: points,
//! segments, flat-capped cylinders and boxes. Balls and capsules are handled as these cores grown by a
//! radius (a Minkowski sum), which keeps their answers exact.

use crate::geom::{Cylinder, OrientedBox, Segment};
use crate::math::{Point3, Vector3};

/// A convex shape described by its support function.
pub(crate) trait SupportMap {
    /// A point of the shape maximising `p · d` (any such point when several do).
    fn support(&self, d: &Vector3) -> Point3;
    /// Some point of the shape (used to start searches).
    fn any_point(&self) -> Point3;
    /// The point of the shape nearest to `p` (exact Euclidean projection).
    fn nearest_point(&self, p: &Point3) -> Point3;
    /// The support *set* at unit `n` when it is a point or a segment (a zero-length segment for
    /// a point), within an angular tolerance; `None` when it is a disc (a cylinder's cap face).
    fn support_feature(&self, n: &Vector3) -> Option<Segment>;
    /// As [`support_feature`], but a feature also counts as the support set when all of it
    /// lies within `slack` (a length) of the support plane: for directions known only to
    /// within rounding of the optimal one, where the exact support set is a single vertex or
    /// rim point that can lie far from the contact.
    ///
    /// [`support_feature`]: SupportMap::support_feature
    fn support_feature_within(&self, n: &Vector3, _slack: crate::math::Real) -> Option<Segment> {
        self.support_feature(n)
    }
    /// The support set at unit `n` when it is a disc (where [`support_feature`] gives
    /// `None`): its centre and radius.
    ///
    /// [`support_feature`]: SupportMap::support_feature
    fn support_face(&self, _n: &Vector3) -> Option<(Point3, crate::math::Real)> {
        None
    }
    /// The disc where [`support_feature_within`] gives `None` (its centre and radius).
    ///
    /// [`support_feature_within`]: SupportMap::support_feature_within
    fn support_face_within(
        &self,
        n: &Vector3,
        _slack: crate::math::Real,
    ) -> Option<(Point3, crate::math::Real)> {
        self.support_face(n)
    }
    /// The exact closest points `(on the segment, on the shape)` of a segment and the solid
    /// shape, where a closed form exists (boxes); `None` otherwise.
    fn closest_to_segment(&self, _segment: &Segment) -> Option<(Point3, Point3)> {
        None
    }
}

impl SupportMap for Point3 {
    #[inline]
    fn support(&self, _d: &Vector3) -> Point3 {
        *self
    }
    #[inline]
    fn any_point(&self) -> Point3 {
        *self
    }
    #[inline]
    fn nearest_point(&self, _p: &Point3) -> Point3 {
        *self
    }
    fn support_feature(&self, _n: &Vector3) -> Option<Segment> {
        Some(Segment::from_finite(*self, *self))
    }
}

impl SupportMap for Segment {
    #[inline]
    fn support(&self, d: &Vector3) -> Point3 {
        if self.direction().dot(d) > 0.0 {
            self.b()
        } else {
            self.a()
        }
    }
    #[inline]
    fn any_point(&self) -> Point3 {
        self.at(0.5)
    }
    #[inline]
    fn nearest_point(&self, p: &Point3) -> Point3 {
        self.at(crate::query::closest_parameter(p, self))
    }
    fn support_feature(&self, n: &Vector3) -> Option<Segment> {
        self.support_feature_within(n, 0.0)
    }
    fn support_feature_within(&self, n: &Vector3, slack: crate::math::Real) -> Option<Segment> {
        let d = self.direction();
        let rise = d.dot(n).abs();
        if rise <= FEATURE_TOLERANCE * d.norm() || rise <= slack {
            Some(*self)
        } else {
            let p = self.support(n);
            Some(Segment::from_finite(p, p))
        }
    }
}

impl SupportMap for Cylinder {
    #[inline]
    fn support(&self, d: &Vector3) -> Point3 {
        Cylinder::support(self, d)
    }
    #[inline]
    fn any_point(&self) -> Point3 {
        self.axis().at(0.5)
    }
    #[inline]
    fn nearest_point(&self, p: &Point3) -> Point3 {
        self.closest_point(p).0
    }
    fn support_feature(&self, n: &Vector3) -> Option<Segment> {
        self.support_feature_within(n, 0.0)
    }
    /// A cap face (`None`) when the rim's heights differ by at most `slack` (or `n` is within
    /// the angular tolerance of the axis), a lateral line when the axis's ends do, the
    /// longer of the two when both do; else the support point.
    fn support_feature_within(&self, n: &Vector3, slack: crate::math::Real) -> Option<Segment> {
        let u = self.unit_axis();
        let perp = crate::math::perpendicular_part(n, &u);
        let rho = perp.norm();
        let along = n.dot(&u).abs();
        let cap = rho <= FEATURE_TOLERANCE || (slack > 0.0 && 2.0 * self.radius() * rho <= slack);
        let side = rho > FEATURE_TOLERANCE
            && (along <= FEATURE_TOLERANCE || (slack > 0.0 && along * self.length() <= slack));
        if cap && !(side && self.length() >= 2.0 * self.radius()) {
            return None; // a cap face
        }
        if side {
            // A lateral line from rim to rim.
            let offset = perp * (self.radius() / rho);
            return Some(Segment::from_finite(
                self.axis().a() + offset,
                self.axis().b() + offset,
            ));
        }
        let p = Cylinder::support(self, n);
        Some(Segment::from_finite(p, p))
    }
    fn support_face(&self, n: &Vector3) -> Option<(Point3, crate::math::Real)> {
        self.support_face_within(n, 0.0)
    }
    fn support_face_within(
        &self,
        n: &Vector3,
        slack: crate::math::Real,
    ) -> Option<(Point3, crate::math::Real)> {
        if self.support_feature_within(n, slack).is_some() {
            return None;
        }
        let centre = if n.dot(&self.unit_axis()) >= 0.0 {
            self.axis().b()
        } else {
            self.axis().a()
        };
        Some((centre, self.radius()))
    }
}

impl SupportMap for OrientedBox {
    #[inline]
    fn support(&self, d: &Vector3) -> Point3 {
        OrientedBox::support(self, d)
    }
    #[inline]
    fn any_point(&self) -> Point3 {
        self.center()
    }
    #[inline]
    fn nearest_point(&self, p: &Point3) -> Point3 {
        self.closest_point(p).0
    }
    /// A vertex, or an edge when `n` is perpendicular to exactly one box axis; `None` for a
    /// face (perpendicular to two axes).
    fn support_feature(&self, n: &Vector3) -> Option<Segment> {
        self.support_feature_within(n, 0.0)
    }
    /// Axis `i` counts as perpendicular to `n` also when the box's extent along it rises by at
    /// most `slack` along `n` (`2 hᵢ |nᵢ| ≤ slack`; always for a flat axis, `hᵢ = 0`).
    fn support_feature_within(&self, n: &Vector3, slack: crate::math::Real) -> Option<Segment> {
        self.support_with_feature(n, slack).1
    }
    fn closest_to_segment(&self, segment: &Segment) -> Option<(Point3, Point3)> {
        let p0 = self.to_local(&segment.a());
        let d = self.to_local(&segment.b()) - p0;
        let c = super::capsule_box::closest_to_box(&p0, &d, &self.half_extents());
        Some((self.to_world(&c.on_segment), self.to_world(&c.on_box)))
    }
}

impl OrientedBox {
    /// The support point at `n` (a vertex, [`OrientedBox::support`]) and the support feature
    /// ([`SupportMap::support_feature_within`]), from one turn of `n` into the box's frame.
    #[inline(always)]
    pub(crate) fn support_with_feature(
        &self,
        n: &Vector3,
        slack: crate::math::Real,
    ) -> (Point3, Option<Segment>) {
        let local = self.rotation().tr_mul(n);
        let h = self.half_extents();
        let pick = |x: crate::math::Real, hi: crate::math::Real| if x >= 0.0 { hi } else { -hi };
        let vertex = Vector3::new(pick(local.x, h.x), pick(local.y, h.y), pick(local.z, h.z));
        let support = self.to_world(&vertex);
        let is_flat = |i: usize| {
            local[i].abs() <= FEATURE_TOLERANCE
                || (slack > 0.0 && 2.0 * h[i] * local[i].abs() <= slack)
        };
        let flat = [is_flat(0), is_flat(1), is_flat(2)];
        let feature = match flat.iter().filter(|&&f| f).count() {
            0 => Some(Segment::from_finite(support, support)),
            1 => {
                let i = if flat[0] {
                    0
                } else if flat[1] {
                    1
                } else {
                    2
                };
                let (mut lo, mut hi) = (vertex, vertex);
                lo[i] = -h[i];
                hi[i] = h[i];
                Some(Segment::from_finite(self.to_world(&lo), self.to_world(&hi)))
            }
            _ => None,
        };
        (support, feature)
    }
}

/// Angular tolerance (radians) within which a direction counts as on a ridge or a cone when
/// reporting support sets; the sets returned are on the shape either way.
const FEATURE_TOLERANCE: f64 = 1e-9;
