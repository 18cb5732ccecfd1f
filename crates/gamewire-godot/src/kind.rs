//! Variant types and their wire ids in each engine version.

use std::fmt;

/// A Godot wire version: the major engine version whose type ids and rules apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Version {
    /// Godot 3.x: type ids 0 to 26 (Pool*Array, Quat, Transform, RID without payload).
    V3,
    /// Godot 4.x: type ids 0 to 38 (typed Array 4.3+, typed Dictionary 4.4+).
    V4,
}

impl Version {
    /// The major version number (3 or 4).
    pub fn major(self) -> u8 {
        match self {
            Version::V3 => 3,
            Version::V4 => 4,
        }
    }

    /// The version for a major version number.
    pub fn from_major(major: u8) -> Option<Version> {
        match major {
            3 => Some(Version::V3),
            4 => Some(Version::V4),
            _ => None,
        }
    }
}

macro_rules! kinds {
    ($($kind:ident = $v4:literal, $name4:literal, $v3:expr, $name3:literal;)*) => {
        /// The type of a Variant, independent of the wire version.
        ///
        /// Declared in Godot 4 order, so `kind as u32` is the Godot 4 type id.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Kind {
            $(
                #[doc = concat!("`", $name4, "` (Godot 4 id ", stringify!($v4), ").")]
                $kind = $v4,
            )*
        }

        impl Kind {
            /// Every kind, in Godot 4 id order.
            pub const ALL: &'static [Kind] = &[$(Kind::$kind),*];

            /// The type id of this kind in `version`, or `None` when that version has no such type.
            pub fn id(self, version: Version) -> Option<u32> {
                match version {
                    Version::V4 => Some(self as u32),
                    Version::V3 => match self { $(Kind::$kind => $v3,)* },
                }
            }

            /// The engine's name of this type in `version` (`PoolIntArray` in 3.x,
            /// `PackedInt32Array` in 4.x).
            pub fn name(self, version: Version) -> &'static str {
                match version {
                    Version::V4 => match self { $(Kind::$kind => $name4,)* },
                    Version::V3 => match self { $(Kind::$kind => $name3,)* },
                }
            }

            /// The kind named `name` in either version's spelling.
            pub fn from_name(name: &str) -> Option<Kind> {
                match name {
                    $($name4 => Some(Kind::$kind),)*
                    #[allow(unreachable_patterns)]
                    _ => match name {
                        $($name3 => Some(Kind::$kind),)*
                        "real" => Some(Kind::Float),
                        _ => None,
                    }
                }
            }
        }
    };
}

kinds! {
    Nil = 0, "Nil", Some(0), "Nil";
    Bool = 1, "bool", Some(1), "bool";
    Int = 2, "int", Some(2), "int";
    Float = 3, "float", Some(3), "float";
    String = 4, "String", Some(4), "String";
    Vector2 = 5, "Vector2", Some(5), "Vector2";
    Vector2i = 6, "Vector2i", None, "Vector2i";
    Rect2 = 7, "Rect2", Some(6), "Rect2";
    Rect2i = 8, "Rect2i", None, "Rect2i";
    Vector3 = 9, "Vector3", Some(7), "Vector3";
    Vector3i = 10, "Vector3i", None, "Vector3i";
    Transform2D = 11, "Transform2D", Some(8), "Transform2D";
    Vector4 = 12, "Vector4", None, "Vector4";
    Vector4i = 13, "Vector4i", None, "Vector4i";
    Plane = 14, "Plane", Some(9), "Plane";
    Quaternion = 15, "Quaternion", Some(10), "Quat";
    Aabb = 16, "AABB", Some(11), "AABB";
    Basis = 17, "Basis", Some(12), "Basis";
    Transform3D = 18, "Transform3D", Some(13), "Transform";
    Projection = 19, "Projection", None, "Projection";
    Color = 20, "Color", Some(14), "Color";
    StringName = 21, "StringName", None, "StringName";
    NodePath = 22, "NodePath", Some(15), "NodePath";
    Rid = 23, "RID", Some(16), "RID";
    Object = 24, "Object", Some(17), "Object";
    Callable = 25, "Callable", None, "Callable";
    Signal = 26, "Signal", None, "Signal";
    Dictionary = 27, "Dictionary", Some(18), "Dictionary";
    Array = 28, "Array", Some(19), "Array";
    PackedByteArray = 29, "PackedByteArray", Some(20), "PoolByteArray";
    PackedInt32Array = 30, "PackedInt32Array", Some(21), "PoolIntArray";
    PackedInt64Array = 31, "PackedInt64Array", None, "PackedInt64Array";
    PackedFloat32Array = 32, "PackedFloat32Array", Some(22), "PoolRealArray";
    PackedFloat64Array = 33, "PackedFloat64Array", None, "PackedFloat64Array";
    PackedStringArray = 34, "PackedStringArray", Some(23), "PoolStringArray";
    PackedVector2Array = 35, "PackedVector2Array", Some(24), "PoolVector2Array";
    PackedVector3Array = 36, "PackedVector3Array", Some(25), "PoolVector3Array";
    PackedColorArray = 37, "PackedColorArray", Some(26), "PoolColorArray";
    PackedVector4Array = 38, "PackedVector4Array", None, "PackedVector4Array";
}

