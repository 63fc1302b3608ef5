//! Counting the sequences of legal plies, to check move generation.

use crate::position::Position;

/// The number of sequences of exactly `depth` legal plies from `pos`.
///
/// A finished game (a side below three pieces, blocked, a line in Three Men's Morris, a full
/// board that draws) has no plies; the draw rules that need history are ignored. The last ply is
/// counted in bulk, without playing it.
///
/// ```
/// use morris_core::{perft, Position, Variant};
/// let start = Position::start(Variant::Nine);
/// assert_eq!(perft(&start, 3), 12_144);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal() as u64,
        // The children of the last full level are counted without their hash.
        2 => pos
            .legal_plies()
            .into_iter()
            .map(|ply| pos.count_legal_after(ply) as u64)
            .sum(),
        _ => pos
            .legal_plies()
            .into_iter()
            .map(|ply| {
                let mut child = *pos;
                child.play_unchecked(ply);
                perft(&child, depth - 1)
            })
            .sum(),
    }
}

/// The perft count after each legal ply, in the order of [`Position::legal_plies`].
pub fn divide(pos: &Position, depth: u32) -> Vec<(crate::Ply, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_plies()
        .into_iter()
        .map(|ply| {
            let mut child = *pos;
            child.play_unchecked(ply);
            (ply, perft(&child, depth - 1))
        })
        .collect()
}
