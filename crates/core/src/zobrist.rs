//! Zobrist keys: random numbers whose exclusive or over the features of a position hashes it.
//!
//! The hash covers the pieces on the board, the side to move and the pieces in hand: exactly
//! what makes two positions "the same" for the repetition rule. The counters are left out.

use crate::color::Color;
use crate::point::{MAX_POINTS, Point};
use crate::variant::MAX_PIECES;

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

struct Keys {
    pieces: [[u64; MAX_POINTS]; 2],
    hand: [[u64; MAX_PIECES as usize + 1]; 2],
    black_to_move: u64,
}

static KEYS: Keys = {
    let mut keys = Keys {
        pieces: [[0; MAX_POINTS]; 2],
        hand: [[0; MAX_PIECES as usize + 1]; 2],
        black_to_move: 0,
    };
    let mut state = 0x6d6f_7272_6973_2121; // "morris!!"
    let mut c = 0;
    while c < 2 {
        let mut p = 0;
        while p < MAX_POINTS {
            let (s, k) = splitmix(state);
            state = s;
            keys.pieces[c][p] = k;
            p += 1;
        }
        // A count of zero in hand hashes as zero, so that the keys of a position without
        // pieces in hand do not depend on how the hand emptied.
        let mut h = 1;
        while h <= MAX_PIECES as usize {
            let (s, k) = splitmix(state);
            state = s;
            keys.hand[c][h] = k;
            h += 1;
        }
        c += 1;
    }
    let (_, k) = splitmix(state);
    keys.black_to_move = k;
    keys
};

/// The key of a piece of `color` on `point`.
#[inline]
pub(crate) fn piece(color: Color, point: Point) -> u64 {
    KEYS.pieces[color.index()][point.index()]
}

/// The key of `count` pieces of `color` in hand.
#[inline]
pub(crate) fn hand(color: Color, count: u8) -> u64 {
    KEYS.hand[color.index()][(count as usize).min(MAX_PIECES as usize)]
}

/// The key of Black to move.
#[inline]
pub(crate) fn black_to_move() -> u64 {
    KEYS.black_to_move
}