/// Godot 3 type ids, in id order.
const V3_KINDS: [Kind; 27] = [
    Kind::Nil,
    Kind::Bool,
    Kind::Int,
    Kind::Float,
    Kind::String,
    Kind::Vector2,
    Kind::Rect2,
    Kind::Vector3,
    Kind::Transform2D,
    Kind::Plane,
    Kind::Quaternion,
    Kind::Aabb,
    Kind::Basis,
    Kind::Transform3D,
    Kind::Color,
    Kind::NodePath,
    Kind::Rid,
    Kind::Object,
    Kind::Dictionary,
    Kind::Array,
    Kind::PackedByteArray,
    Kind::PackedInt32Array,
    Kind::PackedFloat32Array,
    Kind::PackedStringArray,
    Kind::PackedVector2Array,
    Kind::PackedVector3Array,
    Kind::PackedColorArray,
];

impl Kind {
    /// The kind with type id `id` in `version`.
    #[inline]
    pub fn from_id(id: u32, version: Version) -> Option<Kind> {
        match version {
            Version::V3 => V3_KINDS.get(id as usize).copied(),
            Version::V4 => Kind::ALL.get(id as usize).copied(),
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name(Version::V4))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_follow_the_engine_source_not_the_docs() {
        // core/variant/variant.h in 4.x: 11 = Transform2D, 12 = Vector4, 13 = Vector4i.
        assert_eq!(Kind::from_id(11, Version::V4), Some(Kind::Transform2D));
        assert_eq!(Kind::from_id(12, Version::V4), Some(Kind::Vector4));
        assert_eq!(Kind::from_id(13, Version::V4), Some(Kind::Vector4i));
        assert_eq!(
            Kind::from_id(38, Version::V4),
            Some(Kind::PackedVector4Array)
        );
        assert_eq!(Kind::from_id(39, Version::V4), None);
        assert_eq!(Kind::from_id(26, Version::V3), Some(Kind::PackedColorArray));
        assert_eq!(Kind::from_id(27, Version::V3), None);
    }

    #[test]
    fn ids_and_names_round_trip_in_both_versions() {
        for v in [Version::V3, Version::V4] {
            for &k in Kind::ALL {
                if let Some(id) = k.id(v) {
                    assert_eq!(Kind::from_id(id, v), Some(k));
                }
                assert_eq!(Kind::from_name(k.name(v)), Some(k));
            }
        }
        assert_eq!(Kind::PackedInt32Array.name(Version::V3), "PoolIntArray");
        assert_eq!(Kind::Vector2i.id(Version::V3), None);
    }
}
