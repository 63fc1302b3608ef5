//! The errors of the API: one enum, one status each, one JSON body shape.

use std::fmt;

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use morris_core::TextPlyError;
use serde::Serialize;

use crate::game_state::Refusal;

/// Why a request was refused or failed. Every variant carries the message the client sees.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApiError {
    /// 400: the request cannot be read (bad JSON, an unreadable ply, a bad position string).
    BadRequest(String),
    /// 403: the token does not hold the seat needed.
    Forbidden(String),
    /// 404: no such game or page.
    NotFound(String),
    /// 405: the path exists, the method does not.
    MethodNotAllowed,
    /// 409: the request is readable but not possible now (an illegal ply, not your turn, the
    /// game is over).
    Conflict(String),
    /// 408: the body did not arrive within the time a body has.
    TimedOut,
    /// 413: the body is larger than the server accepts.
    TooLarge,
    /// 415: the body is not JSON.
    UnsupportedMediaType,
    /// 429: too many games created from one address in a minute.
    TooManyRequests,
    /// 429: the client already has as much work waiting as it may (hints, analyses).
    Busy(String),
    /// 500: a fault of the server (the database failed); the client sees a generic message.
    Internal(String),
    /// 503: the server cannot take this work now (shutting down, or no engine for the task).
    Unavailable(String),
    /// 507: the database has reached its cap for this kind of writer.
    Full(String),
}

impl ApiError {
    /// The HTTP status of the error.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::TimedOut => StatusCode::REQUEST_TIMEOUT,
            ApiError::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::TooManyRequests | ApiError::Busy(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Full(_) => StatusCode::INSUFFICIENT_STORAGE,
        }
    }

    /// The message the client sees.
    pub fn message(&self) -> String {
        match self {
            ApiError::BadRequest(m)
            | ApiError::Forbidden(m)
            | ApiError::NotFound(m)
            | ApiError::Conflict(m)
            | ApiError::Busy(m)
            | ApiError::Unavailable(m)
            | ApiError::Full(m) => m.clone(),
            ApiError::MethodNotAllowed => "this method is not allowed here".into(),
            ApiError::TimedOut => "the request body came too slowly".into(),
            ApiError::TooLarge => "the request body is too large".into(),
            ApiError::UnsupportedMediaType => {
                "the request body must be JSON (Content-Type: application/json)".into()
            }
            ApiError::TooManyRequests => {
                "too many new games from this address: wait a minute and try again".into()
            }
            ApiError::Internal(_) => "the server failed; the game is unchanged".into(),
        }
    }

    /// The error for a game id that names no game.
    pub fn no_game(id: &str) -> ApiError {
        ApiError::NotFound(format!("there is no game {}", shorten(id)))
    }
}

/// At most 40 characters of a value echoed back in a message.
fn shorten(text: &str) -> String {
    let mut out: String = text.chars().take(40).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApiError::Internal(detail) => write!(f, "internal error: {detail}"),
            other => f.write_str(&other.message()),
        }
    }
}

impl std::error::Error for ApiError {}

#[derive(Serialize)]
struct ErrorBody {
    error: String,
}

/// Text for a log line: control characters (a line break, an escape sequence that would
/// recolour a terminal), bidirectional controls (that would turn the line around) and
/// invisible characters written as escapes, so that no input forges or garbles a log line.
/// The engine's escaping ([`morris_engine::text::printable`]), so that both logs read alike.
pub fn log_safe(text: &str) -> std::borrow::Cow<'_, str> {
    morris_engine::text::printable(text)
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let line = self.to_string();
        let line = log_safe(&line);
        if status.is_server_error() {
            tracing::error!(%status, "{line}");
        } else {
            tracing::debug!(%status, "{line}");
        }
        let body = ErrorBody {
            error: self.message(),
        };
        (status, Json(body)).into_response()
    }
}

/// The one mapping of the domain's refusals to the API's errors: a token without a seat is
/// 403, text that is no ply 400, everything else not possible now 409.
impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> ApiError {
        let message = r.to_string();
        match r {
            Refusal::NoSeat => ApiError::Forbidden(message),
            Refusal::Ply(TextPlyError::Parse(_)) => ApiError::BadRequest(message),
            Refusal::NotYourTurn(_)
            | Refusal::GameOver(_)
            | Refusal::Ply(TextPlyError::Illegal { .. })
            | Refusal::Game(_)
            | Refusal::NotComputersTurn
            | Refusal::NothingToTakeBack
            | Refusal::EndedByAgreement
            | Refusal::DrawAlreadyOffered
            | Refusal::NoDrawOffered
            | Refusal::OwnDrawOffer
            | Refusal::NoCoaching
            | Refusal::OutOfTime
            | Refusal::TooLateToAbort
            | Refusal::OpponentPresent
            | Refusal::StillPlaying
            | Refusal::Rematched
            | Refusal::NotStarted => ApiError::Conflict(message),
            Refusal::OfferTooSoon => ApiError::Busy(message),
        }
    }
}

