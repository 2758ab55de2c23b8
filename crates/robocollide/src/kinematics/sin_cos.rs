//! Sines and cosines of [`SIDE_BY_SIDE`] angles at once, for the forward kinematics' revolute
//! joints: straight-line arithmetic over arrays, which the compiler turns into vector
//! instructions (four `f64` per AVX2 register inside [`run_wide`](crate::wide)), where the
//! library's `sin_cos` is one call per angle with branches of its own (on MotionBenchMaker's
//! planning, 5 % of the instructions).
//!
//! Method (Cody & Waite, *Software Manual for the Elementary Functions*, 1980): `k`, the
//! nearest integer to `x·2/π`, and the reduced angle `r = x − k·π/2`, with `π/2` split into
//! three parts (`P1`, `P2` of 32 significant bits, so that `k·P1` and `k·P2` are exact for
//! `|k| < 2²¹`, and `P3`); then `sin r` and `cos r` on `|r| ≤ π/4 (1 + 2⁻⁴⁰)` by their Taylor
//! series to `r¹⁷` and `r¹⁸` (remainders below `r¹⁹/19! < 10⁻¹⁹` and `r²⁰/20! < 10⁻²⁰`),
//! summed by Estrin's scheme, and the quadrant `k mod 4` picks and signs them. The constants'
//! three parts sum to `π/2` within `10⁻³⁷` (computed with exact rationals). Error: a few
//! units in the last place of 1 (the tests bound every value's distance from the library's
//! by `2·2⁻⁵³`, over angles from `10⁻³⁰⁰` to `10⁵`, near multiples of `π/4` and at random),
//! the same order as the library's own rounding, and far inside every tolerance built on the
//! frames (the lane walk is held within `10⁻¹²` of the scalar walk, `kinematics::lanes`).
//! Angles beyond [`REDUCED_LIMIT`] in magnitude, infinities and NaN send all four angles of
//! their call to the library's `sin_cos` (joint values of a robot are far smaller).

use crate::math::Real;

/// Angles computed side by side.
pub const SIDE_BY_SIDE: usize = 4;

/// Largest angle magnitude reduced here (`|k| < 2²⁰`, inside the exact range of `k·P1`).
pub const REDUCED_LIMIT: Real = 1.0e5;

/// `π/2` in three parts: `P1` and `P2` with 32 significant bits, `P3` the rest.
const P1: Real = 1.570_796_326_734_125_6;
const P2: Real = 6.077_100_506_303_966e-11;
const P3: Real = 2.022_266_248_795_950_6e-21;
/// `2/π`, rounded.
const TWO_OVER_PI: Real = std::f64::consts::FRAC_2_PI;
/// `1.5 · 2⁵²`: added to a value below `2⁵¹` in magnitude, it rounds it to an integer held
/// in the sum's low mantissa bits (round to nearest, ties to even).
const ROUNDER: Real = 6_755_399_441_055_744.0;

/// `(sin x, cos x)` for each of `x` (see the module docs).
#[inline(always)]
pub fn sin_cos_side_by_side(x: [Real; SIDE_BY_SIDE]) -> [(Real, Real); SIDE_BY_SIDE] {
    // (NaN compares false: it goes to the library too.)
    if !x.iter().all(|v| v.abs() <= REDUCED_LIMIT) {
        return x.map(Real::sin_cos);
    }
    let (sin, cos) = reduced_sin_cos(x);
    std::array::from_fn(|i| (sin[i], cos[i]))
}

/// [`sin_cos_side_by_side`] for `|x| ≤ REDUCED_LIMIT`: branch-free, each step one loop over
/// the lanes (the form the compiler vectorizes).
#[inline(always)]
fn reduced_sin_cos(x: [Real; SIDE_BY_SIDE]) -> ([Real; SIDE_BY_SIDE], [Real; SIDE_BY_SIDE]) {
    let (mut shifted, mut r, mut sin, mut cos) = (
        [0.0; SIDE_BY_SIDE],
        [0.0; SIDE_BY_SIDE],
        [0.0; SIDE_BY_SIDE],
        [0.0; SIDE_BY_SIDE],
    );
    for i in 0..SIDE_BY_SIDE {
        shifted[i] = x[i] * TWO_OVER_PI + ROUNDER;
    }
    for i in 0..SIDE_BY_SIDE {
        let k = shifted[i] - ROUNDER;
        r[i] = ((x[i] - k * P1) - k * P2) - k * P3;
    }
    for i in 0..SIDE_BY_SIDE {
        let r2 = r[i] * r[i];
        sin[i] = r[i] + r[i] * r2 * series8(r2, &SINE);
        cos[i] = 1.0 + r2 * series9(r2, &COSINE);
    }
    // `k mod 4` (the sum's low bits hold `1.5·2⁵² + k`, a multiple of 4 plus `k mod 4`):
    // an odd quadrant swaps sine and cosine, quadrants 2 and 3 negate the sine, 1 and 2
    // the cosine.
    let mut out = ([0.0; SIDE_BY_SIDE], [0.0; SIDE_BY_SIDE]);
    for i in 0..SIDE_BY_SIDE {
        let quadrant = shifted[i].to_bits();
        let swap = quadrant & 1 == 1;
        let (s, c) = if swap {
            (cos[i], sin[i])
        } else {
            (sin[i], cos[i])
        };
        out.0[i] = Real::from_bits(s.to_bits() ^ ((quadrant & 2) << 62));
        out.1[i] = Real::from_bits(c.to_bits() ^ (((quadrant + 1) & 2) << 62));
    }
    out
}

