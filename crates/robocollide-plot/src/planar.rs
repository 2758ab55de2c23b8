//! Seed 001's planar arm among circles: the scene and the planned path.

use std::path::Path;

use anyhow::{Context, Result, anyhow};
use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use super::*;

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
