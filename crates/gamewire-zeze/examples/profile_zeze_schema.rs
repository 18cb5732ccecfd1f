//! Callgrind driver for the schema readers: `profile_zeze_schema MODE [N]` runs one path
//! over a list of N records (the `schema_view` bench's shape) so instruction counts can be
//! compared before and after a change. MODE: `schema_decode` (`Schema::decode` to a JSON
//! value), `schema_text` (that value's compact text), `schema_view` (`SchemaView`'s text),
//! `none` (setup only).

use gamewire_zeze::schema::Schema;
use gamewire_zeze::schema_view::SchemaView;
use serde_json::json;
use std::hint::black_box;

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

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args.get(1).map(String::as_str).unwrap_or("schema_decode");
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5000);
    let s = Schema::from_xml(XML).unwrap();
    let recs: Vec<_> = (0..n)
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
    run(mode, &s, &bytes);
}

/// The measured work (callgrind: `--toggle-collect='*profile_zeze_schema::run*'`).
#[inline(never)]
fn run(mode: &str, s: &Schema, bytes: &[u8]) {
    let opts = gamewire_zeze::Options::default();
    match mode {
        "schema_decode" => {
            let j = s.decode("Holder", black_box(bytes), &opts).unwrap();
            black_box(j);
        }
        "schema_text" => {
            let j = s.decode("Holder", black_box(bytes), &opts).unwrap();
            black_box(serde_json::to_vec(&j).unwrap());
        }
        "schema_view" => {
            let v = SchemaView::new(s, "Holder", black_box(bytes), &opts).unwrap();
            black_box(serde_json::to_vec(&v).unwrap());
        }
        _ => {}
    }
}
