//! The review, the board editor, the rules, the end of a game and the installable page in a
//! real headless Chromium: each screen at phone and desktop sizes, light and dark, fitted,
//! with touch targets of 44 px, checked by axe-core, and its words switched by the language
//! switch. Screenshots of each screen are kept in `target/screenshots/`.
//!
//! Needs `chromium` and `chromedriver`, and axe-core installed by `npm ci` in `tests/a11y`.

mod chrome;
mod common;

use std::path::Path;

use chrome::{
    assert_accessible, axe_script, browser, chromedriver, click, page_size, screenshot, set_theme,
    small_targets, start_driver, wait_for,
};
use common::Server;
use common::visitor::Visitor;
use fantoccini::{Client, Locator, key::Key};
use morris_server::Limits;
use serde_json::{Value, json};

const SIZES: [(u32, u32); 4] = [(390, 844), (844, 390), (860, 700), (1440, 900)];

fn s(v: &Value) -> String {
    v.as_str().unwrap_or_default().to_owned()
}

async fn text(client: &Client, css: &str) -> String {
    client
        .find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css} is on the page: {e}"))
        .text()
        .await
        .unwrap()
}

/// The ids of `ids` that are not wholly in the window.
async fn outside(client: &Client, ids: &[&str]) -> Value {
    client
        .execute(
            "return arguments[0].filter((id) => {
               const r = document.getElementById(id).getBoundingClientRect();
               return r.height === 0 || r.top < 0 || r.left < 0 ||
                 r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5;
             });",
            vec![json!(ids)],
        )
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_of_an_imported_game_shows_the_graph_and_graded_plies() {
    let Some(program) = chromedriver() else {
        return;
    };
    let axe = axe_script();
    let server = Server::in_memory().await;
    let created = server
        .create(json!({"opponent": "local",
                       "record": "1. d6 f4 2. d2 b4 3. f6 a1 4. a7 a4 5. g1 c5"}))
        .await;
    let id = s(&created["id"]);
    let driver = start_driver(&program).await;
    let profile = common::temp_dir("chromium-review");
    let client = browser(&driver, &profile).await;
    for theme in ["wood", "dark"] {
        set_theme(&client, &server.base, theme).await;
        client
            .goto(&server.url(&format!("/review.html?game={id}")))
            .await
            .unwrap();
        wait_for(
            &client,
            "return document.querySelectorAll('#review-plies li[class^=grade-]').length === 10;",
            "every ply is graded",
        )
        .await;
        let curve = client
            .find_all(Locator::Css("#eval-graph path.graph-line"))
            .await
            .unwrap();
        assert_eq!(curve.len(), 1, "the graph is drawn");
        // The review starts at the end; the keys walk through the plies.
        assert_eq!(text(&client, "#nav-where").await, "Ply 10 of 10");
        let body = client.find(Locator::Css("body")).await.unwrap();
        body.send_keys(&Key::Left.to_string()).await.unwrap();
        assert_eq!(text(&client, "#nav-where").await, "Ply 9 of 10");
        body.send_keys(&Key::Up.to_string()).await.unwrap();
        assert_eq!(text(&client, "#nav-where").await, "Ply 0 of 10");
        body.send_keys(&Key::Right.to_string()).await.unwrap();
        let words = text(&client, "#ply-words").await;
        assert!(words.starts_with("1. d6 by White: "), "{words}");
        assert!(
            text(&client, "#ply-line")
                .await
                .contains("The engine expects")
        );
        body.send_keys(&Key::Down.to_string()).await.unwrap();
        assert_eq!(text(&client, "#nav-where").await, "Ply 10 of 10");
        for (width, height) in SIZES {
            page_size(&client, width, height).await;
            client.execute("scrollTo(0, 0);", vec![]).await.unwrap();
            let out = outside(&client, &["board"]).await;
            assert_eq!(
                out,
                json!([]),
                "the board fits at {width}x{height} ({theme})"
            );
            assert_eq!(
                small_targets(&client).await,
                json!([]),
                "targets at {width}x{height}"
            );
            if width == 390 || width == 1440 {
                screenshot(&client, &format!("review-{width}x{height}-{theme}.png")).await;
            }
        }
        assert_accessible(&client, axe.as_deref(), &format!("the review ({theme})")).await;
    }
    // Play on from the start position, as analysis.
    let body = client.find(Locator::Css("body")).await.unwrap();
    body.send_keys(&Key::Up.to_string()).await.unwrap();
    click(&client, "#playon-analysis").await;
    wait_for(
        &client,
        "return location.pathname.startsWith('/g/') && document.querySelector('#analysis-panel:not([hidden])') !== null;",
        "the new game opens with the analysis on",
    )
    .await;
    client.close().await.unwrap();
    server.stop().await;
    let _ = std::fs::remove_dir_all(profile);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_editor_sets_up_a_position_and_plays_it() {
    let Some(program) = chromedriver() else {
        return;
    };
    let axe = axe_script();
    let server = Server::in_memory().await;
    let driver = start_driver(&program).await;
    let profile = common::temp_dir("chromium-editor");
    let client = browser(&driver, &profile).await;
    client.goto(&server.url("/editor.html")).await.unwrap();
    wait_for(
        &client,
        "return document.querySelectorAll('#board [data-point]').length === 24;",
        "the board is drawn",
    )
    .await;
    // Three white pieces and three black ones, nothing in hand, White to move.
    for point in ["a7", "d7", "b6"] {
        click(&client, &format!("#board [data-point='{point}']")).await;
    }
    click(&client, ".brush[data-brush='black']").await;
    for point in ["c3", "d3", "g1", "a1"] {
        click(&client, &format!("#board [data-point='{point}']")).await;
    }
    // The same colour again empties a point.
    click(&client, "#board [data-point='a1']").await;
    wait_for(
        &client,
        "return document.getElementById('editor-verdict').dataset.valid === 'true';",
        "the position is good",
    )
    .await;
    let fen = client
        .find(Locator::Id("editor-fen"))
        .await
        .unwrap()
        .prop("value")
        .await
        .unwrap()
        .unwrap_or_default();
    assert_eq!(fen, "WW./W../.../....../BB./.../..B w 0 0 0 1");
    // A piece too many in hand is named as a problem, in words.
    client
        .execute(
            "const h = document.getElementById('hand-white');
             h.value = '7'; h.dispatchEvent(new Event('input', { bubbles: true }));",
            vec![],
        )
        .await
        .unwrap();
    wait_for(
        &client,
        "return document.querySelectorAll('#editor-problems li').length > 0;",
        "the problems are named",
    )
    .await;
    let problems = text(&client, "#editor-problems").await;
    assert!(problems.contains("White has more pieces"), "{problems}");
    for (width, height) in [(390, 844), (1440, 900)] {
        page_size(&client, width, height).await;
        assert_eq!(
            small_targets(&client).await,
            json!([]),
            "targets at {width}x{height}"
        );
        screenshot(&client, &format!("editor-{width}x{height}.png")).await;
    }
    assert_accessible(&client, axe.as_deref(), "the editor").await;
    client
        .execute(
            "const h = document.getElementById('hand-white');
             h.value = '0'; h.dispatchEvent(new Event('input', { bubbles: true }));",
            vec![],
        )
        .await
        .unwrap();
    wait_for(
        &client,
        "return !document.getElementById('editor-local').disabled;",
        "the position can be played",
    )
    .await;
    click(&client, "#editor-local").await;
    wait_for(
        &client,
        "return location.pathname.startsWith('/g/');",
        "the game opens",
    )
    .await;
    let url = client.current_url().await.unwrap();
    let id = url.path().trim_start_matches("/g/").to_owned();
    let (_, game) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(game["start"], "WW./W../.../....../BB./.../..B w 0 0 0 1");
    // The winning flight ends the game: the result, the deciding mill and what comes next.
    wait_for(
        &client,
        "return document.querySelector(\"#board [data-point='b6'].movable\") !== null;",
        "the page offers the pieces to move",
    )
    .await;
    for point in ["b6", "g7", "g1"] {
        click(&client, &format!("#board [data-point='{point}']")).await;
    }
    wait_for(
        &client,
        "return document.querySelector('#end-card:not([hidden])') !== null;",
        "the end of the game is shown",
    )
    .await;
    // The status card tells the result once: who won in large type, then why.
    assert_eq!(text(&client, "#turn").await, "White wins");
    assert_eq!(
        text(&client, "#status").await,
        "Black has fewer than three pieces."
    );
    let decisive = client
        .execute(
            "return [...document.querySelectorAll('#board .point.decisive')].map((p) => p.dataset.point).sort();",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        decisive,
        json!(["a7", "d7", "g7"]),
        "the deciding mill is marked"
    );
    // The result and what comes next are on the first screen at every size, in both themes.
    for theme in ["wood", "dark"] {
        set_theme(&client, &server.base, theme).await;
        client.goto(&server.url(&format!("/g/{id}"))).await.unwrap();
        wait_for(
            &client,
            "return document.querySelector('#end-card:not([hidden]) #end-rematch:not([hidden])') !== null;",
            "the end of the game is shown with its next steps",
        )
        .await;
        for (width, height) in SIZES {
            page_size(&client, width, height).await;
            client.execute("scrollTo(0, 0);", vec![]).await.unwrap();
            let ids = [
                "board",
                "turn",
                "status",
                "end-rematch",
                "end-review",
                "end-new",
            ];
            assert_eq!(
                outside(&client, &ids).await,
                json!([]),
                "the result and its next steps in view at {width}x{height} ({theme})"
            );
            assert_eq!(
                small_targets(&client).await,
                json!([]),
                "targets of the end at {width}x{height}"
            );
            if width == 390 || width == 1440 {
                screenshot(&client, &format!("end-{width}x{height}-{theme}.png")).await;
            }
        }
        assert_accessible(
            &client,
            axe.as_deref(),
            &format!("the end of a game ({theme})"),
        )
        .await;
    }
    let review = client
        .find(Locator::Id("end-review"))
        .await
        .unwrap()
        .attr("href")
        .await
        .unwrap()
        .unwrap_or_default();
    assert_eq!(review, format!("/review.html?game={id}"));
    client.close().await.unwrap();
    server.stop().await;
    let _ = std::fs::remove_dir_all(profile);
}

/// The phone's and the desktop's sizes, where screenshots are kept.
const PHONE_AND_DESKTOP: [(u32, u32); 2] = [(390, 844), (1440, 900)];

/// Checks the screen shown at each of `sizes`: touch targets of 44 px, a screenshot
/// `{name}-{width}x{height}-{theme}.png` at the phone's and the desktop's size, and no serious
/// accessibility problem.
async fn check_screen(
    client: &Client,
    axe: Option<&str>,
    name: &str,
    theme: &str,
    sizes: &[(u32, u32)],
) {
    for &(width, height) in sizes {
        page_size(client, width, height).await;
        assert_eq!(
            small_targets(client).await,
            json!([]),
            "targets of {name} at {width}x{height} ({theme})"
        );
        if PHONE_AND_DESKTOP.contains(&(width, height)) {
            screenshot(client, &format!("{name}-{width}x{height}-{theme}.png")).await;
        }
    }
    assert_accessible(client, axe, &format!("{name} ({theme})")).await;
}

/// White moves g4-g7 here and closes the mill a7 d7 g7: the page then asks for a removal.
const MILL_NEXT: &str = "WW./.../.B./.W...W/B.B/.WB/B.. w 0 0 0 1";

/// Plays clicks on the board's points.
async fn click_points(client: &Client, points: &[&str]) {
    for point in points {
        click(client, &format!("#board [data-point='{point}']")).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_screen_fits_with_large_targets_and_no_serious_accessibility_problem() {
    let Some(program) = chromedriver() else {
        return;
    };
    let axe = axe_script();
    let limits = Limits {
        password_cost: common::CHEAP_HASH,
        ..Limits::default()
    };
    let server = Server::start(Path::new(":memory:"), limits).await;
    let placing = server
        .create(json!({"opponent": "local", "record": "1. d6 f4 2. d2 b4"}))
        .await;
    let placing = s(&placing["id"]);
    let mut ann = Visitor::new(&server.base).await;
    ann.sign_up("ann", "correct horse battery").await;
    let driver = start_driver(&program).await;
    let profile = common::temp_dir("chromium-screens");
    let client = browser(&driver, &profile).await;
    for theme in ["wood", "dark"] {
        set_theme(&client, &server.base, theme).await;
        client
            .goto(&server.url(&format!("/g/{placing}")))
            .await
            .unwrap();
        wait_for(
            &client,
            "return document.getElementById('board').dataset.version === '1';",
            "the game is drawn",
        )
        .await;
        for (width, height) in SIZES {
            page_size(&client, width, height).await;
            let out = outside(&client, &["board", "turn", "status"]).await;
            assert_eq!(
                out,
                json!([]),
                "board and status in view at {width}x{height} ({theme})"
            );
            assert_eq!(
                small_targets(&client).await,
                json!([]),
                "targets of the game at {width}x{height}"
            );
            screenshot(&client, &format!("game-{width}x{height}-{theme}.png")).await;
        }
        assert_accessible(&client, axe.as_deref(), &format!("the game ({theme})")).await;

        // The moving phase, a mill closed and a piece to remove.
        let moving = server
            .create(json!({"opponent": "local", "position": MILL_NEXT}))
            .await;
        client
            .goto(&server.url(&format!(
                "/g/{}?t={}",
                s(&moving["id"]),
                s(&moving["token"])
            )))
            .await
            .unwrap();
        wait_for(
            &client,
            "return document.querySelector(\"#board [data-point='g4'].movable\") !== null;",
            "the page offers the pieces to move",
        )
        .await;
        click_points(&client, &["g4", "g7"]).await;
        wait_for(
            &client,
            "return document.getElementById('status').textContent === 'White: Mill! Remove a black piece.';",
            "the page asks for a removal",
        )
        .await;
        for (width, height) in SIZES {
            page_size(&client, width, height).await;
            assert_eq!(
                outside(&client, &["board", "turn", "status"]).await,
                json!([]),
                "the removal in view at {width}x{height} ({theme})"
            );
            if width == 390 || width == 1440 {
                screenshot(&client, &format!("remove-{width}x{height}-{theme}.png")).await;
            }
        }
        assert_accessible(&client, axe.as_deref(), &format!("a removal ({theme})")).await;

        // The lobby.
        client.goto(&server.url("/lobby")).await.unwrap();
        wait_for(
            &client,
            "return document.querySelectorAll('#lobby .quick button').length > 0;",
            "the lobby is drawn",
        )
        .await;
        check_screen(&client, axe.as_deref(), "lobby", theme, &SIZES).await;

        // A player's page, and a game that does not exist.
        client.goto(&server.url("/@/ann")).await.unwrap();
        wait_for(
            &client,
            "return document.querySelector('#player-page h2')?.textContent === 'ann';",
            "the player's page is drawn",
        )
        .await;
        check_screen(&client, axe.as_deref(), "player", theme, &PHONE_AND_DESKTOP).await;
        client.goto(&server.url("/g/nosuchgame1")).await.unwrap();
        wait_for(
            &client,
            "return document.querySelector('#missing:not([hidden]) #missing-title')?.textContent !== '';",
            "the missing game is said",
        )
        .await;
        check_screen(
            &client,
            axe.as_deref(),
            "missing",
            theme,
            &PHONE_AND_DESKTOP,
        )
        .await;

        // The new-game dialog.
        client.goto(&server.url("/")).await.unwrap();
        client
            .wait()
            .for_element(Locator::Css("#new-game[open] #start-game"))
            .await
            .unwrap();
        check_screen(
            &client,
            axe.as_deref(),
            "new-game",
            theme,
            &PHONE_AND_DESKTOP,
        )
        .await;
        // The rules, reached from the dialog.
        click(&client, "#rules-link").await;
        wait_for(
            &client,
            "return document.querySelectorAll('#rules-text svg.diagram').length === 2;",
            "the rules and their diagrams are drawn",
        )
        .await;
        check_screen(&client, axe.as_deref(), "rules", theme, &PHONE_AND_DESKTOP).await;
    }
    client.close().await.unwrap();
    server.stop().await;
    let _ = std::fs::remove_dir_all(profile);
}

/// The visible texts of the page's fixed elements.
async fn visible_texts(client: &Client) -> Value {
    client
        .execute(
            "return [...document.querySelectorAll('[data-i18n]')]
               .filter((el) => el.offsetParent !== null && el.textContent.trim())
               .map((el) => [el.dataset.i18n, el.textContent.trim()]);",
            vec![],
        )
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_language_switch_changes_every_visible_text_of_the_new_screens() {
    let Some(program) = chromedriver() else {
        return;
    };
    let server = Server::in_memory().await;
    let created = server
        .create(json!({"opponent": "local", "record": "1. d6 f4 2. d2"}))
        .await;
    let id = s(&created["id"]);
    let driver = start_driver(&program).await;
    let profile = common::temp_dir("chromium-words");
    let client = browser(&driver, &profile).await;
    let pages = [
        (
            format!("/review.html?game={id}"),
            "#review-plies li[class^=grade-]",
            "#ply-words",
        ),
        (
            "/editor.html".to_owned(),
            "#editor-verdict[data-valid]",
            "#editor-verdict",
        ),
        (
            "/rules.html?variant=morabaraba".to_owned(),
            "#rules-text h3",
            "#rules-text h3",
        ),
        ("/lobby".to_owned(), "#lobby .quick button", "#lobby h3"),
        ("/@/nobody".to_owned(), "#player-page p", "#player-page p"),
        (
            "/games".to_owned(),
            "#games-page .list-status",
            "#games-page",
        ),
    ];
    for (path, ready, scripted) in pages {
        client.goto(&server.url(&path)).await.unwrap();
        // The switch follows changes once it lists the languages.
        wait_for(
            &client,
            "return document.getElementById('lang').options.length > 0;",
            "the language switch is ready",
        )
        .await;
        let switch = "const s = document.getElementById('lang');
                      s.value = arguments[0]; s.dispatchEvent(new Event('change'));";
        client.execute(switch, vec![json!("en")]).await.unwrap();
        wait_for(
            &client,
            &format!(
                "return document.documentElement.lang === 'en' && document.querySelector('{ready}') !== null;"
            ),
            "the page is drawn in English",
        )
        .await;
        let before = visible_texts(&client).await;
        let drawn = client
            .execute(
                "return document.querySelector(arguments[0]).innerText.trim();",
                vec![json!(scripted)],
            )
            .await
            .unwrap();
        let drawn = s(&drawn);
        assert!(!drawn.is_empty(), "{scripted} has words on {path}");
        client.execute(switch, vec![json!("de")]).await.unwrap();
        wait_for(
            &client,
            "return document.documentElement.lang === 'de';",
            "the page speaks German",
        )
        .await;
        let after = visible_texts(&client).await;
        let same: Vec<&Value> = before
            .as_array()
            .unwrap()
            .iter()
            .filter(|pair| after.as_array().unwrap().contains(pair))
            .collect();
        assert!(same.is_empty(), "texts left in English on {path}: {same:?}");
        let changed =
            format!("return document.querySelector({scripted:?})?.innerText.trim() !== {drawn:?};");
        wait_for(
            &client,
            &changed,
            &format!("the drawn text changes on {path}"),
        )
        .await;
        if path.starts_with("/rules") {
            screenshot(&client, "rules-de.png").await;
        }
    }
    client.close().await.unwrap();
    server.stop().await;
    let _ = std::fs::remove_dir_all(profile);
}
