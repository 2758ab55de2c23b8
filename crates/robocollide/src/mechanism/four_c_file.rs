//! 4C mechanism files (TOML) and the whole study of a motion.
//!
//! ```toml
//! name = "Seed 003 case study"
//! twists_deg = { alpha = 65.0, beta = 35.0, gamma = 45.0, eta = 30.0 }  # driving, driven, fixed, coupler
//! lengths = { a = 100.0, h = 80.0, b = 70.0, g = 90.0 }                # same links
//! radii = { axis = 20.0, common_normal = 5.0 }
//! via = [                                                                # θ (deg), d1, steps to the next, branch
//!   { theta_deg = 6.0, d1 = 100.0, increments = 50, branch = "plus" },
//!   { theta_deg = -12.0, d1 = 80.0, increments = 50, branch = "plus" },
//! ]
//! ```
//!
//! Limits: link lengths `> 0`, lengths, radii and `d1` within ±1e6 (the file's length unit),
//! and at most [`MAX_STEPS`] steps over the whole motion (a larger study is refused, not
//! attempted).
//!
//! Each leg from via point `k` to `k + 1` is sampled at `increments(k) + 1` evenly spaced
//! steps, both ends included (the last via point's increments are unused). Errors name the file,
//! the line or via point, and the reason: a via point outside the input range (eq. 21), a step
//! where the mechanism cannot be assembled, bad radii.

use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use super::four_c::{Branch, FourC, FourCConfiguration, InputRange};
use super::four_c_study::{AxisLengths, StepBodies, segment_pairs, segments};
use crate::error::{Error, Result};
use crate::error::{line_of, read_text_file};
use crate::math::Real;

