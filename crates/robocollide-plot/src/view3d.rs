//! Rendered 3-D pictures of posed robots and obstacles: a perspective camera, exact ray casting
//! against the primitives ([`super::ray`]), Lambert shading with a specular highlight, a ground
//! grid and the world axes; the closest or colliding pair drawn in strong colours with its
//! witness segment and labels, everything else paler.
//!
//! Conventions: world z is up; the camera looks at the centre of the bounded shapes from the
//! front right (azimuth `−55°` from +x, elevation `25°`) at a distance that fits them in a 40°
//! field of view. Pixels are supersampled 2 × 2.

use std::path::Path;

use anyhow::{Context, Result, anyhow};
use plotters::coord::Shift;
use plotters::prelude::*;
use robocollide::geom::Shape;
use robocollide::math::{Point3, Real, Vector3};

use super::ray::{bounding_sphere, bounds, intersect};
use super::register_font;

/// One body in a 3-D picture.
#[derive(Debug, Clone)]
pub struct Body3d {
    /// World shape.
    pub shape: Shape,
    /// Base colour.
    pub color: RGBColor,
    /// Name shown when highlighted (`R1-C3 forearm`).
    pub label: String,
    /// Drawn see-through (the world's obstacles: what is behind them stays visible).
    pub translucent: bool,
}

/// What a 3-D picture shows.
#[derive(Debug, Clone, Default)]
pub struct Scene3d {
    /// The bodies.
    pub bodies: Vec<Body3d>,
    /// Indices of the highlighted bodies (the pair): drawn red and orange, labelled.
    pub highlight: Vec<usize>,
    /// The witness segment (point on a, point on b).
    pub witness: Option<([Real; 3], [Real; 3])>,
    /// Legend entries.
    pub legend: Vec<(String, RGBColor)>,
}

const HIGHLIGHT: [RGBColor; 2] = [RGBColor(214, 39, 40), RGBColor(255, 140, 0)];

/// A pinhole camera.
struct Camera {
    eye: Point3,
    forward: Vector3,
    right: Vector3,
    up: Vector3,
    /// tan(half the vertical field of view).
    tan: Real,
    aspect: Real,
}

impl Camera {
    fn framing(scene: &Scene3d, aspect: Real) -> (Camera, Point3, Real) {
        let boxes: Vec<(Vector3, Vector3)> = scene
            .bodies
            .iter()
            .filter_map(|b| bounds(&b.shape))
            .collect();
        let (mut lo, mut hi) = (
            Vector3::repeat(Real::INFINITY),
            Vector3::repeat(Real::NEG_INFINITY),
        );
        for (l, h) in &boxes {
            lo = lo.inf(l);
            hi = hi.sup(h);
        }
        if boxes.is_empty() {
            (lo, hi) = (-Vector3::repeat(1.0), Vector3::repeat(1.0));
        }
        let target = Point3::from((lo + hi) * 0.5);
        let radius = (0.5 * (hi - lo).norm()).max(1e-6);
        let (azimuth, elevation) = ((-55.0 as Real).to_radians(), (25.0 as Real).to_radians());
        let towards_eye = Vector3::new(
            elevation.cos() * azimuth.cos(),
            elevation.cos() * azimuth.sin(),
            elevation.sin(),
        );
        let tan = (20.0 as Real).to_radians().tan();
        let forward = -towards_eye;
        let right = forward.cross(&Vector3::z()).normalize();
        let up = right.cross(&forward);
        let mut camera = Camera {
            eye: target + towards_eye * (radius / (tan.min(tan * aspect)) * 1.05),
            forward,
            right,
            up,
            tan,
            aspect,
        };
        // Move in until the box's corners fill 90 % of the frame (twice: perspective).
        let corners: Vec<Point3> = (0..8)
            .map(|k| {
                Point3::new(
                    if k & 1 == 0 { lo.x } else { hi.x },
                    if k & 2 == 0 { lo.y } else { hi.y },
                    if k & 4 == 0 { lo.z } else { hi.z },
                )
            })
            .collect();
        for _ in 0..2 {
            let spread = corners
                .iter()
                .filter_map(|c| camera.project(c))
                .map(|(u, v)| u.abs().max(v.abs()))
                .fold(0.0, Real::max);
            if spread > 0.0 {
                let distance = (camera.eye - target).norm() * (spread / 0.9).clamp(0.3, 3.0);
                camera.eye = target + towards_eye * distance.max(radius * 1.1);
            }
        }
        (camera, Point3::from(lo), radius)
    }

    /// The ray through image coordinates `(u, v)` in `[-1, 1]` (v up).
    fn ray(&self, u: Real, v: Real) -> Vector3 {
        (self.forward + self.right * (u * self.tan * self.aspect) + self.up * (v * self.tan))
            .normalize()
    }

