//! Godot 3 values carried over to Godot 4: what a game ported from 3.x needs to read its
//! players' save files (`store_var` / `var2bytes` output) with Godot 4's `get_var` /
//! `bytes_to_var`.
//!
//! Godot 4 cannot read Godot 3 bytes as they are: it inserted new types among the old
//! ones, so the type ids moved (a Godot 3 Dictionary, id 18, reads as a Godot 4
//! Transform3D; godot#69114, #73530, #74811). The payloads of the types both versions
//! have are laid out the same in both `core/io/marshalls.cpp`, so carrying a value over is
//! writing the same [`Value`] with Godot 4's ids, with these rules:
//!
//! | Godot 3 | Godot 4 |
//! |---|---|
//! | `Pool*Array` (Byte, Int, Real, String, Vector2, Vector3, Color) | `Packed*Array` (Byte, Int32, Float32, String, Vector2, Vector3, Color) |
//! | `Quat`, `Transform` | `Quaternion`, `Transform3D` |
//! | `RID` (written with no id) | `RID` 0, the empty RID, which is what 3.x reads too |
//! | `int`, `float` (64-bit flag) | `int`, `float`: same |
//! | Object as id | Object as id: same (instance ids do not survive a restart in either) |
//! | Object with its properties (`var2bytes(v, true)`) | same, when its class still exists in Godot 4 |
//! | any other type | the same type |
//!
//! A value with no Godot 4 form is an error naming its path: an Object with properties
//! of a class Godot 4 renamed or removed (`Spatial` is `Node3D` in Godot 4, and its
//! properties changed with it; the error names the new class), or input that is not a
//! Godot 3 value at all (a Godot 4-only type such as `Vector2i` or a typed Array).
//!
//! ```
//! use gamewire_godot::{convert, decode, encode, DecodeOptions, EncodeOptions, Version};
//! // var2bytes({"hp": 3}) in Godot 3: type 18 is Dictionary there, Transform3D in Godot 4.
//! let v3 = [18, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, b'h', b'p', 0, 0, 2, 0, 0, 0, 3, 0, 0, 0];
//! let v4 = convert::v3_bytes_to_v4(&v3, false).unwrap();
//! assert_eq!(v4[0], 27); // Dictionary in Godot 4
//! let value = decode(&v4, &DecodeOptions::new(Version::V4)).unwrap();
//! assert_eq!(value, decode(&v3, &DecodeOptions::new(Version::V3)).unwrap());
//! ```

use crate::framing::{decode_framed_all, encode_framed_into};
use crate::{
    decode, encode, Array, DecodeOptions, Dictionary, EncodeOptions, Object, Value, Version,
};
use gamewire_core::{Error, Result};

