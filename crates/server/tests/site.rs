//! The site on a real socket and a real SQLite file: accounts and sessions, CSRF, the lobby
//! and quick pairing, clocks that the test moves on itself, ratings and history.

mod common;

use std::path::Path;
use std::sync::Arc;

use common::visitor::Visitor;
use common::{Server, Socket, temp_dir};
use futures_util::StreamExt;
use morris_server::clock::ManualNow;
use morris_server::{Config, Limits};
use reqwest::Method;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

const T0: i64 = 1_800_000_000_000;

/// Limits for tests: a cheap password hash (the real cost is tested beside the code).
fn limits() -> Limits {
    Limits {
        password_cost: common::CHEAP_HASH,
        games_per_minute: 0,
        // Clocks are swept by the test itself, when it has moved its clock on.
        clock_sweep: std::time::Duration::from_secs(3600),
        ..Limits::default()
    }
}

async fn server(db: &Path, now: &Arc<ManualNow>) -> Server {
    let mut config = Config::new("127.0.0.1:0".parse().unwrap(), db.to_owned());
    config.limits = limits();
    config.now = now.clone();
    Server::with_config(config).await
}

/// The next message of a type on a socket; panics after 30 s.
async fn next_of(socket: &mut Socket, kind: &str) -> Value {
    loop {
        let message = tokio::time::timeout(std::time::Duration::from_secs(30), socket.next())
            .await
            .expect("a message within 30 s")
            .expect("the socket is open")
            .expect("a message");
        if let Message::Text(text) = message {
            let value: Value = serde_json::from_str(&text).unwrap();
            if value["type"] == kind {
                return value;
            }
        }
    }
}

/// Two signed-up players paired by quick pairing at `clock`; the game's id and the visitors
/// as white and black, with their lobby sockets.
async fn paired(server: &Server, names: [&str; 2], clock: &str) -> (String, [Visitor; 2]) {
    let mut a = Visitor::new(&server.base).await;
    let mut b = Visitor::new(&server.base).await;
    a.sign_up(names[0], "correct horse battery").await;
    b.sign_up(names[1], "correct horse battery").await;
    let mut a_lobby = a.socket("/api/lobby/ws").await;
    let mut b_lobby = b.socket("/api/lobby/ws").await;
    next_of(&mut a_lobby, "lobby").await;
    next_of(&mut b_lobby, "lobby").await;
    let (status, waiting) = a.post("/api/lobby/quick", json!({"clock": clock})).await;
    assert_eq!(status, 200, "{waiting}");
    assert_eq!(waiting["game"], Value::Null, "nobody waits yet");
    let (status, game) = b.post("/api/lobby/quick", json!({"clock": clock})).await;
    assert_eq!(status, 200, "{game}");
    let id = game["game"].as_str().unwrap().to_owned();
    let told = next_of(&mut a_lobby, "paired").await;
    assert_eq!(told["game"], id.as_str());
    let b_color = game["color"].as_str().unwrap();
    assert_ne!(told["color"], b_color);
    if b_color == "white" {
        (id, [b, a])
    } else {
        (id, [a, b])
    }
}

