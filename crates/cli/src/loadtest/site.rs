//! The load test of the site: signed-in players, paired through the lobby's quick pairing,
//! play clocked, rated games.
//!
//! Every game slot is two players. Each signs up (before the clock of the test starts: the
//! password hash is slow by design), opens the site's notification channel and keeps it
//! for the whole test, as every page does (each game's `started` notice must come on it
//! within 10 s of the pairing), then, as the lobby page does, opens the lobby's WebSocket,
//! asks for quick pairing at the time control, and closes the lobby once paired. It plays
//! random legal plies on its turn, one every `think` (±50 %), authorised by its session
//! cookie and CSRF token. The round trip of a ply is the time from sending the `POST` until
//! its answer has arrived and the player's own WebSocket of the game has announced it, that
//! is until every watcher could have seen it. A player whose game ends goes back to the
//! lobby for another while plies and time remain.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::watch;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use super::client::{LoadConfig, Socket, Totals, connect};

/// What a player's game socket last said.
#[derive(Debug, Clone, Default, Deserialize)]
struct Seen {
    version: u64,
    status: String,
    turn: String,
    legal: Vec<String>,
}

/// A pairing: the answer to quick pairing, or the lobby's `paired` message.
#[derive(Debug, Deserialize)]
struct Paired {
    #[serde(rename = "type", default)]
    kind: Option<String>,
    #[serde(default)]
    game: Option<String>,
    #[serde(default)]
    color: Option<String>,
}

/// A signed-in player of the test.
pub(super) struct Player {
    base: String,
    client: reqwest::Client,
    cookie: String,
    csrf: String,
    totals: Arc<Totals>,
    think: Duration,
    plies: usize,
    clock: String,
    rng: u64,
}

