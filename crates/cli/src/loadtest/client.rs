//! A load test: many friend games at once through the HTTP API and the WebSocket, on loopback
//! only, bounded in games, plies and time.
//!
//! Each game slot creates a friend game, opens a WebSocket for each seat, and plays random
//! legal plies, one every `think` (with ±50 % jitter), alternating seats. The round trip of a
//! ply is the time from sending the `POST` until both its answer and the other seat's
//! WebSocket update have arrived. A slot whose game ends starts another while plies and time
//! remain.

use std::fmt;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use serde::Deserialize;
use serde_json::json;
use tokio::sync::{Mutex, watch};
use tokio_tungstenite::tungstenite::Message;

use morris_server::{Config, Limits};

/// What to run.
#[derive(Debug, Clone)]
pub struct LoadConfig {
    /// Games played at once.
    pub games: usize,
    /// Plies each game slot plays at most.
    pub plies: usize,
    /// The longest the test runs.
    pub duration: Duration,
    /// The mean time between two plies of one game.
    pub think: Duration,
    /// A server to test (loopback only); `None` starts one in this process on a temporary
    /// database.
    pub target: Option<SocketAddr>,
    /// Play the site instead of friend games: signed-in players paired by the lobby's quick
    /// pairing play rated games at this time control (such as `10+5`).
    pub site: Option<String>,
}

/// What was measured.
#[derive(Debug, Clone)]
pub struct LoadReport {
    /// What was played, and what a round trip is.
    pub setting: String,
    /// Games created.
    pub games: u64,
    /// Games played to their end.
    pub finished: u64,
    /// Plies played and acknowledged.
    pub plies: u64,
    /// Requests or updates that failed.
    pub errors: u64,
    /// A few of the errors, for the report.
    pub error_samples: Vec<String>,
    /// Ply round trips, sorted, in microseconds.
    pub round_trips: Vec<u64>,
    /// How long the test ran.
    pub elapsed: Duration,
}

impl LoadReport {
    /// The round trip at a percentile (0 to 100), in milliseconds.
    pub fn percentile(&self, p: f64) -> f64 {
        if self.round_trips.is_empty() {
            return 0.0;
        }
        let rank = ((p / 100.0) * (self.round_trips.len() - 1) as f64).round() as usize;
        self.round_trips[rank.min(self.round_trips.len() - 1)] as f64 / 1000.0
    }
}

impl fmt::Display for LoadReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for e in &self.error_samples {
            writeln!(f, "error: {e}")?;
        }
        writeln!(f, "{}", self.setting)?;
        let secs = self.elapsed.as_secs_f64().max(1e-9);
        writeln!(
            f,
            "games {} finished {} plies {} errors {} seconds {:.1} plies/s {:.0}",
            self.games,
            self.finished,
            self.plies,
            self.errors,
            secs,
            self.plies as f64 / secs
        )?;
        write!(
            f,
            "round trip ms p50 {:.2} p90 {:.2} p99 {:.2} max {:.2}",
            self.percentile(50.0),
            self.percentile(90.0),
            self.percentile(99.0),
            self.percentile(100.0)
        )
    }
}

/// Why the test could not run.
#[derive(Debug)]
pub enum LoadError {
    /// The target is not a loopback address.
    NotLoopback(SocketAddr),
    /// The server of the test could not start.
    Start(String),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::NotLoopback(a) => {
                write!(
                    f,
                    "{a} is not a loopback address: the load test runs on this machine only"
                )
            }
            LoadError::Start(e) => write!(f, "cannot start the server: {e}"),
        }
    }
}

impl std::error::Error for LoadError {}

/// The fields of a game object the players need.
#[derive(Debug, Clone, Deserialize, Default)]
struct Seen {
    version: u64,
    status: String,
    turn: String,
    legal: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct Created {
    id: String,
    token: String,
    invite: String,
    game: Seen,
}

/// The counts of a run, shared by its players.
pub(super) struct Totals {
    pub(super) games: AtomicU64,
    pub(super) finished: AtomicU64,
    pub(super) plies: AtomicU64,
    errors: AtomicU64,
    samples: Mutex<Vec<String>>,
    pub(super) trips: Mutex<Vec<u64>>,
}

impl Totals {
    pub(super) async fn error(&self, e: String) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        let mut samples = self.samples.lock().await;
        if samples.len() < 5 {
            samples.push(e);
        }
    }
}

