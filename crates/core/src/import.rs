//! Games and positions as players bring them from other programs, read into [`GameRecord`]s
//! that say what did not fit.
//!
//! The formats, told apart by [`Format::detect`]:
//!
//! - records in the rule book's notation and Sanmill's exports: `[Variant "lasker_morris"]`,
//!   quality marks glued to a ply (`d5!xb4`), removals written `d5/xb4`, `d5-/xb4` or as their
//!   own token `xb4`, results in words (`white win`, `black`, `draw`, `resign`), and
//!   `[Variant "Custom"]` with the rule option tags that follow it;
//! - PlayOK's numeric notation, points 1 to 24 in the order of the position string
//!   (`10-1x23`), its tags kept (`TimeControl`, `WhiteElo`, …);
//! - GoldToken's move lists (`Place to d5, take b4`, `d6 -> f4`);
//! - the engine coordinates of early Sanmill (`(2,4)`, `(1,1)->(1,2)`, `-(3,8)`);
//! - position strings (the project's or Sanmill's) and Malom positions, one a line.
//!
//! A text may hold several games; [`read_games`] reads each. An import never changes a game
//! silently: where a ply is illegal under the rules given but legal under one other rule option,
//! the game is read under that option; where the record plays on after the rules end the game,
//! it stops there; where the written result is not the rules' result, the rules' result stands.
//! Each of these is an [`ImportWarning`] on the game.

use std::fmt;

use crate::fen::FenError;
use crate::game::Game;
use crate::malom;
use crate::movetext::{self, Dialect, MoveText};
use crate::outcome::Outcome;
use crate::position::{Position, TextPlyError};
use crate::record::{GameRecord, Head, Lexer, Location, RecordError, RecordErrorKind};
use crate::sanmill::{self, PendingRemoval};
use crate::variant::{DoubleMill, FullBoard, MillRemoval, Rules};

/// The formats [`read_games`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// A record in the rule book's notation, Sanmill's exports included.
    Record,
    /// PlayOK's numeric notation.
    PlayOk,
    /// A GoldToken move list.
    GoldToken,
    /// The engine coordinates of early Sanmill versions, `(2,4)`.
    SanmillCoordinates,
    /// Position strings, the project's or Sanmill's, one a line.
    Position,
    /// Malom positions, one a line.
    Malom,
}

