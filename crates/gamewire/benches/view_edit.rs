//! The first edit of a big file read through its view: made on its bytes
//! (`Browse::edit` + `Browse::file_bytes`, open::splice) against the document path it
//! replaces (the whole JSON document built, the value replaced, encoded again).
//!
//! `cargo bench -p gamewire --bench view_edit -- [MB] [splice|document|both|none]`
//! (default 20 MB, both). Under callgrind, give one mode, and subtract `none` (the file
//! made and opened, no edit) from it:
//! `valgrind --tool=callgrind target/release/deps/view_edit-* 20 splice`.

use gamewire::open::browse::Browse;
use gamewire::open::splice::Edit;
use gamewire::open::{open, OpenOptions, SideFiles};
use serde_json::{json, Value};
use std::time::Instant;

/// A Godot 3 bare file of about `mb` megabytes: a list of small dictionaries.
fn file(mb: usize) -> Vec<u8> {
    let n = mb * 1_000_000 / 110;
    let items: Vec<Value> = (0..n)
        .map(|i| json!({"name": format!("item {i}"), "level": i, "hp": i as f64 * 0.5, "tags": ["a", "bc"]}))
        .collect();
    let v =
        gamewire_godot::json::from_json(&Value::Array(items), gamewire_godot::Version::V3).unwrap();
    gamewire_godot::encode(
        &v,
        &gamewire_godot::EncodeOptions::new(gamewire_godot::Version::V3),
    )
    .unwrap()
}

/// The file opened as `decode FILE` opens it.
fn opened(data: Vec<u8>) -> gamewire::Opened {
    open(
        data,
        Some("big.godot3.bin".as_ref()),
        &SideFiles::none(),
        &OpenOptions::default(),
    )
    .unwrap()
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let mb: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(20);
    let mode = args.get(1).map(String::as_str).unwrap_or("both");
    let data = file(mb);
    let len = data.len();
    let o = opened(data.clone());
    if mode == "none" {
        let b = Browse::new(opened(data)).ok().unwrap();
        println!(
            "{:.1} MB: made and opened, {:?}",
            len as f64 / 1e6,
            b.splices()
        );
        return;
    }
    let pointer = format!("/{}/level", len / 220);
    let new = json!(7);
    if mode == "splice" || mode == "both" {
        let b = Browse::new(opened(data)).ok().unwrap();
        let t = Instant::now();
        let e = b.edit(&pointer, Edit::Replace(&new)).unwrap();
        let bytes = e.file_bytes().unwrap();
        println!(
            "{:.1} MB: edit on the bytes and the file's bytes: {:.1} ms ({} bytes)",
            len as f64 / 1e6,
            t.elapsed().as_secs_f64() * 1e3,
            bytes.len()
        );
    }
    if mode == "document" || mode == "both" {
        // Indexed as the view indexes it when the file is opened (as in the other
        // modes), though the document path does not read it.
        let b = Browse::new(opened(o.data().to_vec())).ok().unwrap();
        assert!(b.splices());
        let t = Instant::now();
        let mut doc: Value = serde_json::from_slice(&o.to_json(false).unwrap()).unwrap();
        *doc.pointer_mut(&pointer).unwrap() = new.clone();
        let bytes = o
            .encode_json(&serde_json::to_vec(&doc).unwrap(), &Default::default())
            .unwrap();
        println!(
            "{:.1} MB: document built, edited, encoded: {:.1} ms ({} bytes)",
            len as f64 / 1e6,
            t.elapsed().as_secs_f64() * 1e3,
            bytes.len()
        );
    }
}
