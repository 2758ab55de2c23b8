//! [`CellPose`]: the one place that poses robots — a cell configuration `q` (all robots'
//! variables, concatenated in cell order) to every robot's link frames and every body's world
//! core ([`Core`]). The checker, sweeps, velocity filter and planner all pose through it.
//!
//! Forward kinematics runs only as far as the bodies need: joints after the last one on a path
//! to a link that carries a body are skipped (seed 000's standard model needs frames 0–3 of a
//! six-joint arm). Anchors at a link's origin (most of seed 000's) need no rotation.
//!
//! Posing has two halves: link frames ([`CellPose::pose_frames`]), then bodies and culling
//! groups ([`CellPose::place_bodies`]); [`CellPose::pose`] does both. A contact query may stop
//! after the first and place single spheres ([`CellPose::place_body`]): on MotionBenchMaker half
//! of a planner's rejected configurations are settled by a recent contact's pair, and placing a
//! Panda's 59 spheres and its groups was nearly half of a pose's cost. Past those pairs it may
//! place the groups' spheres alone and then the bodies of only the groups it searches
//! ([`CellPose::place_groups_alone`], [`CellPose::place_group_bodies`]).

mod groups;

use super::core::{Core, CoreLength, invariant_length};
use super::culling_groups::Grouping;
use super::point_solid::Solid;
use crate::geom::{Aabb, Shape};
use crate::kinematics::Frame;
use crate::math::{Point3, Real, max_abs};
use crate::robot::{Anchor, BodyShape, Cell};

/// Link frames and body cores of every robot of a cell at the last posed configuration.
#[derive(Debug, Clone)]
pub struct CellPose {
    /// The last posed configuration.
    posed: Posed,
    /// The two before it, the most recent first (see [`CellPose::pose`]).
    earlier: [Posed; 2],
    /// Per robot, how many joints (in topological order) posing must evaluate.
    joints_needed: Vec<usize>,
    /// Start of each robot's values in `q` (one more entry: the total).
    offsets: Vec<usize>,
    /// Start of each robot's bodies in `cores` (one more entry: the total).
    first_body: Vec<usize>,
    /// Per body (flat), its core's length terms when they do not depend on the joints.
    fixed_lengths: Vec<Option<CoreLength>>,
    /// Robots without joints (static scenes, the world's obstacles): posed once, at creation.
    fixed: Vec<bool>,
    /// Their part of [`CellPose::magnitude`], taken at creation.
    fixed_magnitude: Real,
    /// The other robots, in order: the only ones posing visits (a scene may hold hundreds of
    /// obstacles).
    moving: Vec<usize>,
    /// Whether the cell has obstacles (bodies of a robot without joints) worth culling a
    /// whole robot against: only then do multi-link groups get a sphere at every pose (it
    /// costs ~0.06 µs per pose for two DH arms, which alone rarely cull each other).
    world_to_cull: bool,
    /// The search's culling groups (see [`CellPose::group_of`]).
    search: Grouping,
    /// Per robot, the search's groups of its bodies (posing one robot places only these).
    robot_groups: Vec<Vec<usize>>,
    /// Per body (flat), its index among its search group's bodies.
    body_member: Vec<usize>,
    /// The motion check's culling groups (see [`CellPose::motion_group_of`]); `None` when
    /// they are the search's.
    motion: Option<Grouping>,
    /// Forward kinematics' scratch buffer.
    scratch: Vec<(Real, Real)>,
    /// Per robot, its spheres by the link frame that carries them, as `(frame, [(body,
    /// centre in the frame)])`: posing one moves only its centre, in a loop of its own that
    /// reads each frame once (most bodies of a planner's robot model are spheres, a few
    /// per link).
    sphere_centres: Vec<Vec<SpheresOnFrame>>,
    /// Per robot, its other bodies (posed by the general match in `place_robot_bodies`, whose
    /// sphere arm serves only to keep it exhaustive).
    other_bodies: Vec<Vec<usize>>,
    /// Per body (flat), for a sphere: its link frame and centre there, as in `sphere_centres`
    /// (so that [`CellPose::place_body`] places it alone).
    sphere_anchors: Vec<Option<(usize, Point3)>>,
    /// Per body (flat), its robot.
    body_robot: Vec<usize>,
    /// Per search group, its spheres as `(flat body, link frame, centre there)`, and whether
    /// every group of every robot with joints is one link's spheres alone (then a contact
    /// query may place the groups first and the bodies group by group: `groups.rs`).
    group_sphere_bodies: Vec<Vec<(usize, usize, Point3)>>,
    groups_alone: bool,
    /// Whether, besides, the motion check's own groups (where it has its own) of the robots
    /// with joints each lie on a link: then every group sphere follows from the frames alone
    /// ([`CellPose::pose_groups`]).
    groups_from_frames: bool,
    /// Per body (flat), for a box or cylinder of a robot without joints (an obstacle): its
    /// world-aligned box, fixed once posed at creation (see [`CellPose::fixed_box`]).
    fixed_boxes: Vec<Option<Aabb>>,
    /// Per body (flat), for an obstacle's box or cylinder: its [`Solid`] and how far from the
    /// origin it reaches (see [`CellPose::fixed_solid_beyond`]).
    fixed_solids: Vec<Option<(Solid, Real)>>,
}

