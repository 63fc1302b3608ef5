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

/// What a player may do on the site, as the moderators left it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Standing {
    /// Whether they moderate the site.
    pub moderator: bool,
    /// Until when their chat is muted, in seconds since 1970.
    pub muted_until: Option<i64>,
    /// Whether their account is closed.
    pub closed: bool,
}

impl Standing {
    /// Whether they may not chat at `now` (seconds since 1970).
    pub fn muted(&self, now: i64) -> bool {
        self.closed || self.muted_until.is_some_and(|t| t > now)
    }
}

/// A report as a moderator reads it.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ReportRow {
    /// Its number.
    pub id: i64,
    /// When it was made, in seconds since 1970.
    pub created: i64,
    /// Who made it.
    pub reporter: String,
    /// Whom it is about.
    pub reported: String,
    /// The reporter's words.
    pub reason: String,
    /// The game it is about, if one.
    pub game: Option<String>,
    /// When it was dealt with, if it was.
    pub resolved: Option<i64>,
}

/// One action of a moderator, as the log keeps it.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct LogRow {
    /// When, in seconds since 1970.
    pub at: i64,
    /// The moderator's name, or `command line`.
    pub moderator: String,
    /// `moderator`, `unmoderator`, `mute`, `unmute`, `close` or `resolve`.
    pub action: String,
    /// The account (or the report's number) it was done to.
    pub target: String,
    /// Its detail: how long a mute, why a closing.
    pub detail: String,
}

/// A moderator's action on an account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModAction {
    /// Makes the account a moderator, or no longer one.
    Moderator(bool),
    /// Mutes the account's chat until a time (seconds since 1970), or unmutes it (`None`).
    Mute(Option<i64>),
    /// Closes the account: its sessions end, it cannot sign in, its name stays taken.
    Close(String),
}

fn log(
    tx: &rusqlite::Transaction<'_>,
    at: i64,
    moderator: &str,
    action: &str,
    target: &str,
    detail: &str,
) -> rusqlite::Result<()> {
    tx.execute(
        "INSERT INTO mod_log (at, moderator, action, target, detail) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![at, moderator, action, target, detail],
    )
    .map(drop)
}

impl Store {
    /// A player's standing.
    ///
    /// # Errors
    ///
    /// When SQLite fails.
    pub async fn standing(&self, player: PlayerId) -> Result<Standing, StoreError> {
        use rusqlite::OptionalExtension;
        self.call(move |tx| {
            Ok(tx
                .query_row(
                    "SELECT moderator, muted_until, closed FROM players WHERE id = ?1",
                    [player.0],
                    |r| {
                        Ok(Standing {
                            moderator: r.get::<_, i64>(0)? != 0,
                            muted_until: r.get(1)?,
                            closed: r.get::<_, Option<i64>>(2)?.is_some(),
                        })
                    },
                )
                .optional()?
                .unwrap_or_default())
        })
        .await
    }

