//! Echo server for Zeze protocol frames: every frame a TCP client sends is decoded (as a
//! schema-less tree) and sent back unchanged.
//!
//! ```text
//! cargo run --release -p gamewire-net --example zeze-echo -- 127.0.0.1:7001
//! ```
//!
//! A client that sends a body over 16 MiB (Zeze's default `InputBufferMaxProtocolSize`)
//! or a frame that cannot be read is dropped.

use futures_util::{SinkExt, StreamExt};
use gamewire_net::serve::accept_loop;
use gamewire_net::ZezeCodec;
use tokio::net::TcpListener;
use tokio_util::codec::Framed;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:7001".into());
    let listener = TcpListener::bind(&addr).await?;
    println!("zeze-echo: protocol frames on {}", listener.local_addr()?);
    // An `accept` that fails (out of file descriptors) is logged and retried after
    // 100 ms: the server keeps serving.
    match accept_loop(listener, move |socket, peer| async move {
        let mut frames = Framed::new(socket, ZezeCodec::new());
        let mut count = 0u64;
        while let Some(item) = frames.next().await {
            let sent = match item {
                Ok(frame) => frames.send(&frame).await,
                Err(e) => Err(e),
            };
            if let Err(e) = sent {
                eprintln!("{peer}: {e}; dropped after {count} frame(s)");
                return;
            }
            count += 1;
        }
        println!("{peer}: closed after {count} frame(s)");
    })
    .await {}
}
