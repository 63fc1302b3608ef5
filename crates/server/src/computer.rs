//! The computer player: engine work off the async threads, on a small pool of engines (one
//! per slot of the queue, each with its table, reused from search to search), the computer's
//! own plies ahead of hints and analyses; a time budget per ply for each level.

use std::cmp::Ordering;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use morris_core::{Color, Game, Ply};
use morris_engine::{Engine, EngineOptions, Limits, Probe, Score, SearchResult, score_plies};

use crate::error::ApiError;
use crate::queue::{EngineQueue, Priority, QueueLimits, QueueRefusal};
use crate::response::{AnalysisView, Grade, GradedPly, HintView, Source};

/// The levels, 1 (a beginner) to 10 (the engine's best).
pub const LEVELS: std::ops::RangeInclusive<u8> = 1..=10;

/// The most time the computer takes for a ply at a level. The weaker levels also search less
/// deep, so they usually answer sooner.
pub fn movetime(level: u8) -> Duration {
    const MS: [u64; 10] = [60, 100, 150, 250, 400, 600, 900, 1300, 2000, 3000];
    let i = usize::from(level.clamp(1, 10) - 1);
    Duration::from_millis(MS[i])
}

/// The time a hint, an analysis or a draw judgement takes at most.
pub const ANALYSIS_TIME: Duration = Duration::from_millis(500);

/// The transposition table of one search, in MiB: enough for a few seconds, small enough
/// that many searches at once stay cheap.
const HASH_MB: usize = 16;

/// The engine pool.
pub struct Computer {
    queue: EngineQueue,
    /// The engines not searching now; at most one per slot, made when first needed.
    engines: Arc<Mutex<Vec<Engine>>>,
    threads: usize,
    tablebase: Option<Arc<dyn Probe>>,
}

impl std::fmt::Debug for Computer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Computer")
            .field("threads", &self.threads)
            .field("tablebase", &self.tablebase.is_some())
            .finish()
    }
}

impl Computer {
    /// A pool running at most `threads` searches at once (at least one), with the default
    /// bounds of the coaching work.
    pub fn new(threads: usize) -> Computer {
        Computer::with_limits(threads, QueueLimits::default())
    }

    /// A pool running at most `threads` searches at once, hints and analyses bounded by
    /// `limits`.
    pub fn with_limits(threads: usize, limits: QueueLimits) -> Computer {
        let threads = threads.max(1);
        Computer {
            queue: EngineQueue::new(threads, limits),
            engines: Arc::new(Mutex::new(Vec::with_capacity(threads))),
            threads,
            tablebase: None,
        }
    }

    /// A pool sized to the machine's cores.
    pub fn for_this_machine() -> Computer {
        Computer::new(std::thread::available_parallelism().map_or(1, |n| n.get()))
    }

    /// The pool with a tablebase that every search probes.
    #[must_use]
    pub fn with_tablebase(mut self, tablebase: Arc<dyn Probe>) -> Computer {
        self.tablebase = Some(tablebase);
        self
    }

    /// The tablebase that searches probe, if any.
    /// The problems met with table files since the last call (a damaged file, named), each
    /// said once.
    pub fn tablebase_problems(&self) -> Vec<String> {
        self.tablebase
            .as_ref()
            .map(|t| t.take_problems())
            .unwrap_or_default()
    }

    pub(crate) fn tablebase(&self) -> Option<Arc<dyn Probe>> {
        self.tablebase.clone()
    }

