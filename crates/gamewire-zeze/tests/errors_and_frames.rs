//! Bad input gives errors with exact byte offsets; frames in one piece and split.

use gamewire_zeze::frame::*;
use gamewire_zeze::{decode, encode, Bean, ErrorKind, Field, Options, Value};

fn err(b: &[u8]) -> (usize, String) {
    let e = decode(b, &Options::default()).unwrap_err();
    (e.offset().unwrap(), e.to_string())
}

#[test]
fn wire_types_13_to_15_are_refused_at_the_tag() {
    for t in [0x1d, 0x1e, 0x1f] {
        let (at, msg) = err(&[0x10, 0x05, t, 0]);
        assert_eq!(at, 2, "{msg}");
        assert!(msg.contains("wire type"), "{msg}");
    }
    // In a list header.
    let (at, _) = err(&[0x14, 0x1d, 0]);
    assert_eq!(at, 1);
    // In a map header (key type 14).
    let (at, _) = err(&[0x15, 0xe0, 0x01, 0]);
    assert_eq!(at, 1);
}

#[test]
fn truncated_integers_name_the_offset() {
    let (at, msg) = err(&[0x10, 0x40]);
    assert_eq!(at, 1, "{msg}");
    let (at, _) = err(&[0x10, 0x7f, 0x80, 0, 0]);
    assert_eq!(at, 1);
    let (at, _) = err(&[0x10, 0x05]);
    assert_eq!(at, 2);
}

#[test]
fn lengths_and_counts_past_the_end() {
    let e = decode(
        &[0x13, 0xf0, 0xff, 0xff, 0xff, 0xff, 0],
        &Options::default(),
    )
    .unwrap_err();
    assert_eq!(e.offset(), Some(1));
    assert!(matches!(
        e.kind(),
        ErrorKind::LengthPastEnd {
            declared: 0xffff_ffff,
            ..
        }
    ));
    // A list of 1000 doubles in 3 bytes.
    let e = decode(&[0x14, 0xf2, 0x83, 0xd9, 0], &Options::default()).unwrap_err();
    assert_eq!(e.offset(), Some(1));
    assert!(matches!(
        e.kind(),
        ErrorKind::LengthPastEnd { declared: 1000, .. }
    ));
    // A map claiming 200 entries.
    let e = decode(&[0x15, 0x00, 0x80, 0xc8, 0], &Options::default()).unwrap_err();
    assert_eq!(e.offset(), Some(2));
    assert_eq!(e.path_string(), "$[\"1\"]");
}

#[test]
fn tag_with_zero_delta_and_trailing_bytes() {
    let (at, msg) = err(&[0x10, 0x01, 0x02]);
    assert_eq!(at, 2, "{msg}");
    let e = decode(&[0x00, 0x00], &Options::default()).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::TrailingBytes { count: 1 }));
}

#[test]
fn nesting_depth_is_bounded() {
    // 2000 nested beans: field 1 of type bean, over and over.
    let mut b = vec![0x16; 2000];
    b.extend(vec![0; 2001]);
    let e = decode(&b, &Options::default()).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::DepthLimit { limit: 1024 }),
        "{e}"
    );
    assert_eq!(e.offset(), Some(1024));
    // Within a smaller limit it decodes when shallow enough.
    let small = [0x16, 0x16, 0, 0, 0];
    assert!(decode(&small, &Options { max_depth: 3 }).is_ok());
    assert!(decode(&small, &Options { max_depth: 2 }).is_err());
}

#[test]
fn encode_refuses_unordered_ids() {
    let b = Bean::new(vec![
        Field {
            id: 2,
            value: Value::Integer(1),
        },
        Field {
            id: 1,
            value: Value::Integer(1),
        },
    ]);
    assert!(encode(&b).is_err());
}

fn sample_frames() -> Vec<Frame> {
    let bean = Bean::new(vec![Field {
        id: 1,
        value: Value::Integer(150),
    }]);
    vec![
        Frame {
            module_id: 1,
            protocol_id: 0x1234_5678,
            payload: Payload::Body(Body {
                family: Family::Protocol,
                result_code: None,
                session_id: None,
                bean: bean.clone(),
            }),
        },
        Frame {
            module_id: 11,
            protocol_id: 7,
            payload: Payload::Body(Body {
                family: Family::Response,
                result_code: Some(-3),
                session_id: Some(1 << 40),
                bean: Bean::default(),
            }),
        },
        Frame {
            module_id: 2,
            protocol_id: 3,
            payload: Payload::Raw(vec![0xfe, 0xfe]),
        },
    ]
}

