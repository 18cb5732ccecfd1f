//! Each codec on in-memory streams: values round-trip, a stream cut at every byte
//! boundary (and fed a byte at a time) decodes the same as whole, several frames in one
//! read, the frame limit from the header alone, end of stream inside a frame, garbage.

use bytes::BytesMut;
use gamewire_core::ErrorKind;
use gamewire_godot::{Dictionary, Real, Value, Version};
use gamewire_net::*;
use gamewire_zeze::frame::{Family, Payload};
use gamewire_zeze::frame_typed::FrameHead;
use gamewire_zeze::schema::Schema;
use gamewire_zeze::types::{Binary, Vector2, Vector3Int};
use std::fmt::Debug;
use std::sync::Arc;
use tokio_util::codec::{Decoder, Encoder};

#[allow(dead_code, clippy::all)]
mod fixtures {
    include!("../../gamewire-zeze/tests/generated/fixtures.rs");
}
use fixtures::*;

const SCHEMA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../samples/zeze/zeze-solution.xml"
);

/// Feeds `pieces` one after another as reads, then ends the stream.
fn feed<D: Decoder<Error = Error>>(mut codec: D, pieces: &[&[u8]]) -> Result<Vec<D::Item>> {
    let mut buf = BytesMut::new();
    let mut out = Vec::new();
    for p in pieces {
        buf.extend_from_slice(p);
        while let Some(x) = codec.decode(&mut buf)? {
            out.push(x);
        }
    }
    while let Some(x) = codec.decode_eof(&mut buf)? {
        out.push(x);
    }
    Ok(out)
}

/// The stream decodes to `expected` whole, cut in two at every byte boundary, and fed
/// one byte at a time.
fn check_cuts<D>(codec: D, stream: &[u8], expected: &[D::Item])
where
    D: Decoder<Error = Error> + Clone,
    D::Item: PartialEq + Debug,
{
    assert_eq!(feed(codec.clone(), &[stream]).unwrap(), expected, "whole");
    for cut in 0..=stream.len() {
        let got = feed(codec.clone(), &[&stream[..cut], &stream[cut..]]).unwrap();
        assert_eq!(got, expected, "cut at byte {cut}");
    }
    let bytes: Vec<&[u8]> = stream.chunks(1).collect();
    assert_eq!(feed(codec, &bytes).unwrap(), expected, "a byte at a time");
}

/// Encodes every item into one buffer (several frames for one read).
fn encode_all<E: Encoder<I, Error = Error>, I>(codec: &mut E, items: Vec<I>) -> Vec<u8> {
    let mut out = BytesMut::new();
    for i in items {
        codec.encode(i, &mut out).unwrap();
    }
    out.to_vec()
}

fn godot_values(version: Version) -> Vec<Value> {
    vec![
        Value::Int(7),
        Value::Nil,
        Value::String("héllo 中".into()),
        Value::from(vec![
            Value::Bool(true),
            Value::Float(0.1),
            Value::Int(1 << 40),
        ]),
        Value::Dictionary(Dictionary::new(vec![
            ("name".into(), "A".into()),
            ("pos".into(), Value::Vector2(Real::F32([1.5, -2.0]))),
        ])),
        Value::PackedByteArray(vec![1, 2, 3]),
        if version == Version::V4 {
            Value::StringName("n".into())
        } else {
            Value::Color([0.0, 0.5, 1.0, 1.0])
        },
    ]
}

#[test]
fn godot_values_round_trip_at_every_cut() {
    for version in [Version::V3, Version::V4] {
        let values = godot_values(version);
        let stream = encode_all(&mut GodotCodec::new(version), values.iter().collect());
        // The bytes are the engine's: length prefix, then `var2bytes`.
        let mut pos = 0;
        for v in &values {
            let len = u32::from_le_bytes(stream[pos..pos + 4].try_into().unwrap()) as usize;
            let body =
                gamewire_godot::encode(v, &gamewire_godot::EncodeOptions::new(version)).unwrap();
            assert_eq!(&stream[pos + 4..pos + 4 + len], &body[..]);
            pos += 4 + len;
        }
        assert_eq!(pos, stream.len());
        check_cuts(GodotCodec::new(version), &stream, &values);
    }
}

