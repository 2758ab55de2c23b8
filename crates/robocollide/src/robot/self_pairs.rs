//! [`SelfPairs`]: which pairs of a robot's bodies are checked for self-collision.
//!
//! Default: every pair of bodies on links at least two apart (bodies on the same or adjacent
//! links touch by construction — they share a joint). The model file may *ignore* more link
//! pairs (allowed to touch) or *check* adjacent ones it wants tested.

/// The list of body index pairs `(i, j)`, `i < j`, to check.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SelfPairs {
    /// Body index pairs to check.
    pub pairs: Vec<(usize, usize)>,
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
        Self { pairs }
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
