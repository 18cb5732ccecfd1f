//! A schema decode to JSON text, two ways: `Schema::decode`'s `serde_json` value then
//! its text (what the CLI did), and `SchemaView` writing the text straight from the
//! bytes (what it does now: a checking walk, then the writing walk). 200,000 records of
//! a long, a string, a list of ints, a nested bean and two variables left at their
//! defaults, in one list.
//!
//! Run: `cargo bench -p gamewire-zeze --bench schema_view`.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use gamewire_zeze::schema::Schema;
use gamewire_zeze::schema_view::SchemaView;
use serde_json::json;

const N: usize = 200_000;

const XML: &str = r#"<solution name="b">
  <bean name="Inner"><variable id="1" name="x" type="int"/><variable id="2" name="y" type="float"/></bean>
  <bean name="Rec">
    <variable id="1" name="id" type="long"/>
    <variable id="2" name="name" type="string"/>
    <variable id="3" name="vals" type="list[int]"/>
    <variable id="4" name="inner" type="Inner"/>
    <variable id="5" name="absent" type="string"/>
    <variable id="6" name="empty" type="Inner"/>
  </bean>
  <bean name="Holder"><variable id="1" name="recs" type="list[Rec]"/></bean>
</solution>"#;

fn bench(c: &mut Criterion) {
    let s = Schema::from_xml(XML).unwrap();
    let recs: Vec<_> = (0..N)
        .map(|i| {
            json!({
                "id": i * 7919,
                "name": format!("record {i}"),
                "vals": [i % 10, i % 100, i],
                "inner": {"x": i as i32 - 5, "y": 0.5},
            })
        })
        .collect();
    let bytes = s.encode("Holder", &json!({ "recs": recs })).unwrap();
    let opts = gamewire_zeze::Options::default();
    let tree_text = {
        let j = s.decode("Holder", &bytes, &opts).unwrap();
        serde_json::to_vec_pretty(&j).unwrap()
    };
    let view_text =
        serde_json::to_vec_pretty(&SchemaView::new(&s, "Holder", &bytes, &opts).unwrap()).unwrap();
    assert_eq!(tree_text, view_text);
    eprintln!(
        "{} bytes in, {} bytes of JSON",
        bytes.len(),
        view_text.len()
    );

    let mut g = c.benchmark_group("schema decode to JSON text");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    let mut out = Vec::with_capacity(view_text.len());
    g.bench_function("Schema::decode value, then its text", |b| {
        b.iter(|| {
            out.clear();
            let j = s.decode("Holder", black_box(&bytes), &opts).unwrap();
            serde_json::to_writer_pretty(&mut out, &j).unwrap();
            out.len()
        })
    });
    g.bench_function("SchemaView (check walk + writing walk)", |b| {
        b.iter(|| {
            out.clear();
            let v = SchemaView::new(&s, "Holder", black_box(&bytes), &opts).unwrap();
            serde_json::to_writer_pretty(&mut out, &v).unwrap();
            out.len()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
