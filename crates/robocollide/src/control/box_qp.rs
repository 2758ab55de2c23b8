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
///
/// Constraint generation keeps the interior-point problems small. A convex QP solved over a
/// subset of its constraints whose minimiser satisfies all the others is the minimiser of
/// the whole problem (the subset's feasible set contains the whole one). So, starting from
/// the bounds-only minimiser (with positive weights, `x̂` clamped to the box), the
/// constraints (rows of `G` and variable bounds alike) most violated by the current point
/// join a working set — one in the first round, then twice as many each round, so a few
/// decisive constraints give a small problem and many give few rounds — and the
/// working-set QP is re-solved until nothing is violated. Constraints are never dropped and
/// each round adds at least one, so the loop ends; a round that finds `k` violations adds
/// `min(k, batch)`, so a problem with many binding constraints needs about log₂ of their
/// number. A working set that is already
/// infeasible proves the whole problem infeasible.
pub fn solve_box_qp(
    weights: &[Real],
    x_hat: &[Real],
    rows: &[Vec<Real>],
    h: &[Real],
    lo: &[Real],
    hi: &[Real],
) -> (Option<Vec<Real>>, QpStatus) {
    let n = x_hat.len();
    // Every constraint as a row: G, then xⱼ ≤ hiⱼ, then −xⱼ ≤ −loⱼ.
    let unit = |j: usize, sign: Real| {
        let mut e = vec![0.0; n];
        e[j] = sign;
        e
    };
    let all_rows: Vec<Vec<Real>> = rows
        .iter()
        .cloned()
        .chain((0..n).map(|j| unit(j, 1.0)))
        .chain((0..n).map(|j| unit(j, -1.0)))
        .collect();
    let all_h: Vec<Real> = h
        .iter()
        .copied()
        .chain(hi.iter().copied())
        .chain(lo.iter().map(|v| -v))
        .collect();
    let separable =
        weights.iter().all(|w| *w > 0.0 && w.is_finite()) && lo.iter().zip(hi).all(|(l, u)| l <= u);
    if !separable {
        return solve_with_clarabel(weights, x_hat, &all_rows, &all_h);
    }
    let mut working = vec![false; all_rows.len()];
    // The bounds-only minimiser, with the bounds it clamps as the first working set.
    let mut x: Vec<Real> = x_hat
        .iter()
        .zip(lo.iter().zip(hi))
        .map(|(v, (l, u))| v.clamp(*l, *u))
        .collect();
    for j in 0..n {
        working[rows.len() + j] = x_hat[j] >= hi[j];
        working[rows.len() + n + j] = x_hat[j] <= lo[j];
    }
    let mut batch = 1;
    loop {
        let mut added: Vec<(Real, usize)> = (0..all_rows.len())
            .filter_map(|i| {
                let gx: Real = all_rows[i].iter().zip(&x).map(|(g, v)| g * v).sum();
                let norm: Real = all_rows[i].iter().map(|g| g * g).sum::<Real>().sqrt();
                (!working[i] && gx > all_h[i] + WORKING_SET_TOLERANCE * (1.0 + all_h[i].abs()))
                    .then_some(((gx - all_h[i]) / norm.max(Real::MIN_POSITIVE), i))
            })
            .collect();
        added.sort_by(|a, b| b.0.total_cmp(&a.0));
        added.truncate(batch);
        batch = batch.saturating_mul(2);
        let added: Vec<usize> = added.into_iter().map(|(_, i)| i).collect();
        if added.is_empty() {
            return (Some(x), QpStatus::Solved);
        }
        for i in added {
            working[i] = true;
        }
        let (subset_rows, subset_h): (Vec<Vec<Real>>, Vec<Real>) = (0..all_rows.len())
            .filter(|&i| working[i])
            .map(|i| (all_rows[i].clone(), all_h[i]))
            .unzip();
        match solve_with_clarabel(weights, x_hat, &subset_rows, &subset_h) {
            (Some(next), QpStatus::Solved) => x = next,
            (_, QpStatus::Infeasible) => return (None, QpStatus::Infeasible),
            _ => return solve_with_clarabel(weights, x_hat, &all_rows, &all_h),
        }
    }
}

/// Relative slack with which a constraint counts as satisfied by a working-set solution:
/// the interior-point tolerances below, so a constraint the full solve would also leave at
/// its bound is not re-added.
const WORKING_SET_TOLERANCE: Real = 1e-7;

