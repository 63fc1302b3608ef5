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
use crate::movetext::{self, Dialect, MoveText, Written, result_token};
use crate::outcome::{Outcome, Reason};
use crate::position::{Position, TextPlyError};
use crate::variant::{ParseVariantError, Rules, RulesError, Variant};

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
    /// A rule option tag does not fit, or the options do not fit together.
    Rules(RulesError),
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
            RecordErrorKind::Rules(e) => write!(f, "{e}"),
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

/// A token of a record: a tag pair or a word of the move text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Token<'a> {
    Tag(String, String),
    Word(&'a str),
}

/// Splits a record into tags and words, skipping space, comments, annotations and variations.
#[derive(Debug)]
pub(crate) struct Lexer<'a> {
    pub(crate) text: &'a str,
    pub(crate) pos: usize,
}

impl<'a> Lexer<'a> {
    pub(crate) fn location(&self, offset: usize) -> Location {
        let before = &self.text[..offset];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        Location { line, column }
    }

    pub(crate) fn error(&self, offset: usize, message: impl Into<String>) -> RecordError {
        RecordError {
            at: self.location(offset),
            kind: RecordErrorKind::Syntax(message.into()),
        }
    }

    /// The next token and its offset, skipping space, comments, annotations and variations.
    pub(crate) fn next(&mut self) -> Result<Option<(usize, Token<'a>)>, RecordError> {
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
                b'(' if is_coordinate(&bytes[start..]) => {
                    return Err(self.error(
                        start,
                        "engine coordinates such as (2,4) are early Sanmill's, not a variation: read them with import::read_games",
                    ));
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

/// Whether a text starts with an engine coordinate of early Sanmill, `(2,4)`.
pub(crate) fn is_coordinate(b: &[u8]) -> bool {
    matches!(b, [b'(', f, b',', r, b')', ..] if f.is_ascii_digit() && r.is_ascii_digit())
}

/// The tags of a record and where its move text begins.
#[derive(Debug)]
pub(crate) struct Head<'a> {
    pub(crate) lexer: Lexer<'a>,
    /// The tags with their offsets, in the order read.
    pub(crate) tags: Vec<(usize, String, String)>,
    /// The first word of the move text, already taken from the lexer.
    pub(crate) first: Option<(usize, &'a str)>,
}

impl<'a> Head<'a> {
    /// Reads the tags of a record up to its first word.
    pub(crate) fn read(text: &'a str) -> Result<Head<'a>, RecordError> {
        let mut lexer = Lexer { text, pos: 0 };
        let mut tags = Vec::new();
        let mut first = None;
        while let Some((offset, token)) = lexer.next()? {
            match token {
                Token::Tag(name, value) => tags.push((offset, name, value)),
                Token::Word(w) => {
                    first = Some((offset, w));
                    break;
                }
            }
        }
        Ok(Head { lexer, tags, first })
    }

    /// The value of a tag and its offset.
    pub(crate) fn find(&self, name: &str) -> Option<(usize, &str)> {
        self.tags
            .iter()
            .find(|(_, n, _)| n.eq_ignore_ascii_case(name))
            .map(|(o, _, v)| (*o, v.as_str()))
    }

    /// The rules the tags give: the `Variant` tag (`Custom`, as Sanmill writes for rules of its
    /// own, starts from `default_rules`), then any rule option tags (see [`Rules::set_option`]).
    /// The flag says whether the variant was `Custom`.
    pub(crate) fn rules(&self, default_rules: Rules) -> Result<(Rules, bool), RecordError> {
        let (mut rules, custom) = match self.find("Variant") {
            Some((_, v)) if v.trim().eq_ignore_ascii_case("custom") => (default_rules, true),
            Some((offset, v)) => (
                v.parse::<Variant>()
                    .map(Variant::rules)
                    .map_err(|e| RecordError {
                        at: self.lexer.location(offset),
                        kind: RecordErrorKind::Variant(e),
                    })?,
                false,
            ),
            None => (default_rules, false),
        };
        for (offset, name, value) in &self.tags {
            let bad = |e: RulesError| RecordError {
                at: self.lexer.location(*offset),
                kind: RecordErrorKind::Rules(e),
            };
            rules.set_option(name, value).map_err(bad)?;
        }
        rules.check().map_err(|e| RecordError {
            at: self.lexer.location(0),
            kind: RecordErrorKind::Rules(e),
        })?;
        Ok((rules, custom))
    }

    /// The outcome a written result gives a game that the rules do not end: a resignation or
    /// an agreed draw unless the `Termination` tag names another reason.
    pub(crate) fn ended(&self, written: Written) -> Outcome {
        let reason = self
            .find("Termination")
            .and_then(|(_, v)| Reason::from_name(v));
        match written.winner {
            Some(c) => Outcome::win(c, reason.unwrap_or(Reason::Resignation)),
            None => Outcome::draw(reason.unwrap_or(Reason::Agreement)),
        }
    }

    /// The result the move text or the `Result` tag writes.
    pub(crate) fn written(&self, moves: &MoveText) -> Option<Written> {
        moves.result.map(|(_, r)| r).or_else(|| {
            self.find("Result")
                .and_then(|(_, v)| result_token(v.trim()).flatten())
        })
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
        let mut head = Head::read(text)?;
        let (rules, _) = head.rules(default_rules)?;
        let start = match head.find("FEN") {
            Some((offset, fen)) => Position::from_fen(rules, fen).map_err(|e| RecordError {
                at: head.lexer.location(offset),
                kind: RecordErrorKind::Fen(e),
            })?,
            None => Position::new(rules),
        };
        let first = head.first.take();
        let moves = movetext::read(
            &mut head.lexer,
            first,
            Dialect::Names,
            start.board(),
            start.turn(),
        )?;
        if let Some((offset, _)) = moves.leading_removal {
            return Err(head.lexer.error(offset, "a removal with no ply before it"));
        }
        let mut game = Game::new(start);
        for (offset, text) in &moves.plies {
            let number = game.plies().len() + 1;
            let at = head.lexer.location(*offset);
            if let Some(outcome) = game.outcome() {
                return Err(RecordError {
                    at,
                    kind: RecordErrorKind::AfterEnd { number, outcome },
                });
            }
            let ply = game
                .position()
                .parse_ply(text)
                .map_err(|error| RecordError {
                    at,
                    kind: RecordErrorKind::Ply { number, error },
                })?;
            game.play(ply).map_err(|_| RecordError {
                at,
                kind: RecordErrorKind::Syntax(format!("ply {number} cannot be played")),
            })?;
        }
        if game.outcome().is_none() {
            if let Some(written) = head.written(&moves) {
                game.set_ended(Some(head.ended(written)));
            }
        }
        Ok(GameRecord {
            tags: head.tags.into_iter().map(|(_, n, v)| (n, v)).collect(),
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
    /// Writes the record: the tags given (less those computed here), then `Variant` and the
    /// rule options that differ from the variant's ([`Rules::changed_options`]), `SetUp` and
    /// `FEN` for a game that does not start from the start, `Result` and `Termination`,
    /// then the plies, numbered, at most about 80 characters a line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let start = self.game.start();
        let setup = (*start != Position::new(*start.rules())).then(|| start.to_string());
        let text = write_record(self, start.rules().variant.name(), setup, |pos, ply| {
            ply.display(pos.board()).to_string()
        });
        f.write_str(&text)
    }
}

/// Writes a record with the given variant name, start position string (for a set-up game)
/// and notation of plies: the tags given less those computed, `Variant` and the changed rule
/// options, `SetUp` and `FEN`, `Result` and `Termination`, then the numbered plies, at most
/// about 80 characters a line, and the result. Lines end in `\n`.
pub(crate) fn write_record(
    record: &GameRecord,
    variant: &str,
    setup: Option<String>,
    ply_text: impl Fn(&Position, crate::Ply) -> String,
) -> String {
    let game = &record.game;
    let start = game.start();
    let rules = start.rules();
    let outcome = game.outcome();
    let result = outcome.map_or("*", |o| o.result());
    let computed = ["Variant", "SetUp", "FEN", "Result", "Termination"];
    let mut out = String::new();
    for (name, value) in &record.tags {
        let mut scratch = *rules;
        let is_option = scratch.set_option(name, value) == Ok(true);
        if !computed.iter().any(|c| c.eq_ignore_ascii_case(name)) && !is_option {
            let _ = writeln!(out, "[{name} \"{}\"]", escape(value));
        }
    }
    let _ = writeln!(out, "[Variant \"{variant}\"]");
    for (name, value) in rules.changed_options() {
        let _ = writeln!(out, "[{name} \"{value}\"]");
    }
    if let Some(fen) = setup {
        let _ = writeln!(out, "[SetUp \"1\"]");
        let _ = writeln!(out, "[FEN \"{fen}\"]");
    }
    let _ = writeln!(out, "[Result \"{result}\"]");
    if let Some(o) = outcome {
        let _ = writeln!(out, "[Termination \"{}\"]", o.reason.name());
    }
    out.push('\n');
    let mut line = String::new();
    let mut push = |out: &mut String, word: &str| {
        if !line.is_empty() && line.len() + 1 + word.len() > 80 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    };
    for (pos, &ply) in game.positions().iter().zip(game.plies()) {
        let mut word = String::new();
        if pos.turn() == crate::Color::White {
            let _ = write!(word, "{}. ", pos.move_number());
        } else if std::ptr::eq(pos, start) {
            let _ = write!(word, "{}... ", pos.move_number());
        }
        word.push_str(&ply_text(pos, ply));
        push(&mut out, &word);
    }
    push(&mut out, result);
    out.push_str(&line);
    out.push('\n');
    out
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
