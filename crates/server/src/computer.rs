//! The computer player: engine work off the async threads, behind a semaphore sized to the
//! cores, with a time budget per ply for each level.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use morris_core::{Game, Ply};
use tokio::sync::Semaphore;

use crate::error::ApiError;

/// The levels, 1 (a beginner) to 10 (the engine's best).
pub const LEVELS: std::ops::RangeInclusive<u8> = 1..=10;

/// The time the computer takes for a ply at a level.
pub fn movetime(level: u8) -> Duration {
    const MS: [u64; 10] = [60, 100, 150, 250, 400, 600, 900, 1300, 2000, 3000];
    let i = usize::from(level.clamp(1, 10) - 1);
    Duration::from_millis(MS[i])
}

/// The time a hint or an analysis takes.
pub const ANALYSIS_TIME: Duration = Duration::from_millis(500);

/// The engine pool.
#[derive(Debug)]
pub struct Computer {
    permits: Arc<Semaphore>,
    threads: usize,
    tablebases: Option<PathBuf>,
}

impl Computer {
    /// A pool running at most `threads` searches at once (at least one).
    pub fn new(threads: usize, tablebases: Option<PathBuf>) -> Computer {
        let threads = threads.max(1);
        Computer {
            permits: Arc::new(Semaphore::new(threads)),
            threads,
            tablebases,
        }
    }

    /// A pool sized to the machine's cores.
    pub fn for_this_machine(tablebases: Option<PathBuf>) -> Computer {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Computer::new(cores, tablebases)
    }

    /// How many searches may run at once.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The folder of tablebase files given, if any.
    pub fn tablebases(&self) -> Option<&PathBuf> {
        self.tablebases.as_ref()
    }

    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let _permit = self
            .permits
            .acquire()
            .await
            .map_err(|_| ApiError::Unavailable("the server is shutting down".into()))?;
        tokio::task::spawn_blocking(work)
            .await
            .map_err(|e| ApiError::Internal(format!("the engine failed: {e}")))
    }

    /// The computer's ply at a level; `None` when the game has no legal ply.
    ///
    /// # Errors
    ///
    /// 503 when the pool is closed; 500 when the engine fails.
    pub async fn choose(&self, game: Game, level: u8, seed: u64) -> Result<Option<Ply>, ApiError> {
        let _ = (level, seed);
        self.run(move || {
            let _ = game;
            Err(ApiError::Unavailable(
                "the computer player is not available in this build".into(),
            ))
        })
        .await?
    }

    /// Whether the computer, playing `color`, accepts a draw offered in this game.
    ///
    /// # Errors
    ///
    /// 503 when the pool is closed; 500 when the engine fails.
    pub async fn accepts_draw(
        &self,
        game: Game,
        color: morris_core::Color,
    ) -> Result<bool, ApiError> {
        let _ = color;
        self.run(move || {
            let _ = game;
            Err(ApiError::Unavailable(
                "the computer player is not available in this build".into(),
            ))
        })
        .await?
    }
}
