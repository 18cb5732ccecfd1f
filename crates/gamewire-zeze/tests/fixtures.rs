//! Every vector of tests/fixtures/zeze/vectors/vectors.json (bytes from Zeze's own Java
//! ByteBuffer), checked in both directions.

use gamewire_zeze::cursor::Cursor;
use gamewire_zeze::json::{bean_from_json, bean_to_json, hex, unhex};
use gamewire_zeze::varint::*;
use gamewire_zeze::{decode, encode, read_tag_delta, Bean, Field, Options, Value, WireType};
use serde_json::Value as J;

fn vectors() -> J {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/zeze/vectors/vectors.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).expect("fixture file")).unwrap()
}

fn h(j: &J) -> Vec<u8> {
    unhex(j["hex"].as_str().unwrap()).unwrap()
}

#[test]
fn signed_longs() {
    let v = vectors();
    let cases = v["long"].as_array().unwrap();
    assert_eq!(cases.len(), 35);
    for c in cases {
        let x = c["value"].as_i64().unwrap();
        let b = h(c);
        let mut out = Vec::new();
        write_long(&mut out, x);
        assert_eq!(hex(&out), hex(&b), "write {x}");
        assert_eq!(read_long(&b), Some((x, b.len())), "read {x}");
        assert_eq!(long_size(x), b.len());
    }
}

#[test]
fn unsigned_ints_and_longs() {
    let v = vectors();
    for c in v["uint"].as_array().unwrap() {
        let x = c["value"].as_u64().unwrap();
        let b = h(c);
        let mut out = Vec::new();
        write_uint(&mut out, x as u32);
        assert_eq!(out, b, "uint {x}");
        assert_eq!(Cursor::new(&b).uint("n").unwrap() as u64, x);
    }
    for c in v["ulong"].as_array().unwrap() {
        let x = c["value"].as_u64().unwrap();
        let b = h(c);
        let mut out = Vec::new();
        write_ulong(&mut out, x);
        assert_eq!(out, b, "ulong {x}");
        assert_eq!(read_ulong(&b), Some((x, b.len())));
    }
}

#[test]
fn tags_and_headers() {
    let v = vectors();
    for c in v["tag"].as_array().unwrap() {
        let (last, id, ty) = (
            c["last_id"].as_u64().unwrap() as u32,
            c["id"].as_u64().unwrap() as u32,
            c["type"].as_u64().unwrap() as u8,
        );
        let b = h(c);
        let mut out = Vec::new();
        write_tag(&mut out, id - last, ty);
        assert_eq!(out, b, "tag {c}");
        let mut cur = Cursor::new(&b);
        let t = cur.u8().unwrap();
        assert_eq!(t & 15, ty);
        assert_eq!(read_tag_delta(&mut cur, t).unwrap(), id - last);
        assert!(cur.is_empty());
    }
    for c in v["list_header"].as_array().unwrap() {
        let (n, ty) = (
            c["count"].as_u64().unwrap() as u32,
            c["elem_type"].as_u64().unwrap() as u8,
        );
        let mut out = Vec::new();
        write_list_header(&mut out, n, ty);
        assert_eq!(out, h(c), "list header {c}");
    }
    for c in v["map_header"].as_array().unwrap() {
        let n = c["count"].as_u64().unwrap() as u32;
        let (k, t) = (
            c["key_type"].as_u64().unwrap() as u8,
            c["value_type"].as_u64().unwrap() as u8,
        );
        let mut out = Vec::new();
        write_map_header(&mut out, n, k, t);
        assert_eq!(out, h(c), "map header {c}");
    }
}

#[test]
fn floats_and_strings() {
    let v = vectors();
    let f = &v["floats"];
    assert_eq!(1.1f32.to_le_bytes().to_vec(), h(&f[0]));
    assert_eq!(1.1f64.to_le_bytes().to_vec(), h(&f[1]));
    for c in v["strings"].as_array().unwrap() {
        let s = c["value"].as_str().unwrap();
        let mut out = Vec::new();
        gamewire_zeze::write_value(&Value::string(s), &mut out).unwrap();
        assert_eq!(out, h(c));
        assert_eq!(Cursor::new(&out).len_bytes().unwrap(), s.as_bytes());
    }
}

