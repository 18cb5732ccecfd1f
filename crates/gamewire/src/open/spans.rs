//! Where a value's bytes are, for files read whole (not through a [`Browse`] view):
//! [`Spans`] keeps an opened file's bytes and finds the bytes of the value at a JSON
//! Pointer of its JSON from them, without building the JSON: an O3DE file's values are
//! their text ([`text_span`]); a Zeze bean's or frame stream's come from the format
//! crate's `span` (the one grammar, values on the way stepped over; a bean typed by a
//! solution, alone or as a frame's body, is walked with its schema, its variables by
//! name, and an absent variable, shown with its default, has no bytes); a KingsIsle blob's or `BINd` file's from
//! `gamewire_kingsisle::span` (the view's decoder noting each value's bits: the format
//! is bit-packed, so a span also says the first bit within its first byte,
//! [`Span::bits`]; in a zlib-compressed blob the offsets are in the inflated data,
//! [`Span::unpacked`]); a KingsIsle XML object file's are their text in the XML
//! (`gamewire_kingsisle::xml_span`: offsets, and line and column, of an element's text
//! or of the element).
//!
//! A KingsIsle file is decoded once, on the first request, and what that built (the
//! view's nodes and the bits of each) is kept until [`Spans::forget`] or the [`Spans`]
//! is dropped: later requests only follow the pointer.
//!
//! [`Browse`]: super::browse::Browse

use super::browse::{text_span, Span};
use super::Opened;
#[cfg(any(feature = "zeze", feature = "kingsisle"))]
use gamewire_core::lazy_json;
use std::borrow::Cow;
use std::sync::Arc;

/// A span and the bytes it counts (borrowed from the file, or inflated).
pub type Located<'a> = (Span, Cow<'a, [u8]>);

/// A KingsIsle file's values' bits, decoded once.
#[cfg(feature = "kingsisle")]
type KingsIsleIndex =
    gamewire_kingsisle::span::SpanIndex<Arc<[u8]>, Arc<gamewire_kingsisle::TypeList>>;

/// An opened file's bytes and how to find its values' spans in them.
pub struct Spans {
    data: Arc<[u8]>,
    kind: Kind,
}

/// How a file's values are found in its bytes.
enum Kind {
    /// JSON text (O3DE).
    Text,
    /// A schema-less Zeze bean.
    #[cfg(feature = "zeze")]
    ZezeBean(gamewire_zeze::Options),
    /// A Zeze bean typed by a solution: the schema and the bean's full name.
    #[cfg(feature = "zeze")]
    ZezeTyped(
        Arc<gamewire_zeze::schema::Schema>,
        String,
        gamewire_zeze::Options,
    ),
    /// A stream of schema-less Zeze frames.
    #[cfg(feature = "zeze")]
    ZezeFrames(gamewire_zeze::Options),
    /// A stream of Zeze frames typed by a solution, and the bean of every body if one.
    #[cfg(feature = "zeze")]
    ZezeTypedFrames(
        Arc<gamewire_zeze::schema::Schema>,
        Option<String>,
        gamewire_zeze::Options,
    ),
    /// A KingsIsle blob or `BINd` file, with its type list and serializer options, and
    /// what the first request decoded.
    #[cfg(feature = "kingsisle")]
    KingsIsle(
        Arc<gamewire_kingsisle::TypeList>,
        gamewire_kingsisle::Options,
        Box<std::sync::OnceLock<Result<KingsIsleIndex, String>>>,
    ),
    /// A KingsIsle XML object file, with its type list, and its elements once read.
    #[cfg(feature = "kingsisle")]
    KingsIsleXml(
        Arc<gamewire_kingsisle::TypeList>,
        std::sync::OnceLock<Result<gamewire_kingsisle::xml_span::XmlIndex, String>>,
    ),
}

impl Spans {
    /// The spans of an opened file's values, when its format gives them from its bytes:
    /// O3DE files, Zeze beans and frame streams (schema-less or typed), KingsIsle
    /// blobs, `BINd` and XML object files; else `None`.
    pub fn of(opened: &Opened) -> Option<Spans> {
        let kind = match opened.settings() {
            _ if opened.format() == crate::Format::O3de => Kind::Text,
            #[cfg(feature = "zeze")]
            super::Settings::Zeze(z) => {
                let opts = gamewire_zeze::Options {
                    max_depth: opened.opts.limits.max_depth,
                };
                match (z.layout, &opened.resolved.solution, &z.bean) {
                    (super::ZezeLayout::Bean, None, _) => Kind::ZezeBean(opts),
                    (super::ZezeLayout::Frames, None, _) => Kind::ZezeFrames(opts),
                    (super::ZezeLayout::Bean, Some(schema), Some(bean)) => {
                        Kind::ZezeTyped(schema.clone(), bean.clone(), opts)
                    }
                    (super::ZezeLayout::Frames, Some(schema), bean) => {
                        Kind::ZezeTypedFrames(schema.clone(), bean.clone(), opts)
                    }
                    _ => return None,
                }
            }
            #[cfg(feature = "kingsisle")]
            super::Settings::KingsIsle(k) if k.file == super::KingsIsleFile::Xml => {
                Kind::KingsIsleXml(opened.resolved.types.clone()?, std::sync::OnceLock::new())
            }
            #[cfg(feature = "kingsisle")]
            super::Settings::KingsIsle(k) => Kind::KingsIsle(
                opened.resolved.types.clone()?,
                super::formats::kingsisle::options(k, Some(opened)),
                Box::default(),
            ),
            _ => return None,
        };
        Some(Spans {
            data: Arc::from(opened.data()),
            kind,
        })
    }

