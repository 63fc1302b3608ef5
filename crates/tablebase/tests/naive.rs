//! The tables against a naive forward solver, on sectors small enough for a test.

mod common;

use common::{Naive, all_positions, temp_dir};
use morris_core::{Position, Variant};
use morris_tablebase::{BuildOptions, Sector, Tablebase, Value, build, verify};

fn check_sectors(variant: Variant, sectors: &[Sector], name: &str) {
    let rules = variant.rules();
    let dir = temp_dir(name);
    build(&BuildOptions::new(rules, &dir), sectors, |_| {}).unwrap();
    let tb = Tablebase::new(&dir, rules);
    let roots: Vec<Position> = sectors
        .iter()
        .flat_map(|&s| all_positions(&rules, s))
        .collect();
    let naive = Naive::solve(&roots);
    for pos in &roots {
        assert_eq!(tb.probe(pos).unwrap(), naive.value(pos), "{variant} {pos}");
    }
    let built = tb.built_sectors();
    assert!(verify(&tb, &built, &morris_tablebase::Silent).unwrap() > 0);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn three_moving_phase_agrees() {
    check_sectors(Variant::Three, &[Sector::moving(3, 3)], "three33");
}

#[test]
fn six_moving_sectors_agree() {
    check_sectors(
        Variant::Six,
        &[Sector::moving(4, 3), Sector::moving(3, 3)],
        "six43",
    );
}

#[test]
fn six_placing_sectors_agree() {
    // Late in the placing phase: one piece each still in hand.
    let s: Sector = "4-4-1-1".parse().unwrap();
    check_sectors(Variant::Six, &[s], "six4411");
}

#[test]
fn three_whole_game_agrees_and_the_first_player_wins() {
    let rules = Variant::Three.rules();
    let dir = temp_dir("three-game");
    build(
        &BuildOptions::new(rules, &dir),
        &[Sector::start(&rules)],
        |_| {},
    )
    .unwrap();
    let tb = Tablebase::new(&dir, rules);
    let start = Position::new(rules);
    let naive = Naive::solve(&[start]);
    assert!(naive.len() > 300, "{}", naive.len());
    let mut todo = vec![start];
    let mut seen = std::collections::HashSet::new();
    while let Some(pos) = todo.pop() {
        // The counters grow along cycles: the first four fields name the position.
        let name: Vec<String> = pos
            .to_string()
            .split(' ')
            .take(4)
            .map(String::from)
            .collect();
        if !seen.insert(name) {
            continue;
        }
        assert_eq!(tb.probe(&pos).unwrap(), naive.value(&pos), "{pos}");
        for ply in pos.legal_plies() {
            let mut c = pos;
            c.play_unchecked(ply);
            todo.push(c);
        }
    }
    assert!(matches!(tb.probe(&start).unwrap(), Value::Win(_)));
    std::fs::remove_dir_all(&dir).ok();
}

/// Nine Men's Morris 3-3 against the naive solver: about a minute in the test profile.
/// `cargo test -p morris-tablebase --test naive -- --ignored`
#[test]
#[ignore]
fn nine_3_3_agrees() {
    check_sectors(Variant::Nine, &[Sector::moving(3, 3)], "nine33-naive");
}