    /// How many searches may run at once.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Runs engine work on a blocking thread once the queue gives a slot.
    pub(crate) async fn blocking<T: Send + 'static>(
        &self,
        priority: Priority,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let slot = self.queue.acquire(priority).await.map_err(refusal)?;
        let result = tokio::task::spawn_blocking(work)
            .await
            .map_err(|e| ApiError::Internal(format!("the engine failed: {e}")));
        drop(slot);
        result
    }

    /// Runs a search on a blocking thread, on an engine of the pool, once the queue gives a
    /// slot. The engine forgets its earlier searches first, so that the same game and seed
    /// give the same result.
    pub(crate) async fn search(
        &self,
        priority: Priority,
        game: Game,
        (level, multi_pv, seed): (u8, usize, u64),
        limits: Limits,
    ) -> Result<SearchResult, ApiError> {
        let engines = self.engines.clone();
        let tablebase = self.tablebase.clone();
        self.blocking(priority, move || {
            let options = EngineOptions {
                hash_mb: HASH_MB,
                threads: 1,
                level,
                multi_pv,
                seed: Some(seed),
                ..EngineOptions::default()
            };
            let kept = engines.lock().unwrap_or_else(|e| e.into_inner()).pop();
            let mut engine = match kept {
                Some(mut engine) => {
                    engine.set_options(options);
                    engine.new_game();
                    engine
                }
                None => Engine::new(options),
            };
            engine.set_tablebase(tablebase);
            let result = engine.search(&game, &limits, &mut |_| {});
            // A panicking search loses its engine; the next search makes a new one.
            engines
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(engine);
            result
        })
        .await
    }

    /// The engines made so far (at most one per slot).
    pub fn engines_made(&self) -> usize {
        self.engines.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// The computer's ply at a level; `None` when the game has no legal ply. The same game
    /// and seed give the same ply. It goes ahead of every hint and analysis. In a game with a
    /// clock the engine also budgets the clock's time (`wtime btime winc binc`), so that it
    /// never thinks longer than its level's time nor runs its clock out.
    ///
    /// # Errors
    ///
    /// 503 when the pool is closed; 500 when the engine fails.
    pub async fn choose(
        &self,
        game: Game,
        level: u8,
        seed: u64,
        clock: Option<morris_engine::Clock>,
    ) -> Result<Option<Ply>, ApiError> {
        let limits = Limits {
            movetime: Some(movetime(level)),
            clock,
            ..Limits::default()
        };
        Ok(self
            .search(Priority::Play, game, (level, 1, seed), limits)
            .await?
            .best)
    }

    /// The best ply at full strength and its score, for the side to move; charged to the
    /// client at `client`.
    ///
    /// # Errors
    ///
    /// 409 when the game is over; 429 when the client has its share of the engine's time
    /// waiting; 503 when the queue is full or stays busy or the pool is closed; 500 when the
    /// engine fails.
    pub async fn hint(&self, game: Game, client: IpAddr) -> Result<HintView, ApiError> {
        let board = game.start().board();
        let priority = Priority::Coach(client);
        if let Some(tb) = self.tablebase.clone() {
            let probed = game.clone();
            let exact = self
                .blocking(priority, move || tablebase_scores(&probed, &*tb))
                .await?;
            if let Some(&(best, score)) = exact.as_ref().and_then(|s| s.first()) {
                return Ok(HintView {
                    ply: best.display(board).to_string(),
                    score: score.into(),
                    source: Source::Tablebase,
                });
            }
        }
        let result = self
            .search(priority, game, (10, 1, 0), Limits::movetime(ANALYSIS_TIME))
            .await?;
        let best = result
            .best
            .ok_or_else(|| ApiError::Conflict("the game is over: there is no hint".into()))?;
        Ok(HintView {
            ply: best.display(board).to_string(),
            score: result.score.into(),
            source: Source::Engine,
        })
    }

    /// Every legal ply scored at full strength, best first, each with a grade; charged to the
    /// client at `client`.
    ///
    /// # Errors
    ///
    /// As [`Computer::hint`], but a finished game is no error.
    pub async fn analyse(&self, game: Game, client: IpAddr) -> Result<AnalysisView, ApiError> {
        let board = game.start().board();
        let priority = Priority::Coach(client);
        if let Some(tb) = self.tablebase.clone() {
            let probed = game.clone();
            if let Some(scored) = self
                .blocking(priority, move || tablebase_scores(&probed, &*tb))
                .await?
            {
                return Ok(graded(Source::Tablebase, 0, scored, board));
            }
        }
        let result = self
            .search(
                priority,
                game,
                (10, usize::MAX, 0),
                Limits::movetime(ANALYSIS_TIME),
            )
            .await?;
        let mut scored = result.root.clone();
        if scored.is_empty() {
            scored.extend(result.best.map(|b| (b, result.score)));
        }
        Ok(graded(Source::Engine, result.depth, scored, board))
    }

    /// Whether the computer, playing `color`, accepts a draw offered now, as
    /// [`accepts_draw_at`] judges its own search.
    ///
    /// # Errors
    ///
    /// 503 when the pool is closed; 500 when the engine fails.
    pub async fn accepts_draw(&self, game: Game, color: Color) -> Result<bool, ApiError> {
        let to_move = game.position().turn();
        let plies = game.plies().len();
        let result = self
            .search(
                Priority::Play,
                game,
                (10, 1, 0),
                Limits::movetime(ANALYSIS_TIME),
            )
            .await?;
        let own = if to_move == color {
            result.score
        } else {
            result.score.parent()
        };
        Ok(accepts_draw_at(own, plies))
    }
}