#[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug, Clone)]
struct Player {
    name: String,
    hp: i32,
    pos: (f32, f32),
    tags: Vec<String>,
}

#[test]
fn godot_serde_round_trips_at_every_cut() {
    for version in [Version::V3, Version::V4] {
        let players: Vec<Player> = (0..3)
            .map(|i| Player {
                name: format!("p{i}"),
                hp: 100 - i,
                pos: (i as f32, -1.5),
                tags: vec!["a".into(); i as usize],
            })
            .collect();
        let mut codec = GodotSerdeCodec::<Player>::new(version);
        let stream = encode_all(&mut codec, players.iter().collect());
        check_cuts(GodotSerdeCodec::<Player>::new(version), &stream, &players);
        // The serde frames are the same bytes as the tree's: the tree codec reads them.
        let tree = feed(GodotCodec::new(version), &[&stream]).unwrap();
        let Value::Dictionary(d) = &tree[1] else {
            panic!("{:?}", tree[1])
        };
        assert_eq!(d.get("hp"), Some(&Value::Int(99)));
    }
}

#[test]
fn godot_limit_is_enforced_from_the_length_alone() {
    let mut codec = GodotCodec::new(Version::V3).with_max_frame(1000);
    // A huge announced length and nothing else: refused at once, nothing reserved.
    let mut buf = BytesMut::from(&[0xff, 0xff, 0xff, 0x7f][..]);
    let err = codec.decode(&mut buf).unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::SizeLimit {
                size: 0x7fff_ffff,
                limit: 1000,
                ..
            }
        ),
        "{err}"
    );
    assert!(buf.capacity() < 1000, "reserved {}", buf.capacity());
    // The same limit after some good frames: the offset is the stream's.
    let mut stream = encode_all(&mut GodotCodec::new(Version::V3), vec![Value::Int(1)]);
    stream.extend_from_slice(&2000u32.to_le_bytes());
    let err = feed(
        GodotCodec::new(Version::V3).with_max_frame(1000),
        &[&stream],
    )
    .unwrap_err();
    assert_eq!(err.offset(), Some(12), "{err}");
    // Exactly at the limit is accepted; one byte over is not sent.
    let big = Value::PackedByteArray(vec![9; 992]); // 4 header + 4 count + 992 = 1000
    let mut out = BytesMut::new();
    let mut codec = GodotCodec::new(Version::V3).with_max_frame(1000);
    codec.encode(&big, &mut out).unwrap();
    assert_eq!(out.len(), 1004);
    let mut small = GodotCodec::new(Version::V3).with_max_frame(999);
    assert!(small.encode(&big, &mut BytesMut::new()).is_err());
    assert_eq!(feed(codec, &[&out]).unwrap(), vec![big]);
}

#[test]
fn godot_eof_inside_a_frame_is_an_error() {
    let stream = encode_all(
        &mut GodotCodec::new(Version::V4),
        vec![Value::Int(1), Value::String("abcdef".into())],
    );
    let first = 12;
    // A clean end between frames is not an error.
    assert_eq!(
        feed(GodotCodec::new(Version::V4), &[&stream[..first]])
            .unwrap()
            .len(),
        1
    );
    for cut in first + 1..stream.len() {
        let err = feed(GodotCodec::new(Version::V4), &[&stream[..cut]]).unwrap_err();
        let ErrorKind::UnexpectedEof { needed, .. } = err.kind() else {
            panic!("cut {cut}: {err}")
        };
        // Until the length is in, what the header still needs; then the frame's rest.
        let want = if cut < first + 4 {
            first + 4 - cut
        } else {
            stream.len() - cut
        };
        assert_eq!(*needed, want, "cut {cut}: {err}");
        assert_eq!(err.offset(), Some(cut), "cut {cut}: {err}");
    }
}

