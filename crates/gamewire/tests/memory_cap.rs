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

/// A KIWAD archive of 100,000 one-byte entries: the journal read, every entry read.
fn kingsisle_wad_journal() -> Case {
    use gamewire::kingsisle::wad::{Archive, Builder, Prepared};
    let mut b = Builder::new(2, None).unwrap();
    for i in 0..100_000 {
        b.add(Prepared::stored(&format!("e{i:06}"), vec![1]).unwrap())
            .unwrap();
    }
    Case {
        input: b.to_bytes().unwrap(),
        decode: Box::new(|d| {
            let a = Archive::new(d).unwrap();
            let mut n = 0;
            for e in a.entries() {
                n += a.read(&e).unwrap().bytes().unwrap().len();
            }
            assert_eq!(n, 100_000);
        }),
    }
}

/// A KIWAD entry of 64 MiB of zeros: declared as 1,000 bytes it stops there; declared
/// whole, the limits refuse it before inflating.
fn kingsisle_wad_bomb() -> Case {
    use gamewire::kingsisle::wad::{Builder, Prepared};
    let mut b = Builder::new(2, None).unwrap();
    b.add(Prepared::compressed("bomb", &vec![0u8; 64 << 20], 9).unwrap())
        .unwrap();
    Case {
        input: b.to_bytes().unwrap(),
        decode: Box::new(|d| {
            use gamewire::kingsisle::wad::Archive;
            let a = Archive::new(d).unwrap();
            let e = a.entry(0).unwrap();
            let err = a.read_with(&e, &small_limits()).unwrap_err().to_string();
            assert!(err.contains("past the limit"), "{err}");
            let mut lying = d.to_vec();
            lying[18..22].copy_from_slice(&1000u32.to_le_bytes());
            let a = Archive::new(lying.as_slice()).unwrap();
            let e = a.entry(0).unwrap();
            let err = a.read(&e).unwrap_err().to_string();
            assert!(err.contains("1000 inflated bytes"), "{err}");
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

/// Detection of 64 MiB of zeros: 5.6 million empty Zeze frame headers by their size
/// chain (they used to be collected in a Vec), nothing Godot reads.
fn identify_zeros() -> Case {
    Case {
        input: vec![0; 64 << 20],
        decode: Box::new(|d| {
            assert_eq!(gamewire::identify(d, None), gamewire::Detection::Unknown);
        }),
    }
}

/// Detection of 64 MiB of 8-byte Godot frames each holding a `nil` (8 million values,
/// which the probe used to decode as Godot 3 and 4 and keep both): its first frames are
/// decoded, the rest counted by their size chain.
fn identify_godot_nil_frames() -> Case {
    let mut input = Vec::with_capacity(64 << 20);
    while input.len() < 64 << 20 {
        input.extend_from_slice(&[4, 0, 0, 0, 0, 0, 0, 0]);
    }
    Case {
        input,
        decode: Box::new(|d| {
            let frames = d.len() / 8;
            let godot = |f: &gamewire::Found| {
                matches!(
                    f.format,
                    gamewire::Format::Godot4 | gamewire::Format::Godot3
                ) && f.records == Some(frames)
            };
            match gamewire::identify(d, None) {
                gamewire::Detection::Found(f) => assert!(godot(&f), "{f:?}"),
                gamewire::Detection::Ambiguous(all) => {
                    assert!(all.iter().any(godot), "{all:?}")
                }
                other => panic!("{other:?}"),
            }
        }),
    }
}

fn resonite_nulls() -> Case {
    use gamewire::resonite::{encode, read_bson, Compression, Document, EncodeOptions, Value};
    let mut doc = Document::new();
    doc.push("a", Value::Array(vec![Value::Null; 1 << 20].into()));
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

fn zeze_bean_fields() -> Case {
    // One bean whose 1 Mi fields each hold an empty bean: tag (id delta 1, wire type
    // bean) and the empty bean's end byte, two bytes a field.
    let n = 1usize << 20;
    let mut input = [0x16u8, 0].repeat(n);
    input.push(0);
    Case {
        input,
        decode: Box::new(move |d| {
            let b = gamewire::zeze::decode(d, &Default::default()).unwrap();
            assert_eq!(b.fields.len(), n);
        }),
    }
}

fn zeze_empty_beans_json() -> Case {
    // The empty beans again, decoded and their JSON streamed out (what `decode zeze`
    // does without a schema).
    let c = zeze_empty_beans();
    Case {
        input: c.input,
        decode: Box::new(|d| {
            use gamewire::zeze::json_view::BeanView;
            let b = gamewire::zeze::decode(d, &Default::default()).unwrap();
            serde_json::to_writer_pretty(std::io::sink(), &BeanView::new(&b)).unwrap();
        }),
    }
}

/// A schema of beans `E` (4 `long` variables) and `H` (a `list[E]`), and an `H` of
/// 256 Ki empty `E`s: 4 defaults per input byte, the budget's rate.
fn empty_beans_with_schema() -> (gamewire::zeze::schema::Schema, Vec<u8>, usize) {
    let vars: String = (1..=4)
        .map(|i| format!(r#"<variable id="{i}" name="v{i}" type="long"/>"#))
        .collect();
    let xml = format!(
        r#"<solution name="s"><module name="m" id="1"><bean name="E">{vars}</bean>
           <bean name="H"><variable id="1" name="items" type="list[E]"/></bean>
           </module></solution>"#
    );
    let schema = gamewire::zeze::schema::Schema::from_xml(&xml).unwrap();
    let n: u32 = 256 << 10;
    let rest = n - 15;
    let mut input = vec![
        0x14,
        0xf6,
        0xc0 | (rest >> 16) as u8,
        (rest >> 8) as u8,
        rest as u8,
    ];
    input.extend(std::iter::repeat(0u8).take(n as usize));
    input.push(0);
    (schema, input, n as usize)
}

fn zeze_schema_empty_beans() -> Case {
    let (schema, input, n) = empty_beans_with_schema();
    Case {
        input,
        decode: Box::new(move |d| {
            // What `decode zeze --schema` does: the view checks the input, then writes
            // its JSON straight from the bytes, the defaults as they are reached.
            use gamewire::zeze::schema_view::SchemaView;
            let v = SchemaView::new(&schema, "H", d, &Default::default()).unwrap();
            let mut w = CountingSink::default();
            serde_json::to_writer_pretty(&mut w, &v).unwrap();
            // 4 defaults a bean: far more text than input.
            assert!(w.0 > 40 * n, "{} bytes of JSON", w.0);
        }),
    }
}

fn zeze_schema_inspect() -> Case {
    // What `inspect` does with a solution beside the file: the schema view walked
    // straight into the tree, which keeps 8 items a list.
    let (schema, input, n) = empty_beans_with_schema();
    Case {
        input,
        decode: Box::new(move |d| {
            let nodes = gamewire::zeze::inspect::bean_tree(d, Some((&schema, "H")), 8).unwrap();
            let items = &nodes[0].children[0];
            assert_eq!((items.count, items.elided), (Some(n), n - 8));
            assert_eq!(items.children[0].children.len(), 4, "the defaults shown");
        }),
    }
}

fn godot_inspect_full_tree() -> Case {
    // Arrays of 8 arrays, 6 deep, of nils: nothing is elided at 8 items a container,
    // so the tree's node cap is what bounds it.
    use gamewire::godot::{encode, Array, EncodeOptions, Value, Version};
    let mut v = Value::Nil;
    for _ in 0..6 {
        v = Value::Array(Array::new(vec![v; 8]));
    }
    let input = encode(&v, &EncodeOptions::new(Version::V4)).unwrap();
    Case {
        input,
        decode: Box::new(|d| {
            let nodes = gamewire::godot::inspect::tree(d, Version::V4, 8).unwrap();
            let last = nodes.last().and_then(|n| n.note.as_deref()).unwrap_or("");
            assert!(last.starts_with("… the tree stops at"), "{last}");
        }),
    }
}

fn zeze_schema_unknown_fields() -> Case {
    // A bean of no variables holding 1 Mi fields the schema does not declare (integer
    // 0 under id delta 1: two bytes a field), kept under "_unknown".
    let schema = gamewire::zeze::schema::Schema::from_xml(
        r#"<solution name="s"><bean name="N"/></solution>"#,
    )
    .unwrap();
    let n = 1usize << 20;
    let mut input = [0x10u8, 0].repeat(n);
    input.push(0);
    Case {
        input,
        decode: Box::new(move |d| {
            use gamewire::zeze::schema_view::SchemaView;
            let v = SchemaView::new(&schema, "N", d, &Default::default()).unwrap();
            let mut w = CountingSink::default();
            serde_json::to_writer(&mut w, &v).unwrap();
            assert!(w.0 > 8 * n, "{} bytes of JSON", w.0);
        }),
    }
}

fn zeze_schema_repeated_keys() -> Case {
    // A map<int,int> of 512 Ki entries (two bytes each) whose last key repeats the
    // first: JSON keeps one member per key, so the view reads the keys first.
    let schema = gamewire::zeze::schema::Schema::from_xml(
        r#"<solution name="s"><bean name="M"><variable id="1" name="m" type="map[int,int]"/></bean></solution>"#,
    )
    .unwrap();
    let n = 1usize << 19;
    // Keys 0..n: integers up to 2^19 take 3 bytes; use a value of 0 (1 byte).
    let mut input = vec![
        0x15,
        0x00,
        0xe0 | (n >> 24) as u8,
        (n >> 16) as u8,
        (n >> 8) as u8,
        n as u8,
    ];
    let mut key = Vec::new();
    for k in 0..n as i64 - 1 {
        key.clear();
        gamewire::zeze::varint::write_long(&mut key, k);
        input.extend_from_slice(&key);
        input.push(0);
    }
    input.extend([0, 1, 0]);
    Case {
        input,
        decode: Box::new(move |d| {
            use gamewire::zeze::schema_view::SchemaView;
            let v = SchemaView::new(&schema, "M", d, &Default::default()).unwrap();
            let mut w = CountingSink::default();
            serde_json::to_writer(&mut w, &v).unwrap();
            assert!(w.0 > 4 * n, "{} bytes of JSON", w.0);
        }),
    }
}

fn o3de_doc_pretty_deep() -> Case {
    // 32 Ki numbers 1,000 arrays deep, written back in O3DE's layout (what `decode
    // o3de` does without a registry): each on a line of 4,004 spaces, 128 MiB of text
    // for 66 KiB, streamed.
    let (depth, n) = (1000usize, 32usize << 10);
    let mut input = b"[".repeat(depth);
    input.extend_from_slice(&b"0,".repeat(n - 1));
    input.extend_from_slice(b"0");
    input.extend_from_slice(&b"]".repeat(depth));
    Case {
        input,
        decode: Box::new(move |d| {
            use gamewire::o3de::doc::{Document, Layout};
            let doc = Document::parse(d).unwrap();
            let mut w = CountingSink::default();
            doc.write_to(Layout::Pretty, &mut w).unwrap();
            assert!(w.0 > 4 * depth * n, "{} bytes of JSON", w.0);
        }),
    }
}

/// A writer that counts the bytes it is given.
#[derive(Default)]
struct CountingSink(usize);

impl std::io::Write for CountingSink {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0 += b.len();
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `n` copies of one encoded frame (a bean whose field 1 is `small`), built by repeating
/// its bytes (encoding `n` frames would leave their freed heap resident, for the decode
/// to reuse unseen).
fn zeze_frame_bytes(n: usize, bean: &[u8]) -> Vec<u8> {
    use gamewire::zeze::frame::{encode_frames, Body, Family, Frame, Payload};
    let f = Frame {
        module_id: 1,
        protocol_id: 100,
        payload: Payload::Body(Body {
            family: Family::Protocol,
            result_code: None,
            session_id: None,
            bean: gamewire::zeze::decode(bean, &Default::default()).unwrap(),
        }),
    };
    encode_frames(&[f]).unwrap().repeat(n)
}

fn zeze_frames_json() -> Case {
    // 64 Ki small frames (a bean holding one integer), written as JSON Lines one frame
    // at a time (what `decode zeze --frames` does).
    let n = 64 << 10;
    let input = zeze_frame_bytes(n, &[0x10, 5, 0]);
    Case {
        input,
        decode: Box::new(move |d| {
            use gamewire::zeze::frame::{decode_frames, FrameOptions};
            use gamewire::zeze::json_view::{BeanView, FrameView};
            let frames = decode_frames(d, &FrameOptions::default()).unwrap();
            assert_eq!(frames.len(), n);
            let mut w = CountingSink::default();
            for f in &frames {
                let gamewire::zeze::frame::Payload::Body(b) = &f.payload else {
                    panic!("a raw frame")
                };
                serde_json::to_writer(&mut w, &FrameView::new(f, BeanView::new(&b.bean), None))
                    .unwrap();
            }
            assert!(w.0 > 40 * n);
        }),
    }
}

fn zeze_frames_schema() -> Case {
    // One frame holding a list of 256 Ki empty beans of 4 `long` variables, typed by the
    // protocol's bean (`decode zeze --frames --schema`): the body is written again as
    // bytes and streamed through the schema view.
    let vars: String = (1..=4)
        .map(|i| format!(r#"<variable id="{i}" name="v{i}" type="long"/>"#))
        .collect();
    let xml = format!(
        r#"<solution name="s"><module name="m" id="1"><bean name="E">{vars}</bean>
           <bean name="H"><variable id="1" name="items" type="list[E]"/></bean>
           <protocol name="P" id="100" argument="H"/></module></solution>"#
    );
    let schema = gamewire::zeze::schema::Schema::from_xml(&xml).unwrap();
    let n: u32 = 256 << 10;
    let rest = n - 15;
    let mut bean = vec![
        0x14,
        0xf6,
        0xc0 | (rest >> 16) as u8,
        (rest >> 8) as u8,
        rest as u8,
    ];
    bean.extend(std::iter::repeat(0u8).take(n as usize));
    bean.push(0);
    let input = zeze_frame_bytes(1, &bean);
    Case {
        input,
        decode: Box::new(move |d| {
            use gamewire::zeze::frame::{decode_frames, FrameOptions, Payload};
            use gamewire::zeze::json_view::FrameView;
            use gamewire::zeze::schema_view::SchemaView;
            let frames = decode_frames(d, &FrameOptions::default()).unwrap();
            let mut w = CountingSink::default();
            for f in &frames {
                let Payload::Body(b) = &f.payload else {
                    panic!("a raw frame")
                };
                let p = schema.protocol(f.module_id, f.protocol_id).unwrap();
                let arg = p.argument.as_deref().unwrap();
                let bytes = gamewire::zeze::encode(&b.bean).unwrap();
                let v = SchemaView::new(&schema, arg, &bytes, &Default::default()).unwrap();
                serde_json::to_writer(&mut w, &FrameView::new(f, v, Some(&p.name))).unwrap();
            }
            assert!(w.0 > 30 * n as usize, "{} bytes of JSON", w.0);
        }),
    }
}

fn resonite_tiny_fields() -> Case {
    // One document of 1 Mi null fields with empty keys: two bytes a field.
    use gamewire::resonite::{read_bson, Document, Value};
    let n = 1usize << 20;
    let mut doc = Document::new();
    for _ in 0..n {
        doc.push("", Value::Null);
    }
    let input = bson_of(&doc);
    Case {
        input,
        decode: Box::new(move |d| {
            assert_eq!(read_bson(d, &Default::default()).unwrap().len(), n);
        }),
    }
}

fn resonite_empty_docs() -> Case {
    // One document of 1 Mi empty documents under empty keys: seven bytes a field.
    use gamewire::resonite::{read_bson, Document, Value};
    let n = 1usize << 20;
    let mut doc = Document::new();
    for _ in 0..n {
        doc.push("", Value::Document(Document::new()));
    }
    let input = bson_of(&doc);
    Case {
        input,
        decode: Box::new(move |d| {
            assert_eq!(read_bson(d, &Default::default()).unwrap().len(), n);
        }),
    }
}

fn resonite_tiny_fields_json() -> Case {
    // The null fields decoded and their JSON streamed out (what `decode resonite` does).
    let c = resonite_tiny_fields();
    Case {
        input: c.input,
        decode: Box::new(|d| {
            use gamewire::resonite::json_view::DocumentView;
            let doc = gamewire::resonite::read_bson(d, &Default::default()).unwrap();
            serde_json::to_writer_pretty(std::io::sink(), &DocumentView::new(&doc)).unwrap();
        }),
    }
}

fn resonite_tiny_fields_decode() -> Case {
    // The null fields in a stored FrDT file, through `decode` (what `gamewire::open`'s
    // value, the contract and Python call): the BSON copied once and the tree in an
    // arena, which grows by doubling.
    stored_decode(resonite_tiny_fields())
}

fn resonite_empty_docs_decode() -> Case {
    // The empty documents, stored, through `decode` as above.
    stored_decode(resonite_empty_docs())
}

/// `c`'s BSON (a document of 2^20 entries) in a stored FrDT container, read by `decode`.
fn stored_decode(c: Case) -> Case {
    let mut input = b"FrDT\0\0\0\0\x00".to_vec();
    input.extend_from_slice(&c.input);
    Case {
        input,
        decode: Box::new(|d| {
            let got = gamewire::resonite::decode(d, None, &Default::default()).unwrap();
            assert_eq!(got.document().len(), 1 << 20);
        }),
    }
}

/// The BSON of a document (an uncompressed file without its 9-byte FrDT header).
fn bson_of(doc: &gamewire::resonite::Document<'_>) -> Vec<u8> {
    use gamewire::resonite::{encode, Compression, EncodeOptions};
    encode(doc, &EncodeOptions::new(Compression::None)).unwrap()[9..].to_vec()
}

/// An O3DE decode of `text` as `ty` with the bundled core registry.
fn o3de_case(text: Vec<u8>, ty: gamewire::o3de::TypeExpr) -> Case {
    Case {
        input: text,
        decode: Box::new(move |d| {
            let reg = gamewire::o3de::Registry::default();
            let (_, report) = gamewire::o3de::decode(&reg, &ty, d, &Default::default()).unwrap();
            assert_ne!(report.outcome(), gamewire::o3de::Outcome::Catastrophic);
        }),
    }
}

fn o3de_empty_arrays() -> Case {
    // `[[],[],...]` as vector<vector<i32>>: three bytes an element.
    use gamewire::o3de::TypeExpr as T;
    let n = 1usize << 20;
    let mut text = b"[".to_vec();
    text.extend_from_slice(&b"[],".repeat(n));
    text.extend_from_slice(b"[]]");
    o3de_case(text, T::Vector(Box::new(T::Vector(Box::new(T::I32)))))
}

fn o3de_empty_objects() -> Case {
    // `{"a":{},"a":{},...}` (duplicate keys are kept and reported) as
    // map<string, map<string, i32>>: seven bytes a member.
    use gamewire::o3de::TypeExpr as T;
    let n = 1usize << 19;
    let mut text = b"{".to_vec();
    text.extend_from_slice(&br#""a":{},"#.repeat(n));
    text.extend_from_slice(br#""a":{}}"#);
    let inner = T::Map(Box::new(T::String), Box::new(T::I32));
    o3de_case(text, T::Map(Box::new(T::String), Box::new(inner)))
}

fn o3de_deep() -> Case {
    // Nesting past the depth limit, then a long tail: refused at the limit.
    let n = 1usize << 20;
    let mut text = b"[".repeat(n);
    text.extend_from_slice(&b"]".repeat(n));
    Case {
        input: text,
        decode: Box::new(|d| {
            use gamewire::o3de::TypeExpr as T;
            let reg = gamewire::o3de::Registry::default();
            let r =
                gamewire::o3de::decode(&reg, &T::Vector(Box::new(T::I32)), d, &Default::default());
            assert!(r.is_err(), "a million levels decoded");
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

/// An LZ4 stream at LZ4's greatest ratio (about 255x, under the default limit of 256x):
/// it opens, and the decode holds the output and nothing more (allocated once at the
/// size the chunk headers declare; this test's allocator grows a large buffer in place,
/// so it does not see the 1.5x a doubling copy costs under mimalloc, the CLI's).
fn resonite_lz4_max_ratio() -> Case {
    use gamewire::resonite::lz4;
    let chunk = 64 << 20;
    let mut one = Vec::new();
    lz4::compress(&vec![1u8; chunk], chunk, &mut one);
    let input = one.repeat(4);
    Case {
        input,
        decode: Box::new(move |d| {
            let cap = gamewire::Limits::DEFAULT.decompress_cap(d.len());
            let out = lz4::decompress(d, 0, cap).unwrap();
            assert_eq!(out.len(), 4 * chunk);
        }),
    }
}

/// Limits that let a 64 MiB stream through: what stops the cases below is the
/// address space, not the decompression limit.
fn roomy_limits() -> gamewire::Limits {
    gamewire::Limits {
        decompress_allowance: 1 << 30,
        ..gamewire::Limits::DEFAULT
    }
}

/// A Resonite file of 64 MiB of BSON, decoded where the address space has less room
/// than that (see [`OOM_ROOM`]): the failed allocation is an error, not an abort.
fn resonite_out_of_memory(c: gamewire::resonite::Compression) -> Case {
    let Case { input, .. } = resonite_bomb(c);
    Case {
        input,
        decode: Box::new(|d| {
            let o = gamewire::resonite::Options {
                limits: roomy_limits(),
                ..Default::default()
            };
            match gamewire::resonite::decode(d, None, &o) {
                Ok(_) => panic!("64 MiB decoded in {OOM_ROOM} bytes of room"),
                Err(e) => assert!(e.to_string().contains("out of memory"), "{e}"),
            }
        }),
    }
}

/// A KingsIsle zlib stream of 64 MiB, as [`resonite_out_of_memory`].
fn kingsisle_out_of_memory() -> Case {
    use gamewire::kingsisle::{decode, Options, TypeList};
    let Case { input, .. } = kingsisle_zlib_bomb();
    Case {
        input,
        decode: Box::new(|d| {
            let opts = Options {
                manual_zlib: true,
                limits: roomy_limits(),
                ..Options::default()
            };
            match decode(d, &TypeList::new(), &opts) {
                Ok(_) => panic!("64 MiB inflated in {OOM_ROOM} bytes of room"),
                Err(e) => assert!(e.to_string().contains("out of memory"), "{e}"),
            }
        }),
    }
}

/// The address space an out-of-memory case has beyond what its process holds when
/// the decode starts.
const OOM_ROOM: u64 = 24 << 20;

const OOM_CASES: &[&str] = &[
    "oom-resonite-lz4",
    "oom-resonite-lzma",
    "oom-resonite-brotli",
    "oom-kingsisle-zlib",
];

fn o3de_patch_copies() -> Case {
    // 40,000 operations each copying a 17-value subtree: the growth limit stops it in
    // proportion to the document and the patch.
    let ops: Vec<String> = (0..40_000)
        .map(|_| r#"{"op": "copy", "from": "/src", "path": "/dst/-"}"#.to_owned())
        .collect();
    let input = format!("[{}]", ops.join(",")).into_bytes();
    Case {
        input,
        decode: Box::new(|d| {
            use gamewire::o3de::{patch::apply_patch, Outcome};
            let patch: serde_json::Value = serde_json::from_slice(d).unwrap();
            let mut doc = serde_json::json!({"src": vec![0; 16], "dst": []});
            let r = apply_patch(&mut doc, &patch);
            assert_eq!(r.outcome(), Outcome::Catastrophic);
        }),
    }
}

fn o3de_patch_string_copies() -> Case {
    // A document of one 2 MiB string (the input) copied 10,000 times by the patch: the
    // growth limit counts the string's bytes, not one value per copy.
    let input =
        serde_json::to_vec(&serde_json::json!({"s": "z".repeat(2 << 20), "a": []})).unwrap();
    Case {
        input,
        decode: Box::new(|d| {
            use gamewire::o3de::{patch::apply_patch, Outcome};
            let mut doc: serde_json::Value = serde_json::from_slice(d).unwrap();
            let ops: Vec<serde_json::Value> = (0..10_000)
                .map(|_| serde_json::json!({"op": "copy", "from": "/s", "path": "/a/-"}))
                .collect();
            let r = apply_patch(&mut doc, &serde_json::Value::Array(ops));
            assert_eq!(r.outcome(), Outcome::Catastrophic);
        }),
    }
}

/// Cases by name.
fn case(name: &str) -> Option<Case> {
    use gamewire::resonite::Compression;
    Some(match name {
        "oom-resonite-lz4" => resonite_out_of_memory(Compression::Lz4),
        "oom-resonite-lzma" => resonite_out_of_memory(Compression::Lzma),
        "oom-resonite-brotli" => resonite_out_of_memory(Compression::Brotli),
        "oom-kingsisle-zlib" => kingsisle_out_of_memory(),
        "kingsisle-bools" => kingsisle_bools(),
        "kingsisle-bool-objects" => kingsisle_bool_objects(),
        "kingsisle-zlib-bomb" => kingsisle_zlib_bomb(),
        "kingsisle-wad-journal" => kingsisle_wad_journal(),
        "kingsisle-wad-bomb" => kingsisle_wad_bomb(),
        "zeze-empty-beans" => zeze_empty_beans(),
        "godot-nils" => godot_nils(),
        "resonite-nulls" => resonite_nulls(),
        "resonite-brotli-bomb" => resonite_bomb(Compression::Brotli),
        "resonite-lzma-bomb" => resonite_bomb(Compression::Lzma),
        "resonite-lz4-bomb" => resonite_bomb(Compression::Lz4),
        "resonite-lz4-max-ratio" => resonite_lz4_max_ratio(),
        "zeze-bean-fields" => zeze_bean_fields(),
        "zeze-empty-beans-json" => zeze_empty_beans_json(),
        "zeze-schema-empty-beans" => zeze_schema_empty_beans(),
        "zeze-schema-inspect" => zeze_schema_inspect(),
        "godot-inspect-full-tree" => godot_inspect_full_tree(),
        "zeze-frames-json" => zeze_frames_json(),
        "zeze-schema-unknown-fields" => zeze_schema_unknown_fields(),
        "zeze-schema-repeated-keys" => zeze_schema_repeated_keys(),
        "zeze-frames-schema" => zeze_frames_schema(),
        "resonite-tiny-fields" => resonite_tiny_fields(),
        "resonite-empty-docs" => resonite_empty_docs(),
        "resonite-tiny-fields-json" => resonite_tiny_fields_json(),
        "resonite-tiny-fields-decode" => resonite_tiny_fields_decode(),
        "resonite-empty-docs-decode" => resonite_empty_docs_decode(),
        "o3de-empty-arrays" => o3de_empty_arrays(),
        "o3de-empty-objects" => o3de_empty_objects(),
        "o3de-deep" => o3de_deep(),
        "o3de-patch-copies" => o3de_patch_copies(),
        "o3de-patch-string-copies" => o3de_patch_string_copies(),
        "o3de-doc-pretty-deep" => o3de_doc_pretty_deep(),
        "identify-zeros" => identify_zeros(),
        "identify-godot-nil-frames" => identify_godot_nil_frames(),
        _ => return None,
    })
}

/// The bound of a case: peak bytes added <= factor * input + constant (the factors
/// docs/FORMATS.md states; a bomb stops at its limit, 4 MiB here, whatever its size).
fn bound(name: &str) -> (u64, u64) {
    match name {
        "kingsisle-bools" | "godot-nils" | "resonite-nulls" => (16, 1 << 20),
        "zeze-empty-beans" | "kingsisle-bool-objects" => (64, 1 << 20),
        "zeze-bean-fields"
        | "resonite-tiny-fields"
        | "resonite-tiny-fields-json"
        | "resonite-tiny-fields-decode"
        | "resonite-empty-docs-decode"
        | "zeze-empty-beans-json"
        | "resonite-empty-docs"
        | "o3de-empty-arrays"
        | "o3de-empty-objects" => (64, 1 << 20),
        "o3de-deep" => (16, 1 << 20),
        // Per entry: a 40-byte record read and one byte borrowed (30 bytes of input).
        "kingsisle-wad-journal" => (4, 1 << 20),
        "o3de-patch-copies" => (64, 1 << 20),
        // Twice the document and the patch (about 2.6 MiB of weight), plus 4 MiB: the
        // patch's own 10,000 operations, built in the decode, are in the constant.
        "o3de-patch-string-copies" => (16, 12 << 20),
        // The output itself (255x), allocated once.
        "resonite-lz4-max-ratio" => (256, 4 << 20),
        "o3de-doc-pretty-deep" => (64, 1 << 20),
        // Detection reads a bounded prefix per candidate: whatever the input's size.
        "identify-zeros" | "identify-godot-nil-frames" => (0, 8 << 20),
        "zeze-schema-empty-beans"
        | "zeze-schema-inspect"
        | "godot-inspect-full-tree"
        | "zeze-schema-unknown-fields"
        | "zeze-schema-repeated-keys"
        | "zeze-frames-json"
        | "zeze-frames-schema" => (64, 1 << 20),
        _ => (0, 3 * small_limits().decompress_allowance + (4 << 20)),
    }
}

const CASES: &[&str] = &[
    "kingsisle-bools",
    "kingsisle-wad-journal",
    "kingsisle-wad-bomb",
    "kingsisle-bool-objects",
    "kingsisle-zlib-bomb",
    "zeze-empty-beans",
    "godot-nils",
    "resonite-nulls",
    "resonite-brotli-bomb",
    "resonite-lzma-bomb",
    "resonite-lz4-bomb",
    "resonite-lz4-max-ratio",
    "zeze-bean-fields",
    "zeze-empty-beans-json",
    "zeze-schema-empty-beans",
    "zeze-schema-inspect",
    "godot-inspect-full-tree",
    "zeze-schema-unknown-fields",
    "zeze-schema-repeated-keys",
    "zeze-frames-json",
    "zeze-frames-schema",
    "resonite-tiny-fields",
    "resonite-empty-docs",
    "resonite-tiny-fields-json",
    "resonite-tiny-fields-decode",
    "resonite-empty-docs-decode",
    "o3de-empty-arrays",
    "o3de-empty-objects",
    "o3de-deep",
    "o3de-patch-copies",
    "o3de-patch-string-copies",
    "o3de-doc-pretty-deep",
    "identify-zeros",
    "identify-godot-nil-frames",
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
    let oom = name.starts_with("oom-");
    if !oom {
        rlimit::setrlimit(rlimit::Resource::AS, CAP, CAP).unwrap();
    }
    let c = case(&name).expect("a known case");
    if oom {
        // Room for less than the decode needs, counted from what the process holds.
        let cap = status_kib("VmSize:") * 1024 + OOM_ROOM;
        rlimit::setrlimit(rlimit::Resource::AS, cap, cap).unwrap();
    }
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
    let mut failures = Vec::new();
    for name in CASES {
        let line = match run_child(name) {
            Ok(line) => line,
            Err(failure) => {
                failures.push(failure);
                continue;
            }
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

/// A decompression that needs more memory than the process may have ends with an
/// "out of memory" error naming the size, not an abort: each decompressor reserves its
/// output fallibly (`try_reserve`).
#[test]
#[cfg(target_os = "linux")]
fn failed_allocations_are_errors_not_aborts() {
    let failures: Vec<String> = OOM_CASES
        .iter()
        .filter_map(|name| run_child(name).err())
        .collect();
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Runs case `name` in a child process: its `MEMCAP` line (what follows the word), or
/// why it failed.
fn run_child(name: &str) -> Result<String, String> {
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["memcap_child", "--exact", "--nocapture", "--test-threads=1"])
        .env("GAMEWIRE_MEMCAP_CASE", name)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    match text.lines().find_map(|l| l.split_once("MEMCAP ")) {
        Some((_, line)) if out.status.success() => Ok(line.to_owned()),
        _ => Err(format!(
            "{name}: the child failed ({}):\n{text}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        )),
    }
}
