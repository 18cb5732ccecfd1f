//! Cross-checks with independent implementations in Python: `lzma` (raw LZMA1),
//! `lz4.block`, `brotli` and pymongo's `bson` (script: `tests/peers.py`).

use gamewire_core::peers;
use gamewire_resonite::{
    bson_write, container, json, read_bson, read_bson_in, synth, Arena, Compression, Document,
    EncodeOptions, Framing, Options, Value,
};
use std::borrow::Cow;
use std::path::Path;
use std::process::Command;

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/peers.py");

fn have_peers() -> bool {
    peers::available(
        "python3 with lzma, lz4, brotli, bson (pymongo)",
        peers::python_has(&["lzma", "lz4.block", "brotli", "bson"]),
        "pip install lz4 brotli pymongo",
    )
}

fn run_py(args: &[&str]) -> String {
    let out = Command::new("python3")
        .arg(SCRIPT)
        .args(args)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "peers.py {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn files_made_by_python_peers_decode_in_gamewire() {
    if !have_peers() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    run_py(&["make", dir.path().to_str().unwrap()]);
    let expected = std::fs::read(dir.path().join("expected.bson")).unwrap();
    let cases = [
        ("peer-lz4.lz4bson", Compression::Lz4, false),
        ("peer-lzma.7zbson", Compression::Lzma, false),
        ("peer-brotli.brson", Compression::Brotli, false),
        ("peer-none.frdt", Compression::None, false),
        ("peer-legacy.lz4bson", Compression::Lz4, true),
        ("peer-legacy.7zbson", Compression::Lzma, true),
        ("peer-legacy.brson", Compression::Brotli, true),
    ];
    let opts = Options::default();
    for (name, compression, legacy) in cases {
        let data = std::fs::read(dir.path().join(name)).unwrap();
        let (c, raw) =
            container::unpack(&data, Some(name), &opts).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(c.compression, compression, "{name}");
        assert_eq!(c.framing == Framing::Legacy, legacy, "{name}");
        assert!(raw.as_ref() == expected.as_slice(), "{name}: BSON differs");
        // Lossless: our model re-encodes the peer's bytes exactly, and so does JSON.
        let doc = read_bson(&raw, &opts).unwrap();
        assert!(
            bson_write::to_vec(&doc, 1024).unwrap() == expected,
            "{name}: re-encoding differs"
        );
        let j = json::document_to_json(&doc, 1024).unwrap();
        let back = json::document_from_json(&j, 1024).unwrap();
        assert!(
            bson_write::to_vec(&back, 1024).unwrap() == expected,
            "{name}: JSON round trip differs"
        );
        // Headerless files of known shape are also found without the extension
        // (except Brotli, which only the extension or the header can name).
        if legacy && compression != Compression::Brotli {
            let (c2, raw2) = container::unpack(&data, None, &opts).unwrap();
            assert_eq!(c2.compression, compression);
            assert!(raw2.as_ref() == expected.as_slice());
        }
    }
    // Numeric types as pymongo wrote them, in the tree with a vector per container and
    // in the tree read into an arena.
    let arena = Arena::new();
    let trees = [
        read_bson(&expected, &opts).unwrap(),
        read_bson_in(&expected, &arena, &opts).unwrap(),
    ];
    for doc in &trees {
        pymongo_values(doc);
    }
    assert!(bson_write::to_vec(&trees[1], 1024).unwrap() == expected);
}

/// The values `peers.py make` wrote with pymongo, as it wrote them.
fn pymongo_values(doc: &Document<'_>) {
    let arr = |k: &str| doc.get(k).and_then(Value::as_array).unwrap().to_vec();
    assert_eq!(
        arr("ints"),
        vec![
            Value::Int32(0),
            Value::Int32(-1),
            Value::Int32(i32::MAX),
            Value::Int32(i32::MIN)
        ]
    );
    assert_eq!(
        arr("longs"),
        vec![
            Value::Int64(0),
            Value::Int64(-1),
            Value::Int64(i64::MAX),
            Value::Int64(i64::MIN),
            Value::Int64(5)
        ]
    );
    let d = arr("doubles");
    assert_eq!(d[0], Value::Double(0.0));
    assert!(matches!(d[1], Value::Double(x) if x == 0.0 && x.is_sign_negative()));
    assert_eq!(d[3], Value::Double(1e300));
    assert_eq!(d[4], Value::Double(5e-324));
    assert_eq!(d[5], Value::Double(f64::INFINITY));
    assert_eq!(doc.get("when"), Some(&Value::DateTime(1_709_296_215_123)));
    assert!(
        matches!(doc.get("blob"), Some(Value::Binary { subtype: 0, bytes }) if bytes.len() == 256)
    );
    assert!(
        matches!(doc.get("uuid"), Some(Value::Binary { subtype: 4, bytes }) if bytes[..] == (0..16).collect::<Vec<u8>>()[..])
    );
    assert_eq!(doc.get("none"), Some(&Value::Null));
    assert_eq!(doc.get("flag"), Some(&Value::Bool(false)));
    assert_eq!(doc.get("empty"), Some(&Value::Document(Document::new())));
}

