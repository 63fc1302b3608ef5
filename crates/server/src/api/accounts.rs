//! The session and account endpoints: `GET /api/session` (a new anonymous player when the
//! request has no session), sign-up, sign-in, sign-out, change of password, and the list of
//! a player's sessions with a way to end each.
//!
//! Sign-up, sign-in and a change of password each end the session they were made in and
//! begin a new one (a new cookie, a new CSRF token): a session id that someone planted in
//! the browser before is worth nothing after. Sessions end by themselves after
//! [`SESSION_IDLE`] unused and [`SESSION_MAX_AGE`] in all.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::IntoResponse;
use serde::{Deserialize, Serialize};

use super::ClientAddr;
use crate::accounts::{
    AccountError, Password, PlayerId, SESSION_IDLE, SESSION_MAX_AGE, Session, SessionInfo,
    UserName, new_csrf,
};
use crate::app::AppState;
use crate::error::ApiError;
use crate::request::ApiJson;
use crate::seat::Token;
use crate::session::{Visitor, agent, cookie, removed_cookie};
use crate::store::NewSession;

/// A session as its holder sees it.
#[derive(Debug, Clone, Serialize)]
pub struct SessionView {
    /// The player's id.
    pub player: PlayerId,
    /// The user name, or `null` for an anonymous player.
    pub name: Option<String>,
    /// The token to send in `X-Morris-CSRF` with every state-changing request.
    pub csrf: String,
    /// Whether the player moderates the site.
    pub moderator: bool,
}

impl From<&Session> for SessionView {
    fn from(s: &Session) -> SessionView {
        SessionView {
            player: s.player,
            name: s.name.as_ref().map(|n| n.as_str().to_owned()),
            csrf: s.csrf.clone(),
            moderator: false,
        }
    }
}

/// The body of sign-up and sign-in.
#[derive(Debug, Clone, Deserialize)]
pub struct Credentials {
    /// The user name.
    pub name: UserName,
    /// The password.
    pub password: Password,
}

/// The body of a change of password.
#[derive(Debug, Clone, Deserialize)]
pub struct NewPassword {
    /// The password now.
    pub old: Password,
    /// The new one.
    pub new: Password,
}

/// Hashes off the async threads, at most a few at once.
async fn hashed<T: Send + 'static>(
    app: &AppState,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    let _permit = tokio::time::timeout(
        std::time::Duration::from_secs(10),
        app.hashing.clone().acquire_owned(),
    )
    .await
    .map_err(|_| ApiError::Unavailable("the server is busy: try again in a moment".into()))?
    .map_err(|_| ApiError::Unavailable("the server is stopping".into()))?;
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ApiError::Internal(format!("a password hash failed: {e}")))
}

/// A new session's cookie token and row, made now for the browser of `headers`.
fn fresh(app: &AppState, headers: &HeaderMap) -> (Token, NewSession) {
    let token = Token::random();
    let new = NewSession {
        hash: token.hash(),
        csrf: new_csrf(),
        agent: agent(headers),
        now: app.now_ms() / 1000,
    };
    (token, new)
}

/// Keeps a session that has just begun in memory and gives its cookie.
fn begun(app: &AppState, token: &Token, session: &Session) -> HeaderMap {
    app.sessions.put(&token.hash(), session.clone());
    let mut headers = HeaderMap::new();
    headers.insert(header::SET_COOKIE, cookie(token, app.secure_cookies));
    headers
}

/// `GET /api/session`: the session of the cookie; a request without one gets a new
/// anonymous player and the cookie that keeps it.
pub async fn session(
    State(app): State<Arc<AppState>>,
    ClientAddr(client): ClientAddr,
    request_headers: HeaderMap,
    visitor: Visitor,
) -> Result<impl IntoResponse, ApiError> {
    if let Some((_, s)) = &visitor.session {
        let mut view = SessionView::from(s);
        if s.name.is_some() {
            view.moderator = app.store.standing(s.player).await?.moderator;
        }
        return Ok((HeaderMap::new(), Json(view)));
    }
    if !app.creations.allow(client) {
        return Err(ApiError::TooManyRequests);
    }
    app.storage.admit_guest()?;
    let (token, new) = fresh(&app, &request_headers);
    let player = app.store.new_session(new.clone()).await?;
    let s = new.session(player, None);
    let headers = begun(&app, &token, &s);
    Ok((headers, Json(SessionView::from(&s))))
}

