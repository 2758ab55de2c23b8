//! A small dense QP with a diagonal objective, linear inequalities and variable bounds,
//! solved with clarabel (Goulart & Chen, *Clarabel: an interior-point solver for conic
//! programs with quadratic objectives*, 2024):
//!
//! `minimise ½ Σ wᵢ (xᵢ − x̂ᵢ)²  subject to  G x ≤ h,  lo ≤ x ≤ hi`.

use clarabel::algebra::CscMatrix;
use clarabel::solver::{
    DefaultSettingsBuilder, DefaultSolver, IPSolver, SolverStatus, SupportedConeT,
};

use crate::math::Real;

/// Outcome of [`solve_box_qp`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum QpStatus {
    /// Solved (to full or reduced accuracy).
    Solved,
    /// The constraints cannot all hold.
    Infeasible,
    /// The solver stopped without an answer (iterations, numerics).
    Failed,
}

/// Solves the QP; returns the minimiser (or `None`) and the status. `rows` are the rows of
/// `G` (each of length `x_hat.len()`), `h` their bounds.
pub fn solve_box_qp(
    weights: &[Real],
    x_hat: &[Real],
    rows: &[Vec<Real>],
    h: &[Real],
    lo: &[Real],
    hi: &[Real],
) -> (Option<Vec<Real>>, QpStatus) {
    let n = x_hat.len();
    // P = diag(w) (upper triangle, CSC), q = −w ⊙ x̂.
    let p = CscMatrix::new(n, n, (0..=n).collect(), (0..n).collect(), weights.to_vec());
    let q: Vec<Real> = weights.iter().zip(x_hat).map(|(w, x)| -w * x).collect();
    // A = [G; I; −I], b = [h; hi; −lo]; A x + s = b, s ≥ 0.
    let m = rows.len() + 2 * n;
    let (mut colptr, mut rowval, mut nzval) = (vec![0], Vec::new(), Vec::new());
    for j in 0..n {
        for (i, row) in rows.iter().enumerate() {
            if row[j] != 0.0 {
                rowval.push(i);
                nzval.push(row[j]);
            }
        }
        rowval.push(rows.len() + j);
        nzval.push(1.0);
        rowval.push(rows.len() + n + j);
        nzval.push(-1.0);
        colptr.push(rowval.len());
    }
    let a = CscMatrix::new(m, n, colptr, rowval, nzval);
    let mut b = h.to_vec();
    b.extend_from_slice(hi);
    b.extend(lo.iter().map(|v| -v));
    // Tiny dense problems: skip presolve and equilibration, which pay
    // off only for large sparse ones; 1e-7 feasibility/gap is far below what a velocity
    // command needs.
    let settings = match DefaultSettingsBuilder::default()
        .verbose(false)
        .max_iter(100)
        .presolve_enable(false)
        .equilibrate_enable(false)
        .tol_gap_abs(1e-7)
        .tol_gap_rel(1e-7)
        .tol_feas(1e-7)
        .build()
    {
        Ok(s) => s,
        Err(_) => return (None, QpStatus::Failed),
    };
    let Ok(mut solver) = DefaultSolver::new(
        &p,
        &q,
        &a,
        &b,
        &[SupportedConeT::NonnegativeConeT(m)],
        settings,
    ) else {
        return (None, QpStatus::Failed);
    };
    solver.solve();
    match solver.solution.status {
        SolverStatus::Solved | SolverStatus::AlmostSolved
            if solver.solution.x.iter().all(|v| v.is_finite()) =>
        {
            (Some(solver.solution.x.clone()), QpStatus::Solved)
        }
        SolverStatus::PrimalInfeasible | SolverStatus::AlmostPrimalInfeasible => {
            (None, QpStatus::Infeasible)
        }
        _ => (None, QpStatus::Failed),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_constraint_matches_the_closed_form_projection() {
        // min ½|x − x̂|² s.t. aᵀx ≤ b  ⇒  x = x̂ − max(0, aᵀx̂ − b)/|a|² · a.
        let x_hat = [1.0, 2.0, -0.5];
        let a = vec![0.3, -0.4, 1.2];
        let b = -0.7;
        let big = [1e6; 3];
        let (x, status) = solve_box_qp(
            &[1.0; 3],
            &x_hat,
            std::slice::from_ref(&a),
            &[b],
            &big.map(|v| -v),
            &big,
        );
        assert_eq!(status, QpStatus::Solved);
        let x = x.unwrap();
        let ax: Real = a.iter().zip(&x_hat).map(|(p, q)| p * q).sum();
        let aa: Real = a.iter().map(|p| p * p).sum();
        let expected: Vec<Real> = x_hat
            .iter()
            .zip(&a)
            .map(|(xh, ai)| xh - (ax - b).max(0.0) / aa * ai)
            .collect();
        for (got, want) in x.iter().zip(&expected) {
            assert!((got - want).abs() < 1e-6, "{x:?} vs {expected:?}");
        }
    }

    #[test]
    fn inactive_constraint_leaves_the_target() {
        let (x, _) = solve_box_qp(
            &[1.0, 1.0],
            &[0.5, -0.5],
            &[vec![1.0, 1.0]],
            &[10.0],
            &[-1.0, -1.0],
            &[1.0, 1.0],
        );
        let x = x.unwrap();
        assert!((x[0] - 0.5).abs() < 1e-7 && (x[1] + 0.5).abs() < 1e-7);
    }

    #[test]
    fn contradictory_constraints_are_infeasible() {
        // x ≤ −1 with x ≥ 0.
        let (x, status) = solve_box_qp(&[1.0], &[0.0], &[vec![1.0]], &[-1.0], &[0.0], &[1.0]);
        assert_eq!(status, QpStatus::Infeasible);
        assert!(x.is_none());
    }
}
