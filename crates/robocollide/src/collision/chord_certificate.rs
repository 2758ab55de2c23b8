//! [`ChordCertificate`]: certifies a pair free over a stretch of a motion from the two
//! spheres' (or the sphere's) centres at the stretch's ends and the second-order bound of
//! [`chord_bound`](super::chord_bound): the sphere swept over the stretch stays within its
//! centre's chord inflated by `h² A / 8`.
//!
//! Where the first-order certificate (`d₀ + d₁ > λ h`) needs stretches short enough that the
//! bodies' whole displacement fits in their clearance, this one needs only the chord's
//! *sagitta* to fit, which shrinks with the square of the stretch: a pair passing a few
//! millimetres from an obstacle is certified after one or two halvings instead of five or six.
//! It applies to pairs of spheres and to a sphere against a body that does not move (an
//! obstacle); other pairs keep the first-order certificate alone.

use super::checker::CellChecker;
use super::chord_bound::{chord_deviation, curvature_at};
use super::motion_bound::MotionBound;
use crate::geom::{Capsule, Segment, Shape};
use crate::math::{Point3, Real, segment_clears_origin};
use crate::robot::BodyShape;

/// A sphere body: its radius and its slot in a snapshot of centres and in the curvatures.
#[derive(Debug, Clone, Copy)]
struct Ball {
    radius: Real,
    slot: usize,
}

/// What the chord test of one checked pair compares.
#[derive(Debug, Clone, Copy)]
enum ChordPair {
    /// Two spheres (of one robot or two).
    Spheres(Ball, Ball),
    /// A sphere against a body of a robot without joints, given as `(robot, body)`.
    Fixed(Ball, (usize, usize)),
}

/// Per-pair chord tests and the sphere centres at the evaluated points of one motion.
#[derive(Debug, Clone)]
pub(super) struct ChordCertificate {
    /// Per checked pair, its test (`None`: first order only).
    pairs: Vec<Option<ChordPair>>,
    /// The sphere bodies as flat indices into the posed cores, in slot order.
    balls: Vec<usize>,
    /// Per sphere (slot order), its centre's path (into `paths`) and distance from the
    /// path's frame's origin.
    anchors: Vec<(usize, Real)>,
    /// The distinct paths of the spheres' centres, as `(robot, joints root → frame)`.
    paths: Vec<(usize, Vec<usize>)>,
    /// Per path, its curvature terms along the current motion.
    path_terms: Vec<(Real, Real)>,
    /// The paths, spheres (slots) and groups that robots with joints carry: the only ones a
    /// motion changes (the others' bound is set once; a scene's obstacles are dozens of
    /// robots without joints).
    moving_paths: Vec<usize>,
    moving_balls: Vec<usize>,
    moving_groups: Vec<usize>,
    /// Per culling group with a bounding sphere fixed in a link: its centre's path (into
    /// `paths`) and distance from the link's origin.
    group_anchors: Vec<Option<(usize, Real)>>,
    /// Per group, its sphere's curvature bound along the current motion (`∞` without one).
    group_curvatures: Vec<Real>,
    /// Per group, its sphere's centre at the motion's end.
    group_centres: Vec<Point3>,
    /// Snapshots of every sphere's centre, one block of `balls.len()` per evaluated point.
    centres: Vec<Point3>,
    /// Per sphere (slot order), its second-derivative bound along the current motion.
    curvatures: Vec<Real>,
    prefix: Vec<Real>,
}

