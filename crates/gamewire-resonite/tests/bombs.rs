//! Decompression bombs: every compression stops at a multiple of the compressed size
//! (with a floor and a ceiling, `Limits`), with "expands past the limit" and an offset.

use gamewire_core::Limits;
use gamewire_resonite::{
    brotli_stream, decode, Compression, Document, EncodeOptions, Options, Value,
};

fn small() -> Options {
    Options {
        limits: Limits {
            max_decompress_ratio: 16,
            decompress_allowance: 1 << 20,
            ..Limits::DEFAULT
        },
        ..Options::default()
    }
}

/// A document holding one string of `n` bytes of 0x01 (compresses to almost nothing).
fn big_doc(n: usize) -> Document<'static> {
    let mut d = Document::new();
    d.push("z", Value::String("\u{1}".repeat(n).into()));
    d
}

fn bomb(c: Compression, n: usize) -> Vec<u8> {
    let o = EncodeOptions {
        brotli_quality: 1,
        ..EncodeOptions::new(c)
    };
    gamewire_resonite::encode(&big_doc(n), &o).unwrap()
}

#[test]
fn every_compression_stops_at_the_ratio() {
    for c in [Compression::Lz4, Compression::Brotli, Compression::Lzma] {
        let file = bomb(c, 4 << 20);
        assert!(file.len() < 64 << 10, "{c}: {}", file.len());
        // The defaults open it (64 MiB allowance) ...
        assert!(decode(&file, None, &Options::default()).is_ok(), "{c}");
        // ... a 1 MiB allowance at 16x does not.
        let e = decode(&file, None, &small()).unwrap_err();
        assert!(e.to_string().contains("expands past the limit"), "{c}: {e}");
        assert!(e.offset().is_some(), "{c}: {e}");
    }
}

#[test]
fn lzma_without_a_declared_size_stops_while_streaming() {
    let mut file = bomb(Compression::Lzma, 4 << 20);
    // FrDT header (9 bytes), then props (5) and the uncompressed size: unknown (-1).
    file[14..22].copy_from_slice(&(-1i64).to_le_bytes());
    let e = decode(&file, None, &small()).unwrap_err();
    assert!(e.to_string().contains("expands past the limit"), "{e}");
    assert!(e.to_string().contains("1048576"), "{e}");
}

#[test]
fn sniffing_a_headerless_brotli_bomb_reads_only_its_prefix() {
    // A raw Brotli stream of 16 MiB of zeros: no header, no name. The sniff peeks at
    // the BSON length (0) and gives up without inflating the rest.
    let mut raw = Vec::new();
    brotli_stream::compress(&vec![0u8; 16 << 20], 1, 16, &mut raw).unwrap();
    let e = decode(&raw, None, &small()).unwrap_err();
    assert_eq!(e.offset(), Some(0), "{e}");
    // A stream declaring a 2 GiB document is refused from its first bytes too.
    let mut lie = vec![0xff, 0xff, 0xff, 0x7f];
    lie.extend(std::iter::repeat(0u8).take(16 << 20));
    let mut raw = Vec::new();
    brotli_stream::compress(&lie, 1, 16, &mut raw).unwrap();
    assert!(decode(&raw, None, &small()).is_err());
    // Peeking decodes only what is asked.
    assert_eq!(
        brotli_stream::decompress_prefix(&raw, 0, 4, u64::MAX)
            .unwrap()
            .len(),
        4
    );
}

#[test]
fn brotli_output_never_passes_the_cap() {
    let mut raw = Vec::new();
    brotli_stream::compress(&vec![7u8; 4 << 20], 1, 16, &mut raw).unwrap();
    let e = brotli_stream::decompress(&raw, 33, 100_000).unwrap_err();
    assert_eq!(e.offset(), Some(33));
    assert!(e.to_string().contains("expands past the limit"), "{e}");
    assert_eq!(
        brotli_stream::decompress(&raw, 0, 4 << 20).unwrap().len(),
        4 << 20
    );
}
