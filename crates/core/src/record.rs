//! Game records in the shape of chess PGN: tag pairs, then numbered plies and the result.
//!
//! ```text
//! [Variant "nine"]
//! [Result "1-0"]
//! [Termination "blocked"]
//!
//! 1. d6 f4 2. d2 b4 3. f6xf4 ... 1-0
//! ```
//!
//! The reader also takes the records Sanmill exports: `{comments}`, `;` comments, `$n`
//! annotations, `(variations)` (skipped), removals written as their own token (`f2-f4 xd5`),
//! and Sanmill's position strings in the `FEN` tag.

use std::fmt::{self, Write as _};

use crate::fen::FenError;
use crate::game::Game;
use crate::outcome::{Outcome, Reason};
use crate::position::{Position, TextPlyError};
use crate::variant::{ParseVariantError, Rules, Variant};

/// A game read from a record, with its tags.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    /// The tag pairs in the order read, `Variant`, `FEN` and `Result` included.
    pub tags: Vec<(String, String)>,
    /// The game.
    pub game: Game,
}

/// Where in a record an error is: line and column, both from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Location {
    /// The line, from 1.
    pub line: usize,
    /// The column in characters, from 1.
    pub column: usize,
}

/// What is wrong with a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordErrorKind {
    /// The text does not have the form of a record here.
    Syntax(String),
    /// The `Variant` tag names no variant.
    Variant(ParseVariantError),
    /// The `FEN` tag is not a position.
    Fen(FenError),
    /// A ply cannot be read, or is not legal in the game at that point.
    Ply {
        /// The number of the ply in the game, from 1.
        number: usize,
        /// The error.
        error: TextPlyError,
    },
    /// A ply follows the end of the game.
    AfterEnd {
        /// The number of the ply in the game, from 1.
        number: usize,
        /// How the game had ended.
        outcome: Outcome,
    },
}

/// The error of reading a record: what is wrong, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordError {
    /// Where.
    pub at: Location,
    /// What.
    pub kind: RecordErrorKind,
}

impl RecordError {
    /// Whether the record could be read but holds an illegal ply (rather than being unreadable).
    pub fn is_illegal(&self) -> bool {
        matches!(
            self.kind,
            RecordErrorKind::Ply {
                error: TextPlyError::Illegal { .. },
                ..
            } | RecordErrorKind::AfterEnd { .. }
                | RecordErrorKind::Fen(FenError::Invalid(_))
        )
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: ", self.at.line, self.at.column)?;
        match &self.kind {
            RecordErrorKind::Syntax(m) => write!(f, "{m}"),
            RecordErrorKind::Variant(e) => write!(f, "{e}"),
            RecordErrorKind::Fen(e) => write!(f, "{e}"),
            RecordErrorKind::Ply { number, error } => write!(f, "ply {number}: {error}"),
            RecordErrorKind::AfterEnd { number, outcome } => write!(
                f,
                "ply {number} follows the end of the game ({})",
                outcome.describe()
            ),
        }
    }
}

impl std::error::Error for RecordError {}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token<'a> {
    Tag(String, String),
    Word(&'a str),
}

