//! Forward kinematics at [`LANES`] points of one straight joint-space motion at once: every
//! link frame as arrays of `LANES` values side by side ([`LaneFrame`]), so that each product
//! of the walk is one loop over the lanes, which the compiler turns into vector instructions
//! (two `f64` lanes per SSE2 register on baseline x86-64, four with AVX2, which the `simd`
//! feature uses at run time where the processor has it: `crate::wide`).
//!
//! The points are the midpoints of `LANES` equal stretches of the motion `qa → qb`:
//! `q(sᵢ) = qa + sᵢ (qb − qa)`, `sᵢ = (i + ½) / LANES` ([`lane_parameter`]); together they lie
//! within half a stretch of every point of the motion, which is what a motion check built on
//! them needs (see `collision::lane_screen`).
//!
//! A revolute joint's sines and cosines come from those of two angles per joint, not one per
//! lane: the angle at `s₀` (the joints' four at a time, by the scalar walk's
//! [`sin_cos_side_by_side`](super::sin_cos), within `2·2⁻⁵³` of the library's `sin_cos`; on
//! MotionBenchMaker the search took 0.99× the time of one library call per joint, the same
//! paths) and the turn `δ` between neighbouring lanes (its
//! Taylor series when `|δ| ≤ 1/8`, as on a planner's steps), each next lane the previous
//! turned by `δ` (`sin(θ + δ) = sin θ cos δ + cos θ sin δ`, and likewise the cosine).
//! Each turn adds a few units of rounding (relative 2⁻⁵²) to the pair, so after `LANES − 1`
//! turns the frames differ from the scalar walk's at the same points by ~10⁻¹⁵ of the arm's
//! reach; the tests bound the difference by 10⁻¹², and the screen that uses the frames
//! inflates its tests by far more (`collision::lane_screen`). Otherwise the
//! products are the scalar walk's ([`ForwardKinematics`]), in the same order.
//! Units: metres and radians.

use super::forward::{ForwardKinematics, Motion, Step};
use super::frame::{Frame, JointAxis};
use super::sin_cos::{SIDE_BY_SIDE, sin_cos_side_by_side};
use super::tree::MotionOrder;
use crate::math::{Point3, Real};
use crate::wide::{WideOp, run_wide};

/// Points evaluated together: sixteen measured faster than eight with MotionBenchMaker's
/// 1 rad steps (eight did with 0.5 rad steps; `benches/README.md`, sessions 36 and 39).
pub const LANES: usize = 16;

/// One value per lane.
pub type Lane = [Real; LANES];

/// The same value in every lane.
#[inline(always)]
fn splat(x: Real) -> Lane {
    [x; LANES]
}

/// Lane `i`'s parameter on the motion, `(i + ½) / LANES`.
#[inline]
pub fn lane_parameter(i: usize) -> Real {
    (i as Real + 0.5) / LANES as Real
}

/// A rigid placement per lane: `rotation[row][column]` and `origin[row]`, each a [`Lane`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LaneFrame {
    /// Rotation matrices, entry by entry.
    pub rotation: [[Lane; 3]; 3],
    /// Origins, coordinate by coordinate.
    pub origin: [Lane; 3],
}

impl LaneFrame {
    /// `frame` in every lane.
    pub fn splat(frame: &Frame) -> Self {
        let mut out = Self {
            rotation: [[splat(0.0); 3]; 3],
            origin: [splat(0.0); 3],
        };
        for row in 0..3 {
            for col in 0..3 {
                out.rotation[row][col] = splat(frame.rotation[(row, col)]);
            }
            out.origin[row] = splat(frame.origin[row]);
        }
        out
    }

    /// Lane `i`'s placement as a [`Frame`].
    pub fn lane(&self, i: usize) -> Frame {
        let mut frame = Frame::IDENTITY;
        for row in 0..3 {
            for col in 0..3 {
                frame.rotation[(row, col)] = self.rotation[row][col][i];
            }
            frame.origin[row] = self.origin[row][i];
        }
        frame
    }

