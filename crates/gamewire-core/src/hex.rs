//! Hex text of bytes, as the formats' JSON mappings write raw bytes (ObjectIds,
//! undecoded streams, trailing bytes).

/// Lower-case hex of `b`, two digits a byte, no separators.
pub fn to_hex(b: &[u8]) -> String {
    const D: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(b.len() * 2);
    for &x in b {
        s.push(D[(x >> 4) as usize] as char);
        s.push(D[(x & 15) as usize] as char);
    }
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_byte_is_two_lower_case_digits() {
        assert_eq!(super::to_hex(&[0x00, 0x0f, 0xa0, 0xff, 0x5c]), "000fa0ff5c");
        assert_eq!(super::to_hex(&[]), "");
        let all: Vec<u8> = (0..=255).collect();
        let h = super::to_hex(&all);
        for (i, pair) in h.as_bytes().chunks(2).enumerate() {
            assert_eq!(pair, format!("{i:02x}").as_bytes());
        }
    }
}