fn refused(e: AccountError) -> ApiError {
    match e {
        AccountError::BadName(_) | AccountError::BadPassword(_) => {
            ApiError::BadRequest(e.to_string())
        }
        AccountError::WrongPassword | AccountError::NotSignedIn => {
            ApiError::Forbidden(e.to_string())
        }
        AccountError::NameTaken | AccountError::AlreadySignedUp => {
            ApiError::Conflict(e.to_string())
        }
    }
}

/// `POST /api/session/signup`: the session's anonymous player takes a user name and a
/// password, and keeps their games.
pub async fn sign_up(
    State(app): State<Arc<AppState>>,
    ClientAddr(client): ClientAddr,
    request_headers: HeaderMap,
    visitor: Visitor,
    ApiJson(body): ApiJson<Credentials>,
) -> Result<impl IntoResponse, ApiError> {
    let session = visitor.acting()?.clone();
    let Some((token, _)) = visitor.session else {
        return Err(refused(AccountError::NotSignedIn));
    };
    if session.name.is_some() {
        return Err(refused(AccountError::AlreadySignedUp));
    }
    body.name.check_new().map_err(refused)?;
    body.password
        .check_strength(body.name.as_str())
        .map_err(refused)?;
    if !app.sign_ins.allow(client) {
        return Err(ApiError::Busy(
            "too many attempts from this address: wait a minute".into(),
        ));
    }
    let passwords = app.passwords.clone();
    let password = body.password;
    let hash = hashed(&app, move || passwords.hash(&password)).await?;
    let (new_token, new) = fresh(&app, &request_headers);
    app.store
        .sign_up(
            session.player,
            body.name.clone(),
            hash,
            token.hash(),
            new.clone(),
        )
        .await?
        .map_err(refused)?;
    app.sessions.forget(&token.hash());
    app.sign_in_guard
        .succeeded(body.name.as_str(), crate::connections::client_group(client));
    let s = new.session(session.player, Some(body.name));
    let headers = begun(&app, &new_token, &s);
    Ok((StatusCode::CREATED, headers, Json(SessionView::from(&s))))
}

/// `POST /api/session/signin`: the session ends and a new one of the account begins (a new
/// cookie and CSRF token); the games of the anonymous player it had become the account's,
/// those being played included.
pub async fn sign_in(
    State(app): State<Arc<AppState>>,
    ClientAddr(client): ClientAddr,
    request_headers: HeaderMap,
    visitor: Visitor,
    ApiJson(body): ApiJson<Credentials>,
) -> Result<impl IntoResponse, ApiError> {
    let session = visitor.acting()?.clone();
    let Some((token, _)) = visitor.session else {
        return Err(refused(AccountError::NotSignedIn));
    };
    if !app.sign_ins.allow(client) {
        return Err(ApiError::Busy(
            "too many sign-in attempts from this address: wait a minute".into(),
        ));
    }
    let now = app.now_ms() / 1000;
    let group = crate::connections::client_group(client);
    app.sign_in_guard.allow(body.name.as_str(), group, now)?;
    let asked = body.name.clone();
    let account = app.store.account(body.name).await?;
    let passwords = app.passwords.clone();
    let password = body.password;
    let (account, ok) = hashed(&app, move || match account {
        Some((id, name, hash)) => {
            let ok = passwords.verify(&password, Some(&hash));
            (Some((id, name)), ok)
        }
        // As slow as a wrong password, so that the time tells no name apart.
        None => (None, passwords.verify(&password, None)),
    })
    .await?;
    let (Some((id, name)), true) = (account, ok) else {
        app.sign_in_guard.failed(asked.as_str(), now);
        return Err(refused(AccountError::WrongPassword));
    };
    let standing = app.store.standing(id).await?;
    if standing.closed {
        return Err(ApiError::Forbidden(
            "this account is closed by the site's moderators".into(),
        ));
    }
    let (new_token, new) = fresh(&app, &request_headers);
    app.store
        .sign_in(token.hash(), session.player, id, new.clone())
        .await?;
    app.sessions.forget(&token.hash());
    app.sign_in_guard.succeeded(name.as_str(), group);
    if session.name.is_none() && session.player != id {
        app.seats_to_account(session.player, id, &name).await;
    }
    let s = new.session(id, Some(name));
    let headers = begun(&app, &new_token, &s);
    let mut view = SessionView::from(&s);
    view.moderator = standing.moderator;
    Ok((headers, Json(view)))
}