    /// The world position of the local point `p` in every lane, into `out`.
    #[inline(always)]
    pub fn apply_into(&self, p: &Point3, out: &mut [Lane; 3]) {
        for (row, out) in out.iter_mut().enumerate() {
            let (r, o) = (&self.rotation[row], &self.origin[row]);
            for l in 0..LANES {
                out[l] = o[l] + r[0][l] * p.x + r[1][l] * p.y + r[2][l] * p.z;
            }
        }
    }

    /// `self ← parent ∘ origin` for the step's constant placement.
    #[inline(always)]
    fn place_from(&mut self, parent: &LaneFrame, step: &Step) {
        parent.apply_into(&Point3::from(step.origin.origin), &mut self.origin);
        if step.pure_translation {
            self.rotation = parent.rotation;
        } else if let Some((axis, (s, c))) = &step.origin_turn {
            turned_from(&parent.rotation, axis, (*s, *c), &mut self.rotation);
        } else {
            let m = &step.origin.rotation;
            for (row, r) in self.rotation.iter_mut().zip(&parent.rotation) {
                for (col, out) in row.iter_mut().enumerate() {
                    let (a, b, c) = (m[(0, col)], m[(1, col)], m[(2, col)]);
                    for l in 0..LANES {
                        out[l] = r[0][l] * a + r[1][l] * b + r[2][l] * c;
                    }
                }
            }
        }
    }

    /// `self ← self ∘ motion` for the joint's motion, `(sin, cos)` per lane (revolute) or
    /// `(displacement, _)` (prismatic).
    #[inline(always)]
    fn move_by(&mut self, step: &Step, (s, c): (&Lane, &Lane)) {
        match &step.motion {
            Motion::Fixed => {}
            Motion::Revolute(axis, _) => turn(&mut self.rotation, axis, s, c),
            Motion::Prismatic(axis, _) => {
                for (o, r) in self.origin.iter_mut().zip(&self.rotation) {
                    for l in 0..LANES {
                        o[l] += (r[0][l] * axis.x + r[1][l] * axis.y + r[2][l] * axis.z) * s[l];
                    }
                }
            }
        }
    }
}

/// `r ← r · R` for the rotation `R` about `axis` with sines `s` and cosines `c` per lane
/// ([`Frame::rotated`] lane by lane).
#[inline(always)]
fn turn(r: &mut [[Lane; 3]; 3], axis: &JointAxis, s: &Lane, c: &Lane) {
    if let JointAxis::General(u) = axis {
        // Rodrigues per lane: R(u, θ) = c I + s [u]× + (1 − c) u uᵀ.
        let k = u.cross_matrix();
        let mut turn = [[splat(0.0); 3]; 3];
        for (a, row) in turn.iter_mut().enumerate() {
            for (b, entry) in row.iter_mut().enumerate() {
                let unit = if a == b { 1.0 } else { 0.0 };
                for l in 0..LANES {
                    entry[l] = c[l] * unit + s[l] * k[(a, b)] + (1.0 - c[l]) * u[a] * u[b];
                }
            }
        }
        for row in r.iter_mut() {
            let before = *row;
            for (col, out) in row.iter_mut().enumerate() {
                for l in 0..LANES {
                    out[l] = before[0][l] * turn[0][col][l]
                        + before[1][l] * turn[1][col][l]
                        + before[2][l] * turn[2][col][l];
                }
            }
        }
        return;
    }
    // (A coordinate axis: `axis_columns` has its columns.)
    let Some((i, j, sign)) = axis_columns(axis) else {
        return;
    };
    for row in r.iter_mut() {
        let (x, y) = (row[i], row[j]);
        for l in 0..LANES {
            row[i][l] = c[l] * x[l] + sign * s[l] * y[l];
            row[j][l] = c[l] * y[l] - sign * s[l] * x[l];
        }
    }
}

