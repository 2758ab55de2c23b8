//! Shape classes: `Shape` (the base: any primitive) and one subclass per primitive, each a
//! validated `robocollide::geom` value. Metres; boxes' `rpy` is URDF's fixed-axis roll, pitch,
//! yaw in radians. Shapes are immutable, compare by value and pickle by their constructor
//! arguments.

use numpy::{PyArray1, PyArray2};
use pyo3::PyClass;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use robocollide::geom::{self, check_point};
use robocollide::math::Matrix3;

use crate::convert::{array3, bad, error, point, vector};

/// Any primitive (base class of `Sphere`, `Capsule`, …).
#[pyclass(module = "robocollide", name = "Shape", subclass, frozen)]
#[derive(Clone)]
pub struct PyShape {
    /// The library's shape.
    pub shape: geom::Shape,
}

#[pymethods]
impl PyShape {
    /// `"sphere"`, `"capsule"`, `"cylinder"`, `"segment"`, `"point"`, `"box"` or `"plane"`.
    #[getter]
    fn kind(&self) -> &'static str {
        self.shape.kind()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyShape>()
            .is_ok_and(|o| o.get().shape == self.shape)
    }

    fn __repr__(&self) -> String {
        repr(&self.shape)
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let class = slf.get_type().into_any();
        let args = constructor_args(py, &slf.get().shape)?;
        Ok((class, args))
    }
}

/// A Python object of the right subclass for `shape`.
pub fn to_python(py: Python<'_>, shape: geom::Shape) -> PyResult<Bound<'_, PyAny>> {
    let base = PyClassInitializer::from(PyShape { shape });
    Ok(match shape {
        geom::Shape::Point(_) => Bound::new(py, base.add_subclass(Point))?.into_any(),
        geom::Shape::Segment(_) => Bound::new(py, base.add_subclass(Segment))?.into_any(),
        geom::Shape::Sphere(_) => Bound::new(py, base.add_subclass(Sphere))?.into_any(),
        geom::Shape::Capsule(_) => Bound::new(py, base.add_subclass(Capsule))?.into_any(),
        geom::Shape::Cylinder(_) => Bound::new(py, base.add_subclass(Cylinder))?.into_any(),
        geom::Shape::Box(_) => Bound::new(py, base.add_subclass(BoxShape))?.into_any(),
        geom::Shape::Plane(_) => Bound::new(py, base.add_subclass(Plane))?.into_any(),
    })
}

fn fmt3(v: &[f64]) -> String {
    format!("[{}, {}, {}]", v[0], v[1], v[2])
}

fn repr(shape: &geom::Shape) -> String {
    match shape {
        geom::Shape::Point(p) => format!("Point({})", fmt3(p.coords.as_slice())),
        geom::Shape::Segment(s) => format!(
            "Segment({}, {})",
            fmt3(s.a().coords.as_slice()),
            fmt3(s.b().coords.as_slice())
        ),
        geom::Shape::Sphere(s) => format!(
            "Sphere({}, {})",
            fmt3(s.center().coords.as_slice()),
            s.radius()
        ),
        geom::Shape::Capsule(c) => format!(
            "Capsule({}, {}, {})",
            fmt3(c.axis().a().coords.as_slice()),
            fmt3(c.axis().b().coords.as_slice()),
            c.radius()
        ),
        geom::Shape::Cylinder(c) => format!(
            "Cylinder({}, {}, {})",
            fmt3(c.axis().a().coords.as_slice()),
            fmt3(c.axis().b().coords.as_slice()),
            c.radius()
        ),
        geom::Shape::Box(b) => format!(
            "Box({}, {}, rotation={:?})",
            fmt3(b.center().coords.as_slice()),
            fmt3(b.half_extents().as_slice()),
            rows_of(b.rotation())
        ),
        geom::Shape::Plane(p) => format!(
            "Plane({}, {})",
            fmt3(p.point().coords.as_slice()),
            fmt3(p.normal().as_slice())
        ),
    }
}

fn rows_of(m: &Matrix3) -> [[f64; 3]; 3] {
    [0, 1, 2].map(|i| [m[(i, 0)], m[(i, 1)], m[(i, 2)]])
}

/// Arguments that rebuild `shape` through its class's constructor (for pickling).
fn constructor_args<'py>(py: Python<'py>, shape: &geom::Shape) -> PyResult<Bound<'py, PyTuple>> {
    let v = |p: &[f64]| [p[0], p[1], p[2]];
    match shape {
        geom::Shape::Point(p) => PyTuple::new(py, [v(p.coords.as_slice())]),
        geom::Shape::Segment(s) => {
            PyTuple::new(py, [v(s.a().coords.as_slice()), v(s.b().coords.as_slice())])
        }
        geom::Shape::Sphere(s) => (v(s.center().coords.as_slice()), s.radius()).into_pyobject(py),
        geom::Shape::Capsule(c) => (
            v(c.axis().a().coords.as_slice()),
            v(c.axis().b().coords.as_slice()),
            c.radius(),
        )
            .into_pyobject(py),
        geom::Shape::Cylinder(c) => (
            v(c.axis().a().coords.as_slice()),
            v(c.axis().b().coords.as_slice()),
            c.radius(),
        )
            .into_pyobject(py),
        geom::Shape::Box(b) => (
            v(b.center().coords.as_slice()),
            v(b.half_extents().as_slice()),
            py.None(),
            rows_of(b.rotation()),
        )
            .into_pyobject(py),
        geom::Shape::Plane(p) => PyTuple::new(
            py,
            [v(p.point().coords.as_slice()), v(p.normal().as_slice())],
        ),
    }
}