#[test]
fn godot_garbage_is_an_error_with_its_stream_offset() {
    let mut stream = encode_all(&mut GodotCodec::new(Version::V3), vec![Value::Int(1)]);
    stream.extend_from_slice(&[8, 0, 0, 0, 0xee, 0, 0, 0, 1, 2, 3, 4]); // type 0xee
    let err = feed(GodotCodec::new(Version::V3), &[&stream]).unwrap_err();
    assert_eq!(err.offset(), Some(16), "{err}");
    // A value shorter than its frame.
    let err = feed(
        GodotCodec::new(Version::V3),
        &[&[12, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0]],
    )
    .unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::TrailingBytes { count: 4 }),
        "{err}"
    );
    // Serde into the wrong type.
    let err = feed(
        GodotSerdeCodec::<Player>::new(Version::V3),
        &[&stream[..12]],
    )
    .unwrap_err();
    assert!(err.offset().is_some(), "{err}");
}

fn zeze_protocols() -> (Vec<u8>, Vec<(FrameHead, BSimple)>) {
    let simple = |i: i32| BSimple {
        i,
        l: -(i as i64) << 40,
        s: format!("s{i}"),
        f: 1.5,
        d: -2.0,
        b: i % 2 == 0,
        bin: Binary(vec![i as u8; i as usize]),
    };
    let mut stream = Vec::new();
    let mut items = Vec::new();
    for i in 0..4 {
        let p = Simple {
            argument: simple(i),
        };
        p.write_frame(&mut stream).unwrap();
        items.push((head_of(Family::Protocol, None), p.argument));
    }
    (stream, items)
}

fn head_of(family: Family, session_id: Option<i64>) -> FrameHead {
    FrameHead {
        module_id: Simple::MODULE_ID,
        protocol_id: Simple::PROTOCOL_ID,
        family,
        result_code: None,
        session_id,
    }
}

/// Generated Rpc frames: a request and a response with a result code.
fn zeze_rpcs() -> Vec<u8> {
    let rpc = Outer {
        argument: BOuter {
            inner: BInner {
                x: 3,
                name: "in".into(),
            },
            ints: vec![1, -2, 300],
            pos: Vector2([0.5, 2.0]),
            cell: Vector3Int([1, 2, 3]),
            tags: vec!["t".into()],
            ..Default::default()
        },
        result: BInner {
            x: -9,
            name: "out".into(),
        },
    };
    let mut out = Vec::new();
    rpc.write_request(77, &mut out).unwrap();
    rpc.write_response(77, Some(5), &mut out).unwrap();
    out
}

#[test]
fn zeze_tree_frames_round_trip_at_every_cut() {
    let (mut stream, _) = zeze_protocols();
    stream.extend_from_slice(&zeze_rpcs());
    // A body outside the standard layout is kept raw.
    stream.extend_from_slice(&[9, 0, 0, 0, 8, 0, 0, 0, 2, 0, 0, 0, 0xff, 0xff]);
    let frames = feed(ZezeCodec::new(), &[&stream]).unwrap();
    assert_eq!(frames.len(), 7);
    assert!(matches!(frames[6].payload, Payload::Raw(ref r) if r == &[0xff, 0xff]));
    let Payload::Body(b) = &frames[5].payload else {
        panic!()
    };
    assert_eq!(
        (b.family, b.session_id, b.result_code),
        (Family::Response, Some(77), Some(5))
    );
    // Writing the trees back gives the same bytes.
    assert_eq!(
        encode_all(&mut ZezeCodec::new(), frames.iter().collect()),
        stream
    );
    check_cuts(ZezeCodec::new(), &stream, &frames);
}

#[test]
fn zeze_typed_frames_are_generated_types() {
    let (stream, items) = zeze_protocols();
    check_cuts(ZezeTypedCodec::<BSimple>::new(), &stream, &items);
    let mut codec = ZezeTypedCodec::<BSimple>::new();
    let again = encode_all(&mut codec, items.iter().map(|(h, b)| (*h, b)).collect());
    assert_eq!(again, stream);
    // Raw frames hand each frame's bytes to the generated reader.
    let mut mixed = stream.clone();
    mixed.extend_from_slice(&zeze_rpcs());
    let raw = feed(ZezeRawCodec::new(), &[&mixed]).unwrap();
    assert_eq!(raw.len(), 6);
    let opts = gamewire_zeze::frame::FrameOptions::default();
    for (r, (_, bean)) in raw.iter().zip(&items) {
        let (p, _, n) = Simple::read_frame(&r.bytes, &opts).unwrap().unwrap();
        assert_eq!((&p.argument, n), (bean, r.bytes.len()));
    }
    assert_eq!((raw[4].module_id, raw[4].protocol_id), (1, 200));
    let (req, head, _) = Outer::read_request(&raw[4].bytes, &opts).unwrap().unwrap();
    assert_eq!(
        (req.argument.ints, head.session_id),
        (vec![1, -2, 300], Some(77))
    );
    assert_eq!(
        encode_all(&mut ZezeRawCodec::new(), raw.iter().collect()),
        mixed
    );
    check_cuts(ZezeRawCodec::new(), &mixed, &raw);
}