/// For a turn about a coordinate axis, the two columns it mixes `(i, j)` (in cyclic order
/// after the axis) and the axis' sign; `None` for a general axis.
#[inline(always)]
fn axis_columns(axis: &JointAxis) -> Option<(usize, usize, Real)> {
    match axis {
        JointAxis::X(sign) => Some((1, 2, *sign)),
        JointAxis::Y(sign) => Some((2, 0, *sign)),
        JointAxis::Z(sign) => Some((0, 1, *sign)),
        JointAxis::General(_) => None,
    }
}

/// `out ← r · R` for the rotation `R` about `axis` by one turn `(sin, cos)` in every lane:
/// [`turn`]'s products on a copy of `r`, without copying the columns the turn replaces.
#[inline(always)]
fn turned_from(
    r: &[[Lane; 3]; 3],
    axis: &JointAxis,
    (s, c): (Real, Real),
    out: &mut [[Lane; 3]; 3],
) {
    let Some((i, j, sign)) = axis_columns(axis) else {
        *out = *r;
        turn(out, axis, &splat(s), &splat(c));
        return;
    };
    let kept = 3 - i - j;
    for (row, out) in r.iter().zip(out.iter_mut()) {
        let (x, y) = (&row[i], &row[j]);
        out[kept] = row[kept];
        for l in 0..LANES {
            out[i][l] = c * x[l] + sign * s * y[l];
            out[j][l] = c * y[l] - sign * s * x[l];
        }
    }
}

impl ForwardKinematics {
    /// Every link frame at the [`LANES`] points of the motion `qa → qb` (see the module docs)
    /// into `frames` (resized to the link count); `scratch` is reusable. `qa` and `qb` are not
    /// validated. Runs compiled for AVX2 where the processor has it (`simd` feature).
    pub fn forward_lanes_into(
        &self,
        qa: &[Real],
        qb: &[Real],
        frames: &mut Vec<LaneFrame>,
        scratch: &mut Vec<(Lane, Lane)>,
    ) {
        struct Walk<'a>(
            &'a ForwardKinematics,
            (&'a [Real], &'a [Real]),
            &'a mut Vec<LaneFrame>,
            &'a mut Vec<(Lane, Lane)>,
        );
        impl WideOp for Walk<'_> {
            type Output = ();
            #[inline(always)]
            fn run(self) {
                self.0.walk_lanes(self.1, self.2, self.3)
            }
        }
        run_wide(Walk(self, (qa, qb), frames, scratch))
    }

    /// [`Self::forward_lanes_into`]'s walk, for callers that run it inside their own
    /// [`run_wide`].
    #[inline(always)]
    pub(crate) fn walk_lanes(
        &self,
        (qa, qb): (&[Real], &[Real]),
        frames: &mut Vec<LaneFrame>,
        scratch: &mut Vec<(Lane, Lane)>,
    ) {
        if frames.len() != self.links {
            frames.resize(self.links, LaneFrame::splat(&Frame::IDENTITY));
        }
        scratch.resize(self.steps.len(), (splat(0.0), splat(1.0)));
        for (m, step) in scratch.iter_mut().zip(&self.steps) {
            if let Motion::Prismatic(_, d) = &step.motion {
                let (a, b) = (qa[d.variable], qb[d.variable]);
                for l in 0..LANES {
                    m.0[l] = d.multiplier * (a + lane_parameter(l) * (b - a)) + d.offset;
                }
            }
        }
        // The revolute joints' first angles four at a time, then each joint's lanes turned
        // from its first.
        for chunk in self.revolute.chunks(SIDE_BY_SIDE) {
            let (mut first, mut turn) = ([0.0; SIDE_BY_SIDE], [0.0; SIDE_BY_SIDE]);
            for ((first, turn), &i) in first.iter_mut().zip(&mut turn).zip(chunk) {
                if let Motion::Revolute(_, d) = &self.steps[i].motion {
                    let (a, b) = (qa[d.variable], qb[d.variable]);
                    *first = d.multiplier * (a + lane_parameter(0) * (b - a)) + d.offset;
                    *turn = d.multiplier * (b - a) / LANES as Real;
                }
            }
            let firsts = sin_cos_side_by_side(first);
            for ((&i, first), turn) in chunk.iter().zip(firsts).zip(turn) {
                turns(first, small_sin_cos(turn), &mut scratch[i]);
            }
        }
        frames[0] = LaneFrame::splat(&self.base);
        for (step, (s, c)) in self.steps.iter().zip(scratch.iter()) {
            match step.order {
                // (Written in place when the parent comes first, as a tree's links usually
                // do: a frame is 96 lanes, and copies of it cost more than the products.)
                MotionOrder::OriginThenMotion if step.parent < step.child => {
                    let (before, from_child) = frames.split_at_mut(step.child);
                    let child = &mut from_child[0];
                    child.place_from(&before[step.parent], step);
                    child.move_by(step, (s, c));
                }
                MotionOrder::OriginThenMotion => {
                    let mut frame = LaneFrame::splat(&Frame::IDENTITY);
                    frame.place_from(&frames[step.parent], step);
                    frame.move_by(step, (s, c));
                    frames[step.child] = frame;
                }
                MotionOrder::MotionThenOrigin => {
                    let mut moved = frames[step.parent];
                    moved.move_by(step, (s, c));
                    frames[step.child].place_from(&moved, step);
                }
            }
        }
    }
}

