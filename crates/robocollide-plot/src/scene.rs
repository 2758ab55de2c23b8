//! Orthographic views of posed robots (z over x, y over x), the closest pair highlighted.

use std::path::Path;

use anyhow::{Context, Result, anyhow};
use plotters::coord::Shift;
use plotters::prelude::*;
use robocollide::collision::PairReport;
use robocollide::geom::Shape;

use super::*;

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
                Shape::Box(x) => (x.vertices().to_vec(), 0.0),
                // Unbounded: drawn across whatever the other shapes span.
                Shape::Plane(_) => (vec![], 0.0),
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
    // The world's obstacles (the robot without joints, `W`) first, behind the robots.
    let world_first = robots
        .iter()
        .filter(|r| r.label.starts_with("W:"))
        .chain(robots.iter().filter(|r| !r.label.starts_with("W:")));
    for robot in world_first {
        let fill = robot.color.mix(0.55).filled();
        let edge = robot.color.stroke_width(1);
        for s in robot.shapes {
            let (a, b, r) = match s {
                Shape::Box(x) => {
                    let outline = convex_hull(x.vertices().iter().map(to).collect());
                    chart
                        .draw_series([Polygon::new(outline.clone(), fill)])
                        .map_err(|e| anyhow!("{e}"))?;
                    let mut closed = outline.clone();
                    closed.extend(outline.first().copied());
                    chart
                        .draw_series(std::iter::once(PathElement::new(closed, edge)))
                        .map_err(|e| anyhow!("{e}"))?;
                    continue;
                }
                Shape::Plane(x) => {
                    // The boundary line in this view (through the plane's point), if the plane
                    // is not parallel to the view.
                    let n = x.normal();
                    let (nh, nv) = (n[h], n[v]);
                    let along = (-nv, nh);
                    if nh.hypot(nv) > 1e-6 {
                        let k = 1.0 / nh.hypot(nv);
                        let p0 = x.point();
                        // The point of the line nearest the view's centre.
                        let offset = (nh * (hc - p0[h]) + nv * (vc - p0[v])) * k * k;
                        let c = (hc - nh * offset, vc - nv * offset);
                        let reach = 4.0 * half * k;
                        let line = vec![
                            (c.0 - along.0 * reach, c.1 - along.1 * reach),
                            (c.0 + along.0 * reach, c.1 + along.1 * reach),
                        ];
                        chart
                            .draw_series(std::iter::once(PathElement::new(
                                line,
                                robot.color.stroke_width(3),
                            )))
                            .map_err(|e| anyhow!("{e}"))?;
                    }
                    continue;
                }
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

/// Convex hull of 2-D points (Andrew's monotone chain), counter-clockwise.
fn convex_hull(mut points: Vec<(f64, f64)>) -> Vec<(f64, f64)> {
    points.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let turn = |o: (f64, f64), a: (f64, f64), b: (f64, f64)| {
        (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
    };
    let mut hull: Vec<(f64, f64)> = Vec::new();
    for pass in 0..2 {
        let start = hull.len();
        let ordered: Vec<(f64, f64)> = if pass == 0 {
            points.clone()
        } else {
            points.iter().rev().copied().collect()
        };
        for p in ordered {
            while hull.len() >= start + 2
                && turn(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0
            {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    hull
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
