//! [`CellValidity`]: one robot of a cell moves, the others stand still; configurations are
//! checked with [`CellChecker`], motions certified between their ends: by the two-ended
//! [`MotionCheck`] when only contact matters, by the guaranteed sweep (every evaluated point
//! kept at the clearance, see [`collision::sweep`](crate::collision::sweep)) with a clearance.

use crate::collision::{CellChecker, MotionCheck, MotionOutcomes, SweepMode, Trajectory, sweep};
use crate::error::{Error, Result};
use crate::math::Real;
use crate::planning::Validity;
use crate::robot::Cell;

/// Validity for robot `robot` of a cell, the others fixed at `fixed`.
#[derive(Debug, Clone)]
pub struct CellValidity<'a> {
    checker: CellChecker<'a>,
    motion: MotionCheck,
    robot: usize,
    fixed: Vec<Real>,
    offset: usize,
    clearance: Real,
    min_interval: Real,
    /// A motion's two whole-cell configurations (reused: no allocation per motion check).
    ends: (Vec<Real>, Vec<Real>),
    /// Configurations checked (for statistics).
    pub configurations_checked: usize,
    /// Motions checked (for statistics).
    pub motions_checked: usize,
}

impl<'a> CellValidity<'a> {
    /// `robot` moves; `fixed` holds every robot's configuration (the moving robot's values
    /// are ignored). A configuration is valid when every checked pair is more than `clearance`
    /// apart (`clearance = 0`: not in contact). `include_self` adds self-collision pairs.
    pub fn new(
        cell: &'a Cell,
        robot: usize,
        fixed: Vec<Real>,
        clearance: Real,
        include_self: bool,
    ) -> Result<Self> {
        if robot >= cell.robots.len() {
            return Err(Error::LengthMismatch {
                what: format!("robots in the cell (robot index {robot} is out of range)"),
                expected: robot + 1,
                got: cell.robots.len(),
            });
        }
        let checker = CellChecker::new(cell, include_self);
        checker.validate(&fixed)?;
        let motion = MotionCheck::new(&checker);
        if !(clearance.is_finite() && clearance >= 0.0) {
            return Err(Error::NonFinite {
                field: "clearance".into(),
                value: clearance,
            });
        }
        let offset = cell.robots[..robot].iter().map(|r| r.model.dof()).sum();
        Ok(Self {
            motion,
            checker,
            robot,
            fixed,
            offset,
            clearance,
            min_interval: 1e-6,
            ends: (Vec::new(), Vec::new()),
            configurations_checked: 0,
            motions_checked: 0,
        })
    }

    /// The full cell configuration with the moving robot at `q`.
    pub fn full(&self, q: &[Real]) -> Vec<Real> {
        let mut all = Vec::new();
        whole_cell(&mut all, &self.fixed, self.offset, q);
        all
    }
}

/// Writes into `out` the whole-cell configuration `fixed` with the moving robot's values,
/// starting at `offset`, replaced by `q`.
fn whole_cell(out: &mut Vec<Real>, fixed: &[Real], offset: usize, q: &[Real]) {
    out.clear();
    out.extend_from_slice(fixed);
    out[offset..offset + q.len()].copy_from_slice(q);
}

impl Validity for CellValidity<'_> {
    fn dof(&self) -> usize {
        self.checker.cell().robots[self.robot].model.dof()
    }

    fn bounds(&self) -> Vec<(Real, Real)> {
        let tree = self.checker.cell().robots[self.robot].model.tree();
        (0..tree.dof()).map(|v| tree.sampling_range(v)).collect()
    }

    fn is_valid(&mut self, q: &[Real]) -> bool {
        self.configurations_checked += 1;
        let all = &mut self.ends.0;
        whole_cell(all, &self.fixed, self.offset, q);
        if self.checker.validate(all).is_err() || !self.checker.limit_violations(all).is_empty() {
            return false;
        }
        self.checker.pose(all);
        if self.clearance == 0.0 {
            // Only contact matters: stop at the first pair in contact.
            return !self.checker.in_contact();
        }
        self.checker
            .closest()
            .is_none_or(|c| c.distance > self.clearance)
    }

    fn set_planner_step(&mut self, step: Real) {
        self.motion.set_planner_step(step);
    }

    /// The two-ended motion check's counts; `None` with a clearance, whose motions the
    /// guaranteed sweep checks instead.
    fn motion_outcomes(&self) -> Option<MotionOutcomes> {
        (self.clearance == 0.0).then(|| self.motion.outcomes())
    }

    fn motion_valid(&mut self, a: &[Real], b: &[Real]) -> bool {
        self.motions_checked += 1;
        if self.clearance == 0.0 {
            // Only contact matters: the two-ended certificate over the pairs still uncertain.
            let (qa, qb) = &mut self.ends;
            whole_cell(qa, &self.fixed, self.offset, a);
            whole_cell(qb, &self.fixed, self.offset, b);
            return self
                .motion
                .free(&mut self.checker, qa, qb, self.min_interval);
        }
        let Ok(trajectory) =
            Trajectory::new(vec![], vec![0.0, 1.0], vec![self.full(a), self.full(b)])
        else {
            return false;
        };
        // With a clearance, a motion is valid when no evaluated point comes within it; the
        // certification between points is for contact (distance 0).
        match sweep(
            &mut self.checker,
            &trajectory,
            SweepMode::Guaranteed {
                min_interval: self.min_interval,
            },
            |_, _| {},
        ) {
            Ok(report) => {
                report.certified_free()
                    && report.samples.iter().all(|s| s.distance > self.clearance)
            }
            Err(_) => false,
        }
    }
}