impl Format {
    /// A short name: `record`, `playok`, `goldtoken`, `sanmill-coordinates`, `position`,
    /// `malom`.
    pub const fn name(self) -> &'static str {
        match self {
            Format::Record => "record",
            Format::PlayOk => "playok",
            Format::GoldToken => "goldtoken",
            Format::SanmillCoordinates => "sanmill-coordinates",
            Format::Position => "position",
            Format::Malom => "malom",
        }
    }

    /// The format a text is written in.
    pub fn detect(text: &str) -> Format {
        let text = text.trim_start_matches('\u{feff}').trim();
        if has_coordinates(text) {
            return Format::SanmillCoordinates;
        }
        if malom::looks_like_malom(text) {
            return Format::Malom;
        }
        let first_line = text.lines().next().unwrap_or("");
        let board = first_line.split_whitespace().next().unwrap_or("");
        let own_board =
            board.contains('/') && board.chars().all(|c| matches!(c, 'W' | 'B' | '.' | '/'));
        if !first_line.starts_with('[') && (own_board || sanmill::is_sanmill_board(board)) {
            return Format::Position;
        }
        // PlayOK's own records carry `[Site "PlayOK"]`, but so may a game read from PlayOK and
        // written in names: the move text decides.
        if is_numeric_move_text(text) {
            return Format::PlayOk;
        }
        if text.contains("GoldToken")
            || text.contains("Place to")
            || text.contains(", take ")
            || text.contains(" -> ")
        {
            return Format::GoldToken;
        }
        Format::Record
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether the text holds early Sanmill's engine coordinates, `(f,r)`.
fn has_coordinates(text: &str) -> bool {
    let b = text.as_bytes();
    b.windows(5).any(|w| {
        w[0] == b'('
            && w[1].is_ascii_digit()
            && w[2] == b','
            && w[3].is_ascii_digit()
            && w[4] == b')'
    })
}

/// Whether the move text, tags and comments aside, is PlayOK's: numbered moves and no letters
/// of point names.
fn is_numeric_move_text(text: &str) -> bool {
    let mut moves = String::new();
    let mut depth = 0usize;
    for line in text.lines() {
        if line.trim_start().starts_with('[') {
            continue;
        }
        for c in line.chars() {
            match c {
                '{' | '(' => depth += 1,
                '}' | ')' => depth = depth.saturating_sub(1),
                c if depth == 0 => moves.push(c),
                _ => {}
            }
        }
        moves.push(' ');
    }
    moves.contains("1.") && !moves.chars().any(|c| matches!(c, 'a'..='g' | 'A'..='G'))
}

/// A rule option under which an imported game was read instead of the one given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RuleChange {
    /// Flying only with an empty hand (Sanmill's Lasker), or also with pieces in hand.
    FlyEmptyHand(bool),
    /// No flying.
    NoFlying,
    /// Flying at three pieces.
    FlyingAtThree,
    /// Mills may remove any piece.
    RemoveFromMills,
    /// Mills never remove a piece in a mill.
    NeverFromMills,
    /// One removal per mill closed.
    RemovalPerMill,
    /// No draw by repetition.
    NoRepetitionDraw,
    /// No draw by the N-move rule.
    NoNMoveDraw,
    /// A board filled in the placing phase draws.
    FullBoardDraws,
    /// A board filled in the placing phase blocks the side to move.
    FullBoardBlocks,
}

impl RuleChange {
    /// Every change an import tries, in order.
    pub const ALL: [RuleChange; 11] = [
        RuleChange::FlyEmptyHand(true),
        RuleChange::FlyEmptyHand(false),
        RuleChange::NoFlying,
        RuleChange::FlyingAtThree,
        RuleChange::RemoveFromMills,
        RuleChange::NeverFromMills,
        RuleChange::RemovalPerMill,
        RuleChange::NoRepetitionDraw,
        RuleChange::NoNMoveDraw,
        RuleChange::FullBoardDraws,
        RuleChange::FullBoardBlocks,
    ];

    /// The rules with the change, or `None` when they have it already.
    pub fn apply(self, rules: Rules) -> Option<Rules> {
        let mut r = rules;
        match self {
            RuleChange::FlyEmptyHand(on) => r.fly_empty_hand = on,
            RuleChange::NoFlying => r.fly_at = 0,
            RuleChange::FlyingAtThree => r.fly_at = 3,
            RuleChange::RemoveFromMills => r.mill_removal = MillRemoval::Always,
            RuleChange::NeverFromMills => r.mill_removal = MillRemoval::Never,
            RuleChange::RemovalPerMill => r.double_mill = DoubleMill::PerMill,
            RuleChange::NoRepetitionDraw => r.repetition = 0,
            RuleChange::NoNMoveDraw => r.n_move = 0,
            RuleChange::FullBoardDraws => r.full_board = FullBoard::Draw,
            RuleChange::FullBoardBlocks => r.full_board = FullBoard::Blocked,
        }
        (r != rules && r.check().is_ok()).then_some(r)
    }
}

impl fmt::Display for RuleChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RuleChange::FlyEmptyHand(true) => "flying only with an empty hand",
            RuleChange::FlyEmptyHand(false) => "flying also with pieces in hand",
            RuleChange::NoFlying => "no flying",
            RuleChange::FlyingAtThree => "flying at three pieces",
            RuleChange::RemoveFromMills => "removal from mills always allowed",
            RuleChange::NeverFromMills => "no removal from mills",
            RuleChange::RemovalPerMill => "one removal per mill",
            RuleChange::NoRepetitionDraw => "no draw by repetition",
            RuleChange::NoNMoveDraw => "no draw by the N-move rule",
            RuleChange::FullBoardDraws => "a full board draws",
            RuleChange::FullBoardBlocks => "a full board blocks",
        })
    }
}

