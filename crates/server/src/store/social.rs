//! What players do about each other: blocks, reports kept for a moderator, and the
//! leaderboards.

use rusqlite::params;
use serde::Serialize;

use super::{Store, StoreError};
use crate::accounts::PlayerId;
use crate::clock::TimeClass;

/// The most players one player may block.
pub const MAX_BLOCKS: usize = 500;
/// The most reports one player may make in a day.
pub const REPORTS_PER_DAY: u32 = 20;
/// The longest reason of a report, in characters.
pub const MAX_REASON: usize = 500;
/// A rating's deviation above which it is provisional, and left off the leaderboards.
const PROVISIONAL: f64 = crate::rating::PROVISIONAL_DEVIATION;

/// A player on a leaderboard.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Leader {
    /// The user name.
    pub name: String,
    /// The rating, rounded.
    pub rating: i32,
    /// Rated games played in the variant and class.
    pub games: u32,
}

impl Store {
    /// `blocker` blocks `blocked`. Returns false when they block as many as they may.
    ///
    /// # Errors
    ///
    /// When SQLite fails.
    pub async fn block(
        &self,
        blocker: PlayerId,
        blocked: PlayerId,
        now: i64,
    ) -> Result<bool, StoreError> {
        self.call(move |tx| {
            let count: i64 = tx.query_row(
                "SELECT count(*) FROM blocks WHERE blocker = ?1",
                [blocker.0],
                |r| r.get(0),
            )?;
            if count >= MAX_BLOCKS as i64 {
                return Ok(false);
            }
            tx.execute(
                "INSERT OR IGNORE INTO blocks (blocker, blocked, created) VALUES (?1, ?2, ?3)",
                params![blocker.0, blocked.0, now],
            )?;
            Ok(true)
        })
        .await
    }

    /// `blocker` no longer blocks `blocked`.
    ///
    /// # Errors
    ///
    /// When SQLite fails.
    pub async fn unblock(&self, blocker: PlayerId, blocked: PlayerId) -> Result<(), StoreError> {
        self.call(move |tx| {
            tx.execute(
                "DELETE FROM blocks WHERE blocker = ?1 AND blocked = ?2",
                params![blocker.0, blocked.0],
            )?;
            Ok(())
        })
        .await
    }

    /// The user names a player blocks, in the order blocked.
    ///
    /// # Errors
    ///
    /// When SQLite fails.
    pub async fn blocked_by(&self, blocker: PlayerId) -> Result<Vec<String>, StoreError> {
        self.call(move |tx| {
            let mut stmt = tx.prepare_cached(
                "SELECT p.name FROM blocks b JOIN players p ON p.id = b.blocked
                 WHERE b.blocker = ?1 AND p.name IS NOT NULL ORDER BY b.created, p.name",
            )?;
            let rows = stmt.query_map([blocker.0], |r| r.get(0))?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    /// The players `player` must never meet: those they block and those who block them.
    ///
    /// # Errors
    ///
    /// When SQLite fails.
    pub async fn avoided(&self, player: PlayerId) -> Result<Vec<PlayerId>, StoreError> {
        self.call(move |tx| {
            let mut stmt = tx.prepare_cached(
                "SELECT blocked FROM blocks WHERE blocker = ?1
                 UNION SELECT blocker FROM blocks WHERE blocked = ?1",
            )?;
            let rows = stmt.query_map([player.0], |r| r.get(0).map(PlayerId))?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    /// Whether either of two players blocks the other.
    ///
    /// # Errors
    ///
    /// When SQLite fails.
    pub async fn blocked_between(&self, a: PlayerId, b: PlayerId) -> Result<bool, StoreError> {
        self.call(move |tx| {
            Ok(tx.query_row(
                "SELECT EXISTS (SELECT 1 FROM blocks WHERE (blocker = ?1 AND blocked = ?2)
                                                     OR (blocker = ?2 AND blocked = ?1))",
                params![a.0, b.0],
                |r| r.get(0),
            )?)
        })
        .await
    }

    /// Keeps a report for a moderator. Returns false when the reporter has made as many
    /// reports in the last day as they may.
    ///
    /// # Errors
    ///
    /// When SQLite fails.
    pub async fn report(
        &self,
        reporter: PlayerId,
        reported: PlayerId,
        reason: String,
        game: Option<String>,
        now: i64,
    ) -> Result<bool, StoreError> {
        self.call(move |tx| {
            let recent: u32 = tx.query_row(
                "SELECT count(*) FROM reports WHERE reporter = ?1 AND created > ?2",
                params![reporter.0, now - 24 * 3600],
                |r| r.get(0),
            )?;
            if recent >= REPORTS_PER_DAY {
                return Ok(false);
            }
            tx.execute(
                "INSERT INTO reports (reporter, reported, reason, game, created)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![reporter.0, reported.0, reason, game, now],
            )?;
            Ok(true)
        })
        .await
    }

    /// The best established ratings in a variant and time class, best first.
    ///
    /// # Errors
    ///
    /// When SQLite fails.
    pub async fn leaders(
        &self,
        variant: &'static str,
        class: TimeClass,
        limit: usize,
    ) -> Result<Vec<Leader>, StoreError> {
        let limit = limit.clamp(1, super::MAX_LIST) as i64;
        self.call(move |tx| {
            let mut stmt = tx.prepare_cached(
                "SELECT p.name, r.rating, r.games FROM ratings r JOIN players p ON p.id = r.player
                 WHERE r.variant = ?1 AND r.class = ?2 AND r.deviation <= ?3
                   AND p.name IS NOT NULL
                 ORDER BY r.rating DESC, p.name LIMIT ?4",
            )?;
            let rows = stmt.query_map(params![variant, class.name(), PROVISIONAL, limit], |r| {
                Ok(Leader {
                    name: r.get(0)?,
                    rating: r.get::<_, f64>(1)?.round() as i32,
                    games: r.get(2)?,
                })
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }
}
