//! `ShapeArray`: many shapes for the vectorised queries, built from numpy rows (one row of
//! numbers per shape, validated by the library's constructors; errors name the first bad row;
//! large arrays are built on all cores).
//!
//! Capsules, spheres and cylinders are kept as their own validated values (56 bytes for a
//! capsule, where a `Shape` takes 136): a batch over more pairs than the cache reads less than
//! half the memory. Measured (benches/README.md): keeping the raw rows instead and validating
//! each as a query reads it doubled the time per pair (65 → 122 ns), so values it is.

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
    store: Store,
}

/// The shapes, by kind where one kind fills the array.
enum Store {
    Mixed(Vec<Shape>),
    Capsules(Vec<geom::Capsule>),
    Spheres(Vec<geom::Sphere>),
    Cylinders(Vec<geom::Cylinder>),
}

/// `f` over the rows of `data`, on all cores when `parallel`.
fn collect_rows<T: Send>(
    data: &[f64],
    width: usize,
    parallel: bool,
    f: impl Fn(&[f64]) -> T + Sync + Send,
) -> Vec<T> {
    let mut out = Vec::new();
    if parallel {
        data.par_chunks(width).map(f).collect_into_vec(&mut out);
    } else {
        out.extend(data.chunks(width).map(f));
    }
    out
}

impl ShapeArray {
    /// An array of the given shapes.
    pub fn from_shapes(shapes: Vec<Shape>) -> Self {
        Self {
            store: Store::Mixed(shapes),
        }
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
        let store = match kind {
            RowKind::Capsule => Store::Capsules(collect_rows(&data, width, parallel, |r| {
                let Shape::Capsule(c) = build(r) else {
                    unreachable!("a capsule row builds a capsule")
                };
                c
            })),
            RowKind::Sphere => Store::Spheres(collect_rows(&data, width, parallel, |r| {
                let Shape::Sphere(c) = build(r) else {
                    unreachable!("a sphere row builds a sphere")
                };
                c
            })),
            RowKind::Cylinder => Store::Cylinders(collect_rows(&data, width, parallel, |r| {
                let Shape::Cylinder(c) = build(r) else {
                    unreachable!("a cylinder row builds a cylinder")
                };
                c
            })),
            _ => Store::Mixed(collect_rows(&data, width, parallel, build)),
        };
        Ok(Self { store })
    }

    /// Number of shapes.
    pub fn len(&self) -> usize {
        match &self.store {
            Store::Mixed(v) => v.len(),
            Store::Capsules(v) => v.len(),
            Store::Spheres(v) => v.len(),
            Store::Cylinders(v) => v.len(),
        }
    }

    /// Shape `k` (`k < len()`).
    #[inline]
    pub fn get(&self, k: usize) -> Shape {
        match &self.store {
            Store::Mixed(v) => v[k],
            Store::Capsules(v) => Shape::Capsule(v[k]),
            Store::Spheres(v) => Shape::Sphere(v[k]),
            Store::Cylinders(v) => Shape::Cylinder(v[k]),
        }
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
        to_python(py, self.get(k as usize))
    }
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyList>,))> {
        let py = slf.py();
        let list = PyList::empty(py);
        let array = slf.get();
        for k in 0..array.len() {
            list.append(to_python(py, array.get(k))?)?;
        }
        Ok((slf.get_type().into_any(), (list,)))
    }
    fn __repr__(&self) -> String {
        format!("ShapeArray(n={})", self.len())
    }
}
