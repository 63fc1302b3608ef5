//! A server on a free loopback port, and a small client of its API.

#![allow(dead_code, reason = "each test file uses a part of the helpers")]

pub mod visitor;

use std::io::Write;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use morris_server::accounts::HashCost;
use morris_server::{AppState, Config, Limits};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// A running server.
pub struct Server {
    pub base: String,
    pub app: Arc<AppState>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
}

impl Server {
    /// Starts a server on a database file (or `:memory:`) with these limits.
    pub async fn start(db: &Path, limits: Limits) -> Server {
        let mut config = Config::new("127.0.0.1:0".parse().unwrap(), db.to_owned());
        config.limits = limits;
        Server::with_config(config).await
    }

    /// Starts a server with a configuration (its address is replaced by a free port).
    pub async fn with_config(mut config: Config) -> Server {
        config.addr = "127.0.0.1:0".parse().unwrap();
        Server::listening(config).await
    }

    /// Starts a server on a database file at a given address: started again there after a
    /// stop, it is the same server restarted.
    pub async fn at(addr: std::net::SocketAddr, db: &Path) -> Server {
        Server::listening(Config::new(addr, db.to_owned())).await
    }

    async fn listening(config: Config) -> Server {
        let app = morris_server::open(&config).await.unwrap();
        let listener = tokio::net::TcpListener::bind(config.addr).await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn({
            let app = app.clone();
            async move {
                morris_server::serve(listener, app, async {
                    let _ = stopped.await;
                })
                .await
                .unwrap();
            }
        });
        Server {
            base,
            app,
            stop: Some(stop),
            task,
        }
    }

    /// A server on a database in memory with the default limits.
    pub async fn in_memory() -> Server {
        Server::start(Path::new(":memory:"), Limits::default()).await
    }

    /// Stops accepting and waits for the server to end.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let _ = tokio::time::timeout(Duration::from_secs(5), &mut self.task).await;
        self.task.abort();
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// `POST` a JSON body; the status and the JSON answer.
    pub async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        let r = client()
            .post(self.url(path))
            .json(&body)
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        (status, r.json().await.unwrap_or(Value::Null))
    }

    /// `GET` a JSON answer.
    pub async fn get(&self, path: &str) -> (u16, Value) {
        let r = client().get(self.url(path)).send().await.unwrap();
        let status = r.status().as_u16();
        (status, r.json().await.unwrap_or(Value::Null))
    }

    /// `GET` a text answer; panics unless it succeeds.
    pub async fn text(&self, path: &str) -> String {
        let r = client().get(self.url(path)).send().await.unwrap();
        assert!(r.status().is_success(), "{path}: {}", r.status());
        r.text().await.unwrap()
    }

    /// `GET` a JSON answer with a seat's token in the `Authorization` header.
    pub async fn get_as(&self, path: &str, token: &str) -> (u16, Value) {
        let r = client()
            .get(self.url(path))
            .bearer_auth(token)
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        (status, r.json().await.unwrap_or(Value::Null))
    }

    /// Creates a game; panics unless it is created.
    pub async fn create(&self, body: Value) -> Value {
        let (status, created) = self.post("/api/games", body).await;
        assert_eq!(status, 201, "{created}");
        created
    }

    /// Plays a ply; the status and the answer.
    pub async fn play(&self, id: &str, token: &str, ply: &str) -> (u16, Value) {
        self.post(
            &format!("/api/games/{id}/moves"),
            json!({"move": ply, "token": token}),
        )
        .await
    }

    /// Opens the game's WebSocket.
    pub async fn watch(&self, id: &str) -> Socket {
        let url = format!("{}/api/games/{id}/ws", self.base.replacen("http", "ws", 1));
        let (socket, _) = tokio_tungstenite::connect_async(url).await.unwrap();
        socket
    }
}

fn client() -> reqwest::Client {
    static CLIENT: std::sync::OnceLock<reqwest::Client> = std::sync::OnceLock::new();
    CLIENT
        .get_or_init(|| {
            reqwest::Client::builder()
                .timeout(Duration::from_secs(30))
                .build()
                .unwrap()
        })
        .clone()
}

pub type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// The next game object on a socket (skipping pongs); panics after 30 s.
pub async fn next_game(socket: &mut Socket) -> Value {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(30), socket.next())
            .await
            .expect("a message within 30 s")
            .expect("the socket is open")
            .expect("a message");
        if let Message::Text(text) = message {
            let value: Value = serde_json::from_str(&text).unwrap();
            if value.get("version").is_some() {
                return value;
            }
        }
    }
}

/// The first game object on a socket with at least `version`.
pub async fn game_at(socket: &mut Socket, version: u64) -> Value {
    loop {
        let game = next_game(socket).await;
        if game["version"].as_u64().unwrap() >= version {
            return game;
        }
    }
}

/// Sends a text message on a socket.
pub async fn send(socket: &mut Socket, text: &str) {
    socket.send(Message::Text(text.into())).await.unwrap();
}

/// A small deterministic generator for picking plies.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % n
    }
}

/// The strings of a JSON array.
pub fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect()
}

/// A cheap password hash for tests (the real cost is tested beside the code).
pub const CHEAP_HASH: HashCost = HashCost {
    memory_kib: 256,
    passes: 1,
};

/// A fresh folder under the system's temporary folder.
pub fn temp_dir(name: &str) -> std::path::PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let dir = std::env::temp_dir().join(format!("morris-{name}-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Everything logged by the servers of this test program (from its first call on).
pub fn log() -> Arc<Mutex<Vec<u8>>> {
    static LOG: OnceLock<Arc<Mutex<Vec<u8>>>> = OnceLock::new();
    LOG.get_or_init(|| {
        let log = Arc::new(Mutex::new(Vec::new()));
        let writer = {
            let log = log.clone();
            move || Capture(log.clone())
        };
        tracing_subscriber::fmt()
            .with_writer(writer)
            .with_ansi(false)
            .with_env_filter("warn")
            .init();
        log
    })
    .clone()
}

struct Capture(Arc<Mutex<Vec<u8>>>);

impl Write for Capture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

pub fn logged(text: &str) -> bool {
    String::from_utf8_lossy(&log().lock().unwrap()).contains(text)
}