/// `(sin δ, cos δ)`: for `|δ| ≤ 1/8` (a lane's share of a planner's step) by their Taylor
/// series to `δ⁹` and `δ¹⁰`, whose remainders are below `δ¹¹/11! < 10⁻¹⁷`, under the
/// rounding of the sums (cheaper than the library's `sin_cos`); else by `sin_cos`. The
/// series are summed by Horner's rule in `δ²` from their coefficients rounded once (the test
/// holds them within `2·10⁻¹⁷` and `2.3·10⁻¹⁶` of the library's values).
#[inline(always)]
fn small_sin_cos(delta: Real) -> (Real, Real) {
    if delta.abs() > 0.125 {
        return delta.sin_cos();
    }
    // (Products only: the nine divisions by the factorials' ratios this replaced took 1 %
    // of MotionBenchMaker's search, benches/README.md, session 61.)
    const SIN: [Real; 4] = [-1.0 / 6.0, 1.0 / 120.0, -1.0 / 5_040.0, 1.0 / 362_880.0];
    const COS: [Real; 5] = [
        -1.0 / 2.0,
        1.0 / 24.0,
        -1.0 / 720.0,
        1.0 / 40_320.0,
        -1.0 / 3_628_800.0,
    ];
    let d2 = delta * delta;
    let sin = delta + delta * d2 * (SIN[0] + d2 * (SIN[1] + d2 * (SIN[2] + d2 * SIN[3])));
    let cos = 1.0 + d2 * (COS[0] + d2 * (COS[1] + d2 * (COS[2] + d2 * (COS[3] + d2 * COS[4]))));
    (sin, cos)
}

