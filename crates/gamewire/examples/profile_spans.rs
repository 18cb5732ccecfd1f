//! Profiles the Bytes pane's requests (issue 28): the library's answer for the bytes of
//! the value at a JSON Pointer, asked COUNT times of one opened file.
//!
//! ```text
//! cargo run --release -p gamewire --example profile_spans -- MODE FILE POINTER COUNT
//! ```
//!
//! - `kept`: one `Spans`, asked COUNT times (a KingsIsle file is decoded on the first
//!   request and what that built is kept);
//! - `again`: the same, but what a request decoded is forgotten before the next, as
//!   every request did before it was kept;
//! - `browse`: a file read through its view (Godot, Resonite), COUNT listings of the
//!   root's first 200 children (each reads the kept tape index, checking its length).
//! - `search-on` / `search-again`: COUNT pages of 200 hits of a search for POINTER (here
//!   the text searched for) in a file read through its view, each page read on from
//!   where the last stopped (`Browse::search_from`), or walked again from the start up
//!   to its hits (what every later page cost before), in `request_search`.
//!
//! Each request runs in `request` (for `valgrind --tool=callgrind
//! --toggle-collect='*profile_spans::request*'`); the wall time of each is printed.

use gamewire::open::browse::Browse;
use gamewire::open::spans::Spans;
use std::path::Path;
use std::time::Instant;

#[inline(never)]
fn request(spans: &Spans, pointer: &str) -> usize {
    match spans.span_and_bytes(pointer) {
        Ok(Some((s, bytes))) => s.offset + bytes.len(),
        Ok(None) => 0,
        Err(e) => panic!("{e}"),
    }
}

#[inline(never)]
fn request_listing(b: &Browse, pointer: &str) -> usize {
    b.listing(pointer, 0, 200)
        .expect("a listing")
        .children
        .len()
}

#[inline(never)]
fn request_search(
    b: &Browse,
    q: &str,
    page: usize,
    from: Option<&gamewire::open::browse::SearchFrom>,
) -> (usize, Option<gamewire::open::browse::SearchFrom>) {
    match from {
        Some(f) => {
            let (hits, next) = b.search_from(q, 200, Some(f));
            (hits.len(), next)
        }
        None => {
            let (hits, next) = b.search_from(q, 200 * (page + 1), None);
            (hits.len().saturating_sub(200 * page), next)
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [mode, file, pointer, count] = args.as_slice() else {
        eprintln!(
            "usage: profile_spans kept|again|browse|search-on|search-again FILE POINTER COUNT"
        );
        std::process::exit(2);
    };
    let count: usize = count.parse().expect("a count");
    let path = Path::new(file);
    let data = std::fs::read(path).expect("the file");
    let opened = gamewire::open(
        data,
        Some(path),
        &gamewire::SideFiles::filesystem(),
        &gamewire::OpenOptions::default(),
    )
    .expect("a file gamewire reads");
    let mut sink = 0;
    match mode.as_str() {
        "browse" => {
            let Ok(b) = Browse::new(opened) else {
                panic!("not a file read through its view")
            };
            for i in 0..count {
                let t = Instant::now();
                sink += request_listing(&b, pointer);
                println!("listing {i}: {:.3} ms", t.elapsed().as_secs_f64() * 1e3);
            }
        }
        "search-on" | "search-again" => {
            let Ok(b) = Browse::new(opened) else {
                panic!("not a file read through its view")
            };
            let mut from = None;
            for i in 0..count {
                let t = Instant::now();
                let kept = if mode == "search-on" {
                    from.as_ref()
                } else {
                    None
                };
                let (n, next) = request_search(&b, pointer, i, kept);
                sink += n;
                from = next;
                println!(
                    "page {i}: {n} hits, {:.3} ms",
                    t.elapsed().as_secs_f64() * 1e3
                );
            }
        }
        "kept" | "again" => {
            let mut spans = Spans::of(&opened).expect("a file whose values' bytes are found");
            for i in 0..count {
                if mode == "again" {
                    spans.forget();
                }
                let t = Instant::now();
                sink += request(&spans, pointer);
                println!("request {i}: {:.3} ms", t.elapsed().as_secs_f64() * 1e3);
            }
        }
        m => panic!("no mode {m}"),
    }
    println!("({sink})");
}
