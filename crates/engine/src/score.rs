//! Scores: centi-pieces or a distance to the end of the game.

use std::cmp::Ordering;
use std::fmt;

/// The value of a position for the side to move.
///
/// `Cp(n)` is an estimate in hundredths of a piece. `Mate(n)` is a forced end: the side to move
/// wins in `n` plies when `n > 0` and loses in `-n` plies when `n < 0`; `Mate(0)` is a game that
/// is already over for the side to move.
///
/// Scores order by their worth to the side to move: every loss below every estimate, longer
/// losses above shorter ones, every win above every estimate, shorter wins above longer ones.
///
/// ```
/// use morris_engine::Score;
/// assert!(Score::Mate(-4) < Score::Cp(-900));
/// assert!(Score::Mate(3) > Score::Mate(7));
/// assert_eq!(Score::Mate(-4).to_string(), "mate -4");
/// assert_eq!(Score::Cp(35).to_string(), "cp 35");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// An estimate in hundredths of a piece, positive when the side to move stands better.
    Cp(i32),
    /// A forced end in that many plies: won for the side to move when positive, lost when
    /// negative.
    Mate(i32),
}

impl Score {
    /// A single number that orders like the score: estimates as they are, wins and losses
    /// beyond every estimate.
    pub fn rank(self) -> i64 {
        const FAR: i64 = 1 << 40;
        match self {
            Score::Cp(cp) => i64::from(cp),
            Score::Mate(n) if n > 0 => FAR - i64::from(n),
            Score::Mate(n) => -FAR - i64::from(n).min(0) - FAR * i64::from(n == 0),
        }
    }

    /// Whether the score is a forced win for the side to move.
    pub fn is_win(self) -> bool {
        matches!(self, Score::Mate(n) if n > 0)
    }

    /// Whether the score is a forced loss for the side to move.
    pub fn is_loss(self) -> bool {
        matches!(self, Score::Mate(n) if n <= 0)
    }

    /// The score seen from the other side, one ply earlier.
    ///
    /// ```
    /// use morris_engine::Score;
    /// assert_eq!(Score::Mate(-2).parent(), Score::Mate(3));
    /// assert_eq!(Score::Cp(20).parent(), Score::Cp(-20));
    /// ```
    pub fn parent(self) -> Score {
        match self {
            Score::Cp(cp) => Score::Cp(-cp),
            Score::Mate(n) if n > 0 => Score::Mate(-(n + 1)),
            Score::Mate(n) => Score::Mate(-n + 1),
        }
    }
}

impl Ord for Score {
    fn cmp(&self, other: &Score) -> Ordering {
        self.rank().cmp(&other.rank())
    }
}

impl PartialOrd for Score {
    fn partial_cmp(&self, other: &Score) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// Internal search values: plain `i32`s, with mate values near [`MATE`].
pub(crate) mod value {
    use super::Score;

    /// The value of a game won right now.
    pub const MATE: i32 = 30_000;
    /// Larger than every value.
    pub const INFINITE: i32 = 31_000;
    /// Values beyond this (in absolute value) are forced ends.
    pub const MATE_BOUND: i32 = MATE - 4_000;
    /// Evaluations are clamped inside this.
    pub const EVAL_LIMIT: i32 = 20_000;

    /// The value of a game lost `ply` plies from the root.
    #[inline]
    pub const fn mated_in(ply: usize) -> i32 {
        -MATE + ply as i32
    }

    /// The value of a game won `ply` plies from the root.
    #[inline]
    pub const fn mate_in(ply: usize) -> i32 {
        MATE - ply as i32
    }

    /// Whether a value is a forced end.
    #[inline]
    pub const fn is_mate(v: i32) -> bool {
        v > MATE_BOUND || v < -MATE_BOUND
    }

    /// A value at the root as a [`Score`].
    pub fn to_score(v: i32) -> Score {
        if v > MATE_BOUND {
            Score::Mate(MATE - v)
        } else if v < -MATE_BOUND {
            Score::Mate(-(MATE + v))
        } else {
            Score::Cp(v)
        }
    }

    /// A value relative to the root turned into one relative to a node `ply` plies deep, for
    /// the transposition table.
    #[inline]
    pub const fn to_table(v: i32, ply: usize) -> i32 {
        if v > MATE_BOUND {
            v + ply as i32
        } else if v < -MATE_BOUND {
            v - ply as i32
        } else {
            v
        }
    }

    /// The inverse of [`to_table`].
    #[inline]
    pub const fn from_table(v: i32, ply: usize) -> i32 {
        if v > MATE_BOUND {
            v - ply as i32
        } else if v < -MATE_BOUND {
            v + ply as i32
        } else {
            v
        }
    }
}

impl From<crate::TbValue> for Score {
    /// A tablebase value as a score: a win or loss in that many plies, a draw as 0.
    fn from(value: crate::TbValue) -> Score {
        match value {
            crate::TbValue::Win(d) => Score::Mate(i32::from(d)),
            crate::TbValue::Loss(d) => Score::Mate(-i32::from(d)),
            crate::TbValue::Draw => Score::Cp(0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::value::*;
    use super::*;

    #[test]
    fn orders_by_worth() {
        let mut scores = vec![
            Score::Mate(3),
            Score::Cp(-50),
            Score::Mate(-2),
            Score::Mate(0),
            Score::Cp(120),
            Score::Mate(9),
            Score::Mate(-10),
        ];
        scores.sort();
        assert_eq!(
            scores,
            [
                Score::Mate(0),
                Score::Mate(-2),
                Score::Mate(-10),
                Score::Cp(-50),
                Score::Cp(120),
                Score::Mate(9),
                Score::Mate(3),
            ]
        );
    }

    #[test]
    fn values_map_to_plies() {
        assert_eq!(to_score(mate_in(1)), Score::Mate(1));
        assert_eq!(to_score(mated_in(2)), Score::Mate(-2));
        assert_eq!(to_score(-mated_in(1)), Score::Mate(1));
        assert_eq!(to_score(37), Score::Cp(37));
        assert_eq!(from_table(to_table(mate_in(9), 4), 4), mate_in(9));
        assert_eq!(from_table(to_table(mated_in(9), 4), 2), mated_in(7));
    }
}
