//! The handlers of the HTTP API (docs/api.md): each reads its request into checked values,
//! asks the game state for the change, and answers with the game as it is after.

pub mod accounts;
pub mod lobby;
pub mod moderation;
pub mod notify;
pub mod play;
pub mod players;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;

use axum::Json;
use axum::extract::{ConnectInfo, FromRequestParts, Query, State};
use axum::http::request::Parts;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use morris_core::{ByColor, Color, GameRecord, Variant};
use morris_engine::EngineOptions;

use crate::app::AppState;
use crate::error::ApiError;
use crate::game_state::{GameState, Refusal};
use crate::request::{
    ApiJson, DrawRequest, GameIdPath, HeaderToken, ImportRequest, MoveRequest, NewGame,
    RecordFormat, RecordQuery, TokenRequest, holder,
};
use crate::response::{
    AnalysisView, Created, GameView, HintView, ImportedView, LevelView, VariantView,
};
use crate::seat::{GameId, Holder, Opponent, Player, Token, TokenHash};
use crate::session::Visitor;

/// The address of the client, when the server knows it.
#[derive(Debug, Clone, Copy)]
pub struct ClientAddr(pub IpAddr);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddr {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<ClientAddr, Self::Rejection> {
        let addr = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip());
        Ok(ClientAddr(addr))
    }
}

/// `GET /api/levels`: each level of the computer with its estimated rating.
pub async fn levels() -> Json<Vec<LevelView>> {
    Json(
        (1..=EngineOptions::MAX_LEVEL)
            .map(|level| LevelView {
                level,
                rating: morris_engine::estimated_rating(level),
            })
            .collect(),
    )
}

/// `GET /api/variants`
pub async fn variants() -> Json<Vec<VariantView>> {
    Json(Variant::ALL.into_iter().map(VariantView::new).collect())
}

/// `POST /api/games`
pub async fn create(
    State(app): State<Arc<AppState>>,
    ClientAddr(client): ClientAddr,
    visitor: Visitor,
    ApiJson(request): ApiJson<NewGame>,
) -> Result<impl IntoResponse, ApiError> {
    if !app.creations.allow(client) {
        return Err(ApiError::TooManyRequests);
    }
    let signed_in = visitor
        .session
        .as_ref()
        .is_some_and(|(_, s)| s.name.is_some());
    app.storage.admit_game(signed_in)?;
    // A name typed for the game may not pass for another player's account.
    if let Some(name) = &request.name
        && let Some(owner) = app.store.account_like(name.as_str().to_owned()).await?
        && Some(owner) != visitor.player()
    {
        return Err(ApiError::BadRequest(
            "this name is another player's account: choose another".into(),
        ));
    }
    let game = request.game;
    let color = request.color.pick();
    let creator = Token::random();
    let other = (request.opponent == Opponent::Friend).then(Token::random);
    let human = Player::Human(request.name.clone());
    let (players, seats) = match request.opponent {
        Opponent::Computer => seated(
            color,
            (human, Some(creator.hash())),
            (Player::Computer(request.level), None),
        ),
        Opponent::Friend => seated(
            color,
            (human, Some(creator.hash())),
            (Player::Human(None), other.as_ref().map(Token::hash)),
        ),
        Opponent::Local => seated(
            color,
            (human, Some(creator.hash())),
            (Player::Human(None), Some(creator.hash())),
        ),
    };
    let mut state = GameState::new(
        GameId::random(),
        game,
        request.opponent,
        players,
        seats,
        unix_now(),
    );
    // A session that proves it is the site's page links the creator's seat to its player, so
    // that the game is among theirs.
    if let Some(player) = visitor.checked_player() {
        *state.accounts.get_mut(color) = Some(player);
    }
    if let Some(control) = request.clock {
        state.start_clock(control, app.now_ms());
    }
    // The friend invited by link has not come: nothing runs or is claimed until they do.
    if request.opponent == Opponent::Friend {
        state.awaiting = Some(!color);
    }
    let live = app.create(state).await?;
    let state = live.snapshot().await;
    let body = Created {
        id: state.id.to_string(),
        color: color.into(),
        invite: other,
        game: GameView::new(&state, state.seat_of(&creator), app.now_ms()),
        token: creator,
        warnings: request.warnings,
    };
    let location = format!("/api/games/{}", state.id);
    Ok((
        StatusCode::CREATED,
        [(header::LOCATION, location)],
        Json(body),
    ))
}

