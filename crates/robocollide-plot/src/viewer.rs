//! The interactive viewer: one self-contained HTML file with the scene in 3-D (three.js,
//! orbit and zoom), a time slider and play button, the distance-over-time plot linked to the
//! slider with contact intervals shaded, and the closest pair and its witness segment at each
//! time.
//!
//! The page (`assets/viewer.html`, our own code) inlines three.js 0.187.0 (`assets/three/`,
//! MIT, vendored from npm with its licence) and the data as JSON, so it works offline and
//! makes no network requests. `file.html#selftest` runs the browser test's checks in the page
//! (canvas not blank, the slider changes the reported distance, no errors) and writes the
//! result into the page title.

use std::path::Path;

use anyhow::{Context, Result};
use plotters::style::RGBColor;
use robocollide::geom::Shape;
use robocollide::math::Real;
use serde_json::{Value, json};

use super::ray::bounds;

const TEMPLATE: &str = include_str!("../assets/viewer.html");
const THREE_CORE: &str = include_str!("../assets/three/three.core.js");
const THREE_MODULE: &str = include_str!("../assets/three/three.module.js");
const THREE_ORBIT: &str = include_str!("../assets/three/OrbitControls.js");

/// One body of the viewer (its shape changes per frame, its kind and colour do not).
#[derive(Debug, Clone)]
pub struct ViewerBody {
    /// Name shown for the closest pair (`R1-C3 (forearm)`).
    pub label: String,
    /// Colour.
    pub color: RGBColor,
    /// See-through (the world's obstacles).
    pub translucent: bool,
}

/// One moment of the viewer.
#[derive(Debug, Clone)]
pub struct ViewerFrame {
    /// Time (s).
    pub t: Real,
    /// Every body's world shape, in the order of the bodies.
    pub shapes: Vec<Shape>,
    /// Indices of the closest pair's bodies.
    pub pair: Option<(usize, usize)>,
    /// Its witness points.
    pub witness: Option<([Real; 3], [Real; 3])>,
    /// Its distance (m).
    pub distance: Real,
}

/// Everything a viewer file shows.
#[derive(Debug, Clone, Default)]
pub struct Viewer {
    /// Title line.
    pub title: String,
    /// Second line (what the slider moves through).
    pub subtitle: String,
    /// The bodies.
    pub bodies: Vec<ViewerBody>,
    /// The moments.
    pub frames: Vec<ViewerFrame>,
    /// Time intervals in contact (shaded on the plot).
    pub contacts: Vec<(Real, Real)>,
    /// Legend entries.
    pub legend: Vec<(String, RGBColor)>,
    /// The frame shown first.
    pub start: usize,
}

fn hex(c: RGBColor) -> String {
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}

/// The kind name and numbers of a shape, as the page reads them.
fn shape_json(shape: &Shape) -> (&'static str, Vec<Real>) {
    match shape {
        Shape::Point(p) => ("point", vec![p.x, p.y, p.z]),
        Shape::Sphere(s) => {
            let c = s.center();
            ("sphere", vec![c.x, c.y, c.z, s.radius()])
        }
        Shape::Segment(s) => {
            let (a, b) = (s.a(), s.b());
            ("segment", vec![a.x, a.y, a.z, b.x, b.y, b.z])
        }
        Shape::Capsule(c) => {
            let (a, b) = (c.axis().a(), c.axis().b());
            ("capsule", vec![a.x, a.y, a.z, b.x, b.y, b.z, c.radius()])
        }
        Shape::Cylinder(c) => {
            let (a, b) = (c.axis().a(), c.axis().b());
            ("cylinder", vec![a.x, a.y, a.z, b.x, b.y, b.z, c.radius()])
        }
        Shape::Box(b) => {
            let (c, r, h) = (b.center(), b.rotation(), b.half_extents());
            let mut v = vec![c.x, c.y, c.z];
            for i in 0..3 {
                for j in 0..3 {
                    v.push(r[(i, j)]);
                }
            }
            v.extend([h.x, h.y, h.z]);
            ("box", v)
        }
        Shape::Plane(p) => {
            let (q, n) = (p.point(), p.normal());
            ("plane", vec![q.x, q.y, q.z, n.x, n.y, n.z])
        }
    }
}

/// JSON numbers: non-finite values (no pair: infinite distance) become `null`.
fn number(x: Real) -> Value {
    if x.is_finite() { json!(x) } else { Value::Null }
}

impl Viewer {
    /// The page's data.
    fn data(&self) -> Value {
        let (mut lo, mut hi) = ([Real::INFINITY; 3], [Real::NEG_INFINITY; 3]);
        for frame in &self.frames {
            for (l, h) in frame.shapes.iter().filter_map(bounds) {
                for k in 0..3 {
                    lo[k] = lo[k].min(l[k]);
                    hi[k] = hi[k].max(h[k]);
                }
            }
        }
        if lo[0] > hi[0] {
            (lo, hi) = ([-1.0; 3], [1.0; 3]);
        }
        let size = (0..3).map(|k| hi[k] - lo[k]).fold(1e-6, Real::max);
        let kinds: Vec<&str> = self.frames.first().map_or_else(Vec::new, |f| {
            f.shapes.iter().map(|s| shape_json(s).0).collect()
        });
        json!({
            "title": self.title,
            "subtitle": self.subtitle,
            "legend": self.legend.iter().map(|(l, c)| json!([l, hex(*c)])).collect::<Vec<_>>(),
            "bodies": self.bodies.iter().zip(&kinds).map(|(b, kind)| json!({
                "label": b.label, "color": hex(b.color), "translucent": b.translucent, "kind": kind,
            })).collect::<Vec<_>>(),
            "frames": self.frames.iter().map(|f| json!({
                "t": f.t,
                "shapes": f.shapes.iter().map(|s| shape_json(s).1).collect::<Vec<_>>(),
                "pair": f.pair.map(|(a, b)| vec![a, b]),
                "witness": f.witness.map(|(a, b)| vec![a, b]),
                "distance": number(f.distance),
                "label": f.pair.map(|(a, b)| format!("{} – {}", self.bodies[a].label, self.bodies[b].label)),
            })).collect::<Vec<_>>(),
            "contacts": self.contacts.iter().map(|(a, b)| vec![*a, *b]).collect::<Vec<_>>(),
            "bounds": [lo, hi],
            "thin": size * 0.004,
            "reach": size * 0.8,
            "start": self.start.min(self.frames.len().saturating_sub(1)),
        })
    }

    /// The self-contained HTML page.
    pub fn html(&self) -> String {
        // `</` inside the JSON would end its <script> element early.
        let data = self.data().to_string().replace("</", "<\\/");
        let mut page = String::with_capacity(
            TEMPLATE.len() + THREE_CORE.len() + THREE_MODULE.len() + data.len(),
        );
        let mut rest = TEMPLATE;
        for (marker, text) in [
            ("__DATA__", data.as_str()),
            ("__THREE_CORE__", THREE_CORE),
            ("__THREE_MODULE__", THREE_MODULE),
            ("__THREE_ORBIT__", THREE_ORBIT),
        ] {
            let at = rest
                .find(marker)
                .expect("the template has every marker once, in this order");
            page.push_str(&rest[..at]);
            page.push_str(text);
            rest = &rest[at + marker.len()..];
        }
        page.push_str(rest);
        page
    }

    /// Writes the page to `path`.
    pub fn write(&self, path: &Path) -> Result<()> {
        anyhow::ensure!(
            !self.frames.is_empty(),
            "the viewer needs at least one frame"
        );
        std::fs::write(path, self.html())
            .with_context(|| format!("cannot write {}", path.display()))
    }
}
