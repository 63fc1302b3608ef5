//! Engine protocol lines: reading a command never panics, whatever the bytes, and a position
//! it reads is sound (as the position-string target checks); and a whole
//! session of them — searches included, each ended by the end of the input at once — runs
//! to its end without a panic.
//!
//! The input: a byte for the rules of `position` commands, then the lines.

#![no_main]

use std::io::Cursor;

use libfuzzer_sys::fuzz_target;
use morris_engine::{Command, run_protocol};

mod common;

/// Lines of a session at most: every `go` in it starts a search.
const SESSION_LINES: usize = 32;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let rules = common::rules(first);
    let text = String::from_utf8_lossy(rest);
    for line in text.split('\n') {
        match Command::parse(line, rules) {
            Ok(Command::Position(game)) => {
                let pos = game.position();
                assert!(
                    game.outcome().is_some()
                        || !game.legal_plies().is_empty()
                        || pos.outcome().is_some()
                );
            }
            Ok(_) => {}
            Err(e) => {
                let message = e.to_string();
                assert!(!message.is_empty());
            }
        }
    }
    // A session: a small table, one thread and no tablebases, so that a run stays cheap;
    // lines that would change those are left out.
    let mut session = b"setoption name Hash value 1\n".to_vec();
    for line in rest.split(|&b| b == b'\n').take(SESSION_LINES) {
        let lower = String::from_utf8_lossy(line).to_ascii_lowercase();
        if ["hash", "thread", "tablebase"]
            .iter()
            .any(|w| lower.contains(w))
        {
            continue;
        }
        session.extend_from_slice(line);
        session.push(b'\n');
    }
    run_protocol(
        Cursor::new(session),
        std::io::sink(),
        Box::new(|_| Err("no tablebases while fuzzing".into())),
    );
});
