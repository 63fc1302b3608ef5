//! Move ordering: the table's ply first, then removals (those that break an opposing threat
//! first), plies that block an opposing mill, killers, and the history of quiet plies.

use morris_core::{Bitboard, Color, Ply, PlyList, Position};
use smallvec::SmallVec;

/// The most plies a search line can be deep.
pub(crate) const MAX_PLY: usize = 128;

const TABLE: i32 = 1 << 30;
const REMOVAL: i32 = 1 << 26;
const BLOCK: i32 = 1 << 25;
const KILLER: i32 = 1 << 24;
const HISTORY_LIMIT: i32 = 1 << 20;

/// The index of a `from` point for a placement in the history table.
const PLACE: usize = 24;

/// Two quiet plies per ply from the root that caused a cutoff, and a table of quiet plies that
/// did so anywhere, by side, destination and origin.
#[derive(Clone, Debug)]
pub(crate) struct Heuristics {
    killers: Vec<[Option<Ply>; 2]>,
    history: Vec<i32>,
}

impl Heuristics {
    pub fn new() -> Heuristics {
        Heuristics {
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; 2 * 24 * 25],
        }
    }

    /// Forgets the killers and ages the history, between searches.
    pub fn age(&mut self) {
        for k in &mut self.killers {
            *k = [None; 2];
        }
        for h in &mut self.history {
            *h /= 8;
        }
    }

    fn history_slot(color: Color, ply: Ply) -> usize {
        let from = ply.from().map_or(PLACE, |p| p.index());
        (color as usize * 24 + ply.to().index()) * 25 + from
    }

    pub fn is_killer(&self, depth: usize, ply: Ply) -> bool {
        self.killers[depth].contains(&Some(ply))
    }

    /// Records a quiet ply that caused a cutoff, and the quiet plies tried before it in vain.
    pub fn reward(&mut self, color: Color, depth: usize, ply: Ply, tried: &[Ply], plies: i32) {
        let k = &mut self.killers[depth];
        if k[0] != Some(ply) {
            k[1] = k[0];
            k[0] = Some(ply);
        }
        let bonus = (plies * plies).min(400);
        let slot = Heuristics::history_slot(color, ply);
        self.history[slot] += bonus;
        let mut largest = self.history[slot].abs();
        for &other in tried {
            let slot = Heuristics::history_slot(color, other);
            self.history[slot] -= bonus;
            largest = largest.max(self.history[slot].abs());
        }
        if largest > HISTORY_LIMIT {
            for h in &mut self.history {
                *h /= 2;
            }
        }
    }

    fn history(&self, color: Color, ply: Ply) -> i32 {
        self.history[Heuristics::history_slot(color, ply)]
    }
}

/// The opposing pieces that stand in a line with another opposing piece and an empty point:
/// removing one breaks a threat.
pub(crate) fn threat_pieces(pos: &Position, color: Color) -> Bitboard {
    let own = pos.pieces(color);
    let empty = pos.empty();
    let mut out = Bitboard::EMPTY;
    for &mill in pos.board().mills() {
        if (mill & own).count() == 2 && (mill & empty).any() {
            out |= mill & own;
        }
    }
    out
}

/// The legal plies of a position with their order scores, handed out best first.
#[derive(Debug)]
pub(crate) struct Picker {
    plies: PlyList,
    keys: SmallVec<[(i32, u16, bool); 64]>,
    next: usize,
}

impl Picker {
    /// Orders the plies of `pos` (already generated) for a node `depth` plies from the root.
    pub fn new(
        pos: &Position,
        plies: PlyList,
        table: Option<usize>,
        heuristics: &Heuristics,
        depth: usize,
    ) -> Picker {
        let us = pos.turn();
        let them = !us;
        let blocks = pos.mill_points(them);
        let breaks = threat_pieces(pos, them);
        let mut keys = SmallVec::with_capacity(plies.len());
        for (i, &ply) in plies.iter().enumerate() {
            let key = if Some(i) == table {
                TABLE
            } else if ply.is_removal() {
                let mut k = REMOVAL;
                k += 64 * (ply.removals() & breaks).count() as i32;
                if blocks.contains(ply.to()) {
                    k += 32;
                }
                k
            } else if blocks.contains(ply.to()) {
                BLOCK
            } else if heuristics.is_killer(depth, ply) {
                KILLER + i32::from(heuristics.killers[depth][0] == Some(ply))
            } else {
                heuristics.history(us, ply).clamp(-KILLER + 1, KILLER - 1)
            };
            let quiet = !ply.is_removal() && !blocks.contains(ply.to());
            keys.push((key, i as u16, quiet));
        }
        Picker {
            plies,
            keys,
            next: 0,
        }
    }

    /// The number of plies.
    pub fn len(&self) -> usize {
        self.plies.len()
    }

    /// The next ply, best first, with its index in the generated list and whether it is quiet
    /// (neither a removal nor a block of an opposing mill).
    pub fn next(&mut self) -> Option<(Ply, usize, bool)> {
        let n = self.next;
        if n >= self.keys.len() {
            return None;
        }
        let mut best = n;
        for i in n + 1..self.keys.len() {
            if self.keys[i].0 > self.keys[best].0 {
                best = i;
            }
        }
        self.keys.swap(n, best);
        self.next += 1;
        let (_, index, quiet) = self.keys[n];
        Some((self.plies[index as usize], index as usize, quiet))
    }
}
