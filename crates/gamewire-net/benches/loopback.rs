//! Throughput of each codec over loopback TCP: a client streams N frames of one value to
//! an echo server built on the same codec (decode, then encode back) while reading the
//! echoes; frames per second and MB/s (one direction's wire bytes) are the medians of
//! several runs. Small and large values for each codec. Beside each, the same codec in
//! memory on one thread (encode then decode the same frames, no socket): the echo does
//! each of those twice (client and server) and crosses the kernel four times.
//!
//! `cargo bench -p gamewire-net --bench loopback` (`-- FILTER` runs the cases whose name
//! contains FILTER; GAMEWIRE_BENCH_RUNS sets the runs per case, default 5).

use bytes::BytesMut;
use futures_util::{SinkExt, StreamExt};
use gamewire_godot::{Dictionary, Real, Value, Version};
use gamewire_net::*;
use gamewire_zeze::frame::Family;
use gamewire_zeze::frame_typed::FrameHead;
use gamewire_zeze::schema::Schema;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::codec::{Decoder, Encoder, Framed, FramedRead, FramedWrite};

#[allow(dead_code, clippy::all)]
mod fixtures {
    include!("../../gamewire-zeze/tests/generated/fixtures.rs");
}
use fixtures::*;

const SCHEMA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../samples/zeze/zeze-solution.xml"
);

/// Streams `n` copies of `item` through an echo server; returns the time for all echoes.
async fn round<C>(codec: C, item: C::Item, n: usize) -> Duration
where
    C: Decoder<Error = Error> + Encoder<<C as Decoder>::Item, Error = Error>,
    C: Clone + Send + Unpin + 'static,
    <C as Decoder>::Item: Clone + Send + 'static,
{
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server_codec = codec.clone();
    let server = tokio::spawn(async move {
        let (s, _) = listener.accept().await.unwrap();
        s.set_nodelay(true).unwrap();
        let mut frames = Framed::new(s, server_codec);
        while let Some(item) = frames.next().await {
            frames.feed(item.unwrap()).await.unwrap();
            // Flush when no more input is buffered, as a server would.
            if frames.read_buffer().is_empty() {
                SinkExt::<<C as Decoder>::Item>::flush(&mut frames)
                    .await
                    .unwrap();
            }
        }
        SinkExt::<<C as Decoder>::Item>::flush(&mut frames)
            .await
            .unwrap();
    });
    let s = TcpStream::connect(addr).await.unwrap();
    s.set_nodelay(true).unwrap();
    let (r, w) = s.into_split();
    let start = Instant::now();
    let writer = {
        let codec = codec.clone();
        tokio::spawn(async move {
            let mut out = FramedWrite::new(w, codec);
            for _ in 0..n {
                out.feed(item.clone()).await.unwrap();
            }
            SinkExt::<<C as Decoder>::Item>::flush(&mut out)
                .await
                .unwrap();
            out
        })
    };
    let mut input = FramedRead::new(r, codec);
    let mut got = 0;
    while got < n {
        input.next().await.unwrap().unwrap();
        got += 1;
    }
    let elapsed = start.elapsed();
    drop(writer.await.unwrap());
    drop(input);
    server.await.unwrap();
    elapsed
}

fn wire_size<I, C: Encoder<I>>(codec: &mut C, item: I) -> usize
where
    C::Error: std::fmt::Debug,
{
    let mut b = BytesMut::new();
    codec.encode(item, &mut b).unwrap();
    b.len()
}

struct Report {
    runs: usize,
    filter: Option<String>,
}

impl Report {
    fn case<C>(&self, rt: &tokio::runtime::Runtime, name: &str, codec: C, item: C::Item, n: usize)
    where
        C: Decoder<Error = Error> + Encoder<<C as Decoder>::Item, Error = Error>,
        C: Clone + Send + Unpin + 'static,
        <C as Decoder>::Item: Clone + Send + 'static,
    {
        if self
            .filter
            .as_ref()
            .is_some_and(|f| !name.contains(f.as_str()))
        {
            return;
        }
        let size = wire_size(&mut codec.clone(), item.clone());
        rt.block_on(round(codec.clone(), item.clone(), n.min(100))); // warm-up
        let mut times: Vec<f64> = (0..self.runs)
            .map(|_| {
                rt.block_on(round(codec.clone(), item.clone(), n))
                    .as_secs_f64()
            })
            .collect();
        times.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let t = times[times.len() / 2];
        // The same codec in memory on one thread: encode n clones, then decode them.
        let mut alone: Vec<f64> = (0..self.runs)
            .map(|_| {
                let mut c = codec.clone();
                let mut buf = BytesMut::new();
                let start = Instant::now();
                for _ in 0..n {
                    c.encode(item.clone(), &mut buf).unwrap();
                }
                let mut got = 0;
                while c.decode(&mut buf).unwrap().is_some() {
                    got += 1;
                }
                assert_eq!(got, n);
                start.elapsed().as_secs_f64()
            })
            .collect();
        alone.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let a = alone[alone.len() / 2];
        println!(
            "{name:<18} {size:>7} B/frame | loopback echo {:>9.0} frames/s {:>7.1} MB/s | codec alone {:>9.0} frames/s {:>7.1} MB/s | median of {}, {n} frames, loopback min {:.3}s max {:.3}s",
            n as f64 / t,
            (n * size) as f64 / t / 1e6,
            n as f64 / a,
            (n * size) as f64 / a / 1e6,
            self.runs,
            times[0],
            times[times.len() - 1],
        );
    }
}

