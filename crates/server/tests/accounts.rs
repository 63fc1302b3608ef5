//! Accounts on a real socket: the work a sign-in does is the same whether or not the name
//! exists.

mod common;

use std::path::Path;
use std::sync::Arc;

use common::Server;
use common::visitor::Visitor;
use morris_server::clock::ManualNow;
use morris_server::{Config, Limits};
use serde_json::json;

const T0: i64 = 1_800_000_000_000;

/// Limits for tests: a cheap password hash and no limit per address.
fn limits() -> Limits {
    Limits {
        password_cost: common::CHEAP_HASH,
        games_per_minute: 0,
        sign_ins_per_minute: 0,
        ..Limits::default()
    }
}

async fn server(db: &Path, now: &Arc<ManualNow>) -> Server {
    let mut config = Config::new("127.0.0.1:0".parse().unwrap(), db.to_owned());
    config.limits = limits();
    config.now = now.clone();
    Server::with_config(config).await
}

#[tokio::test]
async fn a_sign_in_checks_one_hash_whether_or_not_the_name_exists() {
    let now = Arc::new(ManualNow::new(T0));
    let server = server(Path::new(":memory:"), &now).await;
    let mut ann = Visitor::new(&server.base).await;
    ann.sign_up("ann", "correct horse battery").await;
    let mut v = Visitor::new(&server.base).await;
    let passwords = server.app.passwords.clone();
    for name in ["ann", "nobody"] {
        let body = json!({"name": name, "password": "wrong password"});
        let before = passwords.runs();
        let (status, answer) = v.post("/api/session/signin", body).await;
        assert_eq!(status, 403, "{answer}");
        assert_eq!(passwords.runs() - before, 1, "one argon2 run for {name}");
    }
    server.stop().await;
}

async fn session_of(server: &Server, cookie: &str) -> serde_json::Value {
    let r = reqwest::Client::new()
        .get(server.url("/api/session"))
        .header("cookie", cookie)
        .send()
        .await
        .unwrap();
    r.json().await.unwrap()
}

#[tokio::test]
async fn sign_up_sign_in_and_a_new_password_each_begin_a_new_session() {
    let now = Arc::new(ManualNow::new(T0));
    let server = server(Path::new(":memory:"), &now).await;
    // A session id planted in the browser before the victim signs up is worth nothing after.
    let mut v = Visitor::new(&server.base).await;
    let planted = v.cookie.clone().unwrap();
    let planted_csrf = v.csrf.clone();
    v.sign_up("ann", "correct horse battery").await;
    let after_sign_up = v.cookie.clone().unwrap();
    assert_ne!(after_sign_up, planted, "a new cookie at sign-up");
    assert_ne!(v.csrf, planted_csrf, "a new CSRF token at sign-up");
    assert_eq!(
        session_of(&server, &planted).await["name"],
        serde_json::Value::Null
    );
    assert_eq!(session_of(&server, &after_sign_up).await["name"], "ann");

    let mut w = Visitor::new(&server.base).await;
    let planted = w.cookie.clone().unwrap();
    let body = json!({"name": "ann", "password": "correct horse battery"});
    let (status, answer) = w.post("/api/session/signin", body).await;
    assert_eq!(status, 200, "{answer}");
    assert_ne!(
        w.cookie.clone().unwrap(),
        planted,
        "a new cookie at sign-in"
    );
    assert_eq!(
        session_of(&server, &planted).await["name"],
        serde_json::Value::Null
    );

    // A new password ends every session and begins one for the browser that asked.
    let before = w.cookie.clone().unwrap();
    let body = json!({"old": "correct horse battery", "new": "a new password"});
    let (status, answer) = w.post("/api/session/password", body).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["name"], "ann");
    assert_ne!(w.cookie.clone().unwrap(), before);
    assert_eq!(
        session_of(&server, &before).await["name"],
        serde_json::Value::Null
    );
    assert_eq!(
        session_of(&server, &after_sign_up).await["name"],
        serde_json::Value::Null
    );
    let (status, mine) = w.get("/api/session").await;
    assert_eq!((status, mine["name"].as_str()), (200, Some("ann")));
    server.stop().await;
}

