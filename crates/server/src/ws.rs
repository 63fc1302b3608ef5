//! Live updates: a WebSocket per watcher that gets the whole game at once and after every
//! change.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade, close_code};
use axum::http::HeaderMap;
use axum::response::Response;
use tokio::sync::broadcast::error::RecvError;

use crate::accounts::PlayerId;
use crate::app::{AppState, LiveGame};
use crate::error::ApiError;
use crate::request::{GameIdPath, HeaderToken};
use crate::response::{GameView, Pong};
use crate::seat::{Seat, Token};
use crate::session::Visitor;

/// The subprotocol the server speaks; a browser offers it with its token as a second one,
/// `token.TOKEN`, the only header a page can set on a WebSocket.
pub const PROTOCOL: &str = "morris";

/// The read buffer of a WebSocket, in bytes. Before every read the WebSocket library fills
/// the buffer's free room with zeros, so its default of 128 KiB costs a 128 KiB `memset` for
/// each message read (and as much memory per connection); the messages read here are small,
/// and a larger one grows the buffer to its size.
pub(crate) const READ_BUFFER: usize = 4 * 1024;

/// The room a WebSocket takes: counted in the sockets' budget (in all, and per client
/// address, an IPv6 /64 counting as one), and, once upgraded, no longer among the HTTP
/// connections, so that held sockets never keep pages, plies and sign-ins out.
#[derive(Debug)]
pub struct SocketRoom {
    _ticket: crate::connections::Ticket,
    connection: Option<crate::connections::ConnectionTicket>,
}

impl SocketRoom {
    /// The upgrade happened: the connection leaves the HTTP connections' count.
    pub fn upgraded(&self) {
        if let Some(c) = &self.connection {
            c.release();
        }
    }
}

impl axum::extract::FromRequestParts<Arc<AppState>> for SocketRoom {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        app: &Arc<AppState>,
    ) -> Result<SocketRoom, ApiError> {
        let crate::api::ClientAddr(client) = crate::api::ClientAddr::from_request_parts(parts, app)
            .await
            .unwrap_or_else(|never| match never {});
        let ticket = app.sockets.admit(client).ok_or_else(|| {
            ApiError::Unavailable(
                "too many live connections from your network or in all: try again in a moment"
                    .into(),
            )
        })?;
        Ok(SocketRoom {
            _ticket: ticket,
            connection: parts
                .extensions
                .get::<crate::connections::ConnectionTicket>()
                .cloned(),
        })
    }
}

/// The token a WebSocket request carries: in a subprotocol `token.TOKEN`, else in the
/// headers of [`HeaderToken`].
fn socket_token(upgrade: &WebSocketUpgrade, headers: &HeaderMap) -> Option<Token> {
    upgrade
        .requested_protocols()
        .filter_map(|p| p.to_str().ok())
        .find_map(|p| p.trim().strip_prefix("token."))
        .and_then(|t| t.parse().ok())
        .or(HeaderToken::of(headers).0)
}

/// The opening every WebSocket of the site shares: another site's page is refused (403,
/// naming `what` it may not open), and the upgrade speaks [`PROTOCOL`] with bounded
/// messages and a small read buffer.
///
/// # Errors
///
/// 403 for a page of another site.
pub(crate) fn open_socket(
    headers: &HeaderMap,
    upgrade: WebSocketUpgrade,
    app: &AppState,
    what: &str,
) -> Result<WebSocketUpgrade, ApiError> {
    if !crate::session::same_origin(headers) {
        return Err(ApiError::Forbidden(format!(
            "this page may not open {what}: it is from another site"
        )));
    }
    let max = app.limits.max_ws_message;
    Ok(upgrade
        .protocols([PROTOCOL])
        .read_buffer_size(READ_BUFFER)
        .max_message_size(max)
        .max_frame_size(max))
}

/// `GET /api/games/{id}/ws` (the token in a subprotocol or a header, so that `you` names the
/// token's seat).
pub async fn watch(
    State(app): State<Arc<AppState>>,
    GameIdPath(id): GameIdPath,
    visitor: Visitor,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
    room: SocketRoom,
) -> Result<Response, ApiError> {
    let token = socket_token(&upgrade, &headers);
    let upgrade = open_socket(&headers, upgrade, &app, "the game's WebSocket")?;
    let live = app.game(&id).await?;
    let send_timeout = app.limits.send_timeout;
    let player = visitor.player();
    Ok(upgrade.on_upgrade(move |socket| async move {
        // The room lives as long as the socket.
        room.upgraded();
        serve_socket(socket, (app, live), (token, player), send_timeout).await;
        drop(room);
    }))
}

/// Sends a message, giving up after `limit`: a watcher that takes no updates (a stalled
/// network, a client that stopped reading) does not keep its connection forever.
async fn send(socket: &mut WebSocket, message: Message, limit: Duration) -> bool {
    matches!(
        tokio::time::timeout(limit, socket.send(message)).await,
        Ok(Ok(()))
    )
}

fn encode(view: &GameView, you: Option<Seat>) -> Option<Message> {
    let mut view = view.clone();
    view.you = you;
    serde_json::to_string(&view)
        .ok()
        .map(|s| Message::Text(s.into()))
}