    /// Image coordinates in `[-1, 1]` of a world point in front of the camera.
    fn project(&self, p: &Point3) -> Option<(Real, Real)> {
        let d = p - self.eye;
        let depth = d.dot(&self.forward);
        (depth > 1e-9).then(|| {
            (
                d.dot(&self.right) / (depth * self.tan * self.aspect),
                d.dot(&self.up) / (depth * self.tan),
            )
        })
    }
}

fn mix(a: RGBColor, b: RGBColor, t: Real) -> RGBColor {
    let m = |x: u8, y: u8| {
        (Real::from(x) * (1.0 - t) + Real::from(y) * t)
            .round()
            .clamp(0.0, 255.0) as u8
    };
    RGBColor(m(a.0, b.0), m(a.1, b.1), m(a.2, b.2))
}

fn scaled(c: RGBColor, k: Real, add: Real) -> [Real; 3] {
    [c.0, c.1, c.2].map(|x| (Real::from(x) * k + 255.0 * add).min(255.0))
}

/// A "nice" grid spacing about a fifth of `size` (1, 2 or 5 times a power of ten).
fn grid_step(size: Real) -> Real {
    let raw = (size / 5.0).max(1e-9);
    let power = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|s| *s >= raw)
        .unwrap_or(raw)
}

/// Renders `scene` into `area` (pixels), with `caption` at the top.
pub fn draw_scene_3d<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    scene: &Scene3d,
    caption: &str,
) -> Result<()>
where
    DB::ErrorType: 'static,
{
    register_font();
    let (w, h) = area.dim_in_pixel();
    let (w, h) = (w as usize, h as usize);
    let aspect = w as Real / h as Real;
    let (camera, low, radius) = Camera::framing(scene, aspect);
    let thin = radius * 0.004;
    let reach = radius * 1.6;
    let floor = low.z;
    let step = grid_step(2.0 * radius);
    let light = Vector3::new(-0.35, -0.55, 0.76).normalize();
    // Colours: highlighted bodies strong, the others paler when something is highlighted.
    let colors: Vec<RGBColor> = scene
        .bodies
        .iter()
        .enumerate()
        .map(
            |(i, b)| match scene.highlight.iter().position(|&k| k == i) {
                Some(n) => HIGHLIGHT[n % 2],
                None if !scene.highlight.is_empty() => mix(b.color, RGBColor(255, 255, 255), 0.45),
                None => b.color,
            },
        )
        .collect();
    // Screen rectangles of the bounded bodies (conservative), for skipping bodies per pixel.
    let rects: Vec<Option<[Real; 4]>> = scene
        .bodies
        .iter()
        .map(|b| {
            let (c, r) = bounding_sphere(&b.shape, thin)?;
            let depth = (c - camera.eye).dot(&camera.forward);
            if depth <= r * 1.01 {
                return Some([-2.0, 2.0, -2.0, 2.0]); // around the eye: everywhere
            }
            let (u, v) = camera.project(&c)?;
            let spread = r / ((depth * depth - r * r).max(1e-300).sqrt());
            let (du, dv) = (
                spread / (camera.tan * aspect) * 1.05,
                spread / camera.tan * 1.05,
            );
            Some([u - du, u + du, v - dv, v + dv])
        })
        .collect();
    let surface = |d: &Vector3, n: Vector3, i: usize| {
        // Two-sided: planes and discs seen from behind.
        let n = if n.dot(d) > 0.0 { -n } else { n };
        let diffuse = n.dot(&light).max(0.0);
        let half = (light - d).normalize();
        let specular = n.dot(&half).max(0.0).powi(40) * 0.35;
        let fill = n.dot(&Vector3::z()).max(0.0) * 0.1;
        scaled(colors[i], 0.38 + 0.55 * diffuse + fill, specular)
    };
    let background = |d: &Vector3| -> [Real; 3] {
        // The floor: a grid that fades with distance.
        let d = *d;
        if d.z < -1e-9 {
            let t = (floor - camera.eye.z) / d.z;
            let p = camera.eye + d * t;
            let far = ((p.x - low.x).hypot(p.y - low.y) / (6.0 * radius)).min(1.0);
            let line = |x: Real| {
                let f = (x / step).rem_euclid(1.0);
                f.min(1.0 - f) * step < radius * 0.0025 * (1.0 + t / radius)
            };
            let base = 246.0 + 9.0 * far;
            let value = if line(p.x) || line(p.y) {
                base - 40.0 * (1.0 - far)
            } else {
                base
            };
            return [value - 2.0, value - 1.0, value];
        }
        [255.0, 255.0, 255.0]
    };
    let shade = |u: Real, v: Real| -> [Real; 3] {
        let d = camera.ray(u, v);
        let mut opaque: Option<(Real, Vector3, usize)> = None;
        let mut glass: Vec<(Real, Vector3, usize)> = Vec::new();
        for (i, body) in scene.bodies.iter().enumerate() {
            if let Some(r) = rects[i]
                && (u < r[0] || u > r[1] || v < r[2] || v > r[3])
            {
                continue;
            }
            if let Some((t, n)) = intersect(&camera.eye, &d, &body.shape, thin, reach) {
                if body.translucent && !scene.highlight.contains(&i) {
                    glass.push((t, n, i));
                } else if opaque.is_none_or(|b| t < b.0) {
                    opaque = Some((t, n, i));
                }
            }
        }
        let behind = match opaque {
            Some((_, n, i)) => surface(&d, n, i),
            None => background(&d),
        };
        // See-through bodies in front, blended from the farthest to the nearest.
        glass.retain(|g| opaque.is_none_or(|o| g.0 < o.0));
        glass.sort_by(|a, b| b.0.total_cmp(&a.0));
        glass.iter().fold(behind, |c, &(_, n, i)| {
            let s = surface(&d, n, i);
            [0; 3]
                .map(|k| 0.65 * c[k] + 0.35 * s[k])
                .map(|x| x.min(255.0))
        })
    };
    let top = 34usize;
    for y in top..h {
        for x in 0..w {
            let mut sum = [0.0; 3];
            for (sx, sy) in [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)] {
                let u = 2.0 * (x as Real + sx) / w as Real - 1.0;
                let v = 1.0 - 2.0 * (y as Real - top as Real + sy) / (h - top) as Real;
                let c = shade(u, v * ((h - top) as Real / h as Real));
                for k in 0..3 {
                    sum[k] += c[k] * 0.25;
                }
            }
            let c = RGBColor(sum[0] as u8, sum[1] as u8, sum[2] as u8);
            area.draw_pixel((x as i32, y as i32), &c)
                .map_err(|e| anyhow!("{e:?}"))?;
        }
    }
    // Overlays: axes at the origin, the witness segment, labels, legend, caption.
    let to_px = |p: &Point3| -> Option<(i32, i32)> {
        let (u, v) = camera.project(p)?;
        let v = v / ((h - top) as Real / h as Real);
        Some((
            ((u + 1.0) * 0.5 * w as Real) as i32,
            (top as Real + (1.0 - v) * 0.5 * (h - top) as Real) as i32,
        ))
    };
    // The world axes as a triad in the bottom-left corner (directions as the camera sees them).
    let corner = (52, h as i32 - 52);
    for (k, (name, color)) in [
        ("x", RGBColor(200, 40, 40)),
        ("y", RGBColor(40, 150, 40)),
        ("z", RGBColor(40, 70, 200)),
    ]
    .into_iter()
    .enumerate()
    {
        let mut axis = Vector3::zeros();
        axis[k] = 1.0;
        let tip = (
            corner.0 + (36.0 * axis.dot(&camera.right)) as i32,
            corner.1 - (36.0 * axis.dot(&camera.up)) as i32,
        );
        area.draw(&PathElement::new(vec![corner, tip], color.stroke_width(3)))
            .map_err(|e| anyhow!("{e:?}"))?;
        area.draw(&Text::new(
            name,
            (tip.0 + 3, tip.1 - 8),
            ("sans-serif", 15).into_font().color(&color),
        ))
        .map_err(|e| anyhow!("{e:?}"))?;
    }
    if let Some((a, b)) = scene.witness
        && let (Some(pa), Some(pb)) = (to_px(&Point3::from(a)), to_px(&Point3::from(b)))
    {
        area.draw(&PathElement::new(vec![pa, pb], BLACK.stroke_width(3)))
            .map_err(|e| anyhow!("{e:?}"))?;
        for p in [pa, pb] {
            area.draw(&Circle::new(p, 4, BLACK.filled()))
                .map_err(|e| anyhow!("{e:?}"))?;
        }
    }
    for (n, &i) in scene.highlight.iter().enumerate() {
        let Some((c, r)) = bounding_sphere(&scene.bodies[i].shape, thin) else {
            continue;
        };
        let (Some(anchor), Some((x, y))) = (to_px(&c), to_px(&(c + camera.up * r))) else {
            continue;
        };
        let text = scene.bodies[i].label.clone();
        let width = 8 * text.chars().count() as i32 + 10;
        // The first label left of its body, the second right of it, so they do not overlap.
        let x = if n % 2 == 0 { x - width - 16 } else { x + 16 };
        let (x, y) = (
            x.clamp(4, w as i32 - width - 4),
            (y - 30).max(top as i32 + 4),
        );
        area.draw(&PathElement::new(
            vec![anchor, (x + width / 2, y + 22)],
            HIGHLIGHT[n % 2].stroke_width(1),
        ))
        .map_err(|e| anyhow!("{e:?}"))?;
        area.draw(&Rectangle::new(
            [(x, y), (x + width, y + 22)],
            WHITE.mix(0.85).filled(),
        ))
        .map_err(|e| anyhow!("{e:?}"))?;
        area.draw(&Rectangle::new(
            [(x, y), (x + width, y + 22)],
            HIGHLIGHT[n % 2].stroke_width(2),
        ))
        .map_err(|e| anyhow!("{e:?}"))?;
        area.draw(&Text::new(text, (x + 5, y + 4), ("sans-serif", 14)))
            .map_err(|e| anyhow!("{e:?}"))?;
    }
    for (k, (label, color)) in scene.legend.iter().enumerate() {
        let y = top as i32 + 10 + 22 * k as i32;
        area.draw(&Rectangle::new([(12, y), (28, y + 14)], color.filled()))
            .map_err(|e| anyhow!("{e:?}"))?;
        area.draw(&Text::new(label.clone(), (34, y), ("sans-serif", 14)))
            .map_err(|e| anyhow!("{e:?}"))?;
    }
    area.draw(&Text::new(caption.to_owned(), (10, 8), ("sans-serif", 19)))
        .map_err(|e| anyhow!("{e:?}"))?;
    Ok(())
}

