//! RRT-Connect (Kuffner & LaValle, *RRT-Connect: an efficient approach to single-query path
//! planning*, ICRA 2000), with random shortcutting of the result.
//!
//! Two trees grow from the start and the goal. Each iteration samples a configuration
//! (uniform within the bounds, seeded ChaCha8 — reproducible across platforms), *extends* one
//! tree one step (at most `max_step` in joint space, Euclidean) towards it, then *connects* the
//! other tree to the new node (repeated steps until reached or blocked); the trees swap roles
//! every iteration. Every edge is accepted only if [`Validity::motion_valid`] says so. Limits:
//! iterations and wall-clock time; either ends with [`Error::Planning`] naming the limit.

use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::validity::Validity;
use crate::error::{Error, Result};
use crate::math::Real;

/// Planner parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlannerSettings {
    /// Largest edge length in joint space (rad). Default 1 rad, VAMP's `range`: on the
    /// shipped UR5 + IRB 120 cell's 100 seeded problems it halves the median planning time
    /// against 0.3 rad (`benches/README.md`). Cluttered scenes may prefer shorter steps:
    /// on MotionBenchMaker 0.3 rad keeps the hard problems' times down (mean 7.4 ms against
    /// 13 ms with 0.5 rad), and `plan --problems` uses it.
    pub max_step: Real,
    /// Iteration limit.
    pub max_iterations: usize,
    /// Wall-clock limit.
    pub time_limit: Duration,
    /// Random seed.
    pub seed: u64,
    /// Shortcutting attempts on the found path.
    pub shortcut_attempts: usize,
    /// Keep the trees' edges in [`Plan::tree`] (for pictures).
    pub record_tree: bool,
}

impl Default for PlannerSettings {
    fn default() -> Self {
        Self {
            max_step: 1.0,
            max_iterations: 20_000,
            time_limit: Duration::from_secs(10),
            seed: 1,
            shortcut_attempts: 200,
            record_tree: false,
        }
    }
}

/// A planned path with statistics.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Plan {
    /// Waypoints from start to goal; consecutive waypoints are joined by certified motions.
    pub path: Vec<Vec<Real>>,
    /// Iterations used.
    pub iterations: usize,
    /// Nodes in the two trees.
    pub tree_nodes: usize,
    /// Joint-space length before shortcutting (rad).
    pub raw_length: Real,
    /// Joint-space length after shortcutting (rad).
    pub length: Real,
    /// Planning time (s), shortcutting included.
    pub seconds: Real,
    /// Time until the trees met (s): the search alone, without shortcutting (what VAMP
    /// reports as its planning time; its simplification is timed apart).
    pub search_seconds: Real,
    /// Tree edges `(parent, child)` of both trees, if `record_tree` was set.
    pub tree: Vec<(Vec<Real>, Vec<Real>)>,
}

/// Nodes per block of [`Tree::lanes`].
const LANES: usize = 8;

/// A tree of configurations, stored flat (node `i` at `coordinates[i·dof..(i+1)·dof]`), and
/// again by blocks of [`LANES`] nodes with each joint's values side by side, so that the
/// nearest-node scan, linear in the nodes and run every extension, measures a block's nodes
/// together (one vector operation per joint for several nodes).
struct Tree {
    dof: usize,
    coordinates: Vec<Real>,
    /// Block `b`, joint `k`, node `b·LANES + l` at `((b·dof) + k)·LANES + l`; the last
    /// block's unused lanes hold zeros.
    lanes: Vec<Real>,
    parents: Vec<usize>,
}

impl Tree {
    fn new(root: &[Real]) -> Self {
        let mut tree = Self {
            dof: root.len(),
            coordinates: Vec::new(),
            lanes: Vec::new(),
            parents: Vec::new(),
        };
        tree.push(root, 0);
        tree
    }

    fn len(&self) -> usize {
        self.parents.len()
    }

    fn node(&self, i: usize) -> &[Real] {
        &self.coordinates[i * self.dof..(i + 1) * self.dof]
    }

