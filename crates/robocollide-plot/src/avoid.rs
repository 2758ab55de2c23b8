//! The velocity filter's run: distance and joint speeds with and without the filter.

use std::path::Path;

use anyhow::{Context, Result, anyhow};
use plotters::coord::Shift;
use plotters::prelude::*;

use super::*;

fn draw_avoid<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    title: &str,
    filtered: &[robocollide::control::SimulationStep],
    unfiltered: &[robocollide::control::SimulationStep],
    settings: &robocollide::control::FilterSettings,
) -> Result<()>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE).map_err(|e| anyhow!("{e}"))?;
    let root = root
        .titled(title, ("sans-serif", 22))
        .map_err(|e| anyhow!("{e}"))?;
    let (top, bottom) = root.split_vertically((55).percent_height());
    let t1 = filtered.last().map_or(1.0, |s| s.t).max(1e-9);
    let blue = RGBColor(31, 119, 180);
    let red = RGBColor(214, 39, 40);
    let orange = RGBColor(255, 127, 14);
    let grey = RGBColor(120, 120, 120);
    // Distance panel (the unfiltered run is cut at −0.1 m to keep the scale readable).
    let lo = filtered
        .iter()
        .chain(unfiltered)
        .map(|s| s.distance)
        .fold(0.0f64, f64::min)
        .max(-0.1)
        - 0.01;
    let hi = filtered
        .iter()
        .chain(unfiltered)
        .map(|s| s.distance)
        .fold(settings.influence, f64::max)
        .min(1.0)
        + 0.02;
    let mut chart = ChartBuilder::on(&top)
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(64)
        .build_cartesian_2d(0.0..(t1 * (1.0 + LEGEND_ROOM)), lo..hi)
        .map_err(|e| anyhow!("{e}"))?;
    draw_axes(&mut chart, "", "minimum distance [m]", Some(2))?;
    for (value, label, color) in [
        (
            settings.influence,
            format!("influence d_i = {} m", settings.influence),
            grey,
        ),
        (
            settings.safety,
            format!("safety d_s = {} m", settings.safety),
            orange,
        ),
    ] {
        chart
            .draw_series(DashedLineSeries::new(
                [(0.0, value), (t1, value)],
                6,
                4,
                color.stroke_width(2),
            ))
            .map_err(|e| anyhow!("{e}"))?
            .label(label)
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], color.stroke_width(2)));
    }
    chart
        .draw_series(LineSeries::new([(0.0, 0.0), (t1, 0.0)], BLACK))
        .map_err(|e| anyhow!("{e}"))?;
    chart
        .draw_series(LineSeries::new(
            unfiltered.iter().map(|s| (s.t, s.distance.max(lo))),
            red.stroke_width(2),
        ))
        .map_err(|e| anyhow!("{e}"))?
        .label("without filter")
        .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], red.stroke_width(2)));
    chart
        .draw_series(LineSeries::new(
            filtered.iter().map(|s| (s.t, s.distance)),
            blue.stroke_width(2),
        ))
        .map_err(|e| anyhow!("{e}"))?
        .label("with filter")
        .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], blue.stroke_width(2)));
    draw_legend(&mut chart)?;
    // Speed panel.
    let vmax = filtered
        .iter()
        .chain(unfiltered)
        .map(|s| s.speed)
        .fold(0.0f64, f64::max)
        * 1.1
        + 1e-9;
    let mut chart = ChartBuilder::on(&bottom)
        .margin(10)
        .x_label_area_size(36)
        .y_label_area_size(64)
        .build_cartesian_2d(0.0..(t1 * (1.0 + LEGEND_ROOM)), 0.0..vmax)
        .map_err(|e| anyhow!("{e}"))?;
    draw_axes(&mut chart, "time [s]", "joint speed |dq/dt| [rad/s]", None)?;
    chart
        .draw_series(LineSeries::new(
            unfiltered.iter().map(|s| (s.t, s.speed)),
            red.stroke_width(2),
        ))
        .map_err(|e| anyhow!("{e}"))?
        .label("without filter")
        .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], red.stroke_width(2)));
    chart
        .draw_series(LineSeries::new(
            filtered.iter().map(|s| (s.t, s.speed)),
            blue.stroke_width(2),
        ))
        .map_err(|e| anyhow!("{e}"))?
        .label("with filter")
        .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], blue.stroke_width(2)));
    chart
        .draw_series(
            filtered
                .iter()
                .filter(|s| s.active > 0)
                .map(|s| Circle::new((s.t, 0.02 * vmax), 2, orange.filled())),
        )
        .map_err(|e| anyhow!("{e}"))?
        .label("a constraint binds (with filter)")
        .legend(move |(x, y)| Circle::new((x + 9, y), 3, orange.filled()));
    draw_legend(&mut chart)?;
    root.present().map_err(|e| anyhow!("{e}"))?;
    Ok(())
}

/// Writes `avoid.png` and `avoid.svg`: distance and joint speed over time, with and without
/// the filter (dots along the bottom mark periods with an active constraint).
pub fn avoid_plot(
    folder: &Path,
    title: &str,
    filtered: &[robocollide::control::SimulationStep],
    unfiltered: &[robocollide::control::SimulationStep],
    settings: &robocollide::control::FilterSettings,
) -> Result<()> {
    register_font();
    let png = folder.join("avoid.png");
    draw_avoid(
        BitMapBackend::new(&png, (1100, 760)).into_drawing_area(),
        title,
        filtered,
        unfiltered,
        settings,
    )
    .with_context(|| format!("writing {}", png.display()))?;
    let svg = folder.join("avoid.svg");
    draw_avoid(
        SVGBackend::new(&svg, (1100, 760)).into_drawing_area(),
        title,
        filtered,
        unfiltered,
        settings,
    )
    .with_context(|| format!("writing {}", svg.display()))?;
    Ok(())
}
