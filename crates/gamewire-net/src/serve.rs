//! A TCP accept loop that keeps serving when `accept` fails.
//!
//! `listener.accept().await?` in a server's loop ends the server for every client the
//! first time `accept` fails, and it fails for reasons that pass: the process is out of
//! file descriptors (`EMFILE`, too many clients at once under `ulimit -n`), the system is
//! (`ENFILE`), memory or buffers are short, or a client reset its connection before it was
//! accepted. [`accept_loop`] logs such a failure, waits ([`ACCEPT_BACKOFF`], so that a
//! lasting shortage does not spin the CPU) and accepts again; the clients already
//! connected are served all along, and as they leave their descriptors come back.
//!
//! ```no_run
//! use futures_util::{SinkExt, StreamExt};
//! use gamewire_net::{serve::accept_loop, ZezeCodec};
//! use tokio_util::codec::Framed;
//!
//! # async fn run() -> std::io::Result<()> {
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:7001").await?;
//! // Never returns: the result is `Infallible`.
//! match accept_loop(listener, |socket, _peer| async move {
//!     let mut frames = Framed::new(socket, ZezeCodec::new());
//!     while let Some(Ok(frame)) = frames.next().await {
//!         if frames.send(&frame).await.is_err() {
//!             break;
//!         }
//!     }
//! })
//! .await {}
//! # }
//! ```

use std::future::Future;
use std::io::ErrorKind;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};

/// How long [`accept_loop`] waits after `accept` fails for lack of a resource (file
/// descriptors, memory) before it tries again: 100 ms.
pub const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);

/// Whether an `accept` error is about the one connection (the client gave up before it
/// was accepted), so that the next `accept` may succeed at once.
fn connection_error(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        ErrorKind::ConnectionAborted | ErrorKind::ConnectionReset | ErrorKind::ConnectionRefused
    )
}

/// Accepts connections on `listener` forever, running `handle(socket, peer)` as a task of
/// its own for each (`tokio::spawn`). An `accept` that fails never ends the loop: the
/// error is logged on standard error, and unless it concerns only that connection the
/// loop waits [`ACCEPT_BACKOFF`] before accepting again (see the [module](self) docs).
pub async fn accept_loop<F, Fut>(listener: TcpListener, handle: F) -> std::convert::Infallible
where
    F: FnMut(TcpStream, SocketAddr) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    accept_loop_with(listener, handle, |e| {
        if connection_error(e) {
            eprintln!("accept: {e}; accepting the next connection");
        } else {
            eprintln!(
                "accept: {e}; retrying in {} ms (serving the connected clients meanwhile)",
                ACCEPT_BACKOFF.as_millis()
            );
        }
    })
    .await
}

/// [`accept_loop`] with a log function of your own, called with each `accept` error
/// (before the wait).
pub async fn accept_loop_with<F, Fut, L>(
    listener: TcpListener,
    mut handle: F,
    mut log: L,
) -> std::convert::Infallible
where
    F: FnMut(TcpStream, SocketAddr) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
    L: FnMut(&std::io::Error),
{
    loop {
        match listener.accept().await {
            Ok((socket, peer)) => {
                tokio::spawn(handle(socket, peer));
            }
            Err(e) => {
                log(&e);
                if !connection_error(&e) {
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                }
            }
        }
    }
}