#[test]
fn frame_bytes_are_exact() {
    let bytes = encode_frames(&sample_frames()).unwrap();
    // module 1, protocol 0x12345678, size 5, family 2, tag 0x10, 150 = 40 96, end 00.
    assert_eq!(
        &bytes[..17],
        &[1, 0, 0, 0, 0x78, 0x56, 0x34, 0x12, 5, 0, 0, 0, 2, 0x10, 0x40, 0x96, 0]
    );
    // family 0 | 0x20, result code -3, session id 2^40 (6 bytes: 0x7d = 0x7c + (v >> 40)), empty bean.
    assert_eq!(
        &bytes[17..],
        &[
            11, 0, 0, 0, 7, 0, 0, 0, 9, 0, 0, 0, 0x20, 0xfd, 0x7d, 0, 0, 0, 0, 0, 0, //
            2, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 0xfe, 0xfe
        ][..]
    );
    assert_eq!(
        decode_frames(&bytes, &FrameOptions::default()).unwrap(),
        sample_frames()
    );
}

#[test]
fn frame_split_across_reads() {
    let bytes = encode_frames(&sample_frames()).unwrap();
    for chunk in [1, 2, 5, 13, 100] {
        let mut r = FrameReader::new(FrameOptions::default());
        let mut got = Vec::new();
        for piece in bytes.chunks(chunk) {
            r.push(piece);
            while let Some(f) = r.next_frame().unwrap() {
                got.push(f);
            }
        }
        assert_eq!(got, sample_frames(), "chunk {chunk}");
        assert_eq!(r.pending(), 0);
    }
}

#[test]
fn incomplete_and_oversized_frames() {
    let bytes = encode_frames(&sample_frames()).unwrap();
    let e = decode_frames(&bytes[..bytes.len() - 1], &FrameOptions::default()).unwrap_err();
    assert_eq!(e.offset(), Some(bytes.len() - 1));
    assert_eq!(e.path_string(), "$[2]");
    let big = [1, 0, 0, 0, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f];
    let e = decode_frames(&big, &FrameOptions::default()).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::SizeLimit { .. }));
    assert_eq!(e.offset(), Some(8));
}

#[test]
fn deep_but_allowed_nesting_decodes_encodes_and_converts() {
    // 1000 nested beans (under the 1024 limit), and 500 nested lists of beans.
    let mut b = vec![0x16; 1000];
    b.extend(vec![0; 1001]);
    let bean = decode(&b, &Options::default()).unwrap();
    assert_eq!(encode(&bean).unwrap(), b);
    let j = gamewire_zeze::json::bean_to_json(&bean);
    let back = gamewire_zeze::json::bean_from_json(&j).unwrap();
    assert_eq!(encode(&back).unwrap(), b);
    let mut l = Vec::new();
    for _ in 0..500 {
        l.extend([0x14, 0x16]); // field 1: list of 1 bean
    }
    l.extend(vec![0; 501]);
    let bean = decode(&l, &Options::default()).unwrap();
    assert_eq!(encode(&bean).unwrap(), l);
}

/// A list item whose type differs from the list's element type is refused, naming the
/// item (for integer lists, written by their own loop, and for others).
#[test]
fn encode_refuses_list_items_of_another_type() {
    use gamewire_zeze::{encode, Bean, Field, Value, WireType};
    for (elem, items) in [
        (
            WireType::Integer,
            vec![Value::Integer(1), Value::Bytes(vec![1])],
        ),
        (
            WireType::Bytes,
            vec![Value::Bytes(vec![]), Value::Integer(1)],
        ),
    ] {
        let bean = Bean::new(vec![Field {
            id: 1,
            value: Value::List { elem, items },
        }]);
        let e = encode(&bean).unwrap_err();
        assert_eq!(e.path_string(), "$[\"1\"][1]");
        assert!(e.to_string().contains("header says"), "{e}");
    }
}

#[test]
fn frame_streams_are_recognised_by_content() {
    let stream = encode_frames(&sample_frames()).unwrap();
    let n = sample_frames().len();
    assert_eq!(gamewire_zeze::frame::probe_frames(&stream), Some(n));
    // Cut short, grown, or not frames at all: not claimed.
    let probe = gamewire_zeze::frame::probe_frames;
    assert_eq!(probe(&stream[..stream.len() - 1]), None);
    let mut longer = stream.clone();
    longer.push(0);
    assert_eq!(probe(&longer), None);
    assert_eq!(probe(b"{\"a\": 1}"), None);
    assert_eq!(probe(&[]), None);
}