/// What an import did not take as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImportWarning {
    /// Ply `ply` (from 1) is not legal under the rules given; the whole game was read under a
    /// changed rule option.
    RuleChanged {
        /// The first ply the rules given do not allow.
        ply: usize,
        /// The option the game was read under.
        change: RuleChange,
    },
    /// The rules end the game after ply `ply - 1`; the record's `dropped` plies from ply `ply`
    /// on were left out.
    StoppedAtEnd {
        /// The first ply left out, from 1.
        ply: usize,
        /// How the rules end the game.
        outcome: Outcome,
        /// How many plies were left out.
        dropped: usize,
    },
    /// The record writes another result than the rules give; the rules' result stands.
    ResultDisagrees {
        /// The result as written (`1-0`, `0-1`, `1/2-1/2`).
        written: &'static str,
        /// The rules' result.
        outcome: Outcome,
    },
    /// The record starts from a position that owes a removal; the game starts after it.
    StartsAfterRemoval {
        /// The removal, as `xd5`.
        removal: String,
    },
    /// `[Variant "Custom"]` with no rule option tags: the game was read under the default
    /// rules.
    CustomRulesAssumed,
}

impl fmt::Display for ImportWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportWarning::RuleChanged { ply, change } => write!(
                f,
                "ply {ply} is not legal under the rules given; the game is read with {change}"
            ),
            ImportWarning::StoppedAtEnd {
                ply,
                outcome,
                dropped,
            } => write!(
                f,
                "the game ends before ply {ply} ({}); the {dropped} plies from there are left out",
                outcome.describe()
            ),
            ImportWarning::ResultDisagrees { written, outcome } => write!(
                f,
                "the record gives the result {written}, the rules {} ({})",
                outcome.result(),
                outcome.describe()
            ),
            ImportWarning::StartsAfterRemoval { removal } => write!(
                f,
                "the start position owes a removal; the game starts after it ({removal})"
            ),
            ImportWarning::CustomRulesAssumed => f.write_str(
                "the variant is Custom with no rule tags; the game is read under the default rules",
            ),
        }
    }
}

/// A game read from another program's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportedGame {
    /// The format it was read from.
    pub format: Format,
    /// The game and the tags read with it.
    pub record: GameRecord,
    /// What was not taken as written, in the order found.
    pub warnings: Vec<ImportWarning>,
}

/// The error of a game that cannot be imported: which game of the text, and why. The location
/// is in the whole text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportError {
    /// The game, from 1.
    pub game: usize,
    /// What is wrong, and where.
    pub error: RecordError,
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}: {}", self.game, self.error)
    }
}

impl std::error::Error for ImportError {}

/// Reads every game of a text in the format it is written in ([`Format::detect`]). Records are
/// told apart by a tag after move text; positions are one a line.
///
/// ```
/// use morris_core::{Variant, import};
/// let text = "[Site \"PlayOK\"]\n[Result \"*\"]\n\n1. 5 14 2. 20 11 *\n\n[Site \"PlayOK\"]\n\n1. 2 *";
/// let games = import::read_games(text, Variant::Nine.rules());
/// assert_eq!(games.len(), 2);
/// let first = games[0].as_ref().unwrap();
/// assert_eq!(first.record.game.ply_texts(), ["d6", "f4", "d2", "b4"]);
/// # Ok::<_, import::ImportError>(())
/// ```
pub fn read_games(text: &str, default_rules: Rules) -> Vec<Result<ImportedGame, ImportError>> {
    let format = Format::detect(text);
    chunks(text, format)
        .into_iter()
        .enumerate()
        .map(|(i, (start, chunk))| {
            read_chunk(chunk, format, default_rules).map_err(|mut error| {
                error.at.line += text[..start].matches('\n').count();
                ImportError { game: i + 1, error }
            })
        })
        .collect()
}

