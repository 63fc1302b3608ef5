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
        .write_all(b"GET /api/variants HTTP/1.1\r\nHost: localhost\r\n")
        .await
        .unwrap();
    let mut half_body = connect(&server).await;
    half_body
        .write_all(
            b"POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
              Content-Length: 100\r\n\r\n{\"opp",
        )
        .await
        .unwrap();
    let mut idle = connect(&server).await;
    idle.write_all(b"GET /api/variants HTTP/1.1\r\nHost: localhost\r\n\r\n")
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
                .write_all(
                    b"GET /api/variants HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
                )
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

/// Opens a game's WebSocket from the loopback address `from` (127.0.0.x): the answer's
/// status, and the socket when it opened.
async fn socket_from(
    server: &Server,
    id: &str,
    from: [u8; 4],
) -> (u16, Option<tokio_tungstenite::WebSocketStream<TcpStream>>) {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(std::net::SocketAddr::from((from, 0))).unwrap();
    let addr = server.base.trim_start_matches("http://").parse().unwrap();
    let stream = socket.connect(addr).await.unwrap();
    let url = format!("ws://{addr}/api/games/{id}/ws");
    match tokio_tungstenite::client_async(url, stream).await {
        Ok((ws, answer)) => (answer.status().as_u16(), Some(ws)),
        Err(tokio_tungstenite::tungstenite::Error::Http(answer)) => {
            (answer.status().as_u16(), None)
        }
        Err(e) => panic!("{e}"),
    }
}

/// A page's request from the loopback address `from`: its status.
async fn variants_from(server: &Server, from: [u8; 4]) -> u16 {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(std::net::SocketAddr::from((from, 0))).unwrap();
    let addr = server.base.trim_start_matches("http://").parse().unwrap();
    let mut stream = socket.connect(addr).await.unwrap();
    stream
        .write_all(b"GET /api/variants HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let (answer, _) = until_closed(&mut stream).await;
    let head = String::from_utf8_lossy(&answer);
    head.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0)
}

#[tokio::test]
async fn held_websockets_from_many_addresses_never_lock_pages_out() {
    log();
    let limits = Limits {
        connections: ConnectionLimits {
            max: 6,
            per_addr: 6,
            ..ConnectionLimits::default()
        },
        max_sockets: 100,
        sockets_per_addr: 2,
        ..Limits::default()
    };
    let server = Server::start(Path::new(":memory:"), limits).await;
    let created = server
        .create(serde_json::json!({"opponent": "friend"}))
        .await;
    let id = created["id"].as_str().unwrap().to_owned();
    // Four addresses hold two sockets each: more than the HTTP connections allowed in all.
    let mut held = Vec::new();
    for host in 2..6 {
        for _ in 0..2 {
            let (status, socket) = socket_from(&server, &id, [127, 0, 0, host]).await;
            assert_eq!(status, 101, "socket {} from 127.0.0.{host}", held.len() + 1);
            held.push(socket.unwrap());
        }
    }
    let (status, refused) = socket_from(&server, &id, [127, 0, 0, 2]).await;
    assert_eq!(status, 503, "a third socket from one address");
    assert!(refused.is_none());
    for host in [6, 7] {
        assert_eq!(
            variants_from(&server, [127, 0, 0, host]).await,
            200,
            "pages are served"
        );
    }
    assert_eq!(server.app.sockets.open(), 8);
    drop(held);
    server.stop().await;
}

#[tokio::test]
async fn a_websocket_that_says_nothing_is_closed_after_the_idle_time() {
    use futures_util::StreamExt;
    log();
    let limits = Limits {
        socket_idle: Duration::from_millis(300),
        ..Limits::default()
    };
    let server = Server::start(Path::new(":memory:"), limits).await;
    let created = server
        .create(serde_json::json!({"opponent": "friend"}))
        .await;
    let id = created["id"].as_str().unwrap();
    let mut socket = server.watch(id).await;
    let closed = tokio::time::timeout(Duration::from_secs(10), async {
        while let Some(Ok(message)) = socket.next().await {
            if let tokio_tungstenite::tungstenite::Message::Close(frame) = message {
                return frame.map(|f| (u16::from(f.code), f.reason.to_string()));
            }
        }
        None
    })
    .await
    .expect("the idle socket is closed");
    assert_eq!(closed, Some((1008, "idle".to_owned())));
    let given_back = tokio::time::timeout(Duration::from_secs(5), async {
        while server.app.sockets.open() > 0 {
            tokio::task::yield_now().await;
        }
    })
    .await;
    assert!(given_back.is_ok(), "its room is given back");
    server.stop().await;
}

#[tokio::test]
async fn a_large_head_is_refused_and_a_body_that_drips_is_cut_off() {
    log();
    let limits = Limits {
        body_time: Duration::from_millis(300),
        ..Limits::default()
    };
    let server = Server::start(Path::new(":memory:"), limits).await;

    let mut big = connect(&server).await;
    let filler = "x".repeat(200 * 1024);
    let head =
        format!("GET /api/variants HTTP/1.1\r\nHost: localhost\r\nX-Filler: {filler}\r\n\r\n");
    let _ = big.write_all(head.as_bytes()).await;
    let (answer, _) = until_closed(&mut big).await;
    let answer = String::from_utf8_lossy(&answer).into_owned();
    assert!(answer.starts_with("HTTP/1.1 431"), "{answer:.80}");

    let mut slow = connect(&server).await;
    slow.write_all(
        b"POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
          Content-Length: 40\r\nConnection: close\r\n\r\n{",
    )
    .await
    .unwrap();
    let dripping = async {
        // A byte every 100 ms: never silent long enough for the idle limit.
        for _ in 0..30 {
            tokio::time::sleep(Duration::from_millis(100)).await;
            if slow.write_all(b" ").await.is_err() {
                break;
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(2), dripping).await;
    let (answer, _) = until_closed(&mut slow).await;
    let answer = String::from_utf8_lossy(&answer).into_owned();
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("too slowly"), "{answer}");
    server.stop().await;
}

/// The status of `GET /api/variants` naming `host`.
async fn status_for_host(server: &Server, host: &str) -> String {
    let mut stream = connect(server).await;
    let head = format!("GET /api/variants HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
    stream.write_all(head.as_bytes()).await.unwrap();
    let (answer, _) = until_closed(&mut stream).await;
    String::from_utf8_lossy(&answer).into_owned()
}

#[tokio::test]
async fn only_the_servers_own_host_names_are_answered() {
    log();
    let mut config = morris_server::Config::new(
        "127.0.0.1:0".parse().unwrap(),
        std::path::PathBuf::from(":memory:"),
    );
    config.public_names = vec!["play.example.org".into()];
    let server = Server::with_config(config).await;
    let port = server.base.rsplit(':').next().unwrap().to_owned();
    for host in [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        "[::1]".to_owned(),
        "play.example.org".to_owned(),
    ] {
        let answer = status_for_host(&server, &host).await;
        assert!(answer.starts_with("HTTP/1.1 200"), "{host}: {answer:.60}");
    }
    let answer = status_for_host(&server, "rebind.attacker.example").await;
    assert!(answer.starts_with("HTTP/1.1 421"), "{answer}");
    assert!(answer.contains("--public-name"), "{answer}");
    server.stop().await;
}