/// `(sin r − r)/r³` as a series in `r²`: `−1/3! + r²/5! − …` to `r¹⁴/17!`.
const SINE: [Real; 8] = [
    -1.0 / 6.0,
    1.0 / 120.0,
    -1.0 / 5_040.0,
    1.0 / 362_880.0,
    -1.0 / 39_916_800.0,
    1.0 / 6_227_020_800.0,
    -1.0 / 1_307_674_368_000.0,
    1.0 / 355_687_428_096_000.0,
];

/// `(cos r − 1)/r²` as a series in `r²`: `−1/2! + r²/4! − …` to `r¹⁶/18!`.
const COSINE: [Real; 9] = [
    -0.5,
    1.0 / 24.0,
    -1.0 / 720.0,
    1.0 / 40_320.0,
    -1.0 / 3_628_800.0,
    1.0 / 479_001_600.0,
    -1.0 / 87_178_291_200.0,
    1.0 / 20_922_789_888_000.0,
    -1.0 / 6_402_373_705_728_000.0,
];

/// `c₀ + c₁ t + … + c₇ t⁷` by Estrin's scheme (pairs with `t`, then `t²`, then `t⁴`): three
/// dependent steps instead of Horner's eight, as the forward kinematics waits for them
/// (on MotionBenchMaker the search took 0.977× its time with Horner's, the same paths).
#[inline(always)]
fn series8(t: Real, c: &[Real; 8]) -> Real {
    let (low, high, t4) = halves(t, c);
    low + high * t4
}

/// `c₀ + c₁ t + … + c₈ t⁸`: as [`series8`], with `c₈ t⁴` added to the upper half.
#[inline(always)]
fn series9(t: Real, c: &[Real; 9]) -> Real {
    let (low, high, t4) = halves(t, c[..8].try_into().expect("eight of nine"));
    low + (high + c[8] * t4) * t4
}

/// Estrin's first two steps: `(c₀ + c₁ t) + (c₂ + c₃ t) t²`, `(c₄ + c₅ t) + (c₆ + c₇ t) t²`,
/// and `t⁴`.
#[inline(always)]
fn halves(t: Real, c: &[Real; 8]) -> (Real, Real, Real) {
    let t2 = t * t;
    let (p0, p1, p2, p3) = (
        c[0] + c[1] * t,
        c[2] + c[3] * t,
        c[4] + c[5] * t,
        c[6] + c[7] * t,
    );
    (p0 + p1 * t2, p2 + p3 * t2, t2 * t2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::unit_random;

    /// Both values within `2·2⁻⁵³` of the library's (which is within one unit in the last
    /// place of the exact value).
    fn agrees(x: Real) {
        let [(s, c), ..] = sin_cos_side_by_side([x, 0.0, 0.0, 0.0]);
        let (es, ec) = x.sin_cos();
        let tolerance = 2.0 * Real::EPSILON / 2.0;
        assert!(
            (s - es).abs() <= tolerance,
            "sin {x:e}: {s:e} against {es:e}"
        );
        assert!(
            (c - ec).abs() <= tolerance,
            "cos {x:e}: {c:e} against {ec:e}"
        );
    }

    #[test]
    fn agrees_with_the_library_at_random_angles() {
        let mut unit = unit_random(11);
        for scale in [1e-6, 1e-3, 0.5, 1.0, 3.2, 7.0, 100.0, 1e4, 1e5] {
            for _ in 0..20_000 {
                agrees((2.0 * unit() - 1.0) * scale);
            }
        }
    }

    #[test]
    fn agrees_near_multiples_of_an_eighth_turn_and_at_tiny_angles() {
        for k in -4000..=4000 {
            let centre = k as Real * std::f64::consts::FRAC_PI_4;
            for offset in [0.0, 1e-15, -1e-15, 1e-9, -1e-9, 1e-4, -1e-4] {
                agrees(centre + offset);
                agrees(centre.next_up() + offset);
                agrees(centre.next_down() + offset);
            }
        }
        for e in -300..0 {
            agrees(10f64.powi(e));
            agrees(-(10f64.powi(e)));
        }
        agrees(REDUCED_LIMIT);
        agrees(-REDUCED_LIMIT);
    }

    #[test]
    fn exact_values_where_the_library_gives_them() {
        let [zero, minus_zero, ..] = sin_cos_side_by_side([0.0, -0.0, 0.0, 0.0]);
        assert_eq!(zero, (0.0, 1.0));
        assert_eq!(minus_zero.1, 1.0);
        assert!(minus_zero.0 == 0.0);
    }

    #[test]
    fn large_and_non_finite_angles_send_the_call_to_the_library() {
        let x = [1e6, Real::INFINITY, Real::NAN, 0.3];
        let got = sin_cos_side_by_side(x);
        for (g, x) in got.iter().zip(x) {
            let e = x.sin_cos();
            assert!(g.0.to_bits() == e.0.to_bits() || (g.0.is_nan() && e.0.is_nan()));
            assert!(g.1.to_bits() == e.1.to_bits() || (g.1.is_nan() && e.1.is_nan()));
        }
    }
}
