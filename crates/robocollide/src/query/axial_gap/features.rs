//! The features of an [`AxialPair`]'s contact: the closed-form cap test, the ridge axes, and
//! certification of a direction by realised witness points on support features.

use super::{Axial, AxialPair, FEATURE_TOLERANCE};
use crate::geom::Segment;
use crate::math::{Point3, Real, Vector3, orthogonal_unit, perpendicular_part, try_normalize};
use crate::query::Separation;
use crate::query::certificate::Certified;
use crate::query::point_segment::closest_parameter;
use crate::query::segment_segment::closest_points;

impl AxialPair {
    /// If the optimum is at the cap of one body facing the other (`n = ±u_k`), the exact
    /// answer: the other body's support set at the cap normal has a point whose projection on
    /// the cap plane lies in the cap disc. `n` is the candidate direction from A to B.
    /// The answer is accepted when the realised pair is within `tolerance` of the gap.
    #[inline(never)]
    pub(crate) fn cap_contact(&self, n: &Vector3, tolerance: Real) -> Option<Separation> {
        for (k, face) in self.bodies.iter().enumerate() {
            let outward = if k == 0 { *n } else { -n };
            if face.radius <= 0.0 || (outward.dot(&face.axis).abs() - 1.0).abs() > 1e-15 {
                continue;
            }
            let other = &self.bodies[1 - k];
            let cap = face.centre + face.axis * (face.half * outward.dot(&face.axis).signum());
            let y = other.point_facing(&-outward, &cap, &outward, face.radius)?;
            let height = (y - cap).dot(&outward);
            let x = y - outward * height;
            let lower = self.gap(n);
            if height - lower > tolerance {
                return None;
            }
            let (point_a, point_b) = if k == 0 { (x, y) } else { (y, x) };
            return Some(Separation {
                distance: lower,
                point_a,
                point_b,
                normal: *n,
            });
        }
        None
    }

    /// The unit axes of the bodies that have ridges (non-zero length), first `count` entries.
    pub(crate) fn ridge_axes(&self) -> ([Vector3; 2], usize) {
        let mut axes = [Vector3::zeros(); 2];
        let mut count = 0;
        for body in self.bodies.iter().filter(|b| b.has_ridge()) {
            axes[count] = body.axis;
            count += 1;
        }
        (axes, count)
    }

    /// The best of the four cap directions `±u_A, ±u_B`: its gap and the direction (closed
    /// form: along `±u_A` the gap is `±c·u_A − h_A − h_B |u_A·u_B| − r_B √(1 − (u_A·u_B)²)`).
    pub(crate) fn best_cap_direction(&self) -> (Real, Vector3) {
        let [a, b] = &self.bodies;
        let cos = a.axis.dot(&b.axis);
        let sin = (1.0 - cos * cos).max(0.0).sqrt();
        let along_a = self.offset.dot(&a.axis);
        let along_b = self.offset.dot(&b.axis);
        let gap_a = along_a.abs() - a.half - b.half * cos.abs() - b.radius * sin;
        let gap_b = along_b.abs() - b.half - a.half * cos.abs() - a.radius * sin;
        if gap_a >= gap_b {
            (gap_a, a.axis * along_a.signum())
        } else {
            (gap_b, b.axis * along_b.signum())
        }
    }

    /// The support of body `k` in direction `d`: its support point, and when `d` is on the
    /// body's ridge (within [`FEATURE_TOLERANCE`]) the lateral line the support set then is, as
    /// `(midpoint, half-length)` along the body's axis; `None` for a cap disc.
    fn support_feature(&self, k: usize, d: &Vector3) -> Option<(Point3, Option<(Point3, Real)>)> {
        let body = &self.bodies[k];
        let along = d.dot(&body.axis);
        let lift = if body.radius > 0.0 {
            // The rim point must lie in its cap plane: one projection pass leaves a residue
            // along the axis of relative size ε/ρ, so a second pass is made near the cone.
            let once = d - body.axis * along;
            let perp = if once.norm_squared() > 0.01 {
                once
            } else {
                perpendicular_part(d, &body.axis)
            };
            let rho = perp.norm();
            if rho <= FEATURE_TOLERANCE {
                return None;
            }
            perp * (body.radius / rho)
        } else {
            Vector3::zeros()
        };
        let middle = body.centre + lift;
        let point = middle + body.axis * (body.half * along.signum());
        let line =
            (body.has_ridge() && along.abs() <= FEATURE_TOLERANCE).then_some((middle, body.half));
        Some((point, line))
    }