impl ChordCertificate {
    /// The tests of `checker`'s pairs and of its `groups` culling groups' blocks.
    pub(super) fn new(checker: &CellChecker<'_>, bound: &MotionBound, groups: usize) -> Self {
        let cell = checker.cell();
        let mut balls = Vec::new();
        let mut anchors = Vec::new();
        let mut paths: Vec<(usize, Vec<usize>)> = Vec::new();
        let mut path_index =
            |r: usize, path: &[usize]| match paths.iter().position(|p| p.0 == r && p.1 == path) {
                Some(i) => i,
                None => {
                    paths.push((r, path.to_vec()));
                    paths.len() - 1
                }
            };
        let mut slots: Vec<Vec<Option<Ball>>> = Vec::new();
        for (r, robot) in cell.robots.iter().enumerate() {
            slots.push(
                robot
                    .model
                    .bodies
                    .iter()
                    .enumerate()
                    .map(|(b, body)| match body.shape {
                        BodyShape::Sphere { radius, .. } => {
                            let (path, local) = &bound.anchors(r, b)[0];
                            anchors.push((path_index(r, path), *local));
                            balls.push(checker.flat_body(r, b));
                            Some(Ball {
                                radius,
                                slot: balls.len() - 1,
                            })
                        }
                        _ => None,
                    })
                    .collect(),
            );
        }
        let fixed = |r: usize| cell.robots[r].model.dof() == 0;
        let pairs = checker
            .pairs()
            .iter()
            .map(|p| {
                let (x, y) = (slots[p.robot_a][p.body_a], slots[p.robot_b][p.body_b]);
                match (x, y) {
                    (Some(x), Some(y)) => Some(ChordPair::Spheres(x, y)),
                    (Some(x), None) if fixed(p.robot_b) => {
                        Some(ChordPair::Fixed(x, (p.robot_b, p.body_b)))
                    }
                    (None, Some(y)) if fixed(p.robot_a) => {
                        Some(ChordPair::Fixed(y, (p.robot_a, p.body_a)))
                    }
                    _ => None,
                }
            })
            .collect();
        let group_anchors: Vec<Option<(usize, Real)>> = (0..groups)
            .map(|g| {
                checker.group_anchor(g).map(|(r, link, centre)| {
                    let path = cell.robots[r].model.tree().path_to(link);
                    (path_index(r, &path), centre.coords.norm())
                })
            })
            .collect();
        let moves = |path: usize| cell.robots[paths[path].0].model.dof() > 0;
        let moving_paths = (0..paths.len()).filter(|&p| moves(p)).collect();
        let moving_balls = (0..anchors.len())
            .filter(|&s| moves(anchors[s].0))
            .collect();
        let moving_groups = (0..groups)
            .filter(|&g| group_anchors[g].is_some_and(|(path, _)| moves(path)))
            .collect();
        let mut certificate = Self {
            pairs,
            group_anchors,
            group_curvatures: vec![Real::INFINITY; groups],
            group_centres: vec![Point3::origin(); groups],
            curvatures: vec![0.0; balls.len()],
            balls,
            anchors,
            path_terms: vec![(0.0, 0.0); paths.len()],
            paths,
            moving_paths,
            moving_balls,
            moving_groups,
            centres: Vec::new(),
            prefix: Vec::new(),
        };
        // A path without moving joints has terms (0, 0) along every motion: the bounds of what
        // it carries are set here, once.
        for slot in 0..certificate.curvatures.len() {
            certificate.set_ball_curvature(slot);
        }
        for g in 0..groups {
            certificate.set_group_curvature(g);
        }
        certificate
    }

    /// Sphere `slot`'s curvature bound from its path's current terms.
    #[inline]
    fn set_ball_curvature(&mut self, slot: usize) {
        let (path, local) = self.anchors[slot];
        self.curvatures[slot] = curvature_at(self.path_terms[path], local);
    }

    /// Group `g`'s sphere's curvature bound from its path's current terms (`∞` without a
    /// sphere fixed in a link).
    #[inline]
    fn set_group_curvature(&mut self, g: usize) {
        self.group_curvatures[g] = self.group_anchors[g].map_or(Real::INFINITY, |(path, local)| {
            curvature_at(self.path_terms[path], local)
        });
    }

    /// The slot of sphere body `flat` (a flat body index), if it is a sphere.
    pub(super) fn ball_slot(&self, flat: usize) -> Option<usize> {
        self.balls.iter().position(|&f| f == flat)
    }

