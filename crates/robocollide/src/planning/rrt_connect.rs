//! RRT-Connect (Kuffner & LaValle, *RRT-Connect: an efficient approach to single-query path
//! planning*, ICRA 2000), with random shortcutting of the result (`shortcut.rs`).
//!
//! Two trees grow from the start and the goal. Each iteration samples a configuration
//! ([`Sampler`]: uniform within the bounds from a seeded ChaCha8, reproducible across
//! platforms, or the Halton sequence), *extends* one tree one step (at most `max_step` in
//! joint space, Euclidean) towards it, then *connects* the other tree to the new node
//! (repeated steps until reached or blocked). Which tree extends next: with balanced trees
//! (the default, as VAMP's RRT-Connect) the smaller one, else they alternate. Optionally
//! ([`DynamicDomain`]) samples far from a node that has failed to extend are dropped before
//! any check. Every edge is accepted only if [`Validity::motion_valid`] says so. Limits:
//! iterations and wall-clock time; either ends with [`Error::Planning`] naming the limit.

use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::dynamic_domain::DynamicDomain;
use super::halton::Halton;
use super::shortcut::{shortcut, shortcut_points};
use super::tree::Tree;
use super::validity::Validity;
use crate::collision::MotionOutcomes;
use crate::error::{Error, Result};
use crate::math::{Real, squared_distance};

/// Iterations per reading of the clock for the time limit.
const CLOCK_EVERY: usize = 16;

/// Planner parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlannerSettings {
    /// Largest edge length in joint space (rad). Default 1 rad, VAMP's `range`: on the
    /// shipped UR5 + IRB 120 cell's 100 seeded problems it halves the median planning time
    /// against 0.3 rad (`benches/README.md`). `plan --problems` uses it on MotionBenchMaker
    /// too, with balanced trees, Halton samples and dynamic domains (VAMP's settings). The
    /// validity is told it ([`Validity::set_planner_step`]).
    pub max_step: Real,
    /// Iteration limit.
    pub max_iterations: usize,
    /// Wall-clock limit (read before the first iteration and every 16th after).
    pub time_limit: Duration,
    /// Random seed.
    pub seed: u64,
    /// Shortcutting attempts between the found path's waypoints.
    pub shortcut_attempts: usize,
    /// Shortcutting attempts between points inside the path's segments, after the waypoint
    /// shortcuts (each success costs three certified motions; stops after
    /// [`POINT_SHORTCUT_PATIENCE`](super::POINT_SHORTCUT_PATIENCE) failures in a row).
    /// Default 0: on MotionBenchMaker (1 rad steps), 30 attempts made the median path 8 %
    /// shorter (5.55 → 5.09 rad) for 3.8× the shortcutting time (`benches/README.md`,
    /// session 39).
    pub point_shortcuts: usize,
    /// Keep the trees' edges in [`Plan::tree`] (for pictures).
    pub record_tree: bool,
    /// Dynamic-domain sampling: a sample farther from its nearest node than that node's
    /// radius is dropped before any motion is checked. `None`: every sample is grown towards.
    pub dynamic_domain: Option<DynamicDomain>,
    /// Balanced trees: the tree that grew keeps growing while the other holds at least as
    /// many nodes, so the smaller tree is the one extended towards samples; otherwise the
    /// trees alternate.
    pub balance: bool,
    /// Where samples come from.
    pub sampler: Sampler,
}

/// The sampler of configurations to grow towards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sampler {
    /// Uniform within the joint bounds, from ChaCha8 seeded with [`PlannerSettings::seed`].
    Uniform,
    /// The Halton sequence over the joint bounds (deterministic; the seed still drives
    /// shortcutting), as VAMP's RRT-Connect samples, but in odd prime bases only (base 2
    /// aliases with trees taking turns: see `halton.rs`).
    Halton,
}

