//! The static evaluation: a weighted sum of terms counted for each side (material with pieces
//! in hand, mills, open and running mills, mobility now and to come, blocked and frozen pieces)
//! with one set of weights per phase, read from `weights.txt`, which `morris tune` fits to the
//! tables' exact values.
//!
//! A score `S` means an expected result of about `1 / (1 + exp(-S / scale))` for the side to
//! move (win 1, draw ½, loss 0), with the file's `scale`: the weights are fitted so.

use std::sync::OnceLock;

use morris_core::{Bitboard, Color, Position};

use crate::score::value::EVAL_LIMIT;

/// The terms counted for each side; the evaluation weighs the difference between the side to
/// move and the other.
pub const SIDE_TERMS: [&str; 16] = [
    "piece",
    "hand",
    "mill",
    "dead_mill",
    "open",
    "threat",
    "double",
    "mobility",
    "liberty",
    "safe_liberty",
    "exclusive",
    "blocked",
    "frozen",
    "stuck",
    "flies",
    "pinned_mill",
];

/// The terms of the position as a whole, for the side to move: the move itself, two threats
/// against it that it cannot meet, a mill it closes now.
pub const GLOBAL_TERMS: [&str; 3] = ["tempo", "fork", "close"];

/// The number of terms in one phase.
pub const TERMS: usize = SIDE_TERMS.len() + GLOBAL_TERMS.len();

/// The phases that have weights of their own.
pub const PHASES: [&str; 3] = ["placing", "moving", "flying"];

/// The phase of a position: 0 while either side has pieces in hand, 2 when either side flies,
/// else 1.
pub fn phase(pos: &Position) -> usize {
    let (us, them) = (pos.turn(), !pos.turn());
    if pos.in_hand(us) > 0 || pos.in_hand(them) > 0 {
        0
    } else if pos.can_fly(us) || pos.can_fly(them) {
        2
    } else {
        1
    }
}

/// The weights of every phase, in centi-pieces per unit of each term.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// The logistic scale of scores, in centi-pieces: a score of `scale` is an expected
    /// result of about 0.73 for the side to move, three times it about 0.95.
    pub scale: i32,
    /// Per phase, the weight of every term (side terms first, then global ones).
    pub phases: [[i32; TERMS]; 3],
}

/// Why a weights file cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightsError(String);

impl std::fmt::Display for WeightsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for WeightsError {}

/// The name of term `i` of a phase.
pub fn term_name(i: usize) -> &'static str {
    if i < SIDE_TERMS.len() {
        SIDE_TERMS[i]
    } else {
        GLOBAL_TERMS[i - SIDE_TERMS.len()]
    }
}

/// The environment variable naming a weights file that the evaluation uses instead of the one
/// compiled in, so that weights made by `morris tune` can be played before they are committed.
pub const WEIGHTS_ENV: &str = "MORRIS_WEIGHTS";

