//! The lobby's endpoints: its state, challenges (open or to one player), quick pairing, and
//! the lobby's WebSocket, whose connection is the player's presence.

use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::accounts::{PlayerId, Session};
use crate::app::AppState;
use crate::clock::{PRESETS, TimeControl, TimeControlView};
use crate::error::ApiError;
use crate::lobby::{ChallengeView, Entrant, LobbyRefusal, Target, Terms};
use crate::lobby_hub::{PlayingView, start_pairing, tell_gone};
use crate::notify::{Gone, Notice};
use crate::request::{ApiJson, ChallengeRequest, QuickRequest};
use crate::session::Visitor;

/// The most games listed as being played in the lobby's state.
const PLAYING_SHOWN: usize = 50;

/// How often a lobby connection is sent the lobby again when it changed.
const REFRESH: Duration = Duration::from_millis(500);

/// The lobby as one viewer sees it.
#[derive(Debug, Clone, Serialize)]
pub struct LobbyView {
    /// Always `lobby`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The viewer's own challenges and those made to them, and the newest 100 of the others'
    /// public ones, newest first.
    pub challenges: Vec<ChallengeView>,
    /// How many open challenges the viewer may see in all.
    pub open: usize,
    /// Games between people being played, newest first.
    pub playing: Vec<PlayingView>,
    /// How many wait for quick pairing, per time control.
    pub waiting: Vec<WaitingView>,
    /// The time controls of the quick-pairing buttons.
    pub presets: Vec<TimeControlView>,
    /// Whether the viewer waits for quick pairing.
    pub seeking: bool,
}

/// One pool of quick pairing: how many wait at a time control, and how many of its games
/// are being played.
#[derive(Debug, Clone, Serialize)]
pub struct WaitingView {
    /// The time control written short.
    pub clock: Option<String>,
    /// How many wait.
    pub players: usize,
    /// How many games with this clock are being played.
    pub games: usize,
}

/// A new game of the lobby, for one of its players.
#[derive(Debug, Clone, Serialize)]
pub struct PairedMessage {
    /// Always `paired`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The game's id (the page opens `/g/{game}`).
    pub game: String,
    /// The player's colour.
    pub color: &'static str,
}

/// The lobby as JSON text for a viewer. Most viewers have nothing of their own in it (no
/// challenge made by or to them, no seek): they share one text, made once per change.
fn view_text(app: &AppState, viewer: Option<PlayerId>) -> Option<Arc<str>> {
    let personal = viewer.is_some_and(|p| {
        let lobby = app.lobby.lock();
        lobby.is_seeking(p)
            || lobby
                .visible(Some(p))
                .iter()
                .any(|c| c.by.player == p || c.to.is_some())
    });
    if personal {
        return serde_json::to_string(&view(app, viewer))
            .ok()
            .map(Into::into);
    }
    let key = app.lobby.version();
    if let Some(text) = app.lobby.cached(key) {
        return Some(text);
    }
    let text: Arc<str> = serde_json::to_string(&view(app, None)).ok()?.into();
    app.lobby.cache(key, text.clone());
    Some(text)
}

async fn send_text(socket: &mut WebSocket, text: Option<Arc<str>>, limit: Duration) -> bool {
    let Some(text) = text else {
        return false;
    };
    matches!(
        tokio::time::timeout(limit, socket.send(Message::Text(text.as_ref().into()))).await,
        Ok(Ok(()))
    )
}

fn view(app: &AppState, viewer: Option<PlayerId>) -> LobbyView {
    let lobby = app.lobby.lock();
    let (shown, open) = lobby.page(viewer);
    LobbyView {
        kind: "lobby",
        challenges: shown
            .into_iter()
            .map(|c| ChallengeView::new(c, viewer))
            .collect(),
        open,
        playing: app.lobby.games_playing(PLAYING_SHOWN),
        waiting: pools(
            lobby.waiting(),
            &app.lobby.games_playing(crate::lobby::MAX_PLAYING),
        ),
        presets: PRESETS
            .iter()
            .filter_map(|&(m, s)| TimeControl::minutes(m, s).ok())
            .map(TimeControlView::from)
            .collect(),
        seeking: viewer.is_some_and(|p| lobby.is_seeking(p)),
    }
}

