//! Every decoder's peak memory stays within a fixed multiple of its input (plus a
//! constant) on a corpus of bombs built here: each case runs in a child process (this
//! test binary, re-invoked) under an address-space cap (`setrlimit(RLIMIT_AS)`), which
//! resets its peak resident size after building the input and reports the peak the
//! decode added (`VmHWM` in `/proc/self/status`). Linux only.

use std::process::Command;

/// The address-space cap of a child: far above what any case should need, far below
/// what the bombs would take unchecked.
const CAP: u64 = 2 << 30;

/// A decode to measure (it panics when the result is not the expected one).
type Decode = Box<dyn Fn(&[u8])>;

/// A case: its input bytes and the decode to measure.
struct Case {
    input: Vec<u8>,
    decode: Decode,
}

fn kingsisle_bools() -> Case {
    use gamewire::kingsisle::{
        decode, encode, ClassDef, Document, Object, Options, PropertyDef, TypeList, Value,
    };
    let mut c = ClassDef::new("class Bits");
    c.properties
        .push(PropertyDef::new("m_bits", "bool", 0, 7, true));
    let (class, prop) = (c.hash, c.properties[0].hash);
    let mut types = TypeList::new();
    types.insert(c);
    let doc = Document {
        root: Object::new(class, vec![(prop, Value::Bools(vec![true; 8 << 20]))]),
        ..Document::default()
    };
    let opts = Options {
        property_mask: 7,
        ..Options::default()
    };
    let input = encode(&doc, &types, &opts).unwrap();
    Case {
        input,
        decode: Box::new(move |d| {
            let doc = decode(d, &types, &opts).unwrap();
            assert_eq!(
                doc.root.properties.get(0).unwrap().1.list_len(),
                Some(8 << 20)
            );
        }),
    }
}

fn kingsisle_bool_objects() -> Case {
    // 64 Ki objects of a class of 64 `bool` properties (shallow mode: one bit each,
    // after the object's 32-bit type hash), in one list.
    use gamewire::kingsisle::{
        decode, encode, ClassDef, Document, Object, Options, PropertyDef, TypeList, Value,
    };
    let n = 64 << 10;
    let mut bits = ClassDef::new("class Bits");
    for i in 0..64 {
        let p = PropertyDef::new(&format!("m_b{i}"), "bool", i, 7, false);
        bits.properties.push(p);
    }
    let mut holder = ClassDef::new("class Holder");
    holder
        .properties
        .push(PropertyDef::new("m_items", "class Bits*", 0, 7, true));
    let item = Object::new(
        bits.hash,
        bits.properties
            .iter()
            .enumerate()
            .map(|(i, p)| (p.hash, Value::Bool(i % 3 == 0)))
            .collect(),
    );
    let mut types = TypeList::new();
    let holder_hash = (holder.hash, holder.properties[0].hash);
    types.insert(bits);
    types.insert(holder);
    let opts = Options {
        property_mask: 7,
        ..Options::default()
    };
    // Encoding 64 Ki objects would leave their freed heap resident (and the decode would
    // reuse it unseen): encode lists of 1 and 2, then repeat the 12-byte item.
    let with = |k: usize| {
        let items = vec![Value::Object(item.clone()); k];
        let root = Object::new(holder_hash.0, vec![(holder_hash.1, Value::List(items))]);
        let doc = Document {
            root,
            ..Document::default()
        };
        encode(&doc, &types, &opts).unwrap()
    };
    let (one, two) = (with(1), with(2));
    let len = two.len() - one.len();
    let at = one.iter().zip(&two).position(|(a, b)| a != b).unwrap();
    let build = |k: usize| {
        let mut v = one[..at].to_vec();
        v.extend((k as u32).to_le_bytes());
        for _ in 0..k {
            v.extend(&one[at + 4..at + 4 + len]);
        }
        v.extend(&one[at + 4 + len..]);
        v
    };
    assert_eq!(
        build(2),
        two,
        "the list is a u32 count, then whole-byte items"
    );
    let input = build(n);
    Case {
        input,
        decode: Box::new(move |d| {
            let doc = decode(d, &types, &opts).unwrap();
            assert_eq!(doc.root.properties.get(0).unwrap().1.list_len(), Some(n));
        }),
    }
}

fn kingsisle_zlib_bomb() -> Case {
    use gamewire::kingsisle::{decode, zlib, Options, TypeList};
    let input = zlib::frame(&vec![0u8; 64 << 20]);
    Case {
        input,
        decode: Box::new(|d| {
            let opts = Options {
                manual_zlib: true,
                limits: small_limits(),
                ..Options::default()
            };
            match decode(d, &TypeList::new(), &opts) {
                Ok(_) => panic!("the bomb decoded"),
                Err(e) => assert!(e.to_string().contains("expands past the limit"), "{e}"),
            }
        }),
    }
}

fn zeze_empty_beans() -> Case {
    // One bean with field 1: a list of 4 Mi empty beans (one byte each).
    let n: u32 = 2 << 20;
    let rest = n - 15;
    let mut input = vec![
        0x14,
        0xf6,
        0xe0 | (rest >> 24) as u8,
        (rest >> 16) as u8,
        (rest >> 8) as u8,
        rest as u8,
    ];
    input.extend(std::iter::repeat(0u8).take(n as usize));
    input.push(0);
    Case {
        input,
        decode: Box::new(|d| {
            let b = gamewire::zeze::decode(d, &Default::default()).unwrap();
            assert_eq!(b.fields.len(), 1);
        }),
    }
}

fn godot_nils() -> Case {
    use gamewire::godot::{decode, encode, Array, DecodeOptions, EncodeOptions, Value, Version};
    let v = Value::Array(Array::new(vec![Value::Nil; 1 << 20]));
    let input = encode(&v, &EncodeOptions::new(Version::V4)).unwrap();
    Case {
        input,
        decode: Box::new(|d| {
            decode(d, &DecodeOptions::new(Version::V4)).unwrap();
        }),
    }
}

