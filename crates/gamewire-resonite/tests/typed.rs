//! Typed data-tree values: the sample trees, BSON built here, round trips and errors.

use gamewire_resonite::tree::{
    set_typed_member, typed_member, DataTree, Prim, Scalar, TreeType, TreeValue,
};
use gamewire_resonite::{Document, Options, Value};
use proptest::prelude::*;
use std::borrow::Cow;

fn s(t: &str) -> Value<'static> {
    Value::String(Cow::Owned(t.to_string()))
}

fn field(data: Value<'static>) -> Value<'static> {
    let mut d = Document::new();
    d.push("ID", s("11111111-2222-3333-4444-555555555555"));
    d.push("Data", data);
    Value::Document(d)
}

fn sample() -> Document<'static> {
    let bytes = include_bytes!("../../../samples/resonite/item.frdt");
    gamewire_resonite::decode(bytes, Some("item.frdt"), &Options::default())
        .unwrap()
        .into_document()
}

#[test]
fn sample_tree_values_typed_by_declared_type() {
    use Scalar::Float as F;
    let doc = sample();
    let t = DataTree::new(&doc);
    let slots = t.slots();
    let root = slots[0].1;
    assert_eq!(
        root.typed("Position").unwrap(),
        Some(TreeValue::Vector(vec![F(3.875), F(4.0810003), F(-9.194)]))
    );
    assert_eq!(
        root.typed("Rotation").unwrap(),
        Some(TreeValue::FloatQ([0.0, 0.0, 0.0, 1.0]))
    );
    assert_eq!(
        root.typed("Name").unwrap(),
        Some(TreeValue::String("Root".into()))
    );
    assert_eq!(
        root.typed("OrderOffset").unwrap(),
        Some(TreeValue::Scalar(Scalar::Long(0)))
    );
    // Root's first component is ValueField<float3>: Value is declared float3
    let vf = root.components()[0];
    assert_eq!(
        t.type_name(&vf).as_deref(),
        Some("[FrooxEngine]FrooxEngine.ValueField<float3>")
    );
    let v = t.typed_member(&vf, "Value").unwrap().unwrap();
    assert_eq!(v, TreeValue::Vector(vec![F(4.0030003), F(4.023), F(5.177)]));
    assert_eq!(v.to_string(), "float3 (4.0030003, 4.023, 5.177)");
    // Root/0 holds a StaticTexture2D: URL is an @ URI, FilterMode null
    let tex = slots[1].1.components()[0];
    assert_eq!(
        t.typed_member(&tex, "URL").unwrap(),
        Some(TreeValue::Uri(
            "resdb:///4e929e233ce0235b723bd128e303416d.webp".into()
        ))
    );
    assert_eq!(
        t.typed_member(&tex, "FilterMode").unwrap(),
        Some(TreeValue::Null)
    );
    // a PBS_Metallic's AlbedoColor is a colorX with its profile
    let pbs = slots
        .iter()
        .flat_map(|(_, s)| s.components())
        .find(|c| t.type_name(c).as_deref() == Some("[FrooxEngine]FrooxEngine.PBS_Metallic"))
        .unwrap();
    let albedo = t.typed_member(&pbs, "AlbedoColor").unwrap().unwrap();
    assert_eq!(
        albedo,
        TreeValue::ColorX {
            rgba: [1.0; 4],
            profile: "sRGB".into()
        }
    );
    assert_eq!(albedo.to_string(), "colorX (1, 1, 1, 1, sRGB)");
    // writing the typed values back gives the same BSON
    for name in ["AlbedoColor", "BlendMode", "Enabled", "UpdateOrder"] {
        let tv = t.typed_member(&pbs, name).unwrap().unwrap();
        let raw = gamewire_resonite::tree::member(pbs.data.unwrap(), name).unwrap();
        assert_eq!(&tv.to_bson(), raw, "{name}");
    }
}

