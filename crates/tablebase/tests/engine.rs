//! Perfect play through the engine: with the tables set, the engine wins the shortest way,
//! resists the longest and reports the distance as a mate score.

mod common;

use std::sync::Arc;

use common::{position, temp_dir};
use morris_core::{Game, Variant};
use morris_engine::{Engine, EngineOptions, Limits, Probe, Score};
use morris_tablebase::{EngineTables, Sector, Value};

#[test]
fn the_engine_plays_the_three_against_three_endgame_perfectly() {
    let dir = temp_dir("engine");
    // Opening the folder builds the 3-3 sectors of nine on first use.
    let tables = Arc::new(EngineTables::open(&dir).unwrap());
    let rules = Variant::Nine.rules();
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 1,
        ..EngineOptions::default()
    });
    engine.set_tablebase(Some(tables.clone() as Arc<dyn Probe>));
    let (mut wins, mut losses) = (0, 0);
    // A spread of positions by a simple walk over the sets.
    let mut checked = 0;
    for seed in 0u32..400 {
        let us: u32 =
            (1 << (seed % 22)) | (1 << ((seed * 7 + 3) % 24)) | (1 << ((seed * 13 + 5) % 24));
        let them: u32 = (1 << ((seed * 5 + 1) % 24))
            | (1 << ((seed * 11 + 9) % 24))
            | (1 << ((seed * 17 + 2) % 24));
        if us.count_ones() != 3 || them.count_ones() != 3 || us & them != 0 {
            continue;
        }
        let Some(pos) = position(&rules, Sector::moving(3, 3), us, them) else {
            continue;
        };
        let Some(value) = tables.value(&pos) else {
            panic!("3-3 not built")
        };
        if value == Value::Loss(0) || checked >= 12 {
            continue;
        }
        checked += 1;
        let game = Game::new(pos);
        let result = engine.search(&game, &Limits::depth(2), &mut |_| {});
        let ply = result.best.expect("a ply");
        let mut child = pos;
        child.play_unchecked(ply);
        let after = tables.value(&child).unwrap().parent();
        assert_eq!(
            after,
            value,
            "{pos}: the engine played {}",
            ply.display(pos.board())
        );
        match value {
            Value::Win(d) => {
                wins += 1;
                assert_eq!(result.score, Score::Mate(i32::from(d)), "{pos}");
            }
            Value::Loss(d) => {
                losses += 1;
                assert_eq!(result.score, Score::Mate(-i32::from(d)), "{pos}");
            }
            Value::Draw => {}
        }
    }
    assert!(checked >= 10 && wins > 0, "{checked} {wins} {losses}");
    std::fs::remove_dir_all(&dir).ok();
}

/// The whole of Six Men's Morris built in a folder of its own, and its tables opened.
fn whole_six(name: &str) -> (std::path::PathBuf, Arc<EngineTables>) {
    let dir = temp_dir(name);
    let rules = Variant::Six.rules();
    morris_tablebase::build(
        &morris_tablebase::BuildOptions::new(rules, &dir),
        &[Sector::start(&rules)],
        |_| {},
    )
    .unwrap();
    let tables = Arc::new(EngineTables::open(&dir).unwrap());
    (dir, tables)
}

