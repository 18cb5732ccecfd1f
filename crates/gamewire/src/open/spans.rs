//! Where a value's bytes are, for files read whole (not through a [`Browse`] view):
//! [`Spans`] keeps an opened file's bytes and finds the bytes of the value at a JSON
//! Pointer of its JSON from them, on each call, without building the JSON: an O3DE
//! file's values are their text ([`text_span`]); a schema-less Zeze bean's or frame
//! stream's come from the format crate's `span` (the one grammar, values on the way
//! stepped over).
//!
//! Zeze files typed by a solution (their JSON keyed by variable names) have none yet.
//!
//! [`Browse`]: super::browse::Browse

use super::browse::{text_span, Span};
use super::{Opened, Settings};
#[cfg(feature = "zeze")]
use gamewire_core::lazy_json;

/// An opened file's bytes and how to find its values' spans in them.
pub struct Spans {
    data: Vec<u8>,
    kind: Kind,
}

/// How a file's values are found in its bytes.
enum Kind {
    /// JSON text (O3DE).
    Text,
    /// A schema-less Zeze bean.
    #[cfg(feature = "zeze")]
    ZezeBean(gamewire_zeze::Options),
    /// A stream of schema-less Zeze frames.
    #[cfg(feature = "zeze")]
    ZezeFrames(gamewire_zeze::Options),
}

impl Spans {
    /// The spans of an opened file's values, when its format gives them from its bytes:
    /// O3DE files and schema-less Zeze beans and frames; else `None`.
    pub fn of(opened: &Opened) -> Option<Spans> {
        let kind = match opened.settings() {
            _ if opened.format() == crate::Format::O3de => Kind::Text,
            #[cfg(feature = "zeze")]
            Settings::Zeze(z) if z.solution.is_none() && opened.resolved.solution.is_none() => {
                let opts = gamewire_zeze::Options {
                    max_depth: opened.opts.limits.max_depth,
                };
                match z.layout {
                    super::ZezeLayout::Bean => Kind::ZezeBean(opts),
                    super::ZezeLayout::Frames => Kind::ZezeFrames(opts),
                }
            }
            _ => return None,
        };
        Some(Spans {
            data: opened.data().to_vec(),
            kind,
        })
    }

    /// Where the bytes of the value at `pointer` (of the file's JSON) are. An error
    /// names a pointer that is not there.
    pub fn span(&self, pointer: &str) -> Result<Option<Span>, String> {
        match &self.kind {
            Kind::Text => text_span(&self.data, pointer),
            #[cfg(feature = "zeze")]
            Kind::ZezeBean(opts) | Kind::ZezeFrames(opts) => {
                let toks = lazy_json::tokens(pointer)?;
                let s = match &self.kind {
                    Kind::ZezeBean(_) => gamewire_zeze::span::bean_span(&self.data, &toks, opts),
                    _ => gamewire_zeze::span::frames_span(&self.data, &toks, opts),
                }?;
                Ok(Some(Span {
                    offset: s.range.start,
                    length: s.range.len(),
                    own: s.own,
                    unpacked: false,
                    space: "the file".into(),
                }))
            }
        }
    }

    /// The file's bytes from `offset`, at most `length`.
    pub fn bytes(&self, offset: usize, length: usize) -> &[u8] {
        let start = offset.min(self.data.len());
        &self.data[start..start.saturating_add(length).min(self.data.len())]
    }
}

#[cfg(all(test, feature = "zeze"))]
mod tests {
    use super::*;
    use crate::open::{open, OpenOptions, SideFiles};
    use serde_json::Value as Json;
    use std::path::Path;

    fn sample(name: &str) -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../samples/zeze")
            .join(name)
    }

    /// Opened alone (no solution beside it): schema-less.
    fn alone(name: &str) -> Opened {
        let data = std::fs::read(sample(name)).unwrap();
        open(
            data,
            Some(Path::new(name)),
            &SideFiles::none(),
            &OpenOptions::default(),
        )
        .unwrap()
    }

    /// Every pointer of the file's JSON has a span inside the file, and every string's
    /// bytes are its length prefix and its text.
    fn every_value_has_its_bytes(o: &Opened) -> usize {
        let whole: Json = serde_json::from_slice(&o.to_json(false).unwrap()).unwrap();
        let spans = Spans::of(o).expect("schema-less Zeze has spans");
        let data = o.data();
        let mut stack = vec![(String::new(), &whole)];
        let mut strings = 0;
        while let Some((p, j)) = stack.pop() {
            let s = spans.span(&p).unwrap().unwrap_or_else(|| panic!("{p}"));
            assert!(s.offset + s.length <= data.len(), "{p}");
            assert_eq!(spans.bytes(s.offset, s.length).len(), s.length);
            match j {
                Json::String(t)
                    if !["/list", "/bytes", "/family"]
                        .iter()
                        .any(|k| p.ends_with(k))
                        && !p.contains("/map/") =>
                {
                    assert_eq!(data[s.offset] as usize, t.len(), "{p}");
                    assert_eq!(
                        &data[s.offset + 1..s.offset + s.length],
                        t.as_bytes(),
                        "{p}"
                    );
                    strings += 1;
                }
                Json::Array(a) => {
                    stack.extend(a.iter().enumerate().map(|(i, c)| (format!("{p}/{i}"), c)))
                }
                Json::Object(m) => stack.extend(m.iter().map(|(k, c)| (format!("{p}/{k}"), c))),
                _ => {}
            }
        }
        strings
    }

    #[test]
    fn schema_less_zeze_beans_and_frames_give_every_value_its_bytes() {
        let o = alone("BOuter.zeze");
        assert!(every_value_has_its_bytes(&o) >= 3);
        // The map's key "k": 01 6b at 22 (read by hand, see gamewire-zeze's tests/span.rs).
        let s = Spans::of(&o)
            .unwrap()
            .span("/4/entries/0/0")
            .unwrap()
            .unwrap();
        assert_eq!((s.offset, s.length, s.own), (22, 2, true));
        assert_eq!(s.space, "the file");
        let e = Spans::of(&o).unwrap().span("/9").unwrap_err();
        assert!(e.contains("\"/9\""), "{e}");
        let o = alone("session.frames.zeze");
        assert!(every_value_has_its_bytes(&o) >= 1);
        let s = Spans::of(&o)
            .unwrap()
            .span("/2/result_code")
            .unwrap()
            .unwrap();
        assert_eq!((s.offset, s.length), (115, 1));
        // Through the one entry point too.
        let s = crate::open::browse::span(alone("BSimple.zeze"), "/3")
            .unwrap()
            .unwrap();
        assert_eq!((s.offset, s.length), (4, 3));
    }

    /// A bean typed by the solution beside it is keyed by names: no spans yet.
    #[test]
    fn typed_zeze_has_none() {
        let path = sample("BSimple.zeze");
        let data = std::fs::read(&path).unwrap();
        let o = open(
            data,
            Some(&path),
            &SideFiles::filesystem(),
            &OpenOptions::default(),
        )
        .unwrap();
        assert!(matches!(o.settings(), Settings::Zeze(z) if z.solution.is_some()));
        assert!(Spans::of(&o).is_none());
    }
}
