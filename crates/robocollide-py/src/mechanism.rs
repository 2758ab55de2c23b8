//! The spatial 4C mechanism's self-collision study (seed 003).

use std::path::PathBuf;

use pyo3::prelude::*;
use robocollide::mechanism::FourCStudy;

use crate::convert::error;
use crate::reports::to_plain;

const CASE_STUDY: &str = include_str!("../../../data/mechanisms/seed003_case_study.toml");

/// Runs the 4C study of a mechanism file (TOML; `None`: seed 003's case study, as the CLI's
/// `robocollide fourc --case-study`). Returns the report as plain Python values: per
/// configuration and segment pair, the infinite-cylinder, cylinder and capsule tests.
#[pyfunction]
#[pyo3(signature = (path=None))]
pub fn four_c_study(py: Python<'_>, path: Option<PathBuf>) -> PyResult<Bound<'_, PyAny>> {
    let study = match path {
        Some(p) => FourCStudy::load(&p),
        None => FourCStudy::parse(CASE_STUDY, "data/mechanisms/seed003_case_study.toml"),
    }
    .map_err(error)?;
    let report = py.detach(|| study.run()).map_err(error)?;
    to_plain(py, &report)
}
