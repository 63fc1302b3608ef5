//! The small endgame tables built in the background: the engine answers while the build runs
//! and plays by the tables once they are there.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::sync_channel;
use std::time::Duration;

use common::temp_dir;
use morris_core::{Game, Position, Variant};
use morris_engine::{Engine, EngineOptions, Limits, Probe, Score, score_plies};
use morris_tablebase::{BackgroundOptions, EngineTables, Sector};

/// Long enough for any machine; the waits end as soon as what they wait for happens.
const PATIENCE: Duration = Duration::from_secs(120);

#[test]
fn the_engine_searches_while_its_tables_are_built_and_uses_them_once_there() {
    let dir = temp_dir("background");
    let six = Variant::Six.rules();
    // The build is held before its first group until the test lets it go.
    let (entered_tx, entered) = sync_channel::<Vec<Sector>>(16);
    let (release, released_rx) = sync_channel::<()>(1);
    let open = Arc::new(AtomicBool::new(false));
    let gate_open = Arc::clone(&open);
    let (news_tx, news) = sync_channel::<String>(64);
    let mut options = BackgroundOptions::new(7);
    options.gate = Box::new(move |group| {
        let _ = entered_tx.try_send(group.to_vec());
        if !gate_open.load(Ordering::Relaxed) {
            if released_rx.recv_timeout(PATIENCE).is_err() {
                return false;
            }
            gate_open.store(true, Ordering::Relaxed);
        }
        true
    });
    options.on_news = Some(Box::new(move |n: &str| {
        let _ = news_tx.try_send(n.to_string());
    }));
    let tables = Arc::new(EngineTables::open_building(&dir, options).unwrap());
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 1,
        seed: Some(1),
        ..EngineOptions::default()
    });
    engine.set_tablebase(Some(tables.clone() as Arc<dyn Probe>));

    // Three against three, both sliding.
    let pos = Position::from_fen(six, "W.B/.W./B..W/.B./... w 0 0 0 20").unwrap();
    assert!(pos.outcome().is_none());
    let game = Game::new(pos);

    // The first search asks for the tables and is answered while their build waits.
    let first = engine.search(&game, &Limits::depth(3), &mut |_| {});
    assert!(pos.is_legal(first.best.unwrap()));
    assert_eq!(
        entered.recv_timeout(PATIENCE).unwrap(),
        vec![Sector::moving(3, 3)]
    );
    assert!(tables.probe(&pos).is_none(), "nothing is built yet");
    let said = engine.take_tablebase_news();
    assert!(
        said.iter()
            .any(|n| n.starts_with("building the tables of six up to 7 pieces")),
        "{said:?}"
    );
    let second = engine.search(&game, &Limits::depth(3), &mut |_| {});
    assert!(pos.is_legal(second.best.unwrap()));
    assert!(matches!(second.score, Score::Cp(_)), "{:?}", second.score);

    // Let it go and wait for the end.
    release.send(()).unwrap();
    loop {
        let n = news.recv_timeout(PATIENCE).unwrap();
        assert!(!n.starts_with("cannot"), "{n}");
        if n.contains("are ready") {
            break;
        }
    }
    let value = tables.probe(&pos).expect("3-3 is built");
    let best = engine.search(&game, &Limits::depth(3), &mut |_| {});
    let scored = score_plies(&pos, |c| tables.probe(c).ok_or(())).unwrap();
    let played = scored
        .iter()
        .find(|(p, _)| Some(*p) == best.best)
        .unwrap()
        .1;
    assert_eq!(played, value, "the engine plays a best ply by the tables");
    assert_eq!(best.score, Score::from(value));
    assert!(
        tables
            .probe(&Position::from_fen(six, "WWB/.W./B..W/.B./... b 0 0 0 20").unwrap())
            .is_some()
    );
    std::fs::remove_dir_all(&dir).ok();
}
