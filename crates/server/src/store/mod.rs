//! The game store: SQLite, written by one thread that commits in groups.
//!
//! The journal is a rollback journal, not a write-ahead log, and nothing of the file is
//! memory-mapped (`mmap_size` 0): a WAL's index is a memory-mapped file, and a database file
//! truncated or made unwritable under the running server then killed it with SIGBUS. With
//! plain reads and writes such damage is an error that the server reports. (SQLite keeps a
//! WAL index in heap memory only in exclusive locking mode, which would also lock every other
//! program out of the file for as long as the server runs.)
//!
//! Every change of a game is checked against the version before it (its new plies appended,
//! those taken back deleted, its row updated), so a game in the database is always one the
//! server has shown. Requests queue on a bounded channel (a full one is refused with
//! [`StoreError::Busy`]); the writer thread takes all that are waiting, runs them in one
//! transaction and answers each only after the commit, so an acknowledged ply survives a
//! crash of the process.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::Connection;
use tokio::sync::oneshot;

mod accounts;
mod games;
mod lock;
mod ratings;
mod schema;
mod social;

pub use accounts::{AccountResult, NewSession, PlayerRow};
pub use games::{Counts, GameSummary, HistoryFilter, MAX_LIST, PlayerResult};
pub use lock::{DatabaseLock, lock_path};
pub use ratings::{HistoryPoint, MAX_HISTORY, RatingRow};
use schema::{
    MIGRATE_FROM_1, MIGRATE_FROM_2, MIGRATE_FROM_3, MIGRATE_FROM_4, MIGRATE_PLAYERS_TO_7,
    MIGRATE_REPORTS_FROM_6, SCHEMA, SCHEMA_VERSION, TABLES,
};
pub use social::{
    Leader, LogRow, MAX_BLOCKS, MAX_FOLLOWS, MAX_REASON, ModAction, REPORTS_PER_DAY, ReportRow,
    Standing,
};

/// The most requests committed in one transaction.
const MAX_BATCH: usize = 512;

/// The most requests waiting for the writer.
const MAX_QUEUED: usize = 8 * MAX_BATCH;

/// A failure of the store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreError {
    /// SQLite failed.
    Sqlite(String),
    /// A row cannot be read back into a game.
    Corrupt {
        /// The game.
        id: String,
        /// What is wrong.
        reason: String,
    },
    /// The row changed under the write: its version is not the one expected.
    Stale(String),
    /// The writer thread is gone (the server is shutting down).
    Closed,
    /// As many requests wait for the writer as the queue holds.
    Busy,
    /// The database file was changed under the server: truncated, replaced, removed or made
    /// read-only.
    Damaged(String),
    /// The database file cannot be opened.
    Open {
        /// The path.
        path: PathBuf,
        /// Why.
        reason: String,
    },
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Sqlite(e) => write!(f, "database: {e}"),
            StoreError::Corrupt { id, reason } => write!(f, "game {id} in the database: {reason}"),
            StoreError::Stale(id) => write!(f, "game {id} changed in the database meanwhile"),
            StoreError::Closed => f.write_str("the database is closed"),
            StoreError::Busy => f.write_str("the database has too many writes waiting"),
            StoreError::Damaged(what) => write!(f, "the database cannot be used: {what}"),
            StoreError::Open { path, reason } => {
                write!(f, "cannot open the database {}: {reason}", path.display())
            }
        }
    }
}

impl std::error::Error for StoreError {}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        StoreError::Sqlite(e.to_string())
    }
}

/// The outcome of a job, sent once the transaction that ran it has committed (with the damage
/// to the file found, if a job's failure made the writer look), or failed.
type Finish = Box<dyn FnOnce(Result<Option<&str>, &StoreError>) + Send>;

/// A job for the writer: given the open transaction (or the error that kept it from
/// opening), it does its work and returns what to send after the commit, and whether SQLite
/// failed in it.
struct Job(Box<Work>);

/// The work of a job: see [`Job`].
type Work = dyn FnOnce(Result<&rusqlite::Transaction<'_>, &StoreError>) -> (Finish, bool) + Send;

/// The handle of the store; cheap to share (`Arc` it).
#[derive(Debug)]
pub struct Store {
    jobs: mpsc::SyncSender<Job>,
}

impl fmt::Debug for Job {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Job")
    }
}

