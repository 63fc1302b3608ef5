//! The bodies the server answers with, as docs/api.md describes them.

use std::collections::BTreeMap;

use morris_core::{ByColor, Color, Variant};
use serde::Serialize;

use crate::clock::{Millis, TimeClass, TimeControlView};
use crate::game_state::GameState;
use crate::rating::RatingChange;
use crate::seat::{Opponent, Player, Seat, Token};

/// A board as the page draws it: `GET /api/variants`.
#[derive(Debug, Clone, Serialize)]
pub struct VariantView {
    /// The variant's name, such as `nine`.
    pub name: &'static str,
    /// Its title, such as "Nine Men's Morris".
    pub title: &'static str,
    /// Pieces per side.
    pub pieces: u8,
    /// The width of the naming grid (7, 5 or 3).
    pub size: u8,
    /// The points in position-string order.
    pub points: Vec<String>,
    /// The lines between adjacent points, each once.
    pub lines: Vec<[String; 2]>,
    /// The mills, each as its three points.
    pub mills: Vec<Vec<String>>,
}

impl VariantView {
    /// The view of a variant.
    pub fn new(variant: Variant) -> VariantView {
        let board = variant.board();
        let name = |p| board.square(p).to_string();
        VariantView {
            name: variant.name(),
            title: variant.title(),
            pieces: variant.rules().pieces,
            size: board.size(),
            points: board.points().map(name).collect(),
            lines: board.lines().map(|(a, b)| [name(a), name(b)]).collect(),
            mills: board
                .mills()
                .iter()
                .map(|m| m.into_iter().map(name).collect())
                .collect(),
        }
    }
}

/// A side, written `"white"` or `"black"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// White, who moves first.
    White,
    /// Black.
    Black,
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        match c {
            Color::White => Side::White,
            Color::Black => Side::Black,
        }
    }
}

/// Who plays a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PlayerKind {
    /// A person.
    Human,
    /// The engine.
    Computer,
}

/// Who sits in a seat, as the page shows it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct PlayerView {
    /// A person or the engine.
    pub kind: PlayerKind,
    /// The name given, "Computer", or `null`.
    pub name: Option<String>,
    /// The computer's level, or `null`.
    pub level: Option<u8>,
}

/// How a finished game ended.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ResultView {
    /// The winner, or `null` for a draw.
    pub winner: Option<Side>,
    /// The reason, such as `blocked`.
    pub reason: &'static str,
    /// The end in words, such as "Black is blocked".
    pub text: String,
}

/// The whole state of a game: the `GAME` object of the API.
#[derive(Debug, Clone, Serialize)]
pub struct GameView {
    /// The game's id.
    pub id: String,
    /// The variant's name.
    pub variant: &'static str,
    /// Whom the creator plays.
    pub opponent: Opponent,
    /// Whether the game is played or over.
    pub status: Status,
    /// The position string now.
    pub position: String,
    /// The position string the game started from.
    pub start: String,
    /// The plies played, in notation.
    pub moves: Vec<String>,
    /// The last ply, if any.
    pub last: Option<String>,
    /// The side to move.
    pub turn: Side,
    /// The legal plies for the side to move; empty when the game is over.
    pub legal: Vec<String>,
    /// Pieces in hand.
    pub in_hand: ByColorView<u8>,
    /// Pieces on the board.
    pub on_board: ByColorView<usize>,
    /// The occupied points and their colours.
    pub board: BTreeMap<String, Side>,
    /// Who sits in each seat.
    pub players: ByColorView<PlayerView>,
    /// The seat of the token given, if any.
    pub you: Option<Seat>,
    /// Whether the computer is choosing a ply.
    pub thinking: bool,
    /// The side that offers a draw, if one does.
    pub draw_offer: Option<Side>,
    /// How the game ended, if it did.
    pub result: Option<ResultView>,
    /// Grows by one with every change.
    pub version: u64,
    /// Whether the result changes the players' ratings.
    pub rated: bool,
    /// Why a game whose terms asked for a rating is unrated (the two players have played
    /// too many rated games lately: see the documentation of the API), else `null`.
    pub unrated_why: Option<String>,
    /// The clock, in a game that has one.
    pub clock: Option<ClockView>,
    /// How the players' ratings changed, once a rated game ended.
    pub ratings: Option<ByColorView<RatingChangeView>>,
    /// The side that offers a rematch, once the game is over.
    pub rematch_offer: Option<Side>,
    /// The rematch's id, once agreed.
    pub next_game: Option<String>,
    /// The side that asks to take back its last ply, if one does.
    pub takeback_offer: Option<Side>,
    /// Whether the game may still be aborted (a game between people, before each side has
    /// played).
    pub abortable: bool,
    /// The side invited by a link who has not come yet: until it comes, no clock runs and
    /// nothing can be claimed.
    pub waiting_for: Option<Side>,
}

