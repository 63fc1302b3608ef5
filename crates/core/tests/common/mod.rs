//! Helpers shared by the integration tests: the naive generator, rule sets worth checking, and
//! random positions.

#![allow(
    dead_code,
    reason = "each test file uses a different part of the helpers"
)]

pub mod naive;

use std::collections::BTreeSet;

use morris_core::{DoubleMill, FullBoard, MillRemoval, Position, Rules, Variant};

use naive::{NaivePos, NaiveRules, Rng, normalize};

/// The rules of every variant with their defaults, then non-default options.
pub fn rule_sets() -> Vec<(String, Rules)> {
    let mut out: Vec<(String, Rules)> = Variant::ALL
        .iter()
        .map(|v| (v.name().to_string(), v.rules()))
        .collect();
    let with = |v: Variant, name: &str, f: &dyn Fn(&mut Rules)| {
        let mut r = v.rules();
        f(&mut r);
        (format!("{v} {name}"), r)
    };
    out.push(with(Variant::Nine, "per-mill", &|r| {
        r.double_mill = DoubleMill::PerMill
    }));
    out.push(with(Variant::Nine, "removal-always", &|r| {
        r.mill_removal = MillRemoval::Always
    }));
    out.push(with(Variant::Nine, "removal-never", &|r| {
        r.mill_removal = MillRemoval::Never
    }));
    out.push(with(Variant::Nine, "no-flying", &|r| r.fly_at = 0));
    out.push(with(Variant::Nine, "fly-at-4", &|r| r.fly_at = 4));
    out.push(with(Variant::Twelve, "per-mill", &|r| {
        r.double_mill = DoubleMill::PerMill
    }));
    out.push(with(Variant::Twelve, "full-board-blocked", &|r| {
        r.full_board = FullBoard::Blocked
    }));
    out.push(with(Variant::Morabaraba, "per-mill-never", &|r| {
        r.double_mill = DoubleMill::PerMill;
        r.mill_removal = MillRemoval::Never;
    }));
    out.push(with(Variant::Lasker, "per-mill-always", &|r| {
        r.double_mill = DoubleMill::PerMill;
        r.mill_removal = MillRemoval::Always;
    }));
    out.push(with(Variant::Lasker, "fly-empty-hand", &|r| {
        r.fly_empty_hand = true
    }));
    out.push(with(Variant::Six, "flying", &|r| r.fly_at = 3));
    out.push(with(Variant::Six, "five-pieces", &|r| r.pieces = 5));
    out.push(with(Variant::Nine, "lasker-style", &|r| {
        r.place_or_move = true
    }));
    out
}

/// A seed for the random generator made from a name, so that each rule set gets its own games.
pub fn seed_of(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// The legal plies of the library, written and normalised.
pub fn core_texts(pos: &Position) -> BTreeSet<String> {
    let board = pos.board();
    pos.legal_plies()
        .iter()
        .map(|p| normalize(&p.display(board).to_string()))
        .collect()
}

/// The outcome of the library as (winner, reason name) in the naive generator's terms.
pub fn core_outcome(pos: &Position) -> Option<(Option<naive::Side>, &'static str)> {
    pos.outcome().map(|o| {
        let winner = o.winner.map(|c| match c {
            morris_core::Color::White => naive::Side::W,
            morris_core::Color::Black => naive::Side::B,
        });
        (winner, o.reason.name())
    })
}

/// A position reached by `plies` random plies from the start (fewer if the game ends), played
/// by the library alone.
pub fn random_position(rules: Rules, seed: u64, plies: usize) -> Position {
    let mut rng = Rng(seed);
    let mut pos = Position::new(rules);
    for _ in 0..plies {
        let list = pos.legal_plies();
        if list.is_empty() {
            break;
        }
        pos.play_unchecked(list[rng.below(list.len())]);
    }
    pos
}

/// A random arrangement of pieces under `rules` written as a naive position: any number of
/// pieces on the board and in hand that the rules allow, either side to move. It may not be a
/// valid position (the library's check decides).
pub fn random_setup(rules: &Rules, rng: &mut Rng) -> NaivePos {
    let naive = NaiveRules::from_rules(rules);
    let mut pos = NaivePos::start(naive);
    let n = pos.cells.len();
    let pieces = rules.pieces as usize;
    let placing = rng.below(3) == 0;
    let turn_black = rng.below(2) == 1;
    let (hand_w, hand_b) = if placing {
        let h = 1 + rng.below(pieces);
        if rules.place_or_move {
            (rng.below(pieces + 1), rng.below(pieces + 1))
        } else if turn_black {
            (h - 1, h)
        } else {
            (h, h)
        }
    } else {
        (0, 0)
    };
    let on_w = rng
        .below(pieces - hand_w + 1)
        .max(if placing { 0 } else { 2 });
    let on_b = rng
        .below(pieces - hand_b + 1)
        .max(if placing { 0 } else { 2 });
    let mut free: Vec<usize> = (0..n).collect();
    for (side, count) in [(naive::Side::W, on_w), (naive::Side::B, on_b)] {
        for _ in 0..count {
            if free.is_empty() {
                break;
            }
            let i = free.swap_remove(rng.below(free.len()));
            pos.cells[i] = Some(side);
        }
    }
    pos.hand = [hand_w as u8, hand_b as u8];
    pos.turn = if turn_black {
        naive::Side::B
    } else {
        naive::Side::W
    };
    pos.since_removal = if placing && !rules.place_or_move {
        0
    } else {
        rng.below(20) as u32
    };
    pos.move_number = 1 + rng.below(40) as u32;
    pos
}

/// One line of the data file.
#[derive(Debug)]
pub struct Case {
    pub line: usize,
    pub rules_name: String,
    pub rules: Rules,
    pub position: String,
    pub depth: u32,
    pub count: u64,
}

impl Case {
    pub fn start(&self) -> Position {
        if self.position == "start" {
            Position::new(self.rules)
        } else {
            Position::from_fen(self.rules, &self.position)
                .unwrap_or_else(|e| panic!("perft.txt line {}: {e}", self.line))
        }
    }

    pub fn naive_start(&self) -> NaivePos {
        let fen = self.start().fen();
        NaivePos::from_fen(NaiveRules::from_rules(&self.rules), &fen)
    }
}

/// The cases of `tests/perft.txt`.
pub fn perft_cases() -> Vec<Case> {
    let sets = rule_sets();
    include_str!("../perft.txt")
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| {
            let fields: Vec<&str> = l.split(';').map(str::trim).collect();
            assert_eq!(fields.len(), 4, "perft.txt line {}: {l}", i + 1);
            let rules = sets
                .iter()
                .find(|(name, _)| name == fields[0])
                .unwrap_or_else(|| panic!("perft.txt line {}: unknown rules {}", i + 1, fields[0]))
                .1;
            Case {
                line: i + 1,
                rules_name: fields[0].to_string(),
                rules,
                position: fields[1].to_string(),
                depth: fields[2].parse().expect("a depth"),
                count: fields[3].parse().expect("a count"),
            }
        })
        .collect()
}
