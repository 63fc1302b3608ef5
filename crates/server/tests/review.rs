//! The review of a game and the check of a position set up by hand, through the HTTP API.

mod common;

use common::{Server, strings};
use serde_json::{Value, json};

fn s(v: &Value) -> String {
    v.as_str().unwrap_or_default().to_owned()
}

/// A game imported from a record is reviewed ply by ply: a score for every position, a score
/// kept by every ply, and the best ply keeps the score of the position.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_imported_game_is_reviewed_ply_by_ply() {
    let server = Server::in_memory().await;
    let created = server
        .create(json!({"opponent": "local", "record": "1. d6 f4 2. d2 b4 3. f6 d7"}))
        .await;
    let id = s(&created["id"]);
    let (status, review) = server
        .post(&format!("/api/games/{id}/review"), json!({"ms": 30}))
        .await;
    assert_eq!(status, 200, "{review}");
    let positions = review["positions"].as_array().unwrap();
    let plies = review["plies"].as_array().unwrap();
    assert_eq!(positions.len(), 7);
    assert_eq!(plies.len(), 6);
    assert_eq!(review["total"], 6);
    assert_eq!(
        strings(&json!(
            plies.iter().map(|p| p["move"].clone()).collect::<Vec<_>>()
        )),
        ["d6", "f4", "d2", "b4", "f6", "d7"]
    );
    assert_eq!(plies[1]["side"], "black");
    assert_eq!(positions[0]["turn"], "white");
    for (i, p) in positions.iter().enumerate() {
        assert_eq!(p["source"], "engine");
        assert!(p["score"]["kind"].is_string(), "{p}");
        assert_eq!(p["line"][0], p["best"], "position {i}");
        if let Some(ply) = plies.get(i) {
            let grades = ["best", "good", "inaccuracy", "mistake", "blunder"];
            assert!(grades.contains(&s(&ply["grade"]).as_str()), "{ply}");
            if ply["move"] == p["best"] {
                assert_eq!(ply["score"], p["score"]);
                assert_eq!(ply["grade"], "best");
            }
        }
    }
    // Bad input is refused with a reason; an unknown game is 404.
    let (status, body) = server
        .post(&format!("/api/games/{id}/review"), json!({"ms": 9000}))
        .await;
    assert_eq!(status, 400);
    assert!(s(&body["error"]).contains("from 20 to 500"), "{body}");
    let (status, _) = server
        .post("/api/games/nosuchgame1234/review", json!({}))
        .await;
    assert_eq!(status, 404);
    // A friend game is reviewed only once it is over.
    let friend = server.create(json!({"opponent": "friend"})).await;
    let (status, _) = server
        .post(
            &format!("/api/games/{}/review", s(&friend["id"])),
            json!({}),
        )
        .await;
    assert_eq!(status, 409);
    server.stop().await;
}

/// Where the tablebase holds the positions, the review is exact.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_review_is_exact_where_the_tablebase_holds_the_position() {
    let dir = common::temp_dir("review-tablebase");
    let tablebase = std::sync::Arc::new(morris_tablebase::EngineTables::open(&dir).unwrap());
    let mut config = morris_server::Config::new(
        "127.0.0.1:0".parse().unwrap(),
        std::path::PathBuf::from(":memory:"),
    );
    config.tablebase = Some(tablebase);
    let server = Server::with_config(config).await;
    let created = server
        .create(json!({"opponent": "local",
                       "position": "W../.W./W../....../..B/..B/..B w 0 0 0 20"}))
        .await;
    let id = s(&created["id"]);
    let token = s(&created["token"]);
    let legal = strings(&created["game"]["legal"]);
    let (status, game) = server.play(&id, &token, &legal[0]).await;
    assert_eq!(status, 200, "{game}");
    let (status, review) = server
        .post(&format!("/api/games/{id}/review"), json!({}))
        .await;
    assert_eq!(status, 200, "{review}");
    assert_eq!(review["positions"][0]["source"], "tablebase", "{review}");
    assert_eq!(review["positions"][0]["depth"], 0);
    assert_eq!(review["plies"][0]["source"], "tablebase");
    assert!(
        !review["positions"][0]["line"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    server.stop().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// A position set up by hand is written back when it is good, and each of its problems is
/// named by a code when it is not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn positions_are_checked_with_every_problem_named() {
    let server = Server::in_memory().await;
    let (status, body) = server
        .post(
            "/api/positions/check",
            json!({"variant": "nine", "position": ".../.W./.../....B./.../.../... w 8 8 0 2"}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["valid"], true);
    assert_eq!(body["turn"], "white");
    let (status, body) = server
        .post(
            "/api/positions/check",
            json!({"variant": "six", "position": "WWW/WWW/WBBB/BBB/BBB b 0 0 0 1"}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["valid"], false);
    let kinds: Vec<&str> = body["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["problem"].as_str().unwrap())
        .collect();
    assert!(kinds.contains(&"too_many_pieces"), "{body}");
    let (status, body) = server
        .post(
            "/api/positions/check",
            json!({"variant": "ten", "position": "x"}),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    let (status, _) = server
        .post(
            "/api/positions/check",
            json!({"position": "W".repeat(1000)}),
        )
        .await;
    assert_eq!(status, 400);
    server.stop().await;
}
