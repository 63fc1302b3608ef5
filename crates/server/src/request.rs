//! The bodies the server accepts, read straight into checked values; and the JSON extractor
//! that turns every failure to read one into an [`ApiError`].

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use morris_core::import::read_games;
use morris_core::{Color, Game, PlyText, Position, Variant};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};

use crate::clock::{TimeControl, TimeControlView};
use crate::computer::LEVELS;
use crate::error::ApiError;
use crate::game_state::DrawAction;
use crate::seat::{GameId, Holder, Name, Opponent, Token};
use crate::session::Visitor;

/// The creator's choice of colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum ColorChoice {
    /// White, who moves first.
    #[default]
    White,
    /// Black.
    Black,
    /// Drawn by lot.
    Random,
}

impl ColorChoice {
    /// The colour, drawing one for [`ColorChoice::Random`].
    pub fn pick(self) -> Color {
        match self {
            ColorChoice::White => Color::White,
            ColorChoice::Black => Color::Black,
            ColorChoice::Random => {
                if crate::seat::random_bytes::<1>()[0] & 1 == 0 {
                    Color::White
                } else {
                    Color::Black
                }
            }
        }
    }
}

/// The body of `POST /api/games` as sent; checked into a [`NewGame`].
#[derive(Debug, Clone, Deserialize)]
struct NewGameBody {
    #[serde(default, deserialize_with = "variant")]
    variant: Variant,
    #[serde(default = "computer")]
    opponent: Opponent,
    #[serde(default)]
    level: Option<u8>,
    #[serde(default)]
    color: ColorChoice,
    #[serde(default)]
    position: Option<String>,
    #[serde(default)]
    record: Option<String>,
    /// Which game of a record that holds several (from 1).
    #[serde(default)]
    game: Option<usize>,
    #[serde(default, deserialize_with = "name")]
    name: Option<Name>,
    #[serde(default)]
    clock: Option<ClockRequest>,
}

/// The body of `POST /api/games`, checked: a level in range, and the game to start from
/// read (a position string or an imported record, not both).
#[derive(Debug, Clone, Deserialize)]
#[serde(try_from = "NewGameBody")]
pub struct NewGame {
    /// Whom the creator plays.
    pub opponent: Opponent,
    /// The computer's level, 1 to 10 (3 when absent).
    pub level: u8,
    /// The creator's colour.
    pub color: ColorChoice,
    /// The game to start from: the variant's start, a position, or an imported record.
    pub game: Game,
    /// What the import did not take as written (a rule option changed, plies after the end
    /// left out, a result that disagrees), in words.
    pub warnings: Vec<String>,
    /// The creator's name.
    pub name: Option<Name>,
    /// The time control, if the game has a clock.
    pub clock: Option<TimeControl>,
}

impl TryFrom<NewGameBody> for NewGame {
    type Error = String;

    fn try_from(body: NewGameBody) -> Result<NewGame, String> {
        let level = body.level.unwrap_or(3);
        if !LEVELS.contains(&level) {
            return Err(format!(
                "the level must be from {} to {}, not {level}",
                LEVELS.start(),
                LEVELS.end()
            ));
        }
        let rules = body.variant.rules();
        let mut warnings = Vec::new();
        let game = match (&body.position, &body.record) {
            (Some(_), Some(_)) => return Err("give a position or a record, not both".into()),
            (Some(fen), None) => Position::from_fen(rules, fen)
                .map(Game::new)
                .map_err(|e| format!("the position cannot be used: {e}"))?,
            (None, Some(text)) => {
                let mut games = read_games(text, rules);
                let n = games.len();
                let which = body.game.unwrap_or(1);
                if which == 0 || which > n {
                    return Err(format!(
                        "the record holds {n} game{}: game must be from 1 to {n}",
                        if n == 1 { "" } else { "s" }
                    ));
                }
                let imported = games
                    .swap_remove(which - 1)
                    .map_err(|e| format!("the record cannot be imported: {}", e.error))?;
                warnings = imported.warnings.iter().map(ToString::to_string).collect();
                imported.record.game
            }
            (None, None) => Game::new(Position::new(rules)),
        };
        let clock = body.clock.map(|c| c.0);
        if clock.is_some() && body.opponent == Opponent::Local {
            return Err("a game on one device has no clock".into());
        }
        Ok(NewGame {
            clock,
            opponent: body.opponent,
            level,
            color: body.color,
            game,
            warnings,
            name: body.name,
        })
    }
}