    /// Sphere `slot`'s curvature bound along the current motion ([`Self::set_motion`]).
    #[inline]
    pub(super) fn ball_curvature(&self, slot: usize) -> Real {
        self.curvatures[slot]
    }

    /// Group `g`'s sphere's curvature bound along the current motion (`∞` without one).
    #[inline]
    pub(super) fn group_curvature(&self, g: usize) -> Real {
        self.group_curvatures[g]
    }

    /// Forgets the snapshots of the previous motion.
    pub(super) fn clear(&mut self) {
        self.centres.clear();
    }

    /// Every sphere's curvature bound along `qa → qb`.
    pub(super) fn set_motion(
        &mut self,
        bound: &MotionBound,
        checker: &CellChecker<'_>,
        qa: &[Real],
        qb: &[Real],
    ) {
        for &p in &self.moving_paths {
            let (r, path) = &self.paths[p];
            let ends = (checker.robot_q(qa, *r), checker.robot_q(qb, *r));
            self.path_terms[p] = bound.path_curvature(*r, path, ends, &mut self.prefix);
        }
        for i in 0..self.moving_balls.len() {
            self.set_ball_curvature(self.moving_balls[i]);
        }
        for i in 0..self.moving_groups.len() {
            self.set_group_curvature(self.moving_groups[i]);
        }
    }

    /// Records every group's sphere centre at the posed configuration, the motion's end.
    pub(super) fn snapshot_groups(&mut self, checker: &CellChecker<'_>) {
        for (g, centre) in self.group_centres.iter_mut().enumerate() {
            *centre = checker.group_sphere(g).0;
        }
    }

    /// Whether every pair between groups `g` and `h` is free along the whole motion, from
    /// their spheres at its start (posed) and end ([`Self::snapshot_groups`]): for a link
    /// against a lone obstacle `(group, (robot, body))`, the link's swept sphere against the
    /// obstacle itself; else the two swept spheres. `gaps` are lower bounds on the groups'
    /// distance at the two ends (a test is hopeless unless both exceed the deviation).
    pub(super) fn certifies_block(
        &self,
        checker: &CellChecker<'_>,
        (g, h): (usize, usize),
        obstacle: Option<(usize, (usize, usize))>,
        gaps: (Real, Real),
    ) -> bool {
        let deviation = |g: usize| chord_deviation(self.group_curvatures[g], 1.0);
        if let Some((link, (r, b))) = obstacle {
            let spread = deviation(link);
            if gaps.0 <= spread || gaps.1 <= spread {
                return false;
            }
            let ((c0, radius), c1) = (checker.group_sphere(link), self.group_centres[link]);
            return ends_clear_chord(gaps, (c0, c1), spread)
                || swept_sphere_clears(checker, (c0, c1), radius + spread, (r, b));
        }
        let spread = deviation(g) + deviation(h);
        if gaps.0 <= spread || gaps.1 <= spread {
            return false;
        }
        let ((g0, rg), (h0, rh)) = (checker.group_sphere(g), checker.group_sphere(h));
        segment_clears_origin(
            g0 - h0,
            self.group_centres[g] - self.group_centres[h],
            rg + rh + spread,
        )
    }

    /// Records every sphere's centre at the posed configuration; returns the snapshot's
    /// index.
    pub(super) fn snapshot(&mut self, checker: &CellChecker<'_>) -> usize {
        let index = self.centres.len() / self.balls.len().max(1);
        checker.core_points_into(&self.balls, &mut self.centres);
        index
    }

