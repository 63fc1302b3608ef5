//! Games: a starting position and the plies played, with the draw rules that need history.

use std::fmt;

use crate::color::Color;
use crate::outcome::{Outcome, Reason};
use crate::ply::Ply;
use crate::position::{PlayError, PlyList, Position, TextPlyError};

/// A game: the starting position, the plies played and every position passed through.
///
/// It applies the draw rules (repetition, the N-move rule) on top of the rules of play, and
/// records resignations and agreed draws.
///
/// ```
/// use morris_core::{Game, Position, Variant};
/// let mut game = Game::new(Position::start(Variant::Nine));
/// game.play_text("d6")?;
/// game.play_text("f4")?;
/// assert_eq!(game.plies().len(), 2);
/// game.undo();
/// assert_eq!(game.position().to_string(), ".../.W./.../....../.../.../... b 8 9 0 1");
/// # Ok::<_, morris_core::GameError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    positions: Vec<Position>,
    plies: Vec<Ply>,
    ended: Option<Outcome>,
}

/// The error of playing in a [`Game`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameError {
    /// The game is over.
    Over(Outcome),
    /// The ply cannot be read or is not legal.
    Ply(TextPlyError),
    /// The ply is not legal.
    Illegal(PlayError),
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Over(o) => write!(f, "the game is over: {}", o.describe()),
            GameError::Ply(e) => write!(f, "{e}"),
            GameError::Illegal(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for GameError {}

impl Game {
    /// A game from a position.
    pub fn new(start: Position) -> Game {
        Game {
            positions: vec![start],
            plies: Vec::new(),
            ended: None,
        }
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().unwrap_or(&self.positions[0])
    }

    /// The plies played.
    pub fn plies(&self) -> &[Ply] {
        &self.plies
    }

    /// The positions passed through: the start, then one after each ply.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// How often the current position has occurred in this game, counting itself.
    pub fn repetitions(&self) -> usize {
        let current = self.position();
        let back = (current.plies_since_removal() as usize).min(self.positions.len() - 1);
        self.positions[self.positions.len() - 1 - back..]
            .iter()
            .filter(|p| {
                p.hash() == current.hash()
                    && p.pieces_by_color() == current.pieces_by_color()
                    && p.turn() == current.turn()
                    && p.in_hand(Color::White) == current.in_hand(Color::White)
                    && p.in_hand(Color::Black) == current.in_hand(Color::Black)
            })
            .count()
    }

    /// The result, if the game is over: by resignation or agreement, by the rules of play, by
    /// repetition, or by the N-move rule, in that order.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.ended {
            return Some(o);
        }
        let pos = self.position();
        if let Some(o) = pos.outcome() {
            return Some(o);
        }
        let rules = pos.rules();
        if rules.repetition != 0 && self.repetitions() >= rules.repetition as usize {
            return Some(Outcome::draw(Reason::Repetition));
        }
        if pos.n_move_limit_reached() {
            return Some(Outcome::draw(Reason::NMoveRule));
        }
        None
    }

    /// The legal plies now; none when the game is over.
    pub fn legal_plies(&self) -> PlyList {
        if self.outcome().is_some() {
            PlyList::new()
        } else {
            self.position().legal_plies()
        }
    }

    /// Plays a ply.
    ///
    /// # Errors
    ///
    /// [`GameError::Over`] when the game is over, [`GameError::Illegal`] when the ply is not
    /// legal.
    pub fn play(&mut self, ply: Ply) -> Result<(), GameError> {
        if let Some(o) = self.outcome() {
            return Err(GameError::Over(o));
        }
        let next = (*self.position()).play(ply).map_err(GameError::Illegal)?;
        self.positions.push(next);
        self.plies.push(ply);
        Ok(())
    }

    /// Reads a ply in notation and plays it.
    ///
    /// # Errors
    ///
    /// [`GameError::Over`] when the game is over, [`GameError::Ply`] when the text cannot be
    /// read or is not a legal ply.
    pub fn play_text(&mut self, text: &str) -> Result<Ply, GameError> {
        if let Some(o) = self.outcome() {
            return Err(GameError::Over(o));
        }
        let ply = self.position().parse_ply(text).map_err(GameError::Ply)?;
        self.play(ply)?;
        Ok(ply)
    }

    /// Takes back the last ply (and any resignation or agreement after it). Returns the ply, or
    /// `None` at the start.
    pub fn undo(&mut self) -> Option<Ply> {
        self.ended = None;
        let ply = self.plies.pop()?;
        self.positions.pop();
        Some(ply)
    }

    /// Ends the game: `color` resigns. Has no effect on a game already over.
    pub fn resign(&mut self, color: Color) {
        if self.outcome().is_none() {
            self.ended = Some(Outcome::win(!color, Reason::Resignation));
        }
    }

    /// Ends the game in a draw by agreement. Has no effect on a game already over.
    pub fn agree_draw(&mut self) {
        if self.outcome().is_none() {
            self.ended = Some(Outcome::draw(Reason::Agreement));
        }
    }

    /// Sets the end of a game read from a record when its moves do not show it (a resignation
    /// or agreement), so that the game reports it.
    pub fn set_ended(&mut self, outcome: Option<Outcome>) {
        self.ended = outcome;
    }

    /// The plies in notation, as the board names them.
    pub fn ply_texts(&self) -> Vec<String> {
        let board = self.start().board();
        self.plies
            .iter()
            .map(|p| p.display(board).to_string())
            .collect()
    }
}