fn computer() -> Opponent {
    Opponent::Computer
}

fn variant<'de, D: Deserializer<'de>>(d: D) -> Result<Variant, D::Error> {
    let text = String::deserialize(d)?;
    text.parse().map_err(serde::de::Error::custom)
}

fn name<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Name>, D::Error> {
    match Option::<String>::deserialize(d)? {
        None => Ok(None),
        Some(t) if t.trim().is_empty() => Ok(None),
        Some(t) => Name::new(&t).map(Some).map_err(serde::de::Error::custom),
    }
}

/// A ply as written in a request, read (not yet checked against the position).
fn ply_text<'de, D: Deserializer<'de>>(d: D) -> Result<PlyText, D::Error> {
    let text = String::deserialize(d)?;
    text.trim()
        .parse()
        .map_err(|e| serde::de::Error::custom(format!("cannot read the ply {text:?}: {e}")))
}

/// The id of a game in a request's path: a path that names no game is 404 at the edge.
#[derive(Debug, Clone)]
pub struct GameIdPath(pub GameId);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for GameIdPath {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<GameIdPath, ApiError> {
        let axum::extract::Path(text) =
            axum::extract::Path::<String>::from_request_parts(parts, state)
                .await
                .map_err(|_| ApiError::NotFound("there is no such API endpoint".into()))?;
        text.parse()
            .map(GameIdPath)
            .map_err(|()| ApiError::no_game(&text))
    }
}

/// A token as a request gives it: a readable one, or text that is no token (which holds no
/// seat, so it is refused with 403 like a wrong one rather than 400).
#[derive(Debug, Clone)]
pub struct GivenToken(pub Option<Token>);

impl<'de> Deserialize<'de> for GivenToken {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<GivenToken, D::Error> {
        let text = String::deserialize(d)?;
        Ok(GivenToken(text.parse().ok()))
    }
}

impl GivenToken {
    /// The token, or 403 for text that is no token.
    ///
    /// # Errors
    ///
    /// [`ApiError::Forbidden`] when the text was not 32 hex digits.
    pub fn token(&self) -> Result<&Token, ApiError> {
        self.0.as_ref().ok_or_else(|| {
            ApiError::Forbidden("this token holds no seat in this game: you can only watch".into())
        })
    }
}

/// The query of `GET /api/games/{id}/record`: the format to write.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
pub struct RecordQuery {
    /// The format; the project's own when absent.
    #[serde(default)]
    pub format: RecordFormat,
}

/// The formats a game record is written in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RecordFormat {
    /// The rule book's notation with tags.
    #[default]
    Morris,
    /// A record Sanmill imports (its `FEN` tag for a set-up game).
    Sanmill,
    /// PlayOK's numeric notation.
    Playok,
}

/// The body of `POST /api/import`: a record that may hold several games.
#[derive(Debug, Clone, Deserialize)]
pub struct ImportRequest {
    /// The variant to read the games of when a record does not say.
    #[serde(default, deserialize_with = "variant")]
    pub variant: Variant,
    /// The text.
    pub record: String,
}

/// Who acts on a game: the seat's token when the request gives one, else the player of the
/// session, for a request that proves it comes from the site's page.
///
/// # Errors
///
/// 403 for text that is no token, or for a session request without its CSRF token.
pub fn holder<'a>(
    token: &'a Option<GivenToken>,
    visitor: &Visitor,
) -> Result<Holder<'a>, ApiError> {
    match token {
        Some(t) => t.token().map(Holder::Token),
        None => visitor.acting().map(|s| Holder::Player(s.player)),
    }
}

/// The body of `POST /api/games/{id}/moves`.
#[derive(Debug, Clone, Deserialize)]
pub struct MoveRequest {
    /// The ply in notation, read.
    #[serde(rename = "move", deserialize_with = "ply_text")]
    pub ply: PlyText,
    /// The seat's token; without it the session's player acts.
    #[serde(default)]
    pub token: Option<GivenToken>,
}

