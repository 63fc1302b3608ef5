//! How values are stored: one byte per position. The value type itself is the engine's
//! [`morris_engine::TbValue`], which this crate calls [`Value`].

pub use morris_engine::{Plies, TbValue as Value, Wdl};

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
