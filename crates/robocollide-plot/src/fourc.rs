//! The 4C mechanism study: distances between its cylinders over the input angle.

use std::path::Path;

use anyhow::{Context, Result, anyhow};
use plotters::prelude::*;

use super::*;

/// Writes the distance of every segment pair (exact cylinders) along a 4C motion; pairs that
/// come within 30 units are coloured and labelled, the others grey.
pub fn fourc_plot(
    path: &Path,
    report: &robocollide::mechanism::StudyReport,
    distance_per_pair: &[robocollide::mechanism::DistanceCurve],
) -> Result<()> {
    register_font();
    let root = BitMapBackend::new(path, (1100, 600)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| anyhow!("{e}"))?;
    let n = report.steps.max(2) as f64 - 1.0;
    let lo = distance_per_pair
        .iter()
        .flat_map(|(_, v)| v.iter().copied())
        .fold(0.0f64, f64::min)
        - 2.0;
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
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..n, lo..80.0)
        .map_err(|e| anyhow!("{e}"))?;
    draw_axes(&mut chart, "step", "distance [unit]", None)?;
    chart
        .draw_series(LineSeries::new([(0.0, 0.0), (n, 0.0)], BLACK))
        .map_err(|e| anyhow!("{e}"))?;
    let palette = [
        RGBColor(214, 39, 40),
        RGBColor(31, 119, 180),
        RGBColor(44, 160, 44),
        RGBColor(148, 103, 189),
        RGBColor(255, 127, 14),
        RGBColor(140, 86, 75),
    ];
    let mut colour = 0;
    for (pair, values) in distance_per_pair {
        let close = values.iter().any(|d| *d < 30.0);
        let points = values
            .iter()
            .enumerate()
            .map(|(i, d)| (i as f64, d.min(80.0)));
        if close {
            let c = palette[colour % palette.len()];
            colour += 1;
            chart
                .draw_series(LineSeries::new(points, c.stroke_width(2)))
                .map_err(|e| anyhow!("{e}"))?
                .label(format!("segments {}–{}", pair.0, pair.1))
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], c.stroke_width(2)));
        } else {
            chart
                .draw_series(LineSeries::new(points, RGBColor(200, 200, 200)))
                .map_err(|e| anyhow!("{e}"))?;
        }
    }
    draw_legend(&mut chart)?;
    root.present()
        .map_err(|e| anyhow!("{e}"))
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}
