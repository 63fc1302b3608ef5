//! The site-wide notification channel on a real socket: challenges that live while their
//! creator is on any page and reach the player challenged on any page, declines told to the
//! challenger, games started, offers and turns, the "your turn" list, and guests paired with
//! signed-up players.

mod common;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use common::visitor::Visitor;
use common::{Server, Socket};
use futures_util::StreamExt;
use morris_server::clock::ManualNow;
use morris_server::{Config, Limits};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

const T0: i64 = 1_800_000_000_000;

async fn server(now: &Arc<ManualNow>) -> Server {
    let mut config = Config::new("127.0.0.1:0".parse().unwrap(), Path::new(":memory:").into());
    config.limits = Limits {
        password_cost: common::CHEAP_HASH,
        games_per_minute: 0,
        clock_sweep: Duration::from_secs(3600),
        ..Limits::default()
    };
    config.now = now.clone();
    Server::with_config(config).await
}

/// The next message on a socket; panics after 30 s.
async fn next(socket: &mut Socket) -> Value {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(30), socket.next())
            .await
            .expect("a message within 30 s")
            .expect("the socket is open")
            .expect("a message");
        if let Message::Text(text) = message {
            return serde_json::from_str(&text).unwrap();
        }
    }
}

/// The next message of a type, skipping others.
async fn next_of(socket: &mut Socket, kind: &str) -> Value {
    loop {
        let value = next(socket).await;
        if value["type"] == kind {
            return value;
        }
    }
}

