//! Box–box in a's frame: b's pose relative to a, the best of the fifteen separating axes, and
//! the common apart case certified without leaving that frame.
//!
//! Conventions: `r = AᵀB` holds b's axes as columns in a's frame, `t` is b's centre there,
//! directions run from a to b. Working in a's frame, a's vertices are `±hₐ` componentwise and
//! b's are `t + r (±h_b)`, so support points and the closest points of support features cost a
//! few products instead of turns into and out of each box's frame.
//!
//! The certificate is the same as the general path's ([`super`]): a lower bound (the boxes'
//! gap along a unit direction) and an upper bound (the distance of a realised pair of points,
//! one on each box) within `GJK_EXACT ×` the magnitude of each other. Which vertices or edges
//! are tried only decides whether the two bounds meet, never whether the answer is right, so
//! no tolerance classifies features here: a pair of bounds that do not meet sends the pair to
//! the general path.

use super::{GJK_EXACT, MEET};
use crate::geom::OrientedBox;
use crate::math::{Matrix3, Real, Vector3, clamp_symmetric};
use crate::query::Separation;

/// b's pose in a's frame.
#[derive(Clone, Copy)]
pub(super) struct Relative {
    /// b's axes as columns, in a's frame (`AᵀB`).
    r: Matrix3,
    /// b's centre in a's frame.
    t: Vector3,
    /// a's half-extents.
    ha: Vector3,
    /// b's half-extents.
    hb: Vector3,
}

/// Which of the fifteen axes a separating axis is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum AxisKind {
    /// a's face normal `eᵢ`.
    FaceOfA(usize),
    /// b's face normal `r_j`.
    FaceOfB(usize),
    /// `eᵢ × r_j`, across an edge of each.
    Edges(usize, usize),
}

/// The separating axis of largest gap: `gap` (`−` the least overlap when none separates),
/// the unit axis in a's frame from a to b, and which axis it is.
pub(super) struct BestAxis {
    pub gap: Real,
    pub local: Vector3,
    pub kind: AxisKind,
}

/// `h` where `x ≥ 0`, else `−h`: the coordinate of a support vertex (on a tie, the `+` side).
#[inline(always)]
fn pick(x: Real, h: Real) -> Real {
    if x >= 0.0 { h } else { -h }
}

/// `|eᵢ × r_j|`. Entries of a rotation are at most 1, so the squares cannot overflow, and where
/// they underflow the length is below the 1e-12 that drops the axis anyway (no `hypot`
/// needed: it is a library call).
#[inline(always)]
fn edge_length(r: &Matrix3, i: usize, j: usize) -> Real {
    let (p, q) = (r[((i + 1) % 3, j)], r[((i + 2) % 3, j)]);
    (p * p + q * q).sqrt()
}

impl Relative {
    pub(super) fn new(a: &OrientedBox, b: &OrientedBox) -> Self {
        let (p, q) = (a.rotation(), b.rotation());
        // AᵀB written out in scalars (nalgebra's product shuffles SSE lanes; see
        // `OrientedBox::to_local`).
        let r = Matrix3::from_fn(|i, j| {
            p[(0, i)] * q[(0, j)] + p[(1, i)] * q[(1, j)] + p[(2, i)] * q[(2, j)]
        });
        Self {
            r,
            t: a.to_local(&b.center()),
            ha: a.half_extents(),
            hb: b.half_extents(),
        }
    }

    /// The face normal (of either box) of largest gap, `(gap, index)`: index `2i` for a's
    /// face `i`, `2i + 1` for b's (on a tie, the first).
    #[inline(always)]
    fn best_face(&self) -> (Real, usize) {
        let (t, r, ha, hb) = (&self.t, &self.r, &self.ha, &self.hb);
        let abs_r = r.abs();
        let face_a = |i: usize| t[i].abs() - (ha[i] + hb.dot(&abs_r.row(i).transpose()));
        let face_b = |i: usize| t.dot(&r.column(i)).abs() - (ha.dot(&abs_r.column(i)) + hb[i]);
        let (mut best, mut k) = (face_a(0), 0);
        for (index, gap) in [face_b(0), face_a(1), face_b(1), face_a(2), face_b(2)]
            .into_iter()
            .enumerate()
        {
            if gap > best {
                (best, k) = (gap, index + 1);
            }
        }
        (best, k)
    }