impl Store {
    /// Opens (creating if needed) the database at `path` and starts its writer thread.
    /// `":memory:"` gives a database that lives as long as the store.
    ///
    /// # Errors
    ///
    /// [`StoreError::Open`] when the file or its folder cannot be created or opened, or the
    /// file is not a database of this program.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let open_error = |reason: String| StoreError::Open {
            path: path.to_owned(),
            reason,
        };
        if path != Path::new(":memory:")
            && let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        {
            std::fs::create_dir_all(dir).map_err(|e| open_error(e.to_string()))?;
        }
        let conn = Connection::open(path).map_err(|e| open_error(e.to_string()))?;
        prepare(&conn).map_err(open_error)?;
        let watch = FileWatch::new(path);
        let (jobs, queue) = mpsc::sync_channel(MAX_QUEUED);
        std::thread::Builder::new()
            .name("morris-store".into())
            .spawn(move || writer(conn, queue, watch))
            .map_err(|e| open_error(e.to_string()))?;
        Ok(Store { jobs })
    }

    /// Runs `work` in the writer's next transaction, inside a savepoint of its own (so that a
    /// job that fails half-way leaves nothing behind), and returns its result after the
    /// commit.
    ///
    /// # Errors
    ///
    /// [`StoreError::Busy`] when the queue is full, the error of `work`, or the commit's.
    pub(crate) async fn call<T: Send + 'static>(
        &self,
        work: impl FnOnce(&rusqlite::Transaction<'_>) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let (reply, answer) = oneshot::channel::<Result<T, StoreError>>();
        let job = Job(Box::new(move |tx| {
            let result = match tx {
                Err(e) => Err(e.clone()),
                Ok(tx) => in_savepoint(tx, work),
            };
            let failed = matches!(result, Err(StoreError::Sqlite(_)));
            let finish: Finish = Box::new(move |commit| {
                let _ = reply.send(match (commit, result) {
                    (Err(e), _) => Err(e.clone()),
                    (Ok(Some(what)), Err(StoreError::Sqlite(_))) => {
                        Err(StoreError::Damaged(what.to_owned()))
                    }
                    (Ok(_), result) => result,
                });
            });
            (finish, failed)
        }));
        self.jobs.try_send(job).map_err(|e| match e {
            mpsc::TrySendError::Full(_) => StoreError::Busy,
            mpsc::TrySendError::Disconnected(_) => StoreError::Closed,
        })?;
        answer.await.map_err(|_| StoreError::Closed)?
    }

    /// The size of the database's contents, in bytes (its pages in use).
    ///
    /// # Errors
    ///
    /// SQLite's failures.
    pub async fn size(&self) -> Result<u64, StoreError> {
        self.call(|tx| {
            let pages: i64 = tx.query_row("PRAGMA page_count", [], |r| r.get(0))?;
            let free: i64 = tx.query_row("PRAGMA freelist_count", [], |r| r.get(0))?;
            let size: i64 = tx.query_row("PRAGMA page_size", [], |r| r.get(0))?;
            Ok(u64::try_from((pages - free).max(0) * size).unwrap_or(0))
        })
        .await
    }

    /// The number of games stored.
    ///
    /// # Errors
    ///
    /// SQLite's failures.
    pub async fn count(&self) -> Result<u64, StoreError> {
        self.call(|tx| Ok(tx.query_row("SELECT count(*) FROM games", [], |r| r.get(0))?))
            .await
    }
}