/// Reads the one game of a text (the first, if it holds several).
///
/// # Errors
///
/// An [`ImportError`] when the game cannot be read, or the text holds none.
pub fn read_game(text: &str, default_rules: Rules) -> Result<ImportedGame, ImportError> {
    read_games(text, default_rules)
        .into_iter()
        .next()
        .unwrap_or_else(|| {
            Err(ImportError {
                game: 1,
                error: RecordError {
                    at: Location { line: 1, column: 1 },
                    kind: RecordErrorKind::Syntax("the text holds no game".into()),
                },
            })
        })
}

/// The games of a text, each with its offset.
fn chunks(text: &str, format: Format) -> Vec<(usize, &str)> {
    let mut lines = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        lines.push((offset, line));
        offset += line.len();
    }
    if matches!(format, Format::Position | Format::Malom) {
        return lines
            .into_iter()
            .filter(|(_, l)| !l.trim().is_empty())
            .collect();
    }
    // A game starts at a tag after move text, or at a first move after a result.
    let mut starts = vec![0];
    let mut seen_moves = false;
    let mut ended = false;
    for (offset, line) in &lines {
        let t = line.trim();
        if t.starts_with('[') || (ended && t.starts_with("1.")) {
            if seen_moves {
                starts.push(*offset);
                seen_moves = false;
                ended = false;
            }
        } else if !t.is_empty() {
            seen_moves = true;
            ended = t
                .split_whitespace()
                .last()
                .is_some_and(|w| movetext::result_token(w).is_some());
        }
    }
    let mut out = Vec::new();
    for (i, &s) in starts.iter().enumerate() {
        let e = starts.get(i + 1).copied().unwrap_or(text.len());
        if !text[s..e].trim().is_empty() {
            out.push((s, &text[s..e]));
        }
    }
    out
}

fn fen_error(text: &str, offset: usize, e: FenError) -> RecordError {
    RecordError {
        at: Lexer { text, pos: 0 }.location(offset),
        kind: RecordErrorKind::Fen(e),
    }
}

fn read_chunk(text: &str, format: Format, rules: Rules) -> Result<ImportedGame, RecordError> {
    let position_only = |start: Position| ImportedGame {
        format,
        record: GameRecord::new(Game::new(start)),
        warnings: Vec::new(),
    };
    match format {
        Format::Position => {
            let line = text.trim();
            let pos = Position::from_fen(rules, line).map_err(|e| fen_error(text, 0, e))?;
            Ok(position_only(pos))
        }
        Format::Malom => {
            let pos = malom::read(rules, text.trim()).map_err(|e| fen_error(text, 0, e))?;
            Ok(position_only(pos))
        }
        Format::SanmillCoordinates => {
            let moves = coordinates(text)?;
            let start = Position::new(rules);
            let lexer = Lexer { text, pos: 0 };
            let (game, warnings) = replay(start, &moves, &lexer)?;
            Ok(ImportedGame {
                format,
                record: GameRecord::new(game),
                warnings,
            })
        }
        Format::Record | Format::PlayOk | Format::GoldToken => read_record(text, format, rules),
    }
}

