//! The review of a game: every position it passed through scored for the side to move, exactly
//! from the tablebase where it holds the position and by the engine elsewhere, with the best ply
//! and the line that follows it; and every ply with the score it kept and its grade against
//! the best.
//!
//! A review is coaching work: each position goes through the engine queue on its own, charged
//! to the client, with a bounded time per position and a bounded number of plies, and the whole
//! review has a deadline.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::extract::State;
use morris_core::{Board, Game, Ply};
use morris_engine::{Limits, Score};
use serde::{Deserialize, Serialize};

use crate::api::ClientAddr;
use crate::app::AppState;
use crate::computer::{Computer, grade, tablebase_scores};
use crate::error::ApiError;
use crate::queue::Priority;
use crate::request::{ApiJson, GameIdPath};
use crate::response::{Grade, ScoreView, Side, Source};

/// The most plies a review covers; a longer game is reviewed up to there.
pub const MAX_PLIES: usize = 300;

/// The time per position when the request names none.
pub const DEFAULT_TIME: Duration = Duration::from_millis(120);

/// The shortest and the longest time per position a request may ask for.
pub const TIME_RANGE: std::ops::RangeInclusive<u64> = 20..=500;

/// The most search time a whole review takes: a long game gets less time per position.
pub const TOTAL_TIME: Duration = Duration::from_secs(30);

/// How long a review may take in all, waits for the engine included.
pub const DEADLINE: Duration = Duration::from_secs(120);

/// The most plies of the line shown after the best ply.
pub const LINE_PLIES: usize = 8;

/// The body of `POST /api/games/{id}/review`, as sent.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ReviewBody {
    /// Milliseconds of search per position.
    #[serde(default)]
    ms: Option<u64>,
}

/// The body of `POST /api/games/{id}/review`, checked.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(try_from = "ReviewBody")]
pub struct ReviewRequest {
    /// The search time per position asked for.
    pub time: Duration,
}

impl TryFrom<ReviewBody> for ReviewRequest {
    type Error = String;

    fn try_from(body: ReviewBody) -> Result<ReviewRequest, String> {
        let time = match body.ms {
            None => DEFAULT_TIME,
            Some(ms) if TIME_RANGE.contains(&ms) => Duration::from_millis(ms),
            Some(ms) => {
                return Err(format!(
                    "ms must be from {} to {}, not {ms}",
                    TIME_RANGE.start(),
                    TIME_RANGE.end()
                ));
            }
        };
        Ok(ReviewRequest { time })
    }
}

/// One position of a review, scored for the side to move in it.
#[derive(Debug, Clone, Serialize)]
pub struct ReviewedPosition {
    /// The position string.
    pub position: String,
    /// The side to move.
    pub turn: Side,
    /// Its value for the side to move: the score of the best ply.
    pub score: ScoreView,
    /// Where the score comes from.
    pub source: Source,
    /// The best ply, or `null` when the game is over here.
    pub best: Option<String>,
    /// The best ply and the plies expected after it.
    pub line: Vec<String>,
    /// The depth searched (0 for the tablebase).
    pub depth: u32,
}

/// One ply of a review.
#[derive(Debug, Clone, Serialize)]
pub struct ReviewedPly {
    /// The ply.
    #[serde(rename = "move")]
    pub ply: String,
    /// The side that played it.
    pub side: Side,
    /// What the ply kept, for the side that played it: compare with the `score` of the
    /// position before it.
    pub score: ScoreView,
    /// Where this score comes from.
    pub source: Source,
    /// How good the ply is beside the best ply of the position before it.
    pub grade: Grade,
}

/// The answer to `POST /api/games/{id}/review`.
#[derive(Debug, Clone, Serialize)]
pub struct ReviewView {
    /// The positions: the start, then one after each ply reviewed.
    pub positions: Vec<ReviewedPosition>,
    /// The plies reviewed, in order.
    pub plies: Vec<ReviewedPly>,
    /// The plies of the game, of which the first `plies.len()` are reviewed.
    pub total: usize,
    /// The search time each position got, in milliseconds.
    pub ms: u64,
}

