//! Pair queries: `distance(a, b)` for two shapes, and `distances(A, B)` over arrays of shapes
//! built from numpy data (`spheres`, `capsules`, `cylinders`, `segments`, `points`, `boxes`),
//! computed with the GIL released, in parallel for large batches.

use pyo3::prelude::*;
use pyo3::types::PyList;
use robocollide::geom::{self, Shape, check_point};
use robocollide::math::{Matrix3, Point3, Vector3};
use robocollide::query::shape_shape;

use crate::convert::{bad, numbers, rows};
use crate::reports::{Separation, Separations};
use crate::shapes::{PyShape, to_python};

/// Batches at least this long are split across threads.
const PARALLEL_BATCH: usize = 4096;

/// Signed distance, witness points and normal between two shapes.
#[pyfunction]
pub fn distance(a: PyRef<'_, PyShape>, b: PyRef<'_, PyShape>) -> Separation {
    Separation::from(&shape_shape(&a.shape, &b.shape))
}

/// An array of shapes of one or more kinds (build with `spheres`, `capsules`, … or from a
/// list of shapes).
#[pyclass(module = "robocollide", frozen)]
pub struct ShapeArray {
    shapes: Vec<Shape>,
}

#[pymethods]
impl ShapeArray {
    /// From a sequence of `Shape` objects.
    #[new]
    fn new(shapes: Vec<PyRef<'_, PyShape>>) -> Self {
        Self {
            shapes: shapes.iter().map(|s| s.shape).collect(),
        }
    }
    fn __len__(&self) -> usize {
        self.shapes.len()
    }
    fn __getitem__<'py>(&self, py: Python<'py>, index: isize) -> PyResult<Bound<'py, PyAny>> {
        let n = self.shapes.len() as isize;
        let k = if index < 0 { index + n } else { index };
        if !(0..n).contains(&k) {
            return Err(pyo3::exceptions::PyIndexError::new_err(format!(
                "index {index} out of range for {n} shapes"
            )));
        }
        to_python(py, self.shapes[k as usize])
    }
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyList>,))> {
        let py = slf.py();
        let list = PyList::empty(py);
        for s in &slf.get().shapes {
            list.append(to_python(py, *s)?)?;
        }
        Ok((slf.get_type().into_any(), (list,)))
    }
    fn __repr__(&self) -> String {
        format!("ShapeArray(n={})", self.shapes.len())
    }
}

/// Builds shapes row by row; errors name the row (`capsules[3]: capsule.radius …`).
fn build(
    name: &str,
    n: usize,
    make: impl Fn(usize) -> robocollide::Result<Shape>,
) -> PyResult<ShapeArray> {
    let mut shapes = Vec::with_capacity(n);
    for k in 0..n {
        shapes.push(make(k).map_err(|e| bad(format!("{name}[{k}]: {e}")))?);
    }
    Ok(ShapeArray { shapes })
}

