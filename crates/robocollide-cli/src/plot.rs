//! Pictures: distance over time (PNG and SVG) and orthographic views of the robots.
//!
//! Text is drawn with the DejaVu Sans font shipped in `assets/` (plotters' `ab_glyph`
//! backend), so no system fonts are needed.

use std::path::Path;

use anyhow::{Context, Result, anyhow};
use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::FontStyle;
use robocollide::collision::{PairReport, Sample};
use robocollide::geom::Shape;

static FONT: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");

/// The legend box used by every chart: top right, translucent white, 13 px text.
fn draw_legend<'a, DB, CT>(chart: &mut ChartContext<'a, DB, CT>) -> Result<()>
where
    DB: DrawingBackend + 'a,
    DB::ErrorType: 'static,
    CT: plotters::coord::CoordTranslate,
{
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
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
        .build_cartesian_2d(t0..t1, (lo - pad)..(hi + pad))
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

/// One robot's shapes and colour for a picture.
pub struct RobotShapes<'a> {
    /// Legend label.
    pub label: String,
    /// World shapes.
    pub shapes: &'a [Shape],
    /// Fill colour.
    pub color: RGBColor,
}

/// A 2-D projection: (horizontal, vertical) world axes and their names.
type View = (usize, usize, &'static str, &'static str);

fn extent(robots: &[RobotShapes], axis: usize) -> (f64, f64) {
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for r in robots {
        for s in r.shapes {
            let (pts, rad) = match s {
                Shape::Sphere(x) => (vec![x.center()], x.radius()),
                Shape::Capsule(c) => (vec![c.axis().a(), c.axis().b()], c.radius()),
                Shape::Cylinder(c) => (vec![c.axis().a(), c.axis().b()], c.radius()),
                Shape::Segment(g) => (vec![g.a(), g.b()], 0.0),
                Shape::Point(p) => (vec![*p], 0.0),
            };
            for p in pts {
                lo = lo.min(p[axis] - rad);
                hi = hi.max(p[axis] + rad);
            }
        }
    }
    (lo, hi)
}

fn draw_view<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    robots: &[RobotShapes],
    pair: Option<&PairReport>,
    view: View,
    range: f64,
) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let (h, v, hname, vname) = view;
    let (hl, hh) = extent(robots, h);
    let (vl, vh) = extent(robots, v);
    let (hc, vc) = (0.5 * (hl + hh), 0.5 * (vl + vh));
    let half = 0.5 * range * 1.08;
    let mut chart = ChartBuilder::on(area)
        .caption(format!("{vname} over {hname} (m)"), ("sans-serif", 18))
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(48)
        .build_cartesian_2d((hc - half)..(hc + half), (vc - half)..(vc + half))
        .map_err(|e| anyhow!("{e}"))?;
    chart
        .configure_mesh()
        .label_style(("sans-serif", 12))
        .light_line_style(RGBColor(240, 240, 240))
        .draw()
        .map_err(|e| anyhow!("{e}"))?;
    let plot_px = chart.plotting_area().dim_in_pixel();
    let px_per_m = f64::from(plot_px.0.min(plot_px.1)) / (2.0 * half);
    let to = |p: &robocollide::math::Point3| (p[h], p[v]);
    for robot in robots {
        let fill = robot.color.mix(0.55).filled();
        let edge = robot.color.stroke_width(1);
        for s in robot.shapes {
            let (a, b, r) = match s {
                Shape::Sphere(x) => (x.center(), x.center(), x.radius()),
                Shape::Capsule(c) => (c.axis().a(), c.axis().b(), c.radius()),
                Shape::Cylinder(c) => (c.axis().a(), c.axis().b(), c.radius()),
                Shape::Segment(g) => (g.a(), g.b(), 0.0),
                Shape::Point(p) => (*p, *p, 0.0),
            };
            let (pa, pb) = (to(&a), to(&b));
            let (dx, dy) = (pb.0 - pa.0, pb.1 - pa.1);
            let len = dx.hypot(dy);
            if len > 1e-12 {
                let (nx, ny) = (-dy / len * r, dx / len * r);
                let quad = vec![
                    (pa.0 + nx, pa.1 + ny),
                    (pb.0 + nx, pb.1 + ny),
                    (pb.0 - nx, pb.1 - ny),
                    (pa.0 - nx, pa.1 - ny),
                ];
                chart
                    .draw_series(std::iter::once(Polygon::new(quad, fill)))
                    .map_err(|e| anyhow!("{e}"))?;
            }
            let rpx = (r * px_per_m).round().max(1.0) as i32;
            let caps: Vec<(f64, f64)> = if matches!(s, Shape::Cylinder(_)) {
                vec![]
            } else {
                vec![pa, pb]
            };
            chart
                .draw_series(caps.into_iter().map(|c| Circle::new(c, rpx, fill)))
                .map_err(|e| anyhow!("{e}"))?;
            chart
                .draw_series(std::iter::once(PathElement::new(vec![pa, pb], edge)))
                .map_err(|e| anyhow!("{e}"))?;
        }
    }
    if let Some(p) = pair {
        let red = RGBColor(214, 39, 40);
        let (a, b) = ((p.point_a[h], p.point_a[v]), (p.point_b[h], p.point_b[v]));
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![a, b],
                red.stroke_width(3),
            )))
            .map_err(|e| anyhow!("{e}"))?;
        chart
            .draw_series([a, b].map(|c| Circle::new(c, 5, red.filled())))
            .map_err(|e| anyhow!("{e}"))?;
    }
    Ok(())
}

