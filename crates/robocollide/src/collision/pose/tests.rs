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

/// Posing to the frames and group spheres alone (`pose_groups`, a certificate's end) puts every
/// group's sphere, the motion check's too, where a full pose does, leaves the bodies pending
/// only where the spheres need just the frames (the Panda's spheres; not the demo's capsules),
/// and a full pose after it completes them; poses going back and forth through the kept ones
/// included.
#[test]
fn posing_groups_alone_places_them_as_a_full_pose() {
    let mut from_frames = 0;
    for cell in crate::collision::test_cells::demo_and_panda_cells() {
        let dof: usize = cell.robots.iter().map(|r| r.model.dof()).sum();
        let mut unit = crate::math::unit_random(5);
        let mut partial = CellPose::new(&cell);
        let mut seen: Vec<Vec<Real>> = Vec::new();
        let mut left_pending = 0;
        for i in 0..60 {
            let q: Vec<Real> = if i % 4 == 3 {
                seen[seen.len() - 1 - i % 3].clone()
            } else {
                (0..dof).map(|_| unit() * 5.0 - 2.5).collect()
            };
            partial.pose_groups(&cell, &q);
            left_pending += usize::from(!partial.all_placed());
            let mut full = CellPose::new(&cell);
            full.pose(&cell, &q);
            assert_eq!(partial.group_spheres(), full.group_spheres(), "{q:?}");
            partial.place_motion_groups();
            full.place_motion_groups();
            assert_eq!(partial.posed.motion_spheres, full.posed.motion_spheres);
            if i % 2 == 0 {
                partial.pose(&cell, &q);
                assert!(partial.all_placed());
                for b in 0..full.posed.cores.len() {
                    assert_eq!(partial.shape(b), full.shape(b), "{q:?}");
                }
            }
            seen.push(q);
        }
        if partial.groups_from_frames {
            from_frames += 1;
            assert!(left_pending > 20, "{left_pending}");
        } else {
            assert_eq!(left_pending, 0);
        }
    }
    // (The Panda comes with the `urdf` feature.)
    if cfg!(feature = "urdf") {
        assert!(from_frames > 0, "the Panda's groups follow from its frames");
    }
}

/// The centre's squared gap settles a sphere against an obstacle's box or cylinder only where
/// the exact kernel agrees: "met" only when the kernel's distance is negative (and then the
/// gap's distance is too), "beyond" only when it is positive; near the surface, at the
/// rounding's scale, neither. Spheres from deep inside to well outside, tangent ones
/// included.
#[test]
fn squared_gaps_settle_contact_only_where_the_kernels_agree() {
    use crate::geom::{Cylinder, OrientedBox, Shape, Sphere};
    use crate::math::{Matrix3, Point3, Vector3};
    use crate::robot::SceneObjects;
    let rotation: Matrix3 = nalgebra::Rotation3::from_euler_angles(0.4, -0.2, 0.9).into_inner();
    let shelf = OrientedBox::new(
        Point3::new(0.6, 0.1, 0.3),
        rotation,
        Vector3::new(0.3, 0.02, 0.2),
    );
    let can = Cylinder::new(
        Point3::new(-0.4, 0.5, 0.1),
        Point3::new(-0.3, 0.6, 0.25),
        0.04,
    );
    let mut cell = Cell::shipped_demo();
    cell.add_world_obstacles(SceneObjects {
        obstacles: vec![
            ("shelf".into(), Shape::Box(shelf.unwrap())),
            ("can".into(), Shape::Cylinder(can.unwrap())),
        ],
        warnings: Vec::new(),
    })
    .unwrap();
    let mut pose = CellPose::new(&cell);
    let dof: usize = cell.robots.iter().map(|r| r.model.dof()).sum();
    pose.pose(&cell, &vec![0.0; dof]);
    let solids: Vec<usize> = (0..pose.cores().len())
        .filter(|&b| pose.fixed_solid(b).is_some())
        .collect();
    assert!(solids.len() >= 2, "the shelf and the can at least");
    let mut unit = crate::math::unit_random(5);
    let (mut met, mut beyond, mut neither) = (0, 0, 0);
    for i in 0..40_000 {
        let b = solids[i % solids.len()];
        let Some(Shape::Box(_) | Shape::Cylinder(_)) = pose.solid(b) else {
            panic!("body {b} is an obstacle's box or cylinder");
        };
        let centre = Point3::new(unit() - 0.5, unit() - 0.3, unit() - 0.2);
        let radius = [0.0, 1e-6, 0.01, 0.1, 0.3][i % 5] * unit();
        let exact = pose
            .sphere_solid_distance(&Sphere::new(centre, radius).unwrap(), b)
            .unwrap();
        // A quarter of the spheres tangent to the solid by construction: the radius set to
        // the centre's distance.
        let (radius, exact) = if i % 4 == 0 && exact > -radius {
            (exact + radius, 0.0)
        } else {
            (radius, exact)
        };
        let by_gap = pose.fixed_solid_met(b, &centre, radius);
        let apart = pose.fixed_solid_beyond(b, &centre, radius, 0.0).unwrap();
        if let Some(d) = by_gap {
            assert!(
                exact < 0.0 && d < 0.0 && !apart,
                "{centre:?} {radius}: {exact}"
            );
            met += 1;
        } else if apart {
            assert!(exact > 0.0, "{centre:?} {radius}: {exact}");
            beyond += 1;
        } else {
            // Only at the surface (tangent spheres), and for points (radius 0, never settled
            // by the gap), is neither settled.
            assert!(
                exact.abs() <= 1e-12 || radius == 0.0,
                "{centre:?} {radius}: {exact}"
            );
            neither += 1;
        }
    }
    assert!(
        met > 1000 && beyond > 10_000 && neither > 1000,
        "{met} {beyond} {neither}"
    );
}