/// The serde frame reader (`frame_typed::read`) reads a frame's head as `decode_body`
/// does: the same errors, offsets and messages, on a bad family class, a header with
/// bits past the result-code bit and a session id cut short; the same size limit as
/// `decode_frame`; and the writer refuses a wrong session id as `encode_body` does.
#[test]
fn typed_frames_read_and_write_the_head_as_the_tree_frames_do() {
    use gamewire_zeze::frame_typed::{self, FrameHead};
    use gamewire_zeze::varint::write_long;
    #[derive(serde::Deserialize, serde::Serialize, Debug, PartialEq)]
    struct Empty {}
    fn frame_of(body: &[u8]) -> Vec<u8> {
        let mut f = vec![1, 0, 0, 0, 2, 0, 0, 0];
        f.extend_from_slice(&(body.len() as u32).to_le_bytes());
        f.extend_from_slice(body);
        f
    }
    let opts = FrameOptions::default();
    let mut bodies = Vec::new();
    for header in [3i64, 64, 2 | BIT_RESULT_CODE | 64] {
        let mut b = Vec::new();
        write_long(&mut b, header);
        b.push(0);
        bodies.push(b);
    }
    // A request whose session id runs past the body.
    let mut b = Vec::new();
    write_long(&mut b, 1);
    b.push(0x80);
    bodies.push(b);
    for body in &bodies {
        let want = decode_body(body, HEADER_SIZE, &opts.bean).unwrap_err();
        let got = frame_typed::read::<Empty>(&frame_of(body), &opts).unwrap_err();
        assert_eq!(
            (got.offset(), got.to_string()),
            (want.offset(), want.to_string()),
            "{body:?}"
        );
    }
    // A good frame reads; an oversized one is refused at the size field, as
    // decode_frame refuses it.
    let good = frame_of(&[0x02, 0x00]);
    let (head, _, n) = frame_typed::read::<Empty>(&good, &opts).unwrap().unwrap();
    assert_eq!((head.module_id, head.protocol_id, n), (1, 2, good.len()));
    assert_eq!(head.family, Family::Protocol);
    let small = FrameOptions {
        max_frame_size: 1,
        ..opts
    };
    let got = frame_typed::read::<Empty>(&good, &small).unwrap_err();
    let want = decode_frame(&good, 0, &small).unwrap_err();
    assert_eq!(
        (got.offset(), got.to_string()),
        (want.offset(), want.to_string())
    );
    assert_eq!(got.offset(), Some(8));
    // Writing: the same refusals as encode_body, and nothing left behind.
    for (family, session_id) in [(Family::Protocol, Some(5)), (Family::Request, None)] {
        let head = FrameHead {
            module_id: 1,
            protocol_id: 2,
            family,
            result_code: None,
            session_id,
        };
        let mut out = vec![9];
        let got = frame_typed::write(&head, &Empty {}, &mut out).unwrap_err();
        assert_eq!(out, [9]);
        let body = Body {
            family,
            result_code: None,
            session_id,
            bean: Bean::new(vec![]),
        };
        let want = encode_body(&body, &mut Vec::new()).unwrap_err();
        assert_eq!(got.to_string(), want.to_string());
    }
}

#[test]
fn truncated_values_say_what_was_read_and_why_it_does_not_fit() {
    // 0x7f then a byte with its top bit set: a 9-byte integer, with 7 bytes after its
    // first where it needs 8.
    let (at, msg) = err(&[0x10, 0x7f, 0xff, 1, 2, 3, 4, 5, 6]);
    assert_eq!(at, 1, "{msg}");
    assert!(
        msg.contains("a 9-byte compact integer needs 8 more byte(s) after its first, 7 left"),
        "{msg}"
    );
    assert!(!msg.contains("needed 1 more"), "{msg}");
    // A double (id 1, type 2) with 7 of its 8 bytes.
    let (at, msg) = err(&[0x12, 1, 2, 3, 4, 5, 6, 7]);
    assert_eq!(at, 1, "{msg}");
    assert!(msg.contains("a double needs 8 bytes, 7 left"), "{msg}");
    // A float with 3 of its 4.
    let (_, msg) = err(&[0x11, 1, 2, 3]);
    assert!(msg.contains("a float needs 4 bytes, 3 left"), "{msg}");
    // A first byte that needs its second to tell the length, and nothing after it.
    let (_, msg) = err(&[0x10, 0x7f]);
    assert!(msg.contains("announces 8 or more bytes"), "{msg}");
}
