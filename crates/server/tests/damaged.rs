//! A database file damaged under the running server (truncated, its side files too) is an
//! error the server reports, not a signal that kills it.

mod common;

use common::{Server, log, logged, temp_dir};
use morris_server::Limits;
use serde_json::json;

#[tokio::test]
async fn a_database_truncated_under_the_server_is_reported_and_the_server_lives_on() {
    log();
    let dir = temp_dir("truncated");
    let db = dir.join("games.db");
    let server = Server::start(&db, Limits::default()).await;
    let created = server.create(json!({"opponent": "local"})).await;
    let id = created["id"].as_str().unwrap().to_owned();
    let token = created["token"].as_str().unwrap().to_owned();
    assert_eq!(server.play(&id, &token, "d6").await.0, 200);
    assert!(
        !dir.join("games.db-shm").exists(),
        "no shared-memory file is mapped"
    );

    // Another program cuts every file of the database down to nothing.
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(0)
            .unwrap();
    }

    let (status, body) = server.play(&id, &token, "f4").await;
    assert_eq!(status, 500, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("unchanged"),
        "{body}"
    );
    let (status, game) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(status, 200, "the game in memory is still shown");
    assert_eq!(game["moves"], json!(["d6"]));
    let (status, _) = server.get("/api/variants").await;
    assert_eq!(status, 200, "the server lives on");
    assert!(logged("was truncated"), "the log says what happened");
    server.stop().await;
    std::fs::remove_dir_all(dir).unwrap();
}
