//! What an editor needs of the Variant types with components: the names of the
//! components of a vector, rectangle, colour or transform in the order of its JSON
//! `value` array (the wire order), and the element type of packed arrays.

use crate::Kind;

/// The numeric type of a component or an element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Element {
    /// A 32-bit signed integer (`Vector2i`'s components, `PackedInt32Array`'s items).
    Int32,
    /// A 64-bit signed integer (`int`, `PackedInt64Array`'s items).
    Int64,
    /// A real: a 32-bit float, or 64-bit in a double-precision build
    /// (`"precision": "double"`).
    Real,
    /// A 32-bit float always (`Color`, `PackedFloat32Array`).
    Float32,
    /// A 64-bit float (`float`, `PackedFloat64Array`).
    Float64,
    /// A byte (`PackedByteArray`, written as base64, not as numbers).
    Byte,
    /// A string (`PackedStringArray`).
    String,
    /// A value with components of this kind (`PackedVector3Array`'s items).
    Compound(Kind),
}

impl Kind {
    /// The names of the components of a value of this kind, in the order its JSON
    /// `value` array holds them; `None` for kinds without components.
    pub fn components(self) -> Option<&'static [&'static str]> {
        Some(match self {
            Kind::Vector2 | Kind::Vector2i => &["x", "y"],
            Kind::Vector3 | Kind::Vector3i => &["x", "y", "z"],
            Kind::Vector4 | Kind::Vector4i | Kind::Quaternion => &["x", "y", "z", "w"],
            Kind::Rect2 | Kind::Rect2i => &["position.x", "position.y", "size.x", "size.y"],
            Kind::Transform2D => &["x.x", "x.y", "y.x", "y.y", "origin.x", "origin.y"],
            Kind::Plane => &["normal.x", "normal.y", "normal.z", "d"],
            Kind::Aabb => &[
                "position.x",
                "position.y",
                "position.z",
                "size.x",
                "size.y",
                "size.z",
            ],
            // Rows, as the wire holds them.
            Kind::Basis => &[
                "row0.x", "row0.y", "row0.z", "row1.x", "row1.y", "row1.z", "row2.x", "row2.y",
                "row2.z",
            ],
            Kind::Transform3D => &[
                "row0.x", "row0.y", "row0.z", "row1.x", "row1.y", "row1.z", "row2.x", "row2.y",
                "row2.z", "origin.x", "origin.y", "origin.z",
            ],
            // Columns.
            Kind::Projection => &[
                "x.x", "x.y", "x.z", "x.w", "y.x", "y.y", "y.z", "y.w", "z.x", "z.y", "z.z", "z.w",
                "w.x", "w.y", "w.z", "w.w",
            ],
            Kind::Color => &["r", "g", "b", "a"],
            _ => return None,
        })
    }

    /// The type of this kind's components (for kinds with [`Kind::components`]).
    pub fn component_type(self) -> Option<Element> {
        self.components()?;
        Some(match self {
            Kind::Vector2i | Kind::Vector3i | Kind::Vector4i | Kind::Rect2i => Element::Int32,
            Kind::Color => Element::Float32,
            _ => Element::Real,
        })
    }

    /// The type of the items of a packed array of this kind.
    pub fn packed_element(self) -> Option<Element> {
        Some(match self {
            Kind::PackedByteArray => Element::Byte,
            Kind::PackedInt32Array => Element::Int32,
            Kind::PackedInt64Array => Element::Int64,
            Kind::PackedFloat32Array => Element::Float32,
            Kind::PackedFloat64Array => Element::Float64,
            Kind::PackedStringArray => Element::String,
            Kind::PackedVector2Array => Element::Compound(Kind::Vector2),
            Kind::PackedVector3Array => Element::Compound(Kind::Vector3),
            Kind::PackedVector4Array => Element::Compound(Kind::Vector4),
            Kind::PackedColorArray => Element::Compound(Kind::Color),
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_match_the_json_arrays() {
        // As many names as the JSON mapping writes numbers.
        let v = crate::Value::Transform3D(Box::new(crate::Real::F32([0.0; 12])));
        let json = crate::json::to_json(&v, crate::Version::V4);
        let n = json["value"].as_array().unwrap().len();
        assert_eq!(Kind::Transform3D.components().unwrap().len(), n);
        assert_eq!(Kind::Color.component_type(), Some(Element::Float32));
        assert_eq!(Kind::Vector3i.component_type(), Some(Element::Int32));
        assert_eq!(Kind::Dictionary.components(), None);
        assert_eq!(
            Kind::PackedColorArray.packed_element(),
            Some(Element::Compound(Kind::Color))
        );
    }
}
