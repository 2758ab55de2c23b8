//! Python bindings of robocollide: `import robocollide`.
//!
//! Thin wrappers only: every algorithm lives in the `robocollide` crate. Modules: `convert`
//! (Python values, exceptions), `shapes` (shape classes), `queries` (`distance`,
//! `distances`), `reports` (result classes), `cell` (cells, checks, sweeps, planning, the
//! velocity filter), `mechanism` (the 4C study).

use pyo3::prelude::*;

mod cell;
mod convert;
mod mechanism;
mod queries;
mod reports;
mod shape_array;
mod shapes;

#[pymodule]
fn _robocollide(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add(
        "RobocollideError",
        py.get_type::<convert::RobocollideError>(),
    )?;
    m.add("PlanningError", py.get_type::<convert::PlanningError>())?;
    m.add_class::<shapes::PyShape>()?;
    m.add_class::<shapes::Point>()?;
    m.add_class::<shapes::Segment>()?;
    m.add_class::<shapes::Sphere>()?;
    m.add_class::<shapes::Capsule>()?;
    m.add_class::<shapes::Cylinder>()?;
    m.add_class::<shapes::BoxShape>()?;
    m.add_class::<shapes::Plane>()?;
    m.add_function(wrap_pyfunction!(shapes::parse_shape, m)?)?;
    m.add_class::<reports::Separation>()?;
    m.add_class::<reports::Separations>()?;
    m.add_class::<reports::Element>()?;
    m.add_class::<reports::PairReport>()?;
    m.add_class::<reports::CheckReport>()?;
    m.add_class::<reports::SweepReport>()?;
    m.add_function(wrap_pyfunction!(reports::_restore, m)?)?;
    m.add_function(wrap_pyfunction!(reports::_restore_sweep, m)?)?;
    m.add_class::<shape_array::ShapeArray>()?;
    m.add_function(wrap_pyfunction!(queries::distance, m)?)?;
    m.add_function(wrap_pyfunction!(queries::distances, m)?)?;
    m.add_function(wrap_pyfunction!(queries::spheres, m)?)?;
    m.add_function(wrap_pyfunction!(queries::points, m)?)?;
    m.add_function(wrap_pyfunction!(queries::segments, m)?)?;
    m.add_function(wrap_pyfunction!(queries::capsules, m)?)?;
    m.add_function(wrap_pyfunction!(queries::cylinders, m)?)?;
    m.add_function(wrap_pyfunction!(queries::boxes, m)?)?;
    m.add_class::<cell::Cell>()?;
    m.add_class::<cell::VelocityFilter>()?;
    m.add_function(wrap_pyfunction!(cell::load_cell, m)?)?;
    m.add_function(wrap_pyfunction!(cell::_cell_from_sources, m)?)?;
    m.add_function(wrap_pyfunction!(mechanism::four_c_study, m)?)?;
    Ok(())
}
