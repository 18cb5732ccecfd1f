//! `serve::accept_loop` keeps serving when `accept` fails: a server process limited to 64
//! file descriptors gets 100 clients at once (so `accept` fails with `EMFILE`), logs it,
//! and once the clients have gone it serves a new one. The server runs in a child process
//! (this test binary run again, selecting `server_child`), so the limit is its own.
#![cfg(unix)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Set in the child's environment: `server_child` runs the server instead of returning.
const CHILD: &str = "GAMEWIRE_NET_SERVE_CHILD";

/// The server side: under `RLIMIT_NOFILE` 64, an echo server on `accept_loop`, its address
/// printed on standard output. Runs until killed.
#[test]
fn server_child() {
    if std::env::var_os(CHILD).is_none() {
        return;
    }
    let (_, hard) = rlimit::getrlimit(rlimit::Resource::NOFILE).unwrap();
    rlimit::setrlimit(rlimit::Resource::NOFILE, 64, hard).unwrap();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        println!("listening on {}", listener.local_addr().unwrap());
        std::io::stdout().flush().unwrap();
        let _ = gamewire_net::serve::accept_loop(listener, |mut socket, _peer| async move {
            let (mut r, mut w) = socket.split();
            let _ = tokio::io::copy(&mut r, &mut w).await;
        })
        .await;
    });
}

/// Connects to `addr`, sends `ping` and reads it back.
fn echo(addr: &str) -> std::io::Result<()> {
    let mut s = TcpStream::connect(addr)?;
    s.set_read_timeout(Some(Duration::from_secs(2)))?;
    s.write_all(b"ping")?;
    let mut got = [0u8; 4];
    s.read_exact(&mut got)?;
    assert_eq!(&got, b"ping");
    Ok(())
}

#[test]
fn the_server_keeps_serving_after_running_out_of_file_descriptors() {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "server_child", "--nocapture", "--test-threads=1"])
        .env(CHILD, "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let addr = loop {
        let line = lines
            .next()
            .expect("the server prints its address")
            .unwrap();
        // After libtest's `test server_child ... ` on the same line.
        if let Some((_, a)) = line.split_once("listening on ") {
            break a.trim().to_owned();
        }
    };
    echo(&addr).unwrap();
    // 100 clients at once: more than the server's 64 descriptors.
    let clients: Vec<TcpStream> = (0..100)
        .map(|_| TcpStream::connect(&addr).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        child.try_wait().unwrap().is_none(),
        "the server exited when accept failed"
    );
    drop(clients);
    // Once they have gone, a new client is served (within a few back-offs).
    let start = Instant::now();
    let mut served = echo(&addr);
    while served.is_err() && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(100));
        served = echo(&addr);
    }
    let alive = child.try_wait().unwrap().is_none();
    let _ = child.kill();
    let _ = child.wait();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert!(alive, "the server exited: {stderr}");
    served.unwrap_or_else(|e| panic!("not served after the clients left: {e}\n{stderr}"));
    // The failure was logged, with the retry.
    assert!(
        stderr.contains("accept: ") && stderr.contains("retrying in 100 ms"),
        "{stderr}"
    );
    assert!(stderr.contains("Too many open files"), "{stderr}");
}
