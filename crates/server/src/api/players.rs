//! Players' pages and game lists: a player's ratings, rating history and results, the games
//! of a player (or of the session's player) with filters, and the games being played now.

use std::sync::Arc;

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use morris_core::Variant;
use serde::{Deserialize, Deserializer, Serialize};

use crate::accounts::{PlayerId, UserName};
use crate::app::AppState;
use crate::error::ApiError;
use crate::lobby_hub::PlayingView;
use crate::session::Visitor;
use crate::store::{Counts, GameSummary, HistoryFilter, HistoryPoint, PlayerResult, RatingRow};

/// The query of a list of games.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct GamesQuery {
    /// Only this variant.
    #[serde(default, deserialize_with = "some_variant")]
    pub variant: Option<Variant>,
    /// Only games the player won, drew or lost.
    #[serde(default)]
    pub result: Option<PlayerResult>,
    /// `playing` or `over`.
    #[serde(default)]
    pub status: Option<Status>,
    /// Only games changed before this time (seconds since 1970), to page back.
    #[serde(default)]
    pub before: Option<i64>,
    /// The most games (20 when absent, at most 100).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// Whether listed games are played or over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Being played.
    Playing,
    /// Finished.
    Over,
}

fn some_variant<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Variant>, D::Error> {
    let text = String::deserialize(d)?;
    text.parse().map(Some).map_err(serde::de::Error::custom)
}

/// The query of a request, or 400 with a JSON message.
fn query(given: Result<Query<GamesQuery>, QueryRejection>) -> Result<GamesQuery, ApiError> {
    given.map(|Query(q)| q).map_err(|e| {
        let text = e.body_text();
        let reason = text
            .strip_prefix("Failed to deserialize query string: ")
            .unwrap_or(&text);
        ApiError::BadRequest(format!(
            "the query does not fit: {}",
            reason.chars().take(200).collect::<String>()
        ))
    })
}

impl GamesQuery {
    fn filter(&self) -> HistoryFilter {
        HistoryFilter {
            variant: self.variant,
            over: self.status.map(|s| s == Status::Over),
            result: self.result,
            people_only: false,
            limit: self.limit.unwrap_or(20),
            before: self.before,
        }
    }
}

/// A player's page.
#[derive(Debug, Clone, Serialize)]
pub struct PlayerView {
    /// The user name.
    pub name: String,
    /// When the player was first seen, in seconds since 1970.
    pub created: i64,
    /// A rating per variant and time class played.
    pub ratings: Vec<RatingRow>,
    /// The rating after each rated game, oldest first.
    pub history: Vec<HistoryPoint>,
    /// Wins, draws and losses against people.
    pub counts: Counts,
    /// Whether they have a page of the site open.
    pub online: bool,
    /// The game they play now, if one.
    pub playing: Option<String>,
}

async fn named(app: &AppState, name: &str) -> Result<(PlayerId, UserName, i64), ApiError> {
    let missing = || {
        ApiError::NotFound(format!(
            "there is no player {}",
            name.chars().take(20).collect::<String>()
        ))
    };
    let name = UserName::new(name).map_err(|_| missing())?;
    let row = app.store.player_named(name).await?.ok_or_else(missing)?;
    let shown = row.name.ok_or_else(missing)?;
    Ok((row.id, shown, row.created))
}

/// `GET /api/players/{name}`
pub async fn player(
    State(app): State<Arc<AppState>>,
    Path(name): Path<String>,
) -> Result<Json<PlayerView>, ApiError> {
    let (id, name, created) = named(&app, &name).await?;
    Ok(Json(PlayerView {
        name: name.to_string(),
        created,
        ratings: app.store.ratings(id).await?,
        history: app.store.history(id).await?,
        counts: app.store.counts(id).await?,
        online: app.notify.is_online(id),
        playing: app
            .lobby
            .playing_by_name()
            .remove(&name.as_str().to_lowercase()),
    }))
}

/// `GET /api/players/{name}/games`
pub async fn player_games(
    State(app): State<Arc<AppState>>,
    Path(name): Path<String>,
    given: Result<Query<GamesQuery>, QueryRejection>,
) -> Result<Json<Vec<GameSummary>>, ApiError> {
    let query = query(given)?;
    let (id, _, _) = named(&app, &name).await?;
    Ok(Json(app.store.games(Some(id), query.filter()).await?))
}

/// `GET /api/session/games`: the games of the session's player, signed up or not.
pub async fn my_games(
    State(app): State<Arc<AppState>>,
    visitor: Visitor,
    given: Result<Query<GamesQuery>, QueryRejection>,
) -> Result<Json<Vec<GameSummary>>, ApiError> {
    let query = query(given)?;
    let Some(player) = visitor.player() else {
        return Ok(Json(Vec::new()));
    };
    Ok(Json(app.store.games(Some(player), query.filter()).await?))
}

/// `GET /api/playing`: games between people being played now, newest first.
pub async fn playing(State(app): State<Arc<AppState>>) -> Json<Vec<PlayingView>> {
    Json(app.lobby.games_playing(50))
}