    /// The first node of least squared distance to `q`, the sum over joints taken in joint
    /// order as [`distance2`] does (so that the winner is the one a plain scan picks).
    fn nearest(&self, q: &[Real]) -> usize {
        let mut best = (0, Real::INFINITY);
        if q.len() != self.dof || self.dof == 0 {
            return 0;
        }
        for (b, block) in self.lanes.chunks_exact(self.dof * LANES).enumerate() {
            let mut d = [0.0; LANES];
            for (values, &qk) in block.chunks_exact(LANES).zip(q) {
                let values: &[Real; LANES] = values.try_into().expect("blocks of LANES");
                for l in 0..LANES {
                    d[l] += (values[l] - qk) * (values[l] - qk);
                }
            }
            let used = (self.len() - b * LANES).min(LANES);
            for (l, &dl) in d[..used].iter().enumerate() {
                if dl < best.1 {
                    best = (b * LANES + l, dl);
                }
            }
        }
        best.0
    }

    fn push(&mut self, q: &[Real], parent: usize) -> usize {
        let i = self.len();
        if i % LANES == 0 {
            self.lanes.resize(self.lanes.len() + self.dof * LANES, 0.0);
        }
        let block = (i / LANES) * self.dof * LANES;
        for (k, &v) in q.iter().enumerate() {
            self.lanes[block + k * LANES + i % LANES] = v;
        }
        self.coordinates.extend_from_slice(q);
        self.parents.push(parent);
        i
    }

    /// Root-to-node path.
    fn path_to(&self, mut i: usize) -> Vec<Vec<Real>> {
        let mut out = vec![self.node(i).to_vec()];
        while i != 0 {
            i = self.parents[i];
            out.push(self.node(i).to_vec());
        }
        out.reverse();
        out
    }
}

fn distance2(a: &[Real], b: &[Real]) -> Real {
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum()
}

fn length(path: &[Vec<Real>]) -> Real {
    path.windows(2)
        .map(|w| distance2(&w[0], &w[1]).sqrt())
        .sum()
}

/// `from` moved towards `to` by at most `step`.
fn steer(from: &[Real], to: &[Real], step: Real) -> Vec<Real> {
    let d = distance2(from, to).sqrt();
    if d <= step {
        return to.to_vec();
    }
    from.iter()
        .zip(to)
        .map(|(a, b)| a + (b - a) * (step / d))
        .collect()
}

enum Extend {
    Reached(usize),
    Advanced(usize),
    Trapped,
}

fn extend(tree: &mut Tree, validity: &mut impl Validity, target: &[Real], step: Real) -> Extend {
    let near = tree.nearest(target);
    let q = steer(tree.node(near), target, step);
    if !validity.motion_valid(tree.node(near), &q) {
        return Extend::Trapped;
    }
    let reached = distance2(&q, target) == 0.0;
    let i = tree.push(&q, near);
    if reached {
        Extend::Reached(i)
    } else {
        Extend::Advanced(i)
    }
}

