//! The gap function of two flat-ended cylinders in closed form, and Newton's ascent on it —
//! the fast path of the cylinder queries.
//!
//! A flat-ended cylinder with centre `c`, unit axis `u`, half-length `h` and radius `r` has the
//! support function `h_C(n) = c·n + h |n·u| + r |n − (n·u) u|`; a segment is the case `r = 0`.
//! For two of them (A, B; `c = c_B − c_A`) the gap along a unit direction `n` from A to B is
//!
//! ```text
//! g(n) = −h_A(n) − h_B(−n) = c·n − Σ_k ( h_k |n·u_k| + r_k |n − (n·u_k) u_k| ),
//! ```
//!
//! a lower bound on the signed distance whose maximum over unit `n` *is* the signed distance
//! (see [`support_gap`](super::support_gap)). Its extension to all `v ∈ ℝ³` is concave, so when
//! the shapes are apart the maximum is the unique maximum of a concave function on the unit
//! ball: an ascent cannot stop at a wrong local maximum. Closed forms, all cheap:
//!
//! - gradient `∇g = c − Σ_k ( h_k sgn(n·u_k) u_k + r_k p_k )`, `p_k` the unit radial direction;
//! - Hessian on the tangent plane `−Σ_k (r_k / ρ_k³) m_k m_kᵀ − g(n) I`, with `m_k = u_k × n`,
//!   `ρ_k = |m_k|` (the `−g I` is the sphere's curvature term).
//!
//! Kinks: `n·u_k = 0` is a *ridge* (the support jumps from one cap to the other: lateral
//! contacts have their optimum there), handled as an active constraint with the KKT test
//! `|∂g/∂u_k| ≤ h_k` for leaving it; `n = ±u_k` is a *cone* (cap contacts), handled by the
//! closed-form cap test [`AxialPair::cap_contact`] before any iteration.
//!
//! Nothing here is trusted: callers certify the final direction with realised witness points
//! ([`certify`](super::certificate::certify)) and fall back to GJK when that fails.

use super::Separation;
use super::certificate::Certified;
use super::point_segment::closest_parameter;
use super::segment_segment::closest_points;
use super::support_gap::{fibonacci_direction, shape_frame};
use crate::geom::{Cylinder, Segment};
use crate::math::{Point3, Real, Vector3, orthogonal_unit, perpendicular_part, try_normalize};
use std::sync::LazyLock;

/// A flat-ended cylinder as the gap function sees it (a segment is one of radius 0).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Axial {
    centre: Point3,
    /// Unit axis (arbitrary when `half == 0`).
    axis: Vector3,
    half: Real,
    radius: Real,
}

impl Axial {
    pub(crate) fn of_cylinder(c: &Cylinder) -> Self {
        Self {
            centre: c.axis().at(0.5),
            axis: c.unit_axis(),
            half: 0.5 * c.length(),
            radius: c.radius(),
        }
    }

    pub(crate) fn of_segment(s: &Segment) -> Self {
        let axis = try_normalize(&s.direction());
        Self {
            centre: s.at(0.5),
            axis: axis.unwrap_or_else(Vector3::z),
            half: if axis.is_some() {
                0.5 * s.length()
            } else {
                0.0
            },
            radius: 0.0,
        }
    }

    fn has_ridge(&self) -> bool {
        self.half > 0.0
    }
}

/// Angle (radians) within which a direction counts as on a ridge or a cone when choosing the
/// support *set* for a cap certificate (as in [`support_map`](super::support_map)).
const FEATURE_TOLERANCE: Real = 1e-9;
/// Newton iterations before giving up.
const MAX_ITERATIONS: usize = 32;
/// Newton steps shorter than this (radians) end the fast ascent: the next error would be of
/// the order of its square, far inside the certificate's tolerance in all but the most
/// curved cases (which fail the certificate and are polished with [`POLISHED_STEP`]).
pub(crate) const FAST_STEP: Real = 1e-3;
/// Newton steps shorter than this (radians) mean convergence to rounding.
pub(crate) const POLISHED_STEP: Real = 1e-10;

/// Length (radians) of a steepest-ascent step where Newton's model is not concave.
const LONG_STEP: Real = 0.5;
/// Distance (sine of the angle) from a cone within which the cone itself is tested.
const CONE_SNAP: Real = 0.2;
/// Angular nudge used to leave a ridge whose KKT test fails.
const RELEASE_STEP: Real = 1e-7;