type Seated = (Player, Option<TokenHash>);

/// The players and seat hashes with the creator's seat on `color`.
fn seated(
    color: Color,
    (me, my_seat): Seated,
    (them, their_seat): Seated,
) -> (ByColor<Player>, ByColor<Option<TokenHash>>) {
    let players = ByColor::new(me, them);
    let seats = ByColor::new(my_seat, their_seat);
    match color {
        Color::White => (players, seats),
        Color::Black => (players.swap(), seats.swap()),
    }
}

fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(0))
}

/// `GET /api/games/{id}` (with the token in a header, so that `you` names its seat)
pub async fn game(
    State(app): State<Arc<AppState>>,
    GameIdPath(id): GameIdPath,
    HeaderToken(token): HeaderToken,
    visitor: Visitor,
) -> Result<Json<GameView>, ApiError> {
    let live = app.game(&id).await?;
    // A poll of a seat counts as its presence, and brings a friend invited by link.
    let player = visitor.player();
    if let Some(who) = token
        .as_ref()
        .map(Holder::Token)
        .or(player.map(Holder::Player))
    {
        app.seen(&live, who, true).await?;
    }
    let state = live.snapshot().await;
    let you = token
        .as_ref()
        .and_then(|t| state.seat_of(t))
        .or_else(|| player.and_then(|p| state.seat_of(p)));
    Ok(Json(GameView::new(&state, you, app.now_ms())))
}

/// Makes the change of the seat that `who` holds to game `id` and answers with the game as
/// that seat sees it.
pub(crate) async fn change_by_seat(
    app: &Arc<AppState>,
    id: &GameId,
    who: Holder<'_>,
    change: impl FnOnce(&GameState, Holder<'_>, crate::clock::Millis) -> Result<GameState, Refusal>,
) -> Result<Json<GameView>, ApiError> {
    let live = app.game(id).await?;
    app.seen(&live, who, false).await?;
    let now = app.now_ms();
    let state = app
        .change(&live, |s| {
            // The first change of a friend invited by link is also their arrival.
            if s.awaits(who) {
                let mut came = s.clone();
                came.came(now);
                change(&came, who, now).map(Some)
            } else {
                change(s, who, now).map(Some)
            }
        })
        .await?;
    Ok(view_for(app, &state, who))
}

/// The answer to a change: the game as the seat `who` holds sees it now.
pub(crate) fn view_for<'a>(
    app: &AppState,
    state: &GameState,
    who: impl Into<Holder<'a>>,
) -> Json<GameView> {
    Json(GameView::new(state, state.seat_of(who), app.now_ms()))
}

/// `POST /api/games/{id}/moves`
pub async fn play(
    State(app): State<Arc<AppState>>,
    GameIdPath(id): GameIdPath,
    visitor: Visitor,
    ApiJson(request): ApiJson<MoveRequest>,
) -> Result<Json<GameView>, ApiError> {
    let who = holder(&request.token, &visitor)?;
    change_by_seat(&app, &id, who, |s, w, now| s.play(w, &request.ply, now)).await
}

