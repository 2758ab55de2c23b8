//! Runs a hot loop compiled for wider vector instructions than the baseline.
//!
//! The shipped binaries target baseline x86-64, whose SSE2 registers hold two `f64`; the lane
//! engine ([`LANES`](crate::kinematics::LANES) values side by side) fills four with AVX2. With
//! the `simd` feature, [`run_wide`] checks the processor on each call (pulp's cached detection,
//! a few instructions) and runs the operation inside a function compiled for AVX2 with FMA
//! when the processor has them, else for the baseline; without the feature it just runs it.
//! An operation's body and everything on its hot path must be `#[inline(always)]`, and free of
//! closures: code behind a call that is not inlined keeps the baseline instructions. Run so:
//! the lane walk and screen, the planner's nearest-node scan, posing a cell and the contact
//! query at one configuration (ARCHITECTURE.md). Not the motion check's certificate as a
//! whole: forced inline there, its helpers were left out of line and it came out slower.
//! (AVX-512, eight `f64` per register, measured slower on MotionBenchMaker than AVX2 on this
//! project's hosts, so pulp's `x86-v4` is not enabled: benches/README.md, session 37.)
//!
//! The results do not depend on the choice: Rust never fuses a product and a sum into one
//! rounding unless asked (`mul_add`), so every instruction set computes the same values.

/// An operation [`run_wide`] runs; its [`run`](WideOp::run) must be `#[inline(always)]`.
pub(crate) trait WideOp {
    type Output;
    fn run(self) -> Self::Output;
}

/// Runs `op` compiled for AVX2 where the processor has it, else as it is (see the module docs).
#[inline]
pub(crate) fn run_wide<Op: WideOp>(op: Op) -> Op::Output {
    #[cfg(feature = "simd")]
    {
        pulp::Arch::new().dispatch(Wide(op))
    }
    #[cfg(not(feature = "simd"))]
    {
        op.run()
    }
}

#[cfg(feature = "simd")]
struct Wide<Op>(Op);

#[cfg(feature = "simd")]
impl<Op: WideOp> pulp::WithSimd for Wide<Op> {
    type Output = Op::Output;

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _: S) -> Self::Output {
        self.0.run()
    }
}