/// `minimise ½ Σ wᵢ (xᵢ − x̂ᵢ)²  subject to  G x ≤ h` in one interior-point solve.
fn solve_with_clarabel(
    weights: &[Real],
    x_hat: &[Real],
    rows: &[Vec<Real>],
    h: &[Real],
) -> (Option<Vec<Real>>, QpStatus) {
    let n = x_hat.len();
    // P = diag(w) (upper triangle, CSC), q = −w ⊙ x̂.
    let p = CscMatrix::new(n, n, (0..=n).collect(), (0..n).collect(), weights.to_vec());
    let q: Vec<Real> = weights.iter().zip(x_hat).map(|(w, x)| -w * x).collect();
    // A = G, b = h; A x + s = b, s ≥ 0 (stored by columns, zeros left out).
    let m = rows.len();
    let (mut colptr, mut rowval, mut nzval) = (vec![0], Vec::new(), Vec::new());
    for j in 0..n {
        for (i, row) in rows.iter().enumerate() {
            if row[j] != 0.0 {
                rowval.push(i);
                nzval.push(row[j]);
            }
        }
        colptr.push(rowval.len());
    }
    let a = CscMatrix::new(m, n, colptr, rowval, nzval);
    let b = h.to_vec();
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

    use proptest::prelude::*;

    fn objective(w: &[Real], x_hat: &[Real], x: &[Real]) -> Real {
        w.iter()
            .zip(x_hat.iter().zip(x))
            .map(|(w, (a, b))| 0.5 * w * (a - b) * (a - b))
            .sum()
    }

    proptest! {
        /// Constraint generation returns the same minimiser (and the same verdict) as one
        /// interior-point solve of the whole problem.
        #[test]
        fn working_set_matches_the_full_solve(
            n in 1usize..7,
            m in 0usize..12,
            seed in proptest::collection::vec(-1.0f64..1.0, 7 * 12 + 5 * 7 + 12),
        ) {
            let mut it = seed.into_iter();
            let mut next = || it.next().unwrap();
            let weights: Vec<Real> = (0..n).map(|_| 1.5 + next()).collect();
            let x_hat: Vec<Real> = (0..n).map(|_| 3.0 * next()).collect();
            let lo: Vec<Real> = (0..n).map(|_| -1.0 + 0.5 * next()).collect();
            let hi: Vec<Real> = (0..n).map(|_| 1.0 + 0.5 * next()).collect();
            let rows: Vec<Vec<Real>> = (0..m).map(|_| (0..n).map(|_| next()).collect()).collect();
            let h: Vec<Real> = (0..m).map(|_| 0.5 * next()).collect();
            let (x, status) = solve_box_qp(&weights, &x_hat, &rows, &h, &lo, &hi);
            let mut all_rows = rows.clone();
            let mut all_h = h.clone();
            for j in 0..n {
                let mut e = vec![0.0; n];
                e[j] = 1.0;
                all_rows.push(e.clone());
                all_h.push(hi[j]);
                e[j] = -1.0;
                all_rows.push(e);
                all_h.push(-lo[j]);
            }
            let (x_full, status_full) = solve_with_clarabel(&weights, &x_hat, &all_rows, &all_h);
            prop_assert_eq!(status, status_full);
            if let (Some(x), Some(x_full)) = (x, x_full) {
                let (f, f_full) = (objective(&weights, &x_hat, &x), objective(&weights, &x_hat, &x_full));
                prop_assert!((f - f_full).abs() <= 1e-5 * (1.0 + f_full), "{} vs {}", f, f_full);
                // Strong convexity (modulus w_min): objectives within ε of the optimum put
                // both points within √(2ε / w_min) of the minimiser.
                let w_min = weights.iter().copied().fold(Real::INFINITY, Real::min);
                let radius = 2.0 * (2.0 * 1e-5 * (1.0 + f_full) / w_min).sqrt();
                for (a, b) in x.iter().zip(&x_full) {
                    prop_assert!((a - b).abs() < radius, "{:?} vs {:?}", x, x_full);
                }
                for (row, bound) in rows.iter().zip(&h) {
                    let gx: Real = row.iter().zip(&x).map(|(g, v)| g * v).sum();
                    prop_assert!(gx <= bound + 1e-6);
                }
            }
        }
    }
}
