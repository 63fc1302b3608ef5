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

use crate::accounts::{PlayerId, SESSION_TOUCH, Session, same_secret};
use crate::app::AppState;
use crate::error::ApiError;
use crate::seat::{Token, TokenHash};

/// The name of the session cookie.
pub const COOKIE: &str = "morris_session";

/// The name of the session cookie of a site served over TLS (`--secure-cookies`): the
/// `__Host-` prefix makes browsers refuse it from any other host (a sibling subdomain
/// cannot plant one) and without `Secure`.
pub const SECURE_COOKIE: &str = "__Host-morris_session";

/// The session cookie's name.
pub fn cookie_name(secure: bool) -> &'static str {
    if secure { SECURE_COOKIE } else { COOKIE }
}

/// The header that carries the session's CSRF token.
pub const CSRF_HEADER: &str = "x-morris-csrf";

/// How long a browser keeps the cookie: as long as the session may live.
const COOKIE_AGE: i64 = crate::accounts::SESSION_MAX_AGE;

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

    /// Forgets the sessions expired at `now`.
    pub fn forget_expired(&self, now: i64) {
        self.map().retain(|_, s| !s.expired(now));
    }

    /// Marks a cached session used at `now`.
    fn touch(&self, hash: &TokenHash, now: i64) {
        if let Some(s) = self.map().get_mut(&hash.0) {
            s.seen = now;
        }
    }
}

/// The `Set-Cookie` value of a session (`HttpOnly; SameSite=Lax`, and `Secure` when the site
/// is served over TLS).
pub fn cookie(token: &Token, secure: bool) -> HeaderValue {
    let name = cookie_name(secure);
    let secure = if secure { "; Secure" } else { "" };
    let text =
        format!("{name}={token}; Path=/; Max-Age={COOKIE_AGE}; HttpOnly; SameSite=Lax{secure}");
    HeaderValue::from_str(&text).unwrap_or(HeaderValue::from_static(""))
}

/// The `Set-Cookie` value that removes the session cookie.
pub fn removed_cookie(secure: bool) -> HeaderValue {
    let name = cookie_name(secure);
    let secure = if secure { "; Secure" } else { "" };
    HeaderValue::from_str(&format!(
        "{name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax{secure}"
    ))
    .unwrap_or(HeaderValue::from_static(""))
}

/// The session cookie's token of a request, if it has a readable one (the `__Host-` one
/// only on a site with secure cookies).
pub fn cookie_token(headers: &HeaderMap, secure: bool) -> Option<Token> {
    let wanted = cookie_name(secure);
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == wanted)
        .and_then(|(_, value)| value.trim().parse().ok())
}

/// The browser a request says it comes from, as kept with a session.
pub fn agent(headers: &HeaderMap) -> String {
    headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .map(crate::accounts::agent_text)
        .unwrap_or_default()
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

/// The session of a cookie's token, from memory or the database, unless it has expired
/// (then it ends). Its time of last use is written when the stored one is
/// [`SESSION_TOUCH`] old.
///
/// # Errors
///
/// 500 when the database fails.
pub async fn lookup(app: &AppState, token: &Token) -> Result<Option<Session>, ApiError> {
    let hash = token.hash();
    let session = match app.sessions.get(&hash) {
        Some(s) => s,
        None => match app.store.session(hash).await? {
            Some(s) => {
                app.sessions.put(&hash, s.clone());
                s
            }
            None => return Ok(None),
        },
    };
    let now = app.now_ms() / 1000;
    if session.expired(now) {
        app.sessions.forget(&hash);
        app.store.end_session(hash).await?;
        return Ok(None);
    }
    if now - session.seen >= SESSION_TOUCH {
        app.sessions.touch(&hash, now);
        app.store.touch_session(hash, now).await?;
    }
    Ok(Some(session))
}

impl FromRequestParts<Arc<AppState>> for Visitor {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        app: &Arc<AppState>,
    ) -> Result<Visitor, ApiError> {
        let Some(token) = cookie_token(&parts.headers, app.secure_cookies) else {
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
        let secure = cookie(&t, true);
        let secure = secure.to_str().unwrap();
        assert!(secure.starts_with(&format!("__Host-morris_session={t};")));
        assert!(secure.ends_with("; Secure") && secure.contains("Path=/"));
        assert!(!secure.contains("Domain"));
    }

    #[test]
    fn a_secure_site_reads_only_its_host_cookie() {
        let t = Token::random();
        let planted = headers(&[("cookie", &format!("{COOKIE}={t}"))]);
        assert_eq!(cookie_token(&planted, true), None);
        assert_eq!(cookie_token(&planted, false), Some(t));
        let t2 = Token::random();
        let own = headers(&[("cookie", &format!("{SECURE_COOKIE}={t2}"))]);
        assert_eq!(cookie_token(&own, true), Some(t2));
    }

    #[test]
    fn the_cookie_is_found_among_others() {
        let t = Token::random();
        let h = headers(&[("cookie", &format!("a=b; {COOKIE}={t}; c=d"))]);
        assert_eq!(cookie_token(&h, false), Some(t));
        assert_eq!(
            cookie_token(&headers(&[("cookie", "morris_session=zz")]), false),
            None
        );
        assert_eq!(cookie_token(&HeaderMap::new(), false), None);
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
