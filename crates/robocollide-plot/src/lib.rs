//! Pictures of robocollide's results (plotters): distance over time (PNG and SVG),
//! rendered 3-D pictures of robots and obstacles (exact ray casting, `view3d`), the velocity
//! filter's runs, the 4C study's curves and the planar planner's scene. Shared by the command-line tool and the Python package.
//!
//! Text is drawn with the DejaVu Sans font shipped in `assets/` (plotters' `ab_glyph`
//! backend), so no system fonts are needed.

use std::path::Path;

use anyhow::{Context, Result, anyhow};
use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::FontStyle;
use robocollide::collision::{CellChecker, Sample, Trajectory, config_at};

static FONT: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");

/// How far every time-series chart's x range runs past the data (a fraction of the data's
/// span): the legend sits in that empty strip at the upper right, so it never covers a curve.
pub(crate) const LEGEND_ROOM: f64 = 0.34;

/// The legend of every chart: upper right (in the strip [`LEGEND_ROOM`] keeps free), 13 px text.
fn draw_legend<'a, DB, CT>(chart: &mut ChartContext<'a, DB, CT>) -> Result<()>
where
    DB: DrawingBackend + 'a,
    DB::ErrorType: 'static,
    CT: plotters::coord::CoordTranslate,
{
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.9))
        .border_style(RGBColor(180, 180, 180))
        .label_font(("sans-serif", 13))
        .position(SeriesLabelPosition::UpperRight)
        .draw()
        .map_err(|e| anyhow!("{e}"))
}

/// Grid, axis titles and tick labels of every time-series chart; `y_decimals` fixes the
/// tick precision (rounded first, so no "-0.00").
fn draw_axes<'a, DB>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    x_desc: &str,
    y_desc: &str,
    y_decimals: Option<usize>,
) -> Result<()>
where
    DB: DrawingBackend + 'a,
    DB::ErrorType: 'static,
{
    let fixed = |y: &f64| {
        let d = y_decimals.unwrap_or(0);
        let scale = 10f64.powi(d as i32);
        format!("{:.*}", d, (y * scale).round() / scale + 0.0)
    };
    let mut mesh = chart.configure_mesh();
    mesh.x_desc(x_desc)
        .y_desc(y_desc)
        .label_style(("sans-serif", 13))
        .light_line_style(RGBColor(235, 235, 235));
    if y_decimals.is_some() {
        mesh.y_label_formatter(&fixed);
    }
    mesh.draw().map_err(|e| anyhow!("{e}"))
}

/// Registers the shipped font once.
pub fn register_font() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = plotters::style::register_font("sans-serif", FontStyle::Normal, FONT);
    });
}

/// What a distance plot shows.
pub struct DistancePlot<'a> {
    /// Title.
    pub title: &'a str,
    /// Dense curve for drawing.
    pub curve: &'a [Sample],
    /// Evaluated points (time order): rows are drawn as dots, bisection points as ticks.
    pub samples: &'a [Sample],
    /// Report threshold (m).
    pub threshold: f64,
    /// Contact intervals.
    pub intervals: &'a [(f64, f64)],
    /// First contact time, if any.
    pub first_collision: Option<f64>,
    /// A second curve (e.g. the sampled-only sweep), drawn thin, with its legend label.
    pub comparison: Option<(&'a [Sample], &'a str)>,
}

