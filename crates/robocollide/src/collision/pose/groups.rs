//! [`CellPose`]'s culling groups (a link's bodies, an obstacle; see `culling_groups`): which
//! group a body belongs to, and each group's bounding sphere at the posed configuration — the
//! search's groups placed at every pose, the motion check's placed on request
//! ([`CellPose::place_motion_groups`]).

use super::CellPose;
use crate::collision::core::Core;
use crate::collision::culling_groups::Group;
use crate::kinematics::Frame;
use crate::math::{Point3, Real};
use crate::robot::Cell;

impl CellPose {
    /// World bounding spheres of the search's culling groups of robot `only` (of every robot
    /// if `None`). In a cell with obstacles, a group of bodies no one link carries gets a
    /// sphere around its posed cores' bounding spheres, recomputed at every pose (so that such
    /// a whole robot can still be culled against a far obstacle).
    #[inline(always)]
    pub(super) fn place_groups(&mut self, only: Option<usize>) {
        let posed = &mut self.posed;
        let cull = culling_cores(self.world_to_cull, &posed.cores, &self.first_body);
        let groups = &self.search.groups;
        // (Loops, not a shared closure: a closure is compiled apart from the wide build of
        // a contact query, `crate::wide`.)
        match only {
            Some(r) => {
                for &g in &self.robot_groups[r] {
                    posed.group_spheres[g] = placed_sphere(&groups[g], &posed.frames, cull);
                }
            }
            None => {
                for (sphere, group) in posed.group_spheres.iter_mut().zip(groups) {
                    *sphere = placed_sphere(group, &posed.frames, cull);
                }
            }
        }
    }

    /// Poses `q`'s frames and the search groups' spheres, the robots' bodies left to
    /// [`Self::place_bodies`] where every group's sphere (the motion check's too, placed on
    /// request) follows from the frames alone; elsewhere as [`Self::pose`]. For a
    /// certificate that may settle every block by the groups and the lane screen, which read
    /// no body at this pose (on MotionBenchMaker the screen settles 95 % of the blocks its
    /// bounds leave open).
    #[inline(always)]
    pub(in crate::collision) fn pose_groups(&mut self, cell: &Cell, q: &[Real]) {
        self.pose_frames(cell, q);
        // (`groups_from_frames` implies `groups_alone`, so the groups are placed alone.)
        if !(self.groups_from_frames && self.place_groups_alone()) {
            self.place_bodies(cell);
        }
    }

    /// Places the search groups' spheres of every robot whose bodies are pending, from its
    /// frames alone, leaving the bodies pending; `false` (nothing placed) where some group's
    /// sphere is not one link's. A contact query then places only the groups it must search
    /// ([`Self::place_group_bodies`]); [`Self::place_bodies`] places the rest (the bodies
    /// these groups' queries placed again, to the same values).
    #[inline(always)]
    pub(in crate::collision) fn place_groups_alone(&mut self) -> bool {
        if !self.groups_alone {
            return false;
        }
        for i in 0..self.moving.len() {
            let r = self.moving[i];
            if self.posed.pending[r] && !self.posed.groups_placed[r] {
                self.place_groups(Some(r));
                self.posed.groups_placed[r] = true;
            }
        }
        true
    }

    /// Places search group `g`'s spheres at the posed frames if its robot's bodies are
    /// pending (the centres [`Self::place_bodies`] gives them). Only for a pose whose groups
    /// are placed alone ([`Self::place_groups_alone`]).
    #[inline(always)]
    pub(in crate::collision) fn place_group_bodies(&mut self, g: usize) {
        let r = self.search.groups[g].robot;
        if !self.posed.pending[r] {
            return;
        }
        let (frames, cores) = (&self.posed.frames[r], &mut self.posed.cores);
        for &(b, frame, centre) in &self.group_sphere_bodies[g] {
            cores[b].start = frames[frame].apply(&centre);
        }
    }

    /// Places the motion check's group spheres at the last posed configuration, unless they
    /// are placed already. (Posing leaves them to this call: the search, which most poses
    /// serve, has no use for them. Before it, [`Self::motion_group_sphere`] computes each
    /// sphere when asked.)
    pub(in crate::collision) fn place_motion_groups(&mut self) {
        if !self.posed.motion_placed {
            self.place_motion_spheres(false);
        }
    }

    /// Places the motion check's group spheres (those of robots without joints too if
    /// `with_fixed`: they keep the ones placed at construction).
    pub(super) fn place_motion_spheres(&mut self, with_fixed: bool) {
        if let Some(motion) = &self.motion {
            let posed = &mut self.posed;
            let cull = culling_cores(self.world_to_cull, &posed.cores, &self.first_body);
            for (sphere, group) in posed.motion_spheres.iter_mut().zip(&motion.groups) {
                if with_fixed || !self.fixed[group.robot] {
                    *sphere = placed_sphere(group, &posed.frames, cull);
                }
            }
        }
        self.posed.motion_placed = true;
    }

    /// The index of flat body `b` among its group's bodies.
    pub(in crate::collision) fn member_of(&self, b: usize) -> usize {
        self.body_member[b]
    }

    /// The search's culling group of flat body `b`: bodies with all anchors on one link
    /// share a bounding sphere fixed in that link (a robot with a body across joints, as DH
    /// capsules are, forms one group; see `culling_groups`).
    pub(in crate::collision) fn group_of(&self, b: usize) -> usize {
        self.search.body_group[b]
    }

