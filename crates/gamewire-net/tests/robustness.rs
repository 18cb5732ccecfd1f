//! Many concurrent clients over loopback against an echo server on the codecs: good
//! clients keep getting exact echoes while others announce huge frames, send garbage,
//! close mid-frame or sit on half a frame at the limit. Each bad connection is dropped
//! with an error, and no connection's read buffer grows past one frame at the limit
//! plus one read. Bounded in time.

use bytes::BytesMut;
use futures_util::{SinkExt, StreamExt};
use gamewire_godot::{Value, Version};
use gamewire_net::{Error, GodotCodec, ZezeCodec};
use gamewire_zeze::frame::{Body, Family, Frame, Payload};
use gamewire_zeze::{Bean, Field};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::codec::{Decoder, Encoder, Framed};

const LIMIT: usize = 64 << 10;
/// FramedRead's own first read buffer.
const READ_CHUNK: usize = 8 << 10;

/// A codec that records the largest read buffer any connection had.
#[derive(Clone)]
struct Tracked<C> {
    inner: C,
    max_buffer: Arc<AtomicUsize>,
}

impl<C: Decoder> Decoder for Tracked<C> {
    type Item = C::Item;
    type Error = C::Error;
    fn decode(&mut self, buf: &mut BytesMut) -> Result<Option<C::Item>, C::Error> {
        let r = self.inner.decode(buf);
        self.max_buffer.fetch_max(buf.capacity(), Ordering::Relaxed);
        r
    }
    fn decode_eof(&mut self, buf: &mut BytesMut) -> Result<Option<C::Item>, C::Error> {
        self.inner.decode_eof(buf)
    }
}

impl<I, C: Encoder<I>> Encoder<I> for Tracked<C> {
    type Error = C::Error;
    fn encode(&mut self, item: I, dst: &mut BytesMut) -> Result<(), C::Error> {
        self.inner.encode(item, dst)
    }
}

#[derive(Default)]
struct Stats {
    clean: AtomicUsize,
    dropped: AtomicUsize,
}

/// Echo server: every item goes back; a connection whose stream errs is dropped.
async fn serve<C>(listener: TcpListener, codec: C, stats: Arc<Stats>)
where
    C: Decoder<Error = Error> + Encoder<<C as Decoder>::Item, Error = Error>,
    C: Clone + Send + 'static,
    <C as Decoder>::Item: Send,
{
    loop {
        let Ok((socket, _)) = listener.accept().await else {
            return;
        };
        let codec = codec.clone();
        let stats = stats.clone();
        tokio::spawn(async move {
            let mut frames = Framed::new(socket, codec);
            while let Some(item) = frames.next().await {
                let sent = match item {
                    Ok(v) => frames.send(v).await,
                    Err(e) => Err(e),
                };
                if sent.is_err() {
                    stats.dropped.fetch_add(1, Ordering::Relaxed);
                    return;
                }
            }
            stats.clean.fetch_add(1, Ordering::Relaxed);
        });
    }
}

/// Reads until the server closes the connection (EOF or reset), within 5 s.
async fn expect_closed(mut s: TcpStream, what: &str) {
    let mut sink = [0u8; 256];
    let closed = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match s.read(&mut sink).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    })
    .await;
    assert!(
        closed.is_ok(),
        "{what}: the server kept the connection open"
    );
}

