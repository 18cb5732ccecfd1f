//! What an editor needs of a declared type: an integer's range, a float's width, and
//! the components of the vector types (arrays of numbers in the JSON mapping).

use crate::schema::Type;

impl Type {
    /// The smallest and largest value of an integer type (`byte` is Java's signed
    /// byte).
    pub fn integer_range(&self) -> Option<(i128, i128)> {
        Some(match self {
            Type::Byte => (i8::MIN.into(), i8::MAX.into()),
            Type::Short => (i16::MIN.into(), i16::MAX.into()),
            Type::Int => (i32::MIN.into(), i32::MAX.into()),
            Type::Long => (i64::MIN.into(), i64::MAX.into()),
            _ => return None,
        })
    }

    /// The width in bits of a float type.
    pub fn float_bits(&self) -> Option<u8> {
        match self {
            Type::Float => Some(32),
            Type::Double => Some(64),
            _ => None,
        }
    }

    /// The names of a vector type's components, in the order of its JSON array, and
    /// whether they are integers (32-bit) rather than floats (32-bit).
    pub fn components(&self) -> Option<(&'static [&'static str], bool)> {
        tag_components(self.keyword()?)
    }
}

/// The components of a vector by its name in the schema-less JSON (`{"vector3": [..]}`)
/// or the schema (`quaternion`), and whether they are integers.
pub fn tag_components(name: &str) -> Option<(&'static [&'static str], bool)> {
    Some(match name {
        "vector2" => (&["x", "y"], false),
        "vector2int" => (&["x", "y"], true),
        "vector3" => (&["x", "y", "z"], false),
        "vector3int" => (&["x", "y", "z"], true),
        "vector4" | "quaternion" => (&["x", "y", "z", "w"], false),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_and_components() {
        assert_eq!(Type::Byte.integer_range(), Some((-128, 127)));
        assert_eq!(Type::Float.float_bits(), Some(32));
        assert_eq!(
            Type::Vector3Int.components(),
            Some((&["x", "y", "z"][..], true))
        );
        assert_eq!(Type::String.components(), None);
    }
}
