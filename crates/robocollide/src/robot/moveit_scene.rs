//! MoveIt planning scenes: the `world.collision_objects` of a `moveit_msgs/PlanningScene` in
//! YAML — the format of MotionBenchMaker's `sceneNNNN.yaml` — as world obstacles. Requires the
//! `moveit` feature (YAML read by `serde_norway`, a maintained fork of the archived
//! `serde_yaml`).
//!
//! Each object's `primitives` (`shape_msgs/SolidPrimitive`) become shapes, placed by its
//! `primitive_poses` (composed with the object's `pose` when the message has one):
//!
//! | type | dimensions | shape |
//! |---|---|---|
//! | `box` (1) | `[x, y, z]` full sizes | box with half-extents `size / 2` |
//! | `sphere` (2) | `[radius]` | sphere |
//! | `cylinder` (3) | `[height, radius]`, axis along the primitive's z | flat-capped cylinder |
//!
//! Orientations are quaternions `[x, y, z, w]`; one off unit length by more than 1e-6 is
//! normalised with a warning, a zero or non-finite one is an error. Names: the object's `id`,
//! or `id/k` for its k-th primitive when it has several. Cones, meshes and planes cannot be
//! checked exactly and are refused with an error naming the object — never silently skipped.
//! Objects must be in the world frame (no `header.frame_id`, or `world`). Other fields of the
//! message (robot state, allowed collision matrix, colours) are ignored.

use std::path::Path;

use serde::Deserialize;

use super::obstacles::SceneObjects;
use crate::error::{Error, Result, read_text_file};
use crate::geom::{Cylinder, OrientedBox, Shape, Sphere};
use crate::math::{Isometry3, Point3, Real, Vector3};

/// Quaternions further than this from unit length are normalised with a warning.
const QUATERNION_TOLERANCE: Real = 1e-6;

#[derive(Debug, Deserialize, Default)]
struct SceneDoc {
    #[serde(default)]
    world: WorldDoc,
}

#[derive(Debug, Deserialize, Default)]
struct WorldDoc {
    #[serde(default)]
    collision_objects: Vec<ObjectDoc>,
}

#[derive(Debug, Deserialize)]
struct HeaderDoc {
    #[serde(default)]
    frame_id: String,
}

#[derive(Debug, Deserialize)]
struct ObjectDoc {
    id: String,
    #[serde(default)]
    header: Option<HeaderDoc>,
    #[serde(default)]
    pose: Option<PoseDoc>,
    #[serde(default)]
    primitives: Vec<PrimitiveDoc>,
    #[serde(default)]
    primitive_poses: Vec<PoseDoc>,
    #[serde(default)]
    meshes: Vec<serde_norway::Value>,
    #[serde(default)]
    planes: Vec<serde_norway::Value>,
}

#[derive(Debug, Deserialize)]
struct PrimitiveDoc {
    #[serde(rename = "type")]
    kind: serde_norway::Value,
    #[serde(default)]
    dimensions: Vec<Real>,
}

#[derive(Debug, Deserialize)]
struct PoseDoc {
    position: [Real; 3],
    orientation: [Real; 4],
}

/// Reads a planning scene file.
pub fn load_scene(path: &Path) -> Result<SceneObjects> {
    let text = read_text_file(path)?;
    parse_scene(&text, &path.display().to_string())
}

