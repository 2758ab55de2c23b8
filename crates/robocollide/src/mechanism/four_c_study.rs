//! The self-collision study of a spatial 4C mechanism (seed 003 §4–5): the twelve points and
//! eight segments of each configuration (Table 4, eqs. 24–25), the axis lengths from the
//! motion's translation extremes, the twenty segment pairs tested at each step, the
//! infinite-cylinder stage (a necessary condition) and the finite stage with exact flat-ended
//! cylinders — and, separately, with capsules.
//!
//! Points, in the fixed frame (frames of eq. 23: 2 = `Z(θ, d₁)`, 3 = `·X(α, a)`,
//! 4 = `·Z(φ, c₁)`, 5 = `¹₄T·X(η, h)`; 8 = `X(γ, g)`, 7 = `·Z(ψ, d₂)`, 6 = `·X(β, b)`):
//!
//! | link | collar (on the previous axis) | elbow | end of its axis |
//! |---|---|---|---|
//! | fixed | origin of 8 | origin (frame 1) | `d₁max` along z₁ |
//! | driving | origin of 2 | origin of 3 | `c₁max` along z₃ (eq. 24) |
//! | coupler | origin of 4 | origin of 5 | `−c₂max` along z₅ (eq. 25: `Z(δ, c₂ − c₂max)`) |
//! | driven | origin of 6 | origin of 7 | `−d₂max` along z₇ |
//!
//! The driven chain measures its translations from collar to elbow, so its ends lie on the far
//! side of the collar (eq. 25). Segments (Table 4): 1 fixed axis (elbow→end), 2 driving
//! normal (collar→elbow), 3 driving axis, 4 coupler normal, 5 coupler axis, 6 driven normal,
//! 7 driven axis, 8 fixed normal. Pairs: all except a segment with itself and with its
//! neighbours around the loop (8 and 1 are neighbours): twenty.

use super::four_c::{FourC, FourCConfiguration};
use crate::geom::{Capsule, Cylinder, Line, Segment};
use crate::math::{Point3, Real};
use crate::query::{capsule_capsule, cylinder_cylinder};

/// The twenty segment pairs (1-based numbers as in Table 4).
pub fn segment_pairs() -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    for i in 1..=8usize {
        for j in i + 1..=8 {
            let neighbours = j - i == 1 || (i == 1 && j == 8);
            if !neighbours {
                pairs.push((i, j));
            }
        }
    }
    pairs
}

/// The translations' extremes over a motion, which size the axes.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct AxisLengths {
    /// Largest `d₁`.
    pub d1_max: Real,
    /// Largest `c₁`.
    pub c1_max: Real,
    /// Largest `c₂`.
    pub c2_max: Real,
    /// Largest `d₂`.
    pub d2_max: Real,
}

impl AxisLengths {
    /// The maxima over `configurations`.
    pub fn over(configurations: &[FourCConfiguration]) -> Self {
        let max = |f: fn(&FourCConfiguration) -> Real| {
            configurations
                .iter()
                .map(f)
                .fold(Real::NEG_INFINITY, Real::max)
        };
        Self {
            d1_max: max(|c| c.d1),
            c1_max: max(|c| c.c1),
            c2_max: max(|c| c.c2),
            d2_max: max(|c| c.d2),
        }
    }
}

/// The eight segments (index 0 = Table 4's segment 1) of a configuration.
pub fn segments(m: &FourC, c: &FourCConfiguration, lengths: &AxisLengths) -> [(Point3, Point3); 8] {
    use super::four_c::{x_motion, z_motion};
    let origin = |t: &crate::math::Isometry3| t * Point3::origin();
    let along = |t: &crate::math::Isometry3, s: Real| t * Point3::new(0.0, 0.0, s);
    let f2 = z_motion(c.theta, c.d1);
    let f3 = f2 * x_motion(m.alpha, m.a);
    let f4 = f3 * z_motion(c.phi, c.c1);
    let f5 = f4 * x_motion(m.eta, m.h);
    let f8 = x_motion(m.gamma, m.g);
    let f7 = f8 * z_motion(c.psi, c.d2);
    let f6 = f7 * x_motion(m.beta, m.b);
    let fixed_elbow = Point3::origin();
    let fixed_end = Point3::new(0.0, 0.0, lengths.d1_max);
    [
        (fixed_elbow, fixed_end),                   // 1 fixed axis
        (origin(&f2), origin(&f3)),                 // 2 driving normal
        (origin(&f3), along(&f3, lengths.c1_max)),  // 3 driving axis
        (origin(&f4), origin(&f5)),                 // 4 coupler normal
        (origin(&f5), along(&f5, -lengths.c2_max)), // 5 coupler axis
        (origin(&f6), origin(&f7)),                 // 6 driven normal
        (origin(&f7), along(&f7, -lengths.d2_max)), // 7 driven axis
        (origin(&f8), fixed_elbow),                 // 8 fixed normal
    ]
}

