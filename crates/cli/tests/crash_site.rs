//! The crash test of the site: signed-in players paired through the lobby play clocked,
//! rated games while `morris serve` is killed with SIGKILL. Started again on the same
//! database, it has every acknowledged ply with its time and clock, and every acknowledged
//! rating change, counted once.

mod common;
#[path = "common/serve.rs"]
mod serve;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use serve::Serve;

/// A player: the session's cookie and CSRF token.
#[derive(Clone)]
struct Player {
    name: String,
    cookie: String,
    csrf: String,
}

async fn sign_up(client: &reqwest::Client, base: &str, name: &str) -> Player {
    let r = client
        .get(format!("{base}/api/session"))
        .send()
        .await
        .unwrap();
    let cookie = r.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_owned();
    let session: Value = r.json().await.unwrap();
    let csrf = session["csrf"].as_str().unwrap().to_owned();
    let r = client
        .post(format!("{base}/api/session/signup"))
        .header("cookie", &cookie)
        .header("x-morris-csrf", &csrf)
        .json(&json!({"name": name, "password": "crash test password"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 201);
    // Signing up renews the session: a new cookie and a new CSRF token.
    let cookie = r.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_owned();
    let session: Value = r.json().await.unwrap();
    let csrf = session["csrf"].as_str().unwrap().to_owned();
    Player {
        name: name.to_owned(),
        cookie,
        csrf,
    }
}

async fn post(
    client: &reqwest::Client,
    base: &str,
    p: &Player,
    path: &str,
    body: Value,
) -> Option<Value> {
    let r = client
        .post(format!("{base}{path}"))
        .header("cookie", &p.cookie)
        .header("x-morris-csrf", &p.csrf)
        .json(&body)
        .send()
        .await
        .ok()?;
    if !r.status().is_success() {
        return None;
    }
    r.json().await.ok()
}

/// Pairs two players through quick pairing; the game's id and the players as white, black.
async fn pair(
    client: &reqwest::Client,
    base: &str,
    a: &Player,
    b: &Player,
) -> (String, Player, Player) {
    let ws = base.replacen("http", "ws", 1);
    let mut sockets = Vec::new();
    for p in [a, b] {
        let mut request = format!("{ws}/api/lobby/ws").into_client_request().unwrap();
        request
            .headers_mut()
            .insert("cookie", p.cookie.parse().unwrap());
        let (mut socket, _) = tokio_tungstenite::connect_async(request).await.unwrap();
        // The first message says the lobby holds the player.
        socket.next().await.unwrap().unwrap();
        sockets.push(socket);
    }
    let waiting = post(client, base, a, "/api/lobby/quick", json!({"clock": "5+3"}))
        .await
        .unwrap();
    assert_eq!(waiting["game"], Value::Null);
    let game = post(client, base, b, "/api/lobby/quick", json!({"clock": "5+3"}))
        .await
        .unwrap();
    let id = game["game"].as_str().unwrap().to_owned();
    if game["color"] == "white" {
        (id, b.clone(), a.clone())
    } else {
        (id, a.clone(), b.clone())
    }
}

/// What the players were last told of a game.
#[derive(Default, Clone)]
struct Acked {
    moves: Vec<Value>,
    clock_plies: Vec<Value>,
    ratings: Value,
}

async fn play_on(
    client: reqwest::Client,
    base: String,
    game: (String, Player, Player),
    acked: Arc<Mutex<Acked>>,
    seed: u64,
) {
    let (id, white, black) = game;
    let mut rng = seed;
    let Ok(r) = client.get(format!("{base}/api/games/{id}")).send().await else {
        return;
    };
    let Ok(mut state) = r.json::<Value>().await else {
        return;
    };
    while state["status"] == "playing" {
        let legal = state["legal"].as_array().unwrap().clone();
        rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let ply = legal[((rng >> 33) as usize) % legal.len()].clone();
        let mover = if state["turn"] == "white" {
            &white
        } else {
            &black
        };
        let Some(after) = post(
            &client,
            &base,
            mover,
            &format!("/api/games/{id}/moves"),
            json!({"move": ply}),
        )
        .await
        else {
            return;
        };
        {
            let mut a = acked.lock().unwrap();
            a.moves = after["moves"].as_array().unwrap().clone();
            a.clock_plies = after["clock"]["plies"].as_array().unwrap().clone();
        }
        state = after;
        tokio::time::sleep(Duration::from_millis(3)).await;
    }
}

async fn get(client: &reqwest::Client, url: String) -> Value {
    client.get(url).send().await.unwrap().json().await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_loses_no_acknowledged_ply_clock_or_rating() {
    let dir = std::env::temp_dir().join(format!("morris-crash-site-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let db = dir.join("games.db");
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(20))
        .build()
        .unwrap();
    let server = Serve::start(&db);
    let base = server.base.clone();

    let mut players = Vec::new();
    for i in 0..10 {
        players.push(sign_up(&client, &base, &format!("crash{i}")).await);
    }
    // One rated game ends by resignation before the kill: its rating change is acknowledged.
    let (done, white, black) = pair(&client, &base, &players[0], &players[1]).await;
    // A game counts for the ratings from its fourth ply.
    for (mover, ply) in [
        (&white, "d6"),
        (&black, "f4"),
        (&white, "d2"),
        (&black, "b4"),
    ] {
        post(
            &client,
            &base,
            mover,
            &format!("/api/games/{done}/moves"),
            json!({"move": ply}),
        )
        .await
        .unwrap();
    }
    let over = post(
        &client,
        &base,
        &black,
        &format!("/api/games/{done}/resign"),
        json!({}),
    )
    .await
    .unwrap();
    assert!(
        over["ratings"]["white"]["after"].as_i64().unwrap() > 1500,
        "{over}"
    );
    let winner = white.name.clone();
    let finished = Acked {
        ratings: over["ratings"].clone(),
        ..Acked::default()
    };

    let mut games = Vec::new();
    for pairs in players[2..].chunks(2) {
        let game = pair(&client, &base, &pairs[0], &pairs[1]).await;
        games.push((game, Arc::new(Mutex::new(Acked::default()))));
    }
    let tasks: Vec<_> = games
        .iter()
        .enumerate()
        .map(|(i, (game, acked))| {
            tokio::spawn(play_on(
                client.clone(),
                base.clone(),
                game.clone(),
                acked.clone(),
                i as u64 + 7,
            ))
        })
        .collect();
    // The kill comes in the middle of the games, with requests in flight.
    tokio::time::sleep(Duration::from_millis(700)).await;
    server.kill();
    for t in tasks {
        t.await.unwrap();
    }

    let server = Serve::start(&db);
    let base = server.base.clone();
    let mut total = 0;
    for ((id, ..), acked) in &games {
        let acked = acked.lock().unwrap().clone();
        let game = get(&client, format!("{base}/api/games/{id}")).await;
        let moves = game["moves"].as_array().unwrap();
        assert!(
            moves.starts_with(&acked.moves),
            "game {id}: acknowledged {:?}, stored {moves:?}",
            acked.moves
        );
        assert!(
            moves.len() <= acked.moves.len() + 1,
            "at most the ply in flight is unacknowledged"
        );
        let plies = game["clock"]["plies"].as_array().unwrap();
        assert!(
            plies.starts_with(&acked.clock_plies),
            "game {id}: each acknowledged ply keeps its time and clock"
        );
        total += acked.moves.len();
    }
    assert!(total > 0, "plies were played before the kill");
    let game = get(&client, format!("{base}/api/games/{done}")).await;
    assert_eq!(
        game["ratings"], finished.ratings,
        "the acknowledged rating change is kept"
    );
    let page = get(&client, format!("{base}/api/players/{winner}")).await;
    assert_eq!(page["history"].as_array().unwrap().len(), 1, "counted once");
    assert_eq!(page["counts"]["wins"], 1);

    // The clocks run on: a game in play still takes a ply from the side to move.
    let ((id, white, black), _) = &games[0];
    let game = get(&client, format!("{base}/api/games/{id}")).await;
    if game["status"] == "playing" {
        let mover = if game["turn"] == "white" {
            white
        } else {
            black
        };
        let ply = game["legal"][0].clone();
        let after = post(
            &client,
            &base,
            mover,
            &format!("/api/games/{id}/moves"),
            json!({"move": ply}),
        )
        .await;
        assert!(after.is_some(), "play goes on after the restart");
    }
    drop(server);
    let _ = std::fs::remove_dir_all(dir);
}