/// Most steps (evaluated configurations) a motion may have.
pub const MAX_STEPS: usize = 100_000;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TwistsRecord {
    alpha: Real,
    beta: Real,
    gamma: Real,
    eta: Real,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LengthsRecord {
    a: Real,
    b: Real,
    g: Real,
    h: Real,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RadiiRecord {
    axis: Real,
    common_normal: Real,
}

#[derive(Debug, Clone, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
/// One via point.
pub struct ViaPoint {
    /// Input angle θ (degrees).
    pub theta_deg: Real,
    /// Input translation d₁.
    pub d1: Real,
    /// Steps to the next via point.
    pub increments: usize,
    /// Branch of eq. 15.
    pub branch: Branch,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileRecord {
    name: String,
    twists_deg: TwistsRecord,
    lengths: LengthsRecord,
    radii: RadiiRecord,
    via: Vec<Spanned<ViaPoint>>,
}

/// A mechanism with radii and a motion.
#[derive(Debug, Clone)]
pub struct FourCStudy {
    /// Name.
    pub name: String,
    /// The mechanism.
    pub mechanism: FourC,
    /// Radius of the axes (segments 1, 3, 5, 7).
    pub axis_radius: Real,
    /// Radius of the common normals (segments 2, 4, 6, 8).
    pub normal_radius: Real,
    /// Via points.
    pub via: Vec<ViaPoint>,
}

/// One contact found by the study.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Contact {
    /// Step index (0-based over the whole motion).
    pub step: usize,
    /// θ (degrees) and d₁ at that step.
    pub theta_deg: Real,
    /// d₁ at that step.
    pub d1: Real,
    /// Segment numbers (Table 4).
    pub segments: (usize, usize),
    /// Signed distance (≤ 0).
    pub distance: Real,
}

/// A segment pair (Table 4 numbers) and its exact cylinders' distance at every step.
pub type DistanceCurve = ((usize, usize), Vec<Real>);

/// Everything the study reports.
#[derive(Debug, Clone, serde::Serialize)]
pub struct StudyReport {
    /// Mechanism name.
    pub name: String,
    /// Eq. 21.
    pub range: InputRange,
    /// Minima and maxima of d₁, c₁, c₂, d₂ over the motion (Table 7).
    pub translations: [(String, Real, Real); 4],
    /// Axis lengths used for the segments.
    pub lengths: AxisLengths,
    /// Number of steps.
    pub steps: usize,
    /// Pair tests (20 per step).
    pub pairs_tested: usize,
    /// Pairs whose infinite cylinders meet (necessary condition).
    pub infinite_hits: usize,
    /// Contacts of the exact flat-ended cylinders.
    pub cylinder_contacts: Vec<Contact>,
    /// Contacts of the capsule model.
    pub capsule_contacts: Vec<Contact>,
    /// Warnings: translations changing sign, branch changes between via points.
    pub warnings: Vec<String>,
    /// θ (degrees) at every step.
    pub theta_deg: Vec<Real>,
}

impl FourCStudy {
    /// Parses a mechanism file; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<Self> {
        let err = |m: String| Error::File {
            file: file.to_owned(),
            message: m,
        };
        let r: FileRecord =
            toml::from_str(text).map_err(|e| err(e.to_string().trim_end().to_owned()))?;
        let t = &r.twists_deg;
        let l = &r.lengths;
        let mechanism = FourC::new(
            t.alpha.to_radians(),
            t.beta.to_radians(),
            t.gamma.to_radians(),
            t.eta.to_radians(),
            l.a,
            l.b,
            l.g,
            l.h,
        )
        .map_err(|e| err(e.to_string()))?;
        for (name, v) in [
            ("radii.axis", r.radii.axis),
            ("radii.common_normal", r.radii.common_normal),
        ] {
            crate::geom::check_radius(name, v)
                .and_then(|v| crate::geom::check_length(name, v))
                .map_err(|e| err(e.to_string()))?;
        }
        if r.via.len() < 2 {
            return Err(err("a motion needs at least two via points".into()));
        }
        let range = mechanism.input_range();
        for (i, v) in r.via.iter().enumerate() {
            let line = line_of(text, v.span().start);
            let v = v.get_ref();
            if !(v.theta_deg.is_finite() && v.d1.is_finite()) {
                return Err(err(format!(
                    "line {line}: via[{i}]: theta_deg and d1 must be finite"
                )));
            }
            crate::geom::check_length("d1", v.d1)
                .map_err(|e| err(format!("line {line}: via[{i}]: {e}")))?;
            if !range.contains(v.theta_deg.to_radians()) {
                return Err(err(format!(
                    "line {line}: via[{i}]: θ = {}° is outside the input range ({}, C1 = {:.5}, C2 = {:.5})",
                    v.theta_deg,
                    range.describe(),
                    range.c1,
                    range.c2
                )));
            }
            if v.increments == 0 && i + 1 < r.via.len() {
                return Err(err(format!(
                    "line {line}: via[{i}]: increments must be at least 1"
                )));
            }
        }
        let steps: usize = r.via[..r.via.len() - 1]
            .iter()
            .map(|v| v.get_ref().increments.saturating_add(1))
            .fold(0, usize::saturating_add);
        if steps > MAX_STEPS {
            return Err(err(format!(
                "the motion has {steps} steps (sum of increments + 1 over the legs); at most {MAX_STEPS} are allowed"
            )));
        }
        Ok(Self {
            name: r.name,
            mechanism,
            axis_radius: r.radii.axis,
            normal_radius: r.radii.common_normal,
            via: r.via.into_iter().map(Spanned::into_inner).collect(),
        })
    }

    /// Loads a mechanism file.
    pub fn load(path: &Path) -> Result<Self> {
        let text = read_text_file(path)?;
        Self::parse(&text, &path.display().to_string())
    }

    /// All configurations of the motion, in order (errors name the leg and step).
    pub fn configurations(&self) -> Result<Vec<FourCConfiguration>> {
        let mut out = Vec::new();
        for (k, leg) in self.via.windows(2).enumerate() {
            let (from, to) = (&leg[0], &leg[1]);
            for step in 0..=from.increments {
                let s = step as Real / from.increments as Real;
                let theta = from.theta_deg + (to.theta_deg - from.theta_deg) * s;
                let d1 = from.d1 + (to.d1 - from.d1) * s;
                out.push(
                    self.mechanism
                        .solve(theta.to_radians(), d1, from.branch)
                        .map_err(|e| {
                            Error::Parse(format!(
                                "leg {} (via {k} → {}), step {step}: {e}",
                                k + 1,
                                k + 1
                            ))
                        })?,
                );
            }
        }
        Ok(out)
    }

    /// The exact distance of the flat-ended cylinders of every segment pair (in
    /// [`segment_pairs`] order) at every step of the motion — the curves of the study's plot.
    /// Unlike [`run`](Self::run), no pair is pruned, so this costs a full cylinder query per
    /// pair and step.
    pub fn distance_curves(&self) -> Result<Vec<DistanceCurve>> {
        let configs = self.configurations()?;
        let lengths = AxisLengths::over(&configs);
        let pairs = segment_pairs();
        let mut curves: Vec<DistanceCurve> = pairs
            .iter()
            .map(|p| (*p, Vec::with_capacity(configs.len())))
            .collect();
        for c in &configs {
            let seg = segments(&self.mechanism, c, &lengths);
            let bodies = StepBodies::new(&seg, self.axis_radius, self.normal_radius);
            for ((i, j), curve) in curves.iter_mut() {
                curve.push(bodies.cylinders(*i, *j));
            }
        }
        Ok(curves)
    }

    /// The eight segments at step `step` of the motion as flat-ended cylinders (segment `k`,
    /// 1-based, is element `k − 1`; a zero-length segment is a sphere of its radius), for
    /// pictures of a contact. Errors name a step beyond the motion.
    pub fn shapes_at(&self, step: usize) -> Result<Vec<crate::geom::Shape>> {
        use crate::geom::{Cylinder, Shape, Sphere};
        let configs = self.configurations()?;
        let Some(c) = configs.get(step) else {
            return Err(Error::Parse(format!(
                "step {step} is beyond the motion's {} steps",
                configs.len()
            )));
        };
        let seg = segments(&self.mechanism, c, &AxisLengths::over(&configs));
        seg.iter()
            .enumerate()
            .map(|(k, (a, b))| {
                let r = super::four_c_study::radius(k + 1, self.axis_radius, self.normal_radius);
                Ok(if (b - a).norm() > 0.0 {
                    Shape::Cylinder(Cylinder::new(*a, *b, r)?)
                } else {
                    Shape::Sphere(Sphere::new(*a, r)?)
                })
            })
            .collect()
    }

    /// Runs the study: kinematics, Table 7, the two-stage test of every pair at every step
    /// and the contacts of both models.
    pub fn run(&self) -> Result<StudyReport> {
        let configs = self.configurations()?;
        let lengths = AxisLengths::over(&configs);
        let extreme = |name: &str, f: fn(&FourCConfiguration) -> Real| {
            let v = configs.iter().map(f);
            (
                name.to_owned(),
                v.clone().fold(Real::INFINITY, Real::min),
                v.fold(Real::NEG_INFINITY, Real::max),
            )
        };
        let translations = [
            extreme("d1", |c| c.d1),
            extreme("c1", |c| c.c1),
            extreme("c2", |c| c.c2),
            extreme("d2", |c| c.d2),
        ];
        let mut warnings = Vec::new();
        for (name, lo, hi) in &translations {
            if lo.signum() != hi.signum() || *lo == 0.0 {
                warnings.push(format!("{name} changes sign along the motion ({lo:.3} … {hi:.3}): a collar passes its elbow"));
            }
        }
        for (i, w) in self.via.windows(2).enumerate() {
            if w[0].branch != w[1].branch {
                warnings.push(format!("via points {i} and {} use different branches of eq. 15: the mechanism would have to be disassembled", i + 1));
            }
        }
        // The two-stage test (seed 003 §3): the finite stage only where the infinite
        // cylinders, which contain both the cylinders and the capsules, do not prove the pair
        // apart.
        let pairs = segment_pairs();
        let (mut infinite_hits, mut cylinder_contacts, mut capsule_contacts) =
            (0, Vec::new(), Vec::new());
        for (step, c) in configs.iter().enumerate() {
            let seg = segments(&self.mechanism, c, &lengths);
            let bodies = StepBodies::new(&seg, self.axis_radius, self.normal_radius);
            for &(i, j) in &pairs {
                let infinite = bodies.infinite(i, j);
                if infinite <= 0.0 {
                    infinite_hits += 1;
                }
                if bodies.pruned(infinite) {
                    continue;
                }
                let contact = |distance| Contact {
                    step,
                    theta_deg: c.theta.to_degrees(),
                    d1: c.d1,
                    segments: (i, j),
                    distance,
                };
                let cylinders = bodies.cylinders(i, j);
                if cylinders <= 0.0 {
                    cylinder_contacts.push(contact(cylinders));
                }
                let capsules = bodies.capsules(i, j);
                if capsules <= 0.0 {
                    capsule_contacts.push(contact(capsules));
                }
            }
        }
        Ok(StudyReport {
            name: self.name.clone(),
            range: self.mechanism.input_range(),
            translations,
            lengths,
            steps: configs.len(),
            pairs_tested: configs.len() * pairs.len(),
            infinite_hits,
            cylinder_contacts,
            capsule_contacts,
            warnings,
            theta_deg: configs.iter().map(|c| c.theta.to_degrees()).collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = include_str!("../../../../data/mechanisms/seed003_case_study.toml");

    #[test]
    fn errors_name_the_via_point_and_reason() {
        let e = FourCStudy::parse(
            &GOOD.replace("theta_deg = -27.0", "theta_deg = -85.0"),
            "m.toml",
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains(
                "via[2]: θ = -85° is outside the input range (rocks across 0 within ±78.863°"
            ),
            "{e}"
        );
        assert!(e.contains("m.toml: line 15"), "{e}");
        let e = FourCStudy::parse(&GOOD.replace("axis = 20.0", "axis = -20.0"), "m.toml")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("radii.axis must be a radius >= 0, got -20"),
            "{e}"
        );
        let e = FourCStudy::parse(&GOOD.replace("eta = 30.0", "eta = 0.0"), "m.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("twist eta"), "{e}");
        let e = FourCStudy::parse(
            &GOOD.replace(
                "branch = \"plus\" },\n  { theta_deg = -12.0",
                "branch = \"sideways\" },\n  { theta_deg = -12.0",
            ),
            "m.toml",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("unknown variant `sideways`"), "{e}");
    }

    #[test]
    fn branch_changes_are_warned_about() {
        let study = FourCStudy::parse(
            &GOOD.replace(
                "d1 = 80.0, increments = 50, branch = \"plus\"",
                "d1 = 80.0, increments = 50, branch = \"minus\"",
            ),
            "m.toml",
        )
        .unwrap();
        let report = study.run().unwrap();
        assert!(
            report
                .warnings
                .iter()
                .any(|w| w.contains("different branches")),
            "{:?}",
            report.warnings
        );
    }
}
