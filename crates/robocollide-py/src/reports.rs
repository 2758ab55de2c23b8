//! Result classes: what the library's reports hold, with points and normals as numpy arrays.
//! Every class also offers `to_dict()` (plain Python values: the library's JSON form).

use numpy::{PyArray1, PyArray2};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use robocollide::collision;
use robocollide::query::Separation as RustSeparation;

use crate::convert::array3;

/// A serde value as plain Python objects (through JSON: dicts, lists, floats, strings).
pub fn to_plain<'py>(
    py: Python<'py>,
    value: &impl serde::Serialize,
) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(value)
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
    py.import("json")?.call_method1("loads", (text,))
}

/// `__reduce__` of a report class: rebuilt by `robocollide._restore(kind, json)`.
fn reduce_as_json<'py>(
    py: Python<'py>,
    kind: &str,
    value: &impl serde::Serialize,
) -> PyResult<(Bound<'py, PyAny>, (String, String))> {
    let text = serde_json::to_string(value)
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
    let restore = py.import("robocollide")?.getattr("_restore")?;
    Ok((restore, (kind.to_owned(), text)))
}

/// Rebuilds a pickled report (`kind` names its class).
#[pyfunction]
pub fn _restore(py: Python<'_>, kind: &str, json: &str) -> PyResult<Py<PyAny>> {
    fn parse<T: serde::de::DeserializeOwned>(json: &str) -> PyResult<T> {
        serde_json::from_str(json).map_err(|e| crate::convert::bad(format!("pickled report: {e}")))
    }
    Ok(match kind {
        "Separation" => Py::new(py, parse::<Separation>(json)?)?.into_any(),
        "Element" => Py::new(py, parse::<Element>(json)?)?.into_any(),
        "PairReport" => Py::new(py, PairReport::new(parse(json)?))?.into_any(),
        "CheckReport" => Py::new(py, CheckReport::new(parse(json)?))?.into_any(),
        _ => {
            return Err(crate::convert::bad(format!(
                "pickled report: unknown kind `{kind}`"
            )));
        }
    })
}

/// The signed distance between two shapes with witness points and normal.
#[pyclass(module = "robocollide", frozen)]
#[derive(Clone, serde::Serialize, serde::Deserialize)]
pub struct Separation {
    /// Signed distance (m): `> 0` apart, `<= 0` in contact (minus the penetration depth).
    #[pyo3(get)]
    pub distance: f64,
    point_a: [f64; 3],
    point_b: [f64; 3],
    normal: [f64; 3],
}

impl From<&RustSeparation> for Separation {
    fn from(s: &RustSeparation) -> Self {
        Self {
            distance: s.distance,
            point_a: s.point_a.coords.into(),
            point_b: s.point_b.coords.into(),
            normal: s.normal.into(),
        }
    }
}

#[pymethods]
impl Separation {
    /// Witness point on the first shape (3,).
    #[getter]
    fn point_a<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        array3(py, self.point_a)
    }
    /// Witness point on the second shape (3,).
    #[getter]
    fn point_b<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        array3(py, self.point_b)
    }
    /// Unit normal from the first shape to the second (3,): `point_b - point_a = distance * normal`.
    #[getter]
    fn normal<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        array3(py, self.normal)
    }
    /// `True` when the shapes touch or overlap (`distance <= 0`).
    #[getter]
    fn collision(&self) -> bool {
        self.distance <= 0.0
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String, String))> {
        reduce_as_json(py, "Separation", self)
    }
    fn __repr__(&self) -> String {
        format!(
            "Separation(distance={}, point_a={:?}, point_b={:?}, normal={:?})",
            self.distance, self.point_a, self.point_b, self.normal
        )
    }
}

/// Many separations as arrays (vectorised queries).
#[pyclass(module = "robocollide", frozen)]
pub struct Separations {
    distance: Py<PyArray1<f64>>,
    point_a: Py<PyArray2<f64>>,
    point_b: Py<PyArray2<f64>>,
    normal: Py<PyArray2<f64>>,
    len: usize,
}

