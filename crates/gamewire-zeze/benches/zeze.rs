//! Varint-heavy beans: 1,000,000 records (ints, a string, a small list) decoded and
//! encoded by gamewire-zeze (serde straight to bean bytes, and the schema-less tree),
//! side by side with postcard on the same Rust records and a plain copy of the bytes.
//!
//! Run: `cargo bench -p gamewire-zeze --bench zeze`.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use serde::{Deserialize, Serialize};

include!("common/records.rs");

const N: usize = 1_000_000;

fn bench(c: &mut Criterion) {
    let batch = records(N);
    let zeze = gamewire_zeze::to_bytes(&batch).unwrap();
    let post = postcard::to_allocvec(&batch).unwrap();
    assert_eq!(gamewire_zeze::from_bytes::<Batch>(&zeze).unwrap(), batch);
    assert_eq!(postcard::from_bytes::<Batch>(&post).unwrap(), batch);
    eprintln!("zeze bytes: {}, postcard bytes: {}", zeze.len(), post.len());

    let mut g = c.benchmark_group("decode");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(zeze.len() as u64));
    g.bench_function("zeze serde (owned String)", |b| {
        b.iter(|| gamewire_zeze::from_bytes::<Batch>(black_box(&zeze)).unwrap())
    });
    g.bench_function("zeze serde (borrowed &str)", |b| {
        b.iter(|| gamewire_zeze::from_bytes::<BatchRef>(black_box(&zeze)).unwrap())
    });
    g.bench_function("zeze tree (schema-less)", |b| {
        b.iter(|| gamewire_zeze::decode(black_box(&zeze), &Default::default()).unwrap())
    });
    g.bench_function("zeze walk (validate, no allocation)", |b| {
        b.iter(|| {
            let mut c = gamewire_zeze::cursor::Cursor::new(black_box(&zeze));
            gamewire_zeze::skip_bean(&mut c, &Default::default(), 0).unwrap()
        })
    });
    g.bench_function("zeze view (borrowed, every value visited)", |b| {
        b.iter(|| visit_view(black_box(&zeze)))
    });
    g.bench_function("copy of the zeze bytes", |b| {
        b.iter(|| black_box(&zeze).to_vec())
    });
    g.throughput(Throughput::Bytes(post.len() as u64));
    g.bench_function("postcard serde (owned String)", |b| {
        b.iter(|| postcard::from_bytes::<Batch>(black_box(&post)).unwrap())
    });
    g.bench_function("postcard serde (borrowed &str)", |b| {
        b.iter(|| postcard::from_bytes::<BatchRef>(black_box(&post)).unwrap())
    });
    g.finish();

    let mut g = c.benchmark_group("encode");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(zeze.len() as u64));
    g.bench_function("zeze serde", |b| {
        b.iter(|| {
            let mut out = Vec::with_capacity(zeze.len());
            gamewire_zeze::to_writer(black_box(&batch), &mut out).unwrap();
            out
        })
    });
    let tree = gamewire_zeze::decode(&zeze, &Default::default()).unwrap();
    g.bench_function("zeze tree", |b| {
        b.iter(|| gamewire_zeze::encode(black_box(&tree)).unwrap())
    });
    // Into a buffer kept from one iteration to the next: the codec alone. A fresh
    // buffer of the Zeze size (36 MB) is past glibc's largest mmap threshold (32 MiB), so
    // it is mapped and page-faulted anew every iteration, while postcard's 29 MB one is
    // reused from the heap after the first free: the rows above compare that too.
    let mut out = Vec::with_capacity(zeze.len());
    g.bench_function("zeze serde (reused buffer)", |b| {
        b.iter(|| {
            out.clear();
            gamewire_zeze::to_writer(black_box(&batch), &mut out).unwrap();
            out.len()
        })
    });
    g.throughput(Throughput::Bytes(post.len() as u64));
    g.bench_function("postcard serde", |b| {
        b.iter(|| postcard::to_extend(black_box(&batch), Vec::with_capacity(post.len())).unwrap())
    });
    let mut buf = Some(Vec::with_capacity(post.len()));
    g.bench_function("postcard serde (reused buffer)", |b| {
        b.iter(|| {
            let mut v = buf.take().unwrap_or_default();
            v.clear();
            let v = postcard::to_extend(black_box(&batch), v).unwrap();
            let n = v.len();
            buf = Some(v);
            n
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