fn resonite_nulls() -> Case {
    use gamewire::resonite::{encode, read_bson, Compression, Document, EncodeOptions, Value};
    let mut doc = Document::new();
    doc.push("a", Value::Array(vec![Value::Null; 1 << 20]));
    let file = encode(&doc, &EncodeOptions::new(Compression::None)).unwrap();
    // Compression::None: the FrDT header, then the BSON.
    let input = file[9..].to_vec();
    Case {
        input,
        decode: Box::new(|d| {
            read_bson(d, &Default::default()).unwrap();
        }),
    }
}

/// Limits of the bomb cases: 16x the compressed size, 4 MiB whatever the size.
fn small_limits() -> gamewire::Limits {
    gamewire::Limits {
        max_decompress_ratio: 16,
        decompress_allowance: 4 << 20,
        ..gamewire::Limits::DEFAULT
    }
}

fn resonite_bomb(c: gamewire::resonite::Compression) -> Case {
    use gamewire::resonite::{encode, Document, EncodeOptions, Options, Value};
    let mut doc = Document::new();
    doc.push("z", Value::String("\u{1}".repeat(64 << 20).into()));
    let o = EncodeOptions {
        brotli_quality: 1,
        ..EncodeOptions::new(c)
    };
    let input = encode(&doc, &o).unwrap();
    Case {
        input,
        decode: Box::new(|d| {
            let o = Options {
                limits: small_limits(),
                ..Options::default()
            };
            match gamewire::resonite::decode(d, None, &o) {
                Ok(_) => panic!("the bomb decoded"),
                Err(e) => assert!(e.to_string().contains("expands past the limit"), "{e}"),
            }
        }),
    }
}

/// Cases by name.
fn case(name: &str) -> Option<Case> {
    use gamewire::resonite::Compression;
    Some(match name {
        "kingsisle-bools" => kingsisle_bools(),
        "kingsisle-bool-objects" => kingsisle_bool_objects(),
        "kingsisle-zlib-bomb" => kingsisle_zlib_bomb(),
        "zeze-empty-beans" => zeze_empty_beans(),
        "godot-nils" => godot_nils(),
        "resonite-nulls" => resonite_nulls(),
        "resonite-brotli-bomb" => resonite_bomb(Compression::Brotli),
        "resonite-lzma-bomb" => resonite_bomb(Compression::Lzma),
        "resonite-lz4-bomb" => resonite_bomb(Compression::Lz4),
        _ => return None,
    })
}

/// The bound of a case: peak bytes added <= factor * input + constant (the factors
/// docs/FORMATS.md states; a bomb stops at its limit, 4 MiB here, whatever its size).
fn bound(name: &str) -> (u64, u64) {
    match name {
        "kingsisle-bools" | "godot-nils" | "resonite-nulls" => (16, 1 << 20),
        "zeze-empty-beans" | "kingsisle-bool-objects" => (64, 1 << 20),
        _ => (0, 3 * small_limits().decompress_allowance + (4 << 20)),
    }
}

const CASES: &[&str] = &[
    "kingsisle-bools",
    "kingsisle-bool-objects",
    "kingsisle-zlib-bomb",
    "zeze-empty-beans",
    "godot-nils",
    "resonite-nulls",
    "resonite-brotli-bomb",
    "resonite-lzma-bomb",
    "resonite-lz4-bomb",
];

fn status_kib(field: &str) -> u64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap();
    s.lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("no {field} in /proc/self/status"))
}

/// The child: runs one case (named by `GAMEWIRE_MEMCAP_CASE`) and prints its numbers.
/// Without the variable (an ordinary test run) it does nothing.
#[test]
fn memcap_child() {
    let Ok(name) = std::env::var("GAMEWIRE_MEMCAP_CASE") else {
        return;
    };
    rlimit::setrlimit(rlimit::Resource::AS, CAP, CAP).unwrap();
    let c = case(&name).expect("a known case");
    // Reset the peak resident size (Linux 4.0+): only the decode counts.
    std::fs::write("/proc/self/clear_refs", "5").unwrap();
    let base = status_kib("VmRSS:");
    (c.decode)(&c.input);
    let peak = status_kib("VmHWM:");
    println!(
        "MEMCAP input={} added={}",
        c.input.len(),
        peak.saturating_sub(base) * 1024
    );
}

#[test]
#[cfg(target_os = "linux")]
fn decoders_stay_within_their_memory_bound() {
    let exe = std::env::current_exe().unwrap();
    let mut failures = Vec::new();
    for name in CASES {
        let out = Command::new(&exe)
            .args(["memcap_child", "--exact", "--nocapture", "--test-threads=1"])
            .env("GAMEWIRE_MEMCAP_CASE", name)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        let Some(line) = text
            .lines()
            .find_map(|l| l.split_once("MEMCAP ").map(|x| x.1))
        else {
            failures.push(format!(
                "{name}: the child failed ({}):\n{text}\n{}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            ));
            continue;
        };
        let num = |k: &str| -> u64 {
            line.split_whitespace()
                .find_map(|w| w.strip_prefix(k))
                .and_then(|v| v.parse().ok())
                .unwrap()
        };
        let (input, added) = (num("input="), num("added="));
        let (factor, constant) = bound(name);
        let bound = factor * input + constant;
        println!(
            "{name}: input {input} B, decode added {added} B ({:.1}x), bound {bound}",
            added as f64 / input as f64
        );
        if added > bound {
            failures.push(format!(
                "{name}: {added} bytes > {factor} x {input} + {constant}"
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
