//! Hints and analyses that anyone may ask for are bounded: a flood of them is refused with a
//! JSON message instead of queueing engines, and the computer's own plies go ahead of them.

mod common;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use common::{Server, game_at};
use morris_server::Config;
use serde_json::{Value, json};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_hints_is_refused_and_the_computer_still_replies_at_once() {
    let mut config = Config::new("127.0.0.1:0".parse().unwrap(), PathBuf::from(":memory:"));
    config.engine_threads = Some(1);
    config.limits.games_per_minute = 0;
    let server = Server::with_config(config).await;
    let watched = server.create(json!({"opponent": "local"})).await;
    let watched_id = watched["id"].as_str().unwrap().to_owned();
    let game = server
        .create(json!({"opponent": "computer", "level": 1}))
        .await;
    let id = game["id"].as_str().unwrap().to_owned();
    let token = game["token"].as_str().unwrap().to_owned();
    let mut socket = server.watch(&id).await;

    // Forty hints at once from one address: each would hold an engine for half a second.
    let hints: Vec<_> = (0..40)
        .map(|_| {
            let url = server.url(&format!("/api/games/{watched_id}/hint"));
            tokio::spawn(async move {
                let r = reqwest::get(url).await.unwrap();
                let status = r.status().as_u16();
                (status, r.json::<Value>().await.unwrap_or(Value::Null))
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let asked = Instant::now();
    let (status, after) = server.play(&id, &token, "d6").await;
    assert_eq!(status, 200, "{after}");
    let replied = game_at(&mut socket, 3).await;
    let reply_time = asked.elapsed();
    assert_eq!(replied["moves"].as_array().unwrap().len(), 2);

    let mut answered = 0;
    let mut refused = 0;
    for hint in hints {
        let (status, body) = hint.await.unwrap();
        match status {
            200 => answered += 1,
            429 | 503 => {
                refused += 1;
                assert!(
                    body["error"].as_str().is_some_and(|m| !m.is_empty()),
                    "{body}"
                );
            }
            other => panic!("unexpected status {other}: {body}"),
        }
    }
    assert!(answered >= 1, "some hints are answered");
    assert!(
        refused >= 30,
        "a flood is refused, not queued: {refused} refused"
    );
    assert!(
        reply_time < Duration::from_secs(3),
        "the computer's reply waits for at most the search running: {reply_time:?}"
    );
    assert!(
        server.app.computer.engines_made() <= 1,
        "engines are reused"
    );
    server.stop().await;
}