    /// Drops what earlier requests decoded and kept (a KingsIsle file's index); the
    /// next request decodes the file again.
    pub fn forget(&mut self) {
        match &mut self.kind {
            #[cfg(feature = "kingsisle")]
            Kind::KingsIsle(_, _, kept) => {
                kept.take();
            }
            #[cfg(feature = "kingsisle")]
            Kind::KingsIsleXml(_, kept) => {
                kept.take();
            }
            _ => {}
        }
    }

    /// True when a request decoded the file and what it built is kept.
    pub fn is_kept(&self) -> bool {
        match &self.kind {
            #[cfg(feature = "kingsisle")]
            Kind::KingsIsle(_, _, kept) => kept.get().is_some(),
            #[cfg(feature = "kingsisle")]
            Kind::KingsIsleXml(_, kept) => kept.get().is_some(),
            _ => false,
        }
    }

    /// Where the bytes of the value at `pointer` (of the file's JSON) are; `None` for
    /// a value the bytes do not hold (a Zeze variable shown with its default). An error
    /// names a pointer that is not there.
    pub fn span(&self, pointer: &str) -> Result<Option<Span>, String> {
        Ok(self.span_and_bytes(pointer)?.map(|(s, _)| s))
    }

    /// [`Spans::span`] and the bytes it counts: the file's, or (for a compressed
    /// KingsIsle blob) the inflated data's.
    pub fn span_and_bytes(&self, pointer: &str) -> Result<Option<Located<'_>>, String> {
        #[cfg(feature = "kingsisle")]
        if let Kind::KingsIsle(types, opts, kept) = &self.kind {
            let toks = lazy_json::tokens(pointer)?;
            let index = kept.get_or_init(|| {
                gamewire_kingsisle::span::SpanIndex::decode(self.data.clone(), types.clone(), opts)
            });
            let b = index.as_ref().map_err(Clone::clone)?.span(&toks)?;
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
                line: None,
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
        #[cfg(feature = "zeze")]
        let in_file = |s: gamewire_zeze::span::Span| Span {
            offset: s.range.start,
            length: s.range.len(),
            own: s.own,
            unpacked: false,
            space: "the file".into(),
            bits: None,
            line: None,
        };
        match &self.kind {
            Kind::Text => text_span(&self.data, pointer),
            #[cfg(feature = "zeze")]
            Kind::ZezeBean(opts) => {
                let toks = lazy_json::tokens(pointer)?;
                gamewire_zeze::span::bean_span(&self.data, &toks, opts).map(|s| Some(in_file(s)))
            }
            #[cfg(feature = "zeze")]
            Kind::ZezeFrames(opts) => {
                let toks = lazy_json::tokens(pointer)?;
                gamewire_zeze::span::frames_span(&self.data, &toks, opts).map(|s| Some(in_file(s)))
            }
            #[cfg(feature = "zeze")]
            Kind::ZezeTyped(schema, bean, opts) => {
                let toks = lazy_json::tokens(pointer)?;
                gamewire_zeze::span::typed_bean_span(schema, bean, &self.data, &toks, opts)
                    .map(|s| s.map(in_file))
            }
            #[cfg(feature = "zeze")]
            Kind::ZezeTypedFrames(schema, bean, opts) => {
                let toks = lazy_json::tokens(pointer)?;
                let typing = gamewire_zeze::typed_json::Typing {
                    schema,
                    bean: bean.as_deref(),
                };
                gamewire_zeze::span::typed_frames_span(typing, &self.data, &toks, opts)
                    .map(|s| s.map(in_file))
            }
            #[cfg(feature = "kingsisle")]
            Kind::KingsIsleXml(types, kept) => {
                let toks = lazy_json::tokens(pointer)?;
                let index =
                    kept.get_or_init(|| gamewire_kingsisle::xml_span::XmlIndex::new(&self.data));
                let t = index
                    .as_ref()
                    .map_err(Clone::clone)?
                    .span(&self.data, types, &toks)?;
                Ok(Some(Span {
                    offset: t.offset,
                    length: t.length,
                    own: t.own,
                    unpacked: false,
                    space: "the file (its XML text)".into(),
                    bits: None,
                    line: Some(super::browse::LineColumn {
                        line: t.line,
                        column: t.column,
                    }),
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

    /// A bean typed by the solution beside it is keyed by names: its spans too.
    #[test]
    fn typed_zeze_has_spans_by_name() {
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
        let spans = Spans::of(&o).expect("a typed bean has spans");
        // 10 4096 | 23 02 6869 ...: `i` at 1 (2 bytes), `s` at 4 (length and "hi").
        let s = spans.span("/i").unwrap().unwrap();
        assert_eq!((s.offset, s.length, s.own), (1, 2, true));
        let (s, bytes) = spans.span_and_bytes("/s").unwrap().unwrap();
        assert_eq!((s.offset, s.length), (4, 3));
        assert_eq!(&bytes[..], b"\x02hi");
        // `l` is not in the bytes: its default has none.
        assert_eq!(spans.span("/l").unwrap(), None);
        let e = spans.span("/3").unwrap_err();
        assert!(e.contains("\"/3\""), "{e}");
        // A frame stream typed by the solution: frame 0's BSimple at 13, its `s` at 17.
        let path = sample("session.frames.zeze");
        let o = open(
            std::fs::read(&path).unwrap(),
            Some(&path),
            &SideFiles::filesystem(),
            &OpenOptions::default(),
        )
        .unwrap();
        let spans = Spans::of(&o).expect("typed frames have spans");
        let s = spans.span("/0/bean/s").unwrap().unwrap();
        assert_eq!((s.offset, s.length), (17, 3));
        assert_eq!(spans.span("/0/bean/l").unwrap(), None);
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
        // What the first request decoded is kept, until forgotten.
        assert!(spans.is_kept());
        let mut spans = spans;
        spans.forget();
        assert!(!spans.is_kept());
        // A Color's components have their own bits: wire order b, g, r, a, 8 bits each.
        let whole = spans.span("/m_color").unwrap().unwrap();
        let first = |s: &Span| s.offset as u64 * 8 + u64::from(s.bits.unwrap().first);
        let wire = ["b", "g", "r", "a"];
        for (k, name) in wire.iter().enumerate() {
            let (s, bytes) = spans
                .span_and_bytes(&format!("/m_color/{name}"))
                .unwrap()
                .unwrap();
            assert!(s.own, "{name}");
            assert_eq!(s.bits.unwrap().count, 8, "{name}");
            assert_eq!(first(&s), first(&whole) + 8 * k as u64, "{name}");
            let b = s.bits.unwrap().first;
            let word = u16::from(bytes[0]) | bytes.get(1).map_or(0, |x| u16::from(*x) << 8);
            let value = (word >> b) as u8;
            assert_eq!(Json::from(value), whole_json(&o)["m_color"][name], "{name}");
        }
    }

    fn whole_json(o: &Opened) -> Json {
        serde_json::from_slice(&o.to_json(false).unwrap()).unwrap()
    }

    /// An XML object file's values are their text in it, with line and column
    /// (tests/fixtures/kingsisle/xml, positions read by hand); the file's elements are
    /// read on the first request and kept until forgotten.
    #[test]
    fn kingsisle_xml_values_are_their_text() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/kingsisle/xml/item.xml");
        let data = std::fs::read(&path).unwrap();
        let o = open(
            data,
            Some(&path),
            &SideFiles::filesystem(),
            &OpenOptions::default(),
        )
        .unwrap();
        let mut spans = Spans::of(&o).expect("an XML object file has spans");
        assert!(!spans.is_kept());
        // "255,128,0,200" at 226 on line 7: g is 128.
        let (s, bytes) = spans.span_and_bytes("/m_color/g").unwrap().unwrap();
        assert_eq!(
            (s.offset, s.length, s.own, s.unpacked),
            (230, 3, true, false)
        );
        assert_eq!(&bytes[..], b"128");
        assert_eq!(
            s.line,
            Some(crate::open::browse::LineColumn {
                line: 7,
                column: 16
            })
        );
        assert!(s.bits.is_none() && s.space.contains("XML"), "{s:?}");
        assert!(spans.is_kept());
        spans.forget();
        assert!(!spans.is_kept());
        let e = spans.span("/m_nope").unwrap_err();
        assert!(e.contains("/m_nope"), "{e}");
        // Through the one entry point too: after the byte order mark and two lines,
        // m_name's text at 98.
        let s = crate::open::browse::span(o, "/m_name").unwrap().unwrap();
        assert_eq!((s.offset, s.length), (98, 9));
    }
}