/// The pools of quick pairing: those with players waiting or games being played.
fn pools(waiting: Vec<(Option<TimeControl>, usize)>, playing: &[PlayingView]) -> Vec<WaitingView> {
    let mut pools: std::collections::BTreeMap<Option<String>, (usize, usize)> =
        std::collections::BTreeMap::new();
    for (clock, players) in waiting {
        pools.entry(clock.map(|c| c.to_string())).or_default().0 += players;
    }
    for g in playing {
        pools.entry(g.clock.clone()).or_default().1 += 1;
    }
    pools
        .into_iter()
        .map(|(clock, (players, games))| WaitingView {
            clock,
            players,
            games,
        })
        .collect()
}

impl From<LobbyRefusal> for ApiError {
    fn from(r: LobbyRefusal) -> ApiError {
        let message = r.to_string();
        match r {
            LobbyRefusal::NoChallenge => ApiError::NotFound(message),
            LobbyRefusal::NotForYou
            | LobbyRefusal::RatedNeedsAccount
            | LobbyRefusal::NotDeclinable
            | LobbyRefusal::Blocked => ApiError::Forbidden(message),
            LobbyRefusal::Full => ApiError::Unavailable(message),
            LobbyRefusal::TooManyChallenges => ApiError::Busy(message),
            LobbyRefusal::NotPresent
            | LobbyRefusal::OwnChallenge
            | LobbyRefusal::RatedNeedsClock
            | LobbyRefusal::SelfChallenge => ApiError::Conflict(message),
        }
    }
}

/// The entrant of a session for some terms, asking from `from`: their rating in that variant
/// and class.
async fn entrant(
    app: &AppState,
    s: &Session,
    terms: &Terms,
    from: std::net::IpAddr,
) -> Result<Entrant, ApiError> {
    let rating = match terms.clock {
        Some(c) if s.name.is_some() => {
            app.store
                .rating(s.player, terms.variant.name(), c.class())
                .await?
        }
        _ => crate::rating::START,
    };
    let avoid = if s.name.is_some() {
        app.store.avoided(s.player).await?
    } else {
        Vec::new()
    };
    Ok(Entrant {
        player: s.player,
        name: s.name.clone(),
        rating: rating.rating,
        provisional: rating.provisional(),
        from: crate::connections::client_group(from),
        avoid,
    })
}

fn coin() -> bool {
    crate::seat::random_bytes::<1>()[0] & 1 == 0
}

/// `GET /api/lobby`
pub async fn lobby(State(app): State<Arc<AppState>>, visitor: Visitor) -> Json<LobbyView> {
    Json(view(&app, visitor.player()))
}

/// The answer to a challenge made.
#[derive(Debug, Clone, Serialize)]
pub struct ChallengeMade {
    /// The challenge's id.
    pub id: u64,
}

/// `POST /api/lobby/challenges`
pub async fn challenge(
    State(app): State<Arc<AppState>>,
    crate::api::ClientAddr(client): crate::api::ClientAddr,
    visitor: Visitor,
    ApiJson(body): ApiJson<ChallengeRequest>,
) -> Result<impl IntoResponse, ApiError> {
    let session = visitor.acting()?;
    app.storage.admit_game(session.name.is_some())?;
    let terms = Terms {
        variant: body.variant,
        clock: body.clock.map(|c| c.0),
        rated: body.rated,
    };
    let target = match body.to {
        None => None,
        Some(name) => {
            let row = app
                .store
                .player_named(name.clone())
                .await?
                .ok_or_else(|| ApiError::NotFound(format!("there is no player {name}")))?;
            Some(Target {
                player: row.id,
                name: row.name.unwrap_or(name),
            })
        }
    };
    let to = target.as_ref().map(|t| t.player);
    let by = entrant(&app, session, &terms, client).await?;
    let (id, view) = {
        let mut lobby = app.lobby.lock();
        let id = lobby.challenge(by, terms, body.color, target, app.now_ms())?;
        let view = lobby
            .made_to(to.unwrap_or(session.player))
            .into_iter()
            .find(|c| c.id == id)
            .map(|c| ChallengeView::new(c, to));
        (id, view)
    };
    app.lobby.changed();
    if let (Some(to), Some(challenge)) = (to, view) {
        app.notify.tell(to, &Notice::Challenge { challenge });
    }
    Ok((StatusCode::CREATED, Json(ChallengeMade { id })))
}