struct Lexer<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Lexer<'a> {
    fn location(&self, offset: usize) -> Location {
        let before = &self.text[..offset];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        Location { line, column }
    }

    fn error(&self, offset: usize, message: impl Into<String>) -> RecordError {
        RecordError {
            at: self.location(offset),
            kind: RecordErrorKind::Syntax(message.into()),
        }
    }

    /// The next token and its offset, skipping space, comments, annotations and variations.
    fn next(&mut self) -> Result<Option<(usize, Token<'a>)>, RecordError> {
        let bytes = self.text.as_bytes();
        loop {
            while self.pos < bytes.len() && bytes[self.pos].is_ascii_whitespace() {
                self.pos += 1;
            }
            let start = self.pos;
            let Some(&b) = bytes.get(start) else {
                return Ok(None);
            };
            match b {
                b'{' => match self.text[start..].find('}') {
                    Some(end) => self.pos = start + end + 1,
                    None => return Err(self.error(start, "a comment '{' is never closed")),
                },
                b';' => {
                    self.pos = self.text[start..]
                        .find('\n')
                        .map_or(bytes.len(), |e| start + e);
                }
                b'%' if start == 0 || bytes[start - 1] == b'\n' => {
                    self.pos = self.text[start..]
                        .find('\n')
                        .map_or(bytes.len(), |e| start + e);
                }
                b'(' => {
                    let mut depth = 0usize;
                    let mut i = start;
                    while i < bytes.len() {
                        match bytes[i] {
                            b'(' => depth += 1,
                            b')' => {
                                depth -= 1;
                                if depth == 0 {
                                    break;
                                }
                            }
                            b'{' => {
                                if let Some(end) = self.text[i..].find('}') {
                                    i += end;
                                }
                            }
                            _ => {}
                        }
                        i += 1;
                    }
                    if depth != 0 {
                        return Err(self.error(start, "a variation '(' is never closed"));
                    }
                    self.pos = i + 1;
                }
                b')' => return Err(self.error(start, "')' closes no variation")),
                b'}' => return Err(self.error(start, "'}' closes no comment")),
                b'$' => {
                    self.pos += 1;
                    while self.pos < bytes.len() && bytes[self.pos].is_ascii_digit() {
                        self.pos += 1;
                    }
                }
                b'[' => return self.tag(start).map(Some),
                _ => {
                    while self.pos < bytes.len()
                        && !bytes[self.pos].is_ascii_whitespace()
                        && !matches!(bytes[self.pos], b'{' | b'(' | b')' | b'[' | b';' | b'$')
                    {
                        self.pos += 1;
                    }
                    return Ok(Some((start, Token::Word(&self.text[start..self.pos]))));
                }
            }
        }
    }

    fn tag(&mut self, start: usize) -> Result<(usize, Token<'a>), RecordError> {
        let rest = &self.text[start + 1..];
        let name_len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if name_len == 0 {
            return Err(self.error(start, "a tag must have a name, as in [Variant \"nine\"]"));
        }
        let name = rest[..name_len].to_string();
        let after = rest[name_len..].trim_start();
        let mut value = String::new();
        let mut chars = after.char_indices();
        if !after.starts_with('"') {
            return Err(self.error(start, format!("tag {name} needs a value in quotes")));
        }
        chars.next();
        let mut end = None;
        while let Some((i, c)) = chars.next() {
            match c {
                '\\' => {
                    if let Some((_, e)) = chars.next() {
                        value.push(e);
                    }
                }
                '"' => {
                    end = Some(i);
                    break;
                }
                '\n' => break,
                c => value.push(c),
            }
        }
        let Some(end) = end else {
            return Err(self.error(start, format!("the value of tag {name} is never closed")));
        };
        let tail = &after[end + 1..];
        let close = tail.trim_start();
        if !close.starts_with(']') {
            return Err(self.error(start, format!("tag {name} is not closed with ']'")));
        }
        let consumed = self.text.len() - close.len() + 1;
        self.pos = consumed;
        Ok((start, Token::Tag(name, value)))
    }
}

fn result_token(word: &str) -> Option<Option<&'static str>> {
    match word {
        "1-0" => Some(Some("1-0")),
        "0-1" => Some(Some("0-1")),
        "1/2-1/2" | "½-½" => Some(Some("1/2-1/2")),
        "*" => Some(None),
        _ => None,
    }
}

/// The symbols of move annotations (`!`, `?`, `!?`, …), skipped when they stand alone.
const ANNOTATION: [char; 2] = ['!', '?'];

/// Strips a move number (`12.`, `12...`) from the front of a word.
fn strip_move_number(word: &str) -> &str {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && word[digits..].starts_with('.') {
        word[digits..].trim_start_matches('.')
    } else {
        word
    }
}

impl GameRecord {
    /// Reads a record. Without a `Variant` tag the game is `nine`.
    ///
    /// # Errors
    ///
    /// A [`RecordError`] with the line and column, which tells a record that cannot be read
    /// from one with an illegal ply ([`RecordError::is_illegal`]).
    pub fn parse(text: &str) -> Result<GameRecord, RecordError> {
        GameRecord::parse_with(text, Variant::Nine.rules())
    }

