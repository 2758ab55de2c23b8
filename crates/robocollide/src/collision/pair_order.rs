//! [`ordered_by`]: the order in which a cell's pairs are laid out in blocks, found once per
//! cell (per scene) — the pairs sorted by their bodies' groups.
//!
//! A planner built for a new scene sorts every pair (a Panda among twenty obstacles: ~1 600)
//! twice, once for the contact search's blocks and once for the motion check's. Sorting the
//! indices with a key evaluated at each comparison took about a third of that set-up (on
//! MotionBenchMaker, `benches/README.md`, session 54); here each key is evaluated once and
//! packed with its index into one 128-bit integer, so the sort compares plain integers. Ties
//! fall to the lower index: the order a stable sort by the key gives.

/// The indices `0..n` ordered by `key` (three parts, compared in turn), ties by index.
pub(super) fn ordered_by(n: usize, key: impl Fn(usize) -> [usize; 3]) -> Vec<usize> {
    let fits = |x: usize| u32::try_from(x).is_ok();
    let packed: Option<Vec<u128>> = (0..n)
        .map(|k| {
            let [a, b, c] = key(k);
            (fits(a) && fits(b) && fits(c) && fits(k))
                .then_some((a as u128) << 96 | (b as u128) << 64 | (c as u128) << 32 | k as u128)
        })
        .collect();
    match packed {
        Some(mut packed) => {
            packed.sort_unstable();
            packed.into_iter().map(|p| (p as u32) as usize).collect()
        }
        // (A part beyond 32 bits: no cell has that many bodies or groups, but the order
        // is the same either way.)
        None => {
            let mut order: Vec<usize> = (0..n).collect();
            order.sort_by_cached_key(|&k| key(k));
            order
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same order as a stable sort by the key, for small keys (packed) and for keys
    /// beyond 32 bits (the fallback), with many ties.
    #[test]
    fn orders_as_a_stable_sort_by_the_key() {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move |m: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % m) as usize
        };
        for (n, range, big) in [
            (0, 4, false),
            (1, 4, false),
            (1600, 30, false),
            (500, 3, true),
        ] {
            let keys: Vec<[usize; 3]> = (0..n)
                .map(|_| {
                    let mut k = [next(range), next(range), next(range)];
                    if big && next(2) == 0 {
                        k[next(3)] += 1 << 40;
                    }
                    k
                })
                .collect();
            let mut stable: Vec<usize> = (0..n).collect();
            stable.sort_by_key(|&k| keys[k]);
            assert_eq!(ordered_by(n, |k| keys[k]), stable, "n {n}, big {big}");
        }
    }
}
