//! The crate's one error type, and the text helpers every file reader shares.
//!
//! Kernels (`geom` predicates, `query`) never fail: validation happens at the edges —
//! constructors, file loading, text parsing — and every variant names the offending field and
//! value so that a user can find it.

use crate::math::Real;

/// Everything that can go wrong when building inputs for robocollide.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A coordinate or scalar was NaN or infinite.
    #[error("{field} must be finite, got {value}")]
    NonFinite {
        /// Which input, e.g. `"capsule.a.y"`.
        field: String,
        /// The value that was given.
        value: Real,
    },
    /// A radius was negative.
    #[error("{field} must be a radius >= 0, got {value}")]
    NegativeRadius {
        /// Which input, e.g. `"sphere.radius"`.
        field: String,
        /// The value that was given.
        value: Real,
    },
    /// A length beyond the documented range (see `geom::LENGTH_LIMIT`).
    #[error("{field} = {value:e} m is out of range: lengths must be within ±{limit:e} m")]
    OutOfRange {
        /// Which input.
        field: String,
        /// The value given (metres).
        value: Real,
        /// The largest magnitude allowed.
        limit: Real,
    },
    /// A shape that needs an axis direction was given two coincident axis points.
    #[error(
        "{field}: the axis end points coincide at ({x}, {y}, {z}); a flat-capped cylinder needs an axis of non-zero length"
    )]
    DegenerateAxis {
        /// Which input, e.g. `"cylinder"`.
        field: String,
        /// The coincident point.
        x: Real,
        /// The coincident point.
        y: Real,
        /// The coincident point.
        z: Real,
    },
    /// A configuration has the wrong number of joint values.
    #[error("wrong joint count: expected {expected} value(s), got {got}")]
    JointCount {
        /// Degrees of freedom of the chain.
        expected: usize,
        /// Values given.
        got: usize,
    },
    /// A robot's part of a cell configuration is wrong; `error` says how.
    #[error("{robot}: {error}")]
    InRobot {
        /// The robot's label in the cell (`R1`).
        robot: String,
        /// What is wrong with its values.
        error: Box<Error>,
    },
    /// Two inputs that must have the same length do not.
    #[error("{what}: expected {expected} value(s), got {got}")]
    LengthMismatch {
        /// What was counted, e.g. `"desired velocities"`.
        what: String,
        /// The length required.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// A model, scene or trajectory file is malformed; the message names line and field.
    #[error("{file}: {message}")]
    File {
        /// The file (or a description of the input).
        file: String,
        /// What is wrong, with line and field where known.
        message: String,
    },
    /// Text or a record could not be parsed.
    #[error("{0}")]
    Parse(String),
    /// A planner could not find a path; the message says why (invalid start or goal, limits).
    #[error("planning failed: {0}")]
    Planning(String),
}

/// Shorthand for results carrying [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// The same error with `prefix.` put in front of the field it names (for nested inputs,
    /// e.g. `"b"` turns `sphere.radius` into `b.sphere.radius`).
    pub fn within(self, prefix: &str) -> Self {
        match self {
            Error::NonFinite { field, value } => Error::NonFinite {
                field: format!("{prefix}.{field}"),
                value,
            },
            Error::NegativeRadius { field, value } => Error::NegativeRadius {
                field: format!("{prefix}.{field}"),
                value,
            },
            Error::OutOfRange {
                field,
                value,
                limit,
            } => Error::OutOfRange {
                field: format!("{prefix}.{field}"),
                value,
                limit,
            },
            Error::DegenerateAxis { field, x, y, z } => Error::DegenerateAxis {
                field: format!("{prefix}.{field}"),
                x,
                y,
                z,
            },
            Error::Parse(msg) => Error::Parse(format!("{prefix}: {msg}")),
            other => other,
        }
    }
}

/// Largest model, cell, scene, mechanism or trajectory file read (bytes): 256 MiB. A larger
/// file is refused with an error rather than read into memory.
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// Reads a text file, refusing what is not a regular file (a folder, a FIFO, `/dev/zero`:
/// reading those would fail forever, block or never end) and files above [`MAX_FILE_BYTES`].
/// Errors name the path.
pub fn read_text_file(path: &std::path::Path) -> Result<String> {
    use std::io::Read;
    let fail = |message: String| Error::File {
        file: path.display().to_string(),
        message,
    };
    let meta = std::fs::metadata(path).map_err(|e| fail(format!("cannot read: {e}")))?;
    if !meta.is_file() {
        return Err(fail("cannot read: not a regular file".into()));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(fail(format!(
            "cannot read: {} bytes is more than the {MAX_FILE_BYTES}-byte limit",
            meta.len()
        )));
    }
    let mut text = String::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_FILE_BYTES + 1).read_to_string(&mut text))
        .map_err(|e| fail(format!("cannot read: {e}")))?;
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(fail(format!(
            "cannot read: more than the {MAX_FILE_BYTES}-byte limit"
        )));
    }
    Ok(text)
}

/// 1-based line of byte `offset` in `text`.
pub fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())]
        .bytes()
        .filter(|&b| b == b'\n')
        .count()
        + 1
}