/// Random shortcutting: up to `attempts` times, join two random waypoints directly when that
/// motion is valid. A motion depends only on its two end waypoints, so a pair found blocked
/// stays blocked while both survive: such pairs are remembered (renumbered as waypoints are
/// removed) and not checked again, and shortcutting stops once every pair of the path is
/// known blocked. The random draws, and so the result, are those of checking every attempt.
fn shortcut(
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

/// Plans from `start` to `goal`.
pub fn rrt_connect(
    validity: &mut impl Validity,
    start: &[Real],
    goal: &[Real],
    settings: &PlannerSettings,
) -> Result<Plan> {
    let began = Instant::now();
    let n = validity.dof();
    if start.len() != n || goal.len() != n {
        return Err(Error::Planning(format!(
            "start and goal need {n} values (got {} and {})",
            start.len(),
            goal.len()
        )));
    }
    if !(settings.max_step > 0.0 && settings.max_step.is_finite()) {
        return Err(Error::Planning(format!(
            "max_step must be positive, got {}",
            settings.max_step
        )));
    }
    if !validity.is_valid(start) {
        return Err(Error::Planning(
            "the start configuration is in collision or outside the joint limits".into(),
        ));
    }
    if !validity.is_valid(goal) {
        return Err(Error::Planning(
            "the goal configuration is in collision or outside the joint limits".into(),
        ));
    }
    let bounds = validity.bounds();
    let mut rng = ChaCha8Rng::seed_from_u64(settings.seed);
    let mut trees = [Tree::new(start), Tree::new(goal)];
    let mut from_start = true; // trees[0] grows from the start
    let mut joined: Option<(usize, usize)> = None;
    let mut iterations = 0;
    if validity.motion_valid(start, goal) {
        joined = Some((0, 0));
    }
    while joined.is_none() {
        if iterations >= settings.max_iterations {
            return Err(Error::Planning(format!(
                "no path within {} iterations ({} tree nodes)",
                settings.max_iterations,
                trees[0].len() + trees[1].len()
            )));
        }
        if began.elapsed() > settings.time_limit {
            return Err(Error::Planning(format!(
                "no path within the time limit of {} s ({iterations} iterations)",
                settings.time_limit.as_secs_f64()
            )));
        }
        iterations += 1;
        let sample: Vec<Real> = bounds
            .iter()
            .map(|&(lo, hi)| rng.random_range(lo..=hi))
            .collect();
        let [a, b] = &mut trees;
        let new = match extend(a, validity, &sample, settings.max_step) {
            Extend::Trapped => None,
            Extend::Reached(i) | Extend::Advanced(i) => Some(i),
        };
        if let Some(i) = new {
            let target = a.node(i).to_vec();
            loop {
                match extend(b, validity, &target, settings.max_step) {
                    Extend::Advanced(_) => continue,
                    Extend::Reached(j) => {
                        joined = Some(if from_start { (i, j) } else { (j, i) });
                        break;
                    }
                    Extend::Trapped => break,
                }
            }
        }
        if joined.is_none() {
            trees.swap(0, 1);
            from_start = !from_start;
        }
    }
    let (i, j) = joined.expect("joined");
    let (start_tree, goal_tree) = if from_start {
        (&trees[0], &trees[1])
    } else {
        (&trees[1], &trees[0])
    };
    let mut path = start_tree.path_to(i);
    let mut back = goal_tree.path_to(j);
    back.reverse();
    // The connection point appears in both halves.
    if path.last() == back.first() {
        back.remove(0);
    }
    path.extend(back);
    let raw_length = length(&path);
    let search_seconds = began.elapsed().as_secs_f64();
    shortcut(&mut path, validity, &mut rng, settings.shortcut_attempts);
    let tree = if settings.record_tree {
        trees
            .iter()
            .flat_map(|t| (1..t.len()).map(|i| (t.node(t.parents[i]).to_vec(), t.node(i).to_vec())))
            .collect()
    } else {
        Vec::new()
    };
    Ok(Plan {
        tree,
        length: length(&path),
        path,
        iterations,
        tree_nodes: trees[0].len() + trees[1].len(),
        raw_length,
        seconds: began.elapsed().as_secs_f64(),
        search_seconds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The blocked scan picks the first node of least `distance2`, as a plain scan does: trees
    /// of every size around the block length, coordinates on a coarse grid (many ties), and a
    /// query equal to a node.
    #[test]
    fn nearest_is_the_first_node_of_least_distance() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for dof in [1, 2, 6, 7, 9] {
            let grid = |rng: &mut ChaCha8Rng| -> Vec<Real> {
                (0..dof)
                    .map(|_| Real::from(rng.random_range(-2i8..=2)) * 0.5)
                    .collect()
            };
            let mut tree = Tree::new(&grid(&mut rng));
            for n in 1..40 {
                for _ in 0..20 {
                    let q = if n % 5 == 0 {
                        tree.node(n / 2).to_vec()
                    } else {
                        grid(&mut rng)
                    };
                    let plain = (0..tree.len())
                        .min_by(|&i, &j| {
                            distance2(tree.node(i), &q).total_cmp(&distance2(tree.node(j), &q))
                        })
                        .unwrap();
                    assert_eq!(tree.nearest(&q), plain, "dof {dof}, {n} nodes, {q:?}");
                }
                tree.push(&grid(&mut rng), n - 1);
            }
        }
    }

    /// A 2-D point robot in the unit square with a wall `x ∈ [0.45, 0.55], y < 0.8`.
    struct Wall;
    impl Validity for Wall {
        fn dof(&self) -> usize {
            2
        }
        fn bounds(&self) -> Vec<(Real, Real)> {
            vec![(0.0, 1.0), (0.0, 1.0)]
        }
        fn is_valid(&mut self, q: &[Real]) -> bool {
            !((0.45..=0.55).contains(&q[0]) && q[1] < 0.8)
        }
        fn motion_valid(&mut self, a: &[Real], b: &[Real]) -> bool {
            (0..=200).all(|k| {
                let s = k as Real / 200.0;
                self.is_valid(&[a[0] + (b[0] - a[0]) * s, a[1] + (b[1] - a[1]) * s])
            })
        }
    }

    #[test]
    fn goes_around_the_wall_and_is_reproducible() {
        let settings = PlannerSettings {
            max_step: 0.1,
            ..Default::default()
        };
        let plan = rrt_connect(&mut Wall, &[0.1, 0.1], &[0.9, 0.1], &settings).unwrap();
        assert!(
            plan.path
                .windows(2)
                .all(|w| Wall.motion_valid(&w[0], &w[1]))
        );
        assert!(
            plan.path.iter().any(|q| q[1] >= 0.8),
            "must pass above the wall"
        );
        assert!(plan.length <= plan.raw_length + 1e-12);
        assert_eq!(
            plan,
            Plan {
                seconds: plan.seconds,
                search_seconds: plan.search_seconds,
                ..rrt_connect(&mut Wall, &[0.1, 0.1], &[0.9, 0.1], &settings).unwrap()
            }
        );
    }

    #[test]
    fn failures_are_explained() {
        let settings = PlannerSettings::default();
        let e = rrt_connect(&mut Wall, &[0.5, 0.1], &[0.9, 0.1], &settings).unwrap_err();
        assert!(
            e.to_string()
                .contains("the start configuration is in collision"),
            "{e}"
        );
        let e = rrt_connect(
            &mut Wall,
            &[0.1, 0.1],
            &[0.9, 0.1],
            &PlannerSettings {
                max_iterations: 1,
                max_step: 0.01,
                ..settings
            },
        )
        .unwrap_err();
        assert!(e.to_string().contains("no path within 1 iterations"), "{e}");
    }

    /// [`Wall`] counting its motion checks.
    struct Counted(usize);
    impl Validity for Counted {
        fn dof(&self) -> usize {
            2
        }
        fn bounds(&self) -> Vec<(Real, Real)> {
            Wall.bounds()
        }
        fn is_valid(&mut self, q: &[Real]) -> bool {
            Wall.is_valid(q)
        }
        fn motion_valid(&mut self, a: &[Real], b: &[Real]) -> bool {
            self.0 += 1;
            Wall.motion_valid(a, b)
        }
    }

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
            let mut counted = Counted(0);
            shortcut(&mut path, &mut counted, &mut memo_rng, 200);
            assert_eq!(path, naive, "seed {seed}");
            assert!(
                counted.0 <= plain_checks,
                "seed {seed}: {} vs {plain_checks}",
                counted.0
            );
            (all_plain, all_memo) = (all_plain + plain_checks, all_memo + counted.0);
        }
        assert!(2 * all_memo < all_plain, "{all_memo} vs {all_plain}");
    }
}
