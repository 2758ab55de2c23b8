//! Pair queries: `distance(a, b)` for two shapes, and `distances(A, B)` over arrays of shapes
//! built from numpy data (`spheres`, `capsules`, `cylinders`, `segments`, `points`, `boxes`),
//! computed with the GIL released, in parallel for large batches.

use pyo3::prelude::*;
use robocollide::query::shape_shape;

use crate::convert::{bad, numbers, rows};
use crate::reports::{Separation, Separations};
use crate::shape_array::{RowKind, ShapeArray};
use crate::shapes::PyShape;

/// Batches at least this long are split across threads.
const PARALLEL_BATCH: usize = 4096;

/// Signed distance, witness points and normal between two shapes.
#[pyfunction]
pub fn distance(a: PyRef<'_, PyShape>, b: PyRef<'_, PyShape>) -> Separation {
    Separation::from(&shape_shape(&a.shape, &b.shape))
}

fn same_rows(name: &str, counts: &[(&str, usize)]) -> PyResult<usize> {
    let n = counts[0].1;
    for (field, c) in counts {
        if *c != n {
            return Err(bad(format!(
                "{name}: {field} has {c} rows, {} has {n}",
                counts[0].0
            )));
        }
    }
    Ok(n)
}

/// Radii: one number for all rows, or one per row.
fn radii(value: &Bound<'_, PyAny>, n: usize, field: &str) -> PyResult<Vec<f64>> {
    if let Ok(r) = value.extract::<f64>() {
        return Ok(vec![r; n]);
    }
    let r = numbers(value, field)?;
    if r.len() != n {
        return Err(bad(format!(
            "{field} has {} values for {n} shapes",
            r.len()
        )));
    }
    Ok(r)
}

/// Rows from columns of widths `parts` (each `n` rows, row-major), side by side.
fn interleave(n: usize, parts: &[(&[f64], usize)]) -> Vec<f64> {
    let width: usize = parts.iter().map(|p| p.1).sum();
    let mut data = Vec::with_capacity(n * width);
    for k in 0..n {
        for (column, w) in parts {
            data.extend_from_slice(&column[k * w..(k + 1) * w]);
        }
    }
    data
}

/// Spheres from centres (n, 3) and radii (n,) or one radius.
#[pyfunction]
pub fn spheres(centers: &Bound<'_, PyAny>, radius: &Bound<'_, PyAny>) -> PyResult<ShapeArray> {
    let c = rows(centers, 3, "centers")?;
    let n = c.len() / 3;
    let r = radii(radius, n, "radius")?;
    ShapeArray::from_rows(
        "spheres",
        RowKind::Sphere,
        interleave(n, &[(&c, 3), (&r, 1)]),
    )
}

/// Points (n, 3).
#[pyfunction]
pub fn points(positions: &Bound<'_, PyAny>) -> PyResult<ShapeArray> {
    ShapeArray::from_rows("points", RowKind::Point, rows(positions, 3, "positions")?)
}

