//! The 4C mechanism study: distances between its cylinders over the input angle.

use std::path::Path;

use anyhow::{Context, Result, anyhow};
use plotters::prelude::*;

use super::*;

/// Writes the distance of every segment pair (exact cylinders) along a 4C motion. The range
/// follows the data (a mechanism in metres or millimetres alike); the pairs that come close —
/// within a tenth of the plotted range above the lowest distance — each get their own colour
/// and a legend entry, the others are grey.
pub fn fourc_plot(
    path: &Path,
    report: &robocollide::mechanism::StudyReport,
    distance_per_pair: &[robocollide::mechanism::DistanceCurve],
) -> Result<()> {
    register_font();
    let root = BitMapBackend::new(path, (1200, 620)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| anyhow!("{e}"))?;
    let n = report.steps.max(2) as f64 - 1.0;
    let finite = || {
        distance_per_pair
            .iter()
            .flat_map(|(_, v)| v.iter().copied())
            .filter(|d| d.is_finite())
    };
    let lowest = finite().fold(0.0f64, f64::min);
    let highest = finite().fold(lowest, f64::max);
    let margin = 0.05 * (highest - lowest).max(1e-9);
    let (lo, hi) = (lowest - margin, highest + margin);
    let close_below = lowest + 0.1 * (highest - lowest);
    let minimum = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    let close: Vec<usize> = (0..distance_per_pair.len())
        .filter(|&k| minimum(&distance_per_pair[k].1) <= close_below)
        .collect();
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!(
                "{} — distance per segment pair (flat-ended cylinders)",
                report.name
            ),
            ("sans-serif", 20),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(0.0..(n * (1.0 + LEGEND_ROOM)), lo..hi)
        .map_err(|e| anyhow!("{e}"))?;
    draw_axes(&mut chart, "step", "distance [file units]", None)?;
    chart
        .draw_series(LineSeries::new([(0.0, 0.0), (n, 0.0)], BLACK))
        .map_err(|e| anyhow!("{e}"))?;
    // Grey first, so the close pairs are drawn on top.
    for (k, (_, values)) in distance_per_pair.iter().enumerate() {
        if !close.contains(&k) {
            chart
                .draw_series(LineSeries::new(
                    values.iter().enumerate().map(|(i, d)| (i as f64, *d)),
                    RGBColor(205, 205, 205),
                ))
                .map_err(|e| anyhow!("{e}"))?;
        }
    }
    for (rank, &k) in close.iter().enumerate() {
        let (pair, values) = &distance_per_pair[k];
        // Hues spread evenly over the close pairs: no colour is used twice.
        let c = HSLColor(rank as f64 / close.len() as f64 * 0.85, 0.75, 0.42).to_rgba();
        let c = RGBColor(c.0, c.1, c.2);
        chart
            .draw_series(LineSeries::new(
                values.iter().enumerate().map(|(i, d)| (i as f64, *d)),
                c.stroke_width(2),
            ))
            .map_err(|e| anyhow!("{e}"))?
            .label(format!("segments {}–{}", pair.0, pair.1))
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], c.stroke_width(2)));
    }
    if close.len() < distance_per_pair.len() {
        chart
            .draw_series(std::iter::empty::<PathElement<(f64, f64)>>())
            .map_err(|e| anyhow!("{e}"))?
            .label(format!(
                "{} other pairs",
                distance_per_pair.len() - close.len()
            ))
            .legend(|(x, y)| {
                PathElement::new(
                    [(x, y), (x + 18, y)],
                    RGBColor(205, 205, 205).stroke_width(2),
                )
            });
    }
    draw_legend(&mut chart)?;
    root.present()
        .map_err(|e| anyhow!("{e}"))
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}