fn row(data: &[f64], k: usize) -> Point3 {
    Point3::new(data[3 * k], data[3 * k + 1], data[3 * k + 2])
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

/// Spheres from centres (n, 3) and radii (n,) or one radius.
#[pyfunction]
pub fn spheres(centers: &Bound<'_, PyAny>, radius: &Bound<'_, PyAny>) -> PyResult<ShapeArray> {
    let c = rows(centers, 3, "centers")?;
    let n = c.len() / 3;
    let r = radii(radius, n, "radius")?;
    build("spheres", n, |k| {
        Ok(Shape::Sphere(geom::Sphere::new(row(&c, k), r[k])?))
    })
}

/// Points (n, 3).
#[pyfunction]
pub fn points(positions: &Bound<'_, PyAny>) -> PyResult<ShapeArray> {
    let p = rows(positions, 3, "positions")?;
    build("points", p.len() / 3, |k| {
        Ok(Shape::Point(check_point("point", row(&p, k))?))
    })
}

/// Segments from end points `a` (n, 3) and `b` (n, 3).
#[pyfunction]
pub fn segments(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<ShapeArray> {
    let (a, b) = (rows(a, 3, "a")?, rows(b, 3, "b")?);
    let n = same_rows("segments", &[("a", a.len() / 3), ("b", b.len() / 3)])?;
    build("segments", n, |k| {
        Ok(Shape::Segment(geom::Segment::new(row(&a, k), row(&b, k))?))
    })
}

/// Capsules from axis end points `a`, `b` (n, 3) and radii (n,) or one radius.
#[pyfunction]
pub fn capsules(
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    radius: &Bound<'_, PyAny>,
) -> PyResult<ShapeArray> {
    let (a, b) = (rows(a, 3, "a")?, rows(b, 3, "b")?);
    let n = same_rows("capsules", &[("a", a.len() / 3), ("b", b.len() / 3)])?;
    let r = radii(radius, n, "radius")?;
    build("capsules", n, |k| {
        Ok(Shape::Capsule(geom::Capsule::new(
            row(&a, k),
            row(&b, k),
            r[k],
        )?))
    })
}

/// Flat-capped cylinders from axis end points `a`, `b` (n, 3) and radii (n,) or one radius.
#[pyfunction]
pub fn cylinders(
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    radius: &Bound<'_, PyAny>,
) -> PyResult<ShapeArray> {
    let (a, b) = (rows(a, 3, "a")?, rows(b, 3, "b")?);
    let n = same_rows("cylinders", &[("a", a.len() / 3), ("b", b.len() / 3)])?;
    let r = radii(radius, n, "radius")?;
    build("cylinders", n, |k| {
        Ok(Shape::Cylinder(geom::Cylinder::new(
            row(&a, k),
            row(&b, k),
            r[k],
        )?))
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
        rows(centers, 3, "centers")?,
        rows(half_extents, 3, "half_extents")?,
    );
    let m = match rotations {
        Some(r) => {
            let flat = r.call_method1("reshape", ((-1i64, 9i64),))?;
            Some(rows(&flat, 9, "rotations")?)
        }
        None => None,
    };
    let mut counts = vec![("centers", c.len() / 3), ("half_extents", h.len() / 3)];
    if let Some(m) = &m {
        counts.push(("rotations", m.len() / 9));
    }
    let n = same_rows("boxes", &counts)?;
    build("boxes", n, |k| {
        let half = Vector3::from(row(&h, k).coords);
        Ok(Shape::Box(match &m {
            Some(m) => geom::OrientedBox::new(
                row(&c, k),
                Matrix3::from_row_slice(&m[9 * k..9 * k + 9]),
                half,
            )?,
            None => geom::OrientedBox::axis_aligned(row(&c, k), half)?,
        }))
    })
}

/// Shapes from a `ShapeArray` (borrowed), a single `Shape` or a sequence of shapes.
enum Shapes<'a> {
    Borrowed(&'a [Shape]),
    Owned(Vec<Shape>),
}

impl Shapes<'_> {
    fn as_slice(&self) -> &[Shape] {
        match self {
            Shapes::Borrowed(s) => s,
            Shapes::Owned(v) => v,
        }
    }
}

fn shape_list<'a>(value: &'a Bound<'_, PyAny>, field: &str) -> PyResult<Shapes<'a>> {
    if let Ok(array) = value.cast::<ShapeArray>() {
        return Ok(Shapes::Borrowed(&array.get().shapes));
    }
    if let Ok(shape) = value.cast::<PyShape>() {
        return Ok(Shapes::Owned(vec![shape.get().shape]));
    }
    let list: Vec<PyRef<'_, PyShape>> = value.extract().map_err(|_| {
        bad(format!(
            "{field} must be a ShapeArray, a Shape or a sequence of shapes"
        ))
    })?;
    Ok(Shapes::Owned(list.iter().map(|s| s.shape).collect()))
}

/// Shape `k`, or the only one (broadcast).
fn pick(shapes: &[Shape], k: usize) -> &Shape {
    if shapes.len() == 1 {
        &shapes[0]
    } else {
        &shapes[k]
    }
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
    let (a, b) = (a.as_slice(), b.as_slice());
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
    Separations::compute(py, n, n >= PARALLEL_BATCH, &|k| {
        shape_shape(pick(a, k), pick(b, k))
    })
}
