//! Position strings, the project's own, Sanmill's and Malom's, under every variant: reading
//! never panics, a string that reads writes back to the same position in every format, and a
//! removal still owed completes into a position.

#![no_main]

use libfuzzer_sys::fuzz_target;
use morris_core::sanmill::{self, PendingRemoval};
use morris_core::{Position, Setup, malom};

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
        if let Ok(written) = sanmill::write(&pos) {
            assert_eq!(Position::from_fen(rules, &written), Ok(pos), "{written}");
        }
        if let Ok(written) = malom::write(&pos) {
            assert_eq!(malom::read(rules, &written), Ok(pos), "{written}");
        }
    }
    for pending in [
        PendingRemoval::from_fen(rules, text),
        malom::read_pending(rules, text),
    ]
    .into_iter()
    .flatten()
    {
        if let Ok(written) = pending.to_sanmill() {
            assert_eq!(PendingRemoval::from_fen(rules, &written), Ok(pending), "{written}");
        }
        for set in pending.legal_removals() {
            let after = pending.remove(set).expect("a listed removal is legal");
            common::check_position(&after);
        }
    }
    if let Ok(pos) = malom::read(rules, text) {
        common::check_position(&pos);
    }
});
