//! Players, accounts and sessions.
//!
//! Every visitor is a player (a row of `players` without a name until they sign up); a
//! session, kept by a cookie, names its player. Signing up gives the session's player a name
//! and a password hash, so the games they played stay theirs; signing in moves the games of
//! the anonymous player the session had to the account.

use rusqlite::{ErrorCode, OptionalExtension, params};

use super::{Store, StoreError};
use crate::accounts::{AccountError, PlayerId, Session, SessionInfo, UserName, session_id};
use crate::seat::TokenHash;

/// A session about to be written: its cookie's hash, CSRF token, browser and time.
#[derive(Debug, Clone)]
pub struct NewSession {
    /// The hash of the cookie's secret.
    pub hash: TokenHash,
    /// The CSRF token.
    pub csrf: String,
    /// The browser's `User-Agent`, as kept ([`crate::accounts::agent_text`]).
    pub agent: String,
    /// Now, in seconds since 1970.
    pub now: i64,
}

impl NewSession {
    /// The session of `player` that this row makes.
    pub fn session(&self, player: PlayerId, name: Option<UserName>) -> Session {
        Session {
            player,
            name,
            csrf: self.csrf.clone(),
            created: self.now,
            seen: self.now,
        }
    }
}

fn insert_session(
    tx: &rusqlite::Transaction<'_>,
    player: PlayerId,
    new: &NewSession,
) -> rusqlite::Result<()> {
    tx.prepare_cached(
        "INSERT INTO sessions (hash, player, csrf, created, seen, agent)
         VALUES (?1, ?2, ?3, ?4, ?4, ?5)",
    )?
    .execute(params![
        new.hash.0.as_slice(),
        player.0,
        new.csrf,
        new.now,
        new.agent
    ])?;
    Ok(())
}

fn delete_session(tx: &rusqlite::Transaction<'_>, hash: &TokenHash) -> rusqlite::Result<()> {
    tx.prepare_cached("DELETE FROM sessions WHERE hash = ?1")?
        .execute([hash.0.as_slice()])?;
    Ok(())
}

/// A player as others see them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerRow {
    /// The id.
    pub id: PlayerId,
    /// The user name, once signed up.
    pub name: Option<UserName>,
    /// When the player was first seen, in seconds since 1970.
    pub created: i64,
}

/// What a sign-up or sign-in did, or why it did not.
pub type AccountResult<T> = Result<Result<T, AccountError>, StoreError>;

impl Store {
    /// A new anonymous player with a session.
    ///
    /// # Errors
    ///
    /// SQLite's failures.
    pub async fn new_session(&self, new: NewSession) -> Result<PlayerId, StoreError> {
        self.call(move |tx| {
            tx.prepare_cached(
                "INSERT INTO players (name, password, created) VALUES (NULL, NULL, ?1)",
            )?
            .execute([new.now])?;
            let player = PlayerId(tx.last_insert_rowid());
            insert_session(tx, player, &new)?;
            Ok(player)
        })
        .await
    }

    /// Writes when a session was last used.
    ///
    /// # Errors
    ///
    /// SQLite's failures.
    pub async fn touch_session(&self, hash: TokenHash, now: i64) -> Result<(), StoreError> {
        self.call(move |tx| {
            tx.prepare_cached("UPDATE sessions SET seen = ?2 WHERE hash = ?1")?
                .execute(params![hash.0.as_slice(), now])?;
            Ok(())
        })
        .await
    }

    /// The sessions of a player, most recently used first; `current` marks the asker's.
    ///
    /// # Errors
    ///
    /// SQLite's failures.
    pub async fn sessions_of(
        &self,
        player: PlayerId,
        current: TokenHash,
    ) -> Result<Vec<SessionInfo>, StoreError> {
        self.call(move |tx| {
            let mut rows = Vec::new();
            let mut stmt = tx.prepare_cached(
                "SELECT hash, created, seen, agent FROM sessions WHERE player = ?1
                 ORDER BY seen DESC LIMIT 200",
            )?;
            let mut q = stmt.query([player.0])?;
            while let Some(r) = q.next()? {
                let hash: Vec<u8> = r.get(0)?;
                let hash = TokenHash(hash.try_into().unwrap_or([0; 32]));
                rows.push(SessionInfo {
                    id: session_id(&hash),
                    created: r.get(1)?,
                    seen: r.get(2)?,
                    agent: r.get(3)?,
                    current: hash.matches(&current),
                });
            }
            Ok(rows)
        })
        .await
    }

