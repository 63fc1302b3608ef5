//! The engine's strength measured against the truth: positions drawn from varied games, each
//! answered by the engine and judged by tablebases.
//!
//! A ply *throws away value* when the position it leads to is worse for the side that played
//! it, by win, draw or loss, than the best ply's: a win given up for a draw or a loss, a draw for
//! a loss. Distances are not counted: a longer win is still a win.

use std::time::Duration;

use morris_core::{Game, Ply, Position, Variant};

use crate::Engine;
use crate::level::Rng;
use crate::limits::{EngineOptions, Limits};
use crate::selfplay::{SelfPlay, spread};
use crate::{Probe, TbValue, Wdl, score_plies};

/// What the tables say of one ply played in a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judgement {
    /// The position.
    pub position: Position,
    /// The ply played.
    pub played: Ply,
    /// Its value for the side that played it.
    pub value: TbValue,
    /// The best ply by the tables.
    pub best: Ply,
    /// The best value.
    pub best_value: TbValue,
}

impl Judgement {
    /// Whether the ply threw away value: a worse win, draw or loss than the best ply's.
    pub fn lost_value(&self) -> bool {
        self.value.wdl() < self.best_value.wdl()
    }

    /// How much: 1 for a win to a draw or a draw to a loss, 2 for a win to a loss.
    pub fn steps_lost(&self) -> u8 {
        let rank = |w: Wdl| match w {
            Wdl::Loss => 0u8,
            Wdl::Draw => 1,
            Wdl::Win => 2,
        };
        rank(self.best_value.wdl()).saturating_sub(rank(self.value.wdl()))
    }
}

/// Judges `played` in `pos` by the tables, `None` when they lack a position reached or the
/// ply is not legal.
pub fn judge(pos: &Position, played: Ply, tables: &dyn Probe) -> Option<Judgement> {
    if !pos.is_legal(played) {
        return None;
    }
    let scored = score_plies(pos, |c| tables.probe(c).ok_or(())).ok()?;
    let &(best, best_value) = scored.first()?;
    let value = scored.iter().find(|(p, _)| *p == played)?.1;
    Some(Judgement {
        position: *pos,
        played,
        value,
        best,
        best_value,
    })
}

/// Whether a position is a test of judgement: the tables hold every position it leads to and
/// not every ply has the same win, draw or loss (so that value can be thrown away).
pub fn is_a_test(pos: &Position, tables: &dyn Probe) -> bool {
    if pos.outcome().is_some() {
        return false;
    }
    let Ok(scored) = score_plies(pos, |c| tables.probe(c).ok_or(())) else {
        return false;
    };
    match (scored.first(), scored.last()) {
        (Some(a), Some(b)) => a.1.wdl() != b.1.wdl(),
        _ => false,
    }
}

/// Positions to test, drawn from games of the engine against itself at levels 1, 3, 5 and 7
/// with two to eight random plies at the start: every position of those games that
/// [`is_a_test`], at most `per_game` from one game (spread over the game), until `count` are
/// found or `max_games` have been played. The same seed gives the same positions.
pub fn sample_positions(
    variant: Variant,
    tables: &dyn Probe,
    count: usize,
    seed: u64,
    max_games: usize,
) -> Vec<Position> {
    const LEVELS: [u8; 4] = [1, 3, 5, 7];
    let per_game = 6;
    let mut rng = Rng::new(seed ^ 0x6163_6375_7261_6379);
    let mut out = Vec::new();
    for g in 0..max_games {
        if out.len() >= count {
            break;
        }
        let game = SelfPlay {
            variant,
            level: LEVELS[g % LEVELS.len()],
            seed: rng.next_u64(),
            random_plies: 2 + (rng.next_u64() % 7) as usize,
            nodes: 3_000,
        };
        let mut tests = Vec::new();
        game.play(
            &mut rng,
            |_, _, _| None,
            |ply_no, pos| {
                if ply_no >= game.random_plies && is_a_test(pos, tables) {
                    tests.push(*pos);
                }
            },
        );
        for pos in spread(&tests, per_game) {
            if out.len() < count && !out.contains(pos) {
                out.push(*pos);
            }
        }
    }
    out
}

/// The engine's answers to `positions` in `movetime` each, judged by the tables. The engine
/// plays each position as the start of a game (no history) with the options given.
pub fn measure(
    positions: &[Position],
    options: &EngineOptions,
    movetime: Duration,
    tables: &dyn Probe,
    engine_tables: Option<std::sync::Arc<dyn Probe>>,
    each: impl FnMut(usize, &Judgement),
) -> Vec<Judgement> {
    let mut engine = Engine::new(options.clone());
    engine.set_tablebase(engine_tables);
    judge_answers(
        positions,
        tables,
        |pos| {
            engine.new_game();
            engine
                .search(&Game::new(*pos), &Limits::movetime(movetime), &mut |_| {})
                .best
        },
        each,
    )
}

/// The plies that `answer` gives for `positions` (each the start of a game), judged by the
/// tables; a position without an answer is left out. `each` sees every judgement with the
/// position's number.
pub fn judge_answers(
    positions: &[Position],
    tables: &dyn Probe,
    mut answer: impl FnMut(&Position) -> Option<Ply>,
    mut each: impl FnMut(usize, &Judgement),
) -> Vec<Judgement> {
    let mut out = Vec::new();
    for (i, pos) in positions.iter().enumerate() {
        let Some(ply) = answer(pos) else {
            continue;
        };
        if let Some(j) = judge(pos, ply, tables) {
            each(i, &j);
            out.push(j);
        }
    }
    out
}
