//! `ShapeArray`: many shapes for the vectorised queries, built from numpy columns (one row per
//! shape, validated by the library's constructors; errors name the first bad row; large arrays
//! are built on all cores, straight from the numpy buffers without intermediate copies).
//!
//! Capsules, spheres and cylinders are kept as their own validated values (56 bytes for a
//! capsule, where a `Shape` takes 136): a batch over more pairs than the cache reads less than
//! half the memory, and a query between two such arrays calls its kernel directly. Measured
//! (benches/README.md): keeping the raw rows instead and validating each as a query reads it
//! doubled the time per pair (65 → 122 ns), so values it is.

use pyo3::prelude::*;
use pyo3::types::PyList;
use rayon::prelude::*;
use robocollide::geom::{self, Shape};
use robocollide::query::{Separation, capsule_capsule, shape_shape, sphere_sphere};

use crate::convert::bad;
use crate::shapes::{PyShape, to_python};

/// Rows at least this many are validated on all cores.
const PARALLEL_ROWS: usize = 16_384;

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

/// Shapes `row(0) … row(n − 1)`, on all cores for large `n`; the error names the first bad row
/// (`capsules[3]: capsule.radius …`).
fn build<T: Send>(
    name: &str,
    n: usize,
    row: impl Fn(usize) -> robocollide::Result<T> + Sync + Send,
) -> PyResult<Vec<T>> {
    let built: robocollide::Result<Vec<T>> = if n >= PARALLEL_ROWS {
        (0..n).into_par_iter().map(&row).collect()
    } else {
        (0..n).map(&row).collect()
    };
    built.map_err(|_| {
        // A parallel collect reports some failing row; the message names the first.
        let (k, e) = (0..n)
            .find_map(|k| row(k).err().map(|e| (k, e)))
            .expect("a row failed above");
        bad(format!("{name}[{k}]: {e}"))
    })
}

impl ShapeArray {
    /// An array of the given shapes.
    pub fn from_shapes(shapes: Vec<Shape>) -> Self {
        Self {
            store: Store::Mixed(shapes),
        }
    }

    /// Shapes of any kind, `row(k)` validated for each `k < n`.
    pub fn shapes(
        name: &str,
        n: usize,
        row: impl Fn(usize) -> robocollide::Result<Shape> + Sync + Send,
    ) -> PyResult<Self> {
        Ok(Self::from_shapes(build(name, n, row)?))
    }

    /// Capsules, `row(k)` validated for each `k < n`.
    pub fn capsules(
        n: usize,
        row: impl Fn(usize) -> robocollide::Result<geom::Capsule> + Sync + Send,
    ) -> PyResult<Self> {
        Ok(Self {
            store: Store::Capsules(build("capsules", n, row)?),
        })
    }

    /// Cylinders, `row(k)` validated for each `k < n`.
    pub fn cylinders(
        n: usize,
        row: impl Fn(usize) -> robocollide::Result<geom::Cylinder> + Sync + Send,
    ) -> PyResult<Self> {
        Ok(Self {
            store: Store::Cylinders(build("cylinders", n, row)?),
        })
    }

    /// Spheres, `row(k)` validated for each `k < n`.
    pub fn spheres(
        n: usize,
        row: impl Fn(usize) -> robocollide::Result<geom::Sphere> + Sync + Send,
    ) -> PyResult<Self> {
        Ok(Self {
            store: Store::Spheres(build("spheres", n, row)?),
        })
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

    /// Separation of `self[i]` and `other[j]`: the kernel directly where both arrays hold one
    /// kind it has, the general dispatch otherwise (same answers: `shape_shape` calls the same
    /// kernels).
    #[inline]
    pub fn separation(&self, i: usize, other: &Self, j: usize) -> Separation {
        match (&self.store, &other.store) {
            (Store::Capsules(a), Store::Capsules(b)) => capsule_capsule(&a[i], &b[j]),
            (Store::Spheres(a), Store::Spheres(b)) => sphere_sphere(&a[i], &b[j]),
            _ => shape_shape(&self.get(i), &other.get(j)),
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