fn read_record(text: &str, format: Format, rules: Rules) -> Result<ImportedGame, RecordError> {
    // GoldToken pages carry words before the first move and after the list.
    let body = if format == Format::GoldToken {
        let end = text.find("Quick Jump").unwrap_or(text.len());
        let start = text
            .match_indices('1')
            .map(|(i, _)| i)
            .find(|&i| {
                (i == 0 || text.as_bytes()[i - 1] == b'\n')
                    && text[i + 1..].starts_with([' ', '\t'])
            })
            .filter(|&i| i < end)
            .unwrap_or(0);
        &text[..end][start..]
    } else {
        text
    };
    let mut head = Head::read(body)?;
    let (rules, custom) = head.rules(rules)?;
    let mut warnings = Vec::new();
    let is_option = |name: &str, value: &str| {
        let mut scratch = rules;
        scratch.set_option(name, value) == Ok(true)
    };
    if custom && !head.tags.iter().any(|(_, n, v)| is_option(n, v)) {
        warnings.push(ImportWarning::CustomRulesAssumed);
    }
    let fen = head.find("FEN").map(|(o, v)| (o, v.to_string()));
    let (start, pending) = match &fen {
        Some((offset, fen)) => match Position::from_fen(rules, fen) {
            Ok(p) => (p, None),
            Err(e) => match PendingRemoval::from_fen(rules, fen) {
                Ok(pending) => (*pending.position_before_removal(), Some(pending)),
                Err(_) => return Err(fen_error(body, *offset, e)),
            },
        },
        None => (Position::new(rules), None),
    };
    let dialect = match format {
        Format::PlayOk => Dialect::Numbers,
        Format::GoldToken => Dialect::Words,
        _ => Dialect::Names,
    };
    let first = head.first.take();
    let first_mover = pending.map_or(start.turn(), |p| p.remover());
    let moves = movetext::read(&mut head.lexer, first, dialect, start.board(), first_mover)?;
    let start = match (pending, &moves.leading_removal) {
        (Some(pending), Some((offset, removal))) => {
            let after = pending.remove_text(removal).map_err(|e| RecordError {
                at: head.lexer.location(*offset),
                kind: RecordErrorKind::Syntax(e.to_string()),
            })?;
            warnings.push(ImportWarning::StartsAfterRemoval {
                removal: removal.to_ascii_lowercase(),
            });
            after
        }
        (Some(_), None) => {
            let offset = fen.as_ref().map_or(0, |(o, _)| *o);
            return Err(head.lexer.error(
                offset,
                "the position owes a removal, but the record does not begin with it",
            ));
        }
        (None, Some((offset, _))) => {
            return Err(head.lexer.error(*offset, "a removal with no ply before it"));
        }
        (None, None) => start,
    };
    let (mut game, more) = replay(start, &moves, &head.lexer)?;
    warnings.extend(more);
    if let Some(written) = head.written(&moves) {
        match game.outcome() {
            Some(o) if o.winner != written.winner => {
                warnings.push(ImportWarning::ResultDisagrees {
                    written: written.text,
                    outcome: o,
                });
            }
            Some(_) => {}
            None => game.set_ended(Some(head.ended(written))),
        }
    }
    Ok(ImportedGame {
        format,
        record: GameRecord {
            tags: head.tags.into_iter().map(|(_, n, v)| (n, v)).collect(),
            game,
        },
        warnings,
    })
}

/// Why playing the plies stopped.
enum Stop {
    /// Every ply was played.
    Done,
    /// A ply cannot be read or is not legal.
    Illegal(usize, TextPlyError),
    /// The game ended before this ply.
    Ended(usize, Outcome),
}

fn play_all(start: Position, plies: &[(usize, String)]) -> (Game, Stop) {
    let mut game = Game::new(start);
    for (i, (_, text)) in plies.iter().enumerate() {
        if let Some(o) = game.outcome() {
            return (game, Stop::Ended(i, o));
        }
        match game.position().parse_ply(text) {
            Ok(ply) => {
                if game.play(ply).is_err() {
                    let reason = "it cannot be played".to_string();
                    let error = TextPlyError::Illegal {
                        ply: text.clone(),
                        reason,
                    };
                    return (game, Stop::Illegal(i, error));
                }
            }
            Err(e) => return (game, Stop::Illegal(i, e)),
        }
    }
    (game, Stop::Done)
}