    /// The separating axis of largest gap among the fifteen, the best face normal
    /// ([`Relative::best_face`]) and then the edge pairs'. Each axis's projected radii need only entries of `|r|`
    /// (Gottschalk, Lin & Manocha, *OBBTree*, SIGGRAPH 1996): for `L = eᵢ × r_j`,
    /// `L · r_m = ±r_{i,l}` with `l` the index other than `j` and `m`. Ties go to the first in
    /// the order a's face `i`, b's face `i` (`i` = 0, 1, 2), then the edge pairs `(i, j)` row
    /// by row.
    pub(super) fn best_axis(&self) -> BestAxis {
        let (mut best, mut k) = self.best_face();
        self.offer_edge::<0, 0>(&mut best, &mut k);
        self.offer_edge::<0, 1>(&mut best, &mut k);
        self.offer_edge::<0, 2>(&mut best, &mut k);
        self.offer_edge::<1, 0>(&mut best, &mut k);
        self.offer_edge::<1, 1>(&mut best, &mut k);
        self.offer_edge::<1, 2>(&mut best, &mut k);
        self.offer_edge::<2, 0>(&mut best, &mut k);
        self.offer_edge::<2, 1>(&mut best, &mut k);
        self.offer_edge::<2, 2>(&mut best, &mut k);
        self.axis(best, k)
    }

    /// The axis of index `k` (faces as in [`Relative::best_face`], then `6 + 3i + j` for
    /// `eᵢ × r_j`), unit and pointing from a to b, with its gap.
    #[inline(always)]
    fn axis(&self, gap: Real, k: usize) -> BestAxis {
        let r = &self.r;
        let (axis, kind) = if k < 6 {
            let i = k / 2;
            if k.is_multiple_of(2) {
                (Vector3::ith(i, 1.0), AxisKind::FaceOfA(i))
            } else {
                (r.column(i).into_owned(), AxisKind::FaceOfB(i))
            }
        } else {
            let (i, j) = ((k - 6) / 3, (k - 6) % 3);
            let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
            let mut axis = Vector3::zeros();
            axis[i1] = -r[(i2, j)];
            axis[i2] = r[(i1, j)];
            (axis / edge_length(r, i, j), AxisKind::Edges(i, j))
        };
        let local = if self.t.dot(&axis) < 0.0 { -axis } else { axis };
        BestAxis { gap, local, kind }
    }

    /// Offers the axis `eᵢ × r_j` (index `6 + 3I + J`) to the running best (skipped for
    /// parallel edges, shorter than 1e-12: their facets are face normals' ones). Generic in `I`
    /// and `J` so that every index is a constant.
    #[inline(always)]
    fn offer_edge<const I: usize, const J: usize>(&self, best: &mut Real, k: &mut usize) {
        let (r, ha, hb) = (&self.r, &self.ha, &self.hb);
        let (i1, i2) = ((I + 1) % 3, (I + 2) % 3);
        let (j1, j2) = ((J + 1) % 3, (J + 2) % 3);
        let length = edge_length(r, I, J);
        let along = self.t[i2] * r[(i1, J)] - self.t[i1] * r[(i2, J)];
        let reach = ha[i1] * r[(i2, J)].abs()
            + ha[i2] * r[(i1, J)].abs()
            + hb[j1] * r[(I, j2)].abs()
            + hb[j2] * r[(I, j1)].abs();
        let excess = along.abs() - reach;
        if length > 1e-12 && excess > *best * length {
            let gap = excess / length;
            if gap > *best {
                (*best, *k) = (gap, 6 + 3 * I + J);
            }
        }
    }

    /// A direction given in a's frame, in b's (`rᵀ v`), in scalars.
    #[inline(always)]
    fn in_b_frame(&self, v: &Vector3) -> Vector3 {
        let r = &self.r;
        Vector3::new(
            r.m11 * v.x + r.m21 * v.y + r.m31 * v.z,
            r.m12 * v.x + r.m22 * v.y + r.m32 * v.z,
            r.m13 * v.x + r.m23 * v.y + r.m33 * v.z,
        )
    }

