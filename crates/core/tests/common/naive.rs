//! A deliberately naive move generator written from the rule book alone.
//!
//! It shares nothing with the library but the plain data of [`morris_core::Rules`] (which it
//! copies into its own struct): boards are lists of point names and of mills written out as in
//! the rule book, a position is a vector of `Option<Side>`, and every rule is applied literally,
//! one step at a time, without bitboards or shortcuts. It is slow and meant to be obviously
//! right, so that the library's generator can be checked against it.

use std::collections::BTreeSet;

use morris_core::{DoubleMill, FullBoard, MillRemoval, Rules, Variant};

/// A side, as the naive generator knows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// White, who moves first.
    W,
    /// Black.
    B,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::W => Side::B,
            Side::B => Side::W,
        }
    }

    fn index(self) -> usize {
        match self {
            Side::W => 0,
            Side::B => 1,
        }
    }
}

/// A board written out by hand: rows of the position string (top rank first), mills in the
/// order of their points along the line, and lines that belong to no mill.
#[derive(Debug)]
pub struct NaiveBoard {
    pub rows: &'static [&'static [&'static str]],
    pub mills: &'static [[&'static str; 3]],
    pub extra_lines: &'static [[&'static str; 2]],
}

pub static STANDARD: NaiveBoard = NaiveBoard {
    rows: &[
        &["a7", "d7", "g7"],
        &["b6", "d6", "f6"],
        &["c5", "d5", "e5"],
        &["a4", "b4", "c4", "e4", "f4", "g4"],
        &["c3", "d3", "e3"],
        &["b2", "d2", "f2"],
        &["a1", "d1", "g1"],
    ],
    mills: &[
        ["a7", "d7", "g7"],
        ["b6", "d6", "f6"],
        ["c5", "d5", "e5"],
        ["a4", "b4", "c4"],
        ["e4", "f4", "g4"],
        ["c3", "d3", "e3"],
        ["b2", "d2", "f2"],
        ["a1", "d1", "g1"],
        ["a1", "a4", "a7"],
        ["b2", "b4", "b6"],
        ["c3", "c4", "c5"],
        ["d5", "d6", "d7"],
        ["d1", "d2", "d3"],
        ["e3", "e4", "e5"],
        ["f2", "f4", "f6"],
        ["g1", "g4", "g7"],
    ],
    extra_lines: &[],
};

pub static DIAGONAL: NaiveBoard = NaiveBoard {
    rows: STANDARD.rows,
    mills: &[
        ["a7", "d7", "g7"],
        ["b6", "d6", "f6"],
        ["c5", "d5", "e5"],
        ["a4", "b4", "c4"],
        ["e4", "f4", "g4"],
        ["c3", "d3", "e3"],
        ["b2", "d2", "f2"],
        ["a1", "d1", "g1"],
        ["a1", "a4", "a7"],
        ["b2", "b4", "b6"],
        ["c3", "c4", "c5"],
        ["d5", "d6", "d7"],
        ["d1", "d2", "d3"],
        ["e3", "e4", "e5"],
        ["f2", "f4", "f6"],
        ["g1", "g4", "g7"],
        ["a7", "b6", "c5"],
        ["g7", "f6", "e5"],
        ["a1", "b2", "c3"],
        ["g1", "f2", "e3"],
    ],
    extra_lines: &[],
};

pub static SIX: NaiveBoard = NaiveBoard {
    rows: &[
        &["a5", "c5", "e5"],
        &["b4", "c4", "d4"],
        &["a3", "b3", "d3", "e3"],
        &["b2", "c2", "d2"],
        &["a1", "c1", "e1"],
    ],
    mills: &[
        ["a5", "c5", "e5"],
        ["a1", "c1", "e1"],
        ["a1", "a3", "a5"],
        ["e1", "e3", "e5"],
        ["b4", "c4", "d4"],
        ["b2", "c2", "d2"],
        ["b2", "b3", "b4"],
        ["d2", "d3", "d4"],
    ],
    extra_lines: &[["c1", "c2"], ["a3", "b3"], ["d3", "e3"], ["c4", "c5"]],
};

pub static THREE: NaiveBoard = NaiveBoard {
    rows: &[
        &["a3", "b3", "c3"],
        &["a2", "b2", "c2"],
        &["a1", "b1", "c1"],
    ],
    mills: &[
        ["a3", "b3", "c3"],
        ["a2", "b2", "c2"],
        ["a1", "b1", "c1"],
        ["a1", "a2", "a3"],
        ["b1", "b2", "b3"],
        ["c1", "c2", "c3"],
        ["a1", "b2", "c3"],
        ["a3", "b2", "c1"],
    ],
    extra_lines: &[],
};