/// With the whole of Six Men's Morris built (a draw from the start), the strongest level keeps
/// the draw in every ply of a game against itself and, among the plies that keep it, plays one
/// that sets the opponent the best traps.
#[test]
fn among_drawing_plies_the_engine_sets_the_best_traps() {
    let (dir, tables) = whole_six("engine-traps");
    assert!(tables.holds_placing());
    let probe = tables.clone() as Arc<dyn Probe>;
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 1,
        seed: Some(1),
        ..EngineOptions::default()
    });
    engine.set_tablebase(Some(probe.clone()));
    // Play a game of the engine against itself, placing phase and after: every ply keeps the
    // draw and sets traps at least as good as any other drawing ply.
    let mut game = Game::new(morris_core::Position::start(Variant::Six));
    let mut differed = 0;
    for _ in 0..24 {
        let pos = *game.position();
        if game.outcome().is_some() {
            break;
        }
        assert_eq!(tables.value(&pos), Some(Value::Draw), "{pos}");
        let weights: Vec<f64> = morris_engine::score_plies(&pos, |c| tables.value(c).ok_or(()))
            .unwrap()
            .into_iter()
            .filter(|&(_, v)| v == Value::Draw)
            .map(|(p, _)| morris_engine::trap_weight(&pos.after_unchecked(p), &*probe))
            .collect();
        let top = weights.iter().copied().fold(0.0, f64::max);
        if weights.iter().any(|&w| w < top) {
            differed += 1;
        }
        let best = engine
            .search(&game, &Limits::depth(2), &mut |_| {})
            .best
            .unwrap();
        let child = pos.after_unchecked(best);
        assert_eq!(
            tables.value(&child),
            Some(Value::Draw),
            "{pos}: gave away the draw"
        );
        let weight = morris_engine::trap_weight(&child, &*probe);
        assert!(
            weight >= top,
            "{pos}: {} sets traps of weight {weight}, the best is {top}",
            best.display(pos.board())
        );
        game.play(best).unwrap();
    }
    assert!(
        differed > 3,
        "only {differed} positions had a choice of traps"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// The accuracy measure on the whole of Six Men's Morris: a ply that gives the draw away is
/// judged a loss of value and the best is not; the engine with the tables loses no value, and
/// a weak level without them loses some.
#[test]
fn accuracy_is_judged_by_the_tables() {
    use morris_engine::accuracy::{is_a_test, judge, measure, sample_positions};
    let (dir, tables) = whole_six("accuracy");
    let tables = tables as Arc<dyn Probe>;
    let positions = sample_positions(Variant::Six, &*tables, 12, 7, 200);
    assert_eq!(positions.len(), 12);
    for pos in &positions {
        assert!(is_a_test(pos, &*tables));
        let scored = morris_engine::score_plies(pos, |c| tables.probe(c).ok_or(())).unwrap();
        let (best, worst) = (scored[0], scored[scored.len() - 1]);
        let good = judge(pos, best.0, &*tables).unwrap();
        assert!(!good.lost_value() && good.value == best.1, "{pos}");
        let bad = judge(pos, worst.0, &*tables).unwrap();
        assert!(bad.lost_value() && bad.steps_lost() >= 1, "{pos}");
    }
    let perfect = EngineOptions {
        hash_mb: 1,
        ..EngineOptions::default()
    };
    let judged = measure(
        &positions,
        &perfect,
        std::time::Duration::from_millis(20),
        &*tables,
        Some(tables.clone()),
        |_, _| {},
    );
    assert_eq!(judged.len(), positions.len());
    assert!(judged.iter().all(|j| !j.lost_value()), "{judged:?}");
    let weak = EngineOptions {
        hash_mb: 1,
        level: 1,
        seed: Some(3),
        ..EngineOptions::default()
    };
    let judged = measure(
        &positions,
        &weak,
        std::time::Duration::from_millis(5),
        &*tables,
        None,
        |_, _| {},
    );
    assert!(
        judged.iter().any(|j| j.lost_value()),
        "level 1 lost no value"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_damaged_file_is_skipped_and_named_and_the_other_tables_are_used() {
    let dir = temp_dir("engine-damaged");
    std::fs::create_dir_all(&dir).unwrap();
    // Three Men's Morris' moving tables, whole; nine's 3-3 file cut to 10 bytes.
    let three = Variant::Three.rules();
    morris_tablebase::build(
        &morris_tablebase::BuildOptions::new(three, &dir),
        &[Sector::moving(3, 3)],
        |_| {},
    )
    .unwrap();
    std::fs::write(dir.join("nine-3-3.mtb"), [0u8; 10]).unwrap();

    let tables = EngineTables::open(&dir).expect("one damaged file does not refuse the folder");
    let problems = tables.take_problems();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains("nine-3-3.mtb"), "{problems:?}");
    assert!(tables.take_problems().is_empty(), "said once");

    let answered = (0u32..512)
        .filter_map(|bits| {
            let us = bits & 0o777;
            let them = (bits.rotate_left(4) ^ 0o525) & 0o777 & !us;
            (us.count_ones() == 3 && them.count_ones() == 3)
                .then(|| position(&three, Sector::moving(3, 3), us, them))
                .flatten()
        })
        .filter(|pos| tables.value(pos).is_some())
        .count();
    assert!(answered > 0, "Three Men's Morris is still answered");
    let nine = Variant::Nine.rules();
    let pos = (0u32..24)
        .find_map(|i| {
            position(
                &nine,
                Sector::moving(3, 3),
                0b111 << i,
                0b111 << ((i + 12) % 21),
            )
        })
        .expect("a 3-3 position of nine");
    assert_eq!(tables.value(&pos), None, "the damaged sector is not used");
    let _ = std::fs::remove_dir_all(dir);
}
