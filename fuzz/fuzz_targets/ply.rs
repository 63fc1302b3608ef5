//! Plies in notation: reading never panics; a ply that reads writes back the same; a ply that
//! is legal in a position is one of its legal plies and plays.
//!
//! The input: a byte for the rules, a byte for how many plies to play from the start (each
//! chosen by a further byte), then the text of the ply.

#![no_main]

use libfuzzer_sys::fuzz_target;
use morris_core::{PlyText, Position};

mod common;

fuzz_target!(|data: &[u8]| {
    let [first, count, rest @ ..] = data else {
        return;
    };
    let rules = common::rules(*first);
    let count = usize::from(*count % 32).min(rest.len());
    let (choices, text) = rest.split_at(count);
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    let mut pos = Position::new(rules);
    for &c in choices {
        let plies = pos.legal_plies();
        if plies.is_empty() {
            break;
        }
        pos.play_unchecked(plies[usize::from(c) % plies.len()]);
    }
    if let Ok(parsed) = text.parse::<PlyText>() {
        let written = parsed.to_string();
        assert_eq!(written.parse::<PlyText>().ok(), Some(parsed.clone()));
        assert!(
            written.eq_ignore_ascii_case(text),
            "{written} from {text:?}"
        );
    }
    match pos.parse_ply(text) {
        Ok(ply) => {
            assert!(pos.is_legal(ply));
            assert!(pos.legal_plies().contains(&ply));
            let written = ply.display(pos.board()).to_string();
            assert_eq!(pos.parse_ply(&written).ok(), Some(ply));
            let next = pos.play(ply).expect("a legal ply plays");
            common::check_position(&next);
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
});
