//! Games of the engine against itself from which positions are drawn, for the accuracy measure
//! and for tuning: a few random plies first, then the engine at a low level on a node budget.

use morris_core::{Game, Ply, Position, Variant};

use crate::Engine;
use crate::level::Rng;
use crate::limits::{EngineOptions, Limits};

/// One game of the engine against itself.
pub(crate) struct SelfPlay {
    /// The variant.
    pub variant: Variant,
    /// The engine's level.
    pub level: u8,
    /// The engine's seed.
    pub seed: u64,
    /// The first plies, played at random.
    pub random_plies: usize,
    /// The engine's nodes a ply.
    pub nodes: u64,
}

impl SelfPlay {
    /// Plays the game out (at most 300 plies). Before each ply, `visit` sees its number and the
    /// position; then `pick` may choose the ply from the legal ones, else the ply is random in
    /// the first plies and the engine's after them.
    pub fn play(
        &self,
        rng: &mut Rng,
        mut pick: impl FnMut(&Position, &[Ply], &mut Rng) -> Option<Ply>,
        mut visit: impl FnMut(usize, &Position),
    ) {
        let mut engine = Engine::new(EngineOptions {
            hash_mb: 4,
            level: self.level,
            seed: Some(self.seed),
            ..EngineOptions::default()
        });
        let limits = Limits {
            nodes: Some(self.nodes),
            ..Limits::default()
        };
        let mut game = Game::new(Position::start(self.variant));
        for ply_no in 0..300 {
            if game.outcome().is_some() {
                break;
            }
            let pos = *game.position();
            visit(ply_no, &pos);
            let legal = game.legal_plies();
            let ply = match pick(&pos, &legal, rng) {
                Some(p) => p,
                None if ply_no < self.random_plies => {
                    legal[(rng.next_u64() % legal.len() as u64) as usize]
                }
                None => match engine.search(&game, &limits, &mut |_| {}).best {
                    Some(p) => p,
                    None => break,
                },
            };
            if game.play(ply).is_err() {
                break;
            }
        }
    }
}

/// At most `take` of `items`, spread evenly over them from the first.
pub(crate) fn spread<T>(items: &[T], take: usize) -> impl Iterator<Item = &T> {
    let take = take.min(items.len());
    (0..take).map(move |k| &items[k * items.len() / take])
}
