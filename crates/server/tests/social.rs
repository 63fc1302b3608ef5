//! Blocks, reports and leaderboards on a real socket and a real SQLite file: a blocked
//! player cannot challenge, be paired or chat, and their lines are hidden; reports are kept
//! and bounded; the leaderboard lists established ratings only.

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

const T0: i64 = 1_800_000_000_000;

async fn server(db: &Path, now: &Arc<ManualNow>) -> Server {
    let mut config = Config::new("127.0.0.1:0".parse().unwrap(), db.to_owned());
    config.limits = Limits {
        password_cost: common::CHEAP_HASH,
        games_per_minute: 0,
        clock_sweep: Duration::from_secs(3600),
        ..Limits::default()
    };
    config.now = now.clone();
    Server::with_config(config).await
}

async fn player(server: &Server, name: &str) -> (Visitor, Socket) {
    let mut v = Visitor::new(&server.base).await;
    v.sign_up(name, "correct horse battery").await;
    let mut page = v.socket("/api/notify/ws").await;
    let hello = tokio::time::timeout(Duration::from_secs(30), page.next())
        .await
        .unwrap();
    assert!(hello.is_some());
    (v, page)
}

#[tokio::test]
async fn a_blocked_player_cannot_challenge_be_paired_or_chat_and_their_lines_are_hidden() {
    let now = Arc::new(ManualNow::new(T0));
    let server = server(Path::new(":memory:"), &now).await;
    let (mut ann, _ann_page) = player(&server, "ann").await;
    let (mut kim, _kim_page) = player(&server, "kim").await;

    // A game is under way when Ann blocks Kim; Kim said something in it before.
    let (_, made) = ann
        .post(
            "/api/lobby/challenges",
            json!({"to": "kim", "clock": "5+3", "color": "white"}),
        )
        .await;
    let id = made["id"].as_u64().unwrap();
    let (_, game) = kim
        .post(&format!("/api/lobby/challenges/{id}/accept"), json!({}))
        .await;
    let chat = format!("/api/games/{}/chat", game["game"].as_str().unwrap());
    assert_eq!(kim.post(&chat, json!({"text": "hello"})).await.0, 201);
    assert_eq!(ann.post(&chat, json!({"text": "hi"})).await.0, 201);

    assert_eq!(ann.post("/api/players/kim/block", json!({})).await.0, 204);
    assert_eq!(
        ann.post("/api/players/kim/block", json!({})).await.0,
        204,
        "twice is once"
    );
    assert_eq!(ann.get("/api/session/blocks").await.1, json!(["kim"]));
    assert_eq!(ann.post("/api/players/ann/block", json!({})).await.0, 409);
    assert_eq!(
        ann.post("/api/players/nobody/block", json!({})).await.0,
        404
    );
    let mut guest = Visitor::new(&server.base).await;
    assert_eq!(guest.post("/api/players/kim/block", json!({})).await.0, 403);

    // No chat either way; Ann no longer sees Kim's line, Kim keeps her own.
    let (status, refused) = kim.post(&chat, json!({"text": "again"})).await;
    assert_eq!(status, 403, "{refused}");
    assert_eq!(ann.post(&chat, json!({"text": "bye"})).await.0, 403);
    let texts = |lines: &Value| -> Vec<String> {
        lines
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["text"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(texts(&ann.get(&chat).await.1), ["hi"]);
    assert_eq!(texts(&kim.get(&chat).await.1), ["hello"]);
    assert_eq!(
        texts(&server.get(&chat).await.1),
        ["hello", "hi"],
        "a spectator sees both"
    );

    // No challenge either way, and no acceptance of an open one.
    let (status, refused) = kim
        .post(
            "/api/lobby/challenges",
            json!({"to": "ann", "clock": "5+3"}),
        )
        .await;
    assert_eq!(status, 403, "{refused}");
    assert_eq!(
        ann.post("/api/lobby/challenges", json!({"to": "kim"}))
            .await
            .0,
        403
    );
    let (_, open) = ann
        .post("/api/lobby/challenges", json!({"clock": "5+3"}))
        .await;
    let open = open["id"].as_u64().unwrap();
    let accept = format!("/api/lobby/challenges/{open}/accept");
    assert_eq!(kim.post(&accept, json!({})).await.0, 403);

    // Quick pairing passes them by.
    let (_, waiting) = ann.post("/api/lobby/quick", json!({"clock": "3+2"})).await;
    assert_eq!(waiting["game"], Value::Null);
    let (_, waiting) = kim.post("/api/lobby/quick", json!({"clock": "3+2"})).await;
    assert_eq!(
        waiting["game"],
        Value::Null,
        "not paired with the player who blocks her"
    );

    // Unblocked, they meet again.
    assert_eq!(ann.delete("/api/players/kim/block").await.0, 204);
    assert_eq!(ann.get("/api/session/blocks").await.1, json!([]));
    assert_eq!(kim.post(&accept, json!({})).await.0, 201);
    server.stop().await;
}

#[tokio::test]
async fn reports_are_kept_with_their_reason_and_bounded_per_day() {
    let dir = common::temp_dir("social-reports");
    let db = dir.join("games.db");
    let now = Arc::new(ManualNow::new(T0));
    let server = server(&db, &now).await;
    let (mut ann, _page) = player(&server, "ann").await;
    let (_kim, _kim_page) = player(&server, "kim").await;
    let report = "/api/players/kim/report";
    assert_eq!(ann.post(report, json!({"reason": "  "})).await.0, 400);
    assert_eq!(
        ann.post(report, json!({"reason": "x".repeat(501)})).await.0,
        400
    );
    assert_eq!(
        ann.post(report, json!({"reason": "ok", "game": "../x"}))
            .await
            .0,
        404
    );
    assert_eq!(
        ann.post(report, json!({"reason": "ok", "extra": 1}))
            .await
            .0,
        400
    );
    for i in 0..20 {
        let (status, body) = ann
            .post(
                report,
                json!({"reason": format!("insults in chat {i}\u{202e}")}),
            )
            .await;
        assert_eq!(status, 201, "{body}");
    }
    assert_eq!(ann.post(report, json!({"reason": "one more"})).await.0, 429);
    server.stop().await;
    let conn = rusqlite::Connection::open(&db).unwrap();
    let (count, first): (i64, String) = conn
        .query_row(
            "SELECT count(*), min(reason) FROM reports r JOIN players p ON p.id = r.reported
             WHERE p.name = 'kim'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(count, 20);
    assert_eq!(first, "insults in chat 0", "hidden characters left out");
}

#[tokio::test]
async fn the_leaderboard_lists_established_ratings_best_first() {
    let dir = common::temp_dir("social-leaders");
    let db = dir.join("games.db");
    {
        let now = Arc::new(ManualNow::new(T0));
        let server = server(&db, &now).await;
        for name in ["ann", "kim", "eve"] {
            let mut v = Visitor::new(&server.base).await;
            v.sign_up(name, "correct horse battery").await;
        }
        server.stop().await;
    }
    // Ratings as rated games leave them: two established, one provisional.
    let conn = rusqlite::Connection::open(&db).unwrap();
    for (name, rating, deviation) in [
        ("ann", 1720.4, 80.0),
        ("kim", 1810.6, 95.0),
        ("eve", 2400.0, 300.0),
    ] {
        conn.execute(
            "INSERT INTO ratings (player, variant, class, rating, deviation, volatility, games)
             SELECT id, 'nine', 'blitz', ?2, ?3, 0.06, 30 FROM players WHERE name = ?1",
            rusqlite::params![name, rating, deviation],
        )
        .unwrap();
    }
    drop(conn);
    let now = Arc::new(ManualNow::new(T0));
    let server = server(&db, &now).await;
    let (status, leaders) = server
        .get("/api/leaderboard?variant=nine&class=blitz")
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        leaders,
        json!([{"name": "kim", "rating": 1811, "games": 30}, {"name": "ann", "rating": 1720, "games": 30}])
    );
    assert_eq!(
        server.get("/api/leaderboard").await.1,
        leaders,
        "nine and blitz by default"
    );
    assert_eq!(
        server.get("/api/leaderboard?class=bullet").await.1,
        json!([])
    );
    assert_eq!(server.get("/api/leaderboard?class=slow").await.0, 400);
    server.stop().await;
}

#[tokio::test]
async fn a_player_follows_others_and_sees_them_online_and_playing_and_finds_players_by_name() {
    let now = Arc::new(ManualNow::new(T0));
    let server = server(Path::new(":memory:"), &now).await;
    let (mut ann, _ann_page) = player(&server, "ann").await;
    let (mut kim, kim_page) = player(&server, "kim").await;
    let mut kit = Visitor::new(&server.base).await;
    kit.sign_up("Kit_1", "correct horse battery").await;

    assert_eq!(ann.post("/api/players/kim/follow", json!({})).await.0, 204);
    assert_eq!(
        ann.post("/api/players/Kit_1/follow", json!({})).await.0,
        204
    );
    assert_eq!(ann.post("/api/players/ann/follow", json!({})).await.0, 409);
    let (_, list) = ann.get("/api/session/following").await;
    assert_eq!(
        list,
        json!([
            {"name": "kim", "online": true, "playing": null},
            {"name": "Kit_1", "online": false, "playing": null}
        ]),
        "online first"
    );
    let (_, page) = ann.get("/api/players/kim").await;
    assert_eq!(
        (page["online"].clone(), page["playing"].clone()),
        (json!(true), Value::Null)
    );

    // Kim plays Ann: the list says which game.
    let (_, made) = kim
        .post(
            "/api/lobby/challenges",
            json!({"to": "ann", "clock": "5+3"}),
        )
        .await;
    let id = made["id"].as_u64().unwrap();
    let (_, game) = ann
        .post(&format!("/api/lobby/challenges/{id}/accept"), json!({}))
        .await;
    let (_, list) = ann.get("/api/session/following").await;
    assert_eq!(list[0]["playing"], game["game"]);

    // Who is online: the players with a page open.
    let (_, online) = server.get("/api/online").await;
    assert_eq!(online, json!({"players": 2, "names": ["ann", "kim"]}));
    drop(kim_page);
    let mut gone = false;
    for _ in 0..200 {
        if server.get("/api/online").await.1["players"] == 1 {
            gone = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(gone, "Kim left the site");
    let (_, list) = ann.get("/api/session/following").await;
    assert_eq!(
        (list[0]["name"].clone(), list[0]["online"].clone()),
        (json!("kim"), json!(false))
    );

    // Names found by their beginning, any case; LIKE's wildcards are plain characters.
    assert_eq!(
        server.get("/api/players?q=KI").await.1,
        json!(["kim", "Kit_1"])
    );
    assert_eq!(server.get("/api/players?q=kit_").await.1, json!(["Kit_1"]));
    assert_eq!(server.get("/api/players?q=k_").await.1, json!([]));
    assert_eq!(server.get("/api/players?q=%25").await.1, json!([]));
    assert_eq!(server.get("/api/players?q=").await.0, 400);
    assert_eq!(server.get("/api/players").await.0, 400);
    assert_eq!(ann.delete("/api/players/kim/follow").await.0, 204);
    assert_eq!(
        ann.get("/api/session/following")
            .await
            .1
            .as_array()
            .unwrap()
            .len(),
        1
    );
    server.stop().await;
}
