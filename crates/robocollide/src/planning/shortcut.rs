//! Shortening a planned path: random shortcuts between its waypoints, then between points
//! inside its segments.
//!
//! Both replace a stretch of the path by one straight joint-space motion when
//! [`Validity::motion_valid`] certifies it, so the path stays a chain of certified motions.
//! Waypoint shortcuts only remove waypoints, which leaves the corners of a path with few,
//! long edges (1 rad planner steps) in place; shortcuts between points on two different
//! segments (Geraerts & Overmars, *Creating high-quality paths for motion planning*, IJRR
//! 2007, "partial shortcuts" as in OMPL's `PathSimplifier::shortcutPath`) cut them. A point
//! inside a segment is computed, so it lies on the certified motion only up to rounding: the
//! two pieces of segments a point shortcut keeps are certified afresh too.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use super::validity::Validity;
use crate::math::{Real, squared_distance};

/// Point shortcuts that fail in a row before `shortcut_points` stops. On MotionBenchMaker
/// (1 rad steps, first 30 problems per family) a patience of 5 ended most runs early: 10 and
/// 20 attempts gave 5.38 and 5.36 rad (median), where 30 attempts with a patience of 10 gave
/// 5.16 rad (`benches/README.md`, session 39).
pub const POINT_SHORTCUT_PATIENCE: usize = 10;

/// Most point shortcuts the command line and the Python package accept
/// ([`PlannerSettings::point_shortcuts`](super::PlannerSettings::point_shortcuts)): enough
/// to settle any path, few enough that a mistyped count cannot keep a plan busy for long.
pub const MAX_POINT_SHORTCUTS: usize = 100_000;

/// Random shortcutting: up to `attempts` times, join two random waypoints directly when that
/// motion is valid. A motion depends only on its two end waypoints, so a pair found blocked
/// stays blocked while both survive: such pairs are remembered (renumbered as waypoints are
/// removed) and not checked again, and shortcutting stops once every pair of the path is
/// known blocked. The random draws, and so the result, are those of checking every attempt.
pub(super) fn shortcut(
    path: &mut Vec<Vec<Real>>,
    validity: &mut impl Validity,
    rng: &mut ChaCha8Rng,
    attempts: usize,
) {
    let mut blocked: Vec<(usize, usize)> = Vec::new();
    for _ in 0..attempts {
        let n = path.len();
        // Pairs (x, y) with y ≥ x + 2.
        if n < 3 || blocked.len() == (n - 1) * (n - 2) / 2 {
            break;
        }
        let x = rng.random_range(0..n - 2);
        let y = rng.random_range(x + 2..n);
        if blocked.contains(&(x, y)) {
            continue;
        }
        if validity.motion_valid(&path[x], &path[y]) {
            path.drain(x + 1..y);
            let removed = y - x - 1;
            let renumber = |i: usize| if i >= y { i - removed } else { i };
            let removed_waypoint = |i: usize| x < i && i < y;
            blocked.retain(|&(p, q)| !removed_waypoint(p) && !removed_waypoint(q));
            for pair in &mut blocked {
                *pair = (renumber(pair.0), renumber(pair.1));
            }
        } else {
            blocked.push((x, y));
        }
    }
}

/// Up to `attempts` shortcuts between two random points of the path (uniform in its
/// joint-space length) on different segments, stopping after [`POINT_SHORTCUT_PATIENCE`]
/// failures in a row: when the straight motion between the points and the two kept pieces
/// of their segments are certified, the stretch between the points is replaced by that
/// motion (the points become waypoints, unless one is its segment's end already). The path
/// never grows longer (triangle inequality).
pub(super) fn shortcut_points(
    path: &mut Vec<Vec<Real>>,
    validity: &mut impl Validity,
    rng: &mut ChaCha8Rng,
    attempts: usize,
) {
    let mut failures = 0;
    // The path's cumulative lengths, measured again only after the path changed.
    let mut cumulative: Vec<Real> = Vec::new();
    let mut changed = true;
    for _ in 0..attempts {
        if path.len() < 3 || failures >= POINT_SHORTCUT_PATIENCE {
            break;
        }
        if changed {
            cumulative.clear();
            cumulative.push(0.0);
            for w in path.windows(2) {
                let last = cumulative[cumulative.len() - 1];
                cumulative.push(last + squared_distance(&w[0], &w[1]).sqrt());
            }
            changed = false;
        }
        let total = cumulative[cumulative.len() - 1];
        if !(total > 0.0 && total.is_finite()) {
            break;
        }
        let (s, t) = (rng.random_range(0.0..total), rng.random_range(0.0..total));
        let (s, t) = if s <= t { (s, t) } else { (t, s) };
        let (i, j) = (segment_at(&cumulative, s), segment_at(&cumulative, t));
        if i == j {
            failures += 1;
            continue;
        }
        let a = point_at(path, &cumulative, i, s);
        let b = point_at(path, &cumulative, j, t);
        let (new_a, new_b) = (a != path[i], b != path[j + 1]);
        if validity.motion_valid(&a, &b)
            && (!new_a || validity.motion_valid(&path[i], &a))
            && (!new_b || validity.motion_valid(&b, &path[j + 1]))
        {
            let tail = path.split_off(j + 1);
            path.truncate(i + 1);
            if new_a {
                path.push(a);
            }
            if new_b {
                path.push(b);
            }
            path.extend(tail);
            failures = 0;
            changed = true;
        } else {
            failures += 1;
        }
    }
}