/// A link frame and the spheres it carries, as `(body, centre in the frame)`.
type SpheresOnFrame = (usize, Vec<(usize, Point3)>);

/// Everything posing writes: link frames, body cores and solids, group spheres, and per robot
/// the values it was posed at.
#[derive(Debug, Clone)]
struct Posed {
    frames: Vec<Vec<Frame>>,
    cores: Vec<Core>,
    /// Per body (flat), the posed box, half-space or cylinder (`None` for the other kinds,
    /// which their core describes).
    solids: Vec<Option<Shape>>,
    group_spheres: Vec<(Point3, Real)>,
    /// The motion check's group spheres (empty when its groups are the search's), and
    /// whether they are placed for this pose (see [`CellPose::place_motion_groups`]).
    motion_spheres: Vec<(Point3, Real)>,
    motion_placed: bool,
    /// Per robot, the values it was last posed at (empty: not posed yet): a robot whose
    /// values are bit for bit the same is not posed again (a planner moves one robot of a
    /// cell; the others stand).
    posed_at: Vec<Vec<Real>>,
    /// Per robot, whether only its frames are posed at those values, its bodies and groups
    /// not yet placed (see [`CellPose::pose_frames`]).
    pending: Vec<bool>,
    /// Per robot whose bodies are pending, whether its search groups' spheres are placed
    /// already ([`CellPose::place_groups_alone`]).
    groups_placed: Vec<bool>,
}

