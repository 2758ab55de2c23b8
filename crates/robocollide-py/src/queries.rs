//! Pair queries: `distance(a, b)` for two shapes, and `distances(A, B)` over arrays of shapes
//! built from numpy data (`spheres`, `capsules`, `cylinders`, `segments`, `points`, `boxes`),
//! computed with the GIL released, in parallel for large batches.

use pyo3::prelude::*;
use robocollide::query::shape_shape;

use robocollide::geom::{self, Shape, check_point};
use robocollide::math::{Matrix3, Point3};

use crate::convert::{bad, numbers, row_array};
use crate::reports::{Separation, Separations};
use crate::shape_array::ShapeArray;
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
enum Radii {
    One(f64),
    Each(Vec<f64>),
}

impl Radii {
    fn read(value: &Bound<'_, PyAny>, n: usize, field: &str) -> PyResult<Self> {
        if let Ok(r) = value.extract::<f64>() {
            return Ok(Radii::One(r));
        }
        let r = numbers(value, field)?;
        if r.len() != n {
            return Err(bad(format!(
                "{field} has {} values for {n} shapes",
                r.len()
            )));
        }
        Ok(Radii::Each(r))
    }

    #[inline]
    fn get(&self, k: usize) -> f64 {
        match self {
            Radii::One(r) => *r,
            Radii::Each(r) => r[k],
        }
    }
}

/// Point `k` of a row-major (n, 3) buffer.
#[inline]
fn point_at(rows: &[f64], k: usize) -> Point3 {
    Point3::new(rows[3 * k], rows[3 * k + 1], rows[3 * k + 2])
}

/// Spheres from centres (n, 3) and radii (n,) or one radius.
#[pyfunction]
pub fn spheres(centers: &Bound<'_, PyAny>, radius: &Bound<'_, PyAny>) -> PyResult<ShapeArray> {
    let c = row_array(centers, 3, "centers")?;
    let c = c.as_slice()?;
    let n = c.len() / 3;
    let r = Radii::read(radius, n, "radius")?;
    ShapeArray::spheres(n, |k| geom::Sphere::new(point_at(c, k), r.get(k)))
}

/// Points (n, 3).
#[pyfunction]
pub fn points(positions: &Bound<'_, PyAny>) -> PyResult<ShapeArray> {
    let p = row_array(positions, 3, "positions")?;
    let p = p.as_slice()?;
    ShapeArray::shapes("points", p.len() / 3, |k| {
        check_point("point", point_at(p, k)).map(Shape::Point)
    })
}

/// Segments from end points `a` (n, 3) and `b` (n, 3).
#[pyfunction]
pub fn segments(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<ShapeArray> {
    let (a, b) = (row_array(a, 3, "a")?, row_array(b, 3, "b")?);
    let (a, b) = (a.as_slice()?, b.as_slice()?);
    let n = same_rows("segments", &[("a", a.len() / 3), ("b", b.len() / 3)])?;
    ShapeArray::shapes("segments", n, |k| {
        geom::Segment::new(point_at(a, k), point_at(b, k)).map(Shape::Segment)
    })
}

/// Capsules from axis end points `a`, `b` (n, 3) and radii (n,) or one radius.
#[pyfunction]
pub fn capsules(
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    radius: &Bound<'_, PyAny>,
) -> PyResult<ShapeArray> {
    let (a, b) = (row_array(a, 3, "a")?, row_array(b, 3, "b")?);
    let (a, b) = (a.as_slice()?, b.as_slice()?);
    let n = same_rows("capsules", &[("a", a.len() / 3), ("b", b.len() / 3)])?;
    let r = Radii::read(radius, n, "radius")?;
    ShapeArray::capsules(n, |k| {
        geom::Capsule::new(point_at(a, k), point_at(b, k), r.get(k))
    })
}

/// Flat-capped cylinders from axis end points `a`, `b` (n, 3) and radii (n,) or one radius.
#[pyfunction]
pub fn cylinders(
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    radius: &Bound<'_, PyAny>,
) -> PyResult<ShapeArray> {
    let (a, b) = (row_array(a, 3, "a")?, row_array(b, 3, "b")?);
    let (a, b) = (a.as_slice()?, b.as_slice()?);
    let n = same_rows("cylinders", &[("a", a.len() / 3), ("b", b.len() / 3)])?;
    let r = Radii::read(radius, n, "radius")?;
    ShapeArray::cylinders(n, |k| {
        geom::Cylinder::new(point_at(a, k), point_at(b, k), r.get(k))
    })
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
        row_array(centers, 3, "centers")?,
        row_array(half_extents, 3, "half_extents")?,
    );
    let (c, h) = (c.as_slice()?, h.as_slice()?);
    let m = match rotations {
        Some(r) => {
            let flat = r.call_method1("reshape", ((-1i64, 9i64),))?;
            Some(row_array(&flat, 9, "rotations")?)
        }
        None => None,
    };
    let m = m.as_ref().map(|m| m.as_slice()).transpose()?;
    let n = same_rows(
        "boxes",
        &[
            ("centers", c.len() / 3),
            ("half_extents", h.len() / 3),
            ("rotations", m.map_or(c.len() / 3, |m| m.len() / 9)),
        ],
    )?;
    ShapeArray::shapes("boxes", n, |k| {
        let rotation = m.map_or_else(Matrix3::identity, |m| {
            Matrix3::from_row_slice(&m[9 * k..9 * k + 9])
        });
        geom::OrientedBox::new(point_at(c, k), rotation, point_at(h, k).coords).map(Shape::Box)
    })
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
        a.separation(k * step_a, b, k * step_b)
    })
}
