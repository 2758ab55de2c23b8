//! [`CellPose`]: the one place that poses robots — a cell configuration `q` (all robots'
//! variables, concatenated in cell order) to every robot's link frames and every body's world
//! core ([`Core`]). The checker, sweeps, velocity filter and planner all pose through it.
//!
//! Forward kinematics runs only as far as the bodies need: joints after the last one on a path
//! to a link that carries a body are skipped (seed 000's standard model needs frames 0–3 of a
//! six-joint arm). Anchors at a link's origin (most of seed 000's) need no rotation.

use super::core::{Core, CoreLength, invariant_length};
use crate::kinematics::Frame;
use crate::math::{Point3, Real};
use crate::robot::{Anchor, BodyShape, Cell};

/// Link frames and body cores of every robot of a cell at the last posed configuration.
#[derive(Debug, Clone)]
pub struct CellPose {
    frames: Vec<Vec<Frame>>,
    /// Per robot, how many joints (in topological order) posing must evaluate.
    joints_needed: Vec<usize>,
    /// Start of each robot's values in `q` (one more entry: the total).
    offsets: Vec<usize>,
    /// Start of each robot's bodies in `cores` (one more entry: the total).
    first_body: Vec<usize>,
    /// Per body (flat), its core's length terms when they do not depend on the joints.
    fixed_lengths: Vec<Option<CoreLength>>,
    cores: Vec<Core>,
    /// Forward kinematics' scratch buffer.
    scratch: Vec<(Real, Real)>,
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
        let joints_needed = cell
            .robots
            .iter()
            .map(|r| {
                let tree = r.model.tree();
                r.model
                    .bodies
                    .iter()
                    .flat_map(|b| b.anchors().map(|a| a.frame))
                    .filter_map(|link| tree.path_to(link).last().map(|j| j + 1))
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        Self {
            frames: cell
                .robots
                .iter()
                .map(|r| vec![Frame::IDENTITY; r.model.tree().links().len()])
                .collect(),
            joints_needed,
            fixed_lengths: cell
                .robots
                .iter()
                .flat_map(|r| r.model.bodies.iter().map(|b| invariant_length(&r.model, b)))
                .collect(),
            cores: Vec::with_capacity(first_body[cell.robots.len()]),
            offsets,
            first_body,
            scratch: Vec::new(),
        }
    }

    /// Poses every robot of `cell` (the cell this pose was built for) at `q`; `q` is not
    /// validated (see [`CellChecker::validate`](super::CellChecker::validate)).
    pub fn pose(&mut self, cell: &Cell, q: &[Real]) {
        self.cores.clear();
        for (r, robot) in cell.robots.iter().enumerate() {
            let qr = &q[self.offsets[r]..self.offsets[r + 1]];
            let frames = &mut self.frames[r];
            robot.model.forward_kinematics().forward_prefix_into(
                qr,
                self.joints_needed[r],
                frames,
                &mut self.scratch,
            );
            let frames = &*frames;
            let world = |anchor: &Anchor| {
                let frame = &frames[anchor.frame];
                if anchor.at == Point3::origin() {
                    Point3::from(frame.origin)
                } else {
                    frame.apply(&anchor.at)
                }
            };
            let lengths = &self.fixed_lengths[self.first_body[r]..];
            self.cores.extend(
                robot
                    .model
                    .bodies
                    .iter()
                    .zip(lengths)
                    .map(|(body, length)| match &body.shape {
                        BodyShape::Sphere { center, radius } => Core::point(world(center), *radius),
                        BodyShape::Capsule { a, b, radius } => {
                            Core::new(world(a), world(b), *radius, false, *length)
                        }
                        BodyShape::Cylinder { a, b, radius } => {
                            Core::new(world(a), world(b), *radius, true, *length)
                        }
                    }),
            );
        }
    }

    /// Link frames of robot `r` at the last posed configuration (links beyond the last body
    /// are not updated).
    pub fn frames(&self, r: usize) -> &[Frame] {
        &self.frames[r]
    }

    /// The slice of `q` (all robots concatenated) that belongs to robot `r`.
    pub fn robot_q<'q>(&self, q: &'q [Real], r: usize) -> &'q [Real] {
        &q[self.offsets[r]..self.offsets[r + 1]]
    }

    /// Total number of configuration values.
    pub fn dof(&self) -> usize {
        self.offsets[self.offsets.len() - 1]
    }

    /// Index of body `b` of robot `r` among all bodies.
    pub(super) fn flat_body(&self, r: usize, b: usize) -> usize {
        self.first_body[r] + b
    }

    /// The posed cores, flat.
    pub(super) fn cores(&self) -> &[Core] {
        &self.cores
    }
}
