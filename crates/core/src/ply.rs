//! Plies, the unit of play, and their notation.

use std::fmt;
use std::str::FromStr;

use arrayvec::ArrayVec;

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::point::{Point, Square};

/// One player's turn: a placement, a slide or a flight, with any removal it earns folded in.
///
/// A slide and a flight are both a [`Ply::Move`]; which one it is follows from the position.
/// `remove` is the set of opposing points removed: empty, one point, or with the one-removal-per-
/// mill option up to one per mill closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ply {
    /// A piece from hand placed on an empty point.
    Place {
        /// Where the piece goes.
        to: Point,
        /// The opposing pieces removed.
        remove: Bitboard,
    },
    /// A piece on the board moved to an empty point.
    Move {
        /// Where the piece comes from.
        from: Point,
        /// Where the piece goes.
        to: Point,
        /// The opposing pieces removed.
        remove: Bitboard,
    },
}

impl Ply {
    /// The point the piece arrives on.
    #[inline]
    pub const fn to(self) -> Point {
        match self {
            Ply::Place { to, .. } | Ply::Move { to, .. } => to,
        }
    }

    /// The point a moved piece leaves, or `None` for a placement.
    #[inline]
    pub const fn from(self) -> Option<Point> {
        match self {
            Ply::Place { .. } => None,
            Ply::Move { from, .. } => Some(from),
        }
    }

    /// The opposing pieces the ply removes.
    #[inline]
    pub const fn removals(self) -> Bitboard {
        match self {
            Ply::Place { remove, .. } | Ply::Move { remove, .. } => remove,
        }
    }

    /// Whether the ply places a piece from hand.
    #[inline]
    pub const fn is_placement(self) -> bool {
        matches!(self, Ply::Place { .. })
    }

    /// Whether the ply removes at least one piece.
    #[inline]
    pub const fn is_removal(self) -> bool {
        self.removals().any()
    }

    /// The same ply with another set of removals.
    #[must_use]
    pub const fn with_removals(self, remove: Bitboard) -> Ply {
        match self {
            Ply::Place { to, .. } => Ply::Place { to, remove },
            Ply::Move { from, to, .. } => Ply::Move { from, to, remove },
        }
    }

    /// The ply in notation on a board.
    pub fn to_text(self, board: &Board) -> PlyText {
        PlyText {
            from: self.from().map(|p| board.square(p)),
            to: board.square(self.to()),
            remove: self
                .removals()
                .into_iter()
                .map(|p| board.square(p))
                .collect(),
        }
    }

    /// A value that displays the ply in notation on a board.
    ///
    /// ```
    /// use morris_core::{BoardKind, Ply, Bitboard};
    /// let board = BoardKind::Standard.board();
    /// let ply = Ply::Move {
    ///     from: board.point("f2").unwrap(),
    ///     to: board.point("f4").unwrap(),
    ///     remove: board.point("d5").unwrap().into(),
    /// };
    /// assert_eq!(ply.display(board).to_string(), "f2-f4xd5");
    /// ```
    pub fn display(self, board: &Board) -> impl fmt::Display + use<> {
        self.to_text(board)
    }
}

/// The most removals one ply can earn: one per mill with three mills closed at once.
pub const MAX_REMOVALS: usize = 4;

/// A ply as written, not yet tied to a board or a position: `d6`, `f2-f4`, `f2-f4xd5`.
///
/// Reading a `PlyText` only checks the form. [`crate::Position::ply_from_text`] turns it into a
/// legal [`Ply`] of a position, or says why it is not one.
///
/// ```
/// use morris_core::PlyText;
/// let text: PlyText = "F2-F4xD5".parse()?;
/// assert_eq!(text.to_string(), "f2-f4xd5");
/// # Ok::<_, morris_core::ParsePlyError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PlyText {
    /// The point a moved piece leaves; `None` for a placement.
    pub from: Option<Square>,
    /// The point the piece arrives on.
    pub to: Square,
    /// The removed points, in the order written.
    pub remove: ArrayVec<Square, MAX_REMOVALS>,
}

impl fmt::Display for PlyText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(from) = self.from {
            write!(f, "{from}-")?;
        }
        write!(f, "{}", self.to)?;
        for r in &self.remove {
            write!(f, "x{r}")?;
        }
        Ok(())
    }
}

/// The error of reading a ply: the text does not have the form of one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsePlyError {
    text: String,
    reason: &'static str,
}

impl ParsePlyError {
    fn new(text: &str, reason: &'static str) -> ParsePlyError {
        ParsePlyError {
            text: text.chars().take(24).collect(),
            reason,
        }
    }
}

impl fmt::Display for ParsePlyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot read ply '{}': {}", self.text, self.reason)
    }
}

impl std::error::Error for ParsePlyError {}

impl FromStr for PlyText {
    type Err = ParsePlyError;

    fn from_str(s: &str) -> Result<PlyText, ParsePlyError> {
        let b = s.as_bytes();
        let square = |i: usize| -> Result<Square, ParsePlyError> {
            match b.get(i..i + 2) {
                Some(&[file, rank]) => Square::from_bytes(file, rank)
                    .ok_or_else(|| ParsePlyError::new(s, "expected a point name a1 to g7")),
                _ => Err(ParsePlyError::new(s, "expected a point name a1 to g7")),
            }
        };
        if b.is_empty() {
            return Err(ParsePlyError::new(s, "it is empty"));
        }
        let first = square(0)?;
        let mut i = 2;
        let (from, to) = if b.get(i) == Some(&b'-') {
            let to = square(i + 1)?;
            i += 3;
            (Some(first), to)
        } else {
            (None, first)
        };
        let mut remove = ArrayVec::new();
        while i < b.len() {
            if !b[i].eq_ignore_ascii_case(&b'x') {
                return Err(ParsePlyError::new(
                    s,
                    "expected 'x' and a removed point after the move",
                ));
            }
            if remove.is_full() {
                return Err(ParsePlyError::new(s, "too many removals"));
            }
            remove.push(square(i + 1)?);
            i += 3;
        }
        if from == Some(to) {
            return Err(ParsePlyError::new(s, "a move must go to another point"));
        }
        Ok(PlyText { from, to, remove })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ply_is_eight_bytes() {
        assert_eq!(std::mem::size_of::<Ply>(), 8);
    }

    #[test]
    fn ply_text_round_trips_and_rejects_junk() {
        for s in ["d6", "f2-f4", "d6xa1", "f2-f4xd5", "e4xg7xa1"] {
            assert_eq!(s.parse::<PlyText>().unwrap().to_string(), s);
        }
        for s in [
            "", "d", "h1", "d8", "d6-", "d6-d6", "d6y", "d6xa", "d6-a1-a4", "d6 ",
        ] {
            assert!(s.parse::<PlyText>().is_err(), "{s:?} accepted");
        }
    }
}
