//! The lane screen's second-order test ([`LaneScreen`](super::lane_screen::LaneScreen)'s chord
//! pass): a lower bound on a sphere's distance to an obstacle, or to another sphere, along the
//! chords between neighbouring lanes, with no distance kernel.
//!
//! Certificate: with the lanes walked at `LANES` evenly spaced points of the motion, both ends
//! included (`h = 1/(LANES − 1)` apart), a sphere's centre strays from the chord between two
//! neighbouring lanes by at most `h² A / 8` ([`chord_bound`](super::chord_bound)); so it is
//! clear of a fixed convex solid on the whole motion when every chord keeps further than the
//! radius plus that deviation from the solid. Two spheres: their centres' difference strays
//! from its chord by the sum of both deviations, and must keep further than both radii from
//! the origin.
//!
//! The distance along a chord: the distance `f` from a point to a convex set (a ball, a box, a
//! flat-capped cylinder, the origin) is a convex function of the point, so along a segment
//! `f(t) ≥ f(0) + t f'(0)` and `f(t) ≥ f(1) − (1 − t) f'(1)` (a convex function lies above its
//! tangents), where `f'` is the gradient (the unit offset from the set's nearest point) dotted
//! with the segment. The lowest value on `[0, 1]` of the larger line is a lower bound on `f`
//! over the chord: an end's value when the chord moves away from the set there, the tangents'
//! crossing when it passes by. A sphere sliding along a face keeps its distance as the bound,
//! where the first-order test needs that distance to exceed its displacement's share.
//!
//! Rounding: the values carry the roundings of a few products and a square root (~10⁻¹⁵ of the
//! coordinates); the caller asks for its margin on top (see the lane screen). NaN anywhere
//! gives NaN, which fails every test (`>` is false). Units: metres.

use crate::kinematics::{LANES, Lane};
use crate::math::Real;

/// The lowest value on `[0, 1]` of the larger of the lines `d0 + a t` and `d1 − b (1 − t)`: a
/// lower bound on a convex function with values `d0`, `d1` at `0` and `1` and slopes `a`, `b`
/// there. NaN in (where it matters) gives NaN.
#[inline(always)]
fn envelope_minimum(d0: Real, d1: Real, a: Real, b: Real) -> Real {
    if a >= 0.0 {
        return d0;
    }
    if b <= 0.0 {
        return d1;
    }
    // a < 0 < b: the lines cross once; the larger is lowest there, or at the nearer end.
    let t = ((d1 - b - d0) / (a - b)).clamp(0.0, 1.0);
    let (falling, rising) = (d0 + a * t, d1 - b * (1.0 - t));
    if falling > rising { falling } else { rising }
}