/// A document with every type the engine's writer produces, plus a string long enough
/// to span two LZ4 chunks.
fn gamewire_sample() -> Document<'static> {
    let mut doc = synth::data_tree(300, 4, 11);
    let mut extra = Document::new();
    extra.push("int32", Value::Int32(-7));
    extra.push("int64", Value::Int64(1 << 40));
    extra.push("small_int64", Value::Int64(3));
    extra.push("double", Value::Double(0.1));
    extra.push("whole_double", Value::Double(2.0));
    extra.push("nan", Value::Double(f64::NAN));
    extra.push("date", Value::DateTime(-62_135_596_800_000));
    extra.push(
        "bytes",
        Value::Binary {
            subtype: 0,
            bytes: Cow::Owned(vec![0, 1, 2, 255]),
        },
    );
    extra.push(
        "guid",
        Value::Binary {
            subtype: 4,
            bytes: Cow::Owned((0..16).collect()),
        },
    );
    extra.push(
        "text",
        Value::String("caf\u{e9} \u{1f600} nul\u{0}inside".into()),
    );
    extra.push("null", Value::Null);
    extra.push("big", Value::String("r".repeat(1_300_000).into()));
    doc.push("Extra", Value::Document(extra));
    doc
}

#[test]
fn files_made_by_gamewire_decode_in_python_peers() {
    if !have_peers() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let doc = gamewire_sample();
    let bson = bson_write::to_vec(&doc, 1024).unwrap();
    let mut paths = Vec::new();
    for c in [
        Compression::Lz4,
        Compression::Lzma,
        Compression::Brotli,
        Compression::None,
    ] {
        for legacy in [false, true] {
            if legacy && c == Compression::None {
                continue;
            }
            let bytes = container::pack(&bson, c, legacy, &EncodeOptions::new(c)).unwrap();
            let name = format!(
                "gw-{}{}.{}",
                c.name(),
                if legacy { "-legacy" } else { "" },
                c.extension()
            );
            let p = dir.path().join(name);
            std::fs::write(&p, bytes).unwrap();
            paths.push(p.to_str().unwrap().to_owned());
        }
    }
    let args: Vec<&str> = std::iter::once("read")
        .chain(paths.iter().map(String::as_str))
        .collect();
    let out = run_py(&args);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), paths.len());
    for line in lines {
        let file = line["file"].as_str().unwrap();
        let raw = std::fs::read(Path::new(line["bson_file"].as_str().unwrap())).unwrap();
        assert!(raw == bson, "{file}: the peers unpacked different BSON");
        assert_eq!(
            line["reencodes"], true,
            "{file}: pymongo did not re-encode our BSON identically"
        );
        let ejson = line["ejson"].as_str().unwrap();
        assert!(
            ejson.contains("\"int64\": {\"$numberLong\": \"1099511627776\"}"),
            "{file}"
        );
        assert!(
            ejson.contains("\"int32\": {\"$numberInt\": \"-7\"}"),
            "{file}"
        );
        assert!(
            ejson.contains("\"whole_double\": {\"$numberDouble\": \"2.0\"}"),
            "{file}"
        );
    }
}

#[test]
fn samples_decode_in_python_peers_and_match_the_json_fixture() {
    if !have_peers() {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let text = std::fs::read(root.join("tests/fixtures/resonite/item.json")).unwrap();
    let j = json::parse_text(&text, 1024).unwrap();
    let expected = bson_write::to_vec(&json::document_from_json(&j, 1024).unwrap(), 1024).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut paths = Vec::new();
    for entry in std::fs::read_dir(root.join("samples/resonite")).unwrap() {
        let p = entry.unwrap().path();
        let name = p.file_name().unwrap().to_str().unwrap().to_owned();
        let data = std::fs::read(&p).unwrap();
        // gamewire reads each sample to the fixture's BSON
        let (_, raw) = container::unpack(&data, Some(&name), &Options::default()).unwrap();
        assert!(raw.as_ref() == expected.as_slice(), "{name}");
        let copy = dir.path().join(&name);
        std::fs::write(&copy, data).unwrap();
        paths.push(copy.to_str().unwrap().to_owned());
    }
    assert_eq!(
        paths.len(),
        7,
        "one sample per compression, FrDT and legacy"
    );
    let args: Vec<&str> = std::iter::once("read")
        .chain(paths.iter().map(String::as_str))
        .collect();
    for line in run_py(&args).lines() {
        let line: serde_json::Value = serde_json::from_str(line).unwrap();
        let raw = std::fs::read(line["bson_file"].as_str().unwrap()).unwrap();
        assert!(raw == expected, "{}", line["file"]);
        assert_eq!(line["reencodes"], true);
    }
}