    /// Does a moderator's action to the account named `target`, logged in the same
    /// transaction with `by` (a moderator's name, or `command line`). Returns the account,
    /// or `None` when there is no such account.
    ///
    /// # Errors
    ///
    /// When SQLite fails.
    pub async fn moderate(
        &self,
        target: crate::accounts::UserName,
        action: ModAction,
        by: String,
        now: i64,
    ) -> Result<Option<PlayerId>, StoreError> {
        use rusqlite::OptionalExtension;
        self.call(move |tx| {
            let Some((id, name)) = tx
                .query_row(
                    "SELECT id, name FROM players WHERE name = ?1 AND password IS NOT NULL",
                    [target.as_str()],
                    |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)),
                )
                .optional()?
            else {
                return Ok(None);
            };
            let (verb, detail) = match &action {
                ModAction::Moderator(on) => {
                    tx.execute(
                        "UPDATE players SET moderator = ?2 WHERE id = ?1",
                        params![id, i64::from(*on)],
                    )?;
                    (if *on { "moderator" } else { "unmoderator" }, String::new())
                }
                ModAction::Mute(until) => {
                    tx.execute(
                        "UPDATE players SET muted_until = ?2 WHERE id = ?1",
                        params![id, until],
                    )?;
                    match until {
                        Some(t) => ("mute", format!("{} hours", (t - now + 1799) / 3600)),
                        None => ("unmute", String::new()),
                    }
                }
                ModAction::Close(why) => {
                    tx.execute(
                        "UPDATE players SET closed = ?2, moderator = 0 WHERE id = ?1",
                        params![id, now],
                    )?;
                    tx.execute("DELETE FROM sessions WHERE player = ?1", [id])?;
                    ("close", why.clone())
                }
            };
            log(tx, now, &by, verb, &name, &detail)?;
            Ok(Some(PlayerId(id)))
        })
        .await
    }

    /// The reports, newest first: the open ones only, or all.
    ///
    /// # Errors
    ///
    /// When SQLite fails.
    pub async fn reports(&self, all: bool, limit: usize) -> Result<Vec<ReportRow>, StoreError> {
        let limit = limit.clamp(1, super::MAX_LIST) as i64;
        self.call(move |tx| {
            let mut stmt = tx.prepare_cached(
                "SELECT r.id, r.created, a.name, b.name, r.reason, r.game, r.resolved
                 FROM reports r JOIN players a ON a.id = r.reporter JOIN players b ON b.id = r.reported
                 WHERE ?1 OR r.resolved IS NULL ORDER BY r.id DESC LIMIT ?2",
            )?;
            let rows = stmt.query_map(params![all, limit], |r| {
                Ok(ReportRow {
                    id: r.get(0)?,
                    created: r.get(1)?,
                    reporter: r.get::<_, Option<String>>(2)?.unwrap_or_default(),
                    reported: r.get::<_, Option<String>>(3)?.unwrap_or_default(),
                    reason: r.get(4)?,
                    game: r.get(5)?,
                    resolved: r.get(6)?,
                })
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    /// Marks a report dealt with, logged. Returns false when there is no open report `id`.
    ///
    /// # Errors
    ///
    /// When SQLite fails.
    pub async fn resolve(&self, id: i64, by: String, now: i64) -> Result<bool, StoreError> {
        self.call(move |tx| {
            let changed = tx.execute(
                "UPDATE reports SET resolved = ?2 WHERE id = ?1 AND resolved IS NULL",
                params![id, now],
            )?;
            if changed == 1 {
                log(tx, now, &by, "resolve", &id.to_string(), "")?;
            }
            Ok(changed == 1)
        })
        .await
    }

    /// The moderators' actions, newest first.
    ///
    /// # Errors
    ///
    /// When SQLite fails.
    pub async fn mod_log(&self, limit: usize) -> Result<Vec<LogRow>, StoreError> {
        let limit = limit.clamp(1, 1000) as i64;
        self.call(move |tx| {
            let mut stmt = tx.prepare_cached(
                "SELECT at, moderator, action, target, detail FROM mod_log
                 ORDER BY id DESC LIMIT ?1",
            )?;
            let rows = stmt.query_map([limit], |r| {
                Ok(LogRow {
                    at: r.get(0)?,
                    moderator: r.get(1)?,
                    action: r.get(2)?,
                    target: r.get(3)?,
                    detail: r.get(4)?,
                })
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }
}

/// The most players one player may follow.
pub const MAX_FOLLOWS: usize = 500;

impl Store {
    /// `follower` follows `followed`. Returns false when they follow as many as they may.
    ///
    /// # Errors
    ///
    /// When SQLite fails.
    pub async fn follow(
        &self,
        follower: PlayerId,
        followed: PlayerId,
        now: i64,
    ) -> Result<bool, StoreError> {
        self.call(move |tx| {
            let count: i64 = tx.query_row(
                "SELECT count(*) FROM follows WHERE follower = ?1",
                [follower.0],
                |r| r.get(0),
            )?;
            if count >= MAX_FOLLOWS as i64 {
                return Ok(false);
            }
            tx.execute(
                "INSERT OR IGNORE INTO follows (follower, followed, created) VALUES (?1, ?2, ?3)",
                params![follower.0, followed.0, now],
            )?;
            Ok(true)
        })
        .await
    }

    /// `follower` no longer follows `followed`.
    ///
    /// # Errors
    ///
    /// When SQLite fails.
    pub async fn unfollow(&self, follower: PlayerId, followed: PlayerId) -> Result<(), StoreError> {
        self.call(move |tx| {
            tx.execute(
                "DELETE FROM follows WHERE follower = ?1 AND followed = ?2",
                params![follower.0, followed.0],
            )?;
            Ok(())
        })
        .await
    }

    /// The accounts a player follows, by name.
    ///
    /// # Errors
    ///
    /// When SQLite fails.
    pub async fn followed_by(
        &self,
        follower: PlayerId,
    ) -> Result<Vec<(PlayerId, String)>, StoreError> {
        self.call(move |tx| {
            let mut stmt = tx.prepare_cached(
                "SELECT p.id, p.name FROM follows f JOIN players p ON p.id = f.followed
                 WHERE f.follower = ?1 AND p.name IS NOT NULL AND p.closed IS NULL
                 ORDER BY p.name COLLATE NOCASE",
            )?;
            let rows = stmt.query_map([follower.0], |r| Ok((PlayerId(r.get(0)?), r.get(1)?)))?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    /// The user names of some players (guests left out), in the order of their names.
    ///
    /// # Errors
    ///
    /// When SQLite fails.
    pub async fn names_of(&self, players: Vec<PlayerId>) -> Result<Vec<String>, StoreError> {
        self.call(move |tx| {
            let mut stmt = tx.prepare_cached(
                "SELECT name FROM players WHERE id = ?1 AND name IS NOT NULL AND closed IS NULL",
            )?;
            let mut names = Vec::new();
            for p in players {
                if let Some(n) = rusqlite::OptionalExtension::optional(
                    stmt.query_row([p.0], |r| r.get::<_, String>(0)),
                )? {
                    names.push(n);
                }
            }
            names.sort_by_key(|n| n.to_lowercase());
            Ok(names)
        })
        .await
    }

    /// The accounts whose names begin with `prefix` (any case), at most `limit`.
    ///
    /// # Errors
    ///
    /// When SQLite fails.
    pub async fn search_names(
        &self,
        prefix: String,
        limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        let limit = limit.clamp(1, super::MAX_LIST) as i64;
        self.call(move |tx| {
            // The prefix is bounded by the caller and its LIKE characters escaped.
            let pattern = format!(
                "{}%",
                prefix
                    .replace('\\', "\\\\")
                    .replace('%', "\\%")
                    .replace('_', "\\_")
            );
            let mut stmt = tx.prepare_cached(
                "SELECT name FROM players WHERE name LIKE ?1 ESCAPE '\\' AND closed IS NULL
                 ORDER BY name COLLATE NOCASE LIMIT ?2",
            )?;
            let rows = stmt.query_map(params![pattern, limit], |r| r.get(0))?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }
}