impl Default for PlannerSettings {
    fn default() -> Self {
        Self {
            max_step: 1.0,
            max_iterations: 20_000,
            time_limit: Duration::from_secs(10),
            seed: 1,
            shortcut_attempts: 200,
            point_shortcuts: 0,
            record_tree: false,
            dynamic_domain: None,
            balance: true,
            sampler: Sampler::Uniform,
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
    /// Planning time (s): the whole call, from checking the inputs to the end of
    /// shortcutting.
    pub seconds: Real,
    /// The search alone (s): from the direct try from start to goal until the trees met.
    /// Not the set-up before it (the inputs and the start and goal checked, the sampler and
    /// the trees made) nor shortcutting: what VAMP reports as its planning time, whose clock
    /// starts after its buffers are made, before its own direct try (it checks neither start
    /// nor goal), and leaves its simplification to be timed apart.
    pub search_seconds: Real,
    /// Shortcutting alone (s).
    pub shortcut_seconds: Real,
    /// How the search's motion checks ended (those of the direct try from start to goal until
    /// the trees met), where the validity counts them ([`Validity::motion_outcomes`]).
    pub search_motions: Option<MotionOutcomes>,
    /// Tree edges `(parent, child)` of both trees, if `record_tree` was set.
    pub tree: Vec<(Vec<Real>, Vec<Real>)>,
}

/// A path's joint-space length: its segments' Euclidean lengths summed.
pub(super) fn length(path: &[Vec<Real>]) -> Real {
    path.windows(2)
        .map(|w| squared_distance(&w[0], &w[1]).sqrt())
        .sum()
}

/// `from` moved towards `to` by at most `step`, into `q` (replacing what it held).
fn steer(from: &[Real], to: &[Real], step: Real, q: &mut Vec<Real>) {
    q.clear();
    let d = squared_distance(from, to).sqrt();
    if d <= step {
        q.extend_from_slice(to);
        return;
    }
    q.extend(from.iter().zip(to).map(|(a, b)| a + (b - a) * (step / d)));
}

enum Extend {
    Reached(usize),
    Advanced(usize),
    Trapped,
    /// The target lies outside the nearest node's dynamic domain: nothing was checked.
    Outside,
}

/// One step of `tree` towards `target`; with a dynamic domain, only from a nearest node whose
/// radius holds the target, and the node's radius updated by the outcome. `q` is scratch
/// space (the steered configuration: no allocation per step).
fn extend(
    tree: &mut Tree,
    validity: &mut impl Validity,
    (target, step): (&[Real], Real),
    domain: Option<&DynamicDomain>,
    q: &mut Vec<Real>,
) -> Extend {
    let near = tree.nearest(target);
    if domain.is_some() && squared_distance(tree.node(near), target).sqrt() > tree.radius(near) {
        return Extend::Outside;
    }
    steer(tree.node(near), target, step, q);
    if !validity.motion_valid(tree.node(near), q) {
        if let Some(domain) = domain {
            tree.set_radius(near, domain.after_failure(tree.radius(near)));
        }
        return Extend::Trapped;
    }
    if let Some(domain) = domain {
        let radius = tree.radius(near);
        if radius.is_finite() {
            tree.set_radius(near, radius * (1.0 + domain.alpha));
        }
    }
    let reached = squared_distance(q, target) == 0.0;
    let i = tree.push(q, near);
    if reached {
        Extend::Reached(i)
    } else {
        Extend::Advanced(i)
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
    validity.set_planner_step(settings.max_step);
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
    if let Some(domain) = &settings.dynamic_domain {
        domain.validate()?;
    }
    let bounds = validity.bounds();
    let mut rng = ChaCha8Rng::seed_from_u64(settings.seed);
    let mut halton = match settings.sampler {
        Sampler::Uniform => None,
        Sampler::Halton => Some(Halton::new(bounds.clone()).ok_or_else(|| {
            Error::Planning(format!(
                "the Halton sampler takes at most 16 joints, got {n}"
            ))
        })?),
    };
    let mut trees = [Tree::new(start), Tree::new(goal)];
    let mut from_start = true; // trees[0] grows from the start
    let mut joined: Option<(usize, usize)> = None;
    let mut iterations = 0;
    let mut sample = Vec::with_capacity(n);
    let (mut steered, mut target) = (Vec::with_capacity(n), Vec::with_capacity(n));
    let outcomes_before = validity.motion_outcomes();
    let search_began = Instant::now();
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
        // (The clock every few iterations: reading it costs as much as a rejected sample.)
        if iterations % CLOCK_EVERY == 0 && began.elapsed() > settings.time_limit {
            return Err(Error::Planning(format!(
                "no path within the time limit of {} s ({iterations} iterations)",
                settings.time_limit.as_secs_f64()
            )));
        }
        iterations += 1;
        match &mut halton {
            Some(halton) => halton.next_into(&mut sample),
            None => {
                sample.clear();
                sample.extend(bounds.iter().map(|&(lo, hi)| rng.random_range(lo..=hi)));
            }
        }
        let [a, b] = &mut trees;
        let new = match extend(
            a,
            validity,
            (&sample, settings.max_step),
            settings.dynamic_domain.as_ref(),
            &mut steered,
        ) {
            Extend::Trapped | Extend::Outside => None,
            Extend::Reached(i) | Extend::Advanced(i) => Some(i),
        };
        if let Some(i) = new {
            target.clear();
            target.extend_from_slice(a.node(i));
            loop {
                match extend(
                    b,
                    validity,
                    (&target, settings.max_step),
                    None,
                    &mut steered,
                ) {
                    Extend::Advanced(_) => continue,
                    Extend::Reached(j) => {
                        joined = Some(if from_start { (i, j) } else { (j, i) });
                        break;
                    }
                    Extend::Trapped | Extend::Outside => break,
                }
            }
        }
        let smaller_keeps_growing = settings.balance && trees[1].len() >= trees[0].len();
        if joined.is_none() && !smaller_keeps_growing {
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
    let search_seconds = search_began.elapsed().as_secs_f64();
    let search_motions = validity
        .motion_outcomes()
        .zip(outcomes_before)
        .map(|(after, before)| after - before);
    let shortcut_began = Instant::now();
    shortcut(&mut path, validity, &mut rng, settings.shortcut_attempts);
    shortcut_points(&mut path, validity, &mut rng, settings.point_shortcuts);
    let shortcut_seconds = shortcut_began.elapsed().as_secs_f64();
    let tree = if settings.record_tree {
        trees
            .iter()
            .flat_map(|t| (1..t.len()).map(|i| (t.node(t.parent(i)).to_vec(), t.node(i).to_vec())))
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
        shortcut_seconds,
        search_motions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planning::test_validities::{Counted, GOAL, TrappedGoal, Wall};

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
        // The search's and shortcutting's clocks run inside the whole call's, apart.
        assert!(plan.search_seconds > 0.0 && plan.shortcut_seconds > 0.0);
        assert!(plan.search_seconds + plan.shortcut_seconds <= plan.seconds);
        assert_eq!(
            plan,
            Plan {
                seconds: plan.seconds,
                search_seconds: plan.search_seconds,
                shortcut_seconds: plan.shortcut_seconds,
                ..rrt_connect(&mut Wall, &[0.1, 0.1], &[0.9, 0.1], &settings).unwrap()
            }
        );
    }

    #[test]
    fn the_validity_is_told_the_step() {
        let mut counted = Counted::default();
        let settings = PlannerSettings {
            max_step: 0.07,
            ..Default::default()
        };
        rrt_connect(&mut counted, &[0.1, 0.1], &[0.9, 0.1], &settings).unwrap();
        assert_eq!(counted.told_step, Some(0.07));
        assert!(counted.motions > 0);
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

    /// Every combination of the options finds a valid path around the wall, the same one on
    /// every run.
    #[test]
    fn every_option_goes_around_the_wall_reproducibly() {
        let domain = DynamicDomain {
            radius: 0.3,
            min_radius: 0.1,
            alpha: 1e-4,
        };
        for balance in [false, true] {
            for sampler in [Sampler::Uniform, Sampler::Halton] {
                for dynamic_domain in [None, Some(domain)] {
                    let settings = PlannerSettings {
                        max_step: 0.1,
                        balance,
                        sampler,
                        dynamic_domain,
                        ..Default::default()
                    };
                    let case = format!("{balance} {sampler:?} {dynamic_domain:?}");
                    let plan = rrt_connect(&mut Wall, &[0.1, 0.1], &[0.9, 0.1], &settings)
                        .unwrap_or_else(|e| panic!("{case}: {e}"));
                    assert!(
                        plan.path
                            .windows(2)
                            .all(|w| Wall.motion_valid(&w[0], &w[1])),
                        "{case}"
                    );
                    let again =
                        rrt_connect(&mut Wall, &[0.1, 0.1], &[0.9, 0.1], &settings).unwrap();
                    assert_eq!(plan.path, again.path, "{case}");
                }
            }
        }
    }

    /// A node's radius: infinite until an extension from it fails, then `radius`, shrinking
    /// by `1 − alpha` per failure to `min_radius`, growing by `1 + alpha` per success; a
    /// target beyond it is dropped with no motion checked.
    #[test]
    fn a_dynamic_domain_drops_far_targets_unchecked() {
        let domain = DynamicDomain {
            radius: 0.5,
            min_radius: 0.45,
            alpha: 0.1,
        };
        let mut tree = Tree::new(&[0.4, 0.5]);
        let mut wall = Counted::default();
        let mut q = Vec::new();
        // Towards the wall: fails, the radius becomes 0.5.
        let towards_wall = [0.5, 0.5];
        assert!(matches!(
            extend(
                &mut tree,
                &mut wall,
                (&towards_wall, 0.1),
                Some(&domain),
                &mut q
            ),
            Extend::Trapped
        ));
        assert_eq!((tree.radius(0), wall.motions), (0.5, 1));
        // A target 0.6 away is outside: nothing checked, nothing changed.
        assert!(matches!(
            extend(
                &mut tree,
                &mut wall,
                (&[0.4, 1.1], 0.1),
                Some(&domain),
                &mut q
            ),
            Extend::Outside
        ));
        assert_eq!((tree.radius(0), wall.motions, tree.len()), (0.5, 1, 1));
        // Failures shrink it to the least radius, not below.
        for _ in 0..3 {
            extend(
                &mut tree,
                &mut wall,
                (&towards_wall, 0.1),
                Some(&domain),
                &mut q,
            );
        }
        assert_eq!(tree.radius(0), 0.45);
        // A success grows it; the new node's own radius is infinite.
        assert!(matches!(
            extend(
                &mut tree,
                &mut wall,
                (&[0.4, 0.9], 0.1),
                Some(&domain),
                &mut q
            ),
            Extend::Advanced(1)
        ));
        assert!((tree.radius(0) - 0.495).abs() < 1e-12);
        assert_eq!(tree.radius(1), Real::INFINITY);
        let bad = PlannerSettings {
            dynamic_domain: Some(DynamicDomain {
                min_radius: 0.6,
                ..domain
            }),
            ..Default::default()
        };
        let e = rrt_connect(&mut Wall, &[0.1, 0.1], &[0.9, 0.1], &bad).unwrap_err();
        assert!(
            e.to_string().contains("min_radius 0.6 and radius 0.5"),
            "{e}"
        );
    }

    /// With balanced trees the smaller tree (the trapped goal's) is the one extended, so the
    /// start's tree stops growing; alternating trees grow the start's every other iteration.
    #[test]
    fn balanced_trees_extend_the_smaller_tree() {
        let nodes = |balance: bool| {
            let settings = PlannerSettings {
                max_iterations: 60,
                max_step: 0.1,
                balance,
                ..Default::default()
            };
            let text = rrt_connect(&mut TrappedGoal, &[0.1, 0.1], &GOAL, &settings)
                .unwrap_err()
                .to_string();
            let count = text
                .split('(')
                .nth(1)
                .and_then(|rest| rest.split(' ').next());
            count
                .and_then(|n| n.parse::<usize>().ok())
                .unwrap_or_else(|| panic!("{text}"))
        };
        let (balanced, alternating) = (nodes(true), nodes(false));
        assert!(balanced <= 3, "{balanced} nodes");
        assert!(alternating >= 30, "{alternating} nodes");
    }
}
