//! Echo server for Godot framed values: every value a TCP client sends with
//! `StreamPeer.put_var` / `PacketPeerStream.put_var` is decoded and sent back unchanged.
//!
//! ```text
//! cargo run --release -p gamewire-net --example godot-echo -- 127.0.0.1:7000 [--godot3]
//! ```
//!
//! Wire version 4 by default; `--godot3` for Godot 3.x clients. A client that sends a
//! frame over 16 MiB or bytes that are not a Variant is told nothing and dropped.

use futures_util::{SinkExt, StreamExt};
use gamewire_godot::Version;
use gamewire_net::serve::accept_loop;
use gamewire_net::GodotCodec;
use tokio::net::TcpListener;
use tokio_util::codec::Framed;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let mut addr = None;
    let mut version = Version::V4;
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--godot3" => version = Version::V3,
            "--godot4" => version = Version::V4,
            a if addr.is_none() => addr = Some(a.to_owned()),
            a => {
                eprintln!("unexpected argument {a:?}; usage: godot-echo ADDR [--godot3]");
                std::process::exit(2);
            }
        }
    }
    let addr = addr.unwrap_or_else(|| "127.0.0.1:7000".into());
    let listener = TcpListener::bind(&addr).await?;
    println!(
        "godot-echo: Godot {} framed values on {}",
        version.major(),
        listener.local_addr()?
    );
    // An `accept` that fails (out of file descriptors) is logged and retried after
    // 100 ms: the server keeps serving.
    match accept_loop(listener, move |socket, peer| async move {
        let mut frames = Framed::new(socket, GodotCodec::new(version));
        let mut count = 0u64;
        while let Some(item) = frames.next().await {
            let sent = match item {
                Ok(value) => frames.send(&value).await,
                Err(e) => Err(e),
            };
            if let Err(e) = sent {
                eprintln!("{peer}: {e}; dropped after {count} value(s)");
                return;
            }
            count += 1;
        }
        println!("{peer}: closed after {count} value(s)");
    })
    .await {}
}
