//! `ShapeArray`: many shapes for the vectorised queries, built from numpy rows (one row of
//! numbers per shape, validated by the library's constructors; errors name the first bad row;
//! large arrays are built on all cores).
//!
//! Measured (benches/README.md): keeping the rows and building each `Shape` as a query reads
//! it halves the memory read but doubled the time per pair on this machine (65 → 122 ns per
//! capsule pair), so the array holds `Shape` values.

use pyo3::prelude::*;
use pyo3::types::PyList;
use rayon::prelude::*;
use robocollide::geom::{self, Shape, check_point};
use robocollide::math::{Matrix3, Point3, Vector3};

use crate::convert::bad;
use crate::shapes::{PyShape, to_python};

/// Rows at least this many are validated on all cores.
const PARALLEL_ROWS: usize = 16_384;

/// The kind of every row of a row-stored array, with its layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowKind {
    /// `x, y, z`.
    Point,
    /// `a (3), b (3)`.
    Segment,
    /// `centre (3), radius`.
    Sphere,
    /// `a (3), b (3), radius`.
    Capsule,
    /// `a (3), b (3), radius`.
    Cylinder,
    /// `centre (3), half-extents (3), rotation (9, row-major)`.
    Box,
}

impl RowKind {
    fn width(self) -> usize {
        match self {
            RowKind::Point => 3,
            RowKind::Segment => 6,
            RowKind::Sphere => 4,
            RowKind::Capsule | RowKind::Cylinder => 7,
            RowKind::Box => 15,
        }
    }

    /// The shape of one row, validated.
    fn shape(self, r: &[f64]) -> robocollide::Result<Shape> {
        let p = |i: usize| Point3::new(r[i], r[i + 1], r[i + 2]);
        Ok(match self {
            RowKind::Point => Shape::Point(check_point("point", p(0))?),
            RowKind::Segment => Shape::Segment(geom::Segment::new(p(0), p(3))?),
            RowKind::Sphere => Shape::Sphere(geom::Sphere::new(p(0), r[3])?),
            RowKind::Capsule => Shape::Capsule(geom::Capsule::new(p(0), p(3), r[6])?),
            RowKind::Cylinder => Shape::Cylinder(geom::Cylinder::new(p(0), p(3), r[6])?),
            RowKind::Box => Shape::Box(geom::OrientedBox::new(
                p(0),
                Matrix3::from_row_slice(&r[6..15]),
                Vector3::new(r[3], r[4], r[5]),
            )?),
        })
    }
}

/// An array of shapes (build with `spheres`, `capsules`, `cylinders`, `segments`, `points`,
/// `boxes`, or from a list of shapes).
#[pyclass(module = "robocollide", frozen)]
pub struct ShapeArray {
    shapes: Vec<Shape>,
}

impl ShapeArray {
    /// An array of the given shapes.
    pub fn from_shapes(shapes: Vec<Shape>) -> Self {
        Self { shapes }
    }

    /// An array of rows of `kind`, each validated; the error names the first bad row
    /// (`capsules[3]: capsule.radius …`).
    pub fn from_rows(name: &str, kind: RowKind, data: Vec<f64>) -> PyResult<Self> {
        let width = kind.width();
        let parallel = data.len() >= PARALLEL_ROWS * width;
        let invalid = |r: &[f64]| kind.shape(r).is_err();
        let first_bad = if parallel {
            data.par_chunks(width).position_first(invalid)
        } else {
            data.chunks(width).position(invalid)
        };
        if let Some(k) = first_bad {
            if let Err(e) = kind.shape(&data[k * width..(k + 1) * width]) {
                return Err(bad(format!("{name}[{k}]: {e}")));
            }
        }
        let build = |r: &[f64]| kind.shape(r).expect("every row passed validation above");
        let mut shapes = Vec::new();
        if parallel {
            data.par_chunks(width)
                .map(build)
                .collect_into_vec(&mut shapes);
        } else {
            shapes.extend(data.chunks(width).map(build));
        }
        Ok(Self::from_shapes(shapes))
    }

    /// Number of shapes.
    pub fn len(&self) -> usize {
        self.shapes.len()
    }

    /// The shapes.
    pub fn shapes(&self) -> &[Shape] {
        &self.shapes
    }
}

#[pymethods]
impl ShapeArray {
    /// From a sequence of `Shape` objects.
    #[new]
    fn new(shapes: Vec<PyRef<'_, PyShape>>) -> Self {
        Self::from_shapes(shapes.iter().map(|s| s.shape).collect())
    }
    fn __len__(&self) -> usize {
        self.len()
    }
    fn __getitem__<'py>(&self, py: Python<'py>, index: isize) -> PyResult<Bound<'py, PyAny>> {
        let n = self.len() as isize;
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
        for shape in &slf.get().shapes {
            list.append(to_python(py, *shape)?)?;
        }
        Ok((slf.get_type().into_any(), (list,)))
    }
    fn __repr__(&self) -> String {
        format!("ShapeArray(n={})", self.len())
    }
}
