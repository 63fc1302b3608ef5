//! The HTTP and WebSocket API on a real loopback socket, as docs/api.md describes it.

mod common;

use std::path::Path;
use std::time::Duration;

use common::{Lcg, Server, game_at, next_game, send, strings, temp_dir};
use futures_util::StreamExt;
use morris_server::Limits;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

fn s(v: &Value) -> &str {
    v.as_str().unwrap()
}

#[tokio::test]
async fn a_friend_game_is_played_to_its_end_and_each_side_sees_the_other() {
    let server = Server::in_memory().await;
    let created = server
        .create(json!({"variant": "nine", "opponent": "friend", "color": "white", "name": "Ann"}))
        .await;
    let id = s(&created["id"]).to_owned();
    let white = s(&created["token"]).to_owned();
    let black = s(&created["invite"]).to_owned();
    assert_eq!(created["color"], "white");
    assert_eq!(created["game"]["you"], "white");
    assert_eq!(created["game"]["players"]["white"]["name"], "Ann");
    assert_eq!(white.len(), 32);
    assert_ne!(white, black);

    assert_eq!(created["game"]["waiting_for"], "black");
    let (status, game) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!((status, &game["you"]), (200, &Value::Null));
    assert_eq!(game["waiting_for"], "black", "a spectator brings nobody");
    // The friend opens the link: they have come.
    let (status, game) = server.get_as(&format!("/api/games/{id}"), &black).await;
    assert_eq!(status, 200);
    assert_eq!(game["you"], "black");
    assert_eq!(game["waiting_for"], Value::Null);
    assert_eq!(game["version"], 2);

    let mut white_socket = server.watch(&id).await;
    let mut black_socket = server.watch(&id).await;
    let mut spectator = server.watch(&id).await;
    for socket in [&mut white_socket, &mut black_socket, &mut spectator] {
        assert_eq!(next_game(socket).await["version"], 2);
    }

    let mut rng = Lcg(7);
    let mut game = game;
    let mut plies = 0;
    while game["status"] == "playing" {
        let legal = strings(&game["legal"]);
        let ply = &legal[rng.below(legal.len())];
        let (mover, other) = if game["turn"] == "white" {
            (&white, &mut black_socket)
        } else {
            (&black, &mut white_socket)
        };
        let (status, after) = server.play(&id, mover, ply).await;
        assert_eq!(status, 200, "{after}");
        assert_eq!(after["last"], Value::String(ply.clone()));
        let version = after["version"].as_u64().unwrap();
        let seen = game_at(other, version).await;
        assert_eq!(seen["moves"], after["moves"], "the other seat sees the ply");
        assert_eq!(seen["position"], after["position"]);
        game = after;
        plies += 1;
        assert!(
            plies < 2000,
            "a game ends: the N-move rule and repetition see to it"
        );
    }
    assert_eq!(game["legal"], json!([]));
    assert!(game["result"]["reason"].is_string());
    assert!(game["result"]["text"].is_string());
    let end = game_at(&mut spectator, game["version"].as_u64().unwrap()).await;
    assert_eq!(end["status"], "over");
    assert_eq!(end["you"], Value::Null);

    let (status, after) = server.play(&id, &white, "d6").await;
    assert_eq!(status, 409);
    assert!(s(&after["error"]).contains("over"), "{after}");

    let record = reqwest::get(server.url(&format!("/api/games/{id}/record")))
        .await
        .unwrap();
    assert!(
        record.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain")
    );
    let text = record.text().await.unwrap();
    assert!(text.contains("[White \"Ann\"]"), "{text}");
    assert!(text.contains(&format!(
        "[Termination \"{}\"]",
        s(&game["result"]["reason"])
    )));
    server.stop().await;
}