/// `true` for a unit vector. Every direction compared by its gap must be one: the gap of a
/// degenerate (zero) direction is 0, which beats every true penetration depth (found by
/// fuzzing: a needle-thin cylinder inside a huge capsule got a zero normal).
pub(crate) fn is_unit(v: &Vector3) -> bool {
    (v.norm_squared() - 1.0).abs() < 1e-9
}

/// `v / |v|` for the sum of a unit vector and a step (never tiny or huge): one division.
#[inline]
fn unit(v: &Vector3) -> Option<Vector3> {
    let norm = v.norm();
    (norm > 0.0).then(|| v * (1.0 / norm))
}

/// Two axial bodies, A and B, and the closed-form gap between them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AxialPair {
    bodies: [Axial; 2],
    /// `centre_B − centre_A`.
    offset: Vector3,
}

/// What a Newton step did.
enum Outcome {
    /// Moved to a better direction (probed).
    Moved(Probe),
    /// A step below the convergence threshold: the final direction.
    Converged(Vector3),
}

/// Value, gradient and tangent-plane curvature of the gap at one direction.
#[derive(Debug, Clone, Copy)]
struct Probe {
    n: Vector3,
    gap: Real,
    /// Euclidean gradient, without the axial terms of active ridges.
    gradient: Vector3,
    /// Per body: `m_k = u_k × n`, `ρ_k = |m_k|` and the curvature weight `r_k/ρ_k³` (zero for
    /// a segment or on a cone).
    bend: [Bend; 2],
}

#[derive(Debug, Clone, Copy, Default)]
struct Bend {
    m: Vector3,
    rho: Real,
    /// `1/ρ_k`.
    inverse: Real,
    weight: Real,
}

impl AxialPair {
    pub(crate) fn new(a: Axial, b: Axial) -> Self {
        Self {
            bodies: [a, b],
            offset: b.centre - a.centre,
        }
    }

    /// The gap along unit `n` (a lower bound on the signed distance): the value part of
    /// `probe`, without the derivatives, for the many evaluations that need only the value.
    #[inline]
    pub(crate) fn gap(&self, n: &Vector3) -> Real {
        let mut g = self.offset.dot(n);
        for body in &self.bodies {
            let along = n.dot(&body.axis);
            g -= body.half * along.abs();
            if body.radius > 0.0 {
                g -= body.radius * (n - body.axis * along).norm();
            }
        }
        g
    }

    fn probe(&self, n: Vector3, active: [bool; 2]) -> Probe {
        let mut gap = self.offset.dot(&n);
        let mut gradient = self.offset;
        let mut bend = [Bend::default(); 2];
        for (k, body) in self.bodies.iter().enumerate() {
            let along = n.dot(&body.axis);
            gap -= body.half * along.abs();
            if !active[k] && along != 0.0 {
                gradient -= body.axis * (body.half * along.signum());
            }
            if body.radius > 0.0 {
                let perp = n - body.axis * along;
                let rho = perp.norm();
                gap -= body.radius * rho;
                if rho > 0.0 {
                    let inverse = 1.0 / rho;
                    let scaled = body.radius * inverse;
                    gradient -= perp * scaled;
                    bend[k] = Bend {
                        m: body.axis.cross(&n),
                        rho,
                        inverse,
                        weight: scaled * inverse * inverse,
                    };
                }
            }
        }
        Probe {
            n,
            gap,
            gradient,
            bend,
        }
    }

    /// Newton ascent of the gap from the unit direction `start`; the final unit direction.
    pub(crate) fn ascend(&self, start: &Vector3, converged_step: Real) -> Option<Vector3> {
        let Some(n) = self.off_cones(*start) else {
            return Some(*start); // a cap direction that is locally optimal
        };
        let mut active = [0, 1]
            .map(|k| self.bodies[k].has_ridge() && n.dot(&self.bodies[k].axis).abs() <= 1e-12);
        let mut at = self.probe(n, active);
        for _ in 0..MAX_ITERATIONS {
            match self.step(&at, &mut active, converged_step) {
                Some(Outcome::Moved(next)) => {
                    if let Some(cap) = self.optimal_cap_near(&next) {
                        return Some(cap);
                    }
                    at = next;
                }
                outcome => {
                    let last = match outcome {
                        Some(Outcome::Converged(m)) => m,
                        _ => at.n,
                    };
                    match self.release(&at, &mut active) {
                        Some(next) => at = next,
                        None => return Some(last),
                    }
                }
            }
        }
        Some(at.n)
    }

