//! Seat tokens travel in headers (never in URLs), WebSockets open only from the site itself,
//! and a WebSocket closes with the code that says why.

mod common;

use common::{Server, next_game, send};
use futures_util::StreamExt;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::Request;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::{Error, Message};

fn ws_request(server: &Server, id: &str, headers: &[(&'static str, String)]) -> Request<()> {
    let url = format!(
        "{}/api/games/{id}/ws",
        server.base.replacen("http", "ws", 1)
    );
    let mut request = url.into_client_request().unwrap();
    for (k, v) in headers {
        request.headers_mut().insert(*k, v.parse().unwrap());
    }
    request
}

#[tokio::test]
async fn tokens_are_read_from_headers_and_subprotocols_not_from_urls() {
    let server = Server::in_memory().await;
    let created = server.create(json!({"opponent": "friend"})).await;
    let id = created["id"].as_str().unwrap();
    let black = created["invite"].as_str().unwrap();
    let game = format!("/api/games/{id}");

    assert_eq!(server.get_as(&game, black).await.1["you"], "black");
    let r = reqwest::Client::new()
        .get(server.url(&game))
        .header("X-Morris-Token", black)
        .send()
        .await
        .unwrap();
    assert_eq!(r.json::<Value>().await.unwrap()["you"], "black");
    let (_, in_url) = server.get(&format!("{game}?token={black}")).await;
    assert_eq!(in_url["you"], Value::Null, "a token in a URL is not read");

    let request = ws_request(
        &server,
        id,
        &[("sec-websocket-protocol", format!("morris, token.{black}"))],
    );
    let (mut socket, response) = tokio_tungstenite::connect_async(request).await.unwrap();
    assert_eq!(response.headers()["sec-websocket-protocol"], "morris");
    assert_eq!(next_game(&mut socket).await["you"], "black");
    server.stop().await;
}

#[tokio::test]
async fn websockets_from_another_site_are_refused() {
    let server = Server::in_memory().await;
    let created = server.create(json!({"opponent": "local"})).await;
    let id = created["id"].as_str().unwrap();
    let host = server.base.trim_start_matches("http://").to_owned();

    let foreign = ws_request(&server, id, &[("origin", "http://evil.example".into())]);
    match tokio_tungstenite::connect_async(foreign).await {
        Err(Error::Http(response)) => assert_eq!(response.status(), 403),
        other => panic!("a foreign origin was not refused: {other:?}"),
    }
    let own = ws_request(&server, id, &[("origin", format!("http://{host}"))]);
    let (mut socket, _) = tokio_tungstenite::connect_async(own).await.unwrap();
    assert_eq!(next_game(&mut socket).await["id"], created["id"]);
    server.stop().await;
}

/// The close code of the server's close frame, read from a raw socket.
async fn close_code_after(stream: &mut TcpStream) -> u16 {
    let mut frame = Vec::new();
    let mut buf = [0u8; 1024];
    loop {
        let n = tokio::time::timeout(std::time::Duration::from_secs(10), stream.read(&mut buf))
            .await
            .expect("the server answers within 10 s")
            .unwrap();
        assert!(n > 0, "closed without a close frame: {frame:?}");
        frame.extend_from_slice(&buf[..n]);
        // Skip whole text frames (the GAME sent at connection), stop at a close frame.
        while frame.len() >= 2 {
            let len = usize::from(frame[1] & 0x7f);
            let (head, len) = match len {
                126 if frame.len() >= 4 => {
                    (4, usize::from(u16::from_be_bytes([frame[2], frame[3]])))
                }
                126 => break,
                127 => panic!("no frame this large is sent"),
                n => (2, n),
            };
            if frame.len() < head + len {
                break;
            }
            if frame[0] & 0x0f == 0x8 {
                return u16::from_be_bytes([frame[head], frame[head + 1]]);
            }
            frame.drain(..head + len);
        }
    }
}

#[tokio::test]
async fn protocol_errors_close_with_1002_and_oversized_messages_with_1009() {
    let server = Server::in_memory().await;
    let created = server.create(json!({"opponent": "local"})).await;
    let id = created["id"].as_str().unwrap();

    let mut stream = TcpStream::connect(server.base.trim_start_matches("http://"))
        .await
        .unwrap();
    let handshake = format!(
        "GET /api/games/{id}/ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\n\
         Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    );
    stream.write_all(handshake.as_bytes()).await.unwrap();
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let mut byte = [0u8; 1];
        stream.read_exact(&mut byte).await.unwrap();
        head.push(byte[0]);
    }
    assert!(head.starts_with(b"HTTP/1.1 101"));
    // A frame of the reserved opcode 0xB, masked, empty.
    stream.write_all(&[0x8b, 0x80, 1, 2, 3, 4]).await.unwrap();
    assert_eq!(close_code_after(&mut stream).await, 1002);

    let mut socket = server.watch(id).await;
    next_game(&mut socket).await;
    send(&mut socket, &"x".repeat(5000)).await;
    let code = loop {
        match socket.next().await {
            Some(Ok(Message::Close(Some(frame)))) => break frame.code,
            Some(Ok(_)) => {}
            other => panic!("no close frame: {other:?}"),
        }
    };
    assert_eq!(code, CloseCode::Size);
    server.stop().await;
}
