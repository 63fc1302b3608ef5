//! The site in real headless Chromium: two browsers with their own cookies sign up, meet
//! through quick pairing and play a clocked, rated game in which one side's flag falls; both
//! see the ratings change, and a third browser watches the game from the lobby's list.
//!
//! An anonymous browser finds its games on "My games" and filters them; a clocked game
//! browsed back ply by ply shows each ply's clocks and the time each ply took. A challenge
//! reaches a player on "My games" in the notification tray and is declined, and the
//! challenger is told; a blocked player can neither chat nor challenge; a player who leaves
//! by a link can be claimed against after the wait.
//!
//! The server's clock is one the test moves on, so the flag falls without waiting a minute.
//! Needs `chromium` and `chromedriver`, as tests/browser.rs does, and axe-core installed by
//! `npm ci` in `tests/a11y` for the accessibility check.

mod chrome;
mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use chrome::{
    assert_accessible, axe_script, browser, chromedriver, click, page_size, screenshot, set_theme,
    small_targets, start_driver, wait_for,
};
use common::{Server, temp_dir};
use fantoccini::{Client, Locator};
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
    sign_up_from(client, "btn-account", name).await;
}

/// Signs up in the account dialog that the button `opener` opens.
async fn sign_up_from(client: &Client, opener: &str, name: &str) {
    click(client, &format!("#{opener}")).await;
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
             form.elements.again.value = 'correct horse battery';
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
    click(client, &format!("#board [data-point='{point}']")).await;
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
        password_cost: common::CHEAP_HASH,
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
    click(&eve, &link).await;
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
    // Each side's clock starts with its own first ply: the seconds before it count for
    // nothing.
    now.advance(20_000);
    click_point(black, "f4").await;
    until(
        white,
        "White sees Black's ply",
        "return document.getElementById('board').dataset.version === '3'",
    )
    .await;
    let (_, game) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(
        game["clock"]["left"],
        json!({"white": 60_000, "black": 60_000})
    );
    assert_eq!(game["clock"]["running"], "white");
    // A game counts for the ratings from its fourth ply.
    click_point(white, "d2").await;
    until(
        black,
        "Black sees White's second ply",
        "return document.getElementById('board').dataset.version === '4'",
    )
    .await;
    click_point(black, "b4").await;
    until(
        white,
        "White sees Black's second ply",
        "return document.getElementById('board').dataset.version === '5'",
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
    assert!(game["ratings"].is_object(), "{game}");

    // A second quick pairing in which nobody moves is aborted after the wait, unrated.
    for client in [&ann, &bob] {
        client.goto(&server.url("/lobby")).await.unwrap();
        client.wait().for_element(quick).await.unwrap();
    }
    ann.find(quick).await.unwrap().click().await.unwrap();
    until(
        &ann,
        "Ann waits again",
        "return !document.querySelector('#lobby button.small[hidden]') \
         && document.querySelector('#lobby p.fine').textContent",
    )
    .await;
    // Their ratings moved apart: the window widens while Ann waits.
    now.advance(30_000);
    bob.find(quick).await.unwrap().click().await.unwrap();
    let second = game_path(&bob).await;
    assert_eq!(game_path(&ann).await, second);
    assert_ne!(second, path);
    now.advance(31_000);
    assert_eq!(server.app.sweep_clocks().await, 1);
    until(
        &ann,
        "Ann's page says the game was aborted",
        "return document.getElementById('status').textContent.toLowerCase().includes('abort')",
    )
    .await;
    let second = second.trim_start_matches("/g/").to_owned();
    let (_, game) = server.get(&format!("/api/games/{second}")).await;
    assert_eq!(game["result"]["reason"], "aborted");
    assert_eq!(
        game["ratings"],
        Value::Null,
        "an unplayed game is not rated"
    );
    let (_, player) = server.get("/api/players/ann").await;
    assert_eq!(
        player["ratings"][0]["games"], 1,
        "only the first game is among Ann's rated games: {player}"
    );

    for client in [ann, bob, eve] {
        client.close().await.unwrap();
    }
    drop(driver);
    server.stop().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// Creates, through the page's own session cookie and CSRF token, a game that the browser's
/// player loses by resignation and a game of Six Men's Morris still being played; their ids.
const CREATE_BY_THE_COOKIE: &str = "const done = arguments[arguments.length - 1];
    (async () => {
      const session = await (await fetch('/api/session')).json();
      const post = (path, body) => fetch(path, { method: 'POST', body: JSON.stringify(body),
        headers: { 'Content-Type': 'application/json', 'X-Morris-CSRF': session.csrf } })
        .then((r) => r.ok ? r.json() : Promise.reject(new Error(`${path}: ${r.status}`)));
      const lost = await post('/api/games', { opponent: 'friend', color: 'white', clock: '5+3' });
      await post(`/api/games/${lost.id}/resign`, { token: lost.token });
      const six = await post('/api/games', { opponent: 'friend', variant: 'six', color: 'black' });
      return [lost.id, six.id];
    })().then(done, (e) => done(String(e)));";

/// The rows of the list of games: `[id, result, text]` each.
async fn rows(client: &Client) -> Value {
    client
        .execute(
            "return [...document.querySelectorAll('#games-list li.game-row')]
               .map((li) => [li.dataset.game, li.dataset.result, li.innerText.replace(/\\s+/g, ' ')]);",
            vec![],
        )
        .await
        .unwrap()
}

/// Chooses a filter of the list, as a player does.
async fn choose(client: &Client, select: &str, value: &str) {
    client
        .execute(
            "const s = document.getElementById(arguments[0]);
             s.value = arguments[1]; s.dispatchEvent(new Event('change'));",
            vec![json!(select), json!(value)],
        )
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_anonymous_player_finds_their_games_on_my_games_and_filters_them() {
    let Some(program) = chromedriver() else {
        return;
    };
    let axe = axe_script();
    let limits = Limits {
        password_cost: common::CHEAP_HASH,
        ..Limits::default()
    };
    let server = Server::start(std::path::Path::new(":memory:"), limits).await;
    let driver = start_driver(&program).await;
    let profile = temp_dir("chromium-my-games");
    let client = browser(&driver, &profile).await;

    // The page's own address is the app, with the session's cookie made on the way.
    client.goto(&server.url("/games")).await.unwrap();
    let empty = until(
        &client,
        "an empty list is said",
        "return document.querySelector('#games-page .list-status')?.textContent ?? ''",
    )
    .await;
    assert!(empty.as_str().unwrap().contains("no games yet"), "{empty}");

    let ids = client
        .execute_async(CREATE_BY_THE_COOKIE, vec![])
        .await
        .unwrap();
    let (lost, six) = (ids[0].as_str().unwrap(), ids[1].as_str().unwrap());

    // From the lobby, the header's link leads to the games.
    client.goto(&server.url("/lobby")).await.unwrap();
    wait_for(
        &client,
        "return document.querySelector(\"#lobby a[href='/games']\") !== null;",
        "the lobby links to My games",
    )
    .await;
    click(&client, "#games-link").await;
    wait_for(
        &client,
        "return location.pathname === '/games' && document.querySelectorAll('#games-list li.game-row').length === 2
           && document.getElementById('games-link').getAttribute('aria-current') === 'page';",
        "both games are listed",
    )
    .await;
    let listed = rows(&client).await;
    let row = |id: &str| {
        listed
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r[0] == id)
            .unwrap_or_else(|| panic!("{id} is listed: {listed}"))
            .clone()
    };
    let lost_row = row(lost);
    assert_eq!(lost_row[1], "loss");
    let text = lost_row[2].as_str().unwrap();
    for words in [
        "Lost",
        "vs Anonymous",
        "5+3",
        "Casual",
        "as White",
        "Resignation",
        "0-1",
    ] {
        assert!(text.contains(words), "{words:?} in {text:?}");
    }
    let six_row = row(six);
    assert_eq!(six_row[1], "playing");
    let text = six_row[2].as_str().unwrap();
    assert!(
        text.contains("Playing now") && text.contains("as Black"),
        "{text}"
    );

    // A filter that hides the game, then one that shows it; the address keeps the filter.
    choose(&client, "filter-result", "win").await;
    let none = until(
        &client,
        "the filter hides every game",
        "return document.querySelectorAll('#games-list li').length === 0
           && document.querySelector('#games-page .list-status').textContent",
    )
    .await;
    assert_eq!(none, "No game fits these filters.");
    assert_eq!(
        client
            .execute("return location.search;", vec![])
            .await
            .unwrap(),
        "?result=win"
    );
    choose(&client, "filter-result", "loss").await;
    wait_for(
        &client,
        &format!(
            "const rows = document.querySelectorAll('#games-list li.game-row');
             return rows.length === 1 && rows[0].dataset.game === '{lost}';"
        ),
        "the lost game alone is shown",
    )
    .await;
    choose(&client, "filter-result", "").await;
    choose(&client, "filter-variant", "six").await;
    wait_for(
        &client,
        &format!(
            "const rows = document.querySelectorAll('#games-list li.game-row');
             return rows.length === 1 && rows[0].dataset.game === '{six}';"
        ),
        "the game of Six Men's Morris alone is shown",
    )
    .await;
    // A reload keeps the filters.
    client
        .goto(&server.url("/games?result=loss"))
        .await
        .unwrap();
    wait_for(
        &client,
        &format!(
            "const rows = document.querySelectorAll('#games-list li.game-row');
             return document.getElementById('filter-result')?.value === 'loss'
               && rows.length === 1 && rows[0].dataset.game === '{lost}';"
        ),
        "the reloaded page filters as its address says",
    )
    .await;
    // A click opens the game.
    click(&client, &format!("#games-list a[href='/g/{lost}']")).await;
    assert_eq!(game_path(&client).await, format!("/g/{lost}"));

    for theme in ["wood", "dark"] {
        set_theme(&client, &server.base, theme).await;
        client.goto(&server.url("/games")).await.unwrap();
        wait_for(
            &client,
            "return document.querySelectorAll('#games-list li.game-row').length === 2;",
            "the games are drawn",
        )
        .await;
        for (width, height) in [(390, 844), (1440, 900)] {
            page_size(&client, width, height).await;
            assert_eq!(
                small_targets(&client).await,
                json!([]),
                "targets of My games at {width}x{height} ({theme})"
            );
            let wide = client
                .execute(
                    "return document.documentElement.scrollWidth <= innerWidth;",
                    vec![],
                )
                .await
                .unwrap();
            assert_eq!(wide, json!(true), "nothing overflows at {width}x{height}");
            screenshot(&client, &format!("my-games-{width}x{height}-{theme}.png")).await;
        }
        assert_accessible(&client, axe.as_deref(), &format!("My games ({theme})")).await;
    }
    // The guest signs up from the page: the games stay theirs and the page says so.
    sign_up_from(&client, "games-sign-up", "gus").await;
    wait_for(
        &client,
        "return !document.getElementById('games-sign-up')
           && document.querySelector(\"#games-page a[href='/@/gus']\") !== null
           && document.querySelectorAll('#games-list li.game-row').length === 2;",
        "the signed-up player's games",
    )
    .await;
    // The player's page lists the same games with the same list and filters.
    click(&client, "#games-page a[href='/@/gus']").await;
    wait_for(
        &client,
        &format!(
            "const rows = [...document.querySelectorAll('#player-page #games-list li.game-row')];
             return rows.length === 2 && rows.some((r) => r.dataset.game === '{lost}' && r.dataset.result === 'loss');"
        ),
        "the player's page lists the games",
    )
    .await;
    choose(&client, "filter-result", "win").await;
    let none = until(
        &client,
        "the player's page filters",
        "return document.querySelectorAll('#games-list li').length === 0
           && document.querySelector('#player-page .list-status').textContent",
    )
    .await;
    assert_eq!(none, "No game fits these filters.");
    client.close().await.unwrap();
    drop(driver);
    server.stop().await;
    let _ = std::fs::remove_dir_all(profile);
}

/// Each player bar's colour and clock, sorted: `"black 2:49, white 2:57"`.
const CLOCKS: &str = "const c = [...document.querySelectorAll('.player')]
    .map((p) => [p.dataset.color, p.querySelector('.clock')?.textContent]);
    return c.every(([, time]) => time) ? c.map((x) => x.join(' ')).sort().join(', ') : '';";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browsing_back_through_a_clocked_game_shows_the_clocks_of_each_ply() {
    let Some(program) = chromedriver() else {
        return;
    };
    let dir = temp_dir("browser-ply-clocks");
    let now = Arc::new(ManualNow::new(1_800_000_000_000));
    let mut config = Config::new("127.0.0.1:0".parse().unwrap(), dir.join("games.db"));
    config.limits = Limits {
        clock_sweep: Duration::from_secs(3600),
        ..Limits::default()
    };
    config.now = now.clone();
    let server = Server::with_config(config).await;
    // 3+2: White plays after 5 s, Black after 12.3 s (first plies come off no clock), then
    // White thinks 65 s and Black 11 s; then Black resigns.
    let created = server
        .create(json!({"opponent": "friend", "clock": "3+2"}))
        .await;
    let id = created["id"].as_str().unwrap().to_owned();
    let white = created["token"].as_str().unwrap().to_owned();
    let black = created["invite"].as_str().unwrap().to_owned();
    for (wait, token, ply) in [
        (5000, &white, "d6"),
        (12_300, &black, "f4"),
        (65_000, &white, "d2"),
        (11_000, &black, "b4"),
    ] {
        now.advance(wait);
        let (status, answer) = server.play(&id, token, ply).await;
        assert_eq!(status, 200, "{ply}: {answer}");
    }
    let (status, _) = server
        .post(&format!("/api/games/{id}/resign"), json!({"token": black}))
        .await;
    assert_eq!(status, 200);

    let driver = start_driver(&program).await;
    let client = browser(&driver, &dir.join("profile")).await;
    client.goto(&server.url(&format!("/g/{id}"))).await.unwrap();
    let spent = until(
        &client,
        "the move list says what each ply took",
        "const took = [...document.querySelectorAll('#moves li')].map((li) => li.dataset.spent);
         return took.length === 4 ? took.join(' ') : '';",
    )
    .await;
    assert_eq!(
        spent, " 0:12 1:05 0:11",
        "the game's first ply took no clock time"
    );
    let label = client
        .execute(
            "return document.querySelector(\"#moves button[data-index='2']\").getAttribute('aria-label');",
            vec![],
        )
        .await
        .unwrap();
    assert!(label.as_str().unwrap().ends_with("took 1:05"), "{label}");
    assert_eq!(
        until(&client, "the clocks as they stopped", CLOCKS).await,
        "black 2:51, white 1:57"
    );

    // Back to White's second ply, then Black's first: the clocks of those plies, not the
    // last ones.
    for (index, clocks) in [(2, "black 3:00, white 1:57"), (1, "black 3:00, white 3:00")] {
        click(&client, &format!("#moves button[data-index='{index}']")).await;
        wait_for(
            &client,
            &format!(
                "return document.querySelector('#moves li.current')?.dataset.index === '{index}';"
            ),
            "the ply is shown",
        )
        .await;
        let shown = until(&client, "the ply's clocks", CLOCKS).await;
        assert_eq!(shown, clocks, "after ply {}", index + 1);
        assert_eq!(
            client
                .execute(
                    "return document.querySelectorAll('.player .clock.past').length;",
                    vec![]
                )
                .await
                .unwrap(),
            2
        );
    }
    for (width, height) in [(390, 844), (1440, 900)] {
        page_size(&client, width, height).await;
        screenshot(&client, &format!("ply-clocks-{width}x{height}.png")).await;
    }
    click(&client, "#rev-live").await;
    assert_eq!(
        until(&client, "the clocks as they stopped again", CLOCKS).await,
        "black 2:51, white 1:57"
    );

    // The review page browses the same clocks.
    client
        .goto(&server.url(&format!("/review.html?game={id}&ply=3")))
        .await
        .unwrap();
    let review_clocks = "return document.querySelector('#review-clocks:not([hidden])') ?
        [...document.querySelectorAll('#review-clocks .review-clock')]
          .map((c) => `${c.dataset.color} ${c.querySelector('.time').textContent}`).join(', ') : '';";
    assert_eq!(
        until(&client, "the review's clocks", review_clocks).await,
        "white 1:57, black 3:00"
    );
    click(&client, "#nav-next").await;
    assert_eq!(
        until(&client, "the review's clocks at ply 4", review_clocks).await,
        "white 1:57, black 2:51"
    );
    let took = client
        .execute(
            "return [...document.querySelectorAll('#review-plies .spent')].map((s) => s.textContent).join(' ');",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(took, "0:12 1:05 0:11");
    for (width, height) in [(390, 844), (1440, 900)] {
        page_size(&client, width, height).await;
        screenshot(&client, &format!("review-clocks-{width}x{height}.png")).await;
    }
    client.close().await.unwrap();
    drop(driver);
    server.stop().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn the_account_dialog_lists_where_the_player_is_signed_in_and_signs_another_browser_out() {
    let Some(program) = chromedriver() else {
        return;
    };
    let limits = Limits {
        password_cost: common::CHEAP_HASH,
        ..Limits::default()
    };
    let server = Server::start(std::path::Path::new(":memory:"), limits).await;
    let driver = start_driver(&program).await;
    let profile = temp_dir("chromium-sessions");
    let client = browser(&driver, &profile).await;
    client.goto(&server.url("/lobby")).await.unwrap();
    sign_up(&client, "ann").await;

    // Another device signs in by the API.
    let mut phone = common::visitor::Visitor::new(&server.base).await;
    let body = json!({"name": "ann", "password": "correct horse battery"});
    assert_eq!(phone.post("/api/session/signin", body).await.0, 200);

    click(&client, "#btn-account").await;
    let rows = until(
        &client,
        "both sessions are listed",
        "const rows = [...document.querySelectorAll('#account-sessions li')];
         return rows.length === 2 && rows.map((r) => r.textContent);",
    )
    .await;
    let rows: Vec<String> = serde_json::from_value(rows).unwrap();
    assert_eq!(
        rows.iter().filter(|r| r.contains("This browser")).count(),
        1,
        "{rows:?}"
    );
    assert!(
        rows.iter()
            .any(|r| r.contains("Chrome") && r.contains("This browser")),
        "the page's session is named by its browser: {rows:?}"
    );
    click(&client, "#account-sessions li button").await;
    wait_for(
        &client,
        "return document.querySelectorAll('#account-sessions li').length === 1;",
        "the other session leaves the list",
    )
    .await;
    let (_, now) = phone.get("/api/session").await;
    assert_eq!(now["name"], Value::Null, "the phone is signed out");

    // A new password keeps this browser signed in, with its new session.
    client
        .execute(
            "const form = document.querySelector('#account form');
             form.elements.old.value = 'correct horse battery';
             form.elements.new.value = 'another fine password';
             form.requestSubmit();",
            vec![],
        )
        .await
        .unwrap();
    wait_for(
        &client,
        "return !document.getElementById('account').open;",
        "the dialog closes after the change",
    )
    .await;
    let name = until(
        &client,
        "the page is still signed in",
        "const done = fetch('/api/session').then((r) => r.json()).then((s) => s.name);
         return window.__name ?? (done.then((n) => { window.__name = n; }), null);",
    )
    .await;
    assert_eq!(name, "ann");
    client.close().await.unwrap();
    drop(driver);
    server.stop().await;
}

#[tokio::test]
async fn a_challenge_reaches_a_player_on_my_games_who_declines_and_the_challenger_sees_it() {
    let Some(program) = chromedriver() else {
        return;
    };
    let dir = temp_dir("browser-notices");
    let limits = Limits {
        password_cost: common::CHEAP_HASH,
        ..Limits::default()
    };
    let server = Server::start(&dir.join("games.db"), limits).await;
    let driver = start_driver(&program).await;
    let ann = browser(&driver, &dir.join("ann")).await;
    let kim = browser(&driver, &dir.join("kim")).await;
    for (client, name) in [(&ann, "ann"), (&kim, "kim")] {
        client.goto(&server.url("/lobby")).await.unwrap();
        client
            .wait()
            .for_element(Locator::Css(".challenge-form"))
            .await
            .unwrap();
        sign_up(client, name).await;
    }
    // Kim is on "My games", not in the lobby.
    click(&kim, "#games-link").await;
    kim.wait()
        .for_element(Locator::Id("your-turn"))
        .await
        .unwrap();
    until(
        &kim,
        "the turn list says none waits",
        "return document.querySelector('#your-turn li.fine')?.textContent",
    )
    .await;

    // Ann challenges Kim by name from the lobby's form.
    ann.execute(
        "const form = document.querySelector('.challenge-form');
         form.elements.clock.value = '3+2';
         form.elements.to.value = 'kim';
         form.requestSubmit();",
        vec![],
    )
    .await
    .unwrap();
    let said = until(
        &kim,
        "the challenge shows on My games",
        "return document.querySelector('#notices .notice-challenge .notice-text')?.textContent",
    )
    .await;
    let said = said.as_str().unwrap();
    assert!(said.starts_with("ann (1500?) challenges you:"), "{said}");
    assert!(said.contains("3+2"), "{said}");
    let title = kim.title().await.unwrap();
    assert!(
        title.starts_with("(1) "),
        "the tab's title counts it: {title}"
    );
    // Ann's lobby counts who is on the site, finds Kim by name, and names whom the
    // challenge is for.
    until(
        &ann,
        "the lobby counts both players",
        "return document.getElementById('online-count')?.textContent === '2 players on the site'",
    )
    .await;
    ann.execute(
        "const q = document.querySelector('.player-search input');
         q.value = 'KI';
         q.dispatchEvent(new Event('input'));",
        vec![],
    )
    .await
    .unwrap();
    until(
        &ann,
        "the search finds Kim",
        "return document.querySelector('#found-players a')?.textContent === 'kim'",
    )
    .await;
    until(
        &ann,
        "the lobby lists the challenge to kim",
        "return [...document.querySelectorAll('#challenges .terms')].some((t) => t.textContent.includes('to kim'))",
    )
    .await;
    let axe = axe_script();
    assert_accessible(&kim, axe.as_deref(), "a challenge in the tray").await;
    assert_accessible(&ann, axe.as_deref(), "the lobby with its players").await;
    screenshot(&ann, "site-lobby-people.png").await;
    screenshot(&kim, "site-notice.png").await;

    click(&kim, "#notices .notice-decline").await;
    until(
        &kim,
        "the tray leaves and the title loses its count",
        "return !document.getElementById('notices') && !document.title.startsWith('(')",
    )
    .await;
    let told = until(
        &ann,
        "Ann is told of the decline",
        "return document.querySelector('#notices .notice-declined .notice-text')?.textContent",
    )
    .await;
    assert_eq!(told, "kim declined your challenge.");
    until(
        &ann,
        "the challenge leaves Ann's lobby",
        "return ![...document.querySelectorAll('#challenges .terms')].some((t) => t.textContent.includes('to kim'))",
    )
    .await;
    click(&ann, "#notices .notice-dismiss").await;
    until(
        &ann,
        "the notice is dismissed",
        "return !document.getElementById('notices')",
    )
    .await;
    for client in [ann, kim] {
        client.close().await.unwrap();
    }
    drop(driver);
    server.stop().await;
}

#[tokio::test]
async fn a_blocked_player_can_neither_chat_nor_challenge() {
    let Some(program) = chromedriver() else {
        return;
    };
    let dir = temp_dir("browser-block");
    let limits = Limits {
        password_cost: common::CHEAP_HASH,
        ..Limits::default()
    };
    let server = Server::start(&dir.join("games.db"), limits).await;
    let driver = start_driver(&program).await;
    let ann = browser(&driver, &dir.join("ann")).await;
    let kim = browser(&driver, &dir.join("kim")).await;
    for (client, name) in [(&ann, "ann"), (&kim, "kim")] {
        client.goto(&server.url("/lobby")).await.unwrap();
        client
            .wait()
            .for_element(Locator::Css(".challenge-form"))
            .await
            .unwrap();
        sign_up(client, name).await;
    }
    // Kim challenges Ann; Ann accepts from her tray and both are in the game.
    kim.execute(
        "const form = document.querySelector('.challenge-form');
         form.elements.clock.value = '5+3';
         form.elements.to.value = 'ann';
         form.requestSubmit();",
        vec![],
    )
    .await
    .unwrap();
    ann.wait()
        .for_element(Locator::Css("#notices .notice-accept"))
        .await
        .unwrap();
    click(&ann, "#notices .notice-accept").await;
    let path = game_path(&ann).await;
    assert_eq!(
        game_path(&kim).await,
        path,
        "the challenger is taken to the game"
    );
    kim.wait()
        .for_element(Locator::Css(".chat-form input"))
        .await
        .unwrap();
    let say = |text: &str| {
        format!(
            "const form = document.querySelector('.chat-form');
             form.querySelector('input').value = '{text}';
             form.requestSubmit();"
        )
    };
    kim.execute(&say("good luck"), vec![]).await.unwrap();
    until(
        &ann,
        "Ann reads Kim's line",
        "return [...document.querySelectorAll('#chat-lines li')].some((l) => l.textContent.includes('good luck'))",
    )
    .await;

    // Ann blocks Kim from Kim's page, then comes back to the game.
    ann.goto(&server.url("/@/kim")).await.unwrap();
    ann.wait()
        .for_element(Locator::Id("player-block"))
        .await
        .unwrap();
    click(&ann, "#player-block").await;
    until(
        &ann,
        "the page says Kim is blocked",
        "return document.getElementById('player-block').getAttribute('aria-pressed') === 'true' \
         && document.getElementById('player-block-note').textContent.includes('kim')",
    )
    .await;
    ann.goto(&server.url(&path)).await.unwrap();
    ann.wait()
        .for_element(Locator::Css(".chat-form"))
        .await
        .unwrap();

    // Kim's line is refused, and said so; Ann no longer sees Kim's earlier one.
    kim.execute(&say("hello?"), vec![]).await.unwrap();
    let said = until(
        &kim,
        "Kim is told she cannot chat",
        "return document.getElementById('error-text')?.textContent",
    )
    .await;
    assert!(said.as_str().unwrap().contains("blocks"), "{said}");
    until(
        &ann,
        "Kim's line is hidden from Ann",
        "return document.getElementById('chat-lines') \
         && ![...document.querySelectorAll('#chat-lines li')].some((l) => l.textContent.includes('good luck'))",
    )
    .await;

    // Nor can Kim challenge Ann again.
    kim.goto(&server.url("/lobby")).await.unwrap();
    kim.wait()
        .for_element(Locator::Css(".challenge-form"))
        .await
        .unwrap();
    kim.execute(
        "document.getElementById('error-text').textContent = '';
         const form = document.querySelector('.challenge-form');
         form.elements.to.value = 'ann';
         form.requestSubmit();",
        vec![],
    )
    .await
    .unwrap();
    let said = until(
        &kim,
        "Kim is told she cannot challenge Ann",
        "return document.getElementById('error-text')?.textContent",
    )
    .await;
    assert!(said.as_str().unwrap().contains("cannot play"), "{said}");
    for client in [ann, kim] {
        client.close().await.unwrap();
    }
    drop(driver);
    server.stop().await;
}

#[tokio::test]
async fn leaving_by_a_link_lets_the_opponent_claim_the_game_after_the_wait() {
    let Some(program) = chromedriver() else {
        return;
    };
    let dir = temp_dir("browser-leave");
    let now = Arc::new(ManualNow::new(1_800_000_000_000));
    let mut config = Config::new("127.0.0.1:0".parse().unwrap(), dir.join("games.db"));
    config.limits = Limits {
        password_cost: common::CHEAP_HASH,
        clock_sweep: Duration::from_secs(3600),
        ..Limits::default()
    };
    config.now = now.clone();
    let server = Server::with_config(config).await;
    let driver = start_driver(&program).await;
    let ann = browser(&driver, &dir.join("ann")).await;
    let bob = browser(&driver, &dir.join("bob")).await;
    let quick = Locator::Css(".quick-button[data-clock='5+3']");
    for (client, name) in [(&ann, "ann"), (&bob, "bob")] {
        client.goto(&server.url("/lobby")).await.unwrap();
        client.wait().for_element(quick).await.unwrap();
        sign_up(client, name).await;
    }
    ann.find(quick).await.unwrap().click().await.unwrap();
    until(
        &ann,
        "Ann waits",
        "return !document.querySelector('#lobby button.small[hidden]')",
    )
    .await;
    bob.find(quick).await.unwrap().click().await.unwrap();
    let path = game_path(&bob).await;
    assert_eq!(game_path(&ann).await, path);
    let own = "return document.getElementById('player-bottom').dataset.color";
    let (white, black) = if until(&ann, "Ann's colour", own).await == "white" {
        (&ann, &bob)
    } else {
        (&bob, &ann)
    };
    // Both sides play: the game can no longer be aborted, only claimed.
    click_point(white, "d6").await;
    until(
        black,
        "Black sees White's ply",
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

    // Black follows a link away from the game: gone at once, for White's page too.
    black.goto(&server.url("/rules.html")).await.unwrap();
    until(
        white,
        "White's page says the opponent left",
        "return document.querySelector('#table-card .presence.gone')?.textContent",
    )
    .await;
    let early = until(
        white,
        "White's page counts down to a claim",
        "return document.querySelector('#table-card .countdown')?.textContent",
    )
    .await;
    assert!(early.as_str().unwrap().contains("claim"), "{early}");
    let id = path.trim_start_matches("/g/").to_owned();
    let (status, _) = server
        .post(&format!("/api/games/{id}/claim"), json!({"result": "win"}))
        .await;
    assert_ne!(
        status, 200,
        "nobody claims before the wait, nor without a seat"
    );

    // After the wait (the server's clock moved on; the page reads it again), White claims.
    now.advance(31_000);
    white.refresh().await.unwrap();
    until(
        white,
        "the claim is offered",
        "return [...document.querySelectorAll('#table-card button')].some((b) => b.textContent === 'Claim the win')",
    )
    .await;
    white
        .execute(
            "[...document.querySelectorAll('#table-card button')]
                .find((b) => b.textContent === 'Claim the win').click();",
            vec![],
        )
        .await
        .unwrap();
    until(
        white,
        "the game is over",
        "return document.getElementById('status').textContent.toLowerCase().includes('won') \
         || document.getElementById('status').textContent.toLowerCase().includes('wins')",
    )
    .await;
    let (_, game) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(game["status"], "over");
    assert_eq!(game["result"]["winner"], "white");
    assert_eq!(game["result"]["reason"], "abandonment", "{game}");
    for client in [ann, bob] {
        client.close().await.unwrap();
    }
    drop(driver);
    server.stop().await;
    let _ = std::fs::remove_dir_all(dir);
}
