//! The page's files, embedded in the binary, and the security headers of every answer.

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;

/// The files of `web/`, built into the binary.
#[derive(RustEmbed)]
#[folder = "web/"]
struct Web;

/// The content security policy: only this origin's scripts, styles, images and sockets; no
/// inline script, no frames, no plugins.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
    style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; \
    manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Serves a file of the page: `/`, `/g/{id}`, `/lobby`, `/games`, `/leaderboard` and `/@/{name}` are the app
/// itself.
pub async fn page(uri: Uri, headers: HeaderMap) -> Response {
    let path = uri.path().trim_start_matches('/');
    let app = path.is_empty()
        || path.starts_with("g/")
        || path == "lobby"
        || path == "games"
        || path == "leaderboard"
        || path == "mod"
        || path.starts_with("@/");
    let path = if app { "index.html" } else { path };
    let Some(file) = Web::get(path) else {
        return (
            StatusCode::NOT_FOUND,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            "Not found\n",
        )
            .into_response();
    };
    let etag = format!("\"{}\"", hex(&file.metadata.sha256_hash()[..16]));
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag));
    let mut response = if fresh {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let mut r = Response::new(Body::from(file.data.into_owned()));
        let mime = file.metadata.mimetype();
        let mime = if mime.starts_with("text/") || mime.ends_with("javascript") {
            format!("{mime}; charset=utf-8")
        } else {
            mime.to_owned()
        };
        if let Ok(v) = HeaderValue::from_str(&mime) {
            r.headers_mut().insert(header::CONTENT_TYPE, v);
        }
        r
    };
    let h = response.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&etag) {
        h.insert(header::ETAG, v);
    }
    // Always revalidate: a new binary serves new files at once.
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Adds the security headers to every answer, and `no-store` to the API's.
pub async fn security_headers(request: Request, next: Next) -> Response {
    let api = request.uri().path().starts_with("/api/");
    let mut response = next.run(request).await;
    let h = response.headers_mut();
    let mut set = |name: header::HeaderName, value: &'static str| {
        h.entry(name).or_insert(HeaderValue::from_static(value));
    };
    set(header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY);
    set(header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    // The invitation link holds a token: never send it on as a referrer.
    set(header::REFERRER_POLICY, "no-referrer");
    set(header::X_FRAME_OPTIONS, "DENY");
    set(
        header::HeaderName::from_static("cross-origin-opener-policy"),
        "same-origin",
    );
    set(
        header::HeaderName::from_static("cross-origin-resource-policy"),
        "same-origin",
    );
    set(
        header::HeaderName::from_static("permissions-policy"),
        "camera=(), microphone=(), geolocation=(), interest-cohort=()",
    );
    if api {
        set(header::CACHE_CONTROL, "no-store");
    }
    response
}
