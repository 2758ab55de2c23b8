//! [`SelfPairs`]: which pairs of a robot's bodies are checked for self-collision.
//!
//! Default: every pair of bodies on links at least two apart (bodies on the same or adjacent
//! links touch by construction — they share a joint), minus pairs that are in contact in every
//! one of [`STRUCTURAL_SAMPLES`] sampled configurations (they touch by construction too, e.g.
//! the bodies of a spherical wrist, whose joint frames coincide; the same rule as MoveIt's
//! "always in collision" pairs). The model file may *ignore* more link pairs (allowed to touch)
//! or *check* pairs it wants tested whatever the defaults say.

/// Configurations sampled to find pairs in contact by construction.
pub const STRUCTURAL_SAMPLES: usize = 64;

/// The list of body index pairs `(i, j)`, `i < j`, to check.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SelfPairs {
    /// Body index pairs to check.
    pub pairs: Vec<(usize, usize)>,
    /// Default pairs left out because they are in contact in every sampled configuration.
    pub structural: Vec<(usize, usize)>,
}

impl SelfPairs {
    /// Builds the list from body links: adjacent links excluded, then `ignore` removed and
    /// `check` added (both as link index pairs, in either order).
    pub fn from_links(
        body_links: &[usize],
        ignore: &[(usize, usize)],
        check: &[(usize, usize)],
    ) -> Self {
        let same = |(a, b): (usize, usize), (x, y): (usize, usize)| {
            (a == x && b == y) || (a == y && b == x)
        };
        let mut pairs = Vec::new();
        for i in 0..body_links.len() {
            for j in i + 1..body_links.len() {
                let links = (body_links[i], body_links[j]);
                let adjacent = links.0.abs_diff(links.1) <= 1;
                let ignored = ignore.iter().any(|p| same(*p, links));
                let forced = check.iter().any(|p| same(*p, links));
                if (forced || !adjacent) && !ignored {
                    pairs.push((i, j));
                }
            }
        }
        Self {
            pairs,
            structural: Vec::new(),
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
        // Bodies on links 0, 1, 2, 3.
        let links = [0, 1, 2, 3];
        assert_eq!(
            SelfPairs::from_links(&links, &[], &[]).pairs,
            vec![(0, 2), (0, 3), (1, 3)]
        );
        assert_eq!(
            SelfPairs::from_links(&links, &[(3, 0)], &[]).pairs,
            vec![(0, 2), (1, 3)]
        );
        assert_eq!(
            SelfPairs::from_links(&links, &[], &[(1, 2)]).pairs,
            vec![(0, 2), (0, 3), (1, 2), (1, 3)]
        );
    }
}
