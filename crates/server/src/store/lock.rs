//! One server per database file: the lock that a server holds on `<database>.lock` while it
//! runs.
//!
//! SQLite's own locks are per transaction; two servers on one file would each keep games and
//! sessions in memory that the other changes under them. The lock file is separate from the
//! database (whose locks are SQLite's) and stays in place when the server ends: the operating
//! system releases the lock with the process, whether it exits or is killed.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

use super::StoreError;

/// The exclusive lock of a database file, held until it is dropped.
#[derive(Debug)]
pub struct DatabaseLock {
    _file: Option<File>,
    path: PathBuf,
}

/// The lock file of a database: its path with `.lock` added.
pub fn lock_path(db: &Path) -> PathBuf {
    let mut path = db.as_os_str().to_owned();
    path.push(".lock");
    PathBuf::from(path)
}

impl DatabaseLock {
    /// Locks the database at `db` for this process, creating its folder and lock file if
    /// needed. A database in memory (`:memory:`) needs no lock: the lock then holds nothing.
    ///
    /// # Errors
    ///
    /// [`StoreError::Open`] when another process holds the lock (another server uses the
    /// file), or the lock file cannot be made.
    pub fn acquire(db: &Path) -> Result<DatabaseLock, StoreError> {
        let open_error = |reason: String| StoreError::Open {
            path: db.to_owned(),
            reason,
        };
        let path = lock_path(db);
        if db == Path::new(":memory:") {
            return Ok(DatabaseLock { _file: None, path });
        }
        if let Some(dir) = db.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| open_error(e.to_string()))?;
        }
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| open_error(format!("its lock file {}: {e}", path.display())))?;
        match file.try_lock() {
            Ok(()) => Ok(DatabaseLock {
                _file: Some(file),
                path,
            }),
            Err(TryLockError::WouldBlock) => Err(open_error(format!(
                "another morris server uses it (it holds {})",
                path.display()
            ))),
            Err(TryLockError::Error(e)) => Err(open_error(format!(
                "its lock file {} cannot be locked: {e}",
                path.display()
            ))),
        }
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_of_one_file_is_refused_until_the_first_is_dropped() {
        let dir = std::env::temp_dir().join(format!(
            "morris-lock-{}-{}",
            std::process::id(),
            crate::seat::GameId::random()
        ));
        let db = dir.join("games.db");
        let first = DatabaseLock::acquire(&db).unwrap();
        assert_eq!(first.path(), dir.join("games.db.lock"));
        let e = DatabaseLock::acquire(&db).unwrap_err().to_string();
        assert!(e.contains("another morris server uses it"), "{e}");
        assert!(e.contains(&db.display().to_string()), "{e}");
        let other = DatabaseLock::acquire(&dir.join("other.db"));
        assert!(other.is_ok(), "another file is free");
        drop(first);
        assert!(
            DatabaseLock::acquire(&db).is_ok(),
            "free again once dropped"
        );
        let memory = Path::new(":memory:");
        let (_a, _b) = (DatabaseLock::acquire(memory), DatabaseLock::acquire(memory));
        assert!(
            _a.is_ok() && _b.is_ok(),
            "a database in memory is nobody's to share"
        );
        std::fs::remove_dir_all(dir).unwrap();
    }
}
