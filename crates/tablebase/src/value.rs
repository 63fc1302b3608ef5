//! Values of positions: win, loss or draw for the side to move, with the distance to the end.

use std::cmp::Ordering;
use std::fmt;
use std::ops::Neg;

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

/// The value of a position with perfect play, draw rules ignored.
///
/// ```
/// use morris_tablebase::{Value, Wdl};
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

/// The byte of an undecided position during a build and of a draw in a finished table.
pub(crate) const DRAW: u8 = 0;
/// The byte of an index that names no position that can occur (Three Men's Morris: the side
/// to move already has a line).
pub(crate) const NOT_A_POSITION: u8 = 255;
/// The longest distance a byte holds.
pub const MAX_DISTANCE: u16 = 253;

/// The byte that stores a decided value: the distance plus one (its parity tells win from loss).
pub(crate) const fn encode_distance(d: u16) -> u8 {
    (d + 1) as u8
}

/// The value a stored byte means, `None` for [`NOT_A_POSITION`].
pub(crate) const fn decode(byte: u8) -> Option<Value> {
    match byte {
        DRAW => Some(Value::Draw),
        NOT_A_POSITION => None,
        b => {
            let d = (b - 1) as u16;
            if d % 2 == 1 {
                Some(Value::Win(d))
            } else {
                Some(Value::Loss(d))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip() {
        for d in 0..=MAX_DISTANCE {
            let v = decode(encode_distance(d)).unwrap();
            assert_eq!(v.plies(), Some(Plies(d)));
            assert_eq!(v.wdl(), if d % 2 == 1 { Wdl::Win } else { Wdl::Loss });
        }
        assert_eq!(decode(DRAW), Some(Value::Draw));
        assert_eq!(decode(NOT_A_POSITION), None);
    }

    #[test]
    fn order_prefers_short_wins_and_long_losses() {
        let mut v = vec![
            Value::Win(5),
            Value::Loss(2),
            Value::Draw,
            Value::Win(1),
            Value::Loss(8),
        ];
        v.sort();
        assert_eq!(
            v,
            [
                Value::Loss(2),
                Value::Loss(8),
                Value::Draw,
                Value::Win(5),
                Value::Win(1)
            ]
        );
        assert_eq!(-Wdl::Win, Wdl::Loss);
        assert_eq!(Value::Loss(4).parent(), Value::Win(5));
    }
}