fn base_of<'a>(slf: &'a Bound<'_, impl PyClass<BaseType = PyShape>>) -> &'a geom::Shape {
    &slf.as_super().get().shape
}

/// A point.
#[pyclass(module = "robocollide", extends = PyShape, frozen)]
pub struct Point;

#[pymethods]
impl Point {
    #[new]
    fn new(position: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        let p = check_point("point", point(position, "point")?).map_err(error)?;
        Ok(PyClassInitializer::from(PyShape {
            shape: geom::Shape::Point(p),
        })
        .add_subclass(Point))
    }

    /// The point (3,).
    #[getter]
    fn position<'py>(slf: &Bound<'py, Self>) -> Bound<'py, PyArray1<f64>> {
        let geom::Shape::Point(p) = base_of(slf) else {
            unreachable!()
        };
        array3(slf.py(), p.coords.into())
    }
}

/// A line segment from `a` to `b`.
#[pyclass(module = "robocollide", extends = PyShape, frozen)]
pub struct Segment;

#[pymethods]
impl Segment {
    #[new]
    fn new(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        let s =
            geom::Segment::new(point(a, "segment.a")?, point(b, "segment.b")?).map_err(error)?;
        Ok(PyClassInitializer::from(PyShape {
            shape: geom::Shape::Segment(s),
        })
        .add_subclass(Segment))
    }

    /// First end point (3,).
    #[getter]
    fn a<'py>(slf: &Bound<'py, Self>) -> Bound<'py, PyArray1<f64>> {
        let geom::Shape::Segment(s) = base_of(slf) else {
            unreachable!()
        };
        array3(slf.py(), s.a().coords.into())
    }

    /// Second end point (3,).
    #[getter]
    fn b<'py>(slf: &Bound<'py, Self>) -> Bound<'py, PyArray1<f64>> {
        let geom::Shape::Segment(s) = base_of(slf) else {
            unreachable!()
        };
        array3(slf.py(), s.b().coords.into())
    }
}

/// A ball: centre and radius.
#[pyclass(module = "robocollide", extends = PyShape, frozen)]
pub struct Sphere;

#[pymethods]
impl Sphere {
    #[new]
    fn new(center: &Bound<'_, PyAny>, radius: f64) -> PyResult<PyClassInitializer<Self>> {
        let s = geom::Sphere::new(point(center, "sphere.center")?, radius).map_err(error)?;
        Ok(PyClassInitializer::from(PyShape {
            shape: geom::Shape::Sphere(s),
        })
        .add_subclass(Sphere))
    }

    /// Centre (3,).
    #[getter]
    fn center<'py>(slf: &Bound<'py, Self>) -> Bound<'py, PyArray1<f64>> {
        let geom::Shape::Sphere(s) = base_of(slf) else {
            unreachable!()
        };
        array3(slf.py(), s.center().coords.into())
    }

    /// Radius.
    #[getter]
    fn radius(slf: &Bound<'_, Self>) -> f64 {
        let geom::Shape::Sphere(s) = base_of(slf) else {
            unreachable!()
        };
        s.radius()
    }
}

/// A class for an axial shape (segment `a`–`b` and a radius): constructor and getters.
macro_rules! axial_shape {
    ($(#[$doc:meta])* $class:ident, $variant:ident, $name:literal) => {
        $(#[$doc])*
        #[pyclass(module = "robocollide", extends = PyShape, frozen)]
        pub struct $class;

        #[pymethods]
        impl $class {
            #[new]
            fn new(
                a: &Bound<'_, PyAny>,
                b: &Bound<'_, PyAny>,
                radius: f64,
            ) -> PyResult<PyClassInitializer<Self>> {
                let shape = geom::$variant::new(
                    point(a, concat!($name, ".a"))?,
                    point(b, concat!($name, ".b"))?,
                    radius,
                )
                .map_err(error)?;
                Ok(PyClassInitializer::from(PyShape { shape: geom::Shape::$variant(shape) }).add_subclass($class))
            }

            /// First axis end point (3,).
            #[getter]
            fn a<'py>(slf: &Bound<'py, Self>) -> Bound<'py, PyArray1<f64>> {
                let geom::Shape::$variant(c) = base_of(slf) else { unreachable!() };
                array3(slf.py(), c.axis().a().coords.into())
            }

            /// Second axis end point (3,).
            #[getter]
            fn b<'py>(slf: &Bound<'py, Self>) -> Bound<'py, PyArray1<f64>> {
                let geom::Shape::$variant(c) = base_of(slf) else { unreachable!() };
                array3(slf.py(), c.axis().b().coords.into())
            }

            /// Radius.
            #[getter]
            fn radius(slf: &Bound<'_, Self>) -> f64 {
                let geom::Shape::$variant(c) = base_of(slf) else { unreachable!() };
                c.radius()
            }
        }
    };
}

