//! [`MotionCheck`]: is the straight joint-space motion `qa → qb` free of contact? A yes/no
//! answer for planners, given only with a certificate.
//!
//! Certificate (Schwarzer, Saha & Latombe, *Adaptive dynamic collision checking for single and
//! multiple articulated robots in complex environments*, IEEE T-RO 21(3), 2005): along the
//! segment, no point of a body moves further than its [`MotionBound`], which is proportional to
//! the stretch's length in the parameter (`λ·(s₁ − s₀)` for `[s₀, s₁]`). A pair at distances
//! `d₀` at `s₀` and `d₁` at `s₁` therefore keeps `d(s) ≥ max(d₀ − λ(s − s₀), d₁ − λ(s₁ − s))`,
//! which is positive on the whole stretch when `d₀ + d₁ > λ·(s₁ − s₀)`. Both ends are used
//! (the guaranteed sweep, which must also report *where* contact starts, uses one). Pairs
//! certified on a stretch are dropped from its halves; only the rest are measured at the
//! midpoint, so a motion costs two full evaluations plus a few pairs per bisection step.
//! Stretches are halved level by level (all stretches of one length before any of half that
//! length), so a motion in contact between free ends is found at the coarsest level whose
//! midpoints reach the contact: on MotionBenchMaker, 4.6 % fewer midpoints than depth first.
//! Before any of this, a motion of at least 0.8 planner steps ([`set_planner_step`]) gets
//! contact searches at interior points, coarse to fine ([`rake`](super::rake)): its midpoint,
//! and for a shortcut or a direct try from start to goal many more. Such motions are often
//! blocked inside, which a few culled searches find far sooner than bounds and pairs at both
//! ends (VAMP's "rake" order; here only ever a reason to answer "blocked", never a
//! certificate).
//!
//! [`set_planner_step`]: MotionCheck::set_planner_step
//!
//! A motion longer than [`PIECE_STEPS`] planner steps (a shortcut, a direct try from start to
//! goal) is then certified in equal pieces, each as a motion of its own, whose ends are rake
//! points already found free ([`rake_pieces`]): its certificate as one motion would cost more
//! than its length's share, since every bound grows with the length (on MotionBenchMaker,
//! shortcutting took 45 % fewer instructions so).
//!
//! Pairs are certified a whole block at a time first: the pairs of two culling groups (a link's
//! bodies, an obstacle; see [`CellPose`](super::CellPose)) are all free along the motion when the
//! gap of the groups' bounding spheres, a lower bound on every pair's distance, passes the same
//! two-ended test at the motion's ends against the largest motion bound of the block's pairs. Only
//! the pairs of the other blocks are measured (three poses: `qb` for a contact search and the
//! groups, `qa`, `qb` again for the open pairs). A start that was the end of a motion certified
//! before (a tree's node, a connect walk's last step) has its blocks' gaps kept from then
//! ([`EndGaps`]): the end's gaps need only reach what those leave of the bounds, and the start's
//! exact ones are not measured again. Far pairs are measured by the gap of their cores' bounding
//! spheres when that gap already exceeds their motion bound (a lower bound certifies as well as the
//! distance). Self pairs use the bound of their relative motion ([`MotionBound::self_pair`]), read
//! from one table per robot and motion (each body's bound from every joint on its path,
//! [`MotionBound`]'s suffix sums, with lever arms measured at the posed end `qb`: see
//! `RobotBound::posed_suffixes`).
//!
//! Where the cell allows (one robot with joints, sphere bodies; see [`LaneScreen`]), the blocks
//! the end's gaps leave open are screened next at sixteen points of the motion evaluated side by
//! side: a block whose pairs clear their bound's share there (`λ/32`, every point of the motion
//! being within `1/32` of one of them) is certified, a pair in contact there blocks the motion,
//! and only the rest (5 % of those blocks on MotionBenchMaker with session 36's eight points
//! and 0.5 rad steps) are refined, then tested along the chords between sixteen points that
//! include the ends (second order; on MotionBenchMaker six in seven of the motions left open
//! are settled there). The blocks still open go on to the stages below, from
//! the start's gaps on. The end's link–box blocks then keep the box's cheap lower bound instead
//! of the exact distance, which the screen makes unnecessary.
//!
//! A second-order certificate ([`ChordCertificate`], see `chord_bound`) backs the first-order
//! one at both levels: a block whose groups' spheres, swept along the chords of their centres
//! and inflated by the chords' largest deviation `A/8` (`A` bounds the centres' second
//! derivative along the motion), miss each other (or the lone obstacle itself) is certified
//! with no pair measured; a pair of a block left open is tested the same way over the whole
//! motion, by the test's kernel-free part, before its distances at the ends are measured
//! (which it then needs not: 29 % of the sphere–obstacle pairs there on MotionBenchMaker);
//! and a stretch's sphere pairs are tested (deviation `h² A / 8` for a stretch of length `h`)
//! before its midpoint is evaluated. The first-order
//! test needs stretches short enough for the bodies' whole displacement to fit in their
//! clearance; this one only for the chord's sagitta to fit (on MotionBenchMaker it cut the
//! midpoints evaluated by 3.7×, and blocks left open).
//!
//! The answer is `false` for a motion in contact at an evaluated point, and for one that
//! cannot be certified before the stretches shrink below `min_step` or the evaluation budget
//! runs out (a planner then treats it as blocked: never a false "free").