/// Sines and cosines of `θ₀, θ₀ + δ, θ₀ + 2δ, …` from those of `θ₀` and `δ`, into `(s, c)`:
/// lanes `w..2w` are lanes `0..w` turned by `w δ`, for `w = 1, 2, 4, …`, the turn doubled
/// each time (`sin 2x = 2 sin x cos x`, `cos 2x = cos² x − sin² x`). Four dependent turns
/// for sixteen lanes instead of fifteen, each a few lanes side by side.
#[inline(always)]
fn turns((s0, c0): (Real, Real), (sd, cd): (Real, Real), (s, c): &mut (Lane, Lane)) {
    (s[0], c[0]) = (s0, c0);
    let (mut sw, mut cw) = (sd, cd);
    let mut width = 1;
    while width < LANES {
        for l in width..(2 * width).min(LANES) {
            s[l] = s[l - width] * cw + c[l - width] * sw;
            c[l] = c[l - width] * cw - s[l - width] * sw;
        }
        (sw, cw) = (2.0 * sw * cw, cw * cw - sw * sw);
        width *= 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinematics::SerialChain;
    use crate::kinematics::{DhConvention, DhJoint, Joint, JointKind, KinematicTree, Mimic};
    use crate::math::{Isometry3, Vector3, unit_random};

    /// Every lane's frames against the scalar walk at the lane's point.
    fn agree_with_scalar_walk(tree: &KinematicTree) {
        let fk = ForwardKinematics::new(tree);
        let mut draw = unit_random(7);
        let (mut frames, mut scratch, mut scalar) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..200 {
            let qa: Vec<Real> = (0..tree.dof()).map(|_| 6.0 * draw() - 3.0).collect();
            let qb: Vec<Real> = qa.iter().map(|a| a + 3.0 * draw() - 1.5).collect();
            fk.forward_lanes_into(&qa, &qb, &mut frames, &mut scratch);
            for l in 0..LANES {
                let s = lane_parameter(l);
                let q: Vec<Real> = qa.iter().zip(&qb).map(|(a, b)| a + s * (b - a)).collect();
                fk.forward_into(&q, &mut scalar);
                for (lane, expected) in frames.iter().zip(&scalar) {
                    let got = lane.lane(l);
                    let worst = (got.rotation - expected.rotation).abs().max();
                    let moved = (got.origin - expected.origin).norm();
                    assert!(worst < 1e-12 && moved < 1e-12, "{worst} {moved}");
                }
            }
        }
    }

    #[test]
    fn small_turns_have_the_library_sine_and_cosine() {
        let mut draw = unit_random(3);
        for _ in 0..100_000 {
            let delta = 0.25 * draw() - 0.125;
            let (s, c) = small_sin_cos(delta);
            let (es, ec) = delta.sin_cos();
            assert!(
                (s - es).abs() <= 2e-17 && (c - ec).abs() <= 2.3e-16,
                "{delta}"
            );
        }
        assert_eq!(small_sin_cos(0.0), (0.0, 1.0));
        assert_eq!(small_sin_cos(0.5), 0.5f64.sin_cos());
    }

    #[test]
    fn lanes_agree_with_the_scalar_walk_on_dh_chains() {
        for convention in [DhConvention::Standard, DhConvention::Modified] {
            let joints = (0..6)
                .map(|i| DhJoint::revolute(0.1 * i as Real, 0.4 - 0.3 * i as Real, 0.2, 0.1))
                .collect();
            let chain = SerialChain::new(convention, joints);
            let (links, names) = chain.default_names();
            agree_with_scalar_walk(&chain.to_tree("chain", links, &names).expect("a tree"));
        }
    }

    #[test]
    fn lanes_agree_with_the_scalar_walk_on_urdf_style_trees() {
        // Revolute joints about coordinate and general axes, origins with and without a
        // turn, a prismatic joint, a fixed one and a mimic.
        let origin = |x: Real, roll: Real, yaw: Real| {
            Isometry3::new(Vector3::new(x, 0.1, 0.2), Vector3::new(roll, 0.0, yaw))
        };
        let general = Vector3::new(1.0, 2.0, -2.0) / 3.0;
        let revolute = JointKind::Revolute;
        let mut twin = Joint::moving("m", revolute, 2, 6, origin(0.1, 0.0, 0.0), Vector3::x());
        twin.mimic = Some(Mimic {
            leader: "j1".into(),
            multiplier: -0.5,
            offset: 0.1,
        });
        let joints = vec![
            Joint::moving("j1", revolute, 0, 1, origin(0.3, 0.0, 0.0), Vector3::z()),
            Joint::moving("j2", revolute, 1, 2, origin(0.2, 0.7, 0.0), -Vector3::y()),
            Joint::moving("j3", revolute, 2, 3, origin(0.1, 0.3, 0.4), general),
            Joint::moving(
                "j4",
                JointKind::Prismatic,
                3,
                4,
                origin(0.0, 0.2, 0.0),
                Vector3::x(),
            ),
            Joint::fixed("f", 4, 5, origin(0.05, 1.2, 0.0)),
            twin,
        ];
        let links = ["base", "l1", "l2", "l3", "l4", "tool", "twin"]
            .map(String::from)
            .to_vec();
        agree_with_scalar_walk(&KinematicTree::new("hand-built", links, joints).expect("a tree"));
    }
}
