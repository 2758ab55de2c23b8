//! [`PlanarValidity`]: a planar arm among circles, with a *certified* motion check.
//!
//! Along a straight joint-space motion, a point of link `i` moves at most
//! `Σⱼ≤ᵢ |Δqⱼ| Rⱼᵢ`, where `Rⱼᵢ` (the summed lengths from joint `j` to the end of link `i`)
//! bounds its distance from joint `j`. A motion is free when, at its start, every link's
//! clearance (distance to the nearest circle, [`SegmentsCircles::clearance`]) exceeds that
//! bound; otherwise it is bisected, and a piece shorter than `1e-9` rad that still cannot be
//! certified counts as a collision (conservative).

use crate::math::Real;
use crate::planar::{PlanarArm, SegmentsCircles};
use crate::planning::Validity;

/// Validity of a planar arm among circles (joint ranges ±π).
#[derive(Debug, Clone)]
pub struct PlanarValidity {
    /// The arm.
    pub arm: PlanarArm,
    /// The obstacles.
    pub circles: SegmentsCircles,
}

impl PlanarValidity {
    fn certify(&self, a: &[Real], b: &[Real]) -> bool {
        let links = self.arm.links(a);
        let lengths = self.arm.lengths();
        let mut reach_from = 0.0; // Σ |Δqⱼ| Rⱼᵢ, accumulated link by link
        let mut steps = 0.0; // Σⱼ≤ᵢ |Δqⱼ|
        let mut free = true;
        for (i, link) in links.iter().enumerate() {
            steps += (b[i] - a[i]).abs();
            // Every joint up to i is at most the summed lengths up to link i away.
            reach_from += steps * lengths[i];
            let clearance = self.circles.clearance(link);
            if clearance <= 0.0 {
                return false;
            }
            free &= clearance > reach_from;
        }
        if free {
            return true;
        }
        let span: Real = a.iter().zip(b).map(|(x, y)| (x - y).abs()).sum();
        if span < 1e-9 {
            return false;
        }
        let mid: Vec<Real> = a.iter().zip(b).map(|(x, y)| 0.5 * (x + y)).collect();
        self.certify(a, &mid) && self.certify(&mid, b)
    }
}

impl Validity for PlanarValidity {
    fn dof(&self) -> usize {
        self.arm.dof()
    }

    fn bounds(&self) -> Vec<(Real, Real)> {
        vec![(-std::f64::consts::PI, std::f64::consts::PI); self.arm.dof()]
    }

    fn is_valid(&mut self, q: &[Real]) -> bool {
        self.arm.links(q).iter().all(|l| !self.circles.collides(l))
    }

    fn motion_valid(&mut self, a: &[Real], b: &[Real]) -> bool {
        self.is_valid(b) && self.certify(a, b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planar::Circle;

    #[test]
    fn certified_motion_never_misses_what_dense_sampling_finds() {
        let arm = PlanarArm::new(vec![1.0, 0.8], [0.0, 0.0]).unwrap();
        let circles = SegmentsCircles::new(&[
            Circle {
                center: [1.2, 0.9],
                radius: 0.25,
            },
            Circle {
                center: [-0.9, 0.6],
                radius: 0.3,
            },
        ])
        .unwrap();
        let mut v = PlanarValidity { arm, circles };
        let mut unit = crate::math::unit_random(7);
        let mut rnd = || (unit() - 0.5) * std::f64::consts::TAU;
        let mut blocked = 0;
        for _ in 0..300 {
            let (a, b) = (vec![rnd(), rnd()], vec![rnd(), rnd()]);
            if !v.is_valid(&a) || !v.is_valid(&b) {
                continue;
            }
            let dense_free = (0..=2000).all(|k| {
                let s = k as f64 / 2000.0;
                v.is_valid(&[a[0] + (b[0] - a[0]) * s, a[1] + (b[1] - a[1]) * s])
            });
            if !dense_free {
                blocked += 1;
                assert!(
                    !v.motion_valid(&a, &b),
                    "certified a motion that dense sampling finds blocked"
                );
            }
        }
        assert!(blocked > 10);
    }
}