mod bisection;

use super::box_block_gaps::BoxBlockGaps;
use super::checker::CellChecker;
use super::chord_certificate::ChordCertificate;
use super::end_gaps::EndGaps;
use super::lane_screen::LaneScreen;
use super::motion_blocks::{Block, MotionBlocks, Relative};
use super::motion_bound::MotionBound;
use super::motion_outcomes::MotionOutcomes;
use super::pair_bounds::PairBounds;
use super::rake::{
    PIECE_STEPS, RAKE_SPACING, RAKE_SPACING_PER_STEP, joint_space_length, point_on_motion,
    rake_finds_contact, rake_pieces,
};
use super::start_measure::StartMeasure;
use crate::math::{Real, larger};
use bisection::Stretch;

/// Most midpoints one motion check evaluates before giving up (answer: not certified), a long
/// motion's pieces together.
pub const MAX_MOTION_EVALUATIONS: usize = 4096;

/// Reusable state of the motion check for one cell (no allocation per check once warm).
#[derive(Debug, Clone)]
pub struct MotionCheck {
    bound: MotionBound,
    /// Every pair's motion bound along the current motion (and the suffix tables).
    bounds: PairBounds,
    blocks: Vec<Block>,
    block_pairs: Vec<usize>,
    /// The groups of robots with joints, as `(group, robot, its bodies' entries in the
    /// robot's suffix table)`: the others never move (their bound stays 0).
    moving_groups: Vec<(usize, usize, Vec<usize>)>,
    /// Per group, the largest motion bound of its bodies (current motion).
    group_bounds: Vec<Real>,
    /// The link–obstacle blocks whose obstacle has a world-aligned box, as columns measured
    /// side by side, and the other blocks: the pass over every block at the motion's end
    /// reads these.
    box_blocks: BoxBlockGaps,
    other_blocks: Vec<usize>,
    /// Per block, its groups' gap at the motion's end, and whether it is the block's
    /// tightest measure there (see [`EndGaps`]).
    gaps_b: Vec<Real>,
    exact_b: Vec<bool>,
    /// Per block, its gap at the motion's start where kept and positive, else 0: the end's
    /// gap certifies the block when it exceeds the block's bound less this.
    credit: Vec<Real>,
    /// The block gaps at the ends of the motions certified so far.
    end_gaps: EndGaps,
    /// The blocks that gap does not certify alone.
    open_at_b: Vec<usize>,
    /// Per block, a bound on every pair's motion bound for the current motion (its groups' largest
    /// body bounds summed; a self-collision block's from [`MotionCheck::relative_block_bound`]).
    block_bounds: Vec<Real>,
    /// Per block, its groups (whose largest bounds sum to the bound of a block of two
    /// robots'), and the self-collision blocks: the bounds are set from these small lists,
    /// not from the blocks (large, and read whole at every motion they missed the cache).
    block_groups: Vec<(usize, usize)>,
    relative_blocks: Vec<usize>,
    /// Blocks not certified by their groups' gaps.
    open_blocks: Vec<usize>,
    /// Per pair, its bound over the whole motion (set for the pairs of open blocks).
    pair_bounds: Vec<Real>,
    at_a: Vec<Real>,
    at_b: Vec<Real>,
    q: Vec<Real>,
    /// The second-order certificate and the sphere centres at the evaluated points.
    chord: ChordCertificate,
    /// The blocks still open after both ends, settled at points of the motion evaluated
    /// side by side where the cell allows ([`LaneScreen`]).
    lanes: Option<LaneScreen>,
    /// The stretches of one length still to certify, and those of half that length.
    level: Vec<Stretch>,
    next_level: Vec<Stretch>,
    /// `(pair, d₀, d₁)` of `level`'s stretches (each stretch's a run), and of `next_level`'s.
    active: Vec<(usize, Real, Real)>,
    next_active: Vec<(usize, Real, Real)>,
    /// The current stretch's pairs the second-order certificate leaves, and their midpoint
    /// distances.
    block: Vec<(usize, Real, Real)>,
    mids: Vec<Real>,
    /// Joint-space length per contact search at a long motion's interior points.
    rake_spacing: Real,
    /// Joint-space length of the pieces a long motion is certified in, and their ends
    /// (scratch).
    piece_length: Real,
    piece_ends: (Vec<Real>, Vec<Real>),
    /// Midpoints the current motion check may still evaluate.
    budget: usize,
    /// How the motions checked so far ended.
    outcomes: MotionOutcomes,
}