/// Godot 3 classes that Godot 4 renamed or removed, with what Godot 4 has instead
/// (from the engine's 3-to-4 project converter's class renames and the 4.0 changelog).
const RENAMED_CLASSES: &[(&str, &str)] = &[
    ("ARVRAnchor", "XRAnchor3D"),
    ("ARVRCamera", "XRCamera3D"),
    ("ARVRController", "XRController3D"),
    ("ARVROrigin", "XROrigin3D"),
    ("AnimatedSprite", "AnimatedSprite2D"),
    ("AnimationTreePlayer", "AnimationTree"),
    ("Area", "Area3D"),
    ("BakedLightmap", "LightmapGI"),
    ("BoxShape", "BoxShape3D"),
    ("CPUParticles", "CPUParticles3D"),
    ("Camera", "Camera3D"),
    ("CapsuleShape", "CapsuleShape3D"),
    ("ClippedCamera", "Camera3D"),
    ("CollisionObject", "CollisionObject3D"),
    ("CollisionPolygon", "CollisionPolygon3D"),
    ("CollisionShape", "CollisionShape3D"),
    ("ConcavePolygonShape", "ConcavePolygonShape3D"),
    ("ConvexPolygonShape", "ConvexPolygonShape3D"),
    ("CubeMesh", "BoxMesh"),
    ("CylinderShape", "CylinderShape3D"),
    ("DirectionalLight", "DirectionalLight3D"),
    ("DynamicFont", "FontFile"),
    ("DynamicFontData", "FontFile"),
    ("File", "FileAccess"),
    ("Directory", "DirAccess"),
    ("GIProbe", "VoxelGI"),
    ("GIProbeData", "VoxelGIData"),
    ("Generic6DOFJoint", "Generic6DOFJoint3D"),
    ("GeometryInstance", "GeometryInstance3D"),
    ("HeightMapShape", "HeightMapShape3D"),
    ("HingeJoint", "HingeJoint3D"),
    ("ImmediateGeometry", "ImmediateMesh"),
    ("InterpolatedCamera", "Camera3D"),
    ("Joint", "Joint3D"),
    ("KinematicBody", "CharacterBody3D"),
    ("KinematicBody2D", "CharacterBody2D"),
    ("KinematicCollision", "KinematicCollision3D"),
    ("Light", "Light3D"),
    ("LineShape2D", "WorldBoundaryShape2D"),
    ("Listener", "AudioListener3D"),
    ("Listener2D", "AudioListener2D"),
    ("MeshInstance", "MeshInstance3D"),
    ("MultiMeshInstance", "MultiMeshInstance3D"),
    ("Navigation", "Node3D"),
    ("Navigation2D", "Node2D"),
    ("NavigationAgent", "NavigationAgent3D"),
    ("NavigationMeshInstance", "NavigationRegion3D"),
    ("NavigationObstacle", "NavigationObstacle3D"),
    ("NavigationPolygonInstance", "NavigationRegion2D"),
    ("OmniLight", "OmniLight3D"),
    ("Particles", "GPUParticles3D"),
    ("Particles2D", "GPUParticles2D"),
    ("Path", "Path3D"),
    ("PathFollow", "PathFollow3D"),
    ("PhysicalBone", "PhysicalBone3D"),
    ("PhysicsBody", "PhysicsBody3D"),
    ("PinJoint", "PinJoint3D"),
    ("PlaneShape", "WorldBoundaryShape3D"),
    ("Position2D", "Marker2D"),
    ("Position3D", "Marker3D"),
    ("ProximityGroup", "Node3D"),
    ("RayCast", "RayCast3D"),
    ("RayShape", "SeparationRayShape3D"),
    ("RayShape2D", "SeparationRayShape2D"),
    ("Reference", "RefCounted"),
    ("RemoteTransform", "RemoteTransform3D"),
    ("RigidBody", "RigidBody3D"),
    ("Shape", "Shape3D"),
    ("Skeleton", "Skeleton3D"),
    ("SliderJoint", "SliderJoint3D"),
    ("SoftBody", "SoftBody3D"),
    ("Spatial", "Node3D"),
    ("SpatialMaterial", "StandardMaterial3D"),
    ("SphereShape", "SphereShape3D"),
    ("SpotLight", "SpotLight3D"),
    ("SpringArm", "SpringArm3D"),
    ("Sprite", "Sprite2D"),
    ("StaticBody", "StaticBody3D"),
    ("StreamTexture", "CompressedTexture2D"),
    ("TextureProgress", "TextureProgressBar"),
    ("ToolButton", "Button"),
    ("VehicleBody", "VehicleBody3D"),
    ("VehicleWheel", "VehicleWheel3D"),
    ("ViewportContainer", "SubViewportContainer"),
    ("VisibilityEnabler", "VisibleOnScreenEnabler3D"),
    ("VisibilityEnabler2D", "VisibleOnScreenEnabler2D"),
    ("VisibilityNotifier", "VisibleOnScreenNotifier3D"),
    ("VisibilityNotifier2D", "VisibleOnScreenNotifier2D"),
    ("VisualInstance", "VisualInstance3D"),
    ("YSort", "Node2D"),
];