/// `DELETE /api/lobby/challenges/{id}`
pub async fn withdraw(
    State(app): State<Arc<AppState>>,
    visitor: Visitor,
    Path(id): Path<u64>,
) -> Result<StatusCode, ApiError> {
    let session = visitor.acting()?;
    let gone = app.lobby.lock().withdraw(session.player, id)?;
    app.lobby.changed();
    tell_gone(&app, &[gone], Gone::Withdrawn);
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/lobby/challenges/{id}/decline`: the player challenged declines; the
/// challenger is told on every page they have open.
pub async fn decline(
    State(app): State<Arc<AppState>>,
    visitor: Visitor,
    Path(id): Path<u64>,
) -> Result<StatusCode, ApiError> {
    let session = visitor.acting()?;
    let declined = app.lobby.lock().decline(session.player, id)?;
    app.lobby.changed();
    tell_gone(&app, std::slice::from_ref(&declined), Gone::Declined);
    let by = session
        .name
        .as_ref()
        .map_or_else(String::new, |n| n.as_str().to_owned());
    app.notify
        .tell(declined.by.player, &Notice::Declined { id, by });
    Ok(StatusCode::NO_CONTENT)
}

/// The game a pairing started, for one of its players.
#[derive(Debug, Clone, Serialize)]
pub struct PairedAnswer {
    /// The game's id, or `null` while the player waits for quick pairing.
    pub game: Option<String>,
    /// The player's colour in it.
    pub color: Option<&'static str>,
}

/// `POST /api/lobby/challenges/{id}/accept`
pub async fn accept(
    State(app): State<Arc<AppState>>,
    crate::api::ClientAddr(client): crate::api::ClientAddr,
    visitor: Visitor,
    Path(id): Path<u64>,
) -> Result<impl IntoResponse, ApiError> {
    let session = visitor.acting()?;
    app.storage.admit_game(session.name.is_some())?;
    // The terms are the challenge's: read them to learn the accepter's rating in them.
    let (terms, direct) = app
        .lobby
        .lock()
        .visible(Some(session.player))
        .into_iter()
        .find(|c| c.id == id)
        .map(|c| (c.terms, c.to.is_some()))
        .ok_or(LobbyRefusal::NoChallenge)?;
    let by = entrant(&app, session, &terms, client).await?;
    let pairing = app.lobby.lock().accept(by, id, coin())?;
    if direct {
        // The player's other pages drop the challenge.
        let notice = Notice::ChallengeGone {
            id,
            why: Gone::Accepted,
        };
        app.notify.tell(session.player, &notice);
    }
    let color = crate::lobby::color_of(&pairing, session.player).map(|c| c.name());
    let state = start_pairing(&app, pairing).await?;
    Ok((
        StatusCode::CREATED,
        Json(PairedAnswer {
            game: Some(state.id.to_string()),
            color,
        }),
    ))
}

/// `POST /api/lobby/quick`: paired at once with a waiting player of close rating, or wait
/// (the pairing then comes by the lobby's WebSocket).
pub async fn quick(
    State(app): State<Arc<AppState>>,
    crate::api::ClientAddr(client): crate::api::ClientAddr,
    visitor: Visitor,
    ApiJson(body): ApiJson<QuickRequest>,
) -> Result<Json<PairedAnswer>, ApiError> {
    let session = visitor.acting()?;
    app.storage.admit_game(session.name.is_some())?;
    let terms = Terms {
        variant: body.variant,
        clock: Some(body.clock.0),
        rated: body.rated.unwrap_or(session.name.is_some()),
    };
    let by = entrant(&app, session, &terms, client).await?;
    let paired = app.lobby.lock().seek(by, terms, app.now_ms(), coin())?;
    app.lobby.changed();
    let Some(pairing) = paired else {
        return Ok(Json(PairedAnswer {
            game: None,
            color: None,
        }));
    };
    let color = crate::lobby::color_of(&pairing, session.player).map(|c| c.name());
    let state = start_pairing(&app, pairing).await?;
    Ok(Json(PairedAnswer {
        game: Some(state.id.to_string()),
        color,
    }))
}

/// `DELETE /api/lobby/quick`
pub async fn cancel_quick(
    State(app): State<Arc<AppState>>,
    visitor: Visitor,
) -> Result<StatusCode, ApiError> {
    let session = visitor.acting()?;
    if app.lobby.lock().cancel_seek(session.player) {
        app.lobby.changed();
    }
    Ok(StatusCode::NO_CONTENT)
}

/// Pairs the players waiting for quick pairing whose rating windows now meet. Returns how
/// many games started.
pub async fn pair_waiting(app: &Arc<AppState>) -> usize {
    let pairings = app.lobby.lock().pair_waiting(app.now_ms(), coin);
    let mut started = 0;
    for pairing in pairings {
        match start_pairing(app, pairing).await {
            Ok(_) => started += 1,
            Err(e) => tracing::error!("a pairing of the lobby failed: {e}"),
        }
    }
    started
}

/// `GET /api/lobby/ws`: the lobby at once and after every change; `paired` messages for the
/// session's player. While it is open the player is present: their challenges and seeks
/// live as long as their last lobby connection.
pub async fn watch(
    State(app): State<Arc<AppState>>,
    visitor: Visitor,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
    room: crate::ws::SocketRoom,
) -> Result<Response, ApiError> {
    let upgrade = crate::ws::open_socket(&headers, upgrade, &app, "the lobby's WebSocket")?;
    let player = visitor.player();
    Ok(upgrade.on_upgrade(move |socket| async move {
        room.upgraded();
        if let Some(p) = player {
            crate::lobby_hub::arrived(&app, p);
        }
        serve(socket, &app, player).await;
        if let Some(p) = player {
            app.lobby.unwatch_pairings(p);
            crate::lobby_hub::left(&app, p);
        }
        drop(room);
    }))
}

async fn send_json(socket: &mut WebSocket, value: &impl Serialize, limit: Duration) -> bool {
    let Ok(text) = serde_json::to_string(value) else {
        return false;
    };
    matches!(
        tokio::time::timeout(limit, socket.send(Message::Text(text.into()))).await,
        Ok(Ok(()))
    )
}

async fn serve(mut socket: WebSocket, app: &Arc<AppState>, player: Option<PlayerId>) {
    let limit = app.limits.send_timeout;
    let mut changes = app.lobby.subscribe();
    if !send_text(&mut socket, view_text(app, player), limit).await {
        return;
    }
    // The lobby is sent again at most every REFRESH after it changed; an idle connection
    // has no timer of its own, and one already due is not woken by further changes.
    let mut due: Option<tokio::time::Instant> = None;
    let mut pairings = player.map(|p| app.lobby.watch_pairings(p));
    loop {
        tokio::select! {
            changed = changes.changed(), if due.is_none() => {
                if changed.is_err() {
                    break;
                }
                due = Some(tokio::time::Instant::now() + REFRESH);
            }
            () = async { tokio::time::sleep_until(due.unwrap_or_else(tokio::time::Instant::now)).await }, if due.is_some() => {
                due = None;
                changes.mark_unchanged();
                if !send_text(&mut socket, view_text(app, player), limit).await {
                    break;
                }
            }
            changed = async {
                match pairings.as_mut() {
                    Some(w) => w.changed().await,
                    // A spectator of the lobby is paired with nobody.
                    None => std::future::pending().await,
                }
            } => {
                if changed.is_err() {
                    break;
                }
                let (Some(p), Some(w)) = (player, pairings.as_mut()) else { continue };
                let Some(paired) = w.borrow_and_update().clone() else { continue };
                let color = if paired.players.white == p { "white" } else { "black" };
                let message = PairedMessage { kind: "paired", game: paired.game.clone(), color };
                if !send_json(&mut socket, &message, limit).await {
                    break;
                }
            }
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Text(text))) => {
                    if crate::ws::is_ping(&text)
                        && !send_json(&mut socket, &crate::response::Pong { kind: "pong" }, limit).await
                    {
                        break;
                    }
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                Some(Ok(_)) => {}
            },
        }
    }
}