#[derive(serde::Serialize, serde::Deserialize, Clone, PartialEq, Debug)]
struct Player {
    name: String,
    hp: i64,
    pos: (f32, f32),
    alive: bool,
}

fn player(i: usize) -> Player {
    Player {
        name: format!("player{i}"),
        hp: 100 - (i % 100) as i64,
        pos: (i as f32 * 0.5, -(i as f32)),
        alive: i % 7 != 0,
    }
}

fn player_value(p: &Player) -> Value {
    Value::Dictionary(Dictionary::new(vec![
        ("name".into(), Value::String(p.name.as_str().into())),
        ("hp".into(), Value::Int(p.hp)),
        ("pos".into(), Value::Vector2(Real::F32([p.pos.0, p.pos.1]))),
        ("alive".into(), Value::Bool(p.alive)),
    ]))
}

fn main() {
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let runs = std::env::var("GAMEWIRE_BENCH_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(5);
    let report = Report { runs, filter };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    const LARGE: usize = 5000;
    const SMALL_N: usize = 50_000;
    const LARGE_N: usize = 100;

    let players: Vec<Player> = (0..LARGE).map(player).collect();
    let small_value = player_value(&players[1]);
    let large_value = Value::from(players.iter().map(player_value).collect::<Vec<_>>());
    let v4 = GodotCodec::new(Version::V4);
    report.case(&rt, "godot value small", v4.clone(), small_value, SMALL_N);
    report.case(&rt, "godot value large", v4, large_value, LARGE_N);
    let serde = GodotSerdeCodec::<Player>::new(Version::V4);
    report.case(&rt, "godot serde small", serde, players[1].clone(), SMALL_N);
    let serde = GodotSerdeCodec::<Vec<Player>>::new(Version::V4);
    report.case(&rt, "godot serde large", serde, players.clone(), LARGE_N);

    // Zeze: the samples' Simple protocol (small) and an Outer request whose argument
    // holds LARGE inner beans (large), through each view of the frames.
    let simple = Simple {
        argument: BSimple {
            i: 150,
            l: -1 << 40,
            s: "hello".into(),
            f: 1.5,
            d: -2.0,
            b: true,
            bin: gamewire_zeze::types::Binary(vec![1, 2, 3]),
        },
    };
    let outer = BOuter {
        beans: (0..LARGE)
            .map(|i| BInner {
                x: i as i32,
                name: format!("bean{i}"),
            })
            .collect(),
        ints: (0..LARGE as i32).collect(),
        ..Default::default()
    };
    let mut small_bytes = Vec::new();
    simple.write_frame(&mut small_bytes).unwrap();
    let mut large_bytes = Vec::new();
    Outer {
        argument: outer.clone(),
        ..Default::default()
    }
    .write_request(9, &mut large_bytes)
    .unwrap();
    let tree = |b: &[u8]| {
        ZezeCodec::new()
            .decode(&mut BytesMut::from(b))
            .unwrap()
            .unwrap()
    };
    report.case(
        &rt,
        "zeze tree small",
        ZezeCodec::new(),
        tree(&small_bytes),
        SMALL_N,
    );
    report.case(
        &rt,
        "zeze tree large",
        ZezeCodec::new(),
        tree(&large_bytes),
        LARGE_N,
    );
    let head = |id, family, session_id| FrameHead {
        module_id: 1,
        protocol_id: id,
        family,
        result_code: None,
        session_id,
    };
    report.case(
        &rt,
        "zeze typed small",
        ZezeTypedCodec::<BSimple>::new(),
        (head(100, Family::Protocol, None), simple.argument.clone()),
        SMALL_N,
    );
    report.case(
        &rt,
        "zeze typed large",
        ZezeTypedCodec::<BOuter>::new(),
        (head(200, Family::Request, Some(9)), outer),
        LARGE_N,
    );
    let schema = Arc::new(Schema::from_xml(&std::fs::read_to_string(SCHEMA).unwrap()).unwrap());
    let named = |b: &[u8]| {
        ZezeSchemaCodec::new(schema.clone())
            .decode(&mut BytesMut::from(b))
            .unwrap()
            .unwrap()
    };
    let codec = ZezeSchemaCodec::new(schema.clone());
    report.case(
        &rt,
        "zeze schema small",
        codec.clone(),
        named(&small_bytes),
        SMALL_N,
    );
    report.case(
        &rt,
        "zeze schema large",
        codec,
        named(&large_bytes),
        LARGE_N,
    );
    let raw = |b: &[u8]| {
        ZezeRawCodec::new()
            .decode(&mut BytesMut::from(b))
            .unwrap()
            .unwrap()
    };
    report.case(
        &rt,
        "zeze raw small",
        ZezeRawCodec::new(),
        raw(&small_bytes),
        10 * SMALL_N, // splitting alone is fast: more frames for a measurable run
    );
    report.case(
        &rt,
        "zeze raw large",
        ZezeRawCodec::new(),
        raw(&large_bytes),
        100 * LARGE_N,
    );
}