impl CellPose {
    /// Buffers and precomputed terms for `cell`.
    pub fn new(cell: &Cell) -> Self {
        let running = |sizes: &mut dyn Iterator<Item = usize>| {
            let mut out = vec![0];
            for n in sizes {
                out.push(out[out.len() - 1] + n);
            }
            out
        };
        let offsets = running(&mut cell.robots.iter().map(|r| r.model.dof()));
        let first_body = running(&mut cell.robots.iter().map(|r| r.model.bodies.len()));
        let search = Grouping::for_search(cell);
        let motion = Grouping::for_motion(cell, &search);
        let mut robot_groups = vec![Vec::new(); cell.robots.len()];
        for (g, group) in search.groups.iter().enumerate() {
            robot_groups[group.robot].push(g);
        }
        // Each body's index among its group's bodies, counted in one pass.
        let mut counts = vec![0; search.groups.len()];
        let body_member = search
            .body_group
            .iter()
            .map(|&g| {
                counts[g] += 1;
                counts[g] - 1
            })
            .collect();
        let unplaced = |g: &Grouping| vec![(Point3::origin(), Real::INFINITY); g.groups.len()];
        let group_spheres = unplaced(&search);
        let motion_spheres = motion.as_ref().map(unplaced).unwrap_or_default();
        let joints_needed = cell
            .robots
            .iter()
            .map(|r| {
                let tree = r.model.tree();
                r.model
                    .bodies
                    .iter()
                    .flat_map(|b| b.anchors().map(|a| a.frame))
                    .filter_map(|link| tree.parent_joint(link).map(|j| j + 1))
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let posed = Posed {
            frames: cell
                .robots
                .iter()
                .map(|r| vec![Frame::IDENTITY; r.model.tree().links().len()])
                .collect(),
            // Spheres keep everything but their centre from pose to pose.
            cores: cell
                .robots
                .iter()
                .flat_map(|r| {
                    r.model
                        .bodies
                        .iter()
                        .map(|b| Core::point(Point3::origin(), b.radius()))
                })
                .collect(),
            solids: vec![None; first_body[first_body.len() - 1]],
            group_spheres,
            motion_spheres,
            motion_placed: false,
            posed_at: vec![Vec::new(); cell.robots.len()],
            pending: vec![false; cell.robots.len()],
            groups_placed: vec![false; cell.robots.len()],
        };
        // Each robot's bodies split once: spheres (only their centre moves) and the rest.
        let (sphere_centres, other_bodies): (Vec<Vec<SpheresOnFrame>>, Vec<Vec<usize>>) = cell
            .robots
            .iter()
            .map(|r| {
                let (mut spheres, mut others) = (Vec::<SpheresOnFrame>::new(), Vec::new());
                for (b, body) in r.model.bodies.iter().enumerate() {
                    match &body.shape {
                        BodyShape::Sphere { center, .. } => {
                            match spheres.iter_mut().find(|(f, _)| *f == center.frame) {
                                Some((_, on_frame)) => on_frame.push((b, center.at)),
                                None => spheres.push((center.frame, vec![(b, center.at)])),
                            }
                        }
                        _ => others.push(b),
                    }
                }
                (spheres, others)
            })
            .unzip();
        // The same frames and centres by body, for placing one sphere alone.
        let mut sphere_anchors = vec![None; first_body[first_body.len() - 1]];
        for (r, on_frames) in sphere_centres.iter().enumerate() {
            for (frame, spheres) in on_frames {
                for &(b, centre) in spheres {
                    sphere_anchors[first_body[r] + b] = Some((*frame, centre));
                }
            }
        }
        let body_robot = (0..cell.robots.len())
            .flat_map(|r| std::iter::repeat_n(r, cell.robots[r].model.bodies.len()))
            .collect();
        let mut group_sphere_bodies = vec![Vec::new(); search.groups.len()];
        for (b, anchor) in sphere_anchors.iter().enumerate() {
            if let Some((frame, centre)) = anchor {
                group_sphere_bodies[search.body_group[b]].push((b, *frame, *centre));
            }
        }
        let groups_alone = (0..cell.robots.len())
            .filter(|&r| cell.robots[r].model.dof() > 0)
            .all(|r| {
                other_bodies[r].is_empty()
                    && robot_groups[r].iter().all(|&g| {
                        let group = &search.groups[g];
                        group.link.is_some() && group.radius.is_finite()
                    })
            });
        let groups_from_frames = groups_alone
            && motion.as_ref().is_none_or(|m| {
                m.groups
                    .iter()
                    .all(|g| cell.robots[g.robot].model.dof() == 0 || g.link.is_some())
            });
        let mut pose = Self {
            earlier: [posed.clone(), posed.clone()],
            posed,
            fixed: cell.robots.iter().map(|r| r.model.dof() == 0).collect(),
            fixed_magnitude: 0.0,
            moving: (0..cell.robots.len())
                .filter(|&r| cell.robots[r].model.dof() > 0)
                .collect(),
            world_to_cull: cell
                .robots
                .iter()
                .any(|r| r.model.dof() == 0 && !r.model.bodies.is_empty()),
            joints_needed,
            fixed_lengths: cell
                .robots
                .iter()
                .flat_map(|r| r.model.bodies.iter().map(|b| invariant_length(&r.model, b)))
                .collect(),
            offsets,
            first_body,
            scratch: Vec::new(),
            sphere_centres,
            other_bodies,
            sphere_anchors,
            body_robot,
            group_sphere_bodies,
            groups_alone,
            groups_from_frames,
            fixed_boxes: Vec::new(),
            fixed_solids: Vec::new(),
            search,
            robot_groups,
            body_member,
            motion,
        };
        for r in 0..cell.robots.len() {
            if pose.fixed[r] {
                pose.pose_robot_frames(cell, r, &[]);
                pose.place_robot_bodies(cell, r);
            }
        }
        pose.fixed_boxes = (0..pose.posed.cores.len())
            .map(|b| {
                (pose.is_fixed(b) && pose.posed.cores[b].general)
                    .then(|| Aabb::of(&pose.shape(b)))
                    .flatten()
            })
            .collect();
        pose.fixed_solids = (0..pose.posed.cores.len())
            .map(|b| {
                let solid = pose.fixed_box(b).and_then(|_| Solid::of(&pose.shape(b)))?;
                let extent = solid.extent();
                Some((solid, extent))
            })
            .collect();
        pose.place_groups(None);
        pose.place_motion_spheres(true);
        pose.fixed_magnitude = (0..pose.search.groups.len())
            .filter(|&g| pose.fixed[pose.search.groups[g].robot])
            .map(|g| pose.group_magnitude(g))
            .fold(0.0, Real::max);
        // Every buffer holds the robots without joints (posed once, here).
        pose.earlier = [pose.posed.clone(), pose.posed.clone()];
        pose
    }

    /// Poses every robot of `cell` (the cell this pose was built for) at `q`; `q` is not
    /// validated (see [`CellChecker::validate`](super::CellChecker::validate)).
    ///
    /// The last three poses are kept: a pose that is one of them is swapped back in whole, and
    /// otherwise the least recent one is updated, only its robots whose values differ. A
    /// planner's motion check goes back and forth: its end, a midpoint searched for contact,
    /// the end again, its start, the end once more, then the same midpoint for the certificate
    /// (bit for bit: both are `qa + (qb − qa)·0.5`). A kept pose whose bodies were left
    /// unplaced (`Self::pose_frames`) gets them placed now.
    #[inline(always)]
    pub fn pose(&mut self, cell: &Cell, q: &[Real]) {
        self.pose_frames(cell, q);
        self.place_bodies(cell);
    }

    /// [`Self::pose`]'s first half: link frames only, the robots' bodies and groups left to
    /// [`Self::place_bodies`] (or, one sphere at a time, [`Self::place_body`]). A contact
    /// query settled by a recent contact's pair needs only that pair's two bodies. Until
    /// `place_bodies`, only those placed so may be read.
    #[inline(always)]
    pub(in crate::collision) fn pose_frames(&mut self, cell: &Cell, q: &[Real]) {
        if self.posed_at(&self.posed, q) {
            return;
        }
        if self.posed_at(&self.earlier[0], q) {
            std::mem::swap(&mut self.posed, &mut self.earlier[0]);
            return;
        }
        // The least recent becomes the one to update (or is `q` already): the others move
        // down one place.
        let [recent, least] = &mut self.earlier;
        std::mem::swap(&mut self.posed, least);
        std::mem::swap(least, recent);
        for i in 0..self.moving.len() {
            let r = self.moving[i];
            let qr = &q[self.offsets[r]..self.offsets[r + 1]];
            if same_values(&self.posed.posed_at[r], qr) {
                continue;
            }
            self.pose_robot_frames(cell, r, qr);
            self.posed.posed_at[r].clear();
            self.posed.posed_at[r].extend_from_slice(qr);
            self.posed.pending[r] = true;
            self.posed.groups_placed[r] = false;
            self.posed.motion_placed = false;
        }
    }

    /// Places the bodies and search groups of every robot whose frames alone are posed
    /// ([`Self::pose_frames`]).
    #[inline(always)]
    pub(in crate::collision) fn place_bodies(&mut self, cell: &Cell) {
        for i in 0..self.moving.len() {
            let r = self.moving[i];
            if self.posed.pending[r] {
                self.place_robot_bodies(cell, r);
                if !self.posed.groups_placed[r] {
                    self.place_groups(Some(r));
                }
                self.posed.pending[r] = false;
            }
        }
    }

    /// Whether every body is placed at the posed configuration (nothing left pending by
    /// [`Self::pose_frames`]).
    pub(in crate::collision) fn all_placed(&self) -> bool {
        !self.posed.pending.contains(&true)
    }

    /// Places flat body `b` at the posed frames if it is a sphere of a robot whose bodies
    /// are pending (the same centre [`Self::place_bodies`] gives it); whether `b` is placed
    /// now (`false`: another kind of body still pending).
    #[inline(always)]
    pub(in crate::collision) fn place_body(&mut self, b: usize) -> bool {
        let r = self.body_robot[b];
        if !self.posed.pending[r] {
            return true;
        }
        match &self.sphere_anchors[b] {
            Some((frame, centre)) => {
                self.posed.cores[b].start = self.posed.frames[r][*frame].apply(centre);
                true
            }
            None => false,
        }
    }

    /// Whether `posed` holds every robot with joints at its values in `q`.
    #[inline(always)]
    fn posed_at(&self, posed: &Posed, q: &[Real]) -> bool {
        self.moving
            .iter()
            .all(|&r| same_values(&posed.posed_at[r], &q[self.offsets[r]..self.offsets[r + 1]]))
    }

    /// Poses robot `r`'s link frames at its values `qr`.
    #[inline(always)]
    fn pose_robot_frames(&mut self, cell: &Cell, r: usize, qr: &[Real]) {
        cell.robots[r]
            .model
            .forward_kinematics()
            .forward_prefix_into(
                qr,
                self.joints_needed[r],
                &mut self.posed.frames[r],
                &mut self.scratch,
            );
    }

    /// Places robot `r`'s bodies' cores and solids at its posed frames.
    #[inline(always)]
    fn place_robot_bodies(&mut self, cell: &Cell, r: usize) {
        let robot = &cell.robots[r];
        let frames = &self.posed.frames[r];
        let world = |anchor: &Anchor| {
            let frame = &frames[anchor.frame];
            if anchor.at == Point3::origin() {
                Point3::from(frame.origin)
            } else {
                frame.apply(&anchor.at)
            }
        };
        let first = self.first_body[r];
        let cores = &mut self.posed.cores[first..];
        for (frame, spheres) in &self.sphere_centres[r] {
            let frame = &frames[*frame];
            for (b, centre) in spheres {
                cores[*b].start = frame.apply(centre);
            }
        }
        for &i in &self.other_bodies[r] {
            let (body, length, core) = (
                &robot.model.bodies[i],
                &self.fixed_lengths[first + i],
                &mut cores[i],
            );
            match &body.shape {
                BodyShape::Sphere { center, .. } => core.start = world(center),
                BodyShape::Capsule { a, b, radius } => {
                    *core = Core::new(world(a), world(b), *radius, false, *length);
                }
                BodyShape::Cylinder { a, b, radius } => {
                    let (pa, pb) = (world(a), world(b));
                    *core = Core::new(pa, pb, *radius, true, *length);
                    // Kept whole too, so that queries need not rebuild it (a cylinder derives
                    // its unit axis and length: ~5 % of a planner's time did). A zero-length
                    // axis stays a sphere, as the core says.
                    self.posed.solids[first + i] = ((pb - pa).norm_squared() > 0.0).then(|| {
                        Shape::Cylinder(crate::geom::Cylinder::from_axis(
                            crate::geom::Segment::from_finite(pa, pb),
                            *radius,
                        ))
                    });
                }
                BodyShape::Box { center, .. } | BodyShape::Plane { point: center, .. } => {
                    // Boxes and half-spaces keep their whole posed shape (touched only here:
                    // the solids are large, and most robots have none).
                    let reach = body.reach();
                    let radius = if reach.is_finite() { reach } else { 0.0 };
                    *core = Core::solid(world(center), radius, reach);
                    self.posed.solids[first + i] = Some(body.world_shape(frames));
                }
            }
        }
    }

    /// The posed box, half-space or cylinder of flat body `b` (`None` for spheres and
    /// capsules, which their core describes), without copying it.
    #[inline]
    pub(super) fn solid(&self, b: usize) -> Option<&Shape> {
        self.posed.solids[b].as_ref()
    }

    /// World shape of flat body `b` at the last posed configuration.
    pub(super) fn shape(&self, b: usize) -> Shape {
        self.posed.solids[b].unwrap_or_else(|| self.posed.cores[b].shape())
    }

    /// An upper bound on the largest absolute coordinate (plus radius) of any posed body: the
    /// robots without joints' part kept from creation, the others' taken from their groups.
    #[inline(always)]
    pub(super) fn magnitude(&self) -> Real {
        let mut magnitude = self.fixed_magnitude;
        for &r in &self.moving {
            for &g in &self.robot_groups[r] {
                magnitude = magnitude.max(self.group_magnitude(g));
            }
        }
        magnitude
    }

    /// An upper bound on the largest absolute coordinate (plus radius) of search group `g`'s
    /// posed bodies: its sphere's, or for a group no one link carries, its cores'.
    #[inline(always)]
    fn group_magnitude(&self, g: usize) -> Real {
        let group = &self.search.groups[g];
        if group.link.is_some() && group.radius.is_finite() {
            let sphere = self.posed.group_spheres[g];
            max_abs(&sphere.0.coords) + sphere.1
        } else {
            let (first, end) = (
                self.first_body[group.robot],
                self.first_body[group.robot + 1],
            );
            self.posed.cores[first..end]
                .iter()
                .map(Core::magnitude)
                .fold(0.0, Real::max)
        }
    }

    /// The world-aligned box of flat body `b` when it is a box or cylinder that never moves
    /// (an obstacle). A sphere's gap to it bounds the sphere's distance to the body from
    /// below where the gap is positive ([`Aabb::sphere_gap`]): nearly as tight as the exact
    /// distance for a scene's boxes, at a fraction of its cost.
    #[inline(always)]
    pub(super) fn fixed_box(&self, b: usize) -> Option<&Aabb> {
        self.fixed_boxes[b].as_ref()
    }

    /// Flat body `b`'s [`Solid`] and its extent when it is an obstacle's box or cylinder.
    #[inline(always)]
    pub(super) fn fixed_solid(&self, b: usize) -> Option<&(Solid, Real)> {
        self.fixed_solids[b].as_ref()
    }

    /// A lower bound on the distance from the ball about `centre` of `radius` to flat body
    /// `b`, where `b` has a [`fixed_box`](Self::fixed_box) and the ball's gap to it is
    /// positive (`None` otherwise: a centre inside the box is deeper in the solid than the
    /// gap's `−radius` says, so a gap that is not positive bounds nothing).
    #[inline(always)]
    pub(super) fn fixed_box_bound(&self, b: usize, centre: &Point3, radius: Real) -> Option<Real> {
        let gap = self.fixed_box(b)?.sphere_gap(centre, radius);
        (gap > 0.0).then_some(gap)
    }

    /// `true` if flat body `b` belongs to a robot without joints (an obstacle: posed once, at
    /// construction).
    pub(super) fn is_fixed(&self, b: usize) -> bool {
        self.body_robot.get(b).is_some_and(|&r| self.fixed[r])
    }

    /// Link frames of robot `r` at the last posed configuration (links beyond the last body
    /// are not updated).
    pub fn frames(&self, r: usize) -> &[Frame] {
        &self.posed.frames[r]
    }

    /// The slice of `q` (all robots concatenated) that belongs to robot `r`.
    pub fn robot_q<'q>(&self, q: &'q [Real], r: usize) -> &'q [Real] {
        &q[self.offsets[r]..self.offsets[r + 1]]
    }

    /// The robots with joints, in order.
    pub(in crate::collision) fn moving_robots(&self) -> &[usize] {
        &self.moving
    }

    /// Total number of configuration values.
    pub fn dof(&self) -> usize {
        self.offsets[self.offsets.len() - 1]
    }

    /// How many bodies the cell has, all robots together.
    pub(super) fn body_count(&self) -> usize {
        self.first_body[self.first_body.len() - 1]
    }

    /// Index of body `b` of robot `r` among all bodies.
    pub(super) fn flat_body(&self, r: usize, b: usize) -> usize {
        self.first_body[r] + b
    }

    /// The posed cores, flat.
    pub(super) fn cores(&self) -> &[Core] {
        &self.posed.cores
    }
}

/// Whether a robot's last posed values are `values`, bit for bit.
fn same_values(last: &[Real], values: &[Real]) -> bool {
    last.len() == values.len()
        && last
            .iter()
            .zip(values)
            .all(|(x, y)| x.to_bits() == y.to_bits())
}

#[cfg(test)]
mod tests;