/// A body that holds only a token: take-back, resignation.
#[derive(Debug, Clone, Deserialize)]
pub struct TokenRequest {
    /// The seat's token; without it the session's player acts.
    #[serde(default)]
    pub token: Option<GivenToken>,
    /// For a take-back in a game between people once the ply was answered: a request, or
    /// the answer to the opponent's.
    #[serde(default)]
    pub action: Option<DrawAction>,
}

/// The body of `POST /api/games/{id}/draw`.
#[derive(Debug, Clone, Deserialize)]
pub struct DrawRequest {
    /// The seat's token; without it the session's player acts.
    #[serde(default)]
    pub token: Option<GivenToken>,
    /// What to do.
    pub action: DrawAction,
}

/// The header that may carry a seat's token (besides `Authorization: Bearer …`).
pub const TOKEN_HEADER: &str = "x-morris-token";

/// A seat's token given in a header of a request that has no body (`GET /api/games/{id}`,
/// the WebSocket): `Authorization: Bearer TOKEN` or `X-Morris-Token: TOKEN`. Tokens never
/// travel in a URL, where logs and histories would keep them. Text that is no token counts
/// as no token (the request is then a spectator's).
#[derive(Debug, Clone, Default)]
pub struct HeaderToken(pub Option<Token>);

impl HeaderToken {
    /// The token of a request's headers, if one readable was given.
    pub fn of(headers: &axum::http::HeaderMap) -> HeaderToken {
        let bearer = headers
            .get(axum::http::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "));
        let own = headers.get(TOKEN_HEADER).and_then(|v| v.to_str().ok());
        HeaderToken(bearer.or(own).and_then(|t| t.trim().parse().ok()))
    }
}

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for HeaderToken {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _: &S,
    ) -> Result<HeaderToken, Self::Rejection> {
        Ok(HeaderToken::of(&parts.headers))
    }
}

/// A JSON body read into `T`, whose every failure is an [`ApiError`] with a JSON message.
#[derive(Debug, Clone)]
pub struct ApiJson<T>(pub T);

/// The body must arrive whole within [`crate::Limits::body_time`]: a body that drips a
/// byte now and then does not hold its connection for ever.
impl<T: DeserializeOwned> FromRequest<std::sync::Arc<crate::app::AppState>> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(
        req: Request,
        app: &std::sync::Arc<crate::app::AppState>,
    ) -> Result<ApiJson<T>, ApiError> {
        let read = axum::Json::<T>::from_request(req, app);
        match tokio::time::timeout(app.limits.body_time, read).await {
            Ok(Ok(axum::Json(value))) => Ok(ApiJson(value)),
            Ok(Err(rejection)) => Err(rejection_error(&rejection)),
            Err(_) => Err(ApiError::TimedOut),
        }
    }
}

fn rejection_error(rejection: &JsonRejection) -> ApiError {
    match rejection {
        JsonRejection::MissingJsonContentType(_) => ApiError::UnsupportedMediaType,
        JsonRejection::JsonDataError(e) => ApiError::BadRequest(format!(
            "the JSON body does not fit: {}",
            serde_reason(&e.body_text())
        )),
        JsonRejection::JsonSyntaxError(e) => ApiError::BadRequest(format!(
            "the body is not valid JSON: {}",
            serde_reason(&e.body_text())
        )),
        other if other.status() == StatusCode::PAYLOAD_TOO_LARGE => ApiError::TooLarge,
        other => ApiError::BadRequest(format!("cannot read the body: {}", other.body_text())),
    }
}

/// The useful end of axum's message ("Failed to deserialize the JSON body into the target
/// type: name: the name is empty at line 1 column 12" → "name: the name is empty at …").
fn serde_reason(text: &str) -> String {
    let prefixes = [
        "Failed to deserialize the JSON body into the target type: ",
        "Failed to parse the request body as JSON: ",
    ];
    let reason = prefixes
        .iter()
        .find_map(|p| text.strip_prefix(p))
        .unwrap_or(text);
    reason.chars().take(200).collect()
}

