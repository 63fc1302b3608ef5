//! Position strings, the project's own and Sanmill's, under every variant: reading never
//! panics, and a string that reads writes back to itself and to the same position.

#![no_main]

use libfuzzer_sys::fuzz_target;
use morris_core::{Position, Setup};

mod common;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let rules = common::rules(first);
    if let Ok(setup) = Setup::from_fen(rules, text) {
        let problems = setup.problems();
        let checked = setup.into_position();
        assert_eq!(checked.is_ok(), problems.is_empty());
    }
    if let Ok(pos) = Position::from_fen(rules, text) {
        common::check_position(&pos);
    }
});
