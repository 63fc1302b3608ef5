//! Ratings: one row per player, variant and time class, and a row of history per rated game.
//! A rated game's ratings are changed in the same transaction as its end, so that a result
//! the players were shown always has its rating change, and never has it twice.

use morris_core::{ByColor, Color};
use rusqlite::{OptionalExtension, params};
use serde::Serialize;

use super::StoreError;
use crate::accounts::PlayerId;
use crate::clock::TimeClass;
use crate::game_state::GameState;
use crate::rating::{self, Rating};

pub use crate::rating::RatingChange;

/// A player's rating in one variant and time class.
#[derive(Debug, Clone, Serialize)]
pub struct RatingRow {
    /// The variant's name.
    pub variant: String,
    /// The time class.
    pub class: TimeClass,
    /// The rating.
    pub rating: Rating,
    /// Rated games played in it.
    pub games: u32,
    /// Whether it is still provisional.
    pub provisional: bool,
}

/// One point of a player's rating history.
#[derive(Debug, Clone, Serialize)]
pub struct HistoryPoint {
    /// The game.
    pub game: String,
    /// The variant's name.
    pub variant: String,
    /// The time class.
    pub class: TimeClass,
    /// When, in milliseconds since 1970.
    pub at: i64,
    /// The rating after the game.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
}

/// The rating of a player in a variant and class (the start for one not yet rated).
pub(super) fn rating_of(
    tx: &rusqlite::Transaction<'_>,
    player: PlayerId,
    variant: &str,
    class: TimeClass,
) -> Result<Rating, StoreError> {
    let found = tx
        .prepare_cached(
            "SELECT rating, deviation, volatility FROM ratings
             WHERE player = ?1 AND variant = ?2 AND class = ?3",
        )?
        .query_row(params![player.0, variant, class.name()], |r| {
            Ok(Rating {
                rating: r.get(0)?,
                deviation: r.get(1)?,
                volatility: r.get(2)?,
            })
        })
        .optional()?;
    Ok(found.unwrap_or(rating::START))
}

