//! The plies of a record as written, in each dialect players bring: the rule book's and
//! Sanmill's (`d6`, `f2-f4xd5`, `d5!xb4`, `d5/xb4`, `f2-f4 xd5`), PlayOK's numbers
//! (`10-1x23`) and GoldToken's words (`Place to d5, take b4`, `d6 -> f4`); with the result
//! written after them (`1-0`, `white win`, `draw`).
//!
//! One reader for every dialect, so that a notation rule (a removal written as its own token)
//! is written once.

use crate::board::Board;
use crate::color::Color;
use crate::record::{Lexer, RecordError, Token};

/// How the plies of a record are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// Point names, as the rule book and Sanmill write them.
    Names,
    /// PlayOK's numbers: the points 1 to 24 in the order of the position string.
    Numbers,
    /// GoldToken's words around point names.
    Words,
}

/// A result written after the plies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Written {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Whether the words say the loser resigned.
    pub resigned: bool,
    /// The text as written, for messages.
    pub text: &'static str,
}

/// The plies of a record as text, each with the offset of its first word.
#[derive(Debug, Default)]
pub(crate) struct MoveText {
    /// The plies in rule-book notation (`d6`, `f2-f4xd5`).
    pub plies: Vec<(usize, String)>,
    /// A removal written before any ply (`xd5`): the record starts from a position that owes
    /// it.
    pub leading_removal: Option<(usize, String)>,
    /// The result written after the plies, and where; `*` reads as no result.
    pub result: Option<(usize, Written)>,
    /// The offset just past the text read.
    pub end: usize,
}

/// The result tokens of PGN.
pub(crate) fn result_token(word: &str) -> Option<Option<Written>> {
    let written = |winner, text| {
        Some(Some(Written {
            winner,
            resigned: false,
            text,
        }))
    };
    match word {
        "1-0" => written(Some(Color::White), "1-0"),
        "0-1" => written(Some(Color::Black), "0-1"),
        "1/2-1/2" | "½-½" => written(None, "1/2-1/2"),
        "*" => Some(None),
        _ => None,
    }
}

/// The words Sanmill writes after the plies (`white win`, `black`, `draw`, `resign`).
fn is_result_word(word: &str) -> bool {
    matches!(
        word.to_ascii_lowercase().as_str(),
        "white"
            | "black"
            | "win"
            | "wins"
            | "won"
            | "lose"
            | "loses"
            | "lost"
            | "draw"
            | "drawn"
            | "resign"
            | "resigns"
            | "resigned"
    )
}

/// What result words mean: `draw` a draw; a colour with `win` wins, with `lose` or `resign`
/// loses; a colour alone names the winner; `win` or `resign` alone speaks of the side that
/// made the last ply or is to move, `last_mover`.
fn words_result(words: &[String], last_mover: Color) -> Written {
    let has = |w: &[&str]| words.iter().any(|x| w.contains(&x.as_str()));
    if has(&["draw", "drawn"]) {
        return Written {
            winner: None,
            resigned: false,
            text: "1/2-1/2",
        };
    }
    let colour = words.iter().find_map(|w| match w.as_str() {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    });
    let resigned = has(&["resign", "resigns", "resigned"]);
    let loses = resigned || has(&["lose", "loses", "lost"]);
    let winner = match (colour, loses) {
        (Some(c), false) => c,
        (Some(c), true) => !c,
        // `resign` alone: the side to move gave up; `win` alone: the side that moved won.
        (None, true) => last_mover,
        (None, false) => last_mover,
    };
    Written {
        winner: Some(winner),
        resigned,
        text: match winner {
            Color::White => "1-0",
            Color::Black => "0-1",
        },
    }
}

/// Strips a move number (`12.`, `12...`) from the front of a word.
fn strip_move_number(word: &str) -> &str {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && word[digits..].starts_with('.') {
        word[digits..].trim_start_matches('.')
    } else {
        word
    }
}

/// A word with its quality marks (`!`, `?`, `!?`, also glued before a removal, `d5!xb4`) and
/// check-like marks removed, and Sanmill's removal forms (`d5/xb4`, `d5-/xb4`) folded.
fn clean(word: &str) -> String {
    let bare: String = word
        .chars()
        .filter(|c| !matches!(c, '!' | '?' | '+' | '#'))
        .collect();
    bare.replace("-/x", "x")
        .replace("-/X", "x")
        .replace("/x", "x")
        .replace("/X", "x")
}

/// A PlayOK ply (`5`, `10-1`, `10-1x23`, `x23`) in point names.
fn numbers_to_names(word: &str, board: &Board) -> Option<String> {
    let name = |n: &str| -> Option<String> {
        let i: usize = n.parse().ok()?;
        let p = board.points().nth(i.checked_sub(1)?)?;
        Some(board.square(p).to_string())
    };
    let mut parts = word.split(['x', 'X']);
    let head = parts.next()?;
    let mut out = String::new();
    if !head.is_empty() {
        match head.split_once('-') {
            Some((from, to)) => {
                out.push_str(&name(from)?);
                out.push('-');
                out.push_str(&name(to)?);
            }
            None => out.push_str(&name(head)?),
        }
    }
    for r in parts {
        out.push('x');
        out.push_str(&name(r)?);
    }
    Some(out)
}