#[tokio::test]
async fn an_anonymous_player_signs_up_keeps_their_games_and_signs_in_again() {
    let dir = temp_dir("site-accounts");
    let now = Arc::new(ManualNow::new(T0));
    let server = server(&dir.join("games.db"), &now).await;
    let mut v = Visitor::new(&server.base).await;
    let cookie = v.raw_set_cookie("/api/session").await.unwrap();
    assert!(cookie.contains("HttpOnly"), "{cookie}");
    assert!(cookie.contains("SameSite=Lax"), "{cookie}");
    assert!(!cookie.contains("Secure"), "not over TLS: {cookie}");

    let (status, created) = v.post("/api/games", json!({"opponent": "friend"})).await;
    assert_eq!(status, 201, "{created}");
    let (_, games) = v.get("/api/session/games").await;
    assert_eq!(games.as_array().unwrap().len(), 1, "{games}");

    v.sign_up("Ann", "correct horse battery").await;
    let (_, session) = v.get("/api/session").await;
    assert_eq!(session["name"], "Ann");
    let (_, games) = v.get("/api/session/games").await;
    assert_eq!(games.as_array().unwrap().len(), 1, "the game stays theirs");
    assert_eq!(games[0]["id"], created["id"]);

    let mut w = Visitor::new(&server.base).await;
    let cases = [
        (
            json!({"name": "ann", "password": "another password"}),
            409,
            "taken",
        ),
        (
            json!({"name": "a b", "password": "another password"}),
            400,
            "letters",
        ),
        (
            json!({"name": "x", "password": "another password"}),
            400,
            "2 to 20",
        ),
        (
            json!({"name": "bob", "password": "short"}),
            400,
            "at least 8",
        ),
        (
            json!({"name": "bob", "password": "x".repeat(200)}),
            400,
            "at most 128",
        ),
    ];
    for (body, status, words) in cases {
        let (got, answer) = w.post("/api/session/signup", body.clone()).await;
        assert_eq!(got, status, "{body} → {answer}");
        assert!(
            answer["error"].as_str().unwrap().contains(words),
            "{answer}"
        );
    }

    let (status, _) = v.post("/api/session/signout", json!({})).await;
    assert_eq!(status, 204);
    assert!(v.cookie.is_none(), "the cookie is removed");
    let (_, fresh) = v.get("/api/session").await;
    assert_eq!(fresh["name"], Value::Null);
    v.csrf = fresh["csrf"].as_str().unwrap().to_owned();
    let wrong = json!({"name": "ann", "password": "wrong password"});
    let (status, answer) = v.post("/api/session/signin", wrong).await;
    assert_eq!(status, 403, "{answer}");
    let right = json!({"name": "ANN", "password": "correct horse battery"});
    let (status, answer) = v.post("/api/session/signin", right).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["name"], "Ann");
    assert_ne!(
        answer["csrf"], fresh["csrf"],
        "a new CSRF token with the sign-in"
    );
    v.csrf = answer["csrf"].as_str().unwrap().to_owned();
    let (_, games) = v.get("/api/session/games").await;
    assert_eq!(games.as_array().unwrap().len(), 1);

    let bad = json!({"old": "wrong password", "new": "a new password"});
    assert_eq!(v.post("/api/session/password", bad).await.0, 403);
    let good = json!({"old": "correct horse battery", "new": "a new password"});
    assert_eq!(v.post("/api/session/password", good).await.0, 200);
    let old = json!({"name": "ann", "password": "correct horse battery"});
    assert_eq!(w.post("/api/session/signin", old).await.0, 403);
    let new = json!({"name": "ann", "password": "a new password"});
    assert_eq!(w.post("/api/session/signin", new).await.0, 200);
    server.stop().await;
    std::fs::remove_dir_all(dir).unwrap();
}

#[tokio::test]
async fn requests_authorised_by_the_cookie_need_the_csrf_token_and_the_sites_origin() {
    let now = Arc::new(ManualNow::new(T0));
    let server = server(Path::new(":memory:"), &now).await;
    let (id, [mut white, mut black]) = paired(&server, ["carl", "dora"], "3+2").await;
    let moves = format!("/api/games/{id}/moves");
    let ply = json!({"move": "d6"});
    let (status, answer) = white
        .send(Method::POST, &moves, Some(ply.clone()), false, None)
        .await;
    assert_eq!(status, 403, "{answer}");
    assert!(
        answer["error"].as_str().unwrap().contains("CSRF"),
        "{answer}"
    );
    let evil = Some("http://evil.example");
    let (status, _) = white
        .send(Method::POST, &moves, Some(ply.clone()), true, evil)
        .await;
    assert_eq!(
        status, 403,
        "a foreign origin is refused even with the token"
    );
    let (status, game) = white.post(&moves, ply).await;
    assert_eq!(status, 200, "{game}");
    assert_eq!(game["you"], "white");
    let (status, _) = black.post(&moves, json!({"move": "d6"})).await;
    assert_eq!(status, 409, "d6 is taken");

    let mut stranger = Visitor::new(&server.base).await;
    let (status, answer) = stranger
        .send(
            Method::POST,
            "/api/session/signup",
            Some(json!({"name": "eve", "password": "long enough"})),
            false,
            None,
        )
        .await;
    assert_eq!(status, 403, "{answer}");
    let (status, _) = stranger.post(&moves, json!({"move": "f4"})).await;
    assert_eq!(status, 403, "a session that holds no seat");

    // A take-back asked after the answer: declined; asked again before a ply: too soon; a ply
    // later asked and accepted.
    let (status, _) = black.post(&moves, json!({"move": "f4"})).await;
    assert_eq!(status, 200);
    let takeback = format!("/api/games/{id}/takeback");
    let (status, asked) = white.post(&takeback, json!({"action": "offer"})).await;
    assert_eq!(status, 200, "{asked}");
    assert_eq!(asked["takeback_offer"], "white");
    let (_, declined) = black.post(&takeback, json!({"action": "decline"})).await;
    assert_eq!(declined["moves"], json!(["d6", "f4"]));
    let (status, _) = white.post(&takeback, json!({"action": "offer"})).await;
    assert_eq!(status, 429);
    let (status, _) = white.post(&moves, json!({"move": "d2"})).await;
    assert_eq!(status, 200);
    let (status, _) = black.post(&moves, json!({"move": "b4"})).await;
    assert_eq!(status, 200);
    white.post(&takeback, json!({"action": "offer"})).await;
    let (_, accepted) = black.post(&takeback, json!({"action": "accept"})).await;
    assert_eq!(
        accepted["moves"],
        json!(["d6", "f4"]),
        "White's ply and Black's answer are taken back"
    );
    assert_eq!(accepted["takeback_offer"], Value::Null);

    // A draw offered and declined; offered again at once: too soon (429); offered by the
    // other side and accepted.
    let draw = format!("/api/games/{id}/draw");
    let (status, game) = black.post(&draw, json!({"action": "offer"})).await;
    assert_eq!(status, 200, "{game}");
    assert_eq!(game["draw_offer"], "black");
    assert_eq!(black.post(&draw, json!({"action": "accept"})).await.0, 409);
    let (_, game) = white.post(&draw, json!({"action": "decline"})).await;
    assert_eq!(game["draw_offer"], Value::Null);
    assert_eq!(game["status"], "playing");
    let (status, again) = black.post(&draw, json!({"action": "offer"})).await;
    assert_eq!(status, 429, "{again}");
    assert!(
        again["error"].as_str().unwrap().contains("declined"),
        "{again}"
    );
    white.post(&draw, json!({"action": "offer"})).await;
    let (_, game) = black.post(&draw, json!({"action": "accept"})).await;
    assert_eq!(game["status"], "over");
    assert_eq!(game["result"]["reason"], "agreement");
    assert_eq!(
        game["ratings"],
        Value::Null,
        "a game agreed before its fourth ply counts for nobody"
    );
    server.stop().await;
}