    /// A point given in b's frame, in a's (`t + r w`), in scalars.
    #[inline(always)]
    fn b_point_in_a_frame(&self, w: &Vector3) -> Vector3 {
        let r = &self.r;
        self.t
            + Vector3::new(
                r.m11 * w.x + r.m12 * w.y + r.m13 * w.z,
                r.m21 * w.x + r.m22 * w.y + r.m23 * w.z,
                r.m31 * w.x + r.m32 * w.y + r.m33 * w.z,
            )
    }

    /// The boxes' gap along `n` (a's frame, from a to b) times `|n|`: for a unit `n`, a
    /// lower bound on their distance.
    fn gap_along(&self, n: &Vector3) -> Real {
        let m = self.in_b_frame(n);
        self.t.dot(n) - self.ha.dot(&n.abs()) - self.hb.dot(&m.abs())
    }

    /// The closest points (a's frame; on a, on b) of the two support features along the best
    /// axis, taken as a vertex or an edge of each as the axis's kind says.
    #[inline(always)]
    fn support_pair(&self, best: &BestAxis) -> (Vector3, Vector3) {
        let n = &best.local;
        let (ha, hb) = (&self.ha, &self.hb);
        let a_vertex = Vector3::new(pick(n.x, ha.x), pick(n.y, ha.y), pick(n.z, ha.z));
        match best.kind {
            // b's vertex against a's face, clamped onto the solid a.
            AxisKind::FaceOfA(i) => {
                // n = ±eᵢ, which is ± row i of r in b's frame.
                let m = self.r.row(i).transpose() * n[i];
                let w = Vector3::new(pick(-m.x, hb.x), pick(-m.y, hb.y), pick(-m.z, hb.z));
                let v = self.b_point_in_a_frame(&w);
                (v.zip_map(ha, |x, h| x.clamp(-h, h)), v)
            }
            // a's vertex against b's face, clamped onto the solid b in b's frame.
            AxisKind::FaceOfB(_) => {
                let u = self.in_b_frame(&(a_vertex - self.t));
                let on_b = u.zip_map(hb, |x, h| x.clamp(-h, h));
                (a_vertex, self.b_point_in_a_frame(&on_b))
            }
            // a's edge along eᵢ against b's edge along r_j.
            AxisKind::Edges(i, j) => {
                let mut centre_a = a_vertex;
                centre_a[i] = 0.0;
                let m = self.in_b_frame(n);
                let mut w = Vector3::new(pick(-m.x, hb.x), pick(-m.y, hb.y), pick(-m.z, hb.z));
                w[j] = 0.0;
                self.edge_pair(centre_a, i, &w, j)
            }
        }
    }

    /// The closest points (a's frame; on a, on b) of a's edge along `eᵢ` with centre
    /// `centre_a` (a's frame) and b's edge along `r_j` with centre `w` (b's frame): minimising
    /// `|offset + τ r_j − σ eᵢ|²` (offset from a's edge centre to b's) over the rectangle, σ
    /// first, then τ given σ, then σ again if τ was clamped (Ericson, *Real-Time Collision
    /// Detection*, 2005, §5.1.9).
    #[inline(always)]
    fn edge_pair(&self, centre_a: Vector3, i: usize, w: &Vector3, j: usize) -> (Vector3, Vector3) {
        let (ha, hb) = (&self.ha, &self.hb);
        let centre_b = self.b_point_in_a_frame(w);
        let v = self.r.column(j);
        let offset = centre_b - centre_a;
        let (c, along_u, along_v) = (v[i], offset[i], v.dot(&offset));
        // 1 − c², as the sum of the other two squares (no cancellation).
        let (p, q) = (v[(i + 1) % 3], v[(i + 2) % 3]);
        let sine_squared = p * p + q * q;
        let mut sigma = if sine_squared > 0.0 {
            ((along_u - c * along_v) / sine_squared).clamp(-ha[i], ha[i])
        } else {
            0.0
        };
        let mut tau = sigma * c - along_v;
        if tau.abs() > hb[j] {
            tau = tau.clamp(-hb[j], hb[j]);
            sigma = (along_u + tau * c).clamp(-ha[i], ha[i]);
        }
        let mut on_a = centre_a;
        on_a[i] = sigma;
        (on_a, centre_b + v * tau)
    }
}

