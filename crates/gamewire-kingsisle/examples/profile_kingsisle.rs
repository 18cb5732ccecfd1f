//! Runs one reader of a generated deep `BINd` document twice, for callgrind's
//! instruction counts per object: `profile_kingsisle decode|view|visit|json|inspect|validate
//! [N]`.
//! The document has the shape of `scripts/kingsisle/make_bind.py`'s (a root holding a
//! list of N objects, each an `unsigned int`, an `int` and a short `std::string`; default
//! N = 100,000). Restrict callgrind to the reader with
//! `--toggle-collect=profile_kingsisle::run` (the one function that reads).
use gamewire_kingsisle::{
    bind, inspect, json, ClassDef, Document, Object, Options, PropertyDef, TypeList, Value, View,
};

/// The type list and the `BINd` bytes of `n` objects.
fn setup(n: usize) -> (TypeList, Vec<u8>) {
    let mut types = TypeList::new();
    let mut item = ClassDef::new("class BenchItem");
    for (i, (name, ty)) in [
        ("m_id", "unsigned int"),
        ("m_count", "int"),
        ("m_name", "std::string"),
    ]
    .into_iter()
    .enumerate()
    {
        item.properties
            .push(PropertyDef::new(name, ty, i as u32, 31, false));
    }
    let ih = item.hash;
    let p = item.properties.iter().map(|p| p.hash).collect::<Vec<_>>();
    types.insert(item);
    let mut root = ClassDef::new("class BenchRoot");
    root.properties.push(PropertyDef::new(
        "m_items",
        "class SharedPointer<class BenchItem>",
        0,
        31,
        true,
    ));
    let (rh, lh) = (root.hash, root.properties[0].hash);
    types.insert(root);
    let items = (0..n)
        .map(|i| {
            Value::Object(Object::new(
                ih,
                vec![
                    (p[0], Value::UInt(i as u64)),
                    (p[1], Value::Int((i as i64 * 7919) % 100_000 - 50_000)),
                    (p[2], Value::String(format!("n{}", i % 1000).into())),
                ],
            ))
        })
        .collect();
    let doc = Document {
        root: Object::new(rh, vec![(lh, Value::List(items))]),
        ..Document::default()
    };
    let bytes = bind::encode(&doc, &types, &Options::default()).unwrap();
    (types, bytes)
}

/// Reads `bytes` with the named reader (the owned decode's tree is dropped inside);
/// returns something that depends on every value.
#[inline(never)]
fn run(reader: &str, bytes: &[u8], types: &TypeList, doc: &Document) -> usize {
    let opts = Options::default();
    match reader {
        "decode" => {
            let d = bind::decode(bytes, types, &opts).unwrap();
            d.root.properties.len() + d.trailing.len()
        }
        "view" => {
            let mut scratch = Vec::new();
            View::decode_bind(bytes, types, &opts, &mut scratch)
                .unwrap()
                .node_count()
        }
        "visit" => {
            let mut scratch = Vec::new();
            let v = View::decode_bind(bytes, types, &opts, &mut scratch).unwrap();
            v.root().visit_all() as usize
        }
        "json" => json::to_json_bytes(doc, types, false).unwrap().len(),
        "inspect" => inspect::tree(bytes, types, "types", 8).unwrap().len(),
        "validate" => {
            gamewire_kingsisle::validate(bytes, types, &opts).unwrap();
            1
        }
        other => panic!("unknown reader {other} (decode, view, visit, json, inspect, validate)"),
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let reader = args.next().unwrap_or_else(|| "decode".into());
    let n = args.next().map_or(100_000, |s| s.parse().expect("N"));
    let (types, bytes) = setup(n);
    let doc = if reader == "json" {
        bind::decode(&bytes, &types, &Options::default()).unwrap()
    } else {
        Document::default()
    };
    for _ in 0..2 {
        assert!(run(&reader, &bytes, &types, &doc) > 0);
    }
}
