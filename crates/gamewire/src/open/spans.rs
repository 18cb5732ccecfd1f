//! Where a value's bytes are, for files read whole (not through a [`Browse`] view):
//! [`Spans`] keeps an opened file's bytes and finds the bytes of the value at a JSON
//! Pointer of its JSON from them, on each call, without building the JSON: an O3DE
//! file's values are their text ([`text_span`]); a schema-less Zeze bean's or frame
//! stream's come from the format crate's `span` (the one grammar, values on the way
//! stepped over); a KingsIsle blob's or `BINd` file's from `gamewire_kingsisle::span`
//! (the view's decoder noting each value's bits: the format is bit-packed, so a span
//! also says the first bit within its first byte, [`Span::bits`]; in a zlib-compressed
//! blob the offsets are in the inflated data, [`Span::unpacked`]).
//!
//! Zeze files typed by a solution (their JSON keyed by variable names) and KingsIsle XML
//! object files have none yet.
//!
//! [`Browse`]: super::browse::Browse

use super::browse::{text_span, Span};
use super::Opened;
#[cfg(any(feature = "zeze", feature = "kingsisle"))]
use gamewire_core::lazy_json;
use std::borrow::Cow;

/// A span and the bytes it counts (borrowed from the file, or inflated).
pub type Located<'a> = (Span, Cow<'a, [u8]>);

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
    /// A KingsIsle blob or `BINd` file, with its type list and serializer options.
    #[cfg(feature = "kingsisle")]
    KingsIsle(
        std::sync::Arc<gamewire_kingsisle::TypeList>,
        gamewire_kingsisle::Options,
    ),
}

impl Spans {
    /// The spans of an opened file's values, when its format gives them from its bytes:
    /// O3DE files and schema-less Zeze beans and frames; else `None`.
    pub fn of(opened: &Opened) -> Option<Spans> {
        let kind = match opened.settings() {
            _ if opened.format() == crate::Format::O3de => Kind::Text,
            #[cfg(feature = "zeze")]
            super::Settings::Zeze(z)
                if z.solution.is_none() && opened.resolved.solution.is_none() =>
            {
                let opts = gamewire_zeze::Options {
                    max_depth: opened.opts.limits.max_depth,
                };
                match z.layout {
                    super::ZezeLayout::Bean => Kind::ZezeBean(opts),
                    super::ZezeLayout::Frames => Kind::ZezeFrames(opts),
                }
            }
            #[cfg(feature = "kingsisle")]
            super::Settings::KingsIsle(k) if k.file != super::KingsIsleFile::Xml => {
                Kind::KingsIsle(
                    opened.resolved.types.clone()?,
                    super::formats::kingsisle::options(k, Some(opened)),
                )
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
        Ok(self.span_and_bytes(pointer)?.map(|(s, _)| s))
    }

    /// [`Spans::span`] and the bytes it counts: the file's, or (for a compressed
    /// KingsIsle blob) the inflated data's.
    pub fn span_and_bytes(&self, pointer: &str) -> Result<Option<Located<'_>>, String> {
        #[cfg(feature = "kingsisle")]
        if let Kind::KingsIsle(types, opts) = &self.kind {
            let toks = lazy_json::tokens(pointer)?;
            let b = gamewire_kingsisle::span::span(&self.data, types, opts, &toks)?;
            let span = Span {
                offset: b.offset,
                length: b.length,
                own: b.own,
                unpacked: b.inflated,
                space: if b.inflated {
                    "the inflated data (the blob is zlib-compressed)".into()
                } else {
                    "the file".into()
                },
                bits: Some(super::browse::Bits {
                    first: b.bit,
                    count: b.bits,
                }),
            };
            return Ok(Some((span, Cow::Owned(b.bytes))));
        }
        Ok(self.span_in_file(pointer)?.map(|s| {
            let bytes = self.bytes(s.offset, s.length);
            (s, Cow::Borrowed(bytes))
        }))
    }

    /// The span of a value whose offsets are in the file as stored.
    fn span_in_file(&self, pointer: &str) -> Result<Option<Span>, String> {
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
                    bits: None,
                }))
            }
            // Answered with its bytes by `span_and_bytes`.
            #[cfg(feature = "kingsisle")]
            Kind::KingsIsle(..) => Ok(None),
        }
    }

    /// The file's bytes from `offset`, at most `length` (as stored: see
    /// [`Spans::span_and_bytes`] for the bytes a span counts in).
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
        assert!(matches!(o.settings(), crate::open::Settings::Zeze(z) if z.solution.is_some()));
        assert!(Spans::of(&o).is_none());
    }
}

#[cfg(all(test, feature = "kingsisle"))]
mod kingsisle_tests {
    use super::*;
    use crate::open::{open, OpenOptions, SideFiles};
    use serde_json::Value as Json;
    use std::path::Path;

    /// A `BINd` file with its type list beside it: every value of its JSON has bits in
    /// the file, and `m_name` is where it was read by hand.
    #[test]
    fn kingsisle_bind_values_have_their_bits() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/kingsisle/item.bin");
        let data = std::fs::read(&path).unwrap();
        let o = open(
            data.clone(),
            Some(&path),
            &SideFiles::filesystem(),
            &OpenOptions::default(),
        )
        .unwrap();
        let spans = Spans::of(&o).expect("a BINd file has spans");
        // "BINd", flags word, class hash at 8, object size at 12, then m_name's size (16)
        // and tag (20), and its value at 24: length 0009 and "Storm Hat".
        let (s, bytes) = spans.span_and_bytes("/m_name").unwrap().unwrap();
        assert_eq!((s.offset, s.length, s.unpacked), (24, 11, false));
        assert_eq!(
            s.bits,
            Some(crate::open::browse::Bits {
                first: 0,
                count: 88
            })
        );
        assert_eq!(&bytes[..], &data[24..35]);
        assert_eq!(&bytes[2..], b"Storm Hat");
        let whole: Json = serde_json::from_slice(&o.to_json(false).unwrap()).unwrap();
        let mut stack = vec![(String::new(), &whole)];
        let mut n = 0;
        while let Some((p, j)) = stack.pop() {
            let (s, bytes) = spans
                .span_and_bytes(&p)
                .unwrap_or_else(|e| panic!("{p}: {e}"))
                .unwrap();
            assert!(s.offset + s.length <= data.len(), "{p}");
            assert_eq!(&bytes[..], &data[s.offset..s.offset + s.length], "{p}");
            n += 1;
            match j {
                Json::Object(m) => stack.extend(
                    m.iter()
                        .filter(|(k, _)| !p.is_empty() || !k.starts_with('$') || *k == "$hash")
                        .map(|(k, c)| {
                            (
                                format!("{p}/{}", k.replace('~', "~0").replace('/', "~1")),
                                c,
                            )
                        }),
                ),
                Json::Array(a) => {
                    stack.extend(a.iter().enumerate().map(|(i, c)| (format!("{p}/{i}"), c)))
                }
                _ => {}
            }
        }
        assert!(n > 10, "{n}");
    }
}