    /// Near a cone (within [`CONE_SNAP`]) Newton creeps towards a cap optimum: test the cone
    /// itself and return it when it is at least as good and locally optimal.
    fn optimal_cap_near(&self, at: &Probe) -> Option<Vector3> {
        for (body, bend) in self.bodies.iter().zip(&at.bend) {
            if body.radius > 0.0 && bend.rho < CONE_SNAP {
                let cone = body.axis * at.n.dot(&body.axis).signum();
                if self.gap(&cone) >= at.gap && self.off_cones(cone).is_none() {
                    return Some(cone);
                }
            }
        }
        None
    }

    /// A start on a cone (`n = ±u_k`, where the gap has a conical kink and no gradient) is
    /// moved off it along the steepest ascent when the cap is not optimal there; `None` when
    /// it is (the subgradient condition: the rest of the gradient's component across the
    /// axis is at most `r_k`).
    fn off_cones(&self, mut n: Vector3) -> Option<Vector3> {
        for (k, body) in self.bodies.iter().enumerate() {
            let along = n.dot(&body.axis);
            if body.radius <= 0.0 || along.abs() < 1.0 - 1e-12 {
                continue; // far from this body's cones (ρ > 1e-6)
            }
            let perp = n - body.axis * along;
            let rho = perp.norm();
            if rho <= FEATURE_TOLERANCE {
                let mut inactive = [false; 2];
                inactive[k] = true; // drop this body's (undefined) axial sign term as well
                let mut g = self.probe(n, inactive).gradient;
                if rho > 0.0 {
                    g += perp * (body.radius / rho); // and its (undefined) radial term
                }
                let radial = g - body.axis * g.dot(&body.axis);
                if radial.norm() <= body.radius {
                    return None;
                }
                n = try_normalize(&(n + radial * (1e-6 / radial.norm())))?;
            }
        }
        Some(n)
    }