#[tokio::test]
async fn bad_requests_get_the_right_status_and_a_clear_message() {
    let server = Server::in_memory().await;
    let created = server.create(json!({"opponent": "friend"})).await;
    let id = s(&created["id"]);
    let white = s(&created["token"]);
    let black = s(&created["invite"]);

    let cases: Vec<(&str, (u16, Value), &str)> = vec![
        ("illegal", server.play(id, white, "d6-d5").await, "illegal"),
        (
            "unreadable",
            server.play(id, white, "x9y").await,
            "cannot read",
        ),
        (
            "wrong token",
            server.play(id, &"0".repeat(32), "d6").await,
            "no seat",
        ),
        (
            "no token at all",
            server.play(id, "nope", "d6").await,
            "no seat",
        ),
        (
            "other seat",
            server.play(id, black, "d6").await,
            "not your turn",
        ),
        (
            "unknown game",
            server.play("aaaaaaaaaaaa", white, "d6").await,
            "no game",
        ),
        ("bad id", server.play("Not-An-Id", white, "d6").await, "no"),
        (
            "missing field",
            server
                .post(&format!("/api/games/{id}/moves"), json!({"token": white}))
                .await,
            "move",
        ),
        (
            "bad variant",
            server.post("/api/games", json!({"variant": "ten"})).await,
            "ten",
        ),
        (
            "bad level",
            server
                .post("/api/games", json!({"opponent": "computer", "level": 11}))
                .await,
            "level",
        ),
        (
            "long name",
            server
                .post("/api/games", json!({"name": "x".repeat(41)}))
                .await,
            "40",
        ),
        (
            "bad position",
            server
                .post(
                    "/api/games",
                    json!({"opponent": "local", "position": "nonsense"}),
                )
                .await,
            "position",
        ),
        (
            "bad record",
            server
                .post(
                    "/api/games",
                    json!({"opponent": "local", "record": "1. d6 d6"}),
                )
                .await,
            "record",
        ),
        (
            "nothing to take back",
            server
                .post(
                    &format!("/api/games/{id}/takeback"),
                    json!({"token": white}),
                )
                .await,
            "take back",
        ),
        (
            "no draw to accept",
            server
                .post(
                    &format!("/api/games/{id}/draw"),
                    json!({"token": black, "action": "accept"}),
                )
                .await,
            "no draw",
        ),
        (
            "unknown endpoint",
            server.get("/api/nothing").await,
            "no such",
        ),
    ];
    let expected = [
        409, 400, 403, 403, 409, 404, 404, 400, 400, 400, 400, 400, 400, 409, 409, 404,
    ];
    for ((what, (status, body), words), want) in cases.into_iter().zip(expected) {
        assert_eq!(status, want, "{what}: {body}");
        let message = body["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{what}: {body}"));
        assert!(message.contains(words), "{what}: {message}");
    }

    let client = reqwest::Client::new();
    let url = server.url(&format!("/api/games/{id}/moves"));
    let r = client
        .post(&url)
        .header("content-type", "application/json")
        .body("{\"move\": \"d6\", ")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 400);
    assert!(r.text().await.unwrap().contains("not valid JSON"));
    let r = client.post(&url).body("{}").send().await.unwrap();
    assert_eq!(r.status(), 415);
    let huge = json!({"move": "d6", "token": white, "pad": "x".repeat(100_000)});
    let r = client.post(&url).json(&huge).send().await.unwrap();
    assert_eq!(r.status(), 413);
    let body: Value = r.json().await.unwrap();
    assert!(s(&body["error"]).contains("too large"));
    let r = client.delete(&url).send().await.unwrap();
    assert_eq!(r.status(), 405);

    let (_, game) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(
        game["moves"],
        json!([]),
        "no refused request changed the game"
    );
    assert_eq!(game["version"], 1);
    server.stop().await;
}

#[tokio::test]
async fn games_per_minute_are_limited_per_address() {
    let limits = Limits {
        games_per_minute: 3,
        ..Limits::default()
    };
    let server = Server::start(std::path::Path::new(":memory:"), limits).await;
    for _ in 0..3 {
        server.create(json!({"opponent": "local"})).await;
    }
    let (status, body) = server
        .post("/api/games", json!({"opponent": "local"}))
        .await;
    assert_eq!(status, 429);
    assert!(s(&body["error"]).contains("wait"));
    server.stop().await;
}