fn in_savepoint<T>(
    tx: &rusqlite::Transaction<'_>,
    work: impl FnOnce(&rusqlite::Transaction<'_>) -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    tx.execute_batch("SAVEPOINT job")?;
    let result = work(tx);
    let end = if result.is_ok() {
        "RELEASE job"
    } else {
        "ROLLBACK TO job; RELEASE job"
    };
    tx.execute_batch(end)?;
    result
}

/// The `application_id` in the header of a database of morris ("MORR").
const APPLICATION_ID: i64 = 0x4d4f_5252;

/// Checks the file and makes it ready. Everything that reads comes first: a file that is
/// damaged or another program's database is refused untouched.
fn prepare(conn: &Connection) -> Result<(), String> {
    let sqlite = |e: rusqlite::Error| e.to_string();
    conn.busy_timeout(std::time::Duration::from_secs(5))
        .map_err(sqlite)?;
    // No part of the file mapped into memory: see the module's documentation.
    conn.execute_batch("PRAGMA mmap_size = 0").map_err(sqlite)?;
    check_integrity(conn)?;
    check_ours(conn)?;
    // A rollback journal kept between transactions at length zero (a database of an earlier
    // version in WAL mode is switched back); NORMAL: a commit is in the file when it returns,
    // so it survives the death of the process.
    let mode: String = conn
        .query_row("PRAGMA journal_mode = TRUNCATE", [], |r| r.get(0))
        .map_err(sqlite)?;
    if mode != "truncate" && mode != "memory" {
        return Err(format!(
            "the database stays in journal mode {mode} (another program has it open?)"
        ));
    }
    conn.execute_batch("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;")
        .map_err(sqlite)?;
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(sqlite)?;
    if version == 1 {
        conn.execute_batch(&format!(
            "BEGIN; {MIGRATE_FROM_1} PRAGMA user_version = 2; COMMIT;"
        ))
        .map_err(|e| format!("the database cannot be brought to schema 2: {e}"))?;
    }
    if version == 1 || version == 2 {
        conn.execute_batch(&format!(
            "BEGIN; {MIGRATE_FROM_2} PRAGMA user_version = 3; COMMIT;"
        ))
        .map_err(|e| format!("the database cannot be brought to schema 3: {e}"))?;
    }
    if (1..=3).contains(&version) {
        conn.execute_batch(&format!(
            "BEGIN; {MIGRATE_FROM_3} PRAGMA user_version = 4; COMMIT;"
        ))
        .map_err(|e| format!("the database cannot be brought to schema 4: {e}"))?;
    }
    if (1..=4).contains(&version) {
        migrate_from_4(conn)
            .map_err(|e| format!("the database cannot be brought to schema 5: {e}"))?;
    }
    if (1..=6).contains(&version) {
        migrate_to_7(conn, version)
            .map_err(|e| format!("the database cannot be brought to schema 7: {e}"))?;
    }
    conn.execute_batch(SCHEMA).map_err(sqlite)?;
    conn.execute_batch(&format!(
        "PRAGMA user_version = {SCHEMA_VERSION}; PRAGMA application_id = {APPLICATION_ID};"
    ))
    .map_err(sqlite)?;
    Ok(())
}

/// Refuses a file whose pages do not hold together (SQLite's `quick_check`).
fn check_integrity(conn: &Connection) -> Result<(), String> {
    let mut stmt = conn
        .prepare("PRAGMA quick_check(5)")
        .map_err(|e| format!("it cannot be read as a database: {e}"))?;
    let problems: Vec<String> = stmt
        .query_map([], |r| r.get::<_, String>(0))
        .and_then(|rows| rows.collect())
        .map_err(|e| format!("it cannot be read as a database: {e}"))?;
    if problems.len() == 1 && problems[0] == "ok" {
        return Ok(());
    }
    Err(format!(
        "the database is damaged ({}); put back a copy, or move the file away to start afresh",
        problems.join("; ")
    ))
}

/// Refuses a database of another program, or of a newer morris.
fn check_ours(conn: &Connection) -> Result<(), String> {
    let read = |e: rusqlite::Error| format!("it cannot be read: {e}");
    let app: i64 = conn
        .query_row("PRAGMA application_id", [], |r| r.get(0))
        .map_err(read)?;
    let mut stmt = conn
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        .map_err(read)?;
    let tables: Vec<String> = stmt
        .query_map([], |r| r.get(0))
        .and_then(|rows| rows.collect())
        .map_err(read)?;
    let foreign: Vec<&str> = tables
        .iter()
        .map(String::as_str)
        .filter(|t| !TABLES.contains(t))
        .collect();
    if (app != 0 && app != APPLICATION_ID) || !foreign.is_empty() {
        let shown: Vec<String> = foreign.iter().take(5).map(|t| format!("{t:?}")).collect();
        return Err(format!(
            "it is not a database of morris (application id {app:#x}, tables {}); \
             give another file with --db",
            shown.join(", ")
        ));
    }
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(read)?;
    if version > SCHEMA_VERSION {
        return Err(format!(
            "the database was written by a newer morris (schema {version})"
        ));
    }
    Ok(())
}

/// What the writer knows of the database file, to tell what happened to it when SQLite fails.
#[derive(Debug)]
struct FileWatch {
    path: Option<PathBuf>,
    /// The file's device and inode when opened.
    identity: Option<(u64, u64)>,
    /// Its length after the last batch that succeeded.
    len: u64,
    /// The last damage reported, so that it is logged once.
    reported: Option<String>,
}

impl FileWatch {
    fn new(path: &Path) -> FileWatch {
        let path = (path != Path::new(":memory:")).then(|| path.to_owned());
        let meta = path.as_ref().and_then(|p| std::fs::metadata(p).ok());
        FileWatch {
            identity: meta.as_ref().map(identity),
            len: meta.map_or(0, |m| m.len()),
            path,
            reported: None,
        }
    }

    /// After a batch that succeeded: the file as it is now is the one to compare with.
    fn healthy(&mut self) {
        if let Some(meta) = self.path.as_ref().and_then(|p| std::fs::metadata(p).ok()) {
            self.len = meta.len();
        }
        if self.reported.take().is_some() {
            tracing::warn!("the database can be written again");
        }
    }

    /// After a failure: what happened to the file, if anything did. The first report of a
    /// damage is logged.
    fn damage(&mut self) -> Option<String> {
        let path = self.path.as_ref()?;
        let shown = path.display();
        let what = match std::fs::metadata(path) {
            Err(e) => format!("the file {shown} cannot be found any more ({e})"),
            Ok(meta) if Some(identity(&meta)) != self.identity => {
                format!("the file {shown} was replaced by another file")
            }
            Ok(meta) if meta.len() < self.len => format!(
                "the file {shown} was truncated from {} to {} bytes",
                self.len,
                meta.len()
            ),
            Ok(meta) if meta.permissions().readonly() => {
                format!("the file {shown} was made read-only")
            }
            Ok(_) => return None,
        };
        if self.reported.as_deref() != Some(what.as_str()) {
            tracing::error!(
                "the database cannot be used: {what}; games in memory are still shown, \
                 changes are refused until the file is put back"
            );
            self.reported = Some(what.clone());
        }
        Some(what)
    }
}

#[cfg(unix)]
fn identity(meta: &std::fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

#[cfg(not(unix))]
fn identity(_: &std::fs::Metadata) -> (u64, u64) {
    (0, 0)
}

fn writer(mut conn: Connection, queue: mpsc::Receiver<Job>, mut watch: FileWatch) {
    while let Ok(first) = queue.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match queue.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        run_batch(&mut conn, batch, &mut watch);
    }
}

/// A failure of SQLite, or the damage to the file that explains it.
fn explained(e: rusqlite::Error, watch: &mut FileWatch) -> StoreError {
    match watch.damage() {
        Some(what) => StoreError::Damaged(what),
        None => StoreError::from(e),
    }
}

fn run_batch(conn: &mut Connection, batch: Vec<Job>, watch: &mut FileWatch) {
    let tx = match conn.transaction() {
        Ok(tx) => tx,
        Err(e) => {
            let e = explained(e, watch);
            for Job(job) in batch {
                let (finish, _) = job(Err(&e));
                finish(Err(&e));
            }
            return;
        }
    };
    let mut finishes = Vec::with_capacity(batch.len());
    let mut failed = false;
    for Job(job) in batch {
        let (finish, sqlite_failed) = job(Ok(&tx));
        failed |= sqlite_failed;
        finishes.push(finish);
    }
    match tx.commit() {
        Ok(()) => {
            // A job that SQLite failed may be the first sign of damage to the file: its
            // caller then hears what happened rather than SQLite's words.
            let damage = if failed { watch.damage() } else { None };
            if damage.is_none() {
                watch.healthy();
            }
            for finish in finishes {
                finish(Ok(damage.as_deref()));
            }
        }
        Err(e) => {
            let e = explained(e, watch);
            tracing::error!("commit failed: {e}");
            for finish in finishes {
                finish(Err(&e));
            }
        }
    }
}

fn has_table(conn: &Connection, table: &str) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = ?1",
        [table],
        |r| r.get(0),
    )
}