/// A game's clock as it stands at `now`.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ClockView {
    /// The time control.
    pub control: TimeControlView,
    /// The time control written short: `3+2`, `0:30+0`, `2d`.
    pub text: String,
    /// The class ratings are kept in.
    pub class: TimeClass,
    /// Each side's time left at `now`, in milliseconds.
    pub left: ByColorView<Millis>,
    /// The side whose clock runs: `null` once the game is over, while a friend invited by
    /// link is awaited, and before the side to move has played its first ply.
    pub running: Option<Side>,
    /// By when the side to move must play its first ply, or the game is aborted
    /// (milliseconds since 1970); `null` once it has played.
    pub first_ply_by: Option<Millis>,
    /// The server's time of this view, in milliseconds since 1970.
    pub now: Millis,
    /// The time of each ply (milliseconds since 1970) and the time its mover had left after
    /// it, in the order of `moves`.
    pub plies: Vec<[Millis; 2]>,
}

/// A rating before and after a game, rounded.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
pub struct RatingChangeView {
    /// The rating before.
    pub before: i32,
    /// The rating after.
    pub after: i32,
    /// Whether the rating after is provisional.
    pub provisional: bool,
}

impl From<RatingChange> for RatingChangeView {
    fn from(c: RatingChange) -> RatingChangeView {
        RatingChangeView {
            before: c.before.rating.round() as i32,
            after: c.after.rating.round() as i32,
            provisional: c.after.provisional(),
        }
    }
}

/// Whether a game is played or over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Plies may be played.
    Playing,
    /// The game has ended.
    Over,
}

/// A value per colour, written `{"white": …, "black": …}`.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ByColorView<T> {
    /// White's value.
    pub white: T,
    /// Black's value.
    pub black: T,
}

impl<T> From<ByColor<T>> for ByColorView<T> {
    fn from(b: ByColor<T>) -> ByColorView<T> {
        ByColorView {
            white: b.white,
            black: b.black,
        }
    }
}

impl GameView {
    /// The view of a game for the holder of seat `you` (or a spectator) at the time `now`.
    pub fn new(state: &GameState, you: Option<Seat>, now: Millis) -> GameView {
        let game = &state.game;
        let pos = game.position();
        let board = pos.board();
        let outcome = game.outcome();
        let moves = game.ply_texts();
        GameView {
            id: state.id.to_string(),
            variant: pos.rules().variant.name(),
            opponent: state.opponent,
            status: if outcome.is_some() {
                Status::Over
            } else {
                Status::Playing
            },
            position: pos.to_string(),
            start: game.start().to_string(),
            last: moves.last().cloned(),
            moves,
            turn: pos.turn().into(),
            legal: game
                .legal_plies()
                .iter()
                .map(|p| p.display(board).to_string())
                .collect(),
            in_hand: ByColor::from_fn(|c| pos.in_hand(c)).into(),
            on_board: ByColor::from_fn(|c| pos.pieces(c).count()).into(),
            board: board
                .points()
                .filter_map(|p| Some((board.square(p).to_string(), pos.piece_at(p)?.into())))
                .collect(),
            players: ByColor::from_fn(|c| player_view(state.players.get(c))).into(),
            you,
            thinking: state.computer_to_move().is_some(),
            draw_offer: state.draw_offer.map(Side::from),
            result: outcome.map(|o| ResultView {
                winner: o.winner.map(Side::from),
                reason: o.reason.name(),
                text: o.describe(),
            }),
            version: state.version,
            rated: state.rated,
            unrated_why: state.unrated_why.clone(),
            clock: state.clock.map(|c| {
                let over = outcome.is_some();
                // A finished game's clock stands where it stopped.
                let at = if over { c.since } else { now };
                ClockView {
                    control: c.control.into(),
                    text: c.control.to_string(),
                    class: c.control.class(),
                    left: ByColor::from_fn(|side| state.left_at(side, at).unwrap_or_default())
                        .into(),
                    running: state.running().map(Side::from),
                    first_ply_by: state.first_ply_deadline(),
                    now,
                    plies: state
                        .times
                        .iter()
                        // A ply without its time was played before the clock started (a
                        // record imported before such plies were noted): the whole time.
                        .map(|t| [t.at, t.left.unwrap_or_else(|| c.control.initial())])
                        .collect(),
                }
            }),
            ratings: state
                .ratings
                .map(|r| ByColorView::from(r.map(RatingChangeView::from))),
            rematch_offer: state.rematch_offer.map(Side::from),
            next_game: state.next_game.as_ref().map(ToString::to_string),
            takeback_offer: state.takeback_offer.map(Side::from),
            abortable: outcome.is_none() && state.opponent == Opponent::Friend && !state.started(),
            waiting_for: state.awaiting.filter(|_| outcome.is_none()).map(Side::from),
        }
    }
}