    /// The robot of flat body `b`.
    pub(in crate::collision) fn robot_of(&self, b: usize) -> usize {
        self.body_robot[b]
    }

    /// `true` if search group `g` has a bounding sphere fixed in a link.
    pub(in crate::collision) fn cullable(&self, g: usize) -> bool {
        self.search.groups[g].link.is_some()
    }

    /// World bounding spheres of the search groups, by group (infinite radius: never culled).
    #[inline]
    pub(in crate::collision) fn group_spheres(&self) -> &[(Point3, Real)] {
        &self.posed.group_spheres
    }

    /// World bounding sphere of search group `g` (see [`Self::group_spheres`]).
    #[inline]
    pub(in crate::collision) fn group_sphere(&self, g: usize) -> (Point3, Real) {
        self.posed.group_spheres[g]
    }

    /// The motion check's culling group of flat body `b`: bodies carried rigidly by one
    /// link, DH capsules included, share a bounding sphere fixed in that link.
    pub(in crate::collision) fn motion_group_of(&self, b: usize) -> usize {
        self.motion.as_ref().unwrap_or(&self.search).body_group[b]
    }

    /// Motion group `g`'s robot, and its link with the bounding sphere fixed there (`None`
    /// for a group without one).
    pub(in crate::collision) fn motion_group_link(
        &self,
        g: usize,
    ) -> (usize, Option<(usize, Point3, Real)>) {
        let group = &self.motion.as_ref().unwrap_or(&self.search).groups[g];
        (
            group.robot,
            group.link.map(|l| (l, group.center, group.radius)),
        )
    }

    /// World bounding sphere of motion group `g` (infinite radius: never culled): placed by
    /// [`Self::place_motion_groups`] or, before that call, computed now.
    #[inline]
    pub(in crate::collision) fn motion_group_sphere(&self, g: usize) -> (Point3, Real) {
        match &self.motion {
            None => self.posed.group_spheres[g],
            Some(_) if self.posed.motion_placed => self.posed.motion_spheres[g],
            Some(motion) => placed_sphere(
                &motion.groups[g],
                &self.posed.frames,
                culling_cores(self.world_to_cull, &self.posed.cores, &self.first_body),
            ),
        }
    }

    /// Every motion group's world bounding sphere, as placed by
    /// [`Self::place_motion_groups`] for the last posed configuration.
    ///
    /// # Panics
    /// If the motion groups are not the search's and have not been placed since posing.
    #[inline]
    pub(in crate::collision) fn placed_motion_group_spheres(&self) -> &[(Point3, Real)] {
        match &self.motion {
            None => &self.posed.group_spheres,
            Some(_) => {
                assert!(self.posed.motion_placed, "motion groups not placed");
                &self.posed.motion_spheres
            }
        }
    }

    /// Where motion group `g`'s bounding sphere is fixed: `(robot, link, centre in the
    /// link's frame)`; `None` for a group without one.
    pub(in crate::collision) fn motion_group_anchor(
        &self,
        g: usize,
    ) -> Option<(usize, usize, Point3)> {
        let group = &self.motion.as_ref().unwrap_or(&self.search).groups[g];
        group.link.map(|link| (group.robot, link, group.center))
    }
}

/// The posed `cores` and each robot's first body, if groups without a link are culled by a
/// sphere around their robot's cores (`world_to_cull`).
#[inline(always)]
pub(super) fn culling_cores<'c>(
    world_to_cull: bool,
    cores: &'c [Core],
    first_body: &'c [usize],
) -> Option<(&'c [Core], &'c [usize])> {
    world_to_cull.then_some((cores, first_body))
}

/// The world bounding sphere of `group`, from the link `frames`; for a group without a link,
/// a sphere around its robot's posed cores when `cull` gives them (with each robot's first
/// body), else an infinite one.
#[inline(always)]
pub(super) fn placed_sphere(
    group: &Group,
    frames: &[Vec<Frame>],
    cull: Option<(&[Core], &[usize])>,
) -> (Point3, Real) {
    match (group.link, cull) {
        (Some(link), _) => (frames[group.robot][link].apply(&group.center), group.radius),
        (None, Some((cores, first_body))) => {
            enclosing_sphere(&cores[first_body[group.robot]..first_body[group.robot + 1]])
        }
        (None, None) => (Point3::origin(), Real::INFINITY),
    }
}

/// A sphere enclosing the bounding spheres of `cores`: around their bounding box, whose
/// half-diagonal is the radius (one square root per group, not per body: this runs at every
/// pose); an infinite one if any is unbounded or there are none.
pub(super) fn enclosing_sphere(cores: &[Core]) -> (Point3, Real) {
    let (mut low, mut high) = (
        crate::math::Vector3::repeat(Real::INFINITY),
        crate::math::Vector3::repeat(Real::NEG_INFINITY),
    );
    for core in cores {
        let (c, r) = core.bounding_sphere();
        low = low.inf(&(c.coords.add_scalar(-r)));
        high = high.sup(&(c.coords.add_scalar(r)));
    }
    let radius = 0.5 * (high - low).norm();
    if radius.is_finite() {
        (Point3::from((low + high) * 0.5), radius * (1.0 + 1e-12))
    } else {
        (Point3::origin(), Real::INFINITY)
    }
}