#[test]
fn declared_types_parse_like_the_types_table() {
    assert_eq!(TreeType::parse("float3"), TreeType::Vector(Prim::Float, 3));
    assert_eq!(TreeType::parse("bool2"), TreeType::Vector(Prim::Bool, 2));
    assert_eq!(TreeType::parse("ulong4"), TreeType::Vector(Prim::ULong, 4));
    assert_eq!(
        TreeType::parse("double3x3"),
        TreeType::Matrix(Prim::Double, 3)
    );
    assert_eq!(TreeType::parse("floatQ"), TreeType::Quaternion(Prim::Float));
    assert_eq!(
        TreeType::parse("System.Single"),
        TreeType::Scalar(Prim::Float)
    );
    assert_eq!(TreeType::parse("colorX"), TreeType::ColorX);
    let nf3 = TreeType::parse("Nullable<float3>");
    assert_eq!(
        nf3,
        TreeType::Nullable(Box::new(TreeType::Vector(Prim::Float, 3)))
    );
    assert_eq!(
        TreeType::parse("int?"),
        TreeType::Nullable(Box::new(TreeType::Scalar(Prim::Int)))
    );
    assert_eq!(
        TreeValue::read(&Value::Null, &nf3).unwrap(),
        TreeValue::Null
    );
    assert!(TreeValue::read(&Value::Null, &TreeType::Vector(Prim::Float, 3)).is_err());
    assert_eq!(
        TreeType::parse("[FrooxEngine]FrooxEngine.BlendMode"),
        TreeType::Enum("BlendMode".into())
    );
    assert_eq!(
        TreeType::of_member("[FrooxEngine]FrooxEngine.ValueField<colorX>", "Value"),
        Some(TreeType::ColorX)
    );
    assert_eq!(
        TreeType::of_member("[FrooxEngine]FrooxEngine.ReferenceField<Slot>", "Reference"),
        Some(TreeType::RefId)
    );
    assert_eq!(
        TreeType::of_member("[FrooxEngine]FrooxEngine.Grabbable", "Value"),
        None
    );
}

#[test]
fn built_bson_reads_with_engine_conventions() {
    let read = |v: Value<'static>, ty: &str| TreeValue::read(&v, &TreeType::parse(ty)).unwrap();
    // uint and ulong are stored as int32/int64 cast unchecked
    assert_eq!(
        read(Value::Int32(-1), "uint"),
        TreeValue::Scalar(Scalar::UInt(u32::MAX))
    );
    assert_eq!(
        read(Value::Int64(-2), "ulong"),
        TreeValue::Scalar(Scalar::ULong(u64::MAX - 1))
    );
    assert_eq!(
        read(Value::Int32(200), "byte"),
        TreeValue::Scalar(Scalar::Byte(200))
    );
    // a string starting with @ is escaped as @@
    assert_eq!(
        read(s("@@mail"), "string"),
        TreeValue::String("@mail".into())
    );
    assert_eq!(read(s("@"), "string"), TreeValue::String("@".into()));
    assert_eq!(
        read(s("@local://abc/x.png"), "Uri"),
        TreeValue::Uri("local://abc/x.png".into())
    );
    assert_eq!(
        read(s("Alpha, Beta"), "Flags"),
        TreeValue::Enum("Alpha, Beta".into())
    );
    assert_eq!(
        read(
            Value::Array(vec![Value::Int32(1), Value::Int32(-2)].into()),
            "int2"
        ),
        TreeValue::Vector(vec![Scalar::Int(1), Scalar::Int(-2)])
    );
    // a colorX saved before profiles existed (4 elements) loads as sRGBAlpha
    let c4 = Value::Array(vec![Value::Double(0.5); 4].into());
    assert_eq!(
        read(c4, "colorX"),
        TreeValue::ColorX {
            rgba: [0.5; 4],
            profile: "sRGBAlpha".into()
        }
    );
    assert_eq!(
        read(Value::Int64(10_000_000), "TimeSpan"),
        TreeValue::TimeSpan(10_000_000)
    );
    // shape inference without a declared type
    let inf = |v: Value<'static>| TreeValue::infer(&v).unwrap();
    assert_eq!(inf(Value::Double(0.5)).type_name(), "float");
    assert_eq!(inf(Value::Double(0.1)).type_name(), "double");
    assert_eq!(
        inf(Value::Array(
            vec![Value::Bool(true), Value::Bool(false), Value::Bool(true)].into()
        ))
        .type_name(),
        "bool3"
    );
    let cx = Value::Array(
        vec![
            Value::Double(1.0),
            Value::Double(0.5),
            Value::Int32(0),
            Value::Double(1.0),
            s("sRGB"),
        ]
        .into(),
    );
    assert_eq!(inf(cx).to_string(), "colorX (1, 0.5, 0, 1, sRGB)");
    assert_eq!(inf(s("@resdb:///x")), TreeValue::Uri("resdb:///x".into()));
    assert_eq!(
        inf(s("f893a2ee-fb32-555e-71c1-8690ee42c90b")),
        TreeValue::RefId("f893a2ee-fb32-555e-71c1-8690ee42c90b".into())
    );
    assert_eq!(TreeValue::infer(&Value::Document(Document::new())), None);
}

