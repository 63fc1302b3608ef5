//! The parts of a game between people beyond its plies: abort, claim after the opponent
//! left, rematch, and the game's chat.

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};

use super::{change_by_seat, view_for};
use crate::app::AppState;
use crate::chat::{ChatRefusal, Line, checked};
use crate::error::ApiError;
use crate::game_state::{DrawAction, Refusal};
use crate::request::{ApiJson, GameIdPath, GivenToken, TokenRequest, holder};
use crate::response::GameView;
use crate::seat::Seat;
use crate::session::Visitor;

/// `POST /api/games/{id}/abort`
pub async fn abort(
    State(app): State<Arc<AppState>>,
    GameIdPath(id): GameIdPath,
    visitor: Visitor,
    ApiJson(request): ApiJson<TokenRequest>,
) -> Result<Json<GameView>, ApiError> {
    let who = holder(&request.token, &visitor)?;
    change_by_seat(&app, &id, who, |s, w, now| s.abort(w, now)).await
}

/// What a claim asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClaimKind {
    /// The game, won.
    Win,
    /// A draw.
    Draw,
}

/// The body of `POST /api/games/{id}/claim`.
#[derive(Debug, Clone, Deserialize)]
pub struct ClaimRequest {
    /// The seat's token; without it the session's player acts.
    #[serde(default)]
    pub token: Option<GivenToken>,
    /// A win or a draw.
    pub result: ClaimKind,
}

/// `POST /api/games/{id}/claim`: the game, after the opponent has been gone long enough.
pub async fn claim(
    State(app): State<Arc<AppState>>,
    GameIdPath(id): GameIdPath,
    visitor: Visitor,
    ApiJson(request): ApiJson<ClaimRequest>,
) -> Result<Json<GameView>, ApiError> {
    let who = holder(&request.token, &visitor)?;
    let live = app.game(&id).await?;
    app.seen(&live, who, false).await?;
    let now = app.now_ms();
    let state = app
        .change(&live, |s| {
            let gone = match s.seat_of(who) {
                Some(Seat::One(c)) => live.presence().gone_for(!c, now),
                _ => None,
            };
            s.claim(who, request.result == ClaimKind::Draw, gone, now)
                .map(Some)
        })
        .await?;
    Ok(view_for(&app, &state, who))
}

/// The body of `POST /api/games/{id}/rematch`.
#[derive(Debug, Clone, Deserialize)]
pub struct RematchRequest {
    /// The seat's token; without it the session's player acts.
    #[serde(default)]
    pub token: Option<GivenToken>,
    /// Offer, accept or decline.
    pub action: DrawAction,
}

/// `POST /api/games/{id}/rematch`: offer, accept or decline a rematch of a finished game.
/// An accepted one starts at once with the colours swapped; its id is the old game's
/// `next_game`, and the same seats (tokens and players) hold it.
pub async fn rematch(
    State(app): State<Arc<AppState>>,
    GameIdPath(id): GameIdPath,
    visitor: Visitor,
    ApiJson(request): ApiJson<RematchRequest>,
) -> Result<Json<GameView>, ApiError> {
    let who = holder(&request.token, &visitor)?;
    let live = app.game(&id).await?;
    app.seen(&live, who, false).await?;
    let (state, started) = app.rematch(&live, who, request.action).await?;
    if let Some(next) = &started {
        app.lobby.add_playing(next);
        app.lobby.changed();
    }
    Ok(view_for(&app, &state, who))
}

/// The body of `POST /api/games/{id}/chat`.
#[derive(Debug, Clone, Deserialize)]
pub struct ChatRequest {
    /// The seat's token; without it the session's player writes.
    #[serde(default)]
    pub token: Option<GivenToken>,
    /// The line.
    pub text: String,
}

/// A line as sent to watchers: `{"type": "chat", "n": 0, "side": "white", "text": "…",
/// "at": …}`.
#[derive(Debug, Clone, Serialize)]
struct ChatMessage<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(flatten)]
    line: &'a Line,
}

/// `POST /api/games/{id}/chat`: a player's line, seen by everyone who watches; spectators
/// read only.
pub async fn say(
    State(app): State<Arc<AppState>>,
    GameIdPath(id): GameIdPath,
    visitor: Visitor,
    ApiJson(request): ApiJson<ChatRequest>,
) -> Result<(StatusCode, Json<Line>), ApiError> {
    let who = holder(&request.token, &visitor)?;
    let text = checked(&request.text)?;
    let live = app.game(&id).await?;
    app.seen(&live, who, false).await?;
    let state = live.snapshot().await;
    let side = match state.seat_of(who) {
        Some(Seat::One(c)) => c,
        Some(Seat::Both) => state.game.position().turn(),
        None => return Err(Refusal::NoSeat.into()),
    };
    if blocked(&app, &state).await? {
        return Err(ApiError::Forbidden(
            "you cannot chat with this player: one of you blocks the other".into(),
        ));
    }
    if let Some(me) = visitor.player() {
        let standing = app.store.standing(me).await?;
        if standing.muted(app.now_ms() / 1000) {
            return Err(ApiError::Forbidden(
                "your chat is muted by the site's moderators".into(),
            ));
        }
    }
    let now = app.now_ms();
    live.chat_rate().allow(side, now)?;
    let line = app
        .store
        .add_chat(&id, side, text, now)
        .await?
        .ok_or(ChatRefusal::Full)?;
    live.tell(&ChatMessage {
        kind: "chat",
        line: &line,
    });
    Ok((StatusCode::CREATED, Json(line)))
}

/// Whether one of the two accounts of a game blocks the other.
async fn blocked(app: &AppState, state: &crate::game_state::GameState) -> Result<bool, ApiError> {
    match (state.accounts.white, state.accounts.black) {
        (Some(w), Some(b)) if w != b => Ok(app.store.blocked_between(w, b).await?),
        _ => Ok(false),
    }
}

/// `GET /api/games/{id}/chat`: a player who blocks their opponent (or is blocked) sees only
/// their own lines.
pub async fn lines(
    State(app): State<Arc<AppState>>,
    GameIdPath(id): GameIdPath,
    visitor: Visitor,
) -> Result<Json<Vec<Line>>, ApiError> {
    let live = app.game(&id).await?;
    let mut lines = app.store.chat(&id).await?;
    let state = live.snapshot().await;
    let mine = [morris_core::Color::White, morris_core::Color::Black]
        .into_iter()
        .find(|&c| visitor.player().is_some() && *state.accounts.get(c) == visitor.player());
    if let Some(me) = mine
        && blocked(&app, &state).await?
    {
        lines.retain(|l| l.side == me.into());
    }
    Ok(Json(lines))
}
