//! [`ordered_by`]: the order in which a cell's pairs are laid out in blocks, found once per
//! cell (per scene) — the pairs sorted by their bodies' groups.
//!
//! A planner built for a new scene sorts every pair (a Panda among twenty obstacles: ~1 600)
//! twice, once for the contact search's blocks and once for the motion check's. Sorting the
//! indices with a key evaluated at each comparison took about a third of that set-up (on
//! MotionBenchMaker, `benches/README.md`, session 54). Here each key is evaluated once and
//! packed with its index into one integer, each part in as many bits as its largest value
//! needs, so that the packed integers order as the keys do, ties by the lower index: the
//! order a stable sort by the key gives. Packed into 64 bits (a cell's groups and bodies
//! number in the hundreds, so their parts take a few bits each), they are sorted by a
//! least-significant-digit radix sort, one pass per byte of the key's bits (session 55);
//! wider keys are sorted as 128-bit integers, and a part beyond 32 bits by the key itself.

/// The indices `0..n` ordered by `key` (three parts, compared in turn), ties by index.
pub(super) fn ordered_by(n: usize, key: impl Fn(usize) -> [usize; 3]) -> Vec<usize> {
    let keys: Vec<[usize; 3]> = (0..n).map(key).collect();
    let width = |largest: usize| usize::BITS - largest.leading_zeros();
    let widths = [0, 1, 2].map(|i| width(keys.iter().map(|k| k[i]).max().unwrap_or(0)));
    let index_width = width(n.saturating_sub(1));
    let total: u32 = widths.iter().sum::<u32>() + index_width;
    if total <= u64::BITS {
        // (A shift by the whole width, where one part takes all 64 bits, gives 0: the parts
        // shifted are then 0.)
        let shifted = |x: u64, w: u32| x.checked_shl(w).unwrap_or(0);
        let [_, wb, wc] = widths;
        let mut packed: Vec<u64> = keys
            .iter()
            .enumerate()
            .map(|(k, &[a, b, c])| {
                let key = shifted(shifted(a as u64, wb) | b as u64, wc) | c as u64;
                shifted(key, index_width) | k as u64
            })
            .collect();
        // (The index bits need no pass: the values are made in index order and every pass
        // keeps the order of equal keys.)
        radix_sort(&mut packed, (index_width, total));
        let mask = shifted(1, index_width).wrapping_sub(1);
        return packed.into_iter().map(|p| (p & mask) as usize).collect();
    }
    if widths.iter().all(|&w| w <= 32) && index_width <= 32 {
        let mut packed: Vec<u128> = keys
            .iter()
            .enumerate()
            .map(|(k, &[a, b, c])| {
                (a as u128) << 96 | (b as u128) << 64 | (c as u128) << 32 | k as u128
            })
            .collect();
        packed.sort_unstable();
        return packed.into_iter().map(|p| (p as u32) as usize).collect();
    }
    // (A part beyond 32 bits: no cell has that many bodies or groups, but the order is the
    // same either way.)
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&k| keys[k]);
    order
}

/// Sorts `values` by their bits `from..to` (those above are zero), bytes from the least
/// significant, each pass stable: values equal in those bits keep their order.
fn radix_sort(values: &mut Vec<u64>, (from, to): (u32, u32)) {
    let mut other = vec![0; values.len()];
    for pass in 0..to.saturating_sub(from).div_ceil(8) {
        let shift = from + 8 * pass;
        let mut starts = [0usize; 257];
        for &v in values.iter() {
            starts[((v >> shift) & 0xff) as usize + 1] += 1;
        }
        if starts.contains(&values.len()) {
            continue; // (every value has this byte in common)
        }
        for digit in 0..256 {
            starts[digit + 1] += starts[digit];
        }
        for &v in values.iter() {
            let digit = ((v >> shift) & 0xff) as usize;
            other[starts[digit]] = v;
            starts[digit] += 1;
        }
        std::mem::swap(values, &mut other);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same order as a stable sort by the key, for small keys (64-bit packed, radix
    /// sorted), wider ones (128-bit packed) and keys beyond 32 bits (the fallback), with
    /// many ties.
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
            (2, 1, false),
            (1600, 30, false),
            (1600, 1 << 20, false),
            (3000, 1 << 31, false),
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