#[tokio::test]
async fn sign_in_attempts_are_rate_limited() {
    let mut config = Config::new("127.0.0.1:0".parse().unwrap(), ":memory:".into());
    config.limits = Limits {
        sign_ins_per_minute: 3,
        ..limits()
    };
    let server = Server::with_config(config).await;
    let mut v = Visitor::new(&server.base).await;
    let body = json!({"name": "nobody", "password": "wrong password"});
    for _ in 0..3 {
        assert_eq!(v.post("/api/session/signin", body.clone()).await.0, 403);
    }
    let (status, answer) = v.post("/api/session/signin", body).await;
    assert_eq!(status, 429, "{answer}");
    server.stop().await;
}

#[tokio::test]
async fn a_rated_game_is_played_to_a_flag_and_the_ratings_change_and_survive_a_restart() {
    let dir = temp_dir("site-flag");
    let db = dir.join("games.db");
    let now = Arc::new(ManualNow::new(T0));
    let server = server(&db, &now).await;
    let (id, [mut white, mut black]) = paired(&server, ["fay", "gus"], "1+0").await;
    let path = format!("/api/games/{id}");
    let (_, game) = white.get(&path).await;
    assert_eq!(game["you"], "white");
    assert_eq!(game["rated"], true);
    assert_eq!(game["clock"]["text"], "1+0");
    assert_eq!(game["clock"]["class"], "bullet");
    assert_eq!(
        game["clock"]["left"],
        json!({"white": 60_000, "black": 60_000})
    );
    assert_eq!(
        game["clock"]["running"],
        Value::Null,
        "nothing runs before a ply"
    );
    assert_eq!(game["clock"]["first_ply_by"], T0 + 30_000);

    // Each side's clock starts with its own first ply.
    now.advance(2_000);
    let (_, game) = white
        .post(&format!("{path}/moves"), json!({"move": "d6"}))
        .await;
    assert_eq!(game["clock"]["left"]["white"], 60_000);
    assert_eq!(game["clock"]["first_ply_by"], T0 + 2_000 + 30_000);
    now.advance(1_000);
    let (_, game) = black
        .post(&format!("{path}/moves"), json!({"move": "f4"}))
        .await;
    assert_eq!(game["clock"]["left"]["black"], 60_000);
    assert_eq!(game["clock"]["plies"][1], json!([T0 + 3_000, 60_000]));
    assert_eq!(game["clock"]["running"], "white");
    assert_eq!(game["clock"]["first_ply_by"], Value::Null);
    for (mover, ply) in [(&mut white, "d2"), (&mut black, "b4")] {
        now.advance(1_000);
        let (status, game) = mover
            .post(&format!("{path}/moves"), json!({"move": ply}))
            .await;
        assert_eq!(status, 200, "{game}");
    }
    let (_, game) = black.get(&path).await;
    assert_eq!(
        game["clock"]["left"],
        json!({"white": 59_000, "black": 59_000})
    );

    // White walks away; nobody is connected to the game when the flag falls.
    now.advance(59_000);
    assert_eq!(server.app.sweep_clocks().await, 1);
    let (_, game) = black.get(&path).await;
    assert_eq!(game["status"], "over");
    assert_eq!(game["result"]["reason"], "timeout");
    assert_eq!(game["result"]["winner"], "black");
    assert_eq!(game["clock"]["left"]["white"], 0);
    let ratings = &game["ratings"];
    assert!(
        ratings["black"]["after"].as_i64().unwrap() > 1500,
        "{ratings}"
    );
    assert!(
        ratings["white"]["after"].as_i64().unwrap() < 1500,
        "{ratings}"
    );
    assert_eq!(ratings["white"]["provisional"], true);
    // Its record says it was rated, at what clock, and how the ratings moved.
    let record = server.text(&format!("{path}/record")).await;
    assert!(record.contains("[Event \"Rated game\"]"), "{record}");
    assert!(record.contains("[TimeControl \"60+0\"]"), "{record}");
    assert!(record.contains("[WhiteElo \"1500\"]"), "{record}");
    assert!(record.contains("[BlackElo \"1500\"]"), "{record}");
    let diff = format!(
        "[BlackRatingDiff \"+{}\"]",
        ratings["black"]["after"].as_i64().unwrap() - 1500
    );
    assert!(record.contains(&diff), "{diff} in {record}");
    let (_, late) = white
        .post(&format!("{path}/moves"), json!({"move": "d2"}))
        .await;
    assert!(late["error"].as_str().unwrap().contains("over"), "{late}");

    // The coin chose the colours: the winner is whoever plays black.
    let winner = black.get("/api/session").await.1["name"]
        .as_str()
        .unwrap()
        .to_owned();
    let loser = white.get("/api/session").await.1["name"]
        .as_str()
        .unwrap()
        .to_owned();
    let (_, gus) = black.get(&format!("/api/players/{winner}")).await;
    assert_eq!(gus["counts"], json!({"wins": 1, "draws": 0, "losses": 0}));
    assert_eq!(gus["ratings"][0]["class"], "bullet");
    assert_eq!(gus["ratings"][0]["games"], 1);
    assert_eq!(gus["history"].as_array().unwrap().len(), 1);

    // A second game whose first-ply wait runs out while the server is down: aborted.
    let (second, [mut w2, _b2]) = paired(&server, ["hal", "ivy"], "3+2").await;
    w2.post(&format!("/api/games/{second}/moves"), json!({"move": "d6"}))
        .await;
    server.stop().await;
    now.advance(10 * 60_000);
    let server = self::server(&db, &now).await;
    assert_eq!(server.app.sweep_clocks().await, 1);
    let (_, game) = server.get(&format!("/api/games/{second}")).await;
    assert_eq!(game["result"]["reason"], "aborted");
    assert_eq!(game["result"]["winner"], Value::Null);
    assert_eq!(game["ratings"], Value::Null);
    let (_, first) = server.get(&path).await;
    assert_eq!(&first["ratings"], ratings, "read back as they were");
    let (_, gus) = server.get(&format!("/api/players/{winner}")).await;
    assert_eq!(
        gus["history"].as_array().unwrap().len(),
        1,
        "never counted twice"
    );

    // History: the players' games, with filters.
    let (_, fay) = server.get(&format!("/api/players/{loser}/games")).await;
    assert_eq!(fay.as_array().unwrap().len(), 1);
    assert_eq!(fay[0]["result"], "0-1");
    assert_eq!(fay[0]["reason"], "timeout");
    assert_eq!(fay[0]["clock"], "1+0");
    let (_, wins) = server
        .get(&format!("/api/players/{winner}/games?result=win"))
        .await;
    assert_eq!(wins.as_array().unwrap().len(), 1);
    let (_, losses) = server
        .get(&format!("/api/players/{winner}/games?result=loss"))
        .await;
    assert!(losses.as_array().unwrap().is_empty());
    let (_, six) = server
        .get(&format!("/api/players/{winner}/games?variant=six"))
        .await;
    assert!(six.as_array().unwrap().is_empty());
    let (status, _) = server.get("/api/players/nobody-here").await;
    assert_eq!(status, 404);
    let (status, answer) = server
        .get(&format!("/api/players/{winner}/games?result=maybe"))
        .await;
    assert_eq!(status, 400, "{answer}");
    assert!(
        answer["error"].as_str().unwrap().contains("query"),
        "{answer}"
    );
    server.stop().await;
    std::fs::remove_dir_all(dir).unwrap();
}

