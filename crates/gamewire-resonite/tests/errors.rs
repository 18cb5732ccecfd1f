//! Bad input gives a clear error with the byte offset (and path), never a panic.

use gamewire_core::ErrorKind;
use gamewire_resonite::{container, decode, read_bson, Compression, EncodeOptions, Options};

fn opts() -> Options {
    Options::default()
}

#[test]
fn bson_lengths_past_the_end() {
    // document length 100 in a 5-byte input
    let e = read_bson(&[100, 0, 0, 0, 0], &opts()).unwrap_err();
    assert_eq!(e.offset(), Some(0));
    assert!(matches!(
        e.kind(),
        ErrorKind::LengthPastEnd {
            what: "document length",
            declared: 100,
            remaining: 5
        }
    ));
    // a string whose length runs past its document: {"a": "x"} with length 50
    let mut d = vec![0u8; 4];
    d.extend_from_slice(&[2, b'a', 0, 50, 0, 0, 0, b'x', 0, 0]);
    let n = d.len() as i32;
    d[..4].copy_from_slice(&n.to_le_bytes());
    let e = read_bson(&d, &opts()).unwrap_err();
    assert_eq!(e.offset(), Some(7));
    assert_eq!(e.path_string(), "$.a");
    assert!(matches!(
        e.kind(),
        ErrorKind::LengthPastEnd {
            what: "string length",
            declared: 50,
            ..
        }
    ));
    // negative lengths: reported as the negative numbers they are
    let e = read_bson(&[0xff, 0xff, 0xff, 0xff, 0], &opts()).unwrap_err();
    assert_eq!(e.offset(), Some(0));
    assert!(
        matches!(e.kind(), ErrorKind::Unexpected { found, .. } if found == "document length -1")
    );
}

#[test]
fn bson_structure_errors_point_at_the_byte() {
    // unknown element type 0x20 at byte 4
    let e = read_bson(&[8, 0, 0, 0, 0x20, b'a', 0, 0], &opts()).unwrap_err();
    assert_eq!(e.offset(), Some(4));
    assert_eq!(
        e.to_string(),
        "at byte 4 (0x4): expected a BSON element type, found type 0x20"
    );
    // missing terminator
    let e = read_bson(&[7, 0, 0, 0, 0x0a, b'a', 0], &opts()).unwrap_err();
    assert_eq!(e.offset(), Some(5), "{e}");
    // bool byte 2
    let e = read_bson(&[9, 0, 0, 0, 8, b'b', 0, 2, 0], &opts()).unwrap_err();
    assert_eq!((e.offset(), e.path_string().as_str()), (Some(7), "$.b"));
    // invalid UTF-8 in a key
    let e = read_bson(&[8, 0, 0, 0, 0x0a, 0xff, 0, 0], &opts()).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::InvalidText { .. }));
    assert_eq!(e.offset(), Some(5));
    // trailing bytes after the root document
    let e = read_bson(&[5, 0, 0, 0, 0, 9], &opts()).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::TrailingBytes { count: 1 }));
    // a string without its NUL
    let e = read_bson(
        &[14, 0, 0, 0, 2, b's', 0, 2, 0, 0, 0, b'x', b'y', 0],
        &opts(),
    )
    .unwrap_err();
    assert_eq!(e.offset(), Some(12));
}

#[test]
fn depth_is_bounded() {
    let nested = |depth: usize| {
        let mut inner: Vec<u8> = vec![5, 0, 0, 0, 0];
        for _ in 0..depth {
            let mut d = vec![0u8; 4];
            d.extend_from_slice(&[4, b'0', 0]);
            d.extend_from_slice(&inner);
            d.push(0);
            let n = d.len() as i32;
            d[..4].copy_from_slice(&n.to_le_bytes());
            inner = d;
        }
        inner
    };
    // 2000 nested arrays: {"0": [[[[...]]]]}
    let e = read_bson(&nested(2000), &opts()).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::DepthLimit { limit: 1024 }));
    // the default limit itself fits the stack of a test thread, JSON included
    let bytes = nested(1022);
    let doc = read_bson(&bytes, &opts()).unwrap();
    eprintln!("read ok");
    let w = gamewire_resonite::bson_write::to_vec(&doc, 1024).unwrap();
    assert_eq!(w, bytes);
    eprintln!("write ok");
    let j = gamewire_resonite::json::document_to_json(&doc, 1024).unwrap();
    eprintln!("to json ok");
    let back = gamewire_resonite::json::document_from_json(&j, 1024).unwrap();
    eprintln!("from json ok");
    assert_eq!(back, doc);
}

#[test]
fn large_documents_over_16_mib_decode() {
    let mut doc = gamewire_resonite::Document::new();
    doc.push(
        "big",
        gamewire_resonite::Value::String("z".repeat(17 << 20).into()),
    );
    let file = gamewire_resonite::encode(&doc, &EncodeOptions::new(Compression::Lz4)).unwrap();
    let got = decode(&file, None, &opts()).unwrap();
    assert_eq!(
        got.document()
            .get("big")
            .and_then(|v| v.as_str())
            .map(str::len),
        Some(17 << 20)
    );
}