axial_shape!(
    /// A capsule: the points within `radius` of the segment `a`–`b` (rounded ends).
    Capsule,
    Capsule,
    "capsule"
);
axial_shape!(
    /// A flat-capped cylinder with axis `a`–`b` (non-zero length) and a radius.
    Cylinder,
    Cylinder,
    "cylinder"
);

/// An oriented box: centre, half-extents (each >= 0) and an orientation given either as
/// `rpy` (URDF's fixed-axis roll, pitch, yaw, radians) or as a 3×3 `rotation` matrix
/// (columns: the box's axes in the world); neither: axis-aligned.
#[pyclass(module = "robocollide", name = "Box", extends = PyShape, frozen)]
pub struct BoxShape;

#[pymethods]
impl BoxShape {
    #[new]
    #[pyo3(signature = (center, half_extents, rpy=None, rotation=None))]
    fn new(
        center: &Bound<'_, PyAny>,
        half_extents: &Bound<'_, PyAny>,
        rpy: Option<&Bound<'_, PyAny>>,
        rotation: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyClassInitializer<Self>> {
        let c = point(center, "box.center")?;
        let h = vector(half_extents, "box.half_extents")?;
        let b = match (rpy, rotation) {
            (Some(_), Some(_)) => return Err(bad("box: give rpy or rotation, not both".into())),
            (Some(rpy), None) => {
                geom::OrientedBox::from_rpy(c, crate::convert::triple(rpy, "box.rpy")?, h)
            }
            (None, Some(m)) => {
                let data = crate::convert::rows(m, 3, "box.rotation")?;
                if data.len() != 9 {
                    return Err(bad(format!(
                        "box.rotation must be a 3×3 matrix, got {} rows",
                        data.len() / 3
                    )));
                }
                geom::OrientedBox::new(c, Matrix3::from_row_slice(&data), h)
            }
            (None, None) => geom::OrientedBox::axis_aligned(c, h),
        }
        .map_err(error)?;
        Ok(PyClassInitializer::from(PyShape {
            shape: geom::Shape::Box(b),
        })
        .add_subclass(BoxShape))
    }

    /// Centre (3,).
    #[getter]
    fn center<'py>(slf: &Bound<'py, Self>) -> Bound<'py, PyArray1<f64>> {
        let geom::Shape::Box(b) = base_of(slf) else {
            unreachable!()
        };
        array3(slf.py(), b.center().coords.into())
    }

    /// Half-extents along the box's own axes (3,).
    #[getter]
    fn half_extents<'py>(slf: &Bound<'py, Self>) -> Bound<'py, PyArray1<f64>> {
        let geom::Shape::Box(b) = base_of(slf) else {
            unreachable!()
        };
        array3(slf.py(), b.half_extents().into())
    }

    /// Rotation matrix (3, 3): column k is the box's k-th axis in the world.
    #[getter]
    fn rotation<'py>(slf: &Bound<'py, Self>) -> Bound<'py, PyArray2<f64>> {
        let geom::Shape::Box(b) = base_of(slf) else {
            unreachable!()
        };
        let r = rows_of(b.rotation());
        crate::convert::array2(slf.py(), r.concat(), 3)
    }
}

/// A half-space: the solid below the plane through `point` with outward unit `normal`.
#[pyclass(module = "robocollide", extends = PyShape, frozen)]
pub struct Plane;

#[pymethods]
impl Plane {
    #[new]
    fn new(
        point_on: &Bound<'_, PyAny>,
        normal: &Bound<'_, PyAny>,
    ) -> PyResult<PyClassInitializer<Self>> {
        let p = geom::Plane::new(
            point(point_on, "plane.point")?,
            vector(normal, "plane.normal")?,
        )
        .map_err(error)?;
        Ok(PyClassInitializer::from(PyShape {
            shape: geom::Shape::Plane(p),
        })
        .add_subclass(Plane))
    }

    /// A point on the boundary (3,).
    #[getter]
    fn point<'py>(slf: &Bound<'py, Self>) -> Bound<'py, PyArray1<f64>> {
        let geom::Shape::Plane(p) = base_of(slf) else {
            unreachable!()
        };
        array3(slf.py(), p.point().coords.into())
    }

    /// Outward unit normal (3,).
    #[getter]
    fn normal<'py>(slf: &Bound<'py, Self>) -> Bound<'py, PyArray1<f64>> {
        let geom::Shape::Plane(p) = base_of(slf) else {
            unreachable!()
        };
        array3(slf.py(), p.normal().into())
    }
}

/// A shape from robocollide's text syntax (`"capsule 0,0,0 1,0,0 0.1"`, `"box C H [R,P,Y]"`).
#[pyfunction]
pub fn parse_shape<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    let shape: geom::Shape = text.parse().map_err(error)?;
    to_python(py, shape)
}