#[tokio::test]
async fn challenges_are_listed_live_taken_with_a_click_and_vanish_when_their_creator_leaves() {
    let now = Arc::new(ManualNow::new(T0));
    let server = server(Path::new(":memory:"), &now).await;
    let mut ann = Visitor::new(&server.base).await;
    ann.sign_up("jan", "correct horse battery").await;
    let mut bob = Visitor::new(&server.base).await;
    bob.sign_up("kim", "correct horse battery").await;
    let body = json!({"clock": {"kind": "fischer", "base": 300, "increment": 3},
                      "rated": true, "color": "white"});
    let (status, answer) = ann.post("/api/lobby/challenges", body.clone()).await;
    assert_eq!(status, 409, "not in the lobby: {answer}");

    let mut watcher = Visitor::new(&server.base)
        .await
        .socket("/api/lobby/ws")
        .await;
    next_of(&mut watcher, "lobby").await;
    let mut ann_lobby = ann.socket("/api/lobby/ws").await;
    next_of(&mut ann_lobby, "lobby").await;
    let (status, made) = ann.post("/api/lobby/challenges", body.clone()).await;
    assert_eq!(status, 201, "{made}");
    let listed = next_of(&mut watcher, "lobby").await;
    let c = &listed["challenges"][0];
    assert_eq!(c["by"], "jan");
    assert_eq!(c["clock_text"], "5+3");
    assert_eq!(c["rated"], true);
    assert_eq!(c["rating"], 1500);
    assert_eq!(c["provisional"], true);
    assert_eq!(c["color"], "white");

    // A direct challenge is seen by its player only.
    let direct = json!({"to": "kim", "color": "black"});
    assert_eq!(ann.post("/api/lobby/challenges", direct).await.0, 201);
    let (_, seen) = bob.get("/api/lobby").await;
    assert_eq!(seen["challenges"].as_array().unwrap().len(), 2);
    let (_, public) = server.get("/api/lobby").await;
    assert_eq!(public["challenges"].as_array().unwrap().len(), 1);
    let unknown = json!({"to": "nobody"});
    assert_eq!(ann.post("/api/lobby/challenges", unknown).await.0, 404);

    let first = made["id"].as_u64().unwrap();
    let (status, game) = bob
        .post(&format!("/api/lobby/challenges/{first}/accept"), json!({}))
        .await;
    assert_eq!(status, 201, "{game}");
    assert_eq!(game["color"], "black");
    let paired = next_of(&mut ann_lobby, "paired").await;
    assert_eq!(paired["game"], game["game"]);
    assert_eq!(paired["color"], "white");
    let (status, _) = bob
        .post(&format!("/api/lobby/challenges/{first}/accept"), json!({}))
        .await;
    assert_eq!(status, 404, "taken once");
    let (_, playing) = server.get("/api/playing").await;
    assert_eq!(playing[0]["id"], game["game"]);
    assert_eq!(playing[0]["white"], "jan");

    // Ann leaves: her direct challenge goes with her.
    drop(ann_lobby);
    let mut gone = false;
    for _ in 0..100 {
        let (_, seen) = bob.get("/api/lobby").await;
        if seen["challenges"].as_array().unwrap().is_empty() {
            gone = true;
            break;
        }
        tokio::task::yield_now().await;
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(gone, "the challenge vanished with its creator");
    server.stop().await;
}

#[tokio::test]
async fn a_rematch_swaps_the_colours_and_the_chat_is_bounded_and_for_players_only() {
    let now = Arc::new(ManualNow::new(T0));
    let server = server(Path::new(":memory:"), &now).await;
    let (id, [mut white, mut black]) = paired(&server, ["lea", "max"], "5+3").await;
    let game = format!("/api/games/{id}");
    let mut watcher = server.watch(&id).await;

    // Chat: players write, everyone reads; spectators do not write.
    let (status, line) = white
        .post(
            &format!("{game}/chat"),
            json!({"text": "  good luck <b>!</b> "}),
        )
        .await;
    assert_eq!(status, 201, "{line}");
    assert_eq!(line["text"], "good luck <b>!</b>", "kept as text, trimmed");
    assert_eq!(line["side"], "white");
    let heard = next_of(&mut watcher, "chat").await;
    assert_eq!(heard["text"], line["text"]);
    let mut spectator = Visitor::new(&server.base).await;
    let (status, _) = spectator
        .post(&format!("{game}/chat"), json!({"text": "hi"}))
        .await;
    assert_eq!(status, 403);
    let long = "x".repeat(141);
    let (status, answer) = black
        .post(&format!("{game}/chat"), json!({"text": long}))
        .await;
    assert_eq!(status, 400, "{answer}");
    for i in 0..5 {
        let (status, answer) = black
            .post(
                &format!("{game}/chat"),
                json!({"text": format!("line {i}")}),
            )
            .await;
        assert_eq!(status, 201, "{answer}");
    }
    let (status, answer) = black
        .post(&format!("{game}/chat"), json!({"text": "one too many"}))
        .await;
    assert_eq!(status, 429, "{answer}");
    now.advance(10_000);
    assert_eq!(
        black
            .post(&format!("{game}/chat"), json!({"text": "later"}))
            .await
            .0,
        201
    );
    let (_, lines) = server.get(&format!("{game}/chat")).await;
    assert_eq!(lines.as_array().unwrap().len(), 7);

    // Abort while each side has not yet played; then no more.
    let (_, g) = white.get(&game).await;
    assert_eq!(g["abortable"], true);
    white
        .post(&format!("{game}/moves"), json!({"move": "d6"}))
        .await;
    black
        .post(&format!("{game}/moves"), json!({"move": "f4"}))
        .await;
    let (status, _) = black.post(&format!("{game}/abort"), json!({})).await;
    assert_eq!(status, 409, "too late to abort");

    // Resign with the rematch offered and accepted: colours swapped.
    let (_, over) = black.post(&format!("{game}/resign"), json!({})).await;
    assert_eq!(over["result"]["winner"], "white");
    let rematch = format!("{game}/rematch");
    let (status, offered) = black.post(&rematch, json!({"action": "offer"})).await;
    assert_eq!(status, 200, "{offered}");
    assert_eq!(offered["rematch_offer"], "black");
    assert_eq!(
        black.post(&rematch, json!({"action": "accept"})).await.0,
        409
    );
    // Six accepts at once (a double click, a retried request): one rematch, named by all.
    let racing: Vec<_> = (0..6)
        .map(|_| {
            let mut tab = white.twin();
            let path = rematch.clone();
            tokio::spawn(async move { tab.post(&path, json!({"action": "accept"})).await })
        })
        .collect();
    let mut named = Vec::new();
    for answer in racing {
        let (status, accepted) = answer.await.unwrap();
        assert_eq!(status, 200, "accepting is idempotent: {accepted}");
        named.push(accepted["next_game"].as_str().unwrap().to_owned());
    }
    let next = named[0].clone();
    assert!(named.iter().all(|n| *n == next), "{named:?}");
    let (_, listed) = white.get("/api/session/games").await;
    assert_eq!(
        listed.as_array().unwrap().len(),
        2,
        "no hidden game: {listed}"
    );
    let (_, g) = white.get(&format!("/api/games/{next}")).await;
    assert_eq!(g["you"], "black", "the colours are swapped");
    assert_eq!(g["rated"], true);
    assert_eq!(g["clock"]["text"], "5+3");
    let (_, g) = black.get(&format!("/api/games/{next}")).await;
    assert_eq!(g["you"], "white");
    assert_eq!(
        white.post(&rematch, json!({"action": "offer"})).await.0,
        409
    );

    // The new game: nothing is claimed before both sides have played.
    let next_path = format!("/api/games/{next}");
    let claim = format!("{next_path}/claim");
    let (status, answer) = black.post(&claim, json!({"result": "win"})).await;
    assert_eq!(status, 409, "{answer}");
    assert!(
        answer["error"].as_str().unwrap().contains("first ply"),
        "{answer}"
    );
    let mut black_socket = black.socket(&format!("{next_path}/ws")).await;
    let presence = next_of(&mut black_socket, "presence").await;
    assert_eq!(presence["connected"]["white"], true);
    assert_eq!(presence["connected"]["black"], false);
    black
        .post(&format!("{next_path}/moves"), json!({"move": "d6"}))
        .await;
    now.advance(20_000);
    let (status, _) = black.post(&claim, json!({"result": "win"})).await;
    assert_eq!(
        status, 409,
        "Black (was White) has not played: abort, not claim"
    );
    // Black plays over HTTP only, without a socket: its requests are its presence.
    let (status, _) = white
        .post(&format!("{next_path}/moves"), json!({"move": "f4"}))
        .await;
    assert_eq!(status, 200);
    now.advance(29_000);
    white.get(&next_path).await;
    now.advance(2_000);
    let (status, _) = black.post(&claim, json!({"result": "win"})).await;
    assert_eq!(status, 409, "a poll 2 s ago counts as being here");
    now.advance(30_000);
    let (status, won) = black.post(&claim, json!({"result": "win"})).await;
    assert_eq!(status, 200, "{won}");
    assert_eq!(won["result"]["reason"], "abandonment");
    assert_eq!(won["result"]["winner"], "white");
    server.stop().await;
}

/// Creates a game by the visitor's session: its id, the creator's token and the invitation.
async fn create_by(v: &mut Visitor, body: Value) -> (String, String, String) {
    let (status, created) = v.post("/api/games", body).await;
    assert_eq!(status, 201, "{created}");
    let text = |key: &str| created[key].as_str().unwrap().to_owned();
    (text("id"), text("token"), text("invite"))
}

/// The ids of the session's games that a query lists, sorted.
async fn ids(v: &mut Visitor, query: &str) -> Vec<String> {
    let (status, games) = v.get(&format!("/api/session/games{query}")).await;
    assert_eq!(status, 200, "{query}: {games}");
    let mut ids: Vec<String> = games
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_owned())
        .collect();
    ids.sort();
    ids
}

