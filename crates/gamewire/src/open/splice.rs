//! Edits of a file looked at through its view ([`Browse`]) made on its bytes, with no
//! document built: the format's rules for one value's bytes and for the counts or
//! lengths around it are the format crate's (`gamewire_godot::splice`,
//! `gamewire_resonite::splice`); this wires them to the opened file and gives the file
//! indexed again.
//!
//! - Godot (bare values and `store_var` files, in a compressed container too): the edit
//!   is made on the plaintext of the frame (value) it falls in, and that frame's length
//!   is set again; a `store_var` frame is added or removed whole at `/N`.
//! - Resonite (every container): the edit is made on the decompressed BSON; saving
//!   compresses it again with the compression read (a file not edited is written back
//!   as it was read).
//!
//! An edit never leaves bytes the view would not read: the result is checked and
//! indexed as the file was when opened, or the edit is refused.

use super::browse::{Browse, Index};
use super::Settings;
pub use gamewire_core::lazy_json::Edit;

impl Browse {
    /// True when this file's edits are made on its bytes ([`Browse::edit`]).
    pub fn splices(&self) -> bool {
        match (&self.index, self.opened.settings()) {
            // An encrypted file is written again only with its secret.
            #[cfg(feature = "godot")]
            (Index::Godot { .. }, Settings::Godot3(g) | Settings::Godot4(g)) => {
                !matches!(
                    g.container,
                    Some(super::settings::GodotContainer::Encrypted { .. })
                ) || self.opened.opts.secret.is_some()
            }
            #[cfg(feature = "resonite")]
            (Index::Resonite(_), _) => true,
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }

    /// True once an edit changed the file's bytes.
    pub fn is_edited(&self) -> bool {
        self.edited
    }

    /// This file with `edit` applied at `pointer` of its JSON, indexed again (this one
    /// is left as it was). Errors: the format does not edit its bytes here
    /// ([`Browse::splices`]), no value at `pointer`, or a value the format cannot hold
    /// (the format's message); nothing is changed then.
    pub fn edit(&self, pointer: &str, edit: Edit<'_>) -> Result<Browse, String> {
        if !self.splices() {
            return Err("this file's edits are not made on its bytes".into());
        }
        let toks = gamewire_core::lazy_json::tokens(pointer)?;
        let at = |e: gamewire_core::Error| format!("{pointer}: {e}");
        match &self.index {
            #[cfg(not(any(feature = "godot", feature = "resonite")))]
            _ => Err("files are indexed only with the godot or resonite feature".into()),
            #[cfg(feature = "godot")]
            Index::Godot { frames, framed } => {
                let data = self.opened.data();
                let (frame, toks) = match (*framed, toks.split_first()) {
                    (false, _) => (0, &toks[..]),
                    (true, Some((first, rest))) => {
                        let i = gamewire_core::lazy_json::index_token(first);
                        match (i, rest.is_empty() && edit.changes_count()) {
                            (_, true) => return self.edit_frames(first, edit).map_err(at),
                            (Some(i), false) if i < frames.len() => (i, rest),
                            _ => return Err(format!("no value at {pointer:?}")),
                        }
                    }
                    (true, None) => {
                        return Err(
                            "a store_var file's list of values is edited a value at a time".into(),
                        )
                    }
                };
                let (range, index) = &frames[frame];
                let tape = index
                    .tape_of_own(&data[range.clone()])
                    .map_err(|e| e.to_string())?;
                let body = gamewire_godot::splice::splice(&tape, toks, edit).map_err(at)?;
                let mut out = Vec::with_capacity(data.len() + body.len());
                out.extend_from_slice(&data[..range.start]);
                if *framed {
                    let len = u32::try_from(body.len())
                        .map_err(|_| format!("{pointer}: the value passes 4 GiB"))?;
                    out.truncate(range.start - 4);
                    out.extend_from_slice(&len.to_le_bytes());
                }
                out.extend_from_slice(&body);
                out.extend_from_slice(&data[range.end..]);
                self.with_data(out)
            }
            #[cfg(feature = "resonite")]
            Index::Resonite(view) => {
                let opts = gamewire_resonite::Options {
                    limits: self.opened.opts.limits,
                    ..Default::default()
                };
                let bson = gamewire_resonite::splice::splice(view.bson(), &toks, edit, &opts)
                    .map_err(at)?;
                let view = gamewire_resonite::bson_view::FileView::of_bson(
                    *view.container(),
                    bson,
                    view.stored_at(),
                    &opts,
                )
                .map_err(at)?;
                Ok(Browse {
                    opened: self.opened.with_data(self.opened.data().to_vec()),
                    index: Index::Resonite(view),
                    edited: true,
                })
            }
        }
    }

    /// A `store_var` file with a frame added (`Add`, `Insert`: at index `tok`, `-` for
    /// the end) or removed.
    #[cfg(feature = "godot")]
    fn edit_frames(&self, tok: &str, edit: Edit<'_>) -> gamewire_core::Result<Browse> {
        use gamewire_core::Error;
        let Index::Godot { frames, .. } = &self.index else {
            unreachable!("a Godot file");
        };
        let version = if matches!(self.opened.settings(), Settings::Godot3(_)) {
            gamewire_godot::Version::V3
        } else {
            gamewire_godot::Version::V4
        };
        let data = self.opened.data();
        let n = frames.len();
        let index = match (edit, tok) {
            (Edit::Add(_), "-") => n,
            _ => gamewire_core::lazy_json::index_token(tok)
                .ok_or_else(|| Error::msg(format!("{tok:?} is not an index")))?,
        };
        // Frame i starts at its length prefix.
        let start = |i: usize| frames.get(i).map_or(data.len(), |(r, _)| r.start - 4);
        let (cut, bytes) = match edit {
            Edit::Add(v) | Edit::Insert(_, v) if index <= n => {
                let value = gamewire_godot::json::from_json(v, version)?;
                let eopts = gamewire_godot::EncodeOptions::new(version);
                let s = start(index);
                (
                    s..s,
                    gamewire_godot::framing::encode_framed(&value, &eopts)?,
                )
            }
            Edit::Remove if index < n => (start(index)..frames[index].0.end, Vec::new()),
            _ => return Err(Error::msg(format!("index {index} is past the end ({n})"))),
        };
        let mut out = Vec::with_capacity(data.len() + bytes.len());
        out.extend_from_slice(&data[..cut.start]);
        out.extend_from_slice(&bytes);
        out.extend_from_slice(&data[cut.end..]);
        self.with_data(out).map_err(Error::msg)
    }

    /// This file with its (plaintext) bytes replaced, indexed again.
    #[cfg(feature = "godot")]
    fn with_data(&self, data: Vec<u8>) -> Result<Browse, String> {
        let opened = self.opened.with_data(data);
        match super::browse::index(&opened) {
            Some(index) => Ok(Browse {
                opened,
                index,
                edited: true,
            }),
            None => Err("the edited bytes do not read back: the edit is refused".into()),
        }
    }

    /// The bytes of the file as it would be written now, with the settings it was read
    /// with: a file not edited gives the bytes read (for a compressed or encrypted
    /// Godot file, wrapped again, unchanged blocks as they were); an edited Resonite file
    /// is compressed again with the compression read (its FrDT header kept).
    pub fn file_bytes(&self) -> Result<Vec<u8>, String> {
        match (&self.index, self.opened.settings()) {
            #[cfg(feature = "godot")]
            (Index::Godot { .. }, Settings::Godot3(_) | Settings::Godot4(_)) => {
                // With the blocks kept that gamewire's compressor would not give back.
                let s = self.opened.write_settings();
                let (Settings::Godot3(g) | Settings::Godot4(g)) = &*s else {
                    unreachable!("a Godot file's settings");
                };
                super::formats::godot_file_bytes(&self.opened, g).map_err(|e| e.to_string())
            }
            #[cfg(feature = "resonite")]
            (Index::Resonite(view), Settings::Resonite(_)) => {
                if !self.edited {
                    return Ok(self.opened.data().to_vec());
                }
                if let Some(at) = view.stored_at() {
                    // Stored: the header as read, then the BSON.
                    let mut out = self.opened.data()[..at].to_vec();
                    out.extend_from_slice(view.bson());
                    return Ok(out);
                }
                let c = view.container();
                let legacy = c.framing == gamewire_resonite::container::Framing::Legacy;
                let eo = gamewire_resonite::EncodeOptions {
                    legacy,
                    ..gamewire_resonite::EncodeOptions::new(c.compression)
                };
                gamewire_resonite::container::pack(view.bson(), c.compression, legacy, &eo)
                    .map_err(|e| e.to_string())
            }
            _ => Err("this file is not written from its view".into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::open::{open, OpenOptions, SideFiles};
    use gamewire_core::lazy_json::apply_edit;
    use serde_json::{json, Value as Json};

    fn fixture(p: &str) -> Vec<u8> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
        std::fs::read(root.join(p)).unwrap()
    }

    fn browse(data: Vec<u8>, name: &str) -> Browse {
        let o = open(
            data,
            Some(std::path::Path::new(name)),
            &SideFiles::none(),
            &OpenOptions::default(),
        )
        .unwrap();
        Browse::new(o).ok().unwrap()
    }

    /// Every pointer of `j` (depth first), with its value.
    fn pointers<'j>(j: &'j Json, p: String, out: &mut Vec<(String, &'j Json)>) {
        out.push((p.clone(), j));
        match j {
            Json::Array(a) => {
                for (i, c) in a.iter().enumerate() {
                    pointers(c, format!("{p}/{i}"), out);
                }
            }
            Json::Object(m) => {
                for (k, c) in m {
                    let t = k.replace('~', "~0").replace('/', "~1");
                    pointers(c, format!("{p}/{t}"), out);
                }
            }
            _ => {}
        }
    }

    /// Another value of the same JSON kind.
    fn other(v: &Json) -> Option<Json> {
        Some(match v {
            Json::Bool(b) => json!(!b),
            Json::Number(n) if n.is_i64() => json!(n.as_i64()?.wrapping_add(1)),
            Json::Number(n) if n.is_u64() => json!(n.as_u64()? - 1),
            Json::Number(n) => json!(n.as_f64()? * 0.5 + 1.25),
            Json::String(s) => json!(format!("{s}é")),
            _ => return None,
        })
    }

    /// The edit made on the bytes gives the very bytes the document path gives for the
    /// same edit (the JSON edited, encoded with the file's settings), or both refuse;
    /// the view reads the edited JSON back.
    fn agrees(b: &Browse, whole: &Json, pointer: &str, edit: Edit<'_>) -> bool {
        let toks = gamewire_core::lazy_json::tokens(pointer).unwrap();
        let mut want = whole.clone();
        let expected = apply_edit(&mut want, &toks, edit).ok().and_then(|()| {
            b.opened()
                .encode_json(
                    &serde_json::to_vec(&want).unwrap(),
                    &crate::open::EncodeOptions::default(),
                )
                .ok()
        });
        match (b.edit(pointer, edit), expected) {
            (Ok(e), Some(bytes)) => {
                assert_eq!(e.file_bytes().unwrap(), bytes, "at {pointer} ({edit:?})");
                // The view reads the edit back (an added member of a tagged value, which
                // neither path keeps, aside).
                let read = e.value("").unwrap();
                if read != want {
                    assert!(
                        matches!(edit, Edit::Add(_) | Edit::Insert(..)),
                        "at {pointer}"
                    );
                    let name = b.opened().path.clone().unwrap();
                    let again = browse(bytes, name.to_str().unwrap()).value("").unwrap();
                    assert_eq!(read, again, "at {pointer}");
                }
                true
            }
            (Err(_), None) => false,
            (Ok(_), None) => panic!("at {pointer} ({edit:?}): made, the document path refuses"),
            (Err(e), Some(_)) => panic!("at {pointer} ({edit:?}): refused: {e}"),
        }
    }

    const FILES: [&str; 14] = [
        "godot/real/bom-reader-savegame.godot4.save",
        "godot/real/restlife-savegame.godot4.save",
        "godot/real/jaws-of-time-attacks.godot4.save",
        "godot/real/just-dino-savegame.godot4.save",
        "godot/real/blasto-x-save_data.godot3.save",
        "godot/real/retrofps-settings.godot3.save",
        "godot/real/rogue-like-save_file.godot3.save",
        "godot/containers/godot3-zstd.sav",
        "godot/containers/godot3-deflate.sav",
        "../../samples/resonite/item.frdt",
        "../../samples/resonite/item.lz4bson",
        "../../samples/resonite/legacy-item.brson",
        "resonite/real/resonite-avatar-root-id.brson",
        "resonite/real/neos-holder.7zbson",
    ];

    #[test]
    fn edits_on_the_bytes_are_the_document_paths_edits() {
        for f in FILES {
            let data = fixture(f);
            let b = browse(data.clone(), f);
            assert!(b.splices(), "{f}");
            // Written back with no edit: the same bytes.
            assert_eq!(b.file_bytes().unwrap(), data, "{f}");
            let whole = b.value("").unwrap();
            let mut all = Vec::new();
            pointers(&whole, String::new(), &mut all);
            // Compressing is slow in a debug build: fewer edits of compressed files.
            let stored = f.ends_with(".save") || f.ends_with(".frdt");
            let step = (all.len() / if stored { 24 } else { 3 }).max(1);
            let (mut made, mut tried) = (0, 0);
            for (p, v) in all.iter().step_by(step) {
                if p.is_empty() {
                    continue;
                }
                tried += 1;
                if let Some(new) = other(v) {
                    made += agrees(&b, &whole, p, Edit::Replace(&new)) as usize;
                }
                made += agrees(&b, &whole, p, Edit::Remove) as usize;
                if let Some((up, _)) = p.rsplit_once('/') {
                    let v = json!({"added": [1, 2.5, "x"]});
                    let at = match whole.pointer(up) {
                        Some(Json::Array(_)) => format!("{up}/-"),
                        _ => format!("{up}/gamewire_added"),
                    };
                    made += agrees(&b, &whole, &at, Edit::Add(&v)) as usize;
                    made += agrees(&b, &whole, &format!("{up}/0"), Edit::Insert(0, &v)) as usize;
                }
            }
            assert!(made > tried, "{f}: {made} of {tried}");
        }
    }

    #[test]
    fn an_edit_changes_only_its_value_and_the_counts_around_it() {
        // bom-reader: frame 0 (length at 0) is a Dictionary (count at 8); its
        // "filename" is a String at 28..52.
        let f = FILES[0];
        let data = fixture(f);
        let b = browse(data.clone(), f);
        let e = b
            .edit("/0/filename", Edit::Replace(&json!("res://a.tscn")))
            .unwrap();
        let out = e.file_bytes().unwrap();
        // "res://a.tscn" is 12 bytes: String header, length and text, no padding.
        assert_eq!(out.len(), data.len() - 4);
        assert_eq!(&out[4..28], &data[4..28]);
        assert_eq!(&out[48..], &data[52..]);
        let frame = u32::from_le_bytes(data[..4].try_into().unwrap());
        assert_eq!(&out[..4], &(frame - 4).to_le_bytes());
        // A member removed: its key's and value's bytes cut, the count one less.
        let e = b.edit("/0/filename", Edit::Remove).unwrap();
        let out = e.file_bytes().unwrap();
        let n = u32::from_le_bytes(data[8..12].try_into().unwrap());
        assert_eq!(&out[8..12], &(n - 1).to_le_bytes());
        assert_eq!(&out[12..], &data[52..]);
        // ... and put back where it was: the file as it was.
        let back = e
            .edit("/0/filename", Edit::Insert(0, &json!("res://main.tscn")))
            .unwrap();
        assert_eq!(back.file_bytes().unwrap(), data);
        // A Resonite element: the documents holding it change their lengths only.
        let f = FILES[9];
        let data = fixture(f);
        let b = browse(data.clone(), f);
        let s = b.span("/VersionNumber").unwrap().unwrap();
        let e = b
            .edit("/VersionNumber", Edit::Replace(&json!("2024.8.5.13467")))
            .unwrap();
        let out = e.file_bytes().unwrap();
        assert_eq!(out.len(), data.len() + 1);
        assert_eq!(&out[..9], &data[..9]);
        let len = i32::from_le_bytes(data[9..13].try_into().unwrap());
        assert_eq!(&out[9..13], &(len + 1).to_le_bytes());
        assert_eq!(&out[13..s.offset], &data[13..s.offset]);
        assert_eq!(
            &out[s.offset + s.length + 1..],
            &data[s.offset + s.length..]
        );
    }

    #[test]
    fn values_the_format_cannot_hold_are_refused_and_nothing_changes() {
        let f = FILES[0];
        let b = browse(fixture(f), f);
        let e = b
            .edit(
                "/0/filename",
                Edit::Replace(&json!(18446744073709551615u64)),
            )
            .unwrap_err();
        assert!(e.starts_with("/0/filename: "), "{e}");
        assert!(b.edit("/0/nothing/here", Edit::Remove).is_err());
        let f = FILES[9];
        let b = browse(fixture(f), f);
        let e = b.edit("/a\u{0}b", Edit::Add(&json!(1))).unwrap_err();
        assert!(e.contains("NUL"), "{e}");
        assert!(!b.is_edited());
    }

    #[test]
    fn a_big_generated_file_is_edited_in_place() {
        use gamewire_godot::{framing, EncodeOptions, Value, Version};
        let items: Vec<Value> = (0..50_000)
            .map(|i| Value::from(vec![Value::from("hp"), Value::Int(i)]))
            .collect();
        let data =
            framing::encode_framed(&Value::from(items), &EncodeOptions::new(Version::V4)).unwrap();
        let b = browse(data.clone(), "big.save");
        let s = b.span("/0/40000/1").unwrap().unwrap();
        let e = b.edit("/0/40000/1", Edit::Replace(&json!(40001))).unwrap();
        let out = e.file_bytes().unwrap();
        assert_eq!(out.len(), data.len());
        let differ: Vec<usize> = (0..out.len()).filter(|&i| out[i] != data[i]).collect();
        assert_eq!(differ, [s.offset + 4], "only the integer's low byte");
        let (changes, more) = b.diff(&e, 10).unwrap();
        assert!(!more);
        assert_eq!(changes.len(), 1);
        assert_eq!(changes[0].pointer, "/0/40000/1");
        assert_eq!(changes[0].new, Some(json!(40001)));
        // An item removed from the middle: the count one less, the rest moved.
        let e = b.edit("/0/10", Edit::Remove).unwrap();
        assert_eq!(e.listing("/0", 0, 0).unwrap().value.count, Some(49_999));
        assert_eq!(e.value("/0/10/1").unwrap(), json!(11));
    }
}