fn draw_distance<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    plot: &DistancePlot,
) -> Result<()>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE).map_err(|e| anyhow!("{e}"))?;
    let (t0, t1) = (
        plot.curve.first().map_or(0.0, |s| s.t),
        plot.curve.last().map_or(1.0, |s| s.t).max(1e-9),
    );
    let mut lo = plot
        .curve
        .iter()
        .chain(plot.samples)
        .map(|s| s.distance)
        .fold(0.0f64, f64::min);
    let mut hi = plot
        .curve
        .iter()
        .chain(plot.samples)
        .map(|s| s.distance)
        .fold(plot.threshold, f64::max);
    if let Some((other, _)) = plot.comparison {
        lo = other.iter().map(|s| s.distance).fold(lo, f64::min);
        hi = other.iter().map(|s| s.distance).fold(hi, f64::max);
    }
    let pad = 0.08 * (hi - lo).max(1e-6);
    let mut chart = ChartBuilder::on(&root)
        .caption(plot.title, ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(42)
        .y_label_area_size(64)
        .build_cartesian_2d(t0..(t1 + LEGEND_ROOM * (t1 - t0)), (lo - pad)..(hi + pad))
        .map_err(|e| anyhow!("{e}"))?;
    draw_axes(&mut chart, "time [s]", "minimum distance [m]", Some(3))?;
    let contact = RGBColor(214, 39, 40);
    for &(a, b) in plot.intervals {
        let b = if b > a { b } else { a + (t1 - t0) * 0.002 };
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(a, lo - pad), (b, hi + pad)],
                contact.mix(0.18).filled(),
            )))
            .map_err(|e| anyhow!("{e}"))?;
    }
    chart
        .draw_series(LineSeries::new(
            [(t0, 0.0), (t1, 0.0)],
            BLACK.stroke_width(1),
        ))
        .map_err(|e| anyhow!("{e}"))?
        .label("contact (d = 0)")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 18, y)], BLACK));
    let orange = RGBColor(255, 127, 14);
    chart
        .draw_series(DashedLineSeries::new(
            [(t0, plot.threshold), (t1, plot.threshold)],
            6,
            4,
            orange.stroke_width(2),
        ))
        .map_err(|e| anyhow!("{e}"))?
        .label(format!("threshold {} m", plot.threshold))
        .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], orange.stroke_width(2)));
    if let Some((other, label)) = plot.comparison {
        let grey = RGBColor(140, 140, 140);
        chart
            .draw_series(DashedLineSeries::new(
                other.iter().map(|s| (s.t, s.distance)),
                4,
                3,
                grey.stroke_width(1),
            ))
            .map_err(|e| anyhow!("{e}"))?
            .label(label)
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], grey));
    }
    let blue = RGBColor(31, 119, 180);
    chart
        .draw_series(LineSeries::new(
            plot.curve.iter().map(|s| (s.t, s.distance)),
            blue.stroke_width(2),
        ))
        .map_err(|e| anyhow!("{e}"))?
        .label("minimum distance")
        .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], blue.stroke_width(2)));
    chart
        .draw_series(
            plot.samples
                .iter()
                .filter(|s| s.given)
                .map(|s| Circle::new((s.t, s.distance), 4, blue.filled())),
        )
        .map_err(|e| anyhow!("{e}"))?
        .label("trajectory rows")
        .legend(move |(x, y)| Circle::new((x + 9, y), 4, blue.filled()));
    let purple = RGBColor(148, 103, 189);
    chart
        .draw_series(
            plot.samples
                .iter()
                .filter(|s| !s.given)
                .map(|s| Cross::new((s.t, s.distance), 3, purple.stroke_width(1))),
        )
        .map_err(|e| anyhow!("{e}"))?
        .label("points added by the guaranteed sweep")
        .legend(move |(x, y)| Cross::new((x + 9, y), 3, purple.stroke_width(1)));
    if let Some(t) = plot.first_collision {
        chart
            .draw_series(std::iter::once(Circle::new((t, 0.0), 6, contact.filled())))
            .map_err(|e| anyhow!("{e}"))?
            .label(format!("first contact t = {t:.4} s"))
            .legend(move |(x, y)| Circle::new((x + 9, y), 5, contact.filled()));
    }
    draw_legend(&mut chart)?;
    root.present().map_err(|e| anyhow!("{e}"))?;
    Ok(())
}

/// The minimum distance at 600 evenly spaced times, for drawing only (the report's
/// guarantees come from the sweep, not from this curve).
pub fn display_curve(checker: &mut CellChecker<'_>, trajectory: &Trajectory) -> Vec<Sample> {
    let (t0, t1) = (trajectory.times[0], trajectory.times[trajectory.len() - 1]);
    let n = 600;
    (0..=n)
        .filter_map(|i| {
            let t = t0 + (t1 - t0) * i as f64 / n as f64;
            checker.pose(&config_at(trajectory, t));
            checker.closest().map(|c| Sample {
                t,
                distance: c.distance,
                pair: c.pair,
                given: false,
            })
        })
        .collect()
}

/// Writes the distance plot to `path`: SVG when its extension is `.svg`, else PNG.
pub fn distance_plot_file(path: &Path, plot: &DistancePlot) -> Result<()> {
    register_font();
    let svg = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("svg"));
    let drawn = if svg {
        draw_distance(SVGBackend::new(path, (1100, 560)).into_drawing_area(), plot)
    } else {
        draw_distance(
            BitMapBackend::new(path, (1100, 560)).into_drawing_area(),
            plot,
        )
    };
    drawn.with_context(|| format!("writing {}", path.display()))
}

/// Writes the distance plot as `stem.png` and `stem.svg` in `folder`.
pub fn distance_plot(folder: &Path, stem: &str, plot: &DistancePlot) -> Result<()> {
    register_font();
    let png = folder.join(format!("{stem}.png"));
    draw_distance(
        BitMapBackend::new(&png, (1100, 560)).into_drawing_area(),
        plot,
    )
    .with_context(|| format!("writing {}", png.display()))?;
    let svg = folder.join(format!("{stem}.svg"));
    draw_distance(SVGBackend::new(&svg, (1100, 560)).into_drawing_area(), plot)
        .with_context(|| format!("writing {}", svg.display()))?;
    Ok(())
}

mod avoid;
mod fourc;
mod planar;
mod ray;
mod view3d;
mod viewer;

pub use avoid::avoid_plot;
pub use fourc::fourc_plot;
pub use planar::plan2d_picture;
pub use view3d::{Body3d, Scene3d, draw_scene_3d, panels_3d, picture_3d};
pub use viewer::{Viewer, ViewerBody, ViewerFrame};
