//! Our own Godot 4 vectors for every 4.x type and header flag, worked out from
//! core/io/marshalls.cpp (4.3+/4.4+): exact bytes both ways.

use gamewire_godot::*;

fn hex(s: &str) -> Vec<u8> {
    let s: String = s.split_whitespace().collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn check(value: Value, bytes: &str) {
    let bytes = hex(bytes);
    let enc = encode(&value, &EncodeOptions::new(Version::V4)).unwrap();
    assert_eq!(enc, bytes, "encoding {value:?}");
    let dec = decode(&bytes, &DecodeOptions::new(Version::V4).allow_objects(true)).unwrap();
    assert_eq!(dec, value);
    let json = json::to_json(&value, Version::V4);
    assert_eq!(
        json::from_json(&json, Version::V4).unwrap(),
        value,
        "JSON {json}"
    );
}

#[test]
fn scalars_and_64_bit_flags() {
    check(Value::Bool(true), "01000000 01000000");
    check(Value::Int(2147483647), "02000000 ffffff7f");
    check(Value::Int(2147483648), "02000100 0000008000000000");
    check(Value::Int(-2147483649), "02000100 ffffff7fffffffff");
    check(Value::Float(0.5), "03000000 0000003f");
    check(Value::Float(0.1), "03000100 9a9999999999b93f");
    check(
        Value::String("abcde".into()),
        "04000000 05000000 6162636465000000",
    );
    check(Value::String(GString::default()), "04000000 00000000");
}

#[test]
fn integer_vectors_and_rects() {
    check(Value::Vector2i([1, -2]), "06000000 01000000 feffffff");
    check(
        Value::Rect2i([1, 2, 3, 4]),
        "08000000 01000000 02000000 03000000 04000000",
    );
    check(
        Value::Vector3i([-1, 0, 7]),
        "0a000000 ffffffff 00000000 07000000",
    );
    check(
        Value::Vector4i([1, 2, 3, -4]),
        "0d000000 01000000 02000000 03000000 fcffffff",
    );
}

#[test]
fn math_types_in_single_and_double_precision() {
    check(
        Value::Vector2(Real::F32([1.0, 2.0])),
        "05000000 0000803f 00000040",
    );
    check(
        Value::Vector2(Real::F64([1.0, 2.0])),
        "05000100 000000000000f03f 0000000000000040",
    );
    check(
        Value::Rect2(Box::new(Real::F32([0.0, 0.0, 1.0, 1.0]))),
        "07000000 00000000 00000000 0000803f 0000803f",
    );
    check(
        Value::Vector3(Real::F64([0.0, 0.5, 1.0])),
        "09000100 0000000000000000 000000000000e03f 000000000000f03f",
    );
    check(
        Value::Transform2D(Box::new(Real::F32([1.0, 0.0, 0.0, 1.0, 5.0, 6.0]))),
        "0b000000 0000803f 00000000 00000000 0000803f 0000a040 0000c040",
    );
    check(
        Value::Vector4(Box::new(Real::F32([1.0, 2.0, 3.0, 4.0]))),
        "0c000000 0000803f 00000040 00004040 00008040",
    );
    check(
        Value::Plane(Box::new(Real::F32([0.0, 1.0, 0.0, 2.0]))),
        "0e000000 00000000 0000803f 00000000 00000040",
    );
    check(
        Value::Quaternion(Box::new(Real::F32([0.0, 0.0, 0.0, 1.0]))),
        "0f000000 00000000 00000000 00000000 0000803f",
    );
    check(
        Value::Aabb(Box::new(Real::F32([0.0, 0.0, 0.0, 1.0, 1.0, 1.0]))),
        "10000000 00000000 00000000 00000000 0000803f 0000803f 0000803f",
    );
    let ident = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
    check(
        Value::Basis(Box::new(Real::F32(ident))),
        "11000000 0000803f 00000000 00000000 00000000 0000803f 00000000 00000000 00000000 0000803f",
    );
    let mut t = [0.0f32; 12];
    t[..9].copy_from_slice(&ident);
    t[9..].copy_from_slice(&[1.0, 2.0, 3.0]);
    check(
        Value::Transform3D(Box::new(Real::F32(t))),
        "12000000 0000803f 00000000 00000000 00000000 0000803f 00000000 00000000 00000000 0000803f 0000803f 00000040 00004040",
    );
    let mut p = [0.0f32; 16];
    for i in 0..4 {
        p[i * 5] = 1.0;
    }
    check(
        Value::Projection(Box::new(Real::F32(p))),
        "13000000 0000803f 00000000 00000000 00000000 00000000 0000803f 00000000 00000000 \
         00000000 00000000 0000803f 00000000 00000000 00000000 00000000 0000803f",
    );
    // Color stays 32-bit even in double builds.
    check(
        Value::Color([1.0, 0.5, 0.0, 1.0]),
        "14000000 0000803f 0000003f 00000000 0000803f",
    );
}

#[test]
fn names_paths_ids_callables_signals() {
    check(Value::StringName("ab".into()), "15000000 02000000 61620000");
    check(
        Value::NodePath(Box::new(NodePath::parse("/root/a:b"))),
        "16000000 02000080 01000000 01000000 04000000 726f6f74 01000000 61000000 01000000 62000000",
    );
    check(Value::Rid(0x1_0000_0002), "17000000 0200000001000000");
    check(Value::Callable, "19000000");
    check(
        Value::Signal(Box::new(("hit".into(), 42))),
        "1a000000 03000000 68697400 2a00000000000000",
    );
}

#[test]
fn objects_as_ids_and_full() {
    check(
        Value::Object(Box::new(Object::Id(7))),
        "18000100 0700000000000000",
    );
    check(
        Value::Object(Box::new(Object::Full {
            class: "Node".into(),
            properties: vec![("name".into(), Value::StringName("A".into()))],
        })),
        "18000000 04000000 4e6f6465 01000000 04000000 6e616d65 15000000 01000000 41000000",
    );
    check(
        Value::Object(Box::new(Object::Full {
            class: String::new(),
            properties: vec![],
        })),
        "18000000 00000000",
    );
    // Full objects are refused unless allowed (bytes_to_var vs bytes_to_var_with_objects).
    let e = decode(&hex("18000000 00000000"), &DecodeOptions::new(Version::V4)).unwrap_err();
    assert_eq!(e.offset(), Some(0));
    assert!(e.to_string().contains("objects are allowed"), "{e}");
}

#[test]
fn typed_arrays_and_dictionaries() {
    // Array[int] (4.3+): kind BUILTIN in bits 16-17, then the type id, then the count.
    check(
        Value::Array(Array::typed(vec![Value::Int(1)], ContainerType::Builtin(2))),
        "1c000100 02000000 01000000 02000000 01000000",
    );
    // Array[Node]: kind CLASS_NAME, then the class name.
    check(
        Value::Array(Array::typed(
            vec![],
            ContainerType::ClassName("Node".into()),
        )),
        "1c000200 04000000 4e6f6465 00000000",
    );
    // Array[preload("res://a.gd")]: kind SCRIPT, then the script path.
    check(
        Value::Array(Array::typed(
            vec![],
            ContainerType::Script("res://a.gd".into()),
        )),
        "1c000300 0a000000 7265733a2f2f612e67640000 00000000",
    );
    // Dictionary[String, Node] (4.4+): key kind bits 16-17, value kind bits 18-19.
    check(
        Value::Dictionary(Dictionary::typed(
            vec![],
            ContainerType::Builtin(4),
            ContainerType::ClassName("Node".into()),
        )),
        "1b000900 04000000 04000000 4e6f6465 00000000",
    );
    // Untyped key, typed value.
    check(
        Value::Dictionary(Dictionary::typed(
            vec![(Value::Nil, Value::Int(3))],
            ContainerType::Any,
            ContainerType::Builtin(2),
        )),
        "1b000400 02000000 01000000 00000000 02000000 03000000",
    );
}

#[test]
fn packed_arrays() {
    check(
        Value::PackedByteArray(vec![1, 2, 3, 4, 5]),
        "1d000000 05000000 01020304 05000000",
    );
    check(
        Value::PackedInt32Array(vec![-1, 2]),
        "1e000000 02000000 ffffffff 02000000",
    );
    check(
        Value::PackedInt64Array(vec![-1, 1 << 40]),
        "1f000000 02000000 ffffffffffffffff 0000000000010000",
    );
    check(
        Value::PackedFloat32Array(vec![1.0]),
        "20000000 01000000 0000803f",
    );
    check(
        Value::PackedFloat64Array(vec![0.1]),
        "21000000 01000000 9a9999999999b93f",
    );
    check(
        Value::PackedStringArray(vec!["abc".into(), "".into()]),
        "22000000 02000000 04000000 61626300 01000000 00000000",
    );
    check(
        Value::PackedVector2Array(Reals::F32(vec![[1.0, 2.0]])),
        "23000000 01000000 0000803f 00000040",
    );
    check(
        Value::PackedVector2Array(Reals::F64(vec![[1.0, 2.0]])),
        "23000100 01000000 000000000000f03f 0000000000000040",
    );
    check(
        Value::PackedVector3Array(Reals::F32(vec![[0.0, 0.0, 1.0]])),
        "24000000 01000000 00000000 00000000 0000803f",
    );
    check(
        Value::PackedColorArray(vec![[1.0, 1.0, 1.0, 1.0]]),
        "25000000 01000000 0000803f 0000803f 0000803f 0000803f",
    );
    check(
        Value::PackedVector4Array(Reals::F32(vec![[1.0, 2.0, 3.0, 4.0]])),
        "26000000 01000000 0000803f 00000040 00004040 00008040",
    );
}

#[test]
fn godot4_only_types_are_refused_for_godot3() {
    let v3 = EncodeOptions::new(Version::V3);
    for v in [
        Value::Vector2i([0, 0]),
        Value::StringName("x".into()),
        Value::Callable,
        Value::PackedInt64Array(vec![]),
        Value::Vector2(Real::F64([0.0, 0.0])),
        Value::Array(Array::typed(vec![], ContainerType::Builtin(2))),
    ] {
        let e = encode(&v, &v3).unwrap_err();
        assert!(
            e.to_string().contains("Godot 3") || e.to_string().contains("Godot 4"),
            "{e}"
        );
    }
    // The same id means different types in the two versions: 6 is Rect2 in 3.x.
    let rect3 = hex("06000000 00000000 00000000 0000803f 0000803f");
    assert_eq!(
        decode(&rect3, &DecodeOptions::new(Version::V3))
            .unwrap()
            .kind(),
        Kind::Rect2
    );
    // ... and Vector2i in 4.x (with 8 trailing bytes).
    assert!(decode(&rect3, &DecodeOptions::new(Version::V4)).is_err());
}