/// `POST /api/games/{id}/takeback`
pub async fn takeback(
    State(app): State<Arc<AppState>>,
    GameIdPath(id): GameIdPath,
    visitor: Visitor,
    ApiJson(request): ApiJson<TokenRequest>,
) -> Result<Json<GameView>, ApiError> {
    let who = holder(&request.token, &visitor)?;
    match request.action {
        None => change_by_seat(&app, &id, who, |s, w, now| s.takeback(w, now)).await,
        Some(action) => {
            change_by_seat(&app, &id, who, |s, w, now| {
                s.takeback_request(w, action, now)
            })
            .await
        }
    }
}

/// `POST /api/games/{id}/resign`
pub async fn resign(
    State(app): State<Arc<AppState>>,
    GameIdPath(id): GameIdPath,
    visitor: Visitor,
    ApiJson(request): ApiJson<TokenRequest>,
) -> Result<Json<GameView>, ApiError> {
    let who = holder(&request.token, &visitor)?;
    change_by_seat(&app, &id, who, |s, w, now| s.resign(w, now)).await
}

/// `POST /api/games/{id}/draw`
pub async fn draw(
    State(app): State<Arc<AppState>>,
    GameIdPath(id): GameIdPath,
    visitor: Visitor,
    ApiJson(request): ApiJson<DrawRequest>,
) -> Result<Json<GameView>, ApiError> {
    let live = app.game(&id).await?;
    let token = holder(&request.token, &visitor)?;
    let before = live.snapshot().await;
    // Check the request before asking the engine; the change below checks it again.
    before.draw(token, request.action, false, app.now_ms())?;
    let accepts = match before.computer_color() {
        Some(computer) if !before.is_over() => {
            app.computer
                .accepts_draw(before.game.clone(), computer)
                .await?
        }
        _ => false,
    };
    let now = app.now_ms();
    let state = app
        .change(&live, |s| s.draw(token, request.action, accepts, now))
        .await?;
    Ok(view_for(&app, &state, token))
}

/// `GET /api/games/{id}/hint`
pub async fn hint(
    State(app): State<Arc<AppState>>,
    ClientAddr(client): ClientAddr,
    GameIdPath(id): GameIdPath,
) -> Result<Json<HintView>, ApiError> {
    let state = app.game(&id).await?.snapshot().await;
    state.require_coaching()?;
    state.require_playing()?;
    Ok(Json(app.computer.hint(state.game, client).await?))
}

/// `GET /api/games/{id}/analysis`
pub async fn analysis(
    State(app): State<Arc<AppState>>,
    ClientAddr(client): ClientAddr,
    GameIdPath(id): GameIdPath,
) -> Result<Json<AnalysisView>, ApiError> {
    let state = app.game(&id).await?.snapshot().await;
    state.require_coaching()?;
    Ok(Json(app.computer.analyse(state.game, client).await?))
}

/// `POST /api/import`: the games a record holds, each with what importing it would say, so
/// that a client can offer the list; nothing is created.
pub async fn import(ApiJson(request): ApiJson<ImportRequest>) -> Json<Vec<ImportedView>> {
    let games = morris_core::import::read_games(&request.record, request.variant.rules());
    Json(
        games
            .into_iter()
            .enumerate()
            .map(|(i, g)| match g {
                Ok(g) => {
                    let tag = |name: &str| g.record.tag(name).map(str::to_owned);
                    ImportedView {
                        game: i + 1,
                        format: Some(g.format.name()),
                        white: tag("White"),
                        black: tag("Black"),
                        event: tag("Event"),
                        result: tag("Result"),
                        variant: Some(g.record.game.start().rules().variant.name()),
                        plies: g.record.game.plies().len(),
                        warnings: g.warnings.iter().map(ToString::to_string).collect(),
                        error: None,
                    }
                }
                Err(e) => ImportedView {
                    game: i + 1,
                    format: None,
                    white: None,
                    black: None,
                    event: None,
                    result: None,
                    variant: None,
                    plies: 0,
                    warnings: Vec::new(),
                    error: Some(e.error.to_string()),
                },
            })
            .collect(),
    )
}

