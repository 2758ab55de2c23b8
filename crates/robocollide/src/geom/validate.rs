//! Input checks shared by the constructors: finite coordinates and non-negative radii.

use crate::error::{Error, Result};
use crate::math::{Point3, Real};

/// A finite scalar, or [`Error::NonFinite`] naming `field`.
pub fn check_scalar(field: &str, value: Real) -> Result<Real> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(Error::NonFinite {
            field: field.to_owned(),
            value,
        })
    }
}

/// A point with three finite coordinates; the error names the coordinate (`field.x`, …).
pub fn check_point(field: &str, p: Point3) -> Result<Point3> {
    for (axis, value) in ["x", "y", "z"].iter().zip(p.iter()) {
        if !value.is_finite() {
            return Err(Error::NonFinite {
                field: format!("{field}.{axis}"),
                value: *value,
            });
        }
    }
    Ok(p)
}

/// The largest magnitude (metres) of a length in a robot, cell or mechanism model: DH `a` and
/// `d`, base and tool offsets, body coordinates and radii, prismatic joint values. No robot is
/// larger; the shape queries themselves accept any finite value
/// ([`safe_scale`](crate::query)), but the robot pair search squares sums of these lengths
/// directly, so bounding them keeps it far from overflow. Values beyond are rejected, named.
pub const LENGTH_LIMIT: Real = 1e6;

/// A finite length with `|value| <= LENGTH_LIMIT`, or an error naming `field`.
pub fn check_length(field: &str, value: Real) -> Result<Real> {
    let value = check_scalar(field, value)?;
    if value.abs() > LENGTH_LIMIT {
        return Err(Error::OutOfRange {
            field: field.to_owned(),
            value,
            limit: LENGTH_LIMIT,
        });
    }
    Ok(value)
}

/// A finite radius `>= 0`. Negative zero is accepted as zero.
pub fn check_radius(field: &str, r: Real) -> Result<Real> {
    let r = check_scalar(field, r)?;
    if r < 0.0 {
        Err(Error::NegativeRadius {
            field: field.to_owned(),
            value: r,
        })
    } else {
        Ok(r.abs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_the_field_and_value() {
        let e = check_point("sphere.center", Point3::new(0.0, Real::NAN, 1.0)).unwrap_err();
        assert_eq!(e.to_string(), "sphere.center.y must be finite, got NaN");
        let e = check_radius("capsule.radius", -0.5).unwrap_err();
        assert_eq!(
            e.to_string(),
            "capsule.radius must be a radius >= 0, got -0.5"
        );
        let e = check_radius("r", Real::INFINITY).unwrap_err();
        assert_eq!(e.to_string(), "r must be finite, got inf");
        assert_eq!(check_radius("r", -0.0).unwrap().to_bits(), 0.0f64.to_bits());
    }
}