impl Separations {
    /// Arrays of `n` answers written straight into numpy memory by `answer(k)`, with the GIL
    /// released, in parallel chunks when `parallel`.
    pub fn compute(
        py: Python<'_>,
        n: usize,
        parallel: bool,
        answer: impl Fn(usize) -> RustSeparation + Sync,
    ) -> PyResult<Self> {
        use numpy::PyArrayMethods;
        use rayon::prelude::*;
        let distance = PyArray1::<f64>::zeros(py, n, false);
        let [point_a, point_b, normal] = [0; 3].map(|_| PyArray2::<f64>::zeros(py, [n, 3], false));
        {
            let (mut d, mut pa, mut pb, mut nm) = (
                distance.readwrite(),
                point_a.readwrite(),
                point_b.readwrite(),
                normal.readwrite(),
            );
            let d = d.as_slice_mut()?;
            let (pa, pb, nm) = (pa.as_slice_mut()?, pb.as_slice_mut()?, nm.as_slice_mut()?);
            let fill =
                |start: usize, d: &mut [f64], pa: &mut [f64], pb: &mut [f64], nm: &mut [f64]| {
                    for i in 0..d.len() {
                        let s = answer(start + i);
                        d[i] = s.distance;
                        pa[3 * i..3 * i + 3].copy_from_slice(s.point_a.coords.as_slice());
                        pb[3 * i..3 * i + 3].copy_from_slice(s.point_b.coords.as_slice());
                        nm[3 * i..3 * i + 3].copy_from_slice(s.normal.as_slice());
                    }
                };
            py.detach(|| {
                const CHUNK: usize = 1024;
                if parallel {
                    d.par_chunks_mut(CHUNK)
                        .zip(pa.par_chunks_mut(3 * CHUNK))
                        .zip(pb.par_chunks_mut(3 * CHUNK))
                        .zip(nm.par_chunks_mut(3 * CHUNK))
                        .enumerate()
                        .for_each(|(c, (((d, pa), pb), nm))| fill(c * CHUNK, d, pa, pb, nm));
                } else {
                    fill(0, d, pa, pb, nm);
                }
            });
        }
        Ok(Self {
            distance: distance.unbind(),
            point_a: point_a.unbind(),
            point_b: point_b.unbind(),
            normal: normal.unbind(),
            len: n,
        })
    }
}

#[pymethods]
impl Separations {
    /// Signed distances (n,).
    #[getter]
    fn distance(&self, py: Python<'_>) -> Py<PyArray1<f64>> {
        self.distance.clone_ref(py)
    }
    /// Witness points on the first shapes (n, 3).
    #[getter]
    fn point_a(&self, py: Python<'_>) -> Py<PyArray2<f64>> {
        self.point_a.clone_ref(py)
    }
    /// Witness points on the second shapes (n, 3).
    #[getter]
    fn point_b(&self, py: Python<'_>) -> Py<PyArray2<f64>> {
        self.point_b.clone_ref(py)
    }
    /// Unit normals from first to second (n, 3).
    #[getter]
    fn normal(&self, py: Python<'_>) -> Py<PyArray2<f64>> {
        self.normal.clone_ref(py)
    }
    /// `distance <= 0` per pair (n,), booleans.
    #[getter]
    fn collision<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.distance.bind(py).call_method1("__le__", (0.0,))
    }
    fn __len__(&self) -> usize {
        self.len
    }
    fn __repr__(&self) -> String {
        format!("Separations(n={})", self.len)
    }
}

/// One body of one robot: `R1-S2` on link `forearm`.
#[pyclass(module = "robocollide", frozen, get_all)]
#[derive(Clone, serde::Serialize, serde::Deserialize)]
pub struct Element {
    /// `"{robot}-{body}"`, e.g. `"R1-S2"` (`"W-table"` for an obstacle).
    pub label: String,
    /// Robot label in the cell (`"R1"`, `"W"` for the world).
    pub robot: String,
    /// Body name.
    pub body: String,
    /// Link the body belongs to.
    pub link: String,
    /// `"sphere"`, `"capsule"`, `"cylinder"`, `"box"` or `"plane"`.
    pub kind: String,
}

#[pymethods]
impl Element {
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String, String))> {
        reduce_as_json(py, "Element", self)
    }
    fn __repr__(&self) -> String {
        format!("Element({} on {})", self.label, self.link)
    }
}

impl From<&collision::Element> for Element {
    fn from(e: &collision::Element) -> Self {
        Self {
            label: e.label.clone(),
            robot: e.robot.clone(),
            body: e.body.clone(),
            link: e.link.clone(),
            kind: e.kind.to_string(),
        }
    }
}

/// The distance between two named elements, with witness points and normal.
#[pyclass(module = "robocollide", frozen)]
pub struct PairReport {
    report: collision::PairReport,
}

impl PairReport {
    /// Wraps a library report.
    pub fn new(report: collision::PairReport) -> Self {
        Self { report }
    }
}