/// The Godot 4 class standing in for a Godot 3 class that Godot 4 renamed or removed.
pub fn renamed_class(godot3_class: &str) -> Option<&'static str> {
    RENAMED_CLASSES
        .iter()
        .find(|(old, new)| *old == godot3_class && old != new)
        .map(|(_, new)| *new)
}

/// Carries a Godot 3 value over to Godot 4 (see the [module docs](self) for the rules).
///
/// The error names the path of the first value with no Godot 4 form.
pub fn v3_to_v4(value: &Value) -> Result<Value> {
    let mut out = value.clone();
    carry(&mut out)?;
    Ok(out)
}

/// Godot 3 Variant bytes to Godot 4 Variant bytes: one value (`var2bytes`), or with
/// `framed` a whole `store_var` file of length-prefixed values, which keeps its framing.
/// Objects with their properties are accepted (`var2bytes(v, true)` /
/// `store_var(v, true)`); read them back with `bytes_to_var_with_objects` /
/// `get_var(true)`.
pub fn v3_bytes_to_v4(data: &[u8], framed: bool) -> Result<Vec<u8>> {
    let dopts = DecodeOptions::new(Version::V3).allow_objects(true);
    let eopts = EncodeOptions::new(Version::V4);
    if framed {
        let mut out = Vec::with_capacity(data.len() + data.len() / 8);
        for (i, v) in decode_framed_all(data, &dopts)?.iter().enumerate() {
            let v = v3_to_v4(v).map_err(|e| e.in_index(i))?;
            encode_framed_into(&v, &eopts, &mut out).map_err(|e| e.in_index(i))?;
        }
        Ok(out)
    } else {
        encode(&v3_to_v4(&decode(data, &dopts)?)?, &eopts)
    }
}

fn not_godot3(v: &Value) -> Error {
    Error::msg(format!(
        "{} is not a Godot 3 value (Godot 3 has no such type); nothing to carry over",
        v.kind().name(Version::V4)
    ))
}

fn carry(v: &mut Value) -> Result<()> {
    if v.kind().id(Version::V3).is_none() {
        return Err(not_godot3(v));
    }
    let f64_math = match v {
        Value::Vector2(r) => r.is_f64(),
        Value::Vector3(r) => r.is_f64(),
        Value::Rect2(r) | Value::Plane(r) | Value::Quaternion(r) => r.is_f64(),
        Value::Transform2D(r) | Value::Aabb(r) => r.is_f64(),
        Value::Basis(r) => r.is_f64(),
        Value::Transform3D(r) => r.is_f64(),
        Value::PackedVector2Array(r) => r.is_f64(),
        Value::PackedVector3Array(r) => r.is_f64(),
        _ => false,
    };
    if f64_math {
        return Err(Error::msg(format!(
            "a double-precision {} is not a Godot 3 value (Godot 3 writes 32-bit math types)",
            v.kind().name(Version::V3)
        )));
    }
    match v {
        Value::Rid(id) => *id = 0,
        Value::Array(a) => carry_array(a)?,
        Value::Dictionary(d) => carry_dictionary(d)?,
        Value::Object(o) => {
            if let Object::Full { class, properties } = &mut **o {
                if let Some(new) = renamed_class(class) {
                    return Err(Error::msg(format!(
                        "an Object of class {class} has no Godot 4 form: Godot 4 has no class \
                         {class} (its counterpart is {new}, with other properties)"
                    )));
                }
                for (name, value) in properties {
                    carry(value).map_err(|e| e.in_key(name.clone()))?;
                }
            }
        }
        _ => {}
    }
    Ok(())
}