    /// Whether pair `k` is free over the whole motion whose ends are snapshots `e0` and `e1`
    /// by the chord test's kernel-free part alone, before any distance is measured: two
    /// spheres' chords of their centres' difference (as [`Self::certifies`]), a sphere against
    /// an obstacle by [`separated_by_a_face`]. On MotionBenchMaker this clears 29 % of the
    /// sphere–obstacle pairs of the blocks left open, each of which otherwise costs a distance
    /// at both ends before the same test clears it.
    pub(super) fn clears_unmeasured(
        &self,
        checker: &CellChecker<'_>,
        k: usize,
        (e0, e1): (usize, usize),
    ) -> bool {
        let n = self.balls.len();
        let centre = |e: usize, ball: &Ball| self.centres[e * n + ball.slot];
        let deviation = |ball: &Ball| chord_deviation(self.curvatures[ball.slot], 1.0);
        match self.pairs[k] {
            Some(ChordPair::Fixed(x, obstacle)) => {
                let chord = (centre(e0, &x), centre(e1, &x));
                separated_by_a_face(checker, chord, x.radius + deviation(&x), obstacle)
            }
            Some(ChordPair::Spheres(x, y)) => segment_clears_origin(
                centre(e0, &x) - centre(e0, &y),
                centre(e1, &x) - centre(e1, &y),
                x.radius + y.radius + deviation(&x) + deviation(&y),
            ),
            None => false,
        }
    }

    /// Whether pair `k` is free over a stretch of length `h` whose ends are snapshots `e0`
    /// and `e1`, where its distances (or lower bounds) were `d0` and `d1`. With
    /// `unmeasured_tried`, [`Self::clears_unmeasured`] has failed on this very stretch: its
    /// tests are not repeated.
    pub(super) fn certifies(
        &self,
        checker: &CellChecker<'_>,
        k: usize,
        (e0, e1): (usize, usize),
        h: Real,
        (d0, d1): (Real, Real),
        unmeasured_tried: bool,
    ) -> bool {
        let Some(pair) = self.pairs[k] else {
            return false;
        };
        let n = self.balls.len();
        let centre = |e: usize, ball: &Ball| self.centres[e * n + ball.slot];
        let deviation = |ball: &Ball| chord_deviation(self.curvatures[ball.slot], h);
        match pair {
            ChordPair::Spheres(x, y) => {
                let spread = deviation(&x) + deviation(&y);
                // The chord passes within `spread` of each end's spheres' gap: hopeless unless
                // both gaps exceed it.
                if unmeasured_tried || d0 <= spread || d1 <= spread {
                    return false;
                }
                segment_clears_origin(
                    centre(e0, &x) - centre(e0, &y),
                    centre(e1, &x) - centre(e1, &y),
                    x.radius + y.radius + spread,
                )
            }
            ChordPair::Fixed(x, (r, b)) => {
                let spread = deviation(&x);
                if d0 <= spread || d1 <= spread {
                    return false;
                }
                let chord = (centre(e0, &x), centre(e1, &x));
                let radius = x.radius + spread;
                ends_clear_chord((d0, d1), chord, spread)
                    || (!unmeasured_tried && separated_by_a_face(checker, chord, radius, (r, b)))
                    || swept_sphere_misses(checker, chord, radius, (r, b))
            }
        }
    }
}

/// Whether a sphere whose centre runs along the chord `c0 c1` (up to `spread` off it) misses
/// a body that does not move, from lower bounds `d0`, `d1` on its distance to the body at
/// the chord's ends alone: a point's distance to a fixed set changes no faster than the point
/// moves, so along a chord of length `L` it stays above `(d₀ + d₁ − L) / 2` plus the radius
/// (the two ends' bounds meet there), which must exceed `spread`. No kernel is called; where
/// this fails, [`swept_sphere_clears`] tests the capsule itself.
#[inline]
fn ends_clear_chord((d0, d1): (Real, Real), (c0, c1): (Point3, Point3), spread: Real) -> bool {
    d0 + d1 > (c1 - c0).norm() + 2.0 * spread
}