/// The distance of boxes apart along the best axis (`best.gap > 0`) when the closest points of
/// the support features along it, or the gap along those points' own direction, certify it
/// (face against vertex, edge or face; edge against edge; then vertex or edge against vertex
/// or edge); `None` to leave the pair to the general path.
pub(super) fn certified_apart(
    a: &OrientedBox,
    relative: &Relative,
    best: &BestAxis,
    magnitude: Real,
) -> Option<Separation> {
    let (x, y) = relative.support_pair(best);
    certify_points(a, relative, x, y, best.gap, magnitude)
}

/// Rounds of alternating projection [`projected_apart`] tries before it gives up.
const PROJECTION_ROUNDS: usize = 3;

/// The distance of boxes apart found by alternating projection, when its points are
/// certified; `None` leaves the pair to the separating axes.
///
/// Starting from b's point nearest a's centre (that centre taken into b's frame straight from
/// the world, beside `AᵀB`, so the first clamp does not wait for the relative pose), each
/// round projects b's current point onto a (a clamp in a's frame) and that onto b (a clamp in
/// b's frame). Alternating projections between two convex sets approach a closest pair; for a
/// vertex or a face against anything, a round or two reach it exactly. They crawl along two skew edges,
/// so when each point lies on an edge (one coordinate left free by its clamp) the closed-form
/// closest points of those two edges are taken instead ([`Relative::edge_pair`]). The points
/// are then certified as the separating-axis path's are: the boxes' gap along the points' own
/// direction (a lower bound on the distance) must meet their distance (an upper bound) within
/// `GJK_EXACT ×` the magnitude. Which points are tried only decides whether the bounds meet,
/// never whether the answer is right. On random pairs nine in ten apart pairs end here, most
/// in the first round, without the fifteen axes.
pub(super) fn projected_apart(
    a: &OrientedBox,
    b: &OrientedBox,
    relative: &Relative,
    magnitude: Real,
) -> Option<Separation> {
    let (ha, hb) = (relative.ha, relative.hb);
    let clamp_a = |p: &Vector3| p.zip_map(&ha, clamp_symmetric);
    let tolerance = GJK_EXACT * magnitude;
    // b's point nearest a's centre, from that centre in b's frame (computed beside `AᵀB`).
    let mut y = relative.b_point_in_a_frame(&b.to_local(&a.center()).zip_map(&hb, clamp_symmetric));
    for _ in 0..PROJECTION_ROUNDS {
        let x = clamp_a(&y);
        let u = relative.in_b_frame(&(x - relative.t));
        let w = u.zip_map(&hb, clamp_symmetric);
        // The coordinates each clamp left alone: one free coordinate puts the point on an
        // edge; all three free for a means b's point lies inside a: the boxes overlap.
        let free_a = y.zip_map(&ha, |x, h| x.abs() <= h);
        let free_b = u.zip_map(&hb, |x, h| x.abs() <= h);
        if free_a == nalgebra::Vector3::repeat(true) {
            return None;
        }
        y = relative.b_point_in_a_frame(&w);
        let (p, q) = match (only_free(&free_a), only_free(&free_b)) {
            (Some(i), Some(j)) => {
                let mut centre_a = x;
                centre_a[i] = 0.0;
                let mut centre_b = w;
                centre_b[j] = 0.0;
                relative.edge_pair(centre_a, i, &centre_b, j)
            }
            _ => (x, y),
        };
        // The gap along the points' own direction (times its length) against their squared
        // distance: `|s|² − gap(s) ≤ tol·|s|`, squared, so that the points that fail cost no
        // square root. (Inside the safe range the fourth powers stay normal numbers.)
        let span = q - p;
        let squared = span.norm_squared();
        let scaled = relative.gap_along(&span);
        let excess = squared - scaled;
        if excess * excess <= tolerance * tolerance * squared {
            let upper = squared.sqrt();
            let inverse = 1.0 / upper;
            let lower = scaled * inverse;
            if upper - lower <= tolerance && lower > 1e-9 * magnitude {
                return Some(answer(a, p, span, upper, lower, inverse));
            }
        }
    }
    None
}