/// For points at the lanes (`points`) and their offsets from a convex set's nearest points
/// (`offsets`, `point − nearest`): the least distance at a lane, and the least lower bound on
/// the distance along the chords between neighbouring lanes (see the module docs). Both are
/// NaN if a lane is; the second also where a lane is at distance 0 (its gradient undefined).
#[inline(always)]
pub(super) fn least_distances(points: &[Lane; 3], offsets: &[Lane; 3]) -> (Real, Real) {
    let mut distances = [0.0; LANES];
    for (l, d) in distances.iter_mut().enumerate() {
        let (x, y, z) = (offsets[0][l], offsets[1][l], offsets[2][l]);
        *d = (x * x + y * y + z * z).sqrt();
    }
    let mut at_lanes = distances[0];
    let mut along = Real::INFINITY;
    let lane_nan = distances.iter().any(|d| d.is_nan());
    // (A lane at distance 0 gives NaN slopes: no bound along, and contact at the lanes.)
    let mut nan = lane_nan;
    for l in 0..LANES - 1 {
        let chord = [
            points[0][l + 1] - points[0][l],
            points[1][l + 1] - points[1][l],
            points[2][l + 1] - points[2][l],
        ];
        let slope = |m: usize| {
            (offsets[0][m] * chord[0] + offsets[1][m] * chord[1] + offsets[2][m] * chord[2])
                / distances[m]
        };
        let (d0, d1) = (distances[l], distances[l + 1]);
        let low = envelope_minimum(d0, d1, slope(l), slope(l + 1));
        nan |= low.is_nan();
        along = if low < along { low } else { along };
        at_lanes = if d1 < at_lanes { d1 } else { at_lanes };
    }
    match (lane_nan, nan) {
        (true, _) => (Real::NAN, Real::NAN),
        (false, true) => (at_lanes, Real::NAN),
        (false, false) => (at_lanes, along),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::unit_random;

    /// A box `[−1, 1]³`'s offset of `p`, and its distance.
    fn box_offset(p: [Real; 3]) -> [Real; 3] {
        std::array::from_fn(|i| p[i] - p[i].clamp(-1.0, 1.0))
    }

    fn norm(v: [Real; 3]) -> Real {
        (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt()
    }

    /// The bound along a chord never exceeds the distance's true least value there (dense
    /// sampling), for random chords past a box and past the origin (a ball of radius 0),
    /// among them chords that graze an edge or a corner and chords parallel to a face; and it
    /// is tight for a chord sliding along a face.
    #[test]
    fn the_chord_bound_is_below_the_least_distance() {
        let mut next = unit_random(5);
        let offsets: [fn([Real; 3]) -> [Real; 3]; 2] = [box_offset, |p| p];
        let mut tight = 0;
        for case in 0..40_000 {
            let offset = offsets[case % 2];
            let mut p0: [Real; 3] = std::array::from_fn(|_| 6.0 * next() - 3.0);
            let mut p1: [Real; 3] = std::array::from_fn(|_| 6.0 * next() - 3.0);
            if case % 7 == 0 {
                // Parallel to the plane z = 0; for the box, over its top face.
                p1[2] = p0[2];
                if case % 2 == 0 {
                    for p in [&mut p0, &mut p1] {
                        p[0] = 0.999 * (p[0] / 3.0);
                        p[1] = 0.999 * (p[1] / 3.0);
                    }
                    p0[2] = 1.0 + p0[2].abs();
                    p1[2] = p0[2];
                }
            }
            let at =
                |t: Real| -> [Real; 3] { std::array::from_fn(|i| p0[i] + t * (p1[i] - p0[i])) };
            let mut points = [[0.0; LANES]; 3];
            let mut offs = [[0.0; LANES]; 3];
            for l in 0..LANES {
                let p = at(l as Real / (LANES - 1) as Real);
                let o = offset(p);
                for a in 0..3 {
                    points[a][l] = p[a];
                    offs[a][l] = o[a];
                }
            }
            let (at_lanes, along) = least_distances(&points, &offs);
            let truth = (0..=3000)
                .map(|k| norm(offset(at(k as Real / 3000.0))))
                .fold(Real::INFINITY, Real::min);
            if at_lanes == 0.0 {
                // A lane inside: contact there, and no bound along.
                assert!(along.is_nan());
                continue;
            }
            assert!(along <= truth + 1e-12, "{along} above the least {truth}");
            let least_lane = (0..LANES)
                .map(|l| norm([offs[0][l], offs[1][l], offs[2][l]]))
                .fold(Real::INFINITY, Real::min);
            assert_eq!(at_lanes, least_lane);
            if case % 14 == 0 {
                // Sliding over the top face: the bound is the height itself.
                assert!((along - (p0[2] - 1.0)).abs() < 1e-12, "{along} at {p0:?}");
                tight += 1;
            }
        }
        assert!(tight > 2000, "{tight} sliding chords");
    }

    #[test]
    fn nan_anywhere_gives_nan() {
        let points = [[0.0; LANES]; 3];
        let mut offs = [[1.0; LANES]; 3];
        assert_eq!(least_distances(&points, &offs).0, (3.0 as Real).sqrt());
        for l in [0, 7, LANES - 1] {
            offs[1][l] = Real::NAN;
            let (at, along) = least_distances(&points, &offs);
            assert!(at.is_nan() && along.is_nan(), "lane {l}");
            offs[1][l] = 1.0;
        }
        assert!(envelope_minimum(Real::NAN, 1.0, -1.0, 1.0).is_nan());
        assert!(envelope_minimum(1.0, Real::NAN, -1.0, 1.0).is_nan());
        assert!(envelope_minimum(1.0, 1.0, Real::NAN, Real::NAN).is_nan());
    }
}
