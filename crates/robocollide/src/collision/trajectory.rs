//! [`Trajectory`]: joint-space samples of every robot of a cell, from CSV.
//!
//! Format: an optional header row, then one row per time step. **Header rule:** the first
//! non-comment row is a header if any of its fields is not a number; a first row of numbers
//! is data (so no sample is ever dropped), and the columns are then named `t`, `R1.q1`, …. The first column is the time (seconds,
//! strictly increasing); then the joint values of every robot, in cell order (robot 1's
//! joints, then robot 2's, …). Angles use the cell file's angle unit and prismatic values its
//! length unit. Lines starting with `#` are comments. Between samples the motion is the
//! straight line in joint space. Errors name the line and column.
//!
//! **Named columns:** when the header names joints — `panda_joint4`, or with the robot's label
//! `R1.panda_joint4` / `R1_panda_joint4` / `R1.q4` — the columns are matched by name, in any
//! order; a bare joint name shared by several robots goes to the first robot not yet given
//! one. Headers that name no joint (e.g. `t,a,b,c`) keep the positional order. A header that
//! names some joints but not all, or one twice, is an error: silently mixing named and
//! positional columns could move the wrong joint.

use std::path::Path;

use crate::error::{Error, Result, read_text_file};
use crate::math::Real;
use crate::robot::Cell;

/// Time-stamped configurations (all robots concatenated; radians / metres).
#[derive(Debug, Clone, PartialEq)]
pub struct Trajectory {
    /// Column names from the header.
    pub columns: Vec<String>,
    /// Sample times (s), strictly increasing.
    pub times: Vec<Real>,
    /// One configuration per sample.
    pub configs: Vec<Vec<Real>>,
}

/// For each joint of the cell (cell order), the CSV column holding it (see the module docs).
fn column_order(
    header: &csv::StringRecord,
    cell: &Cell,
) -> std::result::Result<Vec<usize>, String> {
    let joints: Vec<(usize, usize, &str)> = cell
        .robots
        .iter()
        .enumerate()
        .flat_map(|(r, robot)| {
            robot
                .model
                .tree()
                .variable_names()
                .enumerate()
                .map(move |(v, name)| (r, v, name))
        })
        .collect();
    let positional: Vec<usize> = (1..=joints.len()).collect();
    let matches = |column: &str, &(r, v, name): &(usize, usize, &str)| {
        let label = &cell.robots[r].label;
        column == name
            || column == format!("{label}.{name}")
            || column == format!("{label}_{name}")
            || column == format!("{label}.q{}", v + 1)
    };
    let mut order = vec![usize::MAX; joints.len()];
    let mut named = 0;
    for (c, column) in header.iter().enumerate().skip(1) {
        // A label-qualified name matches its robot only; a bare name takes the first free joint.
        let candidates: Vec<usize> = (0..joints.len())
            .filter(|&j| matches(column, &joints[j]))
            .collect();
        let Some(&j) = candidates.iter().find(|&&j| order[j] == usize::MAX) else {
            if candidates.is_empty() {
                continue;
            }
            return Err(format!(
                "column {} (`{column}`) names a joint already given",
                c + 1
            ));
        };
        order[j] = c;
        named += 1;
    }
    match named {
        0 => Ok(positional),
        n if n == joints.len() => Ok(order),
        _ => {
            let missing: Vec<String> = (0..joints.len())
                .filter(|&j| order[j] == usize::MAX)
                .map(|j| format!("{}.{}", cell.robots[joints[j].0].label, joints[j].2))
                .collect();
            Err(format!(
                "the header names some joints but not {}; name every joint column or none",
                missing.join(", ")
            ))
        }
    }
}

impl Trajectory {
    /// A path (configurations in radians/metres) timed at 1 rad/s of joint-space distance
    /// between consecutive waypoints (at least 1e-9 s apart): how planned paths are swept
    /// and written.
    pub fn at_unit_joint_speed(configs: Vec<Vec<Real>>) -> Result<Self> {
        let mut times = Vec::with_capacity(configs.len());
        let mut t = 0.0;
        for (k, q) in configs.iter().enumerate() {
            if k > 0 {
                let d: Real = q
                    .iter()
                    .zip(&configs[k - 1])
                    .map(|(a, b)| (a - b) * (a - b))
                    .sum::<Real>()
                    .sqrt();
                t += d.max(1e-9);
            }
            times.push(t);
        }
        Self::new(vec![], times, configs)
    }