    /// Reads a record; without a `Variant` tag the game is played under `default_rules`.
    ///
    /// # Errors
    ///
    /// As [`GameRecord::parse`].
    pub fn parse_with(text: &str, default_rules: Rules) -> Result<GameRecord, RecordError> {
        let mut lexer = Lexer { text, pos: 0 };
        let mut tags = Vec::new();
        let mut pending = None;
        while let Some((offset, token)) = lexer.next()? {
            match token {
                Token::Tag(name, value) => tags.push((offset, name, value)),
                Token::Word(w) => {
                    pending = Some((offset, w));
                    break;
                }
            }
        }
        let find = |name: &str| {
            tags.iter()
                .find(|(_, n, _)| n.eq_ignore_ascii_case(name))
                .map(|(o, _, v)| (*o, v.as_str()))
        };
        let rules = match find("Variant") {
            Some((offset, v)) => {
                v.parse::<Variant>()
                    .map(Variant::rules)
                    .map_err(|e| RecordError {
                        at: lexer.location(offset),
                        kind: RecordErrorKind::Variant(e),
                    })?
            }
            None => default_rules,
        };
        let start = match find("FEN") {
            Some((offset, fen)) => Position::from_fen(rules, fen).map_err(|e| RecordError {
                at: lexer.location(offset),
                kind: RecordErrorKind::Fen(e),
            })?,
            None => Position::new(rules),
        };
        let mut game = Game::new(start);
        let mut result = None;
        let mut words: Vec<(usize, &str)> = Vec::new();
        if let Some(p) = pending {
            words.push(p);
        }
        loop {
            let next = match words.pop() {
                Some(w) => Some(w),
                None => match lexer.next()? {
                    Some((o, Token::Word(w))) => Some((o, w)),
                    Some((o, Token::Tag(..))) => {
                        return Err(lexer.error(o, "a tag after the moves"));
                    }
                    None => None,
                },
            };
            let Some((offset, word)) = next else { break };
            if let Some(r) = result_token(word) {
                result = Some(r);
                if let Some((o, _)) = lexer.next()? {
                    return Err(lexer.error(o, "text after the result"));
                }
                break;
            }
            // Annotation symbols may stand alone, as Sanmill writes them (`d6 !?`).
            let word = strip_move_number(word).trim_start_matches(ANNOTATION);
            if word.is_empty() {
                continue;
            }
            let mut ply_text = word.trim_end_matches(['!', '?', '+', '#']).to_string();
            // A removal written as its own token belongs to the ply before it.
            loop {
                match lexer.next()? {
                    Some((_, Token::Word(w))) if w.trim_start_matches(ANNOTATION).is_empty() => {}
                    Some((o, Token::Word(w))) => {
                        let w = w.trim_start_matches(ANNOTATION);
                        let bare = w.trim_end_matches(['!', '?', '+', '#']);
                        if bare.len() == 3 && bare.starts_with(['x', 'X']) {
                            ply_text.push_str(bare);
                        } else {
                            words.push((o, w));
                            break;
                        }
                    }
                    Some((o, Token::Tag(..))) => {
                        return Err(lexer.error(o, "a tag after the moves"));
                    }
                    None => break,
                }
            }
            let number = game.plies().len() + 1;
            if let Some(outcome) = game.outcome() {
                return Err(RecordError {
                    at: lexer.location(offset),
                    kind: RecordErrorKind::AfterEnd { number, outcome },
                });
            }
            let pos = *game.position();
            let ply = pos.parse_ply(&ply_text).map_err(|error| RecordError {
                at: lexer.location(offset),
                kind: RecordErrorKind::Ply { number, error },
            })?;
            game.play(ply).map_err(|_| RecordError {
                at: lexer.location(offset),
                kind: RecordErrorKind::Syntax(format!("ply {number} cannot be played")),
            })?;
        }
        let result = result
            .flatten()
            .or_else(|| find("Result").and_then(|(_, v)| result_token(v).flatten()));
        if game.outcome().is_none() {
            if let Some(result) = result {
                let reason = find("Termination").and_then(|(_, v)| Reason::from_name(v));
                let ended = match result {
                    "1-0" => {
                        Outcome::win(crate::Color::White, reason.unwrap_or(Reason::Resignation))
                    }
                    "0-1" => {
                        Outcome::win(crate::Color::Black, reason.unwrap_or(Reason::Resignation))
                    }
                    _ => Outcome::draw(reason.unwrap_or(Reason::Agreement)),
                };
                game.set_ended(Some(ended));
            }
        }
        Ok(GameRecord {
            tags: tags.into_iter().map(|(_, n, v)| (n, v)).collect(),
            game,
        })
    }

