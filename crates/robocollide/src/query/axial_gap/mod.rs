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

use crate::geom::{Cylinder, Segment};
use crate::math::{Point3, Real, Vector3, orthogonal_unit, try_normalize};

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
}

mod features;
mod global_search;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::support_gap::fibonacci_direction;
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