/// Runs the test; `progress` is called about twice a second with the plies played so far.
///
/// # Errors
///
/// [`LoadError`] when the target is not on loopback or the in-process server cannot start.
pub async fn run(
    config: &LoadConfig,
    progress: impl Fn(u64, Duration) + Send + Sync,
) -> Result<LoadReport, LoadError> {
    let (addr, local) = match config.target {
        Some(addr) if !addr.ip().is_loopback() => return Err(LoadError::NotLoopback(addr)),
        Some(addr) => (addr, None),
        None => {
            let (addr, server) = local_server(config.games).await?;
            (addr, Some(server))
        }
    };
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .pool_max_idle_per_host(2 * config.games)
        .build()
        .map_err(|e| LoadError::Start(e.to_string()))?;
    let totals = Arc::new(Totals {
        games: AtomicU64::new(0),
        finished: AtomicU64::new(0),
        plies: AtomicU64::new(0),
        errors: AtomicU64::new(0),
        samples: Mutex::new(Vec::new()),
        trips: Mutex::new(Vec::new()),
    });
    let base = format!("http://{addr}");
    let mut slots = Vec::with_capacity(config.games);
    let started;
    if let Some(clock) = &config.site {
        let players = sign_up_players(&base, &client, 2 * config.games, &totals).await;
        started = Instant::now();
        let deadline = started + config.duration;
        for (i, session) in players.into_iter().enumerate() {
            let player = super::site::Player::new(
                base.clone(),
                client.clone(),
                session,
                totals.clone(),
                config,
                clock.clone(),
                0x9e37_79b9_7f4a_7c15 ^ (i as u64 + 1).wrapping_mul(0xbf58_476d_1ce4_e5b9),
            );
            let delay = config
                .think
                .mul_f64(i as f64 / (2 * config.games).max(1) as f64);
            slots.push(tokio::spawn(async move {
                tokio::time::sleep(delay).await;
                player.run(deadline).await;
            }));
        }
    } else {
        started = Instant::now();
    }
    let deadline = started + config.duration;
    for slot in 0..config.games {
        if config.site.is_some() {
            break;
        }
        // Spread the starts over one thinking time.
        let delay = config
            .think
            .mul_f64(slot as f64 / config.games.max(1) as f64);
        let slot = Slot {
            base: base.clone(),
            client: client.clone(),
            totals: totals.clone(),
            think: config.think,
            plies: config.plies,
            deadline,
            rng: 0x9e37_79b9_7f4a_7c15 ^ (slot as u64 + 1).wrapping_mul(0xbf58_476d_1ce4_e5b9),
        };
        slots.push(tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            slot.run().await;
        }));
    }
    let all = futures_util::future::join_all(slots);
    tokio::pin!(all);
    let mut tick = tokio::time::interval(Duration::from_millis(500));
    loop {
        tokio::select! {
            _ = &mut all => break,
            _ = tick.tick() => progress(totals.plies.load(Ordering::Relaxed), started.elapsed()),
        }
    }
    let elapsed = started.elapsed();
    if let Some((stop, dir)) = local {
        let _ = stop.send(());
        let _ = std::fs::remove_dir_all(dir);
    }
    let mut round_trips = std::mem::take(&mut *totals.trips.lock().await);
    round_trips.sort_unstable();
    Ok(LoadReport {
        setting: setting(config),
        games: totals.games.load(Ordering::Relaxed),
        finished: totals.finished.load(Ordering::Relaxed),
        plies: totals.plies.load(Ordering::Relaxed),
        errors: totals.errors.load(Ordering::Relaxed),
        error_samples: std::mem::take(&mut *totals.samples.lock().await),
        round_trips,
        elapsed,
    })
}

/// The first line of the report: what the run played and what it timed.
fn setting(config: &LoadConfig) -> String {
    let think = config.think.as_millis();
    match &config.site {
        Some(clock) => format!(
            "{} rated games at once at {clock} between {} signed-up players paired by quick \
             pairing, each on the notification channel all along, a ply every {think} ms \
             (±50 %) in each; a round trip is a ply's POST until its answer and the player's \
             own game socket have it",
            config.games,
            2 * config.games
        ),
        None => format!(
            "{} friend games at once, a ply every {think} ms (±50 %) in each; a round trip is \
             a ply's POST until its answer and the other seat's game socket have it",
            config.games
        ),
    }
}

/// Signs up `n` players, a few at once (the password hash is slow by design); those that
/// fail are counted as errors and left out.
async fn sign_up_players(
    base: &str,
    client: &reqwest::Client,
    n: usize,
    totals: &Arc<Totals>,
) -> Vec<(String, String)> {
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() % 100_000_000);
    let gate = Arc::new(tokio::sync::Semaphore::new(8));
    let mut tasks = Vec::with_capacity(n);
    for i in 0..n {
        let (base, client, gate) = (base.to_owned(), client.clone(), gate.clone());
        let name = format!("l{stamp}n{i}");
        tasks.push(tokio::spawn(async move {
            let _permit = gate.acquire_owned().await.map_err(|e| e.to_string())?;
            super::site::sign_up(&base, &client, &name).await
        }));
    }
    let mut players = Vec::with_capacity(n);
    for task in tasks {
        match task.await {
            Ok(Ok(session)) => players.push(session),
            Ok(Err(e)) => totals.error(e).await,
            Err(e) => totals.error(e.to_string()).await,
        }
    }
    players
}

