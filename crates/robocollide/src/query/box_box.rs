//! Box–box: exact in every case.
//!
//! **Separating axes** (Gottschalk, Lin & Manocha, *OBBTree*, SIGGRAPH 1996): the two boxes
//! are disjoint iff one of fifteen axes — the six face normals and the nine cross products of
//! an edge of each — separates their projections. Overlapping, the least overlap along those
//! axes is the exact penetration depth (they are the facet normals of the Minkowski
//! difference of two boxes); cross products of parallel edges (shorter than 1e-12) are dropped,
//! their facets coinciding with face normals' ones.
//!
//! **Apart**, the closest points of two convex polyhedra are realised by an edge of one and the
//! other solid (vertex–face, edge–edge and edge–face contacts all contain an edge of one box),
//! so the distance is the least of the 24 edge–box distances, each exact
//! ([`closest_to_box`]). Most edges are pruned soundly with the best separating axis `L` and
//! its gap `s`: the closest point of A lies within `d − s` of A's support plane along `L`
//! (B lies beyond the plane at `s`), so an edge wholly deeper than the current best `d`
//! allows cannot hold it; likewise for B. Edges are tried nearest the plane first.

use super::Separation;
use super::capsule_box::closest_to_box;
use super::certificate::contact_witnesses;
use crate::geom::OrientedBox;
use crate::math::{Matrix3, Point3, Real, Vector3};

/// Signed distance from box a to box b.
pub fn box_box(a: &OrientedBox, b: &OrientedBox) -> Separation {
    let magnitude = a.magnitude().max(b.magnitude());
    if super::safe_scale::outside_safe_range(magnitude) {
        return super::safe_scale::rescaled(a, b, magnitude, box_box);
    }
    let (gap, axis) = best_axis(a, b);
    if gap > 0.0 {
        if let Some(found) = closest_edges(a, b, gap, &axis, magnitude) {
            return found.with_contact_rounding(magnitude);
        }
    }
    // Touching or overlapping: the least overlap is the exact depth. (Apart by less than
    // 1e-9 of the magnitude: the separating axis's certified gap, with its witnesses.)
    let mut found = contact_witnesses(a, b, &axis);
    if gap <= 0.0 {
        found.point_b = found.point_a + axis * gap;
        found.distance = gap;
    }
    found.with_contact_rounding(magnitude)
}

/// The separating axis of largest gap among the fifteen (world frame, from a to b), and that
/// gap (`−` the least overlap when none separates).
fn best_axis(a: &OrientedBox, b: &OrientedBox) -> (Real, Vector3) {
    // Everything in a's frame: b's axes are the columns of `r`, its centre `t`.
    let r: Matrix3 = a.rotation().tr_mul(b.rotation());
    let t = a.to_local(&b.center());
    let (ha, hb) = (a.half_extents(), b.half_extents());
    let mut best = (Real::NEG_INFINITY, Vector3::x());
    let mut offer = |axis: Vector3| {
        let along = t.dot(&axis);
        let reach = ha.dot(&axis.abs()) + hb.dot(&r.tr_mul(&axis).abs());
        let gap = along.abs() - reach;
        if gap > best.0 {
            best = (gap, if along < 0.0 { -axis } else { axis });
        }
    };
    for i in 0..3 {
        let mut e = Vector3::zeros();
        e[i] = 1.0;
        offer(e);
        offer(r.column(i).into_owned());
    }
    for i in 0..3 {
        let mut e = Vector3::zeros();
        e[i] = 1.0;
        for j in 0..3 {
            let cross = e.cross(&r.column(j));
            let n = cross.norm();
            if n > 1e-12 {
                offer(cross / n);
            }
        }
    }
    (best.0, a.direction_to_world(&best.1))
}