/// `GET /api/games/{id}/record[?format=morris|sanmill|playok]`
pub async fn record(
    State(app): State<Arc<AppState>>,
    GameIdPath(id): GameIdPath,
    Query(query): Query<RecordQuery>,
) -> Result<impl IntoResponse, ApiError> {
    let live = app.game(&id).await?;
    let state = live.snapshot().await;
    let name = |c: Color| match state.players.get(c) {
        Player::Human(Some(n)) => n.as_str().to_owned(),
        Player::Human(None) => "?".to_owned(),
        Player::Computer(level) => format!("Computer (level {level})"),
    };
    let mut record = GameRecord::new(state.game.clone());
    let event = if state.rated {
        "Rated game"
    } else {
        "Casual game"
    };
    record.tags = vec![
        ("Event".into(), event.into()),
        ("Site".into(), "morris".into()),
        ("Date".into(), civil_date(state.created)),
        ("White".into(), name(Color::White)),
        ("Black".into(), name(Color::Black)),
    ];
    record.tags.extend(rating_tags(&app, &state).await?);
    if let Some(clock) = &state.clock {
        record
            .tags
            .push(("TimeControl".into(), time_control_tag(clock.control)));
    }
    let text = match query.format {
        RecordFormat::Morris => record.to_string(),
        RecordFormat::Sanmill => morris_core::export::sanmill_record(&record)
            .map_err(|e| ApiError::Conflict(format!("no Sanmill record of this game: {e}")))?,
        RecordFormat::Playok => morris_core::export::playok_record(&record)
            .map_err(|e| ApiError::Conflict(format!("no PlayOK record of this game: {e}")))?,
    };
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text))
}

/// The players' ratings of a rated game, as records tag them: each rating before the game
/// (`WhiteElo`), and once it ended, the change (`WhiteRatingDiff`, `+12` or `-12`).
async fn rating_tags(
    app: &AppState,
    state: &crate::game_state::GameState,
) -> Result<Vec<(String, String)>, ApiError> {
    let mut tags = Vec::new();
    if !state.rated {
        return Ok(tags);
    }
    for (c, side) in [(Color::White, "White"), (Color::Black, "Black")] {
        if let Some(change) = &state.ratings {
            let change = change.get(c);
            let before = change.before.rating.round() as i64;
            let diff = change.after.rating.round() as i64 - before;
            tags.push((format!("{side}Elo"), before.to_string()));
            tags.push((format!("{side}RatingDiff"), format!("{diff:+}")));
        } else if let (Some(player), Some(clock)) = (*state.accounts.get(c), state.clock) {
            let variant = state.game.start().rules().variant.name();
            let rating = app
                .store
                .rating(player, variant, clock.control.class())
                .await?;
            tags.push((
                format!("{side}Elo"),
                (rating.rating.round() as i64).to_string(),
            ));
        }
    }
    Ok(tags)
}

/// A time control as records tag it: `180+2` (seconds and increment), or for a
/// correspondence game `1/259200` (one ply in so many seconds).
fn time_control_tag(control: crate::clock::TimeControl) -> String {
    match control {
        crate::clock::TimeControl::Fischer { base, increment } => {
            format!("{}+{}", base / 1000, increment / 1000)
        }
        crate::clock::TimeControl::Correspondence { days } => {
            format!("1/{}", u64::from(days) * 86_400)
        }
    }
}

/// `YYYY.MM.DD` of a time in seconds since 1970 (UTC), as game records write dates.
fn civil_date(seconds: i64) -> String {
    // Howard Hinnant's days-to-civil algorithm.
    let z = seconds.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

/// Any other path under `/api`.
pub async fn unknown() -> ApiError {
    ApiError::NotFound("there is no such API endpoint".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil() {
        assert_eq!(civil_date(0), "1970.01.01");
        assert_eq!(civil_date(951_782_400), "2000.02.29");
        assert_eq!(civil_date(1_798_675_200), "2026.12.31");
    }
}