    /// A record of a game with no tags of its own.
    pub fn new(game: Game) -> GameRecord {
        GameRecord {
            tags: Vec::new(),
            game,
        }
    }

    /// The value of a tag, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

fn escape(value: &str) -> String {
    value
        .chars()
        .filter(|c| *c != '\n' && *c != '\r')
        .flat_map(|c| match c {
            '"' | '\\' => vec!['\\', c],
            c => vec![c],
        })
        .collect()
}

impl fmt::Display for GameRecord {
    /// Writes the record: the tags given (less those computed here), then `Variant`, `SetUp`
    /// and `FEN` for a game that does not start from the start, `Result` and `Termination`,
    /// then the plies, numbered, at most about 80 characters a line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let game = &self.game;
        let start = game.start();
        let outcome = game.outcome();
        let result = outcome.map_or("*", |o| o.result());
        let computed = ["Variant", "SetUp", "FEN", "Result", "Termination"];
        for (name, value) in &self.tags {
            if !computed.iter().any(|c| c.eq_ignore_ascii_case(name)) {
                writeln!(f, "[{name} \"{}\"]", escape(value))?;
            }
        }
        writeln!(f, "[Variant \"{}\"]", start.rules().variant)?;
        if *start != Position::new(*start.rules()) {
            writeln!(f, "[SetUp \"1\"]")?;
            writeln!(f, "[FEN \"{start}\"]")?;
        }
        writeln!(f, "[Result \"{result}\"]")?;
        if let Some(o) = outcome {
            writeln!(f, "[Termination \"{}\"]", o.reason.name())?;
        }
        writeln!(f)?;
        let mut line = String::new();
        let mut push = |f: &mut fmt::Formatter<'_>, word: &str| -> fmt::Result {
            if !line.is_empty() && line.len() + 1 + word.len() > 80 {
                writeln!(f, "{line}")?;
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
            Ok(())
        };
        let board = start.board();
        for (pos, ply) in game.positions().iter().zip(game.plies()) {
            let mut word = String::new();
            if pos.turn() == crate::Color::White {
                let _ = write!(word, "{}. ", pos.move_number());
            } else if std::ptr::eq(pos, start) {
                let _ = write!(word, "{}... ", pos.move_number());
            }
            let _ = write!(word, "{}", ply.display(board));
            push(f, &word)?;
        }
        push(f, result)?;
        writeln!(f, "{line}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_sanmill_style_record_with_comments_and_variations() {
        let text = "[Event \"Club\"]\n[White \"A\"]\n\n1. d6 {a comment} f4 $1 2. d2 (2. a1 d7) b4\n3. d7 b6 4. d5 xb4?! *";
        let record = GameRecord::parse(text).unwrap();
        assert_eq!(
            record.game.ply_texts(),
            ["d6", "f4", "d2", "b4", "d7", "b6", "d5xb4"]
        );
        assert_eq!(record.tag("White"), Some("A"));
    }

    #[test]
    fn round_trips_a_record_with_a_start_position() {
        let rules = Variant::Nine.rules();
        let start = Position::from_fen(rules, ".../.W./.../....B./.../.../... b 8 9 0 1");
        assert!(start.is_err(), "hands do not alternate");
        let start = Position::from_fen(rules, ".../.W./.../....../.../.../... b 8 9 0 1").unwrap();
        let mut game = Game::new(start);
        game.play_text("f4").unwrap();
        game.play_text("d2").unwrap();
        let text = GameRecord::new(game.clone()).to_string();
        assert!(text.contains("1... f4 2. d2 *"), "{text}");
        assert_eq!(GameRecord::parse(&text).unwrap().game, game);
    }

    #[test]
    fn tells_unreadable_from_illegal() {
        let e = GameRecord::parse("1. d6 d6").unwrap_err();
        assert!(e.is_illegal());
        assert_eq!(e.at, Location { line: 1, column: 7 });
        let e = GameRecord::parse("1. d6 {open").unwrap_err();
        assert!(!e.is_illegal());
        let e = GameRecord::parse("1. d6 zz").unwrap_err();
        assert!(!e.is_illegal(), "{e}");
    }
}