/// Reads the plies and the result after the tags. `first` is a word the caller already took
/// from the lexer. `first_mover` is the side to move at the start, which result words that
/// name no side need.
pub(crate) fn read(
    lexer: &mut Lexer<'_>,
    first: Option<(usize, &str)>,
    dialect: Dialect,
    board: &Board,
    first_mover: Color,
) -> Result<MoveText, RecordError> {
    let mut out = MoveText::default();
    let mut pending = first;
    // GoldToken: the next ply word continues the last ply (`d6 -> f4`), or is its removal
    // (`d5, take b4`).
    let mut join_move = false;
    let mut join_take = false;
    let mut result_words: Vec<String> = Vec::new();
    let mut result_at = 0;
    loop {
        let next = match pending.take() {
            Some(w) => Some(w),
            None => match lexer.next()? {
                Some((o, Token::Word(w))) => Some((o, w)),
                Some((o, Token::Tag(..))) => return Err(lexer.error(o, "a tag after the moves")),
                None => None,
            },
        };
        let Some((offset, word)) = next else { break };
        if !result_words.is_empty() {
            if is_result_word(word) {
                result_words.push(word.to_ascii_lowercase());
                continue;
            }
            return Err(lexer.error(offset, "text after the result"));
        }
        if let Some(r) = result_token(word) {
            out.result = r.map(|r| (offset, r));
            if let Some((o, _)) = lexer.next()? {
                return Err(lexer.error(o, "text after the result"));
            }
            break;
        }
        if dialect == Dialect::Names && is_result_word(word) {
            result_words.push(word.to_ascii_lowercase());
            result_at = offset;
            continue;
        }
        if dialect == Dialect::Words {
            if word.bytes().all(|b| b.is_ascii_digit()) {
                continue;
            }
            if word.eq_ignore_ascii_case("place") {
                match lexer.next()? {
                    Some((_, Token::Word(w))) if w.eq_ignore_ascii_case("to") => continue,
                    _ => return Err(lexer.error(offset, "'Place' must be followed by 'to'")),
                }
            }
            if word == "->" {
                if out.plies.is_empty() {
                    return Err(lexer.error(offset, "'->' follows no point"));
                }
                join_move = true;
                continue;
            }
            if word.eq_ignore_ascii_case("take") {
                if !join_take {
                    return Err(lexer.error(offset, "'take' follows no ply"));
                }
                continue;
            }
        }
        let stripped = strip_move_number(word);
        let mut text = clean(stripped);
        let mut takes = false;
        if dialect == Dialect::Words && text.ends_with(',') {
            text.pop();
            takes = true;
        }
        if text.is_empty() {
            continue;
        }
        if dialect == Dialect::Numbers {
            text = numbers_to_names(&text, board).ok_or_else(|| {
                lexer.error(
                    offset,
                    format!(
                        "'{}' is not a PlayOK ply: points are numbered 1 to {}",
                        word.chars().take(24).collect::<String>(),
                        board.len()
                    ),
                )
            })?;
        }
        if join_move {
            join_move = false;
            if let Some((_, last)) = out.plies.last_mut() {
                last.push('-');
                last.push_str(&text);
            }
        } else if join_take || text.starts_with(['x', 'X']) {
            let removal = if join_take && !text.starts_with(['x', 'X']) {
                format!("x{text}")
            } else {
                text
            };
            match out.plies.last_mut() {
                Some((_, last)) => last.push_str(&removal),
                None if out.leading_removal.is_none() => {
                    out.leading_removal = Some((offset, removal));
                }
                None => return Err(lexer.error(offset, "a second removal before any ply")),
            }
        } else {
            out.plies.push((offset, text));
        }
        join_take = takes;
    }
    if !result_words.is_empty() {
        let movers = out.plies.len();
        let last_mover = if movers % 2 == 1 {
            first_mover
        } else {
            !first_mover
        };
        out.result = Some((result_at, words_result(&result_words, last_mover)));
    }
    out.end = lexer.pos;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_words_name_the_winner() {
        let w = |words: &[&str]| {
            let words: Vec<String> = words.iter().map(|s| s.to_string()).collect();
            words_result(&words, Color::White).winner
        };
        assert_eq!(w(&["white", "win"]), Some(Color::White));
        assert_eq!(w(&["black"]), Some(Color::Black));
        assert_eq!(w(&["black", "resign"]), Some(Color::White));
        assert_eq!(w(&["draw"]), None);
        assert_eq!(w(&["resign"]), Some(Color::White));
    }

    #[test]
    fn quality_marks_and_slashed_removals_fold_into_the_ply() {
        for (word, ply) in [
            ("d5!xb4", "d5xb4"),
            ("d5/xb4", "d5xb4"),
            ("d5-/xb4", "d5xb4"),
            ("a1-a4?!xb2", "a1-a4xb2"),
            ("d6!!", "d6"),
        ] {
            assert_eq!(clean(word), ply, "{word}");
        }
    }

    #[test]
    fn playok_numbers_follow_the_position_string_order() {
        let board = crate::Variant::Nine.board();
        assert_eq!(
            numbers_to_names("10-1x23", board).as_deref(),
            Some("a4-a7xd1")
        );
        assert_eq!(numbers_to_names("5", board).as_deref(), Some("d6"));
        assert_eq!(numbers_to_names("x24", board).as_deref(), Some("xg1"));
        assert_eq!(numbers_to_names("25", board), None);
        assert_eq!(numbers_to_names("0", board), None);
        assert_eq!(numbers_to_names("1-", board), None);
    }
}