#[tokio::test]
async fn sessions_expire_idle_and_old_and_can_be_listed_and_ended() {
    let now = Arc::new(ManualNow::new(T0));
    let server = server(Path::new(":memory:"), &now).await;
    let day = 24 * 3600 * 1000;
    let mut phone = Visitor::new(&server.base).await;
    phone.sign_up("ann", "correct horse battery").await;
    let mut desk = Visitor::new(&server.base).await;
    let body = json!({"name": "ann", "password": "correct horse battery"});
    assert_eq!(desk.post("/api/session/signin", body.clone()).await.0, 200);

    let (status, list) = desk.get("/api/session/list").await;
    assert_eq!(status, 200, "{list}");
    let sessions = list["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 2, "{list}");
    assert_eq!(list["idle"], 30 * 24 * 3600);
    let current: Vec<bool> = sessions.iter().map(|s| s["current"] == true).collect();
    assert_eq!(current.iter().filter(|c| **c).count(), 1, "{list}");
    let other = sessions.iter().find(|s| s["current"] == false).unwrap();
    let id = other["id"].as_str().unwrap().to_owned();
    assert_eq!(id.len(), 16);
    // Ending another's session needs the CSRF token; then the phone is signed out.
    let path = format!("/api/session/list/{id}");
    let (status, _) = desk
        .send(reqwest::Method::DELETE, &path, None, false, None)
        .await;
    assert_eq!(status, 403);
    assert_eq!(desk.delete(&path).await.0, 204);
    assert_eq!(desk.delete(&path).await.0, 404);
    let (_, phone_now) = phone.get("/api/session").await;
    assert_eq!(
        phone_now["name"],
        serde_json::Value::Null,
        "the phone is signed out"
    );
    // A guest has no list.
    assert_eq!(phone.get("/api/session/list").await.0, 403);

    // Used every 20 days, a session lives on; unused for 31 days it ends.
    for _ in 0..3 {
        now.advance(20 * day);
        let (_, me) = desk.get("/api/session").await;
        assert_eq!(me["name"], "ann", "used within the idle time");
    }
    let kept = desk.cookie.clone().unwrap();
    now.advance(31 * day);
    assert_eq!(
        session_of(&server, &kept).await["name"],
        serde_json::Value::Null
    );

    // However much it is used, a session ends after 180 days.
    let mut busy = Visitor::new(&server.base).await;
    assert_eq!(busy.post("/api/session/signin", body).await.0, 200);
    for _ in 0..9 {
        now.advance(20 * day);
        assert_eq!(busy.get("/api/session").await.1["name"], "ann");
    }
    now.advance(20 * day + 1000);
    assert_eq!(
        busy.get("/api/session").await.1["name"],
        serde_json::Value::Null
    );
    // The sweeper takes the expired rows out of the database.
    assert!(server.app.end_expired_sessions().await >= 1);
    server.stop().await;
}

#[tokio::test]
async fn a_secure_site_names_its_cookie_for_its_host_only() {
    let now = Arc::new(ManualNow::new(T0));
    let mut config = Config::new("127.0.0.1:0".parse().unwrap(), ":memory:".into());
    config.limits = limits();
    config.now = now.clone();
    config.secure_cookies = true;
    let server = Server::with_config(config).await;
    let v = Visitor::new(&server.base).await;
    let cookie = v.cookie.clone().unwrap();
    assert!(cookie.starts_with("__Host-morris_session="), "{cookie}");
    // A cookie without the prefix (planted from a sibling host) is not read.
    let planted = cookie.replacen("__Host-", "", 1);
    let fresh = session_of(&server, &planted).await;
    assert_ne!(fresh["player"], v.player, "{fresh}");
    server.stop().await;
}

#[tokio::test]
async fn a_guest_who_signs_in_during_a_game_keeps_the_seat() {
    let now = Arc::new(ManualNow::new(T0));
    let server = server(Path::new(":memory:"), &now).await;
    let mut owner = Visitor::new(&server.base).await;
    owner.sign_up("ann", "correct horse battery").await;
    let mut guest = Visitor::new(&server.base).await;
    let body = json!({"opponent": "computer", "level": 1, "color": "white"});
    let (status, created) = guest.post("/api/games", body).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_owned();
    let game = format!("/api/games/{id}");
    let body = json!({"name": "ann", "password": "correct horse battery"});
    assert_eq!(guest.post("/api/session/signin", body).await.0, 200);
    let (_, view) = guest.get(&game).await;
    assert_eq!(view["you"], "white", "{view}");
    let (status, played) = guest
        .post(&format!("{game}/moves"), json!({"move": "d6"}))
        .await;
    assert_eq!(status, 200, "{played}");
    let (_, mine) = guest.get("/api/session/games").await;
    assert!(
        mine.as_array()
            .unwrap()
            .iter()
            .any(|g| g["id"] == id.as_str()),
        "{mine}"
    );
    server.stop().await;
}

#[tokio::test]
async fn wrong_passwords_make_an_account_wait_but_not_its_owners_network() {
    let now = Arc::new(ManualNow::new(T0));
    let server = server(Path::new(":memory:"), &now).await;
    let mut owner = Visitor::new(&server.base).await;
    owner.sign_up("ann", "correct horse battery").await;
    // Guessing from six other addresses: five wrong passwords are checked, then the account
    // makes every address but its owner's wait.
    let wrong = json!({"name": "ann", "password": "wrong password"});
    let mut statuses = Vec::new();
    for n in 2..8u8 {
        let mut guesser = Visitor::from_address(&server.base, [127, 0, 0, n].into()).await;
        statuses.push(guesser.post("/api/session/signin", wrong.clone()).await.0);
    }
    assert_eq!(statuses, [403, 403, 403, 403, 403, 429]);
    let mut guesser = Visitor::from_address(&server.base, [127, 0, 0, 9].into()).await;
    let right = json!({"name": "ann", "password": "correct horse battery"});
    let (status, answer) = guesser.post("/api/session/signin", right.clone()).await;
    assert_eq!(status, 429, "{answer}");
    assert!(
        answer["error"].as_str().unwrap().contains("wait"),
        "{answer}"
    );
    // The owner, from where they signed up, is let in.
    let mut again = Visitor::new(&server.base).await;
    assert_eq!(
        again.post("/api/session/signin", right.clone()).await.0,
        200
    );
    // The wait passes.
    now.advance(3_000);
    assert_eq!(guesser.post("/api/session/signin", right).await.0, 200);
    server.stop().await;
}

#[tokio::test]
async fn names_that_speak_for_the_site_or_look_like_others_and_weak_passwords_are_refused() {
    let now = Arc::new(ManualNow::new(T0));
    let server = server(Path::new(":memory:"), &now).await;
    let mut alice = Visitor::new(&server.base).await;
    alice.sign_up("alice", "correct horse battery").await;
    let mut v = Visitor::new(&server.base).await;
    for (name, status) in [
        ("admin", 400),
        ("Administrator", 400),
        ("Computer", 400),
        ("morris", 400),
        ("aIice", 409),
        ("al1ce", 409),
        ("ALICE", 409),
    ] {
        let body = json!({"name": name, "password": "correct horse battery"});
        let (got, answer) = v.post("/api/session/signup", body).await;
        assert_eq!(got, status, "{name}: {answer}");
    }
    for weak in ["password", "        ", "12345678", "bob12345"] {
        let body = json!({"name": "bob", "password": weak});
        let (got, answer) = v.post("/api/session/signup", body).await;
        assert_eq!(got, 400, "{weak:?}: {answer}");
        assert!(
            answer["error"].as_str().unwrap().contains("common"),
            "{answer}"
        );
    }
    // A name typed for a game may be neither the site's nor another player's.
    for name in ["Computer", "\u{202e}retupmoC", "alice", "AL1CE"] {
        let body = json!({"opponent": "friend", "name": name});
        let (got, answer) = v.post("/api/games", body).await;
        assert_eq!(got, 400, "{name}: {answer}");
    }
    let body = json!({"opponent": "friend", "name": "alice"});
    assert_eq!(alice.post("/api/games", body).await.0, 201, "her own name");
    server.stop().await;
}

#[tokio::test]
async fn past_its_cap_the_database_takes_no_new_visitor_nor_game() {
    let now = Arc::new(ManualNow::new(T0));
    let mut config = Config::new("127.0.0.1:0".parse().unwrap(), ":memory:".into());
    config.limits = Limits {
        max_storage: 1,
        ..limits()
    };
    config.now = now.clone();
    let server = Server::with_config(config).await;
    let r = reqwest::get(server.url("/api/session")).await.unwrap();
    assert_eq!(r.status().as_u16(), 507);
    let answer: serde_json::Value = r.json().await.unwrap();
    assert!(
        answer["error"].as_str().unwrap().contains("full"),
        "{answer}"
    );
    server.stop().await;
}