/// Whether the capsule about the chord `c0 c1` with `radius` misses body `b` of robot `r`:
/// first by sufficient tests with no kernel — for a box, one of its face normals between
/// them (on MotionBenchMaker most chords that reach this test lie beside a board along its
/// normal), for a cylinder, a cap's plane or the axis line far enough — then by the capsule's
/// distance.
#[inline]
fn swept_sphere_clears(
    checker: &CellChecker<'_>,
    chord: (Point3, Point3),
    radius: Real,
    obstacle: (usize, usize),
) -> bool {
    separated_by_a_face(checker, chord, radius, obstacle)
        || swept_sphere_misses(checker, chord, radius, obstacle)
}

/// Whether the capsule about the chord `c0 c1` with `radius` misses body `b` of robot `r`, by
/// its distance.
#[inline]
fn swept_sphere_misses(
    checker: &CellChecker<'_>,
    (c0, c1): (Point3, Point3),
    radius: Real,
    (r, b): (usize, usize),
) -> bool {
    let swept = Capsule::from_finite(Segment::from_finite(c0, c1), radius);
    checker.distance_to_body(&Shape::Capsule(swept), r, b) > 0.0
}

/// [`swept_sphere_clears`]'s tests without a kernel: a face normal of a box, or a cylinder's
/// cap plane or axis line, with the capsule about the chord `c0 c1` of `radius` wholly beyond.
#[inline]
fn separated_by_a_face(
    checker: &CellChecker<'_>,
    (c0, c1): (Point3, Point3),
    radius: Real,
    (r, b): (usize, usize),
) -> bool {
    match checker.body_solid(r, b) {
        Some(Shape::Box(solid)) => solid.face_axis_separates_capsule(&c0, &c1, radius),
        Some(Shape::Cylinder(solid)) => solid.separates_capsule(&c0, &c1, radius),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::{OrientedBox, Sphere};
    use crate::math::Vector3;
    use crate::query::{capsule_box, sphere_box};
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Whenever the ends alone clear a chord, the capsule about it (the sphere's radius grown
    /// by the spread) misses the box, by the exact capsule–box distance; and the test is not
    /// vacuous (it clears some chords, and fails some whose capsule misses too).
    #[test]
    fn ends_that_clear_a_chord_clear_its_capsule() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let point = |rng: &mut ChaCha8Rng, span: Real| {
            Point3::new(
                rng.random_range(-span..span),
                rng.random_range(-span..span),
                rng.random_range(-span..span),
            )
        };
        let (mut cleared, mut left) = (0, 0);
        for _ in 0..20_000 {
            let rpy = [0; 3].map(|_| rng.random_range(-3.2..3.2));
            let half = Vector3::new(
                rng.random_range(0.0..0.5),
                rng.random_range(0.0..0.5),
                rng.random_range(0.0..0.5),
            );
            let solid = OrientedBox::from_rpy(point(&mut rng, 0.5), rpy, half).unwrap();
            let (c0, c1) = (point(&mut rng, 1.5), point(&mut rng, 1.5));
            let radius = rng.random_range(0.0..0.2);
            let spread = rng.random_range(0.0..0.1);
            // The pair's distances at the ends, shrunk at random: lower bounds, as the motion
            // check may hold.
            let end = |c: Point3, rng: &mut ChaCha8Rng| {
                let d = sphere_box(&Sphere::new(c, radius).unwrap(), &solid).distance;
                d - rng.random_range(0.0..0.05)
            };
            let ends = (end(c0, &mut rng), end(c1, &mut rng));
            let swept = Capsule::new(c0, c1, radius + spread).unwrap();
            let apart = capsule_box(&swept, &solid).distance > 0.0;
            if ends_clear_chord(ends, (c0, c1), spread) {
                assert!(
                    apart,
                    "{c0} → {c1}, r {radius} + {spread}: the capsule meets the box"
                );
                cleared += 1;
            } else if apart {
                left += 1;
            }
        }
        assert!(
            cleared > 1000 && left > 100,
            "{cleared} cleared, {left} left"
        );
    }
}
