//! Players, accounts and sessions.
//!
//! Every visitor is a player (a row of `players` without a name until they sign up); a
//! session, kept by a cookie, names its player. Signing up gives the session's player a name
//! and a password hash, so the games they played stay theirs; signing in moves the games of
//! the anonymous player the session had to the account.

use rusqlite::{ErrorCode, OptionalExtension, params};

use super::{Store, StoreError};
use crate::accounts::{AccountError, PlayerId, Session, UserName};
use crate::seat::TokenHash;

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
    /// A new anonymous player with a session: the cookie's secret hash and the CSRF token.
    ///
    /// # Errors
    ///
    /// SQLite's failures.
    pub async fn new_session(&self, hash: TokenHash, csrf: String) -> Result<PlayerId, StoreError> {
        self.call(move |tx| {
            let now = super::now();
            tx.prepare_cached(
                "INSERT INTO players (name, password, created) VALUES (NULL, NULL, ?1)",
            )?
            .execute([now])?;
            let player = PlayerId(tx.last_insert_rowid());
            tx.prepare_cached(
                "INSERT INTO sessions (hash, player, csrf, created) VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![hash.0.as_slice(), player.0, csrf, now])?;
            Ok(player)
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
                    "SELECT s.player, s.csrf, p.name FROM sessions s
                     JOIN players p ON p.id = s.player WHERE s.hash = ?1",
                )?
                .query_row([hash.0.as_slice()], |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, Option<String>>(2)?,
                    ))
                })
                .optional()?;
            Ok(row.map(|(player, csrf, name)| Session {
                player: PlayerId(player),
                name: name.and_then(|n| UserName::new(&n).ok()),
                csrf,
            }))
        })
        .await
    }

    /// Gives the anonymous `player` a name and a password hash.
    ///
    /// # Errors
    ///
    /// [`AccountError::NameTaken`], [`AccountError::AlreadySignedUp`]; SQLite's failures.
    pub async fn sign_up(
        &self,
        player: PlayerId,
        name: UserName,
        password_hash: String,
    ) -> AccountResult<()> {
        self.call(move |tx| {
            let result = tx
                .prepare_cached(
                    "UPDATE players SET name = ?2, password = ?3 WHERE id = ?1 AND name IS NULL",
                )?
                .execute(params![player.0, name.as_str(), password_hash]);
            match result {
                Ok(1) => Ok(Ok(())),
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

    /// Points a session at `account` with a new CSRF token. When the session's player was
    /// anonymous, their games become the account's.
    ///
    /// # Errors
    ///
    /// SQLite's failures.
    pub async fn sign_in(
        &self,
        hash: TokenHash,
        from: PlayerId,
        account: PlayerId,
        csrf: String,
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
            tx.prepare_cached("UPDATE sessions SET player = ?2, csrf = ?3 WHERE hash = ?1")?
                .execute(params![hash.0.as_slice(), account.0, csrf])?;
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
        self.call(move |tx| {
            tx.prepare_cached("DELETE FROM sessions WHERE hash = ?1")?
                .execute([hash.0.as_slice()])?;
            Ok(())
        })
        .await
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

    /// Changes a player's password and ends every session of theirs but `keep`.
    ///
    /// # Errors
    ///
    /// SQLite's failures.
    pub async fn set_password(
        &self,
        player: PlayerId,
        password_hash: String,
        keep: TokenHash,
    ) -> Result<(), StoreError> {
        self.call(move |tx| {
            tx.prepare_cached("UPDATE players SET password = ?2 WHERE id = ?1")?
                .execute(params![player.0, password_hash])?;
            tx.prepare_cached("DELETE FROM sessions WHERE player = ?1 AND hash <> ?2")?
                .execute(params![player.0, keep.0.as_slice()])?;
            Ok(())
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
