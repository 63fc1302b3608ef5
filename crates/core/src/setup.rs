//! Unchecked positions and the check that turns them into [`Position`]s.

use std::fmt;

use crate::bitboard::Bitboard;
use crate::color::{ByColor, Color};
use crate::position::Position;
use crate::variant::{Rules, RulesError};

/// A position as written down, not necessarily one that can occur.
///
/// [`Setup::into_position`] checks it; its error names every problem found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The rules of the game.
    pub rules: Rules,
    /// The pieces of each side on the board.
    pub pieces: ByColor<Bitboard>,
    /// The pieces of each side still to be placed.
    pub in_hand: ByColor<u8>,
    /// The side to move.
    pub turn: Color,
    /// Plies since the last placement or removal (the counter of the N-move rule).
    pub plies_since_removal: u16,
    /// Starts at 1 and grows after each of Black's plies.
    pub move_number: u32,
}

impl Setup {
    /// The starting position of a game under these rules.
    pub fn start(rules: Rules) -> Setup {
        Setup {
            rules,
            pieces: ByColor::splat(Bitboard::EMPTY),
            in_hand: ByColor::splat(rules.pieces),
            turn: Color::White,
            plies_since_removal: 0,
            move_number: 1,
        }
    }

    /// Checks the setup and turns it into a position.
    ///
    /// # Errors
    ///
    /// A [`SetupError`] listing every problem found.
    pub fn into_position(self) -> Result<Position, SetupError> {
        let problems = self.problems();
        if problems.is_empty() {
            Ok(Position::from_checked_setup(self))
        } else {
            Err(SetupError { problems })
        }
    }

    /// Every reason why this setup is not a position that can occur.
    pub fn problems(&self) -> Vec<SetupProblem> {
        let mut problems = Vec::new();
        if let Err(e) = self.rules.check() {
            problems.push(SetupProblem::Rules(e));
            return problems;
        }
        let rules = &self.rules;
        let board = rules.board();
        for color in Color::ALL {
            let on_board = *self.pieces.get(color);
            if (on_board - board.all()).any() {
                problems.push(SetupProblem::OffBoard(color));
            }
            let hand = *self.in_hand.get(color);
            if hand > rules.pieces {
                problems.push(SetupProblem::TooManyInHand(color, hand));
            } else if on_board.count() + hand as usize > rules.pieces as usize {
                problems.push(SetupProblem::TooManyPieces(color));
            }
        }
        if (self.pieces.white & self.pieces.black).any() {
            problems.push(SetupProblem::Overlap);
        }
        if !rules.place_or_move {
            // Placements alternate, White first: with White to move both have placed equally
            // often, with Black to move White has placed once more.
            let (w, b) = (self.in_hand.white, self.in_hand.black);
            let fits = (w == 0 && b == 0)
                || match self.turn {
                    Color::White => w == b,
                    Color::Black => w + 1 == b,
                };
            if !fits {
                problems.push(SetupProblem::HandsDoNotAlternate);
            }
            if (w > 0 || b > 0) && self.plies_since_removal != 0 {
                problems.push(SetupProblem::CounterInPlacing);
            }
        }
        let left = |c: Color| self.pieces.get(c).count() + *self.in_hand.get(c) as usize;
        if left(Color::White) < 3 && left(Color::Black) < 3 {
            problems.push(SetupProblem::BothBelowThree);
        }
        if rules.line_wins {
            let lines = self.pieces.map(|p| board.in_mills(p).any());
            if *lines.get(self.turn) {
                problems.push(SetupProblem::LineOfSideToMove);
            }
        }
        if self.move_number == 0 {
            problems.push(SetupProblem::MoveNumberZero);
        }
        problems
    }
}

/// One reason why a [`Setup`] is not a position that can occur.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SetupProblem {
    /// The rule options do not fit together.
    Rules(RulesError),
    /// A side has pieces on points the board does not have.
    OffBoard(Color),
    /// A side has more pieces in hand than the rules give.
    TooManyInHand(Color, u8),
    /// A side has more pieces on the board and in hand than the rules give.
    TooManyPieces(Color),
    /// A point holds pieces of both sides.
    Overlap,
    /// The pieces in hand do not fit the side to move: placements alternate, White first.
    HandsDoNotAlternate,
    /// The N-move counter is not 0 although pieces remain to be placed.
    CounterInPlacing,
    /// Both sides have fewer than three pieces.
    BothBelowThree,
    /// The side to move already has a line of three (Three Men's Morris): the game ended before.
    LineOfSideToMove,
    /// The move number is 0; it starts at 1.
    MoveNumberZero,
    /// A removal is owed, but the rules never remove (Three Men's Morris).
    RemovalNotInRules,
    /// A removal is owed, but the side that removes has no mill.
    RemovalWithoutMill(Color),
    /// A removal is owed, but this side has no piece on the board.
    NothingToRemove(Color),
    /// This many removals are owed, which no ply under these rules earns.
    RemovalsOwed(u8),
}

impl fmt::Display for SetupProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupProblem::Rules(e) => write!(f, "{e}"),
            SetupProblem::OffBoard(c) => write!(f, "{} has pieces off the board", c.title()),
            SetupProblem::TooManyInHand(c, n) => {
                write!(f, "{} has {n} pieces in hand, more than the rules give", c.title())
            }
            SetupProblem::TooManyPieces(c) => write!(
                f,
                "{} has more pieces on the board and in hand than the rules give",
                c.title()
            ),
            SetupProblem::Overlap => f.write_str("a point holds pieces of both sides"),
            SetupProblem::HandsDoNotAlternate => f.write_str(
                "the pieces in hand do not fit the side to move (placements alternate, White first)",
            ),
            SetupProblem::CounterInPlacing => f.write_str(
                "the plies-since-removal counter must be 0 while pieces remain in hand",
            ),
            SetupProblem::BothBelowThree => f.write_str("both sides have fewer than three pieces"),
            SetupProblem::LineOfSideToMove => {
                f.write_str("the side to move already has a line of three")
            }
            SetupProblem::MoveNumberZero => f.write_str("the move number must be at least 1"),
            SetupProblem::RemovalNotInRules => {
                f.write_str("a removal is owed, but these rules remove nothing")
            }
            SetupProblem::RemovalWithoutMill(c) => {
                write!(f, "{} is to remove a piece but has no mill", c.title())
            }
            SetupProblem::NothingToRemove(c) => {
                write!(f, "a removal is owed, but {} has no piece to remove", c.title())
            }
            SetupProblem::RemovalsOwed(n) => write!(
                f,
                "{n} removals are owed, which no ply earns under these rules"
            ),
        }
    }
}

/// The error of a [`Setup`] that is not a position that can occur: every problem found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupError {
    /// The problems, at least one.
    pub problems: Vec<SetupProblem>,
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid position: ")?;
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SetupError {}