/// The body of `POST /api/lobby/challenges`.
#[derive(Debug, Clone, Deserialize)]
pub struct ChallengeRequest {
    /// The variant (`nine` when absent).
    #[serde(default, deserialize_with = "variant")]
    pub variant: Variant,
    /// The time control; no clock when absent.
    #[serde(default)]
    pub clock: Option<ClockRequest>,
    /// Whether the game is rated.
    #[serde(default)]
    pub rated: bool,
    /// The creator's colour.
    #[serde(default = "random")]
    pub color: ColorChoice,
    /// The one player the challenge is for, by user name.
    #[serde(default)]
    pub to: Option<crate::accounts::UserName>,
}

/// The body of `POST /api/lobby/quick`.
#[derive(Debug, Clone, Deserialize)]
pub struct QuickRequest {
    /// The variant (`nine` when absent).
    #[serde(default, deserialize_with = "variant")]
    pub variant: Variant,
    /// The time control.
    pub clock: ClockRequest,
    /// Whether the game is rated (for a signed-in player, rated when absent).
    #[serde(default)]
    pub rated: Option<bool>,
}

/// A time control as a request gives it: `"3+2"` or the object of [`TimeControlView`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockRequest(pub TimeControl);

impl<'de> Deserialize<'de> for ClockRequest {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ClockRequest, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Given {
            Text(String),
            View(TimeControlView),
        }
        let control = match Given::deserialize(d)? {
            Given::Text(t) => t.parse::<TimeControl>(),
            Given::View(v) => TimeControl::try_from(v),
        };
        control.map(ClockRequest).map_err(serde::de::Error::custom)
    }
}

fn random() -> ColorChoice {
    ColorChoice::Random
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_game_has_defaults() {
        let g: NewGame = serde_json::from_str("{}").unwrap();
        assert_eq!(g.game.position().rules().variant, Variant::Nine);
        assert_eq!(g.opponent, Opponent::Computer);
        assert_eq!(g.level, 3);
        assert_eq!(g.color, ColorChoice::White);
        assert!(g.name.is_none());
        let g: NewGame = serde_json::from_str(
            r#"{"variant":"six","opponent":"friend","color":"random","name":"  ","level":null}"#,
        )
        .unwrap();
        assert_eq!(g.game.position().rules().variant, Variant::Six);
        assert!(g.name.is_none());
    }

    #[test]
    fn bad_fields_are_refused_with_reasons() {
        let e = serde_json::from_str::<NewGame>(r#"{"variant":"ten"}"#).unwrap_err();
        assert!(e.to_string().contains("ten"), "{e}");
        let long = format!(r#"{{"name":"{}"}}"#, "x".repeat(41));
        let e = serde_json::from_str::<NewGame>(&long).unwrap_err();
        assert!(e.to_string().contains("40"), "{e}");
        assert!(serde_json::from_str::<NewGame>(r#"{"opponent":"robot"}"#).is_err());
        assert!(serde_json::from_str::<NewGame>(r#"{"level":300}"#).is_err());
        let e = serde_json::from_str::<NewGame>(r#"{"level":11}"#).unwrap_err();
        assert!(e.to_string().contains("from 1 to 10"), "{e}");
        let e = serde_json::from_str::<NewGame>(r#"{"position":"x","record":"y"}"#).unwrap_err();
        assert!(e.to_string().contains("not both"), "{e}");
        let e = serde_json::from_str::<MoveRequest>(r#"{"move":"x9y","token":"t"}"#).unwrap_err();
        assert!(e.to_string().contains("cannot read the ply"), "{e}");
        assert!(serde_json::from_str::<DrawRequest>(r#"{"token":"x","action":"maybe"}"#).is_err());
    }

    #[test]
    fn unreadable_tokens_hold_no_seat() {
        let m: MoveRequest = serde_json::from_str(r#"{"move":"d6","token":"nope"}"#).unwrap();
        assert_eq!(m.token.unwrap().token().unwrap_err().status(), 403);
        let t = Token::random();
        let m: MoveRequest =
            serde_json::from_str(&format!(r#"{{"move":"d6","token":"{t}"}}"#)).unwrap();
        assert_eq!(m.token.unwrap().token().unwrap(), &t);
    }
}
