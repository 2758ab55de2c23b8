//! Writing output files (every error names the path) and checking numeric options against
//! their documented ranges (every error names the option, the range and the value).

use std::path::Path;

use anyhow::{Context, Result};

/// Creates `folder` (and its parents).
pub fn create_folder(folder: &Path) -> Result<()> {
    std::fs::create_dir_all(folder)
        .with_context(|| format!("cannot create output folder {}", folder.display()))
}

/// Writes `contents` to `path`.
pub fn write_file(path: &Path, contents: impl AsRef<[u8]>) -> Result<()> {
    std::fs::write(path, contents).with_context(|| format!("cannot write {}", path.display()))
}

/// `value` if it is finite and within `[min, max]`, else an error naming the option, the
/// range and the value (bad input, exit status 2).
pub fn option_in_range(option: &str, value: f64, min: f64, max: f64, unit: &str) -> Result<f64> {
    if value.is_finite() && value >= min && value <= max {
        Ok(value)
    } else {
        anyhow::bail!(
            "{option} must be between {} and {} {unit}, got {}",
            crate::distance::fmt_num(min),
            crate::distance::fmt_num(max),
            crate::distance::fmt_num(value)
        )
    }
}