/// The plies of a game's opening, in which the computer plays on rather than agree a draw.
pub const OPENING_PLIES: usize = 40;

/// Whether the computer accepts a draw when its search scores its own side `own` after
/// `plies` plies: in the opening (before [`OPENING_PLIES`]) only when it sees a forced loss;
/// after it, also when it stands worse by a quarter of a piece or more, or the position is
/// level.
pub fn accepts_draw_at(own: Score, plies: usize) -> bool {
    match own {
        Score::Mate(n) => n <= 0,
        Score::Cp(_) if plies < OPENING_PLIES => false,
        Score::Cp(cp) => cp <= -25 || cp.abs() <= 10,
    }
}

/// The API's error for a refusal of the queue.
fn refusal(r: QueueRefusal) -> ApiError {
    match r {
        QueueRefusal::ClientBusy => ApiError::Busy(r.to_string()),
        QueueRefusal::Full | QueueRefusal::TimedOut | QueueRefusal::Closed => {
            ApiError::Unavailable(r.to_string())
        }
    }
}

/// Every legal ply scored exactly from the tablebase: the value of the position it leads to,
/// seen from the side that plays it. `None` when the game is over, a side has pieces in hand,
/// or the tablebase lacks a position reached.
pub(crate) fn tablebase_scores(game: &Game, tb: &dyn Probe) -> Option<Vec<(Ply, Score)>> {
    if game.outcome().is_some() {
        return None;
    }
    let scored = score_plies(game.position(), |c| tb.probe(c).ok_or(())).ok()?;
    scored
        .into_iter()
        .map(|(ply, value)| {
            let mut next = game.clone();
            next.play(ply).ok()?;
            // A draw by the game's own rules (repetition, N-move rule) is what the ply gives.
            let score = match next.outcome() {
                Some(o) if o.winner.is_none() => Score::Cp(0),
                _ => Score::from(value),
            };
            Some((ply, score))
        })
        .collect()
}

/// The analysis of scored plies: best first, each graded against the best.
fn graded(
    source: Source,
    depth: u32,
    mut scored: Vec<(Ply, Score)>,
    board: &morris_core::Board,
) -> AnalysisView {
    scored.sort_by_key(|s| std::cmp::Reverse(s.1));
    let best = scored.first().map(|s| s.1);
    AnalysisView {
        source,
        depth,
        moves: scored
            .into_iter()
            .map(|(ply, score)| GradedPly {
                ply: ply.display(board).to_string(),
                score: score.into(),
                grade: best.map_or(Grade::Best, |b| grade(b, score)),
            })
            .collect(),
    }
}

/// The most a ply may lose beside the best, in hundredths of a piece, and still be good.
pub const GOOD_LOSS: i32 = 30;
/// The most a ply may lose and be an inaccuracy.
pub const INACCURACY_LOSS: i32 = 100;
/// The most a ply may lose and be a mistake; more is a blunder.
pub const MISTAKE_LOSS: i32 = 300;