/// Changes both players' ratings by the result of a rated game that has just ended, and
/// keeps the change in each one's history. Nothing for a game that does not count
/// ([`GameState::counts_for_rating`]: not rated, aborted, or too short) or has no clock.
pub(super) fn apply(
    tx: &rusqlite::Transaction<'_>,
    g: &GameState,
) -> Result<Option<ByColor<RatingChange>>, StoreError> {
    let (Some(outcome), Some(clock)) = (g.game.outcome(), g.clock) else {
        return Ok(None);
    };
    let (Some(white), Some(black)) = (g.accounts.white, g.accounts.black) else {
        return Ok(None);
    };
    if !g.counts_for_rating() {
        return Ok(None);
    }
    let variant = g.game.start().rules().variant.name();
    let class = clock.control.class();
    let score = match outcome.winner {
        Some(Color::White) => 1.0,
        Some(Color::Black) => 0.0,
        None => 0.5,
    };
    let (w, b) = rating::after_game(
        rating_of(tx, white, variant, class)?,
        rating_of(tx, black, variant, class)?,
        score,
    );
    let at = g.ended_at.unwrap_or_default();
    for (player, change) in [(white, w), (black, b)] {
        let r = change.after;
        tx.prepare_cached(
            "INSERT INTO ratings (player, variant, class, rating, deviation, volatility, games)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, 1)
             ON CONFLICT (player, variant, class) DO UPDATE SET rating = ?4, deviation = ?5,
                 volatility = ?6, games = games + 1",
        )?
        .execute(params![
            player.0,
            variant,
            class.name(),
            r.rating,
            r.deviation,
            r.volatility
        ])?;
        tx.prepare_cached(
            "INSERT INTO rating_history (player, game, variant, class, at, rating, deviation)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?
        .execute(params![
            player.0,
            g.id.as_str(),
            variant,
            class.name(),
            at,
            r.rating,
            r.deviation
        ])?;
    }
    Ok(Some(ByColor::new(w, b)))
}

/// The rating changes a game made, read back from both players' histories.
pub(super) fn changes_of(
    tx: &rusqlite::Transaction<'_>,
    g: &GameState,
) -> Result<Option<ByColor<RatingChange>>, StoreError> {
    let (Some(white), Some(black)) = (g.accounts.white, g.accounts.black) else {
        return Ok(None);
    };
    if !g.rated || !g.is_over() {
        return Ok(None);
    }
    let mut stmt = tx.prepare_cached(
        "SELECT h.rating, h.deviation,
                (SELECT p.rating FROM rating_history p
                 WHERE p.player = h.player AND p.variant = h.variant AND p.class = h.class
                   AND (p.at, p.game) < (h.at, h.game)
                 ORDER BY p.at DESC, p.game DESC LIMIT 1),
                (SELECT p.deviation FROM rating_history p
                 WHERE p.player = h.player AND p.variant = h.variant AND p.class = h.class
                   AND (p.at, p.game) < (h.at, h.game)
                 ORDER BY p.at DESC, p.game DESC LIMIT 1)
         FROM rating_history h WHERE h.player = ?1 AND h.game = ?2",
    )?;
    let mut change = |p: PlayerId| -> Result<Option<RatingChange>, StoreError> {
        let row = stmt
            .query_row(params![p.0, g.id.as_str()], |r| {
                Ok((
                    r.get::<_, f64>(0)?,
                    r.get::<_, f64>(1)?,
                    r.get::<_, Option<f64>>(2)?,
                    r.get::<_, Option<f64>>(3)?,
                ))
            })
            .optional()?;
        Ok(
            row.map(|(rating, deviation, before, before_dev)| RatingChange {
                before: Rating {
                    rating: before.unwrap_or(rating::START.rating),
                    deviation: before_dev.unwrap_or(rating::START.deviation),
                    volatility: rating::START.volatility,
                },
                after: Rating {
                    rating,
                    deviation,
                    volatility: rating::START.volatility,
                },
            }),
        )
    };
    match (change(white)?, change(black)?) {
        (Some(w), Some(b)) => Ok(Some(ByColor::new(w, b))),
        _ => Ok(None),
    }
}

/// Every rating of a player.
pub(super) fn ratings(
    tx: &rusqlite::Transaction<'_>,
    player: PlayerId,
) -> Result<Vec<RatingRow>, StoreError> {
    let mut stmt = tx.prepare_cached(
        "SELECT variant, class, rating, deviation, volatility, games FROM ratings
         WHERE player = ?1 ORDER BY variant, class",
    )?;
    let rows = stmt.query_map([player.0], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, String>(1)?,
            Rating {
                rating: r.get(2)?,
                deviation: r.get(3)?,
                volatility: r.get(4)?,
            },
            r.get::<_, u32>(5)?,
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (variant, class, rating, games) = row?;
        let Some(class) = TimeClass::from_name(&class) else {
            continue;
        };
        out.push(RatingRow {
            variant,
            class,
            provisional: rating.provisional(),
            rating,
            games,
        });
    }
    Ok(out)
}

/// The most points of history returned.
pub const MAX_HISTORY: usize = 500;

/// A player's rating history, oldest first (the newest [`MAX_HISTORY`] points).
pub(super) fn history(
    tx: &rusqlite::Transaction<'_>,
    player: PlayerId,
) -> Result<Vec<HistoryPoint>, StoreError> {
    let mut stmt = tx.prepare_cached(
        "SELECT game, variant, class, at, rating, deviation FROM rating_history
         WHERE player = ?1 ORDER BY at DESC, game DESC LIMIT ?2",
    )?;
    let rows = stmt.query_map(params![player.0, MAX_HISTORY as i64], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, i64>(3)?,
            r.get::<_, f64>(4)?,
            r.get::<_, f64>(5)?,
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (game, variant, class, at, rating, deviation) = row?;
        let Some(class) = TimeClass::from_name(&class) else {
            continue;
        };
        out.push(HistoryPoint {
            game,
            variant,
            class,
            at,
            rating,
            deviation,
        });
    }
    out.reverse();
    Ok(out)
}

impl super::Store {
    /// Every rating of a player, by variant and time class.
    ///
    /// # Errors
    ///
    /// SQLite's failures.
    pub async fn ratings(&self, player: PlayerId) -> Result<Vec<RatingRow>, StoreError> {
        self.call(move |tx| ratings(tx, player)).await
    }

    /// A player's rating in a variant and class (the start for one not yet rated).
    ///
    /// # Errors
    ///
    /// SQLite's failures.
    pub async fn rating(
        &self,
        player: PlayerId,
        variant: &'static str,
        class: TimeClass,
    ) -> Result<Rating, StoreError> {
        self.call(move |tx| rating_of(tx, player, variant, class))
            .await
    }

    /// A player's rating history, oldest first.
    ///
    /// # Errors
    ///
    /// SQLite's failures.
    pub async fn history(&self, player: PlayerId) -> Result<Vec<HistoryPoint>, StoreError> {
        self.call(move |tx| history(tx, player)).await
    }
}