impl MotionCheck {
    /// A motion check for the cell of `checker`.
    pub fn new(checker: &CellChecker<'_>) -> Self {
        let cell = checker.cell();
        let bound = MotionBound::new(cell);
        let MotionBlocks {
            blocks,
            block_pairs,
            members,
        } = MotionBlocks::new(checker, &bound);
        let pairs = checker.pairs();
        let (mut box_blocks, mut other_blocks) = (Vec::new(), Vec::new());
        for (i, block) in blocks.iter().enumerate() {
            match block.obstacle {
                Some((group, (r, b))) if let Some(aabb) = checker.obstacle_box(r, b) => {
                    box_blocks.push((i, group, (r, b), aabb))
                }
                _ => other_blocks.push(i),
            }
        }
        let moving_groups = members
            .iter()
            .enumerate()
            .filter_map(|(g, bodies)| {
                let &(r, _) = bodies.first()?;
                let entries = bodies.iter().map(|&(r, b)| bound.suffix_index(r, b, 0));
                (cell.robots[r].model.dof() > 0).then(|| (g, r, entries.collect()))
            })
            .collect();
        let block_groups = blocks.iter().map(|block| block.groups).collect();
        let relative_blocks = (0..blocks.len())
            .filter(|&i| blocks[i].relative.is_some())
            .collect();
        let chord = ChordCertificate::new(checker, &bound, members.len());
        Self {
            lanes: LaneScreen::new(checker, &chord, &blocks, &block_pairs, members.len()),
            chord,
            box_blocks: BoxBlockGaps::new(box_blocks),
            other_blocks,
            open_at_b: Vec::new(),
            bounds: PairBounds::new(&bound, checker),
            bound,
            blocks,
            block_pairs,
            group_bounds: vec![0.0; members.len()],
            moving_groups,
            gaps_b: Vec::new(),
            exact_b: Vec::new(),
            credit: Vec::new(),
            end_gaps: EndGaps::default(),
            block_bounds: Vec::new(),
            block_groups,
            relative_blocks,
            open_blocks: Vec::new(),
            pair_bounds: vec![0.0; pairs.len()],
            at_a: vec![0.0; pairs.len()],
            at_b: vec![0.0; pairs.len()],
            q: Vec::new(),
            level: Vec::new(),
            next_level: Vec::new(),
            active: Vec::new(),
            next_active: Vec::new(),
            block: Vec::new(),
            mids: Vec::new(),
            rake_spacing: RAKE_SPACING,
            piece_length: PIECE_STEPS,
            piece_ends: (Vec::new(), Vec::new()),
            budget: MAX_MOTION_EVALUATIONS,
            outcomes: MotionOutcomes::default(),
        }
    }