/// `POST /api/session/signout`: ends the session and removes the cookie.
pub async fn sign_out(
    State(app): State<Arc<AppState>>,
    visitor: Visitor,
) -> Result<impl IntoResponse, ApiError> {
    visitor.acting()?;
    if let Some((token, _)) = &visitor.session {
        app.store.end_session(token.hash()).await?;
        app.sessions.forget(&token.hash());
    }
    let mut headers = HeaderMap::new();
    headers.insert(header::SET_COOKIE, removed_cookie(app.secure_cookies));
    Ok((StatusCode::NO_CONTENT, headers))
}

/// `POST /api/session/password`: a signed-in player changes their password; all their
/// sessions end, and a new one begins for the browser that asked.
pub async fn change_password(
    State(app): State<Arc<AppState>>,
    ClientAddr(client): ClientAddr,
    request_headers: HeaderMap,
    visitor: Visitor,
    ApiJson(body): ApiJson<NewPassword>,
) -> Result<impl IntoResponse, ApiError> {
    let session = visitor.acting()?.clone();
    let Some(name) = session.name.clone() else {
        return Err(refused(AccountError::NotSignedIn));
    };
    body.new.check_strength(name.as_str()).map_err(refused)?;
    if !app.sign_ins.allow(client) {
        return Err(ApiError::Busy(
            "too many attempts from this address: wait a minute".into(),
        ));
    }
    let stored = app
        .store
        .password_hash(session.player)
        .await?
        .unwrap_or_default();
    let passwords = app.passwords.clone();
    let (old, new) = (body.old, body.new);
    let hash = hashed(&app, move || {
        passwords
            .verify(&old, Some(&stored))
            .then(|| passwords.hash(&new))
    })
    .await?
    .ok_or_else(|| refused(AccountError::WrongPassword))?;
    let (new_token, new) = fresh(&app, &request_headers);
    app.store
        .set_password(session.player, hash, new.clone())
        .await?;
    app.sessions.forget_player(session.player);
    let s = new.session(session.player, Some(name));
    let headers = begun(&app, &new_token, &s);
    Ok((headers, Json(SessionView::from(&s))))
}

/// The sessions of a player.
#[derive(Debug, Clone, Serialize)]
pub struct SessionList {
    /// Most recently used first.
    pub sessions: Vec<SessionInfo>,
    /// How long an unused session lives, in seconds.
    pub idle: i64,
    /// How long a session lives in all, in seconds.
    pub max_age: i64,
}

/// `GET /api/session/list`: the signed-in player's sessions (where they are signed in).
pub async fn list(
    State(app): State<Arc<AppState>>,
    visitor: Visitor,
) -> Result<Json<SessionList>, ApiError> {
    let Some((token, session)) = &visitor.session else {
        return Err(refused(AccountError::NotSignedIn));
    };
    if session.name.is_none() {
        return Err(refused(AccountError::NotSignedIn));
    }
    let sessions = app.store.sessions_of(session.player, token.hash()).await?;
    Ok(Json(SessionList {
        sessions,
        idle: SESSION_IDLE,
        max_age: SESSION_MAX_AGE,
    }))
}

/// `DELETE /api/session/list/{id}`: ends one of the player's sessions (signs that browser
/// out).
pub async fn revoke(
    State(app): State<Arc<AppState>>,
    visitor: Visitor,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let session = visitor.acting()?;
    if session.name.is_none() {
        return Err(refused(AccountError::NotSignedIn));
    }
    if id.len() != 16 || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(ApiError::BadRequest("a session id is 16 hex digits".into()));
    }
    match app
        .store
        .end_session_by_id(session.player, id.to_ascii_lowercase())
        .await?
    {
        Some(hash) => {
            app.sessions.forget(&hash);
            Ok(StatusCode::NO_CONTENT)
        }
        None => Err(ApiError::NotFound("no session of yours has this id".into())),
    }
}