#[pymethods]
impl PairReport {
    /// Signed distance (m).
    #[getter]
    fn distance(&self) -> f64 {
        self.report.distance
    }
    /// e.g. `"sphere-capsule"`.
    #[getter]
    fn pair_type(&self) -> &str {
        &self.report.pair_type
    }
    /// First element.
    #[getter]
    fn a(&self) -> Element {
        Element::from(&self.report.a)
    }
    /// Second element.
    #[getter]
    fn b(&self) -> Element {
        Element::from(&self.report.b)
    }
    /// Labels of both elements, e.g. `("R1-C3", "R2-S1")`.
    #[getter]
    fn labels(&self) -> (String, String) {
        (self.report.a.label.clone(), self.report.b.label.clone())
    }
    /// Witness point on `a` (3,), world frame, metres.
    #[getter]
    fn point_a<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        array3(py, self.report.point_a)
    }
    /// Witness point on `b` (3,).
    #[getter]
    fn point_b<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        array3(py, self.report.point_b)
    }
    /// Unit normal from `a` to `b` (3,).
    #[getter]
    fn normal<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        array3(py, self.report.normal)
    }
    /// Plain Python values (the JSON form).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_plain(py, &self.report)
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String, String))> {
        reduce_as_json(py, "PairReport", &self.report)
    }
    fn __repr__(&self) -> String {
        format!(
            "PairReport({} ({}) – {} ({}), {}, distance={})",
            self.report.a.label,
            self.report.a.link,
            self.report.b.label,
            self.report.b.link,
            self.report.pair_type,
            self.report.distance
        )
    }
}

/// The result of checking one configuration of a cell.
#[pyclass(module = "robocollide", frozen)]
pub struct CheckReport {
    report: collision::CheckReport,
}

impl CheckReport {
    /// Wraps a library report.
    pub fn new(report: collision::CheckReport) -> Self {
        Self { report }
    }
}

#[pymethods]
impl CheckReport {
    /// `True` if any checked pair is in contact.
    #[getter]
    fn collision(&self) -> bool {
        self.report.collision
    }
    /// The closest pair overall, or `None` when no pair is checked.
    #[getter]
    fn closest(&self) -> Option<PairReport> {
        self.report.closest.clone().map(PairReport::new)
    }
    /// Every pair within the threshold, closest first (contacts included).
    #[getter]
    fn close_pairs(&self) -> Vec<PairReport> {
        self.report
            .close_pairs
            .iter()
            .cloned()
            .map(PairReport::new)
            .collect()
    }
    /// The threshold used (m).
    #[getter]
    fn threshold(&self) -> f64 {
        self.report.threshold
    }
    /// Number of body pairs checked.
    #[getter]
    fn pairs_checked(&self) -> usize {
        self.report.pairs_checked
    }
    /// Plain Python values (the same JSON as `robocollide check --json`).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_plain(py, &self.report)
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String, String))> {
        reduce_as_json(py, "CheckReport", &self.report)
    }
    fn __repr__(&self) -> String {
        match &self.report.closest {
            Some(c) => format!(
                "CheckReport(collision={}, closest={} – {} at {} m, pairs_checked={})",
                if self.report.collision {
                    "True"
                } else {
                    "False"
                },
                c.a.label,
                c.b.label,
                c.distance,
                self.report.pairs_checked
            ),
            None => "CheckReport(collision=False, no pairs)".into(),
        }
    }
}

/// A report whose fields are reached through `to_dict()` and a few getters: the result of a
/// trajectory sweep.
#[pyclass(module = "robocollide", frozen)]
pub struct SweepReport {
    /// The library's report.
    pub report: collision::SweepReport,
    /// The cell's pairs' elements, by pair index (for `samples`' closest pairs).
    pub labels: Vec<(String, String)>,
    /// The swept cell (for `plot`).
    pub cell: Py<crate::cell::Cell>,
    /// The swept trajectory (radians and metres).
    pub trajectory: robocollide::collision::Trajectory,
    /// Whether self pairs were checked.
    pub self_collision: bool,
}

