//! Between the core's positions and the tables' sets: building a [`Position`] from a sector's
//! sets, reading a position's sector, and the values of finished games. Successors always come
//! from the core's forward move generation.

use morris_core::{Bitboard, ByColor, Position, Rules, Setup};

use crate::sector::Sector;
use crate::value::Value;

/// The position with `us` (to move) and `them` on the board in a sector, or `None` when that is
/// not a position that can occur (Three Men's Morris: the side to move already has a line).
pub(crate) fn make_position(rules: &Rules, sector: Sector, us: u32, them: u32) -> Option<Position> {
    let turn = sector.turn();
    let mut pieces = ByColor::splat(Bitboard::EMPTY);
    *pieces.get_mut(turn) = Bitboard(us);
    *pieces.get_mut(!turn) = Bitboard(them);
    let mut in_hand = ByColor::splat(0);
    *in_hand.get_mut(turn) = sector.us_hand;
    *in_hand.get_mut(!turn) = sector.them_hand;
    Setup {
        rules: *rules,
        pieces,
        in_hand,
        turn,
        plies_since_removal: 0,
        move_number: 1,
    }
    .into_position()
    .ok()
}

/// The sector of a position and its sets `(us, them)` from the side to move.
pub(crate) fn split(pos: &Position) -> (Sector, u32, u32) {
    let us = pos.turn();
    let them = !us;
    let sector = Sector {
        us: pos.pieces(us).count() as u8,
        them: pos.pieces(them).count() as u8,
        us_hand: pos.in_hand(us),
        them_hand: pos.in_hand(them),
    };
    (sector, pos.pieces(us).0, pos.pieces(them).0)
}

pub(crate) use morris_core::value::terminal_value;

/// The value of a position by forward generation: a finished game's own value, else the best
/// of the values `child` gives its successors, seen from this side one ply earlier.
pub(crate) fn value_from_children<E>(
    pos: &Position,
    mut child: impl FnMut(&Position) -> Result<Value, E>,
) -> Result<Value, E> {
    if let Some(v) = terminal_value(pos) {
        return Ok(v);
    }
    let mut best = Value::Loss(0);
    for ply in pos.legal_plies() {
        best = best.max(child(&pos.after_unchecked(ply))?.parent());
    }
    Ok(best)
}