/// The segment `[k, k + 1]` of a path with cumulative lengths `cumulative` that holds the
/// length `s` (`0 ≤ s < total`), skipping segments of zero length.
fn segment_at(cumulative: &[Real], s: Real) -> usize {
    let after = cumulative.partition_point(|&c| c <= s);
    after.clamp(1, cumulative.len() - 1) - 1
}

/// The point at length `s` of segment `k`.
fn point_at(path: &[Vec<Real>], cumulative: &[Real], k: usize, s: Real) -> Vec<Real> {
    let span = cumulative[k + 1] - cumulative[k];
    let u = if span > 0.0 {
        ((s - cumulative[k]) / span).clamp(0.0, 1.0)
    } else {
        0.0
    };
    path[k]
        .iter()
        .zip(&path[k + 1])
        .map(|(x, y)| x + u * (y - x))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planning::rrt_connect::length;
    use crate::planning::test_validities::{Counted, Wall};
    use rand::SeedableRng;

    #[test]
    fn shortcutting_skips_known_blocked_pairs_with_the_same_result() {
        let (mut all_plain, mut all_memo) = (0, 0);
        for seed in 0..20 {
            // A zigzag through the gap above the wall, with random waypoints on each side.
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut path: Vec<Vec<Real>> = (0..12)
                .map(|k| {
                    let x = if k < 6 {
                        0.05 + 0.06 * k as Real
                    } else {
                        0.6 + 0.06 * (k - 6) as Real
                    };
                    vec![x, rng.random_range(0.0..1.0)]
                })
                .collect();
            path.insert(6, vec![0.5, 0.9]);
            let mut naive = path.clone();
            let (mut plain_rng, mut memo_rng) = (rng.clone(), rng);
            let mut plain_checks = 0;
            for _ in 0..200 {
                if naive.len() < 3 {
                    break;
                }
                let x = plain_rng.random_range(0..naive.len() - 2);
                let y = plain_rng.random_range(x + 2..naive.len());
                plain_checks += 1;
                if Wall.motion_valid(&naive[x], &naive[y]) {
                    naive.drain(x + 1..y);
                }
            }
            let mut counted = Counted::default();
            shortcut(&mut path, &mut counted, &mut memo_rng, 200);
            assert_eq!(path, naive, "seed {seed}");
            assert!(
                counted.motions <= plain_checks,
                "seed {seed}: {} vs {plain_checks}",
                counted.motions
            );
            (all_plain, all_memo) = (all_plain + plain_checks, all_memo + counted.motions);
        }
        assert!(2 * all_memo < all_plain, "{all_memo} vs {all_plain}");
    }

    /// Over the wall and down again with square corners: no waypoint shortcut is free (each
    /// crosses the wall), but shortcuts between points on the edges cut the corners towards
    /// the wall's top (the shortest path is 1.665 long against 2.5).
    #[test]
    fn point_shortcuts_cut_corners_that_waypoint_shortcuts_cannot() {
        let detour = vec![
            vec![0.1, 0.1],
            vec![0.1, 0.95],
            vec![0.9, 0.95],
            vec![0.9, 0.1],
        ];
        for seed in 0..10 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut path = detour.clone();
            shortcut(&mut path, &mut Wall, &mut rng, 200);
            assert_eq!(path, detour, "seed {seed}: no waypoint shortcut is free");
            shortcut_points(&mut path, &mut Wall, &mut rng, 200);
            assert_eq!(path.first(), detour.first());
            assert_eq!(path.last(), detour.last());
            assert!(
                path.windows(2).all(|w| Wall.motion_valid(&w[0], &w[1])),
                "seed {seed}: {path:?}"
            );
            let shortened = length(&path);
            assert!(
                (1.665..2.0).contains(&shortened),
                "seed {seed}: {shortened} from 2.5"
            );
        }
    }

    /// A path is never made longer, repeated and zero-length segments are handled, and
    /// every success costs the three certified motions (the new one and the kept pieces).
    #[test]
    fn point_shortcuts_never_lengthen_and_certify_the_kept_pieces() {
        for seed in 0..20 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut path: Vec<Vec<Real>> = vec![vec![0.05, 0.05]];
            for k in 0..6 {
                let x = if k < 3 {
                    0.1 + 0.1 * k as Real
                } else {
                    0.6 + 0.1 * (k - 3) as Real
                };
                path.push(vec![x, rng.random_range(0.0..0.7)]);
                if k == 2 {
                    path.push(vec![0.3, 0.9]);
                    path.push(vec![0.3, 0.9]);
                    path.push(vec![0.7, 0.9]);
                }
            }
            assert!(path.windows(2).all(|w| Wall.motion_valid(&w[0], &w[1])));
            let before = length(&path);
            let mut counted = Counted::default();
            let mut checks = 0;
            let mut lengths = vec![before];
            for _ in 0..30 {
                shortcut_points(&mut path, &mut counted, &mut rng, 1);
                let now = length(&path);
                let spent = counted.motions - checks;
                checks = counted.motions;
                if now < lengths[lengths.len() - 1] {
                    // (Random points are never a segment's end here: both pieces are new.)
                    assert_eq!(spent, 3, "seed {seed}: the new motion and both kept pieces");
                }
                assert!(now <= lengths[lengths.len() - 1] + 1e-12, "seed {seed}");
                lengths.push(now);
            }
            assert!(path.windows(2).all(|w| Wall.motion_valid(&w[0], &w[1])));
            assert!(length(&path) < before, "seed {seed}: nothing shortened");
        }
        let mut two = vec![vec![0.1, 0.1], vec![0.2, 0.2]];
        shortcut_points(&mut two, &mut Wall, &mut ChaCha8Rng::seed_from_u64(0), 10);
        assert_eq!(two.len(), 2);
    }
}
