//! The perft counts of `tests/perft.txt`, for the library's generator and the naive one.
//!
//! Cases above a node limit are skipped so that the suite stays quick; set `MORRIS_PERFT_ALL=1`
//! to run them all (the library takes seconds, the naive generator minutes).

mod common;

use common::{Case, perft_cases as cases};
use morris_core::perft;

/// Cases with more nodes than this are skipped unless `MORRIS_PERFT_ALL` is set.
const NODE_LIMIT: u64 = 3_000_000;
/// The naive generator is slower: its cases are smaller.
const NAIVE_NODE_LIMIT: u64 = 200_000;

fn run_all() -> bool {
    std::env::var_os("MORRIS_PERFT_ALL").is_some_and(|v| v != "0")
}

#[test]
fn perft_file_counts_match_the_library() {
    let cases = cases();
    assert!(cases.len() > 80, "the file has {} cases", cases.len());
    let mut run = 0;
    for case in &cases {
        if case.count > NODE_LIMIT && !run_all() {
            continue;
        }
        assert_eq!(
            perft(&case.start(), case.depth),
            case.count,
            "perft.txt line {}: {} {} depth {}",
            case.line,
            case.rules_name,
            case.position,
            case.depth
        );
        run += 1;
    }
    assert!(run >= 90, "only {run} cases ran");
}

#[test]
fn perft_file_counts_match_the_naive_generator() {
    let mut run = 0;
    for case in cases() {
        if case.count > NAIVE_NODE_LIMIT && !run_all() {
            continue;
        }
        assert_eq!(
            case.naive_start().perft(case.depth),
            case.count,
            "perft.txt line {}: {} {} depth {}",
            case.line,
            case.rules_name,
            case.position,
            case.depth
        );
        run += 1;
    }
    assert!(run >= 60, "only {run} cases ran");
}

#[test]
fn every_variant_and_phase_has_perft_cases() {
    let cases = cases();
    for variant in morris_core::Variant::ALL {
        let of_variant: Vec<&Case> = cases
            .iter()
            .filter(|c| c.rules_name == variant.name())
            .collect();
        let start = of_variant.iter().any(|c| c.position == "start");
        let placing = of_variant.iter().any(|c| {
            let p = c.start();
            c.position != "start" && p.in_hand(p.turn()) > 0
        });
        let moving = of_variant
            .iter()
            .any(|c| c.start().in_hand(morris_core::Color::White) == 0);
        assert!(start && placing && moving, "{variant}: a phase has no case");
    }
}
