//! Game records and the other formats players bring: reading never panics; a record that reads
//! writes a record that reads back to the same game, and writes the same text again; every game
//! an import reads, written in every format morris writes, imports back as the same game.

#![no_main]

use libfuzzer_sys::fuzz_target;
use morris_core::sanmill::{self, PendingRemoval};
use morris_core::{GameRecord, export, import, malom};

mod common;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let rules = common::rules(first);
    match GameRecord::parse_with(text, rules) {
        Ok(record) => {
            let written = record.to_string();
            let again = GameRecord::parse_with(&written, rules)
                .unwrap_or_else(|e| panic!("a written record does not read back: {e}\n{written}"));
            // The writer names the variant and every rule option that differs from it.
            assert_eq!(again.game, record.game, "{written}");
            assert_eq!(again.to_string(), written);
            common::check_position(record.game.position());
        }
        Err(e) => {
            let _ = e.to_string();
            let _ = e.is_illegal();
        }
    }
    for imported in import::read_games(text, rules) {
        let imported = match imported {
            Ok(g) => g,
            Err(e) => {
                let _ = e.to_string();
                continue;
            }
        };
        for w in &imported.warnings {
            let _ = w.to_string();
        }
        let record = &imported.record;
        let mut texts = vec![record.to_string()];
        texts.extend(export::sanmill_record(record).ok());
        texts.extend(export::playok_record(record).ok());
        for written in texts {
            let back = import::read_game(&written, rules)
                .unwrap_or_else(|e| panic!("a written game does not import back: {e}\n{written}"));
            assert_eq!(back.record.game, record.game, "{written}");
        }
        common::check_position(record.game.position());
    }
    // The position readers of other programs, on the same text.
    let _ = sanmill::read(rules, text).map(|r| r.setup.problems());
    if let Ok(pending) = PendingRemoval::from_fen(rules, text) {
        for set in pending.legal_removals() {
            let after = pending.remove(set).expect("a listed removal is legal");
            common::check_position(&after);
        }
        let _ = pending.to_sanmill();
    }
    if let Ok(pos) = malom::read(rules, text) {
        let written = malom::write(&pos).expect("a Malom position has 24 points");
        assert_eq!(malom::read(rules, &written), Ok(pos), "{written}");
    }
});
