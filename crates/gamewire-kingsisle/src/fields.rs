//! What an editor needs of a property's type: an integer kind's range, a float's
//! width, and the fields of the leaf structs (`Color`, `Vector3D`, `Rect` ...) as the
//! JSON mapping writes them.

use crate::types::Kind;

impl Kind {
    /// The smallest and largest value of an integer kind (bit integers included).
    pub fn integer_range(self) -> Option<(i128, i128)> {
        Some(match self {
            Kind::I8 => (i8::MIN.into(), i8::MAX.into()),
            Kind::U8 => (0, u8::MAX.into()),
            Kind::I16 => (i16::MIN.into(), i16::MAX.into()),
            Kind::U16 => (0, u16::MAX.into()),
            Kind::I32 => (i32::MIN.into(), i32::MAX.into()),
            Kind::U32 => (0, u32::MAX.into()),
            Kind::I64 => (i64::MIN.into(), i64::MAX.into()),
            Kind::U64 => (0, u64::MAX.into()),
            Kind::SBits(n) => (-(1i128 << (n - 1)), (1i128 << (n - 1)) - 1),
            Kind::UBits(n) => (0, (1i128 << n) - 1),
            _ => return None,
        })
    }

    /// The width in bits of a float kind (`float` 32, `double` 64).
    pub fn float_bits(self) -> Option<u8> {
        match self {
            Kind::F32 => Some(32),
            Kind::F64 => Some(64),
            _ => None,
        }
    }

    /// The fields of a leaf struct as its JSON object holds them (a path of keys: the
    /// matrix's `i.0` is `{"i": [x, ..]}`'s first item), and their kind.
    pub fn fields(self) -> Option<(&'static [&'static str], Kind)> {
        Some(match self {
            Kind::Color => (&["r", "g", "b", "a"], Kind::U8),
            Kind::Vec3 => (&["x", "y", "z"], Kind::F32),
            Kind::Euler => (&["pitch", "yaw", "roll"], Kind::F32),
            Kind::Quat => (&["x", "y", "z", "w"], Kind::F32),
            Kind::Matrix => (
                &[
                    "i.0", "i.1", "i.2", "j.0", "j.1", "j.2", "k.0", "k.1", "k.2",
                ],
                Kind::F32,
            ),
            Kind::PointInt => (&["x", "y"], Kind::I32),
            Kind::PointUChar => (&["x", "y"], Kind::U8),
            Kind::PointUInt => (&["x", "y"], Kind::U32),
            Kind::PointFloat => (&["x", "y"], Kind::F32),
            Kind::SizeInt => (&["width", "height"], Kind::I32),
            Kind::RectInt => (&["left", "top", "right", "bottom"], Kind::I32),
            Kind::RectFloat => (&["left", "top", "right", "bottom"], Kind::F32),
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_widths_and_fields() {
        assert_eq!(Kind::of("unsigned char", 0).integer_range(), Some((0, 255)));
        assert_eq!(Kind::of("bi4", 0).integer_range(), Some((-8, 7)));
        assert_eq!(
            Kind::of("gid", 0).integer_range(),
            Some((0, u64::MAX as i128))
        );
        assert_eq!(Kind::of("double", 0).float_bits(), Some(64));
        assert_eq!(Kind::of("std::string", 0).integer_range(), None);
        assert_eq!(
            Kind::of("class Color", 0).fields(),
            Some((&["r", "g", "b", "a"][..], Kind::U8))
        );
    }
}
