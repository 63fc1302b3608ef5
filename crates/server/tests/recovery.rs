//! The computer keeps playing through a database that refuses its commits for a while, and
//! after a restart it resumes every waiting game that can be read.

mod common;

use std::time::Duration;

use common::{Server, game_at, next_game, temp_dir};
use morris_server::{Limits, Retry};
use serde_json::json;

fn limits() -> Limits {
    Limits {
        retry: Retry {
            tries: 40,
            first: Duration::from_millis(50),
            longest: Duration::from_millis(500),
        },
        ..Limits::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_plays_on_after_the_database_was_locked_for_seven_seconds() {
    let dir = temp_dir("locked");
    let db = dir.join("games.db");
    let server = Server::start(&db, limits()).await;
    // A level that thinks for a while, so that the lock below is taken before its commit.
    let created = server
        .create(json!({"opponent": "computer", "level": 8}))
        .await;
    let id = created["id"].as_str().unwrap().to_owned();
    let token = created["token"].as_str().unwrap().to_owned();
    let mut socket = server.watch(&id).await;
    next_game(&mut socket).await;

    let (status, after) = server.play(&id, &token, "d6").await;
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["thinking"], true);
    // Another program takes the write lock of the same file and keeps it for 7 seconds:
    // longer than the server's busy wait, so the commit of the computer's reply fails.
    let (locked, is_locked) = tokio::sync::oneshot::channel();
    let holder = std::thread::spawn({
        let db = db.clone();
        move || {
            let conn = rusqlite::Connection::open(&db).unwrap();
            conn.execute_batch("BEGIN IMMEDIATE").unwrap();
            locked.send(()).unwrap();
            std::thread::sleep(Duration::from_secs(7));
            conn.execute_batch("COMMIT").unwrap();
        }
    });
    is_locked.await.unwrap();
    let (_, during) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(
        during["version"], 2,
        "the reply is not kept while the lock is held"
    );
    // The game goes on by itself once the lock is gone.
    let replied = game_at(&mut socket, 3).await;
    assert_eq!(replied["moves"].as_array().unwrap().len(), 2, "{replied}");
    assert_eq!(replied["thinking"], false);
    holder.join().unwrap();
    let legal = replied["legal"].as_array().unwrap()[0]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, next) = server.play(&id, &token, &legal).await;
    assert_eq!(status, 200, "{next}");
    server.stop().await;

    // What was shown is what was kept.
    let server = Server::start(&db, limits()).await;
    let (_, kept) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(
        kept["moves"].as_array().unwrap()[..3],
        next["moves"].as_array().unwrap()[..3]
    );
    server.stop().await;
    std::fs::remove_dir_all(dir).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_whose_commit_tries_ran_out_is_started_again() {
    let dir = temp_dir("ran-out");
    let db = dir.join("games.db");
    // One try only: the commit fails once and the search is over; the sweep finds the game.
    let limits = Limits {
        retry: Retry {
            tries: 1,
            ..Retry::default()
        },
        sweep: Duration::from_millis(200),
        ..Limits::default()
    };
    let server = Server::start(&db, limits).await;
    let created = server
        .create(json!({"opponent": "computer", "level": 8}))
        .await;
    let id = created["id"].as_str().unwrap().to_owned();
    let token = created["token"].as_str().unwrap().to_owned();
    let mut socket = server.watch(&id).await;
    next_game(&mut socket).await;
    assert_eq!(server.play(&id, &token, "d6").await.0, 200);
    let (locked, is_locked) = tokio::sync::oneshot::channel();
    let holder = std::thread::spawn({
        let db = db.clone();
        move || {
            let conn = rusqlite::Connection::open(&db).unwrap();
            conn.execute_batch("BEGIN IMMEDIATE").unwrap();
            locked.send(()).unwrap();
            std::thread::sleep(Duration::from_secs(6));
            conn.execute_batch("COMMIT").unwrap();
        }
    });
    is_locked.await.unwrap();
    let replied = game_at(&mut socket, 3).await;
    assert_eq!(replied["moves"].as_array().unwrap().len(), 2, "{replied}");
    holder.join().unwrap();
    server.stop().await;
    std::fs::remove_dir_all(dir).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_unreadable_game_does_not_stop_the_others_from_resuming() {
    let dir = temp_dir("unreadable");
    let db = dir.join("games.db");
    let server = Server::start(&db, Limits::default()).await;
    let broken = server.create(json!({"opponent": "friend"})).await;
    let waiting = server.create(json!({"opponent": "friend"})).await;
    server.stop().await;
    // Both become games in which the computer (white) is to move; the first one's plies are
    // garbage, and it comes first in the list of waiting games.
    {
        let conn = rusqlite::Connection::open(&db).unwrap();
        for game in [&broken, &waiting] {
            conn.execute(
                "UPDATE games SET opponent = 'computer', white_level = 1, white_token = NULL,
                     white_name = NULL, computer_to_move = 1 WHERE id = ?1",
                [game["id"].as_str().unwrap()],
            )
            .unwrap();
        }
        conn.execute(
            "INSERT INTO plies (game, n, ply) VALUES (?1, 0, 'd6'), (?1, 1, 'zz9')",
            [broken["id"].as_str().unwrap()],
        )
        .unwrap();
        conn.execute(
            "UPDATE games SET ply_count = 2 WHERE id = ?1",
            [broken["id"].as_str().unwrap()],
        )
        .unwrap();
    }
    let server = Server::start(&db, Limits::default()).await;
    let id = waiting["id"].as_str().unwrap();
    let mut socket = server.watch(id).await;
    let resumed = game_at(&mut socket, 2).await;
    assert_eq!(resumed["moves"].as_array().unwrap().len(), 1, "{resumed}");
    let (status, body) = server
        .get(&format!("/api/games/{}", broken["id"].as_str().unwrap()))
        .await;
    assert_eq!(status, 500, "{body}");
    server.stop().await;
    std::fs::remove_dir_all(dir).unwrap();
}
