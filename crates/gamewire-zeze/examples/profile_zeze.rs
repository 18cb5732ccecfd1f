//! Callgrind driver: `profile_zeze MODE [N]` runs one codec path over N records (the
//! bench's record shape) so instruction counts can be compared before and after a
//! change. MODE: decode, decode_ref, encode, walk, view, tree, tree_encode, postcard_decode,
//! postcard_decode_ref, postcard_encode, none (setup only, to subtract). A third argument repeats the work
//! (for `perf record`).

use serde::{Deserialize, Serialize};
use std::hint::black_box;

include!("../benches/common/records.rs");

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
        "view" => {
            black_box(visit_view(black_box(zeze)));
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