impl From<crate::chat::ChatRefusal> for ApiError {
    fn from(r: crate::chat::ChatRefusal) -> ApiError {
        use crate::chat::ChatRefusal;
        let message = r.to_string();
        match r {
            ChatRefusal::Empty | ChatRefusal::TooLong | ChatRefusal::Control => {
                ApiError::BadRequest(message)
            }
            ChatRefusal::TooFast => ApiError::Busy(message),
            ChatRefusal::Full => ApiError::Conflict(message),
        }
    }
}

impl From<crate::store::StoreError> for ApiError {
    fn from(e: crate::store::StoreError) -> ApiError {
        match e {
            crate::store::StoreError::Busy => {
                ApiError::Unavailable("the server is busy: try again in a moment".into())
            }
            e => ApiError::Internal(e.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_has_its_status_and_a_message() {
        let cases = [
            (ApiError::BadRequest("x".into()), 400),
            (ApiError::Forbidden("x".into()), 403),
            (ApiError::NotFound("x".into()), 404),
            (ApiError::MethodNotAllowed, 405),
            (ApiError::Conflict("x".into()), 409),
            (ApiError::TimedOut, 408),
            (ApiError::TooLarge, 413),
            (ApiError::UnsupportedMediaType, 415),
            (ApiError::TooManyRequests, 429),
            (ApiError::Busy("x".into()), 429),
            (ApiError::Internal("disk".into()), 500),
            (ApiError::Unavailable("x".into()), 503),
        ];
        for (error, status) in cases {
            assert_eq!(error.status().as_u16(), status);
            assert!(!error.message().is_empty());
        }
    }

    #[test]
    fn refusals_map_to_their_statuses() {
        use morris_core::{Color, Outcome, Reason};
        let unreadable = "zz9".parse::<morris_core::PlyText>().unwrap_err();
        let cases = [
            (Refusal::NoSeat, 403),
            (Refusal::NotYourTurn(Color::Black), 409),
            (
                Refusal::GameOver(Outcome::win(Color::White, Reason::Resignation)),
                409,
            ),
            (Refusal::NothingToTakeBack, 409),
            (Refusal::NoCoaching, 409),
        ];
        for (refusal, status) in cases {
            let message = refusal.to_string();
            let e = ApiError::from(refusal);
            assert_eq!(e.status().as_u16(), status, "{e}");
            assert_eq!(e.message(), message);
        }
        let e = ApiError::from(Refusal::Ply(TextPlyError::Parse(unreadable)));
        assert_eq!(e.status().as_u16(), 400);
    }

    #[test]
    fn internal_details_stay_in_the_log() {
        let e = ApiError::Internal("database is locked at /home/x".into());
        assert!(!e.message().contains("/home"));
        assert!(e.to_string().contains("/home"));
    }

    #[test]
    fn control_characters_are_escaped_in_log_lines() {
        use std::io::Write;
        use std::sync::{Arc, Mutex};

        #[derive(Clone)]
        struct Capture(Arc<Mutex<Vec<u8>>>);
        impl Write for Capture {
            fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(buf);
                Ok(buf.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let log = Capture(Arc::new(Mutex::new(Vec::new())));
        let writer = log.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || writer.clone())
            .with_ansi(false)
            .with_max_level(tracing::Level::DEBUG)
            .finish();
        tracing::subscriber::with_default(subscriber, || {
            let _ = ApiError::no_game("ab\n2026-01-01 ERROR forged\u{1b}[31m").into_response();
        });
        let text = String::from_utf8(log.0.lock().unwrap().clone()).unwrap();
        assert_eq!(text.lines().count(), 1, "{text}");
        assert!(!text.contains('\u{1b}'), "{text}");
        assert!(text.contains("ab\\n2026"), "{text}");
        assert_eq!(log_safe("plain"), "plain");
        assert_eq!(log_safe("a\tb\r"), "a\\tb\\r");
        // A right-to-left override or a zero-width space cannot hide in a log line.
        assert_eq!(log_safe("\u{202e}retupmoC"), "\\u{202e}retupmoC");
        assert_eq!(log_safe("a\u{200b}b"), "a\\u{200b}b");
    }

    #[test]
    fn long_ids_are_shortened_in_messages() {
        let long = "x".repeat(500);
        assert!(ApiError::no_game(&long).message().len() < 80);
    }
}