/// Writes a PNG with a front view (z over x) and a top view (y over x) of the robots, the
/// closest pair's witness points joined in red.
pub fn scene_picture(
    path: &Path,
    title: &str,
    robots: &[RobotShapes],
    pair: Option<&PairReport>,
) -> Result<()> {
    register_font();
    let root = BitMapBackend::new(path, (1300, 680)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| anyhow!("{e}"))?;
    let root = root
        .titled(title, ("sans-serif", 22))
        .map_err(|e| anyhow!("{e}"))?;
    let (left, right) = root.split_horizontally(650);
    let range = [0, 1, 2]
        .iter()
        .map(|&a| extent(robots, a))
        .map(|(l, h)| h - l)
        .fold(0.0, f64::max);
    draw_view(&left, robots, pair, (0, 2, "x", "z"), range)?;
    draw_view(&right, robots, pair, (0, 1, "x", "y"), range)?;
    // Legend in the top-left corner of the left view.
    for (i, r) in robots.iter().enumerate() {
        let y = 52 + 24 * i as i32;
        left.draw(&Rectangle::new(
            [(80, y), (98, y + 14)],
            r.color.mix(0.55).filled(),
        ))
        .map_err(|e| anyhow!("{e}"))?;
        left.draw(&Text::new(r.label.clone(), (106, y), ("sans-serif", 15)))
            .map_err(|e| anyhow!("{e}"))?;
    }
    root.present()
        .map_err(|e| anyhow!("{e}"))
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

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
        .build_cartesian_2d(0.0..t1, lo..hi)
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
        .build_cartesian_2d(0.0..t1, 0.0..vmax)
        .map_err(|e| anyhow!("{e}"))?;
    draw_axes(&mut chart, "time [s]", "joint speed ‖q̇‖ [rad/s]", None)?;
    chart
        .draw_series(LineSeries::new(
            unfiltered.iter().map(|s| (s.t, s.speed)),
            red.stroke_width(2),
        ))
        .map_err(|e| anyhow!("{e}"))?;
    chart
        .draw_series(LineSeries::new(
            filtered.iter().map(|s| (s.t, s.speed)),
            blue.stroke_width(2),
        ))
        .map_err(|e| anyhow!("{e}"))?;
    chart
        .draw_series(
            filtered
                .iter()
                .filter(|s| s.active > 0)
                .map(|s| Circle::new((s.t, 0.02 * vmax), 1, orange.filled())),
        )
        .map_err(|e| anyhow!("{e}"))?;
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

/// A panel of the two-panel plan picture: a caption and equal axes over `[−half, half]²`.
fn square_panel<'a, 'b>(
    area: &'a DrawingArea<BitMapBackend<'b>, Shift>,
    caption: &str,
    half: f64,
) -> Result<ChartContext<'a, BitMapBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>> {
    ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 17))
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(44)
        .build_cartesian_2d(-half..half, -half..half)
        .map_err(|e| anyhow!("{e}"))
}

