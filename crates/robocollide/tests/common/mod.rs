//! Shared helpers for the integration tests: seeded generators, independent oracles and the
//! parry3d-f64 bridge. Nothing here calls robocollide's kernels, so the oracles stay independent.
#![allow(dead_code)]

pub mod exact;
pub mod generators;
pub mod parry;
pub mod projection_oracle;
pub mod strategies;

use rand::SeedableRng;
pub use rand_chacha::ChaCha8Rng as TestRng;

/// A reproducible generator for a named test.
pub fn rng(seed: u64) -> TestRng {
    TestRng::seed_from_u64(seed)
}