/// Parses a planning scene from YAML `text`; `file` names it in errors.
pub fn parse_scene(text: &str, file: &str) -> Result<SceneObjects> {
    let err = |message: String| Error::File {
        file: file.to_owned(),
        message,
    };
    let doc: SceneDoc = serde_norway::from_str(text).map_err(|e| err(e.to_string()))?;
    let mut scene = SceneObjects::default();
    for (i, object) in doc.world.collision_objects.iter().enumerate() {
        let here = |m: String| err(format!("collision_objects[{i}] `{}`: {m}", object.id));
        if let Some(frame) = object
            .header
            .as_ref()
            .map(|h| h.frame_id.trim_start_matches('/'))
            && !(frame.is_empty() || frame == "world")
        {
            return Err(here(format!(
                "header.frame_id `{frame}`: only objects in the world frame are supported"
            )));
        }
        for (what, count) in [
            ("meshes", object.meshes.len()),
            ("planes", object.planes.len()),
        ] {
            if count > 0 {
                return Err(here(format!(
                    "{count} {what} cannot be checked exactly; approximate them by boxes, spheres or cylinders"
                )));
            }
        }
        if object.primitives.len() != object.primitive_poses.len() {
            return Err(here(format!(
                "{} primitives but {} primitive_poses",
                object.primitives.len(),
                object.primitive_poses.len()
            )));
        }
        let base = match &object.pose {
            Some(p) => placement(p, "pose", &mut scene.warnings, &object.id).map_err(&here)?,
            None => Isometry3::identity(),
        };
        let several = object.primitives.len() > 1;
        for (k, (primitive, pose)) in object
            .primitives
            .iter()
            .zip(&object.primitive_poses)
            .enumerate()
        {
            let field = format!("primitive_poses[{k}]");
            let at =
                base * placement(pose, &field, &mut scene.warnings, &object.id).map_err(&here)?;
            let shape = primitive_shape(primitive, &at)
                .map_err(|m| here(format!("primitives[{k}]: {m}")))?;
            let name = if several {
                format!("{}/{k}", object.id)
            } else {
                object.id.clone()
            };
            scene.obstacles.push((name, shape));
        }
    }
    Ok(scene)
}

/// The rigid placement of a pose record; warns when its quaternion is normalised.
fn placement(
    pose: &PoseDoc,
    field: &str,
    warnings: &mut Vec<String>,
    id: &str,
) -> std::result::Result<Isometry3, String> {
    for (i, v) in pose.position.iter().enumerate() {
        crate::geom::check_length(&format!("{field}.position[{i}]"), *v)
            .map_err(|e| e.to_string())?;
    }
    let [x, y, z, w] = pose.orientation;
    let norm = (x * x + y * y + z * z + w * w).sqrt();
    if !(norm.is_finite() && norm > 0.0) {
        return Err(format!(
            "{field}.orientation [{x}, {y}, {z}, {w}] is not a rotation (x, y, z, w)"
        ));
    }
    if (norm - 1.0).abs() > QUATERNION_TOLERANCE {
        warnings.push(format!(
            "object `{id}`: {field}.orientation has length {norm}; normalised"
        ));
    }
    let rotation = nalgebra::UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(w, x, y, z));
    Ok(Isometry3::from_parts(
        Vector3::from(pose.position).into(),
        rotation,
    ))
}