    /// Tunes the check for a planner whose motions are at most `step` long (joint space):
    /// interior contact searches [`RAKE_SPACING_PER_STEP`] of it apart, so every full step gets
    /// its midpoint searched before it is certified. Ignored unless positive and finite.
    pub fn set_planner_step(&mut self, step: Real) {
        if step > 0.0 && step.is_finite() {
            self.rake_spacing = RAKE_SPACING_PER_STEP * step;
            self.piece_length = PIECE_STEPS * step;
        }
    }

    /// The joint-space length per contact search at a long motion's interior points.
    pub fn rake_spacing(&self) -> Real {
        self.rake_spacing
    }

    /// How the motions [`Self::free`] checked so far ended.
    pub fn outcomes(&self) -> MotionOutcomes {
        self.outcomes
    }

    /// `true` only when the motion `qa → qb` (whole-cell configurations) is certified free of
    /// contact for every pair of `checker`; `min_step` is the shortest stretch (in the motion's
    /// parameter, `0 < min_step < 1`) bisection may create. Leaves `checker` posed somewhere
    /// on the motion, perhaps with only some bodies placed: [`CellChecker::pose`] before
    /// reading it.
    pub fn free(
        &mut self,
        checker: &mut CellChecker<'_>,
        qa: &[Real],
        qb: &[Real],
        min_step: Real,
    ) -> bool {
        if qa.len() != qb.len() || checker.validate(qa).is_err() || checker.validate(qb).is_err() {
            self.outcomes.invalid += 1;
            return false;
        }
        // Interior points first (a full step's midpoint, more for a long motion), then the
        // end. A search that finds a point free costs about twice one that finds contact
        // (most often at a recent contact's pair), and many steps blocked inside are free at
        // their end: searched end first, each of those paid a free search before its
        // midpoint refused it. On MotionBenchMaker 65 560 motions are refused inside and
        // 9 001 at the end, against 48 726 at the end and 25 835 inside the other way round
        // (the same motions: either order refuses a motion in contact at either point), and
        // the search's motion checks take 7.8 % fewer instructions. An end kept from a
        // certified motion (a tree's node: a connect walk's last step, a shortcut) was found
        // free of contact then. (These searches only refuse early: the certificate measures
        // every pair it does not certify at both ends, so it finds a contact at `qb` too.)
        if rake_finds_contact(checker, &mut self.q, qa, qb, self.rake_spacing) {
            self.outcomes.blocked_inside += 1;
            return false;
        }
        let known_free = self.end_gaps.find(qb).is_some();
        if !known_free && checker.world_contact_at(qb) {
            self.outcomes.blocked_at_end += 1;
            return false;
        }
        self.budget = MAX_MOTION_EVALUATIONS;
        let length = joint_space_length(qa, qb);
        let pieces = rake_pieces(length, self.rake_spacing, self.piece_length);
        if pieces == 1 {
            // (The end's search, where it ran, posed its frames but may have left bodies
            // unplaced; where it was skipped, nothing is posed there. The certificate reads
            // bodies at `qb` only past the lane screen, and places them then.)
            checker.pose_groups(qb);
            let free = self.certify_kept(checker, qa, qb, min_step);
            self.outcomes.settled_by_certificate(free);
            return free;
        }
        // A long motion in pieces, each certified as a motion of its own (its end is a rake
        // point, found free above); a stretch of a piece is as short in the whole motion's
        // parameter as `min_step` allows.
        let (mut start, mut end) = std::mem::take(&mut self.piece_ends);
        start.clear();
        start.extend_from_slice(qa);
        let mut free = true;
        for i in 1..=pieces {
            if i == pieces {
                end.clear();
                end.extend_from_slice(qb);
            } else {
                point_on_motion(&mut end, qa, qb, i as Real / pieces as Real);
            }
            checker.pose_groups(&end);
            if !self.certify_kept(checker, &start, &end, min_step * pieces as Real) {
                free = false;
                break;
            }
            std::mem::swap(&mut start, &mut end);
        }
        self.piece_ends = (start, end);
        self.outcomes.settled_by_certificate(free);
        free
    }