    /// The certified interval at unit `n`: the gap (lower bound, from the two support points)
    /// and the distance between the closest points of the two support sets (upper bound,
    /// realised by points of the bodies). `None` when a support set is a cap disc.
    // Out of line, as are `cap_contact` and `deepest`: inlined into the caller together with
    // the Newton loop they cost ~6 % on random pairs (register pressure; measured).
    #[inline(never)]
    pub(crate) fn certify(&self, n: &Vector3) -> Option<Certified> {
        let (sa, line_a) = self.support_feature(0, n)?;
        let (sb, line_b) = self.support_feature(1, &-n)?;
        let [ua, ub] = [self.bodies[0].axis, self.bodies[1].axis];
        // The point of a lateral line `(middle, half)` along `u` nearest to `p`.
        let nearest = |(middle, half): (Point3, Real), u: &Vector3, p: &Point3| {
            middle + u * (p - middle).dot(u).clamp(-half, half)
        };
        let (x, y) = match (line_a, line_b) {
            (None, None) => (sa, sb),
            (Some(line), None) => (nearest(line, &ua, &sb), sb),
            (None, Some(line)) => (sa, nearest(line, &ub, &sa)),
            (Some((ma, ha)), Some((mb, hb))) => {
                let pair = closest_points(
                    &Segment::from_finite(ma - ua * ha, ma + ua * ha),
                    &Segment::from_finite(mb - ub * hb, mb + ub * hb),
                );
                (pair.point_a, pair.point_b)
            }
        };
        let lower = (sb - sa).dot(n);
        Some(Certified {
            lower,
            upper: (y - x).norm(),
            separation: Separation {
                distance: lower,
                point_a: x,
                point_b: y,
                normal: *n,
            },
        })
    }
}

impl Axial {
    /// A point of this body's support set in direction `d` whose projection along the unit
    /// `normal` onto the plane through `cap` lies within `radius` of `cap`, if there is one.
    fn point_facing(
        &self,
        d: &Vector3,
        cap: &Point3,
        normal: &Vector3,
        radius: Real,
    ) -> Option<Point3> {
        let along = d.dot(&self.axis);
        let perp = d - self.axis * along;
        let rho = perp.norm();
        let end = self.centre + self.axis * (self.half * if along >= 0.0 { 1.0 } else { -1.0 });
        let radial = |p: &Point3| {
            let r = p - cap;
            (r - normal * r.dot(normal)).norm()
        };
        let y = if self.radius > 0.0 && rho <= FEATURE_TOLERANCE {
            // A disc parallel to the cap: a point of both discs' projections.
            let to_end = end - cap;
            let offset = to_end - normal * to_end.dot(normal);
            let distance = offset.norm();
            if distance > radius + self.radius {
                return None;
            }
            let low = (distance - self.radius).max(0.0);
            let high = radius.min(distance + self.radius);
            let tau = 0.5 * (low + high);
            let direction = try_normalize(&offset).unwrap_or_else(|| orthogonal_unit(normal));
            let in_plane = cap + direction * tau;
            in_plane + normal * (end - in_plane).dot(normal)
        } else {
            let lift = if rho > 0.0 {
                perp * (self.radius / rho)
            } else {
                Vector3::zeros()
            };
            if self.has_ridge() && along.abs() <= FEATURE_TOLERANCE {
                // A lateral line (or the whole segment): its point nearest the cap's axis.
                let line = Segment::from_finite(
                    self.centre - self.axis * self.half + lift,
                    self.centre + self.axis * self.half + lift,
                );
                let flat = Segment::from_finite(
                    line.a() - normal * (line.a() - cap).dot(normal),
                    line.b() - normal * (line.b() - cap).dot(normal),
                );
                line.at(closest_parameter(cap, &flat))
            } else {
                end + lift
            }
        };
        (radial(&y) <= radius).then_some(y)
    }
}
