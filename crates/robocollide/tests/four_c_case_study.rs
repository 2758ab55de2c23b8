//! Seed 003's case study: the motion of Table 6 through the mechanism of Table 5 reproduces
//! Table 7 (translation extremes, with the d2/c2 rows swapped as in SEED-NOTES 003) and the
//! 767 infinite-cylinder hits; the loop closes at every step; the paper's collision pose is
//! step 23 of the first leg; exact flat-ended cylinders and capsules explain its Table 8.

use std::path::Path;

use robocollide::mechanism::{FourCStudy, pair_tests, segments};

fn study() -> FourCStudy {
    FourCStudy::load(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../data/mechanisms/seed003_case_study.toml"),
    )
    .unwrap()
}

#[test]
fn table_7_and_loop_closure_over_the_case_study_motion() {
    let study = study();
    let configs = study.configurations().unwrap();
    assert_eq!(configs.len(), 224);
    for c in &configs {
        assert!(study.mechanism.closure_error(c) < 1e-9, "θ = {}", c.theta);
    }
    let report = study.run().unwrap();
    let table: Vec<(String, String, String)> = report
        .translations
        .iter()
        .map(|(n, lo, hi)| (n.clone(), format!("{lo:.3}"), format!("{hi:.3}")))
        .collect();
    // Table 7, with the printed d2 and c2 rows exchanged.
    assert_eq!(table[0], ("d1".into(), "60.000".into(), "110.000".into()));
    assert_eq!(table[1], ("c1".into(), "122.344".into(), "234.576".into()));
    assert_eq!((table[2].0.as_str(), table[2].1.as_str()), ("c2", "16.205"));
    // c2 max is 190.978586…: the paper truncates here (rounding gives 190.979).
    assert!((report.translations[2].2 - 190.978).abs() < 1e-3);
    assert_eq!(table[3], ("d2".into(), "34.786".into(), "190.747".into()));
    // "No sign changes … and none of them approach zero" (seed 003, case study).
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    assert!(
        configs
            .iter()
            .all(|c| c.c1 > 10.0 && c.c2 > 10.0 && c.d2 > 10.0)
    );
    // The paper's collision pose (Table 8) is step 23 of the first leg.
    assert!(
        (configs[23].theta.to_degrees() + 2.28).abs() < 1e-12
            && (configs[23].d1 - 90.80).abs() < 1e-12
    );
}

#[test]
fn segment_tests_over_the_case_study() {
    let study = study();
    let report = study.run().unwrap();
    // The paper's count of infinite-cylinder hits reproduces exactly.
    assert_eq!(report.pairs_tested, 4480);
    assert_eq!(report.infinite_hits, 767);
    // Exact flat-ended cylinders: only the driving and driven axes (3, 7) meet, in 141 steps.
    assert!(
        report
            .cylinder_contacts
            .iter()
            .all(|c| c.segments == (3, 7))
    );
    assert_eq!(report.cylinder_contacts.len(), 141);
    // The infinite stage is a necessary condition, and the capsules contain the cylinders;
    // so the two-stage study loses no contact of either model: compare with every pair
    // tested at every step.
    let configs = study.configurations().unwrap();
    let lengths = report.lengths;
    let (mut cylinders, mut capsules) = (Vec::new(), Vec::new());
    for (step, c) in configs.iter().enumerate() {
        for t in pair_tests(
            &segments(&study.mechanism, c, &lengths),
            study.axis_radius,
            study.normal_radius,
        ) {
            assert!(
                t.infinite <= t.cylinders + 1e-9 && t.capsules <= t.cylinders + 1e-9,
                "{t:?}"
            );
            assert!(t.infinite <= t.capsules + 1e-9, "{t:?}");
            if t.cylinders <= 0.0 {
                cylinders.push((step, t.segments, t.cylinders));
            }
            if t.capsules <= 0.0 {
                capsules.push((step, t.segments, t.capsules));
            }
        }
    }
    let listed = |contacts: &[robocollide::mechanism::Contact]| -> Vec<_> {
        contacts
            .iter()
            .map(|c| (c.step, c.segments, c.distance))
            .collect()
    };
    assert_eq!(listed(&report.cylinder_contacts), cylinders);
    assert_eq!(listed(&report.capsule_contacts), capsules);
    // The plotted curves are the exact cylinders' distances of every pair.
    let curves = study.distance_curves().unwrap();
    assert_eq!(curves.len(), 20);
    assert!(curves.iter().all(|(_, v)| v.len() == configs.len()));
    let (_, curve37) = curves.iter().find(|(p, _)| *p == (3, 7)).unwrap();
    assert_eq!(curve37.iter().filter(|d| **d <= 0.0).count(), 141);
    // Table 8's pair (3, 6) at step 23 is apart as flat-ended cylinders but overlaps as
    // capsules: the paper's contact looks like a rounded-end contact (its "On" test is not
    // exact, SEED-NOTES 003).
    let t36 = pair_tests(
        &segments(&study.mechanism, &configs[23], &lengths),
        20.0,
        5.0,
    )
    .into_iter()
    .find(|t| t.segments == (3, 6))
    .unwrap();
    assert!(t36.cylinders > 0.9 && t36.capsules < -0.9, "{t36:?}");
    assert!(
        report
            .capsule_contacts
            .iter()
            .any(|c| c.segments == (3, 6) && c.step == 23)
    );
}
