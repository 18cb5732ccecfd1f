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