#[test]
fn container_errors() {
    let o = opts();
    let e = container::unpack(b"FrDT\x05\0\0\0\x03", None, &o).unwrap_err();
    assert_eq!(
        e.to_string(),
        "at byte 4 (0x4): expected FrDT version 0 or older, found version 5"
    );
    let e = container::unpack(b"FrDT\0\0\0\0\x80\x01", None, &o).unwrap_err();
    assert!(e.to_string().contains("found compression 128"), "{e}");
    // unknown headerless bytes without a telling name
    let e = container::unpack(b"hello world, not a container", None, &o).unwrap_err();
    assert_eq!(e.offset(), Some(0));
    // a corrupt Brotli payload
    let e = container::unpack(b"FrDT\0\0\0\0\x03\xff\xff\xff\xff", None, &o).unwrap_err();
    assert_eq!(e.offset(), Some(9));
    // a decompression bomb: 16 MiB of one byte, capped at 1 MiB
    let doc = {
        let mut d = gamewire_resonite::Document::new();
        d.push(
            "z",
            gamewire_resonite::Value::String("\u{1}".repeat(16 << 20).into()),
        );
        d
    };
    let mut small = o;
    small.limits.max_decompressed = 1 << 20;
    for c in [Compression::Lz4, Compression::Brotli] {
        let fast = EncodeOptions {
            brotli_quality: 1,
            ..EncodeOptions::new(c)
        };
        let file = gamewire_resonite::encode(&doc, &fast).unwrap();
        let e = decode(&file, None, &small).unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::SizeLimit { limit: 1048576, .. }),
            "{c}: {e}"
        );
    }
}

#[test]
fn lzma_declared_sizes_that_lie() {
    let mut doc = gamewire_resonite::Document::new();
    doc.push(
        "a",
        gamewire_resonite::Value::String("hello".repeat(100).into()),
    );
    let file = gamewire_resonite::encode(&doc, &EncodeOptions::new(Compression::Lzma)).unwrap();
    let o = opts();
    assert!(decode(&file, None, &o).is_ok());
    // uncompressed size claims 1 TiB: refused by the cap before any allocation
    let mut lie = file.clone();
    lie[9 + 5..9 + 13].copy_from_slice(&(1i64 << 40).to_le_bytes());
    let mut small = o;
    small.limits.max_decompressed = 1 << 30;
    let e = decode(&lie, None, &small).unwrap_err();
    assert_eq!(e.offset(), Some(14));
    // uncompressed size one larger than the data holds
    let mut lie = file.clone();
    let real = i64::from_le_bytes(file[14..22].try_into().unwrap());
    lie[14..22].copy_from_slice(&(real + 1).to_le_bytes());
    assert!(decode(&lie, None, &o).is_err());
    // uncompressed size one smaller: the BSON is cut, its length no longer fits
    let mut lie = file.clone();
    lie[14..22].copy_from_slice(&(real - 1).to_le_bytes());
    assert!(decode(&lie, None, &o).is_err());
}

/// `{"a": "x"}` as BSON, with the string's length prefix (at byte 7) set to `len`.
fn doc_with_string_length(len: i32) -> Vec<u8> {
    let mut d = vec![0u8; 4];
    d.extend_from_slice(&[2, b'a', 0]);
    d.extend_from_slice(&len.to_le_bytes());
    d.extend_from_slice(&[b'x', 0, 0]);
    let n = d.len() as i32;
    d[..4].copy_from_slice(&n.to_le_bytes());
    d
}

#[test]
fn negative_lengths_are_reported_as_negative() {
    let e = read_bson(&doc_with_string_length(-1), &opts()).unwrap_err();
    let text = e.to_string();
    assert_eq!(e.offset(), Some(7), "{text}");
    assert!(text.contains("string length -1"), "{text}");
    assert!(!text.contains("18446744073709551615"), "{text}");
    // A negative document length.
    let e = read_bson(&(-5i32).to_le_bytes(), &opts()).unwrap_err();
    assert!(e.to_string().contains("document length -5"), "{e}");
    // A negative binary length: {"b": binary} with length -2.
    let mut d = vec![0u8; 4];
    d.extend_from_slice(&[5, b'b', 0]);
    d.extend_from_slice(&(-2i32).to_le_bytes());
    d.extend_from_slice(&[0, 0]);
    let n = d.len() as i32;
    d[..4].copy_from_slice(&n.to_le_bytes());
    let e = read_bson(&d, &opts()).unwrap_err();
    assert!(e.to_string().contains("binary length -2"), "{e}");
}

#[test]
fn offsets_in_stored_bson_count_from_the_start_of_the_file() {
    let bson = doc_with_string_length(-1);
    let file = container::pack(
        &bson,
        Compression::None,
        false,
        &EncodeOptions::new(Compression::None),
    )
    .unwrap();
    let header = file.len() - bson.len();
    assert!(header > 0);
    let e = decode(&file, None, &opts()).unwrap_err();
    assert_eq!(e.offset(), Some(header + 7), "{e}");
    // In a compressed file the offset is in the decompressed data, and the error says so.
    let file = container::pack(
        &bson,
        Compression::Lz4,
        false,
        &EncodeOptions::new(Compression::Lz4),
    )
    .unwrap();
    let e = decode(&file, None, &opts()).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("decompressed") && text.contains("at byte 7"),
        "{text}"
    );
}
