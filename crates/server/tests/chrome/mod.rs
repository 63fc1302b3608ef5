//! Start-up of a real headless Chromium through chromedriver for the browser tests, the
//! screenshots they keep in `target/screenshots/`, and the accessibility check with axe-core.

#![allow(dead_code, reason = "each test file uses a part of the helpers")]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

/// A chromedriver process on a free port.
pub struct Driver {
    child: Child,
    url: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn find_program(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    })
}

/// The chromedriver to use; `None` (after saying why) when the test should be skipped.
pub fn chromedriver() -> Option<PathBuf> {
    match find_program("chromedriver") {
        Some(path) => Some(path),
        None if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!("chromedriver is missing and CI=true: install chromium and chromium-driver")
        }
        None => {
            eprintln!(
                "SKIPPED: chromedriver not found; install chromium and chromium-driver to run \
                 the browser tests"
            );
            None
        }
    }
}

/// A port that no one listens on at the moment.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

pub async fn start_driver(program: &Path) -> Driver {
    let port = free_port();
    let child = Command::new(program)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let driver = Driver {
        child,
        url: format!("http://127.0.0.1:{port}"),
    };
    let status = format!("{}/status", driver.url);
    let started = Instant::now();
    loop {
        if let Ok(r) = reqwest::get(&status).await
            && r.status().is_success()
        {
            return driver;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "chromedriver is ready"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A new browser with an empty profile of its own.
pub async fn browser(driver: &Driver, profile: &Path) -> Client {
    let mut args = vec![
        "--headless=new".to_owned(),
        "--no-sandbox".into(),
        "--disable-gpu".into(),
        "--disable-quic".into(),
        "--no-first-run".into(),
        "--disable-background-networking".into(),
        "--disable-component-update".into(),
        "--disable-sync".into(),
        "--window-size=1280,900".into(),
        // The page follows the browser's languages: the tests read its English words.
        "--lang=en-US".into(),
    ];
    args.push(format!("--user-data-dir={}", profile.display()));
    let mut options = json!({ "args": args, "prefs": { "intl.accept_languages": "en-US,en" } });
    if let Some(chromium) = find_program("chromium") {
        options["binary"] = json!(chromium);
    }
    let mut caps = serde_json::Map::new();
    caps.insert("goog:chromeOptions".into(), options);
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&driver.url)
        .await
        .expect("a browser session")
}

pub async fn screenshot(client: &Client, name: &str) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .join("screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    // Let the pieces land: wait for every animation that ends (not the endless pulses).
    client
        .execute(
            "return Promise.all(document.getAnimations()
                .filter(a => a.effect && a.effect.getComputedTiming().endTime !== Infinity)
                .map(a => a.finished.catch(() => null))).then(() => true);",
            vec![],
        )
        .await
        .unwrap();
    let png = client.screenshot().await.unwrap();
    std::fs::write(dir.join(name), png).unwrap();
}

/// axe-core's script, installed by `npm ci` in `tests/a11y` (as `.ci/run` does); `None` (after
/// saying so) when it is missing outside CI, where the check is then skipped.
pub fn axe_script() -> Option<String> {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/a11y/node_modules/axe-core/axe.min.js");
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(_) if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!(
                "{} is missing and CI=true: run npm ci in crates/server/tests/a11y",
                path.display()
            )
        }
        Err(_) => {
            eprintln!("SKIPPED the accessibility check: run npm ci in crates/server/tests/a11y");
            None
        }
    }
}

/// Runs axe-core on the page and fails on every serious or critical violation, naming them.
pub async fn assert_accessible(client: &Client, axe: Option<&str>, screen: &str) {
    let Some(axe) = axe else {
        return;
    };
    client.execute(axe, vec![]).await.expect("axe-core loads");
    let found = client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             axe.run(document, { resultTypes: ['violations'] }).then((r) => done(
               r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
                 .map((v) => `${v.id} (${v.impact}): ${v.help}: ` +
                   v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | '))),
               (e) => done([`axe failed: ${e}`]));",
            vec![],
        )
        .await
        .expect("axe-core runs");
    assert_eq!(
        found,
        json!([]),
        "serious or critical accessibility violations on {screen}"
    );
}

/// Sizes the window so that the page itself is `width` × `height`.
pub async fn page_size(client: &Client, width: u32, height: u32) {
    // The window's frame, measured once at the first size: later measures may catch a
    // resize half done.
    static FRAME: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    let measured = client
        .execute(
            "return [outerWidth - innerWidth, outerHeight - innerHeight];",
            vec![],
        )
        .await
        .unwrap();
    let frame = FRAME.get_or_init(|| measured).clone();
    let frame = |i: usize| u32::try_from(frame[i].as_u64().unwrap()).unwrap();
    client
        .set_window_size(width + frame(0), height + frame(1))
        .await
        .unwrap();
    let started = Instant::now();
    loop {
        let inner = client
            .execute("return [innerWidth, innerHeight];", vec![])
            .await
            .unwrap();
        if inner == json!([width, height]) {
            return;
        }
        if started.elapsed() > Duration::from_secs(5) {
            let wide = client
                .execute(
                    "return [...document.querySelectorAll('body *')]
                       .filter((el) => el.getBoundingClientRect().right > arguments[0] + 1)
                       .slice(0, 8).map((el) => `${el.tagName}#${el.id}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`);",
                    vec![json!(width)],
                )
                .await
                .unwrap();
            panic!("the page is {width}x{height}: {inner}; wider: {wide}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The visible controls smaller than 44 × 44 CSS pixels (the board's points aside: they sit
/// as close as the board's lines, and the board grows with the window). A check box is
/// measured by the label around it, which a tap on toggles it as well.
pub async fn small_targets(client: &Client) -> Value {
    client
        .execute(
            "return [...document.querySelectorAll('button, a[href], select, input, textarea, [role=button]')]
               .filter((el) => !el.closest('#board') && el.offsetParent !== null && !el.closest('dialog:not([open])'))
               .map((el) => [el, ((el.type === 'checkbox' || el.type === 'radio') && el.closest('label') || el).getBoundingClientRect()])
               .filter(([, r]) => r.width > 0 && (r.width < 43.5 || r.height < 43.5))
               .map(([el, r]) => `${el.tagName.toLowerCase()}#${el.id || ''}.${el.className || ''} ` +
                 `\"${(el.textContent || el.value || '').trim().slice(0, 20)}\" ${Math.round(r.width)}x${Math.round(r.height)}`);",
            vec![],
        )
        .await
        .unwrap()
}

/// Sets the page's theme (`wood`, `dark`, …) in the browser's storage for the site at `base`.
pub async fn set_theme(client: &Client, base: &str, theme: &str) {
    client.goto(&format!("{base}/favicon.svg")).await.unwrap();
    client
        .execute(
            "localStorage.setItem('morris.settings', JSON.stringify({ theme: arguments[0] }));",
            vec![json!(theme)],
        )
        .await
        .unwrap();
}

/// Waits until `script` returns true.
/// Clicks the element that `css` selects.
pub async fn click(client: &Client, css: &str) {
    client
        .find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css} is on the page: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("{css} can be clicked: {e}"));
}

pub async fn wait_for(client: &Client, script: &str, what: &str) {
    wait_within(client, script, what, Duration::from_secs(30)).await;
}

/// Waits until `script` returns true, for at most `limit`.
pub async fn wait_within(client: &Client, script: &str, what: &str, limit: Duration) {
    let started = Instant::now();
    loop {
        if client.execute(script, vec![]).await.unwrap() == json!(true) {
            return;
        }
        assert!(started.elapsed() < limit, "{what} within {limit:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