fn carry_array(a: &mut Array) -> Result<()> {
    if !a.element_type().is_any() {
        return Err(Error::msg(
            "a typed Array is not a Godot 3 value (typed Arrays are Godot 4.3+)",
        ));
    }
    for (i, item) in a.items.iter_mut().enumerate() {
        carry(item).map_err(|e| e.in_index(i))?;
    }
    Ok(())
}

fn carry_dictionary(d: &mut Dictionary) -> Result<()> {
    if !d.key_type().is_any() || !d.value_type().is_any() {
        return Err(Error::msg(
            "a typed Dictionary is not a Godot 3 value (typed Dictionaries are Godot 4.4+)",
        ));
    }
    for (i, (k, v)) in d.entries.iter_mut().enumerate() {
        carry(k).map_err(|e| e.in_key(format!("<key {i}>")))?;
        let key = k
            .as_str()
            .map_or_else(|| format!("<key {i}>"), str::to_owned);
        carry(v).map_err(|e| e.in_key(key))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NodePath;

    fn dopts(v: Version) -> DecodeOptions {
        DecodeOptions::new(v).allow_objects(true)
    }

    #[test]
    fn pool_arrays_quat_transform_keep_their_payload_under_new_ids() {
        let value = Value::from(vec![
            Value::PackedInt32Array(vec![1, -2]),
            Value::PackedFloat32Array(vec![0.5]),
            Value::Quaternion(Box::new(crate::Real::F32([0.0, 0.0, 0.0, 1.0]))),
            Value::Transform3D(Box::new(crate::Real::F32([1.0; 12]))),
            Value::NodePath(Box::new(NodePath::parse("/root/a:b"))),
            Value::Rid(0),
        ]);
        let v3 = encode(&value, &EncodeOptions::new(Version::V3)).unwrap();
        let v4 = v3_bytes_to_v4(&v3, false).unwrap();
        assert_ne!(v3, v4);
        assert_eq!(decode(&v4, &dopts(Version::V4)).unwrap(), value);
        // Godot 4 ids: Array 28; PackedInt32Array 30 (21 in 3.x), Quaternion 15 (10).
        assert_eq!(v4[0], 28);
        assert_eq!(v4[8], 30);
    }

    #[test]
    fn framed_files_keep_their_framing() {
        let e3 = EncodeOptions::new(Version::V3);
        let mut file = Vec::new();
        for v in [Value::Int(1), Value::from("two"), Value::Nil] {
            encode_framed_into(&v, &e3, &mut file).unwrap();
        }
        let v4 = v3_bytes_to_v4(&file, true).unwrap();
        let back = decode_framed_all(&v4, &dopts(Version::V4)).unwrap();
        assert_eq!(back, [Value::Int(1), Value::from("two"), Value::Nil]);
        // Not framed data read as framed: a clear error, not a guess.
        assert!(v3_bytes_to_v4(&[2, 0, 0, 0, 1, 0, 0, 0], true).is_err());
    }

    #[test]
    fn values_with_no_godot4_form_are_errors_naming_their_path() {
        let spatial = Value::Object(Box::new(Object::Full {
            class: "Spatial".into(),
            properties: vec![],
        }));
        let value = Value::Dictionary(Dictionary::new(vec![(
            Value::from("player"),
            Value::from(vec![Value::Nil, spatial]),
        )]));
        let err = v3_to_v4(&value).unwrap_err().to_string();
        assert!(err.contains("Spatial") && err.contains("Node3D"), "{err}");
        assert!(err.contains("player") && err.contains('1'), "{err}");
        let typed = Value::Array(Array::typed(vec![], crate::ContainerType::Builtin(2)));
        assert!(v3_to_v4(&typed).is_err());
        assert!(v3_to_v4(&Value::Vector2i([1, 2])).is_err());
        // A class both versions have carries over.
        let node = Value::Object(Box::new(Object::Full {
            class: "Node".into(),
            properties: vec![("name".into(), Value::from("x"))],
        }));
        assert_eq!(v3_to_v4(&node).unwrap(), node);
    }
}