/// The exact distance of two boxes known to be apart (`gap > 0` along unit `axis`, from a to
/// b), by pruned edge–box queries; `None` if the closest points are within rounding of
/// contact (then the separating-axis answer is used).
fn closest_edges(
    a: &OrientedBox,
    b: &OrientedBox,
    gap: Real,
    axis: &Vector3,
    magnitude: Real,
) -> Option<Separation> {
    // (distance, point on a, point on b, unit normal from a to b)
    let mut best: Option<(Real, Point3, Point3, Vector3)> = None;
    // Edges of `from` (with the support direction towards `to`) against the solid `to`.
    let mut edges_against = |from: &OrientedBox, to: &OrientedBox, towards: &Vector3, swap| {
        let vertices = from.vertices();
        let heights: [Real; 8] = std::array::from_fn(|k| vertices[k].coords.dot(towards));
        let top = heights.iter().copied().fold(Real::NEG_INFINITY, Real::max);
        let mut order: [(Real, usize); 12] = std::array::from_fn(|e| {
            let (i, j) = OrientedBox::EDGES[e];
            (top - heights[i].max(heights[j]), e)
        });
        order.sort_unstable_by(|x, y| x.0.total_cmp(&y.0));
        let local: [Vector3; 8] = std::array::from_fn(|k| to.to_local(&vertices[k]));
        let h = to.half_extents();
        for (depth, e) in order {
            // Sound pruning: this edge is `depth` below the support plane; the pair's closest
            // point of `from` lies within `best − gap` of it.
            if let Some((d, ..)) = best {
                if depth > d - gap {
                    break;
                }
            }
            let (i, j) = OrientedBox::EDGES[e];
            let c = closest_to_box(&local[i], &(local[j] - local[i]), &h);
            let excess = c.on_box - c.on_segment;
            let d = excess.norm();
            if best.is_none_or(|(bd, ..)| d < bd) {
                let (on_from, on_to) = (to.to_world(&c.on_segment), to.to_world(&c.on_box));
                // The direction from the exact local excess (world points far from the origin
                // would round it).
                let towards_to = to.direction_to_world(&excess) / d.max(Real::MIN_POSITIVE);
                best = Some(if swap {
                    (d, on_to, on_from, -towards_to)
                } else {
                    (d, on_from, on_to, towards_to)
                });
            }
        }
    };
    edges_against(a, b, axis, false);
    edges_against(b, a, &-axis, true);
    let (distance, point_a, point_b, normal) = best?;
    if distance <= 1e-9 * magnitude {
        return None;
    }
    Some(Separation {
        distance,
        point_a,
        point_b,
        normal: normal.normalize(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cube(c: [Real; 3], rpy: [Real; 3]) -> OrientedBox {
        OrientedBox::from_rpy(c.into(), rpy, Vector3::new(1.0, 1.0, 1.0)).unwrap()
    }

    #[test]
    fn face_edge_and_vertex_contacts() {
        let a = cube([0.0; 3], [0.0; 3]);
        // Face to face, 1 apart.
        let r = box_box(&a, &cube([3.0, 0.5, 0.0], [0.0; 3]));
        assert_eq!(r.distance, 1.0);
        assert_eq!(r.normal, Vector3::x());
        // b turned 45° about z: its edge faces a's face, √2 − 1 closer.
        let q = std::f64::consts::FRAC_PI_4;
        let r = box_box(&a, &cube([4.0, 0.0, 0.0], [0.0, 0.0, q]));
        assert!((r.distance - (3.0 - 2f64.sqrt())).abs() < 1e-14, "{r:?}");
        // Edge to edge, crossed: a's top edge along y at x = 1, b's bottom edge along x.
        let b = OrientedBox::from_rpy(
            Point3::new(1.0 + 2f64.sqrt() + 0.5, 0.0, 0.0),
            [0.0, 0.0, q],
            Vector3::new(1.0, 1.0, 1.0),
        )
        .unwrap();
        let r = box_box(&a, &b);
        assert!((r.distance - 0.5).abs() < 1e-14, "{r:?}");
        // Overlapping by 0.25 along x.
        let r = box_box(&a, &cube([1.75, 0.3, -0.2], [0.0; 3]));
        assert!((r.distance + 0.25).abs() < 1e-15, "{r:?}");
        assert!((r.normal - Vector3::x()).norm() < 1e-15);
        assert!(((r.point_b - r.point_a) - r.normal * r.distance).norm() < 1e-15);
    }
}