/// `GET /api/session/turn`: the session's games being played in which it is the player's
/// turn, correspondence games first, then the longest waiting.
pub async fn my_turn(
    State(app): State<Arc<AppState>>,
    visitor: Visitor,
) -> Result<Json<Vec<GameSummary>>, ApiError> {
    let Some(player) = visitor.player() else {
        return Ok(Json(Vec::new()));
    };
    let filter = HistoryFilter {
        variant: None,
        over: Some(false),
        result: None,
        people_only: true,
        limit: crate::store::MAX_LIST,
        before: None,
    };
    let mut turn = Vec::new();
    for summary in app.store.games(Some(player), filter).await? {
        let Ok(id) = summary.id.parse() else { continue };
        let Ok(live) = app.game(&id).await else {
            continue;
        };
        let state = live.snapshot().await;
        let mover = state.game.position().turn();
        if !state.is_over() && *state.accounts.get(mover) == Some(player) {
            turn.push(summary);
        }
    }
    let correspondence = |g: &GameSummary| g.clock.as_deref().is_some_and(|c| c.ends_with('d'));
    turn.sort_by_key(|g| (!correspondence(g), g.updated));
    Ok(Json(turn))
}

/// The signed-up player of a request that acts, or 403 for a guest.
fn account(visitor: &Visitor) -> Result<&crate::accounts::Session, ApiError> {
    let session = visitor.acting()?;
    if session.name.is_none() {
        return Err(ApiError::Forbidden(
            "this is for signed-up players: sign up or sign in first".into(),
        ));
    }
    Ok(session)
}

/// The player named in a path, other than the session's own.
async fn other(app: &AppState, me: PlayerId, name: &str) -> Result<PlayerId, ApiError> {
    let (id, _, _) = named(app, name).await?;
    if id == me {
        return Err(ApiError::Conflict("this is your own account".into()));
    }
    Ok(id)
}

/// `POST /api/players/{name}/block`: the player can no longer challenge the session's
/// player, be paired with them, or chat in their games.
pub async fn block(
    State(app): State<Arc<AppState>>,
    visitor: Visitor,
    Path(name): Path<String>,
) -> Result<axum::http::StatusCode, ApiError> {
    let me = account(&visitor)?.player;
    let them = other(&app, me, &name).await?;
    if !app.store.block(me, them, app.now_ms() / 1000).await? {
        return Err(ApiError::Busy(format!(
            "you block as many players as you may ({})",
            crate::store::MAX_BLOCKS
        )));
    }
    Ok(axum::http::StatusCode::NO_CONTENT)
}

/// `DELETE /api/players/{name}/block`
pub async fn unblock(
    State(app): State<Arc<AppState>>,
    visitor: Visitor,
    Path(name): Path<String>,
) -> Result<axum::http::StatusCode, ApiError> {
    let me = account(&visitor)?.player;
    let them = other(&app, me, &name).await?;
    app.store.unblock(me, them).await?;
    Ok(axum::http::StatusCode::NO_CONTENT)
}

/// `GET /api/session/blocks`: the user names the session's player blocks.
pub async fn blocks(
    State(app): State<Arc<AppState>>,
    visitor: Visitor,
) -> Result<Json<Vec<String>>, ApiError> {
    match visitor.player() {
        Some(p) => Ok(Json(app.store.blocked_by(p).await?)),
        None => Ok(Json(Vec::new())),
    }
}

/// The body of a report.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportRequest {
    /// Why, in the reporter's words.
    pub reason: String,
    /// The game it is about, if one.
    #[serde(default)]
    pub game: Option<String>,
}

/// `POST /api/players/{name}/report` `{"reason": "…", "game": "…"}`: kept for a moderator.
pub async fn report(
    State(app): State<Arc<AppState>>,
    visitor: Visitor,
    Path(name): Path<String>,
    crate::request::ApiJson(body): crate::request::ApiJson<ReportRequest>,
) -> Result<axum::http::StatusCode, ApiError> {
    let me = account(&visitor)?.player;
    let them = other(&app, me, &name).await?;
    let reason = crate::text::visible_line(&body.reason).unwrap_or_default();
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(ApiError::BadRequest(
            "say why you report this player".into(),
        ));
    }
    if reason.chars().count() > crate::store::MAX_REASON {
        return Err(ApiError::BadRequest(format!(
            "a reason is at most {} characters",
            crate::store::MAX_REASON
        )));
    }
    let game = match body.game {
        None => None,
        Some(g) => Some(
            g.parse::<crate::seat::GameId>()
                .map_err(|()| ApiError::no_game(&g))?
                .to_string(),
        ),
    };
    let kept = app
        .store
        .report(me, them, reason.to_owned(), game, app.now_ms() / 1000)
        .await?;
    if !kept {
        return Err(ApiError::Busy(format!(
            "you have made as many reports today as you may ({})",
            crate::store::REPORTS_PER_DAY
        )));
    }
    Ok(axum::http::StatusCode::CREATED)
}

