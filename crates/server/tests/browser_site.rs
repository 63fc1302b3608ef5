//! The site in real headless Chromium: two browsers with their own cookies sign up, meet
//! through quick pairing and play a clocked, rated game in which one side's flag falls; both
//! see the ratings change, and a third browser watches the game from the lobby's list.
//!
//! The server's clock is one the test moves on, so the flag falls without waiting a minute.
//! Needs `chromium` and `chromedriver`, as tests/browser.rs does.

mod chrome;
mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use chrome::{browser, chromedriver, start_driver};
use common::{Server, temp_dir};
use fantoccini::{Client, Locator};
use morris_server::accounts::HashCost;
use morris_server::clock::ManualNow;
use morris_server::{Config, Limits};
use serde_json::{Value, json};

/// Waits until `check` (a script returning a value) returns something truthy; returns it.
async fn until(client: &Client, what: &str, check: &str) -> Value {
    let started = Instant::now();
    loop {
        let value = client.execute(check, vec![]).await.unwrap();
        let done = match &value {
            Value::Null | Value::Bool(false) => false,
            Value::String(s) => !s.is_empty(),
            _ => true,
        };
        if done {
            return value;
        }
        assert!(started.elapsed() < Duration::from_secs(20), "{what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Signs up in the account dialog of the page.
async fn sign_up(client: &Client, name: &str) {
    client
        .find(Locator::Id("btn-account"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    client
        .wait()
        .for_element(Locator::Css("#account[open] #account-sign-up"))
        .await
        .unwrap();
    client
        .execute(
            "const [name] = arguments;
             const form = document.querySelector('#account form');
             form.elements.name.value = name;
             form.elements.password.value = 'correct horse battery';
             document.getElementById('account-sign-up').click();",
            vec![json!(name)],
        )
        .await
        .unwrap();
    until(
        client,
        "the top bar names the player",
        &format!("return document.getElementById('btn-account').textContent === '{name}'"),
    )
    .await;
}

async fn game_path(client: &Client) -> String {
    until(
        client,
        "the game opens",
        "return location.pathname.startsWith('/g/') ? location.pathname : ''",
    )
    .await
    .as_str()
    .unwrap()
    .to_owned()
}

async fn click_point(client: &Client, point: &str) {
    client
        .find(Locator::Css(&format!("#board [data-point='{point}']")))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

#[tokio::test]
async fn two_browsers_meet_by_quick_pairing_and_a_flag_falls_while_a_third_watches() {
    let Some(program) = chromedriver() else {
        return;
    };
    let dir = temp_dir("browser-site");
    let now = Arc::new(ManualNow::new(1_800_000_000_000));
    let mut config = Config::new("127.0.0.1:0".parse().unwrap(), dir.join("games.db"));
    config.limits = Limits {
        password_cost: HashCost {
            memory_kib: 256,
            passes: 1,
        },
        clock_sweep: Duration::from_secs(3600),
        ..Limits::default()
    };
    config.now = now.clone();
    let server = Server::with_config(config).await;
    let driver = start_driver(&program).await;
    let ann = browser(&driver, &dir.join("ann")).await;
    let bob = browser(&driver, &dir.join("bob")).await;
    let eve = browser(&driver, &dir.join("eve")).await;

    for (client, name) in [(&ann, "ann"), (&bob, "bob")] {
        client.goto(&server.url("/lobby")).await.unwrap();
        client
            .wait()
            .for_element(Locator::Css(".quick-button[data-clock='1+0']"))
            .await
            .unwrap();
        sign_up(client, name).await;
    }
    eve.goto(&server.url("/lobby")).await.unwrap();
    eve.wait()
        .for_element(Locator::Id("playing"))
        .await
        .unwrap();

    // Ann waits for an opponent; Bob's click pairs them and both pages open the game.
    let quick = Locator::Css(".quick-button[data-clock='1+0']");
    ann.find(quick).await.unwrap().click().await.unwrap();
    until(
        &ann,
        "Ann is told she waits",
        "return !document.querySelector('#lobby button.small[hidden]') \
         && document.querySelector('#lobby p.fine').textContent",
    )
    .await;
    bob.find(quick).await.unwrap().click().await.unwrap();
    let path = game_path(&bob).await;
    assert_eq!(game_path(&ann).await, path);
    let id = path.trim_start_matches("/g/").to_owned();

    // Eve finds the game in the lobby's list and opens it.
    let link = format!("#playing a[href='{path}']");
    until(
        &eve,
        "the lobby lists the game",
        &format!("return Boolean(document.querySelector(\"{link}\"))"),
    )
    .await;
    eve.find(Locator::Css(&link))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    assert_eq!(game_path(&eve).await, path);

    let own = "return document.getElementById('player-bottom').dataset.color";
    let ann_color = until(&ann, "Ann's colour", own).await;
    let (white, black) = if ann_color == "white" {
        (&ann, &bob)
    } else {
        (&bob, &ann)
    };
    // The page counts the running clock down by its own time, from the server's view.
    let clocks = until(
        white,
        "both clocks are shown",
        "const c = [...document.querySelectorAll('.player .clock')].map(c => c.textContent);
         return c.length === 2 && c.every(t => /^[01]:[0-5][0-9]$/.test(t)) ? c.join(' ') : ''",
    )
    .await;
    assert!(clocks.as_str().unwrap().contains("1:00"), "{clocks}");

    click_point(white, "d6").await;
    until(
        &eve,
        "Eve sees the first ply",
        "return document.getElementById('board').dataset.version === '2'",
    )
    .await;
    click_point(black, "f4").await;
    until(
        white,
        "White sees Black's ply",
        "return document.getElementById('board').dataset.version === '3'",
    )
    .await;

    // White lets the clock run out; nobody needs to act for the flag to fall.
    now.advance(61_000);
    assert_eq!(server.app.sweep_clocks().await, 1);
    let change = "return document.querySelector('#table-card .rating-change')?.textContent ?? ''";
    let lost = until(white, "White sees the rating fall", change).await;
    let won = until(black, "Black sees the rating rise", change).await;
    assert!(lost.as_str().unwrap().contains("1500 →"), "{lost}");
    assert!(won.as_str().unwrap().contains("(+"), "{won}");
    until(
        &eve,
        "Eve sees the game end on time",
        "return document.getElementById('status').textContent.includes('ran out of time')",
    )
    .await;
    let (_, game) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(game["result"]["reason"], "timeout");
    assert_eq!(game["result"]["winner"], "black");

    for client in [ann, bob, eve] {
        client.close().await.unwrap();
    }
    drop(driver);
    server.stop().await;
    let _ = std::fs::remove_dir_all(dir);
}
