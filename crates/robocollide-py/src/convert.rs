//! Conversions between Python values and the library's types, and the package's exceptions.
//!
//! Every library error becomes `robocollide.RobocollideError`, a subclass of `ValueError`
//! carrying the library's message (which names the file, line or field at fault).

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use robocollide::math::{Point3, Vector3};

create_exception!(
    robocollide,
    RobocollideError,
    PyValueError,
    "Bad input: the message names the file, line or field at fault."
);
create_exception!(
    robocollide,
    PlanningError,
    pyo3::exceptions::PyRuntimeError,
    "The planner found no path: an invalid start or goal, or none within its limits (the message says which)."
);

/// A library error as the package's exception.
pub fn error(e: robocollide::Error) -> PyErr {
    RobocollideError::new_err(e.to_string())
}

/// A bad-input exception with `message`.
pub fn bad(message: String) -> PyErr {
    RobocollideError::new_err(message)
}

/// Three numbers from any sequence or array; errors name `field`.
pub fn triple(value: &Bound<'_, PyAny>, field: &str) -> PyResult<[f64; 3]> {
    let numbers: Vec<f64> = value.extract().map_err(|_| {
        bad(format!(
            "{field} must be three numbers (x, y, z), got {}",
            describe(value)
        ))
    })?;
    <[f64; 3]>::try_from(numbers.as_slice()).map_err(|_| {
        bad(format!(
            "{field} must be three numbers (x, y, z), got {}",
            numbers.len()
        ))
    })
}

/// A point from any sequence of three numbers.
pub fn point(value: &Bound<'_, PyAny>, field: &str) -> PyResult<Point3> {
    Ok(Point3::from(triple(value, field)?))
}

/// A vector from any sequence of three numbers.
pub fn vector(value: &Bound<'_, PyAny>, field: &str) -> PyResult<Vector3> {
    Ok(Vector3::from(triple(value, field)?))
}

/// A float vector from any sequence or array (a 1-D array of numbers).
pub fn numbers(value: &Bound<'_, PyAny>, field: &str) -> PyResult<Vec<f64>> {
    // A float64 array is copied directly (no Python float per element).
    if let Ok(array) = value.extract::<numpy::PyReadonlyArray1<'_, f64>>() {
        return Ok(array.as_array().to_vec());
    }
    value.extract().map_err(|_| {
        bad(format!(
            "{field} must be a 1-D sequence of numbers, got {}",
            describe(value)
        ))
    })
}

/// A short description of a Python value for error messages.
fn describe(value: &Bound<'_, PyAny>) -> String {
    let kind = value
        .get_type()
        .name()
        .map_or_else(|_| "?".to_owned(), |n| n.to_string());
    match value.repr() {
        Ok(r) if r.to_string().len() <= 60 => format!("{kind} {r}"),
        _ => kind,
    }
}

/// An `(n, width)` float64 array from any array-like, as a C-contiguous read-only view (a
/// float64 C-ordered array is used in place; non-contiguous, transposed or integer input is
/// converted). A 1-D array is one row. Errors name `field`.
pub fn row_array<'py>(
    value: &Bound<'py, PyAny>,
    width: usize,
    field: &str,
) -> PyResult<PyReadonlyArray2<'py, f64>> {
    let py = value.py();
    let numpy = py.import("numpy")?;
    let array = numpy
        .call_method1("ascontiguousarray", (value, numpy.getattr("float64")?))
        .map_err(|e| bad(format!("{field}: not numeric array data ({e})")))?;
    let array = if array.getattr("ndim")?.extract::<usize>()? == 1 && width > 0 {
        array.call_method1("reshape", ((1i64, -1i64),))?
    } else {
        array
    };
    let array: PyReadonlyArray2<'py, f64> = array.extract().map_err(|_| {
        bad(format!(
            "{field} must be a 2-D array of shape (n, {width}), got {} dimension(s)",
            array
                .getattr("ndim")
                .and_then(|d| d.extract::<usize>())
                .unwrap_or(0)
        ))
    })?;
    let shape = array.shape();
    if shape[1] != width {
        return Err(bad(format!(
            "{field} must have shape (n, {width}), got ({}, {})",
            shape[0], shape[1]
        )));
    }
    Ok(array)
}

/// The numbers of [`row_array`], row after row.
pub fn rows(value: &Bound<'_, PyAny>, width: usize, field: &str) -> PyResult<Vec<f64>> {
    Ok(row_array(value, width, field)?.as_slice()?.to_vec())
}

/// A length-3 numpy array.
pub fn array3<'py>(py: Python<'py>, v: [f64; 3]) -> Bound<'py, PyArray1<f64>> {
    PyArray1::from_slice(py, &v)
}

/// An `(n, width)` numpy array from row-major data.
pub fn array2<'py>(py: Python<'py>, data: Vec<f64>, width: usize) -> Bound<'py, PyArray2<f64>> {
    let n = data.len().checked_div(width).unwrap_or(0);
    PyArray1::from_vec(py, data)
        .reshape([n, width])
        .expect("row-major data of n * width values")
}
