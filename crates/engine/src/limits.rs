//! What a search is asked to do, and what it reports.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use morris_core::{ByColor, Ply};

use crate::score::Score;

/// The engine's settings, as the protocol's options set them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// The size of the transposition table in MiB (at least 1).
    pub hash_mb: usize,
    /// Search threads (Lazy SMP); one thread gives deterministic node counts.
    pub threads: usize,
    /// Playing strength from 1 (a beginner can win) to 10 (full strength).
    pub level: u8,
    /// How many root plies to score and report; more than the number of legal plies scores
    /// them all.
    pub multi_pv: usize,
    /// The seed of the random choices (opening variety, weaker levels); `None` takes a new one
    /// for every game.
    pub seed: Option<u64>,
    /// How much the engine dislikes a draw by repetition or by the N-move rule, in centipawns
    /// at full strength (weaker levels scale it down): it avoids such draws unless its
    /// position is worse by more than this. 0 takes them as even; the tables' draws are never
    /// avoided.
    pub contempt: i32,
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions {
            hash_mb: 64,
            threads: 1,
            level: 10,
            multi_pv: 1,
            seed: None,
            contempt: Self::DEFAULT_CONTEMPT,
        }
    }
}

impl EngineOptions {
    /// The largest transposition table, in MiB.
    pub const MAX_HASH_MB: usize = 65_536;
    /// The most search threads.
    pub const MAX_THREADS: usize = 256;
    /// The strongest level.
    pub const MAX_LEVEL: u8 = 10;
    /// The contempt at full strength unless set otherwise, in centipawns.
    pub const DEFAULT_CONTEMPT: i32 = 25;
    /// The largest contempt, in centipawns, either way.
    pub const MAX_CONTEMPT: i32 = 500;

    /// The options brought into their ranges: hash 1 to [`Self::MAX_HASH_MB`], threads 1 to
    /// [`Self::MAX_THREADS`], level 1 to 10, multi-PV at least 1.
    #[must_use]
    pub fn clamped(mut self) -> EngineOptions {
        self.hash_mb = self.hash_mb.clamp(1, Self::MAX_HASH_MB);
        self.threads = self.threads.clamp(1, Self::MAX_THREADS);
        self.level = self.level.clamp(1, Self::MAX_LEVEL);
        self.multi_pv = self.multi_pv.max(1);
        self.contempt = self.contempt.clamp(-Self::MAX_CONTEMPT, Self::MAX_CONTEMPT);
        self
    }
}

/// The time each side has left and gains per ply, as a clock gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on each side's clock.
    pub time: ByColor<Duration>,
    /// Time added to each side's clock after each of its plies.
    pub inc: ByColor<Duration>,
}

/// When a search must stop. Limits combine: the search stops at the first one reached. With
/// none, it searches until the position is solved or `stop` is set.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// The deepest iteration, in plies.
    pub depth: Option<u32>,
    /// The most nodes.
    pub nodes: Option<u64>,
    /// The time for this ply.
    pub movetime: Option<Duration>,
    /// A game clock: the search budgets its own time and never runs it out.
    pub clock: Option<Clock>,
    /// Search until `stop` is set, whatever else the limits say about time.
    pub infinite: bool,
    /// Set it from another thread to end the search at once; the search still gives its best
    /// ply.
    pub stop: Arc<AtomicBool>,
}

impl Limits {
    /// Limits of a fixed depth.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Limits of a fixed time.
    pub fn movetime(time: Duration) -> Limits {
        Limits {
            movetime: Some(time),
            ..Limits::default()
        }
    }
}

/// A report during the search: one line of analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// The depth of the iteration, in plies.
    pub depth: u32,
    /// The rank of this line among the root plies, from 1.
    pub multipv: usize,
    /// The score of the line.
    pub score: Score,
    /// Nodes searched so far, over all threads.
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// Time since the search began.
    pub time: Duration,
    /// The principal variation, from the root.
    pub pv: Vec<Ply>,
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The ply to play; `None` when the game is over.
    pub best: Option<Ply>,
    /// The score of the best ply (or of the finished game).
    pub score: Score,
    /// The depth of the last finished iteration.
    pub depth: u32,
    /// Nodes searched, over all threads.
    pub nodes: u64,
    /// The principal variation, from `best` on.
    pub pv: Vec<Ply>,
    /// Every root ply scored, best first, when `multi_pv` is more than 1 (or a weaker level
    /// chose among them); otherwise empty.
    pub root: Vec<(Ply, Score)>,
}
