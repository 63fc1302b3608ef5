//! The static evaluation: material with pieces in hand, mills, open mills and running mills,
//! mobility and blocked pieces, with weights that change with the phase of the game.

use morris_core::{Bitboard, Color, Position};

use crate::score::value::EVAL_LIMIT;

/// The weights of one phase, in hundredths of a piece.
#[derive(Clone, Copy, Debug)]
struct Weights {
    piece: i32,
    mill: i32,
    open: i32,
    threat: i32,
    double: i32,
    mobility: i32,
    blocked: i32,
}

/// Either side still has pieces in hand.
const PLACING: Weights = Weights {
    piece: 100,
    mill: 12,
    open: 14,
    threat: 14,
    double: 30,
    mobility: 8,
    blocked: 6,
};

/// Both sides move on the board; neither flies.
const MOVING: Weights = Weights {
    piece: 110,
    mill: 20,
    open: 6,
    threat: 36,
    double: 90,
    mobility: 10,
    blocked: 8,
};

/// At least one side flies.
const FLYING: Weights = Weights {
    piece: 140,
    mill: 10,
    open: 10,
    threat: 60,
    double: 90,
    mobility: 3,
    blocked: 6,
};

/// The bonus of having the move.
const TEMPO: i32 = 8;
/// For the side not to move, two or more open mills that it can close next turn when the
/// side to move flies or can block only one.
const FORK: i32 = 120;

/// What the evaluation counts for one side.
#[derive(Clone, Copy, Debug, Default)]
struct Features {
    pieces: i32,
    mills: i32,
    open: i32,
    threat_points: Bitboard,
    double: i32,
    mobility: i32,
    blocked: i32,
}

fn features(pos: &Position, us: Color) -> Features {
    let board = pos.board();
    let own = pos.pieces(us);
    let their = pos.pieces(!us);
    let empty = pos.empty();
    let placing = pos.in_hand(us) > 0;
    let moving = pos.can_move_pieces(us);
    let flying = pos.can_fly(us);
    let mut f = Features {
        pieces: pos.pieces_left(us) as i32,
        ..Features::default()
    };
    for p in own {
        let free = board.adjacent(p) & empty;
        if free.is_empty() {
            f.blocked += 1;
        }
        if !flying {
            f.mobility += free.count() as i32;
        }
    }
    for &mill in board.mills() {
        let mine = mill & own;
        if (mill & their).any() {
            continue;
        }
        match mine.count() {
            3 => {
                // A mill counts when it can be opened and closed again.
                let openable = mill.into_iter().any(|p| (board.adjacent(p) & empty).any());
                if openable || placing {
                    f.mills += 1;
                }
                // A running mill: a piece of the mill can step to a point that closes another.
                if moving && !flying {
                    for p in mill {
                        for q in board.adjacent(p) & empty {
                            let rest = (own - Bitboard::from_point(p)) | Bitboard::from_point(q);
                            if board.mills_closed_at(q, rest) > 0 {
                                f.double += 1;
                            }
                        }
                    }
                }
            }
            2 => {
                let gap = mill - mine;
                f.open += 1;
                let closable = if placing || flying {
                    true
                } else if moving {
                    // A piece from outside the line can slide into the gap.
                    gap.into_iter()
                        .any(|g| (board.adjacent(g) & own & !mill).any())
                } else {
                    false
                };
                if closable {
                    f.threat_points |= gap;
                }
            }
            _ => {}
        }
    }
    f
}

fn weigh(f: &Features, w: &Weights) -> i32 {
    f.pieces * w.piece
        + f.mills * w.mill
        + f.open * w.open
        + f.threat_points.count() as i32 * w.threat
        + f.double * w.double
        + f.mobility * w.mobility
        - f.blocked * w.blocked
}

/// The evaluation of a position that is not over, for the side to move, in hundredths of a
/// piece.
pub(crate) fn evaluate(pos: &Position) -> i32 {
    let us = pos.turn();
    let them = !us;
    let weights = if pos.in_hand(us) > 0 || pos.in_hand(them) > 0 {
        &PLACING
    } else if pos.can_fly(us) || pos.can_fly(them) {
        &FLYING
    } else {
        &MOVING
    };
    let mine = features(pos, us);
    let theirs = features(pos, them);
    let mut v = weigh(&mine, weights) - weigh(&theirs, weights) + TEMPO;
    // The side to move can block one threat point only; two or more against it, when it
    // cannot close a mill first, usually cost a piece.
    if theirs.threat_points.count() >= 2 && mine.threat_points.is_empty() {
        v -= FORK;
    }
    if mine.threat_points.any() {
        // It closes a mill now: worth most of a piece.
        v += weights.piece / 2;
    }
    v.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use morris_core::Variant;

    fn after(plies: &str) -> Position {
        let mut pos = Position::start(Variant::Nine);
        for ply in plies.split_whitespace() {
            pos = pos.play_text(ply).unwrap();
        }
        pos
    }

    #[test]
    fn the_start_is_level_but_for_the_move() {
        assert_eq!(evaluate(&Position::start(Variant::Nine)), TEMPO);
    }

    #[test]
    fn symmetric_positions_evaluate_alike() {
        let p = after("d6 f4 d2 b4 d7 b6 a1 g1 c4");
        let v = evaluate(&p);
        for sym in p.board().symmetries() {
            assert_eq!(evaluate(&p.transform(sym)), v);
        }
    }

    #[test]
    fn more_material_is_better() {
        let p = after("d6 f4 d5 b4 d7xb4");
        assert!(evaluate(&p) < -50, "{}", evaluate(&p));
    }
}
