// The records the Zeze bench and the profiling example share: a varint-heavy bean
// (ints, a string, a small list), generated the same on every run. Included with
// `include!` by `benches/zeze.rs` and `examples/profile_zeze.rs`.

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Rec {
    id: i64,
    hp: i32,
    level: i32,
    gold: i64,
    name: String,
    items: Vec<i32>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Batch {
    recs: Vec<Rec>,
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct RecRef<'a> {
    id: i64,
    hp: i32,
    level: i32,
    gold: i64,
    name: &'a str,
    items: Vec<i32>,
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct BatchRef<'a> {
    #[serde(borrow)]
    recs: Vec<RecRef<'a>>,
}

/// `n` records from a small xorshift, the same on every run.
fn records(n: usize) -> Batch {
    let mut s: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let recs = (0..n)
        .map(|i| {
            let r = next();
            Rec {
                id: (r >> 24) as i64 + i as i64,
                hp: (r % 5000) as i32,
                level: (r >> 40) as i32 % 100,
                gold: (r >> 8) as i64 % 10_000_000 - 5_000_000,
                name: format!("player{:04}", r % 10_000),
                items: vec![(r % 300) as i32, ((r >> 16) % 70) as i32 - 35, 1],
            }
        })
        .collect();
    Batch { recs }
}

/// Visits every value of the records through the borrowed view (no owned tree): sums
/// the integers and the string lengths, so every field is read.
#[allow(dead_code)]
fn visit_view(data: &[u8]) -> u64 {
    use gamewire_zeze::view::ValueView;
    let v = gamewire_zeze::view(data, &Default::default()).unwrap();
    let mut sum = 0u64;
    let recs = v.get(1).unwrap().unwrap();
    for rec in recs.as_list().unwrap().iter() {
        let rec = rec.unwrap();
        for f in rec.as_bean().unwrap().fields() {
            match f.unwrap().value {
                ValueView::Integer(x) => sum = sum.wrapping_add(x as u64),
                ValueView::Bytes(b) => sum += b.len() as u64,
                ValueView::List(l) => {
                    for x in l.iter() {
                        sum = sum.wrapping_add(x.unwrap().as_i64().unwrap() as u64);
                    }
                }
                _ => {}
            }
        }
    }
    sum
}
