//! The session and account endpoints: `GET /api/session` (a new anonymous player when the
//! request has no session), sign-up, sign-in, sign-out and change of password.

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::IntoResponse;
use serde::{Deserialize, Serialize};

use super::ClientAddr;
use crate::accounts::{AccountError, Password, PlayerId, Session, UserName, new_csrf};
use crate::app::AppState;
use crate::error::ApiError;
use crate::request::ApiJson;
use crate::seat::Token;
use crate::session::{Visitor, cookie, removed_cookie};

/// A session as its holder sees it.
#[derive(Debug, Clone, Serialize)]
pub struct SessionView {
    /// The player's id.
    pub player: PlayerId,
    /// The user name, or `null` for an anonymous player.
    pub name: Option<String>,
    /// The token to send in `X-Morris-CSRF` with every state-changing request.
    pub csrf: String,
}

impl From<&Session> for SessionView {
    fn from(s: &Session) -> SessionView {
        SessionView {
            player: s.player,
            name: s.name.as_ref().map(|n| n.as_str().to_owned()),
            csrf: s.csrf.clone(),
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

/// `GET /api/session`: the session of the cookie; a request without one gets a new
/// anonymous player and the cookie that keeps it.
pub async fn session(
    State(app): State<Arc<AppState>>,
    ClientAddr(client): ClientAddr,
    visitor: Visitor,
) -> Result<impl IntoResponse, ApiError> {
    if let Some((_, s)) = &visitor.session {
        return Ok((HeaderMap::new(), Json(SessionView::from(s))));
    }
    if !app.creations.allow(client) {
        return Err(ApiError::TooManyRequests);
    }
    let token = Token::random();
    let csrf = new_csrf();
    let player = app.store.new_session(token.hash(), csrf.clone()).await?;
    let s = Session {
        player,
        name: None,
        csrf,
    };
    app.sessions.put(&token.hash(), s.clone());
    let mut headers = HeaderMap::new();
    headers.insert(header::SET_COOKIE, cookie(&token, app.secure_cookies));
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
    if !app.sign_ins.allow(client) {
        return Err(ApiError::Busy(
            "too many attempts from this address: wait a minute".into(),
        ));
    }
    let passwords = app.passwords.clone();
    let password = body.password;
    let hash = hashed(&app, move || passwords.hash(&password)).await?;
    app.store
        .sign_up(session.player, body.name.clone(), hash)
        .await?
        .map_err(refused)?;
    let s = Session {
        name: Some(body.name),
        ..session
    };
    app.sessions.put(&token.hash(), s.clone());
    Ok((StatusCode::CREATED, Json(SessionView::from(&s))))
}

/// `POST /api/session/signin`: the session becomes the account's (with a new CSRF token);
/// the games of the anonymous player it had become the account's.
pub async fn sign_in(
    State(app): State<Arc<AppState>>,
    ClientAddr(client): ClientAddr,
    visitor: Visitor,
    ApiJson(body): ApiJson<Credentials>,
) -> Result<Json<SessionView>, ApiError> {
    let session = visitor.acting()?.clone();
    let Some((token, _)) = visitor.session else {
        return Err(refused(AccountError::NotSignedIn));
    };
    if !app.sign_ins.allow(client) {
        return Err(ApiError::Busy(
            "too many sign-in attempts from this address: wait a minute".into(),
        ));
    }
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
        return Err(refused(AccountError::WrongPassword));
    };
    let csrf = new_csrf();
    app.store
        .sign_in(token.hash(), session.player, id, csrf.clone())
        .await?;
    let s = Session {
        player: id,
        name: Some(name),
        csrf,
    };
    app.sessions.put(&token.hash(), s.clone());
    Ok(Json(SessionView::from(&s)))
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

/// `POST /api/session/password`: a signed-in player changes their password; their other
/// sessions end.
pub async fn change_password(
    State(app): State<Arc<AppState>>,
    ClientAddr(client): ClientAddr,
    visitor: Visitor,
    ApiJson(body): ApiJson<NewPassword>,
) -> Result<StatusCode, ApiError> {
    let session = visitor.acting()?.clone();
    let Some((token, _)) = visitor.session else {
        return Err(refused(AccountError::NotSignedIn));
    };
    if session.name.is_none() {
        return Err(refused(AccountError::NotSignedIn));
    }
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
    app.store
        .set_password(session.player, hash, token.hash())
        .await?;
    app.sessions.forget_player(session.player);
    Ok(StatusCode::NO_CONTENT)
}
