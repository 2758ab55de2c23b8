//! Contact searches at the interior points of a joint-space motion, coarse to fine: the motion
//! check's fast way to turn down a planner's step blocked in its middle, or a shortcut or a
//! direct try from start to goal, which are mostly blocked inside
//! ([`MotionCheck`](super::MotionCheck)).
//!
//! The points are `qa + (qb − qa)·i/n` for `i = 1 … n − 1`, `n` the number of whole spacings
//! ([`RAKE_SPACING_PER_STEP`] of the planner's step) in the motion's joint-space length
//! (Euclidean, in the configuration's units) rounded up to a power of two, so the points are less than 1.5 spacings apart. They
//! are visited in the order of VAMP's "rake" (Thomason, Kingston & Kavraki, *Motions in
//! microseconds via vectorized sampling-based planning*, ICRA 2024): the midpoint, then the
//! quarter points, then the eighths, so a contact anywhere is met at the coarsest level that
//! reaches it. A point in contact is a reason to answer "blocked"; points found free prove
//! nothing about the stretches between them, so the certificate is still needed.

use super::checker::CellChecker;
use crate::math::{Real, squared_distance};

/// Joint-space length (rad, or m for prismatic joints) per contact search at a long motion's
/// interior points, as a fraction of the planner's step: every motion of at least 0.8 steps gets
/// its midpoint searched, one of 1.2 steps or more its quarter points too. Chosen on
/// MotionBenchMaker (0.5 rad steps) against 0.2, 0.3, 0.34, 0.5, 0.6 and 0.8 of the step and on the
/// shipped UR5 cell (1 rad steps) against 0.2, 0.25, 0.3, 0.5, 0.7 and 1 rad (benches/README.md,
/// RRT-Connect, sessions 19 and 25); re-checked on MotionBenchMaker with 1 rad steps against
/// 0.3, 0.5 and 0.6 (session 39).
pub const RAKE_SPACING_PER_STEP: Real = 0.4;

/// The spacing when no planner step is known: [`RAKE_SPACING_PER_STEP`] of a 1 rad step (the
/// planner's default step, VAMP's `range`).
pub const RAKE_SPACING: Real = RAKE_SPACING_PER_STEP;

/// Most intervals a long motion's interior points divide it into.
const MAX_RAKE_INTERVALS: usize = 64;

/// Longest piece a longer motion is certified in, in planner steps (see `rake_pieces`; the
/// pieces are a power of two, so they may be down to half of it). Chosen on MotionBenchMaker
/// (0.5 rad steps) against 0.5, 1 and 2 steps (benches/README.md, session 33); below 1, a
/// planner's own full steps would be cut in two.
pub const PIECE_STEPS: Real = 1.5;

/// Whether a culled contact search at an interior point of `qa → qb` finds contact, the points
/// about `spacing` apart ([`rake_intervals`]). `q` is scratch space. Leaves the checker posed
/// at the last point searched, if any (perhaps with only some bodies placed): not at `qb`.
pub(super) fn rake_finds_contact(
    checker: &mut CellChecker<'_>,
    q: &mut Vec<Real>,
    qa: &[Real],
    qb: &[Real],
    spacing: Real,
) -> bool {
    let intervals = rake_intervals(joint_space_length(qa, qb), spacing);
    if intervals == 0 {
        return false;
    }
    for i in coarse_to_fine(intervals) {
        point_on_motion(q, qa, qb, i as Real / intervals as Real);
        if checker.world_contact_at(q) {
            return true;
        }
    }
    false
}

/// How many intervals the interior points divide a motion of joint-space `length` into: the
/// whole `spacing`s in it rounded up to a power of two (so that each level halves the last
/// one's intervals), at most `MAX_RAKE_INTERVALS`; 0 (no point) below two spacings, and for a
/// NaN length or spacing (the certificate then decides).
fn rake_intervals(length: Real, spacing: Real) -> usize {
    let spans = length / spacing;
    // NaN gives none (`f64::min` would turn it into the cap).
    if spans.is_nan() || spans < 2.0 {
        return 0;
    }
    (spans.min(MAX_RAKE_INTERVALS as Real) as usize).next_power_of_two()
}

/// How many equal pieces a motion of joint-space `length` is certified in, at most
/// `piece_length` long each where the rake allows: a power of two dividing the rake's intervals
/// ([`rake_intervals`] for `spacing`), so that every piece's end is one of the rake's points
/// (`i/pieces = (i·intervals/pieces)/intervals` exactly, the same bits), found free of contact
/// before any piece is certified. 1 for a motion the rake leaves alone, or one no longer than
/// `piece_length`.
///
/// Why pieces: a motion's certificate costs more than its length's share. Its bounds grow with
/// the length, so fewer blocks are certified by their gaps at the ends and more pairs go to
/// bisection; on MotionBenchMaker a shortcut of ~2.3 rad took ~170 µs as one motion against
/// ~15 µs for a 0.5 rad planner step (benches/README.md, session 33).
pub(super) fn rake_pieces(length: Real, spacing: Real, piece_length: Real) -> usize {
    let intervals = rake_intervals(length, spacing);
    let pieces = (length / piece_length).ceil();
    // (NaN gives one piece.)
    if intervals == 0 || pieces.is_nan() || pieces <= 1.0 {
        return 1;
    }
    (pieces.min(intervals as Real) as usize)
        .next_power_of_two()
        .min(intervals)
}