    /// [`Self::certify`], the end's block gaps kept when it certifies the motion.
    fn certify_kept(
        &mut self,
        checker: &mut CellChecker<'_>,
        qa: &[Real],
        qb: &[Real],
        min_step: Real,
    ) -> bool {
        let free = self.certify(checker, qa, qb, min_step);
        if free {
            self.end_gaps.keep(qb, &self.gaps_b, &self.exact_b);
        }
        free
    }

    /// The certificate of [`Self::free`] for validated configurations, `qb` posed, at least
    /// its frames and group spheres ([`CellChecker::pose_groups`]; a contact there fails the
    /// certificate like any other, but the end's contact search has usually refused such a
    /// motion sooner).
    fn certify(
        &mut self,
        checker: &mut CellChecker<'_>,
        qa: &[Real],
        qb: &[Real],
        min_step: Real,
    ) -> bool {
        // Where the lane screen runs, its lanes first, and the blocks of its last contacts
        // there: a motion blocked at a lane needs no bound and no gap.
        let walked = self.lanes.is_some();
        if let Some(lanes) = &mut self.lanes
            && lanes.finds_recent_contact(checker, (qa, qb))
        {
            return false;
        }
        checker.place_motion_groups();
        self.set_motion_bounds(checker, qa, qb);
        // Whole blocks next: their groups' gaps at both ends against the block's bound. A
        // gap beyond the bound at one end certifies the whole motion alone (no pair can close
        // it anywhere on the way): no gap measured at a. Most blocks are a link against an
        // obstacle's box, certified so at b by the box's gap to the link's sphere
        // (`Block::gap`'s rule, from the flat list).
        self.block_bounds.clear();
        let group_bounds = &self.group_bounds;
        self.block_bounds.extend(
            self.block_groups
                .iter()
                .map(|&(g, h)| group_bounds[g] + group_bounds[h]),
        );
        for &i in &self.relative_blocks {
            if let Some(relative) = &self.blocks[i].relative {
                self.block_bounds[i] = self.relative_block_bound(relative);
            }
        }
        // A start that was a certified motion's end has its gaps kept: a block needs at b
        // only what the start's gap leaves of its bound (`credit`: that gap, if positive).
        let start = self.end_gaps.find(qa);
        self.credit.clear();
        match start {
            Some(slot) => self.credit.extend(
                self.end_gaps
                    .gaps(slot, self.blocks.len())
                    .iter()
                    .map(|&gap| larger(gap, 0.0)),
            ),
            None => self.credit.resize(self.blocks.len(), 0.0),
        }
        self.gaps_b.clear();
        self.gaps_b.resize(self.blocks.len(), 0.0);
        self.exact_b.clear();
        self.exact_b.resize(self.blocks.len(), false);
        // (Where the lane screen settles the blocks left open, every box block keeps the
        // box's lower bound, written straight into its place when the columns allow: the
        // link's exact distance to the obstacle is not worth measuring, the screen's tests
        // are cheaper.)
        let spheres = checker.placed_group_spheres();
        let in_place =
            self.lanes.is_some() && self.box_blocks.measure_into(spheres, &mut self.gaps_b);
        if !in_place {
            self.box_blocks.measure(spheres);
            let box_gaps = self.box_blocks.gaps();
            for (&(i, group, (r, b)), &lower) in self.box_blocks.blocks().iter().zip(box_gaps) {
                // (The predictable test first.)
                (self.gaps_b[i], self.exact_b[i]) =
                    if self.lanes.is_some() || lower > self.block_bounds[i] - self.credit[i] {
                        (lower, false)
                    } else {
                        (checker.group_body_gap(group, r, b), true)
                    };
            }
        }
        for &i in &self.other_blocks {
            let need = self.block_bounds[i] - self.credit[i];
            (self.gaps_b[i], self.exact_b[i]) = self.blocks[i].gap(checker, need);
        }
        // (Two-ended: `gap_a + gap_b > bound`, with a kept gap at a, else `gap_b > bound`.)
        // (Without a branch per block: which blocks stay open is not predictable.)
        let open = &mut self.open_at_b;
        open.clear();
        open.resize(self.blocks.len(), 0);
        let mut count = 0;
        // (From the last block to the first: a link's blocks come after those of the links
        // nearer the base, and the distal links' are the likeliest in contact, which the lane
        // screen then meets sooner.)
        for (i, ((&gap_b, &bound), &credit)) in self
            .gaps_b
            .iter()
            .zip(&self.block_bounds)
            .zip(&self.credit)
            .enumerate()
            .rev()
        {
            // (A NaN gap or bound leaves the block open.)
            let certified = gap_b > bound - credit;
            open[count] = i;
            count += usize::from(!certified);
        }
        open.truncate(count);
        // The blocks still open, at points of the motion evaluated side by side: on
        // MotionBenchMaker this settles 95 % of them (the rest go on to the chord tests and
        // the pairs' distances at both ends).
        if let Some(lanes) = &mut self.lanes
            && !self.open_at_b.is_empty()
        {
            let motion = (qa, qb);
            let (open, bounds) = (&mut self.open_at_b, (&self.block_bounds[..], &self.bounds));
            let chord = (&self.bound, &mut self.chord);
            if !lanes.screen(checker, motion, walked, open, bounds, chord) {
                return false;
            }
            if open.is_empty() {
                return true;
            }
        } else {
            // (A screen that leaves blocks open has set them in its chord pass.)
            self.chord.set_motion(&self.bound, checker, qa, qb);
        }
        // Every sphere's centre at both ends, for the chord tests (the groups' too; the
        // spheres' curvature bounds are set only for motions that get this far): the end's
        // bodies are placed now.
        checker.pose(qb);
        self.chord.snapshot_groups(checker);
        self.chord.clear();
        let at_b = self.chord.snapshot(checker);
        checker.pose(qa);
        checker.place_motion_groups();
        let at_a = self.chord.snapshot(checker);
        self.open_blocks.clear();
        for &i in &self.open_at_b {
            let (block, gap_b, bound) = (&self.blocks[i], self.gaps_b[i], self.block_bounds[i]);
            // A link left open at b is near its obstacle: its exact gap at a straight away
            // (the box's gap first saved nothing here).
            let kept = start.map(|slot| self.end_gaps.gap(slot, self.blocks.len(), i));
            let gap_a = match (kept, block.obstacle) {
                (Some((gap, true)), _) => gap,
                (_, Some((group, (r, b)))) => checker.group_body_gap(group, r, b),
                (_, None) => checker.group_gap(block.groups.0, block.groups.1),
            };
            if !certified(gap_a, gap_b, bound)
                && !self.chord.certifies_block(
                    checker,
                    block.groups,
                    block.obstacle,
                    (gap_a, gap_b),
                )
            {
                self.open_blocks.push(i);
            }
        }
        if self.open_blocks.is_empty() {
            return true;
        }
        // The open blocks' pairs at both ends (a is posed): exactly where a pair's cheap lower
        // bound is within its motion bound.
        let mut start = StartMeasure {
            bounds: &self.bounds,
            chord: (&self.chord, (at_a, at_b)),
            pair_bounds: &mut self.pair_bounds,
            at_a: &mut self.at_a,
        };
        for &i in &self.open_blocks {
            let block = &self.blocks[i];
            let Some(relative) = &block.relative else {
                if !start.measure(checker, &self.block_pairs[block.pairs.clone()]) {
                    return false;
                }
                continue;
            };
            // A body whose sphere is far enough from the other group's at a, given its
            // relative bound and the other side's largest, certifies all its pairs whatever b
            // shows: none is measured (marked certified: infinitely far at a, bound 0).
            let table = self.bounds.table(relative.robot);
            let other = largest(table, &relative.sides[1]);
            for run in &relative.runs {
                let limit = table[run.entry] + other;
                let gap = checker.body_group_gap(relative.robot, run.body, block.groups.1);
                let positions = &self.block_pairs[run.pairs.clone()];
                if gap > limit {
                    for &k in positions {
                        start.certify(k);
                    }
                } else if !start.measure(checker, positions) {
                    return false;
                }
            }
        }
        // At b only the pairs `a` alone does not certify (a distance beyond the bound at one
        // end is a certificate by itself; b is free of contact, so 0 bounds the others' there).
        checker.pose(qb);
        for &i in &self.open_blocks {
            for &k in &self.block_pairs[self.blocks[i].pairs.clone()] {
                if self.at_a[k] > self.pair_bounds[k] {
                    self.at_b[k] = 0.0;
                    continue;
                }
                // A lower bound beyond what the start's distance leaves of the bound
                // certifies the pair as well as its distance would (after the skip above that
                // is at least 0, so a lower bound returned instead is positive).
                let d = checker.distance_within(k, self.pair_bounds[k] - self.at_a[k]);
                if d <= 0.0 {
                    return false;
                }
                self.at_b[k] = d;
            }
        }
        self.active.clear();
        for &i in &self.open_blocks {
            for &k in &self.block_pairs[self.blocks[i].pairs.clone()] {
                let (d0, d1) = (self.at_a[k], self.at_b[k]);
                if !certified(d0, d1, self.pair_bounds[k]) {
                    self.active.push((k, d0, d1));
                }
            }
        }
        if self.active.is_empty() {
            return true;
        }
        self.bisect(checker, (qa, qb), (at_a, at_b), min_step)
    }

