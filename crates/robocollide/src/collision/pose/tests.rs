//! Tests of [`CellPose`]: reused and partial poses against fresh ones.

use super::*;

/// Skipping robots whose values did not change, and going back to one of the last poses,
/// leave every body where a fresh pose puts it, whichever robots move in between.
#[test]
fn posing_again_skips_only_robots_that_stand() {
    let cell = Cell::shipped_demo();
    let dof: usize = cell.robots.iter().map(|r| r.model.dof()).sum();
    let q = |k: Real| -> Vec<Real> { (0..dof).map(|i| (i as Real * 0.7 + k).sin()).collect() };
    let mut reused = CellPose::new(&cell);
    let (q1, mut q2) = (q(0.1), q(0.1));
    q2[0] += 0.5; // the first robot moves, the second stands
    let q3 = q(0.9);
    // Back and forth too: the last poses are swapped back in rather than recomputed.
    for target in [
        &q1,
        &q2,
        &q3,
        &q1,
        &q1,
        &q2,
        &q1,
        &q2,
        &q3,
        &q2,
        &q1,
        &q3,
        &q2,
        &q3,
        &q(1.7),
        &q1,
        &q2,
    ] {
        reused.pose(&cell, target);
        let mut fresh = CellPose::new(&cell);
        fresh.pose(&cell, target);
        for b in 0..reused.posed.cores.len() {
            assert_eq!(reused.shape(b), fresh.shape(b));
        }
        assert_eq!(reused.posed.group_spheres, fresh.posed.group_spheres);
        // The motion groups' spheres: computed when asked, then placed, alike.
        let motion_groups = fresh.motion.as_ref().map_or(0, |m| m.groups.len());
        assert!(
            motion_groups > 2,
            "the DH arms get link groups for the motion check"
        );
        let asked: Vec<_> = (0..motion_groups)
            .map(|g| reused.motion_group_sphere(g))
            .collect();
        reused.place_motion_groups();
        fresh.place_motion_groups();
        assert_eq!(reused.posed.motion_spheres, fresh.posed.motion_spheres);
        assert_eq!(asked, reused.posed.motion_spheres);
    }
}

/// A contact query that places bodies only as its answer needs (frames, then a recent
/// contact's two bodies) answers as a full pose does; poses left partial go back and forth
/// through the kept poses, and posing completes them where a fresh pose puts every body. The
/// world contact query leaves a robot's own pairs out: it never reports a contact that is not
/// there, and finds every contact of the other pairs (without self pairs, exactly the full
/// query's answer).
#[test]
fn contact_queries_on_frames_alone_agree_with_full_poses() {
    use crate::collision::CellChecker;
    for cell in crate::collision::test_cells::demo_and_panda_cells() {
        for include_self in [false, true] {
            let mut lazy = CellChecker::new(&cell, include_self);
            let mut full = CellChecker::new(&cell, include_self);
            let dof = lazy.dof();
            let mut unit = crate::math::unit_random(11);
            let mut seen: Vec<Vec<Real>> = Vec::new();
            let (mut contacts, mut free, mut own_only) = (0, 0, 0);
            for i in 0..600 {
                // Mostly new configurations; every fifth one of the last three again.
                let q = if i % 5 == 4 {
                    seen[seen.len() - 1 - i % 3].clone()
                } else {
                    (0..dof).map(|_| unit() * 5.0 - 2.5).collect()
                };
                full.pose(&q);
                let contact = full.in_contact();
                let pairs = full.pairs();
                let world = (0..pairs.len()).any(|k| {
                    pairs[k].robot_a != pairs[k].robot_b && full.contact_distance(k) <= 0.0
                });
                let found = lazy.world_contact_at(&q);
                if include_self {
                    assert!(!found || contact, "a contact that is not there: {q:?}");
                    assert!(found || !world, "a world contact missed: {q:?}");
                    own_only += usize::from(contact && !world);
                } else {
                    assert_eq!(found, contact, "{q:?}");
                    assert_eq!(world, contact, "{q:?}");
                }
                if !found || i % 3 == 0 {
                    lazy.pose(&q);
                    for b in 0..full.pose.cores().len() {
                        assert_eq!(lazy.pose.shape(b), full.pose.shape(b), "{q:?}");
                    }
                    assert_eq!(lazy.pose.group_spheres(), full.pose.group_spheres());
                }
                if contact {
                    contacts += 1;
                } else {
                    free += 1;
                }
                seen.push(q);
            }
            // (The Panda alone has no pairs but its own.)
            if !full.pairs().is_empty() {
                assert!(contacts > 50 && free > 50, "{contacts} {free}");
            }
            if include_self {
                // (Some configurations in contact only with the robot itself: the case the
                // world query may leave.)
                assert!(own_only > 0, "{own_only}");
            }
        }
    }
}