impl NaiveBoard {
    /// The point names in position-string order.
    pub fn names(&self) -> Vec<&'static str> {
        self.rows.iter().flat_map(|r| r.iter().copied()).collect()
    }

    fn index(&self, name: &str) -> usize {
        self.rows
            .iter()
            .flat_map(|r| r.iter())
            .position(|n| *n == name)
            .expect("a point of the board")
    }

    fn name(&self, i: usize) -> &'static str {
        self.rows
            .iter()
            .flat_map(|r| r.iter().copied())
            .nth(i)
            .expect("a point index of the board")
    }

    /// Whether a line joins the two points with no point between.
    fn adjacent(&self, a: &str, b: &str) -> bool {
        let joined = |x: &str, y: &str| (x == a && y == b) || (x == b && y == a);
        self.mills
            .iter()
            .any(|m| joined(m[0], m[1]) || joined(m[1], m[2]))
            || self.extra_lines.iter().any(|l| joined(l[0], l[1]))
    }
}

/// Which pieces a mill may remove.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Removal {
    UnlessAllInMills,
    Always,
    Never,
}

/// The rules, copied field by field from the library's data.
#[derive(Debug, Clone, Copy)]
pub struct NaiveRules {
    pub board: &'static NaiveBoard,
    pub pieces: u8,
    pub fly_at: u8,
    pub fly_empty_hand: bool,
    pub removal: Removal,
    pub per_mill: bool,
    pub full_board_draws: bool,
    pub place_or_move: bool,
    pub line_wins: bool,
}

impl NaiveRules {
    pub fn from_rules(rules: &Rules) -> NaiveRules {
        let board = match rules.variant {
            Variant::Nine | Variant::Lasker => &STANDARD,
            Variant::Twelve | Variant::Morabaraba => &DIAGONAL,
            Variant::Six => &SIX,
            Variant::Three => &THREE,
        };
        NaiveRules {
            board,
            pieces: rules.pieces,
            fly_at: rules.fly_at,
            fly_empty_hand: rules.fly_empty_hand,
            removal: match rules.mill_removal {
                MillRemoval::UnlessAllInMills => Removal::UnlessAllInMills,
                MillRemoval::Always => Removal::Always,
                MillRemoval::Never => Removal::Never,
            },
            per_mill: rules.double_mill == DoubleMill::PerMill,
            full_board_draws: rules.full_board == FullBoard::Draw,
            place_or_move: rules.place_or_move,
            line_wins: rules.line_wins,
        }
    }
}

/// A ply: from (None for a placement), to, and the removed points, all as point indices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NaivePly {
    pub from: Option<usize>,
    pub to: usize,
    pub remove: Vec<usize>,
}

/// A position of the naive generator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NaivePos {
    pub rules: NaiveRules,
    pub cells: Vec<Option<Side>>,
    pub hand: [u8; 2],
    pub turn: Side,
    pub since_removal: u32,
    pub move_number: u32,
}

impl PartialEq for NaiveRules {
    fn eq(&self, other: &NaiveRules) -> bool {
        std::ptr::eq(self.board, other.board)
            && self.pieces == other.pieces
            && self.fly_at == other.fly_at
            && self.fly_empty_hand == other.fly_empty_hand
            && self.removal == other.removal
            && self.per_mill == other.per_mill
            && self.full_board_draws == other.full_board_draws
            && self.place_or_move == other.place_or_move
            && self.line_wins == other.line_wins
    }
}

impl Eq for NaiveRules {}

/// Sorts the removals of a ply written as text, so that two spellings of one ply compare equal.
pub fn normalize(ply: &str) -> String {
    let mut parts = ply.split('x');
    let head = parts.next().unwrap_or("").to_string();
    let mut removals: Vec<&str> = parts.collect();
    removals.sort_unstable();
    let mut out = head;
    for r in removals {
        out.push('x');
        out.push_str(r);
    }
    out
}

impl NaivePos {
    pub fn start(rules: NaiveRules) -> NaivePos {
        NaivePos {
            rules,
            cells: vec![None; rules.board.names().len()],
            hand: [rules.pieces, rules.pieces],
            turn: Side::W,
            since_removal: 0,
            move_number: 1,
        }
    }