/// Nothing more is waiting on a socket (after a ping's answer, which comes after anything
/// sent before it).
async fn quiet(socket: &mut Socket) {
    common::send(socket, r#"{"type":"ping"}"#).await;
    let value = next(socket).await;
    assert_eq!(value["type"], "pong", "nothing else was sent: {value}");
}

async fn player(server: &Server, name: &str) -> (Visitor, Socket) {
    let mut v = Visitor::new(&server.base).await;
    v.sign_up(name, "correct horse battery").await;
    let mut page = v.socket("/api/notify/ws").await;
    let hello = next(&mut page).await;
    assert_eq!(hello["type"], "hello");
    (v, page)
}

#[tokio::test]
async fn a_challenge_reaches_its_player_on_every_page_and_a_decline_reaches_the_challenger() {
    let now = Arc::new(ManualNow::new(T0));
    let server = server(&now).await;
    let (mut ann, mut ann_page) = player(&server, "ann").await;
    let (mut kim, mut kim_page) = player(&server, "kim").await;
    let mut kim_other = kim.socket("/api/notify/ws").await;
    assert_eq!(next(&mut kim_other).await["challenges"], json!([]));

    // Ann is on a page of the site, not in the lobby: she may challenge.
    let body = json!({"to": "kim", "clock": "3+2", "rated": true, "color": "white"});
    let (status, made) = ann.post("/api/lobby/challenges", body.clone()).await;
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_u64().unwrap();
    for page in [&mut kim_page, &mut kim_other] {
        let told = next(page).await;
        assert_eq!(told["type"], "challenge");
        assert_eq!(told["challenge"]["id"], id);
        assert_eq!(told["challenge"]["by"], "ann");
        assert_eq!(told["challenge"]["clock_text"], "3+2");
        assert_eq!(told["challenge"]["direct"], true);
    }
    quiet(&mut ann_page).await;
    // A page opened later is told of it first thing.
    let mut kim_third = kim.socket("/api/notify/ws").await;
    let hello = next(&mut kim_third).await;
    assert_eq!(hello["challenges"][0]["id"], id);
    drop(kim_third);

    // Nobody else declines it; Kim does, on one page.
    let (mut eve, _eve_page) = player(&server, "eve").await;
    let decline = format!("/api/lobby/challenges/{id}/decline");
    assert_eq!(eve.post(&decline, json!({})).await.0, 404);
    assert_eq!(ann.post(&decline, json!({})).await.0, 404);
    assert_eq!(kim.post(&decline, json!({})).await.0, 204);
    let told = next(&mut ann_page).await;
    assert_eq!(told, json!({"type": "declined", "id": id, "by": "kim"}));
    for page in [&mut kim_page, &mut kim_other] {
        let gone = next(page).await;
        assert_eq!(
            gone,
            json!({"type": "challenge_gone", "id": id, "why": "declined"})
        );
    }
    assert_eq!(kim.post(&decline, json!({})).await.0, 404, "declined once");
    let (_, lobby) = kim.get("/api/lobby").await;
    assert_eq!(lobby["challenges"], json!([]));

    // A public challenge is nobody's to decline.
    let (_, open) = ann
        .post("/api/lobby/challenges", json!({"clock": "3+2"}))
        .await;
    let open = open["id"].as_u64().unwrap();
    let status = kim
        .post(&format!("/api/lobby/challenges/{open}/decline"), json!({}))
        .await
        .0;
    assert_eq!(status, 403);
    assert_eq!(
        ann.delete(&format!("/api/lobby/challenges/{open}")).await.0,
        204
    );

    // Challenged again and accepted: both are told the game started, on every page.
    let (_, made) = ann.post("/api/lobby/challenges", body).await;
    let id = made["id"].as_u64().unwrap();
    next_of(&mut kim_page, "challenge").await;
    next_of(&mut kim_other, "challenge").await;
    let (status, game) = kim
        .post(&format!("/api/lobby/challenges/{id}/accept"), json!({}))
        .await;
    assert_eq!(status, 201, "{game}");
    let started = next_of(&mut ann_page, "started").await;
    assert_eq!(started["game"], game["game"]);
    assert_eq!(started["color"], "white");
    assert_eq!(started["opponent"], "kim");
    let gone = next(&mut kim_other).await;
    assert_eq!(
        gone,
        json!({"type": "challenge_gone", "id": id, "why": "accepted"})
    );
    let started = next_of(&mut kim_other, "started").await;
    assert_eq!(started["color"], "black");
    assert_eq!(started["opponent"], "ann");

    // An offer of the opponent is told on any page.
    let game = game["game"].as_str().unwrap().to_owned();
    let path = format!("/api/games/{game}");
    assert_eq!(
        ann.post(&format!("{path}/moves"), json!({"move": "d6"}))
            .await
            .0,
        200
    );
    assert_eq!(
        kim.post(&format!("{path}/moves"), json!({"move": "f4"}))
            .await
            .0,
        200
    );
    let (status, _) = ann
        .post(&format!("{path}/draw"), json!({"action": "offer"}))
        .await;
    assert_eq!(status, 200);
    let offer = next_of(&mut kim_page, "offer").await;
    assert_eq!(
        offer,
        json!({"type": "offer", "game": game, "offer": "draw", "by": "ann"})
    );
    quiet(&mut ann_page).await;
    server.stop().await;
}

#[tokio::test]
async fn a_challenge_lives_while_its_creator_is_on_any_page_and_correspondence_ones_longer() {
    let now = Arc::new(ManualNow::new(T0));
    let server = server(&now).await;
    let (mut ann, ann_page) = player(&server, "ann").await;
    let (kim, mut kim_page) = player(&server, "kim").await;
    let (status, _) = ann
        .post(
            "/api/lobby/challenges",
            json!({"to": "kim", "clock": "5+3"}),
        )
        .await;
    assert_eq!(status, 201);
    let id = next_of(&mut kim_page, "challenge").await["challenge"]["id"].clone();
    // Ann opens the lobby and leaves it again: her page of the site keeps the challenge.
    let ann_lobby = ann.socket("/api/lobby/ws").await;
    drop(ann_lobby);
    let mut ann_second = ann.socket("/api/notify/ws").await;
    next(&mut ann_second).await;
    quiet(&mut kim_page).await;
    assert_eq!(
        kim.twin().get("/api/lobby").await.1["challenges"][0]["id"],
        id
    );
    // With her last page closed, it goes, and Kim is told.
    drop(ann_page);
    drop(ann_second);
    let gone = next(&mut kim_page).await;
    assert_eq!(
        gone,
        json!({"type": "challenge_gone", "id": id, "why": "withdrawn"})
    );

    // A correspondence challenge stays while Ann is away.
    let mut ann_page = ann.socket("/api/notify/ws").await;
    next(&mut ann_page).await;
    let (_, made) = ann
        .post("/api/lobby/challenges", json!({"to": "kim", "clock": "3d"}))
        .await;
    next_of(&mut kim_page, "challenge").await;
    drop(ann_page);
    // Once the server has seen her go (she may no longer challenge), it is still open.
    let mut away = false;
    for _ in 0..200 {
        let (status, made) = ann
            .post("/api/lobby/challenges", json!({"clock": "5+3"}))
            .await;
        if status == 409 {
            away = true;
            break;
        }
        let id = made["id"].as_u64().unwrap();
        ann.delete(&format!("/api/lobby/challenges/{id}")).await;
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(away);
    quiet(&mut kim_page).await;
    let (_, lobby) = kim.twin().get("/api/lobby").await;
    assert_eq!(lobby["challenges"][0]["id"], made["id"]);
    server.stop().await;
}

#[tokio::test]
async fn a_correspondence_turn_is_told_and_listed_for_the_player_to_move_only() {
    let now = Arc::new(ManualNow::new(T0));
    let server = server(&now).await;
    let (mut ann, mut ann_page) = player(&server, "ann").await;
    let (mut kim, mut kim_page) = player(&server, "kim").await;
    let (_, made) = ann
        .post(
            "/api/lobby/challenges",
            json!({"to": "kim", "clock": "2d", "color": "white", "rated": true}),
        )
        .await;
    let id = made["id"].as_u64().unwrap();
    let (_, game) = kim
        .post(&format!("/api/lobby/challenges/{id}/accept"), json!({}))
        .await;
    let game = game["game"].as_str().unwrap().to_owned();
    next_of(&mut ann_page, "started").await;
    next_of(&mut kim_page, "started").await;
    let turn_ids = |list: &Value| -> Vec<String> {
        list.as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(
        turn_ids(&ann.get("/api/session/turn").await.1),
        vec![game.clone()]
    );
    assert_eq!(
        turn_ids(&kim.get("/api/session/turn").await.1),
        Vec::<String>::new()
    );

    let moves = format!("/api/games/{game}/moves");
    assert_eq!(ann.post(&moves, json!({"move": "d6"})).await.0, 200);
    let turn = next_of(&mut kim_page, "turn").await;
    assert_eq!(
        turn,
        json!({"type": "turn", "game": game, "opponent": "ann"})
    );
    quiet(&mut ann_page).await;
    assert_eq!(
        turn_ids(&kim.get("/api/session/turn").await.1),
        vec![game.clone()]
    );
    assert_eq!(
        turn_ids(&ann.get("/api/session/turn").await.1),
        Vec::<String>::new()
    );
    // A guest has no turns listed.
    let (status, none) = Visitor::new(&server.base)
        .await
        .get("/api/session/turn")
        .await;
    assert_eq!((status, none), (200, json!([])));
    server.stop().await;
}

#[tokio::test]
async fn a_guest_and_a_signed_up_player_asking_for_one_clock_are_paired_casual() {
    let now = Arc::new(ManualNow::new(T0));
    let server = server(&now).await;
    let mut guest = Visitor::new(&server.base).await;
    let mut guest_page = guest.socket("/api/notify/ws").await;
    next(&mut guest_page).await;
    let (mut kim, mut kim_page) = player(&server, "kim").await;
    let (status, waiting) = guest
        .post("/api/lobby/quick", json!({"clock": "10+5"}))
        .await;
    assert_eq!(status, 200, "{waiting}");
    assert_eq!(waiting["game"], Value::Null);
    let (_, lobby) = kim.get("/api/lobby").await;
    assert_eq!(
        lobby["waiting"],
        json!([{"clock": "10+5", "players": 1, "games": 0}])
    );
    let (status, game) = kim.post("/api/lobby/quick", json!({"clock": "10+5"})).await;
    assert_eq!(status, 200, "{game}");
    let id = game["game"].as_str().unwrap();
    let started = next_of(&mut guest_page, "started").await;
    assert_eq!(started["game"], id);
    assert_eq!(started["opponent"], "kim");
    assert_eq!(
        next_of(&mut kim_page, "started").await["opponent"],
        Value::Null
    );
    let (_, state) = kim.get(&format!("/api/games/{id}")).await;
    assert_eq!(state["rated"], false, "a guest plays casual games only");
    let (_, lobby) = kim.get("/api/lobby").await;
    assert_eq!(
        lobby["waiting"],
        json!([{"clock": "10+5", "players": 0, "games": 1}])
    );
    server.stop().await;
}

#[tokio::test]
async fn the_channel_is_for_a_session_of_this_site() {
    let now = Arc::new(ManualNow::new(T0));
    let server = server(&now).await;
    let url = server.url("/api/notify/ws").replacen("http", "ws", 1);
    let refused = tokio_tungstenite::connect_async(url).await;
    assert!(refused.is_err(), "no session, no channel");
    server.stop().await;
}
