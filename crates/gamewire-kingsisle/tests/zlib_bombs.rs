//! zlib framing under hostile sizes: lying declared sizes and decompression bombs stop
//! at the limit (a multiple of the compressed size) without allocating what they claim.

use gamewire_core::Limits;
use gamewire_kingsisle::zlib::{compress, frame, unframe};

fn small_limits() -> Limits {
    Limits {
        max_decompress_ratio: 16,
        decompress_allowance: 1 << 20,
        ..Limits::DEFAULT
    }
}

#[test]
fn a_declared_size_of_4_gib_is_refused_before_allocation() {
    // 4 MiB of incompressible-ish bytes: the stream could hold 2^32-1 by zlib's ratio,
    // but not by the limit (a multiple of the compressed size).
    let mut x = 0x1234_5678u32;
    let data: Vec<u8> = (0..4 << 20)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        })
        .collect();
    let mut f = u32::MAX.to_le_bytes().to_vec();
    f.extend_from_slice(&compress(&data));
    let l = Limits::DEFAULT;
    let e = unframe(&f, 100, l.decompress_cap(f.len())).unwrap_err();
    assert_eq!(e.offset(), Some(100));
    assert!(e.to_string().contains("expands past the limit"), "{e}");
}

#[test]
fn a_zlib_bomb_stops_at_a_multiple_of_its_size() {
    let zeros = vec![0u8; 32 << 20];
    let f = frame(&zeros);
    assert!(f.len() < 64 << 10, "{}", f.len());
    let l = small_limits();
    let cap = l.decompress_cap(f.len());
    assert_eq!(cap, 1 << 20);
    let e = unframe(&f, 0, cap).unwrap_err();
    assert!(e.to_string().contains("expands past the limit"), "{e}");
    // The defaults let the same file through (64 MiB allowance).
    assert_eq!(
        unframe(&f, 0, Limits::DEFAULT.decompress_cap(f.len()))
            .unwrap()
            .len(),
        32 << 20
    );
}

#[test]
fn a_stream_longer_than_declared_stops_at_the_declared_size() {
    let zeros = vec![0u8; 8 << 20];
    let mut f = 1000u32.to_le_bytes().to_vec();
    f.extend_from_slice(&compress(&zeros));
    let e = unframe(&f, 0, Limits::DEFAULT.decompress_cap(f.len())).unwrap_err();
    assert!(
        e.to_string().contains("1000 inflated bytes as declared"),
        "{e}"
    );
}