/// Segments from end points `a` (n, 3) and `b` (n, 3).
#[pyfunction]
pub fn segments(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<ShapeArray> {
    let (a, b) = (rows(a, 3, "a")?, rows(b, 3, "b")?);
    let n = same_rows("segments", &[("a", a.len() / 3), ("b", b.len() / 3)])?;
    ShapeArray::from_rows(
        "segments",
        RowKind::Segment,
        interleave(n, &[(&a, 3), (&b, 3)]),
    )
}

/// Axial shapes (capsules, cylinders) from `a`, `b` (n, 3) and radii.
fn axial(
    name: &str,
    kind: RowKind,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    radius: &Bound<'_, PyAny>,
) -> PyResult<ShapeArray> {
    let (a, b) = (rows(a, 3, "a")?, rows(b, 3, "b")?);
    let n = same_rows(name, &[("a", a.len() / 3), ("b", b.len() / 3)])?;
    let r = radii(radius, n, "radius")?;
    ShapeArray::from_rows(name, kind, interleave(n, &[(&a, 3), (&b, 3), (&r, 1)]))
}

/// Capsules from axis end points `a`, `b` (n, 3) and radii (n,) or one radius.
#[pyfunction]
pub fn capsules(
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    radius: &Bound<'_, PyAny>,
) -> PyResult<ShapeArray> {
    axial("capsules", RowKind::Capsule, a, b, radius)
}

/// Flat-capped cylinders from axis end points `a`, `b` (n, 3) and radii (n,) or one radius.
#[pyfunction]
pub fn cylinders(
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    radius: &Bound<'_, PyAny>,
) -> PyResult<ShapeArray> {
    axial("cylinders", RowKind::Cylinder, a, b, radius)
}

/// Oriented boxes from centres (n, 3), half-extents (n, 3) and optionally rotations
/// (n, 3, 3; column k is the box's k-th axis); without rotations, axis-aligned.
#[pyfunction]
#[pyo3(signature = (centers, half_extents, rotations=None))]
pub fn boxes(
    centers: &Bound<'_, PyAny>,
    half_extents: &Bound<'_, PyAny>,
    rotations: Option<&Bound<'_, PyAny>>,
) -> PyResult<ShapeArray> {
    let (c, h) = (
        rows(centers, 3, "centers")?,
        rows(half_extents, 3, "half_extents")?,
    );
    let m = match rotations {
        Some(r) => {
            let flat = r.call_method1("reshape", ((-1i64, 9i64),))?;
            rows(&flat, 9, "rotations")?
        }
        None => [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0].repeat(c.len() / 3),
    };
    let n = same_rows(
        "boxes",
        &[
            ("centers", c.len() / 3),
            ("half_extents", h.len() / 3),
            ("rotations", m.len() / 9),
        ],
    )?;
    ShapeArray::from_rows(
        "boxes",
        RowKind::Box,
        interleave(n, &[(&c, 3), (&h, 3), (&m, 9)]),
    )
}

/// Shapes from a `ShapeArray` (borrowed), a single `Shape` or a sequence of shapes.
enum Shapes<'a> {
    Borrowed(&'a ShapeArray),
    Owned(ShapeArray),
}

impl Shapes<'_> {
    fn array(&self) -> &ShapeArray {
        match self {
            Shapes::Borrowed(s) => s,
            Shapes::Owned(v) => v,
        }
    }
}

fn shape_list<'a>(value: &'a Bound<'_, PyAny>, field: &str) -> PyResult<Shapes<'a>> {
    if let Ok(array) = value.cast::<ShapeArray>() {
        return Ok(Shapes::Borrowed(array.get()));
    }
    if let Ok(shape) = value.cast::<PyShape>() {
        return Ok(Shapes::Owned(ShapeArray::from_shapes(vec![
            shape.get().shape,
        ])));
    }
    let list: Vec<PyRef<'_, PyShape>> = value.extract().map_err(|_| {
        bad(format!(
            "{field} must be a ShapeArray, a Shape or a sequence of shapes"
        ))
    })?;
    Ok(Shapes::Owned(ShapeArray::from_shapes(
        list.iter().map(|s| s.shape).collect(),
    )))
}

/// Pairwise distances: `a[k]` against `b[k]` (a single shape on either side is paired with
/// every shape of the other). Returns `Separations` with `distance` (n,), `point_a`,
/// `point_b`, `normal` (n, 3). The GIL is released while computing.
#[pyfunction]
pub fn distances(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
) -> PyResult<Separations> {
    let (a, b) = (shape_list(a, "a")?, shape_list(b, "b")?);
    let (a, b) = (a.array(), b.array());
    let n = match (a.len(), b.len()) {
        (x, y) if x == y => x,
        (1, y) => y,
        (x, 1) => x,
        (x, y) => {
            return Err(bad(format!(
                "a has {x} shapes and b has {y}: give equal lengths or a single shape on one side"
            )));
        }
    };
    // A single shape on one side is paired with every shape of the other.
    let (step_a, step_b) = (usize::from(a.len() > 1), usize::from(b.len() > 1));
    Separations::compute(py, n, n >= PARALLEL_BATCH, |k| {
        shape_shape(&a.get(k * step_a), &b.get(k * step_b))
    })
}
