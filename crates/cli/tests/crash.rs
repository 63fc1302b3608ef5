//! The crash test of `morris serve`: games are played while the process is killed with
//! SIGKILL; started again on the same database, it has every acknowledged ply and play goes on.

mod common;
#[path = "common/serve.rs"]
mod serve;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

use serve::Serve;

struct Seats {
    id: String,
    white: String,
    black: String,
    /// The moves of the last acknowledged answer.
    acked: Vec<String>,
}

async fn create(client: &reqwest::Client, base: &str, body: Value) -> Seats {
    let r: Value = client
        .post(format!("{base}/api/games"))
        .json(&body)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let token = r["token"].as_str().unwrap().to_owned();
    Seats {
        id: r["id"].as_str().unwrap().to_owned(),
        black: r["invite"].as_str().map_or(token.clone(), str::to_owned),
        white: token,
        acked: Vec::new(),
    }
}

fn moves(game: &Value) -> Vec<String> {
    game["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_owned())
        .collect()
}

/// Plays random legal plies until a request fails (the server died) or the game ends.
async fn play_on(client: reqwest::Client, base: String, seats: Arc<Mutex<Seats>>, seed: u64) {
    let mut rng = seed;
    let (id, white, black) = {
        let s = seats.lock().unwrap();
        (s.id.clone(), s.white.clone(), s.black.clone())
    };
    let Ok(r) = client.get(format!("{base}/api/games/{id}")).send().await else {
        return;
    };
    let Ok(mut game) = r.json::<Value>().await else {
        return;
    };
    while game["status"] == "playing" {
        let legal = game["legal"].as_array().unwrap().clone();
        rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let ply = legal[((rng >> 33) as usize) % legal.len()].clone();
        let token = if game["turn"] == "white" {
            &white
        } else {
            &black
        };
        let sent = client
            .post(format!("{base}/api/games/{id}/moves"))
            .json(&json!({"move": ply, "token": token}))
            .send()
            .await;
        let Ok(r) = sent else { return };
        if r.status() != 200 {
            return;
        }
        let Ok(after) = r.json::<Value>().await else {
            return;
        };
        seats.lock().unwrap().acked = moves(&after);
        game = after;
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_loses_no_acknowledged_ply_and_games_carry_on() {
    let dir = std::env::temp_dir().join(format!("morris-crash-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let db = dir.join("games.db");
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(20))
        .build()
        .unwrap();

    let mut server = Serve::start(&db);
    let mut games = Vec::new();
    for i in 0..24 {
        let opponent = if i % 3 == 0 { "local" } else { "friend" };
        games.push(Arc::new(Mutex::new(
            create(&client, &server.base, json!({"opponent": opponent})).await,
        )));
    }
    for round in 0..3u64 {
        let players: Vec<_> = games
            .iter()
            .enumerate()
            .map(|(i, seats)| {
                tokio::spawn(play_on(
                    client.clone(),
                    server.base.clone(),
                    seats.clone(),
                    round * 100 + i as u64,
                ))
            })
            .collect();
        // Kill the server in the middle of the games, requests in flight.
        tokio::time::sleep(Duration::from_millis(400 + 300 * round)).await;
        server.kill();
        for p in players {
            p.await.unwrap();
        }
        server = Serve::start(&db);
        let mut total = 0;
        for seats in &games {
            let (id, acked) = {
                let s = seats.lock().unwrap();
                (s.id.clone(), s.acked.clone())
            };
            let game: Value = client
                .get(format!("{}/api/games/{id}", server.base))
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            let stored = moves(&game);
            assert!(
                stored.starts_with(&acked),
                "round {round}, game {id}: acknowledged {acked:?}, stored {stored:?}"
            );
            assert!(
                stored.len() <= acked.len() + 1,
                "at most the ply in flight is there unacknowledged"
            );
            seats.lock().unwrap().acked = stored;
            total += acked.len();
        }
        assert!(
            total > 0,
            "round {round}: plies were played before the kill"
        );
    }
    // Play goes on after the last restart.
    for (i, seats) in games.iter().enumerate() {
        let before = seats.lock().unwrap().acked.len();
        let (id, white, black) = {
            let s = seats.lock().unwrap();
            (s.id.clone(), s.white.clone(), s.black.clone())
        };
        let game: Value = client
            .get(format!("{}/api/games/{id}", server.base))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        if game["status"] != "playing" {
            continue;
        }
        let ply = game["legal"][i % game["legal"].as_array().unwrap().len()].clone();
        let token = if game["turn"] == "white" {
            &white
        } else {
            &black
        };
        let r = client
            .post(format!("{}/api/games/{id}/moves", server.base))
            .json(&json!({"move": ply, "token": token}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        let after: Value = r.json().await.unwrap();
        assert_eq!(moves(&after).len(), before + 1);
    }
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

async fn get_game(client: &reqwest::Client, base: &str, id: &str) -> Value {
    client
        .get(format!("{base}/api/games/{id}"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_moves_after_a_restart_when_it_was_thinking() {
    let dir = std::env::temp_dir().join(format!("morris-crash-computer-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let db = dir.join("games.db");
    let client = reqwest::Client::new();
    let server = Serve::start(&db);
    // Level 10 thinks for seconds: the kill comes while it thinks.
    let seats = create(
        &client,
        &server.base,
        json!({"opponent": "computer", "level": 10, "color": "white"}),
    )
    .await;
    let r = client
        .post(format!("{}/api/games/{}/moves", server.base, seats.id))
        .json(&json!({"move": "d6", "token": seats.white}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let after: Value = r.json().await.unwrap();
    assert_eq!(after["thinking"], true);
    server.kill();

    let server = Serve::start(&db);
    let game = get_game(&client, &server.base, &seats.id).await;
    assert_eq!(moves(&game), ["d6"], "the acknowledged ply is kept");
    let mut game = game;
    for _ in 0..100 {
        if game["thinking"] == false {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        game = get_game(&client, &server.base, &seats.id).await;
    }
    assert_eq!(game["thinking"], false, "the computer has answered: {game}");
    assert_eq!(moves(&game).len(), 2);
    assert_eq!(game["turn"], "white");
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_second_server_on_one_database_file_is_refused() {
    let dir = std::env::temp_dir().join(format!("morris-one-server-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let db = dir.join("games.db");
    let first = Serve::start(&db);
    let second = common::morris()
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert_eq!(second.status.code(), Some(2));
    let err = String::from_utf8_lossy(&second.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains("another morris server uses it"), "{err}");
    drop(first);
    let _ = std::fs::remove_dir_all(dir);
}
