//! Decode, encode and JSON benchmarks on a deep document of many nested objects (the
//! shape of a `BINd` game file), generated in code.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use gamewire_kingsisle::{
    bind, json, ClassDef, Document, Object, Options, PropertyDef, TypeList, Value, View,
};

fn setup(n: usize) -> (TypeList, Vec<u8>) {
    let mut types = TypeList::new();
    let mut item = ClassDef::new("class BenchItem");
    item.properties
        .push(PropertyDef::new("m_id", "unsigned int", 0, 31, false));
    item.properties
        .push(PropertyDef::new("m_count", "int", 1, 31, false));
    item.properties
        .push(PropertyDef::new("m_name", "std::string", 2, 31, false));
    item.properties
        .push(PropertyDef::new("m_pos", "class Vector3D", 3, 31, false));
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
    let rh = root.hash;
    let lh = root.properties[0].hash;
    types.insert(root);
    let items = (0..n)
        .map(|i| {
            Value::Object(Object::new(
                ih,
                vec![
                    (p[0], Value::UInt(i as u64)),
                    (p[1], Value::Int(i as i64 - 5000)),
                    (p[2], Value::String(format!("n{}", i % 1000).into())),
                    (p[3], Value::Vec3([i as f32, 0.5, -1.0])),
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

fn bench(c: &mut Criterion) {
    let n = 100_000;
    let (types, bytes) = setup(n);
    let opts = Options::default();
    let doc = bind::decode(&bytes, &types, &opts).unwrap();
    let mut g = c.benchmark_group("kingsisle");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.sample_size(20);
    g.bench_function(BenchmarkId::new("decode_bind", n), |b| {
        b.iter(|| bind::decode(&bytes, &types, &opts).unwrap())
    });
    g.bench_function(BenchmarkId::new("view_bind", n), |b| {
        let mut scratch = Vec::new();
        b.iter(|| {
            View::decode_bind(&bytes, &types, &opts, &mut scratch)
                .unwrap()
                .node_count()
        })
    });
    g.bench_function(BenchmarkId::new("encode_bind", n), |b| {
        b.iter(|| bind::encode(&doc, &types, &opts).unwrap())
    });
    g.bench_function(BenchmarkId::new("to_json", n), |b| {
        b.iter(|| json::to_json_bytes(&doc, &types, false).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
