//! KingsIsle's two dictionary hashes: `string_id` (type names) and djb2 (property names).

/// KingsIsle's "string id" hash of a type name (the class hash of a type list).
///
/// Each byte, minus 32, is rotated left by `5 * index` bits (modulo 32) and xored into
/// a signed 32-bit state; the result is the state's absolute value.
pub fn string_id(text: &[u8]) -> u32 {
    let mut state: i32 = 0;
    for (i, &b) in text.iter().enumerate() {
        let v = i32::from(b) - 32;
        let shift = ((i as u32).wrapping_mul(5)) & 31;
        state ^= v.rotate_left(shift);
    }
    state.unsigned_abs()
}

/// The djb2 hash of a property name as KingsIsle uses it: `h = h * 33 + byte` from 5381,
/// wrapping, with the top bit cleared (`& 0x7FFF_FFFF`).
pub fn djb2(text: &[u8]) -> u32 {
    let mut h: u32 = 5381;
    for &b in text {
        h = h.wrapping_mul(33).wrapping_add(u32::from(b));
    }
    h & 0x7FFF_FFFF
}

/// The tag of a property as written in deep mode: `string_id(type) + djb2(name)`, wrapping.
pub fn property_hash(type_name: &str, name: &str) -> u32 {
    string_id(type_name.as_bytes()).wrapping_add(djb2(name.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        // Class hashes from the katsuba fixtures' type list.
        assert_eq!(string_id(b"class PropertyClass"), 723888169);
        assert_eq!(string_id(b"class AllScalars"), 1534054483);
        // Property tags from the same list.
        assert_eq!(property_hash("bool", "m_bool"), 221725407);
        assert_eq!(property_hash("class Inner", "m_inner"), 1944596742);
        assert_eq!(djb2(b""), 5381);
        assert_eq!(string_id(b""), 0);
    }
}
