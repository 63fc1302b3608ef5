//! `morris admin` on the database of a running `morris serve`: a moderator made from the
//! command line reads the reports, mutes a player's chat and closes an account through the
//! site, and every action is in the log, which the command line reads too.

mod common;
#[path = "common/serve.rs"]
mod serve;

use serde_json::{Value, json};

use serve::Serve;

/// A visitor of the site: its cookie and CSRF token.
struct Visitor {
    base: String,
    client: reqwest::Client,
    cookie: String,
    csrf: String,
}

impl Visitor {
    async fn new(base: &str) -> Visitor {
        let client = reqwest::Client::new();
        let mut v = Visitor {
            base: base.to_owned(),
            client,
            cookie: String::new(),
            csrf: String::new(),
        };
        v.send(reqwest::Method::GET, "/api/session", None).await;
        v
    }

    async fn send(
        &mut self,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
    ) -> (u16, Value) {
        let mut r = self
            .client
            .request(method, format!("{}{path}", self.base))
            .header("cookie", &self.cookie)
            .header("x-morris-csrf", &self.csrf);
        if let Some(b) = body {
            r = r.json(&b);
        }
        let answer = r.send().await.unwrap();
        let status = answer.status().as_u16();
        if let Some(c) = answer.headers().get("set-cookie") {
            self.cookie = c.to_str().unwrap().split(';').next().unwrap().to_owned();
        }
        let text = answer.text().await.unwrap();
        let value: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        if let Some(csrf) = value.get("csrf").and_then(Value::as_str) {
            self.csrf = csrf.to_owned();
        }
        (status, value)
    }

    async fn post(&mut self, path: &str, body: Value) -> (u16, Value) {
        self.send(reqwest::Method::POST, path, Some(body)).await
    }

    async fn get(&mut self, path: &str) -> (u16, Value) {
        self.send(reqwest::Method::GET, path, None).await
    }

    async fn sign_up(&mut self, name: &str) {
        let body = json!({"name": name, "password": "correct horse battery"});
        let (status, answer) = self.post("/api/session/signup", body).await;
        assert_eq!(status, 201, "{answer}");
    }
}

fn admin(db: &std::path::Path, args: &[&str]) -> std::process::Output {
    common::morris()
        .arg("admin")
        .arg("--db")
        .arg(db)
        .args(args)
        .output()
        .unwrap()
}

fn text(out: &std::process::Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

#[tokio::test]
async fn a_moderator_made_on_the_command_line_reads_reports_mutes_and_closes_and_all_is_logged() {
    let dir = std::env::temp_dir().join(format!("morris-admin-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("site.db");
    let server = Serve::start(&db);
    let mut ann = Visitor::new(&server.base).await;
    ann.sign_up("ann").await;
    let mut kim = Visitor::new(&server.base).await;
    kim.sign_up("kim").await;
    let mut max = Visitor::new(&server.base).await;
    max.sign_up("max").await;
    let (status, _) = ann
        .post(
            "/api/players/kim/report",
            json!({"reason": "insults\tin chat"}),
        )
        .await;
    assert_eq!(status, 201);

    // Not a moderator yet.
    assert_eq!(max.get("/api/mod/reports").await.0, 403);
    assert_eq!(max.get("/api/session").await.1["moderator"], false);
    let out = admin(&db, &["moderator", "max"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(text(&out), "max is now a moderator\n");
    let out = admin(&db, &["moderator", "nobody"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: there is no account nobody\n"
    );
    assert_eq!(max.get("/api/session").await.1["moderator"], true);

    // The moderator reads the report, and so does the command line.
    let (status, reports) = max.get("/api/mod/reports").await;
    assert_eq!(status, 200, "{reports}");
    assert_eq!(reports[0]["reporter"], "ann");
    assert_eq!(reports[0]["reported"], "kim");
    let id = reports[0]["id"].as_i64().unwrap();
    let listed = text(&admin(&db, &["reports"]));
    let fields: Vec<&str> = listed.trim_end().split('\t').collect();
    assert_eq!(fields[0], id.to_string());
    assert_eq!(
        &fields[2..],
        ["ann", "kim", "-", "insults in chat"],
        "{listed:?}"
    );

    // A mute stops the chat of a game of Kim's.
    let (_, game) = kim
        .post(
            "/api/games",
            json!({"opponent": "friend", "color": "white"}),
        )
        .await;
    let game = game["id"].as_str().unwrap().to_owned();
    let chat = format!("/api/games/{game}/chat");
    assert_eq!(kim.post(&chat, json!({"text": "hello"})).await.0, 201);
    assert_eq!(
        ann.post("/api/mod/players/kim/mute", json!({"hours": 24}))
            .await
            .0,
        403
    );
    assert_eq!(
        max.post("/api/mod/players/kim/mute", json!({"hours": 9999}))
            .await
            .0,
        400
    );
    assert_eq!(
        max.post("/api/mod/players/kim/mute", json!({"hours": 24}))
            .await
            .0,
        204
    );
    let (status, said) = kim.post(&chat, json!({"text": "hello?"})).await;
    assert_eq!(status, 403, "{said}");
    assert_eq!(
        max.post("/api/mod/players/kim/mute", json!({"hours": 0}))
            .await
            .0,
        204
    );
    assert_eq!(kim.post(&chat, json!({"text": "sorry"})).await.0, 201);

    // Closed, Kim is signed out everywhere and cannot sign in again.
    assert_eq!(
        max.post("/api/mod/players/kim/close", json!({"reason": " "}))
            .await
            .0,
        400
    );
    let body = json!({"reason": "abuse after a mute"});
    assert_eq!(max.post("/api/mod/players/kim/close", body).await.0, 204);
    assert_eq!(kim.get("/api/session").await.1["name"], Value::Null);
    let credentials = json!({"name": "kim", "password": "correct horse battery"});
    let (status, refused) = kim.post("/api/session/signin", credentials).await;
    assert_eq!(status, 403, "{refused}");
    assert_eq!(
        max.post(&format!("/api/mod/reports/{id}/resolve"), json!({}))
            .await
            .0,
        204
    );
    assert_eq!(
        max.post(&format!("/api/mod/reports/{id}/resolve"), json!({}))
            .await
            .0,
        404
    );
    assert_eq!(max.get("/api/mod/reports").await.1, json!([]));

    // Every action is logged, newest first.
    let (_, log) = max.get("/api/mod/log").await;
    let actions: Vec<(String, String, String)> = log
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let s = |k: &str| l[k].as_str().unwrap().to_owned();
            (s("moderator"), s("action"), s("target"))
        })
        .collect();
    let own = |m: &str, a: &str, t: &str| (m.to_owned(), a.to_owned(), t.to_owned());
    assert_eq!(
        actions,
        [
            own("max", "resolve", &id.to_string()),
            own("max", "close", "kim"),
            own("max", "unmute", "kim"),
            own("max", "mute", "kim"),
            own("command line", "moderator", "max"),
        ]
    );
    let lines = text(&admin(&db, &["log"]));
    assert_eq!(lines.lines().count(), 5, "{lines}");
    assert!(
        lines
            .lines()
            .nth(1)
            .unwrap()
            .ends_with("\tmax\tclose\tkim\tabuse after a mute"),
        "{lines}"
    );
    server.kill();
}