#[tokio::test]
async fn my_games_take_the_filters_of_a_players_list_and_name_the_players_seat() {
    let dir = temp_dir("site-my-games");
    let now = Arc::new(ManualNow::new(T0));
    let server = server(&dir.join("games.db"), &now).await;
    // An anonymous player, kept by the cookie alone.
    let mut v = Visitor::new(&server.base).await;
    let (lost, token, _) = create_by(&mut v, json!({"opponent": "friend", "color": "white"})).await;
    let (status, _) = v
        .post(
            &format!("/api/games/{lost}/resign"),
            json!({"token": token}),
        )
        .await;
    assert_eq!(status, 200);
    let six = json!({"opponent": "friend", "variant": "six", "color": "black"});
    let (drawn, token, invite) = create_by(&mut v, six).await;
    let draw = |token: &str, action: &str| json!({"token": token, "action": action});
    let path = format!("/api/games/{drawn}/draw");
    assert_eq!(server.post(&path, draw(&invite, "offer")).await.0, 200);
    assert_eq!(v.post(&path, draw(&token, "accept")).await.0, 200);
    let (aborted, token, _) = create_by(&mut v, json!({"opponent": "friend"})).await;
    let (status, _) = v
        .post(
            &format!("/api/games/{aborted}/abort"),
            json!({"token": token}),
        )
        .await;
    assert_eq!(status, 200);
    let (playing, _, _) = create_by(&mut v, json!({"opponent": "friend", "color": "black"})).await;

    let sorted = |mut list: Vec<&String>| {
        list.sort();
        list.into_iter().cloned().collect::<Vec<String>>()
    };
    assert_eq!(
        ids(&mut v, "").await,
        sorted(vec![&lost, &drawn, &aborted, &playing])
    );
    assert_eq!(ids(&mut v, "?result=loss").await, [lost.as_str()]);
    assert_eq!(
        ids(&mut v, "?result=draw").await,
        [drawn.as_str()],
        "an abort is no draw"
    );
    assert!(ids(&mut v, "?result=win").await.is_empty());
    assert_eq!(ids(&mut v, "?variant=six").await, [drawn.as_str()]);
    assert!(ids(&mut v, "?variant=six&result=loss").await.is_empty());
    assert_eq!(ids(&mut v, "?status=playing").await, [playing.as_str()]);

    let (_, games) = v.get("/api/session/games").await;
    let game = |id: &str| {
        games
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == id)
            .unwrap()
            .clone()
    };
    assert_eq!(game(&lost)["color"], "white");
    assert_eq!(game(&lost)["result"], "0-1");
    assert_eq!(game(&lost)["reason"], "resignation");
    assert_eq!(game(&drawn)["color"], "black");
    assert_eq!(game(&drawn)["result"], "1/2-1/2");
    assert_eq!(game(&aborted)["result"], "*");
    assert_eq!(game(&playing)["result"], Value::Null);
    assert_eq!(game(&playing)["color"], "black");
    let (status, answer) = v.get("/api/session/games?result=maybe").await;
    assert_eq!(status, 400, "{answer}");

    // The page's own path is the app, on a reload as on the first visit.
    let r = reqwest::get(server.url("/games")).await.unwrap();
    assert_eq!(r.status(), 200);
    assert!(r.text().await.unwrap().contains("/js/app.js"));
    server.stop().await;
    std::fs::remove_dir_all(dir).unwrap();
}

