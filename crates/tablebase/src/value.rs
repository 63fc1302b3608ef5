//! How values are stored: one byte per position. The value type itself is core's
//! [`morris_core::value::Value`].

pub use morris_core::value::{Plies, Value, Wdl};

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

/// A value as a number that orders like it (see [`Value`]'s order): the larger, the better for
/// the side to move; for the solver, which takes the best of many successors' values.
pub(crate) const fn key(v: Value) -> u16 {
    match v {
        Value::Loss(d) => d,
        Value::Draw => KEY_DRAW,
        Value::Win(d) => u16::MAX - d,
    }
}

/// The key of a draw, between those of every loss and every win (distances stay far below).
const KEY_DRAW: u16 = 1 << 15;

/// The value of a key (the inverse of [`key`]).
pub(crate) const fn from_key(k: u16) -> Value {
    if k < KEY_DRAW {
        Value::Loss(k)
    } else if k == KEY_DRAW {
        Value::Draw
    } else {
        Value::Win(u16::MAX - k)
    }
}

/// By stored byte of a successor: the [`key`] of what it is worth one ply earlier, to the side
/// that moves there (`0`, a loss at once, for [`NOT_A_POSITION`], which callers check).
pub(crate) static PARENT_KEY: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        if let Some(v) = decode(b as u8) {
            t[b] = key(v.parent());
        }
        b += 1;
    }
    t
};

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
        for w in v.windows(2) {
            assert!(key(w[0]) < key(w[1]), "{:?} {:?}", w[0], w[1]);
        }
        for x in v.iter().copied().chain([Value::Win(254), Value::Loss(254)]) {
            assert_eq!(from_key(key(x)), x);
        }
        for b in 0..=255u8 {
            if let Some(x) = decode(b) {
                assert_eq!(from_key(PARENT_KEY[b as usize]), x.parent(), "{b}");
            }
        }
        assert_eq!(-Wdl::Win, Wdl::Loss);
        assert_eq!(Value::Loss(4).parent(), Value::Win(5));
    }
}
