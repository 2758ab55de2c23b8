//! Exact weighted projections onto a few half-spaces, the working-set problems of
//! [`solve_box_qp`](super::solve_box_qp):
//!
//! `minimise ½ Σ wᵢ (xᵢ − x̂ᵢ)²  subject to  G x ≤ h` (k rows, k small).
//!
//! With `W = diag(w)`, the minimiser is `x = x̂ − W⁻¹Gᵀλ` where the multipliers solve the dual,
//! a non-negative QP in k variables: `minimise ½ λᵀMλ − cᵀλ over λ ≥ 0`, with `M = G W⁻¹ Gᵀ`
//! and `c = G x̂ − h`. It is solved by Lawson & Hanson's active-set method (*Solving Least
//! Squares Problems*, 1974, ch. 23, NNLS, here on the normal equations): grow the set of
//! positive multipliers by the most violated row, solve `M_PP λ_P = c_P` (Cholesky), and step
//! back to the boundary when a multiplier would turn negative. Finite in exact arithmetic;
//! when `M_PP` is singular (dependent rows, contradictory rows), the rounds run out, or the
//! point found misses a row by more than rounding, the answer is `None` and the caller solves
//! the problem with the interior-point method, which also decides infeasibility.

use nalgebra::{DMatrix, DVector};

use crate::math::Real;

/// A minimiser and its multipliers (one per row).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Minimiser {
    pub x: Vec<Real>,
    pub multipliers: Vec<Real>,
}

/// The projection onto `{x : rows · x ≤ h}` in the metric `diag(weights)` (weights > 0);
/// `None` when this method cannot decide (see the module docs).
pub(crate) fn project_onto_half_spaces(
    weights: &[Real],
    x_hat: &[Real],
    rows: &[Vec<Real>],
    h: &[Real],
) -> Option<Minimiser> {
    let k = rows.len();
    let dot = |a: &[Real], b: &[Real]| a.iter().zip(b).map(|(x, y)| x * y).sum::<Real>();
    let m = DMatrix::from_fn(k, k, |i, j| {
        rows[i]
            .iter()
            .zip(&rows[j])
            .zip(weights)
            .map(|((a, b), w)| a * b / w)
            .sum::<Real>()
    });
    let c = DVector::from_fn(k, |i, _| dot(&rows[i], x_hat) - h[i]);
    let scale = 1.0 + c.amax() + m.amax();
    let tolerance = 1e-12 * scale;
    let mut lambda = DVector::<Real>::zeros(k);
    let mut positive = vec![false; k];
    // Solves M_PP z_P = c_P (z = 0 elsewhere); None if M_PP is not positive definite.
    let solve = |positive: &[bool]| -> Option<DVector<Real>> {
        let p: Vec<usize> = (0..k).filter(|&i| positive[i]).collect();
        let sub = DMatrix::from_fn(p.len(), p.len(), |a, b| m[(p[a], p[b])]);
        let rhs = DVector::from_fn(p.len(), |a, _| c[p[a]]);
        let z_p = sub.cholesky()?.solve(&rhs);
        let mut z = DVector::zeros(k);
        for (a, &i) in p.iter().enumerate() {
            z[i] = z_p[a];
        }
        z.iter().all(|v| v.is_finite()).then_some(z)
    };
    for _ in 0..3 * k + 3 {
        // The dual's negative gradient: c − Mλ, the violation of each row at x(λ).
        let gradient = &c - &m * &lambda;
        let entering = (0..k)
            .filter(|&i| !positive[i] && gradient[i] > tolerance)
            .max_by(|&a, &b| gradient[a].total_cmp(&gradient[b]));
        let Some(entering) = entering else {
            let x: Vec<Real> = (0..x_hat.len())
                .map(|j| {
                    x_hat[j] - (0..k).map(|i| lambda[i] * rows[i][j]).sum::<Real>() / weights[j]
                })
                .collect();
            // Nearly dependent rows can pass the factorisation with huge multipliers and a
            // point that misses the rows: such an answer is not trusted.
            let holds = rows.iter().zip(h).all(|(row, bound)| {
                let size: Real = row.iter().zip(&x).map(|(g, v)| (g * v).abs()).sum();
                dot(row, &x) <= bound + 1e-9 * (1.0 + bound.abs() + size)
            });
            return holds.then(|| Minimiser {
                x,
                multipliers: lambda.iter().copied().collect(),
            });
        };
        positive[entering] = true;
        for _ in 0..=k {
            let z = solve(&positive)?;
            let blocking = (0..k)
                .filter(|&i| positive[i] && z[i] <= 0.0)
                .map(|i| (lambda[i] / (lambda[i] - z[i]), i))
                .min_by(|a, b| a.0.total_cmp(&b.0));
            let Some((step, _)) = blocking else {
                lambda = z;
                break;
            };
            lambda += (z - &lambda) * step;
            for i in 0..k {
                if positive[i] && lambda[i] <= tolerance {
                    positive[i] = false;
                    lambda[i] = 0.0;
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_crossing_half_planes_meet_at_their_corner() {
        // x ≤ 0 and y ≤ 0 from (1, 1): the corner, multipliers 1 and 1 (unit weights).
        let p = project_onto_half_spaces(
            &[1.0, 1.0],
            &[1.0, 1.0],
            &[vec![1.0, 0.0], vec![0.0, 1.0]],
            &[0.0, 0.0],
        )
        .unwrap();
        assert_eq!(p.x, vec![0.0, 0.0]);
        assert_eq!(p.multipliers, vec![1.0, 1.0]);
        // A row the projection onto the other already satisfies gets no multiplier.
        let p = project_onto_half_spaces(
            &[1.0, 1.0],
            &[1.0, 0.0],
            &[vec![1.0, 0.0], vec![1.0, 1.0]],
            &[0.0, 5.0],
        )
        .unwrap();
        assert_eq!(p.x, vec![0.0, 0.0]);
        assert_eq!(p.multipliers, vec![1.0, 0.0]);
    }

    #[test]
    fn dependent_or_contradictory_rows_are_left_to_the_interior_point_method() {
        let rows = [vec![1.0, 0.0], vec![-1.0, 0.0]];
        assert!(project_onto_half_spaces(&[1.0, 1.0], &[0.0, 0.0], &rows, &[-1.0, -1.0]).is_none());
    }
}
