//! What an editor needs of a type expression: an integer's range, a float's width, and
//! the components of the math types stored as arrays (`Vector3` as `[x, y, z]`, `Color`
//! as `[r, g, b, a]`).

use crate::types::TypeExpr;

impl TypeExpr {
    /// The smallest and largest value of an integer type.
    pub fn integer_range(&self) -> Option<(i128, i128)> {
        Some(match self {
            TypeExpr::I8 => (i8::MIN.into(), i8::MAX.into()),
            TypeExpr::I16 => (i16::MIN.into(), i16::MAX.into()),
            TypeExpr::I32 => (i32::MIN.into(), i32::MAX.into()),
            TypeExpr::I64 => (i64::MIN.into(), i64::MAX.into()),
            TypeExpr::U8 => (0, u8::MAX.into()),
            TypeExpr::U16 => (0, u16::MAX.into()),
            TypeExpr::U32 => (0, u32::MAX.into()),
            TypeExpr::U64 => (0, u64::MAX.into()),
            _ => return None,
        })
    }

    /// The width in bits of a float type.
    pub fn float_bits(&self) -> Option<u8> {
        match self {
            TypeExpr::F32 => Some(32),
            TypeExpr::F64 => Some(64),
            _ => None,
        }
    }

    /// The names of the components of a math type stored as an array of floats, in
    /// their order.
    pub fn components(&self) -> Option<&'static [&'static str]> {
        Some(match self {
            TypeExpr::Vector2 => &["x", "y"],
            TypeExpr::Vector3 => &["x", "y", "z"],
            TypeExpr::Vector4 | TypeExpr::Quaternion => &["x", "y", "z", "w"],
            TypeExpr::Color => &["r", "g", "b", "a"],
            _ => return None,
        })
    }

    /// The type of a `Transform`'s member as stored (`Translation`, `Rotation`, `Scale`).
    pub fn transform_member(name: &str) -> Option<TypeExpr> {
        match name {
            "Translation" => Some(TypeExpr::Vector3),
            "Rotation" => Some(TypeExpr::Quaternion),
            "Scale" => Some(TypeExpr::F32),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_and_components() {
        assert_eq!(TypeExpr::U8.integer_range(), Some((0, 255)));
        assert_eq!(TypeExpr::F32.float_bits(), Some(32));
        assert_eq!(TypeExpr::Color.components().unwrap().len(), 4);
        assert_eq!(
            TypeExpr::transform_member("Rotation"),
            Some(TypeExpr::Quaternion)
        );
        assert_eq!(TypeExpr::String.components(), None);
    }
}