impl Weights {
    /// The weights compiled in (the file `weights.txt` of this crate).
    pub fn built_in() -> &'static Weights {
        static WEIGHTS: OnceLock<Weights> = OnceLock::new();
        WEIGHTS.get_or_init(|| {
            // The file is part of the source and a test reads it; an unreadable one would
            // fail that test, so falling back here never happens in a released build.
            Weights::parse(include_str!("weights.txt")).unwrap_or_else(|_| Weights::zero())
        })
    }

    /// The weights the engine plays with: those of the file named by [`WEIGHTS_ENV`] when it
    /// is set and readable, else [`Weights::built_in`]. Programs check the file first with
    /// [`Weights::from_env`], so that a bad one is reported rather than passed over.
    pub fn in_use() -> &'static Weights {
        static WEIGHTS: OnceLock<Weights> = OnceLock::new();
        WEIGHTS.get_or_init(|| {
            Weights::from_env()
                .ok()
                .flatten()
                .unwrap_or_else(|| Weights::built_in().clone())
        })
    }

    /// The weights of the file named by [`WEIGHTS_ENV`]; `None` when it is not set.
    ///
    /// # Errors
    ///
    /// A file that cannot be read or is not a weights file.
    pub fn from_env() -> Result<Option<Weights>, WeightsError> {
        let Some(path) = std::env::var_os(WEIGHTS_ENV) else {
            return Ok(None);
        };
        let fail = |e: &dyn std::fmt::Display| {
            WeightsError(format!(
                "{WEIGHTS_ENV}={}: {e}",
                std::path::Path::new(&path).display()
            ))
        };
        // A weights file is a few hundred lines; anything much larger is not one.
        const MAX_BYTES: u64 = 1 << 20;
        let len = std::fs::metadata(&path).map_err(|e| fail(&e))?.len();
        if len > MAX_BYTES {
            return Err(fail(&format!("larger than {MAX_BYTES} bytes")));
        }
        let text = std::fs::read_to_string(&path).map_err(|e| fail(&e))?;
        Weights::parse(&text).map(Some).map_err(|e| fail(&e))
    }

    /// Every weight 0.
    pub fn zero() -> Weights {
        Weights {
            scale: 100,
            phases: [[0; TERMS]; 3],
        }
    }

    /// Reads a weights file: a line `scale N`, lines `PHASE TERM WEIGHT`, `#` comments and
    /// blank lines; every weight of every phase must be given once.
    ///
    /// # Errors
    ///
    /// A line that cannot be read, an unknown phase or term, a weight given twice or missing.
    pub fn parse(text: &str) -> Result<Weights, WeightsError> {
        let mut w = Weights::zero();
        let mut seen = [[false; TERMS]; 3];
        let mut scale = None;
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let err = |what: &str| WeightsError(format!("line {}: {what}", n + 1));
            let words: Vec<&str> = line.split_whitespace().collect();
            if let ["scale", value] = words[..] {
                match value.parse::<i32>() {
                    Ok(v) if (1..=10_000).contains(&v) && scale.is_none() => scale = Some(v),
                    _ => return Err(err("scale: a whole number from 1 to 10000, once")),
                }
                continue;
            }
            let [phase, term, value] = words[..] else {
                return Err(err("expected PHASE TERM WEIGHT"));
            };
            let p = PHASES
                .iter()
                .position(|&x| x == phase)
                .ok_or_else(|| err(&format!("unknown phase '{phase}'")))?;
            let t = (0..TERMS)
                .find(|&i| term_name(i) == term)
                .ok_or_else(|| err(&format!("unknown term '{term}'")))?;
            let v: i32 = value
                .parse()
                .map_err(|_| err(&format!("'{value}' is not a whole number")))?;
            if v.abs() > 10_000 {
                return Err(err("a weight is at most 10000 either way"));
            }
            if std::mem::replace(&mut seen[p][t], true) {
                return Err(err(&format!("{phase} {term} given twice")));
            }
            w.phases[p][t] = v;
        }
        w.scale = scale.ok_or_else(|| WeightsError("the scale is missing".into()))?;
        for (phase, seen) in PHASES.iter().zip(&seen) {
            if let Some(t) = seen.iter().position(|&s| !s) {
                return Err(WeightsError(format!("{phase} {} is missing", term_name(t))));
            }
        }
        Ok(w)
    }

    /// The weights as a file that [`Weights::parse`] reads back.
    pub fn to_text(&self, header: &str) -> String {
        let mut out = String::new();
        for line in header.lines() {
            out.push_str("# ");
            out.push_str(line);
            out.push('\n');
        }
        out.push_str(&format!("\nscale {}\n", self.scale));
        for (p, phase) in PHASES.iter().enumerate() {
            out.push('\n');
            for t in 0..TERMS {
                out.push_str(&format!("{phase} {} {}\n", term_name(t), self.phases[p][t]));
            }
        }
        out
    }
}

/// The points next to any point of a set.
fn neighbours(board: &morris_core::Board, set: Bitboard) -> Bitboard {
    set.into_iter()
        .fold(Bitboard::EMPTY, |acc, p| acc | board.adjacent(p))
}

/// What one side has: its side terms, and the points where it closes a mill next.
fn side(pos: &Position, us: Color) -> ([i32; SIDE_TERMS.len()], Bitboard) {
    let board = pos.board();
    let own = pos.pieces(us);
    let their = pos.pieces(!us);
    let empty = pos.empty();
    let placing = pos.in_hand(us) > 0;
    let moving = pos.can_move_pieces(us);
    let flying = pos.can_fly(us);
    let mut t = [0i32; SIDE_TERMS.len()];
    t[0] = pos.pieces_left(us) as i32;
    t[1] = i32::from(pos.in_hand(us));
    // Pieces with a free neighbour.
    let mut free_pieces = Bitboard::EMPTY;
    for p in own {
        let free = board.adjacent(p) & empty;
        if free.is_empty() {
            t[11] += 1;
        } else {
            free_pieces |= Bitboard::from_point(p);
        }
        if !flying {
            t[7] += free.count() as i32;
        }
    }
    // A blocked piece is frozen when no piece of its own next to it can step away to free it.
    for p in own - free_pieces {
        if (board.adjacent(p) & free_pieces).is_empty() {
            t[12] += 1;
        }
    }
    let mut threat_points = Bitboard::EMPTY;
    for &mill in board.mills() {
        let mine = mill & own;
        if (mill & their).any() {
            continue;
        }
        match mine.count() {
            3 => {
                // A mill counts when it can be opened and closed again.
                let openable = (mill & free_pieces).any();
                if openable || placing {
                    t[2] += 1;
                }
                if !openable {
                    t[3] += 1;
                }
                // A mill whose pieces are all hemmed in by the other side.
                if (neighbours(board, mill) & !mill & !their).is_empty() {
                    t[15] += 1;
                }
                // A running mill: a piece of the mill can step to a point that closes another.
                if moving && !flying {
                    for p in mill {
                        for q in board.adjacent(p) & empty {
                            let rest = (own - Bitboard::from_point(p)) | Bitboard::from_point(q);
                            if board.mills_closed_at(q, rest) > 0 {
                                t[6] += 1;
                            }
                        }
                    }
                }
            }
            2 => {
                let gap = mill - mine;
                t[4] += 1;
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
                    threat_points |= gap;
                }
            }
            _ => {}
        }
    }
    t[5] = threat_points.count() as i32;
    if !flying {
        let liberties = neighbours(board, own) & empty;
        t[8] = liberties.count() as i32;
        // The other side fills one of them with each piece it still places.
        let safe = (t[8] - i32::from(pos.in_hand(!us))).max(0);
        t[9] = safe;
        t[10] = (liberties - neighbours(board, their)).count() as i32;
        // Once placed, it would have no point to move to: blocked as the moving phase starts,
        // unless it flies by then.
        // (It places no more pieces itself.)
        let will_fly = pos.rules().fly_at != 0 && t[0] <= i32::from(pos.rules().fly_at);
        t[13] = i32::from(safe == 0 && pos.in_hand(us) == 0 && !will_fly && own.any());
    } else {
        t[14] = 1;
    }
    (t, threat_points)
}