/// How good a ply is beside the best: by the loss in hundredths of a piece ([`GOOD_LOSS`],
/// [`INACCURACY_LOSS`], [`MISTAKE_LOSS`]), and by whether it throws away a forced win or walks
/// into a forced loss. Hints, analyses and reviews all grade here; the page only shows it.
pub fn grade(best: Score, score: Score) -> Grade {
    if score.cmp(&best) != Ordering::Less {
        return Grade::Best;
    }
    match (best, score) {
        (Score::Mate(b), Score::Mate(s)) if b > 0 && s > 0 => Grade::Good,
        (Score::Mate(b), _) if b > 0 => Grade::Blunder,
        (_, Score::Mate(s)) if s <= 0 => {
            if best.is_loss() {
                Grade::Good
            } else {
                Grade::Blunder
            }
        }
        (Score::Cp(b), Score::Cp(s)) => {
            let loss = b.saturating_sub(s);
            if loss <= GOOD_LOSS {
                Grade::Good
            } else if loss <= INACCURACY_LOSS {
                Grade::Inaccuracy
            } else if loss <= MISTAKE_LOSS {
                Grade::Mistake
            } else {
                Grade::Blunder
            }
        }
        _ => Grade::Good,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_computer_plays_the_opening_on_unless_it_sees_a_forced_loss() {
        // The empty board: the side not to move scores itself a little worse.
        for plies in [0, 1, 20, OPENING_PLIES - 1] {
            assert!(!accepts_draw_at(Score::Cp(-30), plies), "ply {plies}");
            assert!(!accepts_draw_at(Score::Cp(0), plies), "ply {plies}");
            assert!(!accepts_draw_at(Score::Cp(-400), plies), "ply {plies}");
            assert!(accepts_draw_at(Score::Mate(-7), plies), "a forced loss");
        }
        assert!(accepts_draw_at(Score::Cp(-30), OPENING_PLIES));
        assert!(accepts_draw_at(Score::Cp(5), OPENING_PLIES));
        assert!(!accepts_draw_at(Score::Cp(60), OPENING_PLIES));
        assert!(!accepts_draw_at(Score::Mate(5), OPENING_PLIES));
    }

    #[test]
    fn grades_follow_the_loss() {
        assert_eq!(grade(Score::Cp(50), Score::Cp(50)), Grade::Best);
        assert_eq!(grade(Score::Cp(50), Score::Cp(30)), Grade::Good);
        assert_eq!(grade(Score::Cp(50), Score::Cp(-20)), Grade::Inaccuracy);
        assert_eq!(grade(Score::Cp(50), Score::Cp(-200)), Grade::Mistake);
        assert_eq!(grade(Score::Cp(50), Score::Cp(-900)), Grade::Blunder);
        assert_eq!(grade(Score::Mate(3), Score::Mate(9)), Grade::Good);
        assert_eq!(grade(Score::Mate(3), Score::Cp(500)), Grade::Blunder);
        assert_eq!(grade(Score::Cp(0), Score::Mate(-4)), Grade::Blunder);
        assert_eq!(grade(Score::Mate(-8), Score::Mate(-2)), Grade::Good);
        assert_eq!(grade(Score::Mate(-2), Score::Mate(-8)), Grade::Best);
        assert_eq!(grade(Score::Mate(-2), Score::Cp(0)), Grade::Best);
    }

    #[test]
    fn the_thresholds_bound_each_grade() {
        let after = |loss: i32| grade(Score::Cp(50), Score::Cp(50 - loss));
        assert_eq!(after(GOOD_LOSS), Grade::Good);
        assert_eq!(after(GOOD_LOSS + 1), Grade::Inaccuracy);
        assert_eq!(after(INACCURACY_LOSS), Grade::Inaccuracy);
        assert_eq!(after(INACCURACY_LOSS + 1), Grade::Mistake);
        assert_eq!(after(MISTAKE_LOSS), Grade::Mistake);
        assert_eq!(after(MISTAKE_LOSS + 1), Grade::Blunder);
        assert_eq!((GOOD_LOSS, INACCURACY_LOSS, MISTAKE_LOSS), (30, 100, 300));
    }

    #[test]
    fn levels_have_growing_budgets() {
        let times: Vec<_> = LEVELS.map(movetime).collect();
        assert!(times.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(movetime(0), movetime(1));
        assert_eq!(movetime(99), movetime(10));
    }
}