    /// One safeguarded Newton step within the active ridges; `None` when no step improves the
    /// gap. A step shorter than `converged_step` is taken without a new probe and ends the
    /// iteration (Newton's next error is of the order of its square).
    fn step(&self, at: &Probe, active: &mut [bool; 2], converged_step: Real) -> Option<Outcome> {
        let n = at.n;
        let g = at.gradient - n * at.gradient.dot(&n);
        let [b0, b1] = &at.bend;
        // Where the model is not concave (overlapping bodies: the sphere's curvature term
        // `−g I` is positive) the maxima lie on ridges or cones: a long steepest-ascent step,
        // clipped at the first ridge and halved until it gains.
        let gradient_step = |g: Vector3| g * (LONG_STEP / g.norm());
        let step = match active {
            [false, false] => {
                // Tangent basis from the bodies' own `m_k` (no extra normalisation).
                let t1 = if b0.rho > 1e-3 {
                    b0.m * b0.inverse
                } else if b1.rho > 1e-3 {
                    b1.m * b1.inverse
                } else {
                    orthogonal_unit(&n)
                };
                let t2 = n.cross(&t1);
                let (g1, g2) = (g.dot(&t1), g.dot(&t2));
                // M = g I + Σ w_k m_k m_kᵀ in the basis (t1, t2).
                let (p1, p2) = (b0.m.dot(&t1), b0.m.dot(&t2));
                let (q1, q2) = (b1.m.dot(&t1), b1.m.dot(&t2));
                let m11 = at.gap + b0.weight * p1 * p1 + b1.weight * q1 * q1;
                let m12 = b0.weight * p1 * p2 + b1.weight * q1 * q2;
                let m22 = at.gap + b0.weight * p2 * p2 + b1.weight * q2 * q2;
                let det = m11 * m22 - m12 * m12;
                if m11 > 0.0 && det > 0.0 {
                    let inverse = 1.0 / det;
                    t1 * ((m22 * g1 - m12 * g2) * inverse) + t2 * ((m11 * g2 - m12 * g1) * inverse)
                } else {
                    gradient_step(g)
                }
            }
            [true, true] => return None,
            _ => {
                let k = if active[0] { 0 } else { 1 };
                let t = try_normalize(&self.bodies[k].axis.cross(&n))?;
                let gt = g.dot(&t);
                let (p, q) = (b0.m.dot(&t), b1.m.dot(&t));
                let mtt = at.gap + b0.weight * p * p + b1.weight * q * q;
                if mtt > 0.0 {
                    t * (gt / mtt)
                } else {
                    gradient_step(t * gt)
                }
            }
        };
        // Squared step length: compared with squared thresholds, no square root.
        let length_squared = step.norm_squared();
        if length_squared.is_nan() || length_squared <= 1e-32 {
            return None;
        }
        // Stop on the first inactive ridge the step would cross, and activate it.
        let mut fraction: Real = 1.0;
        let mut hit = None;
        for (k, body) in self.bodies.iter().enumerate() {
            if body.has_ridge() && !active[k] {
                let (now, next) = (n.dot(&body.axis), (n + step).dot(&body.axis));
                if now != 0.0 && now * next < 0.0 {
                    let f = now / (now - next);
                    if f < fraction {
                        fraction = f;
                        hit = Some(k);
                    }
                }
            }
        }
        if let Some(k) = hit {
            let u = self.bodies[k].axis;
            let on = try_normalize(&(n + step * fraction))?;
            let on = try_normalize(&(on - u * on.dot(&u)))?;
            let mut now_active = *active;
            now_active[k] = true;
            let next = self.probe(on, now_active);
            // Landing on a ridge is progress only if the gap did not drop.
            if next.gap >= at.gap {
                *active = now_active;
                return Some(Outcome::Moved(next));
            }
        }
        let mut candidate = unit(&(n + step))?;
        if length_squared < converged_step * converged_step {
            return Some(Outcome::Converged(candidate));
        }
        let mut next = self.probe(candidate, *active);
        let mut shrink = 0;
        while next.gap < at.gap && shrink < 10 {
            candidate = unit(&(n + (candidate - n) * 0.5))?;
            next = self.probe(candidate, *active);
            shrink += 1;
        }
        // Do not wander across an inactive ridge by backtracking from a clipped step.
        (next.gap > at.gap).then_some(Outcome::Moved(next))
    }

