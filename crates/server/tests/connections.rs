//! Connections that send nothing, send half a request, or stay idle are closed in time; more
//! connections than allowed (from one address, or in all) are refused; and the log says so.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::{Server, log, logged};
use morris_server::{ConnectionLimits, Limits};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

async fn server(connections: ConnectionLimits) -> Server {
    log();
    let limits = Limits {
        connections,
        ..Limits::default()
    };
    Server::start(Path::new(":memory:"), limits).await
}

fn short() -> ConnectionLimits {
    ConnectionLimits {
        header: Duration::from_millis(300),
        idle: Duration::from_millis(400),
        ..ConnectionLimits::default()
    }
}

async fn connect(server: &Server) -> TcpStream {
    TcpStream::connect(server.base.trim_start_matches("http://"))
        .await
        .unwrap()
}

/// Reads until the server closes the connection (or 5 s pass); what was read, and how long
/// it took.
async fn until_closed(stream: &mut TcpStream) -> (Vec<u8>, Duration) {
    let start = Instant::now();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return (got, start.elapsed()),
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
            Err(_) => panic!("the connection is still open after 5 s"),
        }
    }
}

#[tokio::test]
async fn silent_half_sent_and_idle_connections_are_closed_in_time() {
    let server = server(short()).await;
    let mut silent = connect(&server).await;
    let mut half_head = connect(&server).await;
    half_head
        .write_all(b"GET /api/variants HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    let mut half_body = connect(&server).await;
    half_body
        .write_all(
            b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
              Content-Length: 100\r\n\r\n{\"opp",
        )
        .await
        .unwrap();
    let mut idle = connect(&server).await;
    idle.write_all(b"GET /api/variants HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();

    let (_, waited) = until_closed(&mut silent).await;
    assert!(waited < Duration::from_secs(2), "{waited:?}");
    let (_, waited) = until_closed(&mut half_head).await;
    assert!(waited < Duration::from_secs(2), "{waited:?}");
    let (_, waited) = until_closed(&mut half_body).await;
    assert!(waited < Duration::from_secs(2), "{waited:?}");
    let (answer, waited) = until_closed(&mut idle).await;
    assert!(
        answer.starts_with(b"HTTP/1.1 200"),
        "the request was answered before the idle connection was closed"
    );
    assert!(waited < Duration::from_secs(2), "{waited:?}");
    assert!(logged("no request head in time"));
    assert!(logged("no byte moved for too long"));
    server.stop().await;
}

#[tokio::test]
async fn connections_over_the_limits_are_refused_and_others_still_served() {
    let server = server(ConnectionLimits {
        max: 6,
        per_addr: 4,
        ..ConnectionLimits::default()
    })
    .await;
    let mut held = Vec::new();
    for _ in 0..4 {
        held.push(connect(&server).await);
    }
    // The listener accepts in order: the fifth is counted after the four held.
    let mut fifth = connect(&server).await;
    let (answer, _) = until_closed(&mut fifth).await;
    let answer = String::from_utf8_lossy(&answer).into_owned();
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(answer.contains("too many connections"), "{answer}");
    assert!(logged("too many connections from one address"));
    drop(held.pop());
    // Once one closes, a new one is served again.
    let served = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            let mut stream = connect(&server).await;
            stream
                .write_all(b"GET /api/variants HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                .await
                .unwrap();
            let (answer, _) = until_closed(&mut stream).await;
            if answer.starts_with(b"HTTP/1.1 200") {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    assert!(served.is_ok(), "a connection is served after one closed");
    server.stop().await;
}