/// The query of a leaderboard.
#[derive(Debug, Clone, Deserialize)]
pub struct LeadersQuery {
    /// The variant (`nine` when absent).
    #[serde(default, deserialize_with = "some_variant")]
    pub variant: Option<Variant>,
    /// The time class (`blitz` when absent).
    #[serde(default)]
    pub class: Option<crate::clock::TimeClass>,
}

/// `GET /api/leaderboard?variant=nine&class=blitz`: the 100 best established ratings.
pub async fn leaderboard(
    State(app): State<Arc<AppState>>,
    given: Result<Query<LeadersQuery>, QueryRejection>,
) -> Result<Json<Vec<crate::store::Leader>>, ApiError> {
    let Query(q) = given.map_err(|e| {
        ApiError::BadRequest(format!(
            "the query does not fit: {}",
            e.body_text().chars().take(200).collect::<String>()
        ))
    })?;
    let variant = q.variant.unwrap_or(Variant::Nine).name();
    let class = q.class.unwrap_or(crate::clock::TimeClass::Blitz);
    Ok(Json(
        app.store
            .leaders(variant, class, crate::store::MAX_LIST)
            .await?,
    ))
}

/// `POST /api/players/{name}/follow`: the player is listed, with whether they are online and
/// what they play, in the session's player's `GET /api/session/following`.
pub async fn follow(
    State(app): State<Arc<AppState>>,
    visitor: Visitor,
    Path(name): Path<String>,
) -> Result<axum::http::StatusCode, ApiError> {
    let me = account(&visitor)?.player;
    let them = other(&app, me, &name).await?;
    if !app.store.follow(me, them, app.now_ms() / 1000).await? {
        return Err(ApiError::Busy(format!(
            "you follow as many players as you may ({})",
            crate::store::MAX_FOLLOWS
        )));
    }
    Ok(axum::http::StatusCode::NO_CONTENT)
}

/// `DELETE /api/players/{name}/follow`
pub async fn unfollow(
    State(app): State<Arc<AppState>>,
    visitor: Visitor,
    Path(name): Path<String>,
) -> Result<axum::http::StatusCode, ApiError> {
    let me = account(&visitor)?.player;
    let them = other(&app, me, &name).await?;
    app.store.unfollow(me, them).await?;
    Ok(axum::http::StatusCode::NO_CONTENT)
}

/// A player followed, as the list shows them.
#[derive(Debug, Clone, Serialize)]
pub struct Followed {
    /// The user name.
    pub name: String,
    /// Whether they have a page of the site open.
    pub online: bool,
    /// The game they play now, if one.
    pub playing: Option<String>,
}

/// `GET /api/session/following`: the players the session's player follows, online first.
pub async fn following(
    State(app): State<Arc<AppState>>,
    visitor: Visitor,
) -> Result<Json<Vec<Followed>>, ApiError> {
    let Some(me) = visitor.player() else {
        return Ok(Json(Vec::new()));
    };
    let rows = app.store.followed_by(me).await?;
    let ids: Vec<PlayerId> = rows.iter().map(|(id, _)| *id).collect();
    let online = app.notify.online_of(&ids);
    let mut playing = app.lobby.playing_by_name();
    let mut list: Vec<Followed> = rows
        .into_iter()
        .zip(online)
        .map(|((_, name), online)| Followed {
            playing: playing.remove(&name.to_lowercase()),
            name,
            online,
        })
        .collect();
    list.sort_by_key(|f| !f.online);
    Ok(Json(list))
}

/// Who is on the site.
#[derive(Debug, Clone, Serialize)]
pub struct OnlineView {
    /// How many players (guests too) have a page of the site open.
    pub players: usize,
    /// The signed-up ones among the first 100, by name.
    pub names: Vec<String>,
}

/// `GET /api/online`
pub async fn online(State(app): State<Arc<AppState>>) -> Result<Json<OnlineView>, ApiError> {
    let players = app.notify.players();
    let names = app.store.names_of(app.notify.online(100)).await?;
    Ok(Json(OnlineView { players, names }))
}

/// The query of a player search.
#[derive(Debug, Clone, Deserialize)]
pub struct SearchQuery {
    /// The beginning of the name, 1 to 20 characters.
    pub q: String,
}

/// `GET /api/players?q=PREFIX`: the accounts whose names begin so (any case), at most 20.
pub async fn search(
    State(app): State<Arc<AppState>>,
    given: Result<Query<SearchQuery>, QueryRejection>,
) -> Result<Json<Vec<String>>, ApiError> {
    let Query(q) =
        given.map_err(|_| ApiError::BadRequest("give the beginning of a name: ?q=…".into()))?;
    let prefix = q.q.trim();
    let len = prefix.chars().count();
    if len == 0 || len > 20 {
        return Err(ApiError::BadRequest(
            "the beginning of a name is 1 to 20 characters".into(),
        ));
    }
    Ok(Json(app.store.search_names(prefix.to_owned(), 20).await?))
}