async fn serve_socket(
    mut socket: WebSocket,
    (app, live): (Arc<AppState>, Arc<LiveGame>),
    (token, player): (Option<Token>, Option<PlayerId>),
    limit: Duration,
) {
    // Subscribe before reading the state, so that no change between the two is missed.
    let mut updates = live.subscribe();
    let state = live.snapshot().await;
    let you = token
        .as_ref()
        .and_then(|t| state.seat_of(t))
        .or_else(|| player.and_then(|p| state.seat_of(p)));
    let mut events = live.subscribe_events();
    let shown = state.version;
    let first = GameView::new(&state, you, app.now_ms());
    let Some(message) = encode(&first, you) else {
        return;
    };
    if !send(&mut socket, message, limit).await {
        return;
    }
    // In a game between people a player's socket is their presence, and every watcher
    // hears who is there.
    let between_people = state.opponent == crate::seat::Opponent::Friend;
    let side = match you {
        Some(Seat::One(c)) if between_people => Some(c),
        _ => None,
    };
    if let Some(c) = side {
        live.presence().connect(c);
        // The holder's socket brings a friend invited by link.
        let who = match (&token, player) {
            (Some(t), _) if state.seat_of(t).is_some() => Some(crate::seat::Holder::Token(t)),
            (_, Some(p)) => Some(crate::seat::Holder::Player(p)),
            _ => None,
        };
        if let Some(who) = who
            && let Err(e) = app.seen(&live, who, true).await
        {
            tracing::warn!(
                "the arrival in game {} cannot be written yet: {e}",
                state.id
            );
        }
    }
    if between_people {
        let presence = live.presence().view(app.now_ms());
        live.tell(&presence);
    }
    watch_loop(
        &mut socket,
        &app,
        &live,
        (&mut updates, &mut events),
        (you, shown),
        limit,
    )
    .await;
    if let Some(c) = side {
        live.presence().disconnect(c, app.now_ms());
        let presence = live.presence().view(app.now_ms());
        live.tell(&presence);
    }
}

async fn watch_loop(
    socket: &mut WebSocket,
    app: &AppState,
    live: &LiveGame,
    (updates, events): (
        &mut tokio::sync::broadcast::Receiver<Arc<GameView>>,
        &mut tokio::sync::broadcast::Receiver<Arc<str>>,
    ),
    (you, mut shown): (Option<Seat>, u64),
    limit: Duration,
) {
    // A socket that says nothing for this long (the page pings every 30 s) is closed.
    let idle = app.limits.socket_idle;
    let mut heard = tokio::time::Instant::now();
    loop {
        tokio::select! {
            () = tokio::time::sleep_until(heard + idle) => {
                let frame = CloseFrame { code: close_code::POLICY, reason: "idle".into() };
                send(socket, Message::Close(Some(frame)), limit).await;
                break;
            }
            update = updates.recv() => {
                let view = match update {
                    Ok(view) => view,
                    Err(RecvError::Lagged(_)) => {
                        Arc::new(GameView::new(&live.snapshot().await, None, app.now_ms()))
                    }
                    Err(RecvError::Closed) => break,
                };
                if view.version <= shown {
                    continue;
                }
                shown = view.version;
                let Some(message) = encode(&view, you) else { break };
                if !send(socket, message, limit).await {
                    break;
                }
            }
            event = events.recv() => {
                match event {
                    Ok(text) => {
                        if !send(socket, Message::Text(text.as_ref().into()), limit).await {
                            break;
                        }
                    }
                    Err(RecvError::Lagged(_)) => {}
                    Err(RecvError::Closed) => break,
                }
            }
            incoming = socket.recv() => {
                heard = tokio::time::Instant::now();
                match incoming {
                    Some(Ok(Message::Text(text))) => {
                        if is_ping(&text) {
                            let pong = serde_json::to_string(&Pong { kind: "pong" })
                                .unwrap_or_default();
                            if !send(socket, Message::Text(pong.into()), limit).await {
                                break;
                            }
                        }
                    }
                    Some(Ok(Message::Close(_))) | None => break,
                    Some(Ok(_)) => {}
                    Some(Err(e)) => {
                        // Too large, or not a WebSocket message: say which, and close.
                        tracing::debug!(
                            "closing a WebSocket: {}",
                            crate::error::log_safe(&e.to_string())
                        );
                        let frame = close_frame(e);
                        send(socket, Message::Close(Some(frame)), limit).await;
                        break;
                    }
                }
            }
        }
    }
}

/// The close frame for a failure to read a message: 1009 for one over the size limit, 1002
/// for anything else that breaks the protocol.
fn close_frame(e: axum::Error) -> CloseFrame {
    use tokio_tungstenite::tungstenite::Error;
    let inner = e.into_inner();
    match inner.downcast_ref::<Error>() {
        Some(Error::Capacity(_)) => CloseFrame {
            code: close_code::SIZE,
            reason: "message too large".into(),
        },
        _ => CloseFrame {
            code: close_code::PROTOCOL,
            reason: "not a WebSocket message".into(),
        },
    }
}

pub(crate) fn is_ping(text: &str) -> bool {
    #[derive(serde::Deserialize)]
    struct Kind<'a> {
        #[serde(rename = "type", borrow)]
        kind: &'a str,
    }
    serde_json::from_str::<Kind<'_>>(text).is_ok_and(|k| k.kind == "ping")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pings_are_recognised() {
        assert!(is_ping(r#"{"type":"ping"}"#));
        assert!(is_ping(r#"{"type": "ping", "x": 1}"#));
        assert!(!is_ping(r#"{"type":"pong"}"#));
        assert!(!is_ping("ping"));
    }
}
