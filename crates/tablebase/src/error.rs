//! The errors of building, reading and probing tablebases.

use std::fmt;
use std::path::PathBuf;

use crate::sector::Sector;

/// What can go wrong with tablebases.
#[derive(Debug)]
#[non_exhaustive]
pub enum TbError {
    /// A file could not be read or written.
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A file is damaged: wrong size, bad checksum, bad header.
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// A file is a tablebase file of other rules, another sector or another version.
    Foreign {
        /// The file.
        path: PathBuf,
        /// What does not match.
        reason: String,
    },
    /// A sector needed is not built.
    Missing(Sector),
    /// The rules or the sector asked for are not supported.
    Unsupported(String),
    /// A distance grew beyond what a byte stores.
    TooLong(Sector),
    /// A sector needs more memory than allowed.
    TooBig {
        /// The sectors solved together.
        sectors: String,
        /// The bytes they need.
        needed: u64,
        /// The bytes allowed.
        limit: u64,
    },
    /// Verification found a stored value that forward generation contradicts.
    Mismatch {
        /// The position.
        position: String,
        /// The value stored.
        stored: String,
        /// The value recomputed.
        computed: String,
    },
}

impl fmt::Display for TbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TbError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            TbError::Corrupt { path, reason } => {
                write!(f, "{}: corrupt tablebase file: {reason}", path.display())
            }
            TbError::Foreign { path, reason } => {
                write!(
                    f,
                    "{}: not a file of these tables: {reason}",
                    path.display()
                )
            }
            TbError::Missing(s) => write!(f, "sector {s} is not built (run morris tb build)"),
            TbError::Unsupported(m) => f.write_str(m),
            TbError::TooLong(s) => write!(
                f,
                "sector {s}: a distance exceeds {} plies, more than a byte holds",
                crate::value::MAX_DISTANCE
            ),
            TbError::TooBig {
                sectors,
                needed,
                limit,
            } => write!(
                f,
                "sectors {sectors} need {} MiB of memory, more than the {} MiB allowed",
                needed >> 20,
                limit >> 20
            ),
            TbError::Mismatch {
                position,
                stored,
                computed,
            } => write!(
                f,
                "verification failed at {position}: stored {stored}, recomputed {computed}"
            ),
        }
    }
}

impl std::error::Error for TbError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TbError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl TbError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> TbError {
        TbError::Io {
            path: path.into(),
            source,
        }
    }
}
