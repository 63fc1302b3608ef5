//! The engine's view of tablebases: a trait to probe them, implemented elsewhere.

use morris_core::Position;

/// The exact value of a position from a tablebase, for the side to move.
///
/// Distances are in plies to the end of the game, as the rule book's known values define them:
/// `Win(1)` wins with the next ply, `Loss(2)` is lost after the opponent's reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TbValue {
    /// The side to move wins in that many plies.
    Win(u16),
    /// The side to move loses in that many plies.
    Loss(u16),
    /// A draw with best play.
    Draw,
}

/// Tablebase probing. The engine calls it in positions where neither side has pieces in hand;
/// an implementation answers `None` for positions it does not hold.
pub trait Probe: Send + Sync {
    /// The value of a position, or `None` when the tablebase does not hold it.
    fn probe(&self, pos: &Position) -> Option<TbValue>;
}
