//! Unsigned LEB128 varints as Resonite writes them (`Write7BitEncoded`, lz4net's `WriteVarInt`).

use gamewire_core::{Error, ErrorKind, Result};

/// Appends `value` as an unsigned LEB128 varint: 7 bits a byte, low bits first,
/// high bit set on every byte but the last.
pub fn write(out: &mut Vec<u8>, mut value: u64) {
    loop {
        let b = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

/// Reads an unsigned LEB128 varint from `data` at `*pos`, advancing `*pos`.
///
/// `base` is added to offsets in errors. At most 10 bytes are read; bits past the 64th
/// are an error (lz4net stops after 64 bits; a value that needs more is corrupt).
pub fn read(data: &[u8], pos: &mut usize, base: usize, what: &str) -> Result<u64> {
    let start = *pos;
    let mut result = 0u64;
    let mut shift = 0u32;
    loop {
        let Some(&b) = data.get(*pos) else {
            return Err(Error::at(
                base + *pos,
                ErrorKind::Unexpected {
                    expected: format!("a varint ({what})"),
                    found: "end of input".into(),
                },
            ));
        };
        *pos += 1;
        let low = u64::from(b & 0x7f);
        if shift == 63 && low > 1 {
            return Err(Error::unexpected_at(
                base + start,
                format!("a varint ({what}) of at most 64 bits"),
                "a longer varint",
            ));
        }
        result |= low << shift;
        if b & 0x80 == 0 {
            return Ok(result);
        }
        shift += 7;
        if shift > 63 {
            return Err(Error::unexpected_at(
                base + start,
                format!("a varint ({what}) of at most 10 bytes"),
                "a longer varint",
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_encodings() {
        for (v, bytes) in [
            (0u64, &[0u8][..]),
            (1, &[1]),
            (127, &[0x7f]),
            (128, &[0x80, 0x01]),
            (1 << 20, &[0x80, 0x80, 0x40]),
            (
                u64::MAX,
                &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01],
            ),
        ] {
            let mut out = Vec::new();
            write(&mut out, v);
            assert_eq!(out, bytes, "{v}");
            let mut pos = 0;
            assert_eq!(read(bytes, &mut pos, 0, "t").unwrap(), v);
            assert_eq!(pos, bytes.len());
        }
    }

    #[test]
    fn truncated_and_overlong_are_errors() {
        let mut pos = 0;
        let e = read(&[0x80, 0x80], &mut pos, 5, "t").unwrap_err();
        assert_eq!(e.offset(), Some(7));
        let mut pos = 0;
        assert!(read(&[0xff; 11], &mut pos, 0, "t").is_err());
        let mut pos = 0;
        assert!(read(
            &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02],
            &mut pos,
            0,
            "t"
        )
        .is_err());
    }
}
