//! A restart of the server under an open game in a real headless Chromium: the page says it
//! is reconnecting, still loads from its service worker while the server is down, and shows
//! the game again once a server runs on the same port with the same database.
//!
//! Needs `chromium` and `chromedriver`, as tests/browser.rs does.

mod chrome;
mod common;

use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use chrome::{browser, chromedriver, free_port, page_size, screenshot, start_driver, wait_within};
use common::{Server, temp_dir};
use serde_json::{Value, json};

fn s(v: &Value) -> String {
    v.as_str().unwrap_or_default().to_owned()
}

/// A server with a runtime of its own, as a process of its own would be: stopping it ends
/// every task it started, its WebSockets too.
struct Process {
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Process {
    fn start(addr: SocketAddr, db: &Path) -> Process {
        let db = db.to_owned();
        let (ready, started) = std::sync::mpsc::channel();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async {
                let _server = Server::at(addr, &db).await;
                ready.send(()).unwrap();
                let _ = stopped.await;
            });
            runtime.shutdown_timeout(Duration::from_secs(5));
        });
        started
            .recv_timeout(Duration::from_secs(30))
            .expect("the server starts");
        Process {
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    /// Ends the server and every connection to it at once.
    fn kill(mut self) {
        self.end();
    }

    fn end(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            thread.join().unwrap();
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.end();
    }
}

async fn post(base: &str, path: &str, body: Value) -> (u16, Value) {
    let r = reqwest::Client::new()
        .post(format!("{base}{path}"))
        .json(&body)
        .send()
        .await
        .unwrap();
    (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
}

/// The notice of the top bar says the page is reconnecting.
const RECONNECTING: &str = "const c = document.getElementById('conn');
    return c.dataset.state === 'offline' && c.textContent === 'Reconnecting…';";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_reconnects_through_a_restart_of_the_server() {
    let Some(program) = chromedriver() else {
        return;
    };
    let dir = temp_dir("browser-restart");
    let db = dir.join("games.db");
    let addr = SocketAddr::from(([127, 0, 0, 1], free_port()));
    let base = format!("http://{addr}");
    let server = Process::start(addr, &db);
    let (status, created) = post(&base, "/api/games", json!({"opponent": "local"})).await;
    assert_eq!(status, 201, "{created}");
    let (id, token) = (s(&created["id"]), s(&created["token"]));
    for ply in ["d6", "f4"] {
        let body = json!({"move": ply, "token": token});
        let (status, game) = post(&base, &format!("/api/games/{id}/moves"), body).await;
        assert_eq!(status, 200, "{game}");
    }
    let driver = start_driver(&program).await;
    let client = browser(&driver, &dir.join("profile")).await;
    page_size(&client, 390, 844).await;
    client
        .goto(&format!("{base}/g/{id}?t={token}"))
        .await
        .unwrap();
    let shown = "return document.getElementById('board').dataset.version === '3' &&
        document.getElementById('status').textContent === 'White: Place a piece.' &&
        document.getElementById('conn').dataset.state === 'live';";
    wait_within(
        &client,
        shown,
        "the game is shown live",
        Duration::from_secs(30),
    )
    .await;
    // The service worker keeps the page's files once it controls the page.
    wait_within(
        &client,
        "return navigator.serviceWorker.controller !== null;",
        "the service worker controls the page",
        Duration::from_secs(30),
    )
    .await;

    server.kill();
    wait_within(
        &client,
        RECONNECTING,
        "the page says it is reconnecting",
        Duration::from_secs(30),
    )
    .await;
    screenshot(&client, "reconnecting-390x844.png").await;
    // A new visit while the server is down: the worker's copy of the page loads and waits.
    client.refresh().await.unwrap();
    wait_within(
        &client,
        &format!(
            "return document.getElementById('btn-new').textContent === 'New game' && (() => {{ {RECONNECTING} }})();"
        ),
        "the page loads from the service worker and says it is reconnecting",
        Duration::from_secs(30),
    )
    .await;

    let server = Process::start(addr, &db);
    // The page tries again after at most 10 s (its waits double from 1 s), its socket after
    // at most 15 s.
    wait_within(
        &client,
        shown,
        "the page recovers: the notice is gone and the game is shown",
        Duration::from_secs(45),
    )
    .await;
    client.close().await.unwrap();
    server.kill();
    let _ = std::fs::remove_dir_all(dir);
}