/// Schemas 1 to 6 to 7: the players' standing and the reports' resolution, where those tables
/// exist already (else [`SCHEMA`] makes them whole).
fn migrate_to_7(conn: &Connection, version: i64) -> rusqlite::Result<()> {
    conn.execute_batch("BEGIN")?;
    if has_table(conn, "players")? {
        conn.execute_batch(MIGRATE_PLAYERS_TO_7)?;
    }
    if version == 6 && has_table(conn, "reports")? {
        conn.execute_batch(MIGRATE_REPORTS_FROM_6)?;
    }
    conn.execute_batch("PRAGMA user_version = 7; COMMIT;")
}

/// Schema 4 to 5, with the look of every user name computed here.
fn migrate_from_4(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch("BEGIN")?;
    for (table, sql) in MIGRATE_FROM_4 {
        let exists: bool = conn.query_row(
            "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = ?1",
            [table],
            |r| r.get(0),
        )?;
        if exists {
            conn.execute_batch(sql)?;
        }
    }
    let has_players: bool = conn.query_row(
        "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = 'players'",
        [],
        |r| r.get(0),
    )?;
    if !has_players {
        return conn.execute_batch("PRAGMA user_version = 5; COMMIT;");
    }
    let names: Vec<(i64, String)> = conn
        .prepare("SELECT id, name FROM players WHERE name IS NOT NULL")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    for (id, name) in names {
        conn.execute(
            "UPDATE players SET look = ?2 WHERE id = ?1",
            rusqlite::params![id, crate::text::skeleton(&name)],
        )?;
    }
    conn.execute_batch("PRAGMA user_version = 5; COMMIT;")
}

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests {
    use morris_core::{ByColor, Game, Position, Variant};
    use rusqlite::params;

    use super::*;
    use crate::game_state::{DrawAction, GameState};
    use crate::seat::{GameId, Name, Opponent, Player, Token};

    fn p(text: &str) -> morris_core::PlyText {
        text.parse().unwrap()
    }

    fn new_game(opponent: Opponent) -> (GameState, Token) {
        let t = Token::random();
        let g = GameState::new(
            GameId::random(),
            Game::new(Position::start(Variant::Nine)),
            opponent,
            ByColor::new(Player::Human(Name::new("Ann").ok()), Player::Human(None)),
            ByColor::new(Some(t.hash()), Some(t.hash())),
            now(),
        );
        (g, t)
    }

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
    }

    #[test]
    fn games_survive_a_reopen_of_the_file() {
        let dir = std::env::temp_dir().join(format!("morris-store-{}", GameId::random()));
        let path = dir.join("games.db");
        let rt = runtime();
        let (g, t) = new_game(Opponent::Local);
        let g = rt.block_on(async {
            let store = Store::open(&path).unwrap();
            store.insert(&g).await.unwrap();
            let mut g = g;
            for ply in ["d6", "f4", "d2"] {
                g = g.play(&t, &p(ply), 0).unwrap();
                store.update(&g).await.unwrap();
            }
            let g = g.draw(&t, DrawAction::Offer, false, 0).unwrap().unwrap();
            store.update(&g).await.unwrap();
            g
        });
        let back = rt.block_on(async {
            let store = Store::open(&path).unwrap();
            assert_eq!(store.count().await.unwrap(), 1);
            store.load(&g.id).await.unwrap().unwrap()
        });
        assert_eq!(back.game, g.game);
        assert_eq!(back.version, g.version);
        assert_eq!(back.draw_offer, g.draw_offer);
        assert_eq!(back.players, g.players);
        assert_eq!(back.seat_of(&t), g.seat_of(&t));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn stale_writes_are_refused_and_resignations_kept() {
        let rt = runtime();
        rt.block_on(async {
            let store = Store::open(Path::new(":memory:")).unwrap();
            let (g, t) = new_game(Opponent::Local);
            store.insert(&g).await.unwrap();
            assert!(matches!(store.insert(&g).await, Err(StoreError::Sqlite(_))));
            let a = g.play(&t, &p("d6"), 0).unwrap();
            store.update(&a).await.unwrap();
            let b = g.play(&t, &p("d2"), 0).unwrap();
            assert_eq!(
                store.update(&b).await,
                Err(StoreError::Stale(g.id.to_string()))
            );
            let r = a.resign(&t, 0).unwrap();
            store.update(&r).await.unwrap();
            let back = store.load(&g.id).await.unwrap().unwrap();
            assert_eq!(back.game.outcome(), r.game.outcome());
            assert!(store.load(&GameId::random()).await.unwrap().is_none());
        });
    }

    #[test]
    fn computer_games_waiting_for_a_ply_are_listed() {
        let rt = runtime();
        rt.block_on(async {
            let store = Store::open(Path::new(":memory:")).unwrap();
            let (mut g, t) = new_game(Opponent::Computer);
            g.players.black = Player::Computer(2);
            g.seats.black = None;
            store.insert(&g).await.unwrap();
            assert!(store.waiting_for_computer().await.unwrap().is_empty());
            let g = g.play(&t, &p("d6"), 0).unwrap();
            store.update(&g).await.unwrap();
            assert_eq!(
                store.waiting_for_computer().await.unwrap(),
                vec![g.id.clone()]
            );
        });
    }

    fn temp_db(name: &str) -> (PathBuf, PathBuf) {
        let dir = std::env::temp_dir().join(format!("morris-store-{name}-{}", GameId::random()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.db");
        (dir, path)
    }

    #[test]
    fn a_schema_6_database_gains_the_players_standing_and_the_reports_resolution() {
        let (dir, path) = temp_db("schema6");
        drop(Store::open(&path).unwrap());
        {
            // Schema 6 as it was: no standing, no resolution, no log.
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(
                "INSERT INTO players (id, name, password, created) VALUES (1, 'ann', 'x', 0);
                 INSERT INTO players (id, name, password, created) VALUES (2, 'kim', 'x', 0);
                 INSERT INTO reports (reporter, reported, reason, created) VALUES (1, 2, 'rude', 5);
                 ALTER TABLE players DROP COLUMN moderator;
                 ALTER TABLE players DROP COLUMN muted_until;
                 ALTER TABLE players DROP COLUMN closed;
                 ALTER TABLE reports DROP COLUMN resolved;
                 DROP TABLE mod_log;
                 PRAGMA user_version = 6;",
            )
            .unwrap();
        }
        let rt = runtime();
        rt.block_on(async {
            let store = Store::open(&path).unwrap();
            assert_eq!(
                store.standing(crate::accounts::PlayerId(2)).await.unwrap(),
                Standing::default()
            );
            let kim = crate::accounts::UserName::new("kim").unwrap();
            let done = store
                .moderate(kim, ModAction::Mute(Some(3600)), "ann".into(), 0)
                .await
                .unwrap();
            assert_eq!(done, Some(crate::accounts::PlayerId(2)));
            assert!(
                store
                    .standing(crate::accounts::PlayerId(2))
                    .await
                    .unwrap()
                    .muted(0)
            );
            let reports = store.reports(false, 10).await.unwrap();
            assert_eq!(reports[0].reason, "rude");
            assert!(store.resolve(reports[0].id, "ann".into(), 9).await.unwrap());
            assert_eq!(store.mod_log(10).await.unwrap().len(), 2);
        });
        let version: i64 = Connection::open(&path)
            .unwrap()
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, SCHEMA_VERSION);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn another_programs_database_is_refused_untouched() {
        let (dir, path) = temp_db("foreign");
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('x');")
                .unwrap();
        }
        let before = std::fs::read(&path).unwrap();
        let e = Store::open(&path).unwrap_err();
        assert!(e.to_string().contains("not a database of morris"), "{e}");
        assert!(e.to_string().contains("notes"), "{e}");
        assert_eq!(
            std::fs::read(&path).unwrap(),
            before,
            "the file is untouched"
        );
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["games.db"], "no journal or log was made beside it");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_damaged_database_is_refused_at_the_start() {
        let (dir, path) = temp_db("damaged");
        let rt = runtime();
        rt.block_on(async {
            let store = Store::open(&path).unwrap();
            for _ in 0..200 {
                store.insert(&new_game(Opponent::Local).0).await.unwrap();
            }
        });
        // Some page in the middle of the games' table turns to garbage.
        let mut bytes = std::fs::read(&path).unwrap();
        assert!(bytes.len() > 8 * 4096);
        bytes[3 * 4096..4 * 4096].fill(0xa5);
        std::fs::write(&path, &bytes).unwrap();
        let e = Store::open(&path).unwrap_err();
        assert!(e.to_string().contains("damaged"), "{e}");
        std::fs::remove_dir_all(dir).unwrap();
    }

    /// The rows of the plies table, by a connection of its own.
    fn ply_rows(path: &Path) -> Vec<(i64, String)> {
        let conn = Connection::open(path).unwrap();
        let mut stmt = conn.prepare("SELECT n, ply FROM plies ORDER BY n").unwrap();
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    }

    #[test]
    fn a_ply_is_appended_and_a_takeback_deletes_only_its_plies() {
        let (dir, path) = temp_db("append");
        let rt = runtime();
        let (g, t) = new_game(Opponent::Local);
        rt.block_on(async {
            let store = Store::open(&path).unwrap();
            store.insert(&g).await.unwrap();
            let mut g = g;
            for ply in ["d6", "f4", "d2"] {
                g = g.play(&t, &p(ply), 0).unwrap();
                store.update(&g).await.unwrap();
            }
            let rows = ply_rows(&path);
            assert_eq!(rows, [(0, "d6".into()), (1, "f4".into()), (2, "d2".into())]);
            let g = g.takeback(&t, 0).unwrap();
            store.update(&g).await.unwrap();
            assert_eq!(ply_rows(&path), rows[..2]);
            let back = store.load(&g.id).await.unwrap().unwrap();
            assert_eq!(back.game.ply_texts(), ["d6", "f4"]);
        });
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_database_of_schema_1_is_brought_to_one_row_per_ply() {
        let (dir, path) = temp_db("schema1");
        let (g, t) = new_game(Opponent::Local);
        let g = g
            .play(&t, &p("d6"), 0)
            .unwrap()
            .play(&t, &p("f4"), 0)
            .unwrap();
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(
                "CREATE TABLE games (
                    id TEXT PRIMARY KEY, variant TEXT NOT NULL, start TEXT NOT NULL,
                    moves TEXT NOT NULL, opponent TEXT NOT NULL,
                    white_level INTEGER, white_name TEXT, white_token BLOB,
                    black_level INTEGER, black_name TEXT, black_token BLOB,
                    ended TEXT, draw_offer TEXT, version INTEGER NOT NULL,
                    over INTEGER NOT NULL, computer_to_move INTEGER NOT NULL,
                    created INTEGER NOT NULL, updated INTEGER NOT NULL) STRICT;
                 PRAGMA user_version = 1;",
            )
            .unwrap();
            let hash = g.seats.white.unwrap().0.to_vec();
            for (id, moves) in [(g.id.as_str(), "d6  f4"), ("emptyemptyem", "")] {
                conn.execute(
                    "INSERT INTO games VALUES (?1, 'nine', ?2, ?3, 'local', NULL, 'Ann', ?4,
                         NULL, NULL, ?4, NULL, NULL, 3, 0, 0, 0, 0)",
                    params![id, g.game.start().to_string(), moves, hash],
                )
                .unwrap();
            }
        }
        let rt = runtime();
        rt.block_on(async {
            let store = Store::open(&path).unwrap();
            let back = store.load(&g.id).await.unwrap().unwrap();
            assert_eq!(back.game, g.game);
            let empty = store
                .load(&"emptyemptyem".parse().unwrap())
                .await
                .unwrap()
                .unwrap();
            assert!(empty.game.plies().is_empty());
            let next = back.play(&t, &p("d2"), 0).unwrap();
            store.update(&next).await.unwrap();
        });
        assert_eq!(ply_rows(&path).len(), 3);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