/// The one coordinate a clamp left free (the point is on an edge along it), if only one.
#[inline(always)]
fn only_free(free: &nalgebra::Vector3<bool>) -> Option<usize> {
    match (free.x, free.y, free.z) {
        (true, false, false) => Some(0),
        (false, true, false) => Some(1),
        (false, false, true) => Some(2),
        _ => None,
    }
}

/// The separation certified by points `x` on a and `y` on b (a's frame) when their distance
/// meets `gap`, the boxes' gap along the best axis, or the gap along their own direction.
#[inline(always)]
fn certify_points(
    a: &OrientedBox,
    relative: &Relative,
    x: Vector3,
    y: Vector3,
    gap: Real,
    magnitude: Real,
) -> Option<Separation> {
    let tolerance = GJK_EXACT * magnitude;
    let floor = 1e-9 * magnitude;
    let span = y - x;
    let upper = span.norm();
    let inverse = 1.0 / upper;
    // The gap along the points' own direction from the gap along `span` (the gap is
    // positively homogeneous in the direction): no division before the test.
    let lower = if upper - gap <= tolerance {
        gap
    } else {
        let scaled = relative.gap_along(&span);
        // (NaN from a zero `upper` fails the test below.)
        if upper * upper - scaled > tolerance * upper {
            return None;
        }
        scaled * inverse
    };
    if !(upper - lower <= tolerance && lower > floor) {
        return None;
    }
    Some(answer(a, x, span, upper, lower, inverse))
}

/// The separation certified by bounds `lower` and `upper` met by points `x` on a and
/// `x + span` on b (a's frame, `inverse = 1 / upper`): centred on the two points as
/// [`centred`](super::centred) does (a's point moved half the bounds' difference towards b's,
/// b's `lower` beyond it), the direction taken in a's frame, where it is exact.
#[inline(always)]
fn answer(
    a: &OrientedBox,
    x: Vector3,
    span: Vector3,
    upper: Real,
    lower: Real,
    inverse: Real,
) -> Separation {
    let normal = span * inverse;
    let point_a = a.to_world(&(x + normal * (0.5 * (upper - lower))));
    let normal = a.direction_to_world(&normal);
    Separation {
        distance: lower,
        point_a,
        point_b: point_a + normal * lower,
        normal,
    }
}

/// Witnesses of overlapping or touching boxes (`best.gap ≤ 0`, the least overlap, which is
/// the exact depth): the closest points of the support features along the axis once b is moved
/// out by the depth, when they meet (within `MEET ×` the magnitude); a's point kept and b's
/// moved back, so that `point_b − point_a = distance · normal`. `None` (features beside each
/// other) leaves the pair to the general path's search.
pub(super) fn touching(
    a: &OrientedBox,
    relative: &Relative,
    best: &BestAxis,
    magnitude: Real,
) -> Option<Separation> {
    let moved = Relative {
        t: relative.t - best.local * best.gap,
        ..*relative
    };
    let (x, y) = moved.support_pair(best);
    let meet = MEET * magnitude;
    if (y - x).norm_squared() > meet * meet {
        return None;
    }
    let point_a = a.to_world(&x);
    let normal = a.direction_to_world(&best.local);
    Some(Separation {
        distance: best.gap,
        point_a,
        point_b: point_a + normal * best.gap,
        normal,
    })
}

#[cfg(test)]
mod tests {
    use super::super::closest_edges;
    use super::*;
    use crate::math::Point3;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn random_box(rng: &mut ChaCha8Rng, scale: Real) -> OrientedBox {
        let mut v = |lo: Real, hi: Real| rng.random_range(lo..hi);
        let centre = Point3::new(v(-1.0, 1.0), v(-1.0, 1.0), v(-1.0, 1.0)) * scale;
        let rpy = [v(-3.2, 3.2), v(-3.2, 3.2), v(-3.2, 3.2)];
        let half = Vector3::new(v(0.05, 0.4), v(0.05, 0.4), v(0.05, 0.4)) * scale;
        OrientedBox::from_rpy(centre, rpy, half).unwrap()
    }

