//! [`SelfPairs`]: which pairs of a robot's bodies are checked for self-collision.
//!
//! Default: every pair of bodies on different links that are not parent and child (bodies on
//! the same or adjacent links touch by construction — they share a joint), minus pairs that are in contact in every
//! one of [`STRUCTURAL_SAMPLES`] sampled configurations (they touch by construction too, e.g.
//! the bodies of a spherical wrist, whose joint frames coincide; the same rule as MoveIt's
//! "always in collision" pairs). The model file may *ignore* more link pairs (allowed to touch)
//! or *check* pairs it wants tested whatever the defaults say. An SRDF replaces the default
//! rule: its `disable_collisions` pairs (and links with `disable_default_collisions`, minus
//! `enable_collisions`) are the allowed pairs, everything else is checked. Either way the
//! allowed link pairs are kept with their reason, so reports can show them.

/// Configurations sampled to find pairs in contact by construction.
pub const STRUCTURAL_SAMPLES: usize = 64;

/// A pair of links allowed to touch (never checked), and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AllowedLinks {
    /// First link index.
    pub a: usize,
    /// Second link index.
    pub b: usize,
    /// Why: `adjacent`, `ignored by the model file`, or the SRDF's reason (`Adjacent`,
    /// `Never`, …).
    pub reason: String,
}

/// The list of body index pairs `(i, j)`, `i < j`, to check.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SelfPairs {
    /// Body index pairs to check.
    pub pairs: Vec<(usize, usize)>,
    /// Default pairs left out because they are in contact in every sampled configuration.
    pub structural: Vec<(usize, usize)>,
    /// Link pairs allowed to touch, with their reasons.
    pub allowed: Vec<AllowedLinks>,
}

fn same((a, b): (usize, usize), (x, y): (usize, usize)) -> bool {
    (a == x && b == y) || (a == y && b == x)
}

impl SelfPairs {
    /// Builds the list by the default rule: parent–child links (from `parents`, the parent
    /// link of each link) excluded, then `ignore` removed and `check` added (both as link index
    /// pairs, in either order).
    pub fn from_links(
        body_links: &[usize],
        parents: &[Option<usize>],
        ignore: &[(usize, usize)],
        check: &[(usize, usize)],
    ) -> Self {
        let mut allowed: Vec<AllowedLinks> = Vec::new();
        for (child, parent) in parents.iter().enumerate() {
            if let Some(parent) = *parent
                && !check.iter().any(|p| same(*p, (parent, child)))
            {
                allowed.push(AllowedLinks {
                    a: parent,
                    b: child,
                    reason: "adjacent".into(),
                });
            }
        }
        for &(a, b) in ignore {
            if !allowed.iter().any(|p| same((p.a, p.b), (a, b))) {
                allowed.push(AllowedLinks {
                    a,
                    b,
                    reason: "ignored by the model file".into(),
                });
            }
        }
        Self::allowing(body_links, allowed)
    }

    /// Every pair of bodies on different links except those on an `allowed` link pair.
    pub fn allowing(body_links: &[usize], allowed: Vec<AllowedLinks>) -> Self {
        let mut pairs = Vec::new();
        for i in 0..body_links.len() {
            for j in i + 1..body_links.len() {
                let links = (body_links[i], body_links[j]);
                if links.0 != links.1 && !allowed.iter().any(|p| same((p.a, p.b), links)) {
                    pairs.push((i, j));
                }
            }
        }
        Self {
            pairs,
            structural: Vec::new(),
            allowed,
        }
    }

    /// Moves the pairs for which `in_contact_everywhere(i, j)` holds to `structural`, except
    /// those in `keep`.
    pub fn drop_structural(
        &mut self,
        keep: &[(usize, usize)],
        mut in_contact_everywhere: impl FnMut(usize, usize) -> bool,
    ) {
        let (mut kept, mut dropped) = (Vec::new(), Vec::new());
        for &(i, j) in &self.pairs {
            if !keep.contains(&(i, j)) && in_contact_everywhere(i, j) {
                dropped.push((i, j));
            } else {
                kept.push((i, j));
            }
        }
        self.pairs = kept;
        self.structural = dropped;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjacency_ignore_and_check() {
        // Bodies on links 0, 1, 2, 3 of a chain.
        let links = [0, 1, 2, 3];
        let chain = [None, Some(0), Some(1), Some(2)];
        assert_eq!(
            SelfPairs::from_links(&links, &chain, &[], &[]).pairs,
            vec![(0, 2), (0, 3), (1, 3)]
        );
        assert_eq!(
            SelfPairs::from_links(&links, &chain, &[(3, 0)], &[]).pairs,
            vec![(0, 2), (1, 3)]
        );
        assert_eq!(
            SelfPairs::from_links(&links, &chain, &[], &[(1, 2)]).pairs,
            vec![(0, 2), (0, 3), (1, 2), (1, 3)]
        );
        // A tree: links 1 and 2 are both children of 0, so they are checked; 3 hangs on 2.
        let tree = [None, Some(0), Some(0), Some(2)];
        assert_eq!(
            SelfPairs::from_links(&links, &tree, &[], &[]).pairs,
            vec![(0, 3), (1, 2), (1, 3)]
        );
    }
}
