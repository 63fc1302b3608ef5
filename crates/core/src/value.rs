//! Exact values of positions and the trait to probe tables of them: the one vocabulary that
//! the tablebases (which compute and store values) and the engine (which probes them) share,
//! kept here so that both stand on the rules alone.

use std::cmp::Ordering;
use std::fmt;
use std::ops::Neg;

use crate::{Ply, Position};

/// Win, draw or loss for the side to move, ordered from its point of view (`Loss < Draw < Win`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    /// The side to move loses with best play of both sides.
    Loss,
    /// Neither side can force a win.
    Draw,
    /// The side to move wins with best play of both sides.
    Win,
}

impl Neg for Wdl {
    type Output = Wdl;
    fn neg(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
            Wdl::Win => Wdl::Loss,
        }
    }
}

/// A distance to the end of the game in plies: 1 is a win with the next ply, 0 a lost game
/// (the side to move is blocked or has lost a line), 2 a loss after the opponent's reply.
///
/// Wins are at odd distances and losses at even ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Plies(pub u16);

/// The exact value of a position from a tablebase, for the side to move, with perfect play
/// and the draw rules ignored: the one value type of the engine and the tablebases.
///
/// Distances are in plies to the end of the game, as the rule book's known values define them:
/// `Win(1)` wins with the next ply, `Loss(2)` is lost after the opponent's reply.
///
/// ```
/// use morris_core::value::{Value, Wdl};
/// let v = Value::Win(25);
/// assert_eq!(v.wdl(), Wdl::Win);
/// assert!(Value::Win(3) > Value::Win(5)); // a shorter win is better
/// assert!(Value::Loss(26) > Value::Loss(2)); // a longer resistance is better
/// assert!(Value::Draw > Value::Loss(200));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Value {
    /// The side to move wins in this many plies.
    Win(u16),
    /// The side to move loses in this many plies.
    Loss(u16),
    /// A draw.
    Draw,
}

impl Value {
    /// Win, draw or loss without the distance.
    pub const fn wdl(self) -> Wdl {
        match self {
            Value::Win(_) => Wdl::Win,
            Value::Loss(_) => Wdl::Loss,
            Value::Draw => Wdl::Draw,
        }
    }

    /// The distance to the end of the game, `None` for a draw.
    pub const fn plies(self) -> Option<Plies> {
        match self {
            Value::Win(d) | Value::Loss(d) => Some(Plies(d)),
            Value::Draw => None,
        }
    }

    /// The value of the position before, one ply earlier, if this was the best reply for the
    /// side that moves here (the parent's side sees the negated value one ply further).
    pub const fn parent(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d + 1),
            Value::Loss(d) => Value::Win(d + 1),
            Value::Draw => Value::Draw,
        }
    }

    fn rank(self) -> (u8, i32) {
        match self {
            Value::Loss(d) => (0, i32::from(d)),
            Value::Draw => (1, 0),
            Value::Win(d) => (2, -i32::from(d)),
        }
    }
}

impl Ord for Value {
    fn cmp(&self, other: &Value) -> Ordering {
        self.rank().cmp(&other.rank())
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Value) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(d) => write!(f, "win in {d}"),
            Value::Loss(d) => write!(f, "loss in {d}"),
            Value::Draw => f.write_str("draw"),
        }
    }
}

/// Tablebase probing: an implementation answers `None` for positions it does not hold.
pub trait Probe: Send + Sync {
    /// The value of a position, or `None` when the tablebase does not hold it.
    fn probe(&self, pos: &Position) -> Option<Value>;

    /// Whether the tablebase holds positions with pieces in hand (the placing phase), so that
    /// probing them inside a search is worth its cost.
    fn holds_placing(&self) -> bool {
        false
    }

    /// What the tablebase has to say since the last call (a build of tables begun in the
    /// background, or finished), for the engine to pass on to whoever watches it.
    fn take_news(&self) -> Vec<String> {
        Vec::new()
    }

    /// Problems met since the last call (a damaged file found while probing, say), each given
    /// once, for the engine to pass on to whoever watches it.
    fn take_problems(&self) -> Vec<String> {
        Vec::new()
    }
}

/// The value of a finished game for the side to move in it, `None` while it goes on.
pub fn terminal_value(pos: &Position) -> Option<Value> {
    let outcome = pos.outcome()?;
    Some(match outcome.winner {
        None => Value::Draw,
        Some(c) if c == pos.turn() => Value::Win(0),
        Some(_) => Value::Loss(0),
    })
}

/// Every legal ply of `pos` with the exact value it leads to, for the side that plays it (the
/// value of the position reached, seen one ply earlier), best first; plies of equal value keep
/// the order of generation. `value` gives the value of a position reached that is not a
/// finished game: this is the one place where plies are scored from tables.
///
/// # Errors
///
/// The first error of `value`.
pub fn score_plies<E>(
    pos: &Position,
    mut value: impl FnMut(&Position) -> Result<Value, E>,
) -> Result<Vec<(Ply, Value)>, E> {
    let mut out = Vec::new();
    for ply in pos.legal_plies() {
        let child = pos.after_unchecked(ply);
        let v = match terminal_value(&child) {
            Some(v) => v,
            None => value(&child)?,
        };
        out.push((ply, v.parent()));
    }
    out.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
    Ok(out)
}