#[test]
fn typed_values_write_as_resonite_does() {
    assert_eq!(
        TreeValue::String("@x".into()).to_bson(),
        s("@@x"),
        "PreprocessString doubles a leading @"
    );
    assert_eq!(
        TreeValue::Uri("resdb:///a".into()).to_bson(),
        s("@resdb:///a")
    );
    assert_eq!(
        TreeValue::Scalar(Scalar::UInt(u32::MAX)).to_bson(),
        Value::Int32(-1)
    );
    assert_eq!(
        TreeValue::Scalar(Scalar::Float(0.1)).to_bson(),
        Value::Double(f64::from(0.1f32))
    );
    assert_eq!(
        TreeValue::Color32([1, 2, 3, 255]).to_bson(),
        Value::Array(
            vec![
                Value::Int32(1),
                Value::Int32(2),
                Value::Int32(3),
                Value::Int32(255)
            ]
            .into()
        )
    );
    // set_typed_member replaces the Data of an {ID, Data} pair and keeps the ID
    let mut d = Document::new();
    d.push("Tint", field(Value::Null));
    let tint = TreeValue::ColorX {
        rgba: [1.0, 0.5, 0.0, 1.0],
        profile: "sRGB".into(),
    };
    set_typed_member(&mut d, "Tint", &tint);
    let back = typed_member(&d, "Tint", Some(&TreeType::ColorX)).unwrap();
    assert_eq!(back, Some(tint.clone()));
    assert_eq!(
        d.get("Tint").unwrap().as_document().unwrap().get("ID"),
        Some(&s("11111111-2222-3333-4444-555555555555"))
    );
    let bytes = gamewire_resonite::bson_write::to_vec(&d, 64).unwrap();
    let again = gamewire_resonite::read_bson(&bytes, &Options::default()).unwrap();
    assert_eq!(
        typed_member(&again, "Tint", Some(&TreeType::ColorX)).unwrap(),
        Some(tint)
    );
}

#[test]
fn malformed_shapes_name_the_path() {
    let mut d = Document::new();
    d.push(
        "Position",
        field(Value::Array(
            vec![Value::Double(1.0), Value::Double(2.0)].into(),
        )),
    );
    d.push(
        "Size",
        field(Value::Array(
            vec![Value::Double(1.0), s("x"), Value::Double(2.0)].into(),
        )),
    );
    d.push("Name", field(s("@resdb:///x")));
    d.push("Count", field(Value::Int32(300)));
    let f3 = TreeType::Vector(Prim::Float, 3);
    let e = typed_member(&d, "Position", Some(&f3)).unwrap_err();
    assert_eq!(e.path_string(), "$.Position.Data");
    assert!(
        e.to_string()
            .contains("expected float3 (an array of 3), found array of 2"),
        "{e}"
    );
    let e = typed_member(&d, "Size", Some(&f3)).unwrap_err();
    assert_eq!(e.path_string(), "$.Size.Data[1]");
    assert!(
        e.to_string().contains("expected float, found string \"x\""),
        "{e}"
    );
    let e = typed_member(&d, "Name", Some(&TreeType::String)).unwrap_err();
    assert!(e.to_string().contains("found a URI"), "{e}");
    let e = typed_member(&d, "Count", Some(&TreeType::Scalar(Prim::Byte))).unwrap_err();
    assert!(e.to_string().contains("300 does not fit in byte"), "{e}");
    assert_eq!(e.path_string(), "$.Count.Data");
    assert_eq!(typed_member(&d, "Absent", Some(&f3)).unwrap(), None);
}

