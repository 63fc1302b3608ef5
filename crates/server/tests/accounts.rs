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