type LocalServer = (tokio::sync::oneshot::Sender<()>, PathBuf);

async fn local_server(games: usize) -> Result<(SocketAddr, LocalServer), LoadError> {
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let dir = std::env::temp_dir().join(format!("morris-load-{}-{stamp}", std::process::id()));
    let mut config = Config::new(([127, 0, 0, 1], 0).into(), dir.join("load.db"));
    // Two sockets a game, and a slot's next game may open before the last one's close.
    // Every player of the site keeps three sockets (the notification channel, the lobby's
    // and the game's) and a connection for its requests, all from this one address.
    let connections = morris_server::ConnectionLimits {
        max: Limits::default().connections.max.max(8 * games + 64),
        per_addr: Limits::default().connections.per_addr.max(8 * games + 64),
        ..Limits::default().connections
    };
    config.limits = Limits {
        games_per_minute: 0,
        sign_ins_per_minute: 0,
        max_sockets: Limits::default().max_sockets.max(8 * games),
        sockets_per_addr: Limits::default().sockets_per_addr.max(8 * games),
        challenges_per_addr: 2 * games + 16,
        connections,
        ..Limits::default()
    };
    let app = morris_server::open(&config)
        .await
        .map_err(|e| LoadError::Start(e.to_string()))?;
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|e| LoadError::Start(e.to_string()))?;
    let addr = listener
        .local_addr()
        .map_err(|e| LoadError::Start(e.to_string()))?;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(async move {
        let shutdown = async {
            let _ = stopped.await;
        };
        if let Err(e) = morris_server::serve(listener, app, shutdown).await {
            eprintln!("error: the load test's server failed: {e}");
        }
    });
    Ok((addr, (stop, dir)))
}

struct Slot {
    base: String,
    client: reqwest::Client,
    totals: Arc<Totals>,
    think: Duration,
    plies: usize,
    deadline: Instant,
    rng: u64,
}

impl Slot {
    fn random(&mut self, n: usize) -> usize {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        (self.rng % n.max(1) as u64) as usize
    }

    async fn run(mut self) {
        let mut played = 0;
        while played < self.plies && Instant::now() < self.deadline {
            match self.game(&mut played).await {
                Ok(End::Finished) => {
                    self.totals.finished.fetch_add(1, Ordering::Relaxed);
                }
                Ok(End::Stopped) => break,
                Err(e) => {
                    self.totals.error(e).await;
                    tokio::time::sleep(self.think).await;
                }
            }
        }
    }

    /// Plays one game, until its end or the slot's plies or time run out.
    async fn game(&mut self, played: &mut usize) -> Result<End, String> {
        let created: Created = self
            .client
            .post(format!("{}/api/games", self.base))
            .json(&json!({"opponent": "friend", "name": "load"}))
            .send()
            .await
            .and_then(reqwest::Response::error_for_status)
            .map_err(|e| format!("create: {e}"))?
            .json()
            .await
            .map_err(|e| format!("create: {e}"))?;
        self.totals.games.fetch_add(1, Ordering::Relaxed);
        let ws = self.base.replacen("http", "ws", 1);
        let url = format!("{ws}/api/games/{}/ws", created.id);
        let white = watch_socket(&url, &created.token).await?;
        let black = watch_socket(&url, &created.invite).await?;
        let mut game = created.game;
        while game.status == "playing" && *played < self.plies {
            let jitter = 0.5 + self.random(1000) as f64 / 1000.0;
            let wake = Instant::now() + self.think.mul_f64(jitter);
            if wake >= self.deadline {
                return Ok(End::Stopped);
            }
            tokio::time::sleep_until(wake.into()).await;
            let ply = game.legal[self.random(game.legal.len())].clone();
            let (token, other) = if game.turn == "white" {
                (&created.token, &black)
            } else {
                (&created.invite, &white)
            };
            let mut other = other.clone();
            let sent = Instant::now();
            let answer: Seen = self
                .client
                .post(format!("{}/api/games/{}/moves", self.base, created.id))
                .json(&json!({"move": ply, "token": token}))
                .send()
                .await
                .and_then(reqwest::Response::error_for_status)
                .map_err(|e| format!("ply {ply}: {e}"))?
                .json()
                .await
                .map_err(|e| format!("ply {ply}: {e}"))?;
            let version = answer.version;
            tokio::time::timeout(Duration::from_secs(10), other.wait_for(|v| *v >= version))
                .await
                .map_err(|_| format!("no update for version {version} within 10 s"))?
                .map_err(|_| "the other seat's socket closed".to_owned())?;
            let trip = u64::try_from(sent.elapsed().as_micros()).unwrap_or(u64::MAX);
            self.totals.trips.lock().await.push(trip);
            self.totals.plies.fetch_add(1, Ordering::Relaxed);
            *played += 1;
            game = answer;
        }
        Ok(if game.status == "over" {
            End::Finished
        } else {
            End::Stopped
        })
    }
}