/// The terms of a position for the side to move: side terms as differences, then the global
/// ones. The evaluation is their weighted sum with the weights of [`phase`].
pub fn terms(pos: &Position) -> [i32; TERMS] {
    let us = pos.turn();
    let (mine, my_threats) = side(pos, us);
    let (theirs, their_threats) = side(pos, !us);
    let mut out = [0i32; TERMS];
    for i in 0..SIDE_TERMS.len() {
        out[i] = mine[i] - theirs[i];
    }
    let g = SIDE_TERMS.len();
    out[g] = 1;
    // The side to move can block one threat point only; two or more against it, when it
    // cannot close a mill first, usually cost a piece.
    out[g + 1] = -i32::from(their_threats.count() >= 2 && my_threats.is_empty());
    out[g + 2] = i32::from(my_threats.any());
    out
}

/// The weighted sum of the terms, before the N-move rule and the limits.
pub fn weigh(terms: &[i32; TERMS], phase: usize, weights: &Weights) -> i32 {
    terms
        .iter()
        .zip(&weights.phases[phase])
        .map(|(t, w)| t * w)
        .sum()
}

/// The evaluation of a position that is not over, for the side to move, in hundredths of a
/// piece. Near the N-move rule it shrinks toward a draw, so that the search makes progress (a
/// removal or a placement) while it can.
pub(crate) fn evaluate(pos: &Position) -> i32 {
    let v = weigh(&terms(pos), phase(pos), Weights::in_use());
    scale_for_n_move(v, pos).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// An evaluation scaled down over the second half of the N-move rule's count, to a quarter at
/// the limit.
fn scale_for_n_move(v: i32, pos: &Position) -> i32 {
    let limit = i32::from(pos.rules().n_move);
    if limit == 0 {
        return v;
    }
    let half = limit / 2;
    let past = i32::from(pos.plies_since_removal()) - half;
    if past <= 0 || half == 0 {
        return v;
    }
    let past = past.min(half);
    v - v * past * 3 / (4 * half)
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
    fn the_weights_file_is_complete_and_reads_back() {
        let w = Weights::parse(include_str!("weights.txt")).unwrap();
        assert_eq!(Weights::parse(&w.to_text("again")).unwrap(), w);
        assert!(Weights::parse("placing piece 1").is_err());
        assert!(Weights::parse("placing nothing 1").is_err());
    }

    #[test]
    fn the_start_is_level_but_for_the_move() {
        let tempo = Weights::built_in().phases[0][SIDE_TERMS.len()];
        assert_eq!(evaluate(&Position::start(Variant::Nine)), tempo);
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

    #[test]
    fn a_side_whose_last_point_the_other_fills_is_stuck() {
        // White has placed all its pieces; their one free neighbour, d1, gets Black's last
        // piece.
        let nine = Variant::Nine.rules();
        let pos = Position::from_fen(nine, "WWB/.B./B.B/WB..../.../..B/W.. b 0 1 0 20").unwrap();
        let (white, _) = side(&pos, Color::White);
        assert_eq!((white[8], white[9], white[13]), (1, 0, 1));
        let (black, _) = side(&pos, Color::Black);
        assert_eq!(black[13], 0);
    }

    #[test]
    fn the_score_shrinks_toward_the_n_move_limit() {
        let nine = Variant::Nine.rules();
        let early = Position::from_fen(nine, "WWW/.../.../W..B../.../.../BBB w 0 0 10 30").unwrap();
        let late = Position::from_fen(nine, "WWW/.../.../W..B../.../.../BBB w 0 0 90 70").unwrap();
        assert_eq!(scale_for_n_move(400, &early), 400);
        assert!(scale_for_n_move(400, &late) < 200);
        assert!(scale_for_n_move(400, &late) > 0);
    }
}