fn player_view(p: &Player) -> PlayerView {
    match p {
        Player::Human(name) => PlayerView {
            kind: PlayerKind::Human,
            name: name.as_ref().map(|n| n.as_str().to_owned()),
            level: None,
        },
        Player::Computer(level) => PlayerView {
            kind: PlayerKind::Computer,
            name: Some("Computer".into()),
            level: Some(*level),
        },
    }
}

/// The answer to `POST /api/games`.
#[derive(Debug, Clone, Serialize)]
pub struct Created {
    /// The game's id.
    pub id: String,
    /// The creator's token.
    pub token: Token,
    /// The creator's colour.
    pub color: Side,
    /// The other seat's token in a friend game.
    pub invite: Option<Token>,
    /// The game.
    pub game: GameView,
    /// What an imported record did not give as written, in words (empty otherwise).
    pub warnings: Vec<String>,
}

/// One level of `GET /api/levels`.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct LevelView {
    /// The level, 1 to 10.
    pub level: u8,
    /// Its estimated rating, from matches between the levels.
    pub rating: u16,
}

/// One game of `POST /api/import`.
#[derive(Debug, Clone, Serialize)]
pub struct ImportedView {
    /// Its number in the text, from 1 (the `game` of `POST /api/games`).
    pub game: usize,
    /// The format it was read from: `record`, `playok`, `goldtoken`, `position`, `malom`, …
    pub format: Option<&'static str>,
    /// The `White`, `Black`, `Event` and `Result` tags, when the record has them.
    pub white: Option<String>,
    /// See `white`.
    pub black: Option<String>,
    /// See `white`.
    pub event: Option<String>,
    /// See `white`.
    pub result: Option<String>,
    /// The variant read.
    pub variant: Option<&'static str>,
    /// The number of plies read.
    pub plies: usize,
    /// What was not taken as written.
    pub warnings: Vec<String>,
    /// Why the game cannot be imported, if it cannot.
    pub error: Option<String>,
}

/// A score for the side to move: `{"kind": "cp", "value": 35}` (hundredths of a piece) or
/// `{"kind": "mate", "value": 7}` (a forced end in that many plies: won when positive, lost
/// when negative).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "value", rename_all = "lowercase")]
pub enum ScoreView {
    /// An estimate in hundredths of a piece.
    Cp(i32),
    /// A forced end in that many plies.
    Mate(i32),
}

impl From<morris_engine::Score> for ScoreView {
    fn from(score: morris_engine::Score) -> ScoreView {
        match score {
            morris_engine::Score::Cp(cp) => ScoreView::Cp(cp),
            morris_engine::Score::Mate(n) => ScoreView::Mate(n),
        }
    }
}

/// How good a ply is beside the best.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Grade {
    /// As good as the best.
    Best,
    /// A little worse, or a slower win.
    Good,
    /// Worse by a third of a piece to a piece.
    Inaccuracy,
    /// Worse by one to three pieces.
    Mistake,
    /// Worse by more, or a win thrown away, or a loss walked into.
    Blunder,
}

/// Where an analysis comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// Exact values from the tablebase.
    Tablebase,
    /// The engine's search.
    Engine,
}

/// The answer to `GET /api/games/{id}/hint`.
#[derive(Debug, Clone, Serialize)]
pub struct HintView {
    /// The ply suggested.
    #[serde(rename = "move")]
    pub ply: String,
    /// Its score.
    pub score: ScoreView,
    /// Whether it comes from the tablebase (exact) or the engine's search.
    pub source: Source,
}

/// One ply of an analysis.
#[derive(Debug, Clone, Serialize)]
pub struct GradedPly {
    /// The ply.
    #[serde(rename = "move")]
    pub ply: String,
    /// Its score, for the side that plays it.
    pub score: ScoreView,
    /// Its grade.
    pub grade: Grade,
}

/// The answer to `GET /api/games/{id}/analysis`.
#[derive(Debug, Clone, Serialize)]
pub struct AnalysisView {
    /// Where the scores come from.
    pub source: Source,
    /// The depth searched (0 for a tablebase).
    pub depth: u32,
    /// Every legal ply, best first.
    pub moves: Vec<GradedPly>,
}

/// A WebSocket answer to a ping.
#[derive(Debug, Clone, Serialize)]
pub struct Pong {
    /// Always `pong`.
    #[serde(rename = "type")]
    pub kind: &'static str,
}
