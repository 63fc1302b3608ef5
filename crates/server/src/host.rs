//! The `Host` a request names must be this server's: an address (IPv4 or IPv6, with any
//! port), `localhost`, or one of the public names the operator gave. A page on another name
//! that resolves to this server (DNS rebinding) is refused before anything is served, so that
//! it cannot drive a server listening on a private address.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::app::AppState;

/// The host part of a `Host` header (its port and an IPv6 address's brackets left out),
/// lower-cased.
fn host_of(value: &str) -> String {
    let value = value.trim();
    let host = match value.strip_prefix('[') {
        Some(rest) => rest.split_once(']').map_or("", |(h, _)| h),
        None => value.rsplit_once(':').map_or(value, |(h, _)| h),
    };
    host.trim_end_matches('.').to_ascii_lowercase()
}

/// Whether a request may name `value` as its host.
pub fn allowed(value: &str, public_names: &[String]) -> bool {
    let host = host_of(value);
    host == "localhost"
        || host.parse::<std::net::IpAddr>().is_ok()
        || public_names.iter().any(|n| n.eq_ignore_ascii_case(&host))
}

/// Refuses with 421 a request whose `Host` is not the server's; a request without one (an
/// HTTP/1.0 client) is served.
pub async fn check(State(app): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .map(|h| h.to_str().unwrap_or("\u{fffd}"));
    match host {
        Some(h) if !allowed(h, &app.public_names) => (
            axum::http::StatusCode::MISDIRECTED_REQUEST,
            axum::Json(serde_json::json!({
                "error": "this server does not answer for that host name \
                          (its operator names it with `morris serve --public-name`)"
            })),
        )
            .into_response(),
        _ => next.run(request).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_localhost_and_the_public_names_are_the_servers() {
        let names = ["play.example.org".to_owned()];
        for ok in [
            "127.0.0.1:8080",
            "10.1.2.3",
            "[::1]:8080",
            "[2001:db8::1]",
            "localhost:8080",
            "LOCALHOST",
            "play.example.org",
            "Play.Example.Org.:443",
        ] {
            assert!(allowed(ok, &names), "{ok}");
        }
        for refused in [
            "rebind.attacker.example",
            "example.org",
            "localhost.evil",
            "",
            "[::1",
        ] {
            assert!(!allowed(refused, &names), "{refused}");
        }
    }
}