/// The shape of a solid primitive placed at `at`.
fn primitive_shape(primitive: &PrimitiveDoc, at: &Isometry3) -> std::result::Result<Shape, String> {
    let kind = match &primitive.kind {
        serde_norway::Value::String(s) => s.to_ascii_lowercase(),
        serde_norway::Value::Number(n) => match n.as_u64() {
            Some(1) => "box".into(),
            Some(2) => "sphere".into(),
            Some(3) => "cylinder".into(),
            Some(4) => "cone".into(),
            _ => format!("type {n}"),
        },
        other => format!("{other:?}"),
    };
    let d = &primitive.dimensions;
    let need = |n: usize, what: &str| {
        if d.len() == n {
            Ok(())
        } else {
            Err(format!(
                "a {kind} needs {n} dimensions ({what}), got {}",
                d.len()
            ))
        }
    };
    let centre = Point3::from(at.translation.vector);
    match kind.as_str() {
        "box" => {
            need(3, "x, y, z")?;
            let half = Vector3::new(d[0], d[1], d[2]) / 2.0;
            OrientedBox::new(centre, *at.rotation.to_rotation_matrix().matrix(), half)
                .map(Shape::Box)
                .map_err(|e| e.to_string())
        }
        "sphere" => {
            need(1, "radius")?;
            Sphere::new(centre, d[0])
                .map(Shape::Sphere)
                .map_err(|e| e.to_string())
        }
        "cylinder" => {
            need(2, "height, radius")?;
            if !(d[0].is_finite() && d[0] > 0.0) {
                return Err(format!("cylinder height must be > 0, got {}", d[0]));
            }
            let half = at.rotation * Vector3::new(0.0, 0.0, d[0] / 2.0);
            Cylinder::new(centre - half, centre + half, d[1])
                .map(Shape::Cylinder)
                .map_err(|e| e.to_string())
        }
        "cone" => {
            Err("cones cannot be checked exactly; approximate them by cylinders or boxes".into())
        }
        other => Err(format!(
            "unknown primitive type `{other}` (box, sphere, cylinder)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCENE: &str = "world:
  collision_objects:
    - id: shelf
      primitives:
        - type: box
          dimensions: [1.2, 1, 0.04]
      primitive_poses:
        - position: [0.5, -1, 0.2]
          orientation: [0, 0, 0.7071067811865476, 0.7071067811865476]
    - id: can
      primitives:
        - {type: cylinder, dimensions: [0.14, 0.03]}
        - {type: 2, dimensions: [0.05]}
      primitive_poses:
        - {position: [0.2, -1, 0.3], orientation: [0, 0, 0, 2]}
        - {position: [0, 0, 1], orientation: [0, 0, 0, 1]}
";

    #[test]
    fn reads_boxes_cylinders_and_spheres() {
        let scene = parse_scene(SCENE, "scene.yaml").unwrap();
        let names: Vec<&str> = scene.obstacles.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["shelf", "can/0", "can/1"]);
        let Shape::Box(b) = scene.obstacles[0].1 else {
            panic!()
        };
        // Turned 90° about z: the box's x axis is the world's y.
        assert!((b.axis(0) - Vector3::y()).norm() < 1e-15);
        assert_eq!(b.half_extents(), Vector3::new(0.6, 0.5, 0.02));
        let Shape::Cylinder(c) = scene.obstacles[1].1 else {
            panic!()
        };
        assert!((c.axis().a() - Point3::new(0.2, -1.0, 0.23)).norm() < 1e-15);
        assert_eq!(c.radius(), 0.03);
        assert_eq!(scene.warnings.len(), 1, "{:?}", scene.warnings);
        assert!(
            scene.warnings[0].contains("object `can`: primitive_poses[0].orientation has length 2")
        );
    }

    #[test]
    fn errors_name_the_object_and_field() {
        let err = |text: &str| parse_scene(text, "s.yaml").unwrap_err().to_string();
        let bad = SCENE.replace("[1.2, 1, 0.04]", "[1.2, -1, 0.04]");
        assert_eq!(
            err(&bad),
            "s.yaml: collision_objects[0] `shelf`: primitives[0]: box.half_extents.y must be >= 0, got -0.5"
        );
        let bad = SCENE.replace("type: box", "type: cone");
        assert!(err(&bad).contains("`shelf`: primitives[0]: cones cannot be checked exactly"));
        let bad = SCENE.replace("type: box", "type: torus");
        assert!(err(&bad).contains("unknown primitive type `torus`"));
        let bad = SCENE.replace(
            "[0, 0, 0.7071067811865476, 0.7071067811865476]",
            "[0, 0, 0, 0]",
        );
        assert!(
            err(&bad)
                .contains("`shelf`: primitive_poses[0].orientation [0, 0, 0, 0] is not a rotation")
        );
        let bad = SCENE.replace("    - id: can\n", "    - id: can\n      meshes: [{}]\n");
        assert!(err(&bad).contains("`can`: 1 meshes cannot be checked exactly"));
        assert!(err("world: [").contains("s.yaml: "));
    }
}