fn f(id: u32, value: Value) -> Field {
    Field { id, value }
}

fn beans() -> Vec<(String, Vec<u8>)> {
    vectors()["beans"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["name"].as_str().unwrap().to_owned(), h(b)))
        .collect()
}

#[test]
fn bean_simple_exact_values() {
    let (_, b) = &beans()[0];
    let bean = decode(b, &Options::default()).unwrap();
    let want = Bean::new(vec![
        f(1, Value::Integer(150)),
        f(3, Value::string("hi")),
        f(4, Value::Float(1.5)),
        f(5, Value::Double(-2.0)),
        f(20, Value::Integer(1)),
        f(21, Value::Bytes(vec![1, 2, 3])),
    ]);
    assert_eq!(bean, want);
    assert_eq!(encode(&want).unwrap(), *b);
}

#[test]
fn bean_outer_nested_lists_maps_vectors_sets() {
    let (_, b) = &beans()[1];
    let bean = decode(b, &Options::default()).unwrap();
    let inner = |x: i64, name: Option<&str>| {
        let mut fs = vec![];
        if x != 0 {
            fs.push(f(1, Value::Integer(x)));
        }
        if let Some(n) = name {
            fs.push(f(2, Value::string(n)));
        }
        Bean::new(fs)
    };
    let want = Bean::new(vec![
        f(1, Value::Bean(inner(5, Some("n")))),
        f(
            2,
            Value::List {
                elem: WireType::Integer,
                items: vec![Value::Integer(1), Value::Integer(-1), Value::Integer(300)],
            },
        ),
        f(
            3,
            Value::List {
                elem: WireType::Bean,
                items: vec![Value::Bean(inner(1, None)), Value::Bean(Bean::default())],
            },
        ),
        f(
            4,
            Value::Map {
                key: WireType::Bytes,
                value: WireType::Bean,
                entries: vec![(Value::string("k"), Value::Bean(inner(7, None)))],
            },
        ),
        f(6, Value::Vector2([1.0, 2.0])),
        f(7, Value::Vector3Int([1, -2, 3])),
        f(
            8,
            Value::List {
                elem: WireType::Bytes,
                items: vec![Value::string("a")],
            },
        ),
    ]);
    assert_eq!(bean, want);
    assert_eq!(encode(&want).unwrap(), *b);
}

#[test]
fn bean_inheritance_levels() {
    let bs = beans();
    let bean = decode(&bs[2].1, &Options::default()).unwrap();
    assert_eq!(bean.levels(), 3);
    assert_eq!(bean.get(1), Some(&Value::Integer(3)));
    let derive = bean.base.as_ref().unwrap();
    assert_eq!(derive.get(1), Some(&Value::Integer(2)));
    assert_eq!(
        derive.base.as_ref().unwrap().get(1),
        Some(&Value::Integer(1))
    );
    let empty = decode(&bs[3].1, &Options::default()).unwrap();
    assert_eq!(empty.levels(), 3);
    assert!(empty.fields.is_empty());
    assert_eq!(encode(&empty).unwrap(), [1, 1, 0]);
}

#[test]
fn the_json_view_writes_the_text_of_bean_to_json_on_every_vector() {
    use gamewire_zeze::json_view::BeanView;
    let beans = beans();
    assert!(beans.len() > 3);
    for (name, b) in beans {
        let bean = decode(&b, &Options::default()).unwrap();
        let tree = bean_to_json(&bean);
        let view = BeanView::new(&bean);
        assert_eq!(
            serde_json::to_string(&view).unwrap(),
            serde_json::to_string(&tree).unwrap(),
            "{name}"
        );
        assert_eq!(
            serde_json::to_string_pretty(&view).unwrap(),
            serde_json::to_string_pretty(&tree).unwrap(),
            "{name}"
        );
    }
}

