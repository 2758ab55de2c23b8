//! The problem set's printed summary: per family how many problems were valid and solved,
//! and the search and shortcutting times beside VAMP's recorded ones.

use std::collections::BTreeMap;

use robocollide::collision::MotionOutcomes;

use super::{PathCheck, Record, VampRecord};

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let k = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[k]
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    percentile(&values, 0.5)
}

fn stats(label: &str, ns: Vec<f64>) -> String {
    counted_stats(label, "solved", ns)
}

/// [`stats`] with the count named `counted` ("solved", "scene(s)").
fn counted_stats(label: &str, counted: &str, mut ns: Vec<f64>) -> String {
    if ns.is_empty() {
        return format!("{label}: none {counted}");
    }
    ns.sort_by(f64::total_cmp);
    let mean = ns.iter().sum::<f64>() / ns.len() as f64;
    format!(
        "{label}: {} {counted}, median {:.1} µs, mean {:.1} µs, p95 {:.1} µs",
        ns.len(),
        percentile(&ns, 0.5) / 1e3,
        mean / 1e3,
        percentile(&ns, 0.95) / 1e3
    )
}

/// How the searches' motion checks ended, over every solved problem that counted them: the
/// total and each kind's share (`None` when none did).
fn motion_outcomes_line(records: &[Record]) -> Option<String> {
    let counted: Vec<_> = records.iter().filter_map(|r| r.search_motions).collect();
    if counted.is_empty() {
        return None;
    }
    let sum = |kind: fn(&MotionOutcomes) -> usize| counted.iter().map(kind).sum::<usize>();
    let total = sum(MotionOutcomes::total);
    let share = |n: usize| 100.0 * n as f64 / total.max(1) as f64;
    Some(format!(
        "robocollide searches' motion checks: {total} in {} search(es); {:.1} % blocked inside, \
         {:.1} % at the end, {:.1} % refused by the certificate, {:.1} % certified",
        counted.len(),
        share(sum(|o| o.blocked_inside)),
        share(sum(|o| o.blocked_at_end)),
        share(sum(|o| o.refused)),
        share(sum(|o| o.certified)),
    ))
}

pub(super) fn summarise(
    records: &[Record],
    with_vamp: bool,
    no_plan: bool,
    point_shortcuts: usize,
) {
    let mut by_family: BTreeMap<&str, (usize, usize, usize)> = BTreeMap::new();
    for r in records {
        let e = by_family.entry(&r.family).or_default();
        e.0 += 1;
        e.1 += usize::from(r.valid);
        e.2 += usize::from(r.solved && r.certified);
    }
    println!("robocollide plan --problems: {} problem(s)", records.len());
    for (family, (n, valid, solved)) in &by_family {
        if no_plan {
            println!("  {family:<18} {n:>4} problems, {valid:>4} valid");
        } else {
            println!(
                "  {family:<18} {n:>4} problems, {valid:>4} valid, {solved:>4} solved and certified"
            );
        }
    }
    let ours: Vec<f64> = records
        .iter()
        .filter_map(|r| r.planning_ns.map(|ns| ns as f64))
        .collect();
    if !no_plan {
        println!(
            "  {}",
            stats("robocollide search (every motion certified)", ours.clone())
        );
        let simplify: Vec<f64> = records
            .iter()
            .filter_map(|r| r.simplify_ns.map(|ns| ns as f64))
            .collect();
        let label = if point_shortcuts == 0 {
            "robocollide shortcutting (200 attempts)".to_owned()
        } else {
            format!(
                "robocollide shortcutting (200 attempts, then {point_shortcuts} between points)"
            )
        };
        println!("  {}", stats(&label, simplify));
        let setup: Vec<f64> = records
            .iter()
            .filter_map(|r| r.setup_ns.map(|ns| ns as f64))
            .collect();
        println!(
            "  {}",
            counted_stats(
                "robocollide set-up per scene (before the search)",
                "scene(s)",
                setup
            )
        );
        if let Some(line) = motion_outcomes_line(records) {
            println!("  {line}");
        }
        let lengths: Vec<f64> = records.iter().filter_map(|r| r.path_length).collect();
        if !lengths.is_empty() {
            let count = lengths.len();
            println!(
                "  robocollide path length after shortcutting: median {:.3} rad over {count} paths",
                median(lengths)
            );
        }
    }
    if with_vamp {
        let theirs: Vec<f64> = records
            .iter()
            .filter_map(|r| {
                r.vamp
                    .as_ref()
                    .filter(|v| v.solved)
                    .map(|v| v.planning_ns as f64)
            })
            .collect();
        println!(
            "  {}",
            stats(
                "VAMP search (recorded, sampled motion checks)",
                theirs.clone()
            )
        );
        if !no_plan && !ours.is_empty() && !theirs.is_empty() {
            println!(
                "  median ratio robocollide / VAMP: {:.1}",
                median(ours) / median(theirs)
            );
        }
        for (label, pick) in [
            (
                "raw",
                (|v: &VampRecord| v.raw.as_ref()) as fn(&VampRecord) -> Option<&PathCheck>,
            ),
            ("simplified", |v: &VampRecord| v.simplified.as_ref()),
        ] {
            let checks: Vec<(&Record, &PathCheck)> = records
                .iter()
                .filter_map(|r| Some((r, pick(r.vamp.as_ref()?)?)))
                .collect();
            let through: Vec<&(&Record, &PathCheck)> =
                checks.iter().filter(|(_, c)| c.contact.is_some()).collect();
            let between = through
                .iter()
                .filter(|(_, c)| c.contact.as_ref().is_some_and(|x| x.between_samples))
                .count();
            println!(
                "  VAMP {label} paths re-checked by the guaranteed sweep: {} of {} touch an obstacle or the robot itself ({between} only between waypoints)",
                through.len(),
                checks.len()
            );
            for (r, c) in through.iter().take(5) {
                let x = c.contact.as_ref().expect("filtered on contact");
                let depth = x.deepest.map_or(String::new(), |(d, seg, at)| {
                    format!(
                        ", at least {:.2} mm deep (segment {seg} at {at:.3})",
                        -d * 1e3
                    )
                });
                println!(
                    "    {} #{}: enters at segment {} at {:.3}: {} ({}) – {} ({}){depth}",
                    r.family,
                    r.index,
                    x.segment,
                    x.at,
                    x.pair.a.label,
                    x.pair.a.link,
                    x.pair.b.label,
                    x.pair.b.link,
                );
            }
        }
    }
}