/// How a slot's game ended.
enum End {
    /// The game is over: the slot may start another.
    Finished,
    /// The slot's plies or time ran out.
    Stopped,
}

/// A WebSocket of the test's client.
pub(super) type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Opens a WebSocket with a small read buffer: before every read the library fills the
/// buffer's free room with zeros, and its default of 128 KiB would make the thousands of
/// sockets of a run cost the client more than the server's work it measures.
pub(super) async fn connect(
    request: tokio_tungstenite::tungstenite::handshake::client::Request,
) -> Result<Socket, String> {
    let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
        .read_buffer_size(8 * 1024);
    let (socket, _) = tokio_tungstenite::connect_async_with_config(request, Some(config), true)
        .await
        .map_err(|e| format!("WebSocket: {e}"))?;
    Ok(socket)
}

/// Opens a WebSocket and keeps the newest version it announced in a watch channel, reading
/// every message so that the server is never held up by this client.
async fn watch_socket(url: &str, token: &str) -> Result<watch::Receiver<u64>, String> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut request = url
        .into_client_request()
        .map_err(|e| format!("WebSocket: {e}"))?;
    let protocols = format!("morris, token.{token}")
        .parse()
        .map_err(|e| format!("WebSocket: {e}"))?;
    request
        .headers_mut()
        .insert("sec-websocket-protocol", protocols);
    let mut socket = connect(request).await?;
    let (tx, rx) = watch::channel(0u64);
    tokio::spawn(async move {
        #[derive(Deserialize)]
        struct Version {
            version: u64,
        }
        while let Some(Ok(message)) = socket.next().await {
            if let Message::Text(text) = message {
                if let Ok(v) = serde_json::from_str::<Version>(&text) {
                    if tx.send(v.version).is_err() {
                        break;
                    }
                }
            }
        }
    });
    Ok(rx)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The load test itself, at a small scale: it plays its games without error and counts
    /// every ply. (`morris loadtest --games 1000` is the real run; see the README.)
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_load_test_plays_its_games_without_error() {
        let config = LoadConfig {
            games: 8,
            plies: 12,
            duration: Duration::from_secs(60),
            think: Duration::from_millis(5),
            target: None,
            site: None,
        };
        let report = run(&config, |_, _| {}).await.unwrap();
        assert_eq!(report.errors, 0, "{report}");
        assert_eq!(report.plies, 8 * 12, "{report}");
        assert_eq!(report.round_trips.len(), 8 * 12);
        assert!(report.games >= 8);
        assert!(report.percentile(99.0) > 0.0);
        assert!(report.to_string().contains("errors 0"));
    }

    /// The site's load test at a small scale: players sign up, meet by quick pairing and
    /// play clocked, rated games without error.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_site_load_test_pairs_signed_in_players_and_plays_without_error() {
        let config = LoadConfig {
            games: 4,
            plies: 6,
            duration: Duration::from_secs(60),
            think: Duration::from_millis(5),
            target: None,
            site: Some("10+5".into()),
        };
        let report = run(&config, |_, _| {}).await.unwrap();
        assert_eq!(report.errors, 0, "{report}");
        assert_eq!(
            report.plies,
            8 * 6,
            "every player plays its plies: {report}"
        );
        assert!(report.games >= 4, "{report}");
    }

    #[test]
    fn percentiles_come_from_the_sorted_trips() {
        let report = LoadReport {
            setting: "1 friend game".into(),
            games: 1,
            finished: 0,
            plies: 100,
            errors: 0,
            error_samples: vec![],
            round_trips: (1..=100).map(|ms| ms * 1000).collect(),
            elapsed: Duration::from_secs(1),
        };
        assert_eq!(report.percentile(50.0), 51.0);
        assert_eq!(report.percentile(99.0), 99.0);
        assert_eq!(report.percentile(100.0), 100.0);
        assert!(report.to_string().contains("p99 99.00"));
    }

    #[test]
    fn only_loopback_is_a_target() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let config = LoadConfig {
            games: 1,
            plies: 1,
            duration: Duration::from_secs(1),
            think: Duration::from_millis(10),
            target: Some("192.0.2.1:8080".parse().unwrap()),
            site: None,
        };
        let e = rt.block_on(run(&config, |_, _| {})).unwrap_err();
        assert!(matches!(e, LoadError::NotLoopback(_)));
    }
}
