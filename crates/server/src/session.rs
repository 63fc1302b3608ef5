//! The session cookie at the edge: who a request comes from, and whether a request that the
//! cookie authorises really comes from the site's own page.
//!
//! A browser sends the cookie with every request to the site, also with those that another
//! site's page makes it send. So every state-changing request authorised by the cookie must
//! also carry the session's CSRF token in the `X-Morris-CSRF` header (a page of another site
//! can neither read the token nor set the header without the server's consent, which it
//! never gives), and its `Origin`, when it has one, must be the site itself.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, header};

use crate::accounts::{PlayerId, Session, same_secret};
use crate::app::AppState;
use crate::error::ApiError;
use crate::seat::{Token, TokenHash};

/// The name of the session cookie.
pub const COOKIE: &str = "morris_session";

/// The header that carries the session's CSRF token.
pub const CSRF_HEADER: &str = "x-morris-csrf";

/// How long a browser keeps the cookie: a year.
const COOKIE_AGE: u32 = 365 * 24 * 3600;

/// The sessions in memory at most; past it the cache starts afresh (the database has them).
const MAX_CACHED: usize = 100_000;

/// The sessions read so far, so that a request does not wait for the database to learn its
/// player.
#[derive(Debug, Default)]
pub struct Sessions(Mutex<HashMap<[u8; 32], Session>>);

impl Sessions {
    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<[u8; 32], Session>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The cached session of a cookie's hash.
    pub fn get(&self, hash: &TokenHash) -> Option<Session> {
        self.map().get(&hash.0).cloned()
    }

    /// Keeps a session.
    pub fn put(&self, hash: &TokenHash, session: Session) {
        let mut map = self.map();
        if map.len() >= MAX_CACHED {
            map.clear();
        }
        map.insert(hash.0, session);
    }

    /// Forgets a session.
    pub fn forget(&self, hash: &TokenHash) {
        self.map().remove(&hash.0);
    }

    /// Forgets every session of a player (after a change of password).
    pub fn forget_player(&self, player: PlayerId) {
        self.map().retain(|_, s| s.player != player);
    }
}

/// The `Set-Cookie` value of a session (`HttpOnly; SameSite=Lax`, and `Secure` when the site
/// is served over TLS).
pub fn cookie(token: &Token, secure: bool) -> HeaderValue {
    let secure = if secure { "; Secure" } else { "" };
    let text =
        format!("{COOKIE}={token}; Path=/; Max-Age={COOKIE_AGE}; HttpOnly; SameSite=Lax{secure}");
    HeaderValue::from_str(&text).unwrap_or(HeaderValue::from_static(""))
}

/// The `Set-Cookie` value that removes the session cookie.
pub fn removed_cookie(secure: bool) -> HeaderValue {
    let secure = if secure { "; Secure" } else { "" };
    HeaderValue::from_str(&format!(
        "{COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax{secure}"
    ))
    .unwrap_or(HeaderValue::from_static(""))
}

/// The session cookie's token of a request, if it has a readable one.
pub fn cookie_token(headers: &HeaderMap) -> Option<Token> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .and_then(|(_, value)| value.trim().parse().ok())
}

/// Whether a request's `Origin`, if it has one, is the site it is sent to.
pub fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        // Not a browser, or a browser's same-origin GET: nothing to guard against.
        return true;
    };
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let origin_host = origin
        .to_str()
        .ok()
        .and_then(|o| o.split_once("://"))
        .map(|(_, rest)| rest.trim_end_matches('/'));
    matches!((origin_host, host), (Some(o), Some(h)) if o.eq_ignore_ascii_case(h))
}

/// Who a request comes from: the session of its cookie, if it has one, and whether the
/// request proves it comes from the site's page (its CSRF header and origin).
#[derive(Debug, Clone)]
pub struct Visitor {
    /// The cookie's token and session.
    pub session: Option<(Token, Session)>,
    /// The request carries the session's CSRF token and no foreign origin.
    pub checked: bool,
}