/// Plays the plies from `start`; where the rules stop them, tries each [`RuleChange`] and keeps
/// the one that plays furthest.
fn replay(
    start: Position,
    moves: &MoveText,
    lexer: &Lexer<'_>,
) -> Result<(Game, Vec<ImportWarning>), RecordError> {
    let plies = &moves.plies;
    let (mut game, mut stop) = play_all(start, plies);
    let mut warnings = Vec::new();
    let stopped_at = match &stop {
        Stop::Done => None,
        Stop::Illegal(i, TextPlyError::Illegal { .. }) | Stop::Ended(i, _) => Some(*i),
        // A ply that cannot be read is not a question of rules.
        Stop::Illegal(..) => None,
    };
    if let Some(at) = stopped_at {
        let mut best: Option<(usize, RuleChange, Game, Stop)> = None;
        for change in RuleChange::ALL {
            let Some(rules) = change.apply(*start.rules()) else {
                continue;
            };
            let mut setup = start.to_setup();
            setup.rules = rules;
            let Ok(changed) = setup.into_position() else {
                continue;
            };
            let (g, s) = play_all(changed, plies);
            let reached = g.plies().len();
            if reached > at && best.as_ref().is_none_or(|b| reached > b.0) {
                best = Some((reached, change, g, s));
            }
        }
        if let Some((_, change, g, s)) = best {
            warnings.push(ImportWarning::RuleChanged {
                ply: at + 1,
                change,
            });
            game = g;
            stop = s;
        }
    }
    match stop {
        Stop::Done => {}
        Stop::Ended(i, outcome) => warnings.push(ImportWarning::StoppedAtEnd {
            ply: i + 1,
            outcome,
            dropped: plies.len() - i,
        }),
        Stop::Illegal(i, error) => {
            return Err(RecordError {
                at: lexer.location(plies[i].0),
                kind: RecordErrorKind::Ply {
                    number: i + 1,
                    error,
                },
            });
        }
    }
    Ok((game, warnings))
}

/// Reads early Sanmill's engine coordinates: `(f,r)` places on point `r` (1 to 8, clockwise
/// from the top middle) of ring `f` (1 inner, 2 middle, 3 outer), `(f,r)->(f,r)` moves,
/// `-(f,r)` removes.
fn coordinates(text: &str) -> Result<MoveText, RecordError> {
    let lexer = Lexer { text, pos: 0 };
    let point = |s: &str| -> Option<&'static str> {
        let inner = s.strip_prefix('(')?.strip_suffix(')')?;
        let (f, r) = inner.split_once(',')?;
        let f: usize = f.trim().parse().ok()?;
        let r: usize = r.trim().parse().ok()?;
        sanmill::RINGS
            .get(f.checked_sub(1)?)?
            .get(r.checked_sub(1)?)
            .copied()
    };
    let mut out = MoveText::default();
    let mut offset = 0;
    for word in text.split_inclusive(char::is_whitespace) {
        let at = offset;
        offset += word.len();
        let word = word.trim();
        if word.is_empty() {
            continue;
        }
        let numbered = word.trim_end_matches('.');
        if numbered.len() < word.len() && numbered.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let bad = || {
            lexer.error(
                at,
                format!(
                    "'{}' is not an engine coordinate such as (2,4), (1,1)->(1,2) or -(3,8)",
                    word.chars().take(24).collect::<String>()
                ),
            )
        };
        if let Some(removed) = word.strip_prefix('-') {
            let name = point(removed).ok_or_else(bad)?;
            match out.plies.last_mut() {
                Some((_, last)) => {
                    last.push('x');
                    last.push_str(name);
                }
                None => return Err(lexer.error(at, "a removal with no ply before it")),
            }
        } else if let Some((from, to)) = word.split_once("->") {
            let from = point(from).ok_or_else(bad)?;
            let to = point(to).ok_or_else(bad)?;
            out.plies.push((at, format!("{from}-{to}")));
        } else {
            let to = point(word).ok_or_else(bad)?;
            out.plies.push((at, to.to_string()));
        }
    }
    if out.plies.is_empty() {
        return Err(lexer.error(0, "no plies in engine coordinates"));
    }
    out.end = text.len();
    Ok(out)
}
