//! `--html FILE`: the interactive viewer of a cell over time (or at one configuration), built
//! from the checker's closest pair at each moment; the page itself is
//! `robocollide_plot::Viewer`.

use std::path::Path;

use anyhow::Result;
use plotters::style::RGBColor;
use robocollide::collision::CellChecker;
use robocollide::robot::{Cell, WORLD_LABEL};
use robocollide_plot::{Viewer, ViewerBody, ViewerFrame};

use crate::demo::COLORS;

/// Most moments a viewer file holds (a longer run is subsampled evenly; the first and last
/// moments and the given `keep` moments are always kept).
const MAX_FRAMES: usize = 600;

/// One moment of a viewer: time, configuration (all robots concatenated, radians and metres)
/// and, if the caller knows which pair matters (the velocity filter's constrained pairs), its
/// index among the checker's pairs; otherwise the closest pair is shown.
pub struct Moment {
    /// Time (s).
    pub t: f64,
    /// Configuration.
    pub q: Vec<f64>,
    /// The pair to show.
    pub pair: Option<usize>,
}

/// Moments along a trajectory for the viewer: every row, evenly spaced times in between (at
/// least 400 over the whole), and `extra` times (e.g. a contact between rows).
pub fn trajectory_moments(
    trajectory: &robocollide::collision::Trajectory,
    extra: &[f64],
) -> Vec<Moment> {
    let (t0, t1) = (trajectory.times[0], trajectory.times[trajectory.len() - 1]);
    let mut times: Vec<f64> = trajectory.times.clone();
    times.extend((0..=400).map(|k| t0 + (t1 - t0) * k as f64 / 400.0));
    times.extend(extra.iter().copied().filter(|t| (t0..=t1).contains(t)));
    times.sort_by(f64::total_cmp);
    times.dedup();
    times
        .into_iter()
        .map(|t| Moment {
            t,
            q: robocollide::collision::config_at(trajectory, t),
            pair: None,
        })
        .collect()
}

/// A cell's colour for robot `r`.
fn robot_color(cell: &Cell, r: usize) -> RGBColor {
    if cell.robots[r].label == WORLD_LABEL {
        RGBColor(150, 150, 150)
    } else {
        COLORS[r % COLORS.len()]
    }
}

/// The viewer of `cell` through the moments `(t, q)` (q: all robots concatenated, radians and
/// metres), each with its closest pair; `contacts` are shaded on the plot; the frame nearest
/// `start_at` is shown first.
pub fn write_viewer(
    path: &Path,
    cell: &Cell,
    include_self: bool,
    moments: &[Moment],
    contacts: &[(f64, f64)],
    (title, subtitle): (&str, &str),
    start_at: Option<f64>,
) -> Result<()> {
    let mut viewer = Viewer {
        title: title.to_owned(),
        subtitle: subtitle.to_owned(),
        contacts: contacts.to_vec(),
        ..Viewer::default()
    };
    let mut offsets = Vec::new();
    for (r, robot) in cell.robots.iter().enumerate() {
        offsets.push(viewer.bodies.len());
        viewer.legend.push((
            format!("{}: {}", robot.label, robot.model.name),
            robot_color(cell, r),
        ));
        for (b, body) in robot.model.bodies.iter().enumerate() {
            viewer.bodies.push(ViewerBody {
                label: format!(
                    "{}-{} ({})",
                    robot.label,
                    body.name,
                    robot.model.link_name(b)
                ),
                color: robot_color(cell, r),
                translucent: robot.model.dof() == 0,
            });
        }
    }
    let stride = moments.len().div_ceil(MAX_FRAMES).max(1);
    let mut checker = CellChecker::new(cell, include_self);
    for (k, Moment { t, q, pair }) in moments.iter().enumerate() {
        let near_start = start_at.is_some_and(|s| {
            let next = moments.get(k + 1).map_or(f64::INFINITY, |m| m.t);
            *t <= s && s < next
        });
        if k % stride != 0 && k + 1 != moments.len() && !near_start {
            continue;
        }
        checker.validate(q)?;
        checker.pose(q);
        let mut shapes = Vec::with_capacity(viewer.bodies.len());
        for (r, robot) in cell.robots.iter().enumerate() {
            shapes.extend(robot.model.world_shapes(checker.robot_q(q, r))?);
        }
        let closest = match pair {
            Some(k) => Some(robocollide::collision::Closest {
                distance: checker.distance(*k),
                pair: *k,
            }),
            None => checker.closest(),
        };
        let (pair, witness, distance) = match closest {
            Some(c) => {
                let p = checker.pairs()[c.pair];
                let s = checker.separation(c.pair);
                (
                    Some((offsets[p.robot_a] + p.body_a, offsets[p.robot_b] + p.body_b)),
                    Some((s.point_a.coords.into(), s.point_b.coords.into())),
                    c.distance,
                )
            }
            None => (None, None, f64::INFINITY),
        };
        if near_start {
            viewer.start = viewer.frames.len();
        }
        viewer.frames.push(ViewerFrame {
            t: *t,
            shapes,
            pair,
            witness,
            distance,
        });
    }
    viewer.write(path)?;
    eprintln!(
        "robocollide: wrote {} ({} moments; open it in a browser)",
        path.display(),
        viewer.frames.len()
    );
    Ok(())
}