    /// Every robot's suffix table and every group's largest body bound for `qa → qb`.
    fn set_motion_bounds(&mut self, checker: &CellChecker<'_>, qa: &[Real], qb: &[Real]) {
        self.bounds.set_motion(&self.bound, checker, qa, qb);
        for (g, r, entries) in &self.moving_groups {
            self.group_bounds[*g] = largest(self.bounds.table(*r), entries);
        }
    }

    /// A bound on the motion bound of every pair of a self-collision block: its groups'
    /// largest body bounds relative to the joints its pairs share (`relative`). (Another
    /// block's is its groups' largest body bounds summed, set from `block_groups`.)
    fn relative_block_bound(&self, relative: &Relative) -> Real {
        let table = self.bounds.table(relative.robot);
        let [x, y] = &relative.sides;
        largest(table, x) + largest(table, y)
    }
}

/// The largest of the given entries of a suffix table.
fn largest(table: &[Real], entries: &[usize]) -> Real {
    entries.iter().map(|&i| table[i]).fold(0.0, larger)
}

/// Whether distances `d0`, `d1` at a stretch's ends certify it against a motion bound
/// (`false` for NaN: a pair stays uncertain unless proved free).
#[inline]
fn certified(d0: Real, d1: Real, bound: Real) -> bool {
    d0 + d1 > bound
}