/// Writes `scene` as a PNG of `size` pixels with `title` on top.
pub fn picture_3d(path: &Path, title: &str, scene: &Scene3d, size: (u32, u32)) -> Result<()> {
    let root = BitMapBackend::new(path, size).into_drawing_area();
    root.fill(&WHITE).map_err(|e| anyhow!("{e}"))?;
    draw_scene_3d(&root, scene, title)?;
    root.present()
        .map_err(|e| anyhow!("{e}"))
        .with_context(|| format!("writing {}", path.display()))
}

/// Writes several scenes side by side (e.g. a model at its three levels of detail).
pub fn panels_3d(path: &Path, panels: &[(String, Scene3d)], panel_size: (u32, u32)) -> Result<()> {
    let root = BitMapBackend::new(path, (panel_size.0 * panels.len() as u32, panel_size.1))
        .into_drawing_area();
    root.fill(&WHITE).map_err(|e| anyhow!("{e}"))?;
    for (area, (title, scene)) in root.split_evenly((1, panels.len())).iter().zip(panels) {
        draw_scene_3d(area, scene, title)?;
    }
    root.present()
        .map_err(|e| anyhow!("{e}"))
        .with_context(|| format!("writing {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use robocollide::geom::Sphere;

    /// Two touching spheres, highlighted: the picture shows both highlight colours, the pair
    /// in the middle of the frame, and the background elsewhere.
    #[test]
    fn the_highlighted_pair_is_drawn_in_its_colours() {
        let sphere = |x: Real| Shape::Sphere(Sphere::new(Point3::new(x, 0.0, 0.5), 0.5).unwrap());
        let scene = Scene3d {
            bodies: vec![
                Body3d {
                    shape: sphere(-0.5),
                    color: RGBColor(31, 119, 180),
                    label: "a".into(),
                    translucent: false,
                },
                Body3d {
                    shape: sphere(0.5),
                    color: RGBColor(31, 119, 180),
                    label: "b".into(),
                    translucent: false,
                },
            ],
            highlight: vec![0, 1],
            witness: Some(([0.0, 0.0, 0.5], [0.0, 0.0, 0.5])),
            legend: vec![],
        };
        let (w, h) = (240u32, 180u32);
        let mut buffer = vec![0u8; (w * h * 3) as usize];
        {
            let area = BitMapBackend::with_buffer(&mut buffer, (w, h)).into_drawing_area();
            area.fill(&WHITE).unwrap();
            draw_scene_3d(&area, &scene, "").unwrap();
            area.present().unwrap();
        }
        let pixel = |x: u32, y: u32| {
            let k = ((y * w + x) * 3) as usize;
            (buffer[k], buffer[k + 1], buffer[k + 2])
        };
        let count = |f: &dyn Fn((u8, u8, u8)) -> bool| {
            (0..h)
                .flat_map(|y| (0..w).map(move |x| (x, y)))
                .filter(|&(x, y)| f(pixel(x, y)))
                .count()
        };
        // Red-dominant (the first body) and orange (the second) pixels both appear.
        let red = count(&|(r, g, b)| r > 80 && g < r / 2 && b < r / 2);
        let orange = count(&|(r, g, b)| r > 120 && g > r / 3 && g < r && b < g / 2);
        assert!(red > 300 && orange > 300, "red {red}, orange {orange}");
        // The corners are background (white sky or light floor).
        let (r, g, b) = pixel(w - 2, 40);
        assert!(r > 200 && g > 200 && b > 200, "{:?}", (r, g, b));
    }
}
