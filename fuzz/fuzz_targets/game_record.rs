//! Game records, the project's and Sanmill's: reading never panics, and a record that reads
//! writes a record that reads back to the same game, and writes the same text again.

#![no_main]

use libfuzzer_sys::fuzz_target;
use morris_core::GameRecord;

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
            // The writer names the variant but not other rule options: compare under the
            // variant's own rules.
            if *record.game.start().rules() == record.game.start().rules().variant.rules() {
                assert_eq!(again.game, record.game, "{written}");
            }
            assert_eq!(again.to_string(), written);
            common::check_position(record.game.position());
        }
        Err(e) => {
            let _ = e.to_string();
            let _ = e.is_illegal();
        }
    }
});