#[tokio::test]
async fn an_imported_game_with_a_clock_keeps_one_time_per_ply() {
    let dir = temp_dir("site-imported-clock");
    let now = Arc::new(ManualNow::new(T0));
    let server = server(&dir.join("games.db"), &now).await;
    let created = server
        .create(json!({"opponent": "friend", "record": "1. d6 f4", "clock": "3+2"}))
        .await;
    let id = created["id"].as_str().unwrap();
    let token = created["token"].as_str().unwrap();
    now.advance(4000);
    let (status, game) = server.play(id, token, "d2").await;
    assert_eq!(status, 200, "{game}");
    // The imported plies took no time, and White's first ply in the game comes off no clock.
    let plies = json!([[T0, 180_000], [T0, 180_000], [T0 + 4000, 180_000]]);
    assert_eq!(game["clock"]["plies"], plies);
    // The same after a restart, from the database; the record's plies are still nobody's:
    // Black has not played in this game, which can still be aborted, and is awaited.
    server.stop().await;
    let server = self::server(&dir.join("games.db"), &now).await;
    let (_, game) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(game["moves"], json!(["d6", "f4", "d2"]));
    assert_eq!(game["clock"]["plies"], plies);
    assert_eq!(game["abortable"], true);
    assert_eq!(game["waiting_for"], "black");
    server.stop().await;
    std::fs::remove_dir_all(dir).unwrap();
}

