//! A search engine for Nine Men's Morris and its family.
//!
//! [`Engine`] searches a [`Game`]'s current position with iterative deepening, a principal
//! variation search over a shared transposition table (Lazy SMP on several threads), an
//! evaluation of material, mills, threats and mobility, and the draw rules of the game. Its
//! [`EngineOptions`] set the table's size, the threads, a playing level from 1 to 10 and how
//! many root plies to score. [`run_protocol`] speaks the engine protocol over any reader and
//! writer.
//!
//! ```
//! use std::time::Duration;
//! use morris_core::{Game, Position, Variant};
//!
//! let game = Game::new(Position::start(Variant::Nine));
//! let ply = morris_engine::best_ply(&game, 3, Duration::from_millis(20), 42).unwrap();
//! assert!(game.position().is_legal(ply));
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod accuracy;
pub mod arena;
pub mod bench;
mod engine;
pub mod eval;
mod level;
mod limits;
mod ordering;
mod protocol;
mod score;
mod search;
mod selfplay;
pub mod text;
mod time;
mod tt;
pub mod tune;

use std::time::Duration;

use morris_core::{Game, Ply};

pub use engine::{Engine, MAX_DEPTH, trap_weight};
pub use level::estimated_rating;
pub use limits::{Clock, EngineOptions, Info, Limits, SearchResult};
/// The tablebases' values and probing, from core (where the tablebase crate finds them too),
/// under the engine's names.
pub use morris_core::value::{Plies, Probe, Value as TbValue, Wdl, score_plies, terminal_value};
pub use protocol::{Command, CommandError, OpenTablebase, run_protocol, run_protocol_with_tables};
pub use score::Score;

/// The ply a level would play after thinking for at most `movetime`, or `None` when the game
/// is over. The same seed gives the same choice.
pub fn best_ply(game: &Game, level: u8, movetime: Duration, seed: u64) -> Option<Ply> {
    best_ply_with(game, level, movetime, seed, None)
}

/// [`best_ply`] with tablebases to probe.
pub fn best_ply_with(
    game: &Game,
    level: u8,
    movetime: Duration,
    seed: u64,
    tables: Option<std::sync::Arc<dyn Probe>>,
) -> Option<Ply> {
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 16,
        level,
        seed: Some(seed),
        ..EngineOptions::default()
    });
    engine.set_tablebase(tables);
    engine
        .search(game, &Limits::movetime(movetime), &mut |_| {})
        .best
}

/// Every legal ply of the game's position scored at full strength within about `movetime`,
/// best first; empty when the game is over.
pub fn analyse(game: &Game, movetime: Duration) -> Vec<(Ply, Score)> {
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 16,
        multi_pv: usize::MAX,
        seed: Some(0),
        ..EngineOptions::default()
    });
    let result = engine.search(game, &Limits::movetime(movetime), &mut |_| {});
    if result.root.is_empty() {
        result
            .best
            .map(|b| vec![(b, result.score)])
            .unwrap_or_default()
    } else {
        result.root
    }
}