#[tokio::test]
async fn names_and_pages_are_served_safely() {
    let server = Server::in_memory().await;
    let evil = "<img src=x onerror=alert(1)>";
    let created = server
        .create(json!({"opponent": "friend", "name": evil}))
        .await;
    assert_eq!(
        created["game"]["players"]["white"]["name"], evil,
        "kept as text"
    );
    for path in ["/", "/g/abcdefghijkl", "/app.css"] {
        let r = reqwest::get(server.url(path)).await.unwrap();
        assert_eq!(r.status(), 200, "{path}");
        let h = r.headers();
        let csp = h["content-security-policy"].to_str().unwrap();
        assert!(
            csp.contains("script-src 'self'") && !csp.contains("unsafe"),
            "{csp}"
        );
        assert_eq!(h["x-content-type-options"], "nosniff");
        assert_eq!(h["referrer-policy"], "no-referrer");
        assert_eq!(h["x-frame-options"], "DENY");
    }
    let r = reqwest::get(server.url("/")).await.unwrap();
    assert!(
        r.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    let etag = r.headers()["etag"].clone();
    let again = reqwest::Client::new()
        .get(server.url("/"))
        .header("if-none-match", etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 304);
    let missing = reqwest::get(server.url("/no-such-file.js")).await.unwrap();
    assert_eq!(missing.status(), 404);
    let api = reqwest::get(server.url("/api/variants")).await.unwrap();
    assert_eq!(api.headers()["cache-control"], "no-store");
    let variants: Value = api.json().await.unwrap();
    let nine = &variants[0];
    assert_eq!(nine["name"], "nine");
    assert_eq!(nine["points"].as_array().unwrap().len(), 24);
    assert_eq!(nine["mills"].as_array().unwrap().len(), 16);
    assert_eq!(nine["lines"].as_array().unwrap().len(), 32);
    assert_eq!(variants.as_array().unwrap().len(), 6);
    server.stop().await;
}

#[tokio::test]
async fn the_websocket_answers_pings_and_closes_on_oversized_messages() {
    let server = Server::in_memory().await;
    let created = server.create(json!({"opponent": "local"})).await;
    let id = s(&created["id"]);
    let mut socket = server.watch(id).await;
    next_game(&mut socket).await;
    send(&mut socket, r#"{"type":"ping"}"#).await;
    let pong = tokio::time::timeout(Duration::from_secs(10), socket.next())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert_eq!(pong, Message::Text(r#"{"type":"pong"}"#.into()));
    send(&mut socket, "ignored").await;
    send(&mut socket, &"x".repeat(5000)).await;
    let closed = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match socket.next().await {
                None | Some(Err(_)) => return true,
                Some(Ok(Message::Close(_))) => return true,
                Some(Ok(_)) => {}
            }
        }
    })
    .await
    .unwrap();
    assert!(closed);
    let (status, _) = server.get(&format!("/api/games/{id}/ws")).await;
    assert_eq!(status, 400, "a plain GET is no WebSocket");
    server.stop().await;
}

#[tokio::test]
async fn websockets_beyond_the_limit_are_refused_until_one_closes() {
    let limits = Limits {
        max_sockets: 1,
        ..Limits::default()
    };
    let server = Server::start(Path::new(":memory:"), limits).await;
    let created = server.create(json!({"opponent": "local"})).await;
    let id = s(&created["id"]);
    let url = format!("{}/ws", server.url(&format!("/api/games/{id}"))).replacen("http", "ws", 1);
    let mut first = server.watch(id).await;
    next_game(&mut first).await;
    match tokio_tungstenite::connect_async(url.as_str()).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status(), 503);
            let body = String::from_utf8(response.body().clone().unwrap_or_default()).unwrap();
            assert!(body.contains("too many live connections"), "{body}");
        }
        other => panic!("a second socket over the limit was not refused: {other:?}"),
    }
    first.close(None).await.unwrap();
    // The permit comes back once the server has seen the close.
    let reopened = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            if let Ok((mut socket, _)) = tokio_tungstenite::connect_async(url.as_str()).await {
                return next_game(&mut socket).await;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("a socket opens again after the first one closed");
    assert_eq!(reopened["id"], created["id"]);
    server.stop().await;
}