    /// Builds a trajectory from times and configurations (already in radians/metres),
    /// checking lengths, finiteness and increasing times.
    pub fn new(columns: Vec<String>, times: Vec<Real>, configs: Vec<Vec<Real>>) -> Result<Self> {
        let bad = |m: String| Error::Parse(m);
        if times.len() != configs.len() {
            return Err(bad(format!(
                "{} times for {} configurations",
                times.len(),
                configs.len()
            )));
        }
        for k in 1..times.len() {
            if times[k].is_nan() || times[k] <= times[k - 1] {
                return Err(bad(format!(
                    "sample {}: time {} does not increase (previous {})",
                    k + 1,
                    times[k],
                    times[k - 1]
                )));
            }
        }
        Ok(Self {
            columns,
            times,
            configs,
        })
    }

    /// Parses CSV `text` for `cell`; `file` names it in errors.
    pub fn parse(text: &str, file: &str, cell: &Cell) -> Result<Self> {
        let err = |m: String| Error::File {
            file: file.to_owned(),
            message: m,
        };
        let mut reader = csv::ReaderBuilder::new()
            .comment(Some(b'#'))
            .trim(csv::Trim::All)
            .flexible(true)
            .has_headers(false)
            .from_reader(text.as_bytes());
        let mut records = reader.records().peekable();
        let first_is_header = match records.peek() {
            Some(Ok(first)) => first.iter().any(|f| f.parse::<Real>().is_err()),
            Some(Err(_)) | None => false,
        };
        let header = if first_is_header {
            records.next().and_then(|r| r.ok()).unwrap_or_default()
        } else {
            let names = std::iter::once("t".to_owned()).chain(
                cell.robots
                    .iter()
                    .flat_map(|r| (1..=r.model.dof()).map(move |j| format!("{}.q{j}", r.label))),
            );
            csv::StringRecord::from(names.collect::<Vec<_>>())
        };
        let expected = cell.dof() + 1;
        if header.len() != expected {
            let per: Vec<String> = cell
                .robots
                .iter()
                .map(|r| format!("{} has {}", r.label, r.model.dof()))
                .collect();
            return Err(err(format!(
                "header has {} columns; expected {expected}: time, then the joints of every robot ({})",
                header.len(),
                per.join(", ")
            )));
        }
        let order = column_order(&header, cell).map_err(err)?;
        let scales = cell.joint_scales();
        let (mut times, mut configs) = (Vec::new(), Vec::new());
        for record in records {
            let record = record.map_err(|e| err(format!("{e}")))?;
            let line = record.position().map_or(0, |p| p.line());
            if record.len() != expected {
                return Err(err(format!(
                    "line {line}: {} values, expected {expected}",
                    record.len()
                )));
            }
            let mut values = Vec::with_capacity(expected);
            for (c, field) in record.iter().enumerate() {
                let v: Real = field.parse().map_err(|_| {
                    err(format!(
                        "line {line}, column {} (`{}`): `{field}` is not a number",
                        c + 1,
                        &header[c]
                    ))
                })?;
                if !v.is_finite() {
                    return Err(err(format!(
                        "line {line}, column {} (`{}`): value must be finite, got {v}",
                        c + 1,
                        &header[c]
                    )));
                }
                values.push(v);
            }
            if let Some(&prev) = times.last()
                && values[0] <= prev
            {
                return Err(err(format!(
                    "line {line}: time {} does not increase (previous {prev})",
                    values[0]
                )));
            }
            times.push(values[0]);
            configs.push(
                order
                    .iter()
                    .zip(&scales)
                    .map(|(&column, s)| values[column] * s)
                    .collect(),
            );
        }
        if times.is_empty() {
            return Err(err("no samples (rows of numbers)".into()));
        }
        Self::new(header.iter().map(str::to_owned).collect(), times, configs)
    }

    /// Loads a CSV trajectory file.
    pub fn load(path: &Path, cell: &Cell) -> Result<Self> {
        let text = read_text_file(path)?;
        Self::parse(&text, &path.display().to_string(), cell)
    }

    /// Number of samples.
    pub fn len(&self) -> usize {
        self.times.len()
    }

    /// `true` when there are no samples.
    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }
}