/// Runs `good` well-behaved clients (each `good_client(i)`) beside the bad ones.
async fn run_mix<C, G, Fut>(codec: C, header: Vec<u8>, garbage: Vec<u8>, good_client: G)
where
    C: Decoder<Error = Error> + Encoder<<C as Decoder>::Item, Error = Error>,
    C: Clone + Send + 'static,
    <C as Decoder>::Item: Send,
    G: Fn(std::net::SocketAddr, usize) -> Fut,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    let header_len = header.len();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let max_buffer = Arc::new(AtomicUsize::new(0));
    let stats = Arc::new(Stats::default());
    let tracked = Tracked {
        inner: codec,
        max_buffer: max_buffer.clone(),
    };
    let server = tokio::spawn(serve(listener, tracked, stats.clone()));
    let announce = move |size: u32| {
        let mut h = header.clone();
        let at = h.len() - 4;
        h[at..].copy_from_slice(&size.to_le_bytes());
        h
    };

    // Five clients each sit on half a frame of exactly the limit until the end.
    let mut holders = Vec::new();
    for _ in 0..5 {
        let mut s = TcpStream::connect(addr).await.unwrap();
        s.write_all(&announce(LIMIT as u32)).await.unwrap();
        s.write_all(&vec![0x55; LIMIT / 2]).await.unwrap();
        holders.push(s);
    }
    let mut tasks = Vec::new();
    for i in 0..30 {
        tasks.push(tokio::spawn(good_client(addr, i)));
    }
    for i in 0..15 {
        let announce = announce.clone();
        let garbage = garbage.clone();
        tasks.push(tokio::spawn(async move {
            let mut s = TcpStream::connect(addr).await.unwrap();
            match i % 3 {
                0 => {
                    // 4 GiB announced: refused from the header alone.
                    s.write_all(&announce(u32::MAX)).await.unwrap();
                    expect_closed(s, "huge length").await;
                }
                1 => {
                    s.write_all(&garbage).await.unwrap();
                    expect_closed(s, "garbage").await;
                }
                _ => {
                    // Closes in the middle of a frame.
                    s.write_all(&announce(1000)).await.unwrap();
                    s.write_all(&[1; 10]).await.unwrap();
                    s.shutdown().await.unwrap();
                    expect_closed(s, "mid-frame close").await;
                }
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    drop(holders); // EOF inside their frames: errors too
                   // Wait (up to 10 s, on a loaded machine) for the server to see every connection end.
    for _ in 0..1000 {
        if stats.clean.load(Ordering::Relaxed) + stats.dropped.load(Ordering::Relaxed) >= 50 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    server.abort();
    // 30 good clients closed cleanly; 15 bad and 5 half-frame ones were dropped.
    assert_eq!(stats.clean.load(Ordering::Relaxed), 30);
    assert_eq!(stats.dropped.load(Ordering::Relaxed), 20);
    // The read buffer grows to hold one frame of at most the limit, reserved as the
    // bytes come: never past a whole frame plus one read.
    let max = max_buffer.load(Ordering::Relaxed);
    assert!(
        max <= LIMIT + header_len + READ_CHUNK,
        "a connection buffered {max} bytes"
    );
    assert!(max >= LIMIT / 2, "the half frames were buffered: {max}");
    eprintln!("largest read buffer of any connection: {max} bytes (limit {LIMIT})");
}

fn godot_value(client: usize, i: usize) -> Value {
    match i % 4 {
        0 => Value::Int((client * 1000 + i) as i64),
        1 => Value::String(format!("client {client} value {i}").into()),
        2 => Value::from(vec![Value::Float(i as f64 / 3.0), Value::Bool(true)]),
        // Bigger than one read: arrives in pieces.
        _ => Value::PackedByteArray(vec![client as u8; 20_000 + i]),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn godot_server_survives_bad_clients() {
    let codec = GodotCodec::new(Version::V4).with_max_frame(LIMIT);
    // Garbage: a small frame whose type id is no Variant's.
    let garbage = vec![8, 0, 0, 0, 0xee, 0, 0, 0, 1, 2, 3, 4];
    let run = run_mix(codec, vec![0; 4], garbage, |addr, client| async move {
        let s = TcpStream::connect(addr).await.unwrap();
        let mut frames = Framed::new(s, GodotCodec::new(Version::V4));
        for i in 0..40 {
            frames.feed(godot_value(client, i)).await.unwrap();
        }
        SinkExt::<Value>::flush(&mut frames).await.unwrap();
        for i in 0..40 {
            let back = frames.next().await.unwrap().unwrap();
            assert_eq!(back, godot_value(client, i), "client {client} value {i}");
        }
    });
    tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .expect("the robustness run did not finish in 60 s");
}

fn zeze_frame(client: usize, i: usize) -> Frame {
    let text = "x".repeat(if i % 4 == 3 { 20_000 } else { i });
    Frame {
        module_id: 1,
        protocol_id: 100 + (i % 3) as u32,
        payload: Payload::Body(Body {
            family: if i % 2 == 0 {
                Family::Protocol
            } else {
                Family::Request
            },
            result_code: None,
            session_id: (i % 2 == 1).then_some((client * 1000 + i) as i64),
            bean: Bean::new(vec![
                Field {
                    id: 1,
                    value: gamewire_zeze::Value::Integer((client * 1000 + i) as i64),
                },
                Field {
                    id: 2,
                    value: gamewire_zeze::Value::string(&text),
                },
            ]),
        }),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn zeze_server_survives_bad_clients() {
    let codec = ZezeCodec::new().with_max_frame(LIMIT);
    // Garbage: pseudo-random bytes. A stream frame has no magic number, so what gives
    // garbage away is its header's size (bodies that are not in the standard layout are
    // kept raw, not refused).
    let mut x = 0x2545_f491_4f6c_dd1d_u64;
    let garbage: Vec<u8> = (0..64)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect();
    assert!(u32::from_le_bytes(garbage[8..12].try_into().unwrap()) as usize > LIMIT);
    let run = run_mix(codec, vec![0; 12], garbage, |addr, client| async move {
        let s = TcpStream::connect(addr).await.unwrap();
        let mut frames = Framed::new(s, ZezeCodec::new());
        for i in 0..40 {
            frames.feed(zeze_frame(client, i)).await.unwrap();
        }
        SinkExt::<Frame>::flush(&mut frames).await.unwrap();
        for i in 0..40 {
            let back = frames.next().await.unwrap().unwrap();
            assert_eq!(back, zeze_frame(client, i), "client {client} frame {i}");
        }
    });
    tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .expect("the robustness run did not finish in 60 s");
}