fn scalar_of(p: Prim) -> BoxedStrategy<Scalar> {
    match p {
        Prim::Bool => any::<bool>().prop_map(Scalar::Bool).boxed(),
        Prim::Byte => any::<u8>().prop_map(Scalar::Byte).boxed(),
        Prim::UShort => any::<u16>().prop_map(Scalar::UShort).boxed(),
        Prim::UInt => any::<u32>().prop_map(Scalar::UInt).boxed(),
        Prim::ULong => any::<u64>().prop_map(Scalar::ULong).boxed(),
        Prim::SByte => any::<i8>().prop_map(Scalar::SByte).boxed(),
        Prim::Short => any::<i16>().prop_map(Scalar::Short).boxed(),
        Prim::Int => any::<i32>().prop_map(Scalar::Int).boxed(),
        Prim::Long => any::<i64>().prop_map(Scalar::Long).boxed(),
        Prim::Float => (-1e6f32..1e6).prop_map(Scalar::Float).boxed(),
        Prim::Double => (-1e12f64..1e12).prop_map(Scalar::Double).boxed(),
    }
}

const ALL: [Prim; 11] = [
    Prim::Bool,
    Prim::Byte,
    Prim::UShort,
    Prim::UInt,
    Prim::ULong,
    Prim::SByte,
    Prim::Short,
    Prim::Int,
    Prim::Long,
    Prim::Float,
    Prim::Double,
];

fn typed_value() -> impl Strategy<Value = (TreeType, TreeValue)> {
    let text = "[@a-z0-9:/. ]{0,12}";
    prop_oneof![
        (0..11usize).prop_flat_map(|i| scalar_of(ALL[i])
            .prop_map(move |x| (TreeType::Scalar(ALL[i]), TreeValue::Scalar(x)))),
        (0..11usize, 2..=4usize).prop_flat_map(|(i, n)| prop::collection::vec(
            scalar_of(ALL[i]),
            n
        )
        .prop_map(move |v| (TreeType::Vector(ALL[i], n), TreeValue::Vector(v)))),
        (prop::array::uniform4(-10f32..10.0), "Linear|sRGB|sRGBAlpha")
            .prop_map(|(rgba, p)| (TreeType::ColorX, TreeValue::ColorX { rgba, profile: p })),
        prop::array::uniform4(-1f32..1.0)
            .prop_map(|q| (TreeType::Quaternion(Prim::Float), TreeValue::FloatQ(q))),
        prop::array::uniform4(any::<u8>()).prop_map(|c| (TreeType::Color32, TreeValue::Color32(c))),
        text.prop_map(|t| (TreeType::String, TreeValue::String(t))),
        "[a-z]{1,8}:///[a-z0-9]{0,10}".prop_map(|u| (TreeType::Uri, TreeValue::Uri(u))),
        "[A-Z][a-zA-Z]{0,8}".prop_map(|n| (TreeType::Enum("E".into()), TreeValue::Enum(n))),
    ]
}

proptest! {
    #[test]
    fn typed_to_bson_to_typed((ty, tv) in typed_value()) {
        let bson = tv.to_bson();
        prop_assert_eq!(TreeValue::read(&bson, &ty).unwrap(), tv.clone());
        // and through BSON bytes
        let mut d = Document::new();
        d.push("V", bson);
        let bytes = gamewire_resonite::bson_write::to_vec(&d, 64).unwrap();
        let back = gamewire_resonite::read_bson(&bytes, &Options::default()).unwrap();
        prop_assert_eq!(typed_member(&back, "V", Some(&ty)).unwrap(), Some(tv));
    }
}
