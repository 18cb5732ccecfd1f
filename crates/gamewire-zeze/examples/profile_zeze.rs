//! Callgrind driver: `profile_zeze MODE [N]` runs one codec path over N records (the
//! bench's record shape) so instruction counts can be compared before and after a
//! change. MODE: decode, decode_ref, encode, walk, tree, tree_encode, postcard_decode,
//! postcard_decode_ref, postcard_encode, none (setup only, to subtract). A third argument repeats the work
//! (for `perf record`).

use serde::{Deserialize, Serialize};
use std::hint::black_box;

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

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args.get(1).map(String::as_str).unwrap_or("decode");
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5000);
    let batch = records(n);
    let zeze = gamewire_zeze::to_bytes(&batch).unwrap();
    let post = postcard::to_allocvec(&batch).unwrap();
    let tree = gamewire_zeze::decode(&zeze, &Default::default()).unwrap();
    let repeat: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    for _ in 0..repeat {
        run(mode, n, &batch, &zeze, &post, &tree);
    }
}

/// The measured work (callgrind: `--toggle-collect='*profile_zeze::run*'`).
#[inline(never)]
fn run(mode: &str, n: usize, batch: &Batch, zeze: &[u8], post: &[u8], tree: &gamewire_zeze::Bean) {
    match mode {
        "decode" => {
            let b: Batch = gamewire_zeze::from_bytes(black_box(zeze)).unwrap();
            assert_eq!(b.recs.len(), n);
        }
        "decode_ref" => {
            let b: BatchRef = gamewire_zeze::from_bytes(black_box(zeze)).unwrap();
            assert_eq!(b.recs.len(), n);
        }
        "encode" => {
            let mut out = Vec::with_capacity(zeze.len());
            gamewire_zeze::to_writer(black_box(batch), &mut out).unwrap();
            assert_eq!(out.len(), zeze.len());
        }
        "walk" => {
            let mut c = gamewire_zeze::cursor::Cursor::new(black_box(zeze));
            gamewire_zeze::skip_bean(&mut c, &Default::default(), 0).unwrap();
        }
        "tree" => {
            let t = gamewire_zeze::decode(black_box(zeze), &Default::default()).unwrap();
            black_box(t);
        }
        "tree_encode" => {
            let out = gamewire_zeze::encode(black_box(tree)).unwrap();
            assert_eq!(out.len(), zeze.len());
        }
        "postcard_decode" => {
            let b: Batch = postcard::from_bytes(black_box(post)).unwrap();
            assert_eq!(b.recs.len(), n);
        }
        "postcard_decode_ref" => {
            let b: BatchRef = postcard::from_bytes(black_box(post)).unwrap();
            assert_eq!(b.recs.len(), n);
        }
        "postcard_encode" => {
            let out =
                postcard::to_extend(black_box(batch), Vec::with_capacity(post.len())).unwrap();
            black_box(out);
        }
        _ => {}
    }
}
