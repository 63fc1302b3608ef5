//! A client that keeps a session cookie, as a browser does, and sends the session's CSRF
//! token with every request that changes something.

use std::time::Duration;

use reqwest::header::{COOKIE, SET_COOKIE};
use serde_json::Value;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use super::Socket;

/// One browser: its cookie and CSRF token.
pub struct Visitor {
    pub base: String,
    pub cookie: Option<String>,
    pub csrf: String,
    pub player: i64,
    client: reqwest::Client,
}

impl Visitor {
    /// The same browser in another tab: the same cookie and CSRF token.
    pub fn twin(&self) -> Visitor {
        Visitor {
            base: self.base.clone(),
            cookie: self.cookie.clone(),
            csrf: self.csrf.clone(),
            player: self.player,
            client: self.client.clone(),
        }
    }

    /// A new visitor: `GET /api/session` gives it an anonymous player.
    pub async fn new(base: &str) -> Visitor {
        Visitor::from_address(base, std::net::Ipv4Addr::LOCALHOST.into()).await
    }

    /// A new visitor whose connections come from `address` (one of 127.0.0.0/8).
    pub async fn from_address(base: &str, address: std::net::IpAddr) -> Visitor {
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(30))
            .local_address(address)
            .build()
            .unwrap();
        let mut v = Visitor {
            base: base.to_owned(),
            cookie: None,
            csrf: String::new(),
            player: 0,
            client,
        };
        let (status, body) = v.get("/api/session").await;
        assert_eq!(status, 200, "{body}");
        assert!(v.cookie.is_some(), "a new session sets its cookie");
        v.csrf = body["csrf"].as_str().unwrap().to_owned();
        v.player = body["player"].as_i64().unwrap();
        v
    }

    fn keep_cookie(&mut self, r: &reqwest::Response) {
        for value in r.headers().get_all(SET_COOKIE) {
            let text = value.to_str().unwrap();
            let pair = text.split(';').next().unwrap().trim();
            if pair.ends_with('=') {
                self.cookie = None;
            } else {
                self.cookie = Some(pair.to_owned());
            }
        }
    }

    /// The last `Set-Cookie` of an answer, whole.
    pub async fn raw_set_cookie(&self, path: &str) -> Option<String> {
        let r = self
            .client
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .unwrap();
        r.headers()
            .get(SET_COOKIE)
            .map(|v| v.to_str().unwrap().to_owned())
    }

    async fn answer(&mut self, r: reqwest::Response) -> (u16, Value) {
        let renewed = r.headers().contains_key(SET_COOKIE);
        self.keep_cookie(&r);
        let status = r.status().as_u16();
        let body = r.json().await.unwrap_or(Value::Null);
        // A session that begins (a visit, sign-up, sign-in, change of password) comes with
        // its own CSRF token.
        if renewed && let Some(csrf) = body["csrf"].as_str() {
            self.csrf = csrf.to_owned();
            if let Some(player) = body["player"].as_i64() {
                self.player = player;
            }
        }
        (status, body)
    }

    pub async fn get(&mut self, path: &str) -> (u16, Value) {
        let mut req = self.client.get(format!("{}{path}", self.base));
        if let Some(c) = &self.cookie {
            req = req.header(COOKIE, c);
        }
        let r = req.send().await.unwrap();
        self.answer(r).await
    }

    /// A request with the cookie and, when `csrf`, the CSRF header.
    pub async fn send(
        &mut self,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
        csrf: bool,
        origin: Option<&str>,
    ) -> (u16, Value) {
        let mut req = self.client.request(method, format!("{}{path}", self.base));
        if let Some(c) = &self.cookie {
            req = req.header(COOKIE, c);
        }
        if csrf {
            req = req.header("x-morris-csrf", &self.csrf);
        }
        if let Some(o) = origin {
            req = req.header("origin", o);
        }
        if let Some(b) = body {
            req = req.json(&b);
        }
        let r = req.send().await.unwrap();
        self.answer(r).await
    }

    pub async fn post(&mut self, path: &str, body: Value) -> (u16, Value) {
        self.send(reqwest::Method::POST, path, Some(body), true, None)
            .await
    }

    pub async fn delete(&mut self, path: &str) -> (u16, Value) {
        self.send(reqwest::Method::DELETE, path, None, true, None)
            .await
    }

    /// Signs up; panics unless it works.
    pub async fn sign_up(&mut self, name: &str, password: &str) {
        let (status, body) = self
            .post(
                "/api/session/signup",
                serde_json::json!({"name": name, "password": password}),
            )
            .await;
        assert_eq!(status, 201, "{body}");
        assert_eq!(body["name"], name);
    }

    /// Opens a WebSocket with the cookie.
    pub async fn socket(&self, path: &str) -> Socket {
        let url = format!("{}{path}", self.base.replacen("http", "ws", 1));
        let mut request = url.into_client_request().unwrap();
        if let Some(c) = &self.cookie {
            request.headers_mut().insert("cookie", c.parse().unwrap());
        }
        let (socket, _) = tokio_tungstenite::connect_async(request).await.unwrap();
        socket
    }
}