    /// KKT test on the active ridges: if the gap rises when leaving one, leave it (returns the
    /// nudged probe); `None` when the current point is optimal on its constraints.
    fn release(&self, at: &Probe, active: &mut [bool; 2]) -> Option<Probe> {
        let n = at.n;
        // Multipliers of the ridge constraints: the gradient's components along the axes.
        let (ua, ub) = (self.bodies[0].axis, self.bodies[1].axis);
        let lambda = match *active {
            [false, false] => return None,
            [true, false] => [at.gradient.dot(&ua), 0.0],
            [false, true] => [0.0, at.gradient.dot(&ub)],
            [true, true] => {
                let (ga, gb, cab) = (at.gradient.dot(&ua), at.gradient.dot(&ub), ua.dot(&ub));
                let det = 1.0 - cab * cab;
                if det <= 1e-12 {
                    return None;
                }
                [(ga - cab * gb) / det, (gb - cab * ga) / det]
            }
        };
        let excess = [0, 1].map(|k| {
            if active[k] {
                lambda[k].abs() - self.bodies[k].half
            } else {
                Real::NEG_INFINITY
            }
        });
        let k = if excess[0] >= excess[1] { 0 } else { 1 };
        if excess[k] <= 0.0 {
            return None;
        }
        let mut direction = self.bodies[k].axis * lambda[k].signum();
        let other = 1 - k;
        if active[other] {
            let u = self.bodies[other].axis;
            direction -= u * direction.dot(&u);
        }
        let mut released = *active;
        released[k] = false;
        let m = try_normalize(&(n + direction * RELEASE_STEP))?;
        let next = self.probe(m, released);
        (next.gap > at.gap).then(|| {
            *active = released;
            next
        })
    }

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

/// Directions of the coarse global sweep for overlapping pairs (a Fibonacci sphere).
const SWEEP_DIRECTIONS: usize = 64;
/// Directions sampled on each ridge great circle.
const RIDGE_DIRECTIONS: usize = 32;
/// Starts closer than this (cosine of the angle) to a better one are not refined again.
const DISTINCT_STARTS: Real = 0.98;
/// Number of best starting directions refined by Newton.
const REFINED_STARTS: usize = 3;

static SWEEP: LazyLock<[Vector3; SWEEP_DIRECTIONS]> =
    LazyLock::new(|| std::array::from_fn(|i| fibonacci_direction(i, SWEEP_DIRECTIONS)));
static RIDGE: LazyLock<[(Real, Real); RIDGE_DIRECTIONS]> = LazyLock::new(|| {
    std::array::from_fn(|k| {
        (std::f64::consts::TAU * k as Real / RIDGE_DIRECTIONS as Real).sin_cos()
    })
});

impl AxialPair {
    /// The direction of largest gap found for touching or overlapping bodies: `candidates`,
    /// a global sweep in a frame built from the shapes (so the answer moves with them), each
    /// ridge great circle, then Newton from the best few. The gap along it is a conservative
    /// (never shallower than the truth) signed distance.
    #[inline(never)]
    pub(crate) fn deepest(&self, candidates: &[Vector3]) -> Vector3 {
        let mut starts = [(Real::NEG_INFINITY, Vector3::x()); REFINED_STARTS];
        // Keeps the REFINED_STARTS best, best first; `direction` is only built for entrants.
        let mut offer = |g: Real, direction: &dyn Fn() -> Vector3| {
            if g > starts[REFINED_STARTS - 1].0 {
                let mut entry = (g, direction());
                for slot in starts.iter_mut() {
                    if entry.0 > slot.0 {
                        std::mem::swap(slot, &mut entry);
                    }
                }
            }
        };
        let (axes, count) = self.ridge_axes();
        let axes = &axes[..count];
        for c in candidates {
            if let Some(n) = try_normalize(c) {
                offer(self.gap(&n), &|| n);
            }
        }
        // The sweep's directions are `frame · d`: evaluate the gap in frame coordinates.
        let frame = shape_frame(axes, candidates);
        let offset = frame.tr_mul(&self.offset);
        let [a, b] = self.bodies;
        let (ua, ub) = (frame.tr_mul(&a.axis), frame.tr_mul(&b.axis));
        let mut sweep = [0.0; SWEEP_DIRECTIONS];
        for (g, d) in sweep.iter_mut().zip(SWEEP.iter()) {
            let (along_a, along_b) = (ua.dot(d), ub.dot(d));
            *g = offset.dot(d)
                - a.half * along_a.abs()
                - b.half * along_b.abs()
                - a.radius * (1.0 - along_a * along_a).max(0.0).sqrt()
                - b.radius * (1.0 - along_b * along_b).max(0.0).sqrt();
        }
        for (g, d) in sweep.iter().zip(SWEEP.iter()) {
            offer(*g, &|| frame * d);
        }
        // Each ridge great circle `e1 cos φ + e2 sin φ`, likewise in its own coordinates.
        for u in axes {
            // A frame column (nearly) along `u` leaves a perpendicular part of rounding noise,
            // not perpendicular to `u`; `e2 = u × e1` would then not be unit and the circle's
            // directions would be too short (found by fuzzing: norms 0.56..0.98).
            let column = frame.column(1).into_owned();
            let e1 = Some(perpendicular_part(&column, u))
                .filter(|p| p.norm() > 1e-6 * column.norm())
                .and_then(|p| try_normalize(&p))
                .unwrap_or_else(|| orthogonal_unit(u));
            let e2 = u.cross(&e1);
            let offset = (self.offset.dot(&e1), self.offset.dot(&e2));
            let (a1, a2, b1, b2) = (
                a.axis.dot(&e1),
                a.axis.dot(&e2),
                b.axis.dot(&e1),
                b.axis.dot(&e2),
            );
            let mut ridge = [0.0; RIDGE_DIRECTIONS];
            for (g, &(sin, cos)) in ridge.iter_mut().zip(RIDGE.iter()) {
                let (along_a, along_b) = (a1 * cos + a2 * sin, b1 * cos + b2 * sin);
                *g = offset.0 * cos + offset.1 * sin
                    - a.half * along_a.abs()
                    - b.half * along_b.abs()
                    - a.radius * (1.0 - along_a * along_a).max(0.0).sqrt()
                    - b.radius * (1.0 - along_b * along_b).max(0.0).sqrt();
            }
            for (g, &(sin, cos)) in ridge.iter().zip(RIDGE.iter()) {
                offer(*g, &|| e1 * cos + e2 * sin);
            }
        }
        // Newton from each distinct start (fast tolerance), then polish the best.
        let mut best = starts[0];
        for (i, &(g, n)) in starts.iter().enumerate() {
            let distinct = starts[..i].iter().all(|(_, m)| m.dot(&n) < DISTINCT_STARTS);
            if !g.is_finite() || !distinct {
                continue;
            }
            let refined = self.ascend(&n, FAST_STEP).filter(is_unit).unwrap_or(n);
            let refined_gap = self.gap(&refined);
            if refined_gap > best.0 {
                best = (refined_gap, refined);
            }
        }
        let polished = self
            .ascend(&best.1, POLISHED_STEP)
            .filter(is_unit)
            .unwrap_or(best.1);
        if self.gap(&polished) >= best.0 {
            polished
        } else {
            best.1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::support_gap::gap_along;

    fn cyl(a: [f64; 3], b: [f64; 3], r: f64) -> Cylinder {
        Cylinder::new(a.into(), b.into(), r).unwrap()
    }

    fn pair(a: &Cylinder, b: &Cylinder) -> AxialPair {
        AxialPair::new(Axial::of_cylinder(a), Axial::of_cylinder(b))
    }

    #[test]
    fn closed_form_gap_matches_support_points() {
        let a = cyl([0.1, -0.2, 0.3], [0.9, 0.4, -0.5], 0.25);
        let b = cyl([1.5, 1.0, 0.2], [1.1, 1.7, 1.0], 0.1);
        let gaps = pair(&a, &b);
        for i in 0..200 {
            let n = fibonacci_direction(i, 200);
            let expected = gap_along(&a, &b, &n).distance;
            assert!((gaps.gap(&n) - expected).abs() < 1e-14, "{i}");
        }
    }

    #[test]
    fn cap_contact_covers_point_disc_and_line_supports() {
        let a = cyl([0.0, 0.0, 0.0], [0.0, 0.0, 1.0], 0.5);
        let tolerance = 1e-13;
        // Tilted cylinder above the top cap: its lowest rim point is over the disc.
        let b = cyl([0.2, 0.0, 1.3], [0.5, 0.1, 2.0], 0.1);
        let s = pair(&a, &b).cap_contact(&Vector3::z(), tolerance).unwrap();
        assert!((s.point_a.z - 1.0).abs() < 1e-15 && s.distance > 0.0);
        assert!((s.distance - (s.point_b - s.point_a).norm()).abs() < 1e-14);
        // Parallel discs whose projections overlap only in a lens.
        let b = cyl([0.7, 0.0, 1.25], [0.7, 0.0, 2.0], 0.3);
        let s = pair(&a, &b).cap_contact(&Vector3::z(), tolerance).unwrap();
        assert!((s.distance - 0.25).abs() < 1e-15);
        assert!(
            s.point_a.coords.xy().norm() <= 0.5
                && (s.point_b - Point3::new(0.7, 0.0, 1.25)).xy().norm() <= 0.3
        );
        // A lying cylinder whose lowest line passes over the disc only near its far end.
        let b = cyl([0.4, -2.0, 1.6], [0.4, 0.0, 1.6], 0.2);
        let s = pair(&a, &b).cap_contact(&Vector3::z(), tolerance).unwrap();
        assert!((s.distance - 0.4).abs() < 1e-15);
        // ... and no cap answer once the line misses the disc.
        let b = cyl([0.6, -2.0, 1.6], [0.6, 0.0, 1.6], 0.2);
        assert!(pair(&a, &b).cap_contact(&Vector3::z(), tolerance).is_none());
    }

    #[test]
    fn ascent_reaches_rim_to_rim_distance() {
        // End to end along x, offset in y: the closest points are on the two rims.
        let a = cyl([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], 0.5);
        let b = cyl([1.2, 0.9, 0.0], [2.0, 0.9, 0.3], 0.3);
        let gaps = pair(&a, &b);
        let n = gaps
            .ascend(&Vector3::new(1.0, 1.0, 0.0), POLISHED_STEP)
            .unwrap();
        let c = gaps.certify(&n).unwrap();
        assert!(c.lower > 0.0 && c.upper - c.lower < 1e-14, "{c:?}");
    }
}
