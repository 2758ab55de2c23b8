//! [`Tree`]: a planner's tree of configurations, each node with its parent and its dynamic
//! domain radius (Yershova, Jaillet, Siméon & LaValle, *Dynamic-Domain RRTs: efficient
//! exploration by controlling the sampling domain*, ICRA 2005; see
//! [`DynamicDomain`](super::DynamicDomain)).
//!
//! Nodes are numbered in the order they are added, so a parent's number is below its
//! children's; the root is node 0.

use crate::math::Real;
use crate::wide::{WideOp, run_wide};

/// Nodes per block of [`Tree::lanes`].
const LANES: usize = 8;

/// A tree of configurations, stored flat (node `i` at `coordinates[i·dof..(i+1)·dof]`), and
/// again by blocks of [`LANES`] nodes with each joint's values side by side, so that the
/// nearest-node scan, linear in the nodes and run every extension, measures a block's nodes
/// together (one vector operation per joint for several nodes).
pub(super) struct Tree {
    dof: usize,
    coordinates: Vec<Real>,
    /// Block `b`, joint `k`, node `b·LANES + l` at `((b·dof) + k)·LANES + l`; the last
    /// block's unused lanes hold zeros.
    lanes: Vec<Real>,
    parents: Vec<usize>,
    /// Per node, the distance beyond which samples are not grown from it (infinite until an
    /// extension from it fails).
    radii: Vec<Real>,
}

impl Tree {
    pub(super) fn new(root: &[Real]) -> Self {
        let mut tree = Self {
            dof: root.len(),
            coordinates: Vec::new(),
            lanes: Vec::new(),
            parents: Vec::new(),
            radii: Vec::new(),
        };
        tree.push(root, 0);
        tree
    }

    pub(super) fn len(&self) -> usize {
        self.parents.len()
    }

    pub(super) fn node(&self, i: usize) -> &[Real] {
        &self.coordinates[i * self.dof..(i + 1) * self.dof]
    }

    /// The first node of least squared distance to `q`, the sum over joints taken in joint
    /// order as [`squared_distance`](crate::math::squared_distance) does (so that the winner is
    /// the one a plain scan picks).
    pub(super) fn nearest(&self, q: &[Real]) -> usize {
        struct Scan<'a>(&'a Tree, &'a [Real]);
        impl WideOp for Scan<'_> {
            type Output = usize;
            #[inline(always)]
            fn run(self) -> usize {
                self.0.scan_nearest(self.1)
            }
        }
        run_wide(Scan(self, q))
    }

    /// [`Self::nearest`]'s scan, compiled for AVX2 where the processor has it
    /// ([`run_wide`]).
    #[inline(always)]
    fn scan_nearest(&self, q: &[Real]) -> usize {
        let mut best = (0, Real::INFINITY);
        if q.len() != self.dof || self.dof == 0 {
            return 0;
        }
        for (b, block) in self.lanes.chunks_exact(self.dof * LANES).enumerate() {
            let mut d = [0.0; LANES];
            for (values, &qk) in block.chunks_exact(LANES).zip(q) {
                let values: &[Real; LANES] = values.try_into().expect("blocks of LANES");
                for l in 0..LANES {
                    d[l] += (values[l] - qk) * (values[l] - qk);
                }
            }
            let used = (self.len() - b * LANES).min(LANES);
            for (l, &dl) in d[..used].iter().enumerate() {
                if dl < best.1 {
                    best = (b * LANES + l, dl);
                }
            }
        }
        best.0
    }

    pub(super) fn push(&mut self, q: &[Real], parent: usize) -> usize {
        let i = self.len();
        if i.is_multiple_of(LANES) {
            self.lanes.resize(self.lanes.len() + self.dof * LANES, 0.0);
        }
        let block = (i / LANES) * self.dof * LANES;
        for (k, &v) in q.iter().enumerate() {
            self.lanes[block + k * LANES + i % LANES] = v;
        }
        self.coordinates.extend_from_slice(q);
        self.parents.push(parent);
        self.radii.push(Real::INFINITY);
        i
    }

    /// Root-to-node path.
    pub(super) fn path_to(&self, mut i: usize) -> Vec<Vec<Real>> {
        let mut out = vec![self.node(i).to_vec()];
        while i != 0 {
            i = self.parents[i];
            out.push(self.node(i).to_vec());
        }
        out.reverse();
        out
    }
    pub(super) fn parent(&self, i: usize) -> usize {
        self.parents[i]
    }

    pub(super) fn radius(&self, i: usize) -> Real {
        self.radii[i]
    }

    pub(super) fn set_radius(&mut self, i: usize, radius: Real) {
        self.radii[i] = radius;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::squared_distance;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The blocked scan picks the first node of least `squared_distance`, as a plain scan does:
    /// trees of every size around the block length, coordinates on a coarse grid (many ties),
    /// and a query equal to a node.
    #[test]
    fn nearest_is_the_first_node_of_least_distance() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for dof in [1, 2, 6, 7, 9] {
            let grid = |rng: &mut ChaCha8Rng| -> Vec<Real> {
                (0..dof)
                    .map(|_| Real::from(rng.random_range(-2i8..=2)) * 0.5)
                    .collect()
            };
            let mut tree = Tree::new(&grid(&mut rng));
            for n in 1..40 {
                for _ in 0..20 {
                    let q = if n % 5 == 0 {
                        tree.node(n / 2).to_vec()
                    } else {
                        grid(&mut rng)
                    };
                    let plain = (0..tree.len())
                        .min_by(|&i, &j| {
                            squared_distance(tree.node(i), &q)
                                .total_cmp(&squared_distance(tree.node(j), &q))
                        })
                        .unwrap();
                    assert_eq!(tree.nearest(&q), plain, "dof {dof}, {n} nodes, {q:?}");
                }
                tree.push(&grid(&mut rng), n - 1);
            }
        }
    }
}