#[test]
fn every_bean_round_trips_through_json() {
    for (name, b) in beans() {
        let bean = decode(&b, &Options::default()).unwrap();
        assert_eq!(encode(&bean).unwrap(), b, "{name}");
        let text = serde_json::to_string(&bean_to_json(&bean)).unwrap();
        let back = bean_from_json(&serde_json::from_str(&text).unwrap()).unwrap();
        assert_eq!(encode(&back).unwrap(), b, "{name} via {text}");
    }
}

#[test]
fn json_of_bsimple_is_as_documented() {
    let bean = decode(&beans()[0].1, &Options::default()).unwrap();
    assert_eq!(
        serde_json::to_string(&bean_to_json(&bean)).unwrap(),
        r#"{"1":150,"3":"hi","4":{"float":1.5},"5":-2.0,"20":1,"21":"\u0001\u0002\u0003"}"#
    );
}

/// TestByteBuffer.testBytes and testBasic: bytes with their length, strings, bool, the
/// fixed-size little-endian ints and floats.
#[test]
fn zeze_test_bytebuffer_bytes_and_basic() {
    let w = |v: Value| {
        let mut o = Vec::new();
        gamewire_zeze::write_value(&v, &mut o).unwrap();
        hex(&o)
    };
    assert_eq!(w(Value::Bytes(vec![])), "00");
    assert_eq!(w(Value::Bytes(vec![1, 2])), "020102");
    assert_eq!(w(Value::string("abc汉字123")), "0c616263e6b189e5ad97313233");
    // A pair of UTF-16 surrogates is one 4-byte UTF-8 character each.
    let s: String = char::decode_utf16([
        0xd800 + 0x155,
        0xdc00 + 0x2aa,
        0xd800 + 0x2aa,
        0xdc00 + 0x155,
    ])
    .map(|c| c.unwrap())
    .collect();
    assert_eq!(w(Value::string(&s))[..2], *"08");
    assert_eq!(w(Value::Integer(1)), "01"); // WriteBool(true)
    assert_eq!(w(Value::Double(1.1)), "9a9999999999f13f");
    assert_eq!(w(Value::Float(1.1)), "cdcc8c3f");
    assert_eq!(hex(&0x1234_5678u32.to_le_bytes()), "78563412"); // WriteInt4, as in frame headers
    assert_eq!(hex(&(-12345678i64).to_le_bytes()), "b29e43ffffffffff"); // WriteLong8
    let mut c = Cursor::new(&[0x78, 0x56, 0x34, 0x12]);
    assert_eq!(c.u32_le().unwrap(), 0x1234_5678);
}

/// Every sink of the one walk accepts Zeze's own beans and stops at their last byte:
/// the validating walk (`skip_bean`), the view's check and the owned tree; every cut
/// short is refused by each, at or before the cut, at the same offset with the same
/// message.
#[test]
fn every_sink_of_the_walk_reads_the_java_beans_whole() {
    let opts = Options::default();
    for (name, b) in beans() {
        let mut c = Cursor::new(&b);
        gamewire_zeze::skip_bean(&mut c, &opts, 0).unwrap();
        assert_eq!(c.pos(), b.len(), "{name}");
        let mut c = Cursor::new(&b);
        gamewire_zeze::read_bean(&mut c, &opts, 0).unwrap();
        assert_eq!(c.pos(), b.len(), "{name}");
        gamewire_zeze::view(&b, &opts).unwrap();
        for cut in 0..b.len() {
            let short = &b[..cut];
            let tree = decode(short, &opts).unwrap_err();
            let skip = gamewire_zeze::skip_bean(&mut Cursor::new(short), &opts, 0).unwrap_err();
            let view = gamewire_zeze::view(short, &opts).unwrap_err();
            assert!(tree.offset().unwrap() <= cut, "{name} cut at {cut}: {tree}");
            for e in [skip, view] {
                assert_eq!(
                    (e.offset(), e.to_string()),
                    (tree.offset(), tree.to_string())
                );
            }
        }
    }
}