/// Quick pairing of two visitors whose lobby sockets are open; the game's view.
async fn quick_pair(a: &mut Visitor, b: &mut Visitor) -> Value {
    let (status, waiting) = a.post("/api/lobby/quick", json!({"clock": "3+2"})).await;
    assert_eq!(status, 200, "{waiting}");
    let (status, paired) = b.post("/api/lobby/quick", json!({"clock": "3+2"})).await;
    assert_eq!(status, 200, "{paired}");
    let id = paired["game"].as_str().expect("paired").to_owned();
    let (_, game) = b.get(&format!("/api/games/{id}")).await;
    // Ended at once (an abort: nobody has played), so that the next pairing can be made.
    let (status, ended) = b.post(&format!("/api/games/{id}/abort"), json!({})).await;
    assert_eq!(status, 200, "{ended}");
    game
}

#[tokio::test]
async fn two_accounts_are_rated_against_each_other_a_few_times_a_day_and_fewer_from_one_network() {
    let now = Arc::new(ManualNow::new(T0));
    let server = server(Path::new(":memory:"), &now).await;
    // From one address: two rated games a day, then unrated with the reason.
    let mut booster = Visitor::new(&server.base).await;
    let mut puppet = Visitor::new(&server.base).await;
    booster.sign_up("booster", "correct horse battery").await;
    puppet.sign_up("puppet", "correct horse battery").await;
    let _sockets = (
        booster.socket("/api/lobby/ws").await,
        puppet.socket("/api/lobby/ws").await,
    );
    let mut rated = Vec::new();
    for _ in 0..3 {
        let game = quick_pair(&mut booster, &mut puppet).await;
        rated.push((game["rated"].clone(), game["unrated_why"].clone()));
    }
    assert_eq!(rated[0], (json!(true), Value::Null));
    assert_eq!(rated[1], (json!(true), Value::Null));
    assert_eq!(rated[2].0, json!(false));
    assert!(
        rated[2].1.as_str().unwrap().contains("one network"),
        "{rated:?}"
    );
    // A day later they are rated again.
    now.advance(24 * 3600 * 1000 + 1000);
    assert_eq!(quick_pair(&mut booster, &mut puppet).await["rated"], true);

    // From two networks: six rated games a day between the same two accounts.
    let mut ann = Visitor::from_address(&server.base, [127, 0, 0, 2].into()).await;
    let mut bob = Visitor::from_address(&server.base, [127, 0, 0, 3].into()).await;
    ann.sign_up("ann", "correct horse battery").await;
    bob.sign_up("bob", "correct horse battery").await;
    let _sockets = (
        ann.socket("/api/lobby/ws").await,
        bob.socket("/api/lobby/ws").await,
    );
    let mut flags = Vec::new();
    for _ in 0..7 {
        flags.push(quick_pair(&mut ann, &mut bob).await["rated"] == true);
    }
    assert_eq!(flags, [true, true, true, true, true, true, false]);
    server.stop().await;
}