#[test]
fn zeze_schema_frames_are_named_and_typed() {
    let schema = Arc::new(Schema::from_xml(&std::fs::read_to_string(SCHEMA).unwrap()).unwrap());
    let (mut stream, _) = zeze_protocols();
    stream.extend_from_slice(&zeze_rpcs());
    let frames = feed(ZezeSchemaCodec::new(schema.clone()), &[&stream]).unwrap();
    assert_eq!(frames.len(), 6);
    assert_eq!(frames[1].protocol, "fixtures.outer.Simple");
    assert_eq!(frames[1].bean["s"], "s1");
    assert_eq!(frames[4].head.family, Family::Request);
    assert_eq!(frames[4].bean["inner"]["name"], "in");
    assert_eq!(frames[5].bean["name"], "out");
    let mut codec = ZezeSchemaCodec::new(schema.clone());
    assert_eq!(encode_all(&mut codec, frames.iter().collect()), stream);
    check_cuts(ZezeSchemaCodec::new(schema.clone()), &stream, &frames);
    // A protocol the solution does not declare.
    let mut unknown = stream[..12].to_vec();
    unknown[4] = 99;
    unknown.extend_from_slice(
        &stream[12..u32::from_le_bytes(stream[8..12].try_into().unwrap()) as usize + 12],
    );
    let err = feed(ZezeSchemaCodec::new(schema), &[&unknown]).unwrap_err();
    assert!(err.to_string().contains("protocol id 99"), "{err}");
}

#[test]
fn zeze_limit_eof_and_garbage() {
    // The limit from the header alone.
    let mut header = vec![1, 0, 0, 0, 100, 0, 0, 0];
    header.extend_from_slice(&0x4000_0000u32.to_le_bytes());
    let mut buf = BytesMut::from(&header[..]);
    let err = ZezeCodec::new().decode(&mut buf).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::SizeLimit { .. }), "{err}");
    assert_eq!(err.offset(), Some(8));
    assert!(buf.capacity() < 1 << 20);
    let err = ZezeTypedCodec::<BSimple>::new()
        .with_max_frame(10)
        .decode(&mut BytesMut::from(&zeze_protocols().0[..]))
        .unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::SizeLimit { limit: 10, .. }),
        "{err}"
    );
    // End of stream inside a frame, in the header and in the body.
    let (stream, _) = zeze_protocols();
    let first = 12 + u32::from_le_bytes(stream[8..12].try_into().unwrap()) as usize;
    for cut in [first + 1, first + 11, first + 12, stream.len() - 1] {
        let err = feed(ZezeCodec::new(), &[&stream[..cut]]).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::UnexpectedEof { .. }),
            "cut {cut}: {err}"
        );
        assert_eq!(err.offset(), Some(cut));
        let err = feed(ZezeRawCodec::new(), &[&stream[..cut]]).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::UnexpectedEof { .. }),
            "cut {cut}: {err}"
        );
    }
    // A typed bean that does not decode: the offset is in the stream.
    let mut bad = stream[..first].to_vec();
    bad.extend_from_slice(&[1, 0, 0, 0, 100, 0, 0, 0, 3, 0, 0, 0, 2, 0xff, 0xff]);
    let err = feed(ZezeTypedCodec::<BSimple>::new(), &[&bad]).unwrap_err();
    assert!(err.offset().is_some_and(|o| o >= first), "{err}");
}