    /// Reads the project's position string, trusting it to be well formed.
    pub fn from_fen(rules: NaiveRules, text: &str) -> NaivePos {
        let fields: Vec<&str> = text.split(' ').collect();
        assert_eq!(fields.len(), 6, "{text}");
        let cells: Vec<Option<Side>> = fields[0]
            .chars()
            .filter(|&c| c != '/')
            .map(|c| match c {
                'W' => Some(Side::W),
                'B' => Some(Side::B),
                _ => None,
            })
            .collect();
        assert_eq!(cells.len(), rules.board.names().len(), "{text}");
        NaivePos {
            rules,
            cells,
            hand: [fields[2].parse().unwrap(), fields[3].parse().unwrap()],
            turn: if fields[1] == "w" { Side::W } else { Side::B },
            since_removal: fields[4].parse().unwrap(),
            move_number: fields[5].parse().unwrap(),
        }
    }

    /// Writes the project's position string.
    pub fn fen(&self) -> String {
        let mut out = String::new();
        let mut i = 0;
        for (r, row) in self.rules.board.rows.iter().enumerate() {
            if r > 0 {
                out.push('/');
            }
            for _ in row.iter() {
                out.push(match self.cells[i] {
                    Some(Side::W) => 'W',
                    Some(Side::B) => 'B',
                    None => '.',
                });
                i += 1;
            }
        }
        let side = if self.turn == Side::W { "w" } else { "b" };
        format!(
            "{out} {side} {} {} {} {}",
            self.hand[0], self.hand[1], self.since_removal, self.move_number
        )
    }