#[pymethods]
impl SweepReport {
    /// `True` when the whole trajectory is proved free: no contact and no uncertified stretch.
    #[getter]
    fn certified_free(&self) -> bool {
        self.report.certified_free()
    }
    /// `True` when some evaluated configuration is in contact.
    #[getter]
    fn collision(&self) -> bool {
        self.report.first_collision.is_some()
    }
    /// Time intervals in contact, `[(start, end), …]` (s).
    #[getter]
    fn collision_intervals(&self) -> Vec<(f64, f64)> {
        self.report.collision_intervals.clone()
    }
    /// `(time, PairReport)` of the first contact, or `None`.
    #[getter]
    fn first_collision(&self) -> Option<(f64, PairReport)> {
        self.report
            .first_collision
            .clone()
            .map(|(t, p)| (t, PairReport::new(p)))
    }
    /// `(time, PairReport)` of the smallest distance among the evaluated configurations.
    #[getter]
    fn closest(&self) -> Option<(f64, PairReport)> {
        self.report
            .closest
            .clone()
            .map(|(t, p)| (t, PairReport::new(p)))
    }
    /// Stretches `[(t0, t1), …]` neither certified free nor seen in contact at the sweep's
    /// resolution (not contacts).
    #[getter]
    fn uncertified(&self) -> Vec<(f64, f64)> {
        self.report.uncertified.clone()
    }
    /// Number of configurations evaluated.
    #[getter]
    fn evaluations(&self) -> usize {
        self.report.evaluations
    }
    /// Evaluated configurations: `{"t", "distance", "given"}` arrays and `"pair"` labels.
    #[getter]
    fn samples<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = &self.report.samples;
        let dict = PyDict::new(py);
        dict.set_item("t", PyArray1::from_iter(py, s.iter().map(|x| x.t)))?;
        dict.set_item(
            "distance",
            PyArray1::from_iter(py, s.iter().map(|x| x.distance)),
        )?;
        dict.set_item("given", s.iter().map(|x| x.given).collect::<Vec<_>>())?;
        dict.set_item(
            "pair",
            s.iter()
                .map(|x| self.labels.get(x.pair).cloned())
                .collect::<Vec<_>>(),
        )?;
        Ok(dict)
    }
    /// Draws distance over time to `path` (PNG, or SVG for a `.svg` path) as
    /// `robocollide sweep --out` does: the minimum distance at 600 times, the evaluated rows
    /// and bisection points, contact intervals and the first contact.
    #[pyo3(signature = (path, title=None))]
    fn plot(
        &self,
        py: Python<'_>,
        path: std::path::PathBuf,
        title: Option<String>,
    ) -> PyResult<()> {
        let cell = self.cell.bind(py).get().inner();
        let title = title.unwrap_or_else(|| format!("{} — distance over time", cell.name));
        py.detach(|| {
            let mut checker = robocollide::collision::CellChecker::new(cell, self.self_collision);
            let curve = robocollide_plot::display_curve(&mut checker, &self.trajectory);
            robocollide_plot::distance_plot_file(
                &path,
                &robocollide_plot::DistancePlot {
                    title: &title,
                    curve: &curve,
                    samples: &self.report.samples,
                    threshold: cell.threshold,
                    intervals: &self.report.collision_intervals,
                    first_collision: self.report.first_collision.as_ref().map(|(t, _)| *t),
                    comparison: None,
                },
            )
        })
        .map_err(|e| crate::convert::bad(format!("{e:#}")))
    }
    /// Plain Python values (the same JSON as `robocollide sweep --json`'s report).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_plain(py, &self.report)
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let text = serde_json::to_string(&self.report)
            .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
        let restore = py.import("robocollide")?.getattr("_restore_sweep")?;
        let args = (
            self.cell.clone_ref(py),
            text,
            self.labels.clone(),
            self.trajectory.times.clone(),
            self.trajectory.configs.clone(),
            self.self_collision,
        )
            .into_pyobject(py)?
            .into_any();
        Ok((restore, args))
    }
    fn __repr__(&self) -> String {
        format!(
            "SweepReport(certified_free={}, contacts={}, uncertified={}, evaluations={})",
            if self.report.certified_free() {
                "True"
            } else {
                "False"
            },
            self.report.collision_intervals.len(),
            self.report.uncertified.len(),
            self.report.evaluations
        )
    }
}

/// Rebuilds a pickled sweep report.
#[pyfunction]
pub fn _restore_sweep(
    cell: Py<crate::cell::Cell>,
    json: &str,
    labels: Vec<(String, String)>,
    times: Vec<f64>,
    configs: Vec<Vec<f64>>,
    self_collision: bool,
) -> PyResult<SweepReport> {
    let report = serde_json::from_str(json)
        .map_err(|e| crate::convert::bad(format!("pickled sweep report: {e}")))?;
    let trajectory = robocollide::collision::Trajectory::new(vec![], times, configs)
        .map_err(crate::convert::error)?;
    Ok(SweepReport {
        report,
        labels,
        cell,
        trajectory,
        self_collision,
    })
}