/// Signs up a player: a session, then a user name and a password.
pub(super) async fn sign_up(
    base: &str,
    client: &reqwest::Client,
    name: &str,
) -> Result<(String, String), String> {
    let r = client
        .get(format!("{base}/api/session"))
        .send()
        .await
        .map_err(|e| format!("session: {e}"))?;
    let cookie = r
        .headers()
        .get(reqwest::header::SET_COOKIE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .ok_or("session: no cookie")?
        .to_owned();
    let session: Value = r.json().await.map_err(|e| format!("session: {e}"))?;
    let csrf = session["csrf"]
        .as_str()
        .ok_or("session: no CSRF token")?
        .to_owned();
    let r = client
        .post(format!("{base}/api/session/signup"))
        .header(reqwest::header::COOKIE, &cookie)
        .header("x-morris-csrf", &csrf)
        .json(&json!({"name": name, "password": "load-test password"}))
        .send()
        .await
        .and_then(reqwest::Response::error_for_status)
        .map_err(|e| format!("sign-up: {e}"))?;
    // Signing up begins a new session: its cookie and CSRF token replace the guest's.
    let cookie = r
        .headers()
        .get(reqwest::header::SET_COOKIE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .ok_or("sign-up: no new cookie")?
        .to_owned();
    let session: Value = r.json().await.map_err(|e| format!("sign-up: {e}"))?;
    let csrf = session["csrf"]
        .as_str()
        .ok_or("sign-up: no CSRF token")?
        .to_owned();
    Ok((cookie, csrf))
}

impl Player {
    #[allow(
        clippy::too_many_arguments,
        reason = "the settings of one player, each used once"
    )]
    pub(super) fn new(
        base: String,
        client: reqwest::Client,
        (cookie, csrf): (String, String),
        totals: Arc<Totals>,
        config: &LoadConfig,
        clock: String,
        seed: u64,
    ) -> Player {
        Player {
            base,
            client,
            cookie,
            csrf,
            totals,
            think: config.think,
            plies: config.plies,
            clock,
            rng: seed | 1,
        }
    }

    fn random(&mut self, n: usize) -> usize {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        (self.rng % n.max(1) as u64) as usize
    }

    async fn socket(&self, path: &str) -> Result<Socket, String> {
        let url = format!("{}{path}", self.base.replacen("http", "ws", 1));
        let mut request = url
            .into_client_request()
            .map_err(|e| format!("WebSocket: {e}"))?;
        let cookie = self.cookie.parse().map_err(|e| format!("WebSocket: {e}"))?;
        request.headers_mut().insert("cookie", cookie);
        connect(request).await.map_err(|e| format!("{e} ({path})"))
    }

    /// Opens the notification channel: its reader keeps it (pinging as a page does) and
    /// says the last game it was told started.
    async fn notices(
        &self,
    ) -> Result<(watch::Receiver<Option<String>>, tokio::task::JoinSet<()>), String> {
        let mut socket = self.socket("/api/notify/ws").await?;
        match tokio::time::timeout(Duration::from_secs(10), socket.next()).await {
            Ok(Some(Ok(Message::Text(_)))) => {}
            _ => return Err("the notification channel said nothing within 10 s".into()),
        }
        let (tx, rx) = watch::channel(None);
        let mut reader = tokio::task::JoinSet::new();
        reader.spawn(async move {
            let mut ping = tokio::time::interval(Duration::from_secs(30));
            loop {
                tokio::select! {
                    _ = ping.tick() => {
                        let ping = Message::Text(r#"{"type":"ping"}"#.into());
                        if futures_util::SinkExt::send(&mut socket, ping).await.is_err() {
                            break;
                        }
                    }
                    message = socket.next() => {
                        let Some(Ok(message)) = message else { break };
                        let Message::Text(text) = message else { continue };
                        if let Ok(Paired { kind, game: Some(game), .. }) = serde_json::from_str(&text) {
                            if kind.as_deref() == Some("started") && tx.send(Some(game)).is_err() {
                                break;
                            }
                        }
                    }
                }
            }
        });
        Ok((rx, reader))
    }

    /// Plays games until the plies or the time run out.
    pub(super) async fn run(mut self, deadline: Instant) {
        let (mut started, _reader) = match self.notices().await {
            Ok(channel) => channel,
            Err(e) => {
                self.totals.error(e).await;
                return;
            }
        };
        let mut played = 0;
        while played < self.plies && Instant::now() < deadline {
            let game = match self.pair(deadline).await {
                Ok(Some(game)) => game,
                Ok(None) => break,
                Err(e) => {
                    self.totals.error(e).await;
                    tokio::time::sleep(self.think).await;
                    continue;
                }
            };
            let told = tokio::time::timeout(
                Duration::from_secs(10),
                started.wait_for(|g| g.as_deref() == Some(game.0.as_str())),
            )
            .await
            .is_ok_and(|r| r.is_ok());
            if !told {
                self.totals
                    .error(format!(
                        "no notice that game {} started within 10 s",
                        game.0
                    ))
                    .await;
            }
            match self.play(&game, &mut played, deadline).await {
                Ok(true) => {
                    self.totals.finished.fetch_add(1, Ordering::Relaxed);
                }
                Ok(false) => break,
                Err(e) => {
                    self.totals.error(e).await;
                    tokio::time::sleep(self.think).await;
                }
            }
        }
    }

    /// Asks for quick pairing with the lobby open (its socket is the player's presence, and
    /// the pairing may come on it); the game and this player's colour, or `None` at the
    /// deadline. The lobby closes when this returns, and with it any seek left waiting.
    async fn pair(&mut self, deadline: Instant) -> Result<Option<(String, String)>, String> {
        let mut lobby = self.socket("/api/lobby/ws").await?;
        // The lobby's first message comes once the server counts the player present.
        match tokio::time::timeout(Duration::from_secs(10), lobby.next()).await {
            Ok(Some(Ok(_))) => {}
            _ => return Err("the lobby's socket said nothing within 10 s".into()),
        }
        let answer: Paired = self
            .client
            .post(format!("{}/api/lobby/quick", self.base))
            .header(reqwest::header::COOKIE, &self.cookie)
            .header("x-morris-csrf", &self.csrf)
            .json(&json!({"clock": self.clock, "rated": true}))
            .send()
            .await
            .and_then(reqwest::Response::error_for_status)
            .map_err(|e| format!("quick pairing: {e}"))?
            .json()
            .await
            .map_err(|e| format!("quick pairing: {e}"))?;
        if let (Some(game), Some(color)) = (answer.game, answer.color) {
            self.totals.games.fetch_add(1, Ordering::Relaxed);
            return Ok(Some((game, color)));
        }
        loop {
            let message = match tokio::time::timeout_at(deadline.into(), lobby.next()).await {
                Ok(Some(Ok(message))) => message,
                Ok(_) => return Err("the lobby's socket closed".into()),
                Err(_) => return Ok(None),
            };
            // Only the kind of a message is read: the lobby's own lists are skipped over.
            let Message::Text(text) = message else {
                continue;
            };
            if let Ok(Paired {
                kind,
                game: Some(game),
                color: Some(color),
            }) = serde_json::from_str(&text)
            {
                if kind.as_deref() == Some("paired") {
                    return Ok(Some((game, color)));
                }
            }
        }
    }

    /// Plays one game; whether it ended (false: the plies or the time ran out).
    async fn play(
        &mut self,
        (id, color): &(String, String),
        played: &mut usize,
        deadline: Instant,
    ) -> Result<bool, String> {
        let mut socket = self.socket(&format!("/api/games/{id}/ws")).await?;
        let (tx, mut seen) = watch::channel(Seen::default());
        // The reader, and with it the socket, ends when the game is left.
        let mut reader = tokio::task::JoinSet::new();
        reader.spawn(async move {
            while let Some(Ok(message)) = socket.next().await {
                if let Message::Text(text) = message {
                    if let Ok(game) = serde_json::from_str::<Seen>(&text) {
                        if tx.send(game).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        loop {
            // Wait for this player's turn, or the end.
            let game = match tokio::time::timeout_at(
                deadline.into(),
                seen.wait_for(|g| g.version > 0 && (g.status != "playing" || &g.turn == color)),
            )
            .await
            {
                Ok(Ok(g)) => g.clone(),
                Ok(Err(_)) => return Err(format!("the socket of game {id} closed")),
                Err(_) => return Ok(false),
            };
            if game.status != "playing" {
                return Ok(true);
            }
            if *played >= self.plies {
                // Done: resign, so that the opponent is not left waiting for a ply.
                let _ = self
                    .client
                    .post(format!("{}/api/games/{id}/resign", self.base))
                    .header(reqwest::header::COOKIE, &self.cookie)
                    .header("x-morris-csrf", &self.csrf)
                    .json(&json!({}))
                    .send()
                    .await;
                return Ok(false);
            }
            let jitter = 0.5 + self.random(1000) as f64 / 1000.0;
            let wake = Instant::now() + self.think.mul_f64(jitter);
            if wake >= deadline {
                return Ok(false);
            }
            tokio::time::sleep_until(wake.into()).await;
            let ply = game.legal[self.random(game.legal.len())].clone();
            let sent = Instant::now();
            let answer: Seen = self
                .client
                .post(format!("{}/api/games/{id}/moves", self.base))
                .header(reqwest::header::COOKIE, &self.cookie)
                .header("x-morris-csrf", &self.csrf)
                .json(&json!({"move": ply}))
                .send()
                .await
                .and_then(reqwest::Response::error_for_status)
                .map_err(|e| format!("ply {ply}: {e}"))?
                .json()
                .await
                .map_err(|e| format!("ply {ply}: {e}"))?;
            let version = answer.version;
            tokio::time::timeout(
                Duration::from_secs(10),
                seen.wait_for(|g| g.version >= version),
            )
            .await
            .map_err(|_| format!("no update for version {version} within 10 s"))?
            .map_err(|_| format!("the socket of game {id} closed"))?;
            let trip = u64::try_from(sent.elapsed().as_micros()).unwrap_or(u64::MAX);
            self.totals.trips.lock().await.push(trip);
            self.totals.plies.fetch_add(1, Ordering::Relaxed);
            *played += 1;
        }
    }
}