    fn name(&self, i: usize) -> &'static str {
        self.rules.board.name(i)
    }

    pub fn on_board(&self, side: Side) -> usize {
        self.cells.iter().filter(|c| **c == Some(side)).count()
    }

    pub fn left(&self, side: Side) -> usize {
        self.on_board(side) + self.hand[side.index()] as usize
    }

    /// Whether the piece on `i` stands in a mill of its own colour on `cells`.
    fn in_mill(&self, cells: &[Option<Side>], i: usize) -> bool {
        let Some(side) = cells[i] else { return false };
        let name = self.name(i);
        self.rules.board.mills.iter().any(|m| {
            m.contains(&name)
                && m.iter()
                    .all(|n| cells[self.rules.board.index(n)] == Some(side))
        })
    }

    /// How many mills of `side` on `cells` pass through point `i`.
    fn mills_through(&self, cells: &[Option<Side>], i: usize, side: Side) -> usize {
        let name = self.name(i);
        self.rules
            .board
            .mills
            .iter()
            .filter(|m| {
                m.contains(&name)
                    && m.iter()
                        .all(|n| cells[self.rules.board.index(n)] == Some(side))
            })
            .count()
    }

    fn has_line(&self, side: Side) -> bool {
        (0..self.cells.len()).any(|i| self.cells[i] == Some(side) && self.in_mill(&self.cells, i))
    }

    /// The opposing pieces a mill may remove from `cells`, by the rule book.
    fn removable(&self, cells: &[Option<Side>], victim: Side) -> Vec<usize> {
        let theirs: Vec<usize> = (0..cells.len())
            .filter(|&i| cells[i] == Some(victim))
            .collect();
        let free: Vec<usize> = theirs
            .iter()
            .copied()
            .filter(|&i| !self.in_mill(cells, i))
            .collect();
        match self.rules.removal {
            Removal::Always => theirs,
            Removal::Never => free,
            Removal::UnlessAllInMills => {
                if free.is_empty() {
                    theirs
                } else {
                    free
                }
            }
        }
    }

    /// Every set of removals made one after another, `owed` at most, stopping early only when
    /// nothing may be removed.
    fn removal_sets(
        &self,
        cells: &mut Vec<Option<Side>>,
        victim: Side,
        owed: usize,
        chosen: &mut Vec<usize>,
        out: &mut BTreeSet<Vec<usize>>,
    ) {
        let now = self.removable(cells, victim);
        if owed == 0 || now.is_empty() {
            let mut set = chosen.clone();
            set.sort_unstable();
            out.insert(set);
            return;
        }
        for r in now {
            cells[r] = None;
            chosen.push(r);
            self.removal_sets(cells, victim, owed - 1, chosen, out);
            chosen.pop();
            cells[r] = Some(victim);
        }
    }

    /// Whether `side` may fly: exactly the rules' number of pieces left, flying not off, and
    /// an empty hand where the rules ask for one.
    fn flies(&self, side: Side) -> bool {
        self.rules.fly_at != 0
            && self.left(side) == self.rules.fly_at as usize
            && !(self.rules.fly_empty_hand && self.hand[side.index()] > 0)
    }

    /// Placements and moves of the side to move, as (from, to), ignoring whether the game ended.
    fn steps(&self) -> Vec<(Option<usize>, usize)> {
        let us = self.turn;
        let n = self.cells.len();
        let mut out = Vec::new();
        let placing = self.hand[us.index()] > 0;
        if placing {
            for to in 0..n {
                if self.cells[to].is_none() {
                    out.push((None, to));
                }
            }
        }
        if !placing || self.rules.place_or_move {
            for from in 0..n {
                if self.cells[from] != Some(us) {
                    continue;
                }
                for to in 0..n {
                    if self.cells[to].is_some() {
                        continue;
                    }
                    let reach =
                        self.flies(us) || self.rules.board.adjacent(self.name(from), self.name(to));
                    if reach {
                        out.push((Some(from), to));
                    }
                }
            }
        }
        out
    }

    /// The end of the game by the rules of play: winner (None for a draw) and reason.
    pub fn outcome(&self) -> Option<(Option<Side>, &'static str)> {
        let us = self.turn;
        let them = us.other();
        if self.rules.line_wins {
            if self.has_line(them) {
                return Some((Some(them), "line"));
            }
            if self.has_line(us) {
                return Some((Some(us), "line"));
            }
        }
        if self.left(us) < 3 {
            return Some((Some(them), "fewer_than_three"));
        }
        if self.left(them) < 3 {
            return Some((Some(us), "fewer_than_three"));
        }
        if self.rules.full_board_draws && self.cells.iter().all(Option::is_some) {
            return Some((None, "full_board"));
        }
        if self.steps().is_empty() {
            return Some((Some(them), "blocked"));
        }
        None
    }

    /// Every legal ply; none when the game is over.
    pub fn legal(&self) -> Vec<NaivePly> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        let us = self.turn;
        let mut out = Vec::new();
        for (from, to) in self.steps() {
            let mut cells = self.cells.clone();
            if let Some(f) = from {
                cells[f] = None;
            }
            cells[to] = Some(us);
            let closed = if self.rules.line_wins {
                0
            } else {
                self.mills_through(&cells, to, us)
            };
            let owed = if self.rules.per_mill {
                closed
            } else {
                closed.min(1)
            };
            let mut sets = BTreeSet::new();
            self.removal_sets(&mut cells, us.other(), owed, &mut Vec::new(), &mut sets);
            for remove in sets {
                out.push(NaivePly { from, to, remove });
            }
        }
        out
    }

    /// The legal plies as normalised text.
    pub fn legal_texts(&self) -> BTreeSet<String> {
        self.legal().iter().map(|p| self.text(p)).collect()
    }

    /// A ply in notation, removals in position-string order.
    pub fn text(&self, ply: &NaivePly) -> String {
        let mut s = String::new();
        if let Some(f) = ply.from {
            s.push_str(self.name(f));
            s.push('-');
        }
        s.push_str(self.name(ply.to));
        for &r in &ply.remove {
            s.push('x');
            s.push_str(self.name(r));
        }
        normalize(&s)
    }

    /// The position after a ply, trusted to be legal.
    pub fn play(&self, ply: &NaivePly) -> NaivePos {
        let us = self.turn;
        let mut next = self.clone();
        match ply.from {
            None => next.hand[us.index()] -= 1,
            Some(f) => next.cells[f] = None,
        }
        next.cells[ply.to] = Some(us);
        for &r in &ply.remove {
            next.cells[r] = None;
        }
        next.since_removal = if ply.from.is_none() || !ply.remove.is_empty() {
            0
        } else {
            self.since_removal + 1
        };
        if us == Side::B {
            next.move_number += 1;
        }
        next.turn = us.other();
        next
    }

    /// The number of sequences of exactly `depth` legal plies.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.legal()
            .iter()
            .map(|p| self.play(p).perft(depth - 1))
            .sum()
    }
}

/// A small generator of pseudo-random numbers (SplitMix64), so that runs repeat exactly.
#[derive(Debug, Clone)]
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}
