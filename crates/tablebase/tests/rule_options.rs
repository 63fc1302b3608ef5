//! Sectors with pieces in hand and the moving-phase sectors they lead to, built under each rule
//! that changes what a ply leads to, and every stored value checked again from the core's
//! forward move generation.

mod common;

use common::temp_dir;
use morris_core::{FullBoard, MillRemoval, Rules, Variant};
use morris_tablebase::{BuildOptions, Sector, Silent, Tablebase, build, verify};

fn builds_and_verifies(rules: Rules, sector: &str, name: &str) {
    let sector: Sector = sector.parse().unwrap();
    let dir = temp_dir(name);
    build(&BuildOptions::new(rules, &dir), &[sector], |_| {}).unwrap();
    let tb = Tablebase::new(&dir, rules);
    let built = tb.built_sectors();
    assert!(
        built.iter().any(|s| !s.is_moving()),
        "{name}: no placing sector"
    );
    assert!(verify(&tb, &built, &Silent).unwrap() > 0, "{name}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn both_phases_agree_with_forward_generation_under_each_removal_rule() {
    for (removal, name) in [
        (MillRemoval::UnlessAllInMills, "unless"),
        (MillRemoval::Always, "always"),
        (MillRemoval::Never, "never"),
    ] {
        let mut rules = Variant::Six.rules();
        rules.mill_removal = removal;
        builds_and_verifies(rules, "4-4-1-1", &format!("placing-{name}"));
    }
}

#[test]
fn both_phases_agree_with_forward_generation_when_the_board_fills() {
    // Eight pieces each fill the sixteen points of the small board.
    for (full, name) in [(FullBoard::Draw, "draw"), (FullBoard::Blocked, "blocked")] {
        let mut rules = Variant::Six.rules();
        rules.pieces = 8;
        rules.full_board = full;
        builds_and_verifies(rules, "7-7-1-1", &format!("placing-full-{name}"));
    }
}