/// Writes the two-panel picture of a planar plan: configuration space (obstacle region in
/// grey, the two trees, the path in red) and workspace (circles, the arm along the path).
pub fn plan2d_picture(
    path: &Path,
    validity: &mut robocollide::validity::PlanarValidity,
    circles: &[robocollide::planar::Circle],
    plan: &robocollide::planning::Plan,
) -> Result<()> {
    use robocollide::planning::Validity;
    register_font();
    let root = BitMapBackend::new(path, (1300, 660)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| anyhow!("{e}"))?;
    let root = root
        .titled(
            "RRT-Connect for a two-link arm among circles",
            ("sans-serif", 22),
        )
        .map_err(|e| anyhow!("{e}"))?;
    let (left, right) = root.split_horizontally(650);
    let red = RGBColor(214, 39, 40);
    let deg = |v: f64| v.to_degrees();
    // Configuration space.
    let mut chart = square_panel(&left, "configuration space: q2 over q1 [deg]", 180.0)?;
    chart
        .configure_mesh()
        .label_style(("sans-serif", 12))
        .disable_mesh()
        .draw()
        .map_err(|e| anyhow!("{e}"))?;
    let cells = 150;
    let w = 360.0 / cells as f64;
    let mut blocked = Vec::new();
    for i in 0..cells {
        for j in 0..cells {
            let (a, b) = (-180.0 + (i as f64 + 0.5) * w, -180.0 + (j as f64 + 0.5) * w);
            if !validity.is_valid(&[a.to_radians(), b.to_radians()]) {
                blocked.push(Rectangle::new(
                    [(a - w / 2.0, b - w / 2.0), (a + w / 2.0, b + w / 2.0)],
                    RGBColor(200, 200, 200).filled(),
                ));
            }
        }
    }
    chart.draw_series(blocked).map_err(|e| anyhow!("{e}"))?;
    let tree_color = RGBColor(31, 119, 180).mix(0.5);
    chart
        .draw_series(plan.tree.iter().map(|(a, b)| {
            PathElement::new(
                vec![(deg(a[0]), deg(a[1])), (deg(b[0]), deg(b[1]))],
                tree_color,
            )
        }))
        .map_err(|e| anyhow!("{e}"))?;
    chart
        .draw_series(std::iter::once(PathElement::new(
            plan.path
                .iter()
                .map(|q| (deg(q[0]), deg(q[1])))
                .collect::<Vec<_>>(),
            red.stroke_width(3),
        )))
        .map_err(|e| anyhow!("{e}"))?;
    let (start, goal) = (&plan.path[0], &plan.path[plan.path.len() - 1]);
    chart
        .draw_series(
            [
                (start, RGBColor(31, 119, 180)),
                (goal, RGBColor(44, 160, 44)),
            ]
            .map(|(q, c)| Circle::new((deg(q[0]), deg(q[1])), 6, c.filled())),
        )
        .map_err(|e| anyhow!("{e}"))?;
    // Workspace.
    let mut chart = square_panel(&right, "workspace [m]: the arm along the path", 2.0)?;
    chart
        .configure_mesh()
        .label_style(("sans-serif", 12))
        .light_line_style(RGBColor(240, 240, 240))
        .draw()
        .map_err(|e| anyhow!("{e}"))?;
    let px_per_m = f64::from(chart.plotting_area().dim_in_pixel().0) / 4.0;
    chart
        .draw_series(circles.iter().map(|c| {
            Circle::new(
                (c.center[0], c.center[1]),
                (c.radius * px_per_m).round() as i32,
                RGBColor(120, 120, 120).mix(0.6).filled(),
            )
        }))
        .map_err(|e| anyhow!("{e}"))?;
    // Densify the path for the stroboscopic view.
    let mut poses = Vec::new();
    for w in plan.path.windows(2) {
        for k in 0..8 {
            let s = k as f64 / 8.0;
            poses.push(vec![
                w[0][0] + (w[1][0] - w[0][0]) * s,
                w[0][1] + (w[1][1] - w[0][1]) * s,
            ]);
        }
    }
    poses.push(goal.clone());
    let n = poses.len().max(2) - 1;
    for (k, q) in poses.iter().enumerate() {
        let f = k as f64 / n as f64;
        let color = RGBColor(
            (31.0 + f * 13.0) as u8,
            (119.0 + f * 41.0) as u8,
            (180.0 - f * 136.0) as u8,
        );
        let links = validity.arm.links(q);
        let mut points = vec![(links[0].a[0], links[0].a[1])];
        points.extend(links.iter().map(|l| (l.b[0], l.b[1])));
        let style = if k == 0 || k == n {
            color.stroke_width(4)
        } else {
            color.mix(0.35).stroke_width(2)
        };
        chart
            .draw_series(std::iter::once(PathElement::new(points, style)))
            .map_err(|e| anyhow!("{e}"))?;
    }
    root.present()
        .map_err(|e| anyhow!("{e}"))
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

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