/// `POST /api/games/{id}/review`
pub async fn review(
    State(app): State<Arc<AppState>>,
    ClientAddr(client): ClientAddr,
    GameIdPath(id): GameIdPath,
    ApiJson(request): ApiJson<ReviewRequest>,
) -> Result<Json<ReviewView>, ApiError> {
    let state = app.game(&id).await?.snapshot().await;
    state.require_coaching()?;
    let work = review_game(&app.computer, &state.game, request.time, client);
    match tokio::time::timeout(DEADLINE, work).await {
        Ok(view) => view.map(Json),
        Err(_) => Err(ApiError::Unavailable(
            "the engine stayed busy: the review did not finish in time".into(),
        )),
    }
}

/// A position scored: by the tablebase (every ply exact) or by a search.
enum Scored {
    Exact {
        score: Score,
        plies: Vec<(Ply, Score)>,
        line: Vec<Ply>,
    },
    Searched {
        score: Score,
        best: Option<Ply>,
        line: Vec<Ply>,
        depth: u32,
    },
}

impl Scored {
    fn score(&self) -> Score {
        match self {
            Scored::Exact { score, .. } | Scored::Searched { score, .. } => *score,
        }
    }

    fn best(&self) -> Option<Ply> {
        match self {
            Scored::Exact { line, .. } => line.first().copied(),
            Scored::Searched { best, .. } => *best,
        }
    }
}

/// Reviews the first [`MAX_PLIES`] plies of a game.
///
/// # Errors
///
/// The refusals of the engine queue (429, 503), and 500 when the engine fails.
pub async fn review_game(
    computer: &Computer,
    game: &Game,
    time: Duration,
    client: IpAddr,
) -> Result<ReviewView, ApiError> {
    let total = game.plies().len();
    let plies = &game.plies()[..total.min(MAX_PLIES)];
    // Every prefix of the game, so that each search knows the history (repetitions).
    let mut games = Vec::with_capacity(plies.len() + 1);
    let mut prefix = Game::new(*game.start());
    games.push(prefix.clone());
    for &ply in plies {
        prefix
            .play(ply)
            .map_err(|e| ApiError::Internal(format!("a stored ply does not replay: {e}")))?;
        games.push(prefix.clone());
    }
    let per_position = time.min(TOTAL_TIME / u32::try_from(games.len()).unwrap_or(u32::MAX));
    let per_position = per_position.max(Duration::from_millis(*TIME_RANGE.start()));
    let mut scored = Vec::with_capacity(games.len());
    for g in &games {
        scored.push(score_position(computer, g, per_position, client).await?);
    }

    let board = game.start().board();
    let text = |p: Ply| p.display(board).to_string();
    let positions = games
        .iter()
        .zip(&scored)
        .map(|(g, s)| position_view(g, s, board))
        .collect();
    let plies = plies
        .iter()
        .enumerate()
        .map(|(i, &ply)| {
            let (score, source) = played_score(ply, &scored[i], &scored[i + 1]);
            ReviewedPly {
                ply: text(ply),
                side: games[i].position().turn().into(),
                score: score.into(),
                source,
                grade: grade(scored[i].score(), score),
            }
        })
        .collect();
    Ok(ReviewView {
        positions,
        plies,
        total,
        ms: u64::try_from(per_position.as_millis()).unwrap_or(u64::MAX),
    })
}

/// The score a ply kept for its player: exact when the tablebase scored the position before
/// it, the best score when it is the best ply, else the value of the position it led to.
fn played_score(ply: Ply, before: &Scored, after: &Scored) -> (Score, Source) {
    match before {
        Scored::Exact { plies, .. } => {
            if let Some(&(_, score)) = plies.iter().find(|(p, _)| *p == ply) {
                return (score, Source::Tablebase);
            }
        }
        Scored::Searched { best, score, .. } if *best == Some(ply) => {
            return (*score, Source::Engine);
        }
        Scored::Searched { .. } => {}
    }
    let source = match after {
        Scored::Exact { .. } => Source::Tablebase,
        Scored::Searched { .. } => Source::Engine,
    };
    (after.score().parent(), source)
}