impl Visitor {
    /// The session's player for a state-changing request: the session must exist and the
    /// request carry its CSRF token.
    ///
    /// # Errors
    ///
    /// 403 without a session, or without the CSRF token or from another site.
    pub fn acting(&self) -> Result<&Session, ApiError> {
        let Some((_, session)) = &self.session else {
            return Err(ApiError::Forbidden(
                "this needs a session: ask GET /api/session first".into(),
            ));
        };
        if !self.checked {
            return Err(ApiError::Forbidden(
                "the request lacks the session's CSRF token (X-Morris-CSRF) or comes from another site".into(),
            ));
        }
        Ok(session)
    }

    /// The session's player when the request is checked, else none (a request that may act
    /// by a seat's token instead).
    pub fn checked_player(&self) -> Option<PlayerId> {
        self.session
            .as_ref()
            .filter(|_| self.checked)
            .map(|(_, s)| s.player)
    }

    /// The session's player for reading (no CSRF needed).
    pub fn player(&self) -> Option<PlayerId> {
        self.session.as_ref().map(|(_, s)| s.player)
    }
}

/// The session of a cookie's token, from memory or the database.
///
/// # Errors
///
/// 500 when the database fails.
pub async fn lookup(app: &AppState, token: &Token) -> Result<Option<Session>, ApiError> {
    let hash = token.hash();
    if let Some(s) = app.sessions.get(&hash) {
        return Ok(Some(s));
    }
    let found = app.store.session(hash).await?;
    if let Some(s) = &found {
        app.sessions.put(&hash, s.clone());
    }
    Ok(found)
}

impl FromRequestParts<Arc<AppState>> for Visitor {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        app: &Arc<AppState>,
    ) -> Result<Visitor, ApiError> {
        let Some(token) = cookie_token(&parts.headers) else {
            return Ok(Visitor {
                session: None,
                checked: false,
            });
        };
        let Some(session) = lookup(app, &token).await? else {
            return Ok(Visitor {
                session: None,
                checked: false,
            });
        };
        let csrf = parts
            .headers
            .get(CSRF_HEADER)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| same_secret(v.trim(), &session.csrf));
        Ok(Visitor {
            checked: csrf && same_origin(&parts.headers),
            session: Some((token, session)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, v.parse().unwrap());
        }
        h
    }

    #[test]
    fn the_cookie_is_http_only_and_lax_and_secure_when_told() {
        let t = Token::random();
        let c = cookie(&t, false);
        let c = c.to_str().unwrap();
        assert!(c.starts_with(&format!("morris_session={t};")), "{c}");
        assert!(c.contains("HttpOnly") && c.contains("SameSite=Lax"), "{c}");
        assert!(!c.contains("Secure"));
        assert!(cookie(&t, true).to_str().unwrap().ends_with("; Secure"));
    }

    #[test]
    fn the_cookie_is_found_among_others() {
        let t = Token::random();
        let h = headers(&[("cookie", &format!("a=b; {COOKIE}={t}; c=d"))]);
        assert_eq!(cookie_token(&h), Some(t));
        assert_eq!(
            cookie_token(&headers(&[("cookie", "morris_session=zz")])),
            None
        );
        assert_eq!(cookie_token(&HeaderMap::new()), None);
    }

    #[test]
    fn origins_must_be_the_host() {
        assert!(same_origin(&headers(&[("host", "127.0.0.1:8080")])));
        assert!(same_origin(&headers(&[
            ("host", "127.0.0.1:8080"),
            ("origin", "http://127.0.0.1:8080")
        ])));
        assert!(!same_origin(&headers(&[
            ("host", "127.0.0.1:8080"),
            ("origin", "http://evil.example")
        ])));
        assert!(!same_origin(&headers(&[("origin", "null")])));
    }
}