/// A motion's joint-space length (Euclidean, in the configuration's units).
pub(super) fn joint_space_length(qa: &[Real], qb: &[Real]) -> Real {
    squared_distance(qa, qb).sqrt()
}

/// The configuration at parameter `s` of the motion `qa → qb`, into `q`: `qa + (qb − qa)·s`.
/// The rake's points, a long motion's piece ends and bisection's midpoints all come from here,
/// so a piece's end is a rake point bit for bit.
pub(super) fn point_on_motion(q: &mut Vec<Real>, qa: &[Real], qb: &[Real], s: Real) {
    q.clear();
    q.extend(qa.iter().zip(qb).map(|(a, b)| a + (b - a) * s));
}

/// `1 … intervals − 1`, those with the most trailing zeros (the coarsest) first, each level in
/// increasing order.
fn coarse_to_fine(intervals: usize) -> impl Iterator<Item = usize> {
    let levels = usize::BITS - intervals.leading_zeros();
    (0..levels).rev().flat_map(move |level| {
        let stride = 1usize << level;
        (stride..intervals).step_by(2 * stride)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_follow_the_spacing() {
        // A planner's 0.5 rad step: every motion of 0.4 rad or more gets its midpoint.
        let spacing = RAKE_SPACING_PER_STEP * 0.5;
        assert_eq!(rake_intervals(0.5, spacing), 2);
        assert_eq!(rake_intervals(0.4, spacing), 2);
        assert_eq!(rake_intervals(0.39, spacing), 0);
        // Three spacings (1.2 steps) and more: quarter points, then eighths (rounded up to a
        // power of two).
        assert_eq!(rake_intervals(0.61, spacing), 4);
        assert_eq!(rake_intervals(1.0, spacing), 8);
        // The default spacing (1 rad steps) leaves a 0.5 rad motion alone.
        assert_eq!(rake_intervals(0.5, RAKE_SPACING), 0);
        assert_eq!(rake_intervals(0.8, RAKE_SPACING), 2);
        // Capped, and nothing for what cannot be measured.
        assert_eq!(rake_intervals(1e9, spacing), MAX_RAKE_INTERVALS);
        assert_eq!(rake_intervals(Real::NAN, spacing), 0);
        assert_eq!(rake_intervals(1.0, Real::NAN), 0);
        assert_eq!(rake_intervals(Real::INFINITY, spacing), MAX_RAKE_INTERVALS);
    }

    #[test]
    fn pieces_end_on_rake_points() {
        let spacing = RAKE_SPACING_PER_STEP * 0.5;
        // A planner step or less: one piece.
        assert_eq!(rake_pieces(0.5, spacing, 0.5), 1);
        assert_eq!(rake_pieces(0.3, spacing, 0.5), 1);
        // Longer: pieces of at most a step, a power of two.
        assert_eq!(rake_pieces(0.7, spacing, 0.5), 2);
        assert_eq!(rake_pieces(2.3, spacing, 0.5), 8);
        assert_eq!(rake_pieces(4.2, spacing, 0.5), 16);
        for length in [0.41, 0.6, 0.99, 1.7, 3.3, 6.0, 40.0, 1e9, Real::INFINITY] {
            let (pieces, intervals) = (
                rake_pieces(length, spacing, 0.5),
                rake_intervals(length, spacing),
            );
            assert!(pieces.is_power_of_two(), "{length}");
            assert_eq!(intervals % pieces, 0, "{length}: {pieces} of {intervals}");
            if length.is_finite() && pieces < intervals {
                assert!(length / pieces as Real <= 0.5, "{length}");
            }
        }
        // Where the rake searches nothing, or a length or piece cannot be measured: one.
        assert_eq!(rake_pieces(0.7, RAKE_SPACING, 0.1), 1);
        assert_eq!(rake_pieces(Real::NAN, spacing, 0.5), 1);
        assert_eq!(rake_pieces(2.0, spacing, Real::NAN), 1);
        assert_eq!(rake_pieces(2.0, spacing, 0.0), rake_intervals(2.0, spacing));
        // The piece ends are rake points, bit for bit.
        for (intervals, pieces) in [(8usize, 2usize), (16, 8), (64, 16), (4, 4)] {
            for i in 1..pieces {
                let piece = i as Real / pieces as Real;
                let rake = (i * intervals / pieces) as Real / intervals as Real;
                assert_eq!(piece.to_bits(), rake.to_bits());
            }
        }
    }

    #[test]
    fn every_interior_point_once_coarse_to_fine() {
        let order = |n: usize| coarse_to_fine(n).collect::<Vec<_>>();
        assert_eq!(order(0), Vec::<usize>::new());
        assert_eq!(order(1), Vec::<usize>::new());
        assert_eq!(order(2), vec![1]);
        assert_eq!(order(3), vec![2, 1]);
        assert_eq!(order(5), vec![4, 2, 1, 3]);
        assert_eq!(order(8), vec![4, 2, 6, 1, 3, 5, 7]);
        assert_eq!(order(9), vec![8, 4, 2, 6, 1, 3, 5, 7]);
        for n in 2..=MAX_RAKE_INTERVALS {
            let mut points = order(n);
            points.sort_unstable();
            assert_eq!(points, (1..n).collect::<Vec<_>>(), "{n} intervals");
        }
    }
}
