//! The bench: a fixed set of positions from every phase and variant, searched to a fixed depth
//! on one thread. Its node total changes only when the search does, which makes it the
//! project's regression signature.

use std::time::{Duration, Instant};

use morris_core::{Game, Position, Variant};

use crate::engine::Engine;
use crate::limits::{EngineOptions, Limits};
use crate::score::Score;

/// The depth the bench searches to by default.
pub const BENCH_DEPTH: u32 = 9;

/// The bench positions: a variant and a position string.
pub const BENCH_POSITIONS: [(Variant, &str); 14] = [
    (Variant::Nine, ".../.../WWW/..W.../W../.../BBB b 3 4 0 6"),
    (Variant::Nine, ".../.W./B.W/...B../.../.B./W.. w 6 6 0 4"),
    (Variant::Nine, "B.B/.../WWW/B.W..W/WB./.W./BBB w 0 0 0 10"),
    (Variant::Nine, ".BB/.../WWW/B....W/W../.../..B w 0 0 1 17"),
    (Variant::Nine, ".../.../WB./.WB.../W../BW./... w 0 0 7 24"),
    (Variant::Nine, ".../.../.../.....W/.WB/.../WBB b 0 0 7 34"),
    (Variant::Three, ".BB/.W./.W. w 1 1 0 3"),
    (Variant::Six, "WBW/..W/B.BW/..B/W.W b 0 1 0 6"),
    (Variant::Six, ".BW/W../W.BW/BB./WBW w 0 0 6 10"),
    (Variant::Twelve, ".../B../.../.B..../BWW/B.W/W.W b 6 7 0 6"),
    (Variant::Twelve, "W../.W./BWW/BB.BBB/BWW/WBW/.BW w 0 0 2 17"),
    (
        Variant::Morabaraba,
        "W.B/B../..W/BBWB../BWW/B.W/WBW w 3 3 0 10",
    ),
    (Variant::Lasker, "..W/.../W../..BB.B/W.W/.W./..B b 5 5 1 6"),
    (Variant::Lasker, "..W/.WB/W.W/...B.B/WWW/.B./.B. w 0 0 2 17"),
];

/// The result of one bench position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchLine {
    /// The variant.
    pub variant: Variant,
    /// The position string.
    pub position: String,
    /// The best ply found, in notation.
    pub best: String,
    /// Its score.
    pub score: Score,
    /// Nodes searched.
    pub nodes: u64,
}

/// The bench's totals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchReport {
    /// One line per position.
    pub lines: Vec<BenchLine>,
    /// Nodes over all positions: the signature.
    pub nodes: u64,
    /// Time over all positions.
    pub time: Duration,
}

impl BenchReport {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        crate::engine::nps(self.nodes, self.time)
    }
}

/// Searches every bench position to `depth` on one thread with a 16 MiB table, a new game for
/// each, calling `on_line` after each.
///
/// # Panics
///
/// Never: the bench positions are checked by a test.
pub fn run_bench(depth: u32, on_line: &mut dyn FnMut(&BenchLine)) -> BenchReport {
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 16,
        threads: 1,
        level: EngineOptions::MAX_LEVEL,
        multi_pv: 1,
        seed: Some(1),
        contempt: EngineOptions::DEFAULT_CONTEMPT,
    });
    let mut lines = Vec::new();
    let mut nodes = 0;
    let mut time = Duration::ZERO;
    for (variant, text) in BENCH_POSITIONS {
        let Ok(pos) = Position::from_fen(variant.rules(), text) else {
            continue;
        };
        engine.new_game();
        let game = Game::new(pos);
        let start = Instant::now();
        let result = engine.search(&game, &Limits::depth(depth), &mut |_| {});
        time += start.elapsed();
        nodes += result.nodes;
        let line = BenchLine {
            variant,
            position: text.to_string(),
            best: result
                .best
                .map_or_else(|| "none".into(), |p| p.display(pos.board()).to_string()),
            score: result.score,
            nodes: result.nodes,
        };
        on_line(&line);
        lines.push(line);
    }
    BenchReport { lines, nodes, time }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bench_position_is_valid_and_running() {
        for (variant, text) in BENCH_POSITIONS {
            let pos = Position::from_fen(variant.rules(), text).unwrap();
            assert!(!pos.is_over(), "{variant} {text}");
            assert!(!crate::level::profile(10, &pos).choose, "{text}");
        }
    }

    #[test]
    fn the_bench_is_deterministic() {
        let a = run_bench(3, &mut |_| {});
        let b = run_bench(3, &mut |_| {});
        assert_eq!(a.lines, b.lines);
        assert_eq!(a.lines.len(), BENCH_POSITIONS.len());
        assert!(a.nodes > 0);
    }
}