    /// Ends the session of `player` with the id `id` in their list; the hash of the cookie
    /// of the session ended, if one was.
    ///
    /// # Errors
    ///
    /// SQLite's failures.
    pub async fn end_session_by_id(
        &self,
        player: PlayerId,
        id: String,
    ) -> Result<Option<TokenHash>, StoreError> {
        self.call(move |tx| {
            let hashes: Vec<Vec<u8>> = tx
                .prepare_cached("SELECT hash FROM sessions WHERE player = ?1")?
                .query_map([player.0], |r| r.get(0))?
                .collect::<rusqlite::Result<_>>()?;
            let Some(hash) = hashes
                .into_iter()
                .filter_map(|h| h.try_into().ok().map(TokenHash))
                .find(|h| session_id(h) == id)
            else {
                return Ok(None);
            };
            delete_session(tx, &hash)?;
            Ok(Some(hash))
        })
        .await
    }

    /// Ends the sessions unused since `idle_since` or begun before `born_since` (seconds
    /// since 1970), and the anonymous players left with neither a session nor a game.
    /// Returns how many sessions ended.
    ///
    /// # Errors
    ///
    /// SQLite's failures.
    pub async fn end_expired_sessions(
        &self,
        idle_since: i64,
        born_since: i64,
    ) -> Result<usize, StoreError> {
        self.call(move |tx| {
            let ended = tx
                .prepare_cached("DELETE FROM sessions WHERE seen < ?1 OR created < ?2")?
                .execute(params![idle_since, born_since])?;
            if ended > 0 {
                tx.prepare_cached(
                    "DELETE FROM players WHERE name IS NULL
                     AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.player = players.id)
                     AND NOT EXISTS (SELECT 1 FROM games g WHERE g.white_player = players.id)
                     AND NOT EXISTS (SELECT 1 FROM games g WHERE g.black_player = players.id)
                     AND NOT EXISTS (SELECT 1 FROM ratings r WHERE r.player = players.id)",
                )?
                .execute([])?;
            }
            Ok(ended)
        })
        .await
    }

    /// The session of a cookie's secret hash.
    ///
    /// # Errors
    ///
    /// SQLite's failures.
    pub async fn session(&self, hash: TokenHash) -> Result<Option<Session>, StoreError> {
        self.call(move |tx| {
            let row = tx
                .prepare_cached(
                    "SELECT s.player, s.csrf, p.name, s.created, s.seen FROM sessions s
                     JOIN players p ON p.id = s.player WHERE s.hash = ?1",
                )?
                .query_row([hash.0.as_slice()], |r| {
                    Ok(Session {
                        player: PlayerId(r.get(0)?),
                        csrf: r.get(1)?,
                        name: r
                            .get::<_, Option<String>>(2)?
                            .and_then(|n| UserName::new(&n).ok()),
                        created: r.get(3)?,
                        seen: r.get(4)?,
                    })
                })
                .optional()?;
            Ok(row)
        })
        .await
    }

    /// Gives the anonymous `player` a name and a password hash, and renews their session:
    /// `old` ends and `new` begins.
    ///
    /// # Errors
    ///
    /// [`AccountError::NameTaken`] (also for a name that looks like one taken),
    /// [`AccountError::AlreadySignedUp`]; SQLite's failures.
    pub async fn sign_up(
        &self,
        player: PlayerId,
        name: UserName,
        password_hash: String,
        old: TokenHash,
        new: NewSession,
    ) -> AccountResult<()> {
        self.call(move |tx| {
            let look = crate::text::skeleton(name.as_str());
            let taken = tx
                .prepare_cached("SELECT 1 FROM players WHERE look = ?1 AND id <> ?2")?
                .query_row(params![look, player.0], |_| Ok(()))
                .optional()?
                .is_some();
            if taken {
                return Ok(Err(AccountError::NameTaken));
            }
            let result = tx
                .prepare_cached(
                    "UPDATE players SET name = ?2, password = ?3, look = ?4
                     WHERE id = ?1 AND name IS NULL",
                )?
                .execute(params![player.0, name.as_str(), password_hash, look]);
            match result {
                Ok(1) => {
                    delete_session(tx, &old)?;
                    insert_session(tx, player, &new)?;
                    Ok(Ok(()))
                }
                Ok(_) => Ok(Err(AccountError::AlreadySignedUp)),
                Err(rusqlite::Error::SqliteFailure(e, _))
                    if e.code == ErrorCode::ConstraintViolation =>
                {
                    Ok(Err(AccountError::NameTaken))
                }
                Err(e) => Err(e.into()),
            }
        })
        .await
    }

    /// The id, name as signed up and password hash of the account of a name (in any case).
    ///
    /// # Errors
    ///
    /// SQLite's failures.
    pub async fn account(
        &self,
        name: UserName,
    ) -> Result<Option<(PlayerId, UserName, String)>, StoreError> {
        self.call(move |tx| {
            let row = tx
                .prepare_cached(
                    "SELECT id, name, password FROM players
                     WHERE name = ?1 AND password IS NOT NULL",
                )?
                .query_row([name.as_str()], |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, String>(2)?,
                    ))
                })
                .optional()?;
            Ok(row.and_then(|(id, name, hash)| {
                Some((PlayerId(id), UserName::new(&name).ok()?, hash))
            }))
        })
        .await
    }

    /// Ends the session `old` and begins `new`, of `account`. When the old session's player
    /// was anonymous, their games become the account's.
    ///
    /// # Errors
    ///
    /// SQLite's failures.
    pub async fn sign_in(
        &self,
        old: TokenHash,
        from: PlayerId,
        account: PlayerId,
        new: NewSession,
    ) -> Result<(), StoreError> {
        self.call(move |tx| {
            let anonymous: bool = tx
                .prepare_cached("SELECT name IS NULL FROM players WHERE id = ?1")?
                .query_row([from.0], |r| r.get(0))
                .optional()?
                .unwrap_or(false);
            if anonymous && from != account {
                for side in ["white", "black"] {
                    tx.execute(
                        &format!("UPDATE games SET {side}_player = ?2 WHERE {side}_player = ?1"),
                        params![from.0, account.0],
                    )?;
                }
            }
            delete_session(tx, &old)?;
            insert_session(tx, account, &new)?;
            Ok(())
        })
        .await
    }

    /// Ends a session.
    ///
    /// # Errors
    ///
    /// SQLite's failures.
    pub async fn end_session(&self, hash: TokenHash) -> Result<(), StoreError> {
        self.call(move |tx| Ok(delete_session(tx, &hash)?)).await
    }

    /// The password hash of a signed-up player.
    ///
    /// # Errors
    ///
    /// SQLite's failures.
    pub async fn password_hash(&self, player: PlayerId) -> Result<Option<String>, StoreError> {
        self.call(move |tx| {
            Ok(tx
                .prepare_cached("SELECT password FROM players WHERE id = ?1")?
                .query_row([player.0], |r| r.get::<_, Option<String>>(0))
                .optional()?
                .flatten())
        })
        .await
    }

    /// Changes a player's password, ends every session of theirs and begins `new`.
    ///
    /// # Errors
    ///
    /// SQLite's failures.
    pub async fn set_password(
        &self,
        player: PlayerId,
        password_hash: String,
        new: NewSession,
    ) -> Result<(), StoreError> {
        self.call(move |tx| {
            tx.prepare_cached("UPDATE players SET password = ?2 WHERE id = ?1")?
                .execute(params![player.0, password_hash])?;
            tx.prepare_cached("DELETE FROM sessions WHERE player = ?1")?
                .execute([player.0])?;
            insert_session(tx, player, &new)?;
            Ok(())
        })
        .await
    }

    /// The account whose name looks like `name` ([`crate::text::skeleton`]), if one does.
    ///
    /// # Errors
    ///
    /// SQLite's failures.
    pub async fn account_like(&self, name: String) -> Result<Option<PlayerId>, StoreError> {
        self.call(move |tx| {
            Ok(tx
                .prepare_cached("SELECT id FROM players WHERE look = ?1")?
                .query_row([crate::text::skeleton(&name)], |r| r.get(0))
                .optional()?
                .map(PlayerId))
        })
        .await
    }

    /// A player by id.
    ///
    /// # Errors
    ///
    /// SQLite's failures.
    pub async fn player(&self, id: PlayerId) -> Result<Option<PlayerRow>, StoreError> {
        self.call(move |tx| player_row(tx, "id = ?1", id.0)).await
    }

    /// A signed-up player by name (in any case).
    ///
    /// # Errors
    ///
    /// SQLite's failures.
    pub async fn player_named(&self, name: UserName) -> Result<Option<PlayerRow>, StoreError> {
        self.call(move |tx| {
            let row = tx
                .prepare_cached("SELECT id, name, created FROM players WHERE name = ?1")?
                .query_row([name.as_str()], read_player)
                .optional()?;
            Ok(row)
        })
        .await
    }
}

fn read_player(r: &rusqlite::Row<'_>) -> rusqlite::Result<PlayerRow> {
    Ok(PlayerRow {
        id: PlayerId(r.get(0)?),
        name: r
            .get::<_, Option<String>>(1)?
            .and_then(|n| UserName::new(&n).ok()),
        created: r.get(2)?,
    })
}

fn player_row(
    tx: &rusqlite::Transaction<'_>,
    filter: &str,
    value: i64,
) -> Result<Option<PlayerRow>, StoreError> {
    Ok(tx
        .prepare_cached(&format!(
            "SELECT id, name, created FROM players WHERE {filter}"
        ))?
        .query_row([value], read_player)
        .optional()?)
}