    /// How far `p` is outside box `b` (0 inside).
    fn outside(b: &OrientedBox, p: &Point3) -> Real {
        (b.closest_point(p).0 - p).norm()
    }

    /// Every answer of the alternating projections against the exact edge–box distances (an
    /// independent method) and the witness invariants, at three scales; most apart pairs must
    /// end there, and overlapping ones never.
    #[test]
    fn projected_answers_agree_with_edge_box_distances() {
        let mut rng = ChaCha8Rng::seed_from_u64(12);
        for scale in [1e-6, 1.0, 1e6] {
            let (mut apart, mut found) = (0, 0);
            for _ in 0..4000 {
                let (a, b) = (random_box(&mut rng, scale), random_box(&mut rng, scale));
                let magnitude = a.magnitude().max(b.magnitude());
                let relative = Relative::new(&a, &b);
                let best = relative.best_axis();
                let projected = projected_apart(&a, &b, &relative, magnitude);
                if best.gap <= 0.0 {
                    assert!(projected.is_none(), "{projected:?} for {a:?} {b:?}");
                    continue;
                }
                apart += 1;
                let Some(s) = projected else { continue };
                found += 1;
                let axis = a.direction_to_world(&best.local);
                let exact = closest_edges(&a, &b, best.gap, &axis, magnitude).unwrap();
                let rounding = 1e-13 * magnitude;
                assert!(
                    (s.distance - exact.distance).abs() <= rounding,
                    "{s:?} vs {exact:?} for {a:?} {b:?}"
                );
                assert!((s.normal.norm() - 1.0).abs() < 1e-14, "{s:?}");
                let step = s.point_b - s.point_a - s.normal * s.distance;
                assert!(step.norm() <= rounding, "{s:?}");
                assert!(outside(&a, &s.point_a) <= rounding, "{s:?} {a:?}");
                assert!(outside(&b, &s.point_b) <= rounding, "{s:?} {b:?}");
            }
            assert!(
                found * 10 > apart * 8,
                "{found} of {apart} at scale {scale}"
            );
        }
    }

    /// Every certified answer of the frame's fast paths against the general path's exact
    /// edge–box distances (an independent method) and the witness invariants, at three
    /// scales; each kind of axis must be exercised.
    #[test]
    fn fast_paths_agree_with_edge_box_distances() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut certified = [0usize; 3];
        let mut touching_found = 0;
        for scale in [1e-6, 1.0, 1e6] {
            for _ in 0..4000 {
                let (a, b) = (random_box(&mut rng, scale), random_box(&mut rng, scale));
                let magnitude = a.magnitude().max(b.magnitude());
                let relative = Relative::new(&a, &b);
                let best = relative.best_axis();
                let axis = a.direction_to_world(&best.local);
                let s = if best.gap > 0.0 {
                    let Some(s) = certified_apart(&a, &relative, &best, magnitude) else {
                        continue;
                    };
                    let exact = closest_edges(&a, &b, best.gap, &axis, magnitude).unwrap();
                    assert!(
                        (s.distance - exact.distance).abs() <= 1e-13 * magnitude,
                        "{s:?} vs {exact:?} for {a:?} {b:?}"
                    );
                    certified[match best.kind {
                        AxisKind::FaceOfA(_) => 0,
                        AxisKind::FaceOfB(_) => 1,
                        AxisKind::Edges(..) => 2,
                    }] += 1;
                    s
                } else {
                    let Some(s) = touching(&a, &relative, &best, magnitude) else {
                        continue;
                    };
                    touching_found += 1;
                    assert_eq!(s.distance, best.gap);
                    s
                };
                let rounding = 1e-13 * magnitude;
                assert!((s.normal.norm() - 1.0).abs() < 1e-14, "{s:?}");
                let step = s.point_b - s.point_a - s.normal * s.distance;
                assert!(step.norm() <= rounding, "{s:?}");
                assert!(outside(&a, &s.point_a) <= rounding, "{s:?} {a:?}");
                assert!(outside(&b, &s.point_b) <= rounding, "{s:?} {b:?}");
            }
        }
        assert!(certified.iter().all(|&n| n > 500), "{certified:?}");
        assert!(touching_found > 500, "{touching_found}");
    }
}