/// Radius of segment `k` (1-based): axes (odd) `axis`, common normals (even) `normal`.
pub fn radius(k: usize, axis: Real, normal: Real) -> Real {
    if k % 2 == 1 { axis } else { normal }
}

/// Result of one pair at one step.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct PairTest {
    /// Segment numbers (Table 4).
    pub segments: (usize, usize),
    /// Distance between the infinite axes minus the radii (≤ 0: the infinite cylinders meet).
    pub infinite: Real,
    /// Signed distance of the flat-ended cylinders.
    pub cylinders: Real,
    /// Signed distance of the capsules with the same axes and radii.
    pub capsules: Real,
}

/// The bodies of one configuration's eight segments, built once per step: axis lines,
/// flat-ended cylinders and capsules (`None` for a zero-length segment, which has neither a
/// line nor a cylinder and is reported as in contact).
pub struct StepBodies {
    lines: [Option<Line>; 8],
    cylinders: [Option<Cylinder>; 8],
    capsules: [Capsule; 8],
    radii: [Real; 8],
    /// Largest coordinate magnitude, for the pruning margin.
    scale: Real,
}

/// Relative margin (to the coordinates' scale) by which the infinite stage must clear a pair
/// before the finite stage is skipped: rounding can never prune a touching pair.
const PRUNE_MARGIN: Real = 1e-12;

impl StepBodies {
    /// Bodies of the segments `seg` with the given axis and common-normal radii.
    pub fn new(seg: &[(Point3, Point3); 8], axis_radius: Real, normal_radius: Real) -> Self {
        let radii = std::array::from_fn(|k| radius(k + 1, axis_radius, normal_radius));
        let scale = seg
            .iter()
            .flat_map(|(p, q)| [p.coords.amax(), q.coords.amax()])
            .fold(1.0, Real::max);
        Self {
            lines: std::array::from_fn(|k| Line::through(seg[k].0, seg[k].1).ok()),
            cylinders: std::array::from_fn(|k| Cylinder::new(seg[k].0, seg[k].1, radii[k]).ok()),
            capsules: std::array::from_fn(|k| {
                Capsule::from_segment(Segment::from_finite(seg[k].0, seg[k].1), radii[k])
                    .expect("radius >= 0")
            }),
            radii,
            scale,
        }
    }

    /// Infinite stage for segments `i`, `j` (1-based): the axes' distance minus the radii.
    pub fn infinite(&self, i: usize, j: usize) -> Real {
        match (&self.lines[i - 1], &self.lines[j - 1]) {
            (Some(a), Some(b)) => a.distance_to(b) - self.radii[i - 1] - self.radii[j - 1],
            _ => Real::NEG_INFINITY,
        }
    }

    /// Whether the infinite stage proves segments `i`, `j` apart, with a rounding margin. The
    /// infinite cylinders contain both the finite cylinders and the capsules.
    pub fn pruned(&self, infinite: Real) -> bool {
        infinite > PRUNE_MARGIN * self.scale
    }

    /// Signed distance of the flat-ended cylinders of segments `i`, `j`.
    pub fn cylinders(&self, i: usize, j: usize) -> Real {
        match (&self.cylinders[i - 1], &self.cylinders[j - 1]) {
            (Some(a), Some(b)) => cylinder_cylinder(a, b).distance,
            _ => Real::NEG_INFINITY,
        }
    }

    /// Signed distance of the capsules of segments `i`, `j`.
    pub fn capsules(&self, i: usize, j: usize) -> Real {
        capsule_capsule(&self.capsules[i - 1], &self.capsules[j - 1]).distance
    }
}

/// The twenty pair tests of one configuration, every stage for every pair.
pub fn pair_tests(
    seg: &[(Point3, Point3); 8],
    axis_radius: Real,
    normal_radius: Real,
) -> Vec<PairTest> {
    let bodies = StepBodies::new(seg, axis_radius, normal_radius);
    segment_pairs()
        .into_iter()
        .map(|(i, j)| PairTest {
            segments: (i, j),
            infinite: bodies.infinite(i, j),
            cylinders: bodies.cylinders(i, j),
            capsules: bodies.capsules(i, j),
        })
        .collect()
}
