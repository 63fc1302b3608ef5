//! A naive forward solver for the tests: every position reachable from some roots, solved by
//! layers of distance from forward move generation alone, with symmetric positions merged by
//! the core's own canonical form. Slow and simple on purpose.

#![allow(dead_code)] // each test file uses a part

use std::collections::HashMap;
use std::path::PathBuf;

use morris_core::{Bitboard, ByColor, Color, Position, Rules, Setup};
use morris_tablebase::{Sector, Value};

/// A folder of its own for one test, emptied first.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("morris-tb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The position with sets `us` (to move) and `them` in a sector, if it can occur.
pub fn position(rules: &Rules, sector: Sector, us: u32, them: u32) -> Option<Position> {
    let turn = if sector.us_hand == sector.them_hand {
        Color::White
    } else {
        Color::Black
    };
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

/// Every position of a sector, each placement once (no symmetry reduction).
pub fn all_positions(rules: &Rules, sector: Sector) -> Vec<Position> {
    let n = rules.board().len() as u32;
    let mut out = Vec::new();
    for us in sets(n, u32::from(sector.us)) {
        for them in sets(n, u32::from(sector.them)) {
            if them & us != 0 {
                continue;
            }
            if let Some(p) = position(rules, sector, us, them) {
                out.push(p);
            }
        }
    }
    out
}

/// Every set of `k` of the points `0..n`, in increasing order of bit pattern.
pub fn sets(n: u32, k: u32) -> impl Iterator<Item = u32> {
    let first = if k == 0 { 0 } else { u32::MAX >> (32 - k) };
    let limit = 1u64 << n;
    std::iter::successors(Some(first), move |&s| {
        if s == 0 {
            return None;
        }
        // The next set of as many points (Gosper's hack).
        let low = s & s.wrapping_neg();
        let ripple = u64::from(s) + u64::from(low);
        let next = ripple | (((u64::from(s) ^ ripple) >> 2) / u64::from(low));
        (next < limit).then_some(next as u32)
    })
    .take_while(move |&s| u64::from(s) < limit)
}

type Key = (u32, u32, u8, u8, bool);

fn key(pos: &Position) -> Key {
    let (c, _) = pos.canonical();
    let t = c.turn();
    (
        c.pieces(t).0,
        c.pieces(!t).0,
        c.in_hand(t),
        c.in_hand(!t),
        t == Color::White,
    )
}

/// The naive solver's graph and values.
#[derive(Debug, Default)]
pub struct Naive {
    ids: HashMap<Key, usize>,
    children: Vec<Vec<usize>>,
    pub values: Vec<Value>,
}

impl Naive {
    /// Explores every position reachable from `roots` and solves them.
    pub fn solve(roots: &[Position]) -> Naive {
        let mut naive = Naive::default();
        let mut terminal = Vec::new();
        let mut todo: Vec<Position> = Vec::new();
        for r in roots {
            naive.id(r, &mut todo, &mut terminal);
        }
        while let Some(pos) = todo.pop() {
            let id = naive.ids[&key(&pos)];
            let mut kids = Vec::new();
            for ply in pos.legal_plies() {
                let mut c = pos;
                c.play_unchecked(ply);
                kids.push(naive.id(&c, &mut todo, &mut terminal));
            }
            naive.children[id] = kids;
        }
        let mut values: Vec<Option<Value>> = terminal;
        let mut empty = 0;
        let mut k: u16 = 1;
        while empty < 2 {
            let mut decided = Vec::new();
            for (id, v) in values.iter().enumerate() {
                if v.is_some() {
                    continue;
                }
                let kids = &naive.children[id];
                if k % 2 == 1 {
                    if kids.iter().any(|&c| values[c] == Some(Value::Loss(k - 1))) {
                        decided.push((id, Value::Win(k)));
                    }
                } else {
                    let mut longest = None;
                    let mut all_won = true;
                    for &c in kids {
                        match values[c] {
                            Some(Value::Win(d)) => longest = longest.max(Some(d)),
                            _ => all_won = false,
                        }
                    }
                    if all_won && longest == Some(k - 1) {
                        decided.push((id, Value::Loss(k)));
                    }
                }
            }
            empty = if decided.is_empty() { empty + 1 } else { 0 };
            for (id, v) in decided {
                values[id] = Some(v);
            }
            k += 1;
        }
        naive.values = values
            .into_iter()
            .map(|v| v.unwrap_or(Value::Draw))
            .collect();
        naive
    }

    fn id(
        &mut self,
        pos: &Position,
        todo: &mut Vec<Position>,
        terminal: &mut Vec<Option<Value>>,
    ) -> usize {
        let k = key(pos);
        if let Some(&id) = self.ids.get(&k) {
            return id;
        }
        let id = self.children.len();
        self.ids.insert(k, id);
        self.children.push(Vec::new());
        let t = pos.outcome().map(|o| match o.winner {
            None => Value::Draw,
            Some(w) if w == pos.turn() => Value::Win(0),
            Some(_) => Value::Loss(0),
        });
        if t.is_none() {
            todo.push(*pos);
        }
        terminal.push(t);
        id
    }

    /// The value of a position explored.
    pub fn value(&self, pos: &Position) -> Value {
        self.values[self.ids[&key(pos)]]
    }

    /// The number of distinct classes explored.
    pub fn len(&self) -> usize {
        self.values.len()
    }
}