#[tokio::test]
async fn takeback_resign_draw_and_import_work_through_the_api() {
    let server = Server::in_memory().await;
    let created = server.create(json!({"opponent": "local"})).await;
    let id = s(&created["id"]).to_owned();
    let token = s(&created["token"]).to_owned();
    assert_eq!(created["game"]["you"], "both");
    for ply in ["d6", "f4", "d2"] {
        assert_eq!(server.play(&id, &token, ply).await.0, 200);
    }
    let (status, game) = server
        .post(
            &format!("/api/games/{id}/takeback"),
            json!({"token": token}),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(game["moves"], json!(["d6", "f4"]));
    let (_, game) = server
        .post(
            &format!("/api/games/{id}/draw"),
            json!({"token": token, "action": "offer"}),
        )
        .await;
    assert_eq!(game["draw_offer"], "white");
    let (_, game) = server
        .post(
            &format!("/api/games/{id}/draw"),
            json!({"token": token, "action": "decline"}),
        )
        .await;
    assert_eq!(game["draw_offer"], Value::Null);
    let (status, game) = server
        .post(&format!("/api/games/{id}/resign"), json!({"token": token}))
        .await;
    assert_eq!(status, 200);
    assert_eq!(game["result"]["reason"], "resignation");
    assert_eq!(game["result"]["winner"], "black");

    let record = reqwest::get(server.url(&format!("/api/games/{id}/record")))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let imported = server
        .create(json!({"opponent": "local", "record": record}))
        .await;
    assert_eq!(imported["game"]["moves"], json!(["d6", "f4"]));
    assert_eq!(imported["game"]["result"]["reason"], "resignation");

    let six = server
        .create(json!({"variant": "six", "opponent": "friend",
                       "position": "..W/.../..../.../... b 5 6 0 1", "color": "black"}))
        .await;
    assert_eq!(six["color"], "black");
    assert_eq!(six["game"]["turn"], "black");
    assert_eq!(six["game"]["board"], json!({"e5": "white"}));
    let (status, _) = server.play(s(&six["id"]), s(&six["token"]), "a1").await;
    assert_eq!(status, 200);
    server.stop().await;
}

#[tokio::test]
async fn games_carry_on_after_the_server_restarts_on_the_same_file() {
    let dir = temp_dir("restart");
    let db = dir.join("games.db");
    let server = Server::start(&db, Limits::default()).await;
    let created = server.create(json!({"opponent": "friend"})).await;
    let id = s(&created["id"]).to_owned();
    let (white, black) = (
        s(&created["token"]).to_owned(),
        s(&created["invite"]).to_owned(),
    );
    assert_eq!(server.play(&id, &white, "d6").await.0, 200);
    assert_eq!(server.play(&id, &black, "f4").await.0, 200);
    server.stop().await;

    let server = Server::start(&db, Limits::default()).await;
    let (status, game) = server.get_as(&format!("/api/games/{id}"), &white).await;
    assert_eq!(status, 200);
    assert_eq!(game["moves"], json!(["d6", "f4"]));
    assert_eq!(game["you"], "white");
    assert_eq!(game["version"], 3);
    assert_eq!(server.play(&id, &white, "d2").await.0, 200);
    assert_eq!(server.play(&id, &white, "d1").await.0, 409);
    server.stop().await;
    std::fs::remove_dir_all(dir).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_against_the_computer_is_played_to_its_end() {
    let server = Server::in_memory().await;
    let created = server
        .create(json!({"opponent": "computer", "level": 1, "color": "black", "name": "Bo"}))
        .await;
    let id = s(&created["id"]).to_owned();
    let token = s(&created["token"]).to_owned();
    assert_eq!(created["game"]["players"]["white"]["kind"], "computer");
    assert_eq!(created["game"]["players"]["white"]["level"], 1);
    assert_eq!(created["game"]["thinking"], true, "the computer opens");
    let mut socket = server.watch(&id).await;
    let mut game = next_game(&mut socket).await;
    let mut rng = Lcg(11);
    let mut plies = 0;
    loop {
        while game["thinking"] == true {
            game = next_game(&mut socket).await;
        }
        if game["status"] == "over" {
            break;
        }
        assert_eq!(game["turn"], "black");
        assert_eq!(server.play(&id, &token, "zz").await.0, 400);
        let legal = strings(&game["legal"]);
        let ply = &legal[rng.below(legal.len())];
        let (status, after) = server.play(&id, &token, ply).await;
        if status == 409 && after["error"].as_str().unwrap().contains("over") {
            continue;
        }
        assert_eq!(status, 200, "{after}");
        game = after;
        plies += 1;
        assert!(plies < 1000);
    }
    assert!(game["result"]["text"].is_string(), "{game}");
    let (status, _) = server.get(&format!("/api/games/{id}/hint")).await;
    assert_eq!(status, 409, "no hint in a finished game");
    server.stop().await;
}

async fn analysis_kind_is_structured(server: &Server, id: &str) -> bool {
    let (_, analysis) = server.get(&format!("/api/games/{id}/analysis")).await;
    analysis["moves"].as_array().is_some_and(|moves| {
        moves.iter().all(|m| {
            matches!(m["score"]["kind"].as_str(), Some("cp" | "mate"))
                && m["score"]["value"].is_i64()
        })
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hints_analyses_takebacks_and_draws_against_the_computer() {
    let server = Server::in_memory().await;
    let created = server
        .create(json!({"opponent": "computer", "level": 2}))
        .await;
    let id = s(&created["id"]).to_owned();
    let token = s(&created["token"]).to_owned();
    let (status, hint) = server.get(&format!("/api/games/{id}/hint")).await;
    assert_eq!(status, 200, "{hint}");
    let legal = strings(&created["game"]["legal"]);
    assert!(legal.contains(&s(&hint["move"]).to_owned()));
    let kind = s(&hint["score"]["kind"]);
    assert!(kind == "cp" || kind == "mate", "{hint}");
    assert!(hint["score"]["value"].is_i64(), "{hint}");
    assert!(
        analysis_kind_is_structured(&server, &id).await,
        "analysis scores are structured"
    );
    let (status, analysis) = server.get(&format!("/api/games/{id}/analysis")).await;
    assert_eq!(status, 200, "{analysis}");
    assert_eq!(analysis["source"], "engine");
    let moves = analysis["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 24, "every legal ply is scored");
    assert_eq!(moves[0]["grade"], "best");

    let mut socket = server.watch(&id).await;
    let (status, after) = server.play(&id, &token, "d6").await;
    assert_eq!(status, 200);
    assert_eq!(after["thinking"], true);
    let replied = game_at(&mut socket, 3).await;
    assert_eq!(replied["moves"].as_array().unwrap().len(), 2);
    assert_eq!(replied["thinking"], false);
    let (status, back) = server
        .post(
            &format!("/api/games/{id}/takeback"),
            json!({"token": token}),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        back["moves"],
        json!([]),
        "the reply and the ply are taken back"
    );

    let (status, offered) = server
        .post(
            &format!("/api/games/{id}/draw"),
            json!({"token": token, "action": "offer"}),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(offered["draw_offer"], Value::Null, "answered at once");
    let (status, _) = server
        .post(&format!("/api/games/{id}/resign"), json!({"token": token}))
        .await;
    if offered["status"] == "over" {
        // The computer judged the position drawn and accepted: nothing is left to resign.
        assert_eq!(offered["result"]["reason"], "agreement");
        assert_eq!(status, 409);
    } else {
        assert_eq!(status, 200);
    }

    let friend = server.create(json!({"opponent": "friend"})).await;
    let (status, body) = server
        .get(&format!("/api/games/{}/hint", s(&friend["id"])))
        .await;
    assert_eq!(status, 409);
    assert!(s(&body["error"]).contains("friend"));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analyses_come_from_the_tablebase_where_it_holds_the_position() {
    let dir = temp_dir("tablebase");
    let tablebase = std::sync::Arc::new(morris_tablebase::EngineTables::open(&dir).unwrap());
    let mut config = morris_server::Config::new(
        "127.0.0.1:0".parse().unwrap(),
        std::path::PathBuf::from(":memory:"),
    );
    config.tablebase = Some(tablebase);
    let server = Server::with_config(config).await;
    // Three against three, nothing in hand: the 3-3 sector of nine.
    let created = server
        .create(json!({"opponent": "local",
                       "position": "W../.W./W../....../..B/..B/..B w 0 0 0 20"}))
        .await;
    let id = s(&created["id"]);
    let (status, analysis) = server.get(&format!("/api/games/{id}/analysis")).await;
    assert_eq!(status, 200, "{analysis}");
    assert_eq!(analysis["source"], "tablebase");
    let moves = analysis["moves"].as_array().unwrap();
    assert_eq!(
        moves.len(),
        created["game"]["legal"].as_array().unwrap().len()
    );
    assert_eq!(moves[0]["grade"], "best");
    let (status, hint) = server.get(&format!("/api/games/{id}/hint")).await;
    assert_eq!(status, 200, "{hint}");
    assert_eq!(hint["source"], "tablebase");
    assert_eq!(hint["move"], moves[0]["move"]);

    // With the whole of Six Men's Morris built, the placing phase is exact too: the start is a
    // draw, and no ply of the first placement loses it.
    let six = morris_core::Variant::Six.rules();
    morris_tablebase::build(
        &morris_tablebase::BuildOptions::new(six, &dir),
        &[morris_tablebase::Sector::start(&six)],
        |_| {},
    )
    .unwrap();
    let created = server
        .create(json!({"opponent": "local", "variant": "six"}))
        .await;
    let id = s(&created["id"]);
    let (status, analysis) = server.get(&format!("/api/games/{id}/analysis")).await;
    assert_eq!(status, 200, "{analysis}");
    assert_eq!(analysis["source"], "tablebase", "{analysis}");
    for m in analysis["moves"].as_array().unwrap() {
        assert_eq!(m["score"], json!({"kind": "cp", "value": 0}), "{analysis}");
        assert_eq!(m["grade"], "best");
    }
    let (status, hint) = server.get(&format!("/api/games/{id}/hint")).await;
    assert_eq!(status, 200, "{hint}");
    assert_eq!(hint["source"], "tablebase");
    server.stop().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// A text with several games is listed game by game, one of them is started with what its
/// import said, and a game is written for Sanmill and PlayOK and read back the same.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn records_of_several_games_and_other_programs_formats() {
    let server = Server::in_memory().await;
    let text = "[White \"Ann\"]\n[Black \"Bob\"]\n\n1. d6 f4 2. d2 b4 *\n\n\
                [White \"Cy\"]\n[Black \"Di\"]\n\n1. a7 g7 2. a1 *\n";
    let (status, listed) = server.post("/api/import", json!({"record": text})).await;
    assert_eq!(status, 200, "{listed}");
    let games = listed.as_array().unwrap();
    assert_eq!(games.len(), 2, "{listed}");
    assert_eq!(games[0]["white"], "Ann");
    assert_eq!(games[1]["black"], "Di");
    assert_eq!(games[1]["plies"], 3);
    assert!(games[1]["error"].is_null());

    let second = server
        .create(json!({"opponent": "local", "record": text, "game": 2}))
        .await;
    assert_eq!(
        second["game"]["moves"].as_array().unwrap().len(),
        3,
        "{second}"
    );
    assert!(second["warnings"].as_array().unwrap().is_empty());
    let (status, body) = server
        .post(
            "/api/games",
            json!({"opponent": "local", "record": text, "game": 3}),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert!(s(&body["error"]).contains("from 1 to 2"), "{body}");

    let id = s(&second["id"]);
    for format in ["sanmill", "playok", "morris"] {
        let written = reqwest::get(server.url(&format!("/api/games/{id}/record?format={format}")))
            .await
            .unwrap();
        assert_eq!(written.status().as_u16(), 200, "{format}");
        let written = written.text().await.unwrap();
        let again = server
            .create(json!({"opponent": "local", "record": written}))
            .await;
        assert_eq!(
            again["game"]["moves"], second["game"]["moves"],
            "{format}: {written}"
        );
    }
    let bad = reqwest::get(server.url(&format!("/api/games/{id}/record?format=word")))
        .await
        .unwrap();
    assert_eq!(bad.status().as_u16(), 400);
    server.stop().await;
}

/// Each level of the computer comes with its estimated rating, rising with the level.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn levels_come_with_their_ratings() {
    let server = Server::in_memory().await;
    let (status, levels) = server.get("/api/levels").await;
    assert_eq!(status, 200, "{levels}");
    let levels = levels.as_array().unwrap();
    assert_eq!(levels.len(), 10);
    for (i, pair) in levels.windows(2).enumerate() {
        assert_eq!(pair[0]["level"], i + 1);
        assert!(
            pair[0]["rating"].as_u64() < pair[1]["rating"].as_u64(),
            "{pair:?}"
        );
    }
    server.stop().await;
}
