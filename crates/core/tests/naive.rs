//! The library's legal plies, outcomes, position strings and perft against the naive generator
//! of `common/naive.rs`, on random games and random setups of every variant and of non-default
//! rule options.

mod common;

use common::naive::{NaivePos, NaiveRules, Rng};
use common::{core_outcome, core_texts, perft_cases, random_setup, rule_sets, seed_of};
use morris_core::{FenError, Position, perft};

/// How many random games and setups per rule set: a few by default so that the suite stays
/// quick; `MORRIS_NAIVE_SCALE=N` multiplies them for a longer search.
fn scale() -> u64 {
    std::env::var("MORRIS_NAIVE_SCALE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1)
}

/// Compares everything the two generators say about one position.
fn assert_agree(core: &Position, naive: &NaivePos, context: &str) {
    assert_eq!(
        core.fen(),
        naive.fen(),
        "{context}: position strings differ"
    );
    assert_eq!(
        core_outcome(core),
        naive.outcome(),
        "{context}: outcomes differ in {}",
        naive.fen()
    );
    let theirs = naive.legal_texts();
    let ours = core_texts(core);
    if ours != theirs {
        let missing: Vec<_> = theirs.difference(&ours).collect();
        let extra: Vec<_> = ours.difference(&theirs).collect();
        panic!(
            "{context}: legal plies differ in {}\nmissing from the library: {missing:?}\nextra in the library: {extra:?}",
            naive.fen()
        );
    }
    assert_eq!(
        core.count_legal(),
        ours.len(),
        "{context}: count_legal disagrees with legal_plies in {}",
        naive.fen()
    );
    assert_eq!(
        core.legal_plies().len(),
        ours.len(),
        "{context}: legal_plies lists a ply twice in {}",
        naive.fen()
    );
}

#[test]
fn random_games_agree_with_the_naive_generator_in_every_rule_set() {
    // What the games went through, so that the test shows it covers the rules it claims to.
    let mut seen = std::collections::BTreeSet::new();
    for (name, rules) in rule_sets() {
        let naive_rules = NaiveRules::from_rules(&rules);
        for game in 0..5 * scale() {
            let mut rng = Rng(0x5eed ^ (game << 32) ^ seed_of(&name));
            let mut core = Position::new(rules);
            let mut naive = NaivePos::start(naive_rules);
            for ply_number in 0..160 {
                let context = format!("{name}, game {game}, ply {ply_number}");
                assert_agree(&core, &naive, &context);
                if ply_number % 16 == 5 {
                    assert_eq!(perft(&core, 2), naive.perft(2), "{context}: perft 2");
                }
                let legal = naive.legal();
                if let Some((_, reason)) = naive.outcome() {
                    seen.insert(reason);
                }
                if legal.iter().any(|p| !p.remove.is_empty()) {
                    seen.insert("removal");
                }
                if legal.iter().any(|p| p.remove.len() > 1) {
                    seen.insert("double removal");
                }
                if core.can_fly(core.turn()) && legal.iter().any(|p| p.from.is_some()) {
                    seen.insert("flying");
                }
                if rules.place_or_move
                    && core.in_hand(core.turn()) > 0
                    && legal.iter().any(|p| p.from.is_some())
                {
                    seen.insert("moving with pieces in hand");
                }
                if legal.is_empty() {
                    break;
                }
                let ply = &legal[rng.below(legal.len())];
                let text = naive.text(ply);
                core = core
                    .play_text(&text)
                    .unwrap_or_else(|e| panic!("{context}: {text} refused: {e}"));
                naive = naive.play(ply);
            }
        }
    }
    let expected = [
        "removal",
        "double removal",
        "flying",
        "moving with pieces in hand",
        "fewer_than_three",
        "line",
    ];
    for feature in expected {
        assert!(seen.contains(feature), "no game saw {feature}: {seen:?}");
    }
}

#[test]
fn random_setups_agree_with_the_naive_generator_in_every_rule_set() {
    let mut checked = 0;
    let mut reasons = std::collections::BTreeSet::new();
    for (name, rules) in rule_sets() {
        let mut rng = Rng(0xfeed ^ seed_of(&name));
        let mut valid = 0;
        for attempt in 0..400 * scale() {
            let naive = random_setup(&rules, &mut rng);
            let core = match Position::from_fen(rules, &naive.fen()) {
                Ok(core) => core,
                Err(FenError::Invalid(_)) => continue,
                Err(e) => panic!("{name}: {} cannot be read: {e}", naive.fen()),
            };
            valid += 1;
            if let Some((_, reason)) = naive.outcome() {
                reasons.insert(reason);
            }
            let context = format!("{name}, setup {attempt}");
            assert_agree(&core, &naive, &context);
            if attempt % 8 == 0 {
                assert_eq!(perft(&core, 2), naive.perft(2), "{context}: perft 2");
            }
            // One ply further, to see positions right after a removal too.
            if let Some(ply) = naive.legal().first() {
                let next = naive.play(ply);
                let core_next = core.play_text(&naive.text(ply)).unwrap();
                assert_agree(&core_next, &next, &format!("{context}, after a ply"));
            }
        }
        assert!(
            valid >= 100,
            "{name}: only {valid} random setups were valid"
        );
        checked += valid;
    }
    assert!(checked > 2000);
    for reason in ["blocked", "fewer_than_three", "line"] {
        assert!(
            reasons.contains(reason),
            "no setup ended by {reason}: {reasons:?}"
        );
    }
}

#[test]
fn perft_from_every_start_agrees_with_the_naive_generator() {
    for (name, rules) in rule_sets() {
        let core = Position::new(rules);
        let naive = NaivePos::start(NaiveRules::from_rules(&rules));
        for depth in 0..=3 {
            assert_eq!(
                perft(&core, depth),
                naive.perft(depth),
                "{name}: perft {depth} from the start"
            );
        }
    }
}

#[test]
fn hand_made_positions_of_every_phase_agree_with_the_naive_generator() {
    // The positions of the perft file, and every position one ply after them.
    let mut checked = 0;
    for case in perft_cases() {
        let core = case.start();
        let naive = case.naive_start();
        let context = format!("perft.txt line {}", case.line);
        assert_agree(&core, &naive, &context);
        for ply in naive.legal() {
            let text = naive.text(&ply);
            let next = core.play_text(&text).unwrap();
            assert_agree(
                &next,
                &naive.play(&ply),
                &format!("{context}, after {text}"),
            );
            checked += 1;
        }
    }
    assert!(checked > 1000, "{checked}");
}
