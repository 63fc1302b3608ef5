//! `GET /api/notify/ws`: the site-wide notification channel of one page (see
//! [`crate::notify`]). While it is open the player is on the site: their challenges live.

use std::sync::Arc;

use axum::extract::State;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade, close_code};
use axum::http::HeaderMap;
use axum::response::Response;
use tokio::sync::broadcast::error::RecvError;

use crate::accounts::PlayerId;
use crate::app::AppState;
use crate::error::ApiError;
use crate::lobby::ChallengeView;
use crate::notify::Notice;
use crate::session::Visitor;

/// `GET /api/notify/ws`
pub async fn watch(
    State(app): State<Arc<AppState>>,
    visitor: Visitor,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
    room: crate::ws::SocketRoom,
) -> Result<Response, ApiError> {
    let upgrade = crate::ws::open_socket(&headers, upgrade, &app, "the notification channel")?;
    let Some(player) = visitor.player() else {
        return Err(ApiError::Forbidden(
            "the notification channel is for a session: load /api/session first".into(),
        ));
    };
    Ok(upgrade.on_upgrade(move |socket| async move {
        room.upgraded();
        let subscription = app.notify.subscribe(player);
        crate::lobby_hub::arrived(&app, player);
        serve(socket, &app, player, subscription).await;
        crate::lobby_hub::left(&app, player);
        drop(room);
    }))
}

async fn send(socket: &mut WebSocket, message: Message, app: &AppState) -> bool {
    matches!(
        tokio::time::timeout(app.limits.send_timeout, socket.send(message)).await,
        Ok(Ok(()))
    )
}

async fn serve(
    mut socket: WebSocket,
    app: &AppState,
    player: PlayerId,
    mut subscription: crate::notify::Subscription,
) {
    let challenges = app
        .lobby
        .lock()
        .made_to(player)
        .into_iter()
        .map(|c| ChallengeView::new(c, Some(player)))
        .collect();
    let Ok(hello) = serde_json::to_string(&Notice::Hello { challenges }) else {
        return;
    };
    if !send(&mut socket, Message::Text(hello.into()), app).await {
        return;
    }
    // A page that says nothing for this long (it pings every 30 s) is gone.
    let idle = app.limits.socket_idle;
    let mut heard = tokio::time::Instant::now();
    loop {
        tokio::select! {
            () = tokio::time::sleep_until(heard + idle) => {
                let frame = CloseFrame { code: close_code::POLICY, reason: "idle".into() };
                send(&mut socket, Message::Close(Some(frame)), app).await;
                break;
            }
            notice = subscription.notices.recv() => match notice {
                Ok(text) => {
                    if !send(&mut socket, Message::Text(text.as_ref().into()), app).await {
                        break;
                    }
                }
                // A page that fell behind skips what it missed.
                Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => break,
            },
            incoming = socket.recv() => {
                heard = tokio::time::Instant::now();
                match incoming {
                    Some(Ok(Message::Text(text))) => {
                        if crate::ws::is_ping(&text) {
                            let pong = r#"{"type":"pong"}"#;
                            if !send(&mut socket, Message::Text(pong.into()), app).await {
                                break;
                            }
                        }
                    }
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => {}
                }
            }
        }
    }
}