fn position_view(game: &Game, scored: &Scored, board: &Board) -> ReviewedPosition {
    let text = |p: &Ply| p.display(board).to_string();
    let (source, line, depth) = match scored {
        Scored::Exact { line, .. } => (Source::Tablebase, line, 0),
        Scored::Searched { line, depth, .. } => (Source::Engine, line, *depth),
    };
    ReviewedPosition {
        position: game.position().to_string(),
        turn: game.position().turn().into(),
        score: scored.score().into(),
        source,
        best: scored.best().as_ref().map(text),
        line: line.iter().take(LINE_PLIES).map(text).collect(),
        depth,
    }
}

/// Scores one position: from the tablebase when it holds every ply's result, else by a
/// search of `time`.
async fn score_position(
    computer: &Computer,
    game: &Game,
    time: Duration,
    client: IpAddr,
) -> Result<Scored, ApiError> {
    let priority = Priority::Coach(client);
    if let Some(tb) = computer.tablebase() {
        let probed = game.clone();
        let exact = computer
            .blocking(priority, move || {
                let plies = tablebase_scores(&probed, &*tb)?;
                let mut sorted = plies.clone();
                sorted.sort_by_key(|s| std::cmp::Reverse(s.1));
                let &(_, score) = sorted.first()?;
                // The line: the best ply of each position after, while the tablebase holds it.
                let mut line = Vec::new();
                let mut walk = probed.clone();
                while line.len() < LINE_PLIES {
                    let Some(next) = tablebase_scores(&walk, &*tb)
                        .and_then(|s| s.into_iter().max_by_key(|&(_, sc)| sc.rank()))
                    else {
                        break;
                    };
                    if walk.play(next.0).is_err() {
                        break;
                    }
                    line.push(next.0);
                }
                Some(Scored::Exact { score, plies, line })
            })
            .await?;
        if let Some(exact) = exact {
            return Ok(exact);
        }
    }
    let result = computer
        .search(priority, game.clone(), (10, 1, 0), Limits::movetime(time))
        .await?;
    let line = if result.pv.is_empty() {
        result.best.into_iter().collect()
    } else {
        result.pv.clone()
    };
    Ok(Scored::Searched {
        score: result.score,
        best: result.best,
        line,
        depth: result.depth,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_time_per_position_is_bounded() {
        let r: ReviewRequest = serde_json::from_str("{}").unwrap();
        assert_eq!(r.time, DEFAULT_TIME);
        let r: ReviewRequest = serde_json::from_str(r#"{"ms":40}"#).unwrap();
        assert_eq!(r.time, Duration::from_millis(40));
        let e = serde_json::from_str::<ReviewRequest>(r#"{"ms":5000}"#).unwrap_err();
        assert!(e.to_string().contains("from 20 to 500"), "{e}");
        assert!(serde_json::from_str::<ReviewRequest>(r#"{"depth":3}"#).is_err());
    }

    #[tokio::test]
    async fn every_ply_is_scored_and_the_best_keeps_the_best_score() {
        let computer = Computer::new(1);
        let mut game = Game::new(morris_core::Position::new(
            morris_core::Variant::Nine.rules(),
        ));
        for ply in ["d6", "f4", "d2", "b4", "f6"] {
            game.play_text(ply).unwrap();
        }
        let client = IpAddr::from([127, 0, 0, 1]);
        let view = review_game(&computer, &game, Duration::from_millis(20), client)
            .await
            .unwrap();
        assert_eq!(view.positions.len(), 6);
        assert_eq!(view.plies.len(), 5);
        assert_eq!(view.total, 5);
        assert_eq!(view.plies[0].ply, "d6");
        assert_eq!(view.plies[1].side, Side::Black);
        for (i, p) in view.positions.iter().enumerate() {
            assert_eq!(p.source, Source::Engine);
            assert_eq!(p.line.first(), p.best.as_ref(), "position {i}");
            if view.plies.get(i).map(|r| &r.ply) == p.best.as_ref() {
                assert_eq!(view.plies[i].score, p.score);
                assert_eq!(view.plies[i].grade, Grade::Best);
            }
        }
    }
}
