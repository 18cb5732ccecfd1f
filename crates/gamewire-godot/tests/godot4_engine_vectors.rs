//! Fixed vectors from the live Godot 4.6 engine (tests/fixtures/godot/engine-4.6): each
//! decodes, goes through JSON and back, and re-encodes byte-exact, and reads as the type
//! and container flavour the engine's script made. The cases the live engine showed
//! (typed containers of objects written without objects name `EncodedObjectAsID` as
//! their element class; with objects, a script instance's `script` is a path String)
//! stay checked here on every run, engine or not.

use gamewire_godot::*;

fn vectors() -> Vec<(Vec<u8>, String)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/godot/engine-4.6/vectors.tsv"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let (hex, desc) = l.split_once('\t').unwrap();
            let bytes = (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                .collect();
            (bytes, desc.to_owned())
        })
        .collect()
}

fn decoded() -> Vec<(Value, Vec<u8>, String)> {
    let opts = DecodeOptions::new(Version::V4).allow_objects(true);
    vectors()
        .into_iter()
        .map(|(bytes, desc)| {
            let v = decode(&bytes, &opts).unwrap_or_else(|e| panic!("{desc}: {e}"));
            (v, bytes, desc)
        })
        .collect()
}

#[test]
fn godot46_vectors_round_trip_byte_exact_through_json() {
    let all = decoded();
    assert_eq!(all.len(), 50);
    let eopts = EncodeOptions::new(Version::V4);
    for (v, bytes, desc) in &all {
        let text = serde_json::to_string(&json::to_json(v, Version::V4)).unwrap();
        let back = json::from_json(&serde_json::from_str(&text).unwrap(), Version::V4).unwrap();
        assert_eq!(&encode(&back, &eopts).unwrap(), bytes, "{desc} via {text}");
    }
}

#[test]
fn godot46_vectors_are_one_of_each_type_in_order() {
    let all = decoded();
    // The first 37: every type but Array and Dictionary, in Godot 4 id order.
    let leaf_kinds: Vec<Kind> = Kind::ALL
        .iter()
        .copied()
        .filter(|k| !matches!(k, Kind::Array | Kind::Dictionary))
        .collect();
    for (i, kind) in leaf_kinds.iter().enumerate() {
        let (v, _, desc) = &all[i];
        // var_to_bytes(null) of the first case is Nil; the Object case is a live object.
        assert_eq!(v.kind(), *kind, "vector {i}: {desc}");
    }
    let object = &all[24].0;
    assert!(
        matches!(object, Value::Object(o) if matches!(**o, Object::Id(id) if id != 0)),
        "{object:?}"
    );
}

#[test]
fn godot46_typed_containers_as_the_engine_writes_them() {
    let all = decoded();
    let containers: Vec<&Value> = all[37..].iter().map(|(v, _, _)| v).collect();
    let element = |v: &Value| match v {
        Value::Array(a) => a.element_type().clone(),
        other => panic!("not an Array: {other:?}"),
    };
    assert_eq!(element(containers[4]), ContainerType::Builtin(2)); // Array[int]
                                                                   // Array[Node] without objects: the element class on the wire is EncodedObjectAsID.
    assert_eq!(
        element(containers[6]),
        ContainerType::ClassName("EncodedObjectAsID".into())
    );
    // ... and with objects, Node.
    assert_eq!(
        element(containers[7]),
        ContainerType::ClassName("Node".into())
    );
    // Array[item.gd]: EncodedObjectAsID without objects, the script's path with them,
    // and each instance's `script` property is that path as a String.
    assert_eq!(
        element(containers[8]),
        ContainerType::ClassName("EncodedObjectAsID".into())
    );
    assert_eq!(
        element(containers[9]),
        ContainerType::Script("res://item.gd".into())
    );
    if let Value::Array(a) = containers[9] {
        for item in &a.items {
            match item {
                Value::Object(o) => match &**o {
                    Object::Full { class, properties } => {
                        assert_eq!(class, "RefCounted");
                        assert_eq!(properties[0].0, "script");
                        assert_eq!(properties[0].1, Value::from("res://item.gd"));
                    }
                    other => panic!("{other:?}"),
                },
                other => panic!("{other:?}"),
            }
        }
    }
    match containers[10] {
        Value::Dictionary(d) => {
            assert_eq!(d.key_type(), &ContainerType::Builtin(4));
            assert_eq!(d.value_type(), &ContainerType::Builtin(3));
        }
        other => panic!("{other:?}"),
    }
    match containers[12] {
        Value::Dictionary(d) => {
            assert!(matches!(
                d.value_type(),
                ContainerType::Script(p) | ContainerType::ClassName(p) if p == "res://item.gd" || p == "Node"
            ));
        }
        other => panic!("{other:?}"),
    }
}
